/*
 * Unit tests of the time-left estimate (src/bench/eta.h) on synthetic runs, not on a clock: blocks
 * of three "collectives" (keys) at 13 sizes each, collective-major and sizes ascending as the engine
 * measures them, each block costing what a known formula says. The estimate (elapsed + predicted
 * cost of the blocks left) must be near the truth early and must not keep growing while the machine
 * keeps its speed; when the machine becomes twice as slow (the probe doubles with the costs), the
 * slowness says 2 and the estimate of what is left doubles.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/eta.h"
#include "bench/eta_raw.h"
#include "common/test.h"

#define NK 3
#define NS 13
static const double sizes[NS] = {1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 8388608};
static const double scale[NK] = {1, 3, 0.5}; /* the keys differ in cost */
#define NVAR 10

/* Seconds of one block at speed 1: per variant 20 us + 2 ns per byte, times the key's scale. */
static double truth(int k, int s) { return NVAR * scale[k] * (20e-6 + 2e-9 * sizes[s]); }

/* The predicted cost of every block from index b on (block b = key b / NS, size b % NS). */
static double left_from(const mg_eta *e, int b) {
  double sum = 0;
  for (; b < NK * NS; b++) sum += mg_eta_cost(e, b / NS, sizes[b % NS], NVAR);
  return sum;
}

static void test_steady(void) {
  TEST_CASE("steady machine: near the truth early, no steady growth");
  mg_eta e;
  mg_eta_init(&e);
  double total = 0;
  for (int b = 0; b < NK * NS; b++) total += truth(b / NS, b % NS);
  ASSERT_TRUE(isnan(mg_eta_cost(&e, 0, 1, NVAR))); /* nothing known before the first block */
  double el = 0, prev = 0;
  int grew = 0;
  for (int b = 0; b < NK * NS; b++) {
    mg_eta_probe(&e, 1e-5, mg_eta_class(b / NS, sizes[b % NS]), 1); /* the machine keeps its speed */
    double t = truth(b / NS, b % NS);
    el += t;
    mg_eta_block(&e, b / NS, sizes[b % NS], NVAR, 1, t, mg_eta_slower(&e));
    double est = el + left_from(&e, b + 1);
    if (b >= 2 && b < NS) /* the first collective, its small sizes only: the prior bridges the rest */
      ASSERT_MSG(est > 0.3 * total && est < 3 * total, "after block %d: estimate %.3g s, truth %.3g s", b, est, total);
    if (b >= NS) ASSERT_MSG(fabs(est / total - 1) < 0.5, "after block %d: estimate %.3g s, truth %.3g s", b, est, total);
    if (b >= 2 * NS) ASSERT_MSG(fabs(est / total - 1) < 0.05, "after block %d: estimate %.3g s, truth %.3g s", b, est, total);
    if (b > NS && est > 1.02 * prev) grew++;
    if (getenv("MG_ETA_TRACE")) printf("block %2d: estimate %.4g s, truth %.4g s\n", b, est, total);
    prev = est;
  }
  ASSERT_NEAR(mg_eta_slower(&e), 1, 1e-12);
  /* after the first collective, the estimate rises at most when a new collective shows its costs */
  ASSERT_MSG(grew <= NK - 1, "the estimate grew %d times after the first collective", grew);
}

static void test_slowdown(void) {
  TEST_CASE("the machine slows 2x: the slowness says so, the time left doubles");
  mg_eta e;
  mg_eta_init(&e);
  int half = NK * NS / 2;
  for (int b = 0; b < half; b++) {
    for (int i = 0; i < 6; i++) /* noisy, but steady */
      mg_eta_probe(&e, 1e-5 * (1 + 0.05 * (i % 3 - 1)), mg_eta_class(b / NS, sizes[b % NS]), 1);
    mg_eta_block(&e, b / NS, sizes[b % NS], NVAR, 1, truth(b / NS, b % NS), mg_eta_slower(&e));
  }
  ASSERT_NEAR(mg_eta_slower(&e), 1, 0.06);
  double left1 = left_from(&e, half) * mg_eta_slower(&e);
  /* now, while the last cell is measured, every probe takes twice as long, for 4.5 minutes */
  for (int i = 0; i < 9; i++) mg_eta_probe(&e, 2e-5, mg_eta_class((half - 1) / NS, sizes[(half - 1) % NS]), 30);
  ASSERT_NEAR(mg_eta_slower(&e), 2, 0.11);
  double left2 = left_from(&e, half) * mg_eta_slower(&e);
  ASSERT_NEAR(left2 / left1, 2, 0.15);
  /* a block measured at half speed is stored at the starting speed: the costs learned stay */
  double before = mg_eta_cost(&e, half / NS, sizes[half % NS], NVAR);
  mg_eta_block(&e, half / NS, sizes[half % NS], NVAR, 1, 2 * truth(half / NS, half % NS), mg_eta_slower(&e));
  ASSERT_NEAR(mg_eta_cost(&e, half / NS, sizes[half % NS], NVAR) / truth(half / NS, half % NS), 1, 0.1);
  (void)before;
  TEST_CASE("probes that are not durations are ignored");
  mg_eta f;
  mg_eta_init(&f);
  for (int i = 0; i < 20; i++) mg_eta_probe(&f, i % 2 ? 0 : -1, 1, 1);
  ASSERT_NEAR(mg_eta_slower(&f), 1, 0);
}

