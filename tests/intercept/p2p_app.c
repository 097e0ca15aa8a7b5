/*
 * A plain MPI program (mpi.h only) that uses every point-to-point operation libmpiguide
 * intercepts, around a ring, and checks every message and status:
 *   p2p_app REPS COUNT...
 * For each COUNT (ints) and repetition: MPI_Send / MPI_Recv (rank 0 starts, the others pass the
 * message on; odd ranks receive with MPI_ANY_SOURCE and MPI_ANY_TAG and check the status),
 * MPI_Ssend / MPI_Recv the same way, MPI_Rsend to a receive posted before a barrier,
 * MPI_Isend / MPI_Irecv, MPI_Sendrecv and MPI_Sendrecv_replace (a ring shift). Each operation is
 * called REPS times per count on every rank (the trace test counts them). On success rank 0 prints
 * "p2p_app: OK (...)" (common/test_mpi.h).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/test_mpi.h" /* the tests' harness only: the program stays a plain MPI program */

static int rank, size;

static void fill(int *b, int n, int from, int tag) {
  for (int i = 0; i < n; i++) b[i] = from * 100003 + tag * 101 + i;
}

static void expect(const char *what, const int *b, int n, int from, int tag, const MPI_Status *st) {
  int i = 0;
  while (i < n && b[i] == from * 100003 + tag * 101 + i) i++;
  ASSERT_MSG(i == n, "%s: element %d is %d, want %d", what, i, b[i], from * 100003 + tag * 101 + i);
  if (i < n) return;
  int got = -1;
  if (st) MPI_Get_count(st, MPI_INT, &got);
  ASSERT_MSG(!st || (st->MPI_SOURCE == from && st->MPI_TAG == tag && got == n),
             "%s: status source %d tag %d count %d, want %d %d %d", what, st->MPI_SOURCE, st->MPI_TAG, got, from, tag,
             n);
}

typedef int (*send_fn)(const void *, int, MPI_Datatype, int, int, MPI_Comm);

/* Rank 0 sends to 1 first; every other rank receives from its left and passes it on. */
static void pass_on(send_fn snd, const char *what, int *sb, int *rb, int n, int tag) {
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  MPI_Status st;
  int any = rank % 2; /* odd ranks receive from anyone, with any tag */
  fill(sb, n, rank, tag);
  if (rank == 0) snd(sb, n, MPI_INT, next, tag, MPI_COMM_WORLD);
  MPI_Recv(rb, n, MPI_INT, any ? MPI_ANY_SOURCE : prev, any ? MPI_ANY_TAG : tag, MPI_COMM_WORLD, &st);
  expect(what, rb, n, prev, tag, &st);
  if (rank != 0) snd(sb, n, MPI_INT, next, tag, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mg_test_mpi_start("p2p_app");
  int reps = argc > 1 ? atoi(argv[1]) : 3, maxn = 1;
  for (int k = 2; k < argc; k++)
    if (atoi(argv[k]) > maxn) maxn = atoi(argv[k]);
  int *sb = malloc(sizeof(int) * (size_t)maxn), *rb = malloc(sizeof(int) * (size_t)maxn);
  int next = (rank + 1) % size, prev = (rank + size - 1) % size;
  for (int k = 2; k < argc; k++) {
    int n = atoi(argv[k]);
    for (int r = 0; r < reps; r++) {
      int tag = 10 * r + k;
      MPI_Status st;
      MPI_Request q[2];
      pass_on(MPI_Send, "send", sb, rb, n, tag);
      pass_on(MPI_Ssend, "ssend", sb, rb, n, tag + 1);
      fill(sb, n, rank, tag + 2); /* a ready send: the receive is posted before the barrier */
      MPI_Irecv(rb, n, MPI_INT, prev, tag + 2, MPI_COMM_WORLD, &q[0]);
      MPI_Barrier(MPI_COMM_WORLD);
      MPI_Rsend(sb, n, MPI_INT, next, tag + 2, MPI_COMM_WORLD);
      MPI_Wait(&q[0], &st);
      expect("rsend", rb, n, prev, tag + 2, &st);
      fill(sb, n, rank, tag + 3);
      MPI_Irecv(rb, n, MPI_INT, MPI_ANY_SOURCE, tag + 3, MPI_COMM_WORLD, &q[0]);
      MPI_Isend(sb, n, MPI_INT, next, tag + 3, MPI_COMM_WORLD, &q[1]);
      MPI_Wait(&q[1], MPI_STATUS_IGNORE);
      MPI_Wait(&q[0], &st);
      expect("isend/irecv", rb, n, prev, tag + 3, &st);
      fill(sb, n, rank, tag + 4);
      MPI_Sendrecv(sb, n, MPI_INT, next, tag + 4, rb, n, MPI_INT, prev, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
      expect("sendrecv", rb, n, prev, tag + 4, &st);
      fill(rb, n, rank, tag + 5);
      MPI_Sendrecv_replace(rb, n, MPI_INT, next, tag + 5, MPI_ANY_SOURCE, tag + 5, MPI_COMM_WORLD, &st);
      expect("sendrecv_replace", rb, n, prev, tag + 5, &st);
    }
  }
  char what[128];
  snprintf(what, sizeof what, "%d processes, %d repetitions x %d counts x 8 operations", size, reps, argc - 2);
  int rc = mg_test_mpi_summary(what);
  free(sb);
  free(rb);
  MPI_Finalize();
  return rc;
}
