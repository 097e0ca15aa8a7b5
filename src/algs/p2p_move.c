/*
 * The point-to-point family for the data-movement collectives (TGT 2010 §V.D, eq. 35:
 * Gather(n) <= p x Recv(n/p)): gather, scatter, allgather and alltoall as simple algorithms
 * written with PMPI point-to-point calls on the private communicator of mg_p2p_comm (on the
 * application's own one a receive posted with MPI_ANY_SOURCE or MPI_ANY_TAG could take them).
 * A library whose collective is slower than one of them is inconsistent, and the algorithm is
 * its repair. n is the per-rank block in bytes (per pair for alltoall), p the processes.
 *
 * Data. Ranks may use different datatypes of one signature, and send and receive sides too, so a
 * block that travels in pieces or through other ranks (binomial trees, recursive doubling, Bruck,
 * the ring) travels as packed bytes (MPI_BYTE on both sides), in scratch of a size that depends
 * on n and p only. A rank whose receive type is dense (its elements are its bytes) uses its
 * receive buffer as that byte image; any other unpacks the image block by block, so the gaps of a
 * derived type are never written. A block that goes straight from its owner to its destination
 * (the linear and pairwise rows) travels as (count, datatype) on both sides.
 *
 * Rows (restrictions and scratch as in the registry; costs in LogGP terms, msg(s) one message of s
 * bytes end to end, g(s) the gap between two sends, copy(s) a local copy; the cost functions at
 * the end of this file price exactly these schedules):
 *   gather_as_linear      the root posts p-1 receives straight into its blocks (eq. 35), every
 *                         other rank sends its block. p requests at the root.
 *                         Cost msg(n) + (p-2) max(g(n), o_r(n)).
 *   gather_as_binomial    binomial fan-in over relative ranks: a rank packs its own block, receives
 *                         its children's subtrees behind it, sends the whole subtree to its parent.
 *                         ceil(log2 p) rounds, messages of up to p/2 blocks; critical path
 *                         F(p) = max(F(h), F(p-h) + msg((p-h) n)), h the largest power of two < p.
 *                         Scratch p n (the root: ranges that wrap past rank p-1 or a non-dense
 *                         type; elsewhere the subtree); p n must fit an int.
 *   scatter_as_linear     the root posts p-1 sends from its blocks. p requests at the root.
 *                         Cost (p-2) max(g(n), o_s(n)) + msg(n).
 *   scatter_as_binomial   the mirror of the gather: binomial fan-out, farthest child (2^k, k
 *                         largest) first; S(p) = max(msg((p-h) n) + S(p-h), g((p-h) n) + S(h)).
 *                         Scratch p n; p n must fit an int.
 *   allgather_as_ring     p-1 rounds: send the block received last to rank+1, receive the next
 *                         from rank-1. Cost (p-1) msg(n). Scratch p n (non-dense receive type).
 *   allgather_as_recdbl   recursive doubling: round k exchanges 2^k blocks with rank xor 2^k.
 *                         p not a power of two: the r = p - p' ranks above the largest power of
 *                         two p' first give their block to rank - p', rank i < r then carries
 *                         blocks i and i + p' (two runs per message), and at the end sends the
 *                         whole result to rank i + p'. log2 p' rounds, + msg(n) + msg(p n) for
 *                         r > 0. Scratch p n (non-dense receive type).
 *   allgather_as_bruck    Bruck: ceil(log2 p) rounds, round k sends the first min(2^k, p-2^k)
 *                         blocks of a buffer rotated by the rank to rank - 2^k, receives as many
 *                         from rank + 2^k behind them; then the rotation is undone locally.
 *                         Cost sum_k msg(min(2^k, p-2^k) n) + copy(p n). Scratch p n.
 *   alltoall_as_linear    post every Irecv and Isend, then wait. Cost msg(n) + (p-2) max(g, o_s,
 *                         o_r)(n). 2p requests (+ 2 p n in place); n must fit an int.
 *   alltoall_as_pairwise  p-1 Sendrecv rounds, round s sends to rank + s, receives from rank - s.
 *                         Cost (p-1) msg(n). Scratch 2 n in place; n must fit an int.
 *   alltoall_as_bruck     Bruck: rotate, ceil(log2 p) rounds that each send the blocks whose
 *                         slot has bit k set (at most p/2) to rank + 2^k, rotate back.
 *                         Cost sum_k (msg(c_k n) + copy(2 c_k n)) + copy(2 p n). Scratch 2 p n.
 *
 * MPI_IN_PLACE. Gather at the root: its block is already in place (not packed where it need not
 * travel). Scatter at the root: its block is not copied. Allgather: the own block is taken from
 * the receive buffer. Alltoall (all ranks or none): linear packs the blocks to send first and
 * receives packed bytes; pairwise exchanges block i with rank i, packed, in a round-robin
 * schedule of p (odd p) or p-1 (even p) rounds of disjoint pairs (not MPI_Sendrecv_replace:
 * MPICH 4.0.2 sends its packed copy as MPI_PACKED and hangs receiving that into a type mixing
 * basic types of different sizes above its eager limit, see mg_packed_recv_ok); Bruck packs from
 * the receive buffer.
 *
 * Errors: the first failing PMPI call's code is returned, after the requests already posted
 * completed (no request outlives the call).
 */
