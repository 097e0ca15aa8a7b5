/*
 * A small point-to-point program for the tuned library (run_tuned.sh lib_p2p): rank 0 sends rank 1
 * ROUNDS messages of 1 KiB with MPI_Rsend (rank 1's receive posted before a barrier) and ROUNDS
 * with MPI_Send; rank 1 checks every byte. Exit 0 when every message arrived intact.
 */
#include <mpi.h>
#include <stdio.h>

enum { ROUNDS = 3, N = 1024 };

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size, bad = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  unsigned char buf[N];
  for (int it = 0; it < 2 * ROUNDS; it++) {
    int ready = it < ROUNDS;
    if (rank == 1) {
      MPI_Request q;
      for (int i = 0; i < N; i++) buf[i] = 0;
      MPI_Irecv(buf, N, MPI_BYTE, 0, it, MPI_COMM_WORLD, &q);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
      for (int i = 0; i < N; i++) bad += buf[i] != (unsigned char)(i + it);
    } else {
      for (int i = 0; i < N; i++) buf[i] = (unsigned char)(i + it);
      MPI_Barrier(MPI_COMM_WORLD);
      if (rank == 0 && ready) MPI_Rsend(buf, N, MPI_BYTE, 1, it, MPI_COMM_WORLD);
      if (rank == 0 && !ready) MPI_Send(buf, N, MPI_BYTE, 1, it, MPI_COMM_WORLD);
    }
  }
  int all = 0;
  MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf("p2p_app: %s (%d processes)\n", all ? "WRONG DATA" : "ok", size);
  MPI_Finalize();
  return all != 0;
}
