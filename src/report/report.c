/*
 * The HTML report (report.h, docs/report.md): metadata, summary, one plot per collective
 * (relative runtime of every mock-up against message size), a heat map of cautious violations
 * the "Default vs tuned" section of verify results (tuned/default ratio per collective and size,
 * verify.c reads verify.csv), and the grouped violation table, written as one page with inline
 * CSS and SVG.
 *
 * Readable without colour: every mock-up has its own marker shape and line dash as well as a
 * colour, violations are ringed (solid: cautious, dashed: with a noise warning), noise warnings
 * carry a "~", the violation region is hatched, heat-map cells carry their value as text.
 */
#include "report/report.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpiguide.h"
#include "util/fmt.h"

/* ---------- axis mapping ---------- */

double mg_rp_xmap(size_t bytes, size_t smin, size_t smax) {
  if (smax <= smin) return MG_RP_X0 + MG_RP_PW / 2.0;
  double t = (log2((double)bytes) - log2((double)smin)) / (log2((double)smax) - log2((double)smin));
  return MG_RP_X0 + MG_RP_PAD + t * (MG_RP_PW - 2 * MG_RP_PAD);
}

double mg_rp_ymap(double r, double ymin, double ymax) {
  return MG_RP_Y0 + MG_RP_PH * (log2(ymax) - log2(r)) / (log2(ymax) - log2(ymin));
}

void mg_rp_yrange(double rmin, double rmax, double *ymin, double *ymax) {
  *ymin = fmin(0.5, exp2(floor(log2(rmin))));
  *ymax = fmax(2.0, exp2(ceil(log2(rmax))));
}

/* ---------- small helpers ---------- */

static void esc(FILE *f, const char *s) {
  for (; s && *s; s++) switch (*s) {
    case '<': fputs("&lt;", f); break;
    case '>': fputs("&gt;", f); break;
    case '&': fputs("&amp;", f); break;
    case '"': fputs("&quot;", f); break;
    default: fputc(*s, f);
    }
}

/* "16 B", "1 KiB", "1.5 KiB", "64 KiB", "1 MiB" */
static const char *bytes_str(size_t n, char *buf, size_t len) { return mg_fmt_bytes(n, MG_BYTES_IEC, buf, len); }

static const char *us_str(double sec, char *buf, size_t len) {
  if (!isfinite(sec)) snprintf(buf, len, "-");
  else snprintf(buf, len, "%.4g µs", sec * 1e6);
  return buf;
}

/* A #@key of a launch's raw file ("" when absent). */
static void launch_meta(const mg_ck_launch *L, const char *key, char *out, size_t len) {
  const char *v = mg_ck_meta_get(&L->meta, key);
  snprintf(out, len, "%s", v ? v : "");
}

static int ratio_ok(const mg_ck_verdict *v) {
  return v->status == MG_CKV_OK && !v->aa && v->med_def > 0 && v->med_mock > 0 && isfinite(v->med_def) &&
         isfinite(v->med_mock);
}

static int cautious(const mg_ck_verdict *v) { return v->status == MG_CKV_OK && !v->aa && v->violation && !v->noise; }

static int cmp_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}

/* Distinct sizes (ascending) of the verdicts of coll in r (coll < 0: all); returns the count. */
static int sizes_of(const mg_ck_result *r, int coll, int plotted_only, size_t *out, int cap) {
  int n = 0;
  for (int i = 0; i < r->n; i++) {
    const mg_ck_verdict *v = &r->v[i];
    if ((coll >= 0 && (int)v->coll != coll) || v->aa) continue;
    if (plotted_only && !ratio_ok(v)) continue;
    int seen = 0;
    for (int k = 0; k < n && !seen; k++) seen = out[k] == v->bytes;
    if (!seen && n < cap) out[n++] = v->bytes;
  }
  qsort(out, (size_t)n, sizeof *out, cmp_size);
  return n;
}

/* Collectives present in the data or the verdicts. */
static int coll_present(const mg_rp_run *run, int c) {
  for (int i = 0; i < run->r->n; i++)
    if ((int)run->r->v[i].coll == c) return 1;
  for (int i = 0; i < run->d->nseries; i++)
    if ((int)run->d->series[i].coll == c) return 1;
  return 0;
}

/* ---------- styles ---------- */

static const char *const palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#555555"};
static const char *const dashes[] = {"", "7 3", "2 3", "9 3 2 3", "4 4", "1 2"};
#define NPAL ((int)(sizeof palette / sizeof palette[0]))
#define NDASH ((int)(sizeof dashes / sizeof dashes[0]))
#define NSHAPE 6

/* Marker k (shape k % NSHAPE) centred at x, y. */
static void marker(FILE *f, int k, double x, double y, const char *col) {
  const double s = 5;
  fprintf(f, "<g class=\"mk\" stroke=\"%s\" fill=\"%s\" fill-opacity=\"0.35\" stroke-width=\"1.6\">", col, col);
  switch (k % NSHAPE) {
  case 0: fprintf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.1f\"/>", x, y, s); break;
  case 1: fprintf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.1f\" height=\"%.1f\"/>", x - s, y - s, 2 * s, 2 * s); break;
  case 2:
    fprintf(f, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\"/>", x, y - s - 1, x + s + 1, y + s, x - s - 1, y + s);
    break;
  case 3:
    fprintf(f, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f %.2f,%.2f\"/>", x, y - s - 1, x + s + 1, y, x,
            y + s + 1, x - s - 1, y);
    break;
  case 4:
    fprintf(f, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\"/>", x, y + s + 1, x + s + 1, y - s, x - s - 1, y - s);
    break;
  default:
    fprintf(f, "<path d=\"M%.2f %.2fL%.2f %.2fM%.2f %.2fL%.2f %.2f\" stroke-width=\"2.2\"/>", x - s, y - s, x + s,
            y + s, x - s, y + s, x + s, y - s);
  }
  fputs("</g>", f);
}

