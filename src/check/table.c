/*
 * The comparers (named as in PGChecker, Hunold & Hagn 2023, so its readers
 * recognise them) and the summary, as tables printed as text, CSV or JSON.
 *
 * Every comparer builds one table whose first column is the collective.
 * Text output prints one section per collective without that column, or,
 * with --merge, one table with it; widths come from the contents, and the
 * columns are chosen so that a line stays within 100 characters (long
 * mock-up names become their guideline id in merged tables, with a legend).
 * Text cells carry display units (microseconds, "64K"); CSV and JSON cells
 * carry machine values (seconds, bytes) and may hold more columns than the
 * text (column kinds below).
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "stats/stats.h"
#include "util/fmt.h"
#include "util/text.h"

/* ---------- a table ---------- */

enum { K_TEXT = 1, K_DATA = 2, K_BOTH = 3 }; /* where a column appears */
enum { T_STR, T_NUM };                       /* JSON type of the machine value */

typedef struct tcol {
  const char *head; /* text header, with units */
  const char *key;  /* CSV/JSON name */
  int where, type, left;
} tcol;

typedef struct table {
  int ncols;
  tcol col[24];
  int nrows, cap;
  char **text, **data; /* nrows x ncols; data NULL: same as text */
  mg_coll *coll;
  int oom;
  unsigned used_gl[MG_NCOLL]; /* merged text: mock-ups shown by guideline id (legend) */
  int multi_red;              /* the data hold several reduction pairs: the text names them */
  int red_col;                /* the column "reduction" (CSV/JSON only), -1 none */
} table;

static void tcol_add(table *t, const char *head, const char *key, int where, int type, int left) {
  t->col[t->ncols++] = (tcol){head, key, where, type, left};
}

static int trow(table *t, mg_coll coll) {
  if (t->nrows == t->cap) {
    int nc = t->cap ? 2 * t->cap : 128;
    char **nt = realloc(t->text, (size_t)nc * (size_t)t->ncols * sizeof *nt);
    if (nt) t->text = nt;
    char **nd = realloc(t->data, (size_t)nc * (size_t)t->ncols * sizeof *nd);
    if (nd) t->data = nd;
    mg_coll *ncl = realloc(t->coll, (size_t)nc * sizeof *ncl);
    if (ncl) t->coll = ncl;
    if (!nt || !nd || !ncl) {
      t->oom = 1;
      return -1;
    }
    t->cap = nc;
  }
  int r = t->nrows++;
  memset(&t->text[(size_t)r * (size_t)t->ncols], 0, (size_t)t->ncols * sizeof *t->text);
  memset(&t->data[(size_t)r * (size_t)t->ncols], 0, (size_t)t->ncols * sizeof *t->data);
  t->coll[r] = coll;
  return r;
}

static char *fmt(const char *f, va_list ap) {
  char buf[512];
  vsnprintf(buf, sizeof buf, f, ap);
  return strdup(buf);
}

/* Cell c of row r: text (display) and, if different, the machine value. */
static void cell_set(table *t, char **grid, int r, int c, const char *f, va_list ap) {
  if (r < 0) return;
  char *s = fmt(f, ap);
  if (!s) t->oom = 1;
  grid[(size_t)r * (size_t)t->ncols + (size_t)c] = s;
}
static void cell_text(table *t, int r, int c, const char *f, ...) __attribute__((format(printf, 4, 5)));
static void cell_text(table *t, int r, int c, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  cell_set(t, t->text, r, c, f, ap);
  va_end(ap);
}
static void cell_data(table *t, int r, int c, const char *f, ...) __attribute__((format(printf, 4, 5)));
static void cell_data(table *t, int r, int c, const char *f, ...) {
  va_list ap;
  va_start(ap, f);
  cell_set(t, t->data, r, c, f, ap);
  va_end(ap);
}

static void table_free(table *t) {
  for (size_t i = 0; i < (size_t)t->nrows * (size_t)t->ncols; i++) {
    free(t->text[i]);
    free(t->data[i]);
  }
  free(t->text);
  free(t->data);
  free(t->coll);
}

static const char *tget(const table *t, int r, int c) {
  const char *s = t->text[(size_t)r * (size_t)t->ncols + (size_t)c];
  return s ? s : "";
}
static const char *dget(const table *t, int r, int c) {
  const char *s = t->data[(size_t)r * (size_t)t->ncols + (size_t)c];
  return s ? s : tget(t, r, c);
}

