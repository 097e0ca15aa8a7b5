/*
 * The monotony family's repair: a message must not take longer than a larger
 * one, A(n) <= A(n') for n <= n' (Hunold et al., PGMPI, Euro-Par 2016; TGT
 * 2010 meta-rule II). Where the library breaks it (a protocol or algorithm
 * switch that makes n slower than n'), running the call at the larger size
 * is faster: the message is padded. `mpiguide check` finds such cells
 * (docs/check.md, "Monotony"); these rows measure and repair them.
 *
 * The padded size: the smallest power of two at least k times the message
 * (k = 2, 4: the row's parameter), in bytes for bcast and in elements for the
 * reductions: with the check presets' sizes (powers of two, steps of 2 or 4)
 * it is the next measured size or the one after.
 *
 * Where padding is safe:
 * - bcast: the root's n bytes are copied (packed, for a datatype that is not
 *   dense) into scratch and the padded message moves as MPI_BYTE; the other
 *   ranks copy (unpack) the first n bytes back. The padding is zeros.
 * - reduce, allreduce, scan, exscan with a predefined datatype that has a
 *   class (C integer, floating point, MPI_BYTE: contiguous, extent = size)
 *   and a predefined op: the ops work element by element, so padding
 *   elements (zeros) change no real element. A user-defined op may assume it
 *   is never called with more elements than the call has, and a derived
 *   datatype is not a run of equal elements: the row does not apply
 *   (restriction PAD_PREDEFINED). The datatype and op of a reduction are the
 *   same on every rank, so the decision is too. Exscan's rank 0 gets no
 *   result, and its receive buffer is left alone.
 * - gather, scatter, allgather, alltoall: every rank's block of b bytes is
 *   packed into a slot of b' bytes (zeros after the data) and the slots move
 *   as MPI_BYTE; the receive side unpacks the first b bytes of each. The
 *   root's own block of an in-place gather or scatter stays where it is;
 *   in-place allgather and alltoall pack from the receive buffer.
 * The padded count (bytes, p blocks for the block collectives, elements) must
 * fit an int (restriction PADDED_INT).
 *
 * Cost: A(n') for the padded n', plus a copy of n bytes on each side and
 * clearing n' - n bytes (per block for the block collectives).
 */
#include <stdint.h>
#include <string.h>

#include "algs/algs.h"
#include "registry/restrict.h"

/* The padded count and the padded message of a call (mg_padded_count, mg_padded_units) are in
 * registry/restrict.c, where mg_applicable() decides MG_R_PADDED_INT from them. */

/* Scratch for the largest k (4) of the family, so that one figure serves both rows: the padded
 * message (bcast); p padded blocks and one (gather, scatter, allgather), or two sets of p
 * (alltoall); a send and a receive vector (the reductions). */
size_t mg_padded_mem(const mg_call *c) {
  size_t t = mg_padded_units(c, 4);
  if (t == SIZE_MAX || t > SIZE_MAX / 4) return SIZE_MAX;
  if (c->coll == MG_BCAST) return t;
  if (c->coll == MG_ALLTOALL) return 2 * mg_align(t);
  if (mg_padded_by_block(c->coll)) return mg_align(t) + mg_align(mg_padded_count(c->bytes, 4));
  int size = 0;
  if (PMPI_Type_size(c->rtype, &size) != MPI_SUCCESS || size <= 0) return SIZE_MAX;
  return 2 * mg_align(t * (size_t)size);
}

/* Block i of a buffer of blocks of count elements of extent ext. */
static void *block_at(const void *buf, int i, int count, MPI_Aint ext) {
  return (char *)buf + (MPI_Aint)i * count * ext;
}

/* A block (count elements of dt) packed into a padded slot: b bytes of data, then zeros up to bp. */
static int put(const void *blk, int count, MPI_Datatype dt, char *slot, size_t b, size_t bp) {
  memset(slot + b, 0, bp - b);
  return mg_pack(blk, count, dt, slot, (int)b);
}

/* gather, scatter, allgather, alltoall: every rank's block of b bytes padded to bp, as MPI_BYTE. In
 * place the data stay where the collective keeps them (gather, scatter: the root's own block is
 * neither sent nor received); allgather and alltoall pack from the receive buffer instead, and
 * every rank calls without MPI_IN_PLACE. Datatypes are read only where significant. */
