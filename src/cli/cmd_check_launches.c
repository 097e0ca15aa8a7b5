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
 * SIGTERM stops the running launch (the launcher passes the signal on to its
 * processes, whose rank 0 keeps the cells measured so far in
 * DIR/launch-K/raw.csv), and every finished launch is analysed. A DIR that
 * holds launches already is refused before any launch starts, unless
 * --resume (finished launches kept, the interrupted one completed with
 * `check --resume`, the missing ones run) or --force (all measured anew).
 * Progress and an ETA run across launches on stderr; each launch's stdout is
 * in DIR/launch-K.log, its messages go to stderr.
 */
#define _GNU_SOURCE /* strptime, timegm */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli/cmd_check.h"
#include "cli/cmd_check_state.h"
#include "cli/cmd_util.h"
#include "util/clock.h"
#include "util/parse.h"

static volatile sig_atomic_t stop_asked;
static void on_signal(int sig) { stop_asked = sig; }

/* The state of DIR/launch-K: 1 finished (a complete raw.csv), 0 interrupted (a partial one, note
 * its #@check_incomplete), -1 nothing measured. */
static int launch_state(const char *dir, char *note, size_t len) {
  int p = mg_check_partial(dir, note, len);
  return p < 0 ? -1 : p ? 0 : 1;
}

/* Whether a file exists and is not empty. */
static int nonempty(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && st.st_size > 0;
}

/* A launch's work is saved: its raw.csv complete and written since the launch started, and no
 * .analysing mark (rank 0 holds it until its analysis is written, before MPI_Finalize: a slow
 * analysis is never cut short). */
typedef struct {
  const char *dir;
  time_t start;
} saved_ctx;
static int launch_saved(void *arg) {
  const saved_ctx *c = arg;
  char raw[4300], note[256];
  struct stat st;
  snprintf(raw, sizeof raw, "%s/raw.csv", c->dir);
  if (stat(raw, &st) != 0 || st.st_mtime < c->start || launch_state(c->dir, note, sizeof note) <= 0) return 0;
  snprintf(raw, sizeof raw, "%s/.analysing", c->dir);
  return stat(raw, &st) != 0;
}

/* Seconds a launcher has to exit once its launch's results are saved (MPI_Finalize, the launcher's
 * own teardown); then it is stopped (mg_cmd_run_child_until). The launch's own watchdog ends a
 * hanging MPI_Finalize mg_cmd_finalize_grace() seconds (MPIGUIDE_FINALIZE_GRACE) after the same
 * point: this is for a launcher that outlives its processes, 5 s later. */
static double launcher_grace(void) { return mg_cmd_finalize_grace() + 5.0; }

/* Before any launch: DIR may hold the launches of an earlier check only with --resume or --force, and
 * --resume needs them. 0, or 2 after a message. */
static int check_dir(const mg_check_launch_args *a) {
  char dir[4200], note[256], what[2048] = "";
  size_t u = 0;
  int any = 0;
  for (int k = 1; k <= 1000; k++) {
    snprintf(dir, sizeof dir, "%s/launch-%d", a->out, k);
    struct stat st;
    if (stat(dir, &st) != 0) break;
    int ls = launch_state(dir, note, sizeof note);
    any++;
    if (u < sizeof what)
      u += (size_t)snprintf(what + u, sizeof what - u, "%slaunch-%d %s%s", any > 1 ? ", " : "", k,
                            ls > 0 ? "finished" : ls == 0 ? "interrupted: " : "without data", ls == 0 ? note : "");
  }
  if (a->resume && a->force)
    return fprintf(stderr, "mpiguide check: --resume keeps the launches in %s, --force measures them anew: give one\n",
                   a->out), 2;
  if (a->resume && !any)
    return fprintf(stderr, "mpiguide check: --resume: %s holds no launch-K directory: nothing to resume (without "
                           "--resume the check starts anew)\n", a->out), 2;
  if (any && !a->resume && !a->force)
    return fprintf(stderr, "mpiguide check: --out: '%s' holds the launches of an earlier check (%s): add --resume to "
                           "the same command to measure only what is missing, or --force to measure every launch anew "
                           "(discarding them)\n", a->out, what), 2;
  return 0;
}

