/*
 * Per-call cost of the interposition layer: a one-element MPI_Allreduce (or the collective named:
 * barrier, exscan, reduce_scatter, gatherv, scatterv, alltoallv, alltoallw; the non-blocking iallreduce
 * and iallgather, each posted and waited for (iallgatherv: what iallgather_as_iallgatherv posts); allgather_start, a persistent MPI_Allgather_init made
 * once, then MPI_Start + MPI_Wait per call; or comm_rank,
 * MPI_Comm_rank, a function whose wrapper is generated) on MPI_COMM_SELF, called N times (default one million) after a
 * warm-up; prints nanoseconds per call. A plain MPI program: run it with and without
 * LD_PRELOAD=libmpiguide.so (scripts/bench-overhead.sh does, side by side).
 *
 * Point-to-point (issue 18: MPI_Send and MPI_Recv are frequent, the pass-through must cost nothing
 * measurable), 1-byte messages:
 *   send_recv_self    to itself on MPI_COMM_SELF (one process): MPI_Irecv + MPI_Send + MPI_Wait,
 *                     then MPI_Isend + MPI_Recv + MPI_Wait (an MPI_Send to itself before its
 *                     receive is posted may block for good: MPICH 4.0's does)
 *   isend_irecv_self  MPI_Irecv + MPI_Isend to itself, two MPI_Wait (one process)
 *   pingpong          2 ranks: MPI_Send / MPI_Recv ping-pong
 *   pingpong_isend    2 ranks: the same with MPI_Irecv + MPI_Isend + MPI_Wait
 * The figure printed is per intercepted call: an iteration's time over its intercepted calls (4 in
 * send_recv_self, 2 in isend_irecv_self; 4 per round trip in the ping-pongs, all on its critical
 * path; MPI_Wait is not intercepted), so the difference
 * with and without the library is the cost each call adds. Rank 0 prints.
 *
 * Allocations: run with LD_PRELOAD of libmgmalloccount.so (benchmarks/malloc_count.c) too, and the
 * line ends with the number of malloc/calloc/realloc/aligned allocations the process made inside
 * the timed loop (found with dlsym; without the counter nothing is printed).
 *
 * allreduce_pair: the one-element MPI_Allreduce on MPI_COMM_WORLD of 2 ranks (online tuning learns
 * only on communicators of two or more processes: scripts/bench-overhead.sh compares a learned
 * cell's calls with the same choice read from a profile).
 *
 * Usage: overhead [calls [collective or mode]]
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + 1e-9 * ts.tv_nsec;
}

static const int one[1] = {1}, zero[1] = {0};
static const MPI_Datatype dbl[1] = {MPI_DOUBLE};

/* allgather_start: MPI-4.0's MPI_Allgather_init (Open MPI 4.1: MPIX_Allgather_init, mpi-ext.h). */
#if defined(OPEN_MPI)
#include <mpi-ext.h>
#define allgather_init MPIX_Allgather_init
#else
#define allgather_init MPI_Allgather_init
#endif
static MPI_Request persistent_q = MPI_REQUEST_NULL;
/* ineighbor_alltoall: a one-process line without periods (both neighbours MPI_PROC_NULL, made in main). */
static MPI_Comm line_comm = MPI_COMM_NULL;

