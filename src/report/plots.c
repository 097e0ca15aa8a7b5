/*
 * The plots of the HTML report (report.c, html.h): one SVG per collective with the runtime of
 * every mock-up relative to the default against message size, its key, and the heat map of
 * cautious violations. The axis mapping is public (report.h) so that tests can compute
 * coordinates by hand.
 *
 * Readable without colour: every mock-up has its own marker shape and line dash as well as a
 * colour, violations are ringed (solid: cautious, dashed: with a noise warning), noise warnings
 * carry a "~", the violation region is hatched, heat-map cells carry their value as text.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mpiguide.h"
#include "report/html.h"
#include "report/report.h"
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

/* ---------- styles ---------- */

static const char *const palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#555555"};
static const char *const dashes[] = {"", "7 3", "2 3", "9 3 2 3", "4 4", "1 2"};
#define NPAL ((int)(sizeof palette / sizeof palette[0]))
#define NDASH ((int)(sizeof dashes / sizeof dashes[0]))
#define NSHAPE 6

/* Marker k (shape k % NSHAPE) centred at x, y. */
void mg_rp_marker(FILE *f, int k, double x, double y, const char *col) {
  const double s = 5;
  mg_html(f, "<g class=\"mk\" stroke=\"%s\" fill=\"%s\" fill-opacity=\"0.35\" stroke-width=\"1.6\">", col, col);
  switch (k % NSHAPE) {
  case 0: mg_html(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"%.1f\"/>", x, y, s); break;
  case 1: mg_html(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.1f\" height=\"%.1f\"/>", x - s, y - s, 2 * s, 2 * s); break;
  case 2:
    mg_html(f, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\"/>", x, y - s - 1, x + s + 1, y + s, x - s - 1, y + s);
    break;
  case 3:
    mg_html(f, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f %.2f,%.2f\"/>", x, y - s - 1, x + s + 1, y, x,
            y + s + 1, x - s - 1, y);
    break;
  case 4:
    mg_html(f, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\"/>", x, y + s + 1, x + s + 1, y - s, x - s - 1, y - s);
    break;
  default:
    mg_html(f, "<path d=\"M%.2f %.2fL%.2f %.2fM%.2f %.2fL%.2f %.2f\" stroke-width=\"2.2\"/>", x - s, y - s, x + s,
            y + s, x - s, y + s, x + s, y - s);
  }
  fputs("</g>", f);
}

/* The mock-ups of coll in r (of family fam; -1: every family; names the registry does not know
 * count as compositions), registry order first. */
static int mockups_of(const mg_ck_result *r, int coll, int fam, const char **out, int cap) {
  int n = 0;
  for (int a = 1; a < mg_colls[coll].nalgs && n < cap; a++)
    for (int i = 0; i < r->n && (fam < 0 || mg_colls[coll].algs[a].family == fam); i++)
      if ((int)r->v[i].coll == coll && !r->v[i].aa && !strcmp(r->v[i].alg, mg_colls[coll].algs[a].name)) {
        out[n++] = mg_colls[coll].algs[a].name;
        break;
      }
  /* names the registry does not know (foreign data) */
  for (int i = 0; i < r->n && n < cap && fam <= MG_FAM_COMPOSITION; i++) {
    if ((int)r->v[i].coll != coll || r->v[i].aa) continue;
    int seen = 0;
    for (int k = 0; k < n && !seen; k++) seen = !strcmp(out[k], r->v[i].alg);
    if (!seen) out[n++] = r->v[i].alg;
  }
  return n;
}

#define MAXM 32

