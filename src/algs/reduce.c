/*
 * Mock-ups of MPI_Reduce: every rank contributes a vector of count elements
 * (n bytes); the root receives the element-wise reduction in rank order.
 * MPI_IN_PLACE is possible at the root only (its input is then in the
 * receive buffer), so no rank but the root may branch on it; non-roots never
 * read the receive buffer.
 *
 * GL14 reduce_as_allreduce  Reduce(n) <= Allreduce(n)
 *   Allreduce; non-roots receive into scratch of n. A root with MPI_IN_PLACE
 *   first copies its input to scratch (the standard does not allow mixing
 *   in-place and not in-place ranks in an allreduce). Scratch span(count).
 *   Costs what the library's allreduce costs, about 2 log p alpha +
 *   2 (p-1)/p n beta + (p-1)/p n gamma for large n: it wins where the
 *   library's reduce is worse tuned than its allreduce.
 * GL15 reduce_as_reducescatterblock_gather
 *     Reduce(n) <= Reduce_scatter_block(n) + Gather(n/p)
 *   Every rank reduces one block of blk = ceil(count/p) elements into
 *   scratch, then the root gathers the blocks: log p alpha + (p-1)/p n
 *   (beta + gamma) for the reduce_scatter, (p-1)/p n beta more for a gather.
 *   When p divides count: scratch span(blk). Otherwise the input is copied
 *   into a vector padded to p*blk elements (scratch span(p*blk)), reduced in
 *   place there, gathered in place into it at the root, and the root copies
 *   the first count elements out.
 *   Padding makes the op see more elements than the call has: only a
 *   predefined op may pad (MG_R_PAD_PREDEFINED_OP).
 * GL16 reduce_as_reducescatter_gatherv  Reduce(n) <= Reduce_scatter(n) + Gatherv(n)
 *   As GL15 with segments of whole 64-byte blocks (segments.h) instead of
 *   padding. Scratch 2p ints and rank 0's segment (about n/p, rounded up to
 *   whole blocks).
 *
 * GL15 and GL16 are built on Reduce_scatter(_block), wrong in MPICH 4.0.2 for
 * non-commutative ops on datatypes with gaps: both carry MG_R_COMMUTE_OR_DENSE.
 *
 * Point-to-point rows (the p2p family, TGT 2010 eq. 35 and §V.D; the shared machinery, the
 * order of combination and the terms of the costs in p2p_reduction.h):
 * reduce_as_linear          the root receives x(p-1), then x(p-2) ... x0 in turn and folds
 *   each into its receive buffer from the left (Open MPI's basic linear). Scratch at the root:
 *   one vector for the receives, one for an in-place root's input. Cost T(n) + (p-2) g(n) +
 *   (p-1) gamma n.
 * reduce_as_binomial        binomial tree, whole vectors: v receives from v+1, v+2, v+4 ...
 *   (its subtrees, which hold higher ranks) and sends its partial to v - lowbit(v). v is the
 *   rank relative to the root for a commutative op; for a non-commutative one the tree is
 *   rooted at rank 0 (v = rank, so every subtree is a run of consecutive ranks) and rank 0
 *   sends the result to the root (MPICH does the same). Scratch 2 vectors. Cost
 *   ceil(log2 p) (T(n) + gamma n) (+ T(n) for a non-commutative op at a root other than 0).
 * reduce_as_chain<seg>      pipelined chains in segments of whole elements (seg bytes, at least
 *   one element): from rank p-1 down to the root, each rank prepending its own segment
 *   (x_i op suffix), and from rank 0 up to the root, each appending its own (prefix op x_i,
 *   from a copy of its segment); the root folds prefix op own op suffix. Both arms run at
 *   once, rank order is kept, any op. Scratch 3 segments. Cost for root 0 (one arm of p-1
 *   hops): (p-1) (T(s) + gamma s) + (ceil(n/s)-1) (g(s) + gamma s), s = min(seg, n).
 * reduce_as_rabenseifner    r = p - p' extra ranks fold first (rank 2i sends its vector to
 *   2i+1, which combines x(2i) op x(2i+1)); the p' others reduce-scatter by recursive halving
 *   with distances 1, 2, 4 ... (a partial always covers a run of consecutive ranks, so the
 *   lower one is the left operand: any op) over p' blocks of the vector, then a binomial
 *   gather of the blocks to the root (to its odd neighbour, which sends it the vector, when
 *   the root folded). Scratch 2 vectors. Cost: [r > 0] (T(n) + gamma n) + sum_k (x(n/2^k) +
 *   gamma n/2^k) + sum_k T(n/2^k) (k = 1..log2 p') (+ T(n) when the root folded).
 */
