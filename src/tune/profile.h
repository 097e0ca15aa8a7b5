/*
 * Tuning profiles (docs/profile.md): which algorithm to run per collective,
 * process count and message-size range. The reader (mpiguide format and the
 * PGMPITuneLib .prf format), the writer, validation, the content hash and the
 * per-call lookup.
 *
 * Nothing here prints: every problem is returned as data (mg_profile_diags),
 * each with file, line and a message that says what is wrong and what to do.
 * A profile with any error is rejected as a whole (*out = NULL); the caller
 * reports the diagnostics and runs the defaults (DESIGN.md rule 6).
 *
 * Life cycle: a profile comes from mg_profile_parse()/mg_profile_load()/
 * mg_profile_import_prf()/mg_profile_open(), already built; or from
 * mg_profile_new() + mg_profile_add()/mg_profile_add_sel() + mg_profile_build()
 * (the tuner).
 * A built profile is read-only: lookups need no lock and allocate nothing.
 * The caller owns the profile and frees it with mg_profile_free().
 */
#ifndef MG_TUNE_PROFILE_H
#define MG_TUNE_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "registry/datatype.h"
#include "registry/registry.h"

/*
 * Format versions. Version 1: rules without selectors. Version 2: rules may
 * carry type= and op= selectors (reductions only). Version 3: as version 2,
 * and the last line is the end line "end-of-profile rules=<N>" (N: the number
 * of rule lines), so that a file cut at a line end, or pieced together from
 * two writes, is refused instead of read as a shorter profile. The reader
 * reads all three (selectors in a version-1 file, an end line in a version-1
 * or -2 file are errors); the writer writes version 3.
 */
#define MG_PROFILE_FORMAT 3     /* the newest version this code reads and writes */
#define MG_PROFILE_FORMAT_MIN 1 /* the oldest version it reads */
#define MG_PROFILE_FORMAT_END 3 /* the first version with an end line */
#define MG_PROFILE_MAGIC "mpiguide-profile"
#define MG_PROFILE_END "end-of-profile" /* the end line: MG_PROFILE_END " rules=<N>" */

/* Status codes. X(ENUM, text). Every diagnostic carries one. */
#define MG_PROFILE_STATUSES(X)                                                                               \
  X(OK, "no error")                                                                                          \
  X(NOMEM, "out of memory")                                                                                  \
  X(IO, "cannot read or write the file")                                                                     \
  X(VERSION, "missing or unsupported version line")                                                          \
  X(SYNTAX, "syntax error")                                                                                  \
  X(COLL, "unknown collective")                                                                              \
  X(ALG, "unknown algorithm")                                                                                \
  X(SIZE, "bad message size")                                                                                \
  X(NP, "bad process count")                                                                                 \
  X(OVERLAP, "overlapping ranges")                                                                           \
  X(DUPLICATE, "duplicate rule")                                                                             \
  X(TCLASS, "unknown datatype class")                                                                        \
  X(OPSEL, "unknown op")                                                                                     \
  X(SELECTOR, "misplaced or impossible selector")                                                            \
  X(INVALID, "invalid argument")                                                                             \
  X(TRUNCATED, "the file looks cut (truncated)")

typedef enum {
#define MG_X(E, t) MG_PROFILE_##E,
  MG_PROFILE_STATUSES(MG_X)
#undef MG_X
      MG_PROFILE_NSTATUS
} mg_profile_status;

const char *mg_profile_strerror(int status);

/* One problem. file may be NULL (a rule added through the API); line 0 means
 * the whole file. msg does not repeat file and line. */
typedef struct mg_profile_diag {
  char *file;
  int line;
  mg_profile_status status;
  char *msg;
} mg_profile_diag;

/*
 * A list of problems, collected across calls. Keeps at most `max` (set by
 * mg_profile_diags_init; 0 there means MG_PROFILE_DIAGS_MAX) and counts the
 * rest in `dropped`. Zero-initialised it is valid, with the default limit.
 */
