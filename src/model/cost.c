/*
 * The cost model of the registry's rows (cost.h, docs/model.md): an evaluator of the rows'
 * cost expressions, the pricing of the library's own algorithms from measurements or from
 * the point-to-point schedules, and the LogGP schedules called through the rows.
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/cost.h"

void mg_model_init(mg_model *m, const mg_loggp *lg) {
  memset(m, 0, sizeof *m);
  m->lg = lg;
}

void mg_model_free(mg_model *m) {
  free(m->meas);
  memset(m, 0, sizeof *m);
}

int mg_model_add(mg_model *m, int coll, int p, double bytes, double t) {
  if (m->nmeas == m->cap) {
    int cap = m->cap ? 2 * m->cap : 64;
    mg_cost_point *v = realloc(m->meas, (size_t)cap * sizeof *v);
    if (!v) return -1;
    m->meas = v, m->cap = cap;
  }
  m->meas[m->nmeas++] = (mg_cost_point){coll, p, bytes, t};
  return 0;
}

static int point_cmp(const void *a, const void *b) {
  const mg_cost_point *x = a, *y = b;
  if (x->coll != y->coll) return x->coll < y->coll ? -1 : 1;
  if (x->p != y->p) return x->p < y->p ? -1 : 1;
  return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

void mg_model_sort(mg_model *m) {
  if (m->nmeas) qsort(m->meas, (size_t)m->nmeas, sizeof *m->meas, point_cmp);
}

/* The measured default of (coll, p) at n: log-log interpolation between the measured sizes,
 * the smallest one's time below them (latency-bound), linear in n above them. NaN: none. */
static double measured(const mg_model *m, int coll, int p, double n) {
  int lo = -1, hi = -1;
  for (int i = 0; i < m->nmeas; i++)
    if (m->meas[i].coll == coll && m->meas[i].p == p) {
      if (lo < 0) lo = i;
      hi = i;
    }
  if (lo < 0) return NAN;
  const mg_cost_point *v = m->meas;
  if (n <= v[lo].bytes) return v[lo].t;
  if (n >= v[hi].bytes) return v[hi].bytes > 0 ? v[hi].t * n / v[hi].bytes : v[hi].t;
  int i = lo + 1;
  while (v[i].bytes < n) i++;
  const mg_cost_point *a = &v[i - 1], *b = &v[i];
  if (a->bytes <= 0 || a->t <= 0 || b->t <= 0) /* a zero size (barrier) or time: linear */
    return a->t + (b->t - a->t) * (n - a->bytes) / (b->bytes - a->bytes);
  double f = log(n / a->bytes) / log(b->bytes / a->bytes);
  return exp(log(a->t) + f * (log(b->t) - log(a->t)));
}

/* A collective without point-to-point rows priced as its regular counterpart: the coll and
 * the factor its size is scaled by (its per-rank share: divided by p when div_p). */
static int counterpart(int coll, int *div_p) {
  *div_p = 1;
  switch (coll) {
  case MG_GATHERV: return MG_GATHER;
  case MG_SCATTERV: return MG_SCATTER;
  case MG_ALLGATHERV: return MG_ALLGATHER;
  case MG_ALLTOALLV: case MG_ALLTOALLW: return MG_ALLTOALL;
  case MG_REDUCE_SCATTER: return MG_REDUCE_SCATTER_BLOCK;
  case MG_EXSCAN: *div_p = 0; return MG_SCAN;
  default: return -1;
  }
}

/* A point-to-point row's schedule at (p, n), slowed by crowding where every rank is busy. */
static double schedule(const mg_model *m, const mg_alg *a, int p, double n) {
  double t = a->costfn(m->lg, p, n, a->param);
  return a->crowd ? t * mg_loggp_crowding(m->lg, p) : t;
}

/* The cheapest point-to-point row of coll at (p, n); NaN: none or no LogGP. */
static double p2p_best(const mg_model *m, int coll, int p, double n) {
  double best = NAN;
  if (!m->lg) return best;
  const mg_coll_info *ci = &mg_colls[coll];
  for (int a = 1; a < ci->nalgs; a++)
    if (ci->algs[a].costfn) {
      double t = schedule(m, &ci->algs[a], p, n);
      if (isfinite(t) && !(t >= best)) best = t;
    }
  return best;
}

/* The model of coll's default at (p, n): a point-to-point operation one message (a sendrecv
 * both directions at once, full duplex: the time of one); a collective its cheapest point-to-point
 * row. NaN: none or no LogGP. */
static double model_of(const mg_model *m, int coll, int p, double n) {
  if (!mg_coll_is_p2p((mg_coll)coll)) return p2p_best(m, coll, p, n);
  return m->lg ? mg_loggp_msg(m->lg, n) : NAN;
}

/* The process count nearest to p (ties: the smaller) at which coll's default was measured; 0: none. */
static int nearest_measured_p(const mg_model *m, int coll, int p) {
  int best = 0;
  for (int i = 0; i < m->nmeas; i++) {
    int q = m->meas[i].p;
    if (m->meas[i].coll != coll) continue;
    if (!best || abs(q - p) < abs(best - p) || (abs(q - p) == abs(best - p) && q < best)) best = q;
  }
  return best;
}

