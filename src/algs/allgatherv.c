/*
 * Mock-ups of MPI_Allgatherv: rank i contributes a block of recvcounts[i]
 * elements of recvtype (b_i bytes), and every rank stores it at displs[i]
 * (in units of extent(recvtype)) of its receive buffer. recvcounts and displs
 * are equal on every rank; displacements may be out of order and leave gaps,
 * which are never written; some or all counts may be 0. The message size n
 * is the whole vector, sum(b_i) bytes, equal on every rank. With MPI_IN_PLACE
 * (all ranks or none) a rank's block is already at its displacement.
 *
 * TGT-G3 allgatherv_as_allreduce  Allgatherv(n) <= Allreduce(n) (the irregular form of eq. 25)
 *   Bitwise-or allreduce over a zeroed n-byte vector of the packed blocks in
 *   rank order (block i at b_0 + ... + b_{i-1}), in which each rank has
 *   packed its own block; then every block is unpacked at its displacement.
 *   Scratch n bytes; n must fit an int count (MG_R_NB_INT). Like GL3 it
 *   doubles the volume of a good allgatherv: 2 log p alpha + 2 (p-1)/p n beta
 *   plus the or of n bytes, but it does not care how skewed the counts are.
 * TGT33 allgatherv_as_alltoallv  Allgatherv(n) <= Alltoallv(n)
 *   Alltoallv in which every rank sends its block to every rank (send counts
 *   all its own count, send displacements all 0) and receives with
 *   recvcounts and displs. In place the block is packed into scratch and
 *   sent as MPI_PACKED (the send buffer must not alias the receive buffer),
 *   and nobody sends to itself. A rank whose receive type cannot take packed
 *   bytes directly (mg_packed_recv_ok) receives every block packed into
 *   scratch and unpacks it; the choice is local, the messages are the same.
 *   Scratch 4p ints + n bytes (+ the largest block in place); n must fit an
 *   int count (packed displacements, MG_R_NB_INT). A linear alltoallv posts
 *   everything at once: rank i sends (p-1) b_i and receives n - b_i bytes,
 *   (p-1) alpha + max((p-1) b_i, n - b_i) beta, the volume of a ring
 *   allgatherv without its p-1 steps; a large block is sent p-1 times by
 *   its owner, so it wins only for small or even blocks, or a poor allgatherv.
 * TGT-G1 allgatherv_as_gatherv_bcast  Allgatherv(n) <= Gatherv(n) + Bcast(n)
 *   The irregular GL1: gatherv to rank 0 straight into the receive buffer
 *   (in place at rank 0; in place elsewhere a rank sends its block from the
 *   receive buffer), then rank 0 broadcasts the blocks as one element of
 *   indexed(recvcounts, displs, recvtype), made and freed per call, so the
 *   gaps between blocks are never written. No scratch; the type's size is
 *   n, an int (MG_R_NB_INT). Linear gatherv plus a pipelined bcast:
 *   (p-1) alpha + n beta + 2 log p alpha + 2 n beta, the bcast unsegmented
 *   where the library segments by elements.
 * TGT-G2 allgatherv_as_allgather_compact
 *     Allgatherv(n) <= Allgather(p*max(recvcounts)) + local compaction
 *   Every block is packed into a slot of m = max(b_i) bytes (the rest of
 *   the slot zeroed), an in-place allgather of the p slots on MPI_BYTE, then
 *   every block is unpacked from its slot at its displacement. Scratch p*m
 *   bytes; p*m must fit an int (MG_R_PMAX_INT). The allgather moves
 *   (p-1) m beta per rank against (p-1)/p n: as good as the default for
 *   equal counts, up to p times worse when one block holds everything.
 *
 * Packed bytes travel as MPI_BYTE (reduction, allgather: the bytes are only
 * read through mg_unpack) or MPI_PACKED (matches any type), so ranks may use
 * different datatypes of equal signature.
 */
#include <string.h>

#include "algs/algs.h"

