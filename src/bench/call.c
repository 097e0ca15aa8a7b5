/*
 * The buffers and arguments of one measured call (run.h): the run's datatypes, the counts and
 * displacements a block's size gives each collective (the neighbourhood ones from the bench's
 * topology communicator), the data buffers (under SMPI from its shared allocation, issue 50.2),
 * and a round's root and in-place form. Split from engine.c, which measures with them.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/run.h"
/* ---------- buffers of one call ---------- */

/* The run's datatypes (cfg->dtype and the --reductions ones): their MPI datatypes, built once
 * per run (a derived one from its spec) and freed at its end. */
int mg_bench_build_types(run *R) {
  const mg_bench_cfg *cfg = R->cfg;
  for (int k = -1; k < cfg->nreds; k++) {
    const mg_dtype_info *d = k < 0 ? cfg->dtype : cfg->reds[k].dtype;
    int seen = 0;
    for (int i = 0; i < R->ndts; i++) seen |= R->dt_info[i] == d;
    if (seen) continue;
    int rc = mg_dtype_build(d, &R->dt_handle[R->ndts]);
    if (rc != MPI_SUCCESS) return rc;
    R->dt_info[R->ndts++] = d;
  }
  return MPI_SUCCESS;
}

void mg_bench_free_types(run *R) {
  for (int i = 0; i < R->ndts; i++) mg_dtype_free(R->dt_info[i], &R->dt_handle[i]);
  R->ndts = 0;
}

static MPI_Datatype type_of(const run *R, const mg_dtype_info *d) {
  for (int i = 0; i < R->ndts; i++)
    if (R->dt_info[i] == d) return R->dt_handle[i];
  return d->type;
}

/* Bytes of buffer for `bytes` bytes of data of d: whole elements by extent. */
static size_t by_extent(size_t bytes, const mg_dtype_info *d) {
  size_t e = bytes / (size_t)d->size, x = mg_dtype_extent(d);
  return bytes == SIZE_MAX || (e && x > SIZE_MAX / e) ? SIZE_MAX : e * x;
}

/*
 * The per-rank counts of a call with them: the vector of B->count elements split by cfg->counts
 * (the same split on every rank), contiguous displacements. reduce_scatter and allgatherv receive
 * block i from rank i; gatherv's root receives and scatterv's root sends it. alltoallv and
 * alltoallw split what each rank sends: rank i sends block (i + j) mod p of the split to rank j,
 * so every rank sends and receives B->count elements in all, in blocks of different sizes.
 * `ints` has room for 4p ints and 2p datatypes. 0, or -1 when out of memory.
 */
static int set_counts(run *R, const mg_bench_block *B, mg_call *c, int *ints) {
  int p = R->size, me = R->rank;
  int *counts = ints, *displs = ints + p, *rcounts = ints + 2 * p, *rdispls = ints + 3 * p;
  if (mg_bench_split(&R->cfg->counts, B->count, p, counts)) return -1;
  for (int i = 0, at = 0; i < p; at += counts[i], i++) displs[i] = at;
  switch (mg_coll_base(B->coll)) { /* a non-blocking collective: its blocking twin's arguments */
  case MG_REDUCE_SCATTER: c->rcounts = counts; break;
  case MG_ALLGATHERV: c->rcounts = counts, c->rdispls = displs, c->scount = counts[me]; break;
  case MG_GATHERV: c->rcounts = counts, c->rdispls = displs, c->scount = counts[me]; break;
  case MG_SCATTERV: c->scounts = counts, c->sdispls = displs, c->rcount = counts[me]; break;
  case MG_ALLTOALLV: case MG_ALLTOALLW: {
    /* send to j block (me + j) mod p; j sends me block (j + me) mod p, the same: both sides alike */
    for (int j = 0, at = 0; j < p; j++) {
      int k = (me + j) % p;
      rcounts[j] = counts[k], rdispls[j] = at, at += counts[k];
    }
    c->scounts = c->rcounts = rcounts, c->sdispls = c->rdispls = rdispls;
    if (mg_coll_base(B->coll) == MG_ALLTOALLW) { /* displacements in bytes, one datatype per rank */
      MPI_Datatype *types = (MPI_Datatype *)(ints + 4 * p);
      for (int j = 0; j < p; j++) rdispls[j] *= (int)mg_dtype_extent(B->dtype), types[j] = c->stype;
      c->stypes = c->rtypes = types, c->stype = c->rtype = MPI_DATATYPE_NULL;
    }
    break;
  }
  default: break;
  }
  return 0;
}

