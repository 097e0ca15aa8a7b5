/*
 * An MPI program with two call sites for the timed trace test (run_hotspots.sh): an
 * MPI_Allreduce in exchange() and an MPI_Bcast in main(), each on a line marked SITE-A /
 * SITE-B that the test finds with grep. Built with -g -O0, so addr2line resolves both.
 */
#include <mpi.h>
#include <stdio.h>

static double exchange(double x) {
  double y = 0;
  MPI_Allreduce(&x, &y, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD); /* SITE-A */
  return y;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double s = 0;
  int buf[256] = {0};
  for (int i = 0; i < 200; i++) {
    s += exchange(1.0);
    MPI_Bcast(buf, 256, MPI_INT, 0, MPI_COMM_WORLD); /* SITE-B */
  }
  if (rank == 0) printf("two_sites: %s\n", s > 0 ? "OK" : "WRONG");
  MPI_Finalize();
  return 0;
}
