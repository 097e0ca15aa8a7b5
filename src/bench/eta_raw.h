/*
 * A finished launch's cells as the time estimate learns them (eta.h, mg_eta_prior): read from its
 * raw.csv (docs/bench.md), which holds every value of every series (warm-ups included), cell by
 * cell in the order they were measured, and each value's runtime, but not the wall time of a cell.
 * A cell's seconds are rebuilt as its values' runtimes plus an equal share per value of what the
 * launch spent besides (elapsed_sec less every runtime: the barrier before each value, batches,
 * the stopping rule; ~40 us a value at 4 ranks of Open MPI), so the cells add up to elapsed_sec.
 * Plain stdio, no MPI: `check --launches` seeds launch K from launch K-1 (cmd_check_measure.c) and
 * benchmarks/eta_replay.c replays recorded launches through the estimator.
 */
#ifndef MG_BENCH_ETA_RAW_H
#define MG_BENCH_ETA_RAW_H

typedef struct mg_eta_cell {
  char coll[40];  /* the collective's name */
  double bytes;   /* its size column */
  int nvar;       /* the series (algorithms) measured in it */
  double values;  /* every value of every series, warm-ups included */
  double seconds; /* wall time rebuilt: runtimes plus the per-value share of the rest */
} mg_eta_cell;

/* The cells of `path` (a raw.csv) in measurement order into *cells (malloc'd, *n of them; free()),
 * and the launch's elapsed_sec into *elapsed (0 when absent: a partial file; then no share is
 * added). 0, or -1 with a message in err. */
int mg_eta_raw_cells(const char *path, mg_eta_cell **cells, int *n, double *elapsed, char *err, int errlen);

#endif
