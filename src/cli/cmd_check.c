/*
 * `mpiguide check`: find guideline violations of the MPI library
 * (docs/check.md). Two modes:
 *
 *  - measure (under mpirun): the bench engine measures the default and every
 *    applicable mock-up of each chosen (collective, size), interleaved, in
 *    one launch; rank 0 writes DIR/raw.csv first, then every rank leaves MPI
 *    and rank 0 analyses the file it wrote exactly as `--from DIR` would;
 *  - offline (`--from DIR...`): re-analyses saved raw data, without MPI
 *    (MPI_Init is never called, so no mpirun is needed).
 *
 * Options are parsed identically on every rank; a bad option, an unusable
 * output directory or ranks started with different arguments stop every rank
 * with exit code 2 and one message (the scheme of `mpiguide bench`). Exit
 * codes: 0 done (violations or not), 1 the run or the analysis failed (the
 * raw data written so far stay), 2 bad input; nothing is overwritten on 2.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "algs/algs.h"
#include "bench/bench.h"
#include "bench/csv.h"
#include "bench/output.h"
#include "check/check.h"
#include "cli/cli.h"
#include "cli/cmd_check.h"
#include "cli/cmd_opts.h"
#include "cli/cmd_predict.h"
#include "cli/cmd_util.h"
#include "report/report.h"
#include "util/err.h"
#include "util/hash.h"
#include "util/parse.h"
#include "util/text.h"

/* ---------- options ---------- */

const mg_opt mg_check_opts[O_N] = {OPTIONS(MG_OPT_ROW)};
static const mg_opt *const opts = mg_check_opts;

typedef mg_opt_vals opts_t; /* --from's sources: list, nlist */

typedef struct group {
  mg_bench_cfg cfg;
  size_t *sizes;
  mg_bench_result res;
  int done;
} group;

typedef struct state {
  int rank, size, mpi;
  char err[4096], e[1024];
  const mg_check_preset *pre;
  int ncolls;
  mg_coll colls[MG_NCOLL];
  unsigned algmask[MG_NCOLL];
  size_t *sizes[MG_NCOLL];
  int nsizes[MG_NCOLL];
  mg_bench_cfg base;
  mg_ck_opts ck;
  int comparer, format, merge, quiet, progress, force, seed_given;
  const char *out;
  char out_default[96];
  int created_out;
  char *command;
  group *groups;
  int ngroups;
  long blocks_total, blocks_before;
  mg_cmd_progress prog;
  mg_loggp lg; /* --loggp: predictions next to the measurements (DIR/predicted.csv) */
  int have_lg;
  int model_guided;     /* --model-guided: measure the mock-ups the model does not rule out */
  double model_slack;   /* --model-slack */
  long guided_cells, guided_all; /* mock-up cells measured, of those a full check would measure */
  mg_lv_lib lib;        /* --lib-variants: the library's own algorithms (docs/libvar.md) */
  mg_lv_set lvset;
  /* --resume: what the interrupted run left in DIR/raw.csv (resume_plan) */
  int resume;
  char *old_text;       /* the file */
  char *old_rows;       /* its data rows of the sizes it holds whole, kept after the new ones */
  size_t old_rows_len;
  long old_nrows, cells_before;
  char *old_keep;       /* its per-cell #@ lines (stop, budget_hit, ...) and #@check_sizes */
  int nothing_left;     /* every cell is measured already: only the analysis is left */
} state;

static int parse_argv(int argc, char **argv, opts_t *o, state *S) {
  if (mg_opt_parse(argc, argv, opts, O_N, o, S->err, sizeof S->err)) return -1;
  if (o->npos)
    return MG_ERR_TO(S->err, "unexpected argument '%s' (options start with - or --; several sources: --from DIR1 DIR2)",
                     o->pos[0]);
  return 0;
}

/* ---------- analysis options (both modes) ---------- */

static int parse_analysis(const opts_t *o, state *S) {
  mg_ck_opts_default(&S->ck);
  if (o->given[O_TEST]) {
    int t = mg_ck_test_find(o->val[O_TEST]);
    if (t < 0) return MG_ERR_TO(S->err, "--test: '%s' is not mwu, welch or student", o->val[O_TEST]);
    S->ck.test = (mg_ck_test)t;
  }
  if (o->given[O_ALPHA]) {
    if (mg_parse_double(o->val[O_ALPHA], 0, &S->ck.alpha, S->e, sizeof S->e))
      return MG_ERR_TO(S->err, "--alpha: %s", S->e);
    if (!(S->ck.alpha > 0 && S->ck.alpha < 1))
      return MG_ERR_TO(S->err, "--alpha: %s is not between 0 and 1", o->val[O_ALPHA]);
  }
  S->ck.holm = !o->given[O_NO_HOLM];
  if (o->given[O_LEVEL]) {
    if (mg_parse_double(o->val[O_LEVEL], 0, &S->ck.level, S->e, sizeof S->e))
      return MG_ERR_TO(S->err, "--level: %s", S->e);
    if (!(S->ck.level > 0 && S->ck.level < 1))
      return MG_ERR_TO(S->err, "--level: %s is not between 0 and 1 (e.g. 0.95)", o->val[O_LEVEL]);
  }
  long v;
  if (o->given[O_RESAMPLES]) {
    if (mg_parse_long(o->val[O_RESAMPLES], 1, 1000000, &v, S->e, sizeof S->e))
      return MG_ERR_TO(S->err, "--resamples: %s", S->e);
    S->ck.resamples = (size_t)v;
  }
  if (o->given[O_SEED]) {
    if (mg_parse_long(o->val[O_SEED], 0, UINT32_MAX, &v, S->e, sizeof S->e)) return MG_ERR_TO(S->err, "--seed: %s", S->e);
    S->ck.seed = (uint32_t)v;
    S->seed_given = 1;
  }
  S->ck.aa = o->given[O_AA];
  if (o->given[O_MARGIN]) {
    char *end;
    S->ck.margin = strtod(o->val[O_MARGIN], &end);
    if (end == o->val[O_MARGIN] || *end || !(S->ck.margin >= 0 && S->ck.margin < 10))
      return MG_ERR_TO(S->err, "--margin: '%s' is not a number from 0 to 10 (e.g. 0.05 for 5 %%)", o->val[O_MARGIN]);
  }
  if (o->given[O_NOISE]) {
    if (mg_parse_seconds(o->val[O_NOISE], &S->ck.noise, S->e, sizeof S->e)) return MG_ERR_TO(S->err, "--noise: %s", S->e);
    if (!(S->ck.noise > 0)) return MG_ERR_TO(S->err, "--noise: must be positive");
  }
  S->comparer = MG_CKC_GROUPED;
  if (o->given[O_COMPARER]) {
    int c = mg_ck_comparer_find(o->val[O_COMPARER]);
    if (c < 0) {
      char l[256];
      size_t u = 0;
      for (int i = 0; i < MG_CK_NCOMPARERS; i++)
        u += (size_t)snprintf(l + u, sizeof l - u, " %s", mg_ck_comparer_name(i));
      return MG_ERR_TO(S->err, "--comparer: unknown comparer '%s'; valid:%s", o->val[O_COMPARER], l);
    }
    S->comparer = c;
  }
  if (o->given[O_CSV] && o->given[O_JSON]) return MG_ERR_TO(S->err, "--csv and --json are contradictory: choose one");
  S->format = o->given[O_CSV] ? MG_CK_CSV : o->given[O_JSON] ? MG_CK_JSON : MG_CK_TEXT;
  S->merge = o->given[O_MERGE];
  S->quiet = o->given[O_QUIET];
  S->progress = !S->quiet && !o->given[O_NO_PROGRESS];
  S->force = o->given[O_FORCE];
  if (o->given[O_LOGGP]) { /* read before measuring: a bad file costs no measurement */
    if (mg_loggp_read(o->val[O_LOGGP], &S->lg, S->e, sizeof S->e)) return MG_ERR_TO(S->err, "--loggp: %s", S->e);
    S->have_lg = 1;
  }
  return 0;
}

