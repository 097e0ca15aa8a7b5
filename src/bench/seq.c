/*
 * The sequential stopping rule (seq.h): order-statistic intervals of the medians, combined into an
 * interval of their ratio, at a level corrected for the looks.
 */
#include <math.h>
#include <stdio.h>

#include "bench/seq.h"

void mg_seq_defaults(mg_seq_cfg *c) {
  c->error = 0.01;
  c->looks = 0;
  c->margin = 0.05;
  c->noise = 0;
  c->first = 12;
  c->min_n = 20;
  c->min_root = 5;
  c->growth = 1.5;
  c->test_z = 4.75;
  c->both_ways = 0;
}

/* The k-th point of the schedule: c->first when it lies below min_n, then min_n x growth^j rounded
 * up, each at least one more than the last. */
static long point(const mg_seq_cfg *c, long k) {
  if (c->first > 0 && c->first < c->min_n) {
    if (k == 0) return c->first;
    k--;
  }
  double t = c->min_n > 0 ? (double)c->min_n : 1;
  long p = (long)t;
  for (long i = 0; i < k; i++) {
    t *= c->growth > 1 ? c->growth : 2;
    p = (long)ceil(t) > p ? (long)ceil(t) : p + 1;
  }
  return p;
}

long mg_seq_looks(const mg_seq_cfg *c, long max_nrep) {
  long k = 0;
  while (point(c, k) < max_nrep) k++;
  return k > 1 ? k : 1;
}

long mg_seq_point(const mg_seq_cfg *c, long k) { return point(c, k); }

long mg_seq_frozen(const mg_seq_cfg *c, long n) {
  long k = mg_seq_look_at(c, n);
  return k < 0 ? n : point(c, k);
}

long mg_seq_look_at(const mg_seq_cfg *c, long n) {
  long k = -1;
  for (long looks = c->looks > 0 ? c->looks : 1; k + 1 < looks && n >= point(c, k + 1);) k++;
  return k;
}

long mg_seq_next(const mg_seq_cfg *c, long n, long last) {
  long k = mg_seq_look_at(c, n);
  k = (k > last ? k : last) + 1; /* the look after the last one held or due */
  long looks = c->looks > 0 ? c->looks : 1;
  return k < looks && point(c, k) > n ? point(c, k) - n : 0;
}

long mg_seq_batch(long need, long batch) {
  if (batch < 1) batch = 1;
  if (need < 1) return batch;
  long b = (need + batch / 2) / batch; /* batches of about `batch`: round(need / batch) of them */
  if (b < 1) b = 1;
  return (need + b - 1) / b;
}

/* P(Bin(n, 1/2) = k), in logs so that large n does not underflow the first terms to garbage. */
static double binom_half(long n, long k) {
  return exp(lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1) - (double)n * log(2.0));
}

int mg_seq_median_ci(const double *x, long n, double g, double *lo, double *hi) {
  if (n < 1 || !(g > 0)) return -1;
  /* c: the largest with P(Bin < c) <= g/2; the interval [x_(c), x_(n-c+1)] then misses the median
   * with probability 2 P(Bin < c) <= g (the binomial of the values below the true median) */
  double cdf = 0;
  long c = 0;
  for (long k = 0; 2 * k < n; k++) {
    cdf += binom_half(n, k);
    if (cdf > g / 2) break;
    c = k + 1;
  }
  if (c < 1) return -1;
  *lo = x[c - 1];
  *hi = x[n - c];
  return 0;
}

/* The intervals of both medians at g each; 0, or -1 when a sample is too small. */
static int both(const double *dx, long dn, const double *mx, long mn, double g, double *ld, double *ud, double *lm,
                double *um) {
  return mg_seq_median_ci(dx, dn, g, ld, ud) || mg_seq_median_ci(mx, mn, g, lm, um) ? -1 : 0;
}

/* The Mann-Whitney statistic of a over b as a normal score, both ascending: U counts the pairs with
 * a above b (ties a half), z = (U - n_a n_b / 2 - 1/2) / sqrt(n_a n_b (n_a + n_b + 1) / 12). */
static double mw_z(const double *a, long na, const double *b, long nb) {
  double u = 0;
  long lo = 0, hi = 0; /* b[0..lo) < a[i], b[0..hi) <= a[i] */
  for (long i = 0; i < na; i++) {
    while (lo < nb && b[lo] < a[i]) lo++;
    while (hi < nb && b[hi] <= a[i]) hi++;
    u += (double)lo + 0.5 * (double)(hi - lo);
  }
  double nn = (double)na * (double)nb;
  return (u - nn / 2 - 0.5) / sqrt(nn * (double)(na + nb + 1) / 12);
}

/* Whether, at every root, a's median is decided above b's (a = 0: the default's side), each root's
 * two medians bounded one-sided at g each: only a's lower bound and b's upper one are read (the roots
 * serve only a violation), so each may miss with all of g on its one tail, not g / 2 (the intervals
 * of mg_seq_median_ci at 2g, one end read). */
static int above_at_every_root(const mg_seq_sample *a, const mg_seq_sample *b, double g) {
  for (int r = 0; r < a->nroots; r++) {
    double la, ua, lb, ub;
    if (both(a->rx[r], a->rn[r], b->rx[r], b->rn[r], 2 * g, &la, &ua, &lb, &ub) || !(la > ub)) return 0;
  }
  return 1;
}

/* The largest Mann-Whitney normal score samples of na and nb values can reach (every value of one
 * above every value of the other; mw_z's continuity correction). */
