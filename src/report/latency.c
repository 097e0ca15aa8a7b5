/*
 * Latency against message size (report.h, docs/report.md): for every operation with split rows
 * (split-robustness, TGT 2010 eq. 1), one log-log plot of the median runtime of the default and
 * of every mock-up measured, with the sizes where a split row is a violation — the message
 * slower than k messages of a k-th — marked on the default's curve: the shape of TPDS 2010's
 * Fig. 1, where the eager-to-rendezvous switch of MPI_Send makes a message slower than its two
 * halves. Sizes where a split row is inconclusive get a "?" (never clean, never violated).
 * And the point-to-point guidelines as a table (check.h, mg_ck_p2p_cols), the same cells as the
 * summary's section.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pack.h"
#include "report/html.h"
#include "report/report.h"

static const char *const lat_palette[] = {"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#555555"};
static const char *const lat_dashes[] = {"", "7 3", "2 3", "9 3 2 3", "4 4", "1 2"};
#define NLP ((int)(sizeof lat_palette / sizeof lat_palette[0]))
#define NLD ((int)(sizeof lat_dashes / sizeof lat_dashes[0]))

/* Series k's dash pattern: the default solid, mock-ups the cycle, the library's variants (k >= nmock)
 * dotted, so the two kinds of contender read apart. */
static const char *series_dash(int k, int nmock) { return !k ? "" : k >= nmock ? "1 3" : lat_dashes[(k - 1) % NLD]; }

double mg_rp_lat_ymap(double sec, double ymin, double ymax) {
  return MG_RP_Y0 + MG_RP_PH * (log10(ymax) - log10(sec)) / (log10(ymax) - log10(ymin));
}

void mg_rp_lat_yrange(double tmin, double tmax, double *ymin, double *ymax) {
  *ymin = pow(10, floor(log10(tmin)));
  *ymax = pow(10, ceil(log10(tmax)));
  if (*ymax <= *ymin) *ymax = *ymin * 10;
}

/* The split rows' verdicts of coll at bytes (first reduction pair only): violated, inconclusive. */
static void split_state(const mg_ck_result *r, int coll, const char *red, size_t bytes, int *viol, int *unsure,
                        char *why, size_t len) {
  *viol = *unsure = 0;
  size_t u = 0;
  why[0] = '\0';
  for (int i = 0; i < r->n; i++) {
    const mg_ck_verdict *v = &r->v[i];
    int a = mg_alg_find(v->coll, v->alg);
    if ((int)v->coll != coll || v->bytes != bytes || strcmp(v->red, red) || v->aa || v->status != MG_CKV_OK || a <= 0 ||
        mg_colls[coll].algs[a].family != MG_FAM_SPLIT)
      continue;
    if (v->violation) {
      (*viol)++;
      if (u < len) u += (size_t)snprintf(why + u, len - u, "%s%s %.2f× [%.2f, %.2f]", u ? "; " : "", v->alg, v->slowdown, v->lo, v->hi);
    } else if (v->outcome == MG_CK_INCONCLUSIVE)
      (*unsure)++;
  }
}

int mg_rp_has_split(const mg_ck_result *r, int coll) {
  for (int i = 0; i < r->n; i++) {
    const mg_ck_verdict *v = &r->v[i];
    int a = mg_alg_find(v->coll, v->alg);
    if ((int)v->coll == coll && a > 0 && mg_colls[coll].algs[a].family == MG_FAM_SPLIT && mg_rp_ratio_ok(v)) return 1;
  }
  return 0;
}

/* The median of alg (default: "default"; a mock-up; a library variant "lib:NAME") of coll at bytes,
 * first pair; NaN: none. */
static double median_at(const mg_ck_result *r, int coll, const char *red, const char *alg, size_t bytes) {
  for (int i = 0; i < r->n + r->nlib; i++) {
    const mg_ck_verdict *v = i < r->n ? &r->v[i] : &r->lib[i - r->n];
    if ((int)v->coll != coll || v->bytes != bytes || strcmp(v->red, red) || !mg_rp_ratio_ok(v)) continue;
    if (!strcmp(alg, "default")) return v->med_def;
    if (!strcmp(alg, v->alg)) return v->med_mock;
  }
  return NAN;
}

