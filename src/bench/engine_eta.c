/*
 * The measurement loop's time estimate and progress (engine.c; bench.h, eta.h): which blocks a run
 * measures and their expected work, the learned cost of the blocks still to come, and the progress
 * callback's fraction of the run's expected time.
 */
#include <math.h>
#include <stdio.h>

#include "bench/run.h"

/*
 * The expected work of a block, for progress by time rather than by blocks: its variants times
 * a cost that grows with the message size (1 + bytes / 16 KiB: a 1 MiB block weighs 65 small
 * ones, as measured here). Only shares matter; a preset's 4 and 8 MiB blocks at the end no
 * longer hold the line at 65 % while the ETA grows (seen with --full).
 */
double mg_bench_block_work(const mg_bench_cfg *cfg, mg_coll coll, size_t bytes) {
  return (double)__builtin_popcount(cfg->algmask[coll] | 1u) * (1.0 + (double)bytes / 16384.0);
}

/* The (datatype, op) pair k of coll's blocks. */
mg_bench_red mg_bench_red_of(const mg_bench_cfg *cfg, mg_coll coll, int k) {
  if (mg_colls[coll].reduction && cfg->nreds > 0) return cfg->reds[k];
  return (mg_bench_red){cfg->dtype, mg_colls[coll].reduction ? cfg->op : NULL};
}

/* Whether coll is measured at size si with pair k: the size holds whole elements of its datatype. */
int mg_bench_measured(const mg_bench_cfg *cfg, mg_coll coll, int si, int k) {
  if (coll == MG_BARRIER) return si == 0; /* no message: one block, whatever the sizes */
  return cfg->sizes[si] % (size_t)mg_bench_red_of(cfg, coll, k).dtype->size == 0;
}

/* The message size of coll's block at size index si: a barrier's is 0. */
size_t mg_bench_block_bytes(const mg_bench_cfg *cfg, mg_coll coll, int si) {
  return coll == MG_BARRIER ? 0 : cfg->sizes[si];
}

double mg_bench_work(const mg_bench_cfg *cfg) {
  double w = 0;
  for (int ci = 0; ci < cfg->ncolls; ci++) {
    if (cfg->rep.mode == MG_REP_PAPER && cfg->sizes[0] != (size_t)cfg->dtype->size)
      w += mg_bench_block_work(cfg, cfg->colls[ci], (size_t)cfg->dtype->size); /* calibration */
    for (int si = 0; si < cfg->nsizes; si++)
      for (int k = 0; k < mg_bench_nreds(cfg, cfg->colls[ci]); k++)
        if (mg_bench_measured(cfg, cfg->colls[ci], si, k)) w += mg_bench_block_work(cfg, cfg->colls[ci], mg_bench_block_bytes(cfg, cfg->colls[ci], si));
  }
  return w;
}

/* The variants of coll's blocks, as the time estimate counts them (eta.h). */
static int eta_variants(const mg_bench_cfg *cfg, mg_coll coll) { return __builtin_popcount(cfg->algmask[coll] | 1u); }

/* The values per variant of one batch with its warm-ups: the least a block measures, even out of
 * budget (block_budget). */
static double batch_values(const mg_bench_cfg *cfg) {
  return (double)(cfg->batch > 0 ? cfg->batch : 1) + (cfg->warmup > 0 ? cfg->warmup : 0);
}

/* The learned cost of coll's blocks from size index si with pair k on and of the collectives after
 * coll (the order of measure_all), at the starting speed; NAN while no block is done. share > 0: the
 * wall seconds each block gets of the budget (block_budget), the machine `slower` than at the start:
 * each block priced at most that, at least one batch (mg_eta_cost_budget). */
