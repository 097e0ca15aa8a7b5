/*
 * The rows of the neighbourhood collectives (registry.h, MG_NEIGHBOR_OPS): one table per operation,
 * row 0 the MPI library's own, then the mock-ups (src/algs/neighbor.c), each row's name written out
 * in full. The families' macros and their rules: rows.h (MG_NBR_P2P_ROW, MG_NBR_A2A_ROW). Compiled
 * as part of registry.c (#include), which takes each table's size for mg_colls.
 *
 * Meta-rule IV: the Isend/Irecv/Waitall exchange (tags naming the receiver's slot on a Cartesian
 * topology, whose periodic dimension of size 1 or 2 makes one rank both neighbours). Meta-rule III:
 * Alltoallv (neighbor_alltoallw: Alltoallw) over the communicator with zero counts for the
 * non-neighbours; it holds one block per peer, so a topology that gives a peer two blocks runs the
 * default on every rank (MG_WHY_TWO_BLOCKS; a distributed graph's ranks agree on it once).
 */
#include "registry/rows.h"

static const mg_alg neighbor_allgather_algs[] = {
    MG_DEFAULT_ROW("neighbor_allgather_default", "MPI_Neighbor_allgather", .fn = mg_neighbor_allgather_default),
    MG_NBR_P2P_ROW("neighbor_allgather_as_isend_irecv", "Neighbor_allgather", .fn = mg_neighbor_as_isend_irecv),
    MG_NBR_A2A_ROW("neighbor_allgather_as_alltoallv", "Neighbor_allgather", "Alltoallv", 0, "alltoallv(n)",
                   .fn = mg_neighbor_as_alltoallv),
};

static const mg_alg neighbor_allgatherv_algs[] = {
    MG_DEFAULT_ROW("neighbor_allgatherv_default", "MPI_Neighbor_allgatherv", .fn = mg_neighbor_allgatherv_default),
    MG_NBR_P2P_ROW("neighbor_allgatherv_as_isend_irecv", "Neighbor_allgatherv", .fn = mg_neighbor_as_isend_irecv),
    MG_NBR_A2A_ROW("neighbor_allgatherv_as_alltoallv", "Neighbor_allgatherv", "Alltoallv", 0, "alltoallv(n)",
                   .fn = mg_neighbor_as_alltoallv),
};

static const mg_alg neighbor_alltoall_algs[] = {
    MG_DEFAULT_ROW("neighbor_alltoall_default", "MPI_Neighbor_alltoall", .fn = mg_neighbor_alltoall_default),
    MG_NBR_P2P_ROW("neighbor_alltoall_as_isend_irecv", "Neighbor_alltoall", .fn = mg_neighbor_as_isend_irecv),
    MG_NBR_A2A_ROW("neighbor_alltoall_as_alltoallv", "Neighbor_alltoall", "Alltoallv", 0, "alltoallv(n)",
                   .fn = mg_neighbor_as_alltoallv),
};

static const mg_alg neighbor_alltoallv_algs[] = {
    MG_DEFAULT_ROW("neighbor_alltoallv_default", "MPI_Neighbor_alltoallv", .fn = mg_neighbor_alltoallv_default),
    MG_NBR_P2P_ROW("neighbor_alltoallv_as_isend_irecv", "Neighbor_alltoallv", .fn = mg_neighbor_as_isend_irecv),
    MG_NBR_A2A_ROW("neighbor_alltoallv_as_alltoallv", "Neighbor_alltoallv", "Alltoallv", 0, "alltoallv(n)",
                   .fn = mg_neighbor_as_alltoallv),
};

static const mg_alg neighbor_alltoallw_algs[] = {
    MG_DEFAULT_ROW("neighbor_alltoallw_default", "MPI_Neighbor_alltoallw", .fn = mg_neighbor_alltoallw_default),
    MG_NBR_P2P_ROW("neighbor_alltoallw_as_isend_irecv", "Neighbor_alltoallw", .fn = mg_neighbor_as_isend_irecv),
    MG_NBR_A2A_ROW("neighbor_alltoallw_as_alltoallw", "Neighbor_alltoallw", "Alltoallw", MG_R_P_GT_1,
                   "alltoallw(n)",
                   .fn = mg_neighbor_as_alltoallv),
};

