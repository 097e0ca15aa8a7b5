/*
 * What src/algs/ offers besides the functions the registry's rows name (those are declared from
 * the rows themselves in the generated registry/algorithms.h, which includes this file): the
 * parameter of the pipelined point-to-point rows, the pieces other layers call directly, and the
 * finalizers that run before MPI_Finalize.
 */
#ifndef MG_REGISTRY_ALGORITHMS_OTHER_H
#define MG_REGISTRY_ALGORITHMS_OTHER_H

#include "registry/registry.h"

/* The segment of the pipelined point-to-point rows ("bcast_as_chain16k"): their param, and what
 * their scratch functions assume. */
#define MG_P2P_SEG16K 16384

/* nonblocking.c: MPI_I<coll> alone, its request in *q (the benchmark's overlap pattern). */
int mg_nonblocking_start(const mg_call *c, MPI_Request *q);
/* The same for a call c described as collective k (a non-blocking operation's call: k its twin). */
int mg_nonblocking_start_as(const mg_call *c, mg_coll k, MPI_Request *q);
/* nbc.c: the library's own non-blocking collective, or its persistent form (d->persistent), for
 * a call described as the blocking collective d->coll; its request in *q. */
int mg_nbc_post(const mg_call *d, MPI_Request *q);
/* nbc.c: a non-blocking collective's call c as a call of its blocking twin (the descriptor
 * mg_nbc_post takes; MG_INEIGHBOR_OPS: the blocking neighbourhood collective). */
mg_call mg_nbc_twin(const mg_call *c);
/* nbc.c: the scratch (from mg_nbc_alloc) that the one-call row just run made and that the posted
 * operation reads until it completes; whoever ran the row takes it (sets it to NULL) and gives it
 * back with mg_nbc_free after the completion (libmpiguide: src/lib/acct.c keeps it with the
 * request; the benchmark: after its wait). NULL: nothing kept. */
extern __thread void *mg_nbc_kept;
/* nbc.c: the one-call rows' blocks. mg_nbc_free keeps up to MG_NBC_POOL freed blocks (any thread,
 * under a lock) and mg_nbc_alloc reuses the smallest that fits, so a steady state of calls of
 * one size allocates nothing; mg_nbc_drain frees the kept ones (MPI_Finalize). NULL: nothing. */
#define MG_NBC_POOL 8
void *mg_nbc_alloc(size_t n);
void mg_nbc_free(void *p);
void mg_nbc_drain(void);
/* sched.c: the non-blocking compositions as schedules of rounds (rows with MG_R_PROGRESS).
 * mg_progress_on: libmpiguide's progress thread may run them (MPIGUIDE_PROGRESS=thread, and every
 * rank got MPI_THREAD_MULTIPLE: agreed at MPI_Init, equal on every rank); 0 in the benchmark.
 * mg_sched_run runs call c as `nround` rounds (at most MG_SCHED_LANES), round r posted by
 * post(c, tmp, r, comm, q, &nq) on comm as nq requests in q (at most qcap; 0: nothing to wait
 * for), with tmp a block of tmp_bytes that lives until the schedule completes. With the thread:
 * round 0 in the call, the others in the background, on the shadow of c->comm (lane r), the
 * caller getting a generalized request in *c->req (a persistent call: a template, run at each
 * MPI_Start, mg_sched_started); otherwise (the benchmark) each round posted and waited for in the
 * call, *c->req set to MPI_REQUEST_NULL. A round after the
 * first reads c's buffers and its receive datatype (duplicated if derived) only. An MPI code.
 * mg_sched_live: the schedules whose memory is not yet freed (mpiguide_requests_kept counts them);
 * mg_sched_finalize stops the thread and frees the shadows (before MPI_Finalize). */
