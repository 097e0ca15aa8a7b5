/*
 * Mock-up of MPI_Alltoall: rank i sends its j-th block of n bytes
 * (recvcount x size(recvtype)) to rank j, which stores it as its i-th block.
 *
 * GL8 alltoall_as_alltoallv  Alltoall(n) <= Alltoallv(n)
 *   Alltoallv with equal counts and displacements i*count. Needs p*n to fit
 *   an int (MG_R_PN_INT). Scratch 4p ints. Same messages as alltoall, e.g.
 *   (p-1)(alpha + n beta) pairwise; it wins where the library tunes the
 *   irregular collective better (or gives alltoall a poor algorithm).
 *
 * With MPI_IN_PLACE (on all ranks or none) MPI ignores the send-side
 * arguments, and so do we: the caller's send count and type may then be
 * anything, the send-side arrays repeat the receive side.
 */
#include "algs/algs.h"

size_t mg_alltoall_as_alltoallv_mem(const mg_call *c) { return 4 * (size_t)c->size * sizeof(int); }

int mg_alltoall_as_alltoallv(const mg_call *c) {
  int p = c->size, inplace = c->sbuf == MPI_IN_PLACE;
  int *rcounts = mg_scratch(4 * (size_t)p * sizeof(int)), *rdispls = rcounts + p;
  int *scounts = rdispls + p, *sdispls = scounts + p;
  int scount = inplace ? c->rcount : c->scount;
  for (int i = 0; i < p; i++) {
    rcounts[i] = c->rcount;
    rdispls[i] = i * c->rcount;
    scounts[i] = scount;
    sdispls[i] = i * scount;
  }
  return PMPI_Alltoallv(c->sbuf, scounts, sdispls, inplace ? c->rtype : c->stype, c->rbuf, rcounts, rdispls,
                        c->rtype, c->comm);
}
