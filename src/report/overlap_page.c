/*
 * The overlap page (overlap_page.h): the files of `bench --overlap` summarised with the same
 * arithmetic as bench's own table (mg_ovl_summarise), drawn as inline SVG.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/csv.h"
#include "report/html.h"
#include "report/overlap_page.h"
#include "report/report.h"
#include "util/err.h"

static const char *const pal[] = {"#000000", "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#555555"};
static const char *const dash[] = {"", "7 3", "2 3", "9 3 2 3", "4 4", "1 2"};
#define NPAL ((int)(sizeof pal / sizeof pal[0]))
#define NDASH ((int)(sizeof dash / sizeof dash[0]))

static const char css[] =
    "body{font-family:sans-serif;max-width:1100px;margin:1em auto;padding:0 1em;color:#222}"
    "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:2px 6px}"
    "td.n{text-align:right}.note{color:#555;font-size:90%}.plot{margin:1em 0}.plot svg{max-width:600px}"
    ".legend{font-size:90%}.li{white-space:nowrap}\n";

double mg_rp_ovl_ymap(double pct) { return MG_RP_Y0 + MG_RP_PH * (100.0 - pct) / 100.0; }

/* The summaries of f's cells of collective coll, sizes ascending (files are written that way). */
static int cells_of(const mg_ovl_file *f, const char *coll, int *idx, int cap) {
  int n = 0;
  for (int i = 0; i < f->ncells && n < cap; i++)
    if (!strcmp(f->cells[i].coll, coll)) idx[n++] = i;
  for (int i = 1; i < n; i++) /* insertion sort by size */
    for (int j = i; j > 0 && f->cells[idx[j]].bytes < f->cells[idx[j - 1]].bytes; j--) {
      int t = idx[j];
      idx[j] = idx[j - 1], idx[j - 1] = t;
    }
  return n;
}

