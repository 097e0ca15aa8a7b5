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

#define MG_DEFAULT_SCRATCH_MAX ((size_t)64 << 20)

typedef struct mg_trace mg_trace;

typedef struct mg_ctx {
  int initialized;
  int active;                     /* 0: pure pass-through, the wrappers only call PMPI */
  int forced[MG_NCOLL];           /* algorithm index asked for; 0 = default */
  size_t scratch_max;             /* MPIGUIDE_SCRATCH_MAX */
  int thread_level;               /* provided by MPI_Init_thread */
  char *trace_path;               /* MPIGUIDE_TRACE, or NULL */
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

/* Trace table (trace.c). */
mg_trace *mg_trace_new(void);
void mg_trace_add(mg_trace *t, mg_coll coll, size_t bytes, int alg, mg_why why);
void mg_trace_free(mg_trace *t);
/* Collective over MPI_COMM_WORLD: merge all ranks' tables, rank 0 writes. */
void mg_trace_write(mg_trace *t, const char *path);

/* Select, run and account a prepared-to-be call. */
int mg_dispatch(mg_call *c);

#endif
