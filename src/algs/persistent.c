/*
 * The persistent family (issue 48, "persistence must not cost"): a blocking collective against its
 * persistent form, the request made once with MPI_<Coll>_init (MPI-4.0: MPICH 4.0 here) or
 * MPIX_<Coll>_init (Open MPI 4.1's pcollreq extension, mpi-ext.h; the build takes whichever the
 * headers declare, as src/lib/gen_wrappers.py guards the accounting wrappers of those functions),
 * then every call one MPI_Start and one MPI_Wait. The row (<coll>_as_persistent) states
 * <Coll>(n) <= Start + Wait; check reads the reverse off the same measurements (PERS-R: the
 * persistent form must not be slower than the blocking call it stands for) and the equivalence.
 *
 * The request cache. One record per communicator (comm_records.h), holding up to MG_PERS_SLOTS
 * requests, each with the call it was made for: buffers, counts, datatypes, op, root, and copies
 * of the count, displacement and datatype arrays that are significant at this rank (the request
 * reads the arrays it was given until it is freed, so it is given the copies). A call matches an
 * entry when every one of those is equal. The engine (bench/batch.c) calls mg_persistent_prepare
 * before the synchronisation step of each measurement of a row of this family, outside the timed
 * part: there the ranks agree whether each has a matching entry (one allreduce on the
 * communicator's private duplicate, mg_p2p_comm), and when any has none every rank frees its entry
 * of the least recently used slot and makes the request anew. A prepared entry is "armed"; the row
 * then starts it and waits. A row called without a prepare before it (difftest-style use through
 * mg_run) takes the same agreed path inside the call, so it is correct, only slower. The engine
 * frees the requests of a communicator at the end of each block (mg_persistent_release), before it
 * frees the block's buffers and datatypes: a later block whose buffers happen to lie at the same
 * addresses, or whose datatype got a freed one's handle, never starts a stale request. The record's
 * delete callback (MPI_Comm_free of the communicator) orphans it; its inactive requests are freed
 * at the next lookup or at finalize (MPI_Request_free of an inactive persistent request is local).
 *
 * Why measure-only (MG_R_MEASURE_ONLY, the row's description). libmpiguide could turn a blocking
 * call into a persistent one only through such a cache, and a cache hit is a rank-local fact: an
 * application that moves one rank's buffer (a new allocation, a stack array) makes that rank miss
 * and call <Coll>_init, a collective, while the others start their old request: a mismatch (a
 * hang or wrong data) that the library's own call never has. Agreeing on every call costs an
 * allreduce, more than the call it would save; a datatype freed and re-created gets an equal handle
 * with another layout, which no key can see. So the benchmark and check run the rows (where every
 * rank makes the same calls, with the agreement outside the timing), tune never chooses them.
 *
 * Arguments as the blocking call's: the alltoallv repair of nonblocking.c (Open MPI 4.1.4's libnbc
 * posts a message for a non-zero count of an empty datatype) applies to the persistent form, which
 * Open MPI builds on libnbc too: a side whose datatype is empty passes zero counts (in the copies).
 * Scratch: none from the pool; the copies (at most 4p ints and 2p datatypes per entry) are the
 * cache's, bounded by MG_PERS_SLOTS per communicator. Errors: an init's or start's code returns
 * unchanged; a library without persistent collectives returns MPI_ERR_INTERN (the benchmark
 * records a failed cell).
 */
#include <stdlib.h>
#include <string.h>

#include "algs/algs.h"
#include "algs/comm_records.h"
#include "registry/mpi_features.h"

#if defined(MG_HAVE_PCOLL) && MG_HAVE_PCOLL == 4
#define MG_PINIT(f) PMPI_##f##_init
#elif defined(MG_HAVE_PCOLL) && MG_HAVE_PCOLL == 1
#define MG_PINIT(f) PMPIX_##f##_init
#endif

