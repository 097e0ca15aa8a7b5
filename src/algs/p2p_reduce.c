/*
 * The reductions as point-to-point algorithms (the p2p family, TGT 2010 eq. 35 and §V.D):
 * MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter_block and MPI_Scan written with PMPI
 * point-to-point messages on the private communicator (mg_p2p_comm) and PMPI_Reduce_local.
 *
 * Datatype and count of a reduction are the same on every rank, so pieces of the vector travel
 * as (elements, datatype) from and into scratch laid out like the user's buffer (typed
 * scratch, mg_type_span), and the op sees only whole elements, never more than the call has.
 * Order: MPI_Reduce_local(in, inout) computes inout = in op inout, so the partial of the lower
 * ranks is always the `in` operand; every algorithm combines in rank order
 * (x0 op x1 op ... op x(p-1)) unless its row is restricted to commutative ops. A partial is
 * kept in a buffer it may overwrite: the own input is read-only (a root's or an in-place
 * input only until it has been consumed), so a rank whose partial must end up on the right
 * either copies its piece first or lets the result land in the buffer it received into.
 *
 * Terms of the cost comments: T(s) the time of one message of s bytes, g(s) the interval
 * between messages one process sends back to back, x(s) an exchange of s bytes each way
 * with one peer (LogGP, loggp/loggp.h), gamma the local reduction per byte, n the message
 * size of the collective (registry.h), p' the largest power of two <= p, r = p - p'.
 *
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
 * reduce_scatter_block_as_rechalving  recursive halving over p' ranks of the p*n vector (the
 *   extra ranks fold first; then each of the first r new ranks holds the blocks of two ranks
 *   and hands one on at the end). A commutative op halves with distances p'/2 ... 1 in the
 *   vector's own order; a non-commutative one with distances 1 ... p'/2 over a copy of the
 *   vector whose blocks are in bit-reversed order, so that partials stay runs of consecutive
 *   ranks and every rank still ends with its own block (MPICH's non-commutative scheme).
 *   p*n must fit an int count (MG_R_PN_INT). Scratch 2 vectors of p*n. Cost (commutative)
 *   [r > 0] (T(p n) + gamma p n + T(n)) + sum_k (x(p n/2^k) + gamma p n/2^k).
 * reduce_scatter_block_as_ring  the ring reduce-scatter of allreduce_as_ring on the p blocks:
 *   commutative ops only. Scratch 2 blocks. Cost (p-1) (x(n) + gamma n).
 * reduce_scatter_block_as_pairwise  p-1 steps: at step s rank i sends its input block i+s to
 *   rank i+s and adds the block rank i-s sends it into its own (MPICH's pairwise exchange);
 *   contributions arrive in the order i-1, i-2, ...: commutative ops only. Scratch 2 blocks
 *   (the received one; the sum, in place). Cost (p-1) (x(n) + gamma n) + copy n.
 * scan_as_linear            rank i receives the prefix of ranks 0..i-1 from i-1, combines it
 *   with its own vector and sends the result to i+1. Scratch 1 vector. Cost (p-1) (T(n) +
 *   gamma n) + copy n.
 * scan_as_recdbl            recursive doubling (Hillis-Steele, MPICH's scan): in round k
 *   rank i exchanges the reduction of its group of 2^k ranks with i xor 2^k; the upper one
 *   adds the lower's into its partial and its result. Scratch 2 vectors. Cost
 *   ceil(log2 p) (x(n) + 2 gamma n) + 2 copy n.
 */
#include <limits.h>

#include "algs/p2p.h"
#include "algs/segments.h"

/* ---- a rank's partial and its buffers ---- */

typedef struct red {
  MPI_Datatype dt;
  MPI_Op op;
  mg_type t;
  MPI_Comm pc;
  int commute;
  char *cur;  /* the buffer holding this rank's partial (laid out like the user's buffer) */
  int cur_w;  /* cur may be written (it is w[0] or w[1]) */
  char *w[2]; /* the two writable buffers, distinct */
} red;

static char *at(const red *s, const void *buf, long long i) { return mg_type_at(buf, &s->t, (size_t)i); }

static int red_init(red *s, const mg_call *c) {
  s->dt = c->rtype;
  s->op = c->op;
  s->cur = NULL;
  s->cur_w = 0;
  s->w[0] = s->w[1] = NULL;
  int rc = mg_type_get(c->rtype, &s->t);
  if (rc == MPI_SUCCESS) rc = PMPI_Op_commutative(c->op, &s->commute);
  if (rc == MPI_SUCCESS) rc = mg_p2p_comm(c->comm, &s->pc);
  return rc;
}

static char *red_other(const red *s) { return s->w[0] != s->cur ? s->w[0] : s->w[1]; }

/* Copy n elements from `from` to `to` (typed buffers of the call's datatype), in pieces of at
 * most INT_MAX bytes (mg_copy packs a non-dense datatype with an int byte count). */