static const char *const css =
    "body{font-family:sans-serif;margin:0 auto;max-width:1240px;padding:12px 20px;color:#111;background:#fff}\n"
    "h1{font-size:1.5em;margin:.3em 0}h2{font-size:1.25em;border-bottom:2px solid #333;margin-top:1.4em}\n"
    "h3{font-size:1.05em;margin:.4em 0}\n"
    "table{border-collapse:collapse;font-size:.9em}td,th{border:1px solid #bbb;padding:2px 7px;text-align:left}\n"
    "th{background:#eee}td.n{text-align:right;font-variant-numeric:tabular-nums}\n"
    ".meta td:first-child{font-weight:bold}\n"
    ".cards{display:flex;flex-wrap:wrap;gap:12px;margin:8px 0}\n"
    ".card{border:2px solid #333;border-radius:6px;padding:6px 14px;min-width:150px}\n"
    ".card b{display:block;font-size:1.7em}\n"
    ".plots{display:grid;grid-template-columns:repeat(auto-fill,minmax(600px,1fr));gap:14px}\n"
    ".plot{border:1px solid #999;border-radius:4px;padding:6px;break-inside:avoid;page-break-inside:avoid}\n"
    ".plot>svg{width:100%;height:auto;display:block}\n"
    ".empty{border:2px dashed #888;background:#f6f6f6;padding:28px 16px;text-align:center;font-size:1.05em}\n"
    ".legend{font-size:.85em;margin:4px 0}.li{white-space:nowrap}.legend svg{vertical-align:middle;width:auto;display:inline}\n"
    ".heat svg{max-width:100%;height:auto}\n"
    "svg text{font-family:sans-serif}\n"
    ".note{font-size:.85em;color:#333}\n"
    "@media print{body{max-width:none;padding:0;font-size:10pt}.plots{display:block}"
    ".plot{margin-bottom:10px}h2{break-after:avoid;page-break-after:avoid}"
    "a{color:inherit;text-decoration:none}}\n";

/* ---------- sections ---------- */

static void run_title(FILE *f, const mg_rp_run *run, int nruns) {
  if (nruns > 1) fprintf(f, " — %d processes", run->d->launches[0].nprocs);
}

static void metadata(FILE *f, const mg_rp_run *runs, int nruns) {
  fputs("<h2 id=\"meta\">Run</h2>\n<table class=\"meta\">\n", f);
  char buf[512], tmp[256];
#define ROW(label, ...)                                   \
  do {                                                    \
    fprintf(f, "<tr><td>%s</td>", label);                 \
    for (int ri = 0; ri < nruns; ri++) {                  \
      const mg_ck_launch *L = &runs[ri].d->launches[0];   \
      const mg_ck_result *R = runs[ri].r;                 \
      (void)L, (void)R;                                   \
      __VA_ARGS__;                                        \
      fputs("<td>", f);                                   \
      esc(f, buf[0] ? buf : "unknown");                   \
      fputs("</td>", f);                                  \
    }                                                     \
    fputs("</tr>\n", f);                                  \
  } while (0)
  ROW("MPI library", snprintf(buf, sizeof buf, "%s", L->mpi_name));
  ROW("version", snprintf(buf, sizeof buf, "%s", L->mpi_version));
  ROW("processes", snprintf(buf, sizeof buf, "%d", L->nprocs); if (L->nprocs <= 0) buf[0] = '\0');
  ROW("nodes × ranks per node", launch_meta(L, "ranks_per_node", tmp, sizeof tmp);
      if (L->nnodes > 0 && tmp[0]) snprintf(buf, sizeof buf, "%d × %s", L->nnodes, tmp);
      else if (L->nnodes > 0 && L->nprocs > 0) snprintf(buf, sizeof buf, "%d × %d", L->nnodes, L->nprocs / L->nnodes);
      else buf[0] = '\0');
  ROW("launches", snprintf(buf, sizeof buf, "%d", runs[ri].d->nlaunches));
  ROW("hostname", snprintf(buf, sizeof buf, "%s", L->hostname));
  ROW("sync method", snprintf(buf, sizeof buf, "%s", L->sync));
  ROW("timer", launch_meta(L, "timer", buf, sizeof buf));
  ROW("test", snprintf(buf, sizeof buf, "%s%s", mg_ck_test_desc(R->opts.test),
                       R->opts.holm ? ", Holm-adjusted" : ""));
  ROW("alpha", snprintf(buf, sizeof buf, "%g", R->opts.alpha));
  ROW("noise threshold (one synchronisation)",
      if (L->sync_cost >= 0) us_str(L->sync_cost, buf, sizeof buf); else buf[0] = '\0');
  ROW("date", snprintf(buf, sizeof buf, "%s", L->date));
  ROW("mpiguide version (measurement)", launch_meta(L, "mpiguide_version", buf, sizeof buf));
#undef ROW
  fputs("</table>\n", f);
  time_t now = time(NULL);
  struct tm tmv;
  char when[64] = "";
  if (gmtime_r(&now, &tmv)) strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tmv);
  fprintf(f, "<p class=\"note\">Report written by mpiguide %s on %s.</p>\n", MPIGUIDE_VERSION, when);
}

static int cmp_worst(const void *a, const void *b) {
  const mg_ck_verdict *x = *(const mg_ck_verdict *const *)a, *y = *(const mg_ck_verdict *const *)b;
  return (x->slowdown < y->slowdown) - (x->slowdown > y->slowdown);
}

static int summary(FILE *f, const mg_rp_run *run, int nruns) {
  mg_ck_summary s;
  mg_ck_summarize(run->r, &s);
  fputs("<h2>Summary", f);
  run_title(f, run, nruns);
  fputs("</h2>\n<div class=\"cards\">", f);
  if (isfinite(s.score))
    fprintf(f, "<div class=\"card\">consistency score<b>%.1f / 100</b>%d of %d sizes clean</div>", s.score,
            s.total.cells - s.total.cells_violated, s.total.cells);
  else fputs("<div class=\"card\">consistency score<b>–</b>no comparison</div>", f);
  fprintf(f, "<div class=\"card\">violations (brave)<b>%d</b>of %d comparisons</div>", s.total.brave,
          s.total.comparisons);
  fprintf(f, "<div class=\"card\">cautious violations<b>%d</b>without a noise warning</div>", s.total.cautious);
  fputs("</div>\n", f);
  fputs("<table><tr><th>collective</th><th>comparisons</th><th>violations</th><th>cautious</th><th>sizes</th>"
        "<th>sizes violated</th></tr>\n",
        f);
  for (int c = 0; c < MG_NCOLL; c++) {
    const mg_ck_coll_summary *p = &s.per[c];
    if (!p->comparisons && !coll_present(run, c)) continue;
    fprintf(f, "<tr><td><a href=\"#%s-%d\">%s</a></td><td class=n>%d</td><td class=n>%d</td><td class=n>%d</td>"
               "<td class=n>%d</td><td class=n>%d</td></tr>\n",
            mg_colls[c].name, run->d->launches[0].nprocs, mg_colls[c].name, p->comparisons, p->brave, p->cautious,
            p->cells, p->cells_violated);
  }
  fprintf(f, "<tr><th>total</th><th>%d</th><th>%d</th><th>%d</th><th>%d</th><th>%d</th></tr></table>\n",
          s.total.comparisons, s.total.brave, s.total.cautious, s.total.cells, s.total.cells_violated);
  if (s.skipped || s.errors)
    fprintf(f, "<p class=\"note\">Not compared: %d skipped (mock-up not applicable or failed), %d without a result.</p>\n",
            s.skipped, s.errors);

  const mg_ck_verdict **w = malloc(sizeof *w * (size_t)(run->r->n + 1));
  if (!w) return -1;
  int nw = 0;
  for (int i = 0; i < run->r->n; i++)
    if (run->r->v[i].status == MG_CKV_OK && !run->r->v[i].aa && run->r->v[i].violation) w[nw++] = &run->r->v[i];
  qsort(w, (size_t)nw, sizeof *w, cmp_worst);
  fputs("<h3>Worst slowdowns (median of the default / median of the mock-up)</h3>\n", f);
  if (!nw) fputs("<p>No violation.</p>\n", f);
  else {
    fputs("<table><tr><th>#</th><th>slowdown</th><th>95 % interval</th><th>collective</th><th>size</th>"
          "<th>mock-up</th><th>noise warning</th></tr>\n",
          f);
    char b[64], l[128];
    for (int i = 0; i < nw && i < 10; i++) {
      fprintf(f, "<tr><td class=n>%d</td><td class=n>%.2f×</td><td class=n>[%.2f, %.2f]</td><td>%s</td><td class=n>%s</td><td>",
              i + 1, w[i]->slowdown, w[i]->lo, w[i]->hi, mg_colls[w[i]->coll].name, bytes_str(w[i]->bytes, b, sizeof b));
      esc(f, mg_ck_label(w[i]->coll, w[i]->alg, 0, l, sizeof l));
      fprintf(f, "</td><td>%s</td></tr>\n", w[i]->noise ? "~ noise" : "");
    }
    fputs("</table>\n", f);
  }
  free(w);
  return 0;
}

