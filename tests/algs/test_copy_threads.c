/*
 * Unit test of the toolkit's local copy mg_copy() (src/algs/toolkit.c) under
 * MPI_THREAD_MULTIPLE: several threads copy non-contiguous data at the same
 * time, each with its own element count, alternately strided -> dense and
 * dense -> strided. Non-dense copies go through the MPI library (a message to
 * self on the toolkit's private communicator), so concurrent copies must not
 * receive each other's messages: that shows up here as MPI_ERR_TRUNCATE or as
 * wrong data. Gaps of the strided destination must stay untouched.
 *
 *   test_copy_threads [ITERS]      (1 process; default 200000 copies per thread)
 */
#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "algs/algs.h"
#include "common/test.h"

#define NTHREADS 4
#define GAP (-9)

static MPI_Datatype stride2; /* an int every 8 bytes */
static int iters = 200000;
static atomic_int nbad;
static char first_error[256];

static void report(int t, int k, const char *what, int got, int want) {
  if (atomic_fetch_add(&nbad, 1) == 0)
    snprintf(first_error, sizeof first_error, "thread %d copy %d: %s: got %d, want %d", t, k, what, got,
             want);
}

static void *worker(void *arg) {
  const int t = (int)(size_t)arg, n = 1 + 37 * t;
  int *strided = malloc(2 * (size_t)n * sizeof *strided), *dense = malloc((size_t)n * sizeof *dense);
  for (int k = 0; k < iters && atomic_load(&nbad) == 0; k++) {
    int rc;
    if (k % 2 == 0) { /* strided -> dense */
      for (int i = 0; i < n; i++) strided[2 * i] = t * 1000000 + (k % 1000) * 100 + i, dense[i] = -1;
      rc = mg_copy(strided, n, stride2, dense, n, MPI_INT);
      if (rc != MPI_SUCCESS) report(t, k, "mg_copy(strided -> dense) return code", rc, MPI_SUCCESS);
      for (int i = 0; i < n && rc == MPI_SUCCESS; i++)
        if (dense[i] != strided[2 * i]) {
          report(t, k, "dense element", dense[i], strided[2 * i]);
          break;
        }
    } else { /* dense -> strided */
      for (int i = 0; i < n; i++) {
        dense[i] = t * 1000000 + (k % 1000) * 100 + i;
        strided[2 * i] = -1;
        strided[2 * i + 1] = GAP;
      }
      rc = mg_copy(dense, n, MPI_INT, strided, n, stride2);
      if (rc != MPI_SUCCESS) report(t, k, "mg_copy(dense -> strided) return code", rc, MPI_SUCCESS);
      for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        if (strided[2 * i] != dense[i]) {
          report(t, k, "strided element", strided[2 * i], dense[i]);
          break;
        }
        if (strided[2 * i + 1] != GAP) {
          report(t, k, "gap", strided[2 * i + 1], GAP);
          break;
        }
      }
    }
  }
  free(strided);
  free(dense);
  return NULL;
}

int main(int argc, char **argv) {
  int provided = MPI_THREAD_SINGLE;
  if (argc > 1) iters = atoi(argv[1]);
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  if (provided < MPI_THREAD_MULTIPLE) {
    printf("test_copy_threads: SKIP: the MPI library does not provide MPI_THREAD_MULTIPLE\n");
    MPI_Finalize();
    return 0;
  }
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  TEST_CASE("mg_core_init");
  ASSERT_EQ(mg_core_init(), MPI_SUCCESS);
  MPI_Type_create_resized(MPI_INT, 0, 2 * (MPI_Aint)sizeof(int), &stride2);
  MPI_Type_commit(&stride2);

  pthread_t th[NTHREADS];
  for (int t = 0; t < NTHREADS; t++) pthread_create(&th[t], NULL, worker, (void *)(size_t)t);
  for (int t = 0; t < NTHREADS; t++) pthread_join(th[t], NULL);

  TEST_CASE(first_error);
  ASSERT_EQ(atomic_load(&nbad), 0);
  MPI_Type_free(&stride2);
  mg_rma_finalize();
  mg_hier_finalize();
  mg_core_finalize();
  MPI_Finalize();
  return mg_test_summary("test_copy_threads");
}
