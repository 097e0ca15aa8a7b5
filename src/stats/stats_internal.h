/*
 * Helpers shared by the files of src/stats/ (not part of the API).
 */
#ifndef MG_STATS_INTERNAL_H
#define MG_STATS_INTERNAL_H

#include "stats/stats.h"

/* EMPTY for n == 0, INVALID for a NULL array, NONFINITE for NaN or +-inf. */
mg_stats_status mg_stats__check(const double *x, size_t n);

/* Mean and sum of squared deviations by Welford's update: exact (m2 == 0,
 * mean == x[0]) when all values are equal. n >= 1. */
void mg_stats__moments(const double *x, size_t n, double *mean, double *m2);

/* 1 when 0 < v < 1 (also rejects NaN). */
static inline int mg_stats__open_unit(double v) { return v > 0.0 && v < 1.0; }

/* The replicate ratios of mg_stats_slowdown_launches (launches = 1: of mg_stats_slowdown) into
 * ratios[0..resamples), unsorted, as the interval sees them; for the tests that compare their
 * distribution with a reference resampler. Arguments as checked by those functions (unchecked). */
mg_stats_status mg_stats__slowdown_replicates(const double *a, const size_t *a_off, const double *b,
                                              const size_t *b_off, size_t launches, size_t resamples,
                                              uint32_t seed, double *ratios);

/* The per-end scales and extremes (stats.h, mg_stats_logspread) of n >= 1 replicate ratios sorted
 * ascending, lse their logarithms' standard deviation (the scale when no tail is resolved). */
mg_stats_logspread mg_stats__logspread(const double *sorted, size_t n, double lse);

#endif
