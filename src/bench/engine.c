/*
 * The measurement loop (bench.h): blocks of (collective, size), variants
 * measured in interleaved rounds, batches of rounds closed by one reduction.
 *
 * One measurement on one rank:
 *   barrier-type sync:  sync step; t0 = now; run the algorithm; t1 = now
 *   window / roundtime: wait for the slot start on the global clock (late if
 *                       it has passed already); t0 = now; run; t1 = now
 * The slot of measurement k of a batch starts at batch_start + k w. The batch
 * start is agreed in the previous batch's reduction (the latest global time
 * of any rank plus a lead), so no extra communication is needed. roundtime
 * sizes w from the previous batch (factor x the largest median latency,
 * doubled when a start was missed); window keeps w fixed.
 *
 * The reduction after a batch (one MPI_Allreduce, MAX, on a private
 * duplicate of the communicator) carries per measurement: the local duration
 * (or the global end and minus the global start), the late flag and whether
 * the algorithm returned an error; and the elapsed time. Every rank then
 * holds the same latencies and takes the same decisions.
 *
 * A variant whose algorithm returns an error on any rank is dropped from the
 * block (status FAILED, its rows removed): the measurements would be of
 * something else than the algorithm.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algs/algs.h"
#include "algs/comm_records.h"
#include "algs/rma_window.h"
#include "bench/sync.h"
#include "bench/run.h"
#include "bench/order.h"
#include "bench/sample.h"

_Static_assert(MG_NCOLL < MG_ETA_KEYS, "eta.h keys its costs by collective");


/* Without --in-place a row of the in-place family is the default itself: skipped, not measured. */
static void skip_in_place_rows(const mg_bench_cfg *cfg, mg_bench_block *B) {
  for (int i = 0; i < B->nseries && !cfg->in_place; i++)
    if (!mg_lv_is(B->series[i].alg) && mg_colls[B->coll].algs[B->series[i].alg].family == MG_FAM_INPLACE) {
      B->series[i].status = MG_SERIES_SKIPPED;
      snprintf(B->series[i].note, sizeof B->series[i].note,
               "skipped: an in-place row, measured only with --in-place (a regular call through it is the default)");
    }
}

/* ---------- one block ---------- */

static double block_fraction(const mg_bench_cfg *cfg, const mg_rep_state *st, int nact) {
  if (nact == 0) return 1;
  double f = 0;
  for (int i = 0; i < nact; i++) {
    double x;
    if (st[i].stop != MG_STOP_NONE) x = 1;
    else if (st[i].target > 0) x = (double)st[i].n / (double)st[i].target;
    else if (cfg->rep.mode == MG_REP_TIME) x = st[i].wall / cfg->rep.time_per;
    else x = (double)st[i].n / (double)cfg->rep.max_nrep;
    f += x > 1 ? 1 : x;
  }
  return f / nact;
}

/* The variants of B that apply to call c, into act[] (their count returned);
 * the others are marked skipped with the reason. A mock-up of a collective
 * whose size not every rank knows decides late (mg_late_ok): one call of it
 * tells, the same on every rank (an error shows again when it is measured). */
