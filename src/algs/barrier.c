/*
 * Barrier mock-ups (Träff, Gropp and Thakur, TPDS 2010): a barrier is a collective in which no
 * rank may leave before every rank has entered; any collective whose result on each rank depends
 * on every rank's contribution has that property.
 */
#include "algs/algs.h"

/* Barrier <= Allreduce(1): each rank's result needs every rank's contribution. */
int mg_barrier_as_allreduce(const mg_call *c) {
  int x = 0;
  return PMPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_BOR, c->comm);
}

/* Barrier <= Reduce(1) + Bcast(1): rank 0 completes the reduce only after every rank entered,
 * and no rank completes the broadcast before rank 0 sent it. */
int mg_barrier_as_reduce_bcast(const mg_call *c) {
  int x = 0, y = 0;
  int rc = PMPI_Reduce(&x, &y, 1, MPI_INT, MPI_BOR, 0, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Bcast(&y, 1, MPI_INT, 0, c->comm);
}