/* The neighbourhood collectives' arrays, one entry per neighbour of mg_bench_topo_comm's grid. */
typedef struct nbr_arrays {
  MPI_Aint sad[MG_BENCH_NBR_DEGREE], rad[MG_BENCH_NBR_DEGREE];
  MPI_Datatype st[MG_BENCH_NBR_DEGREE], rt[MG_BENCH_NBR_DEGREE];
  int sc[MG_BENCH_NBR_DEGREE], sd[MG_BENCH_NBR_DEGREE], rc[MG_BENCH_NBR_DEGREE], rd[MG_BENCH_NBR_DEGREE];
} nbr_arrays;

static size_t mul_size(size_t n, size_t k) { return n > SIZE_MAX / k ? SIZE_MAX : n * k; }

/*
 * The counts of a neighbourhood collective on the grid (every rank the same 4 neighbours: dimension
 * 0's -1 and +1, then dimension 1's). allgatherv: B->count from each, in order. alltoallv and
 * alltoallw: B->count split over the 4 slots as --counts says (q[j] to neighbour j); the block a rank
 * sends its -1 neighbour is that one's +1 slot, so slot i receives q[i ^ 1]: sender and receiver
 * agree, and every rank sends and receives B->count elements in all. alltoallw: byte
 * displacements, the datatype of the call in each slot. 0, or -1 when out of memory.
 */
static int nbr_counts(run *R, const mg_bench_block *B, mg_call *c, nbr_arrays *a) {
  int q[MG_BENCH_NBR_DEGREE], d = MG_BENCH_NBR_DEGREE;
  MPI_Aint ext = (MPI_Aint)mg_dtype_extent(B->dtype);
  switch (mg_coll_base(B->coll)) { /* a non-blocking form: its blocking twin's arrays */
  case MG_NEIGHBOR_ALLGATHERV:
    for (int i = 0; i < d; i++) a->rc[i] = (int)B->count, a->rd[i] = i * (int)B->count;
    c->rcounts = a->rc, c->rdispls = a->rd;
    break;
  case MG_NEIGHBOR_ALLTOALLV: case MG_NEIGHBOR_ALLTOALLW:
    if (mg_bench_split(&R->cfg->counts, B->count, d, q)) return -1;
    for (int j = 0, at = 0, rat = 0; j < d; j++) {
      a->sc[j] = q[j], a->sd[j] = at, at += q[j];
      a->rc[j] = q[j ^ 1], a->rd[j] = rat, rat += q[j ^ 1];
      a->sad[j] = (MPI_Aint)a->sd[j] * ext, a->rad[j] = (MPI_Aint)a->rd[j] * ext;
      a->st[j] = a->rt[j] = c->stype;
    }
    c->scounts = a->sc, c->rcounts = a->rc;
    if (mg_coll_base(B->coll) == MG_NEIGHBOR_ALLTOALLV) {
      c->sdispls = a->sd, c->rdispls = a->rd;
    } else {
      c->sadispls = a->sad, c->radispls = a->rad, c->stypes = a->st, c->rtypes = a->rt;
      c->stype = c->rtype = MPI_DATATYPE_NULL;
    }
    break;
  default: break;
  }
  return 0;
}

/*
 * Memory folded under SimGrid's SMPI (issue 50.2, docs/scale.md): every simulated rank is a thread
 * of one process, so p ranks' buffers are p times the memory of one (21 GB for allgather at 256
 * ranks). The measured call's data buffers come from SMPI_SHARED_MALLOC instead, whose pages every
 * rank shares (SMPI's smpi/shared-malloc, global by default: one physical block mapped over any
 * size, so ranks of different sizes may share the call site): the values in them are then garbage
 * that every rank writes, which a simulated time does not depend on (the network model prices
 * bytes, not values; no computation is simulated where the exact verdicts apply). What keeps real
 * memory: the counts and displacements (set_counts writes them per rank, and the library reads
 * them), the mock-ups' counts, displacements and requests in scratch (mg_scratch), and the
 * correctness tests, which are not engine runs. The mock-ups' data scratch folds with the buffers
 * (mg_scratch_data, algs/toolkit.c; the engine turns it on for its run). MPIGUIDE_SIM_BUFFERS=real
 * keeps both real; raw.csv's #@simulated_buffers says which. Outside the SMPI build nothing changes.
 */
