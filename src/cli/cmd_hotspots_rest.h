/*
 * The whole MPI time of a format-4 trace in `mpiguide hotspots` (docs/hotspots.md, "The whole MPI
 * time"): the coverage line, and the table of the rest of the MPI time (the functions mpiguide does
 * not tune, a completion's share named by the post it completes).
 */
#ifndef MG_CLI_CMD_HOTSPOTS_REST_H
#define MG_CLI_CMD_HOTSPOTS_REST_H

#include <stdio.h>

#include "check/hotspots.h"

/* The coverage line of a timed trace t (an older format: what it did not time). */
void mg_hs_print_coverage(const mg_hs_trace *t, FILE *o);
/* The rest of the MPI time: t's other rows, the largest first, covering pct % of it (at most nmax);
 * wide: C++ names whole. Nothing for a trace without such rows. */
void mg_hs_print_others(const mg_hs_trace *t, double pct, long nmax, int wide, FILE *o);

#endif
