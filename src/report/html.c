/*
 * The one writer of the HTML pages (html.h, "The page's writer"): mg_html is printf whose every
 * conversion is HTML-escaped (&, <, >, " and '), so a value from a file reaches the page as text
 * in an element or in a quoted attribute and never as markup; only the format itself, a string
 * literal of the code, is written as it is. mg_html_markup writes a piece of markup the code
 * itself holds (the style sheet). tests/report/html_sinks.py keeps every other writer out of
 * src/report.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"

/* n bytes of s, escaped. */
static void put_esc(FILE *f, const char *s, size_t n) {
  const char *run = s; /* the bytes since the last special one, written in one go */
  for (size_t i = 0; i < n; i++) {
    const char *e;
    switch (s[i]) {
    case '&': e = "&amp;"; break;
    case '<': e = "&lt;"; break;
    case '>': e = "&gt;"; break;
    case '"': e = "&quot;"; break;
    case '\'': e = "&#39;"; break;
    default: continue;
    }
    fwrite(run, 1, (size_t)(s + i - run), f);
    fputs(e, f);
    run = s + i + 1;
  }
  fwrite(run, 1, (size_t)(s + n - run), f);
}

static void pad(FILE *f, long n) {
  for (; n > 0; n--) fputc(' ', f);
}

/* One number conversion: spec (a complete printf conversion, its * already in the arguments) with
 * its arguments, formatted by vsnprintf and written escaped like any other conversion (a number
 * has nothing to escape; this keeps it so whatever the C library writes). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
static void number(FILE *f, const char *spec, ...) {
  va_list ap, again;
  va_start(ap, spec);
  va_copy(again, ap);
  char small[256], *s = small;
  int n = vsnprintf(small, sizeof small, spec, ap);
  if (n >= (int)sizeof small && (s = malloc((size_t)n + 1))) vsnprintf(s, (size_t)n + 1, spec, again);
  if (n > 0 && s) put_esc(f, s, strlen(s));
  if (s != small) free(s);
  va_end(again);
  va_end(ap);
}
#pragma GCC diagnostic pop

/* A number conversion of type T with the *-width and *-precision given (w, p). */
#define NUMBER(T)                                                                                                      \
  do {                                                                                                                 \
    T x_ = va_arg(ap, T);                                                                                              \
    if (wstar && pstar) number(f, spec, w, p, x_);                                                                     \
    else if (wstar) number(f, spec, w, x_);                                                                            \
    else if (pstar) number(f, spec, p, x_);                                                                            \
    else number(f, spec, x_);                                                                                          \
  } while (0)

void mg_html_v(FILE *f, const char *fmt, va_list ap0) {
  va_list ap;
  va_copy(ap, ap0);
  const char *p0 = fmt;
  while (p0 && *p0) {
    const char *q = strchr(p0, '%');
    if (!q) {
      fputs(p0, f); /* the format: the code's markup */
      break;
    }
    fwrite(p0, 1, (size_t)(q - p0), f);
    const char *c = q + 1;
    if (*c == '%') {
      fputc('%', f);
      p0 = c + 1;
      continue;
    }
    char spec[32];
    size_t u = 0;
    int left = 0, wstar = 0, pstar = 0, w = 0, p = -1;
    long width = 0;
    spec[u++] = '%';
    while (*c && strchr("-+ #0'", *c) && u < 8) left |= *c == '-', spec[u++] = *c++;
    if (*c == '*') {
      wstar = 1, w = va_arg(ap, int), spec[u++] = *c++;
      width = w < 0 ? (left = 1, -(long)w) : w;
    } else
      while (*c >= '0' && *c <= '9' && u < 16) width = width * 10 + (*c - '0'), spec[u++] = *c++;
    if (*c == '.') {
      spec[u++] = *c++, p = 0;
      if (*c == '*') pstar = 1, p = va_arg(ap, int), spec[u++] = *c++;
      else
        while (*c >= '0' && *c <= '9' && u < 24) p = p * 10 + (*c - '0'), spec[u++] = *c++;
    }
    char len[3] = "";
    while (*c && strchr("hlLzjtq", *c) && u < 28 && strlen(len) < 2) len[strlen(len)] = *c, spec[u++] = *c++;
    char conv = *c;
    spec[u++] = conv, spec[u] = '\0';
    p0 = conv ? c + 1 : c;
    switch (conv) {
    case 's':
    case 'c': {
      if (*len) { /* %ls, %lc: wide characters, never written here */
        va_end(ap);
        return;
      }
      char ch = 0;
      const char *s = conv == 's' ? va_arg(ap, const char *) : (ch = (char)va_arg(ap, int), &ch);
      if (!s) s = "(null)";
      size_t n = conv == 'c' ? 1 : p >= 0 ? strnlen(s, (size_t)p) : strlen(s); /* p < 0: none (or a negative *) */
      if (!left) pad(f, width - (long)n);
      put_esc(f, s, n);
      if (left) pad(f, width - (long)n);
      break;
    }
    case 'd':
    case 'i':
      if (!strcmp(len, "l")) NUMBER(long);
      else if (!strcmp(len, "ll") || !strcmp(len, "q")) NUMBER(long long);
      else if (!strcmp(len, "z")) NUMBER(size_t);
      else if (!strcmp(len, "j")) NUMBER(intmax_t);
      else if (!strcmp(len, "t")) NUMBER(ptrdiff_t);
      else NUMBER(int);
      break;
    case 'u':
    case 'o':
    case 'x':
    case 'X':
      if (!strcmp(len, "l")) NUMBER(unsigned long);
      else if (!strcmp(len, "ll") || !strcmp(len, "q")) NUMBER(unsigned long long);
      else if (!strcmp(len, "z")) NUMBER(size_t);
      else if (!strcmp(len, "j")) NUMBER(uintmax_t);
      else if (!strcmp(len, "t")) NUMBER(ptrdiff_t);
      else NUMBER(unsigned);
      break;
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G':
    case 'a':
    case 'A':
      if (!strcmp(len, "L")) NUMBER(long double);
      else NUMBER(double);
      break;
    case 'p': NUMBER(void *); break;
    default: /* %n, %ls, a cut format: gcc's format check refuses them; the rest would be misread, so stop */
      va_end(ap);
      return;
    }
  }
  va_end(ap);
}

void mg_html(FILE *f, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  mg_html_v(f, fmt, ap);
  va_end(ap);
}

void mg_html_markup(FILE *f, const char *markup) {
  if (markup) fputs(markup, f);
}
