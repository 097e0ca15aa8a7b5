/*
 * mgstats: the statistics behind a verdict. Descriptive summaries of runtime
 * samples, one-sided two-sample tests of "the default (sample A) is slower
 * than the mock-up (sample B)", Holm's multiple-testing adjustment and the
 * slowdown median(A) / median(B) with a bootstrap interval. Formulas,
 * assumptions and the choice between exact and approximate p-values are in
 * docs/statistics.md.
 *
 * Pure computation: no MPI, no global or static mutable state, so every
 * function is reentrant and thread-safe. GSL provides the normal and t
 * distributions and the Mersenne Twister; arguments are checked before they
 * reach GSL, so its error handler (left as the application set it) is never
 * called except when GSL itself runs out of memory.
 *
 * Ownership: input arrays are read only, unless a function says otherwise
 * (mg_stats_sort). Functions that need sorted data sort a private copy on the
 * heap and free it before returning. Results go to caller-provided structs,
 * which are written only when the function returns MG_STATS_OK.
 *
 * Samples are arrays of finite doubles (runtimes in seconds); an empty sample
 * is MG_STATS_EMPTY, NaN or +-inf anywhere is MG_STATS_NONFINITE.
 */
#ifndef MG_STATS_H
#define MG_STATS_H

#include <stddef.h>
#include <stdint.h>

/* X(ENUM, message). */
#define MG_STATS_STATUSES(X)                                                            \
  X(OK, "success")                                                                      \
  X(EMPTY, "empty sample")                                                              \
  X(NONFINITE, "sample contains NaN or infinity")                                       \
  X(TOO_FEW, "too few values for this statistic")                                       \
  X(NOT_POSITIVE, "ratio needs positive runtimes (mock-up > 0, default >= 0)")          \
  X(UNDEFINED, "statistic undefined for this sample (relative error of a zero centre)") \
  X(INVALID, "invalid argument")                                                        \
  X(TOO_LARGE, "samples too large for the exact distribution")                          \
  X(NOMEM, "out of memory")

typedef enum {
#define MG_X(E, s) MG_STATS_##E,
  MG_STATS_STATUSES(MG_X)
#undef MG_X
      MG_STATS_NSTATUS
} mg_stats_status;

/* A static string for a status; "unknown status" for values out of range. */
const char *mg_stats_strerror(mg_stats_status st);

/* ------------------------------------------------------------------------- */
/* Sorting helpers                                                            */

/* Sorts x[0..n) ascending IN PLACE (the caller's array is modified). The
 * values must not be NaN; check them first (all mg_stats_* functions do). */
void mg_stats_sort(double *x, size_t n);

/* A new ascending copy of x in *out (free() it). Checks the sample like every
 * function: EMPTY, NONFINITE, NOMEM. x is not modified. */
mg_stats_status mg_stats_sorted_copy(const double *x, size_t n, double **out);

/* Type 7 quantile (Hyndman & Fan 1996, R's default) of already SORTED data:
 * h = (n - 1) p, q = s[floor h] + (h - floor h) (s[floor h + 1] - s[floor h]).
 * Needs n >= 1 and 0 <= p <= 1 (not checked: the caller owns sorted data). */
double mg_stats_quantile_sorted(const double *sorted, size_t n, double p);

/* ------------------------------------------------------------------------- */
/* Descriptive statistics. x is never modified.                               */

mg_stats_status mg_stats_min(const double *x, size_t n, double *out);
mg_stats_status mg_stats_max(const double *x, size_t n, double *out);
mg_stats_status mg_stats_mean(const double *x, size_t n, double *out);
/* Sample standard deviation (denominator n - 1); TOO_FEW for n < 2. Exactly 0
 * when all values are equal. */
mg_stats_status mg_stats_sd(const double *x, size_t n, double *out);
/* Type 7 quantile, 0 <= p <= 1 (else INVALID); the median is p = 0.5. */
mg_stats_status mg_stats_quantile(const double *x, size_t n, double p, double *out);
mg_stats_status mg_stats_median(const double *x, size_t n, double *out);
/* Relative standard error of the mean, sd / (sqrt(n) |mean|). TOO_FEW for
 * n < 2; 0 when all values are equal; UNDEFINED when mean == 0 and sd > 0. */
