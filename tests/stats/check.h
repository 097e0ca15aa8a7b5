/*
 * A minimal test harness for the unit tests of src/stats/: assertions that
 * print both sides and keep going, so one run shows every failure.
 * A test program counts failures in mg_check_failures and exits non-zero.
 */
#ifndef MG_TESTS_STATS_CHECK_H
#define MG_TESTS_STATS_CHECK_H

#include <math.h>
#include <stdio.h>

#include "stats/stats.h"

extern int mg_check_failures;

#define MG_FAIL_HEAD(what) fprintf(stderr, "%s:%d: %s failed\n", __FILE__, __LINE__, what)

/* |actual - expected| <= tol (equal infinities pass). */
#define ASSERT_NEAR(actual, expected, tol)                                                       \
  do {                                                                                           \
    double a_ = (actual), e_ = (expected), t_ = (tol);                                           \
    if (!(a_ == e_ || fabs(a_ - e_) <= t_)) {                                                    \
      MG_FAIL_HEAD("ASSERT_NEAR(" #actual ", " #expected ")");                                   \
      fprintf(stderr, "  actual   %.17g\n  expected %.17g\n  |diff| %.3g > tol %.3g\n", a_, e_,  \
              fabs(a_ - e_), t_);                                                                \
      mg_check_failures++;                                                                       \
    }                                                                                            \
  } while (0)

/* |actual - expected| <= rtol |expected|. */
#define ASSERT_REL(actual, expected, rtol)                                                       \
  do {                                                                                           \
    double a_ = (actual), e_ = (expected), t_ = (rtol);                                          \
    if (!(a_ == e_ || fabs(a_ - e_) <= t_ * fabs(e_))) {                                         \
      MG_FAIL_HEAD("ASSERT_REL(" #actual ", " #expected ")");                                    \
      fprintf(stderr, "  actual   %.17g\n  expected %.17g\n  rel diff %.3g > rtol %.3g\n", a_,   \
              e_, fabs(a_ - e_) / fabs(e_), t_);                                                 \
      mg_check_failures++;                                                                       \
    }                                                                                            \
  } while (0)

#define ASSERT_EQ_INT(actual, expected)                                                          \
  do {                                                                                           \
    long long a_ = (long long)(actual), e_ = (long long)(expected);                              \
    if (a_ != e_) {                                                                              \
      MG_FAIL_HEAD("ASSERT_EQ_INT(" #actual ", " #expected ")");                                 \
      fprintf(stderr, "  actual   %lld\n  expected %lld\n", a_, e_);                             \
      mg_check_failures++;                                                                       \
    }                                                                                            \
  } while (0)

#define ASSERT_STATUS(call, expected)                                                            \
  do {                                                                                           \
    mg_stats_status a_ = (call), e_ = (expected);                                                \
    if (a_ != e_) {                                                                              \
      MG_FAIL_HEAD("ASSERT_STATUS(" #call ")");                                                  \
      fprintf(stderr, "  actual   %d (%s)\n  expected %d (%s)\n", (int)a_,                      \
              mg_stats_strerror(a_), (int)e_, mg_stats_strerror(e_));                            \
      mg_check_failures++;                                                                       \
    }                                                                                            \
  } while (0)

#define ASSERT_OK(call) ASSERT_STATUS(call, MG_STATS_OK)

#define ASSERT_TRUE(cond)                                                                        \
  do {                                                                                           \
    if (!(cond)) {                                                                               \
      MG_FAIL_HEAD("ASSERT_TRUE(" #cond ")");                                                    \
      mg_check_failures++;                                                                       \
    }                                                                                            \
  } while (0)

#define N_OF(arr) (sizeof(arr) / sizeof((arr)[0]))

#endif
