/*
 * libmpiguide's internal state: the one context struct (STYLE.md pattern 6),
 * built at MPI_Init from the environment and torn down at MPI_Finalize, and
 * the dispatch every wrapper goes through.
 *
 * Thread policy (MPI_THREAD_MULTIPLE): the context is read-only between
 * MPI_Init and MPI_Finalize except for the counters (atomics) and the trace
 * table (a mutex). Scratch pools are per thread. mpiguide_force() is the one
 * writer and must not race with collective calls.
 */
#ifndef MG_LIB_H
#define MG_LIB_H

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "loggp/loggp.h"
#include "registry/registry.h"
#include "tune/profile.h"

#define MG_DEFAULT_SCRATCH_MAX ((size_t)64 << 20)

/* The library's own globals, hidden in their declarations too: -fvisibility=hidden only marks
 * definitions, so code that sees a plain extern declaration addresses the variable through the
 * GOT (a load of its address before every access). Hidden, an access is one rip-relative
 * instruction: the wrappers' pass-through test is one compare. */
#define MG_HIDDEN __attribute__((visibility("hidden")))
/* The wrappers' first-level decision: inlined even into the 25 wrappers that use it, so that it
 * stays a straight run of compares with no call (and no stack frame). */
#define MG_ALWAYS_INLINE static inline __attribute__((always_inline))

/* What a wrapper does with a call of one operation (mg_ctx.path), decided at MPI_Init and by
 * mpiguide_force from the mode alone, so that the exported function tests one byte:
 * - PMPI: nothing in this run touches the operation: a tail call of its PMPI_ twin (pure
 *   pass-through; also an operation the profile has no rule for, or an idle point-to-point one);
 * - COUNT: count the call as the default's and call PMPI_ (force mode or mpiguide_force, the
 *   operation not forced, no profile, no trace: mg_dispatch would run the default and count it);
 * - TUNED: tuned mode (a profile that has rules for the operation, nothing counted or traced):
 *   the inline lookup (mg_fast_default) settles the calls it can, the others go on to the
 *   wrapper's active part;
 * - DISPATCH: every call is described and goes through mg_dispatch (forced, traced, online). */
enum { MG_PATH_PMPI = 0, MG_PATH_COUNT, MG_PATH_TUNED, MG_PATH_DISPATCH };

typedef struct mg_trace mg_trace;
/* Online tuning (online.c): the learning state of one communicator. */
typedef struct mg_online_comm mg_online_comm;
#define MG_ONLINE_TRIALS_DEFAULT 8 /* trials per candidate (MPIGUIDE_ONLINE_TRIALS) */
#define MG_ONLINE_TRIALS_MAX 32
#define MG_ONLINE_WARM 16 /* calls of a cell that run the default before it explores */

/* The profile's slice for one collective at one communicator size: what a call
 * of that collective there looks up. */
typedef struct mg_comm_coll {
  /* The wrappers' inline lookup (mg_fast_default): for each size class k (mg_profile_size_class),
   * the first range of `sizes` that ends at or above the class's smallest size, or a sentinel that
   * holds no size ({SIZE_MAX, 0}) when there is none; a size of class k lies in no range if it is
   * below that range's lo. NULL when the slice has selectors (or the table could not be made). */
  const mg_profile_range *const *first;
  mg_profile_sizes sizes;       /* the rules without selectors (n = 0: none) */
  const mg_profile_seltab *sel; /* NULL, or the table by datatype class and op that decides instead */
} mg_comm_coll;

/* What is known about a communicator (comm_cache.c): resolved on its first
 * collective call, read-only from then on. */
typedef struct mg_comm_entry {
  MPI_Comm comm;
  int size, rank, inter;
  mg_comm_coll coll[MG_NCOLL]; /* the profile's slices for its size; all empty without a profile or
                                  for an intercommunicator */
  mg_online_comm *online;       /* online tuning: what its calls taught so far (written by the thread
                                   calling a collective on it; NULL in the other modes) */
  struct mg_comm_entry *next;
} mg_comm_entry;