/* What the launches did so far. */
typedef struct tally {
  char **dirs;              /* the finished launches' directories, ok of them */
  int ok, failed, ran, cut; /* cut: the launch interrupted, 0 none */
  double t0;                /* when the first launch started */
} tally;

/* The start of a finished launch as its raw.csv records it (#@date, rank 0's UTC clock at MPI_Init,
 * whole seconds: what the analysis spans, check.h), as seconds since the epoch; -1 when it has none. */
static double recorded_start(const char *dir) {
  char path[4300], line[256];
  snprintf(path, sizeof path, "%s/raw.csv", dir);
  FILE *f = fopen(path, "r");
  double when = -1;
  for (int i = 0; f && when < 0 && i < 200 && fgets(line, sizeof line, f) && line[0] == '#'; i++) {
    struct tm tm = {0};
    const char *end = strncmp(line, "#@date=", 7) ? NULL : strptime(line + 7, "%Y-%m-%dT%H:%M:%SZ", &tm);
    if (end && (*end == '\n' || !*end)) when = (double)timegm(&tm);
  }
  if (f) fclose(f);
  return when;
}

/* Launch k of a->n: `LAUNCHER... self check <measure args> -o DIR/launch-K -q [--force]` (child
 * has room for it), counted in t; --resume skips a finished launch and resumes an interrupted one.
 * After a finished launch, `--eta-from` its raw.csv: the launches measure the same cells, so its
 * times are the progress line's estimate from the first second. */
static void run_launch(const mg_check_launch_args *a, int k, const char *self, char **child, tally *t) {
  char dir[4200], log[4300], note[256];
  snprintf(dir, sizeof dir, "%s/launch-%d", a->out, k);
  snprintf(log, sizeof log, "%s/launch-%d.log", a->out, k);
  int state = a->resume ? launch_state(dir, note, sizeof note) : -1;
  if (state > 0) { /* --resume: finished before */
    t->dirs[t->ok++] = strdup(dir);
    fprintf(stderr, "mpiguide check: launch %d of %d finished before: %s\n", k, a->n, dir);
    return;
  }
  int c = 0;
  for (int i = 0; i < a->nlauncher; i++) child[c++] = a->launcher[i];
  child[c++] = (char *)self;
  child[c++] = "check";
  for (int i = 0; i < a->nmeasure; i++) child[c++] = a->measure[i];
  child[c++] = "-o";
  child[c++] = dir;
  child[c++] = "-q";
  char of[64];
  if (a->progress) { /* its progress line (stderr, a line every 5 s), labelled; tables stay in its log */
    snprintf(of, sizeof of, "%d/%d", k, a->n);
    child[c - 1] = "--launch-of";
    child[c++] = of;
  }
  if (a->force) child[c++] = "--force";
  if (state == 0) child[c++] = "--resume"; /* --resume: the interrupted launch measures what it lacks */
  char prev[4300];
  if (t->ok > 0) { /* the last finished launch's cells: the time estimate's prior (eta.h) */
    snprintf(prev, sizeof prev, "%s/raw.csv", t->dirs[t->ok - 1]);
    child[c++] = "--eta-from";
    child[c++] = prev;
  }
  child[c] = NULL;
  double el = mg_clock_s() - t->t0;
  if (!t->ran)
    fprintf(stderr, "mpiguide check: launch %d of %d%s ...\n", k, a->n, state == 0 ? " (resumed)" : "");
  else
    fprintf(stderr, "mpiguide check: launch %d of %d%s (%.0f s so far, about %.0f s to go) ...\n", k, a->n,
            state == 0 ? " (resumed)" : "", el, el / t->ran * (a->n - k + 1));
  double t1 = mg_clock_s();
  saved_ctx sc = {dir, time(NULL) - 1}; /* the file's time has whole seconds */
  int stopped = 0;
  double grace = launcher_grace();
  int rc = mg_cmd_run_child_until(child, log, launch_saved, &sc, grace, &stopped);
  if (stopped)
    fprintf(stderr, "mpiguide check: launch %d of %d: its results were saved %.0f s ago and the launcher has not "
                    "exited: stopped (MPICH 4.0.2 + UCX over TCP can hang in MPI_Finalize, docs/cluster.md); the "
                    "launch counts as finished\n", k, a->n, grace);
  t->ran++;
  char where[4400] = ""; /* the launch's stdout, if it wrote any (-q: its messages went to stderr) */
  if (nonempty(log)) snprintf(where, sizeof where, "; its output: %s", log);
  /* a launch is done when its raw.csv is complete: MPICH's mpiexec exits with 0 when Ctrl-C
   * stopped its processes */
  state = launch_state(dir, note, sizeof note);
  if (rc == 0 && state > 0) {
    t->dirs[t->ok++] = strdup(dir);
    fprintf(stderr, "mpiguide check: launch %d of %d done in %.1f s: %s\n", k, a->n, mg_clock_s() - t1, dir);
  } else if (stop_asked || (rc == 0 && state == 0)) {
    t->cut = k;
    stop_asked = stop_asked ? stop_asked : SIGINT; /* its processes were stopped: so is the check */
    if (state == 0)
      fprintf(stderr, "mpiguide check: launch %d of %d interrupted; the cells it measured are kept in %s/raw.csv "
                      "(%s)\n", k, a->n, dir, note);
    else
      fprintf(stderr, "mpiguide check: launch %d of %d interrupted before it saved a cell%s\n", k, a->n, where);
  } else {
    t->failed++;
    fprintf(stderr, "mpiguide check: launch %d of %d failed (%s %d%s); the other launches are kept\n", k, a->n,
            rc > 128 ? "signal" : "exit status", rc > 128 ? rc - 128 : rc, where);
  }
}

