/*
 * Unit tests of src/check/ (no MPI launch): the readers on the fixtures of
 * tests/check/data/ (written by make_fixtures.py) and on defective files
 * written here, the verdicts against values computed by hand, Holm over the
 * run, the A/A split, the per-launch rule, the grouped comparer's choice,
 * the summary counts and the consistency score.
 *
 * Hand computations used below (no ties unless said):
 *  - Mann-Whitney U = #{(a, b): a > b}. When every default value is above
 *    every mock-up value, U = na nb and the exact one-sided p is
 *    1 / C(na + nb, na): only one of the C(N, na) equally likely assignments
 *    of the pooled ranks reaches it. C(20,10) = 184756, C(7,3) = 35,
 *    C(10,5) = 252.
 *  - U = 0 gives p = P(U >= 0) = 1.
 *  - Holm: with k p-values sorted ascending, adj(i) = max_{j<=i} (k - j + 1) p(j).
 *  - P(U >= 55) for 10 vs 10 without ties = 68301/184756 = 0.369682...: the
 *    Mann-Whitney recurrence f(m,n,u) = f(m-1,n,u-n) + f(m,n-1,u) summed in
 *    exact integers (make_fixtures.py's comment; any table of the U
 *    distribution for m = n = 10 gives the same).
 *  - P(U >= 6) for 3 vs 3 = 7/20: the 20 subsets have U = 0..9 with counts
 *    1,1,2,3,3,3,3,2,1,1.
 *
 * Usage: test_check DATA_DIR [group]; CTest runs one test per group.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/pack.h"
#include "check/check.h"
#include "tuner/tuner.h"
#include "util/text.h"
#include "common/test.h"

static const char *data_dir;
static char tmp_dir[256];

static const char *path_of(const char *rel) {
  static char buf[8][1024];
  static int k;
  k = (k + 1) % 8;
  snprintf(buf[k], sizeof buf[k], "%s/%s", data_dir, rel);
  return buf[k];
}

static const mg_ck_verdict *find_v(const mg_ck_result *r, const char *coll, size_t bytes, const char *alg) {
  for (int i = 0; i < r->n; i++)
    if (!strcmp(mg_colls[r->v[i].coll].name, coll) && r->v[i].bytes == bytes && !strcmp(r->v[i].alg, alg))
      return &r->v[i];
  TEST_FAIL("verdict %s %zu %s not found", coll, bytes, alg);
  static mg_ck_verdict none;
  return &none;
}

static int load(mg_ck_data *d, const char *const *src, int n, char *err) {
  mg_ck_data_init(d);
  for (int i = 0; i < n; i++)
    if (mg_ck_read(d, src[i], err, MG_CK_ERR)) return -1;
  return mg_ck_data_check(d, err, MG_CK_ERR);
}

/* ---------- the fixture "small" ---------- */

static void test_read(void) {
  mg_ck_data d;
  char err[MG_CK_ERR];
  const char *src[] = {path_of("small")};
  ASSERT_TRUE(load(&d, src, 1, err) == 0);
  ASSERT_TRUE(d.nlaunches == 1);
  ASSERT_TRUE(!strcmp(d.launches[0].id, "L1"));
  ASSERT_NEAR(d.launches[0].sync_cost, 2e-6, 1e-12);
  ASSERT_TRUE(d.launches[0].nprocs == 4);
  ASSERT_TRUE(!strcmp(d.launches[0].mpi_name, "TestMPI"));
  /* warm-up rows (one per 1K series) and the invalid 999 us rows (bcast 1K, allreduce 8) are not data */
  ASSERT_TRUE(d.warmup == 3);
  ASSERT_TRUE(d.invalid == 2);
  const mg_ck_series *s = mg_ck_find(&d, MG_BCAST, "default", 1024, NULL, 0);
  ASSERT_TRUE(s && s->n == 10 && s->rows == 11);
  if (s) {
    double mx = 0;
    for (long i = 0; i < s->n; i++) mx = fmax(mx, s->rt[i]);
    ASSERT_NEAR(mx, 19e-6, 1e-9);
    ASSERT_TRUE(s->round[0] == 1); /* round 0 was the warm-up */
  }
  ASSERT_TRUE(d.nnotes == 1 && d.notes[0].bytes == 65536);
  mg_ck_data_free(&d);
}

static void test_verdicts(void) {
  mg_ck_data d;
  mg_ck_result r;
  mg_ck_opts o;
  char err[MG_CK_ERR];
  const char *src[] = {path_of("small")};
  ASSERT_TRUE(load(&d, src, 1, err) == 0);
  mg_ck_opts_default(&o);
  ASSERT_TRUE(mg_ck_analyze(&d, &o, &r, err, sizeof err) == 0);
  ASSERT_TRUE(r.n == 5);
  ASSERT_TRUE(r.family == 4); /* the skipped mock-up is no comparison */
  /* order: allreduce before bcast (registry), sizes ascending, mock-ups in registry order */
  ASSERT_TRUE(r.v[0].coll == MG_ALLREDUCE && r.v[1].coll == MG_BCAST && r.v[1].bytes == 1024);
  ASSERT_TRUE(!strcmp(r.v[1].alg, "bcast_as_allgatherv") && !strcmp(r.v[2].alg, "bcast_as_scatter_allgather"));

  const mg_ck_verdict *v = find_v(&r, "bcast", 1024, "bcast_as_allgatherv");
  ASSERT_TRUE(v->status == MG_CKV_OK && v->n_def == 10 && v->n_mock == 10);
  ASSERT_NEAR(v->stat, 100, 0);
  ASSERT_NEAR(v->p, 1.0 / 184756, 1e-9);
  /* the decision's p: the interval's, adjusted for 4 comparisons x 1 look; p_adj <= alpha iff lo > 1 */
  ASSERT_TRUE(v->mult == 4 && v->p_adj < 0.05 && v->lo > 1);
  ASSERT_NEAR(v->med_def, 14.5e-6, 1e-12);   /* 10..19 us */
  ASSERT_NEAR(v->med_mock, 3.25e-6, 1e-12);  /* 1.0..5.5 us by 0.5 */
  ASSERT_REL(v->slowdown, 14.5 / 3.25, 1e-9);
  ASSERT_TRUE(v->lo <= v->slowdown && v->slowdown <= v->hi);
  ASSERT_TRUE(v->significant && v->violation && !v->noise);
  ASSERT_TRUE(!strcmp(v->guideline, "GL9"));

  v = find_v(&r, "bcast", 1024, "bcast_as_scatter_allgather");
  ASSERT_NEAR(v->stat, 0, 0);
  ASSERT_NEAR(v->p, 1, 1e-12);
  ASSERT_TRUE(!v->violation);

  v = find_v(&r, "allreduce", 8, "allreduce_as_reduce_bcast");
  ASSERT_NEAR(v->stat, 12, 0);
  ASSERT_NEAR(v->p, 1.0 / 35, 1e-9);
  /* 3 and 4 values: too few for an interval (MG_CK_MIN_VALUES): none printed, p_adj 1, inconclusive
   * (before: the interval [1.43, 6.0] wholly above 1 printed beside "not significant") */
  ASSERT_TRUE(isnan(v->lo) && isnan(v->hi) && v->p_adj == 1);
  ASSERT_TRUE(!v->significant && !v->violation);
  ASSERT_REL(v->slowdown, 6.0 / 2.5, 1e-9);

  v = find_v(&r, "bcast", 65536, "bcast_as_allgatherv");
  ASSERT_NEAR(v->stat, 55, 0);
  ASSERT_NEAR(v->p, 68301.0 / 184756, 1e-9);
  ASSERT_TRUE(v->p_adj > 0.05 && !(v->lo > 1));
  ASSERT_TRUE(v->noise); /* medians 104.5 and 104 us: 0.5 us < 2 us */
  ASSERT_TRUE(!v->violation);

  v = find_v(&r, "bcast", 65536, "bcast_as_scatter_allgather");
  ASSERT_TRUE(v->status == MG_CKV_SKIPPED);
  ASSERT_CONTAINS(v->note, "not applicable: test fixture");

  mg_ck_summary s;
  mg_ck_summarize(&r, &s);
  /* three verdicts: allreduce 8 inconclusive (3 and 4 values: no interval),
   * bcast 1K GL9 violation, GL10 consistent (0.59 [0.47, 0.74]), bcast 64K GL9 consistent
   * (1.00 [0.97, 1.04], within the noise but shown not slower beyond 5 %) */
  ASSERT_EQ(find_v(&r, "allreduce", 8, "allreduce_as_reduce_bcast")->outcome, MG_CK_INCONCLUSIVE);
  ASSERT_EQ(find_v(&r, "bcast", 1024, "bcast_as_allgatherv")->outcome, MG_CK_VIOLATION);
  ASSERT_EQ(find_v(&r, "bcast", 1024, "bcast_as_scatter_allgather")->outcome, MG_CK_CONSISTENT);
  ASSERT_EQ(find_v(&r, "bcast", 65536, "bcast_as_allgatherv")->outcome, MG_CK_CONSISTENT);
  ASSERT_TRUE(s.total.comparisons == 4 && s.total.violations == 1 && s.total.consistent == 2 &&
              s.total.inconclusive == 1);
  ASSERT_TRUE(s.total.cells == 3 && s.total.cells_violated == 1 && s.total.cells_judged == 2 && s.skipped == 1);
  /* score over the judged cells: bcast 1K (1 / 4.4615...) and bcast 64K (1); allreduce 8 is
   * inconclusive and counted neither as clean nor as violated */
  ASSERT_REL(s.score, 100 * (1 + 3.25 / 14.5) / 2, 1e-9);
  ASSERT_TRUE(!s.noise_dominated);
  mg_ck_result_free(&r);

  /* without the adjustment each interval is at alpha alone: narrower, the same verdicts here; the
   * allreduce comparison (rank test p = 1/35 < 0.05) stays inconclusive on 3 and 4 values */
  o.holm = 0;
  ASSERT_TRUE(mg_ck_analyze(&d, &o, &r, err, sizeof err) == 0);
  v = find_v(&r, "allreduce", 8, "allreduce_as_reduce_bcast");
  ASSERT_TRUE(v->mult == 1 && !v->violation && v->p < 0.05);
  const mg_ck_verdict *w = find_v(&r, "bcast", 1024, "bcast_as_allgatherv");
  ASSERT_TRUE(w->mult == 1 && w->violation && w->lo > 1);
  mg_ck_summarize(&r, &s);
  ASSERT_TRUE(s.total.violations == 1);
  mg_ck_result_free(&r);

  /* Welch on allreduce: diff 3.5 us, se^2 = 1/3 + (5/3)/4 = 0.75 us^2, t = 3.5 / sqrt(0.75) */
  mg_ck_opts_default(&o);
  o.test = MG_CK_WELCH;
  ASSERT_TRUE(mg_ck_analyze(&d, &o, &r, err, sizeof err) == 0);
  v = find_v(&r, "allreduce", 8, "allreduce_as_reduce_bcast");
  ASSERT_REL(v->stat, 3.5 / sqrt(0.75), 1e-9);
  ASSERT_TRUE(!strcmp(v->method, "welch"));
  mg_ck_result_free(&r);

  /* a larger alpha, and a given noise threshold */
  mg_ck_opts_default(&o);
  o.alpha = 0.1;
  o.noise = 0.1e-6;
  ASSERT_TRUE(mg_ck_analyze(&d, &o, &r, err, sizeof err) == 0);
  ASSERT_TRUE(!find_v(&r, "allreduce", 8, "allreduce_as_reduce_bcast")->violation); /* no interval */
  ASSERT_TRUE(!find_v(&r, "bcast", 65536, "bcast_as_allgatherv")->noise);          /* 0.5 us > 0.1 us */
  mg_ck_result_free(&r);

  o.alpha = 0;
  ASSERT_TRUE(mg_ck_analyze(&d, &o, &r, err, sizeof err) != 0);
  mg_ck_data_free(&d);
}

static void test_aa(void) {
  mg_ck_data d;
  mg_ck_result r, r0;
  mg_ck_opts o;
  char err[MG_CK_ERR];
  const char *src[] = {path_of("small")};
  ASSERT_TRUE(load(&d, src, 1, err) == 0);
  mg_ck_opts_default(&o);
  ASSERT_TRUE(mg_ck_analyze(&d, &o, &r0, err, sizeof err) == 0);
  o.aa = 1;
  ASSERT_TRUE(mg_ck_analyze(&d, &o, &r, err, sizeof err) == 0);
  ASSERT_TRUE(r.n == 8 && r.family == 4 && r.aa_family == 3);
  /* bcast 1K default: rounds 1..10 hold 10..19 us; even rounds 11,13,15,17,19, odd 10,12,...,18 */
  const mg_ck_verdict *v = find_v(&r, "bcast", 1024, MG_CK_AA_NAME);
  ASSERT_TRUE(v->aa && v->n_def == 5 && v->n_mock == 5);
  ASSERT_NEAR(v->med_def, 15e-6, 1e-12);
  ASSERT_NEAR(v->med_mock, 14e-6, 1e-12);
  ASSERT_TRUE(!strcmp(v->guideline, "A/A"));
  /* the control is its own Holm family: the real verdicts do not change */
  for (int i = 0; i < r0.n; i++) {
    const mg_ck_verdict *a = &r0.v[i], *b = find_v(&r, mg_colls[a->coll].name, a->bytes, a->alg);
    ASSERT_TRUE(a->p_adj == b->p_adj || (isnan(a->p_adj) && isnan(b->p_adj)));
    ASSERT_TRUE(a->violation == b->violation);
  }
  mg_ck_summary s;
  mg_ck_summarize(&r, &s);
  ASSERT_TRUE(s.aa == 3 && s.total.comparisons == 4);
  mg_ck_result_free(&r);
  mg_ck_result_free(&r0);
  mg_ck_data_free(&d);
}

/* ---------- several launches ---------- */

