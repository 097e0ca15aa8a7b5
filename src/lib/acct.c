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
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/acct.h"

MG_HIDDEN unsigned char mg_acct_on;
MG_HIDDEN _Thread_local __attribute__((tls_model("initial-exec"))) int64_t mg_acct_carry;

typedef struct post {
  uint64_t key;     /* the handle's bits */
  const void *site; /* the post's call site */
  int32_t fn;       /* the posting function, MG_FN_* */
  uint8_t persistent, used;
} post;

static struct {
  post *slot;
  size_t cap, n;
} posts;

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

/* The most posts kept at once (24 bytes each): beyond, a post is not kept. Only requests never
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

/* Under the trace lock. */
static void keep(MPI_Request r, int fn, const void *site, int persistent) {
  if (r == MPI_REQUEST_NULL) return;
  if (posts.n >= MG_ACCT_POSTS_MAX || (2 * (posts.n + 1) > posts.cap && grow() != 0)) return;
  put((post){.key = key_of(r), .site = site, .fn = fn, .persistent = (uint8_t)(persistent != 0), .used = 1});
}

void mg_acct_post(MPI_Request r, int fn, const void *site, int persistent) {
  mg_ctx *x = &mg_the_ctx;
  if (!x->trace) return;
  pthread_mutex_lock(&x->trace_lock);
  keep(r, fn, site, persistent);
  pthread_mutex_unlock(&x->trace_lock);
}

void mg_acct_given(mg_acct_call *a, int n, const MPI_Request *reqs) {
  if (n <= 0 || !reqs) return;
  if (n > MG_ACCT_GIVEN && !(a->given = malloc((size_t)n * sizeof *a->given))) {
    a->given = a->small; /* out of memory: the call's time goes to a row without posts */
    return;
  }
  memcpy(a->given, reqs, (size_t)n * sizeof *reqs);
  a->ngiven = n;
}

void mg_acct_fgiven(mg_acct_call *a, MPI_Fint n, const MPI_Fint *freqs) {
  if (n <= 0 || !freqs) return;
  if (n > MG_ACCT_GIVEN && !(a->given = malloc((size_t)n * sizeof *a->given))) {
    a->given = a->small;
    return;
  }
  for (MPI_Fint i = 0; i < n; i++) a->given[i] = PMPI_Request_f2c(freqs[i]);
  a->ngiven = (int)n;
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
  if (x->trace) {
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
        if (p && after[i] == MPI_REQUEST_NULL) drop(p);
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

void mg_acct_init(int on) { mg_acct_on = (unsigned char)(on != 0); }

void mg_acct_finalize(void) {
  mg_acct_on = 0;
  free(posts.slot);
  posts.slot = NULL;
  posts.cap = posts.n = 0;
}
