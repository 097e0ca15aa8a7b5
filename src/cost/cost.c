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

#include "cost/cost.h"

void mg_model_init(mg_model *m, const mg_loggp *lg) {
  memset(m, 0, sizeof *m);
  m->lg = lg;
}

void mg_model_free(mg_model *m) {
  free(m->meas);
  memset(m, 0, sizeof *m);
}

int mg_model_add_rel(mg_model *m, int coll, int p, double bytes, double t, double rel) {
  if (m->nmeas == m->cap) {
    int cap = m->cap ? 2 * m->cap : 64;
    mg_cost_point *v = realloc(m->meas, (size_t)cap * sizeof *v);
    if (!v) return -1;
    m->meas = v, m->cap = cap;
  }
  m->meas[m->nmeas++] = (mg_cost_point){coll, p, bytes, t, rel > 0 && isfinite(rel) ? rel : 0};
  return 0;
}

int mg_model_add(mg_model *m, int coll, int p, double bytes, double t) { return mg_model_add_rel(m, coll, p, bytes, t, 0); }

static int point_cmp(const void *a, const void *b) {
  const mg_cost_point *x = a, *y = b;
  if (x->coll != y->coll) return x->coll < y->coll ? -1 : 1;
  if (x->p != y->p) return x->p < y->p ? -1 : 1;
  return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

void mg_model_sort(mg_model *m) {
  if (m->nmeas) qsort(m->meas, (size_t)m->nmeas, sizeof *m->meas, point_cmp);
}

static const mg_price no_price = {NAN, NAN, NAN, MG_PRICE_NONE};

/* t with relative half-width u (the interval cut at 0: no time is negative). */
static mg_price priced(double t, double u, mg_price_src src) {
  if (!isfinite(t)) return no_price;
  mg_price r = {t, t * (1 - u), t * (1 + u), src};
  if (r.lo < 0) r.lo = 0;
  return r;
}

double mg_price_rel(const mg_price *pr) {
  if (!(pr->t > 0)) return pr->t == 0 ? 0 : NAN;
  return fmax(pr->hi - pr->t, pr->t - pr->lo) / pr->t;
}

/* Factors of 2 between two sizes (or process counts); sizes under 1 byte count as 1 (a barrier). */
static double octaves(double a, double b) { return fabs(log2(fmax(a, 1) / fmax(b, 1))); }

/* The half-width of a measured median. */
static double point_rel(const mg_cost_point *q) {
  double u = q->rel > 0 ? q->rel : MG_PRICE_MEAS_DEFAULT;
  return u < MG_PRICE_MEAS_FLOOR ? MG_PRICE_MEAS_FLOOR : u;
}

static double model_of(const mg_model *m, int coll, int p, double n);

/* The measured default of (coll, p) at n (cost.h): measured at a measured size, interpolated
 * log-log between two, extrapolated beyond them along the model's shape scaled to the nearest
 * measurement. Never a latency-bound point stretched linearly: 6 us measured at 8 B is no
 * 3.1 s at 4 MiB (that was this function's answer once). NaN: no measurement, or nothing
 * says how the time grows beyond a single one. */
static mg_price measured(const mg_model *m, int coll, int p, double n) {
  int lo = -1, hi = -1;
  for (int i = 0; i < m->nmeas; i++)
    if (m->meas[i].coll == coll && m->meas[i].p == p) {
      if (lo < 0) lo = i;
      hi = i;
    }
  if (lo < 0) return no_price;
  const mg_cost_point *v = m->meas;
  for (int i = lo; i <= hi; i++)
    if (v[i].bytes == n) return priced(v[i].t, point_rel(&v[i]), MG_PRICE_MEASURED);
  if (n > v[lo].bytes && n < v[hi].bytes) {
    int i = lo + 1;
    while (v[i].bytes < n) i++;
    const mg_cost_point *a = &v[i - 1], *b = &v[i];
    double u = fmax(point_rel(a), point_rel(b)) + MG_PRICE_WIDEN * fmin(octaves(n, a->bytes), octaves(b->bytes, n)), t;
    if (a->bytes <= 0 || a->t <= 0 || b->t <= 0) /* a zero size (barrier) or time: linear */
      t = a->t + (b->t - a->t) * (n - a->bytes) / (b->bytes - a->bytes);
    else
      t = exp(log(a->t) + log(n / a->bytes) / log(b->bytes / a->bytes) * (log(b->t) - log(a->t)));
    return priced(t, u, MG_PRICE_INTERPOLATED);
  }
  int below = n < v[lo].bytes;
  const mg_cost_point *q = below ? &v[lo] : &v[hi];
  double u = point_rel(q) + MG_PRICE_WIDEN * octaves(n, q->bytes), t = NAN;
  double mn = model_of(m, coll, p, n), mq = model_of(m, coll, p, q->bytes);
  if (mn > 0 && mq > 0 && isfinite(mn) && isfinite(mq)) {
    t = q->t * mn / mq; /* the model's shape through the nearest measurement */
  } else if (below) {
    t = q->t; /* a time does not grow as the size shrinks: at most the smallest's */
  } else if (hi > lo && q->bytes > v[hi - 1].bytes) { /* alpha + beta n through the two largest */
    double beta = (q->t - v[hi - 1].t) / (q->bytes - v[hi - 1].bytes);
    /* the slope only where the bytes make at least MG_PRICE_BW_SHARE of the largest one's time:
     * between two latency-bound points (6 us at 8 B, 6.1 us at 64 B) it is noise, and stretched
     * to 4 MiB it says 7.5 ms as surely as 6 us x 4 MiB / 8 B once said 3.1 s */
    if (beta > 0 && beta * q->bytes >= MG_PRICE_BW_SHARE * q->t) t = q->t + beta * (n - q->bytes);
  }
  return priced(t, u, MG_PRICE_EXTRAPOLATED);
}

/* A collective without point-to-point rows priced as its regular counterpart: the coll and
 * whether its size is divided by p (the per-rank share of an even split; *div_p 0 for exscan,
 * priced as scan at the same size). -1: none. */
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

/* Whether coll's blocks may differ from rank to rank (its size is the whole vector of blocks). */
static int irregular(int coll) {
  int div_p;
  return counterpart(coll, &div_p) >= 0 && div_p;
}

/* A point-to-point row's schedule at (p, n) on crowded nodes (more ranks than processors):
 * - crowding: a row whose every rank is busy in nearly every round (a->crowd) slows down by the
 *   ranks per node over the processors, as a whole; the binomial trees crowd round by round inside
 *   their cost functions (mg_p2p_round_crowding), so a crowded row is priced without the cores;
 * - handoff: every message on the critical path is late by it (mg_loggp.wake): a rank that waits
 *   for a message has given up its processor (Open MPI yields when oversubscribed, and the busy
 *   ranks take the processors in turns), whatever the schedule, a tree's or a ring's. A delay, not
 *   work: no crowding scales it, t += schedule with the handoff - schedule, both without cores. A
 *   Sendrecv round (mg_p2p_xchg) adds it twice: both of its ranks wait for the other's message. */
static double schedule(const mg_model *m, const mg_alg *a, int p, double n) {
  const mg_loggp *lg = m->lg;
  mg_loggp flat = *lg;
  flat.cores = 0;
  double t = a->crowd ? a->costfn(&flat, p, n, a->param) * mg_loggp_crowding(lg, p) : a->costfn(lg, p, n, a->param);
  if (lg->handoff > 0 && mg_loggp_oversubscribed(lg, p)) {
    mg_loggp w = flat;
    w.wake = lg->handoff;
    t += a->costfn(&w, p, n, a->param) - a->costfn(&flat, p, n, a->param);
  }
  return t;
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

mg_price mg_model_default_price(const mg_model *m, int coll, int p, double n) {
  mg_price r = measured(m, coll, p, n);
  if (!isnan(r.t)) return r;
  int div_p, c = counterpart(coll, &div_p), q = nearest_measured_p(m, coll, p);
  r = priced(model_of(m, coll, p, n), MG_PRICE_MODEL_ERR, MG_PRICE_MODEL);
  if (!isnan(r.t) && q > 0) { /* calibrated: the model times what the library measured at q over its model there */
    mg_price mq = measured(m, coll, q, n);
    double pq = model_of(m, coll, q, n);
    if (mq.t > 0 && pq > 0)
      r = priced(r.t * mq.t / pq, mg_price_rel(&mq) + MG_PRICE_WIDEN * octaves(p, q),
                 mq.src == MG_PRICE_EXTRAPOLATED ? MG_PRICE_EXTRAPOLATED : MG_PRICE_CALIBRATED);
  }
  if (isnan(r.t) && c >= 0) r = mg_model_default_price(m, c, p, div_p && p > 0 ? n / p : n);
  return r;
}

double mg_model_default(const mg_model *m, int coll, int p, double n, mg_price_src *src) {
  mg_price r = mg_model_default_price(m, coll, p, n);
  if (src) *src = r.src;
  return r.t;
}

/* ---- the expression evaluator ----
 * sum  := prod { ('+' | '-') prod }
 * prod := atom { ('*' | '/') atom }
 * atom := number | 'n' | 'p' | 'ppn' | 'nodes' | '(' sum ')' | name ['[' sum ']'] '(' sum [',' sum] ')'
 * A name is a collective (its default at that size), self (the row's collective), copy,
 * reduce_local, sendrecv, pow2, ceil or min(a, b). A collective may say on how many processes it runs,
 * bcast[ppn](n): a step of a hierarchical row on one node's ranks (ppn, the ranks per node) or
 * among the node leaders (nodes); without it, on all p. Every value is a price: numbers, n, p, ppn
 * and nodes are exact (an interval of width 0, source none), and the operators combine intervals
 * (interval arithmetic) and take the weaker source. Errors leave a message and stop the walk. */
typedef struct ev {
  const char *s, *at;
  const mg_model *m; /* NULL: check only (every primitive prices 1) */
  int coll, p;
  double n;
  char *err;
  size_t len;
} ev;

/* The nodes a job of p processes spans and the ranks on its fullest node: p spread over as many
 * nodes as the LogGP file's job had (mg_loggp_crowding's rule); one node without LogGP
 * parameters or where the file does not say. */
static int job_nodes(const ev *e) {
  int k = e->m && e->m->lg && e->m->lg->nodes > 0 ? e->m->lg->nodes : 1;
  return k < e->p ? k : e->p > 0 ? e->p : 1;
}
static int job_ppn(const ev *e) {
  int k = job_nodes(e);
  return (e->p + k - 1) / k;
}

static mg_price exact(double v) { return (mg_price){v, v, v, MG_PRICE_NONE}; }

static mg_price_src weaker(mg_price_src a, mg_price_src b) { return a > b ? a : b; }

static void skip(ev *e) {
  while (isspace((unsigned char)*e->at)) e->at++;
}

static mg_price fail(ev *e, const char *what) {
  if (e->err && !e->err[0]) snprintf(e->err, e->len, "cost \"%s\", at offset %d: %s", e->s, (int)(e->at - e->s), what);
  return no_price;
}

static mg_price sum(ev *e);

/* a op b on intervals: the extremes of op over the corners (a divisor's interval excludes 0 here:
 * p, numbers and sizes). */
static mg_price combine(mg_price a, mg_price b, char op) {
  if (isnan(a.t) || isnan(b.t)) return no_price;
  mg_price r = {NAN, NAN, NAN, weaker(a.src, b.src)};
  if (op == '+') return r.t = a.t + b.t, r.lo = a.lo + b.lo, r.hi = a.hi + b.hi, r;
  if (op == '-') return r.t = a.t - b.t, r.lo = a.lo - b.hi, r.hi = a.hi - b.lo, r;
  double c[4] = {a.lo, a.lo, a.hi, a.hi}, d[4] = {b.lo, b.hi, b.lo, b.hi};
  r.t = op == '*' ? a.t * b.t : a.t / b.t;
  r.lo = INFINITY, r.hi = -INFINITY;
  for (int k = 0; k < 4; k++) {
    double x = op == '*' ? c[k] * d[k] : c[k] / d[k];
    r.lo = fmin(r.lo, x), r.hi = fmax(r.hi, x);
  }
  return r;
}

static double next_pow2(double x) {
  double q = 1;
  while (q < x) q *= 2;
  return q;
}

/* The primitive name[0..k) (pointing into e->s) at x (a size: exact in every row; its point
 * estimate is priced); blocks: an irregular collective's number of non-empty blocks (its second
 * argument, allgatherv(n, 1)), NaN when not given (the even split); procs: the processes a
 * collective runs on (bcast[ppn](n)), NaN when not given (all p). min takes blocks as its second
 * argument. */
static mg_price prim(ev *e, const char *name, size_t k, mg_price x, double blocks, double procs) {
  const mg_model *m = e->m;
  char buf[64];
  if (k >= sizeof buf) return e->at = name, fail(e, "name too long");
  memcpy(buf, name, k), buf[k] = '\0';
  int coll = !strcmp(buf, "self") ? e->coll : mg_coll_find(buf);
  if (!isnan(procs) && (coll < 0 || mg_coll_is_p2p((mg_coll)coll) || !(procs >= 1)))
    return e->at = name, fail(e, "a process count in [] (at least 1) only after a collective");
  if (!strcmp(buf, "min")) {
    if (isnan(blocks)) return e->at = name, fail(e, "min takes two arguments");
    return x.t <= blocks ? x : exact(blocks);
  }
  if (!strcmp(buf, "pow2")) return (mg_price){next_pow2(x.t), next_pow2(x.lo), next_pow2(x.hi), x.src};
  if (!strcmp(buf, "ceil")) return (mg_price){ceil(x.t), ceil(x.lo), ceil(x.hi), x.src};
  int local = !strcmp(buf, "copy") || !strcmp(buf, "reduce_local");
  if (coll < 0 && !local)
    return e->at = name,
           fail(e, "unknown name (an operation such as bcast or sendrecv, self, copy, reduce_local, pow2, ceil or min)");
  if (!isnan(blocks) && (coll < 0 || !irregular(coll) || !(blocks >= 1)))
    return e->at = name, fail(e, "a second argument (the number of non-empty blocks, at least 1) only after an irregular collective");
  if (!m) return exact(1);
  if (isnan(x.t)) return no_price;
  int np = isnan(procs) ? e->p : (int)lround(procs);
  /* a collective on one process sends no message: the leaders' step of a job on one node
   * (bcast_as_hier was priced 3 * bcast(n) there, three bcasts of all p, where it runs one) */
  if (coll >= 0 && !mg_coll_is_p2p((mg_coll)coll) && np < 2) return exact(0);
  if (coll >= 0) { /* sendrecv: measured, or one message */
    mg_price r = mg_model_default_price(m, coll, np, x.t);
    int div_p, c = counterpart(coll, &div_p);
    if (blocks >= 1 && blocks < np && !isnan(r.t)) {
      /* k blocks of x/k bytes: a schedule of the regular counterpart moves the largest block
       * through every step (a ring passes it on p-1 times, recursive doubling doubles it), so
       * its time is the counterpart's at x/k per rank, not at the even x/p: bcast_as_allgatherv
       * (the root's n bytes, every other block empty) priced as allgather(n/p) was named the
       * fastest 64 KiB bcast at 4 processes, 5.2 us against binomial's 6.8 us. Fewer bytes move
       * than in that counterpart (the empty blocks), so the interval reaches down to the even
       * split's lower end. */
      mg_price b = mg_model_default_price(m, c, np, x.t / blocks);
      if (isnan(b.t)) r.hi = INFINITY; /* nothing prices a block of x/k bytes: no upper end */
      else r = (mg_price){b.t, fmin(b.lo, r.lo), b.hi, weaker(r.src, b.src)};
    }
    return r;
  }
  if (!m->lg) return no_price;
  /* local work: the LogGP file's measured rate per byte, a model of it */
  return priced(x.t * (!strcmp(buf, "copy") ? m->lg->copy : m->lg->reduce), MG_PRICE_MODEL_ERR, MG_PRICE_MODEL);
}

static mg_price atom(ev *e) {
  skip(e);
  const char *s = e->at;
  if (isdigit((unsigned char)*s) || *s == '.') {
    char *end;
    double v = strtod(s, &end);
    e->at = end;
    return exact(v);
  }
  if (*s == '(') {
    e->at++;
    mg_price v = sum(e);
    skip(e);
    if (*e->at != ')') return fail(e, "')' expected");
    e->at++;
    return v;
  }
  size_t k = 0;
  while (isalnum((unsigned char)s[k]) || s[k] == '_') k++;
  if (!k) return fail(e, "a number, n, p, '(' or a name expected");
  e->at = s + k;
  if (k == 1 && (*s == 'n' || *s == 'p')) return exact(*s == 'n' ? e->n : e->p);
  if (k == 3 && !strncmp(s, "ppn", 3)) return exact(job_ppn(e));
  if (k == 5 && !strncmp(s, "nodes", 5)) return exact(job_nodes(e));
  skip(e);
  mg_price procs = exact(NAN);
  if (*e->at == '[') {
    e->at++;
    procs = sum(e);
    skip(e);
    if (*e->at != ']') return fail(e, "']' expected");
    e->at++;
    skip(e);
  }
  if (*e->at != '(') return fail(e, "'(' expected after a name");
  e->at++;
  mg_price x = sum(e), blocks = exact(NAN);
  skip(e);
  if (*e->at == ',') {
    e->at++;
    blocks = sum(e);
    skip(e);
  }
  if (*e->at != ')') return fail(e, "')' expected");
  e->at++;
  return prim(e, s, k, x, blocks.t, procs.t);
}

static mg_price prod(ev *e) {
  mg_price v = atom(e);
  for (;;) {
    skip(e);
    char op = *e->at;
    if (op != '*' && op != '/') return v;
    e->at++;
    v = combine(v, atom(e), op);
  }
}

static mg_price sum(ev *e) {
  mg_price v = prod(e);
  for (;;) {
    skip(e);
    char op = *e->at;
    if (op != '+' && op != '-') return v;
    e->at++;
    v = combine(v, prod(e), op);
  }
}

static mg_price eval(ev *e) {
  mg_price v = sum(e);
  skip(e);
  if (*e->at) return fail(e, "unexpected text");
  return v;
}

int mg_cost_check(const char *s, char *err, size_t len) {
  if (len) err[0] = '\0';
  ev e = {s, s, NULL, 0, 4, 1024, err, len};
  mg_price v = eval(&e);
  return isnan(v.t) ? -1 : 0;
}

mg_price mg_model_alg_price(const mg_model *m, int coll, int alg, int p, double n) {
  const mg_alg *a = &mg_colls[coll].algs[alg];
  if (alg == 0) return mg_model_default_price(m, coll, p, n);
  if (a->costfn) return m->lg ? priced(schedule(m, a, p, n), MG_PRICE_MODEL_ERR, MG_PRICE_MODEL) : no_price;
  if (!a->cost) return no_price;
  ev e = {a->cost, a->cost, m, coll, p, n, NULL, 0};
  mg_price r = eval(&e);
  if (isnan(r.t) || isnan(r.lo) || isnan(r.hi)) return no_price;
  if (r.lo < 0) r.lo = 0;
  if (r.src == MG_PRICE_NONE) r.src = MG_PRICE_MODEL; /* an expression of numbers alone */
  return r;
}

double mg_model_alg(const mg_model *m, int coll, int alg, int p, double n) {
  return mg_model_alg_price(m, coll, alg, p, n).t;
}

const char *mg_price_name(mg_price_src s) {
#define MG_PRICE_NAME(id, name) name,
  static const char *const name[] = {MG_PRICE_SOURCES(MG_PRICE_NAME)};
#undef MG_PRICE_NAME
  return (unsigned)s < sizeof name / sizeof name[0] ? name[s] : "";
}

const char *mg_cost_text(const mg_alg *a) { return a->costfn ? "LogGP schedule" : a->cost ? a->cost : ""; }
