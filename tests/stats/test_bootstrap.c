/*
 * The bootstrap behind the slowdown interval (src/stats/slowdown.c) draws a replicate's medians
 * by bisecting the sorted pool with binomial counts, not by drawing every value. These tests check
 * that it is the bootstrap in law, against two references that draw it the plain way:
 *
 *  exact:     tiny data sets (n = 1..5, ties, 2 and 3 launches of uneven sizes) whose bootstrap
 *             distribution of the median is enumerated here over every launch draw and every
 *             resample; 20000 replicates must fit it (chi-square, p > 1e-4). For n = 3 the
 *             enumeration itself is checked against the closed form
 *             P(median <= x_(j)) = P(Binomial(3, j/3) >= 2).
 *  reference: larger data sets (L = 1 and 3, uneven launches, ties, odd and even totals): 20000
 *             replicate ratios against 20000 of the O(n) resampler the library used before (kept
 *             here, not in the library: every value of every drawn launch drawn with
 *             gsl_rng_uniform_int), two-sample Kolmogorov-Smirnov D below 0.0195 (its 0.1 %
 *             critical value for continuous data; conservative for these discrete ones).
 *
 * Fixed seeds: each test gives the same answer every run. Implementations that are wrong in the
 * ways a bisection goes wrong fail them (seen while writing them, 3 to 9 failures each): the upper
 * middle rank taken for both middle ranks, a launch drawn twice given one resample counted twice,
 * a launch drawn twice counted once, the upper half keeping the whole range's counts when the
 * middle ranks part.
 */
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_rng.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/test.h"
#include "stats/stats.h"
#include "stats/stats_internal.h"

#define N_OF(arr) (sizeof(arr) / sizeof((arr)[0]))
#define REPS 20000

static int cmp_double(const void *p, const void *q) {
  double a = *(const double *)p, b = *(const double *)q;
  return (a > b) - (a < b);
}

/* The type 7 median of sorted v[0..n), written as the library writes it (same rounding). */
static double median_sorted(const double *v, size_t n) {
  size_t lo = (n - 1) / 2, hi = n / 2;
  return lo == hi ? v[lo] : v[lo] + 0.5 * (v[hi] - v[lo]);
}

/* ---------------------------------------------------------------- exact enumeration */

enum { MAXV = 64, MAXT = 12 };

typedef struct {
  const char *name;
  size_t L;
  size_t off[4];
  double x[8];
} tiny;

typedef struct {
  double v[MAXV], p[MAXV];
  size_t n;
} dist;

static void dist_add(dist *d, double v, double p) {
  for (size_t i = 0; i < d->n; i++)
    if (d->v[i] == v) {
      d->p[i] += p;
      return;
    }
  if (d->n < MAXV) d->v[d->n] = v, d->p[d->n++] = p;
}

/* Every resample of the launches chosen in pick[0..L): draw j of `total` takes any value of its
 * launch, each with probability 1/size. */
static void enum_draws(const tiny *t, const size_t *pick, size_t j, size_t total, double *drawn, double p, dist *d) {
  if (j == total) {
    double v[MAXT];
    memcpy(v, drawn, total * sizeof *v);
    qsort(v, total, sizeof *v, cmp_double);
    dist_add(d, median_sorted(v, total), p);
    return;
  }
  size_t k = 0, before = 0; /* the launch instance draw j belongs to */
  while (before + (t->off[pick[k] + 1] - t->off[pick[k]]) <= j) before += t->off[pick[k] + 1] - t->off[pick[k]], k++;
  size_t lo = t->off[pick[k]], m = t->off[pick[k] + 1] - lo;
  for (size_t i = 0; i < m; i++) {
    drawn[j] = t->x[lo + i];
    enum_draws(t, pick, j + 1, total, drawn, p / (double)m, d);
  }
}

/* The exact two-stage bootstrap distribution of the median of t: all L^L launch draws. */
static void enumerate(const tiny *t, dist *d) {
  size_t pick[4], combos = 1;
  for (size_t i = 0; i < t->L; i++) combos *= t->L;
  d->n = 0;
  for (size_t c = 0; c < combos; c++) {
    size_t rest = c, total = 0;
    for (size_t i = 0; i < t->L; i++) pick[i] = rest % t->L, rest /= t->L, total += t->off[pick[i] + 1] - t->off[pick[i]];
    double drawn[MAXT];
    enum_draws(t, pick, 0, total, drawn, 1.0 / (double)combos, d);
  }
}

