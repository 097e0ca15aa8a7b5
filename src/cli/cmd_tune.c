/*
 * `mpiguide tune DIR... -o FILE`: a profile from check results (docs/tune.md).
 * No MPI: the raw data of each DIR are analysed again with the check's own
 * analysis (mgcheck: same test, Holm family and bootstrap seed as `check
 * --from`), the tuner (src/tuner/tuner.c) picks per (collective, process
 * count, size), and the profile is written with mg_profile_save. Directories
 * with the same process count are analysed together (several launches of one
 * configuration); each process count gets its own rules.
 * `mpiguide tune --drop-slower VERIFY_DIR [--profile FILE] -o FILE`: the
 * verified profile without the rules verify measured slower (a verify.csv
 * read with src/report/verify.c), each dropped rule named with file:line.
 * Exit codes: 0 written, 1 failed, 2 bad input.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/csv.h"
#include "check/check.h"
#include "cli/cli.h"
#include "cli/cmd_opts.h"
#include "cli/cmd_predict.h"
#include "cli/cmd_util.h"
#include "cli/cmd_tune.h"
#include "report/report.h"
#include "tuner/libset.h"
#include "tune/profile.h"
#include "tuner/tuner.h"
#include "util/err.h"
#include "util/parse.h"

static const char usage_text[] =
    "usage: mpiguide tune DIR... -o FILE [--min-gain G] [--alpha A] [--test T] [--no-holm] [-q]\n"
    "\n"
    "Writes a tuning profile (docs/profile.md) from the results of `mpiguide check` (DIR: a check\n"
    "directory, a raw CSV or ReproMPI files). Per (collective, process count, measured size) it picks\n"
    "the fastest mock-up whose violation is conclusive (significant, in every launch, beyond the\n"
    "noise, its interval above 1) and whose median is at least G faster than the default's over the\n"
    "whole interval. A choice covers its measured size, and the sizes up to the next measured size\n"
    "only when that one made the same choice; nothing beyond the largest measured size (docs/tune.md).\n"
    "Where the data hold the library's own variants (check --lib-variants) and one wins a size with\n"
    "no mock-up faster, by the same gain, it also writes the library's own setting: FILE.ompi-rules\n"
    "(Open MPI coll/tuned dynamic rules) or FILE.mpich.env (MPICH CVARs), and prints how to use it\n"
    "(docs/libvar.md).\n"
    "\n"
    "  -o, --out FILE      the profile to write (required)\n"
    "      --min-gain G    required gain, 0 <= G < 1 [0.10]: median_mock <= (1 - G) x median_default\n"
    "      --alpha A       significance level [0.05]   --test T  mwu, welch, student [mwu]\n"
    "      --no-holm       no Holm adjustment          --seed S  bootstrap seed [the check's]\n"
    "  -q, --quiet         no table of rules\n"
    "      --include-inconclusive  also cells whose violation is significant but inconclusive\n"
    "                      (within the noise, or an interval reaching 1): may tune an artefact\n"
    "      --allow-noise   tune also from a DIR the noise dominates (check's NOISE DOMINATES THIS RUN:\n"
    "                      most comparisons within one synchronisation), refused otherwise; the\n"
    "                      profile's preamble says so ('noise-dominated: ...')\n"
    "      --model FILE    LogGP parameters (`mpiguide loggp`): fill the sizes and process counts\n"
    "                      that were not measured with the model's choice (docs/model.md), where\n"
    "                      its predicted median is at least G faster than the default's; such rules\n"
    "                      say 'predicted' in their comment\n"
    "      --model-np LIST process counts to fill besides the measured ones [none]\n"
    "      --model-sizes LIST  sizes the model decides at [1,2,4,...,4M: powers of two]\n"
    "  -h, --help          this text\n"
    "\n"
    "usage: mpiguide tune --drop-slower VERIFY_DIR [-p|--profile FILE] -o FILE\n"
    "\n"
    "Writes the profile verified in VERIFY_DIR (`mpiguide verify -o VERIFY_DIR`; --profile, by default\n"
    "the verify.csv's own) without every rule that verify measured slower than the default (verdict\n"
    "'slower' at any size of the rule): the whole rule goes, for all its sizes and process counts.\n"
    "It keeps the rules verify found 'not-sig' (neither faster nor slower): --drop-unconfirmed drops them.\n"
    "\n"
    "usage: mpiguide tune --drop-unconfirmed VERIFY_DIR [-p|--profile FILE] -o FILE\n"
    "\n"
    "The same, keeping only the rules verify confirmed: every size of the rule measured 'faster' (tuned's\n"
    "interval below the default's, the decision check's violations are made by; a `verify --launches`\n"
    "directory: in each launch); `verify --write-confirmed FILE` does it as verify ends. The preamble\n"
    "records which rules were kept, when and on what ('verify: confirmed K of N rules, DATE, LIBRARY,\n"
    "np=P, LAYOUT'), each kept rule's comment its verify figures; the dropped ones go to stderr.\n"
    "\n"
    "Replication (tune DIR...): --min-span T [60s]: a rule whose launches span less than T, or one\n"
    "launch, says SHORT SPAN in its comment; --hold-short holds such rules back instead.\n";

#define OPTIONS(X)                                                                                      \
  X(HELP, "help", 'h', MG_OPT_FLAG) X(OUT, "out", 'o', MG_OPT_ARG) X(MIN_GAIN, "min-gain", 0, MG_OPT_ARG)     \
  X(ALPHA, "alpha", 0, MG_OPT_ARG) X(TEST, "test", 0, MG_OPT_ARG) X(NO_HOLM, "no-holm", 0, MG_OPT_FLAG)       \
  X(SEED, "seed", 0, MG_OPT_ARG) X(QUIET, "quiet", 'q', MG_OPT_FLAG)                                         \
  X(INCONCLUSIVE, "include-inconclusive", 0, MG_OPT_FLAG) X(DROP_SLOWER, "drop-slower", 0, MG_OPT_ARG)           \
  X(PROFILE, "profile", 'p', MG_OPT_ARG) X(MODEL, "model", 0, MG_OPT_ARG) X(MODEL_NP, "model-np", 0, MG_OPT_ARG)      \
  X(MODEL_SIZES, "model-sizes", 0, MG_OPT_ARG) X(MIN_SPAN, "min-span", 0, MG_OPT_ARG)                        \
  X(HOLD_SHORT, "hold-short", 0, MG_OPT_FLAG) X(DROP_UNCONFIRMED, "drop-unconfirmed", 0, MG_OPT_ARG)           \
  X(ALLOW_NOISE, "allow-noise", 0, MG_OPT_FLAG)

enum { OPTIONS(MG_OPT_ENUM) O_N };
static const mg_opt opts[O_N] = {OPTIONS(MG_OPT_ROW)};

typedef struct src {
  const char *path;
  int nprocs;
  int done;
} src;

typedef struct tune {
  const char *out;
  double min_gain;
  int which; /* MG_TUNE_CONCLUSIVE or MG_TUNE_INCLUDE_INCONCLUSIVE */
  mg_ck_opts ck;
  int quiet, seed_given;
  int allow_noise;   /* --allow-noise: tune from a noise-dominated input, recorded in the preamble */
  int noisy_inputs;  /* inputs found noise-dominated (refused without --allow-noise) */
  src *srcs;
  int nsrc;
  char e[MG_CK_ERR];
  /* per process count: the data and the verdicts */
  mg_ck_data *data;
  mg_ck_result *res;
  int ngroups;
  mg_profile *p;
  mg_tune_choice *ch;
  int nch;
  const char *drop_dir, *profile; /* --drop-slower / --drop-unconfirmed VERIFY_DIR [--profile FILE] */
  int unconfirmed;                 /* --drop-unconfirmed: drop every rule verify did not find faster */
  mg_loggp lg;                     /* --model */
  int have_lg, nmodel_np, model_np[64], npredicted;
  size_t *msizes;                  /* --model-sizes */
  int nmsizes;
  mg_libset ls;                    /* the library's own settings (check --lib-variants data) */
} tune;

