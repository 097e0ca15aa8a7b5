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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check/check.h"
#include "cli/cli.h"
#include "cli/opts.h"
#include "tune/profile.h"
#include "tune/tuner.h"
#include "util/parse.h"

static const char usage_text[] =
    "usage: mpiguide tune DIR... -o FILE [--min-gain G] [--alpha A] [--test T] [--no-holm] [-q]\n"
    "\n"
    "Writes a tuning profile (docs/profile.md) from the results of `mpiguide check` (DIR: a check\n"
    "directory, a raw CSV or ReproMPI files). Per (collective, process count, measured size) it picks\n"
    "the fastest mock-up whose violation is significant and whose median is at least G faster than\n"
    "the default's. A choice covers its measured size, and the sizes up to the next measured size\n"
    "only when that one made the same choice; nothing beyond the largest measured size (docs/tune.md).\n"
    "\n"
    "  -o, --out FILE      the profile to write (required)\n"
    "      --min-gain G    required gain, 0 <= G < 1 [0.10]: median_mock <= (1 - G) x median_default\n"
    "      --alpha A       significance level [0.05]   --test T  mwu, welch, student [mwu]\n"
    "      --no-holm       no Holm adjustment          --seed S  bootstrap seed [the check's]\n"
    "  -q, --quiet         no table of rules\n"
    "  -h, --help          this text\n";

typedef struct src {
  const char *path;
  int nprocs;
  int done;
} src;