/* After the launches: the finished ones analysed together, as `check --from <dirs> -o DIR
 * [analysis options] --force` (cmd_check_analyse.c); the exit code. */
static int analyse_launches(const mg_check_launch_args *a, const tally *t) {
  char note[256];
  char cutdir[4200];
  snprintf(cutdir, sizeof cutdir, "%s/launch-%d", a->out, t->cut);
  int kept = t->cut && launch_state(cutdir, note, sizeof note) == 0; /* cells of the interrupted launch */
  if (stop_asked)
    fprintf(stderr, "mpiguide check: interrupted after %d finished launch(es) of %d; %s%s\n", t->ok, a->n,
            t->ok ? "analysing those" : "none to analyse yet",
            kept || t->ok < a->n ? "; the same command with --resume measures only what is missing" : "");
  int status = 1;
  if (t->ok == 0) {
    if (kept)
      fprintf(stderr, "mpiguide check: no launch finished, so there is no joint analysis yet; launch %d's cells are "
                      "kept in %s/raw.csv (`mpiguide check --from %s` analyses them as a partial run)\n", t->cut,
              cutdir, cutdir);
    else
      fprintf(stderr, "mpiguide check: no launch finished: nothing to analyse\n");
    return status;
  }
  int na = 0;
  char **an = calloc((size_t)(t->ok + a->nanalysis + 6), sizeof *an);
  if (an) {
    an[na++] = "check";
    an[na++] = "--from";
    for (int i = 0; i < t->ok; i++) an[na++] = t->dirs[i];
    an[na++] = "-o";
    an[na++] = (char *)a->out;
    an[na++] = "--force"; /* DIR holds the launches: its own results are ours to write */
    for (int i = 0; i < a->nanalysis; i++) an[na++] = a->analysis[i];
    status = mg_check_from_args(na, an);
    free(an);
    if (status == 0 && (t->failed || stop_asked)) status = 1;
  }
  return status;
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
  /* MPIGUIDE_LAUNCH_EXE: the mpiguide each launch runs, when it is not this one: a simulated
   * configuration of mpiguide campaign (the smpi build runs only under smpirun; docs/campaign.md) */
  const char *le = getenv("MPIGUIDE_LAUNCH_EXE");
  if (le && *le) {
    if (strlen(le) >= sizeof self || access(le, X_OK) != 0) {
      fprintf(stderr, "mpiguide check: MPIGUIDE_LAUNCH_EXE=%.200s: not an executable file\n", le);
      return 2;
    }
    snprintf(self, sizeof self, "%s", le);
  }
  int bad = check_dir(a);
  if (bad) return bad;
  if (mkdir(a->out, 0777) != 0 && errno != EEXIST) {
    fprintf(stderr, "mpiguide check: cannot create %s: %s\n", a->out, strerror(errno));
    return 2;
  }
  /* child: LAUNCHER... self check <measure args> -o DIR/launch-K -q [--force] [--resume]
   * [--eta-from DIR/launch-J/raw.csv] */
  int nc = a->nlauncher + 3 + a->nmeasure + 6;
  char **child = calloc((size_t)nc + 1, sizeof *child);
  tally t = {.dirs = calloc((size_t)a->n + 1, sizeof *t.dirs)};
  if (!child || !t.dirs) {
    fprintf(stderr, "mpiguide check: out of memory\n");
    free(child), free(t.dirs);
    return 1;
  }
  struct sigaction sa = {0}, old_int, old_term;
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  t.t0 = mg_clock_s();
  for (int k = 1; k <= a->n && !stop_asked; k++) {
    /* launches that follow each other within seconds replicate nothing of the machine's time: launch K
     * waits until (K-1)/(N-1) of --min-span have passed since launch 1 started (docs/check.md) */
    double wait = mg_ck_launch_wait(mg_clock_s() - t.t0, k, a->n, a->min_span);
    if (wait >= 1 && !a->resume) {
      fprintf(stderr, "mpiguide check: waiting %.0f s before launch %d of %d, so that the launches span --min-span "
                      "%.0f s (--min-span 0: no wait)\n", wait, k, a->n, a->min_span);
      for (double end = mg_clock_s() + wait; !stop_asked && mg_clock_s() < end;) {
        double left = end - mg_clock_s();
        struct timespec ts = {(time_t)(left > 1 ? 1 : 0), (long)((left > 1 ? 0 : left) * 1e9)};
        nanosleep(&ts, NULL); /* a signal ends it early: stop_asked is then seen */
      }
    }
    if (!stop_asked) run_launch(a, k, self, child, &t);
    /* the span the analysis sees is between the launches' recorded starts (#@date, whole seconds,
     * taken after the launcher started the ranks): the next waits are counted from launch 1's, so
     * that a slow first start does not shorten it (check.launches.spacing under a CPU quota: 5 s
     * recorded for 6 s waited) */
    if (k == 1 && t.ok == 1 && !a->resume) {
      double rec = recorded_start(t.dirs[0]);
      if (rec > 0) t.t0 = mg_clock_s() - ((double)time(NULL) - rec);
    }
  }
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  int status = analyse_launches(a, &t);
  for (int i = 0; i < t.ok; i++) free(t.dirs[i]);
  free(t.dirs);
  free(child);
  return status;
}

