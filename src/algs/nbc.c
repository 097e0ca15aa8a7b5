/*
 * The non-blocking collectives (registry.h, MG_NBC_OPS; the rows: src/registry/rows_nbc.c) and
 * the persistent ones (the same operations, mg_call.persistent): the library's own call, the
 * one-call rows and the measure-only compositions.
 *
 * - mg_nbc_post: the library's I<coll> (MPI_Ineighbor_<op>: the neighbourhood collectives too), or
 *   its <Coll>_init for a persistent request (MPI-4.0's
 *   MPI_ names where MPI_VERSION >= 4, MPICH 4.0.2 here; Open MPI 4.1's MPIX_ names of its pcollreq
 *   extension, mpi-ext.h), for a call described as the blocking collective it is the form of.
 * - The one-call rows (GL4, GL8, GL9, GL12, GL18, GL22, TGT-A1 with the I prefix): one call of the
 *   general form with arrays the row makes (counts, displacements, datatypes). MPI may read them
 *   until the operation completes (MPI-3.1 §5.12: the arguments of a non-blocking collective must
 *   not be changed before completion), so they come from mg_nbc_alloc, not from the per-thread
 *   scratch (a later call would reuse it), and are handed to whoever runs the row in mg_nbc_kept: libmpiguide
 *   keeps them with the request until a completion call returns it completed, or MPI_Request_free
 *   of a persistent one (src/lib/acct.c); the benchmark frees them after its MPI_Wait. Their size
 *   is the row's mem (p ints at most 4 per rank, equal on every rank, under the scratch cap); a
 *   failed malloc returns MPI_ERR_NO_MEM (the rank knows it alone: the call is erroneous there).
 *   Cost: the general form's, plus filling the arrays (p stores each). mg_nbc_alloc takes a
 *   block given back by an earlier completion (a pool of MG_NBC_POOL freed blocks, reused
 *   smallest-fit): a steady state of calls allocates nothing (test diff.nbc.alloc).
 * - The compositions (Iallreduce as Ireduce then Ibcast, ...): two rounds each, run by sched.c's
 *   schedules: in libmpiguide only with its progress thread (MG_R_PROGRESS, MPIGUIDE_PROGRESS=thread),
 *   the caller getting the schedule's generalized request; in the benchmark, round after round in
 *   the call (the composition's completion time), the request MPI_REQUEST_NULL.
 */
#include <limits.h>
#include <mpi.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#if defined(OPEN_MPI) /* mpi.h defines it */
#include <mpi-ext.h>
#endif

#include "algs/algs.h"

__thread void *mg_nbc_kept;

/* The pool: freed blocks, each after a header holding its size (aligned as malloc's). */
typedef union hdr {
  size_t n;
  max_align_t align;
} hdr;

static struct {
  pthread_mutex_t lock;
  hdr *blk[MG_NBC_POOL];
  int n;
} pool = {.lock = PTHREAD_MUTEX_INITIALIZER};

void *mg_nbc_alloc(size_t n) {
  hdr *h = NULL;
  pthread_mutex_lock(&pool.lock);
  int best = -1;
  for (int i = 0; i < pool.n; i++)
    if (pool.blk[i]->n >= n && (best < 0 || pool.blk[i]->n < pool.blk[best]->n)) best = i;
  if (best >= 0) h = pool.blk[best], pool.blk[best] = pool.blk[--pool.n];
  pthread_mutex_unlock(&pool.lock);
  if (!h) {
    if (n > SIZE_MAX - sizeof(hdr) || !(h = malloc(sizeof(hdr) + n))) return NULL;
    h->n = n;
  }
  return h + 1;
}

