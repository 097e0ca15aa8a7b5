/*
 * The neighbourhood collectives (registry.h, MG_NEIGHBOR_OPS; the rows: rows_neighbor.c): the
 * library's own (row 0) and the two compositions of TGT 2010's meta-rules, both blocking and
 * self-contained, so that libmpiguide may run them in an application:
 * - mg_neighbor_as_isend_irecv (meta-rule IV): MPI_Irecv from each in-neighbour into its slot,
 *   MPI_Isend of each out-neighbour's block, MPI_Waitall, on the communicator's private duplicate
 *   (mg_p2p_comm: no receive of the application can match them). On a Cartesian topology the
 *   neighbours of dimension d are, in this order, the -1 and the +1 neighbour (MPI_Cart_shift's
 *   source and destination), and a block sent to the -1 neighbour lands in that rank's slot of its
 *   +1 neighbour: the tag names the receiver's slot (2d + 1 for a send to the -1 neighbour, 2d for
 *   one to the +1 neighbour, s for a receive into slot s), since in a periodic dimension of size 1
 *   or 2 one rank is both neighbours and order alone would match the blocks crosswise. The MPI
 *   libraries disagree where a peer gets two blocks, though (nbrtest found it): on a periodic
 *   dimension of size 1 or 2, Open MPI 4.1.4 and MPICH 4.0.2's MPI_Neighbor_alltoall put the
 *   block sent to the -1 neighbour in the receiver's +1 slot, MPICH 4.0.2's MPI_Neighbor_alltoallv
 *   and _alltoallw match the two edges in order; on a multigraph MPICH 4.0.2's
 *   MPI_Neighbor_alltoall does not match them in order. So wherever the topology gives a peer two
 *   blocks this row too runs the library's own, with MG_WHY_TWO_BLOCKS, decided alike on every
 *   rank as for the Alltoallv row (below). MPI_PROC_NULL
 *   neighbours (non-periodic borders) are posted like the others: MPI completes them at once and
 *   touches neither block. A graph's edges (MPI_Graph_neighbors, MPI_Dist_graph_neighbors) carry
 *   one tag (at most one edge per pair reaches the row).
 * - mg_neighbor_as_alltoallv (meta-rule III): MPI_Alltoallv over the whole communicator (neighbor
 *   _alltoallw: MPI_Alltoallw) with zero counts for the non-neighbours. It holds one block per peer
 *   and side, so where the topology gives a peer two blocks (a multigraph; a periodic Cartesian
 *   dimension of size 1 or 2) it runs the default instead, with MG_WHY_TWO_BLOCKS (mg_late). The
 *   decision must be the same on every rank, or some ranks would wait in an alltoallv and the
 *   others in the neighbourhood collective: a Cartesian or graph communicator's ranks all know the
 *   whole topology (MPI_Cart_get, MPI_Graph_get); a distributed graph's rank knows its own edges
 *   only, so its ranks agree by one MPI_Allreduce at the row's first call on the communicator, kept
 *   with it. A displacement that does not fit the general call's int (a block's offset past
 *   INT_MAX elements; neighbor_alltoallw's MPI_Aint bytes) is carried by a datatype of its own for
 *   that block (a contiguous run of the call's count, an hindexed block at its byte offset), made
 *   and freed around the call: a rank-local condition, so no fallback that another rank would not
 *   take.
 * A distributed graph that libmpiguide sees made (MPI_Dist_graph_create, _adjacent: their wrappers'
 * role @newcomm, src/lib/mpi_functions.txt) is agreed on right there, while every rank is in the
 * call (mg_neighbor_made), so that its non-blocking rows need not fall back with unagreed.
 * What the rows need (the neighbour lists, their tags, the requests, the general call's p-entry
 * arrays) is made at the first call of a row on the communicator and kept with it (comm_records.h);
 * no scratch, so no cap decision, whose answer could differ between ranks of different degrees.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algs/algs.h"
#include "algs/comm_records.h"
#include "algs/p2p_sched.h"

/* Row 0 of the neighbourhood collectives: the library's own, arguments unchanged. */
int mg_neighbor_allgather_default(const mg_call *c) {
  return PMPI_Neighbor_allgather(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->comm);
}
int mg_neighbor_allgatherv_default(const mg_call *c) {
  return PMPI_Neighbor_allgatherv(c->sbuf, c->scount, c->stype, c->rbuf, c->rcounts, c->rdispls, c->rtype, c->comm);
}
int mg_neighbor_alltoall_default(const mg_call *c) {
  return PMPI_Neighbor_alltoall(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->comm);
}
int mg_neighbor_alltoallv_default(const mg_call *c) {
  return PMPI_Neighbor_alltoallv(c->sbuf, c->scounts, c->sdispls, c->stype, c->rbuf, c->rcounts, c->rdispls,
                                 c->rtype, c->comm);
}
int mg_neighbor_alltoallw_default(const mg_call *c) {
  return PMPI_Neighbor_alltoallw(c->sbuf, c->scounts, c->sadispls, c->stypes, c->rbuf, c->rcounts, c->radispls,
                                 c->rtypes, c->comm);
}

