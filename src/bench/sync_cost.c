/*
 * The cost and the imprecision of the synchronisation, measured once per run before any block
 * (engine.c, prepare_clocks): the noise threshold of the checker (docs/check.md) and of the
 * stopping rule (seq.h).
 */
#include <stdlib.h>

#include "bench/run.h"
#include "bench/sync.h"

/*
 * The imprecision of the synchronisation itself: how far apart, on a global clock, the ranks
 * leave it (median over n steps of the latest minus the earliest exit). A measurement starts at
 * a rank's exit, so a difference between two algorithms smaller than this spread can be the
 * synchronisation's doing, however short the barrier itself was. Without a global clock of the
 * run (barrier-type methods) a lighter one is fitted here; its own error is part of the spread,
 * so the figure errs on the side of caution.
 */
static int measure_sync_skew(run *R, mg_sync_method m, int n) {
  mg_clock c = R->clock;
  int rc = MPI_SUCCESS;
  if (!R->use_clock && (rc = mg_clock_sync(&c, R->scomm, 6, 4)) != MPI_SUCCESS) return rc;
  double *e = malloc(2 * (size_t)n * sizeof *e);
  if (!e) return PMPI_Abort(R->comm, 1);
  for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
    if ((rc = PMPI_Barrier(R->scomm)) != MPI_SUCCESS || (rc = mg_sync_step(m, R->scomm)) != MPI_SUCCESS) break;
    e[2 * i] = mg_clock_to_global(&c, R->now());
    e[2 * i + 1] = -e[2 * i];
  }
  if (rc == MPI_SUCCESS) rc = PMPI_Allreduce(MPI_IN_PLACE, e, 2 * n, MPI_DOUBLE, MPI_MAX, R->scomm);
  if (rc == MPI_SUCCESS) {
    for (int i = 0; i < n; i++) e[i] = e[2 * i] + e[2 * i + 1]; /* latest - earliest exit */
    R->res->sync_skew = mg_batch_median(e, n);
  }
  free(e);
  return rc;
}

int mg_bench_sync_cost(run *R) {
  int n = R->cfg->sync_cost_reps > 0 ? R->cfg->sync_cost_reps : 1, rc;
  mg_sync_method m = R->cfg->sync == MG_SYNC_DISSEM ? MG_SYNC_DISSEM : MG_SYNC_BARRIER;
  double *d = malloc((size_t)n * sizeof *d);
  if (!d) return PMPI_Abort(R->comm, 1);
  for (int i = 0; i < n; i++) {
    if ((rc = PMPI_Barrier(R->scomm)) != MPI_SUCCESS) goto out;
    double t0 = R->now();
    if ((rc = mg_sync_step(m, R->scomm)) != MPI_SUCCESS) goto out;
    d[i] = R->now() - t0;
  }
  if ((rc = PMPI_Allreduce(MPI_IN_PLACE, d, n, MPI_DOUBLE, MPI_MAX, R->scomm)) != MPI_SUCCESS) goto out;
  R->res->sync_cost = mg_batch_median(d, n);
  R->res->sync_cost_min = d[0];
  rc = measure_sync_skew(R, m, n);
out:
  free(d);
  return rc;
}

