/*
 * Parsing of sizes, size lists, durations and counts (grammar in parse.h).
 * Every error message quotes the offending text and says what is expected.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/parse.h"
#include "util/size.h"
#include "util/sort.h"

int mg_parse_bytes(const char *s, size_t *out, char *err, size_t errlen) {
  const char *p = s;
  while (isspace((unsigned char)*p)) p++;
  size_t v = 0;
  switch (mg_size_parse(p, &v)) {
  case MG_SIZE_OK: break;
  case MG_SIZE_NEGATIVE: return MG_ERR("size '%s' is negative; sizes are positive byte counts", s);
  case MG_SIZE_TOO_LARGE: return MG_ERR("size '%s' is too large", s);
  case MG_SIZE_AMBIGUOUS:
    return MG_ERR("size '%s' is ambiguous (1000 or 1024?): write K, M, G (powers of 1024) or KiB, MiB, GiB", s);
  default: return MG_ERR("'%s' is not a size: %s", s, MG_SIZE_RULE);
  }
  if (v == 0) return MG_ERR("size '%s' is zero; sizes must be at least 1 byte", s);
  if (v > SIZE_MAX / 2) return MG_ERR("size '%s' is too large", s);
  *out = v;
  return 0;
}

static int push(size_t **v, int *n, int *cap, size_t x, char *err, size_t errlen) {
  if (*n >= MG_MAX_SIZES) return MG_ERR("more than %d message sizes", MG_MAX_SIZES);
  if (*n == *cap) {
    int nc = *cap ? 2 * *cap : 16;
    size_t *nv = realloc(*v, (size_t)nc * sizeof *nv);
    if (!nv) return MG_ERR("out of memory");
    *v = nv;
    *cap = nc;
  }
  (*v)[(*n)++] = x;
  return 0;
}

/* One item: a size or FROM:TO[:xF|:+S]. */
static int parse_item(const char *item, size_t **v, int *n, int *cap, char *err, size_t errlen) {
  char buf[128];
  if (strlen(item) >= sizeof buf) return MG_ERR("size item '%.40s...' is too long", item);
  strcpy(buf, item);
  char *c1 = strchr(buf, ':');
  if (!c1) {
    size_t x;
    if (mg_parse_bytes(buf, &x, err, errlen)) return -1;
    return push(v, n, cap, x, err, errlen);
  }
  *c1 = '\0';
  char *to_s = c1 + 1, *step_s = strchr(to_s, ':');
  if (step_s) *step_s++ = '\0';
  size_t from, to;
  if (mg_parse_bytes(buf, &from, err, errlen) || mg_parse_bytes(to_s, &to, err, errlen)) return -1;
  if (from > to) return MG_ERR("range '%s': FROM is larger than TO", item);
  int mult = 1;
  size_t step = 2;
  if (step_s) {
    if (*step_s == 'x' || *step_s == '*') {
      char *end;
      errno = 0;
      long f = strtol(step_s + 1, &end, 10);
      if (errno || *end || end == step_s + 1 || f < 2)
        return MG_ERR("range '%s': the factor after 'x' must be an integer >= 2", item);
      step = (size_t)f;
    } else if (*step_s == '+') {
      mult = 0;
      if (mg_parse_bytes(step_s + 1, &step, err, errlen)) return -1;
    } else {
      return MG_ERR("range '%s': the step must be xF (factor) or +S (increment)", item);
    }
  }
  for (size_t x = from;;) {
    if (push(v, n, cap, x, err, errlen)) return -1;
    if (mult ? x > to / step : x > to - step) break; /* next step would overflow or pass TO */
    x = mult ? x * step : x + step;
    if (x > to) break;
  }
  return 0;
}

int mg_parse_sizes(const char *spec, size_t **out, int *nout, char *err, size_t errlen) {
  size_t *v = NULL;
  int n = 0, cap = 0;
  const char *p = spec;
  if (!spec || !*spec) return MG_ERR("empty size list");
  while (*p) {
    size_t len = strcspn(p, ",");
    char item[160];
    if (len == 0) {
      free(v);
      return MG_ERR("size list '%s' has an empty item", spec);
    }
    if (len >= sizeof item) {
      free(v);
      return MG_ERR("size item '%.40s...' is too long", p);
    }
    memcpy(item, p, len);
    item[len] = '\0';
    if (parse_item(item, &v, &n, &cap, err, errlen)) {
      free(v);
      return -1;
    }
    p += len;
    if (*p == ',') {
      p++;
      if (!*p) {
        free(v);
        return MG_ERR("size list '%s' ends with a comma", spec);
      }
    }
  }
  qsort(v, (size_t)n, sizeof *v, mg_cmp_size);
  int m = 0;
  for (int i = 0; i < n; i++)
    if (m == 0 || v[m - 1] != v[i]) v[m++] = v[i];
  *out = v;
  *nout = m;
  return 0;
}

static int duration(const char *s, int zero_ok, double *out, char *err, size_t errlen) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || errno || !isfinite(v)) return MG_ERR("'%s' is not a duration (e.g. 2, 0.5s, 200ms, 50us)", s);
  double scale = 1;
  if (!strcmp(end, "") || !strcmp(end, "s")) scale = 1;
  else if (!strcmp(end, "ms")) scale = 1e-3;
  else if (!strcmp(end, "us")) scale = 1e-6;
  else if (!strcmp(end, "ns")) scale = 1e-9;
  else return MG_ERR("'%s': unknown time unit '%s' (use s, ms, us or ns)", s, end);
  if (v < 0 || (v == 0 && !zero_ok)) return MG_ERR("duration '%s' must be positive", s);
  *out = v * scale;
  return 0;
}

int mg_parse_seconds(const char *s, double *out, char *err, size_t errlen) { return duration(s, 0, out, err, errlen); }

int mg_parse_seconds0(const char *s, double *out, char *err, size_t errlen) { return duration(s, 1, out, err, errlen); }

int mg_parse_long(const char *s, long min, long max, long *out, char *err, size_t errlen) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (end == s || *end || errno) return MG_ERR("'%s' is not an integer", s);
  if (v < min || v > max) return MG_ERR("%ld is out of range (%ld to %ld)", v, min, max);
  *out = v;
  return 0;
}

int mg_parse_double(const char *s, double min, double *out, char *err, size_t errlen) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno || !isfinite(v)) return MG_ERR("'%s' is not a number", s);
  if (v < min) return MG_ERR("%s is below the minimum %g", s, min);
  *out = v;
  return 0;
}

int mg_parse_double_in(const char *s, double min, double max, double *out, char *err, size_t errlen) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (end == s || *end || errno == ERANGE || !isfinite(v)) return MG_ERR("'%s' is not a number", s);
  if (v < min || v > max) return MG_ERR("'%s' is out of range (%g to %g)", s, min, max);
  *out = v;
  return 0;
}

int mg_parse_digits(const char *s, size_t n, unsigned long long max, unsigned long long *v) {
  unsigned long long x = 0;
  int over = 0;
  if (n == 0) return -1;
  for (size_t i = 0; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return -1;
    unsigned d = (unsigned)(s[i] - '0');
    if (x > (max - d) / 10)
      over = 1;
    else
      x = x * 10 + d;
  }
  if (over) return -2;
  *v = x;
  return 0;
}
