/*
 * Per-call cost of the interposition layer: a one-element MPI_Allreduce (or the collective named:
 * barrier, exscan, reduce_scatter, gatherv, scatterv, alltoallv, alltoallw) on MPI_COMM_SELF, called N times (default one million) after a
 * warm-up; prints nanoseconds per call. A plain MPI program: run it with and without
 * LD_PRELOAD=libmpiguide.so (scripts/bench-overhead.sh does, side by side).
 *
 * Usage: overhead [calls [collective]]
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static const int one[1] = {1}, zero[1] = {0};
static const MPI_Datatype dbl[1] = {MPI_DOUBLE};

/* One call of the collective k; its result into *out (1 for a barrier). */
static void call(int k, const double *in, double *out) {
  switch (k) {
  case 1: MPI_Barrier(MPI_COMM_SELF), *out = 1; break;
  case 2: MPI_Exscan(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF), *out = 1; break; /* undefined on rank 0 */
  case 3: MPI_Reduce_scatter(in, out, one, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF); break;
  case 4: MPI_Gatherv(in, 1, MPI_DOUBLE, out, one, zero, MPI_DOUBLE, 0, MPI_COMM_SELF); break;
  case 5: MPI_Scatterv(in, one, zero, MPI_DOUBLE, out, 1, MPI_DOUBLE, 0, MPI_COMM_SELF); break;
  case 6: MPI_Alltoallv(in, one, zero, MPI_DOUBLE, out, one, zero, MPI_DOUBLE, MPI_COMM_SELF); break;
  case 7: MPI_Alltoallw(in, one, zero, dbl, out, one, zero, dbl, MPI_COMM_SELF); break;
  default: MPI_Allreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF); break;
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  if (n < 1) n = 1000000;
  static const char *const names[] = {"allreduce", "barrier",  "exscan",    "reduce_scatter",
                                      "gatherv",   "scatterv", "alltoallv", "alltoallw"};
  int k = 0;
  for (int i = 0; argc > 2 && i < 8; i++)
    if (!strcmp(argv[2], names[i])) k = i;
  double in = 1.0, out = 0.0, sum = 0.0;
  for (long i = 0; i < n / 10; i++) call(k, &in, &out);
  double t0 = now();
  for (long i = 0; i < n; i++) {
    call(k, &in, &out);
    sum += out;
  }
  double t = now() - t0;
  printf("%.2f ns/call (%ld calls of MPI_%s, checksum %.0f)\n", 1e9 * t / n, n, names[k], sum);
  MPI_Finalize();
  return sum == (double)n ? 0 : 1;
}
