/*
 * Statistics of one sample of measurements (pure C, no MPI): order
 * statistics, mean, standard deviation and the relative standard error (RSE)
 * of the mean or of the median, which the adaptive repetition control uses.
 *
 * RSE of the mean:   (s / sqrt(n)) / mean, s the sample standard deviation.
 * RSE of the median: SE / median, with SE estimated from order statistics,
 *   without assuming a distribution: the ranks n/2 -+ 0.98 sqrt(n) bound an
 *   approximate 95 % confidence interval of the median, and
 *   SE = (x_(k) - x_(j)) / (2 x 1.96). Robust to the long right tails that
 *   preemption and interrupts give latency samples.
 * Both are +infinity when they cannot be estimated (n < 3, or a centre <= 0).
 */
#ifndef MG_BENCH_SAMPLE_H
#define MG_BENCH_SAMPLE_H

#include "util/sort.h"

typedef enum { MG_STAT_MEDIAN, MG_STAT_MEAN } mg_stat_kind;

typedef struct mg_summary {
  long n;
  double min, q1, median, q3, max; /* q1/q3: 25 % / 75 % quantiles (linear interpolation) */
  double mean, sd;                 /* sd: sample standard deviation (n - 1) */
  double rse_mean, rse_median;
} mg_summary;

/* Summarise x[0..n-1] (any order; x is not modified). All fields 0 for n == 0
 * (rse fields +infinity). Returns 0, or -1 if a scratch copy cannot be allocated. */
int mg_summarize(const double *x, long n, mg_summary *s);

/* On ascending data: the RSE of the median (sorting, quantiles and the median itself:
 * util/sort.h). */
double mg_rse_median_sorted(const double *x, long n);

/* On data in any order. */
double mg_mean(const double *x, long n);
double mg_rse_mean(const double *x, long n);
/* RSE of the chosen centre; sorts a scratch copy for the median. */
double mg_rse(const double *x, long n, mg_stat_kind kind);

const char *mg_stat_name(mg_stat_kind kind); /* "median" / "mean" */

#endif
