/*
 * The LogGP measurement (loggp_measure.h): PRTT(n,d,s) after Hoefler, Lichei and Rehm, between
 * a client (sends the n messages, times the round trip) and a server (receives them, replies
 * with one message of the same size). Before each series the client sends the server its kind,
 * size, n and d; after the warm-up it sends the number of repetitions, sized from the warm-up,
 * so both sides run the same count. For o_r the client sends back to back and the server waits
 * d before each receive but the first, so the message has arrived, and times the receive.
 * Timer: clock_gettime(CLOCK_MONOTONIC) (src/bench/timer.c); medians: src/util/sort.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/sample.h"
#include "model/loggp_measure.h"
#include "util/fmt.h"

enum { TAG_CTL = 7201, TAG_MSG = 7202, TAG_REPLY = 7203, TAG_RING = 7204 };
enum { KIND_END, KIND_PRTT, KIND_OR };

typedef struct pair {
  MPI_Comm comm;
  int peer;
  mg_now_fn now;
  char *sbuf, *rbuf;
  double *x; /* samples, max_nrep */
} pair;

static void spin(mg_now_fn now, double d) {
  double t = now();
  while (now() - t < d) {
  }
}

/* One round of a series, client side: its time. */
static int client_round(pair *P, int kind, int k, int s, double d, double *t) {
  int rc = MPI_SUCCESS;
  double t0 = P->now();
  for (int i = 0; i < k && rc == MPI_SUCCESS; i++) {
    rc = PMPI_Send(P->sbuf, s, MPI_BYTE, P->peer, TAG_MSG, P->comm);
    if (kind == KIND_PRTT && d > 0 && i < k - 1) spin(P->now, d);
  }
  if (rc == MPI_SUCCESS) rc = PMPI_Recv(P->rbuf, s, MPI_BYTE, P->peer, TAG_REPLY, P->comm, MPI_STATUS_IGNORE);
  *t = P->now() - t0;
  return rc;
}

/* One round, server side; for KIND_OR *o: the mean time of the timed receives. */
static int server_round(pair *P, int kind, int k, int s, double d, double *o) {
  int rc = PMPI_Recv(P->rbuf, s, MPI_BYTE, P->peer, TAG_MSG, P->comm, MPI_STATUS_IGNORE);
  double acc = 0;
  for (int i = 1; i < k && rc == MPI_SUCCESS; i++) {
    if (kind == KIND_OR) spin(P->now, d);
    double t0 = P->now();
    rc = PMPI_Recv(P->rbuf, s, MPI_BYTE, P->peer, TAG_MSG, P->comm, MPI_STATUS_IGNORE);
    acc += P->now() - t0;
  }
  if (rc == MPI_SUCCESS) rc = PMPI_Send(P->sbuf, s, MPI_BYTE, P->peer, TAG_REPLY, P->comm);
  *o = k > 1 ? acc / (k - 1) : 0;
  return rc;
}

static double median(double *x, long n) { return mg_median_inplace(x, (size_t)n); }

/* A series on the client: warm-up, the count, the measured rounds. *med: the median round trip;
 * *noise: the larger of *noise and the relative standard error of that median; for KIND_OR, *o_r: the server's median
 * receive time. */
static int client_series(pair *P, const mg_loggp_cfg *cfg, int kind, int k, int s, double d, double *med,
                         double *noise, double *o_r) {
  int warm = cfg->warmup > 0 ? cfg->warmup : 1;
  double h[5] = {kind, warm, k, s, d};
  int rc = PMPI_Send(h, 5, MPI_DOUBLE, P->peer, TAG_CTL, P->comm);
  for (int r = 0; r < warm && rc == MPI_SUCCESS; r++) rc = client_round(P, kind, k, s, d, &P->x[r]);
  if (rc != MPI_SUCCESS) return rc;
  double w = median(P->x, warm), want = w > 0 ? cfg->time_per / w : cfg->max_nrep;
  long nrep = want > cfg->max_nrep ? cfg->max_nrep : want < cfg->min_nrep ? cfg->min_nrep : (long)want;
  double nr = (double)nrep;
  rc = PMPI_Send(&nr, 1, MPI_DOUBLE, P->peer, TAG_CTL, P->comm);
  for (long r = 0; r < nrep && rc == MPI_SUCCESS; r++) rc = client_round(P, kind, k, s, d, &P->x[r]);
  if (rc != MPI_SUCCESS) return rc;
  *med = median(P->x, nrep);
  double rse = mg_rse_median_sorted(P->x, nrep);
  if (!isfinite(rse)) rse = 1; /* fewer than 3 repetitions: unknown */
  if (rse > *noise) *noise = rse;
  if (kind == KIND_OR) rc = PMPI_Recv(o_r, 1, MPI_DOUBLE, P->peer, TAG_CTL, P->comm, MPI_STATUS_IGNORE);
  return rc;
}