static double eta_from(const mg_bench_cfg *cfg, const mg_eta *e, mg_coll coll, int si, int k, double share,
                       double slower) {
  int ci0 = 0;
  while (ci0 < cfg->ncolls && cfg->colls[ci0] != coll) ci0++;
  double sum = 0;
  for (int ci = ci0; ci < cfg->ncolls; ci++)
    for (int s = ci == ci0 ? si : 0; s < cfg->nsizes; s++)
      for (int j = ci == ci0 && s == si ? k : 0; j < mg_bench_nreds(cfg, cfg->colls[ci]); j++)
        if (mg_bench_measured(cfg, cfg->colls[ci], s, j))
          sum += mg_eta_cost_budget(e, (int)cfg->colls[ci], (double)mg_bench_block_bytes(cfg, cfg->colls[ci], s),
                                    eta_variants(cfg, cfg->colls[ci]), share, slower, batch_values(cfg));
  return sum;
}

double mg_bench_eta_cost(const mg_bench_cfg *cfg, const mg_eta *eta, double share) {
  return cfg->ncolls > 0 ? eta_from(cfg, eta, cfg->colls[0], 0, 0, share, mg_eta_slower(eta)) : 0;
}

/* Before the block of coll at size index si with pair k (its budget share `budget`, block_budget):
 * the learned cost of the blocks after it, each with the same share. */
void mg_bench_eta_next_block(run *R, mg_coll coll, int si, int k, double budget) {
  const mg_bench_cfg *cfg = R->cfg;
  R->block_share = budget;
  R->eta_future = eta_from(cfg, R->eta, coll, si, k + 1, budget, mg_eta_slower(R->eta));
  if (cfg->eta_after) R->eta_future += cfg->eta_after(R->eta, budget, cfg->eta_arg);
  R->block_start = R->elapsed;
  R->slower_sum = 0, R->slower_n = 0;
}

/* After block B: its cost per value and its values per variant (warm-ups included), at the speed
 * the machine had meanwhile, into the estimate. */
void mg_bench_eta_block_done(run *R, const mg_bench_block *B) {
  double slower = R->slower_n ? R->slower_sum / (double)R->slower_n : mg_eta_slower(R->eta);
  double nval = 0;
  for (int i = 0; i < B->nseries; i++) nval += (double)(B->series[i].nwarm + B->series[i].nvalid + B->series[i].ninvalid);
  int nv = eta_variants(R->cfg, B->coll);
  mg_eta_block(R->eta, (int)B->coll, (double)B->bytes, nv, nval / nv, B->elapsed, slower);
}

/*
 * The progress callback: the fraction of the run's expected time. Once a block is done, the time
 * left is learned (eta.h): the current block's predicted cost less what it took so far, and the
 * blocks after it, at the machine's speed now; the fraction is elapsed / (elapsed + left), so a
 * caller's elapsed x (1 - f) / f is that time left. Before, the fixed weights of block_work. When
 * the machine is at least 1.2 x slower than at the start, `what` says so (read per cell, eta.h, the
 * slowness of an unchanged machine stays within ~15 % of 1).
 */
void mg_bench_progress(run *R, const mg_bench_block *B, double frac) {
  if (!R->cfg->progress) return;
  const mg_bench_cfg *cfg = R->cfg;
  char what[160];
  double slower = mg_eta_slower(R->eta);
  int n = snprintf(what, sizeof what, "%s %zu B", mg_colls[B->coll].name, B->bytes);
  if (slower >= 1.2 && n > 0 && (size_t)n < sizeof what)
    snprintf(what + n, sizeof what - (size_t)n, " (machine %.1fx slower than at start)", slower);
  double cur = mg_eta_cost_budget(R->eta, (int)B->coll, (double)B->bytes, eta_variants(cfg, B->coll), R->block_share,
                                  slower, batch_values(cfg)), f;
  double el = R->elapsed + (cfg->eta ? cfg->eta_elapsed_before : 0);
  if (isfinite(cur) && isfinite(R->eta_future) && el > 0) {
    double left = cur * slower - (R->elapsed - R->block_start);
    left = (left > 0 ? left : 0) + R->eta_future * slower;
    f = el / (el + left);
  } else if (cfg->eta) {
    f = 0; /* the whole's fraction is not known before a block is */
  } else {
    f = (R->work_done + frac * mg_bench_block_work(cfg, B->coll, B->bytes)) / R->work_total;
  }
  cfg->progress(f > 1 ? 1 : f, R->elapsed, what, cfg->arg);
}

