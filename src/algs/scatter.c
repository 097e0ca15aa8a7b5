/*
 * Mock-ups of MPI_Scatter: the root sends block i of n bytes (sendcount x
 * size(sendtype); at non-roots recvcount x size(recvtype)) to rank i. Both
 * need p*n to fit an int (MG_R_PN_INT). MPI_IN_PLACE (as the root's receive
 * buffer) is known at the root only and changes nothing the others see.
 *
 * GL21 scatter_as_bcast  Scatter(n) <= Bcast(p*n)
 *   The root broadcasts all p blocks with its own send type; non-roots
 *   receive them packed into scratch (MPI_PACKED receives any type) and
 *   unpack their block; the root copies its own block locally. Scratch p*n
 *   bytes at non-roots. A bcast of p*n costs at least 2 log p alpha +
 *   2 (p-1)/p p n beta against ceil(log p) alpha + (p-1)/p p n beta for a
 *   binomial scatter.
 * GL22 scatter_as_scatterv  Scatter(n) <= Scatterv(n)
 *   Scatterv with equal counts and displacements i*count; the arrays exist
 *   at the root only. Scratch 2p ints at the root. Same cost as scatter.
 */
#include "algs/algs.h"

size_t mg_scatter_as_bcast_mem(const mg_call *c) { return (size_t)c->size * c->bytes; }

int mg_scatter_as_bcast(const mg_call *c) {
  size_t n = c->bytes;
  int rc;
  if (c->rank == c->root) {
    rc = PMPI_Bcast((void *)c->sbuf, c->size * c->scount, c->stype, c->root, c->comm);
    if (rc != MPI_SUCCESS || c->rbuf == MPI_IN_PLACE) return rc;
    mg_type st;
    rc = mg_type_get(c->stype, &st);
    if (rc != MPI_SUCCESS) return rc;
    const void *own = mg_type_at(c->sbuf, &st, (size_t)c->root * (size_t)c->scount);
    return mg_copy(own, c->scount, c->stype, c->rbuf, c->rcount, c->rtype);
  }
  char *s = mg_scratch((size_t)c->size * n);
  rc = PMPI_Bcast(s, (int)((size_t)c->size * n), MPI_PACKED, c->root, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return mg_unpack(s + (size_t)c->rank * n, (int)n, c->rbuf, c->rcount, c->rtype);
}

size_t mg_scatter_as_scatterv_mem(const mg_call *c) { return 2 * (size_t)c->size * sizeof(int); }

int mg_scatter_as_scatterv(const mg_call *c) {
  int *counts = NULL, *displs = NULL;
  if (c->rank == c->root) {
    int p = c->size;
    counts = mg_scratch(2 * (size_t)p * sizeof(int));
    displs = counts + p;
    for (int i = 0; i < p; i++) {
      counts[i] = c->scount;
      displs[i] = i * c->scount;
    }
  }
  return PMPI_Scatterv(c->sbuf, counts, displs, c->stype, c->rbuf, c->rcount, c->rtype, c->root, c->comm);
}
