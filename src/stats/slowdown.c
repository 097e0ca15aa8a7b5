/*
 * The effect size of a verdict: slowdown = median(default) / median(mock-up),
 * with a percentile bootstrap interval (Efron & Tibshirani 1993, ch. 13), and
 * its two-stage form over launches, the unit of replication (DESIGN.md).
 *
 * A replicate draws L launches with replacement (one draw for A and B alike),
 * then, within every drawn launch, as many runtimes of A and of B as that
 * launch has, with replacement, and takes the ratio of the medians of all A
 * drawn and all B drawn. One launch (mg_stats_slowdown) is the ordinary
 * bootstrap. The interval is the pair of type 7 quantiles tail = (1 - level)/2
 * and 1 - tail of the sorted ratios.
 *
 * How a replicate is drawn: only its two medians matter, never the resample
 * itself. A launch drawn w times contributes w independent resamples of its
 * m values; together they are one multinomial of w m draws over its values.
 * The draws of all launches are laid over the sorted pool (positions, not
 * values, so ties behave as in a draw of indices); the median needs only the
 * resample's order statistics at ranks (T-1)/2 and T/2 of its T draws. So the
 * pool is bisected: given how many of launch k's draws lie in a range of the
 * pool, the number in its lower half is Binomial(those draws, share of launch
 * k's values of the range that lie in the lower half), and the search goes on
 * in the half holding the rank(s); when the two middle ranks part, each half
 * goes on by itself (given the halves' counts, the halves are independent
 * multinomials). That is an exact multinomial draw restricted to what the
 * median needs: O(L log n) binomial draws per replicate and side instead of
 * n uniform indices, the same bootstrap distribution in law: 2.6 ms instead of
 * 106 ms for 1000 resamples of 5000 vs 5000 values; check --from of a 3-launch
 * --full run from 53.7 to 16.5 s of CPU (docs/check.md). stats.bootstrap checks
 * the law against exact enumerations and the plain resampler.
 *
 * Random numbers: GSL's gsl_rng_mt19937 seeded by the caller, launch indices
 * from gsl_rng_uniform_int, counts from gsl_ran_binomial (Kachitvichyanukul &
 * Schmeiser's BTPE, inversion for small means). The same inputs give the same
 * interval with one GSL and libm; the binomial's acceptance tests use exp and
 * log, so another libm could, rarely, move an interval's last digits.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "stats/stats_internal.h"

/* One side (A or B) of the comparison: its values pooled over launches and sorted, and where
 * each launch's values stand in the pool. */
typedef struct {
  double *s;       /* the pool, ascending */
  size_t n, L;     /* pool size, launches */
  size_t *size;    /* size[k]: launch k's values */
  uint32_t *below; /* L > 1: below[k (n + 1) + p] = launch k's values among s[0..p) */
} mg_side;

static void mg_side_free(mg_side *sd) {
  free(sd->s), free(sd->size), free(sd->below);
  memset(sd, 0, sizeof *sd);
}

typedef struct {
  double x;
  uint32_t k; /* its launch */
} mg_tagged;

static int mg_cmp_tagged(const void *p, const void *q) {
  const mg_tagged *a = p, *b = q;
  return (a->x > b->x) - (a->x < b->x);
}

/* The side of x[0..off[L]), launch k at off[k] .. off[k+1]; the caller checked the values. */
static mg_stats_status mg_side_init(const double *x, const size_t *off, size_t L, mg_side *sd) {
  size_t n = off[L];
  *sd = (mg_side){.n = n, .L = L};
  sd->s = malloc(n * sizeof *sd->s);
  sd->size = malloc(L * sizeof *sd->size);
  mg_tagged *t = L > 1 ? malloc(n * sizeof *t) : NULL;
  if (L > 1) sd->below = malloc(L * (n + 1) * sizeof *sd->below);
  if (!sd->s || !sd->size || (L > 1 && (!t || !sd->below))) {
    free(t);
    mg_side_free(sd);
    return MG_STATS_NOMEM;
  }
  for (size_t k = 0; k < L; k++) sd->size[k] = off[k + 1] - off[k];
  if (L == 1) { /* one launch: below(0, p) is p itself, no table */
    memcpy(sd->s, x, n * sizeof *x);
    mg_stats_sort(sd->s, n);
    return MG_STATS_OK;
  }
  for (size_t k = 0; k < L; k++)
    for (size_t i = off[k]; i < off[k + 1]; i++) t[i] = (mg_tagged){x[i], (uint32_t)k};
  /* the order among equal values does not matter: a draw picks positions uniformly within a
   * launch, and equal values give equal medians wherever they stand */
  qsort(t, n, sizeof *t, mg_cmp_tagged);
  for (size_t k = 0; k < L; k++) sd->below[k * (n + 1)] = 0;
  for (size_t p = 0; p < n; p++) {
    sd->s[p] = t[p].x;
    for (size_t k = 0; k < L; k++) sd->below[k * (n + 1) + p + 1] = sd->below[k * (n + 1) + p] + (t[p].k == k);
  }
  free(t);
  return MG_STATS_OK;
}