/* ---------- number formats ---------- */

/* microseconds for text: 4 significant digits in a fixed layout */
static void us(table *t, int r, int c, double sec) {
  double v = 1e6 * sec;
  if (!isfinite(v))
    cell_text(t, r, c, "-");
  else if (v < 10)
    cell_text(t, r, c, "%.3f", v);
  else if (v < 1000)
    cell_text(t, r, c, "%.2f", v);
  else if (v < 100000)
    cell_text(t, r, c, "%.1f", v);
  else
    cell_text(t, r, c, "%.0f", v);
  if (isfinite(sec))
    cell_data(t, r, c, "%.9g", sec);
  else
    cell_data(t, r, c, "%s", "");
}

static void num(table *t, int r, int c, const char *f, double x) {
  if (!isfinite(x) && !isinf(x)) {
    cell_text(t, r, c, "-");
    cell_data(t, r, c, "%s", "");
    return;
  }
  if (isinf(x)) {
    cell_text(t, r, c, "%s", x > 0 ? "inf" : "-inf");
    cell_data(t, r, c, "%s", x > 0 ? "inf" : "-inf");
    return;
  }
  cell_text(t, r, c, f, x);
  cell_data(t, r, c, "%.9g", x);
}

static void pval(table *t, int r, int c, double p) {
  if (!isfinite(p))
    cell_text(t, r, c, "-");
  else if (p == 0)
    cell_text(t, r, c, "<1e-300"); /* below the smallest double the tail reaches */
  else if (p >= 0.001)
    cell_text(t, r, c, "%.3f", p);
  else
    cell_text(t, r, c, "%.1e", p);
  if (isfinite(p))
    cell_data(t, r, c, "%.6g", p);
  else
    cell_data(t, r, c, "%s", "");
}

/* The size of a row, and its reduction pair: in the size's text when the data hold several, and in
 * the column "reduction" of CSV and JSON. */
static void size_cell(table *t, int r, int c, size_t bytes, const char *red) {
  char b[32], sr[MG_CK_RED];
  mg_fmt_bytes(bytes, MG_BYTES_EXACT, b, sizeof b);
  if (t->multi_red && *red) cell_text(t, r, c, "%s %s", b, mg_ck_red_short(red, sr, sizeof sr));
  else cell_text(t, r, c, "%s", b);
  cell_data(t, r, c, "%zu", bytes);
  if (t->red_col >= 0) {
    cell_text(t, r, t->red_col, "%s", red);
  }
}

/* The last column of every comparer: the reduction pair of the row ("" for other collectives). */
static void red_col_add(table *t) {
  t->red_col = t->ncols;
  tcol_add(t, "", "reduction", K_DATA, T_STR, 1);
}

/* Whether the verdicts hold more than one reduction pair. */
static int multi_red(const mg_ck_result *r) {
  const char *first = NULL;
  for (int i = 0; i < r->n; i++)
    if (*r->v[i].red) {
      if (first && strcmp(first, r->v[i].red)) return 1;
      first = r->v[i].red;
    }
  return 0;
}

static void ci(table *t, int r, int c, double lo, double hi) {
  if (isfinite(lo) && isfinite(hi))
    cell_text(t, r, c, "[%.2f,%.2f]", lo, hi);
  else
    cell_text(t, r, c, "-");
}

static void mock_cell(table *t, int r, int c, mg_coll coll, const char *alg, int shortform) {
  char b[128];
  mg_ck_label(coll, alg, shortform, b, sizeof b);
  cell_text(t, r, c, "%s", b);
  cell_data(t, r, c, "%s", alg);
  int a = mg_alg_find(coll, alg);
  if (shortform && a > 0) t->used_gl[coll] |= 1u << a;
}

/* The verdict in words, with why an inconclusive one is. */
static const char *verdict_word(const mg_ck_verdict *v) {
  if (v->status == MG_CKV_SKIPPED) return "skipped";
  if (v->status == MG_CKV_ERROR) return "error";
  if (v->outcome != MG_CK_INCONCLUSIVE) return mg_ck_outcome_name(v->outcome);
  if (v->leaning && v->noise) return "inconclusive (noise)";
  if (v->significant && v->launches_slower != v->launches) return "inconclusive (launches)";
  return "inconclusive";
}

/* ---------- output ---------- */

