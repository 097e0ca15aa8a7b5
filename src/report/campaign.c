/*
 * Configurations compared guideline by guideline (html.h; docs/campaign.md), when a page shows
 * several configurations (a campaign's tree, or `report A B`), after "Configurations compared":
 *
 * - "Guidelines by configuration": per mock-up (its guideline) and configuration the violations
 *   over the sizes compared and the worst slowdown with its interval: the layout of the thesis's
 *   figures (pgchecker, Figs. 4.9-4.16), one column per library and layout;
 * - "The default's latency": per collective and size the library default's median in each
 *   configuration, with the spread of the per-launch medians (min-max) where a configuration has
 *   several launches;
 * - "What changed": from the first configuration to each other one, a violation that is new, one
 *   that went away (each with its slowdown interval), and a default that got slower or faster,
 *   told only when the per-launch medians do not overlap (the spread over launches is the noise a
 *   rerun would show: HPC Asia 2018, Fig. 4).
 *
 * Nothing is pooled: each configuration's numbers are its own analysis's (report.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"

/* The default's medians of (coll, bytes, red) per launch of d, min and max over launches and their
 * median of medians; the launch count (0: not measured). */
static int default_spread(const mg_ck_data *d, mg_coll coll, size_t bytes, const char *red, double *lo, double *hi) {
  int n = 0;
  *lo = INFINITY, *hi = -INFINITY;
  for (int i = 0; i < d->nseries; i++) {
    const mg_ck_series *s = &d->series[i];
    if (s->coll != coll || s->bytes != bytes || strcmp(s->alg, "default") || strcmp(s->red, red) || s->n < 1) continue;
    double *t = malloc(sizeof *t * (size_t)s->n);
    if (!t) continue;
    memcpy(t, s->rt, sizeof *t * (size_t)s->n);
    for (long a = 1; a < s->n; a++) /* insertion sort: a series is a few hundred values */
      for (long b = a; b > 0 && t[b - 1] > t[b]; b--) {
        double x = t[b];
        t[b] = t[b - 1], t[b - 1] = x;
      }
    double med = s->n % 2 ? t[s->n / 2] : 0.5 * (t[s->n / 2 - 1] + t[s->n / 2]);
    free(t);
    if (med < *lo) *lo = med;
    if (med > *hi) *hi = med;
    n++;
  }
  return n;
}

/* The verdict of (coll, alg, bytes, red) in r, NULL none. */
static const mg_ck_verdict *find(const mg_ck_result *r, mg_coll coll, const char *alg, size_t bytes, const char *red) {
  for (int i = 0; i < r->n; i++) {
    const mg_ck_verdict *v = &r->v[i];
    if (!v->aa && v->coll == coll && v->bytes == bytes && !strcmp(v->alg, alg) && !strcmp(v->red, red)) return v;
  }
  return NULL;
}

static int measured(const mg_ck_verdict *v) { return v && v->status == MG_CKV_OK; }

/* The first verdict of (coll, alg) over all runs, in run order: the rows of the guideline table. */
static int first_of(const mg_rp_run *runs, int ri, int i) {
  const mg_ck_verdict *v = &runs[ri].r->v[i];
  for (int rj = 0; rj <= ri; rj++)
    for (int k = 0; k < (rj == ri ? i : runs[rj].r->n); k++) {
      const mg_ck_verdict *w = &runs[rj].r->v[k];
      if (!w->aa && w->coll == v->coll && !strcmp(w->alg, v->alg)) return 0;
    }
  return 1;
}