void mg_nbc_free(void *p) {
  if (!p) return;
  hdr *h = (hdr *)p - 1;
  pthread_mutex_lock(&pool.lock);
  if (pool.n < MG_NBC_POOL) pool.blk[pool.n++] = h, h = NULL;
  else { /* full: the smallest goes (the pool keeps the blocks most calls fit in) */
    int min = 0;
    for (int i = 1; i < pool.n; i++)
      if (pool.blk[i]->n < pool.blk[min]->n) min = i;
    if (pool.blk[min]->n < h->n) {
      hdr *t = pool.blk[min];
      pool.blk[min] = h, h = t;
    }
  }
  pthread_mutex_unlock(&pool.lock);
  free(h);
}

void mg_nbc_drain(void) {
  pthread_mutex_lock(&pool.lock);
  while (pool.n > 0) free(pool.blk[--pool.n]);
  pthread_mutex_unlock(&pool.lock);
}

/* The library's persistent collective Name, if it has one here. */
#if defined(MPI_VERSION) && MPI_VERSION >= 4
#define MG_HAVE_PCOLL 1
#define PCOLL(Name) PMPI_##Name##_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define MG_HAVE_PCOLL 1
#define PCOLL(Name) PMPIX_##Name##_init
#else
#define MG_HAVE_PCOLL 0
#endif

#if MG_HAVE_PCOLL
static int persistent_post(const mg_call *d, mg_coll k, MPI_Request *q) {
  MPI_Info in = d->info;
  MPI_Comm cm = d->comm;
  switch (k) {
  case MG_ALLGATHER: return PCOLL(Allgather)(d->sbuf, d->scount, d->stype, d->rbuf, d->rcount, d->rtype, cm, in, q);
  case MG_ALLGATHERV:
    return PCOLL(Allgatherv)(d->sbuf, d->scount, d->stype, d->rbuf, d->rcounts, d->rdispls, d->rtype, cm, in, q);
  case MG_ALLREDUCE: return PCOLL(Allreduce)(d->sbuf, d->rbuf, d->rcount, d->rtype, d->op, cm, in, q);
  case MG_ALLTOALL: return PCOLL(Alltoall)(d->sbuf, d->scount, d->stype, d->rbuf, d->rcount, d->rtype, cm, in, q);
  case MG_ALLTOALLV:
    return PCOLL(Alltoallv)(d->sbuf, d->scounts, d->sdispls, d->stype, d->rbuf, d->rcounts, d->rdispls, d->rtype, cm,
                            in, q);
  case MG_ALLTOALLW:
    return PCOLL(Alltoallw)(d->sbuf, d->scounts, d->sdispls, d->stypes, d->rbuf, d->rcounts, d->rdispls, d->rtypes,
                            cm, in, q);
  case MG_BARRIER: return PCOLL(Barrier)(cm, in, q);
  case MG_BCAST: return PCOLL(Bcast)(d->rbuf, d->rcount, d->rtype, d->root, cm, in, q);
  case MG_EXSCAN: return PCOLL(Exscan)(d->sbuf, d->rbuf, d->rcount, d->rtype, d->op, cm, in, q);
  case MG_GATHER:
    return PCOLL(Gather)(d->sbuf, d->scount, d->stype, d->rbuf, d->rcount, d->rtype, d->root, cm, in, q);
  case MG_GATHERV:
    return PCOLL(Gatherv)(d->sbuf, d->scount, d->stype, d->rbuf, d->rcounts, d->rdispls, d->rtype, d->root, cm, in,
                          q);
  case MG_REDUCE: return PCOLL(Reduce)(d->sbuf, d->rbuf, d->rcount, d->rtype, d->op, d->root, cm, in, q);
  case MG_REDUCE_SCATTER: return PCOLL(Reduce_scatter)(d->sbuf, d->rbuf, d->rcounts, d->rtype, d->op, cm, in, q);
  case MG_REDUCE_SCATTER_BLOCK:
    return PCOLL(Reduce_scatter_block)(d->sbuf, d->rbuf, d->rcount, d->rtype, d->op, cm, in, q);
  case MG_SCAN: return PCOLL(Scan)(d->sbuf, d->rbuf, d->rcount, d->rtype, d->op, cm, in, q);
  case MG_SCATTER:
    return PCOLL(Scatter)(d->sbuf, d->scount, d->stype, d->rbuf, d->rcount, d->rtype, d->root, cm, in, q);
  case MG_SCATTERV:
    return PCOLL(Scatterv)(d->sbuf, d->scounts, d->sdispls, d->stype, d->rbuf, d->rcount, d->rtype, d->root, cm, in,
                           q);
  case MG_NEIGHBOR_ALLGATHER:
    return PCOLL(Neighbor_allgather)(d->sbuf, d->scount, d->stype, d->rbuf, d->rcount, d->rtype, cm, in, q);
  case MG_NEIGHBOR_ALLGATHERV:
    return PCOLL(Neighbor_allgatherv)(d->sbuf, d->scount, d->stype, d->rbuf, d->rcounts, d->rdispls, d->rtype, cm,
                                      in, q);
  case MG_NEIGHBOR_ALLTOALL:
    return PCOLL(Neighbor_alltoall)(d->sbuf, d->scount, d->stype, d->rbuf, d->rcount, d->rtype, cm, in, q);
  case MG_NEIGHBOR_ALLTOALLV:
    return PCOLL(Neighbor_alltoallv)(d->sbuf, d->scounts, d->sdispls, d->stype, d->rbuf, d->rcounts, d->rdispls,
                                     d->rtype, cm, in, q);
  case MG_NEIGHBOR_ALLTOALLW:
    return PCOLL(Neighbor_alltoallw)(d->sbuf, d->scounts, d->sadispls, d->stypes, d->rbuf, d->rcounts, d->radispls,
                                     d->rtypes, cm, in, q);
  default: return MPI_ERR_INTERN;
  }
}
#endif