static void json_num(FILE *f, const char *s) {
  if (!*s || !strcmp(s, "nan"))
    fputs("null", f);
  else if (!strcmp(s, "inf"))
    fputs("1e999", f); /* parses as +infinity in Python and JavaScript */
  else if (!strcmp(s, "-inf"))
    fputs("-1e999", f);
  else
    fputs(s, f);
}

static void print_legend(FILE *f, const table *t) {
  int any = 0;
  for (int c = 0; c < MG_NCOLL; c++)
    for (int a = 1; a < mg_colls[c].nalgs; a++)
      if (t->used_gl[c] & (1u << a)) {
        if (!any) fprintf(f, "mock-ups:\n");
        any = 1;
        const mg_alg *al = &mg_colls[c].algs[a];
        if (51 + strlen(al->formula) <= 100)
          fprintf(f, "  %-5s %-42s %s\n", al->guideline, al->name, al->formula);
        else
          fprintf(f, "  %-5s %s\n        %s\n", al->guideline, al->name, al->formula);
      }
}

static void print_table(FILE *f, const table *t, mg_ck_format fmt, int merge, const char *name) {
  if (fmt == MG_CK_CSV) {
    int first = 1;
    for (int c = 0; c < t->ncols; c++)
      if (t->col[c].where & K_DATA) {
        if (!first) fputc(',', f);
        fputs(t->col[c].key, f);
        first = 0;
      }
    fputc('\n', f);
    for (int r = 0; r < t->nrows; r++) {
      first = 1;
      for (int c = 0; c < t->ncols; c++)
        if (t->col[c].where & K_DATA) {
          if (!first) fputc(',', f);
          mg_csv_str(f, dget(t, r, c));
          first = 0;
        }
      fputc('\n', f);
    }
    return;
  }
  if (fmt == MG_CK_JSON) {
    fprintf(f, "{\"comparer\": ");
    mg_json_str(f, name);
    fprintf(f, ", \"rows\": [");
    for (int r = 0; r < t->nrows; r++) {
      fprintf(f, "%s\n  {", r ? "," : "");
      int first = 1;
      for (int c = 0; c < t->ncols; c++)
        if (t->col[c].where & K_DATA) {
          fprintf(f, "%s\"%s\": ", first ? "" : ", ", t->col[c].key);
          if (t->col[c].type == T_NUM)
            json_num(f, dget(t, r, c));
          else
            mg_json_str(f, dget(t, r, c));
          first = 0;
        }
      fputc('}', f);
    }
    fprintf(f, "\n]}\n");
    return;
  }
  int w[24];
  for (int c = 0; c < t->ncols; c++) {
    w[c] = (int)strlen(t->col[c].head);
    for (int r = 0; r < t->nrows; r++) {
      int l = (int)strlen(tget(t, r, c));
      if (l > w[c]) w[c] = l;
    }
  }
  /* two spaces between columns, one when that keeps a line within 100 characters */
  int total = 0, ncol = 0;
  for (int c = merge ? 0 : 1; c < t->ncols; c++)
    if (t->col[c].where & K_TEXT) total += w[c], ncol++;
  const char *sep = total + 2 * (ncol - 1) <= 100 ? "  " : " ";
  int r = 0;
  while (r < t->nrows) {
    int end = r;
    if (merge)
      end = t->nrows;
    else
      while (end < t->nrows && t->coll[end] == t->coll[r]) end++;
    if (!merge) { /* "bcast (MPI_Bcast), bytes = whole vector"; "gatherv ..., bytes = at the root the whole vector" */
      const char *def = mg_colls[t->coll[r]].size_def, *colon = strchr(def, ':');
      int len = colon ? (int)(colon - def) : (int)strlen(def);
      if (!mg_colls[t->coll[r]].known && colon) { /* "not known on every rank: X, ..." -> X */
        def = colon + 2;
        len = strchr(def, ',') ? (int)(strchr(def, ',') - def) : (int)strlen(def);
      }
      fprintf(f, "%s (%s), bytes = %.*s\n", mg_colls[t->coll[r]].name, mg_colls[t->coll[r]].mpi_name, len, def);
    }
    for (int pass = 0; pass <= end - r; pass++) { /* pass 0: header */
      int first = 1;
      size_t linelen = 0;
      char line[2048];
      line[0] = '\0';
      for (int c = merge ? 0 : 1; c < t->ncols; c++) {
        if (!(t->col[c].where & K_TEXT)) continue;
        const char *s = pass == 0 ? t->col[c].head : tget(t, r + pass - 1, c);
        linelen += (size_t)snprintf(line + linelen, linelen < sizeof line ? sizeof line - linelen : 0,
                                    t->col[c].left ? "%s%-*s" : "%s%*s", first ? "" : sep, w[c], s);
        if (linelen >= sizeof line) linelen = sizeof line - 1;
        first = 0;
      }
      while (linelen > 0 && line[linelen - 1] == ' ') line[--linelen] = '\0';
      fprintf(f, "%s\n", line);
    }
    r = end;
    if (r < t->nrows) fputc('\n', f);
  }
  print_legend(f, t);
}

