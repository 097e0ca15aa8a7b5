/*
 * One batch of interleaved rounds (engine.c says how a measurement is taken
 * and synchronised): the per-rank measurements of every slot, the one
 * MPI_Allreduce that closes the batch and gives every rank the same
 * latencies, late and failed flags, and the rows kept per series.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "registry/algorithms.h"
#include "bench/sync.h"
#include "bench/order.h"
#include "bench/run.h"
#include "bench/sample.h"

/* ---------- rows ---------- */

/* A non-blocking collective's row as the benchmark measures it: the post and MPI_Wait (its
 * completion time); a measure-only composition has waited for its parts and returns no request.
 * The scratch a one-call row keeps until completion (src/algs/nbc.c, mg_nbc_kept) is freed after
 * the wait. */
int mg_batch_run_nbc(mg_call *c, int alg) {
  MPI_Request q = MPI_REQUEST_NULL;
  c->req = &q;
  int rc = mg_run(c, alg);
  if (rc == MPI_SUCCESS && q != MPI_REQUEST_NULL) rc = PMPI_Wait(&q, MPI_STATUS_IGNORE);
  mg_nbc_free(mg_nbc_kept);
  mg_nbc_kept = NULL;
  c->req = NULL;
  return rc;
}

static int series_push(mg_bench_series *s, double lat, long round, long rep, int warm, int valid) {
  if (s->n == s->cap) {
    long nc = s->cap ? 2 * s->cap : 64;
    double *l = realloc(s->lat, (size_t)nc * sizeof *l);
    if (l) s->lat = l;
    long *r = realloc(s->round, (size_t)nc * sizeof *r);
    if (r) s->round = r;
    long *p = realloc(s->rep, (size_t)nc * sizeof *p);
    if (p) s->rep = p;
    unsigned char *w = realloc(s->warmup, (size_t)nc);
    if (w) s->warmup = w;
    unsigned char *v = realloc(s->valid, (size_t)nc);
    if (v) s->valid = v;
    if (!l || !r || !p || !w || !v) return -1;
    s->cap = nc;
  }
  s->lat[s->n] = lat;
  s->round[s->n] = round;
  s->rep[s->n] = rep;
  s->warmup[s->n] = (unsigned char)warm;
  s->valid[s->n] = (unsigned char)valid;
  s->n++;
  if (warm) s->nwarm++;
  else if (valid) s->nvalid++;
  else s->ninvalid++;
  return 0;
}

void mg_batch_series_clear(mg_bench_series *s) {
  free(s->lat);
  free(s->round);
  free(s->rep);
  free(s->warmup);
  free(s->valid);
  s->lat = NULL;
  s->round = s->rep = NULL;
  s->warmup = s->valid = NULL;
  s->n = s->cap = s->nwarm = s->nvalid = s->ninvalid = 0;
}

/* Valid, non-warm-up latencies of s into R->vals; returns how many (-1: no memory). */
long mg_batch_valid_values(run *R, const mg_bench_series *s, int warm) {
  if (s->n > R->vcap) {
    double *v = realloc(R->vals, (size_t)s->n * sizeof *v);
    if (!v) return -1;
    R->vals = v;
    R->vcap = s->n;
  }
  long m = 0;
  for (long i = 0; i < s->n; i++)
    if (s->valid[i] && s->warmup[i] == warm) R->vals[m++] = s->lat[i];
  return m;
}

static int ensure_batch(run *R, long slots) {
  if (slots <= R->cap) return 0;
  free(R->ts), free(R->te), free(R->red), free(R->late), free(R->err), free(R->slot_v), free(R->slot_round);
  R->ts = malloc((size_t)slots * sizeof *R->ts);
  R->te = malloc((size_t)slots * sizeof *R->te);
  R->red = malloc((size_t)(4 * slots + 3) * sizeof *R->red);
  R->late = malloc((size_t)slots * sizeof *R->late);
  R->err = malloc((size_t)slots * sizeof *R->err);
  R->slot_v = malloc((size_t)slots * sizeof *R->slot_v);
  R->slot_round = malloc((size_t)slots * sizeof *R->slot_round);
  R->cap = R->ts && R->te && R->red && R->late && R->err && R->slot_v && R->slot_round ? slots : 0;
  return R->cap ? 0 : -1;
}

