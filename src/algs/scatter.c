/*
 * Mock-ups of MPI_Scatter: the root sends block i of n bytes (sendcount x
 * size(sendtype); at non-roots recvcount x size(recvtype)) to rank i. Both
 * need p*n to fit an int (MG_R_PN_INT). MPI_IN_PLACE (as the root's receive
 * buffer) is known at the root only and changes nothing the others see.
 *
 * GL21 scatter_as_bcast  Scatter(n) <= Bcast(p*n)
 *   The root broadcasts all p blocks with its own send type; non-roots
 *   receive them packed into scratch (MPI_PACKED receives any type) and
 *   unpack their block; the root copies its own block locally. Scratch p*n
 *   bytes at non-roots. A bcast of p*n costs at least 2 log p alpha +
 *   2 (p-1)/p p n beta against ceil(log p) alpha + (p-1)/p p n beta for a
 *   binomial scatter.
 * GL22 scatter_as_scatterv  Scatter(n) <= Scatterv(n)
 *   Scatterv with equal counts and displacements i*count; the arrays exist
 *   at the root only. Scratch 2p ints at the root. Same cost as scatter.
 *
 * Point-to-point rows (the p2p family, TGT 2010 §V.D, eq. 35; p2p_sched.h: how their data travels,
 * the tags, the trees): simple algorithms written with PMPI point-to-point calls on the private
 * communicator of mg_p2p_comm. A library whose collective is slower than one of them is
 * inconsistent, and the algorithm is its repair. Costs in LogGP terms: msg(s) one message of s
 * bytes end to end, g(s) the gap between two sends, copy(s) a local copy; the cost functions
 * below price exactly these schedules; n is the per-rank block in bytes.
 *   scatter_as_linear     the root posts p-1 sends from its blocks. p requests at the root.
 *                         Cost (p-2) max(g(n), o_s(n)) + msg(n).
 *   scatter_as_binomial   the mirror of the gather: binomial fan-out, farthest child (2^k, k
 *                         largest) first; S(p) = max(msg((p-h) n) + S(p-h), g((p-h) n) + S(h)).
 *                         Scratch p n; p n must fit an int.
 * MPI_IN_PLACE. Scatter at the root: its block is not copied.
 */
#include "algs/algs.h"
#include "algs/p2p_sched.h"

size_t mg_scatter_as_bcast_mem(const mg_call *c) { return (size_t)c->size * c->bytes; }