/* One latency plot: its series, sizes and scales. */
typedef struct lat_plot {
  const mg_ck_result *r;
  int coll;
  const char *red; /* the reduction pair plotted (the first measured), "" none */
  size_t sizes[MG_RP_MAXS];
  int ns;
  const char *algs[48]; /* the series: the default, the mock-ups [1, nmock), the library's variants */
  int na, nmock;
  double ymin, ymax;
  size_t smin, smax;
} lat_plot;

/* The series: the default, then each mock-up measured (registry order), then each of the library's
 * own variants measured (check --lib-variants; docs/libvar.md), dotted; the sizes and the pair. */
static void lat_series(lat_plot *P) {
  const mg_ck_result *r = P->r;
  int coll = P->coll;
  P->ns = mg_rp_sizes_of(r, coll, 1, P->sizes, MG_RP_MAXS);
  P->red = "";
  for (int i = 0; i < r->n; i++)
    if ((int)r->v[i].coll == coll && mg_rp_ratio_ok(&r->v[i])) {
      P->red = r->v[i].red;
      break;
    }
  P->na = 0;
  P->algs[P->na++] = "default";
  for (int a = 1; a < mg_colls[coll].nalgs && P->na < 48; a++)
    for (int i = 0; i < r->n; i++)
      if ((int)r->v[i].coll == coll && !strcmp(r->v[i].alg, mg_colls[coll].algs[a].name) && mg_rp_ratio_ok(&r->v[i])) {
        P->algs[P->na++] = mg_colls[coll].algs[a].name;
        break;
      }
  P->nmock = P->na;
  for (int i = 0; i < r->nlib && P->na < 48; i++) {
    const mg_ck_verdict *v = &r->lib[i];
    int seen = 0;
    for (int k = P->nmock; k < P->na; k++) seen |= !strcmp(P->algs[k], v->alg);
    if ((int)v->coll == coll && !seen && mg_rp_ratio_ok(v)) P->algs[P->na++] = v->alg;
  }
  if (P->ns < 2 && P->na > P->nmock) P->ns = mg_rp_lib_sizes(r, coll, P->sizes, MG_RP_MAXS);
  if (!*P->red)
    for (int i = 0; i < r->nlib; i++)
      if ((int)r->lib[i].coll == coll && mg_rp_ratio_ok(&r->lib[i])) {
        P->red = r->lib[i].red;
        break;
      }
}

/* The grid, the red bands where eq. 1 is violated (behind the curves), the frame and the axis titles. */
static void lat_axes(FILE *f, const lat_plot *P) {
  const double X1 = MG_RP_X0 + MG_RP_PW, Y1 = MG_RP_Y0 + MG_RP_PH;
  char b[64];
  for (double q = P->ymin; q <= P->ymax * 1.0001; q *= 10) { /* y: powers of ten, in µs, ms or s */
    double y = mg_rp_lat_ymap(q, P->ymin, P->ymax);
    mg_html(f, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" stroke=\"#ddd\"/>", MG_RP_X0, y, X1, y);
    mg_html(f, "<text x=\"%d\" y=\"%.2f\" font-size=\"11\" text-anchor=\"end\" dominant-baseline=\"middle\">%s</text>\n",
            MG_RP_X0 - 5, y, mg_rp_us_str(q, b, sizeof b));
  }
  for (int s = 0; s < P->ns; s++) {
    double x = mg_rp_xmap(P->sizes[s], P->smin, P->smax);
    mg_html(f, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"#ddd\"/>", x, MG_RP_Y0, x, Y1);
    mg_html(f, "<text x=\"%.2f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n", x, Y1 + 17,
            mg_rp_bytes_str(P->sizes[s], b, sizeof b));
  }
  for (int s = 0; s < P->ns; s++) {
    int viol, unsure;
    char why[512];
    split_state(P->r, P->coll, P->red, P->sizes[s], &viol, &unsure, why, sizeof why);
    if (!viol) continue;
    double x = mg_rp_xmap(P->sizes[s], P->smin, P->smax);
    mg_html(f, "<rect class=\"splitband\" x=\"%.2f\" y=\"%d\" width=\"12\" height=\"%d\" fill=\"#fde3e0\"/>\n", x - 6,
            MG_RP_Y0, MG_RP_PH);
  }
  mg_html(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n", MG_RP_X0, MG_RP_Y0,
          MG_RP_PW, MG_RP_PH);
  mg_html(f, "<text x=\"%.0f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">message size in bytes (log scale)</text>\n",
          MG_RP_X0 + MG_RP_PW / 2.0, MG_RP_H - 8);
  mg_html(f, "<text transform=\"translate(16 %.0f) rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">median latency "
             "(log scale)</text>\n", MG_RP_Y0 + MG_RP_PH / 2.0);
}

