/*
 * Holm-Bonferroni step-down adjustment (Holm 1979) of the p-values of one
 * family of tests, e.g. every (collective, size, mock-up) of one check run.
 * Rejecting where adj <= alpha controls the family-wise error rate at alpha
 * under any dependence between the tests. Same values as R's
 * p.adjust(p, "holm").
 */
#include <math.h>
#include <stdlib.h>

#include "stats/stats_internal.h"

typedef struct {
  double p;
  size_t i;
} mg_pidx;

static int mg_cmp_pidx(const void *pa, const void *pb) {
  const mg_pidx *a = pa, *b = pb;
  if (a->p != b->p) return a->p < b->p ? -1 : 1;
  return (a->i > b->i) - (a->i < b->i);
}

mg_stats_status mg_stats_holm(const double *p, size_t k, double *adj) {
  if (k == 0) return MG_STATS_EMPTY;
  if (!p || !adj) return MG_STATS_INVALID;
  for (size_t i = 0; i < k; i++) {
    if (isnan(p[i])) return MG_STATS_NONFINITE;
    if (!(p[i] >= 0.0 && p[i] <= 1.0)) return MG_STATS_INVALID;
  }
  mg_pidx *o = malloc(k * sizeof *o);
  if (!o) return MG_STATS_NOMEM;
  for (size_t i = 0; i < k; i++) o[i] = (mg_pidx){p[i], i};
  qsort(o, k, sizeof *o, mg_cmp_pidx);
  double running = 0.0; /* running maximum keeps the adjusted values monotone */
  for (size_t r = 0; r < k; r++) {
    double v = (double)(k - r) * o[r].p;
    if (v > 1.0) v = 1.0;
    if (v > running) running = v;
    o[r].p = running;
  }
  for (size_t r = 0; r < k; r++) adj[o[r].i] = o[r].p; /* p is no longer read */
  free(o);
  return MG_STATS_OK;
}
