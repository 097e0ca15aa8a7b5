/*
 * The hierarchical rows of MPI_Allreduce (the family, and the node structure the rows share:
 * hier_nodes.c; docs/hier.md).
 * allreduce_as_hier (TPDS 2010 eq. 38, mg_allreduce_as_hier): node Reduce to the leader,
 *   leaders' Allreduce, node Bcast. No scratch.
 * allreduce_as_lane (every node the same number k of ranks; Träff and Hunold, Cluster 2020;
 *   mg_allreduce_as_lane): node Reduce_scatter into k blocks of whole elements, Allreduce of
 *   block i on lane i, node Allgatherv. Scratch: a span of the largest block, 2k ints.
 */
#include "algs/hier.h"

static int allreduce_hier(const mg_call *c, const mg_hier_rec *h) {
  int leader = h->lrank == 0, rc;
  const void *s = c->sbuf == MPI_IN_PLACE ? (leader ? MPI_IN_PLACE : c->rbuf) : c->sbuf;
  rc = PMPI_Reduce(s, leader ? c->rbuf : NULL, c->rcount, c->rtype, c->op, 0, h->node);
  if (rc == MPI_SUCCESS && leader) rc = PMPI_Allreduce(MPI_IN_PLACE, c->rbuf, c->rcount, c->rtype, c->op, h->lane);
  if (rc == MPI_SUCCESS) rc = PMPI_Bcast(c->rbuf, c->rcount, c->rtype, 0, h->node);
  return rc;
}

int mg_allreduce_as_hier(const mg_call *c, int unused) { return mg_hier_run(c, 0, allreduce_hier); }

static int allreduce_lane(const mg_call *c, const mg_hier_rec *h) {
  mg_lane_blocks b;
  int rc = mg_lane_blocks_open(c, h, &b);
  if (rc != MPI_SUCCESS) return rc;
  int *cnt = b.cnt, *dsp = b.dsp, mine = b.mine;
  void *tmp = b.t1;
  if (c->sbuf == MPI_IN_PLACE) { /* the own block lands at the start of the buffer */
    rc = PMPI_Reduce_scatter(MPI_IN_PLACE, c->rbuf, cnt, c->rtype, c->op, h->node);
    if (rc == MPI_SUCCESS) rc = PMPI_Allreduce(c->rbuf, tmp, mine, c->rtype, c->op, h->lane);
  } else {
    rc = PMPI_Reduce_scatter(c->sbuf, tmp, cnt, c->rtype, c->op, h->node);
    if (rc == MPI_SUCCESS) rc = PMPI_Allreduce(MPI_IN_PLACE, tmp, mine, c->rtype, c->op, h->lane);
  }
  if (rc == MPI_SUCCESS) rc = PMPI_Allgatherv(tmp, mine, c->rtype, c->rbuf, cnt, dsp, c->rtype, h->node);
  return rc;
}

int mg_allreduce_as_lane(const mg_call *c, int unused) { return mg_hier_run(c, 1, allreduce_lane); }
