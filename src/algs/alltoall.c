/*
 * Mock-up of MPI_Alltoall: rank i sends its j-th block of n bytes
 * (recvcount x size(recvtype)) to rank j, which stores it as its i-th block.
 *
 * GL8 alltoall_as_alltoallv  Alltoall(n) <= Alltoallv(n)
 *   Alltoallv with equal counts and displacements i*count. Needs p*n to fit
 *   an int (MG_R_PN_INT). Scratch 4p ints. Same messages as alltoall, e.g.
 *   (p-1)(alpha + n beta) pairwise; it wins where the library tunes the
 *   irregular collective better (or gives alltoall a poor algorithm).
 *
 * With MPI_IN_PLACE (on all ranks or none) MPI ignores the send-side
 * arguments, and so do we: the caller's send count and type may then be
 * anything, the send-side arrays repeat the receive side.
 *
 * Point-to-point rows (the p2p family, TGT 2010 §V.D, eq. 35; p2p_sched.h: how their data travels,
 * the tags, the trees): simple algorithms written with PMPI point-to-point calls on the private
 * communicator of mg_p2p_comm. A library whose collective is slower than one of them is
 * inconsistent, and the algorithm is its repair. Costs in LogGP terms: msg(s) one message of s
 * bytes end to end, x(s) a send and a receive at once (a Sendrecv round: p2p_sched.h, mg_p2p_xchg),
 * g(s) the gap between two sends, copy(s) a local copy; the cost functions below price exactly
 * these schedules; n is the block per pair of ranks in bytes.
 *   alltoall_as_linear    post every Irecv and Isend, then wait. Cost msg(n) + (p-2) max(g, o_s,
 *                         o_r)(n). 2p requests (+ 2 p n in place); n must fit an int.
 *   alltoall_as_pairwise  p-1 Sendrecv rounds, round s sends to rank + s, receives from rank - s.
 *                         Cost (p-1) x(n). Scratch 2 n in place; n must fit an int.
 *   alltoall_as_bruck     Bruck: rotate, ceil(log2 p) rounds that each send the blocks whose
 *                         slot has bit k set (at most p/2) to rank + 2^k, rotate back.
 *                         Cost sum_k (x(c_k n) + copy(2 c_k n)) + copy(2 p n). Scratch 2 p n.
 *
 * MPI_IN_PLACE. Alltoall (all ranks or none): linear packs the blocks to send first and
 * receives packed bytes; pairwise exchanges block i with rank i, packed, in a round-robin
 * schedule of p (odd p) or p-1 (even p) rounds of disjoint pairs (not MPI_Sendrecv_replace:
 * MPICH 4.0.2 sends its packed copy as MPI_PACKED and hangs receiving that into a type mixing
 * basic types of different sizes above its eager limit, see mg_packed_recv_ok); Bruck packs
 * from the receive buffer.
 */
#include <string.h>

#include "algs/algs.h"
#include "algs/p2p_sched.h"

size_t mg_alltoall_as_alltoallv_mem(const mg_call *c) { return 4 * (size_t)c->size * sizeof(int); }

int mg_alltoall_as_alltoallv(const mg_call *c) {
  int p = c->size, inplace = c->sbuf == MPI_IN_PLACE;
  int *rcounts = mg_scratch(4 * (size_t)p * sizeof(int)), *rdispls = rcounts + p;
  int *scounts = rdispls + p, *sdispls = scounts + p;
  int scount = inplace ? c->rcount : c->scount;
  for (int i = 0; i < p; i++) {
    rcounts[i] = c->rcount;
    rdispls[i] = i * c->rcount;
    scounts[i] = scount;
    sdispls[i] = i * scount;
  }
  return PMPI_Alltoallv(c->sbuf, scounts, sdispls, inplace ? c->rtype : c->stype, c->rbuf, rcounts, rdispls,
                        c->rtype, c->comm);
}