/* Each series as a line and its points (with their tooltips), the default last: on top. */
static void lat_curves(FILE *f, const lat_plot *P) {
  char b[64];
  for (int k = P->na - 1; k >= 0; k--) {
    mg_html(f, "<polyline class=\"lat\" data-alg=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" "
               "stroke-dasharray=\"%s\" points=\"",
            P->algs[k], k ? lat_palette[(k - 1) % NLP] : "#000", k ? "1.6" : "2.5", series_dash(k, P->nmock));
    for (int s = 0; s < P->ns; s++) {
      double t = median_at(P->r, P->coll, P->red, P->algs[k], P->sizes[s]);
      if (t > 0) mg_html(f, "%.2f,%.2f ", mg_rp_xmap(P->sizes[s], P->smin, P->smax), mg_rp_lat_ymap(t, P->ymin, P->ymax));
    }
    fputs("\"/>\n", f);
    for (int s = 0; s < P->ns; s++) {
      double t = median_at(P->r, P->coll, P->red, P->algs[k], P->sizes[s]);
      if (!(t > 0)) continue;
      double x = mg_rp_xmap(P->sizes[s], P->smin, P->smax), y = mg_rp_lat_ymap(t, P->ymin, P->ymax);
      char tt[48];
      mg_html(f, "<g class=\"lpt\" data-alg=\"%s\" data-bytes=\"%zu\" data-y=\"%.2f\"><title>%s, %s: median %s</title>",
              P->algs[k], P->sizes[s], y, P->algs[k], mg_rp_bytes_str(P->sizes[s], b, sizeof b),
              mg_rp_us_str(t, tt, sizeof tt));
      if (k) mg_rp_marker(f, k - 1, x, y, lat_palette[(k - 1) % NLP]);
      else mg_html(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3.5\" fill=\"#000\"/>", x, y);
      fputs("</g>\n", f);
    }
  }
}

/* The marks on the default's curve: eq. 1 violated (ring), inconclusive (?). */
static void lat_split_marks(FILE *f, const lat_plot *P) {
  char b[64];
  for (int s = 0; s < P->ns; s++) {
    int viol, unsure;
    char why[512];
    split_state(P->r, P->coll, P->red, P->sizes[s], &viol, &unsure, why, sizeof why);
    double t = median_at(P->r, P->coll, P->red, "default", P->sizes[s]);
    if (!(t > 0) || (!viol && !unsure)) continue;
    double x = mg_rp_xmap(P->sizes[s], P->smin, P->smax), y = mg_rp_lat_ymap(t, P->ymin, P->ymax);
    if (viol) {
      mg_html(f, "<g class=\"splitv\" data-bytes=\"%zu\" data-x=\"%.2f\" data-y=\"%.2f\"><title>%s: split-robustness "
                 "(TGT 2010 eq. 1) violated: the message is slower than its pieces (",
              P->sizes[s], x, y, mg_rp_bytes_str(P->sizes[s], b, sizeof b));
      mg_html(f, "%s", why);
      mg_html(f, ")</title><circle cx=\"%.2f\" cy=\"%.2f\" r=\"9\" fill=\"none\" stroke=\"#C00000\" stroke-width=\"2.5\"/>"
                 "<text x=\"%.2f\" y=\"%.2f\" font-size=\"11\" font-weight=\"bold\" fill=\"#C00000\" "
                 "text-anchor=\"middle\">eq. 1</text></g>\n",
              x, y, x, y - 13);
    } else
      mg_html(f, "<g class=\"splitq\" data-bytes=\"%zu\"><title>%s: split-robustness inconclusive (neither violated "
                 "nor shown consistent)</title><text x=\"%.2f\" y=\"%.2f\" font-size=\"13\" font-weight=\"bold\" "
                 "fill=\"#555\" text-anchor=\"middle\">?</text></g>\n",
              P->sizes[s], mg_rp_bytes_str(P->sizes[s], b, sizeof b), x, y - 9);
  }
}

