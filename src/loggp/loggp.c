/*
 * The LogGP queries of the cost models (loggp.h): piecewise-linear interpolation of the
 * per-size table, extrapolation with G beyond it. Pure arithmetic: part of the core library.
 */
#include "loggp/loggp.h"

/* Linear interpolation of y over the measured sizes; below the first size y[0]; above
 * the last, y[last] + (s - size[last]) * slope (slope G for the gap, 0 for overheads). */
static double interp(const mg_loggp *m, const double *y, double s, double slope) {
  int n = m->npts;
  if (n <= 0) return 0;
  if (s <= m->size[0]) return y[0];
  for (int i = 1; i < n; i++)
    if (s <= m->size[i]) {
      double t = (s - m->size[i - 1]) / (m->size[i] - m->size[i - 1]);
      return y[i - 1] + t * (y[i] - y[i - 1]);
    }
  return y[n - 1] + (s - m->size[n - 1]) * slope;
}

double mg_loggp_os(const mg_loggp *m, double s) { return interp(m, m->os, s, 0); }
double mg_loggp_or(const mg_loggp *m, double s) { return interp(m, m->orecv, s, 0); }
double mg_loggp_gap(const mg_loggp *m, double s) { return interp(m, m->gap, s, m->G); }

double mg_loggp_msg_sum(const mg_loggp *m, double s) {
  /* (s-1) G: what the gap curve adds above the smallest message's gap */
  double wire = m->npts > 0 ? mg_loggp_gap(m, s) - m->gap[0] : 0;
  if (wire < 0) wire = 0;
  return mg_loggp_os(m, s) + m->L + wire + mg_loggp_or(m, s);
}

double mg_loggp_msg(const mg_loggp *m, double s) {
  if (m->npts > 0 && m->rtt[0] > 0) return interp(m, m->rtt, s, 2 * m->G) / 2 + m->wake;
  return mg_loggp_msg_sum(m, s) + m->wake;
}

/* The ranks on the fullest node of p processes over the measured job's nodes. */
static int ranks_per_node(const mg_loggp *m, int p) {
  int nodes = m->nodes > 0 ? m->nodes : 1;
  return (p + nodes - 1) / nodes;
}

int mg_loggp_oversubscribed(const mg_loggp *m, int p) { return m->cores > 0 && ranks_per_node(m, p) > m->cores; }

double mg_loggp_crowding(const mg_loggp *m, int p) {
  return mg_loggp_oversubscribed(m, p) ? (double)ranks_per_node(m, p) / m->cores : 1;
}