static int add_model_np(const char *item, void *arg) {
  tune *T = arg;
  long v;
  if (mg_parse_long(item, 1, 1 << 24, &v, T->e, sizeof T->e)) return MG_ERR_TO(T->e, "--model-np: '%s' is not a process count", item);
  if (T->nmodel_np == 64) return MG_ERR_TO(T->e, "--model-np: more than 64 process counts");
  T->model_np[T->nmodel_np++] = (int)v;
  return 0;
}

/* The options into T. 0, 1 for --help (printed), or 2 after a message. */
static int parse(int argc, char **argv, tune *T) {
  mg_opt_vals o;
  int rc = mg_opt_parse(argc, argv, opts, O_N, &o, T->e, sizeof T->e);
  const char *v;
  if (o.given[O_HELP]) { /* --help before a bad option wins */
    fputs(usage_text, stdout);
    rc = 1;
    goto out;
  }
  if (rc) {
    fprintf(stderr, "mpiguide tune: %s\n", T->e);
    goto bad;
  }
  T->out = o.val[O_OUT];
  if ((v = o.val[O_MIN_GAIN]) && (mg_parse_double(v, 0, &T->min_gain, T->e, sizeof T->e) || !(T->min_gain < 1))) {
    fprintf(stderr, "mpiguide tune: --min-gain: '%s' is not a number in [0, 1)\n", v);
    goto bad;
  }
  if ((v = o.val[O_ALPHA]) &&
      (mg_parse_double(v, 0, &T->ck.alpha, T->e, sizeof T->e) || !(T->ck.alpha > 0 && T->ck.alpha < 1))) {
    fprintf(stderr, "mpiguide tune: --alpha: '%s' is not between 0 and 1\n", v);
    goto bad;
  }
  if ((v = o.val[O_TEST])) {
    int t = mg_ck_test_find(v);
    if (t < 0) {
      fprintf(stderr, "mpiguide tune: --test: '%s' is not mwu, welch or student\n", v);
      goto bad;
    }
    T->ck.test = (mg_ck_test)t;
  }
  if (o.given[O_NO_HOLM]) T->ck.holm = 0;
  if ((v = o.val[O_SEED])) {
    long sv;
    if (mg_parse_long(v, 0, UINT32_MAX, &sv, T->e, sizeof T->e)) {
      fprintf(stderr, "mpiguide tune: --seed: %s\n", T->e);
      goto bad;
    }
    T->ck.seed = (uint32_t)sv;
    T->seed_given = 1;
  }
  T->quiet = o.given[O_QUIET];
  T->allow_noise = o.given[O_ALLOW_NOISE];
  T->which = o.given[O_INCONCLUSIVE] ? MG_TUNE_INCLUDE_INCONCLUSIVE : MG_TUNE_CONCLUSIVE;
  if (o.given[O_HOLD_SHORT]) T->which |= MG_TUNE_HOLD_SHORT;
  if ((v = o.val[O_MIN_SPAN]) && mg_cmd_min_span(v, &T->ck.min_span, T->e, sizeof T->e)) {
    fprintf(stderr, "mpiguide tune: --min-span: %s (e.g. 60s, 0 for none)\n", T->e);
    goto bad;
  }
  for (int i = 0; i < o.npos; i++) T->srcs[T->nsrc++].path = o.pos[i];
  T->drop_dir = o.val[O_DROP_SLOWER];
  if (o.given[O_DROP_UNCONFIRMED]) {
    if (T->drop_dir) {
      fprintf(stderr, "mpiguide tune: --drop-slower and --drop-unconfirmed: give one (unconfirmed includes slower)\n");
      goto bad;
    }
    T->drop_dir = o.val[O_DROP_UNCONFIRMED];
    T->unconfirmed = 1;
  }
  T->profile = o.val[O_PROFILE];
  if ((v = o.val[O_MODEL])) {
    if (mg_loggp_read(v, &T->lg, T->e, sizeof T->e)) {
      fprintf(stderr, "mpiguide tune: --model: %s\n", T->e);
      goto bad;
    }
    T->have_lg = 1;
  }
  if ((o.given[O_MODEL_NP] || o.given[O_MODEL_SIZES]) && !T->have_lg) {
    fprintf(stderr, "mpiguide tune: --model-np and --model-sizes go with --model FILE\n");
    goto bad;
  }
  if ((v = o.val[O_MODEL_NP]) && mg_cmd_each(v, "--model-np", add_model_np, T, T->e, sizeof T->e)) {
    fprintf(stderr, "mpiguide tune: %s\n", T->e);
    goto bad;
  }
  if ((v = o.val[O_MODEL_SIZES]) && mg_parse_sizes(v, &T->msizes, &T->nmsizes, T->e, sizeof T->e)) {
    fprintf(stderr, "mpiguide tune: --model-sizes: %s\n", T->e);
    goto bad;
  }
  if (T->drop_dir && T->nsrc) {
    fprintf(stderr, "mpiguide tune: --drop-slower takes a verify directory, no check directory ('%s')\n",
            T->srcs[0].path);
    goto bad;
  }
  if (T->profile && !T->drop_dir) {
    fprintf(stderr, "mpiguide tune: --profile goes with --drop-slower VERIFY_DIR\n");
    goto bad;
  }
  if (!T->nsrc && !T->drop_dir) {
    fprintf(stderr, "mpiguide tune: no check directory given\n");
    goto bad;
  }
  if (!T->out) {
    fprintf(stderr, "mpiguide tune: -o FILE is required (the profile to write)\n");
    goto bad;
  }
  rc = 0;
  goto out;
bad:
  fputs("(mpiguide tune --help lists the options)\n", stderr);
  rc = 2;
out:
  mg_opt_vals_free(&o);
  return rc;
}