static void table(FILE *f, const mg_ovl_file *of, const int *idx, const mg_ovl_sum *s, int n) {
  char b[64], t1[48], t2[48];
  fputs("<table class=\"ovl\"><tr><th>size</th><th>t_pure</th><th>t_cpu</th><th>overlap at k = 0</th>"
        "<th>best k</th><th>overlap at best k</th><th>overlap per k</th></tr>\n", f);
  for (int i = 0; i < n; i++) {
    const mg_ovl_sum *x = &s[i];
    int k0 = -1;
    for (int j = 0; j < x->nk; j++)
      if (x->k[j] == 0) k0 = j;
    mg_html(f, "<tr data-bytes=\"%zu\"><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td>", of->cells[idx[i]].bytes,
            mg_rp_bytes_str(of->cells[idx[i]].bytes, b, sizeof b), mg_rp_us_str(x->t_pure, t1, sizeof t1),
            mg_rp_us_str(x->t_cpu, t2, sizeof t2));
    if (k0 >= 0) mg_html(f, "<td class=n>%.1f %%</td>", x->ov[k0]);
    else fputs("<td>–</td>", f);
    if (x->best >= 0) mg_html(f, "<td class=\"n best\">%d</td><td class=n>%.1f %%</td><td>", x->k[x->best], x->ov[x->best]);
    else fputs("<td>–</td><td>–</td><td>", f);
    for (int j = 0; j < x->nk; j++)
      mg_html(f, "%sk=%d: %.0f [%.0f, %.0f]", j ? "; " : "", x->k[j], x->ov[j], x->lo[j], x->hi[j]);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
}

static void plot(FILE *f, const mg_ovl_file *of, int fi, const char *coll, const int *idx, const mg_ovl_sum *s, int n) {
  size_t sizes[MG_RP_MAXS];
  int ns = 0;
  for (int i = 0; i < n && ns < MG_RP_MAXS; i++) sizes[ns++] = of->cells[idx[i]].bytes;
  int ks[MG_OVL_MAXK], nk = 0; /* every k of any size, ascending */
  for (int i = 0; i < n; i++)
    for (int j = 0; j < s[i].nk; j++) {
      int seen = 0;
      for (int q = 0; q < nk; q++) seen |= ks[q] == s[i].k[j];
      if (!seen && nk < MG_OVL_MAXK) {
        int p = nk++;
        while (p > 0 && ks[p - 1] > s[i].k[j]) ks[p] = ks[p - 1], p--;
        ks[p] = s[i].k[j];
      }
    }
  mg_html(f, "<div class=\"plot\" id=\"ovl-%s-%d\" data-coll=\"%s\"><h3>%s: overlap %% against message size</h3>\n", coll,
          fi, coll, coll);
  if (ns < 2 || sizes[0] == 0) {
    fputs("<div class=\"empty\" data-empty=\"1\"><b>Not enough data for a plot:</b> fewer than two message sizes "
          "(the table has the values).</div>\n",
          f);
    table(f, of, idx, s, n);
    fputs("</div>\n", f);
    return;
  }
  size_t smin = sizes[0], smax = sizes[ns - 1];
  const double X1 = MG_RP_X0 + MG_RP_PW, Y1 = MG_RP_Y0 + MG_RP_PH;
  char b[64];
  mg_html(f, "<svg viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"%s: overlap %% per number of MPI_Test calls against "
             "message size\" data-smin=\"%zu\" data-smax=\"%zu\">\n",
          MG_RP_W, MG_RP_H, coll, smin, smax);
  for (int q = 0; q <= 100; q += 20) {
    double y = mg_rp_ovl_ymap(q);
    mg_html(f, "<line x1=\"%d\" y1=\"%.2f\" x2=\"%.0f\" y2=\"%.2f\" stroke=\"#ddd\"/>", MG_RP_X0, y, X1, y);
    mg_html(f, "<text x=\"%d\" y=\"%.2f\" font-size=\"11\" text-anchor=\"end\" dominant-baseline=\"middle\">%d</text>\n",
            MG_RP_X0 - 5, y, q);
  }
  for (int i = 0; i < ns; i++) {
    double x = mg_rp_xmap(sizes[i], smin, smax);
    mg_html(f, "<line x1=\"%.2f\" y1=\"%d\" x2=\"%.2f\" y2=\"%.0f\" stroke=\"#ddd\"/>", x, MG_RP_Y0, x, Y1);
    mg_html(f, "<text x=\"%.2f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"middle\">%s</text>\n", x, Y1 + 17,
            mg_rp_bytes_str(sizes[i], b, sizeof b));
  }
  mg_html(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#000\"/>\n", MG_RP_X0, MG_RP_Y0,
          MG_RP_PW, MG_RP_PH);
  mg_html(f, "<text x=\"%.0f\" y=\"%d\" font-size=\"12\" text-anchor=\"middle\">message size in bytes (log scale)</text>\n",
          MG_RP_X0 + MG_RP_PW / 2.0, MG_RP_H - 8);
  mg_html(f, "<text transform=\"translate(16 %.0f) rotate(-90)\" font-size=\"12\" text-anchor=\"middle\">overlap %%"
             "</text>\n", MG_RP_Y0 + MG_RP_PH / 2.0);
  for (int q = 0; q < nk; q++) { /* one line per k; k = 0 bold black */
    mg_html(f, "<polyline class=\"ovl\" data-k=\"%d\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" "
               "stroke-dasharray=\"%s\" points=\"",
            ks[q], pal[q % NPAL], q ? "1.6" : "2.5", q ? dash[(q - 1) % NDASH] : "");
    for (int i = 0; i < n; i++)
      for (int j = 0; j < s[i].nk; j++)
        if (s[i].k[j] == ks[q] && isfinite(s[i].ov[j]))
          mg_html(f, "%.2f,%.2f ", mg_rp_xmap(sizes[i], smin, smax), mg_rp_ovl_ymap(s[i].ov[j]));
    fputs("\"/>\n", f);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < s[i].nk; j++) {
        if (s[i].k[j] != ks[q] || !isfinite(s[i].ov[j])) continue;
        double x = mg_rp_xmap(sizes[i], smin, smax), y = mg_rp_ovl_ymap(s[i].ov[j]);
        mg_html(f, "<g class=\"opt\" data-k=\"%d\" data-bytes=\"%zu\" data-y=\"%.2f\"><title>%s, k = %d: overlap %.1f %% "
                   "[%.1f, %.1f]</title>", ks[q], sizes[i], y, mg_rp_bytes_str(sizes[i], b, sizeof b), ks[q], s[i].ov[j],
                s[i].lo[j], s[i].hi[j]);
        if (q) mg_rp_marker(f, q - 1, x, y, pal[q % NPAL]);
        else mg_html(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3.5\" fill=\"#000\"/>", x, y);
        fputs("</g>\n", f);
      }
  }
  for (int i = 0; i < n; i++) { /* the best k: ringed and named */
    if (s[i].best < 0) continue;
    int j = s[i].best;
    double x = mg_rp_xmap(sizes[i], smin, smax), y = mg_rp_ovl_ymap(s[i].ov[j]);
    mg_html(f, "<g class=\"ovlbest\" data-bytes=\"%zu\" data-k=\"%d\" data-x=\"%.2f\" data-y=\"%.2f\"><title>%s: best test "
               "count %d (the fewest MPI_Test calls within the noise of the largest overlap), %.1f %%</title>"
               "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"9\" fill=\"none\" stroke=\"#C00000\" stroke-width=\"2.5\"/>"
               "<text x=\"%.2f\" y=\"%.2f\" font-size=\"11\" font-weight=\"bold\" fill=\"#C00000\" text-anchor=\"middle\">"
               "k=%d</text></g>\n",
            sizes[i], s[i].k[j], x, y, mg_rp_bytes_str(sizes[i], b, sizeof b), s[i].k[j], s[i].ov[j], x, y, x,
            y > MG_RP_Y0 + 20 ? y - 13 : y + 22, s[i].k[j]);
  }
  fputs("</svg>\n<div class=\"legend\">", f);
  for (int q = 0; q < nk; q++) {
    mg_html(f, "<span class=\"li\"><svg width=\"34\" height=\"16\" aria-hidden=\"true\"><line x1=\"1\" y1=\"8\" x2=\"33\" "
               "y2=\"8\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"%s\"/>",
            pal[q % NPAL], q ? dash[(q - 1) % NDASH] : "");
    if (q) mg_rp_marker(f, q - 1, 17, 8, pal[q % NPAL]);
    mg_html(f, "</svg> k = %d MPI_Test</span> &nbsp; ", ks[q]);
  }
  fputs("</div>\n", f);
  table(f, of, idx, s, n);
  fputs("</div>\n", f);
}

