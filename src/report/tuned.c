/*
 * The "Default vs tuned" section of the HTML report (report.c, html.h): from the results of
 * `mpiguide verify` (verify.c reads verify.csv), one plot per collective of the tuned/default
 * runtime ratio against message size with its interval, a key, and the table of every cell.
 * Shown only with a verify result.
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

/* ---------- default vs tuned (verify results) ---------- */

/* #@key of the raw.csv next to a verify.csv (the measurement's metadata, read with it), "" when absent. */
void mg_rp_verify_meta(const mg_rp_verify *v, const char *key, char *out, size_t len) {
  const char *s = mg_ck_meta_get(&v->raw_meta, key);
  snprintf(out, len, "%s", s ? s : "");
}

int vplotted(const mg_rp_vrow *w) { return isfinite(w->ratio) && w->ratio > 0; }

const char *vkind(const mg_rp_vrow *w) {
  return !strcmp(w->verdict, "noise?") ? "noise" : w->verdict;
}

const char *vcolour(const mg_rp_vrow *w) {
  if (!strcmp(w->verdict, "faster")) return "#009E73";
  if (!strcmp(w->verdict, "slower")) return "#D55E00";
  return w->in_profile ? "#0072B2" : "#777777";
}

void vtitle(FILE *f, const mg_rp_vrow *w) {
  char b[64], t1[48], t2[48], l[128];
  int c = mg_coll_find(w->coll);
  mg_html(f, "%s", w->coll);
  mg_html(f, ", %s: ", mg_rp_bytes_str(w->bytes, b, sizeof b));
  if (w->in_profile) {
    fputs("tuned ", f);
    mg_html(f, "%s", c >= 0 ? mg_ck_label((mg_coll)c, w->tuned, 0, l, sizeof l) : w->tuned);
  } else fputs("not in the profile (A/A control of the default)", f);
  mg_html(f, "; tuned/default %.3f [%.3f, %.3f] (tuned %s, default %s), p_adj %.3g; verdict ", w->ratio, w->lo,
          w->hi, mg_rp_us_str(w->med_tuned, t1, sizeof t1), mg_rp_us_str(w->med_def, t2, sizeof t2), w->p);
  mg_html(f, "%s", w->verdict);
  if (w->outcome[0]) {
    fputs(" (", f);
    mg_html(f, "%s", w->outcome);
    fputs(")", f);
  }
  if (w->still[0]) {
    fputs("; still faster than tuned: ", f);
    mg_html(f, "%s", w->still);
  }
}