static int copy_elems(const red *s, const void *from, void *to, long long n) {
  long long piece = s->t.size > 0 ? INT_MAX / s->t.size : n;
  int rc = MPI_SUCCESS;
  if (piece < 1) piece = 1;
  if (from == to) return MPI_SUCCESS;
  for (long long i = 0; i < n && rc == MPI_SUCCESS; i += piece) {
    int k = (int)(n - i < piece ? n - i : piece);
    rc = mg_copy(at(s, from, i), k, s->dt, at(s, to, i), k, s->dt);
  }
  return rc;
}

static int copy_range(const red *s, const void *from, void *to, long long lo, long long hi) {
  return hi <= lo ? MPI_SUCCESS : copy_elems(s, at(s, from, lo), at(s, to, lo), hi - lo);
}

/* Before the partial of lower ranks for [lo, hi) arrives: the result lands in cur (the right
 * operand), so a read-only cur's range is copied into a work buffer first. */
static int red_writable(red *s, long long lo, long long hi) {
  if (s->cur_w) return MPI_SUCCESS;
  int rc = copy_range(s, s->cur, s->w[0], lo, hi);
  s->cur = s->w[0];
  s->cur_w = 1;
  return rc;
}

/* The peer's partial of [lo, hi) is in o: combine. lower: the peer's ranks come before this
 * rank's (its partial is the left operand), the result in cur; else it lands in o, which
 * becomes cur (only [lo, hi) of it is meaningful from then on). */
static int red_combine(red *s, char *o, long long lo, long long hi, int lower) {
  int rc = MPI_SUCCESS;
  if (hi > lo)
    rc = lower ? PMPI_Reduce_local(at(s, o, lo), at(s, s->cur, lo), (int)(hi - lo), s->dt, s->op)
               : PMPI_Reduce_local(at(s, s->cur, lo), at(s, o, lo), (int)(hi - lo), s->dt, s->op);
  if (!lower) s->cur = o, s->cur_w = 1;
  return rc;
}

/* Receive the partial of [lo, hi) from peer and combine it (see red_combine). */
static int red_recv(red *s, int peer, long long lo, long long hi, int lower) {
  lower = lower && !s->commute;
  int rc = lower ? red_writable(s, lo, hi) : MPI_SUCCESS;
  char *o = red_other(s);
  if (rc == MPI_SUCCESS && hi > lo)
    rc = PMPI_Recv(at(s, o, lo), (int)(hi - lo), s->dt, peer, MG_P2P_TAG, s->pc, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) return rc;
  return red_combine(s, o, lo, hi, lower);
}

/* Send [slo, shi) of the partial to peer, receive its partial of [klo, khi) and combine. The
 * peer calls it with the two ranges swapped, so both skip an empty exchange alike. */
static int red_exchange(red *s, int peer, long long slo, long long shi, long long klo, long long khi, int lower) {
  lower = lower && !s->commute;
  const char *src = s->cur;
  int rc = lower ? red_writable(s, klo, khi) : MPI_SUCCESS;
  char *o = red_other(s);
  if (rc == MPI_SUCCESS && (shi > slo || khi > klo))
    rc = PMPI_Sendrecv(at(s, src, slo), (int)(shi - slo), s->dt, peer, MG_P2P_TAG, at(s, o, klo), (int)(khi - klo),
                       s->dt, peer, MG_P2P_TAG, s->pc, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) return rc;
  return red_combine(s, o, klo, khi, lower);
}

static int red_send(const red *s, const void *buf, long long lo, long long hi, int peer) {
  if (hi <= lo) return MPI_SUCCESS;
  return PMPI_Send(at(s, buf, lo), (int)(hi - lo), s->dt, peer, MG_P2P_TAG, s->pc);
}

static int red_recv_into(const red *s, void *buf, long long lo, long long hi, int peer) {
  if (hi <= lo) return MPI_SUCCESS;
  return PMPI_Recv(at(s, buf, lo), (int)(hi - lo), s->dt, peer, MG_P2P_TAG, s->pc, MPI_STATUS_IGNORE);
}

/* `k` typed vectors of `count` elements of the call's datatype from scratch. */
static size_t vectors_mem(const mg_call *c, size_t k, size_t count) {
  size_t span = mg_typed_span(c->rtype, count);
  return span == SIZE_MAX ? SIZE_MAX : k * mg_align(span);
}

static void vectors(const red *s, size_t count, int k, char **out) {
  size_t span = mg_type_span(&s->t, count);
  char *cur = mg_scratch((size_t)k * mg_align(span));
  for (int i = 0; i < k; i++) out[i] = mg_type_base(mg_carve(&cur, span), &s->t);
}

/* The own input: with MPI_IN_PLACE (reduce: at the root only) it is in the receive buffer. */
static int in_place(const mg_call *c) {
  return c->sbuf == MPI_IN_PLACE && (c->coll != MG_REDUCE || c->rank == c->root);
}
static const void *input(const mg_call *c) { return in_place(c) ? c->rbuf : c->sbuf; }

/* ---- the folding of the extra ranks (r = p - p') and the new ranks of the p' others ---- */

typedef struct fold {
  int pof2, rem;
  int me; /* new rank, -1 for a rank that folded into its odd neighbour */
} fold;