mg_stats_status mg_stats_rse_mean(const double *x, size_t n, double *out);
/* Standard error of the median by McKean & Schrader (1984), distribution-free
 * and deterministic: c = round((n+1)/2 - z sqrt(n/4)) (at least 1),
 * se = (x_(n-c+1) - x_(c)) / (2 z), z = the 0.995 normal quantile. TOO_FEW for
 * n < 2. With heavy ties it can be 0 (the central order statistics coincide). */
mg_stats_status mg_stats_se_median(const double *x, size_t n, double *out);
/* se_median / |median|; 0 when se is 0; UNDEFINED when median == 0 < se. */
mg_stats_status mg_stats_rse_median(const double *x, size_t n, double *out);

/* Everything above from one sort. Fields that need n >= 2 (sd, rse_mean,
 * se_median, rse_median) or a non-zero centre are NaN when undefined; the
 * function still returns OK for n == 1. */
typedef struct {
  size_t n;
  double min, q1, median, q3, max; /* type 7 quantiles */
  double mean, sd;
  double rse_mean;   /* sd / (sqrt(n) |mean|) */
  double se_median;  /* McKean-Schrader */
  double rse_median; /* se_median / |median| */
} mg_stats_summary;

mg_stats_status mg_stats_summarize(const double *x, size_t n, mg_stats_summary *out);

/* ------------------------------------------------------------------------- */
/* Wilcoxon rank-sum / Mann-Whitney U test, one-sided.                        */
/* H0: A and B have the same distribution. H1: A is stochastically greater   */
/* (the default is slower). Large U means A tends to be larger.               */

/* Both sizes at most this: exact p-value (mode AUTO). Same rule as R's
 * wilcox.test (exact when both sizes < 50). */
#define MG_STATS_MWU_EXACT_MAX 49

typedef enum {
  MG_STATS_MWU_AUTO,  /* exact if both sizes <= MG_STATS_MWU_EXACT_MAX, else normal */
  MG_STATS_MWU_EXACT, /* exact whatever the sizes; TOO_LARGE past a memory/work cap */
  MG_STATS_MWU_NORMAL /* normal approximation, as R's wilcox.test(exact = FALSE) */
} mg_stats_mwu_mode;

typedef enum {
  MG_STATS_MWU_METHOD_EXACT,       /* no ties: exact null distribution of U */
  MG_STATS_MWU_METHOD_PERMUTATION, /* ties: exact permutation distribution of U
                                      given the tie pattern (midranks) */
  MG_STATS_MWU_METHOD_NORMAL       /* tie-corrected normal approximation with
                                      continuity correction */
} mg_stats_mwu_method;

/* "exact", "exact-ties" or "normal". */
const char *mg_stats_mwu_method_name(mg_stats_mwu_method m);

typedef struct {
  double u;      /* U of A: #(a > b) + #(a == b) / 2 over all pairs, in [0, na nb] */
  double mean_u; /* na nb / 2 */
  double sd_u;   /* tie-corrected standard deviation of U under H0 */
  double z;      /* (u - mean_u - 1/2) / sd_u, always computed (0 when sd_u == 0);
                    the p-value comes from it only when method == NORMAL */
  double p;      /* one-sided p-value P(U >= u | H0), in (0, 1] */
  double u_crit; /* smallest attainable U with P(U >= u_crit | H0) <= alpha
                    (NORMAL: mean_u + 1/2 + z_(1-alpha) sd_u); +INFINITY when no
                    attainable U is significant. p <= alpha iff u >= u_crit. */
  int ties;        /* the pooled sample has tied values */
  int significant; /* p <= alpha */
  mg_stats_mwu_method method;
} mg_stats_mwu_result;

/* 0 < alpha < 1. Identical-valued pooled samples give p = 1, z = 0. */
mg_stats_status mg_stats_mwu(const double *a, size_t na, const double *b, size_t nb,
                             mg_stats_mwu_mode mode, double alpha, mg_stats_mwu_result *out);

/* The exact null distribution without ties: P(U >= u) for sizes m, n >= 1
 * (u is rounded up to an integer; u <= 0 gives 1, u > m n gives 0). For
 * tables and reports. TOO_LARGE past the cap of MG_STATS_MWU_EXACT. */