static int server(pair *P) {
  for (;;) {
    double h[5], nr = 0, o;
    int rc = PMPI_Recv(h, 5, MPI_DOUBLE, P->peer, TAG_CTL, P->comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return rc;
    int kind = (int)h[0], warm = (int)h[1], k = (int)h[2], s = (int)h[3];
    if (kind == KIND_END) return MPI_SUCCESS;
    for (int r = 0; r < warm && rc == MPI_SUCCESS; r++) rc = server_round(P, kind, k, s, h[4], &o);
    if (rc == MPI_SUCCESS) rc = PMPI_Recv(&nr, 1, MPI_DOUBLE, P->peer, TAG_CTL, P->comm, MPI_STATUS_IGNORE);
    long nrep = (long)nr;
    for (long r = 0; r < nrep && rc == MPI_SUCCESS; r++) rc = server_round(P, kind, k, s, h[4], &P->x[r]);
    if (rc != MPI_SUCCESS) return rc;
    if (kind == KIND_OR) {
      double m = median(P->x, nrep);
      if ((rc = PMPI_Send(&m, 1, MPI_DOUBLE, P->peer, TAG_CTL, P->comm)) != MPI_SUCCESS) return rc;
    }
  }
}

/* The client's whole class: every size, four series each, into c's measured columns. */
static int client(pair *P, const mg_loggp_cfg *cfg, mg_loggp_class *c, const char *label, double t_start,
                  int step0, int nsteps) {
  int rc = MPI_SUCCESS, k = cfg->n;
  double o_r = 0;
  c->n = k;
  c->npts = cfg->nsizes;
  for (int i = 0; i < cfg->nsizes && rc == MPI_SUCCESS; i++) {
    int s = (int)cfg->sizes[i];
    double p1 = 0, pn = 0, pd = 0, pr = 0, *col_d = &c->col[MG_LC_DELAY][i], *noise = &c->col[MG_LC_NOISE][i];
    c->col[MG_LC_SIZE][i] = s;
    rc = client_series(P, cfg, KIND_PRTT, 1, s, 0, &p1, noise, NULL);
    if (rc == MPI_SUCCESS) rc = client_series(P, cfg, KIND_PRTT, k, s, 0, &pn, noise, NULL);
    double gap = (pn - p1) / (k - 1);
    *col_d = p1 > 2 * gap ? p1 : 2 * gap;
    if (rc == MPI_SUCCESS) rc = client_series(P, cfg, KIND_PRTT, k, s, *col_d, &pd, noise, NULL);
    if (rc == MPI_SUCCESS) rc = client_series(P, cfg, KIND_OR, k, s, *col_d, &pr, noise, &o_r);
    c->col[MG_LC_PRTT1][i] = p1;
    c->col[MG_LC_PRTTN][i] = pn;
    c->col[MG_LC_PRTTD][i] = pd;
    c->col[MG_LC_OR][i] = o_r;
    if (cfg->progress) {
      char what[64], sz[32];
      snprintf(what, sizeof what, "%s %s", label, mg_fmt_bytes(cfg->sizes[i], MG_BYTES_IEC, sz, sizeof sz));
      cfg->progress((double)(step0 + i + 1) / nsteps, P->now() - t_start, what, cfg->arg);
    }
  }
  double h[5] = {KIND_END, 0, 0, 0, 0};
  if (rc == MPI_SUCCESS) rc = PMPI_Send(h, 5, MPI_DOUBLE, P->peer, TAG_CTL, P->comm);
  return rc;
}

/* Per-byte time of memcpy (reduce = 0) or MPI_Reduce_local(MPI_SUM, MPI_DOUBLE) over `bytes`:
 * the median of repetitions for about 50 ms (at least 5). */
static int local_cost(int reduce, size_t bytes, mg_now_fn now, double *per_byte) {
  size_t count = bytes / sizeof(double);
  double *a = malloc(count * sizeof *a), *b = malloc(count * sizeof *b), x[200];
  int rc = MPI_SUCCESS, r = 0;
  if (!a || !b) {
    free(a);
    free(b);
    return MPI_ERR_NO_MEM;
  }
  for (size_t i = 0; i < count; i++) a[i] = b[i] = 1.0;
  double start = now();
  for (r = 0; r < 200 && (r < 5 || now() - start < 0.05); r++) {
    double t0 = now();
    if (reduce) rc = PMPI_Reduce_local(a, b, (int)count, MPI_DOUBLE, MPI_SUM);
    else memcpy(b, a, count * sizeof *a);
    x[r] = now() - t0;
    if (reduce && (r & 7) == 7)
      for (size_t i = 0; i < count; i++) b[i] = 1.0; /* keep the sums small */
    if (rc != MPI_SUCCESS) break;
  }
  *per_byte = median(x, r) / (double)(count * sizeof *a);
  free(a);
  free(b);
  return rc;
}

/* The MAX of *in (one element of type) over comm into *out. A rank that waits for a pair it is not
 * part of (idle) sleeps between tests instead of spinning in the MPI library: on a node with more
 * ranks than processors (MPICH polls while it waits) a spinning rank would take a processor from the
 * pair measured. */
static int quiet_max(const void *in, void *out, MPI_Datatype type, int idle, MPI_Comm comm) {
  MPI_Request req;
  int done = 0, rc = PMPI_Iallreduce(in, out, 1, type, MPI_MAX, comm, &req);
  const struct timespec nap = {0, 200000}; /* 0.2 ms: small against a pair's seconds of measurement */
  while (rc == MPI_SUCCESS && !done) {
    rc = PMPI_Test(&req, &done, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && !done && idle) nanosleep(&nap, NULL);
  }
  return rc;
}

/* The node layout: each rank's node, named by its lowest rank, into leader[0..p) (from cfg->node_of,
 * or the shared-memory split of comm into *node, freed by the caller); the nodes, ranks per node and
 * the processors of the smallest node into lf. Collective over comm; an MPI error code. */
static int node_layout(MPI_Comm comm, const mg_loggp_cfg *cfg, int rank, int *leader, MPI_Comm *node,
                       mg_loggp_file *lf) {
  int p = lf->p, me = rank, rc;
  if (cfg->node_of) { /* a given layout: the lowest rank with the same id */
    for (int r = 0; r < p; r++) {
      leader[r] = r;
      for (int q = 0; q < r; q++)
        if (cfg->node_of[q] == cfg->node_of[r]) {
          leader[r] = q;
          break;
        }
    }
  } else {
    if ((rc = PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, node)) != MPI_SUCCESS) return rc;
    if ((rc = PMPI_Allreduce(MPI_IN_PLACE, &me, 1, MPI_INT, MPI_MIN, *node)) != MPI_SUCCESS) return rc;
    if ((rc = PMPI_Allgather(&me, 1, MPI_INT, leader, 1, MPI_INT, comm)) != MPI_SUCCESS) return rc;
  }
  /* the processors of the smallest node: a node runs more busy ranks than these by turns */
  int cores = (int)sysconf(_SC_NPROCESSORS_ONLN);
  if (cores < 1) cores = 0;
  if ((rc = PMPI_Allreduce(MPI_IN_PLACE, &cores, 1, MPI_INT, MPI_MIN, comm)) != MPI_SUCCESS) return rc;
  lf->cores = cores;
  lf->rpn_min = p;
  for (int r = 0; r < p; r++) {
    if (leader[r] != r) continue;
    int cnt = 0;
    for (int q = r; q < p; q++) cnt += leader[q] == r;
    lf->nodes++;
    if (cnt < lf->rpn_min) lf->rpn_min = cnt;
    if (cnt > lf->rpn_max) lf->rpn_max = cnt;
  }
  return MPI_SUCCESS;
}

