/*
 * `bench --overlap` (overlap_run.h): per (collective, size) the pure, cpu, overall and blocking variants
 * measured interleaved after the engine's synchronisation steps, with the computation calibrated
 * to the pure time and agreed over the ranks. The buffers and datatypes are the engine's
 * (mg_bench_make_call), the non-blocking call the nonblocking family's (mg_nonblocking_start).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algs/algs.h"
#include "bench/order.h"
#include "bench/overlap_run.h"
#include "bench/run.h"
#include "bench/sample.h"

/* ---------- the computation ---------- */

/* Where the busy loop's result goes, so the compiler keeps the loop. */
static volatile double sink;

/* Dummy work: a dependent chain of multiply-adds on one register, no memory traffic, no system
 * call (a sleep would let MPI's progress thread, or the OS, use the core: not a computation). */
static double busy(long iters, double x) {
  for (long i = 0; i < iters; i++) x = x * 0.9999999 + 1e-7;
  return x;
}

/* This rank's busy-loop iterations per second: the fastest of 5 timings of >= 2 ms each. */
static double busy_rate(mg_now_fn now) {
  long n = 1000;
  double best = 0;
  for (int t = 0; t < 5; t++) {
    double d;
    for (;;) {
      double t0 = now();
      sink = busy(n, sink);
      d = now() - t0;
      if (d >= 2e-3) break;
      n *= 2;
    }
    if ((double)n / d > best) best = (double)n / d;
  }
  return best;
}

/* One measurement of variant v (k: MPI_Test calls of overall) of call c on this rank. */
static int run_variant(const mg_call *c, int v, int k, long iters) {
  if (v == MG_OVL_CPU) {
    sink = busy(iters, sink);
    return MPI_SUCCESS;
  }
  if (v == MG_OVL_BLOCKING) { /* the library's own blocking call (the registry's row 0), then the work */
    int rc = mg_colls[c->coll].algs[0].fn(c);
    sink = busy(iters, sink);
    return rc;
  }
  MPI_Request q;
  int rc = mg_nonblocking_start(c, &q), flag;
  if (rc != MPI_SUCCESS) return rc;
  if (v == MG_OVL_OVERALL) {
    double x = sink;
    long done = 0;
    for (int j = 0; j <= k; j++) { /* k + 1 equal chunks, a test between two */
      long upto = (long)((double)iters * (j + 1) / (k + 1));
      x = busy(upto - done, x);
      done = upto;
      if (j < k && rc == MPI_SUCCESS) rc = PMPI_Test(&q, &flag, MPI_STATUS_IGNORE);
    }
    sink = x;
  }
  int rc2 = PMPI_Wait(&q, MPI_STATUS_IGNORE);
  return rc != MPI_SUCCESS ? rc : rc2;
}

/* ---------- one cell ---------- */

typedef struct slot {
  int v, k; /* variant, test count */
} slot;

typedef struct ovl_run {
  run R; /* the engine's run state: cfg, comm, scomm, rank, size, now, datatypes */
  const mg_ovl_cfg *oc;
  mg_ovl_result *res;
  slot var[MG_OVL_MAXK + 3];
  int nvar;
  double *dur, *red; /* per measurement of a batch: local duration; the reduction buffer */
  int *err, *vi;
  long *round;
  long cap;
} ovl_run;

static int ensure(ovl_run *O, long n) {
  if (n <= O->cap) return 0;
  free(O->dur), free(O->red), free(O->err), free(O->vi), free(O->round);
  O->dur = malloc((size_t)n * sizeof *O->dur);
  O->red = malloc((size_t)(2 * n + 1) * sizeof *O->red);
  O->err = malloc((size_t)n * sizeof *O->err);
  O->vi = malloc((size_t)n * sizeof *O->vi);
  O->round = malloc((size_t)n * sizeof *O->round);
  O->cap = O->dur && O->red && O->err && O->vi && O->round ? n : 0;
  return O->cap ? 0 : -1;
}

/*
 * `rounds` rounds; in round r each variant i with want[i] > r once (shuffled if asked), every
 * measurement after a synchronisation step; then one reduction (max of durations and error flags,
 * and the elapsed time) and the rows. *round0: the cell's round counter; rep[i]: variant i's row
 * counter. *failed: set (the same on every rank) when a call failed on some rank.
 */
