/*
 * The hierarchical family's shared pieces (src/algs/hier_nodes.c): the node structure of a
 * communicator, the entry every hier and lane row goes through, and the scratch layouts several
 * rows share. The rows themselves: src/algs/<coll>_hier.c, one file per collective, each row its
 * own function (mg_<coll>_as_hier, mg_<coll>_as_lane) named by its registry row.
 */
#ifndef MG_ALGS_HIER_H
#define MG_ALGS_HIER_H

#include "algs/algs.h"
#include "algs/comm_records.h"

/* A communicator's node structure, the same on every rank (hier_nodes.c: how it is made, kept and
 * freed). Node-local rank 0 is the node's leader; lane 0 is the leaders. */
typedef struct mg_hier_rec {
  mg_record rec; /* cached with the communicator (comm_records.h) */
  MPI_Comm node, lane;
  int p, nnodes, mynode, lrank, lsize;
  int regular;     /* every node has the same number of ranks */
  int consecutive; /* every node a range of consecutive ranks (so the nodes are in rank order) */
  int *node_of;    /* p: the node of each rank */
  int *pos_of;     /* p: the place of each rank in members[] */
  int *first;      /* nnodes + 1: node j's ranks are members[first[j] .. first[j+1]) */
  int *members;    /* p: the ranks node by node, each node's in rank order */
} mg_hier_rec;

/* A row's body: the call on the node structure h. */
typedef int (*mg_hier_body)(const mg_call *c, const mg_hier_rec *h);
/* Run a hier (lane = 0) or lane (lane = 1) row: make or look up the node structure (collectively,
 * at the communicator's first row), decide the late restrictions from it (MG_R_NODE_ORDER,
 * MG_R_REGULAR_NODES: mg_late.why, and the default runs), then body. A PMPI error passes through. */
int mg_hier_run(const mg_call *c, int lane, mg_hier_body body);

/* The block collectives' hier rows (allgather, gather, scatter): the p blocks of n bytes packed in
 * node order (members[]) in V, the own block in own, and per node its bytes and offset in V. */
typedef struct mg_hier_blocks {
  char *V, *own;
  int *cnt, *dsp; /* per node: bytes and offset in V */
} mg_hier_blocks;
/* Their scratch, p*n + n bytes and 2p ints (the rows' .mem), carved by mg_hier_blocks_open. */
size_t mg_hier_blocks_mem(const mg_call *c);
void mg_hier_blocks_open(const mg_call *c, const mg_hier_rec *h, mg_hier_blocks *b);
/* Unpack V (node order) into the receive buffer, every block but `skip`'s (-1: none). */
int mg_hier_blocks_unpack(const mg_call *c, const mg_hier_rec *h, const mg_hier_blocks *b, int skip);

/* count elements (bytes: bcast_as_lane's pieces) in k blocks of whole elements, cnt[i] at dsp[i]. */
void mg_hier_element_blocks(int count, int k, int *cnt, int *dsp);

/* The lane rows of the reductions (allreduce, reduce): the vector in k = lsize blocks of whole
 * elements, this rank's the one of its node-local index, and two buffers of the largest block
 * (cnt[0] elements of the call's datatype, at its base). Their scratch (the rows' .mem): 2 spans
 * of count elements and 2p ints. */
typedef struct mg_lane_blocks {
  int *cnt, *dsp; /* k blocks: cnt[i] elements at dsp[i] */
  int mine;       /* cnt[lrank] */
  void *t1, *t2;
} mg_lane_blocks;
size_t mg_lane_reduction_mem(const mg_call *c);
/* Carve them from the scratch; an error of the datatype's query passes through. */
int mg_lane_blocks_open(const mg_call *c, const mg_hier_rec *h, mg_lane_blocks *b);

#endif
