/*
 * Unit tests of the tuner (src/tuner/tuner.c), no MPI launch:
 *   test_tuner rule               the choice and the range rule on synthetic verdicts
 *   test_tuner every_size         collectives whose size not every rank knows: '*' or nothing
 *   test_tuner roundtrip DIR OUT  check data -> verdicts -> profile -> file -> read back: the
 *                                 same decision at every measured size, the same hash
 *   test_tuner libset_rule        the #@rule lines of a library settings file: read whole, every
 *                                 value in range, anything else refused
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "tune/profile.h"
#include "tuner/libset.h"
#include "tuner/tuner.h"
#include "common/test.h"

static mg_ck_verdict verdict(mg_coll c, size_t bytes, const char *alg, double def, double mock, int viol) {
  mg_ck_verdict v;
  memset(&v, 0, sizeof v);
  v.coll = c;
  v.bytes = bytes;
  snprintf(v.alg, sizeof v.alg, "%s", alg);
  v.guideline = "GLx";
  v.status = MG_CKV_OK;
  v.med_def = def;
  v.med_mock = mock;
  v.slowdown = def / mock;
  v.lo = v.slowdown * 0.9;
  v.hi = v.slowdown * 1.1;
  v.significant = v.violation = viol;
  v.p_adj = viol ? 0.001 : 0.5;
  return v;
}

/* tune's decision at 4 processes, gain 10 %, on the verdicts v[0..n). */
static int decide(mg_ck_verdict *v, int n, mg_profile *p, mg_tune_choice **ch, int *nch, char *err) {
  mg_ck_result r;
  memset(&r, 0, sizeof r);
  r.v = v;
  r.n = n;
  return mg_tune_decide(&r, 4, 0.10, MG_TUNE_CONCLUSIVE, p, ch, nch, err, 256);
}