/* The process count of each source, each read alone. 0, or 2 after a message. */
static int source_nprocs(tune *T) {
  for (int s = 0; s < T->nsrc; s++) {
    mg_ck_data d;
    mg_ck_data_init(&d);
    if (mg_ck_read(&d, T->srcs[s].path, T->e, sizeof T->e) || mg_ck_data_check(&d, T->e, sizeof T->e)) {
      fprintf(stderr, "mpiguide tune: %s\n(mpiguide tune --help lists the options)\n", T->e);
      mg_ck_data_free(&d);
      return 2;
    }
    T->srcs[s].nprocs = d.launches[0].nprocs;
    mg_ck_data_free(&d);
    if (T->srcs[s].nprocs < 1) {
      fprintf(stderr, "mpiguide tune: %s: the process count is unknown (no #@nprocs)\n"
                      "(mpiguide tune --help lists the options)\n", T->srcs[s].path);
      return 2;
    }
  }
  return 0;
}

static void preamble(tune *T) {
  char line[1200], date[40];
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  snprintf(line, sizeof line, "written by mpiguide tune on %s", date);
  mg_profile_add_preamble(T->p, line);
  snprintf(line, sizeof line,
           "choice: fastest mock-up with a %s (%s, alpha %g%s) and median <= %.2f x "
           "default's over the whole slowdown interval",
           !(T->which & MG_TUNE_INCLUDE_INCONCLUSIVE) ? "conclusive violation" : "significant violation, conclusive or not",
           "its interval", T->ck.alpha, T->ck.holm ? ", adjusted for the comparisons and looks" : "", 1 - T->min_gain);
  mg_profile_add_preamble(T->p, line);
  snprintf(line, sizeof line, "replication: a rule whose launches span less than %.0f s (or one launch) %s",
           T->ck.min_span, (T->which & MG_TUNE_HOLD_SHORT) ? "is held back (--hold-short)"
                                                            : "says SHORT SPAN in its comment: verify it before use");
  mg_profile_add_preamble(T->p, line);
  mg_profile_add_preamble(T->p, "ranges: a measured size, extended to the next one only if it chose the same; "
                                "defaults elsewhere");
}

