/*
 * libmpiguide under MPI_THREAD_MULTIPLE: NTHREADS threads per rank, each on
 * its own duplicate of MPI_COMM_WORLD, call forced mock-ups concurrently at
 * different message sizes (so the per-thread scratch pools grow and are used
 * at the same time), with a non-contiguous datatype every other iteration (so
 * packing and local copies run concurrently too). Every result is checked,
 * then the call counters (mpiguide_calls) are compared with the calls made.
 *
 *   thread_app [ITERS [NTHREADS [SPEC]]]     default: 50 3 and the SPEC below
 *
 * SPEC has the syntax of MPIGUIDE_ALG and is applied with mpiguide_force();
 * collectives it does not name must run "default". If the MPI library does
 * not provide MPI_THREAD_MULTIPLE the program prints a line starting with
 * "thread_app: SKIP" and exits 0 (CTest reports the test as skipped).
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_mpi.h"
#include "mpiguide.h"

#define MAXT 8
#define SENTINEL (-7)

static const char *default_spec = "allreduce=allreduce_as_reduce_bcast,bcast=bcast_as_allgatherv,"
                                  "gather=gather_as_gatherv,scatter=scatter_as_scatterv";

/* The collectives each iteration calls once, in this order. */
static const char *const colls[] = {"allreduce", "bcast", "gather", "scatter", "reduce", "allgather"};
#define NCOLLS ((int)(sizeof colls / sizeof colls[0]))

static const int counts[] = {1, 100, 5000};
#define NCOUNTS ((int)(sizeof counts / sizeof counts[0]))

static int rank, size, iters, nthreads;
static MPI_Comm comms[MAXT];
static MPI_Datatype stride2; /* an int every 8 bytes: extent 2 ints, size 1 int */

static int val(int r, int i, int t, int k) { return r * 100003 + i * 7 + t * 1000 + k % 1000; }

/* Element i of what's result: got must be want (common/test_mpi.h counts it, from any thread). */
static void expect_elem(int t, int k, const char *what, int n, int i, int got, int want) {
  ASSERT_MSG(got == want, "thread %d iteration %d: WRONG RESULT %s(count %d) element %d: got %d, want %d", t, k,
             what, n, i, got, want);
}

