/*
 * Mock-ups of MPI_Allreduce: every rank contributes a vector of count
 * elements (n bytes) and receives the element-wise reduction over all ranks,
 * combined in rank order (so non-commutative ops are right: every part below
 * is itself a rank-ordered reduction).
 *
 * GL5 allreduce_as_reduce_bcast  Allreduce(n) <= Reduce(n) + Bcast(n)
 *   Reduce to rank 0, broadcast from there. No scratch. With binomial trees
 *   2 ceil(log p)(alpha + n beta) + ceil(log p) n gamma: a useful bound for
 *   small n, or where the library's allreduce is badly tuned.
 * GL6 allreduce_as_reducescatterblock_allgather
 *     Allreduce(n) <= Reduce_scatter_block(n) + Allgather(n/p)
 *   Rabenseifner's decomposition: every rank reduces one block of
 *   blk = ceil(count/p) elements, then the blocks are allgathered. Ideally
 *   2 log p alpha + 2 (p-1)/p n beta + (p-1)/p n gamma. When p divides count
 *   it works in the receive buffer (no scratch; with MPI_IN_PLACE the block
 *   comes back at the start of the buffer and is moved to its place, n/p
 *   copied). Otherwise the input is copied into a vector padded to p*blk
 *   elements (scratch span(p*blk), local copies of 2n), reduced and gathered
 *   in place there; the op then sees more elements than the call has, so
 *   only a predefined op may pad (MG_R_PAD_PREDEFINED_OP).
 * GL7 allreduce_as_reducescatter_allgatherv
 *     Allreduce(n) <= Reduce_scatter(n) + Allgatherv(n)
 *   As GL6 with segments of whole 64-byte blocks (segments.h) instead of
 *   padding; scratch 2p ints. Same cost as GL6 up to the granularity; it
 *   tests the irregular collectives, which libraries often tune less.
 *   With MPI_IN_PLACE the segment comes back at the start of the buffer and
 *   is moved to its place (about n/p copied).
 *
 * GL6 and GL7 are built on Reduce_scatter(_block), which MPICH 4.0.2 gets
 * wrong (or corrupts its heap with) for a non-commutative op on a datatype
 * with gaps when the blocks are equal and p is a power of two; both rows
 * carry MG_R_COMMUTE_OR_DENSE (tests/diff catches it with count 64).
 *
 * MPI_IN_PLACE is used on all ranks or none (the standard requires it), so
 * branching on it is safe. The reduce_scatter calls with MPI_IN_PLACE put the
 * own result at the start of the buffer; moving it to its offset never
 * overlaps: the offset of rank r >= 1 is at least the size of rank 0's piece,
 * which is the largest.
 *
 * Point-to-point rows (the p2p family, TGT 2010 eq. 35 and §V.D; the shared machinery, the
 * order of combination and the terms of the costs in p2p_reduction.h):
 * allreduce_as_recdbl       the same folding, recursive doubling over p' ranks with whole
 *   vectors (distances 1, 2, 4 ...: rank order kept), then the folded ranks get the result
 *   from their neighbour. Scratch 1 vector (the receive buffer is the other). Cost
 *   [r > 0] 2 T(n) + (log2 p' + [r > 0]) gamma n + log2 p' x(n).
 * allreduce_as_ring         ring reduce-scatter (p-1 steps: rank i sends its partial of block
 *   i-s-1 to i+1, receives block i-s-2 from i-1 and adds its own) and ring allgather (p-1
 *   steps), p blocks of about n/p. The partials go round the ring, so their order of
 *   combination is a rotation: commutative ops only (MG_R_COMMUTATIVE). Scratch 2 blocks.
 *   Cost 2 (p-1) x(n/p) + (p-1) gamma n/p.
 * allreduce_as_rabenseifner the folding and recursive halving of reduce_as_rabenseifner, then
 *   recursive doubling allgather of the blocks into the receive buffer, then the folded ranks
 *   get the result. Scratch 1 vector. Cost [r > 0] (2 T(n) + gamma n) + sum_k (2 x(n/2^k) +
 *   gamma n/2^k).
 */
#include "algs/algs.h"
#include "algs/segments.h"
#include "algs/p2p_reduction.h"

