/*
 * The tuner behind `mpiguide tune` (docs/tune.md): turns the verdicts of a
 * check analysis (src/check, mg_ck_analyze) into profile rules.
 *
 * Per (collective, reduction pair, measured size) it picks the fastest mock-up
 * whose verdict is a violation (significant after Holm, default slower in
 * every launch and at every root) and whose median is at least min_gain
 * faster than the default's over the whole slowdown interval and at the least
 * favourable root: med_mock <= (1 - min_gain) x med_def. Sizes without such a
 * mock-up keep the default (no rule). A reduction's rules name the datatype
 * class and op they were measured with (profile format 2), so a rule measured
 * on doubles does not govern bytes; a pair no selector can name gets no rule.
 *
 * The range rule: a choice covers its measured size only; it covers the gap
 * up to just below the next measured size only when that size chose the
 * same mock-up. Nothing is extrapolated below the smallest or beyond the
 * largest measured size, nor across a size that kept the default.
 *
 * A collective whose message size not every rank knows (gatherv, scatterv,
 * alltoallv, alltoallw: mg_coll_info.known = 0) cannot have rules by size: it
 * gets one rule for every size ('*') when the same mock-up was chosen at every
 * size measured for it, and no rule otherwise (its choices are then marked
 * `withheld`; docs/library.md, "Deciding without disagreeing").
 *
 * Reads only the verdict structs (no call into mgcheck), adds rules with
 * mg_profile_add and merges them with mg_profile_merge_touching; the caller
 * builds and writes the profile.
 */
#ifndef MG_TUNER_TUNER_H
#define MG_TUNER_TUNER_H

#include <stddef.h>

#include "check/check.h"
#include "tune/profile.h"

/* One decision at one measured size. */
typedef struct mg_tune_choice {
  mg_coll coll;
  int nprocs;
  size_t bytes;
  int alg;                  /* registry index, 0: the default stays */
  const mg_ck_verdict *v;   /* the chosen mock-up's verdict (NULL for the default) */
  const char *red;          /* the reduction pair measured ("MPI_DOUBLE:MPI_SUM", "" none; points into r) */
  int withheld;             /* alg won here, but no rule: the size is not known on every rank and
                               the winner differs between the measured sizes */
  const mg_ck_verdict *held; /* with MG_TUNE_HOLD_SHORT: the winner held back because its violation rests
                               on one launch or a span below --min-span (alg is then 0); NULL: none */
} mg_tune_choice;

/* What a cell must show to get a rule: a conclusive violation (default), or also a
 * significant one that is inconclusive because of the noise or its interval (asked for
 * explicitly: such a rule may be a measurement artefact, docs/tune.md). */
enum { MG_TUNE_CONCLUSIVE = 0, MG_TUNE_INCLUDE_INCONCLUSIVE = 1 };
/* Or'ed into which: hold back a winner whose violation rests on a short span (mg_ck_verdict.short_span:
 * one launch, or launches spanning less than --min-span), instead of writing its rule marked
 * "short span" in its comment (docs/tune.md, "Rules that will hold"). */
#define MG_TUNE_HOLD_SHORT 4

/*
 * Decide every measured (collective, size) of r for process count nprocs and
 * append the rules to p. Choices are appended to *ch (realloc'd; *nch
 * counts). Returns the number of rules added, or -1 with a message in err.
 */
int mg_tune_decide(const mg_ck_result *r, int nprocs, double min_gain, int which, mg_profile *p,
                   mg_tune_choice **ch, int *nch, char *err, size_t errlen);

#endif
