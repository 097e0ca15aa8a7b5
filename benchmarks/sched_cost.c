/*
 * What a schedule row costs an application (src/algs/sched.c, docs/library.md "The progress
 * thread"): for each non-blocking collective with a schedule row, at each size, the post alone and
 * the post followed by MPI_Wait (the completion time), of the library's own call (the default row)
 * and of the schedule run by libmpiguide's progress thread, side by side in one run: the two
 * alternate every repetition, each repetition after a barrier, medians over the repetitions of
 * rank 0's times. Run under MPIGUIDE_PROGRESS=thread (without it the schedule rows fall back and
 * both columns time the default: the program says so and exits 1).
 *
 *   mpiexec -n P sched_cost [NREP]        (NREP repetitions per cell, default 200)
 *
 * Output: one line per operation and size, the medians in microseconds and their ratio.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpiguide.h"

static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, int n) {
  qsort(v, (size_t)n, sizeof *v, cmp);
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static int post(int op, const int *s, int *r, int n, int p, MPI_Request *q) {
  switch (op) {
  case 0: return MPI_Iallreduce(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, q);
  case 1: return MPI_Iallgather(s, n, MPI_INT, r, n, MPI_INT, MPI_COMM_WORLD, q);
  default: (void)p; return MPI_Ireduce_scatter_block(s, r, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, q);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p, nrep = argc > 1 ? atoi(argv[1]) : 200, level;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Query_thread(&level);
  const char *pr = getenv("MPIGUIDE_PROGRESS");
  if (!pr || strcmp(pr, "thread") || level != MPI_THREAD_MULTIPLE || nrep < 1 || nrep > 100000) {
    if (!rank) fprintf(stderr, "sched_cost: run under MPIGUIDE_PROGRESS=thread (MPI_THREAD_MULTIPLE), NREP 1-100000\n");
    MPI_Finalize();
    return 1;
  }
  static const char *ops[] = {"iallreduce", "iallgather", "ireduce_scatter_block"};
  static const char *rows[] = {"iallreduce_as_ireduce_ibcast", "iallgather_as_igather_ibcast",
                               "ireduce_scatter_block_as_ireduce_iscatter"};
  int sizes[] = {2, 256, 16384, 262144}; /* ints: 8 B to 1 MiB */
  size_t most = (size_t)p * 262144;
  int *s = malloc(most * sizeof *s), *r = malloc(most * sizeof *r);
  double *t[4];
  for (int i = 0; i < 4; i++) t[i] = malloc((size_t)nrep * sizeof(double));
  for (size_t i = 0; i < most; i++) s[i] = (int)i;
  if (!rank)
    printf("%-22s %9s %12s %12s %12s %12s %7s\n", "operation", "bytes", "post_lib_us", "post_row_us", "done_lib_us",
           "done_row_us", "ratio");
  for (int op = 0; op < 3; op++)
    for (int si = 0; si < 4; si++) {
      int n = sizes[si];
      long long ran0 = mpiguide_calls(ops[op], rows[op]);
      for (int k = 0; k < nrep; k++)
        for (int which = 0; which < 2; which++) {
          char spec[128];
          snprintf(spec, sizeof spec, "%s=%s", ops[op], which ? rows[op] : "default");
          mpiguide_force(spec);
          MPI_Request q;
          MPI_Barrier(MPI_COMM_WORLD);
          double t0 = MPI_Wtime();
          post(op, s, r, n, p, &q);
          double t1 = MPI_Wtime();
          MPI_Wait(&q, MPI_STATUS_IGNORE);
          double t2 = MPI_Wtime();
          t[which][k] = (t1 - t0) * 1e6, t[2 + which][k] = (t2 - t0) * 1e6;
        }
      mpiguide_force("");
      long long ran = mpiguide_calls(ops[op], rows[op]) - ran0;
      double m[4];
      for (int i = 0; i < 4; i++) m[i] = median(t[i], nrep);
      if (!rank)
        printf("%-22s %9zu %12.2f %12.2f %12.2f %12.2f %7.2f%s\n", ops[op], (size_t)n * sizeof(int), m[0], m[1], m[2],
               m[3], m[3] / m[2], ran == nrep ? "" : "  (the row did not run every time)");
    }
  for (int i = 0; i < 4; i++) free(t[i]);
  free(s), free(r);
  MPI_Finalize();
  return 0;
}
