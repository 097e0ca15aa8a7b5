/*
 * Mock-ups of MPI_Gather: every rank sends a block of n bytes (sendcount x
 * size(sendtype); at the root recvcount x size(recvtype)) and the root
 * receives all p blocks in rank order. All need p*n to fit an int
 * (MG_R_PN_INT). MPI_IN_PLACE is possible at the root only, so only the root
 * may branch on it, and only in ways the other ranks cannot see.
 *
 * GL11 gather_as_allgather  Gather(n) <= Allgather(n)
 *   Allgather; non-roots receive the p blocks packed into scratch and drop
 *   them. Allgather takes MPI_IN_PLACE on all ranks or none, so an in-place
 *   root sends its own block like the others. Scratch p*n bytes at non-roots;
 *   at the root none, or p*n when it gathers in place or its type needs the
 *   detour described at mg_packed_recv_ok (toolkit.c). Allgather delivers p times the data:
 *   ceil(log p) alpha + (p-1) n beta on every rank, where a binomial gather
 *   costs that at the root alone; it pays off only against a poor gather.
 * GL12 gather_as_gatherv  Gather(n) <= Gatherv(n)
 *   Gatherv with equal counts and displacements i*count; the arrays exist at
 *   the root only. Scratch 2p ints at the root. Same cost as gather, often a
 *   linear (p-1)(alpha + n beta) algorithm in the library.
 * GL13 gather_as_reduce  Gather(n) <= Reduce(p*n)
 *   Bitwise-or reduce over a zeroed p*n byte vector in which each rank has
 *   written its packed block at its own offset; the root unpacks. Scratch p*n
 *   bytes, 2*p*n at the root: it reduces into a second buffer rather than in
 *   place, because MPICH 4.0.2 crashes in MPI_Reduce with MPI_IN_PLACE at a
 *   root other than 0 from 4 KiB on. A reduce moves and ors p*n bytes, e.g.
 *   2 log p alpha + 2 (p-1)/p p n beta for reduce-scatter + gather.
 *
 * Packed bytes travel as MPI_PACKED (matches any type) or MPI_BYTE (the
 * reduction), so ranks may use different datatypes of equal signature.
 *
 * Point-to-point rows (the p2p family, TGT 2010 §V.D, eq. 35; p2p_sched.h: how their data travels,
 * the tags, the trees): simple algorithms written with PMPI point-to-point calls on the private
 * communicator of mg_p2p_comm. A library whose collective is slower than one of them is
 * inconsistent, and the algorithm is its repair. Costs in LogGP terms: msg(s) one message of s
 * bytes end to end, g(s) the gap between two sends, copy(s) a local copy; the cost functions
 * below price exactly these schedules; n is the per-rank block in bytes.
 *   gather_as_linear      the root posts p-1 receives straight into its blocks (eq. 35), every
 *                         other rank sends its block. p requests at the root.
 *                         Cost msg(n) + (p-2) max(g(n), o_r(n)).
 *   gather_as_binomial    binomial fan-in over relative ranks: a rank packs its own block, receives
 *                         its children's subtrees behind it, sends the whole subtree to its parent.
 *                         ceil(log2 p) rounds, messages of up to p/2 blocks; critical path
 *                         F(p) = max(F(h), F(p-h) + msg((p-h) n)), h the largest power of two < p.
 *                         Scratch p n (the root: ranges that wrap past rank p-1 or a non-dense
 *                         type; elsewhere the subtree); p n must fit an int.
 * MPI_IN_PLACE. Gather at the root: its block is already in place (not packed where it need not
 * travel).
 *
 * One-sided row (TGT 2010 §VII; the window, its fences and errors in rma_window.c; bytes on
 * both sides of every Put and Get, so ranks may use different datatypes of one signature, and n
 * must fit an int count, MG_R_NB_INT; p = 1: no window, no scratch):
 * gather_as_rma_get    Gather(n) <= Win_fence + (p-1) x Get(n) + Win_fence (TGT's form, n the
 *   whole vector: p x Get(n/p)). Every rank but the root packs its block (n bytes) into its
 *   window; the root gets each block straight into its receive buffer (a dense receive type) or
 *   into scratch it unpacks from after the closing fence; its own block is a local copy (none in
 *   place). Cost 2 fences + (p-1) gets of n bytes to one origin + copy(n).
 */
#include <string.h>

#include "algs/algs.h"
#include "algs/p2p_sched.h"
#include "algs/rma_window.h"

size_t mg_gather_as_allgather_mem(const mg_call *c) { return (size_t)c->size * c->bytes; }

