/*
 * The hierarchical family (registry.h, MG_FAMILIES: hier): a collective not slower than the
 * same collective composed along the node hierarchy, TPDS 2010 §VI eq. (38),
 *   Allreduce{c} <= ||Reduce{c_i} + Allreduce{C} + ||Bcast{c_i},
 * (c_i the ranks of node i, C one leader per node), and the lane decompositions of Träff and
 * Hunold ("Decomposing MPI collectives for exploiting multi-lane communication", Cluster 2020):
 * the k ranks of equal node-local index form a lane, and the k lanes work in parallel.
 *
 * <coll>_as_hier (param 0): a node-local step, a step among the node leaders (node-local rank 0),
 * a node-local step.
 *   allreduce  node Reduce to the leader, leaders' Allreduce, node Bcast. No scratch.
 *   bcast      the root's node: Bcast from the root; leaders: Bcast from the root node's leader;
 *              the other nodes: Bcast from the leader. No scratch.
 *   reduce     node Reduce to the leader, leaders' Reduce to the root node's leader, which sends
 *              the result to the root when it is not the root itself. Scratch 2 spans of count at
 *              the leaders (the second input avoids an in-place reduce at a root other than 0,
 *              which MPICH 4.0.2 crashes on from about 2 KiB; split.c).
 *   allgather  node Gather of the packed blocks to the leader, leaders' Allgatherv of the node
 *              blocks, node Bcast of the p blocks, each rank unpacks them to their ranks.
 *   gather     node Gather to the leader, leaders' Gatherv to the root node's leader, a Send of
 *              the p blocks to the root when it is not the leader, the root unpacks.
 *   scatter    the reverse: the root packs the blocks in node order (a Send to its leader when
 *              it is not the leader), leaders' Scatterv, node Scatter, unpack.
 *   barrier    node Barrier, leaders' Barrier, node Barrier.
 *   Scratch of the block collectives: p*n + n bytes and 2p ints (n: the per-rank block).
 * <coll>_as_lane (param 1), where every node has the same number k of ranks:
 *   allreduce  node Reduce_scatter into k blocks of whole elements, Allreduce of block i on lane
 *              i, node Allgatherv. Scratch: a span of the largest block, 2k ints.
 *   reduce     node Reduce_scatter, Reduce of block i on lane i to the root's node, node
 *              Gatherv to the root there. Scratch: 2 spans of the largest block, 2k ints.
 *   bcast      the root's node: Scatterv of k pieces of the packed vector from the root; lane i:
 *              Bcast of piece i from the root's node; node Allgatherv of the pieces. Scratch n
 *              bytes (the packed vector; the root receives into scratch, never into its buffer).
 *   allgather  lane Allgather of the own block, node Allgather of the lanes' blocks, unpack.
 *              Scratch (2p+1) n bytes.
 *   Not given a lane row: gather and scatter (a lane gather only moves the same bytes to the
 *   root's node in k pieces, then a node gather: the hier row with another first step), alltoall
 *   (a node alltoall then a lane alltoall needs a transpose of m x k x nnodes blocks on every rank,
 *   left for later), barrier (no data to split).
 * Not given a hier row: alltoall (the leaders would hold k*p*n bytes twice: scratch that depends
 * on the node structure, left for later).
 *
 * The node structure, per communicator: MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) on the call's
 * communicator, or, when MPIGUIDE_NODE_SIZE=k is set, simulated nodes of k consecutive ranks of
 * MPI_COMM_WORLD (node = world rank / k, a property of the process as a real node is, so a
 * communicator of every other rank sees nodes of fewer ranks). The ranks agree on k with one
 * allreduce when the structure is made; on disagreement (or an invalid value somewhere) every
 * rank uses the real structure, and the communicator's rank 0 warns once per process. Every rank
 * then holds the node of every rank (one allgather), so every decision below is the same on
 * every rank: nodes are numbered by their lowest rank, node-local ranks follow the rank order.
 *
 * Decided late, from the structure, alike on every rank (mg_late.why, and the default runs):
 * - MG_R_NODE_ORDER: a non-commutative op only where every node is a range of consecutive ranks
 *   (then node i's ranks all precede node i+1's, and the nodes' partial results combine in rank
 *   order); otherwise MG_WHY_NODE_ORDER.
 * - MG_R_REGULAR_NODES (lane rows): every node the same size; otherwise MG_WHY_IRREGULAR_NODES.
 *
 * The sub-communicators: made at the first call of a row on a communicator (collectively: every
 * rank runs the same row for the same call), from its private duplicate (mg_p2p_comm), so no user
 * message meets them: the node communicator (the ranks of this rank's node, in rank order) and the
 * lane communicator (the ranks of this rank's node-local index, in node order; lane 0 is the
 * leaders). Kept in a record cached on the communicator as an attribute, with the node table
 * (3p + nnodes + 1 ints); the attribute's delete callback marks the record, and the two
 * communicators are freed at the next structure made or at mg_core_finalize, never inside the
 * callback (as mg_p2p_comm does). Two communicators per communicator used, plus mg_p2p_comm's.
 *
 * Cost: the three steps' collectives on communicators of k and p/k ranks; the rows' expressions
 * (docs/model.md) price each step as the whole communicator's collective, an upper bound.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algs/algs.h"

/* ---- the node structure, cached per communicator ---- */

