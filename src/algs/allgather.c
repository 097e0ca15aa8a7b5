/*
 * Mock-ups of MPI_Allgather: every rank contributes a block of n bytes
 * (recvcount x size(recvtype)) and receives all p blocks in rank order.
 *
 * GL1 allgather_as_gather_bcast  Allgather(n) <= Gather(n) + Bcast(p*n)
 *   Gather to rank 0 straight into the user's receive buffer, then broadcast
 *   the whole p*n vector from there. No scratch. With binomial trees about
 *   2 ceil(log p) alpha + (p-1)n beta + ceil(log p) p n beta: worth it only
 *   where the library's allgather is badly tuned.
 * GL2 allgather_as_alltoall  Allgather(n) <= Alltoall(n)
 *   Alltoall whose send buffer holds p packed copies of the own block.
 *   Scratch p*n bytes, 2*p*n where the receive type needs the detour below.
 *   Same volume as allgather, (p-1)(alpha + n beta) with a pairwise
 *   alltoall, plus packing the own block once.
 * GL3 allgather_as_allreduce  Allgather(n) <= Allreduce(p*n)
 *   Bitwise-or allreduce over a zeroed p*n byte vector in which each rank
 *   has written its packed block at its own offset, then unpack. Scratch p*n
 *   bytes. Rabenseifner-like allreduce: 2 log p alpha + 2 (p-1)/p p n beta
 *   plus the or of p*n bytes; it doubles the volume of a good allgather.
 * GL4 allgather_as_allgatherv  Allgather(n) <= Allgatherv(n)
 *   Allgatherv with equal counts, in place (see below). Scratch 2p ints;
 *   same cost as allgather (plus a local copy of n bytes) unless the
 *   library's allgatherv is the better-tuned one.
 *
 * All need p*n to fit an int count (MG_R_PN_INT). MPI_IN_PLACE is used on all
 * ranks or none (the standard requires it), so branching on it is safe. The
 * own block, packed, is n bytes whatever type the rank uses; packed bytes go
 * on the wire as MPI_PACKED (matches any type) or MPI_BYTE (the reduction).
 */
#include <string.h>

#include "algs/algs.h"

int mg_allgather_as_gather_bcast(const mg_call *c) {
  int rc;
  if (c->sbuf != MPI_IN_PLACE) {
    rc = PMPI_Gather(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, 0, c->comm);
  } else if (c->rank == 0) {
    rc = PMPI_Gather(MPI_IN_PLACE, c->rcount, c->rtype, c->rbuf, c->rcount, c->rtype, 0, c->comm);
  } else { /* a non-root cannot gather in place: it sends its block of the receive buffer */
    mg_type rt;
    rc = mg_type_get(c->rtype, &rt);
    if (rc != MPI_SUCCESS) return rc;
    const void *own = mg_type_at(c->rbuf, &rt, (size_t)c->rank * (size_t)c->rcount);
    rc = PMPI_Gather(own, c->rcount, c->rtype, NULL, c->rcount, c->rtype, 0, c->comm);
  }
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Bcast(c->rbuf, c->size * c->rcount, c->rtype, 0, c->comm);
}

size_t mg_allgather_as_alltoall_mem(const mg_call *c) {
  size_t pn = (size_t)c->size * c->bytes;
  return mg_align(pn) + pn;
}