static int applicable_series(mg_bench_block *B, const mg_call *c, mg_pattern pattern, int *act) {
  int nact = 0;
  for (int i = 0; i < B->nseries; i++) {
    if (B->series[i].status == MG_SERIES_SKIPPED) continue; /* skip_in_place_rows, mg_bench_skip_sim_defects */
    const char *no = mg_coll_is_p2p(c->coll) ? mg_pattern_refuses(c->coll, B->series[i].alg, pattern, c->size) : NULL;
    if (no) { /* the same on every rank */
      B->series[i].status = MG_SERIES_SKIPPED;
      snprintf(B->series[i].note, sizeof B->series[i].note, "skipped: %s (pattern %s)", no, mg_pattern_name(pattern));
      continue;
    }
    int alg = mg_lv_is(B->series[i].alg) ? 0 : B->series[i].alg; /* a library variant runs the MPI call */
    mg_why why = mg_applicable(c, alg, SIZE_MAX);
    if (why == MG_WHY_NONE && alg &&
        (!mg_colls[c->coll].known || mg_colls[c->coll].algs[B->series[i].alg].family == MG_FAM_HIER)) {
      mg_late = (mg_late_state){SIZE_MAX, MG_WHY_NONE};
      if (mg_coll_is_nbc(c->coll)) { /* posted on a request of its own, and completed */
        mg_call t = *c;
        (void)mg_batch_run_nbc(&t, B->series[i].alg);
      } else {
        (void)mg_run(c, B->series[i].alg);
      }
      why = mg_late.why;
    }
    if (alg && mg_colls[c->coll].algs[alg].family == MG_FAM_RMA && (why == MG_WHY_NONE || mg_why_measurable(why))) {
      /* no window here (rma_window.c): the row would run the default. Asked of the window, agreed on
       * every rank, not by a trial call: the point-to-point row needs its receiver at once */
      mg_rma_rec *w = NULL;
      mg_late = (mg_late_state){SIZE_MAX, MG_WHY_NONE};
      if (mg_rma_window(c, c->bytes, &w) == MPI_SUCCESS && !w) why = mg_late.why;
    }
    if (why == MG_WHY_NO_PROGRESS && alg) { /* a schedule, its rounds in the call: a repair where the thread runs it */
      snprintf(B->series[i].note, sizeof B->series[i].note,
               "a schedule, measured round after round; libmpiguide runs it with MPIGUIDE_PROGRESS=thread");
      why = MG_WHY_NONE;
    }
    if (why != MG_WHY_NONE && mg_why_measurable(why) && alg) { /* measured; tune never chooses it here */
      B->series[i].measure_only = 1;
      snprintf(B->series[i].note, sizeof B->series[i].note, "measure only (%s): a timing, no repair for this call",
               mg_why_key(why));
      why = MG_WHY_NONE;
    }
    if (why != MG_WHY_NONE) {
      B->series[i].status = MG_SERIES_SKIPPED;
      snprintf(B->series[i].note, sizeof B->series[i].note, "skipped: %s", mg_why_str(why));
    } else {
      act[nact++] = i;
    }
  }
  return nact;
}

/* Auto window: factor x the slowest median warm-up latency, at least the
 * shortest slot. */
static double auto_window(run *R, mg_bench_block *B, const int *act, int nact) {
  double worst = 0;
  for (int i = 0; i < nact; i++) {
    long nv = mg_batch_valid_values(R, &B->series[act[i]], 1);
    if (nv > 0) {
      double med = mg_batch_median(R->vals, nv);
      if (med > worst) worst = med;
    }
  }
  double w = R->cfg->window_factor * worst, tol = mg_batch_tolerance(R);
  return w < MG_MIN_SLOT(tol) ? MG_MIN_SLOT(tol) : w;
}

/* Before the measurements of block B: resynchronise the clock (refreshes the
 * model, measures its drift), run the warm-up batch and size the window.
 * *w: the slot length of clock-based methods. */
static int warm_up(run *R, mg_bench_block *B, const mg_call *c, int *act, int *nact, double *w) {
  const mg_bench_cfg *cfg = R->cfg;
  int rc, clocked = mg_sync_uses_clock(cfg->sync);
  if (R->use_clock && R->clock.syncs > 0) {
    int nf = cfg->clock_fits / 4 > 2 ? cfg->clock_fits / 4 : 2;
    if ((rc = mg_clock_sync(&R->clock, R->scomm, nf, cfg->clock_pingpongs)) != MPI_SUCCESS) return rc;
    R->next_start = 0;
  }
  *w = cfg->window;
  if (cfg->warmup > 0) {
    long want[MG_BENCH_MAX_SERIES];
    for (int i = 0; i < *nact; i++) want[i] = cfg->warmup;
    rc = mg_batch_run(R, B, c, act, nact, want, 1, clocked ? MG_SYNC_BARRIER : cfg->sync, w);
    if (rc != MPI_SUCCESS) return rc;
  }
  if (clocked && *w == 0) *w = auto_window(R, B, act, *nact);
  B->window = clocked ? *w : 0;
  return MPI_SUCCESS;
}

