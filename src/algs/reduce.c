/*
 * Mock-ups of MPI_Reduce: every rank contributes a vector of count elements
 * (n bytes); the root receives the element-wise reduction in rank order.
 * MPI_IN_PLACE is possible at the root only (its input is then in the
 * receive buffer), so no rank but the root may branch on it; non-roots never
 * read the receive buffer.
 *
 * GL14 reduce_as_allreduce  Reduce(n) <= Allreduce(n)
 *   Allreduce; non-roots receive into scratch of n. A root with MPI_IN_PLACE
 *   first copies its input to scratch (the standard does not allow mixing
 *   in-place and not in-place ranks in an allreduce). Scratch span(count).
 *   Costs what the library's allreduce costs, about 2 log p alpha +
 *   2 (p-1)/p n beta + (p-1)/p n gamma for large n: it wins where the
 *   library's reduce is worse tuned than its allreduce.
 * GL15 reduce_as_reducescatterblock_gather
 *     Reduce(n) <= Reduce_scatter_block(n) + Gather(n/p)
 *   Every rank reduces one block of blk = ceil(count/p) elements into
 *   scratch, then the root gathers the blocks: log p alpha + (p-1)/p n
 *   (beta + gamma) for the reduce_scatter, (p-1)/p n beta more for a gather.
 *   When p divides count: scratch span(blk). Otherwise the input is copied
 *   into a vector padded to p*blk elements (scratch span(p*blk)), reduced in
 *   place there, gathered in place into it at the root, and the root copies
 *   the first count elements out.
 *   Padding makes the op see more elements than the call has: only a
 *   predefined op may pad (MG_R_PAD_PREDEFINED_OP).
 * GL16 reduce_as_reducescatter_gatherv  Reduce(n) <= Reduce_scatter(n) + Gatherv(n)
 *   As GL15 with segments of whole 64-byte blocks (segments.h) instead of
 *   padding. Scratch 2p ints and rank 0's segment (about n/p, rounded up to
 *   whole blocks).
 *
 * GL15 and GL16 are built on Reduce_scatter(_block), wrong in MPICH 4.0.2 for
 * non-commutative ops on datatypes with gaps: both carry MG_R_COMMUTE_OR_DENSE.
 */
#include "algs/algs.h"
#include "algs/segments.h"

/* The rank's input: with MPI_IN_PLACE (root only) it is in the receive buffer. */
static const void *input(const mg_call *c) {
  return c->rank == c->root && c->sbuf == MPI_IN_PLACE ? c->rbuf : c->sbuf;
}

size_t mg_reduce_as_allreduce_mem(const mg_call *c) { return mg_typed_span(c->rtype, (size_t)c->rcount); }

int mg_reduce_as_allreduce(const mg_call *c) {
  int n = c->rcount;
  if (c->rank == c->root && c->sbuf != MPI_IN_PLACE)
    return PMPI_Allreduce(c->sbuf, c->rbuf, n, c->rtype, c->op, c->comm);
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  void *s = mg_type_base(mg_scratch(mg_type_span(&t, (size_t)n)), &t);
  if (c->rank != c->root) return PMPI_Allreduce(c->sbuf, s, n, c->rtype, c->op, c->comm);
  rc = mg_copy(c->rbuf, n, c->rtype, s, n, c->rtype);
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Allreduce(s, c->rbuf, n, c->rtype, c->op, c->comm);
}

static int ceil_div(int a, int b) { return a / b + (a % b != 0); }

size_t mg_reduce_as_reducescatterblock_gather_mem(const mg_call *c) {
  int n = c->rcount, p = c->size, blk = ceil_div(n, p);
  return mg_typed_span(c->rtype, n % p == 0 ? (size_t)blk : (size_t)blk * (size_t)p);
}

int mg_reduce_as_reducescatterblock_gather(const mg_call *c) {
  int n = c->rcount, p = c->size, blk = ceil_div(n, p);
  int root = c->root, at_root = c->rank == root;
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  if (n % p == 0) {
    /* A root in place: the reduce_scatter reads its receive buffer before the gather writes it. */
    void *b = mg_type_base(mg_scratch(mg_type_span(&t, (size_t)blk)), &t);
    rc = PMPI_Reduce_scatter_block(input(c), b, blk, c->rtype, c->op, c->comm);
    if (rc != MPI_SUCCESS) return rc;
    return PMPI_Gather(b, blk, c->rtype, c->rbuf, blk, c->rtype, root, c->comm);
  }
  size_t padded = (size_t)blk * (size_t)p;
  void *v = mg_type_base(mg_scratch(mg_type_span(&t, padded)), &t);
  rc = mg_copy_padded(input(c), v, &t, c->rtype, n, padded);
  if (rc == MPI_SUCCESS) rc = PMPI_Reduce_scatter_block(MPI_IN_PLACE, v, blk, c->rtype, c->op, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  if (!at_root) return PMPI_Gather(v, blk, c->rtype, NULL, 0, c->rtype, root, c->comm);
  /* The root's block came back at the start of v; the in-place gather wants it at its offset. */
  if (root > 0) rc = mg_copy(v, blk, c->rtype, mg_type_at(v, &t, (size_t)root * (size_t)blk), blk, c->rtype);
  if (rc == MPI_SUCCESS) rc = PMPI_Gather(MPI_IN_PLACE, blk, c->rtype, v, blk, c->rtype, root, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return mg_copy(v, n, c->rtype, c->rbuf, n, c->rtype);
}

size_t mg_reduce_as_reducescatter_gatherv_mem(const mg_call *c) {
  mg_type t;
  if (mg_type_get(c->rtype, &t) != MPI_SUCCESS) return SIZE_MAX;
  size_t seg = mg_type_span(&t, (size_t)mg_segment_max(c->rcount, t.size, c->size));
  return mg_align(2 * (size_t)c->size * sizeof(int)) + seg;
}

int mg_reduce_as_reducescatter_gatherv(const mg_call *c) {
  int p = c->size, r = c->rank;
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  size_t ints = 2 * (size_t)p * sizeof(int);
  size_t seg_bytes = mg_type_span(&t, (size_t)mg_segment_max(c->rcount, t.size, p));
  char *cursor = mg_scratch(mg_align(ints) + seg_bytes);
  int *counts = mg_carve(&cursor, ints), *displs = counts + p;
  void *seg = mg_type_base(mg_carve(&cursor, seg_bytes), &t);
  mg_segments(c->rcount, t.size, p, counts, displs);
  rc = PMPI_Reduce_scatter(input(c), seg, counts, c->rtype, c->op, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Gatherv(seg, counts[r], c->rtype, c->rbuf, counts, displs, c->rtype, c->root, c->comm);
}
