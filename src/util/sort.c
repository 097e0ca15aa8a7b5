/* Orderings and order statistics (sort.h). */
#include <stdlib.h>
#include <string.h>

#include "util/sort.h"

int mg_cmp_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return (x > y) - (x < y);
}

int mg_cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int mg_cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int mg_cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

void mg_sort_doubles(double *x, size_t n) {
  if (n > 1) qsort(x, n, sizeof *x, mg_cmp_double);
}

void mg_sort_sizes(size_t *x, size_t n) {
  if (n > 1) qsort(x, n, sizeof *x, mg_cmp_size);
}

double mg_quantile_sorted(const double *x, size_t n, double p) {
  if (n == 0) return 0;
  if (!(p > 0)) return x[0];
  if (p >= 1) return x[n - 1];
  double pos = p * (double)(n - 1);
  size_t i = (size_t)pos;
  double f = pos - (double)i;
  if (i + 1 >= n || f == 0.0) return x[i];
  return x[i] + f * (x[i + 1] - x[i]);
}

double mg_median_sorted(const double *x, size_t n) {
  if (n == 0) return 0;
  return n % 2 ? x[n / 2] : 0.5 * (x[n / 2 - 1] + x[n / 2]);
}

double mg_median_inplace(double *x, size_t n) {
  mg_sort_doubles(x, n);
  return mg_median_sorted(x, n);
}