/* Tuned/default ratio of one collective of a verify result over message size. */
void vplot(FILE *f, const mg_rp_verify *v, const char *coll) {
  size_t sizes[MG_RP_MAXS];
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
    if (!seen && ns < MG_RP_MAXS) sizes[ns++] = w->bytes;
  }
  qsort(sizes, (size_t)ns, sizeof *sizes, mg_rp_cmp_size);
  mg_html(f, "<div class=\"plot vt\" id=\"vt-");
  mg_html(f, "%s", coll);
  mg_html(f, "-%d\">\n<h3>", v->nprocs);
  mg_html(f, "%s", coll);
  mg_html(f, " — tuned / default, %d processes</h3>\n", v->nprocs);
  if (!ns) {
    mg_html(f, "<div class=\"empty\" data-empty=\"1\"><b>Not enough data for a plot.</b> None of the %d rows has a "
               "ratio (see the table below).</div>\n</div>\n",
            nrows);
    return;
  }
  size_t smin = sizes[0], smax = sizes[ns - 1];
  double ymin, ymax;
  mg_rp_yrange(rmin, rmax, &ymin, &ymax);
  const double X1 = MG_RP_X0 + MG_RP_PW, Y1 = MG_RP_Y0 + MG_RP_PH;
  double y1 = mg_rp_ymap(1, ymin, ymax);
  mg_html(f, "<svg viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"", MG_RP_W, MG_RP_H);
  mg_html(f, "%s", coll);
  mg_html(f, ": tuned runtime relative to the default over message size\" data-smin=\"%zu\" data-smax=\"%zu\" "
             "data-ymin=\"%g\" data-ymax=\"%g\">\n",
          smin, smax, ymin, ymax);
  mg_html(f, "<rect class=\"fregion\" x=\"%d\" y=\"%.2f\" width=\"%d\" height=\"%.2f\" fill=\"#e5f5ee\"/>\n", MG_RP_X0,
          y1, MG_RP_PW, Y1 - y1);
  mg_html(f, "<text x=\"%.0f\" y=\"%.0f\" font-size=\"11\" text-anchor=\"end\" fill=\"#555\">below 1: tuned is "
             "faster</text>\n",
          X1 - 4, Y1 - 5);
  mg_rp_plot_axes(f, sizes, ns, smin, smax, ymin, ymax, "tuned / default runtime (log scale)");
  /* a thin line through the cells in size order */
  fputs("<polyline fill=\"none\" stroke=\"#999\" stroke-width=\"1\" points=\"", f);
  for (int s = 0; s < ns; s++)
    for (int i = 0; i < v->n; i++) {
      const mg_rp_vrow *w = &v->rows[i];
      if (!strcmp(w->coll, coll) && vplotted(w) && w->bytes == sizes[s]) {
        mg_html(f, "%.2f,%.2f ", mg_rp_xmap(w->bytes, smin, smax), mg_rp_ymap(w->ratio, ymin, ymax));
        break;
      }
    }
  fputs("\"/>\n", f);
  for (int i = 0; i < v->n; i++) {
    const mg_rp_vrow *w = &v->rows[i];
    if (strcmp(w->coll, coll) || !vplotted(w)) continue;
    double x = mg_rp_xmap(w->bytes, smin, smax), y = mg_rp_ymap(w->ratio, ymin, ymax);
    const char *col = vcolour(w);
    mg_html(f, "<g class=\"vpt %s %s\" data-coll=\"", vkind(w), w->in_profile ? "in-profile" : "aa");
    mg_html(f, "%s", w->coll);
    mg_html(f, "\" data-bytes=\"%zu\" data-x=\"%.2f\" data-y=\"%.2f\"><title>", w->bytes, x, y);
    vtitle(f, w);
    fputs("</title>", f);
    if (isfinite(w->lo) && isfinite(w->hi) && w->lo > 0 && w->hi > 0) {
      double ya = mg_rp_ymap(w->hi, ymin, ymax), yb = mg_rp_ymap(w->lo, ymin, ymax);
      mg_html(f, "<path class=\"ci\" d=\"M%.2f %.2fV%.2fM%.2f %.2fH%.2fM%.2f %.2fH%.2f\" stroke=\"%s\" "
                 "stroke-width=\"1.5\" fill=\"none\"/>",
              x, ya, yb, x - 4, ya, x + 4, x - 4, yb, x + 4, col);
    }
    /* in the profile: a filled square; outside (the A/A control): a circle */
    mg_rp_marker(f, w->in_profile ? 1 : 0, x, y, col);
    if (!strcmp(w->verdict, "faster"))
      mg_html(f, "<circle class=\"ring\" cx=\"%.2f\" cy=\"%.2f\" r=\"10\" fill=\"none\" stroke=\"#000\" "
                 "stroke-width=\"2\"/>",
              x, y);
    else if (!strcmp(w->verdict, "slower"))
      mg_html(f, "<circle class=\"ring\" cx=\"%.2f\" cy=\"%.2f\" r=\"10\" fill=\"none\" stroke=\"#000\" "
                 "stroke-width=\"2\" stroke-dasharray=\"3 2\"/><text class=\"up\" x=\"%.2f\" y=\"%.2f\" "
                 "font-size=\"13\" font-weight=\"bold\" text-anchor=\"middle\">▲</text>",
              x, y, x + 14, y - 8);
    else if (!strcmp(w->verdict, "noise?"))
      mg_html(f, "<text class=\"tilde\" x=\"%.2f\" y=\"%.2f\" font-size=\"15\" font-weight=\"bold\" "
                 "text-anchor=\"middle\">?</text>",
              x + 12, y - 8);
    fputs("</g>\n", f);
  }
  fputs("</svg>\n<div class=\"note\">", f);
  int c = mg_coll_find(coll);
  if (c >= 0) {
    fputs("message size: ", f);
    mg_html(f, "%s", mg_colls[c].size_def);
  }
  fputs("</div>\n</div>\n", f);
}

