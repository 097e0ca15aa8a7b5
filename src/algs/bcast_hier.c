/*
 * The hierarchical rows of MPI_Bcast (the family, and the node structure the rows share:
 * hier_nodes.c; docs/hier.md).
 * bcast_as_hier (TPDS 2010 eq. 38, mg_bcast_as_hier): the root's node: Bcast from the root;
 *   leaders: Bcast from the root node's leader; the other nodes: Bcast from the leader. No
 *   scratch.
 * bcast_as_lane (every node the same number k of ranks; Träff and Hunold, Cluster 2020;
 *   mg_bcast_as_lane): the root's node: Scatterv of k pieces of the packed vector from the
 *   root; lane i: Bcast of piece i from the root's node; node Allgatherv of the pieces. Scratch
 *   n bytes (the packed vector; the root receives into scratch, never into its buffer).
 */
#include <string.h>

#include "algs/hier.h"

static int bcast_hier(const mg_call *c, const mg_hier_rec *h) {
  int R = h->node_of[c->root], rc = MPI_SUCCESS;
  if (h->mynode == R) rc = PMPI_Bcast(c->rbuf, c->rcount, c->rtype, h->pos_of[c->root] - h->first[R], h->node);
  if (rc == MPI_SUCCESS && h->lrank == 0) rc = PMPI_Bcast(c->rbuf, c->rcount, c->rtype, R, h->lane);
  if (rc == MPI_SUCCESS && h->mynode != R) rc = PMPI_Bcast(c->rbuf, c->rcount, c->rtype, 0, h->node);
  return rc;
}

int mg_bcast_as_hier(const mg_call *c, int unused) { return mg_hier_run(c, 0, bcast_hier); }

size_t mg_bcast_as_lane_mem(const mg_call *c) {
  return mg_align(c->bytes) + mg_align(2 * (size_t)c->size * sizeof(int));
}

static int bcast_lane(const mg_call *c, const mg_hier_rec *h) {
  mg_type t;
  int rc = mg_type_get(c->rtype, &t), k = h->lsize, n = (int)c->bytes, R = h->node_of[c->root];
  int lr = h->pos_of[c->root] - h->first[R], me_root = c->rank == c->root, dense;
  if (rc != MPI_SUCCESS) return rc;
  dense = mg_type_is_dense(&t);
  size_t ints = 2 * (size_t)c->size * sizeof(int); /* k <= p */
  char *S, *cur = mg_scratch_split(ints, mg_bcast_as_lane_mem(c) - mg_align(ints), &S);
  int *cnt = mg_carve(&cur, 2 * (size_t)k * sizeof(int)), *dsp = cnt + k;
  mg_hier_element_blocks(n, k, cnt, dsp); /* pieces of bytes */
  /* the image: the buffer of a dense non-root, else scratch (the root never receives into its buffer) */
  char *img = dense && !me_root ? c->rbuf : S;
  const char *src = img; /* what the root's node scatters */
  if (me_root) {
    src = dense ? (const char *)c->rbuf : S;
    if (!dense && (rc = mg_pack(c->rbuf, c->rcount, c->rtype, S, n)) != MPI_SUCCESS) return rc;
    if (dense) memcpy(S + dsp[lr], (const char *)c->rbuf + dsp[lr], (size_t)cnt[lr]);
  }
  if (h->mynode == R)
    rc = PMPI_Scatterv(src, cnt, dsp, MPI_BYTE, me_root ? MPI_IN_PLACE : img + dsp[h->lrank], cnt[h->lrank], MPI_BYTE,
                       lr, h->node);
  if (rc == MPI_SUCCESS) rc = PMPI_Bcast(img + dsp[h->lrank], cnt[h->lrank], MPI_BYTE, R, h->lane);
  if (rc == MPI_SUCCESS) rc = PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, img, cnt, dsp, MPI_BYTE, h->node);
  if (rc == MPI_SUCCESS && !me_root && !dense) rc = mg_unpack(img, n, c->rbuf, c->rcount, c->rtype);
  return rc;
}

int mg_bcast_as_lane(const mg_call *c, int unused) { return mg_hier_run(c, 1, bcast_lane); }
