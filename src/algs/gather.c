/*
 * Mock-ups of MPI_Gather: every rank sends a block of n bytes (sendcount x
 * size(sendtype); at the root recvcount x size(recvtype)) and the root
 * receives all p blocks in rank order. All need p*n to fit an int
 * (MG_R_PN_INT). MPI_IN_PLACE is possible at the root only, so only the root
 * may branch on it, and only in ways the other ranks cannot see.
 *
 * GL11 gather_as_allgather  Gather(n) <= Allgather(n)
 *   Allgather; non-roots receive the p blocks packed into scratch and drop
 *   them. Allgather takes MPI_IN_PLACE on all ranks or none, so an in-place
 *   root sends its own block like the others. Scratch p*n bytes at non-roots;
 *   at the root none, or p*n when it gathers in place or its type needs the
 *   detour described at mg_packed_recv_ok (toolkit.c). Allgather delivers p times the data:
 *   ceil(log p) alpha + (p-1) n beta on every rank, where a binomial gather
 *   costs that at the root alone; it pays off only against a poor gather.
 * GL12 gather_as_gatherv  Gather(n) <= Gatherv(n)
 *   Gatherv with equal counts and displacements i*count; the arrays exist at
 *   the root only. Scratch 2p ints at the root. Same cost as gather, often a
 *   linear (p-1)(alpha + n beta) algorithm in the library.
 * GL13 gather_as_reduce  Gather(n) <= Reduce(p*n)
 *   Bitwise-or reduce over a zeroed p*n byte vector in which each rank has
 *   written its packed block at its own offset; the root unpacks. Scratch p*n
 *   bytes, 2*p*n at the root: it reduces into a second buffer rather than in
 *   place, because MPICH 4.0.2 crashes in MPI_Reduce with MPI_IN_PLACE at a
 *   root other than 0 from 4 KiB on. A reduce moves and ors p*n bytes, e.g.
 *   2 log p alpha + 2 (p-1)/p p n beta for reduce-scatter + gather.
 *
 * Packed bytes travel as MPI_PACKED (matches any type) or MPI_BYTE (the
 * reduction), so ranks may use different datatypes of equal signature.
 */
#include <string.h>

#include "algs/algs.h"

size_t mg_gather_as_allgather_mem(const mg_call *c) { return (size_t)c->size * c->bytes; }

int mg_gather_as_allgather(const mg_call *c) {
  size_t n = c->bytes, pn = (size_t)c->size * n;
  if (c->rank != c->root) {
    void *s = mg_scratch(pn);
    return PMPI_Allgather(c->sbuf, c->scount, c->stype, s, (int)n, MPI_PACKED, c->comm);
  }
  int direct, rc = mg_packed_recv_ok(c->rtype, &direct);
  if (rc != MPI_SUCCESS) return rc;
  if (direct && c->sbuf != MPI_IN_PLACE)
    return PMPI_Allgather(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->comm);
  void *s = mg_scratch(pn);
  if (c->sbuf == MPI_IN_PLACE) { /* the own block is sent from the receive buffer, so gather into scratch */
    mg_type rt;
    rc = mg_type_get(c->rtype, &rt);
    if (rc != MPI_SUCCESS) return rc;
    rc = PMPI_Allgather(mg_type_at(c->rbuf, &rt, (size_t)c->root * (size_t)c->rcount), c->rcount, c->rtype, s,
                        (int)n, MPI_PACKED, c->comm);
  } else {
    rc = PMPI_Allgather(c->sbuf, c->scount, c->stype, s, (int)n, MPI_PACKED, c->comm);
  }
  if (rc != MPI_SUCCESS) return rc;
  /* in place this rewrites the root's own block with its own values */
  return mg_unpack(s, (int)pn, c->rbuf, c->size * c->rcount, c->rtype);
}

size_t mg_gather_as_gatherv_mem(const mg_call *c) { return 2 * (size_t)c->size * sizeof(int); }

int mg_gather_as_gatherv(const mg_call *c) {
  int *counts = NULL, *displs = NULL;
  if (c->rank == c->root) {
    int p = c->size;
    counts = mg_scratch(2 * (size_t)p * sizeof(int));
    displs = counts + p;
    for (int i = 0; i < p; i++) {
      counts[i] = c->rcount;
      displs[i] = i * c->rcount;
    }
  }
  return PMPI_Gatherv(c->sbuf, c->scount, c->stype, c->rbuf, counts, displs, c->rtype, c->root, c->comm);
}

size_t mg_gather_as_reduce_mem(const mg_call *c) {
  size_t pn = (size_t)c->size * c->bytes;
  return mg_align(pn) + pn;
}

int mg_gather_as_reduce(const mg_call *c) {
  size_t n = c->bytes, pn = (size_t)c->size * n;
  int root = c->rank == c->root;
  char *cur = mg_scratch(root ? mg_align(pn) + pn : pn);
  char *s = mg_carve(&cur, pn);
  memset(s, 0, pn);
  int rc = mg_pack_own(c, s + (size_t)c->rank * n);
  if (rc != MPI_SUCCESS) return rc;
  if (!root) return PMPI_Reduce(s, NULL, (int)pn, MPI_BYTE, MPI_BOR, c->root, c->comm);
  char *r = mg_carve(&cur, pn);
  rc = PMPI_Reduce(s, r, (int)pn, MPI_BYTE, MPI_BOR, c->root, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return mg_unpack(r, (int)pn, c->rbuf, c->size * c->rcount, c->rtype);
}
