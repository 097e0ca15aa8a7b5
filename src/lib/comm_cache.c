/*
 * What libmpiguide knows about a communicator, computed once, on its first
 * collective call (STYLE.md pattern 3; DESIGN.md "The cost of deciding"):
 * size, rank, whether it is an intercommunicator, and its slice of the
 * tuning profile per collective (with the slice's table by datatype class and
 * op when its rules have type= or op= selectors).
 *
 * The profile slices are resolved here, once: a communicator's size is fixed,
 * so for each collective the narrowest np= selector containing it, and its
 * ranges (with their index by size class) or its table by datatype class and
 * op, are found when the communicator is first seen; a call then only looks up
 * its message size (mg_profile_sizes_find). They point into the profile, which
 * lives until MPI_Finalize, and are equal on every rank (the size and the
 * agreed profile are).
 *
 * Entries live in a small hash table keyed by the communicator handle. Each
 * thread remembers the entry it used last (lib.h, mg_comm_get), so a call on
 * the same communicator as the previous one costs a thread-local compare.
 * Handles are reused after MPI_Comm_free, so every cached communicator
 * carries an attribute whose delete callback drops the entry and bumps a
 * generation counter that invalidates the threads' remembered entries. The
 * per-call path queries no attribute, takes no lock and allocates nothing;
 * the first call on a communicator takes the lock and allocates its entry.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"

#define NBUCKETS 64

static struct {
  int keyval;
  pthread_mutex_t lock;
  mg_comm_entry *bucket[NBUCKETS];
} cache = {.keyval = MPI_KEYVAL_INVALID, .lock = PTHREAD_MUTEX_INITIALIZER};

/* Bumped whenever an entry is dropped; starts at 1 and never wraps (64 bits), so a thread's
 * remembered entry before its first one ({0, NULL, 0}) never matches. */
atomic_uint_fast64_t mg_comm_gen = 1;
_Thread_local __attribute__((tls_model("initial-exec"))) mg_comm_last mg_comm_last_used;

/* The inline lookup's table (mg_comm_coll.first) of a slice without rules: every class's first
 * range is the sentinel, which holds no size. Filled by mg_comm_cache_init. */
static const mg_profile_range no_range = {SIZE_MAX, 0, 0, 0};
static const mg_profile_range *no_ranges[MG_PROFILE_NCLASS];

/* The table of ranges s (sorted, disjoint), or NULL when it cannot be allocated. */
static const mg_profile_range *const *first_ranges(const mg_profile_sizes *s) {
  if (!s->n) return no_ranges;
  const mg_profile_range **t = malloc(MG_PROFILE_NCLASS * sizeof *t);
  int i = 0;
  for (unsigned k = 0; t && k < MG_PROFILE_NCLASS; k++) {
    size_t least = k ? (size_t)1 << k : 0;
    while (i < s->n && s->r[i].hi < least) i++;
    t[k] = i < s->n ? &s->r[i] : &no_range;
  }
  return t;
}

static void free_entry(mg_comm_entry *e) {
  if (!e) return;
  for (int k = 0; k < MG_NCOLL; k++)
    if (e->coll[k].first != no_ranges) free((void *)e->coll[k].first);
  mg_online_comm_free(e->online);
  free(e);
}

static unsigned bucket_of(MPI_Comm comm) {
  uintptr_t h = 0;
  memcpy(&h, &comm, sizeof comm < sizeof h ? sizeof comm : sizeof h);
  h ^= h >> 17;
  h *= 0x9E3779B97F4A7C15ull;
  return (unsigned)(h >> 40) % NBUCKETS;
}

static void unlink_entry(mg_comm_entry *e) {
  mg_comm_entry **pp = &cache.bucket[bucket_of(e->comm)];
  while (*pp && *pp != e) pp = &(*pp)->next;
  if (*pp) *pp = e->next;
  atomic_fetch_add_explicit(&mg_comm_gen, 1, memory_order_release);
}

