/*
 * Nothing lost on Ctrl-C (docs/check.md): while a check measures, rank 0
 * rewrites DIR/raw.csv with every cell finished so far (a collective at a size,
 * for a reduction with one datatype:op pair: the engine's block), at
 * most every SAVE_EVERY seconds (or 20 times the last save's length, when longer) and whenever
 * asked (the end of an engine run),
 * marked #@check_incomplete until the run ends; a run that is stopped or killed
 * leaves its measurements, which `check --resume` completes (measuring only
 * the cells missing) and `check --from DIR` analyses as a partial run.
 * On SIGINT or SIGTERM rank 0 says how many cells are saved, with
 * async-signal-safe calls only (write, unlink, rmdir): a temporary raw.csv
 * being written is removed, and a DIR this run created is removed again when
 * no cell was saved yet, so that the line never names a file that is not
 * there. The other ranks wait a moment first, because MPICH's mpiexec stops
 * relaying output once a rank has died.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "cli/cmd_check.h"
#include "util/parse.h"
#include "util/text.h"

#define SAVE_EVERY 5.0 /* seconds; MPIGUIDE_CHECK_SAVE_EVERY overrides it (docs/check.md) */

/* The clock of the saves: the host's. MPI_Wtime under SimGrid's SMPI is simulated time, which
 * advances microseconds a call: a 1024-rank check saved no cell in 45 minutes of CPU at 0.05 s
 * (issue 50, docs/scale.md), and a stopped simulation keeps only what was saved (its SIGTERM
 * reaches one simulated rank's handler, not rank 0's). SMPI's helpers make clock_gettime the
 * simulated one as a function-like macro; the name in parentheses is libc's. Rank 0 alone reads
 * it, so the ranks need not agree. */