static int rule_test(void) {
  const char *A = "allreduce_as_reduce_bcast", *B = "allreduce_as_reducescatterblock_allgather";
  mg_ck_verdict v[] = {
      verdict(MG_ALLREDUCE, 16, A, 10, 5, 1),   verdict(MG_ALLREDUCE, 16, B, 10, 6, 1),  /* A fastest */
      verdict(MG_ALLREDUCE, 64, A, 10, 4, 1),   verdict(MG_ALLREDUCE, 64, B, 10, 3, 0),  /* B not significant */
      verdict(MG_ALLREDUCE, 256, A, 10, 9.5, 1),                                         /* gain 5 % < 10 % */
      verdict(MG_ALLREDUCE, 1024, B, 10, 5, 1), verdict(MG_ALLREDUCE, 4096, B, 10, 5, 1),
      verdict(MG_BCAST, 8, "bcast_as_allgatherv", 10, 5, 1),
      verdict(MG_BCAST, 32, "bcast_as_allgatherv", 10, 5, 0),
      verdict(MG_BCAST, 128, "bcast_as_allgatherv", 10, 5, 1),
  };
  mg_profile *p = mg_profile_new();
  mg_tune_choice *ch = NULL;
  int nch = 0;
  char err[256] = "";
  int n = decide(v, (int)(sizeof v / sizeof v[0]), p, &ch, &nch, err);
  ASSERT_MSG(n == 6, "rules added: %d, want 6 (%s)", n, err);
  ASSERT_MSG(nch == 8, "choices: %d, want 8", nch);
  ASSERT_MSG(mg_profile_merge_touching(p) == 2, "merges");
  ASSERT_MSG(mg_profile_build(p, NULL) == MG_PROFILE_OK, "build");
  ASSERT_MSG(mg_profile_nrules(p) == 4, "rules after merging: %d, want 4", mg_profile_nrules(p));
  int a = 1, b = 2, g = 1; /* registry indices, checked below */
  for (int i = 1; i < mg_colls[MG_ALLREDUCE].nalgs; i++) {
    if (!strcmp(mg_colls[MG_ALLREDUCE].algs[i].name, A)) a = i;
    if (!strcmp(mg_colls[MG_ALLREDUCE].algs[i].name, B)) b = i;
  }
  for (int i = 1; i < mg_colls[MG_BCAST].nalgs; i++)
    if (!strcmp(mg_colls[MG_BCAST].algs[i].name, "bcast_as_allgatherv")) g = i;
  static const struct {
    mg_coll c;
    size_t bytes;
    int which; /* 0 default, 1 A, 2 B, 3 bcast mock-up */
  } want[] = {
      {MG_ALLREDUCE, 1, 0},    {MG_ALLREDUCE, 15, 0},    {MG_ALLREDUCE, 16, 1},   {MG_ALLREDUCE, 40, 1},
      {MG_ALLREDUCE, 64, 1},   {MG_ALLREDUCE, 65, 0},    {MG_ALLREDUCE, 256, 0},  {MG_ALLREDUCE, 1023, 0},
      {MG_ALLREDUCE, 1024, 2}, {MG_ALLREDUCE, 3000, 2},  {MG_ALLREDUCE, 4096, 2}, {MG_ALLREDUCE, 4097, 0},
      {MG_ALLREDUCE, 1 << 20, 0}, {MG_BCAST, 8, 3},      {MG_BCAST, 9, 0},        {MG_BCAST, 32, 0},
      {MG_BCAST, 100, 0},      {MG_BCAST, 128, 3},       {MG_BCAST, 129, 0},
  };
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    int w = want[i].which == 1 ? a : want[i].which == 2 ? b : want[i].which == 3 ? g : 0;
    int got = mg_profile_lookup(p, want[i].c, 4, want[i].bytes);
    ASSERT_MSG(got == w, "%s %zu bytes: algorithm %d, want %d", mg_colls[want[i].c].name, want[i].bytes, got, w);
    ASSERT_MSG(mg_profile_lookup(p, want[i].c, 3, want[i].bytes) == 0, "np 3 must keep the default");
  }
  char *txt = mg_profile_format(p, NULL);
  ASSERT_MSG(txt && strstr(txt, "16-64") && strstr(txt, "1K-4K") && strstr(txt, "2.00x faster"), "text:\n%s",
         txt ? txt : "(null)");
  free(txt);
  free(ch);
  mg_profile_free(p);
  return 0;
}

/* Collectives whose size not every rank knows: one '*' rule when the same mock-up wins at every
 * measured size (here gatherv), none when the winner changes (scatterv) or a size keeps the
 * default (alltoallv); those winners are marked withheld. */
