/*
 * Unit tests of the sequential stopping rule (src/bench/seq.h; docs/statistics.md, "Stopping when
 * the verdict is decided"), on synthetic samples from a seeded generator, measured in batches and
 * looked at on the geometric schedule as the engine does: the order-statistic interval of a median against its binomial definition; a
 * clearly faster and a clearly slower mock-up decide early; equal distributions never decide a
 * violation, and do not decide before the RSE rule or --max-nrep stops them; a rotating root
 * decides a violation only when every root agrees; point-to-point rows both ways; the decision is a
 * function of the values only (their order does not matter); and, in the engine's own step
 * (mg_bench_seq_stop), a comparison still open when the default stops keeps its looks.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "bench/rep.h"
#include "bench/run.h"
#include "bench/sample.h"
#include "bench/seq.h"
#include "common/test.h"
#include "util/sort.h"

/* ---------- synthetic runtimes ---------- */

static uint64_t rng_state;
static double uniform(void) { /* xorshift64*, in (0, 1) */
  rng_state ^= rng_state >> 12, rng_state ^= rng_state << 25, rng_state ^= rng_state >> 27;
  return ((double)((rng_state * 2685821657736338717ull) >> 11) + 0.5) / 9007199254740992.0;
}
/* A runtime around `median` with a right tail: median x exp(spread x a standard normal). */
static double runtime(double median, double spread) {
  double z = sqrt(-2 * log(uniform())) * cos(2 * M_PI * uniform());
  return median * exp(spread * z);
}

#define MAXN 1000
#define NR 4 /* roots of the rotating-root cases */
#define BATCH 10

typedef struct series {
  double v[MAXN], sorted[MAXN];
  long n;
} series;

static void add(series *s, double median, double spread, long k) {
  for (long i = 0; i < k && s->n < MAXN; i++) s->v[s->n++] = runtime(median, spread);
}

static mg_seq_sample sample_of(series *s) {
  memcpy(s->sorted, s->v, (size_t)s->n * sizeof *s->v);
  mg_sort_doubles(s->sorted, (size_t)s->n);
  return (mg_seq_sample){s->sorted, s->n, 0, NULL, NULL};
}

/* The decision with a rotating root of NR: d[0], m[0] pooled, d[1..NR], m[1..NR] per root. */
static mg_seq_decision decide_roots(const mg_seq_cfg *c, series *d, series *m) {
  mg_seq_sample s[2][NR + 1];
  const double *rx[2][NR];
  long rn[2][NR];
  for (int i = 0; i <= NR; i++) s[0][i] = sample_of(&d[i]), s[1][i] = sample_of(&m[i]);
  for (int r = 0; r < NR; r++)
    rx[0][r] = s[0][r + 1].x, rx[1][r] = s[1][r + 1].x, rn[0][r] = s[0][r + 1].n, rn[1][r] = s[1][r + 1].n;
  mg_seq_sample sd = {s[0][0].x, s[0][0].n, NR, rx[0], rn[0]}, sm = {s[1][0].x, s[1][0].n, NR, rx[1], rn[1]};
  return mg_seq_decide(c, &sd, &sm);
}

static mg_seq_cfg cfg_of(long max_nrep) {
  mg_seq_cfg c;
  mg_seq_defaults(&c);
  c.looks = mg_seq_looks(&c, max_nrep);
  c.noise = 1e-6;
  return c;
}

/* Measure a default (median md) and a mock-up (mm) in batches that end on the schedule's points, as
 * the engine's do, until the rule decides or max_nrep: the decision, *n the values each had then. */
static mg_seq_decision simulate(double md, double mm, double spread, long max_nrep, long *n) {
  static series d, m;
  d.n = m.n = 0;
  mg_seq_cfg c = cfg_of(max_nrep);
  long last = -1;
  while (d.n < max_nrep) {
    long k = mg_seq_batch(mg_seq_next(&c, d.n, last), BATCH); /* the engine's batches (mg_bench_seq_rounds) */
    add(&d, md, spread, k), add(&m, mm, spread, k);
    long look = mg_seq_look_at(&c, d.n);
    if (look <= last) continue; /* between two points of the schedule: no look */
    last = look;
    mg_seq_sample sd = sample_of(&d), sm = sample_of(&m);
    mg_seq_decision x = mg_seq_decide(&c, &sd, &sm);
    if (x != MG_SEQ_OPEN) return *n = d.n, x;
  }
  return *n = d.n, MG_SEQ_OPEN;
}

/* ---------- tests ---------- */

