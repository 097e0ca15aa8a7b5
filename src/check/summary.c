/*
 * The summary of a check (summary.txt, and the end of the terminal output):
 * the run's settings, the three verdicts counted per collective, the worst
 * violations, the consistency score over the sizes the data could judge, and
 * — when the synchronisation noise dominates the run — a warning that says so
 * in place of a score that would read as "perfect" (docs/check.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/reader.h"
#include "util/fmt.h"

static int cmp_worst(const void *a, const void *b) {
  const mg_ck_verdict *x = *(const mg_ck_verdict *const *)a, *y = *(const mg_ck_verdict *const *)b;
  double sx = isfinite(x->slowdown) ? x->slowdown : 1e300, sy = isfinite(y->slowdown) ? y->slowdown : 1e300;
  if (sx != sy) return sx < sy ? 1 : -1;
  if (x->coll != y->coll) return (int)x->coll - (int)y->coll;
  if (x->bytes != y->bytes) return x->bytes < y->bytes ? -1 : 1;
  int c = strcmp(x->red, y->red);
  return c ? c : strcmp(x->alg, y->alg);
}

/* The synchronisation cost of the launches, min and max (max < 0: unknown). */
static void sync_range(const mg_ck_data *d, double *smin, double *smax) {
  *smin = INFINITY, *smax = -1;
  for (int i = 0; i < d->nlaunches; i++)
    if (d->launches[i].sync_cost >= 0) {
      if (d->launches[i].sync_cost < *smin) *smin = d->launches[i].sync_cost;
      if (d->launches[i].sync_cost > *smax) *smax = d->launches[i].sync_cost;
    }
}

