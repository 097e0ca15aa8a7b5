/*
 * Unit tests of the engine's MPI-free parts: sample statistics and the two
 * RSEs, repetition control (fixed, time budget, adaptive RSE stopping on
 * synthetic data, the HPC Asia 2018 NREP formula and its pilot), size and
 * duration parsing, CSV and metadata output, atomic output files, the
 * seeded shuffle.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/csv.h"
#include "bench/order.h"
#include "bench/rep.h"
#include "util/fmt.h"
#include "util/parse.h"
#include "bench/sample.h"
#include "common/test.h"

/* ---------- statistics ---------- */

static void test_stats(void) {
  TEST_CASE("summary");
  double x[] = {5, 1, 4, 2, 3};
  mg_summary s;
  ASSERT_EQ(mg_summarize(x, 5, &s), 0);
  ASSERT_EQ(s.n, 5);
  ASSERT_NEAR(s.min, 1, 0);
  ASSERT_NEAR(s.max, 5, 0);
  ASSERT_NEAR(s.median, 3, 0);
  ASSERT_NEAR(s.mean, 3, 1e-15);
  ASSERT_NEAR(s.sd, sqrt(2.5), 1e-12);
  ASSERT_NEAR(s.q1, 2, 1e-15);
  ASSERT_NEAR(s.q3, 4, 1e-15);
  ASSERT_NEAR(x[0], 5, 0); /* input untouched */
  ASSERT_NEAR(s.rse_mean, sqrt(2.5) / sqrt(5.0) / 3, 1e-12);

  TEST_CASE("median even");
  double y[] = {4, 1, 3, 2};
  mg_summarize(y, 4, &s);
  ASSERT_NEAR(s.median, 2.5, 0);

  TEST_CASE("rse median");
  /* n = 100, values 1..100: ranks 50 -+ 9.8 -> j = 40, k = 60; SE = (60-40)/3.92 */
  double z[100];
  for (int i = 0; i < 100; i++) z[i] = 100 - i;
  double r = mg_rse(z, 100, MG_STAT_MEDIAN);
  ASSERT_NEAR(r, (60.0 - 40.0) / 3.92 / 50.5, 1e-12);
  ASSERT_TRUE(isinf(mg_rse(z, 2, MG_STAT_MEDIAN)));
  ASSERT_TRUE(isinf(mg_rse(z, 2, MG_STAT_MEAN)));
  double zero[] = {0, 0, 0, 0};
  ASSERT_TRUE(isinf(mg_rse(zero, 4, MG_STAT_MEAN)));
  double same[] = {7, 7, 7, 7, 7};
  ASSERT_NEAR(mg_rse(same, 5, MG_STAT_MEDIAN), 0, 0);
  ASSERT_NEAR(mg_rse(same, 5, MG_STAT_MEAN), 0, 0);

  TEST_CASE("empty");
  ASSERT_EQ(mg_summarize(x, 0, &s), 0);
  ASSERT_EQ(s.n, 0);
}

/* ---------- repetition control ---------- */

/* Deterministic noisy latencies around 10 us: a skewed, bimodal-ish sample. */
static double synth(long i, double noise) {
  uint64_t st = (uint64_t)i * 7919u + 17;
  double u = (double)(mg_splitmix64(&st) >> 11) / 9007199254740992.0;
  double v = 10e-6 * (1 + noise * u);
  if (i % 13 == 5) v *= 3; /* outliers, as preemption gives */
  return v;
}

/* Drive one variant like the engine: batches of `batch`, update after each. */
static long drive(const mg_rep_cfg *cfg, mg_rep_state *st, double t1, long batch, double noise, double *buf,
                  long *decisions, double *rse_before) {
  mg_rep_init(cfg, st, t1);
  long n = 0, nd = 0;
  *rse_before = INFINITY;
  for (;;) {
    long w = mg_rep_want(cfg, st, batch);
    if (w == 0) break;
    if (nd > 0) *rse_before = st->rse;
    for (long j = 0; j < w; j++, n++) buf[n] = synth(n, noise);
    mg_rep_update(cfg, st, n, buf, n, 0.001 * (double)n);
    nd++;
    if (nd > 100000) break;
  }
  *decisions = nd;
  return n;
}

