/*
 * The predictions a report marks beside the measurements: the reader of predicted.csv
 * (mpiguide-predict/1, /2 or /3: /2 adds lo_sec and hi_sec at the end, not read here; /3 ends with
 * #@predict_rows=N; docs/model.md), reduced to the ratio mock-up / default per cell.
 * Lines are read whole (at most 1 MiB, no NUL byte); a last line without its line break (a cut
 * file) is an error, as is a number that is not finite and in range, and in /3 a file whose last
 * line is not its row count or whose count differs (cut between two rows).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/err.h"
#include "util/parse.h"
#include "util/text.h"

/* The fields of one CSV line (no quoting in this format) into f[0..max); their number. */
static int split(char *line, char **f, int max) {
  int n = 0;
  for (char *s = line; n < max;) {
    f[n++] = s;
    char *c = strchr(s, ',');
    if (!c) break;
    *c = '\0', s = c + 1;
  }
  return n;
}

/* Whether s is a whole number field in [0, 1e18], its value in *v. */
static int number(const char *s, double *v) { return !mg_parse_double_in(s, 0, 1e18, v, NULL, 0); }

int mg_rp_preds_read(const char *path, mg_rp_preds *p, char *err, size_t errlen) {
  memset(p, 0, sizeof *p);
  FILE *f = fopen(path, "r"); /* a directory: "read error: Is a directory" at its first line */
  if (!f) {
    if (errno == ENOENT) return 0;
    return MG_ERR("%s: %s", path, strerror(errno));
  }
  char *line = NULL;
  size_t lcap = 0;
  long got;
  int ln = 0, header = 0, cap = 0, rc = 0, nl, version = 0;
  long want = -1; /* /3: #@predict_rows */
  double *def = NULL; /* the default's prediction of each row's cell, filled by a second pass */
  while (!rc && (got = mg_read_line(f, &line, &lcap, &nl)) >= 0) {
    ln++;
    if (!nl) {
      rc = MG_ERR("%s:%d: the last line has no line break: the file was cut short (truncated?)", path, ln);
      break;
    }
    if (ln == 1 && !strncmp(line, "# mpiguide-predict/", 19)) {
      unsigned long long v;
      if (mg_parse_digits(line + 19, strlen(line + 19), 1000, &v)) {
        rc = MG_ERR("%s:1: '%s' is not a version of mpiguide-predict", path, line);
        break;
      }
      version = (int)v;
    }
    if (want >= 0) { /* the count is the last line */
      rc = MG_ERR("%s:%d: a line after #@predict_rows: not one predicted.csv (pieced together?)", path, ln);
      break;
    }
    if (!strncmp(line, "#@predict_rows=", 15)) {
      unsigned long long v;
      if (mg_parse_digits(line + 15, strlen(line + 15), (unsigned long long)1 << 40, &v)) {
        rc = MG_ERR("%s:%d: #@predict_rows=%.40s is not a row count", path, ln, line + 15);
        break;
      }
      want = (long)v;
      continue;
    }
    if (line[0] == '#' || !line[0]) continue;
    if (!header) { /* the header of mpiguide-predict/1 and /2 (the same first columns) */
      if (strncmp(line, "collective,nprocs,bytes,algorithm,family,predicted_sec", 54))
        rc = MG_ERR("%s:%d: not a predicted.csv (mpiguide-predict) header", path, ln);
      header = 1;
      continue;
    }
    char *fl[10];
    int nf = split(line, fl, 10);
    if (nf < 9) {
      rc = MG_ERR("%s:%d: 9 to 12 fields expected", path, ln);
      break;
    }
    int c = mg_coll_find(fl[0]);
    if (c < 0) {
      rc = MG_ERR("%s:%d: unknown collective '%s'", path, ln, fl[0]);
      break;
    }
    if (p->n == cap) {
      cap = cap ? 2 * cap : 256;
      mg_rp_pred *v = realloc(p->v, (size_t)cap * sizeof *v);
      double *d = realloc(def, (size_t)cap * sizeof *d);
      if (v) p->v = v;
      if (d) def = d;
      if (!v || !d) {
        rc = MG_ERR("out of memory");
        break;
      }
    }
    mg_rp_pred *x = &p->v[p->n];
    double np, bytes, pred, skew = 0;
    if (!number(fl[1], &np) || !number(fl[2], &bytes) || !number(fl[5], &pred) || (nf > 9 && !number(fl[9], &skew)) ||
        np < 1 || np > 1 << 24 || np != floor(np) || bytes != floor(bytes)) {
      rc = MG_ERR("%s:%d: nprocs, bytes, predicted_sec and sync_skew_sec must be numbers >= 0 (nprocs and bytes whole)",
                        path, ln);
      break;
    }
    x->coll = c;
    x->nprocs = (int)np;
    x->bytes = (size_t)bytes;
    snprintf(x->alg, sizeof x->alg, "%s", fl[3]);
    x->ratio = pred + skew; /* + the synchronisation's spread the measurement has (docs/model.md) */
    def[p->n++] = NAN;
  }
  if (!rc && got < -1) rc = MG_ERR("%s:%d: %s", path, ln + 1, mg_read_line_strerror(got));
  if (!rc && version >= 3 && want != p->n)
    rc = want < 0 ? MG_ERR("%s:%d: no #@predict_rows line at the end: the file was cut short (truncated?)", path, ln)
                  : MG_ERR("%s:%d: %d rows, but #@predict_rows says %ld: the file was cut short (truncated?)", path,
                           ln, p->n, want);
  free(line);
  fclose(f);
  /* the ratio: each mock-up's prediction over the default's at its cell; the defaults go */
  int k = 0;
  for (int i = 0; !rc && i < p->n; i++) {
    const mg_rp_pred *x = &p->v[i];
    if (!strcmp(x->alg, "default")) continue;
    for (int j = 0; j < p->n; j++) {
      const mg_rp_pred *y = &p->v[j];
      if (y->coll == x->coll && y->nprocs == x->nprocs && y->bytes == x->bytes && !strcmp(y->alg, "default"))
        def[i] = y->ratio;
    }
  }
  for (int i = 0; !rc && i < p->n; i++)
    if (strcmp(p->v[i].alg, "default") && def[i] > 0 && isfinite(p->v[i].ratio)) {
      p->v[k] = p->v[i];
      p->v[k++].ratio /= def[i];
    }
  free(def);
  if (rc) return mg_rp_preds_free(p), -1;
  p->n = k;
  return 0;
}

void mg_rp_preds_free(mg_rp_preds *p) {
  free(p->v);
  memset(p, 0, sizeof *p);
}