/* `check --launches N [options] -o DIR -- LAUNCHER...` (cmd_check_launches.c): argv[1..dd) are
 * check's own arguments, argv[dd+1..) the launcher. Each option goes to the launches, to the joint
 * analysis, or (--seed) to both. */
int mg_check_launches_args(int argc, char **argv, int dd, const mg_opt_vals *o) {
  char e[256];
  mg_check_launch_args a = {.out = o->val[O_OUT], .force = o->given[O_FORCE], .resume = o->given[O_RESUME],
                            .progress = !o->given[O_QUIET] && !o->given[O_NO_PROGRESS], .min_span = MG_CK_MIN_SPAN};
  if (o->given[O_MIN_SPAN] && mg_cmd_min_span(o->val[O_MIN_SPAN], &a.min_span, e, sizeof e))
    return fprintf(stderr, "mpiguide check: --min-span: %s (e.g. 60s, 0 for none)\n", e), 2;
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
    if (id < 0 || id == O_LAUNCHES || id == O_OUT || id == O_FORCE || id == O_RESUME || id == O_LAUNCH_OF) continue;
    for (int k = first; k <= i; k++) {
      /* --loggp: the joint analysis predicts; a launch of --model-guided chooses by it; --margin and
       * --noise: a launch's stopping rule decides at the analysis' (bench/seq.h) */
      if (mg_check_measure_only(id) || id == O_SEED || id == O_LOGGP || id == O_MARGIN || id == O_NOISE)
        a.measure[a.nmeasure++] = argv[k];
      if (!mg_check_measure_only(id)) a.analysis[a.nanalysis++] = argv[k];
    }
  }
  int st = mg_check_launches(&a);
  free(a.measure), free(a.analysis);
  return st;
}

