/*
 * Online tuning's estimator (online.c, docs/library.md "Online tuning"), as pure functions of
 * the times one rank measured, so that a unit test can plant timings without MPI.
 *
 * mg_online_gains: this rank's view of the s survivors of a cell (live[0] the default, live[i]
 * the position of survivor i in t; t[p][r] the local time of position p in round r, NAN for none,
 * round 0 left out: it pays first-use costs) given its slack in the default (the default's
 * completion less this rank's time of it, from synchronised calls): v[i - 1] the median over the
 * rounds of slack + (the default's time - survivor i's time), -INFINITY without a pair; v[s - 2 + i]
 * the share of those rounds where that was positive; v[2 (s - 1)] the default's median time; 2s - 1
 * values, which the ranks agree on with one MIN. The least of the default's medians (the last
 * arriver's view of it) stands in for the default's completion in the 10 % threshold where it is
 * smaller: on a crowded machine a synchronised call may catch a rank descheduled for
 * milliseconds, and a threshold of a tenth of that would refuse every choice.
 *
 * mg_online_choose: from the agreed v and the default's completion mdef, the survivor chosen
 * (index into live; 0: the default): the largest least gain among those faster in 3 of 4 rounds
 * on every rank, when it is at least 10 % of mdef; *alt the survivor of the largest finite gain
 * (0: none).
 */
#ifndef MG_LIB_ONLINE_H
#define MG_LIB_ONLINE_H

#include "lib/lib.h"

void mg_online_gains(const float (*t)[MG_ONLINE_TRIALS_MAX], const unsigned char *live, int s, double slack,
                     double *v);
int mg_online_choose(const double *v, int s, double mdef, int *alt);

#endif
