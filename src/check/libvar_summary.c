/*
 * The library's own algorithm variants beside the mock-ups (docs/libvar.md): per cell, the default
 * against its best mock-up and its best library variant, and which kind wins (MG_CK_KINDS); the
 * summary's section and the files libvariants.csv (one row per cell, MG_CK_LIBVAR_COLUMNS) and
 * libverdicts.csv (the verdicts.csv format, one row per library variant and cell).
 * The comparisons themselves are made by mg_ck_analyze (analyze.c), as for a mock-up.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/csv.h"
#include "util/text.h"
#include "check/check.h"
#include "util/fmt.h"

static const char *const kind_names[] = {
#define MG_X(E, n) n,
    MG_CK_KINDS(MG_X)
#undef MG_X
};

const char *mg_ck_kind_name(mg_ck_kind k) { return k < MG_CK_NKINDS ? kind_names[k] : "?"; }

/* The OK verdict of vs[0..n) at cell c with the largest slowdown; repairs only (not measure-only). */
static int best_at(const mg_ck_verdict *vs, int n, const mg_ck_verdict *c) {
  int best = -1;
  for (int i = 0; i < n; i++) {
    const mg_ck_verdict *v = &vs[i];
    if (v->aa || v->status != MG_CKV_OK || v->measure_only || !mg_ck_same_cell(v, c) || !isfinite(v->slowdown))
      continue;
    if (best < 0 || v->slowdown > vs[best].slowdown) best = i;
  }
  return best;
}

/* Every OK comparison of vs[0..n) at cell c is consistent (and there is one). */
static int all_consistent(const mg_ck_verdict *vs, int n, const mg_ck_verdict *c, int *any) {
  for (int i = 0; i < n; i++) {
    const mg_ck_verdict *v = &vs[i];
    if (v->aa || v->status != MG_CKV_OK || !mg_ck_same_cell(v, c)) continue;
    *any = 1;
    if (v->outcome != MG_CK_CONSISTENT) return 0;
  }
  return 1;
}

static mg_ck_kind winner(const mg_ck_result *r, const mg_ck_kinds *k, const mg_ck_verdict *cell) {
  const mg_ck_verdict *m = k->mock >= 0 ? &r->v[k->mock] : NULL, *l = k->lib >= 0 ? &r->lib[k->lib] : NULL;
  int mv = m && m->outcome == MG_CK_VIOLATION, lv = l && l->outcome == MG_CK_VIOLATION;
  if (mv && lv) {
    if (l->lo > m->hi) return MG_CK_WIN_LIBVAR;
    if (m->lo > l->hi) return MG_CK_WIN_MOCKUP;
    return MG_CK_WIN_INCONCLUSIVE;
  }
  if (lv) return MG_CK_WIN_LIBVAR;
  if (mv) return MG_CK_WIN_MOCKUP;
  int any = 0;
  if (all_consistent(r->v, r->n, cell, &any) && all_consistent(r->lib, r->nlib, cell, &any) && any)
    return MG_CK_WIN_DEFAULT;
  return MG_CK_WIN_INCONCLUSIVE;
}

int mg_ck_kinds_build(mg_ck_result *r) {
  free(r->kinds);
  r->kinds = NULL;
  r->nkinds = 0;
  if (!r->nlib) return 0;
  r->kinds = calloc((size_t)r->nlib, sizeof *r->kinds);
  if (!r->kinds) return -1;
  for (int i = 0; i < r->nlib; i++) { /* r->lib is in cell order: one entry per new cell */
    const mg_ck_verdict *c = &r->lib[i];
    const mg_ck_kinds *prev = r->nkinds ? &r->kinds[r->nkinds - 1] : NULL;
    if (prev && prev->coll == c->coll && prev->bytes == c->bytes && !strcmp(prev->red, c->red)) continue;
    mg_ck_kinds *k = &r->kinds[r->nkinds++];
    k->coll = c->coll;
    k->bytes = c->bytes;
    snprintf(k->red, sizeof k->red, "%s", c->red);
    k->mock = best_at(r->v, r->n, c);
    k->lib = best_at(r->lib, r->nlib, c);
    k->med_def = k->lib >= 0 ? r->lib[k->lib].med_def : k->mock >= 0 ? r->v[k->mock].med_def : c->med_def;
    k->winner = winner(r, k, c);
  }
  return 0;
}

/* ---- libvariants.csv ---- */

/* The columns of libvariants.csv, X(name): one list for the header and the rows (docs/libvar.md). */
#define MG_CK_LIBVAR_COLUMNS(X)                                                                          \
  X(collective) X(bytes) X(reduction) X(median_default_sec) X(best_mockup) X(mockup_guideline)          \
  X(median_mockup_sec) X(mockup_ratio) X(mockup_ratio_lo) X(mockup_ratio_hi) X(mockup_outcome)          \
  X(best_lib_variant) X(median_lib_sec) X(lib_ratio) X(lib_ratio_lo) X(lib_ratio_hi) X(lib_outcome) X(winner)

