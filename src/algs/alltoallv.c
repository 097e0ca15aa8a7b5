/*
 * Mock-ups of MPI_Alltoallv: rank i sends sendcounts[j] elements of its
 * sendtype at sdispls[j] (in extents of sendtype) to rank j, which stores
 * them as recvcounts[i] elements of its recvtype at rdispls[i]. Each rank
 * knows only its own counts, so no rank knows the message size
 * (mg_coll_info.known = 0): a mock-up that needs a size makes it known first,
 * as part of its cost, and then decides with mg_late_ok(); a no there is a no
 * on every rank, which then runs the default. Displacements may be out of
 * order or negative and leave gaps, which are never written; any count may be
 * 0. With MPI_IN_PLACE (all ranks or none) the data to send is taken from
 * the receive buffer, with the receive counts, displacements and type, and
 * the send arguments are not significant.
 *
 * TGT-A1 alltoallv_as_alltoallw  Alltoallv(n) <= Alltoallw(n)
 *   Alltoallw with the same type for every peer and the displacements
 *   converted to bytes (displacement x extent). A byte displacement that
 *   does not fit alltoallw's int gets a type of its own for that peer (an
 *   hindexed type of one block of the count at the MPI_Aint displacement,
 *   sent as one element at displacement 0), made and freed per call. Each
 *   rank decides that alone, for its own arguments: the messages and the
 *   collective called are the same either way. In place the blocks are sent
 *   from a copy of the receive buffer's span (MPICH 4.0.2's in-place
 *   alltoallw fails and corrupts its heap for struct blocks above 8 KiB):
 *   an allreduce (MAX) of the span makes the copy's size known on every
 *   rank, then mg_late_ok(scratch). With one process the displacements
 *   go into the buffer addresses and alltoallw gets 0: Open MPI 4.1's
 *   coll/self (every communicator of size 1) multiplies alltoallw's byte
 *   displacements by the extent, as if they were alltoallv's. Scratch 4p
 *   ints + 2p datatype handles (+ the largest span in place); no agreement
 *   unless in place. Cost: the library's
 *   alltoallw, often a linear exchange, (p-1) alpha + max(sent, received)
 *   beta, the same as a linear alltoallv; an alltoallv tuned beyond that
 *   (pairwise, Bruck for small blocks) is what this guideline checks.
 * TGT-A2 alltoallv_as_allreduce_alltoall
 *     Alltoallv(n) <= Allreduce(max) + Alltoall(p*max)
 *   Agreement: an allreduce (MAX) of each rank's largest block in bytes,
 *   over both sides (in place: the receive side), gives m; every rank asks
 *   mg_late_ok(p*m <= INT_MAX, 2 p m); m = 0 moves nothing. Every send block
 *   is packed into a slot of m bytes (the rest of the slot zeroed), an
 *   alltoall of m bytes per pair on MPI_BYTE, then received slot j is
 *   unpacked (recvcounts[j] elements) at rdispls[j]. In place every block is
 *   packed from the receive buffer before the alltoall writes anything.
 *   Scratch 2 p m bytes. Cost: the allreduce of one long long, about
 *   2 log p alpha, plus an alltoall of p m bytes per rank, (p-1) alpha +
 *   (p-1) m beta pairwise or log p alpha + (p/2) log p m beta with Bruck,
 *   against (p-1) alpha + max(sent, received) beta for a linear alltoallv:
 *   as good for equal blocks, up to p times the volume when one block holds
 *   everything.
 *
 * TGT-A1 passes the caller's types (ranks may use different datatypes of
 * equal signature, as in the alltoallv); TGT-A2's blocks travel packed as
 * MPI_BYTE, only ever read through mg_unpack.
 */
#include <limits.h>
#include <string.h>

#include "algs/algs.h"

size_t mg_alltoallv_as_alltoallw_mem(const mg_call *c) {
  return mg_align(4 * (size_t)c->size * sizeof(int)) + mg_align(2 * (size_t)c->size * sizeof(MPI_Datatype));
}

/* One side of the alltoallw: counts, byte displacements and types for p peers from an alltoallv
 * side (counts, displs in extents of dt). A peer whose byte displacement does not fit an int
 * gets a committed type of its own (wtypes[i] != dt), which the caller frees with w_free, also
 * after an error. */
