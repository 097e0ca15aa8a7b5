/*
 * mpiguide: the public C API of libmpiguide.
 *
 * libmpiguide defines MPI_Allgather, MPI_Allreduce, MPI_Alltoall, MPI_Bcast,
 * MPI_Gather, MPI_Reduce, MPI_Reduce_scatter_block, MPI_Scan, MPI_Scatter,
 * MPI_Init, MPI_Init_thread and MPI_Finalize on top of the MPI library's PMPI
 * interface. An application needs none of the functions below: linking
 * (-lmpiguide before the MPI library) or LD_PRELOAD plus the environment
 * (MPIGUIDE_ALG, MPIGUIDE_TRACE, MPIGUIDE_SCRATCH_MAX; see docs/library.md)
 * is enough. These functions are for tests and tools that want to steer or
 * observe the library from inside a program.
 *
 * All strings passed in are only read; all strings returned are static.
 */
#ifndef MPIGUIDE_H
#define MPIGUIDE_H

#ifdef __cplusplus
extern "C" {
#endif

#define MPIGUIDE_VERSION "0.1.0"

#if defined(__GNUC__)
#define MPIGUIDE_API __attribute__((visibility("default")))
#else
#define MPIGUIDE_API
#endif

/* Status codes of the functions below: MPIGUIDE_STATUSES(X) lists
 * X(name, value, message); mpiguide_strerror() returns the message. */
#define MPIGUIDE_STATUSES(X)                                                         \
  X(OK, 0, "success")                                                                \
  X(ERR_SYNTAX, 1, "not of the form <collective>=<algorithm>[,...]")                 \
  X(ERR_COLLECTIVE, 2, "unknown collective")                                         \
  X(ERR_ALGORITHM, 3, "unknown algorithm for that collective")                       \
  X(ERR_NOT_INIT, 4, "MPI is not initialized")
enum {
#define MPIGUIDE_X(name, value, text) MPIGUIDE_##name = value,
  MPIGUIDE_STATUSES(MPIGUIDE_X)
#undef MPIGUIDE_X
};

/* The version of the library that is loaded, e.g. "0.1.0". */
MPIGUIDE_API const char *mpiguide_version(void);

/* A sentence for a status code. */
MPIGUIDE_API const char *mpiguide_strerror(int status);

/*
 * Replace the forced algorithms, with the syntax of MPIGUIDE_ALG
 * ("allreduce=allreduce_as_reduce_bcast,bcast=default"; "" forces nothing).
 * On error nothing changes. The call is local: every rank must make it with
 * the same spec, between collective calls, from one thread — as with any
 * choice of algorithm, ranks that disagree deadlock or corrupt data.
 * After this call the library counts calls (mpiguide_calls) even if no
 * environment variable was set.
 */
MPIGUIDE_API int mpiguide_force(const char *spec);

/*
 * How many calls of collective `coll` on this rank ran algorithm `alg`
 * ("default" included) since MPI_Init, while the library counted calls
 * (MPIGUIDE_ALG or MPIGUIDE_TRACE set, or mpiguide_force called; tuned mode
 * alone does not count, to keep its per-call cost low).
 * -1 for an unknown name.
 */
MPIGUIDE_API long long mpiguide_calls(const char *coll, const char *alg);

/*
 * How many calls of `coll` on this rank were asked to run a mock-up but ran
 * the default, for the reason `reason` ("intercomm", "empty", "invalid_root",
 * "invalid_args", "count_range", "noncommutative", "userop_padding",
 * "scratch_cap"; docs/library.md) or for any reason if reason is NULL.
 * -1 for an unknown name.
 */
MPIGUIDE_API long long mpiguide_fallbacks(const char *coll, const char *reason);

/*
 * How many requests of non-blocking or persistent collectives libmpiguide keeps scratch for now
 * (the counts and displacements of a row such as iallgather_as_iallgatherv, freed when a
 * completion call returns the request completed, at MPI_Request_free, or at MPI_Finalize;
 * docs/library.md, "Non-blocking and persistent"), and the schedules of the rows that run with the
 * progress thread (MPIGUIDE_PROGRESS=thread) whose memory is not yet freed: freed once the request
 * has completed and been freed (by its completion call or MPI_Request_free). 0 in pass-through.
 */
MPIGUIDE_API long mpiguide_requests_kept(void);

#ifdef __cplusplus
}
#endif

#endif