#include <string.h>

#include "algs/algs.h"
#include "algs/p2p_sched.h"

/* Complete n posted requests, all of them; the first error wins (rc, if it is one). One
 * PMPI_Wait each rather than PMPI_Waitall: its error is the request's own, not
 * MPI_ERR_IN_STATUS (and GCC flags MPICH's MPI_STATUSES_IGNORE as an empty array). */
int mg_p2p_waitall(int n, MPI_Request *rq, int rc) {
  for (int i = 0; i < n; i++) {
    int rc2 = PMPI_Wait(&rq[i], MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) rc = rc2;
  }
  return rc;
}

/* The address of block i (count elements each) of a typed buffer. */
static void *block(const void *buf, const mg_type *t, int count, int i) {
  return mg_type_at(buf, t, (size_t)i * (size_t)count);
}

static size_t requests(int k) { return mg_align((size_t)k * sizeof(MPI_Request)); }

/* ================================================================ gather */

size_t mg_gather_as_linear_mem(const mg_call *c) { return requests(c->size); }

int mg_gather_as_linear(const mg_call *c, int unused) {
  (void)unused;
  MPI_Comm pc;
  mg_type rt;
  int rc = mg_p2p_comm(c->comm, &pc), nr = 0;
  if (rc != MPI_SUCCESS) return rc;
  if (c->rank != c->root) return PMPI_Send(c->sbuf, c->scount, c->stype, c->root, MG_P2P_TAG_GATHER, pc);
  if ((rc = mg_type_get(c->rtype, &rt)) != MPI_SUCCESS) return rc;
  MPI_Request *rq = mg_scratch(requests(c->size));
  for (int i = 0; i < c->size && rc == MPI_SUCCESS; i++)
    if (i != c->root &&
        (rc = PMPI_Irecv(block(c->rbuf, &rt, c->rcount, i), c->rcount, c->rtype, i, MG_P2P_TAG_GATHER, pc,
                         &rq[nr])) == MPI_SUCCESS)
      nr++;
  if (rc == MPI_SUCCESS && c->sbuf != MPI_IN_PLACE)
    rc = mg_copy(c->sbuf, c->scount, c->stype, block(c->rbuf, &rt, c->rcount, c->root), c->rcount, c->rtype);
  return mg_p2p_waitall(nr, rq, rc);
}

size_t mg_gather_as_binomial_mem(const mg_call *c) { return mg_align((size_t)c->size * c->bytes); }

/* The root's receive buffer as the byte image of relative blocks [a, a + s), when it can take
 * them directly: a dense type and a range that does not wrap past rank p-1. Else NULL. */
static char *direct_range(void *buf, int dense, int root, int p, int a, int s, size_t b) {
  int first = (a + root) % p;
  return dense && first + s <= p ? (char *)buf + (size_t)first * b : NULL;
}

