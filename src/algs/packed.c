/*
 * The datatype family: Träff, Gropp and Thakur, TPDS 2010, eq. (3) (no row claims eq. 4, docs/guidelines.md):
 * A(n/k, T(k)) <= Pack(n) + A(n) + Unpack(n). A collective on n bytes held in
 * a derived datatype T (k bytes of data per element, with gaps) must not be
 * slower than packing them, the same collective on n contiguous bytes and
 * unpacking: a library whose datatype engine moves non-contiguous data slower
 * than it packs it is inconsistent, and pack + call + unpack is the repair.
 * One function for every collective of the family (row <coll>_as_packed).
 *
 * The collectives without an op (bcast, gather, scatter, allgather, alltoall
 * and the irregular ones): ranks may use
 * different datatypes of one signature, so the wire format is the
 * type-independent byte stream, MPI_BYTE, as in split.c. A rank whose
 * datatype is dense (its elements are its bytes) moves its buffer as it is;
 * any other packs into scratch and unpacks the result: a local choice, the
 * messages are the same bytes. In place the data stays where the collective
 * keeps it (gather, scatter: the root's own block is neither sent nor
 * received; allgather, alltoall: the receive buffer's image is packed first
 * when it is not dense).
 *
 * The irregular collectives send and receive their blocks as bytes too: the
 * byte counts (counts x size) and the packed displacements (their prefix
 * sums) of each side, or the buffer with byte displacements (displs x
 * extent) where the type is dense and they fit an int. allgatherv: every
 * rank knows every count. gatherv, scatterv: the root, which alone holds the
 * counts, broadcasts the total n; alltoallv, alltoallw (one datatype per peer,
 * byte displacements; the call is Alltoallw with MPI_BYTE everywhere): an
 * allreduce (MAX) of each rank's largest side and scratch. Then every rank
 * asks mg_late_ok() the same (n fits an int, the scratch the cap) and runs
 * the default on a no; the agreement is part of the cost.
 *
 * Not for the reductions: MPI defines the built-in ops on predefined
 * datatypes only (Open MPI 4.1.4 and MPICH 4.0.2 both return MPI_ERR_OP for
 * a derived one, difftest), and a user-defined op is called with the call's
 * datatype, so an op on packed data would see another datatype than the
 * application gave it.
 *
 * Scratch (mg_packed_mem, the maximum over ranks whatever their datatypes,
 * as a rank does not know the others'): bcast n; gather, scatter, allgather
 * p*n + n; alltoall 2*p*n; allgatherv 2n + 4p ints + 2p handles; the
 * others those ints and handles, then what they agreed (2n; alltoallv/w the
 * largest sent + received bytes of a rank).
 *
 * Cost: the collective's on contiguous data plus two local copies of each
 * rank's data (n beta_copy each way) where a datatype is not dense.
 */
#include <limits.h>
#include <string.h>

#include "algs/algs.h"

static size_t ints_mem(const mg_call *c);

size_t mg_packed_mem(const mg_call *c) {
  switch (c->coll) {
  case MG_ALLGATHERV: return ints_mem(c) + 2 * mg_align(c->bytes); /* the vector and the own block */
  case MG_GATHERV: case MG_SCATTERV: case MG_ALLTOALLV: case MG_ALLTOALLW:
    return ints_mem(c); /* the size unknown: the rest agreed late (mg_late_ok) */
  default: return mg_split_mem(c); /* bcast, gather, scatter, allgather, alltoall: split.c's */
  }
}

/* ---- packed bytes: bcast, gather, scatter, allgather and alltoall are split.c's call in one piece
 * (mg_split(c, 1)): the same images, the same scratch ---- */

/* The byte image of `count` elements of dt at buf: buf itself when dt is dense, else `bytes`
 * carved from scratch (packed from buf only if `fill`). */
static int image(const void *buf, int count, MPI_Datatype dt, size_t bytes, int fill, char **cur, char **out) {
  mg_type t;
  int rc = mg_type_get(dt, &t);
  if (rc != MPI_SUCCESS) return rc;
  if (mg_type_is_dense(&t)) {
    *out = (char *)buf;
    return MPI_SUCCESS;
  }
  *out = mg_carve(cur, bytes);
  return fill && bytes ? mg_pack(buf, count, dt, *out, (int)bytes) : MPI_SUCCESS;
}

/* ---- the irregular collectives: packed blocks, byte counts and displacements ---- */

/* One side of an irregular call: p blocks, block i = counts[i] elements of type(i) at displs[i] (in
 * extents of the one type, or in bytes when there is one type per peer: alltoallw). */
