/*
 * The in-place family: Träff, Gropp and Thakur, TPDS 2010, eq. (12):
 * A(MPI_IN_PLACE, n) <= A(n). A call with MPI_IN_PLACE must not be slower
 * than copying the data it reads to scratch and making the regular call
 * from there; a library whose in-place path is slower (a different
 * algorithm, an extra internal copy done badly, no pipelining) is
 * inconsistent, and the copy plus the regular call is the repair. One
 * function for every collective that has an in-place form (all but bcast
 * and barrier).
 *
 * What a rank whose call is in place does (the others call the collective
 * as given, which is the default itself):
 *  - allreduce, scan, exscan, reduce (root): copies count elements of the
 *    receive buffer and calls with the copy as the send buffer;
 *  - reduce_scatter_block, reduce_scatter: copies the whole input vector
 *    (p x recvcount, the sum of recvcounts) from the receive buffer;
 *  - allgather, allgatherv, gather (root), gatherv (root): copies its own
 *    block from its slot of the receive buffer and sends it from the copy
 *    with the receive count and type;
 *  - alltoall, alltoallv, alltoallw: copies the blocks from the receive
 *    buffer and sends with the receive counts, displacements and types;
 *  - scatter, scatterv (root, receive buffer MPI_IN_PLACE): receives its own
 *    block into scratch, where it is dropped (in place it stays in the send
 *    buffer, untouched).
 * A copy is the bytes spanned by the elements in their own datatype (true
 * extent, gaps included), moved with memcpy, and the regular call uses the
 * same datatype on it: exact for any datatype, no int limit of packing.
 *
 * Deciding on the scratch (DESIGN.md rules 1 and 5):
 *  - the reductions: datatype and count are equal on every rank, and
 *    MPI_IN_PLACE is all ranks or none (reduce: the root, which every rank
 *    knows), so the mem function is equal on every rank;
 *  - gather, gatherv, scatter, scatterv: only the root's call changes; the
 *    others make the same call whatever the root decides, so the root alone
 *    compares its scratch with the cap (mg_late_ok: a fallback is the
 *    root's, the others' calls are the default anyway);
 *  - allgather, allgatherv, alltoall, alltoallv, alltoallw: every rank is in
 *    place, and the receive datatypes (alltoallv/w: the counts) may differ
 *    between ranks, so no rank knows the others' scratch: one allreduce of
 *    the largest scratch agrees on it first (part of the mock-up's cost: a
 *    latency term the regular call does not have), then mg_late_ok.
 *
 * Cost: a local copy of the in-place data (n bytes; p x n for alltoall and
 * reduce_scatter_block; the whole vector for reduce_scatter) plus the
 * regular call; plus one small allreduce for the all-rank block ones.
 */
#include <stdint.h>
#include <string.h>

#include "algs/algs.h"

size_t mg_inplace_mem(const mg_call *c);

static char none; /* the buffer of an empty copy (count 0: never read or written) */

/* A copy of the span bytes of elements of t at buf (mg_type_span) into scratch, taken here; *base:
 * the address to pass to MPI with the same datatype (span 0: nothing to copy). */
static void copy_to(const void *buf, const mg_type *t, size_t span, const void **base) {
  if (span == 0) {
    *base = &none;
    return;
  }
  char *s = mg_scratch_data(span);
  memcpy(s, (const char *)buf + t->true_lb, span);
  *base = mg_type_base(s, t);
}

/* Scratch bytes for count elements of dt at this rank (0 for count 0); MPI error code. */
static int span_of(MPI_Datatype dt, size_t count, mg_type *t, size_t *span) {
  int rc = mg_type_get(dt, t);
  if (rc == MPI_SUCCESS) *span = mg_type_span(t, count);
  return rc;
}

/* The sum of the receive counts of reduce_scatter: its whole vector. */
static size_t sum_counts(const mg_call *c) {
  size_t s = 0;
  for (int i = 0; i < c->size; i++) s += (size_t)c->rcounts[i];
  return s;
}

/* The bytes [*lo, *hi) of the receive buffer that alltoallv's (w: byte displacements, one type
 * per peer) blocks cover; lo = hi = 0 when all are empty. */