static void test_median_ci(void) {
  TEST_CASE("order-statistic interval of the median");
  double x[100];
  for (int i = 0; i < 100; i++) x[i] = i + 1;
  double lo, hi;
  /* n = 100, 95 %: P(Bin <= 39) = 0.0176 <= 0.025 < P(Bin <= 40) = 0.0284, so [x_(40), x_(61)] */
  ASSERT_EQ(mg_seq_median_ci(x, 100, 0.05, &lo, &hi), 0);
  ASSERT_NEAR(lo, 40, 0);
  ASSERT_NEAR(hi, 61, 0);
  /* n = 5 at 90 %: P(Bin = 0) = 1/32 <= 0.05 < P(Bin <= 1) = 6/32: the whole range */
  ASSERT_EQ(mg_seq_median_ci(x, 5, 0.1, &lo, &hi), 0);
  ASSERT_NEAR(lo, 1, 0);
  ASSERT_NEAR(hi, 5, 0);
  /* n = 4 at 90 %: even the range misses with 2/16 > 0.1: no interval */
  ASSERT_EQ(mg_seq_median_ci(x, 4, 0.1, &lo, &hi), -1);
  /* n = 20 at the level of a look of check (g ~ 1e-5): only the whole range, 2 x 2^-20 */
  ASSERT_EQ(mg_seq_median_ci(x, 20, 1e-5, &lo, &hi), 0);
  ASSERT_NEAR(lo, 1, 0);
  ASSERT_NEAR(hi, 20, 0);
  ASSERT_EQ(mg_seq_median_ci(x, 16, 1e-5, &lo, &hi), -1);
}

static void test_schedule(void) {
  TEST_CASE("the look schedule: 12, then 20, 30, 45, 68, 102, 152, 228, 342, 513, 769 below 1000");
  mg_seq_cfg c = cfg_of(1000);
  ASSERT_EQ(c.looks, 11);
  ASSERT_EQ(mg_seq_looks(&c, 769), 10);
  ASSERT_EQ(mg_seq_looks(&c, 770), 11);
  ASSERT_EQ(mg_seq_looks(&c, 5), 1);
  c.growth = 2; /* 12, 20, 40, ..., 640 */
  ASSERT_EQ(mg_seq_looks(&c, 1000), 7);
  c.first = 0, c.growth = 1.5; /* without the first point: the old schedule, 20, 30, ... */
  ASSERT_EQ(mg_seq_looks(&c, 1000), 10);
  ASSERT_EQ(mg_seq_point(&c, 0), 20);
  c.first = 3, c.min_n = 3, c.growth = 1.1; /* first >= min_n: no extra point; rounding up never repeats one */
  ASSERT_EQ(mg_seq_looks(&c, 10), 7); /* 3, 4, 5, ..., 9 */
  c = cfg_of(1000);
  ASSERT_EQ(mg_seq_look_at(&c, 11), -1);
  ASSERT_EQ(mg_seq_look_at(&c, 12), 0);
  ASSERT_EQ(mg_seq_look_at(&c, 19), 0);
  ASSERT_EQ(mg_seq_look_at(&c, 20), 1);
  ASSERT_EQ(mg_seq_look_at(&c, 30), 2);
  ASSERT_EQ(mg_seq_look_at(&c, 68), 4);
  ASSERT_EQ(mg_seq_look_at(&c, 769), 10);
  ASSERT_EQ(mg_seq_look_at(&c, 5000), 10); /* never more looks than planned */
  TEST_CASE("batches that land on the points");
  ASSERT_EQ(mg_seq_next(&c, 0, -1), 12);
  ASSERT_EQ(mg_seq_next(&c, 12, 0), 8);
  ASSERT_EQ(mg_seq_next(&c, 12, -1), 8); /* the look due at 12 is held after this batch */
  ASSERT_EQ(mg_seq_next(&c, 30, 2), 15);
  ASSERT_EQ(mg_seq_next(&c, 769, 10), 0); /* no look left */
  ASSERT_EQ(mg_seq_batch(12, 10), 12);
  ASSERT_EQ(mg_seq_batch(8, 10), 8);
  ASSERT_EQ(mg_seq_batch(15, 10), 8); /* two batches, 8 and 7 */
  ASSERT_EQ(mg_seq_batch(23, 10), 12);
  ASSERT_EQ(mg_seq_batch(0, 10), 10);
  long n = 0, last = -1, hit = 0;
  while (n < 1000) { /* every point of the schedule is the end of a batch */
    n += mg_seq_batch(mg_seq_next(&c, n, last), 10);
    long k = mg_seq_look_at(&c, n);
    if (k > last) hit += mg_seq_point(&c, k) == n, last = k;
  }
  ASSERT_EQ(hit, 11);
}

