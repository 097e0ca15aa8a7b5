/*
 * The rows of MPI_Scan (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

static const mg_alg scan_algs[] = {
    MG_DEFAULT_ROW("scan_default", "MPI_Scan", .fn = mg_scan_default),
    {.name = "scan_as_exscan_reducelocal", .fn = mg_scan_as_exscan_reducelocal, .guideline = "GL20",
     .formula = "Scan(n) <= Exscan(n) + Reduce_local(n)",
     .description = "exclusive scan, then combine with the own contribution locally", .restrictions = 0,
     .mem_formula = "n", .mem = mg_scan_as_exscan_reducelocal_mem, .cost = "exscan(n) + reduce_local(n)"},
    MG_SPLIT_ROWS("scan_as_split2", "scan_as_split4", "Scan", 0, "0", .pfn = mg_split),
    MG_BLOCKS_ROWS("scan_as_blocks1k", "scan_as_blocks4k", "scan_as_blocks16k", "scan_as_blocks64k",
                   "Scan", 0, "0", .pfn = mg_blocks),
    MG_NB_ROW("scan_as_iscan_wait", "Scan", "scan", 0, "0", .pfn = mg_nonblocking),
    MG_PERSIST_ROW("scan_as_persistent", "Scan", 0, .pfn = mg_persistent),
    MG_PAD_ROWS("scan_as_padded2", "scan_as_padded4", "Scan", MG_R_PAD_PREDEFINED,
                "2 n' (send and receive vector, n' of k = 4)", .pfn = mg_padded, .mem = mg_padded_mem),
    MG_INPLACE_ROW("scan_inplace_as_copy", "Scan", 0, "n (span) in place", .pfn = mg_inplace, .mem = mg_inplace_mem),
    MG_USEROP_ROW("scan_as_userop", "Scan", .pfn = mg_userop),
    MG_P2P_ROW("scan_as_linear", "Scan", "(p-1) Send(n) + Reduce_local(n) along a chain",
               "rank i receives the prefix of 0..i-1 from i-1, combines and sends its prefix to i+1", 0, "n",
               .pfn = mg_scan_as_linear, .mem = mg_scan_as_linear_mem, .costfn = mg_cost_scan_as_linear),
    MG_P2P_ROW("scan_as_recdbl", "Scan", "ceil(log2 p) rounds of Sendrecv(n) + 2 Reduce_local(n)",
               "recursive doubling (Hillis-Steele): group reductions exchanged at distances 1, 2, 4...", 0, "2n",
               .pfn = mg_scan_as_recdbl, .mem = mg_scan_as_recdbl_mem, .costfn = mg_cost_scan_as_recdbl, .crowd = 1),
    MG_RERANK_ROW("scan_as_reranked", "Scan", MG_R_COMMUTATIVE, .pfn = mg_rerank),
};