/* ---------- the comparers ---------- */

/* Pooled runtimes of (coll, alg, bytes, red) over all launches; caller frees. */
static double *pooled(const mg_ck_data *d, mg_coll coll, const char *alg, size_t bytes, const char *red,
                      size_t *n) {
  size_t tot = 0;
  for (int i = 0; i < d->nseries; i++) {
    const mg_ck_series *s = &d->series[i];
    if (s->coll == coll && s->bytes == bytes && !strcmp(s->red, red) && !strcmp(s->alg, alg)) tot += (size_t)s->n;
  }
  *n = tot;
  double *x = malloc((tot ? tot : 1) * sizeof *x);
  if (!x) return NULL;
  size_t k = 0;
  for (int i = 0; i < d->nseries; i++) {
    const mg_ck_series *s = &d->series[i];
    if (s->coll == coll && s->bytes == bytes && !strcmp(s->red, red) && !strcmp(s->alg, alg)) {
      memcpy(x + k, s->rt, (size_t)s->n * sizeof *x);
      k += (size_t)s->n;
    }
  }
  return x;
}

/* The algorithms of one cell in table order: default, then the verdicts' mock-ups. */
static int cell_algs(const mg_ck_result *r, int i, const char **names, int max) {
  int n = 0;
  names[n++] = "default";
  for (int k = i; k < r->n && mg_ck_same_cell(&r->v[k], &r->v[i]) && n < max; k++)
    if (!r->v[k].aa) names[n++] = r->v[k].alg;
  return n;
}

static void build_raw(table *t, const mg_ck_data *d, const mg_ck_result *res) {
  tcol_add(t, mg_ck_any_p2p(res) ? "operation" : "collective", "collective", K_BOTH, T_STR, 1);
  tcol_add(t, "bytes", "bytes", K_BOTH, T_NUM, 0);
  tcol_add(t, "algorithm", "algorithm", K_BOTH, T_STR, 1);
  tcol_add(t, "launch", "launch", K_BOTH, T_STR, 0);
  tcol_add(t, "round", "round", K_BOTH, T_NUM, 0);
  tcol_add(t, "runtime[us]", "runtime_sec", K_BOTH, T_NUM, 0);
  red_col_add(t);
  for (int i = 0; i < res->n; i = mg_ck_next_cell(res, i)) {
    const char *names[MG_MAX_ALGS * 4];
    int na = cell_algs(res, i, names, MG_MAX_ALGS * 4);
    for (int a = 0; a < na; a++)
      for (int l = 0; l < d->nlaunches; l++) {
        const mg_ck_series *s = mg_ck_find(d, res->v[i].coll, names[a], res->v[i].bytes, res->v[i].red, l);
        for (long k = 0; s && k < s->n; k++) {
          int r = trow(t, s->coll);
          cell_text(t, r, 0, "%s", mg_colls[s->coll].name);
          size_cell(t, r, 1, s->bytes, s->red);
          mock_cell(t, r, 2, s->coll, s->alg, 0);
          cell_text(t, r, 3, "%d", l + 1);
          cell_data(t, r, 3, "%s", d->launches[l].id);
          cell_text(t, r, 4, "%ld", s->round[k]);
          us(t, r, 5, s->rt[k]);
        }
      }
  }
}

