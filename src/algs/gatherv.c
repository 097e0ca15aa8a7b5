/*
 * Mock-ups of MPI_Gatherv: rank i sends a block of sendcount x size(sendtype)
 * = b_i bytes, and the root stores it as recvcounts[i] elements of recvtype at
 * displs[i] (in extents of recvtype) of its receive buffer. recvcounts and
 * displs exist at the root only, so no other rank knows the message size
 * n = sum(b_i) (mg_coll_info.known = 0): a mock-up that needs it makes it
 * known first, as part of its cost, and then decides with mg_late_ok();
 * a no there is a no on every rank, which then runs the default. Displacements
 * may be out of order or negative and leave gaps, which are never written;
 * any count may be 0, also all of them. With MPI_IN_PLACE at the root its
 * block is already at its displacement, and its sendcount and sendtype are
 * not significant.
 *
 * TGT-V2 gatherv_as_reduce  Gatherv(n) <= Reduce(n) (the irregular form of TGT 2010 eq. 24)
 *   Agreement: the root scatters to every rank two long longs, the offset of
 *   its block in the packed vector (b_0 + ... + b_{i-1}) and n; every rank
 *   then asks mg_late_ok(n <= INT_MAX, 2n); n = 0 moves nothing. Each rank
 *   packs its block at its offset into a zeroed n-byte vector (the root in
 *   place contributes zeros), a bitwise-or reduce on MPI_BYTE delivers the
 *   vector to the root in a second n-byte buffer (not in place: MPICH 4.0.2
 *   crashes in an in-place MPI_Reduce at a root other than 0, see gather.c),
 *   and the root unpacks every block at its displacement (in place: all but
 *   its own). Scratch 2p long longs at the root for the agreement, then
 *   n bytes, 2n at the root. Cost: the scatter of 16 bytes per rank,
 *   ceil(log p) alpha + 16 (p-1) beta, plus a reduce of n bytes, e.g.
 *   2 log p alpha + 2 (p-1)/p n beta + (p-1)/p n gamma as reduce-scatter +
 *   gather, against (p-1) alpha + n beta for a linear gatherv: twice the
 *   volume, but O(log p) messages at the root.
 * TGT31 gatherv_as_alltoallv  Gatherv(n) <= Alltoallv(n)
 *   Alltoallv in which every rank sends its block (sendcount of sendtype)
 *   to the root only, and the root receives recvcounts[i] of recvtype at
 *   displs[i] from rank i; all other counts are 0. No agreement: every rank
 *   knows its own side. In place the root sends nothing to itself and
 *   receives nothing from itself. Ranks that receive nothing pass MPI_BYTE
 *   and a scratch address (their recvtype and recvbuf are not significant in
 *   a gatherv, and MPI_Alltoallv may check them), and so does an in-place
 *   root on its send side. Scratch 4p ints. Cost: the library's alltoallv
 *   with p-1 non-empty messages, (p-1) alpha + n beta at the root if it
 *   skips empty pairs as a linear gatherv would, up to p-1 rounds on every
 *   rank for a pairwise exchange.
 *
 * Blocks of the reduction travel as packed bytes (MPI_BYTE, only ever read
 * through mg_unpack), the alltoallv's in the caller's types, so ranks may
 * use different datatypes of equal signature.
 */
#include <limits.h>
#include <string.h>

#include "algs/algs.h"

/* The root's view: block i is recvcounts[i] elements of recvtype at displs[i]. */
static void *block(const mg_call *c, const mg_type *rt, int i) {
  return (char *)c->rbuf + (MPI_Aint)c->rdispls[i] * rt->extent;
}

size_t mg_gatherv_as_reduce_mem(const mg_call *c) { return 2 * (size_t)c->size * sizeof(long long); }

int mg_gatherv_as_reduce(const mg_call *c) {
  int p = c->size, root = c->rank == c->root, inplace = root && c->sbuf == MPI_IN_PLACE, rc;
  mg_type rt;
  if (root && (rc = mg_type_get(c->rtype, &rt)) != MPI_SUCCESS) return rc; /* the root's alone */
  size_t off, n;
  if ((rc = mg_root_offsets(c, c->rcounts, c->rtype, &off, &n)) != MPI_SUCCESS) return rc;
  if (!mg_late_ok(n <= (size_t)INT_MAX, mg_align(n) + n)) return mg_run(c, 0);
  if (n == 0) return MPI_SUCCESS;
  char *cur = mg_scratch_data(root ? mg_align(n) + n : n), *s = mg_carve(&cur, n);
  memset(s, 0, n);
  if (!inplace) { /* outbytes bound the block by the vector (an erroneous sendcount fails here) */
    rc = mg_pack(c->sbuf, c->scount, c->stype, s + off, (int)(n - off));
    if (rc != MPI_SUCCESS) return rc;
  }
  if (!root) return PMPI_Reduce(s, NULL, (int)n, MPI_BYTE, MPI_BOR, c->root, c->comm);
  char *r = mg_carve(&cur, n);
  rc = PMPI_Reduce(s, r, (int)n, MPI_BYTE, MPI_BOR, c->root, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  off = 0;
  for (int i = 0; i < p; i++) {
    size_t nb = (size_t)c->rcounts[i] * (size_t)rt.size, at = off;
    off += nb;
    if (nb == 0 || (inplace && i == c->rank)) continue;
    rc = mg_unpack(r + at, (int)nb, block(c, &rt, i), c->rcounts[i], c->rtype);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

size_t mg_gatherv_as_alltoallv_mem(const mg_call *c) { return 4 * (size_t)c->size * sizeof(int); }

int mg_gatherv_as_alltoallv(const mg_call *c) {
  int p = c->size, root = c->rank == c->root, inplace = root && c->sbuf == MPI_IN_PLACE;
  int *scounts = mg_scratch(mg_gatherv_as_alltoallv_mem(c)), *sdispls = scounts + p;
  int *rcounts = sdispls + p, *rdispls = rcounts + p;
  for (int i = 0; i < p; i++) {
    scounts[i] = sdispls[i] = 0;
    rcounts[i] = root ? c->rcounts[i] : 0;
    rdispls[i] = root ? c->rdispls[i] : 0;
  }
  if (inplace)
    rcounts[c->rank] = 0; /* the own block is in place already */
  else
    scounts[c->root] = c->scount;
  /* Where a side moves nothing its buffer and type are not significant in a gatherv: pass a
   * valid type and an address that is not MPI_IN_PLACE (never read or written). */
  const void *sbuf = inplace ? (const void *)scounts : c->sbuf;
  void *rbuf = root ? c->rbuf : (void *)rcounts;
  return PMPI_Alltoallv(sbuf, scounts, sdispls, inplace ? MPI_BYTE : c->stype, rbuf, rcounts, rdispls,
                        root ? c->rtype : MPI_BYTE, c->comm);
}