mg_stats_status mg_stats_mwu_exact_sf(size_t m, size_t n, double u, double *p);

/* ------------------------------------------------------------------------- */
/* t tests, one-sided, H1: mean(A) > mean(B).                                 */

typedef struct {
  double diff;   /* mean(A) - mean(B) */
  double se;     /* standard error of diff */
  double t;      /* diff / se; +-INFINITY or 0 when se == 0 (see docs) */
  double df;     /* degrees of freedom */
  double p;      /* P(T_df >= t) */
  double t_crit; /* upper alpha quantile of T_df: significant iff t >= t_crit */
  int significant;
} mg_stats_ttest_result;

/* Welch: se^2 = va/na + vb/nb, df by Welch-Satterthwaite. Needs na, nb >= 2
 * (TOO_FEW). */
mg_stats_status mg_stats_welch(const double *a, size_t na, const double *b, size_t nb,
                               double alpha, mg_stats_ttest_result *out);

/* Student (pooled variance, df = na + nb - 2), the test of PGChecker (2023).
 * Needs na, nb >= 1 and na + nb >= 3 (TOO_FEW). */
mg_stats_status mg_stats_student(const double *a, size_t na, const double *b, size_t nb,
                                 double alpha, mg_stats_ttest_result *out);

/* ------------------------------------------------------------------------- */
/* Holm-Bonferroni step-down adjustment.                                      */

/* adj[i] = max over j with rank(j) <= rank(i) of min(1, (k - rank(j) + 1) p[j]),
 * ranks by ascending p (ties by index). adj may be the same array as p. Each p
 * must be in [0, 1] (NaN: NONFINITE, else INVALID); k == 0 is EMPTY. */
mg_stats_status mg_stats_holm(const double *p, size_t k, double *adj);

/* ------------------------------------------------------------------------- */
/* Effect size: slowdown of the default.                                      */

/* The bootstrap's law of log(ratio), as the decisions' interval reads it (mg_stats_ratio_interval,
 * docs/statistics.md "One decision per line"): a normal-equivalent scale for each end, taken from
 * the replicates' own quantiles, and the replicates' extremes. */
typedef struct {
  double down, up; /* scales below and above: the largest (m - q(t)) / z(t), resp. (q(1-t) - m) / z(t),
                      over the tails t the replicates resolve (MG_STATS_SPREAD_TAILS, each with at least
                      MG_STATS_SPREAD_BEYOND replicates beyond it), m their median, z(t) = Phi^-1(1 - t);
                      lse when none is resolved; +INFINITY when a replicate's ratio is 0 or infinite */
  double min, max; /* log of the smallest and of the largest replicate ratio */
  double reach;    /* 1 / resamples: below this tail no replicate says where the end lies, and an end
                      is never inside the most extreme replicate */
} mg_stats_logspread;

/* The tails the per-end scales are read at (0.159 is one standard deviation of a normal law), and
 * how many replicates must lie beyond a tail's quantile for it to be read. */
#define MG_STATS_SPREAD_TAILS {0.158655253931457, 0.10, 0.05, 0.025, 0.01, 0.005, 0.0025, 0.001}
#define MG_STATS_SPREAD_BEYOND 10

/* The symmetric spread of a normal law of log(ratio) with standard deviation lse, and no
 * replicate extremes (min -inf, max +inf, reach 0): the interval before the per-end scales. */
mg_stats_logspread mg_stats_logspread_normal(double lse);

typedef struct {
  double ratio;     /* median(A) / median(B) */
  double lo, hi;    /* percentile bootstrap interval */
  double level;     /* its nominal coverage, as given */
  size_t resamples; /* bootstrap replicates, as given */
  double lse;       /* standard deviation of the logarithms of the replicates' ratios: the bootstrap's
                       standard error of log(ratio), reported; +INFINITY when a replicate's ratio is
                       0 or infinite */
  mg_stats_logspread spread; /* the per-end scales of the verdicts' interval (mg_stats_ratio_interval) */
} mg_stats_slowdown_result;

