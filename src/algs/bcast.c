/*
 * Mock-ups of MPI_Bcast: the root's vector of n bytes (count x size(datatype))
 * reaches every rank.
 *
 * GL9 bcast_as_allgatherv  Bcast(n) <= Allgatherv(n)
 *   Allgatherv in which only the root contributes (count elements; everyone
 *   else 0), in place on all ranks as the standard requires (all or none), so
 *   the data lands at displacement 0 of every buffer. Scratch 2p ints. The
 *   cost depends on how the library's allgatherv copes with one non-empty
 *   block: a ring forwards it p-1 times, (p-1)(alpha + n beta), recursive
 *   doubling gives the binomial bcast's ceil(log p)(alpha + n beta).
 * GL10 bcast_as_scatter_allgather  Bcast(n) <= Scatter(n) + Allgather(n/p)
 *   The root packs the vector into p blocks of ceil(n/p) bytes (the padding
 *   zeroed), scatters them, and an in-place allgather rebuilds the whole
 *   packed vector everywhere; non-roots then unpack. Scratch p*ceil(n/p)
 *   bytes on every rank. About 2 log p alpha + 2 (p-1)/p n beta (van de
 *   Geijn), the large-message bcast.
 *
 * Packed bytes travel as MPI_BYTE (GL10 reads them only through mg_unpack),
 * so ranks may use different datatypes of equal signature.
 */
#include <limits.h>
#include <string.h>

#include "algs/algs.h"

size_t mg_bcast_as_allgatherv_mem(const mg_call *c) { return 2 * (size_t)c->size * sizeof(int); }

int mg_bcast_as_allgatherv(const mg_call *c) {
  int p = c->size;
  int *counts = mg_scratch(2 * (size_t)p * sizeof(int)), *displs = counts + p;
  for (int i = 0; i < p; i++) {
    counts[i] = i == c->root ? c->rcount : 0;
    displs[i] = 0;
  }
  /* the send count and type are ignored in place; some libraries still base their choice of algorithm
   * on size(sendtype) x recvcounts, so they get the receive side's, equal in bytes on every rank */
  return PMPI_Allgatherv(MPI_IN_PLACE, counts[c->rank], c->rtype, c->rbuf, counts, displs, c->rtype, c->comm);
}

/* Packing takes int byte counts: a vector of more than INT_MAX bytes (equal
 * on every rank, so all ranks agree) goes to the library's own bcast. */
static int too_big(const mg_call *c) { return c->bytes > (size_t)INT_MAX; }

size_t mg_bcast_as_scatter_allgather_mem(const mg_call *c) {
  if (too_big(c)) return 0;
  size_t p = (size_t)c->size;
  return p * ((c->bytes + p - 1) / p);
}

int mg_bcast_as_scatter_allgather(const mg_call *c) {
  if (too_big(c)) return PMPI_Bcast(c->rbuf, c->rcount, c->rtype, c->root, c->comm);
  size_t n = c->bytes, p = (size_t)c->size, blk = (n + p - 1) / p, total = p * blk;
  char *s = mg_scratch(total);
  int rc;
  if (c->rank == c->root) {
    rc = mg_pack(c->rbuf, c->rcount, c->rtype, s, (int)n);
    if (rc != MPI_SUCCESS) return rc;
    memset(s + n, 0, total - n);
    rc = PMPI_Scatter(s, (int)blk, MPI_BYTE, MPI_IN_PLACE, (int)blk, MPI_BYTE, c->root, c->comm);
  } else {
    rc = PMPI_Scatter(NULL, 0, MPI_BYTE, s + (size_t)c->rank * blk, (int)blk, MPI_BYTE, c->root, c->comm);
  }
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Allgather(MPI_IN_PLACE, (int)blk, MPI_BYTE, s, (int)blk, MPI_BYTE, c->comm); /* see GL9 */
  if (rc != MPI_SUCCESS || c->rank == c->root) return rc;
  return mg_unpack(s, (int)n, c->rbuf, c->rcount, c->rtype);
}