#define MG_PROFILE_DIAGS_MAX 100
typedef struct mg_profile_diags {
  mg_profile_diag *v;
  int n, cap;
  int max;
  int dropped; /* problems not stored because of the limit or of memory */
} mg_profile_diags;

void mg_profile_diags_init(mg_profile_diags *d, int max);
void mg_profile_diags_free(mg_profile_diags *d); /* and leaves it empty, reusable */
/* "file:line: msg" ("file: msg" for line 0); returns what snprintf returns. */
int mg_profile_diag_format(const mg_profile_diag *g, char *buf, size_t size);

/* A rule as given: the algorithm `alg` (registry index, 0 = default) for
 * collective `coll`, process counts np_lo..np_hi and message sizes lo..hi
 * bytes, all bounds inclusive. np=* is 1..INT_MAX, an open size range ends at
 * SIZE_MAX. tclass and opsel are the type= and op= selectors (registry/
 * datatype.h; 0 = MG_TCLASS_ANY / MG_OPSEL_ANY: no selector, every datatype /
 * op); only reductions have them. `comment` (without '#', may be NULL) is kept
 * for the writer. */
typedef struct mg_profile_rule {
  mg_coll coll;
  int np_lo, np_hi;
  size_t lo, hi;
  int tclass, opsel;
  int alg;
  char *comment;
  int file; /* index into the profile's source names, -1 if none */
  int line; /* source line, 0 if added through the API */
} mg_profile_rule;

/* The per-call form: the size ranges of one (collective, np selector, type
 * selector, op selector) group, sorted by lo, non-overlapping. */
typedef struct mg_profile_range {
  size_t lo, hi;
  int alg;
  int line; /* of the rule it comes from (0: added through the API, or a .prf file) */
} mg_profile_range;

typedef struct mg_profile mg_profile;

/* ---- reading ---------------------------------------------------------------------------- */

/* Parse the mpiguide format from buf[0..len) (need not be NUL-terminated);
 * `name` is the file name used in diagnostics (NULL: "<buffer>"). On success
 * returns MG_PROFILE_OK and a built profile in *out; otherwise the status of
 * the first problem, *out = NULL, and every problem appended to d (d may be
 * NULL). */
int mg_profile_parse(const char *buf, size_t len, const char *name, mg_profile **out, mg_profile_diags *d);
/* Read and parse a file in the mpiguide format. */
int mg_profile_load(const char *path, mg_profile **out, mg_profile_diags *d);

/* PGMPITuneLib .prf profiles: one file, or every *.prf file of a directory
 * (in name order). The result is an mpiguide profile; its preamble names the
 * imported files. */
int mg_profile_import_prf(const char *path, mg_profile **out, mg_profile_diags *d);
int mg_profile_parse_prf(const char *buf, size_t len, const char *name, mg_profile **out,
                         mg_profile_diags *d);

/* Whatever `path` is: a directory or a *.prf file is imported as
 * PGMPITuneLib, anything else is read as the mpiguide format. */
int mg_profile_open(const char *path, mg_profile **out, mg_profile_diags *d);

/* ---- building (the tuner) ---------------------------------------------------------------- */

mg_profile *mg_profile_new(void); /* empty and built; NULL if out of memory */
void mg_profile_free(mg_profile *p);

/* Append a rule without selectors (comment may be NULL; it is copied; line
 * breaks in it become spaces). Returns MG_PROFILE_INVALID for an unknown
 * collective or algorithm, np_lo < 1, np_lo > np_hi or lo > hi. Leaves the
 * profile unbuilt: lookups answer 0 until mg_profile_build(). */
int mg_profile_add(mg_profile *p, mg_coll coll, int np_lo, int np_hi, size_t lo, size_t hi, int alg,
                   const char *comment);