/* Whether the analysis r of d (the input `what`) is noise-dominated, as check's summary judges it
 * (mg_ck_summarize: more than half of the comparisons within one synchronisation, summary.txt's
 * "NOISE DOMINATES THIS RUN"). Such a run's verdicts tell nothing: without --allow-noise it is
 * refused, with a message that says which input, its figure and what it would need; with it, the
 * profile's preamble records it. 0 not noise-dominated (or allowed), 1 refused. */
static int noise_gate(tune *T, const mg_ck_data *d, const mg_ck_result *r, const char *what, int np) {
  mg_ck_summary s;
  mg_ck_summarize(r, &s);
  if (!s.noise_dominated) return 0;
  double sync = -1;
  for (int i = 0; i < d->nlaunches; i++)
    if (d->launches[i].sync_cost > sync) sync = d->launches[i].sync_cost;
  char fig[200], ss[32] = "";
  if (sync >= 1e-3) snprintf(ss, sizeof ss, "%.3g ms", 1e3 * sync);
  else if (sync >= 0) snprintf(ss, sizeof ss, "%.0f us", 1e6 * sync);
  snprintf(fig, sizeof fig, "%d of %d comparisons differ by less than one synchronisation%s%s%s", s.total.noisy,
           s.total.comparisons, sync >= 0 ? " (" : "", sync >= 0 ? ss : "", sync >= 0 ? ")" : "");
  if (T->allow_noise) {
    char line[1600];
    snprintf(line, sizeof line, "noise-dominated: np=%d: %s: %s; rules made anyway (tune --allow-noise): its verdicts "
             "cannot tell which algorithm is faster, verify every rule before use", np, what, fig);
    mg_profile_add_preamble(T->p, line);
    if (!T->quiet)
      fprintf(stderr, "mpiguide tune: warning: %s: noise dominates this run (%s): tuning from it anyway "
                      "(--allow-noise), recorded in the profile\n", what, fig);
    return 0;
  }
  T->noisy_inputs++;
  fprintf(stderr, "mpiguide tune: %s: noise dominates this run: %s; tune needs at most half of them (%d) within the "
                  "noise, since its verdicts cannot tell which algorithm is faster (check's summary: NOISE DOMINATES "
                  "THIS RUN). Measure again on an idle node with at most one rank per core (check --launches N), or "
                  "give --allow-noise to tune from it anyway (recorded in the profile)\n",
          what, fig, s.total.comparisons / 2);
  return 1;
}

/* Each of the sources of srcs[s]'s process count alone, when there are several (each input judged on
 * its own noise): refused ones counted in T->noisy_inputs. 0, or 1 after a message (unreadable). */
static int noise_per_source(tune *T, int s) {
  int n = 0;
  for (int t = s; t < T->nsrc; t++) n += T->srcs[t].nprocs == T->srcs[s].nprocs;
  if (n < 2) return 0; /* the group's own analysis is the source's */
  for (int t = s; t < T->nsrc; t++) {
    if (T->srcs[t].nprocs != T->srcs[s].nprocs) continue;
    mg_ck_data d;
    mg_ck_result r;
    mg_ck_data_init(&d);
    memset(&r, 0, sizeof r);
    mg_ck_opts o = T->ck;
    int rc = mg_ck_read(&d, T->srcs[t].path, T->e, sizeof T->e) || mg_ck_data_check(&d, T->e, sizeof T->e);
    if (!rc && !T->seed_given && d.launches[0].has_seed) o.seed = d.launches[0].seed;
    if (!rc) rc = mg_ck_analyze(&d, &o, &r, T->e, sizeof T->e);
    if (rc) fprintf(stderr, "mpiguide tune: analysis of %s failed: %s\n", T->srcs[t].path, T->e);
    else noise_gate(T, &d, &r, T->srcs[t].path, T->srcs[t].nprocs);
    mg_ck_result_free(&r);
    mg_ck_data_free(&d);
    if (rc) return 1;
  }
  return 0;
}

