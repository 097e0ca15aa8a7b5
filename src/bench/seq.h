/*
 * The sequential stopping rule of `mpiguide check` (pure C, no MPI; docs/statistics.md, "Stopping
 * when the verdict is decided"). A mock-up's series stops as soon as its comparison with the
 * default is decided, instead of when its own median is known to 1 %:
 *
 *   the slowdown s = median(default) / median(mock-up) lies, with the confidence below, in
 *   [L_d / U_m, U_d / L_m], where [L, U] are distribution-free order-statistic intervals of each
 *   median. Decided:
 *     violation   L_d - U_m > noise (so s > 1 beyond the synchronisation noise), at every
 *                 root of a rotating root the root's own L_d > U_m, and the Mann-Whitney test
 *                 of the default above the mock-up at z >= test_z (one-sided p ~ 1e-6: the
 *                 analysis' test, Holm over the run, then finds it significant too);
 *     consistent  U_d / L_m <= 1 + margin (the non-inferiority of the `consistent` verdict).
 *   Point-to-point rows are read both ways (TGT 2010 eqs. 5-7): the swapped comparison must be
 *   decided too.
 *
 * Looks: at a first point (12 values) and then on a geometric schedule, when the smaller side first
 * holds min_n growth^k values (12, then 20, 30, 45, 68, 102, 152, 228, 342, 513, 769 below check's
 * 1000 at growth 1.5): eleven looks, not one per batch (100), so each look's share of the error is
 * larger and its intervals narrower; a look sees every value measured so far. The engine ends its
 * batches on these points (mg_bench_seq_rounds), so a look sees exactly the point's values.
 *
 * Error: the intervals of one look miss with probability <= error / looks in all (Bonferroni: the
 * pooled ratio's two medians get error / (2 looks) without a rotating root; with one, the pooled
 * ratio gets half of the look's share and the roots' 2 x roots one-sided median bounds the other half, as
 * only a violation reads the roots), so the probability that any decision over all planned looks of
 * one comparison rests on an interval that misses the truth is <= error, whatever the distributions
 * and the dependence between looks. A look at sample sizes where no violation can be decided,
 * whatever the values (the Mann-Whitney score cannot reach test_z below 16 values a side, a root's
 * bound needs 14-15 values of that root), spends its whole share on the two ends the `consistent`
 * decision reads (U_d and L_m, one-sided, share / 2 each): that is what lets the first look, at 12
 * values, decide a clearly slower mock-up (the interval is then the whole range: the default's
 * largest value within 1 + margin of the mock-up's smallest); which case applies follows from the
 * sizes alone, never from the values.
 *
 * A decision depends only on the values (their order does not matter: each sample is sorted), so
 * ranks that hold the same reduced latencies decide the same at the same round.
 */
#ifndef MG_BENCH_SEQ_H
#define MG_BENCH_SEQ_H

#include <stddef.h>

typedef enum { MG_SEQ_OPEN, MG_SEQ_VIOLATION, MG_SEQ_CONSISTENT } mg_seq_decision;

typedef struct mg_seq_cfg {
  double error;   /* probability that a decision of one comparison is wrong, over all its looks (0.01) */
  long looks;     /* looks planned (each spends error / looks): mg_seq_looks */
  double margin;  /* consistent: slowdown <= 1 + margin */
  double noise;   /* violation: the medians differ by more than this, seconds */
  long first;     /* the first look, at this many values of each side (0, or >= min_n: none) */
  long min_n;     /* the geometric schedule's first point: min_n x growth^k values */
  long min_root;  /* values at each root before a violation */
  double growth;
  double test_z;  /* a violation also needs the Mann-Whitney normal score >= test_z */
  int both_ways;  /* the swapped comparison must be decided too (point-to-point rows) */
} mg_seq_cfg;

/* The defaults of check: error 0.01, first 12, min_n 20, min_root 5, margin 0.05, growth 1.5, test_z
 * 4.75; looks and noise 0. */
void mg_seq_defaults(mg_seq_cfg *c);

/* Looks a comparison measured until max_nrep can have on c's schedule: the points (first, then
 * min_n growth^k rounded up, each at least one more than the last) below max_nrep (at max_nrep the
 * series stops anyway), at least 1. */
long mg_seq_looks(const mg_seq_cfg *c, long max_nrep);

/* The look due when the smaller side holds n values: the largest k < c->looks whose point is <= n,
 * or -1 below the first point. A comparison is decided only at a look it has not had yet (the engine keeps
 * the last one), so it has at most c->looks looks however its batches fall. */
long mg_seq_look_at(const mg_seq_cfg *c, long n);

/* The k-th point of the schedule (k >= 0): the values of the smaller side at look k. */
long mg_seq_point(const mg_seq_cfg *c, long k);

/* Values from n (the smaller side's) to the point of the next look after `last` (the comparison's
 * last look, -1: none; a look due at n counts as held, the engine holds it after the batch): 0 when
 * no look is left. */
long mg_seq_next(const mg_seq_cfg *c, long n, long last);

/* The rounds of the next batch that lands on a point `need` values away in batches of about
 * `batch`: round(need / batch) batches (at least one) of ceil(need / that) rounds (12: one of 12; 25:
 * 13 then 12; 8: one of 8); `batch` itself when need < 1 (nothing to land on). */
long mg_seq_batch(long need, long batch);

/*
 * A default that stopped (its RSE rule, the cap) while a comparison with it is still open: the
 * comparison keeps its looks on the same schedule, now due when the mock-up alone reaches the next
 * point, and each reads the default as it was at the comparison's last look (the engine keeps its
 * number of values, mg_rep_state.seq_dn): the same interval, already paid for, so every further
 * look spends only the mock-up's share and the error over all looks stays <= error. Not all the n
 * values the default holds: n is where a data-dependent rule stopped it, and an order-statistic
 * interval covers with its stated probability at a sample size fixed in advance. Without a look
 * before the stop: its first mg_seq_frozen(c, n) values, those of the last schedule point n reached
 * (n itself below the first point), again a size fixed in advance (docs/statistics.md).
 */
long mg_seq_frozen(const mg_seq_cfg *c, long n);

/* One side of a comparison: its valid values ascending, and per root of a rotating root (nroots >= 2;
 * 0: none) the values of that root ascending. */
typedef struct mg_seq_sample {
  const double *x;
  long n;
  int nroots;
  const double *const *rx;
  const long *rn;
} mg_seq_sample;

/* The order-statistic interval [x_(c), x_(n-c+1)] of the median of x[0..n) (ascending) with coverage
 * >= 1 - g (c the largest with P(Bin(n, 1/2) < c) <= g / 2): 0, or -1 when n is too small for it. */
int mg_seq_median_ci(const double *x, long n, double g, double *lo, double *hi);

/* The decision for the default d and the mock-up m at one look. */
mg_seq_decision mg_seq_decide(const mg_seq_cfg *c, const mg_seq_sample *d, const mg_seq_sample *m);

/* One line on what a look saw, for MPIGUIDE_SEQ_LOOKS (docs/statistics.md): the values of each
 * side, the pooled ratio's interval and its point estimate, L_d - U_m, the Mann-Whitney z, and per
 * root the root's ratio interval. snprintf's result. */
int mg_seq_explain(const mg_seq_cfg *c, const mg_seq_sample *d, const mg_seq_sample *m, char *buf, size_t len);

const char *mg_seq_decision_name(mg_seq_decision x); /* "open", "violation", "consistent" */

#endif