static fold fold_of(int r, int p) {
  fold f;
  f.pof2 = mg_p2p_pof2(p);
  f.rem = p - f.pof2;
  f.me = r < 2 * f.rem ? (r % 2 ? r / 2 : -1) : r - f.rem;
  return f;
}
static int fold_real(const fold *f, int j) { return j < f->rem ? 2 * j + 1 : j + f->rem; }

/* Position q's range of a vector of count elements cut into p' blocks. */
static long long blk_off(long long count, int pof2, int q) { return count * q / pof2; }

/* Recursive halving over p' positions of a vector, position q at elements [off(q), off(q+1)):
 * distances 1, 2 ... p'/2 (ascending: a partial is always the reduction of a run of consecutive
 * new ranks, so the lower partner's is the left operand) or p'/2 ... 1 (commutative ops); at each
 * step the rank whose bit is set keeps the upper half. On return [*plo, *phi) is the one position
 * left to the rank: new rank me's bit reversal (ascending) or me itself. */
typedef long long (*off_fn)(const void *ctx, int q);

static int halving(red *s, const fold *f, int ascending, off_fn off, const void *ctx, int *plo, int *phi) {
  int rc = MPI_SUCCESS, me = f->me;
  *plo = 0, *phi = f->pof2;
  for (int i = 0; (1 << i) < f->pof2 && rc == MPI_SUCCESS; i++) {
    int mask = ascending ? 1 << i : f->pof2 >> (i + 1), partner = me ^ mask, mid = (*plo + *phi) / 2;
    int up = (me & mask) != 0; /* keeps the upper half */
    int slo = up ? *plo : mid, shi = up ? mid : *phi, klo = up ? mid : *plo, khi = up ? *phi : mid;
    rc = red_exchange(s, fold_real(f, partner), off(ctx, slo), off(ctx, shi), off(ctx, klo), off(ctx, khi),
                      ascending && partner < me);
    *plo = klo, *phi = khi;
  }
  return rc;
}

/* The range of positions the pair (me, me ^ mask) held together before halving step `mask`. */
static void undo(int me, int mask, int *plo, int *phi) {
  int w = *phi - *plo;
  if (me & mask)
    *plo -= w;
  else
    *phi += w;
}

static long long even_off(const void *ctx, int q) {
  const long long *v = ctx; /* {count, pof2} */
  return blk_off(v[0], (int)v[1], q);
}

/* ================================================================ reduce */

size_t mg_reduce_as_linear_mem(const mg_call *c) { return vectors_mem(c, 2, (size_t)c->rcount); }

int mg_reduce_as_linear(const mg_call *c, int unused) {
  (void)unused;
  red s;
  int rc = red_init(&s, c), p = c->size, root = c->root, n = c->rcount;
  if (rc != MPI_SUCCESS) return rc;
  if (c->rank != root) return red_send(&s, c->sbuf, 0, n, root);
  char *v[2];
  vectors(&s, (size_t)n, 2, v); /* v[0]: receives, v[1]: an in-place root's input */
  const void *mine = input(c);
  if (in_place(c) && root != p - 1) { /* the receive buffer takes x(p-1) first */
    if ((rc = copy_range(&s, c->rbuf, v[1], 0, n)) != MPI_SUCCESS) return rc;
    mine = v[1];
  }
  rc = root == p - 1 ? copy_range(&s, mine, c->rbuf, 0, n) : red_recv_into(&s, c->rbuf, 0, n, p - 1);
  for (int i = p - 2; i >= 0 && rc == MPI_SUCCESS; i--) {
    const void *x = mine;
    if (i != root) rc = red_recv_into(&s, v[0], 0, n, i), x = v[0];
    if (rc == MPI_SUCCESS) rc = PMPI_Reduce_local(x, c->rbuf, n, s.dt, s.op);
  }
  return rc;
}

double mg_cost_reduce_as_linear(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p < 2) return 0;
  return mg_p2p_msgs(m, p - 1, n) + (p - 1) * m->reduce * n;
}

size_t mg_reduce_as_binomial_mem(const mg_call *c) { return vectors_mem(c, 2, (size_t)c->rcount); }

int mg_reduce_as_binomial(const mg_call *c, int unused) {
  (void)unused;
  red s;
  int rc = red_init(&s, c), p = c->size, r = c->rank, root = c->root, n = c->rcount;
  if (rc != MPI_SUCCESS) return rc;
  int troot = s.commute ? root : 0, g = mg_p2p_rel(r, troot, p), at_root = r == root;
  char *v[2];
  vectors(&s, (size_t)n, 2, v);
  s.cur = (char *)input(c);
  s.cur_w = in_place(c);
  if (at_root) { /* the root's last receive lands in its receive buffer: order w by parity */
    int k = g == 0 ? mg_p2p_clog2(p) : 0, rbuf_first = in_place(c) || k % 2;
    s.w[0] = rbuf_first ? c->rbuf : v[0];
    s.w[1] = rbuf_first ? v[0] : c->rbuf;
  } else {
    s.w[0] = v[0], s.w[1] = v[1];
  }
  for (int mask = 1; mask < p && rc == MPI_SUCCESS; mask <<= 1) {
    if (g & mask) {
      rc = red_send(&s, s.cur, 0, n, mg_p2p_abs(g - mask, troot, p));
      break;
    }
    if (g + mask < p) rc = red_recv(&s, mg_p2p_abs(g + mask, troot, p), 0, n, 0); /* higher ranks: right operand */
  }
  if (rc != MPI_SUCCESS) return rc;
  if (g == 0 && troot == root) return copy_range(&s, s.cur, c->rbuf, 0, n);
  if (g == 0) return red_send(&s, s.cur, 0, n, root); /* non-commutative: rank 0 to the root */
  if (at_root) return red_recv_into(&s, c->rbuf, 0, n, troot);
  return MPI_SUCCESS;
}

