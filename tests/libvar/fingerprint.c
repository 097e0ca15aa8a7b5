/*
 * Which algorithm computed an MPI_Allreduce, seen from its result: a sum of doubles of very
 * different magnitudes rounds differently for each order of additions, and the algorithms of a
 * library add the ranks' contributions in different orders (linear, tree, ring segments, recursive
 * doubling). Rank 0 prints one line, "fingerprint COUNT HASH" (FNV-1a of the result's bytes), so
 * that two runs with the same hash ran the same order of additions. tests/libvar/run_libvar.sh runs
 * it with Open MPI's algorithms forced one by one and with a rules file written by `mpiguide tune`.
 * Usage: mg_fingerprint [COUNT]  (doubles, default 8192 = 64 KiB)
 */
#include <math.h>
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long n = argc > 1 ? atol(argv[1]) : 8192;
  double *x = malloc((size_t)n * sizeof *x), *y = malloc((size_t)n * sizeof *y);
  if (!x || !y) MPI_Abort(MPI_COMM_WORLD, 1);
  for (long e = 0; e < n; e++) /* magnitudes 2^0 .. 2^52 apart, signs mixed: order-sensitive rounding */
    x[e] = ldexp((double)((rank * 7919 + e * 104729) % 1000003 + 1), (int)((rank * 3 + e) % 5) * 13) *
           (((rank + e) & 1) ? -1.0 : 1.0);
  int rc = MPI_Allreduce(x, y, (int)n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  uint64_t h = 1469598103934665603ULL;
  const unsigned char *b = (const unsigned char *)y;
  for (size_t i = 0; i < (size_t)n * sizeof *y; i++) h = (h ^ b[i]) * 1099511628211ULL;
  if (rank == 0) printf("fingerprint %ld %016llx\n", n, (unsigned long long)h);
  free(x), free(y);
  MPI_Finalize();
  return rc != MPI_SUCCESS;
}
