/*
 * Unit tests of the HTML report (src/report, docs/report.md) on fixed data, no MPI:
 *   mg_test_report CHECK_DATA_DIR REPORT_DATA_DIR GROUP
 * Golden coordinates come from the axis mapping documented in report.h, by hand:
 * tests/check/data/small, bcast: sizes 1 KiB and 64 KiB, medians (us) default 14.5 / 104.5,
 * allgatherv 3.25 / 104, scatter_allgather 24.5 / - (skipped at 64 KiB). Ratios 0.22414,
 * 1.68966, 0.99522 -> y range [1/8, 2] (log2 span 4), y(r) = 16 + 252 (1 - log2 r) / 4:
 * 214.93, 31.33, 79.44, and y(1) = 79; x(1 KiB) = 64 + 10 = 74, x(64 KiB) = 64 + 520 - 10 = 574.
 * Default vs tuned (data/verify/verify.csv, from a real `mpiguide verify` at 4 ranks), same mapping,
 * rmin/rmax over the ratios and their interval bounds:
 *   allreduce: sizes 32 KiB, 64 KiB, 128 KiB; bounds 0.692521 .. 1.04376 -> y range [1/2, 2] (span 2);
 *     64 KiB (tuned GL5, faster): ratio 0.703321, log2 = -0.507778: x = 74 + 500/2 = 324,
 *     y = 16 + 252 (1 + 0.507778) / 2 = 205.98.
 *   scatter: sizes 128 B .. 8 KiB (log2 span 6); bounds 0.0241277 .. 1.01613 -> [1/64, 2] (span 7);
 *     256 B (tuned scatterv, faster): ratio 0.0244494, log2 = -5.354037: x = 74 + 500/6 = 157.33,
 *     y = 16 + 252 (1 + 5.354037) / 7 = 244.75.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check/check.h"
#include "report/html.h"
#include "report/report.h"
#include "common/test.h"

static const char *cdir, *rdir;

/* The page of the given sources, one run per source. Caller frees. */
static char *render(const char *const *src, int n) {
  mg_ck_data d[8];
  mg_ck_result r[8];
  mg_rp_run runs[8];
  char err[MG_CK_ERR], *buf = NULL;
  size_t len = 0;
  for (int i = 0; i < n; i++) {
    mg_ck_data_init(&d[i]);
    memset(&r[i], 0, sizeof r[i]);
    if (mg_ck_read(&d[i], src[i], err, sizeof err)) {
      printf("FAIL: %s\n", err);
      exit(1);
    }
    mg_ck_opts o;
    mg_ck_opts_default(&o);
    if (d[i].launches[0].has_seed) o.seed = d[i].launches[0].seed;
    if (mg_ck_analyze(&d[i], &o, &r[i], err, sizeof err)) { /* as the command: a page without verdicts */
      mg_ck_result_free(&r[i]);
      memset(&r[i], 0, sizeof r[i]);
      r[i].opts = o;
    }
    runs[i] = (mg_rp_run){.d = &d[i], .r = &r[i]};
  }
  FILE *f = open_memstream(&buf, &len);
  ASSERT_MSG(mg_rp_write(f, runs, n) == 0, "mg_rp_write failed");
  fclose(f);
  for (int i = 0; i < n; i++) mg_ck_result_free(&r[i]), mg_ck_data_free(&d[i]);
  return buf;
}

static char *path(const char *dir, const char *sub) {
  static char p[8][1024];
  static int k;
  k = (k + 1) % 8;
  snprintf(p[k], sizeof p[k], "%s/%s", dir, sub);
  return p[k];
}

/* The text of the plot panel of coll at np processes (up to the next panel), or NULL. Caller frees. */
static char *panel(const char *html, const char *coll, int np) {
  char id[128];
  snprintf(id, sizeof id, "<div class=\"plot\" id=\"%s-%d\"", coll, np);
  const char *a = strstr(html, id);
  if (!a) return NULL;
  const char *b = strstr(a + 1, "<div class=\"plot\"");
  const char *c = strstr(a + 1, "<h2");
  if (!b || (c && c < b)) b = c;
  return b ? strndup(a, (size_t)(b - a)) : strdup(a);
}

static int count(const char *s, const char *what) {
  int n = 0;
  for (const char *p = s; (p = strstr(p, what)); p++) n++;
  return n;
}

/* The point of alg at bytes: its class, data-x, data-y and the text of the group. */
static int point(const char *html, const char *alg, size_t bytes, char *cls, double *x, double *y, char **group) {
  char key[256];
  snprintf(key, sizeof key, "data-alg=\"%s\" data-bytes=\"%zu\"", alg, bytes);
  const char *p = strstr(html, key);
  if (!p) return -1;
  const char *g = p;
  while (g > html && strncmp(g, "<g class=\"pt ", 13)) g--;
  if (sscanf(g, "<g class=\"pt %63[^\"]\"", cls) != 1) return -1;
  const char *dx = strstr(p, "data-x=\""), *dy = strstr(p, "data-y=\"");
  *x = atof(dx + 8), *y = atof(dy + 8);
  const char *end = strstr(p, "</g>\n");
  *group = strndup(g, (size_t)(end - g));
  return 0;
}

static void t_axis(void) {
  ASSERT_MSG(fabs(mg_rp_xmap(1024, 1024, 65536) - 74) < 1e-9, "x(1K)");
  ASSERT_MSG(fabs(mg_rp_xmap(65536, 1024, 65536) - 574) < 1e-9, "x(64K)");
  ASSERT_MSG(fabs(mg_rp_xmap(8192, 1024, 65536) - 324) < 1e-9, "x(8K) midway on the log scale");
  ASSERT_MSG(fabs(mg_rp_xmap(16, 16, 16) - 324) < 1e-9, "single size: centre");
  double lo, hi;
  mg_rp_yrange(0.224, 1.69, &lo, &hi);
  ASSERT_MSG(lo == 0.125 && hi == 2, "yrange %g %g", lo, hi);
  mg_rp_yrange(0.7, 1.3, &lo, &hi);
  ASSERT_MSG(lo == 0.5 && hi == 2, "yrange at least [1/2, 2]: %g %g", lo, hi);
  mg_rp_yrange(0.1, 9, &lo, &hi);
  ASSERT_MSG(lo == 0.0625 && hi == 16, "yrange %g %g", lo, hi);
  ASSERT_MSG(fabs(mg_rp_ymap(1, 0.125, 2) - 79) < 1e-9, "y(1)");
  ASSERT_MSG(fabs(mg_rp_ymap(2, 0.125, 2) - 16) < 1e-9, "y(top)");
  ASSERT_MSG(fabs(mg_rp_ymap(0.125, 0.125, 2) - 268) < 1e-9, "y(bottom)");
}