size_t mg_alltoall_as_linear_mem(const mg_call *c) {
  size_t pb = mg_align((size_t)c->size * c->bytes);
  return mg_p2p_requests(2 * c->size) + (c->sbuf == MPI_IN_PLACE ? 2 * pb : 0); /* in place on all ranks or none */
}

int mg_alltoall_as_linear(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, me = c->rank, nr = 0, in = c->sbuf == MPI_IN_PLACE;
  size_t b = c->bytes;
  MPI_Comm pc;
  mg_type rt, st;
  int rc = mg_p2p_comm(c->comm, &pc);
  if (rc == MPI_SUCCESS) rc = mg_type_get(c->rtype, &rt);
  if (rc == MPI_SUCCESS && !in) rc = mg_type_get(c->stype, &st);
  if (rc != MPI_SUCCESS) return rc;
  size_t rqb = mg_p2p_requests(2 * c->size);
  char *dc, *cur = mg_scratch_split(rqb, mg_alltoall_as_linear_mem(c) - mg_align(rqb), &dc);
  MPI_Request *rq = mg_carve(&cur, 2 * (size_t)p * sizeof(MPI_Request));
  if (!in) { /* every block straight from its send slot to its receive slot */
    for (int s = 1; s < p && rc == MPI_SUCCESS; s++) {
      int src = (me - s + p) % p;
      if ((rc = PMPI_Irecv(mg_p2p_block(c->rbuf, &rt, c->rcount, src), c->rcount, c->rtype, src, MG_P2P_TAG_ALLTOALL,
                           pc, &rq[nr])) == MPI_SUCCESS)
        nr++;
    }
    for (int s = 1; s < p && rc == MPI_SUCCESS; s++) {
      int dst = (me + s) % p;
      if ((rc = PMPI_Isend(mg_p2p_block(c->sbuf, &st, c->scount, dst), c->scount, c->stype, dst, MG_P2P_TAG_ALLTOALL,
                           pc, &rq[nr])) == MPI_SUCCESS)
        nr++;
    }
    if (rc == MPI_SUCCESS)
      rc = mg_copy(mg_p2p_block(c->sbuf, &st, c->scount, me), c->scount, c->stype,
                   mg_p2p_block(c->rbuf, &rt, c->rcount, me), c->rcount, c->rtype);
    return mg_p2p_waitall(nr, rq, rc);
  }
  /* in place: the blocks to send packed first, then packed bytes both ways (received straight
   * into a dense receive buffer, else into scratch and unpacked) */
  int dense = mg_type_is_dense(&rt);
  char *out = mg_carve(&dc, (size_t)p * b), *got = dense ? (char *)c->rbuf : mg_carve(&dc, (size_t)p * b);
  for (int i = 0; i < p && rc == MPI_SUCCESS; i++)
    if (i != me)
      rc = mg_pack(mg_p2p_block(c->rbuf, &rt, c->rcount, i), c->rcount, c->rtype, out + (size_t)i * b, (int)b);
  for (int s = 1; s < p && rc == MPI_SUCCESS; s++) {
    int src = (me - s + p) % p;
    if ((rc = PMPI_Irecv(got + (size_t)src * b, (int)b, MPI_BYTE, src, MG_P2P_TAG_ALLTOALL, pc, &rq[nr])) ==
        MPI_SUCCESS)
      nr++;
  }
  for (int s = 1; s < p && rc == MPI_SUCCESS; s++) {
    int dst = (me + s) % p;
    if ((rc = PMPI_Isend(out + (size_t)dst * b, (int)b, MPI_BYTE, dst, MG_P2P_TAG_ALLTOALL, pc, &rq[nr])) ==
        MPI_SUCCESS)
      nr++;
  }
  if ((rc = mg_p2p_waitall(nr, rq, rc)) != MPI_SUCCESS || dense) return rc;
  for (int i = 0; i < p && rc == MPI_SUCCESS; i++)
    if (i != me)
      rc = mg_unpack(got + (size_t)i * b, (int)b, mg_p2p_block(c->rbuf, &rt, c->rcount, i), c->rcount, c->rtype);
  return rc;
}