/* The legend (a line and marker per series) and the note on the message size and the pair. */
static void lat_legend(FILE *f, const lat_plot *P) {
  fputs("<div class=\"legend\">", f);
  char l[128];
  for (int k = 0; k < P->na; k++) {
    mg_html(f, "<span class=\"li\"><svg width=\"34\" height=\"16\" aria-hidden=\"true\"><line x1=\"1\" y1=\"8\" x2=\"33\" "
               "y2=\"8\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\"/>",
            k ? lat_palette[(k - 1) % NLP] : "#000", series_dash(k, P->nmock));
    if (k) mg_rp_marker(f, k - 1, 17, 8, lat_palette[(k - 1) % NLP]);
    fputs("</svg> ", f);
    mg_html(f, "%s", k >= P->nmock ? P->algs[k] : k ? mg_ck_label((mg_coll)P->coll, P->algs[k], 0, l, sizeof l) : "default");
    fputs("</span> &nbsp; ", f);
  }
  fputs("</div>\n<div class=\"note\">message size: ", f);
  mg_html(f, "%s", mg_colls[P->coll].size_def);
  if (mg_ck_pair_is_ranks(mg_ck_pair_of(P->red))) { /* pattern cartpair: one neighbour pair alone */
    mg_html(f, "; neighbour pair %s alone", mg_ck_pair_of(P->red));
  } else if (mg_ck_pair_of(P->red)) { /* pattern cart: one direction of the exchange */
    mg_html(f, "; direction %s of the neighbour exchange", mg_ck_pair_of(P->red));
  } else if (*P->red) {
    char sr[MG_CK_RED];
    mg_html(f, "; datatype:op %s", mg_ck_red_short(P->red, sr, sizeof sr));
  }
  fputs("</div>\n", f);
}

void mg_rp_latency_plot(FILE *f, const mg_rp_run *run, int coll, int nruns) {
  lat_plot P0, *P = &P0;
  memset(P, 0, sizeof *P);
  P->r = run->r, P->coll = coll;
  lat_series(P);
  mg_html(f, "<div class=\"plot\" id=\"lat-%s-%s\" data-coll=\"%s\"><h3>%s (%s): latency", mg_colls[coll].name,
          run->anchor, mg_colls[coll].name, mg_colls[coll].name, mg_colls[coll].mpi_name);
  if (nruns > 1) fputs(", ", f), mg_html(f, "%s", run->label);
  fputs("</h3>\n", f);
  double tmin = INFINITY, tmax = -INFINITY;
  for (int k = 0; k < P->na; k++)
    for (int s = 0; s < P->ns; s++) {
      double t = median_at(P->r, coll, P->red, P->algs[k], P->sizes[s]);
      if (t > 0) tmin = fmin(tmin, t), tmax = fmax(tmax, t);
    }
  if (P->ns < 2 || !(tmin > 0)) {
    fputs("<div class=\"empty\" data-empty=\"1\"><b>Not enough data for a plot:</b> fewer than two sizes "
          "measured.</div>\n</div>\n", f);
    return;
  }
  mg_rp_lat_yrange(tmin, tmax, &P->ymin, &P->ymax);
  P->smin = P->sizes[0], P->smax = P->sizes[P->ns - 1];
  mg_html(f, "<svg viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s: median latency of the default and each mock-up "
             "against message size\" data-smin=\"%zu\" data-smax=\"%zu\" data-ymin=\"%g\" data-ymax=\"%g\">\n",
          MG_RP_W, MG_RP_H, mg_colls[coll].name, P->smin, P->smax, P->ymin, P->ymax);
  lat_axes(f, P);
  lat_curves(f, P);
  lat_split_marks(f, P);
  fputs("</svg>\n", f);
  lat_legend(f, P);
  fputs("</div>\n", f);
}

