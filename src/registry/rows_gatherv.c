/*
 * The rows of MPI_Gatherv (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

/* TGT-V2: the irregular form of TGT 2010 eq. 24 (Gather <= Reduce), mpiguide's id (see rows_exscan.c;
 * labelled TGT24 until the paper's table showed eq. 24 regular); TGT31 the paper's eq. 31. */
static const mg_alg gatherv_algs[] = {
    MG_DEFAULT_ROW("gatherv_default", "MPI_Gatherv", .fn = mg_gatherv_default),
    {.name = "gatherv_as_reduce", .fn = mg_gatherv_as_reduce, .guideline = "TGT-V2",
     .formula = "Gatherv(n) <= Reduce(n)",
     .description = "the root scatters each rank's packed offset and n, then a bitwise-or reduce over the zeroed "
                    "packed vector holding the own block; the default runs when n > INT_MAX or the scratch exceeds "
                    "the cap", .restrictions = 0,
     .mem_formula = "2*p long longs at the root, then n bytes (2*n at the root)", .mem = mg_gatherv_as_reduce_mem,
     .cost = "scatter(16) + copy(n) + reduce(n)"},
    {.name = "gatherv_as_alltoallv", .fn = mg_gatherv_as_alltoallv, .guideline = "TGT31",
     .formula = "Gatherv(n) <= Alltoallv(n)",
     .description = "alltoallv in which every rank sends its block to the root only", .restrictions = 0,
     .mem_formula = "4*p ints", .mem = mg_gatherv_as_alltoallv_mem, .cost = "alltoallv(n/p)"},
    MG_NB_ROW("gatherv_as_igatherv_wait", "Gatherv", "gatherv", 0, "0", .pfn = mg_nonblocking),
    MG_PERSIST_ROW("gatherv_as_persistent", "Gatherv", 0, .pfn = mg_persistent),
    MG_INPLACE_ROW("gatherv_inplace_as_copy", "Gatherv", 0, "the root's block (span) at an in-place root",
                   .pfn = mg_inplace),
    MG_PACKED_ROW("gatherv_as_packed", "Gatherv", 0, "4*p ints + 2*p handles, then 2*n bytes (n agreed late)",
                  .pfn = mg_packed, .mem = mg_packed_mem),
};
