/*
 * libmpiguide's per-communicator profile slices (src/lib/comm_cache.c): the profile
 * (comm_sizes.prof) has rules that fire only at one message size per communicator size, so a
 * slice resolved for the wrong size, or kept for a freed communicator whose handle came back
 * with another size, runs the wrong algorithm. The program sees which algorithm ran: it defines
 * PMPI_Allreduce, PMPI_Reduce and PMPI_Bcast itself, counting per thread and forwarding to the
 * MPI library's (dlsym(RTLD_NEXT)), so the calls libmpiguide makes inside are counted. An
 * MPI_Allreduce that runs the default makes one PMPI_Allreduce, allreduce_as_reduce_bcast a
 * PMPI_Reduce and a PMPI_Bcast; an MPI_Reduce that runs the default one PMPI_Reduce,
 * reduce_as_allreduce one PMPI_Allreduce. Each call's counts and result are checked:
 *
 *   1. MPI_COMM_WORLD and MPI_COMM_SELF in turn (the thread's remembered entry changes);
 *   2. a communicator of another size created after the first calls;
 *   3. a communicator freed and one of another size created (the MPI library often gives it the
 *      same handle: the program says how often);
 *   4. NCOMM communicators of sizes 1 .. np at once, called in turn, freed in a shuffled order,
 *      created again with other sizes, several rounds;
 *   5. with MPI_THREAD_MULTIPLE, THREADS threads at once, each on communicators of its own
 *      sizes, freed and created again.
 *
 * Run in tuned mode alone (the wrappers' fast path) and with MPIGUIDE_TRACE (every call through
 * mg_dispatch); prints "comm_app: OK" when every check passed.
 *
 *   comm_app [THREADS]        (default 2; 0: no threaded phase)
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_mpi.h"

#define NCOMM 64
#define ROUNDS 4
#define MAXT 4
#define MAXCOUNT 5

/* ---- the inner calls, counted per thread ---------------------------------------------------- */

static _Thread_local long n_allreduce, n_reduce, n_bcast;

/* Exported even though the tests build with hidden visibility (Open MPI's mpi.h marks the
 * declarations default, MPICH's does not). */
#define EXPORT __attribute__((visibility("default")))

static void *next(const char *name) {
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    fprintf(stderr, "comm_app: dlsym(RTLD_NEXT, %s) failed: %s\n", name, dlerror());
    exit(1);
  }
  return f;
}

EXPORT int PMPI_Allreduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, MPI_Comm comm) {
  static int (*f)(const void *, void *, int, MPI_Datatype, MPI_Op, MPI_Comm);
  if (!f) f = next("PMPI_Allreduce");
  n_allreduce++;
  return f(s, r, n, t, op, comm);
}

EXPORT int PMPI_Reduce(const void *s, void *r, int n, MPI_Datatype t, MPI_Op op, int root, MPI_Comm comm) {
  static int (*f)(const void *, void *, int, MPI_Datatype, MPI_Op, int, MPI_Comm);
  if (!f) f = next("PMPI_Reduce");
  n_reduce++;
  return f(s, r, n, t, op, root, comm);
}

EXPORT int PMPI_Bcast(void *b, int n, MPI_Datatype t, int root, MPI_Comm comm) {
  static int (*f)(void *, int, MPI_Datatype, int, MPI_Comm);
  if (!f) f = next("PMPI_Bcast");
  n_bcast++;
  return f(b, n, t, root, comm);
}

/* ---- what the profile says (comm_sizes.prof) ----------------------------------------------- */

/* allreduce: np=P fires at P doubles exactly, for P = 1 .. 4; np=3 also at 5 doubles, between rules
 * that name the default (enough of them for an index by size class) */
static int allreduce_fires(int p, int count) { return p <= 4 && (count == p || (p == 3 && count == 5)); }
/* reduce: np=2-4 at 1 double, np=3 (narrower) at 2 or 3 doubles; np=3 has no rule for 1 double
 * (the narrowest np selector decides, no fall-through to np=2-4) */