static int a2a_cover(const mg_call *c, MPI_Aint *lo, MPI_Aint *hi) {
  int any = 0;
  *lo = *hi = 0;
  for (int i = 0; i < c->size; i++) {
    if (c->rcounts[i] == 0) continue;
    mg_type t;
    size_t span;
    int rc = span_of(c->coll == MG_ALLTOALLW ? c->rtypes[i] : c->rtype, (size_t)c->rcounts[i], &t, &span);
    if (rc != MPI_SUCCESS) return rc;
    MPI_Aint at = c->coll == MG_ALLTOALLW ? (MPI_Aint)c->rdispls[i] : (MPI_Aint)c->rdispls[i] * t.extent;
    MPI_Aint a = at + t.true_lb, b = a + (MPI_Aint)span;
    if (!any || a < *lo) *lo = a;
    if (!any || b > *hi) *hi = b;
    any = 1;
  }
  return MPI_SUCCESS;
}

/* The all-rank block collectives: agree on the largest scratch, then may go on (1) or not (0).
 * SIZE_MAX from any rank (it could not tell its scratch) is a no everywhere, even without a cap. */
static int agree(const mg_call *c, size_t mine, int *go) {
  unsigned long long m = mine, max = 0;
  int rc = PMPI_Allreduce(&m, &max, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, c->comm);
  if (rc == MPI_SUCCESS) *go = mg_late_ok(max < (unsigned long long)SIZE_MAX, (size_t)max);
  return rc;
}

/* allgather, allgatherv, alltoall, alltoallv, alltoallw: every rank is in place. */
static int all_blocks(const mg_call *c) {
  mg_type t = {0};
  size_t span = 0;
  const char *from = c->rbuf; /* the first element of the data to copy */
  MPI_Aint lo = 0, hi = 0;
  int rc = MPI_SUCCESS, go = 0;
  switch (c->coll) {
  case MG_ALLGATHER: case MG_ALLTOALL: {
    size_t n = c->coll == MG_ALLGATHER ? (size_t)c->rcount : (size_t)c->size * (size_t)c->rcount;
    rc = span_of(c->rtype, n, &t, &span);
    if (c->coll == MG_ALLGATHER) from = mg_type_at(c->rbuf, &t, (size_t)c->rank * (size_t)c->rcount);
    break;
  }
  case MG_ALLGATHERV:
    rc = span_of(c->rtype, (size_t)c->rcounts[c->rank], &t, &span);
    from = (const char *)c->rbuf + (MPI_Aint)c->rdispls[c->rank] * t.extent;
    break;
  default: /* alltoallv, alltoallw: the bytes the blocks cover, as bytes */
    rc = a2a_cover(c, &lo, &hi);
    span = (size_t)(hi - lo);
    break;
  }
  /* a rank that cannot tell its scratch still takes part: every rank then runs the default */
  if (rc != MPI_SUCCESS) span = SIZE_MAX;
  if ((rc = agree(c, span, &go)) != MPI_SUCCESS) return rc;
  if (!go) return mg_run(c, 0);
  const void *s;
  if (c->coll == MG_ALLTOALLV || c->coll == MG_ALLTOALLW) { /* base: the copy of rbuf + lo, minus lo */
    char *sc = span ? mg_scratch_data(span) : NULL;
    if (sc) memcpy(sc, (const char *)c->rbuf + lo, span);
    s = sc ? sc - lo : &none;
  } else {
    copy_to(from, &t, span, &s);
  }
  switch (c->coll) {
  case MG_ALLGATHER: return PMPI_Allgather(s, c->rcount, c->rtype, c->rbuf, c->rcount, c->rtype, c->comm);
  case MG_ALLGATHERV:
    return PMPI_Allgatherv(s, c->rcounts[c->rank], c->rtype, c->rbuf, c->rcounts, c->rdispls, c->rtype, c->comm);
  case MG_ALLTOALL: return PMPI_Alltoall(s, c->rcount, c->rtype, c->rbuf, c->rcount, c->rtype, c->comm);
  case MG_ALLTOALLV:
    return PMPI_Alltoallv(s, c->rcounts, c->rdispls, c->rtype, c->rbuf, c->rcounts, c->rdispls, c->rtype, c->comm);
  default:
    return PMPI_Alltoallw(s, c->rcounts, c->rdispls, c->rtypes, c->rbuf, c->rcounts, c->rdispls, c->rtypes,
                          c->comm);
  }
}

