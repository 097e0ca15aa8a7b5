/*
 * The hierarchical rows of MPI_Gather (the family, and the node structure the rows share:
 * hier_nodes.c; docs/hier.md).
 * gather_as_hier (TPDS 2010 eq. 38, mg_gather_as_hier): node Gather to the leader, leaders'
 *   Gatherv to the root node's leader, a Send of the p blocks to the root when it is not the
 *   leader, the root unpacks.
 * The scratch of the hier row: p*n + n bytes and 2p ints (n: the per-rank block;
 *   mg_hier_blocks_mem).
 */
#include "algs/hier.h"

static int gather_hier(const mg_call *c, const mg_hier_rec *h) {
  mg_hier_blocks b;
  int n = (int)c->bytes, R = h->node_of[c->root], lr = h->pos_of[c->root] - h->first[R], me_root = c->rank == c->root;
  int rc;
  mg_hier_blocks_open(c, h, &b);
  if ((rc = mg_pack_own(c, b.own)) != MPI_SUCCESS) return rc;
  rc = PMPI_Gather(b.own, n, MPI_BYTE, b.V + b.dsp[h->mynode], n, MPI_BYTE, 0, h->node);
  if (rc == MPI_SUCCESS && h->lrank == 0)
    rc = h->mynode == R ? PMPI_Gatherv(MPI_IN_PLACE, 0, MPI_BYTE, b.V, b.cnt, b.dsp, MPI_BYTE, R, h->lane)
                        : PMPI_Gatherv(b.V + b.dsp[h->mynode], b.cnt[h->mynode], MPI_BYTE, NULL, NULL, NULL, MPI_BYTE,
                                       R, h->lane);
  if (rc == MPI_SUCCESS && h->mynode == R && lr != 0) {
    if (h->lrank == 0) rc = PMPI_Send(b.V, n * c->size, MPI_BYTE, lr, 0, h->node);
    if (me_root) rc = PMPI_Recv(b.V, n * c->size, MPI_BYTE, 0, 0, h->node, MPI_STATUS_IGNORE);
  }
  if (rc == MPI_SUCCESS && me_root) rc = mg_hier_blocks_unpack(c, h, &b, c->sbuf == MPI_IN_PLACE ? c->rank : -1);
  return rc;
}

int mg_gather_as_hier(const mg_call *c, int unused) { return mg_hier_run(c, 0, gather_hier); }