/*
 * A check under the sequential stopping rule (seq.h): the cells take 100-700 values per variant, by
 * no trend in size (what allreduce and bcast took at 1 KiB, 64 KiB, 1 MiB and 4 MiB in the quiet
 * `check --full` of docs/check.md, 4 ranks of Open MPI), so a size not measured yet is priced at the
 * mean of what the cells so far took, not at the cap (max_nrep 1000 plus warm-ups, which the
 * estimator of before assumed: 2-3x too high here). Two collectives, the second cheaper; every cell
 * costs values x variants x seconds per value, simulated, no clock.
 */
#define PK 2
#define PS 4
static const double psize[PS] = {1024, 65536, 1048576, 4194304};
static const double pvals[PK][PS] = {{144, 204, 309, 282}, {338, 242, 419, 634}}; /* values per variant */
static const int pvar[PK] = {6, 4};
static const double pscale[PK] = {1, 0.6};
#define CAP 1005

static double pcost(int k, int s) { return pvar[k] * pvals[k][s] * pscale[k] * (20e-6 + 2e-9 * psize[s]); }

static void test_values(void) {
  TEST_CASE("cells that take 100-700 values: within 2x of the truth from the first cell, exact at the end");
  mg_eta e;
  mg_eta_init(&e);
  mg_eta_set_cap(&e, CAP);
  double total = 0;
  for (int b = 0; b < PK * PS; b++) total += pcost(b / PS, b % PS);
  double el = 0, est = 0;
  for (int b = 0; b < PK * PS; b++) {
    mg_eta_probe(&e, 1e-5, mg_eta_class(b / PS, psize[b % PS]), 1);
    double t = pcost(b / PS, b % PS);
    el += t;
    mg_eta_block(&e, b / PS, psize[b % PS], pvar[b / PS], pvals[b / PS][b % PS], t, mg_eta_slower(&e));
    est = el;
    for (int c = b + 1; c < PK * PS; c++) est += mg_eta_cost(&e, c / PS, psize[c % PS], pvar[c / PS]);
    if (getenv("MG_ETA_TRACE")) printf("cell %d: estimate %.4g s, truth %.4g s\n", b, est, total);
    /* the mean errs low here, 0.55x after the first cell (the 4 MiB cells, where the time goes, took
     * more than the small ones), and its error shrinks as cells are measured; the cap erred 3x high */
    ASSERT_MSG(est > total / 2 && est < 2 * total, "cell %d: estimate %.3g s, truth %.3g s", b, est, total);
  }
  ASSERT_NEAR(est / total, 1, 1e-9);
}

static void test_first_guess(void) {
  TEST_CASE("a size not measured yet: the mean values of the cells so far, no more than the cap");
  mg_eta e;
  mg_eta_init(&e);
  mg_eta_set_cap(&e, CAP);
  const double y = 1e-5; /* seconds per value, the same at every size */
  const double v[3] = {30, 50, 40}, b[3] = {1, 4, 16};
  for (int i = 0; i < 3; i++) mg_eta_block(&e, 0, b[i], 4, v[i], 4 * v[i] * y, 1);
  /* at 64 B: the time per value from 16 B by the prior shape 1 + bytes / 8 KiB, times the values */
  double per = y * (1 + 64.0 / 8192) / (1 + 16.0 / 8192);
  double vals = mg_eta_cost(&e, 0, 64, 4) / (4 * per);
  ASSERT_MSG(vals >= 30 - 1e-9 && vals <= 50 + 1e-9, "values guessed at 64 B: %.4g (measured 30-50, cap %d)", vals, CAP);
  ASSERT_NEAR(vals, 40, 1e-9);
  mg_eta_set_cap(&e, 35);
  ASSERT_NEAR(mg_eta_cost(&e, 0, 64, 4) / (4 * per), 35, 1e-9);
}