double mg_cost_reduce_as_binomial(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return mg_p2p_clog2(p) * (mg_p2p_msg(m, n) + m->reduce * n);
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
  return vectors_mem(c, 3, (size_t)(e < c->rcount ? e : c->rcount));
}

int mg_reduce_as_chain(const mg_call *c, int seg) {
  red s;
  int rc = red_init(&s, c), p = c->size, r = c->rank, root = c->root;
  if (rc != MPI_SUCCESS) return rc;
  long long n = c->rcount, e = seg_elems(seg, s.t.size);
  if (e > n) e = n;
  long long nseg = (n + e - 1) / e;
  const char *in = input(c);
  char *b[3];
  vectors(&s, (size_t)e, 3, b);
  MPI_Request sr = MPI_REQUEST_NULL;
  for (long long k = 0; k < nseg && rc == MPI_SUCCESS; k++) {
    long long off = k * e, len = n - off < e ? n - off : e;
    const char *own = at(&s, in, off);
    if (r == root) {
      char *dst = at(&s, c->rbuf, off), *acc = dst;
      if (root < p - 1) { /* suffix x(root+1) op ... op x(p-1): own on its left */
        acc = in_place(c) ? b[0] : dst;
        rc = red_recv_into(&s, acc, 0, len, r + 1);
        if (rc == MPI_SUCCESS) rc = PMPI_Reduce_local(own, acc, (int)len, s.dt, s.op);
      } else if (!in_place(c)) {
        rc = mg_copy(own, (int)len, s.dt, dst, (int)len, s.dt);
      }
      if (rc == MPI_SUCCESS && root > 0) { /* prefix x0 op ... op x(root-1) on the left */
        rc = red_recv_into(&s, b[1], 0, len, r - 1);
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
      rc = red_recv_into(&s, x, 0, len, from);
      if (rc == MPI_SUCCESS) rc = PMPI_Reduce_local(own, x, (int)len, s.dt, s.op);
    } else { /* prefix op x(r): into a copy of the own segment */
      rc = red_recv_into(&s, b[2], 0, len, from);
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

size_t mg_reduce_as_rabenseifner_mem(const mg_call *c) { return vectors_mem(c, 2, (size_t)c->rcount); }

int mg_reduce_as_rabenseifner(const mg_call *c, int unused) {
  (void)unused;
  red s;
  int rc = red_init(&s, c), p = c->size, r = c->rank, root = c->root, n = c->rcount;
  if (rc != MPI_SUCCESS) return rc;
  const char *in = input(c);
  if (p == 1) return copy_range(&s, in, c->rbuf, 0, n);
  fold f = fold_of(r, p);
  char *v[2];
  vectors(&s, (size_t)n, 2, v);
  s.cur = (char *)in;
  s.cur_w = in_place(c);
  s.w[0] = r == root ? c->rbuf : v[0];
  s.w[1] = r == root ? v[0] : v[1];
  if (f.me < 0) { /* rank 2i folds into 2i+1; a folded root gets the result from it */
    rc = red_send(&s, in, 0, n, r + 1);
    if (rc == MPI_SUCCESS && r == root) rc = red_recv_into(&s, c->rbuf, 0, n, r + 1);
    return rc;
  }
  if (r < 2 * f.rem && (rc = red_recv(&s, r - 1, 0, n, 1)) != MPI_SUCCESS) return rc;
  long long ctx[2] = {n, f.pof2};
  int plo, phi;
  if ((rc = halving(&s, &f, 1, even_off, ctx, &plo, &phi)) != MPI_SUCCESS) return rc;
  fold fr = fold_of(root, p);
  int R = fr.me >= 0 ? fr.me : fold_of(root + 1, p).me, me = f.me;
  if (r == root && s.cur != c->rbuf) { /* gather into the receive buffer */
    rc = copy_range(&s, s.cur, c->rbuf, blk_off(n, f.pof2, plo), blk_off(n, f.pof2, phi));
    s.cur = c->rbuf;
  }
  for (int mask = f.pof2 >> 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) {
    int partner = me ^ mask, lo = plo, hi = phi;
    undo(me, mask, &lo, &hi);
    if ((me ^ R) & mask) {
      rc = red_send(&s, s.cur, blk_off(n, f.pof2, plo), blk_off(n, f.pof2, phi), fold_real(&f, partner));
      return rc;
    }
    /* the partner's half of [lo, hi) */
    int qlo = plo == lo ? phi : lo, qhi = plo == lo ? hi : plo;
    rc = red_recv_into(&s, s.cur, blk_off(n, f.pof2, qlo), blk_off(n, f.pof2, qhi), fold_real(&f, partner));
    plo = lo, phi = hi;
  }
  if (rc == MPI_SUCCESS && me == R && r != root) rc = red_send(&s, s.cur, 0, n, root); /* the folded root */
  return rc;
}

/* Recursive halving over p' ranks of an n-byte vector: sum_k (x(n/2^k) + gamma n/2^k). */
static double halving_cost(const mg_loggp *m, int pof2, double n) {
  double t = 0;
  for (int mask = 1; mask < pof2; mask <<= 1) t += mg_p2p_xchg(m, n / (2 * mask)) + m->reduce * n / (2 * mask);
  return t;
}

double mg_cost_reduce_as_rabenseifner(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p < 2) return 0;
  int pof2 = mg_p2p_pof2(p), rem = p - pof2;
  double t = halving_cost(m, pof2, n) + m->copy * n / pof2;
  for (int mask = pof2 >> 1; mask > 0; mask >>= 1) t += mg_p2p_msg(m, n / (2 * mask)); /* gather */
  if (rem) t += 2 * mg_p2p_msg(m, n) + m->reduce * n; /* fold; root 0 folded: the vector from rank 1 */
  return t;
}

/* ================================================================ allreduce */

size_t mg_allreduce_as_recdbl_mem(const mg_call *c) { return vectors_mem(c, 1, (size_t)c->rcount); }

/* The start of the allreduce rows: the partial is the input; the receive buffer and one
 * scratch vector are the work buffers. */
static void allreduce_start(red *s, const mg_call *c) {
  char *v;
  vectors(s, (size_t)c->rcount, 1, &v);
  s->cur = (char *)input(c);
  s->cur_w = in_place(c);
  s->w[0] = c->rbuf;
  s->w[1] = v;
}

int mg_allreduce_as_recdbl(const mg_call *c, int unused) {
  (void)unused;
  red s;
  int rc = red_init(&s, c), p = c->size, r = c->rank, n = c->rcount;
  if (rc != MPI_SUCCESS) return rc;
  if (p == 1) return copy_range(&s, input(c), c->rbuf, 0, n);
  fold f = fold_of(r, p);
  allreduce_start(&s, c);
  if (f.me < 0) {
    rc = red_send(&s, input(c), 0, n, r + 1);
    return rc == MPI_SUCCESS ? red_recv_into(&s, c->rbuf, 0, n, r + 1) : rc;
  }
  if (r < 2 * f.rem) rc = red_recv(&s, r - 1, 0, n, 1);
  for (int mask = 1; mask < f.pof2 && rc == MPI_SUCCESS; mask <<= 1) {
    int partner = f.me ^ mask;
    rc = red_exchange(&s, fold_real(&f, partner), 0, n, 0, n, partner < f.me);
  }
  if (rc == MPI_SUCCESS) rc = copy_range(&s, s.cur, c->rbuf, 0, n);
  if (rc == MPI_SUCCESS && r < 2 * f.rem) rc = red_send(&s, c->rbuf, 0, n, r - 1);
  return rc;
}

double mg_cost_allreduce_as_recdbl(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p < 2) return 0;
  int pof2 = mg_p2p_pof2(p), rem = p - pof2, k = mg_p2p_flog2(pof2);
  double t = k * (mg_p2p_xchg(m, n) + m->reduce * n);
  if (rem) t += 2 * mg_p2p_msg(m, n) + m->reduce * n;
  if ((k + (rem > 0)) % 2 == 0) t += m->copy * n; /* the result ends in scratch */
  return t;
}

/*
 * Ring reduce-scatter over p blocks, block b = elements [off(b), off(b+1)) of `in`: at step
 * s = 0 .. p-2 rank i sends its partial of block i-s-1 to i+1 (step 0: its own input block)
 * and receives the partial of block i-s-2 from i-1, which it combines with its own input
 * block; block i ends at rank i, in out (at out's element 0). The op order is a rotation:
 * commutative ops only. tmp: two buffers of the largest block. `inplace`: out overlaps the
 * input, so the last step goes through tmp.
 */
static int ring_rs(red *s, const mg_call *c, const char *in, off_fn off, const void *ctx, char *out, char **tmp,
                   int inplace) {
  int p = c->size, r = c->rank, rc = MPI_SUCCESS;
  int left = (r - 1 + p) % p, right = (r + 1) % p;
  const char *prev = NULL; /* the partial sent at the next step */
  if (p == 1) { /* block 0 is the result */
    long long n0 = off(ctx, 1) - off(ctx, 0);
    return inplace ? MPI_SUCCESS : copy_elems(s, at(s, in, off(ctx, 0)), out, n0);
  }
  for (int st = 0; st < p - 1 && rc == MPI_SUCCESS; st++) {
    int sb = ((r - st - 1) % p + p) % p, rb = ((r - st - 2) % p + p) % p;
    long long slo = off(ctx, sb), sn = off(ctx, sb + 1) - slo, rlo = off(ctx, rb), rn = off(ctx, rb + 1) - rlo;
    const char *sp = st == 0 ? at(s, in, slo) : prev;
    char *dst = st == p - 2 && !inplace ? out : tmp[st % 2];
    rc = PMPI_Sendrecv(sp, (int)sn, s->dt, right, MG_P2P_TAG, dst, (int)rn, s->dt, left, MG_P2P_TAG, s->pc,
                       MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && rn > 0) rc = PMPI_Reduce_local(at(s, in, rlo), dst, (int)rn, s->dt, s->op);
    prev = dst;
    if (rc == MPI_SUCCESS && st == p - 2) rc = copy_elems(s, dst, out, rn);
  }
  return rc;
}

static long long ring_blk_max(long long count, int p) { return (count + p - 1) / p; }

size_t mg_allreduce_as_ring_mem(const mg_call *c) {
  return vectors_mem(c, 2, (size_t)ring_blk_max(c->rcount, c->size));
}

static long long ring_off(const void *ctx, int b) {
  const long long *v = ctx; /* {count, p} */
  return v[0] * b / v[1];
}

int mg_allreduce_as_ring(const mg_call *c, int unused) {
  (void)unused;
  red s;
  int rc = red_init(&s, c), p = c->size, r = c->rank;
  if (rc != MPI_SUCCESS) return rc;
  long long ctx[2] = {c->rcount, p};
  char *tmp[2];
  vectors(&s, (size_t)ring_blk_max(c->rcount, p), 2, tmp);
  rc = ring_rs(&s, c, input(c), ring_off, ctx, at(&s, c->rbuf, ring_off(ctx, r)), tmp, in_place(c));
  int left = (r - 1 + p) % p, right = (r + 1) % p;
  for (int st = 0; st < p - 1 && rc == MPI_SUCCESS; st++) { /* ring allgather */
    int sb = ((r - st) % p + p) % p, rb = ((r - st - 1) % p + p) % p;
    long long slo = ring_off(ctx, sb), rlo = ring_off(ctx, rb);
    rc = PMPI_Sendrecv(at(&s, c->rbuf, slo), (int)(ring_off(ctx, sb + 1) - slo), s.dt, right, MG_P2P_TAG,
                       at(&s, c->rbuf, rlo), (int)(ring_off(ctx, rb + 1) - rlo), s.dt, left, MG_P2P_TAG, s.pc,
                       MPI_STATUS_IGNORE);
  }
  return rc;
}

double mg_cost_allreduce_as_ring(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p < 2) return 0;
  return 2 * (p - 1) * mg_p2p_xchg(m, n / p) + (p - 1) * m->reduce * n / p;
}

size_t mg_allreduce_as_rabenseifner_mem(const mg_call *c) { return vectors_mem(c, 1, (size_t)c->rcount); }

int mg_allreduce_as_rabenseifner(const mg_call *c, int unused) {
  (void)unused;
  red s;
  int rc = red_init(&s, c), p = c->size, r = c->rank, n = c->rcount;
  if (rc != MPI_SUCCESS) return rc;
  if (p == 1) return copy_range(&s, input(c), c->rbuf, 0, n);
  fold f = fold_of(r, p);
  allreduce_start(&s, c);
  if (f.me < 0) {
    rc = red_send(&s, input(c), 0, n, r + 1);
    return rc == MPI_SUCCESS ? red_recv_into(&s, c->rbuf, 0, n, r + 1) : rc;
  }
  if (r < 2 * f.rem && (rc = red_recv(&s, r - 1, 0, n, 1)) != MPI_SUCCESS) return rc;
  long long ctx[2] = {n, f.pof2};
  int plo, phi, me = f.me;
  if ((rc = halving(&s, &f, 1, even_off, ctx, &plo, &phi)) != MPI_SUCCESS) return rc;
  rc = copy_range(&s, s.cur, c->rbuf, blk_off(n, f.pof2, plo), blk_off(n, f.pof2, phi));
  s.cur = c->rbuf;
  for (int mask = f.pof2 >> 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) { /* recursive doubling allgather */
    int partner = me ^ mask, lo = plo, hi = phi;
    undo(me, mask, &lo, &hi);
    int qlo = plo == lo ? phi : lo, qhi = plo == lo ? hi : plo;
    long long slo = blk_off(n, f.pof2, plo), shi = blk_off(n, f.pof2, phi);
    long long rlo = blk_off(n, f.pof2, qlo), rhi = blk_off(n, f.pof2, qhi);
    if (shi > slo || rhi > rlo)
      rc = PMPI_Sendrecv(at(&s, c->rbuf, slo), (int)(shi - slo), s.dt, fold_real(&f, partner), MG_P2P_TAG,
                         at(&s, c->rbuf, rlo), (int)(rhi - rlo), s.dt, fold_real(&f, partner), MG_P2P_TAG, s.pc,
                         MPI_STATUS_IGNORE);
    plo = lo, phi = hi;
  }
  if (rc == MPI_SUCCESS && r < 2 * f.rem) rc = red_send(&s, c->rbuf, 0, n, r - 1);
  return rc;
}

double mg_cost_allreduce_as_rabenseifner(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p < 2) return 0;
  int pof2 = mg_p2p_pof2(p), rem = p - pof2;
  double t = halving_cost(m, pof2, n) + m->copy * n / pof2;
  for (int mask = pof2 >> 1; mask > 0; mask >>= 1) t += mg_p2p_xchg(m, n / (2 * mask));
  if (rem) t += 2 * mg_p2p_msg(m, n) + m->reduce * n;
  return t;
}