int mg_gather_as_binomial(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, root = c->root, vr = (c->rank - root + p) % p, sub = mg_p2p_subtree(vr, p), nr = 0;
  size_t b = c->bytes;
  MPI_Comm pc;
  MPI_Request rq[8 * sizeof(int)];
  int rc = mg_p2p_comm(c->comm, &pc);
  if (rc != MPI_SUCCESS) return rc;
  if (vr == 0) { /* the root: each child's subtree straight into rbuf, or into scratch at its offset */
    mg_type rt;
    if ((rc = mg_type_get(c->rtype, &rt)) != MPI_SUCCESS) return rc;
    int dense = mg_type_is_dense(&rt);
    char *x = NULL;
    for (int m = 1; m < p && rc == MPI_SUCCESS; m <<= 1) {
      int s = m < p - m ? m : p - m;
      char *to = direct_range(c->rbuf, dense, root, p, m, s, b);
      if (!to) to = (x ? x : (x = mg_scratch(mg_gather_as_binomial_mem(c)))) + (size_t)m * b;
      if ((rc = PMPI_Irecv(to, (int)((size_t)s * b), MPI_BYTE, (m + root) % p, MG_P2P_TAG_GATHER, pc, &rq[nr])) ==
          MPI_SUCCESS)
        nr++;
    }
    if (rc == MPI_SUCCESS && c->sbuf != MPI_IN_PLACE)
      rc = mg_copy(c->sbuf, c->scount, c->stype, block(c->rbuf, &rt, c->rcount, root), c->rcount, c->rtype);
    if ((rc = mg_p2p_waitall(nr, rq, rc)) != MPI_SUCCESS || !x) return rc;
    for (int m = 1; m < p && rc == MPI_SUCCESS; m <<= 1) { /* the ranges that came through scratch */
      int s = m < p - m ? m : p - m;
      if (direct_range(c->rbuf, dense, root, p, m, s, b)) continue;
      for (int j = m; j < m + s && rc == MPI_SUCCESS; j++)
        rc = mg_unpack(x + (size_t)j * b, (int)b, block(c->rbuf, &rt, c->rcount, (j + root) % p), c->rcount, c->rtype);
    }
    return rc;
  }
  int parent = (vr - (vr & -vr) + root) % p;
  mg_type st;
  if ((rc = mg_type_get(c->stype, &st)) != MPI_SUCCESS) return rc;
  if (sub == 1 && mg_type_is_dense(&st)) /* a leaf: its block as it is */
    return PMPI_Send(c->sbuf, (int)b, MPI_BYTE, parent, MG_P2P_TAG_GATHER, pc);
  char *x = mg_scratch((size_t)sub * b); /* own block first, then the children's subtrees */
  rc = mg_pack(c->sbuf, c->scount, c->stype, x, (int)b);
  for (int m = 1; m < sub && rc == MPI_SUCCESS; m <<= 1) {
    int s = m < sub - m ? m : sub - m;
    if ((rc = PMPI_Irecv(x + (size_t)m * b, (int)((size_t)s * b), MPI_BYTE, (vr + m + root) % p, MG_P2P_TAG_GATHER,
                         pc, &rq[nr])) == MPI_SUCCESS)
      nr++;
  }
  if ((rc = mg_p2p_waitall(nr, rq, rc)) != MPI_SUCCESS) return rc;
  return PMPI_Send(x, (int)((size_t)sub * b), MPI_BYTE, parent, MG_P2P_TAG_GATHER, pc);
}

/* ================================================================ scatter */

size_t mg_scatter_as_linear_mem(const mg_call *c) { return requests(c->size); }

int mg_scatter_as_linear(const mg_call *c, int unused) {
  (void)unused;
  MPI_Comm pc;
  mg_type st;
  int rc = mg_p2p_comm(c->comm, &pc), nr = 0;
  if (rc != MPI_SUCCESS) return rc;
  if (c->rank != c->root)
    return PMPI_Recv(c->rbuf, c->rcount, c->rtype, c->root, MG_P2P_TAG_SCATTER, pc, MPI_STATUS_IGNORE);
  if ((rc = mg_type_get(c->stype, &st)) != MPI_SUCCESS) return rc;
  MPI_Request *rq = mg_scratch(requests(c->size));
  for (int i = 0; i < c->size && rc == MPI_SUCCESS; i++)
    if (i != c->root &&
        (rc = PMPI_Isend(block(c->sbuf, &st, c->scount, i), c->scount, c->stype, i, MG_P2P_TAG_SCATTER, pc,
                         &rq[nr])) == MPI_SUCCESS)
      nr++;
  if (rc == MPI_SUCCESS && c->rbuf != MPI_IN_PLACE)
    rc = mg_copy(block(c->sbuf, &st, c->scount, c->root), c->scount, c->stype, c->rbuf, c->rcount, c->rtype);
  return mg_p2p_waitall(nr, rq, rc);
}

