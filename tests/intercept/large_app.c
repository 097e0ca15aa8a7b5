/*
 * MPI-4's large-count bindings from a plain C program (run_preload.sh large): MPI_Allreduce_c,
 * MPI_Bcast_c, MPI_Reduce_c, MPI_Gather_c, MPI_Scatter_c and MPI_Allgather_c with counts that fit
 * an int, each result compared with the library's own (PMPI_ with int counts, which libmpiguide
 * never sees); the gather, scatter and allgather pass counts the MPI ignores (off the root, with
 * MPI_IN_PLACE) past INT_MAX; MPI_Iallgather_c (in place, the send count unset), MPI_Iallreduce_c
 * and MPI_Allreduce_init_c (started twice). Knows nothing of mpiguide.
 * Built against an MPI without them (MPI_VERSION < 4: Open MPI 4.1), it says so and exits 77.
 *
 *   large_app COUNT...     each count once per operation; prints "large_app: OK" on rank 0
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if MPI_VERSION >= 4
static int bad;

static void expect(const char *what, const int *got, const int *want, int n, int rank) {
  if (memcmp(got, want, (size_t)n * sizeof *got)) {
    fprintf(stderr, "large_app: rank %d: %s of %d ints differs from the library's\n", rank, what, n);
    bad = 1;
  }
}
#endif

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
#if MPI_VERSION >= 4
  for (int i = 1; i < argc; i++) {
    int n = atoi(argv[i]);
    int *a = malloc(sizeof(int) * (size_t)(n + 1)), *b = malloc(sizeof(int) * (size_t)(n + 1)),
        *w = malloc(sizeof(int) * (size_t)(n + 1));
    for (int k = 0; k < n; k++) a[k] = 1000 * rank + k;
    MPI_Allreduce_c(a, b, (MPI_Count)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    PMPI_Allreduce(a, w, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    expect("MPI_Allreduce_c", b, w, n, rank);
    memset(b, 0, sizeof(int) * (size_t)n);
    memset(w, 0, sizeof(int) * (size_t)n);
    MPI_Reduce_c(a, b, (MPI_Count)n, MPI_INT, MPI_MAX, p - 1, MPI_COMM_WORLD);
    PMPI_Reduce(a, w, n, MPI_INT, MPI_MAX, p - 1, MPI_COMM_WORLD);
    expect("MPI_Reduce_c", b, w, n, rank);
    for (int k = 0; k < n; k++) b[k] = w[k] = rank == 0 ? 7 * k + 1 : -1;
    MPI_Bcast_c(b, (MPI_Count)n, MPI_INT, 0, MPI_COMM_WORLD);
    PMPI_Bcast(w, n, MPI_INT, 0, MPI_COMM_WORLD);
    expect("MPI_Bcast_c", b, w, n, rank);
    /* counts the MPI ignores, set past INT_MAX as a program may leave them (never read): a
     * gather's receive count off the root, a scatter's send count off the root, the send count
     * with MPI_IN_PLACE at the root. Every rank must still take the same path. */
    const MPI_Count unset = (MPI_Count)1 << 40;
    int *all = malloc(sizeof(int) * (size_t)n * (size_t)p + 1), *wall = malloc(sizeof(int) * (size_t)n * (size_t)p + 1);
    MPI_Gather_c(a, (MPI_Count)n, MPI_INT, all, rank == 0 ? (MPI_Count)n : unset, MPI_INT, 0, MPI_COMM_WORLD);
    PMPI_Gather(a, n, MPI_INT, wall, n, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) expect("MPI_Gather_c", all, wall, n * p, rank);
    for (int k = 0; k < n * p; k++) all[k] = wall[k] = rank == 0 ? 3 * k - 5 : -1;
    MPI_Scatter_c(all, rank == 0 ? (MPI_Count)n : unset, MPI_INT, rank == 0 ? MPI_IN_PLACE : b, (MPI_Count)n,
                  MPI_INT, 0, MPI_COMM_WORLD);
    PMPI_Scatter(wall, n, MPI_INT, rank == 0 ? MPI_IN_PLACE : w, n, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank) expect("MPI_Scatter_c", b, w, n, rank);
    for (int k = 0; k < n; k++) all[(size_t)rank * n + k] = wall[(size_t)rank * n + k] = a[k];
    MPI_Allgather_c(MPI_IN_PLACE, unset, MPI_INT, all, (MPI_Count)n, MPI_INT, MPI_COMM_WORLD);
    PMPI_Allgather(MPI_IN_PLACE, 0, MPI_INT, wall, n, MPI_INT, MPI_COMM_WORLD);
    expect("MPI_Allgather_c", all, wall, n * p, rank);
    /* the non-blocking and persistent forms (issue 48): MPI_Iallgather_c in place with the send
     * count unset, MPI_Iallreduce_c, and MPI_Allreduce_init_c started twice */
    MPI_Request q;
    for (int k = 0; k < n * p; k++) all[k] = -3;
    for (int k = 0; k < n; k++) all[(size_t)rank * n + k] = a[k] + 1;
    MPI_Iallgather_c(MPI_IN_PLACE, unset, MPI_INT, all, (MPI_Count)n, MPI_INT, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    for (int k = 0; k < n; k++) b[k] = a[k] + 1;
    PMPI_Allgather(b, n, MPI_INT, wall, n, MPI_INT, MPI_COMM_WORLD);
    expect("MPI_Iallgather_c", all, wall, n * p, rank);
    MPI_Iallreduce_c(a, b, (MPI_Count)n, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    PMPI_Allreduce(a, w, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    expect("MPI_Iallreduce_c", b, w, n, rank);
    MPI_Allreduce_init_c(a, b, (MPI_Count)n, MPI_INT, MPI_MAX, MPI_COMM_WORLD, MPI_INFO_NULL, &q);
    for (int t = 0; t < 2; t++) {
      for (int k = 0; k < n; k++) a[k] += t;
      MPI_Start(&q);
      MPI_Wait(&q, MPI_STATUS_IGNORE);
      PMPI_Allreduce(a, w, n, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
      expect("MPI_Allreduce_init_c", b, w, n, rank);
    }
    MPI_Request_free(&q);
    free(all);
    free(wall);
    free(a);
    free(b);
    free(w);
  }
  int all = 0;
  PMPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && !all) printf("large_app: OK\n");
  MPI_Finalize();
  return all ? 1 : 0;
#else
  if (rank == 0)
    printf("large_app: SKIPPED: this MPI has no large-count bindings (MPI_VERSION %d; MPI_Allreduce_c is MPI-4)\n",
           MPI_VERSION);
  MPI_Finalize();
  return 77;
#endif
}