typedef struct mg_ctx {
  int initialized;
  int active;                     /* 0: pure pass-through, the wrappers only call PMPI */
  int counting;                   /* keep ran/fell (force or trace mode, mpiguide_force) */
  int tuned_only;                 /* a profile, nothing forced, no trace, no counting: the
                                     wrappers' fast path (mg_tuned_default) may settle a call */
  unsigned char path[MG_NCOLL];   /* MG_PATH_*: what each operation's wrapper does (mg_paths_set);
                                     all MG_PATH_PMPI unless active */
  int forced[MG_NCOLL];           /* algorithm index asked for; 0 = default */
  size_t scratch_max;             /* MPIGUIDE_SCRATCH_MAX */
  int thread_level;               /* provided by MPI_Init_thread */
  char *trace_path;               /* MPIGUIDE_TRACE, or NULL */
  int trace_time;                 /* MPIGUIDE_TRACE_TIME=1 (with a trace): time each traced call and
                                     key the trace by call site (docs/trace.md, format 2) */
  double wall_start;              /* MPI_Wtime at the end of MPI_Init (timed trace: the run's wall time) */
  mg_profile *profile;            /* MPIGUIDE_PROFILE, agreed by all ranks, or NULL */
  int online;                     /* MPIGUIDE_PROFILE=auto: learn the choices from the calls (online.c) */
  int online_trials;              /* MPIGUIDE_ONLINE_TRIALS: timed calls per candidate */
  char *profile_out;              /* MPIGUIDE_PROFILE_OUT (online tuning): rank 0 writes what was learned */
  int online_model;               /* MPIGUIDE_LOGGP (online tuning) was read: online_lg holds it */
  mg_loggp online_lg;             /* rank 0's file, broadcast at MPI_Init so every rank prunes alike */
  double model_factor;            /* MPIGUIDE_MODEL_FACTOR: a row priced above this x the best is never tried */
  char *profile_path;
  /* where the profile came from and why it is not in force (the trace's header, docs/trace.md) */
  uint64_t profile_hash;          /* mg_profile_hash of the profile read (also when set aside) */
  char *profile_store;            /* the site's store it came from (store.c), or NULL */
  char *profile_release;          /* the store's release, or NULL */
  int profile_level;              /* the store's search level it matched (tune/store.h MG_STORE_*) */
  char *profile_aside;            /* MPIGUIDE_STRICT=1 set the profile aside: why ("np=4 on 2 node(s) x
                                     2 ..."); the defaults run, the trace's rule column says so */
  uint64_t profile_ruled;         /* the operations the profile has a rule for, at any process count (bit k: mg_coll k; MG_NCOLL <= 64) */
  mg_trace *trace;                /* calls by (collective, bytes, algorithm, reason) */
  pthread_mutex_t trace_lock;
  atomic_llong ran[MG_NCOLL][MG_MAX_ALGS];
  atomic_llong fell[MG_NCOLL][MG_NWHY];
} mg_ctx;

extern MG_HIDDEN mg_ctx mg_the_ctx;
_Static_assert(MG_NCOLL <= 64, "mg_ctx.profile_ruled holds one bit per operation");

/* Set ctx.path from the mode (init.c): at MPI_Init, by mpiguide_force, at MPI_Finalize. */
void mg_paths_set(mg_ctx *x);

/* The return address of the application's MPI_* call, stored by the exported
 * wrapper before it enters its active part (wrappers.c, MG_SITE) and read by
 * the timed trace (dispatch.c): the active parts are out-of-line functions,
 * where __builtin_return_address(0) would be the wrapper's own address. */
extern MG_HIDDEN _Thread_local __attribute__((tls_model("initial-exec"))) void *mg_call_site;
/* The Fortran program's call site: set by the Fortran entry the program called (fortran.c) for the
 * duration of the C wrapper it calls, whose own return address lies in fortran.c (every Fortran
 * call was traced at fortran.c's one line, and `hotspots` merged all sites of an operation); NULL
 * otherwise. MG_SITE prefers it. */
extern MG_HIDDEN _Thread_local __attribute__((tls_model("initial-exec"))) void *mg_fortran_site;

