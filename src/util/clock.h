/*
 * The one monotonic clock of the tools (MPI-free): CLOCK_MONOTONIC, one system-wide clock on a
 * node, read through the vDSO without a system call. Inline: libmpiguide's timed trace reads it
 * on the dispatched path. (The benchmark's choice of timer, this clock or MPI_Wtime, is
 * src/bench/timer.c's.)
 */
#ifndef MG_UTIL_CLOCK_H
#define MG_UTIL_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline int64_t mg_clock_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline double mg_clock_s(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#endif