static void t_golden(void) {
  const char *src[] = {path(cdir, "small")};
  char *h = render(src, 1), *b = panel(h, "bcast", 4), cls[64], *g;
  double x, y;
  ASSERT_MSG(b, "no bcast panel");
  if (!b) return;
  ASSERT_MSG(strstr(b, "data-smin=\"1024\" data-smax=\"65536\" data-ymin=\"0.125\" data-ymax=\"2\""), "axis ranges");
  ASSERT_MSG(strstr(b, "<line class=\"default\" x1=\"64\" y1=\"79.00\" x2=\"584\" y2=\"79.00\""), "default line at y 79");
  ASSERT_MSG(strstr(b, "<rect class=\"vregion\" x=\"64\" y=\"79.00\" width=\"520\" height=\"189.00\""),
        "violation region from y(1) to the bottom");
  ASSERT_MSG(strstr(b, ">1 KiB</text>") && strstr(b, ">64 KiB</text>"), "x tick labels with units");
  ASSERT_MSG(strstr(b, "message size in bytes (log scale)") && strstr(b, "relative to the default (log scale)"), "axis titles");
  /* GL9 allgatherv at 1 KiB: the violation, a circle (first mock-up) with a solid ring */
  ASSERT_MSG(!point(b, "bcast_as_allgatherv", 1024, cls, &x, &y, &g), "point allgatherv 1K");
  ASSERT_MSG(!strcmp(cls, "violation") && fabs(x - 74) < 0.006 && fabs(y - 214.93) < 0.006, "%s %g %g", cls, x, y);
  ASSERT_MSG(strstr(g, "<circle cx=\"74.00\" cy=\"214.93\" r=\"5.0\"/>"), "marker at the golden place: %s", g);
  ASSERT_MSG(strstr(g, "class=\"ring\" cx=\"74.00\" cy=\"214.93\" r=\"10\"") && !strstr(g, "dasharray"), "solid ring");
  ASSERT_MSG(strstr(g, "<title>GL9 allgatherv, 1 KiB: relative runtime 0.224"), "hover title: %s", g);
  free(g);
  /* at 64 KiB: consistent (1.00 [0.97, 1.04]), with a noise mark (medians 0.5 us apart, sync 2 us) */
  ASSERT_MSG(!point(b, "bcast_as_allgatherv", 65536, cls, &x, &y, &g), "point allgatherv 64K");
  ASSERT_MSG(!strcmp(cls, "consistent noise") && fabs(x - 574) < 0.006 && fabs(y - 79.44) < 0.006, "%s %g %g", cls, x, y);
  ASSERT_MSG(strstr(g, "<circle cx=\"574.00\" cy=\"79.44\"") && strstr(g, "class=\"tilde\" x=\"586.00\" y=\"71.44\"") &&
            !strstr(g, "ring"),
        "noise mark, no ring: %s", g);
  free(g);
  /* GL10 scatter_allgather at 1 KiB: slower than the default, second mock-up = square */
  ASSERT_MSG(!point(b, "bcast_as_scatter_allgather", 1024, cls, &x, &y, &g), "point scatter_allgather 1K");
  ASSERT_MSG(!strcmp(cls, "consistent") && fabs(x - 74) < 0.006 && fabs(y - 31.33) < 0.006, "%s %g %g", cls, x, y);
  ASSERT_MSG(strstr(g, "<rect x=\"69.00\" y=\"26.33\" width=\"10.0\" height=\"10.0\"/>"), "square marker: %s", g);
  free(g);
  ASSERT_MSG(point(b, "bcast_as_scatter_allgather", 65536, cls, &x, &y, &g) == -1, "skipped: no point");
  ASSERT_MSG(count(b, "<g class=\"pt ") == 3, "3 points");
  /* heat map: bcast 1 KiB holds the violation's slowdown as text; allreduce 8 B, whose one
   * comparison is inconclusive, is "?" and never "ok" */
  ASSERT_MSG(strstr(h, "data-coll=\"bcast\" data-bytes=\"1024\" data-nprocs=\"4\""), "heat cell");
  ASSERT_MSG(strstr(h, ">4.46×</text>"), "heat value 4.46x");
  char *ac = strstr(h, "data-coll=\"allreduce\" data-bytes=\"8\"");
  char *acend = ac ? strstr(ac, "</g>") : NULL;
  ASSERT_MSG(ac && acend && strstr(ac, ">?</text>") && strstr(ac, ">?</text>") < acend &&
                 strstr(ac, "inconclusive") < acend,
             "allreduce 8 B: an inconclusive heat cell");
  ASSERT_MSG(strstr(h, "Grouped violations") && strstr(h, "<td>GL9 allgatherv</td>"), "grouped table");
  ASSERT_MSG(strstr(h, "<td>TestMPI</td>") && strstr(h, "TestMPI 1.0 (fixture)") && strstr(h, "1 × 1") == NULL,
        "metadata");
  ASSERT_MSG(strstr(h, "61.2 / 100"), "consistency score over the judged sizes");
  /* what to do next: tune from the run's own directory, verify at its process count, and the
   * check that would decide the inconclusive allreduce 8 B */
  char *next = strstr(h, "What to do next");
  ASSERT_MSG(next && strstr(next, "mpiguide tune ") && strstr(next, "small -o tuned.prof"), "next: tune command");
  ASSERT_MSG(next && strstr(next, "mpirun -np 4 mpiguide verify --profile tuned.prof"), "next: verify command");
  ASSERT_MSG(next && strstr(next, "mpiguide check --launches 3 -c allreduce --sizes 8 "), "next: re-check command");
  ASSERT_MSG(next && strstr(next, "one launch"), "next: replicate a single launch");
  free(b), free(h);
}

/* A size with no valid measurement and a cell stopped by the budget are said, not dropped. */
static void t_unmeasured(void) {
  const char *src[] = {path(cdir, "unmeasured")};
  char *h = render(src, 1);
  ASSERT_MSG(h && strstr(h, "Not measured: 1 size(s)"), "the unmeasured size is said");
  ASSERT_MSG(h && strstr(h, "Stopped by the time budget") && strstr(h, "bcast,1024"), "the budget hit is said");
  ASSERT_MSG(h && strstr(h, "not measured (no valid measurement)"), "the grouped table says it");
  free(h);
}

/* Every collective with data has its panel, and no other. */
static void plots_of(const char *src, int np, const char *const *colls, int n) {
  const char *s[] = {src};
  char *h = render(s, 1);
  for (int i = 0; i < n; i++) {
    char *p = panel(h, colls[i], np);
    ASSERT_MSG(p, "%s: no panel for %s", src, colls[i]);
    free(p);
  }
  ASSERT_MSG(count(h, "<div class=\"plot\"") == n, "%s: %d panels, want %d", src, count(h, "<div class=\"plot\""), n);
  free(h);
}

static void t_plots(void) {
  const char *small[] = {"allreduce", "bcast"};
  plots_of(path(cdir, "small"), 4, small, 2);
  const char *launches[] = {"allreduce"};
  plots_of(path(cdir, "launches/a"), 4, launches, 1);
}

static void t_repro(void) {
  const char *repro[] = {"bcast", "reduce_scatter_block"};
  const char *s[] = {path(cdir, "repro")};
  char *h = render(s, 1);
  int np = 0;
  const char *p = strstr(h, "<div class=\"plot\" id=\"bcast-");
  if (p) np = atoi(p + strlen("<div class=\"plot\" id=\"bcast-"));
  free(h);
  plots_of(path(cdir, "repro"), np, repro, 2);
}

static void t_single(void) {
  const char *s[] = {path(cdir, "small")};
  char *h = render(s, 1), *p = panel(h, "allreduce", 4);
  ASSERT_MSG(p && strstr(p, "data-empty=\"1\"><b>Not enough data for a plot.</b>"), "allreduce: not-enough panel");
  ASSERT_MSG(p && strstr(p, "one message size only (8 B)"), "says why");
  ASSERT_MSG(p && !strstr(p, "<svg viewBox"), "no broken plot");
  ASSERT_MSG(p && strstr(p, "<td class=n>0.417</td>"), "the value as text");
  free(p), free(h);
}

static void t_empty(void) {
  const char *s[] = {path(rdir, "nomock")};
  char *h = render(s, 1), *p = panel(h, "bcast", 4);
  ASSERT_MSG(p && strstr(p, "Not enough data for a plot.") && strstr(p, "no mock-up was compared"), "bcast: empty panel");
  ASSERT_MSG(strstr(h, "Not enough data for a heat map"), "heat map: empty panel");
  ASSERT_MSG(!strstr(h, "<svg viewBox=\"0 0 600"), "no plot");
  ASSERT_MSG(strstr(h, "</html>"), "complete page");
  free(p), free(h);
}