/* The site's profile store (store.c, tune/store.h): the directory in force (MPIGUIDE_PROFILE_STORE,
 * else the compiled-in default when it exists; NULL none). mg_store_pick_profile: collective over
 * MPI_COMM_WORLD, every rank whatever its environment; when rank 0 has no MPIGUIDE_PROFILE
 * (own_profile) and a store, rank 0 finds this job's profile there and every rank receives the
 * same answer; returns 1 when p->path names one. Rank 0 warns once for a broken store. */
typedef struct mg_store_pick {
  int level;                 /* MG_STORE_EXACT, _NP, _LIBRARY; 0 none */
  char store[PATH_MAX];
  char release[128];
  char path[PATH_MAX];
  char err[640];
} mg_store_pick;
const char *mg_store_dir(void);
int mg_store_pick_profile(int rank, const char *own_profile, mg_store_pick *p);
/* The MPI library libmpiguide was compiled against: its handles (MPI_COMM_WORLD, ...)
 * mean nothing to another one. MG_BUILT_FOR_KIND as util/process.h names it (0: another MPI). */
#if defined(OMPI_MAJOR_VERSION)
#define MG_BUILT_FOR "Open MPI"
#define MG_BUILT_FOR_KIND MG_PROC_OPENMPI
#elif defined(MPICH_VERSION)
#define MG_BUILT_FOR "MPICH"
#define MG_BUILT_FOR_KIND MG_PROC_MPICH
#else
#define MG_BUILT_FOR NULL
#define MG_BUILT_FOR_KIND 0
#define MG_BUILT_FOR_OTHER 1 /* SMPI: no check (docs/scale.md, "Known gaps") */
#endif

/* This libmpiguide's file as the loader loaded it (dladdr), or "libmpiguide" if unknown. */
const char *mg_lib_file(void);

/* MPIGUIDE_PROGRESS=thread on this process (and MPIGUIDE not off): MPI_Init asks for
 * MPI_THREAD_MULTIPLE, and mg_lib_init agrees on the progress thread (src/algs/sched.c). */
int mg_progress_wanted(void);
/* MPI_Init / MPI_Init_thread epilogue and MPI_Finalize prologue. */
void mg_lib_init(int thread_level);
void mg_lib_finalize(void);

/* Parse a force spec ("coll=alg[,coll=alg...]") into forced[]; returns a
 * MPIGUIDE_ status and a message in msg. */
int mg_parse_force(const char *spec, int forced[MG_NCOLL], char *msg, size_t msglen);
/* Parse a size with optional K/M/G/T suffix (powers of 1024). 0 on success. */
int mg_parse_size(const char *s, size_t *out);

/* Per-communicator cache (comm_cache.c). mg_comm_get returns NULL only for a
 * communicator MPI does not accept (the caller then lets MPI report it). */
int mg_comm_cache_init(void);
void mg_comm_cache_finalize(void);
const mg_comm_entry *mg_comm_get_slow(MPI_Comm comm);

/* The entry the calling thread used last, valid while the cache's generation
 * (bumped whenever an entry is dropped: a freed handle may come back as another
 * communicator) is the one it was taken at. The generation starts at 1, so the
 * zeroed entry of a thread that has none matches no call, not even one on a
 * handle 0, and e is never NULL where comm and gen match. initial-exec TLS: a plain offset
 * from the thread pointer instead of a __tls_get_addr call per access;
 * libmpiguide is linked or preloaded at start, never dlopen()ed late. */
typedef struct mg_comm_last {
  MPI_Comm comm;
  const mg_comm_entry *e;
  uint_fast64_t gen;
} mg_comm_last;
extern MG_HIDDEN _Thread_local __attribute__((tls_model("initial-exec"))) mg_comm_last mg_comm_last_used;
extern MG_HIDDEN atomic_uint_fast64_t mg_comm_gen;

/* The entry of comm: on the communicator of the thread's previous call two
 * compares and no function call, else the table under its lock (filled on the
 * first call). */
static inline const mg_comm_entry *mg_comm_get(MPI_Comm comm) {
  uint_fast64_t gen = atomic_load_explicit(&mg_comm_gen, memory_order_acquire);
  const mg_comm_last *l = &mg_comm_last_used;
  if (__builtin_expect(l->comm == comm && l->gen == gen, 1)) return l->e;
  return mg_comm_get_slow(comm);
}

