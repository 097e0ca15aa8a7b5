/*
 * The reductions as point-to-point algorithms (the p2p family, TGT 2010 eq. 35 and §V.D):
 * MPI_Reduce, MPI_Allreduce, MPI_Reduce_scatter_block and MPI_Scan written with PMPI
 * point-to-point messages on the private communicator (mg_p2p_comm) and PMPI_Reduce_local.
 * This is the machinery their rows share (implemented in p2p_reduction.c): a rank's partial
 * and the buffers it moves through, the folding of the ranks beyond the largest power of two,
 * recursive halving and the ring reduce-scatter. The rows and their cost functions are beside
 * their collective (reduce.c, allreduce.c, reduce_scatter_block.c, scan.c).
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
 */
#ifndef MG_ALGS_P2P_REDUCTION_H
#define MG_ALGS_P2P_REDUCTION_H

#include "algs/p2p_sched.h"
#include "algs/segments.h"

/* ---- a rank's partial and its buffers ---- */

typedef struct mg_red {
  MPI_Datatype dt;
  MPI_Op op;
  mg_type t;
  MPI_Comm pc;
  int commute;
  char *cur;  /* the buffer holding this rank's partial (laid out like the user's buffer) */
  int cur_w;  /* cur may be written (it is w[0] or w[1]) */
  char *w[2]; /* the two writable buffers, distinct */
} mg_red;

static inline char *mg_red_at(const mg_red *s, const void *buf, long long i) {
  return mg_type_at(buf, &s->t, (size_t)i);
}
static inline char *mg_red_other(const mg_red *s) { return s->w[0] != s->cur ? s->w[0] : s->w[1]; }

/* The own input: with MPI_IN_PLACE (reduce: at the root only) it is in the receive buffer. */
static inline int mg_red_in_place(const mg_call *c) {
  return c->sbuf == MPI_IN_PLACE && (c->coll != MG_REDUCE || c->rank == c->root);
}
static inline const void *mg_red_input(const mg_call *c) { return mg_red_in_place(c) ? c->rbuf : c->sbuf; }

/* The call's state for one rank: datatype, op, its layout, the private communicator. */
int mg_red_init(mg_red *s, const mg_call *c);
/* Copies of n elements / of the range [lo, hi) of typed buffers (p2p_reduction.c). */
int mg_red_copy(const mg_red *s, const void *from, void *to, long long n);
int mg_red_copy_range(const mg_red *s, const void *from, void *to, long long lo, long long hi);
/* Receive / exchange a peer's partial of a range and combine it into the own (p2p_reduction.c
 * says which operand goes left); send or receive a range as it is. */
int mg_red_recv(mg_red *s, int peer, long long lo, long long hi, int lower);
int mg_red_exchange(mg_red *s, int peer, long long slo, long long shi, long long klo, long long khi, int lower);
int mg_red_send(const mg_red *s, const void *buf, long long lo, long long hi, int peer);
int mg_red_recv_into(const mg_red *s, void *buf, long long lo, long long hi, int peer);
/* k typed vectors of count elements from scratch, and their size. */
size_t mg_red_vectors_mem(const mg_call *c, size_t k, size_t count);
void mg_red_vectors(const mg_red *s, size_t count, int k, char **out);

/* ---- the folding of the extra ranks (r = p - p') and the new ranks of the p' others ---- */

typedef struct mg_red_fold {
  int pof2, rem;
  int me; /* new rank, -1 for a rank that folded into its odd neighbour */
} mg_red_fold;

/* Rank r's place among p ranks after the folding; a new rank's real rank. */
mg_red_fold mg_red_fold_of(int r, int p);
static inline int mg_red_fold_real(const mg_red_fold *f, int j) { return j < f->rem ? 2 * j + 1 : j + f->rem; }

/* Position q's range of a vector of count elements cut into p' blocks. */
static inline long long mg_red_blk_off(long long count, int pof2, int q) { return count * q / pof2; }

typedef long long (*mg_red_off_fn)(const void *ctx, int q);

/* Recursive halving over the p' new ranks, position q of the vector at [off(q), off(q+1)); the
 * range of positions a pair held before a halving step; the positions of p' equal blocks
 * (ctx: {count, p'}); the LogGP time of the halving (all in p2p_reduction.c). */
int mg_red_halving(mg_red *s, const mg_red_fold *f, int ascending, mg_red_off_fn off, const void *ctx, int *plo,
                   int *phi);
void mg_red_undo(int me, int mask, int *plo, int *phi);
long long mg_red_even_off(const void *ctx, int q);
double mg_red_halving_cost(const mg_loggp *m, int pof2, double n);

/* The ring reduce-scatter over p blocks (allreduce_as_ring, reduce_scatter_block_as_ring;
 * commutative ops only, p2p_reduction.c). */
int mg_red_ring_rs(mg_red *s, const mg_call *c, const char *in, mg_red_off_fn off, const void *ctx, char *out,
                   char **tmp, int inplace);

#endif
