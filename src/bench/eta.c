/*
 * The time left of a measurement (eta.h): per-key tables of the measured seconds per value and
 * values per variant by size, and the machine's slowness from a probe read against its own cell.
 */
#include <math.h>
#include <string.h>

#include "bench/eta.h"
#include "util/sort.h"

void mg_eta_init(mg_eta *e) { memset(e, 0, sizeof *e); }

unsigned long long mg_eta_class(int key, double bytes) {
  return ((unsigned long long)(key + 1) << 48) ^ (unsigned long long)(bytes > 0 ? bytes : 0);
}

static double median_of(const double *x, long n) {
  double v[MG_ETA_PROBES > MG_ETA_BASE ? MG_ETA_PROBES : MG_ETA_BASE];
  memcpy(v, x, (size_t)n * sizeof *v);
  return mg_median_inplace(v, (size_t)n);
}

/* The slowness of the last readings (their median; 1 before any): what a new cell begins at, so
 * that the chain of bases carries the machine's state, not the minute's average. */
static double slower_now(const mg_eta *e) {
  if (e->nreadings == 0) return 1;
  long n = e->nreadings < MG_ETA_PROBES ? e->nreadings : MG_ETA_PROBES;
  return median_of(e->last, n);
}

/* A reading of the slowness over `seconds`: the median of the last 9 (a single odd probe does not
 * move it), averaged in logs over about a minute (weight exp(-seconds / MG_ETA_TAU) on the past). */
static void reading(mg_eta *e, double s, double seconds) {
  e->last[e->nreadings % MG_ETA_PROBES] = s;
  e->nreadings++;
  double m = log(slower_now(e)), k = exp(-(seconds > 0 ? seconds : 0) / MG_ETA_TAU);
  e->lslow = e->nreadings == 1 ? m : e->lslow * k + m * (1 - k);
}

void mg_eta_probe(mg_eta *e, double probe, unsigned long long cls, double seconds) {
  if (!(probe > 0)) return;
  int i = 0;
  while (i < e->ncls && e->cls[i].id != cls) i++;
  if (i == e->ncls) { /* a new cell: it begins at the slowness now (a full table: no reading) */
    if (e->ncls == MG_ETA_CLASSES) return;
    e->cls[i] = (struct mg_eta_class){.id = cls, .s0 = slower_now(e)};
    e->ncls++;
  }
  struct mg_eta_class *c = &e->cls[i];
  if (c->n < MG_ETA_BASE) { /* its base is being measured: it reads as the slowness it began at */
    c->first[c->n++] = probe;
    if (c->n == MG_ETA_BASE) c->base = median_of(c->first, MG_ETA_BASE) / c->s0;
    reading(e, c->s0, seconds);
    return;
  }
  reading(e, probe / c->base, seconds);
}

double mg_eta_slower(const mg_eta *e) {
  if (e->nreadings == 0) return 1;
  double s = exp(e->lslow);
  return s > 0 && isfinite(s) ? s : 1;
}

void mg_eta_set_cap(mg_eta *e, double values) { e->cap = values > 0 ? values : 0; }

static void add(mg_eta *e, int k, double bytes, double y, double v) {
  int i = 0;
  while (i < e->nsz[k] && e->bytes[k][i] < bytes) i++;
  if (i < e->nsz[k] && e->bytes[k][i] == bytes) {
    e->sum[k][i] += y, e->val[k][i] += v, e->cnt[k][i]++;
    return;
  }
  if (e->nsz[k] == MG_ETA_SIZES) return;
  memmove(&e->bytes[k][i + 1], &e->bytes[k][i], (size_t)(e->nsz[k] - i) * sizeof e->bytes[k][0]);
  memmove(&e->sum[k][i + 1], &e->sum[k][i], (size_t)(e->nsz[k] - i) * sizeof e->sum[k][0]);
  memmove(&e->val[k][i + 1], &e->val[k][i], (size_t)(e->nsz[k] - i) * sizeof e->val[k][0]);
  memmove(&e->cnt[k][i + 1], &e->cnt[k][i], (size_t)(e->nsz[k] - i) * sizeof e->cnt[k][0]);
  e->bytes[k][i] = bytes, e->sum[k][i] = y, e->val[k][i] = v, e->cnt[k][i] = 1;
  e->nsz[k]++;
}

