/*
 * The tuner: verdicts to profile rules (tuner.h, docs/tune.md). A measured
 * size becomes the one-size range [s, s]; when the next measured size chose
 * the same mock-up the range is [s, next - 1] so that mg_profile_merge_touching
 * joins the two. Everything else (gaps next to a different choice, below the
 * smallest and above the largest measured size) keeps the default.
 */
#include "tune/tuner.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int alg_index(mg_coll c, const char *name) {
  for (int a = 1; a < mg_colls[c].nalgs; a++)
    if (!strcmp(mg_colls[c].algs[a].name, name)) return a;
  return -1;
}

static void fmt_us(double s, char *buf, size_t len) {
  double us = s * 1e6;
  snprintf(buf, len, us >= 100 ? "%.1f" : us >= 10 ? "%.2f" : "%.3f", us);
}

int mg_tune_decide(const mg_ck_result *r, int nprocs, double min_gain, int which, mg_profile *p,
                   mg_tune_choice **ch, int *nch, char *err, size_t errlen) {
  int added = 0;
  /* verdicts are sorted by collective (registry order), then size, then mock-up */
  int i = 0;
  while (i < r->n) {
    mg_coll c = r->v[i].coll;
    int first = *nch; /* this collective's choices start here */
    while (i < r->n && r->v[i].coll == c) {
      size_t bytes = r->v[i].bytes;
      const mg_ck_verdict *best = NULL;
      int best_alg = 0;
      for (; i < r->n && r->v[i].coll == c && r->v[i].bytes == bytes; i++) {
        const mg_ck_verdict *v = &r->v[i];
        /* Only what the check showed: a cell within the noise (e.g. scatter's barrier artefact
         * at 256 B, "28.70x faster") or with an interval reaching 1 proves nothing. */
        int wanted = which == MG_TUNE_INCLUDE_INCONCLUSIVE ? v->violation || v->leaning : v->violation;
        if (v->aa || v->status != MG_CKV_OK || !wanted) continue;
        /* The gain must hold over the whole confidence interval of the slowdown,
         * not only at the medians: a cell whose interval reaches below
         * 1 / (1 - G) did not show the gain reliably (seen: reduce 1 MiB at
         * 1.12x [1.08, 1.16] that a verify run measured 1.39x slower). */
        if (!(v->med_mock <= (1 - min_gain) * v->med_def) || !(v->lo * (1 - min_gain) >= 1.0)) continue;
        int a = alg_index(c, v->alg);
        if (a < 0) continue; /* a foreign mock-up (ReproMPI name) the library cannot run */
        if (!best || v->med_mock < best->med_mock) best = v, best_alg = a;
      }
      mg_tune_choice *nv = realloc(*ch, (size_t)(*nch + 1) * sizeof **ch);
      if (!nv) {
        snprintf(err, errlen, "out of memory");
        return -1;
      }
      *ch = nv;
      (*ch)[(*nch)++] = (mg_tune_choice){c, nprocs, bytes, best_alg, best};
    }
    for (int k = first; k < *nch; k++) {
      const mg_tune_choice *x = &(*ch)[k];
      if (!x->alg) continue;
      size_t hi = x->bytes;
      if (k + 1 < *nch && (*ch)[k + 1].alg == x->alg) hi = (*ch)[k + 1].bytes - 1;
      char sz[32], md[32], mm[32], comment[256];
      mg_profile_fmt_size(x->bytes, sz, sizeof sz);
      fmt_us(x->v->med_def, md, sizeof md);
      fmt_us(x->v->med_mock, mm, sizeof mm);
      snprintf(comment, sizeof comment, "%s: %s %.2fx faster [%.2f, %.2f] (%s -> %s us, p_holm %.1e)", sz,
               x->v->guideline && *x->v->guideline ? x->v->guideline : "mock-up", x->v->slowdown, x->v->lo,
               x->v->hi, md, mm, x->v->p_adj);
      int rc = mg_profile_add(p, c, nprocs, nprocs, x->bytes, hi, x->alg, comment);
      if (rc != MG_PROFILE_OK) {
        snprintf(err, errlen, "cannot add the rule %s np=%d %zu: %s", mg_colls[c].name, nprocs, x->bytes,
                 mg_profile_strerror(rc));
        return -1;
      }
      added++;
    }
  }
  return added;
}
