/*
 * The toolkit the mock-ups are written with: datatype layout, local typed
 * copies, packing, and the per-thread scratch pool.
 *
 * Local copies between non-dense datatypes pack into a second per-thread
 * buffer (the bounce buffer, up to one message of n bytes, also kept) and
 * unpack from it; it is not counted against the scratch cap.
 *
 * The scratch pool is one buffer per thread (thread-local), grown to the
 * largest request seen and kept, so a steady state of calls allocates nothing.
 * Callers check the request against the cap (MPIGUIDE_SCRATCH_MAX) before
 * choosing a mock-up, using the algorithm's mem function, which depends only
 * on inputs equal on every rank.
 */
#include <limits.h>
#include <stdint.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algs/algs.h"
#include "algs/comm_records.h"

typedef struct {
  void *buf;
  size_t cap;
} mg_tbuf;
static _Thread_local mg_tbuf pool, bounce;
static pthread_key_t pool_key, bounce_key;
static void *grow(mg_tbuf *b, size_t bytes, pthread_key_t *key);

/* A private duplicate of MPI_COMM_SELF: the communicator argument of
 * PMPI_Pack/PMPI_Unpack. */
static MPI_Comm self_comm = MPI_COMM_NULL;

int mg_core_init(void) {
  if (self_comm != MPI_COMM_NULL) return MPI_SUCCESS;
  int rc = PMPI_Comm_dup(MPI_COMM_SELF, &self_comm);
  /* errors of PMPI_Pack/Unpack are returned to the caller, never fatal here */
  if (rc == MPI_SUCCESS) rc = PMPI_Comm_set_errhandler(self_comm, MPI_ERRORS_RETURN);
  return rc;
}

/* The private point-to-point communicators (mg_p2p_comm): one record per communicator that asked
 * for one, cached with it (comm_records.h: the private communicator is freed outside any
 * callback). */
typedef struct p2p_rec {
  mg_record rec;
  MPI_Comm priv;
  MPI_Comm perm; /* mg_perm_comm: priv's processes renumbered, MPI_COMM_NULL until asked for */
  int *newrank;  /* its rank of each rank of parent */
} p2p_rec;

static void p2p_free(mg_record *rec) {
  p2p_rec *r = (p2p_rec *)rec;
  if (r->priv != MPI_COMM_NULL) PMPI_Comm_free(&r->priv);
  if (r->perm != MPI_COMM_NULL) PMPI_Comm_free(&r->perm);
  free(r->newrank);
  free(r);
}
static mg_records p2p = MG_RECORDS_INIT(p2p_free);

static int p2p_record(MPI_Comm comm, p2p_rec **out);

int mg_p2p_comm(MPI_Comm comm, MPI_Comm *out) {
  p2p_rec *r;
  int rc = p2p_record(comm, &r);
  if (rc == MPI_SUCCESS) *out = r->priv;
  return rc;
}

/* A permutation of 0..p-1 from a fixed seed (xorshift64, Fisher-Yates), the same on every rank;
 * never the identity for p >= 2 (then rotated by one). */
static void permutation(int p, int *v) {
  uint64_t x = 0x9e3779b97f4a7c15ull ^ (uint64_t)MG_RERANK_SEED;
  int ident = 1;
  for (int i = 0; i < p; i++) v[i] = i;
  for (int i = p - 1; i > 0; i--) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    int j = (int)(x % (uint64_t)(i + 1)), t = v[i];
    v[i] = v[j], v[j] = t;
  }
  for (int i = 0; i < p; i++) ident &= v[i] == i;
  for (int i = 0; ident && i < p; i++) v[i] = (i + 1) % p;
}

