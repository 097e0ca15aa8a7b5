/*
 * The renumbering guideline, TGT 2010 eq. (36): a collective on a communicator must not be slower
 * than on the same processes renumbered (the rerank family's rows, measure-only). Its verdicts are
 * ordinary mock-up verdicts; this is their summary: per collective (and reduction pair), the sizes
 * at which the default lost to the renumbered processes, and the counts. The summary's
 * "renumbering" section and the report's table read the same rows.
 */
#include <string.h>

#include "check/check.h"
#include "util/fmt.h"

int mg_ck_is_rerank(const mg_ck_verdict *v) {
  if (v->aa || v->rel != MG_CK_REL_MOCKUP) return 0;
  int a = mg_alg_find(v->coll, v->alg);
  return a > 0 && mg_colls[v->coll].algs[a].family == MG_FAM_RERANK;
}

int mg_ck_any_rerank(const mg_ck_result *r) {
  for (int i = 0; i < r->n; i++)
    if (mg_ck_is_rerank(&r->v[i])) return 1;
  return 0;
}

void mg_ck_print_rerank(FILE *f, const mg_ck_result *r) {
  if (!mg_ck_any_rerank(r)) return;
  fprintf(f, "\nrenumbering (TGT 2010 eq. 36: A{comm} <= A{the same processes renumbered}, a seeded permutation;\n"
             "measure only: a violation is the library's defect to report, not a repair):\n");
  int done[MG_NCOLL] = {0}, anyv = 0;
  for (int i = 0; i < r->n; i++) {
    const mg_ck_verdict *v0 = &r->v[i];
    if (!mg_ck_is_rerank(v0) || done[v0->coll]) continue;
    done[v0->coll] = 1;
    int nv = 0, nc = 0, ni = 0;
    char list[512] = "";
    size_t u = 0;
    for (int j = i; j < r->n; j++) {
      const mg_ck_verdict *v = &r->v[j];
      if (v->coll != v0->coll || !mg_ck_is_rerank(v) || v->status != MG_CKV_OK) continue;
      nv += v->outcome == MG_CK_VIOLATION, nc += v->outcome == MG_CK_CONSISTENT, ni += v->outcome == MG_CK_INCONCLUSIVE;
      if (v->outcome != MG_CK_VIOLATION || u >= sizeof list - 64) continue;
      char b[32];
      u += (size_t)snprintf(list + u, sizeof list - u, "%s%s%s%s (%.2fx)", u ? ", " : "",
                            mg_fmt_bytes(v->bytes, MG_BYTES_EXACT, b, sizeof b), *v->red ? " " : "", v->red, v->slowdown);
    }
    fprintf(f, "  %-22s %2d violated, %2d consistent, %2d inconclusive%s%s\n", mg_colls[v0->coll].name, nv, nc, ni,
            nv ? ": slower than renumbered at " : "", list);
    anyv += nv;
  }
  if (!anyv) fprintf(f, "  no collective was slower than on the renumbered processes%s\n",
                     "; a comparison not shown consistent is inconclusive, not clean");
}
