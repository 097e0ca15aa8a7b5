/*
 * Mock-ups of MPI_Bcast: the root's vector of n bytes (count x size(datatype))
 * reaches every rank.
 *
 * GL9 bcast_as_allgatherv  Bcast(n) <= Allgatherv(n)
 *   Allgatherv in which only the root contributes (count elements; everyone
 *   else 0), in place on all ranks as the standard requires (all or none), so
 *   the data lands at displacement 0 of every buffer. Scratch 2p ints. The
 *   cost depends on how the library's allgatherv copes with one non-empty
 *   block: a ring forwards it p-1 times, (p-1)(alpha + n beta), recursive
 *   doubling gives the binomial bcast's ceil(log p)(alpha + n beta).
 * GL10 bcast_as_scatter_allgather  Bcast(n) <= Scatter(n) + Allgather(n/p)
 *   The root packs the vector into p blocks of ceil(n/p) bytes (the padding
 *   zeroed), scatters them, and an in-place allgather rebuilds the whole
 *   packed vector everywhere; non-roots then unpack. Scratch p*ceil(n/p)
 *   bytes on every rank. About 2 log p alpha + 2 (p-1)/p n beta (van de
 *   Geijn), the large-message bcast.
 *
 * Packed bytes travel as MPI_BYTE (GL10 reads them only through mg_unpack),
 * so ranks may use different datatypes of equal signature.
 *
 * Point-to-point rows (the p2p family, TGT 2010 eq. 35 and §V.D, p2p_sched.h:
 * Bcast(n) <= an algorithm written with point-to-point messages). The root's vector of n bytes
 * (count x size(datatype)) reaches every rank; ranks may use different datatypes of one
 * signature, so only whole-vector messages go as (count, datatype), and pieces of the vector
 * (segments, scatter blocks) go as bytes of its packed image: the buffer itself for a dense
 * datatype, else scratch of n bytes that the root packs and the others unpack at the end.
 * All messages on the private communicator (mg_p2p_comm). v = (rank - root) mod p is a rank's
 * place in the trees below; the root is v = 0.
 *
 * bcast_as_linear        the root sends the vector to each rank (p-1 Isends, then waits).
 *   Scratch: p requests at the root. Cost: (p-2) g(n) + T(n), T the time of one message.
 * bcast_as_binomial      binomial tree: v receives from v - lowbit(v), then sends to v + 2^j for
 *   2^j < lowbit(v) (the root: every 2^j < p), largest subtree first; whole vectors.
 *   No scratch. Cost: ceil(log2 p) rounds of T(n) (plus a gap per earlier sibling).
 * bcast_as_chain<seg>    pipelined chain v -> v+1 in segments of `seg` bytes of the image: v
 *   receives segment k (the receive of k+1 already posted) and passes it on while the next one
 *   comes in. Scratch n bytes (the image of a non-dense datatype; the maximum over ranks, which
 *   may differ in datatype). Cost: (p-1) T(s) + (ceil(n/s)-1) g(s), s = min(seg, n).
 * bcast_as_binary<seg>   the same pipeline on a binary tree (v's children 2v+1, 2v+2): depth
 *   floor(log2 p), two sends per segment. Scratch n bytes. Cost: floor(log2 p) (T(s) + g(s)) +
 *   (ceil(n/s)-1) 2 g(s).
 * bcast_as_scatter_ring  van de Geijn: binomial scatter of p blocks of ceil(n/p) bytes of the
 *   image (v receives blocks [v, v + its subtree)), then a ring allgather (p-1 steps, v sends
 *   block v-s to v+1 and receives block v-s-1 from v-1). The root's receives of the ring go to
 *   scratch, never into its buffer. Scratch n bytes. Cost: the scatter, about sum_k T(n/2^k),
 *   plus (p-1) T(n/p).
 * The segmented rows move the image with int byte counts: n must fit an int (MG_R_NB_INT).
 *
 * One-sided row (TGT 2010 §VII; the window, its fences and errors in rma_window.c; bytes on
 * both sides of every Put and Get, so ranks may use different datatypes of one signature, and n
 * must fit an int count, MG_R_NB_INT; p = 1: no window, no scratch):
 * bcast_as_rma_put     Bcast(n) <= Win_fence + (p-1) x Put(n) + Win_fence. The root puts the n
 *   bytes of the vector (its buffer for a dense datatype, else its packed image, packed into its
 *   own window memory) into the window of every other rank; after the closing fence each of them
 *   copies (unpacks) the window into its buffer. Cost 2 fences + (p-1) puts of n bytes from one
 *   origin + copy(n).
 */