void mg_rp_latency_key(FILE *f) {
  fputs("<p class=\"legend\">Each plot: the median latency of the default (bold black) and of every mock-up against "
        "message size, both axes log scale — the shape of TPDS 2010's Fig. 1. "
        "<svg width=\"26\" height=\"22\" aria-hidden=\"true\"><circle cx=\"13\" cy=\"11\" r=\"9\" fill=\"none\" "
        "stroke=\"#C00000\" stroke-width=\"2.5\"/></svg> <b>eq. 1</b> on a pale red band: split-robustness violated "
        "there (TGT 2010 eq. 1: the message is significantly slower than k messages of a k-th, a split row's "
        "violation; e.g. an eager-to-rendezvous switch); <b>?</b>: a split row inconclusive there (not shown clean). "
        "Hover a point for its median.</p>\n",
        f);
}

/* ---------- the point-to-point guidelines (check.h) ---------- */

/* The background of a verdict's cell, inside its style="background:...": a literal per outcome. */
static void outcome_bg(FILE *f, const mg_ck_verdict *v) {
  mg_html(f, v->outcome == MG_CK_VIOLATION ? "#fd8d3c" : v->outcome == MG_CK_CONSISTENT ? "#ffffff" : "#e8e8e8");
}

void mg_rp_p2p_table(FILE *f, const mg_rp_run *run, int nruns) {
  const mg_ck_result *r = run->r;
  size_t sizes[MG_RP_MAXS];
  int ns = mg_ck_p2p_sizes(r, sizes, MG_RP_MAXS);
  if (!ns) return;
  int used[32] = {0};
  for (int k = 0; k < mg_ck_np2p_cols && k < 32; k++)
    for (int s = 0; s < ns && !used[k]; s++) used[k] = mg_ck_p2p_find(r, &mg_ck_p2p_cols[k], sizes[s]) != NULL;
  mg_html(f, "<h2 id=\"p2p-%s\">Point-to-point guidelines", run->anchor);
  mg_rp_run_title(f, run, nruns);
  fputs("</h2>\n<p class=\"note\">TGT 2010 §IV, per message size: the verdict and the ratio left side / right side "
        "of the guideline (medians). Eqs. 1 and 8 are measured only and eq. 5 is a verdict only: a violation is a "
        "defect to report to the MPI library's developers; a violation of eqs. 6, 9, 10, 11 is a repair "
        "<code>mpiguide tune</code> writes; eq. 7 holds when eqs. 5 and 6 are both consistent. Grey <i>?</i>: "
        "inconclusive, never read as clean.</p>\n<table class=\"p2p\"><tr><th>size</th>",
        f);
  for (int k = 0; k < mg_ck_np2p_cols; k++) {
    if (!used[k]) continue;
    mg_html(f, "<th title=\"");
    mg_html(f, "%s", mg_ck_p2p_formula(&mg_ck_p2p_cols[k]));
    mg_html(f, "\">eq. %s<br><span class=\"note\">", mg_ck_p2p_cols[k].head);
    mg_html(f, "%s", mg_ck_p2p_formula(&mg_ck_p2p_cols[k]));
    fputs("</span></th>", f);
  }
  fputs("</tr>\n", f);
  for (int s = 0; s < ns; s++) {
    char b[64];
    mg_html(f, "<tr><td class=n>%s</td>", mg_rp_bytes_str(sizes[s], b, sizeof b));
    for (int k = 0; k < mg_ck_np2p_cols; k++) {
      if (!used[k]) continue;
      const mg_ck_verdict *v = mg_ck_p2p_find(r, &mg_ck_p2p_cols[k], sizes[s]);
      if (!v) fputs("<td>–</td>", f);
      else if (v->status != MG_CKV_OK) {
        fputs("<td title=\"", f);
        mg_html(f, "%s", v->note);
        mg_html(f, "\">%s</td>", v->status == MG_CKV_SKIPPED ? "skipped" : "error");
      } else {
        const char *word = v->outcome == MG_CK_VIOLATION ? "V" : v->outcome == MG_CK_CONSISTENT ? "C" : "?";
        mg_html(f, "<td class=\"n %s\" data-eq=\"%s\" data-bytes=\"%zu\" style=\"background:", mg_ck_outcome_name(v->outcome),
                mg_ck_p2p_cols[k].head, sizes[s]);
        outcome_bg(f, v);
        mg_html(f, "\" title=\"%s: %.3f [%.3f, %.3f], p(Holm) %.3g%s\">%s %.2f%s</td>", mg_ck_outcome_name(v->outcome),
                v->slowdown, v->lo, v->hi, v->p_adj, v->noise ? "; within the noise" : "", word, v->slowdown,
                v->noise ? "~" : "");
      }
    }
    fputs("</tr>\n", f);
  }
  fputs("</table>\n", f);
}