/* ---------- one batch ---------- */

/* The CPU time of this process, s. The speed probe of the time estimate (eta.h): MPI libraries poll
 * while they wait, so a rank uses a whole CPU while it runs and its wall time per CPU second says
 * how much of one it gets: 2 on 4 ranks sharing 2 cores, more when other work loads the machine,
 * whatever the call measured (a barrier's time instead grew with the message size before it). */
static double cpu_seconds(void) {
  struct timespec ts;
  return clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) == 0 ? (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec : 0;
}

/* A start counts as on time within the clock's accuracy (at least 1 us), or
 * within the tolerance asked for. */
double mg_batch_tolerance(const run *R) {
  if (R->cfg->window_tol > 0) return R->cfg->window_tol;
  return R->clock.err > 1e-6 ? R->clock.err : 1e-6;
}

double mg_batch_median(double *v, long n) {
  mg_sort_doubles(v, n);
  return mg_median_sorted(v, n);
}

static int abort_out_of_memory(run *R) {
  fprintf(stderr, "mpiguide bench: out of memory (rank %d)\n", R->rank);
  return PMPI_Abort(R->comm, 1);
}

/* The start of the next window batch, agreed from g, the latest global time
 * of any rank: one window w, four synchronisations and 100 us later. */
static double lead_start(const run *R, double g, double w) { return g + w + 4 * R->res->sync_cost + 100e-6; }

/* Clock-based methods with no start agreed yet (the first batch, or after a
 * resync): one reduction over all ranks. */
static int agree_start(run *R, double w) {
  double g = mg_clock_to_global(&R->clock, R->now());
  int rc = PMPI_Allreduce(MPI_IN_PLACE, &g, 1, MPI_DOUBLE, MPI_MAX, R->scomm);
  if (rc != MPI_SUCCESS) return rc;
  R->next_start = lead_start(R, g, w);
  return MPI_SUCCESS;
}

/* The measurements of one batch, local times and return codes into R's
 * slots: `rounds` rounds, variant i in the first want[i] of them, in shuffled
 * order if asked. w: the slot length of clock-based methods. */
static int measure_slots(run *R, mg_bench_block *B, const mg_call *c, const int *act, int nact, const long *want,
                         long rounds, mg_sync_method m, double w) {
  int rc, clocked = mg_sync_uses_clock(m);
  double tol = mg_batch_tolerance(R);
  int order[MG_BENCH_MAX_SERIES];
  long k = 0;
  mg_call call = *c; /* the call of the round: its root rotates (cfg->roots) */
  for (long r = 0; r < rounds; r++) {
    if (mg_colls[c->coll].rooted) call.root = mg_bench_root(R->cfg, c->coll, B->rounds + r);
    if (R->cfg->in_place) mg_bench_round_call(R, c, call.root, &call);
    int no = 0;
    for (int i = 0; i < nact; i++)
      if (want[i] > r) order[no++] = i;
    if (R->cfg->shuffle) mg_shuffle_ints(order, no, &R->rng);
    for (int j = 0; j < no; j++, k++) {
      int i = order[j];
      int alg = B->series[act[i]].alg;
      double t0, t1;
      int rc2;
      int lv = mg_lv_is(alg) ? alg - MG_LV_ALG0 : -1; /* a library variant: switched on around its call */
      if (lv >= 0 && (rc = mg_lv_begin(R->cfg->libvars, &call, lv)) != MPI_SUCCESS) return rc;
      R->late[k] = 0;
      /* a persistent row's request, made (agreed over the ranks) outside the timed part */
      if (lv < 0 && mg_colls[call.coll].algs[alg].family == MG_FAM_PERSISTENT &&
          (rc = mg_persistent_prepare(&call)) != MPI_SUCCESS)
        return rc;
      if (clocked) {
        R->late[k] = mg_clock_wait(&R->clock, R->next_start + (double)k * w, tol);
      } else if ((rc = mg_sync_step(m, R->scomm)) != MPI_SUCCESS) {
        return rc;
      }
      t0 = R->now();
      rc = mg_coll_is_p2p(call.coll) ? mg_pattern_run(&call, alg, R->cfg->pattern, B->rounds + r)
           : mg_coll_is_nbc(call.coll) ? mg_batch_run_nbc(&call, lv >= 0 ? 0 : alg)
                                       : mg_run(&call, lv >= 0 ? 0 : alg);
      t1 = R->now();
      if (lv >= 0 && (rc2 = mg_lv_end(R->cfg->libvars, &call, c->comm)) != MPI_SUCCESS) return rc2;
      R->ts[k] = t0;
      R->te[k] = t1;
      R->err[k] = rc;
      R->slot_v[k] = i;
      R->slot_round[k] = B->rounds + r;
    }
  }
  return MPI_SUCCESS;
}

