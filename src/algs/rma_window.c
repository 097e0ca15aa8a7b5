/*
 * The one-sided family (TGT 2010 §VII): a collective not slower than the same data movement
 * written with MPI's one-sided communication, an access epoch of a window opened and closed by
 * MPI_Win_fence. This file keeps the window the rows share (rma_window.h); the rows live beside
 * their collective: bcast_as_rma_put in bcast.c, gather_as_rma_get in gather.c, the
 * measure-only mg_p2p_rma_put and mg_p2p_rma_put_recv in pt2pt.c.
 *
 * The rows move bytes (MPI_BYTE on both sides of every Put and Get), so ranks may use different
 * datatypes of one signature, and n must fit an int count (MG_R_NB_INT). p = 1: no window (no
 * scratch), the root's copy only.
 *
 * The window. One per communicator, made on the communicator's private duplicate (mg_p2p_comm:
 * user messages and windows never meet ours) at the first call of a row on it, collectively:
 * every rank runs the same row for the same call. It is made with PMPI_Win_allocate, except with
 * Open MPI before 5.0 when every rank is on one node (decided once per communicator, alike on
 * every rank): a shared-memory window then (PMPI_Win_allocate_shared, each rank's part allocated
 * apart). Open MPI 4.1.4's osc/rdma, which PMPI_Win_allocate gets on one node, names its
 * shared-memory segment after the communicator's context id, which disjoint communicators (the
 * halves of a split) share, so their windows use one segment and each other's data (difftest,
 * comm=halves; open-mpi/ompi#9492, fixed in 5.0); its osc/sm, which a shared window gets, names
 * it uniquely. Puts and gets on a shared window are ordinary RMA; the rows never load or store
 * another rank's part directly. Not with MPICH: 4.0.2 (ch4:ucx) is correct with either, and its
 * puts and gets of 1 MiB on a shared window took 5 times as long (2 ranks). Its size per rank is the
 * largest n the rows have needed on it, rounded up to a power of two (at least 4 KiB,
 * mg_rma_win_bytes); a call that needs more frees it and allocates a larger one, a decision
 * every rank makes alike, as n and the size so far are equal on every rank. The window memory is
 * scratch: the rows' mem functions count it, so MPIGUIDE_SCRATCH_MAX caps it (a larger call runs
 * the default). It is kept with the communicator as an attribute whose delete callback frees it:
 * MPI_Win_free is collective, and the callback runs in the application's MPI_Comm_free, which
 * every rank of the communicator calls (mg_rma_finalize, which the callers of mg_core_finalize
 * run before it, deletes the attributes still set, in the order the windows were made, which
 * every rank shares).
 *
 * Fences: the opening fence asserts MPI_MODE_NOPRECEDE (the window's previous epoch, if any,
 * was closed by a fence with MPI_MODE_NOSUCCEED) and, for the gather, MPI_MODE_NOPUT (gets
 * only); the closing one MPI_MODE_NOSUCCEED. Local stores into the window (the packing) happen
 * only before the opening fence, and reads of it only after the closing one.
 *
 * No window. An MPI library may have no one-sided component that works for the communicator:
 * Open MPI 4.1.4 as Debian ships it disables osc/pt2pt and osc/ucx
 * (/etc/openmpi/openmpi-mca-params.conf: osc = ^ucx,pt2pt), and its osc/rdma needs a BTL with
 * RDMA to every peer, which TCP between nodes is not: MPI_Win_allocate fails there with
 * MPI_ERR_WIN (on one node osc=^sm,rdma does the same, MPI_Win_allocate_shared MPI_ERR_INTERN).
 * Then the row runs the default on every rank, as a late fallback with the reason no_window
 * (mg_late.why): the window is allocated with the private communicator's error handler set to
 * MPI_ERRORS_RETURN (the application's handler, fatal by default, would end the job for a call
 * that can run anyway), and an allreduce of the failure on that communicator (only when a window
 * is made or grown, never on the path that reuses one) makes the decision alike on every rank.
 * It is remembered with the communicator (nowin): its later calls run the default at once,
 * whatever their size. When only some ranks fail (window memory refused on one), the others
 * hold a window that cannot be freed, as MPI_Win_free is collective over all of its ranks and
 * the ones without it would never call it: it is kept unused (stranded) until the process ends,
 * its memory lost, rather than a free that would hang. A library whose window creation itself
 * waits for every rank may hang in that case, and nothing after the failed call can help there:
 * Open MPI 4.1.4 with no one-sided component on one rank of two (OMPI_MCA_osc=^sm,rdma there
 * alone) fails there at once while the other waits in MPI_Win_allocate for good.
 *
 * Errors: the window's error handler is MPI_ERRORS_RETURN; a failing window call's code is
 * handed to the communicator's error handler (PMPI_Comm_call_errhandler: fatal by default, as
 * the default's failure would be) and returned unchanged.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algs/rma_window.h"

/* ---- the window cache ---- */