/* The mock-ups (registry order) of coll that have a verdict in r. */
static int mockups_of(const mg_ck_result *r, int coll, const char **out, int cap) {
  int n = 0;
  for (int a = 1; a < mg_colls[coll].nalgs && n < cap; a++)
    for (int i = 0; i < r->n; i++)
      if ((int)r->v[i].coll == coll && !r->v[i].aa && !strcmp(r->v[i].alg, mg_colls[coll].algs[a].name)) {
        out[n++] = mg_colls[coll].algs[a].name;
        break;
      }
  /* names the registry does not know (foreign data) */
  for (int i = 0; i < r->n && n < cap; i++) {
    if ((int)r->v[i].coll != coll || r->v[i].aa) continue;
    int seen = 0;
    for (int k = 0; k < n && !seen; k++) seen = !strcmp(out[k], r->v[i].alg);
    if (!seen) out[n++] = r->v[i].alg;
  }
  return n;
}

#define MAXS 256
#define MAXM 32

static void legend(FILE *f, int coll, const char *const *algs, int na) {
  char l[128];
  fputs("<div class=\"legend\">", f);
  for (int k = 0; k < na; k++) {
    fprintf(f, "<span class=\"li\"><svg width=\"34\" height=\"16\" aria-hidden=\"true\"><line x1=\"1\" y1=\"8\" x2=\"33\" y2=\"8\" "
               "stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\"/>",
            palette[k % NPAL], dashes[k % NDASH]);
    marker(f, k, 17, 8, palette[k % NPAL]);
    fputs("</svg> ", f);
    esc(f, mg_ck_label((mg_coll)coll, algs[k], 0, l, sizeof l));
    fputs("</span> &nbsp; ", f);
  }
  fputs("</div>\n", f);
}

/* The frame of a ratio plot: y grid and ticks (powers of two), x ticks at
 * the given sizes, labels, and the bold line at 1 (the default). Shared by the
 * relative-runtime plots and the default-vs-tuned plots. */
static void plot_axes(FILE *f, const size_t *sizes, int ns, size_t smin, size_t smax, double ymin, double ymax,
                      const char *ylabel) {
  const double X0 = MG_RP_X0, Y0 = MG_RP_Y0, X1 = MG_RP_X0 + MG_RP_PW, Y1 = MG_RP_Y0 + MG_RP_PH;
  double y1 = mg_rp_ymap(1, ymin, ymax);
  char b[64];
  for (double q = ymin; q <= ymax * 1.0001; q *= 2) { /* y grid and ticks: powers of two */
    double y = mg_rp_ymap(q, ymin, ymax);
    fprintf(f, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" stroke=\"#ddd\"/>", MG_RP_X0, y, X1, y);
    fprintf(f, "<text x=\"%.0f\" y=\"%.2f\" font-size=\"11\" text-anchor=\"end\" dominant-baseline=\"middle\">%g</text>\n",
            X0 - 5, y, q);
  }
  for (int s = 0; s < ns; s++) { /* x ticks: the measured sizes */
    double x = mg_rp_xmap(sizes[s], smin, smax);
    fprintf(f, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"#ddd\"/>", x, Y0, x, Y1);
    fprintf(f, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"#000\"/>", x, Y1, x, Y1 + 5);
    fprintf(f, "<text x=\"%.2f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n", x, Y1 + 17,
            bytes_str(sizes[s], b, sizeof b));
  }
  fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n", MG_RP_X0,
          MG_RP_Y0, MG_RP_PW, MG_RP_PH);
  fprintf(f, "<text x=\"%.0f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">message size in bytes (log scale)"
             "</text>\n",
          X0 + MG_RP_PW / 2.0, MG_RP_H - 8);
  fprintf(f, "<text transform=\"translate(16 %.0f) rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n",
          Y0 + MG_RP_PH / 2.0, ylabel);
  fprintf(f, "<line class=\"default\" x1=\"%d\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" stroke=\"#000\" stroke-width=\"2.5\">"
             "<title>default = 1.0</title></line>\n",
          MG_RP_X0, y1, X1, y1);
  fprintf(f, "<text x=\"%.0f\" y=\"%.2f\" font-size=\"11\" font-weight=\"bold\">default = 1</text>\n", X0 + 4, y1 - 4);
}