static inline size_t mg_below(const mg_side *sd, size_t k, size_t p) {
  return sd->L == 1 ? p : sd->below[k * (sd->n + 1) + p];
}

/* The positions in the pool of the resample's order statistics at ranks tlo <= thi (0-based,
 * counted from p0) of the draws r[k] of launch k that lie in [p0, p1): bisect, drawing how many of
 * each launch's draws fall in the lower half. r[] is consumed; half[] is scratch of L counts, and
 * rest[] too while the ranks lie together (when they part, the upper half's counts go there). */
static void mg_select(const mg_side *sd, gsl_rng *rng, size_t p0, size_t p1, unsigned *r, size_t tlo, size_t thi,
                      unsigned *half, unsigned *rest, size_t *plo, size_t *phi) {
  while (p1 - p0 > 1) {
    size_t pm = p0 + (p1 - p0) / 2, lower = 0;
    for (size_t k = 0; k < sd->L; k++) {
      half[k] = 0;
      if (!r[k]) continue;
      size_t b0 = mg_below(sd, k, p0), nl = mg_below(sd, k, pm) - b0, nr = mg_below(sd, k, p1) - b0;
      half[k] = nl == nr ? r[k] : nl ? gsl_ran_binomial(rng, (double)nl / (double)nr, r[k]) : 0;
      lower += half[k];
    }
    if (thi < lower) {
      p1 = pm;
      for (size_t k = 0; k < sd->L; k++) r[k] = half[k];
    } else if (tlo >= lower) {
      p0 = pm;
      tlo -= lower, thi -= lower;
      for (size_t k = 0; k < sd->L; k++) r[k] -= half[k];
    } else { /* tlo in the lower half, thi in the upper one */
      for (size_t k = 0; k < sd->L; k++) rest[k] = r[k] - half[k], r[k] = half[k];
      mg_select(sd, rng, p0, pm, r, tlo, tlo, half, NULL, plo, plo);
      mg_select(sd, rng, pm, p1, rest, thi - lower, thi - lower, half, NULL, phi, phi);
      return;
    }
  }
  *plo = *phi = p0;
}

/* The type 7 median of one replicate's draws: w[k] resamples of launch k. */
static double mg_replicate_median(const mg_side *sd, gsl_rng *rng, const unsigned *w, unsigned *r, unsigned *half,
                                  unsigned *rest) {
  size_t total = 0, plo, phi;
  for (size_t k = 0; k < sd->L; k++) total += r[k] = w[k] * (unsigned)sd->size[k];
  mg_select(sd, rng, 0, sd->n, r, (total - 1) / 2, total / 2, half, rest, &plo, &phi);
  return plo == phi ? sd->s[plo] : sd->s[plo] + 0.5 * (sd->s[phi] - sd->s[plo]);
}

/* `resamples` replicate ratios into ratios[] (unsorted), from one MT19937 stream seeded with seed:
 * per replicate the L launch draws (none when L = 1), then A's counts, then B's. */
static mg_stats_status mg_replicates(const mg_side *a, const mg_side *b, size_t resamples, uint32_t seed,
                                     double *ratios) {
  size_t L = a->L;
  unsigned *w = malloc(4 * L * sizeof *w);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!w || !rng) {
    free(w);
    if (rng) gsl_rng_free(rng);
    return MG_STATS_NOMEM;
  }
  unsigned *r = w + L, *half = r + L, *rest = half + L;
  gsl_rng_set(rng, seed);
  for (size_t i = 0; i < resamples; i++) {
    memset(w, 0, L * sizeof *w);
    if (L == 1)
      w[0] = 1;
    else
      for (size_t d = 0; d < L; d++) w[gsl_rng_uniform_int(rng, (unsigned long)L)]++;
    double ma = mg_replicate_median(a, rng, w, r, half, rest);
    ratios[i] = ma / mg_replicate_median(b, rng, w, r, half, rest);
  }
  gsl_rng_free(rng);
  free(w);
  return MG_STATS_OK;
}

mg_stats_logspread mg_stats_logspread_normal(double lse) {
  return (mg_stats_logspread){.down = lse, .up = lse, .min = -INFINITY, .max = INFINITY, .reach = 0};
}

