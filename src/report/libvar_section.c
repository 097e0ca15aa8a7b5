/*
 * The library's own algorithms beside the mock-ups (report.h, docs/libvar.md): for a run measured
 * with check --lib-variants, per collective one plot of latency against size with the default, the
 * mock-ups and the library variants (the shape of HPC Asia 2018's Figures 5 and 6; the latency plot
 * of latency.c), and one table saying which kind wins each cell (mg_ck_kinds).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "report/report.h"

int mg_rp_lib_sizes(const mg_ck_result *r, int coll, size_t *out, int cap) {
  int n = 0;
  for (int i = 0; i < r->nlib && n < cap; i++) {
    if ((int)r->lib[i].coll != coll || !mg_rp_ratio_ok(&r->lib[i])) continue;
    int k = 0;
    while (k < n && out[k] != r->lib[i].bytes) k++;
    if (k == n) out[n++] = r->lib[i].bytes;
  }
  qsort(out, (size_t)n, sizeof *out, mg_rp_cmp_size);
  return n;
}

/* One contender's cell: "name 1.23× [1.10, 1.30]" with its outcome as the cell's class. */
static void contender_cell(FILE *f, const mg_ck_verdict *v) {
  if (!v) {
    fputs("<td>–</td>", f);
    return;
  }
  mg_html(f, "<td class=\"%s\">", mg_ck_outcome_name(v->outcome));
  mg_html(f, "%s", v->alg);
  mg_html(f, " %.2f×", v->slowdown);
  if (isfinite(v->lo)) mg_html(f, " [%.2f, %.2f]", v->lo, v->hi);
  fputs("</td>", f);
}

void mg_rp_libvar_section(FILE *f, const mg_rp_run *run, int nruns) {
  const mg_ck_result *r = run->r;
  if (!r->nkinds) return;
  mg_html(f, "<h2 id=\"libvar-%s\">The library's own algorithms", run->anchor);
  mg_rp_run_title(f, run, nruns);
  fputs("</h2>\n<p class=\"note\">Measured with <code>check --lib-variants</code>: the MPI library's own algorithm "
        "variants (rows <code>lib:NAME</code>) beside the mock-ups, interleaved with the default in the same launch. "
        "They are no guideline verdicts; each is compared with the default like a mock-up (ratio = median(default) / "
        "median(contender), its interval, Holm over their own family). A kind <i>wins</i> a cell when its best "
        "contender is a violation of the default and, if the other kind's best is one too, its interval lies wholly "
        "above the other's; <i>default</i>: every comparison consistent; otherwise <i>inconclusive</i> "
        "(docs/libvar.md).</p>\n",
        f);
  int wins[MG_CK_NKINDS] = {0};
  for (int i = 0; i < r->nkinds; i++) wins[r->kinds[i].winner]++;
  fputs("<p>", f);
  for (int w = 0; w < MG_CK_NKINDS; w++)
    mg_html(f, "%s<b>%s</b>: %d", w ? ", " : "", mg_ck_kind_name((mg_ck_kind)w), wins[w]);
  mg_html(f, " of %d cells.</p>\n", r->nkinds);
  mg_rp_latency_key(f);
  fputs("<p class=\"legend\">Dotted curves: the library's own variants.</p>\n<div class=\"plots\">\n", f);
  for (int c = 0; c < MG_NCOLL; c++) {
    int any = 0;
    for (int i = 0; i < r->nkinds && !any; i++) any = (int)r->kinds[i].coll == c;
    if (any) mg_rp_latency_plot(f, run, c, nruns);
  }
  fputs("</div>\n<table class=\"libvar\">\n<tr><th>collective</th><th>bytes</th><th>datatype:op</th>"
        "<th>default median</th><th>best mock-up</th><th>best library variant</th><th>wins</th></tr>\n",
        f);
  for (int i = 0; i < r->nkinds; i++) {
    const mg_ck_kinds *k = &r->kinds[i];
    char b[64], t[48], sr[MG_CK_RED];
    mg_html(f, "<tr data-coll=\"%s\" data-bytes=\"%zu\" data-winner=\"%s\"><td>%s</td><td>%s</td><td>%s</td><td>%s</td>",
            mg_colls[k->coll].name, k->bytes, mg_ck_kind_name(k->winner), mg_colls[k->coll].name,
            mg_rp_bytes_str(k->bytes, b, sizeof b), *k->red ? mg_ck_red_short(k->red, sr, sizeof sr) : "",
            mg_rp_us_str(k->med_def, t, sizeof t));
    contender_cell(f, k->mock >= 0 ? &r->v[k->mock] : NULL);
    contender_cell(f, k->lib >= 0 ? &r->lib[k->lib] : NULL);
    mg_html(f, "<td><b>%s</b></td></tr>\n", mg_ck_kind_name(k->winner));
  }
  fputs("</table>\n", f);
}