static int batch(ovl_run *O, mg_ovl_cell *C, const mg_call *c0, const long *want, long rounds, int warm, long *round0,
                 long *rep, long iters, int *failed) {
  run *R = &O->R;
  long slots = 0;
  for (int i = 0; i < O->nvar; i++) slots += want[i] < rounds ? want[i] : rounds;
  if (ensure(O, slots)) return PMPI_Abort(R->comm, 1);
  int order[MG_OVL_MAXK + 3], rc;
  long s = 0;
  mg_call call = *c0;
  for (long r = 0; r < rounds; r++) {
    long rr = *round0 + r;
    if (mg_colls[c0->coll].rooted) call.root = mg_bench_root(R->cfg, c0->coll, rr);
    if (R->cfg->in_place) mg_bench_round_call(R, c0, call.root, &call);
    int no = 0;
    for (int i = 0; i < O->nvar; i++)
      if (want[i] > r) order[no++] = i;
    if (R->cfg->shuffle) mg_shuffle_ints(order, no, &R->rng);
    for (int j = 0; j < no; j++, s++) {
      int i = order[j];
      if ((rc = mg_sync_step(R->cfg->sync, R->scomm)) != MPI_SUCCESS) return rc;
      double t0 = R->now();
      O->err[s] = run_variant(&call, O->var[i].v, O->var[i].k, iters);
      O->dur[s] = R->now() - t0;
      O->vi[s] = i, O->round[s] = rr;
    }
  }
  *round0 += rounds;
  for (long j = 0; j < slots; j++) O->red[2 * j] = O->dur[j], O->red[2 * j + 1] = O->err[j] != MPI_SUCCESS;
  O->red[2 * slots] = R->now() - R->t0;
  if ((rc = PMPI_Allreduce(MPI_IN_PLACE, O->red, (int)(2 * slots + 1), MPI_DOUBLE, MPI_MAX, R->scomm)) != MPI_SUCCESS)
    return rc;
  R->elapsed = O->red[2 * slots];
  for (long j = 0; j < slots; j++) {
    if (O->red[2 * j + 1] > 0) {
      if (!*failed) {
        char es[MPI_MAX_ERROR_STRING] = "another rank's call";
        int len;
        if (O->err[j] != MPI_SUCCESS) PMPI_Error_string(O->err[j], es, &len);
        snprintf(C->note, sizeof C->note, "failed: %s returned an MPI error (%s)",
                 mg_ovl_variant_name(O->var[O->vi[j]].v), es);
      }
      *failed = 1;
    }
    const slot *v = &O->var[O->vi[j]];
    mg_ovl_row row = {v->v, v->v == MG_OVL_OVERALL ? v->k : -1, O->round[j], rep[O->vi[j]]++, warm, 1, O->red[2 * j]};
    if (mg_ovl_push(C, &row)) return PMPI_Abort(R->comm, 1);
  }
  C->failed = *failed;
  return MPI_SUCCESS;
}

/* The valid, non-warm-up durations of variant i of C into v; their number. */
static long values_of(const ovl_run *O, const mg_ovl_cell *C, int i, double *v) {
  long n = 0;
  for (long j = 0; j < C->n; j++) {
    const mg_ovl_row *r = &C->rows[j];
    if (!r->warmup && r->valid && r->variant == O->var[i].v && (r->variant != MG_OVL_OVERALL || r->tests == O->var[i].k))
      v[n++] = r->sec;
  }
  return n;
}

