/*
 * What the point-to-point algorithms (the p2p family, TGT 2010 eq. 35 and §V.D: a collective is
 * not slower than the same data movement written with point-to-point messages) share, whatever
 * their collective (bcast.c, barrier.c, gather.c, scatter.c, allgather.c, alltoall.c, and the
 * reductions through p2p_reduction.h): the message tags on the private communicator
 * (mg_p2p_comm), the completion of posted requests, the rank arithmetic of trees and powers of
 * two, and the LogGP terms their cost functions are written with (the binomial fan-in and
 * fan-out included). Arithmetic only, apart from mg_p2p_waitall.
 *
 * Every message of these algorithms goes over the private communicator of c->comm (on the
 * application's own one a receive posted with MPI_ANY_SOURCE or MPI_ANY_TAG could take them),
 * with one tag per collective: both sides post their messages between a pair in the same order,
 * and MPI keeps messages of one sender, communicator and tag in order, so calls that follow each
 * other on one communicator cannot take each other's messages. No receive uses MPI_ANY_SOURCE.
 *
 * Data of the data-movement rows (gather, scatter, allgather, alltoall). Ranks may use
 * different datatypes of one signature, and send and receive sides too, so a block that travels
 * in pieces or through other ranks (binomial trees, recursive doubling, Bruck, the ring) travels
 * as packed bytes (MPI_BYTE on both sides), in scratch of a size that depends on n and p only. A
 * rank whose receive type is dense (its elements are its bytes) uses its receive buffer as that
 * byte image; any other unpacks the image block by block, so the gaps of a derived type are
 * never written. A block that goes straight from its owner to its destination (the linear and
 * pairwise rows) travels as (count, datatype) on both sides.
 *
 * Binomial trees are numbered by relative rank vr = (rank - root + p) mod p. Rank vr > 0 owns the
 * subtree [vr, vr + sub) of relative ranks, sub = min(lowbit(vr), p - vr); its parent is
 * vr - lowbit(vr); its children are vr + m for the powers of two m < lowbit(vr) with vr + m < p,
 * the child's subtree min(m, p - vr - m). The root (vr = 0) owns all p.
 *
 * Errors: the first failing PMPI call's code is returned, after the requests already posted
 * completed (no request outlives the call).
 */
#ifndef MG_P2P_SCHED_H
#define MG_P2P_SCHED_H

#include "algs/algs.h"
#include "loggp/loggp.h"

/* Tags on the private communicator: one per collective (the reductions and bcast share
 * MG_P2P_TAG). Every rank receives a peer's messages of one call before it returns, and MPI
 * keeps the order of messages between two ranks on one tag, so consecutive calls cannot take
 * each other's messages. */
#define MG_P2P_TAG 35
enum { MG_P2P_TAG_GATHER = 7101, MG_P2P_TAG_SCATTER, MG_P2P_TAG_ALLGATHER, MG_P2P_TAG_ALLTOALL, MG_P2P_TAG_BARRIER };

/* Complete n posted requests (inactive ones included), all of them even after a failure; the
 * first error wins (rc, if it is one). One PMPI_Wait each rather than PMPI_Waitall: its error is
 * the request's own, not MPI_ERR_IN_STATUS (and GCC's -Wstringop-overflow takes MPICH's
 * MPI_STATUSES_IGNORE in PMPI_Waitall for an empty array). */
static inline int mg_p2p_waitall(int n, MPI_Request *rq, int rc) {
  for (int i = 0; i < n; i++) {
    int rc2 = PMPI_Wait(&rq[i], MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) rc = rc2;
  }
  return rc;
}

/* ---- ranks and powers of two ---- */

/* floor(log2 p) for p >= 1. */
static inline int mg_p2p_flog2(int p) {
  int k = 0;
  while ((2L << k) <= p) k++;
  return k;
}

/* The smallest power of two >= x (x >= 1). */
static inline int mg_p2p_pow2_ceil(int x) {
  int m = 1;
  while (m < x) m <<= 1;
  return m;
}

/* The largest power of two <= x (x >= 1): p' of the folding schedules. */
static inline int mg_p2p_pow2_floor(int x) {
  int m = 1;
  while (m <= x / 2) m <<= 1;
  return m;
}

/* ceil(log2 x) for x >= 1: the rounds of a binomial tree, a dissemination or Bruck schedule. */
static inline int mg_p2p_log2_ceil(int x) {
  int k = 0;
  for (int m = 1; m < x; m <<= 1) k++;
  return k;
}

/* A rank's position in a tree rooted at `root` (relative rank) and back. */
static inline int mg_p2p_rel(int r, int root, int p) { return (r - root + p) % p; }
static inline int mg_p2p_abs(int v, int root, int p) { return (v + root) % p; }

/* The lowest set bit of relative rank vr; for the root (vr = 0) the power of two >= p. */
static inline int mg_p2p_lowbit(int vr, int p) { return vr ? vr & -vr : mg_p2p_pow2_ceil(p); }

/* The size of vr's subtree in a binomial tree of p ranks. */
static inline int mg_p2p_subtree(int vr, int p) {
  int low = mg_p2p_lowbit(vr, p);
  return low < p - vr ? low : p - vr;
}

/* ---- blocks of the data-movement rows ---- */

/* The address of block i (count elements each) of a typed buffer. */
static inline void *mg_p2p_block(const void *buf, const mg_type *t, int count, int i) {
  return mg_type_at(buf, t, (size_t)i * (size_t)count);
}

/* Scratch for k requests. */
static inline size_t mg_p2p_requests(int k) { return mg_align((size_t)k * sizeof(MPI_Request)); }