/* The sources of srcs[s]'s process count analysed together, their rules added. 0, or 1. */
static int tune_group(tune *T, int s) {
  mg_ck_data *d = &T->data[T->ngroups];
  mg_ck_result *r = &T->res[T->ngroups];
  mg_ck_data_init(d);
  T->ngroups++;
  size_t u = 0;
  char names[900] = "", line[1200];
  for (int t = s; t < T->nsrc; t++) {
    if (T->srcs[t].nprocs != T->srcs[s].nprocs) continue;
    T->srcs[t].done = 1;
    if (mg_ck_read(d, T->srcs[t].path, T->e, sizeof T->e)) return fprintf(stderr, "mpiguide tune: %s\n", T->e), 1;
    if (u < sizeof names) u += (size_t)snprintf(names + u, sizeof names - u, " %s", T->srcs[t].path);
  }
  if (mg_ck_data_check(d, T->e, sizeof T->e)) return fprintf(stderr, "mpiguide tune: %s\n", T->e), 1;
  mg_ck_opts o = T->ck;
  if (!T->seed_given && d->launches[0].has_seed) o.seed = d->launches[0].seed;
  if (mg_ck_analyze(d, &o, r, T->e, sizeof T->e))
    return fprintf(stderr, "mpiguide tune: analysis of%s failed: %s\n", names, T->e), 1;
  const mg_ck_launch *L = &d->launches[0];
  int np = T->srcs[s].nprocs;
  snprintf(line, sizeof line, "np=%d: from%s (%d launch%s, measured %s on %s)", np, names, d->nlaunches,
           d->nlaunches == 1 ? "" : "es", L->date && *L->date ? L->date : "?",
           L->hostname && *L->hostname ? L->hostname : "?");
  mg_profile_add_preamble(T->p, line);
  snprintf(line, sizeof line, "np=%d: MPI library: %s", np,
           L->mpi_version && *L->mpi_version ? L->mpi_version : (L->mpi_name ? L->mpi_name : "?"));
  for (char *c = line; *c; c++)
    if (*c == '\n' || *c == '\r') *c = ' ';
  mg_profile_add_preamble(T->p, line);
  const char *rpn = mg_ck_meta_get(&L->meta, "ranks_per_node");
  if (L->nnodes > 0) { /* libmpiguide warns when it runs on another layout (init.c) */
    snprintf(line, sizeof line, "np=%d: layout: %d node(s)%s%s%s", np, L->nnodes, rpn ? " x " : "", rpn ? rpn : "",
             rpn ? " ranks per node" : "");
    mg_profile_add_preamble(T->p, line);
  }
  if (mg_ck_launch_in_place(L)) { /* a rule has no in-place selector: it applies to regular calls too */
    snprintf(line, sizeof line, "np=%d: measured in place (check --in-place); the rules apply to every call of "
             "their sizes, in place or not", np);
    mg_profile_add_preamble(T->p, line);
  }
  int tot, ex, dif, few; /* exact verdicts on a deterministic platform (docs/statistics.md): how the rules came */
  mg_ck_exact_counts(r, &tot, &ex, &dif, &few);
  if (ex || dif) {
    snprintf(line, sizeof line, "np=%d: verdicts exact (simulated): %d of %d comparisons by the ratio against the "
             "margin (%g), %d not exact by the statistics (%d of them a root measured once)", np, ex, tot,
             r->opts.margin, dif, few);
    mg_profile_add_preamble(T->p, line);
  }
  int ngroup = 0;
  for (int t = 0; t < T->nsrc; t++) ngroup += T->srcs[t].nprocs == np;
  if (ngroup > 1 && noise_per_source(T, s)) return 1;
  else if (ngroup == 1) noise_gate(T, d, r, T->srcs[s].path, np);
  /* where a library variant wins (no mock-up faster), the library's setting is the repair, not a mock-up:
   * the tuner sees those cells' mock-ups as measure-only (never a rule) */
  mg_ck_result rr = *r;
  if (r->nkinds && !(rr.v = malloc((size_t)(r->n ? r->n : 1) * sizeof *rr.v)))
    return fprintf(stderr, "mpiguide tune: out of memory\n"), 1;
  if (r->nkinds) memcpy(rr.v, r->v, (size_t)r->n * sizeof *rr.v);
  for (int k = 0; k < r->nkinds; k++)
    for (int i = 0; i < r->n && r->kinds[k].winner == MG_CK_WIN_LIBVAR; i++)
      if (rr.v[i].coll == r->kinds[k].coll && rr.v[i].bytes == r->kinds[k].bytes && !strcmp(rr.v[i].red, r->kinds[k].red))
        rr.v[i].measure_only = 1;
  int rc = mg_tune_decide(&rr, np, T->min_gain, T->which, T->p, &T->ch, &T->nch, T->e, sizeof T->e);
  if (rr.v != r->v) free(rr.v);
  if (rc < 0) return fprintf(stderr, "mpiguide tune: %s\n", T->e), 1;
  if (r->nkinds)
    mg_profile_add_preamble(T->p, "cells a library variant wins (check --lib-variants) get no mock-up rule: the "
                                  "library's own setting beside this profile is their repair");
  if (mg_libset_decide(d, r, np, T->min_gain, &T->ls, T->e, sizeof T->e) < 0)
    return fprintf(stderr, "mpiguide tune: %s\n", T->e), 1;
  return 0;
}

/* Beside the profile, the library's own setting where a library variant won (libset.h): FILE.ompi-rules
 * or FILE.mpich.env, and the command line that uses it. 0, or 1 after a message. */
