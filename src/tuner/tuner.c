/*
 * The tuner: verdicts to profile rules (tuner.h, docs/tune.md). A measured
 * size becomes the one-size range [s, s]; when the next measured size chose
 * the same mock-up the range is [s, next - 1] so that mg_profile_merge_touching
 * joins the two. Everything else (gaps next to a different choice, below the
 * smallest and above the largest measured size) keeps the default.
 */
#include "tuner/tuner.h"
#include "util/err.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int alg_index(mg_coll c, const char *name) {
  for (int a = 1; a < mg_colls[c].nalgs; a++)
    if (!strcmp(mg_colls[c].algs[a].name, name)) return a;
  return -1;
}

/* How far over time a violation was replicated, for a rule's comment: "3 launches over 120 s", or
 * with a short span "SHORT SPAN: 3 launches over 5 s" / "SHORT SPAN: 1 launch" (docs/tune.md). */
static void fmt_span(const mg_ck_verdict *v, char *buf, size_t len) {
  const char *mark = v->short_span ? "SHORT SPAN: " : "";
  if (v->launches <= 1) snprintf(buf, len, "%s1 launch", mark);
  else if (isnan(v->span)) snprintf(buf, len, "%s%d launches, span unknown", mark, v->launches);
  else snprintf(buf, len, "%s%d launches over %.0f s", mark, v->launches, v->span);
}

static void fmt_us(double s, char *buf, size_t len) {
  double us = s * 1e6;
  snprintf(buf, len, us >= 100 ? "%.1f" : us >= 10 ? "%.2f" : "%.3f", us);
}

/* The profile selectors of a reduction pair "MPI_DOUBLE:MPI_SUM": 0 and the class and op, or -1 when
 * the pair names no datatype class or op a profile can select ("" gives no selectors). */
static int selectors_of(const char *red, int *tclass, int *opsel) {
  if (!*red) return *tclass = *opsel = 0, 0; /* any */
  mg_ck_red_sel(red, tclass, opsel);
  return *tclass > 0 && *opsel > 0 ? 0 : -1;
}

/* Whether v shows the gain: a wanted verdict, min_gain over the whole slowdown interval, and at
 * every root measured. */
static int shows_gain(const mg_ck_verdict *v, double min_gain, int which) {
  /* Only what the check showed: a cell within the noise (e.g. scatter's barrier artefact
   * at 256 B, "28.70x faster") or with an interval reaching 1 proves nothing. */
  int wanted = (which & MG_TUNE_INCLUDE_INCONCLUSIVE) ? v->violation || v->leaning : v->violation;
  if (v->aa || v->status != MG_CKV_OK || !wanted || v->measure_only) return 0;
  /* The gain must hold over the whole confidence interval of the slowdown,
   * not only at the medians: a cell whose interval reaches below
   * 1 / (1 - G) did not show the gain reliably (seen: reduce 1 MiB at
   * 1.12x [1.08, 1.16] that a verify run measured 1.39x slower). */
  if (!(v->med_mock <= (1 - min_gain) * v->med_def) || !(v->lo * (1 - min_gain) >= 1.0)) return 0;
  /* ... and at the least favourable root: an application that rotates its root gains only then
   * (seen: gather 16 KiB 0.72x at root 0, 1.04x slower under a rotating root) */
  return v->roots < 2 || v->root_worst * (1 - min_gain) >= 1.0;
}

/* The choices of collective c with reduction pair red over its sizes, appended to *ch from verdict i
 * on (verdicts are sorted by collective, size, pair, mock-up). 0 or -1 (out of memory). */
static int choose(const mg_ck_result *r, int i, const char *red, int nprocs, double min_gain, int which,
                  mg_tune_choice **ch, int *nch) {
  mg_coll c = r->v[i].coll;
  while (i < r->n && r->v[i].coll == c) {
    size_t bytes = r->v[i].bytes;
    const mg_ck_verdict *best = NULL;
    int best_alg = 0, seen = 0;
    for (; i < r->n && r->v[i].coll == c && r->v[i].bytes == bytes; i++) {
      const mg_ck_verdict *v = &r->v[i];
      if (strcmp(v->red, red)) continue;
      seen = 1;
      if (!shows_gain(v, min_gain, which)) continue;
      int a = alg_index(c, v->alg);
      if (a < 0) continue; /* a foreign mock-up (ReproMPI name) the library cannot run */
      if (!best || v->med_mock < best->med_mock) best = v, best_alg = a;
    }
    if (!seen) continue; /* this size was not measured with this pair */
    mg_tune_choice *nv = realloc(*ch, (size_t)(*nch + 1) * sizeof **ch);
    if (!nv) return -1;
    *ch = nv;
    const mg_ck_verdict *held = NULL;
    if (best && (which & MG_TUNE_HOLD_SHORT) && best->short_span) held = best, best = NULL, best_alg = 0;
    (*ch)[(*nch)++] = (mg_tune_choice){c, nprocs, bytes, best_alg, best, red, 0, held};
  }
  return 0;
}

