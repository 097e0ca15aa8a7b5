/*
 * A launch's cells from its raw.csv (eta_raw.h). A cell is a run of rows with one collective, size
 * and reduction pair (columns 1, 3 and 8); rows are written cell by cell, series after series.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/eta_raw.h"

/* Field i (0-based) of the comma-separated line s: its start and length; -1 if absent. */
static int field(const char *s, int i, const char **f) {
  for (int k = 0; k < i; k++) {
    s = strchr(s, ',');
    if (!s) return -1;
    s++;
  }
  const char *e = s + strcspn(s, ",\n");
  *f = s;
  return (int)(e - s);
}

/* The columns read, found by name in the header (older formats have no pair column). */
enum { C_COLL, C_ALG, C_BYTES, C_PAIR, C_TIME, C_N };
static const char *const col_names[C_N] = {"collective", "algorithm", "bytes", "pair", "runtime_sec"};

static void columns(const char *header, int *col) {
  for (int c = 0; c < C_N; c++) {
    col[c] = -1;
    const char *f;
    for (int i = 0, l; (l = field(header, i, &f)) >= 0; i++)
      if ((size_t)l == strlen(col_names[c]) && !strncmp(f, col_names[c], (size_t)l)) col[c] = i;
  }
}

/* The cell of a data row: collective, size and pair, as one string. */
static void cell_key(const char *line, const int *col, char *key, size_t len) {
  const char *c = "", *b = "", *p = "";
  int lc = field(line, col[C_COLL], &c), lb = field(line, col[C_BYTES], &b);
  int lp = col[C_PAIR] < 0 ? -1 : field(line, col[C_PAIR], &p);
  snprintf(key, len, "%.*s,%.*s,%.*s", lc < 0 ? 0 : lc, c, lb < 0 ? 0 : lb, b, lp < 0 ? 0 : lp, p);
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
  char line[4096], key[256], prev[256] = "";
  int cap = 0, header = 0, oom = 0, col[C_N];
  char alg[128] = "";
  double runtime = 0, values = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') {
      if (!strncmp(line, "#@elapsed_sec=", 14)) *elapsed = strtod(line + 14, NULL);
      continue;
    }
    if (!header) { /* the column names */
      header = 1;
      columns(line, col);
      if (col[C_COLL] < 0 || col[C_ALG] < 0 || col[C_BYTES] < 0 || col[C_TIME] < 0) break;
      continue;
    }
    const char *a = "", *b = "", *t = "";
    int la = field(line, col[C_ALG], &a), lb = field(line, col[C_BYTES], &b);
    if (la < 0 || lb < 0 || field(line, col[C_TIME], &t) < 0) continue;
    cell_key(line, col, key, sizeof key);
    if (strcmp(key, prev)) { /* a new cell */
      if (grow(cells, *n, &cap)) {
        oom = 1;
        break;
      }
      mg_eta_cell *c = &(*cells)[(*n)++];
      memset(c, 0, sizeof *c);
      const char *cn = "";
      int lc = field(line, col[C_COLL], &cn);
      snprintf(c->coll, sizeof c->coll, "%.*s", lc < 0 ? 0 : lc, cn);
      c->bytes = strtod(b, NULL);
      snprintf(prev, sizeof prev, "%s", key);
      alg[0] = 0;
    }
    mg_eta_cell *c = &(*cells)[*n - 1];
    if ((int)strlen(alg) != la || strncmp(alg, a, (size_t)la)) { /* the cell's next series */
      snprintf(alg, sizeof alg, "%.*s", la, a);
      c->nvar++;
    }
    double rt = strtod(t, NULL);
    c->values++, c->seconds += rt;
    runtime += rt, values++;
  }
  int bad = ferror(f);
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