static void verify_key(FILE *f) {
  fputs("<p class=\"legend\">Each plot: median runtime of the tuned algorithm (the profile's choice) divided by the "
        "default's median per message size, with the interval its verdict is decided on as an error bar (each end at the "
        "level adjusted for the tuned cells and the looks, docs/statistics.md; both axes log scale). Below "
        "the bold line at 1 (shaded) tuned is faster. Marks: <svg width=\"22\" height=\"16\" aria-hidden=\"true\">"
        "<rect x=\"6\" y=\"3\" width=\"10\" height=\"10\" fill=\"#0072B2\" fill-opacity=\"0.35\" stroke=\"#0072B2\"/>"
        "</svg> a cell the profile tunes; <svg width=\"22\" height=\"16\" aria-hidden=\"true\"><circle cx=\"11\" "
        "cy=\"8\" r=\"5\" fill=\"#777\" fill-opacity=\"0.35\" stroke=\"#777\"/></svg> a cell outside the profile "
        "(tuned runs the default: the A/A control, i.e. the noise); <svg width=\"26\" height=\"22\" "
        "aria-hidden=\"true\"><circle cx=\"13\" cy=\"11\" r=\"9\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\"/>"
        "</svg> verdict <b>faster</b> (green): the interval wholly below 1; <svg width=\"26\" height=\"22\" "
        "aria-hidden=\"true\"><circle cx=\"13\" cy=\"11\" r=\"9\" fill=\"none\" stroke=\"#000\" stroke-width=\"2\" "
        "stroke-dasharray=\"3 2\"/></svg> <b>▲</b> verdict <b>slower</b> (orange): the interval wholly above "
        "1; <b>?</b> verdict <code>noise?</code> (the A/A control is significant). Hover a mark for its "
        "values.</p>\n",
        f);
}

void verify_table(FILE *f, const mg_rp_verify *v) {
  fputs("<table class=\"vt\"><tr><th>collective</th><th>size</th><th>tuned algorithm</th><th>default</th>"
        "<th>tuned</th><th>ratio [interval]</th><th>verdict</th><th>outcome</th><th>still faster than tuned</th>"
        "</tr>\n",
        f);
  char b[64], t[48], l[128];
  for (int i = 0; i < v->n; i++) {
    const mg_rp_vrow *w = &v->rows[i];
    int c = mg_coll_find(w->coll);
    fputs("<tr><td>", f);
    mg_html(f, "%s", w->coll);
    mg_html(f, "</td><td class=n>%s</td><td>", mg_rp_bytes_str(w->bytes, b, sizeof b));
    if (w->in_profile) mg_html(f, "%s", c >= 0 ? mg_ck_label((mg_coll)c, w->tuned, 0, l, sizeof l) : w->tuned);
    else fputs("default (not in the profile)", f);
    mg_html(f, "</td><td class=n>%s</td>", mg_rp_us_str(w->med_def, t, sizeof t));
    mg_html(f, "<td class=n>%s</td><td class=n>", mg_rp_us_str(w->med_tuned, t, sizeof t));
    if (isfinite(w->ratio)) {
      mg_html(f, "%.3f", w->ratio);
      if (isfinite(w->lo) && isfinite(w->hi)) mg_html(f, " [%.3f, %.3f]", w->lo, w->hi);
    } else fputs("-", f);
    fputs("</td><td>", f);
    mg_html(f, "%s", w->verdict);
    fputs("</td><td>", f);
    mg_html(f, "%s", w->outcome[0] ? w->outcome : "–");
    fputs("</td><td>", f);
    if (w->still[0]) {
      for (const char *p = w->still; *p; p++)
        if (*p == ';') fputs("; ", f);
        else mg_html(f, "%c", *p);
    } else fputs("–", f);
    fputs("</td></tr>\n", f);
  }
  fputs("</table>\n", f);
}

/* Two verify results of one configuration and profile: the same profile, process count, MPI
 * library and machine (their raw.csv's #@ lines; an unknown value does not conflict). */
static int same_verify_config(const mg_rp_verify *a, const mg_rp_verify *b) {
  static const char *const keys[] = {"mpi_library_version", "hosts", "hostname", "cpu_model", "launcher", "nnodes"};
  if (strcmp(a->profile, b->profile) || a->nprocs != b->nprocs) return 0;
  for (int i = 0; i < (int)(sizeof keys / sizeof *keys); i++) {
    const char *x = mg_ck_meta_get(&a->raw_meta, keys[i]), *y = mg_ck_meta_get(&b->raw_meta, keys[i]);
    if (x && y && strcmp(x, y)) return 0;
  }
  return 1;
}

