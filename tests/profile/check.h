/*
 * Assertions for the profile tests: print both sides and the case, count
 * failures and go on, so one run shows every failure.
 */
#ifndef MG_TESTS_TUNE_CHECK_H
#define MG_TESTS_TUNE_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_count, check_failures;
static const char *check_case = "";

#define CASE(s) (check_case = (s))

#define CHECK_FAIL_(fmt, ...)                                                                                \
  (check_failures++, fprintf(stderr, "%s:%d: [%s] " fmt "\n", __FILE__, __LINE__, check_case, __VA_ARGS__))

#define CHECK_EQ(a, b)                                                                                       \
  do {                                                                                                       \
    long long a_ = (long long)(a), b_ = (long long)(b);                                                      \
    check_count++;                                                                                           \
    if (a_ != b_) CHECK_FAIL_("CHECK_EQ(%s, %s): %lld != %lld", #a, #b, a_, b_);                             \
  } while (0)

#define CHECK_EQ_U(a, b)                                                                                     \
  do {                                                                                                       \
    unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b);                           \
    check_count++;                                                                                           \
    if (a_ != b_) CHECK_FAIL_("CHECK_EQ_U(%s, %s): %llu != %llu", #a, #b, a_, b_);                           \
  } while (0)

#define CHECK_NE_U(a, b)                                                                                     \
  do {                                                                                                       \
    unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b);                           \
    check_count++;                                                                                           \
    if (a_ == b_) CHECK_FAIL_("CHECK_NE_U(%s, %s): both %llu", #a, #b, a_);                                  \
  } while (0)

#define CHECK(cond)                                                                                          \
  do {                                                                                                       \
    check_count++;                                                                                           \
    if (!(cond)) CHECK_FAIL_("CHECK(%s)", #cond);                                                            \
  } while (0)

#define CHECK_STR(a, b)                                                                                      \
  do {                                                                                                       \
    const char *a_ = (a), *b_ = (b);                                                                         \
    check_count++;                                                                                           \
    if (!a_ || !b_ || strcmp(a_, b_) != 0)                                                                   \
      CHECK_FAIL_("CHECK_STR(%s, %s):\n  got:  \"%s\"\n  want: \"%s\"", #a, #b, a_ ? a_ : "(null)",          \
                  b_ ? b_ : "(null)");                                                                       \
  } while (0)

static inline int check_report(const char *prog) {
  if (check_failures)
    fprintf(stderr, "%s: %d of %d checks FAILED\n", prog, check_failures, check_count);
  else
    printf("%s: all %d checks passed\n", prog, check_count);
  return check_failures ? 1 : 0;
}

#endif