static void build_runtime(table *t, const mg_ck_data *d, const mg_ck_result *res, int rel) {
  tcol_add(t, mg_ck_any_p2p(res) ? "operation" : "collective", "collective", K_BOTH, T_STR, 1);
  tcol_add(t, "bytes", "bytes", K_BOTH, T_NUM, 0);
  tcol_add(t, "algorithm", "algorithm", K_BOTH, T_STR, 1);
  tcol_add(t, "n", "n", K_BOTH, T_NUM, 0);
  tcol_add(t, "median[us]", "median_sec", K_BOTH, T_NUM, 0);
  if (rel) {
    tcol_add(t, "rel.runtime", "relative_runtime", K_BOTH, T_NUM, 0);
  } else {
    tcol_add(t, "mean[us]", "mean_sec", K_BOTH, T_NUM, 0);
    tcol_add(t, "min[us]", "min_sec", K_BOTH, T_NUM, 0);
    tcol_add(t, "max[us]", "max_sec", K_BOTH, T_NUM, 0);
  }
  red_col_add(t);
  for (int i = 0; i < res->n; i = mg_ck_next_cell(res, i)) {
    const char *names[MG_MAX_ALGS * 4];
    int na = cell_algs(res, i, names, MG_MAX_ALGS * 4);
    double med0 = NAN;
    for (int a = 0; a < na; a++) {
      size_t n;
      double *x = pooled(d, res->v[i].coll, names[a], res->v[i].bytes, res->v[i].red, &n);
      if (!x) {
        t->oom = 1;
        return;
      }
      mg_stats_summary s;
      int ok = n > 0 && mg_stats_summarize(x, n, &s) == MG_STATS_OK;
      free(x);
      if (a == 0) med0 = ok ? s.median : NAN;
      int r = trow(t, res->v[i].coll);
      cell_text(t, r, 0, "%s", mg_colls[res->v[i].coll].name);
      size_cell(t, r, 1, res->v[i].bytes, res->v[i].red);
      mock_cell(t, r, 2, res->v[i].coll, names[a], 0);
      cell_text(t, r, 3, "%zu", n);
      us(t, r, 4, ok ? s.median : NAN);
      if (rel) {
        num(t, r, 5, "%.3f", ok && med0 > 0 ? s.median / med0 : NAN);
      } else {
        us(t, r, 5, ok ? s.mean : NAN);
        us(t, r, 6, ok ? s.min : NAN);
        us(t, r, 7, ok ? s.max : NAN);
      }
    }
  }
}

static const char *p_head(const mg_ck_result *r) { return r->opts.holm ? "p_adj" : "p"; }

static void build_violation(table *t, const mg_ck_result *res, int merge) {
  tcol_add(t, mg_ck_any_p2p(res) ? "operation" : "collective", "collective", K_BOTH, T_STR, 1);
  tcol_add(t, "bytes", "bytes", K_BOTH, T_NUM, 0);
  tcol_add(t, "mock-up", "mockup", K_BOTH, T_STR, 1);
  tcol_add(t, "slowdown", "slowdown", K_BOTH, T_NUM, 0);
  tcol_add(t, "interval", "", K_TEXT, T_STR, 1);
  tcol_add(t, p_head(res), "p_adjusted", K_BOTH, T_NUM, 0);
  tcol_add(t, "verdict", "verdict", K_BOTH, T_STR, 1);
  tcol_add(t, "", "violation", K_DATA, T_NUM, 0);
  tcol_add(t, "", "noise_warning", K_DATA, T_NUM, 0);
  tcol_add(t, "", "outcome", K_DATA, T_STR, 1);
  red_col_add(t);
  for (int i = 0; i < res->n; i++) {
    const mg_ck_verdict *v = &res->v[i];
    int r = trow(t, v->coll);
    cell_text(t, r, 9, "%s", v->status == MG_CKV_OK ? mg_ck_outcome_name(v->outcome) : "");
    cell_text(t, r, 0, "%s", mg_colls[v->coll].name);
    size_cell(t, r, 1, v->bytes, v->red);
    mock_cell(t, r, 2, v->coll, v->alg, merge);
    num(t, r, 3, "%.2f", v->slowdown);
    ci(t, r, 4, v->lo, v->hi);
    pval(t, r, 5, v->p_adj);
    cell_text(t, r, 6, "%s", verdict_word(v));
    cell_text(t, r, 7, "%d", v->violation);
    cell_text(t, r, 8, "%d", v->noise);
  }
}

