/*
 * Sample statistics for the measurement engine (see sample.h for the
 * definitions of the two relative standard errors).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/sample.h"

double mg_rse_median_sorted(const double *x, long n) {
  if (n < 3) return INFINITY;
  double med = mg_median_sorted(x, n);
  if (!(med > 0)) return INFINITY;
  double half = 0.98 * sqrt((double)n); /* 1.96 sqrt(n) / 2 */
  long j = (long)floor((double)n / 2 - half); /* 1-based ranks */
  long k = (long)ceil((double)n / 2 + half);
  if (j < 1) j = 1;
  if (k > n) k = n;
  double se = (x[k - 1] - x[j - 1]) / (2 * 1.96);
  return se / med;
}

double mg_mean(const double *x, long n) {
  if (n <= 0) return 0;
  double s = 0;
  for (long i = 0; i < n; i++) s += x[i];
  return s / (double)n;
}

static double sample_sd(const double *x, long n, double mean) {
  if (n < 2) return 0;
  double ss = 0;
  for (long i = 0; i < n; i++) ss += (x[i] - mean) * (x[i] - mean);
  return sqrt(ss / (double)(n - 1));
}

double mg_rse_mean(const double *x, long n) {
  if (n < 3) return INFINITY;
  double m = mg_mean(x, n);
  if (!(m > 0)) return INFINITY;
  return sample_sd(x, n, m) / sqrt((double)n) / m;
}

double mg_rse(const double *x, long n, mg_stat_kind kind) {
  if (kind == MG_STAT_MEAN) return mg_rse_mean(x, n);
  if (n < 3) return INFINITY;
  double *y = malloc((size_t)n * sizeof *y);
  if (!y) return INFINITY;
  memcpy(y, x, (size_t)n * sizeof *y);
  mg_sort_doubles(y, n);
  double r = mg_rse_median_sorted(y, n);
  free(y);
  return r;
}

int mg_summarize(const double *x, long n, mg_summary *s) {
  memset(s, 0, sizeof *s);
  s->rse_mean = s->rse_median = INFINITY;
  if (n <= 0) return 0;
  double *y = malloc((size_t)n * sizeof *y);
  if (!y) return -1;
  memcpy(y, x, (size_t)n * sizeof *y);
  mg_sort_doubles(y, n);
  s->n = n;
  s->min = y[0];
  s->max = y[n - 1];
  s->q1 = mg_quantile_sorted(y, n, 0.25);
  s->median = mg_median_sorted(y, n);
  s->q3 = mg_quantile_sorted(y, n, 0.75);
  s->mean = mg_mean(y, n);
  s->sd = sample_sd(y, n, s->mean);
  s->rse_mean = mg_rse_mean(y, n);
  s->rse_median = mg_rse_median_sorted(y, n);
  free(y);
  return 0;
}

const char *mg_stat_name(mg_stat_kind kind) { return kind == MG_STAT_MEAN ? "mean" : "median"; }