/* What the schedule buys: equal medians (spread 5 %, a rotating root of 4, as bcast's and reduce's
 * cells) decide `consistent` in fewer values than with a look after every batch (100 looks, the old
 * rule: 155 values on average over these seeds; the ten-look schedule 128; with the first look at 12
 * and the consistent-only looks of a rooted cell, 125, batches of 10 here). */
static void test_fewer_values(void) {
  TEST_CASE("equal medians with a rotating root: consistent in fewer values than one look per batch");
  static series d[NR + 1], m[NR + 1];
  long total = 0;
  for (int rep = 0; rep < 20; rep++) {
    rng_state = 777 + (uint64_t)rep;
    for (int i = 0; i <= NR; i++) d[i].n = m[i].n = 0;
    mg_seq_cfg c = cfg_of(1000);
    long last = -1;
    mg_seq_decision x = MG_SEQ_OPEN;
    while (d[0].n < 1000 && x == MG_SEQ_OPEN) {
      for (int k = 0; k < BATCH; k++) {
        int r = (int)(d[0].n % NR) + 1;
        double a = runtime(1e-3, 0.05), b = runtime(1e-3, 0.05);
        d[r].v[d[r].n++] = a, m[r].v[m[r].n++] = b, d[0].v[d[0].n++] = a, m[0].v[m[0].n++] = b;
      }
      long look = mg_seq_look_at(&c, d[0].n);
      if (look <= last) continue;
      last = look;
      x = decide_roots(&c, d, m);
    }
    ASSERT_EQ(x, MG_SEQ_CONSISTENT);
    total += d[0].n;
  }
  ASSERT_MSG(total / 20 <= 140, "decided after %ld values on average (one look per batch: 155)", total / 20);
}

static void test_clear(void) {
  long n;
  rng_state = 42;
  TEST_CASE("a clearly faster mock-up: a violation, decided early");
  ASSERT_EQ(simulate(2e-3, 1e-3, 0.1, 1000, &n), MG_SEQ_VIOLATION);
  ASSERT_MSG(n <= 30, "decided after %ld values (expected <= 30)", n);
  TEST_CASE("a clearly slower mock-up: consistent, decided early");
  ASSERT_EQ(simulate(1e-3, 2e-3, 0.1, 1000, &n), MG_SEQ_CONSISTENT);
  ASSERT_MSG(n <= 30, "decided after %ld values (expected <= 30)", n);
  TEST_CASE("a faster mock-up by less than the noise threshold: no violation");
  rng_state = 43;
  mg_seq_decision x = simulate(2.0e-6, 1.5e-6, 0.05, 1000, &n); /* 0.5 us apart, noise 1 us */
  ASSERT_NE(x, MG_SEQ_VIOLATION);
  TEST_CASE("medians apart but the Mann-Whitney test weak: no violation");
  { /* n = 20: the intervals are [x_(3), x_(18)], and d_(3) = 19 > m_(18) = 18, yet two values of
     * each side lie beyond the other's, U = 18 x 18 = 324 of 400, one-sided p = 2.7e-4: not
     * significant once Holm shares 0.05 over more than 185 comparisons */
    double dv[20], mv[20];
    for (int i = 0; i < 18; i++) dv[i + 2] = 19 + i, mv[i] = 1 + i;
    dv[0] = 0.1, dv[1] = 0.2, mv[18] = 1000, mv[19] = 1001;
    mg_seq_cfg c0 = cfg_of(1000);
    mg_seq_sample a = {dv, 20, 0, NULL, NULL}, b = {mv, 20, 0, NULL, NULL};
    ASSERT_EQ(mg_seq_decide(&c0, &a, &b), MG_SEQ_OPEN);
    c0.test_z = 3; /* z = 3.34: with a weaker test the same samples decide */
    ASSERT_EQ(mg_seq_decide(&c0, &a, &b), MG_SEQ_VIOLATION);
  }
  TEST_CASE("fewer values than the first point: nothing decided");
  series d = {0}, m = {0};
  add(&d, 2, 0.01, 11), add(&m, 1, 0.01, 11);
  mg_seq_cfg c = cfg_of(1000);
  c.looks = 1;
  mg_seq_sample sd = sample_of(&d), sm = sample_of(&m);
  ASSERT_EQ(mg_seq_decide(&c, &sd, &sm), MG_SEQ_OPEN);
}

/* Equal distributions (a mock-up that makes the default's own call): never a violation, and
 * every decision `consistent` (true: within the margin). Against the RSE rule as check sets it (1 %,
 * at least 100 values): a narrow spread (2 %) decides sooner (at 20-45 values), a moderate one (10 %)
 * about when the RSE rule stops (sooner in 1 of these 5 seeds), a wide one (30 %, 60 %) never sooner:
 * those rows take as long as with --stop-rule rse. */
