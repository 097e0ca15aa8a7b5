/*
 * Repetition control (pure C, no MPI): how many measurements to take of one
 * algorithm at one (collective, message size).
 *
 * Modes:
 *   FIXED  exactly nrep measurements.
 *   TIME   a time budget: until time_per seconds of wall-clock time were
 *          spent measuring this algorithm (its share of the rounds, with the
 *          synchronisation), at least min_nrep and at most max_nrep
 *          measurements, valid or not.
 *   RSE    adaptive: until the relative standard error of the chosen centre
 *          (median or mean, sample.h) of the valid measurements is <= rse,
 *          with at least min_nrep valid and at most max_nrep measurements.
 *   PAPER  the NREP estimation of Hunold & Carpen-Amarie, HPC Asia 2018, 4.2:
 *          at one element (1 byte with MPI_BYTE) measure with the RSE rule
 *          and let t1 be the time those measurements took (sum of latencies);
 *          for larger sizes take a pilot of K measurements, l_min their
 *          minimum, and nrep = max(ceil(t1 / l_min), K), capped at max_nrep.
 *
 * Counting: n counts every measurement taken, valid or not (a measurement
 * that missed its start window is invalid); statistics and budgets use the
 * valid ones. A caller that measures several algorithms interleaved asks
 * mg_rep_want() how many rounds each algorithm needs in the next batch and
 * calls mg_rep_update() after the batch; the decision depends only on the
 * latencies, so ranks holding the same (reduced) latencies decide the same.
 */
#ifndef MG_BENCH_REP_H
#define MG_BENCH_REP_H

#include "bench/sample.h"

typedef enum { MG_REP_FIXED, MG_REP_TIME, MG_REP_RSE, MG_REP_PAPER } mg_rep_mode;

/* Why an algorithm stopped being measured. */
typedef enum {
  MG_STOP_NONE,   /* not done */
  MG_STOP_NREP,   /* reached its planned count (FIXED, PAPER) */
  MG_STOP_RSE,    /* RSE target met */
  MG_STOP_TIME,   /* time_per spent */
  MG_STOP_MAX,    /* max_nrep reached first */
  MG_STOP_BUDGET, /* the run's total time budget for this block ran out */
  MG_STOP_DECIDED, /* its comparison with the default is decided (seq.h); the default: all of its
                      mock-ups stopped */
} mg_stop;

typedef struct mg_rep_cfg {
  mg_rep_mode mode;
  long nrep;          /* FIXED */
  double time_per;    /* TIME, seconds */
  double rse;         /* RSE, and PAPER at one element */
  mg_stat_kind stat;  /* centre whose RSE is used */
  long min_nrep;      /* valid measurements before the RSE/TIME rules may stop */
  long max_nrep;      /* hard upper bound (not used by FIXED) */
  long k;             /* PAPER: K, also the length of the pilot */
  long exact_min;     /* RSE on a deterministic platform (check under SMPI, docs/statistics.md "Exact
                         verdicts"): > 0 also stop, before min_nrep, once this many valid values are
                         one time (within MG_REP_EXACT_TOL); stop reason rse, its RSE 0. 0: off */
} mg_rep_cfg;

/* Valid values this close are one time for exact_min: raw.csv's 1 ns resolution and its rounding
 * (check.h's MG_CK_EXACT_TOL, which the analysis decides with, is the same). */
#define MG_REP_EXACT_TOL 1.5e-9

typedef struct mg_rep_state {
  long n, nvalid;
  double spent;   /* sum of the valid latencies, seconds */
  double wall;    /* wall-clock seconds spent measuring (TIME) */
  double t1;      /* PAPER: budget from one element; <= 0 while calibrating (RSE rule) */
  long target;    /* planned total when known (FIXED; PAPER after the pilot), else -1 */
  double rse;     /* last RSE computed (RSE mode, PAPER calibration) */
  mg_stop stop;   /* MG_STOP_NONE while more are needed */
  long seq_look;  /* check's stopping rule: the last look this series' comparison had (seq.h,
                     mg_seq_look_at); -1: none yet */
  long seq_dn;    /* the default's valid values at that look (a stopped default is read so, seq.h);
                     the default's own: its valid values at the last batch */
} mg_rep_state;

void mg_rep_init(const mg_rep_cfg *cfg, mg_rep_state *st, double t1);

/* Measurements to take in the next batch of at most `batch` rounds (0: done). */
long mg_rep_want(const mg_rep_cfg *cfg, const mg_rep_state *st, long batch);

/* After a batch: n measurements taken so far, valid[0..nvalid-1] the valid
 * latencies so far (any order), wall the wall-clock seconds spent measuring
 * this algorithm so far (equal on all ranks). Updates the state and decides
 * whether done. */
void mg_rep_update(const mg_rep_cfg *cfg, mg_rep_state *st, long n, const double *valid, long nvalid,
                   double wall);

/* The exact stop of a rotating root (exact_min > 0; the series' values v[0..n), v[i] at root index
 * group[i] of ng): every root has at least 2 values and each root's values are one time (within
 * MG_REP_EXACT_TOL); the roots' own times may differ. Then st stops (reason rse, its RSE 0) and 1
 * is returned. mg_rep_update's own check compares all the values, which at a rotating root on a
 * platform where the roots' times differ (256 ranks on a fat tree: 8.887 us at root 0, 17.015 us
 * at root 192) never holds. */
int mg_rep_exact_groups(const mg_rep_cfg *cfg, mg_rep_state *st, const double *v, const int *group, long n, int ng);

/* The paper's formula: max(ceil(t1 / lmin), k), capped at max_nrep. */
long mg_nrep_paper(double t1, double lmin, long k, long max_nrep);

const char *mg_rep_mode_name(mg_rep_mode mode); /* "fixed", "time", "rse", "paper" */
const char *mg_stop_name(mg_stop stop); /* "", "nrep", "rse", "time", "max", "budget", "decided" */

#endif