static void rc_ok(int rc, int t, const char *what) {
  if (rc == MPI_SUCCESS) return;
  char s[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, s, &len);
  fprintf(stderr, "thread_app: rank %d thread %d: %s returned %d (%s); aborting\n", rank, t, what, rc, s);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static void *worker(void *arg) {
  const int t = (int)(size_t)arg, p = size;
  MPI_Comm comm = comms[t];
  int maxn = counts[NCOUNTS - 1];
  /* a, b: 2*p*maxn ints, enough for p blocks of the strided type. */
  int *a = malloc(2 * (size_t)p * (size_t)maxn * sizeof *a);
  int *b = malloc(2 * (size_t)p * (size_t)maxn * sizeof *b);
  if (!a || !b) rc_ok(MPI_ERR_NO_MEM, t, "malloc");
  for (int k = 0; k < iters; k++) {
    const int n = counts[(k + t) % NCOUNTS], root = (k + t) % p, strided = k % 2;
    int rc;

    /* Allreduce (sum). */
    for (int i = 0; i < n; i++) a[i] = val(rank, i, t, k), b[i] = SENTINEL;
    rc = MPI_Allreduce(a, b, n, MPI_INT, MPI_SUM, comm);
    rc_ok(rc, t, "MPI_Allreduce");
    for (int i = 0; i < n; i++) {
      int want = 0;
      for (int q = 0; q < p; q++) want += val(q, i, t, k);
      expect_elem(t, k, "MPI_Allreduce", n, i, b[i], want);
    }

    /* Bcast; strided: n elements of stride2, the gaps must stay SENTINEL. */
    for (int i = 0; i < 2 * n; i++) a[i] = SENTINEL;
    for (int i = 0; i < n; i++) a[strided ? 2 * i : i] = rank == root ? val(root, i, t, k) : -1;
    rc = MPI_Bcast(a, n, strided ? stride2 : MPI_INT, root, comm);
    rc_ok(rc, t, "MPI_Bcast");
    for (int i = 0; i < n; i++) {
      int j = strided ? 2 * i : i;
      expect_elem(t, k, "MPI_Bcast", n, j, a[j], val(root, i, t, k));
      if (strided) expect_elem(t, k, "MPI_Bcast (gap)", n, j + 1, a[j + 1], SENTINEL);
    }

    /* Gather; strided: the root receives into stride2 blocks, gaps stay SENTINEL. */
    for (int i = 0; i < n; i++) a[i] = val(rank, i, t, k);
    for (int i = 0; i < 2 * p * n; i++) b[i] = SENTINEL;
    rc = MPI_Gather(a, n, MPI_INT, b, n, strided ? stride2 : MPI_INT, root, comm);
    rc_ok(rc, t, "MPI_Gather");
    for (int q = 0; q < p; q++)
      for (int i = 0; i < n; i++) {
        int j = strided ? 2 * (q * n + i) : q * n + i;
        int want = rank == root ? val(q, i, t, k) : SENTINEL;
        expect_elem(t, k, "MPI_Gather", n, j, b[j], want);
        if (strided) expect_elem(t, k, "MPI_Gather (gap)", n, j + 1, b[j + 1], SENTINEL);
      }

    /* Scatter; strided: the root sends from stride2 blocks. */
    for (int i = 0; i < 2 * p * n; i++) a[i] = SENTINEL;
    for (int q = 0; q < p; q++)
      for (int i = 0; i < n; i++) a[strided ? 2 * (q * n + i) : q * n + i] = val(q, i, t, k);
    for (int i = 0; i < n; i++) b[i] = SENTINEL;
    rc = MPI_Scatter(a, n, strided ? stride2 : MPI_INT, b, n, MPI_INT, root, comm);
    rc_ok(rc, t, "MPI_Scatter");
    for (int i = 0; i < n; i++)
      expect_elem(t, k, "MPI_Scatter", n, i, b[i], val(rank, i, t, k));

    /* Reduce (max) at root. */
    for (int i = 0; i < n; i++) a[i] = val(rank, i, t, k), b[i] = SENTINEL;
    rc = MPI_Reduce(a, b, n, MPI_INT, MPI_MAX, root, comm);
    rc_ok(rc, t, "MPI_Reduce");
    for (int i = 0; i < n; i++) {
      int want = rank == root ? val(p - 1, i, t, k) : SENTINEL;
      expect_elem(t, k, "MPI_Reduce", n, i, b[i], want);
    }

    /* Allgather. */
    for (int i = 0; i < n; i++) a[i] = val(rank, i, t, k);
    for (int i = 0; i < p * n; i++) b[i] = SENTINEL;
    rc = MPI_Allgather(a, n, MPI_INT, b, n, MPI_INT, comm);
    rc_ok(rc, t, "MPI_Allgather");
    for (int q = 0; q < p; q++)
      for (int i = 0; i < n; i++) {
        int j = q * n + i;
        expect_elem(t, k, "MPI_Allgather", n, j, b[j], val(q, i, t, k));
      }
  }
  free(a);
  free(b);
  return NULL;
}

/* The algorithm SPEC forces for `coll`, or "default". */
static void forced_alg(const char *spec, const char *coll, char *alg, size_t len) {
  size_t cl = strlen(coll);
  snprintf(alg, len, "default");
  for (const char *s = spec; s && *s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL)
    if (strncmp(s, coll, cl) == 0 && s[cl] == '=') {
      size_t n = strcspn(s + cl + 1, ",");
      snprintf(alg, len, "%.*s", (int)n, s + cl + 1);
    }
}

int main(int argc, char **argv) {
  int provided = MPI_THREAD_SINGLE;
  iters = argc > 1 ? atoi(argv[1]) : 50;
  nthreads = argc > 2 ? atoi(argv[2]) : 3;
  const char *spec = argc > 3 ? argv[3] : default_spec;
  if (nthreads < 1 || nthreads > MAXT) nthreads = 3;

  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mg_test_mpi_start("thread_app");
  mg_test_max_shown = 10; /* every element is a check */
  if (provided < MPI_THREAD_MULTIPLE) {
    if (rank == 0)
      printf("thread_app: SKIP: the MPI library provides thread level %d, not MPI_THREAD_MULTIPLE (%d)\n",
             provided, MPI_THREAD_MULTIPLE);
    MPI_Finalize();
    return 0;
  }
  int st = mpiguide_force(spec);
  if (st != MPIGUIDE_OK) {
    fprintf(stderr, "thread_app: mpiguide_force(\"%s\"): %s\n", spec, mpiguide_strerror(st));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &stride2);
  MPI_Type_commit(&stride2);
  for (int t = 0; t < nthreads; t++) { /* same order on every rank */
    MPI_Comm_dup(MPI_COMM_WORLD, &comms[t]);
    MPI_Comm_set_errhandler(comms[t], MPI_ERRORS_RETURN);
  }

  double t0 = MPI_Wtime();
  pthread_t th[MAXT];
  for (int t = 0; t < nthreads; t++)
    if (pthread_create(&th[t], NULL, worker, (void *)(size_t)t) != 0) {
      fprintf(stderr, "thread_app: pthread_create failed\n");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  for (int t = 0; t < nthreads; t++) pthread_join(th[t], NULL);
  double secs = MPI_Wtime() - t0;

  /* Counters: every call of each collective ran the algorithm SPEC asks for, none fell back. */
  long long want = (long long)nthreads * iters;
  for (int c = 0; c < NCOLLS; c++) {
    char alg[128];
    forced_alg(spec, colls[c], alg, sizeof alg);
    long long got = mpiguide_calls(colls[c], alg), fb = mpiguide_fallbacks(colls[c], NULL);
    TEST_CASE(colls[c]);
    ASSERT_MSG(got == want && fb == 0, "COUNTER mpiguide_calls(%s, %s) = %lld, want %lld; fallbacks %lld, want 0",
               colls[c], alg, got, want, fb);
  }

  for (int t = 0; t < nthreads; t++) MPI_Comm_free(&comms[t]);
  MPI_Type_free(&stride2);
  char what[300]; /* the verdict: PMPI_Allreduce, not intercepted */
  snprintf(what, sizeof what, "%d processes x %d threads x %d iterations x %d collectives, %.2f s; %s", size,
           nthreads, iters, NCOLLS, secs, spec);
  int rc = mg_test_mpi_summary(what);
  MPI_Finalize();
  return rc;
}