size_t mg_scatter_as_binomial_mem(const mg_call *c) { return mg_align((size_t)c->size * c->bytes); }

int mg_scatter_as_binomial(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, root = c->root, vr = (c->rank - root + p) % p, sub = mg_p2p_subtree(vr, p), nr = 0;
  size_t b = c->bytes;
  MPI_Comm pc;
  MPI_Request rq[8 * sizeof(int)];
  int rc = mg_p2p_comm(c->comm, &pc);
  if (rc != MPI_SUCCESS) return rc;
  if (vr == 0) { /* the root: each child's subtree from sbuf as it is, or packed into scratch */
    mg_type st;
    if ((rc = mg_type_get(c->stype, &st)) != MPI_SUCCESS) return rc;
    int dense = mg_type_is_dense(&st);
    char *x = NULL;
    for (int m = mg_p2p_pow2_ceil(p) / 2; m >= 1 && rc == MPI_SUCCESS; m >>= 1) {
      int s = m < p - m ? m : p - m;
      const char *from = direct_range((void *)c->sbuf, dense, root, p, m, s, b);
      if (!from) {
        if (!x) x = mg_scratch(mg_scatter_as_binomial_mem(c));
        for (int j = m; j < m + s && rc == MPI_SUCCESS; j++)
          rc = mg_pack(block(c->sbuf, &st, c->scount, (j + root) % p), c->scount, c->stype, x + (size_t)j * b, (int)b);
        from = x + (size_t)m * b;
      }
      if (rc == MPI_SUCCESS &&
          (rc = PMPI_Isend(from, (int)((size_t)s * b), MPI_BYTE, (m + root) % p, MG_P2P_TAG_SCATTER, pc, &rq[nr])) ==
              MPI_SUCCESS)
        nr++;
    }
    if (rc == MPI_SUCCESS && c->rbuf != MPI_IN_PLACE)
      rc = mg_copy(block(c->sbuf, &st, c->scount, root), c->scount, c->stype, c->rbuf, c->rcount, c->rtype);
    return mg_p2p_waitall(nr, rq, rc);
  }
  int parent = (vr - (vr & -vr) + root) % p;
  mg_type rt;
  if ((rc = mg_type_get(c->rtype, &rt)) != MPI_SUCCESS) return rc;
  int dense = mg_type_is_dense(&rt);
  if (sub == 1 && dense) /* a leaf: straight into its buffer */
    return PMPI_Recv(c->rbuf, (int)b, MPI_BYTE, parent, MG_P2P_TAG_SCATTER, pc, MPI_STATUS_IGNORE);
  char *x = mg_scratch((size_t)sub * b); /* own block first, then the children's subtrees */
  rc = PMPI_Recv(x, (int)((size_t)sub * b), MPI_BYTE, parent, MG_P2P_TAG_SCATTER, pc, MPI_STATUS_IGNORE);
  for (int m = mg_p2p_pow2_ceil(sub) / 2; m >= 1 && rc == MPI_SUCCESS; m >>= 1) {
    int s = m < sub - m ? m : sub - m;
    if (s > 0 && (rc = PMPI_Isend(x + (size_t)m * b, (int)((size_t)s * b), MPI_BYTE, (vr + m + root) % p,
                                  MG_P2P_TAG_SCATTER, pc, &rq[nr])) == MPI_SUCCESS)
      nr++;
  }
  if (rc == MPI_SUCCESS) rc = mg_unpack(x, (int)b, c->rbuf, c->rcount, c->rtype);
  return mg_p2p_waitall(nr, rq, rc);
}

/* ================================================================ allgather */

size_t mg_allgather_as_ring_mem(const mg_call *c) { return mg_align((size_t)c->size * c->bytes); }
size_t mg_allgather_as_recdbl_mem(const mg_call *c) { return mg_align((size_t)c->size * c->bytes); }
size_t mg_allgather_as_bruck_mem(const mg_call *c) { return mg_align((size_t)c->size * c->bytes); }

