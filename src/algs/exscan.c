/*
 * Mock-ups of MPI_Exscan: rank r > 0 receives the element-wise reduction of
 * the vectors (count elements, n bytes) of ranks 0..r-1, in rank order; the
 * receive buffer of rank 0 is undefined by the standard, and these mock-ups
 * leave it untouched (as does a size-1 communicator's only rank).
 * MPI_IN_PLACE is used on all ranks or none: the input is then in the
 * receive buffer.
 *
 * TGT-X1 exscan_as_scan_sendrecv  Exscan(n) <= Scan(n) + Sendrecv(n)
 *   Inclusive scan into scratch, then shift the prefixes by one rank: rank r
 *   sends its prefix to r+1 and receives r-1's into the receive buffer. The
 *   shift goes over a private communicator (mg_p2p_comm), never over the
 *   application's, where a pending MPI_ANY_TAG receive could take it; its
 *   first use on a communicator costs one PMPI_Comm_split. Scratch
 *   span(count). Cost: the library's scan plus alpha + n beta.
 * TGT-X2 exscan_as_allgather_reducelocal  Exscan(n) <= Allgather(n) + Reduce_local(n)
 *   Allgather every rank's vector into scratch of p blocks (span(p*count),
 *   p*n must fit an int count: MG_R_PN_INT), then rank r folds blocks
 *   r-1 down to 0 into block r-1 with Reduce_local(in = block j, inout =
 *   block r-1), which computes block j op (block j+1 op ...): rank order, so
 *   right for non-commutative ops. Cost: the allgather, about log p alpha +
 *   (p-1) n beta, plus up to (p-2) n gamma on the last rank: only a bound for
 *   small n and few ranks.
 */
#include "algs/algs.h"
#include "algs/segments.h"

/* The rank's input vector. */
static const void *input(const mg_call *c) { return c->sbuf == MPI_IN_PLACE ? c->rbuf : c->sbuf; }

size_t mg_exscan_as_scan_sendrecv_mem(const mg_call *c) { return mg_typed_span(c->rtype, (size_t)c->rcount); }

int mg_exscan_as_scan_sendrecv(const mg_call *c) {
  int n = c->rcount, r = c->rank, p = c->size;
  MPI_Comm pc;
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc == MPI_SUCCESS) rc = mg_p2p_comm(c->comm, &pc);
  if (rc != MPI_SUCCESS) return rc;
  void *incl = mg_type_base(mg_scratch_data(mg_type_span(&t, (size_t)n)), &t);
  rc = PMPI_Scan(input(c), incl, n, c->rtype, c->op, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  /* Rank 0 receives from MPI_PROC_NULL, which leaves its buffer as it was. */
  return PMPI_Sendrecv(incl, n, c->rtype, r + 1 < p ? r + 1 : MPI_PROC_NULL, 0, c->rbuf, n, c->rtype,
                       r > 0 ? r - 1 : MPI_PROC_NULL, 0, pc, MPI_STATUS_IGNORE);
}

size_t mg_exscan_as_allgather_reducelocal_mem(const mg_call *c) {
  return mg_typed_span(c->rtype, (size_t)c->size * (size_t)c->rcount);
}

int mg_exscan_as_allgather_reducelocal(const mg_call *c) {
  int n = c->rcount, r = c->rank;
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  void *all = mg_type_base(mg_scratch_data(mg_type_span(&t, (size_t)c->size * (size_t)n)), &t);
  rc = PMPI_Allgather(input(c), n, c->rtype, all, n, c->rtype, c->comm);
  if (rc != MPI_SUCCESS || r == 0) return rc;
  void *acc = mg_type_at(all, &t, (size_t)(r - 1) * (size_t)n);
  for (int j = r - 2; j >= 0 && rc == MPI_SUCCESS; j--)
    rc = PMPI_Reduce_local(mg_type_at(all, &t, (size_t)j * (size_t)n), acc, n, c->rtype, c->op);
  if (rc != MPI_SUCCESS) return rc;
  return mg_copy(acc, n, c->rtype, c->rbuf, n, c->rtype);
}