static void test_equal(void) {
  TEST_CASE("equal distributions: no violation; wide ones not decided before the RSE rule");
  mg_rep_cfg rc = {.mode = MG_REP_RSE, .rse = 0.01, .stat = MG_STAT_MEDIAN, .min_nrep = 100, .max_nrep = 1000};
  const double spreads[] = {0.02, 0.1, 0.3, 0.6};
  int violations = 0, sooner[4] = {0};
  for (int k = 0; k < 4; k++) {
    for (int rep = 0; rep < 5; rep++) {
      static series d, m;
      d.n = m.n = 0;
      rng_state = 1000 + 10 * (uint64_t)k + (uint64_t)rep;
      mg_seq_cfg c = cfg_of(rc.max_nrep);
      long last = -1;
      mg_rep_state sd_, sm_;
      mg_rep_init(&rc, &sd_, 0), mg_rep_init(&rc, &sm_, 0);
      long decided = -1, stopped = -1;
      while (d.n < rc.max_nrep) {
        add(&d, 1e-3, spreads[k], BATCH), add(&m, 1e-3, spreads[k], BATCH);
        mg_rep_update(&rc, &sd_, d.n, d.v, d.n, 0), mg_rep_update(&rc, &sm_, m.n, m.v, m.n, 0);
        if (stopped < 0 && sd_.stop != MG_STOP_NONE && sm_.stop != MG_STOP_NONE) stopped = d.n;
        long look = mg_seq_look_at(&c, d.n);
        if (look <= last) continue;
        last = look;
        mg_seq_sample a = sample_of(&d), b = sample_of(&m);
        mg_seq_decision x = mg_seq_decide(&c, &a, &b);
        violations += x == MG_SEQ_VIOLATION;
        if (x != MG_SEQ_OPEN && decided < 0) decided = d.n;
        if (stopped >= 0 && decided >= 0) break;
      }
      ASSERT_MSG(stopped >= 0, "spread %g: the RSE rule or max never stopped", spreads[k]);
      sooner[k] += decided >= 0 && decided < stopped;
    }
  }
  ASSERT_EQ(violations, 0);
  ASSERT_EQ(sooner[0], 5);
  ASSERT_EQ(sooner[2] + sooner[3], 0);
  TEST_CASE("equal wide distributions: nothing decided up to max");
  long n;
  rng_state = 7;
  ASSERT_EQ(simulate(1e-3, 1e-3, 0.6, 1000, &n), MG_SEQ_OPEN);
  ASSERT_EQ(n, 1000);
}

/* Under equal distributions a wrong decision (here: a violation) over all looks of a comparison has
 * probability <= error (0.01): none in 60 comparisons of 300 values (expected < 0.6). And the other
 * way, a `consistent` decided for a mock-up truly faster beyond the margin (slowdown 1.06 > 1.05), at
 * spreads from 0.5 % (the first look's whole-range interval nearly decides) to 30 %: at most 1 % of
 * 300 comparisons (the bound; the rule, conservative, makes none). */
static void test_error(void) {
  TEST_CASE("false violations under the null");
  int wrong = 0;
  long n;
  for (int k = 0; k < 60; k++) {
    rng_state = 5000 + (uint64_t)k;
    wrong += simulate(1e-3, 1e-3, 0.2, 300, &n) == MG_SEQ_VIOLATION;
  }
  ASSERT_EQ(wrong, 0);
  TEST_CASE("false consistent decisions: a mock-up 6 % faster");
  const double spreads[] = {0.005, 0.02, 0.3};
  wrong = 0;
  for (int k = 0; k < 300; k++) {
    rng_state = 9000 + (uint64_t)k;
    wrong += simulate(1.06e-3, 1e-3, spreads[k % 3], 200, &n) == MG_SEQ_CONSISTENT;
  }
  ASSERT_MSG(wrong <= 3, "%d of 300 comparisons decided consistent against the truth", wrong);
}

/* A rotating root of 4: the mock-up is 2x faster at roots 0-2 and 10 % slower at root 3, so pooled it
 * is clearly faster, yet no violation may be decided (the verdict needs every root); faster at every
 * root is one. */
