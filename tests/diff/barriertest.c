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

#include "mpiguide.h"
#include "registry/registry.h"

static int failures;

/* Rounds of the check on comm with the algorithm forced; the caller's flags window is on comm. */
static void check_comm(MPI_Comm comm, const char *alg, const char *what) {
  int rank, size;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Win win;
  volatile int *mine = NULL;
  if (MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, comm, (void *)&mine, &win) != MPI_SUCCESS) {
    fprintf(stderr, "barriertest: cannot allocate a shared window (ranks on several nodes?)\n");
    failures++;
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
  int bad = 0;
  for (int k = 0; k < 2 * size + 2; k++) {
    if (rank == k % size) usleep(20000);
    *mine = k;
    MPI_Win_sync(win); /* the store is visible before the barrier starts */
    __sync_synchronize();
    if (MPI_Barrier(comm) != MPI_SUCCESS) bad++;
    MPI_Win_sync(win);
    __sync_synchronize();
    for (int q = 0; q < size && q < 1024; q++)
      if (*flag[q] < k) {
        if (!bad) fprintf(stderr, "barriertest: %s on %s: rank %d left round %d before rank %d entered it\n", alg,
                          what, rank, k, q);
        bad++;
      }
    PMPI_Barrier(comm); /* no rank overwrites its flag before all have read */
  }
  MPI_Win_unlock_all(win);
  MPI_Win_free(&win);
  failures += bad;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
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
    if (mpiguide_force(spec) != 0) {
      if (!rank) fprintf(stderr, "barriertest: cannot force %s\n", spec);
      failures++;
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
    if (want == MPI_SUCCESS || cw != cg) {
      fprintf(stderr, "barriertest: rank %d: %s on MPI_COMM_NULL: error class %d, the library's own %d\n", rank,
              spec, cg, cw);
      failures++;
    }
    long long ran = mpiguide_calls("barrier", a ? ci->algs[a].name : "default") - before;
    if (ran <= 0) {
      fprintf(stderr, "barriertest: rank %d: %s did not run (%lld calls)\n", rank, spec, ran);
      failures++;
    }
    mpiguide_force("");
  }
  int total = 0;
  PMPI_Allreduce(&failures, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (!rank) printf("barriertest: %d algorithms on %d ranks: %s\n", ci->nalgs, size, total ? "FAILED" : "ok");
  MPI_Comm_free(&half);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&node);
  MPI_Finalize();
  return total ? 1 : 0;
}
