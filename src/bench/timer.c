/*
 * Timers: clock_gettime(CLOCK_MONOTONIC) (one system-wide clock on a node,
 * nanosecond resolution on Linux, the same for every MPI library) and the MPI
 * library's MPI_Wtime. Both return seconds as a double.
 */
#include <time.h>

#include "bench/bench.h"
#include "util/clock.h"

static double now_monotonic(void) { return mg_clock_s(); }

static double now_wtime(void) { return PMPI_Wtime(); }

mg_now_fn mg_timer_fn(mg_timer_kind k) { return k == MG_TIMER_WTIME ? now_wtime : now_monotonic; }

const char *mg_timer_name(mg_timer_kind k) {
  return k == MG_TIMER_WTIME ? "MPI_Wtime" : "clock_gettime(CLOCK_MONOTONIC)";
}

double mg_timer_resolution(mg_timer_kind k) {
  if (k == MG_TIMER_WTIME) return PMPI_Wtick();
  struct timespec ts;
  clock_getres(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double mg_timer_granularity(mg_timer_kind k) {
  mg_now_fn now = mg_timer_fn(k);
  double best = 0;
  for (int i = 0; i < 200; i++) {
    double a = now(), b;
    int spins = 0;
    while ((b = now()) == a && ++spins < 1000000) {
    }
    double d = b - a;
    if (d > 0 && (best == 0 || d < best)) best = d;
  }
  return best;
}
