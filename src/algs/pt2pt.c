/*
 * The point-to-point operations (registry.h, MG_P2P_OPS): their defaults (row 0, the MPI
 * library's own call through PMPI with the caller's arguments) and the guidelines of TGT 2010
 * §IV as mock-ups, each a replacement of the caller's side only: a receive matches a send of any
 * mode, so the peer needs to know nothing of it.
 *
 * Errors pass through: the first error of the inner calls is returned, after every request
 * started is completed (a mock-up leaves no request behind, even when a receive fails).
 */
#include <stdatomic.h>
#include <string.h>

#include "algs/algs.h"
#include "algs/rma_window.h"

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

/*
 * What MPI checks of a sendrecv before it starts anything: the ranks and the tags. A mock-up does
 * one half before the other, so an invalid argument of the second half would fail only after the
 * first had sent a message the library never sends (isend_recv_wait, a bad source or receive tag)
 * or had taken a queued message the library leaves (irecv_send_wait: a bad dest or send tag, the
 * receive matched before the send failed, too late to cancel). Such a call runs the default, which
 * reports the error as the library does. An intercommunicator (whose ranks are the remote group's)
 * and a call whose size is not known run the default too.
 */
static atomic_int tag_ub_cache; /* MPI_TAG_UB, read once (0: not yet) */

static int tag_ub(void) {
  int ub = atomic_load_explicit(&tag_ub_cache, memory_order_relaxed);
  if (ub) return ub;
  int *v = NULL, flag = 0;
  ub = PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v, &flag) == MPI_SUCCESS && flag ? *v : 32767;
  atomic_store_explicit(&tag_ub_cache, ub, memory_order_relaxed);
  return ub;
}

static int sendrecv_args_ok(const mg_call *c) {
  if (c->inter || c->size <= 0) return 0;
  int ub = tag_ub();
  int dest_ok = c->root == MPI_PROC_NULL || (c->root >= 0 && c->root < c->size);
  int src_ok = c->src == MPI_PROC_NULL || c->src == MPI_ANY_SOURCE || (c->src >= 0 && c->src < c->size);
  int stag_ok = c->stag >= 0 && c->stag <= ub;
  int rtag_ok = c->rtag == MPI_ANY_TAG || (c->rtag >= 0 && c->rtag <= ub);
  return dest_ok && src_ok && stag_ok && rtag_ok;
}

/* Eq. (10): Sendrecv <= Isend + Recv + Wait. The send is under way before the receive blocks, so
 * two processes that exchange this way cannot wait for each other, as with MPI_Sendrecv. */
int mg_sendrecv_as_isend_recv_wait(const mg_call *c) {
  if (!sendrecv_args_ok(c)) return mg_sendrecv_default(c);
  MPI_Request r;
  int rc = PMPI_Isend(c->sbuf, c->scount, c->stype, c->root, c->stag, c->comm, &r);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Recv(c->rbuf, c->rcount, c->rtype, c->src, c->rtag, c->comm, c->status);
  int rc2 = PMPI_Wait(&r, MPI_STATUS_IGNORE);
  return rc != MPI_SUCCESS ? rc : rc2;
}

/*
 * Where the error of a receive completed by MPI_Wait (a truncated message) goes. MPI_Sendrecv raises
 * it on the communicator's error handler. Open MPI's MPI_Wait does too (the request's communicator);
 * MPICH's (4.0.2) raises it on MPI_COMM_WORLD's, so with MPI_ERRORS_RETURN on the communicator alone
 * the job would abort where MPI_Sendrecv returns MPI_ERR_TRUNCATE. With MPICH a call whose
 * communicator's handler is not MPI_COMM_WORLD's runs the default (the check: 16 ns here).
 */
static int wait_errors_as_comm(MPI_Comm comm) {
#if defined(MPICH_VERSION)
  if (comm == MPI_COMM_WORLD) return 1;
  MPI_Errhandler a = MPI_ERRHANDLER_NULL, b = MPI_ERRHANDLER_NULL;
  int same = PMPI_Comm_get_errhandler(comm, &a) == MPI_SUCCESS &&
             PMPI_Comm_get_errhandler(MPI_COMM_WORLD, &b) == MPI_SUCCESS && a == b;
  if (a != MPI_ERRHANDLER_NULL) PMPI_Errhandler_free(&a);
  if (b != MPI_ERRHANDLER_NULL) PMPI_Errhandler_free(&b);
  return same;
#else
  (void)comm;
  return 1;
#endif
}