typedef struct side {
  char *buf;
  const int *counts, *displs;
  MPI_Datatype type;
  const MPI_Datatype *types;
  int *bc, *bd;  /* the blocks on the wire: byte counts and displacements (in img) */
  char *img;     /* buf itself (direct) or the packed blocks */
  MPI_Aint ext;  /* the one type's extent (not for alltoallw) */
  size_t total;  /* bytes of data of all blocks */
  int direct;    /* dense single type, byte displacements fit an int: the buffer as it is */
} side;

/* Byte counts, packed displacements and the total of s; direct when s's type is dense and its
 * byte displacements fit an int (then bd are those). */
static int side_layout(side *s, int p) {
  mg_type t;
  int rc = MPI_SUCCESS;
  s->total = 0;
  s->direct = !s->types;
  if (!s->types) {
    if ((rc = mg_type_get(s->type, &t)) != MPI_SUCCESS) return rc;
    s->direct = mg_type_is_dense(&t);
    s->ext = t.extent;
  }
  for (int i = 0; i < p; i++) {
    MPI_Datatype ty = s->types ? s->types[i] : s->type;
    if (s->types && (rc = mg_type_get(ty, &t)) != MPI_SUCCESS) return rc;
    size_t b = (size_t)s->counts[i] * (size_t)t.size;
    s->bc[i] = b > (size_t)INT_MAX ? INT_MAX : (int)b;
    s->bd[i] = s->total > (size_t)INT_MAX ? INT_MAX : (int)s->total;
    s->total += b;
    if (s->direct && s->counts[i] > 0) {
      MPI_Aint at = (MPI_Aint)s->displs[i] * t.extent;
      if (at < 0 || at > INT_MAX) s->direct = 0;
    }
  }
  if (s->direct)
    for (int i = 0; i < p; i++) s->bd[i] = s->counts[i] > 0 ? (int)((MPI_Aint)s->displs[i] * t.extent) : 0;
  return MPI_SUCCESS;
}

static char *side_at(const side *s, int i) {
  return s->buf + (s->types ? (MPI_Aint)s->displs[i] : (MPI_Aint)s->displs[i] * s->ext);
}

/* Pack (dir 1) or unpack (dir 0) every block of s but `skip` between buf and the image. */
static int side_copy(const side *s, int p, int dir, int skip) {
  int rc = MPI_SUCCESS;
  for (int i = 0; i < p && rc == MPI_SUCCESS; i++) {
    if (i == skip || s->bc[i] == 0) continue;
    MPI_Datatype ty = s->types ? s->types[i] : s->type;
    rc = dir ? mg_pack(side_at(s, i), s->counts[i], ty, s->img + s->bd[i], s->bc[i])
             : mg_unpack(s->img + s->bd[i], s->bc[i], side_at(s, i), s->counts[i], ty);
  }
  return rc;
}

/* The ints of the sides (4p) and alltoallw's byte types (2p handles), from scratch. */
static size_t ints_mem(const mg_call *c) {
  return mg_align(4 * (size_t)c->size * sizeof(int)) + mg_align(2 * (size_t)c->size * sizeof(MPI_Datatype));
}

/* The own block of a gather-type call as bytes: `buf` itself (dense) or packed at *cur. */
static int own_block(const void *buf, int count, MPI_Datatype dt, char **cur, char **out, size_t *bytes) {
  mg_type t;
  int rc = mg_type_get(dt, &t);
  if (rc != MPI_SUCCESS) return rc;
  *bytes = (size_t)count * (size_t)t.size;
  return image(buf, count, dt, *bytes, 1, cur, out);
}

static int packed_allgatherv(const mg_call *c) {
  int p = c->size, me = c->rank, in = c->sbuf == MPI_IN_PLACE, rc;
  char *cur, *own = NULL, *ints = mg_scratch_split(ints_mem(c), mg_packed_mem(c) - ints_mem(c), &cur);
  side r = {c->rbuf, c->rcounts, c->rdispls, c->rtype, NULL, NULL, NULL, NULL, 0, 0, 0};
  r.bc = (int *)ints, r.bd = r.bc + p;
  if ((rc = side_layout(&r, p)) != MPI_SUCCESS) return rc;
  r.img = r.direct ? r.buf : mg_carve(&cur, r.total);
  size_t b = 0;
  if (in && !r.direct && r.bc[me]) /* the own block, packed into its slot */
    rc = mg_pack(side_at(&r, me), r.counts[me], r.type, r.img + r.bd[me], r.bc[me]);
  if (!in && rc == MPI_SUCCESS) rc = own_block(c->sbuf, c->scount, c->stype, &cur, &own, &b);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Allgatherv(in ? MPI_IN_PLACE : own, (int)b, MPI_BYTE, r.img, r.bc, r.bd, MPI_BYTE, c->comm);
  return rc != MPI_SUCCESS || r.direct ? rc : side_copy(&r, p, 0, in ? me : -1);
}