/* One reduction: per slot [duration or global end, -global start, late,
 * error], elapsed, clock, and the speed probe (eta.h): the wall time per CPU second of the rank that
 * got the smallest share of a CPU during the batch. Every rank then holds the same R->red. */
static int reduce_slots(run *R, long slots, int global, int clocked, double w) {
  double *red = R->red;
  for (long s = 0; s < slots; s++) {
    red[4 * s] = global ? mg_clock_to_global(&R->clock, R->te[s]) : R->te[s] - R->ts[s];
    red[4 * s + 1] = global ? -mg_clock_to_global(&R->clock, R->ts[s]) : 0;
    red[4 * s + 2] = R->late[s];
    red[4 * s + 3] = R->err[s] != MPI_SUCCESS;
  }
  red[4 * slots] = R->now() - R->t0;
  red[4 * slots + 1] = R->use_clock ? mg_clock_to_global(&R->clock, R->now()) : 0;
  red[4 * slots + 2] = R->probe;
  if (slots * 4 + 3 > INT32_MAX) return MPI_ERR_COUNT;
  int rc = PMPI_Allreduce(MPI_IN_PLACE, red, (int)(4 * slots + 3), MPI_DOUBLE, MPI_MAX, R->scomm);
  if (rc != MPI_SUCCESS) return rc;
  R->probe = red[4 * slots + 2];
  R->elapsed = red[4 * slots];
  R->next_start = clocked ? lead_start(R, red[4 * slots + 1], w) : 0;
  return MPI_SUCCESS;
}

/* The agreed latency of slot s (after reduce_slots). */
static double slot_latency(const run *R, long s, int global) {
  return global ? R->red[4 * s] + R->red[4 * s + 1] : R->red[4 * s];
}

static int slot_late(const run *R, long s) { return R->red[4 * s + 2] > 0; }

/* failed[i]: variant i failed on some rank; its note says where. */
static void find_failed(run *R, mg_bench_block *B, const int *act, long slots, int *failed) {
  for (long s = 0; s < slots; s++)
    if (R->red[4 * s + 3] > 0) {
      int i = R->slot_v[s];
      if (!failed[i]) {
        mg_bench_series *se = &B->series[act[i]];
        char es[MPI_MAX_ERROR_STRING] = "";
        int len = 0;
        if (R->err[s] != MPI_SUCCESS && PMPI_Error_string(R->err[s], es, &len) == MPI_SUCCESS)
          snprintf(se->note, sizeof se->note, "failed: the algorithm returned an MPI error on rank %d: %s",
                   R->rank, es);
        else
          snprintf(se->note, sizeof se->note, "failed: the algorithm returned an MPI error on another rank");
      }
      failed[i] = 1;
    }
}

/* The rows of the variants that did not fail; *nlate: their late starts.
 * Returns -1 when out of memory. */
static int push_rows(run *R, mg_bench_block *B, const int *act, int nact, long slots, int warm, int global,
                     const int *failed, int *nlate) {
  long rep[MG_BENCH_MAX_SERIES];
  for (int i = 0; i < nact; i++) {
    mg_bench_series *se = &B->series[act[i]];
    rep[i] = warm ? se->nwarm : se->nvalid + se->ninvalid;
  }
  *nlate = 0;
  for (long s = 0; s < slots; s++) {
    int i = R->slot_v[s];
    if (failed[i]) continue;
    int valid = !slot_late(R, s);
    *nlate += !valid;
    if (series_push(&B->series[act[i]], slot_latency(R, s, global), R->slot_round[s], rep[i]++, warm, valid) != 0)
      return -1;
  }
  return 0;
}

