/*
 * Differential test of the non-blocking and persistent collectives (registry.h, MG_NBC_OPS): every
 * row of every operation forced through libmpiguide's MPI_I<coll> (and MPI_<Coll>_init or Open
 * MPI's MPIX_<Coll>_init where compiled), against the library's own non-blocking call (PMPI_, via
 * mg_nbc_post) on the same inputs, byte for byte over the whole receive buffer (gaps of derived
 * datatypes included). The cases: datatypes (MPI_INT, a vector with gaps), counts (0 included),
 * roots, in place where legal; each case completed by another completion call (MPI_Wait, polling
 * MPI_Test, MPI_Waitall with point-to-point requests mixed in, MPI_Waitany, MPI_Waitsome, MPI_Testall);
 * three outstanding operations on one communicator completed in reverse order; persistent requests
 * started three times and freed; after every case the requests libmpiguide keeps scratch for
 * (mpiguide_requests_kept) are back to 0, and while a row with scratch is outstanding they are not;
 * invalid arguments (a negative count) return the library's error class on every rank; the rooted
 * ones with their root-only side garbage off the root (NULL buffer, count -1, MPI_DATATYPE_NULL,
 * NULL arrays: what MPI never reads there). Each case's receive buffer lies just before its send
 * buffer in one allocation, so that a write past the receive buffer changes the compared send side.
 * Measure-only rows: only that they fall back (the library never runs them). The schedule rows
 * (MG_R_PROGRESS) run only under MPIGUIDE_PROGRESS=thread (diff.nbc.sched.*), and fall back
 * otherwise; run_orders runs each case in the two orders a schedule advanced only inside
 * libmpiguide's calls or in the post would deadlock, and run_freed_type frees the derived datatype
 * right after the post (a schedule's later round must not use the freed handle).
 * --shapes: then MPI_INT at the quick counts on communicators split into odd and even ranks, with
 * the ranks reversed, and of the first s ranks (s = 1 .. np), and the reductions (ireduce,
 * iallreduce, iscan, iexscan, ireduce_scatter*) with a non-commutative user op (a o b = a).
 *
 *   nbctest [--quick] [--shapes] [--trace] <operation> ... | all   (under mpiexec, 2-4 ranks;
 *                                                        --trace: every case on stderr first)
 *   nbctest --list FILE                            (no MPI: the operations, for CTest)
 * Exit code 0 when every rank saw every case pass.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpiguide.h"
#include "registry/algorithms.h"
#include "registry/registry.h"
#include "common/pcoll.h" /* PINIT, HAVE_PCOLL */

static int g_rank, g_np, g_quick, g_fail, g_cases, g_trace;
/* libmpiguide's progress thread runs the schedule rows (MG_R_PROGRESS): MPIGUIDE_PROGRESS=thread
 * and MPI_THREAD_MULTIPLE given (src/algs/sched.c); g_sched_ran: cases a schedule row ran in. */
static int g_progress;
static long g_sched_ran;
/* The shapes pass (--shapes): MPI_INT only, the quick counts; g_op: the reductions' op. */
static int g_ints_only;
static MPI_Op g_op = MPI_OP_NULL;

/* A non-commutative (associative) op: a o b = a, so a reduction over ranks 0..p-1 is rank 0's
 * value and a scan's is rank 0's everywhere; operands swapped or reordered give another rank's. */
static void first_op(void *in, void *inout, int *len, MPI_Datatype *dt) {
  int size = 0; /* *dt may be a library's own type of several ints */
  MPI_Type_size(*dt, &size);
  memcpy(inout, in, (size_t)*len * (size_t)size);
}

#define FAIL(...)                                                                                            \
  do {                                                                                                       \
    fprintf(stderr, "nbctest: rank %d: ", g_rank), fprintf(stderr, __VA_ARGS__), fputc('\n', stderr);        \
    g_fail = 1;                                                                                              \
  } while (0)