/* The non-blocking forms (MG_INEIGHBOR_OPS) and, through mg_call.persistent, the persistent ones. */
static const mg_alg ineighbor_allgather_algs[] = {
    MG_DEFAULT_ROW("ineighbor_allgather_default", "MPI_Ineighbor_allgather", .fn = mg_nbc_default),
    MG_INBR_V_ROW("ineighbor_allgather_as_ineighborallgatherv", "Ineighbor_allgather", "Ineighbor_allgatherv", "GL4",
                  "; every topology (one block sent to every out-neighbour: two edges of a pair carry the same)",
                  .fn = mg_ineighbor_as_ineighbor_v),
    MG_INBR_A2A_ROW("ineighbor_allgather_as_ialltoallv", "Ineighbor_allgather", "Ialltoallv", 0, "alltoallv(n)",
                    .fn = mg_ineighbor_as_ialltoallv),
    MG_INBR_P2P_ROW("ineighbor_allgather_as_isend_irecv", "Ineighbor_allgather", .fn = mg_ineighbor_as_isend_irecv),
};

static const mg_alg ineighbor_allgatherv_algs[] = {
    MG_DEFAULT_ROW("ineighbor_allgatherv_default", "MPI_Ineighbor_allgatherv", .fn = mg_nbc_default),
    MG_INBR_A2A_ROW("ineighbor_allgatherv_as_ialltoallv", "Ineighbor_allgatherv", "Ialltoallv", 0, "alltoallv(n)",
                    .fn = mg_ineighbor_as_ialltoallv),
    MG_INBR_P2P_ROW("ineighbor_allgatherv_as_isend_irecv", "Ineighbor_allgatherv", .fn = mg_ineighbor_as_isend_irecv),
};

static const mg_alg ineighbor_alltoall_algs[] = {
    MG_DEFAULT_ROW("ineighbor_alltoall_default", "MPI_Ineighbor_alltoall", .fn = mg_nbc_default),
    MG_INBR_V_ROW("ineighbor_alltoall_as_ineighboralltoallv", "Ineighbor_alltoall", "Ineighbor_alltoallv", "GL8",
                  "; the library's own where the topology gives a peer two blocks (MPICH 4.0.2 matches them "
                  "differently in the two forms), and on a distributed graph until a blocking row agreed on it",
                  .fn = mg_ineighbor_as_ineighbor_v),
    MG_INBR_A2A_ROW("ineighbor_alltoall_as_ialltoallv", "Ineighbor_alltoall", "Ialltoallv", 0, "alltoallv(n)",
                    .fn = mg_ineighbor_as_ialltoallv),
    MG_INBR_P2P_ROW("ineighbor_alltoall_as_isend_irecv", "Ineighbor_alltoall", .fn = mg_ineighbor_as_isend_irecv),
};

static const mg_alg ineighbor_alltoallv_algs[] = {
    MG_DEFAULT_ROW("ineighbor_alltoallv_default", "MPI_Ineighbor_alltoallv", .fn = mg_nbc_default),
    MG_INBR_A2A_ROW("ineighbor_alltoallv_as_ialltoallv", "Ineighbor_alltoallv", "Ialltoallv", 0, "alltoallv(n)",
                    .fn = mg_ineighbor_as_ialltoallv),
    MG_INBR_P2P_ROW("ineighbor_alltoallv_as_isend_irecv", "Ineighbor_alltoallv", .fn = mg_ineighbor_as_isend_irecv),
};

static const mg_alg ineighbor_alltoallw_algs[] = {
    MG_DEFAULT_ROW("ineighbor_alltoallw_default", "MPI_Ineighbor_alltoallw", .fn = mg_nbc_default),
    MG_INBR_A2A_ROW("ineighbor_alltoallw_as_ialltoallw", "Ineighbor_alltoallw", "Ialltoallw", MG_R_P_GT_1,
                    "alltoallw(n)", .fn = mg_ineighbor_as_ialltoallv),
    MG_INBR_P2P_ROW("ineighbor_alltoallw_as_isend_irecv", "Ineighbor_alltoallw", .fn = mg_ineighbor_as_isend_irecv),
};
