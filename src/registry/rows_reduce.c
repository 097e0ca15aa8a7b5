/*
 * The rows of MPI_Reduce (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

static const mg_alg reduce_algs[] = {
    MG_DEFAULT_ROW("reduce_default", "MPI_Reduce", .fn = mg_reduce_default),
    {.name = "reduce_as_allreduce", .fn = mg_reduce_as_allreduce, .guideline = "GL14", .tgt = "TGT18",
     .formula = "Reduce(n) <= Allreduce(n)", .description = "allreduce; non-roots receive into scratch",
     .restrictions = 0, .mem_formula = "n", .mem = mg_reduce_as_allreduce_mem, .cost = "allreduce(n)"},
    {.name = "reduce_as_reducescatterblock_gather", .fn = mg_reduce_as_reducescatterblock_gather, .guideline = "GL15", .tgt = "TGT20",
     .formula = "Reduce(n) <= Reduce_scatter_block(n) + Gather(n/p)",
     .description = "reduce_scatter_block over the vector padded to a multiple of p, then gather at the root",
     .restrictions = MG_R_COMMUTE_OR_DENSE | MG_R_PAD_PREDEFINED_OP | MG_R_UNIFORM_BASIC,
     .mem_formula = "n/p if p divides count, else n + up to p-1 elements",
     .mem = mg_reduce_as_reducescatterblock_gather_mem, .cost = "reduce_scatter_block(n/p) + gather(n/p)"},
    {.name = "reduce_as_reducescatter_gatherv", .fn = mg_reduce_as_reducescatter_gatherv, .guideline = "GL16",
     .formula = "Reduce(n) <= Reduce_scatter(n) + Gatherv(n)",
     .description = "reduce_scatter into contiguous segments of whole 64-byte blocks, then gatherv at the root",
     .restrictions = MG_R_COMMUTE_OR_DENSE, .mem_formula = "2*p ints + n/p (rounded up to 64 bytes)",
     .mem = mg_reduce_as_reducescatter_gatherv_mem, .cost = "reduce_scatter(n) + gatherv(n)"},
    MG_SPLIT_ROWS("reduce_as_split2", "reduce_as_split4", "Reduce", 0, "half the vector at an in-place root",
                  .pfn = mg_split, .mem = mg_split_mem),
    MG_BLOCKS_ROWS("reduce_as_blocks1k", "reduce_as_blocks4k", "reduce_as_blocks16k", "reduce_as_blocks64k",
                   "Reduce", 0, "a piece of up to 64 KiB at an in-place root", .pfn = mg_blocks, .mem = mg_blocks_mem),
    /* registry.h: Open MPI */
    MG_NB_ROW("reduce_as_ireduce_wait", "Reduce", "reduce", MG_R_LB_ZERO, "0", .pfn = mg_nonblocking),
    MG_PERSIST_ROW("reduce_as_persistent", "Reduce", MG_R_LB_ZERO, .pfn = mg_persistent),
    MG_PAD_ROWS("reduce_as_padded2", "reduce_as_padded4", "Reduce", MG_R_PAD_PREDEFINED,
                "2 n' (send and receive vector, n' of k = 4)", .pfn = mg_padded, .mem = mg_padded_mem),
    MG_INPLACE_ROW("reduce_inplace_as_copy", "Reduce", 0, "n (span) at an in-place root", .pfn = mg_inplace,
                   .mem = mg_inplace_mem),
    MG_USEROP_ROW("reduce_as_userop", "Reduce", .pfn = mg_userop),
    MG_P2P_ROW("reduce_as_linear", "Reduce", "(p-1) Recv(n) + (p-1) Reduce_local(n) at the root",
               "the root receives x(p-1), x(p-2), ..., x0 in turn and folds each in from the left", 0,
               "2n at the root (its receives, an in-place input)", .pfn = mg_reduce_as_linear,
               .mem = mg_reduce_as_linear_mem, .costfn = mg_cost_reduce_as_linear),
    MG_P2P_ROW("reduce_as_binomial", "Reduce", "ceil(log2 p) rounds of Send(n) + Reduce_local(n)",
               "binomial tree, whole vectors (a non-commutative op: rooted at rank 0, which sends the result to the root)",
               0, "2n", .pfn = mg_reduce_as_binomial, .mem = mg_reduce_as_binomial_mem,
               .costfn = mg_cost_reduce_as_binomial),
    MG_P2P_ROW("reduce_as_chain16k", "Reduce", "pipelined chain of Send(16 KiB) + Reduce_local(16 KiB)",
               "pipelined chains from rank p-1 down and from rank 0 up to the root, in segments of whole elements "
               "(16 KiB, at least one); rank order kept", 0, "3 segments", .pfn = mg_reduce_as_chain,
               .param = MG_P2P_SEG16K, .mem = mg_reduce_as_chain16k_mem, .costfn = mg_cost_reduce_as_chain,
               .crowd = 1),
    MG_P2P_ROW("reduce_as_rabenseifner", "Reduce",
               "recursive-halving Reduce_scatter(n) + binomial Gather(n) of Sends",
               "extra ranks fold into their neighbour, recursive halving over the largest power of two <= p "
               "(distances 1, 2, 4...: rank order kept), then a binomial gather to the root", 0, "2n",
               .pfn = mg_reduce_as_rabenseifner, .mem = mg_reduce_as_rabenseifner_mem,
               .costfn = mg_cost_reduce_as_rabenseifner, .crowd = 1),
    MG_RERANK_ROW("reduce_as_reranked", "Reduce", MG_R_COMMUTATIVE, .pfn = mg_rerank),
    MG_HIER_ROW("reduce_as_hier", "Reduce(n) <= ||Reduce(n) + Reduce_C(n) + Send(n)",
                "node-local reduce to the leaders, reduce among the leaders to the root's node, whose leader sends the "
                "result to the root if it is not the root", MG_R_NODE_ORDER,
                "2 spans of count elements at the leaders", "reduce[ppn](n) + reduce[nodes](n)",
                .pfn = mg_reduce_as_hier, .mem = mg_reduce_as_hier_mem),
    MG_LANE_ROW("reduce_as_lane", "Reduce(n) <= ||Reduce_scatter(n) + ||Reduce_lane(n/k) + Gatherv_root's node(n)",
                "node-local reduce_scatter into k blocks, reduce of block i on lane i to the root's node, gatherv to the "
                "root there", MG_R_NODE_ORDER | MG_R_COMMUTE_OR_DENSE, "2 spans of count elements + 2p ints",
                "reduce_scatter[ppn](n) + reduce[nodes](n/ppn) + gatherv[ppn](n)", .pfn = mg_reduce_as_lane, .mem = mg_lane_reduction_mem),
};