static int measure_cell(ovl_run *O, mg_ovl_cell *C, mg_coll coll, size_t bytes) {
  run *R = &O->R;
  const mg_bench_cfg *cfg = R->cfg;
  mg_bench_block B;
  memset(&B, 0, sizeof B);
  B.coll = coll, B.bytes = bytes, B.dtype = cfg->dtype, B.op = mg_colls[coll].reduction ? cfg->op : NULL;
  B.count = (long)(bytes / (size_t)cfg->dtype->size);
  snprintf(C->coll, sizeof C->coll, "%s", mg_colls[coll].name);
  snprintf(C->dtype, sizeof C->dtype, "%s", cfg->dtype->name);
  snprintf(C->op, sizeof C->op, "%s", B.op ? B.op->name : "");
  C->root = mg_colls[coll].rooted ? mg_bench_root(cfg, coll, 0) : -1;
  C->bytes = bytes, C->count = B.count, C->nprocs = R->size;
  int fail = 0, failed = 0, rc;
  mg_call c;
  void *mem = mg_bench_make_call(R, &B, &c, &fail);
  double *v = NULL;
  if ((rc = PMPI_Allreduce(MPI_IN_PLACE, &fail, 1, MPI_INT, MPI_MAX, R->scomm)) != MPI_SUCCESS) goto out;
  if (fail) {
    C->failed = 1;
    snprintf(C->note, sizeof C->note, "skipped: cannot allocate the buffers");
    goto out;
  }
  if ((rc = mg_call_prepare(&c)) != MPI_SUCCESS) goto out;
  long round = 0, rep[MG_OVL_MAXK + 3] = {0}, want[MG_OVL_MAXK + 3] = {0};
  /* 1. pilot of pure: t_pure for the calibration, from its second half (the first calls of a
   * collective set up connections and schedules: MPICH's first ones are many times slower) */
  long npilot = 2 * (cfg->warmup > 5 ? cfg->warmup : 5);
  want[0] = npilot; /* var[0] is pure */
  if ((rc = batch(O, C, &c, want, npilot, 1, &round, rep, 0, &failed)) != MPI_SUCCESS || failed) goto out;
  v = malloc((size_t)(C->n + 1) * sizeof *v);
  if (!v) {
    rc = PMPI_Abort(R->comm, 1);
    goto out;
  }
  long nv = 0;
  for (long j = npilot / 2; j < C->n; j++) v[nv++] = C->rows[j].sec;
  double tp = mg_batch_median(v, nv); /* equal on every rank: the rows are reduced */
  /* 2. calibration: the same iterations everywhere, the most any rank needs for t_pure */
  long iters = (long)ceil(tp * O->res->rate_max);
  if (iters < 1) iters = 1;
  C->iters = iters;
  /* 3. warm-up rounds, then measured batches by the repetition rule of each variant */
  for (int i = 0; i < O->nvar; i++) want[i] = cfg->warmup;
  if (cfg->warmup > 0 && (rc = batch(O, C, &c, want, cfg->warmup, 1, &round, rep, iters, &failed)) != MPI_SUCCESS)
    goto out;
  for (int i = 0; i < O->nvar; i++) rep[i] = 0;
  mg_rep_state st[MG_OVL_MAXK + 3];
  for (int i = 0; i < O->nvar; i++) mg_rep_init(&cfg->rep, &st[i], 0);
  double mstart = R->elapsed;
  while (!failed) {
    long rounds = 0;
    for (int i = 0; i < O->nvar; i++) {
      want[i] = mg_rep_want(&cfg->rep, &st[i], cfg->batch > 0 ? cfg->batch : 1);
      if (want[i] > rounds) rounds = want[i];
    }
    if (rounds == 0) break;
    if ((rc = batch(O, C, &c, want, rounds, 0, &round, rep, iters, &failed)) != MPI_SUCCESS) goto out;
    double *nvv = realloc(v, (size_t)(C->n + 1) * sizeof *v);
    if (!nvv) {
      rc = PMPI_Abort(R->comm, 1);
      goto out;
    }
    v = nvv;
    for (int i = 0; i < O->nvar; i++) {
      long n = values_of(O, C, i, v);
      mg_rep_update(&cfg->rep, &st[i], rep[i], v, n, (R->elapsed - mstart) / O->nvar);
    }
  }
out:
  free(v);
  mg_bench_free_call(mem);
  return rc;
}

/* ---------- the run ---------- */

int mg_ovl_has_nb(mg_coll coll) {
  for (int a = 1; a < mg_colls[coll].nalgs; a++)
    if (mg_colls[coll].algs[a].family == MG_FAM_NONBLOCKING) return 1;
  return 0;
}

/* One synchronisation step's cost: the median of 20, max over ranks. */
static int sync_cost(ovl_run *O) {
  run *R = &O->R;
  double d[20];
  int rc;
  for (int i = 0; i < 20; i++) {
    if ((rc = PMPI_Barrier(R->scomm)) != MPI_SUCCESS) return rc;
    double t0 = R->now();
    if ((rc = mg_sync_step(R->cfg->sync, R->scomm)) != MPI_SUCCESS) return rc;
    d[i] = R->now() - t0;
  }
  if ((rc = PMPI_Allreduce(MPI_IN_PLACE, d, 20, MPI_DOUBLE, MPI_MAX, R->scomm)) != MPI_SUCCESS) return rc;
  O->res->sync_cost = mg_batch_median(d, 20);
  return MPI_SUCCESS;
}

