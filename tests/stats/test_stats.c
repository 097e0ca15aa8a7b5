/*
 * Unit tests of src/stats/ against reference values. Every expected number
 * says where it comes from: a published source (table, textbook example, R's
 * documented example output), a hand computation, or tests/stats/reference.py
 * (Python 3 standard library only, independent algorithms; run it to see
 * every value it produced, under the names quoted here as "ref: name").
 *
 * Usage: test_stats [group]   (no argument: all groups). CTest runs one test
 * per group (stats.<group>).
 */
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>

#include "common/test.h"
#include "stats/stats.h"
#include "stats/stats_internal.h"

#define N_OF(arr) (sizeof(arr) / sizeof((arr)[0]))

/* ---------------------------------------------------------------- data sets */
/* (identical copies are in reference.py) */

/* Runtimes in seconds, bimodal with an outlier. */
static const double DESC[] = {1.2e-5, 1.1e-5, 1.3e-5, 1.2e-5, 2.9e-5, 1.0e-5,
                              3.1e-5, 1.2e-5, 9.5e-5, 1.1e-5, 3.0e-5};
/* Hollander & Wolfe (1973), Nonparametric Statistical Methods, p. 69: permeability
 * constants; the example of R's ?wilcox.test. */
static const double HW_X[] = {0.80, 0.83, 1.89, 1.04, 1.45, 1.38, 1.91, 1.64, 0.73, 1.46};
static const double HW_Y[] = {1.15, 0.88, 0.90, 0.74, 1.21};
/* Student (1908) / R datasets::sleep: extra hours of sleep under drug 1 and drug 2. */
static const double SLEEP1[] = {0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0};
static const double SLEEP2[] = {1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4};
/* Small samples with ties (timer resolution 1 us). */
static const double TIE_A[] = {3e-6, 4e-6, 4e-6, 5e-6, 6e-6, 6e-6, 7e-6};
static const double TIE_B[] = {1e-6, 2e-6, 3e-6, 3e-6, 4e-6, 5e-6};

/* No ties: A odd, B even multiples of 1 us (reference.py: boundary()). */
static void boundary_data(size_t m, size_t n, double *a, double *b) {
  for (size_t i = 0; i < m; i++) a[i] = (double)(2 * (500 + 7 * i) + 1) * 1e-6;
  for (size_t j = 0; j < n; j++) b[j] = (double)(2 * (480 + 6 * j)) * 1e-6;
}

/* 3 vs 5000 without ties (reference.py: unequal()). */
static const double UNEQ_A[] = {17001e-9, 19001e-9, 19801e-9};
static double *uneq_b(void) {
  double *b = malloc(5000 * sizeof *b);
  for (size_t j = 0; j < 5000; j++) b[j] = (double)(2 * ((j * 7919) % 5000) + 10000) * 1e-9;
  return b;
}

/* ---------------------------------------------------------------- descriptive */

