/*
 * The rows of MPI_Barrier (registry.h, MG_COLLECTIVES): row 0 the MPI library's own, then the
 * mock-ups, each row's name written out in full. The families' macros and their rules: rows.h.
 * Compiled as part of registry.c (#include), which takes the table's size for mg_colls.
 */
#include "registry/rows.h"

static const mg_alg barrier_algs[] = {
    MG_DEFAULT_ROW("barrier_default", "MPI_Barrier", .fn = mg_barrier_default),
    {.name = "barrier_as_allreduce", .fn = mg_barrier_as_allreduce, .guideline = "TGT-B1",
     .formula = "Barrier <= Allreduce(1)",
     .description = "allreduce of one int: no rank's result is complete before every rank contributed",
     .restrictions = 0, .mem_formula = "0", .cost = "allreduce(4)"},
    {.name = "barrier_as_reduce_bcast", .fn = mg_barrier_as_reduce_bcast, .guideline = "TGT-B2",
     .formula = "Barrier <= Reduce(1) + Bcast(1)",
     .description = "reduce one int to rank 0, which has then heard from every rank, then broadcast it",
     .restrictions = 0, .mem_formula = "0", .cost = "reduce(4) + bcast(4)"},
    MG_NB_ROW("barrier_as_ibarrier_wait", "Barrier", "barrier", 0, "0", .pfn = mg_nonblocking),
    MG_PERSIST_ROW("barrier_as_persistent", "Barrier", 0, .pfn = mg_persistent),
    MG_P2P_ROW("barrier_as_dissemination", "Barrier", "ceil(log2 p) x Sendrecv(0)",
               "dissemination: round k sends an empty message to rank+2^k and receives one from rank-2^k", 0, "0",
               .pfn = mg_barrier_as_dissemination, .costfn = mg_cost_barrier_as_dissemination, .crowd = 1),
    MG_P2P_ROW("barrier_as_binomial", "Barrier", "fan-in + fan-out of empty messages on a binomial tree",
               "empty messages up a binomial tree to rank 0, then down the same tree", 0, "0",
               .pfn = mg_barrier_as_binomial, .costfn = mg_cost_barrier_as_binomial),
    MG_P2P_ROW("barrier_as_linear", "Barrier", "(p-1) x Recv(0) + (p-1) x Send(0) at rank 0",
               "rank 0 receives an empty message from every rank, then sends one to every rank", 0, "p requests",
               .pfn = mg_barrier_as_linear, .mem = mg_barrier_as_linear_mem, .costfn = mg_cost_barrier_as_linear),
    MG_RERANK_ROW("barrier_as_reranked", "Barrier", 0, .pfn = mg_rerank),
    MG_HIER_ROW("barrier_as_hier", "Barrier <= ||Barrier + Barrier_C + ||Barrier",
                "node-local barrier, barrier among the node leaders, node-local barrier", 0, "0", "2 * barrier[ppn](0) + barrier[nodes](0)",
                .pfn = mg_barrier_as_hier),
};
