/*
 * Unit tests of mg_stats_slowdown_launches (src/stats/slowdown.c): the
 * two-stage bootstrap over launches behind the replicated verdicts of
 * `mpiguide check --launches` (docs/statistics.md). Known answers by
 * construction: one launch agrees with the ordinary bootstrap; launches that
 * disagree widen the interval to cover them; a seed gives one interval.
 */
#include <stdio.h>
#include <string.h>

#include "common/test.h"
#include "stats/stats.h"

#define N_OF(arr) (sizeof(arr) / sizeof((arr)[0]))

/* Launch k: n values of A around ra[k] and of B around 1, spread +-0.5 %. */
static void make(size_t L, size_t n, const double *ra, double *a, size_t *aoff, double *b, size_t *boff) {
  aoff[0] = boff[0] = 0;
  for (size_t k = 0; k < L; k++) {
    for (size_t i = 0; i < n; i++) {
      double wiggle = 1 + 0.01 * ((double)((i * 37 + k * 11) % 101) / 100.0 - 0.5);
      a[k * n + i] = ra[k] * wiggle;
      b[k * n + i] = 1.0 * wiggle;
    }
    aoff[k + 1] = boff[k + 1] = (k + 1) * n;
  }
}

static void test_one_launch(void) {
  double a[60], b[60], ra[1] = {1.3};
  size_t aoff[2], boff[2];
  make(1, 60, ra, a, aoff, b, boff);
  mg_stats_slowdown_result one, two;
  ASSERT_EQ_NAMED(mg_stats_slowdown_launches(a, aoff, b, boff, 1, 0.95, 2000, 9, &one), MG_STATS_OK, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_slowdown(a, 60, b, 60, 0.95, 2000, 9, &two), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(one.ratio, two.ratio, 1e-12); /* same point estimate */
  ASSERT_REL(one.lo, two.lo, 0.01);         /* same distribution, other draws */
  ASSERT_REL(one.hi, two.hi, 0.01);
  ASSERT_TRUE(one.lo > 1.25 && one.hi < 1.35);
}

static void test_launches_disagree(void) {
  /* The default is 1.0x, 1.5x and 2.0x the mock-up in three launches: pooled, the ratio of
   * medians is 1.5 and the within-launch bootstrap is sure of it; across launches it is not. */
  enum { L = 3, N = 50 };
  double a[L * N], b[L * N], ra[L] = {1.0, 1.5, 2.0};
  size_t aoff[L + 1], boff[L + 1];
  make(L, N, ra, a, aoff, b, boff);
  mg_stats_slowdown_result pooled, hier;
  ASSERT_EQ_NAMED(mg_stats_slowdown(a, L * N, b, L * N, 0.95, 2000, 3, &pooled), MG_STATS_OK, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_slowdown_launches(a, aoff, b, boff, L, 0.95, 2000, 3, &hier), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(hier.ratio, pooled.ratio, 1e-12);
  ASSERT_TRUE(pooled.lo > 1.4);            /* narrow: launches treated as one sample */
  ASSERT_TRUE(hier.lo < 1.1 && hier.hi > 1.9); /* wide: it covers what the launches showed */
}

static void test_launches_agree(void) {
  enum { L = 4, N = 30 };
  double a[L * N], b[L * N], ra[L] = {1.6, 1.6, 1.6, 1.6};
  size_t aoff[L + 1], boff[L + 1];
  make(L, N, ra, a, aoff, b, boff);
  mg_stats_slowdown_result r, r2;
  ASSERT_EQ_NAMED(mg_stats_slowdown_launches(a, aoff, b, boff, L, 0.95, 1000, 5, &r), MG_STATS_OK, mg_stats_strerror);
  ASSERT_TRUE(r.lo > 1.55 && r.hi < 1.65); /* agreeing launches: a narrow interval */
  ASSERT_EQ_NAMED(mg_stats_slowdown_launches(a, aoff, b, boff, L, 0.95, 1000, 5, &r2), MG_STATS_OK, mg_stats_strerror);
  ASSERT_NEAR(r2.lo, r.lo, 0);             /* one seed, one interval */
  ASSERT_NEAR(r2.hi, r.hi, 0);
}

static void test_launches_invalid(void) {
  double a[4] = {1, 2, 3, 4}, b[4] = {1, 2, 3, 4}, z[4] = {1, 0, 3, 4};
  size_t off[3] = {0, 2, 4}, empty[3] = {0, 2, 2}, bad0[3] = {1, 2, 4};
  mg_stats_slowdown_result r;
  ASSERT_EQ_NAMED(mg_stats_slowdown_launches(a, empty, b, off, 2, 0.95, 10, 1, &r), MG_STATS_EMPTY, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_slowdown_launches(a, bad0, b, off, 2, 0.95, 10, 1, &r), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_slowdown_launches(a, off, z, off, 2, 0.95, 10, 1, &r), MG_STATS_NOT_POSITIVE, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_slowdown_launches(a, off, b, off, 0, 0.95, 10, 1, &r), MG_STATS_INVALID, mg_stats_strerror);
  ASSERT_EQ_NAMED(mg_stats_slowdown_launches(a, off, b, off, 2, 1.5, 10, 1, &r), MG_STATS_INVALID, mg_stats_strerror);
}

int main(void) {
  struct {
    const char *name;
    void (*fn)(void);
  } groups[] = {{"one_launch", test_one_launch},
                {"launches_disagree", test_launches_disagree},
                {"launches_agree", test_launches_agree},
                {"launches_invalid", test_launches_invalid}};
  for (size_t i = 0; i < N_OF(groups); i++) {
    TEST_CASE(groups[i].name);
    groups[i].fn();
  }
  return mg_test_summary("test_stats_launches");
}