#define MG_SCHED_LANES 2
extern int mg_progress_on;
typedef int (*mg_sched_round)(const mg_call *c, void *tmp, int round, MPI_Comm comm, MPI_Request *q, int *nq);
int mg_sched_run(const mg_call *c, int nround, mg_sched_round post, size_t tmp_bytes, int qcap);
long mg_sched_live(void);
void mg_sched_finalize(void);
/* sched.c: a completion call of the program's given requests reqs[0..n-1] advances the pending
 * schedules in its own thread first, so that its wait costs no hand-over to the progress thread:
 * MG_SCHED_TEST (MPI_Test*, MPI_Request_free ...) one pass; MG_SCHED_ALL (MPI_Wait, MPI_Waitall)
 * until no schedule of reqs is pending; MG_SCHED_ANY (MPI_Waitany, MPI_Waitsome) until one of them
 * has completed or another of reqs has (MPI_Request_get_status). Then the call itself runs. */
enum { MG_SCHED_TEST, MG_SCHED_ALL, MG_SCHED_ANY };
void mg_sched_drive(int kind, int n, const MPI_Request *reqs);
/* sched.c: a schedule row's persistent request (MPI_<Coll>_init with the thread) is a template and
 * a persistent receive of a token, which the caller's completion calls complete natively: MPI_Start
 * and MPI_Startall of reqs[0..n-1] start the receive (the library) and then, here, each template's
 * run (round 0 posted, in the caller's order); its last round's completion sends the token.
 * MPI_Request_free of reqs: the templates among them freed (an active one after its run). */
void mg_sched_started(int n, const MPI_Request *reqs);
void mg_sched_freeing(int n, const MPI_Request *reqs);
/* sched.c: the shadow of intra-communicator comm, on which its schedules' rounds go: made by
 * libmpiguide right after comm was made (collective over comm; MPI_COMM_WORLD's at MPI_Init), with
 * the progress thread only. mg_sched_has_shadow: whether comm has one (equal on every rank of it:
 * made in the same collective calls); a schedule row runs only where it has. */
void mg_sched_shadow_make(MPI_Comm comm);
int mg_sched_has_shadow(MPI_Comm comm);
/* neighbor.c: a communicator libmpiguide saw made, with every rank of it in the making call: a
 * distributed graph's ranks agree there whether a peer gets two blocks (collective over comm), as a
 * blocking neighbourhood row's first call would; any other communicator: nothing. */
void mg_neighbor_made(MPI_Comm comm);
/* persistent.c (the persistent family): the agreed set-up of a row's request for call c outside
 * the timed part, collective over c->comm, every rank with the same call (the benchmark, before
 * each measurement of such a row); and the release of every request cached with comm (after a
 * block, before its buffers and datatypes go). An MPI code. */
int mg_persistent_prepare(const mg_call *c);
void mg_persistent_release(MPI_Comm comm);
/* rma_window.c: the window of a one-sided row for n bytes (a power of two, at least 4 KiB). */
size_t mg_rma_win_bytes(size_t n);
/* The number of nodes of c->comm as the hierarchical rows see them (MPIGUIDE_NODE_SIZE's simulated
 * nodes, or MPI_COMM_TYPE_SHARED), made collectively at its first use and cached with the rows'
 * node structure; a PMPI error code passes through (then *nnodes is 0). Online tuning asks it
 * (src/lib/online.c): a hierarchy needs two nodes and a node of two ranks. (hier_nodes.c) */
int mg_hier_nodes(const mg_call *c, int *nnodes);

/* Before MPI_Finalize: mg_core_finalize (toolkit.c) frees the user-defined ops mg_userop created
 * (userop.c); its callers free the windows still cached (mg_rma_finalize, rma_window.c) and the
 * node structures still cached (mg_hier_finalize, hier_nodes.c) just before it. */
void mg_userop_free(void);
void mg_rma_finalize(void);
void mg_hier_finalize(void);
void mg_persistent_finalize(void); /* the persistent rows' requests (persistent.c), before mg_rma_finalize */

#endif
