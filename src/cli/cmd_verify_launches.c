/* `verify --launches N [options] -o DIR -- LAUNCHER...`: the spread of a profile's gain over
 * launches (HPC Asia 2018, Fig. 4), which one launch cannot show (docs/statistics.md: the launch is
 * the unit of replication). Without MPI of its own, this runs
 *
 *     LAUNCHER... mpiguide verify [options] -o DIR/launch-K [--force]     K = 1..N
 *
 * one after the other, each launch's table in DIR/launch-K.log. The launches stay separate verify
 * results (their spread is the point); `report DIR` reads them as such (cmd_report.c). A launch that
 * fails is reported and the next runs; Ctrl-C or SIGTERM stops the running launch and the rest. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd_tune.h"
#include "cli/cmd_util.h"
#include "util/clock.h"
#include "util/parse.h"

static volatile sig_atomic_t launches_stop;
static void launches_on_signal(int sig) { launches_stop = sig; }

int mg_cmd_verify_launches(int argc, char **argv, int dd) {
  char e[256], self[4096];
  const char *out = NULL, *nval = NULL, *confirmed = NULL; /* --write-confirmed: once, over every launch */
  int force = 0, nchild = 0, quiet = 0;
  char **child = calloc((size_t)argc + 8, sizeof *child);
  if (!child) return fprintf(stderr, "mpiguide verify: out of memory\n"), 1;
  /* the launcher first, then self verify and every option but --launches, -o, --force */
  for (int i = dd + 1; i < argc; i++) child[nchild++] = argv[i];
  child[nchild++] = self;
  child[nchild++] = "verify";
  for (int i = 1; i < dd; i++) { /* the launches' own options and their values pass through as given */
    const char *a = argv[i];
    if (!strcmp(a, "--launches") || !strcmp(a, "-o") || !strcmp(a, "--out")) {
      if (i + 1 >= dd) return free(child), fprintf(stderr, "mpiguide verify: %s needs a value\n", a), 2;
      *(a[2] == 'l' ? &nval : &out) = argv[++i];
    } else if (!strcmp(a, "--write-confirmed")) {
      if (i + 1 >= dd) return free(child), fprintf(stderr, "mpiguide verify: %s needs a value\n", a), 2;
      confirmed = argv[++i];
    } else if (!strncmp(a, "--write-confirmed=", 18)) confirmed = a + 18;
    else if (!strncmp(a, "--launches=", 11)) nval = a + 11;
    else if (!strncmp(a, "--out=", 6)) out = a + 6;
    else if (!strcmp(a, "-f") || !strcmp(a, "--force")) force = 1;
    else child[nchild++] = argv[i], quiet |= !strcmp(a, "-q") || !strcmp(a, "--quiet");
  }
  long n = 0;
  int bad = mg_parse_long(nval, 1, 1000, &n, e, sizeof e);
  if (bad || dd + 1 >= argc || !out) {
    fprintf(stderr, "mpiguide verify: --launches N -o DIR -- LAUNCHER...: %s\n",
            bad ? e : !out ? "give -o DIR (the launches go to DIR/launch-K)" : "no launcher after --, e.g. -- mpirun -np 4");
    return free(child), 2;
  }
  if (mg_cmd_under_launcher()) {
    fprintf(stderr, "mpiguide verify: --launches starts the launcher itself: run `mpiguide verify --launches N ... "
                    "-- mpirun -np P` without mpirun in front\n");
    return free(child), 2;
  }
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
  if (sl <= 0) return free(child), fprintf(stderr, "mpiguide verify: cannot find the mpiguide executable\n"), 1;
  self[sl] = '\0';
  char dir[4200], log[4300];
  struct stat st;
  snprintf(dir, sizeof dir, "%s/launch-1", out);
  if (!force && stat(dir, &st) == 0)
    return free(child), fprintf(stderr, "mpiguide verify: --out: '%s' holds the launches of an earlier verify: give "
                                        "another DIR, or --force to measure every launch anew\n", out), 2;
  if (mkdir(out, 0777) != 0 && errno != EEXIST)
    return free(child), fprintf(stderr, "mpiguide verify: cannot create %s: %s\n", out, strerror(errno)), 2;
  child[nchild++] = "-o";
  child[nchild++] = dir;
  if (force) child[nchild++] = "--force";
  char of[48]; /* --launch-of K/N: each launch's progress line says which and counts the launches after it */
  child[nchild++] = "--launch-of";
  child[nchild++] = of;
  child[nchild] = NULL;
  struct sigaction sa = {0}, old_int, old_term;
  sa.sa_handler = launches_on_signal;
  sigaction(SIGINT, &sa, &old_int);
  sigaction(SIGTERM, &sa, &old_term);
  int ok = 0, failed = 0, k;
  double t0 = mg_clock_s();
  for (k = 1; k <= n && !launches_stop; k++) {
    snprintf(dir, sizeof dir, "%s/launch-%d", out, k);
    snprintf(log, sizeof log, "%s/launch-%d.log", out, k);
    snprintf(of, sizeof of, "%d/%ld", k, n);
    double el = mg_clock_s() - t0;
    if (k == 1) fprintf(stderr, "mpiguide verify: launch %d of %ld ...\n", k, n);
    else fprintf(stderr, "mpiguide verify: launch %d of %ld (%.0f s so far, about %.0f s to go) ...\n", k, n, el,
                 el / (k - 1) * (double)(n - k + 1));
    int rc = mg_cmd_run_child(child, log);
    char csv[4300];
    snprintf(csv, sizeof csv, "%s/verify.csv", dir);
    if (rc == 0 && stat(csv, &st) == 0) {
      ok++;
      fprintf(stderr, "mpiguide verify: launch %d of %ld done: %s (its table: %s)\n", k, n, dir, log);
    } else if (!launches_stop) {
      failed++;
      fprintf(stderr, "mpiguide verify: launch %d of %ld failed (%s %d; its output: %s); the other launches are kept\n",
              k, n, rc > 128 ? "signal" : "exit status", rc > 128 ? rc - 128 : rc, log);
    }
  }
  sigaction(SIGINT, &old_int, NULL);
  sigaction(SIGTERM, &old_term, NULL);
  free(child);
  if (launches_stop)
    fprintf(stderr, "mpiguide verify: interrupted during launch %d of %ld; %d finished\n", k - 1, n, ok);
  printf("verify: %d of %ld launch(es) in %s; their spread: mpiguide report %s -o spread.html\n", ok, n, out, out);
  if (launches_stop || failed) {
    if (confirmed) fprintf(stderr, "mpiguide verify: --write-confirmed: not written, since not every launch finished\n");
    return 1;
  }
  /* the rules confirmed in every launch (cmd_tune_drop.c reads out/launch-K/verify.csv) */
  return confirmed ? mg_cmd_tune_drop("verify", out, NULL, confirmed, 1, quiet) : 0;
}