/* Trace table (trace.c). `rule` says what chose the algorithm: MG_RULE_NONE
 * (nothing: the default was never in question), MG_RULE_FORCED (MPIGUIDE_ALG)
 * or the profile rule's line (0 for a rule without one, e.g. from a .prf); online tuning's
 * MG_RULE_TRIAL (a timed trial), MG_RULE_LEARNED (the cell's choice by trials) and MG_RULE_MODEL
 * (the cell's choice by the LogGP model, without trials: MPIGUIDE_LOGGP). */
enum { MG_RULE_NONE = -1, MG_RULE_FORCED = -2, MG_RULE_TRIAL = -3, MG_RULE_LEARNED = -4, MG_RULE_MODEL = -5 };
/* Why a call ran the default although a profile was loaded (the rule column, docs/trace.md):
 * the profile has rules for the operation at other process counts only, no rule for it at all,
 * rules at this process count but none for this size (or datatype, op), or it was set aside
 * (MPIGUIDE_STRICT=1 at a process count or layout it was not measured at). */
enum { MG_RULE_NO_NP = -6, MG_RULE_NO_OP = -7, MG_RULE_NO_SIZE = -8, MG_RULE_ASIDE = -9 };
mg_trace *mg_trace_new(void);
void mg_trace_add(mg_trace *t, mg_coll coll, int nprocs, size_t bytes, int alg, mg_why why, int rule);
/* Timed trace (MPIGUIDE_TRACE_TIME): one call at return address site (NULL: unknown), of a
 * reduction with datatype class tclass and op selector opsel (MG_TCLASS_NONE / MG_OPSEL_NONE
 * otherwise), that took ns nanoseconds. A trace holds untimed or timed rows, never both. */
void mg_trace_add_timed(mg_trace *t, const void *site, mg_coll coll, int nprocs, size_t bytes, int alg, mg_why why,
                        int rule, int tclass, int opsel, int64_t ns);
/* A call of another MPI function (lib/acct.h): fn its MG_FN_ id, nprocs its communicator's size (0
 * none), bytes its data (0 none); a completion's share of one request, posted by post_fn (MG_FN_*,
 * -1 none or unknown) at post_site. */
void mg_trace_add_acct(mg_trace *t, int fn, const void *site, int nprocs, long long bytes, int64_t ns, int post_fn,
                       const void *post_site);
void mg_trace_free(mg_trace *t);
/* Collective over MPI_COMM_WORLD: merge all ranks' tables, rank 0 writes (format 1; format 2
 * when timed: call sites resolved to object and offset on each rank, times, the run's wall time). */
void mg_trace_write(mg_trace *t, const char *path, int timed, double wall_start);

/* Online tuning (online.c, MPIGUIDE_PROFILE=auto). mg_online_learns: whether a prepared call is
 * one that is learned (a collective whose size every rank knows, on an intracommunicator of two
 * or more processes). mg_online_pick: the algorithm for the call, equal on every rank of the
 * communicator (a trial while its cell explores, s->trial = 1, else the choice; s->model = 1 when
 * the LogGP model made it without trials), or -1 when the
 * communicator's online tuning is off (the default runs). mg_online_record: after a trial, the
 * algorithm that ran (ran: the default when it fell back) and its local time; the end of a round
 * makes the ranks agree (one PMPI_Allreduce on the call's communicator). */
typedef struct mg_online_slot {
  struct mg_ocell *cell;
  int trial, pos, model;
} mg_online_slot;
mg_online_comm *mg_online_comm_new(void);
void mg_online_comm_free(mg_online_comm *o);
int mg_online_learns(const mg_call *c);
int mg_online_pick(mg_online_comm *o, const mg_call *c, mg_online_slot *s);
void mg_online_record(const mg_call *c, const mg_online_slot *s, int ran, double sec, int trials);
/* At MPI_Finalize, after the communicators' state is freed: collective over MPI_COMM_WORLD when
 * path is set (rank 0 writes the learned profile there); frees what was learned. */
void mg_online_finalize(const char *path, double wall_start);

/* What the wrappers (wrappers.c, fortran.c) share. Only MPI's own symbols and the public
 * mpiguide_* API are exported. */