/* The repetition state of each variant; t1: as for run_block. */
static void init_reps(run *R, mg_bench_block *B, const double *t1, const int *act, int nact, mg_rep_state *st) {
  const mg_bench_cfg *cfg = R->cfg;
  for (int i = 0; i < nact; i++) {
    int alg = mg_lv_is(B->series[act[i]].alg) ? 0 : B->series[act[i]].alg; /* a library variant: the default's */
    double b = t1 ? (t1[alg] > 0 ? t1[alg] : t1[0]) : 0;
    mg_rep_init(&cfg->rep, &st[i], b);
    B->series[act[i]].t1 = cfg->rep.mode == MG_REP_PAPER ? b : 0;
  }
}

/* After run_batch dropped variants: keep st[] aligned with act[] (before:
 * act[] as it was, nb entries). */
static void realign_reps(const int *before, int nb, const int *act, int nact, mg_rep_state *st) {
  int j = 0;
  for (int i = 0; i < nb; i++)
    if (j < nact && act[j] == before[i]) st[j++] = st[i];
}

/* Feed each variant's valid latencies so far to its repetition rule; the
 * wall time since mstart is shared among the variants. */
static int update_reps(run *R, mg_bench_block *B, const mg_rep_cfg *rep, const int *act, int nact, mg_rep_state *st,
                       double mstart) {
  const mg_bench_cfg *cfg = R->cfg;
  int first[MG_BENCH_MAX_ROOTS]; /* a rotating root's distinct roots: the exact stop's groups */
  int nd = rep->exact_min > 0 ? mg_bench_rotation_roots(cfg, B, first) : 0;
  for (int i = 0; i < nact; i++) {
    mg_bench_series *se = &B->series[act[i]];
    long nv = mg_batch_valid_values(R, se, 0);
    if (nv < 0) return PMPI_Abort(R->comm, 1);
    mg_rep_update(rep, &st[i], se->nvalid + se->ninvalid, R->vals, nv, (R->elapsed - mstart) / nact);
    if (nd > 1 && st[i].stop == MG_STOP_NONE && nv >= rep->exact_min) {
      int *g = malloc((size_t)nv * sizeof *g); /* R->vals' order: the valid measured rows' */
      if (!g) return PMPI_Abort(R->comm, 1);
      for (long r = 0, m = 0; r < se->n && m < nv; r++) {
        if (!se->valid[r] || se->warmup[r]) continue;
        int root = mg_bench_root(cfg, B->coll, se->round[r]), k = 0;
        while (k < nd - 1 && cfg->roots[first[k]] != root) k++;
        g[m++] = k;
      }
      mg_rep_exact_groups(rep, &st[i], R->vals, g, nv, nd);
      free(g);
    }
  }
  return MPI_SUCCESS;
}

/* The repetition rule of block B: the run's, with the exact stop's count (2 per root of the
 * rotation, rep.h) taken as 2 for a collective without a root, which has one time, not one per root. */
static mg_rep_cfg block_rep(const mg_bench_cfg *cfg, const mg_bench_block *B) {
  mg_rep_cfg rep = cfg->rep;
  if (rep.exact_min > 2 && !mg_colls[B->coll].rooted) rep.exact_min = 2;
  return rep;
}

/* Batches until every variant's repetition rule stops (or the budget since
 * `start` is spent), then each series' stop reason and RSE. */