/* The byte image of the p blocks: the receive buffer itself when its type is dense, else scratch
 * of p n bytes; the own block placed in its slot. */
static int ag_image(const mg_call *c, const mg_type *rt, char **img) {
  size_t b = c->bytes;
  if (!mg_type_is_dense(rt)) {
    *img = mg_scratch((size_t)c->size * b);
    return mg_pack_own(c, *img + (size_t)c->rank * b);
  }
  *img = c->rbuf;
  if (c->sbuf == MPI_IN_PLACE) return MPI_SUCCESS;
  return mg_copy(c->sbuf, c->scount, c->stype, block(c->rbuf, rt, c->rcount, c->rank), c->rcount, c->rtype);
}

/* Unpack a scratch image into the receive buffer (all blocks but an in-place rank's own). */
static int ag_unpack(const mg_call *c, const mg_type *rt, const char *img) {
  int rc = MPI_SUCCESS;
  if (img == (const char *)c->rbuf) return rc;
  for (int i = 0; i < c->size && rc == MPI_SUCCESS; i++)
    if (i != c->rank || c->sbuf != MPI_IN_PLACE)
      rc = mg_unpack(img + (size_t)i * c->bytes, (int)c->bytes, block(c->rbuf, rt, c->rcount, i), c->rcount,
                     c->rtype);
  return rc;
}

int mg_allgather_as_ring(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, me = c->rank, bi = (int)c->bytes;
  size_t b = c->bytes;
  MPI_Comm pc;
  mg_type rt;
  char *img;
  int rc = mg_p2p_comm(c->comm, &pc);
  if (rc == MPI_SUCCESS) rc = mg_type_get(c->rtype, &rt);
  if (rc == MPI_SUCCESS) rc = ag_image(c, &rt, &img);
  for (int s = 0; s < p - 1 && rc == MPI_SUCCESS; s++) {
    int so = (me - s + p) % p, ro = (me - s - 1 + 2 * p) % p;
    rc = PMPI_Sendrecv(img + (size_t)so * b, bi, MPI_BYTE, (me + 1) % p, MG_P2P_TAG_ALLGATHER, img + (size_t)ro * b,
                       bi, MPI_BYTE, (me - 1 + p) % p, MG_P2P_TAG_ALLGATHER, pc, MPI_STATUS_IGNORE);
  }
  return rc == MPI_SUCCESS ? ag_unpack(c, &rt, img) : rc;
}

int mg_allgather_as_recdbl(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, me = c->rank, p2 = mg_p2p_pow2_floor(p), rem = p - p2;
  size_t b = c->bytes;
  MPI_Comm pc;
  mg_type rt;
  char *img;
  int rc = mg_p2p_comm(c->comm, &pc);
  if (rc == MPI_SUCCESS) rc = mg_type_get(c->rtype, &rt);
  if (rc == MPI_SUCCESS) rc = ag_image(c, &rt, &img);
  if (rc != MPI_SUCCESS) return rc;
  if (me >= p2) { /* an extra rank: its block to me - p2, later the whole result from there */
    rc = PMPI_Send(img + (size_t)me * b, (int)b, MPI_BYTE, me - p2, MG_P2P_TAG_ALLGATHER, pc);
    if (rc == MPI_SUCCESS)
      rc = PMPI_Recv(img, (int)((size_t)p * b), MPI_BYTE, me - p2, MG_P2P_TAG_ALLGATHER, pc, MPI_STATUS_IGNORE);
    return rc == MPI_SUCCESS ? ag_unpack(c, &rt, img) : rc;
  }
  if (me < rem)
    rc = PMPI_Recv(img + (size_t)(me + p2) * b, (int)b, MPI_BYTE, me + p2, MG_P2P_TAG_ALLGATHER, pc,
                   MPI_STATUS_IGNORE);
  /* before round `mask` rank i holds blocks [g, g + mask) and [g + p2, g + p2 + s) of the group
   * g = i & ~(mask - 1), s = min(mask, max(0, rem - g)): it sends both runs, receives the peer's */
  for (int mask = 1; mask < p2 && rc == MPI_SUCCESS; mask <<= 1) {
    int peer = me ^ mask, g = me & ~(mask - 1), gp = peer & ~(mask - 1), nr = 0;
    int s2 = rem - g < 0 ? 0 : rem - g > mask ? mask : rem - g, r2 = rem - gp < 0 ? 0 : rem - gp > mask ? mask : rem - gp;
    MPI_Request rq[4];
    struct {
      char *at;
      int blocks, send;
    } msg[4] = {{img + (size_t)gp * b, mask, 0},
                {img + (size_t)(gp + p2) * b, r2, 0},
                {img + (size_t)g * b, mask, 1},
                {img + (size_t)(g + p2) * b, s2, 1}};
    for (int k = 0; k < 4 && rc == MPI_SUCCESS; k++) {
      int cnt = (int)((size_t)msg[k].blocks * b);
      if (!msg[k].blocks) continue;
      rc = msg[k].send ? PMPI_Isend(msg[k].at, cnt, MPI_BYTE, peer, MG_P2P_TAG_ALLGATHER, pc, &rq[nr])
                       : PMPI_Irecv(msg[k].at, cnt, MPI_BYTE, peer, MG_P2P_TAG_ALLGATHER, pc, &rq[nr]);
      if (rc == MPI_SUCCESS) nr++;
    }
    rc = mg_p2p_waitall(nr, rq, rc);
  }
  if (rc == MPI_SUCCESS && me < rem)
    rc = PMPI_Send(img, (int)((size_t)p * b), MPI_BYTE, me + p2, MG_P2P_TAG_ALLGATHER, pc);
  return rc == MPI_SUCCESS ? ag_unpack(c, &rt, img) : rc;
}

