/*
 * The measurement of `mpiguide check` (every rank, under mpirun): the chosen cells as groups of
 * collectives that share a size list, one engine run each, the budget shared over what is left;
 * --model-guided measures the defaults first and then the mock-ups the LogGP model does not rule
 * out. Rank 0 writes DIR/raw.csv (also while measuring, so that Ctrl-C loses nothing:
 * cmd_check_save.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/csv.h"
#include "bench/eta.h"
#include "bench/eta_raw.h"
#include "bench/output.h"
#include "bench/overlap_run.h"
#include "bench/pack.h"
#include "cli/cmd_bench_overlap.h"
#include "cli/cmd_check_guided.h"
#include "cli/cmd_check_state.h"
#include "util/err.h"
#include "util/sort.h"

/* The blocks the engine measures for c at size index si (bench/engine.c): one per (datatype, op) pair of
 * a reduction that divides the size, a barrier's at the first size only; as a mask over the pairs. */
unsigned mg_check_block_mask(const mg_bench_cfg *cfg, mg_coll c, const size_t *sizes, int si) {
  unsigned m = 0;
  for (int k = 0; k < mg_bench_nreds(cfg, c) && k < 32; k++) {
    const mg_dtype_info *dt = mg_colls[c].reduction && cfg->nreds > 0 ? cfg->reds[k].dtype : cfg->dtype;
    if (c == MG_BARRIER ? si == 0 : sizes[si] % (size_t)dt->size == 0) m |= 1u << k;
  }
  return m;
}

static int same_sizes(const mg_check_state *S, mg_coll a, mg_coll b) {
  if (S->nsizes[a] != S->nsizes[b]) return 0;
  return !memcmp(S->sizes[a], S->sizes[b], (size_t)S->nsizes[a] * sizeof(size_t));
}

/* The blocks (cells) the engine measures for a group: the unit of progress, saving and the budget. */
static long group_blocks(const mg_bench_cfg *cfg) {
  long nb = 0;
  for (int i = 0; i < cfg->ncolls; i++)
    for (int si = 0; si < cfg->nsizes; si++) nb += __builtin_popcount(mg_check_block_mask(cfg, cfg->colls[i], cfg->sizes, si));
  return nb;
}

/* One engine run per set of collectives sharing a size list. */
int mg_check_make_groups(mg_check_state *S) {
  S->groups = calloc((size_t)S->ncolls, sizeof *S->groups);
  if (!S->groups) return MG_ERR_TO(S->err, "out of memory");
  for (int i = 0; i < S->ncolls; i++) {
    mg_coll c = S->colls[i];
    int g;
    for (g = 0; g < S->ngroups; g++)
      if (same_sizes(S, S->groups[g].cfg.colls[0], c)) break;
    if (g == S->ngroups) {
      S->groups[g].cfg = S->base;
      S->groups[g].cfg.ncolls = 0;
      S->groups[g].cfg.sizes = S->sizes[c];
      S->groups[g].cfg.nsizes = S->nsizes[c];
      S->ngroups++;
    }
    mg_bench_cfg *cfg = &S->groups[g].cfg;
    cfg->colls[cfg->ncolls++] = c;
    cfg->algmask[c] = S->algmask[c];
    for (int si = 0; si < S->nsizes[c]; si++) S->blocks_total += __builtin_popcount(mg_check_block_mask(cfg, c, S->sizes[c], si));
  }
  return 0;
}

/* The #@ lines of a check's raw.csv after the bench metadata (docs/check.md). */
typedef struct raw_extra {
  const mg_check_state *S;
  const mg_cmd_merged *m;
  const char *incomplete;
} raw_extra;

