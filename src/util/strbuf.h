/*
 * A growable NUL-terminated string, for messages and lists whose length is
 * not known in advance. Start from {0}; on allocation failure `failed` is set
 * and further appends are ignored, so a caller checks once at the end. The
 * caller frees s.
 */
#ifndef MG_UTIL_STRBUF_H
#define MG_UTIL_STRBUF_H

#include <stdarg.h>
#include <stddef.h>

typedef struct mg_str {
  char *s;
  size_t len, cap;
  int failed;
} mg_str;

void mg_str_add(mg_str *b, const char *s, size_t n);
void mg_str_addf(mg_str *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mg_str_vaddf(mg_str *b, const char *fmt, va_list ap);

#endif
