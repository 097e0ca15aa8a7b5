/*
 * Per-call cost of the interposition layer: a one-element MPI_Allreduce on
 * MPI_COMM_SELF, called N times (default one million) after a warm-up; prints
 * nanoseconds per call. A plain MPI program: run it with and without
 * LD_PRELOAD=libmpiguide.so (scripts/bench-overhead.sh does, side by side).
 *
 * Usage: overhead [calls]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  if (n < 1) n = 1000000;
  double in = 1.0, out = 0.0, sum = 0.0;
  for (long i = 0; i < n / 10; i++) MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF);
  double t0 = now();
  for (long i = 0; i < n; i++) {
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF);
    sum += out;
  }
  double t = now() - t0;
  printf("%.2f ns/call (%ld calls, checksum %.0f)\n", 1e9 * t / n, n, sum);
  MPI_Finalize();
  return sum == (double)n ? 0 : 1;
}