static int padded_blocks(const mg_call *c, int k) {
  int p = c->size, me = c->rank, root = c->rank == c->root, rc = MPI_SUCCESS;
  int in = c->coll == MG_SCATTER ? root && c->rbuf == MPI_IN_PLACE : c->sbuf == MPI_IN_PLACE;
  int sends = c->coll == MG_SCATTER ? root : !in, recvs = c->coll == MG_GATHER ? root : !(in && c->coll == MG_SCATTER);
  size_t b = c->bytes, bp = mg_padded_count(b, k), pbp = (size_t)p * bp;
  mg_type st = {0}, rt = {0};
  /* the receive type where it is read: every receiving rank, and in-place allgather and alltoall,
   * which pack from the receive buffer (recvs too); never at an in-place scatter's root, where
   * recvcount and recvtype are not significant (MPI_DATATYPE_NULL is legal there) */
  if ((sends && (rc = mg_type_get(c->stype, &st)) != MPI_SUCCESS) ||
      (recvs && (rc = mg_type_get(c->rtype, &rt)) != MPI_SUCCESS))
    return rc;
  char *cur = mg_scratch_data(mg_padded_mem(c)), *many = mg_carve(&cur, pbp);
  char *one = mg_carve(&cur, c->coll == MG_ALLTOALL ? pbp : bp);
  switch (c->coll) {
  case MG_GATHER:
    if (!in && (rc = put(c->sbuf, c->scount, c->stype, one, b, bp)) != MPI_SUCCESS) return rc;
    rc = PMPI_Gather(in ? MPI_IN_PLACE : one, (int)bp, MPI_BYTE, root ? many : NULL, root ? (int)bp : 0, MPI_BYTE,
                     c->root, c->comm);
    break;
  case MG_SCATTER:
    for (int i = 0; root && rc == MPI_SUCCESS && i < p; i++)
      if (!(in && i == me)) rc = put(block_at(c->sbuf, i, c->scount, st.extent), c->scount, c->stype, many + i * bp, b, bp);
    if (rc != MPI_SUCCESS) return rc;
    rc = PMPI_Scatter(root ? many : NULL, root ? (int)bp : 0, MPI_BYTE, in ? MPI_IN_PLACE : one, (int)bp, MPI_BYTE,
                      c->root, c->comm);
    return rc != MPI_SUCCESS || in ? rc : mg_unpack(one, (int)b, c->rbuf, c->rcount, c->rtype);
  case MG_ALLGATHER:
    rc = in ? put(block_at(c->rbuf, me, c->rcount, rt.extent), c->rcount, c->rtype, one, b, bp)
            : put(c->sbuf, c->scount, c->stype, one, b, bp);
    if (rc == MPI_SUCCESS) rc = PMPI_Allgather(one, (int)bp, MPI_BYTE, many, (int)bp, MPI_BYTE, c->comm);
    break;
  default: /* alltoall: "one" holds the p padded blocks to send */
    for (int i = 0; rc == MPI_SUCCESS && i < p; i++)
      rc = in ? put(block_at(c->rbuf, i, c->rcount, rt.extent), c->rcount, c->rtype, one + i * bp, b, bp)
              : put(block_at(c->sbuf, i, c->scount, st.extent), c->scount, c->stype, one + i * bp, b, bp);
    if (rc == MPI_SUCCESS) rc = PMPI_Alltoall(one, (int)bp, MPI_BYTE, many, (int)bp, MPI_BYTE, c->comm);
    break;
  }
  /* every received block but an in-place gather root's own */
  for (int i = 0; recvs && rc == MPI_SUCCESS && i < p; i++)
    if (!(in && i == me && c->coll == MG_GATHER))
      rc = mg_unpack(many + i * bp, (int)b, block_at(c->rbuf, i, c->rcount, rt.extent), c->rcount, c->rtype);
  return rc;
}

static int padded_bcast(const mg_call *c, int k) {
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  size_t n = c->bytes, np = mg_padded_count(n, k);
  int dense = mg_type_is_dense(&t), root = c->rank == c->root;
  char *img = mg_scratch_data(np);
  if (root) {
    if (dense)
      memcpy(img, c->rbuf, n);
    else if ((rc = mg_pack(c->rbuf, c->rcount, c->rtype, img, (int)n)) != MPI_SUCCESS)
      return rc;
    memset(img + n, 0, np - n);
  }
  if ((rc = PMPI_Bcast(img, (int)np, MPI_BYTE, c->root, c->comm)) != MPI_SUCCESS || root) return rc;
  if (dense) {
    memcpy(c->rbuf, img, n);
    return MPI_SUCCESS;
  }
  return mg_unpack(img, (int)n, c->rbuf, c->rcount, c->rtype);
}

static int padded_reduction(const mg_call *c, int k) {
  int size, rc = PMPI_Type_size(c->rtype, &size);
  if (rc != MPI_SUCCESS) return rc;
  size_t n = (size_t)c->rcount * (size_t)size, cnt = mg_padded_count((size_t)c->rcount, k), np = cnt * (size_t)size;
  char *cur = mg_scratch_data(2 * mg_align(np)), *s = mg_carve(&cur, np), *r = mg_carve(&cur, np);
  memcpy(s, c->sbuf == MPI_IN_PLACE ? c->rbuf : c->sbuf, n); /* predefined datatype: n contiguous bytes */
  memset(s + n, 0, np - n);
  int recv = 1;
  switch (c->coll) {
  case MG_REDUCE:
    rc = PMPI_Reduce(s, r, (int)cnt, c->rtype, c->op, c->root, c->comm);
    recv = c->rank == c->root;
    break;
  case MG_ALLREDUCE: rc = PMPI_Allreduce(s, r, (int)cnt, c->rtype, c->op, c->comm); break;
  case MG_SCAN: rc = PMPI_Scan(s, r, (int)cnt, c->rtype, c->op, c->comm); break;
  default:
    rc = PMPI_Exscan(s, r, (int)cnt, c->rtype, c->op, c->comm);
    recv = c->rank != 0; /* rank 0's receive buffer is undefined after MPI_Exscan: left as it was */
    break;
  }
  if (rc == MPI_SUCCESS && recv) memcpy(c->rbuf, r, n);
  return rc;
}

int mg_padded(const mg_call *c, int k) {
  if (c->coll == MG_BCAST) return padded_bcast(c, k);
  return mg_padded_by_block(c->coll) ? padded_blocks(c, k) : padded_reduction(c, k);
}