static void test_roots(void) {
  TEST_CASE("a rotating root: a violation only when every root agrees");
  static series d[NR + 1], m[NR + 1]; /* [0] pooled, [1..NR] per root */
  for (int f = 0; f < 2; f++) {
    for (int i = 0; i <= NR; i++) d[i].n = m[i].n = 0;
    rng_state = 99 + (uint64_t)f;
    mg_seq_cfg c = cfg_of(1000);
    mg_seq_decision last = MG_SEQ_OPEN;
    int ever_violation = 0;
    for (long look = 0; look < MAXN / (NR * BATCH / 2) && last == MG_SEQ_OPEN; look++) {
      for (int r = 1; r <= NR; r++) {
        double mm = r < NR || f ? 0.5e-3 : 1.1e-3; /* f = 0: slower at the last root */
        for (int k = 0; k < BATCH / 2; k++) {
          double a = runtime(1e-3, 0.1), b = runtime(mm, 0.1);
          d[r].v[d[r].n++] = a, m[r].v[m[r].n++] = b;
          d[0].v[d[0].n++] = a, m[0].v[m[0].n++] = b;
        }
      }
      last = decide_roots(&c, d, m);
      ever_violation |= last == MG_SEQ_VIOLATION;
      if (look == 0) ASSERT_EQ(last, MG_SEQ_OPEN); /* 5 values per root: too few for any decision */
      if (f == 0 && look == 20) { /* pooled alone it is decided: the roots hold it back */
        mg_seq_sample pd = {d[0].sorted, d[0].n, 0, NULL, NULL}, pm = {m[0].sorted, m[0].n, 0, NULL, NULL};
        ASSERT_EQ(mg_seq_decide(&c, &pd, &pm), MG_SEQ_VIOLATION);
      }
    }
    if (f == 0) ASSERT_MSG(!ever_violation, "a violation decided though the last root is slower");
    else ASSERT_EQ(last, MG_SEQ_VIOLATION);
  }
}

static void test_both_ways(void) {
  TEST_CASE("point-to-point rows: both directions decided");
  series d = {0}, m = {0};
  rng_state = 3;
  add(&d, 1e-3, 0.01, 200), add(&m, 2e-3, 0.01, 200); /* the mock-up 2x slower */
  mg_seq_cfg c = cfg_of(1000);
  mg_seq_sample sd = sample_of(&d), sm = sample_of(&m);
  ASSERT_EQ(mg_seq_decide(&c, &sd, &sm), MG_SEQ_CONSISTENT);
  c.both_ways = 1; /* the reverse (eq. 5): the mock-up slower beyond the noise, a decided violation */
  ASSERT_EQ(mg_seq_decide(&c, &sd, &sm), MG_SEQ_CONSISTENT);
  c.noise = 2e-3; /* the difference within the noise: the reverse is neither violated nor within 1.05 */
  ASSERT_EQ(mg_seq_decide(&c, &sd, &sm), MG_SEQ_OPEN);
  c.both_ways = 0; /* one way it stays decided */
  ASSERT_EQ(mg_seq_decide(&c, &sd, &sm), MG_SEQ_CONSISTENT);
  d.n = m.n = 0;
  add(&d, 1e-3, 0.01, 200), add(&m, 1.02e-3, 0.01, 200); /* 2 % apart: within the margin both ways */
  sd = sample_of(&d), sm = sample_of(&m);
  c.both_ways = 1;
  ASSERT_EQ(mg_seq_decide(&c, &sd, &sm), MG_SEQ_CONSISTENT);
}

static void test_same_values(void) {
  TEST_CASE("the decision is a function of the values, not of their order");
  series d = {0}, m = {0};
  rng_state = 11;
  add(&d, 1.2e-3, 0.1, 60), add(&m, 1e-3, 0.1, 60);
  mg_seq_cfg c = cfg_of(1000);
  mg_seq_sample sd = sample_of(&d), sm = sample_of(&m);
  mg_seq_decision x = mg_seq_decide(&c, &sd, &sm);
  for (int k = 0; k < 20; k++) { /* shuffle the raw values (as another rank's rows could come) */
    for (long i = d.n - 1; i > 0; i--) {
      long j = (long)(uniform() * (double)(i + 1));
      double t = d.v[i];
      d.v[i] = d.v[j], d.v[j] = t;
    }
    sd = sample_of(&d);
    ASSERT_EQ(mg_seq_decide(&c, &sd, &sm), x);
  }
}


/* The engine's step (seq_engine.c) on a block of an allreduce, without MPI: a default (series 0)
 * and nseries - 1 mock-ups whose rows the caller fills, every repetition state open. */
#define NSER 3
typedef struct engine_fx {
  mg_bench_cfg cfg;
  mg_bench_result res;
  mg_bench_block B;
  double lat[NSER][MAXN];
  long round[NSER][MAXN];
  unsigned char valid[NSER][MAXN], warm[NSER][MAXN];
  run R;
  int act[NSER];
  mg_rep_state st[NSER];
} engine_fx;

