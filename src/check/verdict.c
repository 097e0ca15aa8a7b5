/*
 * The verdicts' vocabulary and their counts (check.h, docs/check.md): the names of the tests,
 * outcomes and relations, the rows read both ways (mg_ck_relations), the default options, a
 * verdict's flag letters, the comparers' names and a mock-up's label; freeing a result, the counts
 * per collective with the consistency score (mg_ck_summarize), the fastest violating mock-up per
 * cell (mg_ck_grouped). The verdicts themselves are made in analyze.c.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "stats/stats.h"

/* The names and descriptions of the X(ENUM, name, description) lists of check.h, in enum order. */
#define NAME(E, n, d) n,
#define DESC(E, n, d) d,
static const char *const test_names[MG_CK_NTESTS] = {MG_CK_TESTS(NAME)};
static const char *const test_descs[MG_CK_NTESTS] = {MG_CK_TESTS(DESC)};

const char *mg_ck_test_name(mg_ck_test t) { return t < MG_CK_NTESTS ? test_names[t] : "?"; }
const char *mg_ck_test_desc(mg_ck_test t) { return t < MG_CK_NTESTS ? test_descs[t] : "?"; }
int mg_ck_test_find(const char *name) {
  for (int i = 0; i < MG_CK_NTESTS; i++)
    if (!strcmp(name, test_names[i])) return i;
  return -1;
}

static const char *const outcome_names[MG_CK_NOUTCOMES] = {MG_CK_OUTCOMES(NAME)};

const char *mg_ck_outcome_name(mg_ck_outcome o) { return o < MG_CK_NOUTCOMES ? outcome_names[o] : "?"; }

static const char *const relation_names[MG_CK_NRELATIONS] = {MG_CK_RELATIONS(NAME)};

const char *mg_ck_relation_name(int rel) { return rel >= 0 && rel < MG_CK_NRELATIONS ? relation_names[rel] : "?"; }

/* TGT 2010 §IV: eq. (6) Send <= Isend + Wait is the row send_as_isend_wait; eq. (5) states the
 * reverse and eq. (7) both, on the same measurements. */
const mg_ck_relation_rows mg_ck_relations[] = {
    {MG_SEND, "send_as_isend_wait", "TGT5", "Isend(n) + Wait <= Send(n)",
     "verdict only: a non-blocking send cannot be replaced by a blocking one", "TGT7", "Send(n) ~ Isend(n) + Wait"},
    /* TGT 2010 §VII states the one-sided equation both ways: Send(n) ~ Win_fence + Put(n) + Win_fence */
    {MG_SEND, "send_as_rma_put", "TGT-O3r", "Win_fence + Put(n) + Win_fence <= Send(n)",
     "verdict only: one-sided communication is not slower than a send", "TGT-O3e",
     "Send(n) ~ Win_fence + Put(n) + Win_fence"},
    /* TGT 2010 eq. 37: the reordered topology is the left side; the row's own direction is no guideline */
    {MG_SENDRECV, "sendrecv_as_cart_reorder", "TGT37", "Sendrecv{cart,reorder} <= Sendrecv{cart}",
     "a violation: the library's reordering made the neighbour exchange slower", "TGT37e",
     "Sendrecv{cart,reorder} ~ Sendrecv{cart}"},
};
const int mg_ck_nrelations = (int)(sizeof mg_ck_relations / sizeof mg_ck_relations[0]);

/* The persistent family (src/algs/persistent.c, issue 48), one row per blocking collective: the row
 * states <Coll>(n) <= Start + Wait, the reverse is the guideline "persistence must not cost". */
#define MG_X(E, nm, mpi, r, red, k, s)                                                                 \
  {MG_##E, #nm "_as_persistent", "PERS-R", mpi "_init once, then MPI_Start + MPI_Wait <= " mpi "(n)",  \
   "verdict only: persistence must not cost (the persistent request is no repair libmpiguide can run)", \
   "PERS-E", mpi "(n) ~ " mpi "_init once, then MPI_Start + MPI_Wait"},
static const mg_ck_relation_rows persistent_relations[MG_NCOLLECTIVES] = {MG_COLLECTIVES(MG_X)};
#undef MG_X

const mg_ck_relation_rows *mg_ck_relation_of(mg_coll coll, const char *alg) {
  for (int i = 0; i < mg_ck_nrelations; i++)
    if (mg_ck_relations[i].coll == coll && !strcmp(mg_ck_relations[i].alg, alg)) return &mg_ck_relations[i];
  int a = (int)coll < MG_NCOLLECTIVES ? mg_alg_find(coll, alg) : -1;
  return a > 0 && mg_colls[coll].algs[a].family == MG_FAM_PERSISTENT ? &persistent_relations[coll] : NULL;
}

