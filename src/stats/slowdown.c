/*
 * The effect size of a verdict: slowdown = median(default) / median(mock-up),
 * with a percentile bootstrap interval (Efron & Tibshirani 1993, ch. 13).
 *
 * Each replicate resamples A and B independently with replacement (na draws
 * into A, then nb draws into B, from one gsl_rng_mt19937 stream seeded by the
 * caller) and takes the ratio of the resample medians. Resampling from the
 * sorted samples lets a replicate's median be read off the draw counts in
 * O(n), without sorting the resample. The interval is the pair of type 7
 * quantiles tail = (1 - level)/2 and 1 - tail of the sorted ratios.
 * MT19937 and gsl_rng_uniform_int are defined on 32-bit integers, so a given
 * (data, level, resamples, seed) gives the same interval on every platform.
 */
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "stats/stats_internal.h"

/* Type 7 median of a resample of `total` draws, counts c[] over sorted s[0..m). */
static double mg_counted_median_of(const double *s, const unsigned *c, size_t m, size_t total) {
  size_t lo = (total - 1) / 2, hi = total / 2, cum = 0;
  double vlo = s[0], vhi = s[0];
  int have_lo = 0;
  for (size_t i = 0; i < m; i++) {
    cum += c[i];
    if (!have_lo && cum > lo) {
      vlo = s[i];
      have_lo = 1;
    }
    if (cum > hi) {
      vhi = s[i];
      break;
    }
  }
  return lo == hi ? vlo : vlo + 0.5 * (vhi - vlo);
}

/* The same for a resample of n draws over n sorted values. */
static double mg_counted_median(const double *s, const unsigned *c, size_t n) {
  return mg_counted_median_of(s, c, n, n);
}

static void mg_resample(gsl_rng *rng, size_t n, unsigned *c) {
  memset(c, 0, n * sizeof *c);
  for (size_t i = 0; i < n; i++) c[gsl_rng_uniform_int(rng, (unsigned long)n)]++;
}

/* The result of sorted samples sa, sb and the replicates' ratios (sorted here): the ratio of the
 * medians and the type 7 quantiles tail and 1 - tail of the ratios. */
static mg_stats_slowdown_result mg_interval(const double *sa, size_t na, const double *sb, size_t nb,
                                            double *ratios, size_t resamples, double level) {
  mg_stats_sort(ratios, resamples);
  double tail = (1.0 - level) / 2.0;
  return (mg_stats_slowdown_result){.level = level,
                                    .resamples = resamples,
                                    .ratio = mg_stats_quantile_sorted(sa, na, 0.5) / mg_stats_quantile_sorted(sb, nb, 0.5),
                                    .lo = mg_stats_quantile_sorted(ratios, resamples, tail),
                                    .hi = mg_stats_quantile_sorted(ratios, resamples, 1.0 - tail)};
}

mg_stats_status mg_stats_slowdown(const double *a, size_t na, const double *b, size_t nb,
                                  double level, size_t resamples, uint32_t seed,
                                  mg_stats_slowdown_result *out) {
  mg_stats_status st = mg_stats__check(a, na);
  if (st == MG_STATS_OK) st = mg_stats__check(b, nb);
  if (st != MG_STATS_OK) return st;
  if (!out || !mg_stats__open_unit(level) || resamples < 1 || na > UINT32_MAX || nb > UINT32_MAX)
    return MG_STATS_INVALID;
  for (size_t i = 0; i < na; i++)
    if (a[i] < 0.0) return MG_STATS_NOT_POSITIVE;
  for (size_t j = 0; j < nb; j++)
    if (b[j] <= 0.0) return MG_STATS_NOT_POSITIVE;

  double *sa = NULL, *sb = NULL, *ratios = NULL;
  unsigned *ca = NULL, *cb = NULL;
  gsl_rng *rng = NULL;
  st = mg_stats_sorted_copy(a, na, &sa);
  if (st == MG_STATS_OK) st = mg_stats_sorted_copy(b, nb, &sb);
  if (st != MG_STATS_OK) goto done;
  ratios = malloc(resamples * sizeof *ratios);
  ca = malloc(na * sizeof *ca);
  cb = malloc(nb * sizeof *cb);
  rng = gsl_rng_alloc(gsl_rng_mt19937);
  if (!ratios || !ca || !cb || !rng) {
    st = MG_STATS_NOMEM;
    goto done;
  }
  gsl_rng_set(rng, seed);
  for (size_t r = 0; r < resamples; r++) {
    mg_resample(rng, na, ca);
    mg_resample(rng, nb, cb);
    ratios[r] = mg_counted_median(sa, ca, na) / mg_counted_median(sb, cb, nb);
  }
  *out = mg_interval(sa, na, sb, nb, ratios, resamples, level);
done:
  if (rng) gsl_rng_free(rng);
  free(ca);
  free(cb);
  free(ratios);
  free(sa);
  free(sb);
  return st;
}

