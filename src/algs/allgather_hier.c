/*
 * The hierarchical rows of MPI_Allgather (the family, and the node structure the rows share:
 * hier_nodes.c; docs/hier.md).
 * allgather_as_hier (TPDS 2010 eq. 38, mg_allgather_as_hier): node Gather of the packed blocks
 *   to the leader, leaders' Allgatherv of the node blocks, node Bcast of the p blocks, each
 *   rank unpacks them to their ranks.
 * allgather_as_lane (every node the same number k of ranks; Träff and Hunold, Cluster 2020;
 *   mg_allgather_as_lane): lane Allgather of the own block, node Allgather of the lanes'
 *   blocks, unpack. Scratch (2p+1) n bytes.
 * The scratch of the hier row: p*n + n bytes and 2p ints (n: the per-rank block;
 *   mg_hier_blocks_mem).
 */
#include "algs/hier.h"

static int allgather_hier(const mg_call *c, const mg_hier_rec *h) {
  mg_hier_blocks b;
  int n = (int)c->bytes, rc;
  mg_hier_blocks_open(c, h, &b);
  if ((rc = mg_pack_own(c, b.own)) != MPI_SUCCESS) return rc;
  rc = PMPI_Gather(b.own, n, MPI_BYTE, b.V + b.dsp[h->mynode], n, MPI_BYTE, 0, h->node);
  if (rc == MPI_SUCCESS && h->lrank == 0)
    rc = PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, b.V, b.cnt, b.dsp, MPI_BYTE, h->lane);
  if (rc == MPI_SUCCESS) rc = PMPI_Bcast(b.V, n * c->size, MPI_BYTE, 0, h->node);
  if (rc == MPI_SUCCESS) rc = mg_hier_blocks_unpack(c, h, &b, c->sbuf == MPI_IN_PLACE ? c->rank : -1);
  return rc;
}

int mg_allgather_as_hier(const mg_call *c, int unused) { return mg_hier_run(c, 0, allgather_hier); }

size_t mg_allgather_as_lane_mem(const mg_call *c) { return (2 * (size_t)c->size + 1) * mg_align(c->bytes); }

static int allgather_lane(const mg_call *c, const mg_hier_rec *h) {
  mg_type t;
  int rc = mg_type_get(c->rtype, &t), n = (int)c->bytes, nn = h->nnodes, k = h->lsize;
  if (rc != MPI_SUCCESS) return rc;
  char *cur = mg_scratch_data(mg_allgather_as_lane_mem(c));
  char *own = mg_carve(&cur, c->bytes), *L = mg_carve(&cur, (size_t)nn * c->bytes), *W = mg_carve(&cur, (size_t)c->size * c->bytes);
  if ((rc = mg_pack_own(c, own)) != MPI_SUCCESS) return rc;
  rc = PMPI_Allgather(own, n, MPI_BYTE, L, n, MPI_BYTE, h->lane);             /* L[j]: node j's rank of my lane */
  if (rc == MPI_SUCCESS) rc = PMPI_Allgather(L, nn * n, MPI_BYTE, W, nn * n, MPI_BYTE, h->node); /* W[l][j] */
  for (int l = 0; l < k && rc == MPI_SUCCESS; l++)
    for (int j = 0; j < nn && rc == MPI_SUCCESS; j++) {
      int rank = h->members[h->first[j] + l];
      if (c->sbuf == MPI_IN_PLACE && rank == c->rank) continue;
      rc = mg_unpack(W + ((size_t)l * (size_t)nn + (size_t)j) * (size_t)n, n,
                     mg_type_at(c->rbuf, &t, (size_t)rank * (size_t)c->rcount), c->rcount, c->rtype);
    }
  return rc;
}

int mg_allgather_as_lane(const mg_call *c, int unused) { return mg_hier_run(c, 1, allgather_lane); }
