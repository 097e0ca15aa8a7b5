/*
 * Reading a verify result (verify.csv of `mpiguide verify -o DIR`, docs/tune.md) for the report's
 * "Default vs tuned" section (report.h, docs/report.md). Strict: every malformed line is an error
 * naming the file and the line, so the command writes nothing rather than a wrong page; so is a cut
 * file: a last line without its line break, and in mpiguide-verify/2 (/1 and its last line
 * #@verify_rows=N) a missing last line or fewer rows than it says.
 */
#include "report/report.h"
#include "util/err.h"
#include "util/parse.h"
#include "util/text.h"

#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *const mg_rp_vcol_names[MG_VC_N] = {
#define MG_X(E, name) [MG_VC_##E] = name,
    MG_VERIFY_COLUMNS(MG_X)
#undef MG_X
};
static const char *const verdicts[] = {"faster", "not-sig", "slower", "same", "noise?", "skipped", "no-data"};

void mg_rp_verify_free(mg_rp_verify *v) {
  if (!v) return;
  free(v->rows);
  mg_ck_meta_free(&v->raw_meta);
  memset(v, 0, sizeof *v);
}

/* Split line at ',' in place; returns the field count (at most cap). */
static int split(char *line, char **fld, int cap) {
  int n = 0;
  for (char *p = line;;) {
    if (n == cap) return cap + 1;
    fld[n++] = p;
    char *c = strchr(p, ',');
    if (!c) break;
    *c = '\0';
    p = c + 1;
  }
  return n;
}

/* A number field: a finite double, or "nan" or empty where verify had no value (NaN); no infinity. */
static int num(const char *s, double *out) {
  if (!*s || !strcmp(s, "nan") || !strcmp(s, "-nan")) return *out = NAN, 0;
  return mg_parse_double_in(s, -1e300, 1e300, out, NULL, 0);
}

static int copy(char *dst, size_t len, const char *s) {
  if (strlen(s) >= len) return -1;
  memcpy(dst, s, strlen(s) + 1);
  return 0;
}

/* Reading one verify.csv: where we are, for messages "file:line: what". */
typedef struct vreader {
  const char *path;
  int lineno, header, ncols, cap_rows;
  long want_rows; /* #@verify_rows, the last line (-1: none, an older file) */
  int pos[MG_VC_N];
  char *err;
  size_t errlen;
} vreader;

