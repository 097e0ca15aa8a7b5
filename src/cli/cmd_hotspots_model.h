/*
 * Predicted hot spots (docs/hotspots.md, "Predicted hot spots"; issue 34, after Guo et al.'s
 * Table II): a trace's calls priced by the cost model alone, what the model cannot see in them
 * (issue 46: calls it does not price, posts whose transfers it does not price, prices not monotone
 * in the size), and the predicted hot spots set beside the measured ones of a timed trace, with
 * the time beyond the model's price shown as waiting. Used by `mpiguide hotspots --loggp`.
 */
#ifndef MG_CLI_CMD_HOTSPOTS_MODEL_H
#define MG_CLI_CMD_HOTSPOTS_MODEL_H

#include <stdio.h>

#include "check/hotspots.h"
#include "cli/cmd_hotspots_sites.h"
#include "cost/cost.h"

/* What the model knows of a spot's calls. */
typedef enum {
  MG_HS_PRICED = 0, /* priced whole */
  MG_HS_POST,       /* a nonblocking post (isend, irecv) priced at its overhead alone: its transfer
                       completes in a completion call (MPI_Wait*, MPI_Test*), which it does not price */
  MG_HS_UNPRICED    /* no price: an operation the model does not know (a completion, or any row
                       without a price): to the model its time is waiting, "not priced (waiting)" */
} mg_hs_kind;

/* The kind of spot s under model m: keyed on whether the model knows the spot's operation (an
 * operation outside the registry's, or one with no finite price, is MG_HS_UNPRICED). */
mg_hs_kind mg_hs_kind_of(const mg_model *m, const mg_hs_spot *s);

/* Every spot's time (and the calls' share of each algorithm) replaced by the model's: the calls of
 * each algorithm that ran times its price at (nprocs, bytes), point estimates; wait NaN; t->mpi_time
 * the sum over the priced spots. kind[i] (may be NULL) receives spot i's kind; a spot without a
 * price counts 0 and is not in mpi_time. Returns the number of spots without a price. *src: the
 * least sure source among the priced spots. */
int mg_hs_predict(mg_hs_trace *t, const mg_model *m, mg_price_src *src, unsigned char *kind);

/* A price not monotone in the size: for one operation, algorithm and process count of the trace,
 * the two of its sizes whose prices per call are the most inverted (small < large, priced above it). */
typedef struct mg_hs_inversion {
  int coll, alg, nprocs;
  size_t small, large;
  double t_small, t_large; /* the model's price of one call at small and large, s */
} mg_hs_inversion;

/* The inversions among the trace's operations, algorithms and process counts: at most max into v
 * (the largest ratio t_small / t_large first); returns how many there are. */
int mg_hs_inversions(const mg_hs_trace *t, const mg_model *m, mg_hs_inversion *v, int max);

/* The hot spots of the timed trace at `measured` (the same P and N) beside those of pred (already
 * priced; names: its sites, kind: its spots' kinds), compared per site (pred timed) or per
 * operation, process count and size (pred untimed: the measured spots merged to that), the size of
 * the set difference both ways, and the time beyond the model's price as waiting (a spot the model
 * does not price: all of its time), on o, every line after pre ("# " below a CSV, "" below the
 * table). Sites are shown as the table shows them (mg_hs_label_of, told apart across both traces).
 * 0, or -1 after a message on stderr. */
int mg_hs_compare(const mg_hs_trace *pred, const mg_hs_site *names, const unsigned char *kind, const mg_model *m,
                  const char *measured, double pct, int nmax, int wide, const char *pre, FILE *o);

#endif
