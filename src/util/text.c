/* CSV fields, JSON strings, splitting and reading lines (see text.h). */
#include <string.h>
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
  ssize_t n = getline(buf, cap, f);
  if (n < 0) return ferror(f) ? -2 : -1;
  *nl = n > 0 && (*buf)[n - 1] == '\n';
  if (*nl) (*buf)[--n] = '\0';
  if (n > 0 && (*buf)[n - 1] == '\r') (*buf)[--n] = '\0';
  return (long)n;
}
