/*
 * Configurations compared guideline by guideline (html.h; docs/campaign.md), when a page shows
 * several configurations (a campaign's tree, or `report A B`), after "Configurations compared":
 *
 * - "Guidelines by configuration": per mock-up (its guideline) and configuration the violations
 *   over the sizes compared and the worst slowdown with its interval: the layout of the thesis's
 *   figures (pgchecker, Figs. 4.9-4.16), one column per library and layout;
 * - "Which library is faster" ("Which configuration is faster" when the libraries are the same):
 *   per collective and size the library default's median in each configuration side by side, with
 *   the spread of the per-launch medians (min-max) where a configuration has several launches, and
 *   the fastest one against the runner-up with the check's own decision (mg_ck_decide on the
 *   bootstrap of median(runner-up) / median(fastest), Bonferroni over the cells of the table, the
 *   per-launch medians apart, beyond the noise); no ratio at all where noise dominates one of the
 *   two runs: it would tell nothing;
 * - "What changed": from the first configuration to each other one, a violation that is new, one
 *   that went away (each with its slowdown interval), and a default that got slower or faster,
 *   told only when the per-launch medians do not overlap (the spread over launches is the noise a
 *   rerun would show: HPC Asia 2018, Fig. 4) and differ by more than the noise threshold; nothing
 *   of it where noise dominates either run.
 *
 * Nothing is pooled: each configuration's numbers are its own analysis's (report.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/html.h"
#include "stats/stats.h"
#include "util/hash.h"

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

/* A default's median with, over nl >= 2 launches, the range of its per-launch medians, as a cell. */
static void median_cell(FILE *f, double med, int nl, double lo, double hi) {
  char m[32], a[32], b[32];
  if (nl >= 2)
    mg_html(f, "<td class=n>%s [%s, %s]</td>", mg_rp_us_str(med, m, sizeof m), mg_rp_us_str(lo, a, sizeof a),
            mg_rp_us_str(hi, b, sizeof b));
  else mg_html(f, "<td class=n>%s</td>", mg_rp_us_str(med, m, sizeof m));
}

/* Whether noise dominates each run (mg_ck_summary: most comparisons within one synchronisation), into
 * noisy[nruns]; -1 out of memory. */
static int noise_of(const mg_rp_run *runs, int nruns, int *noisy) {
  mg_ck_summary *s = malloc(sizeof *s);
  if (!s) return -1;
  for (int ri = 0; ri < nruns; ri++) mg_ck_summarize(runs[ri].r, s), noisy[ri] = s->noise_dominated;
  free(s);
  return 0;
}

/* "the run of A" or "the runs of A and B": the runs of ra and rb that noise dominates, into out. */
static void noisy_runs(const mg_rp_run *runs, const int *noisy, int ra, int rb, char *out, size_t len) {
  if (noisy[ra] && noisy[rb])
    snprintf(out, len, "the runs of %s and %s", runs[ra].label, runs[rb].label);
  else snprintf(out, len, "the run of %s", runs[noisy[ra] ? ra : rb].label);
}

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

/* The default's verdict at cell c in r (its median, noise threshold), NULL: not measured there. */
static const mg_ck_verdict *cell_default(const mg_ck_result *r, const cell *c) {
  for (int i = 0; i < r->n; i++) {
    const mg_ck_verdict *w = &r->v[i];
    if (!w->aa && measured(w) && w->coll == c->coll && w->bytes == c->bytes && !strcmp(w->red, c->red)) return w;
  }
  return NULL;
}

/* Every valid runtime of the default at cell c in d, pooled over its launches (one configuration), in a
 * new array (free it); NULL when none or out of memory. */
static double *default_values(const mg_ck_data *d, const cell *c, size_t *n) {
  size_t tot = 0, u = 0;
  for (int i = 0; i < d->nseries; i++) {
    const mg_ck_series *s = &d->series[i];
    if (s->coll == c->coll && s->bytes == c->bytes && !strcmp(s->alg, "default") && !strcmp(s->red, c->red) && s->n > 0)
      tot += (size_t)s->n;
  }
  double *x = tot ? malloc(sizeof *x * tot) : NULL;
  for (int i = 0; x && i < d->nseries; i++) {
    const mg_ck_series *s = &d->series[i];
    if (s->coll == c->coll && s->bytes == c->bytes && !strcmp(s->alg, "default") && !strcmp(s->red, c->red) && s->n > 0)
      memcpy(x + u, s->rt, sizeof *x * (size_t)s->n), u += (size_t)s->n;
  }
  *n = u;
  return x;
}