/* Relative runtime of every mock-up of coll against message size, or the "not enough data" panel. */
static void plot(FILE *f, const mg_rp_run *run, int coll, int nruns) {
  const mg_ck_result *r = run->r;
  size_t sizes[MAXS];
  const char *algs[MAXM];
  int ns = sizes_of(r, coll, 1, sizes, MAXS);
  int na = mockups_of(r, coll, algs, MAXM);
  char b[64], l[128], t1[48], t2[48];
  int np = run->d->launches[0].nprocs;
  fprintf(f, "<div class=\"plot\" id=\"%s-%d\" data-coll=\"%s\"><h3>%s (%s)", mg_colls[coll].name, np,
          mg_colls[coll].name, mg_colls[coll].name, mg_colls[coll].mpi_name);
  if (nruns > 1) fprintf(f, ", %d processes", np);
  fputs("</h3>\n", f);
  if (ns < 2) {
    size_t all[MAXS];
    int nall = sizes_of(r, coll, 0, all, MAXS);
    fputs("<div class=\"empty\" data-empty=\"1\"><b>Not enough data for a plot.</b><br>", f);
    if (ns == 1)
      fprintf(f, "%s was compared at one message size only (%s); a plot needs at least two.", mg_colls[coll].name,
              bytes_str(sizes[0], b, sizeof b));
    else if (nall)
      fprintf(f, "No mock-up of %s has a usable comparison (all skipped or failed).", mg_colls[coll].name);
    else fprintf(f, "%s has measurements but no mock-up was compared with the default.", mg_colls[coll].name);
    fputs("</div>\n", f);
    /* the values anyway, as text */
    int any = 0;
    for (int i = 0; i < r->n; i++) {
      const mg_ck_verdict *v = &r->v[i];
      if ((int)v->coll != coll || v->aa) continue;
      if (!any) fputs("<table><tr><th>size</th><th>mock-up</th><th>relative runtime</th><th>flags / note</th></tr>\n", f);
      any = 1;
      char fl[8];
      fprintf(f, "<tr><td class=n>%s</td><td>", bytes_str(v->bytes, b, sizeof b));
      esc(f, mg_ck_label(v->coll, v->alg, 0, l, sizeof l));
      if (ratio_ok(v)) fprintf(f, "</td><td class=n>%.3f</td><td>%s</td></tr>\n", v->med_mock / v->med_def, mg_ck_flags(v, fl));
      else {
        fputs("</td><td>-</td><td>", f);
        esc(f, v->note);
        fputs("</td></tr>\n", f);
      }
    }
    if (any) fputs("</table>\n", f);
    fputs("</div>\n", f);
    return;
  }
  double rmin = INFINITY, rmax = -INFINITY;
  for (int i = 0; i < r->n; i++)
    if ((int)r->v[i].coll == coll && ratio_ok(&r->v[i])) {
      double q = r->v[i].med_mock / r->v[i].med_def;
      rmin = fmin(rmin, q), rmax = fmax(rmax, q);
    }
  double ymin, ymax;
  mg_rp_yrange(rmin, rmax, &ymin, &ymax);
  size_t smin = sizes[0], smax = sizes[ns - 1];
  const double X1 = MG_RP_X0 + MG_RP_PW, Y1 = MG_RP_Y0 + MG_RP_PH;
  double y1 = mg_rp_ymap(1.0, ymin, ymax);
  fprintf(f, "<svg viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s: runtime of each mock-up relative to the default\" "
             "data-smin=\"%zu\" data-smax=\"%zu\" data-ymin=\"%g\" data-ymax=\"%g\">\n",
          MG_RP_W, MG_RP_H, mg_colls[coll].name, smin, smax, ymin, ymax);
  fprintf(f, "<defs><pattern id=\"hatch-%s-%d\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" "
             "patternTransform=\"rotate(45)\"><rect width=\"8\" height=\"8\" fill=\"#fde3e0\"/>"
             "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#e8a29a\" stroke-width=\"2\"/></pattern></defs>\n",
          mg_colls[coll].name, np);
  /* violation region: below the default's line */
  fprintf(f, "<rect class=\"vregion\" x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"url(#hatch-%s-%d)\">"
             "<title>violation region: mock-up faster than the default</title></rect>\n",
          MG_RP_X0, y1, MG_RP_PW, Y1 - y1, mg_colls[coll].name, np);
  fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\" fill=\"#8a2a20\">violation region "
             "(mock-up faster)</text>\n",
          X1 - 4, Y1 - 5);
  plot_axes(f, sizes, ns, smin, smax, ymin, ymax, "runtime relative to the default (log scale)");
  /* the mock-ups: lines, then markers with their flags */
  for (int k = 0; k < na; k++) {
    const char *col = palette[k % NPAL];
    fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" stroke-dasharray=\"%s\" points=\"", col,
            dashes[k % NDASH]);
    for (int i = 0; i < r->n; i++) {
      const mg_ck_verdict *v = &r->v[i];
      if ((int)v->coll != coll || !ratio_ok(v) || strcmp(v->alg, algs[k])) continue;
      fprintf(f, "%.2f,%.2f ", mg_rp_xmap(v->bytes, smin, smax), mg_rp_ymap(v->med_mock / v->med_def, ymin, ymax));
    }
    fputs("\"/>\n", f);
  }
  for (int k = 0; k < na; k++) {
    const char *col = palette[k % NPAL];
    for (int i = 0; i < r->n; i++) {
      const mg_ck_verdict *v = &r->v[i];
      if ((int)v->coll != coll || !ratio_ok(v) || strcmp(v->alg, algs[k])) continue;
      double q = v->med_mock / v->med_def;
      double x = mg_rp_xmap(v->bytes, smin, smax), y = mg_rp_ymap(q, ymin, ymax);
      const char *kind = v->violation ? (v->noise ? "violation-noise" : "violation") : v->noise ? "noise" : "ok";
      fprintf(f, "<g class=\"pt %s\" data-alg=\"%s\" data-bytes=\"%zu\" data-x=\"%.2f\" data-y=\"%.2f\"><title>", kind,
              v->alg, v->bytes, x, y);
      esc(f, mg_ck_label(v->coll, v->alg, 0, l, sizeof l));
      fprintf(f, ", %s: relative runtime %.3f (mock-up %s, default %s); slowdown %.2f× [%.2f, %.2f], p(Holm) %.3g%s%s",
              bytes_str(v->bytes, b, sizeof b), q, us_str(v->med_mock, t1, sizeof t1), us_str(v->med_def, t2, sizeof t2),
              v->slowdown, v->lo, v->hi, v->p_adj, v->violation ? "; VIOLATION" : "",
              v->noise ? "; noise warning: the medians differ by less than one synchronisation" : "");
      fputs("</title>", f);
      marker(f, k, x, y, col);
      if (v->violation)
        fprintf(f, "<circle class=\"ring\" cx=\"%.2f\" cy=\"%.2f\" r=\"10\" fill=\"none\" stroke=\"#000\" "
                   "stroke-width=\"2\"%s/>",
                x, y, v->noise ? " stroke-dasharray=\"3 2\"" : "");
      if (v->noise)
        fprintf(f, "<text class=\"tilde\" x=\"%.2f\" y=\"%.2f\" font-size=\"15\" font-weight=\"bold\" "
                   "text-anchor=\"middle\">~</text>",
                x + 12, y - 8);
      fputs("</g>\n", f);
    }
  }
  fputs("</svg>\n", f);
  legend(f, coll, algs, na);
  fputs("<div class=\"note\">message size: ", f);
  esc(f, mg_colls[coll].size_def);
  fputs("</div>\n</div>\n", f);
}