static void print_settings(FILE *f, const mg_ck_data *d, const mg_ck_result *r) {
  const mg_ck_launch *L = &d->launches[0];
  double smin, smax;
  sync_range(d, &smin, &smax);
  fprintf(f, "Summary: %s", *L->mpi_name ? L->mpi_name : "MPI library unknown");
  const char *sim = mg_ck_meta_get(&L->meta, "simulated"); /* SimGrid SMPI (bench/meta.c, docs/scale.md) */
  if (sim && !strcmp(sim, "1")) {
    const char *pl = mg_ck_meta_get(&L->meta, "platform"), *sel = mg_ck_meta_get(&L->meta, "selector");
    fprintf(f, " (simulated: %s, selector %s)", pl ? pl : "?", sel ? sel : "?");
  }
  fprintf(f, ", %d processes", L->nprocs);
  if (L->nnodes > 0) fprintf(f, " on %d node(s)", L->nnodes);
  if (d->nlaunches > 1)
    fprintf(f, ", %d launches (launch-to-launch variation covered)\n", d->nlaunches);
  else
    fprintf(f, ", 1 launch (launch-to-launch variation not covered: check --launches N)\n");
  if (sim && !strcmp(sim, "1")) { /* sim.sh records the comparison with measured runs, where one exists */
    const char *tr = mg_ck_meta_get(&L->meta, "sim_trust");
    fprintf(f, "simulated: SimGrid SMPI's model times, not measurements; against measured runs: %s\n",
            tr && *tr ? tr : "not compared on this platform (docs/scale.md)");
  }
  if (mg_ck_launch_in_place(L))
    fprintf(f, "calls: in place (MPI_IN_PLACE, --in-place; bcast and barrier as usual)\n");
  if (mg_ck_launch_pattern(L)) /* the launches agree (mg_ck_config_diff) */
    fprintf(f, "point-to-point pattern: %s (--pattern; docs/bench.md)\n", mg_ck_launch_pattern(L));
  if (L->datatype && strchr(L->datatype, ':')) { /* a derived datatype (bench --datatype): its data and extent */
    const char *sz = mg_ck_meta_get(&L->meta, "datatype_size"), *ext = mg_ck_meta_get(&L->meta, "datatype_extent");
    fprintf(f, "datatype: %s (%s bytes of data every %s bytes; sizes are bytes of data)\n", L->datatype, sz ? sz : "?",
            ext ? ext : "?");
  }
  double mult = mg_ck_result_mult(r);
  int total, exact, differ, few;
  mg_ck_exact_counts(r, &total, &exact, &differ, &few);
  if (!total || exact < total) /* every comparison exact: no interval decided anything */
    fprintf(f, "decision: the slowdown's bootstrap interval, each end at alpha %g / %.0f (%d comparisons%s x %d "
               "look%s%s):\n  violation: above 1; consistent: below 1 + margin; the %s test is reported beside, not "
               "decisive\n",
            r->opts.alpha, mult, r->family, r->opts.holm ? "" : " not adjusted for", r->looks,
            r->looks == 1 ? "" : "s", r->looks > 1 ? " of --stop-rule decided" : "", mg_ck_test_name(r->opts.test));
  if (r->rel_family) fprintf(f, "          (%d of the comparisons reverse, e.g. TGT 2010 eq. 5)\n", r->rel_family);
  mg_ck_print_exact(f, r, "");
  mg_ck_span_info sp;
  mg_ck_span_summary(r, &sp);
  if (d->nlaunches <= 1)
    fprintf(f, "replication over time: none (1 launch): every verdict rests on one moment (flag S on "
               "violations);\n  check --launches N spreads N launches over --min-span %.0f s\n",
            r->opts.min_span);
  else if (sp.unknown || isnan(sp.max))
    fprintf(f, "replication over time: unknown (a launch has no #@date): violations flagged S\n");
  else {
    char range[64];
    if (sp.min == sp.max) snprintf(range, sizeof range, "%.0f s", sp.max);
    else snprintf(range, sizeof range, "%.0f-%.0f s", sp.min, sp.max);
    fprintf(f, "replication over time: the launches compared span %s%s;\n  %d of %d violations rest on less than "
               "--min-span %.0f s (flagged S)\n", range, sp.max < 10 ? " (decided within seconds)" : "",
            sp.short_violations, sp.violations, r->opts.min_span);
  }
  if (r->opts.noise > 0)
    fprintf(f, "noise threshold: %.2f us (given)\n", 1e6 * r->opts.noise);
  else if (smax >= 0 && smin == smax && d->nlaunches == 1 && d->launches[0].sync_skew >= 0)
    fprintf(f, "noise threshold: %.2f us (the larger of one synchronisation and the spread of the ranks' exits "
               "from it, %.2f us)\n", 1e6 * smax, 1e6 * d->launches[0].sync_skew);
  else if (smax >= 0 && smin == smax)
    fprintf(f, "noise threshold: one synchronisation = %.2f us\n", 1e6 * smax);
  else if (smax >= 0)
    fprintf(f, "noise threshold: one synchronisation = %.2f..%.2f us (per launch)\n", 1e6 * smin, 1e6 * smax);
  else
    fprintf(f, "noise threshold: unknown (no #@sync_cost_sec): no noise warnings\n");
  fprintf(f, "consistent: the default not slower than a mock-up by more than %g %%\n", 100 * r->opts.margin);
  for (int i = 0; i < d->nlaunches; i++) {
    const char *why = mg_ck_meta_get(&d->launches[i].meta, "check_incomplete");
    if (why) fprintf(f, "PARTIAL RUN: launch '%s' was not completed (%s)\n", d->launches[i].id, why);
  }
}

static void print_counts(FILE *f, const mg_ck_summary *s, int p2p) {
  fprintf(f, "\n%-22s %11s %10s %10s %12s %6s %8s\n", p2p ? "operation" : "collective", "comparisons", "violations",
          "consistent", "inconclusive", "sizes", "violated");
  for (int c = 0; c <= MG_NCOLL; c++) {
    const mg_ck_coll_summary *p = c < MG_NCOLL ? &s->per[c] : &s->total;
    if (c < MG_NCOLL && !p->comparisons) continue;
    fprintf(f, "%-22s %11d %10d %10d %12d %6d %8d\n", c < MG_NCOLL ? mg_colls[c].name : "total", p->comparisons,
            p->violations, p->consistent, p->inconclusive, p->cells, p->cells_violated);
  }
  fprintf(f, "violations: the slowdown interval above 1, the default slower in every launch, beyond the noise;\n"
             "consistent: shown not slower beyond the margin; inconclusive: neither shown");
  if (s->total.noisy) fprintf(f, " (%d within the noise)", s->total.noisy);
  fprintf(f, "\n");
  if (s->total.cells_unmeasured)
    fprintf(f, "sizes not measured: %d (every measurement there invalid, e.g. --sync window on a busy node):"
               " counted among the sizes, never as clean\n", s->total.cells_unmeasured);
  if (s->skipped || s->errors)
    fprintf(f,
            "not compared: %d skipped (mock-up not applicable or failed), %d without a result\n"
            "  (verdicts.csv says why)\n",
            s->skipped, s->errors);
}