static int reduce_fires(int p, int count) {
  return p == 3 ? count == 2 || count == 3 : p >= 2 && p <= 4 && count == 1;
}

static int wrank, wsize;

/* One MPI_Allreduce and one MPI_Reduce of `count` doubles on comm, each checked: its result and
 * the inner calls it made. `where` names the phase in messages. */
static void calls(MPI_Comm comm, int count, const char *where) {
  int p, r;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &r);
  double in[MAXCOUNT], out[MAXCOUNT], want = p * (p + 1) / 2.0; /* sum over ranks of rank + 1 */
  for (int i = 0; i < count; i++) in[i] = r + 1, out[i] = -1;

  long a = n_allreduce, rd = n_reduce, b = n_bcast;
  MPI_Allreduce(in, out, count, MPI_DOUBLE, MPI_SUM, comm);
  int mock = allreduce_fires(p, count);
  long da = n_allreduce - a, dr = n_reduce - rd, db = n_bcast - b;
  ASSERT_MSG(mock ? da == 0 && dr == 1 && db == 1 : da == 1 && dr == 0 && db == 0,
             "%s: MPI_Allreduce of %d doubles on %d processes should run %s; inner calls allreduce %ld reduce %ld "
             "bcast %ld", where, count, p, mock ? "allreduce_as_reduce_bcast" : "the default", da, dr, db);
  for (int i = 0; i < count; i++)
    ASSERT_MSG(out[i] == want, "%s: MPI_Allreduce on %d processes: element %d is %g, want %g", where, p, i, out[i],
               want);

  for (int i = 0; i < count; i++) out[i] = -1;
  a = n_allreduce, rd = n_reduce, b = n_bcast;
  MPI_Reduce(in, out, count, MPI_DOUBLE, MPI_SUM, p - 1, comm);
  mock = reduce_fires(p, count);
  da = n_allreduce - a, dr = n_reduce - rd, db = n_bcast - b;
  ASSERT_MSG(mock ? da == 1 && dr == 0 && db == 0 : da == 0 && dr == 1 && db == 0,
             "%s: MPI_Reduce of %d doubles on %d processes should run %s; inner calls allreduce %ld reduce %ld "
             "bcast %ld", where, count, p, mock ? "reduce_as_allreduce" : "the default", da, dr, db);
  for (int i = 0; r == p - 1 && i < count; i++)
    ASSERT_MSG(out[i] == want, "%s: MPI_Reduce on %d processes: element %d is %g, want %g", where, p, i, out[i],
               want);
}

static void all_counts(MPI_Comm comm, const char *where) {
  for (int n = 1; n <= MAXCOUNT; n++) calls(comm, n, where);
}

/* A communicator of `want` processes (1 .. size(parent)) containing this rank, or of the other ranks
 * (a split is collective over parent: every rank asks for the same `want`). */
static MPI_Comm of_size(MPI_Comm parent, int want) {
  int r;
  MPI_Comm c;
  MPI_Comm_rank(parent, &r);
  MPI_Comm_split(parent, r < want ? 0 : 1, r, &c);
  return c;
}

static unsigned long long rng = 88172645463325252ull;
static unsigned rnd(void) {
  rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
  return (unsigned)(rng >> 11);
}

/* ---- phase 5: threads ------------------------------------------------------------------------ */

static MPI_Comm tparent[MAXT];

static void *worker(void *arg) {
  int t = (int)(long)arg;
  char where[64];
  for (int round = 0; round < ROUNDS; round++) {
    int want = 1 + (t + round) % wsize; /* every thread its own sequence of sizes */
    MPI_Comm c = of_size(tparent[t], want);
    snprintf(where, sizeof where, "thread %d round %d", t, round);
    for (int k = 0; k < 3; k++) {
      all_counts(c, where);
      calls(tparent[t], 1 + k, where); /* another communicator in between */
    }
    MPI_Comm_free(&c);
  }
  return NULL;
}