static void test_launches(void) {
  mg_ck_data d;
  mg_ck_result r;
  mg_ck_opts o;
  char err[MG_CK_ERR];
  const char *src[] = {path_of("launches/a"), path_of("launches/b")};
  ASSERT_TRUE(load(&d, src, 2, err) == 0);
  ASSERT_TRUE(d.nlaunches == 2);
  mg_ck_opts_default(&o);
  ASSERT_TRUE(mg_ck_analyze(&d, &o, &r, err, sizeof err) == 0);
  /* GL5: slower in launch a (medians 24.5 vs 14.5), faster in b (14.5 vs 15): pooled
   * U = 100 + 45 + 100 + 50 (ties count 1/2) = 295 of 400, significant, but no violation */
  const mg_ck_verdict *v = find_v(&r, "allreduce", 1024, "allreduce_as_reduce_bcast");
  ASSERT_NEAR(v->stat, 295, 0);
  /* the rank test of the pooled values is significant, but the interval over the launches (the
   * decision) covers both launches' ratios, 1.69 and 0.97: not significant (before: "?L") */
  ASSERT_TRUE(v->p < 0.05 && !v->significant && v->launches == 2 && v->launches_slower == 1 && !v->violation);
  ASSERT_TRUE(v->lo < 0.97 && v->hi > 1.69);
  char fl[8];
  ASSERT_STR_EQ(mg_ck_flags(v, fl), "?");
  ASSERT_EQ(v->outcome, MG_CK_INCONCLUSIVE);
  v = find_v(&r, "allreduce", 1024, "allreduce_as_reducescatterblock_allgather");
  ASSERT_TRUE(v->violation && v->launches_slower == 2);
  mg_ck_result_free(&r);
  /* the same launch twice is refused, and the failed source leaves nothing behind */
  ASSERT_TRUE(mg_ck_read(&d, path_of("launches/a"), err, sizeof err) != 0);
  ASSERT_CONTAINS(err, "already read");
  ASSERT_TRUE(d.nlaunches == 2);
  mg_ck_data_free(&d);
}

/* ---------- ReproMPI files ---------- */

static void test_repro(void) {
  mg_ck_data d;
  mg_ck_result r;
  mg_ck_opts o;
  char err[MG_CK_ERR];
  const char *src[] = {path_of("repro")};
  ASSERT_TRUE(load(&d, src, 1, err) == 0);
  ASSERT_TRUE(d.nlaunches == 1 && d.launches[0].repro && d.launches[0].nprocs == 2);
  /* data_MPI_Bcast_MPI_Bcast.dat: the MPI name as variant means the default */
  ASSERT_TRUE(mg_ck_find(&d, MG_BCAST, "default", 8, NULL, 0) != NULL);
  ASSERT_TRUE(mg_ck_find(&d, MG_REDUCE_SCATTER_BLOCK, "reduce_scatter_block_as_allreduce", 16, NULL, 0) != NULL);
  mg_ck_opts_default(&o);
  ASSERT_TRUE(mg_ck_analyze(&d, &o, &r, err, sizeof err) == 0);
  ASSERT_TRUE(r.n == 3);
  const mg_ck_verdict *v = find_v(&r, "reduce_scatter_block", 16, "reduce_scatter_block_as_allreduce");
  ASSERT_NEAR(v->p, 1.0 / 252, 1e-9);
  ASSERT_TRUE(v->mult == 3 && v->p_adj < 0.05 && v->lo > 1); /* the interval's p, x 3 comparisons */
  ASSERT_TRUE(v->violation);
  v = find_v(&r, "bcast", 8, "bcast_as_allgatherv");
  ASSERT_NEAR(v->stat, 6, 0);
  ASSERT_NEAR(v->p, 7.0 / 20, 1e-9);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
}

/* ---------- files written here ---------- */

static const char *write_file(const char *name, const char *text) {
  static char path[8][512];
  static int k;
  k = (k + 1) % 8;
  snprintf(path[k], sizeof path[k], "%s/%s", tmp_dir, name);
  char *slash = strrchr(path[k], '/');
  *slash = '\0';
  mkdir(path[k], 0777);
  *slash = '/';
  FILE *f = fopen(path[k], "w");
  fputs(text, f);
  fclose(f);
  return path[k];
}

static void write_bytes(const char *name, const char *b, size_t n) {
  char path[512];
  snprintf(path, sizeof path, "%s/%s", tmp_dir, name);
  char *slash = strrchr(path, '/');
  *slash = '\0';
  mkdir(path, 0777);
  *slash = '/';
  FILE *f = fopen(path, "w");
  fwrite(b, 1, n, f);
  fclose(f);
}

#define HEAD "collective,algorithm,bytes,count,datatype,nprocs,launch,round,rep,warmup,runtime_sec,valid\n"

static void row(char *buf, size_t len, const char *alg, double us, int round) {
  size_t u = strlen(buf);
  snprintf(buf + u, len - u, "bcast,%s,1024,1024,MPI_BYTE,2,G,%d,%d,0,%.9f,1\n", alg, round, round,
           us * 1e-6);
}

/* Writes csv to tmp_dir/name, reads it into *d and analyses it without Holm into *r. */
static void analyze_text(const char *name, const char *csv, mg_ck_data *d, mg_ck_result *r) {
  const char *p = write_file(name, csv);
  mg_ck_opts o;
  char err[MG_CK_ERR];
  mg_ck_data_init(d);
  ASSERT_TRUE(mg_ck_read(d, p, err, sizeof err) == 0);
  mg_ck_opts_default(&o);
  o.holm = 0;
  ASSERT_TRUE(mg_ck_analyze(d, &o, r, err, sizeof err) == 0);
}

static void test_grouped(void) {
  /* default 10..19 us. A: one value, 5 us: the fastest median, but n = 1 gives p = 1/11 > 0.05.
   * B: 8.0..8.9 us, C: 9.0..9.9 us: both below every default value (p = 1/184756 each).
   * The grouped comparer must name B (the fastest *violating* mock-up) with B's own numbers. */
  static char csv[16384];
  strcpy(csv, "#@sync_cost_sec=1e-7\n" HEAD);
  for (int i = 0; i < 10; i++) row(csv, sizeof csv, "default", 10 + i, i);
  row(csv, sizeof csv, "mockA", 5, 0);
  for (int i = 0; i < 10; i++) row(csv, sizeof csv, "mockB", 8 + 0.1 * i, i);
  for (int i = 0; i < 10; i++) row(csv, sizeof csv, "mockC", 9 + 0.1 * i, i);
  mg_ck_data d;
  mg_ck_result r;
  analyze_text("grouped/raw.csv", csv, &d, &r);
  /* mockA was measured in round 0 only: its comparison reads the default's round 0 (10 us) alone,
   * one value against one, p = 1/2 (test_shared_rounds) */
  ASSERT_TRUE(!find_v(&r, "bcast", 1024, "mockA")->violation);
  ASSERT_EQ(find_v(&r, "bcast", 1024, "mockA")->n_def, 1);
  ASSERT_NEAR(find_v(&r, "bcast", 1024, "mockA")->p, 1.0 / 2, 1e-9);
  ASSERT_TRUE(find_v(&r, "bcast", 1024, "mockB")->violation && find_v(&r, "bcast", 1024, "mockC")->violation);
  /* unknown mock-up names sort alphabetically after the registry's */
  ASSERT_TRUE(!strcmp(r.v[0].alg, "mockA") && !strcmp(r.v[2].alg, "mockC"));
  char out[8192] = "";
  FILE *f = fmemopen(out, sizeof out - 1, "w");
  ASSERT_TRUE(mg_ck_print_comparer(f, MG_CKC_GROUPED, MG_CK_CSV, 0, &d, &r) == 0);
  fclose(f);
  ASSERT_CONTAINS(out, "bcast,1024,10,1.45e-05,mockB,8.45e-06,");
  ASSERT_TRUE(!strstr(out, "mockA") && !strstr(out, "mockC"));
  mg_ck_summary s;
  mg_ck_summarize(&r, &s);
  ASSERT_REL(s.score, 100 * 8.45 / 14.5, 1e-9);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
}

static void test_shared_rounds(void) {
  /* A mock-up that stopped at 20 rounds while the default went on to 100, and the machine's load
   * doubled every time from round 20 on: the default and the mock-up are the same call (10.0-10.9
   * us, the same values, in the same rounds), so the comparison must not find a violation. Read
   * whole, the default's median is 20.x us against the mock-up's 10.x: a 2x "violation" of the
   * load (seen in a real check: bcast_as_packed at 1 KiB, 2.04x). Over the rounds both were
   * measured in, 20 values each, equal. */
  static char csv[16384];
  strcpy(csv, "#@sync_cost_sec=1e-7\n" HEAD);
  for (int i = 0; i < 100; i++) row(csv, sizeof csv, "default", (i < 20 ? 10 : 20) + 0.05 * (i % 20), i);
  for (int i = 0; i < 20; i++) row(csv, sizeof csv, "mockA", 10 + 0.05 * (i % 20), i);
  mg_ck_data d;
  mg_ck_result r;
  analyze_text("shared/raw.csv", csv, &d, &r);
  const mg_ck_verdict *v = find_v(&r, "bcast", 1024, "mockA");
  ASSERT_TRUE(v && !v->violation);
  ASSERT_EQ(v->n_def, 20);
  ASSERT_EQ(v->n_mock, 20);
  ASSERT_REL(v->slowdown, 1.0, 1e-9);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
}

static void test_direction(void) {
  /* A significant rank test whose medians point the other way is no violation. Default: 24
   * values 10.00..10.23 us and 16 values 100..115 us (median 10.x); mock-up: 18 values 1.0..1.17
   * and 22 values 10.50..10.71 (median 10.5x). U = 24 x 18 + 16 x 40 = 1072 of 1600, well above
   * 800 (p about 0.004), but median(default) < median(mock-up). */
  static char csv[16384];
  strcpy(csv, HEAD);
  for (int i = 0; i < 40; i++) row(csv, sizeof csv, "default", i < 24 ? 10 + 0.01 * i : 100 + (i - 24), i);
  for (int i = 0; i < 40; i++)
    row(csv, sizeof csv, "mockD", i < 18 ? 1 + 0.01 * i : 10.5 + 0.01 * (i - 18), i);
  const char *p = write_file("direction/raw.csv", csv);
  mg_ck_data d;
  mg_ck_result r;
  mg_ck_opts o;
  char err[MG_CK_ERR], fl[8];
  mg_ck_data_init(&d);
  ASSERT_TRUE(mg_ck_read(&d, p, err, sizeof err) == 0);
  mg_ck_opts_default(&o);
  ASSERT_TRUE(mg_ck_analyze(&d, &o, &r, err, sizeof err) == 0);
  const mg_ck_verdict *v = find_v(&r, "bcast", 1024, "mockD");
  ASSERT_NEAR(v->stat, 1072, 0);
  /* the rank test is significant (p about 0.004), the decision is not: it is the interval of the
   * medians' ratio, which lies around 0.95 < 1; no flag L is needed to explain a disagreement */
  ASSERT_TRUE(v->p < 0.01 && !v->significant && v->slowdown < 1 && v->launches == 1 && v->launches_slower == 0);
  ASSERT_TRUE(!(v->lo > 1) && v->p_adj > 0.05);
  ASSERT_TRUE(!v->violation && !strchr(mg_ck_flags(v, fl), 'L') && v->outcome != MG_CK_VIOLATION);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
}

/* One defective file: reading fails, the message holds `want`, d is unchanged. */
static void bad(const char *name, const char *text, const char *want) {
  const char *p = text ? write_file(name, text) : name;
  mg_ck_data d;
  char err[MG_CK_ERR] = "";
  mg_ck_data_init(&d);
  int rc = mg_ck_read(&d, p, err, sizeof err);
  if (rc == 0) {
    TEST_FAIL("%s: read without error, expected '%s'", name, want);
  } else {
    ASSERT_CONTAINS(err, want);
    ASSERT_TRUE(d.nlaunches == 0 && d.nseries == 0);
  }
  mg_ck_data_free(&d);
}

/* Every k-th prefix of a fixture through the reader (bounded: about 300 prefixes): each is either
 * refused with a message naming the file, or, for an external format without a row count
 * (repro: ReproMPI files), read as far as its last whole line. full_only: a prefix that reads must
 * read as the whole file does (mpiguide's raw.csv: #@check_rows, #@stop and the last line break
 * catch every cut). */
static void cut_walk(const char *fixture, const char *name, int full_only) {
  FILE *f = fopen(path_of(fixture), "r");
  if (!f) return TEST_FAIL("%s: cannot open", fixture);
  static char text[1 << 16];
  size_t n = fread(text, 1, sizeof text, f);
  fclose(f);
  mg_ck_data d;
  char err[MG_CK_ERR] = "", p[600];
  mg_ck_data_init(&d);
  ASSERT_MSG(mg_ck_read(&d, path_of(fixture), err, sizeof err) == 0, "%s: %s", fixture, err);
  long whole = 0;
  for (int i = 0; i < d.nseries; i++) whole += d.series[i].n;
  mg_ck_data_free(&d);
  snprintf(p, sizeof p, "%s/%s", tmp_dir, name);
  size_t step = n / 300 + 1;
  int refused = 0;
  for (size_t k = 0; k < n; k += step) {
    write_bytes(name, text, k);
    mg_ck_data_init(&d);
    int rc = mg_ck_read(&d, p, err, sizeof err);
    long got = 0;
    for (int i = 0; i < d.nseries; i++) got += d.series[i].n;
    if (rc) {
      refused++;
      ASSERT_MSG(strstr(err, name) && d.nlaunches == 0 && d.nseries == 0, "prefix %zu of %s: %s", k, fixture, err);
    } else {
      ASSERT_MSG(k > 0 && text[k - 1] == '\n', "prefix %zu of %s, cut inside a line, was read", k, fixture);
      ASSERT_MSG(full_only ? got == whole : got <= whole, "prefix %zu of %s read %ld values, the whole %ld", k, fixture,
                 got, whole);
    }
    mg_ck_data_free(&d);
  }
  ASSERT_MSG(refused > 0, "%s: no prefix refused", fixture);
}

