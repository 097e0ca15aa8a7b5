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
#include <string.h>

#include "bench/pack.h"
#include "check/check.h"
#include "util/fmt.h"

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
