/*
 * Online tuning (MPIGUIDE_PROFILE=auto) under the conditions that could make
 * the ranks choose differently: run by run_online.sh with libmpiguide linked,
 * MPIGUIDE_PROFILE=auto and a trace (which turns on the call counters).
 *
 *   online_app skew     planted skew: before every call each rank sleeps a
 *                       random time of its own (its local timings of the
 *                       candidates differ from the other ranks'), the last rank
 *                       150 us more (a slow rank: the others wait), over several
 *                       collectives and sizes, each called often enough that its
 *                       cell decides
 *   online_app churn    communicators created and freed while they explore
 *                       (duplicates of MPI_COMM_WORLD, halves from
 *                       MPI_Comm_split), next to a long-lived one
 *   online_app threads  MPI_THREAD_MULTIPLE: two threads explore at once, each
 *                       on its own communicator and collective
 *   online_app phases   sizes that change over time: small, then large, then
 *                       small again (its cell has decided by then)
 *   online_app few      a cell called fewer times than it needs to decide
 *   online_app nbc      non-blocking collectives posted in an order that a blocking post would
 *                       deadlock: rank 0 posts MPI_Iallreduce and MPI_Ibcast, then sends to rank 1,
 *                       which receives before it posts; then every rank waits. Online tuning must
 *                       leave them to the default (no trial's barrier or agreement in a post)
 *
 * After every call the rank finds out which algorithm ran (the difference of
 * its mpiguide_calls counters) and the communicator's ranks compare it with
 * PMPI_Allgather: the same algorithm must have run on every rank in every
 * call. Every result is compared with the MPI library's own (PMPI_). Prints
 * "online_app: OK (<mode>: ...)" and exits 0, or names the first calls that
 * went wrong (common/test_mpi.h) and exits 1.
 */
#include <mpi.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "common/test_mpi.h"
#include "mpiguide.h"

#define MAXALG 32

static int rank, size;
static unsigned seed;

/* The algorithms of a collective by index, from mpiguide list order: asked by name through the
 * registry names the program is given (argv-free: the counters answer -1 for an unknown name). */
static const char *const *algs_of(const char *coll, int *n);

/* Which algorithm ran in the call between before[] and now: its index, -1 if none or several. */
static int which_ran(const char *coll, const long long *before) {
  int n, hit = -1;
  const char *const *a = algs_of(coll, &n);
  for (int i = 0; i < n; i++) {
    long long c = mpiguide_calls(coll, a[i]);
    if (c != before[i]) {
      if (hit >= 0 || c != before[i] + 1) return -1;
      hit = i;
    }
  }
  return hit;
}

static void take(const char *coll, long long *before) {
  int n;
  const char *const *a = algs_of(coll, &n);
  for (int i = 0; i < n; i++) before[i] = mpiguide_calls(coll, a[i]);
}

/* Every rank of comm ran the same algorithm of coll in this call. */
static void same_everywhere(const char *coll, const long long *before, MPI_Comm comm, long call) {
  int mine = which_ran(coll, before), p;
  MPI_Comm_size(comm, &p);
  int *all = malloc((size_t)p * sizeof *all);
  PMPI_Allgather(&mine, 1, MPI_INT, all, 1, MPI_INT, comm);
  int n;
  const char *const *a = algs_of(coll, &n);
  int i = 0;
  while (i < p && all[i] == all[0] && all[i] >= 0) i++;
  ASSERT_MSG(i == p, "%s call %ld: DIFFERENT ALGORITHMS: rank 0 of the communicator ran %s, its rank %d ran %s", coll,
             call, all[0] >= 0 ? a[all[0]] : "?", i, all[i] >= 0 ? a[all[i]] : "? (no single algorithm counted)");
  free(all);
}

/* ---- the algorithm names, read once from `mpiguide list --csv`'s output given in the environment */

#define MAXCOLL 8
static struct {
  char coll[32];
  int n;
  char *name[MAXALG];
} known[MAXCOLL];
static int nknown;

/* MG_ALGS="coll:alg,alg,...;coll:..." (run_online.sh writes it from `mpiguide list`). */
static void read_algs(void) {
  const char *env = getenv("MG_ALGS");
  if (!env) {
    fprintf(stderr, "online_app: MG_ALGS is not set (run it through run_online.sh)\n");
    exit(2);
  }
  char *s = strdup(env), *save = NULL;
  for (char *g = strtok_r(s, ";", &save); g && nknown < MAXCOLL; g = strtok_r(NULL, ";", &save)) {
    char *colon = strchr(g, ':');
    if (!colon) continue;
    *colon = '\0';
    snprintf(known[nknown].coll, sizeof known[nknown].coll, "%s", g);
    char *save2 = NULL;
    for (char *a = strtok_r(colon + 1, ",", &save2); a && known[nknown].n < MAXALG; a = strtok_r(NULL, ",", &save2))
      known[nknown].name[known[nknown].n++] = strdup(a);
    nknown++;
  }
  free(s);
}