static engine_fx *engine_setup(int nseries) {
  static engine_fx fx;
  memset(&fx, 0, sizeof fx);
  mg_seq_defaults(&fx.cfg.seq);
  fx.cfg.rep.max_nrep = MAXN;
  fx.R.cfg = &fx.cfg, fx.R.res = &fx.res;
  fx.B.coll = MG_ALLREDUCE, fx.B.nseries = nseries;
  for (int i = 0; i < nseries; i++) {
    mg_bench_series *se = &fx.B.series[i];
    se->alg = i, se->lat = fx.lat[i], se->round = fx.round[i], se->valid = fx.valid[i], se->warmup = fx.warm[i];
    fx.act[i] = i, fx.st[i].stop = MG_STOP_NONE, fx.st[i].seq_look = -1;
  }
  return &fx;
}

/* The engine's step (seq_engine.c) with a default that stops first: steady (1 % spread), its RSE rule
 * stops it at 200 values; the mock-up makes the same call with a 20 % spread, so at the look of 152
 * values its interval is still too wide for `consistent` (U_d / L_m about 1.08) and later ones narrow
 * it. The old step looked only when the smaller side (now the stopped default) reached a new point:
 * no look after 152, and the mock-up ran to the cap (1000). Now it is looked at when it reaches 228,
 * 342, ... against the default as it was at the last look (160 values, batches of 10), and decided. */
/* One run of the engine's step for test_default_stops_first; lagging: the mock-up's values are valid
 * only one in 20 until the default stopped (so it has no look before), all after. The values the
 * mock-up had when decided (-1: never), *dn what the default was read as. */
static long default_first(int lagging, long dn_stop, mg_stop why, long *dn) {
  engine_fx *fx = engine_setup(2);
  run *R = &fx->R;
  mg_bench_block *B = &fx->B;
  mg_rep_state *st = fx->st;
  const int *act = fx->act;
  rng_state = 0x5eed0031ull;
  long at = -1;
  while (B->series[1].n < MAXN && st[1].stop == MG_STOP_NONE) {
    for (int i = 0; i < 2; i++) {
      mg_bench_series *se = &B->series[i];
      if (st[i].stop != MG_STOP_NONE) continue;
      for (int k = 0; k < BATCH; k++, se->n++) {
        se->lat[se->n] = runtime(1e-3, i ? 0.2 : 0.01);
        se->round[se->n] = se->n, se->warmup[se->n] = 0;
        se->valid[se->n] = !(i && lagging && st[0].stop == MG_STOP_NONE && se->n % 20);
        se->nvalid += se->valid[se->n];
      }
    }
    if (B->series[0].n >= dn_stop && st[0].stop == MG_STOP_NONE) st[0].stop = why; /* steady: its rule met */
    ASSERT_EQ(mg_bench_seq_stop(R, B, act, 2, st), MPI_SUCCESS);
    if (st[1].stop == MG_STOP_DECIDED) at = B->series[1].n;
  }
  if (why == MG_STOP_RSE) { /* the RSE rule does not stop a default with a comparison open */
    ASSERT_EQ(B->series[0].n, B->series[1].n);
    ASSERT_EQ(st[0].stop, MG_STOP_RSE); /* met, and nothing left open */
  } else {
    ASSERT_EQ(B->series[0].n, dn_stop);
    ASSERT_EQ(st[0].stop, why);
  }
  *dn = st[1].seq_dn;
  return at;
}

/* The engine's step (seq_engine.c) with a default that stops first: steady (1 % spread), its RSE rule
 * stops it at 200 values; the mock-up makes the same call with a 20 % spread, so at the look of 152
 * values its interval is still too wide for `consistent` (U_d / L_m about 1.08) and later ones narrow
 * it. The old step looked only when the smaller side (now the stopped default) reached a new point:
 * no look after 152, and the mock-up ran to the cap (1000). Now it is looked at when it reaches 228,
 * 342, ... against the default as it was at the last look (160 values, batches of 10), and decided.
 * And a mock-up with no look before the default stopped (10 valid values of 200): its looks read the
 * default's first 152 values (the last point of the schedule it reached), every one of them. */