/* The same with the type= and op= selectors: tclass 0..MG_NTCLASS-1, opsel
 * 0..MG_NOPSEL-1 (0: none, as mg_profile_add). MG_PROFILE_INVALID also for
 * a selector out of range, a selector on a collective that is not a reduction
 * (mg_colls[coll].reduction), and an op MPI does not define on the class
 * (mg_sel_defined: such a rule would match no call). */
int mg_profile_add_sel(mg_profile *p, mg_coll coll, int np_lo, int np_hi, size_t lo, size_t hi, int tclass,
                       int opsel, int alg, const char *comment);
/* Append a line to the preamble: the comment lines written after the version
 * line (provenance: MPI library, date, thresholds). Without the '#'. */
int mg_profile_add_preamble(mg_profile *p, const char *line);
/*
 * Merge ranges of the same collective, process counts and selectors that overlap or
 * touch (hi + 1 == next lo) and have the same algorithm. Comments of merged
 * rules are joined with "; " (equal ones kept once). Sorts the rules, leaves
 * the profile unbuilt, returns the number of merges (or -1 out of memory).
 */
int mg_profile_merge_touching(mg_profile *p);
/* Sort, check (overlaps, duplicates, nesting of process-count ranges), index
 * and hash. Returns MG_PROFILE_OK or the first problem's status (all of them
 * in d); on error the profile stays unbuilt. */
int mg_profile_build(mg_profile *p, mg_profile_diags *d);

/* ---- reading a built profile ------------------------------------------------------------- */

int mg_profile_nrules(const mg_profile *p);
/* The rules in canonical order (collective, np_lo, np_hi descending, tclass,
 * opsel, lo) once built. */
const mg_profile_rule *mg_profile_rule_at(const mg_profile *p, int i);
int mg_profile_npreamble(const mg_profile *p);
/* The version the writer writes: MG_PROFILE_FORMAT (3). */
int mg_profile_version(const mg_profile *p);
/* The version line of the file the profile was read from (1 .. MG_PROFILE_FORMAT); 0 when it
 * was built through the API or imported from .prf files. Below MG_PROFILE_FORMAT_END the file
 * had no end line: a cut at a line end could not be told (mpiguide profile validate warns). */
int mg_profile_file_version(const mg_profile *p);
const char *mg_profile_preamble_at(const mg_profile *p, int i);

/*
 * 64-bit FNV-1a over the canonical serialization of the decisions: rules
 * sorted, touching ranges with equal algorithms merged, selectors and
 * algorithms by name; comments, preamble, spelling of sizes and whitespace do
 * not count (docs/profile.md, "The hash"). Ranks compare it with one
 * reduction. 0 for NULL or an unbuilt profile.
 */
uint64_t mg_profile_hash(const mg_profile *p);

/*
 * The algorithm for a call of a reduction whose datatype has class `tclass`
 * and whose op has selector `opsel` (mg_tclass_of / mg_opsel_of: 1.., or
 * MG_TCLASS_NONE / MG_OPSEL_NONE; ANY (0) means the same as NONE here: the
 * call has no class to match a selector): registry index, 0 (the default)
 * when no rule decides, for a NULL or unbuilt profile and for out-of-range
 * arguments. The narrowest np selector containing nprocs decides; among its
 * rules the most specific selector group that matches the call and has any
 * rule (type+op, type, op, none); within it the range containing bytes, else
 * the default. A binary search for the process count, then the size's class
 * in the slice's index (mg_profile_sizes); no allocation, read-only.
 */
int mg_profile_lookup_sel(const mg_profile *p, mg_coll coll, int nprocs, size_t bytes, int tclass, int opsel);
/* The same for a call that no selector matches (a non-reduction, or a
 * reduction on a datatype without a class with a user-defined op): only rules
 * without selectors govern it. = mg_profile_lookup_sel(..., MG_TCLASS_NONE,
 * MG_OPSEL_NONE). */
int mg_profile_lookup(const mg_profile *p, mg_coll coll, int nprocs, size_t bytes);