/* roundtime: size the next slots from this batch's valid latencies. Missed
 * starts grow the slot by half, up to 8 times what the latencies ask for:
 * misses caused by descheduling do not go away with longer slots. */
static void resize_roundtime(run *R, int nact, long slots, int global, const int *failed, int nlate, double *w) {
  double worst = 0, tol = mg_batch_tolerance(R);
  double *v = malloc((size_t)slots * sizeof *v);
  for (int i = 0; v && i < nact; i++) {
    if (failed[i]) continue;
    long nv = 0;
    for (long s = 0; s < slots; s++)
      if (R->slot_v[s] == i && !slot_late(R, s)) v[nv++] = slot_latency(R, s, global);
    double med = nv ? mg_batch_median(v, nv) : 0;
    if (med > worst) worst = med;
  }
  free(v);
  if (worst > 0) R->rt_base = R->cfg->window_factor * worst;
  double base = R->rt_base, nw = base;
  if (4 * nlate > slots) nw = 1.5 * *w < 8 * base ? 1.5 * *w : 8 * base;
  if (nw > 1) nw = 1;
  *w = nw > MG_MIN_SLOT(tol) ? nw : MG_MIN_SLOT(tol);
}

/* Variants that failed anywhere are dropped from the block. */
static void drop_failed(mg_bench_block *B, int *act, int *nact, const int *failed) {
  int keep = 0;
  for (int i = 0; i < *nact; i++) {
    mg_bench_series *se = &B->series[act[i]];
    if (failed[i]) {
      mg_batch_series_clear(se);
      se->status = MG_SERIES_FAILED;
    } else {
      act[keep++] = act[i];
    }
  }
  *nact = keep;
}

/*
 * Run `want[i]` measurements of each active variant act[i] of block B in
 * interleaved rounds, then reduce. m: the synchronisation used (warm-up of a
 * clock-based method uses MPI_Barrier: the window is not known yet).
 * *w: slot length for clock-based methods (roundtime: updated).
 */
int mg_batch_run(run *R, mg_bench_block *B, const mg_call *c, int *act, int *nact, const long *want,
                     int warm, mg_sync_method m, double *w) {
  long rounds = 0, slots = 0;
  for (int i = 0; i < *nact; i++) {
    if (want[i] > rounds) rounds = want[i];
    slots += want[i];
  }
  if (slots == 0) return MPI_SUCCESS;
  if (ensure_batch(R, slots) != 0) return abort_out_of_memory(R);
  int rc, clocked = mg_sync_uses_clock(m), global = R->cfg->time == MG_TIME_GLOBAL;
  if (clocked && R->next_start == 0 && (rc = agree_start(R, *w)) != MPI_SUCCESS) return rc;
  double c0 = cpu_seconds(), w0 = R->now();
  if ((rc = measure_slots(R, B, c, act, *nact, want, rounds, m, *w)) != MPI_SUCCESS) return rc;
  double c1 = cpu_seconds(), w1 = R->now();
  /* wall per CPU second of this rank, over the last ~2 s of batches rather than this batch: over a
   * batch of a few ms a rank gets a whole time slice or none, so the ratio of one batch, and the
   * largest over the ranks, is mostly noise (load ~17: 18-35 from batch to batch in one cell) */
  if (w1 > w0 && c1 >= c0) {
    double keep = exp(-(w1 - w0) / 2.0);
    R->probe_w = R->probe_w * keep + (w1 - w0), R->probe_c = R->probe_c * keep + (c1 - c0);
  }
  R->probe = R->probe_c > 0 ? R->probe_w / R->probe_c : 0;
  B->rounds += rounds;
  if ((rc = reduce_slots(R, slots, global, clocked, *w)) != MPI_SUCCESS) return rc;

  int failed[MG_BENCH_MAX_SERIES] = {0}, nlate;
  find_failed(R, B, act, slots, failed);
  if (push_rows(R, B, act, *nact, slots, warm, global, failed, &nlate) != 0) return abort_out_of_memory(R);
  if (!warm) R->res->invalid += nlate;
  if (m == MG_SYNC_ROUNDTIME && !warm) resize_roundtime(R, *nact, slots, global, failed, nlate, w);
  drop_failed(B, act, nact, failed);
  return MPI_SUCCESS;
}

