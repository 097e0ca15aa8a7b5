/*
 * The user-defined operator family: Träff, Gropp and Thakur, TPDS 2010,
 * eq. (23): Reduce(n, MPI_SUM) <= Reduce(n, user_sum). A built-in op must not
 * be slower than the same op written by the user: the library knows the
 * built-in one (it may vectorise it, reduce in the network, pick an algorithm
 * for it) and nothing about a user function, so a built-in op slower than its
 * user-defined twin means the library's built-in path is slow, and the same
 * call with the twin is the repair. One function for the six reductions
 * (reduce, allreduce, reduce_scatter, reduce_scatter_block, scan, exscan): the
 * same PMPI call with the same arguments, the op replaced by mpiguide's own
 * user-defined one (created commutative, as every built-in op is).
 *
 * When (registry.h, MG_R_BITWISE_EXACT; mg_userop_exact(), registry/restrict.c): the library may
 * combine the contributions of a user op in another order and grouping than
 * those of the built-in one (a different algorithm), so the result must be the
 * same bits in any order: SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR, BXOR
 * on a predefined C integer type, and the bitwise three on MPI_BYTE. SUM and
 * PROD are computed in unsigned arithmetic of at least int's width, so an
 * overflow wraps modulo 2^bits as the libraries' own loops do, in any order
 * (converting back to a signed type is modular with GCC and Clang). Three
 * library defects narrow this (MG_UO_OPS, registry/restrict.h): no SUM on signed types narrower
 * than int (Open MPI saturates), no MIN or MAX on unsigned types (MPICH 4.0.2,
 * and Open MPI on MPI_UNSIGNED_LONG, compare them as signed): there the
 * library's result differs from the exact one the twin gives, so those calls
 * run the default. Floating point is out: a sum or product rounds differently
 * in another order, and MIN/MAX can return -0.0 or +0.0, or another NaN,
 * depending on the order.
 * Derived datatypes are out too: the standard defines built-in ops on
 * predefined types only (both libraries reject a derived one), so no legal
 * call has one; a call outside runs the default, which reports the error.
 *
 * The twins: one function per op, each a loop per datatype, all generated from
 * one table of ops and one of datatypes (MG_UO_OPS x MG_UO_TYPES). A function is
 * called with the datatype the library passes, which is the call's own
 * predefined one in Open MPI and MPICH; should another predefined type ever
 * arrive, the function hands the elements to PMPI_Reduce_local with the
 * built-in op, which is exact too. The ten MPI_Op handles are created on the
 * first call that needs one (under a lock, for MPI_THREAD_MULTIPLE: creating
 * an op is local, so ranks need not agree on when) and freed by
 * mg_core_finalize(), before MPI_Finalize.
 *
 * Scratch: none. Cost: the library's algorithm for a user-defined commutative
 * op, with the local reductions in a plain C loop (gamma per byte) instead of
 * the library's kernel.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>

#include "algs/algs.h"
#include "registry/restrict.h"

/* The ops' arithmetic: UO_<ENUM>(T, A, x, y) is op ENUM of MG_UO_OPS (registry/restrict.h, where
 * the table of ops and datatypes and the kinds each op is exact on are) on values x, y of C type T,
 * with A the unsigned type of the arithmetic (at least int's width). */
#define UO_SUM(T, A, x, y) ((T)((A)(x) + (A)(y)))
#define UO_PROD(T, A, x, y) ((T)((A)(x) * (A)(y)))
#define UO_MIN(T, A, x, y) ((x) < (y) ? (x) : (y))
#define UO_MAX(T, A, x, y) ((x) > (y) ? (x) : (y))
#define UO_LAND(T, A, x, y) ((T)((x) && (y)))
#define UO_LOR(T, A, x, y) ((T)((x) || (y)))
#define UO_LXOR(T, A, x, y) ((T)(!(x) != !(y)))
#define UO_BAND(T, A, x, y) ((T)((x) & (y)))
#define UO_BOR(T, A, x, y) ((T)((x) | (y)))
#define UO_BXOR(T, A, x, y) ((T)((x) ^ (y)))

