/*
 * How the reduction mock-ups cut a vector of `count` elements into one piece
 * per rank, and the typed scratch they size with it.
 *
 * - Equal blocks (GL6, GL15: Reduce_scatter_block): blk = ceil(count/p)
 *   elements per rank; when p does not divide count the vector is copied and
 *   padded to p*blk elements. The padding holds copies of real elements, so a
 *   user-defined op never sees uninitialised bytes; padded results are dropped.
 * - Segments (GL7, GL16: Reduce_scatter with counts): the vector is cut into
 *   blocks of MG_SEG_BYTES of data, and rank i gets a contiguous run of
 *   nb/p of them (the first nb%p ranks one more). Later ranks may get nothing.
 *
 * Counts and the datatype of a reduction are equal on every rank, so all of
 * this is the same on every rank, and typed scratch (sized by mg_type_span)
 * is right for it.
 */
#ifndef MG_SEGMENTS_H
#define MG_SEGMENTS_H

#include <stdint.h>

#include "algs/algs.h"

/* Segment granularity: one 64-byte cache line of data (C = 64 / size(dt)
 * elements, at least 1). For element sizes dividing 64 the borders of a
 * line-aligned dense vector then fall between lines, so no line is written by
 * two ranks, and every non-empty segment but the last is at least a line. */
#define MG_SEG_BYTES 64

static inline long long mg_seg_block(int type_size) {
  return type_size >= MG_SEG_BYTES ? 1 : MG_SEG_BYTES / type_size;
}

/* counts[i], displs[i] (in elements) of rank i's segment, i < p. Counts do not
 * increase with the rank. Returns counts[0], the largest. */
static inline int mg_segments(int count, int type_size, int p, int *counts, int *displs) {
  long long bl = mg_seg_block(type_size), nb = (count + bl - 1) / bl, q = nb / p, rem = nb % p;
  for (int i = 0; i < p; i++) {
    long long first = (long long)i * q + (i < rem ? i : rem), len = q + (i < rem);
    long long lo = first * bl, hi = (first + len) * bl;
    if (lo > count) lo = count;
    if (hi > count) hi = count;
    displs[i] = (int)lo;
    counts[i] = (int)(hi - lo);
  }
  return counts[0];
}

/* The largest segment (rank 0's) without the arrays. */
static inline int mg_segment_max(int count, int type_size, int p) {
  long long bl = mg_seg_block(type_size), nb = (count + bl - 1) / bl;
  long long len = (nb / p + (nb % p != 0)) * bl;
  return (int)(len < count ? len : count);
}

/* Bytes of typed scratch for n elements of dt. SIZE_MAX if dt cannot be
 * queried: the call is then above any cap and the default runs (and reports
 * the error). */
static inline size_t mg_typed_span(MPI_Datatype dt, size_t n) {
  mg_type t;
  if (mg_type_get(dt, &t) != MPI_SUCCESS) return SIZE_MAX;
  return mg_type_span(&t, n);
}

/* Copy count elements of dt from src to buf and fill elements [count, total)
 * of buf with copies of the first ones, doubling the filled part each step
 * (about log2(total/count) copies; total - count < p). Copies never overlap
 * element-wise, as the elements of a valid receive type do not overlap. */
static inline int mg_copy_padded(const void *src, void *buf, const mg_type *t, MPI_Datatype dt, int count,
                                 size_t total) {
  int rc = mg_copy(src, count, dt, buf, count, dt);
  for (size_t filled = (size_t)count; rc == MPI_SUCCESS && filled < total;) {
    size_t k = filled < total - filled ? filled : total - filled;
    rc = mg_copy(buf, (int)k, dt, mg_type_at(buf, t, filled), (int)k, dt);
    filled += k;
  }
  return rc;
}

#endif
