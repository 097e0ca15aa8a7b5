/*
 * The HTML report (report.h, docs/report.md): metadata, summary, one plot per collective
 * (relative runtime of every mock-up against message size), a heat map of cautious violations
 * the "Default vs tuned" section of verify results (tuned/default ratio per collective and size,
 * verify.c reads verify.csv), and the grouped violation table, written as one page with inline
 * CSS and SVG. This file writes the page, its metadata, summary and tables; plots.c draws the
 * plots and the heat map, tuned.c the "Default vs tuned" section (html.h: what they share).
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
#include "bench/csv.h"
#include "report/html.h"
#include "report/report.h"
#include "util/err.h"
#include "util/fmt.h"

/* ---------- small helpers ---------- */

/* "16 B", "1 KiB", "1.5 KiB", "64 KiB", "1 MiB" */
const char *mg_rp_bytes_str(size_t n, char *buf, size_t len) {
  return mg_fmt_bytes(n, MG_BYTES_IEC, buf, len);
}

const char *mg_rp_us_str(double sec, char *buf, size_t len) { return mg_fmt_seconds(sec, buf, len); }

/* A #@key of a launch's raw file ("" when absent). */
static void launch_meta(const mg_ck_launch *L, const char *key, char *out, size_t len) {
  const char *v = mg_ck_meta_get(&L->meta, key);
  snprintf(out, len, "%s", v ? v : "");
}

int mg_rp_ratio_ok(const mg_ck_verdict *v) {
  return v->status == MG_CKV_OK && !v->aa && v->med_def > 0 && v->med_mock > 0 && isfinite(v->med_def) &&
         isfinite(v->med_mock);
}

int mg_rp_cmp_size(const void *a, const void *b) {
  size_t x = *(const size_t *)a, y = *(const size_t *)b;
  return x < y ? -1 : x > y;
}