typedef struct hier_rec {
  MPI_Comm parent, node, lane;
  int p, nnodes, mynode, lrank, lsize;
  int regular;     /* every node has the same number of ranks */
  int consecutive; /* every node a range of consecutive ranks (so the nodes are in rank order) */
  int *node_of;    /* p: the node of each rank */
  int *pos_of;     /* p: the place of each rank in members[] */
  int *first;      /* nnodes + 1: node j's ranks are members[first[j] .. first[j+1]) */
  int *members;    /* p: the ranks node by node, each node's in rank order */
  int orphan;
  struct hier_rec *next;
} hier_rec;

static struct {
  pthread_mutex_t lock;
  int keyval;
  hier_rec *list;
} hier = {.lock = PTHREAD_MUTEX_INITIALIZER, .keyval = MPI_KEYVAL_INVALID};

static int hier_delete(MPI_Comm comm, int keyval, void *attr, void *extra) {
  (void)comm, (void)keyval, (void)extra;
  pthread_mutex_lock(&hier.lock);
  ((hier_rec *)attr)->orphan = 1;
  pthread_mutex_unlock(&hier.lock);
  return MPI_SUCCESS;
}

static void rec_free(hier_rec *r) {
  if (r->node != MPI_COMM_NULL) PMPI_Comm_free(&r->node);
  if (r->lane != MPI_COMM_NULL) PMPI_Comm_free(&r->lane);
  free(r->node_of);
  free(r);
}

static void sweep_orphans(void) {
  pthread_mutex_lock(&hier.lock);
  for (hier_rec **pp = &hier.list; *pp;) {
    hier_rec *r = *pp;
    if (!r->orphan) {
      pp = &r->next;
      continue;
    }
    *pp = r->next;
    rec_free(r);
  }
  pthread_mutex_unlock(&hier.lock);
}

/* MPIGUIDE_NODE_SIZE on this process: k >= 1, 0 unset; an invalid value is 0 here, with a note
 * (the other ranks' value then disagrees or is unset too). Read once. */
static int env_k = -1;
static pthread_once_t env_once = PTHREAD_ONCE_INIT;
static void env_read(void) {
  const char *s = getenv("MPIGUIDE_NODE_SIZE");
  char *end;
  long k = s && *s ? strtol(s, &end, 10) : 0;
  if (s && *s && (*end || k < 1 || k > INT_MAX)) {
    fprintf(stderr, "mpiguide: MPIGUIDE_NODE_SIZE='%s' is not a positive integer; ignored\n", s);
    k = 0;
  }
  env_k = (int)k;
}

static int warned;

