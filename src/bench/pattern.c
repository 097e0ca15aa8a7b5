/*
 * The measurement patterns of the point-to-point operations (bench.h, MG_PATTERNS): what each
 * rank does in one measurement of row `alg` of an operation. The send side runs the row (isend:
 * the row, then MPI_Wait on its request); the receive side is the row's receive side
 * (mg_alg.recv_side) or MPI_Recv. All messages on the benchmark's communicator with one tag per
 * purpose: the ranks of a pattern post them in the same order, so consecutive measurements
 * cannot take each other's messages.
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"

enum { TAG_DATA = 18, TAG_READY = 19 };

/* The names and descriptions of MG_PATTERNS, in enum order. */
#define NAME(E, n, d) n,
#define TEXT(E, n, d) d,
static const char *const names[MG_NPATTERNS] = {MG_PATTERNS(NAME)};
static const char *const texts[MG_NPATTERNS] = {MG_PATTERNS(TEXT)};

const char *mg_pattern_name(mg_pattern pt) { return pt < MG_NPATTERNS ? names[pt] : "?"; }
const char *mg_pattern_text(mg_pattern pt) { return pt < MG_NPATTERNS ? texts[pt] : "?"; }

int mg_pattern_find(const char *name) {
  for (int i = 0; i < MG_NPATTERNS; i++)
    if (!strcmp(name, names[i])) return i;
  return -1;
}

static int exchanges(mg_coll op) { return op == MG_SENDRECV || op == MG_SENDRECV_REPLACE; }

void mg_cart_dims(int p, int dims[2]) {
  int b = 1;
  for (int k = 1; (long)k * k <= p; k++)
    if (p % k == 0) b = k;
  dims[0] = p / (b > 0 ? b : 1), dims[1] = b;
}

int mg_cart_pairs(int p, int (*pairs)[2], int cap) {
  int dims[2], n = 0;
  mg_cart_dims(p, dims);
  for (int d = 0; d < 2; d++) {
    if (dims[d] < 2) continue;
    for (int r = 0; r < p; r++) {
      int c[2] = {r / dims[1], r % dims[1]};
      if (dims[d] == 2 && c[d] == 1) continue; /* the same pair as from coordinate 0 */
      c[d] = (c[d] + 1) % dims[d];
      int j = c[0] * dims[1] + c[1];
      if (n < cap) pairs[n][0] = r < j ? r : j, pairs[n][1] = r < j ? j : r;
      n++;
    }
  }
  return n;
}

const char *mg_pattern_pair(mg_pattern pt, mg_coll op, long round, int p, char *buf, size_t len) {
  static const char *const dirs[MG_CART_DIRECTIONS] = {"d0-", "d0+", "d1-", "d1+"};
  if (op != MG_SENDRECV || round < 0) return "";
  if (pt == MG_PATTERN_CART) return dirs[round % MG_CART_DIRECTIONS];
  if (pt != MG_PATTERN_CARTPAIR || p < 2 || p > (1 << 20)) return "";
  int n = mg_cart_pairs(p, NULL, 0), pr[1][2] = {{0, 0}};
  if (n <= 0) return "";
  int k = (int)(round % n), dims[2], seen = 0;
  mg_cart_dims(p, dims); /* pair k alone, without a table of 2p */
  for (int d = 0; d < 2 && !seen; d++) {
    if (dims[d] < 2) continue;
    for (int r = 0; r < p && !seen; r++) {
      int c[2] = {r / dims[1], r % dims[1]};
      if (dims[d] == 2 && c[d] == 1) continue;
      if (k-- > 0) continue;
      c[d] = (c[d] + 1) % dims[d];
      int j = c[0] * dims[1] + c[1];
      pr[0][0] = r < j ? r : j, pr[0][1] = r < j ? j : r, seen = 1;
    }
  }
  snprintf(buf, len, "%d-%d", pr[0][0], pr[0][1]);
  return buf;
}

/* The Cartesian communicators of pattern cart, made at its first measurement (every rank runs
 * every measurement) for the run's communicator and freed at the end of the run. */
static struct {
  MPI_Comm parent, plain, reordered;
  mg_pattern pt;
} cart = {MPI_COMM_NULL, MPI_COMM_NULL, MPI_COMM_NULL, MG_PATTERN_CART};

/* The neighbourhood collectives' communicator (mg_bench_topo_comm), made like cart's. */
static struct {
  MPI_Comm parent, grid;
} nbr = {MPI_COMM_NULL, MPI_COMM_NULL};

void mg_pattern_free(void) {
  if (cart.plain != MPI_COMM_NULL) PMPI_Comm_free(&cart.plain);
  if (cart.reordered != MPI_COMM_NULL) PMPI_Comm_free(&cart.reordered);
  cart.parent = MPI_COMM_NULL;
  if (nbr.grid != MPI_COMM_NULL) PMPI_Comm_free(&nbr.grid);
  nbr.parent = MPI_COMM_NULL;
}

