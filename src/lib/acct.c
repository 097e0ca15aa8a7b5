/*
 * Every MPI call accounted: the table of posted requests and the rows of the calls the
 * generated wrappers time (lib/acct.h; docs/trace.md, "Every MPI call").
 *
 * The table maps a request handle to the function and call site that created it. It is an
 * open-addressing hash with linear probing and backward-shift deletion, under the trace's
 * mutex like the trace table itself; it grows at half full up to MG_ACCT_POSTS_MAX entries and
 * never shrinks. One handle may stand for several requests at once: Open MPI 4.1 returns one
 * shared, already complete request for every send it finished at once (eager sends to a
 * process on the same node: two MPI_Isend of one MPI_Waitall share a handle). So a post is
 * always a new entry, and a lookup finds the oldest entry of the handle (entries of one handle
 * keep their order along the probe sequence, deletions included): requests completed in the order
 * they were posted, as a Waitall's array lists them, find their own posts. Out of memory or
 * beyond the cap, a post is not kept and its completion's share goes to a row without a post
 * (empty `posted_by`): the job goes on, the trace says less.
 *
 * The same table keeps the scratch of a non-blocking or persistent collective's one-call row (the
 * counts and displacements of Iallgather as Iallgatherv: src/algs/nbc.c), which MPI reads until
 * the operation completes: the entry holds it, with or without a trace, and it is freed when a
 * completion call returns the request completed (the handle set to MPI_REQUEST_NULL: MPI_Wait*,
 * MPI_Test*; MPI_Request_get_status leaves it), at MPI_Request_free, and at MPI_Finalize for what
 * is left. Such an entry is kept past the cap (the program has that many operations outstanding).
 * While one is kept, mg_acct_compl is 1 and the generated completion wrappers take their slow path.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/acct.h"
#include "registry/algorithms_other.h" /* mg_nbc_free, mg_nbc_drain */

MG_HIDDEN unsigned char mg_acct_on;
MG_HIDDEN unsigned char mg_acct_compl;
MG_HIDDEN unsigned char mg_acct_newcomm;
MG_HIDDEN unsigned char mg_acct_starts;
MG_HIDDEN _Thread_local __attribute__((tls_model("initial-exec"))) int64_t mg_acct_carry;

typedef struct post {
  uint64_t key;     /* the handle's bits */
  const void *site; /* the post's call site */
  void *scratch;    /* a one-call row's arrays, freed with the entry (NULL: none) */
  void *scratch2;   /* a Fortran binding's converted datatypes, the same (mg_acct_keep_also) */
  int32_t fn;       /* the posting function, MG_FN_* */
  uint8_t persistent, used;
} post;

static struct {
  post *slot;
  size_t cap, n;
  size_t kept; /* entries that hold scratch (mpiguide_requests_kept) */
} posts;

/* The progress thread is on (src/algs/sched.c): every completion call takes the slow path, which
 * advances the pending schedules first (mg_sched_drive). */
static int progress_on;
/* libmpiguide may run mock-ups (forced, a profile, online, a trace: mg_ctx.active): the makers of
 * communicators take the slow path, which agrees on a distributed graph (mg_neighbor_made). */
static int watch_comms;

/* mg_acct_compl from the state: a timed trace, scratch kept, or the progress thread. */
static void compl_set(void) {
  mg_acct_starts = (unsigned char)(mg_acct_on || progress_on);
  mg_acct_compl = mg_acct_on || posts.kept > 0 ? MG_ACCT_COMPL_FULL : progress_on ? MG_ACCT_COMPL_DRIVE : 0;
  mg_acct_newcomm = (unsigned char)(mg_acct_on || progress_on || watch_comms);
}

void mg_acct_made(MPI_Comm c) {
  if (c == MPI_COMM_NULL) return;
  if (progress_on) mg_sched_shadow_make(c);
  if (watch_comms) mg_neighbor_made(c);
}

/* A mode flag set and the wrappers' bytes made anew from it, under the trace lock. */
static void set_mode(int *flag, int on) {
  mg_ctx *x = &mg_the_ctx;
  pthread_mutex_lock(&x->trace_lock);
  *flag = on;
  compl_set();
  pthread_mutex_unlock(&x->trace_lock);
}