int mg_perm_comm(MPI_Comm comm, MPI_Comm *out, const int **newrank) {
  p2p_rec *r;
  int rc = p2p_record(comm, &r), p, rank;
  if (rc != MPI_SUCCESS) return rc;
  if (r->perm == MPI_COMM_NULL) { /* first use: collective over comm, as every rank runs the row */
    if ((rc = PMPI_Comm_size(r->priv, &p)) != MPI_SUCCESS || (rc = PMPI_Comm_rank(r->priv, &rank)) != MPI_SUCCESS)
      return rc;
    int *v = malloc(sizeof(int) * (size_t)p);
    if (!v) {
      fprintf(stderr, "mpiguide: out of memory for a renumbering; aborting the job\n");
      PMPI_Abort(MPI_COMM_WORLD, 1);
      return MPI_ERR_NO_MEM;
    }
    permutation(p, v);
    if ((rc = PMPI_Comm_split(r->priv, 0, v[rank], &r->perm)) != MPI_SUCCESS) { /* new rank v[rank]: keys differ */
      free(v);
      return rc;
    }
    r->newrank = v;
  }
  *out = r->perm;
  *newrank = r->newrank;
  return MPI_SUCCESS;
}

static int p2p_record(MPI_Comm comm, p2p_rec **out) {
  mg_record *found;
  int rc = mg_records_find(&p2p, comm, &found), rank;
  if (rc != MPI_SUCCESS) return rc;
  if (found) {
    *out = (p2p_rec *)found;
    return MPI_SUCCESS;
  }
  rc = PMPI_Comm_rank(comm, &rank);
  if (rc != MPI_SUCCESS) return rc;
  p2p_rec *r = calloc(1, sizeof *r);
  if (!r) {
    fprintf(stderr, "mpiguide: out of memory for a private communicator; aborting the job\n");
    PMPI_Abort(MPI_COMM_WORLD, 1);
    return MPI_ERR_NO_MEM;
  }
  r->priv = r->perm = MPI_COMM_NULL;
  rc = PMPI_Comm_split(comm, 0, rank, &r->priv);
  if (rc == MPI_SUCCESS) rc = mg_records_add(&p2p, comm, &r->rec);
  if (rc != MPI_SUCCESS) {
    p2p_free(&r->rec);
    return rc;
  }
  *out = r;
  return MPI_SUCCESS;
}

void mg_core_finalize(void) {
  mg_records_finalize(&p2p);
  mg_userop_free();
  if (self_comm != MPI_COMM_NULL) PMPI_Comm_free(&self_comm);
  self_comm = MPI_COMM_NULL;
  mg_scratch_free();
}

int mg_copy(const void *src, int scount, MPI_Datatype stype, void *dst, int dcount, MPI_Datatype dtype) {
  mg_type st, dt;
  int rc = mg_type_get(stype, &st);
  if (rc == MPI_SUCCESS) rc = mg_type_get(dtype, &dt);
  if (rc != MPI_SUCCESS) return rc;
  size_t n = (size_t)scount * (size_t)st.size;
  if (n == 0) return MPI_SUCCESS;
  if (mg_type_is_dense(&st) && mg_type_is_dense(&dt) && n == (size_t)dcount * (size_t)dt.size) {
    memmove(dst, src, n);
    return MPI_SUCCESS;
  }
  /* Through the datatype engine: pack the source, unpack into the destination,
   * via the thread's bounce buffer. (A PMPI_Sendrecv to self is shorter but,
   * seen with Open MPI 4.1 under MPI_THREAD_MULTIPLE, a thread can receive
   * another thread's message even with distinct tags.) */
  if (n > (size_t)INT_MAX) return MPI_ERR_COUNT;
  void *tmp = grow(&bounce, n, &bounce_key);
  int rc2 = mg_pack(src, scount, stype, tmp, (int)n);
  if (rc2 == MPI_SUCCESS) rc2 = mg_unpack(tmp, (int)n, dst, dcount, dtype);
  return rc2;
}

/* MPICH 4.0.2's MPI_Pack and MPI_Unpack refuse MPI_BOTTOM ("Null pointer in parameter inbuf"),
 * which the standard allows for a datatype of absolute addresses, and MPI_Bcast(MPI_BOTTOM, ...)
 * through a packing mock-up then failed on the root alone while the others waited (the Fortran
 * test). So a null buffer is given as address 1 with the count elements of dt shifted by -1 byte:
 * the same addresses, one struct element. *t is MPI_DATATYPE_NULL when no shift is needed. */