static void guidelines(FILE *f, const mg_rp_run *runs, int nruns) {
  fputs("<h2 id=\"guidelines-by-config\">Guidelines by configuration</h2>\n<p class=\"note\">Per mock-up (the "
        "guideline it embodies) and configuration: violations / sizes compared, and the worst slowdown of the "
        "default among the violations with its interval (default median / mock-up median). – : not "
        "measured there.</p>\n<table class=\"compare\"><tr><th>guideline</th><th>collective</th><th>mock-up</th>",
        f);
  for (int ri = 0; ri < nruns; ri++) fputs("<th>", f), mg_html(f, "%s", runs[ri].label), fputs("</th>", f);
  fputs("</tr>\n", f);
  for (int ri = 0; ri < nruns; ri++)
    for (int i = 0; i < runs[ri].r->n; i++) {
      const mg_ck_verdict *v = &runs[ri].r->v[i];
      if (v->aa || !first_of(runs, ri, i)) continue;
      fputs("<tr><td>", f);
      mg_html(f, "%s", v->guideline && *v->guideline ? v->guideline : "?");
      mg_html(f, "</td><td>%s</td><td>", mg_colls[v->coll].name);
      mg_html(f, "%s", v->alg);
      fputs("</td>", f);
      for (int rj = 0; rj < nruns; rj++) {
        int viol = 0, cmp = 0;
        const mg_ck_verdict *worst = NULL;
        for (int k = 0; k < runs[rj].r->n; k++) {
          const mg_ck_verdict *w = &runs[rj].r->v[k];
          if (w->aa || w->coll != v->coll || strcmp(w->alg, v->alg) || !measured(w)) continue;
          cmp++;
          if (!w->violation) continue;
          viol++;
          if (!worst || w->slowdown > worst->slowdown) worst = w;
        }
        if (!cmp) fputs("<td class=n>–</td>", f);
        else if (!worst) mg_html(f, "<td class=n>0 / %d</td>", cmp);
        else {
          char b[32];
          mg_html(f, "<td class=n style=\"background:#fdd0a2\">%d / %d, worst ×%.2f [%.2f, %.2f] at %s</td>", viol, cmp,
                  worst->slowdown, worst->lo, worst->hi, mg_rp_bytes_str(worst->bytes, b, sizeof b));
        }
      }
      fputs("</tr>\n", f);
    }
  fputs("</table>\n", f);
}

/* The (coll, bytes, red) cells of the defaults in any run, in run and verdict order, without repeats. */
typedef struct {
  mg_coll coll;
  size_t bytes;
  const char *red;
} cell;

static int cells_of(const mg_rp_run *runs, int nruns, cell **out) {
  int n = 0, cap = 0;
  *out = NULL;
  for (int ri = 0; ri < nruns; ri++)
    for (int i = 0; i < runs[ri].r->n; i++) {
      const mg_ck_verdict *v = &runs[ri].r->v[i];
      if (v->aa || !measured(v)) continue;
      int seen = 0;
      for (int k = 0; k < n && !seen; k++)
        seen = (*out)[k].coll == v->coll && (*out)[k].bytes == v->bytes && !strcmp((*out)[k].red, v->red);
      if (seen) continue;
      if (n == cap) {
        cap = cap ? 2 * cap : 64;
        cell *nc = realloc(*out, sizeof *nc * (size_t)cap);
        if (!nc) return n;
        *out = nc;
      }
      (*out)[n++] = (cell){v->coll, v->bytes, v->red};
    }
  return n;
}

static void latency(FILE *f, const mg_rp_run *runs, int nruns, const cell *c, int nc) {
  fputs("<h2 id=\"default-latency\">The default's latency</h2>\n<p class=\"note\">Per collective and size the "
        "library default's median in each configuration; with several launches, the range of the per-launch "
        "medians in brackets (how much a rerun moves it).</p>\n<table class=\"compare\"><tr><th>collective</th>"
        "<th>size</th>",
        f);
  for (int ri = 0; ri < nruns; ri++) fputs("<th>", f), mg_html(f, "%s", runs[ri].label), fputs("</th>", f);
  fputs("</tr>\n", f);
  for (int k = 0; k < nc; k++) {
    char b[32], red[MG_CK_RED];
    mg_html(f, "<tr><td>%s%s%s</td><td class=n>%s</td>", mg_colls[c[k].coll].name, *c[k].red ? " " : "",
            mg_ck_red_short(c[k].red, red, sizeof red), mg_rp_bytes_str(c[k].bytes, b, sizeof b));
    for (int ri = 0; ri < nruns; ri++) {
      const mg_ck_verdict *v = NULL;
      for (int i = 0; i < runs[ri].r->n && !v; i++) {
        const mg_ck_verdict *w = &runs[ri].r->v[i];
        if (!w->aa && measured(w) && w->coll == c[k].coll && w->bytes == c[k].bytes && !strcmp(w->red, c[k].red)) v = w;
      }
      double lo, hi;
      int nl = v ? default_spread(runs[ri].d, c[k].coll, c[k].bytes, c[k].red, &lo, &hi) : 0;
      if (!v) fputs("<td class=n>–</td>", f);
      else if (nl >= 2) mg_html(f, "<td class=n>%.4g µs [%.4g, %.4g]</td>", v->med_def * 1e6, lo * 1e6, hi * 1e6);
      else mg_html(f, "<td class=n>%.4g µs</td>", v->med_def * 1e6);
    }
    fputs("</tr>\n", f);
  }
  fputs("</table>\n", f);
}

