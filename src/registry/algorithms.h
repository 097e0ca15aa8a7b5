/*
 * The functions the registry's rows name: every algorithm (the defaults and
 * the mock-ups) and its scratch-size function. Declared here, below the
 * registry tables that point to them; defined in src/algs/, one file per
 * collective.
 */
#ifndef MG_REGISTRY_ALGORITHMS_H
#define MG_REGISTRY_ALGORITHMS_H

#include "registry/registry.h"

#define MG_DECLARE_ALG(name)          \
  int mg_##name(const mg_call *c);    \
  size_t mg_##name##_mem(const mg_call *c);

#define MG_DEFAULT_ALGS(X) \
  X(allgather_default) X(allgatherv_default) X(allreduce_default) X(alltoall_default) X(alltoallv_default) X(alltoallw_default) X(barrier_default) X(bcast_default) X(exscan_default) \
  X(gather_default) X(gatherv_default) X(reduce_default) X(reduce_scatter_default) X(reduce_scatter_block_default)    \
  X(scan_default) X(scatter_default) X(scatterv_default) X(send_default) X(ssend_default) X(rsend_default)      \
  X(isend_default) X(recv_default) X(irecv_default) X(sendrecv_default) X(sendrecv_replace_default)

#define MG_MOCKUP_ALGS(X)                                                                       \
  X(allgather_as_gather_bcast) X(allgather_as_alltoall) X(allgather_as_allreduce)              \
  X(allgather_as_allgatherv) X(allgatherv_as_allreduce) X(allgatherv_as_alltoallv)              \
  X(allgatherv_as_gatherv_bcast) X(allgatherv_as_allgather_compact) X(allreduce_as_reduce_bcast)  \
  X(exscan_as_scan_sendrecv) X(exscan_as_allgather_reducelocal)                                 \
  X(reduce_scatter_as_reduce_scatterv) X(reduce_scatter_as_allreduce)                           \
  X(reduce_scatter_as_reducescatterblock)                                                        \
  X(allreduce_as_reducescatterblock_allgather) X(allreduce_as_reducescatter_allgatherv)         \
  X(alltoall_as_alltoallv) X(alltoallv_as_alltoallw) X(alltoallv_as_allreduce_alltoall)       \
  X(gatherv_as_reduce) X(gatherv_as_alltoallv) X(scatterv_as_alltoallv)                        \
  X(scatterv_as_scatter_bcast) X(scatterv_as_bcast_bcast)                                       \
  X(barrier_as_allreduce) X(barrier_as_reduce_bcast)                                            \
  X(bcast_as_allgatherv) X(bcast_as_scatter_allgather)                                          \
  X(gather_as_allgather) X(gather_as_gatherv) X(gather_as_reduce) X(reduce_as_allreduce)        \
  X(reduce_as_reducescatterblock_gather) X(reduce_as_reducescatter_gatherv)                     \
  X(reduce_scatter_block_as_reduce_scatter) X(reduce_scatter_block_as_reducescatter)            \
  X(reduce_scatter_block_as_allreduce) X(scan_as_exscan_reducelocal) X(scatter_as_bcast)        \
  X(scatter_as_scatterv) X(send_as_isend_wait) X(send_as_ssend) X(rsend_as_send)               \
  X(sendrecv_as_isend_recv_wait) X(sendrecv_as_irecv_send_wait)

MG_DEFAULT_ALGS(MG_DECLARE_ALG)
/* The families' algorithms (registry.h, MG_FAMILIES): one per family, the row's parameter second. */
int mg_split(const mg_call *c, int k); /* split.c: k pieces */
size_t mg_split_mem(const mg_call *c);
int mg_nonblocking(const mg_call *c, int unused); /* nonblocking.c */
size_t mg_nonblocking_mem(const mg_call *c);      /* p ints for alltoallv (an empty datatype), else 0 */
int mg_nonblocking_start(const mg_call *c, MPI_Request *q); /* MPI_I<coll> alone: its request in *q */
int mg_padded(const mg_call *c, int k);           /* padded.c: to the next power of two >= k n */
size_t mg_padded_mem(const mg_call *c);
size_t mg_padded_count(size_t n, int k);
size_t mg_padded_units(const mg_call *c, int k); /* the padded count of the call: bytes (bcast), elements */
int mg_inplace(const mg_call *c, int unused);     /* inplace.c */
size_t mg_inplace_mem(const mg_call *c);
int mg_packed(const mg_call *c, int unused);      /* packed.c */
size_t mg_packed_mem(const mg_call *c);
int mg_userop(const mg_call *c, int unused);      /* userop.c */
int mg_rerank(const mg_call *c, int unused);      /* rerank.c: on the renumbered processes */
int mg_p2p_split(const mg_call *c, int k);        /* pt2pt.c: a message in k pieces */
int mg_p2p_split_recv(const mg_call *c, int k);   /* its receive side (mg_alg.recv_side) */
/* Whether mg_userop has an exact user-defined twin of op on datatype dt (MG_R_BITWISE_EXACT);
 * compares handles only, calls no MPI. */
