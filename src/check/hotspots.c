/*
 * Hot spots of a trace (hotspots.h): the reader of the trace file (columns
 * found by name; format 1 files give spots without sites or times, for the
 * model to price) and the selection of the smallest covering set.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/hotspots.h"
#include "util/err.h"
#include "util/text.h"

#define NF 32

enum { C_COLL, C_BYTES, C_ALG, C_CALLS, C_RANKS, C_NPROCS, C_RED, C_OBJ, C_OFF, C_SYM, C_TIME, C_WAIT, C_N };
static const char *const colname[C_N] = {"collective", "bytes",  "algorithm", "calls",  "ranks",  "nprocs",
                                         "reduction",  "object", "offset",    "symbol", "time_s", "wait_s"};
/* The columns a format-2 row must have (format 1 has the first six). */
static const int timed_cols[] = {C_RED, C_OBJ, C_OFF, C_SYM, C_TIME, C_WAIT};

void mg_hs_free(mg_hs_trace *t) {
  for (int i = 0; i < t->nobjs; i++) free(t->objs[i]);
  free(t->objs);
  free(t->spots);
  memset(t, 0, sizeof *t);
}

static int obj_index(mg_hs_trace *t, const char *path) {
  if (!*path) return -1;
  for (int i = 0; i < t->nobjs; i++)
    if (!strcmp(t->objs[i], path)) return i;
  char **p = realloc(t->objs, (size_t)(t->nobjs + 1) * sizeof *p);
  if (!p) return -2;
  t->objs = p;
  if (!(p[t->nobjs] = strdup(path))) return -2;
  return t->nobjs++;
}

static int num(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno || v < 0) return -1;
  *out = v;
  return 0;
}

/* One data row into t (summed into its spot): a timed trace's, or an untimed one's (no site, no
 * reduction, no time: the columns it lacks, col[] < 0, read as empty). 0, -1 bad row, -2 out of
 * memory. */
static int add_row(mg_hs_trace *t, char **f, const int *col, double per_rank) {
#define FIELD(c) (col[c] >= 0 ? f[col[c]] : "")
  int coll = mg_coll_find(f[col[C_COLL]]);
  double bytes, calls, nprocs, time = 0, wait = 0;
  char *end;
  if (coll < 0 || num(f[col[C_BYTES]], &bytes) || num(f[col[C_CALLS]], &calls) ||
      num(f[col[C_NPROCS]], &nprocs) || (t->timed && (num(f[col[C_TIME]], &time) || num(f[col[C_WAIT]], &wait))))
    return -1;
  unsigned long long offset = 0;
  if (t->timed) {
    errno = 0;
    offset = strtoull(f[col[C_OFF]], &end, 0);
    if (end == f[col[C_OFF]] || *end || errno) return -1;
  }
  int obj = obj_index(t, FIELD(C_OBJ));
  if (obj == -2) return -2;
  const char *red = FIELD(C_RED), *alg = f[col[C_ALG]];
  mg_hs_spot *s = NULL;
  for (int i = 0; i < t->n && !s; i++) {
    mg_hs_spot *q = &t->spots[i];
    if (q->obj == obj && q->offset == offset && q->coll == (mg_coll)coll && q->nprocs == (int)nprocs &&
        q->bytes == (size_t)bytes && !strcmp(q->red, red))
      s = q;
  }
  if (!s) {
    mg_hs_spot *p = realloc(t->spots, (size_t)(t->n + 1) * sizeof *p);
    if (!p) return -2;
    t->spots = p;
    s = &p[t->n++];
    memset(s, 0, sizeof *s);
    s->obj = obj;
    s->offset = offset;
    snprintf(s->sym, sizeof s->sym, "%s", FIELD(C_SYM));
    s->coll = (mg_coll)coll;
    s->nprocs = (int)nprocs;
    s->bytes = (size_t)bytes;
    snprintf(s->red, sizeof s->red, "%s", red);
  }
  /* the algorithms seen at the spot, each named once, and the calls and time of each (k: its place) */
  size_t len = strlen(alg), at = 0;
  int seen = 0, k = 0;
  for (const char *a = s->algs; *a && !seen; a += at + (a[at] == '+'), k += !seen) {
    at = strcspn(a, "+");
    seen = at == len && !strncmp(a, alg, len);
  }
  if (!seen && strlen(s->algs) + len + 2 < sizeof s->algs) {
    if (*s->algs) strcat(s->algs, "+");
    strcat(s->algs, alg);
    seen = 1;
  }
  if (seen && k < MG_HS_ALGS) s->alg_calls[k] += (long)calls, s->alg_time[k] += time * per_rank;
  s->calls += (long)calls;
  s->time += time * per_rank;
  s->wait += wait * per_rank;
  t->mpi_time += time * per_rank;
  return 0;
#undef FIELD
}

typedef struct reader {
  mg_hs_trace *t;
  const char *path;
  int header;  /* the column line has been read */
  int col[C_N];
} reader;