void mg_acct_watch_comms(int on) { set_mode(&watch_comms, on); }
void mg_acct_progress(int on) { set_mode(&progress_on, on); }

/* A completion call's requests given: with the progress thread, the schedules among them advanced
 * in this thread first (as MPI_Wait would wait for them, or MPI_Test test them). */
void mg_acct_drive(int fn, int n, const MPI_Request *reqs) {
  if (!progress_on) return;
  int kind = fn == MG_FN_MPI_Wait || fn == MG_FN_MPI_Waitall      ? MG_SCHED_ALL
             : fn == MG_FN_MPI_Waitany || fn == MG_FN_MPI_Waitsome ? MG_SCHED_ANY
                                                                  : MG_SCHED_TEST;
  mg_sched_drive(kind, n, reqs);
  if (fn == MG_FN_MPI_Request_free) mg_sched_freeing(n, reqs); /* a template's end */
}

static void drive(const mg_acct_call *a) { mg_acct_drive(a->fn, a->ngiven, a->given); }

void mg_acct_started(int n, const MPI_Request *reqs) {
  if (progress_on) mg_sched_started(n, reqs);
}

void mg_acct_fstarted(MPI_Fint n, const MPI_Fint *freqs) {
  if (!progress_on || n <= 0 || !freqs) return;
  MPI_Request small[MG_ACCT_GIVEN], *r = n <= MG_ACCT_GIVEN ? small : malloc((size_t)n * sizeof *r);
  if (!r) return; /* out of memory: the templates among them do not run (their waits would hang): abort */
  for (MPI_Fint i = 0; i < n; i++) r[i] = PMPI_Request_f2c(freqs[i]);
  mg_sched_started((int)n, r);
  if (r != small) free(r);
}

static uint64_t key_of(MPI_Request r) {
  uint64_t k = 0;
  memcpy(&k, &r, sizeof r < sizeof k ? sizeof r : sizeof k);
  return k;
}

static size_t home(uint64_t k, size_t cap) {
  k ^= k >> 33;
  k *= 0xff51afd7ed558ccdull;
  k ^= k >> 33;
  return (size_t)k & (cap - 1);
}

static post *find(uint64_t k) {
  if (!posts.cap) return NULL;
  for (size_t i = home(k, posts.cap);; i = (i + 1) & (posts.cap - 1)) {
    if (!posts.slot[i].used) return NULL;
    if (posts.slot[i].key == k) return &posts.slot[i];
  }
}

/* The most posts kept at once (32 bytes each): beyond, a post is not kept. Only requests never
 * completed through libmpiguide stay (a program that leaves requests active, or completes them
 * through a binding libmpiguide does not see). */
#define MG_ACCT_POSTS_MAX (1u << 20)

static void put(post p) {
  for (size_t i = home(p.key, posts.cap);; i = (i + 1) & (posts.cap - 1))
    if (!posts.slot[i].used) {
      posts.n++;
      posts.slot[i] = p;
      return;
    }
}

static int grow(void) {
  size_t cap = posts.cap ? 2 * posts.cap : 1024;
  post *old = posts.slot, *s = calloc(cap, sizeof *s);
  if (!s) return -1;
  size_t oldcap = posts.cap;
  posts.slot = s;
  posts.cap = cap;
  posts.n = 0;
  for (size_t i = 0; i < oldcap; i++)
    if (old[i].used) put(old[i]);
  free(old);
  return 0;
}

/* Backward-shift deletion: the entries after the hole that could live in it move up. */
static void drop(post *p) {
  size_t i = (size_t)(p - posts.slot), mask = posts.cap - 1;
  posts.slot[i].used = 0;
  posts.n--;
  for (size_t j = (i + 1) & mask; posts.slot[j].used; j = (j + 1) & mask) {
    size_t h = home(posts.slot[j].key, posts.cap);
    /* the entry at j may fill the hole at i when its home is not in (i, j] cyclically */
    if ((j > i && (h <= i || h > j)) || (j < i && h <= i && h > j)) {
      posts.slot[i] = posts.slot[j];
      posts.slot[j].used = 0;
      i = j;
    }
  }
}

