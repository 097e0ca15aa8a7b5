/*
 * Result output (output.h): metadata, raw rows, ReproMPI rows, summary.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/csv.h"
#include "bench/output.h"
#include "bench/run.h"
#include "bench/sample.h"
#include "mpiguide.h"

/* Who ran what where: the library, the processes, the host and the command. */
static void meta_launch(FILE *f, const mg_bench_meta *m, const char *command, const char *format) {
  mg_meta(f, "format", "%s", format);
  mg_meta(f, "mpiguide_version", "%s", MPIGUIDE_VERSION);
  mg_meta(f, "mpi_library_name", "%s", m->mpi_name);
  mg_meta(f, "mpi_library_version", "%s", m->mpi_library);
  mg_meta(f, "mpi_standard", "%s", m->mpi_standard);
  mg_meta(f, "nprocs", "%d", m->nprocs);
  mg_meta(f, "nnodes", "%d", m->nnodes);
  if (m->rpn_min == m->rpn_max) mg_meta(f, "ranks_per_node", "%d", m->rpn_min);
  else mg_meta(f, "ranks_per_node", "%d-%d", m->rpn_min, m->rpn_max);
  mg_meta(f, "hostname", "%s", m->hostname);
  if (m->hosts[0]) mg_meta(f, "hosts", "%s", m->hosts); /* HOST:RANKS per node */
  if (m->hosts_shared[0]) mg_meta(f, "hosts_shared", "%s", m->hosts_shared); /* contradicted by the names */
  if (m->cpu_model[0]) mg_meta(f, "cpu_model", "%s", m->cpu_model); /* with hosts: the machine (docs/check.md) */
  if (m->launcher[0]) mg_meta(f, "launcher", "%s", m->launcher);
  mg_meta(f, "date", "%s", m->date);
  mg_meta(f, "launch", "%s", m->launch);
  mg_meta(f, "command", "%s", command);
  const char *sim = getenv("MPIGUIDE_NODE_SIZE"); /* the hier rows' nodes are simulated: timings mean nothing */
  if (sim && *sim) mg_meta(f, "simulated_node_size", "%s", sim);
  if (m->simulated) { /* SimGrid SMPI: part of the configuration's identity (docs/scale.md) */
    mg_meta(f, "simulated", "1");
    mg_meta(f, "platform", "%s", m->sim_platform);
    mg_meta(f, "selector", "%s", m->sim_selector);
    mg_meta(f, "simulated_buffers", "%s", mg_bench_fold_buffers() ? "shared" : "real"); /* engine.c: memory folded */
  }
}

void mg_bench_write_meta_launch(FILE *f, const mg_bench_meta *m, const char *command, const char *format) {
  meta_launch(f, m, command, format);
}

/* The collectives, then per collective its algorithms and size definition. */
static void meta_colls(FILE *f, const mg_bench_cfg *cfg) {
  char buf[2048];
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < cfg->ncolls; i++)
    used +=
        (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? "," : "", mg_colls[cfg->colls[i]].name);
  mg_meta(f, "collectives", "%s", buf);
  for (int i = 0; i < cfg->ncolls; i++) {
    mg_coll c = cfg->colls[i];
    used = (size_t)snprintf(buf, sizeof buf, "%s:", mg_colls[c].name);
    int first = 1;
    for (int a = 0; a < mg_colls[c].nalgs && used < sizeof buf; a++)
      if (cfg->algmask[c] & (1u << a)) {
        used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", first ? "" : ",",
                                 mg_bench_alg_name(c, a));
        first = 0;
      }
    mg_meta(f, "algorithms", "%s", buf);
    mg_meta(f, "size_definition", "%s: %s", mg_colls[c].name, mg_colls[c].size_def);
  }
  if (cfg->libvars) { /* the library's own variants (docs/libvar.md): what was chosen, and how */
    mg_lv_describe(cfg->libvars, buf, sizeof buf);
    mg_meta(f, "lib_variants", "%s", buf);
    mg_meta(f, "lib_variants_source", "%s %s", mg_lv_kind_name(cfg->libvars->lib->kind), cfg->libvars->lib->source);
    mg_lv_describe_values(cfg->libvars, buf, sizeof buf);
    mg_meta(f, "lib_variant_values", "%s", buf);
    mg_lv_describe_params(cfg->libvars, buf, sizeof buf);
    if (*buf) mg_meta(f, "lib_variant_params", "%s", buf);
  }
}