static void t_multi(void) {
  const char *s[] = {path(cdir, "small"), path(rdir, "np8")};
  char *h = render(s, 2), *a = panel(h, "bcast", 4), *b = panel(h, "bcast", 8);
  ASSERT_MSG(a && b, "bcast panels at 4 and 8 processes");
  ASSERT_MSG(strstr(h, ">bcast · 4 procs<") && strstr(h, ">bcast · 8 procs<"), "heat map rows per process count");
  ASSERT_MSG(strstr(h, "data-coll=\"bcast\" data-bytes=\"1024\" data-nprocs=\"8\""), "8-process cells");
  ASSERT_MSG(count(h, "<h2>Summary — ") == 2, "a summary per run");
  free(a), free(b), free(h);
}

/* Configurations that share the process count (another library, another layout): runs of their
 * own, labelled by what differs, with distinct anchors, side by side in "Configurations compared". */
static void t_configs(void) {
  const char *s[] = {path(cdir, "small"), path(cdir, "other_mpi"), path(cdir, "other_layout")};
  char *h = render(s, 3);
  ASSERT_MSG(strstr(h, "<h2 id=\"compare\">Configurations compared</h2>"), "the comparison section");
  ASSERT_MSG(count(h, "<tr data-config=") == 3, "one comparison row per configuration");
  ASSERT_MSG(strstr(h, "<tr data-config=\"4\"><td>TestMPI 1.0 · 4 procs · 1 × 4</td>"), "first: library and layout");
  ASSERT_MSG(strstr(h, "<tr data-config=\"4-2\"><td>OtherMPI 2.0 · 4 procs · 1 × 4</td>"), "second: its own anchor");
  ASSERT_MSG(strstr(h, "<tr data-config=\"4-3\"><td>TestMPI 1.0 · 4 procs · 2 × 2</td>"), "third: the 2-node layout");
  ASSERT_MSG(strstr(h, "id=\"allreduce-4\"") && strstr(h, "id=\"allreduce-4-2\"") && strstr(h, "id=\"allreduce-4-3\""),
             "one panel per configuration, distinct ids");
  ASSERT_MSG(strstr(h, ">allreduce · OtherMPI 2.0 · 4 procs · 1 × 4<"), "heat-map row named by its configuration");
  ASSERT_MSG(strstr(h, "data-config=\"4-2\"><title>allreduce, "), "heat-map cells carry the configuration");
  ASSERT_MSG(count(h, "<h2>Summary — ") == 3, "a summary per configuration");
  ASSERT_MSG(strstr(h, "<td class=n style=\"background:#fdd0a2\">1 / 2, 1 inconclusive</td>"),
             "a collective's inconclusive comparisons are named, never read as clean");
  free(h);
  /* one configuration: no comparison; process counts alone: labels without library */
  const char *one[] = {path(cdir, "small")};
  h = render(one, 1);
  ASSERT_MSG(!strstr(h, "id=\"compare\""), "no comparison of a single configuration");
  free(h);
  const char *np[] = {path(cdir, "small"), path(rdir, "np8")};
  h = render(np, 2);
  ASSERT_MSG(strstr(h, "<tr data-config=\"8\"><td>8 procs</td>"), "process counts alone: the library is not repeated");
  free(h);
}

static void t_selfcontained(void) {
  const char *s[] = {path(cdir, "small")};
  char *h = render(s, 1);
  ASSERT_MSG(!strstr(h, "http:") && !strstr(h, "https:"), "no URL");
  ASSERT_MSG(!strstr(h, "<script") && !strstr(h, "@import") && !strstr(h, "<link") && !strstr(h, "@font-face"),
        "no script, import, link or font");
  for (const char *p = h; (p = strstr(p, "url(")); p++) ASSERT_MSG(p[4] == '#', "url() only to the page's own patterns");
  ASSERT_MSG(strstr(h, "@media print"), "print CSS");
  free(h);
}

/* The page of the given check sources (one run each, may be none) and one verify.csv. Caller frees. */
static char *render_verify(const char *const *src, int n, const char *verify) {
  mg_ck_data d[8];
  mg_ck_result r[8];
  mg_rp_run runs[8];
  mg_rp_verify v;
  char err[MG_CK_ERR], *buf = NULL;
  size_t len = 0;
  if (mg_rp_verify_read(verify, &v, err, sizeof err)) {
    printf("FAIL: %s\n", err);
    exit(1);
  }
  for (int i = 0; i < n; i++) {
    mg_ck_data_init(&d[i]);
    memset(&r[i], 0, sizeof r[i]);
    mg_ck_opts o;
    mg_ck_opts_default(&o);
    if (mg_ck_read(&d[i], src[i], err, sizeof err) || mg_ck_analyze(&d[i], &o, &r[i], err, sizeof err)) {
      printf("FAIL: %s\n", err);
      exit(1);
    }
    runs[i] = (mg_rp_run){.d = &d[i], .r = &r[i]};
  }
  FILE *f = open_memstream(&buf, &len);
  ASSERT_MSG(mg_rp_write_ex(f, runs, n, &v, 1) == 0, "mg_rp_write_ex failed");
  fclose(f);
  for (int i = 0; i < n; i++) mg_ck_result_free(&r[i]), mg_ck_data_free(&d[i]);
  mg_rp_verify_free(&v);
  return buf;
}

/* The point of a verify plot: class, data-x, data-y and the group's text. */
static int vpoint(const char *html, const char *coll, size_t bytes, char *cls, double *x, double *y, char **group) {
  char key[256];
  snprintf(key, sizeof key, "data-coll=\"%s\" data-bytes=\"%zu\" data-x=", coll, bytes);
  const char *p = strstr(html, key);
  if (!p) return -1;
  const char *g = p;
  while (g > html && strncmp(g, "<g class=\"vpt ", 14)) g--;
  if (sscanf(g, "<g class=\"vpt %63[^\"]\"", cls) != 1) return -1;
  *x = atof(strstr(p, "data-x=\"") + 8), *y = atof(strstr(p, "data-y=\"") + 8);
  *group = strndup(g, (size_t)(strstr(p, "</g>\n") - g));
  return 0;
}

/* A run with mock-ups of two families (data/families: small's bcast_as_scatter_allgather renamed
 * bcast_as_split2): one section of plots per family, each plot with its family's mock-ups only. */
static void t_families(void) {
  const char *src[] = {path(rdir, "families")};
  char *h = render(src, 1);
  const char *comp = strstr(h, "<h2>Relative runtime per collective: composition family");
  const char *split = strstr(h, "<h2>Relative runtime per collective: split family");
  ASSERT_MSG(comp && split && comp < split, "a composition section, then a split section");
  if (!comp || !split) return free(h);
  const char *sp = strstr(split, "<div class=\"plot\" id=\"bcast-");
  ASSERT_MSG(sp && strstr(sp, "-split\" data-coll=\"bcast\"><h3>bcast (MPI_Bcast), split</h3>"), "bcast's split plot");
  const char *end = sp ? strstr(sp, "</div>\n</div>") : NULL;
  ASSERT_MSG(end && !memmem(sp, (size_t)(end - sp), "allgatherv", 10), "the split plot has no composition");
  ASSERT_MSG(!strstr(split, "id=\"allreduce-"), "allreduce has no split mock-up in the data: no plot");
  const char *cb = strstr(comp, "<div class=\"plot\" id=\"bcast-");
  ASSERT_MSG(cb && cb < split, "bcast's composition plot");
  free(h);
}