int mg_gather_as_allgather(const mg_call *c) {
  size_t n = c->bytes, pn = (size_t)c->size * n;
  if (c->rank != c->root) {
    void *s = mg_scratch_data(pn);
    return PMPI_Allgather(c->sbuf, c->scount, c->stype, s, (int)n, MPI_PACKED, c->comm);
  }
  int direct, rc = mg_packed_recv_ok(c->rtype, &direct);
  if (rc != MPI_SUCCESS) return rc;
  if (direct && c->sbuf != MPI_IN_PLACE)
    return PMPI_Allgather(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, c->comm);
  void *s = mg_scratch_data(pn);
  if (c->sbuf == MPI_IN_PLACE) { /* the own block is sent from the receive buffer, so gather into scratch */
    mg_type rt;
    rc = mg_type_get(c->rtype, &rt);
    if (rc != MPI_SUCCESS) return rc;
    rc = PMPI_Allgather(mg_type_at(c->rbuf, &rt, (size_t)c->root * (size_t)c->rcount), c->rcount, c->rtype, s,
                        (int)n, MPI_PACKED, c->comm);
  } else {
    rc = PMPI_Allgather(c->sbuf, c->scount, c->stype, s, (int)n, MPI_PACKED, c->comm);
  }
  if (rc != MPI_SUCCESS) return rc;
  /* in place this rewrites the root's own block with its own values */
  return mg_unpack(s, (int)pn, c->rbuf, c->size * c->rcount, c->rtype);
}

size_t mg_gather_as_gatherv_mem(const mg_call *c) { return 2 * (size_t)c->size * sizeof(int); }

int mg_gather_as_gatherv(const mg_call *c) {
  int *counts = NULL, *displs = NULL;
  if (c->rank == c->root) {
    int p = c->size;
    counts = mg_scratch(2 * (size_t)p * sizeof(int));
    displs = counts + p;
    for (int i = 0; i < p; i++) {
      counts[i] = c->rcount;
      displs[i] = i * c->rcount;
    }
  }
  return PMPI_Gatherv(c->sbuf, c->scount, c->stype, c->rbuf, counts, displs, c->rtype, c->root, c->comm);
}

size_t mg_gather_as_reduce_mem(const mg_call *c) {
  size_t pn = (size_t)c->size * c->bytes;
  return mg_align(pn) + pn;
}

int mg_gather_as_reduce(const mg_call *c) {
  size_t n = c->bytes, pn = (size_t)c->size * n;
  int root = c->rank == c->root;
  char *cur = mg_scratch_data(root ? mg_align(pn) + pn : pn);
  char *s = mg_carve(&cur, pn);
  memset(s, 0, pn);
  int rc = mg_pack_own(c, s + (size_t)c->rank * n);
  if (rc != MPI_SUCCESS) return rc;
  if (!root) return PMPI_Reduce(s, NULL, (int)pn, MPI_BYTE, MPI_BOR, c->root, c->comm);
  char *r = mg_carve(&cur, pn);
  rc = PMPI_Reduce(s, r, (int)pn, MPI_BYTE, MPI_BOR, c->root, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return mg_unpack(r, (int)pn, c->rbuf, c->size * c->rcount, c->rtype);
}

size_t mg_gather_as_linear_mem(const mg_call *c) { return mg_p2p_requests(c->size); }

int mg_gather_as_linear(const mg_call *c, int unused) {
  (void)unused;
  MPI_Comm pc;
  mg_type rt;
  int rc = mg_p2p_comm(c->comm, &pc), nr = 0;
  if (rc != MPI_SUCCESS) return rc;
  if (c->rank != c->root) return PMPI_Send(c->sbuf, c->scount, c->stype, c->root, MG_P2P_TAG_GATHER, pc);
  if ((rc = mg_type_get(c->rtype, &rt)) != MPI_SUCCESS) return rc;
  MPI_Request *rq = mg_scratch(mg_p2p_requests(c->size));
  for (int i = 0; i < c->size && rc == MPI_SUCCESS; i++)
    if (i != c->root &&
        (rc = PMPI_Irecv(mg_p2p_block(c->rbuf, &rt, c->rcount, i), c->rcount, c->rtype, i, MG_P2P_TAG_GATHER, pc,
                         &rq[nr])) == MPI_SUCCESS)
      nr++;
  if (rc == MPI_SUCCESS && c->sbuf != MPI_IN_PLACE)
    rc = mg_copy(c->sbuf, c->scount, c->stype, mg_p2p_block(c->rbuf, &rt, c->rcount, c->root), c->rcount, c->rtype);
  return mg_p2p_waitall(nr, rq, rc);
}

size_t mg_gather_as_binomial_mem(const mg_call *c) { return mg_align((size_t)c->size * c->bytes); }

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
      char *to = mg_p2p_direct_range(c->rbuf, dense, root, p, m, s, b);
      if (!to) to = (x ? x : (x = mg_scratch_data(mg_gather_as_binomial_mem(c)))) + (size_t)m * b;
      if ((rc = PMPI_Irecv(to, (int)((size_t)s * b), MPI_BYTE, (m + root) % p, MG_P2P_TAG_GATHER, pc, &rq[nr])) ==
          MPI_SUCCESS)
        nr++;
    }
    if (rc == MPI_SUCCESS && c->sbuf != MPI_IN_PLACE)
      rc = mg_copy(c->sbuf, c->scount, c->stype, mg_p2p_block(c->rbuf, &rt, c->rcount, root), c->rcount, c->rtype);
    if ((rc = mg_p2p_waitall(nr, rq, rc)) != MPI_SUCCESS || !x) return rc;
    for (int m = 1; m < p && rc == MPI_SUCCESS; m <<= 1) { /* the ranges that came through scratch */
      int s = m < p - m ? m : p - m;
      if (mg_p2p_direct_range(c->rbuf, dense, root, p, m, s, b)) continue;
      for (int j = m; j < m + s && rc == MPI_SUCCESS; j++)
        rc = mg_unpack(x + (size_t)j * b, (int)b, mg_p2p_block(c->rbuf, &rt, c->rcount, (j + root) % p), c->rcount,
                       c->rtype);
    }
    return rc;
  }
  int parent = (vr - (vr & -vr) + root) % p;
  mg_type st;
  if ((rc = mg_type_get(c->stype, &st)) != MPI_SUCCESS) return rc;
  if (sub == 1 && mg_type_is_dense(&st)) /* a leaf: its block as it is */
    return PMPI_Send(c->sbuf, (int)b, MPI_BYTE, parent, MG_P2P_TAG_GATHER, pc);
  char *x = mg_scratch_data((size_t)sub * b); /* own block first, then the children's subtrees */
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