void mg_ck_opts_default(mg_ck_opts *o) {
  memset(o, 0, sizeof *o);
  o->test = MG_CK_MWU;
  o->alpha = 0.05;
  o->holm = 1;
  o->level = 0.95;
  o->resamples = 1000;
  o->seed = 1;
  o->margin = 0.05;
  o->min_span = MG_CK_MIN_SPAN;
}

/* One rule for every comparison (docs/statistics.md, "One decision per line"): the interval printed
 * beside a verdict is the one it was decided on. Both ends at one-sided alpha / mult on the bootstrap's
 * log scale (mg_stats_ratio_interval), so over a family of k comparisons each read at up to J looks
 * (mult = k J) a false violation anywhere has probability <= alpha (Bonferroni: any dependence), and
 * likewise a false consistent; the launch, root and noise guards can only withhold a violation. */
void mg_ck_decide(mg_ck_verdict *v, double alpha, double mult, double margin) {
  v->mult = mult;
  if (v->exact) { /* deterministic times (check.h): the ratio against the margin, no test, no noise */
    v->lo = v->hi = v->slowdown;
    v->significant = v->slowdown > 1 + margin;
    v->p_adj = v->significant ? 0 : 1; /* certain either way: no sampling to err by */
    v->leaning = v->significant && v->launches_slower == v->launches && v->roots_slower == v->roots;
    v->outcome = v->leaning                   ? MG_CK_VIOLATION
                 : v->slowdown <= 1 + margin ? MG_CK_CONSISTENT
                                             : MG_CK_INCONCLUSIVE; /* beyond the margin at some roots only */
    v->violation = v->outcome == MG_CK_VIOLATION;
    return;
  }
  double lo = NAN, hi = NAN, p = 1;
  int enough = v->n_def >= MG_CK_MIN_VALUES && v->n_mock >= MG_CK_MIN_VALUES;
  if (!enough || !(mult >= 1) ||
      mg_stats_ratio_interval(v->slowdown, &v->spread, alpha / mult, &lo, &hi, &p) != MG_STATS_OK)
    lo = hi = NAN, p = 1;
  v->lo = lo, v->hi = hi;
  v->p_adj = mult * p < 1 ? mult * p : 1;
  v->significant = lo > 1;
  /* the default's median must also be above the mock-up's in every launch (with one launch: the
   * pooled medians), so one launch cannot make a violation, and at every root measured, so a gain
   * at root 0 alone is no violation for the calls of an application that rotates its root */
  v->leaning = v->significant && v->launches_slower == v->launches && v->roots_slower == v->roots;
  if (v->leaning && !v->noise) v->outcome = MG_CK_VIOLATION;
  else if (hi <= 1 + margin) v->outcome = MG_CK_CONSISTENT;
  else v->outcome = MG_CK_INCONCLUSIVE;
  v->violation = v->outcome == MG_CK_VIOLATION;
}

void mg_ck_exact_counts(const mg_ck_result *r, int *total, int *exact, int *differ, int *few) {
  *total = *exact = *differ = *few = 0;
  for (int i = 0; i < r->n; i++) {
    const mg_ck_verdict *v = &r->v[i];
    if (v->status != MG_CKV_OK || v->aa) continue;
    ++*total;
    *exact += v->exact;
    *differ += v->exact_differ != 0;
    *few += v->exact_differ == MG_CK_EXACT_FEW;
  }
}

void mg_ck_print_exact(FILE *f, const mg_ck_result *r, const char *indent) {
  int total, exact, differ, few;
  mg_ck_exact_counts(r, &total, &exact, &differ, &few);
  if (exact)
    fprintf(f, "%sexact (simulated): %d of %d comparisons on a deterministic platform, every repetition of both "
               "sides identical:\n%s  the ratio of the times against the margin (violation above %g, consistent at "
               "or below), no test, no noise threshold\n",
            indent, exact, total, indent, 1 + r->opts.margin);
  if (differ - few)
    fprintf(f, "%snot exact: %d of %d comparisons simulated without computation, but their repetitions differed: "
               "decided by the statistics\n",
            indent, differ - few, total);
  if (few)
    fprintf(f, "%snot exact: %d of %d comparisons simulated without computation with a root measured once: "
               "decided by the statistics (2 repetitions per root make them exact)\n",
            indent, few, total);
}

double mg_ck_launch_wait(double elapsed, int k, int n, double min_span) {
  if (k <= 1 || n <= 1 || !(min_span > 0) || !(elapsed >= 0)) return 0;
  double due = min_span * (double)(k - 1) / (double)(n - 1);
  return due > elapsed ? due - elapsed : 0;
}

double mg_ck_result_mult(const mg_ck_result *r) {
  return (double)(r->opts.holm && r->family > 0 ? r->family : 1) * (r->looks > 0 ? r->looks : 1);
}

