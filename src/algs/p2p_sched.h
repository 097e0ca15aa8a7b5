/*
 * What the point-to-point rows of p2p_move.c (gather, scatter, allgather, alltoall) and
 * p2p_barrier.c share: the message tags on the private communicator (mg_p2p_comm), the
 * arithmetic of binomial trees and powers of two, and the LogGP critical paths of the binomial
 * fan-in and fan-out their cost functions price. Pure arithmetic, no MPI call.
 *
 * Binomial trees are numbered by relative rank vr = (rank - root + p) mod p. Rank vr > 0 owns the
 * subtree [vr, vr + sub) of relative ranks, sub = min(lowbit(vr), p - vr); its parent is
 * vr - lowbit(vr); its children are vr + m for the powers of two m < lowbit(vr) with vr + m < p,
 * the child's subtree min(m, p - vr - m). The root (vr = 0) owns all p.
 */
#ifndef MG_P2P_SCHED_H
#define MG_P2P_SCHED_H

#include <mpi.h>

#include "loggp/loggp.h"

/* Tags on the private communicator: one per collective. Every rank receives a peer's messages of
 * one call before it returns, and MPI keeps the order of messages between two ranks on one tag,
 * so consecutive calls cannot take each other's messages. */
enum { MG_P2P_TAG_GATHER = 7101, MG_P2P_TAG_SCATTER, MG_P2P_TAG_ALLGATHER, MG_P2P_TAG_ALLTOALL, MG_P2P_TAG_BARRIER };

/* The smallest power of two >= x (x >= 1). */
static inline int mg_p2p_pow2_ceil(int x) {
  int m = 1;
  while (m < x) m <<= 1;
  return m;
}

/* The largest power of two <= x (x >= 1). */
static inline int mg_p2p_pow2_floor(int x) {
  int m = 1;
  while (m <= x / 2) m <<= 1;
  return m;
}

/* ceil(log2 x) for x >= 1: the rounds of a dissemination or Bruck schedule. */
static inline int mg_p2p_log2_ceil(int x) {
  int k = 0;
  for (int m = 1; m < x; m <<= 1) k++;
  return k;
}

/* The lowest set bit of relative rank vr; for the root (vr = 0) the power of two >= p. */
static inline int mg_p2p_lowbit(int vr, int p) { return vr ? vr & -vr : mg_p2p_pow2_ceil(p); }

/* The size of vr's subtree in a binomial tree of p ranks. */
static inline int mg_p2p_subtree(int vr, int p) {
  int low = mg_p2p_lowbit(vr, p);
  return low < p - vr ? low : p - vr;
}

/* Complete n posted requests (p2p_move.c), all of them; returns rc if it is an error, else the
 * first failing wait's code. */
int mg_p2p_waitall(int n, MPI_Request *rq, int rc);

static inline double mg_p2p_max(double a, double b) { return a > b ? a : b; }

/*
 * The critical path of a binomial fan-in of p ranks to its root, each rank sending its subtree's
 * blocks of n bytes to its parent in one message once its children's messages arrived (gather,
 * the barrier's fan-in with n = 0). With h the largest power of two below p, the root's children
 * below h form a tree of h ranks and the child h brings a tree of p - h ranks:
 *   F(1) = 0, F(p) = max(F(h), F(p - h) + msg((p - h) n)).
 * Receive overheads of messages that arrive together at one rank are not serialised.
 */
static inline double mg_p2p_fanin(const mg_loggp *m, int p, double n) {
  if (p <= 1) return 0;
  int h = mg_p2p_pow2_floor(p - 1);
  double tree = 0; /* F(h): a power of two, its last child the slowest: sum of msg(2^k n) */
  for (int k = 1; k < h; k <<= 1) tree += mg_loggp_msg(m, k * n);
  return mg_p2p_max(tree, mg_p2p_fanin(m, p - h, n) + mg_loggp_msg(m, (p - h) * n));
}

/*
 * The critical path of a binomial fan-out from the root of p ranks, each rank sending its
 * children their subtrees' blocks of n bytes, farthest child first, one send per gap (scatter,
 * the barrier's fan-out with n = 0): the root first sends p - h blocks to child h, then serves
 * the tree of h ranks below h:
 *   S(1) = 0, S(p) = max(msg((p - h) n) + S(p - h), gap((p - h) n) + S(h)).
 */
static inline double mg_p2p_fanout(const mg_loggp *m, int p, double n) {
  if (p <= 1) return 0;
  int h = mg_p2p_pow2_floor(p - 1);
  double first = (p - h) * n, rest = mg_p2p_fanout(m, h, n);
  double sub = p - h == h ? rest : mg_p2p_fanout(m, p - h, n); /* a power of two: one recursion */
  return mg_p2p_max(mg_loggp_msg(m, first) + sub, mg_loggp_gap(m, first) + rest);
}

#endif