static void changed(FILE *f, const mg_rp_run *runs, int nruns, const cell *c, int nc) {
  fputs("<h2 id=\"what-changed\">What changed</h2>\n<p class=\"note\">From the first configuration to each "
        "other one: violations that are new there or went away (each with its slowdown interval), and a "
        "default that got slower or faster where the per-launch medians of the two do not overlap (with one "
        "launch on either side no launch spread is known: the medians are compared as they are).</p>\n",
        f);
  const mg_rp_run *a = &runs[0];
  for (int ri = 1; ri < nruns; ri++) {
    const mg_rp_run *b = &runs[ri];
    fputs("<h3>", f);
    mg_html(f, "%s", a->label);
    fputs(" → ", f);
    mg_html(f, "%s", b->label);
    mg_html(f, "</h3>\n<table class=\"compare\" data-changes=\"%d\"><tr><th>change</th><th>collective</th><th>size</th>"
               "<th>mock-up</th><th>before</th><th>after</th></tr>\n", ri + 1);
    int rows = 0;
    for (int side = 0; side < 2; side++) { /* 0: new in b, 1: gone from a */
      const mg_rp_run *x = side ? a : b, *y = side ? b : a;
      for (int i = 0; i < x->r->n; i++) {
        const mg_ck_verdict *v = &x->r->v[i], *w;
        if (v->aa || !v->violation || !measured(w = find(y->r, v->coll, v->alg, v->bytes, v->red)) || w->violation)
          continue;
        char bs[32], red[MG_CK_RED], iv[96], iw[96];
        snprintf(iv, sizeof iv, "violation ×%.2f [%.2f, %.2f]", v->slowdown, v->lo, v->hi);
        snprintf(iw, sizeof iw, "no violation ×%.2f [%.2f, %.2f]", w->slowdown, w->lo, w->hi);
        mg_html(f, "<tr><td>%s</td><td>%s%s%s</td><td class=n>%s</td><td>", side ? "violation gone" : "new violation",
                mg_colls[v->coll].name, *v->red ? " " : "", mg_ck_red_short(v->red, red, sizeof red),
                mg_rp_bytes_str(v->bytes, bs, sizeof bs));
        mg_html(f, "%s", v->alg);
        mg_html(f, "</td><td>%s</td><td>%s</td></tr>\n", side ? iv : iw, side ? iw : iv);
        rows++;
      }
    }
    for (int k = 0; k < nc; k++) {
      double alo, ahi, blo, bhi;
      int na = default_spread(a->d, c[k].coll, c[k].bytes, c[k].red, &alo, &ahi);
      int nb = default_spread(b->d, c[k].coll, c[k].bytes, c[k].red, &blo, &bhi);
      if (!na || !nb || !(blo > ahi || bhi < alo)) continue; /* not measured on both sides, or the spreads overlap */
      char bs[32], red[MG_CK_RED];
      /* the ratio of the nearest ends of the two spreads: at least this much slower (faster) */
      mg_html(f, "<tr><td>default %s, at least ×%.2f</td><td>%s%s%s</td><td class=n>%s</td><td>default</td>"
                 "<td>medians %.4g–%.4g µs (%d launch%s)</td><td>medians %.4g–%.4g µs (%d launch%s)</td></tr>\n",
              blo > ahi ? "slower" : "faster", blo > ahi ? blo / ahi : alo / bhi, mg_colls[c[k].coll].name,
              *c[k].red ? " " : "", mg_ck_red_short(c[k].red, red, sizeof red), mg_rp_bytes_str(c[k].bytes, bs, sizeof bs),
              alo * 1e6, ahi * 1e6, na, na > 1 ? "es" : "", blo * 1e6, bhi * 1e6, nb, nb > 1 ? "es" : "");
      rows++;
    }
    if (!rows) fputs("<tr><td colspan=6>nothing: the same violations, no default moved beyond its launch spread</td></tr>\n", f);
    fputs("</table>\n", f);
  }
}

void mg_rp_campaign_sections(FILE *f, const mg_rp_run *runs, int nruns) {
  if (nruns < 2) return;
  cell *c;
  int nc = cells_of(runs, nruns, &c);
  guidelines(f, runs, nruns);
  latency(f, runs, nruns, c, nc);
  changed(f, runs, nruns, c, nc);
  free(c);
}
