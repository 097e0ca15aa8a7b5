/*
 * Leaving MPI (cmd_util.h, "MPI"): mg_cmd_mpi_end_status with its watchdog around MPI_Finalize,
 * which MPICH 4.0.2 + UCX over TCP can leave hanging after a command's results are written
 * (docs/check.md, "When MPI_Finalize hangs"), and the quiet barrier the ranks wait in while rank 0
 * finishes its work without MPI.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "algs/algs.h"
#include "bench/bench.h"
#include "cli/cmd_util.h"
#include "util/parse.h"

/* The watchdog around MPI_Finalize: a thread that sleeps the grace and, unless MPI_Finalize has
 * returned by then, writes the prepared line (rank 0; the others none) and ends the process with the
 * command's status. A thread, not alarm(): UCX's signal-driven progress takes SIGALRM. Only write(2)
 * and _exit after the wait: the main thread may be anywhere inside the MPI library. Not under SMPI,
 * whose ranks are threads of one simulated process (an _exit would end them all). */
#ifndef SMPI_H
static struct {
  double grace;
  int status;
  char line[1200];
  size_t len;
  _Atomic int returned;
} fin_wd;

static void *finalize_watch(void *arg) {
  (void)arg;
  double whole = floor(fin_wd.grace);
  struct timespec t = {(time_t)whole, (long)((fin_wd.grace - whole) * 1e9)};
  while (nanosleep(&t, &t) != 0 && errno == EINTR)
    ;
  if (fin_wd.returned) return NULL;
  if (fin_wd.len) {
    ssize_t w = write(2, fin_wd.line, fin_wd.len);
    (void)w;
  }
  _exit(fin_wd.status);
}
#endif

double mg_cmd_finalize_grace(void) {
  const char *env = getenv("MPIGUIDE_FINALIZE_GRACE");
  double g = MG_CMD_FINALIZE_GRACE;
  if (env && *env && mg_parse_double_in(env, 0.1, 86400, &g, NULL, 0)) g = MG_CMD_FINALIZE_GRACE;
  return g;
}

void mg_cmd_mpi_end_status(const char *cmd, int status, const char *saved) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  mg_bench_finalize(); /* the engine's duplicates of MPI_COMM_WORLD */
  mg_persistent_finalize(); /* the persistent rows' requests */
  mg_rma_finalize();  /* before the private communicators it lives on */
  mg_neighbor_finalize();
  mg_hier_finalize();
  mg_core_finalize();
  /* MPIGUIDE_TEST_FINALIZE_HANG=R (a rank, or `all`), for the tests only: rank R sleeps instead of
   * calling MPI_Finalize, so its peers wait in theirs as MPICH 4.0.2 + UCX's do (docs/check.md) */
  int watched = 0;
#ifndef SMPI_H
  const char *hang = getenv("MPIGUIDE_TEST_FINALIZE_HANG");
  int hangs = hang && (!strcmp(hang, "all") || (*hang >= '0' && *hang <= '9' && atoi(hang) == rank));
  pthread_t th;
  /* the other ranks wait longer than rank 0: a rank that ended first would have the launcher end rank 0
   * (MPICH's hydra does) before its watchdog wrote the line (check.finalize_hang.bench lost it so, 1 run
   * in 10 under a third of a CPU) */
  fin_wd.grace = mg_cmd_finalize_grace();
  if (rank != 0) fin_wd.grace += fin_wd.grace / 2 > 1 ? fin_wd.grace / 2 : 1;
  fin_wd.status = status;
  fin_wd.returned = 0;
  int n = 0;
  if (rank == 0 && saved)
    n = snprintf(fin_wd.line, sizeof fin_wd.line,
                 "mpiguide%s%s: MPI_Finalize has not returned %g s after the results were written (%s): the run "
                 "is ended with exit status %d, its results complete (MPICH 4.0.2 with UCX can hang in "
                 "MPI_Finalize: docs/cluster.md)\n", cmd ? " " : "", cmd ? cmd : "", fin_wd.grace, saved, status);
  else if (rank == 0)
    n = snprintf(fin_wd.line, sizeof fin_wd.line,
                 "mpiguide%s%s: MPI_Finalize has not returned after %g s: the run is ended with exit status %d "
                 "(MPICH 4.0.2 with UCX can hang in MPI_Finalize: docs/cluster.md)\n",
                 cmd ? " " : "", cmd ? cmd : "", fin_wd.grace, status);
  fin_wd.len = n > 0 ? ((size_t)n < sizeof fin_wd.line ? (size_t)n : sizeof fin_wd.line - 1) : 0;
  fflush(NULL); /* the watchdog's _exit flushes nothing: what the command printed goes out now */
  watched = pthread_create(&th, NULL, finalize_watch, NULL) == 0;
  if (watched) pthread_detach(th);
  if (hangs)
    for (;;) sleep(3600);
#endif
  MPI_Finalize();
#ifndef SMPI_H
  if (watched) fin_wd.returned = 1;
#endif
  (void)watched;
}

void mg_cmd_mpi_end(void) { mg_cmd_mpi_end_status(NULL, 1, NULL); }

int mg_cmd_quiet_barrier(void) {
  MPI_Request req;
  int done = 0, rc = MPI_Ibarrier(MPI_COMM_WORLD, &req);
  const struct timespec nap = {0, 2000000}; /* 2 ms: nothing against an analysis of seconds */
  while (rc == MPI_SUCCESS && !done) {
    rc = MPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && !done) nanosleep(&nap, NULL);
  }
  return rc;
}