/* Several verify results of one configuration and profile (verify run once per launch): per cell
 * the tuned/default ratio of each and their range, the spread a rerun shows (HPC Asia 2018,
 * Fig. 4). Results of different configurations get a table each, never a common range. */
static void verify_spread(FILE *f, const mg_rp_verify *ver, int nver) {
  int done[64] = {0};
  for (int k = 0; k < nver && k < 64; k++) {
    if (done[k]) continue;
    int grp[64], ng = 0;
    for (int j = k; j < nver && j < 64; j++)
      if (!done[j] && same_verify_config(&ver[k], &ver[j])) grp[ng++] = j, done[j] = 1;
    if (ng < 2) continue;
    mg_html(f, "<h3>Spread over %d verify launches — profile <code>", ng);
    mg_html(f, "%s", ver[k].profile[0] ? ver[k].profile : "unknown");
    mg_html(f, "</code>, %d processes</h3>\n<p class=\"note\">Each column one verify result (a launch of its "
               "own); a cell is tuned / default (below 1: the profile's choice is faster). The range is how far a "
               "rerun moves the gain.</p>\n<table class=\"compare\" data-spread=\"%d\"><tr><th>collective</th>"
               "<th>size</th><th>tuned</th>", ver[k].nprocs, ng);
    for (int g = 0; g < ng; g++) mg_html(f, "<th>%d</th>", g + 1);
    fputs("<th>range</th><th>faster in</th></tr>\n", f);
    const mg_rp_verify *a = &ver[grp[0]];
    for (int i = 0; i < a->n; i++) {
      const mg_rp_vrow *w = &a->rows[i];
      if (!w->in_profile) continue;
      char b[32];
      fputs("<tr><td>", f);
      mg_html(f, "%s", w->coll);
      mg_html(f, "</td><td class=n>%s</td><td>", mg_rp_bytes_str(w->bytes, b, sizeof b));
      mg_html(f, "%s", w->tuned);
      fputs("</td>", f);
      double lo = INFINITY, hi = -INFINITY;
      int faster = 0, seen = 0;
      for (int g = 0; g < ng; g++) {
        const mg_rp_vrow *x = NULL;
        for (int r = 0; r < ver[grp[g]].n && !x; r++) {
          const mg_rp_vrow *y = &ver[grp[g]].rows[r];
          if (y->bytes == w->bytes && !strcmp(y->coll, w->coll) && !strcmp(y->tuned, w->tuned) && !strcmp(y->red, w->red)) x = y;
        }
        if (!x || !vplotted(x)) {
          fputs("<td class=n>–</td>", f);
          continue;
        }
        mg_html(f, "<td class=n>%.3f</td>", x->ratio);
        seen++;
        lo = x->ratio < lo ? x->ratio : lo;
        hi = x->ratio > hi ? x->ratio : hi;
        faster += isfinite(x->hi) && x->hi < 1;
      }
      if (seen) mg_html(f, "<td class=n>%.3f – %.3f</td><td class=n>%d of %d</td></tr>\n", lo, hi, faster, seen);
      else fputs("<td class=n>–</td><td class=n>–</td></tr>\n", f);
    }
    fputs("</table>\n", f);
  }
}

void mg_rp_verify_section(FILE *f, const mg_rp_verify *ver, int nver) {
  fputs("<h2 id=\"tuned\">Default vs tuned</h2>\n", f);
  verify_key(f);
  for (int k = 0; k < nver; k++) {
    const mg_rp_verify *v = &ver[k];
    fputs("<p class=\"note\">Verify result <code>", f);
    mg_html(f, "%s", v->path);
    fputs("</code>: profile <code>", f);
    mg_html(f, "%s", v->profile[0] ? v->profile : "unknown");
    mg_html(f, "</code>, %d processes", v->nprocs);
    if (isfinite(v->alpha)) mg_html(f, ", alpha %g", v->alpha);
    mg_html(f, ", %d cells.</p>\n<div class=\"plots\">\n", v->n);
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
  verify_spread(f, ver, nver);
}

/* The page of verify results alone: the check sections say that there is no check data. */
