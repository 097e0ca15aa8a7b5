/*
 * Mock-ups of MPI_Reduce_scatter: every rank contributes a vector of
 * N = sum(recvcounts) elements (n bytes, the message size); rank i receives
 * the recvcounts[i] elements at offset recvcounts[0] + ... + recvcounts[i-1]
 * of the element-wise reduction in rank order. recvcounts is equal on every
 * rank; some counts may be 0. With MPI_IN_PLACE (all ranks or none) the input
 * is the N elements of the receive buffer and the result goes to its start.
 *
 * TGT19 reduce_scatter_as_reduce_scatterv  Reduce_scatter(n) <= Reduce(n) + Scatterv(n)
 *   Reduce the whole vector to rank 0 into scratch, then scatterv it with
 *   displacements the prefix sums of recvcounts. Scratch p ints everywhere
 *   and span(N) at rank 0; N must fit an int count (MG_R_N_INT). A binomial
 *   reduce moves log p * n: worth it only for small n or a badly tuned
 *   library.
 * TGT22 reduce_scatter_as_allreduce  Reduce_scatter(n) <= Allreduce(n)
 *   Allreduce of the whole vector into scratch (span(N), MG_R_N_INT), keep
 *   the own block. About twice the volume of a good reduce_scatter
 *   (2 (p-1)/p n beta against (p-1)/p n beta).
 * TGT-R1 reduce_scatter_as_reducescatterblock
 *     Reduce_scatter(n) <= Reduce_scatter_block(p * max recvcounts)
 *   With equal recvcounts it is Reduce_scatter_block (no scratch,
 *   MPI_IN_PLACE passed through). Otherwise every block is padded to
 *   m = max recvcounts elements in scratch of span(p*m): block i holds the
 *   recvcounts[i] elements of rank i's block, then copies of the first
 *   elements of the vector (N >= m, so there are enough), so padding never
 *   meets uninitialised bytes, and its results are dropped. Costs the block
 *   reduce_scatter of p*m elements, (p-1) m (beta + gamma) and up to
 *   2 p m of local copies: near the default for nearly equal counts, up to
 *   p times worse for skewed ones. A user-defined op would see more
 *   elements than the call has, so padding is for predefined ops only
 *   (MG_R_PAD_PREDEFINED_OP); and MPICH 4.0.2's reduce_scatter_block is
 *   wrong for non-commutative ops on datatypes with gaps
 *   (MG_R_COMMUTE_OR_DENSE).
 */
#include "algs/algs.h"
#include "algs/segments.h"

/* The rank's input vector of N elements. */
static const void *input(const mg_call *c) { return c->sbuf == MPI_IN_PLACE ? c->rbuf : c->sbuf; }

/* N, the whole vector's element count (fits an int under MG_R_N_INT), and the
 * offset of the own block. */
static size_t total(const mg_call *c, size_t *own_off) {
  size_t sum = 0;
  for (int i = 0; i < c->size; i++) {
    if (i == c->rank && own_off) *own_off = sum;
    sum += (size_t)c->rcounts[i];
  }
  return sum;
}

static int max_count(const mg_call *c) {
  int m = 0;
  for (int i = 0; i < c->size; i++)
    if (c->rcounts[i] > m) m = c->rcounts[i];
  return m;
}

size_t mg_reduce_scatter_as_reduce_scatterv_mem(const mg_call *c) {
  return mg_align((size_t)c->size * sizeof(int)) + mg_typed_span(c->rtype, total(c, NULL));
}

int mg_reduce_scatter_as_reduce_scatterv(const mg_call *c) {
  int p = c->size, all = (int)total(c, NULL);
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  size_t ints = (size_t)p * sizeof(int);
  char *data, *cursor = mg_scratch_split(ints, c->rank == 0 ? mg_type_span(&t, (size_t)all) : 0, &data);
  int *displs = mg_carve(&cursor, ints);
  void *v = c->rank == 0 ? mg_type_base(data, &t) : NULL;
  for (int i = 0, d = 0; i < p; d += c->rcounts[i], i++) displs[i] = d;
  rc = PMPI_Reduce(input(c), v, all, c->rtype, c->op, 0, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Scatterv(v, c->rcounts, displs, c->rtype, c->rbuf, c->rcount, c->rtype, 0, c->comm);
}

size_t mg_reduce_scatter_as_allreduce_mem(const mg_call *c) { return mg_typed_span(c->rtype, total(c, NULL)); }

int mg_reduce_scatter_as_allreduce(const mg_call *c) {
  size_t off = 0;
  int all = (int)total(c, &off);
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  void *v = mg_type_base(mg_scratch_data(mg_type_span(&t, (size_t)all)), &t);
  rc = PMPI_Allreduce(input(c), v, all, c->rtype, c->op, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return mg_copy(mg_type_at(v, &t, off), c->rcount, c->rtype, c->rbuf, c->rcount, c->rtype);
}

size_t mg_reduce_scatter_as_reducescatterblock_mem(const mg_call *c) {
  if (!mg_needs_padding(c)) return 0;
  return mg_typed_span(c->rtype, (size_t)c->size * (size_t)max_count(c));
}

int mg_reduce_scatter_as_reducescatterblock(const mg_call *c) {
  int p = c->size, m = max_count(c);
  if (!mg_needs_padding(c)) return PMPI_Reduce_scatter_block(c->sbuf, c->rbuf, m, c->rtype, c->op, c->comm);
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  void *v = mg_type_base(mg_scratch_data(mg_type_span(&t, (size_t)p * (size_t)m)), &t);
  const void *in = input(c);
  size_t off = 0; /* of block i in the input */
  for (int i = 0; i < p && rc == MPI_SUCCESS; off += (size_t)c->rcounts[i], i++) {
    int k = c->rcounts[i];
    void *blk = mg_type_at(v, &t, (size_t)i * (size_t)m);
    rc = mg_copy(mg_type_at(in, &t, off), k, c->rtype, blk, k, c->rtype);
    if (rc == MPI_SUCCESS && k < m) /* padding: copies of the vector's first elements */
      rc = mg_copy(in, m - k, c->rtype, mg_type_at(blk, &t, (size_t)k), m - k, c->rtype);
  }
  if (rc == MPI_SUCCESS) rc = PMPI_Reduce_scatter_block(MPI_IN_PLACE, v, m, c->rtype, c->op, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return mg_copy(v, c->rcount, c->rtype, c->rbuf, c->rcount, c->rtype);
}