void mg_ck_span_summary(const mg_ck_result *r, mg_ck_span_info *s) {
  memset(s, 0, sizeof *s);
  s->min = s->max = NAN;
  for (int i = 0; i < r->n; i++) {
    const mg_ck_verdict *v = &r->v[i];
    if (v->status != MG_CKV_OK || v->aa) continue;
    if (isnan(v->span)) s->unknown++;
    else {
      if (!(v->span >= s->min)) s->min = v->span;
      if (!(v->span <= s->max)) s->max = v->span;
    }
    s->violations += v->violation;
    s->short_violations += v->violation && v->short_span;
  }
}

double mg_ck_level_pct(double alpha, double mult) { return 100 * (1 - 2 * alpha / (mult >= 1 ? mult : 1)); }

const char *mg_ck_flags(const mg_ck_verdict *v, char *buf) {
  static const char outcome_flag[MG_CK_NOUTCOMES] = {
      [MG_CK_VIOLATION] = MG_CK_FLAG_VIOLATION,
      [MG_CK_CONSISTENT] = MG_CK_FLAG_CONSISTENT,
      [MG_CK_INCONCLUSIVE] = MG_CK_FLAG_INCONCLUSIVE,
  };
  int k = 0;
  if (v->status == MG_CKV_OK) {
    buf[k++] = outcome_flag[v->outcome];
    if (v->significant && v->launches_slower != v->launches) buf[k++] = MG_CK_FLAG_LAUNCHES;
    if (v->significant && v->roots_slower != v->roots) buf[k++] = MG_CK_FLAG_ROOTS;
    if (v->noise) buf[k++] = MG_CK_FLAG_NOISE;
    if (v->measure_only) buf[k++] = MG_CK_FLAG_MEASURE;
    if (v->violation && v->short_span) buf[k++] = MG_CK_FLAG_SPAN;
  }
  buf[k] = '\0';
  return buf;
}

void mg_ck_result_free(mg_ck_result *r) {
  free(r->v);
  free(r->mono);
  free(r->rel);
  free(r->lib);
  free(r->kinds);
  free(r->pack);
  free(r->ovl);
  r->v = r->mono = r->rel = r->lib = r->pack = r->ovl = NULL;
  r->kinds = NULL;
  r->n = r->nmono = r->nrel = r->nlib = r->nkinds = r->npack = r->novl = 0;
}

void mg_ck_summarize(const mg_ck_result *r, mg_ck_summary *s) {
  memset(s, 0, sizeof *s);
  int i = 0;
  while (i < r->n) { /* one cell at a time */
    int j = i;
    while (j < r->n && mg_ck_same_cell(&r->v[j], &r->v[i])) j++;
    mg_ck_coll_summary *c = &s->per[r->v[i].coll];
    int comparisons = 0, violated = 0, inconclusive = 0;
    double worst = 1;
    for (int k = i; k < j; k++) {
      const mg_ck_verdict *v = &r->v[k];
      if (v->status == MG_CKV_SKIPPED) s->skipped++;
      if (v->status == MG_CKV_ERROR) s->errors++;
      if (v->status != MG_CKV_OK) continue;
      if (v->aa) {
        s->aa++;
        s->aa_flagged += v->violation;
        continue;
      }
      comparisons++;
      c->violations += v->outcome == MG_CK_VIOLATION;
      c->consistent += v->outcome == MG_CK_CONSISTENT;
      c->inconclusive += v->outcome == MG_CK_INCONCLUSIVE;
      c->noisy += v->outcome == MG_CK_INCONCLUSIVE && v->noise;
      inconclusive += v->outcome == MG_CK_INCONCLUSIVE;
      if (v->outcome == MG_CK_VIOLATION) {
        violated = 1;
        worst = isfinite(v->slowdown) ? (v->slowdown > worst ? v->slowdown : worst) : INFINITY;
      }
    }
    c->comparisons += comparisons;
    int unmeasured = 0; /* nothing compared, and something because nothing valid was measured */
    for (int k = i; k < j && !comparisons; k++) unmeasured |= mg_ck_unmeasured(&r->v[k]);
    if (unmeasured) {
      c->cells++;
      c->cells_unmeasured++;
    }
    if (comparisons) {
      c->cells++;
      c->cells_violated += violated;
      if (violated || !inconclusive) {
        c->cells_judged++;
        c->score_sum += 1 / worst;
      }
    }
    i = j;
  }
  for (int k = 0; k < MG_NCOLL; k++) {
    const mg_ck_coll_summary *p = &s->per[k];
    mg_ck_coll_summary *t = &s->total;
    t->comparisons += p->comparisons, t->violations += p->violations, t->consistent += p->consistent;
    t->inconclusive += p->inconclusive, t->noisy += p->noisy, t->cells += p->cells;
    t->cells_violated += p->cells_violated, t->cells_judged += p->cells_judged, t->score_sum += p->score_sum;
    t->cells_unmeasured += p->cells_unmeasured;
  }
  s->score = s->total.cells_judged ? 100 * s->total.score_sum / s->total.cells_judged : NAN;
  s->clean_share = s->total.cells_judged ? 1 - (double)s->total.cells_violated / s->total.cells_judged : NAN;
  s->noise_dominated = s->total.comparisons > 0 && 2 * s->total.noisy > s->total.comparisons;
}