int mg_allgather_as_bruck(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, me = c->rank;
  size_t b = c->bytes;
  MPI_Comm pc;
  mg_type rt;
  int rc = mg_p2p_comm(c->comm, &pc);
  if (rc == MPI_SUCCESS) rc = mg_type_get(c->rtype, &rt);
  if (rc != MPI_SUCCESS) return rc;
  char *x = mg_scratch((size_t)p * b); /* slot j: the block of rank (me + j) mod p */
  rc = mg_pack_own(c, x);
  for (int d = 1; d < p && rc == MPI_SUCCESS; d <<= 1) {
    int cnt = (int)((size_t)(d < p - d ? d : p - d) * b);
    rc = PMPI_Sendrecv(x, cnt, MPI_BYTE, (me - d + p) % p, MG_P2P_TAG_ALLGATHER, x + (size_t)d * b, cnt, MPI_BYTE,
                       (me + d) % p, MG_P2P_TAG_ALLGATHER, pc, MPI_STATUS_IGNORE);
  }
  if (rc != MPI_SUCCESS) return rc;
  if (mg_type_is_dense(&rt)) { /* undo the rotation: two runs */
    memcpy((char *)c->rbuf + (size_t)me * b, x, (size_t)(p - me) * b);
    memcpy(c->rbuf, x + (size_t)(p - me) * b, (size_t)me * b);
    return MPI_SUCCESS;
  }
  for (int j = 0; j < p && rc == MPI_SUCCESS; j++)
    if (j || c->sbuf != MPI_IN_PLACE)
      rc = mg_unpack(x + (size_t)j * b, (int)b, block(c->rbuf, &rt, c->rcount, (me + j) % p), c->rcount, c->rtype);
  return rc;
}

/* ================================================================ alltoall */

