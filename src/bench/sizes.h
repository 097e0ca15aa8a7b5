/*
 * Parsing of the benchmark's numeric arguments (pure C, no MPI): message
 * sizes, lists and ranges of sizes, durations, counts.
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
#ifndef MG_BENCH_SIZES_H
#define MG_BENCH_SIZES_H

#include <stddef.h>

/* Upper bound on the number of sizes in one list. */
#define MG_MAX_SIZES 4096

/* 0 on success; -1 with a message in err. */
int mg_parse_bytes(const char *s, size_t *out, char *err, size_t errlen);
int mg_parse_sizes(const char *spec, size_t **out, int *n, char *err, size_t errlen);
int mg_parse_seconds(const char *s, double *out, char *err, size_t errlen);
/* A non-negative integer (no suffix) into *out, at most max. */
int mg_parse_long(const char *s, long min, long max, long *out, char *err, size_t errlen);
/* A finite number >= min. */
int mg_parse_double(const char *s, double min, double *out, char *err, size_t errlen);

/* "64K", "1M", "12345" - the shortest exact form, for tables. */
void mg_format_bytes(size_t n, char *buf, size_t len);

#endif