static int measure_block(run *R, mg_bench_block *B, const mg_call *c, const double *t1, double budget,
                         double start, int *act, int nact, double w) {
  const mg_bench_cfg *cfg = R->cfg;
  int rc, clocked = mg_sync_uses_clock(cfg->sync);
  long want[MG_BENCH_MAX_SERIES];
  mg_rep_state st[MG_BENCH_MAX_SERIES];
  double mstart = R->elapsed; /* measuring starts: the wall time of a TIME budget */
  R->rt_base = w;
  init_reps(R, B, t1, act, nact, st);
  mg_rep_cfg rep = block_rep(cfg, B);
  int seq = cfg->stop_decided && cfg->rep.mode == MG_REP_RSE;
  for (;;) {
    long rounds = 0, per = cfg->batch > 0 ? cfg->batch : 1;
    if (seq) per = mg_bench_seq_rounds(R, B, act, nact, st, per); /* the batch ends on a look's point */
    for (int i = 0; i < nact; i++) {
      want[i] = mg_rep_want(&rep, &st[i], per);
      if (want[i] > rounds) rounds = want[i];
    }
    if (rounds == 0) break;
    int before[MG_BENCH_MAX_SERIES], nb = nact;
    memcpy(before, act, (size_t)nb * sizeof *act);
    double batch_start = R->elapsed;
    if ((rc = mg_batch_run(R, B, c, act, &nact, want, 0, cfg->sync, &w)) != MPI_SUCCESS) return rc;
    if (nact != nb) realign_reps(before, nb, act, nact, st);
    if ((rc = update_reps(R, B, &rep, act, nact, st, mstart)) != MPI_SUCCESS) return rc;
    if (seq && (rc = mg_bench_seq_stop(R, B, act, nact, st)) != MPI_SUCCESS) return rc;
    if (budget > 0 && R->elapsed - start >= budget) {
      for (int i = 0; i < nact; i++)
        if (st[i].stop == MG_STOP_NONE && st[i].n > 0) st[i].stop = MG_STOP_BUDGET;
      B->budget_hit = 1;
    }
    if (clocked) B->window = w;
    mg_eta_probe(R->eta, R->probe, mg_eta_class((int)B->coll, (double)B->bytes), R->elapsed - batch_start);
    R->slower_sum += mg_eta_slower(R->eta), R->slower_n++;
    mg_bench_progress(R, B, block_fraction(cfg, st, nact));
  }
  for (int i = 0; i < nact; i++) {
    mg_bench_series *se = &B->series[act[i]];
    se->stop = st[i].stop;
    long nv = mg_batch_valid_values(R, se, 0);
    se->rse = nv > 0 ? mg_rse(R->vals, nv, cfg->rep.stat) : INFINITY;
  }
  return MPI_SUCCESS;
}

/*
 * Measure block B (coll, bytes, count set; series[].alg set). t1: PAPER
 * budgets per algorithm (NULL or 0 entries: calibration rule).
 * budget: seconds this block may take (0: no limit).
 */
static int run_block(run *R, mg_bench_block *B, const double *t1, double budget) {
  int rc, fail, act[MG_BENCH_MAX_SERIES], nact;
  mg_call c, c1; /* c1: the call of round 0, which decides what applies */
  double start = R->elapsed, w;
  void *mem = mg_bench_make_call(R, B, &c, &fail);
  if ((rc = PMPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, R->scomm)) != MPI_SUCCESS) goto out;
  if (fail) {
    for (int i = 0; i < B->nseries; i++) {
      B->series[i].status = MG_SERIES_SKIPPED;
      snprintf(B->series[i].note, sizeof B->series[i].note, "skipped: cannot allocate the buffers");
    }
    goto out;
  }
  if ((rc = mg_call_prepare(&c)) != MPI_SUCCESS) goto out;
  skip_in_place_rows(R->cfg, B);
  if ((rc = mg_bench_skip_sim_defects(B, &c)) != MPI_SUCCESS) goto out;
  c1 = c;
  if (R->cfg->in_place) mg_bench_round_call(R, &c, c.root, &c1);
  if ((nact = applicable_series(B, &c1, R->cfg->pattern, act)) == 0) goto out;
  if ((rc = warm_up(R, B, &c, act, &nact, &w)) != MPI_SUCCESS) goto out;
  rc = measure_block(R, B, &c, t1, budget, start, act, nact, w);