static int save_lib_settings(tune *T) {
  if (!T->ls.n) return 0;
  int ompi = T->ls.kind == MG_LV_OMPI, skipped = 0;
  char path[4096], e[MG_CK_ERR], pre[160];
  snprintf(path, sizeof path, "%s.%s", T->out, ompi ? "ompi-rules" : "mpich.env");
  snprintf(pre, sizeof pre, "written by mpiguide tune beside %s, gain >= %.0f %%", T->out, 100 * T->min_gain);
  mg_outfile o;
  if (mg_outfile_open(&o, path, e, sizeof e)) return fprintf(stderr, "mpiguide tune: %s\n", e), 1;
  if (ompi) mg_libset_write_ompi(o.f, &T->ls, pre, &skipped);
  else mg_libset_write_mpich(o.f, &T->ls, pre, &skipped);
  if (mg_outfile_commit(&o, e, sizeof e)) return fprintf(stderr, "mpiguide tune: %s\n", e), 1;
  if (T->quiet) return 0;
  printf("library variants won %d range(s) with no mock-up faster%s%s: %s\n", T->ls.n,
         skipped ? ", some not expressible (see the file)" : "", "", path);
  char *abs = realpath(path, NULL);
  if (ompi)
    printf("  use: mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename %s ...\n",
           abs ? abs : path);
  else
    printf("  use: env $(grep -v '^#' %s) mpiexec ...\n", abs ? abs : path);
  free(abs);
  return 0;
}

/* The built profile p into path, through a temporary renamed when complete. 0, or 1 after a message that
 * names the file and the reason. */
int mg_cmd_tune_write_profile(const mg_profile *p, const char *path) {
  size_t len;
  char *text = mg_profile_format(p, &len), e[MG_CK_ERR];
  mg_outfile o;
  if (!text) return fprintf(stderr, "mpiguide tune: out of memory\n"), 1;
  int rc = mg_outfile_open(&o, path, e, sizeof e);
  if (!rc && fwrite(text, 1, len, o.f) != len) {
    snprintf(e, sizeof e, "writing '%s' failed: %s", path, strerror(errno));
    mg_outfile_discard(&o);
    rc = -1;
  } else if (!rc)
    rc = mg_outfile_commit(&o, e, sizeof e);
  free(text);
  if (rc) fprintf(stderr, "mpiguide tune: the profile: %s (-o FILE goes into an existing directory you can write to)\n", e);
  return rc ? 1 : 0;
}

/* Merge, build and save the profile. 0, or 1 after a message. */
static int save(tune *T) {
  char line[1200];
  if (mg_profile_merge_touching(T->p) < 0) return fprintf(stderr, "mpiguide tune: out of memory\n"), 1;
  mg_profile_diags diags = {0};
  if (mg_profile_build(T->p, &diags) != MG_PROFILE_OK) {
    for (int k = 0; k < diags.n; k++) {
      mg_profile_diag_format(&diags.v[k], line, sizeof line);
      fprintf(stderr, "mpiguide tune: internal error: %s\n", line);
    }
    mg_profile_diags_free(&diags);
    return 1;
  }
  mg_profile_diags_free(&diags);
  return mg_cmd_tune_write_profile(T->p, T->out);
}

static void print_rules(const tune *T) {
  int n = mg_profile_nrules(T->p), measured = 0, tuned = 0;
  for (int k = 0; k < T->nch; k++) measured++, tuned += T->ch[k].alg != 0 && !T->ch[k].withheld;
  printf("%-21s %-6s %-15s %s\n", "operation", "np", "bytes", "algorithm");
  for (int k = 0; k < n; k++) {
    const mg_profile_rule *ru = mg_profile_rule_at(T->p, k);
    char np[32], rg[70], sel[64];
    mg_cmd_rule_range_str(ru, rg, sizeof rg);
    mg_cmd_rule_sel_str(ru, sel, sizeof sel);
    mg_profile_fmt_np(ru->np_lo, ru->np_hi, np, sizeof np);
    printf("%-21s %-6s %-15s %s%s\n", mg_colls[ru->coll].name, np + 3, rg, mg_colls[ru->coll].algs[ru->alg].name,
           sel);
  }
  for (int k = 0, done = -1; k < T->nch; k++) { /* winners left without a rule: one line per collective */
    const mg_tune_choice *x = &T->ch[k];
    if (!x->withheld || done >= k) continue;
    int g = k, e = k; /* the choices of x's (collective, process count) */
    while (g > 0 && T->ch[g - 1].coll == x->coll && T->ch[g - 1].nprocs == x->nprocs) g--;
    while (e + 1 < T->nch && T->ch[e + 1].coll == x->coll && T->ch[e + 1].nprocs == x->nprocs) e++;
    printf("%s np=%d: no rule: a mock-up won at some sizes only (", mg_colls[x->coll].name, x->nprocs);
    for (int q = g; q <= e; q++) {
      char sz[32];
      mg_profile_fmt_size(T->ch[q].bytes, sz, sizeof sz);
      printf("%s%s %s", q > g ? ", " : "", sz, T->ch[q].alg ? mg_colls[x->coll].algs[T->ch[q].alg].name : "default");
    }
    printf("), and its message size is not known on every rank: a rule must cover every size\n");
    done = e;
  }
  int held = 0, shortr = 0;
  for (int k = 0; k < T->nch; k++) {
    const mg_tune_choice *x = &T->ch[k];
    if (x->held) {
      char sz[32];
      mg_profile_fmt_size(x->bytes, sz, sizeof sz);
      printf("held back: %s np=%d %s %s %.2fx: %s (--hold-short; measure again with check --launches N over "
             "--min-span %.0f s)\n", mg_colls[x->coll].name, x->nprocs, sz, x->held->alg, x->held->slowdown,
             x->held->launches <= 1 ? "1 launch" : "its launches span less than --min-span", T->ck.min_span);
      held++;
    }
    shortr += x->alg && x->v && x->v->short_span && !x->withheld;
  }
  if (shortr)
    printf("%d of the cells tuned rest on one launch or launches spanning less than %.0f s: their rules say SHORT "
           "SPAN; verify them, or tune --hold-short\n", shortr, T->ck.min_span);
  printf("%d rule%s from %d measured (collective, process count, size) cells, %d tuned", n, n == 1 ? "" : "s",
         measured, tuned);
  if (held) printf(", %d held back", held);
  if (T->have_lg) printf("; %d predicted by the model", T->npredicted);
  printf("; profile: %s\n", T->out);
}