static int every_size_test(void) {
  const char *G = "gatherv_as_alltoallv", *S1 = "scatterv_as_alltoallv", *S2 = "scatterv_as_bcast_bcast",
             *A = "alltoallv_as_alltoallw";
  mg_ck_verdict v[] = {
      verdict(MG_ALLTOALLV, 16, A, 10, 5, 1),  verdict(MG_ALLTOALLV, 1024, A, 10, 9.9, 0),
      verdict(MG_GATHERV, 16, G, 10, 5, 1),    verdict(MG_GATHERV, 1024, G, 10, 4, 1),
      verdict(MG_GATHERV, 65536, G, 10, 6, 1), verdict(MG_SCATTERV, 16, S1, 10, 5, 1),
      verdict(MG_SCATTERV, 16, S2, 10, 6, 1),  verdict(MG_SCATTERV, 1024, S1, 10, 6, 1),
      verdict(MG_SCATTERV, 1024, S2, 10, 5, 1),
  };
  mg_profile *p = mg_profile_new();
  mg_tune_choice *ch = NULL;
  int nch = 0;
  char err[256] = "";
  int n = decide(v, (int)(sizeof v / sizeof v[0]), p, &ch, &nch, err);
  ASSERT_MSG(n == 1, "rules added: %d, want 1 (%s)", n, err);
  ASSERT_MSG(nch == 7, "choices: %d, want 7", nch);
  ASSERT_MSG(mg_profile_build(p, NULL) == MG_PROFILE_OK, "build");
  int g = mg_alg_find(MG_GATHERV, G);
  ASSERT_MSG(g > 0, "%s is registered", G);
  static const size_t sizes[] = {0, 1, 16, 100, 1024, 65536, (size_t)1 << 40};
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) { /* one rule for every size */
    ASSERT_MSG(mg_profile_lookup(p, MG_GATHERV, 4, sizes[i]) == g, "gatherv at %zu bytes", sizes[i]);
    ASSERT_MSG(mg_profile_lookup(p, MG_SCATTERV, 4, sizes[i]) == 0, "scatterv at %zu bytes", sizes[i]);
    ASSERT_MSG(mg_profile_lookup(p, MG_ALLTOALLV, 4, sizes[i]) == 0, "alltoallv at %zu bytes", sizes[i]);
  }
  int withheld = 0;
  for (int i = 0; i < nch; i++) {
    int want = ch[i].coll != MG_GATHERV && ch[i].alg != 0; /* scatterv's two and alltoallv's one */
    ASSERT_MSG(ch[i].withheld == want, "%s %zu: withheld %d", mg_colls[ch[i].coll].name, ch[i].bytes,
               ch[i].withheld);
    withheld += ch[i].withheld;
  }
  ASSERT_MSG(withheld == 3, "withheld winners: %d, want 3", withheld);
  free(ch);
  mg_profile_free(p);
  return 0;
}

static int roundtrip(const char *dir, const char *out) {
  static const char *const sets[][3] = {{"small", NULL}, {"launches/a", "launches/b"}, {"repro", NULL}};
  for (size_t s = 0; s < sizeof sets / sizeof sets[0]; s++) {
    mg_ck_data d;
    mg_ck_result r;
    mg_ck_data_init(&d);
    memset(&r, 0, sizeof r);
    char err[MG_CK_ERR], path[4096];
    for (int k = 0; k < 2 && sets[s][k]; k++) {
      snprintf(path, sizeof path, "%s/%s", dir, sets[s][k]);
      ASSERT_MSG(mg_ck_read(&d, path, err, sizeof err) == 0, "read %s: %s", path, err);
    }
    mg_ck_opts o;
    mg_ck_opts_default(&o);
    ASSERT_MSG(mg_ck_analyze(&d, &o, &r, err, sizeof err) == 0, "analyze: %s", err);
    mg_profile *p = mg_profile_new();
    mg_tune_choice *ch = NULL;
    int nch = 0, np = d.launches[0].nprocs;
    ASSERT_MSG(mg_tune_decide(&r, np, 0.10, MG_TUNE_CONCLUSIVE, p, &ch, &nch, err, sizeof err) >= 1, "decide: %s", err);
    ASSERT_MSG(mg_profile_merge_touching(p) >= 0, "merge");
    ASSERT_MSG(mg_profile_build(p, NULL) == MG_PROFILE_OK, "build");
    snprintf(path, sizeof path, "%s/roundtrip%zu.prof", out, s);
    ASSERT_MSG(mg_profile_save(p, path) == MG_PROFILE_OK, "save %s", path);
    mg_profile *q = NULL;
    mg_profile_diags diags = {0};
    ASSERT_MSG(mg_profile_load(path, &q, &diags) == MG_PROFILE_OK, "load %s: %d problems", path, diags.n);
    mg_profile_diags_free(&diags);
    ASSERT_MSG(q && mg_profile_hash(q) == mg_profile_hash(p), "%s: hash differs after the round trip", path);
    int tuned = 0;
    for (int i = 0; i < nch; i++) {
      tuned += ch[i].alg != 0;
      ASSERT_MSG(mg_profile_lookup(q, ch[i].coll, np, ch[i].bytes) == ch[i].alg, "%s: %s %zu: read back %d, chose %d",
             path, mg_colls[ch[i].coll].name, ch[i].bytes, mg_profile_lookup(q, ch[i].coll, np, ch[i].bytes),
             ch[i].alg);
    }
    printf("%s: %d measured cells, %d tuned, %d rules, decisions identical after the round trip\n", path, nch,
           tuned, q ? mg_profile_nrules(q) : -1);
    free(ch);
    mg_profile_free(p);
    mg_profile_free(q);
    mg_ck_result_free(&r);
    mg_ck_data_free(&d);
  }
  return 0;
}

