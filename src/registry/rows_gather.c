/*
 * The rows of MPI_Gather (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

static const mg_alg gather_algs[] = {
    MG_DEFAULT_ROW("gather_default", "MPI_Gather", .fn = mg_gather_default),
    {.name = "gather_as_allgather", .fn = mg_gather_as_allgather, .guideline = "GL11", .tgt = "TGT13",
     .formula = "Gather(n) <= Allgather(n)", .description = "allgather; non-roots receive into scratch",
     .restrictions = MG_R_PN_INT, .mem_formula = "p*n bytes", .mem = mg_gather_as_allgather_mem,
     .cost = "allgather(n)"},
    {.name = "gather_as_gatherv", .fn = mg_gather_as_gatherv, .guideline = "GL12", .tgt = "TGT26",
     .formula = "Gather(n) <= Gatherv(n)", .description = "gatherv with equal counts", .restrictions = MG_R_PN_INT,
     .mem_formula = "2*p ints", .mem = mg_gather_as_gatherv_mem, .cost = "gatherv(p*n)"},
    {.name = "gather_as_reduce", .fn = mg_gather_as_reduce, .guideline = "GL13", .tgt = "TGT24",
     .formula = "Gather(n) <= Reduce(p*n)",
     .description = "bitwise-or reduce over a zeroed p*n buffer holding the own block", .restrictions = MG_R_PN_INT,
     .mem_formula = "p*n bytes (2*p*n at the root)", .mem = mg_gather_as_reduce_mem,
     .cost = "copy(p*n) + reduce(p*n)"},
    MG_SPLIT_ROWS("gather_as_split2", "gather_as_split4", "Gather", MG_R_PN_INT,
                  "p*n bytes + n for non-dense datatypes", .pfn = mg_split, .mem = mg_split_mem),
    MG_BLOCKS_ROWS("gather_as_blocks1k", "gather_as_blocks4k", "gather_as_blocks16k", "gather_as_blocks64k",
                   "Gather", MG_R_PN_INT, "p*n bytes + n for non-dense datatypes", .pfn = mg_blocks, .mem = mg_blocks_mem),
    MG_NB_ROW("gather_as_igather_wait", "Gather", "gather", 0, "0", .pfn = mg_nonblocking),
    MG_PERSIST_ROW("gather_as_persistent", "Gather", 0, .pfn = mg_persistent),
    MG_PAD_ROWS("gather_as_padded2", "gather_as_padded4", "Gather", 0,
                "p n' + n' bytes (every block padded to n' of k = 4)", .pfn = mg_padded, .mem = mg_padded_mem),
    MG_INPLACE_ROW("gather_inplace_as_copy", "Gather", 0, "the root's block (span) at an in-place root",
                   .pfn = mg_inplace),
    MG_PACKED_ROW("gather_as_packed", "Gather", MG_R_PN_INT, "p*n + n bytes", .pfn = mg_packed, .mem = mg_packed_mem),
    MG_P2P_ROW("gather_as_linear", "Gather", "(p-1) x Recv(n) (TGT 2010 eq. 35)",
               "the root posts a receive from every rank straight into its block, every rank sends its block", 0,
               "p requests", .pfn = mg_gather_as_linear, .mem = mg_gather_as_linear_mem,
               .costfn = mg_cost_gather_as_linear),
    MG_P2P_ROW("gather_as_binomial", "Gather", "binomial tree of ceil(log2 p) rounds of Send/Recv(<= p/2 n)",
               "binomial fan-in: each rank sends its subtree's blocks (packed) to its parent", MG_R_PN_INT,
               "p*n bytes", .pfn = mg_gather_as_binomial, .mem = mg_gather_as_binomial_mem,
               .costfn = mg_cost_gather_as_binomial),
    MG_RMA_ROW("gather_as_rma_get", "TGT-O2", "Gather(n) <= Win_fence + (p-1) x Get(n) + Win_fence",
               "every rank packs its block into its window, the root gets each block between two fences "
               "(TGT 2010 with n the whole vector: p x Get(n/p))",
               "the window: n rounded up to a power of two (at least 4 KiB), kept with the communicator; + (p-1)*n "
               "at the root", "2 * barrier(0) + (p-1) * (1 + min(nodes - 1, 1)) / 2 * sendrecv(n) + copy(n)", .pfn = mg_gather_as_rma_get,
               .mem = mg_gather_as_rma_get_mem),
    MG_RERANK_ROW("gather_as_reranked", "Gather", 0, .pfn = mg_rerank),
    MG_HIER_ROW("gather_as_hier", "Gather(n) <= ||Gather(n) + Gatherv_C(p*n) + Send(p*n)",
                "node-local gather of the packed blocks to the leaders, gatherv of the node blocks to the root's node "
                "leader, which sends them to the root if it is not the root", MG_R_PN_INT, "p*n + n bytes + 2p ints",
                "gather[ppn](n) + gatherv[nodes](p*n) + copy(p*n)", .pfn = mg_gather_as_hier,
                .mem = mg_hier_blocks_mem),
};