static void test_rep(void) {
  static double buf[200000];
  mg_rep_state st;
  long nd;
  double before;

  TEST_CASE("fixed");
  mg_rep_cfg fixed = {.mode = MG_REP_FIXED, .nrep = 37, .min_nrep = 1, .max_nrep = 5};
  ASSERT_EQ(drive(&fixed, &st, 0, 8, 0.1, buf, &nd, &before), 37); /* max_nrep does not apply */
  ASSERT_EQ(st.stop, MG_STOP_NREP);
  ASSERT_EQ(nd, 5); /* 8+8+8+8+5 */

  TEST_CASE("adaptive stops when the target is met");
  mg_rep_cfg rse = {
      .mode = MG_REP_RSE, .rse = 0.01, .stat = MG_STAT_MEDIAN, .min_nrep = 10, .max_nrep = 100000};
  long n = drive(&rse, &st, 0, 4, 0.5, buf, &nd, &before);
  ASSERT_EQ(st.stop, MG_STOP_RSE);
  ASSERT_TRUE(st.rse <= 0.01);
  ASSERT_NEAR(st.rse, mg_rse(buf, n, MG_STAT_MEDIAN), 0);
  ASSERT_TRUE(before > 0.01); /* not met at the previous decision point: it did not stop late */
  ASSERT_TRUE(n < 100000 && n >= 10);
  ASSERT_EQ(n % 4, 0);

  TEST_CASE("adaptive on the mean");
  rse.stat = MG_STAT_MEAN;
  n = drive(&rse, &st, 0, 1, 0.5, buf, &nd, &before);
  ASSERT_EQ(st.stop, MG_STOP_RSE);
  ASSERT_TRUE(mg_rse(buf, n, MG_STAT_MEAN) <= 0.01);
  ASSERT_TRUE(mg_rse(buf, n - 1, MG_STAT_MEAN) > 0.01 || n - 1 < 10);

  TEST_CASE("adaptive respects min_nrep");
  mg_rep_cfg loose = {
      .mode = MG_REP_RSE, .rse = 0.5, .stat = MG_STAT_MEDIAN, .min_nrep = 25, .max_nrep = 1000};
  n = drive(&loose, &st, 0, 1, 0.01, buf, &nd, &before);
  ASSERT_EQ(n, 25);
  ASSERT_EQ(st.stop, MG_STOP_RSE);

  TEST_CASE("adaptive on a deterministic platform: exact_min identical values stop it before min_nrep");
  mg_rep_cfg ex = {.mode = MG_REP_RSE, .rse = 0.01, .stat = MG_STAT_MEDIAN, .min_nrep = 100, .max_nrep = 1000,
                   .exact_min = 4};
  n = drive(&ex, &st, 0, 2, 0, buf, &nd, &before); /* noise 0: every value the same */
  ASSERT_EQ(n, 4);
  ASSERT_TRUE(st.stop == MG_STOP_RSE && st.rse == 0);
  TEST_CASE("... batches of 12 rounds: the first takes exact_min, not the whole batch");
  n = drive(&ex, &st, 0, 12, 0, buf, &nd, &before);
  ASSERT_EQ(n, 4);
  ASSERT_TRUE(st.stop == MG_STOP_RSE && st.rse == 0);
  TEST_CASE("... batches of 12, values apart: exact_min first, then whole batches to min_nrep");
  mg_rep_init(&ex, &st, 0);
  ASSERT_EQ(mg_rep_want(&ex, &st, 12), 4);
  n = drive(&ex, &st, 0, 12, 0.5, buf, &nd, &before);
  ASSERT_TRUE(n >= 100 && (n - 4) % 12 == 0); /* 4, then whole batches */
  TEST_CASE("exact stop by root: roots of different times, each one time, stop it");
  {
    double v[8] = {8.887e-6, 12.933e-6, 17.015e-6, 12.935e-6, 8.8875e-6, 12.933e-6, 17.0155e-6, 12.9355e-6};
    int g[8] = {0, 1, 2, 3, 0, 1, 2, 3};
    mg_rep_cfg eg = {.mode = MG_REP_RSE, .rse = 0.01, .stat = MG_STAT_MEDIAN, .min_nrep = 100, .max_nrep = 1000,
                     .exact_min = 8};
    mg_rep_init(&eg, &st, 0);
    mg_rep_update(&eg, &st, 8, v, 8, 0.001);
    ASSERT_EQ(st.stop, MG_STOP_NONE); /* all values together are not one time */
    ASSERT_EQ(mg_rep_exact_groups(&eg, &st, v, g, 8, 4), 1);
    ASSERT_TRUE(st.stop == MG_STOP_RSE && st.rse == 0);
    TEST_CASE("... a root 3 ns apart: not exact");
    mg_rep_init(&eg, &st, 0);
    v[4] = 8.890e-6;
    ASSERT_EQ(mg_rep_exact_groups(&eg, &st, v, g, 8, 4), 0);
    ASSERT_EQ(st.stop, MG_STOP_NONE);
    TEST_CASE("... a root measured once: not exact");
    v[4] = 8.887e-6, g[7] = 1;
    ASSERT_EQ(mg_rep_exact_groups(&eg, &st, v, g, 8, 4), 0);
    TEST_CASE("... off (exact_min 0), or a group index out of range: not exact");
    g[7] = 3;
    eg.exact_min = 0;
    ASSERT_EQ(mg_rep_exact_groups(&eg, &st, v, g, 8, 4), 0);
    eg.exact_min = 8, g[0] = 4;
    ASSERT_EQ(mg_rep_exact_groups(&eg, &st, v, g, 8, 4), 0);
  }
  TEST_CASE("... values apart by more than 1.5 ns: the usual rule (min_nrep)");
  n = drive(&ex, &st, 0, 2, 0.5, buf, &nd, &before);
  ASSERT_TRUE(n >= 100);
  ex.exact_min = 0; /* off: min_nrep even for identical values */
  n = drive(&ex, &st, 0, 2, 0, buf, &nd, &before);
  ASSERT_EQ(n, 100);

  TEST_CASE("adaptive hits max_nrep");
  mg_rep_cfg tight = {
      .mode = MG_REP_RSE, .rse = 1e-6, .stat = MG_STAT_MEDIAN, .min_nrep = 10, .max_nrep = 60};
  n = drive(&tight, &st, 0, 8, 0.5, buf, &nd, &before);
  ASSERT_EQ(n, 60);
  ASSERT_EQ(st.stop, MG_STOP_MAX);

  TEST_CASE("time budget");
  mg_rep_cfg tb = {.mode = MG_REP_TIME, .time_per = 0.0205, .min_nrep = 3, .max_nrep = 1000};
  n = drive(&tb, &st, 0, 2, 0.1, buf, &nd, &before); /* wall = 1 ms per measurement */
  ASSERT_EQ(n, 22);
  ASSERT_EQ(st.stop, MG_STOP_TIME);

  TEST_CASE("paper formula");
  ASSERT_EQ(mg_nrep_paper(1e-3, 1e-5, 10, 1000), 100);
  ASSERT_EQ(mg_nrep_paper(1e-3, 3e-5, 10, 1000), 34); /* ceil(33.3) */
  ASSERT_EQ(mg_nrep_paper(1e-5, 1e-4, 10, 1000), 10); /* K is the lower bound */
  ASSERT_EQ(mg_nrep_paper(1.0, 1e-9, 10, 1000), 1000); /* capped */
  ASSERT_EQ(mg_nrep_paper(1e-3, 0, 10, 1000), 1000);
  ASSERT_EQ(mg_nrep_paper(2e-4, 1e-5, 10, 1000), 20);

  TEST_CASE("paper pilot and plan");
  mg_rep_cfg pp = {
      .mode = MG_REP_PAPER, .rse = 0.02, .stat = MG_STAT_MEDIAN, .min_nrep = 10, .max_nrep = 5000, .k = 7};
  mg_rep_init(&pp, &st, 1e-3);
  ASSERT_EQ(mg_rep_want(&pp, &st, 100), 7); /* the pilot is exactly K */
  double pilot[7] = {40e-6, 25e-6, 30e-6, 90e-6, 26e-6, 27e-6, 33e-6};
  mg_rep_update(&pp, &st, 7, pilot, 7, 0);
  ASSERT_EQ(st.target, 40); /* ceil(1e-3 / 25e-6) */
  ASSERT_EQ(mg_rep_want(&pp, &st, 8), 8);
  ASSERT_EQ(mg_rep_want(&pp, &st, 100), 33);
  mg_rep_update(&pp, &st, 40, pilot, 7, 0);
  ASSERT_EQ(st.stop, MG_STOP_NREP);
  ASSERT_EQ(mg_rep_want(&pp, &st, 100), 0);

  TEST_CASE("paper calibration uses the RSE rule");
  n = drive(&pp, &st, 0, 4, 0.5, buf, &nd, &before);
  ASSERT_EQ(st.stop, MG_STOP_RSE);
  ASSERT_TRUE(st.rse <= 0.02);
  double t1 = 0;
  for (long i = 0; i < n; i++) t1 += buf[i];
  ASSERT_NEAR(st.spent, t1, 1e-15);
}