/* ---------- the renumbering guideline (check.h, rerank.c) ---------- */

void mg_rp_rerank_table(FILE *f, const mg_rp_run *run, int nruns) {
  const mg_ck_result *r = run->r;
  if (!mg_ck_any_rerank(r)) return;
  mg_html(f, "<h2 id=\"rerank-%s\">Renumbering", run->anchor);
  mg_rp_run_title(f, run, nruns);
  fputs("</h2>\n<p class=\"note\">TGT 2010 eq. 36: a collective must not be slower on its communicator than on the "
        "same processes renumbered (a seeded random permutation; the same root process). Measured only: a violation "
        "is a defect of the library's algorithm choice or placement to report, not a repair. Per size the verdict and "
        "the ratio default / renumbered (medians); grey <i>?</i>: inconclusive, never read as clean.</p>\n"
        "<table class=\"p2p\"><tr><th>collective</th><th>size</th><th>verdict</th><th>default / renumbered</th></tr>\n",
        f);
  for (int i = 0; i < r->n; i++) {
    const mg_ck_verdict *v = &r->v[i];
    if (!mg_ck_is_rerank(v) || v->status != MG_CKV_OK) continue;
    char b[64];
    mg_html(f, "<tr><td>%s</td><td class=n>%s%s", mg_colls[v->coll].name, mg_rp_bytes_str(v->bytes, b, sizeof b),
            *v->red ? " " : "");
    mg_html(f, "%s", v->red);
    mg_html(f, "</td><td class=\"%s\" style=\"background:", mg_ck_outcome_name(v->outcome));
    outcome_bg(f, v);
    mg_html(f, "\">%s</td><td class=n title=\"[%.3f, %.3f], p(Holm) %.3g\">%.2f%s</td></tr>\n",
            mg_ck_outcome_name(v->outcome), v->lo, v->hi, v->p_adj, v->slowdown,
            v->noise ? "~" : "");
  }
  fputs("</table>\n", f);
}

/* ---------- the packing guideline (check.h, pack_summary.c: TGT 2010 eq. 4) ---------- */