/* Address of block i of the receive buffer (displacements may be negative). */
static void *block(const mg_call *c, const mg_type *rt, int i) {
  return (char *)c->rbuf + (MPI_Aint)c->rdispls[i] * rt->extent;
}

/* The largest count and the sum of all counts. */
static int max_count(const mg_call *c, size_t *sum) {
  int m = 0;
  size_t s = 0;
  for (int i = 0; i < c->size; i++) {
    s += (size_t)c->rcounts[i];
    if (c->rcounts[i] > m) m = c->rcounts[i];
  }
  if (sum) *sum = s;
  return m;
}

/* The largest block in bytes, from the message size (no datatype query): equal on every rank. */
static size_t max_block(const mg_call *c) {
  size_t sum;
  int m = max_count(c, &sum);
  return sum ? c->bytes / sum * (size_t)m : 0;
}

/* Pack this rank's block (recvcounts[rank] x size(recvtype) bytes) into out: from the send
 * buffer, or in place from its block of the receive buffer. Its size fits an int under the
 * rows' restrictions. */
static int pack_own(const mg_call *c, const mg_type *rt, void *out) {
  int nb = c->rcount * rt->size;
  if (c->sbuf != MPI_IN_PLACE) return mg_pack(c->sbuf, c->scount, c->stype, out, nb);
  return mg_pack(block(c, rt, c->rank), c->rcount, c->rtype, out, nb);
}

/* Unpack every block from `packed` to its displacement: block i at i*stride, or with stride 0
 * at its offset in the packed vector (the prefix sum of the blocks before it). In place the own
 * block is already there and is skipped. */