static struct {
  pthread_mutex_t lock;
  int keyval;
  mg_rma_rec *head; /* in the order the records were made */
} rma = {.lock = PTHREAD_MUTEX_INITIALIZER, .keyval = MPI_KEYVAL_INVALID};

static void unlink_rec(mg_rma_rec *r) {
  pthread_mutex_lock(&rma.lock);
  for (mg_rma_rec **pp = &rma.head; *pp; pp = &(*pp)->next)
    if (*pp == r) {
      *pp = r->next;
      break;
    }
  pthread_mutex_unlock(&rma.lock);
}

/* The communicator is being freed (or mg_rma_finalize deletes the attribute) on every rank of
 * it: free its window, collectively. */
static int rma_delete(MPI_Comm comm, int keyval, void *attr, void *extra) {
  (void)comm, (void)keyval, (void)extra;
  mg_rma_rec *r = attr;
  int rc = r->win != MPI_WIN_NULL ? PMPI_Win_free(&r->win) : MPI_SUCCESS;
  unlink_rec(r);
  free(r);
  return rc;
}

size_t mg_rma_win_bytes(size_t n) {
  size_t w = 4096;
  while (w < n) w *= 2;
  return w;
}

#if defined(OPEN_MPI) && OMPI_MAJOR_VERSION < 5 /* a shared window on one node (above) */
#define MG_RMA_SHARED_ON_NODE 1
#else
#define MG_RMA_SHARED_ON_NODE 0
#endif

/* Whether every rank of pc (p ranks) is on one node: then its part of a node's split has p ranks
 * on every rank, else fewer on every rank (a decision the ranks share). */
static int one_node(MPI_Comm pc, int p, int *node) {
  MPI_Comm sc;
  int sp = 0, rc = PMPI_Comm_split_type(pc, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &sc);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Comm_size(sc, &sp);
  PMPI_Comm_free(&sc);
  *node = sp == p;
  return rc;
}

/* No window on this communicator: the row runs the default, traced as a late fallback. */
static int no_window(mg_rma_rec **out) {
  mg_late.why = MG_WHY_NO_WINDOW;
  *out = NULL;
  return MPI_SUCCESS;
}