void mg_rp_pack_table(FILE *f, const mg_rp_run *run, int nruns) {
  const mg_ck_result *r = run->r;
  if (!mg_ck_any_pack(r)) return;
  mg_html(f, "<h2 id=\"pack-%s\">Packing a derived datatype", run->anchor);
  mg_rp_run_title(f, run, nruns);
  mg_html(f, "</h2>\n<p class=\"note\">TGT 2010 eq. 4: %s, and the same for MPI_Unpack: one call with the derived "
             "datatype against its constituents (a vector's block, a struct's members) packed one by one with the "
             "running position, the bytes asserted identical; rank 0 alone. Measured only: a violation is a defect "
             "of the library's datatype engine to report, not a repair. Per size the verdict and the ratio one call "
             "/ constituents (medians); grey <i>?</i>: inconclusive, never read as clean.</p>\n", MG_PACK_FORMULA);
  fputs("<table class=\"p2p\"><tr><th>operation</th><th>datatype</th><th>size</th><th>verdict</th>"
        "<th>one call / constituents</th></tr>\n", f);
  for (int i = 0; i < r->npack; i++) {
    const mg_ck_verdict *v = &r->pack[i];
    char b[64];
    mg_html(f, "<tr><td>%s</td><td>%s</td><td class=n>%s</td>", mg_pack_op_mpi((int)v->coll), v->red,
            mg_rp_bytes_str(v->bytes, b, sizeof b));
    if (v->status != MG_CKV_OK) {
      mg_html(f, "<td colspan=2>%s</td></tr>\n", v->note);
      continue;
    }
    mg_html(f, "<td class=\"%s\" style=\"background:", mg_ck_outcome_name(v->outcome));
    outcome_bg(f, v);
    mg_html(f, "\">%s</td><td class=n title=\"[%.3f, %.3f], p(Holm) %.3g\">%.2f%s</td></tr>\n",
            mg_ck_outcome_name(v->outcome), v->lo, v->hi, v->p_adj, v->slowdown, v->noise ? "~" : "");
  }
  fputs("</table>\n", f);
}

/* ---------- overlap must not cost (check.h, overlap_verdicts.c: check --overlap) ---------- */

void mg_rp_overlap_verdicts(FILE *f, const mg_rp_run *run, int nruns) {
  const mg_ck_result *r = run->r;
  if (!mg_ck_any_overlap(r)) return;
  mg_html(f, "<h2 id=\"ovl-%s\">Overlap must not cost", run->anchor);
  mg_rp_run_title(f, run, nruns);
  mg_html(f, "</h2>\n<p class=\"note\">%s: %s. Per collective, size and MPI_Test count k: MPI_I&lt;coll&gt;, a "
             "computation of known length c (a busy loop sized to the non-blocking call's time, the same on every "
             "rank) with k tests, MPI_Wait, against the blocking call followed by the same computation, measured "
             "interleaved (check --overlap); adjusted for %d comparisons. Measured only: a violation is the cost "
             "of the library's non-blocking path to report, not a repair. The ratio: overlapped / blocking + c "
             "(medians); grey <i>?</i>: inconclusive, never read as clean; ~: within the noise.</p>\n",
          MG_CK_OVL_GUIDELINE, MG_CK_OVL_FORMULA, r->ovl_family);
  fputs("<table class=\"p2p\"><tr><th>collective</th><th>size</th><th>k</th><th>verdict</th>"
        "<th>overlapped / blocking + c</th></tr>\n", f);
  for (int i = 0; i < r->novl; i++) {
    const mg_ck_verdict *v = &r->ovl[i];
    char b[64];
    mg_html(f, "<tr><td>%s</td><td class=n>%s</td><td class=n>%s</td>", mg_colls[v->coll].mpi_name,
            mg_rp_bytes_str(v->bytes, b, sizeof b), v->red + sizeof MG_CK_OVL_KEY - 1);
    if (v->status != MG_CKV_OK) {
      mg_html(f, "<td colspan=2>%s</td></tr>\n", v->note);
      continue;
    }
    mg_html(f, "<td class=\"%s\" style=\"background:", mg_ck_outcome_name(v->outcome));
    outcome_bg(f, v);
    mg_html(f, "\">%s</td><td class=n title=\"[%.3f, %.3f], p(Holm) %.3g\">%.2f%s</td></tr>\n",
            mg_ck_outcome_name(v->outcome), v->lo, v->hi, v->p_adj, v->slowdown, v->noise ? "~" : "");
  }
  fputs("</table>\n", f);
}