typedef struct {
  int color, rank;
} color_rank;
static int by_color(const void *a, const void *b) {
  const color_rank *x = a, *y = b;
  if (x->color != y->color) return x->color < y->color ? -1 : 1;
  return (x->rank > y->rank) - (x->rank < y->rank);
}
static const color_rank *g_sorted; /* qsort of the group starts: no context argument in C11 */
static int by_first_rank(const void *a, const void *b) {
  int x = g_sorted[*(const int *)a].rank, y = g_sorted[*(const int *)b].rank;
  return (x > y) - (x < y);
}
static pthread_mutex_t sort_lock = PTHREAD_MUTEX_INITIALIZER;

/* The node table from every rank's node color, the same on every rank. */
static int table_make(hier_rec *r, const int *color, int me) {
  int p = r->p;
  color_rank *cr = malloc((size_t)p * sizeof *cr);
  int *start = malloc((size_t)p * sizeof *start); /* index in cr of each node's first rank */
  r->node_of = malloc((4 * (size_t)p + 1) * sizeof(int));
  if (!cr || !start || !r->node_of) {
    free(cr), free(start);
    return 0;
  }
  r->pos_of = r->node_of + p, r->members = r->pos_of + p, r->first = r->members + p;
  for (int i = 0; i < p; i++) cr[i] = (color_rank){color[i], i};
  qsort(cr, (size_t)p, sizeof *cr, by_color);
  int nn = 0;
  for (int i = 0; i < p; i++)
    if (i == 0 || cr[i].color != cr[i - 1].color) start[nn++] = i;
  pthread_mutex_lock(&sort_lock);
  g_sorted = cr;
  qsort(start, (size_t)nn, sizeof *start, by_first_rank);
  pthread_mutex_unlock(&sort_lock);
  r->nnodes = nn, r->regular = 1, r->consecutive = 1;
  int at = 0, size0 = 0;
  for (int j = 0; j < nn; j++) {
    int s = start[j], e = s;
    while (e < p && cr[e].color == cr[s].color) e++;
    r->first[j] = at;
    if (j == 0) size0 = e - s;
    if (e - s != size0) r->regular = 0;
    for (int i = s; i < e; i++, at++) {
      int rank = cr[i].rank;
      r->members[at] = rank, r->pos_of[rank] = at, r->node_of[rank] = j;
      if (rank != at) r->consecutive = 0;
      if (rank == me) r->mynode = j, r->lrank = i - s, r->lsize = e - s;
    }
  }
  r->first[nn] = p;
  free(cr), free(start);
  return 1;
}

