/*
 * Sizes as people write them, one rule everywhere (the environment, the
 * command line, profiles): "4096" or "4096B" bytes; K, M, G, T powers of 1024,
 * also written Ki, KiB, Mi, MiB, ... (case-insensitive). "KB", "MB", "GB" and
 * "TB" are refused: people mean 1000 as often as 1024, and a tool that
 * silently picks one measures the wrong size. No sign, no blanks, no
 * fractions.
 */
#ifndef MG_UTIL_SIZE_H
#define MG_UTIL_SIZE_H

#include <stddef.h>

typedef enum {
  MG_SIZE_OK,
  MG_SIZE_NOT_A_SIZE, /* empty, no digits first, unknown suffix, trailing junk */
  MG_SIZE_NEGATIVE,   /* starts with '-' */
  MG_SIZE_TOO_LARGE,  /* does not fit in size_t */
  MG_SIZE_AMBIGUOUS   /* "64KB": 1000 or 1024? */
} mg_size_status;

/* The rule in words, for messages. */
#define MG_SIZE_RULE "bytes, or K, M, G, T (powers of 1024; KiB, MiB, ... alike; KB, MB are ambiguous)"

mg_size_status mg_size_parse(const char *s, size_t *out);

#endif
