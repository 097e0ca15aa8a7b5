/*
 * persisttest: the persistent family (src/algs/persistent.c, issue 48) against the library's own
 * blocking results. The rows are measure-only, so they are called through the registry (mg_run), as
 * the benchmark does, both unprepared (the agreed path inside the call) and after
 * mg_persistent_prepare (the benchmark's: the request made outside the timed part):
 *  - allreduce (counts 0, 1, 1000, in place), bcast and reduce at every root, allgather on a
 *    derived (vector) datatype, gatherv and scatterv at every root, alltoallv, reduce_scatter,
 *    barrier: the library's result exactly (integer sums);
 *  - the cache: one request started many times, the data changed between starts (read at each
 *    start); another buffer, and the same counts array with other contents, make a new request
 *    (a stale one would give the old data or counts); mg_persistent_release frees them;
 *  - freed with the communicator: 300 duplicates, each used and freed (a leak of requests or
 *    records shows as failures or in a sanitizer build).
 * Usage: persisttest (under mpiexec). Exit 0 when every check holds on every rank.
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
  char name[64];
  snprintf(name, sizeof name, "%s_as_persistent", mg_colls[coll].name);
  int a = mg_alg_find(coll, name);
  ASSERT_MSG(a > 0, "%s: no row %s", mg_colls[coll].name, name);
  return a;
}

/* c through the row, prepared first when prep. */
static int run(mg_call *c, int prep) {
  if (mg_call_prepare(c) != MPI_SUCCESS) return -1;
  if (prep && mg_persistent_prepare(c) != MPI_SUCCESS) return -1;
  return mg_run(c, row(c->coll));
}