/* The runner-up's default (rs) against the fastest one (rf) at cell c, decided as check decides a
 * violation (mg_ck_decide): the bootstrap of median(rs) / median(rf) over the two configurations'
 * runtimes (independent samples: nothing is paired across configurations), its interval at one-sided
 * alpha / mult, the runner-up's per-launch medians all above the fastest one's (with one launch each:
 * the medians), the medians apart by more than the larger noise threshold. VIOLATION: rf is faster;
 * CONSISTENT: the same within the margin; else INCONCLUSIVE. -1: no comparison (why in note). */
static int head_to_head(const mg_rp_run *runs, int rs, int rf, const cell *c, double mult, mg_ck_verdict *w) {
  const mg_ck_opts *o = &runs[0].r->opts;
  const mg_ck_verdict *vs = cell_default(runs[rs].r, c), *vf = cell_default(runs[rf].r, c);
  size_t ns = 0, nf = 0;
  double *xs = default_values(runs[rs].d, c, &ns), *xf = default_values(runs[rf].d, c, &nf);
  memset(w, 0, sizeof *w);
  w->lo = w->hi = NAN;
  uint32_t seed = mg_fnv1a(MG_FNV1A_INIT, &o->seed, sizeof o->seed);
  seed = mg_fnv1a(seed, mg_colls[c->coll].name, strlen(mg_colls[c->coll].name));
  seed = mg_fnv1a(seed, c->red, strlen(c->red));
  uint64_t by = c->bytes;
  seed = mg_fnv1a(seed, &by, sizeof by);
  mg_stats_slowdown_result sr;
  mg_stats_status st = xs && xf ? mg_stats_slowdown(xs, ns, xf, nf, o->level, o->resamples, seed, &sr) : MG_STATS_EMPTY;
  free(xs), free(xf);
  if (st != MG_STATS_OK) return snprintf(w->note, sizeof w->note, "%s", mg_stats_strerror(st)), -1;
  double slo, shi, flo, fhi;
  default_spread(runs[rs].d, c->coll, c->bytes, c->red, &slo, &shi);
  default_spread(runs[rf].d, c->coll, c->bytes, c->red, &flo, &fhi);
  w->n_def = (long)ns, w->n_mock = (long)nf;
  w->med_def = vs->med_def, w->med_mock = vf->med_def;
  w->slowdown = sr.ratio, w->spread = sr.spread;
  w->launches = 1, w->launches_slower = slo > fhi;
  w->sync_cost = vs->sync_cost > vf->sync_cost ? vs->sync_cost : vf->sync_cost;
  w->noise = w->sync_cost > 0 && fabs(vs->med_def - vf->med_def) < w->sync_cost;
  mg_ck_decide(w, o->alpha, mult, o->margin);
  return 0;
}

