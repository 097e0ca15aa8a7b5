/*
 * The LogGP parameter file of `mpiguide loggp` (docs/loggp.md) and the fit that turns measured
 * parametrised round-trip times into parameters (Hoefler, Lichei, Rehm, "LogGP in theory and
 * practice", 2009). Pure C, no MPI calls: the measurement (loggp_measure.h) fills the measured
 * columns, mg_loggp_fit the others, mg_loggp_write writes it (the file's struct and its reader,
 * mg_loggp_read, are loggp/loggp_file.h, below the library).
 *
 * PRTT(n,d,s) is the time from the first of n messages of s bytes, sent with a delay d after
 * each but the last, to the arrival of a reply of s bytes. In LogGP terms
 *   PRTT(1,0,s) = 2 (o_s + L + (s-1)G + o_r)
 *   PRTT(n,0,s) = PRTT(1,0,s) + (n-1) (g + (s-1)G)      (back to back: the gap paces them)
 *   PRTT(n,d,s) = PRTT(1,0,s) + (n-1) (o_s + d)         (d above the gap: the sender paces them)
 * so per size gap(s) = g + (s-1)G and o_s(s) follow from the three PRTTs; o_r(s) is timed at the
 * receiver (a receive whose message has arrived); G is the slope of gap(s) over the largest
 * sizes, g its value at the smallest size less (s-1)G, L the rest of PRTT(1,0,s) at the smallest.
 */
#ifndef MG_MODEL_LOGGP_FILE_H
#define MG_MODEL_LOGGP_FILE_H

#include <stddef.h>
#include <stdio.h>

#include "loggp/loggp_file.h"

/*
 * The fit: from the measured columns (SIZE, PRTT1, PRTTN, DELAY, PRTTD, OR, NOISE) and c->n, c->npts,
 * fill the derived columns, c->m (with p, inter, copy and reduce left as they are), the model and
 * residual columns, the quality and the warnings: residuals above `tolerance` (the size ranges),
 * sizes whose noise exceeds MG_LOGGP_NOISY, and negative parameters, which are reported and set to 0 (a cost model must not get a negative
 * time). G is fitted over the largest third of the sizes (at least 3; all when fewer).
 */
void mg_loggp_fit(mg_loggp_class *c, double tolerance);

/* The file: "mpiguide-loggp 2", the launch, then each class with its parameters, warnings and table.
 * command: the command line, for a comment (may be NULL). Returns 0, or -1 on a write error. */
int mg_loggp_write(FILE *f, const mg_loggp_file *lf, const char *command);

#endif