/* The call through libmpiguide's wrapper (persistent: its *_init, with MPI_INFO_NULL). */
static int user_post(const mg_call *c, int persistent, MPI_Request *q) {
  const void *s = c->sbuf;
  void *r = c->rbuf;
  MPI_Comm m = c->comm;
#if HAVE_PCOLL
  MPI_Info in = MPI_INFO_NULL;
#define P(Name, ...) (persistent ? PINIT(Name)(__VA_ARGS__, in, q) : 
#else
#define P(Name, ...) (persistent ? MPI_ERR_OTHER :
#endif
  switch (mg_coll_base(c->coll)) {
  case MG_ALLGATHER: return P(Allgather, s, c->scount, c->stype, r, c->rcount, c->rtype, m)
        MPI_Iallgather(s, c->scount, c->stype, r, c->rcount, c->rtype, m, q));
  case MG_ALLGATHERV: return P(Allgatherv, s, c->scount, c->stype, r, c->rcounts, c->rdispls, c->rtype, m)
        MPI_Iallgatherv(s, c->scount, c->stype, r, c->rcounts, c->rdispls, c->rtype, m, q));
  case MG_ALLREDUCE: return P(Allreduce, s, r, c->rcount, c->rtype, c->op, m)
        MPI_Iallreduce(s, r, c->rcount, c->rtype, c->op, m, q));
  case MG_ALLTOALL: return P(Alltoall, s, c->scount, c->stype, r, c->rcount, c->rtype, m)
        MPI_Ialltoall(s, c->scount, c->stype, r, c->rcount, c->rtype, m, q));
  case MG_ALLTOALLV: return P(Alltoallv, s, c->scounts, c->sdispls, c->stype, r, c->rcounts, c->rdispls, c->rtype, m)
        MPI_Ialltoallv(s, c->scounts, c->sdispls, c->stype, r, c->rcounts, c->rdispls, c->rtype, m, q));
  case MG_ALLTOALLW:
    return P(Alltoallw, s, c->scounts, c->sdispls, c->stypes, r, c->rcounts, c->rdispls, c->rtypes, m)
        MPI_Ialltoallw(s, c->scounts, c->sdispls, c->stypes, r, c->rcounts, c->rdispls, c->rtypes, m, q));
  case MG_BARRIER: return P(Barrier, m) MPI_Ibarrier(m, q));
  case MG_BCAST: return P(Bcast, r, c->rcount, c->rtype, c->root, m) MPI_Ibcast(r, c->rcount, c->rtype, c->root, m, q));
  case MG_EXSCAN: return P(Exscan, s, r, c->rcount, c->rtype, c->op, m)
        MPI_Iexscan(s, r, c->rcount, c->rtype, c->op, m, q));
  case MG_GATHER: return P(Gather, s, c->scount, c->stype, r, c->rcount, c->rtype, c->root, m)
        MPI_Igather(s, c->scount, c->stype, r, c->rcount, c->rtype, c->root, m, q));
  case MG_GATHERV: return P(Gatherv, s, c->scount, c->stype, r, c->rcounts, c->rdispls, c->rtype, c->root, m)
        MPI_Igatherv(s, c->scount, c->stype, r, c->rcounts, c->rdispls, c->rtype, c->root, m, q));
  case MG_REDUCE: return P(Reduce, s, r, c->rcount, c->rtype, c->op, c->root, m)
        MPI_Ireduce(s, r, c->rcount, c->rtype, c->op, c->root, m, q));
  case MG_REDUCE_SCATTER: return P(Reduce_scatter, s, r, c->rcounts, c->rtype, c->op, m)
        MPI_Ireduce_scatter(s, r, c->rcounts, c->rtype, c->op, m, q));
  case MG_REDUCE_SCATTER_BLOCK: return P(Reduce_scatter_block, s, r, c->rcount, c->rtype, c->op, m)
        MPI_Ireduce_scatter_block(s, r, c->rcount, c->rtype, c->op, m, q));
  case MG_SCAN: return P(Scan, s, r, c->rcount, c->rtype, c->op, m) MPI_Iscan(s, r, c->rcount, c->rtype, c->op, m, q));
  case MG_SCATTER: return P(Scatter, s, c->scount, c->stype, r, c->rcount, c->rtype, c->root, m)
        MPI_Iscatter(s, c->scount, c->stype, r, c->rcount, c->rtype, c->root, m, q));
  case MG_SCATTERV: return P(Scatterv, s, c->scounts, c->sdispls, c->stype, r, c->rcount, c->rtype, c->root, m)
        MPI_Iscatterv(s, c->scounts, c->sdispls, c->stype, r, c->rcount, c->rtype, c->root, m, q));
  default: return MPI_ERR_OTHER;
  }
#undef P
}

/* One case's buffers: the call, its send and receive buffers, arrays of counts. */
enum { MAXP = 8 };
typedef struct kase {
  mg_call c;
  char *s, *r;
  size_t sbytes, rbytes;
  int scounts[MAXP], sdispls[MAXP], rcounts[MAXP], rdispls[MAXP];
  MPI_Datatype stypes[MAXP], rtypes[MAXP];
} kase;

static MPI_Datatype g_vec; /* 2 ints, stride 2: a gap in each element */

/* Fill case k of operation op: count n of type dt, root, in place or not. Returns 0 when the
 * combination is not legal. Buffers are sized generously (p blocks of n + p elements). */
