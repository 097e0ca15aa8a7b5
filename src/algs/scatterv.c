/*
 * Mock-ups of MPI_Scatterv: the root sends sendcounts[i] elements of its
 * sendtype at displs[i] (in extents of sendtype) of its send buffer, b_i
 * bytes, to rank i, which receives them as recvcount elements of recvtype.
 * sendcounts and displs exist at the root only, so no other rank knows the
 * message size n = sum(b_i) (mg_coll_info.known = 0): a mock-up that needs it
 * makes it known first, as part of its cost, and then decides with
 * mg_late_ok(); a no there is a no on every rank, which then runs the
 * default. Displacements may be out of order or negative; any count may be 0,
 * also all of them. With MPI_IN_PLACE as the root's receive buffer the root
 * keeps its block where it is (its recvcount and recvtype are not
 * significant).
 *
 * TGT32 scatterv_as_alltoallv  Scatterv(n) <= Alltoallv(n)
 *   Alltoallv in which the root sends sendcounts[i] at displs[i] to rank i
 *   and every rank receives its recvcount from the root only; all other
 *   counts are 0. No agreement: every rank knows its own side. In place the
 *   root sends nothing to itself. Ranks that send nothing pass MPI_BYTE and
 *   a scratch address (their sendtype and sendbuf are not significant in a
 *   scatterv, and MPI_Alltoallv may check them), and so does an in-place
 *   root on its receive side. Scratch 4p ints. Cost: the library's
 *   alltoallv with p-1 non-empty messages, (p-1) alpha + n beta at the root
 *   if it skips empty pairs as a linear scatterv would, up to p-1 rounds on
 *   every rank for a pairwise exchange.
 * TGT34 scatterv_as_scatter_bcast  Scatterv(n) <= Scatter(p) + Bcast(n)
 *   Agreement: the root scatters to every rank two long longs, the offset of
 *   its block in the packed vector (b_0 + ... + b_{i-1}) and n; every rank
 *   asks mg_late_ok(n <= INT_MAX, n); n = 0 moves nothing. The root packs
 *   the blocks in rank order into n bytes of scratch and broadcasts them
 *   (MPI_BYTE); every rank unpacks its own block from its offset (the root
 *   too, unless in place). Scratch 2p long longs at the root for the
 *   agreement, then n bytes. Cost: ceil(log p) alpha + 16 (p-1) beta for the
 *   scatter, plus a bcast of n, e.g. 2 log p alpha + 2 (p-1)/p n beta as
 *   scatter + allgather, against ceil(log p) alpha + (p-1)/p n beta for a
 *   binomial scatterv: every rank receives all n bytes to keep b_i of them.
 * TGT34 scatterv_as_bcast_bcast  Scatterv(n) <= Bcast(p) + Bcast(n) (eq. 34's second relation)
 *   As TGT34, with a broadcast for the agreement: the root broadcasts its p
 *   sendcounts and size(sendtype) (p+1 ints), from which every rank computes
 *   n and its own offset: the variant for a library whose bcast of p ints
 *   beats its scatter of 2p long longs, under mpiguide's own id (a guideline
 *   id names one registry row). Scratch p+1 ints, then n bytes. Cost:
 *   log p alpha + 4 (p+1) beta (a binomial bcast of p+1 ints) plus TGT34's
 *   bcast of n.
 *
 * The root's blocks travel packed as MPI_BYTE (only ever read through
 * mg_unpack), the alltoallv's in the caller's types, so ranks may use
 * different datatypes of equal signature.
 */
#include <limits.h>

#include "algs/algs.h"

/* Pack the root's blocks in rank order into s (n bytes). */
static int pack_blocks(const mg_call *c, char *s) {
  mg_type st;
  int rc = mg_type_get(c->stype, &st);
  if (rc != MPI_SUCCESS) return rc;
  size_t off = 0;
  for (int i = 0; i < c->size; i++) {
    size_t nb = (size_t)c->scounts[i] * (size_t)st.size; /* at most n, which fits an int */
    if (nb == 0) continue;
    const char *from = (const char *)c->sbuf + (MPI_Aint)c->sdispls[i] * st.extent;
    rc = mg_pack(from, c->scounts[i], c->stype, s + off, (int)nb);
    if (rc != MPI_SUCCESS) return rc;
    off += nb;
  }
  return MPI_SUCCESS;
}