/* ---------- measurement options ---------- */

static int add_mockup(const char *name, void *arg) {
  state *S = arg;
  int found = 0;
  for (int i = 0; i < S->ncolls; i++) {
    mg_coll c = S->colls[i];
    for (int a = 1; a < mg_colls[c].nalgs; a++)
      if (!strcmp(name, mg_colls[c].algs[a].name) || !strcasecmp(name, mg_colls[c].algs[a].guideline)) {
        S->algmask[c] |= 1u << a;
        found = 1;
      }
  }
  if (!found) {
    char l[2048];
    size_t u = 0;
    for (int i = 0; i < S->ncolls; i++)
      for (int a = 1; a < mg_colls[S->colls[i]].nalgs && u < sizeof l; a++)
        u += (size_t)snprintf(l + u, sizeof l - u, " %s", mg_colls[S->colls[i]].algs[a].name);
    return MG_ERR_TO(S->err, "--mockups: '%s' is no mock-up of the collectives chosen; valid (or their GL ids):%s", name,
                l);
  }
  return 0;
}

static int add_coll(const char *name, void *arg) {
  state *S = arg;
  int c = mg_coll_find(name);
  if (c < 0) return MG_ERR_TO(S->err, "unknown collective '%s'; valid: %s", name, mg_coll_names());
  for (int i = 0; i < S->ncolls; i++)
    if (S->colls[i] == (mg_coll)c) return 0;
  S->colls[S->ncolls++] = (mg_coll)c;
  return 0;
}

/* Rank 0 (or the offline run): make sure DIR can take the results (from: only the derived
 * ones count, raw.csv may be the source). */
static int prepare_out(state *S, const char *dir, int from) {
  char note[256];
  if (!from && !S->force && !S->resume && mg_check_partial(dir, note, sizeof note) == 1)
    return MG_ERR_TO(S->err, "--out: '%s' holds an interrupted check (raw.csv: %s): add --resume to the same "
                             "command to measure only the cells missing, or --force to start anew (discarding "
                             "them)", dir, note);
  return mg_cmd_out_dir(dir, mg_ck_result_files + (from ? 1 : 0), S->force || (S->resume && !from), &S->created_out,
                        S->err, sizeof S->err);
}

/* The rows of the families in LIST ("composition,split", "all") as a mask per collective. */
typedef struct famsel {
  unsigned fam; /* bit f: family f */
  state *S;     /* for the message */
} famsel;

static int add_family(const char *name, void *arg) {
  famsel *f = arg;
  if (!strcmp(name, "all")) return f->fam = (1u << MG_NFAM) - 1, 0;
  int k = mg_family_find(name);
  if (k < 0) {
    char l[256] = "";
    for (int i = 0; i < MG_NFAM; i++) snprintf(l + strlen(l), sizeof l - strlen(l), " %s", mg_families[i].name);
    return MG_ERR_TO(f->S->err, "--families: unknown family '%s'; valid:%s, all", name, l);
  }
  f->fam |= 1u << k;
  return 0;
}

/* --quick/--full, --collectives, --mockups and --families: S->pre, S->colls and S->algmask. */
static int choose(const opts_t *o, state *S) {
  if (o->given[O_QUICK] && o->given[O_FULL]) return MG_ERR_TO(S->err, "--quick and --full are contradictory: choose one");
  S->pre = mg_check_preset_of(o->given[O_FULL]);
  if (o->given[O_COLL] && o->given[O_COLL2])
    return MG_ERR_TO(S->err, "--collectives and --coll are the same option: give one");
  const char *cl = o->given[O_COLL] ? o->val[O_COLL] : o->given[O_COLL2] ? o->val[O_COLL2] : NULL;
  if (cl) {
    if (mg_cmd_each(cl, "--collectives", add_coll, S, S->err, sizeof S->err)) return -1;
  } else if (o->given[O_P2P]) { /* every point-to-point operation with a guideline to check */
    for (int c = MG_NCOLLECTIVES; c < MG_NCOLL; c++)
      if (mg_colls[c].nalgs > 1) S->colls[S->ncolls++] = (mg_coll)c;
  } else {
    /* every collective that has a mock-up to compare with; with --sizes-from also every
     * point-to-point operation with one (issue 33: an application's hottest sites were MPI_Send
     * calls, and the loop left them 'not measured'): sizes_from keeps those the trace called */
    int last = o->given[O_SIZES_FROM] ? MG_NCOLL : MG_NCOLLECTIVES;
    for (int c = 0; c < last; c++)
      if (mg_colls[c].nalgs > 1) S->colls[S->ncolls++] = (mg_coll)c;
  }
  if (o->given[O_MOCKUPS]) {
    if (mg_cmd_each(o->val[O_MOCKUPS], "--mockups", add_mockup, S, S->err, sizeof S->err)) return -1;
  } else {
    for (int i = 0; i < S->ncolls; i++) S->algmask[S->colls[i]] = (1u << mg_colls[S->colls[i]].nalgs) - 2;
  }
  /* the families: the preset's, unless --families (or --mockups alone) says otherwise */
  famsel f = {0, S};
  if (o->given[O_FAMILIES] || !o->given[O_MOCKUPS]) {
    char list[256];
    snprintf(list, sizeof list, "%s",
             o->given[O_FAMILIES] ? o->val[O_FAMILIES] : o->given[O_P2P] ? MG_CHECK_P2P_FAMILIES : S->pre->families);
    if (mg_cmd_each(list, "--families", add_family, &f, S->err, sizeof S->err)) return -1;
    if (o->given[O_IN_PLACE] && !o->given[O_FAMILIES]) f.fam |= 1u << MG_FAM_INPLACE; /* what it is for */
    for (int i = 0; i < S->ncolls; i++)
      for (int a = 1; a < mg_colls[S->colls[i]].nalgs; a++)
        if (!(f.fam & (1u << mg_colls[S->colls[i]].algs[a].family))) S->algmask[S->colls[i]] &= ~(1u << a);
  }
  if (!cl) { /* no --collectives: those with a mock-up chosen */
    int k = 0;
    for (int i = 0; i < S->ncolls; i++)
      if (S->algmask[S->colls[i]]) S->colls[k++] = S->colls[i];
    S->ncolls = k;
    if (!k) return MG_ERR_TO(S->err, "--mockups and --families select no mock-up together");
  }
  return 0;
}