/* The monotony fixture (tests/check/data/monotony): bcast's default is slower at 1K than at 4K.
 * The plot marks that cell on the default's line (y = 1), once, and nothing where it is monotone. */
static void t_monotony(void) {
  const char *src[] = {path(cdir, "monotony")};
  char *h = render(src, 1), *b = panel(h, "bcast", 4);
  ASSERT_MSG(b != NULL, "a bcast panel");
  if (!b) return free(h);
  ASSERT_EQ(count(b, "<g class=\"mono\""), 1);
  const char *m = strstr(b, "<g class=\"mono\" data-alg=\"default\" data-bytes=\"1024\" data-next=\"4096\">");
  ASSERT_MSG(m != NULL, "the mark names the default at 1K and the faster 4K");
  double ex, ey, ymin = atof(strstr(b, "data-ymin=\"") + 11), ymax = atof(strstr(b, "data-ymax=\"") + 11);
  if (m && sscanf(strstr(m, "<path d=\"M"), "<path d=\"M%lf %lf", &ex, &ey) == 2)
    ASSERT_NEAR(ey + 7, mg_rp_ymap(1.0, ymin, ymax), 0.01); /* on the default's line */
  else
    ASSERT_MSG(0, "the mark's path");
  ASSERT_MSG(m && strstr(m, "not monotone, 1 KiB takes"), "its title says what it means");
  ASSERT_MSG(strstr(h, "not monotone: slower than at a larger size"), "the key explains the mark");
  free(b);
  free(h);
}

/* The cost model's predictions (data/predicted/predicted.csv next to the small fixture): a cross per
 * predicted mock-up at its predicted ratio, at this run's process count only, the y axis stretched
 * to hold them (scatter_allgather predicted 100 x slower: ymax 128); a cell without the default's
 * prediction and another process count draw nothing. */
static void t_predicted(void) {
  mg_rp_preds p;
  char err[256];
  ASSERT_EQ(mg_rp_preds_read(path(rdir, "predicted/predicted.csv"), &p, err, sizeof err), 0);
  ASSERT_EQ(p.n, 3); /* the 65536 row has no default at its cell */
  mg_rp_preds none;
  ASSERT_EQ(mg_rp_preds_read(path(rdir, "predicted/missing.csv"), &none, err, sizeof err), 0);
  ASSERT_EQ(none.n, 0);
  ASSERT_EQ(mg_rp_preds_read(path(cdir, "small/raw.csv"), &none, err, sizeof err), -1);
  ASSERT_MSG(strstr(err, "raw.csv:") && strstr(err, "not a predicted.csv"), "says which file and line: %s", err);
  FILE *bad = fopen("bad-predicted.csv", "w");
  fputs("# mpiguide-predict/1\ncollective,nprocs,bytes,algorithm,family,predicted_sec,price,measured_sec,rel_error\n"
        "bcast,4,1024,default,,1e-05,measured,1e-05,0\nbcast,4,1O24,bcast_as_linear,p2p,2e-6,model,nan,nan\n",
        bad);
  fclose(bad);
  ASSERT_EQ(mg_rp_preds_read("bad-predicted.csv", &none, err, sizeof err), -1);
  ASSERT_MSG(strstr(err, "bad-predicted.csv:4:"), "names the line of the bad number: %s", err);
  /* issue 45: a cut last line, infinity, a process count out of range, a NUL byte, a 1 MiB line */
  static const struct {
    const char *text;
    size_t len;
    const char *msg;
  } pb[] = {
#define PH "collective,nprocs,bytes,algorithm,family,predicted_sec,price,measured_sec,rel_error\n"
      {PH "bcast,4,1024,default,,1e-05,measured,1e-05,0\nbcast,4,1024,bcast_as_lin", 0, ":3: the last line has no line break"},
      {PH "bcast,4,1024,default,,inf,measured,1e-05,0\n", 0, ":2: nprocs, bytes, predicted_sec"},
      {PH "bcast,1e30,1024,default,,1e-05,measured,1e-05,0\n", 0, ":2: nprocs, bytes, predicted_sec"},
      {PH "bcast,4,1024,default,,1e-05\0,measured,1e-05,0\n", sizeof PH + 45, ":2: a NUL byte"},
      /* mpiguide-predict/3: its last line counts the rows; a file cut at a line break is refused */
      {"# mpiguide-predict/3\n" PH "bcast,4,1024,default,,1e-05,measured,1e-05,0\n", 0,
       ":3: no #@predict_rows line at the end: the file was cut short"},
      {"# mpiguide-predict/3\n" PH "bcast,4,1024,default,,1e-05,measured,1e-05,0\n#@predict_rows=2\n", 0,
       ":4: 1 rows, but #@predict_rows says 2"},
      {"# mpiguide-predict/3\n" PH "bcast,4,1024,default,,1e-05,measured,1e-05,0\n#@predict_rows=1\n#\n", 0,
       ":5: a line after #@predict_rows"},
      {"# mpiguide-predict/3\n" PH "#@predict_rows=1x\n", 0, ":3: #@predict_rows=1x is not a row count"},
      {"# mpiguide-predict/x\n" PH, 0, ":1: '# mpiguide-predict/x' is not a version"},
#undef PH
  };
  for (size_t i = 0; i < sizeof pb / sizeof pb[0]; i++) {
    bad = fopen("bad-predicted.csv", "w");
    fwrite(pb[i].text, 1, pb[i].len ? pb[i].len : strlen(pb[i].text), bad);
    fclose(bad);
    char want[200];
    snprintf(want, sizeof want, "bad-predicted.csv%s", pb[i].msg);
    ASSERT_MSG(mg_rp_preds_read("bad-predicted.csv", &none, err, sizeof err) == -1 && strstr(err, want) && !none.v,
               "predicted case %zu: %s (expected %s)", i, err, want);
  }
  bad = fopen("bad-predicted.csv", "w"); /* a whole /3 file reads */
  fputs("# mpiguide-predict/3\ncollective,nprocs,bytes,algorithm,family,predicted_sec,price,measured_sec,rel_error\n"
        "bcast,4,1024,default,,1e-05,measured,1e-05,0\nbcast,4,1024,bcast_as_linear,p2p,2e-05,model,nan,nan\n"
        "#@predict_rows=2\n", bad);
  fclose(bad);
  ASSERT_MSG(mg_rp_preds_read("bad-predicted.csv", &none, err, sizeof err) == 0 && none.n == 1 &&
             fabs(none.v[0].ratio - 2) < 1e-12, "a whole mpiguide-predict/3 file: %s", err);
  mg_rp_preds_free(&none);
  bad = fopen("bad-predicted.csv", "w");
  for (int i = 0; i < (1 << 20) / 64 + 1; i++) fputs("#123456789012345678901234567890123456789012345678901234567890123", bad);
  fclose(bad);
  ASSERT_MSG(mg_rp_preds_read("bad-predicted.csv", &none, err, sizeof err) == -1 &&
             strstr(err, "bad-predicted.csv:1: a line longer than 1 MiB"), "1 MiB: %s", err);
  mg_ck_data d;
  mg_ck_result r;
  mg_ck_opts o;
  mg_ck_data_init(&d);
  mg_ck_opts_default(&o);
  ASSERT_EQ(mg_ck_read(&d, path(cdir, "small"), err, sizeof err), 0);
  if (d.launches[0].has_seed) o.seed = d.launches[0].seed;
  ASSERT_EQ(mg_ck_analyze(&d, &o, &r, err, sizeof err), 0);
  mg_rp_run run = {.d = &d, .r = &r, .pred = &p};
  char *h = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&h, &len);
  ASSERT_EQ(mg_rp_write(f, &run, 1), 0);
  fclose(f);
  char *b = panel(h, "bcast", 4);
  ASSERT_MSG(b != NULL, "a bcast panel");
  if (b) {
    ASSERT_EQ(count(b, "<g class=\"pred\""), 2);
    ASSERT_MSG(strstr(b, "data-ymax=\"128\""), "the axis holds the predictions");
    ASSERT_MSG(strstr(b, "<g class=\"pred\" data-alg=\"bcast_as_scatter_allgather\" data-bytes=\"1024\""), "100 x");
    const char *m = strstr(b, "<g class=\"pred\" data-alg=\"bcast_as_allgatherv\" data-bytes=\"1024\"");
    double ymin = atof(strstr(b, "data-ymin=\"") + 11), ymax = atof(strstr(b, "data-ymax=\"") + 11);
    ASSERT_MSG(m != NULL, "the cross of bcast_as_allgatherv at 1K");
    if (m) ASSERT_NEAR(atof(strstr(m, "data-y=\"") + 8), mg_rp_ymap(0.5, ymin, ymax), 0.01);
    ASSERT_MSG(m && strstr(m, "predicted relative runtime 0.500"), "its title");
  }
  ASSERT_MSG(strstr(h, "the cost model's prediction"), "the key explains the mark");
  free(b);
  free(h);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
  mg_rp_preds_free(&p);
}