/* Broadcast the packed vector of n bytes (packed by the root) and unpack this rank's block from
 * offset off; the root in place keeps its block. */
static int bcast_unpack(const mg_call *c, size_t off, size_t n) {
  int root = c->rank == c->root, rc = MPI_SUCCESS;
  char *s = mg_scratch_data(n);
  if (root) rc = pack_blocks(c, s);
  if (rc == MPI_SUCCESS) rc = PMPI_Bcast(s, (int)n, MPI_BYTE, c->root, c->comm);
  if (rc != MPI_SUCCESS || (root && c->rbuf == MPI_IN_PLACE)) return rc;
  /* inbytes bound the block by the vector (an erroneous recvcount fails here) */
  return mg_unpack(s + off, (int)(n - off), c->rbuf, c->rcount, c->rtype);
}

size_t mg_scatterv_as_alltoallv_mem(const mg_call *c) { return 4 * (size_t)c->size * sizeof(int); }

int mg_scatterv_as_alltoallv(const mg_call *c) {
  int p = c->size, root = c->rank == c->root, inplace = root && c->rbuf == MPI_IN_PLACE;
  int *scounts = mg_scratch(mg_scatterv_as_alltoallv_mem(c)), *sdispls = scounts + p;
  int *rcounts = sdispls + p, *rdispls = rcounts + p;
  for (int i = 0; i < p; i++) {
    scounts[i] = root ? c->scounts[i] : 0;
    sdispls[i] = root ? c->sdispls[i] : 0;
    rcounts[i] = rdispls[i] = 0;
  }
  if (inplace)
    scounts[c->rank] = 0; /* the own block stays where it is */
  else
    rcounts[c->root] = c->rcount;
  /* Where a side moves nothing its buffer and type are not significant in a scatterv: pass a
   * valid type and an address that is not MPI_IN_PLACE (never read or written). */
  const void *sbuf = root ? c->sbuf : (const void *)scounts;
  void *rbuf = inplace ? (void *)rcounts : c->rbuf;
  return PMPI_Alltoallv(sbuf, scounts, sdispls, root ? c->stype : MPI_BYTE, rbuf, rcounts, rdispls,
                        inplace ? MPI_BYTE : c->rtype, c->comm);
}

size_t mg_scatterv_as_scatter_bcast_mem(const mg_call *c) { return 2 * (size_t)c->size * sizeof(long long); }

int mg_scatterv_as_scatter_bcast(const mg_call *c) {
  size_t off, n;
  int rc = mg_root_offsets(c, c->scounts, c->stype, &off, &n);
  if (rc != MPI_SUCCESS) return rc;
  if (!mg_late_ok(n <= (size_t)INT_MAX, n)) return mg_run(c, 0);
  if (n == 0) return MPI_SUCCESS;
  return bcast_unpack(c, off, n);
}

size_t mg_scatterv_as_bcast_bcast_mem(const mg_call *c) { return ((size_t)c->size + 1) * sizeof(int); }

int mg_scatterv_as_bcast_bcast(const mg_call *c) {
  int p = c->size, rc;
  int *counts = mg_scratch(mg_scatterv_as_bcast_bcast_mem(c)); /* sendcounts, then size(sendtype) */
  if (c->rank == c->root) {
    mg_type st;
    rc = mg_type_get(c->stype, &st);
    if (rc != MPI_SUCCESS) return rc;
    for (int i = 0; i < p; i++) counts[i] = c->scounts[i];
    counts[p] = st.size;
  }
  rc = PMPI_Bcast(counts, p + 1, MPI_INT, c->root, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  size_t sum = 0, before = 0, size = (size_t)counts[p];
  for (int i = 0; i < p; i++) {
    if (i == c->rank) before = sum;
    sum += (size_t)counts[i];
  }
  int fits = size == 0 || sum <= (size_t)INT_MAX / size;
  size_t n = fits ? sum * size : 0;
  if (!mg_late_ok(fits, n)) return mg_run(c, 0);
  if (n == 0) return MPI_SUCCESS;
  return bcast_unpack(c, before * size, n);
}
