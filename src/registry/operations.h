/*
 * The registry's operations as data (registry.h includes it): the blocking collectives, the
 * point-to-point operations, the non-blocking collectives and the neighbourhood collectives, one
 * X-macro list each, and MG_OPERATIONS, all of them in the registry's order. Split from
 * registry.h; nothing here but the lists.
 */
#ifndef MG_OPERATIONS_H
#define MG_OPERATIONS_H

/*
 * The collectives. X(ENUM, name, MPI name, rooted, reduction, known, what
 * "message size" means). `known` = 1: the message size is equal on every rank
 * of a call (DESIGN.md rule 2; see mg_call_prepare()), so a profile may choose
 * by it. known = 0 (gatherv, scatterv, alltoallv, alltoallw): no rank but the
 * root, or none, holds every count, so the size is this rank's view of the
 * call (for the trace) and decisions use rank-invariant inputs only: a
 * profile rule covers every size ('*'), and a mock-up that needs the size
 * agrees on it first (docs/library.md, "Deciding without disagreeing").
 */
#define MG_COLLECTIVES(X)                                                                        \
  X(ALLGATHER, allgather, "MPI_Allgather", 0, 0, 1, "per-rank block: recvcount x size(recvtype)") \
  X(ALLGATHERV, allgatherv, "MPI_Allgatherv", 0, 0, 1,                                          \
    "whole vector: the sum of recvcounts x size(recvtype)")                                      \
  X(ALLREDUCE, allreduce, "MPI_Allreduce", 0, 1, 1, "whole vector: count x size(datatype)")      \
  X(ALLTOALL, alltoall, "MPI_Alltoall", 0, 0, 1, "per-pair block: recvcount x size(recvtype)")   \
  X(ALLTOALLV, alltoallv, "MPI_Alltoallv", 0, 0, 0,                                              \
    "not known on every rank: what this rank sends, the sum of sendcounts x size(sendtype) "     \
    "(in place: of recvcounts x size(recvtype))")                                                \
  X(ALLTOALLW, alltoallw, "MPI_Alltoallw", 0, 0, 0,                                              \
    "not known on every rank: what this rank sends, the sum of sendcounts[i] x "                 \
    "size(sendtypes[i]) (in place: of the receive side)")                                        \
  X(BARRIER, barrier, "MPI_Barrier", 0, 0, 1, "none: a barrier moves no data (always 0)")       \
  X(BCAST, bcast, "MPI_Bcast", 1, 0, 1, "whole vector: count x size(datatype)")                  \
  X(EXSCAN, exscan, "MPI_Exscan", 0, 1, 1, "whole vector: count x size(datatype)")               \
  X(GATHER, gather, "MPI_Gather", 1, 0, 1,                                                       \
    "per-rank block: sendcount x size(sendtype), at the root recvcount x size(recvtype)")        \
  X(GATHERV, gatherv, "MPI_Gatherv", 1, 0, 0,                                                    \
    "not known on every rank: at the root the whole vector, the sum of recvcounts x "            \
    "size(recvtype); elsewhere the own block, sendcount x size(sendtype)")                       \
  X(REDUCE, reduce, "MPI_Reduce", 1, 1, 1, "whole vector: count x size(datatype)")               \
  X(REDUCE_SCATTER, reduce_scatter, "MPI_Reduce_scatter", 0, 1, 1,                               \
    "whole vector: the sum of recvcounts x size(datatype)")                                      \
  X(REDUCE_SCATTER_BLOCK, reduce_scatter_block, "MPI_Reduce_scatter_block", 0, 1, 1,             \
    "per-rank block: recvcount x size(datatype)")                                                \
  X(SCAN, scan, "MPI_Scan", 0, 1, 1, "whole vector: count x size(datatype)")                     \
  X(SCATTER, scatter, "MPI_Scatter", 1, 0, 1,                                                    \
    "per-rank block: recvcount x size(recvtype), at the root sendcount x size(sendtype)")        \
  X(SCATTERV, scatterv, "MPI_Scatterv", 1, 0, 0,                                                 \
    "not known on every rank: at the root the whole vector, the sum of sendcounts x "            \
    "size(sendtype); elsewhere the own block, recvcount x size(recvtype)")

/*
 * The point-to-point operations (issue 18, TGT 2010 §IV), in the same registry after the
 * collectives, with the same columns (rooted and reduction 0). Only the caller's side takes part
 * in a call, so a row that changes only how this side sends (send_as_isend_wait, rsend_as_send,
 * the sendrecv rows) decides alone: a receive matches a send of any mode. A row that needs the peer
 * to act alike (a split message: the receiver must post as many receives) is measure-only
 * (MG_R_MEASURE_ONLY): the benchmark's patterns run both sides, libmpiguide never does. `known`:
 * the message size is known to both ends of a correct call (a receive's count is an upper bound;
 * the receive operations run the default only).
 */