static int make_case(kase *k, mg_coll op, int n, MPI_Datatype dt, int root, int inplace, MPI_Comm comm) {
  mg_coll b = mg_coll_base(op);
  int p = g_np, me = g_rank;
  MPI_Aint lb, ext;
  MPI_Type_get_extent(dt, &lb, &ext);
  memset(k, 0, sizeof *k);
  mg_call_init(&k->c, op, comm);
  size_t elems = (size_t)p * (size_t)(n + p) + 4;
  k->sbytes = k->rbytes = elems * (size_t)ext;
  /* one block, the receive buffer first: a row that writes past the receive buffer's end writes
   * into the send buffer, which every case compares with the library's too */
  k->r = malloc(k->rbytes + k->sbytes), k->s = k->r + k->rbytes;
  for (size_t i = 0; i < k->sbytes; i++) k->s[i] = (char)(1 + me * 31 + i * 7);
  for (size_t i = 0; i < k->rbytes; i++) k->r[i] = (char)(3 + me * 17 + i * 5);
  if (dt == MPI_INT) /* small values: sums stay exact and alike */
    for (size_t i = 0; i < k->sbytes / 4; i++) ((int *)k->s)[i] = (int)(me + i % 13), ((int *)k->r)[i] = (int)(2 * me + i % 7);
  mg_call *c = &k->c;
  c->sbuf = k->s, c->rbuf = k->r, c->scount = c->rcount = n, c->stype = c->rtype = dt, c->root = root;
  c->op = mg_colls[b].reduction ? (g_op != MPI_OP_NULL ? g_op : MPI_SUM) : MPI_OP_NULL;
  if (mg_colls[b].reduction && dt != MPI_INT) return 0; /* built-in ops: predefined types */
  for (int i = 0; i < p; i++) {
    k->scounts[i] = n + (i % 2), k->sdispls[i] = i * (n + p);
    k->rcounts[i] = n + (me % 2), k->rdispls[i] = i * (n + p) + 1;
    k->stypes[i] = k->rtypes[i] = dt;
  }
  switch (b) {
  case MG_ALLGATHERV: /* counts alike everywhere */
  case MG_REDUCE_SCATTER:
    for (int i = 0; i < p; i++) k->rcounts[i] = n + (i % 2);
    c->rcounts = k->rcounts, c->rdispls = k->rdispls, c->scount = k->rcounts[me];
    break;
  case MG_GATHERV: /* the root's counts: what each rank sends */
    for (int i = 0; i < p; i++) k->rcounts[i] = n + (i % 2);
    c->rcounts = k->rcounts, c->rdispls = k->rdispls, c->scount = k->rcounts[me];
    break;
  case MG_SCATTERV:
    c->scounts = k->scounts, c->sdispls = k->sdispls, c->rcount = k->scounts[me];
    break;
  case MG_ALLTOALLV: case MG_ALLTOALLW: /* rank i sends n + (i % 2) to every rank */
    for (int i = 0; i < p; i++) k->scounts[i] = n + (me % 2), k->rcounts[i] = n + (i % 2);
    c->scounts = k->scounts, c->sdispls = k->sdispls, c->rcounts = k->rcounts, c->rdispls = k->rdispls;
    if (b == MG_ALLTOALLW) {
      for (int i = 0; i < p; i++) k->sdispls[i] *= (int)ext, k->rdispls[i] *= (int)ext;
      c->stypes = k->stypes, c->rtypes = k->rtypes, c->stype = c->rtype = MPI_DATATYPE_NULL;
    }
    break;
  case MG_BCAST: c->sbuf = c->rbuf; break;
  default: break;
  }
  if (inplace) {
    switch (b) {
    case MG_BARRIER: case MG_BCAST: return 0;
    case MG_GATHER: case MG_GATHERV: case MG_REDUCE: if (me == root) c->sbuf = MPI_IN_PLACE; break;
    case MG_SCATTER: case MG_SCATTERV: if (me == root) c->rbuf = MPI_IN_PLACE; break;
    case MG_ALLTOALLV: case MG_ALLTOALLW: /* in place: the receive side's counts are what moves */
      for (int i = 0; i < p; i++) k->rcounts[i] = n; /* symmetric: i sends to j what j receives from i */
      c->sbuf = MPI_IN_PLACE;
      break;
    case MG_EXSCAN: return 0; /* legal, but rank 0's result is undefined: nothing to compare */
    default: c->sbuf = MPI_IN_PLACE; break;
    }
  }
  if (b == MG_EXSCAN && me == 0) memset(k->r, 0, k->rbytes); /* undefined there: compare a fixed pattern */
  return 1;
}

static kase *clone(const kase *k) {
  kase *d = malloc(sizeof *d);
  *d = *k;
  d->r = malloc(k->rbytes + k->sbytes), d->s = d->r + k->rbytes; /* adjacent, as make_case's */
  memcpy(d->s, k->s, k->sbytes), memcpy(d->r, k->r, k->rbytes);
  mg_call *c = &d->c;
  if (k->c.sbuf == k->s) c->sbuf = d->s;
  if (k->c.sbuf == k->r) c->sbuf = d->r;
  if (k->c.rbuf == k->r) c->rbuf = d->r;
  if (k->c.rcounts == k->rcounts) c->rcounts = d->rcounts;
  if (k->c.rdispls == k->rdispls) c->rdispls = d->rdispls;
  if (k->c.scounts == k->scounts) c->scounts = d->scounts;
  if (k->c.sdispls == k->sdispls) c->sdispls = d->sdispls;
  if (k->c.stypes) c->stypes = d->stypes;
  if (k->c.rtypes) c->rtypes = d->rtypes;
  return d;
}
static void kfree(kase *k) { free(k->r), free(k); } /* k->s lies in k->r's block */

