/*
 * The rows of MPI_Alltoallw (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

static const mg_alg alltoallw_algs[] = {
    MG_DEFAULT_ROW("alltoallw_default", "MPI_Alltoallw", .fn = mg_alltoallw_default),
    MG_NB_ROW("alltoallw_as_ialltoallw_wait", "Alltoallw", "alltoallw", MG_R_NOT_IN_PLACE, "0",
              .pfn = mg_nonblocking),
    MG_PERSIST_ROW("alltoallw_as_persistent", "Alltoallw", MG_R_NOT_IN_PLACE, .pfn = mg_persistent),
    /* registry.h: Open MPI */
    MG_INPLACE_ROW("alltoallw_inplace_as_copy", "Alltoallw", MG_R_P_GT_1,
                   "the bytes the blocks cover, agreed late by an allreduce", .pfn = mg_inplace),
    MG_PACKED_ROW("alltoallw_as_packed", "Alltoallw", 0,
                  "4*p ints + 2*p handles, then the largest sent + received bytes (agreed late)", .pfn = mg_packed,
                  .mem = mg_packed_mem),
};
