/*
 * Mock-ups of MPI_Allreduce: every rank contributes a vector of count
 * elements (n bytes) and receives the element-wise reduction over all ranks,
 * combined in rank order (so non-commutative ops are right: every part below
 * is itself a rank-ordered reduction).
 *
 * GL5 allreduce_as_reduce_bcast  Allreduce(n) <= Reduce(n) + Bcast(n)
 *   Reduce to rank 0, broadcast from there. No scratch. With binomial trees
 *   2 ceil(log p)(alpha + n beta) + ceil(log p) n gamma: a useful bound for
 *   small n, or where the library's allreduce is badly tuned.
 * GL6 allreduce_as_reducescatterblock_allgather
 *     Allreduce(n) <= Reduce_scatter_block(n) + Allgather(n/p)
 *   Rabenseifner's decomposition: every rank reduces one block of
 *   blk = ceil(count/p) elements, then the blocks are allgathered. Ideally
 *   2 log p alpha + 2 (p-1)/p n beta + (p-1)/p n gamma. When p divides count
 *   it works in the receive buffer (no scratch; with MPI_IN_PLACE the block
 *   comes back at the start of the buffer and is moved to its place, n/p
 *   copied). Otherwise the input is copied into a vector padded to p*blk
 *   elements (scratch span(p*blk), local copies of 2n), reduced and gathered
 *   in place there; the op then sees more elements than the call has, so
 *   only a predefined op may pad (MG_R_PAD_PREDEFINED_OP).
 * GL7 allreduce_as_reducescatter_allgatherv
 *     Allreduce(n) <= Reduce_scatter(n) + Allgatherv(n)
 *   As GL6 with segments of whole 64-byte blocks (segments.h) instead of
 *   padding; scratch 2p ints. Same cost as GL6 up to the granularity; it
 *   tests the irregular collectives, which libraries often tune less.
 *   With MPI_IN_PLACE the segment comes back at the start of the buffer and
 *   is moved to its place (about n/p copied).
 *
 * GL6 and GL7 are built on Reduce_scatter(_block), which MPICH 4.0.2 gets
 * wrong (or corrupts its heap with) for a non-commutative op on a datatype
 * with gaps when the blocks are equal and p is a power of two; both rows
 * carry MG_R_COMMUTE_OR_DENSE (tests/diff catches it with count 64).
 *
 * MPI_IN_PLACE is used on all ranks or none (the standard requires it), so
 * branching on it is safe. The reduce_scatter calls with MPI_IN_PLACE put the
 * own result at the start of the buffer; moving it to its offset never
 * overlaps: the offset of rank r >= 1 is at least the size of rank 0's piece,
 * which is the largest.
 */
#include "algs/algs.h"
#include "algs/segments.h"

int mg_allreduce_as_reduce_bcast(const mg_call *c) {
  int rc;
  if (c->sbuf != MPI_IN_PLACE)
    rc = PMPI_Reduce(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, 0, c->comm);
  else if (c->rank == 0)
    rc = PMPI_Reduce(MPI_IN_PLACE, c->rbuf, c->rcount, c->rtype, c->op, 0, c->comm);
  else /* a non-root has no in-place reduce: its input is in the receive buffer */
    rc = PMPI_Reduce(c->rbuf, NULL, c->rcount, c->rtype, c->op, 0, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Bcast(c->rbuf, c->rcount, c->rtype, 0, c->comm);
}

static int ceil_div(int a, int b) { return a / b + (a % b != 0); }

size_t mg_allreduce_as_reducescatterblock_allgather_mem(const mg_call *c) {
  if (c->rcount % c->size == 0) return 0;
  return mg_typed_span(c->rtype, (size_t)ceil_div(c->rcount, c->size) * (size_t)c->size);
}

/* Reduce_scatter_block over the p*blk elements at buf, in place: rank r's
 * block ends at its own offset. Then allgather the blocks in place. */
static int rsb_allgather_in_place(const mg_call *c, const mg_type *t, void *buf, int blk) {
  int rc = PMPI_Reduce_scatter_block(MPI_IN_PLACE, buf, blk, c->rtype, c->op, c->comm);
  if (rc == MPI_SUCCESS && c->rank > 0)
    rc = mg_copy(buf, blk, c->rtype, mg_type_at(buf, t, (size_t)c->rank * (size_t)blk), blk, c->rtype);
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Allgather(MPI_IN_PLACE, blk, c->rtype, buf, blk, c->rtype, c->comm);
}

int mg_allreduce_as_reducescatterblock_allgather(const mg_call *c) {
  int n = c->rcount, p = c->size, blk = ceil_div(n, p);
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  if (n % p == 0) {
    if (c->sbuf == MPI_IN_PLACE) return rsb_allgather_in_place(c, &t, c->rbuf, blk);
    void *own = mg_type_at(c->rbuf, &t, (size_t)c->rank * (size_t)blk);
    rc = PMPI_Reduce_scatter_block(c->sbuf, own, blk, c->rtype, c->op, c->comm);
    if (rc != MPI_SUCCESS) return rc;
    return PMPI_Allgather(MPI_IN_PLACE, blk, c->rtype, c->rbuf, blk, c->rtype, c->comm);
  }
  size_t padded = (size_t)blk * (size_t)p;
  void *v = mg_type_base(mg_scratch(mg_type_span(&t, padded)), &t);
  rc = mg_copy_padded(c->sbuf == MPI_IN_PLACE ? c->rbuf : c->sbuf, v, &t, c->rtype, n, padded);
  if (rc == MPI_SUCCESS) rc = rsb_allgather_in_place(c, &t, v, blk);
  if (rc != MPI_SUCCESS) return rc;
  return mg_copy(v, n, c->rtype, c->rbuf, n, c->rtype);
}

size_t mg_allreduce_as_reducescatter_allgatherv_mem(const mg_call *c) {
  return 2 * (size_t)c->size * sizeof(int);
}

int mg_allreduce_as_reducescatter_allgatherv(const mg_call *c) {
  int p = c->size, r = c->rank;
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  int *counts = mg_scratch(2 * (size_t)p * sizeof(int)), *displs = counts + p;
  mg_segments(c->rcount, t.size, p, counts, displs);
  /* An empty segment's address is the start of the receive buffer, never
   * rbuf + displs[r]: that can be one past the vector's end, where an
   * adjacent send buffer may begin, and MPICH rejects a reduce_scatter whose
   * send and receive addresses are equal ("Buffers must not be aliased")
   * even for count 0. */
  void *own = counts[r] ? mg_type_at(c->rbuf, &t, (size_t)displs[r]) : c->rbuf;
  if (c->sbuf != MPI_IN_PLACE) {
    rc = PMPI_Reduce_scatter(c->sbuf, own, counts, c->rtype, c->op, c->comm);
  } else {
    rc = PMPI_Reduce_scatter(MPI_IN_PLACE, c->rbuf, counts, c->rtype, c->op, c->comm);
    if (rc == MPI_SUCCESS && displs[r] > 0)
      rc = mg_copy(c->rbuf, counts[r], c->rtype, own, counts[r], c->rtype);
  }
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Allgatherv(MPI_IN_PLACE, counts[r], c->rtype, c->rbuf, counts, displs, c->rtype, c->comm);
}