static void num(FILE *f, double x) {
  if (isfinite(x)) fprintf(f, "%.9g", x);
}

/* The contender's columns: name, (guideline), median, ratio, interval, outcome. */
static void contender(FILE *f, const mg_ck_verdict *v, int guideline) {
  if (!v) {
    fputs(guideline ? ",,,,,,," : ",,,,,,", f);
    return;
  }
  mg_csv_str(f, v->alg);
  if (guideline) fprintf(f, ",%s", v->guideline);
  double x[] = {v->med_mock, v->slowdown, v->lo, v->hi};
  for (size_t i = 0; i < sizeof x / sizeof x[0]; i++) fputc(',', f), num(f, x[i]);
  fprintf(f, ",%s,", mg_ck_outcome_name(v->outcome));
}

void mg_ck_write_libvariants_csv(FILE *f, const mg_ck_data *d, const mg_ck_result *r) {
  (void)d;
  mg_meta(f, "format", "mpiguide-check-libvariants/1");
  mg_meta(f, "lib_family", "%d", r->lib_family);
  int first = 1;
#define MG_X(n) fprintf(f, "%s%s", first ? "" : ",", #n), first = 0;
  MG_CK_LIBVAR_COLUMNS(MG_X)
#undef MG_X
  fputc('\n', f);
  for (int i = 0; i < r->nkinds; i++) {
    const mg_ck_kinds *k = &r->kinds[i];
    fprintf(f, "%s,%zu,", mg_colls[k->coll].name, k->bytes);
    mg_csv_str(f, k->red);
    fputc(',', f);
    num(f, k->med_def);
    fputc(',', f);
    contender(f, k->mock >= 0 ? &r->v[k->mock] : NULL, 1);
    contender(f, k->lib >= 0 ? &r->lib[k->lib] : NULL, 0);
    fprintf(f, "%s\n", mg_ck_kind_name(k->winner));
  }
}

/* libverdicts.csv: the verdicts.csv format over the library variants' comparisons. */
void mg_ck_write_libverdicts_csv(FILE *f, const mg_ck_data *d, const mg_ck_result *r) {
  mg_ck_result t = *r;
  t.v = r->lib, t.n = r->nlib, t.family = r->lib_family;
  t.rel = NULL, t.nrel = 0;
  mg_ck_write_verdicts_csv(f, d, &t);
}

/* ---- summary ---- */

static void ratio_text(const mg_ck_verdict *v, char *buf, size_t len) {
  if (!v) {
    snprintf(buf, len, "-");
    return;
  }
  char ci[48] = "";
  if (isfinite(v->lo)) snprintf(ci, sizeof ci, " [%.2f, %.2f]", v->lo, v->hi);
  snprintf(buf, len, "%s %.2fx%s %s", v->alg, v->slowdown, ci,
           v->outcome == MG_CK_VIOLATION ? "V" : v->outcome == MG_CK_CONSISTENT ? "C" : "?");
}

void mg_ck_print_libvariants(FILE *f, const mg_ck_result *r) {
  if (!r->nkinds) return;
  int wins[MG_CK_NKINDS] = {0};
  for (int i = 0; i < r->nkinds; i++) wins[r->kinds[i].winner]++;
  fprintf(f, "\nlibrary variants (the MPI library's own algorithms, lib:NAME; not guideline verdicts; adjusted for "
             "%d comparisons):\n", r->lib_family);
  fprintf(f, "  ratio = median(default) / median(contender) [interval]; V faster, C not faster, ? inconclusive\n");
  fprintf(f, "  %-22s %8s %11s  %-44s %-44s %s\n", "collective", "bytes", "default[us]", "best mock-up",
          "best library variant", "wins");
  for (int i = 0; i < r->nkinds; i++) {
    const mg_ck_kinds *k = &r->kinds[i];
    char name[64], red[MG_CK_RED + 1] = "", a[128], b[128], sz[32];
    if (*k->red) red[0] = ':', mg_ck_red_short(k->red, red + 1, sizeof red - 1);
    snprintf(name, sizeof name, "%s%s", mg_colls[k->coll].name, red);
    mg_fmt_bytes(k->bytes, MG_BYTES_EXACT, sz, sizeof sz);
    ratio_text(k->mock >= 0 ? &r->v[k->mock] : NULL, a, sizeof a);
    ratio_text(k->lib >= 0 ? &r->lib[k->lib] : NULL, b, sizeof b);
    fprintf(f, "  %-22s %8s %11.2f  %-44s %-44s %s\n", name, sz, 1e6 * k->med_def, a, b, mg_ck_kind_name(k->winner));
  }
  fprintf(f, "  wins:");
  for (int w = 0; w < MG_CK_NKINDS; w++) fprintf(f, "%s %s %d", w ? "," : "", mg_ck_kind_name((mg_ck_kind)w), wins[w]);
  fprintf(f, " (of %d cells; libvariants.csv, libverdicts.csv)\n", r->nkinds);
}
