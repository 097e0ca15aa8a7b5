/*
 * Barrier mock-ups (Träff, Gropp and Thakur, TPDS 2010): a barrier is a collective in which no
 * rank may leave before every rank has entered; any collective whose result on each rank depends
 * on every rank's contribution has that property.
 *
 * The point-to-point family for MPI_Barrier (TGT 2010 §V.D): three barriers written with empty
 * PMPI point-to-point messages on the private communicator of mg_p2p_comm. Each keeps the
 * barrier's promise, no rank leaves before every rank entered, because every rank's exit waits on
 * a chain of messages from every rank's entry (tests/diff/barriertest.c checks it per row).
 *
 *   barrier_as_dissemination  ceil(log2 p) rounds; round k sends to rank + 2^k and receives from
 *                             rank - 2^k (Hensgen, Finkel and Manber): after round k a rank has
 *                             heard, directly or not, from the 2^(k+1) - 1 ranks before it.
 *                             Cost ceil(log2 p) x(0), a Sendrecv each (p2p_sched.h).
 *   barrier_as_binomial       fan-in to rank 0 along a binomial tree (a rank sends to its parent
 *                             once its children reached it), then fan-out along the same tree:
 *                             2 ceil(log2 p) rounds on the critical path.
 *   barrier_as_linear         rank 0 receives from every rank, then sends to every rank: p
 *                             requests at rank 0; Cost 2 (msg(0) + (p-2) max(g(0), o(0))).
 * No data, no restriction; the linear barrier's requests are its only scratch.
 */
#include "algs/algs.h"
#include "algs/p2p_sched.h"

/* Barrier <= Allreduce(1): each rank's result needs every rank's contribution. */
int mg_barrier_as_allreduce(const mg_call *c) {
  int x = 0;
  return PMPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_BOR, c->comm);
}

/* Barrier <= Reduce(1) + Bcast(1): rank 0 completes the reduce only after every rank entered,
 * and no rank completes the broadcast before rank 0 sent it. */
int mg_barrier_as_reduce_bcast(const mg_call *c) {
  int x = 0, y = 0;
  int rc = PMPI_Reduce(&x, &y, 1, MPI_INT, MPI_BOR, 0, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Bcast(&y, 1, MPI_INT, 0, c->comm);
}

int mg_barrier_as_dissemination(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, me = c->rank;
  MPI_Comm pc;
  int rc = mg_p2p_comm(c->comm, &pc);
  for (int d = 1; d < p && rc == MPI_SUCCESS; d <<= 1)
    rc = PMPI_Sendrecv(NULL, 0, MPI_BYTE, (me + d) % p, MG_P2P_TAG_BARRIER, NULL, 0, MPI_BYTE, (me - d + p) % p,
                       MG_P2P_TAG_BARRIER, pc, MPI_STATUS_IGNORE);
  return rc;
}

int mg_barrier_as_binomial(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, me = c->rank, low = mg_p2p_lowbit(me, p);
  MPI_Comm pc;
  int rc = mg_p2p_comm(c->comm, &pc);
  /* fan-in: from the children me + m (m < low), then to the parent me - low */
  for (int m = 1; m < low && me + m < p && rc == MPI_SUCCESS; m <<= 1)
    rc = PMPI_Recv(NULL, 0, MPI_BYTE, me + m, MG_P2P_TAG_BARRIER, pc, MPI_STATUS_IGNORE);
  if (me && rc == MPI_SUCCESS) rc = PMPI_Send(NULL, 0, MPI_BYTE, me - low, MG_P2P_TAG_BARRIER, pc);
  /* fan-out: from the parent, then to the children, farthest first */
  if (me && rc == MPI_SUCCESS) rc = PMPI_Recv(NULL, 0, MPI_BYTE, me - low, MG_P2P_TAG_BARRIER, pc, MPI_STATUS_IGNORE);
  for (int m = low / 2; m >= 1 && rc == MPI_SUCCESS; m >>= 1)
    if (me + m < p) rc = PMPI_Send(NULL, 0, MPI_BYTE, me + m, MG_P2P_TAG_BARRIER, pc);
  return rc;
}

size_t mg_barrier_as_linear_mem(const mg_call *c) { return (size_t)c->size * sizeof(MPI_Request); }

int mg_barrier_as_linear(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, nr = 0;
  MPI_Comm pc;
  int rc = mg_p2p_comm(c->comm, &pc);
  if (rc != MPI_SUCCESS) return rc;
  if (c->rank) {
    rc = PMPI_Send(NULL, 0, MPI_BYTE, 0, MG_P2P_TAG_BARRIER, pc);
    return rc == MPI_SUCCESS ? PMPI_Recv(NULL, 0, MPI_BYTE, 0, MG_P2P_TAG_BARRIER, pc, MPI_STATUS_IGNORE) : rc;
  }
  MPI_Request *rq = mg_scratch(mg_barrier_as_linear_mem(c));
  for (int i = 1; i < p && rc == MPI_SUCCESS; i++)
    if ((rc = PMPI_Irecv(NULL, 0, MPI_BYTE, i, MG_P2P_TAG_BARRIER, pc, &rq[nr])) == MPI_SUCCESS) nr++;
  rc = mg_p2p_waitall(nr, rq, rc);
  nr = 0;
  for (int i = 1; i < p && rc == MPI_SUCCESS; i++) /* every rank entered: release them */
    if ((rc = PMPI_Isend(NULL, 0, MPI_BYTE, i, MG_P2P_TAG_BARRIER, pc, &rq[nr])) == MPI_SUCCESS) nr++;
  return mg_p2p_waitall(nr, rq, rc);
}

/* ---- LogGP costs ---- */

double mg_cost_barrier_as_dissemination(const mg_loggp *m, int p, double n, int param) {
  (void)n, (void)param;
  return mg_p2p_log2_ceil(p) * mg_p2p_xchg(m, 0);
}

/* The binomial fan-in and fan-out of p2p_sched.h with empty messages. */
double mg_cost_barrier_as_binomial(const mg_loggp *m, int p, double n, int param) {
  (void)n, (void)param;
  return mg_p2p_fanin(m, p, 0) + mg_p2p_fanout(m, p, 0);
}

/* Rank 0 takes p-1 arrivals, one per max(g, o_r) after the first, then sends p-1 releases, one
 * per max(g, o_s), the last arriving msg(0) after it left. */
double mg_cost_barrier_as_linear(const mg_loggp *m, int p, double n, int param) {
  (void)n, (void)param;
  if (p <= 1) return 0;
  double in = mg_loggp_msg(m, 0) + (p - 2) * mg_p2p_max(mg_loggp_gap(m, 0), mg_loggp_or(m, 0));
  double out = (p - 2) * mg_p2p_max(mg_loggp_gap(m, 0), mg_loggp_os(m, 0)) + mg_loggp_msg(m, 0);
  return in + out;
}
