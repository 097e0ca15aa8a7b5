/*
 * A 2-rank hello world that times its own MPI_Init (benchmarks/site-preload.sh): rank 0 prints
 * the longest MPI_Init of all ranks, in microseconds (CLOCK_MONOTONIC, from just before the call
 * to its return). With libmpiguide in the process this includes its set-up (the agreement's one
 * reduction); a re-execution by libmpiguide-preload.so happens before main, so only the launch's
 * wall time, which the script takes, holds it. With the argument --exit it returns before
 * MPI_Init: what loading it costs (its MPI library, and a re-execution by the shim).
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--exit") == 0) return 0;
  double t0 = now_us();
  MPI_Init(&argc, &argv);
  double us = now_us() - t0, max = 0;
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Reduce(&us, &max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  if (rank == 0) printf("%.0f\n", max);
  MPI_Finalize();
  return 0;
}
