/*
 * common/test.h for MPI programs: the same ASSERT_* and TEST_FAIL, plus what every MPI test needs
 * around them.
 *
 *   mg_test_mpi_start("prog")   after MPI_Init: every failure message says "rank N:"
 *   TEST_MPI(call)              an MPI call the test needs to go on (setup, the reference call):
 *                               on an error code the rank says which call, where, and takes the
 *                               job down (mg_test_die, exit 2); what is under test is ASSERTed
 *   mg_test_die(fmt, ...)       the same for any other setup failure
 *   mg_test_malloc/calloc       allocation that dies instead of returning NULL
 *   mg_test_watch(fmt, ...)     arms a watchdog (mg_test_watch_seconds, 30): a step that hangs
 *                               (a deadlocking mock-up) makes the rank say where it is stuck and
 *                               exit 3, instead of running into CTest's timeout; alarm(0) disarms
 *   mg_test_mpi_failures()      collective: the failures so far on all ranks (a test that goes on
 *                               only where what it builds on held)
 *   mg_test_mpi_summary(what)   before MPI_Finalize, on every rank: the verdict over all ranks of
 *                               MPI_COMM_WORLD. Rank 0 prints "prog: OK (what; N checks on P
 *                               ranks)" or "prog: FAILED (F of N checks failed on P ranks)", a
 *                               rank with failures says how many; returns the exit status (1 on
 *                               every rank when any rank failed).
 *
 * The harness calls only PMPI_ functions: its own calls are never intercepted, forced, counted or
 * traced by libmpiguide, so the verdict does not depend on the calls under test.
 */
#ifndef MG_TESTS_COMMON_TEST_MPI_H
#define MG_TESTS_COMMON_TEST_MPI_H

#include <mpi.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <unistd.h>

#include "common/test.h"

static const char *mg_test_prog = "test";
static int mg_test_watch_seconds = 30;
static char mg_test_where[700];

static inline void mg_test_mpi_start(const char *prog) {
  mg_test_prog = prog;
  PMPI_Comm_rank(MPI_COMM_WORLD, &mg_test_rank);
}

__attribute__((format(printf, 1, 2), noreturn, unused)) static void mg_test_die(const char *fmt, ...) {
  char msg[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "%s (rank %d): %s\n", mg_test_prog, mg_test_rank, msg);
  PMPI_Abort(MPI_COMM_WORLD, 2);
  exit(2);
}

#define TEST_MPI(call)                                                                                       \
  do {                                                                                                       \
    int rc_ = (call);                                                                                        \
    if (rc_ != MPI_SUCCESS) mg_test_die("%s:%d: %s failed (rc %d)", __FILE__, __LINE__, #call, rc_);         \
  } while (0)

__attribute__((unused)) static void *mg_test_malloc(size_t n) {
  void *p = malloc(n ? n : 1);
  if (!p) mg_test_die("out of memory (%zu bytes)", n);
  return p;
}

__attribute__((unused)) static void *mg_test_calloc(size_t n, size_t size) {
  void *p = calloc(n ? n : 1, size);
  if (!p) mg_test_die("out of memory (%zu x %zu bytes)", n, size);
  return p;
}

static void mg_test_watchdog_(int sig) {
  /* async-signal-safe: write(2) only */
  ssize_t w = write(2, mg_test_prog, strlen(mg_test_prog));
  static const char head[] = ": watchdog: no progress (a hang?) in ";
  w += write(2, head, sizeof head - 1);
  w += write(2, mg_test_where, strlen(mg_test_where));
  w += write(2, "\n", 1);
  (void)w, (void)sig;
  _exit(3);
}

__attribute__((format(printf, 1, 2), unused)) static void mg_test_watch(const char *fmt, ...) {
  static int installed;
  if (!installed) signal(SIGALRM, mg_test_watchdog_), installed = 1;
  int n = snprintf(mg_test_where, sizeof mg_test_where, "rank %d: ", mg_test_rank);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(mg_test_where + n, sizeof mg_test_where - (size_t)n, fmt, ap);
  va_end(ap);
  alarm((unsigned)mg_test_watch_seconds);
}

__attribute__((unused)) static int mg_test_mpi_failures(void) {
  int mine = __atomic_load_n(&mg_test_failures, __ATOMIC_RELAXED), all = 0;
  PMPI_Allreduce(&mine, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  return all;
}

__attribute__((unused)) static int mg_test_mpi_summary(const char *what) {
  int mine[2] = {__atomic_load_n(&mg_test_checks, __ATOMIC_RELAXED),
                 __atomic_load_n(&mg_test_failures, __ATOMIC_RELAXED)};
  int all[2] = {0, 0}, np = 1;
  PMPI_Comm_size(MPI_COMM_WORLD, &np);
  PMPI_Allreduce(mine, all, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (mine[1]) fprintf(stderr, "%s: rank %d: %d of %d checks failed\n", mg_test_prog, mg_test_rank, mine[1], mine[0]);
  if (mg_test_rank <= 0) {
    if (all[1])
      printf("%s: FAILED (%d of %d checks failed on %d ranks)\n", mg_test_prog, all[1], all[0], np);
    else
      printf("%s: OK (%s%s%d checks on %d ranks)\n", mg_test_prog, what ? what : "", what ? "; " : "", all[0], np);
    fflush(stdout);
  }
  return all[1] ? 1 : 0;
}

#endif
