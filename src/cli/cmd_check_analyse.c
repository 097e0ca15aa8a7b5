/*
 * The analysis of `mpiguide check` (rank 0 after a measurement, or `--from DIR...` without MPI):
 * read the raw data, test, print the verdicts and write DIR's result files, the predictions
 * (--loggp) and the HTML report.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd_check_state.h"
#include "report/report.h"
#include "util/err.h"

/* DIR/report.html from the data and verdicts (src/report), under a temporary name renamed when
 * complete. 0, or -1 with a message. */
static int write_report(const char *dir, const mg_ck_data *d, const mg_ck_result *r, char *err, size_t errlen) {
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/report.html", dir) >= sizeof path)
    return MG_ERR("%s: directory name too long for the report", dir);
  mg_rp_preds pred;
  char pp[4096];
  snprintf(pp, sizeof pp, "%s/predicted.csv", dir);
  if (mg_rp_preds_read(pp, &pred, err, errlen)) return -1;
  mg_rp_run run = {.d = d, .r = r, .pred = &pred};
  int rc = mg_rp_write_file(path, &run, 1, err, errlen);
  mg_rp_preds_free(&pred);
  return rc;
}

int mg_check_analyse(mg_check_state *S, const char *const *sources, int nsources, const char *outdir) {
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
        printf("\nresults: %s/ (%sverdicts.csv, verdicts.json, summary.txt, report.html%s%s)\n", outdir,
               raw_here ? "raw.csv, " : "", r.nlib ? ", libvariants.csv, libverdicts.csv" : "",
               !r.npack ? "" : raw_here ? ", pack.csv, packverdicts.csv" : ", packverdicts.csv");
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

static int offline(mg_check_state *S, const mg_opt_vals *o) {
  if (mg_cmd_launched_rank() != 0) return 0; /* started under mpirun: rank 0 does it alone */
  for (int id = 0; id < O_N; id++)
    if (o->given[id] && mg_check_measure_only(id)) {
      fprintf(stderr,
              "mpiguide check: --%s applies to a measurement, not to --from (the data are measured "
              "already)\n",
              mg_check_opts[id].name);
      return 2;
    }
  if (o->nlist == 0) {
    fprintf(stderr, "mpiguide check: --from needs at least one directory or file\n");
    return 2;
  }
  const char *outdir = o->given[O_OUT] ? o->val[O_OUT] : NULL;
  if (outdir && mg_check_prepare_out(S, outdir, 1)) {
    fprintf(stderr, "mpiguide check: %s\n", S->err);
    return 2;
  }
  int st = mg_check_analyse(S, o->list, o->nlist, outdir);
  if (st && S->created_out) rmdir(outdir); /* nothing was written into it */
  return st;
}

/* --help and --from need no MPI: their exit code, or -1 to go on with a measurement. */
int mg_check_without_mpi(mg_check_state *S, mg_opt_vals *o, int st) {
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

int mg_check_from_args(int argc, char **argv) {
  mg_check_state S0, *S = &S0;
  memset(S, 0, sizeof *S);
  mg_opt_vals o;
  int st = mg_check_parse_argv(argc, argv, &o, S);
  if (st == 0) st = mg_check_parse_analysis(&o, S);
  int status = mg_check_without_mpi(S, &o, st);
  mg_opt_vals_free(&o);
  return status < 0 ? 2 : status; /* -1: no --from in argv, which the caller always gives */
}