/* In place: round r of a round-robin tournament pairs rank i with (r - i) mod q, q the odd
 * number p or p - 1; with p even the rank that would pair with itself meets rank p - 1, which
 * meets i = r (q + 1) / 2 mod q (2i = r mod q). Every pair meets once; -1: idle this round. */
static int tournament_peer(int p, int me, int r) {
  int q = p % 2 ? p : p - 1;
  if (me == q) return (int)((long long)r * ((q + 1) / 2) % q);
  int peer = ((r - me) % q + q) % q;
  return peer != me ? peer : p % 2 ? -1 : q;
}

/* In place on all ranks or none: one block packed to send, one received (non-dense types). */
size_t mg_alltoall_as_pairwise_mem(const mg_call *c) {
  return c->sbuf == MPI_IN_PLACE ? 2 * mg_align(c->bytes) : 0;
}

int mg_alltoall_as_pairwise(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, me = c->rank;
  MPI_Comm pc;
  mg_type rt, st;
  int rc = mg_p2p_comm(c->comm, &pc);
  if (rc == MPI_SUCCESS) rc = mg_type_get(c->rtype, &rt);
  if (rc != MPI_SUCCESS) return rc;
  if (c->sbuf == MPI_IN_PLACE) { /* block i is both what goes to rank i and what comes from it */
    int rounds = p % 2 ? p : p - 1, bi = (int)c->bytes, dense = mg_type_is_dense(&rt);
    char *cur = mg_scratch_data(mg_alltoall_as_pairwise_mem(c)), *out = mg_carve(&cur, c->bytes), *got = cur;
    for (int r = 0; r < rounds && rc == MPI_SUCCESS; r++) {
      int peer = tournament_peer(p, me, r);
      if (peer < 0) continue;
      void *blk = mg_p2p_block(c->rbuf, &rt, c->rcount, peer);
      rc = mg_pack(blk, c->rcount, c->rtype, out, bi);
      if (rc == MPI_SUCCESS)
        rc = PMPI_Sendrecv(out, bi, MPI_BYTE, peer, MG_P2P_TAG_ALLTOALL, dense ? blk : got, bi, MPI_BYTE, peer,
                           MG_P2P_TAG_ALLTOALL, pc, MPI_STATUS_IGNORE);
      if (rc == MPI_SUCCESS && !dense) rc = mg_unpack(got, bi, blk, c->rcount, c->rtype);
    }
    return rc;
  }
  if ((rc = mg_type_get(c->stype, &st)) != MPI_SUCCESS) return rc;
  rc = mg_copy(mg_p2p_block(c->sbuf, &st, c->scount, me), c->scount, c->stype,
               mg_p2p_block(c->rbuf, &rt, c->rcount, me), c->rcount, c->rtype);
  for (int s = 1; s < p && rc == MPI_SUCCESS; s++) {
    int dst = (me + s) % p, src = (me - s + p) % p;
    rc = PMPI_Sendrecv(mg_p2p_block(c->sbuf, &st, c->scount, dst), c->scount, c->stype, dst, MG_P2P_TAG_ALLTOALL,
                       mg_p2p_block(c->rbuf, &rt, c->rcount, src), c->rcount, c->rtype, src, MG_P2P_TAG_ALLTOALL, pc,
                       MPI_STATUS_IGNORE);
  }
  return rc;
}

size_t mg_alltoall_as_bruck_mem(const mg_call *c) {
  size_t p = (size_t)c->size, b = c->bytes;
  return mg_align(p * b) + 2 * mg_align(p / 2 * b);
}

