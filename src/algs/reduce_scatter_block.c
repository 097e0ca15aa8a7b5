/*
 * Mock-ups of MPI_Reduce_scatter_block: every rank contributes p blocks of
 * rcount elements (n bytes each, p*n in all); rank i receives block i of the
 * element-wise reduction in rank order. With MPI_IN_PLACE (all ranks or
 * none) the input is the p*rcount elements of the receive buffer and the
 * result goes to its start; the rest of the buffer is left as it was.
 * All need p*rcount to fit an int count (MG_R_PN_INT).
 *
 * GL17 reduce_scatter_block_as_reduce_scatter  Reduce_scatter_block(n) <= Reduce(p*n) + Scatter(n)
 *   Reduce the whole vector to rank 0 into scratch, scatter the blocks from
 *   there. Scratch span(p*rcount) on rank 0 only. A binomial reduce moves
 *   log p * p n: worth it only for small n or a badly tuned library.
 * GL18 reduce_scatter_block_as_reducescatter  Reduce_scatter_block(n) <= Reduce_scatter(n)
 *   Reduce_scatter with p equal counts (scratch p ints), MPI_IN_PLACE passed
 *   through (same meaning). Same cost unless the library tunes the two
 *   differently.
 * GL19 reduce_scatter_block_as_allreduce  Reduce_scatter_block(n) <= Allreduce(p*n)
 *   Allreduce of the whole vector into scratch, keep the own block. Scratch
 *   span(p*rcount). At least twice the volume of a good reduce_scatter
 *   (2 (p-1) n beta against (p-1) n beta).
 */
#include "algs/algs.h"
#include "algs/segments.h"

/* The rank's input vector of p*rcount elements. */
static const void *input(const mg_call *c) { return c->sbuf == MPI_IN_PLACE ? c->rbuf : c->sbuf; }

static size_t whole_span(const mg_call *c) {
  return mg_typed_span(c->rtype, (size_t)c->size * (size_t)c->rcount);
}

size_t mg_reduce_scatter_block_as_reduce_scatter_mem(const mg_call *c) { return whole_span(c); }

int mg_reduce_scatter_block_as_reduce_scatter(const mg_call *c) {
  int n = c->rcount, all = c->size * n;
  void *s = NULL;
  if (c->rank == 0) {
    mg_type t;
    int rc = mg_type_get(c->rtype, &t);
    if (rc != MPI_SUCCESS) return rc;
    s = mg_type_base(mg_scratch(mg_type_span(&t, (size_t)all)), &t);
  }
  int rc = PMPI_Reduce(input(c), s, all, c->rtype, c->op, 0, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Scatter(s, n, c->rtype, c->rbuf, n, c->rtype, 0, c->comm);
}

size_t mg_reduce_scatter_block_as_reducescatter_mem(const mg_call *c) { return (size_t)c->size * sizeof(int); }

int mg_reduce_scatter_block_as_reducescatter(const mg_call *c) {
  int *counts = mg_scratch((size_t)c->size * sizeof(int));
  for (int i = 0; i < c->size; i++) counts[i] = c->rcount;
  return PMPI_Reduce_scatter(c->sbuf, c->rbuf, counts, c->rtype, c->op, c->comm);
}

size_t mg_reduce_scatter_block_as_allreduce_mem(const mg_call *c) { return whole_span(c); }

int mg_reduce_scatter_block_as_allreduce(const mg_call *c) {
  int n = c->rcount, all = c->size * n;
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  void *s = mg_type_base(mg_scratch(mg_type_span(&t, (size_t)all)), &t);
  rc = PMPI_Allreduce(input(c), s, all, c->rtype, c->op, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return mg_copy(mg_type_at(s, &t, (size_t)c->rank * (size_t)n), n, c->rtype, c->rbuf, n, c->rtype);
}