/* The node structure of c->comm: made (collectively) at its first use, then looked up. */
static int hier_get(const mg_call *c, hier_rec **out) {
  hier_rec *r = NULL;
  int found = 0, rc;
  if (hier.keyval == MPI_KEYVAL_INVALID) { /* first use; keyvals are process-wide */
    pthread_mutex_lock(&hier.lock);
    rc = hier.keyval == MPI_KEYVAL_INVALID
             ? PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, hier_delete, &hier.keyval, NULL)
             : MPI_SUCCESS;
    pthread_mutex_unlock(&hier.lock);
    if (rc != MPI_SUCCESS) return rc;
  }
  rc = PMPI_Comm_get_attr(c->comm, hier.keyval, &r, &found);
  if (rc != MPI_SUCCESS) return rc;
  if (found) {
    *out = r;
    return MPI_SUCCESS;
  }
  sweep_orphans();
  pthread_once(&env_once, env_read);
  MPI_Comm pc, sc = MPI_COMM_NULL;
  int k = env_k, agree[2] = {k, -k}, both[2], world = 0, color = 0, *colors = NULL;
  if ((rc = mg_p2p_comm(c->comm, &pc)) != MPI_SUCCESS) return rc;
  if ((rc = PMPI_Allreduce(agree, both, 2, MPI_INT, MPI_MIN, pc)) != MPI_SUCCESS) return rc;
  if (both[0] != -both[1]) { /* some rank has another value, or none */
    if (c->rank == 0 && !__atomic_exchange_n(&warned, 1, __ATOMIC_RELAXED))
      fprintf(stderr, "mpiguide: the ranks disagree on MPIGUIDE_NODE_SIZE (from %d to %d); the hierarchical "
                      "rows use the real node structure\n", both[0], -both[1]);
    k = 0;
  }
  if (k > 0) {
    if ((rc = PMPI_Comm_rank(MPI_COMM_WORLD, &world)) != MPI_SUCCESS) return rc;
    color = world / k;
  } else {
    if ((rc = PMPI_Comm_split_type(pc, MPI_COMM_TYPE_SHARED, c->rank, MPI_INFO_NULL, &sc)) != MPI_SUCCESS) return rc;
    rc = PMPI_Allreduce(&c->rank, &color, 1, MPI_INT, MPI_MIN, sc); /* a node's name: its lowest rank */
  }
  r = calloc(1, sizeof *r);
  colors = malloc((size_t)c->size * sizeof *colors);
  if (!r || !colors) {
    fprintf(stderr, "mpiguide: out of memory for a node structure; aborting the job\n");
    PMPI_Abort(MPI_COMM_WORLD, 1);
    return MPI_ERR_NO_MEM;
  }
  r->parent = c->comm, r->node = sc, r->lane = MPI_COMM_NULL, r->p = c->size;
  if (rc == MPI_SUCCESS) rc = PMPI_Allgather(&color, 1, MPI_INT, colors, 1, MPI_INT, pc);
  if (rc == MPI_SUCCESS && !table_make(r, colors, c->rank)) {
    fprintf(stderr, "mpiguide: out of memory for a node structure; aborting the job\n");
    PMPI_Abort(MPI_COMM_WORLD, 1);
    rc = MPI_ERR_NO_MEM;
  }
  free(colors);
  if (rc == MPI_SUCCESS && r->node == MPI_COMM_NULL) rc = PMPI_Comm_split(pc, r->mynode, c->rank, &r->node);
  if (rc == MPI_SUCCESS) rc = PMPI_Comm_split(pc, r->lrank, r->mynode, &r->lane);
  if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_attr(c->comm, hier.keyval, r);
  if (rc != MPI_SUCCESS) {
    rec_free(r);
    return rc;
  }
  pthread_mutex_lock(&hier.lock);
  r->next = hier.list;
  hier.list = r;
  pthread_mutex_unlock(&hier.lock);
  *out = r;
  return MPI_SUCCESS;
}

/* Before MPI_Finalize: detach every record from its communicator, then free them. */
void mg_hier_finalize(void) {
  for (;;) {
    MPI_Comm parent = MPI_COMM_NULL;
    pthread_mutex_lock(&hier.lock);
    for (hier_rec *r = hier.list; r && parent == MPI_COMM_NULL; r = r->next)
      if (!r->orphan) parent = r->parent;
    pthread_mutex_unlock(&hier.lock);
    if (parent == MPI_COMM_NULL) break;
    if (PMPI_Comm_delete_attr(parent, hier.keyval) != MPI_SUCCESS) { /* cannot happen; never loop */
      pthread_mutex_lock(&hier.lock);
      for (hier_rec *r = hier.list; r; r = r->next) r->orphan = 1;
      pthread_mutex_unlock(&hier.lock);
    }
  }
  sweep_orphans();
  if (hier.keyval != MPI_KEYVAL_INVALID) PMPI_Comm_free_keyval(&hier.keyval);
}

/* The late restrictions (above): 1 when the row may run; else 0 with the reason in mg_late.why. */
static int nodes_ok(const mg_call *c, const hier_rec *h, int lane) {
  int commute = 1;
  if (mg_colls[c->coll].reduction) PMPI_Op_commutative(c->op, &commute);
  mg_late.why = lane && !h->regular ? MG_WHY_IRREGULAR_NODES
                : !commute && !h->consecutive ? MG_WHY_NODE_ORDER : MG_WHY_NONE;
  return mg_late.why == MG_WHY_NONE;
}

/* ---- the hierarchical rows ---- */

