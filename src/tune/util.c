/*
 * Small helpers of the profile module: status texts, the diagnostics list,
 * line splitting, reading a file whole (the string builder and the digit
 * parser are in src/util).
 * Nothing here prints; problems are appended to an mg_profile_diags.
 */
#include <limits.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tune/profile_internal.h"
#include "util/text.h"

static const char *const status_text[MG_PROFILE_NSTATUS] = {
#define MG_X(E, t) [MG_PROFILE_##E] = t,
    MG_PROFILE_STATUSES(MG_X)
#undef MG_X
};

const char *mg_profile_strerror(int status) {
  return status >= 0 && status < MG_PROFILE_NSTATUS ? status_text[status] : "unknown status";
}

/* ---- diagnostics ------------------------------------------------------------------------- */

void mg_profile_diags_init(mg_profile_diags *d, int max) {
  memset(d, 0, sizeof *d);
  d->max = max;
}

void mg_profile_diags_free(mg_profile_diags *d) {
  if (!d) return;
  for (int i = 0; i < d->n; i++) {
    free(d->v[i].file);
    free(d->v[i].msg);
  }
  free(d->v);
  d->v = NULL;
  d->n = d->cap = d->dropped = 0;
}

int mg_profile_diag_format(const mg_profile_diag *g, char *buf, size_t size) {
  const char *file = g->file ? g->file : "<profile>";
  if (g->line > 0) return snprintf(buf, size, "%s:%d: %s", file, g->line, g->msg);
  return snprintf(buf, size, "%s: %s", file, g->msg);
}

int mg_prof_diag(mg_profile_diags *d, const char *file, int line, int status, const char *fmt, ...) {
  if (!d) return status;
  int max = d->max > 0 ? d->max : MG_PROFILE_DIAGS_MAX;
  if (d->n >= max) {
    d->dropped++;
    return status;
  }
  if (d->n == d->cap) {
    int cap = d->cap ? 2 * d->cap : 8;
    mg_profile_diag *v = realloc(d->v, (size_t)cap * sizeof *v);
    if (!v) {
      d->dropped++;
      return status;
    }
    d->v = v;
    d->cap = cap;
  }
  mg_str m = {0};
  va_list ap;
  va_start(ap, fmt);
  mg_str_vaddf(&m, fmt, ap);
  va_end(ap);
  char *f = file ? strdup(file) : NULL;
  if (m.failed || !m.s || (file && !f)) {
    free(m.s);
    free(f);
    d->dropped++;
    return status;
  }
  d->v[d->n++] = (mg_profile_diag){f, line, (mg_profile_status)status, m.s};
  return status;
}

/* ---- tokens and lines -------------------------------------------------------------------- */

const char *mg_prof_quote(const char *s, size_t n, char *buf, size_t size) {
  const size_t keep = 40;
  size_t o = 0;
  if (size == 0) return buf;
  for (size_t i = 0; i < n && i < keep && o + 1 < size; i++) {
    unsigned char c = (unsigned char)s[i];
    buf[o++] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
  }
  if (n > keep)
    for (int k = 0; k < 3 && o + 1 < size; k++) buf[o++] = '.';
  buf[o] = '\0';
  return buf;
}

size_t mg_prof_next_line(const char *buf, size_t len, size_t pos, const char **line, size_t *n) {
  const char *nl = memchr(buf + pos, '\n', len - pos);
  size_t end = nl ? (size_t)(nl - buf) : len;
  *line = buf + pos;
  *n = end - pos;
  if (*n > 0 && (*line)[*n - 1] == '\r') (*n)--;
  return nl ? end + 1 : len;
}

int mg_prof_linebuf_set(mg_prof_linebuf *b, const char *line, size_t n) {
  if (n + 1 > b->cap) {
    size_t cap = n + 1 < 256 ? 256 : n + 1;
    char *s = realloc(b->s, cap);
    if (!s) return -1;
    b->s = s;
    b->cap = cap;
  }
  memcpy(b->s, line, n);
  b->s[n] = '\0';
  return 0;
}

static int is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

static char *trim_comment(char *c) {
  char *e;
  while (is_space(*c)) c++;
  e = c + strlen(c);
  while (e > c && is_space(e[-1])) e--;
  *e = '\0';
  return c;
}

