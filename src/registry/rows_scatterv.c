/*
 * The rows of MPI_Scatterv (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

/* TGT 2010 eq. 34 states two relations, Scatterv(n) <= Scatter(p) + Bcast(n) <= Bcast(p) + Bcast(n):
 * a row each (the second was mpiguide's TGT-V1 until the paper's table showed it); TGT32 eq. 32. */
static const mg_alg scatterv_algs[] = {
    MG_DEFAULT_ROW("scatterv_default", "MPI_Scatterv", .fn = mg_scatterv_default),
    {.name = "scatterv_as_alltoallv", .fn = mg_scatterv_as_alltoallv, .guideline = "TGT32",
     .formula = "Scatterv(n) <= Alltoallv(n)",
     .description = "alltoallv in which the root sends block i to rank i and every rank receives from the root only",
     .restrictions = 0, .mem_formula = "4*p ints", .mem = mg_scatterv_as_alltoallv_mem, .cost = "alltoallv(n)"},
    {.name = "scatterv_as_scatter_bcast", .fn = mg_scatterv_as_scatter_bcast, .guideline = "TGT34",
     .formula = "Scatterv(n) <= Scatter(p) + Bcast(n)",
     .description = "the root scatters each rank's packed offset and n, then broadcasts the packed blocks; each "
                    "rank unpacks its own; the default runs when n > INT_MAX or the scratch exceeds the cap",
     .restrictions = 0, .mem_formula = "2*p long longs at the root, then n bytes",
     .mem = mg_scatterv_as_scatter_bcast_mem, .cost = "scatter(16) + bcast(n)"},
    {.name = "scatterv_as_bcast_bcast", .fn = mg_scatterv_as_bcast_bcast, .guideline = "TGT34",
     .formula = "Scatterv(n) <= Bcast(p) + Bcast(n)",
     .description = "the root broadcasts its sendcounts and size(sendtype), then the packed blocks; each rank "
                    "unpacks its own; the default runs when n > INT_MAX or the scratch exceeds the cap",
     .restrictions = 0, .mem_formula = "p+1 ints, then n bytes", .mem = mg_scatterv_as_bcast_bcast_mem,
     .cost = "bcast(4*p + 4) + bcast(n)"},
    MG_NB_ROW("scatterv_as_iscatterv_wait", "Scatterv", "scatterv", 0, "0", .pfn = mg_nonblocking),
    MG_PERSIST_ROW("scatterv_as_persistent", "Scatterv", 0, .pfn = mg_persistent),
    MG_INPLACE_ROW("scatterv_inplace_as_copy", "Scatterv", 0, "the root's block (span) at an in-place root",
                   .pfn = mg_inplace),
    MG_PACKED_ROW("scatterv_as_packed", "Scatterv", 0, "4*p ints + 2*p handles, then 2*n bytes (n agreed late)",
                  .pfn = mg_packed, .mem = mg_packed_mem),
};
