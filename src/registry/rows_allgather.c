/*
 * The rows of MPI_Allgather (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

static const mg_alg allgather_algs[] = {
    MG_DEFAULT_ROW("allgather_default", "MPI_Allgather", .fn = mg_allgather_default),
    {.name = "allgather_as_gather_bcast", .fn = mg_allgather_as_gather_bcast, .guideline = "GL1", .tgt = "TGT15",
     .formula = "Allgather(n) <= Gather(n) + Bcast(p*n)",
     .description = "gather all blocks at rank 0, then broadcast the p*n result",
     .restrictions = MG_R_PN_INT | MG_R_UNIFORM_BASIC,
     .mem_formula = "0", .cost = "gather(n) + bcast(p*n)"},
    {.name = "allgather_as_alltoall", .fn = mg_allgather_as_alltoall, .guideline = "GL2", .tgt = "TGT14",
     .formula = "Allgather(n) <= Alltoall(n)",
     .description = "alltoall with p copies of the own block as send buffer", .restrictions = MG_R_PN_INT,
     .mem_formula = "p*n bytes (2*p*n for derived receive types)", .mem = mg_allgather_as_alltoall_mem,
     .cost = "copy(p*n) + alltoall(n)"},
    {.name = "allgather_as_allreduce", .fn = mg_allgather_as_allreduce, .guideline = "GL3", .tgt = "TGT25",
     .formula = "Allgather(n) <= Allreduce(p*n)",
     .description = "bitwise-or allreduce over a zeroed p*n buffer holding the own block",
     .restrictions = MG_R_PN_INT, .mem_formula = "p*n bytes", .mem = mg_allgather_as_allreduce_mem,
     .cost = "copy(p*n) + allreduce(p*n)"},
    {.name = "allgather_as_allgatherv", .fn = mg_allgather_as_allgatherv, .guideline = "GL4", .tgt = "TGT28",
     .formula = "Allgather(n) <= Allgatherv(n)",
     .description = "allgatherv with equal counts (derived receive types: of packed bytes)",
     .restrictions = MG_R_PN_INT, .mem_formula = "2*p ints (+ p*n bytes for derived receive types)",
     .mem = mg_allgather_as_allgatherv_mem, .cost = "allgatherv(p*n)"},
    MG_SPLIT_ROWS("allgather_as_split2", "allgather_as_split4", "Allgather", MG_R_PN_INT,
                  "p*n bytes + n for non-dense datatypes", .pfn = mg_split, .mem = mg_split_mem),
    MG_BLOCKS_ROWS("allgather_as_blocks1k", "allgather_as_blocks4k", "allgather_as_blocks16k", "allgather_as_blocks64k",
                   "Allgather", MG_R_PN_INT, "p*n bytes + n for non-dense datatypes", .pfn = mg_blocks, .mem = mg_blocks_mem),
    MG_NB_ROW("allgather_as_iallgather_wait", "Allgather", "allgather", 0, "0", .pfn = mg_nonblocking),
    MG_PERSIST_ROW("allgather_as_persistent", "Allgather", 0, .pfn = mg_persistent),
    MG_PAD_ROWS("allgather_as_padded2", "allgather_as_padded4", "Allgather", 0,
                "p n' + n' bytes (every block padded to n' of k = 4)", .pfn = mg_padded, .mem = mg_padded_mem),
    MG_INPLACE_ROW("allgather_inplace_as_copy", "Allgather", 0, "the own block (span), agreed late by an allreduce",
                   .pfn = mg_inplace),
    MG_PACKED_ROW("allgather_as_packed", "Allgather", MG_R_PN_INT, "p*n + n bytes", .pfn = mg_packed,
                  .mem = mg_packed_mem),
    MG_P2P_ROW("allgather_as_ring", "Allgather", "(p-1) x Sendrecv(n)",
               "ring: p-1 rounds, each sends the block received last to rank+1 and receives the next from rank-1 "
               "(packed bytes)", MG_R_PN_INT, "p*n bytes for a non-dense receive type", .pfn = mg_allgather_as_ring,
               .mem = mg_allgather_as_ring_mem, .costfn = mg_cost_allgather_as_ring, .crowd = 1),
    MG_P2P_ROW("allgather_as_recdbl", "Allgather",
               "log2(p) x Sendrecv(2^k n) (+ 2 messages for p not a power of two)",
               "recursive doubling: round k exchanges 2^k blocks with rank xor 2^k; the ranks above the largest "
               "power of two hand their block in first and get the result last", MG_R_PN_INT,
               "p*n bytes for a non-dense receive type", .pfn = mg_allgather_as_recdbl,
               .mem = mg_allgather_as_recdbl_mem, .costfn = mg_cost_allgather_as_recdbl, .crowd = 1),
    MG_P2P_ROW("allgather_as_bruck", "Allgather", "ceil(log2 p) x Sendrecv(<= 2^k n)",
               "Bruck: ceil(log2 p) rounds on a buffer rotated by the rank, round k sends min(2^k, p-2^k) blocks "
               "to rank-2^k; the rotation undone at the end", MG_R_PN_INT, "p*n bytes", .pfn = mg_allgather_as_bruck,
               .mem = mg_allgather_as_bruck_mem, .costfn = mg_cost_allgather_as_bruck, .crowd = 1),
    MG_RERANK_ROW("allgather_as_reranked", "Allgather", 0, .pfn = mg_rerank),
    MG_HIER_ROW("allgather_as_hier", "Allgather(n) <= ||Gather(n) + Allgatherv_C(p*n) + ||Bcast(p*n)",
                "node-local gather of the packed blocks to the node's leader, allgatherv of the node blocks among the "
                "leaders, node-local bcast of all p blocks", MG_R_PN_INT, "p*n + n bytes + 2p ints",
                "gather[ppn](n) + allgatherv[nodes](p*n) + bcast[ppn](p*n) + copy(p*n)", .pfn = mg_allgather_as_hier,
                .mem = mg_hier_blocks_mem),
    MG_LANE_ROW("allgather_as_lane", "Allgather(n) <= ||Allgather_lane(n) + ||Allgather(p*n/k)",
                "allgather of the own block on each lane, then node-local allgather of the lanes' blocks",
                MG_R_PN_INT, "(2p+1) n bytes", "allgather[nodes](n) + allgather[ppn](nodes*n) + copy(p*n)", .pfn = mg_allgather_as_lane,
                .mem = mg_allgather_as_lane_mem),
};