out:
  mg_persistent_release(R->comm); /* the persistent rows' requests, before their buffers go */
  mg_bench_free_call(mem);
  B->elapsed = R->elapsed - start;
  return rc;
}

/* ---------- the run ---------- */

static void init_block(const mg_bench_cfg *cfg, mg_bench_block *B, mg_coll coll, size_t bytes, mg_bench_red red) {
  memset(B, 0, sizeof *B);
  B->coll = coll;
  B->bytes = bytes;
  B->dtype = red.dtype;
  B->op = red.op;
  B->count = (long)(bytes / (size_t)red.dtype->size);
  for (int a = 0; a < mg_colls[coll].nalgs; a++)
    if (cfg->algmask[coll] & (1u << a)) B->series[B->nseries++].alg = a;
  for (int k = 0; cfg->libvars && k < MG_LV_MAX; k++)
    if (cfg->libvars->mask[coll] & (1u << k)) B->series[B->nseries++].alg = MG_LV_ALG0 + k;
}

static void free_block(mg_bench_block *B) {
  for (int i = 0; i < B->nseries; i++) mg_batch_series_clear(&B->series[i]);
}

/* PAPER: t1 of each algorithm measured in B, the sum of its valid latencies. */
static void set_t1(run *R, const mg_bench_block *B, double *t1) {
  for (int i = 0; i < B->nseries; i++)
    if (B->series[i].status == MG_SERIES_OK) {
      long nv = mg_batch_valid_values(R, &B->series[i], 0);
      double s = 0;
      for (long j = 0; j < nv; j++) s += R->vals[j];
      if (!mg_lv_is(B->series[i].alg)) t1[B->series[i].alg] = s;
    }
}

/* PAPER, smallest size above one element: t1 from a block at one element,
 * not kept. */
static int calibrate(run *R, mg_coll coll, double *t1) {
  mg_bench_block cal;
  init_block(R->cfg, &cal, coll, (size_t)R->cfg->dtype->size, mg_bench_red_of(R->cfg, coll, 0));
  double zero[MG_MAX_ALGS] = {0};
  int rc = run_block(R, &cal, zero, 0);
  set_t1(R, &cal, t1);
  R->work_done += mg_bench_block_work(R->cfg, coll, cal.bytes);
  free_block(&cal);
  R->blocks_done++;
  return rc;
}

/* Seconds the next block may take: an equal share of what is left of the
 * total time (0: no limit). */
static double block_budget(const run *R) {
  if (R->cfg->time_total <= 0) return 0;
  int left = R->blocks_total - R->blocks_done;
  double budget = (R->cfg->time_total - R->elapsed) / (left > 0 ? left : 1);
  return budget <= 0 ? 1e-9 : budget; /* out of time: one batch per variant */
}

/* The kept block of coll at size index si with (datatype, op) pair k; t1: PAPER budgets (NULL
 * otherwise), set here when the first size is one element. */
static int measure_size(run *R, mg_coll coll, int si, int k, double *t1) {
  const mg_bench_cfg *cfg = R->cfg;
  int paper = cfg->rep.mode == MG_REP_PAPER;
  mg_bench_block *B = &R->res->blocks[R->res->nblocks++];
  init_block(cfg, B, coll, mg_bench_block_bytes(cfg, coll, si), mg_bench_red_of(cfg, coll, k));
  double budget = block_budget(R);
  int calibrating = paper && si == 0 && cfg->sizes[0] == (size_t)cfg->dtype->size;
  double zero[MG_MAX_ALGS] = {0};
  mg_bench_eta_next_block(R, coll, si, k, budget);
  int rc = run_block(R, B, paper ? (calibrating ? zero : t1) : NULL, budget);
  if (calibrating) set_t1(R, B, t1);
  mg_bench_eta_block_done(R, B);
  R->blocks_done++;
  R->work_done += mg_bench_block_work(cfg, coll, B->bytes);
  if (rc != MPI_SUCCESS) return rc;
  mg_bench_progress(R, B, 0);
  if (cfg->block_done) cfg->block_done(R->res, cfg->arg);
  return MPI_SUCCESS;
}