/* Requests kept per communicator: a rotating root needs one per root it visits. */
#define MG_PERS_SLOTS 8

typedef struct pentry {
  int used, armed;
  unsigned long stamp; /* last use: the least recently used slot is replaced */
  mg_call key;         /* the call; its array pointers point into arr and types */
  int *arr;            /* copies of scounts, sdispls, rcounts, rdispls (p each, where significant) */
  MPI_Datatype *types; /* alltoallw: copies of stypes, rtypes */
  MPI_Request req;
} pentry;

typedef struct pers_rec {
  mg_record rec;
  unsigned long clock;
  pentry e[MG_PERS_SLOTS];
} pers_rec;

static void entry_free(pentry *e) {
  if (e->used && e->req != MPI_REQUEST_NULL) PMPI_Request_free(&e->req);
  free(e->arr), free(e->types);
  memset(e, 0, sizeof *e);
}

static void pers_free(mg_record *r) {
  pers_rec *p = (pers_rec *)r;
  for (int i = 0; i < MG_PERS_SLOTS; i++) entry_free(&p->e[i]);
  free(p);
}

static mg_records pers = MG_RECORDS_INIT(pers_free);

void mg_persistent_finalize(void) { mg_records_finalize(&pers); }

/* Which arrays of c are significant at this rank: bits 0-3 scounts, sdispls, rcounts, rdispls;
 * 4 the datatype arrays. */
static unsigned arrays_of(const mg_call *c) {
  int root_here = c->rank == c->root;
  switch (c->coll) {
  case MG_ALLGATHERV: return 4 | 8;
  case MG_REDUCE_SCATTER: return 4;
  case MG_GATHERV: return root_here ? 4 | 8 : 0;
  case MG_SCATTERV: return root_here ? 1 | 2 : 0;
  case MG_ALLTOALLV: return (c->sbuf == MPI_IN_PLACE ? 0 : 1 | 2) | 4 | 8;
  case MG_ALLTOALLW: return (c->sbuf == MPI_IN_PLACE ? 0 : 1 | 2 | 16) | 4 | 8 | 16;
  default: return 0;
  }
}

static const int *array_k(const mg_call *c, int k) {
  return k == 0 ? c->scounts : k == 1 ? c->sdispls : k == 2 ? c->rcounts : c->rdispls;
}

/* Whether entry e was made for call c. */
static int matches(const pentry *e, const mg_call *c) {
  const mg_call *k = &e->key;
  if (!e->used || k->coll != c->coll || k->sbuf != c->sbuf || k->rbuf != c->rbuf || k->scount != c->scount ||
      k->rcount != c->rcount || k->stype != c->stype || k->rtype != c->rtype || k->op != c->op ||
      k->root != c->root)
    return 0;
  unsigned m = arrays_of(c);
  size_t p = (size_t)c->size;
  for (int j = 0; j < 4; j++)
    if ((m & (1u << j)) && memcmp(e->arr + (size_t)j * p, array_k(c, j), p * sizeof(int))) return 0;
  if ((m & 16) && c->sbuf != MPI_IN_PLACE && memcmp(e->types, c->stypes, p * sizeof *e->types)) return 0;
  if ((m & 16) && memcmp(e->types + p, c->rtypes, p * sizeof *e->types)) return 0;
  return 1;
}

#ifdef MG_PINIT
/* The counts a side passes: zeros when its datatype is empty (the alltoallv repair above). */
static void zero_if_empty(int *counts, MPI_Datatype dt, int p) {
  if (mg_type_bytes(1, dt) == 0) memset(counts, 0, (size_t)p * sizeof(int));
}