/* ---------- parsing ---------- */

static int sizes_are(const char *spec, const size_t *want, int nwant) {
  size_t *v = NULL;
  int n = 0;
  char err[256];
  if (mg_parse_sizes(spec, &v, &n, err, sizeof err)) {
    fprintf(stderr, "  '%s': %s\n", spec, err);
    return 0;
  }
  int ok = n == nwant;
  for (int i = 0; ok && i < n; i++) ok = v[i] == want[i];
  if (!ok) {
    fprintf(stderr, "  '%s' gave", spec);
    for (int i = 0; i < n; i++) fprintf(stderr, " %zu", v[i]);
    fputc('\n', stderr);
  }
  free(v);
  return ok;
}

static int sizes_fail(const char *spec, const char *msg_part) {
  size_t *v = NULL;
  int n = 0;
  char err[256] = "";
  int rc = mg_parse_sizes(spec, &v, &n, err, sizeof err);
  free(v);
  if (rc == 0) fprintf(stderr, "  '%s' was accepted\n", spec);
  else if (!strstr(err, msg_part)) fprintf(stderr, "  '%s': message '%s' lacks '%s'\n", spec, err, msg_part);
  return rc != 0 && strstr(err, msg_part) != NULL;
}

static void test_parse(void) {
  TEST_CASE("sizes");
  ASSERT_TRUE(sizes_are("8,64K", (size_t[]){8, 65536}, 2));
  ASSERT_TRUE(sizes_are("1:16", (size_t[]){1, 2, 4, 8, 16}, 5));
  ASSERT_TRUE(sizes_are("1:20", (size_t[]){1, 2, 4, 8, 16}, 5));
  ASSERT_TRUE(sizes_are("1:100:x10", (size_t[]){1, 10, 100}, 3));
  ASSERT_TRUE(sizes_are("1K:4K:+1K", (size_t[]){1024, 2048, 3072, 4096}, 4));
  ASSERT_TRUE(sizes_are("64,8,8,1M", (size_t[]){8, 64, 1048576}, 3));
  ASSERT_TRUE(sizes_are("1KiB,2k,1MiB,1G", (size_t[]){1024, 2048, 1048576, 1073741824}, 4));
  ASSERT_TRUE(sizes_are("4:4", (size_t[]){4}, 1));
  ASSERT_TRUE(sizes_are("8,2:8", (size_t[]){2, 4, 8}, 3));
  ASSERT_TRUE(sizes_fail("0", "zero"));
  ASSERT_TRUE(sizes_fail("-8", "negative"));
  ASSERT_TRUE(sizes_fail("abc", "not a size"));
  ASSERT_TRUE(sizes_fail("12Q", "not a size"));
  ASSERT_TRUE(sizes_fail("64KB", "ambiguous (1000 or 1024?)")); /* one rule: KB is never read as KiB */
  ASSERT_TRUE(sizes_fail("8,", "ends with a comma"));
  ASSERT_TRUE(sizes_fail("8,,16", "empty item"));
  ASSERT_TRUE(sizes_fail("", "empty"));
  ASSERT_TRUE(sizes_fail("16:8", "larger than TO"));
  ASSERT_TRUE(sizes_fail("1:8:x1", "factor"));
  ASSERT_TRUE(sizes_fail("1:8:y2", "step"));
  ASSERT_TRUE(sizes_fail("1:8:+0", "zero"));
  ASSERT_TRUE(sizes_fail("99999999999999999999", "too large"));
  ASSERT_TRUE(sizes_fail("1:1G:+1", "more than"));

  TEST_CASE("seconds");
  double d;
  char err[256];
  ASSERT_EQ(mg_parse_seconds("200ms", &d, err, sizeof err), 0);
  ASSERT_NEAR(d, 0.2, 1e-15);
  ASSERT_EQ(mg_parse_seconds("50us", &d, err, sizeof err), 0);
  ASSERT_NEAR(d, 50e-6, 1e-18);
  ASSERT_EQ(mg_parse_seconds("2", &d, err, sizeof err), 0);
  ASSERT_NEAR(d, 2, 0);
  ASSERT_TRUE(mg_parse_seconds("-1", &d, err, sizeof err) != 0);
  ASSERT_TRUE(mg_parse_seconds("5min", &d, err, sizeof err) != 0);
  ASSERT_TRUE(mg_parse_seconds("x", &d, err, sizeof err) != 0);

  TEST_CASE("long");
  long l;
  ASSERT_EQ(mg_parse_long("42", 1, 100, &l, err, sizeof err), 0);
  ASSERT_EQ(l, 42);
  ASSERT_TRUE(mg_parse_long("0", 1, 100, &l, err, sizeof err) != 0);
  ASSERT_TRUE(mg_parse_long("4x", 1, 100, &l, err, sizeof err) != 0);

  TEST_CASE("format bytes");
  char b[32];
  mg_fmt_bytes(65536, MG_BYTES_EXACT, b, sizeof b);
  ASSERT_STR_EQ(b, "64K");
  mg_fmt_bytes(1000, MG_BYTES_EXACT, b, sizeof b);
  ASSERT_STR_EQ(b, "1000");
  mg_fmt_bytes(3u << 20, MG_BYTES_EXACT, b, sizeof b);
  ASSERT_STR_EQ(b, "3M");
}