static void legend(FILE *f, int coll, const char *const *algs, int na) {
  char l[128];
  fputs("<div class=\"legend\">", f);
  for (int k = 0; k < na; k++) {
    mg_html(f, "<span class=\"li\"><svg width=\"34\" height=\"16\" aria-hidden=\"true\"><line x1=\"1\" y1=\"8\" x2=\"33\" y2=\"8\" "
               "stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\"/>",
            palette[k % NPAL], dashes[k % NDASH]);
    mg_rp_marker(f, k, 17, 8, palette[k % NPAL]);
    fputs("</svg> ", f);
    mg_html(f, "%s", mg_ck_label((mg_coll)coll, algs[k], 0, l, sizeof l));
    fputs("</span> &nbsp; ", f);
  }
  fputs("</div>\n", f);
}

/* The frame of a ratio plot: y grid and ticks (powers of two), x ticks at
 * the given sizes, labels, and the bold line at 1 (the default). Shared by the
 * relative-runtime plots and the default-vs-tuned plots. */
void mg_rp_plot_axes(FILE *f, const size_t *sizes, int ns, size_t smin, size_t smax, double ymin, double ymax,
                     const char *ylabel) {
  const double X0 = MG_RP_X0, Y0 = MG_RP_Y0, X1 = MG_RP_X0 + MG_RP_PW, Y1 = MG_RP_Y0 + MG_RP_PH;
  double y1 = mg_rp_ymap(1, ymin, ymax);
  char b[64];
  for (double q = ymin; q <= ymax * 1.0001; q *= 2) { /* y grid and ticks: powers of two */
    double y = mg_rp_ymap(q, ymin, ymax);
    mg_html(f, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" stroke=\"#ddd\"/>", MG_RP_X0, y, X1, y);
    mg_html(f, "<text x=\"%.0f\" y=\"%.2f\" font-size=\"11\" text-anchor=\"end\" dominant-baseline=\"middle\">%g</text>\n",
            X0 - 5, y, q);
  }
  for (int s = 0; s < ns; s++) { /* x ticks: the measured sizes */
    double x = mg_rp_xmap(sizes[s], smin, smax);
    mg_html(f, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"#ddd\"/>", x, Y0, x, Y1);
    mg_html(f, "<line x1=\"%.2f\" y1=\"%.0f\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"#000\"/>", x, Y1, x, Y1 + 5);
    mg_html(f, "<text x=\"%.2f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n", x, Y1 + 17,
            mg_rp_bytes_str(sizes[s], b, sizeof b));
  }
  mg_html(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n", MG_RP_X0,
          MG_RP_Y0, MG_RP_PW, MG_RP_PH);
  mg_html(f, "<text x=\"%.0f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">message size in bytes (log scale)"
             "</text>\n",
          X0 + MG_RP_PW / 2.0, MG_RP_H - 8);
  mg_html(f, "<text transform=\"translate(16 %.0f) rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">%s</text>\n",
          Y0 + MG_RP_PH / 2.0, ylabel);
  mg_html(f, "<line class=\"default\" x1=\"%d\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" stroke=\"#000\" stroke-width=\"2.5\">"
             "<title>default = 1.0</title></line>\n",
          MG_RP_X0, y1, X1, y1);
  mg_html(f, "<text x=\"%.0f\" y=\"%.2f\" font-size=\"11\" font-weight=\"bold\">default = 1</text>\n", X0 + 4, y1 - 4);
}

/* A collective with fewer than two plotted sizes: why there is no plot, and the values as text. */
static void plot_no_data(FILE *f, const mg_ck_result *r, int coll, const size_t *sizes, int ns) {
  char b[64], l[128];
  size_t all[MG_RP_MAXS];
  int nall = mg_rp_sizes_of(r, coll, 0, all, MG_RP_MAXS);
  fputs("<div class=\"empty\" data-empty=\"1\"><b>Not enough data for a plot.</b><br>", f);
  if (ns == 1)
    mg_html(f, "%s was compared at one message size only (%s); a plot needs at least two.", mg_colls[coll].name,
            mg_rp_bytes_str(sizes[0], b, sizeof b));
  else if (nall)
    mg_html(f, "No mock-up of %s has a usable comparison (all skipped or failed).", mg_colls[coll].name);
  else mg_html(f, "%s has measurements but no mock-up was compared with the default.", mg_colls[coll].name);
  fputs("</div>\n", f);
  /* the values anyway, as text */
  int any = 0;
  for (int i = 0; i < r->n; i++) {
    const mg_ck_verdict *v = &r->v[i];
    if ((int)v->coll != coll || v->aa) continue;
    if (!any) fputs("<table><tr><th>size</th><th>mock-up</th><th>relative runtime</th><th>flags / note</th></tr>\n", f);
    any = 1;
    char fl[8];
    char sr[MG_CK_RED];
    mg_html(f, "<tr><td class=n>%s %s</td><td>", mg_rp_bytes_str(v->bytes, b, sizeof b),
            mg_ck_red_short(v->red, sr, sizeof sr));
    mg_html(f, "%s", mg_ck_label(v->coll, v->alg, 0, l, sizeof l));
    if (mg_rp_ratio_ok(v)) mg_html(f, "</td><td class=n>%.3f</td><td>%s</td></tr>\n", v->med_mock / v->med_def, mg_ck_flags(v, fl));
    else {
      fputs("</td><td>-</td><td>", f);
      mg_html(f, "%s", v->note);
      fputs("</td></tr>\n", f);
    }
  }
  if (any) fputs("</table>\n", f);
}

/* The axes' ranges of one plot. */
typedef struct plot_range {
  size_t smin, smax;
  double ymin, ymax;
} plot_range;

/* The svg element, the hatched violation region below the default's line, and the axes. */
static void plot_frame(FILE *f, int coll, const char *anchor, const size_t *sizes, int ns, const plot_range *g) {
  const double X1 = MG_RP_X0 + MG_RP_PW, Y1 = MG_RP_Y0 + MG_RP_PH;
  double y1 = mg_rp_ymap(1.0, g->ymin, g->ymax);
  mg_html(f, "<svg viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s: runtime of each mock-up relative to the default\" "
             "data-smin=\"%zu\" data-smax=\"%zu\" data-ymin=\"%g\" data-ymax=\"%g\">\n",
          MG_RP_W, MG_RP_H, mg_colls[coll].name, g->smin, g->smax, g->ymin, g->ymax);
  mg_html(f, "<defs><pattern id=\"hatch-%s-%s\" width=\"8\" height=\"8\" patternUnits=\"userSpaceOnUse\" "
             "patternTransform=\"rotate(45)\"><rect width=\"8\" height=\"8\" fill=\"#fde3e0\"/>"
             "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"8\" stroke=\"#e8a29a\" stroke-width=\"2\"/></pattern></defs>\n",
          mg_colls[coll].name, anchor);
  /* violation region: below the default's line */
  mg_html(f, "<rect class=\"vregion\" x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"url(#hatch-%s-%s)\">"
             "<title>violation region: mock-up faster than the default</title></rect>\n",
          MG_RP_X0, y1, MG_RP_PW, Y1 - y1, mg_colls[coll].name, anchor);
  mg_html(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" text-anchor=\"end\" fill=\"#8a2a20\">violation region "
             "(mock-up faster)</text>\n",
          X1 - 4, Y1 - 5);
  mg_rp_plot_axes(f, sizes, ns, g->smin, g->smax, g->ymin, g->ymax, "runtime relative to the default (log scale)");
}

/* The marker of mock-up k at one verdict, with its title, ring (violation) and tilde (noise). */
static void plot_point(FILE *f, int k, const mg_ck_verdict *v, const plot_range *g) {
  char b[64], l[128], t1[48], t2[48];
  double q = v->med_mock / v->med_def;
  double x = mg_rp_xmap(v->bytes, g->smin, g->smax), y = mg_rp_ymap(q, g->ymin, g->ymax);
  mg_html(f, "<g class=\"pt %s%s\" data-alg=\"%s\" data-bytes=\"%zu\" data-x=\"%.2f\" data-y=\"%.2f\"><title>",
          mg_ck_outcome_name(v->outcome), v->noise ? " noise" : "", v->alg, v->bytes, x, y);
  mg_html(f, "%s", mg_ck_label(v->coll, v->alg, 0, l, sizeof l));
  char red[MG_CK_RED + 1] = "";
  if (*v->red) red[0] = ' ', mg_ck_red_short(v->red, red + 1, sizeof red - 1);
  mg_html(f, ", %s%s: relative runtime %.3f (mock-up %s, default %s); slowdown %.2f× [%.2f, %.2f], p(Holm) %.3g; %s%s",
          mg_rp_bytes_str(v->bytes, b, sizeof b), red, q, mg_rp_us_str(v->med_mock, t1, sizeof t1), mg_rp_us_str(v->med_def, t2, sizeof t2),
          v->slowdown, v->lo, v->hi, v->p_adj, mg_ck_outcome_name(v->outcome),
          v->noise ? " (the medians differ by less than one synchronisation)" : "");
  fputs("</title>", f);
  mg_rp_marker(f, k, x, y, palette[k % NPAL]);
  /* solid ring: a violation; dashed: significant, but inconclusive (noise, launches, interval) */
  if (v->violation || v->leaning)
    mg_html(f, "<circle class=\"ring\" cx=\"%.2f\" cy=\"%.2f\" r=\"10\" fill=\"none\" stroke=\"#000\" "
               "stroke-width=\"2\"",
            x, y), mg_html(f, v->violation ? "/>" : " stroke-dasharray=\"3 2\"/>");
  if (v->noise)
    mg_html(f, "<text class=\"tilde\" x=\"%.2f\" y=\"%.2f\" font-size=\"15\" font-weight=\"bold\" "
               "text-anchor=\"middle\">~</text>",
            x + 12, y - 8);
  fputs("</g>\n", f);
}

/* A non-monotone cell (check.h, monotony) of the default (on the line at 1) or of a plotted mock-up
 * (on its point): an orange diamond, with what it means in its title. */
static void plot_mono(FILE *f, const mg_ck_result *r, const mg_ck_verdict *m, const plot_range *g) {
  double q = 1;
  if (strcmp(m->alg, "default")) {
    const mg_ck_verdict *v = NULL;
    for (int i = 0; i < r->n && !v; i++)
      if (mg_ck_same_cell(&r->v[i], m) && !strcmp(r->v[i].alg, m->alg) && mg_rp_ratio_ok(&r->v[i])) v = &r->v[i];
    if (!v) return; /* its point is not drawn */
    q = v->med_mock / v->med_def;
  }
  char b1[64], b2[64], t1[48], t2[48], l[128], red[MG_CK_RED + 1] = "";
  double x = mg_rp_xmap(m->bytes, g->smin, g->smax), y = mg_rp_ymap(q, g->ymin, g->ymax);
  if (*m->red) red[0] = ' ', mg_ck_red_short(m->red, red + 1, sizeof red - 1);
  mg_html(f, "<g class=\"mono\" data-alg=\"%s\" data-bytes=\"%zu\" data-next=\"%zu\"><title>", m->alg, m->bytes,
          m->bytes_next);
  mg_html(f, "%s", strcmp(m->alg, "default") ? mg_ck_label(m->coll, m->alg, 0, l, sizeof l) : "default");
  mg_html(f, "%s: not monotone, %s takes %s, %s only %s (%.2f× [%.2f, %.2f], p(Holm) %.3g)</title>", red,
          mg_rp_bytes_str(m->bytes, b1, sizeof b1), mg_rp_us_str(m->med_def, t1, sizeof t1),
          mg_rp_bytes_str(m->bytes_next, b2, sizeof b2), mg_rp_us_str(m->med_mock, t2, sizeof t2), m->slowdown, m->lo,
          m->hi, m->p_adj);
  mg_html(f, "<path d=\"M%.2f %.2fl7 7l-7 7l-7 -7z\" fill=\"none\" stroke=\"#E69F00\" stroke-width=\"2.5\"/></g>\n", x,
          y - 7);
}

/* The cost model's prediction for mock-up k at one cell: a cross in its colour (the y axis covers
 * the predicted ratios too; docs/model.md). */
static void plot_pred(FILE *f, int k, const mg_rp_pred *x, const plot_range *g) {
  if (x->bytes < g->smin || x->bytes > g->smax || !(x->ratio > 0)) return;
  char b[64], l[128];
  double px = mg_rp_xmap(x->bytes, g->smin, g->smax), py = mg_rp_ymap(x->ratio, g->ymin, g->ymax);
  mg_html(f, "<g class=\"pred\" data-alg=\"%s\" data-bytes=\"%zu\" data-y=\"%.2f\"><title>", x->alg, x->bytes, py);
  mg_html(f, "%s", mg_ck_label(x->coll, x->alg, 0, l, sizeof l));
  mg_html(f, ", %s: predicted relative runtime %.3f</title>", mg_rp_bytes_str(x->bytes, b, sizeof b), x->ratio);
  mg_html(f, "<path d=\"M%.2f %.2fl8 8m0 -8l-8 8\" stroke=\"%s\" stroke-width=\"1.6\" opacity=\"0.8\"/></g>\n",
          px - 4, py - 4, palette[k % NPAL]);
}

static int in_list(const char *name, const char **algs, int na) {
  for (int k = 0; k < na; k++)
    if (!strcmp(name, algs[k])) return 1;
  return 0;
}

/* Relative runtime of every mock-up of coll (of family fam; -1: all) against message size, or the
 * "not enough data" panel; nothing for a family with no mock-up of coll in the run. */
void mg_rp_plot(FILE *f, const mg_rp_run *run, int coll, int nruns, int fam) {
  const mg_ck_result *r = run->r;
  size_t sizes[MG_RP_MAXS];
  const char *algs[MAXM];
  int ns = mg_rp_sizes_of(r, coll, 1, sizes, MG_RP_MAXS);
  int na = mockups_of(r, coll, fam, algs, MAXM);
  if (fam >= 0 && na == 0) return;
  mg_html(f, "<div class=\"plot\" id=\"%s-%s%s%s\" data-coll=\"%s\"><h3>%s (%s)", mg_colls[coll].name, run->anchor,
          fam > 0 ? "-" : "", fam > 0 ? mg_families[fam].name : "", mg_colls[coll].name, mg_colls[coll].name,
          mg_colls[coll].mpi_name);
  if (fam > 0) mg_html(f, ", %s", mg_families[fam].name);
  if (nruns > 1) fputs(", ", f), mg_html(f, "%s", run->label);
  fputs("</h3>\n", f);
  if (ns < 2) {
    plot_no_data(f, r, coll, sizes, ns);
    fputs("</div>\n", f);
    return;
  }
  double rmin = INFINITY, rmax = -INFINITY;
  for (int i = 0; i < r->n; i++)
    if ((int)r->v[i].coll == coll && mg_rp_ratio_ok(&r->v[i]) && in_list(r->v[i].alg, algs, na)) {
      double q = r->v[i].med_mock / r->v[i].med_def;
      rmin = fmin(rmin, q), rmax = fmax(rmax, q);
    }
  int np = run->d && run->d->nlaunches ? run->d->launches[0].nprocs : 0;
  for (int i = 0; run->pred && i < run->pred->n; i++) { /* the predictions' crosses fit too */
    const mg_rp_pred *x = &run->pred->v[i];
    if (x->coll == coll && x->nprocs == np && x->ratio > 0 && x->bytes >= sizes[0] && x->bytes <= sizes[ns - 1] &&
        in_list(x->alg, algs, na))
      rmin = fmin(rmin, x->ratio), rmax = fmax(rmax, x->ratio);
  }
  plot_range g = {sizes[0], sizes[ns - 1], 0, 0};
  mg_rp_yrange(rmin, rmax, &g.ymin, &g.ymax);
  plot_frame(f, coll, run->anchor, sizes, ns, &g);
  /* the mock-ups: lines, then markers with their flags */
  /* one line per mock-up and reduction pair (a reduction measured with several datatypes and ops) */
  const char *reds[8];
  int nr = 0;
  for (int i = 0; i < r->n; i++) {
    int seen = 0;
    for (int j = 0; j < nr && !seen; j++) seen = !strcmp(reds[j], r->v[i].red);
    if ((int)r->v[i].coll == coll && !seen && nr < 8) reds[nr++] = r->v[i].red;
  }
  for (int k = 0; k < na; k++)
    for (int j = 0; j < nr; j++) {
      mg_html(f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" stroke-dasharray=\"%s\" "
                 "stroke-opacity=\"%s\" points=\"",
              palette[k % NPAL], dashes[k % NDASH], j ? "0.5" : "1");
      for (int i = 0; i < r->n; i++) {
        const mg_ck_verdict *v = &r->v[i];
        if ((int)v->coll != coll || !mg_rp_ratio_ok(v) || strcmp(v->alg, algs[k]) || strcmp(v->red, reds[j]))
          continue;
        mg_html(f, "%.2f,%.2f ", mg_rp_xmap(v->bytes, g.smin, g.smax),
                mg_rp_ymap(v->med_mock / v->med_def, g.ymin, g.ymax));
      }
      fputs("\"/>\n", f);
    }
  for (int k = 0; k < na; k++)
    for (int i = 0; i < r->n; i++) {
      const mg_ck_verdict *v = &r->v[i];
      if ((int)v->coll == coll && mg_rp_ratio_ok(v) && !strcmp(v->alg, algs[k])) plot_point(f, k, v, &g);
    }
  /* the cost model's predictions of this plot's mock-ups (check --loggp) */
  for (int k = 0; run->pred && k < na; k++)
    for (int i = 0; i < run->pred->n; i++) {
      const mg_rp_pred *x = &run->pred->v[i];
      if (x->coll == coll && x->nprocs == np && !strcmp(x->alg, algs[k])) plot_pred(f, k, x, &g);
    }
  /* non-monotone cells of the default (every family's plot) and of this plot's mock-ups */
  for (int i = 0; i < r->nmono; i++) {
    const mg_ck_verdict *m = &r->mono[i];
    if ((int)m->coll == coll && m->violation && (!strcmp(m->alg, "default") || in_list(m->alg, algs, na)))
      plot_mono(f, r, m, &g);
  }
  fputs("</svg>\n", f);
  legend(f, coll, algs, na);
  if (nr > 1) {
    char sr[MG_CK_RED];
    mg_html(f, "<div class=\"note\">one line per datatype:op: %s (solid)", mg_ck_red_short(reds[0], sr, sizeof sr));
    for (int j = 1; j < nr; j++) mg_html(f, ", %s (faint)", mg_ck_red_short(reds[j], sr, sizeof sr));
    fputs("; hover a mark for its pair</div>\n", f);
  }
  fputs("<div class=\"note\">message size: ", f);
  mg_html(f, "%s", mg_colls[coll].size_def);
  fputs("</div>\n</div>\n", f);
}

void mg_rp_plot_key(FILE *f) {
  fputs("<p class=\"legend\">Each plot: median runtime of every mock-up divided by the default's median at the same "
        "message size (both axes log scale). Below the bold line at 1 (hatched) a mock-up is faster than the "
        "default. Marks: <svg width=\"26\" height=\"22\" aria-hidden=\"true\"><circle cx=\"13\" cy=\"11\" r=\"9\" "
        "fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/></svg> violation (significant, in every launch, beyond "
        "the noise); "
        "<svg width=\"26\" height=\"22\" aria-hidden=\"true\"><circle cx=\"13\" cy=\"11\" r=\"9\" fill=\"none\" "
        "stroke=\"#000\" stroke-width=\"2\" stroke-dasharray=\"3 2\"/></svg> significant, but inconclusive; "
        "<b>~</b> noise warning (the medians differ by less than one synchronisation); "
        "<svg width=\"20\" height=\"22\" aria-hidden=\"true\"><path d=\"M10 4l7 7l-7 7l-7 -7z\" fill=\"none\" "
        "stroke=\"#E69F00\" stroke-width=\"2.5\"/></svg> not monotone: slower than at a larger size (on the line "
        "at 1: the default; docs/check.md, Monotony); "
        "<svg width=\"20\" height=\"22\" aria-hidden=\"true\"><path d=\"M6 7l8 8m0 -8l-8 8\" stroke=\"#000\" "
        "stroke-width=\"1.6\"/></svg> the cost model's prediction (check --loggp; docs/model.md). Hover a mark for "
        "its values.</p>\n",
        f);
}

/* Heat map of violations: rows (run, collective), columns every size of every run; a cell is a
 * violation (its worst slowdown), consistent (every comparison conclusive, none violated) or
 * inconclusive — never "ok" for a cell the data could not judge. */
void mg_rp_heatmap(FILE *f, const mg_rp_run *runs, int nruns) {
  size_t sizes[MG_RP_MAXS];
  int ns = 0;
  for (int ri = 0; ri < nruns; ri++) {
    size_t s[MG_RP_MAXS];
    int n = mg_rp_sizes_of(runs[ri].r, -1, 0, s, MG_RP_MAXS);
    for (int i = 0; i < n; i++) {
      int seen = 0;
      for (int k = 0; k < ns && !seen; k++) seen = sizes[k] == s[i];
      if (!seen && ns < MG_RP_MAXS) sizes[ns++] = s[i];
    }
  }
  qsort(sizes, (size_t)ns, sizeof *sizes, mg_rp_cmp_size);
  int rows = 0;
  for (int ri = 0; ri < nruns; ri++)
    for (int c = 0; c < MG_NCOLL; c++) {
      size_t s[1];
      rows += mg_rp_sizes_of(runs[ri].r, c, 0, s, 1) > 0;
    }
  fputs("<h2 id=\"heat\">Heat map of violations</h2>\n<div class=\"heat\">\n", f);
  if (!rows || !ns) {
    fputs("<div class=\"empty\" data-empty=\"1\"><b>Not enough data for a heat map:</b> no comparison.</div></div>\n", f);
    return;
  }
  size_t longest = 0; /* the row labels "coll · configuration", about 7 units a character */
  for (int ri = 0; ri < nruns && nruns > 1; ri++)
    if (strlen(runs[ri].label) > longest) longest = strlen(runs[ri].label);
  const int LW = nruns > 1 ? 130 + 7 * (int)longest : 170, CW = 62, CH = 26, TOP = 34;
  int W = LW + CW * ns + 4, H = TOP + CH * rows + 4;
  char b[64];
  mg_html(f, "<svg viewBox=\"0 0 %d %d\" width=\"%d\" role=\"img\" aria-label=\"violations by collective "
             "and message size\">\n",
          W, H, W);
  fputs("<defs><pattern id=\"nodata\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
        "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#f2f2f2\"/><line x1=\"0\" y1=\"0\" "
        "x2=\"0\" y2=\"6\" stroke=\"#ccc\" stroke-width=\"1.5\"/></pattern></defs>\n",
        f);
  for (int s = 0; s < ns; s++)
    mg_html(f, "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n", LW + CW * s + CW / 2,
            TOP - 8, mg_rp_bytes_str(sizes[s], b, sizeof b));
  int row = 0;
  for (int ri = 0; ri < nruns; ri++) {
    const mg_ck_result *r = runs[ri].r;
    for (int c = 0; c < MG_NCOLL; c++) {
      size_t tmp[1];
      if (!mg_rp_sizes_of(r, c, 0, tmp, 1)) continue;
      int y = TOP + CH * row++;
      if (nruns > 1) {
        mg_html(f, "<text x=\"4\" y=\"%d\" font-size=\"12\">%s · ", y + CH / 2 + 4, mg_colls[c].name);
        mg_html(f, "%s", runs[ri].label);
        fputs("</text>\n", f);
      }
      else mg_html(f, "<text x=\"4\" y=\"%d\" font-size=\"12\">%s</text>\n", y + CH / 2 + 4, mg_colls[c].name);
      for (int s = 0; s < ns; s++) {
        int any = 0, unsure = 0;
        double worst = 0;
        const mg_ck_verdict *wv = NULL;
        for (int i = 0; i < r->n; i++) {
          const mg_ck_verdict *v = &r->v[i];
          if ((int)v->coll != c || v->bytes != sizes[s] || v->aa || v->status != MG_CKV_OK) continue;
          any = 1;
          unsure |= v->outcome == MG_CK_INCONCLUSIVE;
          if (v->violation && v->slowdown > worst) worst = v->slowdown, wv = v;
        }
        int x = LW + CW * s;
        const char *fill, *txt = "", *fg = "#000";
        char val[32] = "";
        if (!any) fill = "url(#nodata)", txt = "–";
        else if (!wv && unsure) fill = "#e8e8e8", txt = "?";
        else if (!wv) fill = "#ffffff", txt = "ok";
        else {
          fill = worst < 1.25 ? "#fdd0a2" : worst < 2 ? "#fd8d3c" : worst < 4 ? "#d94801" : "#7f2704";
          if (worst >= 2) fg = "#fff";
          snprintf(val, sizeof val, "%.2f×", worst);
          txt = val;
        }
        mg_html(f, "<g class=\"cell\" data-coll=\"%s\" data-bytes=\"%zu\" data-nprocs=\"%d\" data-config=\"%s\"><title>%s, "
                   "%s, ",
                mg_colls[c].name, sizes[s], runs[ri].d->launches[0].nprocs, runs[ri].anchor, mg_colls[c].name,
                mg_rp_bytes_str(sizes[s], b, sizeof b));
        mg_html(f, "%s", runs[ri].label);
        fputs(": ", f);
        if (!any) fputs("not compared", f);
        else if (!wv && unsure) fputs("inconclusive: no violation shown, not every comparison conclusive", f);
        else if (!wv) fputs("consistent: no violation, every comparison conclusive", f);
        else {
          char l[128];
          mg_html(f, "worst violation %.2f× (", worst);
          mg_html(f, "%s", mg_ck_label(wv->coll, wv->alg, 0, l, sizeof l));
          fputs(")", f);
        }
        mg_html(f, "</title><rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"#888\"/>"
                   "<text x=\"%d\" y=\"%d\" font-size=\"11\" text-anchor=\"middle\" fill=\"%s\"",
                x, y, CW, CH, fill, x + CW / 2, y + CH / 2 + 4, fg);
        mg_html(f, wv ? " font-weight=\"bold\">%s</text></g>\n" : ">%s</text></g>\n", txt);
      }
    }
  }
  fputs("</svg>\n</div>\n<p class=\"legend\">Cell: the largest slowdown (default / mock-up) among the "
        "violations at that size; \"ok\" when every comparison there is conclusive and none is a violation; "
        "\"?\" (grey) when there is no violation but some comparison is inconclusive; \"–\" (hatched) when not "
        "compared. Darker = larger slowdown: &lt; 1.25×, &lt; 2×, &lt; 4×, ≥ 4×.</p>\n",
        f);
}

/* The grouped comparer of mgcheck (its rows, mg_ck_grouped) as an HTML table. */