int mg_bench_fold_buffers(void) {
#ifdef SMPI_H
  const char *v = getenv("MPIGUIDE_SIM_BUFFERS");
  return !(v && !strcmp(v, "real"));
#else
  return 0;
#endif
}

/* The region mg_bench_make_call returns: its own counts and displacements after this header, the
 * data buffers there too or (folded) in a shared block. */
typedef struct {
  void *shared; /* SMPI_SHARED_MALLOC's block, or NULL */
  char pad[56]; /* the data after it stays 64-byte aligned */
} call_mem;

void mg_bench_free_call(void *mem) {
  if (!mem) return;
#ifdef SMPI_H
  if (((call_mem *)mem)->shared) SMPI_SHARED_FREE(((call_mem *)mem)->shared);
#endif
  free(mem);
}

/* Allocate the buffers of a call of `coll` with `count` elements (bytes each
 * rank's message size) and fill the descriptor. Returns the region to free
 * with mg_bench_free_call, or NULL with *fail set when the allocation failed
 * on this rank. */
void *mg_bench_make_call(run *R, const mg_bench_block *B, mg_call *c, int *fail) {
  const mg_bench_cfg *cfg = R->cfg;
  mg_coll coll = B->coll;
  size_t p = (size_t)R->size, n = B->bytes, pn = n > SIZE_MAX / p ? SIZE_MAX : p * n;
  /* a rotating root: the ranks that are the root of some round hold the root's buffers, the others
   * none, as with a fixed root (every rank held p x n bytes for gather and scatter before: 12.5 GB
   * for 256 simulated ranks of 64 KiB blocks, all in one SMPI process, docs/scale.md) */
  int root = R->rank == cfg->root;
  for (int i = 0; i < cfg->nroots; i++) root |= R->rank == cfg->roots[i];
  size_t s = 0, r = 0;
  switch (mg_coll_base(coll)) { /* a non-blocking collective: its blocking twin's buffers */
  case MG_ALLGATHER: s = n, r = pn; break;
  case MG_ALLREDUCE: case MG_SCAN: case MG_EXSCAN: s = n, r = n; break;
  case MG_REDUCE_SCATTER: s = n, r = n; break; /* the whole vector; in place it is the receive buffer */
  case MG_ALLGATHERV: s = n, r = n; break;     /* own block (at most the vector), the vector */
  case MG_ALLTOALL: s = pn, r = pn; break;
  case MG_ALLTOALLV: case MG_ALLTOALLW: s = n, r = n; break; /* each rank sends and receives n in all */
  case MG_GATHERV: s = n, r = root ? n : 0; break;          /* own block (at most the vector), the vector */
  case MG_SCATTERV: s = root ? n : 0, r = n; break;
  case MG_BCAST: s = 0, r = n; break;
  case MG_GATHER: s = n, r = root ? pn : 0; break;
  case MG_REDUCE: s = n, r = root ? n : 0; break;
  case MG_REDUCE_SCATTER_BLOCK: s = pn, r = n; break;
  case MG_SCATTER: s = root ? pn : 0, r = n; break;
  case MG_SEND: case MG_SSEND: case MG_RSEND: case MG_ISEND: case MG_RECV: case MG_IRECV: case MG_SENDRECV:
    s = n, r = n; /* one message each way (pattern.c) */
    break;
  case MG_SENDRECV_REPLACE: s = 0, r = n; break; /* the one buffer */
  /* the neighbourhood collectives on mg_bench_topo_comm's grid: n per neighbour, the v and w forms
   * n in all (nbr_counts) */
  case MG_NEIGHBOR_ALLGATHER: case MG_NEIGHBOR_ALLGATHERV: s = n, r = mul_size(n, MG_BENCH_NBR_DEGREE); break;
  case MG_NEIGHBOR_ALLTOALL: s = r = mul_size(n, MG_BENCH_NBR_DEGREE); break;
  case MG_NEIGHBOR_ALLTOALLV: case MG_NEIGHBOR_ALLTOALLW: s = n, r = n; break;
  default: break;
  }
  MPI_Comm grid = MPI_COMM_NULL; /* made by every rank before any can fail alone */
  if (mg_coll_is_neighbor(coll) && mg_bench_topo_comm(R->comm, R->size, &grid) != MPI_SUCCESS) {
    *fail = 1;
    return NULL;
  }
  s = by_extent(s, B->dtype), r = by_extent(r, B->dtype); /* a derived datatype: gaps between the data */
  *fail = 0;
  void *mem = NULL;
  /* counts and displacements of both sides, alltoallw's datatypes */
  size_t sa = (s + 63) & ~(size_t)63, ra = (r + 63) & ~(size_t)63, ca = 4 * p * sizeof(int) + 2 * p * sizeof(MPI_Datatype);
  ca = (ca + 63) & ~(size_t)63;
  size_t nbr_at = ca; /* nbr_counts' arrays after set_counts' */
  if (grid != MPI_COMM_NULL) ca += sizeof(nbr_arrays);
  int fold = mg_bench_fold_buffers() && sa + ra > 0;
  size_t own = sizeof(call_mem) + (fold ? 0 : sa + ra) + ca + 64; /* the header, the data unless folded, the counts */
  if (s == SIZE_MAX || r == SIZE_MAX || sa + ra < sa || sa + ra + ca < ca || posix_memalign(&mem, 64, own) != 0) {
    *fail = 1;
    return NULL;
  }
  memset(mem, 0, own);
  char *data = (char *)mem + sizeof(call_mem), *counts = data + (fold ? 0 : sa + ra);
#ifdef SMPI_H
  if (fold) {
    if (!(data = SMPI_SHARED_MALLOC(sa + ra + 64))) {
      free(mem);
      *fail = 1;
      return NULL;
    }
    ((call_mem *)mem)->shared = data;
  }
#endif
  memset(c, 0, sizeof *c);
  c->coll = coll;
  c->sbuf = s ? data : NULL;
  c->rbuf = r ? data + sa : NULL;
  if (mg_coll_base(coll) == MG_BCAST || coll == MG_SENDRECV_REPLACE) c->sbuf = c->rbuf;
  c->scount = c->rcount = (int)B->count;
  c->stype = c->rtype = type_of(R, B->dtype);
  c->op = B->op ? B->op->op : MPI_OP_NULL;
  c->root = mg_colls[coll].rooted ? mg_bench_root(cfg, coll, 0) : 0;
  c->comm = R->comm;
  if (mg_bench_has_counts(coll) && set_counts(R, B, c, (int *)counts)) {
    mg_bench_free_call(mem);
    *fail = 1;
    return NULL;
  }
  if (grid != MPI_COMM_NULL) {
    c->comm = grid;
    if (nbr_counts(R, B, c, (nbr_arrays *)(counts + nbr_at))) {
      mg_bench_free_call(mem);
      *fail = 1;
      return NULL;
    }
  }
  return mem;
}