/* Make e's request for call k (its arrays the copies). An MPI code. */
static int make_request(pentry *e) {
  const mg_call *c = &e->key;
  MPI_Info in = MPI_INFO_NULL;
  MPI_Request *q = &e->req;
  switch (c->coll) {
  case MG_ALLGATHER:
    return MG_PINIT(Allgather)(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->comm, in, q);
  case MG_ALLGATHERV:
    return MG_PINIT(Allgatherv)(c->sbuf, c->scount, c->stype, c->rbuf, c->rcounts, c->rdispls, c->rtype, c->comm, in,
                                q);
  case MG_ALLREDUCE: return MG_PINIT(Allreduce)(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, c->comm, in, q);
  case MG_ALLTOALL:
    return MG_PINIT(Alltoall)(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->comm, in, q);
  case MG_ALLTOALLV:
    if (c->sbuf != MPI_IN_PLACE) zero_if_empty(e->arr, c->stype, c->size);
    zero_if_empty(e->arr + 2 * (size_t)c->size, c->rtype, c->size);
    return MG_PINIT(Alltoallv)(c->sbuf, c->scounts, c->sdispls, c->stype, c->rbuf, c->rcounts, c->rdispls, c->rtype,
                               c->comm, in, q);
  case MG_ALLTOALLW:
    return MG_PINIT(Alltoallw)(c->sbuf, c->scounts, c->sdispls, c->stypes, c->rbuf, c->rcounts, c->rdispls, c->rtypes,
                               c->comm, in, q);
  case MG_BARRIER: return MG_PINIT(Barrier)(c->comm, in, q);
  case MG_BCAST: return MG_PINIT(Bcast)(c->rbuf, c->rcount, c->rtype, c->root, c->comm, in, q);
  case MG_EXSCAN: return MG_PINIT(Exscan)(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, c->comm, in, q);
  case MG_GATHER:
    return MG_PINIT(Gather)(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->root, c->comm, in, q);
  case MG_GATHERV:
    return MG_PINIT(Gatherv)(c->sbuf, c->scount, c->stype, c->rbuf, c->rcounts, c->rdispls, c->rtype, c->root,
                             c->comm, in, q);
  case MG_REDUCE: return MG_PINIT(Reduce)(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, c->root, c->comm, in, q);
  case MG_REDUCE_SCATTER:
    return MG_PINIT(Reduce_scatter)(c->sbuf, c->rbuf, c->rcounts, c->rtype, c->op, c->comm, in, q);
  case MG_REDUCE_SCATTER_BLOCK:
    return MG_PINIT(Reduce_scatter_block)(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, c->comm, in, q);
  case MG_SCAN: return MG_PINIT(Scan)(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, c->comm, in, q);
  case MG_SCATTER:
    return MG_PINIT(Scatter)(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->root, c->comm, in, q);
  case MG_SCATTERV:
    return MG_PINIT(Scatterv)(c->sbuf, c->scounts, c->sdispls, c->stype, c->rbuf, c->rcount, c->rtype, c->root,
                              c->comm, in, q);
  default: return MPI_ERR_INTERN;
  }
}
#else
static int make_request(pentry *e) {
  (void)e;
  return MPI_ERR_INTERN; /* no persistent collectives in this MPI library: mg_applicable refuses the rows */
}
#endif

/* Fill e for call c (copies of its significant arrays) and make the request. An MPI code; out of
 * memory aborts (a rank that could not keep the copies cannot take part in the agreed init). */
static int fill(pentry *e, const mg_call *c) {
  unsigned m = arrays_of(c);
  size_t p = (size_t)c->size;
  e->key = *c;
  e->key.scounts = e->key.sdispls = e->key.rcounts = e->key.rdispls = NULL;
  e->key.stypes = e->key.rtypes = NULL;
  e->req = MPI_REQUEST_NULL;
  e->used = 1;
  if (m & 15) {
    if (!(e->arr = calloc(4 * p, sizeof *e->arr))) return PMPI_Abort(c->comm, 1);
    for (int j = 0; j < 4; j++)
      if (m & (1u << j)) memcpy(e->arr + (size_t)j * p, array_k(c, j), p * sizeof(int));
    e->key.scounts = e->arr, e->key.sdispls = e->arr + p, e->key.rcounts = e->arr + 2 * p,
    e->key.rdispls = e->arr + 3 * p;
  }
  if (m & 16) {
    if (!(e->types = calloc(2 * p, sizeof *e->types))) return PMPI_Abort(c->comm, 1);
    if (c->sbuf != MPI_IN_PLACE) memcpy(e->types, c->stypes, p * sizeof *e->types);
    memcpy(e->types + p, c->rtypes, p * sizeof *e->types);
    e->key.stypes = e->types, e->key.rtypes = e->types + p;
  }
  return make_request(e);
}