size_t mg_alltoall_as_linear_mem(const mg_call *c) {
  size_t pb = mg_align((size_t)c->size * c->bytes);
  return requests(2 * c->size) + (c->sbuf == MPI_IN_PLACE ? 2 * pb : 0); /* in place on all ranks or none */
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
  char *cur = mg_scratch(mg_alltoall_as_linear_mem(c));
  MPI_Request *rq = mg_carve(&cur, 2 * (size_t)p * sizeof(MPI_Request));
  if (!in) { /* every block straight from its send slot to its receive slot */
    for (int s = 1; s < p && rc == MPI_SUCCESS; s++) {
      int src = (me - s + p) % p;
      if ((rc = PMPI_Irecv(block(c->rbuf, &rt, c->rcount, src), c->rcount, c->rtype, src, MG_P2P_TAG_ALLTOALL, pc,
                           &rq[nr])) == MPI_SUCCESS)
        nr++;
    }
    for (int s = 1; s < p && rc == MPI_SUCCESS; s++) {
      int dst = (me + s) % p;
      if ((rc = PMPI_Isend(block(c->sbuf, &st, c->scount, dst), c->scount, c->stype, dst, MG_P2P_TAG_ALLTOALL, pc,
                           &rq[nr])) == MPI_SUCCESS)
        nr++;
    }
    if (rc == MPI_SUCCESS)
      rc = mg_copy(block(c->sbuf, &st, c->scount, me), c->scount, c->stype, block(c->rbuf, &rt, c->rcount, me),
                   c->rcount, c->rtype);
    return mg_p2p_waitall(nr, rq, rc);
  }
  /* in place: the blocks to send packed first, then packed bytes both ways (received straight
   * into a dense receive buffer, else into scratch and unpacked) */
  int dense = mg_type_is_dense(&rt);
  char *out = mg_carve(&cur, (size_t)p * b), *got = dense ? (char *)c->rbuf : mg_carve(&cur, (size_t)p * b);
  for (int i = 0; i < p && rc == MPI_SUCCESS; i++)
    if (i != me) rc = mg_pack(block(c->rbuf, &rt, c->rcount, i), c->rcount, c->rtype, out + (size_t)i * b, (int)b);
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
    if (i != me) rc = mg_unpack(got + (size_t)i * b, (int)b, block(c->rbuf, &rt, c->rcount, i), c->rcount, c->rtype);
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
    char *cur = mg_scratch(mg_alltoall_as_pairwise_mem(c)), *out = mg_carve(&cur, c->bytes), *got = cur;
    for (int r = 0; r < rounds && rc == MPI_SUCCESS; r++) {
      int peer = tournament_peer(p, me, r);
      if (peer < 0) continue;
      void *blk = block(c->rbuf, &rt, c->rcount, peer);
      rc = mg_pack(blk, c->rcount, c->rtype, out, bi);
      if (rc == MPI_SUCCESS)
        rc = PMPI_Sendrecv(out, bi, MPI_BYTE, peer, MG_P2P_TAG_ALLTOALL, dense ? blk : got, bi, MPI_BYTE, peer,
                           MG_P2P_TAG_ALLTOALL, pc, MPI_STATUS_IGNORE);
      if (rc == MPI_SUCCESS && !dense) rc = mg_unpack(got, bi, blk, c->rcount, c->rtype);
    }
    return rc;
  }
  if ((rc = mg_type_get(c->stype, &st)) != MPI_SUCCESS) return rc;
  rc = mg_copy(block(c->sbuf, &st, c->scount, me), c->scount, c->stype, block(c->rbuf, &rt, c->rcount, me), c->rcount,
               c->rtype);
  for (int s = 1; s < p && rc == MPI_SUCCESS; s++) {
    int dst = (me + s) % p, src = (me - s + p) % p;
    rc = PMPI_Sendrecv(block(c->sbuf, &st, c->scount, dst), c->scount, c->stype, dst, MG_P2P_TAG_ALLTOALL,
                       block(c->rbuf, &rt, c->rcount, src), c->rcount, c->rtype, src, MG_P2P_TAG_ALLTOALL, pc,
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
  char *cur = mg_scratch(mg_alltoall_as_bruck_mem(c));
  char *x = mg_carve(&cur, (size_t)p * b), *out = mg_carve(&cur, (size_t)p / 2 * b), *got = mg_carve(&cur, (size_t)p / 2 * b);
  /* slot j: the block for rank (me + j) mod p; after the rounds, the block from rank (me - j) mod p */
  for (int j = 0; j < p && rc == MPI_SUCCESS; j++) {
    int to = (me + j) % p;
    rc = in ? mg_pack(block(c->rbuf, &rt, c->rcount, to), c->rcount, c->rtype, x + (size_t)j * b, (int)b)
            : mg_pack(block(c->sbuf, &st, c->scount, to), c->scount, c->stype, x + (size_t)j * b, (int)b);
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
      rc = mg_unpack(from, (int)b, block(c->rbuf, &rt, c->rcount, i), c->rcount, c->rtype);
  }
  return rc;
}

/* ================================================================ LogGP costs */

/* Local copies: the own block (and the packing and unpacking a dense type needs none of); the
 * models price dense datatypes and root 0. */
static double copy(const mg_loggp *m, double bytes) { return m->copy * bytes; }

/* The root's p-1 receives arrive together: one message, then one per max(g, o_r). */
double mg_cost_gather_as_linear(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p <= 1) return copy(m, n);
  return copy(m, n) + mg_loggp_msg(m, n) + (p - 2) * mg_p2p_max(mg_loggp_gap(m, n), mg_loggp_or(m, n));
}

