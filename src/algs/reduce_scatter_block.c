/*
 * Mock-ups of MPI_Reduce_scatter_block: every rank contributes p blocks of
 * rcount elements (n bytes each, p*n in all); rank i receives block i of the
 * element-wise reduction in rank order. With MPI_IN_PLACE (all ranks or
 * none) the input is the p*rcount elements of the receive buffer and the
 * result goes to its start; the rest of the buffer is left as it was.
 * All need p*rcount to fit an int count (MG_R_PN_INT).
 *
 * GL17 reduce_scatter_block_as_reduce_scatter  Reduce_scatter_block(n) <= Reduce(p*n) + Scatter(n)
 *   Reduce the whole vector to rank 0 into scratch, scatter the blocks from
 *   there. Scratch span(p*rcount) on rank 0 only. A binomial reduce moves
 *   log p * p n: worth it only for small n or a badly tuned library.
 * GL18 reduce_scatter_block_as_reducescatter  Reduce_scatter_block(n) <= Reduce_scatter(n)
 *   Reduce_scatter with p equal counts (scratch p ints), MPI_IN_PLACE passed
 *   through (same meaning). Same cost unless the library tunes the two
 *   differently.
 * GL19 reduce_scatter_block_as_allreduce  Reduce_scatter_block(n) <= Allreduce(p*n)
 *   Allreduce of the whole vector into scratch, keep the own block. Scratch
 *   span(p*rcount). At least twice the volume of a good reduce_scatter
 *   (2 (p-1) n beta against (p-1) n beta).
 *
 * Point-to-point rows (the p2p family, TGT 2010 eq. 35 and §V.D; the shared machinery, the
 * order of combination and the terms of the costs in p2p_reduction.h):
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
 */
#include "algs/algs.h"
#include "algs/segments.h"
#include "algs/p2p_reduction.h"

/* The rank's input vector of p*rcount elements. */
static const void *input(const mg_call *c) { return c->sbuf == MPI_IN_PLACE ? c->rbuf : c->sbuf; }

static size_t whole_span(const mg_call *c) {
  return mg_typed_span(c->rtype, (size_t)c->size * (size_t)c->rcount);
}

size_t mg_reduce_scatter_block_as_reduce_scatter_mem(const mg_call *c) { return whole_span(c); }

int mg_reduce_scatter_block_as_reduce_scatter(const mg_call *c) {
  int n = c->rcount, all = c->size * n;
  void *s = NULL;
  if (c->rank == 0) {
    mg_type t;
    int rc = mg_type_get(c->rtype, &t);
    if (rc != MPI_SUCCESS) return rc;
    s = mg_type_base(mg_scratch_data(mg_type_span(&t, (size_t)all)), &t);
  }
  int rc = PMPI_Reduce(input(c), s, all, c->rtype, c->op, 0, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Scatter(s, n, c->rtype, c->rbuf, n, c->rtype, 0, c->comm);
}

size_t mg_reduce_scatter_block_as_reducescatter_mem(const mg_call *c) { return (size_t)c->size * sizeof(int); }

int mg_reduce_scatter_block_as_reducescatter(const mg_call *c) {
  int *counts = mg_scratch((size_t)c->size * sizeof(int));
  for (int i = 0; i < c->size; i++) counts[i] = c->rcount;
  return PMPI_Reduce_scatter(c->sbuf, c->rbuf, counts, c->rtype, c->op, c->comm);
}

size_t mg_reduce_scatter_block_as_allreduce_mem(const mg_call *c) { return whole_span(c); }

int mg_reduce_scatter_block_as_allreduce(const mg_call *c) {
  int n = c->rcount, all = c->size * n;
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  void *s = mg_type_base(mg_scratch_data(mg_type_span(&t, (size_t)all)), &t);
  rc = PMPI_Allreduce(input(c), s, all, c->rtype, c->op, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return mg_copy(mg_type_at(s, &t, (size_t)c->rank * (size_t)n), n, c->rtype, c->rbuf, n, c->rtype);
}

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
  return mg_red_vectors_mem(c, 2, (size_t)c->size * (size_t)c->rcount);
}

int mg_reduce_scatter_block_as_rechalving(const mg_call *c, int unused) {
  (void)unused;
  mg_red s;
  int rc = mg_red_init(&s, c), p = c->size, r = c->rank;
  if (rc != MPI_SUCCESS) return rc;
  long long b = c->rcount, total = (long long)p * b;
  const char *in = mg_red_input(c);
  if (p == 1) return mg_red_copy_range(&s, in, c->rbuf, 0, b);
  mg_red_fold f = mg_red_fold_of(r, p);
  char *v[2];
  mg_red_vectors(&s, (size_t)total, 2, v);
  s.cur = (char *)in;
  s.w[0] = v[0], s.w[1] = v[1];
  if (f.me < 0) {
    rc = mg_red_send(&s, in, 0, total, r + 1);
    return rc == MPI_SUCCESS ? mg_red_recv_into(&s, c->rbuf, 0, b, r + 1) : rc;
  }
  if (r < 2 * f.rem && (rc = mg_red_recv(&s, r - 1, 0, total, 1)) != MPI_SUCCESS) return rc;
  rsb_layout l = {b, f.pof2, f.rem, mg_p2p_flog2(f.pof2), !s.commute};
  if (l.rev) { /* the blocks into bit-reversed positions */
    char *dst = mg_red_other(&s);
    for (int q = 0; q < f.pof2 && rc == MPI_SUCCESS; q++) {
      int j = rsb_perm(&l, q);
      long long sz = rsb_size(&l, j);
      rc = mg_red_copy(&s, mg_red_at(&s, s.cur, rsb_orig(&l, j)), mg_red_at(&s, dst, rsb_off(&l, q)), sz);
    }
    s.cur = dst, s.cur_w = 1;
  }
  int plo, phi;
  if (rc == MPI_SUCCESS) rc = mg_red_halving(&s, &f, l.rev, rsb_off, &l, &plo, &phi);
  if (rc != MPI_SUCCESS) return rc;
  long long mine = rsb_off(&l, plo);
  if (r < 2 * f.rem) { /* the blocks of ranks r-1 and r */
    rc = mg_red_send(&s, mg_red_at(&s, s.cur, mine), 0, b, r - 1);
    mine += b;
  }
  if (rc == MPI_SUCCESS) rc = mg_red_copy(&s, mg_red_at(&s, s.cur, mine), c->rbuf, b);
  return rc;
}

double mg_cost_reduce_scatter_block_as_rechalving(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p < 2) return 0;
  int pof2 = mg_p2p_pow2_floor(p), rem = p - pof2;
  double t = mg_red_halving_cost(m, pof2, p * n) + m->copy * n;
  if (rem) t += mg_p2p_msg(m, p * n) + m->reduce * p * n + mg_p2p_msg(m, n);
  return t;
}