static void test_bad(void) {
  char p[600];
  bad("/nonexistent/mpiguide-check", NULL, "/nonexistent/mpiguide-check: No such file or directory");
  bad("empty/raw.csv", "", "empty/raw.csv: the file is empty");
  bad("meta_only/raw.csv", "#@launch=x\n", "meta_only/raw.csv:1: no header line and no data");
  bad("no_rows/raw.csv", HEAD, "no data rows");
  bad("foreign.csv", "name,value\nx,1\n", "foreign.csv:1: not an mpiguide raw CSV");
  bad("missing_col.csv",
      "collective,algorithm,bytes,count,datatype,nprocs,launch,round,rep,warmup,runtime_sec\n",
      "missing_col.csv:1: the header lacks the column 'valid'");
  bad("unknown_coll.csv",
      HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,0.000001,1\n"
           "allreduc,default,8,8,MPI_BYTE,2,G,0,0,0,0.000001,1\n",
      "unknown_coll.csv:3: unknown collective 'allreduc'");
  bad("fields.csv", HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,0.000001\n",
      "fields.csv:2: 11 fields, the header has 12");
  bad("number.csv", HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,1e-6x,1\n",
      "number.csv:2: column runtime_sec: '1e-6x'");
  bad("negative.csv", HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,-0.1,1\n",
      "negative.csv:2: column runtime_sec");
  bad("bytes.csv", HEAD "bcast,default,0,8,MPI_BYTE,2,G,0,0,0,0.1,1\n", "bytes.csv:2: column bytes: '0'");
  bad("flag.csv", HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,2,0.1,1\n",
      "flag.csv:2: column warmup: '2' is not 0 or 1");
  /* truncated: in the middle of a line, at a line boundary (#@check_rows, #@stop) */
  bad("cut.csv", HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,0.000001,1\nbcast,default,8,8,MPI_BY",
      "cut.csv:3: the last line has no line break");
  bad("rows.csv", "#@check_rows=3\n" HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,0.000001,1\n",
      "rows.csv:3: the file ends early (truncated?): 1 data rows, its #@check_rows says 3");
  bad("stop.csv",
      "#@launch=G\n#@stop=bcast,default,8,rse,5\n" HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,0.000001,1\n",
      "stop.csv:4: the file ends early (truncated?): bcast default at 8 bytes has 1 measurement rows, its "
      "#@stop "
      "line (line 2) says 5");
  bad("aa.csv", HEAD "bcast,default_aa,8,8,MPI_BYTE,2,G,0,0,0,0.1,1\n", "reserved for the A/A control");
  bad("nprocs.csv",
      HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,0.1,1\nbcast,default,8,8,MPI_BYTE,3,G,1,1,0,0.1,1\n",
      "nprocs.csv:3: nprocs 3, but launch 'G' has 2 processes");
  /* a directory without data; raw.csv that cannot be read */
  snprintf(p, sizeof p, "%s/emptydir", tmp_dir);
  mkdir(p, 0777);
  bad(p, NULL, "no raw data: neither raw.csv, nor launch-K/raw.csv (check --launches), nor ReproMPI files");
  snprintf(p, sizeof p, "%s/dir_raw/raw.csv", tmp_dir);
  write_file("dir_raw/x", "");
  mkdir(p, 0777);
  snprintf(p, sizeof p, "%s/dir_raw", tmp_dir);
  bad(p, NULL, "dir_raw/raw.csv: is a directory, not a results file");
  /* ReproMPI files */
  bad("rp1/data_MPI_Frob_default.dat", "test nrep msize runtime_sec\n",
      "unknown collective in the file name");
  bad("rp2/data_MPI_Bcast_default.dat", "test nrep msize\nMPI_Bcast 0 8\n",
      "data_MPI_Bcast_default.dat:1: the header lacks the column 'runtime_sec'");
  bad("rp3/data_MPI_Bcast_default.dat", "test nrep msize runtime_sec\nMPI_Bcast 0 8\n",
      "data_MPI_Bcast_default.dat:2: 3 fields, the header has 4");
  bad("rp4/data_MPI_Bcast_default.dat", "test nrep msize runtime_sec\nMPI_Bcast 0 8 0.1\nMPI_Bcast 1 8 0.",
      "data_MPI_Bcast_default.dat:3: the last line has no line break");

  /* numbers of the #@ lines: range-checked, nothing after them (issue 45) */
  bad("nprocs_big.csv", "#@nprocs=4294967300\n" HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,0.1,1\n",
      "nprocs_big.csv:1: #@nprocs=4294967300: 4294967300 is out of range (1 to 2147483647)");
  bad("nnodes_junk.csv", "#@launch=G\n#@nnodes=2x\n" HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,0.1,1\n",
      "nnodes_junk.csv:2: #@nnodes=2x: '2x' is not an integer");
  bad("rows_junk.csv", "#@check_rows=1junk\n" HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,0.1,1\n",
      "rows_junk.csv:1: #@check_rows=1junk: '1junk' is not an integer");
  bad("sync_inf.csv", "#@sync_cost_sec=inf\n" HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,0.1,1\n",
      "sync_inf.csv:1: #@sync_cost_sec=inf: 'inf' is not a number");
  bad("skew_neg.csv", "#@sync_skew_sec=-1e-6\n" HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,0.1,1\n",
      "skew_neg.csv:1: #@sync_skew_sec=-1e-6: '-1e-6' is out of range (0 to 1e+06)");
  bad("noise_nan.csv", "#@noise_sec=nan\n" HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,0.1,1\n",
      "noise_nan.csv:1: #@noise_sec=nan: 'nan' is not a number");
  bad("seed_junk.csv", "#@check_format=1\n#@seed=12 \n" HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,0.1,1\n",
      "seed_junk.csv:2: #@seed=12 : not a seed");
  {
    size_t n = MG_LINE_MAX + 16;
    char *big = malloc(n + 200);
    memcpy(big, "#@command=", 10);
    memset(big + 10, 'x', n - 10);
    snprintf(big + n, 200, "\n%s", HEAD);
    bad("long/raw.csv", big, "long/raw.csv:1: a line longer than 1 MiB");
    free(big);
  }
  {
    static const char nul[] = "#@launch=G\n" HEAD "bcast,default,8,8,MPI_BYTE,2,G,0,0,0,0.1\0,1\n";
    write_bytes("nul/raw.csv", nul, sizeof nul - 1);
    snprintf(p, sizeof p, "%s/nul/raw.csv", tmp_dir);
    bad(p, NULL, "nul/raw.csv:3: a NUL byte");
  }
  /* ReproMPI: the same for its #@ lines, its element size, a NUL byte */
  bad("rp5/data_MPI_Bcast_default.dat", "#@datatype_size=4x\ntest nrep count runtime_sec\nMPI_Bcast 0 8 0.1\n",
      "data_MPI_Bcast_default.dat:1: #@datatype_size=4x: '4x' is not an integer");
  bad("rp6/data_MPI_Bcast_default.dat", "#@nprocs=99999999999\ntest nrep msize runtime_sec\nMPI_Bcast 0 8 0.1\n",
      "data_MPI_Bcast_default.dat:1: #@nprocs=99999999999: 99999999999 is out of range");
  bad("rp7/data_MPI_Bcast_default.dat", "#@root=-1\ntest nrep msize runtime_sec\nMPI_Bcast 0 8 0.1\n",
      "data_MPI_Bcast_default.dat:1: #@root=-1: -1 is out of range");
  bad("rp8/data_MPI_Bcast_default.dat", "#@datatype_size=1073741824\ntest nrep count runtime_sec\n"
      "MPI_Bcast 0 99999999999999 0.1\n", "data_MPI_Bcast_default.dat:3: column count: 99999999999999 elements of "
      "1073741824 bytes is too large");
  {
    static const char nul[] = "test nrep msize runtime_sec\nMPI_Bcast 0 8 0.1\nMPI_Bcast 1 8\0 0.1\n";
    write_bytes("rp9/data_MPI_Bcast_default.dat", nul, sizeof nul - 1);
    snprintf(p, sizeof p, "%s/rp9/data_MPI_Bcast_default.dat", tmp_dir);
    bad(p, NULL, "data_MPI_Bcast_default.dat:3: a NUL byte");
  }

  /* every cut of a fixture: refused, or (ReproMPI, which has no row count) its whole lines */
  cut_walk("small/raw.csv", "walk/raw.csv", 1);
  cut_walk("repro/data_MPI_Bcast_bcast_as_allgatherv.dat", "walk_rp/data_MPI_Bcast_bcast_as_allgatherv.dat", 0);

  /* launches of different process counts do not merge */
  mg_ck_data d;
  char err[MG_CK_ERR];
  mg_ck_data_init(&d);
  ASSERT_TRUE(mg_ck_read(
            &d,
            write_file("np2/raw.csv", "#@launch=P2\n" HEAD "bcast,default,8,8,MPI_BYTE,2,P2,0,0,0,0.1,1\n"),
            err, sizeof err) == 0);
  ASSERT_TRUE(mg_ck_read(
            &d,
            write_file("np3/raw.csv", "#@launch=P3\n" HEAD "bcast,default,8,8,MPI_BYTE,3,P3,0,0,0,0.1,1\n"),
            err, sizeof err) == 0);
  ASSERT_TRUE(mg_ck_data_check(&d, err, sizeof err) != 0);
  ASSERT_CONTAINS(err, "on 2 processes, launch 'P3'");
  mg_ck_data_free(&d);
}

/* ---------- A/A on synthetic null data ---------- */

static uint64_t rng_state = 88172645463325252ull;
static double unif(void) { /* xorshift64: a fixed, documented sequence */
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (double)(rng_state >> 11) / 9007199254740992.0;
}

static void test_aa_null(void) {
  /* 40 cells; default and mock-up from the same skewed distribution (10 us + an exponential
   * tail), 60 measurements each. Every comparison and every A/A control is a true null:
   * without Holm about alpha = 5 % may be flagged; with this fixed sequence the counts are
   * what they are, the bound below (10 of 40, P = 0.0003 under Binomial(40, 0.05)) is what
   * the check guarantees in distribution. */
  size_t cap = 40 * 120 * 80 + 200;
  char *csv = malloc(cap);
  strcpy(csv, "#@sync_cost_sec=1e-9\n" HEAD);
  size_t u = strlen(csv);
  for (int c = 0; c < 40; c++)
    for (int r = 0; r < 60; r++)
      for (int a = 0; a < 2; a++) {
        double us = 10 - 3 * log(1 - unif());
        u += (size_t)snprintf(csv + u, cap - u, "bcast,%s,%d,%d,MPI_BYTE,2,N,%d,%d,0,%.9f,1\n",
                              a ? "bcast_as_allgatherv" : "default", 8 * (c + 1), 8 * (c + 1), r, r,
                              us * 1e-6);
      }
  const char *p = write_file("null/raw.csv", csv);
  free(csv);
  mg_ck_data d;
  mg_ck_result r;
  mg_ck_opts o;
  char err[MG_CK_ERR];
  mg_ck_data_init(&d);
  ASSERT_TRUE(mg_ck_read(&d, p, err, sizeof err) == 0);
  mg_ck_opts_default(&o);
  o.aa = 1;
  o.holm = 0;
  o.resamples = 200;
  ASSERT_TRUE(mg_ck_analyze(&d, &o, &r, err, sizeof err) == 0);
  mg_ck_summary s;
  mg_ck_summarize(&r, &s);
  printf("null data, no Holm: %d of %d comparisons, %d of %d A/A controls flagged\n", s.total.violations,
         s.total.comparisons, s.aa_flagged, s.aa);
  ASSERT_TRUE(s.aa == 40 && s.total.comparisons == 40);
  ASSERT_TRUE(s.aa_flagged <= 10 && s.total.violations <= 10);
  mg_ck_result_free(&r);
  o.holm = 1;
  ASSERT_TRUE(mg_ck_analyze(&d, &o, &r, err, sizeof err) == 0);
  mg_ck_summarize(&r, &s);
  printf("null data, Holm: %d comparisons, %d A/A controls flagged\n", s.total.violations, s.aa_flagged);
  ASSERT_TRUE(s.aa_flagged <= 1 && s.total.violations <= 1);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
}

/* ---------- names and labels ---------- */

static void test_names(void) {
  char b[128];
  ASSERT_TRUE(!strcmp(mg_ck_label(MG_ALLREDUCE, "allreduce_as_reduce_bcast", 0, b, sizeof b), "GL5 reduce_bcast"));
  ASSERT_TRUE(!strcmp(mg_ck_label(MG_ALLREDUCE, "allreduce_as_reduce_bcast", 1, b, sizeof b), "GL5"));
  ASSERT_TRUE(!strcmp(mg_ck_label(MG_BCAST, "custom_thing", 0, b, sizeof b), "custom_thing"));
  ASSERT_TRUE(mg_ck_comparer_find("grouped_violation") == MG_CKC_GROUPED);
  ASSERT_TRUE(mg_ck_comparer_find("abs") == MG_CKC_ABS);
  ASSERT_TRUE(mg_ck_comparer_find("nope") < 0);
  ASSERT_TRUE(mg_ck_test_find("welch") == MG_CK_WELCH && mg_ck_test_find("t") < 0);
}

/* ---------- roots and reduction pairs (mpiguide-bench-raw/2) ---------- */

static const mg_ck_verdict *find_red(const mg_ck_result *r, mg_coll c, const char *red, const char *alg) {
  for (int i = 0; i < r->n; i++)
    if (r->v[i].coll == c && !strcmp(r->v[i].red, red) && !strcmp(r->v[i].alg, alg)) return &r->v[i];
  return NULL;
}

/* gather 16 B at a root rotating over 0..3 (round r: root r % 4), 40 rounds; the default takes 10 us
 * (+ jitter) at every root; gather_as_gatherv 5 us at roots 0-2 but 11 us at root 3; gather_as_reduce
 * 5 us everywhere. allreduce 64 B on doubles and on ints (sum): allreduce_as_reduce_bcast 5 us on
 * doubles, 10 us on ints, the default 10 us on both. */
