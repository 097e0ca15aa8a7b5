/*
 * barriertest: every barrier algorithm of the registry, forced through libmpiguide, keeps the
 * barrier's one promise: no rank leaves it before every rank has entered.
 *
 * The ranks share a window of flags (MPI_Win_allocate_shared on the node's ranks). In round k one
 * rank (k mod p) sleeps 20 ms, then writes k into its flag; every rank writes its flag, calls
 * MPI_Barrier (the forced algorithm) and then reads every flag: each must already be k. A barrier
 * that lets a rank leave early fails as soon as it meets the sleeping rank. It also checks that
 * the forced algorithm ran (mpiguide_calls), that the barrier of a duplicate and of a split
 * communicator holds for its own ranks, and that MPI_Barrier(MPI_COMM_NULL) returns the error
 * class the library's own returns.
 *
 * Usage: barriertest   (under mpiexec, all ranks on one node). Exit 0 when all hold.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "common/test_mpi.h"
#include "mpiguide.h"
#include "registry/registry.h"

/* Rounds of the check on comm with the algorithm forced; the caller's flags window is on comm. */
static void check_comm(MPI_Comm comm, const char *alg, const char *what) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Win win;
  volatile int *mine = NULL;
  if (MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, comm, (void *)&mine, &win) != MPI_SUCCESS) {
    TEST_FAIL("cannot allocate a shared window on %s (ranks on several nodes?)", what);
    return;
  }
  volatile int *flag[1024];
  for (int q = 0; q < size && q < 1024; q++) {
    MPI_Aint sz;
    int du;
    MPI_Win_shared_query(win, q, &sz, &du, (void *)&flag[q]);
  }
  MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
  *mine = -1;
  MPI_Win_sync(win);
  PMPI_Barrier(comm);
  for (int k = 0; k < 2 * size + 2; k++) {
    if (rank == k % size) usleep(20000);
    *mine = k;
    MPI_Win_sync(win); /* the store is visible before the barrier starts */
    __sync_synchronize();
    int rc = MPI_Barrier(comm);
    ASSERT_MSG(rc == MPI_SUCCESS, "%s on %s: MPI_Barrier returned %d in round %d", alg, what, rc, k);
    MPI_Win_sync(win);
    __sync_synchronize();
    int early = -1; /* the first rank that had not entered round k */
    for (int q = 0; q < size && q < 1024 && early < 0; q++)
      if (*flag[q] < k) early = q;
    ASSERT_MSG(early < 0, "%s on %s: rank %d left round %d before rank %d entered it", alg, what, rank, k, early);
    PMPI_Barrier(comm); /* no rank overwrites its flag before all have read */
  }
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mg_test_mpi_start("barriertest");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN); /* MPI_COMM_NULL's errors come here */
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm node, dup, half;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  MPI_Comm_dup(node, &dup);
  MPI_Comm_split(node, rank % 2, size - rank, &half); /* reversed order within each half */
  const mg_coll_info *ci = &mg_colls[MG_BARRIER];
  for (int a = 0; a < ci->nalgs; a++) {
    if (ci->algs[a].restrictions & MG_R_MEASURE_ONLY) continue; /* libmpiguide never runs it */
    char spec[128];
    snprintf(spec, sizeof spec, "barrier=%s", a ? ci->algs[a].name : "default");
    TEST_CASE(spec);
    if (mpiguide_force(spec) != 0) {
      TEST_FAIL("cannot force %s", spec);
      continue;
    }
    long long before = mpiguide_calls("barrier", a ? ci->algs[a].name : "default");
    check_comm(node, spec, "the node's communicator");
    check_comm(dup, spec, "a duplicate");
    check_comm(half, spec, "a split half, ranks reversed");
    /* an erroneous call returns the class the library's own returns (the default reports it) */
    int want = PMPI_Barrier(MPI_COMM_NULL), got = MPI_Barrier(MPI_COMM_NULL), cw = -1, cg = -2;
    MPI_Error_class(want, &cw);
    MPI_Error_class(got, &cg);
    ASSERT_MSG(want != MPI_SUCCESS && cw == cg, "%s on MPI_COMM_NULL: error class %d, the library's own %d", spec,
               cg, cw);
    long long ran = mpiguide_calls("barrier", a ? ci->algs[a].name : "default") - before;
    ASSERT_MSG(ran > 0, "%s did not run (%lld calls)", spec, ran);
    mpiguide_force("");
  }
  char what[64];
  snprintf(what, sizeof what, "%d algorithms", ci->nalgs);
  int rc = mg_test_mpi_summary(what);
  MPI_Comm_free(&half);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return rc;
}