#include <limits.h>
#include <string.h>

#include "algs/algs.h"
#include "algs/p2p_sched.h"
#include "algs/rma_window.h"

size_t mg_bcast_as_allgatherv_mem(const mg_call *c) { return 2 * (size_t)c->size * sizeof(int); }

int mg_bcast_as_allgatherv(const mg_call *c) {
  int p = c->size;
  int *counts = mg_scratch(2 * (size_t)p * sizeof(int)), *displs = counts + p;
  for (int i = 0; i < p; i++) {
    counts[i] = i == c->root ? c->rcount : 0;
    displs[i] = 0;
  }
  /* the send count and type are ignored in place; some libraries still base their choice of algorithm
   * on size(sendtype) x recvcounts, so they get the receive side's, equal in bytes on every rank */
  return PMPI_Allgatherv(MPI_IN_PLACE, counts[c->rank], c->rtype, c->rbuf, counts, displs, c->rtype, c->comm);
}

/* Packing takes int byte counts: a vector of more than INT_MAX bytes (equal
 * on every rank, so all ranks agree) goes to the library's own bcast. */
static int too_big(const mg_call *c) { return c->bytes > (size_t)INT_MAX; }

size_t mg_bcast_as_scatter_allgather_mem(const mg_call *c) {
  if (too_big(c)) return 0;
  size_t p = (size_t)c->size;
  return p * ((c->bytes + p - 1) / p);
}

int mg_bcast_as_scatter_allgather(const mg_call *c) {
  if (too_big(c)) return PMPI_Bcast(c->rbuf, c->rcount, c->rtype, c->root, c->comm);
  size_t n = c->bytes, p = (size_t)c->size, blk = (n + p - 1) / p, total = p * blk;
  char *s = mg_scratch_data(total);
  int rc;
  if (c->rank == c->root) {
    rc = mg_pack(c->rbuf, c->rcount, c->rtype, s, (int)n);
    if (rc != MPI_SUCCESS) return rc;
    memset(s + n, 0, total - n);
    rc = PMPI_Scatter(s, (int)blk, MPI_BYTE, MPI_IN_PLACE, (int)blk, MPI_BYTE, c->root, c->comm);
  } else {
    rc = PMPI_Scatter(NULL, 0, MPI_BYTE, s + (size_t)c->rank * blk, (int)blk, MPI_BYTE, c->root, c->comm);
  }
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Allgather(MPI_IN_PLACE, (int)blk, MPI_BYTE, s, (int)blk, MPI_BYTE, c->comm); /* see GL9 */
  if (rc != MPI_SUCCESS || c->rank == c->root) return rc;
  return mg_unpack(s, (int)n, c->rbuf, c->rcount, c->rtype);
}

/* ---- the image of the vector ---- */

typedef struct image {
  char *img; /* n bytes: the vector as bytes */
  int packed; /* img is scratch: packed at the root, unpacked elsewhere at the end */
} image;

static int image_open(const mg_call *c, image *im) {
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  im->packed = !mg_type_is_dense(&t);
  im->img = im->packed ? mg_scratch_data(c->bytes) : c->rbuf;
  if (im->packed && c->rank == c->root) return mg_pack(c->rbuf, c->rcount, c->rtype, im->img, (int)c->bytes);
  return MPI_SUCCESS;
}

static int image_close(const mg_call *c, const image *im, int rc) {
  if (rc != MPI_SUCCESS || !im->packed || c->rank == c->root) return rc;
  return mg_unpack(im->img, (int)c->bytes, c->rbuf, c->rcount, c->rtype);
}

size_t mg_bcast_p2p_image_mem(const mg_call *c) { return c->bytes; }

/* ---- linear ---- */

size_t mg_bcast_as_linear_mem(const mg_call *c) { return (size_t)c->size * sizeof(MPI_Request); }

