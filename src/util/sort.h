/*
 * The one home of orderings and order statistics (MPI-free): qsort comparators that cannot
 * overflow (three-way compares, never a subtraction), and quantiles and medians of sorted data.
 *
 * Quantile p of n sorted values: linear interpolation between the order statistics around
 * position p (n - 1), Hyndman and Fan's type 7 (R's default, numpy's "linear"); the median is
 * the mean of the two middle values when n is even. Both are 0 for n = 0.
 */
#ifndef MG_UTIL_SORT_H
#define MG_UTIL_SORT_H

#include <stddef.h>

int mg_cmp_size(const void *a, const void *b);   /* size_t, ascending */
int mg_cmp_double(const void *a, const void *b); /* double, ascending (no NaN expected) */
int mg_cmp_int(const void *a, const void *b);    /* int, ascending */
int mg_cmp_str(const void *a, const void *b);    /* char *, strcmp order */

void mg_sort_doubles(double *x, size_t n);
void mg_sort_sizes(size_t *x, size_t n);

double mg_quantile_sorted(const double *x, size_t n, double p); /* p in [0, 1] */
double mg_median_sorted(const double *x, size_t n);
/* Sorts x[0..n) in place and returns its median. */
double mg_median_inplace(double *x, size_t n);

#endif
