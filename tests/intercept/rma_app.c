/*
 * The one-sided rows (bcast_as_rma_put, gather_as_rma_get) forced where the MPI library may or
 * may not make a window (src/algs/rma_window.c). Argument `none`: it cannot (Open MPI with
 * OMPI_MCA_osc leaving no one-sided component, as between nodes over TCP): every call still gives
 * the library's result, with the communicator's error handler left fatal, and is counted as a
 * fallback for no_window, on every communicator, the row never running. Argument `window`: it
 * can: the rows run every call, no fallback. A few small calls on MPI_COMM_WORLD and on a
 * duplicate (its window record freed with it), 2 ranks or more.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "mpiguide.h"

#define N 300 /* ints; the second round 4 times as many: a larger window than the first */

static int fails;

static void expect(int ok, const char *what, long long got, int rank) {
  if (!ok) {
    fprintf(stderr, "rma_app: rank %d: %s (got %lld)\n", rank, what, got);
    fails++;
  }
}

/* bcast and gather of n ints from root on comm, results checked */
static void round_(MPI_Comm comm, int n, int root, int seed) {
  static int buf[4 * N], mine[4 * N], all[4 * N * 8];
  int rank, p;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &p);
  for (int i = 0; i < n; i++) buf[i] = rank == root ? seed * 7919 + i : -1;
  MPI_Bcast(buf, n, MPI_INT, root, comm);
  for (int i = 0; i < n; i++)
    if (buf[i] != seed * 7919 + i) {
      expect(0, "bcast: a wrong element", buf[i], rank);
      break;
    }
  for (int i = 0; i < n; i++) mine[i] = seed + rank * 100003 + i;
  memset(all, 0xff, sizeof all);
  MPI_Gather(mine, n, MPI_INT, all, n, MPI_INT, root, comm);
  for (int r = 0; rank == root && r < p && r < 8; r++)
    for (int i = 0; i < n; i++)
      if (all[r * n + i] != seed + r * 100003 + i) {
        expect(0, "gather: a wrong element", all[r * n + i], rank);
        r = p, i = n;
      }
}

int main(int argc, char **argv) {
  int none = argc > 1 && !strcmp(argv[1], "none"), rank, p;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (p > 8 || mpiguide_force("bcast=bcast_as_rma_put,gather=gather_as_rma_get") != 0) {
    fprintf(stderr, "rma_app: needs 2 to 8 ranks and libmpiguide\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  for (int k = 0; k < 3; k++) round_(MPI_COMM_WORLD, N, k % p, k + 1);
  round_(dup, N, 0, 11);
  round_(MPI_COMM_WORLD, 4 * N, p - 1, 12); /* larger: a grown window, or still none */
  MPI_Comm_free(&dup);
  round_(MPI_COMM_WORLD, N, 0, 13);
  const int calls = 6; /* per collective, per rank */
  const char *coll[2] = {"bcast", "gather"}, *row[2] = {"bcast_as_rma_put", "gather_as_rma_get"};
  for (int i = 0; i < 2; i++) {
    long long ran = mpiguide_calls(coll[i], row[i]), nowin = mpiguide_fallbacks(coll[i], "no_window"),
              any = mpiguide_fallbacks(coll[i], NULL);
    char what[128];
    snprintf(what, sizeof what, "%s: calls of %s, expected %d", coll[i], row[i], none ? 0 : calls);
    expect(ran == (none ? 0 : calls), what, ran, rank);
    snprintf(what, sizeof what, "%s: fallbacks for no_window, expected %d", coll[i], none ? calls : 0);
    expect(nowin == (none ? calls : 0), what, nowin, rank);
    expect(any == nowin, "fallbacks for another reason", any - nowin, rank);
  }
  int bad = fails > 0, anybad = 0;
  MPI_Allreduce(&bad, &anybad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0) printf("rma_app %s: %s\n", none ? "none" : "window", anybad ? "FAILED" : "ok");
  MPI_Finalize();
  return anybad;
}
