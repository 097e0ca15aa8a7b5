/*
 * What the point-to-point algorithms (p2p_bcast.c, p2p_reduce.c; TGT 2010 eq. 35 and §V.D)
 * share: the tag of their messages on the private communicator (mg_p2p_comm), rank
 * arithmetic for trees, the integer logarithms of their schedules and the LogGP terms their
 * cost functions are written with.
 *
 * Every message of these algorithms goes over the private communicator of c->comm with one
 * tag: both sides post their messages between a pair in the same order, and MPI keeps
 * messages of one sender, communicator and tag in order, so calls that follow each other on
 * one communicator cannot take each other's messages. No receive uses MPI_ANY_SOURCE.
 */
#ifndef MG_ALGS_P2P_H
#define MG_ALGS_P2P_H

#include "algs/algs.h"
#include "loggp/loggp.h"

#define MG_P2P_TAG 35

/* Wait for n requests (inactive ones included), all of them even after a failure; the first
 * error. (A loop of PMPI_Wait: GCC's -Wstringop-overflow takes MPICH's MPI_STATUSES_IGNORE in
 * PMPI_Waitall for an empty array.) */
static inline int mg_p2p_waitall(int n, MPI_Request *rq) {
  int rc = MPI_SUCCESS;
  for (int i = 0; i < n; i++) {
    int rc2 = PMPI_Wait(&rq[i], MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) rc = rc2;
  }
  return rc;
}

/* floor(log2 p) and ceil(log2 p) for p >= 1, and the largest power of two <= p. */
static inline int mg_p2p_flog2(int p) {
  int k = 0;
  while ((2L << k) <= p) k++;
  return k;
}
static inline int mg_p2p_clog2(int p) {
  int k = 0;
  while ((1L << k) < p) k++;
  return k;
}
static inline int mg_p2p_pof2(int p) { return 1 << mg_p2p_flog2(p); }

/* A rank's position in a tree rooted at `root` (relative rank) and back. */
static inline int mg_p2p_rel(int r, int root, int p) { return (r - root + p) % p; }
static inline int mg_p2p_abs(int v, int root, int p) { return (v + root) % p; }

/* LogGP terms (loggp.h): a message of s bytes from the start of its send to the end of its
 * receive, and k messages of s bytes one process sends back to back (the last one's end). */
static inline double mg_p2p_msg(const mg_loggp *m, double s) { return mg_loggp_msg(m, s); }
static inline double mg_p2p_msgs(const mg_loggp *m, int k, double s) {
  return k <= 0 ? 0 : (k - 1) * mg_loggp_gap(m, s) + mg_loggp_msg(m, s);
}
/* A send and a receive of s bytes at once with one peer (PMPI_Sendrecv, both directions in
 * flight together on a full-duplex link): the time of one message. */
static inline double mg_p2p_xchg(const mg_loggp *m, double s) { return mg_loggp_msg(m, s); }

#endif
