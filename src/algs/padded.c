/*
 * The monotony family's repair: a message must not take longer than a larger
 * one, A(n) <= A(n') for n <= n' (Hunold et al., PGMPI, Euro-Par 2016; TGT
 * 2010 meta-rule II). Where the library breaks it (a protocol or algorithm
 * switch that makes n slower than n'), running the call at the larger size
 * is faster: the message is padded. `mpiguide check` finds such cells
 * (docs/check.md, "Monotony"); these rows measure and repair them.
 *
 * The padded size: the smallest power of two at least k times the message
 * (k = 2, 4: the row's parameter), in bytes for bcast and in elements for the
 * reductions: with the check presets' sizes (powers of two, steps of 2 or 4)
 * it is the next measured size or the one after.
 *
 * Where padding is safe:
 * - bcast: the root's n bytes are copied (packed, for a datatype that is not
 *   dense) into scratch and the padded message moves as MPI_BYTE; the other
 *   ranks copy (unpack) the first n bytes back. The padding is zeros.
 * - reduce, allreduce, scan, exscan with a predefined datatype that has a
 *   class (C integer, floating point, MPI_BYTE: contiguous, extent = size)
 *   and a predefined op: the ops work element by element, so padding
 *   elements (zeros) change no real element. A user-defined op may assume it
 *   is never called with more elements than the call has, and a derived
 *   datatype is not a run of equal elements: the row does not apply
 *   (restriction PAD_PREDEFINED). The datatype and op of a reduction are the
 *   same on every rank, so the decision is too. Exscan's rank 0 gets no
 *   result, and its receive buffer is left alone.
 * The padded count must fit an int (restriction PADDED_INT).
 *
 * Cost: A(n') for the padded n', plus a copy of n bytes on each side and
 * clearing n' - n bytes.
 */
#include <stdint.h>
#include <string.h>

#include "algs/algs.h"

/* The padded count: the smallest power of two >= k n (n >= 1); SIZE_MAX when it overflows. */
size_t mg_padded_count(size_t n, int k) {
  size_t want = n * (size_t)k, t = 1;
  if (want / (size_t)k != n) return SIZE_MAX;
  while (t < want) {
    if (t > SIZE_MAX / 2) return SIZE_MAX;
    t *= 2;
  }
  return t;
}

/* What is padded: bytes (bcast) or elements (the reductions). */
static size_t units(const mg_call *c) {
  return c->coll == MG_BCAST ? c->bytes : (size_t)c->rcount;
}

size_t mg_padded_units(const mg_call *c, int k) { return mg_padded_count(units(c), k); }

/* Scratch: the padded message (bcast), a send and a receive vector (the reductions); the largest k
 * (4) of the family, so that one figure serves both rows. */
size_t mg_padded_mem(const mg_call *c) {
  size_t t = mg_padded_units(c, 4);
  if (t == SIZE_MAX) return SIZE_MAX;
  if (c->coll == MG_BCAST) return t;
  int size = 0;
  if (PMPI_Type_size(c->rtype, &size) != MPI_SUCCESS || size <= 0) return SIZE_MAX;
  return 2 * mg_align(t * (size_t)size);
}

static int padded_bcast(const mg_call *c, int k) {
  mg_type t;
  int rc = mg_type_get(c->rtype, &t);
  if (rc != MPI_SUCCESS) return rc;
  size_t n = c->bytes, np = mg_padded_count(n, k);
  int dense = mg_type_is_dense(&t), root = c->rank == c->root;
  char *img = mg_scratch(np);
  if (root) {
    if (dense)
      memcpy(img, c->rbuf, n);
    else if ((rc = mg_pack(c->rbuf, c->rcount, c->rtype, img, (int)n)) != MPI_SUCCESS)
      return rc;
    memset(img + n, 0, np - n);
  }
  if ((rc = PMPI_Bcast(img, (int)np, MPI_BYTE, c->root, c->comm)) != MPI_SUCCESS || root) return rc;
  if (dense) {
    memcpy(c->rbuf, img, n);
    return MPI_SUCCESS;
  }
  return mg_unpack(img, (int)n, c->rbuf, c->rcount, c->rtype);
}

static int padded_reduction(const mg_call *c, int k) {
  int size, rc = PMPI_Type_size(c->rtype, &size);
  if (rc != MPI_SUCCESS) return rc;
  size_t n = (size_t)c->rcount * (size_t)size, cnt = mg_padded_count((size_t)c->rcount, k), np = cnt * (size_t)size;
  char *cur = mg_scratch(2 * mg_align(np)), *s = mg_carve(&cur, np), *r = mg_carve(&cur, np);
  memcpy(s, c->sbuf == MPI_IN_PLACE ? c->rbuf : c->sbuf, n); /* predefined datatype: n contiguous bytes */
  memset(s + n, 0, np - n);
  int recv = 1;
  switch (c->coll) {
  case MG_REDUCE:
    rc = PMPI_Reduce(s, r, (int)cnt, c->rtype, c->op, c->root, c->comm);
    recv = c->rank == c->root;
    break;
  case MG_ALLREDUCE: rc = PMPI_Allreduce(s, r, (int)cnt, c->rtype, c->op, c->comm); break;
  case MG_SCAN: rc = PMPI_Scan(s, r, (int)cnt, c->rtype, c->op, c->comm); break;
  default:
    rc = PMPI_Exscan(s, r, (int)cnt, c->rtype, c->op, c->comm);
    recv = c->rank != 0; /* rank 0's receive buffer is undefined after MPI_Exscan: left as it was */
    break;
  }
  if (rc == MPI_SUCCESS && recv) memcpy(c->rbuf, r, n);
  return rc;
}

int mg_padded(const mg_call *c, int k) {
  return c->coll == MG_BCAST ? padded_bcast(c, k) : padded_reduction(c, k);
}
