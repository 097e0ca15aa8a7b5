/*
 * Overlap arithmetic, the best test count and the overlap file (ovl.h). No MPI.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/ovl.h"
#include "bench/sample.h"
#include "util/err.h"
#include "util/parse.h"
#include "util/text.h"

static const char *const vnames[MG_OVL_NVARIANTS] = {
#define MG_X(E, n, d) [MG_OVL_##E] = n,
    MG_OVL_VARIANTS(MG_X)
#undef MG_X
};

static const char *const colnames[MG_OVC_N] = {
#define MG_X(E, name, write) [MG_OVC_##E] = name,
    MG_OVL_COLUMNS(MG_X)
#undef MG_X
};

const char *mg_ovl_variant_name(int v) { return v >= 0 && v < MG_OVL_NVARIANTS ? vnames[v] : "?"; }

int mg_ovl_variant_find(const char *name) {
  for (int v = 0; v < MG_OVL_NVARIANTS; v++)
    if (!strcmp(name, vnames[v])) return v;
  return -1;
}

int mg_ovl_push(mg_ovl_cell *c, const mg_ovl_row *r) {
  if (c->n == c->cap) {
    long nc = c->cap ? 2 * c->cap : 64;
    mg_ovl_row *p = realloc(c->rows, (size_t)nc * sizeof *p);
    if (!p) return -1;
    c->rows = p, c->cap = nc;
  }
  c->rows[c->n++] = *r;
  return 0;
}

void mg_ovl_cell_free(mg_ovl_cell *c) {
  free(c->rows);
  c->rows = NULL;
  c->n = c->cap = 0;
}

/* ---------- arithmetic ---------- */

double mg_ovl_pct(double t_pure, double t_cpu, double t_overall) {
  if (!(t_pure > 0) || !isfinite(t_pure) || !isfinite(t_cpu) || !isfinite(t_overall)) return NAN;
  double o = 100.0 * (1.0 - (t_overall - t_cpu) / t_pure);
  return o < 0 ? 0 : o > 100 ? 100 : o;
}

int mg_ovl_best(const double *ov, const double *lo, const double *hi, int nk) {
  int m = -1;
  for (int i = 0; i < nk; i++)
    if (isfinite(ov[i]) && (m < 0 || ov[i] > ov[m])) m = i;
  if (m < 0) return -1;
  double mlo = isfinite(lo[m]) ? lo[m] : ov[m];
  for (int i = 0; i < nk; i++) {
    if (!isfinite(ov[i])) continue;
    double ihi = isfinite(hi[i]) ? hi[i] : ov[i];
    if (ihi >= mlo || ov[i] >= ov[m] - MG_OVL_MARGIN) return i;
  }
  return m;
}

/* The median of v[0..n) (sorted here) and its 95 % interval by order statistics (sample.h). */
static double median_ci(double *v, long n, double *lo, double *hi) {
  if (n <= 0) return *lo = *hi = NAN;
  mg_sort_doubles(v, n);
  double half = 0.98 * sqrt((double)n);
  long j = (long)floor((double)n / 2 - half), k = (long)ceil((double)n / 2 + half); /* 1-based */
  if (j < 1) j = 1;
  if (k > n) k = n;
  *lo = v[j - 1], *hi = v[k - 1];
  return mg_median_sorted(v, n);
}

static int add_k(mg_ovl_sum *s, int k) {
  for (int i = 0; i < s->nk; i++)
    if (s->k[i] == k) return i;
  if (s->nk == MG_OVL_MAXK) return -1;
  int i = s->nk++;
  while (i > 0 && s->k[i - 1] > k) s->k[i] = s->k[i - 1], i--; /* ascending */
  s->k[i] = k;
  return i;
}

