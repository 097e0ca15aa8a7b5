/*
 * Byte counts and durations for people: the one formatter of each.
 * Byte counts, in two styles:
 *   MG_BYTES_EXACT  the shortest exact spelling, for tables and files that are
 *                   read back: 12345, 64K, 1M, 2G (K, M, G = powers of 1024,
 *                   only when they divide the count);
 *   MG_BYTES_IEC    a rounded reading for plot axes and reports: 16 B, 1 KiB,
 *                   1.5 KiB, 64 MiB (three significant digits).
 */
#ifndef MG_UTIL_FMT_H
#define MG_UTIL_FMT_H

#include <stddef.h>

typedef enum { MG_BYTES_EXACT, MG_BYTES_IEC } mg_bytes_style;

/* Writes into buf (len bytes) and returns buf. */
const char *mg_fmt_bytes(size_t n, mg_bytes_style style, char *buf, size_t len);

/* A duration in seconds as people read it, never in exponent notation: µs below 1 ms ("0.025 µs",
 * "78.52 µs", "999.9 µs"), ms below 1 s ("27.98 ms"), else s ("1.5 s", "86400 s"); four significant
 * digits (three decimals at most below 1 µs: "0.000 µs" for a positive value under half a ns);
 * "-" for NaN or infinity. Writes into buf (len bytes) and returns buf. */
const char *mg_fmt_seconds(double sec, char *buf, size_t len);

#endif