/* ================================================================ reduce_scatter_block */

/* The positions of the recursive halving: new rank j's blocks (2 for j < rem: those of ranks
 * 2j and 2j+1; else rank j+rem's), at position perm(j) of the working vector; perm is the
 * identity (commutative ops) or the bit reversal over log2 p' bits (non-commutative). */
typedef struct rsb_layout {
  long long rc; /* elements per block */
  int pof2, rem, bits, rev;
} rsb_layout;

static int bitrev(int q, int bits) {
  int x = 0;
  for (int i = 0; i < bits; i++) x |= ((q >> i) & 1) << (bits - 1 - i);
  return x;
}
static int rsb_perm(const rsb_layout *l, int q) { return l->rev ? bitrev(q, l->bits) : q; }
static long long rsb_size(const rsb_layout *l, int j) { return (j < l->rem ? 2 : 1) * l->rc; }
static long long rsb_orig(const rsb_layout *l, int j) { return (j < l->rem ? 2 * j : j + l->rem) * l->rc; }
static long long rsb_off(const void *ctx, int q) {
  const rsb_layout *l = ctx;
  if (!l->rev) return q < l->pof2 ? rsb_orig(l, q) : (long long)(l->pof2 + l->rem) * l->rc;
  long long o = 0;
  for (int i = 0; i < q; i++) o += rsb_size(l, bitrev(i, l->bits));
  return o;
}

