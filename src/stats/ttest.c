/*
 * One-sided two-sample t tests of H1: mean(A) > mean(B) (the default is
 * slower on average).
 *
 * Welch: t = (mean A - mean B) / sqrt(va/na + vb/nb), df by Welch-Satterthwaite;
 * no equal-variance assumption, so it is the t test to use on runtimes.
 * Student: pooled variance, df = na + nb - 2, the test PGChecker (Hunold &
 * Hagn, 2023) applies; kept for comparison with its results.
 *
 * When the standard error is 0 (both samples constant) there is no t
 * distribution to refer to; the verdict is then decided by the sign of the
 * difference alone: diff > 0 gives t = +inf, p = 0; diff == 0 gives t = 0,
 * p = 1; diff < 0 gives t = -inf, p = 1.
 */
#include <math.h>

#include <gsl/gsl_cdf.h>

#include "stats/stats_internal.h"

static void mg_t_finish(double diff, double se2, double df, double alpha,
                        mg_stats_ttest_result *out) {
  mg_stats_ttest_result r = {.diff = diff, .se = sqrt(se2), .df = df};
  if (r.se > 0.0) {
    r.t = diff / r.se;
    r.p = gsl_cdf_tdist_Q(r.t, df);
  } else {
    r.t = diff > 0.0 ? INFINITY : diff < 0.0 ? -INFINITY : 0.0;
    r.p = diff > 0.0 ? 0.0 : 1.0;
  }
  r.t_crit = gsl_cdf_tdist_Qinv(alpha, df);
  r.significant = r.p <= alpha;
  *out = r;
}

static mg_stats_status mg_t_check(const double *a, size_t na, const double *b, size_t nb,
                                  double alpha, const mg_stats_ttest_result *out) {
  mg_stats_status st = mg_stats__check(a, na);
  if (st == MG_STATS_OK) st = mg_stats__check(b, nb);
  if (st != MG_STATS_OK) return st;
  if (!out || !mg_stats__open_unit(alpha)) return MG_STATS_INVALID;
  return MG_STATS_OK;
}

mg_stats_status mg_stats_welch(const double *a, size_t na, const double *b, size_t nb,
                               double alpha, mg_stats_ttest_result *out) {
  mg_stats_status st = mg_t_check(a, na, b, nb, alpha, out);
  if (st != MG_STATS_OK) return st;
  if (na < 2 || nb < 2) return MG_STATS_TOO_FEW;
  double ma, m2a, mb, m2b;
  mg_stats__moments(a, na, &ma, &m2a);
  mg_stats__moments(b, nb, &mb, &m2b);
  double sa = m2a / (double)(na - 1) / (double)na; /* va / na */
  double sb = m2b / (double)(nb - 1) / (double)nb;
  double se2 = sa + sb;
  double df = (double)(na + nb - 2); /* only used when se2 == 0 */
  if (se2 > 0.0) df = se2 * se2 / (sa * sa / (double)(na - 1) + sb * sb / (double)(nb - 1));
  mg_t_finish(ma - mb, se2, df, alpha, out);
  return MG_STATS_OK;
}

mg_stats_status mg_stats_student(const double *a, size_t na, const double *b, size_t nb,
                                 double alpha, mg_stats_ttest_result *out) {
  mg_stats_status st = mg_t_check(a, na, b, nb, alpha, out);
  if (st != MG_STATS_OK) return st;
  if (na + nb < 3) return MG_STATS_TOO_FEW;
  double ma, m2a, mb, m2b;
  mg_stats__moments(a, na, &ma, &m2a);
  mg_stats__moments(b, nb, &mb, &m2b);
  double df = (double)(na + nb - 2);
  double sp2 = (m2a + m2b) / df;
  mg_t_finish(ma - mb, sp2 * (1.0 / (double)na + 1.0 / (double)nb), df, alpha, out);
  return MG_STATS_OK;
}