/* The previous launch's cell of key and size, or NULL. */
static const struct mg_eta_prior *prior_of(const mg_eta *e, int key, double bytes) {
  for (int i = 0; i < e->nprior; i++)
    if (e->prior[i].key == key && e->prior[i].bytes == bytes) return &e->prior[i];
  return NULL;
}

void mg_eta_prior(mg_eta *e, int key, double bytes, double seconds) {
  if (!(seconds >= 0)) return;
  struct mg_eta_prior *p = (struct mg_eta_prior *)prior_of(e, key, bytes);
  if (!p) {
    if (e->nprior == MG_ETA_PRIORS) return;
    p = &e->prior[e->nprior++];
    *p = (struct mg_eta_prior){.key = key, .bytes = bytes};
  }
  p->seconds += seconds, p->cnt++;
}

/* The blocks done against the same blocks then, with MG_ETA_PRIOR_S seconds of each added: the
 * first blocks, small and few, barely move it (eta.h). */
double mg_eta_prior_ratio(const mg_eta *e) { return (e->pr_now + MG_ETA_PRIOR_S) / (e->pr_then + MG_ETA_PRIOR_S); }

void mg_eta_block(mg_eta *e, int key, double bytes, int nvar, double values, double seconds, double slower) {
  if (nvar < 1 || !(values > 0) || !(seconds >= 0)) return;
  const struct mg_eta_prior *p = prior_of(e, key, bytes);
  if (p) e->pr_now += seconds / (slower > 0 ? slower : 1), e->pr_then += p->seconds / p->cnt;
  double y = seconds / nvar / values / (slower > 0 ? slower : 1);
  if (key >= 0 && key < MG_ETA_KEYS - 1) add(e, key, bytes, y, values);
  add(e, MG_ETA_KEYS - 1, bytes, y, values);
}

static double prior(double bytes) { return 1 + bytes / 8192; }

static double lookup(const mg_eta *e, int k, double bytes);

/* Table k's cost at `bytes` outside its sizes, from its nearest size j: scaled by the shape of another
 * key that covers both sizes (the one with most sizes: how cost grows with size there), else by the
 * prior shape. One key's shape, not the pooled table's: pooled, the keys' levels would mix into it. */
static double outside(const mg_eta *e, int k, int j, double bytes) {
  double yj = e->sum[k][j] / e->cnt[k][j], xj = e->bytes[k][j];
  double lo = bytes < xj ? bytes : xj, hi = bytes < xj ? xj : bytes;
  int ref = -1;
  for (int r = 0; r < MG_ETA_KEYS - 1; r++)
    if (r != k && e->nsz[r] > 1 && e->bytes[r][0] <= lo && hi <= e->bytes[r][e->nsz[r] - 1] &&
        (ref < 0 || e->nsz[r] > e->nsz[ref]))
      ref = r;
  if (ref >= 0) {
    double a = lookup(e, ref, bytes), b = lookup(e, ref, xj);
    if (a > 0 && b > 0) return yj * a / b;
  }
  return yj * prior(bytes) / prior(xj);
}