static int allreduce_hier(const mg_call *c, const hier_rec *h) {
  int leader = h->lrank == 0, rc;
  const void *s = c->sbuf == MPI_IN_PLACE ? (leader ? MPI_IN_PLACE : c->rbuf) : c->sbuf;
  rc = PMPI_Reduce(s, leader ? c->rbuf : NULL, c->rcount, c->rtype, c->op, 0, h->node);
  if (rc == MPI_SUCCESS && leader) rc = PMPI_Allreduce(MPI_IN_PLACE, c->rbuf, c->rcount, c->rtype, c->op, h->lane);
  if (rc == MPI_SUCCESS) rc = PMPI_Bcast(c->rbuf, c->rcount, c->rtype, 0, h->node);
  return rc;
}

static int bcast_hier(const mg_call *c, const hier_rec *h) {
  int R = h->node_of[c->root], rc = MPI_SUCCESS;
  if (h->mynode == R) rc = PMPI_Bcast(c->rbuf, c->rcount, c->rtype, h->pos_of[c->root] - h->first[R], h->node);
  if (rc == MPI_SUCCESS && h->lrank == 0) rc = PMPI_Bcast(c->rbuf, c->rcount, c->rtype, R, h->lane);
  if (rc == MPI_SUCCESS && h->mynode != R) rc = PMPI_Bcast(c->rbuf, c->rcount, c->rtype, 0, h->node);
  return rc;
}

static size_t reduce_hier_mem(const mg_call *c) {
  mg_type t;
  return mg_type_get(c->rtype, &t) == MPI_SUCCESS ? 2 * mg_align(mg_type_span(&t, (size_t)c->rcount)) : 0;
}

static int reduce_hier(const mg_call *c, const hier_rec *h) {
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
  char *cur = mg_scratch(2 * span);
  void *t1 = mg_type_base(mg_carve(&cur, span), &t), *t2 = mg_type_base(mg_carve(&cur, span), &t);
  rc = PMPI_Reduce(s, t1, c->rcount, c->rtype, c->op, 0, h->node);
  if (rc == MPI_SUCCESS)
    rc = PMPI_Reduce(t1, me_root ? c->rbuf : t2, c->rcount, c->rtype, c->op, R, h->lane);
  if (rc == MPI_SUCCESS && h->mynode == R && !me_root) rc = PMPI_Send(t2, c->rcount, c->rtype, lr, 0, h->node);
  return rc;
}

static int barrier_hier(const mg_call *c, const hier_rec *h) {
  (void)c;
  int rc = PMPI_Barrier(h->node);
  if (rc == MPI_SUCCESS && h->lrank == 0) rc = PMPI_Barrier(h->lane);
  if (rc == MPI_SUCCESS) rc = PMPI_Barrier(h->node);
  return rc;
}

/* The block collectives: the p blocks of n bytes in node order (members[]) in V. */
static size_t blocks_mem(const mg_call *c) {
  size_t p = (size_t)c->size;
  return mg_align(p * c->bytes) + mg_align(c->bytes) + mg_align(2 * p * sizeof(int));
}

typedef struct blocks {
  char *V, *own;
  int *cnt, *dsp; /* per node: bytes and offset in V */
} blocks;

static void blocks_open(const mg_call *c, const hier_rec *h, blocks *b) {
  size_t p = (size_t)c->size, n = c->bytes;
  char *cur = mg_scratch(blocks_mem(c));
  b->V = mg_carve(&cur, p * n), b->own = mg_carve(&cur, n);
  b->cnt = mg_carve(&cur, 2 * p * sizeof(int)), b->dsp = b->cnt + h->nnodes;
  for (int j = 0; j < h->nnodes; j++)
    b->cnt[j] = (h->first[j + 1] - h->first[j]) * (int)n, b->dsp[j] = h->first[j] * (int)n;
}