#define MG_EXPORT __attribute__((visibility("default")))
#define PASS_THROUGH (__builtin_expect(!mg_the_ctx.active, 1))
/* The part of a wrapper that runs when libmpiguide is active, out of line so that the
 * pass-through path is a test and a tail call, with no stack frame to set up. */
#define MG_ACTIVE __attribute__((noinline))
/* The application's call site, for the timed trace (mg_call_site): taken in the exported function
 * the application called, before the out-of-line active part. */
#define MG_SITE (mg_call_site = mg_fortran_site ? mg_fortran_site : __builtin_return_address(0))
/* A point-to-point operation E (MG_SEND...) whose calls nothing in this run touches calls PMPI_
 * at once; its path is MG_PATH_PMPI unless active, so one test covers pass-through too. */
#define P2P_IDLE(E) __builtin_expect(mg_the_ctx.path[MG_##E] == MG_PATH_PMPI, 1)

/*
 * The exported wrapper's own decision, before anything else: 1 when it calls the PMPI_ function
 * at once. One byte (ctx.path) says what the mode asks of operation E: nothing (pass-through: one
 * compare and the tail call), a count of the default (force mode for another operation: one
 * atomic add), or in tuned mode `settled`, the inline lookup below, evaluated on that path only.
 * Everything else goes to the wrapper's out-of-line active part. The tests and the lookup call
 * no function, so the wrapper needs no stack frame on these paths.
 */