int mg_userop_exact(MPI_Op op, MPI_Datatype dt);
/* Free the user-defined ops mg_userop created (mg_core_finalize, before MPI_Finalize). */
void mg_userop_free(void);
/* The point-to-point family (p2p_bcast.c, p2p_reduce.c, p2p_move.c, p2p_barrier.c): X(function
 * name); each an algorithm (the row's parameter second: a segment in bytes, or unused), its scratch
 * (declared for every one, defined where the row names it) and its LogGP schedule (mg_cost_fn). */
struct mg_loggp;
#define MG_P2P_SEG16K 16384 /* the segment of the pipelined rows ("chain16k"), their param; the mem functions' */
#define MG_P2P_ALGS(X)                                                                              \
  X(bcast_as_linear) X(bcast_as_binomial) X(bcast_as_chain) X(bcast_as_binary) X(bcast_as_scatter_ring) \
  X(reduce_as_linear) X(reduce_as_binomial) X(reduce_as_chain) X(reduce_as_rabenseifner)           \
  X(allreduce_as_recdbl) X(allreduce_as_ring) X(allreduce_as_rabenseifner)                          \
  X(reduce_scatter_block_as_rechalving) X(reduce_scatter_block_as_ring)                             \
  X(reduce_scatter_block_as_pairwise) X(scan_as_linear) X(scan_as_recdbl)                           \
  X(gather_as_linear) X(gather_as_binomial) X(scatter_as_linear) X(scatter_as_binomial)             \
  X(allgather_as_ring) X(allgather_as_recdbl) X(allgather_as_bruck) X(alltoall_as_linear)           \
  X(alltoall_as_pairwise) X(alltoall_as_bruck) X(barrier_as_dissemination) X(barrier_as_binomial)   \
  X(barrier_as_linear)
#define MG_DECLARE_P2P(name)                  \
  int mg_##name(const mg_call *c, int param); \
  size_t mg_##name##_mem(const mg_call *c);   \
  double mg_cost_##name(const struct mg_loggp *m, int p, double n, int param);
MG_P2P_ALGS(MG_DECLARE_P2P)
size_t mg_bcast_p2p_image_mem(const mg_call *c);   /* the segmented bcasts: n bytes */
size_t mg_reduce_as_chain16k_mem(const mg_call *c); /* reduce_as_chain with MG_P2P_SEG16K */
/* The one-sided family (rma.c): each row's algorithm (param unused) and scratch, which counts the
 * window; the window's size for n bytes; freeing the windows still cached (mg_core_finalize). */
int mg_bcast_as_rma_put(const mg_call *c, int unused);
size_t mg_bcast_as_rma_put_mem(const mg_call *c);
int mg_gather_as_rma_get(const mg_call *c, int unused);
size_t mg_gather_as_rma_get_mem(const mg_call *c);
size_t mg_rma_win_bytes(size_t n);
int mg_p2p_rma_put(const mg_call *c, int unused);      /* send: fence, put, fence (measure-only) */
int mg_p2p_rma_put_recv(const mg_call *c, int unused); /* its receive side: fence, fence, copy */
void mg_rma_finalize(void);
/* The hierarchical family (hier.c): param 0 the <coll>_as_hier rows, 1 the <coll>_as_lane rows; their
 * scratch; freeing the node structures still cached (mg_core_finalize). */
int mg_hier(const mg_call *c, int lane);
size_t mg_hier_mem(const mg_call *c);
size_t mg_lane_mem(const mg_call *c);
void mg_hier_finalize(void);
/* The number of nodes of c->comm as the hierarchical rows see them (MPIGUIDE_NODE_SIZE's simulated
 * nodes, or MPI_COMM_TYPE_SHARED), made collectively at its first use and cached with the rows'
 * node structure; a PMPI error code passes through (then *nnodes is 0). Online tuning asks it
 * (src/lib/online.c): a hierarchy needs two nodes and a node of two ranks. */
int mg_hier_nodes(const mg_call *c, int *nnodes);
MG_MOCKUP_ALGS(MG_DECLARE_ALG)

#endif
