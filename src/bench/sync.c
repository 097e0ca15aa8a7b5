/*
 * Barrier-type synchronisation: MPI_Barrier, a double MPI_Barrier, and
 * mpiguide's own dissemination barrier, which is the same code on every MPI
 * library, so it takes the library's barrier out of a comparison between
 * libraries.
 *
 * Dissemination barrier (Hensgen, Finkel and Manber 1988): in round k every
 * rank sends to rank + 2^k and receives from rank - 2^k (mod p); after
 * ceil(log2 p) rounds each rank has heard, directly or through others, from
 * every rank, so no rank leaves before all have entered. ceil(log2 p) alpha,
 * with zero-byte messages.
 */
#include "bench/sync.h"

enum { TAG_DISSEM = 7201 };

int mg_dissem_barrier(MPI_Comm comm) {
  int rank, size, rc;
  if ((rc = PMPI_Comm_rank(comm, &rank)) != MPI_SUCCESS) return rc;
  if ((rc = PMPI_Comm_size(comm, &size)) != MPI_SUCCESS) return rc;
  for (int d = 1; d < size; d <<= 1) {
    int to = (rank + d) % size, from = (rank - d + size) % size;
    rc = PMPI_Sendrecv(NULL, 0, MPI_BYTE, to, TAG_DISSEM, NULL, 0, MPI_BYTE, from, TAG_DISSEM, comm,
                       MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

int mg_sync_step(mg_sync_method m, MPI_Comm comm) {
  int rc;
  switch (m) {
  case MG_SYNC_DBARRIER:
    if ((rc = PMPI_Barrier(comm)) != MPI_SUCCESS) return rc;
    return PMPI_Barrier(comm);
  case MG_SYNC_DISSEM:
    return mg_dissem_barrier(comm);
  default:
    return PMPI_Barrier(comm);
  }
}