static int on_line(void *ctx, char *line, long len, long lineno, char *err, size_t errlen) {
  reader *R = ctx;
  mg_hs_trace *t = R->t;
  if (len == 0) return 0;
  if (line[0] == '#') {
    if (strncmp(line, "#@", 2)) return 0;
    char *eq = strchr(line, '=');
    if (!eq) return 0;
    *eq = '\0';
    const char *k = line + 2, *v = eq + 1;
    if (!strcmp(k, "mpiguide_trace")) t->version = atoi(v);
    else if (!strcmp(k, "timed")) t->timed = atoi(v) == 1;
    else if (!strcmp(k, "nprocs")) t->nprocs = atoi(v);
    else if (!strcmp(k, "wall_s")) t->wall = atof(v);
    else if (!strcmp(k, "mpi_library")) snprintf(t->mpi, sizeof t->mpi, "%s", v);
    return 0;
  }
  char *f[NF];
  int nf = mg_csv_split(line, f, NF);
  if (nf < 0 || nf > NF) return MG_ERR("%s:%ld: not a CSV row of a trace", R->path, lineno);
  if (!R->header) {
    R->header = 1;
    for (int c = 0; c < C_N; c++) {
      R->col[c] = -1;
      for (int i = 0; i < nf; i++)
        if (!strcmp(f[i], colname[c])) R->col[c] = i;
    }
    for (int c = 0; c <= C_NPROCS; c++)
      if (R->col[c] < 0)
        return MG_ERR("%s:%ld: no column '%s': not an mpiguide trace", R->path, lineno, colname[c]);
    if (t->timed)
      for (size_t c = 0; c < sizeof timed_cols / sizeof *timed_cols; c++)
        if (R->col[timed_cols[c]] < 0)
          return MG_ERR("%s:%ld: timed trace without column '%s'", R->path, lineno, colname[timed_cols[c]]);
    return 0;
  }
  for (int c = 0; c < C_N; c++)
    if (R->col[c] >= nf) return MG_ERR("%s:%ld: %d fields, expected more", R->path, lineno, nf);
  if (t->nprocs < 1) return MG_ERR("%s:%ld: no #@nprocs before the rows", R->path, lineno);
  int rc = add_row(t, f, R->col, 1.0 / t->nprocs);
  if (rc == -2) return MG_ERR("out of memory");
  if (rc) return MG_ERR("%s:%ld: bad value in a row (collective, number or offset)", R->path, lineno);
  return 0;
}

int mg_hs_read(const char *path, mg_hs_trace *t, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  t->wall = -1;
  reader R = {.t = t, .path = path};
  FILE *f = mg_open_text(path, "trace file", err, errlen);
  if (!f) return -1;
  char *buf = NULL;
  size_t cap = 0;
  long lineno = 0, len;
  int nl, rc = 0;
  while (!rc && (len = mg_read_line(f, &buf, &cap, &nl)) >= 0) rc = on_line(&R, buf, len, ++lineno, err, errlen);
  if (!rc && len < -1) rc = MG_ERR("%s:%ld: %s", path, lineno + 1, mg_read_line_strerror(len));
  free(buf);
  fclose(f);
  if (!rc && !R.header) rc = MG_ERR("%s: no header line: not an mpiguide trace", path);
  if (!rc && t->version < 1) rc = MG_ERR("%s: no #@mpiguide_trace line: not an mpiguide trace", path);
  if (rc) mg_hs_free(t);
  return rc;
}

/* Decreasing time; ties by index (stable). */
static const double *sort_time;
static int by_time(const void *a, const void *b) {
  int i = *(const int *)a, j = *(const int *)b;
  if (sort_time[i] != sort_time[j]) return sort_time[i] > sort_time[j] ? -1 : 1;
  return (i > j) - (i < j);
}

int mg_hs_select(const double *time, int n, double total, double p, int nmax, int *order, int *reached) {
  for (int i = 0; i < n; i++) order[i] = i;
  sort_time = time;
  qsort(order, (size_t)n, sizeof *order, by_time);
  if (total <= 0)
    for (int i = 0; i < n; i++) total += time[i];
  double want = total * p / 100.0, sum = 0;
  int k = 0;
  *reached = want <= 0;
  while (!*reached && k < n && k < nmax) {
    sum += time[order[k++]];
    /* a relative slack for the rounding of the trace's 9 decimals */
    *reached = sum >= want * (1 - 1e-12);
  }
  return k;
}

double mg_hs_saving(const mg_hs_spot *s, const char *chosen, double med_def, double med_chosen) {
  if (!(med_def > 0) || !isfinite(med_def) || !isfinite(med_chosen)) return NAN;
  long calls = s->calls;
  double time = s->time;
  size_t len = strlen(chosen), at = 0;
  int k = 0;
  for (const char *a = s->algs; *a && k < MG_HS_ALGS; a += at + (a[at] == '+'), k++) {
    at = strcspn(a, "+");
    if (at == len && !strncmp(a, chosen, len)) { /* these calls run it already: nothing to save there */
      calls -= s->alg_calls[k], time -= s->alg_time[k];
      break;
    }
  }
  if (calls <= 0 || time <= 0) return 0;
  double per_call = (double)calls * (med_def - med_chosen), share = time * (1 - med_chosen / med_def);
  return per_call < share ? per_call : share;
}