/* gatherv, scatterv: the root's vector of blocks is known at the root only. It broadcasts the
 * total (unsigned long long), so that every rank asks mg_late_ok() the same: the total fits an
 * int, and the scratch (2 n + the ints) is within the cap; else every rank runs the default. */
static int root_total(const mg_call *c, side *v, char **cur) {
  unsigned long long total = 0;
  int rc = MPI_SUCCESS;
  if (c->rank == c->root) {
    v->bc = mg_carve(cur, 2 * (size_t)c->size * sizeof(int)), v->bd = v->bc + c->size;
    if ((rc = side_layout(v, c->size)) != MPI_SUCCESS) return rc;
    total = v->total;
  }
  if ((rc = PMPI_Bcast(&total, 1, MPI_UNSIGNED_LONG_LONG, c->root, c->comm)) != MPI_SUCCESS) return rc;
  v->total = (size_t)total;
  return MPI_SUCCESS;
}

static size_t late_mem(const mg_call *c, size_t n) { return ints_mem(c) + 2 * mg_align(n); }

/* After the agreement: the scratch of `bytes` (it may have moved, so the root lays its side out
 * again), *cur past the ints. */
static int relayout(const mg_call *c, side *v, size_t bytes, char **cur) {
  char *base = mg_scratch_split(ints_mem(c), bytes - ints_mem(c), cur);
  if (c->rank != c->root) return MPI_SUCCESS;
  v->bc = (int *)base, v->bd = v->bc + c->size;
  return side_layout(v, c->size);
}

static int packed_gatherv(const mg_call *c) {
  int root = c->rank == c->root, in = root && c->sbuf == MPI_IN_PLACE, rc;
  char *cur = mg_scratch(ints_mem(c)), *own = NULL;
  side v = {c->rbuf, c->rcounts, c->rdispls, c->rtype, NULL, NULL, NULL, NULL, 0, 0, 0};
  if ((rc = root_total(c, &v, &cur)) != MPI_SUCCESS) return rc;
  if (!mg_late_ok(v.total <= (size_t)INT_MAX, late_mem(c, v.total))) return mg_run(c, 0);
  if ((rc = relayout(c, &v, late_mem(c, v.total), &cur)) != MPI_SUCCESS) return rc;
  size_t b = 0;
  if (!in && (rc = own_block(c->sbuf, c->scount, c->stype, &cur, &own, &b)) != MPI_SUCCESS) return rc;
  if (!root) return PMPI_Gatherv(own, (int)b, MPI_BYTE, NULL, NULL, NULL, MPI_BYTE, c->root, c->comm);
  v.img = v.direct ? v.buf : mg_carve(&cur, v.total);
  rc = PMPI_Gatherv(in ? MPI_IN_PLACE : own, (int)b, MPI_BYTE, v.img, v.bc, v.bd, MPI_BYTE, c->root, c->comm);
  return rc != MPI_SUCCESS || v.direct ? rc : side_copy(&v, c->size, 0, in ? c->rank : -1);
}

static int packed_scatterv(const mg_call *c) {
  int root = c->rank == c->root, in = root && c->rbuf == MPI_IN_PLACE, rc;
  char *cur = mg_scratch(ints_mem(c)), *own = NULL;
  side v = {(char *)c->sbuf, c->scounts, c->sdispls, c->stype, NULL, NULL, NULL, NULL, 0, 0, 0};
  if ((rc = root_total(c, &v, &cur)) != MPI_SUCCESS) return rc;
  if (!mg_late_ok(v.total <= (size_t)INT_MAX, late_mem(c, v.total))) return mg_run(c, 0);
  if ((rc = relayout(c, &v, late_mem(c, v.total), &cur)) != MPI_SUCCESS) return rc;
  size_t b = 0;
  if (!in) { /* the own block's image, filled by the call */
    mg_type t;
    if ((rc = mg_type_get(c->rtype, &t)) != MPI_SUCCESS) return rc;
    b = (size_t)c->rcount * (size_t)t.size;
    if ((rc = image(c->rbuf, c->rcount, c->rtype, b, 0, &cur, &own)) != MPI_SUCCESS) return rc;
  }
  if (root) {
    v.img = v.direct ? v.buf : mg_carve(&cur, v.total);
    if (!v.direct && (rc = side_copy(&v, c->size, 1, in ? c->rank : -1)) != MPI_SUCCESS) return rc;
    rc = PMPI_Scatterv(v.img, v.bc, v.bd, MPI_BYTE, in ? MPI_IN_PLACE : own, (int)b, MPI_BYTE, c->root, c->comm);
  } else {
    rc = PMPI_Scatterv(NULL, NULL, NULL, MPI_BYTE, own, (int)b, MPI_BYTE, c->root, c->comm);
  }
  return rc != MPI_SUCCESS || in || own == c->rbuf ? rc : mg_unpack(own, (int)b, c->rbuf, c->rcount, c->rtype);
}