/* ratio = median(A) / median(B); [lo, hi] = type 7 quantiles tail and
 * 1 - tail, tail = (1 - level)/2, of `resamples` bootstrap ratios (A and B resampled
 * independently with replacement). A replicate's medians are drawn without drawing the
 * resample: bisection of the sorted sample with binomial counts, O(log n) draws (slowdown.c),
 * from GSL's gsl_rng_mt19937 seeded with `seed` (0 means 4357, as in GSL). Same inputs, same
 * result with one GSL and libm. O(n log n + resamples log n). Needs 0 < level < 1,
 * resamples >= 1 (INVALID), every b > 0 and every a >= 0 (NOT_POSITIVE). */
mg_stats_status mg_stats_slowdown(const double *a, size_t na, const double *b, size_t nb,
                                  double level, size_t resamples, uint32_t seed,
                                  mg_stats_slowdown_result *out);

/* The same ratio (medians of the pooled samples) with a two-stage bootstrap
 * interval over launches, the unit of replication: per replicate, `launches`
 * launches drawn with replacement (the same for A and B), then within each drawn
 * launch its runtimes of A and of B drawn with replacement (slowdown.c; drawn by
 * bisection as above, O(launches log n) draws per replicate). Launch k's values are
 * a[a_off[k] .. a_off[k+1]) and b[b_off[k] .. b_off[k+1]); a_off[0] = b_off[0]
 * = 0, every launch has values of both (EMPTY otherwise). Deterministic for a
 * seed, like mg_stats_slowdown. */
mg_stats_status mg_stats_slowdown_launches(const double *a, const size_t *a_off, const double *b,
                                           const size_t *b_off, size_t launches, double level,
                                           size_t resamples, uint32_t seed, mg_stats_slowdown_result *out);

/* The interval of a ratio at one-sided tail probability `tail` on each end, on the log scale
 * (docs/statistics.md, "One decision per line"), each end on its own scale:
 *   lo = ratio exp(-z s->down), hi = ratio exp(z s->up), z = Phi^-1(1 - tail),
 * and, at a tail below s->reach, never inside the replicates: lo <= exp(s->min), hi >= exp(s->max).
 * p is the one-sided p of "ratio > 1" read off the same ends: Phi(-log(ratio) / s->down), at least
 * s->reach when a replicate lies at or below 1 (exp(s->min) <= 1), so that p <= tail exactly when
 * lo > 1 (down == 0: the lower end is the point, p 0 above 1 and 1 else). Needs ratio > 0,
 * down, up >= 0 (+INFINITY: that end 0 or +INFINITY, p 1 for down), min <= max, 0 <= reach <= 1
 * and 0 < tail < 1/2 (INVALID otherwise; NaN: NONFINITE). Any of lo, hi, p may be NULL. */
mg_stats_status mg_stats_ratio_interval(double ratio, const mg_stats_logspread *s, double tail, double *lo, double *hi,
                                        double *p);

/* ------------------------------------------------------------------------- */
/* Equivalence (TOST on a ratio interval, equivalence.c).                     */

typedef enum {
  MG_STATS_EQUIV_INSIDE,   /* [lo, hi] within [1/(1+margin), 1+margin]: shown equivalent */
  MG_STATS_EQUIV_OUTSIDE,  /* [lo, hi] entirely above 1+margin or below 1/(1+margin): shown different */
  MG_STATS_EQUIV_UNDECIDED /* neither */
} mg_stats_equiv;

/* "equivalent", "different", "undecided". */
const char *mg_stats_equiv_name(mg_stats_equiv e);

/* The two one-sided tests of "A and B equal within a relative margin" on an interval [lo, hi] of
 * the ratio median(A) / median(B) (e.g. mg_stats_slowdown's): INSIDE when lo >= 1/(1+margin) and
 * hi <= 1+margin, OUTSIDE when the interval lies wholly beyond one of them, else UNDECIDED. The
 * band is symmetric in the ratio's logarithm, so swapping A and B (the interval [1/hi, 1/lo])
 * gives the same answer. NaN anywhere: NONFINITE; margin < 0 or infinite, lo > hi or lo < 0:
 * INVALID. */
mg_stats_status mg_stats_equivalence(double lo, double hi, double margin, mg_stats_equiv *out);

#endif
