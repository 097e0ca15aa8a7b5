/*
 * Internals shared by the files of src/tune/: the profile structure, the
 * diagnostics list, line splitting and token quoting.
 */
#ifndef MG_TUNE_PROFILE_INTERNAL_H
#define MG_TUNE_PROFILE_INTERNAL_H

#include <stdarg.h>

#include "tune/profile.h"
#include "util/parse.h"
#include "util/strbuf.h"

/* A slice of process counts np_lo..np_hi of one collective, pointing at the
 * ranges of the group that decides there (the narrowest enclosing np
 * selector): those of its rules without selectors, and its decision table by
 * selectors when some of its rules have them. */
typedef struct mg_prof_npmap {
  int np_lo, np_hi;
  int first, n;           /* into ranges[]: the rules without selectors */
  int sel;                /* into seltabs[], -1 when no rule of the selector has type= or op= */
  mg_profile_sizes sizes; /* ranges[first .. first+n) in per-call form */
} mg_prof_npmap;

struct mg_profile {
  mg_profile_rule *rules; /* canonical order once built */
  int nrules, cap;
  char **files; /* source names of rules, for diagnostics */
  int nfiles;
  char **preamble;
  int npreamble;
  /* the index, valid when built */
  int built;
  mg_profile_range *ranges; /* parallel to rules */
  mg_prof_npmap *npmap;
  int nnpmap;
  mg_profile_seltab *seltabs; /* one per np selector whose rules have selectors */
  int nseltabs;
  uint16_t *sizeidx; /* the size-class indexes of the long selector groups (mg_profile_sizes) */
  int npmap_first[MG_NCOLL + 1]; /* npmap slice of each collective */
  uint64_t hash;
  int file_version; /* of the version line read; 0 built through the API, or .prf */
};

/* Append a problem ("file" may be NULL). Returns status, for `return mg_prof_diag(...)`. */
int mg_prof_diag(mg_profile_diags *d, const char *file, int line, int status, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Append a rule with its origin; no checks beyond mg_profile_add_sel's. */
int mg_prof_add_at(mg_profile *p, mg_coll coll, int np_lo, int np_hi, size_t lo, size_t hi, int tclass, int opsel,
                   int alg, const char *comment, int file, int line);
/* Index of `name` in p->files, adding it; -1 out of memory. */
int mg_prof_file_index(mg_profile *p, const char *name);
void mg_prof_sort(mg_profile *p);
/* A size range as the format spells it: "1K-64K", "1M-*", "*". */
void mg_prof_fmt_range(size_t lo, size_t hi, char *buf, size_t size);
/* A rule's selectors with a leading blank: " type=float op=sum", " op=max", "". */
void mg_prof_fmt_sel(const mg_profile_rule *r, char *buf, size_t size);
/* Whether some rule has a selector (the profile is written as version 2). */
int mg_prof_has_sel(const mg_profile *p);
void mg_prof_unbuild(mg_profile *p);

/* Copy a token for a message: at most 40 characters, non-printable bytes as
 * '?', "..." when cut. */
const char *mg_prof_quote(const char *s, size_t n, char *buf, size_t size);

/* Line iteration over buf[0..len), for pos < len: sets *line and *n (without
 * '\n' and a final '\r') and returns the offset of the next line. */
size_t mg_prof_next_line(const char *buf, size_t len, size_t pos, const char **line, size_t *n);

/* Split a NUL-terminated line in place into whitespace-separated tokens
 * before a '#'; *comment is what follows the '#', trimmed (NULL if none).
 * Stores up to `max` tokens, returns how many there are in all. */
int mg_prof_split(char *line, char **tok, int max, char **comment);

/* A NUL-terminated copy of a line, in a buffer reused across lines. 0, or -1
 * out of memory. */
typedef struct mg_prof_linebuf {
  char *s;
  size_t cap;
} mg_prof_linebuf;
int mg_prof_linebuf_set(mg_prof_linebuf *b, const char *line, size_t n);

/* The state both readers (mpiguide format, .prf) keep while parsing one
 * source: where problems go, the current line, the first problem's status. */
typedef struct mg_prof_reader {
  mg_profile *p;
  mg_profile_diags *d;
  const char *file;
  int fidx;
  int line;
  int first;   /* status of the first problem */
  int version; /* of the version line; 0 while unknown (missing, unsupported) */
} mg_prof_reader;

/* Record a problem's status (the first one is what the reader returns). */
static inline void mg_prof_note(mg_prof_reader *r, int st) {
  if (r->first == MG_PROFILE_OK) r->first = st;
}
#define MG_PROF_ERR(r, st, ...) \
  mg_prof_note((r), mg_prof_diag((r)->d, (r)->file, (r)->line, MG_PROFILE_##st, __VA_ARGS__))

/*
 * The next line of buf[0..len) from *pos, counted in r->line, copied into lb
 * and split into at most max tokens (and *comment); the raw line is left in
 * *raw and *rawn (without its end of line) unless they are NULL. Returns the number of
 * tokens, MG_PROF_SKIP for a line with a NUL byte (reported), or
 * MG_PROF_STOP when reading must end (too many lines, out of memory; reported).
 */
#define MG_PROF_SKIP (-1)
#define MG_PROF_STOP (-2)
int mg_prof_take_line(mg_prof_reader *r, const char *buf, size_t len, size_t *pos, mg_prof_linebuf *lb, char **tok,
                      int max, char **comment, const char **raw, size_t *rawn);

/* Read a whole file (at most MG_PROF_FILE_MAX bytes). MG_PROFILE_OK or a
 * status, with a diagnostic appended. */
#define MG_PROF_FILE_MAX ((size_t)64 << 20)
int mg_prof_read_file(const char *path, char **buf, size_t *len, mg_profile_diags *d);

/* Write text[0..len) to `path` through `path`.tmp, renamed onto it when complete (a reader
 * opening `path` sees the old file or the new one, never a part). MG_PROFILE_OK, _NOMEM, _IO. */
int mg_prof_save_text(const char *path, const char *text, size_t len);

/* The length of buf[0..len) up to and including its last line break: len when the file ends
 * with one (or is empty), less when its last line has none, i.e. the file looks cut there. */
size_t mg_prof_whole_len(const char *buf, size_t len);
/* Report the last line of r's file, which has no line break (r->line counts it). */
void mg_prof_report_cut(mg_prof_reader *r, const char *what_to_do);

#endif