/* One loop of op E on datatype h: inout[i] = in[i] (E) inout[i]. */
#define UO_LOOP(E, h, T, A, kind)                                 \
  if (t == (h)) {                                                  \
    const T *restrict x = in;                                      \
    T *restrict y = inout;                                         \
    for (int i = 0; i < n; i++) y[i] = UO_##E(T, A, x[i], y[i]);   \
    return;                                                        \
  }

/* The user function of op E (MPI_User_function). */
#define UO_FN(E, h, k)                                                                 \
  static void uo_fn_##E(void *in, void *inout, int *len, MPI_Datatype *dt) {          \
    MPI_Datatype t = *dt;                                                             \
    int n = *len;                                                                     \
    MG_UO_TYPES(UO_LOOP, E)                                                           \
    PMPI_Reduce_local(in, inout, n, t, h); /* a type no call was allowed: exact too */ \
  }
MG_UO_OPS(UO_FN)
#undef UO_FN
#undef UO_LOOP

static MPI_User_function *const uo_fns[MG_UO_NOPS] = {
#define UO_X(E, h, k) uo_fn_##E,
    MG_UO_OPS(UO_X)
#undef UO_X
};

/* The twins, created together on first use; `ready` is set, with release order, once all are. */
static struct {
  pthread_mutex_t lock;
  atomic_int ready;
  MPI_Op op[MG_UO_NOPS];
} uo = {.lock = PTHREAD_MUTEX_INITIALIZER};

static MPI_Op twin(MPI_Op builtin) {
  int i = mg_userop_index(builtin);
  if (i < 0) return builtin; /* not reached: the row's restriction */
  if (!atomic_load_explicit(&uo.ready, memory_order_acquire)) {
    pthread_mutex_lock(&uo.lock);
    if (!atomic_load_explicit(&uo.ready, memory_order_relaxed)) {
      for (int j = 0; j < MG_UO_NOPS; j++)
        if (PMPI_Op_create(uo_fns[j], 1, &uo.op[j]) != MPI_SUCCESS) {
          /* rank-local: no fallback the other ranks would agree on (like a failed scratch allocation) */
          fprintf(stderr, "mpiguide: cannot create a user-defined op (MPI_Op_create failed); aborting the job\n");
          PMPI_Abort(MPI_COMM_WORLD, 1);
        }
      atomic_store_explicit(&uo.ready, 1, memory_order_release);
    }
    pthread_mutex_unlock(&uo.lock);
  }
  return uo.op[i];
}

void mg_userop_free(void) {
  pthread_mutex_lock(&uo.lock);
  if (atomic_load_explicit(&uo.ready, memory_order_relaxed))
    for (int j = 0; j < MG_UO_NOPS; j++) PMPI_Op_free(&uo.op[j]);
  atomic_store_explicit(&uo.ready, 0, memory_order_relaxed);
  pthread_mutex_unlock(&uo.lock);
}

int mg_userop(const mg_call *c, int unused) {
  (void)unused;
  MPI_Op op = twin(c->op);
  switch (c->coll) {
  case MG_REDUCE: return PMPI_Reduce(c->sbuf, c->rbuf, c->rcount, c->rtype, op, c->root, c->comm);
  case MG_ALLREDUCE: return PMPI_Allreduce(c->sbuf, c->rbuf, c->rcount, c->rtype, op, c->comm);
  case MG_REDUCE_SCATTER: return PMPI_Reduce_scatter(c->sbuf, c->rbuf, c->rcounts, c->rtype, op, c->comm);
  case MG_REDUCE_SCATTER_BLOCK:
    return PMPI_Reduce_scatter_block(c->sbuf, c->rbuf, c->rcount, c->rtype, op, c->comm);
  case MG_SCAN: return PMPI_Scan(c->sbuf, c->rbuf, c->rcount, c->rtype, op, c->comm);
  case MG_EXSCAN: return PMPI_Exscan(c->sbuf, c->rbuf, c->rcount, c->rtype, op, c->comm);
  default: return MPI_ERR_INTERN; /* not reached: the family's rows are the reductions' */
  }
}