/* Launch K of `check --launches` starts from launch K-1's cells (mg_eta_prior): at the same speed it
 * knows the time left exactly before its first cell, and stays exact; a launch whose cells cost
 * twice as much is priced so once its cells say so (the ratio, MG_ETA_PRIOR_S seconds damped). */
static void test_prior(void) {
  TEST_CASE("seeded from the previous launch: exact from the first second at the same speed");
  mg_eta e;
  mg_eta_init(&e);
  mg_eta_set_cap(&e, CAP);
  double total = 0;
  for (int b = 0; b < PK * PS; b++) mg_eta_prior(&e, b / PS, psize[b % PS], pcost(b / PS, b % PS)), total += pcost(b / PS, b % PS);
  double el = 0;
  for (int b = 0; b < PK * PS; b++) {
    double est = el;
    for (int c = b; c < PK * PS; c++) est += mg_eta_cost(&e, c / PS, psize[c % PS], pvar[c / PS]);
    ASSERT_MSG(fabs(est / total - 1) < 1e-12, "before cell %d: estimate %.6g s, truth %.6g s", b, est, total);
    el += pcost(b / PS, b % PS);
    mg_eta_block(&e, b / PS, psize[b % PS], pvar[b / PS], pvals[b / PS][b % PS], pcost(b / PS, b % PS), 1);
  }
  TEST_CASE("seeded: a launch twice as dear moves the ratio, damped by MG_ETA_PRIOR_S seconds");
  mg_eta f;
  mg_eta_init(&f);
  mg_eta_prior(&f, 3, 1024, MG_ETA_PRIOR_S);
  mg_eta_prior(&f, 3, 1048576, 100);
  ASSERT_NEAR(mg_eta_prior_ratio(&f), 1, 0);
  mg_eta_block(&f, 3, 1024, 5, 100, 2 * MG_ETA_PRIOR_S, 1);
  ASSERT_NEAR(mg_eta_prior_ratio(&f), 1.5, 1e-12);
  ASSERT_NEAR(mg_eta_cost(&f, 3, 1048576, 5), 150, 1e-9);
  /* a cell the previous launch did not measure is learned as in a first launch */
  ASSERT_NEAR(mg_eta_cost(&f, 3, 4096, 5), 2 * MG_ETA_PRIOR_S * (1 + 4096.0 / 8192) / (1 + 1024.0 / 8192), 1e-9);
}

/* A raw.csv's cells (eta_raw.h): in file order, series counted, runtimes plus an equal share per
 * value of elapsed_sec's rest; the older format without a pair column reads the same. */
static void test_raw(void) {
  TEST_CASE("a raw.csv's cells, in order, summing to elapsed_sec");
  char path[] = "/tmp/mg_unit_eta_XXXXXX";
  int fd = mkstemp(path);
  ASSERT_TRUE(fd >= 0);
  FILE *f = fdopen(fd, "w");
  fputs("#@format=mpiguide-bench-raw/3\n#@elapsed_sec=1.5\n"
        "collective,algorithm,bytes,count,datatype,op,root,pair,nprocs,launch,round,rep,warmup,runtime_sec,valid\n"
        "bcast,default,8,8,MPI_BYTE,,0,,4,x,0,0,1,0.1,1\n"
        "bcast,default,8,8,MPI_BYTE,,0,,4,x,0,1,0,0.1,1\n"
        "bcast,bcast_as_scatter_allgather,8,8,MPI_BYTE,,0,,4,x,0,0,0,0.2,1\n"
        "allreduce,default,16,2,MPI_DOUBLE,MPI_SUM,,0,4,x,0,0,0,0.3,1\n"
        "allreduce,default,16,4,MPI_INT,MPI_SUM,,1,4,x,0,0,0,0.3,1\n#@stop=x\n",
        f);
  fclose(f);
  mg_eta_cell *c;
  int n;
  double el;
  char err[256];
  ASSERT_TRUE(mg_eta_raw_cells(path, &c, &n, &el, err, sizeof err) == 0);
  unlink(path);
  ASSERT_TRUE(n == 3);
  if (n != 3) return;
  ASSERT_NEAR(el, 1.5, 0);
  ASSERT_TRUE(!strcmp(c[0].coll, "bcast") && c[0].bytes == 8 && c[0].nvar == 2 && c[0].values == 3);
  ASSERT_TRUE(!strcmp(c[1].coll, "allreduce") && c[1].bytes == 16 && c[1].nvar == 1 && c[1].values == 1);
  /* 1.0 s of runtimes, 0.5 s of the rest over 5 values: 0.1 s each */
  ASSERT_NEAR(c[0].seconds, 0.4 + 0.3, 1e-12);
  ASSERT_NEAR(c[1].seconds, 0.3 + 0.1, 1e-12);
  ASSERT_NEAR(c[0].seconds + c[1].seconds + c[2].seconds, 1.5, 1e-12);
  free(c);
  ASSERT_TRUE(mg_eta_raw_cells("/nonexistent/raw.csv", &c, &n, &el, err, sizeof err) == -1 && strstr(err, "nonexistent"));
}