static void test_default_stops_first(void) {
  TEST_CASE("the default stops first (its cap, the time budget): the open comparison keeps its looks");
  long dn, at = default_first(0, 200, MG_STOP_MAX, &dn);
  ASSERT_EQ(dn, 160); /* the default as at its last look, not its 200 values */
  ASSERT_MSG(at > 200 && at < MAXN, "the mock-up decided at %ld values (the cap: %d)", at, MAXN);
  at = default_first(1, 200, MG_STOP_MAX, &dn);
  ASSERT_EQ(dn, 152);
  ASSERT_MSG(at > 200 && at < MAXN, "lagging: the mock-up decided at %ld values (the cap: %d)", at, MAXN);
  /* its RSE rule met at 200 values with the comparison open: the default measures on beside the
   * mock-up (the verdict reads both over the rounds they share), and the comparison is decided
   * with both sides growing; the old step stopped the default at 200 */
  TEST_CASE("the default's RSE rule met with a comparison open: it measures on");
  at = default_first(0, 200, MG_STOP_RSE, &dn);
  ASSERT_MSG(at > 200 && at < MAXN, "the mock-up decided at %ld values (the cap: %d)", at, MAXN);
}

/* The roots serve only a violation, so each root's two medians are bounded one-sided (the default's
 * from below, the mock-up's from above), each with the root's whole share on its one tail: at 60
 * values a root, the order statistic x_(c) with c one-sided is above the two-sided one. Planted at
 * that gap: at each of 2 roots the default's k = c(two-sided) smallest values are below the
 * mock-up's k largest, the rest far apart; two-sided the roots overlap (no decision), one-sided they
 * do not (a violation). */
static void test_roots_one_sided(void) {
  TEST_CASE("a rotating root: per-root bounds one-sided");
  enum { R = 2, N = 60 };
  double idx[N], lo, hi, d[R][N], m[R][N], pd[R * N], pm[R * N];
  for (int i = 0; i < N; i++) idx[i] = i + 1;
  mg_seq_cfg c = cfg_of(1000);
  double gr = c.error / (double)c.looks / (4.0 * R);
  ASSERT_EQ(mg_seq_median_ci(idx, N, gr, &lo, &hi), 0);
  long two = (long)lo;
  ASSERT_EQ(mg_seq_median_ci(idx, N, 2 * gr, &lo, &hi), 0);
  long one = (long)lo;
  ASSERT_MSG(one > two, "one-sided c %ld, two-sided %ld", one, two);
  for (int r = 0; r < R; r++)
    for (int i = 0; i < N; i++) {
      d[r][i] = i < two ? 1.5e-3 : 2e-3 + 1e-6 * i; /* ascending; the low ones above most of the mock-up */
      m[r][i] = i < N - two ? 1e-3 + 1e-6 * i : 3e-3 + 1e-6 * i;
      pd[r * N + i] = d[r][i], pm[r * N + i] = m[r][i];
    }
  mg_sort_doubles(pd, R * N), mg_sort_doubles(pm, R * N);
  const double *rd[R] = {d[0], d[1]}, *rm[R] = {m[0], m[1]};
  long rn[R] = {N, N};
  mg_seq_sample sd = {pd, R * N, R, rd, rn}, sm = {pm, R * N, R, rm, rn};
  ASSERT_EQ(mg_seq_decide(&c, &sd, &sm), MG_SEQ_VIOLATION);
}

/* The first look, at 12 values (docs/statistics.md, "Stopping when the verdict is decided"): no
 * violation can be decided at 12 values a side (the Mann-Whitney score reaches at most 4.13 < 4.75),
 * so the look's whole share goes to the consistent decision's two one-sided ends, and at that level
 * (2 x 9.1e-4 / 2 per end, eleven looks) the whole range is an interval: a mock-up whose smallest
 * value is above the default's largest within the margin is decided `consistent` at 12 values (the
 * old rule: not before 20). Uses only what the rule had before (mg_seq_defaults, mg_seq_decide). */