/* The per-end scales of n sorted replicate ratios (stats.h, mg_stats_logspread): at each tail t the
 * replicates resolve, the distance of their type 7 quantile at t (and 1 - t) from their median on
 * the log scale over z(t), the largest of them for each end; a heavy tail towards one side widens
 * that end only, and a tail that grows heavier beyond the normal's widens it by its worst quantile.
 * lse (the symmetric scale) when n resolves no tail; +INFINITY with a ratio that is 0 or infinite. */
mg_stats_logspread mg_stats__logspread(const double *sorted, size_t n, double lse) {
  mg_stats_logspread sp = mg_stats_logspread_normal(lse);
  sp.reach = 1.0 / (double)n;
  if (!(sorted[0] > 0) || !isfinite(sorted[n - 1])) {
    sp.down = sp.up = INFINITY, sp.min = -INFINITY, sp.max = INFINITY;
    return sp;
  }
  sp.min = log(sorted[0]), sp.max = log(sorted[n - 1]);
  static const double tails[] = MG_STATS_SPREAD_TAILS;
  double m = log(mg_stats_quantile_sorted(sorted, n, 0.5)), down = -1, up = -1;
  for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
    double t = tails[i];
    if (t * (double)n < MG_STATS_SPREAD_BEYOND) continue; /* too few replicates beyond it */
    double z = gsl_cdf_ugaussian_Qinv(t);
    double d = (m - log(mg_stats_quantile_sorted(sorted, n, t))) / z;
    double u = (log(mg_stats_quantile_sorted(sorted, n, 1.0 - t)) - m) / z;
    down = d > down ? d : down;
    up = u > up ? u : up;
  }
  if (down >= 0) sp.down = down, sp.up = up;
  return sp;
}

/* The checked core of both entry points: the point estimate and the interval. */
static mg_stats_status mg_slowdown_core(const double *a, const size_t *a_off, const double *b, const size_t *b_off,
                                        size_t L, double level, size_t resamples, uint32_t seed,
                                        mg_stats_slowdown_result *out) {
  mg_side sa = {0}, sb = {0};
  double *ratios = malloc(resamples * sizeof *ratios);
  mg_stats_status st = ratios ? mg_side_init(a, a_off, L, &sa) : MG_STATS_NOMEM;
  if (st == MG_STATS_OK) st = mg_side_init(b, b_off, L, &sb);
  if (st == MG_STATS_OK) st = mg_replicates(&sa, &sb, resamples, seed, ratios);
  if (st == MG_STATS_OK) {
    double sl = 0, sl2 = 0, lse = 0; /* the logarithms' spread, before the sort (same sum as after) */
    for (size_t i = 0; i < resamples && isfinite(lse); i++) {
      if (!(ratios[i] > 0) || !isfinite(ratios[i])) lse = INFINITY;
      else sl += log(ratios[i]);
    }
    if (isfinite(lse) && resamples > 1) {
      double mean = sl / (double)resamples;
      for (size_t i = 0; i < resamples; i++) sl2 += (log(ratios[i]) - mean) * (log(ratios[i]) - mean);
      lse = sqrt(sl2 / (double)(resamples - 1));
    }
    mg_stats_sort(ratios, resamples);
    double tail = (1.0 - level) / 2.0;
    mg_stats_logspread sp = mg_stats__logspread(ratios, resamples, lse);
    *out = (mg_stats_slowdown_result){
        .level = level,
        .resamples = resamples,
        .ratio = mg_stats_quantile_sorted(sa.s, sa.n, 0.5) / mg_stats_quantile_sorted(sb.s, sb.n, 0.5),
        .lo = mg_stats_quantile_sorted(ratios, resamples, tail),
        .hi = mg_stats_quantile_sorted(ratios, resamples, 1.0 - tail),
        .lse = lse,
        .spread = sp};
  }
  mg_side_free(&sa);
  mg_side_free(&sb);
  free(ratios);
  return st;
}

/* Counts are unsigned: a launch drawn L times gives L m draws, so L times the largest launch must
 * fit (UINT32_MAX covers every sample a check keeps in memory). */
static int mg_fits(const size_t *off, size_t L) {
  for (size_t k = 0; k < L; k++)
    if (off[k + 1] - off[k] > UINT32_MAX / L) return 0;
  return off[L] <= UINT32_MAX;
}