/* What a communicator's neighbourhood rows keep with it. */
typedef struct nbr_rec {
  mg_record rec;
  int topo, indeg, outdeg, p;
  int *src, *dst;         /* the in- and out-neighbours, in the standard's order */
  int *rtag, *stag;       /* the tag of each receive and send (mg_neighbor_as_isend_irecv) */
  MPI_Request *req;       /* indeg + outdeg */
  MPI_Datatype *tmp;      /* indeg + outdeg + 2: the blocks' own datatypes of one general call */
  int two_blocks;         /* -1 not yet decided; 1: some rank's peer gets two blocks (agreed) */
  int *sc, *sd, *rc, *rd; /* the general call's arrays, p each, zero outside a call */
  MPI_Datatype *st, *rt;  /* alltoallw: p each, MPI_BYTE outside a call */
} nbr_rec;

static void nbr_free(mg_record *r) {
  nbr_rec *n = (nbr_rec *)r;
  free(n->src), free(n->dst), free(n->rtag), free(n->stag), free(n->req), free(n->tmp);
  free(n->sc), free(n->sd), free(n->rc), free(n->rd), free(n->st), free(n->rt);
  free(n);
}
static mg_records nbrs = MG_RECORDS_INIT(nbr_free);

void mg_neighbor_finalize(void) { mg_records_finalize(&nbrs); }

static void *alloc_or_abort(size_t n, size_t size) {
  void *q = calloc(n ? n : 1, size);
  if (!q) {
    fprintf(stderr, "mpiguide: out of memory for a communicator's neighbour lists; aborting the job\n");
    PMPI_Abort(MPI_COMM_WORLD, 1);
  }
  return q;
}