/* The handoff (loggp.h, docs/loggp.md): on a node that runs more ranks than it has processors, a
 * message whose receiver waits is late by the time the receiver takes to get a processor back. The
 * ranks of every node pass 1-byte messages round a ring (PMPI_Sendrecv to the next, from the
 * previous, all at once), HANDOFF_ROUNDS rounds a repetition; then the first two of every node
 * alone, the others asleep (quiet_max), as the pair of the LogGP series is measured. A round's
 * time is the slowest node's, the median over HANDOFF_REPS repetitions: *all and *two (rank 0).
 * The handoff is the difference, *all - *two: a 1-byte round is a wait, not work, so no crowding
 * factor scales the round of two (doubled, it left no handoff in one of two runs at 4 ranks on 2
 * cores, where the round of two took 2 us). Not from the pair's PRTT(1,0,1) either: at 4 ranks its
 * smallest sizes were once measured 3.5 us under load where 32 B took 0.77 us. */
enum { HANDOFF_ROUNDS = 100, HANDOFF_REPS = 21 };
static int ring_series(MPI_Comm comm, MPI_Comm ring, int active, mg_now_fn now, double *round) {
  int r, q, rc = MPI_SUCCESS;
  PMPI_Comm_rank(ring, &r);
  PMPI_Comm_size(ring, &q);
  if (q > active) q = active;
  double x[HANDOFF_REPS];
  char out = 1, in = 0;
  for (int k = 0; k < HANDOFF_REPS && rc == MPI_SUCCESS; k++) {
    if ((rc = PMPI_Barrier(comm)) != MPI_SUCCESS) break;
    double t0 = now(), t;
    for (int i = 0; i < HANDOFF_ROUNDS && rc == MPI_SUCCESS && r < q && q > 1; i++)
      rc = PMPI_Sendrecv(&out, 1, MPI_BYTE, (r + 1) % q, TAG_RING, &in, 1, MPI_BYTE, (r + q - 1) % q, TAG_RING, ring,
                         MPI_STATUS_IGNORE);
    t = (now() - t0) / HANDOFF_ROUNDS;
    if (rc == MPI_SUCCESS) rc = quiet_max(&t, &x[k], MPI_DOUBLE, r >= q, comm);
  }
  if (rc == MPI_SUCCESS) *round = median(x, HANDOFF_REPS);
  return rc;
}

