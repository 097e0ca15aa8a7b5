/*
 * `mpiguide check --launches N [options] -o DIR -- LAUNCHER...`: the launch is
 * the unit of replication (docs/statistics.md), so this runs, without MPI of
 * its own,
 *
 *     LAUNCHER... mpiguide check [options] -o DIR/launch-K -q     K = 1..N
 *
 * one after the other, then analyses the launches that finished together, as
 * `mpiguide check --from DIR/launch-1 ... -o DIR [analysis options]` does.
 * A launch that fails is reported and the others are kept; Ctrl-C (SIGINT) or
 * SIGTERM stops after the running launch ends (the launcher passes the signal
 * on to its processes), and every finished launch is analysed. Progress and an
 * ETA run across launches on stderr; each launch's own output is in
 * DIR/launch-K/check.log.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd_check.h"
#include "cli/cmd_util.h"
#include "util/parse.h"

static volatile sig_atomic_t stop_asked;
static void on_signal(int sig) { stop_asked = sig; }

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int mg_check_launches(const mg_check_launch_args *a) {
  if (mg_cmd_under_launcher()) {
    fprintf(stderr, "mpiguide check: --launches starts the launcher itself: run `mpiguide check --launches N ... "
                    "-- mpirun -np P` without mpirun in front\n");
    return 2;
  }
  char self[4096];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  if (n <= 0) {
    fprintf(stderr, "mpiguide check: cannot find the mpiguide executable (/proc/self/exe): %s\n", strerror(errno));
    return 1;
  }
  self[n] = '\0';
  if (mkdir(a->out, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "mpiguide check: cannot create %s: %s\n", a->out, strerror(errno));
    return 2;
  }
  /* child: LAUNCHER... self check <measure args> -o DIR/launch-K -q [--force] */
  int nc = a->nlauncher + 3 + a->nmeasure + 4;
  char **child = calloc((size_t)nc + 1, sizeof *child);
  char **dirs = calloc((size_t)a->n + 1, sizeof *dirs);
  if (!child || !dirs) {
    fprintf(stderr, "mpiguide check: out of memory\n");
    free(child), free(dirs);
    return 1;
  }
  struct sigaction sa = {0}, old_int, old_term;
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  int ok = 0, failed = 0;
  double t0 = now();
  for (int k = 1; k <= a->n && !stop_asked; k++) {
    char dir[4200], log[4300];
    snprintf(dir, sizeof dir, "%s/launch-%d", a->out, k);
    snprintf(log, sizeof log, "%s/launch-%d.log", a->out, k);
    int c = 0;
    for (int i = 0; i < a->nlauncher; i++) child[c++] = a->launcher[i];
    child[c++] = self;
    child[c++] = "check";
    for (int i = 0; i < a->nmeasure; i++) child[c++] = a->measure[i];
    child[c++] = "-o";
    child[c++] = dir;
    child[c++] = "-q";
    if (a->force) child[c++] = "--force";
    child[c] = NULL;
    double el = now() - t0;
    if (k == 1)
      fprintf(stderr, "mpiguide check: launch %d of %d ...\n", k, a->n);
    else
      fprintf(stderr, "mpiguide check: launch %d of %d (%.0f s so far, about %.0f s to go) ...\n", k, a->n, el,
              el / (k - 1) * (a->n - k + 1));
    double t1 = now();
    int rc = mg_cmd_run_child(child, log);
    if (rc == 0) {
      dirs[ok++] = strdup(dir);
      fprintf(stderr, "mpiguide check: launch %d of %d done in %.1f s: %s\n", k, a->n, now() - t1, dir);
    } else {
      failed++;
      fprintf(stderr, "mpiguide check: launch %d of %d failed (%s %d; its output: %s); the other launches are "
                      "kept\n", k, a->n, rc > 128 ? "signal" : "exit status", rc > 128 ? rc - 128 : rc, log);
    }
  }
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  if (stop_asked)
    fprintf(stderr, "mpiguide check: interrupted after %d finished launch(es) of %d; analysing those\n", ok, a->n);
  int status = 1;
  if (ok == 0) {
    fprintf(stderr, "mpiguide check: no launch finished: nothing to analyse (the launch logs are in %s)\n", a->out);
  } else {
    /* the analysis: check --from <dirs> -o DIR [analysis options] --force */
    int na = 0;
    char **an = calloc((size_t)(ok + a->nanalysis + 6), sizeof *an);
    if (an) {
      an[na++] = "check";
      an[na++] = "--from";
      for (int i = 0; i < ok; i++) an[na++] = dirs[i];
      an[na++] = "-o";
      an[na++] = (char *)a->out;
      an[na++] = "--force"; /* DIR holds the launches: its own results are ours to write */
      for (int i = 0; i < a->nanalysis; i++) an[na++] = a->analysis[i];
      status = mg_cmd_check(na, an);
      free(an);
      if (status == 0 && (failed || stop_asked)) status = 1;
    }
  }
  for (int i = 0; i < ok; i++) free(dirs[i]);
  free(dirs);
  free(child);
  return status;
}

