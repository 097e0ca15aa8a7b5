/*
 * The rows of MPI_Scatter (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

static const mg_alg scatter_algs[] = {
    MG_DEFAULT_ROW("scatter_default", "MPI_Scatter", .fn = mg_scatter_default),
    {.name = "scatter_as_bcast", .fn = mg_scatter_as_bcast, .guideline = "GL21", .tgt = "TGT16",
     .formula = "Scatter(n) <= Bcast(p*n)", .description = "broadcast all p blocks, keep the own one",
     .restrictions = MG_R_PN_INT, .mem_formula = "p*n bytes at non-roots", .mem = mg_scatter_as_bcast_mem,
     .cost = "bcast(p*n)"},
    {.name = "scatter_as_scatterv", .fn = mg_scatter_as_scatterv, .guideline = "GL22", .tgt = "TGT27",
     .formula = "Scatter(n) <= Scatterv(n)", .description = "scatterv with equal counts", .restrictions = MG_R_PN_INT,
     .mem_formula = "2*p ints", .mem = mg_scatter_as_scatterv_mem, .cost = "scatterv(p*n)"},
    MG_SPLIT_ROWS("scatter_as_split2", "scatter_as_split4", "Scatter", MG_R_PN_INT,
                  "p*n bytes + n for non-dense datatypes", .pfn = mg_split, .mem = mg_split_mem),
    MG_BLOCKS_ROWS("scatter_as_blocks1k", "scatter_as_blocks4k", "scatter_as_blocks16k", "scatter_as_blocks64k",
                   "Scatter", MG_R_PN_INT, "p*n bytes + n for non-dense datatypes", .pfn = mg_blocks, .mem = mg_blocks_mem),
    MG_NB_ROW("scatter_as_iscatter_wait", "Scatter", "scatter", 0, "0", .pfn = mg_nonblocking),
    MG_PERSIST_ROW("scatter_as_persistent", "Scatter", 0, .pfn = mg_persistent),
    MG_PAD_ROWS("scatter_as_padded2", "scatter_as_padded4", "Scatter", 0,
                "p n' + n' bytes (every block padded to n' of k = 4)", .pfn = mg_padded, .mem = mg_padded_mem),
    MG_INPLACE_ROW("scatter_inplace_as_copy", "Scatter", 0, "the root's block (span) at an in-place root",
                   .pfn = mg_inplace),
    MG_PACKED_ROW("scatter_as_packed", "Scatter", MG_R_PN_INT, "p*n + n bytes", .pfn = mg_packed,
                  .mem = mg_packed_mem),
    MG_P2P_ROW("scatter_as_linear", "Scatter", "(p-1) x Send(n)",
               "the root posts a send of each block to its rank, every rank receives its block", 0, "p requests",
               .pfn = mg_scatter_as_linear, .mem = mg_scatter_as_linear_mem, .costfn = mg_cost_scatter_as_linear),
    MG_P2P_ROW("scatter_as_binomial", "Scatter", "binomial tree of ceil(log2 p) rounds of Send/Recv(<= p/2 n)",
               "binomial fan-out, farthest child first: each rank passes its children their subtrees' blocks "
               "(packed)", MG_R_PN_INT, "p*n bytes", .pfn = mg_scatter_as_binomial, .mem = mg_scatter_as_binomial_mem,
               .costfn = mg_cost_scatter_as_binomial),
    MG_RERANK_ROW("scatter_as_reranked", "Scatter", 0, .pfn = mg_rerank),
    MG_HIER_ROW("scatter_as_hier", "Scatter(n) <= Send(p*n) + Scatterv_C(p*n) + ||Scatter(n)",
                "the root packs the blocks in node order (sent to its node's leader if it is not the leader), scatterv "
                "of the node blocks among the leaders, node-local scatter", MG_R_PN_INT, "p*n + n bytes + 2p ints",
                "copy(p*n) + scatterv[nodes](p*n) + scatter[ppn](n)", .pfn = mg_scatter_as_hier,
                .mem = mg_hier_blocks_mem),
};