#define MG_FAST(E, settled)                                                                                  \
  (__builtin_expect(mg_the_ctx.path[MG_##E] == MG_PATH_PMPI, 1) ||                                          \
   (mg_the_ctx.path[MG_##E] == MG_PATH_TUNED                                                                 \
        ? (settled)                                                                                          \
        : mg_the_ctx.path[MG_##E] == MG_PATH_COUNT && (mg_count_default(MG_##E), 1)))

/* MG_PATH_COUNT: the call counted as mg_dispatch counts a default it runs. */
MG_ALWAYS_INLINE void mg_count_default(mg_coll coll) {
  atomic_fetch_add_explicit(&mg_the_ctx.ran[coll][0], 1, memory_order_relaxed);
}

/* Select, run and account a call that the wrapper's fast path (below) did not
 * settle: every mode (dispatch.c). */
int mg_dispatch(mg_call *c);

/* The profile's rule for a call of message size `bytes` (reductions: datatype
 * rtype, op) on a communicator whose slice for the collective is t; NULL when
 * none applies (the default runs). */
static inline const mg_profile_range *mg_comm_rule(const mg_comm_coll *t, size_t bytes, MPI_Datatype rtype,
                                                   MPI_Op op) {
  const mg_profile_sizes *s = &t->sizes;
  if (t->sel) /* rules by datatype class and op (reductions only; both equal on every rank) */
    s = mg_profile_seltab_pick(t->sel, t->sel->by_type ? mg_tclass_of(rtype) : MG_TCLASS_NONE,
                               t->sel->by_op ? mg_opsel_of(op) : MG_OPSEL_NONE);
  return mg_profile_sizes_find(s, bytes);
}

/*
 * The wrappers' fast path in tuned mode (a profile, and nothing forced,
 * traced or counted: ctx.tuned_only). Most calls there run the default: the
 * profile has no rule for the collective at the communicator's size, or none
 * for the message size, or the rule names the default. Such a call goes from
 * the wrapper straight to its PMPI_ function (in this mode there is nothing to
 * count or trace): no mg_call is built, and the cost is the thread's
 * remembered communicator entry (its slices were resolved when it was first
 * seen), the argument check, the message size and one lookup in the slice's
 * index by size class. The decision is mg_dispatch's, from the same helpers
 * and inputs (collective, communicator size, message size, datatype class and
 * op: equal on every rank); whatever the fast path cannot settle (a rule that
 * names a mock-up, invalid arguments, MPI_COMM_NULL, another mode) goes to
 * mg_dispatch. No lock, no allocation after a communicator's first call.
 */

/*
 * The first, inline level of it (MG_PATH_TUNED, in the exported wrapper): only what needs no
 * function call. The communicator must be the thread's last one (no lock), the slice must have no
 * selectors, the datatype must be one of the common predefined ones (mg_common_types: no
 * PMPI_Type_size) or the count 0; then the size's class and a range compare say whether a rule
 * applies. mg_fast_default 1: the default runs; 0: not settled here (another communicator,
 * selectors, a rare datatype, a size past the class's first range, or a rule that names a
 * mock-up), the active part decides. The arguments are not checked: a call that mg_call_check
 * would refuse runs the default in mg_dispatch as well, and the wrapper takes only the answer
 * "the default" from this level; a null datatype is not among the common ones, so no PMPI query
 * sees it.
 */
/* 1 when comm is the thread's last communicator, its entry in *e (never NULL then: mg_comm_last). */
MG_ALWAYS_INLINE int mg_comm_cached(MPI_Comm comm, const mg_comm_entry **e) {
  const mg_comm_last *l = &mg_comm_last_used;
  *e = l->e;
  return l->comm == comm && l->gen == atomic_load_explicit(&mg_comm_gen, memory_order_acquire);
}

/* count x size(dt) into *bytes without asking MPI (a compare per common predefined type, the size
 * a constant); 0 when dt is not one of them. A negative count gives a size mg_dispatch would not
 * look up (it refuses the call), but the answer can only be "the default" or "not settled", and
 * the default is what mg_dispatch runs for such a call. */
MG_ALWAYS_INLINE int mg_type_bytes_known(int count, MPI_Datatype dt, size_t *bytes) {
#define MG_X(handle, ctype)                                                                                  \
  if (dt == handle) {                                                                                        \
    *bytes = (size_t)(ptrdiff_t)count * sizeof(ctype);                                                       \
    return 1;                                                                                                \
  }
  MG_COMMON_TYPES(MG_X)
#undef MG_X
  *bytes = 0; /* mg_type_bytes: no elements, no bytes, whatever the datatype */
  return count == 0;
}

/* What the first level found for a call of `bytes` (mg_fast_lookup). */
enum { MG_FAST_DEFAULT, MG_FAST_FIRES, MG_FAST_UNKNOWN };

/* The first range that can hold a size of its class (mg_comm_coll.first) settles most calls: the
 * size lies in the gap before it (no rule: the default), or in it (its rule); a size past it is
 * MG_FAST_UNKNOWN, for the second level, which searches. */
MG_ALWAYS_INLINE int mg_fast_range(const mg_profile_range *const *first, size_t bytes) {
  const mg_profile_range *r = first[mg_profile_size_class(bytes)];
  if (bytes < r->lo) return MG_FAST_DEFAULT; /* in no range */
  if (bytes > r->hi) return MG_FAST_UNKNOWN;
  return r->alg ? MG_FAST_FIRES : MG_FAST_DEFAULT;
}

/* A call of collective (or point-to-point operation) coll of count elements of dt on comm. */
MG_ALWAYS_INLINE int mg_fast_lookup(mg_coll coll, MPI_Comm comm, int count, MPI_Datatype dt) {
  const mg_comm_entry *e;
  size_t bytes;
  if (!mg_comm_cached(comm, &e) || !e->coll[coll].first || !mg_type_bytes_known(count, dt, &bytes))
    return MG_FAST_UNKNOWN;
  return mg_fast_range(e->coll[coll].first, bytes);
}

/* The same for a call whose message size is known (barrier: 0). */
MG_ALWAYS_INLINE int mg_fast_lookup_bytes(mg_coll coll, MPI_Comm comm, size_t bytes) {
  const mg_comm_entry *e;
  if (!mg_comm_cached(comm, &e) || !e->coll[coll].first) return MG_FAST_UNKNOWN;
  return mg_fast_range(e->coll[coll].first, bytes);
}

/* 1: the first level settles the call: the default runs. */
MG_ALWAYS_INLINE int mg_fast_default(mg_coll coll, MPI_Comm comm, int count, MPI_Datatype dt) {
  return mg_fast_lookup(coll, comm, count, dt) == MG_FAST_DEFAULT;
}

/* A call of a collective whose message size is not one count: settled only when the profile has
 * no rule for it at comm's size. */
MG_ALWAYS_INLINE int mg_fast_untouched(mg_coll coll, MPI_Comm comm) {
  const mg_comm_entry *e;
  return mg_comm_cached(comm, &e) && !e->coll[coll].sizes.n && !e->coll[coll].sel;
}

/* The second level, in the wrapper's active part: the same decision for what the first level
 * left, with the function calls it may need (the cache's table under its lock, PMPI_Type_size,
 * the table by datatype class and op). */

/* The slice of collective coll for comm when the fast path applies, else NULL. */
static inline const mg_comm_coll *mg_fast_slice(mg_coll coll, MPI_Comm comm) {
  if (!mg_the_ctx.tuned_only || comm == MPI_COMM_NULL) return NULL;
  const mg_comm_entry *e = mg_comm_get(comm);
  return e ? &e->coll[coll] : NULL;
}

static inline int mg_slice_empty(const mg_comm_coll *t) { return !t->sizes.n && !t->sel; }

/* 1: the profile has no rule for collective coll at comm's size; the wrapper
 * calls PMPI_ (any collective). */
static inline int mg_tuned_untouched(mg_coll coll, MPI_Comm comm) {
  const mg_comm_coll *t = mg_fast_slice(coll, comm);
  return t && mg_slice_empty(t);
}

/* 1: the profile leaves this call of a one-count collective (registry.h) to
 * the default; the wrapper calls PMPI_. Arguments as in mg_call. */
MG_ALWAYS_INLINE int mg_tuned_default(mg_coll coll, MPI_Comm comm, const void *sbuf, int scount, MPI_Datatype stype,
                                      int rcount, MPI_Datatype rtype, MPI_Op op) {
  /* a rule the first level found: mg_dispatch runs its mock-up; the lookup is not done twice */
  if (!mg_the_ctx.tuned_only || mg_fast_lookup(coll, comm, rcount, rtype) == MG_FAST_FIRES) return 0;
  const mg_comm_coll *t = mg_fast_slice(coll, comm);
  if (!t) return 0;
  if (mg_slice_empty(t)) return 1;
  if (!mg_one_count_args_ok(coll, sbuf, scount, stype, rcount, rtype, op)) return 0; /* mg_dispatch reports */
  const mg_profile_range *hit = mg_comm_rule(t, mg_type_bytes(rcount, rtype), rtype, op);
  return !hit || hit->alg == 0; /* no rule, or one that names the default */
}

/* 1: the profile leaves this point-to-point call to the default; the wrapper calls PMPI_. The
 * message size is mg_call_set_bytes's: count x size(datatype) of the side the registry sizes the
 * operation by (the send side; recv and irecv: the receive buffer); rtype and MPI_OP_NULL are what
 * mg_dispatch looks the rule up with (the call's receive type, MPI_DATATYPE_NULL for the sends).
 * A null datatype goes to mg_dispatch, which reports it. */
MG_ALWAYS_INLINE int mg_tuned_default_p2p(mg_coll coll, MPI_Comm comm, int count, MPI_Datatype dt,
                                          MPI_Datatype rtype) {
  if (!mg_the_ctx.tuned_only || mg_fast_lookup(coll, comm, count, dt) == MG_FAST_FIRES) return 0; /* as above */
  const mg_comm_coll *t = mg_fast_slice(coll, comm);
  if (!t) return 0;
  if (mg_slice_empty(t)) return 1;
  if (dt == MPI_DATATYPE_NULL) return 0;
  const mg_profile_range *hit = mg_comm_rule(t, mg_type_bytes(count, dt), rtype, MPI_OP_NULL);
  return !hit || hit->alg == 0;
}

/* 1: the profile leaves this barrier (message size 0; coll MG_BARRIER or MG_IBARRIER) to the default. */
static inline int mg_tuned_default_barrier_of(mg_coll coll, MPI_Comm comm) {
  const mg_comm_coll *t = mg_fast_slice(coll, comm);
  const mg_profile_range *hit = t ? mg_comm_rule(t, 0, MPI_DATATYPE_NULL, MPI_OP_NULL) : NULL;
  return t && (!hit || hit->alg == 0);
}
static inline int mg_tuned_default_barrier(MPI_Comm comm) { return mg_tuned_default_barrier_of(MG_BARRIER, comm); }

#endif