/* Options that only the measurement reads (refused by --from, given to every launch of --launches). */
static const int measure_only[] = {O_QUICK, O_FULL, O_COLL, O_COLL2,  O_MOCKUPS,   O_SIZES,
                                   O_DTYPE, O_OP,   O_ROOT, O_SYNC,   O_BUDGET,    O_RSE,
                                   O_NREP,  O_MIN,  O_MAX,  O_WARMUP, O_NO_SHUFFLE, O_ROOTS, O_REDS, O_COUNTS, O_SIZES_FROM,
                                   O_FAMILIES, O_IN_PLACE, O_MODEL_GUIDED, O_MODEL_SLACK, O_P2P, O_PATTERN, O_LIBVARS};

int mg_check_measure_only(int id) {
  for (size_t i = 0; i < sizeof measure_only / sizeof measure_only[0]; i++)
    if (measure_only[i] == id) return 1;
  return 0;
}

/* `check --launches N [options] -o DIR -- LAUNCHER...` (cmd_check_launches.c): argv[1..dd) are
 * check's own arguments, argv[dd+1..) the launcher. Each option goes to the launches, to the joint
 * analysis, or (--seed) to both. */
int mg_check_launches_args(int argc, char **argv, int dd, const mg_opt_vals *o) {
  char e[256];
  mg_check_launch_args a = {.out = o->val[O_OUT], .force = o->given[O_FORCE]};
  if (o->given[O_FROM]) return fprintf(stderr, "mpiguide check: --launches measures; --from analyses: give one\n"), 2;
  if (!o->given[O_OUT]) return fprintf(stderr, "mpiguide check: --launches needs -o DIR (the launches go to DIR/launch-K)\n"), 2;
  long nl = 0;
  if (mg_parse_long(o->val[O_LAUNCHES], 1, 1000, &nl, e, sizeof e) || dd < 0 || dd + 1 >= argc)
    return fprintf(stderr, "mpiguide check: --launches N -- LAUNCHER...: %s\n",
                   dd < 0 || dd + 1 >= argc ? "no launcher after --, e.g. -- mpirun -np 4" : e), 2;
  a.n = (int)nl;
  a.launcher = argv + dd + 1;
  a.nlauncher = argc - dd - 1;
  a.measure = calloc((size_t)argc, sizeof *a.measure);
  a.analysis = calloc((size_t)argc, sizeof *a.analysis);
  if (!a.measure || !a.analysis) return free(a.measure), free(a.analysis), 1;
  for (int i = 1; i < dd; i++) {
    int first = i;
    const char *val;
    int id = mg_opt_next(dd, argv, &i, mg_check_opts, O_N, &val, e, sizeof e);
    if (id < 0 || id == O_LAUNCHES || id == O_OUT || id == O_FORCE) continue;
    for (int k = first; k <= i; k++) {
      /* --loggp: the joint analysis predicts; a launch of --model-guided chooses by it */
      if (mg_check_measure_only(id) || id == O_SEED || id == O_LOGGP) a.measure[a.nmeasure++] = argv[k];
      if (!mg_check_measure_only(id)) a.analysis[a.nanalysis++] = argv[k];
    }
  }
  int st = mg_check_launches(&a);
  free(a.measure), free(a.analysis);
  return st;
}

