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
 *
 * Point-to-point rows (the p2p family, TGT 2010 eq. 35 and §V.D; the shared machinery, the
 * order of combination and the terms of the costs in p2p_reduction.h):
 * scan_as_linear            rank i receives the prefix of ranks 0..i-1 from i-1, combines it
 *   with its own vector and sends the result to i+1. Scratch 1 vector. Cost (p-1) (T(n) +
 *   gamma n) + copy n.
 * scan_as_recdbl            recursive doubling (Hillis-Steele, MPICH's scan): in round k
 *   rank i exchanges the reduction of its group of 2^k ranks with i xor 2^k; the upper one
 *   adds the lower's into its partial and its result. Scratch 2 vectors. Cost
 *   ceil(log2 p) (x(n) + 2 gamma n) + 2 copy n.
 */
#include "algs/algs.h"
#include "algs/segments.h"
#include "algs/p2p_reduction.h"

size_t mg_scan_as_exscan_reducelocal_mem(const mg_call *c) { return mg_typed_span(c->rtype, (size_t)c->rcount); }

int mg_scan_as_exscan_reducelocal(const mg_call *c) {
  int n = c->rcount;
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  void *prefix = mg_type_base(mg_scratch_data(mg_type_span(&t, (size_t)n)), &t);
  if (c->sbuf != MPI_IN_PLACE) rc = mg_copy(c->sbuf, n, c->rtype, c->rbuf, n, c->rtype);
  if (rc == MPI_SUCCESS) rc = PMPI_Exscan(c->rbuf, prefix, n, c->rtype, c->op, c->comm);
  if (rc != MPI_SUCCESS || c->rank == 0) return rc;
  return PMPI_Reduce_local(prefix, c->rbuf, n, c->rtype, c->op);
}

size_t mg_scan_as_linear_mem(const mg_call *c) { return mg_red_vectors_mem(c, 1, (size_t)c->rcount); }

int mg_scan_as_linear(const mg_call *c, int unused) {
  (void)unused;
  mg_red s;
  int rc = mg_red_init(&s, c), p = c->size, r = c->rank, n = c->rcount;
  if (rc != MPI_SUCCESS) return rc;
  char *t;
  mg_red_vectors(&s, (size_t)n, 1, &t);
  rc = mg_red_copy_range(&s, mg_red_input(c), c->rbuf, 0, n);
  if (rc == MPI_SUCCESS && r > 0) { /* prefix op x(r), in the receive buffer */
    rc = mg_red_recv_into(&s, t, 0, n, r - 1);
    if (rc == MPI_SUCCESS) rc = PMPI_Reduce_local(t, c->rbuf, n, s.dt, s.op);
  }
  if (rc == MPI_SUCCESS && r + 1 < p) rc = mg_red_send(&s, c->rbuf, 0, n, r + 1);
  return rc;
}

double mg_cost_scan_as_linear(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return (p - 1) * (mg_p2p_msg(m, n) + m->reduce * n) + m->copy * n;
}

size_t mg_scan_as_recdbl_mem(const mg_call *c) { return mg_red_vectors_mem(c, 2, (size_t)c->rcount); }

int mg_scan_as_recdbl(const mg_call *c, int unused) {
  (void)unused;
  mg_red s;
  int rc = mg_red_init(&s, c), p = c->size, r = c->rank, n = c->rcount;
  if (rc != MPI_SUCCESS) return rc;
  char *v[2];
  mg_red_vectors(&s, (size_t)n, 2, v);
  char *part = v[0], *tmp = v[1]; /* part: the reduction of this rank's group */
  rc = mg_red_copy_range(&s, mg_red_input(c), c->rbuf, 0, n);
  if (rc == MPI_SUCCESS && p > 1) rc = mg_red_copy_range(&s, c->rbuf, part, 0, n);
  for (int mask = 1; mask < p && rc == MPI_SUCCESS; mask <<= 1) {
    int peer = r ^ mask;
    if (peer >= p) continue;
    rc = PMPI_Sendrecv(part, n, s.dt, peer, MG_P2P_TAG, tmp, n, s.dt, peer, MG_P2P_TAG, s.pc, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) break;
    if (peer < r) { /* the lower group's reduction on the left of both */
      rc = PMPI_Reduce_local(tmp, part, n, s.dt, s.op);
      if (rc == MPI_SUCCESS) rc = PMPI_Reduce_local(tmp, c->rbuf, n, s.dt, s.op);
    } else { /* part op tmp lands in tmp */
      rc = PMPI_Reduce_local(part, tmp, n, s.dt, s.op);
      char *x = part;
      part = tmp, tmp = x;
    }
  }
  return rc;
}

double mg_cost_scan_as_recdbl(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return mg_p2p_log2_ceil(p) * (mg_p2p_xchg(m, n) + 2 * m->reduce * n) + 2 * m->copy * n;
}