double mg_model_default(const mg_model *m, int coll, int p, double n, mg_price_src *src) {
  double t = measured(m, coll, p, n);
  mg_price_src s = MG_PRICE_MEASURED;
  if (isnan(t)) {
    int div_p, c = counterpart(coll, &div_p), q = nearest_measured_p(m, coll, p);
    s = MG_PRICE_MODEL;
    t = model_of(m, coll, p, n);
    if (!isnan(t) && q > 0) { /* calibrated: the model times what the library measured at q over its model there */
      double mq = measured(m, coll, q, n), pq = model_of(m, coll, q, n);
      if (mq > 0 && pq > 0) t *= mq / pq, s = MG_PRICE_CALIBRATED;
    }
    if (isnan(t) && c >= 0) {
      mg_price_src cs;
      t = mg_model_default(m, c, p, div_p && p > 0 ? n / p : n, &cs);
      s = cs == MG_PRICE_MEASURED ? MG_PRICE_MEASURED : cs;
    }
  }
  if (src) *src = isnan(t) ? MG_PRICE_NONE : s;
  return t;
}

/* ---- the expression evaluator ----
 * sum  := prod { ('+' | '-') prod }
 * prod := atom { ('*' | '/') atom }
 * atom := number | 'n' | 'p' | '(' sum ')' | name '(' sum ')'
 * A name is a collective (its default at that size), self (the row's collective), copy,
 * reduce_local, sendrecv or pow2. Errors leave a message and stop the walk. */
typedef struct ev {
  const char *s, *at;
  const mg_model *m; /* NULL: check only (every primitive prices 1) */
  int coll, p;
  double n;
  char *err;
  size_t len;
} ev;

static void skip(ev *e) {
  while (isspace((unsigned char)*e->at)) e->at++;
}

static double fail(ev *e, const char *what) {
  if (e->err && !e->err[0]) snprintf(e->err, e->len, "cost \"%s\", at offset %d: %s", e->s, (int)(e->at - e->s), what);
  return NAN;
}

static double sum(ev *e);

/* The primitive name[0..k) (pointing into e->s) at x. */
static double prim(ev *e, const char *name, size_t k, double x) {
  const mg_model *m = e->m;
  char buf[64];
  if (k >= sizeof buf) return e->at = name, fail(e, "name too long");
  memcpy(buf, name, k), buf[k] = '\0';
  if (!strcmp(buf, "pow2")) {
    double q = 1;
    while (q < x) q *= 2;
    return q;
  }
  int coll = !strcmp(buf, "self") ? e->coll : mg_coll_find(buf);
  int local = !strcmp(buf, "copy") || !strcmp(buf, "reduce_local");
  if (coll < 0 && !local)
    return e->at = name, fail(e, "unknown name (an operation such as bcast or sendrecv, self, copy, reduce_local or pow2)");
  if (!m) return 1;
  if (coll >= 0) return mg_model_default(m, coll, e->p, x, NULL); /* sendrecv: measured, or one message */
  if (!m->lg) return NAN;
  return x * (!strcmp(buf, "copy") ? m->lg->copy : m->lg->reduce);
}

static double atom(ev *e) {
  skip(e);
  const char *s = e->at;
  if (isdigit((unsigned char)*s) || *s == '.') {
    char *end;
    double v = strtod(s, &end);
    e->at = end;
    return v;
  }
  if (*s == '(') {
    e->at++;
    double v = sum(e);
    skip(e);
    if (*e->at != ')') return fail(e, "')' expected");
    e->at++;
    return v;
  }
  size_t k = 0;
  while (isalnum((unsigned char)s[k]) || s[k] == '_') k++;
  if (!k) return fail(e, "a number, n, p, '(' or a name expected");
  e->at = s + k;
  if (k == 1 && (*s == 'n' || *s == 'p')) return *s == 'n' ? e->n : e->p;
  skip(e);
  if (*e->at != '(') return fail(e, "'(' expected after a name");
  e->at++;
  double x = sum(e);
  skip(e);
  if (*e->at != ')') return fail(e, "')' expected");
  e->at++;
  return prim(e, s, k, x);
}

static double prod(ev *e) {
  double v = atom(e);
  for (;;) {
    skip(e);
    char op = *e->at;
    if (op != '*' && op != '/') return v;
    e->at++;
    double w = atom(e);
    v = op == '*' ? v * w : v / w;
  }
}

static double sum(ev *e) {
  double v = prod(e);
  for (;;) {
    skip(e);
    char op = *e->at;
    if (op != '+' && op != '-') return v;
    e->at++;
    double w = prod(e);
    v = op == '+' ? v + w : v - w;
  }
}

static double eval(ev *e) {
  double v = sum(e);
  skip(e);
  if (*e->at) return fail(e, "unexpected text");
  return v;
}

int mg_cost_check(const char *s, char *err, size_t len) {
  if (len) err[0] = '\0';
  ev e = {s, s, NULL, 0, 4, 1024, err, len};
  double v = eval(&e);
  return isnan(v) ? -1 : 0;
}

double mg_model_alg(const mg_model *m, int coll, int alg, int p, double n) {
  const mg_alg *a = &mg_colls[coll].algs[alg];
  if (alg == 0) return mg_model_default(m, coll, p, n, NULL);
  if (a->costfn) return m->lg ? schedule(m, a, p, n) : NAN;
  if (!a->cost) return NAN;
  ev e = {a->cost, a->cost, m, coll, p, n, NULL, 0};
  return eval(&e);
}

const char *mg_price_name(mg_price_src s) {
  static const char *const name[] = {"", "measured", "calibrated", "model"};
  return (unsigned)s < sizeof name / sizeof name[0] ? name[s] : "";
}

const char *mg_cost_text(const mg_alg *a) { return a->costfn ? "LogGP schedule" : a->cost ? a->cost : ""; }