/*
 * --in-place (mg_bench_cfg.in_place): the call of a round in its in-place form, from c, the regular
 * call of make_call, whose buffers already hold what the in-place form reads (zeros, like the
 * regular ones): the receive buffer of the reductions, alltoall(v/w) and reduce_scatter has the
 * input's size, allgather(v)'s and gather(v)'s the own block at its slot; reduce_scatter_block's
 * input of p blocks is the regular send buffer, which becomes the receive buffer. Rooted: only the
 * root of this round is in place (a rotating root moves MPI_IN_PLACE with it), so the message
 * size is set again. bcast and barrier have no in-place form and stay as they are.
 */
void mg_bench_round_call(const run *R, const mg_call *c, int root, mg_call *call) {
  int at_root = R->rank == root;
  *call = *c;
  call->root = root;
  if (mg_coll_is_p2p(c->coll)) return; /* no in-place form */
  switch (mg_coll_base(c->coll)) {
  case MG_BCAST: case MG_BARRIER: return;
  case MG_GATHER: case MG_GATHERV: case MG_REDUCE: call->sbuf = at_root ? MPI_IN_PLACE : c->sbuf; break;
  case MG_SCATTER: case MG_SCATTERV: call->rbuf = at_root ? MPI_IN_PLACE : c->rbuf; break;
  case MG_REDUCE_SCATTER_BLOCK: call->rbuf = (void *)c->sbuf, call->sbuf = MPI_IN_PLACE; break;
  default: call->sbuf = MPI_IN_PLACE; break;
  }
  mg_call_set_bytes(call);
}
