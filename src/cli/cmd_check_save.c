/*
 * Nothing lost on Ctrl-C (docs/check.md): while a check measures, rank 0
 * rewrites DIR/raw.csv with every (collective, size) cell finished so far, at
 * most every SAVE_EVERY seconds and whenever asked (the end of an engine run),
 * marked #@check_incomplete until the run ends; a run that is stopped or killed
 * leaves its measurements, which `check --from DIR` analyses as a partial run.
 * On SIGINT or SIGTERM rank 0 says how many cells are saved, with
 * async-signal-safe calls only; the other ranks wait a moment first, because
 * MPICH's mpiexec stops relaying output once a rank has died.
 */
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "cli/cmd_check.h"

#define SAVE_EVERY 5.0 /* seconds */

static struct {
  int rank;
  mg_check_write_fn write;
  void *ctx;
  double last;               /* when raw.csv was last written */
  volatile sig_atomic_t saved, total;
  char head[64], tail[600];  /* the message around the two counts */
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
    char buf[800];
    size_t n = 0;
    put_text(buf, &n, sizeof buf - 60, sv.head);
    put_num(buf, &n, sv.saved);
    put_text(buf, &n, sizeof buf - 30, " of ");
    put_num(buf, &n, sv.total);
    put_text(buf, &n, sizeof buf, sv.tail);
    ssize_t w = write(2, buf, n);
    (void)w;
  } else { /* rank 0's line goes first */
    struct timespec t = {0, 300000000};
    nanosleep(&t, NULL);
  }
  signal(sig, SIG_DFL);
  raise(sig);
}

void mg_check_save_start(int rank, const char *out, long cells_total, mg_check_write_fn write, void *ctx) {
  sv.rank = rank, sv.write = write, sv.ctx = ctx, sv.last = MPI_Wtime();
  sv.saved = 0, sv.total = (sig_atomic_t)cells_total;
  snprintf(sv.head, sizeof sv.head, "\nmpiguide check: interrupted: ");
  snprintf(sv.tail, sizeof sv.tail,
           " (collective, size) cells saved in %s/raw.csv; analyse them with `mpiguide check --from %s`\n", out,
           out);
  struct sigaction sa = {0};
  sa.sa_handler = on_stop;
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
}

void mg_check_save_block(long cells_done, int now) {
  if (sv.rank != 0 || !sv.write) return;
  double t = MPI_Wtime();
  if (!now && t - sv.last < SAVE_EVERY) return;
  sv.last = t;
  char note[96];
  snprintf(note, sizeof note, "partial: %ld of %ld cells measured when this file was written", cells_done,
           (long)sv.total);
  if (sv.write(sv.ctx, note) == 0) sv.saved = (sig_atomic_t)cells_done;
}