/* Under the trace lock. A post with scratch is kept past the cap; out of memory its scratch is
 * left allocated (the operation reads it: a leak, never a use after free). */
static void keep(MPI_Request r, int fn, const void *site, int persistent, void *scratch) {
  if (r == MPI_REQUEST_NULL) return;
  if ((!scratch && posts.n >= MG_ACCT_POSTS_MAX) || (2 * (posts.n + 1) > posts.cap && grow() != 0)) return;
  put((post){.key = key_of(r), .site = site, .scratch = scratch, .fn = fn,
             .persistent = (uint8_t)(persistent != 0), .used = 1});
  if (scratch) posts.kept++, compl_set();
}

/* The entry goes: its scratch with it. Under the trace lock. */
static void release(post *p) {
  if (p->scratch || p->scratch2) {
    mg_nbc_free(p->scratch);
    mg_nbc_free(p->scratch2);
    posts.kept--;
    compl_set();
  }
  drop(p);
}

void mg_acct_keep_also(MPI_Request r, int fn, const void *site, int persistent, void *scratch) {
  mg_ctx *x = &mg_the_ctx;
  if (r == MPI_REQUEST_NULL) {
    mg_nbc_free(scratch);
    return;
  }
  pthread_mutex_lock(&x->trace_lock);
  post *p = find(key_of(r));
  if (p && !p->scratch2) { /* the post's own entry (a trace's, or a one-call row's arrays) */
    if (!p->scratch) posts.kept++;
    p->scratch2 = scratch;
    compl_set();
  } else {
    keep(r, fn, site, persistent, scratch);
  }
  pthread_mutex_unlock(&x->trace_lock);
}

void mg_acct_post(MPI_Request r, int fn, const void *site, int persistent) {
  mg_ctx *x = &mg_the_ctx;
  if (!x->trace) return;
  pthread_mutex_lock(&x->trace_lock);
  keep(r, fn, site, persistent, NULL);
  pthread_mutex_unlock(&x->trace_lock);
}

void mg_acct_keep(MPI_Request r, int fn, const void *site, int persistent, void *scratch) {
  mg_ctx *x = &mg_the_ctx;
  if (!scratch && !x->trace) return;
  if (r == MPI_REQUEST_NULL) { /* complete already (never for a collective's request): nothing reads it */
    free(scratch);
    return;
  }
  pthread_mutex_lock(&x->trace_lock);
  keep(r, fn, site, persistent, scratch);
  pthread_mutex_unlock(&x->trace_lock);
}

long mg_acct_kept(void) {
  mg_ctx *x = &mg_the_ctx;
  pthread_mutex_lock(&x->trace_lock);
  long n = (long)posts.kept;
  pthread_mutex_unlock(&x->trace_lock);
  return n;
}

void mg_acct_given(mg_acct_call *a, int n, const MPI_Request *reqs) {
  if (n <= 0 || !reqs) return;
  if (n > MG_ACCT_GIVEN && !(a->given = malloc((size_t)n * sizeof *a->given))) {
    a->given = a->small; /* out of memory: the call's time goes to a row without posts */
    return;
  }
  memcpy(a->given, reqs, (size_t)n * sizeof *reqs);
  a->ngiven = n;
  drive(a);
}

void mg_acct_fgiven(mg_acct_call *a, MPI_Fint n, const MPI_Fint *freqs) {
  if (n <= 0 || !freqs) return;
  if (n > MG_ACCT_GIVEN && !(a->given = malloc((size_t)n * sizeof *a->given))) {
    a->given = a->small;
    return;
  }
  for (MPI_Fint i = 0; i < n; i++) a->given[i] = PMPI_Request_f2c(freqs[i]);
  a->ngiven = (int)n;
  drive(a);
}