static void file_section(FILE *f, const mg_ovl_file *of, int fi) {
  const char *name = mg_ovl_meta(of, "mpi_library_name"), *np = mg_ovl_meta(of, "nprocs");
  mg_html(f, "<h2 id=\"ovlrun-%d\">", fi);
  mg_html(f, "%s", name ? name : "MPI library");
  mg_html(f, ", %s processes</h2>\n<table class=\"meta\">", np ? np : "?");
  static const char *const keys[] = {"mpi_library_version", "nnodes", "hostname", "date", "launch", "sync",
                                     "rep_mode", "overlap_tests", "overlap_rate_iters_per_sec", "command"};
  fputs("<tr><td>file</td><td>", f);
  mg_html(f, "%s", of->path);
  fputs("</td></tr>", f);
  for (size_t k = 0; k < sizeof keys / sizeof *keys; k++) {
    const char *v = mg_ovl_meta(of, keys[k]);
    if (!v) continue;
    mg_html(f, "<tr><td>%s</td><td>", keys[k]);
    mg_html(f, "%s", v);
    fputs("</td></tr>", f);
  }
  fputs("</table>\n", f);
  /* the collectives in file order */
  for (int i = 0; i < of->ncells; i++) {
    int first = 1;
    for (int j = 0; j < i; j++) first &= strcmp(of->cells[j].coll, of->cells[i].coll) != 0;
    if (!first) continue;
    int idx[MG_RP_MAXS], n = cells_of(of, of->cells[i].coll, idx, MG_RP_MAXS);
    mg_ovl_sum *s = calloc((size_t)n + 1, sizeof *s);
    if (!s) return;
    for (int j = 0; j < n; j++)
      if (mg_ovl_summarise(&of->cells[idx[j]], &s[j])) s[j].nk = 0, s[j].best = -1;
    plot(f, of, fi, of->cells[i].coll, idx, s, n);
    free(s);
  }
}

int mg_rp_overlap_write(FILE *f, const mg_ovl_file *files, int n) {
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
        "<title>mpiguide report: overlap of non-blocking collectives</title>\n<style>\n",
        f);
  mg_html_markup(f, css);
  fputs("</style>\n</head>\n<body>\n<h1>mpiguide report: overlap of non-blocking collectives</h1>\n"
        "<p class=\"note\">How much of a non-blocking collective's time hides behind a computation (the OSU / IMB-NBC "
        "method): t_pure = MPI_I&lt;coll&gt; + MPI_Wait; t_cpu = a computation calibrated to t_pure, alone; t_overall "
        "= MPI_I&lt;coll&gt;, the computation with k MPI_Test calls spread evenly through it, MPI_Wait; overlap % = "
        "100 (1 − (t_overall − t_cpu) / t_pure), clipped to [0, 100], from medians. Without a progress thread a "
        "library advances a collective only inside MPI calls: the k = 0 line shows what it does alone, the others "
        "what testing buys. <b>Ringed</b>: the best k, the fewest MPI_Test calls within the noise of the largest "
        "overlap (its 95 % interval reaches the largest one's, or it is less than 2 points below). Hover a point for "
        "its value and interval.</p>\n",
        f);
  for (int i = 0; i < n; i++) file_section(f, &files[i], i);
  fputs("</body>\n</html>\n", f);
  return ferror(f) ? -1 : 0;
}

int mg_rp_overlap_write_file(const char *path, const mg_ovl_file *files, int n, char *err, size_t errlen) {
  mg_outfile o;
  char e[1100];
  if (mg_outfile_open(&o, path, e, sizeof e))
    return MG_ERR("%s (the report goes into an existing directory you can write to)", e);
  if (mg_rp_overlap_write(o.f, files, n)) {
    int en = errno;
    mg_outfile_discard(&o);
    return MG_ERR("cannot write the report '%s'%s%s", path, en ? ": " : "", en ? strerror(en) : "");
  }
  if (mg_outfile_commit(&o, e, sizeof e)) return MG_ERR("the report: %s", e);
  return 0;
}