/* Complete request q (a case's collective) with completion call `how`; p2p requests mixed in for
 * the array calls (a ring exchange of one int). */
static int complete(MPI_Request *q, int how, MPI_Comm comm) {
  MPI_Request a[3] = {*q, MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  int in = -1, out = g_rank, flag = 0, idx, rc = MPI_SUCCESS, outn, idxs[3];
  int na = 1;
  MPI_Status sts[3]; /* not MPI_STATUSES_IGNORE: GCC 12 warns of MPICH's (a null array) */
  if (how >= 2) { /* Waitall, Waitany, Waitsome, Testall: a point-to-point pair as well */
    MPI_Irecv(&in, 1, MPI_INT, (g_rank + g_np - 1) % g_np, 99, comm, &a[1]);
    MPI_Isend(&out, 1, MPI_INT, (g_rank + 1) % g_np, 99, comm, &a[2]);
    na = 3;
  }
  switch (how) {
  case 0: rc = MPI_Wait(&a[0], MPI_STATUS_IGNORE); break;
  case 1: while (rc == MPI_SUCCESS && !flag) rc = MPI_Test(&a[0], &flag, MPI_STATUS_IGNORE); break;
  case 2: rc = MPI_Waitall(na, a, sts); break;
  case 3:
    for (int i = 0; i < na && rc == MPI_SUCCESS; i++) rc = MPI_Waitany(na, a, &idx, MPI_STATUS_IGNORE);
    break;
  case 4:
    for (int done = 0; done < na && rc == MPI_SUCCESS; done += outn)
      rc = MPI_Waitsome(na, a, &outn, idxs, sts);
    break;
  default: while (rc == MPI_SUCCESS && !flag) rc = MPI_Testall(na, a, &flag, sts); break;
  }
  *q = a[0];
  if (rc == MPI_SUCCESS && how >= 2 && in != (g_rank + g_np - 1) % g_np) FAIL("mixed point-to-point message lost");
  if (rc == MPI_SUCCESS && *q != MPI_REQUEST_NULL) FAIL("completion left the request active");
  return rc;
}

static void compare(const kase *want, const kase *got, const char *what) {
  if (memcmp(want->r, got->r, want->rbytes) || memcmp(want->s, got->s, want->sbytes)) {
    size_t i = 0;
    int recv = memcmp(want->r, got->r, want->rbytes) != 0;
    const char *w = recv ? want->r : want->s, *g = recv ? got->r : got->s;
    while (w[i] == g[i]) i++;
    FAIL("%s: result differs from the library's (%s side, byte %zu of %zu: %d, the library's %d)", what,
         recv ? "receive" : "send", i, recv ? want->rbytes : want->sbytes, g[i], w[i]);
  }
}

static int reference(const kase *k, MPI_Request *q) {
  mg_call d = k->c;
  d.coll = mg_coll_base(k->c.coll);
  return mg_nbc_post(&d, q);
}

static void run_case(mg_coll op, int alg, const kase *k, int how, const char *what) {
  kase *ref = clone(k), *got = clone(k);
  MPI_Request q;
  int rc = reference(ref, &q);
  if (rc == MPI_SUCCESS) rc = MPI_Wait(&q, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) FAIL("%s: the library's own call failed (%d)", what, rc);
  long long ran0 = mpiguide_calls(mg_colls[op].name, mg_colls[op].algs[alg].name);
  rc = user_post(&got->c, 0, &q);
  long kept_out = mpiguide_requests_kept();
  long long ran = mpiguide_calls(mg_colls[op].name, mg_colls[op].algs[alg].name) - ran0;
  if (rc == MPI_SUCCESS) rc = complete(&q, how, k->c.comm);
  if (rc != MPI_SUCCESS) FAIL("%s: returned %d", what, rc);
  compare(ref, got, what);
  int holds = !mg_colls[op].rooted || g_rank == k->c.root || mg_coll_base(op) == MG_BCAST; /* rooted rows: arrays at the root */
  if (ran == 1 && alg && mg_colls[op].algs[alg].mem && holds && kept_out < 1) FAIL("%s: ran without keeping its scratch", what);
  if (mpiguide_requests_kept() != 0) FAIL("%s: %ld requests still kept after completion", what, mpiguide_requests_kept());
  if (alg && (mg_colls[op].algs[alg].restrictions & MG_R_MEASURE_ONLY) && ran) FAIL("%s: a measure-only row ran", what);
  if (alg && (mg_colls[op].algs[alg].restrictions & MG_R_PROGRESS)) {
    if (ran && !g_progress) FAIL("%s: a schedule row ran without the progress thread", what);
    g_sched_ran += ran;
  }
  g_cases++;
  kfree(ref), kfree(got);
}

/* Three outstanding operations on one communicator, completed in reverse order. */
static void run_outstanding(mg_coll op, const kase *k, const char *what) {
  kase *ref[3], *got[3];
  MPI_Request q[3], r[3];
  for (int i = 0; i < 3; i++) {
    ref[i] = clone(k), got[i] = clone(k);
    for (size_t j = 0; j < k->sbytes; j++) ref[i]->s[j] = got[i]->s[j] = (char)(ref[i]->s[j] + i);
    reference(ref[i], &r[i]);
  }
  MPI_Status sts[3];
  MPI_Waitall(3, r, sts);
  for (int i = 0; i < 3; i++)
    if (user_post(&got[i]->c, 0, &q[i]) != MPI_SUCCESS) FAIL("%s: post %d failed", what, i);
  for (int i = 2; i >= 0; i--) MPI_Wait(&q[i], MPI_STATUS_IGNORE);
  for (int i = 0; i < 3; i++) compare(ref[i], got[i], what), kfree(ref[i]), kfree(got[i]);
  if (mpiguide_requests_kept() != 0) FAIL("%s: requests still kept after out-of-order completion", what);
  (void)op;
  g_cases++;
}

/* A persistent request started three times (the data changed in between) and freed, against the
 * library's result: the default row against the library's own persistent request of the same call
 * started alike, the other rows against the library's non-blocking call (MPICH 4.0.2's
 * MPI_Allgather_init, MPI_Gather_init and MPI_Scatter_init give wrong results from their second start
 * on, MPI_Allgatherv_init & co. do not: the one-call rows are right where the default is not).
 * MPICH 4.0.2 asserts in MPI_Request_free of a persistent collective on a derived datatype
 * (mpidu_sched.c:495, ref_count): predefined datatypes only there. */
static void run_persistent(const kase *k, int alg, MPI_Datatype dt, const char *what) {
#if HAVE_PCOLL
  /* the default runs (a schedule row: without the progress thread) */
  unsigned rs = mg_colls[k->c.coll].algs[alg].restrictions;
  int lib = alg == 0 || (rs & MG_R_MEASURE_ONLY) || ((rs & MG_R_PROGRESS) && !g_progress);
#if defined(MPICH_VERSION)
  /* MPICH 4.0.2 fails its own persistent collectives: wrong results from the second start of
   * Allgather_init, Gather_init, Scatter_init; two persistent Scatter_init requests on one
   * communicator abort at 3 ranks ("Invalid communicator": a plain MPICH program shows it, without
   * libmpiguide); Request_free asserts for a derived datatype. There only the one-call rows are
   * checked (against the non-blocking result), on MPI_INT. */
  if (dt != MPI_INT || lib) return;
#endif
  (void)dt;
  kase *ref = clone(k), *got = clone(k);
  MPI_Request q, r = MPI_REQUEST_NULL;
  mg_call d = ref->c;
  d.coll = mg_coll_base(k->c.coll), d.persistent = 1, d.info = MPI_INFO_NULL;
  int rc = lib ? mg_nbc_post(&d, &r) : MPI_SUCCESS;
  long long ran0 = mpiguide_calls(mg_colls[k->c.coll].name, mg_colls[k->c.coll].algs[alg].name);
  if (rc == MPI_SUCCESS) rc = user_post(&got->c, 1, &q);
  long long ran = mpiguide_calls(mg_colls[k->c.coll].name, mg_colls[k->c.coll].algs[alg].name) - ran0;
  /* a schedule row with the thread: its template, run at each start (where the row applies) */
  if ((rs & MG_R_PROGRESS) && g_progress && g_np > 1 && !ran && k->c.rcount > 0)
    FAIL("%s: the persistent schedule row did not run", what);
  if (rc != MPI_SUCCESS) {
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    FAIL("%s: persistent init failed: %s", what, msg);
    return;
  }
  for (int t = 0; t < 3; t++) {
    if (g_trace) fprintf(stderr, "nbctest: rank %d: %s, persistent start %d\n", g_rank, what, t);
    for (size_t j = 0; j < k->sbytes; j++) ref->s[j] = got->s[j] = (char)(k->s[j] + 3 * t);
    if (k->c.sbuf == MPI_IN_PLACE || k->c.sbuf == k->r)
      memcpy(got->r, ref->r, k->rbytes); /* in place: the input is the receive buffer, alike */
    if (lib) {
      MPI_Start(&r);
      MPI_Wait(&r, MPI_STATUS_IGNORE);
    } else {
      MPI_Request n;
      if (reference(ref, &n) == MPI_SUCCESS) MPI_Wait(&n, MPI_STATUS_IGNORE);
    }
    if (t == 1) { /* the second start by MPI_Startall, completed by polling MPI_Test */
      int done = 0;
      MPI_Startall(1, &q);
      for (long n = 0; !done && n < 100000000L; n++) MPI_Test(&q, &done, MPI_STATUS_IGNORE);
      if (!done) FAIL("%s: a persistent request never completed", what);
    } else {
      MPI_Start(&q);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
    }
    if (q == MPI_REQUEST_NULL) FAIL("%s: a persistent request was freed by its wait", what);
    compare(ref, got, what);
  }
  if (lib) MPI_Request_free(&r);
  MPI_Request_free(&q);
  if (mpiguide_requests_kept() != 0) FAIL("%s: scratch still kept after MPI_Request_free", what);
  kfree(ref), kfree(got);
  g_cases++;
#else
  (void)k, (void)alg, (void)dt, (void)what;
#endif
}

/* The orders in which a schedule advanced only inside libmpiguide's calls, or completed inside the
 * post, would deadlock (src/algs/sched.c), both legal: (0) rank 1 blocks in MPI_Recv for a message
 * rank 0 sends after its wait; (1) rank 0 posts, then enters MPI_Comm_split of another
 * communicator, which the other ranks enter before they post. Against the library's result. */
static void run_orders(const kase *k, MPI_Comm other, const char *what) {
  if (g_np < 2) return;
  for (int order = 0; order < 2; order++) {
    kase *ref = clone(k), *got = clone(k);
    MPI_Request q = MPI_REQUEST_NULL, r;
    int rc = reference(ref, &r), token = g_rank;
    if (rc == MPI_SUCCESS) MPI_Wait(&r, MPI_STATUS_IGNORE);
    MPI_Comm split = MPI_COMM_NULL;
    if (order == 0) {
      if (user_post(&got->c, 0, &q) != MPI_SUCCESS) FAIL("%s, order 0: the post failed", what);
      if (g_rank == 0) {
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        MPI_Send(&token, 1, MPI_INT, 1, 7, other);
      } else if (g_rank == 1) {
        MPI_Recv(&token, 1, MPI_INT, 0, 7, other, MPI_STATUS_IGNORE);
        MPI_Wait(&q, MPI_STATUS_IGNORE);
        if (token != 0) FAIL("%s, order 0: rank 0's message lost", what);
      } else {
        MPI_Wait(&q, MPI_STATUS_IGNORE);
      }
    } else {
      if (g_rank == 0 && user_post(&got->c, 0, &q) != MPI_SUCCESS) FAIL("%s, order 1: the post failed", what);
      MPI_Comm_split(other, 0, g_rank, &split);
      if (g_rank != 0 && user_post(&got->c, 0, &q) != MPI_SUCCESS) FAIL("%s, order 1: the post failed", what);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
      MPI_Comm_free(&split);
    }
    char w[300];
    snprintf(w, sizeof w, "%s, order %d", what, order);
    compare(ref, got, w);
    if (mpiguide_requests_kept() != 0) FAIL("%s: requests still kept", w);
    kfree(ref), kfree(got);
    g_cases++;
  }
}

/* The derived datatype freed by the program right after the post (MPI-3.1 §4.1.9: the pending
 * operation completes normally): a schedule's later rounds must not use the freed handle. A fresh
 * duplicate of the vector type for the case, against the library's result on the same data. */
static void run_freed_type(mg_coll op, int n, int root, MPI_Comm comm, const char *what) {
  MPI_Datatype dup;
  MPI_Type_dup(g_vec, &dup);
  kase k;
  if (!make_case(&k, op, n, dup, root, 0, comm)) {
    free(k.r);
    MPI_Type_free(&dup);
    return;
  }
  kase *ref = clone(&k), *got = clone(&k);
  MPI_Request q, r;
  if (reference(ref, &r) == MPI_SUCCESS) MPI_Wait(&r, MPI_STATUS_IGNORE);
  int rc = user_post(&got->c, 0, &q);
  MPI_Type_free(&dup);
  if (rc == MPI_SUCCESS) rc = MPI_Wait(&q, MPI_STATUS_IGNORE);
  char w[300];
  snprintf(w, sizeof w, "%s, the datatype freed after the post", what);
  if (g_trace) fprintf(stderr, "nbctest: rank %d: %s: done\n", g_rank, w);
  if (rc != MPI_SUCCESS) FAIL("%s: returned %d", w, rc);
  compare(ref, got, w);
  kfree(ref), kfree(got), free(k.r);
  g_cases++;
}

/* A negative count (where the operation has a count): the library's error class on every rank,
 * forced row or not. The communicator returns errors. */
static void run_error(mg_coll op, const kase *k, const char *what) {
  mg_coll b = mg_coll_base(op);
  if (b == MG_BARRIER || !mg_coll_one_count(op)) return;
#if defined(MPICH_VERSION)
  /* MPICH 4.0.2's own MPI_Iallreduce with count -1 on a 1-process communicator corrupts the heap
   * (a plain MPICH program on MPI_COMM_SELF aborts in free()): no error cases there */
  if (g_np == 1) return;
#endif
  kase *ref = clone(k), *got = clone(k);
  ref->c.rcount = ref->c.scount = got->c.rcount = got->c.scount = -1;
  MPI_Request q = MPI_REQUEST_NULL, r = MPI_REQUEST_NULL;
  int rc0 = reference(ref, &r), rc1 = user_post(&got->c, 0, &q), c0, c1;
  if (rc0 == MPI_SUCCESS) MPI_Wait(&r, MPI_STATUS_IGNORE);
  if (rc1 == MPI_SUCCESS) MPI_Wait(&q, MPI_STATUS_IGNORE);
  MPI_Error_class(rc0, &c0), MPI_Error_class(rc1, &c1);
  if (c0 != c1) FAIL("%s: error class %d, the library's %d", what, c1, c0);
  int mine = c1 != MPI_SUCCESS, all = 0;
  PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, k->c.comm);
  if (c0 != MPI_SUCCESS && all != g_np) FAIL("%s: the error returned on %d of %d ranks", what, all, g_np);
  kfree(ref), kfree(got);
  g_cases++;
}