/* The library's MPI_Ineighbor_<op> for a call described as the blocking neighbourhood collective k. */
static int ineighbor_post(const mg_call *d, mg_coll k, MPI_Request *q) {
  switch (k) {
  case MG_NEIGHBOR_ALLGATHER:
    return PMPI_Ineighbor_allgather(d->sbuf, d->scount, d->stype, d->rbuf, d->rcount, d->rtype, d->comm, q);
  case MG_NEIGHBOR_ALLGATHERV:
    return PMPI_Ineighbor_allgatherv(d->sbuf, d->scount, d->stype, d->rbuf, d->rcounts, d->rdispls, d->rtype,
                                     d->comm, q);
  case MG_NEIGHBOR_ALLTOALL:
    return PMPI_Ineighbor_alltoall(d->sbuf, d->scount, d->stype, d->rbuf, d->rcount, d->rtype, d->comm, q);
  case MG_NEIGHBOR_ALLTOALLV:
    return PMPI_Ineighbor_alltoallv(d->sbuf, d->scounts, d->sdispls, d->stype, d->rbuf, d->rcounts, d->rdispls,
                                    d->rtype, d->comm, q);
  default:
    return PMPI_Ineighbor_alltoallw(d->sbuf, d->scounts, d->sadispls, d->stypes, d->rbuf, d->rcounts, d->radispls,
                                    d->rtypes, d->comm, q);
  }
}

/* mg_nbc_post of call d described as blocking collective k (d->coll may be its non-blocking form:
 * the default row posts the caller's call without copying its descriptor). */
static int post_as(const mg_call *d, mg_coll k, MPI_Request *q) {
  if (d->persistent) {
#if MG_HAVE_PCOLL
    return persistent_post(d, k, q);
#else
    return MPI_ERR_INTERN; /* no wrapper of a persistent collective is compiled here */
#endif
  }
  if (mg_coll_is_neighbor(k)) return ineighbor_post(d, k, q);
  if (k == MG_ALLTOALLV) /* the library's own, without nonblocking.c's repair of empty datatypes */
    return PMPI_Ialltoallv(d->sbuf, d->scounts, d->sdispls, d->stype, d->rbuf, d->rcounts, d->rdispls, d->rtype,
                           d->comm, q);
  return mg_nonblocking_start_as(d, k, q);
}