static void which_faster(FILE *f, const mg_rp_run *runs, int nruns, const cell *c, int nc, const int *noisy) {
  int lib = 0, fam = 0;
  const mg_ck_launch *a = &runs[0].d->launches[0];
  for (int ri = 1; ri < nruns; ri++) {
    const mg_ck_launch *b = &runs[ri].d->launches[0];
    lib |= strcmp(a->mpi_name, b->mpi_name) || strcmp(a->mpi_version, b->mpi_version);
  }
  for (int k = 0; k < nc; k++) { /* the cells with two configurations or more: the family of the intervals */
    int m = 0;
    for (int ri = 0; ri < nruns; ri++) m += cell_default(runs[ri].r, &c[k]) != NULL;
    fam += m >= 2;
  }
  const mg_ck_opts *o = &runs[0].r->opts;
  double mult = o->holm && fam > 0 ? fam : 1;
  mg_html(f, "<h2 id=\"which-faster\">Which %s is faster</h2>\n<p class=\"note\">Per collective and size the library "
             "default of each configuration (median; with several launches the range of the per-launch medians in "
             "brackets), and the fastest against the runner-up: how much slower the runner-up is (its median over "
             "the fastest one's, with the %.4g %% interval of the bootstrap over both configurations' runtimes, "
             "Bonferroni-adjusted over the %d sizes compared). Decided as <code>check</code> decides a violation: "
             "<i>faster</i> when the interval lies above 1, every per-launch median of the runner-up above every "
             "one of the fastest, and the medians apart by more than the noise threshold; <i>the same</i> when the "
             "interval ends below %g %%; else <i>not shown</i>. Where noise dominates a run its latencies tell "
             "nothing, and no ratio is given.</p>\n<table class=\"compare\" data-faster=\"1\"><tr><th>collective</th>"
             "<th>size</th>",
          lib ? "library" : "configuration", mg_ck_level_pct(o->alpha, mult), fam, 100 * (1 + o->margin));
  for (int ri = 0; ri < nruns; ri++) fputs("<th>", f), mg_html(f, "%s", runs[ri].label), fputs("</th>", f);
  fputs("<th>faster</th><th>runner-up / fastest</th><th>how sure</th></tr>\n", f);
  for (int k = 0; k < nc; k++) {
    int rf = -1, rs = -1;
    for (int ri = 0; ri < nruns; ri++) {
      const mg_ck_verdict *v = cell_default(runs[ri].r, &c[k]);
      if (!v || !(v->med_def >= 0)) continue;
      double m = v->med_def;
      if (rf < 0 || m < cell_default(runs[rf].r, &c[k])->med_def) rs = rf, rf = ri;
      else if (rs < 0 || m < cell_default(runs[rs].r, &c[k])->med_def) rs = ri;
    }
    mg_ck_verdict w;
    const char *what = rs < 0 ? "one" : noisy[rf] || noisy[rs] ? "noise" : head_to_head(runs, rs, rf, &c[k], mult, &w) ? "none"
                       : w.outcome == MG_CK_VIOLATION                            ? "faster"
                       : w.outcome == MG_CK_CONSISTENT                           ? "same"
                       : w.noise                                                 ? "noise"
                                                                                 : "unsure";
    char bs[32], red[MG_CK_RED], why[400];
    mg_html(f, "<tr data-verdict=\"%s\"><td>%s%s%s</td><td class=n>%s</td>", what, mg_colls[c[k].coll].name,
            *c[k].red ? " " : "", mg_ck_red_short(c[k].red, red, sizeof red), mg_rp_bytes_str(c[k].bytes, bs, sizeof bs));
    for (int ri = 0; ri < nruns; ri++) {
      const mg_ck_verdict *v = cell_default(runs[ri].r, &c[k]);
      double lo, hi;
      int nl = v ? default_spread(runs[ri].d, c[k].coll, c[k].bytes, c[k].red, &lo, &hi) : 0;
      if (!v) fputs("<td class=n>–</td>", f);
      else median_cell(f, v->med_def, nl, lo, hi);
    }
    if (rs < 0) {
      fputs("<td>–</td><td>–</td><td>measured in one configuration only</td></tr>\n", f);
    } else if (noisy[rf] || noisy[rs]) {
      noisy_runs(runs, noisy, rf, rs, why, sizeof why);
      mg_html(f, "<td>–</td><td>–</td><td>tells nothing: noise dominates %s (Summary), so no ratio is given</td></tr>\n",
              why);
    } else if (!strcmp(what, "none")) {
      mg_html(f, "<td>–</td><td>–</td><td>no comparison: %s</td></tr>\n", w.note);
    } else if (w.noise && w.outcome != MG_CK_CONSISTENT) {
      char d[32], t[32];
      mg_html(f, "<td>–</td><td>–</td><td>tells nothing: the medians differ by %s, less than the noise threshold %s</td></tr>\n",
              mg_rp_us_str(fabs(w.med_def - w.med_mock), d, sizeof d), mg_rp_us_str(w.sync_cost, t, sizeof t));
    } else {
      if (w.outcome == MG_CK_VIOLATION) mg_html(f, "<td>%s</td>", runs[rf].label);
      else mg_html(f, "<td>%s</td>", w.outcome == MG_CK_CONSISTENT ? "the same" : "not shown");
      mg_html(f, "<td class=n>×%.2f [%.2f, %.2f]</td>", w.slowdown, w.lo, w.hi);
      if (w.outcome == MG_CK_VIOLATION) {
        int one = runs[rf].d->nlaunches < 2 || runs[rs].d->nlaunches < 2;
        mg_html(f, "<td>faster: the interval lies above 1%s</td></tr>\n",
                one ? "; one launch on a side: launch-to-launch variation is not covered (check --launches N)" : "");
      } else if (w.outcome == MG_CK_CONSISTENT)
        mg_html(f, "<td>the same: neither is slower than the other beyond %g %%</td></tr>\n", 100 * o->margin);
      else if (w.significant)
        fputs("<td>not shown: the per-launch medians overlap (a rerun may turn it round)</td></tr>\n", f);
      else fputs("<td>not shown: the interval reaches 1 (more repetitions or launches may decide it)</td></tr>\n", f);
    }
  }
  fputs("</table>\n", f);
}

