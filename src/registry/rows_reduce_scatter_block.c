/*
 * The rows of MPI_Reduce_scatter_block (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

static const mg_alg reduce_scatter_block_algs[] = {
    MG_DEFAULT_ROW("reduce_scatter_block_default", "MPI_Reduce_scatter_block", .fn = mg_reduce_scatter_block_default),
    {.name = "reduce_scatter_block_as_reduce_scatter", .fn = mg_reduce_scatter_block_as_reduce_scatter,
     .guideline = "GL17", .formula = "Reduce_scatter_block(n) <= Reduce(p*n) + Scatter(n)",
     .description = "reduce the whole p*n vector to rank 0, then scatter",
     .restrictions = MG_R_PN_INT | MG_R_UNIFORM_BASIC,
     .mem_formula = "p*n at rank 0", .mem = mg_reduce_scatter_block_as_reduce_scatter_mem,
     .cost = "reduce(p*n) + scatter(n)"},
    {.name = "reduce_scatter_block_as_reducescatter", .fn = mg_reduce_scatter_block_as_reducescatter,
     .guideline = "GL18", .formula = "Reduce_scatter_block(n) <= Reduce_scatter(n)",
     .description = "reduce_scatter with equal counts", .restrictions = MG_R_PN_INT | MG_R_COMMUTE_OR_DENSE,
     .mem_formula = "p ints", .mem = mg_reduce_scatter_block_as_reducescatter_mem, .cost = "reduce_scatter(p*n)"},
    {.name = "reduce_scatter_block_as_allreduce", .fn = mg_reduce_scatter_block_as_allreduce, .guideline = "GL19",
     .formula = "Reduce_scatter_block(n) <= Allreduce(p*n)",
     .description = "allreduce of the whole vector, keep the own block", .restrictions = MG_R_PN_INT,
     .mem_formula = "p*n", .mem = mg_reduce_scatter_block_as_allreduce_mem, .cost = "allreduce(p*n)"},
    MG_NB_ROW("reduce_scatter_block_as_ireduce_scatter_block_wait", "Reduce_scatter_block", "reduce_scatter_block",
              MG_R_COMMUTE_OR_DENSE, "0", .pfn = mg_nonblocking),
    MG_PERSIST_ROW("reduce_scatter_block_as_persistent", "Reduce_scatter_block", MG_R_COMMUTE_OR_DENSE,
                   .pfn = mg_persistent),
    MG_INPLACE_ROW("reduce_scatter_block_inplace_as_copy", "Reduce_scatter_block", 0, "p*n (span) in place",
                   .pfn = mg_inplace, .mem = mg_inplace_mem),
    MG_USEROP_ROW("reduce_scatter_block_as_userop", "Reduce_scatter_block", .pfn = mg_userop),
    MG_P2P_ROW("reduce_scatter_block_as_rechalving", "Reduce_scatter_block", "log2 p rounds of Sendrecv(p*n/2^k)",
               "recursive halving over the largest power of two <= p, extra ranks folded in first (a non-commutative "
               "op: over the blocks in bit-reversed order, distances 1, 2, 4...)", MG_R_PN_INT, "2 p*n",
               .pfn = mg_reduce_scatter_block_as_rechalving, .mem = mg_reduce_scatter_block_as_rechalving_mem,
               .costfn = mg_cost_reduce_scatter_block_as_rechalving, .crowd = 1),
    MG_P2P_ROW("reduce_scatter_block_as_ring", "Reduce_scatter_block", "(p-1) Sendrecv(n) + (p-1) Reduce_local(n)",
               "ring: each block's partial travels once round the ring, ending at its rank", MG_R_COMMUTATIVE, "2 n",
               .pfn = mg_reduce_scatter_block_as_ring, .mem = mg_reduce_scatter_block_as_ring_mem,
               .costfn = mg_cost_reduce_scatter_block_as_ring, .crowd = 1),
    MG_P2P_ROW("reduce_scatter_block_as_pairwise", "Reduce_scatter_block",
               "(p-1) Sendrecv(n) + (p-1) Reduce_local(n)",
               "pairwise exchange: at step s rank i sends block i+s to rank i+s and adds the block of rank i-s",
               MG_R_COMMUTATIVE, "2 n", .pfn = mg_reduce_scatter_block_as_pairwise,
               .mem = mg_reduce_scatter_block_as_pairwise_mem, .costfn = mg_cost_reduce_scatter_block_as_pairwise,
               .crowd = 1),
    MG_RERANK_ROW("reduce_scatter_block_as_reranked", "Reduce_scatter_block", MG_R_COMMUTATIVE, .pfn = mg_rerank),
};