/*
 * The two-stage (hierarchical) bootstrap over launches: the launch is the unit
 * of replication (DESIGN.md), so a replicate first draws L launches with
 * replacement, then, within every drawn launch, as many runtimes of A and of
 * B as that launch has, with replacement. The replicate's ratio is the
 * median of all A drawn over the median of all B drawn. Launch-to-launch
 * variation thus widens the interval; with one launch it is the ordinary
 * bootstrap of mg_stats_slowdown (but drawn in another order).
 *
 * The pooled samples are sorted once; pos_a[i] is where A's i-th value (in
 * input order) stands in the sorted pool, so a draw increments a count at
 * that position and a replicate's median is read off the counts in O(n).
 */
typedef struct {
  size_t v;   /* index into the input */
  double x;
} mg_tagged;

static int mg_cmp_tagged(const void *p, const void *q) {
  const mg_tagged *a = p, *b = q;
  return (a->x > b->x) - (a->x < b->x);
}

/* Sorted copy of x[0..n) into s[], and pos[i] = rank of x[i] in it. */
static mg_stats_status mg_sort_positions(const double *x, size_t n, double *s, size_t *pos) {
  mg_tagged *t = malloc(n * sizeof *t);
  if (!t) return MG_STATS_NOMEM;
  for (size_t i = 0; i < n; i++) t[i] = (mg_tagged){i, x[i]};
  qsort(t, n, sizeof *t, mg_cmp_tagged);
  for (size_t i = 0; i < n; i++) {
    s[i] = t[i].x;
    pos[t[i].v] = i;
  }
  free(t);
  return MG_STATS_OK;
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
  if (!out || !mg_stats__open_unit(level) || resamples < 1 || a_off[launches] > UINT32_MAX ||
      b_off[launches] > UINT32_MAX || launches > UINT32_MAX)
    return MG_STATS_INVALID;
  size_t na = a_off[launches], nb = b_off[launches];
  double *sa = malloc(na * sizeof *sa), *sb = malloc(nb * sizeof *sb), *ratios = malloc(resamples * sizeof *ratios);
  size_t *pa = malloc(na * sizeof *pa), *pb = malloc(nb * sizeof *pb);
  unsigned *ca = malloc(na * sizeof *ca), *cb = malloc(nb * sizeof *cb);
  gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
  st = MG_STATS_NOMEM;
  if (!sa || !sb || !ratios || !pa || !pb || !ca || !cb || !rng) goto done;
  if ((st = mg_sort_positions(a, na, sa, pa)) != MG_STATS_OK || (st = mg_sort_positions(b, nb, sb, pb)) != MG_STATS_OK)
    goto done;
  gsl_rng_set(rng, seed);
  for (size_t r = 0; r < resamples; r++) {
    memset(ca, 0, na * sizeof *ca);
    memset(cb, 0, nb * sizeof *cb);
    size_t ta = 0, tb = 0;
    for (size_t d = 0; d < launches; d++) {
      size_t k = gsl_rng_uniform_int(rng, (unsigned long)launches);
      size_t la = a_off[k + 1] - a_off[k], lb = b_off[k + 1] - b_off[k];
      for (size_t i = 0; i < la; i++) ca[pa[a_off[k] + gsl_rng_uniform_int(rng, (unsigned long)la)]]++;
      for (size_t i = 0; i < lb; i++) cb[pb[b_off[k] + gsl_rng_uniform_int(rng, (unsigned long)lb)]]++;
      ta += la;
      tb += lb;
    }
    ratios[r] = mg_counted_median_of(sa, ca, na, ta) / mg_counted_median_of(sb, cb, nb, tb);
  }
  *out = mg_interval(sa, na, sb, nb, ratios, resamples, level);
  st = MG_STATS_OK;
done:
  if (rng) gsl_rng_free(rng);
  free(sa), free(sb), free(ratios), free(pa), free(pb), free(ca), free(cb);
  return st;
}
