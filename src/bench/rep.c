/*
 * Repetition control: the stopping rules of rep.h.
 */
#include <math.h>

#include "bench/rep.h"

void mg_rep_init(const mg_rep_cfg *cfg, mg_rep_state *st, double t1) {
  st->n = st->nvalid = 0;
  st->spent = st->wall = 0;
  st->t1 = cfg->mode == MG_REP_PAPER ? t1 : 0;
  st->target = cfg->mode == MG_REP_FIXED ? cfg->nrep : -1;
  st->rse = INFINITY;
  st->stop = MG_STOP_NONE;
  st->seq_look = -1;
  st->seq_dn = 0;
}

static long lmin_(long a, long b) { return a < b ? a : b; }

long mg_rep_want(const mg_rep_cfg *cfg, const mg_rep_state *st, long batch) {
  if (st->stop != MG_STOP_NONE || batch <= 0) return 0;
  long left;
  if (st->target >= 0) left = st->target - st->n;
  else if (cfg->mode == MG_REP_PAPER && st->t1 > 0) left = cfg->k - st->n; /* the pilot */
  else left = cfg->max_nrep - st->n;
  if (cfg->mode != MG_REP_FIXED) left = lmin_(left, cfg->max_nrep - st->n);
  if (left < 1) left = cfg->mode != MG_REP_FIXED && st->n < cfg->max_nrep; /* pilot without a valid value */
  /* the exact stop is asked after each batch: until exact_min values are valid, a batch takes only
   * what is missing, so that a deterministic cell costs exact_min, not a whole batch (10-12 rounds
   * under check's batches: issue 50's "exact stop" defect) */
  if (cfg->mode == MG_REP_RSE && cfg->exact_min > 0 && st->nvalid < cfg->exact_min)
    left = lmin_(left, cfg->exact_min - st->nvalid);
  return lmin_(left, batch);
}

long mg_nrep_paper(double t1, double lmin, long k, long max_nrep) {
  double q = lmin > 0 ? ceil(t1 / lmin) : INFINITY;
  long n = q >= (double)max_nrep ? max_nrep : (long)q;
  if (n < k) n = k;
  return n < max_nrep ? n : max_nrep;
}

static void rse_rule(const mg_rep_cfg *cfg, mg_rep_state *st, const double *valid, long nvalid) {
  if (nvalid >= cfg->min_nrep && nvalid >= 3) {
    st->rse = mg_rse(valid, nvalid, cfg->stat);
    if (st->rse <= cfg->rse) st->stop = MG_STOP_RSE;
  }
}

void mg_rep_update(const mg_rep_cfg *cfg, mg_rep_state *st, long n, const double *valid, long nvalid,
                   double wall) {
  st->n = n;
  st->wall = wall;
  st->nvalid = nvalid;
  st->spent = 0;
  for (long i = 0; i < nvalid; i++) st->spent += valid[i];
  if (st->stop != MG_STOP_NONE) return;
  if (cfg->mode == MG_REP_RSE && cfg->exact_min > 0 && nvalid >= cfg->exact_min) { /* one time: nothing to add */
    double lo = valid[0], hi = valid[0];
    for (long i = 1; i < nvalid; i++) lo = valid[i] < lo ? valid[i] : lo, hi = valid[i] > hi ? valid[i] : hi;
    if (hi - lo <= MG_REP_EXACT_TOL) {
      st->rse = 0;
      st->stop = MG_STOP_RSE;
      return;
    }
  }

  switch (cfg->mode) {
  case MG_REP_FIXED:
    if (n >= cfg->nrep) st->stop = MG_STOP_NREP;
    return;
  case MG_REP_TIME:
    if (wall >= cfg->time_per && n >= cfg->min_nrep) st->stop = MG_STOP_TIME;
    break;
  case MG_REP_PAPER:
    if (st->t1 > 0) { /* pilot, then a planned count */
      if (st->target < 0 && n >= cfg->k && nvalid > 0) {
        double lmin = valid[0];
        for (long i = 1; i < nvalid; i++)
          if (valid[i] < lmin) lmin = valid[i];
        st->target = mg_nrep_paper(st->t1, lmin, cfg->k, cfg->max_nrep);
      }
      if (st->target >= 0 && n >= st->target) st->stop = MG_STOP_NREP;
    } else { /* the one-element calibration */
      rse_rule(cfg, st, valid, nvalid);
    }
    break;
  case MG_REP_RSE:
    rse_rule(cfg, st, valid, nvalid);
    break;
  }
  if (st->stop == MG_STOP_NONE && n >= cfg->max_nrep) st->stop = MG_STOP_MAX;
}

int mg_rep_exact_groups(const mg_rep_cfg *cfg, mg_rep_state *st, const double *v, const int *group, long n, int ng) {
  enum { MAXG = 64 };
  if (cfg->mode != MG_REP_RSE || cfg->exact_min <= 0 || st->stop != MG_STOP_NONE || ng < 1 || ng > MAXG) return 0;
  long cnt[MAXG] = {0};
  double lo[MAXG], hi[MAXG];
  for (long i = 0; i < n; i++) {
    int g = group[i];
    if (g < 0 || g >= ng) return 0;
    if (cnt[g]++ == 0) lo[g] = hi[g] = v[i];
    else lo[g] = v[i] < lo[g] ? v[i] : lo[g], hi[g] = v[i] > hi[g] ? v[i] : hi[g];
  }
  for (int g = 0; g < ng; g++)
    if (cnt[g] < 2 || hi[g] - lo[g] > MG_REP_EXACT_TOL) return 0;
  st->rse = 0;
  st->stop = MG_STOP_RSE;
  return 1;
}

const char *mg_rep_mode_name(mg_rep_mode mode) {
  switch (mode) {
  case MG_REP_FIXED: return "fixed";
  case MG_REP_TIME: return "time";
  case MG_REP_RSE: return "rse";
  case MG_REP_PAPER: return "paper";
  }
  return "?";
}

const char *mg_stop_name(mg_stop stop) {
  static const char *const names[] = {"", "nrep", "rse", "time", "max", "budget", "decided"};
  return (unsigned)stop < sizeof names / sizeof names[0] ? names[stop] : "?";
}