#include "algs/algs.h"
#include "algs/segments.h"
#include "algs/p2p_reduction.h"

/* The rank's input: with MPI_IN_PLACE (root only) it is in the receive buffer. */
static const void *input(const mg_call *c) {
  return c->rank == c->root && c->sbuf == MPI_IN_PLACE ? c->rbuf : c->sbuf;
}

size_t mg_reduce_as_allreduce_mem(const mg_call *c) { return mg_typed_span(c->rtype, (size_t)c->rcount); }

int mg_reduce_as_allreduce(const mg_call *c) {
  int n = c->rcount;
  if (c->rank == c->root && c->sbuf != MPI_IN_PLACE)
    return PMPI_Allreduce(c->sbuf, c->rbuf, n, c->rtype, c->op, c->comm);
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  void *s = mg_type_base(mg_scratch_data(mg_type_span(&t, (size_t)n)), &t);
  if (c->rank != c->root) return PMPI_Allreduce(c->sbuf, s, n, c->rtype, c->op, c->comm);
  rc = mg_copy(c->rbuf, n, c->rtype, s, n, c->rtype);
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Allreduce(s, c->rbuf, n, c->rtype, c->op, c->comm);
}

static int ceil_div(int a, int b) { return a / b + (a % b != 0); }

size_t mg_reduce_as_reducescatterblock_gather_mem(const mg_call *c) {
  int n = c->rcount, p = c->size, blk = ceil_div(n, p);
  return mg_typed_span(c->rtype, n % p == 0 ? (size_t)blk : (size_t)blk * (size_t)p);
}