/* The most common outcome, said plainly: no rule and no library setting, because no mock-up (nor,
 * with --lib-variants, a library variant) won anywhere. The profile is still written: it is valid
 * and running with it runs the defaults. */
static void print_defaults_best(const tune *T) {
  int withheld = 0;
  for (int k = 0; k < T->nch; k++) withheld |= T->ch[k].withheld;
  if (mg_profile_nrules(T->p) || withheld || T->ls.n) return;
  printf("no violation at your sizes: no mock-up was faster than the library's default by %.0f %% or more with a "
         "%s violation in any of the %d cells measured, so the library's defaults are the best choice there; "
         "nothing to tune (the profile has no rule: with it, every call runs the default, and `mpiguide verify` "
         "has nothing to measure)\n",
         100 * T->min_gain, !(T->which & MG_TUNE_INCLUDE_INCONCLUSIVE) ? "conclusive" : "significant", T->nch);
}

/* ---------- --model: the sizes and process counts not measured, decided by the cost model ---------- */

/* Whether (coll, np, bytes) was measured (any choice, the default's too). */
static int measured_cell(const tune *T, mg_coll coll, int np, size_t bytes) {
  for (int k = 0; k < T->nch; k++)
    if (T->ch[k].coll == coll && T->ch[k].nprocs == np && T->ch[k].bytes == bytes) return 1;
  return 0;
}

/* The smallest measured size of (coll, np) above bytes; SIZE_MAX: none. */
static size_t next_measured(const tune *T, mg_coll coll, int np, size_t bytes) {
  size_t next = SIZE_MAX;
  for (int k = 0; k < T->nch; k++)
    if (T->ch[k].coll == coll && T->ch[k].nprocs == np && T->ch[k].bytes > bytes && T->ch[k].bytes < next)
      next = T->ch[k].bytes;
  return next;
}

/* One (coll, np, model size i): a rule for the model's choice when it beats the default by min_gain
 * over both intervals (the mock-up's upper end at most (1 - min_gain) times the default's lower end:
 * the predicted gain exceeds the uncertainty of both prices), from the size up to just below the
 * next model size or measured size. The mock-up chosen is the one with the lowest upper end: the
 * gain the model can promise. The comment names both prices, their intervals and sources. */
static int fill_cell(tune *T, const mg_model *m, mg_coll coll, int np, int i, const char *red) {
  size_t bytes = T->msizes[i];
  if (measured_cell(T, coll, np, bytes) || mg_cmd_rule_find(T->p, coll, np, bytes, red) >= 0) return 0;
  const mg_coll_info *ci = &mg_colls[coll];
  mg_price def = mg_model_default_price(m, coll, np, (double)bytes), best = def;
  int alg = 0;
  for (int a = 1; a < ci->nalgs; a++) {
    mg_price t = mg_model_alg_price(m, coll, a, np, (double)bytes);
    if (isfinite(t.t) && isfinite(t.hi) && (alg == 0 || t.hi < best.hi)) best = t, alg = a;
  }
  if (!alg || !isfinite(def.t) || !(best.hi <= (1 - T->min_gain) * def.lo)) return 0;
  size_t hi = i + 1 < T->nmsizes ? T->msizes[i + 1] - 1 : bytes, nm = next_measured(T, coll, np, bytes);
  if (nm != SIZE_MAX && nm - 1 < hi) hi = nm - 1;
  int tclass, opsel;
  char comment[256], sz[32];
  if (mg_ck_red_sel(red, &tclass, &opsel) && (tclass < 0 || opsel < 0)) return 0; /* a pair no selector names */
  if (tclass < 0) tclass = MG_TCLASS_ANY; /* no reduction: no selector */
  if (opsel < 0) opsel = MG_OPSEL_ANY;
  mg_profile_fmt_size(bytes, sz, sizeof sz);
  snprintf(comment, sizeof comment, "predicted at %s: %.3g us [%.3g, %.3g] (%s) vs default %.3g us [%.3g, %.3g] (%s)", sz,
           best.t * 1e6, best.lo * 1e6, best.hi * 1e6, mg_price_name(best.src), def.t * 1e6, def.lo * 1e6,
           def.hi * 1e6, mg_price_name(def.src));
  int st = mg_profile_add_sel(T->p, coll, np, np, bytes, hi, tclass, opsel, alg, comment);
  if (st != MG_PROFILE_OK) return MG_ERR_TO(T->e, "%s", mg_profile_strerror(st));
  T->npredicted++;
  return 0;
}