size_t mg_reduce_scatter_block_as_rechalving_mem(const mg_call *c) {
  return vectors_mem(c, 2, (size_t)c->size * (size_t)c->rcount);
}

int mg_reduce_scatter_block_as_rechalving(const mg_call *c, int unused) {
  (void)unused;
  red s;
  int rc = red_init(&s, c), p = c->size, r = c->rank;
  if (rc != MPI_SUCCESS) return rc;
  long long b = c->rcount, total = (long long)p * b;
  const char *in = input(c);
  if (p == 1) return copy_range(&s, in, c->rbuf, 0, b);
  fold f = fold_of(r, p);
  char *v[2];
  vectors(&s, (size_t)total, 2, v);
  s.cur = (char *)in;
  s.w[0] = v[0], s.w[1] = v[1];
  if (f.me < 0) {
    rc = red_send(&s, in, 0, total, r + 1);
    return rc == MPI_SUCCESS ? red_recv_into(&s, c->rbuf, 0, b, r + 1) : rc;
  }
  if (r < 2 * f.rem && (rc = red_recv(&s, r - 1, 0, total, 1)) != MPI_SUCCESS) return rc;
  rsb_layout l = {b, f.pof2, f.rem, mg_p2p_flog2(f.pof2), !s.commute};
  if (l.rev) { /* the blocks into bit-reversed positions */
    char *dst = red_other(&s);
    for (int q = 0; q < f.pof2 && rc == MPI_SUCCESS; q++) {
      int j = rsb_perm(&l, q);
      long long sz = rsb_size(&l, j);
      rc = copy_elems(&s, at(&s, s.cur, rsb_orig(&l, j)), at(&s, dst, rsb_off(&l, q)), sz);
    }
    s.cur = dst, s.cur_w = 1;
  }
  int plo, phi;
  if (rc == MPI_SUCCESS) rc = halving(&s, &f, l.rev, rsb_off, &l, &plo, &phi);
  if (rc != MPI_SUCCESS) return rc;
  long long mine = rsb_off(&l, plo);
  if (r < 2 * f.rem) { /* the blocks of ranks r-1 and r */
    rc = red_send(&s, at(&s, s.cur, mine), 0, b, r - 1);
    mine += b;
  }
  if (rc == MPI_SUCCESS) rc = copy_elems(&s, at(&s, s.cur, mine), c->rbuf, b);
  return rc;
}

