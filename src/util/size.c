/* Parsing sizes with K/M/G/T suffixes (see size.h). */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "util/size.h"

mg_size_status mg_size_parse(const char *s, size_t *out) {
  if (!s) return MG_SIZE_NOT_A_SIZE;
  if (*s == '-') return MG_SIZE_NEGATIVE;
  if (!isdigit((unsigned char)*s)) return MG_SIZE_NOT_A_SIZE; /* no sign, no blanks */
  char *end;
  errno = 0;
  unsigned long long v = strtoull(s, &end, 10);
  if (errno == ERANGE) return MG_SIZE_TOO_LARGE;
  unsigned shift = 0;
  switch (*end) {
  case 'k': case 'K': shift = 10; end++; break;
  case 'm': case 'M': shift = 20; end++; break;
  case 'g': case 'G': shift = 30; end++; break;
  case 't': case 'T': shift = 40; end++; break;
  default: break;
  }
  if (shift && (*end == 'i' || *end == 'I')) {
    end++;
    if (*end == 'B' || *end == 'b') end++;
  } else if (*end == 'B' || *end == 'b') {
    if (shift) return MG_SIZE_AMBIGUOUS; /* "KB": decimal or binary? */
    end++;                               /* "100B": bytes */
  }
  if (*end) return MG_SIZE_NOT_A_SIZE;
  if (shift && v > (UINT64_MAX >> shift)) return MG_SIZE_TOO_LARGE;
  v <<= shift;
  if (v > SIZE_MAX) return MG_SIZE_TOO_LARGE;
  *out = (size_t)v;
  return MG_SIZE_OK;
}
