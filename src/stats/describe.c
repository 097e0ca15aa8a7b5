/*
 * Descriptive statistics of one runtime sample: extremes, mean and standard
 * deviation (Welford), type 7 quantiles, and the standard errors that the
 * adaptive repetition control compares with its target. The median's standard
 * error is McKean & Schrader's order-statistic estimator (the one Wilcox's
 * msmedse computes): deterministic, cheap, and needs no density estimate,
 * which bimodal runtimes would make unreliable.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats_internal.h"
#include "util/sort.h"

/* The 0.995 quantile of the standard normal (McKean & Schrader's z for a
 * 99 % order-statistic interval), qnorm(0.995). */
#define MG_Z995 2.5758293035489004

static const char *const mg_stats_messages[] = {
#define MG_X(E, s) s,
    MG_STATS_STATUSES(MG_X)
#undef MG_X
};

const char *mg_stats_strerror(mg_stats_status st) {
  if ((unsigned)st >= MG_STATS_NSTATUS) return "unknown status";
  return mg_stats_messages[st];
}

mg_stats_status mg_stats__check(const double *x, size_t n) {
  if (n == 0) return MG_STATS_EMPTY;
  if (!x) return MG_STATS_INVALID;
  for (size_t i = 0; i < n; i++)
    if (!isfinite(x[i])) return MG_STATS_NONFINITE;
  return MG_STATS_OK;
}

void mg_stats__moments(const double *x, size_t n, double *mean, double *m2) {
  double mu = x[0], s = 0.0;
  for (size_t i = 1; i < n; i++) {
    double d = x[i] - mu;
    mu += d / (double)(i + 1);
    s += d * (x[i] - mu);
  }
  *mean = mu;
  *m2 = s;
}

void mg_stats_sort(double *x, size_t n) { mg_sort_doubles(x, n); }

mg_stats_status mg_stats_sorted_copy(const double *x, size_t n, double **out) {
  mg_stats_status st = mg_stats__check(x, n);
  if (st != MG_STATS_OK) return st;
  if (!out) return MG_STATS_INVALID;
  double *s = malloc(n * sizeof *s);
  if (!s) return MG_STATS_NOMEM;
  memcpy(s, x, n * sizeof *s);
  mg_stats_sort(s, n);
  *out = s;
  return MG_STATS_OK;
}

double mg_stats_quantile_sorted(const double *sorted, size_t n, double p) { return mg_quantile_sorted(sorted, n, p); }

mg_stats_status mg_stats_min(const double *x, size_t n, double *out) {
  mg_stats_status st = mg_stats__check(x, n);
  if (st != MG_STATS_OK) return st;
  if (!out) return MG_STATS_INVALID;
  double v = x[0];
  for (size_t i = 1; i < n; i++)
    if (x[i] < v) v = x[i];
  *out = v;
  return MG_STATS_OK;
}

mg_stats_status mg_stats_max(const double *x, size_t n, double *out) {
  mg_stats_status st = mg_stats__check(x, n);
  if (st != MG_STATS_OK) return st;
  if (!out) return MG_STATS_INVALID;
  double v = x[0];
  for (size_t i = 1; i < n; i++)
    if (x[i] > v) v = x[i];
  *out = v;
  return MG_STATS_OK;
}

mg_stats_status mg_stats_mean(const double *x, size_t n, double *out) {
  mg_stats_status st = mg_stats__check(x, n);
  if (st != MG_STATS_OK) return st;
  if (!out) return MG_STATS_INVALID;
  double mean, m2;
  mg_stats__moments(x, n, &mean, &m2);
  *out = mean;
  return MG_STATS_OK;
}

mg_stats_status mg_stats_sd(const double *x, size_t n, double *out) {
  mg_stats_status st = mg_stats__check(x, n);
  if (st != MG_STATS_OK) return st;
  if (!out) return MG_STATS_INVALID;
  if (n < 2) return MG_STATS_TOO_FEW;
  double mean, m2;
  mg_stats__moments(x, n, &mean, &m2);
  *out = sqrt(m2 / (double)(n - 1));
  return MG_STATS_OK;
}

