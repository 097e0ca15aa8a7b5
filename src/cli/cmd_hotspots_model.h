/*
 * Predicted hot spots (docs/hotspots.md, "Predicted hot spots"; issue 34, after Guo et al.'s
 * Table II): a trace's calls priced by the cost model alone, and the predicted hot spots set
 * beside the measured ones of a timed trace. Used by `mpiguide hotspots --loggp` (cmd_hotspots.c).
 */
#ifndef MG_CLI_CMD_HOTSPOTS_MODEL_H
#define MG_CLI_CMD_HOTSPOTS_MODEL_H

#include <stdio.h>

#include "check/hotspots.h"
#include "cost/cost.h"

/* Every spot's time (and the calls' share of each algorithm) replaced by the model's: the calls of
 * each algorithm that ran times its price at (nprocs, bytes), point estimates; wait NaN; t->mpi_time
 * their sum. The spots the model has no price for count 0; their number is returned. *src: the least
 * sure source among the priced spots. */
int mg_hs_predict(mg_hs_trace *t, const mg_model *m, mg_price_src *src);

/* The hot spots of the timed trace at `measured` (the same P and N) beside those of pred (already
 * priced), compared per site (pred timed) or per operation, process count and size (pred untimed:
 * the measured spots merged to that), and the size of the set difference both ways, on o, every
 * line after pre ("# " below a CSV, "" below the table). 0, or -1 after a message on stderr. */
int mg_hs_compare(const mg_hs_trace *pred, const char *measured, double pct, int nmax, const char *pre, FILE *o);

#endif
