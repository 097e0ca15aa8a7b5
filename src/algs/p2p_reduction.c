/*
 * The shared machinery of the point-to-point reductions (p2p_reduction.h): the partial's
 * buffers, its combination in rank order, the folding, recursive halving and the ring
 * reduce-scatter. Only PMPI calls on the private communicator; the first failing call's code
 * is returned.
 */
#include <limits.h>

#include "algs/p2p_reduction.h"

/* ---- a rank's partial and its buffers ---- */

int mg_red_init(mg_red *s, const mg_call *c) {
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

/* Copy n elements from `from` to `to` (typed buffers of the call's datatype), in pieces of at
 * most INT_MAX bytes (mg_copy packs a non-dense datatype with an int byte count). */
int mg_red_copy(const mg_red *s, const void *from, void *to, long long n) {
  long long piece = s->t.size > 0 ? INT_MAX / s->t.size : n;
  int rc = MPI_SUCCESS;
  if (piece < 1) piece = 1;
  if (from == to) return MPI_SUCCESS;
  for (long long i = 0; i < n && rc == MPI_SUCCESS; i += piece) {
    int k = (int)(n - i < piece ? n - i : piece);
    rc = mg_copy(mg_red_at(s, from, i), k, s->dt, mg_red_at(s, to, i), k, s->dt);
  }
  return rc;
}

int mg_red_copy_range(const mg_red *s, const void *from, void *to, long long lo, long long hi) {
  return hi <= lo ? MPI_SUCCESS : mg_red_copy(s, mg_red_at(s, from, lo), mg_red_at(s, to, lo), hi - lo);
}

/* Before the partial of lower ranks for [lo, hi) arrives: the result lands in cur (the right
 * operand), so a read-only cur's range is copied into a work buffer first. */
static int red_writable(mg_red *s, long long lo, long long hi) {
  if (s->cur_w) return MPI_SUCCESS;
  int rc = mg_red_copy_range(s, s->cur, s->w[0], lo, hi);
  s->cur = s->w[0];
  s->cur_w = 1;
  return rc;
}

/* The peer's partial of [lo, hi) is in o: combine. lower: the peer's ranks come before this
 * rank's (its partial is the left operand), the result in cur; else it lands in o, which
 * becomes cur (only [lo, hi) of it is meaningful from then on). */
static int red_combine(mg_red *s, char *o, long long lo, long long hi, int lower) {
  int rc = MPI_SUCCESS;
  if (hi > lo)
    rc = lower ? PMPI_Reduce_local(mg_red_at(s, o, lo), mg_red_at(s, s->cur, lo), (int)(hi - lo), s->dt, s->op)
               : PMPI_Reduce_local(mg_red_at(s, s->cur, lo), mg_red_at(s, o, lo), (int)(hi - lo), s->dt, s->op);
  if (!lower) s->cur = o, s->cur_w = 1;
  return rc;
}

/* Receive the partial of [lo, hi) from peer and combine it (see red_combine). */
int mg_red_recv(mg_red *s, int peer, long long lo, long long hi, int lower) {
  lower = lower && !s->commute;
  int rc = lower ? red_writable(s, lo, hi) : MPI_SUCCESS;
  char *o = mg_red_other(s);
  if (rc == MPI_SUCCESS && hi > lo)
    rc = PMPI_Recv(mg_red_at(s, o, lo), (int)(hi - lo), s->dt, peer, MG_P2P_TAG, s->pc, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) return rc;
  return red_combine(s, o, lo, hi, lower);
}

/* Send [slo, shi) of the partial to peer, receive its partial of [klo, khi) and combine. The
 * peer calls it with the two ranges swapped, so both skip an empty exchange alike. */
int mg_red_exchange(mg_red *s, int peer, long long slo, long long shi, long long klo, long long khi, int lower) {
  lower = lower && !s->commute;
  const char *src = s->cur;
  int rc = lower ? red_writable(s, klo, khi) : MPI_SUCCESS;
  char *o = mg_red_other(s);
  if (rc == MPI_SUCCESS && (shi > slo || khi > klo))
    rc = PMPI_Sendrecv(mg_red_at(s, src, slo), (int)(shi - slo), s->dt, peer, MG_P2P_TAG, mg_red_at(s, o, klo),
                       (int)(khi - klo), s->dt, peer, MG_P2P_TAG, s->pc, MPI_STATUS_IGNORE);
  if (rc != MPI_SUCCESS) return rc;
  return red_combine(s, o, klo, khi, lower);
}

int mg_red_send(const mg_red *s, const void *buf, long long lo, long long hi, int peer) {
  if (hi <= lo) return MPI_SUCCESS;
  return PMPI_Send(mg_red_at(s, buf, lo), (int)(hi - lo), s->dt, peer, MG_P2P_TAG, s->pc);
}

int mg_red_recv_into(const mg_red *s, void *buf, long long lo, long long hi, int peer) {
  if (hi <= lo) return MPI_SUCCESS;
  return PMPI_Recv(mg_red_at(s, buf, lo), (int)(hi - lo), s->dt, peer, MG_P2P_TAG, s->pc, MPI_STATUS_IGNORE);
}

/* `k` typed vectors of `count` elements of the call's datatype from scratch. */
size_t mg_red_vectors_mem(const mg_call *c, size_t k, size_t count) {
  size_t span = mg_typed_span(c->rtype, count);
  return span == SIZE_MAX ? SIZE_MAX : k * mg_align(span);
}

void mg_red_vectors(const mg_red *s, size_t count, int k, char **out) {
  size_t span = mg_type_span(&s->t, count);
  char *cur = mg_scratch_data((size_t)k * mg_align(span));
  for (int i = 0; i < k; i++) out[i] = mg_type_base(mg_carve(&cur, span), &s->t);
}

/* ---- the folding of the extra ranks (r = p - p') and the new ranks of the p' others ---- */

mg_red_fold mg_red_fold_of(int r, int p) {
  mg_red_fold f;
  f.pof2 = mg_p2p_pow2_floor(p);
  f.rem = p - f.pof2;
  f.me = r < 2 * f.rem ? (r % 2 ? r / 2 : -1) : r - f.rem;
  return f;
}

/* Recursive halving over p' positions of a vector, position q at elements [off(q), off(q+1)):
 * distances 1, 2 ... p'/2 (ascending: a partial is always the reduction of a run of consecutive
 * new ranks, so the lower partner's is the left operand) or p'/2 ... 1 (commutative ops); at each
 * step the rank whose bit is set keeps the upper half. On return [*plo, *phi) is the one position
 * left to the rank: new rank me's bit reversal (ascending) or me itself. */

int mg_red_halving(mg_red *s, const mg_red_fold *f, int ascending, mg_red_off_fn off, const void *ctx, int *plo,
                   int *phi) {
  int rc = MPI_SUCCESS, me = f->me;
  *plo = 0, *phi = f->pof2;
  for (int i = 0; (1 << i) < f->pof2 && rc == MPI_SUCCESS; i++) {
    int mask = ascending ? 1 << i : f->pof2 >> (i + 1), partner = me ^ mask, mid = (*plo + *phi) / 2;
    int up = (me & mask) != 0; /* keeps the upper half */
    int slo = up ? *plo : mid, shi = up ? mid : *phi, klo = up ? mid : *plo, khi = up ? *phi : mid;
    rc = mg_red_exchange(s, mg_red_fold_real(f, partner), off(ctx, slo), off(ctx, shi), off(ctx, klo), off(ctx, khi),
                      ascending && partner < me);
    *plo = klo, *phi = khi;
  }
  return rc;
}

/* The range of positions the pair (me, me ^ mask) held together before halving step `mask`. */
void mg_red_undo(int me, int mask, int *plo, int *phi) {
  int w = *phi - *plo;
  if (me & mask)
    *plo -= w;
  else
    *phi += w;
}

long long mg_red_even_off(const void *ctx, int q) {
  const long long *v = ctx; /* {count, pof2} */
  return mg_red_blk_off(v[0], (int)v[1], q);
}

/* Recursive halving over p' ranks of an n-byte vector: sum_k (x(n/2^k) + gamma n/2^k). */
double mg_red_halving_cost(const mg_loggp *m, int pof2, double n) {
  double t = 0;
  for (int mask = 1; mask < pof2; mask <<= 1) t += mg_p2p_xchg(m, n / (2 * mask)) + m->reduce * n / (2 * mask);
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
int mg_red_ring_rs(mg_red *s, const mg_call *c, const char *in, mg_red_off_fn off, const void *ctx, char *out,
                   char **tmp, int inplace) {
  int p = c->size, r = c->rank, rc = MPI_SUCCESS;
  int left = (r - 1 + p) % p, right = (r + 1) % p;
  const char *prev = NULL; /* the partial sent at the next step */
  if (p == 1) { /* block 0 is the result */
    long long n0 = off(ctx, 1) - off(ctx, 0);
    return inplace ? MPI_SUCCESS : mg_red_copy(s, mg_red_at(s, in, off(ctx, 0)), out, n0);
  }
  for (int st = 0; st < p - 1 && rc == MPI_SUCCESS; st++) {
    int sb = ((r - st - 1) % p + p) % p, rb = ((r - st - 2) % p + p) % p;
    long long slo = off(ctx, sb), sn = off(ctx, sb + 1) - slo, rlo = off(ctx, rb), rn = off(ctx, rb + 1) - rlo;
    const char *sp = st == 0 ? mg_red_at(s, in, slo) : prev;
    char *dst = st == p - 2 && !inplace ? out : tmp[st % 2];
    rc = PMPI_Sendrecv(sp, (int)sn, s->dt, right, MG_P2P_TAG, dst, (int)rn, s->dt, left, MG_P2P_TAG, s->pc,
                       MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && rn > 0) rc = PMPI_Reduce_local(mg_red_at(s, in, rlo), dst, (int)rn, s->dt, s->op);
    prev = dst;
    if (rc == MPI_SUCCESS && st == p - 2) rc = mg_red_copy(s, dst, out, rn);
  }
  return rc;
}
