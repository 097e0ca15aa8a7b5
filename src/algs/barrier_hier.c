/*
 * The hierarchical row of MPI_Barrier (the family, and the node structure the rows share:
 * hier_nodes.c; docs/hier.md).
 * barrier_as_hier (TPDS 2010 eq. 38, mg_barrier_as_hier): node Barrier, leaders' Barrier, node
 *   Barrier. No scratch. No lane row: a barrier has no data to split.
 */
#include "algs/hier.h"

static int barrier_hier(const mg_call *c, const mg_hier_rec *h) {
  (void)c;
  int rc = PMPI_Barrier(h->node);
  if (rc == MPI_SUCCESS && h->lrank == 0) rc = PMPI_Barrier(h->lane);
  if (rc == MPI_SUCCESS) rc = PMPI_Barrier(h->node);
  return rc;
}

int mg_barrier_as_hier(const mg_call *c, int unused) { return mg_hier_run(c, 0, barrier_hier); }