/* Eq. (11): Sendrecv <= Irecv + Send + Wait: the receive is posted before the send blocks. */
int mg_sendrecv_as_irecv_send_wait(const mg_call *c) {
  if (!sendrecv_args_ok(c) || !wait_errors_as_comm(c->comm)) return mg_sendrecv_default(c);
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
 * consecutive runs of elements, [count j / k, count (j+1) / k), empty runs skipped (an empty
 * message stays one empty message, as MPI_Send sends it), one tag: MPI keeps the messages of one
 * sender, communicator and tag in order. The receiver must receive the same k runs
 * (mg_p2p_split_recv, with the same count: in the benchmark's patterns both ends use one
 * datatype), so the rows are measure-only. Blocking by hand (eq. 2, mg_p2p_blocks): runs of a
 * fixed number of elements instead, kib KiB / size(datatype) (at least one), as many as the count
 * needs; the receiver cuts its count alike (mg_p2p_blocks_recv).
 */
typedef struct runs {
  long k;  /* pieces */
  int per; /* elements a piece (blocks); 0: k near-equal runs (split) */
} runs;

static int piece(int count, const runs *r, long j, int *first) {
  long lo, hi;
  if (r->per) {
    lo = j * r->per;
    hi = lo + r->per < count ? lo + r->per : count;
  } else {
    lo = (long)count * j / r->k, hi = (long)count * (j + 1) / r->k;
  }
  *first = (int)lo;
  return (int)(hi - lo);
}

/* Whether piece j (of n elements) is a message of its own. */
static int piece_sent(int count, long j, int n) { return n > 0 || (count == 0 && j == 0); }

/* The runs of eq. 2 for count elements of dt: pieces of kib KiB (one message for count 0). */
static int blocks_of(int count, MPI_Datatype dt, int kib, runs *r) {
  int size, rc = PMPI_Type_size(dt, &size);
  if (rc != MPI_SUCCESS) return rc;
  long per = size > 0 ? ((long)kib << 10) / size : count;
  r->per = per > 0 ? (int)(per < count ? per : count > 0 ? count : 1) : 1;
  r->k = count > 0 ? (count + r->per - 1) / r->per : 1;
  return MPI_SUCCESS;
}

static int send_runs(const mg_call *c, const runs *r) {
  MPI_Aint lb, extent;
  int rc = PMPI_Type_get_extent(c->stype, &lb, &extent);
  for (long j = 0; rc == MPI_SUCCESS && j < r->k; j++) {
    int first, n = piece(c->scount, r, j, &first);
    if (piece_sent(c->scount, j, n))
      rc = PMPI_Send((const char *)c->sbuf + (MPI_Aint)first * extent, n, c->stype, c->root, c->stag, c->comm);
  }
  return rc;
}

/* The pieces after the first come from the first's sender with its tag (MPI_ANY_SOURCE and
 * MPI_ANY_TAG must not take a piece of another message); the status is the first piece's with the
 * bytes of all pieces, as one receive of the whole message would give it. */
static int recv_runs(const mg_call *c, const runs *r) {
  MPI_Aint lb, extent;
  MPI_Status st;
  MPI_Count bytes = 0, e;
  int src = c->src, tag = c->rtag, want = c->status != MPI_STATUS_IGNORE, got = 0;
  int rc = PMPI_Type_get_extent(c->rtype, &lb, &extent);
  for (long j = 0; rc == MPI_SUCCESS && j < r->k; j++) {
    int first, n = piece(c->rcount, r, j, &first);
    if (!piece_sent(c->rcount, j, n)) continue;
    rc = PMPI_Recv((char *)c->rbuf + (MPI_Aint)first * extent, n, c->rtype, src, tag, c->comm, &st);
    if (rc != MPI_SUCCESS) break;
    if (!got++ && want) *c->status = st;
    src = st.MPI_SOURCE, tag = st.MPI_TAG;
    if (want && (rc = PMPI_Get_elements_x(&st, MPI_BYTE, &e)) == MPI_SUCCESS) bytes += e;
  }
  /* in bytes: MPICH 4.0.2's MPI_Status_set_elements_x counts elements of the datatype, not its
   * basic elements as the standard (and Open MPI) do; for MPI_BYTE the two agree */
  if (rc == MPI_SUCCESS && want) rc = PMPI_Status_set_elements_x(c->status, MPI_BYTE, bytes);
  return rc;
}

int mg_p2p_split(const mg_call *c, int k) { return send_runs(c, &(runs){k, 0}); }

int mg_p2p_split_recv(const mg_call *c, int k) { return recv_runs(c, &(runs){k, 0}); }

int mg_p2p_blocks(const mg_call *c, int kib) {
  runs r;
  int rc = blocks_of(c->scount, c->stype, kib, &r);
  return rc != MPI_SUCCESS ? rc : send_runs(c, &r);
}

int mg_p2p_blocks_recv(const mg_call *c, int kib) {
  runs r;
  int rc = blocks_of(c->rcount, c->rtype, kib, &r);
  return rc != MPI_SUCCESS ? rc : recv_runs(c, &r);
}

/* ---- send: fence, a put to the destination, fence (measure-only) ----
 * TGT 2010 §VII: Send(n) ~ Win_fence + Put(n) + Win_fence. The sender puts the message (its
 * buffer when dense, else its packed image in its own window memory) into the window of the
 * destination between two fences; the receiver (mg_p2p_rma_put_recv) takes part in both fences
 * and then copies (unpacks) its window into its buffer. The fences are collective over the
 * window's communicator, so both must run on a communicator of exactly the two of them, and the
 * receiver must act alike: the benchmark's patterns run the row on 2 processes (pattern.c),
 * libmpiguide never (MG_R_MEASURE_ONLY). The window is the communicator's (above): made at the
 * first call, outside the timed region after the warm-up. */

int mg_p2p_rma_put(const mg_call *c, int unused) {
  (void)unused;
  int n = (int)c->bytes, rc;
  mg_type t;
  mg_rma_rec *w;
  if ((rc = mg_type_get(c->stype, &t)) != MPI_SUCCESS || (rc = mg_rma_window(c, c->bytes, &w)) != MPI_SUCCESS)
    return rc;
  if (!w) return mg_run(c, 0); /* no window (rma_window.c): a send, the receiver's side a receive */
  const void *src = c->sbuf;
  if (!mg_type_is_dense(&t)) { /* the packed image, in the own window memory (before the epoch) */
    if ((rc = mg_pack(c->sbuf, c->scount, c->stype, w->base, n)) != MPI_SUCCESS) return rc;
    src = w->base;
  }
  rc = PMPI_Win_fence(MPI_MODE_NOPRECEDE | MPI_MODE_NOPUT, w->win); /* nobody puts into the sender's */
  if (rc == MPI_SUCCESS && c->root != MPI_PROC_NULL) rc = PMPI_Put(src, n, MPI_BYTE, c->root, 0, n, MPI_BYTE, w->win);
  if (rc == MPI_SUCCESS) rc = PMPI_Win_fence(MPI_MODE_NOSUCCEED, w->win);
  return mg_rma_win_error(c, rc);
}

int mg_p2p_rma_put_recv(const mg_call *c, int unused) {
  (void)unused;
  int rc;
  mg_type t;
  mg_rma_rec *w;
  size_t n = mg_type_bytes(c->rcount, c->rtype);
  if ((rc = mg_type_get(c->rtype, &t)) != MPI_SUCCESS || (rc = mg_rma_window(c, n, &w)) != MPI_SUCCESS) return rc;
  if (!w) return mg_run(c, 0); /* no window: the sender sends (above) */
  rc = PMPI_Win_fence(MPI_MODE_NOPRECEDE, w->win);
  if (rc == MPI_SUCCESS) rc = PMPI_Win_fence(MPI_MODE_NOSUCCEED, w->win);
  if (rc != MPI_SUCCESS) return mg_rma_win_error(c, rc);
  if (mg_type_is_dense(&t)) {
    memcpy(c->rbuf, w->base, n);
    return MPI_SUCCESS;
  }
  return mg_unpack(w->base, (int)n, c->rbuf, c->rcount, c->rtype);
}