int mg_bcast_as_linear(const mg_call *c, int unused) {
  (void)unused;
  MPI_Comm pc;
  int p = c->size, rc = mg_p2p_comm(c->comm, &pc);
  if (rc != MPI_SUCCESS) return rc;
  if (c->rank != c->root)
    return PMPI_Recv(c->rbuf, c->rcount, c->rtype, c->root, MG_P2P_TAG, pc, MPI_STATUS_IGNORE);
  MPI_Request *rq = mg_scratch((size_t)p * sizeof *rq);
  int k = 0;
  for (int i = 1; i < p; i++) {
    rc = PMPI_Isend(c->rbuf, c->rcount, c->rtype, (c->root + i) % p, MG_P2P_TAG, pc, &rq[k++]);
    if (rc != MPI_SUCCESS) return rc;
  }
  return mg_p2p_waitall(k, rq, MPI_SUCCESS);
}

double mg_cost_bcast_as_linear(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return mg_p2p_msgs(m, p - 1, n);
}

/* ---- binomial ---- */

int mg_bcast_as_binomial(const mg_call *c, int unused) {
  (void)unused;
  MPI_Comm pc;
  int p = c->size, root = c->root, v = mg_p2p_rel(c->rank, root, p), rc = mg_p2p_comm(c->comm, &pc);
  if (rc != MPI_SUCCESS) return rc;
  int top = v ? (v & -v) : 1 << mg_p2p_log2_ceil(p);
  if (v) rc = PMPI_Recv(c->rbuf, c->rcount, c->rtype, mg_p2p_abs(v - top, root, p), MG_P2P_TAG, pc, MPI_STATUS_IGNORE);
  for (int mask = top >> 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1)
    if (v + mask < p) rc = PMPI_Send(c->rbuf, c->rcount, c->rtype, mg_p2p_abs(v + mask, root, p), MG_P2P_TAG, pc);
  return rc;
}

/* Arrival of the data at v in a binomial tree whose node sends (largest subtree first) a
 * message of bsize(subtree) bytes to each child, each crowded by its round
 * (mg_p2p_round_crowding); the worst v. `blk` > 0: a child's message
 * is blk bytes per rank of its subtree (the scatter), else n (the whole vector). */
static double binomial_tree(const mg_loggp *m, int p, double n, double blk) {
  int top = 1 << mg_p2p_log2_ceil(p);
  double worst = 0;
  for (int v = 1; v < p; v++) {
    double t = 0;
    int node = 0;
    for (int mask = top >> 1; mask > 0; mask >>= 1) {
      if (!(v & mask)) continue;
      int ntop = node ? (node & -node) : top;
      for (int m2 = ntop >> 1; m2 > mask; m2 >>= 1) /* the earlier siblings' sends */
        if (node + m2 < p) {
          int sub = m2 < p - node - m2 ? m2 : p - node - m2;
          t += mg_loggp_gap(m, blk > 0 ? sub * blk : n);
        }
      int sub = mask < p - node - mask ? mask : p - node - mask;
      t += mg_p2p_round_crowding(m, p, mask) * mg_p2p_msg(m, blk > 0 ? sub * blk : n);
      node += mask;
    }
    if (t > worst) worst = t;
  }
  return worst;
}

double mg_cost_bcast_as_binomial(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return binomial_tree(m, p, n, 0);
}

/* ---- pipelines: chain and binary tree ---- */

/* Segments of `seg` bytes of img (n bytes) from `parent` (-1 at the root) to kids[0..nk):
 * the receive of segment k+1 is posted before segment k is passed on, and the sends of
 * segment k-1 complete before those of k start. */
