/*
 * reranktest: the rerank family (src/algs/rerank.c, TGT 2010 eq. 36) runs the library's own
 * collective on the communicator's processes renumbered, the same renumbering on every rank.
 * The rows are measure-only, so they are called through the registry (mg_run), as the benchmark
 * does:
 *  - the renumbering is a permutation, the same on every rank, not the identity for p >= 2;
 *  - allreduce, reduce (at every root) and scan with MPI_SUM on ints, bcast (every root) and
 *    barrier give the library's result exactly (integer sums in any order, the same root process;
 *    scan: a prefix in the new order, checked against it);
 *  - gather at every root and allgather deliver every rank's block once, in the renumbered order;
 *  - the renumbered communicator lives and dies with its communicator: 1500 duplicates, each
 *    used and freed (on 1 or 2 processes: MPICH busy-polls, and more processes than the machine's
 *    two cores make each of these collective calls cost milliseconds); a leak exhausts MPICH
 *    4.0.2's context ids (seen: MPI_Comm_split fails after about a thousand when the renumbered
 *    one is not freed), Open MPI 4.1.4 has more of them.
 * Usage: reranktest (under mpiexec). Exit 0 when every check holds on every rank.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algs/algs.h"
#include "common/test_mpi.h"
#include "registry/registry.h"

static int rank, size;

static int row(mg_coll coll) {
  int a = mg_alg_find(coll, "");
  char name[64];
  snprintf(name, sizeof name, "%s_as_reranked", mg_colls[coll].name);
  a = mg_alg_find(coll, name);
  ASSERT_MSG(a > 0, "%s: no row %s", mg_colls[coll].name, name);
  return a;
}

static int run(mg_coll coll, MPI_Comm comm, const void *s, void *r, int n, int root) {
  mg_call c;
  mg_call_init(&c, coll, comm);
  c.sbuf = s, c.rbuf = r, c.scount = c.rcount = n, c.stype = c.rtype = MPI_INT, c.root = root;
  c.op = mg_colls[coll].reduction ? MPI_SUM : MPI_OP_NULL;
  if (coll == MG_BCAST) c.sbuf = r;
  if (mg_call_prepare(&c) != MPI_SUCCESS) return -1;
  return mg_run(&c, row(coll));
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  mg_test_mpi_start("reranktest");
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  enum { N = 3 };
  int p = size, *all = malloc(sizeof(int) * (size_t)(N * p)), *want = malloc(sizeof(int) * (size_t)(N * p));
  int mine[N], got[N], ref[N];
  for (int i = 0; i < N; i++) mine[i] = 1000 * rank + i;

  TEST_CASE("the renumbering");
  MPI_Comm pc;
  const int *nr;
  ASSERT_EQ(mg_perm_comm(MPI_COMM_WORLD, &pc, &nr), MPI_SUCCESS);
  int *seen = calloc((size_t)p, sizeof(int)), ident = 1, pr = -1;
  for (int i = 0; i < p; i++) seen[nr[i]]++, ident &= nr[i] == i;
  for (int i = 0; i < p; i++) ASSERT_EQ(seen[i], 1);
  if (p >= 2) ASSERT_TRUE(!ident);
  MPI_Comm_rank(pc, &pr);
  ASSERT_EQ(pr, nr[rank]);
  int *nr0 = malloc(sizeof(int) * (size_t)p);
  memcpy(nr0, nr, sizeof(int) * (size_t)p);
  MPI_Bcast(nr0, p, MPI_INT, 0, MPI_COMM_WORLD); /* rank 0's renumbering is everyone's */
  for (int i = 0; i < p; i++) ASSERT_EQ(nr0[i], nr[i]);

  TEST_CASE("allreduce, reduce, scan, bcast, barrier: the library's result");
  ASSERT_EQ(run(MG_ALLREDUCE, MPI_COMM_WORLD, mine, got, N, 0), MPI_SUCCESS);
  MPI_Allreduce(mine, ref, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  ASSERT_TRUE(!memcmp(got, ref, sizeof got));
  for (int root = 0; root < p; root++) {
    memset(got, 0, sizeof got);
    ASSERT_EQ(run(MG_REDUCE, MPI_COMM_WORLD, mine, got, N, root), MPI_SUCCESS);
    if (rank == root) ASSERT_TRUE(!memcmp(got, ref, sizeof got));
    int b[N];
    for (int i = 0; i < N; i++) b[i] = rank == root ? 7 * root + i : -1;
    ASSERT_EQ(run(MG_BCAST, MPI_COMM_WORLD, NULL, b, N, root), MPI_SUCCESS);
    for (int i = 0; i < N; i++) ASSERT_EQ(b[i], 7 * root + i);
  }
  ASSERT_EQ(run(MG_SCAN, MPI_COMM_WORLD, mine, got, N, 0), MPI_SUCCESS);
  for (int i = 0; i < N; i++) { /* the prefix over the ranks before me in the new order */
    long s = 0;
    for (int q = 0; q < p; q++)
      if (nr[q] <= nr[rank]) s += 1000 * q + i;
    ASSERT_EQ(got[i], s);
  }
  ASSERT_EQ(run(MG_BARRIER, MPI_COMM_WORLD, NULL, NULL, 0, 0), MPI_SUCCESS);

  TEST_CASE("gather, allgather: every block once, in the new order");
  for (int q = 0; q < p; q++)
    for (int i = 0; i < N; i++) want[N * nr[q] + i] = 1000 * q + i;
  for (int root = 0; root < p; root++) {
    memset(all, 0, sizeof(int) * (size_t)(N * p));
    ASSERT_EQ(run(MG_GATHER, MPI_COMM_WORLD, mine, all, N, root), MPI_SUCCESS);
    if (rank == root) ASSERT_TRUE(!memcmp(all, want, sizeof(int) * (size_t)(N * p)));
  }
  memset(all, 0, sizeof(int) * (size_t)(N * p));
  ASSERT_EQ(run(MG_ALLGATHER, MPI_COMM_WORLD, mine, all, N, 0), MPI_SUCCESS);
  ASSERT_TRUE(!memcmp(all, want, sizeof(int) * (size_t)(N * p)));

  TEST_CASE("freed with its communicator");
  for (int k = 0; p <= 2 && k < 1500; k++) { /* more than MPICH's context ids if each leaked one */
    MPI_Comm d;
    if (MPI_Comm_dup(MPI_COMM_WORLD, &d) != MPI_SUCCESS) {
      TEST_FAIL("MPI_Comm_dup failed after %d communicators", k);
      break;
    }
    if (run(MG_ALLREDUCE, d, mine, got, N, 0) != MPI_SUCCESS) TEST_FAIL("allreduce on duplicate %d failed", k);
    MPI_Comm_free(&d);
  }
  if (p <= 2) ASSERT_TRUE(!memcmp(got, ref, sizeof got));

  free(all), free(want), free(seen), free(nr0);
  int rc = mg_test_mpi_summary(NULL);
  mg_rma_finalize();
  mg_hier_finalize();
  mg_core_finalize();
  MPI_Finalize();
  return rc;
}