static void test_roots(void) {
  static char buf[1 << 17];
  snprintf(buf, sizeof buf, "#@format=mpiguide-bench-raw/2\n#@nprocs=4\n%s",
           "collective,algorithm,bytes,count,datatype,op,root,nprocs,launch,round,rep,warmup,runtime_sec,valid\n");
  for (int r = 0; r < 40; r++) {
    int root = r % 4;
    double j = 0.01 * (r % 7);
    double t[3] = {10 + j, (root < 3 ? 5 : 11) + j, 5 + j};
    const char *alg[3] = {"default", "gather_as_gatherv", "gather_as_reduce"};
    for (int a = 0; a < 3; a++) {
      size_t u = strlen(buf);
      snprintf(buf + u, sizeof buf - u, "gather,%s,16,16,MPI_BYTE,,%d,4,L,%d,%d,0,%.9f,1\n", alg[a], root, r, r,
               t[a] * 1e-6);
    }
    const char *dt[2] = {"MPI_DOUBLE", "MPI_INT"};
    for (int k = 0; k < 2; k++) {
      double ta[2] = {10 + j, (k == 0 ? 5 : 10) + j};
      const char *aa[2] = {"default", "allreduce_as_reduce_bcast"};
      for (int a = 0; a < 2; a++) {
        size_t u = strlen(buf);
        snprintf(buf + u, sizeof buf - u, "allreduce,%s,64,%d,%s,MPI_SUM,,4,L,%d,%d,0,%.9f,1\n", aa[a],
                 k == 0 ? 8 : 16, dt[k], r, r, ta[a] * 1e-6);
      }
    }
  }
  const char *path = write_file("roots/raw.csv", buf);
  mg_ck_data d;
  mg_ck_data_init(&d);
  char err[MG_CK_ERR];
  TEST_CASE("roots: read with the root of every row, reductions keyed by their pair");
  ASSERT_EQ(mg_ck_read(&d, path, err, sizeof err), 0);
  const mg_ck_series *s = mg_ck_find(&d, MG_GATHER, "default", 16, "", 0);
  ASSERT_TRUE(s != NULL);
  if (s) ASSERT_TRUE(s->n == 40 && s->root[0] == 0 && s->root[3] == 3 && s->root[5] == 1);
  ASSERT_TRUE(mg_ck_find(&d, MG_ALLREDUCE, "default", 64, "MPI_DOUBLE:MPI_SUM", 0) != NULL);
  ASSERT_TRUE(mg_ck_find(&d, MG_ALLREDUCE, "default", 64, "MPI_INT:MPI_SUM", 0) != NULL);
  ASSERT_TRUE(mg_ck_find(&d, MG_ALLREDUCE, "default", 64, "", 0) == NULL);
  mg_ck_opts o;
  mg_ck_opts_default(&o);
  o.aa = 1;
  mg_ck_result r;
  ASSERT_EQ(mg_ck_analyze(&d, &o, &r, err, sizeof err), 0);

  TEST_CASE("roots: faster at three roots of four is no violation (flag R)");
  const mg_ck_verdict *v = find_red(&r, MG_GATHER, "", "gather_as_gatherv");
  ASSERT_TRUE(v != NULL);
  char fl[8];
  if (v) {
    ASSERT_TRUE(v->significant);
    ASSERT_EQ(v->roots, 4);
    ASSERT_EQ(v->roots_slower, 3);
    ASSERT_NEAR(v->root_worst, 10.015 / 11.015, 0.01);
    ASSERT_TRUE(v->outcome == MG_CK_INCONCLUSIVE && !v->leaning);
    ASSERT_STR_EQ(mg_ck_flags(v, fl), "?R");
  }
  TEST_CASE("roots: faster at every root is a violation, its least favourable root recorded");
  v = find_red(&r, MG_GATHER, "", "gather_as_reduce");
  ASSERT_TRUE(v != NULL);
  if (v) {
    ASSERT_TRUE(v->violation);
    ASSERT_TRUE(v->roots == 4 && v->roots_slower == 4);
    ASSERT_NEAR(v->root_worst, 2.0, 0.01);
  }
  TEST_CASE("roots: the A/A halves hold every root (no false difference between roots)");
  v = find_red(&r, MG_GATHER, "", MG_CK_AA_NAME);
  ASSERT_TRUE(v != NULL);
  if (v) ASSERT_TRUE(v->roots == 4 && !v->violation && v->n_def == 20 && v->n_mock == 20);

  TEST_CASE("reduction pairs: one verdict per pair, each on its own data");
  v = find_red(&r, MG_ALLREDUCE, "MPI_DOUBLE:MPI_SUM", "allreduce_as_reduce_bcast");
  ASSERT_TRUE(v && v->violation && v->roots == 0);
  v = find_red(&r, MG_ALLREDUCE, "MPI_INT:MPI_SUM", "allreduce_as_reduce_bcast");
  ASSERT_TRUE(v && !v->violation);
  char sr[MG_CK_RED];
  ASSERT_STR_EQ(mg_ck_red_short("MPI_DOUBLE:MPI_SUM", sr, sizeof sr), "double:sum");

  TEST_CASE("tune: a rule for the pair measured, naming its class and op; none for the root-0 gain");
  mg_profile *p = mg_profile_new();
  mg_tune_choice *ch = NULL;
  int nch = 0;
  ASSERT_EQ(mg_tune_decide(&r, 4, 0.10, MG_TUNE_CONCLUSIVE, p, &ch, &nch, err, sizeof err), 2);
  ASSERT_EQ(mg_profile_build(p, NULL), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_nrules(p), 2);
  ASSERT_EQ(mg_profile_lookup_sel(p, MG_ALLREDUCE, 4, 64, MG_TCLASS_FLOAT, MG_OPSEL_SUM),
            mg_alg_find(MG_ALLREDUCE, "allreduce_as_reduce_bcast"));
  ASSERT_EQ(mg_profile_lookup_sel(p, MG_ALLREDUCE, 4, 64, MG_TCLASS_INT, MG_OPSEL_SUM), 0);
  ASSERT_EQ(mg_profile_lookup_sel(p, MG_ALLREDUCE, 4, 64, MG_TCLASS_BYTE, MG_OPSEL_BOR), 0);
  ASSERT_EQ(mg_profile_lookup(p, MG_GATHER, 4, 16), mg_alg_find(MG_GATHER, "gather_as_reduce"));
  /* a gain asked for beyond what the intervals show: no rule */
  mg_profile *q = mg_profile_new();
  ASSERT_EQ(mg_tune_decide(&r, 4, 0.55, MG_TUNE_CONCLUSIVE, q, &ch, &nch, err, sizeof err), 0);
  mg_profile_free(q);
  free(ch);
  mg_profile_free(p);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
}

/* ---------- monotony (fixture "monotony", make_fixtures.py) ---------- */

static const mg_ck_verdict *find_mono(const mg_ck_result *r, size_t bytes, const char *alg) {
  for (int i = 0; i < r->nmono; i++)
    if (r->mono[i].bytes == bytes && !strcmp(r->mono[i].alg, alg)) return &r->mono[i];
  TEST_FAIL("monotony verdict %zu %s not found", bytes, alg);
  static mg_ck_verdict none;
  return &none;
}

static void test_monotony(void) {
  mg_ck_data d;
  mg_ck_result r;
  mg_ck_opts o;
  char err[MG_CK_ERR];
  const char *src[] = {path_of("monotony")};
  ASSERT_TRUE(load(&d, src, 1, err) == 0);
  mg_ck_opts_default(&o);
  ASSERT_TRUE(mg_ck_analyze(&d, &o, &r, err, sizeof err) == 0);

  TEST_CASE("monotony: one comparison per algorithm and size but the largest, one Holm family");
  ASSERT_EQ(r.nmono, 4);
  ASSERT_EQ(r.mono_family, 4);
  /* the guideline verdicts are untouched: 3 sizes x 1 mock-up */
  ASSERT_EQ(r.n, 3);

  TEST_CASE("monotony: 1K of the default against the fastest larger size (4K, not 16K): non-monotone");
  const mg_ck_verdict *v = find_mono(&r, 1024, "default");
  ASSERT_TRUE(v->bytes_next == 4096);
  ASSERT_TRUE(!strcmp(v->guideline, MG_CK_MONO_GUIDELINE));
  ASSERT_EQ(v->outcome, MG_CK_VIOLATION);
  ASSERT_NEAR(v->med_def, 54.5e-6, 1e-12);
  ASSERT_NEAR(v->med_mock, 14.5e-6, 1e-12);
  /* every 1K value above every 4K value: U = 0, exact p = 1 / C(20, 10) */
  ASSERT_NEAR(v->p, 1.0 / 184756, 1e-12);
  ASSERT_TRUE(v->lo > 1);

  TEST_CASE("monotony: 4K against 16K, and the monotone mock-up, shown monotone");
  v = find_mono(&r, 4096, "default");
  ASSERT_TRUE(v->bytes_next == 16384);
  ASSERT_EQ(v->outcome, MG_CK_CONSISTENT);
  v = find_mono(&r, 1024, "bcast_as_allgatherv");
  ASSERT_TRUE(v->bytes_next == 4096);
  ASSERT_EQ(v->outcome, MG_CK_CONSISTENT);
  ASSERT_EQ(find_mono(&r, 4096, "bcast_as_allgatherv")->outcome, MG_CK_CONSISTENT);

  TEST_CASE("monotony: monotony.csv names the pair and the outcome");
  char path[512];
  snprintf(path, sizeof path, "%s/monotony.csv", tmp_dir);
  FILE *f = fopen(path, "w");
  ASSERT_TRUE(f != NULL);
  mg_ck_write_monotony_csv(f, &d, &r);
  fclose(f);
  f = fopen(path, "r");
  char line[1024];
  int rows = 0, found = 0;
  while (fgets(line, sizeof line, f)) {
    if (line[0] == '#') continue;
    rows++;
    found += !strncmp(line, "bcast,,default,,1024,4096,ok,10,10,", 35) && strstr(line, ",violation,");
  }
  fclose(f);
  ASSERT_EQ(rows, 5); /* header and four rows */
  ASSERT_EQ(found, 1);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
}

/* ---------- a verdict measured only (fixture "measure_only") ---------- */

static void test_measure_only(void) {
  mg_ck_data d;
  mg_ck_result r;
  mg_ck_opts o;
  char err[MG_CK_ERR], fl[8];
  const char *src[] = {path_of("measure_only")};
  ASSERT_TRUE(load(&d, src, 1, err) == 0);
  mg_ck_opts_default(&o);
  ASSERT_TRUE(mg_ck_analyze(&d, &o, &r, err, sizeof err) == 0);
  TEST_CASE("measure only: a verdict like any other, flagged M, with its note");
  const mg_ck_verdict *v = find_v(&r, "allreduce", 8, "allreduce_as_userop");
  ASSERT_EQ(v->status, MG_CKV_OK);
  ASSERT_EQ(v->outcome, MG_CK_VIOLATION);
  ASSERT_EQ(v->measure_only, 1);
  ASSERT_TRUE(!strcmp(mg_ck_flags(v, fl), "VMS")); /* S: one launch, 0 s of replication */
  ASSERT_TRUE(!strncmp(v->note, "measure only (op_not_exact)", 27));
  TEST_CASE("measure only: tune writes no rule for it");
  mg_profile *p = mg_profile_new();
  mg_tune_choice *ch = NULL;
  int nch = 0;
  ASSERT_EQ(mg_tune_decide(&r, 4, 0.10, MG_TUNE_CONCLUSIVE, p, &ch, &nch, err, sizeof err), 0);
  free(ch);
  mg_profile_free(p);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
}

/* ---------- point-to-point: eqs. 5 and 7 read off eq. 6's measurements, tune, the profile ---------- */

/* Read raw file p and analyse it with the default options (the in-memory fixtures below). */
static void read_analyze(const char *p, mg_ck_data *d, mg_ck_result *r) {
  mg_ck_opts o;
  char err[MG_CK_ERR];
  mg_ck_data_init(d);
  ASSERT_MSG(mg_ck_read(d, p, err, sizeof err) == 0, "%s", err);
  mg_ck_opts_default(&o);
  ASSERT_MSG(mg_ck_analyze(d, &o, r, err, sizeof err) == 0, "%s", err);
}

#define P2P_HEAD "#@sync_cost_sec=1e-7\n#@pattern=pingpong\n" HEAD

static void p2p_row(char *buf, size_t len, const char *op, const char *alg, size_t bytes, double us, int round) {
  size_t u = strlen(buf);
  snprintf(buf + u, len - u, "%s,%s,%zu,%zu,MPI_BYTE,2,P,%d,%d,0,%.9f,1\n", op, alg, bytes, bytes, round, round,
           us * 1e-6);
}

static const mg_ck_verdict *find_rel(const mg_ck_result *r, size_t bytes, int rel) {
  for (int i = 0; i < r->nrel; i++)
    if (r->rel[i].bytes == bytes && r->rel[i].rel == rel) return &r->rel[i];
  return NULL;
}