int mg_prof_split(char *line, char **tok, int max, char **comment) {
  int ntok = 0;
  char *s = line;
  *comment = NULL;
  for (;;) {
    while (is_space(*s)) s++;
    if (*s == '\0') break;
    if (*s == '#') {
      *comment = trim_comment(s + 1);
      break;
    }
    char *t = s;
    while (*s && !is_space(*s) && *s != '#') s++;
    if (ntok < max) tok[ntok] = t;
    ntok++;
    if (*s == '#') { /* a comment right after a token */
      *s = '\0';
      *comment = trim_comment(s + 1);
      break;
    }
    if (*s) *s++ = '\0';
  }
  return ntok;
}


/* ---- files ------------------------------------------------------------------------------- */

int mg_prof_read_file(const char *path, char **buf, size_t *len, mg_profile_diags *d) {
  *buf = NULL;
  *len = 0;
  FILE *f = fopen(path, "rb");
  if (!f) return mg_prof_diag(d, path, 0, MG_PROFILE_IO, "cannot open: %s", strerror(errno));
  struct stat st;
  if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
    fclose(f);
    return mg_prof_diag(
        d, path, 0, MG_PROFILE_IO,
        "is a directory; give a profile file (a directory is read as PGMPITuneLib *.prf files)");
  }
  mg_str b = {0};
  char chunk[8192];
  size_t got;
  while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
    if (b.len + got > MG_PROF_FILE_MAX) {
      fclose(f);
      free(b.s);
      return mg_prof_diag(d, path, 0, MG_PROFILE_IO, "larger than %zu MiB: this is not a profile",
                          MG_PROF_FILE_MAX >> 20);
    }
    mg_str_add(&b, chunk, got);
  }
  int err = ferror(f);
  fclose(f);
  if (err) {
    free(b.s);
    return mg_prof_diag(d, path, 0, MG_PROFILE_IO, "read error");
  }
  if (b.failed) {
    free(b.s);
    return mg_prof_diag(d, path, 0, MG_PROFILE_NOMEM, "out of memory reading the file");
  }
  *buf = b.s; /* NULL for an empty file */
  *len = b.len;
  return MG_PROFILE_OK;
}

int mg_prof_take_line(mg_prof_reader *r, const char *buf, size_t len, size_t *pos, mg_prof_linebuf *lb, char **tok,
                      int max, char **comment, const char **raw, size_t *rawn) {
  const char *line;
  size_t n;
  *pos = mg_prof_next_line(buf, len, *pos, &line, &n);
  if (raw) *raw = line;
  if (rawn) *rawn = n;
  if (r->line == INT_MAX) {
    MG_PROF_ERR(r, SYNTAX, "more than %d lines: this is not a profile", INT_MAX - 1);
    return MG_PROF_STOP;
  }
  r->line++;
  if (n > (size_t)MG_LINE_MAX) { /* a file without line breaks: nothing of a profile */
    MG_PROF_ERR(r, SYNTAX, "the line is longer than %ld bytes: this is not a profile", (long)MG_LINE_MAX);
    return MG_PROF_STOP;
  }
  if (memchr(line, '\0', n)) {
    MG_PROF_ERR(r, SYNTAX, "the line contains a NUL byte: is this a text file?");
    return MG_PROF_SKIP;
  }
  if (mg_prof_linebuf_set(lb, line, n)) {
    MG_PROF_ERR(r, NOMEM, "out of memory");
    return MG_PROF_STOP;
  }
  return mg_prof_split(lb->s, tok, max, comment);
}

size_t mg_prof_whole_len(const char *buf, size_t len) {
  if (!buf || len == 0 || buf[len - 1] == '\n') return buf ? len : 0;
  size_t k = len;
  while (k > 0 && buf[k - 1] != '\n') k--;
  return k;
}

void mg_prof_report_cut(mg_prof_reader *r, const char *what_to_do) {
  MG_PROF_ERR(r, TRUNCATED,
              "the last line has no line break: the file looks cut (truncated) in this line, e.g. copied or "
              "written while it was read; %s",
              what_to_do);
}
