/*
 * The hierarchical rows of MPI_Reduce (the family, and the node structure the rows share:
 * hier_nodes.c; docs/hier.md).
 * reduce_as_hier (TPDS 2010 eq. 38, mg_reduce_as_hier): node Reduce to the leader, leaders'
 *   Reduce to the root node's leader, which sends the result to the root when it is not the
 *   root itself. Scratch 2 spans of count at the leaders (the second input avoids an in-place
 *   reduce at a root other than 0, which MPICH 4.0.2 crashes on from about 2 KiB; split.c).
 * reduce_as_lane (every node the same number k of ranks; Träff and Hunold, Cluster 2020;
 *   mg_reduce_as_lane): node Reduce_scatter, Reduce of block i on lane i to the root's node,
 *   node Gatherv to the root there. Scratch: 2 spans of the largest block, 2k ints.
 */
#include "algs/hier.h"

size_t mg_reduce_as_hier_mem(const mg_call *c) {
  mg_type t;
  return mg_type_get(c->rtype, &t) == MPI_SUCCESS ? 2 * mg_align(mg_type_span(&t, (size_t)c->rcount)) : 0;
}

static int reduce_hier(const mg_call *c, const mg_hier_rec *h) {
  int R = h->node_of[c->root], lr = h->pos_of[c->root] - h->first[R], me_root = c->rank == c->root, rc;
  const void *s = c->sbuf == MPI_IN_PLACE ? c->rbuf : c->sbuf; /* in place: at the root only */
  mg_type t;
  if ((rc = mg_type_get(c->rtype, &t)) != MPI_SUCCESS) return rc;
  if (h->lrank != 0) {
    rc = PMPI_Reduce(s, NULL, c->rcount, c->rtype, c->op, 0, h->node);
    if (rc == MPI_SUCCESS && me_root) rc = PMPI_Recv(c->rbuf, c->rcount, c->rtype, 0, 0, h->node, MPI_STATUS_IGNORE);
    return rc;
  }
  size_t span = mg_align(mg_type_span(&t, (size_t)c->rcount));
  char *cur = mg_scratch_data(2 * span);
  void *t1 = mg_type_base(mg_carve(&cur, span), &t), *t2 = mg_type_base(mg_carve(&cur, span), &t);
  rc = PMPI_Reduce(s, t1, c->rcount, c->rtype, c->op, 0, h->node);
  if (rc == MPI_SUCCESS)
    rc = PMPI_Reduce(t1, me_root ? c->rbuf : t2, c->rcount, c->rtype, c->op, R, h->lane);
  if (rc == MPI_SUCCESS && h->mynode == R && !me_root) rc = PMPI_Send(t2, c->rcount, c->rtype, lr, 0, h->node);
  return rc;
}

int mg_reduce_as_hier(const mg_call *c, int unused) { return mg_hier_run(c, 0, reduce_hier); }

static int reduce_lane(const mg_call *c, const mg_hier_rec *h) {
  mg_lane_blocks b;
  int rc = mg_lane_blocks_open(c, h, &b);
  if (rc != MPI_SUCCESS) return rc;
  int *cnt = b.cnt, *dsp = b.dsp, mine = b.mine, R = h->node_of[c->root];
  int lr = h->pos_of[c->root] - h->first[R], me_root = c->rank == c->root;
  void *t1 = b.t1, *t2 = b.t2;
  const void *s1 = t1;
  if (me_root && c->sbuf == MPI_IN_PLACE) { /* the own block lands at the start of the buffer */
    rc = PMPI_Reduce_scatter(MPI_IN_PLACE, c->rbuf, cnt, c->rtype, c->op, h->node);
    s1 = c->rbuf;
  } else {
    rc = PMPI_Reduce_scatter(c->sbuf, t1, cnt, c->rtype, c->op, h->node);
  }
  /* never in place: MPICH 4.0.2's in-place reduce at a root other than 0 crashes (split.c) */
  if (rc == MPI_SUCCESS) rc = PMPI_Reduce(s1, t2, mine, c->rtype, c->op, R, h->lane);
  if (rc == MPI_SUCCESS && h->mynode == R)
    rc = PMPI_Gatherv(t2, mine, c->rtype, c->rbuf, cnt, dsp, c->rtype, lr, h->node);
  return rc;
}

int mg_reduce_as_lane(const mg_call *c, int unused) { return mg_hier_run(c, 1, reduce_lane); }