static void test_p2p(void) {
  /* send at three sizes, default (Send) against send_as_isend_wait (Isend + Wait), 40 values each:
   * 1K: Isend + Wait 30 % slower (13.00..13.39 us against 10.00..10.39): eq. 6 consistent, eq. 5
   *     violated (the reverse test significant, beyond the noise of 0.1 us, interval above 1),
   *     eq. 7 violated;
   * 4K: the same values on both sides: eqs. 5 and 6 consistent, eq. 7 holds;
   * 16K: both sides half 10 us, half 20 us: every interval wide, eq. 7 inconclusive (never clean).
   * rsend 1K: Rsend 30 % slower than Send (rsend_as_send): eq. 9 violated, a repair for tune;
   * send 1K, send_as_split2 (measure only, #@measure_only): eq. 1 violated, never a rule. */
  static char csv[65536];
  strcpy(csv, P2P_HEAD);
  for (int i = 0; i < 40; i++) {
    double j = 0.01 * ((i * 17) % 40); /* the same values in another order */
    p2p_row(csv, sizeof csv, "send", "default", 1024, 10 + 0.01 * i, i);
    p2p_row(csv, sizeof csv, "send", "send_as_isend_wait", 1024, 13 + j, i);
    p2p_row(csv, sizeof csv, "send", "send_as_split2", 1024, 7 + j, i);
    p2p_row(csv, sizeof csv, "send", "default", 4096, 10 + 0.01 * i, i);
    p2p_row(csv, sizeof csv, "send", "send_as_isend_wait", 4096, 10 + j, i);
    p2p_row(csv, sizeof csv, "send", "default", 16384, (i % 2 ? 20 : 10) + 0.01 * i, i);
    p2p_row(csv, sizeof csv, "send", "send_as_isend_wait", 16384, ((i / 2) % 2 ? 20 : 10) + j, i);
    p2p_row(csv, sizeof csv, "rsend", "default", 1024, 13 + j, i);
    p2p_row(csv, sizeof csv, "rsend", "rsend_as_send", 1024, 10 + 0.01 * i, i);
  }
  /* as the bench writes it for a measure-only row (bench/output.c) */
  char *body = strstr(csv, HEAD);
  char meta[] = "#@measure_only=send,send_as_split2,1024,measure only (measure_only): a timing, no repair for this call\n";
  memmove(body + strlen(meta), body, strlen(body) + 1);
  memcpy(body, meta, strlen(meta));
  const char *p = write_file("p2p/raw.csv", csv);
  mg_ck_data d;
  mg_ck_result r;
  char err[MG_CK_ERR];
  read_analyze(p, &d, &r);

  TEST_CASE("p2p: the relation rows, two per send_as_isend_wait cell, REVERSE in the Holm family");
  ASSERT_EQ(r.nrel, 6);
  ASSERT_EQ(r.rel_family, 3);
  ASSERT_EQ(r.family, r.n + 3); /* every mock-up row OK, plus the three reverse rows */

  TEST_CASE("p2p: Isend + Wait 30 % slower: eq. 5 violated, eq. 7 violated, eq. 6 consistent");
  const mg_ck_verdict *v6 = find_v(&r, "send", 1024, "send_as_isend_wait");
  const mg_ck_verdict *v5 = find_rel(&r, 1024, MG_CK_REL_REVERSE), *v7 = find_rel(&r, 1024, MG_CK_REL_EQUIV);
  ASSERT_TRUE(v6 && v5 && v7);
  ASSERT_EQ(v6->outcome, MG_CK_CONSISTENT);
  ASSERT_EQ(v5->outcome, MG_CK_VIOLATION);
  ASSERT_EQ(v7->outcome, MG_CK_VIOLATION);
  ASSERT_TRUE(!strcmp(v5->guideline, "TGT5") && !strcmp(v7->guideline, "TGT7"));
  /* the reverse ratio is left side / right side: (Isend + Wait) / Send, the default's columns the default's */
  ASSERT_REL(v5->slowdown, 13.195 / 10.195, 1e-9);
  ASSERT_REL(v5->med_def, 10.195e-6, 1e-9);
  ASSERT_REL(v5->med_mock, 13.195e-6, 1e-9);
  ASSERT_TRUE(v5->lo > 1 && v5->significant && v5->launches_slower == 1 && v5->measure_only);
  ASSERT_REL(v7->hi, v6->hi, 1e-12);
  ASSERT_REL(v7->lo, 1 / v5->hi, 1e-12);

  TEST_CASE("p2p: equal data: eqs. 5 and 6 consistent, eq. 7 holds");
  v6 = find_v(&r, "send", 4096, "send_as_isend_wait");
  v5 = find_rel(&r, 4096, MG_CK_REL_REVERSE), v7 = find_rel(&r, 4096, MG_CK_REL_EQUIV);
  ASSERT_TRUE(v6 && v5 && v7);
  ASSERT_EQ(v6->outcome, MG_CK_CONSISTENT);
  ASSERT_EQ(v5->outcome, MG_CK_CONSISTENT);
  ASSERT_EQ(v7->outcome, MG_CK_CONSISTENT);
  ASSERT_REL(v5->slowdown, 1, 1e-12);

  TEST_CASE("p2p: wide samples: eq. 7 inconclusive, not clean");
  v7 = find_rel(&r, 16384, MG_CK_REL_EQUIV);
  ASSERT_TRUE(v7 && v7->outcome == MG_CK_INCONCLUSIVE && !v7->violation);

  TEST_CASE("p2p: eq. 9 and eq. 1 are verdicts of their rows; eq. 1 measured only");
  const mg_ck_verdict *v9 = find_v(&r, "rsend", 1024, "rsend_as_send"), *v1 = find_v(&r, "send", 1024, "send_as_split2");
  ASSERT_TRUE(v9 && v9->violation && !v9->measure_only);
  ASSERT_TRUE(v1 && v1->violation && v1->measure_only);

  TEST_CASE("p2p: the summary's section and verdicts.csv's relation column");
  static char out[65536];
  FILE *f = fmemopen(out, sizeof out - 1, "w");
  mg_ck_print_summary(f, &d, &r);
  fclose(f);
  ASSERT_CONTAINS(out, "point-to-point pattern: pingpong");
  ASSERT_CONTAINS(out, "\noperation ");
  ASSERT_CONTAINS(out, "point-to-point guidelines");
  ASSERT_CONTAINS(out, "  eq. 7      Send(n) ~ Isend(n) + Wait                   1 violated,  1 hold,       1 inconclusive");
  ASSERT_CONTAINS(out, "\n bytes    1 (2)        5        6        7        9\n"
                       "    1K   V 1.42   V 1.29   C 0.77   V 0.77   V 1.29\n"
                       "    4K        -  C 1.00~  C 1.00~  C 1.00~        -\n"
                       "   16K        -  ? 1.00~  ? 1.00~  ? 1.00~        -\n");
  ASSERT_CONTAINS(out, "  eq. 9 violated at 1K (1.29x)\n    repair: `mpiguide tune DIR` writes rsend_as_send");
  ASSERT_CONTAINS(out, "  eq. 1 (2) violated at 1K (1.42x)\n    report it to the MPI library's developers: a defect, "
                       "no repair (measure only");
  ASSERT_CONTAINS(out, "  eq. 5 violated at 1K (1.29x)\n    report it to the MPI library's developers: Isend(n) + Wait "
                       "<= Send(n) is violated");
  f = fmemopen(out, sizeof out - 1, "w");
  mg_ck_write_verdicts_csv(f, &d, &r);
  fclose(f);
  ASSERT_CONTAINS(out, "#@format=mpiguide-check-verdicts/3\n");
  ASSERT_CONTAINS(out, "#@pattern=pingpong\n");
  ASSERT_CONTAINS(out, ",root_slowdown_min,relation\n");
  ASSERT_CONTAINS(out, "\nsend,1024,send_as_isend_wait,TGT6,");
  ASSERT_TRUE(strstr(out, "\nsend,1024,send_as_isend_wait,TGT5,ok,") > strstr(out, "\nsend,1024,send_as_isend_wait,TGT6,"));
  ASSERT_CONTAINS(out, ",violation,verdict only: a non-blocking send cannot be replaced by a blocking one,,0,0,,reverse\n");
  ASSERT_CONTAINS(out, ",violation,equivalence: holds when TGT6 and TGT5 are both consistent; violated when either is a "
                       "violation,,0,0,,equivalence\n");

  TEST_CASE("p2p: tune writes rsend_as_send only; the profile reads back and decides alike");
  mg_profile *prof = mg_profile_new();
  mg_tune_choice *ch = NULL;
  int nch = 0;
  ASSERT_EQ(mg_tune_decide(&r, 2, 0.10, MG_TUNE_CONCLUSIVE, prof, &ch, &nch, err, sizeof err), 1);
  free(ch);
  ASSERT_EQ(mg_profile_build(prof, NULL), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_nrules(prof), 1);
  const char *path = write_file("p2p/tuned.prof", "");
  ASSERT_EQ(mg_profile_save(prof, path), MG_PROFILE_OK);
  mg_profile *back = NULL;
  mg_profile_diags diags = {0};
  ASSERT_EQ(mg_profile_load(path, &back, &diags), MG_PROFILE_OK);
  mg_profile_diags_free(&diags);
  int rs = mg_alg_find(MG_RSEND, "rsend_as_send");
  ASSERT_TRUE(rs > 0);
  ASSERT_EQ(mg_profile_lookup(back, MG_RSEND, 2, 1024), rs);
  ASSERT_EQ(mg_profile_lookup(back, MG_SEND, 2, 1024), 0); /* eq. 1 measure only, eq. 5 a verdict */
  mg_profile_free(back);
  mg_profile_free(prof);
  /* a rule written by hand, as docs/tune.md shows it */
  static const char text[] = "mpiguide-profile 1\nrsend np=2 0-* rsend_as_send\n";
  ASSERT_EQ(mg_profile_parse(text, strlen(text), "hand.prof", &back, &diags), MG_PROFILE_OK);
  mg_profile_diags_free(&diags);
  ASSERT_EQ(mg_profile_lookup(back, MG_RSEND, 2, 0), rs);
  ASSERT_EQ(mg_profile_lookup(back, MG_RSEND, 2, (size_t)4 << 20), rs);
  ASSERT_EQ(mg_profile_lookup(back, MG_RSEND, 3, 1024), 0);
  mg_profile_free(back);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);

  TEST_CASE("p2p: launches measured with different patterns are never merged");
  static char other[4096];
  strcpy(other, "#@sync_cost_sec=1e-7\n#@pattern=exchange\n#@launch=Q\n" HEAD);
  for (int i = 0; i < 4; i++) {
    p2p_row(other, sizeof other, "send", "default", 1024, 10 + i, i);
    p2p_row(other, sizeof other, "send", "send_as_isend_wait", 1024, 10 + i, i);
  }
  for (char *q = strstr(other, ",2,P,"); q; q = strstr(q, ",2,P,")) q[3] = 'Q';
  const char *p2 = write_file("p2p_exchange/raw.csv", other);
  mg_ck_data_init(&d);
  ASSERT_TRUE(mg_ck_read(&d, p, err, sizeof err) == 0 && mg_ck_read(&d, p2, err, sizeof err) == 0);
  ASSERT_TRUE(mg_ck_data_check(&d, err, sizeof err) != 0);
  ASSERT_CONTAINS(err, "by --pattern pingpong, launch 'Q'");
  mg_ck_data_free(&d);
}

/* ---------- TGT 2010 eq. 37 per direction (pattern cart, raw.csv's pair column) ---------- */

#define CART_HEAD                                                                                               \
  "#@format=mpiguide-bench-raw/3\n#@sync_cost_sec=1e-7\n#@pattern=cart\n#@stop=sendrecv,default,1024,nrep,80\n" \
  "collective,algorithm,bytes,count,datatype,op,root,pair,nprocs,launch,round,rep,warmup,runtime_sec,valid\n"

/* What the summary (verdicts: 0) or verdicts.csv (1) of (d, r) says, in a static buffer. */
static const char *written(const mg_ck_data *d, const mg_ck_result *r, int verdicts) {
  static char out[65536];
  FILE *f = fmemopen(out, sizeof out - 1, "w");
  if (verdicts) mg_ck_write_verdicts_csv(f, d, r);
  else mg_ck_print_summary(f, d, r);
  fclose(f);
  return out;
}

static void test_topo(void) {
  /* sendrecv at 1 KiB on 4 processes, 80 rounds, the direction turning with the round (d0-, d0+,
   * d1-, d1+): the default 10.00..10.79 us; the reordered communicator 10 % faster in three
   * directions (9 us) and 40 % slower in d1+ (14 us). Pooled over the exchange the reordered one
   * is faster (its median about 9.3 us): eq. 37 would hold; per direction it is violated in d1+. */
  static char csv[65536];
  static const char *const dirs[] = {"d0-", "d0+", "d1-", "d1+"};
  strcpy(csv, CART_HEAD);
  for (int i = 0; i < 80; i++) {
    double j = 0.01 * ((i * 17) % 80), def = 10 + 0.01 * i, reo = (i % 4 == 3 ? 14 : 9) + j;
    size_t u = strlen(csv);
    snprintf(csv + u, sizeof csv - u,
             "sendrecv,default,1024,1024,MPI_BYTE,,,%s,4,T,%d,%d,0,%.9f,1\n"
             "sendrecv,sendrecv_as_cart_reorder,1024,1024,MPI_BYTE,,,%s,4,T,%d,%d,0,%.9f,1\n",
             dirs[i % 4], i, i, def * 1e-6, dirs[i % 4], i, i, reo * 1e-6);
  }
  const char *p = write_file("topo/raw.csv", csv);
  mg_ck_data d;
  mg_ck_result r;
  read_analyze(p, &d, &r);

  TEST_CASE("topo: one series per direction, the #@stop count held against their sum");
  ASSERT_EQ(d.nseries, 8);
  const mg_ck_series *s = mg_ck_find(&d, MG_SENDRECV, "default", 1024, "cart:d1+", 0);
  ASSERT_TRUE(s && s->n == 20);

  TEST_CASE("topo: eq. 37 judged per direction: violated in d1+ only");
  int nrev = 0;
  for (int i = 0; i < r.nrel; i++) {
    const mg_ck_verdict *v = &r.rel[i];
    if (v->rel != MG_CK_REL_REVERSE) continue;
    nrev++;
    ASSERT_TRUE(!strcmp(v->guideline, "TGT37"));
    ASSERT_TRUE(mg_ck_pair_of(v->red) != NULL);
    if (!strcmp(v->red, "cart:d1+")) {
      ASSERT_EQ(v->outcome, MG_CK_VIOLATION);
      ASSERT_REL(v->slowdown, 14.395 / 10.39, 0.01);
    } else {
      ASSERT_TRUE(v->outcome != MG_CK_VIOLATION);
    }
  }
  ASSERT_EQ(nrev, 4);

  TEST_CASE("topo: the summary and verdicts.csv name the direction");
  ASSERT_CONTAINS(written(&d, &r, 0), "point-to-point pattern: cart");
  ASSERT_CONTAINS(written(&d, &r, 0), "  eq. 37 violated at 1K (1.38x, direction d1+)\n");
  ASSERT_CONTAINS(written(&d, &r, 1), "\nsendrecv,1024,sendrecv_as_cart_reorder,TGT37,ok,");
  ASSERT_CONTAINS(written(&d, &r, 1), ",cart:d1+,");
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);

  TEST_CASE("topo: a file without the pair column (mpiguide-bench-raw/2) is one series, the whole exchange");
  strcpy(csv, "#@format=mpiguide-bench-raw/2\n#@sync_cost_sec=1e-7\n#@pattern=cart\n" HEAD);
  for (int i = 0; i < 40; i++) {
    size_t u = strlen(csv);
    snprintf(csv + u, sizeof csv - u,
             "sendrecv,default,1024,1024,MPI_BYTE,4,T,%d,%d,0,%.9f,1\n"
             "sendrecv,sendrecv_as_cart_reorder,1024,1024,MPI_BYTE,4,T,%d,%d,0,%.9f,1\n",
             i, i, (40 + 0.01 * i) * 1e-6, i, i, (40 + 0.01 * ((i * 17) % 40)) * 1e-6);
  }
  p = write_file("topo_old/raw.csv", csv);
  read_analyze(p, &d, &r);
  ASSERT_EQ(d.nseries, 2);
  ASSERT_TRUE(mg_ck_find(&d, MG_SENDRECV, "default", 1024, "", 0) != NULL);
  nrev = 0;
  for (int i = 0; i < r.nrel; i++) nrev += r.rel[i].rel == MG_CK_REL_REVERSE && r.rel[i].outcome == MG_CK_CONSISTENT;
  ASSERT_EQ(nrev, 1);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
}

/* ---------- renumbering: the rerank rows' section (check/rerank_summary.c, TGT 2010 eq. 36) ---------- */