static void test_describe(void) {
  const size_t n = N_OF(DESC);
  double v;
  /* ref: desc.* (statistics module, exact rational arithmetic) */
  ASSERT_EQ_NAMED(mg_stats_min(DESC, n, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(v, 1e-05, 0);
  ASSERT_EQ_NAMED(mg_stats_max(DESC, n, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(v, 9.5e-05, 0);
  ASSERT_EQ_NAMED(mg_stats_mean(DESC, n, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_REL(v, 2.4181818181818182e-05, 1e-14);
  ASSERT_EQ_NAMED(mg_stats_sd(DESC, n, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_REL(v, 2.497526048640207e-05, 1e-13);
  ASSERT_EQ_NAMED(mg_stats_median(DESC, n, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(v, 1.2e-05, 0);
  ASSERT_EQ_NAMED(mg_stats_rse_mean(DESC, n, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_REL(v, 0.3114043912585893, 1e-13);

  /* Type 7 quantiles. ref: desc.q7(p) (Hyndman & Fan's definition written out) */
  static const double ps[] = {0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0};
  static const double qs[] = {1e-05, 1.1e-05, 1.15e-05, 1.2e-05, 2.95e-05, 3.1e-05, 9.5e-05};
  for (size_t i = 0; i < N_OF(ps); i++) {
    ASSERT_EQ_NAMED(mg_stats_quantile(DESC, n, ps[i], &v), MG_STATS_OK, mg_stats_strerror);
    ASSERT_REL(v, qs[i], 1e-14);
  }
  /* R: quantile(1:10) gives 25% = 3.25; quantile(1:10, 0.9) = 9.1 (type 7, by hand:
   * h = 9 p, 1 + 2.25 = 3.25 and 9 + 0.1 = 9.1). */
  double seq[10];
  for (int i = 0; i < 10; i++) seq[i] = 10 - i; /* unsorted on purpose */
  ASSERT_EQ_NAMED(mg_stats_quantile(seq, 10, 0.25, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(v, 3.25, 1e-15);
  ASSERT_EQ_NAMED(mg_stats_quantile(seq, 10, 0.9, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(v, 9.1, 1e-14);
  ASSERT_NEAR(seq[0], 10.0, 0); /* the caller's array is untouched */
  ASSERT_EQ_NAMED(mg_stats_median(seq, 10, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(v, 5.5, 0);

  /* McKean-Schrader standard error of the median. For 1..100, by hand:
   * c = round(50.5 - 2.5758293 * 5) = round(37.62) = 38, se = (x63 - x38) / (2 z)
   * = 25 / 5.1516586 = 4.8528060; ref: seq100.se_median, desc.se_median. */
  double big[100];
  for (int i = 0; i < 100; i++) big[i] = i + 1;
  ASSERT_EQ_NAMED(mg_stats_se_median(big, 100, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_REL(v, 4.852806039118305, 1e-13);
  ASSERT_EQ_NAMED(mg_stats_se_median(DESC, n, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_REL(v, 3.882244831294644e-06, 1e-13);
  ASSERT_EQ_NAMED(mg_stats_rse_median(DESC, n, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_REL(v, 0.323520402607887, 1e-13);

  mg_stats_summary s;
  ASSERT_EQ_NAMED(mg_stats_summarize(DESC, n, &s), MG_STATS_OK, mg_stats_strerror);
  ASSERT_EQ(s.n, n);
  ASSERT_NEAR(s.min, 1e-05, 0);
  ASSERT_NEAR(s.max, 9.5e-05, 0);
  ASSERT_REL(s.q1, 1.15e-05, 1e-14);
  ASSERT_NEAR(s.median, 1.2e-05, 0);
  ASSERT_REL(s.q3, 2.95e-05, 1e-14);
  ASSERT_REL(s.mean, 2.4181818181818182e-05, 1e-14);
  ASSERT_REL(s.sd, 2.497526048640207e-05, 1e-13);
  ASSERT_REL(s.rse_mean, 0.3114043912585893, 1e-13);
  ASSERT_REL(s.se_median, 3.882244831294644e-06, 1e-13);
  ASSERT_REL(s.rse_median, 0.323520402607887, 1e-13);
}

static void test_sorting(void) {
  double x[] = {3.0, -1.0, 2.0, 2.0, 0.5};
  double *s = NULL;
  ASSERT_EQ_NAMED(mg_stats_sorted_copy(x, 5, &s), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(s[0], -1.0, 0);
  ASSERT_NEAR(s[1], 0.5, 0);
  ASSERT_NEAR(s[4], 3.0, 0);
  ASSERT_NEAR(x[0], 3.0, 0); /* copy: input unchanged */
  ASSERT_NEAR(mg_stats_quantile_sorted(s, 5, 0.5), 2.0, 0);
  ASSERT_NEAR(mg_stats_quantile_sorted(s, 5, 0.0), -1.0, 0);
  ASSERT_NEAR(mg_stats_quantile_sorted(s, 5, 1.0), 3.0, 0);
  ASSERT_NEAR(mg_stats_quantile_sorted(s, 5, 0.125), -1.0 + 0.5 * 1.5, 1e-15); /* h = 0.5 */
  free(s);
  mg_stats_sort(x, 5); /* documented to sort in place */
  ASSERT_NEAR(x[0], -1.0, 0);
  ASSERT_NEAR(x[4], 3.0, 0);
  double one = 7.0;
  mg_stats_sort(&one, 1);
  mg_stats_sort(NULL, 0);
  ASSERT_NEAR(one, 7.0, 0);
}

static void test_describe_degenerate(void) {
  double v = -1;
  /* n = 1: extremes, mean, quantiles defined; spread statistics are TOO_FEW. */
  const double one[] = {4.2e-6};
  ASSERT_EQ_NAMED(mg_stats_median(one, 1, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(v, 4.2e-6, 0);
  ASSERT_EQ_NAMED(mg_stats_quantile(one, 1, 0.9, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(v, 4.2e-6, 0);
  ASSERT_EQ_NAMED(mg_stats_mean(one, 1, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(v, 4.2e-6, 0);
  ASSERT_EQ_NAMED(mg_stats_sd(one, 1, &v), MG_STATS_TOO_FEW, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_rse_mean(one, 1, &v), MG_STATS_TOO_FEW, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_se_median(one, 1, &v), MG_STATS_TOO_FEW, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_rse_median(one, 1, &v), MG_STATS_TOO_FEW, mg_stats_strerror);
  mg_stats_summary s;
  ASSERT_EQ_NAMED(mg_stats_summarize(one, 1, &s), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(s.median, 4.2e-6, 0);
  ASSERT_TRUE(isnan(s.sd) && isnan(s.rse_mean) && isnan(s.se_median) && isnan(s.rse_median));

  /* All values equal (0.1 is not exact in binary; Welford keeps mean == x, sd == 0). */
  const double same[] = {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1};
  ASSERT_EQ_NAMED(mg_stats_mean(same, 7, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(v, 0.1, 0);
  ASSERT_EQ_NAMED(mg_stats_sd(same, 7, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(v, 0.0, 0);
  ASSERT_EQ_NAMED(mg_stats_rse_mean(same, 7, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(v, 0.0, 0);
  ASSERT_EQ_NAMED(mg_stats_rse_median(same, 7, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(v, 0.0, 0);

  /* Zero centre: all zero is 0 (no spread); zero mean with spread is UNDEFINED. */
  const double zeros[] = {0.0, 0.0, 0.0};
  ASSERT_EQ_NAMED(mg_stats_rse_mean(zeros, 3, &v), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(v, 0.0, 0);
  const double sym[] = {-1.0, 0.0, 1.0};
  ASSERT_EQ_NAMED(mg_stats_rse_mean(sym, 3, &v), MG_STATS_UNDEFINED, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_rse_median(sym, 3, &v), MG_STATS_UNDEFINED, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_summarize(sym, 3, &s), MG_STATS_OK, mg_stats_strerror);
  ASSERT_TRUE(isnan(s.rse_mean) && isnan(s.rse_median) && s.sd == 1.0);

  /* Empty, NaN, inf, bad p, NULL. */
  ASSERT_EQ_NAMED(mg_stats_min(DESC, 0, &v), MG_STATS_EMPTY, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_mean(NULL, 0, &v), MG_STATS_EMPTY, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_summarize(DESC, 0, &s), MG_STATS_EMPTY, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_median(NULL, 3, &v), MG_STATS_INVALID, mg_stats_strerror);
  const double with_nan[] = {1.0, NAN, 2.0};
  const double with_inf[] = {1.0, 2.0, INFINITY};
  const double with_ninf[] = {-INFINITY, 2.0};
  ASSERT_EQ_NAMED(mg_stats_max(with_nan, 3, &v), MG_STATS_NONFINITE, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_median(with_inf, 3, &v), MG_STATS_NONFINITE, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_sd(with_ninf, 2, &v), MG_STATS_NONFINITE, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_summarize(with_nan, 3, &s), MG_STATS_NONFINITE, mg_stats_strerror);
  double *c = NULL;
  ASSERT_EQ_NAMED(mg_stats_sorted_copy(with_inf, 3, &c), MG_STATS_NONFINITE, mg_stats_strerror);
  ASSERT_TRUE(c == NULL);
  ASSERT_EQ_NAMED(mg_stats_quantile(DESC, 3, 1.5, &v), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_quantile(DESC, 3, -0.1, &v), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_quantile(DESC, 3, NAN, &v), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_mean(DESC, 3, NULL), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_TRUE(strcmp(mg_stats_strerror(MG_STATS_EMPTY), "empty sample") == 0);
  ASSERT_TRUE(strcmp(mg_stats_strerror((mg_stats_status)99), "unknown status") == 0);
}

/* ---------------------------------------------------------------- Mann-Whitney */

/* Critical values of U from the standard published table (one-tailed alpha = 0.05
 * and 0.025, i.e. two-tailed 0.10 and 0.05): reject when U <= c. E.g. the table of
 * Milton (1964), JASA 59:925-934, reprinted in most statistics textbooks; every
 * entry reproduced by reference.py (ref: crit_lower(...), exact integer counts). */
static const struct {
  size_t m, n;
  double alpha;
  int c; /* -1: no U is significant */
} MWU_TABLE[] = {
    {3, 3, 0.05, 0},   {4, 4, 0.05, 1},   {5, 5, 0.05, 4},   {6, 6, 0.05, 7},
    {7, 7, 0.05, 11},  {8, 8, 0.05, 15},  {9, 9, 0.05, 21},  {10, 10, 0.05, 27},
    {20, 20, 0.05, 138}, {5, 10, 0.05, 11}, {4, 12, 0.05, 9},
    {3, 3, 0.025, -1}, {4, 4, 0.025, 0},  {5, 5, 0.025, 2},  {6, 6, 0.025, 5},
    {7, 7, 0.025, 8},  {8, 8, 0.025, 13}, {9, 9, 0.025, 17}, {10, 10, 0.025, 23},
    {20, 20, 0.025, 127}, {5, 10, 0.025, 8}, {4, 12, 0.025, 7},
};

static void test_mwu_exact(void) {
  double p;
  /* The null distribution for m = n = 3, by hand from the 20 arrangements: counts of
   * U = 0..9 are 1 1 2 3 3 3 3 2 1 1 (Mann & Whitney 1947 tabulate the same
   * P(U <= u) = .05 .10 .20 .35 .50 ...). P(U >= u) is the mirror image. */
  static const double sf33[] = {20, 19, 18, 16, 13, 10, 7, 4, 2, 1};
  for (int u = 0; u <= 9; u++) {
    ASSERT_EQ_NAMED(mg_stats_mwu_exact_sf(3, 3, u, &p), MG_STATS_OK, mg_stats_strerror);
    ASSERT_NEAR(p, sf33[u] / 20.0, 1e-15);
  }
  ASSERT_EQ_NAMED(mg_stats_mwu_exact_sf(3, 3, 8.5, &p), MG_STATS_OK, mg_stats_strerror); /* rounded up to 9 */
  ASSERT_NEAR(p, 1.0 / 20.0, 1e-15);
  ASSERT_EQ_NAMED(mg_stats_mwu_exact_sf(3, 3, -1, &p), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(p, 1.0, 0);
  ASSERT_EQ_NAMED(mg_stats_mwu_exact_sf(3, 3, 10, &p), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(p, 0.0, 0);
  ASSERT_EQ_NAMED(mg_stats_mwu_exact_sf(0, 3, 1, &p), MG_STATS_EMPTY, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_mwu_exact_sf(3, 3, NAN, &p), MG_STATS_INVALID, mg_stats_strerror);

  /* Published table: P(U <= c) <= alpha < P(U <= c + 1), P(U <= c) = P(U >= mn - c). */
  for (size_t i = 0; i < N_OF(MWU_TABLE); i++) {
    size_t m = MWU_TABLE[i].m, n = MWU_TABLE[i].n;
    double mn = (double)(m * n), alpha = MWU_TABLE[i].alpha;
    int c = MWU_TABLE[i].c;
    if (c >= 0) {
      ASSERT_EQ_NAMED(mg_stats_mwu_exact_sf(m, n, mn - c, &p), MG_STATS_OK, mg_stats_strerror);
      ASSERT_TRUE(p <= alpha);
    }
    ASSERT_EQ_NAMED(mg_stats_mwu_exact_sf(m, n, mn - c - 1, &p), MG_STATS_OK, mg_stats_strerror);
    ASSERT_TRUE(p > alpha);
    /* The same critical value from the test itself (u_crit = mn - c). */
    double *a = malloc(m * sizeof *a), *b = malloc(n * sizeof *b);
    boundary_data(m, n, a, b);
    mg_stats_mwu_result r;
    ASSERT_EQ_NAMED(mg_stats_mwu(a, m, b, n, MG_STATS_MWU_AUTO, alpha, &r), MG_STATS_OK, mg_stats_strerror);
    ASSERT_EQ(r.method, MG_STATS_MWU_METHOD_EXACT);
    ASSERT_NEAR(r.u_crit, c >= 0 ? mn - c : INFINITY, 0);
    ASSERT_EQ(r.significant, r.u >= r.u_crit);
    free(a);
    free(b);
  }

  /* Hollander & Wolfe p. 69 = R's ?wilcox.test example:
   * wilcox.test(x, y, alternative = "g") gives W = 35, p-value = 0.1272 (exact).
   * ref: hw.p_exact = 0.1272061272061272 (also by brute-force enumeration). */
  mg_stats_mwu_result r;
  ASSERT_EQ_NAMED(mg_stats_mwu(HW_X, 10, HW_Y, 5, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.u, 35, 0);
  ASSERT_EQ(r.method, MG_STATS_MWU_METHOD_EXACT);
  ASSERT_EQ(r.ties, 0);
  ASSERT_NEAR(r.p, 0.1272, 5e-5);
  ASSERT_REL(r.p, 0.1272061272061272, 1e-13);
  ASSERT_EQ(r.significant, 0);
  ASSERT_NEAR(r.mean_u, 25, 0);
  /* Normal approximation as R's wilcox.test(exact = FALSE, correct = TRUE);
   * ref: hw.normal(U,z,p). */
  ASSERT_EQ_NAMED(mg_stats_mwu(HW_X, 10, HW_Y, 5, MG_STATS_MWU_NORMAL, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_EQ(r.method, MG_STATS_MWU_METHOD_NORMAL);
  ASSERT_REL(r.z, 1.1635076278220096, 1e-13);
  ASSERT_REL(r.p, 0.12231180256349167, 1e-12);
  /* The reverse direction: P(U_Y >= 15) = P(U_X <= 35) = 1 - P(U_X >= 36). */
  double p36;
  ASSERT_EQ_NAMED(mg_stats_mwu_exact_sf(10, 5, 36, &p36), MG_STATS_OK, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_mwu(HW_Y, 5, HW_X, 10, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.u, 15, 0);
  ASSERT_REL(r.p, 1.0 - p36, 1e-13);
}

static void test_mwu_ties(void) {
  mg_stats_mwu_result r;
  /* Ties, small samples: exact permutation distribution given the ties.
   * ref: tie.U = 35.5, tie.p_exact_perm (all C(13, 7) = 1716 splits enumerated). */
  ASSERT_EQ_NAMED(mg_stats_mwu(TIE_A, 7, TIE_B, 6, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.u, 35.5, 0);
  ASSERT_EQ(r.ties, 1);
  ASSERT_EQ(r.method, MG_STATS_MWU_METHOD_PERMUTATION);
  ASSERT_REL(r.p, 0.02156177156177156, 1e-12);
  ASSERT_EQ(r.significant, 1);
  ASSERT_TRUE(r.u >= r.u_crit);
  /* Swapped samples (selection of the smaller sample flips). ref: tie_swapped.p_exact_perm */
  ASSERT_EQ_NAMED(mg_stats_mwu(TIE_B, 6, TIE_A, 7, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.u, 42 - 35.5, 0);
  ASSERT_REL(r.p, 0.9889277389277389, 1e-12);
  ASSERT_EQ(r.significant, 0);
  /* Tie-corrected normal approximation: R's wilcox.test(exact = FALSE, correct = TRUE).
   * ref: tie.normal(U,z,p). */
  ASSERT_EQ_NAMED(mg_stats_mwu(TIE_A, 7, TIE_B, 6, MG_STATS_MWU_NORMAL, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_REL(r.z, 2.0280518608463853, 1e-13);
  ASSERT_REL(r.p, 0.02127747765319566, 1e-12);
  /* By hand: tie runs 3 us x3, 4 us x3, 5 us x2, 6 us x2, sum(t^3 - t) = 24+24+6+6 = 60. */
  ASSERT_REL(r.sd_u, sqrt(42.0 / 12.0 * (14.0 - 60.0 / 156.0)), 1e-14);

  /* All values equal: no evidence, p = 1 (never NaN), whatever the method. */
  const double c5[] = {2e-6, 2e-6, 2e-6, 2e-6, 2e-6};
  const mg_stats_mwu_mode modes[] = {MG_STATS_MWU_AUTO, MG_STATS_MWU_EXACT, MG_STATS_MWU_NORMAL};
  for (size_t i = 0; i < N_OF(modes); i++) {
    ASSERT_EQ_NAMED(mg_stats_mwu(c5, 5, c5, 3, modes[i], 0.05, &r), MG_STATS_OK, mg_stats_strerror);
    ASSERT_NEAR(r.u, 7.5, 0);
    ASSERT_NEAR(r.p, 1.0, 1e-15);
    ASSERT_NEAR(r.z, 0.0, 0);
    ASSERT_NEAR(r.sd_u, 0.0, 0);
    ASSERT_NEAR(r.u_crit, INFINITY, 0);
    ASSERT_EQ(r.significant, 0);
  }
  /* Two constant samples, A above B: U = mn; the permutation distribution puts
   * 1 / C(6, 3) = 0.05 on it (ref: allties_AgtB.p_perm). */
  const double twos[] = {2, 2, 2}, ones[] = {1, 1, 1};
  ASSERT_EQ_NAMED(mg_stats_mwu(twos, 3, ones, 3, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.u, 9, 0);
  ASSERT_REL(r.p, 0.05, 1e-14);
  ASSERT_EQ(r.method, MG_STATS_MWU_METHOD_PERMUTATION);

  /* Identical samples with spread: U = mn/2, not significant.
   * ref: identical.p_perm = 0.5873..., identical.normal p = 0.5422... */
  const double id[] = {1e-6, 2e-6, 3e-6, 4e-6, 5e-6};
  ASSERT_EQ_NAMED(mg_stats_mwu(id, 5, id, 5, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.u, 12.5, 0);
  ASSERT_REL(r.p, 0.5873015873015873, 1e-12);
  ASSERT_EQ(r.significant, 0);
  ASSERT_EQ_NAMED(mg_stats_mwu(id, 5, id, 5, MG_STATS_MWU_NORMAL, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_REL(r.p, 0.5422350133116141, 1e-12);
  ASSERT_REL(r.z, -0.10606601717798213, 1e-12);
}

static void test_mwu_boundary(void) {
  /* Both sizes <= 49: exact; one size 50: normal. ref: boundary(m,n).* */
  static const struct {
    size_t m, n;
    double u, p_exact, z, p_normal;
    mg_stats_mwu_method autom;
  } cases[] = {
      {49, 49, 1507, 0.014623936984781736, 2.17419439683443, 0.01484526950240501,
       MG_STATS_MWU_METHOD_EXACT},
      {50, 49, 1556, 0.010128505769179707, 2.313018171399544, 0.01036082004452271,
       MG_STATS_MWU_METHOD_NORMAL},
      {49, 50, 1516, 0.020841677123074172, 2.033076486510038, 0.021022398078047802,
       MG_STATS_MWU_METHOD_NORMAL},
  };
  for (size_t i = 0; i < N_OF(cases); i++) {
    double a[50], b[50];
    boundary_data(cases[i].m, cases[i].n, a, b);
    mg_stats_mwu_result r;
    ASSERT_EQ_NAMED(mg_stats_mwu(a, cases[i].m, b, cases[i].n, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
    ASSERT_EQ(r.method, cases[i].autom);
    ASSERT_NEAR(r.u, cases[i].u, 0);
    ASSERT_REL(r.z, cases[i].z, 1e-12);
    ASSERT_REL(r.p, cases[i].autom == MG_STATS_MWU_METHOD_EXACT ? cases[i].p_exact
                                                                : cases[i].p_normal,
               1e-11);
    ASSERT_EQ_NAMED(mg_stats_mwu(a, cases[i].m, b, cases[i].n, MG_STATS_MWU_EXACT, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
    ASSERT_EQ(r.method, MG_STATS_MWU_METHOD_EXACT);
    ASSERT_REL(r.p, cases[i].p_exact, 1e-11);
    ASSERT_EQ(r.significant, 1);
    ASSERT_TRUE(r.u >= r.u_crit && r.u_crit > r.mean_u);
    ASSERT_EQ_NAMED(mg_stats_mwu(a, cases[i].m, b, cases[i].n, MG_STATS_MWU_NORMAL, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
    ASSERT_EQ(r.method, MG_STATS_MWU_METHOD_NORMAL);
    ASSERT_REL(r.p, cases[i].p_normal, 1e-11);
    ASSERT_TRUE(r.u >= r.u_crit);
  }
  /* Forced exact on samples with ties uses the permutation distribution; without
   * ties the permutation and count recurrences must agree. Tie-free data with one
   * tie added changes p only a little. */
  double a[49], b[49];
  boundary_data(49, 49, a, b);
  b[0] = a[0]; /* one tie */
  mg_stats_mwu_result r;
  ASSERT_EQ_NAMED(mg_stats_mwu(a, 49, b, 49, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_EQ(r.method, MG_STATS_MWU_METHOD_PERMUTATION);
  ASSERT_TRUE(fabs(r.p - 0.0146) < 0.002);
}

static void test_mwu_degenerate(void) {
  mg_stats_mwu_result r;
  /* n = 1: U in {0..4}, uniform under H0. ref: n1.* (and by hand: 1/5, 3/5). */
  const double five[] = {5}, b4[] = {1, 2, 3, 4}, mid[] = {2.5};
  ASSERT_EQ_NAMED(mg_stats_mwu(five, 1, b4, 4, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.u, 4, 0);
  ASSERT_NEAR(r.p, 0.2, 1e-15);
  ASSERT_NEAR(r.u_crit, INFINITY, 0); /* even U = 4 has p = 0.2 > 0.05 */
  ASSERT_EQ(r.significant, 0);
  ASSERT_EQ_NAMED(mg_stats_mwu(mid, 1, b4, 4, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.u, 2, 0);
  ASSERT_NEAR(r.p, 0.6, 1e-15);
  const double two[] = {2}, one[] = {1};
  ASSERT_EQ_NAMED(mg_stats_mwu(two, 1, one, 1, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.p, 0.5, 0);
  ASSERT_EQ_NAMED(mg_stats_mwu(one, 1, two, 1, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.p, 1.0, 0);
  ASSERT_EQ_NAMED(mg_stats_mwu(two, 1, one, 1, MG_STATS_MWU_NORMAL, 0.05, &r), MG_STATS_OK, mg_stats_strerror); /* sd_u = 1/2 */
  ASSERT_NEAR(r.z, 0.0, 0);
  ASSERT_NEAR(r.p, 0.5, 1e-15);

  /* 3 vs 5000: normal approximation (AUTO); ref: unequal.normal(U,z,p). The exact
   * tail is 0.01234 (ref: unequal.p_exact): U/5000 is close to a sum of three
   * uniforms, so the approximation is already fair. Forced exact is affordable. */
  double *b = uneq_b();
  ASSERT_EQ_NAMED(mg_stats_mwu(UNEQ_A, 3, b, 5000, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_EQ(r.method, MG_STATS_MWU_METHOD_NORMAL);
  ASSERT_NEAR(r.u, 12903, 0);
  ASSERT_REL(r.z, 2.160136118294482, 1e-12);
  ASSERT_REL(r.p, 0.01538106684716371, 1e-11);
  ASSERT_EQ_NAMED(mg_stats_mwu(UNEQ_A, 3, b, 5000, MG_STATS_MWU_EXACT, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_EQ(r.method, MG_STATS_MWU_METHOD_EXACT);
  ASSERT_REL(r.p, 0.012341995774000643, 1e-10);
  ASSERT_EQ_NAMED(mg_stats_mwu(b, 5000, UNEQ_A, 3, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.u, 15000 - 12903, 0);
  ASSERT_TRUE(r.p > 0.98);
  /* Too large for the exact distribution: an error, not a silent fallback. */
  ASSERT_EQ_NAMED(mg_stats_mwu(b, 2000, b + 2000, 2000, MG_STATS_MWU_EXACT, 0.05, &r), MG_STATS_TOO_LARGE, mg_stats_strerror);
  double big_ties[4000];
  for (int i = 0; i < 4000; i++) big_ties[i] = (double)(i % 100);
  ASSERT_EQ_NAMED(mg_stats_mwu(big_ties, 2000, big_ties + 2000, 2000, MG_STATS_MWU_EXACT, 0.05, &r), MG_STATS_TOO_LARGE, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_mwu(big_ties, 2000, big_ties + 2000, 2000, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_EQ(r.method, MG_STATS_MWU_METHOD_NORMAL);
  ASSERT_NEAR(r.u, 2000.0 * 2000.0 / 2.0, 0); /* same multiset: U = mn/2 */
  free(b);

  /* Errors. */
  const double nanv[] = {1, NAN}, infv[] = {INFINITY, 1};
  ASSERT_EQ_NAMED(mg_stats_mwu(five, 0, b4, 4, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_EMPTY, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_mwu(five, 1, b4, 0, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_EMPTY, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_mwu(nanv, 2, b4, 4, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_NONFINITE, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_mwu(b4, 4, infv, 2, MG_STATS_MWU_AUTO, 0.05, &r), MG_STATS_NONFINITE, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_mwu(five, 1, b4, 4, MG_STATS_MWU_AUTO, 0.0, &r), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_mwu(five, 1, b4, 4, MG_STATS_MWU_AUTO, 1.0, &r), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_mwu(five, 1, b4, 4, (mg_stats_mwu_mode)7, 0.05, &r), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_mwu(five, 1, b4, 4, MG_STATS_MWU_AUTO, 0.05, NULL), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_TRUE(strcmp(mg_stats_mwu_method_name(MG_STATS_MWU_METHOD_PERMUTATION), "exact-ties") == 0);
}

/* ---------------------------------------------------------------- t tests */

static void test_ttest(void) {
  mg_stats_ttest_result r;
  /* Sleep data, A = drug 2, B = drug 1. R's documented output:
   * t.test(extra ~ group, data = sleep): t = -1.8608, df = 17.776, p-value = 0.07939;
   * with var.equal = TRUE: t = -1.8608, df = 18, p-value = 0.07919 (two-sided, so the
   * one-sided p for "drug 2 greater" is half). ref: sleep.* for more digits
   * (Simpson integration of the t density; mpmath's betainc agrees to 1e-15). */
  ASSERT_EQ_NAMED(mg_stats_welch(SLEEP2, 10, SLEEP1, 10, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.t, 1.8608, 5e-5);
  ASSERT_NEAR(r.df, 17.776, 5e-4);
  ASSERT_NEAR(2 * r.p, 0.07939, 5e-6);
  ASSERT_REL(r.t, 1.860813467486853, 1e-13);
  ASSERT_REL(r.df, 17.77647351617849, 1e-13);
  ASSERT_NEAR(r.p, 0.039697070093677456, 1e-10);
  ASSERT_NEAR(r.t_crit, 1.7352456537852958, 1e-9);
  ASSERT_NEAR(r.diff, 1.58, 1e-14);
  ASSERT_EQ(r.significant, 1);

  ASSERT_EQ_NAMED(mg_stats_student(SLEEP2, 10, SLEEP1, 10, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.t, 1.8608, 5e-5);
  ASSERT_NEAR(r.df, 18, 0);
  ASSERT_NEAR(2 * r.p, 0.07919, 5e-6);
  ASSERT_NEAR(r.p, 0.039593357107962135, 1e-10);
  /* Published t table, one-sided 0.05 (also PGChecker's table): t(18) = 1.734064. */
  ASSERT_NEAR(r.t_crit, 1.734064, 5e-7);
  ASSERT_EQ(r.significant, 1);

  /* Reverse direction: p = 1 - p. */
  ASSERT_EQ_NAMED(mg_stats_welch(SLEEP1, 10, SLEEP2, 10, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.p, 1 - 0.039697070093677456, 1e-10);
  ASSERT_EQ(r.significant, 0);

  /* Critical values against the published t table (one-sided 0.05 column):
   * df 3: 2.353363, df 10: 1.812461, df 24: 1.710882 (as in PGChecker's table). */
  const double x3[] = {1, 2, 3}, y2[] = {1, 2};
  ASSERT_EQ_NAMED(mg_stats_student(x3, 3, y2, 2, 0.05, &r), MG_STATS_OK, mg_stats_strerror); /* df = 3 */
  ASSERT_NEAR(r.t_crit, 2.353363, 5e-7);
  double x6[6] = {1, 2, 3, 4, 5, 7}, y6[6] = {1, 2, 3, 4, 5, 6}, x13[13], y13[13];
  ASSERT_EQ_NAMED(mg_stats_student(x6, 6, y6, 6, 0.05, &r), MG_STATS_OK, mg_stats_strerror); /* df = 10 */
  ASSERT_NEAR(r.t_crit, 1.812461, 5e-7);
  for (int i = 0; i < 13; i++) x13[i] = y13[i] = i;
  ASSERT_EQ_NAMED(mg_stats_student(x13, 13, y13, 13, 0.05, &r), MG_STATS_OK, mg_stats_strerror); /* df = 24 */
  ASSERT_NEAR(r.t_crit, 1.710882, 5e-7);
  ASSERT_NEAR(r.t, 0.0, 0);
  ASSERT_NEAR(r.p, 0.5, 1e-15);

  /* 3 vs 5000 (Welch, df ~ 2). ref: unequal.welch.* */
  double *b = uneq_b();
  ASSERT_EQ_NAMED(mg_stats_welch(UNEQ_A, 3, b, 5000, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_REL(r.t, 4.320671040552877, 1e-10);
  ASSERT_REL(r.df, 2.009628864620389, 1e-10);
  ASSERT_NEAR(r.p, 0.024595511058371988, 1e-10);
  ASSERT_NEAR(r.t_crit, 2.9104667410941634, 1e-9);
  ASSERT_EQ(r.significant, 1);
  free(b);
}

static void test_ttest_degenerate(void) {
  mg_stats_ttest_result r;
  /* n = 1: Welch needs a variance of each sample; Student pools B's.
   * ref: student n1 (t = sqrt(3), df = 3, p = 0.09084505690810790, by hand
   * sp^2 = 5/3, se^2 = sp^2 (1 + 1/4) = 25/12, t = 2.5 / sqrt(25/12) = sqrt(3)). */
  const double five[] = {5}, b4[] = {1, 2, 3, 4};
  ASSERT_EQ_NAMED(mg_stats_welch(five, 1, b4, 4, 0.05, &r), MG_STATS_TOO_FEW, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_welch(b4, 4, five, 1, 0.05, &r), MG_STATS_TOO_FEW, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_student(five, 1, b4, 4, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_REL(r.t, sqrt(3.0), 1e-14);
  ASSERT_NEAR(r.df, 3, 0);
  ASSERT_NEAR(r.p, 0.0908450569081079, 1e-10);
  ASSERT_NEAR(r.t_crit, 2.3533634348015564, 1e-9);
  ASSERT_EQ_NAMED(mg_stats_student(five, 1, five, 1, 0.05, &r), MG_STATS_TOO_FEW, mg_stats_strerror);

  /* Constant samples: se = 0, decided by the sign of the difference (documented). */
  const double c[] = {0.1, 0.1, 0.1, 0.1}, d[] = {0.2, 0.2, 0.2};
  ASSERT_EQ_NAMED(mg_stats_welch(c, 4, c, 3, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.t, 0, 0);
  ASSERT_NEAR(r.p, 1, 0);
  ASSERT_NEAR(r.df, 5, 0);
  ASSERT_EQ(r.significant, 0);
  ASSERT_TRUE(!isnan(r.t_crit));
  ASSERT_EQ_NAMED(mg_stats_student(c, 4, c, 3, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.p, 1, 0);
  ASSERT_EQ_NAMED(mg_stats_welch(d, 3, c, 4, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.t, INFINITY, 0);
  ASSERT_NEAR(r.p, 0, 0);
  ASSERT_EQ(r.significant, 1);
  ASSERT_EQ_NAMED(mg_stats_welch(c, 4, d, 3, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.t, -INFINITY, 0);
  ASSERT_NEAR(r.p, 1, 0);
  /* One constant sample: df = n - 1 of the other (Welch-Satterthwaite). */
  ASSERT_EQ_NAMED(mg_stats_welch(b4, 4, c, 4, 0.05, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_REL(r.df, 3.0, 1e-14);

  const double nanv[] = {1, NAN};
  ASSERT_EQ_NAMED(mg_stats_welch(c, 0, d, 3, 0.05, &r), MG_STATS_EMPTY, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_student(c, 4, nanv, 2, 0.05, &r), MG_STATS_NONFINITE, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_welch(c, 4, d, 3, 1.5, &r), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_welch(c, 4, d, 3, NAN, &r), MG_STATS_INVALID, mg_stats_strerror);
}

/* ---------------------------------------------------------------- Holm */

static void test_holm(void) {
  double adj[5];
  /* Wikipedia, "Holm-Bonferroni method", example: p = 0.01, 0.04, 0.03, 0.005 at
   * alpha = 0.05 rejects H1 and H4 only. Adjusted by hand (sorted .005 .01 .03 .04
   * times 4 3 2 1 = .02 .03 .06 .04, running max .02 .03 .06 .06); ref: holm(wikipedia). */
  const double p1[] = {0.01, 0.04, 0.03, 0.005};
  ASSERT_EQ_NAMED(mg_stats_holm(p1, 4, adj), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(adj[0], 0.03, 1e-15);
  ASSERT_NEAR(adj[1], 0.06, 1e-15);
  ASSERT_NEAR(adj[2], 0.06, 1e-15);
  ASSERT_NEAR(adj[3], 0.02, 1e-15);
  /* Capped at 1 and monotone. ref: holm(cap) */
  double p2[] = {0.5, 0.6, 0.01};
  ASSERT_EQ_NAMED(mg_stats_holm(p2, 3, p2), MG_STATS_OK, mg_stats_strerror); /* in place */
  ASSERT_NEAR(p2[0], 1.0, 0);
  ASSERT_NEAR(p2[1], 1.0, 0);
  ASSERT_NEAR(p2[2], 0.03, 1e-15);
  /* Tied p-values. ref: holm(ties) */
  const double p3[] = {0.02, 0.02, 0.04, 0.001, 0.3};
  ASSERT_EQ_NAMED(mg_stats_holm(p3, 5, adj), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(adj[0], 0.08, 1e-15);
  ASSERT_NEAR(adj[1], 0.08, 1e-15);
  ASSERT_NEAR(adj[2], 0.08, 1e-15);
  ASSERT_NEAR(adj[3], 0.005, 1e-15);
  ASSERT_NEAR(adj[4], 0.3, 1e-15);
  /* One test: unchanged. */
  const double p4[] = {0.042};
  ASSERT_EQ_NAMED(mg_stats_holm(p4, 1, adj), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(adj[0], 0.042, 0);

  const double bad[] = {0.1, 1.2}, nanp[] = {0.1, NAN}, neg[] = {-0.1};
  ASSERT_EQ_NAMED(mg_stats_holm(p1, 0, adj), MG_STATS_EMPTY, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_holm(bad, 2, adj), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_holm(neg, 1, adj), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_holm(nanp, 2, adj), MG_STATS_NONFINITE, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_holm(p1, 4, NULL), MG_STATS_INVALID, mg_stats_strerror);
}

/* ---------------------------------------------------------------- slowdown */

/* ---------- the verdicts' interval (mg_stats__logspread, mg_stats_ratio_interval) ----------
 * Expected values: `python3 tests/stats/reference.py` (spread.*: its own type 7 quantile and
 * statistics.NormalDist, no GSL), on the same constructed replicate sets. */

/* The replicate sets of reference.py's spread_set, sorted ascending. */
static void spread_set(const char *name, double *r) {
  for (int i = 0; i < 1000; i++) {
    double y;
    if (!strcmp(name, "skew")) /* 90 % near 3x, 10 % at 30x: a tail away from 1 */
      y = i < 900 ? log(3) + 0.05 * gsl_cdf_ugaussian_Pinv((i + 0.5) / 900) : log(30);
    else /* towards1: 3 % at 0.95x, a tail across 1 */
      y = i < 30 ? log(0.95) : log(3) + 0.05 * gsl_cdf_ugaussian_Pinv((i - 30 + 0.5) / 970);
    r[i] = exp(y);
  }
}

static double sd_of_logs(const double *r, size_t n) {
  double m = 0, s2 = 0;
  for (size_t i = 0; i < n; i++) m += log(r[i]) / (double)n;
  for (size_t i = 0; i < n; i++) s2 += (log(r[i]) - m) * (log(r[i]) - m);
  return sqrt(s2 / (double)(n - 1));
}

#define REL_NEAR(x, want, rel) ASSERT_TRUE(fabs((x) - (want)) <= (rel) * fabs(want))

static void test_ratio_interval(void) {
  const double fam = 0.05 / (318 * 12); /* check --quick's family at 12 looks */
  double lo, hi, p;
  TEST_CASE("normal spread: closed form (spread.normal)");
  mg_stats_logspread n1 = mg_stats_logspread_normal(0.1);
  ASSERT_EQ(mg_stats_ratio_interval(2.0, &n1, 0.025, &lo, &hi, &p), MG_STATS_OK);
  REL_NEAR(lo, 1.6440303903967781, 1e-9);
  REL_NEAR(hi, 2.433045047929206, 1e-9);
  REL_NEAR(p, 2.082422348700262e-12, 1e-6);
  ASSERT_EQ(mg_stats_ratio_interval(0.8, &n1, 0.01, &lo, &hi, &p), MG_STATS_OK);
  REL_NEAR(lo, 0.633954344658011, 1e-9);
  REL_NEAR(hi, 1.0095364207106277, 1e-9);
  REL_NEAR(p, 0.9871738526667516, 1e-9);

  TEST_CASE("a tail away from 1: the symmetric interval crossed 1, the per-end one does not (spread.skew)");
  double r[1000];
  spread_set("skew", r);
  double lse = sd_of_logs(r, 1000);
  REL_NEAR(lse, 0.6927463303864718, 1e-9);
  mg_stats_logspread sp = mg_stats__logspread(r, 1000, lse);
  REL_NEAR(sp.down, 0.05339350988081711, 1e-6);
  REL_NEAR(sp.up, 1.3956254411073916, 1e-9);
  REL_NEAR(sp.min, 0.9355739142470837, 1e-9);
  REL_NEAR(sp.max, 3.4011973816621555, 1e-12);
  REL_NEAR(sp.reach, 0.001, 1e-15);
  mg_stats_logspread sym = mg_stats_logspread_normal(lse);
  ASSERT_EQ(mg_stats_ratio_interval(3.0, &sym, fam, &lo, &hi, &p), MG_STATS_OK);
  REL_NEAR(lo, 0.16303285469214024, 1e-7); /* the old interval: across 1 */
  ASSERT_TRUE(lo < 1 && p > fam);
  ASSERT_EQ(mg_stats_ratio_interval(3.0, &sp, fam, &lo, &hi, &p), MG_STATS_OK);
  REL_NEAR(lo, 2.3968070972380118, 1e-6);
  REL_NEAR(hi, 1060.0207465104797, 1e-6);
  ASSERT_TRUE(lo > 1 && p <= fam && p < 1e-12);
  ASSERT_EQ(mg_stats_ratio_interval(3.0, &sp, 0.025, &lo, &hi, &p), MG_STATS_OK);
  REL_NEAR(lo, 2.701920812985791, 1e-6);
  REL_NEAR(hi, 46.24659729012288, 1e-6);

  TEST_CASE("a tail across 1: the symmetric interval claimed a violation, the per-end one does not (spread.towards1)");
  spread_set("towards1", r);
  lse = sd_of_logs(r, 1000);
  REL_NEAR(lse, 0.20233912368741558, 1e-9);
  sp = mg_stats__logspread(r, 1000, lse);
  REL_NEAR(sp.down, 0.585708202976229, 1e-9);
  REL_NEAR(sp.up, 0.05086361578828776, 1e-6);
  REL_NEAR(sp.min, -0.05129329438755058, 1e-9);
  sym = mg_stats_logspread_normal(lse);
  ASSERT_EQ(mg_stats_ratio_interval(3.0, &sym, fam, &lo, &hi, &p), MG_STATS_OK);
  REL_NEAR(lo, 1.2813912607149447, 1e-7); /* the old interval: above 1 with 3 % of replicates at 0.95 */
  ASSERT_TRUE(lo > 1);
  ASSERT_EQ(mg_stats_ratio_interval(3.0, &sp, fam, &lo, &hi, &p), MG_STATS_OK);
  REL_NEAR(lo, 0.25568777365113815, 1e-7);
  REL_NEAR(hi, 3.715268776218592, 1e-6);
  REL_NEAR(p, 0.03034831188535198, 1e-7);
  ASSERT_TRUE(lo < 1 && p > fam);
  ASSERT_EQ(mg_stats_ratio_interval(3.0, &sp, 0.025, &lo, &hi, &p), MG_STATS_OK);
  REL_NEAR(lo, 0.9518434560683697, 1e-7);
  REL_NEAR(hi, 3.3144879386801676, 1e-6);

  TEST_CASE("never inside the replicates below their reach; p read off the same end");
  mg_stats_logspread tight = {.down = 0.01, .up = 0.01, .min = log(0.99), .max = log(5), .reach = 0.001};
  ASSERT_EQ(mg_stats_ratio_interval(3.0, &tight, 1e-4, &lo, &hi, &p), MG_STATS_OK);
  ASSERT_TRUE(lo == 0.99 || fabs(lo - 0.99) < 1e-12);
  ASSERT_TRUE(fabs(hi - 5) < 1e-12 && p == 0.001);
  ASSERT_EQ(mg_stats_ratio_interval(3.0, &tight, 0.001, &lo, &hi, &p), MG_STATS_OK);
  ASSERT_TRUE(lo > 1 && p <= 0.001); /* at the reach the scales speak */
  int bad = 0, cases = 0;
  for (double x = 0.5; x < 2.0; x *= 1.01)
    for (double d = 0.0; d < 0.3; d += 0.01)
      for (double t = 1e-7; t < 0.4; t *= 3) {
        mg_stats_logspread g = {.down = d, .up = 2 * d, .min = log(x) - 0.7 * d * (1 + (cases % 5)), .max = log(x) + d,
                                .reach = 0.001};
        if (g.min > log(x)) g.min = log(x);
        cases++;
        if (mg_stats_ratio_interval(x, &g, t, &lo, &hi, &p) != MG_STATS_OK) bad++;
        else bad += (lo > 1) != (p <= t) || !(lo <= x && x <= hi);
      }
  ASSERT_TRUE(cases > 10000);
  ASSERT_EQ(bad, 0);

  TEST_CASE("bad arguments");
  ASSERT_EQ(mg_stats_ratio_interval(3.0, NULL, 0.01, &lo, &hi, &p), MG_STATS_INVALID);
  ASSERT_EQ(mg_stats_ratio_interval(NAN, &tight, 0.01, &lo, &hi, &p), MG_STATS_NONFINITE);
  ASSERT_EQ(mg_stats_ratio_interval(3.0, &tight, 0.5, &lo, &hi, &p), MG_STATS_INVALID);
  mg_stats_logspread inv = tight;
  inv.min = 2, inv.max = 1;
  ASSERT_EQ(mg_stats_ratio_interval(3.0, &inv, 0.01, &lo, &hi, &p), MG_STATS_INVALID);
  mg_stats_logspread inf = mg_stats_logspread_normal(INFINITY);
  ASSERT_EQ(mg_stats_ratio_interval(3.0, &inf, 0.01, &lo, &hi, &p), MG_STATS_OK);
  ASSERT_TRUE(lo == 0 && isinf(hi) && p == 1);
}

static void test_slowdown(void) {
  /* GSL's mt19937 is the reference MT19937: ISO C++ [rand.predef] requires the
   * 10000th output of std::mt19937 (seed 5489) to be 4123659995. */
  gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(g, 5489);
  unsigned long v = 0;
  for (int i = 0; i < 10000; i++) v = gsl_rng_get(g);
  ASSERT_EQ(v, 4123659995UL);
  /* Seed 0 is GSL's default 4357 (ref: mt19937(0) first, reference.py's own MT19937). */
  gsl_rng_set(g, 0);
  ASSERT_EQ(gsl_rng_get(g), 4293858116UL);
  gsl_rng_free(g);

  /* The tie case's interval is reference.py's (tie.slowdown: its own MT19937 and the plain
   * resampler that draws every value): the 2.5 % and 97.5 % points of this discrete replicate
   * distribution are the same whichever stream draws it. The library draws the same law by
   * bisection with binomial counts (slowdown.c; the law is checked by stats.bootstrap), so the
   * other two intervals are this implementation's own, pinned so that a change of the draw shows;
   * reference.py's plain draws give [0.90550, 1.95954] (hw.slowdown) and [1.12708, 1.32670]
   * (unequal.slowdown). */
  mg_stats_slowdown_result r;
  ASSERT_EQ_NAMED(mg_stats_slowdown(TIE_A, 7, TIE_B, 6, 0.95, 1000, 42, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_REL(r.ratio, 1.6666666666666667, 1e-15); /* 5 us / 3 us */
  ASSERT_REL(r.lo, 1.0, 1e-14);
  ASSERT_REL(r.hi, 3.3333333333333335, 1e-14);
  ASSERT_NEAR(r.level, 0.95, 0);
  ASSERT_EQ(r.resamples, 1000);
  ASSERT_EQ_NAMED(mg_stats_slowdown(HW_X, 10, HW_Y, 5, 0.90, 500, 1, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_REL(r.ratio, 1.5722222222222222, 1e-14);
  ASSERT_REL(r.lo, 0.90909090909090917, 1e-13);
  ASSERT_REL(r.hi, 1.8737815656565642, 1e-13);
  double *b = uneq_b();
  ASSERT_EQ_NAMED(mg_stats_slowdown(UNEQ_A, 3, b, 5000, 0.95, 200, 7, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_REL(r.ratio, 1.2668177878525235, 1e-14);
  ASSERT_REL(r.lo, 1.1247674131263488, 1e-13);
  ASSERT_REL(r.hi, 1.3284982112552486, 1e-13);
  free(b);

  /* Same seed, same interval; another seed, another one. */
  mg_stats_slowdown_result r2;
  ASSERT_EQ_NAMED(mg_stats_slowdown(HW_X, 10, HW_Y, 5, 0.90, 500, 1, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_slowdown(HW_X, 10, HW_Y, 5, 0.90, 500, 1, &r2), MG_STATS_OK, mg_stats_strerror);
  ASSERT_TRUE(r.lo == r2.lo && r.hi == r2.hi);
  ASSERT_EQ_NAMED(mg_stats_slowdown(HW_X, 10, HW_Y, 5, 0.90, 500, 2, &r2), MG_STATS_OK, mg_stats_strerror);
  ASSERT_TRUE(r.lo != r2.lo || r.hi != r2.hi);
  ASSERT_TRUE(r2.lo <= r2.ratio && r2.ratio <= r2.hi);
}

static void test_slowdown_degenerate(void) {
  mg_stats_slowdown_result r;
  /* Identical constant samples: ratio 1, interval [1, 1]. */
  const double c[] = {3e-6, 3e-6, 3e-6, 3e-6};
  ASSERT_EQ_NAMED(mg_stats_slowdown(c, 4, c, 2, 0.95, 100, 5, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.ratio, 1, 0);
  ASSERT_NEAR(r.lo, 1, 0);
  ASSERT_NEAR(r.hi, 1, 0);
  /* n = 1 each: every resample is the sample. */
  const double a1[] = {6e-6}, b1[] = {2e-6};
  ASSERT_EQ_NAMED(mg_stats_slowdown(a1, 1, b1, 1, 0.95, 10, 0, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_REL(r.ratio, 3, 1e-15);
  ASSERT_REL(r.lo, 3, 1e-15);
  ASSERT_REL(r.hi, 3, 1e-15);
  /* One replicate: lo = hi = that replicate. */
  ASSERT_EQ_NAMED(mg_stats_slowdown(HW_X, 10, HW_Y, 5, 0.95, 1, 3, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.lo, r.hi, 0);
  /* A zero runtime of the default is allowed (ratio 0). */
  const double z[] = {0.0, 0.0, 1e-6};
  ASSERT_EQ_NAMED(mg_stats_slowdown(z, 3, b1, 1, 0.95, 10, 0, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r.ratio, 0, 0);

  const double neg[] = {-1e-6, 1e-6}, zero[] = {0.0, 1e-6}, nanv[] = {NAN};
  ASSERT_EQ_NAMED(mg_stats_slowdown(c, 4, zero, 2, 0.95, 10, 0, &r), MG_STATS_NOT_POSITIVE, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_slowdown(neg, 2, c, 4, 0.95, 10, 0, &r), MG_STATS_NOT_POSITIVE, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_slowdown(c, 0, c, 4, 0.95, 10, 0, &r), MG_STATS_EMPTY, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_slowdown(c, 4, nanv, 1, 0.95, 10, 0, &r), MG_STATS_NONFINITE, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_slowdown(c, 4, c, 4, 1.0, 10, 0, &r), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_slowdown(c, 4, c, 4, 0.95, 0, 0, &r), MG_STATS_INVALID, mg_stats_strerror);
}

/* ---------------------------------------------------------------- equivalence */

/* TOST on a ratio interval, margin 5 %: the band is [1/1.05, 1.05] = [0.95238..., 1.05]. */
static void test_equivalence(void) {
  mg_stats_equiv e;
#define EQUIV(lo, hi, m, want)                                                                   \
  do {                                                                                           \
    ASSERT_EQ_NAMED(mg_stats_equivalence(lo, hi, m, &e), MG_STATS_OK, mg_stats_strerror);        \
    ASSERT_EQ_NAMED(e, want, mg_stats_equiv_name);                                               \
  } while (0)
  EQUIV(0.98, 1.03, 0.05, MG_STATS_EQUIV_INSIDE);
  EQUIV(1.0, 1.0, 0.0, MG_STATS_EQUIV_INSIDE);            /* margin 0: only [1, 1] */
  EQUIV(1 / 1.05, 1.05, 0.05, MG_STATS_EQUIV_INSIDE);     /* the band's own ends are inside */
  EQUIV(0.95, 1.03, 0.05, MG_STATS_EQUIV_UNDECIDED);      /* 0.95 < 1/1.05: not shown fast enough */
  EQUIV(0.98, 1.051, 0.05, MG_STATS_EQUIV_UNDECIDED);
  EQUIV(0.5, 2.0, 0.05, MG_STATS_EQUIV_UNDECIDED);        /* a wide interval decides nothing */
  EQUIV(1.2, 1.4, 0.05, MG_STATS_EQUIV_OUTSIDE);          /* A 30 % slower: shown different */
  EQUIV(0.70, 0.80, 0.05, MG_STATS_EQUIV_OUTSIDE);        /* B 30 % slower */
  EQUIV(1.04, 1.06, 0.05, MG_STATS_EQUIV_UNDECIDED);      /* straddles 1.05 */
  /* symmetric: A/B in [lo, hi] and B/A in [1/hi, 1/lo] give the same answer */
  const double ivs[][2] = {{0.96, 1.04}, {0.9, 1.02}, {1.1, 1.3}, {0.953, 1.049}, {0.6, 0.9}};
  for (size_t i = 0; i < N_OF(ivs); i++) {
    mg_stats_equiv a, b;
    ASSERT_EQ_NAMED(mg_stats_equivalence(ivs[i][0], ivs[i][1], 0.05, &a), MG_STATS_OK, mg_stats_strerror);
    ASSERT_EQ_NAMED(mg_stats_equivalence(1 / ivs[i][1], 1 / ivs[i][0], 0.05, &b), MG_STATS_OK, mg_stats_strerror);
    ASSERT_EQ_NAMED(a, b, mg_stats_equiv_name);
  }
  ASSERT_EQ_NAMED(mg_stats_equivalence(NAN, 1, 0.05, &e), MG_STATS_NONFINITE, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_equivalence(1, 1, -0.1, &e), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_equivalence(1.1, 1.0, 0.05, &e), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_equivalence(-1, 1.0, 0.05, &e), MG_STATS_INVALID, mg_stats_strerror);
#undef EQUIV
}

/* ---------------------------------------------------------------- threads */

/* Thread safety: the same computations in 4 threads at once give the results of
 * a single thread, bit for bit. */
typedef struct {
  mg_stats_mwu_result perm, exact;
  mg_stats_slowdown_result sd;
  mg_stats_ttest_result welch;
  int ok;
} mg_thread_out;

static void *thread_body(void *arg) {
  mg_thread_out *o = arg;
  double a[49], b[49];
  boundary_data(49, 49, a, b);
  o->ok = 1;
  for (int rep = 0; rep < 20 && o->ok; rep++) {
    o->ok = mg_stats_mwu(TIE_A, 7, TIE_B, 6, MG_STATS_MWU_AUTO, 0.05, &o->perm) == MG_STATS_OK &&
            mg_stats_mwu(a, 49, b, 49, MG_STATS_MWU_AUTO, 0.05, &o->exact) == MG_STATS_OK &&
            mg_stats_slowdown(HW_X, 10, HW_Y, 5, 0.9, 300, 11, &o->sd) == MG_STATS_OK &&
            mg_stats_welch(SLEEP2, 10, SLEEP1, 10, 0.05, &o->welch) == MG_STATS_OK;
  }
  return NULL;
}

static void test_threads(void) {
  mg_thread_out one, many[4];
  thread_body(&one);
  ASSERT_TRUE(one.ok);
  pthread_t th[4];
  for (int i = 0; i < 4; i++) pthread_create(&th[i], NULL, thread_body, &many[i]);
  for (int i = 0; i < 4; i++) pthread_join(th[i], NULL);
  for (int i = 0; i < 4; i++) {
    ASSERT_TRUE(many[i].ok);
    ASSERT_NEAR(many[i].perm.p, one.perm.p, 0);
    ASSERT_NEAR(many[i].exact.p, one.exact.p, 0);
    ASSERT_NEAR(many[i].sd.lo, one.sd.lo, 0);
    ASSERT_NEAR(many[i].sd.hi, one.sd.hi, 0);
    ASSERT_NEAR(many[i].welch.p, one.welch.p, 0);
  }
}

/* ---------------------------------------------------------------- runner */

static const struct {
  const char *name;
  void (*fn)(void);
} GROUPS[] = {
    {"describe", test_describe},
    {"sorting", test_sorting},
    {"describe_degenerate", test_describe_degenerate},
    {"mwu_exact", test_mwu_exact},
    {"mwu_ties", test_mwu_ties},
    {"mwu_boundary", test_mwu_boundary},
    {"mwu_degenerate", test_mwu_degenerate},
    {"ttest", test_ttest},
    {"ttest_degenerate", test_ttest_degenerate},
    {"holm", test_holm},
    {"slowdown", test_slowdown},
    {"ratio_interval", test_ratio_interval},
    {"slowdown_degenerate", test_slowdown_degenerate},
    {"equivalence", test_equivalence},
    {"threads", test_threads},
};

int main(int argc, char **argv) {
  int ran = 0;
  for (size_t i = 0; i < N_OF(GROUPS); i++) {
    if (argc > 1 && strcmp(argv[1], GROUPS[i].name) != 0) continue;
    int before = mg_test_failures;
    TEST_CASE(GROUPS[i].name);
    GROUPS[i].fn();
    printf("%-22s %s\n", GROUPS[i].name, mg_test_failures == before ? "ok" : "FAILED");
    ran++;
  }
  if (!ran) {
    fprintf(stderr, "test_stats: no test group named '%s'\n", argv[1]);
    return 2;
  }
  return mg_test_summary("test_stats");
}