static void libset_rule_test(void) {
  mg_libset_rule ru;
  ASSERT_EQ(mg_libset_parse_rule("#@rule coll=allreduce np=4 lo=65536 hi=1048576 variant=ring value=4 ratio=1.29 "
                                 "ratio_lo=1.27", &ru), 0);
  ASSERT_EQ(ru.coll, MG_ALLREDUCE);
  ASSERT_EQ(ru.nprocs, 4);
  ASSERT_EQ(ru.lo, 65536);
  ASSERT_EQ(ru.hi, 1048576);
  ASSERT_EQ(ru.value, 4);
  ASSERT_MSG(!strcmp(ru.name, "ring") && ru.ratio == 1.29 && ru.ratio_lo == 1.27, "fields: %s %g %g", ru.name, ru.ratio,
             ru.ratio_lo);
  static const char *const bad[] = {
      "#@rule coll=allreduce np=99999999999 lo=1 hi=2 variant=ring value=4 ratio=1.2 ratio_lo=1.1", /* %d overflowed */
      "#@rule coll=allreduce np=4 lo=-1 hi=2 variant=ring value=4 ratio=1.2 ratio_lo=1.1",          /* %zu took -1 */
      "#@rule coll=allreduce np=4 lo=8 hi=2 variant=ring value=4 ratio=1.2 ratio_lo=1.1",           /* lo > hi */
      "#@rule coll=allreduce np=4 lo=1 hi=2 variant=ring value=4 ratio=inf ratio_lo=1.1",
      "#@rule coll=allreduce np=4 lo=1 hi=2 variant=ring value=4x ratio=1.2 ratio_lo=1.1",
      "#@rule coll=allreduce np=4 lo=1 hi=2 variant=ring value=4 ratio=1.2",                        /* a field short */
      "#@rule coll=allreduce np=4 lo=1 hi=2 variant=ring value=4 ratio=1.2 ratio_lo=1.1 extra=1",
      "#@rule coll=allreduc np=4 lo=1 hi=2 variant=ring value=4 ratio=1.2 ratio_lo=1.1",
      "#@rule np=4 coll=allreduce lo=1 hi=2 variant=ring value=4 ratio=1.2 ratio_lo=1.1",           /* order */
      "#@rules coll=allreduce np=4 lo=1 hi=2 variant=ring value=4 ratio=1.2 ratio_lo=1.1",
      "#@rule coll=allreduce np=4 lo=1 hi=2 variant=a_name_much_longer_than_the_forty_seven_bytes_it_may_have value=4 "
      "ratio=1.2 ratio_lo=1.1",
  };
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    ASSERT_MSG(mg_libset_parse_rule(bad[i], &ru) == -1, "accepted: %s", bad[i]);
    ASSERT_MSG(ru.nprocs == 0 && ru.name[0] == '\0', "a refused line left fields set: %s", bad[i]);
  }
}

int main(int argc, char **argv) {
  if (argc >= 2 && !strcmp(argv[1], "rule"))
    rule_test();
  else if (argc >= 2 && !strcmp(argv[1], "every_size"))
    every_size_test();
  else if (argc >= 4 && !strcmp(argv[1], "roundtrip"))
    roundtrip(argv[2], argv[3]);
  else if (argc >= 2 && !strcmp(argv[1], "libset_rule"))
    libset_rule_test();
  else {
    fprintf(stderr, "usage: test_tuner rule | every_size | roundtrip DATADIR OUTDIR | libset_rule\n");
    return 2;
  }
  return mg_test_summary("test_tuner");
}