/* Unpack V (node order) into the receive buffer, every block but `skip`'s (-1: none). */
static int blocks_unpack(const mg_call *c, const hier_rec *h, const blocks *b, int skip) {
  mg_type t;
  int rc = mg_type_get(c->rtype, &t), n = (int)c->bytes;
  if (rc != MPI_SUCCESS) return rc;
  if (h->consecutive && skip < 0) return mg_unpack(b->V, n * c->size, c->rbuf, c->rcount * c->size, c->rtype);
  for (int j = 0; j < c->size && rc == MPI_SUCCESS; j++)
    if (j != skip)
      rc = mg_unpack(b->V + (size_t)h->pos_of[j] * (size_t)n, n, mg_type_at(c->rbuf, &t, (size_t)j * (size_t)c->rcount),
                     c->rcount, c->rtype);
  return rc;
}

static int allgather_hier(const mg_call *c, const hier_rec *h) {
  blocks b;
  int n = (int)c->bytes, rc;
  blocks_open(c, h, &b);
  if ((rc = mg_pack_own(c, b.own)) != MPI_SUCCESS) return rc;
  rc = PMPI_Gather(b.own, n, MPI_BYTE, b.V + b.dsp[h->mynode], n, MPI_BYTE, 0, h->node);
  if (rc == MPI_SUCCESS && h->lrank == 0)
    rc = PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, b.V, b.cnt, b.dsp, MPI_BYTE, h->lane);
  if (rc == MPI_SUCCESS) rc = PMPI_Bcast(b.V, n * c->size, MPI_BYTE, 0, h->node);
  if (rc == MPI_SUCCESS) rc = blocks_unpack(c, h, &b, c->sbuf == MPI_IN_PLACE ? c->rank : -1);
  return rc;
}

static int gather_hier(const mg_call *c, const hier_rec *h) {
  blocks b;
  int n = (int)c->bytes, R = h->node_of[c->root], lr = h->pos_of[c->root] - h->first[R], me_root = c->rank == c->root;
  int rc;
  blocks_open(c, h, &b);
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
  if (rc == MPI_SUCCESS && me_root) rc = blocks_unpack(c, h, &b, c->sbuf == MPI_IN_PLACE ? c->rank : -1);
  return rc;
}