int mg_nbc_post(const mg_call *d, MPI_Request *q) { return post_as(d, d->coll, q); }

mg_call mg_nbc_twin(const mg_call *c) {
  mg_call d = *c;
  d.coll = mg_coll_base(c->coll);
  return d;
}

int mg_nbc_default(const mg_call *c) { return post_as(c, mg_coll_base(c->coll), c->req); }

size_t mg_nbc_ints1_mem(const mg_call *c) { return (size_t)c->size * sizeof(int); }
size_t mg_nbc_ints2_mem(const mg_call *c) { return 2 * (size_t)c->size * sizeof(int); }
size_t mg_nbc_ints4_mem(const mg_call *c) { return 4 * (size_t)c->size * sizeof(int); }

/* Post d on c's request and hand `kept` (mg_nbc_alloc'd, read by the operation until it completes) to
 * the caller through mg_nbc_kept; freed here when the post fails. */
static int post_keeping(const mg_call *c, const mg_call *d, void *kept) {
  int rc = mg_nbc_post(d, c->req);
  if (rc == MPI_SUCCESS) mg_nbc_kept = kept;
  else mg_nbc_free(kept);
  return rc;
}

/* n counts of value `count` and their displacements i * count, in a fresh block (or at the root
 * only: NULL elsewhere, *ok 1). */
static int *equal_counts(int p, int count, int *ok) {
  int *a = mg_nbc_alloc(2 * (size_t)p * sizeof(int));
  *ok = a != NULL;
  for (int i = 0; a && i < p; i++) a[i] = count, a[p + i] = i * count;
  return a;
}

int mg_iallgather_as_iallgatherv(const mg_call *c) {
  int ok, *a = equal_counts(c->size, c->rcount, &ok);
  if (!ok) return MPI_ERR_NO_MEM;
  mg_call d = mg_nbc_twin(c);
  d.coll = MG_ALLGATHERV, d.rcounts = a, d.rdispls = a + c->size;
  return post_keeping(c, &d, a);
}

int mg_igather_as_igatherv(const mg_call *c) {
  mg_call d = mg_nbc_twin(c);
  int *a = NULL, ok = 1;
  if (c->rank == c->root && !(a = equal_counts(c->size, c->rcount, &ok))) return MPI_ERR_NO_MEM;
  d.coll = MG_GATHERV, d.rcounts = a, d.rdispls = a ? a + c->size : NULL;
  return post_keeping(c, &d, a);
}

int mg_iscatter_as_iscatterv(const mg_call *c) {
  mg_call d = mg_nbc_twin(c);
  int *a = NULL, ok = 1;
  if (c->rank == c->root && !(a = equal_counts(c->size, c->scount, &ok))) return MPI_ERR_NO_MEM;
  d.coll = MG_SCATTERV, d.scounts = a, d.sdispls = a ? a + c->size : NULL;
  return post_keeping(c, &d, a);
}

int mg_ialltoall_as_ialltoallv(const mg_call *c) {
  int p = c->size, *a = mg_nbc_alloc(4 * (size_t)p * sizeof(int));
  if (!a) return MPI_ERR_NO_MEM;
  for (int i = 0; i < p; i++)
    a[i] = c->scount, a[p + i] = i * c->scount, a[2 * p + i] = c->rcount, a[3 * p + i] = i * c->rcount;
  mg_call d = mg_nbc_twin(c);
  d.coll = MG_ALLTOALLV, d.scounts = a, d.sdispls = a + p, d.rcounts = a + 2 * p, d.rdispls = a + 3 * p;
  return post_keeping(c, &d, a);
}

int mg_ireduce_scatter_block_as_ireducescatter(const mg_call *c) {
  int p = c->size, *a = mg_nbc_alloc((size_t)p * sizeof(int));
  if (!a) return MPI_ERR_NO_MEM;
  for (int i = 0; i < p; i++) a[i] = c->rcount;
  mg_call d = mg_nbc_twin(c);
  d.coll = MG_REDUCE_SCATTER, d.rcounts = a;
  return post_keeping(c, &d, a);
}

