/*
 * The rows of MPI_Allreduce (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

static const mg_alg allreduce_algs[] = {
    MG_DEFAULT_ROW("allreduce_default", "MPI_Allreduce", .fn = mg_allreduce_default),
    {.name = "allreduce_as_reduce_bcast", .fn = mg_allreduce_as_reduce_bcast, .guideline = "GL5", .tgt = "TGT18",
     .formula = "Allreduce(n) <= Reduce(n) + Bcast(n)", .description = "reduce to rank 0, then broadcast",
     .restrictions = 0, .mem_formula = "0", .cost = "reduce(n) + bcast(n)"},
    {.name = "allreduce_as_reducescatterblock_allgather", .fn = mg_allreduce_as_reducescatterblock_allgather,
     .guideline = "GL6", .tgt = "TGT21", .formula = "Allreduce(n) <= Reduce_scatter_block(n) + Allgather(n/p)",
     .description = "reduce_scatter_block over the vector padded to a multiple of p, then allgather",
     .restrictions = MG_R_COMMUTE_OR_DENSE | MG_R_PAD_PREDEFINED_OP,
     .mem_formula = "0 if p divides count, else n + up to p-1 elements",
     .mem = mg_allreduce_as_reducescatterblock_allgather_mem, .cost = "reduce_scatter_block(n/p) + allgather(n/p)"},
    {.name = "allreduce_as_reducescatter_allgatherv", .fn = mg_allreduce_as_reducescatter_allgatherv,
     .guideline = "GL7", .formula = "Allreduce(n) <= Reduce_scatter(n) + Allgatherv(n)",
     .description = "reduce_scatter into contiguous segments of whole 64-byte blocks (the remainder blocks "
                    "dealt one each to the first ranks), then allgatherv", .restrictions = MG_R_COMMUTE_OR_DENSE,
     .mem_formula = "2*p ints", .mem = mg_allreduce_as_reducescatter_allgatherv_mem,
     .cost = "reduce_scatter(n) + allgatherv(n)"},
    MG_SPLIT_ROWS("allreduce_as_split2", "allreduce_as_split4", "Allreduce", 0, "0", .pfn = mg_split),
    MG_BLOCKS_ROWS("allreduce_as_blocks1k", "allreduce_as_blocks4k", "allreduce_as_blocks16k", "allreduce_as_blocks64k",
                   "Allreduce", 0, "0", .pfn = mg_blocks),
    MG_NB_ROW("allreduce_as_iallreduce_wait", "Allreduce", "allreduce", 0, "0", .pfn = mg_nonblocking),
    MG_PERSIST_ROW("allreduce_as_persistent", "Allreduce", 0, .pfn = mg_persistent),
    MG_PAD_ROWS("allreduce_as_padded2", "allreduce_as_padded4", "Allreduce", MG_R_PAD_PREDEFINED,
                "2 n' (send and receive vector, n' of k = 4)", .pfn = mg_padded, .mem = mg_padded_mem),
    MG_INPLACE_ROW("allreduce_inplace_as_copy", "Allreduce", 0, "n (span) in place", .pfn = mg_inplace,
                   .mem = mg_inplace_mem),
    MG_USEROP_ROW("allreduce_as_userop", "Allreduce", .pfn = mg_userop),
    MG_P2P_ROW("allreduce_as_recdbl", "Allreduce", "log2 p rounds of Sendrecv(n) + Reduce_local(n)",
               "recursive doubling over the largest power of two <= p, whole vectors, the extra ranks folded in "
               "first and served last; rank order kept", 0, "n", .pfn = mg_allreduce_as_recdbl,
               .mem = mg_allreduce_as_recdbl_mem, .costfn = mg_cost_allreduce_as_recdbl, .crowd = 1),
    MG_P2P_ROW("allreduce_as_ring", "Allreduce", "2 (p-1) Sendrecv(n/p) + (p-1) Reduce_local(n/p)",
               "ring reduce-scatter, then ring allgather, p blocks", MG_R_COMMUTATIVE, "2 n/p",
               .pfn = mg_allreduce_as_ring, .mem = mg_allreduce_as_ring_mem, .costfn = mg_cost_allreduce_as_ring,
               .crowd = 1),
    MG_P2P_ROW("allreduce_as_rabenseifner", "Allreduce",
               "recursive-halving Reduce_scatter(n) + recursive-doubling Allgather(n) of Sendrecvs",
               "extra ranks fold into their neighbour, recursive halving (distances 1, 2, 4...: rank order kept), "
               "then recursive doubling allgather; the folded ranks get the result last", 0, "n",
               .pfn = mg_allreduce_as_rabenseifner, .mem = mg_allreduce_as_rabenseifner_mem,
               .costfn = mg_cost_allreduce_as_rabenseifner, .crowd = 1),
    MG_RERANK_ROW("allreduce_as_reranked", "Allreduce", MG_R_COMMUTATIVE, .pfn = mg_rerank),
    MG_HIER_ROW("allreduce_as_hier", "Allreduce(n) <= ||Reduce(n) + Allreduce_C(n) + ||Bcast(n)",
                "node-local reduce to the node's leader, allreduce among the leaders, node-local bcast",
                MG_R_NODE_ORDER, "0", "reduce[ppn](n) + allreduce[nodes](n) + bcast[ppn](n)", .pfn = mg_allreduce_as_hier),
    MG_LANE_ROW("allreduce_as_lane", "Allreduce(n) <= ||Reduce_scatter(n) + ||Allreduce_lane(n/k) + ||Allgatherv(n)",
                "node-local reduce_scatter into k blocks, allreduce of block i on lane i, node-local allgatherv",
                MG_R_NODE_ORDER | MG_R_COMMUTE_OR_DENSE, "2 spans of count elements + 2p ints",
                "reduce_scatter[ppn](n) + allreduce[nodes](n/ppn) + allgatherv[ppn](n)", .pfn = mg_allreduce_as_lane,
                .mem = mg_lane_reduction_mem),
};