static void t_verify(void) {
  const char *src[] = {path(cdir, "small")};
  char *h = render_verify(src, 1, path(rdir, "verify/verify.csv")), cls[64], *g;
  double x, y;
  const char *sec = strstr(h, "<h2 id=\"tuned\">Default vs tuned</h2>");
  ASSERT_MSG(sec, "no Default vs tuned section");
  if (!sec) return free(h);
  ASSERT_MSG(sec > strstr(h, "Relative runtime per collective") && sec < strstr(h, "Grouped violations"),
        "section between the plots and the grouped table");
  /* every collective of the verify data has its plot, and no other */
  const char *colls[] = {"allgather", "allreduce", "reduce_scatter_block", "scatter"};
  for (int i = 0; i < 4; i++) {
    char id[128];
    snprintf(id, sizeof id, "<div class=\"plot vt\" id=\"vt-%s-4\">", colls[i]);
    const char *p = strstr(sec, id);
    ASSERT_MSG(p && strstr(p, "<svg viewBox=\"0 0 600 320\""), "no plot for %s", colls[i]);
  }
  ASSERT_MSG(count(h, "<div class=\"plot vt\"") == 4, "%d verify plots, want 4", count(h, "<div class=\"plot vt\""));
  ASSERT_MSG(count(sec, "<g class=\"vpt ") == 15, "15 marks (every row has a ratio)");
  ASSERT_MSG(strstr(sec, "data-smin=\"32768\" data-smax=\"131072\" data-ymin=\"0.5\" data-ymax=\"2\""), "allreduce axes");
  ASSERT_MSG(strstr(sec, "data-smin=\"128\" data-smax=\"8192\" data-ymin=\"0.015625\" data-ymax=\"2\""), "scatter axes");
  /* golden marks (header comment) */
  ASSERT_MSG(!vpoint(sec, "allreduce", 65536, cls, &x, &y, &g), "allreduce 64K mark");
  ASSERT_MSG(!strcmp(cls, "faster in-profile") && fabs(x - 324) < 0.006 && fabs(y - 205.98) < 0.006, "%s %g %g", cls, x, y);
  ASSERT_MSG(strstr(g, "<rect x=\"319.00\" y=\"200.98\" width=\"10.0\" height=\"10.0\"/>"), "square (in profile): %s", g);
  ASSERT_MSG(strstr(g, "class=\"ring\" cx=\"324.00\" cy=\"205.98\" r=\"10\"") && !strstr(g, "dasharray"),
        "solid ring (faster)");
  ASSERT_MSG(strstr(g, "class=\"ci\"") && strstr(g, "#009E73"), "error bar, green");
  ASSERT_MSG(strstr(g, "<title>allreduce, 64 KiB: tuned GL5") && strstr(g, "tuned/default 0.703 [0.693, 0.717]") &&
            strstr(g, "verdict faster"),
        "hover title: %s", g);
  free(g);
  ASSERT_MSG(!vpoint(sec, "scatter", 256, cls, &x, &y, &g), "scatter 256 mark");
  ASSERT_MSG(!strcmp(cls, "faster in-profile") && fabs(x - 157.33) < 0.006 && fabs(y - 244.75) < 0.006, "%s %g %g", cls,
        x, y);
  free(g);
  /* a cell outside the profile: the A/A control, a circle without a ring */
  ASSERT_MSG(!vpoint(sec, "scatter", 128, cls, &x, &y, &g), "scatter 128 mark");
  ASSERT_MSG(!strcmp(cls, "same aa") && strstr(g, "<circle cx=") && !strstr(g, "ring") && strstr(g, "not in the profile"),
        "A/A mark: %s", g);
  free(g);
  /* the 1.0 line of the scatter plot: y(1) with [1/64, 2] = 16 + 252 / 7 = 52 */
  const char *sp = strstr(sec, "id=\"vt-scatter-4\"");
  ASSERT_MSG(sp && strstr(sp, "<line class=\"default\" x1=\"64\" y1=\"52.00\" x2=\"584\" y2=\"52.00\""), "1.0 line");
  /* the table */
  ASSERT_MSG(strstr(sec, "<th>ratio [interval]</th>") && strstr(sec, "<td class=n>0.024 [0.024, 0.025]</td>"),
        "table ratio");
  ASSERT_MSG(strstr(sec, "reduce_scatter_block_as_reducescatter 1.23x; reduce_scatter_block_as_allreduce 1.26x"),
        "still faster");
  ASSERT_MSG(strstr(sec, "<td class=n>78.52 µs</td><td class=n>55.22 µs</td>"), "medians in µs");
  free(h);
}

/* A verify result alone: a valid page, metadata from #@, the check sections say there is no check data. */
static void t_verify_only(void) {
  char *h = render_verify(NULL, 0, path(rdir, "verify/verify.csv"));
  ASSERT_MSG(strstr(h, "<h2 id=\"tuned\">Default vs tuned</h2>"), "section");
  ASSERT_MSG(count(h, "<div class=\"plot vt\"") == 4, "4 verify plots");
  ASSERT_MSG(count(h, "<b>No check data.</b>") == 4, "summary, heat map, plots, grouped say: no check data");
  ASSERT_MSG(strstr(h, "<td>processes</td><td>4</td>") && strstr(h, "<td>profile</td><td>p.prof</td>") &&
            strstr(h, "<td>alpha</td><td>0.05</td>"),
        "metadata from the #@ lines");
  ASSERT_MSG(strstr(h, "</html>") && !strstr(h, "<script") && !strstr(h, "http"), "complete, self-contained page");
  /* the measurement's metadata from the raw.csv next to verify.csv (issue 11): nothing unknown */
  const char *meta = strstr(h, "<table class=\"meta\">"), *end = meta ? strstr(meta, "</table>") : NULL;
  ASSERT_MSG(meta && end, "metadata table");
  if (!meta || !end) return free(h);
  char *tab = strndup(meta, (size_t)(end - meta));
  ASSERT_MSG(!strstr(tab, "unknown"), "a metadata row says unknown: %s", tab);
  ASSERT_MSG(strstr(tab, "<td>MPI library</td><td>MPICH</td>") && strstr(tab, "<td>hostname</td><td>verifyhost</td>") &&
                 strstr(tab, "<td>ranks per node</td><td>4</td>") && strstr(tab, "<td>timer</td><td>monotonic</td>") &&
                 strstr(tab, "<td>date</td><td>2024-02-03T04:05:06Z</td>"),
             "metadata from raw.csv: %s", tab);
  /* MPICH's version string: cut after a whole field, the whole string in the title */
  mg_ck_meta m = {0};
  char err[256];
  ASSERT_MSG(!mg_ck_read_meta(path(rdir, "verify/raw.csv"), &m, err, sizeof err), "%s", err);
  const char *full = mg_ck_meta_get(&m, "mpi_library_version");
  ASSERT_MSG(full && strlen(full) > 1000 && strstr(full, "BASH_SHELL=/bin/bash"), "fixture: the long version string");
  char want[4096];
  snprintf(want, sizeof want, "<span class=\"version\" title=\"%s\">MPICH Version: 4.0.2; MPICH Release date: "
           "Thu Apr 7 12:34:45 CDT 2022; MPICH Device: ch4:ucx …</span>", full ? full : "");
  ASSERT_MSG(strstr(tab, want), "version cell: %s", tab);
  mg_ck_meta_free(&m);
  free(tab);
  free(h);
}

