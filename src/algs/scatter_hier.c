/*
 * The hierarchical rows of MPI_Scatter (the family, and the node structure the rows share:
 * hier_nodes.c; docs/hier.md).
 * scatter_as_hier (TPDS 2010 eq. 38, mg_scatter_as_hier): the reverse: the root packs the
 *   blocks in node order (a Send to its leader when it is not the leader), leaders' Scatterv,
 *   node Scatter, unpack.
 * The scratch of the hier row: p*n + n bytes and 2p ints (n: the per-rank block;
 *   mg_hier_blocks_mem).
 */
#include "algs/hier.h"

static int scatter_hier(const mg_call *c, const mg_hier_rec *h) {
  mg_hier_blocks b;
  int n = (int)c->bytes, R = h->node_of[c->root], lr = h->pos_of[c->root] - h->first[R], me_root = c->rank == c->root;
  int rc = MPI_SUCCESS;
  mg_hier_blocks_open(c, h, &b);
  if (me_root) { /* the blocks in node order */
    mg_type t;
    if ((rc = mg_type_get(c->stype, &t)) != MPI_SUCCESS) return rc;
    if (h->consecutive)
      rc = mg_pack(c->sbuf, c->scount * c->size, c->stype, b.V, n * c->size);
    for (int j = 0; !h->consecutive && j < c->size && rc == MPI_SUCCESS; j++)
      rc = mg_pack(mg_type_at(c->sbuf, &t, (size_t)j * (size_t)c->scount), c->scount, c->stype,
                   b.V + (size_t)h->pos_of[j] * (size_t)n, n);
    if (rc == MPI_SUCCESS && lr != 0) rc = PMPI_Send(b.V, n * c->size, MPI_BYTE, 0, 0, h->node);
  } else if (h->mynode == R && h->lrank == 0 && lr != 0) {
    rc = PMPI_Recv(b.V, n * c->size, MPI_BYTE, lr, 0, h->node, MPI_STATUS_IGNORE);
  }
  if (rc == MPI_SUCCESS && h->lrank == 0)
    rc = h->mynode == R ? PMPI_Scatterv(b.V, b.cnt, b.dsp, MPI_BYTE, MPI_IN_PLACE, 0, MPI_BYTE, R, h->lane)
                        : PMPI_Scatterv(NULL, NULL, NULL, MPI_BYTE, b.V + b.dsp[h->mynode], b.cnt[h->mynode], MPI_BYTE,
                                        R, h->lane);
  if (rc == MPI_SUCCESS) rc = PMPI_Scatter(b.V + b.dsp[h->mynode], n, MPI_BYTE, b.own, n, MPI_BYTE, 0, h->node);
  if (rc == MPI_SUCCESS && !(me_root && c->rbuf == MPI_IN_PLACE))
    rc = mg_unpack(b.own, n, c->rbuf, c->rcount, c->rtype);
  return rc;
}

int mg_scatter_as_hier(const mg_call *c, int unused) { return mg_hier_run(c, 0, scatter_hier); }
