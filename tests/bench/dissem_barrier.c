/*
 * The dissemination barrier is a barrier: no rank leaves before every rank
 * has entered. Each iteration every rank sleeps a rank- and iteration-
 * dependent time (so a different rank enters last each time), takes the
 * time on entry and on exit with clock_gettime(CLOCK_MONOTONIC) - one
 * system-wide clock on a node - and rank 0 checks min(exit) >= max(entry)
 * over all ranks. Runs on one node only (exit 77 = skipped otherwise).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "bench/bench.h"
#include "common/test_mpi.h"

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, nlocal;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mg_test_mpi_start("dissem_barrier");
  MPI_Comm node, comm;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_size(node, &nlocal);
  int all_local = nlocal == size;
  MPI_Allreduce(MPI_IN_PLACE, &all_local, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all_local) {
    if (rank == 0)
      printf("dissem_barrier: ranks on several nodes; the clock check needs one node: skipped\n");
    MPI_Finalize();
    return 77;
  }
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  const int iters = 30;
  double *in = malloc((size_t)size * sizeof *in), *out = malloc((size_t)size * sizeof *out);
  for (int it = 0; it < iters; it++) {
    int late = (it + rank * 3) % size; /* 0 .. size-1 slices of 300 us */
    struct timespec ts = {0, 300000L * late};
    nanosleep(&ts, NULL);
    double t_in = now();
    TEST_MPI(mg_dissem_barrier(comm));
    double t_out = now();
    MPI_Gather(&t_in, 1, MPI_DOUBLE, in, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Gather(&t_out, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      int last_in = 0, first_out = 0;
      for (int r = 1; r < size; r++) {
        if (in[r] > in[last_in]) last_in = r;
        if (out[r] < out[first_out]) first_out = r;
      }
      ASSERT_MSG(out[first_out] >= in[last_in], "iteration %d: rank %d left at %.9f before rank %d entered at %.9f",
                 it, first_out, out[first_out], last_in, in[last_in]);
    }
  }
  char what[64];
  snprintf(what, sizeof what, "%d iterations", iters);
  int verdict = mg_test_mpi_summary(what);
  free(in);
  free(out);
  MPI_Comm_free(&comm);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return verdict;
}