/* alltoallv, alltoallw: each rank knows its own sides only. An allreduce (MAX) of its largest side
 * and of its scratch makes both known on every rank before mg_late_ok(). In place the blocks to
 * send are the receive side's. */
/* Scratch of `total` bytes: the ints of both sides and the byte types carved, both sides laid out
 * (again after the agreement: the scratch may have moved); *cur past them. */
static int vw_layout(const mg_call *c, side *r, side *s, MPI_Datatype **bytetypes, size_t total, char **cur) {
  int p = c->size, rc;
  char *base = mg_scratch_split(ints_mem(c), total - ints_mem(c), cur);
  r->bc = (int *)base, r->bd = r->bc + p, s->bc = r->bc + 2 * p, s->bd = r->bc + 3 * p;
  *bytetypes = (MPI_Datatype *)(base + mg_align(4 * (size_t)p * sizeof(int)));
  if ((rc = side_layout(r, p)) != MPI_SUCCESS) return rc;
  return c->sbuf == MPI_IN_PLACE ? MPI_SUCCESS : side_layout(s, p);
}

static int packed_alltoall_vw(const mg_call *c) {
  int p = c->size, in = c->sbuf == MPI_IN_PLACE, w = c->coll == MG_ALLTOALLW, rc;
  char *cur;
  side r = {c->rbuf, c->rcounts, c->rdispls, c->rtype, w ? c->rtypes : NULL, NULL, NULL, NULL, 0, 0, 0};
  side s = {(char *)c->sbuf, c->scounts, c->sdispls, c->stype, w ? c->stypes : NULL, NULL, NULL, NULL, 0, 0, 0};
  MPI_Datatype *bytetypes; /* alltoallw's: MPI_BYTE for every peer and side */
  if ((rc = vw_layout(c, &r, &s, &bytetypes, ints_mem(c), &cur)) != MPI_SUCCESS) return rc;
  unsigned long long agree[2] = {r.total > s.total ? r.total : s.total,
                                 (r.direct ? 0 : mg_align(r.total)) + (in || s.direct ? 0 : mg_align(s.total))};
  if ((rc = PMPI_Allreduce(MPI_IN_PLACE, agree, 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, c->comm)) != MPI_SUCCESS)
    return rc;
  if (!mg_late_ok(agree[0] <= (unsigned long long)INT_MAX, ints_mem(c) + (size_t)agree[1])) return mg_run(c, 0);
  if ((rc = vw_layout(c, &r, &s, &bytetypes, ints_mem(c) + (size_t)agree[1], &cur)) != MPI_SUCCESS) return rc;
  r.img = r.direct ? r.buf : mg_carve(&cur, r.total);
  if (!in) s.img = s.direct ? s.buf : mg_carve(&cur, s.total);
  if (in && !r.direct) rc = side_copy(&r, p, 1, -1); /* the blocks to send, from the receive side */
  if (!in && !s.direct) rc = side_copy(&s, p, 1, -1);
  if (rc != MPI_SUCCESS) return rc;
  const void *sp = in ? MPI_IN_PLACE : s.img;
  if (w) {
    for (int i = 0; i < 2 * p; i++) bytetypes[i] = MPI_BYTE;
    rc = PMPI_Alltoallw(sp, in ? r.bc : s.bc, in ? r.bd : s.bd, bytetypes, r.img, r.bc, r.bd, bytetypes + p,
                        c->comm);
  } else {
    rc = PMPI_Alltoallv(sp, in ? r.bc : s.bc, in ? r.bd : s.bd, MPI_BYTE, r.img, r.bc, r.bd, MPI_BYTE, c->comm);
  }
  return rc != MPI_SUCCESS || r.direct ? rc : side_copy(&r, p, 0, -1);
}

int mg_packed(const mg_call *c, int unused) {
  (void)unused;
  switch (c->coll) {
  case MG_ALLGATHERV: return packed_allgatherv(c);
  case MG_GATHERV: return packed_gatherv(c);
  case MG_SCATTERV: return packed_scatterv(c);
  case MG_ALLTOALLV: case MG_ALLTOALLW: return packed_alltoall_vw(c);
  default: return mg_split(c, 1); /* bcast and the block collectives: one piece, the whole image */
  }
}