#define MG_P2P_OPS(X)                                                                            \
  X(SEND, send, "MPI_Send", 0, 0, 1, "the message: count x size(datatype)")                      \
  X(SSEND, ssend, "MPI_Ssend", 0, 0, 1, "the message: count x size(datatype)")                   \
  X(RSEND, rsend, "MPI_Rsend", 0, 0, 1, "the message: count x size(datatype)")                   \
  X(ISEND, isend, "MPI_Isend", 0, 0, 1, "the message: count x size(datatype)")                   \
  X(RECV, recv, "MPI_Recv", 0, 0, 1,                                                             \
    "the receive buffer: count x size(datatype), an upper bound of the message")                 \
  X(IRECV, irecv, "MPI_Irecv", 0, 0, 1,                                                          \
    "the receive buffer: count x size(datatype), an upper bound of the message")                 \
  X(SENDRECV, sendrecv, "MPI_Sendrecv", 0, 0, 1, "the message sent: sendcount x size(sendtype)") \
  X(SENDRECV_REPLACE, sendrecv_replace, "MPI_Sendrecv_replace", 0, 0, 1,                         \
    "the message sent: count x size(datatype)")
/*
 * The non-blocking collectives (issue 48): MPI_I<coll> of each blocking collective, in the same
 * order as MG_COLLECTIVES (mg_coll_base: the blocking twin), with the twin's columns: the same
 * arguments and a request, the same message size and the same `known`. A row libmpiguide may run
 * in an application is one call of the library's own non-blocking function (the default, or a
 * specialised I-collective as its general form: Iallgather as Iallgatherv), whose request is the
 * one the user gets; the scratch such a row makes (counts, displacements) is kept with the request
 * until a completion call returns it completed (src/lib/acct.c). Rows whose parts depend on each
 * other (Iallreduce as Ireduce then Ibcast) are measure-only: libmpiguide has no progress engine.
 * The same operations stand for the persistent collectives (MPI_<Coll>_init, Open MPI's
 * MPIX_<Coll>_init): mg_call.persistent (docs/library.md, "Non-blocking and persistent").
 */
#define MG_NBC_OPS(X)                                                                                  \
  X(IALLGATHER, iallgather, "MPI_Iallgather", 0, 0, 1, "per-rank block: recvcount x size(recvtype)")  \
  X(IALLGATHERV, iallgatherv, "MPI_Iallgatherv", 0, 0, 1,                                             \
    "whole vector: the sum of recvcounts x size(recvtype)")                                           \
  X(IALLREDUCE, iallreduce, "MPI_Iallreduce", 0, 1, 1, "whole vector: count x size(datatype)")        \
  X(IALLTOALL, ialltoall, "MPI_Ialltoall", 0, 0, 1, "per-pair block: recvcount x size(recvtype)")     \
  X(IALLTOALLV, ialltoallv, "MPI_Ialltoallv", 0, 0, 0,                                                \
    "not known on every rank: what this rank sends, as for MPI_Alltoallv")                            \
  X(IALLTOALLW, ialltoallw, "MPI_Ialltoallw", 0, 0, 0,                                                \
    "not known on every rank: what this rank sends, as for MPI_Alltoallw")                            \
  X(IBARRIER, ibarrier, "MPI_Ibarrier", 0, 0, 1, "none: a barrier moves no data (always 0)")         \
  X(IBCAST, ibcast, "MPI_Ibcast", 1, 0, 1, "whole vector: count x size(datatype)")                    \
  X(IEXSCAN, iexscan, "MPI_Iexscan", 0, 1, 1, "whole vector: count x size(datatype)")                 \
  X(IGATHER, igather, "MPI_Igather", 1, 0, 1,                                                         \
    "per-rank block: sendcount x size(sendtype), at the root recvcount x size(recvtype)")             \
  X(IGATHERV, igatherv, "MPI_Igatherv", 1, 0, 0,                                                      \
    "not known on every rank: as for MPI_Gatherv")                                                    \
  X(IREDUCE, ireduce, "MPI_Ireduce", 1, 1, 1, "whole vector: count x size(datatype)")                 \
  X(IREDUCE_SCATTER, ireduce_scatter, "MPI_Ireduce_scatter", 0, 1, 1,                                 \
    "whole vector: the sum of recvcounts x size(datatype)")                                           \
  X(IREDUCE_SCATTER_BLOCK, ireduce_scatter_block, "MPI_Ireduce_scatter_block", 0, 1, 1,               \
    "per-rank block: recvcount x size(datatype)")                                                     \
  X(ISCAN, iscan, "MPI_Iscan", 0, 1, 1, "whole vector: count x size(datatype)")                       \
  X(ISCATTER, iscatter, "MPI_Iscatter", 1, 0, 1,                                                      \
    "per-rank block: recvcount x size(recvtype), at the root sendcount x size(sendtype)")             \
  X(ISCATTERV, iscatterv, "MPI_Iscatterv", 1, 0, 0, "not known on every rank: as for MPI_Scatterv")

