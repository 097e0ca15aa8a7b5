/*
 * The order in which variants are measured within a round (pure C, no MPI):
 * a small seeded generator (splitmix64) and a Fisher-Yates shuffle. Every rank
 * computes the same order from the same seed, so no order is communicated.
 */
#ifndef MG_BENCH_ORDER_H
#define MG_BENCH_ORDER_H

#include <stdint.h>

static inline uint64_t mg_splitmix64(uint64_t *state) {
  uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

/* Shuffle v[0..n-1] with the generator state *rng. */
static inline void mg_shuffle_ints(int *v, int n, uint64_t *rng) {
  for (int i = n - 1; i > 0; i--) {
    int j = (int)(mg_splitmix64(rng) % (uint64_t)(i + 1));
    int t = v[i];
    v[i] = v[j];
    v[j] = t;
  }
}

#endif