static void test_rerank(void) {
  /* allreduce at 64 bytes: the default 20 % slower than on the renumbered processes (a violation);
   * at 1 KiB equal; bcast at 64 bytes equal. 40 values each, 4 processes. */
  static char csv[65536];
  strcpy(csv, "#@sync_cost_sec=1e-7\n" HEAD);
  for (int i = 0; i < 40; i++) {
    double j = 0.01 * ((i * 17) % 40);
    char row[1024];
    snprintf(row, sizeof row,
             "allreduce,default,64,64,MPI_BYTE,4,R,%d,%d,0,%.9f,1\nallreduce,allreduce_as_reranked,64,64,MPI_BYTE,4,R,%d,"
             "%d,0,%.9f,1\nallreduce,default,1024,1024,MPI_BYTE,4,R,%d,%d,0,%.9f,1\nallreduce,allreduce_as_reranked,1024,"
             "1024,MPI_BYTE,4,R,%d,%d,0,%.9f,1\nbcast,default,64,64,MPI_BYTE,4,R,%d,%d,0,%.9f,1\nbcast,bcast_as_reranked,64,"
             "64,MPI_BYTE,4,R,%d,%d,0,%.9f,1\n",
             i, i, (12 + j) * 1e-6, i, i, (10 + 0.01 * i) * 1e-6, i, i, (10 + 0.01 * i) * 1e-6, i, i, (10 + j) * 1e-6, i,
             i, (10 + 0.01 * i) * 1e-6, i, i, (10 + j) * 1e-6);
    strcat(csv, row);
  }
  const char *p = write_file("rerank/raw.csv", csv);
  mg_ck_data d;
  mg_ck_result r;
  read_analyze(p, &d, &r);
  TEST_CASE("rerank: the rows are the renumbering guideline's, violated at 64 bytes only");
  const mg_ck_verdict *a64 = find_v(&r, "allreduce", 64, "allreduce_as_reranked");
  const mg_ck_verdict *a1k = find_v(&r, "allreduce", 1024, "allreduce_as_reranked");
  ASSERT_TRUE(a64 && a1k && mg_ck_is_rerank(a64) && mg_ck_any_rerank(&r));
  ASSERT_TRUE(a64 && a64->outcome == MG_CK_VIOLATION);
  ASSERT_TRUE(a1k && a1k->outcome != MG_CK_VIOLATION);
  TEST_CASE("rerank: the summary's section names the size and the ratio");
  static char out[65536];
  FILE *f = fmemopen(out, sizeof out - 1, "w");
  mg_ck_print_summary(f, &d, &r);
  fclose(f);
  ASSERT_CONTAINS(out, "renumbering (TGT 2010 eq. 36");
  ASSERT_CONTAINS(out, "  allreduce               1 violated,  1 consistent,  0 inconclusive: slower than renumbered at 64");
  ASSERT_CONTAINS(out, "  bcast                   0 violated,  1 consistent,  0 inconclusive\n");
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
}

/* ---------- one decision per line (mg_ck_decide) and replication over time ---------- */

/* Constructed borderline verdicts: whatever the ratio and its spread, the decision and the interval
 * printed beside it agree (before: a rank test could say "not significant" beside an interval wholly
 * above 1, and verify printed tuned/default 0.941 [0.90, 0.96] beside "not-sig"). */
static void test_agree(void) {
  TEST_CASE("decision and interval agree on a grid of borderline cases");
  int cases = 0, disagreements = 0;
  for (double r = 0.90; r <= 1.12; r += 0.0025)
    for (double lse = 0.0; lse <= 0.03; lse += 0.001)
      for (int fam = 1; fam <= 4000; fam *= 7)
        for (int shape = 0; shape < 3; shape++) {
          mg_ck_verdict v;
          memset(&v, 0, sizeof v);
          v.slowdown = r, v.spread = mg_stats_logspread_normal(lse);
          if (shape) { /* skewed: the ends on scales of their own, replicates reaching 1 or not */
            v.spread = (mg_stats_logspread){.down = shape == 1 ? lse / 3 : 2 * lse, .up = shape == 1 ? 3 * lse : lse / 2,
                                            .min = log(r) - 4 * lse * shape, .max = log(r) + 4 * lse, .reach = 0.001};
          }
          v.n_def = v.n_mock = 50, v.launches = v.launches_slower = 3;
          mg_ck_decide(&v, 0.05, fam * 12.0, 0.05);
          cases++;
          int sig = v.lo > 1;
          disagreements += sig != v.significant || sig != (v.p_adj <= 0.05) || (v.violation && !(v.lo > 1)) ||
                           ((v.outcome == MG_CK_CONSISTENT) != (v.hi <= 1.05 && !v.violation)) ||
                           !(v.lo <= r && r <= v.hi);
        }
  ASSERT_TRUE(cases > 1000);
  ASSERT_EQ(disagreements, 0);
  TEST_CASE("the issue's verify line: tuned/default 0.941 [0.90, 0.96] is a decided gain");
  mg_ck_verdict v;
  memset(&v, 0, sizeof v);
  v.slowdown = 1 / 0.941, v.n_def = v.n_mock = 300, v.launches = v.launches_slower = 1;
  v.spread = mg_stats_logspread_normal(log(1 / 0.90 / v.slowdown) / 1.96); /* the spread that gave a 95 % interval reaching 1 / 0.90 */
  mg_ck_decide(&v, 0.05, 1, 0.05);
  ASSERT_TRUE(v.significant && v.violation && v.lo > 1 && v.p_adj <= 0.05);
  mg_ck_decide(&v, 0.05, 40 * 12.0, 0.05); /* 40 comparisons x 12 looks: the interval widens to reach 1 */
  ASSERT_TRUE(!v.significant && !v.violation && !(v.lo > 1) && v.p_adj > 0.05 && v.outcome == MG_CK_INCONCLUSIVE);
  TEST_CASE("noise withholds a violation, the interval still says significant, flag ~");
  v.mult = 1, v.noise = 1;
  mg_ck_decide(&v, 0.05, 1, 0.05);
  char fl[8];
  ASSERT_TRUE(v.significant && !v.violation && v.outcome == MG_CK_INCONCLUSIVE);
  ASSERT_STR_EQ(mg_ck_flags(&v, fl), "?~");
  TEST_CASE("too few values: no interval, inconclusive");
  memset(&v, 0, sizeof v);
  v.slowdown = 3, v.spread = mg_stats_logspread_normal(0), v.n_def = 4, v.n_mock = 40, v.launches = v.launches_slower = 1;
  mg_ck_decide(&v, 0.05, 1, 0.05);
  ASSERT_TRUE(isnan(v.lo) && isnan(v.hi) && !v.violation && v.p_adj == 1);
}

/* Three launches of one clear violation (default 20-22 us, mock-up 10-12 us), started at the given
 * seconds after midnight: (#@date). */
static void span_case(const char *name, const int start[3], double min_span, const char *want_flags, int want_short) {
  const char *src[3];
  for (int l = 0; l < 3; l++) {
    static char csv[3][8192];
    snprintf(csv[l], sizeof csv[l],
             "#@format=mpiguide-bench-raw/1\n#@mpi_library_name=TestMPI\n#@mpi_library_version=TestMPI 1\n"
             "#@nprocs=2\n#@nnodes=1\n#@hostname=fixture\n#@date=2026-01-01T00:%02d:%02dZ\n#@launch=%s-%d\n"
             "#@sync=barrier\n#@datatype=MPI_BYTE\n#@sync_cost_sec=1e-07\n" HEAD,
             start[l] / 60, start[l] % 60, name, l);
    for (int i = 0; i < 40; i++) {
      size_t u = strlen(csv[l]);
      snprintf(csv[l] + u, sizeof csv[l] - u, "bcast,default,1024,1024,MPI_BYTE,2,%s-%d,%d,%d,0,%.9f,1\n", name, l,
               i, i, (20 + 0.05 * i) * 1e-6);
      u = strlen(csv[l]);
      snprintf(csv[l] + u, sizeof csv[l] - u, "bcast,mockS,1024,1024,MPI_BYTE,2,%s-%d,%d,%d,0,%.9f,1\n", name, l, i,
               i, (10 + 0.05 * i) * 1e-6);
    }
    char file[64];
    snprintf(file, sizeof file, "%s%d/raw.csv", name, l);
    src[l] = write_file(file, csv[l]);
  }
  mg_ck_data d;
  mg_ck_result r;
  mg_ck_opts o;
  char err[MG_CK_ERR], fl[8];
  mg_ck_data_init(&d);
  for (int l = 0; l < 3; l++) ASSERT_TRUE(mg_ck_read(&d, src[l], err, sizeof err) == 0);
  mg_ck_opts_default(&o);
  o.min_span = min_span;
  ASSERT_TRUE(mg_ck_analyze(&d, &o, &r, err, sizeof err) == 0);
  const mg_ck_verdict *v = find_v(&r, "bcast", 1024, "mockS");
  ASSERT_TRUE(v && v->violation && v->launches == 3);
  ASSERT_NEAR(v->span, start[2] - start[0], 1e-9);
  ASSERT_EQ(v->short_span, want_short);
  ASSERT_STR_EQ(mg_ck_flags(v, fl), want_flags);
  mg_ck_span_info sp;
  mg_ck_span_summary(&r, &sp);
  ASSERT_TRUE(sp.violations == 1 && sp.short_violations == want_short);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
}

static void test_span(void) {
  TEST_CASE("three launches within 5 s: the violation is flagged S (the issue's 3.0 + 0.8 + 0.8 s)");
  static const int quick[3] = {0, 3, 5}, spread[3] = {0, 30, 60}, longer[3] = {0, 45, 90};
  span_case("quick", quick, 60, "VS", 1);
  TEST_CASE("three launches over the minimum span: not flagged");
  span_case("spread", spread, 60, "V", 0);
  span_case("longer", longer, 60, "V", 0);
  TEST_CASE("--min-span 0: nothing is short with several launches");
  span_case("quick0", quick, 0, "V", 0);
  TEST_CASE("check --launches spaces launch K at (K-1)/(N-1) of --min-span after launch 1");
  ASSERT_NEAR(mg_ck_launch_wait(0, 1, 3, 60), 0, 0);
  ASSERT_NEAR(mg_ck_launch_wait(3.0, 2, 3, 60), 27, 1e-9); /* the issue's first launch: 3.0 s */
  ASSERT_NEAR(mg_ck_launch_wait(31, 3, 3, 60), 29, 1e-9);
  ASSERT_NEAR(mg_ck_launch_wait(70, 3, 3, 60), 0, 0);    /* launches longer than the span: no wait */
  ASSERT_NEAR(mg_ck_launch_wait(1, 2, 3, 0), 0, 0);      /* --min-span 0 */
  ASSERT_NEAR(mg_ck_launch_wait(1, 2, 1, 60), 0, 0);
}

static const char *path_of_tmp(const char *rel) {
  static char buf[4][1024];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "%s/%s", tmp_dir, rel);
  return buf[k];
}

/* ---------- TGT 2010 eq. 37 per neighbour pair (pattern cartpair) ---------- */

static void test_topo_pairs(void) {
  /* sendrecv on 4 processes (pairs 0-2, 1-3, 0-1, 2-3), 120 rounds, the pair turning with the round:
   * at 1 KiB the reordered communicator is 30 % slower for three pairs and 20 % faster for 0-1 (eq. 37
   * holds: one pair faster); at 4 KiB 30 % slower for every pair (violated). */
  static char csv[131072];
  static const char *const pairs[] = {"0-2", "1-3", "0-1", "2-3"};
  strcpy(csv, "#@format=mpiguide-bench-raw/3\n#@sync_cost_sec=1e-7\n#@pattern=cartpair\n"
              "collective,algorithm,bytes,count,datatype,op,root,pair,nprocs,launch,round,rep,warmup,runtime_sec,valid\n");
  for (int b = 0; b < 2; b++)
    for (int i = 0; i < 120; i++) {
      double j = 0.01 * ((i * 17) % 120), def = 10 + j, reo = (b == 0 && i % 4 == 2 ? 8 : 13) + j;
      size_t u = strlen(csv);
      snprintf(csv + u, sizeof csv - u,
               "sendrecv,default,%d,%d,MPI_BYTE,,,%s,4,T,%d,%d,0,%.9f,1\n"
               "sendrecv,sendrecv_as_cart_reorder,%d,%d,MPI_BYTE,,,%s,4,T,%d,%d,0,%.9f,1\n",
               b ? 4096 : 1024, b ? 4096 : 1024, pairs[i % 4], i, i, def * 1e-6, b ? 4096 : 1024, b ? 4096 : 1024,
               pairs[i % 4], i, i, reo * 1e-6);
    }
  const char *p = write_file("topo_pairs/raw.csv", csv);
  mg_ck_data d;
  mg_ck_result r;
  read_analyze(p, &d, &r);

  TEST_CASE("topo pairs: one series per neighbour pair, keyed cart:I-J");
  ASSERT_EQ(d.nseries, 16);
  const mg_ck_series *s = mg_ck_find(&d, MG_SENDRECV, "sendrecv_as_cart_reorder", 1024, "cart:0-1", 0);
  ASSERT_TRUE(s && s->n == 30);

  TEST_CASE("topo pairs: eq. 37 holds where one pair is faster reordered, is violated where every pair is slower");
  int np = 0, nv = 0;
  const char *w = NULL;
  ASSERT_EQ(mg_ck_eq37_pairs(&r, 1024, &np, &nv, &w), MG_CK_CONSISTENT);
  ASSERT_EQ(np, 4);
  ASSERT_EQ(nv, 3);
  ASSERT_STR_EQ(w ? w : "", "0-1");
  ASSERT_EQ(mg_ck_eq37_pairs(&r, 4096, &np, &nv, &w), MG_CK_VIOLATION);
  ASSERT_EQ(nv, 4);
  ASSERT_EQ(mg_ck_eq37_pairs(&r, 64, &np, &nv, &w), -1);

  TEST_CASE("topo pairs: the summary names each slower pair and the per-pair judgement");
  const char *out = written(&d, &r, 0);
  ASSERT_CONTAINS(out, ", pair 0-2)");
  ASSERT_CONTAINS(out, "      1K: 4 pairs, 3 slower reordered: holds (pair 0-1 not slower)\n");
  ASSERT_CONTAINS(out, "      4K: 4 pairs, 4 slower reordered: VIOLATED\n");
  ASSERT_CONTAINS(written(&d, &r, 1), ",cart:2-3,");
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);

  TEST_CASE("topo pairs: a pair that is neither a direction nor I-J with I < J is refused");
  static const char *const badp[] = {"2-1", "a-b", "d2+", "0-", "1-2-3"};
  for (size_t k = 0; k < sizeof badp / sizeof badp[0]; k++) {
    char text[1024], err[MG_CK_ERR];
    snprintf(text, sizeof text,
             "#@pattern=cartpair\ncollective,algorithm,bytes,count,datatype,op,root,pair,nprocs,launch,round,rep,"
             "warmup,runtime_sec,valid\nsendrecv,default,8,8,MPI_BYTE,,,%s,4,T,0,0,0,1e-6,1\n", badp[k]);
    mg_ck_data_init(&d);
    ASSERT_EQ(mg_ck_read(&d, write_file("topo_pairs_bad.csv", text), err, sizeof err), -1);
    ASSERT_CONTAINS(err, "a neighbour pair of ranks I-J (pattern cartpair) was expected");
    mg_ck_data_free(&d);
  }
}

