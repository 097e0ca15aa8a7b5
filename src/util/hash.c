/* FNV-1a, 32 and 64 bits (see hash.h). */
#include "util/hash.h"

uint32_t mg_fnv1a(uint32_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
  return h;
}

uint64_t mg_fnv1a64(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ULL;
  return h;
}