static int w_side(int p, const int *counts, const int *displs, MPI_Datatype dt, MPI_Aint extent, int *wcounts,
                  int *wdispls, MPI_Datatype *wtypes) {
  for (int i = 0; i < p; i++) wtypes[i] = dt;
  for (int i = 0; i < p; i++) {
    MPI_Aint d = (MPI_Aint)displs[i] * extent;
    int fits = d >= INT_MIN && d <= INT_MAX;
    wcounts[i] = counts[i];
    wdispls[i] = counts[i] && fits ? (int)d : 0;
    if (counts[i] == 0 || fits) continue;
    MPI_Datatype t;
    int rc = PMPI_Type_create_hindexed(1, &counts[i], &d, dt, &t);
    if (rc != MPI_SUCCESS) return rc;
    rc = PMPI_Type_commit(&t);
    if (rc != MPI_SUCCESS) {
      PMPI_Type_free(&t);
      return rc;
    }
    wtypes[i] = t;
    wcounts[i] = 1;
  }
  return MPI_SUCCESS;
}

static int w_free(int p, MPI_Datatype dt, MPI_Datatype *wtypes) {
  int rc = MPI_SUCCESS;
  for (int i = 0; i < p; i++)
    if (wtypes[i] != dt) {
      int rc2 = PMPI_Type_free(&wtypes[i]);
      if (rc == MPI_SUCCESS) rc = rc2;
    }
  return rc;
}

/* The bytes the blocks of one side occupy, [*lo, *hi) relative to the buffer: counts[i] elements of
 * t at displs[i] (in extents), gaps included; *lo = *hi = 0 when every count is 0. */
static void side_span(int p, const int *counts, const int *displs, const mg_type *t, MPI_Aint *lo, MPI_Aint *hi) {
  int any = 0;
  *lo = *hi = 0;
  for (int i = 0; i < p; i++) {
    if (counts[i] == 0) continue;
    MPI_Aint a = (MPI_Aint)displs[i] * t->extent + t->true_lb;
    MPI_Aint b = a + (MPI_Aint)mg_type_span(t, (size_t)counts[i]);
    if (!any || a < *lo) *lo = a;
    if (!any || b > *hi) *hi = b;
    any = 1;
  }
}

int mg_alltoallv_as_alltoallw(const mg_call *c) {
  int p = c->size, inplace = c->sbuf == MPI_IN_PLACE, rc, rc2;
  mg_type rt, st;
  rc = mg_type_get(c->rtype, &rt);
  if (rc == MPI_SUCCESS && !inplace) rc = mg_type_get(c->stype, &st);
  if (rc != MPI_SUCCESS) return rc;
  /* In place: send from a copy of the receive buffer's blocks (MPICH 4.0.2's in-place
   * MPI_Alltoallw fails and corrupts its heap with struct blocks above 8 KiB; difftest). The
   * copy's size is each rank's own, so the ranks agree on the largest before the scratch cap. */
  MPI_Aint lo = 0, hi = 0;
  unsigned long long copy = 0;
  if (inplace) {
    side_span(p, c->rcounts, c->rdispls, &rt, &lo, &hi);
    copy = (unsigned long long)(hi - lo);
    rc = PMPI_Allreduce(MPI_IN_PLACE, &copy, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, c->comm);
    if (rc != MPI_SUCCESS) return rc;
    if (!mg_late_ok(1, mg_alltoallv_as_alltoallw_mem(c) + mg_align((size_t)copy))) return mg_run(c, 0);
  }
  char *dc, *cur = mg_scratch_split(mg_alltoallv_as_alltoallw_mem(c), mg_align((size_t)copy), &dc);
  int *rcounts = mg_carve(&cur, 4 * (size_t)p * sizeof(int)), *rdispls = rcounts + p;
  int *scounts = rdispls + p, *sdispls = scounts + p;
  MPI_Datatype *rtypes = mg_carve(&cur, 2 * (size_t)p * sizeof(MPI_Datatype)), *stypes = rtypes + p;
  const char *sbuf = c->sbuf;
  const int *sc = c->scounts, *sd = c->sdispls;
  MPI_Datatype sdt = c->stype;
  if (inplace) { /* the copy, addressed like the receive buffer */
    memcpy(dc, (const char *)c->rbuf + lo, (size_t)(hi - lo));
    sbuf = dc - lo, sc = c->rcounts, sd = c->rdispls, sdt = c->rtype, st = rt;
  }
  rc = w_side(p, c->rcounts, c->rdispls, c->rtype, rt.extent, rcounts, rdispls, rtypes);
  if (rc != MPI_SUCCESS) {
    w_free(p, c->rtype, rtypes);
    return rc;
  }
  for (int i = 0; i < p; i++) stypes[i] = sdt; /* w_free below frees only what w_side made */
  rc = w_side(p, sc, sd, sdt, st.extent, scounts, sdispls, stypes);
  char *rbuf = c->rbuf;
  if (p == 1) { /* Open MPI's coll/self scales alltoallw's byte displacements by the extent */
    sbuf += sdispls[0], rbuf += rdispls[0];
    sdispls[0] = rdispls[0] = 0;
  }
  if (rc == MPI_SUCCESS)
    rc = PMPI_Alltoallw(sbuf, scounts, sdispls, stypes, rbuf, rcounts, rdispls, rtypes, c->comm);
  rc2 = w_free(p, sdt, stypes);
  if (rc == MPI_SUCCESS) rc = rc2;
  rc2 = w_free(p, c->rtype, rtypes);
  return rc != MPI_SUCCESS ? rc : rc2;
}

