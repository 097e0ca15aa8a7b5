/*
 * Mock-up of MPI_Scan: rank r receives the element-wise reduction of the
 * vectors (count elements, n bytes) of ranks 0..r, in rank order.
 * MPI_IN_PLACE is used on all ranks or none: the input is then in the
 * receive buffer.
 *
 * GL20 scan_as_exscan_reducelocal  Scan(n) <= Exscan(n) + Reduce_local(n)
 *   The own vector goes to the receive buffer; an exclusive scan of it
 *   yields the prefix of ranks 0..r-1 in scratch, and Reduce_local(prefix,
 *   recvbuf) computes prefix op own, the order a non-commutative op needs
 *   (rank 0 has no prefix and keeps its own vector). Scratch span(count).
 *   Cost: the library's exscan plus n gamma and a local copy of n.
 */
#include "algs/algs.h"
#include "algs/segments.h"

size_t mg_scan_as_exscan_reducelocal_mem(const mg_call *c) { return mg_typed_span(c->rtype, (size_t)c->rcount); }

int mg_scan_as_exscan_reducelocal(const mg_call *c) {
  int n = c->rcount;
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  void *prefix = mg_type_base(mg_scratch(mg_type_span(&t, (size_t)n)), &t);
  if (c->sbuf != MPI_IN_PLACE) rc = mg_copy(c->sbuf, n, c->rtype, c->rbuf, n, c->rtype);
  if (rc == MPI_SUCCESS) rc = PMPI_Exscan(c->rbuf, prefix, n, c->rtype, c->op, c->comm);
  if (rc != MPI_SUCCESS || c->rank == 0) return rc;
  return PMPI_Reduce_local(prefix, c->rbuf, n, c->rtype, c->op);
}