double mg_cost_reduce_scatter_block_as_rechalving(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p < 2) return 0;
  int pof2 = mg_p2p_pof2(p), rem = p - pof2;
  double t = halving_cost(m, pof2, p * n) + m->copy * n;
  if (rem) t += mg_p2p_msg(m, p * n) + m->reduce * p * n + mg_p2p_msg(m, n);
  return t;
}

size_t mg_reduce_scatter_block_as_ring_mem(const mg_call *c) { return vectors_mem(c, 2, (size_t)c->rcount); }

static long long rsb_ring_off(const void *ctx, int blk) { return *(const long long *)ctx * blk; }

int mg_reduce_scatter_block_as_ring(const mg_call *c, int unused) {
  (void)unused;
  red s;
  int rc = red_init(&s, c);
  if (rc != MPI_SUCCESS) return rc;
  long long b = c->rcount;
  char *tmp[2];
  vectors(&s, (size_t)b, 2, tmp);
  return ring_rs(&s, c, input(c), rsb_ring_off, &b, c->rbuf, tmp, in_place(c));
}

double mg_cost_reduce_scatter_block_as_ring(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return (p - 1) * (mg_p2p_xchg(m, n) + m->reduce * n);
}

size_t mg_reduce_scatter_block_as_pairwise_mem(const mg_call *c) { return vectors_mem(c, 2, (size_t)c->rcount); }

