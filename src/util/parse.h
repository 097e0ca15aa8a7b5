/*
 * Parsing numbers as people and files write them (pure C, no MPI): message
 * sizes, lists and ranges of sizes, durations, counts, plain digits. The
 * command line, the raw-data readers and the profile readers all use these.
 *
 * A size is a positive integer with an optional suffix K, M, G (powers of
 * 1024; "KiB", "KB", "k" are accepted too) or B: 8, 64K, 1M, 1MiB.
 * A size list is a comma-separated list of items, each a size or a range
 *   FROM:TO        FROM, 2 FROM, 4 FROM, ... up to TO (power-of-two steps)
 *   FROM:TO:xF     multiply by the integer F >= 2 at each step
 *   FROM:TO:+S     add S at each step
 * The result is sorted ascending with duplicates removed.
 * A duration is a number with an optional unit s, ms, us, ns (default s).
 */
#ifndef MG_UTIL_PARSE_H
#define MG_UTIL_PARSE_H

#include <stddef.h>

/* Upper bound on the number of sizes in one list. */
#define MG_MAX_SIZES 4096

/* 0 on success; -1 with a message in err (err may be NULL with errlen 0). */
int mg_parse_bytes(const char *s, size_t *out, char *err, size_t errlen);
int mg_parse_sizes(const char *spec, size_t **out, int *n, char *err, size_t errlen);
int mg_parse_seconds(const char *s, double *out, char *err, size_t errlen);
/* A duration that may be 0 ("0", "0s": none). */
int mg_parse_seconds0(const char *s, double *out, char *err, size_t errlen);
/* A non-negative integer (no suffix) into *out, at most max. */
int mg_parse_long(const char *s, long min, long max, long *out, char *err, size_t errlen);
/* A finite number >= min. */
int mg_parse_double(const char *s, double min, double *out, char *err, size_t errlen);
/* A finite number in [min, max], nothing after it ("inf", "nan", "1.5s", "" are refused): the
 * numbers of files and environment variables. Messages quote s: "'x' is not a number",
 * "'1e400' is not a number", "'-1' is out of range (0 to 1e+09)". */
int mg_parse_double_in(const char *s, double min, double max, double *out, char *err, size_t errlen);

/* Decimal digits only (all n bytes of s, no sign, no blank) into *v, at most
 * max: 0; -1 not all digits or empty; -2 above max. Messages are the caller's. */
int mg_parse_digits(const char *s, size_t n, unsigned long long max, unsigned long long *v);

#endif