static void test_closed_form(void) {
  /* n = 3: P(median = x_(1)) = P(Bin(3, 1/3) >= 2) = 7/27, P(median <= x_(2)) = P(Bin(3, 2/3) >= 2)
   * = 20/27, so 7/27, 13/27, 7/27: the enumeration must agree before it judges anything */
  tiny t = {"n3", 1, {0, 3}, {4, 1, 2}};
  dist d;
  enumerate(&t, &d);
  ASSERT_EQ(d.n, 3);
  for (size_t i = 0; i < d.n; i++) {
    double want = d.v[i] == 2 ? 13.0 / 27 : 7.0 / 27;
    ASSERT_NEAR(d.p[i], want, 1e-15);
  }
}

static void test_exact(void) {
  static const tiny sets[] = {
      {"n1", 1, {0, 1}, {2}},
      {"n2", 1, {0, 2}, {1, 3}},
      {"n3", 1, {0, 3}, {4, 1, 2}},
      {"n4 ties", 1, {0, 4}, {2, 1, 5, 2}},
      {"n5", 1, {0, 5}, {3, 5, 1, 4, 2}},
      {"n5 ties", 1, {0, 5}, {3, 3, 1, 3, 7}},
      {"L2 sizes 2,1", 2, {0, 2, 3}, {1, 4, 2}},
      {"L3 sizes 1,2,1", 3, {0, 1, 3, 4}, {3, 1, 5, 2}},
      {"L3 sizes 2,1,2 ties", 3, {0, 2, 3, 5}, {1, 2, 2, 2, 6}},
  };
  double *rep = malloc(REPS * sizeof *rep);
  for (size_t s = 0; s < N_OF(sets); s++) {
    const tiny *t = &sets[s];
    TEST_CASE(t->name);
    dist d;
    enumerate(t, &d);
    /* B: one value 1 per launch, so a replicate's ratio is its median of A */
    double one[4] = {1, 1, 1, 1};
    size_t boff[5] = {0, 1, 2, 3, 4};
    ASSERT_EQ_NAMED(mg_stats__slowdown_replicates(t->x, t->off, one, boff, t->L, REPS, 17 + (uint32_t)s, rep),
                    MG_STATS_OK, mg_stats_strerror);
    double count[MAXV] = {0};
    size_t outside = 0;
    for (size_t r = 0; r < REPS; r++) {
      size_t i = 0;
      while (i < d.n && d.v[i] != rep[r]) i++;
      if (i < d.n)
        count[i]++;
      else
        outside++;
    }
    ASSERT_EQ(outside, 0); /* every replicate is a median some resample has */
    double chi2 = 0;
    for (size_t i = 0; i < d.n; i++) chi2 += (count[i] - REPS * d.p[i]) * (count[i] - REPS * d.p[i]) / (REPS * d.p[i]);
    double p = d.n > 1 ? gsl_cdf_chisq_Q(chi2, (double)(d.n - 1)) : 1.0;
    printf("exact %-22s %2zu values, chi-square %6.1f, p = %.3f\n", t->name, d.n, chi2, p);
    ASSERT_MSG(p > 1e-4, "%s: chi-square %.1f on %zu values, p = %.3g <= 1e-4", t->name, chi2, d.n, p);
  }
  free(rep);
}

/* ---------------------------------------------------------------- the former resampler */

/* One side drawn the plain way: the medians of w[k] resamples of launch k, each value drawn. */
static double plain_median(gsl_rng *g, const double *x, const size_t *off, size_t L, const size_t *w, double *buf) {
  size_t t = 0;
  for (size_t k = 0; k < L; k++)
    for (size_t c = 0; c < w[k]; c++) {
      size_t m = off[k + 1] - off[k];
      for (size_t i = 0; i < m; i++) buf[t++] = x[off[k] + gsl_rng_uniform_int(g, (unsigned long)m)];
    }
  qsort(buf, t, sizeof *buf, cmp_double);
  return median_sorted(buf, t);
}