/* #@budget_hit lines of the launches: cells stopped by their time limit, with fewer repetitions
 * than the repetition rule asked for. Named as the tables name cells ("allreduce 64K double:sum"),
 * not as the file's key ("allreduce:MPI_DOUBLE:MPI_SUM,65536"). */
static void print_budget_hits(FILE *f, const mg_ck_data *d) {
  int n = 0;
  for (int l = 0; l < d->nlaunches; l++) {
    const mg_ck_meta *m = &d->launches[l].meta;
    for (int i = 0; i < m->n; i++) {
      if (strcmp(m->v[i].key, "budget_hit")) continue;
      if (!n++) fprintf(f, "stopped by the time budget (fewer repetitions than --rse asked for):");
      if (n > 12) continue;
      char name[256], red[MG_CK_RED] = "", sr[MG_CK_RED], sz[32];
      snprintf(name, sizeof name, "%s", m->v[i].val);
      char *comma = strrchr(name, ',');
      size_t bytes;
      int c = comma ? (*comma = '\0', mg_ck_block_name(name, m, red)) : -1;
      if (c < 0 || mg_ck_parse_size(comma + 1, &bytes)) { /* not ours: as it stands */
        fprintf(f, "%s %s", n > 1 ? "," : "", m->v[i].val);
        continue;
      }
      mg_fmt_bytes(bytes, MG_BYTES_EXACT, sz, sizeof sz);
      fprintf(f, "%s %s %s%s%s", n > 1 ? "," : "", mg_colls[c].name, sz, *red && mg_colls[c].reduction ? " " : "",
              *red && mg_colls[c].reduction ? mg_ck_red_short(red, sr, sizeof sr) : "");
    }
  }
  if (n > 12) fprintf(f, " and %d more", n - 12);
  if (n) fprintf(f, "\n  (a larger --budget, or none, measures them fully)\n");
}

static void print_worst(FILE *f, const mg_ck_result *r) {
  const mg_ck_verdict **w = malloc((size_t)(r->n ? r->n : 1) * sizeof *w);
  int nw = 0;
  for (int i = 0; w && i < r->n; i++)
    if (r->v[i].status == MG_CKV_OK && !r->v[i].aa && r->v[i].violation) w[nw++] = &r->v[i];
  if (w && nw) {
    qsort(w, (size_t)nw, sizeof *w, cmp_worst);
    fprintf(f, "\nworst violations (slowdown = default / mock-up, medians, and its interval):\n");
    for (int i = 0; i < nw && i < 10; i++) {
      char sz[32], lab[128], ci[48] = "", red[MG_CK_RED + 1] = "", roots[48] = "";
      mg_fmt_bytes(w[i]->bytes, MG_BYTES_EXACT, sz, sizeof sz);
      mg_ck_label(w[i]->coll, w[i]->alg, 0, lab, sizeof lab);
      if (isfinite(w[i]->lo)) snprintf(ci, sizeof ci, " [%.2f, %.2f]", w[i]->lo, w[i]->hi);
      if (*w[i]->red) red[0] = ' ', mg_ck_red_short(w[i]->red, red + 1, sizeof red - 1);
      if (w[i]->roots >= 2) snprintf(roots, sizeof roots, "  (at each of %d roots, >= %.2fx)", w[i]->roots, w[i]->root_worst);
      fprintf(f, "%3d. %5.2fx%s  %s %s%s  %s%s\n", i + 1, w[i]->slowdown, ci, mg_colls[w[i]->coll].name, sz, red,
              lab, roots);
    }
  }
  free(w);
}