static void test_first_look(void) {
  TEST_CASE("a clearly slower mock-up: consistent at the first look, 12 values");
  static series d[NR + 1], m[NR + 1];
  mg_seq_cfg c;
  mg_seq_defaults(&c);
  c.looks = 11, c.noise = 1e-6;
  rng_state = 1212;
  for (int i = 0; i <= NR; i++) d[i].n = m[i].n = 0;
  for (long k = 0; k < 12; k++) { /* a rotating root of 4: 3 values a root */
    int r = (int)(k % NR) + 1;
    double a = runtime(1e-3, 0.05), b = runtime(1.5e-3, 0.05);
    d[r].v[d[r].n++] = a, m[r].v[m[r].n++] = b, d[0].v[d[0].n++] = a, m[0].v[m[0].n++] = b;
  }
  mg_seq_sample sd = sample_of(&d[0]), sm = sample_of(&m[0]);
  ASSERT_EQ(mg_seq_decide(&c, &sd, &sm), MG_SEQ_CONSISTENT);
  ASSERT_EQ(decide_roots(&c, d, m), MG_SEQ_CONSISTENT); /* the roots serve only a violation */
  TEST_CASE("the first look: a faster mock-up is not decided, nor one within the margin at the ends");
  mg_seq_decision x = mg_seq_decide(&c, &sm, &sd); /* swapped: the mock-up 1.5x faster */
  ASSERT_EQ(x, MG_SEQ_OPEN);
  double dv[12], mv[12];
  for (int i = 0; i < 12; i++) dv[i] = 1 + 0.001 * i, mv[i] = 1.2 + 0.001 * i;
  dv[11] = 1.3; /* one default value above the mock-up's smallest x 1.05: the range is the interval */
  mg_seq_sample a = {dv, 12, 0, NULL, NULL}, b = {mv, 12, 0, NULL, NULL};
  ASSERT_EQ(mg_seq_decide(&c, &a, &b), MG_SEQ_OPEN);
  dv[11] = 1.25;
  ASSERT_EQ(mg_seq_decide(&c, &a, &b), MG_SEQ_CONSISTENT);
  TEST_CASE("the first look's level: the whole range is an interval at its share, not at half of it");
  double lo, hi, share = c.error / 11;
  ASSERT_EQ(mg_seq_median_ci(dv, 12, share, &lo, &hi), 0);
  ASSERT_EQ(mg_seq_median_ci(dv, 12, share / 2, &lo, &hi), -1);
  ASSERT_EQ(mg_seq_median_ci(dv, 11, share, &lo, &hi), -1); /* 11 values: none, so 12 is the first */
  TEST_CASE("a point-to-point row at the first look: both ways need four ends, too many for 12 values");
  mg_seq_sample e = {dv, 12, 0, NULL, NULL}; /* the same values both sides: within the margin both ways */
  dv[11] = 1.011;
  ASSERT_EQ(mg_seq_decide(&c, &a, &e), MG_SEQ_CONSISTENT);
  c.both_ways = 1;
  ASSERT_EQ(mg_seq_decide(&c, &a, &e), MG_SEQ_OPEN);
}

/* The engine's step and its batches (seq_engine.c: mg_bench_seq_rounds before a batch,
 * mg_bench_seq_stop after it) on a default and two mock-ups, 1.5x slower and equal (10 % spread):
 * the first batch is of 12 rounds and the slower mock-up is decided there; the equal one is looked
 * at exactly at the points 12, 20, 30, 45, 68, ... (each batch that holds a look ends on its point). */
static void test_engine_batches(void) {
  TEST_CASE("the engine's batches end on the points; a clear case decided at 12 values");
  engine_fx *fx = engine_setup(3);
  mg_bench_block *B = &fx->B;
  mg_rep_state *st = fx->st;
  rng_state = 0x5eed0612ull;
  const double med[3] = {1e-3, 1.5e-3, 1e-3};
  long first = -1, at_look[16], nlooks = 0, decided1 = -1;
  mg_seq_cfg c = fx->cfg.seq;
  c.looks = mg_seq_looks(&c, MAXN);
  while (st[2].stop == MG_STOP_NONE && B->series[2].n < MAXN) {
    long k = mg_bench_seq_rounds(&fx->R, B, fx->act, 3, st, 10);
    if (first < 0) first = k;
    if (k > MAXN - B->series[2].n) k = MAXN - B->series[2].n;
    for (int i = 0; i < 3; i++) {
      mg_bench_series *se = &B->series[i];
      if (st[i].stop != MG_STOP_NONE) continue;
      for (long j = 0; j < k; j++, se->n++) {
        se->lat[se->n] = runtime(med[i], 0.1);
        se->round[se->n] = se->n, se->warmup[se->n] = 0, se->valid[se->n] = 1, se->nvalid++;
      }
    }
    long before = st[2].seq_look;
    ASSERT_EQ(mg_bench_seq_stop(&fx->R, B, fx->act, 3, st), MPI_SUCCESS);
    if (st[2].seq_look > before && nlooks < 16) at_look[nlooks++] = B->series[2].n;
    if (decided1 < 0 && st[1].stop == MG_STOP_DECIDED) decided1 = B->series[1].n;
  }
  ASSERT_EQ(first, 12);
  ASSERT_EQ(decided1, 12);
  ASSERT_MSG(nlooks >= 5, "the equal mock-up had %ld looks", nlooks);
  for (long j = 0; j < nlooks; j++) ASSERT_EQ(at_look[j], mg_seq_point(&c, j));
}

int main(void) {
  test_median_ci();
  test_schedule();
  test_fewer_values();
  test_clear();
  test_first_look();
  test_engine_batches();
  test_equal();
  test_error();
  test_roots();
  test_both_ways();
  test_same_values();
  test_default_stops_first();
  test_roots_one_sided();
  return mg_test_summary("unit_seq");
}
