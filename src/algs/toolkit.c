/*
 * The toolkit the mock-ups are written with: datatype layout, local typed
 * copies, packing, and the per-thread scratch pool.
 *
 * The scratch pool is one buffer per thread (thread-local), grown to the
 * largest request seen and kept, so a steady state of calls allocates nothing.
 * Callers check the request against the cap (MPIGUIDE_SCRATCH_MAX) before
 * choosing a mock-up, using the algorithm's mem function, which depends only
 * on inputs equal on every rank.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algs/algs.h"

/* A private duplicate of MPI_COMM_SELF for local copies through the MPI
 * library's datatype engine, so no user message can match ours. */
static MPI_Comm self_comm = MPI_COMM_NULL;

int mg_core_init(void) {
  if (self_comm != MPI_COMM_NULL) return MPI_SUCCESS;
  return PMPI_Comm_dup(MPI_COMM_SELF, &self_comm);
}

void mg_core_finalize(void) {
  if (self_comm != MPI_COMM_NULL) PMPI_Comm_free(&self_comm);
  self_comm = MPI_COMM_NULL;
  mg_scratch_free();
}

int mg_type_get(MPI_Datatype dt, mg_type *t) {
  int rc = PMPI_Type_get_extent(dt, &t->lb, &t->extent);
  if (rc == MPI_SUCCESS) rc = PMPI_Type_get_true_extent(dt, &t->true_lb, &t->true_extent);
  if (rc == MPI_SUCCESS) rc = PMPI_Type_size(dt, &t->size);
  return rc;
}

size_t mg_type_span(const mg_type *t, size_t count) {
  if (count == 0) return 0;
  return (size_t)((MPI_Aint)(count - 1) * t->extent + t->true_extent);
}

/* Dense: the elements are the bytes, no gaps, no offset. */
static int dense(const mg_type *t) {
  return t->lb == 0 && t->true_lb == 0 && t->extent == t->size && t->true_extent == t->size;
}

int mg_copy(const void *src, int scount, MPI_Datatype stype, void *dst, int dcount, MPI_Datatype dtype) {
  mg_type st, dt;
  int rc = mg_type_get(stype, &st);
  if (rc == MPI_SUCCESS) rc = mg_type_get(dtype, &dt);
  if (rc != MPI_SUCCESS) return rc;
  size_t n = (size_t)scount * (size_t)st.size;
  if (n == 0) return MPI_SUCCESS;
  if (dense(&st) && dense(&dt) && n == (size_t)dcount * (size_t)dt.size) {
    memmove(dst, src, n);
    return MPI_SUCCESS;
  }
  /* A tag per copy: under MPI_THREAD_MULTIPLE two threads copying at once must
   * not receive each other's message. 32767 is the smallest MPI_TAG_UB allowed. */
  static atomic_uint seq;
  int tag = (int)(atomic_fetch_add_explicit(&seq, 1, memory_order_relaxed) % 32768u);
  return PMPI_Sendrecv(src, scount, stype, 0, tag, dst, dcount, dtype, 0, tag, self_comm, MPI_STATUS_IGNORE);
}

int mg_pack(const void *in, int count, MPI_Datatype dt, void *out, int outbytes) {
  int pos = 0;
  return PMPI_Pack(in, count, dt, out, outbytes, &pos, self_comm);
}

int mg_unpack(const void *in, int inbytes, void *out, int count, MPI_Datatype dt) {
  int pos = 0;
  return PMPI_Unpack(in, inbytes, &pos, out, count, dt, self_comm);
}

static _Thread_local struct {
  void *buf;
  size_t cap;
} pool;

/* Frees a thread's pool buffer when the thread exits. */
static pthread_key_t pool_key;
static pthread_once_t pool_once = PTHREAD_ONCE_INIT;
static void pool_key_make(void) { pthread_key_create(&pool_key, free); }

void *mg_scratch(size_t bytes) {
  if (bytes <= pool.cap) return pool.buf;
  size_t want = pool.cap ? pool.cap : 4096;
  while (want < bytes) want *= 2;
  free(pool.buf);
  pool.buf = NULL;
  pool.cap = 0;
  if (posix_memalign(&pool.buf, MG_ALIGN, want) != 0) {
    fprintf(stderr, "mpiguide: cannot allocate %zu bytes of scratch; aborting the job "
                    "(lower MPIGUIDE_SCRATCH_MAX to make such calls run the default)\n", want);
    PMPI_Abort(MPI_COMM_WORLD, 1);
    return NULL;
  }
  pool.cap = want;
  pthread_once(&pool_once, pool_key_make);
  pthread_setspecific(pool_key, pool.buf);
  return pool.buf;
}

void mg_scratch_free(void) {
  if (pool.buf) pthread_setspecific(pool_key, NULL);
  free(pool.buf);
  pool.buf = NULL;
  pool.cap = 0;
}