int mg_ibcast_as_iallgatherv(const mg_call *c) {
  int p = c->size, *a = mg_nbc_alloc(2 * (size_t)p * sizeof(int));
  if (!a) return MPI_ERR_NO_MEM;
  memset(a, 0, 2 * (size_t)p * sizeof(int));
  a[c->root] = c->rcount; /* only the root contributes; every displacement 0 */
  mg_call d = mg_nbc_twin(c);
  /* every rank in place (its contribution is where the result goes); the send side the receive
   * side's, as mg_bcast_as_allgatherv passes it */
  d.coll = MG_ALLGATHERV, d.sbuf = MPI_IN_PLACE, d.scount = a[c->rank], d.stype = c->rtype;
  d.rcounts = a, d.rdispls = a + p;
  return post_keeping(c, &d, a);
}

/* The counts and displacements, the datatypes, and (after them, used only during the call) which
 * datatypes the row made. */
size_t mg_ialltoallv_as_ialltoallw_mem(const mg_call *c) {
  return 6 * (size_t)c->size * sizeof(int) + 2 * (size_t)c->size * sizeof(MPI_Datatype);
}

/* One side of alltoallw from alltoallv's: byte displacements, the datatype repeated; a peer whose
 * displacement in bytes exceeds an int gets a one-block hindexed datatype (count 1, displacement
 * 0), freed once the operation is posted (MPI-3.1 §4.1.9: pending communication completes
 * normally). Each rank decides for its own side: the type signatures are the same either way. */
static int w_side(int p, const int *counts, const int *displs, MPI_Datatype dt, int *wc, int *wd, MPI_Datatype *wt,
                  int *made) {
  MPI_Aint lb, extent;
  int rc = PMPI_Type_get_extent(dt, &lb, &extent);
  for (int i = 0; rc == MPI_SUCCESS && i < p; i++) {
    MPI_Aint b = (MPI_Aint)displs[i] * extent;
    wc[i] = counts[i], wt[i] = dt, wd[i] = (int)b;
    if (b == (MPI_Aint)(int)b) continue;
    int one = counts[i];
    rc = PMPI_Type_create_hindexed(1, &one, &b, dt, &wt[i]);
    if (rc == MPI_SUCCESS) rc = PMPI_Type_commit(&wt[i]);
    if (rc == MPI_SUCCESS) wc[i] = 1, wd[i] = 0, made[i] = 1;
  }
  return rc;
}

int mg_ialltoallv_as_ialltoallw(const mg_call *c) {
  int p = c->size, rc;
  char *a = mg_nbc_alloc(mg_ialltoallv_as_ialltoallw_mem(c));
  if (!a) return MPI_ERR_NO_MEM;
  /* the datatypes first (their alignment is the block's) */
  MPI_Datatype *st = (MPI_Datatype *)a, *rt = st + p;
  int *sc = (int *)(a + 2 * (size_t)p * sizeof(MPI_Datatype)), *sd = sc + p, *rcn = sd + p, *rd = rcn + p;
  int *mk = rd + p; /* which datatypes this row made */
  memset(mk, 0, 2 * (size_t)p * sizeof(int));
  rc = w_side(p, c->scounts, c->sdispls, c->stype, sc, sd, st, mk);
  if (rc == MPI_SUCCESS) rc = w_side(p, c->rcounts, c->rdispls, c->rtype, rcn, rd, rt, mk + p);
  mg_call d = mg_nbc_twin(c);
  d.coll = MG_ALLTOALLW, d.scounts = sc, d.sdispls = sd, d.stypes = st, d.rcounts = rcn, d.rdispls = rd,
  d.rtypes = rt, d.stype = d.rtype = MPI_DATATYPE_NULL;
  if (rc == MPI_SUCCESS) {
    rc = mg_nbc_post(&d, c->req);
    if (rc == MPI_SUCCESS) mg_nbc_kept = a;
  }
  for (int i = 0; i < 2 * p; i++)
    if (mk[i]) PMPI_Type_free(i < p ? &st[i] : &rt[i - p]);
  if (rc != MPI_SUCCESS) mg_nbc_free(a);
  return rc;
}

