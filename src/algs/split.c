/*
 * The split family: split-robustness, Träff, Gropp and Thakur, TPDS 2010,
 * meta-rule I, eq. (1): A(kn) <= k A(n). A message must not be slower than k
 * messages of a k-th of it: a protocol switch (eager to rendezvous, a
 * segment size, an algorithm change) that makes it so is a defect, and k
 * calls on the pieces are its repair, a segmented message. One function for
 * every collective of the family; the registry's rows give k (2 and 4).
 *
 * Pieces: the reductions (reduce, allreduce, scan, exscan) split the count
 * into k runs of consecutive elements, [c j / k, c (j+1) / k): MPI requires
 * the same count and datatype on every rank of a reduction, so element
 * pieces are the same pieces everywhere, and an op (user-defined,
 * non-commutative too) sees each element once, in rank order, with fewer
 * elements per call than the call has. The others split bytes: ranks may use
 * different datatypes of one signature, so only the byte stream is common;
 * piece j of a message of b bytes is [b j / k, b (j+1) / k), both bounds
 * rounded down to a multiple of 8 bytes (aligned for any basic type), and it
 * travels as MPI_BYTE. For the per-rank-block collectives (allgather,
 * gather, scatter, alltoall) piece j is the same byte range of every block:
 * one element of a byte type resized to the block (len bytes, extent b) per
 * rank, the strided pieces of the guideline. Empty pieces are skipped (b and
 * c are equal on every rank, so every rank skips the same ones). With k = 1
 * (the datatype family's packed rows, packed.c) bcast and the block
 * collectives are the call on the packed byte image, blocks as MPI_BYTE.
 *
 * A rank whose datatype is dense (its elements are its bytes) moves its
 * buffer as it is; any other packs it into scratch first and unpacks the
 * result: a local choice, the messages are the same bytes. In place the data
 * stays where the collective keeps it (gather, scatter: the root's own block
 * is neither sent nor received; allgather, alltoall: packed from the receive
 * buffer when it is not dense).
 *
 * Cost: k times the latency terms of the collective for the same bandwidth
 * terms, e.g. bcast k (log p alpha) + n beta as a binomial tree of
 * pipelines; it wins where the library's algorithm for n is worse than k of
 * its algorithm for n/k.
 *
 * The blocks family (mg_blocks) cuts the same way with pieces of a fixed size
 * instead of a fixed number: "blocking by hand", TGT 2010 eq. (2), A(kn) <=
 * n A(k): pieces of K bytes (the row's parameter, in KiB), as many as the data
 * needs, the last one shorter; the reductions take K / size(datatype) elements
 * a piece (at least one), so a piece never cuts an element. The piece count
 * grows with the message, unlike eq. (1)'s; it is equal on every rank, as the
 * bytes (and a reduction's count and datatype size) are. Cost: ceil(n/K)
 * calls of K bytes, ceil(n/K) (log p alpha) + n beta for a binomial bcast:
 * it wins where the library's algorithm for n is slower than its algorithm
 * for K, n/K times over (a protocol or algorithm switch above K).
 */
#include <string.h>

#include "algs/algs.h"

size_t mg_split_mem(const mg_call *c);
size_t mg_blocks_mem(const mg_call *c);

/* The largest piece of the blocks family's rows (rows.h, MG_BLOCKS_ROWS): 64 KiB. */
#define BLOCKS_MAX ((size_t)64 << 10)

/* How a call is cut: k pieces of near-equal size (eq. 1, fixed 0: mg_split_piece), or pieces of
 * `fixed` bytes (elements, for the reductions), as many as it takes (eq. 2). */
typedef struct cut {
  long k;
  size_t fixed;
} cut;

/* Piece j of a cut of b bytes (or elements). */
static void cut_piece(const cut *ct, size_t b, long j, size_t *off, size_t *len) {
  if (!ct->fixed) {
    mg_split_piece(b, (int)ct->k, (int)j, off, len);
    return;
  }
  *off = (size_t)j * ct->fixed;
  *len = b - *off < ct->fixed ? b - *off : ct->fixed;
}

/* A fixed cut of b units into pieces of `fixed`: ceil(b / fixed) pieces (none for b = 0). */
static cut cut_fixed(size_t b, size_t fixed) { return (cut){(long)((b + fixed - 1) / fixed), fixed}; }