static void plot_key(FILE *f) {
  fputs("<p class=\"legend\">Each plot: median runtime of every mock-up divided by the default's median at the same "
        "message size (both axes log scale). Below the bold line at 1 (hatched) a mock-up is faster than the "
        "default. Marks: <svg width=\"26\" height=\"22\" aria-hidden=\"true\"><circle cx=\"13\" cy=\"11\" r=\"9\" "
        "fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/></svg> significant violation (cautious); "
        "<svg width=\"26\" height=\"22\" aria-hidden=\"true\"><circle cx=\"13\" cy=\"11\" r=\"9\" fill=\"none\" "
        "stroke=\"#000\" stroke-width=\"2\" stroke-dasharray=\"3 2\"/></svg> violation with a noise warning; "
        "<b>~</b> noise warning (the medians differ by less than one synchronisation). Hover a mark for its "
        "values.</p>\n",
        f);
}

/* Heat map of cautious violations: rows (run, collective), columns every size of every run. */
static void heatmap(FILE *f, const mg_rp_run *runs, int nruns) {
  size_t sizes[MAXS];
  int ns = 0;
  for (int ri = 0; ri < nruns; ri++) {
    size_t s[MAXS];
    int n = sizes_of(runs[ri].r, -1, 0, s, MAXS);
    for (int i = 0; i < n; i++) {
      int seen = 0;
      for (int k = 0; k < ns && !seen; k++) seen = sizes[k] == s[i];
      if (!seen && ns < MAXS) sizes[ns++] = s[i];
    }
  }
  qsort(sizes, (size_t)ns, sizeof *sizes, cmp_size);
  int rows = 0;
  for (int ri = 0; ri < nruns; ri++)
    for (int c = 0; c < MG_NCOLL; c++) {
      size_t s[1];
      rows += sizes_of(runs[ri].r, c, 0, s, 1) > 0;
    }
  fputs("<h2 id=\"heat\">Heat map of cautious violations</h2>\n<div class=\"heat\">\n", f);
  if (!rows || !ns) {
    fputs("<div class=\"empty\" data-empty=\"1\"><b>Not enough data for a heat map:</b> no comparison.</div></div>\n", f);
    return;
  }
  const int LW = nruns > 1 ? 210 : 170, CW = 62, CH = 26, TOP = 34;
  int W = LW + CW * ns + 4, H = TOP + CH * rows + 4;
  char b[64];
  fprintf(f, "<svg viewBox=\"0 0 %d %d\" width=\"%d\" role=\"img\" aria-label=\"cautious violations by collective "
             "and message size\">\n",
          W, H, W);
  fputs("<defs><pattern id=\"nodata\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
        "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#f2f2f2\"/><line x1=\"0\" y1=\"0\" "
        "x2=\"0\" y2=\"6\" stroke=\"#ccc\" stroke-width=\"1.5\"/></pattern></defs>\n",
        f);
  for (int s = 0; s < ns; s++)
    fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n", LW + CW * s + CW / 2,
            TOP - 8, bytes_str(sizes[s], b, sizeof b));
  int row = 0;
  for (int ri = 0; ri < nruns; ri++) {
    const mg_ck_result *r = runs[ri].r;
    for (int c = 0; c < MG_NCOLL; c++) {
      size_t tmp[1];
      if (!sizes_of(r, c, 0, tmp, 1)) continue;
      int y = TOP + CH * row++;
      if (nruns > 1)
        fprintf(f, "<text x=\"4\" y=\"%d\" font-size=\"12\">%s · %d procs</text>\n", y + CH / 2 + 4, mg_colls[c].name,
                runs[ri].d->launches[0].nprocs);
      else fprintf(f, "<text x=\"4\" y=\"%d\" font-size=\"12\">%s</text>\n", y + CH / 2 + 4, mg_colls[c].name);
      for (int s = 0; s < ns; s++) {
        int any = 0;
        double worst = 0;
        const mg_ck_verdict *wv = NULL;
        for (int i = 0; i < r->n; i++) {
          const mg_ck_verdict *v = &r->v[i];
          if ((int)v->coll != c || v->bytes != sizes[s] || v->aa || v->status != MG_CKV_OK) continue;
          any = 1;
          if (cautious(v) && v->slowdown > worst) worst = v->slowdown, wv = v;
        }
        int x = LW + CW * s;
        const char *fill, *txt = "", *fg = "#000";
        char val[32] = "";
        if (!any) fill = "url(#nodata)", txt = "–";
        else if (!wv) fill = "#ffffff", txt = "ok";
        else {
          fill = worst < 1.25 ? "#fdd0a2" : worst < 2 ? "#fd8d3c" : worst < 4 ? "#d94801" : "#7f2704";
          if (worst >= 2) fg = "#fff";
          snprintf(val, sizeof val, "%.2f×", worst);
          txt = val;
        }
        fprintf(f, "<g class=\"cell\" data-coll=\"%s\" data-bytes=\"%zu\" data-nprocs=\"%d\"><title>%s, %s, %d "
                   "processes: ",
                mg_colls[c].name, sizes[s], runs[ri].d->launches[0].nprocs, mg_colls[c].name,
                bytes_str(sizes[s], b, sizeof b), runs[ri].d->launches[0].nprocs);
        if (!any) fputs("not compared", f);
        else if (!wv) fputs("no cautious violation", f);
        else {
          char l[128];
          fprintf(f, "worst cautious violation %.2f× (", worst);
          esc(f, mg_ck_label(wv->coll, wv->alg, 0, l, sizeof l));
          fputs(")", f);
        }
        fprintf(f, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#888\"/>"
                   "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\" fill=\"%s\"%s>%s</text></g>\n",
                x, y, CW, CH, fill, x + CW / 2, y + CH / 2 + 4, fg, wv ? " font-weight=\"bold\"" : "", txt);
      }
    }
  }
  fputs("</svg>\n</div>\n<p class=\"legend\">Cell: the largest slowdown (default / mock-up) among the cautious "
        "violations at that size, \"ok\" when there is none, \"–\" (hatched) when not compared. Darker = larger "
        "slowdown: &lt; 1.25×, &lt; 2×, &lt; 4×, ≥ 4×.</p>\n",
        f);
}