/* Distinct sizes (ascending) of the verdicts of coll in r (coll < 0: all); returns the count. */
int mg_rp_sizes_of(const mg_ck_result *r, int coll, int plotted_only, size_t *out, int cap) {
  int n = 0;
  for (int i = 0; i < r->n; i++) {
    const mg_ck_verdict *v = &r->v[i];
    if ((coll >= 0 && (int)v->coll != coll) || v->aa) continue;
    if (plotted_only && !mg_rp_ratio_ok(v)) continue;
    int seen = 0;
    for (int k = 0; k < n && !seen; k++) seen = out[k] == v->bytes;
    if (!seen && n < cap) out[n++] = v->bytes;
  }
  qsort(out, (size_t)n, sizeof *out, mg_rp_cmp_size);
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

/* The families of the mock-ups a run measured, as bits (names the registry does not know count as
 * compositions). */
static unsigned families_of(const mg_rp_run *run) {
  unsigned bits = 0;
  for (int i = 0; i < run->r->n; i++) {
    const mg_ck_verdict *v = &run->r->v[i];
    if (v->aa) continue;
    int a = mg_alg_find(v->coll, v->alg);
    bits |= 1u << (a > 0 ? mg_colls[v->coll].algs[a].family : MG_FAM_COMPOSITION);
  }
  return bits;
}

/* An MPI library's version string as a table cell: whole when short; else (MPICH's runs over its configure
 * line) cut at a word boundary with "…", the whole string in the cell's title (hover). */
void mg_rp_version_cell(FILE *f, const char *v) {
  enum { SHOWN = 100 };
  size_t n = v ? strlen(v) : 0, cut = n;
  fputs("<td>", f);
  if (!n) fputs("unknown", f);
  else if (n <= SHOWN) mg_html(f, "%s", v);
  else {
    cut = SHOWN; /* at the end of a "; "-separated field (a line of the original) if one ends past half */
    while (cut > SHOWN / 2 && strncmp(v + cut, "; ", 2)) cut--;
    if (cut <= SHOWN / 2)
      for (cut = SHOWN; cut > 0 && v[cut] != ' ';) cut--; /* else before the first word left out */
    while (cut > 0 && (v[cut - 1] == ' ' || v[cut - 1] == ';' || v[cut - 1] == ',')) cut--;
    if (!cut) cut = SHOWN;
    char shown[SHOWN + 1];
    memcpy(shown, v, cut);
    shown[cut] = '\0';
    fputs("<span class=\"version\" title=\"", f);
    mg_html(f, "%s", v);
    fputs("\">", f);
    mg_html(f, "%s", shown);
    fputs(" …</span>", f);
  }
  fputs("</td>", f);
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

void mg_rp_run_title(FILE *f, const mg_rp_run *run, int nruns) {
  if (nruns > 1) fputs(" — ", f), mg_html(f, "%s", run->label);
}

/* "4.1.4" of "Open MPI v4.1.4, package: ..." or "MPICH Version: 4.0.2 ...": the first word that
 * starts with a digit (after an optional v), up to the first character not a digit or dot. */
static void version_number(const char *v, char *out, size_t len) {
  out[0] = '\0';
  for (const char *p = v ? v : ""; *p; p++) {
    if (p != v && !strchr(" \t:", p[-1])) continue;
    const char *q = *p == 'v' ? p + 1 : p;
    if (*q < '0' || *q > '9') continue;
    size_t n = strspn(q, "0123456789.");
    snprintf(out, len, "%.*s", (int)(n < len ? n : len - 1), q);
    return;
  }
}

/* Each run's label and anchor (report.h): the library is named where the runs differ in it, the
 * layout likewise, and a run measured in place says so; the anchor repeats the process count, with the run's number when two runs
 * share it (two libraries at 4 processes). */
static void label_runs(mg_rp_run *runs, int nruns) {
  int lib = 0, lay = 0, pat = 0, mach = 0, lnch = 0;
  const mg_ck_launch *a = &runs[0].d->launches[0];
  const char *ra = mg_ck_meta_get(&a->meta, "ranks_per_node");
  for (int ri = 1; ri < nruns; ri++) {
    const mg_ck_launch *b = &runs[ri].d->launches[0];
    const char *rb = mg_ck_meta_get(&b->meta, "ranks_per_node");
    lib |= strcmp(a->mpi_name, b->mpi_name) || strcmp(a->mpi_version, b->mpi_version);
    lay |= a->nnodes != b->nnodes || strcmp(ra ? ra : "", rb ? rb : "");
    const char *pa = mg_ck_launch_pattern(a), *pb = mg_ck_launch_pattern(b);
    pat |= strcmp(pa ? pa : "", pb ? pb : "");
    const char *ha = mg_ck_meta_get(&a->meta, "hosts"), *hb = mg_ck_meta_get(&b->meta, "hosts");
    const char *ca = mg_ck_meta_get(&a->meta, "cpu_model"), *cb = mg_ck_meta_get(&b->meta, "cpu_model");
    mach |= strcmp(ha ? ha : a->hostname, hb ? hb : b->hostname) || strcmp(ca ? ca : "", cb ? cb : "");
    const char *la = mg_ck_meta_get(&a->meta, "launcher"), *lb = mg_ck_meta_get(&b->meta, "launcher");
    lnch |= strcmp(la ? la : "", lb ? lb : "");
  }
  for (int ri = 0; ri < nruns; ri++) {
    const mg_ck_launch *L = &runs[ri].d->launches[0];
    char ver[32], *o = runs[ri].label;
    size_t len = sizeof runs[ri].label, u = 0;
    version_number(L->mpi_version, ver, sizeof ver);
    if (lib) u += (size_t)snprintf(o, len, "%s%s%s · ", *L->mpi_name ? L->mpi_name : "unknown MPI", *ver ? " " : "", ver);
    if (u < len) u += (size_t)snprintf(o + u, len - u, "%d procs", L->nprocs);
    const char *rpn = mg_ck_meta_get(&L->meta, "ranks_per_node");
    if (lay && u < len) {
      if (L->nnodes <= 0) snprintf(o + u, len - u, " · layout unknown");
      else if (rpn) snprintf(o + u, len - u, " · %d × %s", L->nnodes, rpn);
      else snprintf(o + u, len - u, " · %d × %d", L->nnodes, L->nprocs / L->nnodes);
    }
    u = strlen(o);
    if (mg_ck_launch_in_place(L) && u < len) snprintf(o + u, len - u, " · in place"); /* check --in-place */
    const char *sim = mg_ck_meta_get(&L->meta, "simulated"), *pl = mg_ck_meta_get(&L->meta, "platform"),
               *sel = mg_ck_meta_get(&L->meta, "selector");
    u = strlen(o);
    if (sim && !strcmp(sim, "1") && u < len) /* SimGrid SMPI: the platform and selector tell runs apart */
      snprintf(o + u, len - u, " · simulated %.40s %.16s", pl ? pl : "?", sel ? sel : "?");
    u = strlen(o);
    if (pat && mg_ck_launch_pattern(L) && u < len) snprintf(o + u, len - u, " · %s", mg_ck_launch_pattern(L)); /* --pattern */
    u = strlen(o); /* the machine (rank 0's host) and the launcher, where the runs differ in them */
    if (mach && u < len) snprintf(o + u, len - u, " · %s", *L->hostname ? L->hostname : "unknown host");
    u = strlen(o);
    const char *ln = mg_ck_meta_get(&L->meta, "launcher");
    if (lnch && u < len) snprintf(o + u, len - u, " · %s", ln && *ln ? ln : "launcher unknown");
    int rep = 0;
    for (int k = 0; k < ri; k++) rep |= runs[k].d->launches[0].nprocs == L->nprocs;
    if (rep) snprintf(runs[ri].anchor, sizeof runs[ri].anchor, "%d-%d", L->nprocs, ri + 1);
    else snprintf(runs[ri].anchor, sizeof runs[ri].anchor, "%d", L->nprocs);
  }
}

/* Configurations side by side (issue 19.4): per configuration its own verdict counts, per
 * collective its violations, and the shares as a bar; nothing is pooled across configurations. */
static int compare(FILE *f, const mg_rp_run *runs, int nruns) {
  mg_ck_summary *s = malloc(sizeof *s * (size_t)nruns);
  if (!s) return -1;
  int present[MG_NCOLL] = {0};
  for (int ri = 0; ri < nruns; ri++) {
    mg_ck_summarize(runs[ri].r, &s[ri]);
    for (int c = 0; c < MG_NCOLL; c++) present[c] |= s[ri].per[c].comparisons > 0;
  }
  fputs("<h2 id=\"compare\">Configurations compared</h2>\n<p class=\"note\">Each configuration (MPI library and "
        "version, process count, nodes × ranks per node) is analysed on its own launches; nothing is pooled across "
        "them. Per collective: violations / comparisons, and how many of them are inconclusive. The bar shows the shares of violation (dark), consistent "
        "(white) and inconclusive (grey) comparisons. Configurations that measured different sizes differ also "
        "for that reason: the heat map below compares size by size.</p>\n<table class=\"compare\"><tr>"
        "<th>configuration</th><th>consistency score</th><th>violations</th><th>consistent</th><th>inconclusive</th>",
        f);
  for (int c = 0; c < MG_NCOLL; c++)
    if (present[c]) mg_html(f, "<th>%s</th>", mg_colls[c].name);
  fputs("<th>shares</th></tr>\n", f);
  for (int ri = 0; ri < nruns; ri++) {
    const mg_ck_summary *p = &s[ri];
    mg_html(f, "<tr data-config=\"%s\"><td>", runs[ri].anchor);
    mg_html(f, "%s", runs[ri].label);
    if (p->noise_dominated) fputs("</td><td>– (noise dominates)</td>", f);
    else if (isfinite(p->score)) mg_html(f, "</td><td class=n>%.1f</td>", p->score);
    else fputs("</td><td>–</td>", f);
    mg_html(f, "<td class=n>%d</td><td class=n>%d</td><td class=n>%d</td>", p->total.violations, p->total.consistent,
            p->total.inconclusive);
    for (int c = 0; c < MG_NCOLL; c++) {
      if (!present[c]) continue;
      const mg_ck_coll_summary *q = &p->per[c];
      if (!q->comparisons) fputs("<td class=n>–</td>", f);
      else {
        mg_html(f, q->violations ? "<td class=n style=\"background:#fdd0a2\">%d / %d" : "<td class=n>%d / %d",
                q->violations, q->comparisons);
        if (q->inconclusive) mg_html(f, ", %d inconclusive", q->inconclusive); /* never read as clean */
        fputs("</td>", f);
      }
    }
    int t = p->total.comparisons;
    double wv = t ? 160.0 * p->total.violations / t : 0, wc = t ? 160.0 * p->total.consistent / t : 0,
           wi = t ? 160.0 * p->total.inconclusive / t : 0;
    mg_html(f, "<td><svg viewBox=\"0 0 162 14\" width=\"162\" role=\"img\" aria-label=\"%d violation, %d "
               "consistent, %d inconclusive\"><rect x=\"1\" y=\"1\" width=\"%.1f\" height=\"12\" fill=\"#d94801\"/>"
               "<rect x=\"%.1f\" y=\"1\" width=\"%.1f\" height=\"12\" fill=\"#fff\"/><rect x=\"%.1f\" y=\"1\" "
               "width=\"%.1f\" height=\"12\" fill=\"#bbb\"/><rect x=\"1\" y=\"1\" width=\"160\" height=\"12\" "
               "fill=\"none\" stroke=\"#555\"/></svg></td></tr>\n",
            p->total.violations, p->total.consistent, p->total.inconclusive, wv, 1 + wv, wc, 1 + wv + wc, wi);
  }
  fputs("</table>\n", f);
  free(s);
  return 0;
}

static void metadata(FILE *f, const mg_rp_run *runs, int nruns) {
  fputs("<h2 id=\"meta\">Run</h2>\n<table class=\"meta\">\n", f);
  char buf[512], tmp[256];
  if (nruns > 1) {
    fputs("<tr><th>configuration</th>", f);
    for (int ri = 0; ri < nruns; ri++) fputs("<th>", f), mg_html(f, "%s", runs[ri].label), fputs("</th>", f);
    fputs("</tr>\n", f);
  }
#define ROW(label, ...)                                   \
  do {                                                    \
    mg_html(f, "<tr><td>%s</td>", label);                 \
    for (int ri = 0; ri < nruns; ri++) {                  \
      const mg_ck_launch *L = &runs[ri].d->launches[0];   \
      const mg_ck_result *R = runs[ri].r;                 \
      (void)L, (void)R;                                   \
      __VA_ARGS__;                                        \
      fputs("<td>", f);                                   \
      mg_html(f, "%s", buf[0] ? buf : "unknown");                   \
      fputs("</td>", f);                                  \
    }                                                     \
    fputs("</tr>\n", f);                                  \
  } while (0)
  ROW("MPI library", snprintf(buf, sizeof buf, "%s", L->mpi_name));
  fputs("<tr><td>version</td>", f);
  for (int ri = 0; ri < nruns; ri++) mg_rp_version_cell(f, runs[ri].d->launches[0].mpi_version);
  fputs("</tr>\n", f);
  ROW("processes", snprintf(buf, sizeof buf, "%d", L->nprocs); if (L->nprocs <= 0) buf[0] = '\0');
  ROW("nodes × ranks per node", launch_meta(L, "ranks_per_node", tmp, sizeof tmp);
      if (L->nnodes > 0 && tmp[0]) snprintf(buf, sizeof buf, "%d × %s", L->nnodes, tmp);
      else if (L->nnodes > 0 && L->nprocs > 0) snprintf(buf, sizeof buf, "%d × %d", L->nnodes, L->nprocs / L->nnodes);
      else buf[0] = '\0');
  ROW("nodes (host:ranks)", launch_meta(L, "hosts", buf, sizeof buf)); /* #@hosts: each node's host name */
  ROW("launches", snprintf(buf, sizeof buf, "%d", runs[ri].d->nlaunches));
  ROW("hostname", snprintf(buf, sizeof buf, "%s", L->hostname));
  ROW("processor", launch_meta(L, "cpu_model", buf, sizeof buf));
  ROW("launcher", launch_meta(L, "launcher", buf, sizeof buf));
  int any_in_place = 0;
  for (int ri = 0; ri < nruns; ri++) any_in_place |= mg_ck_launch_in_place(&runs[ri].d->launches[0]);
  if (any_in_place)
    ROW("calls", snprintf(buf, sizeof buf, "%s", mg_ck_launch_in_place(L) ? "in place (MPI_IN_PLACE, --in-place)"
                                                                           : "regular (not in place)"));
  int any_pattern = 0; /* point-to-point measured: how (check --pattern) */
  for (int ri = 0; ri < nruns; ri++) any_pattern |= mg_ck_launch_pattern(&runs[ri].d->launches[0]) != NULL;
  if (any_pattern)
    ROW("point-to-point pattern", snprintf(buf, sizeof buf, "%s", mg_ck_launch_pattern(L) ? mg_ck_launch_pattern(L) : "none"));
  int any_sim = 0; /* nodes simulated by MPIGUIDE_NODE_SIZE (the hier family): timings mean nothing */
  for (int ri = 0; ri < nruns; ri++) {
    launch_meta(&runs[ri].d->launches[0], "simulated_node_size", tmp, sizeof tmp);
    any_sim |= tmp[0] != '\0';
  }
  if (any_sim)
    ROW("simulated nodes", launch_meta(L, "simulated_node_size", tmp, sizeof tmp);
        if (tmp[0]) snprintf(buf, sizeof buf, "MPIGUIDE_NODE_SIZE=%s: the hier rows' timings mean nothing", tmp);
        else snprintf(buf, sizeof buf, "none"));
  int any_smpi = 0; /* SimGrid SMPI (bench/meta.c): the times are a model's, say whose and how it matched */
  for (int ri = 0; ri < nruns; ri++) {
    launch_meta(&runs[ri].d->launches[0], "simulated", tmp, sizeof tmp);
    any_smpi |= !strcmp(tmp, "1");
  }
  if (any_smpi) {
    ROW("simulated", launch_meta(L, "simulated", tmp, sizeof tmp); if (strcmp(tmp, "1")) snprintf(buf, sizeof buf, "no: measured");
        else {
          char pl[256], sel[64];
          launch_meta(L, "platform", pl, sizeof pl);
          launch_meta(L, "selector", sel, sizeof sel);
          snprintf(buf, sizeof buf, "yes: SimGrid SMPI, platform %s, selector %s", pl, sel);
        });
    ROW("simulation against measurement", launch_meta(L, "simulated", tmp, sizeof tmp);
        if (strcmp(tmp, "1")) snprintf(buf, sizeof buf, "-");
        else if (launch_meta(L, "sim_trust", buf, sizeof buf), !buf[0]) snprintf(buf, sizeof buf, "not compared on this platform"));
    /* exact verdicts (check.h, mg_ck_verdict.exact): how many, and how many fell back to the statistics */
    ROW("verdicts", int tot, ex, dif, few; mg_ck_exact_counts(R, &tot, &ex, &dif, &few);
        if (!ex && !dif) snprintf(buf, sizeof buf, "statistics (not deterministic: measured, or computation simulated)");
        else snprintf(buf, sizeof buf, "exact (simulated): %d of %d comparisons, the ratio against the margin %g; "
                                       "%d not exact (repetitions that differed, %d of them a root measured "
                                       "once): statistics", ex, tot, R->opts.margin, dif, few));
  }
  int derived = 0; /* a measurement on a derived datatype (bench --datatype): say which */
  for (int ri = 0; ri < nruns; ri++) derived |= runs[ri].d->launches[0].datatype && strchr(runs[ri].d->launches[0].datatype, ':');
  if (derived) ROW("datatype", snprintf(buf, sizeof buf, "%s", L->datatype));
  ROW("sync method", snprintf(buf, sizeof buf, "%s", L->sync));
  ROW("timer", launch_meta(L, "timer", buf, sizeof buf));
  ROW("test", snprintf(buf, sizeof buf, "%s%s", mg_ck_test_desc(R->opts.test),
                       R->opts.holm ? ", Holm-adjusted" : ""));
  ROW("alpha", snprintf(buf, sizeof buf, "%g", R->opts.alpha));
  ROW("noise threshold (one synchronisation)",
      if (L->sync_cost >= 0) mg_rp_us_str(L->sync_cost, buf, sizeof buf); else buf[0] = '\0');
  ROW("date", snprintf(buf, sizeof buf, "%s", L->date));
  ROW("mpiguide version (measurement)", launch_meta(L, "mpiguide_version", buf, sizeof buf));
#undef ROW
  fputs("</table>\n", f);
  time_t now = time(NULL);
  struct tm tmv;
  char when[64] = "";
  if (gmtime_r(&now, &tmv)) strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", &tmv);
  mg_html(f, "<p class=\"note\">Report written by mpiguide %s on %s.</p>\n", MPIGUIDE_VERSION, when);
}

static int cmp_worst(const void *a, const void *b) {
  const mg_ck_verdict *x = *(const mg_ck_verdict *const *)a, *y = *(const mg_ck_verdict *const *)b;
  return (x->slowdown < y->slowdown) - (x->slowdown > y->slowdown);
}

/* The cells stopped by the time budget (#@budget_hit of the launches), with fewer repetitions. */
static void budget_hits(FILE *f, const mg_ck_data *d) {
  int n = 0;
  for (int l = 0; l < d->nlaunches; l++)
    for (int i = 0; i < d->launches[l].meta.n; i++) {
      const mg_ck_kv *kv = &d->launches[l].meta.v[i];
      if (strcmp(kv->key, "budget_hit")) continue;
      fputs(n++ ? ", " : "<p class=\"note\">Stopped by the time budget (fewer repetitions than the rule asked "
                         "for; a larger --budget measures them fully): ", f);
      mg_html(f, "%s", kv->val);
    }
  if (n) fputs("</p>\n", f);
}

static int summary(FILE *f, const mg_rp_run *run, int nruns) {
  mg_ck_summary s;
  mg_ck_summarize(run->r, &s);
  fputs("<h2>Summary", f);
  mg_rp_run_title(f, run, nruns);
  fputs("</h2>\n", f);
  if (s.noise_dominated)
    mg_html(f, "<p class=\"warn\"><b>Noise dominates this run:</b> %d of %d comparisons differ by less than one "
               "synchronisation. The measurements cannot tell which algorithm is faster, so no consistency score "
               "is given. Likely cause: more ranks than cores (oversubscription) or other load on the node. Rerun on "
               "an idle node with at most one rank per core, replicated with <code>check --launches N</code>.</p>\n",
            s.total.noisy, s.total.comparisons);
  fputs("<div class=\"cards\">", f);
  if (s.noise_dominated)
    fputs("<div class=\"card\">consistency score<b>–</b>not given: noise dominates</div>", f);
  else if (isfinite(s.score))
    mg_html(f, "<div class=\"card\">consistency score<b>%.1f / 100</b>over %d of %d sizes; %d without a violation</div>",
            s.score, s.total.cells_judged, s.total.cells, s.total.cells_judged - s.total.cells_violated);
  else fputs("<div class=\"card\">consistency score<b>–</b>no size could be judged</div>", f);
  mg_html(f, "<div class=\"card\">violations<b>%d</b>of %d comparisons: significantly and consistently slower</div>",
          s.total.violations, s.total.comparisons);
  mg_html(f, "<div class=\"card\">consistent<b>%d</b>not slower beyond %g %%</div>", s.total.consistent,
          100 * run->r->opts.margin);
  mg_html(f, "<div class=\"card\">inconclusive<b>%d</b>%d of them within the noise</div>", s.total.inconclusive,
          s.total.noisy);
  fputs("</div>\n", f);
  fputs("<table><tr><th>collective</th><th>comparisons</th><th>violations</th><th>consistent</th><th>inconclusive</th>"
        "<th>sizes</th><th>sizes violated</th></tr>\n",
        f);
  for (int c = 0; c < MG_NCOLL; c++) {
    const mg_ck_coll_summary *p = &s.per[c];
    if (!p->comparisons && !coll_present(run, c)) continue;
    mg_html(f, "<tr><td><a href=\"#%s-%s\">%s</a></td><td class=n>%d</td><td class=n>%d</td><td class=n>%d</td>"
               "<td class=n>%d</td><td class=n>%d</td><td class=n>%d</td></tr>\n",
            mg_colls[c].name, run->anchor, mg_colls[c].name, p->comparisons, p->violations,
            p->consistent, p->inconclusive, p->cells, p->cells_violated);
  }
  mg_html(f, "<tr><th>total</th><th>%d</th><th>%d</th><th>%d</th><th>%d</th><th>%d</th><th>%d</th></tr></table>\n",
          s.total.comparisons, s.total.violations, s.total.consistent, s.total.inconclusive, s.total.cells,
          s.total.cells_violated);
  if (s.skipped || s.errors)
    mg_html(f, "<p class=\"note\">Not compared: %d skipped (mock-up not applicable or failed), %d without a result.</p>\n",
            s.skipped, s.errors);
  if (s.total.cells_unmeasured)
    mg_html(f, "<p class=\"warn\">Not measured: %d size(s) where every measurement was invalid (e.g. --sync window on a "
               "busy node); counted among the sizes, never as clean.</p>\n", s.total.cells_unmeasured);
  budget_hits(f, run->d);

  const mg_ck_verdict **w = malloc(sizeof *w * (size_t)(run->r->n + 1));
  if (!w) return -1;
  int nw = 0;
  for (int i = 0; i < run->r->n; i++)
    if (run->r->v[i].status == MG_CKV_OK && !run->r->v[i].aa && run->r->v[i].violation) w[nw++] = &run->r->v[i];
  qsort(w, (size_t)nw, sizeof *w, cmp_worst);
  fputs("<h3>Worst violations (median of the default / median of the mock-up)</h3>\n", f);
  if (!nw) fputs("<p>No violation.</p>\n", f);
  else {
    fputs("<table><tr><th>#</th><th>slowdown</th><th>95 % interval</th><th>collective</th><th>size</th>"
          "<th>mock-up</th></tr>\n",
          f);
    char b[64], l[128], sr[MG_CK_RED];
    for (int i = 0; i < nw && i < 10; i++) {
      mg_html(f, "<tr><td class=n>%d</td><td class=n>%.2f×</td><td class=n>[%.2f, %.2f]</td><td>%s</td><td class=n>%s %s</td><td>",
              i + 1, w[i]->slowdown, w[i]->lo, w[i]->hi, mg_colls[w[i]->coll].name, mg_rp_bytes_str(w[i]->bytes, b, sizeof b),
              mg_ck_red_short(w[i]->red, sr, sizeof sr));
      mg_html(f, "%s", mg_ck_label(w[i]->coll, w[i]->alg, 0, l, sizeof l));
      fputs("</td></tr>\n", f);
    }
    fputs("</table>\n", f);
  }
  free(w);
  return 0;
}

/* The mock-ups (registry order) of coll that have a verdict in r. */

static int grouped(FILE *f, const mg_rp_run *run, int nruns) {
  mg_ck_group *g;
  int n = mg_ck_grouped(run->r, &g);
  if (n < 0) return -1;
  fputs("<h2>Grouped violations", f);
  mg_rp_run_title(f, run, nruns);
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
    mg_html(f, "<tr><td>%s</td><td class=n>%s</td><td class=n>%ld</td><td class=n>%s</td><td>",
            mg_colls[g[i].coll].name, mg_rp_bytes_str(g[i].bytes, b, sizeof b), g[i].n_def > 0 ? g[i].n_def : 0,
            g[i].comparisons ? mg_rp_us_str(g[i].med_def, t, sizeof t) : "");
    if (v) mg_html(f, "%s", mg_ck_label(g[i].coll, v->alg, 0, l, sizeof l));
    else fputs(g[i].comparisons ? "none" : "not measured (no valid measurement)", f);
    mg_html(f, "</td><td class=n>%s</td><td class=n>", v && isfinite(v->med_mock) ? mg_rp_us_str(v->med_mock, t, sizeof t) : "");
    if (v && !isnan(v->slowdown)) mg_html(f, "%.2f× [%.2f, %.2f]", v->slowdown, v->lo, v->hi);
    fputs("</td><td class=n>", f);
    if (v && isfinite(v->p_adj)) mg_html(f, "%.6g", v->p_adj);
    mg_html(f, "</td><td>%s</td><td class=n>%d / %d</td></tr>\n", v ? mg_ck_flags(v, fl) : "", g[i].violations,
            g[i].comparisons);
  }
  fputs("</table>\n<p class=\"note\">Flags: V violation (significantly slower in every launch, beyond the noise, "
        "interval above 1); C consistent; ? inconclusive; ~ within the noise; L significant, but not slower in "
        "every launch.</p>\n",
        f);
  free(g);
  return 0;
}


static void no_check(FILE *f, const char *h2) {
  mg_html(f, "<h2>%s</h2>\n<div class=\"empty\" data-empty=\"1\"><b>No check data.</b> This report was made from "
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
    mg_html(f, "<tr><td>%s</td>", rows[r].label);
    for (int k = 0; k < nver; k++) {
      if (!strcmp(rows[r].label, "version")) {
        mg_rp_version_cell(f, mg_ck_meta_get(&ver[k].raw_meta, rows[r].key));
        continue;
      }
      if (rows[r].key) mg_rp_verify_meta(&ver[k], rows[r].key, buf, sizeof buf);
      else if (!strcmp(rows[r].label, "processes")) snprintf(buf, sizeof buf, "%d", ver[k].nprocs);
      else if (!strcmp(rows[r].label, "profile")) snprintf(buf, sizeof buf, "%s", ver[k].profile);
      else if (isfinite(ver[k].alpha)) snprintf(buf, sizeof buf, "%g", ver[k].alpha);
      else buf[0] = '\0';
      fputs("<td>", f);
      mg_html(f, "%s", buf[0] ? buf : "unknown");
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

static int write_page(FILE *f, const mg_rp_run *runs, int nruns, const mg_rp_verify *ver, int nver);

int mg_rp_write_ex(FILE *f, const mg_rp_run *given, int nruns, const mg_rp_verify *ver, int nver) {
  if (nruns < 0 || nver < 0 || nruns + nver < 1 || (nver && !ver)) return -1;
  for (int ri = 0; ri < nruns; ri++)
    if (!given[ri].d || !given[ri].r || given[ri].d->nlaunches < 1) return -1;
  mg_rp_run *runs = malloc(sizeof *runs * (size_t)(nruns + 1));
  if (!runs) return -1;
  if (nruns) memcpy(runs, given, sizeof *runs * (size_t)nruns), label_runs(runs, nruns);
  int rc = write_page(f, runs, nruns, ver, nver);
  free(runs);
  return rc;
}

/* The page's title: the MPI library, or with several configurations every one compared, each once, in
 * run order ("Open MPI 4.1.4 vs MPICH 4.0.2"; with the layout where the runs differ in it, "· 2 × 2"). */
static void page_name(const mg_rp_run *runs, int nruns, char *name, size_t len) {
  int lay = 0, lib = 0;
  const mg_ck_launch *a = &runs[0].d->launches[0];
  for (int ri = 1; ri < nruns; ri++) {
    const mg_ck_launch *b = &runs[ri].d->launches[0];
    lib |= strcmp(a->mpi_name, b->mpi_name) || strcmp(a->mpi_version, b->mpi_version);
    lay |= a->nnodes != b->nnodes || a->nprocs != b->nprocs;
  }
  size_t u = 0;
  name[0] = '\0';
  for (int ri = 0; ri < nruns && u + 1 < len; ri++) {
    const mg_ck_launch *L = &runs[ri].d->launches[0];
    char one[160], ver[32] = "";
    if (lib) version_number(L->mpi_version, ver, sizeof ver);
    size_t o = (size_t)snprintf(one, sizeof one, "%s%s%s", *L->mpi_name ? L->mpi_name : "unknown MPI", *ver ? " " : "", ver);
    if (lay && o < sizeof one) {
      if (L->nnodes > 0) snprintf(one + o, sizeof one - o, " · %d × %d", L->nnodes, L->nprocs / L->nnodes);
      else snprintf(one + o, sizeof one - o, " · %d procs", L->nprocs);
    }
    int seen = 0; /* each configuration once (two process counts of one library and layout) */
    for (const char *p = name; !seen && (p = strstr(p, one)); p++)
      seen = (p == name || (p - name >= 4 && !strncmp(p - 4, " vs ", 4))) && (!p[strlen(one)] || !strncmp(p + strlen(one), " vs ", 4));
    if (!seen) u += (size_t)snprintf(name + u, len - u, "%s%s", u ? " vs " : "", one);
  }
}

static int write_page(FILE *f, const mg_rp_run *runs, int nruns, const mg_rp_verify *ver, int nver) {
  char name[512] = "";
  if (nruns) page_name(runs, nruns, name, sizeof name);
  else mg_rp_verify_meta(&ver[0], "mpi_library_name", name, sizeof name);
  fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>mpiguide report: ",
        f);
  mg_html(f, "%s", name);
  fputs("</title>\n<style>\n", f);
  mg_html_markup(f, css);
  fputs("</style>\n</head>\n<body>\n<h1>mpiguide report: ", f);
  mg_html(f, "%s", name[0] ? name : "MPI library");
  fputs(" — self-consistent performance guidelines</h1>\n", f);
  fputs("<p class=\"note\">Does the MPI library's own collective (the <i>default</i>) run slower than a mock-up "
        "built from other MPI calls? Each comparison is a <i>violation</i> (significantly and consistently slower, "
        "beyond the noise), <i>consistent</i> (shown not slower beyond the margin) or <i>inconclusive</i>.</p>\n",
        f);
  if (nruns) metadata(f, runs, nruns);
  else verify_metadata(f, ver, nver);
  if (nruns > 1 && compare(f, runs, nruns)) return -1;
  mg_rp_campaign_sections(f, runs, nruns);
  for (int ri = 0; ri < nruns; ri++)
    if (summary(f, &runs[ri], nruns)) return -1;
  if (!nruns) no_check(f, "Summary");
  if (nruns) mg_rp_heatmap(f, runs, nruns);
  else no_check(f, "Heat map of violations");
  for (int ri = 0; ri < nruns; ri++) {
    /* one panel per family when the run measured more than the compositions */
    unsigned fams = families_of(&runs[ri]);
    for (int fam = fams > 1u ? 0 : -1; fam < (fams > 1u ? MG_NFAM : 0); fam++) {
      if (fam >= 0 && !(fams & (1u << fam))) continue;
      fputs("<h2>Relative runtime per collective", f);
      if (fam >= 0) mg_html(f, ": %s family", mg_families[fam].name);
      mg_rp_run_title(f, &runs[ri], nruns);
      fputs("</h2>\n", f);
      if (fam >= 0) {
        fputs("<p class=\"note\">", f);
        mg_html(f, "%s", mg_families[fam].source);
        fputs("</p>\n", f);
      }
      mg_rp_plot_key(f);
      fputs("<div class=\"plots\">\n", f);
      for (int c = 0; c < MG_NCOLL; c++)
        if (coll_present(&runs[ri], c)) mg_rp_plot(f, &runs[ri], c, nruns, fam);
      fputs("</div>\n", f);
    }
  }
  for (int ri = 0; ri < nruns; ri++) { /* latency against size where a split row was measured (TGT 2010 Fig. 1) */
    int any = 0;
    for (int c = 0; c < MG_NCOLL; c++) any |= mg_rp_has_split(runs[ri].r, c);
    if (!any) continue;
    mg_html(f, "<h2 id=\"lat-%s\">Latency against message size", runs[ri].anchor);
    mg_rp_run_title(f, &runs[ri], nruns);
    fputs("</h2>\n", f);
    mg_rp_latency_key(f);
    fputs("<div class=\"plots\">\n", f);
    for (int c = 0; c < MG_NCOLL; c++)
      if (mg_rp_has_split(runs[ri].r, c)) mg_rp_latency_plot(f, &runs[ri], c, nruns);
    fputs("</div>\n", f);
  }
  for (int ri = 0; ri < nruns; ri++) mg_rp_libvar_section(f, &runs[ri], nruns);
  for (int ri = 0; ri < nruns; ri++) mg_rp_p2p_table(f, &runs[ri], nruns);
  for (int ri = 0; ri < nruns; ri++) mg_rp_rerank_table(f, &runs[ri], nruns);
  for (int ri = 0; ri < nruns; ri++) mg_rp_pack_table(f, &runs[ri], nruns);
  for (int ri = 0; ri < nruns; ri++) mg_rp_overlap_verdicts(f, &runs[ri], nruns);
  if (!nruns) no_check(f, "Relative runtime per collective");
  /* default vs tuned (report.h): only with a verify result; nothing is shown without one. */
  if (nver) mg_rp_verify_section(f, ver, nver);
  for (int ri = 0; ri < nruns; ri++)
    if (grouped(f, &runs[ri], nruns)) return -1;
  if (!nruns) no_check(f, "Grouped violations");
  if (nruns) mg_rp_next(f, runs, nruns);
  fputs("</body>\n</html>\n", f);
  return ferror(f) ? -1 : 0;
}

int mg_rp_write_file(const char *path, const mg_rp_run *runs, int nruns, char *err, size_t errlen) {
  return mg_rp_write_file_ex(path, runs, nruns, NULL, 0, err, errlen);
}

int mg_rp_write_file_ex(const char *path, const mg_rp_run *runs, int nruns, const mg_rp_verify *ver, int nver,
                        char *err, size_t errlen) {
  mg_outfile o; /* a temporary next to path, renamed when complete: never a half-written page */
  char e[1100];
  if (mg_outfile_open(&o, path, e, sizeof e))
    return MG_ERR("%s (the report goes into an existing directory you can write to)", e);
  if (mg_rp_write_ex(o.f, runs, nruns, ver, nver)) {
    int en = errno;
    mg_outfile_discard(&o);
    return MG_ERR("cannot write the report '%s'%s%s", path, en ? ": " : "", en ? strerror(en) : "");
  }
  if (mg_outfile_commit(&o, e, sizeof e)) return MG_ERR("the report: %s", e);
  return 0;
}