/* ---------- output ---------- */

static char *slurp(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return NULL;
  static char buf[8192];
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  buf[n] = '\0';
  fclose(f);
  return buf;
}

static int count_partials(const char *dir) {
  char cmd[512];
  snprintf(cmd, sizeof cmd, "ls %s | grep -c partial", dir);
  FILE *p = popen(cmd, "r");
  int n = -1;
  if (p && fscanf(p, "%d", &n) != 1) n = -1;
  if (p) pclose(p);
  return n;
}

static void test_output(void) {
  char dir[] = "/tmp/mg_unit_bench.XXXXXX";
  if (!mkdtemp(dir)) {
    TEST_FAIL("mkdtemp %s: %s", dir, strerror(errno));
    return;
  }
  char path[600], err[700];
  snprintf(path, sizeof path, "%s/raw.csv", dir);

  TEST_CASE("atomic file");
  mg_outfile o;
  ASSERT_EQ(mg_outfile_open(&o, path, err, sizeof err), 0);
  ASSERT_TRUE(access(path, F_OK) != 0); /* not under its name before it is complete */
  ASSERT_EQ(count_partials(dir), 1);
  mg_meta(o.f, "mpi_library_version", "MPICH Version: 4\nMPICH Device: ch4\n");
  mg_meta(o.f, "nprocs", "%d", 4);
  mg_raw_header(o.f);
  mg_raw_row r = {.coll = "allreduce", .alg = "default", .dtype = "MPI_BYTE", .op = "MPI_BOR", .root = -1,
                  .launch = "abc123", .bytes = 8, .count = 8, .nprocs = 4, .round = 3, .rep = 0, .warmup = 0,
                  .valid = 1, .runtime = 1.5e-5};
  mg_raw_row_write(o.f, &r);
  r.alg = "odd,name\"q";
  r.valid = 0;
  r.warmup = 1;
  mg_raw_row_write(o.f, &r);
  r = (mg_raw_row){.coll = "gather", .alg = "default", .dtype = "MPI_BYTE", .op = "", .root = 2, .launch = "abc123",
                   .bytes = 8, .count = 8, .nprocs = 4, .round = 4, .rep = 1, .valid = 1, .runtime = 2e-5};
  mg_raw_row_write(o.f, &r);
  /* pattern cart: the direction of the round (bench.h, mg_pattern_pair) */
  r = (mg_raw_row){.coll = "sendrecv", .alg = "default", .dtype = "MPI_BYTE", .op = "", .root = -1, .launch = "abc123",
                   .pair = mg_pattern_pair(MG_PATTERN_CART, MG_SENDRECV, 7, 4, NULL, 0), .bytes = 8, .count = 8, .nprocs = 4,
                   .round = 7, .valid = 1, .runtime = 2e-5};
  mg_raw_row_write(o.f, &r);
  ASSERT_EQ(mg_outfile_commit(&o, err, sizeof err), 0);
  ASSERT_EQ(count_partials(dir), 0);
  const char *txt = slurp(path);
  ASSERT_TRUE(txt != NULL);
  if (txt)
    ASSERT_STR_EQ(txt,
              "#@mpi_library_version=MPICH Version: 4; MPICH Device: ch4\n"
              "#@nprocs=4\n"
              "collective,algorithm,bytes,count,datatype,op,root,pair,nprocs,launch,round,rep,warmup,runtime_sec,valid\n"
              "allreduce,default,8,8,MPI_BYTE,MPI_BOR,,,4,abc123,3,0,0,0.000015000,1\n"
              "allreduce,\"odd,name\"\"q\",8,8,MPI_BYTE,MPI_BOR,,,4,abc123,3,0,1,0.000015000,0\n"
              "gather,default,8,8,MPI_BYTE,,2,,4,abc123,4,1,0,0.000020000,1\n"
              "sendrecv,default,8,8,MPI_BYTE,,,d1+,4,abc123,7,0,0,0.000020000,1\n");

  TEST_CASE("discarded file leaves nothing");
  char path2[600];
  snprintf(path2, sizeof path2, "%s/never.csv", dir);
  ASSERT_EQ(mg_outfile_open(&o, path2, err, sizeof err), 0);
  fputs("half", o.f);
  mg_outfile_discard(&o);
  ASSERT_TRUE(access(path2, F_OK) != 0);
  ASSERT_EQ(count_partials(dir), 0);

  TEST_CASE("unwritable");
  ASSERT_TRUE(mg_outfile_open(&o, "/nonexistent-dir-mg/x.csv", err, sizeof err) != 0);
  ASSERT_TRUE(strstr(err, "cannot write '/nonexistent-dir-mg/x.csv'") != NULL);
  ASSERT_TRUE(mg_outfile_open(&o, dir, err, sizeof err) != 0);
  ASSERT_TRUE(strstr(err, "is a directory") != NULL);

  TEST_CASE("repro rows");
  char path3[600];
  snprintf(path3, sizeof path3, "%s/data.dat", dir);
  ASSERT_EQ(mg_outfile_open(&o, path3, err, sizeof err), 0);
  mg_repro_header(o.f);
  mg_repro_row(o.f, "MPI_Allreduce", 0, 8, 1.25e-6);
  ASSERT_EQ(mg_outfile_commit(&o, err, sizeof err), 0);
  txt = slurp(path3);
  if (txt) ASSERT_STR_EQ(txt, "test nrep msize runtime_sec\nMPI_Allreduce 0 8 0.000001250\n");

  unlink(path);
  unlink(path3);
  rmdir(dir);
}