/* gather, gatherv: the root's own block; scatter, scatterv: a place for it. Root only. */
static int root_blocks(const mg_call *c) {
  mg_type t;
  size_t span;
  int rc, n;
  MPI_Datatype dt = c->coll == MG_GATHER || c->coll == MG_GATHERV ? c->rtype : c->stype;
  switch (c->coll) {
  case MG_GATHER: n = c->rcount; break;
  case MG_GATHERV: n = c->rcounts[c->root]; break;
  case MG_SCATTER: n = c->scount; break;
  default: n = c->scounts[c->root]; break;
  }
  if ((rc = span_of(dt, (size_t)n, &t, &span)) != MPI_SUCCESS) return rc;
  if (!mg_late_ok(1, span)) return mg_run(c, 0);
  const void *s;
  switch (c->coll) {
  case MG_GATHER:
    copy_to(mg_type_at(c->rbuf, &t, (size_t)c->root * (size_t)n), &t, span, &s);
    return PMPI_Gather(s, n, dt, c->rbuf, c->rcount, dt, c->root, c->comm);
  case MG_GATHERV:
    copy_to((const char *)c->rbuf + (MPI_Aint)c->rdispls[c->root] * t.extent, &t, span, &s);
    return PMPI_Gatherv(s, n, dt, c->rbuf, c->rcounts, c->rdispls, dt, c->root, c->comm);
  default: { /* nothing to copy: the root's block is received into scratch and dropped */
    void *r = span ? mg_type_base(mg_scratch_data(span), &t) : &none;
    if (c->coll == MG_SCATTER) return PMPI_Scatter(c->sbuf, n, dt, r, n, dt, c->root, c->comm);
    return PMPI_Scatterv(c->sbuf, c->scounts, c->sdispls, dt, r, n, dt, c->root, c->comm);
  }
  }
}

/* The reductions: the input vector, count elements of the call's datatype in the receive buffer. */
static size_t reduction_count(const mg_call *c) {
  switch (c->coll) {
  case MG_REDUCE_SCATTER_BLOCK: return (size_t)c->size * (size_t)c->rcount;
  case MG_REDUCE_SCATTER: return sum_counts(c);
  default: return (size_t)c->rcount;
  }
}

static int reduction(const mg_call *c) {
  mg_type t;
  size_t span;
  int rc = span_of(c->rtype, reduction_count(c), &t, &span);
  if (rc != MPI_SUCCESS) return rc;
  const void *s;
  copy_to(c->rbuf, &t, span, &s);
  switch (c->coll) {
  case MG_ALLREDUCE: return PMPI_Allreduce(s, c->rbuf, c->rcount, c->rtype, c->op, c->comm);
  case MG_SCAN: return PMPI_Scan(s, c->rbuf, c->rcount, c->rtype, c->op, c->comm);
  case MG_EXSCAN: return PMPI_Exscan(s, c->rbuf, c->rcount, c->rtype, c->op, c->comm);
  case MG_REDUCE: return PMPI_Reduce(s, c->rbuf, c->rcount, c->rtype, c->op, c->root, c->comm);
  case MG_REDUCE_SCATTER_BLOCK:
    return PMPI_Reduce_scatter_block(s, c->rbuf, c->rcount, c->rtype, c->op, c->comm);
  default: return PMPI_Reduce_scatter(s, c->rbuf, c->rcounts, c->rtype, c->op, c->comm);
  }
}

/* Whether this rank's call is in place. */
static int in_place_here(const mg_call *c) {
  switch (c->coll) {
  case MG_SCATTER: case MG_SCATTERV: return c->rank == c->root && c->rbuf == MPI_IN_PLACE;
  case MG_GATHER: case MG_GATHERV: case MG_REDUCE: return c->rank == c->root && c->sbuf == MPI_IN_PLACE;
  case MG_BCAST: case MG_BARRIER: return 0;
  default: return c->sbuf == MPI_IN_PLACE;
  }
}

int mg_inplace(const mg_call *c, int unused) {
  (void)unused;
  if (!in_place_here(c)) return mg_run(c, 0);
  switch (c->coll) {
  case MG_ALLGATHER: case MG_ALLGATHERV: case MG_ALLTOALL: case MG_ALLTOALLV: case MG_ALLTOALLW:
    return all_blocks(c);
  case MG_GATHER: case MG_GATHERV: case MG_SCATTER: case MG_SCATTERV: return root_blocks(c);
  default: return reduction(c);
  }
}

/* The reductions only (the others decide late, above): the copy's span, equal on every rank (one
 * datatype and count everywhere; reduce: the root's need, also when the call is not in place). */
size_t mg_inplace_mem(const mg_call *c) {
  int in = c->coll == MG_REDUCE || c->sbuf == MPI_IN_PLACE;
  mg_type t;
  size_t span;
  if (!in || span_of(c->rtype, reduction_count(c), &t, &span) != MPI_SUCCESS) return 0;
  return span;
}
