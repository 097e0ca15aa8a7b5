/*
 * Row 0 of every collective: the MPI library's own implementation, called
 * through PMPI with the caller's arguments unchanged.
 */
#include "algs/algs.h"

int mg_allgather_default(const mg_call *c) {
  return PMPI_Allgather(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->comm);
}

int mg_allgatherv_default(const mg_call *c) {
  return PMPI_Allgatherv(c->sbuf, c->scount, c->stype, c->rbuf, c->rcounts, c->rdispls, c->rtype, c->comm);
}

int mg_allreduce_default(const mg_call *c) {
  return PMPI_Allreduce(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, c->comm);
}

int mg_alltoall_default(const mg_call *c) {
  return PMPI_Alltoall(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->comm);
}

int mg_barrier_default(const mg_call *c) { return PMPI_Barrier(c->comm); }

int mg_bcast_default(const mg_call *c) { return PMPI_Bcast(c->rbuf, c->rcount, c->rtype, c->root, c->comm); }

int mg_exscan_default(const mg_call *c) { return PMPI_Exscan(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, c->comm); }

int mg_gather_default(const mg_call *c) {
  return PMPI_Gather(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->root, c->comm);
}

int mg_reduce_default(const mg_call *c) {
  return PMPI_Reduce(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, c->root, c->comm);
}

int mg_reduce_scatter_default(const mg_call *c) {
  return PMPI_Reduce_scatter(c->sbuf, c->rbuf, c->rcounts, c->rtype, c->op, c->comm);
}

int mg_reduce_scatter_block_default(const mg_call *c) {
  return PMPI_Reduce_scatter_block(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, c->comm);
}

int mg_scan_default(const mg_call *c) { return PMPI_Scan(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, c->comm); }

int mg_scatter_default(const mg_call *c) {
  return PMPI_Scatter(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->root, c->comm);
}

int mg_alltoallv_default(const mg_call *c) {
  return PMPI_Alltoallv(c->sbuf, c->scounts, c->sdispls, c->stype, c->rbuf, c->rcounts, c->rdispls, c->rtype,
                        c->comm);
}

int mg_alltoallw_default(const mg_call *c) {
  return PMPI_Alltoallw(c->sbuf, c->scounts, c->sdispls, c->stypes, c->rbuf, c->rcounts, c->rdispls, c->rtypes,
                        c->comm);
}

int mg_gatherv_default(const mg_call *c) {
  return PMPI_Gatherv(c->sbuf, c->scount, c->stype, c->rbuf, c->rcounts, c->rdispls, c->rtype, c->root, c->comm);
}

int mg_scatterv_default(const mg_call *c) {
  return PMPI_Scatterv(c->sbuf, c->scounts, c->sdispls, c->stype, c->rbuf, c->rcount, c->rtype, c->root, c->comm);
}