mg_stats_status mg_stats_slowdown(const double *a, size_t na, const double *b, size_t nb,
                                  double level, size_t resamples, uint32_t seed,
                                  mg_stats_slowdown_result *out) {
  mg_stats_status st = mg_stats__check(a, na);
  if (st == MG_STATS_OK) st = mg_stats__check(b, nb);
  if (st != MG_STATS_OK) return st;
  size_t a_off[2] = {0, na}, b_off[2] = {0, nb};
  if (!out || !mg_stats__open_unit(level) || resamples < 1 || !mg_fits(a_off, 1) || !mg_fits(b_off, 1))
    return MG_STATS_INVALID;
  for (size_t i = 0; i < na; i++)
    if (a[i] < 0.0) return MG_STATS_NOT_POSITIVE;
  for (size_t j = 0; j < nb; j++)
    if (b[j] <= 0.0) return MG_STATS_NOT_POSITIVE;
  return mg_slowdown_core(a, a_off, b, b_off, 1, level, resamples, seed, out);
}

static mg_stats_status mg_check_groups(const double *x, const size_t *off, size_t L, int allow_zero) {
  if (L < 1 || !off || off[0] != 0) return MG_STATS_INVALID;
  for (size_t k = 0; k < L; k++)
    if (off[k + 1] <= off[k]) return MG_STATS_EMPTY; /* every launch has values of both */
  mg_stats_status st = mg_stats__check(x, off[L]);
  if (st != MG_STATS_OK) return st;
  for (size_t i = 0; i < off[L]; i++)
    if (allow_zero ? x[i] < 0.0 : x[i] <= 0.0) return MG_STATS_NOT_POSITIVE;
  return MG_STATS_OK;
}

mg_stats_status mg_stats_slowdown_launches(const double *a, const size_t *a_off, const double *b,
                                           const size_t *b_off, size_t launches, double level,
                                           size_t resamples, uint32_t seed, mg_stats_slowdown_result *out) {
  mg_stats_status st = mg_check_groups(a, a_off, launches, 1);
  if (st == MG_STATS_OK) st = mg_check_groups(b, b_off, launches, 0);
  if (st != MG_STATS_OK) return st;
  if (!out || !mg_stats__open_unit(level) || resamples < 1 || launches > UINT32_MAX ||
      !mg_fits(a_off, launches) || !mg_fits(b_off, launches))
    return MG_STATS_INVALID;
  return mg_slowdown_core(a, a_off, b, b_off, launches, level, resamples, seed, out);
}

mg_stats_status mg_stats__slowdown_replicates(const double *a, const size_t *a_off, const double *b,
                                              const size_t *b_off, size_t launches, size_t resamples,
                                              uint32_t seed, double *ratios) {
  mg_side sa = {0}, sb = {0};
  mg_stats_status st = mg_side_init(a, a_off, launches, &sa);
  if (st == MG_STATS_OK) st = mg_side_init(b, b_off, launches, &sb);
  if (st == MG_STATS_OK) st = mg_replicates(&sa, &sb, resamples, seed, ratios);
  mg_side_free(&sa);
  mg_side_free(&sb);
  return st;
}

mg_stats_status mg_stats_ratio_interval(double ratio, const mg_stats_logspread *s, double tail, double *lo, double *hi,
                                        double *p) {
  if (!s) return MG_STATS_INVALID;
  if (isnan(ratio) || isnan(s->down) || isnan(s->up) || isnan(s->min) || isnan(s->max) || isnan(s->reach) ||
      isnan(tail))
    return MG_STATS_NONFINITE;
  if (!(ratio > 0) || !isfinite(ratio) || !(s->down >= 0) || !(s->up >= 0) || !(s->min <= s->max) ||
      !(s->reach >= 0 && s->reach <= 1) || !(tail > 0 && tail < 0.5))
    return MG_STATS_INVALID;
  double x = log(ratio), z = gsl_cdf_ugaussian_Qinv(tail), l, h, q;
  /* each end on its own scale (a scale of 0: the point; +INFINITY: no bound on that side) */
  l = s->down == 0 ? ratio : isfinite(s->down) ? exp(x - z * s->down) : 0;
  h = s->up == 0 ? ratio : isfinite(s->up) ? exp(x + z * s->up) : INFINITY;
  q = !isfinite(s->down) ? 1 : s->down == 0 ? (x > 0 ? 0 : 1) : gsl_cdf_ugaussian_Q(x / s->down);
  if (tail < s->reach) { /* beyond the replicates' reach: never inside the most extreme of them */
    if (l > exp(s->min)) l = exp(s->min);
    if (h < exp(s->max)) h = exp(s->max);
  }
  if (!(s->min > 0) && q < s->reach) q = s->reach; /* a replicate at or below 1: lo > 1 needs tail >= reach */
  /* the two computations of one comparison must not part in the last bit: lo > 1 <=> p <= tail */
  if (l > 1 && q > tail) q = tail;
  if (!(l > 1) && q <= tail) q = nextafter(tail, 1);
  if (lo) *lo = l;
  if (hi) *hi = h;
  if (p) *p = q;
  return MG_STATS_OK;
}