/* One call of the collective k; its result into *out (1 for a barrier). */
static void call(int k, const double *in, double *out) {
  switch (k) {
  case 1: MPI_Barrier(MPI_COMM_SELF), *out = 1; break;
  case 2: MPI_Exscan(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF), *out = 1; break; /* undefined on rank 0 */
  case 3: MPI_Reduce_scatter(in, out, one, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF); break;
  case 4: MPI_Gatherv(in, 1, MPI_DOUBLE, out, one, zero, MPI_DOUBLE, 0, MPI_COMM_SELF); break;
  case 5: MPI_Scatterv(in, one, zero, MPI_DOUBLE, out, 1, MPI_DOUBLE, 0, MPI_COMM_SELF); break;
  case 6: MPI_Alltoallv(in, one, zero, MPI_DOUBLE, out, one, zero, MPI_DOUBLE, MPI_COMM_SELF); break;
  case 7: MPI_Alltoallw(in, one, zero, dbl, out, one, zero, dbl, MPI_COMM_SELF); break;
  case 8: MPI_Allreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD), *out /= 2; break; /* 2 ranks */
  case 9: { /* a function libmpiguide does not tune: its generated wrapper (lib/acct.h) */
    int r = -1;
    MPI_Comm_rank(MPI_COMM_SELF, &r);
    *out = r + 1;
    break;
  }
  case 10: { /* the non-blocking forms (issue 48): post, then MPI_Wait */
    MPI_Request q;
    MPI_Iallreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    break;
  }
  case 11: {
    MPI_Request q;
    MPI_Iallgather(in, 1, MPI_DOUBLE, out, 1, MPI_DOUBLE, MPI_COMM_SELF, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    break;
  }
  case 13: { /* what iallgather_as_iallgatherv calls: the baseline of its tuned-fire variant */
    MPI_Request q;
    MPI_Iallgatherv(in, 1, MPI_DOUBLE, out, one, zero, MPI_DOUBLE, MPI_COMM_SELF, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    break;
  }
  case 14: { /* a neighbourhood collective's non-blocking form (issue 48): nothing moves, the path alone */
    MPI_Request q;
    double r[2];
    MPI_Ineighbor_alltoall(in, 1, MPI_DOUBLE, r, 1, MPI_DOUBLE, line_comm, &q);
    MPI_Wait(&q, MPI_STATUS_IGNORE);
    *out = 1;
    break;
  }
  case 15: { /* its blocking twin, the baseline of ineighbor_alltoall's paths */
    double r[2];
    MPI_Neighbor_alltoall(in, 1, MPI_DOUBLE, r, 1, MPI_DOUBLE, line_comm);
    *out = 1;
    break;
  }
  case 12: /* the persistent Allgather made once in main (persistent_q), started and waited for */
    MPI_Start(&persistent_q);
    MPI_Wait(&persistent_q, MPI_STATUS_IGNORE);
    break;
  default: MPI_Allreduce(in, out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_SELF); break;
  }
}

/* The timed loop: n calls of collective k, the sum of their results. Out of line and named, so that
 * an instruction count can be taken of it alone (scripts/bench-overhead.sh INSTR=1: valgrind
 * --tool=callgrind --collect-atstart=no --toggle-collect=mg_timed_loop). */
__attribute__((noinline)) double mg_timed_loop(int k, long n, const double *in, double *out) {
  double sum = 0;
  for (long i = 0; i < n; i++) {
    call(k, in, out);
    sum += *out;
  }
  return sum;
}

/* The point-to-point modes; returns 0 if every message arrived. Rank 0 prints. */
static const char *const p2p_names[] = {"send_recv_self", "isend_irecv_self", "pingpong", "pingpong_isend"};

static int p2p(long n, int k, size_t (*allocs)(void)) {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int pair = k >= 2, calls = k == 1 ? 2 : 4; /* intercepted calls per iteration (round trip) */
  if (pair && size != 2) {
    if (rank == 0) fprintf(stderr, "overhead: %s needs 2 ranks\n", p2p_names[k]);
    return 2;
  }
  MPI_Comm comm = pair ? MPI_COMM_WORLD : MPI_COMM_SELF;
  int peer = pair ? 1 - rank : 0;
  char out = 1, in = 0;
  long sum = 0;
  double t0 = 0;
  size_t a0 = 0;
  MPI_Request rq[2];
  for (long i = -n / 10; i < n; i++) {
    if (i == 0) {
      MPI_Barrier(MPI_COMM_WORLD);
      a0 = allocs ? allocs() : 0;
      t0 = now();
    }
    switch (k) {
    case 0:
      MPI_Irecv(&in, 1, MPI_CHAR, 0, 1, comm, &rq[0]);
      MPI_Send(&out, 1, MPI_CHAR, 0, 1, comm);
      MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
      MPI_Isend(&out, 1, MPI_CHAR, 0, 2, comm, &rq[1]);
      MPI_Recv(&in, 1, MPI_CHAR, 0, 2, comm, MPI_STATUS_IGNORE);
      MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
      break;
    case 1:
      MPI_Irecv(&in, 1, MPI_CHAR, 0, 1, comm, &rq[0]);
      MPI_Isend(&out, 1, MPI_CHAR, 0, 1, comm, &rq[1]);
      MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
      MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
      break;
    case 2:
      if (rank == 0) {
        MPI_Send(&out, 1, MPI_CHAR, peer, 1, comm);
        MPI_Recv(&in, 1, MPI_CHAR, peer, 1, comm, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(&in, 1, MPI_CHAR, peer, 1, comm, MPI_STATUS_IGNORE);
        MPI_Send(&out, 1, MPI_CHAR, peer, 1, comm);
      }
      break;
    default:
      if (rank == 0) {
        MPI_Irecv(&in, 1, MPI_CHAR, peer, 1, comm, &rq[0]);
        MPI_Isend(&out, 1, MPI_CHAR, peer, 1, comm, &rq[1]);
        MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
        MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
      } else {
        MPI_Irecv(&in, 1, MPI_CHAR, peer, 1, comm, &rq[0]);
        MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
        MPI_Isend(&out, 1, MPI_CHAR, peer, 1, comm, &rq[1]);
        MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
      }
      break;
    }
    if (i >= 0) sum += in, in = 0;
  }
  double t = now() - t0;
  size_t a = allocs ? allocs() - a0 : 0;
  if (rank == 0) {
    printf("%.2f ns/call (%ld iterations of %s, %d intercepted calls each, %.1f ns per iteration, checksum %ld)",
           1e9 * t / ((double)n * calls), n, p2p_names[k], calls, 1e9 * t / n, sum);
    if (allocs) printf(" allocations in the timed loop: %zu", a);
    printf("\n");
  }
  return sum == n ? 0 : 1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  long n = argc > 1 ? atol(argv[1]) : 1000000;
  if (n < 1) n = 1000000;
  size_t (*allocs)(void) = (size_t(*)(void))dlsym(RTLD_DEFAULT, "mg_malloc_calls");
  for (int i = 0; argc > 2 && i < 4; i++)
    if (!strcmp(argv[2], p2p_names[i])) {
      int rc = p2p(n, i, allocs);
      MPI_Finalize();
      return rc;
    }
  static const char *const names[] = {"allreduce", "barrier",   "exscan",    "reduce_scatter", "gatherv",
                                      "scatterv",  "alltoallv", "alltoallw", "allreduce_pair", "comm_rank",
                                      "iallreduce", "iallgather", "allgather_start", "iallgatherv",
                                      "ineighbor_alltoall", "neighbor_alltoall"};
  int k = 0, rank = 0, size = 1;
  for (int i = 0; argc > 2 && i < (int)(sizeof names / sizeof *names); i++)
    if (!strcmp(argv[2], names[i])) k = i;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if ((k == 8) != (size == 2)) {
    if (rank == 0) fprintf(stderr, "overhead: allreduce_pair needs 2 ranks, the others 1\n");
    MPI_Finalize();
    return 2;
  }
  double in = 1.0, out = 0.0, sum = 0.0;
  if (k == 14 || k == 15) {
    int dims[1] = {1}, periods[1] = {0};
    MPI_Cart_create(MPI_COMM_SELF, 1, dims, periods, 0, &line_comm);
  }
  if (k == 12) allgather_init(&in, 1, MPI_DOUBLE, &out, 1, MPI_DOUBLE, MPI_COMM_SELF, MPI_INFO_NULL, &persistent_q);
  for (long i = 0; i < n / 10; i++) call(k, &in, &out);
  size_t a0 = allocs ? allocs() : 0;
  double t0 = now();
  sum = mg_timed_loop(k, n, &in, &out);
  double t = now() - t0;
  size_t a = allocs ? allocs() - a0 : 0;
  if (rank == 0) {
    printf("%.2f ns/call (%ld calls of MPI_%s, checksum %.0f)", 1e9 * t / n, n, names[k], sum);
    if (allocs) printf(" allocations in the timed loop: %zu", a);
    printf("\n");
  }
  if (persistent_q != MPI_REQUEST_NULL) MPI_Request_free(&persistent_q);
  if (line_comm != MPI_COMM_NULL) MPI_Comm_free(&line_comm);
  MPI_Finalize();
  return sum == (double)n ? 0 : 1;
}