/* The root-only side of a rooted collective, off the root: what MPI never reads there made garbage
 * (a NULL buffer, count -1, MPI_DATATYPE_NULL, NULL arrays), which no row may read either. */
static void garble(kase *k) {
  mg_call *c = &k->c;
  if (g_rank == c->root) return;
  switch (mg_coll_base(c->coll)) {
  case MG_GATHER: c->rbuf = NULL, c->rcount = -1, c->rtype = MPI_DATATYPE_NULL; break;
  case MG_GATHERV: c->rbuf = NULL, c->rcounts = NULL, c->rdispls = NULL, c->rtype = MPI_DATATYPE_NULL; break;
  case MG_SCATTER: c->sbuf = NULL, c->scount = -1, c->stype = MPI_DATATYPE_NULL; break;
  case MG_SCATTERV: c->sbuf = NULL, c->scounts = NULL, c->sdispls = NULL, c->stype = MPI_DATATYPE_NULL; break;
  case MG_REDUCE: c->rbuf = NULL; break;
  default: break;
  }
}

static void test_op(mg_coll op, MPI_Comm comm) {
  const mg_coll_info *ci = &mg_colls[op];
  int counts[] = {0, 1, 5, 300}, ncounts = g_quick || g_ints_only ? 3 : 4;
  if (g_op != MPI_OP_NULL && !ci->reduction) return;
  MPI_Datatype types[] = {MPI_INT, g_vec};
  int how = 0;
  MPI_Comm other; /* run_orders' second communicator */
  MPI_Comm_dup(comm, &other);
  for (int a = 0; a < ci->nalgs; a++) {
    long sched0 = g_sched_ran;
    char spec[160], what[256];
    snprintf(spec, sizeof spec, "%s=%s", ci->name, ci->algs[a].name);
    if (mpiguide_force(spec) != MPIGUIDE_OK) {
      FAIL("cannot force %s", spec);
      continue;
    }
    for (int t = 0; t < (g_ints_only ? 1 : 2); t++)
      for (int ni = 0; ni < ncounts; ni++)
        for (int root = 0; root < (ci->rooted ? g_np : 1); root += (g_np > 1 ? g_np - 1 : 1))
          for (int inpl = 0; inpl < 2; inpl++) {
            kase k;
            if (!make_case(&k, op, counts[ni], types[t], root, inpl, comm)) {
              free(k.r);
              continue;
            }
            snprintf(what, sizeof what, "%s type %s count %d root %d%s completion %d", ci->algs[a].name,
                     t ? "vector" : "int", counts[ni], root, inpl ? " in place" : "", how % 6);
            if (g_trace) fprintf(stderr, "nbctest: rank %d: %s\n", g_rank, what);
            run_case(op, a, &k, how++ % 6, what);
            if (ni == 2 && !inpl && ci->rooted && mg_coll_base(op) != MG_BCAST) {
              kase g = k; /* the same buffers: garble changes the descriptor only */
              garble(&g);
              char gw[300];
              snprintf(gw, sizeof gw, "%s, the root-only side garbage off the root", what);
              if (g_trace) fprintf(stderr, "nbctest: rank %d: %s\n", g_rank, gw);
              run_case(op, a, &g, how++ % 6, gw);
            }
            if (ni == 2 && !inpl) {
              run_outstanding(op, &k, what);
              run_orders(&k, other, what);
              if (t == 1) run_freed_type(op, counts[ni], root, comm, what);
              run_persistent(&k, a, types[t], what);
              if (t == 0) run_error(op, &k, what);
            }
            free(k.r);
          }
    /* with the thread, a schedule row runs (a communicator of one process takes the default) */
    if (g_progress && g_np > 1 && (ci->algs[a].restrictions & MG_R_PROGRESS) && g_sched_ran == sched0)
      FAIL("%s: the schedule row never ran with the progress thread", ci->algs[a].name);
  }
  MPI_Comm_free(&other);
  mpiguide_force("");
}