int mg_bench_topo_comm(MPI_Comm comm, int p, MPI_Comm *out) {
  int rc = MPI_SUCCESS;
  if (nbr.parent != comm) {
    if (nbr.grid != MPI_COMM_NULL) PMPI_Comm_free(&nbr.grid);
    nbr.parent = MPI_COMM_NULL;
    int dims[2] = {0, 0}, periods[2];
    rc = PMPI_Dims_create(p, 2, dims);
    for (int d = 0; d < 2; d++) periods[d] = dims[d] >= 3; /* extent 1 or 2: one peer, two blocks */
    if (rc == MPI_SUCCESS) rc = PMPI_Cart_create(comm, 2, dims, periods, 0, &nbr.grid);
    if (rc == MPI_SUCCESS) nbr.parent = comm;
  }
  *out = nbr.grid;
  return rc;
}

/* Pattern cart's grid is MPI_Dims_create's; cartpair's mg_cart_dims (the pairs named without MPI). */
static int cart_comms(MPI_Comm comm, int p, mg_pattern pt) {
  if (cart.parent == comm && cart.pt == pt) return MPI_SUCCESS;
  mg_pattern_free();
  int dims[2] = {0, 0}, periods[2] = {1, 1}, rc = MPI_SUCCESS;
  if (pt == MG_PATTERN_CARTPAIR) mg_cart_dims(p, dims);
  else rc = PMPI_Dims_create(p, 2, dims);
  if (rc == MPI_SUCCESS) rc = PMPI_Cart_create(comm, 2, dims, periods, 0, &cart.plain);
  if (rc == MPI_SUCCESS) rc = PMPI_Cart_create(comm, 2, dims, periods, 1, &cart.reordered);
  if (rc == MPI_SUCCESS) cart.parent = comm, cart.pt = pt;
  return rc;
}

/* Pattern cart: sendrecv with the neighbour in one direction of the Cartesian communicator (one
 * step of a halo exchange), the direction by the round (mg_pattern_pair); the topo family's row on
 * the one made with reordering. A dimension of extent 1 (2 processes: 2 x 1) is an exchange with
 * the rank itself. */
/* The call c of row alg on the Cartesian communicator of pattern p (made once, cart_comms): the
 * reordered one for the topo family's row, else the plain one. */
static int cart_call(const mg_call *c, int alg, mg_pattern p, mg_call *s) {
  int rc = cart_comms(c->comm, c->size, p);
  if (rc != MPI_SUCCESS) return rc;
  *s = *c;
  s->comm = mg_colls[c->coll].algs[alg].family == MG_FAM_TOPO ? cart.reordered : cart.plain;
  s->stag = s->rtag = TAG_DATA, s->status = MPI_STATUS_IGNORE;
  return MPI_SUCCESS;
}

static int cart_exchange(const mg_call *c, int alg, long round) {
  mg_call s;
  int rc = cart_call(c, alg, MG_PATTERN_CART, &s);
  if (rc != MPI_SUCCESS) return rc;
  int k = (int)(round % MG_CART_DIRECTIONS);
  rc = PMPI_Cart_shift(s.comm, k / 2, k % 2 ? 1 : -1, &s.src, &s.root);
  return rc == MPI_SUCCESS ? mg_run(&s, alg) : rc;
}

/* Pattern cartpair: pair round % npairs exchanges alone, by its ranks in the row's communicator (the
 * reordered one's ranks are other processes: that is what eq. 37 compares); the others are idle. */
static int cart_pair_exchange(const mg_call *c, int alg, long round) {
  mg_call s;
  int rc = cart_call(c, alg, MG_PATTERN_CARTPAIR, &s);
  if (rc != MPI_SUCCESS) return rc;
  char buf[24];
  int i, j, me;
  if (sscanf(mg_pattern_pair(MG_PATTERN_CARTPAIR, c->coll, round, c->size, buf, sizeof buf), "%d-%d", &i, &j) != 2)
    return MPI_ERR_TOPOLOGY;
  if ((rc = PMPI_Comm_rank(s.comm, &me)) != MPI_SUCCESS || (me != i && me != j)) return rc;
  s.src = s.root = me == i ? j : i;
  return mg_run(&s, alg);
}

const char *mg_pattern_refuses(mg_coll op, int alg, mg_pattern pt, int p) {
  if (op == MG_RECV || op == MG_IRECV) return "a receive is measured as the receive side of a send";
  if (p < 2) return "a point-to-point pattern needs 2 processes";
  if ((pt == MG_PATTERN_CART || pt == MG_PATTERN_CARTPAIR) && op != MG_SENDRECV)
    return "patterns cart and cartpair measure sendrecv only";
  if (exchanges(op) && pt == MG_PATTERN_ONETOALL) return "sendrecv exchanges: measured by pingpong, exchange and cart";
  if (mg_colls[op].algs[alg].family == MG_FAM_TOPO && pt != MG_PATTERN_CART && pt != MG_PATTERN_CARTPAIR)
    return "a topology row is measured by pattern cart or cartpair";
  if (mg_colls[op].algs[alg].family == MG_FAM_RMA && p != 2)
    return "a one-sided row's fences are collective over the communicator: measured on 2 processes";
  if (mg_colls[op].algs[alg].recv_side && pt == MG_PATTERN_EXCHANGE)
    return "a row whose receiver must act alike (a split message) blocks in its receives: measured by pingpong "
           "and onetoall";
  return NULL;
}