int main(int argc, char **argv) {
  int nthreads = argc > 1 ? atoi(argv[1]) : 2, provided = MPI_THREAD_SINGLE;
  if (nthreads < 0 || nthreads > MAXT) nthreads = MAXT;
  MPI_Init_thread(&argc, &argv, nthreads ? MPI_THREAD_MULTIPLE : MPI_THREAD_SINGLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  mg_test_mpi_start("comm_app");
  mg_test_max_shown = 20;
  MPI_Comm_size(MPI_COMM_WORLD, &wsize);

  /* 1. world and self in turn */
  for (int k = 0; k < 3; k++) {
    all_counts(MPI_COMM_WORLD, "world");
    all_counts(MPI_COMM_SELF, "self");
  }

  /* 2. a communicator of another size, after the first calls; world again */
  MPI_Comm c = of_size(MPI_COMM_WORLD, wsize - 1 > 0 ? wsize - 1 : 1);
  all_counts(c, "new communicator");
  all_counts(MPI_COMM_WORLD, "world after a new communicator");

  /* 3. freed, and one of another size in its place */
  int same = 0, tries = 0;
  for (int k = 0; k < 2 * wsize; k++) {
    MPI_Comm old = c;
    MPI_Comm_free(&c);
    c = of_size(MPI_COMM_WORLD, 1 + k % wsize);
    same += c == old, tries++;
    all_counts(c, "communicator created after a free");
  }
  MPI_Comm_free(&c);

  /* 4. many at once */
  MPI_Comm many[NCOMM];
  int order[NCOMM];
  for (int round = 0; round < ROUNDS; round++) {
    for (int i = 0; i < NCOMM; i++) many[i] = of_size(MPI_COMM_WORLD, 1 + (i + round) % wsize);
    for (int k = 0; k < 2; k++)
      for (int i = 0; i < NCOMM; i++) calls(many[i], 1 + (i + k) % MAXCOUNT, "many communicators");
    for (int i = 0; i < NCOMM; i++) order[i] = i;
    for (int i = NCOMM - 1; i > 0; i--) { /* the same shuffle on every rank: frees are collective */
      int j = (int)(rnd() % (unsigned)(i + 1)), x = order[i];
      order[i] = order[j], order[j] = x;
    }
    for (int i = 0; i < NCOMM / 2; i++) MPI_Comm_free(&many[order[i]]);
    for (int i = 0; i < NCOMM / 2; i++) { /* half of them again, with other sizes, between the others */
      many[order[i]] = of_size(MPI_COMM_WORLD, 1 + (order[i] + round + 1) % wsize);
      calls(many[order[i]], 1 + i % MAXCOUNT, "many communicators, some freed and created again");
      calls(many[order[NCOMM - 1 - i]], 1 + (i + 2) % MAXCOUNT, "many communicators, the others");
    }
    for (int i = 0; i < NCOMM; i++) MPI_Comm_free(&many[i]);
  }

  /* 5. threads */
  if (nthreads && provided == MPI_THREAD_MULTIPLE) {
    pthread_t th[MAXT];
    for (int t = 0; t < nthreads; t++) MPI_Comm_dup(MPI_COMM_WORLD, &tparent[t]);
    for (int t = 0; t < nthreads; t++) pthread_create(&th[t], NULL, worker, (void *)(long)t);
    for (int t = 0; t < nthreads; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < nthreads; t++) MPI_Comm_free(&tparent[t]);
  } else if (nthreads && wrank == 0) {
    printf("comm_app: MPI_THREAD_MULTIPLE not provided: no threaded phase\n");
  }

  if (wrank == 0) printf("comm_app: the next communicator got the freed one's handle %d of %d times\n", same, tries);
  int rc = mg_test_mpi_summary(NULL);
  MPI_Finalize();
  return rc;
}