static int ring_rounds(MPI_Comm comm, const int *leader, int rank, mg_now_fn now, double *all, double *two) {
  MPI_Comm ring;
  int rc = PMPI_Comm_split(comm, leader[rank], rank, &ring);
  if (rc != MPI_SUCCESS) return rc;
  rc = ring_series(comm, ring, 1 << 30, now, all);
  if (rc == MPI_SUCCESS) rc = ring_series(comm, ring, 2, now, two);
  PMPI_Comm_free(&ring);
  return rc;
}

int mg_loggp_measure(MPI_Comm comm0, const mg_loggp_cfg *cfg, mg_loggp_file *lf) {
  MPI_Comm comm = MPI_COMM_NULL, node = MPI_COMM_NULL;
  int rank, p, rc, *leader = NULL;
  pair P;
  memset(&P, 0, sizeof P);
  P.now = mg_timer_fn(MG_TIMER_MONOTONIC);
  PMPI_Comm_rank(comm0, &rank);
  PMPI_Comm_size(comm0, &p);
  memset(lf, 0, sizeof *lf);
  lf->p = p;
  lf->tolerance = cfg->tolerance;
  if ((rc = PMPI_Comm_dup(comm0, &comm)) != MPI_SUCCESS) return rc;
  PMPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
  P.comm = comm;

  leader = malloc((size_t)p * sizeof *leader);
  size_t maxs = cfg->sizes[cfg->nsizes - 1];
  P.sbuf = malloc(maxs);
  P.rbuf = malloc(maxs);
  P.x = malloc((size_t)(cfg->max_nrep > cfg->warmup ? cfg->max_nrep : cfg->warmup + 1) * sizeof *P.x);
  if (!leader || !P.sbuf || !P.rbuf || !P.x) {
    rc = MPI_ERR_NO_MEM;
    goto out;
  }
  memset(P.sbuf, 1, maxs);
  memset(P.rbuf, 0, maxs);
  if ((rc = node_layout(comm, cfg, rank, leader, &node, lf)) != MPI_SUCCESS) goto out;

  /* the pairs: [0] within a node, [1] across nodes; -1 when there is none */
  int pa[2] = {-1, -1}, pb[2] = {-1, -1};
  for (int r = 1; r < p && pb[0] < 0; r++)
    if (leader[r] == leader[0]) pa[0] = 0, pb[0] = r;
  for (int r = 1; r < p && pb[0] < 0; r++) /* rank 0 alone on its node: the first node with two */
    if (leader[r] != r) pa[0] = leader[r], pb[0] = r;
  for (int r = 1; r < p && pb[1] < 0; r++)
    if (leader[r] != leader[0]) pa[1] = 0, pb[1] = r;

  int nclasses = (pb[0] >= 0) + (pb[1] >= 0), done = 0;
  double t_start = P.now();
  mg_loggp_class *c = calloc(1, sizeof *c);
  if (!c) {
    rc = MPI_ERR_NO_MEM;
    goto out;
  }
  for (int k = 0; k < 2 && rc == MPI_SUCCESS; k++) {
    if (pb[k] < 0) continue;
    lf->has[k] = 1;
    memset(c, 0, sizeof *c);
    if (rank == pa[k]) {
      P.peer = pb[k];
      rc = client(&P, cfg, c, k ? "inter-node" : "intra-node", t_start, done * cfg->nsizes,
                  nclasses * cfg->nsizes);
    } else if (rank == pb[k]) {
      P.peer = pa[k];
      rc = server(&P);
    }
    done++;
    /* every rank learns whether the pair succeeded, so no rank waits for a result that never comes */
    int bad = rc != MPI_SUCCESS, any;
    int rc2 = quiet_max(&bad, &any, MPI_INT, rank != pa[k] && rank != pb[k], comm);
    if (rc == MPI_SUCCESS && (rc2 != MPI_SUCCESS || any)) rc = rc2 != MPI_SUCCESS ? rc2 : MPI_ERR_OTHER;
    if (rc != MPI_SUCCESS) break;
    c->a = pa[k];
    c->b = pb[k];
    if (pa[k] != 0) { /* the client's columns to rank 0 */
      if (rank == pa[k]) rc = PMPI_Send(c, (int)sizeof *c, MPI_BYTE, 0, TAG_CTL, comm);
      else if (rank == 0) rc = PMPI_Recv(c, (int)sizeof *c, MPI_BYTE, pa[k], TAG_CTL, comm, MPI_STATUS_IGNORE);
    }
    if (rank == 0) lf->cls[k] = *c;
  }
  free(c);
  if (rc != MPI_SUCCESS) goto out;
  double round_all = 0, round_two = 0; /* every rank knows whether a node is crowded: the layout is everyone's */
  if (lf->cores > 0 && lf->rpn_max > lf->cores &&
      (rc = ring_rounds(comm, leader, rank, P.now, &round_all, &round_two)) != MPI_SUCCESS)
    goto out;

  if (rank == 0) {
    size_t bytes = maxs < 65536 ? 65536 : maxs;
    bytes -= bytes % sizeof(double);
    if ((rc = local_cost(0, bytes, P.now, &lf->copy)) != MPI_SUCCESS) goto out;
    if ((rc = local_cost(1, bytes, P.now, &lf->reduce)) != MPI_SUCCESS) goto out;
    for (int k = 0; k < 2; k++) {
      if (!lf->has[k]) continue;
      mg_loggp_fit(&lf->cls[k], cfg->tolerance);
      mg_loggp *m = &lf->cls[k].m;
      m->p = p;
      m->inter = k;
      m->nodes = lf->nodes;
      m->cores = lf->cores;
      m->copy = lf->copy;
      m->reduce = lf->reduce;
    }
    /* the ring's round less the two ranks' round */
    if (round_all > 0) {
      double h = round_all - round_two;
      lf->ring_all = round_all, lf->ring_two = round_two;
      lf->handoff = h > 0 ? h : 0;
      for (int k = 0; k < 2; k++) lf->cls[k].m.handoff = lf->handoff;
    }
  }
  rc = PMPI_Barrier(comm);
out:
  if (node != MPI_COMM_NULL) PMPI_Comm_free(&node);
  if (comm != MPI_COMM_NULL) PMPI_Comm_free(&comm);
  free(leader);
  free(P.sbuf);
  free(P.rbuf);
  free(P.x);
  return rc;
}
