/*
 * Every MPI call accounted (docs/trace.md, "Every MPI call"): the runtime of the wrappers that
 * src/lib/gen_wrappers.py generates from src/lib/mpi_functions.txt for every MPI function
 * libmpiguide does not tune.
 *
 * With no timed trace a generated wrapper tests mg_acct_on and tail-calls its PMPI_ twin. With
 * one (MPIGUIDE_TRACE and MPIGUIDE_TRACE_TIME=1), its out-of-line part times the call and records
 * a trace row keyed by (function, call site, bytes, communicator size); a call that creates a
 * request keeps the request's post (function, site) in a table keyed by the handle, and a
 * completion (MPI_Wait*, MPI_Test*, MPI_Request_get_status) splits its time equally among the
 * active requests it was given, one row per (completion site, post function, post site). A
 * request the completion freed (set to MPI_REQUEST_NULL) leaves the table; a persistent one stays
 * until MPI_Request_free.
 */
#ifndef MG_LIB_ACCT_H
#define MG_LIB_ACCT_H

#include <stdint.h>

#include "lib/lib.h"
#include "lib/mg_functions.h"
#include "util/clock.h"

/* 1 while a timed trace is on (MPI_Init to MPI_Finalize): the generated wrappers' one test. */
extern MG_HIDDEN unsigned char mg_acct_on;
/* 1 while a timed trace is on or a request's scratch is kept (mg_acct_keep): the generated
 * completion wrappers' (MPI_Wait*, MPI_Test*, MPI_Request_get_status, MPI_Request_free) one test. */
extern MG_HIDDEN unsigned char mg_acct_compl;
/* Its values: 0 the tail call; MG_ACCT_COMPL_DRIVE (the progress thread alone) the schedules among
 * the requests advanced (mg_acct_drive), then the call, untimed; MG_ACCT_COMPL_FULL the accounting. */
enum { MG_ACCT_COMPL_DRIVE = 1, MG_ACCT_COMPL_FULL = 2 };
void mg_acct_drive(int fn, int n, const MPI_Request *reqs);
/* The progress thread on or off (src/algs/sched.c; mg_lib_init, mg_lib_finalize): on, every
 * completion call takes its slow path and advances the pending schedules it was given first. */
void mg_acct_progress(int on);
/* The generated wrappers of the functions that make an intra-communicator (@newcomm) test this byte
 * (a timed trace, the progress thread, or libmpiguide active: mg_acct_watch_comms) and call
 * mg_acct_made with the new one, while every rank of it is there: its shadow for the schedule rows
 * (with the thread, mg_sched_shadow_make) and a distributed graph's agreement on its blocks (active,
 * mg_neighbor_made: one MPI_Allreduce per distributed graph made). */
extern MG_HIDDEN unsigned char mg_acct_newcomm;
void mg_acct_made(MPI_Comm c);
void mg_acct_watch_comms(int on); /* mg_paths_set: mg_ctx.active */
/* MPI_Start and MPI_Startall (roles @start, @starts) test this byte (a timed trace, or the progress
 * thread) and, after a successful call, pass the requests to mg_acct_started (Open MPI's Fortran
 * bindings: mg_acct_fstarted): a schedule row's persistent requests among them start their runs. */
extern MG_HIDDEN unsigned char mg_acct_starts;
void mg_acct_started(int n, const MPI_Request *reqs);
/* Keep `scratch` (mg_nbc_alloc'd: what MPI reads until request r completes, such as a Fortran
 * binding's datatypes converted to C handles) with r: beside the entry its post made, or in one of
 * its own; freed as mg_acct_keep's. */
void mg_acct_keep_also(MPI_Request r, int fn, const void *site, int persistent, void *scratch);
void mg_acct_fstarted(MPI_Fint n, const MPI_Fint *freqs);

/* The application's call site, as MG_SITE takes it (a Fortran binding's noted site first). */
#define MG_ACCT_SITE (mg_fortran_site ? mg_fortran_site : __builtin_return_address(0))

