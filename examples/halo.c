/*
 * A halo exchange built on non-blocking calls, imbalanced on purpose: the kind of code whose MPI
 * time is mostly in completions (docs/trace.md, "Every MPI call"; tests/hotspots/halo.sh).
 *
 * Each rank owns a block of a 1-D periodic grid and every iteration
 *   - posts MPI_Irecv from both neighbours and MPI_Isend to both, and completes them with one
 *     MPI_Waitall (the halo exchange);
 *   - computes for a time that grows with its rank (rank r works (r + 1) x the base), so the
 *     faster ranks wait in MPI_Waitall for the slower ones;
 *   - every 4th iteration, sums a residual with MPI_Iallreduce, polled with MPI_Test between slices
 *     of work (overlap);
 *   - every 8th, exchanges a second halo through persistent requests (MPI_Send_init and
 *     MPI_Recv_init once, MPI_Startall, then MPI_Wait on each).
 *
 * The comments halo:NAME mark the calls whose lines tests/hotspots/run_halo.sh looks for (in
 * examples/halo.f90 too). It also times every MPI call it makes itself, with PMPI_Wtime around the call (a PMPI timer
 * that no tool intercepts), and every rank prints its own, so a test compares a tool's account of
 * the MPI time with the program's:
 *     halo: rank 0 mpi_s 1.234567 wall_s 2.345678 sum 5.1e+06
 *
 * Usage: mpirun -np P halo [iterations [block-doubles [work-units]]]   (defaults 200, 4096, 2000)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static double mpi_s; /* this rank's time in MPI calls, by its own timer */

/* Time one MPI call with PMPI_Wtime (not intercepted), adding it to mpi_s. */
#define TIMED(call)                                                                                  \
  do {                                                                                               \
    double t_ = PMPI_Wtime();                                                                        \
    call;                                                                                            \
    mpi_s += PMPI_Wtime() - t_;                                                                      \
  } while (0)

static double work(double *u, int n, long units) {
  double s = 0;
  for (long k = 0; k < units; k++)
    for (int i = 1; i < n - 1; i += 64) {
      u[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]);
      s += u[i];
    }
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  double wall0 = PMPI_Wtime();
  int rank, size;
  TIMED(MPI_Comm_rank(MPI_COMM_WORLD, &rank));
  TIMED(MPI_Comm_size(MPI_COMM_WORLD, &size));
  int iters = argc > 1 ? atoi(argv[1]) : 200, n = argc > 2 ? atoi(argv[2]) : 4096;
  long units = argc > 3 ? atol(argv[3]) : 2000;
  if (iters < 1 || n < 4 || units < 0) {
    if (rank == 0) fprintf(stderr, "usage: halo [iterations >= 1 [block-doubles >= 4 [work-units >= 0]]]\n");
    MPI_Finalize();
    return 2;
  }
  double *u = calloc((size_t)n + 2, sizeof *u), *halo2 = calloc(4, sizeof *halo2);
  if (!u || !halo2) {
    fprintf(stderr, "halo: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  for (int i = 0; i < n + 2; i++) u[i] = rank + i * 1e-3;
  int left = (rank + size - 1) % size, right = (rank + 1) % size;

  /* the persistent second halo: set up once */
  MPI_Request pers[4];
  TIMED(MPI_Recv_init(&halo2[0], 1, MPI_DOUBLE, left, 2, MPI_COMM_WORLD, &pers[0])); /* halo:recv-init-left */
  TIMED(MPI_Recv_init(&halo2[1], 1, MPI_DOUBLE, right, 3, MPI_COMM_WORLD, &pers[1])); /* halo:recv-init-right */
  TIMED(MPI_Send_init(&u[1], 1, MPI_DOUBLE, left, 3, MPI_COMM_WORLD, &pers[2])); /* halo:send-init-left */
  TIMED(MPI_Send_init(&u[n], 1, MPI_DOUBLE, right, 2, MPI_COMM_WORLD, &pers[3])); /* halo:send-init-right */

  double res = 0, sum = 0;
  for (int it = 0; it < iters; it++) {
    MPI_Request req[4];
    TIMED(MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0])); /* halo:irecv-left */
    TIMED(MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1])); /* halo:irecv-right */
    TIMED(MPI_Isend(&u[1], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[2])); /* halo:isend-left */
    TIMED(MPI_Isend(&u[n], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3])); /* halo:isend-right */
    MPI_Status st[4]; /* not MPI_STATUSES_IGNORE: gcc 12 takes MPICH's for an array of size 0 */
    TIMED(MPI_Waitall(4, req, st)); /* halo:waitall */
    res = work(u, n + 2, units * (rank + 1));
    if (it % 4 == 0) {
      MPI_Request r;
      int done = 0;
      TIMED(MPI_Iallreduce(&res, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r)); /* halo:iallreduce */
      for (;;) { /* overlap: a slice of the next iteration's work between two tests */
        TIMED(MPI_Test(&r, &done, MPI_STATUS_IGNORE)); /* halo:test */
        if (done) break;
        res += 1e-9 * work(u, n + 2, units / 50 + 1);
      }
    }
    if (it % 8 == 0) {
      TIMED(MPI_Startall(4, pers));
      for (int k = 0; k < 4; k++) TIMED(MPI_Wait(&pers[k], MPI_STATUS_IGNORE)); /* halo:wait */
    }
  }
  for (int k = 0; k < 4; k++) TIMED(MPI_Request_free(&pers[k])); /* halo:free */

  double wall = PMPI_Wtime() - wall0;
  /* each rank its own line: no MPI call after the count */
  printf("halo: rank %d mpi_s %.6f wall_s %.6f sum %.6g\n", rank, mpi_s, wall, sum);
  free(u);
  free(halo2);
  MPI_Finalize();
  return 0;
}
