/*
 * rmatest: the window the one-sided rows (src/algs/rma_window.c; bcast_as_rma_put, gather_as_rma_get)
 * cache with a communicator lives and dies with it.
 *
 * With both rows forced:
 *  - many communicators in turn (duplicates of MPI_COMM_WORLD, and its odd and even halves, which
 *    run at once on disjoint groups) each get a window, carry a bcast and a gather whose results
 *    are checked, and are freed. A window that outlived its communicator would keep its memory
 *    mapped: the process's mappings (/proc/self/maps) must not grow with the number of
 *    communicators;
 *  - on one communicator, calls of growing and shrinking sizes (the window grows, a smaller call
 *    reuses it), both rows alternating on the same window, every root;
 *  - the rows ran (mpiguide_calls), except where the scratch cap excludes them: with `--cap B`
 *    (the test sets MPIGUIDE_SCRATCH_MAX=B) a call whose window exceeds B runs the default with
 *    fallback "scratch_cap", and smaller ones run the row;
 *  - a duplicate left unfreed and MPI_COMM_WORLD keep their windows until MPI_Finalize, which
 *    must free them and return.
 *
 * Usage: rmatest [--cap BYTES]   (under mpiexec). Exit 0 when every check holds on every rank.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_mpi.h"
#include "mpiguide.h"

static int g_rank;
static size_t g_cap; /* --cap: MPIGUIDE_SCRATCH_MAX the test runs under; 0: none */

static long maps_count(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  long n = 0;
  int ch;
  if (!f) return -1;
  while ((ch = fgetc(f)) != EOF) n += ch == '\n';
  fclose(f);
  return n;
}

static unsigned char byte_of(int round, int rank, size_t i) { return (unsigned char)(round * 31 + rank * 7 + i * 13); }

/* The window the rows need for n bytes: mg_rma_win_bytes (rma_window.c); gather adds (p-1) n at the root. */
static size_t win_bytes(size_t n) {
  size_t w = 4096;
  while (w < n) w *= 2;
  return w;
}

/* A bcast of n bytes from root on comm, then a gather of n-byte blocks to root; both checked. Counts
 * the calls that must have run each row in *ran. */
static void bcast_gather(MPI_Comm comm, size_t n, int root, int round, long long ran[2]) {
  int me, p;
  MPI_Comm_rank(comm, &me);
  MPI_Comm_size(comm, &p);
  unsigned char *buf = malloc(n), *all = malloc(n * (size_t)p);
  for (size_t i = 0; i < n; i++) buf[i] = me == root ? byte_of(round, root, i) : 0;
  ASSERT_EQ(MPI_Bcast(buf, (int)n, MPI_BYTE, root, comm), MPI_SUCCESS);
  size_t bad = 0;
  for (size_t i = 0; i < n; i++) bad += buf[i] != byte_of(round, root, i);
  ASSERT_MSG(bad == 0, "bcast of %zu bytes from %d (round %d): %zu bytes wrong on rank %d", n, root, round, bad, me);
  for (size_t i = 0; i < n; i++) buf[i] = byte_of(round, me, i);
  memset(all, 0, n * (size_t)p);
  ASSERT_EQ(MPI_Gather(buf, (int)n, MPI_BYTE, all, (int)n, MPI_BYTE, root, comm), MPI_SUCCESS);
  bad = 0;
  for (int q = 0; me == root && q < p; q++)
    for (size_t i = 0; i < n; i++) bad += all[(size_t)q * n + i] != byte_of(round, q, i);
  ASSERT_MSG(bad == 0, "gather of %zu-byte blocks to %d (round %d): %zu bytes wrong", n, root, round, bad);
  size_t stage = (n * (size_t)(p - 1) + 63) / 64 * 64; /* the root's staging, aligned */
  int fits_b = !g_cap || p == 1 || win_bytes(n) <= g_cap, fits_g = !g_cap || p == 1 || win_bytes(n) + stage <= g_cap;
  ran[0] += fits_b, ran[1] += fits_g; /* p = 1: no window, no scratch */
  free(buf);
  free(all);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  mg_test_mpi_start("rmatest");
  int p;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (argc == 3 && !strcmp(argv[1], "--cap")) g_cap = strtoull(argv[2], NULL, 10);
  ASSERT_EQ(mpiguide_force("bcast=bcast_as_rma_put,gather=gather_as_rma_get"), 0);
  long long ran[2] = {0, 0};

  TEST_CASE("communicators come and go");
  const int rounds = 48;
  long before = -1;
  for (int r = 0; r < rounds; r++) {
    MPI_Comm comm;
    if (r % 2)
      MPI_Comm_split(MPI_COMM_WORLD, g_rank % 2, g_rank, &comm); /* the halves, at once */
    else
      MPI_Comm_dup(MPI_COMM_WORLD, &comm);
    int cp;
    MPI_Comm_size(comm, &cp);
    bcast_gather(comm, 20000 + 4096 * (size_t)(r % 3), r % cp, r, ran);
    MPI_Comm_free(&comm);
    if (r == 1) before = maps_count(); /* after the first of each kind: pools and caches made */
  }
  long after = maps_count();
  ASSERT_MSG(before > 0 && after - before < rounds / 4,
             "the mappings grew from %ld to %ld over %d freed communicators (windows not freed?)", before, after,
             rounds - 2);

  TEST_CASE("growing and shrinking on one communicator");
  MPI_Comm kept;
  MPI_Comm_dup(MPI_COMM_WORLD, &kept); /* never freed: MPI_Finalize frees its window */
  const size_t sizes[] = {1, 1000, 5000, 70000, 1 << 20, 3000, 300000, 8, 3 << 20, 64};
  for (int i = 0; i < (int)(sizeof sizes / sizeof sizes[0]); i++) {
    bcast_gather(kept, sizes[i], i % p, 1000 + i, ran);
    bcast_gather(MPI_COMM_WORLD, sizes[i] / 2 + 1, (i + 1) % p, 2000 + i, ran);
  }

  TEST_CASE("the rows ran");
  ASSERT_EQ(mpiguide_calls("bcast", "bcast_as_rma_put"), ran[0]);
  ASSERT_EQ(mpiguide_calls("gather", "gather_as_rma_get"), ran[1]);
  long long capped = mpiguide_fallbacks("bcast", "scratch_cap") + mpiguide_fallbacks("gather", "scratch_cap");
  if (g_cap)
    ASSERT_MSG(capped > 0, "no call fell back for the scratch cap of %zu bytes", g_cap);
  else
    ASSERT_EQ(capped, 0);

  int rc = mg_test_mpi_summary(NULL);
  MPI_Finalize();
  return rc;
}