/* A raw.csv of text (n bytes) at path; then its cells read, the message in err. */
static int raw_of(const char *path, const char *text, size_t n, char *err, int errlen, int *ncells, double *el) {
  FILE *f = fopen(path, "w");
  fwrite(text, 1, n, f);
  fclose(f);
  mg_eta_cell *c = (mg_eta_cell *)1;
  int rc = mg_eta_raw_cells(path, &c, ncells, el, err, errlen);
  if (rc) ASSERT_MSG(c == NULL && *ncells == 0 && *el == 0, "a failed read left cells behind: %s", err);
  free(c);
  return rc;
}

#define ETA_HEAD "collective,algorithm,bytes,pair,runtime_sec\n"
/* Bad raw.csv files: each refused, with file:line and what; nothing left half-read. Then every cut
 * of a good file (#@check_rows, the last line break): refused, or the whole file's cells. */
static void test_raw_bad(void) {
  TEST_CASE("a bad raw.csv for the estimate: refused with file:line");
  char path[] = "/tmp/mg_unit_eta_bad_XXXXXX";
  int fd = mkstemp(path);
  ASSERT_TRUE(fd >= 0);
  close(fd);
  static const struct {
    const char *text, *msg;
  } cases[] = {
      {"#@elapsed_sec=inf\n" ETA_HEAD "bcast,default,8,,0.1\n", ":1: #@elapsed_sec=inf: 'inf' is not a number"},
      {"#@elapsed_sec=-3\n" ETA_HEAD "bcast,default,8,,0.1\n", ":1: #@elapsed_sec=-3: '-3' is out of range"},
      {"#@elapsed_sec=1.5 s\n" ETA_HEAD "bcast,default,8,,0.1\n", ":1: #@elapsed_sec=1.5 s: '1.5 s' is not a number"},
      {"#@elapsed_sec=1e999\n" ETA_HEAD "bcast,default,8,,0.1\n", ":1: #@elapsed_sec=1e999: '1e999' is not a number"},
      {ETA_HEAD "bcast,default,8,,nan\n", ":2: column runtime_sec: 'nan' is not a number"},
      {ETA_HEAD "bcast,default,8x,,0.1\n", ":2: column bytes: '8x' is not a number"},
      {ETA_HEAD "bcast,default,8,0.1\n", ":2: 4 fields, the header has 5"},
      {ETA_HEAD "bcast,default,8,,0.1\nbcast,default,8,,0.", ":3: the last line has no line break"},
      {"#@check_rows=3\n" ETA_HEAD "bcast,default,8,,0.1\n", ":3: the file ends early (truncated?): 1 data rows, its "
                                                             "#@check_rows says 3"},
      {"#@check_rows=1x\n" ETA_HEAD "bcast,default,8,,0.1\n", ":1: #@check_rows=1x: '1x' is not an integer"},
      {"collective,bytes\nbcast,8\n", ":1: no column 'algorithm'"},
  };
  char err[300], want[400];
  int n;
  double el;
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int rc = raw_of(path, cases[i].text, strlen(cases[i].text), err, sizeof err, &n, &el);
    snprintf(want, sizeof want, "%s%s", path, cases[i].msg);
    ASSERT_MSG(rc == -1 && strstr(err, want), "case %zu: rc %d, '%s', expected '%s'", i, rc, err, want);
  }
  /* a NUL byte, a line over 1 MiB */
  static const char nul[] = ETA_HEAD "bcast,default,8,,0\0.1\n";
  ASSERT_TRUE(raw_of(path, nul, sizeof nul - 1, err, sizeof err, &n, &el) == -1 && strstr(err, ":2: a NUL byte"));
  size_t big = (1 << 20) + 10;
  char *t = malloc(big + sizeof ETA_HEAD + 8);
  memcpy(t, "#@command=", 10);
  memset(t + 10, 'x', big - 10);
  snprintf(t + big, sizeof ETA_HEAD + 8, "\n%s", ETA_HEAD);
  ASSERT_MSG(raw_of(path, t, strlen(t), err, sizeof err, &n, &el) == -1 && strstr(err, ":1: a line longer than 1 MiB"),
             "long line: %s", err);
  free(t);
  /* the walk */
  static const char good[] = "#@format=mpiguide-bench-raw/3\n#@check_rows=4\n#@elapsed_sec=1.5\n" ETA_HEAD
                             "bcast,default,8,,0.1\nbcast,default,8,,0.1\nbcast,x,8,,0.2\nallreduce,default,16,,0.3\n"
                             "#@stop=x\n";
  size_t len = sizeof good - 1;
  int whole;
  ASSERT_TRUE(raw_of(path, good, len, err, sizeof err, &whole, &el) == 0 && whole == 2);
  for (size_t k = 0; k < len; k++) {
    int rc = raw_of(path, good, k, err, sizeof err, &n, &el);
    ASSERT_MSG(rc == -1 ? strstr(err, path) != NULL : n == whole && el == 1.5, "prefix %zu: rc %d, %d cells: %s", k, rc,
               n, rc ? err : "");
  }
  unlink(path);
}