static void check_meta(FILE *f, void *arg) {
  const raw_extra *x = arg;
  mg_meta(f, "check_format", "mpiguide-check/1");
  mg_meta(f, "check_preset", "%s", x->S->pre->name);
  if (x->S->old_keep) { /* resumed: the plan's sizes and the earlier cells' lines, as that run wrote them */
    fputs(x->S->old_keep, f);
    mg_meta(f, "check_resumed", "%ld cells measured by the interrupted run (their rows come last), %ld by this one",
            x->S->cells_before, x->S->blocks_total);
  }
  for (int i = 0; i < x->m->cfg.ncolls && !x->S->old_keep; i++) {
    mg_coll c = x->m->cfg.colls[i];
    char buf[2048];
    size_t u = (size_t)snprintf(buf, sizeof buf, "%s:", mg_colls[c].name);
    for (int k = 0; k < x->S->nsizes[c] && u < sizeof buf; k++)
      u += (size_t)snprintf(buf + u, sizeof buf - u, "%s%zu", k ? "," : "", x->S->sizes[c][k]);
    mg_meta(f, "check_sizes", "%s", buf);
  }
  if (x->S->model_guided && x->S->guided_all)
    mg_meta(f, "check_model_guided", "%ld of %ld mock-up cells measured (the rule of docs/model.md, slack %g)",
            x->S->guided_cells, x->S->guided_all, x->S->model_slack);
  if (x->incomplete) mg_meta(f, "check_incomplete", "%s", x->incomplete);
  mg_meta(f, "check_rows", "%ld", x->m->rows + x->S->old_nrows);
}

/* Rank 0: DIR/raw.csv from the groups measured so far. 0, or -1 with S->err. */
int mg_check_write_raw(mg_check_state *S, const mg_bench_meta *meta, const char *incomplete) {
  /* a group per set of collectives with one size list; --model-guided adds one per collective
   * and set of mock-ups */
  const mg_bench_cfg **cfgs = malloc((size_t)(S->ngroups + 1) * sizeof *cfgs);
  const mg_bench_result **res = malloc((size_t)(S->ngroups + 1) * sizeof *res);
  int n = 0;
  if (!cfgs || !res) return free(cfgs), free(res), MG_ERR_TO(S->err, "out of memory");
  for (int g = 0; g < S->ngroups; g++)
    if (S->groups[g].done) cfgs[n] = &S->groups[g].cfg, res[n++] = &S->groups[g].res;
  mg_cmd_merged m;
  int merged = mg_cmd_merge(&S->base, cfgs, res, n, &m, S->err, sizeof S->err);
  free(cfgs), free(res);
  if (merged) return -1;
  raw_extra x = {S, &m, incomplete};
  char path[4096];
  snprintf(path, sizeof path, "%s/raw.csv", S->out);
  mg_outfile f;
  int rc = mg_outfile_open(&f, path, S->err, sizeof S->err);
  if (!rc) {
    mg_check_save_tmp(f.tmp); /* a signal while it is written removes it */
    mg_bench_write_meta(f.f, &m.cfg, &m.res, meta, S->command ? S->command : "");
    check_meta(f.f, &x);
    mg_bench_write_raw(f.f, &m.cfg, &m.res, meta);
    if (S->old_rows_len) fwrite(S->old_rows, 1, S->old_rows_len, f.f); /* resumed: the earlier cells */
    rc = mg_outfile_commit(&f, S->err, sizeof S->err);
    mg_check_save_tmp(NULL);
  }
  mg_cmd_merged_free(&m);
  if (rc) return -1;
  /* results of an earlier run in DIR (--force) no longer match raw.csv; nor its pack.csv, measured
   * after the last raw.csv (mg_check_measure_pack) */
  for (int i = 1; mg_ck_result_files[i]; i++) {
    snprintf(path, sizeof path, "%s/%s", S->out, mg_ck_result_files[i]);
    unlink(path);
  }
  snprintf(path, sizeof path, "%s/pack.csv", S->out);
  unlink(path);
  snprintf(path, sizeof path, "%s/overlap.csv", S->out); /* measured after it too (--overlap) */
  unlink(path);
  return 0;
}

int mg_check_wants_pack(const mg_check_state *S) {
  if (!S->base.dtype || S->base.dtype->kind == MG_DK_PREDEFINED) return 0;
  for (int i = 0; i < S->ncolls; i++)
    for (int a = 1; a < mg_colls[S->colls[i]].nalgs; a++)
      if ((S->algmask[S->colls[i]] & (1u << a)) && mg_colls[S->colls[i]].algs[a].family == MG_FAM_DATATYPE) return 1;
  return 0;
}

