/*
 * The rows of MPI_Allgatherv (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

/* Träff, Gropp and Thakur, TPDS 2010 (see rows_exscan.c): TGT33 is an equation number of the paper;
 * TGT-G1 (the irregular GL1), TGT-G2 (padding to the largest block) and TGT-G3 (the irregular form of
 * eq. 25, Allgather <= Allreduce; labelled TGT25 until the paper's table showed eq. 25 regular) are
 * mpiguide's ids for guidelines it states without a number. */

static const mg_alg allgatherv_algs[] = {
    MG_DEFAULT_ROW("allgatherv_default", "MPI_Allgatherv", .fn = mg_allgatherv_default),
    {.name = "allgatherv_as_allreduce", .fn = mg_allgatherv_as_allreduce, .guideline = "TGT-G3",
     .formula = "Allgatherv(n) <= Allreduce(n)",
     .description = "bitwise-or allreduce over the zeroed packed vector holding the own block at its packed offset, "
                    "then unpack every block at its displacement", .restrictions = MG_R_NB_INT,
     .mem_formula = "n bytes", .mem = mg_allgatherv_as_allreduce_mem, .cost = "copy(n) + allreduce(n)"},
    {.name = "allgatherv_as_alltoallv", .fn = mg_allgatherv_as_alltoallv, .guideline = "TGT33",
     .formula = "Allgatherv(n) <= Alltoallv(n)",
     .description = "alltoallv in which every rank sends its block to every rank (in place: a packed copy of it)",
     .restrictions = MG_R_NB_INT, .mem_formula = "4*p ints + n bytes (+ the largest block in place)",
     .mem = mg_allgatherv_as_alltoallv_mem, .cost = "alltoallv(n)"},
    {.name = "allgatherv_as_gatherv_bcast", .fn = mg_allgatherv_as_gatherv_bcast, .guideline = "TGT-G1",
     .formula = "Allgatherv(n) <= Gatherv(n) + Bcast(n)",
     .description = "gatherv to rank 0, then broadcast the blocks as one element of an indexed type of them "
                    "(gaps between blocks are not written)", .restrictions = MG_R_NB_INT, .mem_formula = "0",
     .cost = "gatherv(n) + bcast(n)"},
    {.name = "allgatherv_as_allgather_compact", .fn = mg_allgatherv_as_allgather_compact, .guideline = "TGT-G2",
     .formula = "Allgatherv(n) <= Allgather(p*max(recvcounts)) + local compaction",
     .description = "allgather the packed blocks padded to the largest one, then unpack each at its displacement",
     .restrictions = MG_R_PMAX_INT, .mem_formula = "p*max(recvcounts) x size(recvtype) bytes",
     .mem = mg_allgatherv_as_allgather_compact_mem, .cost = "allgather(n/p) + copy(n)"},
    MG_NB_ROW("allgatherv_as_iallgatherv_wait", "Allgatherv", "allgatherv", 0, "0", .pfn = mg_nonblocking),
    MG_PERSIST_ROW("allgatherv_as_persistent", "Allgatherv", 0, .pfn = mg_persistent),
    /* registry.h: MPICH */
    MG_INPLACE_ROW("allgatherv_inplace_as_copy", "Allgatherv", MG_R_P_GT_1,
                   "the own block (span), agreed late by an allreduce", .pfn = mg_inplace),
    MG_PACKED_ROW("allgatherv_as_packed", "Allgatherv", MG_R_NB_INT, "2*n bytes + 4*p ints + 2*p datatype handles",
                  .pfn = mg_packed, .mem = mg_packed_mem),
};
