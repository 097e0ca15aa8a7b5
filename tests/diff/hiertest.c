/*
 * hiertest: the node structure the hier family (src/algs/hier_nodes.c) caches with a communicator (a
 * node and a lane communicator, split from its private duplicate) lives and dies with it.
 *
 * With allreduce_as_hier, allreduce_as_lane, bcast_as_lane and barrier_as_hier forced:
 *  - many communicators in turn (duplicates of MPI_COMM_WORLD, and its odd and even halves, at once
 *    on disjoint groups) each get a structure, carry checked calls, and are freed. Sub-communicators
 *    that outlived theirs would pile up: the heap in use (mallinfo2) must not grow by 1 KiB per
 *    communicator freed (a leaked node communicator holds about 6 KiB in Open MPI 4.1: seen by
 *    disabling its free), nor the handle of a fresh communicator (MPI_Comm_c2f); MPICH would also
 *    run out of context ids (2048) long before;
 *  - the rows ran, or (lane rows) fell back with "irregular_nodes" exactly where the nodes differ
 *    in size (the test computes that from MPIGUIDE_NODE_SIZE as the library does);
 *  - with --disagree, rank 0 alone sets MPIGUIDE_NODE_SIZE=2 before the first call: the ranks must
 *    use the real structure (one node on one machine: every lane row runs, none falls back);
 *  - MPI_COMM_WORLD and a duplicate left unfreed keep their structures until MPI_Finalize, which
 *    must free them and return.
 *
 * Usage: hiertest [--disagree]   (under mpiexec). Exit 0 when every check holds on every rank.
 */
#include <malloc.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_mpi.h"
#include "mpiguide.h"

static int g_rank, g_k; /* g_k: the agreed MPIGUIDE_NODE_SIZE, 0 for the real structure */

/* Whether the nodes of comm (simulated: world rank / g_k; real: one node here) have equal sizes. */
static int regular(MPI_Comm comm) {
  int p, wr, color, *all, ok = 1;
  if (!g_k) return 1;
  MPI_Comm_size(comm, &p);
  PMPI_Comm_rank(MPI_COMM_WORLD, &wr);
  color = wr / g_k;
  all = malloc((size_t)p * sizeof *all);
  PMPI_Allgather(&color, 1, MPI_INT, all, 1, MPI_INT, comm);
  for (int i = 0; i < p; i++) {
    int a = 0, b = 0;
    for (int j = 0; j < p; j++) a += all[j] == all[i], b += all[j] == all[0];
    ok &= a == b;
  }
  free(all);
  return ok;
}

/* An allreduce (both rows), a bcast (lane) from root and a barrier on comm, checked. Adds to
 * want[0] the calls the lane rows must have run, to want[1] those that must have fallen back. */
static void calls(MPI_Comm comm, int root, int round, long long want[2]) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  enum { N = 1000 };
  int a[N], b[N];
  for (int alg = 0; alg < 2; alg++) {
    ASSERT_EQ(mpiguide_force(alg ? "allreduce=allreduce_as_lane" : "allreduce=allreduce_as_hier"), 0);
    for (int i = 0; i < N; i++) a[i] = me * 3 + i + round;
    ASSERT_EQ(MPI_Allreduce(a, b, N, MPI_INT, MPI_SUM, comm), MPI_SUCCESS);
    int bad = 0;
    for (int i = 0; i < N; i++) bad += b[i] != 3 * p * (p - 1) / 2 + p * (i + round);
    ASSERT_MSG(bad == 0, "allreduce (%s), round %d: %d elements wrong on rank %d", alg ? "lane" : "hier", round, bad,
               me);
  }
  ASSERT_EQ(mpiguide_force("bcast=bcast_as_lane,barrier=barrier_as_hier"), 0);
  for (int i = 0; i < N; i++) a[i] = me == root ? i * 7 + round : -1;
  ASSERT_EQ(MPI_Bcast(a, N, MPI_INT, root, comm), MPI_SUCCESS);
  int bad = 0;
  for (int i = 0; i < N; i++) bad += a[i] != i * 7 + round;
  ASSERT_MSG(bad == 0, "bcast from %d, round %d: %d elements wrong on rank %d", root, round, bad, me);
  ASSERT_EQ(MPI_Barrier(comm), MPI_SUCCESS);
  want[regular(comm) ? 0 : 1] += 2; /* allreduce_as_lane and bcast_as_lane */
}

static long heap_in_use(void) { return (long)mallinfo2().uordblks; }

static int fresh_handle(void) {
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  int h = (int)MPI_Comm_c2f(c);
  MPI_Comm_free(&c);
  return h;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  mg_test_mpi_start("hiertest");
  int p, disagree = argc == 2 && !strcmp(argv[1], "--disagree");
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (disagree) { /* read at the first call of a row, after this */
    if (g_rank == 0)
      setenv("MPIGUIDE_NODE_SIZE", "2", 1);
    else
      unsetenv("MPIGUIDE_NODE_SIZE");
  } else {
    const char *k = getenv("MPIGUIDE_NODE_SIZE");
    g_k = k ? atoi(k) : 0;
  }
  long long want[2] = {0, 0};

  TEST_CASE("communicators come and go");
  const int rounds = 200;
  int before = -1;
  long heap0 = 0;
  for (int r = 0; r < rounds; r++) {
    MPI_Comm comm;
    if (r % 2)
      MPI_Comm_split(MPI_COMM_WORLD, g_rank % 2, g_rank, &comm); /* the halves, at once */
    else
      MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int cp;
    MPI_Comm_size(comm, &cp);
    calls(comm, r % cp, r, want);
    MPI_Comm_free(&comm);
    if (r == 3) before = fresh_handle(), heap0 = heap_in_use();
  }
  int after = fresh_handle();
  long heap1 = heap_in_use();
  if (getenv("HT_DEBUG")) printf("handles %d %d heap %ld %ld\n", before, after, heap0, heap1);
  ASSERT_MSG(heap1 - heap0 < 1024L * rounds,
             "the heap in use grew from %ld to %ld bytes over %d freed communicators (node or lane communicators "
             "not freed? a leaked one holds about 6 KiB in Open MPI 4.1)", heap0, heap1, rounds - 4);
  ASSERT_MSG(after - before < 16, "a fresh communicator's handle grew from %d to %d over %d freed communicators "
             "(node or lane communicators not freed?)", before, after, rounds - 4);

  TEST_CASE("kept communicators");
  MPI_Comm kept;
  MPI_Comm_dup(MPI_COMM_WORLD, &kept); /* never freed: MPI_Finalize frees its structure */
  for (int r = 0; r < 4; r++) {
    calls(kept, (r + 1) % p, 1000 + r, want);
    calls(MPI_COMM_WORLD, r % p, 2000 + r, want);
  }

  TEST_CASE("the rows ran or fell back where the nodes differ in size");
  ASSERT_EQ(mpiguide_force(""), 0);
  long long ran = mpiguide_calls("allreduce", "allreduce_as_lane") + mpiguide_calls("bcast", "bcast_as_lane");
  long long irregular = mpiguide_fallbacks("allreduce", "irregular_nodes") + mpiguide_fallbacks("bcast", "irregular_nodes");
  ASSERT_EQ(ran, want[0]);
  ASSERT_EQ(irregular, want[1]);
  ASSERT_EQ(mpiguide_calls("allreduce", "allreduce_as_hier"), (want[0] + want[1]) / 2);
  if (disagree) ASSERT_EQ(irregular, 0);

  int rc = mg_test_mpi_summary(NULL);
  MPI_Finalize();
  return rc;
}
