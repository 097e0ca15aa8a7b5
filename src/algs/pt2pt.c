/*
 * The point-to-point operations (registry.h, MG_P2P_OPS): their defaults (row 0, the MPI
 * library's own call through PMPI with the caller's arguments) and the guidelines of TGT 2010
 * §IV as mock-ups, each a replacement of the caller's side only: a receive matches a send of any
 * mode, so the peer needs to know nothing of it.
 *
 * Errors pass through: the first error of the inner calls is returned, after every request
 * started is completed (a mock-up leaves no request behind, even when a receive fails).
 */
#include "algs/algs.h"

int mg_send_default(const mg_call *c) {
  return PMPI_Send(c->sbuf, c->scount, c->stype, c->root, c->stag, c->comm);
}
int mg_ssend_default(const mg_call *c) {
  return PMPI_Ssend(c->sbuf, c->scount, c->stype, c->root, c->stag, c->comm);
}
int mg_rsend_default(const mg_call *c) {
  return PMPI_Rsend(c->sbuf, c->scount, c->stype, c->root, c->stag, c->comm);
}
int mg_isend_default(const mg_call *c) {
  return PMPI_Isend(c->sbuf, c->scount, c->stype, c->root, c->stag, c->comm, c->req);
}
int mg_recv_default(const mg_call *c) {
  return PMPI_Recv(c->rbuf, c->rcount, c->rtype, c->src, c->rtag, c->comm, c->status);
}
int mg_irecv_default(const mg_call *c) {
  return PMPI_Irecv(c->rbuf, c->rcount, c->rtype, c->src, c->rtag, c->comm, c->req);
}
int mg_sendrecv_default(const mg_call *c) {
  return PMPI_Sendrecv(c->sbuf, c->scount, c->stype, c->root, c->stag, c->rbuf, c->rcount, c->rtype, c->src,
                       c->rtag, c->comm, c->status);
}
int mg_sendrecv_replace_default(const mg_call *c) {
  return PMPI_Sendrecv_replace(c->rbuf, c->scount, c->stype, c->root, c->stag, c->src, c->rtag, c->comm,
                               c->status);
}

/* TGT 2010 eq. (6): Send(n) <= Isend(n) + Wait. */
int mg_send_as_isend_wait(const mg_call *c) {
  MPI_Request r;
  int rc = PMPI_Isend(c->sbuf, c->scount, c->stype, c->root, c->stag, c->comm, &r);
  return rc != MPI_SUCCESS ? rc : PMPI_Wait(&r, MPI_STATUS_IGNORE);
}

/* Eq. (8): Send(n) <= Ssend(n). Measure only (MG_R_MEASURE_ONLY): a synchronous send completes
 * only once its receive has started, which a program that relies on buffering does not give. */
int mg_send_as_ssend(const mg_call *c) {
  return PMPI_Ssend(c->sbuf, c->scount, c->stype, c->root, c->stag, c->comm);
}

/* Eq. (9): Rsend(n) <= Send(n): the receive of a correct ready send is posted already, and a
 * standard send matches it as well. */
int mg_rsend_as_send(const mg_call *c) {
  return PMPI_Send(c->sbuf, c->scount, c->stype, c->root, c->stag, c->comm);
}

/* Eq. (10): Sendrecv <= Isend + Recv + Wait. The send is under way before the receive blocks, so
 * two processes that exchange this way cannot wait for each other, as with MPI_Sendrecv. */
int mg_sendrecv_as_isend_recv_wait(const mg_call *c) {
  MPI_Request r;
  int rc = PMPI_Isend(c->sbuf, c->scount, c->stype, c->root, c->stag, c->comm, &r);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Recv(c->rbuf, c->rcount, c->rtype, c->src, c->rtag, c->comm, c->status);
  int rc2 = PMPI_Wait(&r, MPI_STATUS_IGNORE);
  return rc != MPI_SUCCESS ? rc : rc2;
}

/* Eq. (11): Sendrecv <= Irecv + Send + Wait: the receive is posted before the send blocks. */
int mg_sendrecv_as_irecv_send_wait(const mg_call *c) {
  MPI_Request r;
  int rc = PMPI_Irecv(c->rbuf, c->rcount, c->rtype, c->src, c->rtag, c->comm, &r);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Send(c->sbuf, c->scount, c->stype, c->root, c->stag, c->comm);
  if (rc != MPI_SUCCESS) { /* complete the receive anyway: cancel it, as no message may come */
    PMPI_Cancel(&r);
    PMPI_Wait(&r, MPI_STATUS_IGNORE);
    return rc;
  }
  return PMPI_Wait(&r, c->status);
}

/*
 * Split-robustness for a message (TGT 2010 eq. 1, its Fig. 1): the message as k messages of
 * consecutive runs of elements, [count j / k, count (j+1) / k), empty runs skipped, one tag: MPI
 * keeps the messages of one sender, communicator and tag in order. The receiver must receive the
 * same k runs (mg_p2p_split_recv, with the same count: in the benchmark's patterns both ends use
 * one datatype), so the rows are measure-only.
 */
static int piece(int count, int k, int j, int *first) {
  long lo = (long)count * j / k, hi = (long)count * (j + 1) / k;
  *first = (int)lo;
  return (int)(hi - lo);
}

int mg_p2p_split(const mg_call *c, int k) {
  MPI_Aint lb, extent;
  int rc = PMPI_Type_get_extent(c->stype, &lb, &extent);
  for (int j = 0; rc == MPI_SUCCESS && j < k; j++) {
    int first, n = piece(c->scount, k, j, &first);
    if (n > 0)
      rc = PMPI_Send((const char *)c->sbuf + (MPI_Aint)first * extent, n, c->stype, c->root, c->stag, c->comm);
  }
  return rc;
}

int mg_p2p_split_recv(const mg_call *c, int k) {
  MPI_Aint lb, extent;
  int rc = PMPI_Type_get_extent(c->rtype, &lb, &extent);
  for (int j = 0; rc == MPI_SUCCESS && j < k; j++) {
    int first, n = piece(c->rcount, k, j, &first);
    if (n > 0)
      rc = PMPI_Recv((char *)c->rbuf + (MPI_Aint)first * extent, n, c->rtype, c->src, c->rtag, c->comm,
                     c->status);
  }
  return rc;
}