/* A version string without fields is cut at a word boundary; a short one is shown whole. */
static void t_version(void) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  mg_rp_version_cell(f, "Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022");
  mg_rp_version_cell(f, "Some MPI 1.0 built with a very long configure line --enable-this --enable-that "
                        "--with-something=/usr/local/somewhere --without-anything-else");
  mg_rp_version_cell(f, NULL);
  fclose(f);
  ASSERT_MSG(strstr(buf, "<td>Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4, repo rev: v4.1.4, May 26, 2022</td>"),
             "short: whole: %s", buf);
  ASSERT_MSG(strstr(buf, "\">Some MPI 1.0 built with a very long configure line --enable-this --enable-that …</span>"),
             "long: cut before a word: %s", buf);
  ASSERT_MSG(strstr(buf, "title=\"Some MPI 1.0 built with a very long configure line --enable-this --enable-that "
                         "--with-something=/usr/local/somewhere --without-anything-else\""),
             "long: whole in the title");
  ASSERT_MSG(strstr(buf, "<td>unknown</td>"), "none: unknown");
  free(buf);
}

/* Malformed verify.csv: the error names file and line. */
static void t_verify_bad(void) {
  mg_rp_verify v;
  char err[MG_CK_ERR], want[1200];
  const char *p = path(rdir, "verify_bad/verify.csv");
  ASSERT_MSG(mg_rp_verify_read(p, &v, err, sizeof err) == -1, "accepted a malformed file");
  snprintf(want, sizeof want, "%s:10: median_default_sec: '7.85x175e-05' is not a number", p);
  ASSERT_MSG(!strcmp(err, want), "error: %s", err);
  /* more malformations, each with its line */
  static const struct {
    const char *text, *msg;
  } cases[] = {
      {"#@format=mpiguide-verify/1\ncollective,nprocs,bytes\n", ":2: header: column 'in_profile' missing"},
      {"#@format=mpiguide-verify/1\ncollective,nprocs,bytes,in_profile,tuned,median_default_sec,median_tuned_sec,"
       "ratio,ratio_lo,ratio_hi,p_holm,verdict,still_faster\nbcast,4,16,1,x,1,1,1,1,1,1,faster\n",
       ":3: 12 fields, the header has 13"},
      {"#@format=mpiguide-verify/1\ncollective,nprocs,bytes,in_profile,tuned,median_default_sec,median_tuned_sec,"
       "ratio,ratio_lo,ratio_hi,p_holm,verdict,still_faster\nbcast,4,16,1,x,1,1,1,1,1,1,better,\n",
       ":3: verdict: 'better'"},
      {"#@format=mpiguide-verify/1\ncollective,nprocs,bytes,in_profile,tuned,median_default_sec,median_tuned_sec,"
       "ratio,ratio_lo,ratio_hi,p_holm,verdict,still_faster\n",
       ":2: no rows after the header"},
      {"#@format=mpiguide-verify/1\ncollective,nprocs,bytes,in_profile,tuned,median_default_sec,median_tuned_sec,"
       "ratio,ratio_lo,ratio_hi,p_holm,verdict,outcome,still_faster\nbcast,4,16,1,x,1,1,1,1,1,1,faster,better,\n",
       ":3: outcome: 'better' is not violation, consistent, inconclusive or empty"},
      {"collective,nprocs\n", ":1: no #@format=mpiguide-verify/1"},
      {"#@format=mpiguide-bench-raw/1\n", ":1: format 'mpiguide-bench-raw/1' is not mpiguide-verify/1"},
  };
  char tmp[] = "/tmp/mg-test-verify.XXXXXX";
  int fd = mkstemp(tmp);
  ASSERT_MSG(fd >= 0, "mkstemp");
  if (fd < 0) return;
  close(fd);
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    FILE *f = fopen(tmp, "w");
    fputs(cases[i].text, f);
    fclose(f);
    snprintf(want, sizeof want, "%s%s", tmp, cases[i].msg);
    ASSERT_MSG(mg_rp_verify_read(tmp, &v, err, sizeof err) == -1 && !strncmp(err, want, strlen(want)), "case %zu: %s", i,
          err);
  }
  /* issue 45: numbers, a cut file, NUL bytes, an unbounded line */
#define VHEAD "collective,nprocs,bytes,in_profile,tuned,median_default_sec,median_tuned_sec,ratio,ratio_lo,ratio_hi," \
              "p_holm,verdict,still_faster\n"