int mg_ovl_summarise(const mg_ovl_cell *c, mg_ovl_sum *s) {
  memset(s, 0, sizeof *s);
  s->best = s->kmax = -1;
  for (long i = 0; i < c->n; i++)
    if (c->rows[i].variant == MG_OVL_OVERALL && c->rows[i].tests >= 0) add_k(s, c->rows[i].tests);
  double *v = malloc((size_t)(c->n ? c->n : 1) * sizeof *v);
  if (!v) return -1;
  double lo, hi;
  for (int w = -3; w < s->nk; w++) { /* -3: blocking, -2: pure, -1: cpu, then each k */
    long n = 0;
    for (long i = 0; i < c->n; i++) {
      const mg_ovl_row *r = &c->rows[i];
      if (r->warmup || !r->valid) continue;
      if ((w == -3 && r->variant == MG_OVL_BLOCKING) || (w == -2 && r->variant == MG_OVL_PURE) || (w == -1 && r->variant == MG_OVL_CPU) ||
          (w >= 0 && r->variant == MG_OVL_OVERALL && r->tests == s->k[w]))
        v[n++] = r->sec;
    }
    double med = median_ci(v, n, &lo, &hi);
    if (w == -3) s->t_blocking = n ? med : NAN, s->n_blocking = n;
    else if (w == -2) s->t_pure = med, s->n_pure = n;
    else if (w == -1) s->t_cpu = med, s->n_cpu = n;
    else {
      s->t_overall[w] = med, s->n[w] = n;
      s->ov[w] = mg_ovl_pct(s->t_pure, s->t_cpu, med);
      s->lo[w] = mg_ovl_pct(s->t_pure, s->t_cpu, hi); /* a longer overall time: less overlap */
      s->hi[w] = mg_ovl_pct(s->t_pure, s->t_cpu, lo);
    }
  }
  free(v);
  s->best = mg_ovl_best(s->ov, s->lo, s->hi, s->nk);
  for (int i = 0; i < s->nk; i++)
    if (isfinite(s->ov[i]) && (s->kmax < 0 || s->ov[i] > s->ov[s->kmax])) s->kmax = i;
  return 0;
}

/* ---------- the file ---------- */

long mg_ovl_write_rows(FILE *f, const mg_ovl_cell *cells, int ncells, const char *launch) {
  for (int i = 0; i < MG_OVC_N; i++) fprintf(f, "%s%s", i ? "," : "", colnames[i]);
  fputc('\n', f);
  long rows = 0;
  for (int ci = 0; ci < ncells; ci++) {
    const mg_ovl_cell *c = &cells[ci];
    for (long j = 0; j < c->n; j++) {
      const mg_ovl_row *r = &c->rows[j];
      int col = 0;
#define MG_X(E, name, write) \
  if (col++) fputc(',', f);  \
  (void)(write);
      MG_OVL_COLUMNS(MG_X)
#undef MG_X
      fputc('\n', f);
      rows++;
    }
  }
  /* the last line: a file cut at a line break has fewer rows than this says (older files lack it) */
  fprintf(f, "#@%s=%ld\n", MG_OVL_ROWS_KEY, rows);
  return rows;
}

const char *mg_ovl_meta(const mg_ovl_file *f, const char *key) {
  for (int i = 0; i < f->nmeta; i++)
    if (!strcmp(f->key[i], key)) return f->val[i];
  return NULL;
}

void mg_ovl_file_free(mg_ovl_file *f) {
  for (int i = 0; i < f->nmeta; i++) free(f->val[i]);
  free(f->key);
  free(f->val);
  for (int i = 0; i < f->ncells; i++) mg_ovl_cell_free(&f->cells[i]);
  free(f->cells);
  memset(f, 0, sizeof *f);
}

static int add_meta(mg_ovl_file *f, const char *line) {
  const char *eq = strchr(line, '=');
  if (!eq) return 0;
  if (f->nmeta % 64 == 0) {
    char(*k)[64] = realloc(f->key, (size_t)(f->nmeta + 64) * sizeof *k);
    if (k) f->key = k;
    char **v = realloc(f->val, (size_t)(f->nmeta + 64) * sizeof *v);
    if (v) f->val = v;
    if (!k || !v) return -1;
  }
  snprintf(f->key[f->nmeta], sizeof f->key[0], "%.*s", (int)(eq - line), line);
  if (!(f->val[f->nmeta] = strdup(eq + 1))) return -1;
  f->nmeta++;
  return 0;
}