void mg_acct_fdone(mg_acct_call *a, const MPI_Fint *freqs_after) {
  MPI_Request small[MG_ACCT_GIVEN] = {0}, *after = small;
  if (a->ngiven > MG_ACCT_GIVEN && !(after = malloc((size_t)a->ngiven * sizeof *after))) {
    a->ngiven = 0; /* out of memory: the call's time goes to a row without posts */
    mg_acct_done(a, NULL);
    return;
  }
  for (int i = 0; i < a->ngiven; i++) after[i] = PMPI_Request_f2c(freqs_after[i]);
  mg_acct_done(a, after);
  if (after != small) free(after);
}

void mg_acct_bytes(mg_acct_call *a, long long count, MPI_Datatype t) {
  int size = 0;
  if (t == MPI_DATATYPE_NULL || count <= 0 || PMPI_Type_size(t, &size) != MPI_SUCCESS || size <= 0) return;
  a->bytes = count > (1ll << 53) / size ? (1ll << 53) : count * size; /* the trace's bytes are at most 2^53 */
}

void mg_acct_comm(mg_acct_call *a, MPI_Comm c) {
  int size = 0;
  if (c != MPI_COMM_NULL && PMPI_Comm_size(c, &size) == MPI_SUCCESS && size > 0) a->nprocs = size;
}

void mg_acct_posted(mg_acct_call *a, MPI_Request r, int persistent) {
  mg_acct_post(r, a->fn, a->site, persistent);
}

void mg_acct_done(mg_acct_call *a, const MPI_Request *after) {
  mg_ctx *x = &mg_the_ctx;
  if (!x->trace && after && mg_acct_compl) { /* no trace, scratch kept: free what this call completed */
    pthread_mutex_lock(&x->trace_lock);
    for (int i = 0; i < a->ngiven; i++) {
      post *p = a->given[i] != MPI_REQUEST_NULL && after[i] == MPI_REQUEST_NULL ? find(key_of(a->given[i])) : NULL;
      if (p) release(p);
    }
    pthread_mutex_unlock(&x->trace_lock);
  } else if (x->trace) {
    pthread_mutex_lock(&x->trace_lock);
    int active = 0;
    for (int i = 0; i < a->ngiven; i++) active += a->given[i] != MPI_REQUEST_NULL;
    if (!after || !active) {
      mg_trace_add_acct(x->trace, a->fn, a->site, a->nprocs, a->bytes, a->ns, -1, NULL);
    } else {
      int64_t share = a->ns / active, rest = a->ns - share * active;
      for (int i = 0; i < a->ngiven; i++) {
        if (a->given[i] == MPI_REQUEST_NULL) continue;
        post *p = find(key_of(a->given[i]));
        mg_trace_add_acct(x->trace, a->fn, a->site, a->nprocs, a->bytes, share + rest, p ? p->fn : -1,
                          p ? p->site : NULL);
        rest = 0;
        /* freed by this call (a completed request that was not persistent, or MPI_Request_free) */
        if (p && after[i] == MPI_REQUEST_NULL) release(p);
      }
    }
    pthread_mutex_unlock(&x->trace_lock);
  }
  if (a->given != a->small) free(a->given);
  mg_acct_carry = mg_clock_ns() - (a->t0 + a->ns); /* this recording's cost: the next call's (acct.h) */
}

void *mg_f08_next(void *volatile *cache, const char *sym) {
  void *f = __atomic_load_n(cache, __ATOMIC_RELAXED);
  if (f) return f;
  if (!(f = dlsym(RTLD_NEXT, sym))) {
    fprintf(stderr, "mpiguide: %s: no such function behind libmpiguide (%s)\n", sym, dlerror());
    abort();
  }
  __atomic_store_n(cache, f, __ATOMIC_RELAXED);
  return f;
}

void mg_acct_init(int on) {
  mg_acct_on = (unsigned char)(on != 0);
  compl_set();
}

void mg_acct_finalize(void) {
  mg_acct_on = 0;
  for (size_t i = 0; i < posts.cap; i++) /* requests never completed through libmpiguide */
    if (posts.slot[i].used) mg_nbc_free(posts.slot[i].scratch), mg_nbc_free(posts.slot[i].scratch2);
  mg_nbc_drain();
  free(posts.slot);
  posts.slot = NULL;
  posts.cap = posts.n = posts.kept = 0;
  compl_set();
}