static int bad(vreader *R, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int bad(vreader *R, const char *fmt, ...) {
  int k = snprintf(R->err, R->errlen, "%s:%d: ", R->path, R->lineno);
  if (k >= 0 && (size_t)k < R->errlen) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(R->err + k, R->errlen - (size_t)k, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* A #@key=value line (line + 2 is the key). */
static int read_meta(vreader *R, mg_rp_verify *v, char *line) {
  char *eq = strchr(line + 2, '=');
  if (!eq) return bad(R, "metadata line without '=': %.60s", line);
  *eq = '\0';
  const char *key = line + 2, *val = eq + 1;
  if (!strcmp(key, "format")) {
    if (strcmp(val, "mpiguide-verify/1") && strcmp(val, "mpiguide-verify/2"))
      return bad(R, "format '%.60s' is not mpiguide-verify/1 or /2 (is this a verify.csv of `mpiguide verify`?)", val);
    v->has_format = val[16] - '0'; /* /2: /1 with its last line #@verify_rows=N */
  } else if (!strcmp(key, "profile")) {
    snprintf(v->profile, sizeof v->profile, "%s", val);
  } else if (!strcmp(key, "nprocs")) {
    long n;
    if (mg_parse_long(val, 1, 1 << 24, &n, NULL, 0)) return bad(R, "#@nprocs: '%.60s' is not a process count", val);
    v->nprocs = (int)n;
  } else if (!strcmp(key, "verify_rows") && R->header) {
    if (mg_parse_long(val, 0, 1L << 30, &R->want_rows, NULL, 0))
      return bad(R, "#@verify_rows: '%.60s' is not a row count", val);
    if (R->want_rows != v->n)
      return bad(R, "the file ends early (truncated?): %d rows, its #@verify_rows says %ld", v->n, R->want_rows);
  } else if (!strcmp(key, "alpha")) {
    if (num(val, &v->alpha) || !(v->alpha > 0 && v->alpha < 1)) return bad(R, "#@alpha: '%.60s' is not in (0, 1)", val);
  }
  return 0;
}

/* The header line: where each column is (outcome may be missing: older files). */
static int read_header(vreader *R, const mg_rp_verify *v, char **fld, int n) {
  if (!v->has_format) return bad(R, "no #@format=mpiguide-verify/1 or /2 line before the header (not a verify.csv?)");
  if (n > MG_VC_N + 7) return bad(R, "header with too many columns");
  for (int c = 0; c < MG_VC_N; c++) {
    R->pos[c] = -1;
    for (int k = 0; k < n; k++)
      if (!strcmp(fld[k], mg_rp_vcol_names[c])) R->pos[c] = k;
    if (R->pos[c] < 0 && c != MG_VC_OUTCOME && c != MG_VC_RED)
      return bad(R, "header: column '%s' missing", mg_rp_vcol_names[c]);
  }
  R->ncols = n;
  R->header = 1;
  return 0;
}

/* The cell's identity: collective, process count, size, whether in the profile, the algorithm. */
static int read_cell(vreader *R, char **fld, mg_rp_vrow *r) {
  const int *pos = R->pos;
  const char *s = fld[pos[MG_VC_COLL]];
  if (!*s || copy(r->coll, sizeof r->coll, s)) return bad(R, "collective: '%.60s' is empty or too long", s);
  for (const char *p = s; *p; p++)
    if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_'))
      return bad(R, "collective: '%.60s' is not a collective name", s);
  s = fld[pos[MG_VC_NP]];
  long np;
  if (mg_parse_long(s, 1, 1 << 24, &np, NULL, 0)) return bad(R, "nprocs: '%.60s' is not a process count", s);
  r->nprocs = (int)np;
  s = fld[pos[MG_VC_BYTES]];
  unsigned long long b;
  if (mg_parse_digits(s, strlen(s), SIZE_MAX / 2, &b) || b == 0)
    return bad(R, "bytes: '%.60s' is not a message size in bytes", s);
  r->bytes = (size_t)b;
  s = fld[pos[MG_VC_INPROF]];
  if (strcmp(s, "0") && strcmp(s, "1")) return bad(R, "in_profile: '%.60s' is not 0 or 1", s);
  r->in_profile = s[0] == '1';
  s = fld[pos[MG_VC_TUNED]];
  if (!*s || copy(r->tuned, sizeof r->tuned, s)) return bad(R, "tuned: '%.60s' is empty or too long", s);
  return 0;
}

/* The measured numbers and the verdicts of a cell. */
static int read_result(vreader *R, char **fld, mg_rp_vrow *r) {
  const int *pos = R->pos;
  static const int numc[] = {MG_VC_MD, MG_VC_MT, MG_VC_RATIO, MG_VC_LO, MG_VC_HI, MG_VC_P};
  double *dst[] = {&r->med_def, &r->med_tuned, &r->ratio, &r->lo, &r->hi, &r->p};
  for (int k = 0; k < 6; k++)
    if (num(fld[pos[numc[k]]], dst[k]))
      return bad(R, "%s: '%.60s' is not a number", mg_rp_vcol_names[numc[k]], fld[pos[numc[k]]]);
  if (isfinite(r->ratio) && r->ratio <= 0) return bad(R, "ratio: %g is not positive", r->ratio);
  const char *s = fld[pos[MG_VC_VERDICT]];
  int known = 0;
  for (size_t k = 0; k < sizeof verdicts / sizeof verdicts[0]; k++) known |= !strcmp(s, verdicts[k]);
  if (!known) return bad(R, "verdict: '%.60s' is not one of faster, not-sig, slower, same, noise?, skipped, no-data", s);
  snprintf(r->verdict, sizeof r->verdict, "%s", s);
  s = pos[MG_VC_OUTCOME] >= 0 ? fld[pos[MG_VC_OUTCOME]] : "";
  known = !*s;
  for (int o = 0; o < MG_CK_NOUTCOMES; o++) known |= !strcmp(s, mg_ck_outcome_name((mg_ck_outcome)o));
  if (!known) return bad(R, "outcome: '%.60s' is not violation, consistent, inconclusive or empty", s);
  snprintf(r->outcome, sizeof r->outcome, "%s", s);
  s = fld[pos[MG_VC_STILL]];
  if (copy(r->still, sizeof r->still, s)) return bad(R, "still_faster: too long");
  s = pos[MG_VC_RED] >= 0 ? fld[pos[MG_VC_RED]] : "";
  if (copy(r->red, sizeof r->red, s)) return bad(R, "reduction: too long");
  return 0;
}

static int read_row(vreader *R, mg_rp_verify *v, char **fld, int n) {
  if (n != R->ncols) return bad(R, "%d fields, the header has %d", n > MG_VC_N + 7 ? n - 1 : n, R->ncols);
  if (v->n == R->cap_rows) {
    int nc = R->cap_rows ? 2 * R->cap_rows : 32;
    mg_rp_vrow *nr = realloc(v->rows, sizeof *nr * (size_t)nc);
    if (!nr) return bad(R, "out of memory");
    v->rows = nr, R->cap_rows = nc;
  }
  mg_rp_vrow *r = &v->rows[v->n];
  memset(r, 0, sizeof *r);
  r->line = R->lineno;
  if (read_cell(R, fld, r) || read_result(R, fld, r)) return -1;
  v->n++;
  return 0;
}

/* The measurement's metadata: the raw.csv in the same directory, if any. */
static void read_raw_meta(const char *path, mg_rp_verify *v) {
  char raw[1100], ignored[256];
  const char *sl = strrchr(path, '/');
  if (sl)
    snprintf(raw, sizeof raw, "%.*s/raw.csv", (int)(sl - path), path);
  else
    snprintf(raw, sizeof raw, "raw.csv");
  (void)mg_ck_read_meta(raw, &v->raw_meta, ignored, sizeof ignored);
}

static int read_line(vreader *R, mg_rp_verify *v, char *line) {
  if (!line[0]) return 0;
  if (R->want_rows >= 0) return bad(R, "a line after #@verify_rows, the file's last line");
  if (!strncmp(line, "#@", 2)) return read_meta(R, v, line);
  if (line[0] == '#') return 0;
  char *fld[MG_VC_N + 8];
  int n = split(line, fld, MG_VC_N + 7);
  return R->header ? read_row(R, v, fld, n) : read_header(R, v, fld, n);
}

int mg_rp_verify_read(const char *path, mg_rp_verify *v, char *err, size_t errlen) {
  memset(v, 0, sizeof *v);
  v->nprocs = -1;
  v->alpha = NAN;
  snprintf(v->path, sizeof v->path, "%s", path);
  FILE *f = fopen(path, "r"); /* a directory: "read error: Is a directory" at its first line */
  if (!f) return MG_ERR("%s: %s", path, strerror(errno));
  vreader R = {.path = path, .err = err, .errlen = errlen, .want_rows = -1};
  char *line = NULL;
  size_t cap = 0;
  long got;
  int rc = 0, nl;
  while (!rc && (got = mg_read_line(f, &line, &cap, &nl)) >= 0) {
    R.lineno++;
    rc = nl ? read_line(&R, v, line)
            : bad(&R, "the last line has no line break: the file was cut short (truncated?)");
  }
  if (!rc && got < -1) R.lineno++, rc = bad(&R, "%s", mg_read_line_strerror(got));
  if (!rc && !R.header) rc = bad(&R, "no header line (collective,nprocs,bytes,...): empty or not a verify.csv");
  if (!rc && !v->n) rc = bad(&R, "no rows after the header");
  if (!rc && v->has_format == 2 && R.want_rows < 0)
    rc = bad(&R, "the file ends early (truncated?): %d rows and no last line #@verify_rows (mpiguide-verify/2)", v->n);
  if (!rc) {
    if (v->nprocs < 0) v->nprocs = v->rows[0].nprocs;
    read_raw_meta(path, v);
  }
  free(line);
  fclose(f);
  if (rc) mg_rp_verify_free(v);
  return rc;
}