/* The cell of (coll, bytes, datatype, op) in f: found, or appended. NULL when out of memory. */
static mg_ovl_cell *cell_of(mg_ovl_file *f, const char *coll, size_t bytes, const char *dt, const char *op) {
  for (int i = f->ncells - 1; i >= 0; i--) {
    mg_ovl_cell *c = &f->cells[i];
    if (c->bytes == bytes && !strcmp(c->coll, coll) && !strcmp(c->dtype, dt) && !strcmp(c->op, op)) return c;
  }
  if (f->ncells % 16 == 0) {
    mg_ovl_cell *p = realloc(f->cells, (size_t)(f->ncells + 16) * sizeof *p);
    if (!p) return NULL;
    f->cells = p;
  }
  mg_ovl_cell *c = &f->cells[f->ncells++];
  memset(c, 0, sizeof *c);
  snprintf(c->coll, sizeof c->coll, "%s", coll);
  snprintf(c->dtype, sizeof c->dtype, "%s", dt);
  snprintf(c->op, sizeof c->op, "%s", op);
  c->bytes = bytes;
  c->root = -1;
  return c;
}

#define FAIL(...) (rc = MG_ERR(__VA_ARGS__))

/* A number field of a row in [min, max] into *out; "" only where empty_ok (then *out untouched). 0, or -1. */
static int row_long(const char *s, const char *name, long min, long max, int empty_ok, long *out, const char *path,
                    long line, char *err, size_t errlen) {
  char e[160];
  if (!*s && empty_ok) return 0;
  if (mg_parse_long(s, min, max, out, e, sizeof e)) return MG_ERR("%s:%ld: column %s: %s", path, line, name, e);
  return 0;
}

