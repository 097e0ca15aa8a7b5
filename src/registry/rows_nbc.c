/*
 * The rows of the non-blocking collectives (registry.h, MG_NBC_OPS): one table per operation, row
 * 0 the MPI library's own MPI_I<coll> (or, for a persistent request, its MPI_<Coll>_init), then
 * the mock-ups, each row's name written out in full. Compiled as part of registry.c (#include),
 * which takes each table's size for mg_colls. The algorithms: src/algs/nbc.c.
 *
 * Two kinds of rows (issue 48; docs/library.md, "Non-blocking and persistent"):
 * - one call of the library's own non-blocking (or persistent) function of the general form, the
 *   blocking catalogue's "specialised not slower than general" rows with the I prefix (Iallgather
 *   as Iallgatherv, GL4): the request the user gets is that call's; the counts and displacements
 *   the row makes are kept with the request until a completion call returns it completed (a
 *   persistent one: until MPI_Request_free; src/lib/acct.c). These libmpiguide runs.
 * - the non-blocking forms of the blocking catalogue's compositions (Iallreduce as Ireduce then
 *   Ibcast, GL5): schedules of two rounds of the library's non-blocking collectives
 *   (src/algs/sched.c), each round posted when the one before has completed. libmpiguide runs them
 *   only with its progress thread (MG_R_PROGRESS: MPIGUIDE_PROGRESS=thread), which advances them
 *   whatever the application does meanwhile: a schedule advanced only in the calls libmpiguide
 *   sees would deadlock a legal program. The benchmark runs the rounds one after the other in the
 *   call (the composition's completion time); check judges them, tune may route to them, and a
 *   run without the thread falls back (no_progress).
 */
#include "registry/rows.h"

/* A one-call row: the library's I<general> with the call's arguments (its persistent form for a
 * persistent request). */
#define MG_NBC_ONE_ROW(nm, gl, tg, fml, desc, restr, memtxt, cst, ...)                                \
  {.name = nm, .guideline = gl, .tgt = tg, .formula = fml,                                            \
   .description = desc "; one call of the library's own non-blocking (persistent) function, whose "   \
                  "request the caller gets; the arrays kept until completion",                        \
   .restrictions = (restr), .mem_formula = memtxt, .family = MG_FAM_NBC, .cost = cst, __VA_ARGS__}
/* A composition's non-blocking form: a schedule of rounds, each posted when the one before has
 * completed (by libmpiguide's progress thread; in the benchmark, in the call). */
#define MG_NBC_SCHED_ROW(nm, gl, tg, fml, desc, restr, memtxt, cst, ...)                                \
  {.name = nm, .guideline = gl, .tgt = tg, .formula = fml,                                            \
   .description = desc "; a schedule: each part posted when the one before has completed, by "       \
                  "libmpiguide's progress thread (MPIGUIDE_PROGRESS=thread)",                          \
   .restrictions = MG_R_PROGRESS | (restr), .mem_formula = memtxt, .family = MG_FAM_NBC, .cost = cst,  \
   __VA_ARGS__}

static const mg_alg iallgather_algs[] = {
    MG_DEFAULT_ROW("iallgather_default", "MPI_Iallgather", .fn = mg_nbc_default),
    MG_NBC_ONE_ROW("iallgather_as_iallgatherv", "GL4", "TGT28", "Iallgather(n) <= Iallgatherv(n)",
                   "iallgatherv with equal counts", MG_R_PN_INT, "2*p ints", "allgatherv(p*n)",
                   .fn = mg_iallgather_as_iallgatherv, .mem = mg_nbc_ints2_mem),
    MG_NBC_SCHED_ROW("iallgather_as_igather_ibcast", "GL1", "TGT15", "Iallgather(n) <= Igather(n) + Ibcast(p*n)",
                   "igather of all blocks at rank 0, then ibcast of the p*n result", MG_R_PN_INT, "0",
                   "gather(n) + bcast(p*n)", .fn = mg_iallgather_as_igather_ibcast),
};

static const mg_alg iallgatherv_algs[] = {
    MG_DEFAULT_ROW("iallgatherv_default", "MPI_Iallgatherv", .fn = mg_nbc_default),
};

static const mg_alg iallreduce_algs[] = {
    MG_DEFAULT_ROW("iallreduce_default", "MPI_Iallreduce", .fn = mg_nbc_default),
    MG_NBC_SCHED_ROW("iallreduce_as_ireduce_ibcast", "GL5", "TGT18", "Iallreduce(n) <= Ireduce(n) + Ibcast(n)",
                   "ireduce to rank 0, then ibcast", 0, "0", "reduce(n) + bcast(n)",
                   .fn = mg_iallreduce_as_ireduce_ibcast),
};

static const mg_alg ialltoall_algs[] = {
    MG_DEFAULT_ROW("ialltoall_default", "MPI_Ialltoall", .fn = mg_nbc_default),
    MG_NBC_ONE_ROW("ialltoall_as_ialltoallv", "GL8", "TGT29", "Ialltoall(n) <= Ialltoallv(n)",
                   "ialltoallv with equal counts", MG_R_PN_INT, "4*p ints", "alltoallv(p*n)",
                   .fn = mg_ialltoall_as_ialltoallv, .mem = mg_nbc_ints4_mem),
};

