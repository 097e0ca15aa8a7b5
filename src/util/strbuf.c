/* The growable string (see strbuf.h). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/strbuf.h"

static int str_reserve(mg_str *b, size_t extra) {
  if (b->failed) return -1;
  if (b->len + extra + 1 <= b->cap) return 0;
  size_t cap = b->cap ? b->cap : 64;
  while (cap < b->len + extra + 1) {
    if (cap > SIZE_MAX / 2) {
      b->failed = 1;
      return -1;
    }
    cap *= 2;
  }
  char *s = realloc(b->s, cap);
  if (!s) {
    b->failed = 1;
    return -1;
  }
  b->s = s;
  b->cap = cap;
  return 0;
}

void mg_str_add(mg_str *b, const char *s, size_t n) {
  if (str_reserve(b, n)) return;
  memcpy(b->s + b->len, s, n);
  b->len += n;
  b->s[b->len] = '\0';
}

void mg_str_vaddf(mg_str *b, const char *fmt, va_list ap) {
  va_list ap2;
  va_copy(ap2, ap);
  int n = vsnprintf(NULL, 0, fmt, ap2);
  va_end(ap2);
  if (n < 0) {
    b->failed = 1;
    return;
  }
  if (str_reserve(b, (size_t)n)) return;
  vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
  b->len += (size_t)n;
}

void mg_str_addf(mg_str *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  mg_str_vaddf(b, fmt, ap);
  va_end(ap);
}
