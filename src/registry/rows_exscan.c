/*
 * The rows of MPI_Exscan (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

/* Träff, Gropp and Thakur, "Self-Consistent MPI Performance Guidelines", TPDS 2010: the guideline
 * column holds the equation number of its catalogue ("TGT19"), or, for a guideline it states
 * without one, mpiguide's id "TGT-<collective letter><n>" (B barrier, X exscan, R reduce_scatter,
 * G allgatherv, V gatherv and scatterv, A alltoallv). */

static const mg_alg exscan_algs[] = {
    MG_DEFAULT_ROW("exscan_default", "MPI_Exscan", .fn = mg_exscan_default),
    {.name = "exscan_as_scan_sendrecv", .fn = mg_exscan_as_scan_sendrecv, .guideline = "TGT-X1",
     .formula = "Exscan(n) <= Scan(n) + Sendrecv(n)",
     .description = "inclusive scan into scratch, then shift by one rank (rank i sends to i+1, over a private "
                    "communicator); rank 0's buffer is left untouched", .restrictions = 0, .mem_formula = "n",
     .mem = mg_exscan_as_scan_sendrecv_mem, .cost = "scan(n) + sendrecv(n)"},
    {.name = "exscan_as_allgather_reducelocal", .fn = mg_exscan_as_allgather_reducelocal, .guideline = "TGT-X2",
     .formula = "Exscan(n) <= Allgather(n) + Reduce_local(n)",
     .description = "allgather all vectors, rank i folds blocks i-1 down to 0 locally (rank order)",
     .restrictions = MG_R_PN_INT, .mem_formula = "p*n", .mem = mg_exscan_as_allgather_reducelocal_mem,
     .cost = "allgather(n) + reduce_local((p-1)*n)"},
    MG_SPLIT_ROWS("exscan_as_split2", "exscan_as_split4", "Exscan", 0, "0", .pfn = mg_split),
    MG_BLOCKS_ROWS("exscan_as_blocks1k", "exscan_as_blocks4k", "exscan_as_blocks16k", "exscan_as_blocks64k",
                   "Exscan", 0, "0", .pfn = mg_blocks),
    MG_NB_ROW("exscan_as_iexscan_wait", "Exscan", "exscan", 0, "0", .pfn = mg_nonblocking),
    MG_PERSIST_ROW("exscan_as_persistent", "Exscan", 0, .pfn = mg_persistent),
    MG_PAD_ROWS("exscan_as_padded2", "exscan_as_padded4", "Exscan", MG_R_PAD_PREDEFINED,
                "2 n' (send and receive vector, n' of k = 4)", .pfn = mg_padded, .mem = mg_padded_mem),
    MG_INPLACE_ROW("exscan_inplace_as_copy", "Exscan", 0, "n (span) in place", .pfn = mg_inplace,
                   .mem = mg_inplace_mem),
    MG_USEROP_ROW("exscan_as_userop", "Exscan", .pfn = mg_userop),
    MG_RERANK_ROW("exscan_as_reranked", "Exscan", MG_R_COMMUTATIVE, .pfn = mg_rerank),
};
