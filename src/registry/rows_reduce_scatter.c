/*
 * The rows of MPI_Reduce_scatter (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

static const mg_alg reduce_scatter_algs[] = {
    MG_DEFAULT_ROW("reduce_scatter_default", "MPI_Reduce_scatter", .fn = mg_reduce_scatter_default),
    {.name = "reduce_scatter_as_reduce_scatterv", .fn = mg_reduce_scatter_as_reduce_scatterv, .guideline = "TGT19",
     .formula = "Reduce_scatter(n) <= Reduce(n) + Scatterv(n)",
     .description = "reduce the whole vector to rank 0, then scatterv the blocks (displacements: prefix sums of "
                    "recvcounts)", .restrictions = MG_R_N_INT, .mem_formula = "p ints (+ n at rank 0)",
     .mem = mg_reduce_scatter_as_reduce_scatterv_mem, .cost = "reduce(n) + scatterv(n)"},
    {.name = "reduce_scatter_as_allreduce", .fn = mg_reduce_scatter_as_allreduce, .guideline = "TGT22",
     .formula = "Reduce_scatter(n) <= Allreduce(n)",
     .description = "allreduce of the whole vector, keep the own block", .restrictions = MG_R_N_INT,
     .mem_formula = "n", .mem = mg_reduce_scatter_as_allreduce_mem, .cost = "allreduce(n)"},
    {.name = "reduce_scatter_as_reducescatterblock", .fn = mg_reduce_scatter_as_reducescatterblock,
     .guideline = "TGT-R1", .formula = "Reduce_scatter(n) <= Reduce_scatter_block(p*max(recvcounts))",
     .description = "reduce_scatter_block with every block padded to the largest count (equal counts: as is)",
     .restrictions = MG_R_COMMUTE_OR_DENSE | MG_R_PAD_PREDEFINED_OP,
     .mem_formula = "0 if the counts are equal, else p*max(recvcounts) elements",
     .mem = mg_reduce_scatter_as_reducescatterblock_mem, .cost = "reduce_scatter_block(n/p)"},
    MG_NB_ROW("reduce_scatter_as_ireduce_scatter_wait", "Reduce_scatter", "reduce_scatter", MG_R_COMMUTE_OR_DENSE,
              "0", .pfn = mg_nonblocking),
    MG_PERSIST_ROW("reduce_scatter_as_persistent", "Reduce_scatter", MG_R_COMMUTE_OR_DENSE,
                   .pfn = mg_persistent),
    MG_INPLACE_ROW("reduce_scatter_inplace_as_copy", "Reduce_scatter", 0, "the whole vector (span) in place",
                   .pfn = mg_inplace, .mem = mg_inplace_mem),
    MG_USEROP_ROW("reduce_scatter_as_userop", "Reduce_scatter", .pfn = mg_userop),
};