static double mw_z_max(long na, long nb) {
  double nn = (double)na * (double)nb;
  return (nn / 2 - 0.5) / sqrt(nn * (double)(na + nb + 1) / 12);
}

/* Whether an order-statistic interval of a median exists at n values and level g (mg_seq_median_ci:
 * even the whole range, [x_(1), x_(n)], misses with 2 P(Bin(n, 1/2) = 0) = 2^(1-n)). */
static int ci_exists(long n, double g) { return n >= 1 && binom_half(n, 0) <= g / 2; }

/*
 * The levels of one look (seq.h, "Error"), from the sample sizes alone: g for each pooled median's
 * interval, gr for each root's one-sided bounds; 1 when a violation can be decided at these sizes,
 * 0 when it cannot, whatever the values (the Mann-Whitney score cannot reach test_z, or an interval
 * a violation reads does not exist yet): then the look's whole share goes to the ends the
 * `consistent` decision reads (U_d and L_m; both ways also L_d and U_m), two tails at share / 2 each,
 * i.e. intervals at g = share (four tails, g = share / 2, both ways).
 */
static int look_levels(const mg_seq_cfg *c, const mg_seq_sample *d, const mg_seq_sample *m, double *g, double *gr) {
  long looks = c->looks > 0 ? c->looks : 1;
  double share = c->error / (double)looks;
  /* without roots the pooled ratio's two medians get half each; with roots the pooled medians a
   * quarter each and the 2 x roots one-sided bounds of the roots (read only for a violation) the
   * other half */
  *g = d->nroots ? share / 4 : share / 2;
  *gr = d->nroots ? share / (4.0 * d->nroots) : 0;
  int possible = mw_z_max(d->n, m->n) >= c->test_z && ci_exists(d->n, *g) && ci_exists(m->n, *g);
  for (int r = 0; possible && r < d->nroots; r++)
    possible = d->rn[r] >= c->min_root && m->rn[r] >= c->min_root && ci_exists(d->rn[r], 2 * *gr) &&
               ci_exists(m->rn[r], 2 * *gr);
  if (!possible) *g = c->both_ways ? share / 2 : share, *gr = 0;
  return possible;
}

mg_seq_decision mg_seq_decide(const mg_seq_cfg *c, const mg_seq_sample *d, const mg_seq_sample *m) {
  long n0 = point(c, 0);
  if (d->n < n0 || m->n < n0 || d->nroots != m->nroots) return MG_SEQ_OPEN;
  double g, gr, ld, ud, lm, um;
  int possible = look_levels(c, d, m, &g, &gr);
  if (both(d->x, d->n, m->x, m->n, g, &ld, &ud, &lm, &um)) return MG_SEQ_OPEN;
  int fv = possible && ld - um > c->noise && ld > um && above_at_every_root(d, m, gr) &&
           mw_z(d->x, d->n, m->x, m->n) >= c->test_z;
  int fc = lm > 0 && ud <= (1 + c->margin) * lm;
  if (!c->both_ways) return fv ? MG_SEQ_VIOLATION : fc ? MG_SEQ_CONSISTENT : MG_SEQ_OPEN;
  int rv = possible && lm - ud > c->noise && lm > ud && above_at_every_root(m, d, gr) &&
           mw_z(m->x, m->n, d->x, d->n) >= c->test_z;
  int rc = ld > 0 && um <= (1 + c->margin) * ld;
  if (!(fv || fc) || !(rv || rc)) return MG_SEQ_OPEN;
  return fv ? MG_SEQ_VIOLATION : MG_SEQ_CONSISTENT;
}

int mg_seq_explain(const mg_seq_cfg *c, const mg_seq_sample *d, const mg_seq_sample *m, char *buf, size_t len) {
  double g, gr, ld, ud, lm, um;
  int possible = look_levels(c, d, m, &g, &gr);
  size_t u = 0;
  if (both(d->x, d->n, m->x, m->n, g, &ld, &ud, &lm, &um))
    return snprintf(buf, len, "n %ld/%ld: too few values for the intervals", d->n, m->n);
  u += (size_t)snprintf(buf, len, "n %ld/%ld ratio [%.4g, %.4g] (median %.4g) L_d-U_m %.3g s z %.2f%s", d->n, m->n,
                        ld / um, ud / lm, d->x[d->n / 2] / m->x[m->n / 2], ld - um, mw_z(d->x, d->n, m->x, m->n),
                        possible ? "" : " (no violation possible at these sizes: consistent only)");
  for (int r = 0; possible && r < d->nroots && u < len; r++) {
    double a, b, e, f;
    if (both(d->rx[r], d->rn[r], m->rx[r], m->rn[r], 2 * gr, &a, &b, &e, &f))
      u += (size_t)snprintf(buf + u, len - u, " root%d n %ld/%ld: too few", r, d->rn[r], m->rn[r]);
    else /* the lower bound a violation reads (one-sided, above_at_every_root) */
      u += (size_t)snprintf(buf + u, len - u, " root%d n %ld/%ld >= %.4g", r, d->rn[r], m->rn[r], a / f);
  }
  return (int)u;
}

const char *mg_seq_decision_name(mg_seq_decision x) {
  switch (x) {
  case MG_SEQ_OPEN: return "open";
  case MG_SEQ_VIOLATION: return "violation";
  case MG_SEQ_CONSISTENT: return "consistent";
  }
  return "?";
}