/* The record of comm, made when it has none. An MPI code. */
static int record_of(MPI_Comm comm, pers_rec **out) {
  mg_record *r;
  int rc = mg_records_find(&pers, comm, &r);
  if (rc != MPI_SUCCESS || (*out = (pers_rec *)r)) return rc;
  pers_rec *p = calloc(1, sizeof *p);
  if (!p) return PMPI_Abort(comm, 1);
  if ((rc = mg_records_add(&pers, comm, &p->rec)) != MPI_SUCCESS) return free(p), rc;
  *out = p;
  return MPI_SUCCESS;
}

/* The agreed step (collective over c->comm): the entry of c, made anew on every rank when any rank
 * has none, armed, in *out. An MPI code. */
static int prepare(const mg_call *c, pentry **out) {
  pers_rec *p;
  MPI_Comm pc;
  int rc = record_of(c->comm, &p);
  if (rc != MPI_SUCCESS || (rc = mg_p2p_comm(c->comm, &pc)) != MPI_SUCCESS) return rc;
  pentry *e = NULL;
  for (int i = 0; i < MG_PERS_SLOTS && !e; i++)
    if (matches(&p->e[i], c)) e = &p->e[i];
  int miss = e == NULL;
  if ((rc = PMPI_Allreduce(MPI_IN_PLACE, &miss, 1, MPI_INT, MPI_MAX, pc)) != MPI_SUCCESS) return rc;
  if (miss) { /* every rank replaces the slot alike: the same calls were prepared in the same order */
    if (!e) {
      e = &p->e[0];
      for (int i = 1; i < MG_PERS_SLOTS; i++)
        if (!p->e[i].used || (e->used && p->e[i].stamp < e->stamp)) e = &p->e[i];
    }
    entry_free(e);
    if ((rc = fill(e, c)) != MPI_SUCCESS) {
      entry_free(e);
      return rc;
    }
  }
  e->stamp = ++p->clock;
  e->armed = 1;
  *out = e;
  return MPI_SUCCESS;
}

int mg_persistent_prepare(const mg_call *c) {
  pentry *e;
  return prepare(c, &e);
}

int mg_persistent(const mg_call *c, int unused) {
  (void)unused;
  pentry *e = NULL;
  mg_record *r;
  int rc = mg_records_find(&pers, c->comm, &r);
  if (rc != MPI_SUCCESS) return rc;
  for (int i = 0; r && i < MG_PERS_SLOTS && !e; i++) {
    pentry *x = &((pers_rec *)r)->e[i];
    if (x->armed && matches(x, c)) e = x;
  }
  if (!e && (rc = prepare(c, &e)) != MPI_SUCCESS) return rc; /* not prepared: the agreed path */
  e->armed = 0;
  if ((rc = PMPI_Start(&e->req)) != MPI_SUCCESS) return rc;
  return PMPI_Wait(&e->req, MPI_STATUS_IGNORE);
}

void mg_persistent_release(MPI_Comm comm) {
  mg_record *r;
  if (mg_records_find(&pers, comm, &r) != MPI_SUCCESS || !r) return;
  for (int i = 0; i < MG_PERS_SLOTS; i++) entry_free(&((pers_rec *)r)->e[i]);
}