/* The sizes of eq. 4: those of the collectives with a datatype row, once each, ascending. */
static int pack_sizes(const mg_check_state *S, size_t **out) {
  long all = 0;
  for (int i = 0; i < S->ncolls; i++) all += S->nsizes[S->colls[i]];
  size_t *v = malloc((size_t)(all + 1) * sizeof *v);
  int n = 0;
  if (!v) return -1;
  for (int i = 0; i < S->ncolls; i++) {
    mg_coll c = S->colls[i];
    int has = 0;
    for (int a = 1; a < mg_colls[c].nalgs; a++)
      has |= (S->algmask[c] & (1u << a)) && mg_colls[c].algs[a].family == MG_FAM_DATATYPE;
    for (int k = 0; has && k < S->nsizes[c]; k++) {
      size_t b = S->sizes[c][k];
      int j = 0;
      while (j < n && v[j] != b) j++;
      if (j == n && b > 0 && b % (size_t)S->base.dtype->size == 0) v[n++] = b;
    }
  }
  qsort(v, (size_t)n, sizeof *v, mg_cmp_size);
  *out = v;
  return n;
}

int mg_check_measure_pack(mg_check_state *S, const mg_bench_meta *meta) {
  size_t *sizes = NULL;
  int n = pack_sizes(S, &sizes), rc = 0;
  if (n < 0) MPI_Abort(MPI_COMM_WORLD, 1); /* out of memory on some rank: every rank's sizes are alike */
  const mg_rep_cfg *rp = &S->base.rep;
  mg_pack_cfg cfg = {.comm = MPI_COMM_WORLD, .dtype = S->base.dtype, .sizes = sizes, .nsizes = n,
                     .warmup = S->base.warmup, .time_cap = MG_CHECK_PACK_CAP, .timer = S->base.timer};
  cfg.rounds = rp->mode == MG_REP_FIXED ? rp->nrep : rp->min_nrep > MG_CHECK_PACK_ROUNDS ? rp->min_nrep
                                                                                            : MG_CHECK_PACK_ROUNDS;
  if (rp->mode != MG_REP_FIXED && rp->max_nrep > 0 && cfg.rounds > rp->max_nrep) cfg.rounds = rp->max_nrep;
  cfg.min_rounds = cfg.rounds < MG_CHECK_PACK_MIN ? cfg.rounds : MG_CHECK_PACK_MIN;
  if (S->rank == 0 && S->progress)
    fprintf(stderr, "mpiguide check: packing (TGT 2010 eq. 4): MPI_Pack and MPI_Unpack of %s against its constituents, "
                    "%d size(s), on rank 0\n", cfg.dtype->name, n);
  mg_pack_result res;
  int mrc = mg_pack_run(&cfg, &res);
  if (mrc != MPI_SUCCESS) {
    fprintf(stderr, "mpiguide check: the packing measurement failed on rank %d\n", S->rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (S->rank == 0) {
    char path[4096];
    snprintf(path, sizeof path, "%s/pack.csv", S->out);
    mg_outfile f;
    rc = mg_outfile_open(&f, path, S->err, sizeof S->err);
    if (!rc) {
      mg_pack_write(f.f, &cfg, &res, meta, S->command ? S->command : "");
      rc = mg_outfile_commit(&f, S->err, sizeof S->err);
    }
  }
  mg_pack_result_free(&res);
  free(sizes);
  return rc;
}

int mg_check_measure_overlap(mg_check_state *S, const mg_bench_meta *meta, const char *tests) {
  mg_bench_cfg cfg = S->base;
  int n = 0, rc = 0;
  for (int i = 0; i < S->ncolls; i++)
    if (mg_ovl_has_nb(S->colls[i]) && S->nsizes[S->colls[i]] > 0) cfg.colls[n++] = S->colls[i];
  cfg.ncolls = n;
  mg_ovl_cfg oc;
  mg_cmd_overlap_opts oo = {"all", tests ? tests : MG_CHECK_OVL_TESTS, 0, 0, 0};
  if (mg_cmd_overlap_setup(&cfg, &oo, &oc, S->err, sizeof S->err)) return -1; /* alike on every rank */
  if (!n) return MG_ERR_TO(S->err, "--overlap: none of the collectives measured has a non-blocking form");
  if (S->rank == 0 && S->progress)
    fprintf(stderr, "mpiguide check: overlap must not cost (OVL): %d collective(s), %d test count(s)\n", n, oc.ntests);
  /* one run per collective, with its own sizes; the cells in one result */
  mg_ovl_result all;
  memset(&all, 0, sizeof all);
  n = cfg.ncolls; /* setup kept those with a non-blocking form */
  for (int i = 0; i < n && !rc; i++) {
    mg_bench_cfg one = cfg;
    mg_coll c = cfg.colls[i];
    one.colls[0] = c, one.ncolls = 1, one.sizes = S->sizes[c], one.nsizes = S->nsizes[c];
    one.progress = NULL;
    mg_ovl_result res;
    int mrc = mg_overlap_run(&one, &oc, &res);
    if (mrc != MPI_SUCCESS) {
      fprintf(stderr, "mpiguide check: the overlap measurement failed on rank %d\n", S->rank);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    mg_ovl_cell *nc = realloc(all.cells, (size_t)(all.ncells + res.ncells + 1) * sizeof *nc);
    if (!nc) MPI_Abort(MPI_COMM_WORLD, 1);
    all.cells = nc;
    memcpy(all.cells + all.ncells, res.cells, (size_t)res.ncells * sizeof *nc); /* the cells move */
    all.ncells += res.ncells;
    all.rate = i ? fmin(all.rate, res.rate) : res.rate, all.rate_max = fmax(all.rate_max, res.rate_max);
    all.sync_cost = fmax(all.sync_cost, res.sync_cost), all.elapsed += res.elapsed;
    free(res.cells);
  }
  if (S->rank == 0) {
    char path[4096];
    snprintf(path, sizeof path, "%s/overlap.csv", S->out);
    mg_outfile f;
    rc = mg_outfile_open(&f, path, S->err, sizeof S->err);
    if (!rc) {
      mg_cmd_overlap_meta(f.f, &cfg, &oc, &all, meta, S->command ? S->command : "");
      mg_cmd_overlap_rows(f.f, &all, meta);
      rc = mg_outfile_commit(&f, S->err, sizeof S->err);
    }
  }
  mg_ovl_result_free(&all);
  return rc;
}

/* Nothing lost on Ctrl-C (cmd_check_save.c): rank 0 saves the cells measured so far. These are
 * its hooks; the state of the one measurement this process makes is file-static because the
 * engine's callback argument is the progress line's. */
static struct {
  mg_check_state *S;
  const mg_bench_meta *meta;
  int group;  /* the group being measured */
  long base;  /* cells of the groups before it */
} meas;

/* DIR/raw.csv with the groups done and the blocks of the current one so far. */
static int write_so_far(void *ctx, const char *note) {
  mg_check_state *S = ctx;
  mg_check_group *G = &S->groups[meas.group];
  int was_done = G->done;
  G->done = 1; /* its blocks so far: the engine fills G->res as it goes */
  int rc = mg_check_write_raw(S, meas.meta, note);
  G->done = was_done;
  return rc;
}

static void block_done(const mg_bench_result *res, void *arg) {
  (void)arg;
  mg_check_save_block(meas.base + res->nblocks, 0);
}

/* The time left (eta.h): one estimator for the whole check, so the costs and values learned in one
 * group predict the next groups' (a check of allreduce then bcast knows bcast's 4 MiB cells run long
 * from allreduce's), and the speed at the start is the check's. */
static mg_eta check_eta;

/* The start-speed seconds of the groups after the one being measured (their blocks given the budget
 * share of this group's, eta_after). */
static double groups_after(const mg_eta *e, double share, void *arg) {
  mg_check_state *S = arg;
  double sum = 0;
  for (int gi = meas.group + 1; gi < S->ngroups; gi++) sum += mg_bench_eta_cost(&S->groups[gi].cfg, e, share);
  return sum;
}

/* Rank 0, --eta-from FILE (`check --launches` gives launch K launch K-1's raw.csv): the cells of that
 * launch of the same check as the estimate's prior (eta.h), so that it is right from the first
 * second rather than learned cell by cell. A file that cannot be read only costs the prior. */
static void eta_seed(const char *path) {
  mg_eta_cell *c;
  int n;
  double el;
  char err[512];
  if (mg_eta_raw_cells(path, &c, &n, &el, err, sizeof err)) {
    fprintf(stderr, "mpiguide check: --eta-from: %s; the time estimate learns from this launch alone\n", err);
    return;
  }
  for (int i = 0; i < n; i++) {
    int k = mg_coll_find(c[i].coll);
    if (k >= 0) mg_eta_prior(&check_eta, k, c[i].bytes, c[i].seconds);
  }
  free(c);
}

/* Every rank: measure groups [first, ngroups) one after another, the budget shared over what is left. */
static void run_groups(mg_check_state *S, const mg_bench_meta *meta, int first) {
  if (first == 0) mg_eta_init(&check_eta);
  if (first == 0 && S->rank == 0 && S->eta_from) eta_seed(S->eta_from);
  for (int gi = first; gi < S->ngroups; gi++) {
    mg_check_group *G = &S->groups[gi];
    long nb = group_blocks(&G->cfg);
    if (S->base.time_total > 0) { /* the rest of the budget, shared by blocks */
      double left = S->base.time_total - S->prog.elapsed_before;
      G->cfg.time_total = (left > 0 ? left : 1e-3) * (double)nb / (double)(S->blocks_total - S->blocks_before);
    }
    S->prog.frac_before = 0, S->prog.frac_share = 1; /* the engine reports the whole check's fraction */
    G->cfg.eta = &check_eta;
    G->cfg.eta_after = groups_after;
    G->cfg.eta_arg = S;
    G->cfg.eta_elapsed_before = S->prog.elapsed_before;
    G->cfg.progress = mg_cmd_progress_cb;
    G->cfg.arg = &S->prog;
    G->cfg.block_done = block_done;
    meas.group = gi;
    meas.base = S->blocks_before;
    int rc = mg_bench_run(&G->cfg, &G->res);
    if (rc != MPI_SUCCESS) {
      char es[MPI_MAX_ERROR_STRING];
      int len = 0;
      MPI_Error_string(rc, es, &len);
      fprintf(stderr, "mpiguide check: the measurement failed on rank %d: %s\n", S->rank, es);
      if (S->rank == 0 && gi > 0 && mg_check_write_raw(S, meta, "the measurement failed; earlier collectives kept") == 0)
        fprintf(stderr, "mpiguide check: the measurements taken before are in %s/raw.csv\n", S->out);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    G->done = 1;
    S->blocks_before += nb;
    if (gi + 1 < S->ngroups) mg_check_save_block(S->blocks_before, 1); /* a group's end is always saved */
    double el = G->res.elapsed;
    MPI_Allreduce(MPI_IN_PLACE, &el, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    S->prog.elapsed_before += el;
  }
}

/* Whether every datatype the check calls with is predefined (dense): then a packed row is the
 * default's own call. */
static int dense_types(const mg_bench_cfg *cfg) {
  int dense = cfg->dtype->kind == MG_DK_PREDEFINED;
  for (int k = 0; k < cfg->nreds; k++) dense &= cfg->reds[k].dtype->kind == MG_DK_PREDEFINED;
  return dense;
}

/* Rank 0, --model-guided: from the defaults measured (DIR/raw.csv as written so far) and the LogGP
 * parameters, mask[i * MAXS + k] = the algorithms of collective colls[i] to measure at its k-th
 * size: the default and every mock-up of S->algmask the rule keeps (mg_guided_cell). 0, or -1
 * with S->err. */
#define MG_GUIDED_MAXS 256
static int guided_masks(mg_check_state *S, const mg_bench_meta *meta, unsigned *mask) {
  mg_ck_data d;
  mg_model m;
  int rc = 0;
  mg_guided_cfg g = {S->model_slack, S->base.in_place, dense_types(&S->base), S->lg_noisy, meta->nnodes};
  mg_ck_data_init(&d);
  mg_model_init(&m, &S->lg);
  if (mg_ck_read(&d, S->out, S->e, sizeof S->e) || mg_cmd_model_defaults(&m, &d, S->e, sizeof S->e))
    rc = MG_ERR_TO(S->err, "--model-guided: the defaults measured: %s", S->e);
  mg_model_sort(&m);
  for (int i = 0; !rc && i < S->ncolls; i++) {
    mg_coll c = S->colls[i];
    for (int k = 0; k < S->nsizes[c] && k < MG_GUIDED_MAXS; k++) {
      unsigned w = 1u;
      for (int a = 1; a < mg_colls[c].nalgs; a++)
        if ((S->algmask[c] & (1u << a)) && mg_guided_measured(mg_guided_cell(&m, &g, c, a, S->size, (double)S->sizes[c][k])))
          w |= 1u << a;
      mask[i * MG_GUIDED_MAXS + k] = w;
    }
  }
  mg_model_free(&m);
  mg_ck_data_free(&d);
  return rc;
}

/* --model-guided, after the defaults: the groups of the mock-ups to measure, one per collective and
 * set of algorithms (the sizes that chose it). Every rank, collective (the masks from rank 0). */
static void guided_groups(mg_check_state *S, const mg_bench_meta *meta) {
  size_t nm = (size_t)S->ncolls * MG_GUIDED_MAXS;
  unsigned *mask = calloc(nm, sizeof *mask);
  int rc = mask ? 0 : MG_ERR_TO(S->err, "out of memory");
  if (!rc && S->rank == 0)
    rc = mg_check_write_raw(S, meta, "model-guided: the defaults only so far") ? -1 : guided_masks(S, meta, mask);
  if (rc) fprintf(stderr, "mpiguide check: %s\n", S->err);
  MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rc || !mask) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Bcast(mask, (int)nm, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
  mg_check_group *gr = realloc(S->groups, (size_t)(S->ngroups + (int)nm) * sizeof *gr);
  if (!gr) MPI_Abort(MPI_COMM_WORLD, 1);
  S->groups = gr;
  long cells = 0, all = 0, blocks = 0;
  for (int i = 0; i < S->ncolls; i++) {
    mg_coll c = S->colls[i];
    int n = S->nsizes[c] < MG_GUIDED_MAXS ? S->nsizes[c] : MG_GUIDED_MAXS;
    for (int k = 0; k < n; k++) all += __builtin_popcount(S->algmask[c] & ~1u);
    for (int k = 0; k < n; k++) {
      unsigned w = mask[i * MG_GUIDED_MAXS + k];
      int seen = 0;
      for (int j = 0; j < k && !seen; j++) seen = mask[i * MG_GUIDED_MAXS + j] == w;
      if (seen || w == 1u) continue; /* its group exists already; or the default alone: measured */
      mg_check_group *G = &S->groups[S->ngroups];
      memset(G, 0, sizeof *G);
      G->sizes = malloc((size_t)n * sizeof *G->sizes);
      if (!G->sizes) MPI_Abort(MPI_COMM_WORLD, 1);
      G->cfg = S->base;
      G->cfg.ncolls = 1;
      G->cfg.colls[0] = c;
      G->cfg.algmask[c] = w;
      G->cfg.nsizes = 0;
      for (int j = k; j < n; j++)
        if (mask[i * MG_GUIDED_MAXS + j] == w) G->sizes[G->cfg.nsizes++] = S->sizes[c][j];
      G->cfg.sizes = G->sizes;
      cells += (long)G->cfg.nsizes * __builtin_popcount(w & ~1u);
      blocks += group_blocks(&G->cfg);
      S->ngroups++;
    }
  }
  S->blocks_total = S->blocks_before + blocks;
  S->guided_cells = cells, S->guided_all = all;
  if (S->rank == 0 && S->progress)
    fprintf(stderr, "mpiguide check: model-guided: %ld of %ld mock-up cells may beat the default (predicted <= %g x "
                    "its median, or not priced surely); measuring those\n", cells, all, S->model_slack);
  free(mask);
}

/* Every rank: the measurement. --model-guided: the defaults first, then the mock-ups the model
 * does not rule out (docs/model.md). */
void mg_check_measure(mg_check_state *S, const mg_bench_meta *meta) {
  meas.S = S, meas.meta = meta;
  if (S->model_guided) { /* phase 1: the defaults alone (S->algmask keeps the mock-ups asked for) */
    S->blocks_total *= 2;  /* phase 2: at most as many blocks again */
    for (int g = 0; g < S->ngroups; g++)
      for (int i = 0; i < S->groups[g].cfg.ncolls; i++) S->groups[g].cfg.algmask[S->groups[g].cfg.colls[i]] = 1u;
  }
  mg_check_save_start(S->rank, S->out, S->cells_before, S->blocks_total, S->created_out, write_so_far, S);
  mg_cmd_progress_init(&S->prog, "check", S->rank == 0 && S->progress, S->base.time_total);
  S->prog.launch = S->launch_k, S->prog.launches = S->launch_n;
  int phase1 = S->ngroups;
  run_groups(S, meta, 0);
  if (S->model_guided) {
    mg_cmd_progress_end(&S->prog);
    guided_groups(S, meta);
    run_groups(S, meta, phase1);
  }
  mg_cmd_progress_end(&S->prog);
}