static int delete_fn(MPI_Comm comm, int keyval, void *attr, void *extra) {
  pthread_mutex_lock(&cache.lock);
  unlink_entry(attr);
  pthread_mutex_unlock(&cache.lock);
  free_entry(attr);
  return MPI_SUCCESS;
}

int mg_comm_cache_init(void) {
  for (int k = 0; k < MG_PROFILE_NCLASS; k++) no_ranges[k] = &no_range;
  return PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_fn, &cache.keyval, NULL);
}

void mg_comm_cache_finalize(void) {
  /* Drop every entry through its attribute, then the keyval. */
  for (;;) {
    pthread_mutex_lock(&cache.lock);
    MPI_Comm comm = MPI_COMM_NULL;
    for (int b = 0; b < NBUCKETS && comm == MPI_COMM_NULL; b++)
      if (cache.bucket[b]) comm = cache.bucket[b]->comm;
    pthread_mutex_unlock(&cache.lock);
    if (comm == MPI_COMM_NULL) break;
    if (PMPI_Comm_delete_attr(comm, cache.keyval) != MPI_SUCCESS) { /* cannot happen; never loop */
      pthread_mutex_lock(&cache.lock);
      for (int b = 0; b < NBUCKETS; b++)
        while (cache.bucket[b]) {
          mg_comm_entry *e = cache.bucket[b];
          cache.bucket[b] = e->next;
          free_entry(e);
        }
      pthread_mutex_unlock(&cache.lock);
      break;
    }
  }
  if (cache.keyval != MPI_KEYVAL_INVALID) PMPI_Comm_free_keyval(&cache.keyval);
  atomic_fetch_add_explicit(&mg_comm_gen, 1, memory_order_release);
}

/* Build an entry: the communicator queries and the profile slices. */
static mg_comm_entry *make_entry(MPI_Comm comm, const mg_profile *prof) {
  mg_comm_entry *e = calloc(1, sizeof *e);
  if (!e) return NULL;
  e->comm = comm;
  for (int k = 0; k < MG_NCOLL; k++) e->coll[k].first = no_ranges;
  if (PMPI_Comm_test_inter(comm, &e->inter) != MPI_SUCCESS || PMPI_Comm_size(comm, &e->size) != MPI_SUCCESS ||
      PMPI_Comm_rank(comm, &e->rank) != MPI_SUCCESS) {
    free_entry(e);
    return NULL;
  }
  if (mg_the_ctx.online && !e->inter && !(e->online = mg_online_comm_new())) {
    free_entry(e); /* as for any entry that cannot be made: the default runs */
    return NULL;
  }
  if (prof && !e->inter) /* an intercommunicator always runs the default: no slices */
    for (int k = 0; k < MG_NCOLL; k++) {
      e->coll[k].sizes = *mg_profile_slice_sizes(prof, (mg_coll)k, e->size);
      e->coll[k].sel = mg_profile_slice_sel(prof, (mg_coll)k, e->size);
      /* with selectors, or without memory for the table: the wrappers' second level decides */
      e->coll[k].first = e->coll[k].sel ? NULL : first_ranges(&e->coll[k].sizes);
    }
  return e;
}

const mg_comm_entry *mg_comm_get_slow(MPI_Comm comm) {
  uint_fast64_t gen;
  pthread_mutex_lock(&cache.lock);
  mg_comm_entry *e = cache.bucket[bucket_of(comm)];
  while (e && e->comm != comm) e = e->next;
  if (!e && cache.keyval != MPI_KEYVAL_INVALID) {
    e = make_entry(comm, mg_the_ctx.profile);
    if (e && PMPI_Comm_set_attr(comm, cache.keyval, e) == MPI_SUCCESS) {
      unsigned b = bucket_of(comm);
      e->next = cache.bucket[b];
      cache.bucket[b] = e;
    } else {
      free_entry(e); /* an invalid communicator: the caller asks MPI, which reports the error */
      e = NULL;
    }
  }
  gen = atomic_load_explicit(&mg_comm_gen, memory_order_acquire);
  pthread_mutex_unlock(&cache.lock);
  if (e) mg_comm_last_used = (mg_comm_last){comm, e, gen};
  return e;
}