static void test_shuffle(void) {
  TEST_CASE("shuffle");
  int a[8], b[8];
  uint64_t s1 = 42, s2 = 42;
  for (int round = 0; round < 50; round++) {
    for (int i = 0; i < 8; i++) a[i] = b[i] = i;
    mg_shuffle_ints(a, 8, &s1);
    mg_shuffle_ints(b, 8, &s2);
    ASSERT_TRUE(memcmp(a, b, sizeof a) == 0); /* same seed, same order on every rank */
    int seen = 0;
    for (int i = 0; i < 8; i++) seen |= 1 << a[i];
    ASSERT_EQ(seen, 255); /* a permutation */
  }
  int firsts[8] = {0};
  uint64_t s3 = 7;
  for (int round = 0; round < 800; round++) {
    for (int i = 0; i < 8; i++) a[i] = i;
    mg_shuffle_ints(a, 8, &s3);
    firsts[a[0]]++;
  }
  for (int i = 0; i < 8; i++) ASSERT_TRUE(firsts[i] > 50 && firsts[i] < 150); /* roughly uniform */
}

/* Per-rank counts: the sum is the vector, zeros where asked, a skew within its factor, the
 * same split for the same seed and another for another seed. */
static void test_counts(void) {
  int out[7], again[7];
  TEST_CASE("counts: uniform, the first ranks one more");
  mg_bench_counts k = {MG_COUNTS_UNIFORM, 0, 0, 0};
  ASSERT_EQ(mg_bench_split(&k, 10, 4, out), 0);
  ASSERT_TRUE(out[0] == 3 && out[1] == 3 && out[2] == 2 && out[3] == 2);
  ASSERT_EQ(mg_bench_split(&k, 2, 4, out), 0);
  ASSERT_TRUE(out[0] == 1 && out[1] == 1 && out[2] == 0 && out[3] == 0);
  TEST_CASE("counts: zeros:K leaves the last K ranks empty");
  k = (mg_bench_counts){MG_COUNTS_ZEROS, 2, 0, 0};
  ASSERT_EQ(mg_bench_split(&k, 9, 5, out), 0);
  ASSERT_TRUE(out[0] == 3 && out[1] == 3 && out[2] == 3 && out[3] == 0 && out[4] == 0);
  TEST_CASE("counts: skew sums to the vector, within its factor, seeded");
  k = (mg_bench_counts){MG_COUNTS_SKEW, 0, 4, 7};
  ASSERT_EQ(mg_bench_split(&k, 7000, 7, out), 0);
  long sum = 0;
  int lo = out[0], hi = out[0];
  for (int r = 0; r < 7; r++) sum += out[r], lo = out[r] < lo ? out[r] : lo, hi = out[r] > hi ? out[r] : hi;
  ASSERT_EQ(sum, 7000);
  ASSERT_TRUE(lo > 0 && hi <= 4 * lo + 1 && hi > lo); /* skewed, at most factor 4 (+1 rounding) */
  ASSERT_EQ(mg_bench_split(&k, 7000, 7, again), 0);
  ASSERT_TRUE(!memcmp(out, again, sizeof out));
  k.seed = 8;
  ASSERT_EQ(mg_bench_split(&k, 7000, 7, again), 0);
  ASSERT_TRUE(memcmp(out, again, sizeof out) != 0);
  char name[64];
  mg_bench_counts_name(&k, name, sizeof name);
  ASSERT_STR_EQ(name, "skew:4:8");
}