/* Every (collective, size) block, in the order of the configuration. */
static int measure_all(run *R) {
  const mg_bench_cfg *cfg = R->cfg;
  mg_bench_result *res = R->res;
  int rc, paper = cfg->rep.mode == MG_REP_PAPER;
  R->blocks_total = 0;
  for (int ci = 0; ci < cfg->ncolls; ci++)
    for (int si = 0; si < cfg->nsizes; si++)
      for (int k = 0; k < mg_bench_nreds(cfg, cfg->colls[ci]); k++) R->blocks_total += mg_bench_measured(cfg, cfg->colls[ci], si, k);
  res->blocks = calloc((size_t)R->blocks_total + 1, sizeof *res->blocks);
  if (!res->blocks) return PMPI_Abort(R->comm, 1);
  R->work_total = mg_bench_work(cfg);
  if (paper)
    for (int ci = 0; ci < cfg->ncolls; ci++) R->blocks_total += cfg->sizes[0] != (size_t)cfg->dtype->size;
  for (int ci = 0; ci < cfg->ncolls; ci++) {
    mg_coll coll = cfg->colls[ci];
    double *t1 = paper ? res->t1[coll] : NULL;
    if (paper && cfg->sizes[0] != (size_t)cfg->dtype->size && (rc = calibrate(R, coll, t1)) != MPI_SUCCESS)
      return rc;
    for (int si = 0; si < cfg->nsizes; si++)
      for (int k = 0; k < mg_bench_nreds(cfg, coll); k++)
        if (mg_bench_measured(cfg, coll, si, k) && (rc = measure_size(R, coll, si, k, t1)) != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

/* The engine's set-up of a communicator, kept with it (comm_records.h) for every later run on it
 * (issue 50): the duplicate the synchronisation runs on, so that it never matches the measured calls'
 * messages, and how many ranks share the node. Under SimGrid SMPI a communicator's creation is
 * what costs at scale (docs/scale.md: one MPI_Comm_dup 82 CPU-s at 1024 simulated ranks), and a check
 * runs the engine once per size list of its collectives, a verify once per configuration. Freed with
 * the communicator, or by mg_bench_finalize before MPI_Finalize. Every rank of comm calls the engine
 * together, so all find the record or none does. */
typedef struct comm_setup {
  mg_record rec;
  MPI_Comm scomm;
  int nlocal;
} comm_setup;

static void setup_free(mg_record *r) {
  comm_setup *s = (comm_setup *)r;
  if (s->scomm != MPI_COMM_NULL) PMPI_Comm_free(&s->scomm);
  free(s);
}

static mg_records setups = MG_RECORDS_INIT(setup_free);

void mg_bench_finalize(void) { mg_records_finalize(&setups); }

static int comm_setup_get(MPI_Comm comm, comm_setup **out) {
  mg_record *r;
  int rc = mg_records_find(&setups, comm, &r);
  if (rc != MPI_SUCCESS || (*out = (comm_setup *)r)) return rc;
  comm_setup *s = calloc(1, sizeof *s);
  if (!s) return PMPI_Abort(comm, 1);
  s->scomm = MPI_COMM_NULL;
  s->nlocal = 1;
  MPI_Comm node;
  if ((rc = PMPI_Comm_dup(comm, &s->scomm)) == MPI_SUCCESS &&
      (rc = PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node)) == MPI_SUCCESS) {
    PMPI_Comm_size(node, &s->nlocal);
    PMPI_Comm_free(&node);
    rc = mg_records_add(&setups, comm, &s->rec);
  }
  if (rc != MPI_SUCCESS) return setup_free(&s->rec), rc;
  *out = s;
  return MPI_SUCCESS;
}

/* The clocks before any block: whether ranks share cores (then waits yield),
 * the global clock if used, and the cost of one synchronisation step. */
static int prepare_clocks(run *R) {
  const mg_bench_cfg *cfg = R->cfg;
  int rc;
  R->use_clock = cfg->time == MG_TIME_GLOBAL || mg_sync_uses_clock(cfg->sync);
  R->clock.now = R->now;
  int nlocal = R->nlocal;
  long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
  R->clock.yield = ncpu > 0 && nlocal > ncpu;
  if (R->use_clock) {
    if ((rc = mg_clock_sync(&R->clock, R->scomm, cfg->clock_fits, cfg->clock_pingpongs)) != MPI_SUCCESS)
      return rc;
  }
  return mg_bench_sync_cost(R);
}

int mg_bench_run(const mg_bench_cfg *cfg, mg_bench_result *res) {
  run R;
  int rc;
  memset(&R, 0, sizeof R);
  memset(res, 0, sizeof *res);
  R.cfg = cfg;
  R.res = res;
  R.comm = cfg->comm;
  R.now = mg_timer_fn(cfg->timer);
  R.rng = cfg->seed;
  R.scomm = MPI_COMM_NULL;
  PMPI_Comm_rank(R.comm, &R.rank);
  PMPI_Comm_size(R.comm, &R.size);
  R.t0 = R.now();
  R.eta = cfg->eta ? cfg->eta : &R.own_eta;
  if (!cfg->eta) mg_eta_init(R.eta);
  mg_eta_set_cap(R.eta, cfg->rep.mode == MG_REP_RSE ? (double)(cfg->rep.max_nrep + (cfg->warmup > 0 ? cfg->warmup : 0)) : 0);
  R.eta_future = NAN;

  MPI_Errhandler old;
  if ((rc = PMPI_Comm_get_errhandler(R.comm, &old)) != MPI_SUCCESS) return rc;
  if ((rc = PMPI_Comm_set_errhandler(R.comm, MPI_ERRORS_RETURN)) != MPI_SUCCESS) return rc;
  mg_scratch_fold(mg_bench_fold_buffers()); /* the mock-ups' data scratch folded with the buffers (SMPI) */
  comm_setup *cs;
  if ((rc = comm_setup_get(R.comm, &cs)) != MPI_SUCCESS) goto restore;
  R.scomm = cs->scomm, R.nlocal = cs->nlocal;
  if ((rc = mg_bench_build_types(&R)) != MPI_SUCCESS) goto out;
  if ((rc = prepare_clocks(&R)) != MPI_SUCCESS) goto out;
  if (cfg->libvars && (rc = mg_lv_open(cfg->libvars, R.comm)) != MPI_SUCCESS) goto out;
  if ((rc = measure_all(&R)) != MPI_SUCCESS) goto out;
  res->clock_used = R.use_clock;
  res->clock_err = R.clock.err;
  res->clock_rtt = R.use_clock ? R.clock.rtt : 0;
  res->clock_syncs = R.clock.syncs;
out:
  res->elapsed = R.now() - R.t0;
  mg_pattern_free();
  if (cfg->libvars) mg_lv_close(cfg->libvars);
  mg_bench_free_types(&R);
  free(R.ts), free(R.te), free(R.red), free(R.late), free(R.err), free(R.slot_v), free(R.slot_round);
  free(R.vals);
restore:
  mg_scratch_fold(0);
  PMPI_Comm_set_errhandler(R.comm, old);
  PMPI_Errhandler_free(&old);
  return rc;
}

void mg_bench_result_free(mg_bench_result *res) {
  for (int b = 0; b < res->nblocks; b++) free_block(&res->blocks[b]);
  free(res->blocks);
  memset(res, 0, sizeof *res);
}