static const char *const *algs_of(const char *coll, int *n) {
  for (int i = 0; i < nknown; i++)
    if (!strcmp(known[i].coll, coll)) return *n = known[i].n, (const char *const *)known[i].name;
  fprintf(stderr, "online_app: no algorithms of %s in MG_ALGS\n", coll);
  exit(2);
}

/* ---- the calls, each checked against the library's own result ---------------------------------- */

/* The intercepted call stmt of collective coll on comm, after this rank's skew (if any); then every
 * rank of comm must have run the same algorithm in it. */
#define INTERCEPTED(coll, comm, call, skew, stmt)                                                      \
  do {                                                                                                 \
    long long before_[MAXALG];                                                                         \
    take(coll, before_);                                                                               \
    pause_skewed(skew);                                                                                \
    stmt;                                                                                              \
    same_everywhere(coll, before_, comm, call);                                                        \
  } while (0)

static void pause_skewed(int skew) {
  if (!skew) return;
  seed = seed * 1103515245u + 12345u;
  unsigned us = (seed >> 16) % 200; /* 0..199 us, a different sequence on every rank */
  if (rank == size - 1) us += 150;   /* and a planted slow rank: the last one arrives late every time */
  if (us > 20) usleep(us);
}

static void check_doubles(const char *what, long call, const double *got, const double *want, int n) {
  int i = 0;
  while (i < n && got[i] == want[i]) i++;
  ASSERT_MSG(i == n, "%s call %ld: WRONG RESULT element %d: got %g, want %g", what, call, i, got[i], want[i]);
}

static void allreduce_once(MPI_Comm comm, int n, long call, int skew) {
  int r;
  MPI_Comm_rank(comm, &r);
  double *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * sizeof *out),
         *want = malloc((size_t)n * sizeof *want);
  for (int i = 0; i < n; i++) in[i] = (double)((r + 1) * (i % 97) + call % 13); /* exact in any order */
  INTERCEPTED("allreduce", comm, call, skew, MPI_Allreduce(in, out, n, MPI_DOUBLE, MPI_SUM, comm));
  PMPI_Allreduce(in, want, n, MPI_DOUBLE, MPI_SUM, comm);
  check_doubles("allreduce", call, out, want, n);
  free(in), free(out), free(want);
}

static void bcast_once(MPI_Comm comm, int n, int root, long call, int skew) {
  int r;
  MPI_Comm_rank(comm, &r);
  double *buf = malloc((size_t)n * sizeof *buf), *want = malloc((size_t)n * sizeof *want);
  for (int i = 0; i < n; i++) buf[i] = want[i] = r == root ? (double)(i + call) : -1;
  PMPI_Bcast(want, n, MPI_DOUBLE, root, comm);
  INTERCEPTED("bcast", comm, call, skew, MPI_Bcast(buf, n, MPI_DOUBLE, root, comm));
  check_doubles("bcast", call, buf, want, n);
  free(buf), free(want);
}

static void reduce_once(MPI_Comm comm, int n, int root, long call, int skew) {
  int r;
  MPI_Comm_rank(comm, &r);
  double *in = malloc((size_t)n * sizeof *in), *out = calloc((size_t)n, sizeof *out),
         *want = calloc((size_t)n, sizeof *want);
  for (int i = 0; i < n; i++) in[i] = (double)(r * 3 + i % 11);
  INTERCEPTED("reduce", comm, call, skew, MPI_Reduce(in, out, n, MPI_DOUBLE, MPI_MAX, root, comm));
  PMPI_Reduce(in, want, n, MPI_DOUBLE, MPI_MAX, root, comm);
  if (r == root) check_doubles("reduce", call, out, want, n);
  free(in), free(out), free(want);
}

static void allgather_once(MPI_Comm comm, int n, long call, int skew) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  double *in = malloc((size_t)n * sizeof *in), *out = malloc((size_t)n * p * sizeof *out),
         *want = malloc((size_t)n * p * sizeof *want);
  for (int i = 0; i < n; i++) in[i] = (double)(r * 1000 + i + call);
  INTERCEPTED("allgather", comm, call, skew, MPI_Allgather(in, n, MPI_DOUBLE, out, n, MPI_DOUBLE, comm));
  PMPI_Allgather(in, n, MPI_DOUBLE, want, n, MPI_DOUBLE, comm);
  check_doubles("allgather", call, out, want, n * p);
  free(in), free(out), free(want);
}

/* ---- the modes -------------------------------------------------------------------------------- */

/* nbc: rank 0 posts, then sends to rank 1, which receives first: a post that waited for the other
 * ranks (a trial's barrier, an agreement) would hang here. The results are the library's. */