/* The sizes and the arguments of the calls (op and root empty when no
 * collective takes them). */
static void meta_arguments(FILE *f, const mg_bench_cfg *cfg) {
  char buf[2048];
  size_t used = 0;
  buf[0] = '\0';
  for (int i = 0; i < cfg->nsizes && used < sizeof buf; i++)
    used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%zu", i ? "," : "", cfg->sizes[i]);
  mg_meta(f, "sizes_bytes", "%s", buf);
  mg_meta(f, "datatype", "%s", cfg->dtype->name);
  mg_meta(f, "datatype_size", "%d", cfg->dtype->size);
  if (cfg->dtype->kind != MG_DK_PREDEFINED) mg_meta(f, "datatype_extent", "%zu", mg_dtype_extent(cfg->dtype));
  int anyred = 0, anyroot = 0;
  for (int i = 0; i < cfg->ncolls; i++) {
    anyred |= mg_colls[cfg->colls[i]].reduction;
    anyroot |= mg_colls[cfg->colls[i]].rooted;
  }
  mg_meta(f, "op", "%s", anyred ? cfg->op->name : "");
  if (anyroot) mg_meta(f, "root", "%d", cfg->nroots > 0 ? cfg->roots[0] : cfg->root);
  else mg_meta(f, "root", "%s", "");
  if (anyroot && cfg->nroots > 0) { /* the rotation, in order */
    used = 0;
    for (int i = 0; i < cfg->nroots && used < sizeof buf; i++)
      used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%d", i ? "," : "", cfg->roots[i]);
    mg_meta(f, "roots", "%s", buf);
  }
  int anycounts = 0;
  for (int i = 0; i < cfg->ncolls; i++) anycounts |= mg_bench_has_counts(cfg->colls[i]);
  if (cfg->in_place) mg_meta(f, "in_place", "1"); /* every call in place (a file without it: none) */
  int anyp2p = 0;
  for (int i = 0; i < cfg->ncolls; i++) anyp2p |= mg_coll_is_p2p(cfg->colls[i]);
  if (anyp2p) mg_meta(f, "pattern", "%s", mg_pattern_name(cfg->pattern)); /* how point-to-point was measured */
  if (anycounts) { /* how vectors are split into per-rank counts */
    mg_bench_counts_name(&cfg->counts, buf, sizeof buf);
    mg_meta(f, "counts", "%s", buf);
  }
  if (anyred && cfg->nreds > 0) { /* the reductions' (datatype, op) pairs */
    used = 0;
    for (int i = 0; i < cfg->nreds && used < sizeof buf; i++)
      used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s:%s", i ? "," : "", cfg->reds[i].dtype->name,
                               cfg->reds[i].op->name);
    mg_meta(f, "reductions", "%s", buf);
  }
}

/* The first field of a block's #@ lines: the collective, and for a reduction its datatype and op
 * ("allreduce:MPI_DOUBLE:MPI_SUM"), so blocks of several pairs stay apart. */
static const char *block_name(const mg_bench_block *B, char *buf, size_t len) {
  if (!B->op) return mg_colls[B->coll].name;
  snprintf(buf, len, "%s:%s:%s", mg_colls[B->coll].name, B->dtype->name, B->op->name);
  return buf;
}

