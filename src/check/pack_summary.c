/*
 * The packing guideline, TGT 2010 eq. (4) and the paper's "similar guideline" for MPI_Unpack
 * (bench/pack.h): one MPI_Pack (MPI_Unpack) of a derived datatype against its constituents packed
 * one by one. Its verdicts (mg_ck_result.pack, made by analyze.c) are measure-only: a violation says
 * the library's datatype engine loses to a loop of MPI_Pack calls on predefined types, a defect to
 * report; there is no call to repair, and tune never reads them. This is the summary's "packing"
 * section, after the datatype family's rows.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/pack.h"
#include "check/analyze.h"
#include "check/check.h"
#include "util/err.h"
#include "util/fmt.h"

/* Pack verdicts: operation, datatype, size. */
static int cmp_pack(const void *a, const void *b) {
  const mg_ck_verdict *x = a, *y = b;
  if (x->coll != y->coll) return (int)x->coll - (int)y->coll;
  int c = strcmp(x->red, y->red);
  return c ? c : (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

/* TGT 2010 eq. 4 (check.h, mg_ck_result.pack): per (operation, size, datatype) of d->pack the one call
 * against the constituents one by one; a cell whose measurement failed (its bytes not identical, a
 * call's error) is an error verdict with the reason. Before Holm. */
int mg_ck_pack_verdicts(const mg_ck_data *p, const mg_ck_opts *o, mg_ck_result *r, char *err, size_t errlen) {
  int cap = 0;
  for (int i = 0; i < p->nseries + p->nnotes; i++) {
    int is_s = i < p->nseries;
    const mg_ck_series *s = is_s ? &p->series[i] : NULL;
    const mg_ck_note *n = is_s ? NULL : &p->notes[i - p->nseries];
    int op = (int)(is_s ? s->coll : n->coll);
    const char *alg = is_s ? s->alg : n->alg, *red = is_s ? s->red : n->red;
    size_t bytes = is_s ? s->bytes : n->bytes;
    if (op < 0 || op >= MG_NPACK_OPS || strcmp(alg, mg_pack_alt_name(op))) continue; /* the default's side */
    int seen = 0;
    for (int k = 0; k < r->npack && !seen; k++)
      seen = (int)r->pack[k].coll == op && r->pack[k].bytes == bytes && !strcmp(r->pack[k].red, red);
    if (seen) continue;
    mg_ck_verdict v;
    mg_ck_verdict_init(&v, (mg_coll)op, bytes, red, alg);
    v.guideline = MG_PACK_GUIDELINE;
    v.measure_only = 1; /* no call to repair: a verdict, never a rule */
    const mg_ck_note *why = NULL;
    for (int k = 0; k < p->nnotes && !why; k++)
      if ((int)p->notes[k].coll == op && p->notes[k].bytes == bytes && !strcmp(p->notes[k].red, red)) why = &p->notes[k];
    if (why) {
      v.status = MG_CKV_ERROR;
      snprintf(v.note, sizeof v.note, "%s", why->text);
    } else if (mg_ck_compare_op(p, o, &v, mg_pack_op_name(op), err, errlen)) {
      return -1;
    } else if (v.status == MG_CKV_OK) {
      snprintf(v.note, sizeof v.note, "measure only: no call to repair (TGT 2010 eq. 4)");
    }
    if (mg_ck_push_verdict(&r->pack, &r->npack, &cap, &v)) return MG_ERR("out of memory");
  }
  qsort(r->pack, (size_t)r->npack, sizeof *r->pack, cmp_pack);
  return 0;
}

int mg_ck_any_pack(const mg_ck_result *r) { return r->npack > 0; }

void mg_ck_print_pack(FILE *f, const mg_ck_result *r) {
  if (!mg_ck_any_pack(r)) return;
  fprintf(f, "\npacking (TGT 2010 eq. 4: %s;\n  and its twin for MPI_Unpack; the derived datatype's one call against its "
             "constituents one by one, rank 0 alone;\n  measure only: a violation is the datatype engine's defect to "
             "report, not a repair):\n", MG_PACK_FORMULA);
  for (int i = 0; i < r->npack;) {
    const mg_ck_verdict *v0 = &r->pack[i];
    int j = i, nv = 0, nc = 0, ni = 0, ne = 0;
    char list[512] = "", err[256] = "";
    size_t u = 0;
    for (; j < r->npack && r->pack[j].coll == v0->coll && !strcmp(r->pack[j].red, v0->red); j++) {
      const mg_ck_verdict *v = &r->pack[j];
      char b[32];
      mg_fmt_bytes(v->bytes, MG_BYTES_EXACT, b, sizeof b);
      if (v->status != MG_CKV_OK) {
        if (!ne++) snprintf(err, sizeof err, "%s: %.190s", b, v->note);
        continue;
      }
      nv += v->outcome == MG_CK_VIOLATION, nc += v->outcome == MG_CK_CONSISTENT, ni += v->outcome == MG_CK_INCONCLUSIVE;
      if (v->outcome == MG_CK_VIOLATION && u < sizeof list - 48)
        u += (size_t)snprintf(list + u, sizeof list - u, "%s%s (%.2fx)", u ? ", " : "", b, v->slowdown);
    }
    fprintf(f, "  %-10s %s: %2d violated, %2d consistent, %2d inconclusive%s%s\n", mg_pack_op_mpi((int)v0->coll),
            v0->red, nv, nc, ni, nv ? "; one call slower than the constituents at " : "", list);
    if (ne) fprintf(f, "    %d size(s) not measured, e.g. %s\n", ne, err);
    i = j;
  }
  fprintf(f, "  (per size: packverdicts.csv; a comparison not shown consistent is inconclusive, not clean)\n");
}