static int pipeline(char *img, size_t n, size_t seg, int parent, const int *kids, int nk, MPI_Comm pc) {
  MPI_Request rr = MPI_REQUEST_NULL, sr[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
  size_t nseg = (n + seg - 1) / seg;
  int rc = MPI_SUCCESS;
  if (parent >= 0)
    rc = PMPI_Irecv(img, (int)(seg < n ? seg : n), MPI_BYTE, parent, MG_P2P_TAG, pc, &rr);
  for (size_t k = 0; k < nseg && rc == MPI_SUCCESS; k++) {
    size_t off = k * seg, len = n - off < seg ? n - off : seg;
    if (parent >= 0) {
      rc = PMPI_Wait(&rr, MPI_STATUS_IGNORE);
      if (rc == MPI_SUCCESS && k + 1 < nseg) {
        size_t nlen = n - off - len < seg ? n - off - len : seg;
        rc = PMPI_Irecv(img + off + len, (int)nlen, MPI_BYTE, parent, MG_P2P_TAG, pc, &rr);
      }
    }
    if (rc == MPI_SUCCESS && nk) rc = mg_p2p_waitall(nk, sr, MPI_SUCCESS);
    for (int j = 0; j < nk && rc == MPI_SUCCESS; j++)
      rc = PMPI_Isend(img + off, (int)len, MPI_BYTE, kids[j], MG_P2P_TAG, pc, &sr[j]);
  }
  if (rc == MPI_SUCCESS && nk) rc = mg_p2p_waitall(nk, sr, MPI_SUCCESS);
  return rc;
}

static size_t seg_bytes(int param) { return param > 0 ? (size_t)param : MG_P2P_SEG16K; }

int mg_bcast_as_chain(const mg_call *c, int seg) {
  MPI_Comm pc;
  image im;
  int p = c->size, root = c->root, v = mg_p2p_rel(c->rank, root, p), rc = mg_p2p_comm(c->comm, &pc);
  if (rc == MPI_SUCCESS) rc = image_open(c, &im);
  if (rc != MPI_SUCCESS) return rc;
  int kid = mg_p2p_abs(v + 1, root, p);
  rc = pipeline(im.img, c->bytes, seg_bytes(seg), v ? mg_p2p_abs(v - 1, root, p) : -1, &kid, v + 1 < p, pc);
  return image_close(c, &im, rc);
}

/* Segments of s bytes in n bytes; an empty message is one (empty) segment. */
static double nsegs(double n, double s) { return n > 0 && s > 0 ? (double)(long long)((n + s - 1) / s) : 1; }

double mg_cost_bcast_as_chain(const mg_loggp *m, int p, double n, int param) {
  double s = (double)seg_bytes(param) < n ? (double)seg_bytes(param) : n;
  if (p < 2) return 0;
  return (p - 1) * mg_p2p_msg(m, s) + (nsegs(n, s) - 1) * mg_loggp_gap(m, s);
}

int mg_bcast_as_binary(const mg_call *c, int seg) {
  MPI_Comm pc;
  image im;
  int p = c->size, root = c->root, v = mg_p2p_rel(c->rank, root, p), rc = mg_p2p_comm(c->comm, &pc);
  if (rc == MPI_SUCCESS) rc = image_open(c, &im);
  if (rc != MPI_SUCCESS) return rc;
  int kids[2], nk = 0;
  for (int j = 1; j <= 2; j++)
    if (2 * v + j < p) kids[nk++] = mg_p2p_abs(2 * v + j, root, p);
  rc = pipeline(im.img, c->bytes, seg_bytes(seg), v ? mg_p2p_abs((v - 1) / 2, root, p) : -1, kids, nk, pc);
  return image_close(c, &im, rc);
}

double mg_cost_bcast_as_binary(const mg_loggp *m, int p, double n, int param) {
  double s = (double)seg_bytes(param) < n ? (double)seg_bytes(param) : n, g = mg_loggp_gap(m, s);
  if (p < 2) return 0;
  /* the deepest rank (p-1) is at depth floor(log2 p); a second child waits one gap more, and a
   * rank with two children sends each segment twice: at p = 2 the root has one child */
  int kids = p > 2 ? 2 : 1;
  return mg_p2p_flog2(p) * (mg_p2p_msg(m, s) + (kids - 1) * g) + (nsegs(n, s) - 1) * kids * g;
}

/* ---- scatter + ring allgather (van de Geijn) ---- */

int mg_bcast_as_scatter_ring(const mg_call *c, int unused) {
  (void)unused;
  MPI_Comm pc;
  image im;
  int p = c->size, root = c->root, v = mg_p2p_rel(c->rank, root, p), rc = mg_p2p_comm(c->comm, &pc);
  if (rc == MPI_SUCCESS) rc = image_open(c, &im);
  if (rc != MPI_SUCCESS) return rc;
  size_t n = c->bytes, blk = (n + (size_t)p - 1) / (size_t)p;
#define AT(i) ((size_t)(i) * blk < n ? (size_t)(i) * blk : n) /* start of block i, clipped */
  /* scatter: v receives the blocks of its subtree [v, v + sub), then hands on its children's */
  int top = v ? (v & -v) : 1 << mg_p2p_log2_ceil(p);
  if (v) {
    int sub = top < p - v ? top : p - v;
    size_t lo = AT(v), hi = AT(v + sub);
    if (hi > lo)
      rc = PMPI_Recv(im.img + lo, (int)(hi - lo), MPI_BYTE, mg_p2p_abs(v - top, root, p), MG_P2P_TAG, pc,
                     MPI_STATUS_IGNORE);
  }
  for (int mask = top >> 1; mask > 0 && rc == MPI_SUCCESS; mask >>= 1) {
    int kid = v + mask;
    if (kid >= p) continue;
    int sub = mask < p - kid ? mask : p - kid;
    size_t lo = AT(kid), hi = AT(kid + sub);
    if (hi > lo) rc = PMPI_Send(im.img + lo, (int)(hi - lo), MPI_BYTE, mg_p2p_abs(kid, root, p), MG_P2P_TAG, pc);
  }
  /* ring allgather; the root already has every block: its receives go to scratch (a dense root's
   * image is its buffer, which a bcast never writes) */
  char *rimg = v == 0 && !im.packed && p > 1 ? mg_scratch_data(n) : im.img;
  int left = mg_p2p_abs(v - 1 + p, root, p), right = mg_p2p_abs(v + 1, root, p);
  for (int s = 0; s < p - 1 && rc == MPI_SUCCESS; s++) {
    int sb = (v - s + p) % p, rb = (v - s - 1 + 2 * p) % p;
    size_t slo = AT(sb), shi = AT(sb + 1), rlo = AT(rb), rhi = AT(rb + 1);
    MPI_Request rq[2] = {MPI_REQUEST_NULL, MPI_REQUEST_NULL};
    if (rhi > rlo) rc = PMPI_Irecv(rimg + rlo, (int)(rhi - rlo), MPI_BYTE, left, MG_P2P_TAG, pc, &rq[0]);
    if (rc == MPI_SUCCESS && shi > slo)
      rc = PMPI_Isend(im.img + slo, (int)(shi - slo), MPI_BYTE, right, MG_P2P_TAG, pc, &rq[1]);
    if (rc == MPI_SUCCESS) rc = mg_p2p_waitall(2, rq, MPI_SUCCESS);
  }
#undef AT
  return image_close(c, &im, rc);
}

double mg_cost_bcast_as_scatter_ring(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  if (p < 2) return 0;
  double blk = (double)(((long long)n + p - 1) / p);
  return binomial_tree(m, p, n, blk) + (p - 1) * mg_p2p_xchg(m, blk);
}

/* ---- bcast: fence, (p-1) puts from the root, fence ---- */

size_t mg_bcast_as_rma_put_mem(const mg_call *c) { return c->size > 1 ? mg_rma_win_bytes(c->bytes) : 0; }

int mg_bcast_as_rma_put(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, root = c->rank == c->root, n = (int)c->bytes, rc;
  mg_type t;
  mg_rma_rec *w;
  if (p == 1) return MPI_SUCCESS;
  if ((rc = mg_type_get(c->rtype, &t)) != MPI_SUCCESS || (rc = mg_rma_window(c, c->bytes, &w)) != MPI_SUCCESS)
    return rc;
  if (!w) return mg_run(c, 0); /* no window here (rma_window.c): mg_late.why says so */
  int dense = mg_type_is_dense(&t);
  const char *src = c->rbuf;
  if (root && !dense) { /* the packed image, in the root's own window memory (before the epoch) */
    if ((rc = mg_pack(c->rbuf, c->rcount, c->rtype, w->base, n)) != MPI_SUCCESS) return rc;
    src = w->base;
  }
  rc = PMPI_Win_fence(MPI_MODE_NOPRECEDE | (root ? MPI_MODE_NOPUT : 0), w->win);
  for (int i = 1; root && i < p && rc == MPI_SUCCESS; i++)
    rc = PMPI_Put(src, n, MPI_BYTE, (c->root + i) % p, 0, n, MPI_BYTE, w->win);
  if (rc == MPI_SUCCESS) rc = PMPI_Win_fence(MPI_MODE_NOSUCCEED, w->win);
  if (rc != MPI_SUCCESS) return mg_rma_win_error(c, rc);
  if (root) return MPI_SUCCESS;
  if (dense) {
    memcpy(c->rbuf, w->base, c->bytes);
    return MPI_SUCCESS;
  }
  return mg_unpack(w->base, n, c->rbuf, c->rcount, c->rtype);
}
