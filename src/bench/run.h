/*
 * The state of one run of the measurement engine, shared by engine.c (blocks
 * and the run) and batch.c (the measurements of a batch of rounds and the one
 * reduction that closes it). Internal to src/bench.
 */
#ifndef MG_BENCH_RUN_H
#define MG_BENCH_RUN_H

#include <stdint.h>

#include "bench/eta.h"
#include "bench/sync.h"

/* Shortest start slot: the bookkeeping between two measurements and the
 * start tolerance (>= 1 us) must fit in it. */
#define MG_MIN_SLOT(tol) (4 * (tol))

typedef struct run {
  const mg_bench_cfg *cfg;
  mg_bench_result *res;
  MPI_Comm comm, scomm;
  int nlocal;               /* ranks of comm on this rank's node (the engine's set-up, engine.c) */
  int rank, size;
  mg_now_fn now;
  int use_clock;
  mg_clock clock;
  double t0;            /* local time at the start, for elapsed */
  double elapsed;       /* last agreed elapsed time (max over ranks) */
  double next_start;    /* agreed global start of the next window batch; 0: none */
  double rt_base;       /* roundtime: slot asked for by the latest valid latencies */
  uint64_t rng;
  int blocks_total, blocks_done;
  double work_total, work_done; /* expected work (mg_bench_work) of all blocks, of those done */
  /* the time left (eta.h): costs learned from the blocks done, the machine's speed from the probe */
  mg_eta *eta;          /* cfg->eta, or own_eta */
  mg_eta own_eta;
  double probe;         /* wall time per CPU second of this rank over the last seconds (batch.c); after a
                           batch's reduction: the largest (0: none) */
  double probe_w, probe_c; /* its wall and CPU seconds, each decayed by exp(-t / 2 s) */
  double block_start;   /* elapsed when the current block began */
  double slower_sum;    /* slowness summed over the current block's batches */
  long slower_n;
  double eta_future;    /* start-speed seconds of the blocks after the current one; NAN: not known yet */
  double block_share;   /* the current block's budget (block_budget; 0: none): the estimate's cut */
  int at_ci, at_si, at_k; /* the current block's place in measure_all's order */
  /* per-batch scratch */
  long cap;
  double *ts, *te, *red;
  int *late, *err, *slot_v;
  long *slot_round;
  double *vals; /* valid latencies of one series */
  long vcap;
  /* the MPI datatypes of the run's datatypes (cfg->dtype, each --reductions one), built once */
  int ndts;
  const mg_dtype_info *dt_info[MG_BENCH_MAX_REDS + 1];
  MPI_Datatype dt_handle[MG_BENCH_MAX_REDS + 1];
} run;

/* batch.c, as engine.c uses it: */
/* The valid latencies of s (warm-up ones or the others) into R->vals; their number. */
long mg_batch_valid_values(run *R, const mg_bench_series *s, int warm);
double mg_batch_median(double *v, long n); /* sorts v */
/* A start counts as on time within the clock's accuracy (at least 1 us), or the tolerance asked for. */
double mg_batch_tolerance(const run *R);
/* Measure want[i] rounds of each active variant act[0..*nact) of B, interleaved; failed variants
 * leave act. w: the slot length of clock-based methods (roundtime: updated). An MPI code. */
int mg_batch_run(run *R, mg_bench_block *B, const mg_call *c, int *act, int *nact, const long *want, int warm,
                 mg_sync_method m, double *w);
void mg_batch_series_clear(mg_bench_series *s);
/* Row alg of non-blocking collective c posted on a request of its own and waited for, its arrays
 * freed (the benchmark's call of a non-blocking row; c->req is left NULL). */
int mg_batch_run_nbc(mg_call *c, int alg);
/* sync_cost.c: res->sync_cost, sync_cost_min and sync_skew (cfg->sync_cost_reps steps). An MPI code. */
int mg_bench_sync_cost(run *R);
/* seq_engine.c, as engine.c uses it (cfg->stop_decided, MG_REP_RSE): after a batch, the variants
 * act[0..nact) of B whose comparison with the default is decided get st[i].stop = MG_STOP_DECIDED,
 * the default too once every other variant stopped. An MPI code (an abort when out of memory). */
int mg_bench_seq_stop(run *R, const mg_bench_block *B, const int *act, int nact, mg_rep_state *st);
/* seq_engine.c: before a batch, its rounds: `batch`, or as many as end it on the next point of the
 * schedule (seq.h) of an open comparison of B when that is near (within about 1.5 batches; further
 * away, equal batches of about `batch` that land on it), so each look reads exactly its point's values. */
/* The distinct roots of B's rotation (0 when it has none or one): their first index in cfg->roots
 * (seq_engine.c; the sequential looks and the exact stop group the values by them). */
int mg_bench_rotation_roots(const mg_bench_cfg *cfg, const mg_bench_block *B, int *first);
long mg_bench_seq_rounds(const run *R, const mg_bench_block *B, const int *act, int nact, const mg_rep_state *st,
                         long batch);
/* engine.c, as batch.c uses it: call := c with the root `root` (rooted collectives), in its
 * in-place form when the run is (mg_bench_cfg.in_place). */
void mg_bench_round_call(const run *R, const mg_call *c, int root, mg_call *call);
/* engine.c, as overlap_run.c uses it too: the run's MPI datatypes (built once, freed at the end), and
 * the buffers and descriptor of a call of block B (coll, bytes, count, dtype, op set): the region
 * to free, or NULL with *fail set when this rank cannot allocate it. */
int mg_bench_build_types(run *R);
void mg_bench_free_types(run *R);
void *mg_bench_make_call(run *R, const mg_bench_block *B, mg_call *c, int *fail);
/* Free what mg_bench_make_call returned (NULL: nothing). */
void mg_bench_free_call(void *mem);
/* 1 where the data buffers are SMPI_SHARED_MALLOC's (the SMPI build, unless MPIGUIDE_SIM_BUFFERS=real). */
int mg_bench_fold_buffers(void);

/* Under SimGrid's SMPI: mark the series of B that the simulation's selector is known to break for
 * call c as skipped, with the reason (sim_defects.c); nothing in a build for a real MPI. The same
 * on every rank; collective over c->comm when a row's defect depends on the node layout. An MPI
 * code. */
int mg_bench_skip_sim_defects(mg_bench_block *B, const mg_call *c);

/* engine_eta.c: the blocks a run measures, their expected work, the time estimate, progress */
mg_bench_red mg_bench_red_of(const mg_bench_cfg *cfg, mg_coll coll, int k); /* coll's (datatype, op) pair k */
int mg_bench_measured(const mg_bench_cfg *cfg, mg_coll coll, int si, int k); /* size si holds whole elements */
size_t mg_bench_block_bytes(const mg_bench_cfg *cfg, mg_coll coll, int si);   /* a barrier's: 0 */
double mg_bench_block_work(const mg_bench_cfg *cfg, mg_coll coll, size_t bytes);
void mg_bench_eta_next_block(run *R, mg_coll coll, int si, int k, double budget);
void mg_bench_eta_block_done(run *R, const mg_bench_block *B);
void mg_bench_progress(run *R, const mg_bench_block *B, double frac);

#endif
