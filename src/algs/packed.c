/*
 * The datatype family: Träff, Gropp and Thakur, TPDS 2010, eqs. (3) and (4):
 * A(n/k, T(k)) <= Pack(n) + A(n) + Unpack(n). A collective on n bytes held in
 * a derived datatype T (k bytes of data per element, with gaps) must not be
 * slower than packing them, the same collective on n contiguous bytes and
 * unpacking: a library whose datatype engine moves non-contiguous data slower
 * than it packs it is inconsistent, and pack + call + unpack is the repair.
 * One function for every collective of the family (row <coll>_as_packed).
 *
 * Non-reductions (bcast, gather, scatter, allgather, alltoall): ranks may use
 * different datatypes of one signature, so the wire format is the
 * type-independent byte stream, MPI_BYTE, as in split.c. A rank whose
 * datatype is dense (its elements are its bytes) moves its buffer as it is;
 * any other packs into scratch and unpacks the result: a local choice, the
 * messages are the same bytes. In place the data stays where the collective
 * keeps it (gather, scatter: the root's own block is neither sent nor
 * received; allgather, alltoall: the receive buffer's image is packed first
 * when it is not dense).
 *
 * Not for the reductions: MPI defines the built-in ops on predefined
 * datatypes only (Open MPI 4.1.4 and MPICH 4.0.2 both return MPI_ERR_OP for
 * a derived one, difftest), and a user-defined op is called with the call's
 * datatype, so an op on packed data would see another datatype than the
 * application gave it.
 *
 * Scratch (mg_packed_mem, the maximum over ranks whatever their datatypes,
 * as a rank does not know the others'): bcast n; gather, scatter, allgather
 * p*n + n; alltoall 2*p*n.
 *
 * Cost: the collective's on contiguous data plus two local copies of each
 * rank's data (n beta_copy each way) where a datatype is not dense.
 */
#include <string.h>

#include "algs/algs.h"

size_t mg_packed_mem(const mg_call *c) {
  size_t b = c->bytes, p = (size_t)c->size;
  switch (c->coll) {
  case MG_BCAST: return b;
  case MG_ALLTOALL: return 2 * mg_align(p * b);
  default: return mg_align(p * b) + mg_align(b); /* gather, scatter, allgather */
  }
}

/* ---- packed bytes ---- */

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

static int packed_bytes(const mg_call *c) {
  int p = c->size, me = c->rank, root = c->rank == c->root, in = 0, rc = MPI_SUCCESS;
  size_t b = c->bytes, pb = (size_t)p * b;
  char *cur = mg_scratch(mg_packed_mem(c)), *s = NULL, *r = NULL;
  mg_type rt;
  int nb = (int)b;
  switch (c->coll) {
  case MG_BCAST:
    if ((rc = image(c->rbuf, c->rcount, c->rtype, b, root, &cur, &r)) != MPI_SUCCESS) return rc;
    if ((rc = PMPI_Bcast(r, nb, MPI_BYTE, c->root, c->comm)) != MPI_SUCCESS) return rc;
    return root || r == c->rbuf ? MPI_SUCCESS : mg_unpack(r, nb, c->rbuf, c->rcount, c->rtype);
  case MG_GATHER:
    in = root && c->sbuf == MPI_IN_PLACE;
    if (!in) rc = image(c->sbuf, c->scount, c->stype, b, 1, &cur, &s);
    if (rc == MPI_SUCCESS && root) rc = image(c->rbuf, p * c->rcount, c->rtype, pb, 0, &cur, &r);
    if (rc != MPI_SUCCESS) return rc;
    rc = root ? PMPI_Gather(in ? MPI_IN_PLACE : s, nb, MPI_BYTE, r, nb, MPI_BYTE, c->root, c->comm)
              : PMPI_Gather(s, nb, MPI_BYTE, NULL, 0, MPI_BYTE, c->root, c->comm);
    if (rc != MPI_SUCCESS || !root || r == c->rbuf) return rc;
    if (!in) return mg_unpack(r, (int)pb, c->rbuf, p * c->rcount, c->rtype);
    if ((rc = mg_type_get(c->rtype, &rt)) != MPI_SUCCESS) return rc;
    for (int i = 0; i < p && rc == MPI_SUCCESS; i++) /* every block but the in-place root's own */
      if (i != me)
        rc = mg_unpack(r + (size_t)i * b, nb, mg_type_at(c->rbuf, &rt, (size_t)i * (size_t)c->rcount), c->rcount,
                       c->rtype);
    return rc;
  case MG_SCATTER:
    in = root && c->rbuf == MPI_IN_PLACE;
    if (root) rc = image(c->sbuf, p * c->scount, c->stype, pb, 1, &cur, &s);
    if (rc == MPI_SUCCESS && !in) rc = image(c->rbuf, c->rcount, c->rtype, b, 0, &cur, &r);
    if (rc != MPI_SUCCESS) return rc;
    rc = root ? PMPI_Scatter(s, nb, MPI_BYTE, in ? MPI_IN_PLACE : r, nb, MPI_BYTE, c->root, c->comm)
              : PMPI_Scatter(NULL, 0, MPI_BYTE, r, nb, MPI_BYTE, c->root, c->comm);
    if (rc != MPI_SUCCESS || in || r == c->rbuf) return rc;
    return mg_unpack(r, nb, c->rbuf, c->rcount, c->rtype);
  case MG_ALLGATHER:
    in = c->sbuf == MPI_IN_PLACE;
    if (!in) rc = image(c->sbuf, c->scount, c->stype, b, 1, &cur, &s);
    if (rc == MPI_SUCCESS) rc = image(c->rbuf, p * c->rcount, c->rtype, pb, 0, &cur, &r);
    if (rc == MPI_SUCCESS && in && r != c->rbuf) { /* the own block, packed into its slot */
      if ((rc = mg_type_get(c->rtype, &rt)) == MPI_SUCCESS)
        rc = mg_pack(mg_type_at(c->rbuf, &rt, (size_t)me * (size_t)c->rcount), c->rcount, c->rtype,
                     r + (size_t)me * b, nb);
    }
    if (rc != MPI_SUCCESS) return rc;
    rc = PMPI_Allgather(in ? MPI_IN_PLACE : s, nb, MPI_BYTE, r, nb, MPI_BYTE, c->comm);
    break;
  default: /* alltoall; in place the blocks to send are in the receive buffer */
    in = c->sbuf == MPI_IN_PLACE;
    if (!in) rc = image(c->sbuf, p * c->scount, c->stype, pb, 1, &cur, &s);
    if (rc == MPI_SUCCESS) rc = image(c->rbuf, p * c->rcount, c->rtype, pb, in, &cur, &r);
    if (rc != MPI_SUCCESS) return rc;
    rc = PMPI_Alltoall(in ? MPI_IN_PLACE : s, nb, MPI_BYTE, r, nb, MPI_BYTE, c->comm);
    break;
  }
  if (rc != MPI_SUCCESS || r == c->rbuf) return rc;
  return mg_unpack(r, (int)pb, c->rbuf, p * c->rcount, c->rtype);
}

int mg_packed(const mg_call *c, int unused) {
  (void)unused;
  return packed_bytes(c);
}