/* Synchronisation, timer and global clock; the window of clock-based methods. */
static void meta_timing(FILE *f, const mg_bench_cfg *cfg, const mg_bench_result *res) {
  mg_meta(f, "sync", "%s", mg_sync_name(cfg->sync));
  mg_meta(f, "time", "%s", cfg->time == MG_TIME_GLOBAL ? "global" : "local");
  mg_meta(f, "timer", "%s", mg_timer_name(cfg->timer));
  mg_meta(f, "timer_resolution_sec", "%.3g", mg_timer_resolution(cfg->timer));
  mg_meta(f, "timer_granularity_sec", "%.3g", mg_timer_granularity(cfg->timer));
  mg_meta(f, "sync_cost_sec", "%.6g", res->sync_cost);
  mg_meta(f, "sync_cost_min_sec", "%.6g", res->sync_cost_min);
  mg_meta(f, "sync_skew_sec", "%.6g", res->sync_skew);
  mg_meta(f, "sync_cost_of", "%s", cfg->sync == MG_SYNC_DISSEM ? "dissemination barrier" : "MPI_Barrier");
  /* check --noise: the threshold its analysis used instead of the two above; a later analysis of
   * this file (check --from, tune, report) uses it too unless given another (check/data.c) */
  if (cfg->seq.noise > 0) mg_meta(f, "noise_sec", "%g", cfg->seq.noise);
  if (res->clock_used) {
    mg_meta(f, "clock_sync", "%s", "ping-pong offset/drift model to rank 0");
    mg_meta(f, "clock_sync_accuracy_sec", "%.3g", res->clock_err);
    mg_meta(f, "clock_rtt_min_sec", "%.3g", res->clock_rtt);
    mg_meta(f, "clock_syncs", "%d", res->clock_syncs);
  } else {
    mg_meta(f, "clock_sync", "%s", "none");
  }
  if (mg_sync_uses_clock(cfg->sync)) {
    mg_meta(f, "window_sec", "%s", cfg->window > 0 ? "given" : "auto");
    mg_meta(f, "window_factor", "%g", cfg->window_factor);
    if (cfg->window_tol > 0) mg_meta(f, "window_tolerance_sec", "%g", cfg->window_tol);
    else mg_meta(f, "window_tolerance_sec", "%s", "clock accuracy (>= 1e-06)");
  }
}

/* The repetition rule and its parameters, warm-up, batches and order. */
static void meta_repetitions(FILE *f, const mg_bench_cfg *cfg) {
  mg_meta(f, "rep_mode", "%s", mg_rep_mode_name(cfg->rep.mode));
  switch (cfg->rep.mode) {
  case MG_REP_FIXED: mg_meta(f, "nrep", "%ld", cfg->rep.nrep); break;
  case MG_REP_TIME: mg_meta(f, "time_per_sec", "%g", cfg->rep.time_per); break;
  case MG_REP_PAPER: mg_meta(f, "nrep_k", "%ld", cfg->rep.k); /* fall through */
  case MG_REP_RSE:
    mg_meta(f, "rse_target", "%g", cfg->rep.rse);
    mg_meta(f, "rse_of", "%s", mg_stat_name(cfg->rep.stat));
    break;
  }
  if (cfg->rep.mode != MG_REP_FIXED) {
    mg_meta(f, "min_nrep", "%ld", cfg->rep.min_nrep);
    mg_meta(f, "max_nrep", "%ld", cfg->rep.max_nrep);
  }
  if (cfg->rep.mode == MG_REP_RSE && cfg->rep.exact_min > 0) /* rep.h: one time, this many values: stopped */
    mg_meta(f, "exact_stop", "%ld", cfg->rep.exact_min);
  if (cfg->stop_decided && cfg->rep.mode == MG_REP_RSE) { /* seq.h; a file without the line: each series' own rule */
    mg_meta(f, "stop_rule", "decided");
    mg_meta(f, "stop_rule_error", "%g", cfg->seq.error);
    mg_meta(f, "stop_rule_margin", "%g", cfg->seq.margin);
    if (cfg->seq.noise > 0) mg_meta(f, "stop_rule_noise_sec", "%g", cfg->seq.noise);
    else mg_meta(f, "stop_rule_noise_sec", "%s", "measured (the larger of sync_cost_sec and sync_skew_sec)");
    mg_meta(f, "stop_rule_min", "%ld", mg_seq_point(&cfg->seq, 0)); /* the first look */
  }
  mg_meta(f, "warmup", "%d", cfg->warmup);
  mg_meta(f, "batch", "%d", cfg->batch);
  if (cfg->time_total > 0) mg_meta(f, "time_total_sec", "%g", cfg->time_total);
  mg_meta(f, "order", "%s", cfg->shuffle ? "interleaved, shuffled each round" : "interleaved");
  mg_meta(f, "seed", "%llu", (unsigned long long)cfg->seed);
}

