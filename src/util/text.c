/* CSV fields, JSON strings, splitting and reading lines (see text.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "util/text.h"

void mg_csv_str(FILE *f, const char *s) {
  if (!strpbrk(s, ",\"\r\n")) {
    fputs(s, f);
    return;
  }
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc('"', f);
    fputc(*s, f);
  }
  fputc('"', f);
}

void mg_json_str(FILE *f, const char *s) {
  fputc('"', f);
  for (; s && *s; s++) {
    unsigned char ch = (unsigned char)*s;
    if (ch == '"' || ch == '\\')
      fprintf(f, "\\%c", ch);
    else if (ch == '\n')
      fputs("\\n", f);
    else if (ch == '\t')
      fputs("\\t", f);
    else if (ch < 0x20)
      fprintf(f, "\\u%04x", ch);
    else
      fputc(ch, f);
  }
  fputc('"', f);
}

int mg_csv_split(char *line, char **f, int max) {
  int n = 0;
  char *p = line;
  for (;;) {
    char *start = p, *w = p;
    if (*p == '"') {
      p++;
      for (;;) {
        if (!*p) return -1;
        if (*p == '"') {
          if (p[1] == '"') {
            *w++ = '"';
            p += 2;
            continue;
          }
          p++;
          break;
        }
        *w++ = *p++;
      }
      while (*p && *p != ',') p++; /* text after the closing quote: ignored */
    } else {
      while (*p && *p != ',') *w++ = *p++;
    }
    char c = *p;
    *w = '\0';
    if (n < max) f[n] = start;
    n++;
    if (!c) break;
    p++;
  }
  return n;
}

int mg_split_blanks(char *line, char **f, int max) {
  int n = 0;
  char *save = NULL;
  for (char *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
    if (n < max) f[n] = t;
    n++;
  }
  return n;
}

long mg_read_line(FILE *f, char **buf, size_t *cap, int *nl) {
  size_t n = 0;
  int c = EOF, nul = 0;
  *nl = 0;
  flockfile(f);
  while ((c = getc_unlocked(f)) != EOF) {
    if (n + 2 > *cap) {
      size_t want = *cap ? 2 * *cap : 256;
      if (want > (size_t)MG_LINE_MAX + 2) want = (size_t)MG_LINE_MAX + 2;
      if (want <= n + 1) { /* at the cap with no line break */
        funlockfile(f);
        return MG_LINE_ELONG;
      }
      char *b = realloc(*buf, want);
      if (!b) {
        funlockfile(f);
        errno = ENOMEM;
        return MG_LINE_EIO;
      }
      *buf = b;
      *cap = want;
    }
    if (c == '\n') {
      *nl = 1;
      break;
    }
    if (!c) nul = 1;
    (*buf)[n++] = (char)c;
  }
  int bad = c == EOF && ferror_unlocked(f);
  funlockfile(f);
  if (bad) return MG_LINE_EIO;
  if (c == EOF && !n) return -1;
  if (nul) return MG_LINE_ENUL;
  (*buf)[n] = '\0';
  if (n > 0 && (*buf)[n - 1] == '\r') (*buf)[--n] = '\0';
  return (long)n;
}

const char *mg_read_line_strerror(long rc) {
  static __thread char msg[96];
  switch (rc) {
  case MG_LINE_ELONG:
    return "a line longer than 1 MiB: not a text file of mpiguide's";
  case MG_LINE_ENUL:
    return "a NUL byte: binary data, not a text file of mpiguide's";
  default:
    snprintf(msg, sizeof msg, "read error: %s", strerror(errno));
    return msg;
  }
}

FILE *mg_open_text(const char *path, const char *what, char *err, size_t errlen) {
  FILE *f = fopen(path, "r");
  if (!f) {
    if (errlen) snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return NULL;
  }
  struct stat st;
  if (!fstat(fileno(f), &st) && S_ISDIR(st.st_mode)) {
    fclose(f);
    if (errlen) snprintf(err, errlen, "%s: is a directory, not a %s", path, what);
    return NULL;
  }
  return f;
}

char *mg_read_all(FILE *f, size_t max, size_t *len) {
  size_t n = 0, cap = 0;
  char *b = NULL;
  for (;;) {
    if (cap - n < 4097) {
      size_t want = cap ? 2 * cap : 65536;
      if (want > max + 2) want = max + 2;
      if (want <= n + 1) { /* at the cap and more to come */
        free(b);
        errno = EFBIG;
        return NULL;
      }
      char *nb = realloc(b, want);
      if (!nb) {
        free(b);
        errno = ENOMEM;
        return NULL;
      }
      b = nb, cap = want;
    }
    size_t got = fread(b + n, 1, cap - n - 1, f);
    n += got;
    if (n > max) {
      free(b);
      errno = EFBIG;
      return NULL;
    }
    if (got == 0) {
      if (ferror(f)) {
        free(b);
        return NULL;
      }
      break;
    }
  }
  b[n] = '\0';
  *len = n;
  return b;
}