/* The grouped comparer of mgcheck (its rows, mg_ck_grouped) as an HTML table. */
static int grouped(FILE *f, const mg_rp_run *run, int nruns) {
  mg_ck_group *g;
  int n = mg_ck_grouped(run->r, &g);
  if (n < 0) return -1;
  fputs("<h2>Grouped violations", f);
  run_title(f, run, nruns);
  fputs("</h2>\n<p class=\"note\">Per collective and size the fastest mock-up with a violation (the grouped-violation "
        "comparer of <code>mpiguide check</code>).</p>\n<table>\n",
        f);
  fputs("<tr><th>collective</th><th>size</th><th>n default</th><th>median default</th><th>fastest violating "
        "mock-up</th><th>its median</th><th>slowdown [95 % interval]</th><th>p (adjusted)</th><th>flags</th>"
        "<th>violations / comparisons</th></tr>\n",
        f);
  for (int i = 0; i < n; i++) {
    const mg_ck_verdict *v = g[i].best;
    char b[64], t[48], l[128], fl[8];
    fprintf(f, "<tr><td>%s</td><td class=n>%s</td><td class=n>%ld</td><td class=n>%s</td><td>",
            mg_colls[g[i].coll].name, bytes_str(g[i].bytes, b, sizeof b), g[i].n_def,
            us_str(g[i].med_def, t, sizeof t));
    if (v) esc(f, mg_ck_label(g[i].coll, v->alg, 0, l, sizeof l));
    else fputs("none", f);
    fprintf(f, "</td><td class=n>%s</td><td class=n>", v && isfinite(v->med_mock) ? us_str(v->med_mock, t, sizeof t) : "");
    if (v && !isnan(v->slowdown)) fprintf(f, "%.2f× [%.2f, %.2f]", v->slowdown, v->lo, v->hi);
    fputs("</td><td class=n>", f);
    if (v && isfinite(v->p_adj)) fprintf(f, "%.6g", v->p_adj);
    fprintf(f, "</td><td>%s</td><td class=n>%d / %d</td></tr>\n", v ? mg_ck_flags(v, fl) : "", g[i].violations,
            g[i].comparisons);
  }
  fputs("</table>\n<p class=\"note\">Flags: V violation (the default is significantly slower and its median is above "
        "in every launch); ~ noise warning; L significant, but not slower in every launch.</p>\n",
        f);
  free(g);
  return 0;
}

/* ---------- default vs tuned (verify results) ---------- */

/* #@key of the raw.csv next to a verify.csv (the measurement's metadata, read with it), "" when absent. */
static void verify_meta(const mg_rp_verify *v, const char *key, char *out, size_t len) {
  const char *s = mg_ck_meta_get(&v->raw_meta, key);
  snprintf(out, len, "%s", s ? s : "");
}

static int vplotted(const mg_rp_vrow *w) { return isfinite(w->ratio) && w->ratio > 0; }

static const char *vkind(const mg_rp_vrow *w) {
  return !strcmp(w->verdict, "noise?") ? "noise" : w->verdict;
}

static const char *vcolour(const mg_rp_vrow *w) {
  if (!strcmp(w->verdict, "faster")) return "#009E73";
  if (!strcmp(w->verdict, "slower")) return "#D55E00";
  return w->in_profile ? "#0072B2" : "#777777";
}

static void vtitle(FILE *f, const mg_rp_vrow *w) {
  char b[64], t1[48], t2[48], l[128];
  int c = mg_coll_find(w->coll);
  esc(f, w->coll);
  fprintf(f, ", %s: ", bytes_str(w->bytes, b, sizeof b));
  if (w->in_profile) {
    fputs("tuned ", f);
    esc(f, c >= 0 ? mg_ck_label((mg_coll)c, w->tuned, 0, l, sizeof l) : w->tuned);
  } else fputs("not in the profile (A/A control of the default)", f);
  fprintf(f, "; tuned/default %.3f [%.3f, %.3f] (tuned %s, default %s), p(Holm) %.3g; verdict ", w->ratio, w->lo,
          w->hi, us_str(w->med_tuned, t1, sizeof t1), us_str(w->med_def, t2, sizeof t2), w->p);
  esc(f, w->verdict);
  if (w->still[0]) {
    fputs("; still faster than tuned: ", f);
    esc(f, w->still);
  }
}

/* Tuned/default ratio of one collective of a verify result over message size. */
static void vplot(FILE *f, const mg_rp_verify *v, const char *coll) {
  size_t sizes[MAXS];
  int ns = 0, nrows = 0;
  double rmin = INFINITY, rmax = -INFINITY;
  for (int i = 0; i < v->n; i++) {
    const mg_rp_vrow *w = &v->rows[i];
    if (strcmp(w->coll, coll)) continue;
    nrows++;
    if (!vplotted(w)) continue;
    double q[] = {w->ratio, w->lo, w->hi};
    for (int k = 0; k < 3; k++)
      if (isfinite(q[k]) && q[k] > 0) rmin = fmin(rmin, q[k]), rmax = fmax(rmax, q[k]);
    int seen = 0;
    for (int k = 0; k < ns && !seen; k++) seen = sizes[k] == w->bytes;
    if (!seen && ns < MAXS) sizes[ns++] = w->bytes;
  }
  qsort(sizes, (size_t)ns, sizeof *sizes, cmp_size);
  fprintf(f, "<div class=\"plot vt\" id=\"vt-");
  esc(f, coll);
  fprintf(f, "-%d\">\n<h3>", v->nprocs);
  esc(f, coll);
  fprintf(f, " — tuned / default, %d processes</h3>\n", v->nprocs);
  if (!ns) {
    fprintf(f, "<div class=\"empty\" data-empty=\"1\"><b>Not enough data for a plot.</b> None of the %d rows has a "
               "ratio (see the table below).</div>\n</div>\n",
            nrows);
    return;
  }
  size_t smin = sizes[0], smax = sizes[ns - 1];
  double ymin, ymax;
  mg_rp_yrange(rmin, rmax, &ymin, &ymax);
  const double X1 = MG_RP_X0 + MG_RP_PW, Y1 = MG_RP_Y0 + MG_RP_PH;
  double y1 = mg_rp_ymap(1, ymin, ymax);
  fprintf(f, "<svg viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", MG_RP_W, MG_RP_H);
  esc(f, coll);
  fprintf(f, ": tuned runtime relative to the default over message size\" data-smin=\"%zu\" data-smax=\"%zu\" "
             "data-ymin=\"%g\" data-ymax=\"%g\">\n",
          smin, smax, ymin, ymax);
  fprintf(f, "<rect class=\"fregion\" x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"#e5f5ee\"/>\n", MG_RP_X0,
          y1, MG_RP_PW, Y1 - y1);
  fprintf(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"end\" fill=\"#555\">below 1: tuned is "
             "faster</text>\n",
          X1 - 4, Y1 - 5);
  plot_axes(f, sizes, ns, smin, smax, ymin, ymax, "tuned / default runtime (log scale)");
  /* a thin line through the cells in size order */
  fputs("<polyline fill=\"none\" stroke=\"#999\" stroke-width=\"1\" points=\"", f);
  for (int s = 0; s < ns; s++)
    for (int i = 0; i < v->n; i++) {
      const mg_rp_vrow *w = &v->rows[i];
      if (!strcmp(w->coll, coll) && vplotted(w) && w->bytes == sizes[s]) {
        fprintf(f, "%.2f,%.2f ", mg_rp_xmap(w->bytes, smin, smax), mg_rp_ymap(w->ratio, ymin, ymax));
        break;
      }
    }
  fputs("\"/>\n", f);
  for (int i = 0; i < v->n; i++) {
    const mg_rp_vrow *w = &v->rows[i];
    if (strcmp(w->coll, coll) || !vplotted(w)) continue;
    double x = mg_rp_xmap(w->bytes, smin, smax), y = mg_rp_ymap(w->ratio, ymin, ymax);
    const char *col = vcolour(w);
    fprintf(f, "<g class=\"vpt %s %s\" data-coll=\"", vkind(w), w->in_profile ? "in-profile" : "aa");
    esc(f, w->coll);
    fprintf(f, "\" data-bytes=\"%zu\" data-x=\"%.2f\" data-y=\"%.2f\"><title>", w->bytes, x, y);
    vtitle(f, w);
    fputs("</title>", f);
    if (isfinite(w->lo) && isfinite(w->hi) && w->lo > 0 && w->hi > 0) {
      double ya = mg_rp_ymap(w->hi, ymin, ymax), yb = mg_rp_ymap(w->lo, ymin, ymax);
      fprintf(f, "<path class=\"ci\" d=\"M%.2f %.2fV%.2fM%.2f %.2fH%.2fM%.2f %.2fH%.2f\" stroke=\"%s\" "
                 "stroke-width=\"1.5\" fill=\"none\"/>",
              x, ya, yb, x - 4, ya, x + 4, x - 4, yb, x + 4, col);
    }
    /* in the profile: a filled square; outside (the A/A control): a circle */
    marker(f, w->in_profile ? 1 : 0, x, y, col);
    if (!strcmp(w->verdict, "faster"))
      fprintf(f, "<circle class=\"ring\" cx=\"%.2f\" cy=\"%.2f\" r=\"10\" fill=\"none\" stroke=\"#000\" "
                 "stroke-width=\"2\"/>",
              x, y);
    else if (!strcmp(w->verdict, "slower"))
      fprintf(f, "<circle class=\"ring\" cx=\"%.2f\" cy=\"%.2f\" r=\"10\" fill=\"none\" stroke=\"#000\" "
                 "stroke-width=\"2\" stroke-dasharray=\"3 2\"/><text class=\"up\" x=\"%.2f\" y=\"%.2f\" "
                 "font-size=\"13\" font-weight=\"bold\" text-anchor=\"middle\">▲</text>",
              x, y, x + 14, y - 8);
    else if (!strcmp(w->verdict, "noise?"))
      fprintf(f, "<text class=\"tilde\" x=\"%.2f\" y=\"%.2f\" font-size=\"15\" font-weight=\"bold\" "
                 "text-anchor=\"middle\">?</text>",
              x + 12, y - 8);
    fputs("</g>\n", f);
  }
  fputs("</svg>\n<div class=\"note\">", f);
  int c = mg_coll_find(coll);
  if (c >= 0) {
    fputs("message size: ", f);
    esc(f, mg_colls[c].size_def);
  }
  fputs("</div>\n</div>\n", f);
}