/* Per block: its window, whether the budget cut it short, and per series why
 * it stopped, or why it was skipped or failed; then the PAPER budgets t1. */
static void meta_outcomes(FILE *f, const mg_bench_cfg *cfg, const mg_bench_result *res) {
  for (int b = 0; b < res->nblocks; b++) {
    const mg_bench_block *B = &res->blocks[b];
    char nb[128];
    const char *name = block_name(B, nb, sizeof nb);
    if (mg_sync_uses_clock(cfg->sync)) mg_meta(f, "window", "%s,%zu,%.6g", name, B->bytes, B->window);
    if (B->budget_hit) mg_meta(f, "budget_hit", "%s,%zu", name, B->bytes);
    for (int i = 0; i < B->nseries; i++) {
      const mg_bench_series *s = &B->series[i];
      if (s->status == MG_SERIES_OK) {
        mg_meta(f, "stop", "%s,%s,%zu,%s,%ld", name, mg_bench_alg_name(B->coll, s->alg), B->bytes,
                mg_stop_name(s->stop), s->nvalid + s->ninvalid);
        if (s->measure_only)
          mg_meta(f, "measure_only", "%s,%s,%zu,%s", name, mg_bench_alg_name(B->coll, s->alg), B->bytes, s->note);
        continue;
      }
      mg_meta(f, s->status == MG_SERIES_SKIPPED ? "skipped" : "failed", "%s,%s,%zu,%s", name,
              mg_bench_alg_name(B->coll, s->alg), B->bytes, s->note);
    }
  }
  if (cfg->rep.mode == MG_REP_PAPER)
    for (int i = 0; i < cfg->ncolls; i++)
      for (int a = 0; a < mg_colls[cfg->colls[i]].nalgs; a++)
        if (res->t1[cfg->colls[i]][a] > 0)
          mg_meta(f, "t1_sec", "%s,%s,%.9g", mg_colls[cfg->colls[i]].name,
                  mg_bench_alg_name(cfg->colls[i], a), res->t1[cfg->colls[i]][a]);
}

void mg_bench_write_meta_head(FILE *f, const mg_bench_cfg *cfg, const mg_bench_result *res, const mg_bench_meta *m,
                              const char *command, const char *format) {
  meta_launch(f, m, command, format);
  meta_colls(f, cfg);
  meta_arguments(f, cfg);
  int anynbr = 0;
  for (int i = 0; i < cfg->ncolls; i++) anynbr |= mg_coll_is_neighbor(cfg->colls[i]);
  if (anynbr && m->nprocs > 0) { /* the grid the neighbourhood collectives ran on (mg_bench_topo_comm) */
    int dims[2];
    mg_cart_dims(m->nprocs, dims); /* MPI_Dims_create's for 2 dimensions */
    mg_meta(f, "neighbor_topology", "cart:%dx%d:periodic=%d,%d", dims[0], dims[1], dims[0] >= 3, dims[1] >= 3);
  }
  meta_timing(f, cfg, res);
  meta_repetitions(f, cfg);
}

void mg_bench_write_meta(FILE *f, const mg_bench_cfg *cfg, const mg_bench_result *res, const mg_bench_meta *m,
                         const char *command) {
  mg_bench_write_meta_head(f, cfg, res, m, command, "mpiguide-bench-raw/3");
  mg_meta(f, "invalid", "%ld", res->invalid);
  mg_meta(f, "elapsed_sec", "%.3f", res->elapsed);
  meta_outcomes(f, cfg, res);
}

long mg_bench_raw_count(const mg_bench_result *res) {
  long rows = 0;
  for (int b = 0; b < res->nblocks; b++)
    for (int i = 0; i < res->blocks[b].nseries; i++) rows += res->blocks[b].series[i].n;
  return rows;
}