/* ---------- TGT 2010 eq. 4: a check's pack.csv beside its raw.csv (bench/pack.h) ---------- */

#define PACK_HEAD                                                                                      \
  "#@format=mpiguide-check-pack/1\n#@launch=T\n#@date=2026-12-02T10:00:00Z\n#@nprocs=2\n"              \
  "#@datatype=vector:2:3:MPI_DOUBLE\n#@sync_cost_sec=1e-8\n"

/* The rows of pack.csv: op's default at def us, its constituents at alt us, 30 rounds, jittered. */
static void pack_rows(char *buf, size_t len, const char *op, size_t bytes, double def, double alt) {
  for (int i = 0; i < 30; i++) {
    double j = 0.001 * ((i * 7) % 30);
    size_t u = strlen(buf);
    snprintf(buf + u, len - u,
             "%s,default,%zu,%zu,vector:2:3:MPI_DOUBLE,,,,2,T,%d,%d,0,%.9f,1\n"
             "%s,%s_as_subtypes,%zu,%zu,vector:2:3:MPI_DOUBLE,,,,2,T,%d,%d,0,%.9f,1\n",
             op, bytes, bytes / 16, i, i, (def + j) * 1e-6, op, op, bytes, bytes / 16, i, i, (alt + j) * 1e-6);
  }
}

static const mg_ck_verdict *find_pack(const mg_ck_result *r, const char *op, size_t bytes) {
  for (int i = 0; i < r->npack; i++)
    if (!strcmp(mg_pack_op_name((int)r->pack[i].coll), op) && r->pack[i].bytes == bytes) return &r->pack[i];
  return NULL;
}

static void test_pack(void) {
  /* raw.csv: bcast against bcast_as_packed, no difference; pack.csv: MPI_Pack at 1 KiB 2x slower than
   * its constituents (6 us against 3 us), at 4 KiB 4x faster; MPI_Unpack at 1 KiB alike (5 us, 5.2
   * us: within no margin either way); MPI_Unpack at 4 KiB failed its byte identity (a #@failed line). */
  static char raw[16384], pk[32768];
  strcpy(raw, "#@format=mpiguide-bench-raw/3\n#@launch=T\n#@date=2026-12-02T10:00:00Z\n#@sync_cost_sec=1e-7\n"
              "#@datatype=vector:2:3:MPI_DOUBLE\n"
              "collective,algorithm,bytes,count,datatype,op,root,pair,nprocs,launch,round,rep,warmup,runtime_sec,valid\n");
  for (int i = 0; i < 30; i++) {
    size_t u = strlen(raw);
    snprintf(raw + u, sizeof raw - u,
             "bcast,default,1024,64,vector:2:3:MPI_DOUBLE,,0,,2,T,%d,%d,0,%.9f,1\n"
             "bcast,bcast_as_packed,1024,64,vector:2:3:MPI_DOUBLE,,0,,2,T,%d,%d,0,%.9f,1\n",
             i, i, (10 + 0.01 * ((i * 7) % 30)) * 1e-6, i, i, (10 + 0.01 * ((i * 11) % 30)) * 1e-6);
  }
  strcpy(pk, PACK_HEAD "#@failed=unpack,unpack_as_subtypes,4096,not byte-identical: the unpacked buffers differ at "
                       "byte 8 of 6144 (MPI_Unpack against the constituents)\n#@rows=180\n"
                       "collective,algorithm,bytes,count,datatype,op,root,pair,nprocs,launch,round,rep,warmup,"
                       "runtime_sec,valid\n");
  pack_rows(pk, sizeof pk, "pack", 1024, 6, 3);
  pack_rows(pk, sizeof pk, "pack", 4096, 3, 12);
  pack_rows(pk, sizeof pk, "unpack", 1024, 5, 5.2);
  write_file("pack/raw.csv", raw);
  write_file("pack/pack.csv", pk);
  mg_ck_data d;
  mg_ck_result r;
  read_analyze(path_of_tmp("pack"), &d, &r);

  TEST_CASE("pack: DIR/pack.csv read into a data set of its own, none of it among the collectives'");
  ASSERT_TRUE(d.pack != NULL);
  ASSERT_EQ(d.nseries, 2);
  ASSERT_EQ(d.pack ? d.pack->nseries : -1, 6);
  ASSERT_EQ(d.pack ? d.pack->nnotes : -1, 1);

  TEST_CASE("pack: eq. 4 per operation and size, the failed identity an error with its reason");
  ASSERT_EQ(r.npack, 4);
  ASSERT_EQ(r.pack_family, 3); /* the error is not a comparison */
  const mg_ck_verdict *v = find_pack(&r, "pack", 1024);
  ASSERT_TRUE(v && v->status == MG_CKV_OK && v->outcome == MG_CK_VIOLATION && v->measure_only);
  if (v) ASSERT_REL(v->slowdown, 6.0145 / 3.0145, 0.01);
  if (v) ASSERT_STR_EQ(v->guideline, "TGT4");
  v = find_pack(&r, "pack", 4096);
  ASSERT_TRUE(v && v->outcome == MG_CK_CONSISTENT);
  v = find_pack(&r, "unpack", 1024);
  ASSERT_TRUE(v && v->outcome != MG_CK_VIOLATION);
  v = find_pack(&r, "unpack", 4096);
  ASSERT_TRUE(v && v->status == MG_CKV_ERROR && strstr(v->note, "not byte-identical: the unpacked buffers differ"));
  for (int i = 0; i < r.n; i++) ASSERT_TRUE(strcmp(r.v[i].guideline, "TGT4") != 0);

  TEST_CASE("pack: the summary's packing section, packverdicts.csv; verdicts.csv without them");
  ASSERT_CONTAINS(written(&d, &r, 0), "  MPI_Pack   vector:2:3:MPI_DOUBLE:  1 violated,  1 consistent,  0 inconclusive; "
                                      "one call slower than the constituents at 1K (2.00x)\n");
  ASSERT_CONTAINS(written(&d, &r, 0), "    1 size(s) not measured, e.g. 4K: not byte-identical");
  const char *vc = written(&d, &r, 1);
  ASSERT_TRUE(!strstr(vc, "\npack,") && !strstr(vc, "TGT4"));
  static char out[32768];
  FILE *f = fmemopen(out, sizeof out - 1, "w");
  mg_ck_write_packverdicts_csv(f, &d, &r);
  fclose(f);
  ASSERT_CONTAINS(out, "\n#@pack_family=3\n");
  ASSERT_CONTAINS(out, "\npack,1024,pack_as_subtypes,TGT4,ok,30,30,");
  ASSERT_CONTAINS(out, ",1,violation,measure only: no call to repair (TGT 2010 eq. 4),vector:2:3:MPI_DOUBLE,");
  ASSERT_CONTAINS(out, "\nunpack,4096,unpack_as_subtypes,TGT4,error,");

  TEST_CASE("pack: tune writes no rule from it (no call to repair)");
  mg_profile *p = mg_profile_new();
  mg_tune_choice *ch = NULL;
  int nch = 0;
  char err[MG_CK_ERR];
  ASSERT_EQ(mg_tune_decide(&r, 2, 0.10, MG_TUNE_CONCLUSIVE, p, &ch, &nch, err, sizeof err), 0);
  for (int i = 0; i < nch; i++) ASSERT_TRUE(ch[i].coll == MG_BCAST);
  free(ch);
  mg_profile_free(p);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);

  TEST_CASE("pack: a pack.csv cut short refuses its directory, the raw.csv read before rolled back");
  char *cut = strdup(pk);
  cut[strlen(cut) - 200] = '\0';
  *strrchr(cut, '\n') = '\0';
  strcat(cut, "\n");
  write_file("pack/pack.csv", cut);
  free(cut);
  mg_ck_data_init(&d);
  ASSERT_EQ(mg_ck_read(&d, path_of_tmp("pack"), err, sizeof err), -1);
  ASSERT_CONTAINS(err, "pack.csv:");
  ASSERT_CONTAINS(err, "truncated");
  ASSERT_EQ(d.nseries, 0);
  ASSERT_EQ(d.nlaunches, 0);
  mg_ck_data_free(&d);

  TEST_CASE("pack: an operation other than pack and unpack, and a pack.csv given as raw data, refused");
  write_file("pack/pack.csv", PACK_HEAD "collective,algorithm,bytes,count,datatype,op,root,pair,nprocs,launch,round,rep,"
                                        "warmup,runtime_sec,valid\nbcast,default,16,1,vector:2:3:MPI_DOUBLE,,,,2,T,0,0,0,1e-6,1\n");
  mg_ck_data_init(&d);
  ASSERT_EQ(mg_ck_read(&d, path_of_tmp("pack"), err, sizeof err), -1);
  ASSERT_CONTAINS(err, "unknown operation 'bcast' (a pack.csv measures pack and unpack)");
  mg_ck_data_free(&d);
  write_file("pack/pack.csv", pk);
  mg_ck_data_init(&d);
  ASSERT_EQ(mg_ck_read(&d, path_of_tmp("pack/pack.csv"), err, sizeof err), -1);
  ASSERT_CONTAINS(err, "a pack.csv of mpiguide check (TGT 2010 eq. 4)");
  mg_ck_data_free(&d);
}

/* ---------- overlap must not cost (OVL): a check's overlap.csv beside its raw.csv (bench/ovl.h) ---------- */

/* Rows of overlap.csv for allreduce at `bytes`: overall(k) at ov us and blocking at bl us, 30 rounds,
 * jittered alike; a pure and a cpu row per round (not compared). */
static long ovl_rows(char *buf, size_t len, size_t bytes, int k, double ov, double bl, int with_blocking) {
  long n = 0;
  for (int i = 0; i < 30; i++) {
    double j = 0.01 * ((i * 7) % 30);
    size_t u = strlen(buf);
    snprintf(buf + u, len - u,
             "allreduce,overall,%d,%zu,%zu,MPI_BYTE,MPI_BOR,,2,T,100,%d,%d,0,%.9f,1\n", k, bytes, bytes, i, i,
             (ov + j) * 1e-6);
    n++;
    if (!with_blocking) continue;
    u = strlen(buf);
    snprintf(buf + u, len - u,
             "allreduce,blocking,,%zu,%zu,MPI_BYTE,MPI_BOR,,2,T,100,%d,%d,0,%.9f,1\n"
             "allreduce,pure,,%zu,%zu,MPI_BYTE,MPI_BOR,,2,T,0,%d,%d,0,%.9f,1\n",
             bytes, bytes, i, i, (bl + j) * 1e-6, bytes, bytes, i, i, 5e-6);
    n += 2;
  }
  return n;
}

static const mg_ck_verdict *find_ovl(const mg_ck_result *r, size_t bytes, int k) {
  char key[32];
  snprintf(key, sizeof key, "tests=%d", k);
  for (int i = 0; i < r->novl; i++)
    if (r->ovl[i].bytes == bytes && !strcmp(r->ovl[i].red, key)) return &r->ovl[i];
  return NULL;
}