mg_stats_status mg_stats_quantile(const double *x, size_t n, double p, double *out) {
  mg_stats_status st = mg_stats__check(x, n);
  if (st != MG_STATS_OK) return st;
  if (!out || !(p >= 0.0 && p <= 1.0)) return MG_STATS_INVALID;
  double *s;
  st = mg_stats_sorted_copy(x, n, &s);
  if (st != MG_STATS_OK) return st;
  *out = mg_stats_quantile_sorted(s, n, p);
  free(s);
  return MG_STATS_OK;
}

mg_stats_status mg_stats_median(const double *x, size_t n, double *out) {
  return mg_stats_quantile(x, n, 0.5, out);
}

/* se / |centre| with the conventions of the header: 0/0 is 0 (no spread). */
static mg_stats_status mg_relative(double se, double centre, double *out) {
  if (se == 0.0) {
    *out = 0.0;
    return MG_STATS_OK;
  }
  if (centre == 0.0) return MG_STATS_UNDEFINED;
  *out = se / fabs(centre);
  return MG_STATS_OK;
}

mg_stats_status mg_stats_rse_mean(const double *x, size_t n, double *out) {
  mg_stats_status st = mg_stats__check(x, n);
  if (st != MG_STATS_OK) return st;
  if (!out) return MG_STATS_INVALID;
  if (n < 2) return MG_STATS_TOO_FEW;
  double mean, m2;
  mg_stats__moments(x, n, &mean, &m2);
  return mg_relative(sqrt(m2 / (double)(n - 1)) / sqrt((double)n), mean, out);
}

static double mg_se_median_sorted(const double *s, size_t n) {
  double c = floor((double)(n + 1) / 2.0 - MG_Z995 * sqrt((double)n / 4.0) + 0.5);
  size_t lo = c < 1.0 ? 1 : (size_t)c; /* 1-based order statistic */
  size_t hi = n - lo + 1;
  return (s[hi - 1] - s[lo - 1]) / (2.0 * MG_Z995);
}

mg_stats_status mg_stats_se_median(const double *x, size_t n, double *out) {
  mg_stats_status st = mg_stats__check(x, n);
  if (st != MG_STATS_OK) return st;
  if (!out) return MG_STATS_INVALID;
  if (n < 2) return MG_STATS_TOO_FEW;
  double *s;
  st = mg_stats_sorted_copy(x, n, &s);
  if (st != MG_STATS_OK) return st;
  *out = mg_se_median_sorted(s, n);
  free(s);
  return MG_STATS_OK;
}

mg_stats_status mg_stats_rse_median(const double *x, size_t n, double *out) {
  mg_stats_status st = mg_stats__check(x, n);
  if (st != MG_STATS_OK) return st;
  if (!out) return MG_STATS_INVALID;
  if (n < 2) return MG_STATS_TOO_FEW;
  double *s;
  st = mg_stats_sorted_copy(x, n, &s);
  if (st != MG_STATS_OK) return st;
  double se = mg_se_median_sorted(s, n), med = mg_stats_quantile_sorted(s, n, 0.5);
  free(s);
  return mg_relative(se, med, out);
}

mg_stats_status mg_stats_summarize(const double *x, size_t n, mg_stats_summary *out) {
  if (!out) return MG_STATS_INVALID;
  double *s;
  mg_stats_status st = mg_stats_sorted_copy(x, n, &s);
  if (st != MG_STATS_OK) return st;
  mg_stats_summary r = {.n = n};
  r.min = s[0];
  r.max = s[n - 1];
  r.q1 = mg_stats_quantile_sorted(s, n, 0.25);
  r.median = mg_stats_quantile_sorted(s, n, 0.5);
  r.q3 = mg_stats_quantile_sorted(s, n, 0.75);
  double m2;
  mg_stats__moments(x, n, &r.mean, &m2); /* in input order, as mg_stats_mean */
  r.sd = r.rse_mean = r.se_median = r.rse_median = NAN;
  if (n >= 2) {
    r.sd = sqrt(m2 / (double)(n - 1));
    r.se_median = mg_se_median_sorted(s, n);
    if (mg_relative(r.sd / sqrt((double)n), r.mean, &r.rse_mean) != MG_STATS_OK) r.rse_mean = NAN;
    if (mg_relative(r.se_median, r.median, &r.rse_median) != MG_STATS_OK) r.rse_median = NAN;
  }
  free(s);
  *out = r;
  return MG_STATS_OK;
}