static void build_detailed(table *t, const mg_ck_result *res, int merge) {
  const int mwu = res->opts.test == MG_CK_MWU;
  tcol_add(t, mg_ck_any_p2p(res) ? "operation" : "collective", "collective", K_BOTH, T_STR, 1);
  tcol_add(t, "bytes", "bytes", K_BOTH, T_NUM, 0);
  tcol_add(t, "mock", "mockup", K_BOTH, T_STR, 1);
  tcol_add(t, "n d/m", "", K_TEXT, T_STR, 0);
  tcol_add(t, "", "n_default", K_DATA, T_NUM, 0);
  tcol_add(t, "", "n_mockup", K_DATA, T_NUM, 0);
  tcol_add(t, "med_d[us]", "median_default_sec", K_BOTH, T_NUM, 0);
  tcol_add(t, "med_m[us]", "median_mockup_sec", K_BOTH, T_NUM, 0);
  /* merged text: the collective column takes the means' place (they stay in CSV/JSON) */
  tcol_add(t, "avg_d[us]", "mean_default_sec", merge ? K_DATA : K_BOTH, T_NUM, 0);
  tcol_add(t, "avg_m[us]", "mean_mockup_sec", merge ? K_DATA : K_BOTH, T_NUM, 0);
  tcol_add(t, mwu ? "U" : "t", "statistic", merge ? K_DATA : K_BOTH, T_NUM, 0);
  tcol_add(t, "", "critical_value", K_DATA, T_NUM, 0);
  tcol_add(t, "", "p_value", K_DATA, T_NUM, 0);
  tcol_add(t, p_head(res), "p_adjusted", K_BOTH, T_NUM, 0);
  tcol_add(t, "slow", "slowdown", K_BOTH, T_NUM, 0);
  tcol_add(t, "interval", "", K_TEXT, T_STR, 1);
  tcol_add(t, "", "slowdown_lo", K_DATA, T_NUM, 0);
  tcol_add(t, "", "slowdown_hi", K_DATA, T_NUM, 0);
  tcol_add(t, "fl", "flags", K_BOTH, T_STR, 1);
  tcol_add(t, "", "violation", K_DATA, T_NUM, 0);
  tcol_add(t, "", "noise_warning", K_DATA, T_NUM, 0);
  red_col_add(t);
  for (int i = 0; i < res->n; i++) {
    const mg_ck_verdict *v = &res->v[i];
    int r = trow(t, v->coll);
    char fl[8];
    cell_text(t, r, 0, "%s", mg_colls[v->coll].name);
    size_cell(t, r, 1, v->bytes, v->red);
    mock_cell(t, r, 2, v->coll, v->alg, 1);
    cell_text(t, r, 3, "%ld/%ld", v->n_def, v->n_mock);
    cell_text(t, r, 4, "%ld", v->n_def);
    cell_text(t, r, 5, "%ld", v->n_mock);
    us(t, r, 6, v->med_def);
    us(t, r, 7, v->med_mock);
    us(t, r, 8, v->mean_def);
    us(t, r, 9, v->mean_mock);
    num(t, r, 10, mwu ? "%.6g" : "%.3f", v->stat);
    num(t, r, 11, "%g", v->crit);
    pval(t, r, 12, v->p);
    pval(t, r, 13, v->p_adj);
    num(t, r, 14, "%.2f", v->slowdown);
    ci(t, r, 15, v->lo, v->hi);
    num(t, r, 16, "%g", v->lo);
    num(t, r, 17, "%g", v->hi);
    if (v->status == MG_CKV_OK)
      cell_text(t, r, 18, "%s", mg_ck_flags(v, fl));
    else
      cell_text(t, r, 18, "-"); /* not compared: verdicts.csv and the violation table say why */
    cell_text(t, r, 19, "%d", v->violation);
    cell_text(t, r, 20, "%d", v->noise);
  }
}