/* The rule of a collective whose size not every rank knows, from its choices x[0..n) over the
 * measured sizes: one rule for every size when they all chose the same mock-up, else none (the
 * winners are marked withheld). The number of rules added (0 or 1), or -1 with a message. */
static int rule_for_every_size(mg_profile *p, mg_coll c, int nprocs, mg_tune_choice *x, int n, char *err,
                               size_t errlen) {
  int same = n > 0 && x[0].alg != 0;
  for (int q = 1; q < n && same; q++) same = x[q].alg == x[0].alg;
  if (!same) {
    for (int q = 0; q < n; q++) x[q].withheld = x[q].alg != 0;
    return 0;
  }
  double lo = x[0].v->slowdown, hi = lo;
  for (int q = 1; q < n; q++) {
    if (x[q].v->slowdown < lo) lo = x[q].v->slowdown;
    if (x[q].v->slowdown > hi) hi = x[q].v->slowdown;
  }
  char a[32], b[32], comment[256];
  mg_profile_fmt_size(x[0].bytes, a, sizeof a);
  mg_profile_fmt_size(x[n - 1].bytes, b, sizeof b);
  snprintf(comment, sizeof comment,
           "every size: %s %.2fx-%.2fx faster at all %d sizes measured (%s-%s); the size is not known on every rank",
           x[0].v->guideline && *x[0].v->guideline ? x[0].v->guideline : "mock-up", lo, hi, n, a, b);
  int rc = mg_profile_add(p, c, nprocs, nprocs, 0, SIZE_MAX, x[0].alg, comment);
  if (rc != MG_PROFILE_OK)
    return MG_ERR("cannot add the rule %s np=%d *: %s", mg_colls[c].name, nprocs, mg_profile_strerror(rc));
  return 1;
}

int mg_tune_decide(const mg_ck_result *r, int nprocs, double min_gain, int which, mg_profile *p,
                   mg_tune_choice **ch, int *nch, char *err, size_t errlen) {
  int added = 0;
  int i = 0;
  while (i < r->n) {
    mg_coll c = r->v[i].coll;
    int end = i;
    while (end < r->n && r->v[end].coll == c) end++;
    /* one sequence of choices per reduction pair of the collective, in order of appearance */
    for (int k = i; k < end; k++) {
      int dup = 0;
      for (int j = i; j < k && !dup; j++) dup = !strcmp(r->v[j].red, r->v[k].red);
      if (dup) continue;
      const char *red = r->v[k].red;
      int first = *nch, tclass, opsel;
      if (choose(r, i, red, nprocs, min_gain, which, ch, nch)) return MG_ERR("out of memory");
      if (selectors_of(red, &tclass, &opsel)) {
        *nch = first; /* a pair no profile selector names: its rule would govern every datatype */
        continue;
      }
      if (!mg_colls[c].known) { /* one rule for every size, or none */
        int rc = rule_for_every_size(p, c, nprocs, *ch + first, *nch - first, err, errlen);
        if (rc < 0) return -1;
        added += rc;
        continue;
      }
      for (int q = first; q < *nch; q++) {
        const mg_tune_choice *x = &(*ch)[q];
        if (!x->alg) continue;
        size_t hi = x->bytes;
        if (q + 1 < *nch && (*ch)[q + 1].alg == x->alg) hi = (*ch)[q + 1].bytes - 1;
        char sz[32], md[32], mm[32], comment[256], roots[64] = "", span[64];
        fmt_span(x->v, span, sizeof span);
        mg_profile_fmt_size(x->bytes, sz, sizeof sz);
        fmt_us(x->v->med_def, md, sizeof md);
        fmt_us(x->v->med_mock, mm, sizeof mm);
        if (x->v->roots >= 2)
          snprintf(roots, sizeof roots, ", >= %.2fx at each of %d roots", x->v->root_worst, x->v->roots);
        snprintf(comment, sizeof comment, "%s: %s %.2fx faster [%.2f, %.2f] (%s -> %s us, p_adj %.1e%s; %s)", sz,
                 x->v->guideline && *x->v->guideline ? x->v->guideline : "mock-up", x->v->slowdown, x->v->lo,
                 x->v->hi, md, mm, x->v->p_adj, roots, span);
        int rc = mg_profile_add_sel(p, c, nprocs, nprocs, x->bytes, hi, tclass, opsel, x->alg, comment);
        if (rc != MG_PROFILE_OK)
          return MG_ERR("cannot add the rule %s np=%d %zu: %s", mg_colls[c].name, nprocs, x->bytes,
                        mg_profile_strerror(rc));
        added++;
      }
    }
    i = end;
  }
  return added;
}