static int scatter_hier(const mg_call *c, const hier_rec *h) {
  blocks b;
  int n = (int)c->bytes, R = h->node_of[c->root], lr = h->pos_of[c->root] - h->first[R], me_root = c->rank == c->root;
  int rc = MPI_SUCCESS;
  blocks_open(c, h, &b);
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

/* ---- the lane rows (regular nodes: k = lsize ranks on every node) ---- */

/* Blocks of whole elements: block i of count over k, cnt[i] elements at dsp[i]. */
static void element_blocks(int count, int k, int *cnt, int *dsp) {
  for (int i = 0, at = 0; i < k; i++) cnt[i] = count / k + (i < count % k), dsp[i] = at, at += cnt[i];
}

static size_t lane_reduction_mem(const mg_call *c) {
  mg_type t;
  if (mg_type_get(c->rtype, &t) != MPI_SUCCESS) return 0;
  return 2 * mg_align(mg_type_span(&t, (size_t)c->rcount)) + mg_align(2 * (size_t)c->size * sizeof(int));
}

static int allreduce_lane(const mg_call *c, const hier_rec *h) {
  mg_type t;
  int rc = mg_type_get(c->rtype, &t), k = h->lsize;
  if (rc != MPI_SUCCESS) return rc;
  char *cur = mg_scratch(lane_reduction_mem(c));
  int *cnt = mg_carve(&cur, 2 * (size_t)k * sizeof(int)), *dsp = cnt + k, mine;
  element_blocks(c->rcount, k, cnt, dsp);
  mine = cnt[h->lrank];
  void *tmp = mg_type_base(mg_carve(&cur, mg_type_span(&t, (size_t)cnt[0])), &t);
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

static int reduce_lane(const mg_call *c, const hier_rec *h) {
  mg_type t;
  int rc = mg_type_get(c->rtype, &t), k = h->lsize, R = h->node_of[c->root];
  int lr = h->pos_of[c->root] - h->first[R], me_root = c->rank == c->root;
  if (rc != MPI_SUCCESS) return rc;
  char *cur = mg_scratch(lane_reduction_mem(c));
  int *cnt = mg_carve(&cur, 2 * (size_t)k * sizeof(int)), *dsp = cnt + k, mine;
  element_blocks(c->rcount, k, cnt, dsp);
  mine = cnt[h->lrank];
  size_t span = mg_type_span(&t, (size_t)cnt[0]);
  void *t1 = mg_type_base(mg_carve(&cur, span), &t), *t2 = mg_type_base(mg_carve(&cur, span), &t);
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

static size_t bcast_lane_mem(const mg_call *c) {
  return mg_align(c->bytes) + mg_align(2 * (size_t)c->size * sizeof(int));
}

static int bcast_lane(const mg_call *c, const hier_rec *h) {
  mg_type t;
  int rc = mg_type_get(c->rtype, &t), k = h->lsize, n = (int)c->bytes, R = h->node_of[c->root];
  int lr = h->pos_of[c->root] - h->first[R], me_root = c->rank == c->root, dense;
  if (rc != MPI_SUCCESS) return rc;
  dense = mg_type_is_dense(&t);
  char *cur = mg_scratch(bcast_lane_mem(c));
  int *cnt = mg_carve(&cur, 2 * (size_t)k * sizeof(int)), *dsp = cnt + k;
  char *S = mg_carve(&cur, c->bytes);
  element_blocks(n, k, cnt, dsp); /* pieces of bytes */
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

static size_t allgather_lane_mem(const mg_call *c) { return (2 * (size_t)c->size + 1) * mg_align(c->bytes); }

static int allgather_lane(const mg_call *c, const hier_rec *h) {
  mg_type t;
  int rc = mg_type_get(c->rtype, &t), n = (int)c->bytes, nn = h->nnodes, k = h->lsize;
  if (rc != MPI_SUCCESS) return rc;
  char *cur = mg_scratch(allgather_lane_mem(c));
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

/* ---- the family's entry points ---- */

typedef int (*hier_fn)(const mg_call *c, const hier_rec *h);

int mg_hier(const mg_call *c, int lane) {
  hier_fn fn = NULL;
  hier_rec *h;
  switch (c->coll) {
  case MG_ALLREDUCE: fn = lane ? allreduce_lane : allreduce_hier; break;
  case MG_BCAST: fn = lane ? bcast_lane : bcast_hier; break;
  case MG_REDUCE: fn = lane ? reduce_lane : reduce_hier; break;
  case MG_ALLGATHER: fn = lane ? allgather_lane : allgather_hier; break;
  case MG_GATHER: fn = lane ? NULL : gather_hier; break;
  case MG_SCATTER: fn = lane ? NULL : scatter_hier; break;
  case MG_BARRIER: fn = lane ? NULL : barrier_hier; break;
  default: break;
  }
  if (!fn) return mg_run(c, 0); /* no such row in the registry */
  int rc = hier_get(c, &h);
  if (rc != MPI_SUCCESS) return rc;
  if (!nodes_ok(c, h, lane)) return mg_run(c, 0);
  return fn(c, h);
}

int mg_hier_nodes(const mg_call *c, int *nnodes) {
  hier_rec *h;
  int rc = hier_get(c, &h);
  *nnodes = rc == MPI_SUCCESS ? h->nnodes : 0;
  return rc;
}

size_t mg_hier_mem(const mg_call *c) {
  switch (c->coll) {
  case MG_REDUCE: return reduce_hier_mem(c);
  case MG_ALLGATHER: case MG_GATHER: case MG_SCATTER: return blocks_mem(c);
  default: return 0;
  }
}

size_t mg_lane_mem(const mg_call *c) {
  switch (c->coll) {
  case MG_ALLREDUCE: case MG_REDUCE: return lane_reduction_mem(c);
  case MG_BCAST: return bcast_lane_mem(c);
  case MG_ALLGATHER: return allgather_lane_mem(c);
  default: return 0;
  }
}
