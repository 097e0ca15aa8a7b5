/*
 * A tuning profile's rules named the way the profile writes them, and the rule that covers a cell
 * (cmd_tune.h): what `mpiguide tune` prints and `mpiguide verify` advises about name the same rule.
 */
#include <stdio.h>
#include <string.h>

#include "check/check.h"
#include "cli/cmd_tune.h"

/* A rule's size range as the profile writes it: "64K" or "64-128". */
void mg_cmd_rule_range_str(const mg_profile_rule *ru, char *buf, size_t len) {
  char lo[32], hi[32];
  mg_profile_fmt_size(ru->lo, lo, sizeof lo);
  mg_profile_fmt_size(ru->hi, hi, sizeof hi);
  if (ru->lo == ru->hi) snprintf(buf, len, "%s", lo);
  else snprintf(buf, len, "%s-%s", lo, hi);
}

/* A rule's selectors as the profile writes them: "", " type=float op=sum". */
void mg_cmd_rule_sel_str(const mg_profile_rule *ru, char *buf, size_t len) {
  buf[0] = '\0';
  if (ru->tclass > 0) snprintf(buf, len, " type=%s", mg_tclass_name(ru->tclass));
  if (ru->opsel > 0) snprintf(buf + strlen(buf), len - strlen(buf), " op=%s", mg_opsel_name(ru->opsel));
}

void mg_cmd_rule_str(const mg_profile_rule *ru, char *buf, size_t len) {
  char np[32], rg[70], sel[64];
  mg_cmd_rule_range_str(ru, rg, sizeof rg);
  mg_cmd_rule_sel_str(ru, sel, sizeof sel);
  mg_profile_fmt_np(ru->np_lo, ru->np_hi, np, sizeof np);
  snprintf(buf, len, "%s %s %s%s %s", mg_colls[ru->coll].name, np, rg, sel, mg_colls[ru->coll].algs[ru->alg].name);
}

/* The decision of docs/profile.md, as a rule index: the narrowest np= selector holding nprocs, in it
 * the most specific selector group matching the call's datatype class and op that has any rule,
 * in it the range holding bytes. */
int mg_cmd_rule_find(const mg_profile *p, mg_coll coll, int nprocs, size_t bytes, const char *red) {
  int tclass, opsel, n = mg_profile_nrules(p);
  mg_ck_red_sel(red, &tclass, &opsel);
  long width = -1;
  int np_lo = 0, np_hi = 0, spec = -1, best = -1;
  for (int k = 0; k < n; k++) { /* the narrowest np= selector */
    const mg_profile_rule *ru = mg_profile_rule_at(p, k);
    if (ru->coll != coll || nprocs < ru->np_lo || nprocs > ru->np_hi) continue;
    if (width < 0 || (long)ru->np_hi - ru->np_lo < width)
      width = (long)ru->np_hi - ru->np_lo, np_lo = ru->np_lo, np_hi = ru->np_hi;
  }
  for (int k = 0; k < n; k++) { /* the most specific matching group with any rule */
    const mg_profile_rule *ru = mg_profile_rule_at(p, k);
    if (ru->coll != coll || ru->np_lo != np_lo || ru->np_hi != np_hi) continue;
    if ((ru->tclass > 0 && ru->tclass != tclass) || (ru->opsel > 0 && ru->opsel != opsel)) continue;
    int s = 2 * (ru->tclass > 0) + (ru->opsel > 0);
    if (s > spec) spec = s;
  }
  for (int k = 0; k < n && spec >= 0; k++) {
    const mg_profile_rule *ru = mg_profile_rule_at(p, k);
    if (ru->coll != coll || ru->np_lo != np_lo || ru->np_hi != np_hi || 2 * (ru->tclass > 0) + (ru->opsel > 0) != spec)
      continue;
    if ((ru->tclass > 0 && ru->tclass != tclass) || (ru->opsel > 0 && ru->opsel != opsel)) continue;
    if (bytes >= ru->lo && bytes <= ru->hi) best = k;
  }
  return best;
}