static void print_score(FILE *f, const mg_ck_data *d, const mg_ck_summary *s) {
  if (s->noise_dominated) {
    double smin, smax;
    sync_range(d, &smin, &smax);
    fprintf(f,
            "\n*** NOISE DOMINATES THIS RUN: %d of %d comparisons differ by less than one synchronisation"
            " (%.0f us). ***\n"
            "The measurements cannot tell which algorithm is faster, so no consistency score is given.\n"
            "Likely cause: more ranks than cores (oversubscription), or other load on the node.\n"
            "What to do: rerun on an idle node with at most one rank per core, with --launches N.\n",
            s->total.noisy, s->total.comparisons, smax >= 0 ? 1e6 * smax : 0.0);
    fprintf(f, "\nconsistency score: not given (noise dominates)\n");
    return;
  }
  fprintf(f, "\nconsistency score: ");
  if (isfinite(s->score))
    fprintf(f, "%.1f / 100  over %d of %d sizes (%d of them without a violation)", s->score, s->total.cells_judged,
            s->total.cells, s->total.cells_judged - s->total.cells_violated);
  if (isfinite(s->score)) {
    int inconclusive = s->total.cells - s->total.cells_judged - s->total.cells_unmeasured;
    if (inconclusive) fprintf(f, "; %d inconclusive", inconclusive);
    if (s->total.cells_unmeasured) fprintf(f, "; %d not measured", s->total.cells_unmeasured);
    fputc('\n', f);
  }
  else
    fprintf(f, "- (no size could be judged: every comparison is inconclusive)\n");
  fprintf(f, "  = 100 x mean over the judged sizes of median(fastest violating mock-up) / median(default),\n"
             "    1 for a size without a violation; a size is judged when it has a violation or when\n"
             "    every comparison at it is conclusive\n");
}

/* Monotony (check.h): how many (algorithm, size) pairs were compared, the non-monotone ones, the
 * worst first. */
static void print_monotony(FILE *f, const mg_ck_result *r) {
  int ok = 0, nv = 0, incl = 0;
  const mg_ck_verdict **w = malloc((size_t)(r->nmono ? r->nmono : 1) * sizeof *w);
  for (int i = 0; w && i < r->nmono; i++) {
    const mg_ck_verdict *v = &r->mono[i];
    if (v->status != MG_CKV_OK) continue;
    ok++;
    incl += v->outcome == MG_CK_INCONCLUSIVE;
    if (v->violation) w[nv++] = v;
  }
  if (!ok) {
    free(w);
    return;
  }
  fprintf(f, "\nmonotony (A(n) not slower than a larger size, per algorithm; adjusted for %d comparisons):\n"
             "  %d non-monotone, %d shown monotone, %d inconclusive\n", r->mono_family, nv, ok - nv - incl, incl);
  if (nv) {
    qsort(w, (size_t)nv, sizeof *w, cmp_worst);
    for (int i = 0; i < nv && i < 10; i++) {
      char sz[32], sz2[32], lab[128], ci[48] = "", red[MG_CK_RED + 1] = "";
      mg_fmt_bytes(w[i]->bytes, MG_BYTES_EXACT, sz, sizeof sz);
      mg_fmt_bytes(w[i]->bytes_next, MG_BYTES_EXACT, sz2, sizeof sz2);
      if (strcmp(w[i]->alg, "default"))
        mg_ck_label(w[i]->coll, w[i]->alg, 0, lab, sizeof lab);
      else
        snprintf(lab, sizeof lab, "default");
      if (isfinite(w[i]->lo)) snprintf(ci, sizeof ci, " [%.2f, %.2f]", w[i]->lo, w[i]->hi);
      if (*w[i]->red) red[0] = ' ', mg_ck_red_short(w[i]->red, red + 1, sizeof red - 1);
      fprintf(f, "%3d. %5.2fx%s  %s %s%s  %s: slower than at %s\n", i + 1, w[i]->slowdown, ci,
              mg_colls[w[i]->coll].name, sz, red, lab, sz2);
    }
    if (nv > 10) fprintf(f, "  and %d more (monotony.csv)\n", nv - 10);
  }
  free(w);
}

void mg_ck_print_summary(FILE *f, const mg_ck_data *d, const mg_ck_result *r) {
  mg_ck_summary s;
  mg_ck_summarize(r, &s);
  print_settings(f, d, r);
  print_counts(f, &s, mg_ck_any_p2p(r));
  print_budget_hits(f, d);
  print_worst(f, r);
  print_score(f, d, &s);
  mg_ck_print_p2p(f, r);
  mg_ck_print_rerank(f, r);
  mg_ck_print_pack(f, r);
  mg_ck_print_overlap(f, r);
  print_monotony(f, r);
  mg_ck_print_libvariants(f, r);
  if (s.aa)
    fprintf(f, "A/A control: %d of %d default-vs-default comparisons flagged\n  (expected: %s)\n",
            s.aa_flagged, s.aa,
            r->opts.holm ? "none, up to probability alpha (adjusted)" : "at most a share alpha of them");
}
