/*
 * A launch's cells from its raw.csv (eta_raw.h). A cell is a run of rows with one collective, size
 * and reduction pair (columns found by name); rows are written cell by cell, series after series.
 * Lines are read whole (mg_read_line: a #@command line can be longer than any fixed buffer) and
 * split by the project's CSV reader (mg_csv_split). Strict, as check's reader of raw.csv: a number
 * that is not finite and in range (#@elapsed_sec=inf made an infinite estimate), a row of the wrong
 * width, a cut file (a last line without its line break, fewer rows than #@check_rows says) are
 * errors naming file:line, and nothing read is kept.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/eta_raw.h"
#include "util/parse.h"
#include "util/text.h"

/* The columns read, found by name in the header (older formats have no pair column). */
enum { C_COLL, C_ALG, C_BYTES, C_PAIR, C_TIME, C_N };
static const char *const col_names[C_N] = {"collective", "algorithm", "bytes", "pair", "runtime_sec"};
#define MAX_FIELDS 64 /* raw.csv has 15 */

static void columns(char **f, int nf, int *col) {
  for (int c = 0; c < C_N; c++) {
    col[c] = -1;
    for (int i = 0; i < nf; i++)
      if (!strcmp(f[i], col_names[c])) col[c] = i;
  }
}

static int grow(mg_eta_cell **cells, int n, int *cap) {
  if (n < *cap) return 0;
  int nc = *cap ? 2 * *cap : 256;
  mg_eta_cell *c = realloc(*cells, (size_t)nc * sizeof *c);
  if (!c) return -1;
  *cells = c, *cap = nc;
  return 0;
}

#define FAIL(...) (snprintf(err, (size_t)errlen, __VA_ARGS__), rc = -1)

int mg_eta_raw_cells(const char *path, mg_eta_cell **cells, int *n, double *elapsed, char *err, int errlen) {
  *cells = NULL, *n = 0, *elapsed = 0;
  FILE *f = mg_open_text(path, "raw.csv", err, (size_t)errlen);
  if (!f) return -1;
  char *line = NULL, *fl[MAX_FIELDS], key[512], prev[512] = "", alg[128] = "", e[160];
  size_t linecap = 0;
  long len, lineno = 0, want_rows = -1, rows = 0;
  int cap = 0, header = 0, rc = 0, col[C_N], nl, nh = 0;
  double runtime = 0, values = 0;
  while (!rc && (len = mg_read_line(f, &line, &linecap, &nl)) >= 0) {
    lineno++;
    if (!nl) {
      FAIL("%s:%ld: the last line has no line break: the file was cut short (truncated?)", path, lineno);
      break;
    }
    if (line[0] == '#') {
      if (!strncmp(line, "#@elapsed_sec=", 14) && mg_parse_double_in(line + 14, 0, 1e9, elapsed, e, sizeof e))
        FAIL("%s:%ld: #@elapsed_sec=%.60s: %s", path, lineno, line + 14, e);
      if (!strncmp(line, "#@check_rows=", 13) && mg_parse_long(line + 13, 0, LONG_MAX, &want_rows, e, sizeof e))
        FAIL("%s:%ld: #@check_rows=%.60s: %s", path, lineno, line + 13, e);
      continue;
    }
    if (!len) continue;
    int nf = mg_csv_split(line, fl, MAX_FIELDS);
    if (nf < 0 || nf > MAX_FIELDS) {
      FAIL("%s:%ld: %s", path, lineno, nf < 0 ? "unterminated quoted field" : "too many fields");
      break;
    }
    if (!header) { /* the column names */
      header = 1, nh = nf;
      columns(fl, nf, col);
      for (int c = 0; c < C_N && !rc; c++)
        if (col[c] < 0 && c != C_PAIR) FAIL("%s:%ld: no column '%s': not a raw.csv", path, lineno, col_names[c]);
      continue;
    }
    if (nf != nh) {
      FAIL("%s:%ld: %d fields, the header has %d", path, lineno, nf, nh);
      break;
    }
    double bytes, rt;
    const char *bad = mg_parse_double_in(fl[col[C_BYTES]], 0, 1e18, &bytes, e, sizeof e)  ? "bytes"
                      : mg_parse_double_in(fl[col[C_TIME]], 0, 1e6, &rt, e, sizeof e) ? "runtime_sec"
                                                                                        : NULL;
    if (bad) {
      FAIL("%s:%ld: column %s: %s", path, lineno, bad, e);
      break;
    }
    const char *pair = col[C_PAIR] >= 0 ? fl[col[C_PAIR]] : "";
    snprintf(key, sizeof key, "%s,%s,%s", fl[col[C_COLL]], fl[col[C_BYTES]], pair);
    if (strcmp(key, prev)) { /* a new cell */
      if (grow(cells, *n, &cap)) {
        FAIL("%s: out of memory", path);
        break;
      }
      mg_eta_cell *c = &(*cells)[(*n)++];
      memset(c, 0, sizeof *c);
      snprintf(c->coll, sizeof c->coll, "%s", fl[col[C_COLL]]);
      c->bytes = bytes;
      snprintf(prev, sizeof prev, "%s", key);
      alg[0] = 0;
    }
    mg_eta_cell *c = &(*cells)[*n - 1];
    if (strcmp(alg, fl[col[C_ALG]])) { /* the cell's next series */
      snprintf(alg, sizeof alg, "%s", fl[col[C_ALG]]);
      c->nvar++;
    }
    c->values++, c->seconds += rt;
    runtime += rt, values++, rows++;
  }
  if (!rc && len < -1) FAIL("%s:%ld: %s", path, lineno + 1, mg_read_line_strerror(len));
  if (!rc && !header) FAIL("%s: no header line: an empty or interrupted file", path);
  if (!rc && *n == 0) FAIL("%s: no values", path);
  if (!rc && want_rows >= 0 && rows != want_rows) /* check's raw.csv: a file cut at a line break */
    FAIL("%s:%ld: the file ends early (truncated?): %ld data rows, its #@check_rows says %ld", path, lineno, rows,
         want_rows);
  free(line);
  fclose(f);
  if (rc) { /* nothing half-read */
    free(*cells), *cells = NULL, *n = 0, *elapsed = 0;
    return -1;
  }
  double share = *elapsed > runtime && values > 0 ? (*elapsed - runtime) / values : 0;
  for (int i = 0; i < *n; i++) (*cells)[i].seconds += share * (*cells)[i].values;
  return 0;
}