/* Piece j of k of b bytes: [*off, *off + *len), bounds at multiples of 8 bytes (algs.h). */
void mg_split_piece(size_t b, int k, int j, size_t *off, size_t *len) {
  size_t lo = (b * (size_t)j / (size_t)k) & ~(size_t)7;
  size_t hi = j + 1 == k ? b : (b * (size_t)(j + 1) / (size_t)k) & ~(size_t)7;
  *off = lo;
  *len = hi - lo;
}

/* ---- the reductions: runs of elements ---- */

static int split_reduction(const mg_call *c, cut ct) {
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  long n = c->rcount;
  if (ct.fixed) { /* blocks: K bytes -> whole elements a piece, at least one */
    size_t per = t.size > 0 ? ct.fixed / (size_t)t.size : (size_t)n;
    ct = cut_fixed((size_t)n, per ? per : 1);
  }
  int in = c->sbuf == MPI_IN_PLACE, recv = c->coll != MG_REDUCE || c->rank == c->root;
  /* MPICH 4.0.2's in-place MPI_Reduce at a root other than 0 crashes from ~2 KiB: the root
   * reduces from a copy of the piece instead (scratch: mg_split_mem) */
  char *copy = in && c->coll == MG_REDUCE ? mg_scratch_data(ct.fixed ? mg_blocks_mem(c) : mg_split_mem(c)) : NULL;
  for (long j = 0; j < ct.k; j++) {
    long lo, hi;
    if (ct.fixed) {
      lo = j * (long)ct.fixed;
      hi = lo + (long)ct.fixed < n ? lo + (long)ct.fixed : n;
    } else {
      lo = n * j / ct.k, hi = n * (j + 1) / ct.k;
    }
    if (hi == lo) continue;
    MPI_Aint at = (MPI_Aint)lo * t.extent;
    const void *s = in ? MPI_IN_PLACE : (const char *)c->sbuf + at;
    if (copy) {
      size_t span = mg_type_span(&t, (size_t)(hi - lo));
      memcpy(copy, (const char *)c->rbuf + at + t.true_lb, span);
      s = mg_type_base(copy, &t);
    }
    void *r = recv ? (char *)c->rbuf + at : c->rbuf; /* a non-root's receive buffer is not significant */
    int cnt = (int)(hi - lo);
    switch (c->coll) {
    case MG_REDUCE: rc = PMPI_Reduce(s, r, cnt, c->rtype, c->op, c->root, c->comm); break;
    case MG_ALLREDUCE: rc = PMPI_Allreduce(s, r, cnt, c->rtype, c->op, c->comm); break;
    case MG_SCAN: rc = PMPI_Scan(s, r, cnt, c->rtype, c->op, c->comm); break;
    default: rc = PMPI_Exscan(s, r, cnt, c->rtype, c->op, c->comm); break;
    }
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

/* ---- bcast: byte pieces ---- */

static int split_bcast(const mg_call *c, cut ct) {
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  size_t b = c->bytes;
  int dense = mg_type_is_dense(&t), root = c->rank == c->root;
  char *img = dense ? c->rbuf : mg_scratch_data(b);
  if (!dense && root && (rc = mg_pack(c->rbuf, c->rcount, c->rtype, img, (int)b)) != MPI_SUCCESS) return rc;
  if (ct.fixed) ct = cut_fixed(b, ct.fixed);
  for (long j = 0; j < ct.k; j++) {
    size_t off, len;
    cut_piece(&ct, b, j, &off, &len);
    if (len && (rc = PMPI_Bcast(img + off, (int)len, MPI_BYTE, c->root, c->comm)) != MPI_SUCCESS) return rc;
  }
  return dense || root ? MPI_SUCCESS : mg_unpack(img, (int)b, c->rbuf, c->rcount, c->rtype);
}

/* ---- the per-rank-block collectives: the same byte range of every block ---- */

/* One element of len bytes, extent b: piece j of every block of a p-block image. */
static int strided(size_t len, size_t b, MPI_Datatype *t) {
  MPI_Datatype cont;
  int rc = PMPI_Type_contiguous((int)len, MPI_BYTE, &cont);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Type_create_resized(cont, 0, (MPI_Aint)b, t);
  PMPI_Type_free(&cont);
  if (rc == MPI_SUCCESS && (rc = PMPI_Type_commit(t)) != MPI_SUCCESS) PMPI_Type_free(t);
  return rc;
}

/* The byte image of `count` elements of dt at buf: buf itself when dt is dense, else a packed
 * copy carved from scratch (taken at the first such image; packed only if `fill`). */
static int image(const mg_call *c, const void *buf, int count, MPI_Datatype dt, size_t bytes, int fill, char **cur,
                 char **out) {
  mg_type t;
  int rc = mg_type_get(dt, &t);
  if (rc != MPI_SUCCESS) return rc;
  if (mg_type_is_dense(&t)) {
    *out = (char *)buf;
    return MPI_SUCCESS;
  }
  if (!*cur) *cur = mg_scratch_data(mg_split_mem(c)); /* dense types need none */
  *out = mg_carve(cur, bytes);
  return fill && bytes ? mg_pack(buf, count, dt, *out, (int)bytes) : MPI_SUCCESS;
}

size_t mg_split_mem(const mg_call *c) {
  size_t b = c->bytes, p = (size_t)c->size;
  switch (c->coll) {
  case MG_REDUCE: { /* a copy of the largest piece (k >= 2) for an in-place root, which only it knows */
    mg_type t;
    if (mg_type_get(c->rtype, &t) != MPI_SUCCESS) return 0;
    return mg_type_span(&t, ((size_t)c->rcount + 1) / 2);
  }
  case MG_BCAST: return b;
  case MG_GATHER: case MG_SCATTER: case MG_ALLGATHER: return mg_align(p * b) + mg_align(b); /* p blocks, one block */
  case MG_ALLTOALL: return 2 * mg_align(p * b);
  default: return 0;
  }
}

static int split_blocks(const mg_call *c, cut ct) {
  int p = c->size, me = c->rank, root = c->rank == c->root, in = 0, rc = MPI_SUCCESS;
  size_t b = c->bytes, pb = (size_t)p * b;
  char *cur = NULL, *s = NULL, *r = NULL;
  mg_type rt;
  /* the images: s the send side, r the receive side (NULL where not significant) */
  switch (c->coll) {
  case MG_GATHER:
    in = root && c->sbuf == MPI_IN_PLACE;
    if (!in) rc = image(c, c->sbuf, c->scount, c->stype, b, 1, &cur, &s);
    if (rc == MPI_SUCCESS && root) rc = image(c, c->rbuf, p * c->rcount, c->rtype, pb, 0, &cur, &r);
    break;
  case MG_SCATTER:
    in = root && c->rbuf == MPI_IN_PLACE;
    if (root) rc = image(c, c->sbuf, p * c->scount, c->stype, pb, 1, &cur, &s);
    if (rc == MPI_SUCCESS && !in) rc = image(c, c->rbuf, c->rcount, c->rtype, b, 0, &cur, &r);
    break;
  case MG_ALLGATHER:
    in = c->sbuf == MPI_IN_PLACE;
    if (!in) rc = image(c, c->sbuf, c->scount, c->stype, b, 1, &cur, &s);
    if (rc == MPI_SUCCESS) rc = image(c, c->rbuf, p * c->rcount, c->rtype, pb, 0, &cur, &r);
    if (rc == MPI_SUCCESS && in && r != c->rbuf) { /* the own block, packed into its slot */
      if ((rc = mg_type_get(c->rtype, &rt)) == MPI_SUCCESS)
        rc = mg_pack((char *)c->rbuf + (MPI_Aint)me * c->rcount * rt.extent, c->rcount, c->rtype, r + (size_t)me * b,
                     (int)b);
    }
    break;
  default: /* alltoall; in place the blocks to send are in the receive buffer */
    in = c->sbuf == MPI_IN_PLACE;
    if (!in) rc = image(c, c->sbuf, p * c->scount, c->stype, pb, 1, &cur, &s);
    if (rc == MPI_SUCCESS) rc = image(c, c->rbuf, p * c->rcount, c->rtype, pb, in, &cur, &r);
    break;
  }
  if (rc != MPI_SUCCESS) return rc;
  if (ct.fixed) ct = cut_fixed(b, ct.fixed);
  /* blocks: every piece but the last has the same length, so one strided type serves them all */
  MPI_Datatype full = MPI_DATATYPE_NULL;
  for (long j = 0; j < ct.k && rc == MPI_SUCCESS; j++) {
    size_t off, len;
    MPI_Datatype t = MPI_BYTE;
    cut_piece(&ct, b, j, &off, &len);
    if (len == 0) continue;
    int n1 = (int)len; /* one piece (k = 1, the packed rows): whole blocks, len bytes each */
    if (len != b) {
      n1 = 1;
      if (ct.fixed && len == ct.fixed && full != MPI_DATATYPE_NULL) {
        t = full;
      } else {
        if ((rc = strided(len, b, &t)) != MPI_SUCCESS) break;
        if (ct.fixed && len == ct.fixed) full = t;
      }
    }
    const void *sp = in ? MPI_IN_PLACE : s + off;
    switch (c->coll) {
    case MG_GATHER:
      rc = root ? PMPI_Gather(sp, (int)len, MPI_BYTE, r + off, n1, t, c->root, c->comm)
                : PMPI_Gather(sp, (int)len, MPI_BYTE, NULL, 0, MPI_BYTE, c->root, c->comm);
      break;
    case MG_SCATTER:
      rc = root ? PMPI_Scatter(s + off, n1, t, in ? MPI_IN_PLACE : r + off, (int)len, MPI_BYTE, c->root, c->comm)
                : PMPI_Scatter(NULL, 0, MPI_BYTE, r + off, (int)len, MPI_BYTE, c->root, c->comm);
      break;
    case MG_ALLGATHER: rc = PMPI_Allgather(sp, (int)len, MPI_BYTE, r + off, n1, t, c->comm); break;
    default: rc = PMPI_Alltoall(in ? MPI_IN_PLACE : s + off, n1, t, r + off, n1, t, c->comm); break;
    }
    int rc2 = t == MPI_BYTE || t == full ? MPI_SUCCESS : PMPI_Type_free(&t);
    if (rc == MPI_SUCCESS) rc = rc2;
  }
  if (full != MPI_DATATYPE_NULL) {
    int rc2 = PMPI_Type_free(&full);
    if (rc == MPI_SUCCESS) rc = rc2;
  }
  if (rc != MPI_SUCCESS || !r || r == c->rbuf) return rc;
  if (c->coll == MG_SCATTER || c->coll == MG_GATHER) { /* gather: every block but an in-place root's own */
    if (c->coll == MG_SCATTER) return mg_unpack(r, (int)b, c->rbuf, c->rcount, c->rtype);
    if ((rc = mg_type_get(c->rtype, &rt)) != MPI_SUCCESS) return rc;
    for (int i = 0; i < p && rc == MPI_SUCCESS; i++)
      if (!(in && i == me))
        rc = mg_unpack(r + (size_t)i * b, (int)b, (char *)c->rbuf + (MPI_Aint)i * c->rcount * rt.extent, c->rcount,
                       c->rtype);
    return rc;
  }
  return mg_unpack(r, (int)pb, c->rbuf, p * c->rcount, c->rtype);
}

static int cut_call(const mg_call *c, cut ct) {
  switch (c->coll) {
  case MG_BCAST: return split_bcast(c, ct);
  case MG_REDUCE: case MG_ALLREDUCE: case MG_SCAN: case MG_EXSCAN: return split_reduction(c, ct);
  default: return split_blocks(c, ct);
  }
}

int mg_split(const mg_call *c, int k) { return cut_call(c, (cut){k, 0}); }

int mg_blocks(const mg_call *c, int kib) { return cut_call(c, (cut){0, (size_t)kib << 10}); }

/* As mg_split_mem, but an in-place reduce root copies a piece of up to BLOCKS_MAX bytes (whole
 * elements: the largest piece of any blocks row), not half the vector. */
size_t mg_blocks_mem(const mg_call *c) {
  if (c->coll != MG_REDUCE) return mg_split_mem(c);
  mg_type t;
  if (mg_type_get(c->rtype, &t) != MPI_SUCCESS) return 0;
  size_t per = t.size > 0 ? (BLOCKS_MAX + (size_t)t.size - 1) / (size_t)t.size : (size_t)c->rcount;
  return mg_type_span(&t, per < (size_t)c->rcount ? per : (size_t)c->rcount);
}