static void progress(ovl_run *O, int done, int total, const mg_ovl_cell *C) {
  const mg_bench_cfg *cfg = O->R.cfg;
  if (!cfg->progress) return;
  char what[128];
  snprintf(what, sizeof what, "overlap %s %zu B", C->coll, C->bytes);
  cfg->progress(total ? (double)done / total : 1, O->R.elapsed, what, cfg->arg);
}

int mg_overlap_run(const mg_bench_cfg *cfg, const mg_ovl_cfg *oc, mg_ovl_result *res) {
  ovl_run O0, *O = &O0;
  run *R = &O->R;
  int rc;
  memset(O, 0, sizeof *O);
  memset(res, 0, sizeof *res);
  O->oc = oc, O->res = res;
  R->cfg = cfg, R->comm = cfg->comm, R->now = mg_timer_fn(cfg->timer), R->rng = cfg->seed, R->scomm = MPI_COMM_NULL;
  PMPI_Comm_rank(R->comm, &R->rank);
  PMPI_Comm_size(R->comm, &R->size);
  R->t0 = R->now();
  O->var[O->nvar++] = (slot){MG_OVL_PURE, -1};
  O->var[O->nvar++] = (slot){MG_OVL_CPU, -1};
  for (int i = 0; i < oc->ntests; i++) O->var[O->nvar++] = (slot){MG_OVL_OVERALL, oc->tests[i]};
  O->var[O->nvar++] = (slot){MG_OVL_BLOCKING, -1};
  int total = 0;
  for (int ci = 0; ci < cfg->ncolls; ci++)
    for (int si = 0; si < cfg->nsizes; si++)
      total += cfg->colls[ci] == MG_BARRIER ? si == 0 : cfg->sizes[si] % (size_t)cfg->dtype->size == 0;
  res->cells = calloc((size_t)total + 1, sizeof *res->cells);
  if (!res->cells) return PMPI_Abort(R->comm, 1);

  MPI_Errhandler old;
  if ((rc = PMPI_Comm_get_errhandler(R->comm, &old)) != MPI_SUCCESS) return rc;
  if ((rc = PMPI_Comm_set_errhandler(R->comm, MPI_ERRORS_RETURN)) != MPI_SUCCESS) return rc;
  mg_scratch_fold(mg_bench_fold_buffers()); /* as mg_bench_run */
  if ((rc = PMPI_Comm_dup(R->comm, &R->scomm)) != MPI_SUCCESS) goto restore;
  if ((rc = mg_bench_build_types(R)) != MPI_SUCCESS) goto out;
  double rates[2];
  rates[0] = busy_rate(R->now);
  rates[1] = -rates[0];
  if ((rc = PMPI_Allreduce(MPI_IN_PLACE, rates, 2, MPI_DOUBLE, MPI_MAX, R->scomm)) != MPI_SUCCESS) goto out;
  res->rate_max = rates[0], res->rate = -rates[1];
  if ((rc = sync_cost(O)) != MPI_SUCCESS) goto out;
  for (int ci = 0; ci < cfg->ncolls; ci++)
    for (int si = 0; si < cfg->nsizes; si++) {
      mg_coll coll = cfg->colls[ci];
      if (coll == MG_BARRIER ? si > 0 : cfg->sizes[si] % (size_t)cfg->dtype->size != 0) continue;
      mg_ovl_cell *C = &res->cells[res->ncells++];
      if ((rc = measure_cell(O, C, coll, coll == MG_BARRIER ? 0 : cfg->sizes[si])) != MPI_SUCCESS) goto out;
      progress(O, res->ncells, total, C);
    }
out:
  res->elapsed = R->now() - R->t0;
  mg_bench_free_types(R);
  if (R->scomm != MPI_COMM_NULL) PMPI_Comm_free(&R->scomm);
  free(O->dur), free(O->red), free(O->err), free(O->vi), free(O->round);
restore:
  mg_scratch_fold(0);
  PMPI_Comm_set_errhandler(R->comm, old);
  PMPI_Errhandler_free(&old);
  return rc;
}

void mg_ovl_result_free(mg_ovl_result *res) {
  for (int i = 0; i < res->ncells; i++) mg_ovl_cell_free(&res->cells[i]);
  free(res->cells);
  memset(res, 0, sizeof *res);
}