static int at_bottom(const void *buf, int *count, MPI_Datatype *dt, MPI_Datatype *t, const char **base) {
  *t = MPI_DATATYPE_NULL, *base = buf;
  if (buf != MPI_BOTTOM || *count == 0) return MPI_SUCCESS;
  MPI_Aint disp = -1;
  int rc = PMPI_Type_create_struct(1, count, &disp, dt, t);
  if (rc == MPI_SUCCESS && (rc = PMPI_Type_commit(t)) != MPI_SUCCESS) PMPI_Type_free(t);
  if (rc == MPI_SUCCESS) *dt = *t, *count = 1, *base = (const char *)1;
  return rc;
}

int mg_pack(const void *in, int count, MPI_Datatype dt, void *out, int outbytes) {
  int pos = 0;
  MPI_Datatype t;
  const char *base;
  int rc = at_bottom(in, &count, &dt, &t, &base);
  if (rc == MPI_SUCCESS) rc = PMPI_Pack(base, count, dt, out, outbytes, &pos, self_comm);
  if (t != MPI_DATATYPE_NULL) PMPI_Type_free(&t);
  return rc;
}

int mg_unpack(const void *in, int inbytes, void *out, int count, MPI_Datatype dt) {
  int pos = 0;
  MPI_Datatype t;
  const char *base;
  int rc = at_bottom(out, &count, &dt, &t, &base);
  if (rc == MPI_SUCCESS) rc = PMPI_Unpack(in, inbytes, &pos, (void *)base, count, dt, self_comm);
  if (t != MPI_DATATYPE_NULL) PMPI_Type_free(&t);
  return rc;
}

/*
 * Whether packed bytes may be received straight into datatype dt. MPI_PACKED
 * matches any type, but MPICH 4.0.2 fails such a receive ("Message
 * truncated") above its eager limit (about 8 KiB) when the type mixes basic
 * types of different sizes (struct {int; double}, MPI_DOUBLE_INT). So only
 * predefined types without padding receive directly; the others receive the
 * bytes packed into scratch and unpack them. The choice is local: the
 * messages are the same either way.
 */
int mg_packed_recv_ok(MPI_Datatype dt, int *ok) {
  int ni, na, nd, combiner;
  mg_type t;
  int rc = PMPI_Type_get_envelope(dt, &ni, &na, &nd, &combiner);
  if (rc == MPI_SUCCESS) rc = mg_type_get(dt, &t);
  if (rc != MPI_SUCCESS) return rc;
  *ok = combiner == MPI_COMBINER_NAMED && t.lb == 0 && t.extent == t.size;
  return MPI_SUCCESS;
}

int mg_pack_own(const mg_call *c, void *out) {
  if (c->sbuf != MPI_IN_PLACE) return mg_pack(c->sbuf, c->scount, c->stype, out, (int)c->bytes);
  mg_type rt;
  int rc = mg_type_get(c->rtype, &rt);
  if (rc != MPI_SUCCESS) return rc;
  return mg_pack(mg_type_at(c->rbuf, &rt, (size_t)c->rank * (size_t)c->rcount), c->rcount, c->rtype, out,
                 (int)c->bytes);
}

/* Per-thread buffers (mg_tbuf, declared above) grow to the largest request
 * and are kept; they are freed when the thread exits. */
static pthread_once_t keys_once = PTHREAD_ONCE_INIT;
static void keys_make(void) {
  pthread_key_create(&pool_key, free);
  pthread_key_create(&bounce_key, free);
}

static void *grow(mg_tbuf *b, size_t bytes, pthread_key_t *key) {
  if (bytes <= b->cap) return b->buf;
  size_t want = b->cap ? b->cap : 4096;
  while (want < bytes) want *= 2;
  pthread_once(&keys_once, keys_make);
  free(b->buf);
  b->buf = NULL;
  b->cap = 0;
  if (posix_memalign(&b->buf, MG_ALIGN, want) != 0) {
    fprintf(stderr, "mpiguide: cannot allocate %zu bytes of scratch; aborting the job "
                    "(lower MPIGUIDE_SCRATCH_MAX to make such calls run the default)\n", want);
    PMPI_Abort(MPI_COMM_WORLD, 1);
    return NULL;
  }
  b->cap = want;
  pthread_setspecific(*key, b->buf);
  return b->buf;
}

