/*
 * The non-blocking family: a blocking collective must not be slower than its
 * non-blocking form followed at once by a wait (by analogy with Träff, Gropp
 * and Thakur, TPDS 2010, eqs. (5)-(7) for MPI_Send and MPI_Isend + MPI_Wait).
 * A library whose blocking call takes a slower path than the schedule of its
 * non-blocking one (libnbc in Open MPI, MPICH's transport-level schedules) is
 * inconsistent, and I<coll> + Wait is the repair. One function for every
 * collective: the same arguments to PMPI_I<coll>, then PMPI_Wait. No scratch,
 * no restriction: every legal blocking call is a legal non-blocking one
 * (MPI-3.0), in place included. Cost: the non-blocking schedule's, plus
 * creating and completing one request.
 *
 * One repair, alltoallv: Open MPI 4.1.4's MPI_Ialltoallv (libnbc) posts a send
 * for every non-zero sendcount and a receive for every non-zero recvcount,
 * whatever the size of the datatype. An empty message that the two ends count
 * differently (legal: count 1 of an empty datatype on one side, count 0 of
 * MPI_INT on the other, as in MPICH's test coll/alltoallw_zeros) then leaves a
 * receive that no send matches, and the wait never returns (or a send that no
 * receive matches, left behind). MPI_Alltoallv and MPI_Ialltoallw of the same
 * library are right. So a side whose datatype is empty (size 0) passes zeros
 * for its counts: the same, empty, type signature, and both ends then count 0
 * whatever the peer's datatype. Each rank decides for its own side and calls
 * the same collective either way, so the ranks need not agree. Not a
 * restriction: a call that ran the default on some ranks only (the ones with
 * an empty datatype) and I<coll> + Wait on the others would mix a blocking and
 * a non-blocking collective, which never match. Scratch: p ints (the zeros).
 */
#include <string.h>

#include "algs/algs.h"

size_t mg_nonblocking_mem(const mg_call *c) {
  return c->coll == MG_ALLTOALLV ? mg_align((size_t)c->size * sizeof(int)) : 0;
}

/* counts, or p zeros (from *zeros, made on first use) when dt is empty: see above. */
static const int *empty_side_counts(const int *counts, MPI_Datatype dt, int p, int **zeros) {
  if (mg_type_bytes(1, dt) != 0) return counts;
  if (!*zeros) {
    *zeros = mg_scratch((size_t)p * sizeof(int));
    memset(*zeros, 0, (size_t)p * sizeof(int));
  }
  return *zeros;
}

/* Start MPI_I<k> with c's arguments (c describes the call as collective k: its own coll, or for a
 * non-blocking operation's call its blocking twin); its request in *q (`bench --overlap` computes
 * while it runs). An MPI code; MPI_ERR_INTERN for an operation without a non-blocking form. */
int mg_nonblocking_start_as(const mg_call *c, mg_coll k, MPI_Request *q) {
  int rc;
  switch (k) {
  case MG_ALLGATHER:
    rc = PMPI_Iallgather(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->comm, q);
    break;
  case MG_ALLGATHERV:
    rc = PMPI_Iallgatherv(c->sbuf, c->scount, c->stype, c->rbuf, c->rcounts, c->rdispls, c->rtype, c->comm, q);
    break;
  case MG_ALLREDUCE: rc = PMPI_Iallreduce(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, c->comm, q); break;
  case MG_ALLTOALL:
    rc = PMPI_Ialltoall(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->comm, q);
    break;
  case MG_ALLTOALLV: { /* in place: the send side is not significant, and read nowhere */
    int *zeros = NULL;
    const int *sc = c->sbuf == MPI_IN_PLACE ? c->scounts : empty_side_counts(c->scounts, c->stype, c->size, &zeros);
    const int *rcs = empty_side_counts(c->rcounts, c->rtype, c->size, &zeros);
    rc = PMPI_Ialltoallv(c->sbuf, sc, c->sdispls, c->stype, c->rbuf, rcs, c->rdispls, c->rtype, c->comm, q);
    break;
  }
  case MG_ALLTOALLW:
    rc = PMPI_Ialltoallw(c->sbuf, c->scounts, c->sdispls, c->stypes, c->rbuf, c->rcounts, c->rdispls, c->rtypes,
                         c->comm, q);
    break;
  case MG_BARRIER: rc = PMPI_Ibarrier(c->comm, q); break;
  case MG_BCAST: rc = PMPI_Ibcast(c->rbuf, c->rcount, c->rtype, c->root, c->comm, q); break;
  case MG_EXSCAN: rc = PMPI_Iexscan(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, c->comm, q); break;
  case MG_GATHER:
    rc = PMPI_Igather(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->root, c->comm, q);
    break;
  case MG_GATHERV:
    rc = PMPI_Igatherv(c->sbuf, c->scount, c->stype, c->rbuf, c->rcounts, c->rdispls, c->rtype, c->root, c->comm, q);
    break;
  case MG_REDUCE: rc = PMPI_Ireduce(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, c->root, c->comm, q); break;
  case MG_REDUCE_SCATTER:
    rc = PMPI_Ireduce_scatter(c->sbuf, c->rbuf, c->rcounts, c->rtype, c->op, c->comm, q);
    break;
  case MG_REDUCE_SCATTER_BLOCK:
    rc = PMPI_Ireduce_scatter_block(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, c->comm, q);
    break;
  case MG_SCAN: rc = PMPI_Iscan(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, c->comm, q); break;
  case MG_SCATTER:
    rc = PMPI_Iscatter(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->root, c->comm, q);
    break;
  case MG_SCATTERV:
    rc = PMPI_Iscatterv(c->sbuf, c->scounts, c->sdispls, c->stype, c->rbuf, c->rcount, c->rtype, c->root, c->comm, q);
    break;
  default: return MPI_ERR_INTERN;
  }
  return rc;
}

int mg_nonblocking_start(const mg_call *c, MPI_Request *q) { return mg_nonblocking_start_as(c, c->coll, q); }

int mg_nonblocking(const mg_call *c, int unused) {
  (void)unused;
  MPI_Request q;
  int rc = mg_nonblocking_start(c, &q);
  return rc != MPI_SUCCESS ? rc : PMPI_Wait(&q, MPI_STATUS_IGNORE);
}
