/*
 * The rows of MPI_Alltoall (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

static const mg_alg alltoall_algs[] = {
    MG_DEFAULT_ROW("alltoall_default", "MPI_Alltoall", .fn = mg_alltoall_default),
    /* registry.h: MPICH */
    {.name = "alltoall_as_alltoallv", .fn = mg_alltoall_as_alltoallv, .guideline = "GL8", .tgt = "TGT29",
     .formula = "Alltoall(n) <= Alltoallv(n)", .description = "alltoallv with equal counts",
     .restrictions = MG_R_PN_INT | MG_R_NOT_IN_PLACE, .mem_formula = "4*p ints", .mem = mg_alltoall_as_alltoallv_mem,
     .cost = "alltoallv(p*n)"},
    MG_SPLIT_ROWS("alltoall_as_split2", "alltoall_as_split4", "Alltoall", MG_R_PN_INT,
                  "2*p*n bytes for non-dense datatypes", .pfn = mg_split, .mem = mg_split_mem),
    MG_BLOCKS_ROWS("alltoall_as_blocks1k", "alltoall_as_blocks4k", "alltoall_as_blocks16k", "alltoall_as_blocks64k",
                   "Alltoall", MG_R_PN_INT, "2*p*n bytes for non-dense datatypes", .pfn = mg_blocks, .mem = mg_blocks_mem),
    MG_NB_ROW("alltoall_as_ialltoall_wait", "Alltoall", "alltoall", 0, "0", .pfn = mg_nonblocking),
    MG_PERSIST_ROW("alltoall_as_persistent", "Alltoall", 0, .pfn = mg_persistent),
    MG_PAD_ROWS("alltoall_as_padded2", "alltoall_as_padded4", "Alltoall", 0,
                "2 p n' bytes (every block padded to n' of k = 4)", .pfn = mg_padded, .mem = mg_padded_mem),
    MG_INPLACE_ROW("alltoall_inplace_as_copy", "Alltoall", 0, "p*n (span), agreed late by an allreduce",
                   .pfn = mg_inplace),
    MG_PACKED_ROW("alltoall_as_packed", "Alltoall", MG_R_PN_INT, "2*p*n bytes", .pfn = mg_packed,
                  .mem = mg_packed_mem),
    MG_P2P_ROW("alltoall_as_linear", "Alltoall", "(p-1) x (Isend(n) + Irecv(n)) + Waitall",
               "every Irecv and Isend posted at once, then Waitall (in place: the blocks to send packed first)",
               MG_R_NB_INT, "2*p requests (+ 2*p*n bytes in place)", .pfn = mg_alltoall_as_linear,
               .mem = mg_alltoall_as_linear_mem, .costfn = mg_cost_alltoall_as_linear, .crowd = 1),
    MG_P2P_ROW("alltoall_as_pairwise", "Alltoall", "(p-1) x Sendrecv(n)",
               "p-1 Sendrecv rounds, round s sends to rank+s and receives from rank-s (in place: a round-robin "
               "schedule of disjoint pairs exchanging packed blocks)", MG_R_NB_INT, "2*n bytes in place",
               .pfn = mg_alltoall_as_pairwise, .mem = mg_alltoall_as_pairwise_mem,
               .costfn = mg_cost_alltoall_as_pairwise, .crowd = 1),
    MG_P2P_ROW("alltoall_as_bruck", "Alltoall", "ceil(log2 p) x Sendrecv(<= p/2 n) + 2 local rotations",
               "Bruck: rotate, ceil(log2 p) rounds that send the blocks whose slot has bit k set to rank+2^k, "
               "rotate back (packed bytes)", MG_R_PN_INT, "2*p*n bytes", .pfn = mg_alltoall_as_bruck,
               .mem = mg_alltoall_as_bruck_mem, .costfn = mg_cost_alltoall_as_bruck, .crowd = 1),
    MG_RERANK_ROW("alltoall_as_reranked", "Alltoall", 0, .pfn = mg_rerank),
};