void *mg_scratch(size_t bytes) {
  pthread_once(&keys_once, keys_make);
  return grow(&pool, bytes, &pool_key);
}

/*
 * Data scratch folded (issue 50.2, docs/scale.md): under SimGrid's SMPI every simulated rank is in
 * one process, and a mock-up's p x n scratch (allgather_as_alltoall, alltoall_as_bruck, ...) is
 * then p^2 x n for the job: 16 GiB for 1024 ranks of 16 KiB. With the fold on (the benchmark
 * engine's measured calls, mg_bench_fold_buffers) the data regions come from SMPI_SHARED_MALLOC,
 * whose pages all ranks share; their values are garbage every rank writes, which a simulated time
 * does not depend on (no computation is simulated, messages are priced by their sizes). Counts,
 * displacements, requests and datatypes stay in the private pool. Without the fold, and outside
 * the SMPI build always, a data region is carved from the one pool exactly as mg_scratch's.
 */
#ifdef SMPI_H
static _Thread_local mg_tbuf fold_pool; /* the data scratch, SMPI's shared pages */
static _Thread_local int fold_on;       /* mg_scratch_fold */

static void fold_release(void) {
  if (fold_pool.buf) SMPI_SHARED_FREE(fold_pool.buf);
  fold_pool = (mg_tbuf){0};
}

void mg_scratch_fold(int on) {
  if (!on) fold_release();
  fold_on = on != 0;
}

static void *fold_grow(size_t bytes) {
  if (bytes <= fold_pool.cap) return fold_pool.buf;
  size_t want = fold_pool.cap ? fold_pool.cap : 4096;
  while (want < bytes) want *= 2;
  fold_release();
  void *b = SMPI_SHARED_MALLOC(want);
  if (!b) {
    fprintf(stderr, "mpiguide: cannot map %zu bytes of shared scratch; aborting the job\n", want);
    PMPI_Abort(MPI_COMM_WORLD, 1);
    return NULL;
  }
  fold_pool.buf = b, fold_pool.cap = want;
  return b;
}
#else
enum { fold_on = 0 }; /* no fold outside SMPI: the data regions are mg_scratch's */
static void fold_release(void) {}
void mg_scratch_fold(int on) { (void)on; }
static void *fold_grow(size_t bytes) { return mg_scratch(bytes); }
#endif

void *mg_scratch_data(size_t bytes) { return fold_on ? fold_grow(bytes) : mg_scratch(bytes); }

char *mg_scratch_split(size_t meta, size_t data, char **cur_data) {
  if (!fold_on) { /* one region: the metadata, then the data */
    char *cur = mg_scratch(mg_align(meta) + data);
    *cur_data = cur + mg_align(meta);
    return cur;
  }
  char *cur = mg_scratch(meta ? meta : 1);
  *cur_data = fold_grow(data ? data : 1);
  return cur;
}

void mg_scratch_free(void) {
  pthread_once(&keys_once, keys_make);
  fold_release();
  pthread_setspecific(pool_key, NULL);
  pthread_setspecific(bounce_key, NULL);
  free(pool.buf);
  free(bounce.buf);
  pool = (mg_tbuf){0};
  bounce = (mg_tbuf){0};
}

int mg_root_offsets(const mg_call *c, const int *counts, MPI_Datatype dt, size_t *off, size_t *n) {
  long long mine[2], *all = NULL; /* this rank's offset, and n */
  if (c->rank == c->root) {
    mg_type t;
    int rc = mg_type_get(dt, &t);
    if (rc != MPI_SUCCESS) return rc;
    all = mg_scratch(2 * (size_t)c->size * sizeof *all);
    long long total = 0;
    for (int i = 0; i < c->size; i++) all[2 * i] = total, total += (long long)counts[i] * t.size;
    for (int i = 0; i < c->size; i++) all[2 * i + 1] = total;
  }
  int rc = PMPI_Scatter(all, 2, MPI_LONG_LONG, mine, 2, MPI_LONG_LONG, c->root, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  *off = (size_t)mine[0], *n = (size_t)mine[1];
  return MPI_SUCCESS;
}