/* The root's p-1 receives arrive together: one message, then one per max(g, o_r). */
double mg_cost_gather_as_linear(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p <= 1) return mg_p2p_copy(m, n);
  return mg_p2p_copy(m, n) + mg_loggp_msg(m, n) + (p - 2) * mg_p2p_max(mg_loggp_gap(m, n), mg_loggp_or(m, n));
}

/* Binomial fan-in (mg_p2p_fanin): ceil(log2 p) rounds on the critical path, messages of
 * subtrees; the own block copied once. */
double mg_cost_gather_as_binomial(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return mg_p2p_copy(m, n) + mg_p2p_fanin(m, p, n);
}

/* ---- gather: fence, (p-1) gets by the root, fence ---- */

size_t mg_gather_as_rma_get_mem(const mg_call *c) { /* the window + the root's staging (p = 1: neither) */
  return c->size > 1 ? mg_rma_win_bytes(c->bytes) + mg_align((size_t)(c->size - 1) * c->bytes) : 0;
}

int mg_gather_as_rma_get(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, me = c->rank, root = me == c->root, n = (int)c->bytes, rc = MPI_SUCCESS;
  mg_type rt, st;
  mg_rma_rec *w = NULL;
  char *stage = NULL;
  if (root && (rc = mg_type_get(c->rtype, &rt)) != MPI_SUCCESS) return rc;
  if (p > 1) {
    if ((rc = mg_rma_window(c, c->bytes, &w)) != MPI_SUCCESS) return rc;
    if (!w) return mg_run(c, 0); /* no window here (rma_window.c): mg_late.why says so */
    if (!root) { /* the own block, packed into the own window (before the epoch) */
      if ((rc = mg_type_get(c->stype, &st)) != MPI_SUCCESS) return rc;
      if (mg_type_is_dense(&st))
        memcpy(w->base, c->sbuf, c->bytes);
      else if ((rc = mg_pack(c->sbuf, c->scount, c->stype, w->base, n)) != MPI_SUCCESS)
        return rc;
    }
    int dense = root && mg_type_is_dense(&rt);
    if (root && !dense) stage = mg_scratch_data((size_t)(p - 1) * c->bytes);
    rc = PMPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOPUT, w->win);
    for (int i = 0, k = 0; root && i < p && rc == MPI_SUCCESS; i++) {
      if (i == me) continue;
      void *dst = dense ? mg_type_at(c->rbuf, &rt, (size_t)i * (size_t)c->rcount) : stage + (size_t)k++ * c->bytes;
      rc = PMPI_Get(dst, n, MPI_BYTE, i, 0, n, MPI_BYTE, w->win);
    }
    if (rc == MPI_SUCCESS) rc = PMPI_Win_fence(MPI_MODE_NOSUCCEED, w->win);
    if (rc != MPI_SUCCESS) return mg_rma_win_error(c, rc);
  }
  if (!root) return MPI_SUCCESS;
  for (int i = 0, k = 0; stage && i < p && rc == MPI_SUCCESS; i++)
    if (i != me)
      rc = mg_unpack(stage + (size_t)k++ * c->bytes, n, mg_type_at(c->rbuf, &rt, (size_t)i * (size_t)c->rcount),
                     c->rcount, c->rtype);
  if (rc == MPI_SUCCESS && c->sbuf != MPI_IN_PLACE)
    rc = mg_copy(c->sbuf, c->scount, c->stype, mg_type_at(c->rbuf, &rt, (size_t)me * (size_t)c->rcount), c->rcount,
                 c->rtype);
  return rc;
}
