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

#include "stats/internal.h"

/* Type 7 median of the resample described by counts c[] over sorted s[]. */
static double mg_counted_median(const double *s, const unsigned *c, size_t n) {
  size_t lo = (n - 1) / 2, hi = n / 2, cum = 0;
  double vlo = s[0], vhi = s[0];
  int have_lo = 0;
  for (size_t i = 0; i < n; i++) {
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

static void mg_resample(gsl_rng *rng, size_t n, unsigned *c) {
  memset(c, 0, n * sizeof *c);
  for (size_t i = 0; i < n; i++) c[gsl_rng_uniform_int(rng, (unsigned long)n)]++;
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
  mg_stats_sort(ratios, resamples);
  double tail = (1.0 - level) / 2.0;
  mg_stats_slowdown_result r = {.level = level, .resamples = resamples};
  r.ratio = mg_stats_quantile_sorted(sa, na, 0.5) / mg_stats_quantile_sorted(sb, nb, 0.5);
  r.lo = mg_stats_quantile_sorted(ratios, resamples, tail);
  r.hi = mg_stats_quantile_sorted(ratios, resamples, 1.0 - tail);
  *out = r;
done:
  if (rng) gsl_rng_free(rng);
  free(ca);
  free(cb);
  free(ratios);
  free(sa);
  free(sb);
  return st;
}