/* The send side of c to rank `to` with row alg. A ready send first waits for the receiver's word
 * that its receive is posted (recv_side's), unless `ready` says it came already. */
static int send_side(const mg_call *c, int alg, int to, int ready) {
  mg_call s = *c;
  s.root = to, s.stag = TAG_DATA;
  int rc = MPI_SUCCESS;
  if (c->coll == MG_RSEND && !ready) rc = PMPI_Recv(NULL, 0, MPI_BYTE, to, TAG_READY, c->comm, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) return rc;
  if (c->coll != MG_ISEND) return mg_run(&s, alg);
  MPI_Request r;
  s.req = &r;
  rc = mg_run(&s, alg);
  return rc != MPI_SUCCESS ? rc : PMPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* The receive side of a message from `from` sent with row alg of c's operation. */
static int recv_side(const mg_call *c, int alg, int from) {
  const mg_alg *a = &mg_colls[c->coll].algs[alg];
  mg_call r = *c;
  r.coll = MG_RECV, r.src = from, r.rtag = TAG_DATA, r.status = MPI_STATUS_IGNORE;
  if (a->recv_side) return a->recv_side(&r, a->param);
  if (c->coll != MG_RSEND) return PMPI_Recv(r.rbuf, r.rcount, r.rtype, from, TAG_DATA, c->comm, MPI_STATUS_IGNORE);
  MPI_Request q;
  int rc = PMPI_Irecv(r.rbuf, r.rcount, r.rtype, from, TAG_DATA, c->comm, &q);
  if (rc == MPI_SUCCESS) rc = PMPI_Send(NULL, 0, MPI_BYTE, from, TAG_READY, c->comm);
  int rc2 = PMPI_Wait(&q, MPI_STATUS_IGNORE);
  return rc != MPI_SUCCESS ? rc : rc2;
}

/* A sendrecv (or sendrecv_replace) with `peer` through row alg. */
static int exchange_call(const mg_call *c, int alg, int peer) {
  mg_call s = *c;
  s.root = s.src = peer, s.stag = s.rtag = TAG_DATA, s.status = MPI_STATUS_IGNORE;
  return mg_run(&s, alg);
}

/* Both sides at once with `peer`: the receive posted first, then the send with the row. A ready
 * send: the two ranks tell each other their receive is posted before sending. */
static int exchange_sends(const mg_call *c, int alg, int peer) {
  MPI_Request q;
  int rc = PMPI_Irecv(c->rbuf, c->rcount, c->rtype, peer, TAG_DATA, c->comm, &q);
  if (rc != MPI_SUCCESS) return rc;
  if (c->coll == MG_RSEND)
    rc = PMPI_Sendrecv(NULL, 0, MPI_BYTE, peer, TAG_READY, NULL, 0, MPI_BYTE, peer, TAG_READY, c->comm,
                       MPI_STATUS_IGNORE);
  if (rc == MPI_SUCCESS) rc = send_side(c, alg, peer, 1);
  int rc2 = PMPI_Wait(&q, MPI_STATUS_IGNORE);
  return rc != MPI_SUCCESS ? rc : rc2;
}

int mg_pattern_run(const mg_call *c, int alg, mg_pattern pt, long round) {
  int me = c->rank, p = c->size, rc;
  switch (pt) {
  case MG_PATTERN_PINGPONG:
    if (me > 1) return MPI_SUCCESS;
    if (exchanges(c->coll)) return exchange_call(c, alg, 1 - me);
    if (me == 0) {
      rc = send_side(c, alg, 1, 0);
      return rc != MPI_SUCCESS ? rc : recv_side(c, alg, 1);
    }
    rc = recv_side(c, alg, 0);
    return rc != MPI_SUCCESS ? rc : send_side(c, alg, 0, 0);
  case MG_PATTERN_EXCHANGE: {
    int peer = me ^ 1;
    if (peer >= p) return MPI_SUCCESS;
    return exchanges(c->coll) ? exchange_call(c, alg, peer) : exchange_sends(c, alg, peer);
  }
  case MG_PATTERN_CART:
    return cart_exchange(c, alg, round);
  case MG_PATTERN_CARTPAIR:
    return cart_pair_exchange(c, alg, round);
  case MG_PATTERN_ONETOALL:
    if (me != 0) return recv_side(c, alg, 0);
    for (int j = 1; j < p; j++)
      if ((rc = send_side(c, alg, j, 0)) != MPI_SUCCESS) return rc;
    return MPI_SUCCESS;
  default:
    return MPI_ERR_ARG;
  }
}