int mg_alltoall_as_bruck(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, me = c->rank, in = c->sbuf == MPI_IN_PLACE;
  size_t b = c->bytes;
  MPI_Comm pc;
  mg_type rt, st;
  int rc = mg_p2p_comm(c->comm, &pc);
  if (rc == MPI_SUCCESS) rc = mg_type_get(c->rtype, &rt);
  if (rc == MPI_SUCCESS && !in) rc = mg_type_get(c->stype, &st);
  if (rc != MPI_SUCCESS) return rc;
  char *cur = mg_scratch_data(mg_alltoall_as_bruck_mem(c));
  char *x = mg_carve(&cur, (size_t)p * b), *out = mg_carve(&cur, (size_t)p / 2 * b),
       *got = mg_carve(&cur, (size_t)p / 2 * b);
  /* slot j: the block for rank (me + j) mod p; after the rounds, the block from rank (me - j) mod p */
  for (int j = 0; j < p && rc == MPI_SUCCESS; j++) {
    int to = (me + j) % p;
    rc = in ? mg_pack(mg_p2p_block(c->rbuf, &rt, c->rcount, to), c->rcount, c->rtype, x + (size_t)j * b, (int)b)
            : mg_pack(mg_p2p_block(c->sbuf, &st, c->scount, to), c->scount, c->stype, x + (size_t)j * b, (int)b);
  }
  for (int d = 1; d < p && rc == MPI_SUCCESS; d <<= 1) { /* the slots with bit d set move d ranks on */
    size_t k = 0;
    for (int j = d; j < p; j += 2 * d) {
      size_t run = (size_t)(j + d <= p ? d : p - j) * b;
      memcpy(out + k, x + (size_t)j * b, run);
      k += run;
    }
    rc = PMPI_Sendrecv(out, (int)k, MPI_BYTE, (me + d) % p, MG_P2P_TAG_ALLTOALL, got, (int)k, MPI_BYTE,
                       (me - d + p) % p, MG_P2P_TAG_ALLTOALL, pc, MPI_STATUS_IGNORE);
    k = 0;
    for (int j = d; j < p && rc == MPI_SUCCESS; j += 2 * d) {
      size_t run = (size_t)(j + d <= p ? d : p - j) * b;
      memcpy(x + (size_t)j * b, got + k, run);
      k += run;
    }
  }
  if (rc != MPI_SUCCESS) return rc;
  int dense = mg_type_is_dense(&rt);
  for (int i = 0; i < p && rc == MPI_SUCCESS; i++) {
    const char *from = x + (size_t)((me - i + p) % p) * b;
    if (dense)
      memcpy((char *)c->rbuf + (size_t)i * b, from, b);
    else
      rc = mg_unpack(from, (int)b, mg_p2p_block(c->rbuf, &rt, c->rcount, i), c->rcount, c->rtype);
  }
  return rc;
}

/* p-1 sends and p-1 receives per rank, all posted at once: one message, then one per
 * max(g, o_s, o_r) on each rank. */
double mg_cost_alltoall_as_linear(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p <= 1) return mg_p2p_copy(m, n);
  double per = mg_p2p_max(mg_loggp_gap(m, n), mg_p2p_max(mg_loggp_os(m, n), mg_loggp_or(m, n)));
  return mg_p2p_copy(m, n) + mg_loggp_msg(m, n) + (p - 2) * per;
}

/* p-1 Sendrecv rounds of n bytes; not in place (in place: p or p-1 Sendrecv_replace rounds). */
double mg_cost_alltoall_as_pairwise(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return mg_p2p_copy(m, n) + (p - 1) * mg_p2p_xchg(m, n);
}

/* Rotate (p n copy), ceil(log2 p) rounds that pack, exchange and unpack the c_k blocks whose slot
 * has bit k set (c_k <= p/2: 2 c_k n copy + x(c_k n), an exchange), rotate back (p n copy). */
double mg_cost_alltoall_as_bruck(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  double t = mg_p2p_copy(m, 2.0 * p * n);
  for (int d = 1; d < p; d <<= 1) {
    int k = 0;
    for (int j = d; j < p; j += 2 * d) k += j + d <= p ? d : p - j;
    t += mg_p2p_copy(m, 2.0 * k * n) + mg_p2p_xchg(m, k * n);
  }
  return t;
}