static void changed(FILE *f, const mg_rp_run *runs, int nruns, const cell *c, int nc, const int *noisy) {
  fputs("<h2 id=\"what-changed\">What changed</h2>\n<p class=\"note\">From the first configuration to each "
        "other one: violations that are new there or went away (each with its slowdown interval), and a "
        "default that got slower or faster where the per-launch medians of the two do not overlap (with one "
        "launch on either side no launch spread is known: the medians are compared as they are) and lie further "
        "apart than the noise threshold. Where noise dominates either run nothing is compared: it would tell "
        "nothing.</p>\n",
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
    if (noisy[0] || noisy[ri]) {
      char why[400];
      noisy_runs(runs, noisy, 0, ri, why, sizeof why);
      mg_html(f, "<tr data-noise=\"1\"><td colspan=6>tells nothing: noise dominates %s (Summary), so neither its "
                 "violations nor its defaults' latencies can be compared; measure again first (What to do next)</td></tr>\n"
                 "</table>\n", why);
      continue;
    }
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
      const mg_ck_verdict *va = cell_default(a->r, &c[k]), *vb = cell_default(b->r, &c[k]);
      double noise = va && vb ? (va->sync_cost > vb->sync_cost ? va->sync_cost : vb->sync_cost) : -1;
      if (noise > 0 && (blo > ahi ? blo - ahi : alo - bhi) < noise) continue; /* apart by less than the noise */
      char bs[32], red[MG_CK_RED], t[4][32];
      /* the ratio of the nearest ends of the two spreads: at least this much slower (faster) */
      mg_html(f, "<tr><td>default %s, at least ×%.2f</td><td>%s%s%s</td><td class=n>%s</td><td>default</td>"
                 "<td>medians %s – %s (%d launch%s)</td><td>medians %s – %s (%d launch%s)</td></tr>\n",
              blo > ahi ? "slower" : "faster", blo > ahi ? blo / ahi : alo / bhi, mg_colls[c[k].coll].name,
              *c[k].red ? " " : "", mg_ck_red_short(c[k].red, red, sizeof red), mg_rp_bytes_str(c[k].bytes, bs, sizeof bs),
              mg_rp_us_str(alo, t[0], sizeof t[0]), mg_rp_us_str(ahi, t[1], sizeof t[1]), na, na > 1 ? "es" : "",
              mg_rp_us_str(blo, t[2], sizeof t[2]), mg_rp_us_str(bhi, t[3], sizeof t[3]), nb, nb > 1 ? "es" : "");
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
  int *noisy = calloc((size_t)nruns, sizeof *noisy);
  if (noisy && noise_of(runs, nruns, noisy)) free(noisy), noisy = NULL;
  guidelines(f, runs, nruns);
  if (noisy) which_faster(f, runs, nruns, c, nc, noisy), changed(f, runs, nruns, c, nc, noisy);
  free(noisy);
  free(c);
}