static void verify_key(FILE *f) {
  fputs("<p class=\"legend\">Each plot: median runtime of the tuned algorithm (the profile's choice) divided by the "
        "default's median per message size, with its 95 % interval as an error bar (both axes log scale). Below "
        "the bold line at 1 (shaded) tuned is faster. Marks: <svg width=\"22\" height=\"16\" aria-hidden=\"true\">"
        "<rect x=\"6\" y=\"3\" width=\"10\" height=\"10\" fill=\"#0072B2\" fill-opacity=\"0.35\" stroke=\"#0072B2\"/>"
        "</svg> a cell the profile tunes; <svg width=\"22\" height=\"16\" aria-hidden=\"true\"><circle cx=\"11\" "
        "cy=\"8\" r=\"5\" fill=\"#777\" fill-opacity=\"0.35\" stroke=\"#777\"/></svg> a cell outside the profile "
        "(tuned runs the default: the A/A control, i.e. the noise); <svg width=\"26\" height=\"22\" "
        "aria-hidden=\"true\"><circle cx=\"13\" cy=\"11\" r=\"9\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/>"
        "</svg> verdict <b>faster</b> (green): tuned significantly faster; <svg width=\"26\" height=\"22\" "
        "aria-hidden=\"true\"><circle cx=\"13\" cy=\"11\" r=\"9\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\" "
        "stroke-dasharray=\"3 2\"/></svg> <b>▲</b> verdict <b>slower</b> (orange): tuned median above the "
        "default's; <b>?</b> verdict <code>noise?</code> (the A/A control is significant). Hover a mark for its "
        "values.</p>\n",
        f);
}

