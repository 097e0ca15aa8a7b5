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
  c.looks = mg_seq_looks(max_nrep, c.min_n, c.growth);
  c.noise = 1e-6;
  return c;
}

/* Measure a default (median md) and a mock-up (mm) in batches until the rule decides or max_nrep:
 * the decision, *n the values each had then. */
static mg_seq_decision simulate(double md, double mm, double spread, long max_nrep, long *n) {
  static series d, m;
  d.n = m.n = 0;
  mg_seq_cfg c = cfg_of(max_nrep);
  long last = -1;
  while (d.n < max_nrep) {
    add(&d, md, spread, BATCH), add(&m, mm, spread, BATCH);
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
  TEST_CASE("the look schedule: 20, 30, 45, 68, 102, 152, 228, 342, 513, 769 below 1000");
  ASSERT_EQ(mg_seq_looks(1000, 20, 1.5), 10);
  ASSERT_EQ(mg_seq_looks(1000, 20, 2), 6); /* 20, 40, ..., 640 */
  ASSERT_EQ(mg_seq_looks(769, 20, 1.5), 9);
  ASSERT_EQ(mg_seq_looks(770, 20, 1.5), 10);
  ASSERT_EQ(mg_seq_looks(5, 20, 1.5), 1);
  ASSERT_EQ(mg_seq_looks(10, 3, 1.1), 7); /* rounding up never repeats a point: 3, 4, 5, ..., 9 */
  mg_seq_cfg c = cfg_of(1000);
  ASSERT_EQ(c.looks, 10);
  ASSERT_EQ(mg_seq_look_at(&c, 19), -1);
  ASSERT_EQ(mg_seq_look_at(&c, 20), 0);
  ASSERT_EQ(mg_seq_look_at(&c, 29), 0);
  ASSERT_EQ(mg_seq_look_at(&c, 30), 1);
  ASSERT_EQ(mg_seq_look_at(&c, 68), 3);
  ASSERT_EQ(mg_seq_look_at(&c, 769), 9);
  ASSERT_EQ(mg_seq_look_at(&c, 5000), 9); /* never more looks than planned */
}

/* What the schedule buys: equal medians (spread 5 %, a rotating root of 4, as bcast's and reduce's
 * cells) decide `consistent` in fewer values than with a look after every batch (100 looks, the old
 * rule: 155 values on average over these seeds; now 128). */
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
  TEST_CASE("fewer values than the minimum: nothing decided");
  series d = {0}, m = {0};
  add(&d, 2, 0.01, 19), add(&m, 1, 0.01, 19);
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
 * probability <= error (0.01): none in 60 comparisons of 300 values (expected < 0.6). */
static void test_error(void) {
  TEST_CASE("false violations under the null");
  int wrong = 0;
  for (int k = 0; k < 60; k++) {
    long n;
    rng_state = 5000 + (uint64_t)k;
    wrong += simulate(1e-3, 1e-3, 0.2, 300, &n) == MG_SEQ_VIOLATION;
  }
  ASSERT_EQ(wrong, 0);
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
  static mg_bench_cfg cfg;
  static mg_bench_result res;
  static mg_bench_block B;
  static double lat[2][MAXN];
  static long round[2][MAXN];
  static unsigned char valid[2][MAXN], warm[2][MAXN];
  memset(&cfg, 0, sizeof cfg), memset(&res, 0, sizeof res), memset(&B, 0, sizeof B);
  mg_seq_defaults(&cfg.seq);
  cfg.rep.max_nrep = MAXN;
  run R = {0};
  R.cfg = &cfg, R.res = &res;
  B.coll = MG_ALLREDUCE, B.nseries = 2;
  for (int i = 0; i < 2; i++) {
    mg_bench_series *se = &B.series[i];
    se->alg = i, se->lat = lat[i], se->round = round[i], se->valid = valid[i], se->warmup = warm[i];
  }
  int act[2] = {0, 1};
  mg_rep_state st[2];
  memset(st, 0, sizeof st);
  for (int i = 0; i < 2; i++) st[i].stop = MG_STOP_NONE, st[i].seq_look = -1;
  rng_state = 0x5eed0031ull;
  long at = -1;
  while (B.series[1].n < MAXN && st[1].stop == MG_STOP_NONE) {
    for (int i = 0; i < 2; i++) {
      mg_bench_series *se = &B.series[i];
      if (st[i].stop != MG_STOP_NONE) continue;
      for (int k = 0; k < BATCH; k++, se->n++) {
        se->lat[se->n] = runtime(1e-3, i ? 0.2 : 0.01);
        se->round[se->n] = se->n, se->warmup[se->n] = 0;
        se->valid[se->n] = !(i && lagging && st[0].stop == MG_STOP_NONE && se->n % 20);
        se->nvalid += se->valid[se->n];
      }
    }
    if (B.series[0].n >= dn_stop && st[0].stop == MG_STOP_NONE) st[0].stop = why; /* steady: its rule met */
    ASSERT_EQ(mg_bench_seq_stop(&R, &B, act, 2, st), MPI_SUCCESS);
    if (st[1].stop == MG_STOP_DECIDED) at = B.series[1].n;
  }
  if (why == MG_STOP_RSE) { /* the RSE rule does not stop a default with a comparison open */
    ASSERT_EQ(B.series[0].n, B.series[1].n);
    ASSERT_EQ(st[0].stop, MG_STOP_RSE); /* met, and nothing left open */
  } else {
    ASSERT_EQ(B.series[0].n, dn_stop);
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

int main(void) {
  test_median_ci();
  test_schedule();
  test_fewer_values();
  test_clear();
  test_equal();
  test_error();
  test_roots();
  test_both_ways();
  test_same_values();
  test_default_stops_first();
  test_roots_one_sided();
  return mg_test_summary("unit_seq");
}
