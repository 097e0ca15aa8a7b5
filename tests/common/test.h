/*
 * The assertions of every C test under tests/. Each ASSERT_* counts one check; a failed one prints
 *
 *   file:line: [case] ASSERT_EQ(a, b): 3 != 4
 *
 * ("[case]" once TEST_CASE named one) with both sides, counts the failure and goes on, so one run shows every failure. TEST_CASE("name")
 * names what is being tested; main() ends with `return mg_test_summary("prog");`, which prints
 * 'prog: N passed, N failed' and returns the exit status. MPI programs use common/test_mpi.h on top
 * of this (a rank in every message, one verdict over all ranks).
 *
 * The counters are atomic, so checks may run in several threads at once (each failure is one
 * write, lines do not mix). mg_test_max_shown > 0 prints only the first that many failures (a
 * program that checks every element of large buffers); the rest are counted.
 *
 * One test program is one translation unit: the counters are static.
 */
#ifndef MG_TESTS_COMMON_TEST_H
#define MG_TESTS_COMMON_TEST_H

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int mg_test_checks, mg_test_failures;
static const char *mg_test_case = "";
static int mg_test_rank = -1;   /* >= 0: "rank N: " in every message (common/test_mpi.h sets it) */
static int mg_test_max_shown;   /* > 0: print only the first that many failures */

#define TEST_CASE(name) (mg_test_case = (name))

__attribute__((format(printf, 3, 4))) static inline void mg_test_fail_(const char *file, int line,
                                                                        const char *fmt, ...) {
  __atomic_fetch_add(&mg_test_checks, 1, __ATOMIC_RELAXED);
  int n = __atomic_add_fetch(&mg_test_failures, 1, __ATOMIC_RELAXED);
  if (mg_test_max_shown > 0 && n > mg_test_max_shown) return;
  char msg[1024], rank[32] = "", tcase[300] = "";
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (mg_test_rank >= 0) snprintf(rank, sizeof rank, "rank %d: ", mg_test_rank);
  if (mg_test_case[0]) snprintf(tcase, sizeof tcase, "[%s] ", mg_test_case);
  fprintf(stderr, "%s:%d: %s%s%s%s\n", file, line, rank, tcase, msg,
          n == mg_test_max_shown ? " (further failures counted, not shown)" : "");
}

/* Records a failure with a printf-style message (for checks whose condition is an if of its own). */
#define TEST_FAIL(...) mg_test_fail_(__FILE__, __LINE__, __VA_ARGS__)

#define MG_TEST_CHECK_(ok, ...)                                                                              \
  do {                                                                                                       \
    if (ok)                                                                                                  \
      __atomic_fetch_add(&mg_test_checks, 1, __ATOMIC_RELAXED);                                              \
    else                                                                                                     \
      TEST_FAIL(__VA_ARGS__);                                                                                \
  } while (0)

#define ASSERT_TRUE(cond) MG_TEST_CHECK_((cond) ? 1 : 0, "ASSERT_TRUE(%s)", #cond)

/* ASSERT_TRUE with a printf-style message that says what was seen. */
#define ASSERT_MSG(cond, ...) MG_TEST_CHECK_((cond) ? 1 : 0, __VA_ARGS__)

#define ASSERT_EQ(a, b)                                                                                      \
  do {                                                                                                       \
    long long a_ = (long long)(a), b_ = (long long)(b);                                                      \
    MG_TEST_CHECK_(a_ == b_, "ASSERT_EQ(%s, %s): %lld != %lld", #a, #b, a_, b_);                             \
  } while (0)

#define ASSERT_NE(a, b)                                                                                      \
  do {                                                                                                       \
    long long a_ = (long long)(a), b_ = (long long)(b);                                                      \
    MG_TEST_CHECK_(a_ != b_, "ASSERT_NE(%s, %s): both %lld", #a, #b, a_);                                    \
  } while (0)

#define ASSERT_EQ_U(a, b)                                                                                    \
  do {                                                                                                       \
    unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b);                           \
    MG_TEST_CHECK_(a_ == b_, "ASSERT_EQ_U(%s, %s): %llu != %llu", #a, #b, a_, b_);                           \
  } while (0)

#define ASSERT_NE_U(a, b)                                                                                    \
  do {                                                                                                       \
    unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b);                           \
    MG_TEST_CHECK_(a_ != b_, "ASSERT_NE_U(%s, %s): both %llu", #a, #b, a_);                                  \
  } while (0)

/* a == b for an enum whose values name_of (int -> const char *) names, e.g. a status. */
#define ASSERT_EQ_NAMED(a, b, name_of)                                                                       \
  do {                                                                                                       \
    int a_ = (int)(a), b_ = (int)(b);                                                                        \
    MG_TEST_CHECK_(a_ == b_, "ASSERT_EQ_NAMED(%s, %s): %d (%s) != %d (%s)", #a, #b, a_, name_of(a_), b_,     \
                   name_of(b_));                                                                             \
  } while (0)

/* |a - b| <= tol; equal values pass (so do equal infinities), NaN fails. */
#define ASSERT_NEAR(a, b, tol)                                                                               \
  do {                                                                                                       \
    double a_ = (a), b_ = (b), t_ = (tol);                                                                   \
    MG_TEST_CHECK_(a_ == b_ || fabs(a_ - b_) <= t_, "ASSERT_NEAR(%s, %s): %.17g != %.17g, |diff| %.3g > %.3g", \
                   #a, #b, a_, b_, fabs(a_ - b_), t_);                                                       \
  } while (0)

/* |a - b| <= rtol |b|: b is the expected value. */
#define ASSERT_REL(a, b, rtol)                                                                               \
  do {                                                                                                       \
    double a_ = (a), b_ = (b), t_ = (rtol);                                                                  \
    MG_TEST_CHECK_(a_ == b_ || fabs(a_ - b_) <= t_ * fabs(b_),                                               \
                   "ASSERT_REL(%s, %s): %.17g != %.17g, rel diff %.3g > %.3g", #a, #b, a_, b_,               \
                   fabs(a_ - b_) / fabs(b_), t_);                                                            \
  } while (0)

#define ASSERT_STR_EQ(a, b)                                                                                  \
  do {                                                                                                       \
    const char *a_ = (a), *b_ = (b);                                                                         \
    MG_TEST_CHECK_(a_ && b_ && strcmp(a_, b_) == 0, "ASSERT_STR_EQ(%s, %s):\n  got:  \"%s\"\n  want: \"%s\"", \
                   #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)");                                          \
  } while (0)

#define ASSERT_CONTAINS(hay, needle)                                                                         \
  do {                                                                                                       \
    const char *h_ = (hay), *n_ = (needle);                                                                  \
    MG_TEST_CHECK_(h_ && strstr(h_, n_), "ASSERT_CONTAINS(%s, %s): \"%s\" does not contain \"%s\"", #hay,    \
                   #needle, h_ ? h_ : "(null)", n_);                                                         \
  } while (0)

/* The final line; returns the exit status of the program (1 when a check failed). */
static inline int mg_test_summary(const char *prog) {
  fprintf(mg_test_failures ? stderr : stdout, "%s: %d passed, %d failed\n", prog,
          mg_test_checks - mg_test_failures, mg_test_failures);
  return mg_test_failures ? 1 : 0;
}

#endif