/*
 * The per-call form of one selector group of one process-count slice: its size
 * ranges (sorted by lo, disjoint) and, when there are more than
 * MG_PROFILE_INDEX_MIN of them, an index by size class. Class k (0 .. 63) holds
 * the sizes whose highest set bit is bit k (class 0: 0 and 1); idx[k] is the
 * first range that ends at or above the class's smallest size, so the ranges
 * that can hold a size of class k are r[idx[k]] .. r[idx[k+1]] (the last one
 * may start in class k and go on). A lookup is one bit scan, two loads and a
 * binary search among those few (one or two when ranges follow powers of two,
 * as tuned profiles do), whatever the number of ranges; without an index it
 * is a binary search over all n. Read-only, built with the profile.
 */
#define MG_PROFILE_NCLASS 64
#define MG_PROFILE_INDEX_MIN 4
typedef struct mg_profile_sizes {
  const mg_profile_range *r;
  int n;
  const uint16_t *idx; /* MG_PROFILE_NCLASS + 1 entries, or NULL */
} mg_profile_sizes;

/* The slice of (coll, nprocs) for a call no selector matches, for caching per
 * communicator: the ranges of the rules without selectors of the narrowest np
 * selector containing nprocs. Returns their number and points *ranges at them
 * (NULL, 0 when none). The pointer stays valid until the profile is changed
 * or freed. When mg_profile_slice_sel() is not NULL, it decides instead. */
int mg_profile_slice(const mg_profile *p, mg_coll coll, int nprocs, const mg_profile_range **ranges);
/* The same slice in its per-call form (never NULL: an empty one, n = 0, when
 * there is none). Valid until the profile is changed or freed. */
const mg_profile_sizes *mg_profile_slice_sizes(const mg_profile *p, mg_coll coll, int nprocs);

/*
 * The decision table of (coll, nprocs) when the rules of the narrowest np
 * selector containing nprocs have selectors; NULL when they have none (then
 * mg_profile_slice() decides every call, and a call needs no classification).
 * cell[t][o] is the size-range slice that decides a call of class t and op
 * selector o (0 = the call has none): the most specific group with rules
 * (n = 0 when no group matches).
 */
typedef struct mg_profile_seltab {
  int by_type, by_op; /* whether some rule here has type= / op= (else the call's class is not needed) */
  mg_profile_sizes cell[MG_NTCLASS][MG_NOPSEL];
} mg_profile_seltab;
const mg_profile_seltab *mg_profile_slice_sel(const mg_profile *p, mg_coll coll, int nprocs);

/* The slice of a table for a call of class tclass and op opsel (NONE or out of
 * range: 0). */
static inline const mg_profile_sizes *mg_profile_seltab_pick(const mg_profile_seltab *s, int tclass, int opsel) {
  if (tclass < 0 || tclass >= MG_NTCLASS) tclass = 0;
  if (opsel < 0 || opsel >= MG_NOPSEL) opsel = 0;
  return &s->cell[tclass][opsel];
}

/* Binary search in a slice: the range that holds `bytes`, NULL outside every range. */
static inline const mg_profile_range *mg_profile_slice_find(const mg_profile_range *r, int n, size_t bytes) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) { /* last range with r.lo <= bytes */
    int mid = lo + (hi - lo) / 2;
    if (r[mid].lo <= bytes)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  return (hi >= 0 && bytes <= r[hi].hi) ? &r[hi] : NULL;
}

/* The algorithm for `bytes` in a slice, 0 (default) outside every range. */
static inline int mg_profile_slice_lookup(const mg_profile_range *r, int n, size_t bytes) {
  const mg_profile_range *hit = mg_profile_slice_find(r, n, bytes);
  return hit ? hit->alg : 0;
}

/* The size class of a message size: the index of its highest set bit (0 for 0 and 1). */
static inline unsigned mg_profile_size_class(size_t bytes) {
  return 63u - (unsigned)__builtin_clzll((unsigned long long)bytes | 1u);
}