static void plain_replicates(const double *a, const size_t *aoff, const double *b, const size_t *boff, size_t L,
                             uint32_t seed, double *rep) {
  gsl_rng *g = gsl_rng_alloc(gsl_rng_mt19937);
  gsl_rng_set(g, seed);
  double *buf = malloc(L * (aoff[L] + boff[L]) * sizeof *buf);
  size_t w[8];
  for (size_t r = 0; r < REPS; r++) {
    memset(w, 0, sizeof w);
    for (size_t d = 0; d < L; d++) w[gsl_rng_uniform_int(g, (unsigned long)L)]++;
    double ma = plain_median(g, a, aoff, L, w, buf);
    rep[r] = ma / plain_median(g, b, boff, L, w, buf);
  }
  free(buf);
  gsl_rng_free(g);
}

/* Two-sample Kolmogorov-Smirnov D of sorted x[0..n) and y[0..n), ties taken together. */
static double ks(const double *x, const double *y, size_t n) {
  size_t i = 0, j = 0;
  double d = 0;
  while (i < n && j < n) {
    double v = x[i] < y[j] ? x[i] : y[j];
    while (i < n && x[i] == v) i++;
    while (j < n && y[j] == v) j++;
    double diff = fabs((double)i - (double)j) / (double)n;
    if (diff > d) d = diff;
  }
  return d;
}

/* Launch k of a side: m[k] values around centre[k], on a grid of `tick` (ties when coarse). */
static size_t make_side(size_t L, const size_t *m, const double *centre, double tick, double *x, size_t *off) {
  off[0] = 0;
  for (size_t k = 0; k < L; k++) {
    for (size_t i = 0; i < m[k]; i++) {
      double u = (double)((i * 7919 + k * 104729) % 1000) / 1000.0; /* spread over [0, 1) */
      double v = centre[k] * (1 + 0.3 * u * u * u);                  /* skewed to the right */
      x[off[k] + i] = tick > 0 ? tick * (1 + (long)(v / tick)) : v;
    }
    off[k + 1] = off[k] + m[k];
  }
  return off[L];
}

static void test_reference(void) {
  static const struct {
    const char *name;
    size_t L;
    size_t ma[3], mb[3];
    double ca[3], cb[3], tick;
  } sets[] = {
      {"L1 odd", 1, {101}, {61}, {1.2}, {1.0}, 0},
      {"L1 even ties", 1, {100}, {40}, {1.1}, {1.0}, 0.02},
      {"L1 n 2 and 1", 1, {2}, {1}, {1.5}, {1.0}, 0},
      {"L2 even", 2, {10, 20}, {6, 6}, {1.0, 1.4}, {1.0, 1.1}, 0},
      {"L3 uneven", 3, {40, 7, 90}, {30, 12, 51}, {1.0, 1.3, 1.1}, {1.0, 0.9, 1.05}, 0},
      {"L3 ties", 3, {25, 25, 26}, {20, 21, 20}, {1.0, 1.0, 1.2}, {1.0, 1.1, 1.0}, 0.1},
  };
  double *x = malloc(2 * REPS * sizeof *x), *y = x + REPS;
  for (size_t s = 0; s < N_OF(sets); s++) {
    TEST_CASE(sets[s].name);
    double a[200], b[200];
    size_t aoff[4], boff[4], L = sets[s].L;
    make_side(L, sets[s].ma, sets[s].ca, sets[s].tick, a, aoff);
    make_side(L, sets[s].mb, sets[s].cb, sets[s].tick, b, boff);
    ASSERT_EQ_NAMED(mg_stats__slowdown_replicates(a, aoff, b, boff, L, REPS, 5 + (uint32_t)s, x), MG_STATS_OK,
                    mg_stats_strerror);
    plain_replicates(a, aoff, b, boff, L, 1000 + (uint32_t)s, y);
    qsort(x, REPS, sizeof *x, cmp_double);
    qsort(y, REPS, sizeof *y, cmp_double);
    double d = ks(x, y, REPS);
    printf("reference %-18s Kolmogorov-Smirnov D = %.4f\n", sets[s].name, d);
    ASSERT_MSG(d < 0.0195, "%s: Kolmogorov-Smirnov D = %.4f >= 0.0195 against the plain resampler", sets[s].name, d);
  }
  free(x);
}

int main(void) {
  struct {
    const char *name;
    void (*fn)(void);
  } groups[] = {{"closed_form", test_closed_form}, {"exact", test_exact}, {"reference", test_reference}};
  for (size_t i = 0; i < N_OF(groups); i++) {
    TEST_CASE(groups[i].name);
    groups[i].fn();
  }
  return mg_test_summary("test_stats_bootstrap");
}