static void basic(mg_call *c, mg_coll coll, MPI_Comm comm, const void *s, void *r, int n, MPI_Datatype t, int root) {
  mg_call_init(c, coll, comm);
  c->sbuf = s, c->rbuf = r, c->scount = c->rcount = n, c->stype = c->rtype = t, c->root = root;
  c->op = mg_colls[coll].reduction ? MPI_SUM : MPI_OP_NULL;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  mg_test_mpi_start("persisttest");
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int p = size;
  enum { N = 1000 };
  int *mine = malloc(sizeof(int) * N), *got = malloc(sizeof(int) * N), *ref = malloc(sizeof(int) * N);
  int *all = malloc(sizeof(int) * (size_t)(2 * N * p)), *want = malloc(sizeof(int) * (size_t)(2 * N * p));
  for (int i = 0; i < N; i++) mine[i] = 1000 * rank + i;
  mg_call c;

  for (int prep = 0; prep <= 1; prep++) {
    TEST_CASE(prep ? "prepared (the benchmark's path)" : "unprepared (agreed in the call)");
    int counts[] = {0, 1, N};
    for (int k = 0; k < 3; k++) {
      int n = counts[k];
      memset(got, 0, sizeof(int) * N);
      basic(&c, MG_ALLREDUCE, MPI_COMM_WORLD, mine, got, n, MPI_INT, 0);
      ASSERT_EQ(run(&c, prep), MPI_SUCCESS);
      MPI_Allreduce(mine, ref, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
      ASSERT_TRUE(!memcmp(got, ref, sizeof(int) * (size_t)n));
    }
    memcpy(got, mine, sizeof(int) * N); /* in place */
    basic(&c, MG_ALLREDUCE, MPI_COMM_WORLD, MPI_IN_PLACE, got, N, MPI_INT, 0);
    ASSERT_EQ(run(&c, prep), MPI_SUCCESS);
    ASSERT_TRUE(!memcmp(got, ref, sizeof(int) * N));
    for (int root = 0; root < p; root++) {
      memset(got, 0, sizeof(int) * N);
      basic(&c, MG_REDUCE, MPI_COMM_WORLD, mine, got, N, MPI_INT, root);
      ASSERT_EQ(run(&c, prep), MPI_SUCCESS);
      if (rank == root) ASSERT_TRUE(!memcmp(got, ref, sizeof(int) * N));
      for (int i = 0; i < N; i++) got[i] = rank == root ? 7 * root + i : -1;
      basic(&c, MG_BCAST, MPI_COMM_WORLD, got, got, N, MPI_INT, root);
      ASSERT_EQ(run(&c, prep), MPI_SUCCESS);
      for (int i = 0; i < N; i++) ASSERT_EQ(got[i], 7 * root + i);
    }
    /* allgather of every other int (a vector type: a block of 1, stride 2, 4 of them) */
    MPI_Datatype vec;
    MPI_Type_vector(4, 1, 2, MPI_INT, &vec);
    MPI_Type_commit(&vec);
    memset(all, 0, sizeof(int) * (size_t)(8 * p));
    basic(&c, MG_ALLGATHER, MPI_COMM_WORLD, mine, all, 1, vec, 0);
    ASSERT_EQ(run(&c, prep), MPI_SUCCESS);
    memset(want, 0, sizeof(int) * (size_t)(8 * p));
    MPI_Allgather(mine, 1, vec, want, 1, vec, MPI_COMM_WORLD);
    ASSERT_TRUE(!memcmp(all, want, sizeof(int) * (size_t)(8 * p)));
    mg_persistent_release(MPI_COMM_WORLD); /* before the type goes */
    MPI_Type_free(&vec);
    /* gatherv and scatterv at every root: rank q's block is q + 1 ints */
    int *cnt = malloc(sizeof(int) * (size_t)p), *dsp = malloc(sizeof(int) * (size_t)p), tot = 0;
    for (int q = 0; q < p; q++) cnt[q] = q + 1, dsp[q] = tot, tot += q + 1;
    for (int root = 0; root < p; root++) {
      memset(all, 0, sizeof(int) * (size_t)tot);
      mg_call_init(&c, MG_GATHERV, MPI_COMM_WORLD);
      c.sbuf = mine, c.scount = rank + 1, c.stype = c.rtype = MPI_INT, c.rbuf = all, c.rcounts = cnt, c.rdispls = dsp;
      c.root = root;
      ASSERT_EQ(run(&c, prep), MPI_SUCCESS);
      MPI_Gatherv(mine, rank + 1, MPI_INT, want, cnt, dsp, MPI_INT, root, MPI_COMM_WORLD);
      if (rank == root) ASSERT_TRUE(!memcmp(all, want, sizeof(int) * (size_t)tot));
      memset(got, 0, sizeof(int) * N);
      mg_call_init(&c, MG_SCATTERV, MPI_COMM_WORLD);
      c.sbuf = want, c.scounts = cnt, c.sdispls = dsp, c.stype = c.rtype = MPI_INT, c.rbuf = got, c.rcount = rank + 1;
      c.root = root;
      ASSERT_EQ(run(&c, prep), MPI_SUCCESS);
      MPI_Scatterv(want, cnt, dsp, MPI_INT, ref, rank + 1, MPI_INT, root, MPI_COMM_WORLD);
      ASSERT_TRUE(!memcmp(got, ref, sizeof(int) * (size_t)(rank + 1)));
    }
    /* alltoallv: 2 ints to every rank; reduce_scatter: q + 1 ints to rank q */
    int *c2 = malloc(sizeof(int) * (size_t)p), *d2 = malloc(sizeof(int) * (size_t)p);
    for (int q = 0; q < p; q++) c2[q] = 2, d2[q] = 2 * q;
    memset(all, 0, sizeof(int) * (size_t)(2 * p));
    mg_call_init(&c, MG_ALLTOALLV, MPI_COMM_WORLD);
    c.sbuf = mine, c.scounts = c2, c.sdispls = d2, c.stype = c.rtype = MPI_INT, c.rbuf = all, c.rcounts = c2;
    c.rdispls = d2;
    ASSERT_EQ(run(&c, prep), MPI_SUCCESS);
    MPI_Alltoallv(mine, c2, d2, MPI_INT, want, c2, d2, MPI_INT, MPI_COMM_WORLD);
    ASSERT_TRUE(!memcmp(all, want, sizeof(int) * (size_t)(2 * p)));
    memset(got, 0, sizeof(int) * N);
    mg_call_init(&c, MG_REDUCE_SCATTER, MPI_COMM_WORLD);
    c.sbuf = mine, c.rbuf = got, c.rcounts = cnt, c.rtype = MPI_INT, c.op = MPI_SUM;
    ASSERT_EQ(run(&c, prep), MPI_SUCCESS);
    MPI_Reduce_scatter(mine, ref, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    ASSERT_TRUE(!memcmp(got, ref, sizeof(int) * (size_t)(rank + 1)));
    /* the same counts array with other contents: a new request, not the stale one */
    for (int q = 0; q < p; q++) cnt[q] = 1;
    memset(got, 0, sizeof(int) * N);
    ASSERT_EQ(run(&c, prep), MPI_SUCCESS);
    MPI_Reduce_scatter(mine, ref, cnt, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    ASSERT_TRUE(!memcmp(got, ref, sizeof(int)));
    mg_call_init(&c, MG_BARRIER, MPI_COMM_WORLD);
    ASSERT_EQ(run(&c, prep), MPI_SUCCESS);
    free(cnt), free(dsp), free(c2), free(d2);
  }

  TEST_CASE("one request started many times, the data read at each start; another buffer, a new one");
  for (int it = 0; it < 50; it++) {
    for (int i = 0; i < 4; i++) mine[i] = it * 10 + rank + i;
    basic(&c, MG_ALLREDUCE, MPI_COMM_WORLD, mine, got, 4, MPI_INT, 0);
    ASSERT_EQ(run(&c, it & 1), MPI_SUCCESS);
    MPI_Allreduce(mine, ref, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    ASSERT_TRUE(!memcmp(got, ref, sizeof(int) * 4));
    basic(&c, MG_ALLREDUCE, MPI_COMM_WORLD, mine + 4 * (1 + it % 3), got + 8, 4, MPI_INT, 0); /* another buffer */
    ASSERT_EQ(run(&c, 0), MPI_SUCCESS);
    MPI_Allreduce(mine + 4 * (1 + it % 3), ref, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    ASSERT_TRUE(!memcmp(got + 8, ref, sizeof(int) * 4));
  }
  mg_persistent_release(MPI_COMM_WORLD);

  TEST_CASE("freed with its communicator");
  for (int k = 0; k < 300; k++) {
    MPI_Comm d;
    if (MPI_Comm_dup(MPI_COMM_WORLD, &d) != MPI_SUCCESS) {
      TEST_FAIL("MPI_Comm_dup failed after %d communicators", k);
      break;
    }
    basic(&c, MG_ALLREDUCE, d, mine, got, 4, MPI_INT, 0);
    if (run(&c, k & 1) != MPI_SUCCESS) TEST_FAIL("allreduce on duplicate %d failed", k);
    MPI_Comm_free(&d);
  }
  MPI_Allreduce(mine, ref, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  ASSERT_TRUE(!memcmp(got, ref, sizeof(int) * 4));

  free(mine), free(got), free(ref), free(all), free(want);
  int rc = mg_test_mpi_summary(NULL);
  mg_persistent_finalize();
  mg_rma_finalize();
  mg_hier_finalize();
  mg_core_finalize();
  MPI_Finalize();
  return rc;
}