int mg_reduce_scatter_block_as_pairwise(const mg_call *c, int unused) {
  (void)unused;
  red s;
  int rc = red_init(&s, c), p = c->size, r = c->rank;
  if (rc != MPI_SUCCESS) return rc;
  long long b = c->rcount;
  const char *in = input(c);
  char *v[2]; /* v[0]: the block received; v[1]: the sum in place (the receive buffer's first block is input) */
  vectors(&s, (size_t)b, 2, v);
  char *acc = in_place(c) ? v[1] : c->rbuf;
  rc = copy_elems(&s, at(&s, in, (long long)r * b), acc, b);
  for (int st = 1; st < p && rc == MPI_SUCCESS; st++) {
    int to = (r + st) % p, from = (r - st + p) % p;
    rc = PMPI_Sendrecv(at(&s, in, (long long)to * b), (int)b, s.dt, to, MG_P2P_TAG, v[0], (int)b, s.dt, from,
                       MG_P2P_TAG, s.pc, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) rc = PMPI_Reduce_local(v[0], acc, (int)b, s.dt, s.op);
  }
  if (rc == MPI_SUCCESS && acc != c->rbuf) rc = copy_elems(&s, acc, c->rbuf, b);
  return rc;
}

double mg_cost_reduce_scatter_block_as_pairwise(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return (p - 1) * (mg_p2p_xchg(m, n) + m->reduce * n) + m->copy * n;
}

/* ================================================================ scan */

size_t mg_scan_as_linear_mem(const mg_call *c) { return vectors_mem(c, 1, (size_t)c->rcount); }

int mg_scan_as_linear(const mg_call *c, int unused) {
  (void)unused;
  red s;
  int rc = red_init(&s, c), p = c->size, r = c->rank, n = c->rcount;
  if (rc != MPI_SUCCESS) return rc;
  char *t;
  vectors(&s, (size_t)n, 1, &t);
  rc = copy_range(&s, input(c), c->rbuf, 0, n);
  if (rc == MPI_SUCCESS && r > 0) { /* prefix op x(r), in the receive buffer */
    rc = red_recv_into(&s, t, 0, n, r - 1);
    if (rc == MPI_SUCCESS) rc = PMPI_Reduce_local(t, c->rbuf, n, s.dt, s.op);
  }
  if (rc == MPI_SUCCESS && r + 1 < p) rc = red_send(&s, c->rbuf, 0, n, r + 1);
  return rc;
}

double mg_cost_scan_as_linear(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return (p - 1) * (mg_p2p_msg(m, n) + m->reduce * n) + m->copy * n;
}

size_t mg_scan_as_recdbl_mem(const mg_call *c) { return vectors_mem(c, 2, (size_t)c->rcount); }

int mg_scan_as_recdbl(const mg_call *c, int unused) {
  (void)unused;
  red s;
  int rc = red_init(&s, c), p = c->size, r = c->rank, n = c->rcount;
  if (rc != MPI_SUCCESS) return rc;
  char *v[2];
  vectors(&s, (size_t)n, 2, v);
  char *part = v[0], *tmp = v[1]; /* part: the reduction of this rank's group */
  rc = copy_range(&s, input(c), c->rbuf, 0, n);
  if (rc == MPI_SUCCESS && p > 1) rc = copy_range(&s, c->rbuf, part, 0, n);
  for (int mask = 1; mask < p && rc == MPI_SUCCESS; mask <<= 1) {
    int peer = r ^ mask;
    if (peer >= p) continue;
    rc = PMPI_Sendrecv(part, n, s.dt, peer, MG_P2P_TAG, tmp, n, s.dt, peer, MG_P2P_TAG, s.pc, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) break;
    if (peer < r) { /* the lower group's reduction on the left of both */
      rc = PMPI_Reduce_local(tmp, part, n, s.dt, s.op);
      if (rc == MPI_SUCCESS) rc = PMPI_Reduce_local(tmp, c->rbuf, n, s.dt, s.op);
    } else { /* part op tmp lands in tmp */
      rc = PMPI_Reduce_local(part, tmp, n, s.dt, s.op);
      char *x = part;
      part = tmp, tmp = x;
    }
  }
  return rc;
}

double mg_cost_scan_as_recdbl(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return mg_p2p_clog2(p) * (mg_p2p_xchg(m, n) + 2 * m->reduce * n) + 2 * m->copy * n;
}
