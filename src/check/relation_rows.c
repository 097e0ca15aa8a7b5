/*
 * The relation rows of a check (check.h, mg_ck_relations): for a mock-up row whose guideline has a
 * reverse, the REVERSE verdict (the mock-up tested for being slower than the default), and the
 * EQUIV verdict of the two together, decided after Holm. analyze.c calls them (analyze.h).
 */
#include <math.h>
#include <stdio.h>

#include "check/analyze.h"
#include "check/check.h"
#include "stats/stats.h"
#include "util/err.h"

/* The REVERSE row of mock-up row m (check.h, mg_ck_relations), before Holm. */
static int reverse_row(const mg_ck_data *d, const mg_ck_opts *o, const mg_ck_verdict *m, const mg_ck_relation_rows *rr,
                       mg_ck_verdict *v, char *err, size_t errlen) {
  mg_ck_verdict_init(v, m->coll, m->bytes, m->red, m->alg);
  v->rel = MG_CK_REL_REVERSE;
  v->guideline = rr->rev_guideline;
  v->measure_only = 1; /* a verdict, never a tuning rule */
  if (m->status != MG_CKV_OK) { /* nothing to compare: the mock-up row's reason */
    v->status = m->status;
    snprintf(v->note, sizeof v->note, "%s", m->note);
    return 0;
  }
  if (mg_ck_compare_op(d, o, v, mg_colls[v->coll].name, err, errlen)) return -1;
  if (v->status == MG_CKV_OK) snprintf(v->note, sizeof v->note, "%s", rr->rev_note);
  return 0;
}

/* The EQUIV row of mock-up row m and its REVERSE row rv, after Holm (check.h): the two one-sided
 * tests on [1 / hi(rv), hi(m)], a violation when either direction is one. */
void mg_ck_equiv_row(const mg_ck_verdict *m, const mg_ck_verdict *rv, const mg_ck_relation_rows *rr,
                      double margin, mg_ck_verdict *v) {
  *v = *m;
  v->rel = MG_CK_REL_EQUIV;
  v->guideline = rr->eq_guideline;
  v->measure_only = 1;
  v->stat = v->crit = NAN;
  v->method = "";
  if (m->status != MG_CKV_OK || rv->status != MG_CKV_OK) {
    v->status = m->status != MG_CKV_OK ? m->status : rv->status;
    snprintf(v->note, sizeof v->note, "%s", m->status != MG_CKV_OK ? m->note : rv->note);
    return;
  }
  /* both directions: the smaller p (a difference either way), its adjusted value and launches */
  int r_first = rv->p_adj < m->p_adj;
  v->p = r_first ? rv->p : m->p;
  v->p_adj = r_first ? rv->p_adj : m->p_adj;
  v->launches_slower = r_first ? rv->launches_slower : m->launches_slower;
  v->roots_slower = r_first ? rv->roots_slower : m->roots_slower;
  v->significant = m->significant || rv->significant;
  v->leaning = m->leaning || rv->leaning;
  v->lo = rv->hi > 0 ? 1 / rv->hi : NAN;
  v->hi = m->hi;
  mg_stats_equiv e = MG_STATS_EQUIV_UNDECIDED;
  int tost = mg_stats_equivalence(v->lo, v->hi, margin, &e) == MG_STATS_OK;
  if (m->violation || rv->violation) v->outcome = MG_CK_VIOLATION;
  else if (tost && e == MG_STATS_EQUIV_INSIDE) v->outcome = MG_CK_CONSISTENT;
  else v->outcome = MG_CK_INCONCLUSIVE;
  v->violation = v->outcome == MG_CK_VIOLATION;
  snprintf(v->note, sizeof v->note, "equivalence: holds when %s and %s are both consistent; violated when either is a "
           "violation", m->guideline, rv->guideline);
}

/* The relation rows (check.h) of r's mock-up verdicts: each REVERSE verdict now, to join the run's
 * Holm family, and a place for its EQUIV verdict after it, filled after Holm (not in the family). */
int mg_ck_reverse_rows(const mg_ck_data *d, const mg_ck_opts *o, mg_ck_result *r, char *err, size_t errlen) {
  int relcap = 0;
  for (int i = 0; i < r->n; i++) {
    const mg_ck_relation_rows *rr = r->v[i].aa ? NULL : mg_ck_relation_of(r->v[i].coll, r->v[i].alg);
    if (!rr) continue;
    mg_ck_verdict rv, eq;
    if (reverse_row(d, o, &r->v[i], rr, &rv, err, errlen)) return -1;
    eq = rv;
    eq.rel = MG_CK_REL_EQUIV;
    if (mg_ck_push_verdict(&r->rel, &r->nrel, &relcap, &rv) || mg_ck_push_verdict(&r->rel, &r->nrel, &relcap, &eq))
      return MG_ERR("out of memory");
  }
  return 0;
}