int mg_allreduce_as_reduce_bcast(const mg_call *c) {
  int rc;
  if (c->sbuf != MPI_IN_PLACE)
    rc = PMPI_Reduce(c->sbuf, c->rbuf, c->rcount, c->rtype, c->op, 0, c->comm);
  else if (c->rank == 0)
    rc = PMPI_Reduce(MPI_IN_PLACE, c->rbuf, c->rcount, c->rtype, c->op, 0, c->comm);
  else /* a non-root has no in-place reduce: its input is in the receive buffer */
    rc = PMPI_Reduce(c->rbuf, NULL, c->rcount, c->rtype, c->op, 0, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Bcast(c->rbuf, c->rcount, c->rtype, 0, c->comm);
}

static int ceil_div(int a, int b) { return a / b + (a % b != 0); }

size_t mg_allreduce_as_reducescatterblock_allgather_mem(const mg_call *c) {
  if (c->rcount % c->size == 0) return 0;
  return mg_typed_span(c->rtype, (size_t)ceil_div(c->rcount, c->size) * (size_t)c->size);
}

/* Reduce_scatter_block over the p*blk elements at buf, in place: rank r's
 * block ends at its own offset. Then allgather the blocks in place. */
static int rsb_allgather_in_place(const mg_call *c, const mg_type *t, void *buf, int blk) {
  int rc = PMPI_Reduce_scatter_block(MPI_IN_PLACE, buf, blk, c->rtype, c->op, c->comm);
  if (rc == MPI_SUCCESS && c->rank > 0)
    rc = mg_copy(buf, blk, c->rtype, mg_type_at(buf, t, (size_t)c->rank * (size_t)blk), blk, c->rtype);
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Allgather(MPI_IN_PLACE, blk, c->rtype, buf, blk, c->rtype, c->comm);
}

int mg_allreduce_as_reducescatterblock_allgather(const mg_call *c) {
  int n = c->rcount, p = c->size, blk = ceil_div(n, p);
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  if (n % p == 0) {
    if (c->sbuf == MPI_IN_PLACE) return rsb_allgather_in_place(c, &t, c->rbuf, blk);
    void *own = mg_type_at(c->rbuf, &t, (size_t)c->rank * (size_t)blk);
    rc = PMPI_Reduce_scatter_block(c->sbuf, own, blk, c->rtype, c->op, c->comm);
    if (rc != MPI_SUCCESS) return rc;
    return PMPI_Allgather(MPI_IN_PLACE, blk, c->rtype, c->rbuf, blk, c->rtype, c->comm);
  }
  size_t padded = (size_t)blk * (size_t)p;
  void *v = mg_type_base(mg_scratch_data(mg_type_span(&t, padded)), &t);
  rc = mg_copy_padded(c->sbuf == MPI_IN_PLACE ? c->rbuf : c->sbuf, v, &t, c->rtype, n, padded);
  if (rc == MPI_SUCCESS) rc = rsb_allgather_in_place(c, &t, v, blk);
  if (rc != MPI_SUCCESS) return rc;
  return mg_copy(v, n, c->rtype, c->rbuf, n, c->rtype);
}

size_t mg_allreduce_as_reducescatter_allgatherv_mem(const mg_call *c) {
  return 2 * (size_t)c->size * sizeof(int);
}

int mg_allreduce_as_reducescatter_allgatherv(const mg_call *c) {
  int p = c->size, r = c->rank;
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  int *counts = mg_scratch(2 * (size_t)p * sizeof(int)), *displs = counts + p;
  mg_segments(c->rcount, t.size, p, counts, displs);
  /* An empty segment's address is the start of the receive buffer, never
   * rbuf + displs[r]: that can be one past the vector's end, where an
   * adjacent send buffer may begin, and MPICH rejects a reduce_scatter whose
   * send and receive addresses are equal ("Buffers must not be aliased")
   * even for count 0. */
  void *own = counts[r] ? mg_type_at(c->rbuf, &t, (size_t)displs[r]) : c->rbuf;
  if (c->sbuf != MPI_IN_PLACE) {
    rc = PMPI_Reduce_scatter(c->sbuf, own, counts, c->rtype, c->op, c->comm);
  } else {
    rc = PMPI_Reduce_scatter(MPI_IN_PLACE, c->rbuf, counts, c->rtype, c->op, c->comm);
    if (rc == MPI_SUCCESS && displs[r] > 0)
      rc = mg_copy(c->rbuf, counts[r], c->rtype, own, counts[r], c->rtype);
  }
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Allgatherv(MPI_IN_PLACE, counts[r], c->rtype, c->rbuf, counts, displs, c->rtype, c->comm);
}

size_t mg_allreduce_as_recdbl_mem(const mg_call *c) { return mg_red_vectors_mem(c, 1, (size_t)c->rcount); }

/* The start of the allreduce rows that fold (recdbl, rabenseifner): the partial is the input;
 * the receive buffer and one scratch vector are the work buffers. p = 1 copies the input; rank
 * 2i < 2r sends its vector to 2i+1 and gets the result back from it at the end; 2i+1 combines
 * x(2i) op x(2i+1). Returns 1 when the rank is done or failed (its code in *rc), else 0 with *f
 * its place among the p' others. */
static int allreduce_fold(mg_red *s, const mg_call *c, mg_red_fold *f, int *rc) {
  int p = c->size, r = c->rank, n = c->rcount;
  if ((*rc = mg_red_init(s, c)) != MPI_SUCCESS) return 1;
  if (p == 1) {
    *rc = mg_red_copy_range(s, mg_red_input(c), c->rbuf, 0, n);
    return 1;
  }
  *f = mg_red_fold_of(r, p);
  char *v;
  mg_red_vectors(s, (size_t)n, 1, &v);
  s->cur = (char *)mg_red_input(c);
  s->cur_w = mg_red_in_place(c);
  s->w[0] = c->rbuf;
  s->w[1] = v;
  if (f->me < 0) {
    *rc = mg_red_send(s, mg_red_input(c), 0, n, r + 1);
    if (*rc == MPI_SUCCESS) *rc = mg_red_recv_into(s, c->rbuf, 0, n, r + 1);
    return 1;
  }
  if (r < 2 * f->rem) *rc = mg_red_recv(s, r - 1, 0, n, 1);
  return *rc != MPI_SUCCESS;
}

int mg_allreduce_as_recdbl(const mg_call *c, int unused) {
  (void)unused;
  mg_red s;
  mg_red_fold f;
  int rc, r = c->rank, n = c->rcount;
  if (allreduce_fold(&s, c, &f, &rc)) return rc;
  for (int mask = 1; mask < f.pof2 && rc == MPI_SUCCESS; mask <<= 1) {
    int partner = f.me ^ mask;
    rc = mg_red_exchange(&s, mg_red_fold_real(&f, partner), 0, n, 0, n, partner < f.me);
  }
  if (rc == MPI_SUCCESS) rc = mg_red_copy_range(&s, s.cur, c->rbuf, 0, n);
  if (rc == MPI_SUCCESS && r < 2 * f.rem) rc = mg_red_send(&s, c->rbuf, 0, n, r - 1);
  return rc;
}

double mg_cost_allreduce_as_recdbl(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p < 2) return 0;
  int pof2 = mg_p2p_pow2_floor(p), rem = p - pof2, k = mg_p2p_flog2(pof2);
  double t = k * (mg_p2p_xchg(m, n) + m->reduce * n);
  if (rem) t += 2 * mg_p2p_msg(m, n) + m->reduce * n;
  if ((k + (rem > 0)) % 2 == 0) t += m->copy * n; /* the result ends in scratch */
  return t;
}