/* Binomial fan-in (mg_p2p_fanin): ceil(log2 p) rounds on the critical path, messages of
 * subtrees; the own block copied once. */
double mg_cost_gather_as_binomial(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return copy(m, n) + mg_p2p_fanin(m, p, n);
}

/* The root's p-1 sends leave one per max(g, o_s); the last arrives msg(n) after it left. */
double mg_cost_scatter_as_linear(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p <= 1) return copy(m, n);
  return copy(m, n) + (p - 2) * mg_p2p_max(mg_loggp_gap(m, n), mg_loggp_os(m, n)) + mg_loggp_msg(m, n);
}

/* Binomial fan-out, largest subtree first (mg_p2p_fanout); a rank other than a leaf unpacks its
 * own block from its subtree (n copy). */
double mg_cost_scatter_as_binomial(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return copy(m, n) + mg_p2p_fanout(m, p, n);
}

/* p-1 rounds, each a Sendrecv of n bytes that forwards the block received in the round before. */
double mg_cost_allgather_as_ring(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return copy(m, n) + (p - 1) * mg_loggp_msg(m, n);
}

/* p' = the largest power of two <= p, r = p - p'. r > 0: one message of n (extra rank to its
 * partner) before and one of p n (the result back) after. Round k (mask 2^k < p') exchanges the
 * run of 2^k blocks and, where the group carries extra blocks, a second run of min(2^k, r) blocks
 * (the critical path: group 0), which follows one gap later. */
double mg_cost_allgather_as_recdbl(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  int p2 = mg_p2p_pow2_floor(p), rem = p - p2;
  double t = copy(m, n);
  for (int mask = 1; mask < p2; mask <<= 1) {
    int second = rem < mask ? rem : mask;
    t += mg_loggp_msg(m, mask * n) + (second ? mg_loggp_gap(m, second * n) : 0);
  }
  if (rem) t += mg_loggp_msg(m, n) + mg_loggp_msg(m, p * n);
  return t;
}

/* ceil(log2 p) Sendrecv rounds of min(2^k, p - 2^k) blocks, then the rotation undone (p n copy). */
double mg_cost_allgather_as_bruck(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  double t = copy(m, n) + copy(m, p * n);
  for (int d = 1; d < p; d <<= 1) t += mg_loggp_msg(m, (d < p - d ? d : p - d) * n);
  return t;
}

/* p-1 sends and p-1 receives per rank, all posted at once: one message, then one per
 * max(g, o_s, o_r) on each rank. */
double mg_cost_alltoall_as_linear(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p <= 1) return copy(m, n);
  double per = mg_p2p_max(mg_loggp_gap(m, n), mg_p2p_max(mg_loggp_os(m, n), mg_loggp_or(m, n)));
  return copy(m, n) + mg_loggp_msg(m, n) + (p - 2) * per;
}

/* p-1 Sendrecv rounds of n bytes; not in place (in place: p or p-1 Sendrecv_replace rounds). */
double mg_cost_alltoall_as_pairwise(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return copy(m, n) + (p - 1) * mg_loggp_msg(m, n);
}

/* Rotate (p n copy), ceil(log2 p) rounds that pack, exchange and unpack the c_k blocks whose slot
 * has bit k set (c_k <= p/2: 2 c_k n copy + msg(c_k n)), rotate back (p n copy). */
double mg_cost_alltoall_as_bruck(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  double t = copy(m, 2.0 * p * n);
  for (int d = 1; d < p; d <<= 1) {
    int k = 0;
    for (int j = d; j < p; j += 2 * d) k += j + d <= p ? d : p - j;
    t += copy(m, 2.0 * k * n) + mg_loggp_msg(m, k * n);
  }
  return t;
}