#define VROW "bcast,4,16,1,x,1,1,1,1,1,1,faster,\n"
  static const struct {
    const char *text, *msg;
  } cut[] = {
      {"#@format=mpiguide-verify/1\n" VHEAD VROW "bcast,4,32,1,x,1,1,1,1,1,1,fas", ":4: the last line has no line break"},
      {"#@format=mpiguide-verify/2\n" VHEAD VROW, ":3: the file ends early (truncated?): 1 rows and no last line"},
      {"#@format=mpiguide-verify/2\n" VHEAD VROW "#@verify_rows=2\n", ":4: the file ends early (truncated?): 1 rows, its "
                                                                      "#@verify_rows says 2"},
      {"#@format=mpiguide-verify/2\n" VHEAD VROW "#@verify_rows=1\n" VROW, ":5: a line after #@verify_rows"},
      {"#@format=mpiguide-verify/1\n" VHEAD "bcast,4,16,1,x,inf,1,1,1,1,1,faster,\n", ":3: median_default_sec: 'inf'"},
      {"#@format=mpiguide-verify/1\n" VHEAD "bcast,4,99999999999999999999999,1,x,1,1,1,1,1,1,faster,\n",
       ":3: bytes: '99999999999999999999999' is not a message size"},
      {"#@format=mpiguide-verify/1\n#@nprocs=4 \n", ":2: #@nprocs: '4 ' is not a process count"},
  };
  for (size_t i = 0; i < sizeof cut / sizeof cut[0]; i++) {
    FILE *f = fopen(tmp, "w");
    fputs(cut[i].text, f);
    fclose(f);
    snprintf(want, sizeof want, "%s%s", tmp, cut[i].msg);
    ASSERT_MSG(mg_rp_verify_read(tmp, &v, err, sizeof err) == -1 && strstr(err, want) && !v.rows && !v.n,
               "cut case %zu: %s (expected %s)", i, err, want);
  }
  FILE *f = fopen(tmp, "w");
  fwrite("#@format=mpiguide-verify/1\n" VHEAD "bcast,4,16\0", 1, sizeof "#@format=mpiguide-verify/1\n" VHEAD + 10, f);
  fputs(",1,x,1,1,1,1,1,1,faster,\n", f);
  fclose(f);
  snprintf(want, sizeof want, "%s:3: a NUL byte", tmp);
  ASSERT_MSG(mg_rp_verify_read(tmp, &v, err, sizeof err) == -1 && strstr(err, want), "NUL: %s", err);
  f = fopen(tmp, "w");
  fputs("#@format=mpiguide-verify/1\n#@profile=", f);
  for (int i = 0; i < (1 << 20) / 64 + 1; i++) fputs("0123456789012345678901234567890123456789012345678901234567890123", f);
  fputs("\n" VHEAD VROW, f);
  fclose(f);
  snprintf(want, sizeof want, "%s:2: a line longer than 1 MiB", tmp);
  ASSERT_MSG(mg_rp_verify_read(tmp, &v, err, sizeof err) == -1 && strstr(err, want), "1 MiB: %s", err);
  /* every cut of the fixture written as /2 (its last line #@verify_rows): refused, or read whole */
  static char text[16384];
  f = fopen(path(rdir, "verify/verify.csv"), "r");
  size_t n = f ? fread(text, 1, sizeof text - 64, f) : 0;
  if (f) fclose(f);
  text[n] = '\0';
  char *one = strstr(text, "verify/1");
  ASSERT_TRUE(one != NULL && n > 0 && text[n - 1] == '\n');
  if (one) one[7] = '2';
  int rows = 0;
  for (char *q = strstr(text, "\ncollective,") + 1; (q = strchr(q, '\n')) && q[1]; q++) rows++;
  n += (size_t)snprintf(text + n, 64, "#@verify_rows=%d\n", rows);
  for (size_t k = 0; k <= n; k += n / 300 + 1) {
    f = fopen(tmp, "w");
    fwrite(text, 1, k, f);
    fclose(f);
    int rc = mg_rp_verify_read(tmp, &v, err, sizeof err);
    ASSERT_MSG(rc ? strstr(err, tmp) != NULL : v.n == rows, "prefix %zu of %zu: rc %d, %d rows", k, n, rc, v.n);
    mg_rp_verify_free(&v);
  }
  f = fopen(tmp, "w");
  fwrite(text, 1, n, f);
  fclose(f);
  ASSERT_MSG(mg_rp_verify_read(tmp, &v, err, sizeof err) == 0 && v.n == rows, "the whole /2 file: %s", err);
  mg_rp_verify_free(&v);
#undef VHEAD
#undef VROW
  unlink(tmp);
  ASSERT_MSG(mg_rp_verify_read("/nonexistent-mg/verify.csv", &v, err, sizeof err) == -1 && strstr(err, "/nonexistent-mg"),
        "missing file: %s", err);
}

/* The latency plot of an operation with split rows (data/p2p, make_raw.py): MPI_Send's default is
 * 1.6 t(n) at 64 KiB and 256 KiB, where send_as_split2 (and at 64 KiB split4) is faster — eq. 1
 * violated there and nowhere else; at 1 MiB split2 is inconclusive. The marks sit on the default's
 * point at exactly those sizes, at the documented mapping; the point-to-point table has a V at
 * exactly those cells. */
static void t_p2p(void) {
  const char *src[] = {path(rdir, "p2p")};
  char *h = render(src, 1);
  const char *a = strstr(h, "<div class=\"plot\" id=\"lat-send-2\" data-coll=\"send\">");
  ASSERT_MSG(a != NULL, "a latency plot of send");
  if (!a) return free(h);
  char *b = strndup(a, (size_t)(strstr(a, "</svg>") - a));
  ASSERT_EQ(count(b, "<g class=\"splitv\""), 2);
  ASSERT_EQ(count(b, "<g class=\"splitq\""), 1);
  ASSERT_EQ(count(b, "<rect class=\"splitband\""), 2);
  ASSERT_MSG(strstr(b, "<g class=\"splitq\" data-bytes=\"1048576\">") != NULL, "the inconclusive size: a ?");
  double ymin = atof(strstr(b, "data-ymin=\"") + 11), ymax = atof(strstr(b, "data-ymax=\"") + 11);
  ASSERT_NEAR(ymin, 1e-6, 1e-12); /* 1.1 us .. 320 us: [1 us, 1 ms] */
  ASSERT_NEAR(ymax, 1e-3, 1e-12);
  const size_t want[] = {65536, 262144};
  for (int k = 0; k < 2; k++) {
    char key[128];
    snprintf(key, sizeof key, "<g class=\"splitv\" data-bytes=\"%zu\" data-x=\"", want[k]);
    const char *m = strstr(b, key);
    ASSERT_MSG(m != NULL, "a mark at %zu bytes", want[k]);
    if (!m) continue;
    double x = atof(m + strlen(key)), y = atof(strstr(m, "data-y=\"") + 8);
    ASSERT_NEAR(x, mg_rp_xmap(want[k], 1024, 1048576), 0.01);
    /* on the default's point: t(n) = 1 us + n / 10 GB/s, times 1.6, times the spread's median 0.99995 */
    double t = (1e-6 + want[k] / 10e9) * 1.6 * (1 + 0.004 * (19.5 / 40 - 0.5));
    ASSERT_NEAR(y, mg_rp_lat_ymap(t, ymin, ymax), 0.01);
    snprintf(key, sizeof key, "data-alg=\"default\" data-bytes=\"%zu\" data-y=\"", want[k]);
    const char *pt = strstr(b, key);
    ASSERT_MSG(pt && fabs(atof(pt + strlen(key)) - y) < 0.01, "the mark is on the default's point");
  }
  ASSERT_MSG(strstr(b, "send_as_split2 1.60×") != NULL, "the mark's title names the split row and its slowdown");
  free(b);
  /* the point-to-point table: V exactly at eq. 1 (2) 64K, 256K and eq. 1 (4) 64K */
  const char *tab = strstr(h, "<h2 id=\"p2p-2\">Point-to-point guidelines");
  ASSERT_MSG(tab != NULL, "the point-to-point table");
  if (tab) {
    ASSERT_EQ(count(tab, "<td class=\"n violation\""), 3);
    ASSERT_MSG(strstr(tab, "<td class=\"n violation\" data-eq=\"1 (2)\" data-bytes=\"65536\"") &&
                   strstr(tab, "<td class=\"n violation\" data-eq=\"1 (2)\" data-bytes=\"262144\"") &&
                   strstr(tab, "<td class=\"n violation\" data-eq=\"1 (4)\" data-bytes=\"65536\""),
               "the violated cells");
    ASSERT_MSG(strstr(tab, "<td class=\"n inconclusive\" data-eq=\"7\" data-bytes=\"1048576\"") != NULL,
               "eq. 7 inconclusive at 1 MiB, not clean");
    ASSERT_MSG(strstr(tab, "<td class=\"n consistent\" data-eq=\"7\" data-bytes=\"1024\"") != NULL, "eq. 7 holds at 1 KiB");
  }
  ASSERT_MSG(strstr(h, "<tr><td>point-to-point pattern</td><td>pingpong</td></tr>") != NULL, "the pattern in the Run table");
  /* no latency plot for a run without split rows (tests/check/data/small has none) */
  const char *src2[] = {path(cdir, "small")};
  char *h2 = render(src2, 1);
  ASSERT_MSG(!strstr(h2, "Latency against message size") && !strstr(h2, "Point-to-point guidelines"),
             "no latency or point-to-point section without their rows");
  free(h2);
  free(h);
}