/* The root's buffer as the byte image of relative blocks [a, a + s) of b bytes, when it can
 * take them directly: a dense type and a range that does not wrap past rank p-1. Else NULL
 * (gather, scatter). */
static inline char *mg_p2p_direct_range(void *buf, int dense, int root, int p, int a, int s, size_t b) {
  int first = (a + root) % p;
  return dense && first + s <= p ? (char *)buf + (size_t)first * b : NULL;
}

/* ---- LogGP terms (loggp/loggp.h) ---- */

/* A message of s bytes from the start of its send to the end of its receive, and k messages of
 * s bytes one process sends back to back (the last one's end). */
static inline double mg_p2p_msg(const mg_loggp *m, double s) { return mg_loggp_msg(m, s); }
static inline double mg_p2p_msgs(const mg_loggp *m, int k, double s) {
  return k <= 0 ? 0 : (k - 1) * mg_loggp_gap(m, s) + mg_loggp_msg(m, s);
}
/* A rank's send and receive of s bytes at once (PMPI_Sendrecv with one peer, or to one and from
 * another: a ring's, dissemination's or Bruck's round): the time of one message, both directions in
 * flight together, and on a node with more ranks than processors a second handoff (m->wake): both
 * messages have a receiver that waits, each rank of the round for the other's message, and each
 * must get a processor back. Counted once, as for a message one way, the exchanges at 4 ranks on
 * 2 cores were the rows priced furthest below their measurement (scan_as_recdbl at 1 KiB: 4.3 and
 * 5.7 us against 14.2 and 15.3 us; allgather_as_ring 6.0 and 8.2 us against 13.0 and 12.7 us, Open
 * MPI, 2026-11-28, quiet), and a tree's one-way messages were not (docs/model.md). */
static inline double mg_p2p_xchg(const mg_loggp *m, double s) { return mg_loggp_msg(m, s) + m->wake; }

static inline double mg_p2p_max(double a, double b) { return a > b ? a : b; }

/* Local copies of the data-movement rows: the own block (and the packing and unpacking a dense
 * type needs none of); the models price dense datatypes and root 0. */
static inline double mg_p2p_copy(const mg_loggp *m, double bytes) { return m->copy * bytes; }

/*
 * A binomial tree's round of step 2^j: the messages between relative ranks vr and vr - 2^j, for the
 * vr < p whose lowest set bit is 2^j (p = 4: two messages at step 1, one at step 2), and how much
 * it slows down on a node with more ranks than processors: the 2 ranks of each message are busy at
 * once (mg_loggp_crowding of them; 1 on a node with enough processors). A fan-out's first round and
 * a fan-in's last run one message; the other end runs p/2, every rank busy: at 4 ranks on 2 cores
 * a binomial bcast was measured 1.5 times its price with every round priced alone (2026-11-27).
 */
static inline int mg_p2p_round_msgs(int p, int step) { return p > step ? (p - step - 1) / (2 * step) + 1 : 0; }
static inline double mg_p2p_round_crowding(const mg_loggp *m, int p, int step) {
  return mg_loggp_crowding(m, 2 * mg_p2p_round_msgs(p, step));
}

/*
 * The critical path of a binomial fan-in of p ranks to its root, each rank sending its subtree's
 * blocks of n bytes to its parent in one message once its children's messages arrived (gather,
 * the barrier's fan-in with n = 0). With h the largest power of two below p, the root's children
 * below h form a tree of h ranks and the child h brings a tree of p - h ranks:
 *   F(1) = 0, F(p) = max(F(h), F(p - h) + msg((p - h) n)).
 * Receive overheads of messages that arrive together at one rank are not serialised.
 */
static inline double mg_p2p_fanin_in(const mg_loggp *m, int p, double n, int ptot) {
  if (p <= 1) return 0;
  int h = mg_p2p_pow2_floor(p - 1);
  double tree = 0; /* F(h): a power of two, its last child the slowest: sum of msg(2^k n) */
  for (int k = 1; k < h; k <<= 1) tree += mg_p2p_round_crowding(m, ptot, k) * mg_loggp_msg(m, k * n);
  return mg_p2p_max(tree, mg_p2p_fanin_in(m, p - h, n, ptot) + mg_p2p_round_crowding(m, ptot, h) * mg_loggp_msg(m, (p - h) * n));
}
/* Each message crowded by its round (mg_p2p_round_crowding over the whole tree: a subtree's steps
 * are the tree's). */
static inline double mg_p2p_fanin(const mg_loggp *m, int p, double n) { return mg_p2p_fanin_in(m, p, n, p); }

/*
 * The critical path of a binomial fan-out from the root of p ranks, each rank sending its
 * children their subtrees' blocks of n bytes, farthest child first, one send per gap (scatter,
 * the barrier's fan-out with n = 0): the root first sends p - h blocks to child h, then serves
 * the tree of h ranks below h:
 *   S(1) = 0, S(p) = max(msg((p - h) n) + S(p - h), gap((p - h) n) + S(h)).
 */
static inline double mg_p2p_fanout_in(const mg_loggp *m, int p, double n, int ptot) {
  if (p <= 1) return 0;
  int h = mg_p2p_pow2_floor(p - 1);
  double first = (p - h) * n, rest = mg_p2p_fanout_in(m, h, n, ptot);
  double sub = p - h == h ? rest : mg_p2p_fanout_in(m, p - h, n, ptot); /* a power of two: one recursion */
  return mg_p2p_max(mg_p2p_round_crowding(m, ptot, h) * mg_loggp_msg(m, first) + sub, mg_loggp_gap(m, first) + rest);
}
/* Each message crowded by its round, as the fan-in's. */
static inline double mg_p2p_fanout(const mg_loggp *m, int p, double n) { return mg_p2p_fanout_in(m, p, n, p); }

#endif