static void run_nbc(long calls) {
  enum { N = 64 };
  double in[N], out[N], want[N], b[N], bwant[N];
  for (long k = 0; k < calls; k++) {
    for (int i = 0; i < N; i++) in[i] = (double)((rank + 1) * (i % 7) + k % 5), b[i] = rank == 0 ? (double)(i + k) : -1;
    MPI_Request q[2];
    int token = (int)k;
    if (rank == 1) MPI_Recv(&token, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    long long ar[MAXALG], bc[MAXALG]; /* compared after the wait: comparing in between would block too */
    take("iallreduce", ar), take("ibcast", bc);
    MPI_Iallreduce(in, out, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &q[0]);
    MPI_Ibcast(b, N, MPI_DOUBLE, 0, MPI_COMM_WORLD, &q[1]);
    if (rank == 0 && size > 1) MPI_Send(&token, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    MPI_Status st[2]; /* not MPI_STATUSES_IGNORE: GCC 12 flags MPICH's (MPI_Status *)1 at the call */
    MPI_Waitall(2, q, st);
    same_everywhere("iallreduce", ar, MPI_COMM_WORLD, k);
    same_everywhere("ibcast", bc, MPI_COMM_WORLD, k);
    ASSERT_MSG(token == (int)k, "nbc call %ld: the token is %d", k, token);
    PMPI_Allreduce(in, want, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < N; i++) bwant[i] = (double)(i + k);
    check_doubles("iallreduce", k, out, want, N);
    check_doubles("ibcast", k, b, bwant, N);
  }
}

static void run_skew(long calls) {
  for (long k = 0; k < calls; k++) {
    allreduce_once(MPI_COMM_WORLD, 1, k, 1);
    allreduce_once(MPI_COMM_WORLD, 512, k, 1);
    bcast_once(MPI_COMM_WORLD, 128, (int)(k % size), k, 1);
    reduce_once(MPI_COMM_WORLD, 2048, size - 1, k, 1);
    allgather_once(MPI_COMM_WORLD, 32, k, 1);
  }
}

static void run_churn(long calls) {
  MPI_Comm keep;
  MPI_Comm_dup(MPI_COMM_WORLD, &keep);
  for (long k = 0; k < calls; k++) {
    MPI_Comm dup, half;
    MPI_Comm_dup(MPI_COMM_WORLD, &dup); /* often the handle just freed: it must start afresh */
    MPI_Comm_split(MPI_COMM_WORLD, rank % 2, size - rank, &half);
    int hp;
    MPI_Comm_size(half, &hp);
    for (int j = 0; j < 7; j++) {
      allreduce_once(dup, 16, k * 7 + j, 0);
      bcast_once(half, 64, j % hp, k * 7 + j, 0);
      allreduce_once(keep, 4, k * 7 + j, 0);
    }
    MPI_Comm_free(&dup);
    MPI_Comm_free(&half);
  }
  MPI_Comm_free(&keep);
}

typedef struct {
  MPI_Comm comm;
  long calls;
  int which;
} targ;

static void *thread_main(void *p) {
  targ *a = p;
  for (long k = 0; k < a->calls; k++)
    if (a->which == 0)
      allreduce_once(a->comm, 64, k, 0);
    else
      bcast_once(a->comm, 256, (int)(k % size), k, 0);
  return NULL;
}

static int run_threads(long calls) {
  targ t[2];
  pthread_t th[2];
  for (int i = 0; i < 2; i++) {
    MPI_Comm_dup(MPI_COMM_WORLD, &t[i].comm);
    t[i].calls = calls;
    t[i].which = i;
  }
  for (int i = 0; i < 2; i++) pthread_create(&th[i], NULL, thread_main, &t[i]);
  for (int i = 0; i < 2; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < 2; i++) MPI_Comm_free(&t[i].comm);
  return 0;
}

static void run_phases(long calls) {
  for (long k = 0; k < calls; k++) allreduce_once(MPI_COMM_WORLD, 2, k, 0);            /* 16 B */
  for (long k = 0; k < calls; k++) allreduce_once(MPI_COMM_WORLD, 8192, calls + k, 0); /* 64 KiB */
  for (long k = 0; k < 20; k++) allreduce_once(MPI_COMM_WORLD, 2, 2 * calls + k, 0);  /* decided: its choice */
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "skew";
  long calls = argc > 2 ? atol(argv[2]) : 400;
  int provided = MPI_THREAD_SINGLE;
  if (!strcmp(mode, "threads"))
    MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  else
    MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mg_test_mpi_start("online_app");
  mg_test_max_shown = 10;
  seed = 2654435761u * (unsigned)(rank + 1) ^ (unsigned)time(NULL);
  read_algs();
  if (!strcmp(mode, "skew"))
    run_skew(calls);
  else if (!strcmp(mode, "churn"))
    run_churn(calls);
  else if (!strcmp(mode, "threads")) {
    if (provided < MPI_THREAD_MULTIPLE) {
      if (rank == 0) printf("online_app: SKIP: the MPI library gives no MPI_THREAD_MULTIPLE\n");
      MPI_Finalize();
      return 0;
    }
    run_threads(calls);
  } else if (!strcmp(mode, "phases"))
    run_phases(calls);
  else if (!strcmp(mode, "few"))
    for (long k = 0; k < calls; k++) allreduce_once(MPI_COMM_WORLD, 1, k, 0);
  else if (!strcmp(mode, "nbc"))
    run_nbc(calls);
  else {
    fprintf(stderr, "online_app: unknown mode '%s'\n", mode);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char what[200];
  snprintf(what, sizeof what, "%s: every call ran the same algorithm on every rank, results right", mode);
  int rc = mg_test_mpi_summary(what);
  MPI_Finalize();
  return rc;
}
