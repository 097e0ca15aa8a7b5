/*
 * Per-rank counts of the collectives that take them (bench.h, mg_bench_counts): uniform, with
 * ranks that contribute nothing, or skewed from a seed. Every rank computes the same split
 * from the same arguments; nothing is communicated.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"
#include "bench/order.h"

static void uniform(long c, int p, int *out) {
  for (int r = 0; r < p; r++) out[r] = (int)(c / p + (r < c % p));
}

int mg_bench_split(const mg_bench_counts *k, long c, int p, int *out) {
  if (k->kind == MG_COUNTS_ZEROS && k->zeros > 0) {
    int give = p - (k->zeros < p ? k->zeros : p);
    for (int r = 0; r < p; r++) out[r] = 0;
    if (give > 0) uniform(c, give, out);
    return 0;
  }
  if (k->kind != MG_COUNTS_SKEW || p == 1) {
    uniform(c, p, out);
    return 0;
  }
  double *w = malloc((size_t)p * sizeof *w), sum = 0;
  if (!w) return -1;
  uint64_t rng = k->seed;
  for (int r = 0; r < p; r++) { /* factor^u, u in [0,1) */
    double u = (double)(mg_splitmix64(&rng) >> 11) / 9007199254740992.0;
    w[r] = pow(k->factor, u);
    sum += w[r];
  }
  long given = 0;
  for (int r = 0; r < p; r++) {
    double share = (double)c * w[r] / sum;
    out[r] = (int)floor(share);
    w[r] = share - floor(share); /* the remainder */
    given += out[r];
  }
  while (given < c) { /* largest remainders first; ties to the lower rank */
    int best = 0;
    for (int r = 1; r < p; r++)
      if (w[r] > w[best]) best = r;
    out[best]++, w[best] = -1, given++;
  }
  free(w);
  return 0;
}

void mg_bench_counts_name(const mg_bench_counts *k, char *buf, size_t len) {
  switch (k->kind) {
  case MG_COUNTS_ZEROS: snprintf(buf, len, "zeros:%d", k->zeros); break;
  case MG_COUNTS_SKEW: snprintf(buf, len, "skew:%g:%llu", k->factor, (unsigned long long)k->seed); break;
  default: snprintf(buf, len, "uniform"); break;
  }
}