/* The seconds per value at `bytes` from table k (which has sizes). */
static double lookup(const mg_eta *e, int k, double bytes) {
  int n = e->nsz[k], i = 0;
  while (i < n && e->bytes[k][i] < bytes) i++;
  if (i < n && e->bytes[k][i] == bytes) return e->sum[k][i] / e->cnt[k][i];
  if (i == 0 || i == n) return outside(e, k, i == 0 ? 0 : n - 1, bytes);
  double x0 = e->bytes[k][i - 1], x1 = e->bytes[k][i];
  double y0 = e->sum[k][i - 1] / e->cnt[k][i - 1], y1 = e->sum[k][i] / e->cnt[k][i];
  if (!(x0 > 0) || !(y0 > 0) || !(y1 > 0)) return y0 + (y1 - y0) * (bytes - x0) / (x1 - x0);
  double t = log(bytes / x0) / log(x1 / x0); /* log-log: a power law between the two */
  return exp(log(y0) + t * (log(y1) - log(y0)));
}

static double vals_at(const mg_eta *e, int k, int i) { return e->val[k][i] / e->cnt[k][i]; }

/* The values per variant of table k's blocks, their mean (each block counts once). */
static double mean_vals(const mg_eta *e, int k) {
  double v = 0, c = 0;
  for (int i = 0; i < e->nsz[k]; i++) v += e->val[k][i], c += e->cnt[k][i];
  return c > 0 ? v / c : 0;
}

/* The values per variant at `bytes` from table k (which has sizes): between two measured sizes the
 * larger, beyond the largest the mean of every block measured so far, of any key, no more than the
 * cap (eta.h). */
static double values(const mg_eta *e, int k, double bytes) {
  int n = e->nsz[k], i = 0;
  while (i < n && e->bytes[k][i] < bytes) i++;
  if (i < n && e->bytes[k][i] == bytes) return vals_at(e, k, i);
  if (i == 0) return vals_at(e, k, 0);
  if (i < n) return fmax(vals_at(e, k, i - 1), vals_at(e, k, i));
  double m = mean_vals(e, MG_ETA_KEYS - 1); /* beyond: the mean over every block measured (eta.h) */
  return e->cap > 0 ? fmin(m, e->cap) : m;
}

double mg_eta_cost(const mg_eta *e, int key, double bytes, int nvar) {
  const struct mg_eta_prior *p = prior_of(e, key, bytes);
  if (p) return p->seconds / p->cnt * mg_eta_prior_ratio(e);
  int k = key >= 0 && key < MG_ETA_KEYS - 1 && e->nsz[key] > 0 ? key : MG_ETA_KEYS - 1;
  if (e->nsz[k] == 0) return NAN;
  return lookup(e, k, bytes) * values(e, k, bytes) * (nvar > 0 ? nvar : 1);
}

double mg_eta_cost_budget(const mg_eta *e, int key, double bytes, int nvar, double share, double slower,
                          double floor_values) {
  double c = mg_eta_cost(e, key, bytes, nvar);
  if (!(share > 0) || !isfinite(c)) return c;
  double cut = share / (slower > 0 ? slower : 1);
  if (c > cut) c = cut;
  int k = key >= 0 && key < MG_ETA_KEYS - 1 && e->nsz[key] > 0 ? key : MG_ETA_KEYS - 1;
  if (e->nsz[k] > 0 && floor_values > 0) { /* one batch per variant: no block takes less */
    double v = values(e, k, bytes), f = lookup(e, k, bytes) * (v < floor_values ? v : floor_values) * (nvar > 0 ? nvar : 1);
    if (isfinite(f) && c < f) c = f;
  }
  return c;
}

double mg_eta_launches_left(double elapsed, double frac, double budget, int launch, int launches, double startup,
                            double *this_left, int *over) {
  double left = NAN, total = NAN;
  int past = 0;
  if (frac > 0.02 && frac <= 1 && elapsed >= 0) {
    left = elapsed * (1 - frac) / frac;
    if (budget > 0 && elapsed < budget && left > budget - elapsed) left = budget - elapsed;
    past = budget > 0 && (elapsed >= budget || elapsed + left > 1.1 * budget);
    int after = launches > launch && launch > 0 ? launches - launch : 0;
    total = left + after * (elapsed + left + (startup > 0 ? startup : 0));
  }
  if (this_left) *this_left = left;
  if (over) *over = past;
  return total;
}