/* Block i of one side of the call: count elements of type t at displs[i]. */
static const char *at(const void *buf, const mg_type *t, const int *displs, int i) {
  return (const char *)buf + (MPI_Aint)displs[i] * t->extent;
}

int mg_alltoallv_as_allreduce_alltoall(const mg_call *c) {
  int p = c->size, inplace = c->sbuf == MPI_IN_PLACE, rc;
  mg_type rt, st;
  rc = mg_type_get(c->rtype, &rt);
  if (rc == MPI_SUCCESS && !inplace) rc = mg_type_get(c->stype, &st);
  if (rc != MPI_SUCCESS) return rc;
  /* the send side: in place the receive side */
  const void *sbuf = inplace ? c->rbuf : c->sbuf;
  const int *scounts = inplace ? c->rcounts : c->scounts, *sdispls = inplace ? c->rdispls : c->sdispls;
  MPI_Datatype stype = inplace ? c->rtype : c->stype;
  if (inplace) st = rt;
  unsigned long long m = 0;
  for (int i = 0; i < p; i++) {
    unsigned long long s = (unsigned long long)scounts[i] * (unsigned long long)st.size;
    unsigned long long r = (unsigned long long)c->rcounts[i] * (unsigned long long)rt.size;
    if (s > m) m = s;
    if (r > m) m = r;
  }
  rc = PMPI_Allreduce(MPI_IN_PLACE, &m, 1, MPI_UNSIGNED_LONG_LONG, MPI_MAX, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  int fits = m <= (unsigned long long)INT_MAX / (unsigned long long)p;
  size_t pm = fits ? (size_t)p * (size_t)m : 0;
  if (!mg_late_ok(fits, mg_align(pm) + pm)) return mg_run(c, 0);
  if (m == 0) return MPI_SUCCESS;
  char *cur = mg_scratch_data(mg_align(pm) + pm), *s = mg_carve(&cur, pm), *r = mg_carve(&cur, pm);
  for (int i = 0; i < p; i++) {
    size_t nb = (size_t)scounts[i] * (size_t)st.size;
    char *slot = s + (size_t)i * m;
    if (nb) {
      rc = mg_pack(at(sbuf, &st, sdispls, i), scounts[i], stype, slot, (int)nb);
      if (rc != MPI_SUCCESS) return rc;
    }
    memset(slot + nb, 0, m - nb);
  }
  rc = PMPI_Alltoall(s, (int)m, MPI_BYTE, r, (int)m, MPI_BYTE, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  for (int j = 0; j < p; j++) {
    size_t nb = (size_t)c->rcounts[j] * (size_t)rt.size;
    if (nb == 0) continue;
    rc = mg_unpack(r + (size_t)j * m, (int)nb, (char *)c->rbuf + (MPI_Aint)c->rdispls[j] * rt.extent,
                   c->rcounts[j], c->rtype);
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}