/* --datatype specs (mg_dtype_parse): size (bytes of data), extent, canonical name, one entry per spec,
 * and what a bad spec's message says. */
static void test_dtype_specs(void) {
  char err[512];
  const mg_dtype_info *v = mg_dtype_parse("vector:2:3:double", err, sizeof err);
  ASSERT_TRUE(v != NULL);
  if (!v) return;
  ASSERT_STR_EQ(v->name, "vector:2:3:MPI_DOUBLE");
  ASSERT_EQ(v->size, 16);
  ASSERT_EQ((int)mg_dtype_extent(v), 24);
  ASSERT_EQ(v->kind, MG_DK_VECTOR);
  ASSERT_TRUE(v == mg_dtype_parse("vector:2:3:MPI_DOUBLE", err, sizeof err)); /* one entry per spec */
  const mg_dtype_info *r = mg_dtype_parse("resized:16:int", err, sizeof err);
  ASSERT_TRUE(r && r->size == 4 && mg_dtype_extent(r) == 16 && !strcmp(r->name, "resized:16:MPI_INT"));
  const mg_dtype_info *st = mg_dtype_parse("struct:char,double,int", err, sizeof err);
  ASSERT_TRUE(st != NULL);
  if (st) { /* char at 0, double at 8, int at 16; extent 24 (aligned to the double) */
    ASSERT_STR_EQ(st->name, "struct:MPI_CHAR,MPI_DOUBLE,MPI_INT");
    ASSERT_EQ(st->size, 13);
    ASSERT_EQ((int)mg_dtype_extent(st), 24);
    ASSERT_EQ(st->disp[1], 8);
    ASSERT_EQ(st->disp[2], 16);
    ASSERT_TRUE(st->base == NULL);
  }
  const mg_dtype_info *pre = mg_dtype_parse("MPI_INT", err, sizeof err);
  ASSERT_TRUE(pre == mg_dtype_find("int") && pre->kind == MG_DK_PREDEFINED && mg_dtype_extent(pre) == 4);
  static const struct {
    const char *spec, *msg;
  } bad[] = {
      {"vector:2:1:double", "STRIDE 1 is less than BLOCKLEN 2"},
      {"vector:0:3:double", "BLOCKLEN '0' is not a whole number from 1"},
      {"vector:2:3", "write vector:BLOCKLEN:STRIDE:BASE"},
      {"vector:2:3:foo", "'foo' is not a predefined datatype"},
      {"vector:2:3:vector", "'vector' is not a predefined datatype"},
      {"resized:6:int", "EXTENT 6 must be a multiple of the 4 bytes of MPI_INT"},
      {"resized:2:int", "EXTENT 2 must be a multiple"},
      {"resized:x:int", "EXTENT 'x' is not a whole number"},
      {"struct:", "write struct:T1,T2,..."},
      {"struct:int,,double", "write struct:T1,T2,..."},
      {"struct:int,quux", "'quux' is not a predefined datatype"},
      {"struct:int,int,int,int,int,int,int,int,int", "more than 8 members"},
      {"matrix:2:2", "unknown datatype 'matrix:2:2'; valid: MPI_BYTE"},
      {"MPI_FOO", "or a derived one: vector:BLOCKLEN:STRIDE:BASE, resized:EXTENT:BASE, struct:T1,T2,..."},
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    err[0] = '\0';
    ASSERT_MSG(mg_dtype_parse(bad[i].spec, err, sizeof err) == NULL, "'%s' accepted", bad[i].spec);
    ASSERT_MSG(strstr(err, bad[i].msg) != NULL, "'%s': message '%s' lacks '%s'", bad[i].spec, err, bad[i].msg);
  }
}