/* The probe depends on the cell: wall time per CPU second grows with the message (here 1.5 at 1 KiB
 * to 6 at 8 MiB, noisy by 5 %), on a machine whose speed never changes; cells of 1 to 30 batches, two
 * collectives. The slowness must stay ~1 throughout (the old reading, the last probes against the
 * first ones of the check, said 3). Then the machine slows 2x in the middle of a long cell: the
 * slowness (averaged over a minute) says 2 from the second cell after it on, and stays there. */
static void test_cell_probe(void) {
  TEST_CASE("a probe that depends on the cell: slowness ~1 on an unchanged machine, 2 when it slows");
  mg_eta e;
  mg_eta_init(&e);
  uint64_t r = 7;
  double lo = INFINITY, hi = 0;
  for (int pass = 0; pass < 2; pass++) {
    double speed = 1;
    for (int k = 0; k < 2; k++)
      for (int s = 0; s < NS; s++) {
        int batches = 1 + (s * 7 + k * 3) % 30;
        for (int b = 0; b < batches; b++) {
          if (pass == 1 && k == 0 && s == 10 && b == batches / 2) speed = 2; /* mid-cell */
          r = r * 6364136223846793005ull + 1442695040888963407ull;
          double noise = 1 + 0.05 * ((double)(r >> 11) / 9007199254740992.0 * 2 - 1);
          double probe = speed * (1.5 + 4.5 * log2(sizes[s] + 1) / 23) * noise;
          mg_eta_probe(&e, probe, mg_eta_class(k + 2 * pass, sizes[s]), 5); /* batches of 5 s */
          double x = mg_eta_slower(&e);
          if (pass == 0) lo = fmin(lo, x), hi = fmax(hi, x);
        }
        if (pass == 1 && (k > 0 || s > 11))
          ASSERT_MSG(fabs(mg_eta_slower(&e) / 2 - 1) < 0.2, "after the slowdown, cell %d/%d: slowness %.3g", k, s,
                     mg_eta_slower(&e));
      }
  }
  ASSERT_MSG(lo > 0.85 && hi < 1.18, "unchanged machine: slowness from %.3g to %.3g", lo, hi);
}

/* The progress line's time left over launches (mg_eta_launches_left) with planted timings: issue 49's
 * MPICH line read "34% ... ETA 38s (this launch 0s)" with two thirds to go: this launch's time left
 * was cut to its (overrun) budget, and the launches after it were priced at the time it had run. */
