/*
 * Engine internals shared by engine.c, sync_clock.c and sync.c: the global clock
 * model (sync_clock.c) and the synchronisation steps (sync.c).
 */
#ifndef MG_BENCH_SYNC_H
#define MG_BENCH_SYNC_H

#include "bench/bench.h"

/*
 * The synchronised global clock: rank 0's timer is the reference. Each other
 * rank models its offset to it as a line, offset(t) = a + b (t - epoch),
 * fitted to ping-pong estimates (the one with the smallest round trip of each
 * group of ping-pongs, whose error is at most half that round trip).
 * The slope (drift) is fitted only once the estimates span at least
 * MG_CLOCK_DRIFT_SPAN seconds; before that the model is the median offset.
 * Estimates accumulate over resynchronisations (the last MG_CLOCK_MAX_FITS),
 * so the drift estimate improves over a run. Each synchronisation first
 * checks the old model against a fresh estimate (its prediction error) and,
 * after refitting, the new model against another one; the largest of these
 * errors over all ranks and synchronisations is the reported accuracy.
 */
#define MG_CLOCK_DRIFT_SPAN 1.0
#define MG_CLOCK_MAX_FITS 512

typedef struct mg_clock {
  mg_now_fn now;
  int rank, size;
  double epoch, a, b;
  int have_model;
  long nfit;
  double fx[MG_CLOCK_MAX_FITS], fy[MG_CLOCK_MAX_FITS]; /* ring of (t - epoch, offset) */
  double err, rtt;                                     /* max error, min round trip (all ranks) */
  int syncs;
  int yield;      /* oversubscribed node: yield the core while waiting */
} mg_clock;

/* Collective over comm (a private duplicate). nfit estimates of npp ping-pongs each. */
int mg_clock_sync(mg_clock *c, MPI_Comm comm, int nfit, int npp);
double mg_clock_to_global(const mg_clock *c, double t_local);
double mg_clock_to_local(const mg_clock *c, double t_global);
/* Wait until the global clock reaches t_global (sleeping while far away, then
 * spinning). Returns 1 if the start was missed: the time had passed on entry,
 * or the wait ended more than tol after it (the rank was not scheduled). */
int mg_clock_wait(const mg_clock *c, double t_global, double tol);

/* One synchronisation step of a barrier-type method on `comm` (a private
 * duplicate of the benchmark communicator): barrier, double barrier or the
 * dissemination barrier. */
int mg_sync_step(mg_sync_method m, MPI_Comm comm);

#endif