size_t mg_reduce_scatter_block_as_ring_mem(const mg_call *c) { return mg_red_vectors_mem(c, 2, (size_t)c->rcount); }

static long long rsb_ring_off(const void *ctx, int blk) { return *(const long long *)ctx * blk; }

int mg_reduce_scatter_block_as_ring(const mg_call *c, int unused) {
  (void)unused;
  mg_red s;
  int rc = mg_red_init(&s, c);
  if (rc != MPI_SUCCESS) return rc;
  long long b = c->rcount;
  char *tmp[2];
  mg_red_vectors(&s, (size_t)b, 2, tmp);
  return mg_red_ring_rs(&s, c, mg_red_input(c), rsb_ring_off, &b, c->rbuf, tmp, mg_red_in_place(c));
}

double mg_cost_reduce_scatter_block_as_ring(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return (p - 1) * (mg_p2p_xchg(m, n) + m->reduce * n);
}

size_t mg_reduce_scatter_block_as_pairwise_mem(const mg_call *c) { return mg_red_vectors_mem(c, 2, (size_t)c->rcount); }

int mg_reduce_scatter_block_as_pairwise(const mg_call *c, int unused) {
  (void)unused;
  mg_red s;
  int rc = mg_red_init(&s, c), p = c->size, r = c->rank;
  if (rc != MPI_SUCCESS) return rc;
  long long b = c->rcount;
  const char *in = mg_red_input(c);
  char *v[2]; /* v[0]: the block received; v[1]: the sum in place (the receive buffer's first block is input) */
  mg_red_vectors(&s, (size_t)b, 2, v);
  char *acc = mg_red_in_place(c) ? v[1] : c->rbuf;
  rc = mg_red_copy(&s, mg_red_at(&s, in, (long long)r * b), acc, b);
  for (int st = 1; st < p && rc == MPI_SUCCESS; st++) {
    int to = (r + st) % p, from = (r - st + p) % p;
    rc = PMPI_Sendrecv(mg_red_at(&s, in, (long long)to * b), (int)b, s.dt, to, MG_P2P_TAG, v[0], (int)b, s.dt, from,
                       MG_P2P_TAG, s.pc, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS) rc = PMPI_Reduce_local(v[0], acc, (int)b, s.dt, s.op);
  }
  if (rc == MPI_SUCCESS && acc != c->rbuf) rc = mg_red_copy(&s, acc, c->rbuf, b);
  return rc;
}

double mg_cost_reduce_scatter_block_as_pairwise(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return (p - 1) * (mg_p2p_xchg(m, n) + m->reduce * n) + m->copy * n;
}