static void test_launches_left(void) {
  TEST_CASE("launches left: this launch by its fraction once over its budget; the next ones at its whole time");
  int over;
  double left, total = mg_eta_launches_left(19, 0.34, 15, 1, 3, 2, &left, &over);  /* the budget spent */
  ASSERT_NEAR(left, 19 * 0.66 / 0.34, 1e-9);                        /* 36.9 s, not 0 */
  ASSERT_NEAR(total, left + 2 * (19 + left + 2), 1e-9);             /* 152.6 s, not 38 */
  ASSERT_EQ(over, 1);
  total = mg_eta_launches_left(19, 0.34, 0, 1, 3, 2, &left, &over); /* no budget: the same, not over */
  ASSERT_NEAR(total, left + 2 * (19 + left + 2), 1e-9);
  ASSERT_EQ(over, 0);
  total = mg_eta_launches_left(2, 0.22, 3, 1, 3, 1, &left, &over);  /* budget left: the engine cuts to it */
  ASSERT_NEAR(left, 1, 1e-9);
  ASSERT_NEAR(total, 1 + 2 * (2 + 1 + 1), 1e-9);                    /* the next ones at 3 s + start-up */
  ASSERT_EQ(over, 0);
  total = mg_eta_launches_left(2.9, 0.99, 3, 1, 2, 0, &left, &over);  /* within the budget: not over */
  ASSERT_EQ(over, 0);
  total = mg_eta_launches_left(19, 0.34, 15, 3, 3, 2, &left, &over);  /* the last launch: itself only */
  ASSERT_NEAR(total, left, 1e-9);
  total = mg_eta_launches_left(10, 0.5, 0, 0, 0, 5, &left, NULL);   /* not one of several launches */
  ASSERT_NEAR(total, 10, 1e-9);
  ASSERT_NEAR(left, 10, 1e-9);
  total = mg_eta_launches_left(10, 0.5, 0, 1, 2, -1, &left, NULL);  /* start-up unknown: counted as 0 */
  ASSERT_NEAR(total, 10 + (10 + 10), 1e-9);
  total = mg_eta_launches_left(3, 0.01, 0, 1, 3, 2, &left, &over);  /* nothing learned yet */
  ASSERT_TRUE(isnan(total) && isnan(left));
  ASSERT_TRUE(isnan(mg_eta_launches_left(3, NAN, 0, 1, 3, 2, NULL, NULL)));
}

/* A block under a time budget (mg_eta_cost_budget): cut to its share, never below one batch. A verify
 * of --budget 8s read "8 % ... ETA 106s" at 9 s and ended at 12 s: its blocks out of budget measured a
 * batch each, priced at what they would take unbounded. */
static void test_cost_budget(void) {
  TEST_CASE("a block's cost under a budget: at most its share, at least one batch per variant");
  mg_eta e;
  mg_eta_init(&e);
  mg_eta_block(&e, 0, 1024, 2, 200, 4.0, 1); /* 0.01 s per value, 200 values per variant */
  ASSERT_NEAR(mg_eta_cost(&e, 0, 1024, 2), 4.0, 1e-9);
  ASSERT_NEAR(mg_eta_cost_budget(&e, 0, 1024, 2, 0, 1, 13), 4.0, 1e-9);    /* no budget: as before */
  ASSERT_NEAR(mg_eta_cost_budget(&e, 0, 1024, 2, 1.0, 1, 13), 1.0, 1e-9);  /* its share of the budget */
  ASSERT_NEAR(mg_eta_cost_budget(&e, 0, 1024, 2, 1e-9, 1, 13), 0.26, 1e-9); /* out of budget: one batch, 13 values */
  ASSERT_NEAR(mg_eta_cost_budget(&e, 0, 1024, 2, 1.0, 2, 13), 0.5, 1e-9);  /* 2x slower: the share in start-speed s */
  ASSERT_NEAR(mg_eta_cost_budget(&e, 0, 1024, 2, 10, 1, 13), 4.0, 1e-9);   /* a share larger than it needs */
  mg_eta_init(&e);
  ASSERT_TRUE(isnan(mg_eta_cost_budget(&e, 0, 1024, 2, 1.0, 1, 13)));      /* nothing learned */
}

int main(void) {
  test_cost_budget();
  test_launches_left();
  test_values();
  test_first_guess();
  test_prior();
  test_raw();
  test_raw_bad();
  test_steady();
  test_slowdown();
  test_cell_probe();
  return mg_test_summary("unit_eta");
}
