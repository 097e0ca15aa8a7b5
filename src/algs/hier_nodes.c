/*
 * The hierarchical family (registry.h, MG_FAMILIES: hier): a collective not slower than the
 * same collective composed along the node hierarchy, TPDS 2010 §VI eq. (38),
 *   Allreduce{c} <= ||Reduce{c_i} + Allreduce{C} + ||Bcast{c_i},
 * (c_i the ranks of node i, C one leader per node), and the lane decompositions of Träff and
 * Hunold ("Decomposing MPI collectives for exploiting multi-lane communication", Cluster 2020):
 * the k ranks of equal node-local index form a lane, and the k lanes work in parallel.
 *
 *
 * This file: the node structure the rows share, the entry every row goes through (mg_hier_run),
 * and the scratch layouts of several rows. The rows: <coll>_hier.c, one file per collective
 * (allreduce, bcast, reduce, allgather, gather, scatter, barrier), each row its own function.
 * Not given a hier row: alltoall (the leaders would hold k*p*n bytes twice: scratch that depends
 * on the node structure, left for later). Not given a lane row: gather and scatter (a lane gather
 * only moves the same bytes to the root's node in k pieces, then a node gather: the hier row with
 * another first step), alltoall (a node alltoall then a lane alltoall needs a transpose of
 * m x k x nnodes blocks on every rank, left for later), barrier (no data to split).
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

#include "algs/hier.h"

/* ---- the node structure, cached per communicator ---- */

static void rec_free(mg_record *rec) {
  mg_hier_rec *r = (mg_hier_rec *)rec;
  if (r->node != MPI_COMM_NULL) PMPI_Comm_free(&r->node);
  if (r->lane != MPI_COMM_NULL) PMPI_Comm_free(&r->lane);
  free(r->node_of);
  free(r);
}
static mg_records hier = MG_RECORDS_INIT(rec_free);

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
static int table_make(mg_hier_rec *r, const int *color, int me) {
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
static int hier_get(const mg_call *c, mg_hier_rec **out) {
  mg_hier_rec *r = NULL;
  mg_record *found;
  int rc = mg_records_find(&hier, c->comm, &found);
  if (rc != MPI_SUCCESS) return rc;
  if (found) {
    *out = (mg_hier_rec *)found;
    return MPI_SUCCESS;
  }
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
  r->node = sc, r->lane = MPI_COMM_NULL, r->p = c->size;
  if (rc == MPI_SUCCESS) rc = PMPI_Allgather(&color, 1, MPI_INT, colors, 1, MPI_INT, pc);
  if (rc == MPI_SUCCESS && !table_make(r, colors, c->rank)) {
    fprintf(stderr, "mpiguide: out of memory for a node structure; aborting the job\n");
    PMPI_Abort(MPI_COMM_WORLD, 1);
    rc = MPI_ERR_NO_MEM;
  }
  free(colors);
  if (rc == MPI_SUCCESS && r->node == MPI_COMM_NULL) rc = PMPI_Comm_split(pc, r->mynode, c->rank, &r->node);
  if (rc == MPI_SUCCESS) rc = PMPI_Comm_split(pc, r->lrank, r->mynode, &r->lane);
  if (rc == MPI_SUCCESS) rc = mg_records_add(&hier, c->comm, &r->rec);
  if (rc != MPI_SUCCESS) {
    rec_free(&r->rec);
    return rc;
  }
  *out = r;
  return MPI_SUCCESS;
}

/* Before MPI_Finalize: detach every record from its communicator, then free them. */
void mg_hier_finalize(void) { mg_records_finalize(&hier); }

/* The late restrictions (above): 1 when the row may run; else 0 with the reason in mg_late.why. */
static int nodes_ok(const mg_call *c, const mg_hier_rec *h, int lane) {
  int commute = 1;
  if (mg_colls[c->coll].reduction) PMPI_Op_commutative(c->op, &commute);
  mg_late.why = lane && !h->regular ? MG_WHY_IRREGULAR_NODES
                : !commute && !h->consecutive ? MG_WHY_NODE_ORDER : MG_WHY_NONE;
  return mg_late.why == MG_WHY_NONE;
}

int mg_hier_run(const mg_call *c, int lane, mg_hier_body body) {
  mg_hier_rec *h;
  int rc = hier_get(c, &h);
  if (rc != MPI_SUCCESS) return rc;
  if (!nodes_ok(c, h, lane)) return mg_run(c, 0);
  return body(c, h);
}

int mg_hier_nodes(const mg_call *c, int *nnodes) {
  mg_hier_rec *h;
  int rc = hier_get(c, &h);
  *nnodes = rc == MPI_SUCCESS ? h->nnodes : 0;
  return rc;
}

/* ---- scratch layouts the rows share ---- */

size_t mg_hier_blocks_mem(const mg_call *c) {
  size_t p = (size_t)c->size;
  return mg_align(p * c->bytes) + mg_align(c->bytes) + mg_align(2 * p * sizeof(int));
}

void mg_hier_blocks_open(const mg_call *c, const mg_hier_rec *h, mg_hier_blocks *b) {
  size_t p = (size_t)c->size, n = c->bytes;
  size_t ints = 2 * p * sizeof(int);
  char *dc, *cur = mg_scratch_split(ints, mg_hier_blocks_mem(c) - mg_align(ints), &dc);
  b->cnt = mg_carve(&cur, ints), b->dsp = b->cnt + h->nnodes;
  b->V = mg_carve(&dc, p * n), b->own = mg_carve(&dc, n);
  for (int j = 0; j < h->nnodes; j++)
    b->cnt[j] = (h->first[j + 1] - h->first[j]) * (int)n, b->dsp[j] = h->first[j] * (int)n;
}

int mg_hier_blocks_unpack(const mg_call *c, const mg_hier_rec *h, const mg_hier_blocks *b, int skip) {
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

void mg_hier_element_blocks(int count, int k, int *cnt, int *dsp) {
  for (int i = 0, at = 0; i < k; i++) cnt[i] = count / k + (i < count % k), dsp[i] = at, at += cnt[i];
}

size_t mg_lane_reduction_mem(const mg_call *c) {
  mg_type t;
  if (mg_type_get(c->rtype, &t) != MPI_SUCCESS) return 0;
  return 2 * mg_align(mg_type_span(&t, (size_t)c->rcount)) + mg_align(2 * (size_t)c->size * sizeof(int));
}

int mg_lane_blocks_open(const mg_call *c, const mg_hier_rec *h, mg_lane_blocks *b) {
  mg_type t;
  int rc = mg_type_get(c->rtype, &t), k = h->lsize;
  if (rc != MPI_SUCCESS) return rc;
  size_t ints = 2 * (size_t)c->size * sizeof(int); /* k <= p */
  char *dc, *cur = mg_scratch_split(ints, mg_lane_reduction_mem(c) - mg_align(ints), &dc);
  b->cnt = mg_carve(&cur, 2 * (size_t)k * sizeof(int)), b->dsp = b->cnt + k;
  mg_hier_element_blocks(c->rcount, k, b->cnt, b->dsp);
  b->mine = b->cnt[h->lrank];
  size_t span = mg_type_span(&t, (size_t)b->cnt[0]);
  b->t1 = mg_type_base(mg_carve(&dc, span), &t), b->t2 = mg_type_base(mg_carve(&dc, span), &t);
  return MPI_SUCCESS;
}