static void test_overlap(void) {
  /* raw.csv: bcast against bcast_as_ibcast_wait, alike. overlap.csv (noise threshold 1 us): at 1 KiB
   * k=0 overlapped 20 us against blocking + c 10 us (a violation, 2x), k=4 7 us (consistent); at 64 KiB
   * k=0 1.3 us against 1 us: the interval above 1 + margin but the difference within the noise
   * (inconclusive, noise-dominated); 4 KiB failed (#@failed). */
  static char raw[16384], ov[65536];
  strcpy(raw, "#@format=mpiguide-bench-raw/3\n#@launch=T\n#@date=2026-12-02T10:00:00Z\n#@sync_cost_sec=1e-7\n"
              "collective,algorithm,bytes,count,datatype,op,root,pair,nprocs,launch,round,rep,warmup,runtime_sec,valid\n");
  for (int i = 0; i < 30; i++) {
    size_t u = strlen(raw);
    snprintf(raw + u, sizeof raw - u,
             "bcast,default,1024,1024,MPI_BYTE,,0,,2,T,%d,%d,0,%.9f,1\n"
             "bcast,bcast_as_ibcast_wait,1024,1024,MPI_BYTE,,0,,2,T,%d,%d,0,%.9f,1\n",
             i, i, (10 + 0.01 * ((i * 7) % 30)) * 1e-6, i, i, (10 + 0.01 * ((i * 11) % 30)) * 1e-6);
  }
  strcpy(ov, "#@format=mpiguide-bench-overlap/3\n#@launch=T\n#@date=2026-12-02T10:00:00Z\n#@nprocs=2\n"
             "#@sync_cost_sec=1e-6\n#@failed=allreduce,4096,failed: overall returned an MPI error (test)\n"
             "collective,variant,tests,bytes,count,datatype,op,root,nprocs,launch,iters,round,rep,warmup,runtime_sec,valid\n");
  long n = ovl_rows(ov, sizeof ov, 1024, 0, 20, 10, 1);
  n += ovl_rows(ov, sizeof ov, 1024, 4, 7, 10, 0);
  n += ovl_rows(ov, sizeof ov, 65536, 0, 1.3, 1.0, 1);
  n += ovl_rows(ov, sizeof ov, 4096, 0, 10, 10, 1);
  size_t u = strlen(ov);
  snprintf(ov + u, sizeof ov - u, "#@overlap_rows=%ld\n", n);
  write_file("ovl/raw.csv", raw);
  write_file("ovl/overlap.csv", ov);
  mg_ck_data d;
  mg_ck_result r;
  read_analyze(path_of_tmp("ovl"), &d, &r);

  TEST_CASE("overlap: DIR/overlap.csv read into a data set of its own, the blocking series under every k");
  ASSERT_TRUE(d.ovl != NULL);
  ASSERT_EQ(d.nseries, 2);
  ASSERT_EQ(d.ovl ? d.ovl->nseries : -1, 6); /* 1K k=0, k=4, 64K k=0: default and blocking each */
  ASSERT_EQ(d.ovl ? d.ovl->nnotes : -1, 1);

  TEST_CASE("overlap: a violation, a pass and a noise-dominated cell; the failed cell an error");
  ASSERT_EQ(r.novl, 4);
  ASSERT_EQ(r.ovl_family, 3); /* the error is not a comparison */
  const mg_ck_verdict *v = find_ovl(&r, 1024, 0);
  ASSERT_TRUE(v && v->status == MG_CKV_OK && v->outcome == MG_CK_VIOLATION && v->measure_only && !v->noise);
  if (v) ASSERT_REL(v->slowdown, 20.145 / 10.145, 0.01);
  if (v) ASSERT_STR_EQ(v->guideline, "OVL");
  if (v) ASSERT_STR_EQ(v->alg, MG_CK_OVL_ALG);
  if (v) ASSERT_REL(v->mult, 3, 1e-9); /* Holm over the family of 3 */
  v = find_ovl(&r, 1024, 4);
  ASSERT_TRUE(v && v->outcome == MG_CK_CONSISTENT);
  v = find_ovl(&r, 65536, 0);
  ASSERT_TRUE(v && v->status == MG_CKV_OK && v->outcome == MG_CK_INCONCLUSIVE && v->noise && v->significant);
  v = find_ovl(&r, 4096, 0);
  ASSERT_TRUE(v && v->status == MG_CKV_ERROR && strstr(v->note, "overall returned an MPI error"));
  for (int i = 0; i < r.n; i++) ASSERT_TRUE(strcmp(r.v[i].guideline, "OVL") != 0);

  TEST_CASE("overlap: the summary's section, overlapverdicts.csv; verdicts.csv without them");
  ASSERT_CONTAINS(written(&d, &r, 0), "  MPI_Allreduce           1 violated,  1 consistent,  1 inconclusive (1 within the "
                                      "noise); overlapped slower at 1K k=0 (1.99x)\n");
  ASSERT_CONTAINS(written(&d, &r, 0), "    1 comparison(s) not made, e.g. 4K: failed: overall returned");
  const char *vc = written(&d, &r, 1);
  ASSERT_TRUE(!strstr(vc, "OVL") && !strstr(vc, MG_CK_OVL_ALG));
  static char out[32768];
  FILE *f = fmemopen(out, sizeof out - 1, "w");
  mg_ck_write_overlapverdicts_csv(f, &d, &r);
  fclose(f);
  ASSERT_CONTAINS(out, "\n#@overlap_family=3\n");
  ASSERT_CONTAINS(out, "\n#@guideline=OVL: " MG_CK_OVL_FORMULA "\n");
  ASSERT_CONTAINS(out, "\nallreduce,1024,blocking_compute,OVL,ok,30,30,");
  ASSERT_CONTAINS(out, ",1,violation,measure only: overlap must not cost (no call to repair),tests=0,");
  ASSERT_CONTAINS(out, "\nallreduce,4096,blocking_compute,OVL,error,");

  TEST_CASE("overlap: tune writes no rule from it");
  mg_profile *p = mg_profile_new();
  mg_tune_choice *ch = NULL;
  int nch = 0;
  char err[MG_CK_ERR];
  ASSERT_EQ(mg_tune_decide(&r, 2, 0.10, MG_TUNE_CONCLUSIVE, p, &ch, &nch, err, sizeof err), 0);
  for (int i = 0; i < nch; i++) ASSERT_TRUE(ch[i].coll == MG_BCAST);
  free(ch);
  mg_profile_free(p);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);

  TEST_CASE("overlap: a /2 file (no blocking variant) and a cut one refuse the directory, raw.csv rolled back");
  char *old = strdup(ov);
  char *fmt = strstr(old, "overlap/3");
  fmt[8] = '2';
  char *w = old, *q = old; /* drop the blocking rows */
  while (*q) {
    char *nl = strchr(q, '\n');
    size_t len = nl ? (size_t)(nl - q + 1) : strlen(q);
    if (strncmp(q, "allreduce,blocking,", 19)) memmove(w, q, len), w += len;
    else n--;
    q += len;
  }
  *w = '\0';
  snprintf(strstr(old, "#@overlap_rows="), 40, "#@overlap_rows=%ld\n", n);
  write_file("ovl/overlap.csv", old);
  free(old);
  mg_ck_data_init(&d);
  ASSERT_EQ(mg_ck_read(&d, path_of_tmp("ovl"), err, sizeof err), -1);
  ASSERT_CONTAINS(err, "no measurement of the blocking call + the computation");
  ASSERT_EQ(d.nseries, 0);
  ASSERT_TRUE(d.ovl == NULL);
  mg_ck_data_free(&d);
  char *cut = strdup(ov);
  cut[strlen(cut) - 300] = '\0';
  *strrchr(cut, '\n') = '\0';
  strcat(cut, "\n");
  write_file("ovl/overlap.csv", cut);
  free(cut);
  mg_ck_data_init(&d);
  ASSERT_EQ(mg_ck_read(&d, path_of_tmp("ovl"), err, sizeof err), -1);
  ASSERT_CONTAINS(err, "overlap.csv:");
  ASSERT_EQ(d.nseries, 0);
  ASSERT_EQ(d.nlaunches, 0);
  mg_ck_data_free(&d);
}

/* ---------- exact verdicts on a deterministic platform (docs/statistics.md, "Exact verdicts") ---------- */

/* A launch with `meta` (extra #@ lines) of three bcast cells, the default against mockS, 2 rounds:
 * 1 KiB 20 us against 10 us (identical repetitions), 2 KiB 10.3 and 10.301 us against 10.0 us (one
 * time at raw.csv's 1 ns resolution: 1.03005x, within the margin), 4 KiB the default's repetitions
 * 20 and 20.01 us (10 ns apart: not one time). */
static const char *exact_fixture(const char *name, const char *meta) {
  static char csv[4][4096];
  static int k;
  char *c = csv[k = (k + 1) % 4];
  snprintf(c, sizeof csv[0],
           "#@format=mpiguide-bench-raw/1\n#@mpi_library_name=SMPI\n#@mpi_library_version=SimGrid 3.32\n"
           "#@nprocs=16\n#@nnodes=16\n#@hostname=node-0\n#@date=2026-01-01T00:00:00Z\n#@launch=%s\n"
           "#@sync=barrier\n#@datatype=MPI_BYTE\n#@sync_cost_sec=5e-06\n%s" HEAD,
           name, meta);
  static const struct {
    int bytes;
    double def[2], mock[2];
  } cell[] = {{1024, {20e-6, 20e-6}, {10e-6, 10e-6}},
              {2048, {10.3e-6, 10.301e-6}, {10e-6, 10e-6}},
              {4096, {20e-6, 20.01e-6}, {10e-6, 10e-6}}};
  for (size_t i = 0; i < sizeof cell / sizeof cell[0]; i++)
    for (int r = 0; r < 2; r++) {
      size_t u = strlen(c);
      snprintf(c + u, sizeof csv[0] - u,
               "bcast,default,%d,%d,MPI_BYTE,16,%s,%d,%d,0,%.12g,1\nbcast,mockS,%d,%d,MPI_BYTE,16,%s,%d,%d,0,%.12g,1\n",
               cell[i].bytes, cell[i].bytes, name, r, r, cell[i].def[r], cell[i].bytes, cell[i].bytes, name, r, r,
               cell[i].mock[r]);
    }
  char file[64];
  snprintf(file, sizeof file, "%s/raw.csv", name);
  return write_file(file, c);
}

static void exact_analyze(const char *src, mg_ck_data *d, mg_ck_result *r) {
  char err[MG_CK_ERR];
  mg_ck_opts o;
  mg_ck_data_init(d);
  ASSERT_TRUE(mg_ck_read(d, src, err, sizeof err) == 0);
  mg_ck_opts_default(&o);
  ASSERT_TRUE(mg_ck_analyze(d, &o, r, err, sizeof err) == 0);
}

static void test_exact(void) {
  static const char sim[] = "#@simulated=1\n#@platform=fattree-16.xml\n#@selector=ompi\n"
                            "#@sim_options=--cfg=smpi/coll-selector:ompi --cfg=smpi/simulate-computation:no\n";
  mg_ck_data d;
  mg_ck_result r;
  char fl[8], out[2048];
  TEST_CASE("simulated, identical repetitions (2 of each): the ratio against the margin decides");
  exact_analyze(exact_fixture("exact_sim", sim), &d, &r);
  const mg_ck_verdict *v = find_v(&r, "bcast", 1024, "mockS");
  ASSERT_TRUE(v->exact && !v->exact_differ && v->n_def == 2 && v->n_mock == 2);
  ASSERT_STR_EQ(v->method, MG_CK_EXACT_METHOD);
  ASSERT_NEAR(v->slowdown, 2.0, 1e-12);
  ASSERT_TRUE(v->lo == v->slowdown && v->hi == v->slowdown && v->violation && !v->noise && v->p_adj == 0);
  ASSERT_STR_EQ(mg_ck_flags(v, fl), "VS");
  v = find_v(&r, "bcast", 2048, "mockS"); /* 1.03005x: within the 5 % margin, consistent without a test */
  ASSERT_TRUE(v->exact && v->outcome == MG_CK_CONSISTENT && !v->violation && v->p_adj == 1);
  ASSERT_NEAR(v->slowdown, 1.03005, 1e-9);
  TEST_CASE("simulated, repetitions that differ: today's statistics (2 values: inconclusive), said so");
  v = find_v(&r, "bcast", 4096, "mockS");
  ASSERT_TRUE(!v->exact && v->exact_differ && v->outcome == MG_CK_INCONCLUSIVE);
  ASSERT_TRUE(strcmp(v->method, MG_CK_EXACT_METHOD) != 0);
  int total, exact, differ, few;
  mg_ck_exact_counts(&r, &total, &exact, &differ, &few);
  ASSERT_TRUE(total == 3 && exact == 2 && differ == 1 && few == 0);
  FILE *f = fmemopen(out, sizeof out, "w");
  mg_ck_print_summary(f, &d, &r);
  fclose(f);
  ASSERT_CONTAINS(out, "exact (simulated): 2 of 3 comparisons on a deterministic platform");
  ASSERT_CONTAINS(out, "not exact: 1 of 3 comparisons simulated without computation, but their repetitions differed");
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
  TEST_CASE("the same times measured (no #@simulated): no exact verdict, 2 values are inconclusive");
  exact_analyze(exact_fixture("exact_real", ""), &d, &r);
  for (size_t b = 1024; b <= 4096; b *= 2) {
    v = find_v(&r, "bcast", b, "mockS");
    ASSERT_TRUE(!v->exact && !v->exact_differ && v->outcome == MG_CK_INCONCLUSIVE);
  }
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
  TEST_CASE("simulated with computation (sim.sh --compute, or a later --cfg turning it on): statistics");
  exact_analyze(exact_fixture("exact_compute", "#@simulated=1\n#@sim_options=--cfg=smpi/coll-selector:ompi\n"), &d, &r);
  v = find_v(&r, "bcast", 1024, "mockS");
  ASSERT_TRUE(!v->exact && !v->exact_differ && v->outcome == MG_CK_INCONCLUSIVE);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
  exact_analyze(exact_fixture("exact_later", "#@simulated=1\n#@sim_options=--cfg=smpi/simulate-computation:no "
                                             "--cfg=smpi/simulate-computation:yes\n"),
                &d, &r);
  ASSERT_TRUE(!find_v(&r, "bcast", 1024, "mockS")->exact);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
  TEST_CASE("simulated, identical times but one value a side: not exact, 'a root measured once'");
  {
    static char one[2048];
    snprintf(one, sizeof one,
             "#@format=mpiguide-bench-raw/1\n#@mpi_library_name=SMPI\n#@nprocs=16\n#@nnodes=16\n#@launch=one\n"
             "#@sync=barrier\n#@datatype=MPI_BYTE\n#@simulated=1\n" HEAD
             "bcast,default,1024,1024,MPI_BYTE,16,one,0,0,0,2e-05,1\nbcast,mockS,1024,1024,MPI_BYTE,16,one,0,0,0,1e-05,1\n");
    exact_analyze(write_file("exact_one/raw.csv", one), &d, &r);
    v = find_v(&r, "bcast", 1024, "mockS");
    ASSERT_TRUE(!v->exact && v->exact_differ == MG_CK_EXACT_FEW);
    f = fmemopen(out, sizeof out, "w");
    mg_ck_print_exact(f, &r, "");
    fclose(f);
    ASSERT_CONTAINS(out, "not exact: 1 of 1 comparisons simulated without computation with a root measured once");
    mg_ck_result_free(&r);
    mg_ck_data_free(&d);
  }
  TEST_CASE("smpirun without sim.sh (no #@sim_options): the repetitions decide");
  exact_analyze(exact_fixture("exact_bare", "#@simulated=1\n"), &d, &r);
  ASSERT_TRUE(find_v(&r, "bcast", 1024, "mockS")->exact && !find_v(&r, "bcast", 4096, "mockS")->exact);
  mg_ck_result_free(&r);
  mg_ck_data_free(&d);
}

static const struct {
  const char *name;
  void (*fn)(void);
} groups[] = {{"exact", test_exact}, {"agree", test_agree}, {"span", test_span}, {"rerank", test_rerank}, {"monotony", test_monotony}, {"measure_only", test_measure_only},{"read", test_read},           {"verdicts", test_verdicts}, {"aa", test_aa},
              {"launches", test_launches},   {"repro", test_repro},       {"grouped", test_grouped},
              {"shared_rounds", test_shared_rounds},
              {"direction", test_direction}, {"bad", test_bad},           {"aa_null", test_aa_null},
              {"names", test_names},         {"roots", test_roots},       {"p2p", test_p2p},
              {"topo", test_topo}, {"pack", test_pack}, {"topo_pairs", test_topo_pairs},
              {"overlap", test_overlap}};

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: test_check DATA_DIR [group]\n");
    return 2;
  }
  data_dir = argv[1];
  snprintf(tmp_dir, sizeof tmp_dir, "/tmp/mg_test_check.XXXXXX");
  if (!mkdtemp(tmp_dir)) return 2;
  int ran = 0;
  for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
    if (argc < 3 || !strcmp(argv[2], groups[i].name)) {
      groups[i].fn();
      ran++;
    }
  char cmd[512];
  snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmp_dir);
  if (system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmp_dir);
  if (!ran) {
    fprintf(stderr, "unknown group '%s'\n", argv[2]);
    return 2;
  }
  return mg_test_summary("test_check");
}