static int cmp_int(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

/* Whether list[0..n) names a rank twice (MPI_PROC_NULL aside). */
static int has_repeat(const int *list, int n) {
  int *v = alloc_or_abort((size_t)n, sizeof *v), rep = 0;
  memcpy(v, list, (size_t)n * sizeof *v);
  qsort(v, (size_t)n, sizeof *v, cmp_int);
  for (int i = 1; i < n && !rep; i++) rep = v[i] == v[i - 1] && v[i] != MPI_PROC_NULL;
  free(v);
  return rep;
}

/* The neighbour lists and tags of c's topology into r (c->topo, indeg, outdeg set). */
static int fill_lists(const mg_call *c, nbr_rec *r) {
  int rc = MPI_SUCCESS;
  if (c->topo == MPI_CART) {
    for (int d = 0; rc == MPI_SUCCESS && 2 * d < c->indeg; d++) {
      rc = PMPI_Cart_shift(c->comm, d, 1, &r->src[2 * d], &r->src[2 * d + 1]);
      r->dst[2 * d] = r->src[2 * d], r->dst[2 * d + 1] = r->src[2 * d + 1];
      r->rtag[2 * d] = 2 * d, r->rtag[2 * d + 1] = 2 * d + 1;
      r->stag[2 * d] = 2 * d + 1, r->stag[2 * d + 1] = 2 * d; /* the receiver's slot */
    }
  } else if (c->topo == MPI_GRAPH) {
    rc = PMPI_Graph_neighbors(c->comm, c->rank, c->indeg, r->src);
    memcpy(r->dst, r->src, (size_t)c->indeg * sizeof *r->src);
  } else {
    int weighted = 0, in = 0, out = 0; /* = c->indeg, c->outdeg */
    rc = PMPI_Dist_graph_neighbors_count(c->comm, &in, &out, &weighted);
    int *sw = alloc_or_abort((size_t)in, sizeof *sw), *dw = alloc_or_abort((size_t)out, sizeof *dw);
    /* weight arrays also for an unweighted graph (MPI fills them with nothing that matters) */
    if (rc == MPI_SUCCESS) rc = PMPI_Dist_graph_neighbors(c->comm, in, r->src, sw, out, r->dst, dw);
    free(sw), free(dw);
  }
  return rc;
}

/* Whether the topology gives some rank's peer two blocks, decided alike on every rank (the
 * Cartesian and graph topologies from what every rank knows; a distributed graph by an allreduce of
 * each rank's own edges on the private communicator: collective, at the row's first call). */
static int decide_two_blocks(const mg_call *c, const nbr_rec *r, int *two) {
  int rc = MPI_SUCCESS;
  *two = 0;
  if (c->topo == MPI_CART) {
    int nd = c->indeg / 2;
    int *dims = alloc_or_abort((size_t)nd, sizeof *dims), *per = alloc_or_abort((size_t)nd, sizeof *per);
    int *coords = alloc_or_abort((size_t)nd, sizeof *coords);
    rc = PMPI_Cart_get(c->comm, nd, dims, per, coords);
    for (int d = 0; rc == MPI_SUCCESS && d < nd; d++) *two |= per[d] && dims[d] <= 2;
    free(dims), free(per), free(coords);
  } else if (c->topo == MPI_GRAPH) {
    int nnodes = 0, nedges = 0;
    rc = PMPI_Graphdims_get(c->comm, &nnodes, &nedges);
    int *index = alloc_or_abort((size_t)nnodes, sizeof *index), *edges = alloc_or_abort((size_t)nedges, sizeof *edges);
    if (rc == MPI_SUCCESS) rc = PMPI_Graph_get(c->comm, nnodes, nedges, index, edges);
    for (int k = 0, lo = 0; rc == MPI_SUCCESS && k < nnodes && !*two; lo = index[k++])
      *two = has_repeat(edges + lo, index[k] - lo);
    free(index), free(edges);
  } else {
    MPI_Comm priv;
    int mine = has_repeat(r->src, r->indeg) || has_repeat(r->dst, r->outdeg);
    rc = mg_p2p_comm(c->comm, &priv);
    if (rc == MPI_SUCCESS) rc = PMPI_Allreduce(&mine, two, 1, MPI_INT, MPI_MAX, priv);
  }
  return rc;
}

/* The record of c's communicator, made at the first call of a row there (every rank runs the same
 * row for the same call, so every rank makes it at the same call). */
static int nbr_record(const mg_call *c, nbr_rec **out) {
  mg_record *found;
  int rc = mg_records_find(&nbrs, c->comm, &found);
  if (rc != MPI_SUCCESS) return rc;
  if (found) {
    *out = (nbr_rec *)found;
    return MPI_SUCCESS;
  }
  nbr_rec *r = alloc_or_abort(1, sizeof *r);
  size_t in = (size_t)c->indeg, outd = (size_t)c->outdeg, p = (size_t)c->size;
  r->topo = c->topo, r->indeg = c->indeg, r->outdeg = c->outdeg, r->p = c->size, r->two_blocks = -1;
  r->src = alloc_or_abort(in, sizeof(int)), r->dst = alloc_or_abort(outd, sizeof(int));
  r->rtag = alloc_or_abort(in, sizeof(int)), r->stag = alloc_or_abort(outd, sizeof(int));
  r->req = alloc_or_abort(in + outd, sizeof(MPI_Request));
  r->tmp = alloc_or_abort(in + outd + 2, sizeof(MPI_Datatype)); /* + a contiguous type per side */
  r->sc = alloc_or_abort(p, sizeof(int)), r->sd = alloc_or_abort(p, sizeof(int));
  r->rc = alloc_or_abort(p, sizeof(int)), r->rd = alloc_or_abort(p, sizeof(int));
  r->st = alloc_or_abort(p, sizeof(MPI_Datatype)), r->rt = alloc_or_abort(p, sizeof(MPI_Datatype));
  for (size_t i = 0; i < p; i++) r->st[i] = r->rt[i] = MPI_BYTE;
  rc = fill_lists(c, r);
  if (rc == MPI_SUCCESS) rc = mg_records_add(&nbrs, c->comm, &r->rec);
  if (rc != MPI_SUCCESS) {
    nbr_free(&r->rec);
    return rc;
  }
  *out = r;
  return MPI_SUCCESS;
}

/* Whether some rank's peer gets two blocks (r->two_blocks, decided at the first call of a row that
 * asks: collective on a distributed graph, so every rank asks at the same call). */
static int agreed_two_blocks(const mg_call *c, nbr_rec *r, int *two) {
  int rc = MPI_SUCCESS;
  if (r->two_blocks < 0 && (rc = decide_two_blocks(c, r, &r->two_blocks)) != MPI_SUCCESS) r->two_blocks = -1;
  *two = r->two_blocks > 0;
  return rc;
}

/* Block i of a side: its address, count and datatype. send: the block for out-neighbour i. */
typedef struct blk {
  char *addr;
  int count;
  MPI_Datatype type;
  MPI_Aint off; /* its offset from the buffer, in elements of type (bytes: alltoallw) */
} blk;

static blk block_of(const mg_call *c, int send, int i, MPI_Aint ext) {
  blk b;
  char *base = send ? (char *)c->sbuf : (char *)c->rbuf;
  switch (c->coll) {
  case MG_NEIGHBOR_ALLGATHER: case MG_NEIGHBOR_ALLGATHERV:
    if (send) {
      b.count = c->scount, b.type = c->stype, b.off = 0;
    } else if (c->coll == MG_NEIGHBOR_ALLGATHER) {
      b.count = c->rcount, b.type = c->rtype, b.off = (MPI_Aint)i * c->rcount;
    } else {
      b.count = c->rcounts[i], b.type = c->rtype, b.off = c->rdispls[i];
    }
    break;
  case MG_NEIGHBOR_ALLTOALL:
    b.count = send ? c->scount : c->rcount, b.type = send ? c->stype : c->rtype, b.off = (MPI_Aint)i * b.count;
    break;
  case MG_NEIGHBOR_ALLTOALLV:
    b.count = send ? c->scounts[i] : c->rcounts[i], b.type = send ? c->stype : c->rtype;
    b.off = send ? c->sdispls[i] : c->rdispls[i];
    break;
  default: /* alltoallw: byte displacements, a datatype per neighbour */
    b.count = send ? c->scounts[i] : c->rcounts[i], b.type = send ? c->stypes[i] : c->rtypes[i];
    b.off = send ? c->sadispls[i] : c->radispls[i];
    b.addr = base + b.off;
    return b;
  }
  b.addr = base + b.off * ext;
  return b;
}

/* The extents of the call's one send and one receive datatype (not alltoallw). */
static int extents(const mg_call *c, MPI_Aint *sext, MPI_Aint *rext) {
  MPI_Aint lb;
  *sext = *rext = 0;
  if (c->coll == MG_NEIGHBOR_ALLTOALLW) return MPI_SUCCESS;
  int rc = PMPI_Type_get_extent(c->stype, &lb, sext);
  return rc == MPI_SUCCESS ? PMPI_Type_get_extent(c->rtype, &lb, rext) : rc;
}

int mg_neighbor_as_isend_irecv(const mg_call *c) {
  nbr_rec *r;
  MPI_Comm priv;
  MPI_Aint sext, rext;
  int rc = nbr_record(c, &r), n = 0, two = 0;
  if (rc != MPI_SUCCESS || (rc = agreed_two_blocks(c, r, &two)) != MPI_SUCCESS) return rc;
  if (two) { /* the libraries disagree there: theirs runs (above), on every rank */
    mg_late.why = MG_WHY_TWO_BLOCKS;
    return mg_run(c, 0);
  }
  rc = mg_p2p_comm(c->comm, &priv);
  if (rc == MPI_SUCCESS) rc = extents(c, &sext, &rext);
  for (int i = 0; rc == MPI_SUCCESS && i < r->indeg; i++) {
    blk b = block_of(c, 0, i, rext);
    rc = PMPI_Irecv(b.addr, b.count, b.type, r->src[i], r->rtag[i], priv, &r->req[n++]);
  }
  for (int j = 0; rc == MPI_SUCCESS && j < r->outdeg; j++) {
    blk b = block_of(c, 1, j, sext);
    rc = PMPI_Isend(b.addr, b.count, b.type, r->dst[j], r->stag[j], priv, &r->req[n++]);
  }
  if (rc != MPI_SUCCESS) n -= 1; /* the failed post made no request */
  return mg_p2p_waitall(n, r->req, rc);
}

/* One side's entries of the general call: the count, displacement (and alltoallw: datatype) of each
 * neighbour's block at its peer's index. A displacement past an int: alltoallw's block becomes one
 * element of an hindexed datatype of its own at its byte offset (r->tmp[*ntmp]), at displacement 0;
 * neighbor_allgather's receive side and neighbor_alltoall's sides (the only others whose offsets,
 * slot x count, can pass an int: the v forms' are the call's ints) become blocks of one contiguous
 * datatype of the side's count (*side), counted 1 at displacement slot. */
/* A committed contiguous datatype of n elements of t for one call, in r->tmp[*ntmp] (freed after the
 * call by its maker: every entry below *ntmp that is not MPI_DATATYPE_NULL, one whose commit failed
 * too). */
static int block_type(nbr_rec *r, int *ntmp, int n, MPI_Datatype t, MPI_Datatype *out) {
  MPI_Datatype *d = &r->tmp[(*ntmp)++];
  int rc = PMPI_Type_contiguous(n, t, d);
  if (rc != MPI_SUCCESS) {
    *d = MPI_DATATYPE_NULL;
    return rc;
  }
  if ((rc = PMPI_Type_commit(d)) == MPI_SUCCESS) *out = *d;
  return rc;
}

/* The arrays of one side of the general call: p counts, displacements (and alltoallw: datatypes). */
typedef struct side_arrays {
  int *cnt, *dis;
  MPI_Datatype *ty;
} side_arrays;

static int fill_side(const mg_call *c, nbr_rec *r, int send, MPI_Aint ext, int *ntmp, MPI_Datatype *side,
                     side_arrays a) {
  int deg = send ? r->outdeg : r->indeg, rc = MPI_SUCCESS, big = 0;
  const int *peer = send ? r->dst : r->src;
  int *cnt = a.cnt, *dis = a.dis;
  MPI_Datatype *ty = a.ty;
  int w = c->coll == MG_NEIGHBOR_ALLTOALLW;
  *side = send ? c->stype : c->rtype;
  for (int i = 0; rc == MPI_SUCCESS && i < deg; i++) {
    if (peer[i] == MPI_PROC_NULL) continue;
    blk b = block_of(c, send, i, ext);
    cnt[peer[i]] = b.count, dis[peer[i]] = (int)b.off;
    if (w) ty[peer[i]] = b.type;
    if (b.off == (MPI_Aint)(int)b.off) continue;
    if (!w) {
      big = 1;
      continue;
    }
    MPI_Datatype *t = &r->tmp[(*ntmp)++];
    rc = PMPI_Type_create_hindexed(1, &b.count, &b.off, b.type, t);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(t);
    if (rc != MPI_SUCCESS) {
      *t = MPI_DATATYPE_NULL;
      break;
    }
    cnt[peer[i]] = 1, ty[peer[i]] = *t, dis[peer[i]] = 0;
  }
  if (rc != MPI_SUCCESS || !big) return rc;
  if ((rc = block_type(r, ntmp, send ? c->scount : c->rcount, *side, side)) != MPI_SUCCESS) return rc;
  for (int i = 0; i < deg; i++)
    if (peer[i] != MPI_PROC_NULL) cnt[peer[i]] = 1, dis[peer[i]] = i;
  return rc;
}

/* Back to zero counts (and MPI_BYTE) at the peers of one side. */
static void clear_side(nbr_rec *r, int send) {
  int deg = send ? r->outdeg : r->indeg;
  const int *peer = send ? r->dst : r->src;
  int *cnt = send ? r->sc : r->rc, *dis = send ? r->sd : r->rd;
  MPI_Datatype *ty = send ? r->st : r->rt;
  for (int i = 0; i < deg; i++)
    if (peer[i] != MPI_PROC_NULL) cnt[peer[i]] = 0, dis[peer[i]] = 0, ty[peer[i]] = MPI_BYTE;
}

int mg_neighbor_as_alltoallv(const mg_call *c) {
  nbr_rec *r;
  MPI_Aint sext, rext;
  MPI_Datatype st, rt;
  int rc = nbr_record(c, &r), ntmp = 0, two = 0;
  if (rc != MPI_SUCCESS || (rc = agreed_two_blocks(c, r, &two)) != MPI_SUCCESS) return rc;
  if (two) { /* the same answer on every rank */
    mg_late.why = MG_WHY_TWO_BLOCKS;
    return mg_run(c, 0);
  }
  rc = extents(c, &sext, &rext);
  if (rc == MPI_SUCCESS) rc = fill_side(c, r, 1, sext, &ntmp, &st, (side_arrays){r->sc, r->sd, r->st});
  if (rc == MPI_SUCCESS) rc = fill_side(c, r, 0, rext, &ntmp, &rt, (side_arrays){r->rc, r->rd, r->rt});
  if (rc == MPI_SUCCESS)
    rc = c->coll == MG_NEIGHBOR_ALLTOALLW
             ? PMPI_Alltoallw(c->sbuf, r->sc, r->sd, r->st, c->rbuf, r->rc, r->rd, r->rt, c->comm)
             : PMPI_Alltoallv(c->sbuf, r->sc, r->sd, st, c->rbuf, r->rc, r->rd, rt, c->comm);
  for (int i = 0; i < ntmp; i++)
    if (r->tmp[i] != MPI_DATATYPE_NULL) PMPI_Type_free(&r->tmp[i]);
  clear_side(r, 1), clear_side(r, 0);
  return rc;
}

/*
 * The non-blocking forms (MG_INEIGHBOR_OPS; their persistent forms alike, mg_call.persistent): c
 * is the I-operation's call, mg_nbc_twin(c) the blocking twin's. Where the topology gives a peer two
 * blocks they run the library's own, as the blocking rows do; a distributed graph's ranks must
 * agree on it, which a non-blocking call cannot wait for (a legal program may post it on one rank
 * while another waits for that rank elsewhere), so there the rows run only once a blocking row's
 * first call agreed (every rank holds the same answer at the same call: the record changes only
 * in collective calls on the communicator), and the library's own before, with MG_WHY_UNAGREED.
 */
void mg_neighbor_made(MPI_Comm comm) {
  int topo = MPI_UNDEFINED;
  if (PMPI_Topo_test(comm, &topo) != MPI_SUCCESS || topo != MPI_DIST_GRAPH) return;
  mg_call d;
  mg_call_init(&d, MG_NEIGHBOR_ALLTOALL, comm);
  d.stype = d.rtype = MPI_BYTE, d.op = MPI_OP_NULL;
  nbr_rec *r;
  int two;
  /* every rank of comm is here (it was just made): the collective agreement of agreed_two_blocks */
  if (mg_call_prepare(&d) == MPI_SUCCESS && nbr_record(&d, &r) == MPI_SUCCESS) (void)agreed_two_blocks(&d, r, &two);
}

/* Whether the I-row can run: the record of d's communicator and, where `one_block` (the row holds
 * one block per peer, or the library's forms match two blocks differently), no peer with two blocks
 * as far as every rank knows without communicating. Else mg_late.why says why not (*ok 0). */
static int nb_usable(const mg_call *d, int one_block, nbr_rec **r, int *ok) {
  int rc = nbr_record(d, r);
  *ok = 0;
  if (rc != MPI_SUCCESS) return rc;
  if (!one_block) {
    *ok = 1;
    return MPI_SUCCESS;
  }
  if ((*r)->two_blocks < 0 && d->topo == MPI_DIST_GRAPH) {
    mg_late.why = MG_WHY_UNAGREED;
    return MPI_SUCCESS;
  }
  int two = 0;
  if ((rc = agreed_two_blocks(d, *r, &two)) != MPI_SUCCESS) return rc; /* local: Cartesian or graph */
  if (two) mg_late.why = MG_WHY_TWO_BLOCKS;
  *ok = !two;
  return MPI_SUCCESS;
}

/* The datatypes a row made for one post (a block's own), freed once it is posted (MPI-3.1
 * §4.1.9: pending communication completes normally; the same for a persistent request, as
 * src/algs/nbc.c's ialltoallv_as_ialltoallw does). */
static void free_made(nbr_rec *r, int ntmp) {
  for (int i = 0; i < ntmp; i++)
    if (r->tmp[i] != MPI_DATATYPE_NULL) PMPI_Type_free(&r->tmp[i]);
}

/* Meta-rule III, non-blocking: MPI_Ialltoallv (alltoallw: MPI_Ialltoallw) over the communicator with
 * zero counts for the non-neighbours, one call whose request the caller gets; its 4p ints (+ 2p
 * datatypes) are this call's own (mg_nbc_alloc: several may be outstanding on one communicator),
 * kept with the request until it completes (mg_nbc_kept). */
int mg_ineighbor_as_ialltoallv(const mg_call *c) {
  mg_call d = mg_nbc_twin(c);
  nbr_rec *r;
  int ok, rc = nb_usable(&d, 1, &r, &ok), ntmp = 0, p = c->size, w = d.coll == MG_NEIGHBOR_ALLTOALLW;
  if (rc != MPI_SUCCESS) return rc;
  if (!ok) return mg_run(c, 0);
  /* Open MPI 4.1.4's MPI_Ialltoallw on a communicator with a topology retains as many datatypes of
   * each side as the rank's degree, not p (ompi_coll_base_retain_datatypes_w): a degree above p (a
   * 2-D grid of 2 ranks has 4 neighbours) read past p entries. So max(p, degrees) each, MPI_BYTE. */
  int nt = p > d.indeg ? p : d.indeg;
  nt = nt > d.outdeg ? nt : d.outdeg;
  size_t types = w ? 2 * (size_t)nt * sizeof(MPI_Datatype) : 0;
  char *mem = mg_nbc_alloc(types + 4 * (size_t)p * sizeof(int));
  if (!mem) return MPI_ERR_NO_MEM;
  MPI_Datatype *stys = w ? (MPI_Datatype *)mem : NULL, *rtys = w ? stys + nt : NULL;
  int *a = (int *)(mem + types);
  memset(a, 0, 4 * (size_t)p * sizeof(int));
  for (int i = 0; w && i < nt; i++) stys[i] = rtys[i] = MPI_BYTE;
  MPI_Aint sext, rext;
  MPI_Datatype st, rt;
  rc = extents(&d, &sext, &rext);
  if (rc == MPI_SUCCESS) rc = fill_side(&d, r, 1, sext, &ntmp, &st, (side_arrays){a, a + p, stys});
  if (rc == MPI_SUCCESS) rc = fill_side(&d, r, 0, rext, &ntmp, &rt, (side_arrays){a + 2 * p, a + 3 * p, rtys});
  mg_call g = d;
  g.coll = w ? MG_ALLTOALLW : MG_ALLTOALLV;
  g.scounts = a, g.sdispls = a + p, g.rcounts = a + 2 * p, g.rdispls = a + 3 * p;
  if (w) g.stypes = stys, g.rtypes = rtys, g.stype = g.rtype = MPI_DATATYPE_NULL;
  else g.stype = st, g.rtype = rt;
  if (rc == MPI_SUCCESS) rc = mg_nbc_post(&g, c->req);
  free_made(r, ntmp);
  if (rc == MPI_SUCCESS) mg_nbc_kept = mem;
  else mg_nbc_free(mem);
  return rc;
}

/* A block form as its v form (GL4/GL8 with the neighbourhood: Ineighbor_allgather as
 * Ineighbor_allgatherv, Ineighbor_alltoall as Ineighbor_alltoallv): equal counts, displacements
 * slot x count, one call of the library's v form whose request the caller gets, the arrays (of the
 * degrees: this rank's own size, so no scratch cap decides) kept until it completes. A
 * displacement past an int makes the side's blocks one contiguous datatype of the count, counted 1
 * at the slot (a rank's own choice: the type signatures are the same). Allgather sends one block
 * to every out-neighbour, so a peer with two edges gets the same block twice and any matching
 * fills the slots alike: every topology. Alltoall: MPICH 4.0.2 matches two edges of a pair
 * differently in MPI_Neighbor_alltoall and _alltoallv (above), so there the library's own runs. */
int mg_ineighbor_as_ineighbor_v(const mg_call *c) {
  mg_call d = mg_nbc_twin(c);
  nbr_rec *r;
  int a2a = d.coll == MG_NEIGHBOR_ALLTOALL, ok, rc = nb_usable(&d, a2a, &r, &ok), ntmp = 0;
  if (rc != MPI_SUCCESS) return rc;
  if (!ok) return mg_run(c, 0);
  int in = d.indeg, out = a2a ? d.outdeg : 0;
  int *a = mg_nbc_alloc(2 * ((size_t)in + (size_t)out) * sizeof(int) + sizeof(int));
  if (!a) return MPI_ERR_NO_MEM;
  MPI_Datatype st = d.stype, rt = d.rtype;
  /* the largest offset, (degree - 1) x count: past an int, a contiguous datatype per side */
  int rbig = in > 1 && (MPI_Aint)(in - 1) * d.rcount > INT_MAX, sbig = out > 1 && (MPI_Aint)(out - 1) * d.scount > INT_MAX;
  if (rbig) rc = block_type(r, &ntmp, d.rcount, d.rtype, &rt);
  if (rc == MPI_SUCCESS && sbig) rc = block_type(r, &ntmp, d.scount, d.stype, &st);
  int *rcn = a, *rdp = a + in, *scn = a + 2 * in, *sdp = scn + out;
  for (int i = 0; i < in; i++) rcn[i] = rbig ? 1 : d.rcount, rdp[i] = rbig ? i : i * d.rcount;
  for (int j = 0; j < out; j++) scn[j] = sbig ? 1 : d.scount, sdp[j] = sbig ? j : j * d.scount;
  mg_call g = d;
  g.rtype = rt, g.rcounts = rcn, g.rdispls = rdp;
  if (a2a) g.coll = MG_NEIGHBOR_ALLTOALLV, g.stype = st, g.scounts = scn, g.sdispls = sdp;
  else g.coll = MG_NEIGHBOR_ALLGATHERV;
  if (rc == MPI_SUCCESS) rc = mg_nbc_post(&g, c->req);
  free_made(r, ntmp);
  if (rc == MPI_SUCCESS) mg_nbc_kept = a;
  else mg_nbc_free(a);
  return rc;
}

/* Meta-rule IV, non-blocking: the blocking row's exchange as a schedule of one round (sched.c), the
 * indegree receives and outdegree sends posted in the call and completed as one request by
 * libmpiguide's progress thread; on the shadow's lane 0 (no receive of the program can match
 * them; two such calls outstanding on one communicator post in one order on every rank, so their
 * messages of one pair and tag match in that order), or in the benchmark on the communicator's
 * private duplicate, waited for in the call. Where a peer gets two blocks, or on a distributed
 * graph before the ranks agreed, the library's own runs (nb_usable). */
static int ineighbor_p2p_round(const mg_call *c, void *tmp, int round, MPI_Comm cm, MPI_Request *q, int *nq) {
  (void)tmp, (void)round;
  mg_call d = mg_nbc_twin(c);
  nbr_rec *r;
  MPI_Aint sext, rext;
  int rc = nbr_record(&d, &r), n = 0;
  if (rc == MPI_SUCCESS && cm == c->comm) rc = mg_p2p_comm(c->comm, &cm); /* in the call: as the blocking row */
  if (rc == MPI_SUCCESS) rc = extents(&d, &sext, &rext);
  for (int i = 0; rc == MPI_SUCCESS && i < r->indeg; i++) {
    blk b = block_of(&d, 0, i, rext);
    if ((rc = PMPI_Irecv(b.addr, b.count, b.type, r->src[i], r->rtag[i], cm, &q[n])) == MPI_SUCCESS) n++;
  }
  for (int j = 0; rc == MPI_SUCCESS && j < r->outdeg; j++) {
    blk b = block_of(&d, 1, j, sext);
    if ((rc = PMPI_Isend(b.addr, b.count, b.type, r->dst[j], r->stag[j], cm, &q[n])) == MPI_SUCCESS) n++;
  }
  *nq = n;
  return rc;
}

int mg_ineighbor_as_isend_irecv(const mg_call *c) {
  mg_call d = mg_nbc_twin(c);
  nbr_rec *r;
  int ok, rc = nb_usable(&d, 1, &r, &ok);
  if (rc != MPI_SUCCESS) return rc;
  if (!ok) return mg_run(c, 0);
  int edges = r->indeg + r->outdeg;
  return mg_sched_run(c, 1, ineighbor_p2p_round, 0, edges > 0 ? edges : 1);
}
