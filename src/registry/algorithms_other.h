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