/* The window of c->comm with at least n bytes per rank: made or grown (collectively) here. */
int mg_rma_window(const mg_call *c, size_t n, mg_rma_rec **out) {
  mg_rma_rec *r = NULL;
  int found = 0, rc;
  if (rma.keyval == MPI_KEYVAL_INVALID) { /* first use; keyvals are process-wide */
    pthread_mutex_lock(&rma.lock);
    rc = rma.keyval == MPI_KEYVAL_INVALID
             ? PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, rma_delete, &rma.keyval, NULL)
             : MPI_SUCCESS;
    pthread_mutex_unlock(&rma.lock);
    if (rc != MPI_SUCCESS) return rc;
  }
  rc = PMPI_Comm_get_attr(c->comm, rma.keyval, &r, &found);
  if (rc != MPI_SUCCESS) return rc;
  if (!found) {
    r = calloc(1, sizeof *r);
    if (!r) {
      fprintf(stderr, "mpiguide: out of memory for a window record; aborting the job\n");
      PMPI_Abort(MPI_COMM_WORLD, 1);
      return MPI_ERR_NO_MEM;
    }
    r->parent = c->comm, r->win = r->stranded = MPI_WIN_NULL, r->node = -1;
    if ((rc = PMPI_Comm_set_attr(c->comm, rma.keyval, r)) != MPI_SUCCESS) {
      free(r);
      return rc;
    }
    pthread_mutex_lock(&rma.lock);
    mg_rma_rec **pp = &rma.head;
    while (*pp) pp = &(*pp)->next;
    *pp = r;
    pthread_mutex_unlock(&rma.lock);
  }
  if (r->nowin) return no_window(out);
  if (r->win == MPI_WIN_NULL || r->cap < n) { /* r->cap and n are equal on every rank */
    MPI_Comm pc;
    MPI_Info info = MPI_INFO_NULL;
    MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
    size_t cap = mg_rma_win_bytes(n);
    if (r->win != MPI_WIN_NULL && (rc = PMPI_Win_free(&r->win)) != MPI_SUCCESS) return rc;
    r->cap = 0, r->base = NULL;
    if ((rc = mg_p2p_comm(c->comm, &pc)) != MPI_SUCCESS) return rc;
    if (r->node < 0) {
      r->node = 0;
      if (MG_RMA_SHARED_ON_NODE && (rc = one_node(pc, c->size, &r->node)) != MPI_SUCCESS) return rc;
    }
    /* the allocation's failure is ours to handle (below), not the application's handler's */
    if ((rc = PMPI_Comm_get_errhandler(pc, &eh)) != MPI_SUCCESS ||
        (rc = PMPI_Comm_set_errhandler(pc, MPI_ERRORS_RETURN)) != MPI_SUCCESS)
      return rc;
    int arc = PMPI_Info_create(&info); /* fences only: no passive target */
    if (arc == MPI_SUCCESS) arc = PMPI_Info_set(info, "no_locks", "true");
    if (arc == MPI_SUCCESS && r->node) arc = PMPI_Info_set(info, "alloc_shared_noncontig", "true");
    if (arc == MPI_SUCCESS)
      arc = r->node ? PMPI_Win_allocate_shared((MPI_Aint)cap, 1, info, pc, &r->base, &r->win)
                    : PMPI_Win_allocate((MPI_Aint)cap, 1, info, pc, &r->base, &r->win);
    if (info != MPI_INFO_NULL) PMPI_Info_free(&info);
    if (arc == MPI_SUCCESS) arc = PMPI_Win_set_errhandler(r->win, MPI_ERRORS_RETURN);
    rc = PMPI_Comm_set_errhandler(pc, eh);
    PMPI_Errhandler_free(&eh);
    /* whether every rank has its window: the one extra collective of making one */
    int bad = arc != MPI_SUCCESS, any = 1;
    if (rc == MPI_SUCCESS) rc = PMPI_Allreduce(&bad, &any, 1, MPI_INT, MPI_MAX, pc);
    if (rc != MPI_SUCCESS) return rc;
    if (any) {
      if (!bad) r->stranded = r->win; /* another rank has none: not freeable (above) */
      r->win = MPI_WIN_NULL, r->base = NULL, r->nowin = 1;
      return no_window(out);
    }
    r->cap = cap;
  }
  *out = r;
  return MPI_SUCCESS;
}

/* Before MPI_Finalize: delete the attributes still set, in the order the windows were made
 * (every rank frees its windows in an order the ranks share, as MPI_Win_free is collective). */
void mg_rma_finalize(void) {
  for (;;) {
    pthread_mutex_lock(&rma.lock);
    mg_rma_rec *r = rma.head;
    MPI_Comm parent = r ? r->parent : MPI_COMM_NULL;
    pthread_mutex_unlock(&rma.lock);
    if (!r) break;
    if (PMPI_Comm_delete_attr(parent, rma.keyval) != MPI_SUCCESS) { /* never loop on a record */
      pthread_mutex_lock(&rma.lock);
      int still = rma.head == r; /* the callback did not run (it unlinks and frees r) */
      pthread_mutex_unlock(&rma.lock);
      if (still) unlink_rec(r), free(r);
    }
  }
  if (rma.keyval != MPI_KEYVAL_INVALID) PMPI_Comm_free_keyval(&rma.keyval);
}

/* A window call failed: the communicator's error handler sees the code, which is returned. */
int mg_rma_win_error(const mg_call *c, int rc) {
  if (rc != MPI_SUCCESS) PMPI_Comm_call_errhandler(c->comm, rc);
  return rc;
}