static void verify_table(FILE *f, const mg_rp_verify *v) {
  fputs("<table class=\"vt\"><tr><th>collective</th><th>size</th><th>tuned algorithm</th><th>default</th>"
        "<th>tuned</th><th>ratio [95 % interval]</th><th>verdict</th><th>still faster than tuned</th></tr>\n",
        f);
  char b[64], t[48], l[128];
  for (int i = 0; i < v->n; i++) {
    const mg_rp_vrow *w = &v->rows[i];
    int c = mg_coll_find(w->coll);
    fputs("<tr><td>", f);
    esc(f, w->coll);
    fprintf(f, "</td><td class=n>%s</td><td>", bytes_str(w->bytes, b, sizeof b));
    if (w->in_profile) esc(f, c >= 0 ? mg_ck_label((mg_coll)c, w->tuned, 0, l, sizeof l) : w->tuned);
    else fputs("default (not in the profile)", f);
    fprintf(f, "</td><td class=n>%s</td>", us_str(w->med_def, t, sizeof t));
    fprintf(f, "<td class=n>%s</td><td class=n>", us_str(w->med_tuned, t, sizeof t));
    if (isfinite(w->ratio)) {
      fprintf(f, "%.3f", w->ratio);
      if (isfinite(w->lo) && isfinite(w->hi)) fprintf(f, " [%.3f, %.3f]", w->lo, w->hi);
    } else fputs("-", f);
    fputs("</td><td>", f);
    esc(f, w->verdict);
    fputs("</td><td>", f);
    if (w->still[0]) {
      for (const char *p = w->still; *p; p++)
        if (*p == ';') fputs("; ", f);
        else {
          char one[2] = {*p, 0};
          esc(f, one);
        }
    } else fputs("–", f);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
}

static void verify_section(FILE *f, const mg_rp_verify *ver, int nver) {
  fputs("<h2 id=\"tuned\">Default vs tuned</h2>\n", f);
  verify_key(f);
  for (int k = 0; k < nver; k++) {
    const mg_rp_verify *v = &ver[k];
    fputs("<p class=\"note\">Verify result <code>", f);
    esc(f, v->path);
    fputs("</code>: profile <code>", f);
    esc(f, v->profile[0] ? v->profile : "unknown");
    fprintf(f, "</code>, %d processes", v->nprocs);
    if (isfinite(v->alpha)) fprintf(f, ", alpha %g", v->alpha);
    fprintf(f, ", %d cells.</p>\n<div class=\"plots\">\n", v->n);
    const char *colls[64];
    int nc = 0;
    for (int i = 0; i < v->n; i++) {
      int seen = 0;
      for (int j = 0; j < nc && !seen; j++) seen = !strcmp(colls[j], v->rows[i].coll);
      if (!seen && nc < 64) colls[nc++] = v->rows[i].coll;
    }
    for (int j = 0; j < nc; j++) vplot(f, v, colls[j]);
    fputs("</div>\n", f);
    verify_table(f, v);
  }
}

/* The page of verify results alone: the check sections say that there is no check data. */
static void no_check(FILE *f, const char *h2) {
  fprintf(f, "<h2>%s</h2>\n<div class=\"empty\" data-empty=\"1\"><b>No check data.</b> This report was made from "
             "verify results only; give a result directory of <code>mpiguide check</code> as well for this "
             "section.</div>\n",
          h2);
}

static void verify_metadata(FILE *f, const mg_rp_verify *ver, int nver) {
  static const struct {
    const char *label, *key;
  } rows[] = {{"MPI library", "mpi_library_name"}, {"version", "mpi_library_version"}, {"processes", NULL},
              {"nodes", "nnodes"},                 {"ranks per node", "ranks_per_node"},   {"hostname", "hostname"},
              {"sync method", "sync"},             {"timer", "timer"},                     {"profile", NULL},
              {"alpha", NULL},                     {"date", "date"},
              {"mpiguide version (measurement)", "mpiguide_version"}};
  fputs("<h2 id=\"meta\">Run</h2>\n<table class=\"meta\">\n", f);
  char buf[512];
  for (size_t r = 0; r < sizeof rows / sizeof rows[0]; r++) {
    fprintf(f, "<tr><td>%s</td>", rows[r].label);
    for (int k = 0; k < nver; k++) {
      if (rows[r].key) verify_meta(&ver[k], rows[r].key, buf, sizeof buf);
      else if (!strcmp(rows[r].label, "processes")) snprintf(buf, sizeof buf, "%d", ver[k].nprocs);
      else if (!strcmp(rows[r].label, "profile")) snprintf(buf, sizeof buf, "%s", ver[k].profile);
      else if (isfinite(ver[k].alpha)) snprintf(buf, sizeof buf, "%g", ver[k].alpha);
      else buf[0] = '\0';
      fputs("<td>", f);
      esc(f, buf[0] ? buf : "unknown");
      fputs("</td>", f);
    }
    fputs("</tr>\n", f);
  }
  fputs("</table>\n<p class=\"note\">Metadata of the verify run (verify.csv and the raw.csv next to it). No check "
        "data was given.</p>\n",
        f);
}

/* ---------- the page ---------- */

int mg_rp_write(FILE *f, const mg_rp_run *runs, int nruns) { return mg_rp_write_ex(f, runs, nruns, NULL, 0); }

int mg_rp_write_ex(FILE *f, const mg_rp_run *runs, int nruns, const mg_rp_verify *ver, int nver) {
  if (nruns < 0 || nver < 0 || nruns + nver < 1 || (nver && !ver)) return -1;
  for (int ri = 0; ri < nruns; ri++)
    if (!runs[ri].d || !runs[ri].r || runs[ri].d->nlaunches < 1) return -1;
  char name[256] = "";
  if (nruns) snprintf(name, sizeof name, "%s", runs[0].d->launches[0].mpi_name);
  else verify_meta(&ver[0], "mpi_library_name", name, sizeof name);
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>mpiguide report: ",
        f);
  esc(f, name);
  fputs("</title>\n<style>\n", f);
  fputs(css, f);
  fputs("</style>\n</head>\n<body>\n<h1>mpiguide report: ", f);
  esc(f, name[0] ? name : "MPI library");
  fputs(" — self-consistent performance guidelines</h1>\n", f);
  fputs("<p class=\"note\">Does the MPI library's own collective (the <i>default</i>) run slower than a mock-up "
        "built from other MPI calls? Every such case with a significant test result is a <i>violation</i>.</p>\n",
        f);
  if (nruns) metadata(f, runs, nruns);
  else verify_metadata(f, ver, nver);
  for (int ri = 0; ri < nruns; ri++)
    if (summary(f, &runs[ri], nruns)) return -1;
  if (!nruns) no_check(f, "Summary");
  if (nruns) heatmap(f, runs, nruns);
  else no_check(f, "Heat map of cautious violations");
  for (int ri = 0; ri < nruns; ri++) {
    fputs("<h2>Relative runtime per collective", f);
    run_title(f, &runs[ri], nruns);
    fputs("</h2>\n", f);
    plot_key(f);
    fputs("<div class=\"plots\">\n", f);
    for (int c = 0; c < MG_NCOLL; c++)
      if (coll_present(&runs[ri], c)) plot(f, &runs[ri], c, nruns);
    fputs("</div>\n", f);
  }
  if (!nruns) no_check(f, "Relative runtime per collective");
  /* default vs tuned (report.h): only with a verify result; nothing is shown without one. */
  if (nver) verify_section(f, ver, nver);
  for (int ri = 0; ri < nruns; ri++)
    if (grouped(f, &runs[ri], nruns)) return -1;
  if (!nruns) no_check(f, "Grouped violations");
  fputs("</body>\n</html>\n", f);
  return ferror(f) ? -1 : 0;
}

int mg_rp_write_file(const char *path, const mg_rp_run *runs, int nruns, char *err, size_t errlen) {
  return mg_rp_write_file_ex(path, runs, nruns, NULL, 0, err, errlen);
}

int mg_rp_write_file_ex(const char *path, const mg_rp_run *runs, int nruns, const mg_rp_verify *ver, int nver,
                        char *err, size_t errlen) {
  size_t n = strlen(path) + 32;
  char *tmp = malloc(n);
  if (!tmp) return snprintf(err, errlen, "out of memory"), -1;
  snprintf(tmp, n, "%s.partial.XXXXXX", path);
  int fd = mkstemp(tmp);
  if (fd < 0) {
    snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
    free(tmp);
    return -1;
  }
  fchmod(fd, 0644);
  FILE *f = fdopen(fd, "w");
  if (!f) {
    snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
    close(fd), unlink(tmp), free(tmp);
    return -1;
  }
  int rc = mg_rp_write_ex(f, runs, nruns, ver, nver);
  if (fclose(f) || rc) {
    snprintf(err, errlen, "%s: cannot write the report%s%s", path, errno ? ": " : "", errno ? strerror(errno) : "");
    unlink(tmp), free(tmp);
    return -1;
  }
  if (rename(tmp, path)) {
    snprintf(err, errlen, "%s: %s", path, strerror(errno));
    unlink(tmp), free(tmp);
    return -1;
  }
  free(tmp);
  return 0;
}
