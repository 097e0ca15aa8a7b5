/*
 * The rows of MPI_Bcast (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

static const mg_alg bcast_algs[] = {
    MG_DEFAULT_ROW("bcast_default", "MPI_Bcast", .fn = mg_bcast_default),
    {.name = "bcast_as_allgatherv", .fn = mg_bcast_as_allgatherv, .guideline = "GL9", .tgt = "TGT30",
     .formula = "Bcast(n) <= Allgatherv(n)", .description = "allgatherv in which only the root contributes",
     .restrictions = 0, .mem_formula = "2*p ints", .mem = mg_bcast_as_allgatherv_mem, .cost = "allgatherv(n, 1)"},
    {.name = "bcast_as_scatter_allgather", .fn = mg_bcast_as_scatter_allgather, .guideline = "GL10", .tgt = "TGT17",
     .formula = "Bcast(n) <= Scatter(n) + Allgather(n/p)",
     .description = "scatter the packed vector padded to a multiple of p bytes, then allgather",
     .restrictions = MG_R_PN_INT, .mem_formula = "p*ceil(n/p) bytes", .mem = mg_bcast_as_scatter_allgather_mem,
     .cost = "scatter(n/p) + allgather(n/p)"},
    MG_SPLIT_ROWS("bcast_as_split2", "bcast_as_split4", "Bcast", 0, "n bytes for a non-dense datatype",
                  .pfn = mg_split, .mem = mg_split_mem),
    MG_BLOCKS_ROWS("bcast_as_blocks1k", "bcast_as_blocks4k", "bcast_as_blocks16k", "bcast_as_blocks64k",
                   "Bcast", 0, "n bytes for a non-dense datatype", .pfn = mg_blocks, .mem = mg_blocks_mem),
    MG_NB_ROW("bcast_as_ibcast_wait", "Bcast", "bcast", 0, "0", .pfn = mg_nonblocking),
    MG_PAD_ROWS("bcast_as_padded2", "bcast_as_padded4", "Bcast", 0, "n' bytes (the padded message of k = 4)",
                .pfn = mg_padded, .mem = mg_padded_mem),
    MG_PACKED_ROW("bcast_as_packed", "Bcast", MG_R_NB_INT, "n bytes", .pfn = mg_packed, .mem = mg_packed_mem),
    MG_P2P_ROW("bcast_as_linear", "Bcast", "(p-1) Send(n) at the root",
               "the root sends the vector to every rank (p-1 Isends, then waits for them)", 0,
               "p requests at the root", .pfn = mg_bcast_as_linear, .mem = mg_bcast_as_linear_mem,
               .costfn = mg_cost_bcast_as_linear),
    MG_P2P_ROW("bcast_as_binomial", "Bcast", "ceil(log2 p) rounds of Send(n)",
               "binomial tree rooted at the root: whole vectors, the largest subtree first", 0, "0",
               .pfn = mg_bcast_as_binomial, .costfn = mg_cost_bcast_as_binomial),
    MG_P2P_ROW("bcast_as_chain16k", "Bcast", "pipelined chain of Send(16 KiB)",
               "pipelined chain root, root+1, ... in 16 KiB segments of the packed vector", MG_R_NB_INT,
               "n bytes (the packed vector of a non-dense datatype)", .pfn = mg_bcast_as_chain,
               .param = MG_P2P_SEG16K, .mem = mg_bcast_p2p_image_mem, .costfn = mg_cost_bcast_as_chain, .crowd = 1),
    MG_P2P_ROW("bcast_as_binary16k", "Bcast", "pipelined binary tree of Send(16 KiB)",
               "pipelined binary tree (children 2v+1, 2v+2 of v = rank - root) in 16 KiB segments of the packed vector",
               MG_R_NB_INT, "n bytes (the packed vector of a non-dense datatype)", .pfn = mg_bcast_as_binary,
               .param = MG_P2P_SEG16K, .mem = mg_bcast_p2p_image_mem, .costfn = mg_cost_bcast_as_binary),
    MG_P2P_ROW("bcast_as_scatter_ring", "Bcast", "binomial Scatter(n/p) + ring Allgather(n/p) of Sends",
               "van de Geijn: binomial scatter of p blocks of the packed vector, then a ring allgather", MG_R_NB_INT,
               "n bytes (the packed vector; the root's ring receives)", .pfn = mg_bcast_as_scatter_ring,
               .mem = mg_bcast_p2p_image_mem, .costfn = mg_cost_bcast_as_scatter_ring, .crowd = 1),
    MG_RMA_ROW("bcast_as_rma_put", "TGT-O1", "Bcast(n) <= Win_fence + (p-1) x Put(n) + Win_fence",
               "the root puts the vector (packed bytes) into the window of every other rank between two fences; "
               "they copy it out",
               "the window: n rounded up to a power of two (at least 4 KiB), kept with the communicator",
               "2 * barrier(0) + (p-1) * (1 + min(nodes - 1, 1)) / 2 * sendrecv(n) + copy(n)", .pfn = mg_bcast_as_rma_put,
               .mem = mg_bcast_as_rma_put_mem),
    MG_RERANK_ROW("bcast_as_reranked", "Bcast", 0, .pfn = mg_rerank),
    MG_HIER_ROW("bcast_as_hier", "Bcast(n) <= Bcast_root's node(n) + Bcast_C(n) + ||Bcast(n)",
                "bcast on the root's node, among the node leaders from the root's node, then on the other nodes", 0,
                "0", "bcast[ppn](n) + bcast[nodes](n) + min(nodes - 1, 1) * bcast[ppn](n)", .pfn = mg_bcast_as_hier),
    MG_LANE_ROW("bcast_as_lane", "Bcast(n) <= Scatter_root's node(n/k) + ||Bcast_lane(n/k) + ||Allgather(n/k)",
                "scatter k pieces of the packed vector on the root's node, bcast of piece i on lane i, node-local "
                "allgatherv", MG_R_NB_INT, "n bytes + 2p ints", "scatter[ppn](n/ppn) + bcast[nodes](n/ppn) + allgather[ppn](n/ppn)",
                .pfn = mg_bcast_as_lane, .mem = mg_bcast_as_lane_mem),
};
