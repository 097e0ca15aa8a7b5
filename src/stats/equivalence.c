/*
 * Equivalence of two runtimes by the two one-sided tests (TOST, Schuirmann 1987) read off an
 * interval of their ratio: A and B are shown equivalent within a relative margin m when the
 * interval of median(A) / median(B) lies inside [1 / (1 + m), 1 + m] — each bound is a one-sided
 * test that A is not slower than B by more than m (upper bound), and B not slower than A
 * (lower bound). An interval entirely outside that band shows a difference beyond the margin;
 * any other interval decides nothing. A two-sided interval at level L makes each one-sided test
 * one at (1 - L) / 2 (a 95 % interval: two tests at 2.5 %, more cautious than the usual 90 %).
 */
#include <math.h>

#include "stats/stats_internal.h"

const char *mg_stats_equiv_name(mg_stats_equiv e) {
  switch (e) {
  case MG_STATS_EQUIV_INSIDE: return "equivalent";
  case MG_STATS_EQUIV_OUTSIDE: return "different";
  case MG_STATS_EQUIV_UNDECIDED: return "undecided";
  }
  return "?";
}

mg_stats_status mg_stats_equivalence(double lo, double hi, double margin, mg_stats_equiv *out) {
  if (isnan(lo) || isnan(hi) || isnan(margin)) return MG_STATS_NONFINITE;
  if (!(margin >= 0) || !isfinite(margin) || lo > hi || lo < 0) return MG_STATS_INVALID;
  double band_lo = 1 / (1 + margin), band_hi = 1 + margin;
  if (lo >= band_lo && hi <= band_hi)
    *out = MG_STATS_EQUIV_INSIDE;
  else if (lo > band_hi || hi < band_lo)
    *out = MG_STATS_EQUIV_OUTSIDE;
  else
    *out = MG_STATS_EQUIV_UNDECIDED;
  return MG_STATS_OK;
}