static double save_clock(void) {
#ifdef SMPI_H
  struct timespec ts;
  (clock_gettime)(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#else
  return MPI_Wtime();
#endif
}

static struct {
  int rank;
  mg_check_write_fn write;
  void *ctx;
  double last;               /* when raw.csv was last written */
  double every;              /* seconds between two saves, at least */
  double wait;               /* seconds from the end of the last save to the next: every, or 20 x its length */
  long before;               /* cells of the interrupted run that --resume keeps */
  volatile sig_atomic_t saved, total, created;
  volatile sig_atomic_t tmp_set; /* tmp holds the temporary being written */
  char dir[4096], tmp[4200];
  char head[64], tail[900], none[900]; /* the messages around the two counts; before any cell saved */
} sv;

static void put_text(char *buf, size_t *n, size_t cap, const char *s) {
  while (*s && *n + 1 < cap) buf[(*n)++] = *s++;
}

static void put_num(char *buf, size_t *n, long v) {
  char t[24];
  int k = 0;
  do t[k++] = (char)('0' + v % 10), v /= 10;
  while (v && k < 23);
  while (k) buf[(*n)++] = t[--k];
}

static void on_stop(int sig) {
  if (sv.rank == 0) {
    char buf[1200];
    size_t n = 0;
    if (sv.tmp_set) unlink(sv.tmp);
    if (sv.saved == 0) { /* nothing saved: say so, and leave no empty DIR behind */
      if (sv.created) rmdir(sv.dir);
      put_text(buf, &n, sizeof buf, sv.none);
    } else {
      put_text(buf, &n, sizeof buf - 60, sv.head);
      put_num(buf, &n, sv.saved);
      put_text(buf, &n, sizeof buf - 30, " of ");
      put_num(buf, &n, sv.total);
      put_text(buf, &n, sizeof buf, sv.tail);
    }
    ssize_t w = write(2, buf, n);
    (void)w;
  } else { /* rank 0's line goes first */
    struct timespec t = {0, 300000000};
    /* (nanosleep): the real one even under SMPI, whose smpicc redefines nanosleep as a macro for
     * a sleep in simulated time. From this handler that sleep ran the simulation on, inside the
     * handler, SIGTERM blocked, until 0.3 simulated seconds passed: a 256-rank alltoall signalled
     * by sim.sh's timeout ran on, orphaned, until killed by hand (docs/scale.md). */
    (nanosleep)(&t, NULL);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void mg_check_save_start(int rank, const char *out, long cells_before, long cells_total, int created,
                         mg_check_write_fn write, void *ctx) {
  sv.rank = rank, sv.write = write, sv.ctx = ctx, sv.last = save_clock();
  /* MPIGUIDE_CHECK_SAVE_EVERY=SECONDS: how often raw.csv is rewritten (rank 0 alone writes it, so
   * the ranks need not agree); a value that is no number in [0.05, 86400] keeps the default */
  const char *env = getenv("MPIGUIDE_CHECK_SAVE_EVERY");
  double every = SAVE_EVERY;
  if (env && *env && mg_parse_double_in(env, 0.05, 86400, &every, NULL, 0)) {
    if (rank == 0)
      fprintf(stderr, "mpiguide check: warning: MPIGUIDE_CHECK_SAVE_EVERY='%s' is not a number of seconds in "
              "[0.05, 86400]; saving every %.0f s\n", env, SAVE_EVERY);
    every = SAVE_EVERY;
  }
  sv.every = sv.wait = every;
  sv.before = cells_before;
  sv.saved = (sig_atomic_t)cells_before, sv.total = (sig_atomic_t)(cells_before + cells_total);
  sv.created = created, sv.tmp_set = 0;
  snprintf(sv.dir, sizeof sv.dir, "%s", out);
  snprintf(sv.head, sizeof sv.head, "\nmpiguide check: interrupted: ");
  snprintf(sv.tail, sizeof sv.tail,
           " cells saved in %s/raw.csv; the same command with --resume measures the rest, "
           "`mpiguide check --from %s` analyses them\n", out, out);
  snprintf(sv.none, sizeof sv.none,
           "\nmpiguide check: interrupted before the first cell was saved (every %.3g s): nothing measured is kept%s\n",
           sv.every, created ? "" : " (nothing in DIR was changed)");
  struct sigaction sa = {0};
  sa.sa_handler = on_stop;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

void mg_check_save_tmp(const char *tmp) {
  sv.tmp_set = 0;
  if (tmp && strlen(tmp) < sizeof sv.tmp) {
    memcpy(sv.tmp, tmp, strlen(tmp) + 1);
    sv.tmp_set = 1;
  }
}

void mg_check_save_block(long cells_done, int now) {
  if (sv.rank != 0 || !sv.write) return;
  double t = save_clock();
  if (!now && t - sv.last < sv.wait) return;
  char note[96];
  snprintf(note, sizeof note, "partial: %ld of %ld cells measured when this file was written", sv.before + cells_done,
           (long)sv.total);
  if (sv.write(sv.ctx, note) == 0) sv.saved = (sig_atomic_t)(sv.before + cells_done);
  /* The file is rewritten whole and grows to ~50 MB in a --full launch, ~1.4 s a write at 28 ms/MB
   * on a loaded machine, while the other ranks wait at their next synchronisation: every 5 s that
   * was up to a fifth of the launch. The next save waits 20 times as long as this one took (at most
   * 5 % of the run spent saving), and never less than sv.every. */
  sv.last = save_clock();
  sv.wait = sv.every > 20 * (sv.last - t) ? sv.every : 20 * (sv.last - t);
}

int mg_check_partial(const char *dir, char *note, size_t len) {
  char path[4200];
  snprintf(path, sizeof path, "%s/raw.csv", dir);
  FILE *f = fopen(path, "r");
  if (!f) return -1;
  int partial = 0, nl;
  char *line = NULL; /* whole lines (at most 1 MiB): #@mpi_library_version alone can exceed any fixed buffer */
  size_t cap = 0;
  while (!partial && mg_read_line(f, &line, &cap, &nl) > 0 && line[0] == '#') /* the #@ lines before the header */
    if (!strncmp(line, "#@check_incomplete=", 19)) {
      snprintf(note, len, "%s", line + 19);
      partial = 1;
    }
  free(line);
  fclose(f);
  return partial;
}
