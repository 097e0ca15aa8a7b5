/*
 * `mpiguide tune DIR... -o FILE`: a profile from check results (docs/tune.md).
 * No MPI: the raw data of each DIR are analysed again with the check's own
 * analysis (mgcheck: same test, Holm family and bootstrap seed as `check
 * --from`), the tuner (src/tune/tuner.c) picks per (collective, process
 * count, size), and the profile is written with mg_profile_save. Directories
 * with the same process count are analysed together (several launches of one
 * configuration); each process count gets its own rules.
 * Exit codes: 0 written, 1 failed, 2 bad input.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/csv.h"
#include "check/check.h"
#include "cli/cli.h"
#include "cli/cmd_opts.h"
#include "tune/profile.h"
#include "tune/tuner.h"
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
    "\n"
    "  -o, --out FILE      the profile to write (required)\n"
    "      --min-gain G    required gain, 0 <= G < 1 [0.10]: median_mock <= (1 - G) x median_default\n"
    "      --alpha A       significance level [0.05]   --test T  mwu, welch, student [mwu]\n"
    "      --no-holm       no Holm adjustment          --seed S  bootstrap seed [the check's]\n"
    "  -q, --quiet         no table of rules\n"
    "      --include-inconclusive  also cells whose violation is significant but inconclusive\n"
    "                      (within the noise, or an interval reaching 1): may tune an artefact\n"
    "  -h, --help          this text\n";

#define OPTIONS(X)                                                                                      \
  X(HELP, "help", 'h', MG_OPT_FLAG) X(OUT, "out", 'o', MG_OPT_ARG) X(MIN_GAIN, "min-gain", 0, MG_OPT_ARG)     \
  X(ALPHA, "alpha", 0, MG_OPT_ARG) X(TEST, "test", 0, MG_OPT_ARG) X(NO_HOLM, "no-holm", 0, MG_OPT_FLAG)       \
  X(SEED, "seed", 0, MG_OPT_ARG) X(QUIET, "quiet", 'q', MG_OPT_FLAG)                                         \
  X(INCONCLUSIVE, "include-inconclusive", 0, MG_OPT_FLAG)

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
} tune;

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
  T->which = o.given[O_INCONCLUSIVE] ? MG_TUNE_INCLUDE_INCONCLUSIVE : MG_TUNE_CONCLUSIVE;
  for (int i = 0; i < o.npos; i++) T->srcs[T->nsrc++].path = o.pos[i];
  if (!T->nsrc) {
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
           T->which == MG_TUNE_CONCLUSIVE ? "conclusive violation" : "significant violation, conclusive or not",
           mg_ck_test_name(T->ck.test), T->ck.alpha, T->ck.holm ? ", Holm" : "", 1 - T->min_gain);
  mg_profile_add_preamble(T->p, line);
  mg_profile_add_preamble(T->p, "ranges: a measured size, extended to the next one only if it chose the same; "
                                "defaults elsewhere");
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
  if (mg_tune_decide(r, np, T->min_gain, T->which, T->p, &T->ch, &T->nch, T->e, sizeof T->e) < 0)
    return fprintf(stderr, "mpiguide tune: %s\n", T->e), 1;
  return 0;
}

/* The built profile p into path, through a temporary renamed when complete. 0, or 1 after a message that
 * names the file and the reason. */
static int write_profile(const mg_profile *p, const char *path) {
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
  return write_profile(T->p, T->out);
}

static void print_rules(const tune *T) {
  int n = mg_profile_nrules(T->p), measured = 0, tuned = 0;
  for (int k = 0; k < T->nch; k++) measured++, tuned += T->ch[k].alg != 0;
  printf("%-21s %-6s %-15s %s\n", "collective", "np", "bytes", "algorithm");
  for (int k = 0; k < n; k++) {
    const mg_profile_rule *ru = mg_profile_rule_at(T->p, k);
    char lo[32], hi[32], np[32], rg[70];
    mg_profile_fmt_size(ru->lo, lo, sizeof lo);
    mg_profile_fmt_size(ru->hi, hi, sizeof hi);
    mg_profile_fmt_np(ru->np_lo, ru->np_hi, np, sizeof np);
    if (ru->lo == ru->hi)
      snprintf(rg, sizeof rg, "%s", lo);
    else
      snprintf(rg, sizeof rg, "%s-%s", lo, hi);
    printf("%-21s %-6s %-15s %s\n", mg_colls[ru->coll].name, np + 3, rg, mg_colls[ru->coll].algs[ru->alg].name);
  }
  printf("%d rule%s from %d measured (collective, process count, size) cells, %d tuned; profile: %s\n", n,
         n == 1 ? "" : "s", measured, tuned, T->out);
}

int mg_cmd_tune(int argc, char **argv) {
  tune T = {0};
  T.min_gain = 0.10;
  mg_ck_opts_default(&T.ck);
  T.srcs = calloc((size_t)argc + 1, sizeof *T.srcs);
  if (!T.srcs) return 1;
  int status = parse(argc, argv, &T);
  if (status == 1) status = 0; /* --help */
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
    if (save(&T)) goto out;
    if (!T.quiet) print_rules(&T);
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
  mg_profile_free(T.p);
  free(T.srcs);
  return status;
}