long mg_bench_write_raw(FILE *f, const mg_bench_cfg *cfg, const mg_bench_result *res,
                        const mg_bench_meta *m) {
  long rows = 0;
  char pairbuf[24];
  mg_raw_header(f);
  for (int b = 0; b < res->nblocks; b++) {
    const mg_bench_block *B = &res->blocks[b];
    for (int i = 0; i < B->nseries; i++) {
      const mg_bench_series *s = &B->series[i];
      mg_raw_row r = {.coll = mg_colls[B->coll].name, .alg = mg_bench_alg_name(B->coll, s->alg),
                      .dtype = B->dtype->name, .op = B->op ? B->op->name : "", .launch = m->launch,
                      .bytes = B->bytes, .count = B->count, .nprocs = m->nprocs};
      for (long j = 0; j < s->n; j++) {
        r.root = mg_bench_root(cfg, B->coll, s->round[j]);
        r.pair = mg_pattern_pair(cfg->pattern, B->coll, s->round[j], m->nprocs, pairbuf, sizeof pairbuf);
        r.round = s->round[j];
        r.rep = s->rep[j];
        r.warmup = s->warmup[j];
        r.valid = s->valid[j];
        r.runtime = s->lat[j];
        mg_raw_row_write(f, &r);
        rows++;
      }
    }
  }
  return rows;
}

long mg_bench_write_repro(FILE *f, const mg_bench_result *res, mg_coll coll, int alg) {
  long rows = 0;
  const char *test = alg == 0 ? mg_colls[coll].mpi_name : mg_colls[coll].algs[alg].name;
  mg_repro_header(f);
  for (int b = 0; b < res->nblocks; b++) {
    const mg_bench_block *B = &res->blocks[b];
    if (B->coll != coll) continue;
    for (int i = 0; i < B->nseries; i++) {
      const mg_bench_series *s = &B->series[i];
      if (s->alg != alg) continue;
      for (long j = 0; j < s->n; j++)
        if (!s->warmup[j] && s->valid[j]) {
          mg_repro_row(f, test, s->rep[j], B->bytes, s->lat[j]);
          rows++;
        }
    }
  }
  return rows;
}

void mg_bench_print_summary(FILE *f, const mg_bench_cfg *cfg, const mg_bench_result *res) {
  fprintf(f, "%-22s %-42s %10s %9s %6s %5s %4s %11s %11s %11s %11s %7s %s\n", "collective", "algorithm",
          "bytes", "count", "nrep", "inval", "warm", "min[us]", "median[us]", "mean[us]", "max[us]", "rse[%]",
          "stop");
  for (int b = 0; b < res->nblocks; b++) {
    const mg_bench_block *B = &res->blocks[b];
    for (int i = 0; i < B->nseries; i++) {
      const mg_bench_series *s = &B->series[i];
      char nb[128];
      const char *cn = block_name(B, nb, sizeof nb), *an = mg_bench_alg_name(B->coll, s->alg);
      if (s->status != MG_SERIES_OK) {
        fprintf(f, "%-22s %-42s %10zu %9ld   -- %s\n", cn, an, B->bytes, B->count, s->note);
        continue;
      }
      double *v = malloc((size_t)(s->n ? s->n : 1) * sizeof *v);
      long nv = 0;
      if (v)
        for (long j = 0; j < s->n; j++)
          if (!s->warmup[j] && s->valid[j]) v[nv++] = s->lat[j];
      mg_summary sm;
      mg_summarize(v, nv, &sm);
      free(v);
      double rse = cfg->rep.stat == MG_STAT_MEAN ? sm.rse_mean : sm.rse_median;
      char rs[16];
      if (isfinite(rse)) snprintf(rs, sizeof rs, "%.2f", 100 * rse);
      else snprintf(rs, sizeof rs, "-");
      fprintf(f, "%-22s %-42s %10zu %9ld %6ld %5ld %4ld %11.2f %11.2f %11.2f %11.2f %7s %s\n", cn, an,
              B->bytes, B->count, s->nvalid, s->ninvalid, s->nwarm, 1e6 * sm.min, 1e6 * sm.median,
              1e6 * sm.mean, 1e6 * sm.max, rs, mg_stop_name(s->stop));
    }
  }
}