/* Pattern cartpair's neighbour pairs (bench.h): the grid, each pair once, the key of each round. */
static void test_cart_pairs(void) {
  TEST_CASE("cartpair: the balanced grid and its neighbour pairs, each once");
  int dims[2], pr[32][2];
  mg_cart_dims(6, dims);
  ASSERT_TRUE(dims[0] == 3 && dims[1] == 2);
  mg_cart_dims(7, dims);
  ASSERT_TRUE(dims[0] == 7 && dims[1] == 1);
  ASSERT_EQ(mg_cart_pairs(1, pr, 32), 0);
  ASSERT_EQ(mg_cart_pairs(2, pr, 32), 1); /* 2 x 1: one pair, the extent-1 dimension none */
  ASSERT_TRUE(pr[0][0] == 0 && pr[0][1] == 1);
  ASSERT_EQ(mg_cart_pairs(3, pr, 32), 3); /* a ring of 3 */
  ASSERT_EQ(mg_cart_pairs(6, pr, 32), 9); /* 3 x 2: two rings of 3, three pairs across */
  int n = mg_cart_pairs(4, pr, 32);       /* 2 x 2: dimension 0 (0-2, 1-3), then 1 (0-1, 2-3) */
  ASSERT_EQ(n, 4);
  static const int want[4][2] = {{0, 2}, {1, 3}, {0, 1}, {2, 3}};
  for (int k = 0; k < n && k < 4; k++) ASSERT_TRUE(pr[k][0] == want[k][0] && pr[k][1] == want[k][1]);
  int m = mg_cart_pairs(12, pr, 32); /* 4 x 3: 12 + 12, no pair twice */
  ASSERT_EQ(m, 24);
  for (int a = 0; a < m; a++)
    for (int b = a + 1; b < m; b++) ASSERT_TRUE(pr[a][0] != pr[b][0] || pr[a][1] != pr[b][1]);
  TEST_CASE("cartpair: the series key of a round names its pair; cart its direction; others none");
  char buf[24];
  ASSERT_STR_EQ(mg_pattern_pair(MG_PATTERN_CARTPAIR, MG_SENDRECV, 5, 4, buf, sizeof buf), "1-3");
  ASSERT_STR_EQ(mg_pattern_pair(MG_PATTERN_CARTPAIR, MG_SENDRECV, 27, 12, buf, sizeof buf), "3-6"); /* 27 mod 24 */
  ASSERT_STR_EQ(mg_pattern_pair(MG_PATTERN_CART, MG_SENDRECV, 5, 4, buf, sizeof buf), "d0+");
  ASSERT_STR_EQ(mg_pattern_pair(MG_PATTERN_CARTPAIR, MG_SEND, 5, 4, buf, sizeof buf), "");
  ASSERT_STR_EQ(mg_pattern_pair(MG_PATTERN_CARTPAIR, MG_SENDRECV, 0, 1, buf, sizeof buf), "");
  ASSERT_TRUE(mg_pattern_refuses(MG_SEND, 0, MG_PATTERN_CARTPAIR, 4) != NULL);
}

int main(void) {
  test_cart_pairs();
  test_counts();
  test_stats();
  test_rep();
  test_parse();
  test_output();
  test_shuffle();
  test_dtype_specs();
  return mg_test_summary("unit_bench");
}