int mg_reduce_as_reducescatterblock_gather(const mg_call *c) {
  int n = c->rcount, p = c->size, blk = ceil_div(n, p);
  int root = c->root, at_root = c->rank == root;
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  if (n % p == 0) {
    /* A root in place: the reduce_scatter reads its receive buffer before the gather writes it. */
    void *b = mg_type_base(mg_scratch_data(mg_type_span(&t, (size_t)blk)), &t);
    rc = PMPI_Reduce_scatter_block(input(c), b, blk, c->rtype, c->op, c->comm);
    if (rc != MPI_SUCCESS) return rc;
    return PMPI_Gather(b, blk, c->rtype, c->rbuf, blk, c->rtype, root, c->comm);
  }
  size_t padded = (size_t)blk * (size_t)p;
  void *v = mg_type_base(mg_scratch_data(mg_type_span(&t, padded)), &t);
  rc = mg_copy_padded(input(c), v, &t, c->rtype, n, padded);
  if (rc == MPI_SUCCESS) rc = PMPI_Reduce_scatter_block(MPI_IN_PLACE, v, blk, c->rtype, c->op, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  if (!at_root) return PMPI_Gather(v, blk, c->rtype, NULL, 0, c->rtype, root, c->comm);
  /* The root's block came back at the start of v; the in-place gather wants it at its offset. */
  if (root > 0) rc = mg_copy(v, blk, c->rtype, mg_type_at(v, &t, (size_t)root * (size_t)blk), blk, c->rtype);
  if (rc == MPI_SUCCESS) rc = PMPI_Gather(MPI_IN_PLACE, blk, c->rtype, v, blk, c->rtype, root, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return mg_copy(v, n, c->rtype, c->rbuf, n, c->rtype);
}

size_t mg_reduce_as_reducescatter_gatherv_mem(const mg_call *c) {
  mg_type t;
  if (mg_type_get(c->rtype, &t) != MPI_SUCCESS) return SIZE_MAX;
  size_t seg = mg_type_span(&t, (size_t)mg_segment_max(c->rcount, t.size, c->size));
  return mg_align(2 * (size_t)c->size * sizeof(int)) + seg;
}

int mg_reduce_as_reducescatter_gatherv(const mg_call *c) {
  int p = c->size, r = c->rank;
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  size_t ints = 2 * (size_t)p * sizeof(int);
  size_t seg_bytes = mg_type_span(&t, (size_t)mg_segment_max(c->rcount, t.size, p));
  char *data, *cursor = mg_scratch_split(ints, seg_bytes, &data);
  int *counts = mg_carve(&cursor, ints), *displs = counts + p;
  void *seg = mg_type_base(data, &t);
  mg_segments(c->rcount, t.size, p, counts, displs);
  rc = PMPI_Reduce_scatter(input(c), seg, counts, c->rtype, c->op, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Gatherv(seg, counts[r], c->rtype, c->rbuf, counts, displs, c->rtype, c->root, c->comm);
}

size_t mg_reduce_as_linear_mem(const mg_call *c) { return mg_red_vectors_mem(c, 2, (size_t)c->rcount); }

int mg_reduce_as_linear(const mg_call *c, int unused) {
  (void)unused;
  mg_red s;
  int rc = mg_red_init(&s, c), p = c->size, root = c->root, n = c->rcount;
  if (rc != MPI_SUCCESS) return rc;
  if (c->rank != root) return mg_red_send(&s, c->sbuf, 0, n, root);
  char *v[2];
  mg_red_vectors(&s, (size_t)n, 2, v); /* v[0]: receives, v[1]: an in-place root's input */
  const void *mine = mg_red_input(c);
  if (mg_red_in_place(c) && root != p - 1) { /* the receive buffer takes x(p-1) first */
    if ((rc = mg_red_copy_range(&s, c->rbuf, v[1], 0, n)) != MPI_SUCCESS) return rc;
    mine = v[1];
  }
  rc = root == p - 1 ? mg_red_copy_range(&s, mine, c->rbuf, 0, n) : mg_red_recv_into(&s, c->rbuf, 0, n, p - 1);
  for (int i = p - 2; i >= 0 && rc == MPI_SUCCESS; i--) {
    const void *x = mine;
    if (i != root) rc = mg_red_recv_into(&s, v[0], 0, n, i), x = v[0];
    if (rc == MPI_SUCCESS) rc = PMPI_Reduce_local(x, c->rbuf, n, s.dt, s.op);
  }
  return rc;
}

double mg_cost_reduce_as_linear(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p < 2) return 0;
  return mg_p2p_msgs(m, p - 1, n) + (p - 1) * m->reduce * n;
}

size_t mg_reduce_as_binomial_mem(const mg_call *c) { return mg_red_vectors_mem(c, 2, (size_t)c->rcount); }

int mg_reduce_as_binomial(const mg_call *c, int unused) {
  (void)unused;
  mg_red s;
  int rc = mg_red_init(&s, c), p = c->size, r = c->rank, root = c->root, n = c->rcount;
  if (rc != MPI_SUCCESS) return rc;
  int troot = s.commute ? root : 0, g = mg_p2p_rel(r, troot, p), at_root = r == root;
  char *v[2];
  mg_red_vectors(&s, (size_t)n, 2, v);
  s.cur = (char *)mg_red_input(c);
  s.cur_w = mg_red_in_place(c);
  if (at_root) { /* the root's last receive lands in its receive buffer: order w by parity */
    int k = g == 0 ? mg_p2p_log2_ceil(p) : 0, rbuf_first = mg_red_in_place(c) || k % 2;
    s.w[0] = rbuf_first ? c->rbuf : v[0];
    s.w[1] = rbuf_first ? v[0] : c->rbuf;
  } else {
    s.w[0] = v[0], s.w[1] = v[1];
  }
  for (int mask = 1; mask < p && rc == MPI_SUCCESS; mask <<= 1) {
    if (g & mask) {
      rc = mg_red_send(&s, s.cur, 0, n, mg_p2p_abs(g - mask, troot, p));
      break;
    }
    if (g + mask < p) rc = mg_red_recv(&s, mg_p2p_abs(g + mask, troot, p), 0, n, 0); /* higher ranks: right operand */
  }
  if (rc != MPI_SUCCESS) return rc;
  if (g == 0 && troot == root) return mg_red_copy_range(&s, s.cur, c->rbuf, 0, n);
  if (g == 0) return mg_red_send(&s, s.cur, 0, n, root); /* non-commutative: rank 0 to the root */
  if (at_root) return mg_red_recv_into(&s, c->rbuf, 0, n, troot);
  return MPI_SUCCESS;
}

double mg_cost_reduce_as_binomial(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  double t = 0; /* each round crowded by its messages (mg_p2p_round_crowding) */
  for (int step = 1; step < p; step <<= 1) t += mg_p2p_round_crowding(m, p, step) * (mg_p2p_msg(m, n) + m->reduce * n);
  return t;
}

/* Elements per segment: seg bytes of whole elements, at least one. */
static long long seg_elems(int seg, int size) {
  long long e = (seg > 0 ? seg : MG_P2P_SEG16K) / (size > 0 ? size : 1);
  return e > 0 ? e : 1;
}

size_t mg_reduce_as_chain16k_mem(const mg_call *c) {
  mg_type t;
  if (mg_type_get(c->rtype, &t) != MPI_SUCCESS) return SIZE_MAX;
  long long e = seg_elems(MG_P2P_SEG16K, t.size);
  return mg_red_vectors_mem(c, 3, (size_t)(e < c->rcount ? e : c->rcount));
}

int mg_reduce_as_chain(const mg_call *c, int seg) {
  mg_red s;
  int rc = mg_red_init(&s, c), p = c->size, r = c->rank, root = c->root;
  if (rc != MPI_SUCCESS) return rc;
  long long n = c->rcount, e = seg_elems(seg, s.t.size);
  if (e > n) e = n;
  long long nseg = (n + e - 1) / e;
  const char *in = mg_red_input(c);
  char *b[3];
  mg_red_vectors(&s, (size_t)e, 3, b);
  MPI_Request sr = MPI_REQUEST_NULL;
  for (long long k = 0; k < nseg && rc == MPI_SUCCESS; k++) {
    long long off = k * e, len = n - off < e ? n - off : e;
    const char *own = mg_red_at(&s, in, off);
    if (r == root) {
      char *dst = mg_red_at(&s, c->rbuf, off), *acc = dst;
      if (root < p - 1) { /* suffix x(root+1) op ... op x(p-1): own on its left */
        acc = mg_red_in_place(c) ? b[0] : dst;
        rc = mg_red_recv_into(&s, acc, 0, len, r + 1);
        if (rc == MPI_SUCCESS) rc = PMPI_Reduce_local(own, acc, (int)len, s.dt, s.op);
      } else if (!mg_red_in_place(c)) {
        rc = mg_copy(own, (int)len, s.dt, dst, (int)len, s.dt);
      }
      if (rc == MPI_SUCCESS && root > 0) { /* prefix x0 op ... op x(root-1) on the left */
        rc = mg_red_recv_into(&s, b[1], 0, len, r - 1);
        if (rc == MPI_SUCCESS) rc = PMPI_Reduce_local(b[1], acc, (int)len, s.dt, s.op);
      }
      if (rc == MPI_SUCCESS && acc != dst) rc = mg_copy(acc, (int)len, s.dt, dst, (int)len, s.dt);
      continue;
    }
    int right = r > root; /* the arm from p-1 down (else from 0 up) */
    int from = right ? r + 1 : r - 1, to = right ? r - 1 : r + 1, end = right ? r == p - 1 : r == 0;
    if (end) { /* the arm starts with the own segment */
      rc = PMPI_Send(own, (int)len, s.dt, to, MG_P2P_TAG, s.pc);
      continue;
    }
    char *x = b[k % 2]; /* sent from; its send of segment k-2 is complete */
    if (right) { /* x(r) op suffix: the result lands in the received buffer */
      rc = mg_red_recv_into(&s, x, 0, len, from);
      if (rc == MPI_SUCCESS) rc = PMPI_Reduce_local(own, x, (int)len, s.dt, s.op);
    } else { /* prefix op x(r): into a copy of the own segment */
      rc = mg_red_recv_into(&s, b[2], 0, len, from);
      if (rc == MPI_SUCCESS) rc = mg_copy(own, (int)len, s.dt, x, (int)len, s.dt);
      if (rc == MPI_SUCCESS) rc = PMPI_Reduce_local(b[2], x, (int)len, s.dt, s.op);
    }
    if (rc == MPI_SUCCESS) rc = PMPI_Wait(&sr, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) rc = PMPI_Isend(x, (int)len, s.dt, to, MG_P2P_TAG, s.pc, &sr);
  }
  if (rc == MPI_SUCCESS) rc = PMPI_Wait(&sr, MPI_STATUS_IGNORE);
  return rc;
}

double mg_cost_reduce_as_chain(const mg_loggp *m, int p, double n, int param) {
  double s = param > 0 && param < n ? param : n, k = n > 0 && s > 0 ? (double)(long long)((n + s - 1) / s) : 1;
  if (p < 2) return 0;
  return (p - 1) * (mg_p2p_msg(m, s) + m->reduce * s) + (k - 1) * (mg_loggp_gap(m, s) + m->reduce * s);
}

size_t mg_reduce_as_rabenseifner_mem(const mg_call *c) { return mg_red_vectors_mem(c, 2, (size_t)c->rcount); }

int mg_reduce_as_rabenseifner(const mg_call *c, int unused) {
  (void)unused;
  mg_red s;
  int rc = mg_red_init(&s, c), p = c->size, r = c->rank, root = c->root, n = c->rcount;
  if (rc != MPI_SUCCESS) return rc;
  const char *in = mg_red_input(c);
  if (p == 1) return mg_red_copy_range(&s, in, c->rbuf, 0, n);
  mg_red_fold f = mg_red_fold_of(r, p);
  char *v[2];
  mg_red_vectors(&s, (size_t)n, 2, v);
  s.cur = (char *)in;
  s.cur_w = mg_red_in_place(c);
  s.w[0] = r == root ? c->rbuf : v[0];
  s.w[1] = r == root ? v[0] : v[1];
  if (f.me < 0) { /* rank 2i folds into 2i+1; a folded root gets the result from it */
    rc = mg_red_send(&s, in, 0, n, r + 1);
    if (rc == MPI_SUCCESS && r == root) rc = mg_red_recv_into(&s, c->rbuf, 0, n, r + 1);
    return rc;
  }
  if (r < 2 * f.rem && (rc = mg_red_recv(&s, r - 1, 0, n, 1)) != MPI_SUCCESS) return rc;
  long long ctx[2] = {n, f.pof2};
  int plo, phi;
  if ((rc = mg_red_halving(&s, &f, 1, mg_red_even_off, ctx, &plo, &phi)) != MPI_SUCCESS) return rc;
  mg_red_fold fr = mg_red_fold_of(root, p);
  int R = fr.me >= 0 ? fr.me : mg_red_fold_of(root + 1, p).me, me = f.me;
  if (r == root && s.cur != c->rbuf) { /* gather into the receive buffer */
    rc = mg_red_copy_range(&s, s.cur, c->rbuf, mg_red_blk_off(n, f.pof2, plo), mg_red_blk_off(n, f.pof2, phi));
    s.cur = c->rbuf;
  }
  for (int mask = f.pof2 >> 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) {
    int partner = me ^ mask, lo = plo, hi = phi;
    mg_red_undo(me, mask, &lo, &hi);
    if ((me ^ R) & mask) {
      rc = mg_red_send(&s, s.cur, mg_red_blk_off(n, f.pof2, plo), mg_red_blk_off(n, f.pof2, phi),
                       mg_red_fold_real(&f, partner));
      return rc;
    }
    /* the partner's half of [lo, hi) */
    int qlo = plo == lo ? phi : lo, qhi = plo == lo ? hi : plo;
    rc = mg_red_recv_into(&s, s.cur, mg_red_blk_off(n, f.pof2, qlo), mg_red_blk_off(n, f.pof2, qhi),
                          mg_red_fold_real(&f, partner));
    plo = lo, phi = hi;
  }
  if (rc == MPI_SUCCESS && me == R && r != root) rc = mg_red_send(&s, s.cur, 0, n, root); /* the folded root */
  return rc;
}

double mg_cost_reduce_as_rabenseifner(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p < 2) return 0;
  int pof2 = mg_p2p_pow2_floor(p), rem = p - pof2;
  double t = mg_red_halving_cost(m, pof2, n) + m->copy * n / pof2;
  for (int mask = pof2 >> 1; mask > 0; mask >>= 1) t += mg_p2p_msg(m, n / (2 * mask)); /* gather */
  if (rem) t += 2 * mg_p2p_msg(m, n) + m->reduce * n; /* fold; root 0 folded: the vector from rank 1 */
  return t;
}
