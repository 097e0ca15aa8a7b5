/*
 * `mpiguide bench --overlap` (docs/bench.md, "Overlap"): how much of a non-blocking collective's
 * time a computation hides, and how many MPI_Test calls during the computation it takes to get
 * the progress (the method and the arithmetic: ovl.h).
 *
 * One *cell* is one (collective, message size), the collective one with a non-blocking form (the
 * registry's nonblocking family). Per cell, on every rank of cfg->comm:
 *  1. pilot: 2 max(cfg->warmup, 5) measurements of pure (kept as warm-up rows); the median of
 *     their second half gives t_pure (the first calls set up connections);
 *  2. calibration: each rank's busy loop (its iterations per second measured once per run, the
 *     fastest of several timings) sized to t_pure, then one max-reduction: every rank computes
 *     the same number of iterations;
 *  3. cfg->warmup rounds of every variant (warm-up rows), then measured rounds until the
 *     repetition rule (cfg->rep, per variant) is met: each round measures pure, cpu, overall
 *     for each test count and blocking once, in the order given or shuffled (cfg->shuffle), each after one
 *     synchronisation step (cfg->sync: barrier, dbarrier or dissem); after every cfg->batch
 *     rounds one reduction turns local durations into the max over ranks, which every rank then
 *     holds (the same repetition decisions everywhere), as the engine does (bench.h).
 * A call that returns an MPI error on any rank ends its cell (failed, with a note).
 * Collective over cfg->comm; every rank passes the same configuration.
 */
#ifndef MG_BENCH_OVERLAP_RUN_H
#define MG_BENCH_OVERLAP_RUN_H

#include "bench/bench.h"
#include "bench/ovl.h"

typedef struct mg_ovl_cfg {
  int ntests;
  int tests[MG_OVL_MAXK]; /* MPI_Test calls during the computation, ascending, distinct */
} mg_ovl_cfg;

typedef struct mg_ovl_result {
  int ncells;
  mg_ovl_cell *cells;  /* collective-major, sizes ascending */
  double rate;         /* busy-loop iterations per second: the slowest rank's */
  double rate_max;     /* the fastest rank's */
  double sync_cost;    /* one synchronisation step (median), s */
  double elapsed;      /* s */
} mg_ovl_result;

/* Whether coll has a non-blocking form the registry knows (a nonblocking-family row). */
int mg_ovl_has_nb(mg_coll coll);

/* Run. cfg: colls, sizes, dtype, op, root(s), in_place, sync (barrier-type), rep, warmup, batch,
 * shuffle, seed, progress used; algmask, nreds, pattern, time (always local) ignored.
 * MPI_SUCCESS or the MPI code of a failing harness call. res: free with mg_ovl_result_free. */
int mg_overlap_run(const mg_bench_cfg *cfg, const mg_ovl_cfg *oc, mg_ovl_result *res);
void mg_ovl_result_free(mg_ovl_result *res);

#endif