/* The range of a per-call slice that holds `bytes`, NULL outside every range. */
static inline const mg_profile_range *mg_profile_sizes_find(const mg_profile_sizes *s, size_t bytes) {
  if (!s->idx) return mg_profile_slice_find(s->r, s->n, bytes);
  const uint16_t *ix = s->idx + mg_profile_size_class(bytes);
  int first = ix[0], last = ix[1] < s->n ? ix[1] : s->n - 1;
  if (first >= s->n) return NULL; /* every range ends below the class */
  const mg_profile_range *r = s->r + first;
  /* the first candidate settles most lookups (a size in a gap before it, or in it), with two
   * compares; the others are searched */
  if (bytes < r->lo) return NULL;
  if (bytes <= r->hi) return r;
  return mg_profile_slice_find(r + 1, last - first, bytes);
}

/* ---- writing ----------------------------------------------------------------------------- */

/* The canonical text of a built profile: version line (MG_PROFILE_FORMAT),
 * preamble, then the rules sorted, aligned, one blank line between
 * (collective, np, type, op) groups, and the end line "end-of-profile rules=N"
 * after a blank line. Every producer of profile text (tune, profile merge and
 * upgrade, validate --print, the online mode's MPIGUIDE_PROFILE_OUT) writes it.
 * Returns a malloc'd NUL-terminated string (length in *len if len != NULL),
 * NULL if unbuilt or out of memory. */
char *mg_profile_format(const mg_profile *p, size_t *len);
/* Write the canonical text to f. MG_PROFILE_OK, _INVALID (unbuilt), _NOMEM or _IO. */
int mg_profile_write(const mg_profile *p, FILE *f);
/* Write to `path` through `path`.tmp renamed at the end. */
int mg_profile_save(const mg_profile *p, const char *path);

/* Size and process-count spellings of the format, for other writers
 * (e.g. the tuner's messages): "64K", "1536", "*"; "np=4", "np=2-8", "np=*". */
void mg_profile_fmt_size(size_t v, char *buf, size_t size);
void mg_profile_fmt_np(int lo, int hi, char *buf, size_t size);

/* ---- the command-line front end ---------------------------------------------------------- */

/*
 * `mpiguide profile validate [--quiet] [--print] FILE|DIR...`: argv[0] is
 * the command name. Prints every problem as "file:line: message" on stderr.
 * Returns 0 if all inputs are valid, 1 if not, 2 for usage errors.
 */
int mg_profile_validate_main(int argc, char **argv);

/*
 * The text of a valid mpiguide profile of an older version (buf[0..len), read as name) in
 * version 3: the same bytes with the version line made 'mpiguide-profile 3' and the end line
 * appended, so that comments and layout stay as they are. A version-3 input is returned as it
 * is. MG_PROFILE_OK and a malloc'd text in *out (length *outlen), or the reader's status with
 * its problems in d.
 */
int mg_profile_upgrade_text(const char *buf, size_t len, const char *name, char **out, size_t *outlen,
                            mg_profile_diags *d);
/* `mpiguide profile upgrade [-o OUT] FILE...`: rewrite each file in version 3 (through
 * FILE.tmp, renamed onto it). Exit status 0, 1 (a file invalid or not writable) or 2. */
int mg_profile_upgrade_main(int argc, char **argv);

/*
 * Merge built profiles ps[0..n) (names: for messages) into *out, keeping the choices they agree
 * on (src/tune/merge.c says how; all: only pieces every input covers). Conflicts are written to
 * report and counted in *conflicts. 0, or 1 after a message on report (inputs of different MPI
 * libraries, merged rules that do not form a valid profile, out of memory).
 */
int mg_profile_merge_agreeing(mg_profile *const *ps, int n, char *const *names, int all, mg_profile **out,
                              int *conflicts, FILE *report);
/* `mpiguide profile merge [--all] [-o OUT] PROFILE...`; exit status 0, 1 or 2. */
int mg_profile_merge_main(int argc, char **argv);

#endif
