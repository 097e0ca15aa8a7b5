/*
 * The window the one-sided rows (TGT 2010 §VII: bcast_as_rma_put in bcast.c, gather_as_rma_get
 * in gather.c, the measure-only mg_p2p_rma_put in pt2pt.c) share: one per communicator, cached
 * with it (rma_window.c says how it is made, grown and freed, and why a shared-memory window
 * with Open MPI < 5 on one node). mg_rma_win_bytes and mg_rma_finalize are declared with the
 * rows (registry/algorithms.h).
 */
#ifndef MG_ALGS_RMA_WINDOW_H
#define MG_ALGS_RMA_WINDOW_H

#include "algs/algs.h"

typedef struct mg_rma_rec { /* one per communicator, its attribute */
  MPI_Comm parent;
  MPI_Win win; /* MPI_WIN_NULL until the first call */
  char *base;  /* this rank's window memory */
  size_t cap;  /* its size in bytes, equal on every rank */
  int node;    /* 1: a shared window (Open MPI < 5, every rank on one node), 0: not, -1: not asked yet */
  int nowin;   /* 1: the MPI library could not make the window (agreed by every rank): never tried again */
  MPI_Win stranded; /* a window this rank made when another rank's attempt failed: never freed (rma_window.c) */
  struct mg_rma_rec *next;
} mg_rma_rec;

/* The window of c->comm with at least n bytes per rank: made or grown (collectively over
 * c->comm, so every rank calls it for the same call). *out = NULL (MPI_SUCCESS) on every rank
 * when the MPI library cannot make it: then mg_late.why = MG_WHY_NO_WINDOW and the row runs
 * the default (mg_run(c, 0)) in its place. */
int mg_rma_window(const mg_call *c, size_t n, mg_rma_rec **out);

/* A window call failed: the communicator's error handler sees the code, which is returned. */
int mg_rma_win_error(const mg_call *c, int rc);

#endif