/* The compositions, as schedules of two rounds (sched.c): round 0 and round 1 posted on `cm`, the
 * caller's communicator or its shadow, one request each (*nq 1). `tmp`: the row's intermediate
 * vector, when it has one. */
static int iallreduce_round(const mg_call *c, void *tmp, int r, MPI_Comm cm, MPI_Request *q, int *nq) {
  *nq = 1;
  (void)tmp;
  if (r == 1) return PMPI_Ibcast(c->rbuf, c->rcount, c->rtype, 0, cm, q);
  int in = c->sbuf == MPI_IN_PLACE;
  const void *s = c->rank == 0 ? c->sbuf : in ? c->rbuf : c->sbuf; /* a non-root's in-place data: rbuf */
  return PMPI_Ireduce(s, c->rbuf, c->rcount, c->rtype, c->op, 0, cm, q);
}

int mg_iallreduce_as_ireduce_ibcast(const mg_call *c) { return mg_sched_run(c, 2, iallreduce_round, 0, 1); }

static int iallgather_round(const mg_call *c, void *tmp, int r, MPI_Comm cm, MPI_Request *q, int *nq) {
  *nq = 1;
  (void)tmp;
  if (r == 1) return PMPI_Ibcast(c->rbuf, c->size * c->rcount, c->rtype, 0, cm, q);
  const void *s = c->sbuf;
  int sn = c->scount;
  MPI_Datatype st = c->stype;
  if (c->sbuf == MPI_IN_PLACE && c->rank != 0) { /* the own block, where the result keeps it */
    MPI_Aint lb, extent;
    int rc = PMPI_Type_get_extent(c->rtype, &lb, &extent);
    if (rc != MPI_SUCCESS) return rc;
    s = (const char *)c->rbuf + (MPI_Aint)c->rank * c->rcount * extent, sn = c->rcount, st = c->rtype;
  }
  return PMPI_Igather(s, sn, st, c->rbuf, c->rcount, c->rtype, 0, cm, q);
}

int mg_iallgather_as_igather_ibcast(const mg_call *c) { return mg_sched_run(c, 2, iallgather_round, 0, 1); }

size_t mg_ireduce_scatter_block_as_ireduce_iscatter_mem(const mg_call *c) {
  return mg_reduce_scatter_block_as_reduce_scatter_mem(c);
}

/* As the blocking reduce_scatter_block_as_reduce_scatter: the input (in place: the receive
 * buffer) reduced into rank 0's vector tmp, then scattered from it into every receive buffer. */
static int ireduce_scatter_block_round(const mg_call *c, void *tmp, int r, MPI_Comm cm, MPI_Request *q, int *nq) {
  *nq = 1;
  int n = c->rcount;
  void *whole = NULL; /* significant at rank 0 only */
  mg_type t;
  if (c->rank == 0) {
    int rc = mg_type_get(c->rtype, &t);
    if (rc != MPI_SUCCESS) return rc;
    whole = mg_type_base(tmp, &t);
  }
  if (r == 1) return PMPI_Iscatter(whole, n, c->rtype, c->rbuf, n, c->rtype, 0, cm, q);
  const void *s = c->sbuf == MPI_IN_PLACE ? c->rbuf : c->sbuf;
  return PMPI_Ireduce(s, whole, c->size * n, c->rtype, c->op, 0, cm, q);
}

int mg_ireduce_scatter_block_as_ireduce_iscatter(const mg_call *c) {
  size_t tmp = c->rank == 0 ? mg_ireduce_scatter_block_as_ireduce_iscatter_mem(c) : 0;
  return mg_sched_run(c, 2, ireduce_scatter_block_round, tmp, 1);
}