static void build_grouped(table *t, const mg_ck_result *res, int merge) {
  tcol_add(t, mg_ck_any_p2p(res) ? "operation" : "collective", "collective", K_BOTH, T_STR, 1);
  tcol_add(t, "bytes", "bytes", K_BOTH, T_NUM, 0);
  tcol_add(t, "n", "n_default", merge ? K_DATA : K_BOTH, T_NUM, 0);
  tcol_add(t, merge ? "def[us]" : "default[us]", "median_default_sec", K_BOTH, T_NUM, 0);
  tcol_add(t, merge ? "mock-up" : "fastest violating mock-up", "mockup", K_BOTH, T_STR, 1);
  tcol_add(t, merge ? "mock[us]" : "mock-up[us]", "median_mockup_sec", K_BOTH, T_NUM, 0);
  tcol_add(t, merge ? "slow" : "slowdown", "slowdown", K_BOTH, T_NUM, 0);
  tcol_add(t, "interval", "", K_TEXT, T_STR, 1);
  tcol_add(t, "", "slowdown_lo", K_DATA, T_NUM, 0);
  tcol_add(t, "", "slowdown_hi", K_DATA, T_NUM, 0);
  tcol_add(t, p_head(res), "p_adjusted", K_BOTH, T_NUM, 0);
  tcol_add(t, "flag", "flags", K_BOTH, T_STR, 1);
  tcol_add(t, "", "violations", K_DATA, T_NUM, 0);
  tcol_add(t, "", "comparisons", K_DATA, T_NUM, 0);
  red_col_add(t);
  mg_ck_group *g;
  int n = mg_ck_grouped(res, &g);
  if (n < 0) {
    t->oom = 1;
    return;
  }
  for (int i = 0; i < n; i++) {
    int r = trow(t, g[i].coll);
    cell_text(t, r, 0, "%s", mg_colls[g[i].coll].name);
    size_cell(t, r, 1, g[i].bytes, g[i].red);
    cell_text(t, r, 2, "%ld", g[i].n_def > 0 ? g[i].n_def : 0);
    us(t, r, 3, g[i].med_def);
    cell_text(t, r, 12, "%d", g[i].violations);
    cell_text(t, r, 13, "%d", g[i].comparisons);
    const mg_ck_verdict *v = g[i].best;
    if (!v) {
      cell_text(t, r, 4, "%s", g[i].comparisons ? "-" : "not measured (no valid measurement)");
      cell_data(t, r, 4, "%s", "");
      for (int c = 5; c <= 11; c++) cell_data(t, r, c, "%s", "");
      continue;
    }
    char fl[8];
    mock_cell(t, r, 4, g[i].coll, v->alg, merge);
    us(t, r, 5, v->med_mock);
    num(t, r, 6, "%.2f", v->slowdown);
    ci(t, r, 7, v->lo, v->hi);
    num(t, r, 8, "%g", v->lo);
    num(t, r, 9, "%g", v->hi);
    pval(t, r, 10, v->p_adj);
    cell_text(t, r, 11, "%s", mg_ck_flags(v, fl));
  }
  free(g);
}

int mg_ck_print_comparer(FILE *f, mg_ck_comparer c, mg_ck_format fmt, int merge, const mg_ck_data *d,
                         const mg_ck_result *r) {
  table t;
  memset(&t, 0, sizeof t);
  t.red_col = -1;
  t.multi_red = multi_red(r);
  int text_merge = fmt == MG_CK_TEXT && merge;
  switch (c) {
  case MG_CKC_RAW: build_raw(&t, d, r); break;
  case MG_CKC_ABS: build_runtime(&t, d, r, 0); break;
  case MG_CKC_REL: build_runtime(&t, d, r, 1); break;
  case MG_CKC_VIOLATION: build_violation(&t, r, text_merge); break;
  case MG_CKC_DETAILED: build_detailed(&t, r, text_merge); break;
  case MG_CKC_GROUPED: build_grouped(&t, r, text_merge); break;
  default: break;
  }
  int rc = t.oom ? -1 : 0;
  if (!rc) {
    print_table(f, &t, fmt, merge, mg_ck_comparer_name(c));
    if (fmt == MG_CK_TEXT && (c == MG_CKC_VIOLATION || c == MG_CKC_DETAILED || c == MG_CKC_GROUPED))
      fprintf(f,
              "flags: V violation: the slowdown interval lies above 1 (each end at alpha %g / %.0f, the\n"
              "         comparisons x looks%s), slower in every launch and at every root, beyond the noise\n"
              "       C consistent: the default is not slower by more than %g %% (the interval's upper end)\n"
              "       ? inconclusive: neither shown, with ~ noise: the medians differ by less than one\n"
              "         synchronisation, L: the interval above 1, but not slower in every launch, or R: not\n"
              "         slower at every root; S: a violation whose launches span less than %.0f s (one launch:\n"
              "         one moment of the machine; check --launches N spaces them over --min-span)\n",
              r->opts.alpha, r->family > 0 ? mg_ck_result_mult(r) : 1.0, r->opts.holm ? "" : ", not adjusted",
              100 * r->opts.margin, r->opts.min_span);
  }
  table_free(&t);
  return rc;
}

