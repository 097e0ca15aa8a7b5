/*
 * The hierarchical rows of MPI_Barrier (registry rows barrier_as_hier; the family and the node
 * structure: hier_nodes.c, docs/hier.md).
 * barrier_as_hier, TPDS 2010 eq. (38): a node-local step, a step among the node leaders, a node-local step.

 */
#include <string.h>

#include "algs/hier.h"

static int barrier_hier(const mg_call *c, const mg_hier_rec *h) {
  (void)c;
  int rc = PMPI_Barrier(h->node);
  if (rc == MPI_SUCCESS && h->lrank == 0) rc = PMPI_Barrier(h->lane);
  if (rc == MPI_SUCCESS) rc = PMPI_Barrier(h->node);
  return rc;
}

int mg_barrier_as_hier(const mg_call *c, int unused) {
  (void)unused;
  return mg_hier_run(c, 0, barrier_hier);
}