static const mg_alg ialltoallv_algs[] = {
    MG_DEFAULT_ROW("ialltoallv_default", "MPI_Ialltoallv", .fn = mg_nbc_default),
    MG_NBC_ONE_ROW("ialltoallv_as_ialltoallw", "TGT-A1", NULL, "Ialltoallv(n) <= Ialltoallw(n)",
                   "ialltoallw with the displacements in bytes and the datatype repeated (a displacement "
                   "beyond an int in bytes: a one-block hindexed datatype for that peer, freed at once)",
                   MG_R_NOT_IN_PLACE, "4*p ints + 2*p datatypes", "alltoallw(n)",
                   .fn = mg_ialltoallv_as_ialltoallw, .mem = mg_ialltoallv_as_ialltoallw_mem),
};

static const mg_alg ialltoallw_algs[] = {
    MG_DEFAULT_ROW("ialltoallw_default", "MPI_Ialltoallw", .fn = mg_nbc_default),
};

static const mg_alg ibarrier_algs[] = {
    MG_DEFAULT_ROW("ibarrier_default", "MPI_Ibarrier", .fn = mg_nbc_default),
};

static const mg_alg ibcast_algs[] = {
    MG_DEFAULT_ROW("ibcast_default", "MPI_Ibcast", .fn = mg_nbc_default),
    MG_NBC_ONE_ROW("ibcast_as_iallgatherv", "GL9", "TGT30", "Ibcast(n) <= Iallgatherv(n)",
                   "iallgatherv in which only the root contributes", 0, "2*p ints", "allgatherv(n, 1)",
                   .fn = mg_ibcast_as_iallgatherv, .mem = mg_nbc_ints2_mem),
};

static const mg_alg iexscan_algs[] = {
    MG_DEFAULT_ROW("iexscan_default", "MPI_Iexscan", .fn = mg_nbc_default),
};

static const mg_alg igather_algs[] = {
    MG_DEFAULT_ROW("igather_default", "MPI_Igather", .fn = mg_nbc_default),
    MG_NBC_ONE_ROW("igather_as_igatherv", "GL12", "TGT26", "Igather(n) <= Igatherv(n)",
                   "igatherv with equal counts", MG_R_PN_INT, "2*p ints at the root", "gatherv(p*n)",
                   .fn = mg_igather_as_igatherv, .mem = mg_nbc_ints2_mem),
};

static const mg_alg igatherv_algs[] = {
    MG_DEFAULT_ROW("igatherv_default", "MPI_Igatherv", .fn = mg_nbc_default),
};

static const mg_alg ireduce_algs[] = {
    MG_DEFAULT_ROW("ireduce_default", "MPI_Ireduce", .fn = mg_nbc_default),
};

static const mg_alg ireduce_scatter_algs[] = {
    MG_DEFAULT_ROW("ireduce_scatter_default", "MPI_Ireduce_scatter", .fn = mg_nbc_default),
};

static const mg_alg ireduce_scatter_block_algs[] = {
    MG_DEFAULT_ROW("ireduce_scatter_block_default", "MPI_Ireduce_scatter_block", .fn = mg_nbc_default),
    MG_NBC_ONE_ROW("ireduce_scatter_block_as_ireducescatter", "GL18", NULL,
                   "Ireduce_scatter_block(n) <= Ireduce_scatter(n)", "ireduce_scatter with equal counts",
                   MG_R_PN_INT | MG_R_COMMUTE_OR_DENSE, "p ints", "reduce_scatter(p*n)",
                   .fn = mg_ireduce_scatter_block_as_ireducescatter, .mem = mg_nbc_ints1_mem),
    MG_NBC_SCHED_ROW("ireduce_scatter_block_as_ireduce_iscatter", "GL17", NULL,
                   "Ireduce_scatter_block(n) <= Ireduce(p*n) + Iscatter(n)",
                   "ireduce of the whole p*n vector to rank 0, then iscatter", MG_R_PN_INT | MG_R_UNIFORM_BASIC,
                   "p*n at rank 0", "reduce(p*n) + scatter(n)", .fn = mg_ireduce_scatter_block_as_ireduce_iscatter,
                   .mem = mg_ireduce_scatter_block_as_ireduce_iscatter_mem),
};

static const mg_alg iscan_algs[] = {
    MG_DEFAULT_ROW("iscan_default", "MPI_Iscan", .fn = mg_nbc_default),
};

static const mg_alg iscatter_algs[] = {
    MG_DEFAULT_ROW("iscatter_default", "MPI_Iscatter", .fn = mg_nbc_default),
    MG_NBC_ONE_ROW("iscatter_as_iscatterv", "GL22", "TGT27", "Iscatter(n) <= Iscatterv(n)",
                   "iscatterv with equal counts", MG_R_PN_INT, "2*p ints at the root", "scatterv(p*n)",
                   .fn = mg_iscatter_as_iscatterv, .mem = mg_nbc_ints2_mem),
};

static const mg_alg iscatterv_algs[] = {
    MG_DEFAULT_ROW("iscatterv_default", "MPI_Iscatterv", .fn = mg_nbc_default),
};