static int unpack_blocks(const mg_call *c, const mg_type *rt, const char *packed, size_t stride) {
  int skip = c->sbuf == MPI_IN_PLACE ? c->rank : -1;
  size_t off = 0;
  for (int i = 0; i < c->size; i++) {
    size_t nb = (size_t)c->rcounts[i] * (size_t)rt->size, at = stride ? (size_t)i * stride : off;
    off += nb;
    if (nb == 0 || i == skip) continue;
    int rc = mg_unpack(packed + at, (int)nb, block(c, rt, i), c->rcounts[i], c->rtype);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

/* Offset of the own block in the packed vector. */
static size_t own_offset(const mg_call *c, const mg_type *rt) {
  size_t off = 0;
  for (int i = 0; i < c->rank; i++) off += (size_t)c->rcounts[i] * (size_t)rt->size;
  return off;
}

size_t mg_allgatherv_as_allreduce_mem(const mg_call *c) { return c->bytes; }

int mg_allgatherv_as_allreduce(const mg_call *c) {
  mg_type rt;
  int rc = mg_type_get(c->rtype, &rt);
  if (rc != MPI_SUCCESS) return rc;
  size_t n = c->bytes;
  char *s = mg_scratch_data(n);
  memset(s, 0, n);
  rc = pack_own(c, &rt, s + own_offset(c, &rt));
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Allreduce(MPI_IN_PLACE, s, (int)n, MPI_BYTE, MPI_BOR, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return unpack_blocks(c, &rt, s, 0);
}

size_t mg_allgatherv_as_alltoallv_mem(const mg_call *c) {
  size_t own = c->sbuf == MPI_IN_PLACE ? mg_align(max_block(c)) : 0;
  return mg_align(4 * (size_t)c->size * sizeof(int)) + own + c->bytes;
}

int mg_allgatherv_as_alltoallv(const mg_call *c) {
  int p = c->size, r = c->rank, inplace = c->sbuf == MPI_IN_PLACE, direct;
  mg_type rt;
  int rc = mg_type_get(c->rtype, &rt);
  if (rc == MPI_SUCCESS) rc = mg_packed_recv_ok(c->rtype, &direct);
  if (rc != MPI_SUCCESS) return rc;
  size_t ints = 4 * (size_t)p * sizeof(int);
  char *dc, *cur = mg_scratch_split(ints, mg_allgatherv_as_alltoallv_mem(c) - mg_align(ints), &dc);
  int *scounts = mg_carve(&cur, ints), *sdispls = scounts + p;
  int *rcounts = sdispls + p, *rdispls = rcounts + p;
  const void *sbuf = c->sbuf;
  int scount = c->scount;
  MPI_Datatype stype = c->stype;
  if (inplace) { /* send a packed copy: the block in the receive buffer must not be a send buffer */
    int own = c->rcount * rt.size;
    char *o = mg_carve(&dc, (size_t)own);
    rc = pack_own(c, &rt, o);
    if (rc != MPI_SUCCESS) return rc;
    sbuf = o, scount = own, stype = MPI_PACKED;
  }
  char *packed = direct ? NULL : mg_carve(&dc, c->bytes);
  size_t off = 0;
  for (int i = 0; i < p; i++) {
    scounts[i] = scount;
    sdispls[i] = 0;
    if (direct) {
      rcounts[i] = c->rcounts[i];
      rdispls[i] = c->rdispls[i];
    } else {
      rcounts[i] = c->rcounts[i] * rt.size;
      rdispls[i] = (int)off;
      off += (size_t)rcounts[i];
    }
  }
  if (inplace) scounts[r] = rcounts[r] = 0; /* the own block is in place already */
  rc = PMPI_Alltoallv(sbuf, scounts, sdispls, stype, direct ? c->rbuf : packed, rcounts, rdispls,
                      direct ? c->rtype : MPI_PACKED, c->comm);
  if (rc != MPI_SUCCESS || direct) return rc;
  return unpack_blocks(c, &rt, packed, 0);
}

int mg_allgatherv_as_gatherv_bcast(const mg_call *c) {
  int rc;
  if (c->sbuf != MPI_IN_PLACE) {
    rc = PMPI_Gatherv(c->sbuf, c->scount, c->stype, c->rbuf, c->rcounts, c->rdispls, c->rtype, 0, c->comm);
  } else if (c->rank == 0) {
    rc = PMPI_Gatherv(MPI_IN_PLACE, c->rcount, c->rtype, c->rbuf, c->rcounts, c->rdispls, c->rtype, 0, c->comm);
  } else { /* a non-root cannot gather in place: it sends its block of the receive buffer */
    mg_type rt;
    rc = mg_type_get(c->rtype, &rt);
    if (rc != MPI_SUCCESS) return rc;
    rc = PMPI_Gatherv(block(c, &rt, c->rank), c->rcount, c->rtype, NULL, c->rcounts, c->rdispls, c->rtype, 0,
                      c->comm);
  }
  if (rc != MPI_SUCCESS) return rc;
  /* The blocks, and only they, as one element: each rank with its own receive type (the
   * signatures are equal, so the broadcast matches). */
  MPI_Datatype all;
  rc = PMPI_Type_indexed(c->size, c->rcounts, c->rdispls, c->rtype, &all);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Type_commit(&all);
  if (rc == MPI_SUCCESS) rc = PMPI_Bcast(c->rbuf, 1, all, 0, c->comm);
  int rc2 = PMPI_Type_free(&all);
  return rc != MPI_SUCCESS ? rc : rc2;
}

size_t mg_allgatherv_as_allgather_compact_mem(const mg_call *c) { return (size_t)c->size * max_block(c); }

int mg_allgatherv_as_allgather_compact(const mg_call *c) {
  mg_type rt;
  int rc = mg_type_get(c->rtype, &rt);
  if (rc != MPI_SUCCESS) return rc;
  size_t m = (size_t)max_count(c, NULL) * (size_t)rt.size, own = (size_t)c->rcount * (size_t)rt.size;
  char *s = mg_scratch_data((size_t)c->size * m), *slot = s + (size_t)c->rank * m;
  rc = pack_own(c, &rt, slot);
  if (rc != MPI_SUCCESS) return rc;
  memset(slot + own, 0, m - own);
  rc = PMPI_Allgather(MPI_IN_PLACE, (int)m, MPI_BYTE, s, (int)m, MPI_BYTE, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return unpack_blocks(c, &rt, s, m);
}