static long long ring_blk_max(long long count, int p) { return (count + p - 1) / p; }

size_t mg_allreduce_as_ring_mem(const mg_call *c) {
  return mg_red_vectors_mem(c, 2, (size_t)ring_blk_max(c->rcount, c->size));
}

static long long ring_off(const void *ctx, int b) {
  const long long *v = ctx; /* {count, p} */
  return v[0] * b / v[1];
}

int mg_allreduce_as_ring(const mg_call *c, int unused) {
  (void)unused;
  mg_red s;
  int rc = mg_red_init(&s, c), p = c->size, r = c->rank;
  if (rc != MPI_SUCCESS) return rc;
  long long ctx[2] = {c->rcount, p};
  char *tmp[2];
  mg_red_vectors(&s, (size_t)ring_blk_max(c->rcount, p), 2, tmp);
  rc = mg_red_ring_rs(&s, c, mg_red_input(c), ring_off, ctx, mg_red_at(&s, c->rbuf, ring_off(ctx, r)), tmp,
                      mg_red_in_place(c));
  int left = (r - 1 + p) % p, right = (r + 1) % p;
  for (int st = 0; st < p - 1 && rc == MPI_SUCCESS; st++) { /* ring allgather */
    int sb = ((r - st) % p + p) % p, rb = ((r - st - 1) % p + p) % p;
    long long slo = ring_off(ctx, sb), rlo = ring_off(ctx, rb);
    rc = PMPI_Sendrecv(mg_red_at(&s, c->rbuf, slo), (int)(ring_off(ctx, sb + 1) - slo), s.dt, right, MG_P2P_TAG,
                       mg_red_at(&s, c->rbuf, rlo), (int)(ring_off(ctx, rb + 1) - rlo), s.dt, left, MG_P2P_TAG, s.pc,
                       MPI_STATUS_IGNORE);
  }
  return rc;
}