/* The operations named in argv on comm, with g_np and g_rank comm's (a rank outside: nothing). */
static void test_ops(int argc, char **argv, MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return;
  int np = g_np, rank = g_rank;
  MPI_Comm_size(comm, &g_np), MPI_Comm_rank(comm, &g_rank);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  for (int i = 1; i < argc; i++)
    for (int k = 0; k < MG_NCOLL; k++)
      if ((mg_coll_is_nbc((mg_coll)k) && !mg_coll_is_ineighbor((mg_coll)k)) && (!strcmp(argv[i], "all") || !strcmp(argv[i], mg_colls[k].name)))
        test_op((mg_coll)k, comm);
  g_np = np, g_rank = rank;
}

/* --shapes: MPI_INT at the quick counts on communicators beyond the dup of MPI_COMM_WORLD: split
 * into odd and even ranks, the ranks reversed, the first s ranks for s = 1 .. np; then the
 * reductions with a non-commutative user op on the dup. */
static void run_shapes(int argc, char **argv, MPI_Comm world) {
  g_ints_only = 1;
  MPI_Comm c;
  MPI_Comm_split(MPI_COMM_WORLD, g_rank % 2, g_rank, &c);
  test_ops(argc, argv, c);
  MPI_Comm_free(&c);
  MPI_Comm_split(MPI_COMM_WORLD, 0, g_np - g_rank, &c);
  test_ops(argc, argv, c);
  MPI_Comm_free(&c);
  for (int s = 1; s <= g_np; s++) {
    MPI_Comm_split(MPI_COMM_WORLD, g_rank < s ? 0 : MPI_UNDEFINED, g_rank, &c);
    test_ops(argc, argv, c);
    if (c != MPI_COMM_NULL) MPI_Comm_free(&c);
  }
  MPI_Op_create(first_op, 0, &g_op);
  test_ops(argc, argv, world);
  MPI_Op_free(&g_op);
  g_op = MPI_OP_NULL;
  g_ints_only = 0;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--list")) {
    FILE *f = fopen(argv[2], "w");
    if (!f) return perror(argv[2]), 2;
    for (int k = 0; k < MG_NCOLL; k++)
      if ((mg_coll_is_nbc((mg_coll)k) && !mg_coll_is_ineighbor((mg_coll)k))) fprintf(f, "%s\n", mg_colls[k].name);
    return fclose(f) == 0 ? 0 : 2;
  }
  MPI_Init(&argc, &argv);
  const char *progress = getenv("MPIGUIDE_PROGRESS");
  int level = MPI_THREAD_SINGLE;
  MPI_Query_thread(&level);
  g_progress = progress && !strcmp(progress, "thread");
  if (g_progress && level != MPI_THREAD_MULTIPLE) {
    fprintf(stderr, "nbctest: MPIGUIDE_PROGRESS=thread, but MPI_Query_thread gives %d, not MPI_THREAD_MULTIPLE\n", level);
    g_fail = 1, g_progress = 0;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &g_np);
  if (g_np > MAXP) {
    if (!g_rank) fprintf(stderr, "nbctest: at most %d ranks\n", MAXP);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Type_vector(2, 1, 2, MPI_INT, &g_vec);
  MPI_Type_commit(&g_vec);
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  int any = 0, shapes = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--shapes")) { /* after the world pass: the other shapes and the op */
      shapes = 1;
      continue;
    }
    if (!strcmp(argv[i], "--trace")) { /* every case on stderr before it runs (to locate a hang) */
      g_trace = 1;
      continue;
    }
    if (!strcmp(argv[i], "--quick")) {
      g_quick = 1;
      continue;
    }
    for (int k = 0; k < MG_NCOLL; k++)
      if ((mg_coll_is_nbc((mg_coll)k) && !mg_coll_is_ineighbor((mg_coll)k)) && (!strcmp(argv[i], "all") || !strcmp(argv[i], mg_colls[k].name))) {
        test_op((mg_coll)k, comm);
        any = 1;
      }
  }
  if (shapes && any) run_shapes(argc, argv, comm);
  if (!any && !g_rank) fprintf(stderr, "usage: nbctest [--quick] [--shapes] <operation>... | all\n");
  int bad = g_fail || !any, all = 0;
  PMPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (!g_rank)
    printf("nbctest: %d cases on rank 0 (%ld ran a schedule), %s\n", g_cases, g_sched_ran, all ? "FAILED" : "all passed");
  MPI_Comm_free(&comm);
  MPI_Type_free(&g_vec);
  MPI_Finalize();
  return all;
}