/* The repetition settings: --nrep, --rse, --min-nrep, --max-nrep (the preset's otherwise). */
static int parse_reps(const opts_t *o, state *S) {
  mg_rep_cfg *r = &S->base.rep;
  if (o->given[O_NREP] && (o->given[O_RSE] || o->given[O_MIN] || o->given[O_MAX]))
    return MG_ERR_TO(S->err, "--nrep fixes the count; it contradicts --rse, --min-nrep and --max-nrep");
  r->mode = o->given[O_NREP] ? MG_REP_FIXED : MG_REP_RSE;
  r->stat = MG_STAT_MEDIAN;
  r->rse = S->pre->rse;
  r->min_nrep = S->pre->min_nrep;
  r->max_nrep = S->pre->max_nrep;
  r->k = 10;
  if (o->given[O_NREP] && mg_parse_long(o->val[O_NREP], 2, 100000000, &r->nrep, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--nrep: %s", S->e);
  if (o->given[O_RSE]) {
    if (mg_parse_double(o->val[O_RSE], 0, &r->rse, S->e, sizeof S->e)) return MG_ERR_TO(S->err, "--rse: %s", S->e);
    if (!(r->rse > 0 && r->rse < 1))
      return MG_ERR_TO(S->err, "--rse: %s is not between 0 and 1 (e.g. 0.01 for 1 %%)", o->val[O_RSE]);
  }
  if (o->given[O_MIN] && mg_parse_long(o->val[O_MIN], 2, 100000000, &r->min_nrep, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--min-nrep: %s", S->e);
  if (o->given[O_MAX] && mg_parse_long(o->val[O_MAX], 2, 100000000, &r->max_nrep, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--max-nrep: %s", S->e);
  if (!o->given[O_MIN] && r->min_nrep > r->max_nrep) r->min_nrep = r->max_nrep;
  if (r->min_nrep > r->max_nrep)
    return MG_ERR_TO(S->err, "--min-nrep %ld is larger than --max-nrep %ld", r->min_nrep, r->max_nrep);
  return 0;
}

/* --sizes-from TRACE: the collectives and message sizes an application called (MPIGUIDE_TRACE),
 * among those --collectives chose; the file is read on rank 0 and broadcast. */
static int sizes_from(const opts_t *o, state *S) {
  if (o->given[O_SIZES]) return MG_ERR_TO(S->err, "--sizes and --sizes-from both choose the sizes: give one");
  char *text = NULL;
  size_t len;
  int np = 0;
  if (mg_cmd_read_shared(o->val[O_SIZES_FROM], &text, &len, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--sizes-from: %s", S->e);
  int rc = mg_cmd_trace_sizes(text, o->val[O_SIZES_FROM], S->sizes, S->nsizes, &np, S->e, sizeof S->e);
  free(text);
  if (rc) return MG_ERR_TO(S->err, "--sizes-from: %s", S->e);
  int k = 0;
  for (int i = 0; i < S->ncolls; i++)
    if (S->nsizes[S->colls[i]]) S->colls[k++] = S->colls[i];
    else free(S->sizes[S->colls[i]]), S->sizes[S->colls[i]] = NULL;
  S->ncolls = k;
  if (!k) return MG_ERR_TO(S->err, "--sizes-from %s: the application made no non-empty call of the collectives chosen",
                           o->val[O_SIZES_FROM]);
  for (int i = 0; i < k; i++)
    if (mg_cmd_check_sizes(S->sizes[S->colls[i]], S->nsizes[S->colls[i]], &S->base, mg_colls[S->colls[i]].reduction,
                           S->err, sizeof S->err))
      return -1;
  if (np > 0 && np != S->size && S->rank == 0)
    fprintf(stderr, "mpiguide check: warning: the trace was taken on %d processes, this check runs on %d: its "
                    "verdicts hold for %d\n", np, S->size, S->size);
  return 0;
}

static int parse_measure(const opts_t *o, state *S, const mg_bench_meta *meta) {
  mg_bench_cfg *cfg = &S->base;
  if (choose(o, S)) return -1;
  int anyred = 0, anyroot = 0;
  for (int i = 0; i < S->ncolls; i++) {
    mg_coll c = S->colls[i];
    if (!S->algmask[c])
      return MG_ERR_TO(S->err, 
          "--mockups and --families select no mock-up of %s: add one of its mock-ups or families, or leave %s "
          "out of --collectives",
          mg_colls[c].name, mg_colls[c].name);
    S->algmask[c] |= 1u; /* the default, always */
    anyred |= mg_colls[c].reduction;
    anyroot |= mg_colls[c].rooted;
  }
  /* the preset rotates roots and reduces its pairs unless one root, datatype or op is given */
  mg_cmd_data_args da = {o->val[O_DTYPE], o->val[O_OP], o->val[O_ROOT], o->val[O_ROOTS], o->val[O_REDS],
                        o->val[O_COUNTS], 0};
  for (int i = 0; i < S->ncolls; i++) da.anycounts |= mg_bench_has_counts(S->colls[i]);
  if (!da.root && !da.roots) da.roots = S->pre->roots;
  if (!da.reds && !da.dtype && !da.op) da.reds = S->pre->reductions;
  if (!anyroot) da.roots = o->val[O_ROOTS]; /* given without a rooted collective: refused */
  if (!anyred) da.reds = o->val[O_REDS];
  if (mg_cmd_data_opts(&da, S->size, anyred, anyroot, cfg, S->err, sizeof S->err)) return -1;
  if (o->given[O_SIZES_FROM]) {
    if (sizes_from(o, S)) return -1;
  } else
  for (int i = 0; i < S->ncolls; i++) {
    mg_coll c = S->colls[i];
    const char *spec = o->given[O_SIZES]           ? o->val[O_SIZES]
                       : mg_coll_is_p2p(c)         ? MG_CHECK_P2P_SIZES
                       : mg_check_whole_vector(c) ? S->pre->vector_sizes
                                                  : S->pre->block_sizes;
    if (mg_parse_sizes(spec, &S->sizes[c], &S->nsizes[c], S->e, sizeof S->e))
      return MG_ERR_TO(S->err, "--sizes: %s", S->e);
    if (!o->given[O_SIZES] && !mg_colls[c].reduction) { /* a preset's sizes: those --datatype divides */
      int k = 0;
      for (int j = 0; j < S->nsizes[c]; j++)
        if (S->sizes[c][j] % (size_t)cfg->dtype->size == 0) S->sizes[c][k++] = S->sizes[c][j];
      if (k == 0)
        return MG_ERR_TO(S->err, "no size of the preset is a multiple of the %d bytes of %s: give --sizes",
                         cfg->dtype->size, cfg->dtype->name);
      S->nsizes[c] = k;
    }
    if (mg_cmd_check_sizes(S->sizes[c], S->nsizes[c], cfg, mg_colls[c].reduction, S->err, sizeof S->err)) return -1;
  }
  int m = o->given[O_SYNC] ? mg_sync_find(o->val[O_SYNC]) : MG_SYNC_BARRIER;
  if (m < 0)
    return MG_ERR_TO(S->err, "unknown sync method '%s'; valid: barrier dbarrier dissem window roundtime", o->val[O_SYNC]);
  cfg->sync = (mg_sync_method)m;
  cfg->time = mg_sync_uses_clock(cfg->sync) ? MG_TIME_GLOBAL : MG_TIME_LOCAL;
  cfg->timer = MG_TIMER_MONOTONIC;
  cfg->window_factor = 4;
  cfg->clock_fits = 16;
  cfg->clock_pingpongs = 10;

  if (parse_reps(o, S)) return -1;
  long v;
  cfg->warmup = S->pre->warmup;
  if (o->given[O_WARMUP]) {
    if (mg_parse_long(o->val[O_WARMUP], 0, 1000000, &v, S->e, sizeof S->e)) return MG_ERR_TO(S->err, "--warmup: %s", S->e);
    cfg->warmup = (int)v;
  }
  if (mg_sync_uses_clock(cfg->sync) && cfg->warmup == 0)
    return MG_ERR_TO(S->err, "--warmup 0 with --sync %s: the window is sized from the warm-up", mg_sync_name(cfg->sync));
  cfg->batch = 10;
  cfg->time_total = S->pre->budget;
  if (o->given[O_BUDGET]) {
    if (mg_parse_seconds(o->val[O_BUDGET], &cfg->time_total, S->e, sizeof S->e))
      return MG_ERR_TO(S->err, "--budget: %s", S->e);
    if (!(cfg->time_total > 0)) return MG_ERR_TO(S->err, "--budget: must be positive");
  }
  if (o->given[O_NREP] && !o->given[O_BUDGET]) cfg->time_total = 0; /* exactly N: no budget unless asked */
  cfg->shuffle = !o->given[O_NO_SHUFFLE];
  cfg->in_place = o->given[O_IN_PLACE];
  if (mg_cmd_pattern(o->given[O_PATTERN] ? o->val[O_PATTERN] : NULL, &cfg->pattern, S->err, sizeof S->err)) return -1;
  cfg->seed = S->ck.seed;
  cfg->sync_cost_reps = 50;
  cfg->comm = MPI_COMM_WORLD;
  S->model_guided = o->given[O_MODEL_GUIDED];
  S->model_slack = 1.5;
  if (o->given[O_MODEL_SLACK] && (mg_parse_double(o->val[O_MODEL_SLACK], 0, &S->model_slack, S->e, sizeof S->e) ||
                                  !(S->model_slack >= 1)))
    return MG_ERR_TO(S->err, "--model-slack: '%s' is not a number >= 1", o->val[O_MODEL_SLACK]);
  if (o->given[O_LIBVARS] && S->model_guided)
    return MG_ERR_TO(S->err, "--lib-variants with --model-guided: the model prices no library variant; measure them "
                             "without --model-guided");
  if (o->given[O_LIBVARS] && mg_cmd_lib_variants(o->val[O_LIBVARS], S->colls, S->ncolls, cfg, &S->lib, &S->lvset, S->err,
                                            sizeof S->err))
    return -1;
  if ((S->model_guided || o->given[O_MODEL_SLACK]) && !S->have_lg)
    return MG_ERR_TO(S->err, "--model-guided%s needs --loggp FILE (`mpiguide loggp -o FILE` measures it)",
                     S->model_guided ? "" : " (and --model-slack)");

  S->resume = o->given[O_RESUME];
  if (S->resume && S->force)
    return MG_ERR_TO(S->err, "--resume keeps the measurements in DIR, --force discards them: give one");
  if (S->resume && !o->given[O_OUT])
    return MG_ERR_TO(S->err, "--resume needs -o DIR, the directory of the interrupted check");
  if (S->resume && S->model_guided)
    return MG_ERR_TO(S->err, "--resume cannot complete a --model-guided check (its mock-ups follow from all its "
                             "defaults): start it anew with --force");
  snprintf(S->out_default, sizeof S->out_default, "mpiguide-check-%s", meta->launch);
  S->out = o->given[O_OUT] ? o->val[O_OUT] : S->out_default;
  if (S->rank == 0 && prepare_out(S, S->out, 0)) return -1;
  if (S->size < 2) /* after every other check, so that a singleton still reports a bad option */
    return MG_ERR_TO(S->err, "one process measures nothing (a collective on 1 process exchanges no data, and "
                             "its verdicts would read as a perfect score): start it with mpirun -np P, P >= 2, "
                             "e.g. `mpirun -np 4 mpiguide check --quick`, or analyse saved data with --from");
  return 0;
}

/* ---------- measurement ---------- */

static int same_sizes(const state *S, mg_coll a, mg_coll b) {
  if (S->nsizes[a] != S->nsizes[b]) return 0;
  return !memcmp(S->sizes[a], S->sizes[b], (size_t)S->nsizes[a] * sizeof(size_t));
}

static unsigned block_mask(const mg_bench_cfg *cfg, mg_coll c, const size_t *sizes, int si);

/* The blocks (cells) the engine measures for a group: the unit of progress, saving and the budget. */
static long group_blocks(const mg_bench_cfg *cfg) {
  long nb = 0;
  for (int i = 0; i < cfg->ncolls; i++)
    for (int si = 0; si < cfg->nsizes; si++) nb += __builtin_popcount(block_mask(cfg, cfg->colls[i], cfg->sizes, si));
  return nb;
}

/* One engine run per set of collectives sharing a size list. */
static int make_groups(state *S) {
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
    for (int si = 0; si < S->nsizes[c]; si++) S->blocks_total += __builtin_popcount(block_mask(cfg, c, S->sizes[c], si));
  }
  return 0;
}

/* ---------- --resume: measure only the cells an interrupted check did not save ---------- */

/* cmd without the tokens that do not change what is measured: --resume, --force, -f. */
static void command_key(const char *cmd, char *out, size_t len) {
  size_t u = 0;
  for (const char *p = cmd; *p && u + 1 < len;) {
    size_t n = strcspn(p, " ");
    int drop = (n == 8 && !strncmp(p, "--resume", 8)) || (n == 7 && !strncmp(p, "--force", 7)) ||
               (n == 2 && !strncmp(p, "-f", 2));
    if (!drop) {
      if (u && u + 1 < len) out[u++] = ' ';
      for (size_t i = 0; i < n && u + 1 < len; i++) out[u++] = p[i];
    }
    p += n;
    while (*p == ' ') p++;
  }
  out[u] = '\0';
}

/* The blocks the engine measures for c at size index si (bench/engine.c): one per (datatype, op) pair of
 * a reduction that divides the size, a barrier's at the first size only; as a mask over the pairs. */
static unsigned block_mask(const mg_bench_cfg *cfg, mg_coll c, const size_t *sizes, int si) {
  unsigned m = 0;
  for (int k = 0; k < mg_bench_nreds(cfg, c) && k < 32; k++) {
    const mg_dtype_info *dt = mg_colls[c].reduction && cfg->nreds > 0 ? cfg->reds[k].dtype : cfg->dtype;
    if (c == MG_BARRIER ? si == 0 : sizes[si] % (size_t)dt->size == 0) m |= 1u << k;
  }
  return m;
}

/* The pair k of a row's datatype and op for c (0 but for reductions measured with several), -1 none. */
static int pair_of(const mg_bench_cfg *cfg, mg_coll c, const char *dtype, const char *op) {
  if (mg_bench_nreds(cfg, c) == 1) return 0;
  for (int k = 0; k < cfg->nreds; k++)
    if (!strcmp(cfg->reds[k].dtype->name, dtype) && !strcmp(cfg->reds[k].op->name, op)) return k;
  return -1;
}

/* The size index of (c, bytes) in S's plan, -1 none; a barrier's 0 bytes are its first size. */
static int size_index(const state *S, mg_coll c, size_t bytes) {
  if (c == MG_BARRIER) return bytes == 0 && S->nsizes[c] > 0 ? 0 : -1;
  for (int k = 0; k < S->nsizes[c]; k++)
    if (S->sizes[c][k] == bytes) return k;
  return -1;
}

/* A #@ line of the interrupted run that belongs to a cell: its collective and bytes (the first field
 * "coll[:dtype:op]", bytes the 3rd field, or the 2nd for #@budget_hit). 1 found, 0 not such a line. */
static int meta_cell(const char *line, mg_coll *c, size_t *bytes) {
  static const char *const keys[] = {"#@stop=", "#@budget_hit=", "#@skipped=", "#@failed=", "#@measure_only=", NULL};
  for (int i = 0; keys[i]; i++) {
    size_t n = strlen(keys[i]);
    if (strncmp(line, keys[i], n)) continue;
    char buf[512], *f[4] = {0};
    snprintf(buf, sizeof buf, "%s", line + n);
    int nf = 0;
    for (char *p = buf; nf < 4 && p; nf++) {
      f[nf] = p;
      p = strchr(p, ',');
      if (p) *p++ = '\0';
    }
    const char *b = i == 1 ? f[1] : f[2];
    if (!b) return 0;
    f[0][strcspn(f[0], ":")] = '\0';
    int k = mg_coll_find(f[0]);
    if (k < 0) return 0;
    *c = (mg_coll)k, *bytes = (size_t)strtoull(b, NULL, 10);
    return 1;
  }
  return 0;
}

/* Every rank, after parse_measure, with --resume: read DIR/raw.csv (rank 0 reads, all parse), check that
 * it was measured by the same command on as many processes of the same MPI, and keep in S->sizes only
 * the sizes it does not hold whole (every block of the size: each reduction's pair). Its rows and #@
 * lines of the sizes it holds whole are kept; those of a size cut in the middle are measured anew.
 * Its launch id becomes this run's (meta->launch), so the file stays one launch: every cell is still
 * measured within one launch, default and mock-ups interleaved. The budget shrinks in proportion to
 * the blocks left. 0, or -1 with S->err. */
static int resume_plan(state *S, int argc, char **argv, mg_bench_meta *meta) {
  char path[4200], key_now[8192], key_then[8192];
  size_t len;
  snprintf(path, sizeof path, "%s/raw.csv", S->out);
  if (mg_cmd_read_shared(path, &S->old_text, &len, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--resume: %s: nothing to resume (without --resume the check starts anew)", S->e);
  char *cmd_now = mg_cmd_join(argc, argv);
  if (!cmd_now) return MG_ERR_TO(S->err, "out of memory");
  command_key(cmd_now, key_now, sizeof key_now);
  free(cmd_now);
  const mg_bench_cfg *cfg = &S->base;
  unsigned *have[MG_NCOLL] = {0}; /* have[c][si]: the pairs whose block the file holds */
  int rc = 0, header = 0, complete = 1, col[4] = {-1, -1, -1, -1}, seen_cmd = 0; /* collective bytes datatype op */
  static const char *const colname[4] = {"collective", "bytes", "datatype", "op"};
  for (int i = 0; i < S->ncolls && !rc; i++)
    if (!(have[S->colls[i]] = calloc((size_t)S->nsizes[S->colls[i]] + 1, sizeof(unsigned))))
      rc = MG_ERR_TO(S->err, "out of memory");
  const char *rows = NULL;
  long lineno = 0;
  for (const char *p = S->old_text; *p && !rc; lineno++) { /* pass 1: what the file holds */
    const char *nl = strchr(p, '\n');
    if (!nl) {
      rc = MG_ERR_TO(S->err, "--resume: %.1000s:%ld: the last line has no line break: not a file a check wrote",
                     path, lineno + 1);
      break;
    }
    size_t n = (size_t)(nl - p);
    char line[8192], *f[64];
    snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
    if (!header && !strncmp(line, "#@", 2)) {
      char *eq = strchr(line, '=');
      const char *v = eq ? eq + 1 : "";
      if (eq) *eq = '\0';
      if (!strcmp(line + 2, "check_incomplete")) complete = 0;
      else if (!strcmp(line + 2, "command")) command_key(v, key_then, sizeof key_then), seen_cmd = 1;
      else if (!strcmp(line + 2, "launch") && strlen(v) < sizeof meta->launch)
        snprintf(meta->launch, sizeof meta->launch, "%s", v);
      else if (!strcmp(line + 2, "nprocs") && atoi(v) != S->size)
        rc = MG_ERR_TO(S->err, "--resume: %.1000s was measured on %s processes, this run has %d: resume it on %s",
                       path, v, S->size, v);
      else if (!strcmp(line + 2, "mpi_library_name") && strcmp(v, meta->mpi_name))
        rc = MG_ERR_TO(S->err, "--resume: %.1000s was measured with %s, this run uses %s: resume it with %s", path,
                       v, meta->mpi_name, v);
    } else if (!header && line[0] != '#') {
      if (strcmp(line, mg_raw_columns))
        rc = MG_ERR_TO(S->err, "--resume: %.1000s:%ld: not the columns this mpiguide writes (%s)", path, lineno + 1,
                       mg_raw_columns);
      int nf = mg_csv_split(line, f, 64);
      for (int k = 0; k < nf; k++)
        for (int q = 0; q < 4; q++)
          if (!strcmp(f[k], colname[q])) col[q] = k;
      header = 1;
      rows = nl + 1;
    } else if (header && n) {
      int nf = mg_csv_split(line, f, 64), c = nf > col[0] && nf > col[1] && nf > col[2] && nf > col[3] && col[3] >= 0
                                                   ? mg_coll_find(f[col[0]]) : -1;
      int si = c >= 0 && have[c] ? size_index(S, (mg_coll)c, (size_t)strtoull(f[col[1]], NULL, 10)) : -1;
      int k = si >= 0 ? pair_of(cfg, (mg_coll)c, f[col[2]], f[col[3]]) : -1;
      if (k < 0)
        rc = MG_ERR_TO(S->err, "--resume: %.1000s:%ld: a cell these options do not measure: resume with the options "
                               "of the interrupted check", path, lineno + 1);
      else
        have[c][si] |= 1u << k;
    }
    p = nl + 1;
  }
  if (!rc && !seen_cmd) rc = MG_ERR_TO(S->err, "--resume: %.1000s has no #@command line: not a check's raw.csv", path);
  if (!rc && strcmp(key_now, key_then))
    rc = MG_ERR_TO(S->err, "--resume: %.1000s was measured by `%.2000s`; resume it with the same options (only "
                           "--resume added)", path, key_then);
  if (!rc && !header) rc = MG_ERR_TO(S->err, "--resume: %.1000s has no header line: nothing to resume", path);
  /* whole[c][si]: every block of the size is in the file */
  long total = 0, left = 0;
  for (int i = 0; !rc && i < S->ncolls; i++) {
    mg_coll c = S->colls[i];
    for (int si = 0; si < S->nsizes[c]; si++) {
      unsigned want = block_mask(cfg, c, S->sizes[c], si);
      int whole = (have[c][si] & want) == want;
      have[c][si] = whole;
      total += __builtin_popcount(want);
      if (whole) S->cells_before += __builtin_popcount(want);
      else left += __builtin_popcount(want);
    }
    if (c == MG_BARRIER) /* its one block stands for every size */
      for (int si = 1; si < S->nsizes[c]; si++) have[c][si] = have[c][0];
  }
  /* pass 2: the kept #@ lines and rows, of the whole sizes only */
  size_t cap = len + 1, used = 0, rused = 0;
  char *keep = rc ? NULL : malloc(cap), *krows = rc ? NULL : malloc(cap);
  if (!rc && (!keep || !krows)) rc = MG_ERR_TO(S->err, "out of memory");
  for (const char *p = S->old_text; !rc && *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = (size_t)(nl - p) + 1;
    char line[8192], *f[64];
    snprintf(line, sizeof line, "%.*s", (int)(n - 1 < sizeof line ? n - 1 : sizeof line - 1), p);
    mg_coll c;
    size_t b;
    int si;
    if (p < rows) {
      if (!strncmp(line, "#@check_sizes=", 14) ||
          (meta_cell(line, &c, &b) && have[c] && (si = size_index(S, c, b)) >= 0 && have[c][si]))
        memcpy(keep + used, p, n), used += n;
    } else if (n > 1 && mg_csv_split(line, f, 64) > col[1]) {
      int k = mg_coll_find(f[col[0]]);
      if (k >= 0 && have[k] && (si = size_index(S, (mg_coll)k, (size_t)strtoull(f[col[1]], NULL, 10))) >= 0 &&
          have[k][si])
        memcpy(krows + rused, p, n), rused += n, S->old_nrows++;
    }
    p = nl + 1;
  }
  if (!rc) {
    keep[used] = krows[rused] = '\0';
    S->old_keep = keep, S->old_rows = krows, S->old_rows_len = rused;
    keep = krows = NULL;
    for (int i = 0; i < S->ncolls; i++) { /* only the sizes not held whole */
      mg_coll c = S->colls[i];
      int k = 0;
      for (int si = 0; si < S->nsizes[c]; si++)
        if (!have[c][si]) S->sizes[c][k++] = S->sizes[c][si];
      S->nsizes[c] = k;
    }
  }
  free(keep), free(krows);
  for (int c = 0; c < MG_NCOLL; c++) free(have[c]);
  if (rc) return -1;
  int k = 0;
  for (int i = 0; i < S->ncolls; i++)
    if (S->nsizes[S->colls[i]]) S->colls[k++] = S->colls[i];
  S->ncolls = k;
  if (S->base.time_total > 0 && total > 0) S->base.time_total *= (double)left / (double)total;
  S->nothing_left = left == 0 || complete; /* complete: it finished measuring before it stopped */
  if (S->rank == 0 && !S->quiet)
    fprintf(stderr, "mpiguide check: resuming %s: %ld of %ld cells are measured, %ld left\n", S->out,
            S->cells_before, total, complete ? 0 : left);
  return 0;
}

/* Rank 0, --resume with nothing left to measure: raw.csv without its #@check_incomplete line (the
 * run was stopped after its last cell was saved). 0, or -1 with S->err. */
static int resume_finish(state *S) {
  char path[4096];
  snprintf(path, sizeof path, "%s/raw.csv", S->out);
  if (!strstr(S->old_text, "\n#@check_incomplete=")) return 0;
  mg_outfile f;
  if (mg_outfile_open(&f, path, S->err, sizeof S->err)) return -1;
  for (const char *p = S->old_text; *p;) {
    size_t n = strcspn(p, "\n");
    if (strncmp(p, "#@check_incomplete=", 19)) fwrite(p, 1, n + (p[n] == '\n'), f.f);
    p += n + (p[n] == '\n');
  }
  return mg_outfile_commit(&f, S->err, sizeof S->err);
}

/* The #@ lines of a check's raw.csv after the bench metadata (docs/check.md). */
typedef struct raw_extra {
  const state *S;
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
    mg_meta(f, "check_model_guided", "%ld of %ld mock-up cells measured (predicted <= %g x the default's median)",
            x->S->guided_cells, x->S->guided_all, x->S->model_slack);
  if (x->incomplete) mg_meta(f, "check_incomplete", "%s", x->incomplete);
  mg_meta(f, "check_rows", "%ld", x->m->rows + x->S->old_nrows);
}

/* Rank 0: DIR/raw.csv from the groups measured so far. 0, or -1 with S->err. */
static int write_raw(state *S, const mg_bench_meta *meta, const char *incomplete) {
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
  /* results of an earlier run in DIR (--force) no longer match raw.csv */
  for (int i = 1; mg_ck_result_files[i]; i++) {
    snprintf(path, sizeof path, "%s/%s", S->out, mg_ck_result_files[i]);
    unlink(path);
  }
  return 0;
}

/* ---------- analysis (rank 0 / offline) ---------- */

/* DIR/report.html from the data and verdicts (src/report), under a temporary name renamed when
 * complete. 0, or -1 with a message. */
static int write_report(const char *dir, const mg_ck_data *d, const mg_ck_result *r, char *err, size_t errlen) {
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/report.html", dir) >= sizeof path)
    return snprintf(err, errlen, "%s: directory name too long for the report", dir), -1;
  mg_rp_preds pred;
  char pp[4096];
  snprintf(pp, sizeof pp, "%s/predicted.csv", dir);
  if (mg_rp_preds_read(pp, &pred, err, errlen)) return -1;
  mg_rp_run run = {.d = d, .r = r, .pred = &pred};
  int rc = mg_rp_write_file(path, &run, 1, err, errlen);
  mg_rp_preds_free(&pred);
  return rc;
}

static int analyse(state *S, const char *const *sources, int nsources, const char *outdir) {
  mg_ck_data d;
  mg_ck_result r;
  mg_ck_data_init(&d);
  memset(&r, 0, sizeof r);
  int status = 0;
  char err[MG_CK_ERR];
  for (int i = 0; i < nsources; i++)
    if (mg_ck_read(&d, sources[i], err, sizeof err)) {
      fprintf(stderr, "mpiguide check: %s\n", err);
      status = 2;
      goto out;
    }
  if (mg_ck_data_check(&d, err, sizeof err)) {
    fprintf(stderr, "mpiguide check: %s\n", err);
    status = 2;
    goto out;
  }
  /* the bootstrap seed of the run that wrote the data, unless --seed says otherwise, so
   * `--from DIR` reproduces the run's verdicts exactly */
  if (!S->seed_given && d.launches[0].has_seed) S->ck.seed = d.launches[0].seed;
  if (mg_ck_analyze(&d, &S->ck, &r, err, sizeof err)) {
    fprintf(stderr, "mpiguide check: analysis failed: %s\n", err);
    status = 1;
    goto out;
  }
  if (outdir && mg_ck_write_results(outdir, &d, &r, err, sizeof err)) {
    fprintf(stderr, "mpiguide check: %s\n", err);
    status = 1;
    goto out;
  }
  if (!S->quiet) {
    if (mg_ck_print_comparer(stdout, (mg_ck_comparer)S->comparer, (mg_ck_format)S->format, S->merge, &d,
                             &r)) {
      fprintf(stderr, "mpiguide check: out of memory\n");
      status = 1;
      goto out;
    }
    if (S->format == MG_CK_TEXT) {
      putchar('\n');
      mg_ck_print_summary(stdout, &d, &r);
      if (outdir) {
        int raw_here = nsources == 1 && !strcmp(sources[0], outdir);
        printf("\nresults: %s/ (%sverdicts.csv, verdicts.json, summary.txt, report.html%s)\n", outdir,
               raw_here ? "raw.csv, " : "", r.nlib ? ", libvariants.csv, libverdicts.csv" : "");
      }
    }
  }
  if (outdir && S->have_lg) { /* predicted next to measured (docs/model.md) */
    char path[4096];
    snprintf(path, sizeof path, "%s/predicted.csv", outdir);
    if (mg_cmd_predict_data(&S->lg, &d, path, S->quiet || S->format != MG_CK_TEXT ? NULL : stdout, err, sizeof err)) {
      fprintf(stderr, "mpiguide check: the predictions: %s\n", err);
      status = 1;
      goto out;
    }
  }
  fflush(stdout);
  /* the HTML report consumes the results: written last, and a failure keeps the files before it */
  if (outdir && write_report(outdir, &d, &r, err, sizeof err)) {
    fprintf(stderr, "mpiguide check: %s\n", err);
    status = 1;
  }
out:
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
  return status;
}

static int offline(state *S, const opts_t *o) {
  if (mg_cmd_launched_rank() != 0) return 0; /* started under mpirun: rank 0 does it alone */
  for (int id = 0; id < O_N; id++)
    if (o->given[id] && mg_check_measure_only(id)) {
      fprintf(stderr,
              "mpiguide check: --%s applies to a measurement, not to --from (the data are measured "
              "already)\n",
              opts[id].name);
      return 2;
    }
  if (o->nlist == 0) {
    fprintf(stderr, "mpiguide check: --from needs at least one directory or file\n");
    return 2;
  }
  const char *outdir = o->given[O_OUT] ? o->val[O_OUT] : NULL;
  if (outdir && prepare_out(S, outdir, 1)) {
    fprintf(stderr, "mpiguide check: %s\n", S->err);
    return 2;
  }
  int st = analyse(S, o->list, o->nlist, outdir);
  if (st && S->created_out) rmdir(outdir); /* nothing was written into it */
  return st;
}

/* Nothing lost on Ctrl-C (cmd_check_save.c): rank 0 saves the cells measured so far. These are
 * its hooks; the state of the one measurement this process makes is file-static because the
 * engine's callback argument is the progress line's. */
static struct {
  state *S;
  const mg_bench_meta *meta;
  int group;  /* the group being measured */
  long base;  /* cells of the groups before it */
} meas;

/* DIR/raw.csv with the groups done and the blocks of the current one so far. */
static int write_so_far(void *ctx, const char *note) {
  state *S = ctx;
  group *G = &S->groups[meas.group];
  int was_done = G->done;
  G->done = 1; /* its blocks so far: the engine fills G->res as it goes */
  int rc = write_raw(S, meas.meta, note);
  G->done = was_done;
  return rc;
}

static void block_done(const mg_bench_result *res, void *arg) {
  (void)arg;
  mg_check_save_block(meas.base + res->nblocks, 0);
}

/* Every rank: measure groups [first, ngroups) one after another, the budget shared over what is left. */
static void run_groups(state *S, const mg_bench_meta *meta, int first) {
  double work_total = 0, work_before = 0; /* the progress line's shares: expected time, not cells */
  for (int gi = first; gi < S->ngroups; gi++) work_total += mg_bench_work(&S->groups[gi].cfg);
  for (int gi = first; gi < S->ngroups; gi++) {
    group *G = &S->groups[gi];
    long nb = group_blocks(&G->cfg);
    if (S->base.time_total > 0) { /* the rest of the budget, shared by blocks */
      double left = S->base.time_total - S->prog.elapsed_before;
      G->cfg.time_total = (left > 0 ? left : 1e-3) * (double)nb / (double)(S->blocks_total - S->blocks_before);
    }
    double work = mg_bench_work(&G->cfg);
    S->prog.frac_before = work_before / work_total;
    S->prog.frac_share = work / work_total;
    work_before += work;
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
      if (S->rank == 0 && gi > 0 && write_raw(S, meta, "the measurement failed; earlier collectives kept") == 0)
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

/* Rank 0, --model-guided: from the defaults measured (DIR/raw.csv as written so far) and the LogGP
 * parameters, mask[i * MAXS + k] = the algorithms of collective colls[i] to measure at its k-th
 * size: the default and every mock-up of S->algmask whose predicted time is at most
 * model_slack x the default's median there, or that has no price. 0, or -1 with S->err. */
#define MG_GUIDED_MAXS 256
static int guided_masks(state *S, unsigned *mask) {
  mg_ck_data d;
  mg_model m;
  int rc = 0;
  mg_ck_data_init(&d);
  mg_model_init(&m, &S->lg);
  if (mg_ck_read(&d, S->out, S->e, sizeof S->e) || mg_cmd_model_defaults(&m, &d, S->e, sizeof S->e))
    rc = MG_ERR_TO(S->err, "--model-guided: the defaults measured: %s", S->e);
  mg_model_sort(&m);
  for (int i = 0; !rc && i < S->ncolls; i++) {
    mg_coll c = S->colls[i];
    for (int k = 0; k < S->nsizes[c] && k < MG_GUIDED_MAXS; k++) {
      double n = (double)S->sizes[c][k], def = mg_model_default(&m, c, S->size, n, NULL);
      unsigned w = 1u;
      for (int a = 1; a < mg_colls[c].nalgs; a++) {
        if (!(S->algmask[c] & (1u << a))) continue;
        double t = mg_model_alg(&m, c, a, S->size, n);
        if (!isfinite(t) || !isfinite(def) || t <= S->model_slack * def) w |= 1u << a;
      }
      mask[i * MG_GUIDED_MAXS + k] = w;
    }
  }
  mg_model_free(&m);
  mg_ck_data_free(&d);
  return rc;
}

/* --model-guided, after the defaults: the groups of the mock-ups to measure, one per collective and
 * set of algorithms (the sizes that chose it). Every rank, collective (the masks from rank 0). */
static void guided_groups(state *S, const mg_bench_meta *meta) {
  size_t nm = (size_t)S->ncolls * MG_GUIDED_MAXS;
  unsigned *mask = calloc(nm, sizeof *mask);
  int rc = mask ? 0 : MG_ERR_TO(S->err, "out of memory");
  if (!rc && S->rank == 0)
    rc = write_raw(S, meta, "model-guided: the defaults only so far") ? -1 : guided_masks(S, mask);
  if (rc) fprintf(stderr, "mpiguide check: %s\n", S->err);
  MPI_Allreduce(MPI_IN_PLACE, &rc, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rc || !mask) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Bcast(mask, (int)nm, MPI_UNSIGNED, 0, MPI_COMM_WORLD);
  group *gr = realloc(S->groups, (size_t)(S->ngroups + (int)nm) * sizeof *gr);
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
      group *G = &S->groups[S->ngroups];
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
                    "its median); measuring those\n", cells, all, S->model_slack);
  free(mask);
}

/* Every rank: the measurement. --model-guided: the defaults first, then the mock-ups the model
 * does not rule out (docs/model.md). */
static void measure(state *S, const mg_bench_meta *meta) {
  meas.S = S, meas.meta = meta;
  if (S->model_guided) { /* phase 1: the defaults alone (S->algmask keeps the mock-ups asked for) */
    S->blocks_total *= 2;  /* phase 2: at most as many blocks again */
    for (int g = 0; g < S->ngroups; g++)
      for (int i = 0; i < S->groups[g].cfg.ncolls; i++) S->groups[g].cfg.algmask[S->groups[g].cfg.colls[i]] = 1u;
  }
  mg_check_save_start(S->rank, S->out, S->cells_before, S->blocks_total, S->created_out, write_so_far, S);
  mg_cmd_progress_init(&S->prog, "check", S->rank == 0 && S->progress, S->base.time_total);
  int phase1 = S->ngroups;
  run_groups(S, meta, 0);
  if (S->model_guided) {
    mg_cmd_progress_end(&S->prog);
    guided_groups(S, meta);
    run_groups(S, meta, phase1);
  }
  mg_cmd_progress_end(&S->prog);
}

/* --help and --from need no MPI: their exit code, or -1 to go on with a measurement. */
static int without_mpi(state *S, opts_t *o, int st) {
  if (st == 0 && o->given[O_HELP]) {
    if (mg_cmd_launched_rank() == 0) mg_check_print_usage(stdout);
    return 0;
  }
  if (st == 0 && o->given[O_PRESETS]) {
    if (mg_cmd_launched_rank() == 0) mg_check_print_presets_md(stdout);
    return 0;
  }
  if (st == 0 && o->given[O_FROM]) return offline(S, o);
  if (st != 0 && (o->given[O_FROM] || o->given[O_HELP]) && mg_cmd_launched_rank() == 0) {
    fprintf(stderr, "mpiguide check: %s\n(mpiguide check --help lists the options)\n", S->err);
    return 2;
  }
  return -1;
}

int mg_cmd_check(int argc, char **argv) {
  state S0, *S = &S0;
  memset(S, 0, sizeof *S);
  opts_t o;
  int dd = -1; /* "--": the launcher of --launches follows */
  for (int i = 1; i < argc && dd < 0; i++)
    if (!strcmp(argv[i], "--")) dd = i;
  int st = parse_argv(dd < 0 ? argc : dd, argv, &o, S);
  if (st == 0 && (dd >= 0 || o.given[O_LAUNCHES]) && !o.given[O_HELP]) {
    if (!o.given[O_LAUNCHES]) {
      fprintf(stderr, "mpiguide check: '--' introduces the launcher of --launches N\n");
      st = 2;
    } else {
      st = mg_check_launches_args(argc, argv, dd, &o);
    }
    mg_opt_vals_free(&o);
    return st;
  }
  if (st == 0) st = parse_analysis(&o, S);
  int status = without_mpi(S, &o, st);
  if (status >= 0) {
    mg_opt_vals_free(&o);
    return status;
  }
  mg_bench_meta meta;
  mg_cmd_libvar_env(argc, argv);
  if (mg_cmd_mpi_start("check", &S->rank, &S->size, &meta)) {
    mg_opt_vals_free(&o);
    return 1;
  }
  S->mpi = 1;
  if (st == 0) st = parse_measure(&o, S, &meta);
  if (st == 0 && S->resume) st = resume_plan(S, argc, argv, &meta);
  if (st == 0 && !S->nothing_left) st = make_groups(S);
  status = mg_cmd_agree("check", S->rank, st, S->err, mg_cmd_argv_hash(argc, argv),
                        "the ranks were started with different arguments; start every rank with the same options");
  if (status) {
    if (S->rank == 0 && S->created_out) rmdir(S->out);
    goto done;
  }
  S->command = mg_cmd_join(argc, argv);
  if (S->nothing_left) { /* --resume: every cell is measured already */
    if (S->rank == 0 && resume_finish(S)) fprintf(stderr, "mpiguide check: %s\n", S->err), status = 1;
  } else {
    measure(S, &meta);
    if (S->rank == 0) {
      for (int g = 0; g < S->ngroups; g++) mg_cmd_warn_failed("check", &S->groups[g].res);
      if (write_raw(S, &meta, NULL)) {
        fprintf(stderr, "mpiguide check: %s\n", S->err);
        status = 1;
      }
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);

done:
  for (int g = 0; g < S->ngroups; g++) mg_bench_result_free(&S->groups[g].res), free(S->groups[g].sizes);
  free(S->groups);
  for (int c = 0; c < MG_NCOLL; c++) free(S->sizes[c]);
  mg_cmd_mpi_end();
  /* the analysis needs no MPI: the other ranks are gone and leave the cores to rank 0 */
  if (status == 0 && S->rank == 0) {
    const char *src[1] = {S->out};
    status = analyse(S, src, 1, S->out);
    if (status == 2) status = 1; /* our own file did not read back: a failure, not bad input */
    if (status)
      fprintf(stderr,
              "mpiguide check: the raw data are kept in %s/raw.csv; analyse them again with "
              "`mpiguide check --from %s -o %s`\n",
              S->out, S->out, S->out);
  }
  free(S->command);
  free(S->old_text);
  free(S->old_keep);
  free(S->old_rows);
  mg_opt_vals_free(&o);
  return status;
}
