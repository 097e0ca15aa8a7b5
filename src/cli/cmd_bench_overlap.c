/*
 * `mpiguide bench --overlap` (docs/bench.md, "Overlap"): the checks of the options that apply to
 * it, the run (src/bench/overlap_run.h), the raw file (#@format=mpiguide-bench-overlap/3) and the
 * summary table. cmd_bench.c parses the options and calls these.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/csv.h"
#include "bench/output.h"
#include "bench/overlap_run.h"
#include "cli/cmd_bench_overlap.h"
#include "util/err.h"
#include "util/parse.h"
#include "util/sort.h"

/* Whether the comma-separated list holds the item `all`. */
static int has_all(const char *list) {
  for (const char *p = list; p && *p;) {
    size_t n = strcspn(p, ",");
    if (n == 3 && !strncmp(p, "all", 3)) return 1;
    p += n + (p[n] == ',');
  }
  return 0;
}

int mg_cmd_overlap_setup(mg_bench_cfg *cfg, const mg_cmd_overlap_opts *o, mg_ovl_cfg *oc, char *err, size_t errlen) {
  const char *no = o->alg ? "--alg (the non-blocking form MPI_I<coll> is what is measured)"
                   : o->reductions ? "--reductions (one datatype and op: --datatype, --op)"
                   : o->repro ? "--repro-dir (the ReproMPI format has no variant column)"
                   : cfg->rep.mode == MG_REP_PAPER ? "--nrep-paper (use --nrep, --rse or --time-per)"
                   : mg_sync_uses_clock(cfg->sync) ? "--sync window/roundtime (use barrier, dbarrier or dissem)"
                   : cfg->time == MG_TIME_GLOBAL ? "--time global (one measurement is the max of local durations)"
                                                 : NULL;
  if (no) return MG_ERR("--overlap does not take %s", no);
  int keep = 0, all = has_all(o->colls);
  for (int i = 0; i < cfg->ncolls; i++) {
    mg_coll c = cfg->colls[i];
    if (mg_ovl_has_nb(c)) cfg->colls[keep++] = c;
    else if (!all)
      return MG_ERR("--overlap: %s has no non-blocking collective form (valid: the collectives with a "
                                   "row of the nonblocking family, e.g. allreduce, bcast, barrier)",
                      mg_colls[c].name);
  }
  cfg->ncolls = keep;
  for (int i = 0; i < keep; i++) { /* the row measured, as the metadata's #@algorithms names it */
    mg_coll c = cfg->colls[i];
    cfg->algmask[c] = 0;
    for (int a = 1; a < mg_colls[c].nalgs; a++)
      if (mg_colls[c].algs[a].family == MG_FAM_NONBLOCKING) cfg->algmask[c] |= 1u << a;
  }
  /* the sweep */
  char buf[512], e[200];
  snprintf(buf, sizeof buf, "%s", o->tests ? o->tests : MG_OVL_DEFAULT_TESTS);
  oc->ntests = 0;
  for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ",")) {
    long k;
    if (mg_parse_long(tok, 0, 1000000, &k, e, sizeof e)) return MG_ERR("--tests: %s", e);
    int dup = 0;
    for (int i = 0; i < oc->ntests; i++) dup |= oc->tests[i] == (int)k;
    if (dup) continue;
    if (oc->ntests == MG_OVL_MAXK) return MG_ERR("--tests: more than %d test counts", MG_OVL_MAXK);
    oc->tests[oc->ntests++] = (int)k;
  }
  if (!oc->ntests) return MG_ERR("--tests: no test count (e.g. --tests 0,1,4,16)");
  qsort(oc->tests, (size_t)oc->ntests, sizeof *oc->tests, mg_cmp_int);
  return 0;
}

void mg_cmd_overlap_meta(FILE *f, const mg_bench_cfg *cfg, const mg_ovl_cfg *oc, const mg_ovl_result *res,
                         const mg_bench_meta *m, const char *command) {
  mg_bench_result br;
  memset(&br, 0, sizeof br);
  br.sync_cost = br.sync_cost_min = res->sync_cost;
  br.sync_skew = NAN;
  mg_bench_write_meta_head(f, cfg, &br, m, command, MG_OVL_FORMAT);
  char buf[512];
  size_t u = 0;
  for (int i = 0; i < oc->ntests && u < sizeof buf; i++)
    u += (size_t)snprintf(buf + u, sizeof buf - u, "%s%d", i ? "," : "", oc->tests[i]);
  mg_meta(f, "overlap_tests", "%s", buf);
  mg_meta(f, "overlap_method", "OSU/IMB-NBC: overlap %% = 100 (1 - (t_overall - t_cpu) / t_pure) clipped to [0, "
                               "100], medians; t_cpu: a busy loop of iters multiply-adds sized to the pilot median "
                               "of t_pure at the fastest rank's rate, the same iters on every rank");
  mg_meta(f, "overlap_rate_iters_per_sec", "%.6g,%.6g", res->rate, res->rate_max);
  mg_meta(f, "elapsed_sec", "%.3f", res->elapsed);
  for (int i = 0; i < res->ncells; i++) {
    const mg_ovl_cell *c = &res->cells[i];
    mg_meta(f, "overlap_iters", "%s,%zu,%ld", c->coll, c->bytes, c->iters);
    if (c->failed) mg_meta(f, "failed", "%s,%zu,%s", c->coll, c->bytes, c->note);
  }
}

long mg_cmd_overlap_rows(FILE *f, const mg_ovl_result *res, const mg_bench_meta *m) {
  return mg_ovl_write_rows(f, res->cells, res->ncells, m->launch);
}

void mg_cmd_overlap_summary(FILE *f, const mg_ovl_result *res) {
  fprintf(f, "%-22s %10s %6s %11s %11s %11s %8s %8s %6s %8s  %s\n", "collective", "bytes", "nrep", "t_pure[us]",
          "t_cpu[us]", "blk+cpu[us]", "cpu/pure", "ovl_k0[%]", "best_k", "ovl_best[%]", "overlap % per k");
  for (int i = 0; i < res->ncells; i++) {
    const mg_ovl_cell *c = &res->cells[i];
    mg_ovl_sum s;
    if (c->failed) {
      fprintf(f, "%-22s %10zu   -- %s\n", c->coll, c->bytes, c->note);
      continue;
    }
    if (mg_ovl_summarise(c, &s)) continue;
    int k0 = -1;
    for (int j = 0; j < s.nk; j++)
      if (s.k[j] == 0) k0 = j;
    char per[512];
    size_t u = 0;
    per[0] = '\0';
    for (int j = 0; j < s.nk && u < sizeof per; j++)
      u += (size_t)snprintf(per + u, sizeof per - u, "%sk=%d:%.0f", j ? " " : "", s.k[j], s.ov[j]);
    char o0[16] = "-", ob[16] = "-", bk[16] = "-";
    if (k0 >= 0) snprintf(o0, sizeof o0, "%.1f", s.ov[k0]);
    if (s.best >= 0) snprintf(ob, sizeof ob, "%.1f", s.ov[s.best]), snprintf(bk, sizeof bk, "%d", s.k[s.best]);
    fprintf(f, "%-22s %10zu %6ld %11.2f %11.2f %11.2f %8.2f %9s %6s %11s  %s\n", c->coll, c->bytes, s.n_pure,
            1e6 * s.t_pure, 1e6 * s.t_cpu, 1e6 * s.t_blocking, s.t_cpu / s.t_pure, o0, bk, ob, per);
  }
}
