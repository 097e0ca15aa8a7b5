/*
 * The options of `mpiguide check` (the table is in cmd_check.h): those of the analysis, read in
 * both modes, and those of a measurement (what to measure, how often, where the results go),
 * read identically on every rank. A bad value leaves S->err and -1.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cli/cmd_check_guided.h"
#include "cli/cmd_check_state.h"
#include "cli/cmd_util.h"
#include "util/err.h"
#include "util/parse.h"

int mg_check_parse_argv(int argc, char **argv, mg_opt_vals *o, mg_check_state *S) {
  if (mg_opt_parse(argc, argv, mg_check_opts, O_N, o, S->err, sizeof S->err)) return -1;
  if (o->npos)
    return MG_ERR_TO(S->err, "unexpected argument '%s' (options start with - or --; several sources: --from DIR1 DIR2)",
                     o->pos[0]);
  return 0;
}

/* ---------- analysis options (both modes) ---------- */

int mg_check_parse_analysis(const mg_opt_vals *o, mg_check_state *S) {
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
  if (o->given[O_MIN_SPAN] && mg_cmd_min_span(o->val[O_MIN_SPAN], &S->ck.min_span, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--min-span: %s (e.g. 60s, 0 for none)", S->e);
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
    S->lg_noisy = mg_guided_model_noisy(o->val[O_LOGGP]); /* --model-guided: trust its prices? */
  }
  return 0;
}

/* ---------- measurement options ---------- */

static int add_mockup(const char *name, void *arg) {
  mg_check_state *S = arg;
  int found = 0;
  for (int i = 0; i < S->ncolls; i++) {
    mg_coll c = S->colls[i];
    for (int a = 1; a < mg_colls[c].nalgs; a++)
      if (!strcmp(name, mg_colls[c].algs[a].name) || !strcasecmp(name, mg_colls[c].algs[a].guideline) ||
          (mg_colls[c].algs[a].tgt && !strcasecmp(name, mg_colls[c].algs[a].tgt))) {
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
    return MG_ERR_TO(S->err, "--mockups: '%s' is no mock-up of the collectives chosen; valid (or their GL and TGT ids):%s", name,
                l);
  }
  return 0;
}

static int add_coll(const char *name, void *arg) {
  mg_check_state *S = arg;
  int c = mg_coll_find(name);
  if (c < 0) return MG_ERR_TO(S->err, "unknown collective '%s'; valid: %s", name, mg_coll_names());
  for (int i = 0; i < S->ncolls; i++)
    if (S->colls[i] == (mg_coll)c) return 0;
  S->colls[S->ncolls++] = (mg_coll)c;
  return 0;
}

/* Rank 0 (or the offline run): make sure DIR can take the results (from: only the derived
 * ones count, raw.csv may be the source). */
int mg_check_prepare_out(mg_check_state *S, const char *dir, int from) {
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
  mg_check_state *S;     /* for the message */
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
static int choose(const mg_opt_vals *o, mg_check_state *S) {
  if (o->given[O_QUICK] && o->given[O_FULL]) return MG_ERR_TO(S->err, "--quick and --full are contradictory: choose one");
  S->pre = mg_check_preset_of(o->given[O_FULL]);
  if (o->given[O_COLL] && o->given[O_COLL2])
    return MG_ERR_TO(S->err, "--collectives and --coll are the same option: give one");
  const char *cl = o->given[O_COLL] ? o->val[O_COLL] : o->given[O_COLL2] ? o->val[O_COLL2] : NULL;
  if (cl) {
    if (mg_cmd_each(cl, "--collectives", add_coll, S, S->err, sizeof S->err)) return -1;
  } else if (o->given[O_P2P]) { /* every point-to-point operation with a guideline to check */
    for (int c = MG_NCOLLECTIVES; c < MG_NCOLL; c++)
      if (mg_coll_is_p2p((mg_coll)c) && mg_colls[c].nalgs > 1) S->colls[S->ncolls++] = (mg_coll)c;
  } else {
    /* every collective that has a mock-up to compare with; with --sizes-from also every
     * point-to-point operation with one (issue 33: an application's hottest sites were MPI_Send
     * calls, and the loop left them 'not measured'): sizes_from keeps those the trace called */
    /* --full (all_ops): the non-blocking, persistent and neighbourhood operations too (issue 48) */
    int last = o->given[O_SIZES_FROM] || S->pre->all_ops ? MG_NCOLL : MG_NCOLLECTIVES;
    for (int c = 0; c < last; c++)
      if (mg_colls[c].nalgs > 1 && (o->given[O_SIZES_FROM] || !mg_coll_is_p2p((mg_coll)c)))
        S->colls[S->ncolls++] = (mg_coll)c;
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
    /* the non-blocking (and non-blocking neighbourhood) calls a trace holds: their family's rows */
    if (o->given[O_SIZES_FROM] && !o->given[O_FAMILIES]) f.fam |= 1u << MG_FAM_NBC;
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
static int parse_reps(const mg_opt_vals *o, mg_check_state *S) {
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

/* --stop-rule: a mock-up stops once its comparison with the default is decided (bench/seq.h), at the
 * margin and noise threshold the analysis will use (--margin, --noise; --launches gives both to every
 * launch); or each series by its own RSE rule. */
static int parse_stop_rule(const mg_opt_vals *o, mg_check_state *S) {
  mg_bench_cfg *cfg = &S->base;
  mg_seq_defaults(&cfg->seq);
  cfg->seq.margin = S->ck.margin;
  cfg->seq.noise = S->ck.noise;
  cfg->stop_decided = 1;
  if (!o->given[O_STOP_RULE]) return 0;
  if (!strcmp(o->val[O_STOP_RULE], "rse")) cfg->stop_decided = 0;
  else if (strcmp(o->val[O_STOP_RULE], "decided"))
    return MG_ERR_TO(S->err, "--stop-rule: unknown rule '%s'. valid: decided, rse", o->val[O_STOP_RULE]);
  if (o->given[O_NREP])
    return MG_ERR_TO(S->err, "--stop-rule applies to the adaptive repetitions; --nrep fixes the count");
  return 0;
}

/* The trace's reductions (list "fint:sum,logical:lor") beside the preset's: each class:op pair
 * not measured yet, reduced with the class's datatype (mg_tclass_repr: a Fortran program's
 * MPI_INTEGER sums with MPI_INTEGER). A pair this MPI cannot reduce from C (a Fortran type of
 * another size, or none in a build without Fortran) is left out, saying so; so is one past
 * MG_BENCH_MAX_REDS. Every rank reads the same trace, so every rank chooses alike. */
static void trace_reds(mg_check_state *S, char *list) {
  mg_bench_cfg *cfg = &S->base;
  for (char *save = NULL, *it = strtok_r(list, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
    char *colon = strchr(it, ':');
    *colon = '\0';
    int tc = mg_tclass_find(it), op = mg_opsel_find(colon + 1);
    if (tc <= 0 || op <= 0) continue; /* mg_cmd_trace_sizes keeps only pairs with both */
    const mg_dtype_info *dt = mg_dtype_find(mg_tclass_repr(tc));
    const mg_op_info *oi = mg_op_find(mg_opsel_name(op));
    int seen = 0;
    for (int k = 0; k < cfg->nreds && !seen; k++)
      seen = cfg->reds[k].op == oi && mg_tclass_of_typename(cfg->reds[k].dtype->name) == tc;
    if (seen || !dt || !oi) continue;
    MPI_Datatype t;
    const char *why = !(oi->categories & dt->category) ? "MPI does not define the op on it"
                      : mg_dtype_build(dt, &t) != MPI_SUCCESS ? "this MPI does not reduce it from C at that size"
                      : cfg->nreds == MG_BENCH_MAX_REDS       ? "too many reductions"
                                                              : NULL;
    if (why) {
      if (S->rank == 0)
        fprintf(stderr, "mpiguide check: warning: --sizes-from: the trace's %s:%s reductions are not measured (%s "
                        "for %s): its hot spots stay 'not measured'\n", it, colon + 1, dt->name, why);
      continue;
    }
    cfg->reds[cfg->nreds++] = (mg_bench_red){dt, oi};
  }
}

/* --sizes-from TRACE: the collectives and message sizes an application called (MPIGUIDE_TRACE),
 * among those --collectives chose, and the class:op pairs of its reductions (unless --reductions,
 * --datatype or --op chose them); the file is read on rank 0 and broadcast. */
static int sizes_from(const mg_opt_vals *o, mg_check_state *S) {
  if (o->given[O_SIZES]) return MG_ERR_TO(S->err, "--sizes and --sizes-from both choose the sizes: give one");
  char *text = NULL, reds[256];
  size_t len;
  int np = 0;
  if (mg_cmd_read_shared(o->val[O_SIZES_FROM], &text, &len, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--sizes-from: %s", S->e);
  int rc = mg_cmd_trace_sizes(text, len, o->val[O_SIZES_FROM], S->sizes, S->nsizes, &np, reds, sizeof reds, S->e,
                              sizeof S->e);
  if (!rc && S->rank == 0) { /* what the trace holds that no guideline checks, and why (docs/check.md) */
    char note[1024];
    mg_cmd_trace_left_out(text, len, o->val[O_SIZES_FROM], note, sizeof note);
    if (note[0]) fprintf(stderr, "mpiguide check: --sizes-from %s: %s\n", o->val[O_SIZES_FROM], note);
  }
  free(text);
  if (rc) return MG_ERR_TO(S->err, "--sizes-from: %s", S->e);
  if (S->base.nreds && !o->given[O_REDS] && !o->given[O_DTYPE] && !o->given[O_OP]) trace_reds(S, reds);
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

/* The sizes of each collective: --sizes, else the preset's (those --datatype divides). 0, or -1 with
 * S->err. */
static int given_sizes(const mg_opt_vals *o, mg_check_state *S) {
  const mg_bench_cfg *cfg = &S->base;
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
  return 0;
}

int mg_check_parse_measure(const mg_opt_vals *o, mg_check_state *S, const mg_bench_meta *meta) {
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
  if (o->given[O_SIZES_FROM] ? sizes_from(o, S) : given_sizes(o, S)) return -1;
#ifdef SMPI_H
  /* Simulated (SimGrid SMPI): a cell whose repetitions are one time is measured twice per root and
   * no more (the adaptive rule only; docs/statistics.md, "Exact verdicts"); raw.csv #@exact_stop.
   * Equal on every rank: the roots are the options'. */
  cfg->rep.exact_min = 2L * (cfg->nroots > 0 ? cfg->nroots : 1);
#endif
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
#ifdef SMPI_H
  /* Simulated: no cache, page or clock to warm; the first simulated call takes the time of the
   * others (raw.csv's warm-up rows at 64 ranks: the same ns), so one warm-up round, unless --warmup
   * says otherwise (a warm-up that differed would only keep the exact stop from applying) */
  cfg->warmup = 1;
#endif
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
  if (parse_stop_rule(o, S)) return -1;
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
  S->eta_from = o->given[O_ETA_FROM] ? o->val[O_ETA_FROM] : NULL;
  if (o->given[O_LAUNCH_OF]) { /* K/N: the progress line's label and the launches after this one */
    int k = 0, n = 0;
    if (mg_cmd_launch_of(o->val[O_LAUNCH_OF], &k, &n))
      return MG_ERR_TO(S->err, "--launch-of: '%s' is not K/N with 1 <= K <= N (e.g. 2/3)", o->val[O_LAUNCH_OF]);
    S->launch_k = k, S->launch_n = n;
  }
  if (S->resume && S->force)
    return MG_ERR_TO(S->err, "--resume keeps the measurements in DIR, --force discards them: give one");
  if (S->resume && !o->given[O_OUT])
    return MG_ERR_TO(S->err, "--resume needs -o DIR, the directory of the interrupted check");
  if (S->resume && S->model_guided)
    return MG_ERR_TO(S->err, "--resume cannot complete a --model-guided check (its mock-ups follow from all its "
                             "defaults): start it anew with --force");
  snprintf(S->out_default, sizeof S->out_default, "mpiguide-check-%s", meta->launch);
  S->out = o->given[O_OUT] ? o->val[O_OUT] : S->out_default;
  if (S->rank == 0 && mg_check_prepare_out(S, S->out, 0)) return -1;
  if (S->size < 2) /* after every other check, so that a singleton still reports a bad option */
    return MG_ERR_TO(S->err, "one process measures nothing (a collective on 1 process exchanges no data, and "
                             "its verdicts would read as a perfect score): start it with mpirun -np P, P >= 2, "
                             "e.g. `mpirun -np 4 mpiguide check --quick`, or analyse saved data with --from");
  return 0;
}

/* Options that only the measurement reads (refused by --from, given to every launch of --launches). */
static const int measure_only[] = {O_QUICK, O_FULL, O_COLL, O_COLL2,  O_MOCKUPS,   O_SIZES,
                                   O_DTYPE, O_OP,   O_ROOT, O_SYNC,   O_BUDGET,    O_RSE,
                                   O_NREP,  O_MIN,  O_MAX,  O_WARMUP, O_NO_SHUFFLE, O_ROOTS, O_REDS, O_COUNTS, O_SIZES_FROM,
                                   O_FAMILIES, O_IN_PLACE, O_MODEL_GUIDED, O_MODEL_SLACK, O_P2P, O_PATTERN, O_LIBVARS, O_RESUME,
                                   O_STOP_RULE, O_ETA_FROM, O_LAUNCH_OF, O_OVERLAP, O_OVL_TESTS};

int mg_check_measure_only(int id) {
  for (size_t i = 0; i < sizeof measure_only / sizeof measure_only[0]; i++)
    if (measure_only[i] == id) return 1;
  return 0;
}