double mg_cost_allreduce_as_ring(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p < 2) return 0;
  return 2 * (p - 1) * mg_p2p_xchg(m, n / p) + (p - 1) * m->reduce * n / p;
}

size_t mg_allreduce_as_rabenseifner_mem(const mg_call *c) { return mg_red_vectors_mem(c, 1, (size_t)c->rcount); }

int mg_allreduce_as_rabenseifner(const mg_call *c, int unused) {
  (void)unused;
  mg_red s;
  mg_red_fold f;
  int rc, r = c->rank, n = c->rcount;
  if (allreduce_fold(&s, c, &f, &rc)) return rc;
  long long ctx[2] = {n, f.pof2};
  int plo, phi, me = f.me;
  if ((rc = mg_red_halving(&s, &f, 1, mg_red_even_off, ctx, &plo, &phi)) != MPI_SUCCESS) return rc;
  rc = mg_red_copy_range(&s, s.cur, c->rbuf, mg_red_blk_off(n, f.pof2, plo), mg_red_blk_off(n, f.pof2, phi));
  s.cur = c->rbuf;
  for (int mask = f.pof2 >> 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) { /* recursive doubling allgather */
    int partner = me ^ mask, lo = plo, hi = phi;
    mg_red_undo(me, mask, &lo, &hi);
    int qlo = plo == lo ? phi : lo, qhi = plo == lo ? hi : plo;
    long long slo = mg_red_blk_off(n, f.pof2, plo), shi = mg_red_blk_off(n, f.pof2, phi);
    long long rlo = mg_red_blk_off(n, f.pof2, qlo), rhi = mg_red_blk_off(n, f.pof2, qhi);
    if (shi > slo || rhi > rlo)
      rc = PMPI_Sendrecv(mg_red_at(&s, c->rbuf, slo), (int)(shi - slo), s.dt, mg_red_fold_real(&f, partner), MG_P2P_TAG,
                         mg_red_at(&s, c->rbuf, rlo), (int)(rhi - rlo), s.dt, mg_red_fold_real(&f, partner), MG_P2P_TAG,
                         s.pc, MPI_STATUS_IGNORE);
    plo = lo, phi = hi;
  }
  if (rc == MPI_SUCCESS && r < 2 * f.rem) rc = mg_red_send(&s, c->rbuf, 0, n, r - 1);
  return rc;
}

double mg_cost_allreduce_as_rabenseifner(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p < 2) return 0;
  int pof2 = mg_p2p_pow2_floor(p), rem = p - pof2;
  double t = mg_red_halving_cost(m, pof2, n) + m->copy * n / pof2;
  for (int mask = pof2 >> 1; mask > 0; mask >>= 1) t += mg_p2p_xchg(m, n / (2 * mask));
  if (rem) t += 2 * mg_p2p_msg(m, n) + m->reduce * n;
  return t;
}