int mg_ovl_read(const char *path, mg_ovl_file *f, char *err, size_t errlen) {
  memset(f, 0, sizeof *f);
  snprintf(f->path, sizeof f->path, "%s", path);
  FILE *in = mg_open_text(path, "overlap file", err, errlen);
  if (!in) return -1;
  char *buf = NULL, *fld[MG_OVC_N + 8];
  size_t cap = 0;
  int col[MG_OVC_N], have_header = 0, nl, rc = 0, v1 = 0;
  long len, line = 0, nrows = 0, end_line = 0;
  while (!rc && (len = mg_read_line(in, &buf, &cap, &nl)) >= 0) {
    line++;
    if (!nl) {
      FAIL("%s:%ld: the last line has no line break: the file was cut short (truncated?)", path, line);
      break;
    }
    if (!len) continue;
    if (end_line) {
      FAIL("%s:%ld: a line after #@%s (line %ld), the file's last line", path, line, MG_OVL_ROWS_KEY, end_line);
      break;
    }
    if (!strncmp(buf, "#@", 2)) {
      if (have_header && !strncmp(buf + 2, MG_OVL_ROWS_KEY "=", strlen(MG_OVL_ROWS_KEY) + 1)) {
        long want;
        if (row_long(buf + 3 + strlen(MG_OVL_ROWS_KEY), "#@" MG_OVL_ROWS_KEY, 0, LONG_MAX, 0, &want, path, line, err,
                     errlen))
          rc = -1;
        else if (want != nrows)
          FAIL("%s:%ld: the file ends early (truncated?): %ld rows, its #@%s says %ld", path, line, nrows,
               MG_OVL_ROWS_KEY, want);
        end_line = line;
        continue;
      }
      if (add_meta(f, buf + 2)) FAIL("%s:%ld: out of memory", path, line);
      continue;
    }
    if (buf[0] == '#') continue;
    if (!have_header) {
      const char *fmt = mg_ovl_meta(f, "format");
      if (!fmt || (strcmp(fmt, MG_OVL_FORMAT) && strcmp(fmt, MG_OVL_FORMAT_V2) && strcmp(fmt, MG_OVL_FORMAT_V1))) {
        FAIL("%s:%ld: not an overlap file of `mpiguide bench --overlap` (#@format=%s expected, found %s)", path, line,
             MG_OVL_FORMAT, fmt ? fmt : "none");
        break;
      }
      v1 = !strcmp(fmt, MG_OVL_FORMAT_V1);
      int nf = mg_csv_split(buf, fld, MG_OVC_N + 8);
      for (int i = 0; i < MG_OVC_N && !rc; i++) {
        col[i] = -1;
        for (int j = 0; j < nf && j < MG_OVC_N + 8; j++)
          if (!strcmp(fld[j], colnames[i])) col[i] = j;
        if (col[i] < 0 && i != MG_OVC_ROOT && i != MG_OVC_LAUNCH) FAIL("%s:%ld: no column '%s'", path, line, colnames[i]);
      }
      have_header = 1;
      continue;
    }
    int nf = mg_csv_split(buf, fld, MG_OVC_N + 8);
    const char *x[MG_OVC_N];
    for (int i = 0; i < MG_OVC_N; i++) x[i] = col[i] >= 0 && col[i] < nf ? fld[col[i]] : "";
    char e[160];
    mg_ovl_row r = {0};
    r.variant = mg_ovl_variant_find(x[MG_OVC_VARIANT]);
    unsigned long long bytes = 0;
    long tests = -1;
    int bad_num = mg_parse_digits(x[MG_OVC_BYTES], strlen(x[MG_OVC_BYTES]), SIZE_MAX / 2, &bytes) ||
                  mg_parse_double_in(x[MG_OVC_RUNTIME], 0, 1e6, &r.sec, e, sizeof e) ||
                  (*x[MG_OVC_TESTS] && mg_parse_long(x[MG_OVC_TESTS], 0, 1000000, &tests, e, sizeof e));
    r.tests = (int)tests;
    if (nf < MG_OVC_N - 2 || r.variant < 0 || bad_num || (r.variant == MG_OVL_OVERALL && r.tests < 0)) {
      FAIL("%s:%ld: malformed row (variant '%s', tests '%s', bytes '%s', runtime_sec '%s')", path, line,
           x[MG_OVC_VARIANT], x[MG_OVC_TESTS], x[MG_OVC_BYTES], x[MG_OVC_RUNTIME]);
      break;
    }
    long round, rep, warmup, valid, count, nprocs, iters = 0, root = -1;
#define NUM(C, min, max, empty_ok, out) row_long(x[MG_OVC_##C], colnames[MG_OVC_##C], min, max, empty_ok, out, path, line, err, errlen)
    if (NUM(ROUND, 0, LONG_MAX, 0, &round) || NUM(REP, 0, LONG_MAX, 0, &rep) || NUM(WARMUP, 0, 1, 0, &warmup) ||
        NUM(VALID, 0, 1, 0, &valid) || NUM(COUNT, 0, LONG_MAX, 0, &count) || NUM(NPROCS, 1, INT_MAX, 0, &nprocs) ||
        NUM(ITERS, 0, LONG_MAX, 0, &iters) || NUM(ROOT, 0, INT_MAX, 1, &root)) {
      rc = -1;
      break;
    }
#undef NUM
    r.round = round, r.rep = rep, r.warmup = (int)warmup, r.valid = (int)valid;
    mg_ovl_cell *c = cell_of(f, x[MG_OVC_COLL], (size_t)bytes, x[MG_OVC_DTYPE], x[MG_OVC_OP]);
    if (!c || mg_ovl_push(c, &r)) {
      FAIL("%s:%ld: out of memory", path, line);
      break;
    }
    nrows++;
    c->count = count;
    c->nprocs = (int)nprocs;
    if (r.variant != MG_OVL_PURE) c->iters = iters;
    if (root >= 0) c->root = (int)root;
  }
  if (!rc && len < -1) FAIL("%s:%ld: %s", path, line + 1, mg_read_line_strerror(len));
  if (!rc && !have_header) FAIL("%s: no header line: not an overlap file of `mpiguide bench --overlap`", path);
  if (!rc && !v1 && !end_line)
    FAIL("%s:%ld: the file ends early (truncated?): %ld rows and no last line #@%s (%s)", path, line, nrows,
         MG_OVL_ROWS_KEY, MG_OVL_FORMAT);
  free(buf);
  fclose(in);
  if (rc) mg_ovl_file_free(f);
  return rc;
}
