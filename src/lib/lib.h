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

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

#include "registry/registry.h"
#include "tune/profile.h"

#define MG_DEFAULT_SCRATCH_MAX ((size_t)64 << 20)

typedef struct mg_trace mg_trace;

/* What is known about a communicator (comm_cache.c); read-only once made. */
typedef struct mg_comm_entry {
  MPI_Comm comm;
  int size, rank, inter;
  int nranges[MG_NCOLL];                    /* the profile's slice for (collective, size) */
  const mg_profile_range *ranges[MG_NCOLL]; /* (its rules without selectors) */
  const mg_profile_seltab *sel[MG_NCOLL];   /* NULL, or its table by datatype class and op */
  struct mg_comm_entry *next;
} mg_comm_entry;

typedef struct mg_ctx {
  int initialized;
  int active;                     /* 0: pure pass-through, the wrappers only call PMPI */
  int counting;                   /* keep ran/fell (force or trace mode, mpiguide_force) */
  int forced[MG_NCOLL];           /* algorithm index asked for; 0 = default */
  size_t scratch_max;             /* MPIGUIDE_SCRATCH_MAX */
  int thread_level;               /* provided by MPI_Init_thread */
  char *trace_path;               /* MPIGUIDE_TRACE, or NULL */
  mg_profile *profile;            /* MPIGUIDE_PROFILE, agreed by all ranks, or NULL */
  char *profile_path;
  mg_trace *trace;                /* calls by (collective, bytes, algorithm, reason) */
  pthread_mutex_t trace_lock;
  atomic_llong ran[MG_NCOLL][MG_MAX_ALGS];
  atomic_llong fell[MG_NCOLL][MG_NWHY];
} mg_ctx;

extern mg_ctx mg_the_ctx;

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
const mg_comm_entry *mg_comm_get(MPI_Comm comm);

/* Trace table (trace.c). `rule` says what chose the algorithm: MG_RULE_NONE
 * (nothing: the default was never in question), MG_RULE_FORCED (MPIGUIDE_ALG)
 * or the profile rule's line (0 for a rule without one, e.g. from a .prf). */
enum { MG_RULE_NONE = -1, MG_RULE_FORCED = -2 };
mg_trace *mg_trace_new(void);
void mg_trace_add(mg_trace *t, mg_coll coll, int nprocs, size_t bytes, int alg, mg_why why, int rule);
void mg_trace_free(mg_trace *t);
/* Collective over MPI_COMM_WORLD: merge all ranks' tables, rank 0 writes. */
void mg_trace_write(mg_trace *t, const char *path);

/* Select, run and account a prepared-to-be call. */
int mg_dispatch(mg_call *c);

#endif