/* The page's writer (html.h): every conversion escaped for text and for either quote, the format
 * written as it is, numbers as printf writes them (NaN and infinities included). */
#define HTML_IS(want, ...)                                                                                    \
  do {                                                                                                       \
    char *got_ = NULL;                                                                                       \
    size_t n_ = 0;                                                                                           \
    FILE *f_ = open_memstream(&got_, &n_);                                                                   \
    ASSERT_TRUE(f_ != NULL);                                                                                 \
    if (!f_) break;                                                                                          \
    mg_html(f_, __VA_ARGS__);                                                                                \
    fclose(f_);                                                                                              \
    ASSERT_MSG(got_ && !strcmp(got_, want), "mg_html(%s): '%s', not '%s'", #__VA_ARGS__, got_ ? got_ : "", want); \
    free(got_);                                                                                              \
  } while (0)

static void t_html(void) {
  /* text and attribute context: each of the five characters */
  HTML_IS("<td>a&amp;b&lt;c&gt;d&quot;e&#39;f</td>", "<td>%s</td>", "a&b<c>d\"e'f");
  HTML_IS("<g data-alg=\"bcast_as_split2&quot;&gt;&lt;svg onload=alert(2)&gt;\">", "<g data-alg=\"%s\">",
          "bcast_as_split2\"><svg onload=alert(2)>");
  HTML_IS("<g title='x&#39; onmouseover=&#39;alert(1)'>", "<g title='%s'>", "x' onmouseover='alert(1)");
  HTML_IS("<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;:sum</title>", "<title>%s:%s</title>",
          "</title><script>alert(1)</script>", "sum");
  HTML_IS("&amp;amp;&amp;#39;", "%s", "&amp;&#39;"); /* an entity in the data is data: escaped again */
  /* the format is the code's markup: as it is; %% is a percent sign */
  HTML_IS("<a href=\"#bcast-4\">5 %</a>", "<a href=\"#%s-%d\">%d %%</a>", "bcast", 4, 5);
  HTML_IS("[&lt;][a][&#39;]", "[%c][%c][%c]", '<', 'a', '\'');
  /* numbers as printf writes them: a NaN or an infinity from a file is harmless text */
  HTML_IS("7 -3 3.14 1e+300 nan inf -inf 18446744073709551615 -9 ff 0x1p+0|", "%d %ld %.2f %g %g %g %g %zu %lld %x %a|",
          7, -3L, 3.14159, 1e300, NAN, INFINITY, -INFINITY, (size_t)-1, -9LL, 255u, 1.0);
  HTML_IS("[  42][42  ][042][+4.5][ 2.50e+00]", "[%4d][%-4d][%03d][%+.1f][%*.2e]", 42, 42, 42, 4.5, 9, 2.5);
  /* width and precision count the data's bytes; the padding is spaces */
  HTML_IS("[    &lt;][&lt;    ][&lt;&lt;&lt;][  &amp;][&#39;&#39;][&quot;&quot;]", "[%5s][%-5s][%.3s][%*s][%.*s][%-*.*s]",
          "<", "<", "<<<<<", 3, "&", 2, "''''", -1, 2, "\"\"\"");
  const char *volatile none = NULL; /* as glibc's printf writes it */
  HTML_IS("(null)", "%s", none);
  char want[400]; /* a number longer than the writer's buffer */
  snprintf(want, sizeof want, "%.20f", 1e300);
  HTML_IS(want, "%.20f", 1e300);
  /* every byte 1..255 in a double-quoted attribute, a single-quoted one and text: no quote, angle
   * bracket or bare ampersand left but the format's own, every other byte as it was */
  char all[256], *got = NULL;
  size_t n = 0;
  for (int c = 1; c < 256; c++) all[c - 1] = (char)c;
  all[255] = '\0';
  FILE *f = open_memstream(&got, &n);
  ASSERT_TRUE(f != NULL);
  if (!f) return;
  mg_html(f, "<g data-x=\"%s\" data-y='%s'>%s</g>", all, all, all);
  fclose(f);
  const char *end = got ? strstr(got, "</g>") : NULL;
  ASSERT_TRUE(end && !strncmp(got, "<g data-x=\"\x01\x02", 13));
  if (!end) return free(got);
  int specials = 0, ents = 0, plain = 0;
  for (const char *p = got + 11; p < end; p++) {
    static const char *const e[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&#39;"};
    int ent = 0;
    for (int k = 0; k < 5 && *p == '&'; k++)
      if (!strncmp(p, e[k], strlen(e[k]))) ent = 1, p += strlen(e[k]) - 1;
    ents += ent;
    specials += !ent && strchr("&<>\"'", *p) != NULL;
    plain += !ent && !strchr("&<>\"'", *p);
  }
  ASSERT_EQ(specials, 4); /* the format's  " ' ' >  between the values */
  ASSERT_EQ(ents, 3 * 5);
  ASSERT_EQ(plain, 3 * (255 - 5) + (int)strlen(" data-y="));
  free(got);
}

/* Latencies as people read them (util/fmt.h, every latency of the page): µs, ms, s, never an exponent. */
static void t_seconds(void) {
  static const struct {
    double sec;
    const char *want;
  } c[] = {{27.98e-3, "27.98 ms"}, {78.52e-6, "78.52 µs"}, {25e-9, "0.025 µs"}, {0, "0.000 µs"}, {1e-13, "0.000 µs"},
           {999.9e-6, "999.9 µs"}, {0.99996e-3, "1 ms"}, {1e-3, "1 ms"}, {0.5, "500 ms"}, {1.5, "1.5 s"},
           {86400, "86400 s"}, {1e7, "10000000 s"}, {NAN, "-"}, {INFINITY, "-"}};
  char b[48];
  for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
    mg_rp_us_str(c[i].sec, b, sizeof b);
    ASSERT_MSG(!strcmp(b, c[i].want), "%g s: '%s', not '%s'", c[i].sec, b, c[i].want);
    ASSERT_MSG(!strchr(b, 'e'), "%g s: '%s' has an exponent", c[i].sec, b);
  }
  for (double t = 1e-10; t < 1e6; t *= 1.37) { /* across the unit boundaries: no exponent, 4 digits at most */
    mg_rp_us_str(t, b, sizeof b);
    int digits = 0;
    for (const char *p = b; *p; p++) digits += *p >= '0' && *p <= '9';
    ASSERT_MSG(!strchr(b, 'e') && (digits <= 4 || t >= 1e4 || t < 1e-6), "%g s: '%s'", t, b);
  }
}

int main(int argc, char **argv) {
  if (argc != 4) return fprintf(stderr, "usage: %s CHECK_DATA REPORT_DATA GROUP\n", argv[0]), 2;
  cdir = argv[1], rdir = argv[2];
  static const struct {
    const char *name;
    void (*fn)(void);
  } groups[] = {{"axis", t_axis},     {"p2p", t_p2p},     {"golden", t_golden}, {"unmeasured", t_unmeasured}, {"plots", t_plots},   {"single", t_single},
                {"empty", t_empty},   {"multi", t_multi},   {"configs", t_configs},   {"repro", t_repro},   {"selfcontained", t_selfcontained},
                {"verify", t_verify}, {"verify_only", t_verify_only}, {"verify_bad", t_verify_bad},
                {"version", t_version}, {"families", t_families}, {"monotony", t_monotony},
                {"predicted", t_predicted}, {"html", t_html}, {"seconds", t_seconds}};
  for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
    if (!strcmp(argv[3], groups[i].name)) {
      TEST_CASE(groups[i].name);
      groups[i].fn();
      return mg_test_summary(argv[3]);
    }
  return fprintf(stderr, "unknown group %s\n", argv[3]), 2;
}
