/*
 * `mpiguide loggp`: measure the LogGP parameters of the job's process pairs with parametrised
 * round trips (src/model/loggp_measure.c), write the parameter file (src/model/loggp_io.c) and
 * print the fit and its quality (docs/loggp.md). Run under mpirun with at least 2 processes;
 * every rank parses the same options and the ranks agree on them first (as in bench).
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/csv.h"
#include "cli/cli.h"
#include "cli/cmd_opts.h"
#include "cli/cmd_util.h"
#include "model/loggp_file.h"
#include "model/loggp_measure.h"
#include "util/err.h"
#include "util/fmt.h"
#include "util/parse.h"

#define OPTIONS(X)                                                                                 \
  X(OUT, "out", 'o', MG_OPT_ARG) X(SIZES, "sizes", 's', MG_OPT_ARG)                                \
  X(MESSAGES, "messages", 0, MG_OPT_ARG) X(TIME_PER, "time-per", 0, MG_OPT_ARG)                    \
  X(MIN, "min-nrep", 0, MG_OPT_ARG) X(MAX, "max-nrep", 0, MG_OPT_ARG) X(WARMUP, "warmup", 'w', MG_OPT_ARG) \
  X(TOL, "tolerance", 0, MG_OPT_ARG) X(QUIET, "quiet", 'q', MG_OPT_FLAG)                          \
  X(NO_PROGRESS, "no-progress", 0, MG_OPT_FLAG) X(HELP, "help", 'h', MG_OPT_FLAG)

enum { OPTIONS(MG_OPT_ENUM) O_N };
static const mg_opt opts[O_N] = {OPTIONS(MG_OPT_ROW)};

#define DEFAULT_SIZES "1:4M"

static const char usage_text[] =
    "usage: mpirun -np P mpiguide loggp [options]\n"
    "\n"
    "Measures the LogGP parameters L, o_s, o_r, g and G of the job with parametrised round\n"
    "trips, PRTT(n,d,s) (Hoefler, Lichei, Rehm 2009): a pair of processes on one node and, when\n"
    "the job spans several nodes, a pair on two nodes; also the per-byte cost of memcpy and of\n"
    "MPI_Reduce_local (MPI_SUM on MPI_DOUBLE). Writes the parameter file and prints the fit:\n"
    "the measured round trips beside the model's, their residuals, R^2 and warnings where the\n"
    "model does not hold. Needs at least 2 processes. Details: docs/loggp.md.\n"
    "\n"
    "  -o, --out FILE         the parameter file [loggp.txt]\n"
    "  -s, --sizes LIST       message sizes in bytes: 8,1K,64K; ranges FROM:TO (x2 steps),\n"
    "                         FROM:TO:xF, FROM:TO:+S; at most 64 sizes [" DEFAULT_SIZES "]\n"
    "      --messages N       n of PRTT(n,0,s) and PRTT(n,d,s), at least 2 [10]\n"
    "      --time-per T       time per series (size and kind of round trip): the repetitions\n"
    "                         are T / the warm-up's median round trip [100ms]\n"
    "      --min-nrep N       [10]    --max-nrep N  [1000]\n"
    "  -w, --warmup W         round trips before each series, not kept [3]\n"
    "      --tolerance X      report the sizes whose relative residual exceeds X [0.25]\n"
    "  -q, --quiet            no fit table, no progress\n"
    "      --no-progress      no progress line on stderr\n"
    "  -h, --help             this text\n"
    "\n"
    "Times accept s, ms, us, ns (default s). Exit codes: 0 done, 1 run failed, 2 bad input.\n";

typedef struct state {
  int rank, size;
  char err[4096], e[600];
  mg_loggp_cfg cfg;
  size_t *sizes;
  const char *out_path;
  int quiet, progress;
  char *command;
  mg_outfile out;
  mg_cmd_progress prog;
} state;

static int long_opt(const mg_opt_vals *o, int k, long min, long max, long def, long *v, state *S) {
  *v = def;
  if (o->given[k] && mg_parse_long(o->val[k], min, max, v, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--%s: %s", opts[k].name, S->e);
  return 0;
}

static int validate(const mg_opt_vals *o, state *S) {
  mg_loggp_cfg *cfg = &S->cfg;
  if (o->npos) return MG_ERR_TO(S->err, "unexpected argument '%s' (options start with - or --)", o->pos[0]);
  if (S->size < 2)
    return MG_ERR_TO(S->err, "needs at least 2 processes (a pair to measure); run it as mpirun -np 2 mpiguide loggp");
  if (mg_parse_sizes(o->given[O_SIZES] ? o->val[O_SIZES] : DEFAULT_SIZES, &S->sizes, &cfg->nsizes, S->e,
                     sizeof S->e))
    return MG_ERR_TO(S->err, "--sizes: %s", S->e);
  if (cfg->nsizes > MG_LOGGP_MAXPTS)
    return MG_ERR_TO(S->err, "--sizes: %d sizes, more than the %d a parameter file takes", cfg->nsizes, MG_LOGGP_MAXPTS);
  if (S->sizes[cfg->nsizes - 1] > INT_MAX)
    return MG_ERR_TO(S->err, "--sizes: %zu bytes is more than one MPI_BYTE count can send (%d)",
                     S->sizes[cfg->nsizes - 1], INT_MAX);
  cfg->sizes = S->sizes;
  long v;
  if (long_opt(o, O_MESSAGES, 2, 100000, 10, &v, S)) return -1;
  cfg->n = (int)v;
  if (long_opt(o, O_WARMUP, 1, 100000, 3, &v, S)) return -1;
  cfg->warmup = (int)v;
  if (long_opt(o, O_MIN, 1, 10000000, 10, &v, S)) return -1;
  cfg->min_nrep = (int)v;
  if (long_opt(o, O_MAX, 1, 10000000, 1000, &v, S)) return -1;
  cfg->max_nrep = (int)v;
  if (cfg->min_nrep > cfg->max_nrep)
    return MG_ERR_TO(S->err, "--min-nrep %d is larger than --max-nrep %d", cfg->min_nrep, cfg->max_nrep);
  cfg->time_per = 0.1;
  if (o->given[O_TIME_PER] && mg_parse_seconds(o->val[O_TIME_PER], &cfg->time_per, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--time-per: %s", S->e);
  cfg->tolerance = 0.25;
  if (o->given[O_TOL]) {
    if (mg_parse_double(o->val[O_TOL], 0, &cfg->tolerance, S->e, sizeof S->e))
      return MG_ERR_TO(S->err, "--tolerance: %s", S->e);
    if (!(cfg->tolerance > 0)) return MG_ERR_TO(S->err, "--tolerance: %s is not above 0 (e.g. 0.25 for 25 %%)", o->val[O_TOL]);
  }
  S->quiet = o->given[O_QUIET];
  S->progress = !S->quiet && !o->given[O_NO_PROGRESS];
  S->out_path = o->given[O_OUT] ? o->val[O_OUT] : "loggp.txt";
  if (!*S->out_path) return MG_ERR_TO(S->err, "--out: empty path");
  if (S->rank == 0 && mg_outfile_open(&S->out, S->out_path, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--out: %s", S->e);
  return 0;
}

/* The fit of one class on stdout: parameters, the table in microseconds, quality, warnings. */
static void print_class(const mg_loggp_class *c, int inter, double tol) {
  const mg_loggp *m = &c->m;
  const double (*col)[MG_LOGGP_MAXPTS] = c->col;
  printf("\n# %s pair: ranks %d and %d\n", inter ? "inter-node" : "intra-node", c->a, c->b);
  printf("# L %.3f us   g %.3f us   G %.4f ns/B (%.2f GB/s)   o_s %.3f us, o_r %.3f us at %.0f B\n", 1e6 * m->L,
         1e6 * m->g, 1e9 * m->G, m->G > 0 ? 1e-9 / m->G : 0.0, 1e6 * m->os[0], 1e6 * m->orecv[0], m->size[0]);
  printf("# %8s %10s %10s %6s %10s %10s %6s %10s %10s %6s %9s %9s %9s %6s\n", "size", "prtt1", "model1", "res1",
         "prttn", "modeln", "resn", "prttd", "modeld", "resd", "o_s", "o_r", "gap", "noise");
  for (int i = 0; i < c->npts; i++) {
    char sz[32];
    printf("  %8s %10.3f %10.3f %5.0f%% %10.3f %10.3f %5.0f%% %10.3f %10.3f %5.0f%% %9.3f %9.3f %9.3f %5.0f%%%s\n",
           mg_fmt_bytes((size_t)col[MG_LC_SIZE][i], MG_BYTES_EXACT, sz, sizeof sz), 1e6 * col[MG_LC_PRTT1][i],
           1e6 * col[MG_LC_MODEL1][i], 100 * col[MG_LC_RES1][i], 1e6 * col[MG_LC_PRTTN][i],
           1e6 * col[MG_LC_MODELN][i], 100 * col[MG_LC_RESN][i], 1e6 * col[MG_LC_PRTTD][i],
           1e6 * col[MG_LC_MODELD][i], 100 * col[MG_LC_RESD][i], 1e6 * col[MG_LC_OS][i], 1e6 * col[MG_LC_OR][i],
           1e6 * col[MG_LC_GAP][i], 100 * col[MG_LC_NOISE][i],
           fabs(col[MG_LC_RES1][i]) > tol || fabs(col[MG_LC_RESN][i]) > tol || fabs(col[MG_LC_RESD][i]) > tol
               ? "  <"
               : "");
  }
  char from[32];
  mg_fmt_bytes((size_t)col[MG_LC_SIZE][c->gfit_from], MG_BYTES_EXACT, from, sizeof from);
  printf("# fit: R^2 %.4f (prtt1), %.4f (prttn), %.4f (prttd); the line g + (s-1)G from %s up: R^2 %.4f; "
         "largest |residual| %.0f %%\n",
         c->r2[0], c->r2[1], c->r2[2], from, c->r2_gap, 100 * c->maxres);
  if (c->nwarn == 0) printf("# every residual within %.0f %%: the model holds at every size measured\n", 100 * tol);
  for (int w = 0; w < c->nwarn; w++) printf("# warning: %s\n", c->warn[w]);
}