int mg_scatter_as_bcast(const mg_call *c) {
  size_t n = c->bytes;
  int rc;
  if (c->rank == c->root) {
    rc = PMPI_Bcast((void *)c->sbuf, c->size * c->scount, c->stype, c->root, c->comm);
    if (rc != MPI_SUCCESS || c->rbuf == MPI_IN_PLACE) return rc;
    mg_type st;
    rc = mg_type_get(c->stype, &st);
    if (rc != MPI_SUCCESS) return rc;
    const void *own = mg_type_at(c->sbuf, &st, (size_t)c->root * (size_t)c->scount);
    return mg_copy(own, c->scount, c->stype, c->rbuf, c->rcount, c->rtype);
  }
  char *s = mg_scratch_data((size_t)c->size * n);
  rc = PMPI_Bcast(s, (int)((size_t)c->size * n), MPI_PACKED, c->root, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return mg_unpack(s + (size_t)c->rank * n, (int)n, c->rbuf, c->rcount, c->rtype);
}

size_t mg_scatter_as_scatterv_mem(const mg_call *c) { return 2 * (size_t)c->size * sizeof(int); }

int mg_scatter_as_scatterv(const mg_call *c) {
  int *counts = NULL, *displs = NULL;
  if (c->rank == c->root) {
    int p = c->size;
    counts = mg_scratch(2 * (size_t)p * sizeof(int));
    displs = counts + p;
    for (int i = 0; i < p; i++) {
      counts[i] = c->scount;
      displs[i] = i * c->scount;
    }
  }
  return PMPI_Scatterv(c->sbuf, counts, displs, c->stype, c->rbuf, c->rcount, c->rtype, c->root, c->comm);
}

size_t mg_scatter_as_linear_mem(const mg_call *c) { return mg_p2p_requests(c->size); }

int mg_scatter_as_linear(const mg_call *c, int unused) {
  (void)unused;
  MPI_Comm pc;
  mg_type st;
  int rc = mg_p2p_comm(c->comm, &pc), nr = 0;
  if (rc != MPI_SUCCESS) return rc;
  if (c->rank != c->root)
    return PMPI_Recv(c->rbuf, c->rcount, c->rtype, c->root, MG_P2P_TAG_SCATTER, pc, MPI_STATUS_IGNORE);
  if ((rc = mg_type_get(c->stype, &st)) != MPI_SUCCESS) return rc;
  MPI_Request *rq = mg_scratch(mg_p2p_requests(c->size));
  for (int i = 0; i < c->size && rc == MPI_SUCCESS; i++)
    if (i != c->root &&
        (rc = PMPI_Isend(mg_p2p_block(c->sbuf, &st, c->scount, i), c->scount, c->stype, i, MG_P2P_TAG_SCATTER, pc,
                         &rq[nr])) == MPI_SUCCESS)
      nr++;
  if (rc == MPI_SUCCESS && c->rbuf != MPI_IN_PLACE)
    rc = mg_copy(mg_p2p_block(c->sbuf, &st, c->scount, c->root), c->scount, c->stype, c->rbuf, c->rcount, c->rtype);
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
      const char *from = mg_p2p_direct_range((void *)c->sbuf, dense, root, p, m, s, b);
      if (!from) {
        if (!x) x = mg_scratch_data(mg_scatter_as_binomial_mem(c));
        for (int j = m; j < m + s && rc == MPI_SUCCESS; j++)
          rc = mg_pack(mg_p2p_block(c->sbuf, &st, c->scount, (j + root) % p), c->scount, c->stype, x + (size_t)j * b,
                       (int)b);
        from = x + (size_t)m * b;
      }
      if (rc == MPI_SUCCESS &&
          (rc = PMPI_Isend(from, (int)((size_t)s * b), MPI_BYTE, (m + root) % p, MG_P2P_TAG_SCATTER, pc, &rq[nr])) ==
              MPI_SUCCESS)
        nr++;
    }
    if (rc == MPI_SUCCESS && c->rbuf != MPI_IN_PLACE)
      rc = mg_copy(mg_p2p_block(c->sbuf, &st, c->scount, root), c->scount, c->stype, c->rbuf, c->rcount, c->rtype);
    return mg_p2p_waitall(nr, rq, rc);
  }
  int parent = (vr - (vr & -vr) + root) % p;
  mg_type rt;
  if ((rc = mg_type_get(c->rtype, &rt)) != MPI_SUCCESS) return rc;
  int dense = mg_type_is_dense(&rt);
  if (sub == 1 && dense) /* a leaf: straight into its buffer */
    return PMPI_Recv(c->rbuf, (int)b, MPI_BYTE, parent, MG_P2P_TAG_SCATTER, pc, MPI_STATUS_IGNORE);
  char *x = mg_scratch_data((size_t)sub * b); /* own block first, then the children's subtrees */
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

/* The root's p-1 sends leave one per max(g, o_s); the last arrives msg(n) after it left. */
double mg_cost_scatter_as_linear(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p <= 1) return mg_p2p_copy(m, n);
  return mg_p2p_copy(m, n) + (p - 2) * mg_p2p_max(mg_loggp_gap(m, n), mg_loggp_os(m, n)) + mg_loggp_msg(m, n);
}

/* Binomial fan-out, largest subtree first (mg_p2p_fanout); a rank other than a leaf unpacks its
 * own block from its subtree (n copy). */
double mg_cost_scatter_as_binomial(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return mg_p2p_copy(m, n) + mg_p2p_fanout(m, p, n);
}
