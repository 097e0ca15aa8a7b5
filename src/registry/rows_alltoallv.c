/*
 * The rows of MPI_Alltoallv (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

/* Träff, Gropp and Thakur (see rows_exscan.c). The irregular collectives below know no message size
 * on every rank (registry.h): their mock-ups have no size restrictions here and a mem formula of p
 * only; one that needs a size agrees on it first and may still run the default (mg_late_ok). */

static const mg_alg alltoallv_algs[] = {
    MG_DEFAULT_ROW("alltoallv_default", "MPI_Alltoallv", .fn = mg_alltoallv_default),
    {.name = "alltoallv_as_alltoallw", .fn = mg_alltoallv_as_alltoallw, .guideline = "TGT-A1",
     .formula = "Alltoallv(n) <= Alltoallw(n)",
     .description = "alltoallw with the same type for every peer and displacements in bytes (a byte displacement "
                    "beyond an int: an hindexed type of its own for that peer); in place from a copy of the blocks",
     .restrictions = 0,
     .mem_formula = "4*p ints + 2*p datatype handles (in place + the largest span of the blocks, agreed late)",
     .mem = mg_alltoallv_as_alltoallw_mem, .cost = "alltoallw(n)"},
    {.name = "alltoallv_as_allreduce_alltoall", .fn = mg_alltoallv_as_allreduce_alltoall, .guideline = "TGT-A2",
     .formula = "Alltoallv(n) <= Allreduce(max) + Alltoall(p*max)",
     .description = "allreduce the largest block m, then alltoall the packed blocks padded to m bytes; the "
                    "default runs when p*m > INT_MAX or the scratch exceeds the cap", .restrictions = 0,
     .mem_formula = "2*p*m bytes (m: the largest block, agreed late)",
     .cost = "allreduce(8) + copy(n) + alltoall(n/p)"},
    /* registry.h, nonblocking.c: Open MPI */
    MG_NB_ROW("alltoallv_as_ialltoallv_wait", "Alltoallv", "alltoallv", MG_R_NOT_IN_PLACE,
              "p ints (zeros for the counts of a side whose datatype is empty)", .pfn = mg_nonblocking,
              .mem = mg_nonblocking_mem),
    MG_PERSIST_ROW("alltoallv_as_persistent", "Alltoallv", MG_R_NOT_IN_PLACE, .pfn = mg_persistent),
    MG_INPLACE_ROW("alltoallv_inplace_as_copy", "Alltoallv", 0,
                   "the bytes the blocks cover, agreed late by an allreduce", .pfn = mg_inplace),
    MG_PACKED_ROW("alltoallv_as_packed", "Alltoallv", 0,
                  "4*p ints + 2*p handles, then the largest sent + received bytes (agreed late)", .pfn = mg_packed,
                  .mem = mg_packed_mem),
};