/*
 * The blocking neighbourhood collectives (MPI 3.0 §7.6; issue 48), after the non-blocking
 * collectives: on a communicator with a Cartesian, graph or distributed-graph topology each rank
 * exchanges blocks with its neighbours only (in the order MPI_Cart_shift, MPI_Graph_neighbors or
 * MPI_Dist_graph_neighbors gives them). `known` = 0: a rank's degrees and counts are its own, so
 * the size is this rank's view (for the trace) and a profile rule covers every size ('*'). The
 * rows (rows_neighbor.c, src/algs/neighbor.c) decide from the topology, which a Cartesian or
 * graph communicator's ranks know alike, and a distributed graph's ranks agree on once (one
 * allreduce at the first call, kept with the communicator).
 */
#define MG_NEIGHBOR_OPS(X)                                                                        \
  X(NEIGHBOR_ALLGATHER, neighbor_allgather, "MPI_Neighbor_allgather", 0, 0, 0,                   \
    "not known on every rank: the block this rank sends each out-neighbour, sendcount x "         \
    "size(sendtype)")                                                                             \
  X(NEIGHBOR_ALLGATHERV, neighbor_allgatherv, "MPI_Neighbor_allgatherv", 0, 0, 0,                \
    "not known on every rank: the block this rank sends each out-neighbour, sendcount x "         \
    "size(sendtype)")                                                                             \
  X(NEIGHBOR_ALLTOALL, neighbor_alltoall, "MPI_Neighbor_alltoall", 0, 0, 0,                      \
    "not known on every rank: the block this rank sends each out-neighbour, sendcount x "         \
    "size(sendtype)")                                                                             \
  X(NEIGHBOR_ALLTOALLV, neighbor_alltoallv, "MPI_Neighbor_alltoallv", 0, 0, 0,                   \
    "not known on every rank: what this rank sends, the sum over its out-neighbours of "          \
    "sendcounts x size(sendtype)")                                                                \
  X(NEIGHBOR_ALLTOALLW, neighbor_alltoallw, "MPI_Neighbor_alltoallw", 0, 0, 0,                   \
    "not known on every rank: what this rank sends, the sum over its out-neighbours of "          \
    "sendcounts[i] x size(sendtypes[i])")

/*
 * The non-blocking neighbourhood collectives (MPI 3.0 §7.7; issue 48): MPI_Ineighbor_<op> of each
 * blocking one, in the same order as MG_NEIGHBOR_OPS (mg_coll_base: the blocking twin), with the
 * twin's columns. They stand for the persistent forms too (MPI_Neighbor_<op>_init, Open MPI's
 * MPIX_Neighbor_<op>_init: mg_call.persistent), as MG_NBC_OPS does for the other collectives. The
 * rows (rows_neighbor.c, src/algs/neighbor.c): one call of the library's own non-blocking function
 * (the default; the general all-to-all over the communicator, meta-rule III; the v form of a
 * block form), or the point-to-point exchange, measure-only (meta-rule IV: its requests are
 * several, and libmpiguide has no progress engine to make them one).
 */
#define MG_INEIGHBOR_OPS(X)                                                                       \
  X(INEIGHBOR_ALLGATHER, ineighbor_allgather, "MPI_Ineighbor_allgather", 0, 0, 0,                \
    "not known on every rank: as for MPI_Neighbor_allgather")                                     \
  X(INEIGHBOR_ALLGATHERV, ineighbor_allgatherv, "MPI_Ineighbor_allgatherv", 0, 0, 0,             \
    "not known on every rank: as for MPI_Neighbor_allgatherv")                                    \
  X(INEIGHBOR_ALLTOALL, ineighbor_alltoall, "MPI_Ineighbor_alltoall", 0, 0, 0,                   \
    "not known on every rank: as for MPI_Neighbor_alltoall")                                      \
  X(INEIGHBOR_ALLTOALLV, ineighbor_alltoallv, "MPI_Ineighbor_alltoallv", 0, 0, 0,                \
    "not known on every rank: as for MPI_Neighbor_alltoallv")                                     \
  X(INEIGHBOR_ALLTOALLW, ineighbor_alltoallw, "MPI_Ineighbor_alltoallw", 0, 0, 0,                \
    "not known on every rank: as for MPI_Neighbor_alltoallw")

/* Every operation: the collectives, the point-to-point operations, the non-blocking collectives,
 * the neighbourhood collectives and their non-blocking forms. */
#define MG_OPERATIONS(X) MG_COLLECTIVES(X) MG_P2P_OPS(X) MG_NBC_OPS(X) MG_NEIGHBOR_OPS(X) MG_INEIGHBOR_OPS(X)

#endif
