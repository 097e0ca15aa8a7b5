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
 */
#include "algs/algs.h"

/* Start MPI_I<coll> with c's arguments; its request in *q (`bench --overlap` computes while it
 * runs). An MPI code; MPI_ERR_INTERN for an operation without a non-blocking form. */
int mg_nonblocking_start(const mg_call *c, MPI_Request *q) {
  int rc;
  switch (c->coll) {
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
  case MG_ALLTOALLV:
    rc = PMPI_Ialltoallv(c->sbuf, c->scounts, c->sdispls, c->stype, c->rbuf, c->rcounts, c->rdispls, c->rtype, c->comm,
                         q);
    break;
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

int mg_nonblocking(const mg_call *c, int unused) {
  (void)unused;
  MPI_Request q;
  int rc = mg_nonblocking_start(c, &q);
  return rc != MPI_SUCCESS ? rc : PMPI_Wait(&q, MPI_STATUS_IGNORE);
}
