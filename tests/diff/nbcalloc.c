/*
 * A steady state of non-blocking collectives through a one-call row allocates nothing in
 * libmpiguide (src/algs/nbc.c, mg_nbc_alloc's pool): each row that keeps scratch with its request
 * (iallgather_as_iallgatherv, ialltoall_as_ialltoallv, ialltoallv_as_ialltoallw, ...) forced,
 * posted and waited for K times after a warm-up, counting malloc-family calls
 * (benchmarks/malloc_count.c linked in), against K posts of the same general call made straight
 * to the library (PMPI_): the row may add fewer than K/2 (before the pool it added one per call).
 * The kept requests (mpiguide_requests_kept) are back to 0 after each wait, the row ran every
 * time (mpiguide_calls), the results are checked.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mpiguide.h"

size_t mg_malloc_calls(void); /* benchmarks/malloc_count.c */

#define K 200
#define N 3

static int fails;
#define FAIL(...) (fprintf(stderr, "nbcalloc: " __VA_ARGS__), fputc('\n', stderr), fails++)

static int rank, size;
static int sbuf[64 * N], rbuf[64 * N], counts[64], displs[64];
static MPI_Datatype types[64];
static int bdispls[64];

/* One post of operation `op` through libmpiguide (direct 0) or the library's general form (1). */
static int post(int op, int direct, MPI_Request *q) {
  switch (op) {
  case 0:
    return direct ? PMPI_Iallgatherv(sbuf, N, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD, q)
                  : MPI_Iallgather(sbuf, N, MPI_INT, rbuf, N, MPI_INT, MPI_COMM_WORLD, q);
  case 1:
    return direct ? PMPI_Ialltoallv(sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD, q)
                  : MPI_Ialltoall(sbuf, N, MPI_INT, rbuf, N, MPI_INT, MPI_COMM_WORLD, q);
  case 2:
    return direct ? PMPI_Ialltoallw(sbuf, counts, bdispls, types, rbuf, counts, bdispls, types, MPI_COMM_WORLD, q)
                  : MPI_Ialltoallv(sbuf, counts, displs, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_WORLD, q);
  default:
    return direct ? PMPI_Ireduce_scatter(sbuf, rbuf, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD, q)
                  : MPI_Ireduce_scatter_block(sbuf, rbuf, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD, q);
  }
}

static const char *force[] = {"iallgather=iallgather_as_iallgatherv", "ialltoall=ialltoall_as_ialltoallv",
                              "ialltoallv=ialltoallv_as_ialltoallw",
                              "ireduce_scatter_block=ireduce_scatter_block_as_ireducescatter"};

/* Malloc-family calls of K posts and waits (after K warm-up ones); the result checked. */
static size_t loop(int op, int direct) {
  size_t m0 = 0;
  for (int it = 0; it < 2 * K; it++) {
    if (it == K) m0 = mg_malloc_calls();
    MPI_Request q;
    memset(rbuf, 0xff, sizeof rbuf);
    if (post(op, direct, &q) != MPI_SUCCESS) return FAIL("op %d: post failed", op), 0;
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    if (!direct && mpiguide_requests_kept() != 0) FAIL("op %d: %ld requests kept after MPI_Wait", op, mpiguide_requests_kept());
    for (int i = 0; i < size * N && op < 3; i++) { /* block i/N from rank i/N */
      int from = i / N, want = op == 0 ? from * 1000 + i % N : from * 1000 + rank * N + i % N;
      if (rbuf[i] != want) return FAIL("op %d: rbuf[%d] = %d, want %d", op, i, rbuf[i], want), 0;
    }
  }
  return mg_malloc_calls() - m0;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > 64) MPI_Abort(MPI_COMM_WORLD, 2);
  for (int i = 0; i < 64 * N; i++) sbuf[i] = rank * 1000 + i; /* allgather: the first N */
  for (int i = 0; i < size; i++) counts[i] = N, displs[i] = i * N, bdispls[i] = i * N * (int)sizeof(int), types[i] = MPI_INT;
  for (int op = 0; op < 4; op++) {
    if (mpiguide_force(force[op]) != MPIGUIDE_OK) {
      FAIL("cannot force %s", force[op]);
      continue;
    }
    char coll[64];
    const char *alg = strchr(force[op], '=') + 1;
    snprintf(coll, sizeof coll, "%.*s", (int)(alg - 1 - force[op]), force[op]);
    long long ran0 = mpiguide_calls(coll, alg);
    size_t lib = loop(op, 1), row = loop(op, 0);
    if (mpiguide_calls(coll, alg) - ran0 != 2 * K) FAIL("%s: the row ran %lld times, not %d", force[op], mpiguide_calls(coll, alg) - ran0, 2 * K);
    if (row >= lib + K / 2)
      FAIL("%s: %zu malloc-family calls in %d forced calls, %zu in as many general ones: the row allocates per call",
           force[op], row, K, lib);
    if (rank == 0) printf("%s: %zu allocations in %d calls (the general form straight: %zu)\n", force[op], row, K, lib);
  }
  mpiguide_force("");
  int all = 0;
  MPI_Allreduce(&fails, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0) printf(all ? "nbcalloc: FAILED\n" : "nbcalloc: ok\n");
  MPI_Finalize();
  return all != 0;
}
