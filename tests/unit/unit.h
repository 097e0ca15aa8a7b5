/*
 * A tiny test harness for the unit tests: ASSERT_* macros that print the
 * expression, both values and the case being tested, count failures and go on
 * (so one run shows every failure). main() ends with `return unit_report();`.
 */
#ifndef MG_UNIT_H
#define MG_UNIT_H

#include <stdio.h>
#include <string.h>

static int unit_checks, unit_failures;
static const char *unit_case = ""; /* set with CASE(): printed with each failure */

#define CASE(s) (unit_case = (s))

#define UNIT_FAIL_(fmt, ...)                                                                       \
  (unit_failures++, fprintf(stderr, "%s:%d: [%s] " fmt "\n", __FILE__, __LINE__, unit_case, __VA_ARGS__))

#define ASSERT_EQ(a, b)                                                                            \
  do {                                                                                             \
    long long a_ = (long long)(a), b_ = (long long)(b);                                           \
    unit_checks++;                                                                                 \
    if (a_ != b_) UNIT_FAIL_("ASSERT_EQ(%s, %s): %lld != %lld", #a, #b, a_, b_);                    \
  } while (0)

#define ASSERT_EQ_U(a, b)                                                                          \
  do {                                                                                             \
    unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b);                 \
    unit_checks++;                                                                                 \
    if (a_ != b_) UNIT_FAIL_("ASSERT_EQ(%s, %s): %llu != %llu", #a, #b, a_, b_);                    \
  } while (0)

#define ASSERT_NE(a, b)                                                                            \
  do {                                                                                             \
    long long a_ = (long long)(a), b_ = (long long)(b);                                           \
    unit_checks++;                                                                                 \
    if (a_ == b_) UNIT_FAIL_("ASSERT_NE(%s, %s): both %lld", #a, #b, a_);                           \
  } while (0)

#define ASSERT_STR_EQ(a, b)                                                                        \
  do {                                                                                             \
    const char *a_ = (a), *b_ = (b);                                                               \
    unit_checks++;                                                                                 \
    if (!a_ || !b_ || strcmp(a_, b_) != 0)                                                         \
      UNIT_FAIL_("ASSERT_STR_EQ(%s, %s): \"%s\" != \"%s\"", #a, #b, a_ ? a_ : "(null)", b_ ? b_ : "(null)"); \
  } while (0)

#define ASSERT_CONTAINS(hay, needle)                                                               \
  do {                                                                                             \
    const char *h_ = (hay), *n_ = (needle);                                                        \
    unit_checks++;                                                                                 \
    if (!h_ || !strstr(h_, n_))                                                                    \
      UNIT_FAIL_("ASSERT_CONTAINS(%s, %s): \"%s\" does not contain \"%s\"", #hay, #needle,            \
                 h_ ? h_ : "(null)", n_);                                                           \
  } while (0)

static inline int unit_report(const char *prog) {
  if (unit_failures)
    fprintf(stderr, "%s: %d of %d checks FAILED\n", prog, unit_failures, unit_checks);
  else
    printf("%s: all %d checks passed\n", prog, unit_checks);
  return unit_failures ? 1 : 0;
}

#endif