/* Requests a completion call was given, kept on the stack up to this many (beyond: the heap). */
#define MG_ACCT_GIVEN 32

typedef struct mg_acct_call {
  int fn;             /* MG_FN_* */
  int nprocs;         /* size of the @comm communicator, 0 without one */
  const void *site;   /* the application's call */
  int64_t t0, ns;     /* the call's start and length (CLOCK_MONOTONIC) */
  long long bytes;    /* @count x size of @type, 0 without them */
  int ngiven;         /* requests a completion was given (handles copied before the call) */
  MPI_Request *given; /* small[] or the heap */
  MPI_Request small[MG_ACCT_GIVEN];
} mg_acct_call;

static inline void mg_acct_begin(mg_acct_call *a, int fn, const void *site) {
  a->fn = fn;
  a->nprocs = 0;
  a->site = site;
  a->bytes = 0;
  a->ngiven = 0;
  a->given = a->small;
}
/* libmpiguide's own cost of recording the thread's previous call (mg_acct_done): added to the next
 * call's time, so that the trace's sum is the time the program spent in its MPI calls, as a timer
 * around each call in the program sees it (a polling loop of MPI_Test spends a fifth of its time
 * there). */
extern MG_HIDDEN _Thread_local __attribute__((tls_model("initial-exec"))) int64_t mg_acct_carry;
static inline void mg_acct_start(mg_acct_call *a) {
  a->t0 = mg_clock_ns() - mg_acct_carry;
  mg_acct_carry = 0;
}
static inline void mg_acct_stop(mg_acct_call *a) { a->ns = mg_clock_ns() - a->t0; }

/* A completion's requests, before the call (n < 0 or reqs NULL: none). */
void mg_acct_given(mg_acct_call *a, int n, const MPI_Request *reqs);
/* The same from a Fortran binding's array of n Fortran handles (Open MPI's, whose bindings call
 * PMPI_ themselves), converted with MPI_Request_f2c; and its record, from the array after the call. */
void mg_acct_fgiven(mg_acct_call *a, MPI_Fint n, const MPI_Fint *freqs);
void mg_acct_fdone(mg_acct_call *a, const MPI_Fint *freqs_after);
/* The row's bytes: count elements of type t (after a successful call). */
void mg_acct_bytes(mg_acct_call *a, long long count, MPI_Datatype t);
/* The row's communicator size (after a successful call; MPI_COMM_NULL: none). */
void mg_acct_comm(mg_acct_call *a, MPI_Comm c);
/* The call created request r (persistent: until MPI_Request_free): keep its post. */
void mg_acct_posted(mg_acct_call *a, MPI_Request r, int persistent);
/* Record the call: its row, or for a completion one row per post of the requests it was given
 * (after: the array after the call, to drop the requests it freed; NULL for other calls). */
void mg_acct_done(mg_acct_call *a, const MPI_Request *after);

/* A request posted by one of the operations libmpiguide tunes (MPI_Isend, MPI_Irecv: dispatch.c),
 * fn its MG_FN_ id, site the application's call. */
void mg_acct_post(MPI_Request r, int fn, const void *site, int persistent);

/* A request posted by a non-blocking or persistent collective (dispatch.c): its post for the trace,
 * and `scratch` (a one-call row's arrays, src/algs/nbc.c; NULL none), kept until a completion
 * returns the request completed, MPI_Request_free, or MPI_Finalize. mg_acct_kept: the requests
 * whose scratch is kept now (mpiguide_requests_kept). */
void mg_acct_keep(MPI_Request r, int fn, const void *site, int persistent, void *scratch);
long mg_acct_kept(void);

/* The library's own function sym behind libmpiguide (dlsym RTLD_NEXT, cached in *cache): the mpi_f08
 * bindings the generated entries pass on to. A program calls them only when linked with that
 * binding, so it is there; if not, the message names it and the process aborts. */
void *mg_f08_next(void *volatile *cache, const char *sym);

/* MPI_Init / MPI_Finalize (init.c): the table of posts, and the switch. */
void mg_acct_init(int on);
void mg_acct_finalize(void);

#endif