int mg_allgather_as_alltoall(const mg_call *c) {
  size_t n = c->bytes, pn = (size_t)c->size * n;
  int direct, rc = mg_packed_recv_ok(c->rtype, &direct);
  if (rc != MPI_SUCCESS) return rc;
  char *cur = mg_scratch(direct ? pn : mg_align(pn) + pn);
  char *s = mg_carve(&cur, pn);
  rc = mg_pack_own(c, s);
  if (rc != MPI_SUCCESS) return rc;
  for (int i = 1; i < c->size; i++) memcpy(s + (size_t)i * n, s, n);
  if (direct) return PMPI_Alltoall(s, (int)n, MPI_PACKED, c->rbuf, c->rcount, c->rtype, c->comm);
  char *r = mg_carve(&cur, pn);
  rc = PMPI_Alltoall(s, (int)n, MPI_PACKED, r, (int)n, MPI_PACKED, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return mg_unpack(r, (int)pn, c->rbuf, c->size * c->rcount, c->rtype);
}

size_t mg_allgather_as_allreduce_mem(const mg_call *c) { return (size_t)c->size * c->bytes; }

int mg_allgather_as_allreduce(const mg_call *c) {
  size_t n = c->bytes, total = (size_t)c->size * n;
  char *s = mg_scratch(total);
  memset(s, 0, total);
  int rc = mg_pack_own(c, s + (size_t)c->rank * n);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Allreduce(MPI_IN_PLACE, s, (int)total, MPI_BYTE, MPI_BOR, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return mg_unpack(s, (int)total, c->rbuf, c->size * c->rcount, c->rtype);
}

size_t mg_allgather_as_allgatherv_mem(const mg_call *c) {
  return mg_align(2 * (size_t)c->size * sizeof(int)) + (size_t)c->size * c->bytes;
}

/*
 * Always in place: the own block is first copied into the receive buffer.
 * Open MPI (seen with 4.1.4) picks its allgatherv algorithm from size(sendtype) x
 * sum(recvcounts), which differs between ranks when a rank's send and receive
 * types differ in size (legal: only n must agree) -- ranks then run different
 * algorithms and deadlock. In place it uses the receive type: p*n everywhere.
 * The ignored send arguments are set to the receive side for the same reason.
 *
 * MPICH 4.0.2 cuts allgatherv messages into chunks of 32768 / extent(recvtype)
 * elements; with signature-equal receive types of different extents on
 * different ranks the chunks differ and the call hangs (blocks above 32 KiB).
 * So, as in mg_packed_recv_ok, only predefined types without padding receive
 * directly; a rank with another receive type gathers packed bytes into scratch
 * (chunks of 32768 bytes, like the direct ones) and unpacks them.
 */
int mg_allgather_as_allgatherv(const mg_call *c) {
  int p = c->size, direct, rc = mg_packed_recv_ok(c->rtype, &direct);
  if (rc != MPI_SUCCESS) return rc;
  size_t n = c->bytes, pn = (size_t)p * n;
  char *cur = mg_scratch(mg_allgather_as_allgatherv_mem(c));
  int *counts = mg_carve(&cur, 2 * (size_t)p * sizeof(int)), *displs = counts + p;
  int unit = direct ? c->rcount : (int)n; /* block length in receive elements */
  for (int i = 0; i < p; i++) {
    counts[i] = unit;
    displs[i] = i * unit;
  }
  if (!direct) {
    char *s = mg_carve(&cur, pn);
    rc = mg_pack_own(c, s + (size_t)c->rank * n);
    if (rc == MPI_SUCCESS)
      rc = PMPI_Allgatherv(MPI_IN_PLACE, (int)n, MPI_PACKED, s, counts, displs, MPI_PACKED, c->comm);
    if (rc != MPI_SUCCESS) return rc;
    return mg_unpack(s, (int)pn, c->rbuf, p * c->rcount, c->rtype);
  }
  if (c->sbuf != MPI_IN_PLACE) {
    mg_type rt;
    rc = mg_type_get(c->rtype, &rt);
    if (rc != MPI_SUCCESS) return rc;
    rc = mg_copy(c->sbuf, c->scount, c->stype, mg_type_at(c->rbuf, &rt, (size_t)c->rank * (size_t)c->rcount),
                 c->rcount, c->rtype);
    if (rc != MPI_SUCCESS) return rc;
  }
  return PMPI_Allgatherv(MPI_IN_PLACE, c->rcount, c->rtype, c->rbuf, counts, displs, c->rtype, c->comm);
}