/* ---------- the comparers' names (tables: table.c), a mock-up's display label ---------- */

static const char *const comparer_names[MG_CK_NCOMPARERS] = {MG_CK_COMPARERS(NAME)};
static const char *const comparer_descs[MG_CK_NCOMPARERS] = {MG_CK_COMPARERS(DESC)};

const char *mg_ck_comparer_name(mg_ck_comparer c) { return c < MG_CK_NCOMPARERS ? comparer_names[c] : "?"; }
const char *mg_ck_comparer_desc(mg_ck_comparer c) { return c < MG_CK_NCOMPARERS ? comparer_descs[c] : "?"; }

int mg_ck_comparer_find(const char *name) {
  char buf[64];
  snprintf(buf, sizeof buf, "%s", name);
  for (char *p = buf; *p; p++)
    if (*p == '_') *p = '-';
  for (int i = 0; i < MG_CK_NCOMPARERS; i++)
    if (!strcmp(buf, comparer_names[i])) return i;
  /* PGChecker's own spellings */
  if (!strcmp(buf, "abs") || !strcmp(buf, "absolute-runtime")) return MG_CKC_ABS;
  if (!strcmp(buf, "rel") || !strcmp(buf, "relative-runtime")) return MG_CKC_REL;
  if (!strcmp(buf, "detailed")) return MG_CKC_DETAILED;
  if (!strcmp(buf, "grouped")) return MG_CKC_GROUPED;
  return -1;
}

const char *mg_ck_label(mg_coll coll, const char *alg, int shortform, char *buf, size_t len) {
  if (!strcmp(alg, "default")) return snprintf(buf, len, "default"), buf;
  if (!strcmp(alg, MG_CK_AA_NAME))
    return snprintf(buf, len, shortform ? "A/A" : "A/A default vs default"), buf;
  int a = mg_alg_find(coll, alg);
  if (a <= 0) return snprintf(buf, len, "%s", alg), buf;
  const char *gl = mg_colls[coll].algs[a].guideline;
  if (shortform) return snprintf(buf, len, "%s", gl), buf;
  /* "allreduce_as_reduce_bcast" -> "GL5 reduce_bcast" */
  const char *name = alg, *as = strstr(alg, "_as_");
  if (as && (size_t)(as - alg) == strlen(mg_colls[coll].name) &&
      !strncmp(alg, mg_colls[coll].name, (size_t)(as - alg)))
    name = as + 4;
  snprintf(buf, len, "%s %s", gl, name);
  return buf;
}

int mg_ck_next_cell(const mg_ck_result *r, int i) {
  int j = i;
  while (j < r->n && mg_ck_same_cell(&r->v[j], &r->v[i])) j++;
  return j;
}

/* Per cell, the fastest violating mock-up (the grouped comparer, the report). */
int mg_ck_grouped(const mg_ck_result *res, mg_ck_group **rows) {
  int n = 0;
  *rows = malloc((size_t)(res->n ? res->n : 1) * sizeof **rows);
  if (!*rows) return -1;
  for (int i = 0; i < res->n; i = mg_ck_next_cell(res, i)) {
    mg_ck_group g = {res->v[i].coll, res->v[i].bytes, res->v[i].red, -1, NAN, NULL, 0, 0};
    int unmeasured = 0;
    for (int k = i; k < mg_ck_next_cell(res, i); k++) {
      const mg_ck_verdict *v = &res->v[k];
      unmeasured |= mg_ck_unmeasured(v);
      if (v->status != MG_CKV_OK || v->aa) continue;
      g.comparisons++;
      g.n_def = v->n_def > g.n_def ? v->n_def : g.n_def;
      g.med_def = v->med_def;
      if (!v->violation) continue;
      g.violations++;
      /* fastest = smallest median runtime among the violating mock-ups */
      if (!g.best || v->med_mock < g.best->med_mock) g.best = v;
    }
    if (g.best) g.med_def = g.best->med_def;
    if (g.comparisons || unmeasured) (*rows)[n++] = g; /* a size with nothing valid is shown, not dropped */
  }
  return n;
}