int mg_cmd_tune(int argc, char **argv) {
  const char *out = NULL;
  double min_gain = 0.10;
  mg_ck_opts ck;
  mg_ck_opts_default(&ck);
  int quiet = 0, seed_given = 0, status = 1;
  char e[MG_CK_ERR];
  src *srcs = calloc((size_t)argc + 1, sizeof *srcs);
  int nsrc = 0;
  if (!srcs) return 1;
  enum { T_HELP, T_OUT, T_MIN_GAIN, T_ALPHA, T_TEST, T_NO_HOLM, T_SEED, T_QUIET, T_N };
  static const mg_opt opts[T_N] = {
      [T_HELP] = {"help", 'h', 0},      [T_OUT] = {"out", 'o', 1},       [T_MIN_GAIN] = {"min-gain", 0, 1},
      [T_ALPHA] = {"alpha", 0, 1},      [T_TEST] = {"test", 0, 1},       [T_NO_HOLM] = {"no-holm", 0, 0},
      [T_SEED] = {"seed", 0, 1},        [T_QUIET] = {"quiet", 'q', 0},
  };
  for (int i = 1; i < argc; i++) {
    const char *v;
    int id = mg_opt_next(argc, argv, &i, opts, T_N, &v, e, sizeof e);
    if (id == MG_OPT_POSITIONAL) {
      srcs[nsrc++].path = argv[i];
      continue;
    }
    if (id < 0) {
      fprintf(stderr, "mpiguide tune: %s\n", e);
      goto bad;
    }
    switch (id) {
    case T_HELP:
      fputs(usage_text, stdout);
      free(srcs);
      return 0;
    case T_OUT: out = v; break;
    case T_MIN_GAIN:
      if (mg_parse_double(v, 0, &min_gain, e, sizeof e) || !(min_gain < 1)) {
        fprintf(stderr, "mpiguide tune: --min-gain: '%s' is not a number in [0, 1)\n", v);
        goto bad;
      }
      break;
    case T_ALPHA:
      if (mg_parse_double(v, 0, &ck.alpha, e, sizeof e) || !(ck.alpha > 0 && ck.alpha < 1)) {
        fprintf(stderr, "mpiguide tune: --alpha: '%s' is not between 0 and 1\n", v);
        goto bad;
      }
      break;
    case T_TEST: {
      int t = mg_ck_test_find(v);
      if (t < 0) {
        fprintf(stderr, "mpiguide tune: --test: '%s' is not mwu, welch or student\n", v);
        goto bad;
      }
      ck.test = (mg_ck_test)t;
      break;
    }
    case T_NO_HOLM: ck.holm = 0; break;
    case T_SEED: {
      long sv;
      if (mg_parse_long(v, 0, UINT32_MAX, &sv, e, sizeof e)) {
        fprintf(stderr, "mpiguide tune: --seed: %s\n", e);
        goto bad;
      }
      ck.seed = (uint32_t)sv;
      seed_given = 1;
      break;
    }
    case T_QUIET: quiet = 1; break;
    }
  }
  if (!nsrc) {
    fprintf(stderr, "mpiguide tune: no check directory given\n");
    goto bad;
  }
  if (!out) {
    fprintf(stderr, "mpiguide tune: -o FILE is required (the profile to write)\n");
    goto bad;
  }

  /* the process count of each source */
  for (int s = 0; s < nsrc; s++) {
    mg_ck_data d;
    mg_ck_data_init(&d);
    if (mg_ck_read(&d, srcs[s].path, e, sizeof e) || mg_ck_data_check(&d, e, sizeof e)) {
      fprintf(stderr, "mpiguide tune: %s\n", e);
      mg_ck_data_free(&d);
      goto bad;
    }
    srcs[s].nprocs = d.launches[0].nprocs;
    mg_ck_data_free(&d);
    if (srcs[s].nprocs < 1) {
      fprintf(stderr, "mpiguide tune: %s: the process count is unknown (no #@nprocs)\n", srcs[s].path);
      goto bad;
    }
  }

  mg_profile *p = mg_profile_new();
  mg_tune_choice *ch = NULL;
  int nch = 0;
  mg_ck_result *res = calloc((size_t)nsrc, sizeof *res);
  mg_ck_data *data = calloc((size_t)nsrc, sizeof *data);
  int ngroups = 0;
  if (!p || !res || !data) {
    fprintf(stderr, "mpiguide tune: out of memory\n");
    goto fail;
  }
  char line[1200], date[40];
  time_t now = time(NULL);
  strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
  snprintf(line, sizeof line, "written by mpiguide tune on %s", date);
  mg_profile_add_preamble(p, line);
  snprintf(line, sizeof line,
           "choice: fastest mock-up with a significant violation (%s, alpha %g%s) and median <= %.2f x "
           "default's over the whole slowdown interval",
           mg_ck_test_name(ck.test), ck.alpha, ck.holm ? ", Holm" : "", 1 - min_gain);
  mg_profile_add_preamble(p, line);
  mg_profile_add_preamble(p, "ranges: a measured size, extended to the next one only if it chose the same; "
                             "defaults elsewhere");
  for (int s = 0; s < nsrc; s++) {
    if (srcs[s].done) continue;
    mg_ck_data *d = &data[ngroups];
    mg_ck_result *r = &res[ngroups];
    mg_ck_data_init(d);
    ngroups++;
    size_t u = 0;
    char names[900] = "";
    for (int t = s; t < nsrc; t++) {
      if (srcs[t].nprocs != srcs[s].nprocs) continue;
      srcs[t].done = 1;
      if (mg_ck_read(d, srcs[t].path, e, sizeof e)) {
        fprintf(stderr, "mpiguide tune: %s\n", e);
        goto fail;
      }
      if (u < sizeof names) u += (size_t)snprintf(names + u, sizeof names - u, " %s", srcs[t].path);
    }
    if (mg_ck_data_check(d, e, sizeof e)) {
      fprintf(stderr, "mpiguide tune: %s\n", e);
      goto fail;
    }
    mg_ck_opts o = ck;
    if (!seed_given && d->launches[0].has_seed) o.seed = d->launches[0].seed;
    if (mg_ck_analyze(d, &o, r, e, sizeof e)) {
      fprintf(stderr, "mpiguide tune: analysis of%s failed: %s\n", names, e);
      goto fail;
    }
    const mg_ck_launch *L = &d->launches[0];
    snprintf(line, sizeof line, "np=%d: from%s (%d launch%s, measured %s on %s)", srcs[s].nprocs, names,
             d->nlaunches, d->nlaunches == 1 ? "" : "es", L->date && *L->date ? L->date : "?",
             L->hostname && *L->hostname ? L->hostname : "?");
    mg_profile_add_preamble(p, line);
    snprintf(line, sizeof line, "np=%d: MPI library: %s", srcs[s].nprocs,
             L->mpi_version && *L->mpi_version ? L->mpi_version : (L->mpi_name ? L->mpi_name : "?"));
    for (char *c = line; *c; c++)
      if (*c == '\n' || *c == '\r') *c = ' ';
    mg_profile_add_preamble(p, line);
    if (mg_tune_decide(r, srcs[s].nprocs, min_gain, p, &ch, &nch, e, sizeof e) < 0) {
      fprintf(stderr, "mpiguide tune: %s\n", e);
      goto fail;
    }
  }
  if (mg_profile_merge_touching(p) < 0) {
    fprintf(stderr, "mpiguide tune: out of memory\n");
    goto fail;
  }
  mg_profile_diags diags = {0};
  if (mg_profile_build(p, &diags) != MG_PROFILE_OK) {
    for (int k = 0; k < diags.n; k++) {
      mg_profile_diag_format(&diags.v[k], line, sizeof line);
      fprintf(stderr, "mpiguide tune: internal error: %s\n", line);
    }
    mg_profile_diags_free(&diags);
    goto fail;
  }
  mg_profile_diags_free(&diags);
  if (mg_profile_save(p, out) != MG_PROFILE_OK) {
    fprintf(stderr, "mpiguide tune: cannot write '%s'\n", out);
    goto fail;
  }
  if (!quiet) {
    int n = mg_profile_nrules(p), measured = 0, tuned = 0;
    for (int k = 0; k < nch; k++) measured++, tuned += ch[k].alg != 0;
    printf("%-21s %-6s %-15s %s\n", "collective", "np", "bytes", "algorithm");
    for (int k = 0; k < n; k++) {
      const mg_profile_rule *ru = mg_profile_rule_at(p, k);
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
           n == 1 ? "" : "s", measured, tuned, out);
  }
  status = 0;
fail:
  for (int g = 0; g < ngroups; g++) {
    mg_ck_result_free(&res[g]);
    mg_ck_data_free(&data[g]);
  }
  free(res);
  free(data);
  free(ch);
  mg_profile_free(p);
  free(srcs);
  return status;
bad:
  fputs("(mpiguide tune --help lists the options)\n", stderr);
  free(srcs);
  return 2;
}