/* Every collective measured, at its measured process counts and --model-np, at every model size. */
static int model_fill(tune *T) {
  mg_model m;
  int rc = 0;
  mg_model_init(&m, &T->lg);
  for (int g = 0; g < T->ngroups && !rc; g++) rc = mg_cmd_model_defaults(&m, &T->data[g], T->e, sizeof T->e);
  mg_model_sort(&m);
  if (!T->nmsizes) { /* powers of two, 1 B to 4 MiB */
    T->msizes = malloc(23 * sizeof *T->msizes);
    if (!T->msizes) rc = MG_ERR_TO(T->e, "out of memory");
    for (size_t b = 1; !rc && b <= (4u << 20); b *= 2) T->msizes[T->nmsizes++] = b;
  }
  for (int c = 0; c < MG_NCOLL && !rc; c++) {
    const char *red = NULL;
    int nps[128], n = 0;
    for (int k = 0; k < T->nch; k++) { /* the measured process counts of c, and its reduction pair */
      if (T->ch[k].coll != (mg_coll)c) continue;
      if (!red) red = T->ch[k].red;
      int seen = 0;
      for (int j = 0; j < n; j++) seen |= nps[j] == T->ch[k].nprocs;
      if (!seen && n < 64) nps[n++] = T->ch[k].nprocs;
    }
    if (!red || !mg_colls[c].known) continue; /* not measured; or no rules by size (irregular) */
    for (int j = 0; j < T->nmodel_np; j++) {
      int seen = 0;
      for (int q = 0; q < n; q++) seen |= nps[q] == T->model_np[j];
      if (!seen) nps[n++] = T->model_np[j];
    }
    for (int j = 0; j < n && !rc; j++)
      for (int i = 0; i < T->nmsizes && !rc; i++) rc = fill_cell(T, &m, (mg_coll)c, nps[j], i, red);
  }
  mg_model_free(&m);
  if (rc) fprintf(stderr, "mpiguide tune: --model: %s\n", T->e);
  return rc ? 1 : 0;
}

int mg_cmd_tune(int argc, char **argv) {
  tune T = {0};
  T.min_gain = 0.10;
  mg_ck_opts_default(&T.ck);
  T.srcs = calloc((size_t)argc + 1, sizeof *T.srcs);
  if (!T.srcs) return 1;
  int status = parse(argc, argv, &T);
  if (status == 1) status = 0; /* --help */
  else if (status == 0 && T.drop_dir) status = mg_cmd_tune_drop("tune", T.drop_dir, T.profile, T.out, T.unconfirmed, T.quiet);
  else if (status == 0 && !(status = source_nprocs(&T))) {
    status = 1;
    T.p = mg_profile_new();
    T.res = calloc((size_t)T.nsrc, sizeof *T.res);
    T.data = calloc((size_t)T.nsrc, sizeof *T.data);
    if (!T.p || !T.res || !T.data) {
      fprintf(stderr, "mpiguide tune: out of memory\n");
      goto out;
    }
    preamble(&T);
    for (int s = 0; s < T.nsrc; s++)
      if (!T.srcs[s].done && tune_group(&T, s)) goto out;
    if (T.noisy_inputs) { /* refused (noise_gate): nothing written */
      fprintf(stderr, "mpiguide tune: %d input(s) refused: noise dominates them; nothing written\n", T.noisy_inputs);
      status = 2;
      goto out;
    }
    if (T.have_lg) {
      mg_profile_add_preamble(T.p, "rules with 'predicted' in their comment: the cost model's choice at a size or "
                                   "process count not measured (mpiguide tune --model; docs/model.md)");
      if (model_fill(&T)) goto out;
    }
    if (save(&T)) goto out;
    if (!T.quiet) print_rules(&T);
    if (save_lib_settings(&T)) goto out;
    if (!T.quiet) print_defaults_best(&T);
    status = 0;
  }
out:
  for (int g = 0; g < T.ngroups; g++) {
    mg_ck_result_free(&T.res[g]);
    mg_ck_data_free(&T.data[g]);
  }
  free(T.res);
  free(T.data);
  free(T.ch);
  free(T.msizes);
  mg_libset_free(&T.ls);
  mg_profile_free(T.p);
  free(T.srcs);
  return status;
}
