/*
 * Sizes as people write them: "4096", "64K", "1M", "2GiB". Suffixes K, M, G,
 * T are powers of 1024; "i" and "B" may follow ("KiB", "KB"). No sign, no
 * blanks, no fractions. One parser for the environment, the command line and
 * every option that takes a size.
 */
#ifndef MG_UTIL_SIZE_H
#define MG_UTIL_SIZE_H

#include <stddef.h>

typedef enum {
  MG_SIZE_OK,
  MG_SIZE_NOT_A_SIZE, /* empty, no digits first, unknown suffix, trailing junk */
  MG_SIZE_NEGATIVE,   /* starts with '-' */
  MG_SIZE_TOO_LARGE   /* does not fit in size_t */
} mg_size_status;

mg_size_status mg_size_parse(const char *s, size_t *out);

#endif
