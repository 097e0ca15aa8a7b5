/*
 * A launch's cells from its raw.csv (eta_raw.h). A cell is a run of rows with one collective, size
 * and reduction pair (columns found by name); rows are written cell by cell, series after series.
 * Lines are read whole (mg_read_line: a #@command line can be longer than any fixed buffer) and
 * split by the project's CSV reader (mg_csv_split).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/eta_raw.h"
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

int mg_eta_raw_cells(const char *path, mg_eta_cell **cells, int *n, double *elapsed, char *err, int errlen) {
  FILE *f = fopen(path, "r");
  *cells = NULL, *n = 0, *elapsed = 0;
  if (!f) return snprintf(err, (size_t)errlen, "%s: %s", path, strerror(errno)), -1;
  char *line = NULL, *fl[MAX_FIELDS], key[512], prev[512] = "", alg[128] = "";
  size_t linecap = 0;
  long len;
  int cap = 0, header = 0, oom = 0, col[C_N], nl;
  double runtime = 0, values = 0;
  while ((len = mg_read_line(f, &line, &linecap, &nl)) >= 0) {
    if (line[0] == '#') {
      if (!strncmp(line, "#@elapsed_sec=", 14)) *elapsed = strtod(line + 14, NULL);
      continue;
    }
    int nf = mg_csv_split(line, fl, MAX_FIELDS);
    if (nf > MAX_FIELDS) nf = MAX_FIELDS;
    if (!header) { /* the column names */
      header = 1;
      columns(fl, nf < 0 ? 0 : nf, col);
      if (col[C_COLL] < 0 || col[C_ALG] < 0 || col[C_BYTES] < 0 || col[C_TIME] < 0) break;
      continue;
    }
    if (nf <= col[C_COLL] || nf <= col[C_ALG] || nf <= col[C_BYTES] || nf <= col[C_TIME]) continue;
    const char *pair = col[C_PAIR] >= 0 && col[C_PAIR] < nf ? fl[col[C_PAIR]] : "";
    snprintf(key, sizeof key, "%s,%s,%s", fl[col[C_COLL]], fl[col[C_BYTES]], pair);
    if (strcmp(key, prev)) { /* a new cell */
      if (grow(cells, *n, &cap)) {
        oom = 1;
        break;
      }
      mg_eta_cell *c = &(*cells)[(*n)++];
      memset(c, 0, sizeof *c);
      snprintf(c->coll, sizeof c->coll, "%s", fl[col[C_COLL]]);
      c->bytes = strtod(fl[col[C_BYTES]], NULL);
      snprintf(prev, sizeof prev, "%s", key);
      alg[0] = 0;
    }
    mg_eta_cell *c = &(*cells)[*n - 1];
    if (strcmp(alg, fl[col[C_ALG]])) { /* the cell's next series */
      snprintf(alg, sizeof alg, "%s", fl[col[C_ALG]]);
      c->nvar++;
    }
    double rt = strtod(fl[col[C_TIME]], NULL);
    c->values++, c->seconds += rt;
    runtime += rt, values++;
  }
  int bad = len < -1;
  free(line);
  fclose(f);
  if (bad || oom) {
    free(*cells), *cells = NULL, *n = 0;
    return snprintf(err, (size_t)errlen, "%s: cannot read it", path), -1;
  }
  if (*n == 0) return snprintf(err, (size_t)errlen, "%s: no values", path), -1;
  double share = *elapsed > runtime && values > 0 ? (*elapsed - runtime) / values : 0;
  for (int i = 0; i < *n; i++) (*cells)[i].seconds += share * (*cells)[i].values;
  return 0;
}