static void print_fit(const mg_loggp_file *lf, const mg_bench_meta *meta, const state *S) {
  printf("# mpiguide loggp: %s, %d processes on %d node(s), n = %d messages per PRTT(n,d,s); times in us\n",
         meta->mpi_name, lf->p, lf->nodes, S->cfg.n);
  printf("# res: (model - measured) / measured; '<' marks a size with a residual above %.0f %%; noise: the largest\n"
         "# relative standard error of the medians of the size's four series\n",
         100 * S->cfg.tolerance);
  if (!lf->has[0]) printf("# no intra-node pair: every node ran one process\n");
  if (!lf->has[1]) printf("# no inter-node pair: the job ran on one node\n");
  for (int k = 0; k < 2; k++)
    if (lf->has[k]) print_class(&lf->cls[k], k, S->cfg.tolerance);
  printf("\n# local: copy %.4f ns/B (%.2f GB/s), reduce %.4f ns/B (%.2f GB/s)\n", 1e9 * lf->copy,
         lf->copy > 0 ? 1e-9 / lf->copy : 0.0, 1e9 * lf->reduce, lf->reduce > 0 ? 1e-9 / lf->reduce : 0.0);
}

int mg_cmd_loggp(int argc, char **argv) {
  state S0, *S = &S0;
  memset(S, 0, sizeof *S);
  mg_bench_meta meta;
  if (mg_cmd_mpi_start("loggp", &S->rank, &S->size, &meta)) return 1;
  mg_opt_vals o;
  int st = mg_opt_parse(argc, argv, opts, O_N, &o, S->err, sizeof S->err);
  int help = st == 0 && o.given[O_HELP];
  if (st == 0 && !help) st = validate(&o, S);
  int status = mg_cmd_agree("loggp", S->rank, st, S->err, mg_cmd_argv_hash(argc, argv) ^ (uint32_t)help,
                            "the ranks were started with different arguments; start every rank with the same "
                            "options");
  mg_loggp_file *lf = NULL;
  if (status) goto done;
  if (help) {
    if (S->rank == 0) fputs(usage_text, stdout);
    goto done;
  }
  lf = malloc(sizeof *lf);
  if (!lf) {
    fprintf(stderr, "mpiguide loggp: out of memory on rank %d\n", S->rank);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  S->command = mg_cmd_join(argc, argv);
  mg_cmd_progress_init(&S->prog, "loggp", S->rank == 0 && S->progress, 0);
  S->cfg.progress = mg_cmd_progress_cb;
  S->cfg.arg = &S->prog;
  int rc = mg_loggp_measure(MPI_COMM_WORLD, &S->cfg, lf);
  mg_cmd_progress_end(&S->prog);
  if (rc != MPI_SUCCESS) {
    char es[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, es, &len);
    fprintf(stderr, "mpiguide loggp: the measurement failed on rank %d: %s\n", S->rank, es);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (S->rank == 0) {
    snprintf(lf->mpi_name, sizeof lf->mpi_name, "%s", meta.mpi_name);
    snprintf(lf->mpi_library, sizeof lf->mpi_library, "%s", meta.mpi_library);
    char e[700];
    int bad = mg_loggp_write(S->out.f, lf, S->command);
    if (bad) snprintf(e, sizeof e, "cannot write '%s' (disk full?)", S->out_path);
    else bad = mg_outfile_commit(&S->out, e, sizeof e);
    if (bad) {
      fprintf(stderr, "mpiguide loggp: %s\n", e);
      status = 1;
    } else {
      if (!S->quiet) print_fit(lf, &meta, S);
      for (int k = 0; k < 2; k++)
        if (lf->has[k] && lf->cls[k].nwarn && S->quiet)
          fprintf(stderr, "mpiguide loggp: %s pair: %d warning(s) about the fit (see %s)\n", k ? "inter-node" : "intra-node",
                  lf->cls[k].nwarn, S->out_path);
      if (!S->quiet) printf("# parameters: %s\n", S->out_path);
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);

done:
  if (S->rank == 0) mg_outfile_discard(&S->out);
  int wrote = status == 0 && S->command; /* past the agreement: the results are written */
  free(lf);
  free(S->sizes);
  free(S->command);
  mg_opt_vals_free(&o);
  char saved[4200];
  snprintf(saved, sizeof saved, "parameters in %s", S->out_path ? S->out_path : "");
  mg_cmd_mpi_end_status("loggp", status, wrote ? saved : NULL);
  return status;
}
