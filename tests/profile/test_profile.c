/*
 * Unit tests of src/tune/ (no MPI launch): `test_profile <group> [data dir]`.
 *
 * Groups: roundtrip, random_roundtrip, errors, version, limit, prf, prf_errors, prf_hier,
 * lookup, nesting, hash, merge, merge_agree (mpiguide profile merge), api, threads, and for the type= and op=
 * selectors (format version 2) classes, sel_roundtrip, sel_version,
 * sel_errors, sel_lookup, sel_hash, sel_merge, sel_api, sel_example; the
 * per-call index by size class: size_index; "all" runs every group.
 * Expected diagnostics are compared as the exact "file:line: message" text.
 */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/test.h"
#include "tune/profile.h"

static const char *data_dir = ".";

static int alg(mg_coll c, const char *name) {
  int a = mg_alg_find(c, name);
  if (a < 0) {
    fprintf(stderr, "test setup: no algorithm %s\n", name);
    exit(2);
  }
  return a;
}

static mg_profile *parse(const char *text, const char *name, mg_profile_diags *d) {
  mg_profile *p = NULL;
  mg_profile_parse(text, strlen(text), name, &p, d);
  return p;
}

/* The i-th diagnostic as "file:line: message". */
static const char *diag(const mg_profile_diags *d, int i) {
  static char buf[8][2048];
  static int k;
  if (i >= d->n) return "(no such diagnostic)";
  k = (k + 1) % 8;
  mg_profile_diag_format(&d->v[i], buf[k], sizeof buf[k]);
  return buf[k];
}

static void dump_diags(const mg_profile_diags *d) {
  for (int i = 0; i < d->n; i++) fprintf(stderr, "    %s\n", diag(d, i));
}

/* How specific a rule's selectors are: type and op 3, type 2, op 1, none 0. */
static int specificity(const mg_profile_rule *r) { return (r->tclass ? 2 : 0) + (r->opsel ? 1 : 0); }

/* Reference lookup by brute force: the narrowest np selector containing
 * nprocs decides; among its rules whose selectors match the call (a call's
 * class t / op o, <= 0 for none, matches a rule's selector if the selector is
 * 0 or equal), the most specific matching selector group; within it the range
 * containing bytes, else the default. */
static int ref_lookup_sel_in(const mg_profile *p, const int *ix, int n, mg_coll c, int np, size_t bytes, int t,
                             int o) {
  int best = -1;
  long long width = LLONG_MAX;
  for (int j = 0; j < n; j++) {
    const mg_profile_rule *r = mg_profile_rule_at(p, ix[j]);
    if (r->coll == c && r->np_lo <= np && np <= r->np_hi && (long long)r->np_hi - r->np_lo < width) {
      width = (long long)r->np_hi - r->np_lo;
      best = ix[j];
    }
  }
  if (best < 0) return 0;
  const mg_profile_rule *b = mg_profile_rule_at(p, best), *g = NULL;
  for (int j = 0; j < n; j++) { /* the most specific matching selector group */
    const mg_profile_rule *r = mg_profile_rule_at(p, ix[j]);
    if (r->coll == c && r->np_lo == b->np_lo && r->np_hi == b->np_hi && (!r->tclass || r->tclass == t) &&
        (!r->opsel || r->opsel == o) && (!g || specificity(r) > specificity(g)))
      g = r;
  }
  if (!g) return 0;
  for (int j = 0; j < n; j++) {
    const mg_profile_rule *r = mg_profile_rule_at(p, ix[j]);
    if (r->coll == c && r->np_lo == b->np_lo && r->np_hi == b->np_hi && r->tclass == g->tclass &&
        r->opsel == g->opsel && r->lo <= bytes && bytes <= r->hi)
      return r->alg;
  }
  return 0;
}

/* Sizes worth probing for collective c: every bound of its rules, +-1, the
 * middle, and a few fixed ones. */
static int probe_sizes(const mg_profile *p, mg_coll c, size_t *v, int max) {
  int n = 0;
  size_t fixed[] = {0, 1, 2, 1023, 1024, 1025, 65536, 1u << 20, SIZE_MAX - 1, SIZE_MAX};
  for (size_t i = 0; i < sizeof fixed / sizeof fixed[0] && n < max; i++) v[n++] = fixed[i];
  for (int i = 0; i < mg_profile_nrules(p) && n + 6 <= max; i++) {
    const mg_profile_rule *r = mg_profile_rule_at(p, i);
    if (r->coll != c) continue;
    v[n++] = r->lo;
    v[n++] = r->hi;
    v[n++] = r->lo - 1; /* wraps to SIZE_MAX for 0: fine, also a probe */
    v[n++] = r->hi + 1;
    v[n++] = r->lo + (r->hi - r->lo) / 2;
    v[n++] = r->lo + 1;
  }
  return n;
}

static const int probe_nps[] = {1, 2, 3, 4, 5, 7, 8, 9, 12, 16, 17, 63, 64, 65, 99, 100, 1000, INT_MAX};
#define NPROBE_NP ((int)(sizeof probe_nps / sizeof probe_nps[0]))

/* Calls' (class, op) probed: none, each class with and without an op, ops without a class. */
static const int probe_sel[][2] = {
    {MG_TCLASS_NONE, MG_OPSEL_NONE}, {MG_TCLASS_INT, MG_OPSEL_SUM},  {MG_TCLASS_FLOAT, MG_OPSEL_SUM},
    {MG_TCLASS_FLOAT, MG_OPSEL_MAX}, {MG_TCLASS_BYTE, MG_OPSEL_BOR}, {MG_TCLASS_NONE, MG_OPSEL_SUM},
    {MG_TCLASS_INT, MG_OPSEL_NONE},  {MG_TCLASS_FLOAT, MG_OPSEL_NONE}, {MG_TCLASS_NONE, MG_OPSEL_MAXLOC}};
#define NPROBE_SEL ((int)(sizeof probe_sel / sizeof probe_sel[0]))

/* The decision the way libmpiguide takes it (lib.h, mg_comm_rule): the slice of (coll, np) resolved
 * once for a communicator, its table by class and op if it has one, then the size in the slice. */
static int slice_decision(const mg_profile *p, mg_coll c, int np, size_t bytes, int t, int o) {
  const mg_profile_sizes *s = mg_profile_slice_sizes(p, c, np);
  const mg_profile_seltab *sel = mg_profile_slice_sel(p, c, np);
  if (sel) s = mg_profile_seltab_pick(sel, sel->by_type ? t : MG_TCLASS_NONE, sel->by_op ? o : MG_OPSEL_NONE);
  const mg_profile_range *hit = mg_profile_sizes_find(s, bytes);
  return hit ? hit->alg : 0;
}

/* Same decisions in a and b for every probe size, process count, class and
 * op; both also equal to the brute-force reference, and a's also taken from
 * its per-communicator slice (slice_decision). Returns the number of
 * mismatches. */
static int same_decisions(const mg_profile *a, const mg_profile *b) {
  static size_t sizes[20000];
  int bad = 0;
  static int ix[100000];
  for (int c = 0; c < MG_NCOLL; c++) {
    int ns = probe_sizes(a, (mg_coll)c, sizes, 20000), nix = 0;
    for (int i = 0; i < mg_profile_nrules(a) && nix < 100000; i++)
      if (mg_profile_rule_at(a, i)->coll == (mg_coll)c) ix[nix++] = i;
    for (int k = 0; k < NPROBE_NP; k++)
      for (int i = 0; i < ns; i++)
        for (int q = 0; q < (mg_colls[c].reduction ? NPROBE_SEL : 1); q++) { /* only reductions have selectors */
          int t = probe_sel[q][0], o = probe_sel[q][1];
          int x = mg_profile_lookup_sel(a, (mg_coll)c, probe_nps[k], sizes[i], t, o);
          int y = mg_profile_lookup_sel(b, (mg_coll)c, probe_nps[k], sizes[i], t, o);
          int z = ref_lookup_sel_in(a, ix, nix, (mg_coll)c, probe_nps[k], sizes[i], t, o);
          int v = slice_decision(a, (mg_coll)c, probe_nps[k], sizes[i], t, o);
          if (v != x && bad++ < 5)
            fprintf(stderr, "  %s np=%d %zu bytes type %s op %s: the per-communicator slice says %d, lookup %d\n",
                    mg_colls[c].name, probe_nps[k], sizes[i], mg_tclass_name(t), mg_opsel_name(o), v, x);
          if (q == 0) { /* mg_profile_lookup is the call without class and op */
            int w = mg_profile_lookup(a, (mg_coll)c, probe_nps[k], sizes[i]);
            if (w != x && bad++ < 5)
              fprintf(stderr, "  mg_profile_lookup %d != mg_profile_lookup_sel %d\n", w, x);
          }
          if (x != y || x != z) {
            if (bad++ < 5)
              fprintf(stderr, "  decision differs: %s np=%d %zu bytes type %s op %s: %d / %d / reference %d\n",
                      mg_colls[c].name, probe_nps[k], sizes[i], mg_tclass_name(t), mg_opsel_name(o), x, y, z);
          }
        }
  }
  return bad;
}

/* Format, parse back, compare rules, decisions, hash and text. */
static void check_roundtrip(const mg_profile *p) {
  size_t len;
  char *text = mg_profile_format(p, &len);
  ASSERT_TRUE(text != NULL);
  if (!text) return;
  mg_profile_diags d = {0};
  mg_profile *q = NULL;
  int st = mg_profile_parse(text, len, "roundtrip", &q, &d);
  ASSERT_EQ(st, MG_PROFILE_OK);
  if (st != MG_PROFILE_OK) {
    fprintf(stderr, "%s", text);
    dump_diags(&d);
  }
  if (q) {
    ASSERT_EQ(mg_profile_nrules(q), mg_profile_nrules(p));
    for (int i = 0; i < mg_profile_nrules(p) && i < mg_profile_nrules(q); i++) {
      const mg_profile_rule *a = mg_profile_rule_at(p, i), *b = mg_profile_rule_at(q, i);
      ASSERT_TRUE(a->coll == b->coll && a->np_lo == b->np_lo && a->np_hi == b->np_hi && a->lo == b->lo &&
            a->hi == b->hi && a->tclass == b->tclass && a->opsel == b->opsel && a->alg == b->alg);
      ASSERT_STR_EQ(a->comment ? a->comment : "", b->comment ? b->comment : "");
    }
    ASSERT_EQ(mg_profile_npreamble(q), mg_profile_npreamble(p));
    for (int i = 0; i < mg_profile_npreamble(p); i++)
      ASSERT_STR_EQ(mg_profile_preamble_at(q, i), mg_profile_preamble_at(p, i));
    ASSERT_EQ(same_decisions(p, q), 0);
    ASSERT_EQ_U(mg_profile_hash(q), mg_profile_hash(p));
    char *again = mg_profile_format(q, NULL);
    ASSERT_STR_EQ(again, text); /* canonical: writing is idempotent */
    free(again);
  }
  mg_profile_free(q);
  mg_profile_diags_free(&d);
  free(text);
}

/* ---- groups ------------------------------------------------------------------------------ */

static void test_roundtrip(void) {
  TEST_CASE("roundtrip of the documented example");
  char path[4096];
  snprintf(path, sizeof path, "%s/example.prof", data_dir);
  mg_profile_diags d = {0};
  mg_profile *p = NULL;
  ASSERT_EQ(mg_profile_load(path, &p, &d), MG_PROFILE_OK);
  dump_diags(&d);
  if (!p) return;
  ASSERT_EQ(mg_profile_nrules(p), 6);
  ASSERT_EQ(mg_profile_npreamble(p), 2);
  ASSERT_STR_EQ(mg_profile_preamble_at(p, 0), "Written by mpiguide tune 0.1.0 on 2026-11-22T10:30:00+0000");
  check_roundtrip(p);

  TEST_CASE("example: decisions at measured sizes, between and beyond");
  int rb = alg(MG_ALLREDUCE, "allreduce_as_reduce_bcast");
  int rsb = alg(MG_ALLREDUCE, "allreduce_as_reducescatterblock_allgather");
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, 1023), 0);   /* below the first range */
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, 1024), rb);  /* 1K: lower bound included */
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, 65536), rb); /* 64K: upper bound included */
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, 65537), 0);  /* gap: default, no extrapolation */
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, 100000), 0);
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, 131072), rsb);
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, 4u << 20), rsb);
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, (4u << 20) + 1), 0); /* beyond the last range */
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 8, 16384), rb);
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 8, 16385), 0);
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 5, 2048), 0); /* no rule for 5 processes */
  ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 2, (1u << 20) - 1), 0);
  ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 2, 1u << 20), alg(MG_BCAST, "bcast_as_scatter_allgather"));
  ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 16, SIZE_MAX), alg(MG_BCAST, "bcast_as_scatter_allgather"));
  ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 17, 1u << 30), 0);
  ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 1, 1u << 30), 0);
  ASSERT_EQ(mg_profile_lookup(p, MG_SCAN, 1, 100), 0); /* np=1 overrides np=* */
  ASSERT_EQ(mg_profile_lookup(p, MG_SCAN, 2, 100), alg(MG_SCAN, "scan_as_exscan_reducelocal"));
  ASSERT_EQ(mg_profile_lookup(p, MG_SCAN, INT_MAX, 8192), alg(MG_SCAN, "scan_as_exscan_reducelocal"));
  ASSERT_EQ(mg_profile_lookup(p, MG_SCAN, INT_MAX, 8193), 0);
  ASSERT_EQ(mg_profile_lookup(p, MG_GATHER, 4, 1024), 0);

  TEST_CASE("canonical text of the example");
  char *text = mg_profile_format(p, NULL);
  ASSERT_STR_EQ(
      text,
      "mpiguide-profile 3\n"
      "# Written by mpiguide tune 0.1.0 on 2026-11-22T10:30:00+0000\n"
      "# mpi_library: Open MPI v4.1.4; threshold 10 %; Mann-Whitney U, alpha 0.05\n"
      "\n"
      "allreduce  np=4     1K-64K   allreduce_as_reduce_bcast                  # slowdown 1.31 [1.22, 1.40]\n"
      "allreduce  np=4     128K-4M  allreduce_as_reducescatterblock_allgather  # slowdown 1.18 [1.10, 1.25]\n"
      "\n"
      "allreduce  np=8     1K-16K   allreduce_as_reduce_bcast                  # slowdown 1.12 [1.05, 1.20]\n"
      "\n"
      "bcast      np=2-16  1M-*     bcast_as_scatter_allgather\n"
      "\n"
      "scan       np=*     0-8K     scan_as_exscan_reducelocal\n"
      "\n"
      "scan       np=1     0-8K     default                                    # one process: nothing to "
      "gain\n"
      "\n"
      "end-of-profile rules=6\n");
  free(text);
  mg_profile_free(p);
  mg_profile_diags_free(&d);

  TEST_CASE("sizes: suffixes, plain bytes, single sizes, open ranges");
  p = parse("mpiguide-profile 1\n"
            "allreduce np=2 1k-2K allreduce_as_reduce_bcast\n"
            "allreduce np=2 3m allreduce_as_reducescatter_allgatherv\n"
            "allreduce np=2 1g-* allreduce_as_reducescatterblock_allgather\n"
            "allreduce np=3 * allreduce_as_reduce_bcast\n"
            "bcast np=2 4095-4097 allreduce_default\n", /* another collective's default: rejected below */
            "sizes", &d);
  ASSERT_TRUE(p == NULL); /* allreduce_default is allreduce's */
  ASSERT_STR_EQ(diag(&d, 0),
            "sizes:6: algorithm 'allreduce_default' is for allreduce, not bcast; see `mpiguide list bcast`");
  mg_profile_diags_free(&d);
  p = parse("mpiguide-profile 1\n"
            "allreduce np=2 1k-2K allreduce_as_reduce_bcast\n"
            "allreduce np=2 3m allreduce_as_reducescatter_allgatherv\n"
            "allreduce np=2 1g-* allreduce_as_reducescatterblock_allgather\n"
            "allreduce np=3 * allreduce_as_reduce_bcast\n"
            "bcast np=2 4095-4097 bcast_default\n",
            "sizes", &d);
  ASSERT_TRUE(p != NULL);
  dump_diags(&d);
  if (p) {
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 2, 2048), rb);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 2, 2049), 0);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 2, 3u << 20),
             alg(MG_ALLREDUCE, "allreduce_as_reducescatter_allgatherv"));
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 2, (3u << 20) + 1), 0);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 2, SIZE_MAX), rsb);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 3, 0), rb);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 3, SIZE_MAX), rb);
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 2, 4096), 0); /* explicit default */
    check_roundtrip(p);
    text = mg_profile_format(p, NULL);
    ASSERT_STR_EQ(text, "mpiguide-profile 3\n"
                    "\n"
                    "allreduce  np=2  1K-2K      allreduce_as_reduce_bcast\n"
                    "allreduce  np=2  3M-3M      allreduce_as_reducescatter_allgatherv\n"
                    "allreduce  np=2  1G-*       allreduce_as_reducescatterblock_allgather\n"
                    "\n"
                    "allreduce  np=3  *          allreduce_as_reduce_bcast\n"
                    "\n"
                    "bcast      np=2  4095-4097  default\n"
                    "\n"
                    "end-of-profile rules=5\n");
    free(text);
  }
  mg_profile_free(p);
  mg_profile_diags_free(&d);

  TEST_CASE("CRLF line ends, tabs, a byte order mark, comments glued to tokens");
  p = parse("\xEF\xBB\xBFmpiguide-profile 1\r\n\tallreduce\tnp=4\t1K-2K\tallreduce_as_reduce_bcast#x\r\n"
            "allreduce np=4 4K default\r\n",
            "crlf", &d);
  ASSERT_TRUE(p != NULL);
  dump_diags(&d);
  if (p) {
    ASSERT_EQ(mg_profile_nrules(p), 2);
    ASSERT_STR_EQ(mg_profile_rule_at(p, 0)->comment, "x");
    ASSERT_EQ(mg_profile_rule_at(p, 0)->line, 2);
    ASSERT_EQ(mg_profile_rule_at(p, 1)->line, 3);
  }
  mg_profile_free(p);
  mg_profile_diags_free(&d);
}

/* Random profiles through the API: laminar np selectors, disjoint ranges
 * around "measured" powers of two, random comments. */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

static void test_random_roundtrip(void) {
  static const int sel[][2] = {{1, INT_MAX}, {2, INT_MAX}, {2, 64},        {2, 8}, {4, 4},  {5, 8},
                               {9, 16},      {12, 12},     {100, INT_MAX}, {1, 1}, {64, 64}};
  static const char *const comments[] = {NULL, "slowdown 1.31 [1.22, 1.40]", "# not a rule", "x  y",
                                         "np=4 1K-2K default"};
  const int nsel = (int)(sizeof sel / sizeof sel[0]);
  /* selector groups a reduction's rules may have: none, type and op, type, op */
  static const int tsel[][2] = {{0, 0},
                                {MG_TCLASS_FLOAT, MG_OPSEL_SUM},
                                {MG_TCLASS_INT, MG_OPSEL_ANY},
                                {MG_TCLASS_ANY, MG_OPSEL_MAX},
                                {MG_TCLASS_BYTE, MG_OPSEL_BOR},
                                {MG_TCLASS_INT, MG_OPSEL_SUM}};
  const int ntsel = (int)(sizeof tsel / sizeof tsel[0]);
  TEST_CASE("random profiles (with type= and op= on half of them): write, read, same decisions as written and "
            "as the reference");
  /* 20 random profiles (each already crosses every collective, selector group and range shape with
   * its probes; 40 took 24-28 s of CI's slow-machine emulation once the registry had 252 rows) */
  for (int iter = 0; iter < 20; iter++) {
    mg_profile *p = mg_profile_new();
    mg_profile_diags d = {0};
    int with_sel = iter % 2;
    for (int c = 0; c < MG_NCOLL; c++) {
      if (rnd() % 3 == 0) continue;
      for (int s = 0; s < nsel; s++) {
        for (int ts = 0; ts < (with_sel && mg_colls[c].reduction ? ntsel : 1); ts++) {
          if (rnd() % 3) continue;
          size_t pos = rnd() % 3 == 0 ? 0 : (size_t)1 << (rnd() % 12);
          int nr = 1 + (int)(rnd() % 6), known = mg_colls[c].known;
          if (!known) pos = 0, nr = 1; /* size not known on every rank: '*' only */
          for (int k = 0; k < nr; k++) {
            size_t lo = pos, hi;
            int shift = (int)(rnd() % 8);
            hi = lo + ((size_t)1 << shift) * (1 + rnd() % 1000) + rnd() % 3 - 1;
            if (hi < lo) hi = lo;
            if ((k == nr - 1 && rnd() % 4 == 0) || !known) hi = SIZE_MAX;
            int a = (int)(rnd() % (uint64_t)mg_colls[c].nalgs);
            if (mg_colls[c].algs[a].restrictions & MG_R_MEASURE_ONLY) a = 0; /* a profile refuses them */
            ASSERT_EQ(mg_profile_add_sel(p, (mg_coll)c, sel[s][0], sel[s][1], lo, hi, tsel[ts][0], tsel[ts][1], a,
                                         comments[rnd() % 5]),
                      MG_PROFILE_OK);
            if (hi == SIZE_MAX) break;
            pos = hi + 1 + (rnd() % 2 ? 0 : rnd() % 4096); /* touching or a gap */
          }
        }
      }
    }
    if (rnd() % 2) mg_profile_add_preamble(p, "  indented provenance # with a hash");
    int st = mg_profile_build(p, &d);
    ASSERT_EQ(st, MG_PROFILE_OK);
    dump_diags(&d);
    if (st == MG_PROFILE_OK) {
      mg_profile *copy = NULL;
      check_roundtrip(p);
      /* merging touching equal ranges changes neither decisions nor the hash */
      char *text = mg_profile_format(p, NULL);
      mg_profile_parse(text, strlen(text), "copy", &copy, &d);
      ASSERT_TRUE(copy != NULL);
      if (copy) {
        uint64_t h = mg_profile_hash(copy);
        ASSERT_TRUE(mg_profile_merge_touching(copy) >= 0);
        ASSERT_EQ(mg_profile_build(copy, &d), MG_PROFILE_OK);
        ASSERT_EQ(same_decisions(p, copy), 0);
        ASSERT_EQ_U(mg_profile_hash(copy), h);
      }
      mg_profile_free(copy);
      free(text);
    }
    mg_profile_free(p);
    mg_profile_diags_free(&d);
  }
}

typedef int (*parse_fn)(const char *, size_t, const char *, mg_profile **, mg_profile_diags *);

/* text, parsed by parser as file name, is refused with status and exactly the diagnostics want. */
static void expect_refused(parse_fn parser, const char *text, const char *name, const char *const *want, int nwant,
                           int status) {
  mg_profile_diags d = {0};
  mg_profile *p = NULL;
  int st = parser(text, strlen(text), name, &p, &d);
  ASSERT_TRUE(p == NULL);
  ASSERT_EQ(st, status);
  ASSERT_EQ(d.n, nwant);
  for (int i = 0; i < nwant; i++) ASSERT_STR_EQ(diag(&d, i), want[i]);
  if (d.n != nwant) dump_diags(&d);
  mg_profile_free(p);
  mg_profile_diags_free(&d);
}

static void expect_diags(const char *text, const char *name, const char *const *want, int nwant, int status) {
  expect_refused(mg_profile_parse, text, name, want, nwant, status);
}

/* prefix + "valid: default <every mock-up of coll but the measure-only ones>", as the reader lists
 * them (from the registry, so that a new row changes no expected message). Up to 8 live results. */
static const char *valid_list(const char *prefix, mg_coll coll) {
  static char buf[8][2048];
  static int k;
  k = (k + 1) % 8;
  size_t u = (size_t)snprintf(buf[k], sizeof buf[k], "%svalid: default", prefix);
  for (int a = 1; a < mg_colls[coll].nalgs && u < sizeof buf[k]; a++)
    if (!(mg_colls[coll].algs[a].restrictions & MG_R_MEASURE_ONLY))
      u += (size_t)snprintf(buf[k] + u, sizeof buf[k] - u, " %s", mg_colls[coll].algs[a].name);
  return buf[k];
}

static void test_errors(void) {
  TEST_CASE("one problem per line, each reported with its line");
  static const char text[] = "mpiguide-profile 1\n"                                     /* 1 */
                             "# every line below has a problem, except 18 and 23\n"     /* 2 */
                             "allreduc   np=4  1K-64K  allreduce_as_reduce_bcast\n"     /* 3 */
                             "allreduce  np=4  1K-64K  allreduce_as_foo\n"              /* 4 */
                             "allreduce  np=4  1K-64K  bcast_as_allgatherv\n"           /* 5 */
                             "allreduce  np=0  1K-64K  default\n"                       /* 6 */
                             "allreduce  np=8-4 1K-64K default\n"                       /* 7 */
                             "allreduce  4     1K-64K  default\n"                       /* 8 */
                             "allreduce  np=4  64K-1K  default\n"                       /* 9 */
                             "allreduce  np=4  -5      default\n"                       /* 10 */
                             "allreduce  np=4  1X      default\n"                       /* 11 */
                             "allreduce  np=4  99999999999999999999 default\n"          /* 12 */
                             "allreduce  np=4  16777216T-17179869184G default\n"        /* 13 */
                             "allreduce  np=4  1.5K    default\n"                       /* 14 */
                             "allreduce  np=4  1K-2K   default  junk\n"                 /* 15 */
                             "allreduce  np=4  1K\n"                                    /* 16 */
                             "MPI_Allreduce np=4 1K default\n"                          /* 17 */
                             "allreduce  np=2  1K-64K  default  # the first of three\n" /* 18 */
                             "allreduce  np=2  32K-128K allreduce_as_reduce_bcast\n"    /* 19 */
                             "allreduce  np=2  1K-64K  default\n"                       /* 20 */
                             "allreduce  np=2  1K-64K  allreduce_as_reduce_bcast\n"     /* 21 */
                             "mpiguide-profile 1\n"                                     /* 22 */
                             "allreduce  np=3-6 0-1K   default\n"                       /* 23 */
                             "allreduce  np=5-9 0-1K   default\n"                       /* 24 */
                             "allreduce  np=4  1K-*-2K default\n"                       /* 25 */
                             "allreduce  np=4  1K-     default\n"                       /* 26 */
                             "allreduce  np=4  K       default\n"                       /* 27 */
                             "allreduce  np=x  1K      default\n"                       /* 28 */
                             "allreduce  np=3000000000 1K default\n";                   /* 29 */
  const char *const want[] = {
      "t.prof:3: unknown collective 'allreduc'; valid: allgather allgatherv allreduce alltoall alltoallv alltoallw "
      "barrier bcast exscan gather gatherv reduce reduce_scatter reduce_scatter_block scan scatter scatterv send ssend rsend isend recv irecv sendrecv sendrecv_replace iallgather iallgatherv iallreduce ialltoall ialltoallv ialltoallw ibarrier ibcast iexscan igather igatherv ireduce ireduce_scatter ireduce_scatter_block iscan iscatter iscatterv neighbor_allgather neighbor_allgatherv neighbor_alltoall neighbor_alltoallv neighbor_alltoallw ineighbor_allgather ineighbor_allgatherv ineighbor_alltoall ineighbor_alltoallv ineighbor_alltoallw",
      valid_list("t.prof:4: unknown algorithm 'allreduce_as_foo' for allreduce; ", MG_ALLREDUCE),
      "t.prof:5: algorithm 'bcast_as_allgatherv' is for bcast, not allreduce; see `mpiguide list allreduce`",
      "t.prof:6: bad process count 'np=0': process counts are whole numbers from 1 to 2147483647",
      "t.prof:7: empty process-count range 'np=8-4': the lower bound is above the upper bound",
      "t.prof:8: expected the process count as np=<N>, np=<A>-<B> or np=* in field 2, got '4'",
      "t.prof:9: empty size range '64K-1K': the lower bound is above the upper bound (write LO-HI, both "
      "included)",
      "t.prof:10: bad message size '-5': sizes cannot be negative",
      "t.prof:11: bad message size '1X': unknown suffix 'X'; use bytes, or K, M, G, T (powers of 1024; KiB, MiB, ... alike; KB, MB are ambiguous)",
      "t.prof:12: message size '99999999999999999999' is too large: the maximum is 18446744073709551615 "
      "bytes; "
      "write LO-* for no upper bound",
      "t.prof:13: message size '16777216T-17179869184G' is too large: the maximum is 18446744073709551615 "
      "bytes; write LO-* for no upper bound",
      "t.prof:13: message size '16777216T-17179869184G' is too large: the maximum is 18446744073709551615 "
      "bytes; "
      "write LO-* for no upper bound",
      "t.prof:14: bad message size '1.5K': sizes are whole numbers of bytes; write e.g. 1536 instead of 1.5K",
      "t.prof:15: unexpected 'junk' after the algorithm: a rule is '<collective> np=<N> <LO>-<HI> "
      "<algorithm>'; "
      "start a comment with '#'",
      "t.prof:16: incomplete rule: expected '<collective> np=<N> <LO>-<HI> <algorithm>', found 3 fields",
      "t.prof:17: unknown collective 'MPI_Allreduce': write its registry name 'allreduce'",
      "t.prof:22: a version line may only be the first line; profiles cannot be concatenated",
      "t.prof:25: bad message size '1K-*-2K': expected a number of bytes such as 4096, 64K, 1M or 2G",
      "t.prof:26: bad message size '1K-': a bound is missing; write LO-HI (both included), e.g. 1K-64K",
      "t.prof:27: bad message size 'K': expected a number of bytes such as 4096, 64K, 1M or 2G",
      "t.prof:28: bad process count 'np=x': process counts are whole numbers from 1 to 2147483647",
      "t.prof:29: bad process count 'np=3000000000': process counts are whole numbers from 1 to 2147483647",
      /* checks across rules, in canonical order */
      "t.prof:20: duplicate rule: allreduce np=2 1K-64K is already given at line 18; delete one of the two",
      "t.prof:21: conflicting rules for allreduce np=2 1K-64K: allreduce_as_reduce_bcast here, default at "
      "line "
      "18; keep one of the two",
      "t.prof:19: size range 32K-128K overlaps 1K-64K (line 18) of allreduce np=2; ranges include both "
      "bounds: "
      "make them disjoint, e.g. start this one at 65537",
      "t.prof:24: np=5-9 of allreduce partly overlaps np=3-6 (line 23); the process counts of a collective's "
      "rules must be disjoint or nested (the narrowest selector decides)",
  };
  expect_diags(text, "t.prof", want, (int)(sizeof want / sizeof want[0]), MG_PROFILE_COLL);

  TEST_CASE("a NUL byte");
  {
    static const char nul[] = "mpiguide-profile 1\nallreduce np=4 1K\0 default\n";
    mg_profile_diags d = {0};
    mg_profile *p = NULL;
    ASSERT_EQ(mg_profile_parse(nul, sizeof nul - 1, "bin", &p, &d), MG_PROFILE_SYNTAX);
    ASSERT_TRUE(p == NULL);
    ASSERT_EQ(d.n, 1);
    ASSERT_STR_EQ(diag(&d, 0), "bin:2: the line contains a NUL byte: is this a text file?");
    mg_profile_diags_free(&d);
  }

  TEST_CASE("overlap with an open range, nested overlaps");
  static const char text2[] = "mpiguide-profile 1\n"
                              "bcast np=* 1M-* bcast_as_allgatherv\n"
                              "bcast np=* 2M-4M bcast_as_allgatherv\n"
                              "bcast np=* 0-100 bcast_as_allgatherv\n"
                              "bcast np=* 50-60 bcast_as_allgatherv\n"
                              "bcast np=* 70-80 default\n";
  static const char *const want2[] = {
      "o:5: size range 50-60 overlaps 0-100 (line 4) of bcast np=*; ranges include both bounds: make them "
      "disjoint, e.g. start this one at 101",
      "o:6: size range 70-80 overlaps 0-100 (line 4) of bcast np=*; ranges include both bounds: make them "
      "disjoint, e.g. start this one at 101",
      "o:3: size range 2M-4M overlaps 1M-* (line 2) of bcast np=*; make them disjoint",
  };
  expect_diags(text2, "o", want2, 3, MG_PROFILE_OVERLAP);
}

static void test_version(void) {
  TEST_CASE("missing version line: reported, the rule on line 1 still checked");
  const char *const w1[] = {
      "v:1: missing version line: the first line must be 'mpiguide-profile 3' (and as the last line "
      "'end-of-profile rules=<N>', N the number of rules)",
      valid_list("v:1: unknown algorithm 'nope' for bcast; ", MG_BCAST),
  };
  expect_diags("bcast np=4 1K nope\nbcast np=4 2K default\n", "v", w1, 2, MG_PROFILE_VERSION);
  TEST_CASE("a comment before the version line");
  static const char *const w2[] = {
      "v:1: missing version line: the first line must be 'mpiguide-profile 3' (and as the last line "
      "'end-of-profile rules=<N>', N the number of rules)",
      "v:2: a version line may only be the first line; profiles cannot be concatenated"};
  expect_diags("# profile\nmpiguide-profile 1\n", "v", w2, 2, MG_PROFILE_VERSION);
  TEST_CASE("wrong version");
  static const char *const w3[] = {
      "v:1: unsupported profile version '4': this mpiguide reads versions 1, 2 and 3; rewrite "
      "the profile with `mpiguide tune`"};
  expect_diags("mpiguide-profile 4\nbcast np=4 1K default\n", "v", w3, 1, MG_PROFILE_VERSION);
  static const char *const w3b[] = {
      "v:1: unsupported profile version '02': this mpiguide reads versions 1, 2 and 3; rewrite "
      "the profile with `mpiguide tune`"};
  expect_diags("mpiguide-profile 02\nbcast np=4 1K default\n", "v", w3b, 1, MG_PROFILE_VERSION);
  TEST_CASE("version without number, junk after the version");
  static const char *const w4[] = {"v:1: the version line lacks the version: write 'mpiguide-profile 3' "
                                   "(and as the last line 'end-of-profile rules=<N>', N the number of rules)"};
  expect_diags("mpiguide-profile # 1\n", "v", w4, 1, MG_PROFILE_VERSION);
  static const char *const w5[] = {"v:1: unexpected 'x' after the version; start a comment with '#'"};
  expect_diags("mpiguide-profile 1 x\n", "v", w5, 1, MG_PROFILE_SYNTAX);
  TEST_CASE("empty input");
  static const char *const w6[] = {"empty:1: empty profile (an empty file: cut, or not written yet?): the first "
                                   "line must be 'mpiguide-profile 3' (and as the last line 'end-of-profile "
                                   "rules=<N>', N the number of rules)"};
  expect_diags("", "empty", w6, 1, MG_PROFILE_VERSION);

  TEST_CASE("a version line alone is a valid, empty profile");
  mg_profile_diags d = {0};
  mg_profile *p = parse("mpiguide-profile 1\n", "v", &d);
  ASSERT_TRUE(p != NULL);
  ASSERT_EQ(d.n, 0);
  ASSERT_EQ(mg_profile_nrules(p), 0);
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, 8), 0);
  mg_profile_free(p);
}

static void test_limit(void) {
  TEST_CASE("all problems up to the limit, the rest counted");
  char *text = malloc(200 * 40 + 64);
  size_t o = (size_t)sprintf(text, "mpiguide-profile 1\n");
  for (int i = 0; i < 150; i++) o += (size_t)sprintf(text + o, "allreduce np=4 %dX default\n", i);
  mg_profile_diags d;
  mg_profile_diags_init(&d, 0);
  mg_profile *p = parse(text, "many", &d);
  ASSERT_TRUE(p == NULL);
  ASSERT_EQ(d.n, MG_PROFILE_DIAGS_MAX);
  ASSERT_EQ(d.dropped, 150 - MG_PROFILE_DIAGS_MAX);
  ASSERT_STR_EQ(diag(&d, 99), "many:101: bad message size '99X': unknown suffix 'X'; use bytes, or K, M, G, T (powers of 1024; KiB, MiB, ... alike; KB, MB are ambiguous)");
  mg_profile_diags_free(&d);
  mg_profile_diags_init(&d, 3);
  p = parse(text, "many", &d);
  ASSERT_TRUE(p == NULL);
  ASSERT_EQ(d.n, 3);
  ASSERT_EQ(d.dropped, 147);
  mg_profile_diags_free(&d);
  TEST_CASE("diagnostics are optional");
  ASSERT_EQ(mg_profile_parse(text, strlen(text), "many", &p, NULL), MG_PROFILE_SIZE);
  ASSERT_TRUE(p == NULL);
  free(text);
}

static void test_prf(void) {
  char path[4096];
  mg_profile_diags d = {0};
  mg_profile *p = NULL;

  TEST_CASE("one .prf file");
  snprintf(path, sizeof path, "%s/p_allgather.prf", data_dir);
  ASSERT_EQ(mg_profile_import_prf(path, &p, &d), MG_PROFILE_OK);
  dump_diags(&d);
  if (p) {
    int ar = alg(MG_ALLGATHER, "allgather_as_allreduce"), a2a = alg(MG_ALLGATHER, "allgather_as_alltoall");
    int gb = alg(MG_ALLGATHER, "allgather_as_gather_bcast");
    ASSERT_EQ(mg_profile_nrules(p), 4);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLGATHER, 4, 15), 0);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLGATHER, 4, 16), ar);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLGATHER, 4, 17), 0);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLGATHER, 4, 32), a2a);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLGATHER, 4, 64), ar);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLGATHER, 4, 100), ar);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLGATHER, 4, 128), ar);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLGATHER, 4, 129), 0);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLGATHER, 4, 2048), gb);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLGATHER, 4, 2049), 0);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLGATHER, 5, 16), 0);
    ASSERT_EQ(mg_profile_rule_at(p, 0)->line, 12);
    char want[4200];
    snprintf(want, sizeof want, "imported from PGMPITuneLib profile %s", path);
    ASSERT_STR_EQ(mg_profile_preamble_at(p, 0), want);
    check_roundtrip(p);
  }
  mg_profile_free(p);
  mg_profile_diags_free(&d);

  TEST_CASE("a directory of .prf files (other files ignored)");
  snprintf(path, sizeof path, "%s/prf", data_dir);
  ASSERT_EQ(mg_profile_open(path, &p, &d), MG_PROFILE_OK);
  dump_diags(&d);
  if (p) {
    ASSERT_EQ(mg_profile_nrules(p), 8);
    ASSERT_EQ(mg_profile_npreamble(p), 4);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, 1), alg(MG_ALLREDUCE, "allreduce_as_reduce_bcast"));
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, 1024), alg(MG_ALLREDUCE, "allreduce_as_reduce_bcast"));
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, 1025), 0);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, 4194304),
             alg(MG_ALLREDUCE, "allreduce_as_reducescatterblock_allgather"));
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 8, 65536),
             alg(MG_ALLREDUCE, "allreduce_as_reducescatter_allgatherv"));
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 8, 65535), 0);
    ASSERT_EQ(mg_profile_lookup(p, MG_REDUCE_SCATTER_BLOCK, 8, 8),
             alg(MG_REDUCE_SCATTER_BLOCK, "reduce_scatter_block_as_allreduce"));
    ASSERT_EQ(mg_profile_lookup(p, MG_REDUCE_SCATTER_BLOCK, 8, 4096),
             alg(MG_REDUCE_SCATTER_BLOCK, "reduce_scatter_block_as_reducescatter"));
    ASSERT_EQ(mg_profile_lookup(p, MG_REDUCE_SCATTER_BLOCK, 8, 1048576),
             alg(MG_REDUCE_SCATTER_BLOCK, "reduce_scatter_block_as_reduce_scatter"));
    ASSERT_EQ(mg_profile_lookup(p, MG_REDUCE_SCATTER_BLOCK, 4, 4096), 0);
    ASSERT_EQ(mg_profile_lookup(p, MG_SCAN, 4, 0), alg(MG_SCAN, "scan_as_exscan_reducelocal"));
    check_roundtrip(p);
    char *text = mg_profile_format(p, NULL);
    char want[20000];
    snprintf(want, sizeof want,
             "mpiguide-profile 3\n"
             "# imported from PGMPITuneLib profile %s/p_allreduce_4.prf\n"
             "# imported from PGMPITuneLib profile %s/p_allreduce_8.prf\n"
             "# imported from PGMPITuneLib profile %s/p_reduce_scatter_block_8.prf\n"
             "# imported from PGMPITuneLib profile %s/p_scan_4.prf\n"
             "\n"
             "allreduce             np=4  1-1K      allreduce_as_reduce_bcast\n"
             "allreduce             np=4  1025-64K  default\n"
             "allreduce             np=4  128K-4M   allreduce_as_reducescatterblock_allgather\n"
             "\n"
             "allreduce             np=8  64K-64K   allreduce_as_reducescatter_allgatherv\n"
             "\n"
             "reduce_scatter_block  np=8  8-256     reduce_scatter_block_as_allreduce\n"
             "reduce_scatter_block  np=8  512-4K    reduce_scatter_block_as_reducescatter\n"
             "reduce_scatter_block  np=8  8K-1M     reduce_scatter_block_as_reduce_scatter\n"
             "\n"
             "scan                  np=4  0-1M      scan_as_exscan_reducelocal\n"
             "\n"
             "end-of-profile rules=8\n",
             path, path, path, path);
    ASSERT_STR_EQ(text, want);
    free(text);
  }
  mg_profile_free(p);
  mg_profile_diags_free(&d);
}

static void expect_prf(const char *text, const char *const *want, int nwant, int status) {
  expect_refused(mg_profile_parse_prf, text, "x.prf", want, nwant, status);
}

/* PGMPITuneLib's lane and hierarchical mock-ups (<coll>_as_<coll>_lane, _hier) import as the hier
 * family's rows; a name that only looks alike stays unknown. */
static void test_prf_hier(void) {
  TEST_CASE(".prf: lane and hierarchical mock-ups");
  static const char *const files[][2] = {
      {"MPI_Allreduce\n16\n3\n0 default\n4 allreduce_as_allreduce_lane\n5 allreduce_as_allreduce_hier\n"
       "3\n0 1023 5\n1024 65535 4\n65536 1048576 0\n", "allreduce"},
      {"MPI_Bcast\n16\n2\n3 bcast_as_bcast_lane\n4 bcast_as_bcast_hier\n2\n1 100 4\n101 200 3\n", "bcast"},
  };
  for (int f = 0; f < 2; f++) {
    mg_profile_diags d = {0};
    mg_profile *p = NULL;
    int c = mg_coll_find(files[f][1]);
    ASSERT_EQ(mg_profile_parse_prf(files[f][0], strlen(files[f][0]), "x.prf", &p, &d), MG_PROFILE_OK);
    dump_diags(&d);
    if (p) {
      char hier[64], lane[64];
      snprintf(hier, sizeof hier, "%s_as_hier", files[f][1]);
      snprintf(lane, sizeof lane, "%s_as_lane", files[f][1]);
      int h = alg(c, hier), l = alg(c, lane), lo = f ? 1 : 0, mid = f ? 101 : 1024;
      ASSERT_TRUE(h > 0 && l > 0);
      ASSERT_EQ(mg_profile_lookup(p, c, 16, lo), h);
      ASSERT_EQ(mg_profile_lookup(p, c, 16, mid), l);
      ASSERT_EQ(mg_profile_lookup(p, c, 8, mid), 0);
    }
    mg_profile_free(p);
    mg_profile_diags_free(&d);
  }
  const char *const w[] = {
      valid_list("x.prf:5: unknown mock-up 'allreduce_as_bcast_hier' for MPI_Allreduce: mpiguide has no such "
                 "algorithm; ", MG_ALLREDUCE),
  };
  expect_prf("MPI_Allreduce\n4\n2\n0 default\n1 allreduce_as_bcast_hier\n1\n0 10 1\n", w, 1, MG_PROFILE_ALG);
}

static void test_prf_errors(void) {
  TEST_CASE(".prf: unknown mock-ups, unlisted ids, bad sizes, overlaps");
  static const char t1[] = "MPI_Allreduce\n"                           /* 1 */
                           "4\n"                                       /* 2 */
                           "4\n"                                       /* 3 */
                           "1 allreduce_as_reduce_bcast\n"             /* 4 */
                           "2 allreduce_as_allreduce_circulant\n"      /* 5 */
                           "1 allreduce_as_reducescatter_allgatherv\n" /* 6 */
                           "3 bcast_as_allgatherv extra\n"             /* 7 */
                           "6\n"                                       /* 8 */
                           "1 100 1\n"                                 /* 9 */
                           "50 200 1\n"                                /* 10 */
                           "300 299 1\n"                               /* 11 */
                           "400 500 7\n"                               /* 12 */
                           "-1 5 1\n"                                  /* 13 */
                           "600 700 1   # trailing comment\n"          /* 14 */
                           "800 900 1\n";                              /* 15 */
  const char *const w1[] = {
      valid_list("x.prf:5: unknown mock-up 'allreduce_as_allreduce_circulant' for MPI_Allreduce: mpiguide has no such "
                 "algorithm; ", MG_ALLREDUCE),
      "x.prf:6: mock-up id 1 is listed twice (also at line 4); give each mock-up its own id",
      "x.prf:7: unexpected 'extra' after '<id> <mock-up name>'; start a comment with '#'",
      "x.prf:11: empty size range 300-299: the first byte is above the last one",
      "x.prf:12: mock-up id 7 is not in the list of mock-ups; add '7 <mock-up name>' there",
      "x.prf:13: bad message size '-1': must not be negative",
      "x.prf:15: unexpected '800' after the last range: line 8 announces 6 ranges; raise that count or "
      "delete "
      "this line",
      "x.prf:10: size range 50-200 overlaps 1-100 (line 9) of allreduce np=4; ranges include both bounds: "
      "make "
      "them disjoint, e.g. start this one at 101",
  };
  expect_prf(t1, w1, (int)(sizeof w1 / sizeof w1[0]), MG_PROFILE_ALG);

  TEST_CASE(".prf: unknown collective, bad process count, early end");
  static const char *const w2[] = {
      "x.prf:1: unknown collective 'MPI_Ineighbor_alltoall_c'; mpiguide tunes: MPI_Allgather MPI_Allgatherv "
      "MPI_Allreduce MPI_Alltoall MPI_Alltoallv MPI_Alltoallw MPI_Barrier MPI_Bcast MPI_Exscan MPI_Gather "
      "MPI_Gatherv MPI_Reduce MPI_Reduce_scatter MPI_Reduce_scatter_block MPI_Scan MPI_Scatter MPI_Scatterv MPI_Send MPI_Ssend MPI_Rsend MPI_Isend MPI_Recv MPI_Irecv MPI_Sendrecv MPI_Sendrecv_replace MPI_Iallgather MPI_Iallgatherv MPI_Iallreduce MPI_Ialltoall MPI_Ialltoallv MPI_Ialltoallw MPI_Ibarrier MPI_Ibcast MPI_Iexscan MPI_Igather MPI_Igatherv MPI_Ireduce MPI_Ireduce_scatter MPI_Ireduce_scatter_block MPI_Iscan MPI_Iscatter MPI_Iscatterv MPI_Neighbor_allgather MPI_Neighbor_allgatherv MPI_Neighbor_alltoall MPI_Neighbor_alltoallv MPI_Neighbor_alltoallw MPI_Ineighbor_allgather MPI_Ineighbor_allgatherv MPI_Ineighbor_alltoall MPI_Ineighbor_alltoallv MPI_Ineighbor_alltoallw",
      "x.prf:2: bad process count '0': must be at least 1",
      "x.prf:5: unexpected end of file: line 5 announces 2 ranges, found 0: the file looks cut (truncated)",
  };
  expect_prf("MPI_Ineighbor_alltoall_c\n0\n1\n1 default\n2\n", w2, 3, MG_PROFILE_COLL);
  TEST_CASE(".prf: a size range for a collective whose size not every rank knows");
  static const char *const wv[] = {
#define WV(line, lo, hi)                                                                                          \
  "x.prf:" #line ": MPI_Gatherv's message size is not known on every rank (at the root the whole vector, the sum " \
  "of recvcounts x size(recvtype); elsewhere the own block, sendcount x size(sendtype)), so a range cannot "      \
  "choose by it: only 0 18446744073709551615 covers every size"
      WV(6, 0, 1023), WV(7, 1024, *),
#undef WV
  };
  expect_prf("MPI_Gatherv\n4\n1\n0 default\n2\n0 1023 0\n1024 18446744073709551615 0\n", wv, 2,
             MG_PROFILE_SIZE);
  mg_profile *api = mg_profile_new(); /* the API refuses it too; '*' is accepted */
  ASSERT_EQ(mg_profile_add(api, MG_ALLTOALLV, 4, 4, 0, 1023, 0, NULL), MG_PROFILE_INVALID);
  ASSERT_EQ(mg_profile_add(api, MG_ALLTOALLV, 4, 4, 0, SIZE_MAX, 0, NULL), MG_PROFILE_OK);
  mg_profile_free(api);
  static const char *const w3[] = {
      "x.prf:2: unexpected end of file: expected the number of mock-ups: the file looks cut (truncated)"};
  expect_prf("# comment\nMPI_Bcast 4\n",
             (const char *const[]){"x.prf:2: unexpected '4' after '<MPI collective "
                                   "name>'; start a comment with '#'",
                                   "x.prf:2: unexpected end of file: expected the process "
                                   "count: the file looks cut (truncated)"},
             2, MG_PROFILE_SYNTAX);
  expect_prf("MPI_Bcast\n4\n", w3, 1, MG_PROFILE_TRUNCATED);
  static const char *const w4[] = {
      "x.prf:3: bad number of mock-ups 'three': expected a whole number",
      "x.prf:3: cannot read the rest of the file without the number of mock-ups"};
  expect_prf("MPI_Bcast\n4\nthree\n1 default\n", w4, 2, MG_PROFILE_SYNTAX);
  static const char *const w5[] = {
      "empty.prf:1: unexpected end of file: expected the MPI collective name (e.g. "
      "MPI_Allreduce): the file looks cut (truncated)"};
  {
    mg_profile_diags d = {0};
    mg_profile *p = NULL;
    ASSERT_EQ(mg_profile_parse_prf("", 0, "empty.prf", &p, &d), MG_PROFILE_TRUNCATED);
    ASSERT_EQ(d.n, 1);
    ASSERT_STR_EQ(diag(&d, 0), w5[0]);
    mg_profile_diags_free(&d);
  }
  static const char *const w6[] = {
      "x.prf:1: this is an mpiguide profile, not a PGMPITuneLib one: give it a name "
      "not ending in .prf"};
  expect_prf("mpiguide-profile 1\nbcast np=4 1K default\n", w6, 1, MG_PROFILE_SYNTAX);

  TEST_CASE(".prf: the same (collective, np) in two files of a directory");
  char dir[] = "/tmp/mg_test_prf_XXXXXX";
  ASSERT_TRUE(mkdtemp(dir) != NULL);
  char a[256], b[256];
  snprintf(a, sizeof a, "%s/a.prf", dir);
  snprintf(b, sizeof b, "%s/b.prf", dir);
  FILE *f = fopen(a, "w");
  fputs("MPI_Bcast\n4\n1\n1 bcast_as_allgatherv\n1\n0 1024 1\n", f);
  fclose(f);
  f = fopen(b, "w");
  fputs("MPI_Bcast\n4\n1\n1 bcast_as_allgatherv\n1\n1024 2048 1\n", f);
  fclose(f);
  mg_profile_diags d = {0};
  mg_profile *p = NULL;
  ASSERT_EQ(mg_profile_import_prf(dir, &p, &d), MG_PROFILE_OVERLAP);
  ASSERT_TRUE(p == NULL);
  ASSERT_EQ(d.n, 1);
  char want[1024];
  snprintf(want, sizeof want,
           "%s:6: size range 1K-2K overlaps 0-1K (%s:6) of bcast np=4; ranges include both "
           "bounds: make them disjoint, e.g. start this one at 1025",
           b, a);
  ASSERT_STR_EQ(diag(&d, 0), want);
  mg_profile_diags_free(&d);
  remove(a);
  remove(b);
  TEST_CASE(".prf: a directory without .prf files");
  ASSERT_EQ(mg_profile_import_prf(dir, &p, &d), MG_PROFILE_IO);
  snprintf(want, sizeof want,
           "%s: no *.prf files in this directory; give a PGMPITuneLib profile directory or "
           "an mpiguide profile file",
           dir);
  ASSERT_STR_EQ(diag(&d, 0), want);
  mg_profile_diags_free(&d);
  rmdir(dir);
}

static void test_lookup(void) {
  mg_profile *p = mg_profile_new();
  int rb = alg(MG_ALLREDUCE, "allreduce_as_reduce_bcast");
  int rsb = alg(MG_ALLREDUCE, "allreduce_as_reducescatterblock_allgather");
  TEST_CASE("lookup: boundaries are included, below/above/between run the default, per np");
  ASSERT_EQ(mg_profile_add(p, MG_ALLREDUCE, 4, 4, 100, 200, rb, NULL), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_add(p, MG_ALLREDUCE, 4, 4, 201, 300, rsb, NULL), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_add(p, MG_ALLREDUCE, 4, 4, 400, 400, rb, NULL), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_add(p, MG_ALLREDUCE, 2, 2, 0, 0, rsb, NULL), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_add(p, MG_ALLREDUCE, 16, 16, 0, SIZE_MAX, rb, NULL), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, 150), 0); /* unbuilt: default */
  ASSERT_EQ(mg_profile_build(p, NULL), MG_PROFILE_OK);
  struct {
    int np;
    size_t bytes;
    int want;
  } cases[] = {
      {4, 0, 0},          {4, 99, 0},  {4, 100, rb}, {4, 150, rb},      {4, 200, rb}, {4, 201, rsb},
      {4, 300, rsb},      {4, 301, 0}, {4, 399, 0},  {4, 400, rb},      {4, 401, 0},  {4, SIZE_MAX, 0},
      {2, 0, rsb},        {2, 1, 0},   {3, 150, 0},  {5, 150, 0},       {1, 150, 0},  {16, 0, rb},
      {16, SIZE_MAX, rb}, {15, 1, 0},  {17, 1, 0},   {INT_MAX, 150, 0},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int got = mg_profile_lookup(p, MG_ALLREDUCE, cases[i].np, cases[i].bytes);
    if (got != cases[i].want)
      fprintf(stderr, "  np=%d bytes=%zu: got %d want %d\n", cases[i].np, cases[i].bytes, got, cases[i].want);
    ASSERT_EQ(got, cases[i].want);
  }
  TEST_CASE("lookup: other collectives, bad arguments, no profile");
  ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 4, 150), 0);
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 0, 150), 0);
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, -4, 150), 0);
  ASSERT_EQ(mg_profile_lookup(p, (mg_coll)MG_NCOLL, 4, 150), 0);
  ASSERT_EQ(mg_profile_lookup(p, (mg_coll)-1, 4, 150), 0);
  ASSERT_EQ(mg_profile_lookup(NULL, MG_ALLREDUCE, 4, 150), 0);
  TEST_CASE("slice: what the library caches per communicator");
  const mg_profile_range *r;
  int n = mg_profile_slice(p, MG_ALLREDUCE, 4, &r);
  ASSERT_EQ(n, 3);
  if (n == 3) {
    ASSERT_EQ_U(r[0].lo, 100);
    ASSERT_EQ_U(r[2].hi, 400);
    ASSERT_EQ(mg_profile_slice_lookup(r, n, 250), rsb);
  }
  ASSERT_EQ(mg_profile_slice(p, MG_ALLREDUCE, 5, &r), 0);
  ASSERT_TRUE(r == NULL);
  ASSERT_EQ(mg_profile_slice_lookup(NULL, 0, 5), 0);
  mg_profile_free(p);
}

static void test_nesting(void) {
  TEST_CASE("np selectors: exact, ranges, open, *; the narrowest decides, with no fall-through");
  mg_profile_diags d = {0};
  mg_profile *p = parse("mpiguide-profile 1\n"
                        "bcast np=*      0-1K    bcast_as_allgatherv\n"
                        "bcast np=2-64   1K-4K   bcast_as_scatter_allgather\n"
                        "bcast np=4      8K-16K  bcast_as_allgatherv\n"
                        "bcast np=100-*  0-*     bcast_as_scatter_allgather\n"
                        "bcast np=64     0-1K    default\n",
                        "nest", &d);
  ASSERT_TRUE(p != NULL);
  dump_diags(&d);
  if (p) {
    int ag = alg(MG_BCAST, "bcast_as_allgatherv"), sa = alg(MG_BCAST, "bcast_as_scatter_allgather");
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 1, 1024), ag); /* only np=* contains 1 */
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 1, 1025), 0);
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 2, 512), 0); /* np=2-64 decides: no fall-through to np=* */
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 2, 2048), sa);
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 3, 4096), sa);
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 4, 4096), 0); /* np=4 decides */
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 4, 8192), ag);
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 5, 8192), 0);
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 5, 4096), sa);
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 63, 1024), sa);
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 64, 1024), 0); /* explicit default */
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 64, 2048), 0);
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 65, 100), ag); /* back to np=* */
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 99, 100), ag);
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 100, SIZE_MAX), sa);
    ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, INT_MAX, 0), sa);
    ASSERT_EQ(same_decisions(p, p), 0); /* against the brute-force reference */
    check_roundtrip(p);
  }
  mg_profile_free(p);
  mg_profile_diags_free(&d);
}

static uint64_t hash_of(const char *text) {
  mg_profile_diags d = {0};
  mg_profile *p = parse(text, "h", &d);
  uint64_t h = mg_profile_hash(p);
  if (!p) dump_diags(&d);
  mg_profile_free(p);
  mg_profile_diags_free(&d);
  return h;
}

static void test_hash(void) {
  static const char base[] = "mpiguide-profile 1\n"
                             "allreduce np=4 1K-64K allreduce_as_reduce_bcast # slowdown 1.31\n"
                             "bcast np=2-8 1M-* bcast_as_allgatherv\n";
  uint64_t h = hash_of(base);
  TEST_CASE("hash: not 0, not the empty profile's");
  ASSERT_NE_U(h, 0);
  ASSERT_NE_U(h, hash_of("mpiguide-profile 1\n"));
  TEST_CASE("hash: equal despite comments, preamble, whitespace, order, spelling of sizes and of default");
  ASSERT_EQ_U(hash_of("mpiguide-profile 1   # v1\n"
                     "# a preamble\n\n"
                     "bcast\tnp=2-8   1024K-*   bcast_as_allgatherv  # moved up\n"
                     "  allreduce   np=4 1024-65536    allreduce_as_reduce_bcast\r\n"),
             h);
  ASSERT_EQ_U(
      hash_of("mpiguide-profile 1\nallreduce np=4 1K-32K allreduce_as_reduce_bcast\n"
              "allreduce np=4 32769-64K allreduce_as_reduce_bcast\nbcast np=2-8 1M-* bcast_as_allgatherv\n"),
      h); /* the same decisions split into touching ranges */
  ASSERT_EQ_U(hash_of("mpiguide-profile 1\nbcast np=4 1K default\n"),
             hash_of("mpiguide-profile 1\nbcast np=4 1K-1K bcast_default\n"));
  TEST_CASE("hash: changes with every part of a rule");
  ASSERT_NE_U(hash_of("mpiguide-profile 1\nallreduce np=4 1K-64K allreduce_as_reducescatterblock_allgather\n"
                     "bcast np=2-8 1M-* bcast_as_allgatherv\n"),
             h);
  ASSERT_NE_U(hash_of("mpiguide-profile 1\nallreduce np=5 1K-64K allreduce_as_reduce_bcast\n"
                     "bcast np=2-8 1M-* bcast_as_allgatherv\n"),
             h);
  ASSERT_NE_U(hash_of("mpiguide-profile 1\nallreduce np=4 1K-65535 allreduce_as_reduce_bcast\n"
                     "bcast np=2-8 1M-* bcast_as_allgatherv\n"),
             h);
  ASSERT_NE_U(hash_of("mpiguide-profile 1\nallreduce np=4 1K-64K allreduce_as_reduce_bcast\n"
                     "bcast np=2-9 1M-* bcast_as_allgatherv\n"),
             h);
  ASSERT_NE_U(hash_of("mpiguide-profile 1\nallreduce np=4 1K-64K allreduce_as_reduce_bcast\n"
                     "bcast np=2-8 1M-1G bcast_as_allgatherv\n"),
             h);
  ASSERT_NE_U(hash_of("mpiguide-profile 1\nallreduce np=4 1K-64K allreduce_as_reduce_bcast\n"), h);
  ASSERT_NE_U(hash_of("mpiguide-profile 1\nreduce np=4 1K-64K reduce_as_allreduce\n"),
             hash_of("mpiguide-profile 1\nreduce np=4 1K-64K default\n"));
  TEST_CASE("hash: an unbuilt or missing profile hashes to 0");
  mg_profile *p = mg_profile_new();
  mg_profile_add(p, MG_BCAST, 1, 1, 0, 1, 0, NULL);
  ASSERT_EQ_U(mg_profile_hash(p), 0);
  ASSERT_EQ_U(mg_profile_hash(NULL), 0);
  mg_profile_free(p);
}

static void test_merge(void) {
  TEST_CASE("merge: touching and overlapping ranges with equal algorithms, comments joined");
  mg_profile *p = mg_profile_new();
  int rb = alg(MG_ALLREDUCE, "allreduce_as_reduce_bcast");
  int rsb = alg(MG_ALLREDUCE, "allreduce_as_reducescatterblock_allgather");
  mg_profile_add(p, MG_ALLREDUCE, 4, 4, 2048, 4095, rb, "slowdown 1.2");
  mg_profile_add(p, MG_ALLREDUCE, 4, 4, 1024, 2047, rb, "slowdown 1.3");
  mg_profile_add(p, MG_ALLREDUCE, 4, 4, 4096, 8191, rb, "slowdown 1.3");
  mg_profile_add(p, MG_ALLREDUCE, 4, 4, 8000, 9000, rb, NULL);  /* overlaps: merged too */
  mg_profile_add(p, MG_ALLREDUCE, 4, 4, 9002, 9100, rb, NULL);  /* gap of one byte: kept */
  mg_profile_add(p, MG_ALLREDUCE, 4, 4, 9101, 9200, rsb, NULL); /* other algorithm: kept */
  mg_profile_add(p, MG_ALLREDUCE, 8, 8, 9201, 9300, rsb, NULL); /* other np: kept */
  mg_profile_add(p, MG_ALLREDUCE, 4, 4, 9201, SIZE_MAX, rsb, "open");
  mg_profile_add(p, MG_ALLREDUCE, 4, 4, 5, 5, rsb, NULL);
  ASSERT_EQ(mg_profile_merge_touching(p), 4);
  ASSERT_EQ(mg_profile_build(p, NULL), MG_PROFILE_OK);
  char *text = mg_profile_format(p, NULL);
  ASSERT_STR_EQ(text,
            "mpiguide-profile 3\n"
            "\n"
            "allreduce  np=4  5-5        allreduce_as_reducescatterblock_allgather\n"
            "allreduce  np=4  1K-9000    allreduce_as_reduce_bcast                  # slowdown 1.3; slowdown "
            "1.2\n"
            "allreduce  np=4  9002-9100  allreduce_as_reduce_bcast\n"
            "allreduce  np=4  9101-*     allreduce_as_reducescatterblock_allgather  # open\n"
            "\n"
            "allreduce  np=8  9201-9300  allreduce_as_reducescatterblock_allgather\n"
            "\n"
            "end-of-profile rules=5\n");
  free(text);
  mg_profile_free(p);
}

/* mpiguide profile merge: the choices several profiles agree on. */
static char *merged_text(const char *a, const char *b, int all, int *rc, int *conflicts, char **report) {
  mg_profile_diags d;
  mg_profile_diags_init(&d, 8);
  mg_profile *ps[2] = {parse(a, "a.prof", &d), parse(b, "b.prof", &d)}, *m = NULL;
  ASSERT_TRUE(ps[0] && ps[1]);
  char *names[2] = {"a.prof", "b.prof"};
  size_t len = 0;
  FILE *f = open_memstream(report, &len);
  *rc = mg_profile_merge_agreeing(ps, 2, names, all, &m, conflicts, f);
  fclose(f);
  char *text = m ? mg_profile_format(m, NULL) : NULL;
  mg_profile_free(m), mg_profile_free(ps[0]), mg_profile_free(ps[1]);
  mg_profile_diags_free(&d);
  return text;
}

static void test_merge_agree(void) {
  static const char a[] = "mpiguide-profile 2\n# np=4: MPI library: Open MPI v4.1.4\n"
                          "allreduce np=4 4-15 type=float op=sum allreduce_as_recdbl\n"
                          "allreduce np=4 16-63 type=float op=sum default\n"
                          "bcast np=4 1K-4095 bcast_as_linear\n";
  static const char b[] = "mpiguide-profile 2\n# np=4: MPI library: Open MPI v4.1.4\n"
                          "allreduce np=4 4-15 type=float op=sum allreduce_as_recdbl\n"
                          "allreduce np=4 16-63 type=float op=sum allreduce_as_ring\n"
                          "bcast np=4 2K-8K bcast_as_linear\n"
                          "reduce np=4 16K-65535 type=float op=max default\n";
  int rc, conflicts;
  char *report = NULL;
  TEST_CASE("merge: agreeing pieces kept, overlapping ranges cut and joined, a conflict dropped and reported");
  char *text = merged_text(a, b, 0, &rc, &conflicts, &report);
  ASSERT_EQ(rc, 0);
  ASSERT_EQ(conflicts, 1);
  ASSERT_STR_EQ(text, "mpiguide-profile 3\n"
                      "# merged by mpiguide profile merge from a.prof b.prof\n"
                      "# np=4: MPI library: Open MPI v4.1.4\n"
                      "\n"
                      "allreduce  np=4  4-15       type=float  op=sum  allreduce_as_recdbl  # merged: no input disagrees\n"
                      "\n"
                      "bcast      np=4  1K-8K                          bcast_as_linear      # merged: no input disagrees\n"
                      "\n"
                      "reduce     np=4  16K-65535  type=float  op=max  default              # merged: no input disagrees\n"
                      "\n"
                      "end-of-profile rules=3\n");
  ASSERT_STR_EQ(report, "mpiguide profile merge: allreduce np=4 16-63 type=float op=sum: a.prof says default, "
                        "b.prof says allreduce_as_ring; dropped\n");
  free(text), free(report);
  TEST_CASE("merge --all: only the pieces every profile has a rule for");
  text = merged_text(a, b, 1, &rc, &conflicts, &report);
  ASSERT_EQ(rc, 0);
  ASSERT_TRUE(strstr(text, "bcast      np=4  2K-4095") != NULL);
  ASSERT_TRUE(strstr(text, "\nreduce") == NULL);
  ASSERT_TRUE(strstr(report, "bcast np=4 1K-2047: only 1 of 2 profiles have a rule; dropped (--all)") != NULL);
  free(text), free(report);
  TEST_CASE("merge: profiles of different MPI libraries are refused");
  static const char c[] = "mpiguide-profile 1\n# np=4: MPI library: MPICH Version: 4.0.2\n"
                          "bcast np=4 1K-4095 bcast_as_linear\n";
  text = merged_text(a, c, 0, &rc, &conflicts, &report);
  ASSERT_EQ(rc, 1);
  ASSERT_TRUE(text == NULL);
  ASSERT_TRUE(strstr(report, "different MPI libraries at 4 processes ('Open MPI v4.1.4' and 'MPICH Version: 4.0.2')"));
  free(report);
}

static void test_api(void) {
  TEST_CASE("add: invalid arguments");
  mg_profile *p = mg_profile_new();
  ASSERT_EQ(mg_profile_add(p, (mg_coll)MG_NCOLL, 1, 1, 0, 0, 0, NULL), MG_PROFILE_INVALID);
  ASSERT_EQ(mg_profile_add(p, MG_BCAST, 0, 1, 0, 0, 0, NULL), MG_PROFILE_INVALID);
  ASSERT_EQ(mg_profile_add(p, MG_BCAST, 3, 2, 0, 0, 0, NULL), MG_PROFILE_INVALID);
  ASSERT_EQ(mg_profile_add(p, MG_BCAST, 1, 1, 5, 4, 0, NULL), MG_PROFILE_INVALID);
  ASSERT_EQ(mg_profile_add(p, MG_BCAST, 1, 1, 0, 0, mg_colls[MG_BCAST].nalgs, NULL), MG_PROFILE_INVALID);
  ASSERT_EQ(mg_profile_add(p, MG_BCAST, 1, 1, 0, 0, -1, NULL), MG_PROFILE_INVALID);
  ASSERT_EQ(mg_profile_nrules(p), 0);
  TEST_CASE("add: comments lose line breaks; problems of API rules have no line");
  ASSERT_EQ(mg_profile_add(p, MG_BCAST, 2, 2, 0, 10, 1, "two\nlines\r"), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_add(p, MG_BCAST, 2, 2, 5, 20, 1, NULL), MG_PROFILE_OK);
  mg_profile_diags d = {0};
  ASSERT_EQ(mg_profile_build(p, &d), MG_PROFILE_OVERLAP);
  ASSERT_STR_EQ(diag(&d, 0),
            "<profile>: size range 5-20 overlaps 0-10 (a rule added by the program) of bcast np=2; "
            "ranges include both bounds: make them disjoint, e.g. start this one at 11");
  mg_profile_diags_free(&d);
  ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 2, 3), 0); /* failed build: unbuilt, default */
  ASSERT_TRUE(mg_profile_format(p, NULL) == NULL);
  mg_profile_free(p);
  p = mg_profile_new();
  mg_profile_add(p, MG_BCAST, 2, 2, 0, 10, 1, "two\nlines\r");
  mg_profile_add_preamble(p, "written by test_api");
  ASSERT_EQ(mg_profile_build(p, NULL), MG_PROFILE_OK);
  ASSERT_STR_EQ(mg_profile_rule_at(p, 0)->comment, "two lines");

  TEST_CASE("save, load, open");
  char dir[] = "/tmp/mg_test_api_XXXXXX", path[256];
  ASSERT_TRUE(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/t.prof", dir);
  ASSERT_EQ(mg_profile_save(p, path), MG_PROFILE_OK);
  mg_profile *q = NULL;
  ASSERT_EQ(mg_profile_open(path, &q, &d), MG_PROFILE_OK);
  ASSERT_EQ_U(mg_profile_hash(q), mg_profile_hash(p));
  ASSERT_STR_EQ(mg_profile_preamble_at(q, 0), "written by test_api");
  mg_profile_free(q);
  remove(path);
  ASSERT_EQ(mg_profile_load(path, &q, &d), MG_PROFILE_IO);
  char want[512];
  snprintf(want, sizeof want, "%s: cannot open: No such file or directory", path);
  ASSERT_STR_EQ(diag(&d, 0), want);
  mg_profile_diags_free(&d);
  ASSERT_EQ(mg_profile_load(dir, &q, &d), MG_PROFILE_IO);
  snprintf(want, sizeof want,
           "%s: is a directory; give a profile file (a directory is read as PGMPITuneLib *.prf "
           "files)",
           dir);
  ASSERT_STR_EQ(diag(&d, 0), want);
  mg_profile_diags_free(&d);
  rmdir(dir);
  TEST_CASE("write to a FILE");
  FILE *f = tmpfile();
  ASSERT_EQ(mg_profile_write(p, f), MG_PROFILE_OK);
  ASSERT_TRUE(ftell(f) > 0);
  fclose(f);
  TEST_CASE("spellings");
  char b[64];
  mg_profile_fmt_size(0, b, sizeof b);
  ASSERT_STR_EQ(b, "0");
  mg_profile_fmt_size(1536, b, sizeof b);
  ASSERT_STR_EQ(b, "1536");
  mg_profile_fmt_size(3u << 20, b, sizeof b);
  ASSERT_STR_EQ(b, "3M");
  mg_profile_fmt_size((size_t)5 << 40, b, sizeof b);
  ASSERT_STR_EQ(b, "5120G");
  mg_profile_fmt_np(1, INT_MAX, b, sizeof b);
  ASSERT_STR_EQ(b, "np=*");
  mg_profile_fmt_np(8, INT_MAX, b, sizeof b);
  ASSERT_STR_EQ(b, "np=8-*");
  mg_profile_fmt_np(2, 8, b, sizeof b);
  ASSERT_STR_EQ(b, "np=2-8");
  ASSERT_STR_EQ(mg_profile_strerror(MG_PROFILE_OVERLAP), "overlapping ranges");
  ASSERT_STR_EQ(mg_profile_strerror(-1), "unknown status");
  mg_profile_free(p);
}

/* Lookups from several threads at once on one profile give the answers of a
 * single thread (read-only, no hidden state). */
static mg_profile *shared;
static int expected[MG_NCOLL][8][64];
static size_t thread_size(int i) { return i < 32 ? (size_t)1 << i : ((size_t)1 << (i - 32)) + 1; }
static const int thread_np[8] = {1, 2, 3, 4, 8, 16, 17, INT_MAX};
static void *lookup_thread(void *arg) {
  long bad = 0;
  for (int rep = 0; rep < 200; rep++)
    for (int c = 0; c < MG_NCOLL; c++)
      for (int k = 0; k < 8; k++)
        for (int i = 0; i < 64; i++)
          bad += mg_profile_lookup(shared, (mg_coll)c, thread_np[k], thread_size(i)) != expected[c][k][i];
  *(long *)arg = bad;
  return NULL;
}

static void test_threads(void) {
  TEST_CASE("concurrent lookups");
  char path[4096];
  snprintf(path, sizeof path, "%s/example.prof", data_dir);
  ASSERT_EQ(mg_profile_load(path, &shared, NULL), MG_PROFILE_OK);
  if (!shared) return;
  for (int c = 0; c < MG_NCOLL; c++)
    for (int k = 0; k < 8; k++)
      for (int i = 0; i < 64; i++)
        expected[c][k][i] = mg_profile_lookup(shared, (mg_coll)c, thread_np[k], thread_size(i));
  pthread_t t[4];
  long bad[4];
  for (int i = 0; i < 4; i++) ASSERT_EQ(pthread_create(&t[i], NULL, lookup_thread, &bad[i]), 0);
  for (int i = 0; i < 4; i++) {
    pthread_join(t[i], NULL);
    ASSERT_EQ(bad[i], 0);
  }
  mg_profile_free(shared);
}

/* ---- type= and op= selectors (format version 2) ------------------------------------------- */

static void test_classes(void) {
  TEST_CASE("datatype classes: the MPI standard's C integer, floating point (C and Fortran) and byte groups");
  const MPI_Datatype ints[] = {MPI_SIGNED_CHAR, MPI_UNSIGNED_CHAR, MPI_SHORT,   MPI_UNSIGNED_SHORT,
                               MPI_INT,         MPI_UNSIGNED,      MPI_LONG,    MPI_UNSIGNED_LONG,
                               MPI_LONG_LONG,   MPI_LONG_LONG_INT, MPI_UNSIGNED_LONG_LONG,
                               MPI_INT8_T,      MPI_INT16_T,       MPI_INT32_T, MPI_INT64_T,
                               MPI_UINT8_T,     MPI_UINT16_T,      MPI_UINT32_T, MPI_UINT64_T};
  for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) ASSERT_EQ(mg_tclass_of(ints[i]), MG_TCLASS_INT);
  ASSERT_EQ(mg_tclass_of(MPI_FLOAT), MG_TCLASS_FLOAT);
  ASSERT_EQ(mg_tclass_of(MPI_DOUBLE), MG_TCLASS_FLOAT);
  ASSERT_EQ(mg_tclass_of(MPI_LONG_DOUBLE), MG_TCLASS_FLOAT);
  /* Fortran's floating point is in the standard's group too: CP2K's MPI_DOUBLE_PRECISION sums */
  ASSERT_EQ(mg_tclass_of(MPI_DOUBLE_PRECISION), MG_TCLASS_FLOAT);
  ASSERT_EQ(mg_tclass_of(MPI_REAL), MG_TCLASS_FLOAT);
  ASSERT_EQ(mg_tclass_of(MPI_BYTE), MG_TCLASS_BYTE);
  /* the standard's Fortran integer, logical and complex groups (issue 33: CP2K's MPI_INTEGER and
   * MPI_LOGICAL allreduces, a third of its MPI time on the 2-node bed, had no class) */
  const MPI_Datatype fints[] = {MPI_INTEGER, MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8};
  for (size_t i = 0; i < sizeof fints / sizeof fints[0]; i++)
    if (fints[i] != MPI_DATATYPE_NULL) ASSERT_EQ(mg_tclass_of(fints[i]), MG_TCLASS_FINT);
  ASSERT_EQ(mg_tclass_of(MPI_LOGICAL), MG_TCLASS_LOGICAL);
  ASSERT_EQ(mg_tclass_of(MPI_C_BOOL), MG_TCLASS_LOGICAL);
  ASSERT_EQ(mg_tclass_of(MPI_COMPLEX), MG_TCLASS_COMPLEX);
  ASSERT_EQ(mg_tclass_of(MPI_DOUBLE_COMPLEX), MG_TCLASS_COMPLEX);
  ASSERT_EQ(mg_tclass_of(MPI_C_DOUBLE_COMPLEX), MG_TCLASS_COMPLEX);
  ASSERT_EQ(mg_tclass_of(MPI_REAL8), MG_TCLASS_FLOAT);
  ASSERT_STR_EQ(mg_tclass_name(mg_tclass_of(MPI_INTEGER)), "fint");
  ASSERT_EQ(mg_tclass_of_typename("MPI_INTEGER"), MG_TCLASS_FINT);
  ASSERT_EQ(mg_tclass_of_typename("logical"), MG_TCLASS_LOGICAL);
  /* the ops MPI defines on them: arithmetic on fint, sum and product on complex, logical ops on logical */
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_FINT, MG_OPSEL_MAX), 1);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_FINT, MG_OPSEL_BOR), 1);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_FINT, MG_OPSEL_LAND), 0);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_LOGICAL, MG_OPSEL_LOR), 1);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_LOGICAL, MG_OPSEL_SUM), 0);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_COMPLEX, MG_OPSEL_PROD), 1);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_COMPLEX, MG_OPSEL_MAX), 0);
  /* every handle with a class: the op table and mg_op_defined agree on what MPI defines */
  const MPI_Datatype typed[] = {MPI_INT, MPI_DOUBLE, MPI_BYTE, MPI_INTEGER, MPI_LOGICAL, MPI_DOUBLE_COMPLEX, MPI_C_BOOL};
  const MPI_Op allops[] = {MPI_SUM, MPI_PROD, MPI_MIN, MPI_MAX, MPI_LAND, MPI_LOR, MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR};
  for (size_t i = 0; i < sizeof typed / sizeof typed[0]; i++)
    for (size_t j = 0; j < sizeof allops / sizeof allops[0]; j++)
      ASSERT_EQ(mg_sel_defined(mg_tclass_of(typed[i]), mg_opsel_of(allops[j])), mg_op_defined(allops[j], typed[i]));
  TEST_CASE("datatype classes: character, pair, multi-language types and NULL have none");
  const MPI_Datatype none[] = {MPI_CHAR,      MPI_WCHAR,  MPI_DOUBLE_INT, MPI_2INT, MPI_FLOAT_INT,
                               MPI_PACKED,    MPI_AINT,   MPI_2INTEGER,   MPI_DATATYPE_NULL};
  for (size_t i = 0; i < sizeof none / sizeof none[0]; i++) ASSERT_EQ(mg_tclass_of(none[i]), MG_TCLASS_NONE);
  TEST_CASE("op selectors: the twelve predefined reduction ops; the others have none");
  const MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MIN,  MPI_MAX,  MPI_LAND,   MPI_LOR,
                        MPI_LXOR, MPI_BAND, MPI_BOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC};
  const char *const opnames[] = {"sum", "prod", "min", "max", "land", "lor",
                                 "lxor", "band", "bor", "bxor", "maxloc", "minloc"};
  ASSERT_EQ(MG_NOPSEL, 13);
  for (int i = 0; i < 12; i++) {
    ASSERT_EQ(mg_opsel_of(ops[i]), i + 1);
    ASSERT_STR_EQ(mg_opsel_name(i + 1), opnames[i]);
    ASSERT_EQ(mg_opsel_find(opnames[i]), i + 1);
  }
  ASSERT_EQ(mg_opsel_of(MPI_REPLACE), MG_OPSEL_NONE);
  ASSERT_EQ(mg_opsel_of(MPI_NO_OP), MG_OPSEL_NONE);
  ASSERT_EQ(mg_opsel_of(MPI_OP_NULL), MG_OPSEL_NONE);
  TEST_CASE("names and look-ups");
  ASSERT_STR_EQ(mg_tclass_name(MG_TCLASS_ANY), "any");
  ASSERT_STR_EQ(mg_tclass_name(MG_TCLASS_NONE), "none");
  ASSERT_STR_EQ(mg_tclass_name(MG_NTCLASS), "none");
  ASSERT_STR_EQ(mg_tclass_name(MG_TCLASS_INT), "int");
  ASSERT_STR_EQ(mg_tclass_name(MG_TCLASS_FLOAT), "float");
  ASSERT_STR_EQ(mg_tclass_name(MG_TCLASS_BYTE), "byte");
  ASSERT_STR_EQ(mg_opsel_name(MG_OPSEL_ANY), "any");
  ASSERT_STR_EQ(mg_opsel_name(MG_OPSEL_NONE), "none");
  ASSERT_EQ(mg_tclass_find("float"), MG_TCLASS_FLOAT);
  ASSERT_EQ(mg_tclass_find("Float"), MG_TCLASS_FLOAT);
  ASSERT_EQ(mg_tclass_find("any"), -1);
  ASSERT_EQ(mg_tclass_find("none"), -1);
  ASSERT_EQ(mg_tclass_find("double"), -1);
  ASSERT_EQ(mg_tclass_find(""), -1);
  ASSERT_EQ(mg_opsel_find("SUM"), MG_OPSEL_SUM);
  ASSERT_EQ(mg_opsel_find("MPI_SUM"), MG_OPSEL_SUM);
  ASSERT_EQ(mg_opsel_find("mpi_bxor"), MG_OPSEL_BXOR);
  ASSERT_EQ(mg_opsel_find("MPI_"), -1);
  ASSERT_EQ(mg_opsel_find("add"), -1);
  ASSERT_EQ(mg_opsel_find("any"), -1);
  ASSERT_EQ(mg_opsel_find("replace"), -1);
  ASSERT_EQ(mg_tclass_of_typename("MPI_DOUBLE"), MG_TCLASS_FLOAT);
  ASSERT_EQ(mg_tclass_of_typename("double"), MG_TCLASS_FLOAT);
  ASSERT_EQ(mg_tclass_of_typename("mpi_uint8_t"), MG_TCLASS_INT);
  ASSERT_EQ(mg_tclass_of_typename("MPI_CHAR"), -1);
  TEST_CASE("which op MPI defines on which class");
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_FLOAT, MG_OPSEL_SUM), 1);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_FLOAT, MG_OPSEL_BOR), 0);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_FLOAT, MG_OPSEL_LAND), 0);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_INT, MG_OPSEL_LXOR), 1);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_INT, MG_OPSEL_BOR), 1);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_BYTE, MG_OPSEL_BOR), 1);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_BYTE, MG_OPSEL_SUM), 0);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_BYTE, MG_OPSEL_MAX), 0);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_INT, MG_OPSEL_MAXLOC), 0);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_ANY, MG_OPSEL_MAXLOC), 1);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_BYTE, MG_OPSEL_ANY), 1);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_NONE, MG_OPSEL_SUM), 0);
  ASSERT_EQ(mg_sel_defined(MG_TCLASS_FLOAT, MG_NOPSEL), 0);
}

static const char typed_text[] =
    "mpiguide-profile 2\n"
    "# rules by datatype class and op\n"
    "allreduce np=4 1K-64K type=float op=sum allreduce_as_reduce_bcast # slowdown 1.31 [1.22, 1.40]\n"
    "allreduce np=4 1K-64K allreduce_as_reducescatterblock_allgather\n"
    "allreduce np=4 128K-* type=int allreduce_as_reducescatter_allgatherv\n"
    "allreduce np=4 0-512 op=max default # by hand\n"
    "reduce np=* * type=byte op=bor reduce_as_allreduce\n"
    "bcast np=4 1K bcast_as_allgatherv\n";

static void test_sel_roundtrip(void) {
  TEST_CASE("selectors: read, canonical text (version 2, aligned, a group per selector), round trip");
  mg_profile_diags d = {0};
  mg_profile *p = parse(typed_text, "typed", &d);
  ASSERT_TRUE(p != NULL);
  dump_diags(&d);
  if (!p) return;
  ASSERT_EQ(mg_profile_nrules(p), 6);
  const mg_profile_rule *r = mg_profile_rule_at(p, 3); /* canonical order: none, op, int, float+sum */
  ASSERT_EQ(r->tclass, MG_TCLASS_FLOAT);
  ASSERT_EQ(r->opsel, MG_OPSEL_SUM);
  ASSERT_EQ(r->line, 3);
  ASSERT_STR_EQ(r->comment, "slowdown 1.31 [1.22, 1.40]");
  ASSERT_EQ(mg_profile_rule_at(p, 1)->opsel, MG_OPSEL_MAX);
  ASSERT_EQ(mg_profile_rule_at(p, 1)->tclass, MG_TCLASS_ANY);
  ASSERT_EQ(mg_profile_rule_at(p, 2)->tclass, MG_TCLASS_INT);
  ASSERT_EQ(mg_profile_rule_at(p, 2)->opsel, MG_OPSEL_ANY);
  ASSERT_EQ(mg_profile_version(p), 3);
  ASSERT_EQ(mg_profile_file_version(p), 2);
  char *text = mg_profile_format(p, NULL);
  ASSERT_STR_EQ(text,
                "mpiguide-profile 3\n"
                "# rules by datatype class and op\n"
                "\n"
                "allreduce  np=4  1K-64K                      allreduce_as_reducescatterblock_allgather\n"
                "\n"
                "allreduce  np=4  0-512               op=max  default                    # by hand\n"
                "\n"
                "allreduce  np=4  128K-*  type=int            allreduce_as_reducescatter_allgatherv\n"
                "\n"
                "allreduce  np=4  1K-64K  type=float  op=sum  allreduce_as_reduce_bcast  # slowdown 1.31 [1.22, "
                "1.40]\n"
                "\n"
                "bcast      np=4  1K-1K                       bcast_as_allgatherv\n"
                "\n"
                "reduce     np=*  *       type=byte   op=bor  reduce_as_allreduce\n"
                "\n"
                "end-of-profile rules=6\n");
  free(text);
  check_roundtrip(p);
  ASSERT_EQ(same_decisions(p, p), 0);
  mg_profile_free(p);
  mg_profile_diags_free(&d);
}

static void test_sel_version(void) {
  TEST_CASE("the writer writes version 3 with and without selectors, its end line counting the rules");
  mg_profile *p = mg_profile_new();
  int rb = alg(MG_ALLREDUCE, "allreduce_as_reduce_bcast");
  ASSERT_EQ(mg_profile_add(p, MG_ALLREDUCE, 4, 4, 1024, 2048, rb, NULL), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_build(p, NULL), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_version(p), 3);
  ASSERT_EQ(mg_profile_file_version(p), 0); /* built through the API */
  char *text = mg_profile_format(p, NULL);
  ASSERT_STR_EQ(text, "mpiguide-profile 3\n\nallreduce  np=4  1K-2K  allreduce_as_reduce_bcast\n\n"
                      "end-of-profile rules=1\n");
  free(text);
  ASSERT_EQ(mg_profile_add_sel(p, MG_ALLREDUCE, 4, 4, 1024, 2048, MG_TCLASS_FLOAT, MG_OPSEL_ANY, 0, NULL),
            MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_build(p, NULL), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_version(p), 3);
  text = mg_profile_format(p, NULL);
  ASSERT_STR_EQ(text, "mpiguide-profile 3\n\n"
                      "allreduce  np=4  1K-2K              allreduce_as_reduce_bcast\n\n"
                      "allreduce  np=4  1K-2K  type=float  default\n\n"
                      "end-of-profile rules=2\n");
  free(text);
  check_roundtrip(p);
  mg_profile_free(p);

  TEST_CASE("a version-2 file without selectors is read, and written as version 3 with the same hash");
  mg_profile_diags d = {0};
  p = parse("mpiguide-profile 2\nallreduce np=4 1K-2K allreduce_as_reduce_bcast\n", "v2", &d);
  ASSERT_TRUE(p != NULL);
  dump_diags(&d);
  if (p) {
    text = mg_profile_format(p, NULL);
    ASSERT_STR_EQ(text, "mpiguide-profile 3\n\nallreduce  np=4  1K-2K  allreduce_as_reduce_bcast\n\n"
                        "end-of-profile rules=1\n");
    free(text);
    ASSERT_EQ_U(mg_profile_hash(p),
                hash_of("mpiguide-profile 1\nallreduce np=4 1K-2K allreduce_as_reduce_bcast\n"));
  }
  mg_profile_free(p);
  mg_profile_diags_free(&d);

  TEST_CASE("a version-1 file refuses selectors, each line once, and says to write version 2");
  static const char *const w1[] = {
      "v1:2: 'type=float': type= and op= need profile version 2; change line 1 to 'mpiguide-profile 2'",
      "v1:3: 'op=sum': type= and op= need profile version 2; change line 1 to 'mpiguide-profile 2'",
  };
  expect_diags("mpiguide-profile 1\n"
               "allreduce np=4 1K-2K type=float op=sum allreduce_as_reduce_bcast\n"
               "reduce np=4 * op=sum default\n"
               "allreduce np=4 4K-8K allreduce_as_reduce_bcast\n",
               "v1", w1, 2, MG_PROFILE_SELECTOR);
}

static void test_sel_errors(void) {
  TEST_CASE("selectors: every problem with its line and what to write");
  static const char text[] =
      "mpiguide-profile 2\n"                                                     /* 1 */
      "allreduce np=4 1K type=double allreduce_as_reduce_bcast\n"                /* 2 */
      "allreduce np=4 1K type=MPI_FLOAT allreduce_as_reduce_bcast\n"             /* 3 */
      "allreduce np=4 1K type=pair allreduce_as_reduce_bcast\n"                  /* 4 */
      "allreduce np=4 1K type=Float allreduce_as_reduce_bcast\n"                 /* 5 */
      "allreduce np=4 1K op=add allreduce_as_reduce_bcast\n"                     /* 6 */
      "allreduce np=4 1K op=MPI_SUM allreduce_as_reduce_bcast\n"                 /* 7 */
      "bcast np=4 1K type=byte bcast_as_allgatherv\n"                            /* 8 */
      "gather np=4 1K op=sum default\n"                                          /* 9 */
      "allreduce np=4 1K type=int type=float allreduce_as_reduce_bcast\n"        /* 10 */
      "allreduce np=4 1K op=sum type=float allreduce_as_reduce_bcast\n"          /* 11 */
      "allreduce np=4 1K op=sum op=sum allreduce_as_reduce_bcast\n"              /* 12 */
      "allreduce np=4 1K allreduce_as_reduce_bcast type=float\n"                 /* 13 */
      "allreduce np=4 type=float 1K allreduce_as_reduce_bcast\n"                 /* 14 */
      "allreduce np=4 1K type=float op=sum\n"                                    /* 15 */
      "allreduce np=4 1K type=float op=bor allreduce_as_reduce_bcast\n"          /* 16 */
      "allreduce np=4 1K type=int op=maxloc allreduce_as_reduce_bcast\n"         /* 17 */
      "scan np=2 1K type= default\n"                                             /* 18 */
      "allreduce np=2 1K-64K type=float allreduce_as_reduce_bcast\n"             /* 19 */
      "allreduce np=2 32K-1M type=float allreduce_as_reducescatter_allgatherv\n" /* 20 */
      "allreduce np=2 1K-64K type=float op=sum default\n"                        /* 21 */
      "allreduce np=2 1K-64K type=float op=sum allreduce_as_reduce_bcast\n"      /* 22 */
      "allreduce np=2 1K-64K allreduce_as_reduce_bcast\n"                        /* 23 */
      "allreduce np=2 1K-64K op=sum default\n";                                  /* 24 */
  static const char *const want[] = {
      "s:2: unknown datatype class 'double': a rule names the class of the datatype, not the datatype; double is "
      "in class float: write 'type=float'",
      "s:3: unknown datatype class 'MPI_FLOAT': a rule names the class of the datatype, not the datatype; "
      "MPI_FLOAT is in class float: write 'type=float'",
      "s:4: unknown datatype class 'pair'; valid: int float byte fint logical complex (the MPI standard's groups "
      "of predefined datatypes, docs/profile.md; other datatypes have no class: omit type=)",
      "s:5: unknown datatype class 'Float': write 'type=float'",
      "s:6: unknown op 'add'; valid: sum prod min max land lor lxor band bor bxor maxloc minloc (MPI's "
      "predefined reduction ops; user-defined ops cannot be named: omit op=)",
      "s:7: unknown op 'MPI_SUM': write 'op=sum'",
      "s:8: 'type=byte': bcast has no reduction datatype; type= and op= are for the reductions only (allreduce "
      "exscan reduce reduce_scatter reduce_scatter_block scan iallreduce iexscan ireduce ireduce_scatter ireduce_scatter_block iscan): delete it",
      "s:9: 'op=sum': gather has no op; type= and op= are for the reductions only (allreduce exscan "
      "reduce reduce_scatter reduce_scatter_block scan iallreduce iexscan ireduce ireduce_scatter ireduce_scatter_block iscan): delete it",
      "s:10: 'type=float': type= is given twice; give each selector once",
      "s:11: 'type=float' after op=: write type= before op= (<collective> np=<N> <LO>-<HI> [type=<class>] "
      "[op=<op>] <algorithm>)",
      "s:12: 'op=sum': op= is given twice; give each selector once",
      "s:13: 'type=float' after the algorithm: selectors come before it ('<collective> np=<N> <LO>-<HI> "
      "[type=<class>] [op=<op>] <algorithm>')",
      "s:14: 'type=float' in place of the sizes: selectors come after the sizes ('<collective> np=<N> <LO>-<HI> "
      "[type=<class>] [op=<op>] <algorithm>')",
      "s:15: incomplete rule: the algorithm is missing after 'op=sum'; a rule is '<collective> np=<N> <LO>-<HI> "
      "[type=<class>] [op=<op>] <algorithm>'",
      "s:16: MPI does not define op=bor on type=float (floating point: MPI_FLOAT MPI_DOUBLE MPI_LONG_DOUBLE "
      "MPI_REAL MPI_DOUBLE_PRECISION): the "
      "rule could never apply",
      "s:17: op=maxloc takes pair types (MPI_DOUBLE_INT, ...), which have no class: the rule could never apply; "
      "delete type=",
      "s:18: unknown datatype class ''; valid: int float byte fint logical complex (the MPI standard's groups of "
      "predefined datatypes, docs/profile.md; other datatypes have no class: omit type=)",
      /* checks across rules: within one (collective, np, type, op) group only */
      "s:20: size range 32K-1M overlaps 1K-64K (line 19) of allreduce np=2 type=float; ranges include both "
      "bounds: make them disjoint, e.g. start this one at 65537",
      "s:22: conflicting rules for allreduce np=2 1K-64K type=float op=sum: allreduce_as_reduce_bcast here, "
      "default at line 21; keep one of the two",
  };
  expect_diags(text, "s", want, (int)(sizeof want / sizeof want[0]), MG_PROFILE_TCLASS);
}

static void test_sel_lookup(void) {
  TEST_CASE("the most specific matching selector group that has rules decides; no fall-through");
  mg_profile_diags d = {0};
  mg_profile *p = parse("mpiguide-profile 2\n"
                        "allreduce np=4 16-1M  allreduce_as_reduce_bcast\n"
                        "allreduce np=4 1K-64K type=float op=sum allreduce_as_reducescatterblock_allgather\n"
                        "allreduce np=4 1K-1M  type=float allreduce_as_reducescatter_allgatherv\n"
                        "allreduce np=4 8-*    op=sum allreduce_as_reduce_bcast\n"
                        "allreduce np=* 0-*    type=int allreduce_as_reducescatter_allgatherv\n"
                        "bcast     np=4 0-*    bcast_as_allgatherv\n",
                        "sel", &d);
  ASSERT_TRUE(p != NULL);
  dump_diags(&d);
  if (!p) return;
  int rb = alg(MG_ALLREDUCE, "allreduce_as_reduce_bcast");
  int rsb = alg(MG_ALLREDUCE, "allreduce_as_reducescatterblock_allgather");
  int rsa = alg(MG_ALLREDUCE, "allreduce_as_reducescatter_allgatherv");
  const int N = MG_TCLASS_NONE, F = MG_TCLASS_FLOAT, I = MG_TCLASS_INT, B = MG_TCLASS_BYTE;
  const int ON = MG_OPSEL_NONE, SUM = MG_OPSEL_SUM, MAX = MG_OPSEL_MAX, BOR = MG_OPSEL_BOR;
  struct {
    int np;
    size_t bytes;
    int t, o, want;
    const char *why;
  } cases[] = {
      {4, 2048, F, SUM, rsb, "type+op group"},
      {4, 1024, F, SUM, rsb, "type+op group, lower bound"},
      {4, 65536, F, SUM, rsb, "type+op group, upper bound"},
      {4, 65537, F, SUM, 0, "type+op group has no range: no fall-through to type=float"},
      {4, 100, F, SUM, 0, "type+op group has no range: no fall-through to op=sum or to no selector"},
      {4, 131072, F, MAX, rsa, "type group (no float+max rules)"},
      {4, 100, F, MAX, 0, "type group has no range: no fall-through to the rules without selectors"},
      {4, 2048, F, ON, rsa, "user-defined op on floats: type group"},
      {4, 8, I, SUM, rb, "op group (np=4 has no int rules)"},
      {4, 1u << 30, I, SUM, rb, "op group, open range"},
      {4, 100, I, MAX, rb, "no selector matches: rules without selectors"},
      {4, 8, I, MAX, 0, "rules without selectors, below their range; np=* type=int not consulted"},
      {4, 8, N, SUM, rb, "unclassified datatype with MPI_SUM: op group"},
      {4, 100, N, ON, rb, "unclassified datatype, user op: only rules without selectors"},
      {4, 8, N, ON, 0, "unclassified datatype, user op, below the untyped range"},
      {4, 100, B, BOR, rb, "byte with bor: nothing specific, rules without selectors"},
      {5, 8, I, MAX, rsa, "np=5: np=* decides, type=int"},
      {5, 8, I, ON, rsa, "np=5, int, user op: type=int"},
      {5, 8, F, SUM, 0, "np=5, float: np=* has no float rule and no rule without selectors"},
      {5, 8, N, ON, 0, "np=5 unclassified: np=* has no rule without selectors"},
      {4, 8, 0, 0, 0, "ANY (0) means no class: as NONE"},
      {4, 100, 0, 0, rb, "ANY (0) means no class: as NONE"},
      {4, 100, 99, 99, rb, "out of range: as NONE"},
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    int got = mg_profile_lookup_sel(p, MG_ALLREDUCE, cases[i].np, cases[i].bytes, cases[i].t, cases[i].o);
    if (got != cases[i].want)
      fprintf(stderr, "  case %zu np=%d %zu bytes type %s op %s (%s): got %d want %d\n", i, cases[i].np,
              cases[i].bytes, mg_tclass_name(cases[i].t), mg_opsel_name(cases[i].o), cases[i].why, got,
              cases[i].want);
    ASSERT_EQ(got, cases[i].want);
  }
  TEST_CASE("mg_profile_lookup: a call no selector matches");
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, 100), rb);
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 4, 8), 0);
  ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 5, 8), 0);
  ASSERT_EQ(mg_profile_lookup(p, MG_BCAST, 4, 8), alg(MG_BCAST, "bcast_as_allgatherv"));
  ASSERT_EQ(mg_profile_lookup_sel(p, MG_BCAST, 4, 8, F, SUM), alg(MG_BCAST, "bcast_as_allgatherv"));
  ASSERT_EQ(same_decisions(p, p), 0); /* against the brute-force reference */
  TEST_CASE("what the library caches: the slice without selectors and the table");
  const mg_profile_range *r;
  ASSERT_EQ(mg_profile_slice(p, MG_ALLREDUCE, 4, &r), 1);
  const mg_profile_seltab *s = mg_profile_slice_sel(p, MG_ALLREDUCE, 4);
  ASSERT_TRUE(s != NULL);
  if (s) {
    ASSERT_EQ(s->by_type, 1);
    ASSERT_EQ(s->by_op, 1);
    const mg_profile_sizes *z = mg_profile_seltab_pick(s, F, SUM);
    ASSERT_EQ(z->n, 1);
    ASSERT_EQ(mg_profile_slice_lookup(z->r, z->n, 2048), rsb);
    z = mg_profile_seltab_pick(s, N, ON);
    ASSERT_EQ(z->n, 1);
    ASSERT_EQ(mg_profile_slice_lookup(z->r, z->n, 100), rb);
  }
  ASSERT_EQ(mg_profile_slice(p, MG_ALLREDUCE, 5, &r), 0);
  ASSERT_TRUE(r == NULL);
  s = mg_profile_slice_sel(p, MG_ALLREDUCE, 5);
  ASSERT_TRUE(s != NULL);
  if (s) {
    ASSERT_EQ(s->by_type, 1);
    ASSERT_EQ(s->by_op, 0); /* the library need not classify the op here */
    ASSERT_EQ(mg_profile_seltab_pick(s, N, ON)->n, 0);
  }
  ASSERT_TRUE(mg_profile_slice_sel(p, MG_BCAST, 4) == NULL);  /* no selectors: no table */
  ASSERT_TRUE(mg_profile_slice_sel(p, MG_REDUCE, 4) == NULL); /* no rules */
  check_roundtrip(p);
  mg_profile_free(p);
  mg_profile_diags_free(&d);

  TEST_CASE("a typed default stops the rules without selectors for that class");
  p = parse("mpiguide-profile 2\n"
            "allreduce np=* * allreduce_as_reduce_bcast\n"
            "allreduce np=* * type=byte default\n",
            "dflt", &d);
  ASSERT_TRUE(p != NULL);
  if (p) {
    ASSERT_EQ(mg_profile_lookup_sel(p, MG_ALLREDUCE, 3, 64, B, BOR), 0);
    ASSERT_EQ(mg_profile_lookup_sel(p, MG_ALLREDUCE, 3, 64, I, BOR), rb);
    ASSERT_EQ(mg_profile_lookup(p, MG_ALLREDUCE, 3, 64), rb);
  }
  mg_profile_free(p);
  mg_profile_diags_free(&d);
}

static void test_sel_hash(void) {
  static const char base[] = "mpiguide-profile 2\n"
                             "allreduce np=4 1K-64K type=float op=sum allreduce_as_reduce_bcast\n"
                             "allreduce np=4 1K-64K allreduce_as_reducescatterblock_allgather\n";
  uint64_t h = hash_of(base);
  TEST_CASE("hash: a profile without selectors keeps its version-1 hash");
  char path[4096];
  snprintf(path, sizeof path, "%s/example.prof", data_dir);
  mg_profile *p = NULL;
  ASSERT_EQ(mg_profile_load(path, &p, NULL), MG_PROFILE_OK);
  ASSERT_EQ_U(mg_profile_hash(p), 0x7081bfc082d65549ULL); /* as printed by validate before version 2 */
  mg_profile_free(p);
  TEST_CASE("hash: changes with each selector");
  ASSERT_NE_U(h, 0);
  ASSERT_NE_U(hash_of("mpiguide-profile 2\n"
                      "allreduce np=4 1K-64K type=float allreduce_as_reduce_bcast\n"
                      "allreduce np=4 1K-64K allreduce_as_reducescatterblock_allgather\n"),
              h);
  ASSERT_NE_U(hash_of("mpiguide-profile 2\n"
                      "allreduce np=4 1K-64K op=sum allreduce_as_reduce_bcast\n"
                      "allreduce np=4 1K-64K allreduce_as_reducescatterblock_allgather\n"),
              h);
  ASSERT_NE_U(hash_of("mpiguide-profile 2\n"
                      "allreduce np=4 1K-64K type=int op=sum allreduce_as_reduce_bcast\n"
                      "allreduce np=4 1K-64K allreduce_as_reducescatterblock_allgather\n"),
              h);
  ASSERT_NE_U(hash_of("mpiguide-profile 2\n"
                      "allreduce np=4 1K-64K type=float op=max allreduce_as_reduce_bcast\n"
                      "allreduce np=4 1K-64K allreduce_as_reducescatterblock_allgather\n"),
              h);
  ASSERT_NE_U(hash_of("mpiguide-profile 2\n"
                      "allreduce np=4 1K-64K type=float op=sum allreduce_as_reduce_bcast\n"
                      "allreduce np=4 1K-64K type=int allreduce_as_reducescatterblock_allgather\n"),
              h);
  ASSERT_NE_U(hash_of("mpiguide-profile 2\n"
                      "allreduce np=4 1K-64K type=float allreduce_as_reduce_bcast\n"),
              hash_of("mpiguide-profile 2\n"
                      "allreduce np=4 1K-64K op=sum allreduce_as_reduce_bcast\n"));
  ASSERT_NE_U(hash_of("mpiguide-profile 2\nallreduce np=4 1K-64K type=float allreduce_as_reduce_bcast\n"),
              hash_of("mpiguide-profile 1\nallreduce np=4 1K-64K allreduce_as_reduce_bcast\n"));
  TEST_CASE("hash: equal despite order, spelling and splitting of typed ranges");
  ASSERT_EQ_U(hash_of("mpiguide-profile 2  # typed\n"
                      "allreduce np=4 1024-65536 allreduce_as_reducescatterblock_allgather\n"
                      "allreduce np=4 1K-32K type=float op=sum allreduce_as_reduce_bcast # a\n"
                      "allreduce\tnp=4 32769-64K\ttype=float  op=sum allreduce_as_reduce_bcast # b\n"),
              h);
}

static void test_sel_merge(void) {
  TEST_CASE("merge: within a selector group only");
  mg_profile *p = mg_profile_new();
  int rb = alg(MG_ALLREDUCE, "allreduce_as_reduce_bcast");
  mg_profile_add_sel(p, MG_ALLREDUCE, 4, 4, 1024, 2047, MG_TCLASS_FLOAT, MG_OPSEL_SUM, rb, "a");
  mg_profile_add_sel(p, MG_ALLREDUCE, 4, 4, 2048, 4095, MG_TCLASS_FLOAT, MG_OPSEL_SUM, rb, "b");
  mg_profile_add_sel(p, MG_ALLREDUCE, 4, 4, 4096, 8191, MG_TCLASS_FLOAT, MG_OPSEL_ANY, rb, NULL);
  mg_profile_add_sel(p, MG_ALLREDUCE, 4, 4, 8192, 9000, MG_TCLASS_FLOAT, MG_OPSEL_SUM, rb, NULL); /* a gap */
  mg_profile_add(p, MG_ALLREDUCE, 4, 4, 4096, 8191, rb, NULL);
  ASSERT_EQ(mg_profile_merge_touching(p), 1);
  ASSERT_EQ(mg_profile_build(p, NULL), MG_PROFILE_OK);
  char *text = mg_profile_format(p, NULL);
  ASSERT_STR_EQ(text, "mpiguide-profile 3\n"
                      "\n"
                      "allreduce  np=4  4K-8191                      allreduce_as_reduce_bcast\n"
                      "\n"
                      "allreduce  np=4  4K-8191  type=float          allreduce_as_reduce_bcast\n"
                      "\n"
                      "allreduce  np=4  1K-4095  type=float  op=sum  allreduce_as_reduce_bcast  # a; b\n"
                      "allreduce  np=4  8K-9000  type=float  op=sum  allreduce_as_reduce_bcast\n"
                      "\n"
                      "end-of-profile rules=4\n");
  free(text);
  mg_profile_free(p);
}

static void test_sel_api(void) {
  TEST_CASE("add_sel: invalid selectors");
  mg_profile *p = mg_profile_new();
  ASSERT_EQ(mg_profile_add_sel(p, MG_BCAST, 1, 1, 0, 0, MG_TCLASS_BYTE, 0, 0, NULL), MG_PROFILE_INVALID);
  ASSERT_EQ(mg_profile_add_sel(p, MG_GATHER, 1, 1, 0, 0, 0, MG_OPSEL_SUM, 0, NULL), MG_PROFILE_INVALID);
  ASSERT_EQ(mg_profile_add_sel(p, MG_ALLREDUCE, 1, 1, 0, 0, MG_NTCLASS, 0, 0, NULL), MG_PROFILE_INVALID);
  ASSERT_EQ(mg_profile_add_sel(p, MG_ALLREDUCE, 1, 1, 0, 0, MG_TCLASS_NONE, 0, 0, NULL), MG_PROFILE_INVALID);
  ASSERT_EQ(mg_profile_add_sel(p, MG_ALLREDUCE, 1, 1, 0, 0, 0, MG_NOPSEL, 0, NULL), MG_PROFILE_INVALID);
  ASSERT_EQ(mg_profile_add_sel(p, MG_ALLREDUCE, 1, 1, 0, 0, 0, MG_OPSEL_NONE, 0, NULL), MG_PROFILE_INVALID);
  ASSERT_EQ(mg_profile_add_sel(p, MG_ALLREDUCE, 1, 1, 0, 0, MG_TCLASS_FLOAT, MG_OPSEL_BXOR, 0, NULL),
            MG_PROFILE_INVALID);
  ASSERT_EQ(mg_profile_add_sel(p, MG_SCAN, 1, 1, 0, 0, MG_TCLASS_INT, MG_OPSEL_MINLOC, 0, NULL), MG_PROFILE_INVALID);
  ASSERT_EQ(mg_profile_nrules(p), 0);
  TEST_CASE("add_sel: every reduction takes selectors; overlaps are per selector group");
  for (int c = 0; c < MG_NCOLL; c++)
    if (mg_colls[c].reduction)
      ASSERT_EQ(mg_profile_add_sel(p, (mg_coll)c, 2, 2, 0, 10, MG_TCLASS_INT, MG_OPSEL_BAND, 0, NULL),
                MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_add_sel(p, MG_REDUCE, 2, 2, 0, 10, MG_TCLASS_INT, MG_OPSEL_ANY, 0, NULL), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_add(p, MG_REDUCE, 2, 2, 0, 10, 0, NULL), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_build(p, NULL), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_add_sel(p, MG_REDUCE, 2, 2, 5, 20, MG_TCLASS_INT, MG_OPSEL_BAND, 0, NULL), MG_PROFILE_OK);
  mg_profile_diags d = {0};
  ASSERT_EQ(mg_profile_build(p, &d), MG_PROFILE_OVERLAP);
  ASSERT_EQ(d.n, 1);
  ASSERT_STR_EQ(diag(&d, 0), "<profile>: size range 5-20 overlaps 0-10 (a rule added by the program) of reduce "
                             "np=2 type=int op=band; ranges include both bounds: make them disjoint, e.g. start "
                             "this one at 11");
  mg_profile_diags_free(&d);
  mg_profile_free(p);
}

static void test_sel_example(void) {
  TEST_CASE("the documented example with selectors (docs/profile.md): every line of its table");
  char path[4096];
  snprintf(path, sizeof path, "%s/typed_example.prof", data_dir);
  mg_profile_diags d = {0};
  mg_profile *p = NULL;
  ASSERT_EQ(mg_profile_load(path, &p, &d), MG_PROFILE_OK);
  dump_diags(&d);
  mg_profile_diags_free(&d);
  if (!p) return;
  ASSERT_EQ(mg_profile_nrules(p), 4);
  int rb = alg(MG_ALLREDUCE, "allreduce_as_reduce_bcast");
  int rsb = alg(MG_ALLREDUCE, "allreduce_as_reducescatterblock_allgather");
  int rsa = alg(MG_ALLREDUCE, "allreduce_as_reducescatter_allgatherv");
  const int F = MG_TCLASS_FLOAT, I = MG_TCLASS_INT, B = MG_TCLASS_BYTE, N = MG_TCLASS_NONE;
#define AT(np, n, dt, op) mg_profile_lookup_sel(p, MG_ALLREDUCE, np, n, mg_tclass_of(dt), mg_opsel_of(op))
  /* MPI_DOUBLE, MPI_SUM, 1 KiB to 64 KiB */
  ASSERT_EQ(AT(4, 1024, MPI_DOUBLE, MPI_SUM), rb);
  ASSERT_EQ(AT(4, 65536, MPI_DOUBLE, MPI_SUM), rb);
  ASSERT_EQ(AT(4, 4096, MPI_FLOAT, MPI_SUM), rb);
  /* MPI_DOUBLE, MPI_SUM, 512 bytes or 100 KiB: the type+op group decides, no fall-through */
  ASSERT_EQ(AT(4, 512, MPI_DOUBLE, MPI_SUM), 0);
  ASSERT_EQ(AT(4, 102400, MPI_DOUBLE, MPI_SUM), 0);
  /* MPI_DOUBLE, MPI_MAX, 1 KiB to 64 KiB: the rules without selectors */
  ASSERT_EQ(AT(4, 1024, MPI_DOUBLE, MPI_MAX), rsb);
  ASSERT_EQ(AT(4, 65536, MPI_DOUBLE, MPI_MAX), rsb);
  /* MPI_INT (or another C integer type), any op, 1 KiB to 1 MiB */
  ASSERT_EQ(AT(4, 1024, MPI_INT, MPI_SUM), rsa);
  ASSERT_EQ(AT(4, 1u << 20, MPI_UNSIGNED_LONG, MPI_BOR), rsa);
  /* MPI_INT, 512 bytes: type=int decides, the rules without selectors are not consulted */
  ASSERT_EQ(AT(4, 512, MPI_INT, MPI_SUM), 0);
  ASSERT_EQ(AT(4, 2048, MPI_INT, MPI_SUM), rsa); /* (inside 1K-64K too: type=int wins) */
  /* MPI_BYTE, any size */
  ASSERT_EQ(AT(4, 4096, MPI_BYTE, MPI_BOR), 0);
  ASSERT_EQ(mg_profile_lookup_sel(p, MG_ALLREDUCE, 4, SIZE_MAX, B, MG_OPSEL_BAND), 0);
  /* MPI_C_DOUBLE_COMPLEX with MPI_SUM, a derived datatype, 1 KiB to 64 KiB: no class */
  ASSERT_EQ(AT(4, 4096, MPI_C_DOUBLE_COMPLEX, MPI_SUM), rsb);
  ASSERT_EQ(mg_profile_lookup_sel(p, MG_ALLREDUCE, 4, 4096, N, MG_OPSEL_SUM), rsb);
  /* MPI_DOUBLE with a user-defined op, 1 KiB to 64 KiB: type=float op=sum does not match */
  ASSERT_EQ(mg_profile_lookup_sel(p, MG_ALLREDUCE, 4, 4096, F, MG_OPSEL_NONE), rsb);
  /* any call on 5 processes */
  ASSERT_EQ(AT(5, 4096, MPI_DOUBLE, MPI_SUM), 0);
  ASSERT_EQ(mg_profile_lookup_sel(p, MG_ALLREDUCE, 5, 4096, I, MG_OPSEL_SUM), 0);
#undef AT
  check_roundtrip(p);
  mg_profile_free(p);
}

/* ---- the per-call index by size class --------------------------------------------------- */

/* Sizes around every power of two (the class boundaries) and every rule bound, each with every
 * process count of the profile's rules: decisions equal to the brute-force reference. */
static int index_mismatches(const mg_profile *p, mg_coll c, int np) {
  int bad = 0, nix = 0;
  static int ix[100000];
  for (int i = 0; i < mg_profile_nrules(p) && nix < 100000; i++)
    if (mg_profile_rule_at(p, i)->coll == c) ix[nix++] = i;
  size_t probe[3 * 64 + 6];
  int n = 0;
  for (int k = 0; k < 64; k++) {
    size_t b = (size_t)1 << k;
    probe[n++] = b - 1, probe[n++] = b, probe[n++] = b + 1;
  }
  probe[n++] = 0, probe[n++] = SIZE_MAX, probe[n++] = SIZE_MAX - 1;
  int stride = nix > 500 ? nix / 500 : 1; /* the bounds of at most about 500 rules */
  for (int i = 0; i < n + 4 * (nix / stride); i++) {
    size_t bytes;
    if (i < n)
      bytes = probe[i];
    else {
      const mg_profile_rule *r = mg_profile_rule_at(p, ix[(i - n) / 4 * stride]);
      size_t v[4] = {r->lo, r->hi, r->lo - 1, r->hi + 1};
      bytes = v[(i - n) % 4];
    }
    int want = ref_lookup_sel_in(p, ix, nix, c, np, bytes, MG_TCLASS_NONE, MG_OPSEL_NONE);
    int got = slice_decision(p, c, np, bytes, MG_TCLASS_NONE, MG_OPSEL_NONE);
    if (got != want && bad++ < 5)
      fprintf(stderr, "  %s np=%d %zu bytes: slice %d, reference %d\n", mg_colls[c].name, np, bytes, got, want);
    if (mg_profile_lookup(p, c, np, bytes) != want && bad++ < 5)
      fprintf(stderr, "  %s np=%d %zu bytes: lookup differs from the reference\n", mg_colls[c].name, np, bytes);
  }
  return bad;
}

static void test_size_index(void) {
  int rb = alg(MG_ALLREDUCE, "allreduce_as_reduce_bcast");
  int rsb = alg(MG_ALLREDUCE, "allreduce_as_reducescatterblock_allgather");
  TEST_CASE("size index: few ranges are searched without one, more get one, beyond uint16_t none");
  static const int counts[] = {1, MG_PROFILE_INDEX_MIN, MG_PROFILE_INDEX_MIN + 1, 64, 1000, 70000};
  for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
    mg_profile *p = mg_profile_new();
    for (int i = 0; i < counts[k]; i++) /* 8-byte ranges with 8-byte gaps: many per class */
      ASSERT_EQ(mg_profile_add(p, MG_ALLREDUCE, 1, 1, 16 * (size_t)i + 16, 16 * (size_t)i + 23, i % 2 ? rb : rsb,
                               NULL),
                MG_PROFILE_OK);
    ASSERT_EQ(mg_profile_build(p, NULL), MG_PROFILE_OK);
    const mg_profile_sizes *s = mg_profile_slice_sizes(p, MG_ALLREDUCE, 1);
    ASSERT_EQ(s->n, counts[k]);
    ASSERT_EQ(s->idx != NULL, counts[k] > MG_PROFILE_INDEX_MIN && counts[k] <= UINT16_MAX);
    ASSERT_EQ(index_mismatches(p, MG_ALLREDUCE, 1), 0);
    ASSERT_EQ(mg_profile_slice_sizes(p, MG_ALLREDUCE, 2)->n, 0); /* no rule for np=2: an empty slice */
    ASSERT_TRUE(mg_profile_slice_sizes(p, MG_ALLREDUCE, 2)->idx == NULL);
    mg_profile_free(p);
  }

  TEST_CASE("size index: ranges across class boundaries, one byte wide, touching, up to SIZE_MAX");
  mg_profile *p = mg_profile_new();
  size_t lo = 0;
  for (int k = 0; k < 62; k++) { /* [2^k - 1, 2^k + 1] straddles a boundary; then a gap; then a one-byte range */
    size_t b = (size_t)1 << k;
    if (b >= 4) {
      ASSERT_EQ(mg_profile_add(p, MG_ALLREDUCE, 2, 8, b - 1, b + 1, rb, NULL), MG_PROFILE_OK);
      ASSERT_EQ(mg_profile_add(p, MG_ALLREDUCE, 2, 8, b + b / 2, b + b / 2, rsb, NULL), MG_PROFILE_OK);
    }
    lo = b;
  }
  ASSERT_EQ(mg_profile_add(p, MG_ALLREDUCE, 2, 8, lo * 4, SIZE_MAX, 0, NULL), MG_PROFILE_OK); /* explicit default */
  /* the same collective at another process count: the whole range in touching one-byte pieces */
  for (size_t b = 0; b < 40; b++)
    ASSERT_EQ(mg_profile_add(p, MG_ALLREDUCE, 4, 4, b, b, b % 3 ? rb : rsb, NULL), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_add(p, MG_ALLREDUCE, 4, 4, 40, SIZE_MAX, rb, NULL), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_build(p, NULL), MG_PROFILE_OK);
  ASSERT_TRUE(mg_profile_slice_sizes(p, MG_ALLREDUCE, 5)->idx != NULL);
  static const int nps[] = {1, 2, 3, 4, 5, 8, 9};
  for (size_t k = 0; k < sizeof nps / sizeof nps[0]; k++) ASSERT_EQ(index_mismatches(p, MG_ALLREDUCE, nps[k]), 0);
  ASSERT_EQ(same_decisions(p, p), 0);
  check_roundtrip(p);
  mg_profile_free(p);

  TEST_CASE("size index: the type= and op= groups have their own");
  mg_profile_diags d = {0};
  char text[1 << 16];
  size_t u = (size_t)snprintf(text, sizeof text, "mpiguide-profile 2\n");
  for (int i = 0; i < 40; i++)
    u += (size_t)snprintf(text + u, sizeof text - u, "allreduce np=4 %d-%d type=float op=sum %s\n", 100 * i,
                          100 * i + 49, i % 2 ? "allreduce_as_reduce_bcast" : "default");
  for (int i = 0; i < 20; i++)
    u += (size_t)snprintf(text + u, sizeof text - u,
                          "allreduce np=4 %d-%d allreduce_as_reducescatterblock_allgather\n", 1000 * i + 10,
                          1000 * i + 500);
  p = parse(text, "typed-index", &d);
  ASSERT_TRUE(p != NULL);
  dump_diags(&d);
  if (p) {
    const mg_profile_seltab *sel = mg_profile_slice_sel(p, MG_ALLREDUCE, 4);
    ASSERT_TRUE(sel != NULL);
    if (sel) {
      ASSERT_EQ(mg_profile_seltab_pick(sel, MG_TCLASS_FLOAT, MG_OPSEL_SUM)->n, 40);
      ASSERT_TRUE(mg_profile_seltab_pick(sel, MG_TCLASS_FLOAT, MG_OPSEL_SUM)->idx != NULL);
      ASSERT_EQ(mg_profile_seltab_pick(sel, MG_TCLASS_INT, MG_OPSEL_SUM)->n, 20);
    }
    ASSERT_EQ(same_decisions(p, p), 0);
  }
  mg_profile_free(p);
  mg_profile_diags_free(&d);
}

static const struct {
  const char *name;
  void (*fn)(void);
} groups[] = {
    {"roundtrip", test_roundtrip},   {"random_roundtrip", test_random_roundtrip},
    {"errors", test_errors},         {"version", test_version},
    {"limit", test_limit},           {"prf", test_prf},
    {"prf_errors", test_prf_errors}, {"lookup", test_lookup}, {"prf_hier", test_prf_hier},
    {"nesting", test_nesting},       {"hash", test_hash},
    {"merge", test_merge},           {"merge_agree", test_merge_agree}, {"api", test_api},
    {"threads", test_threads},       {"classes", test_classes},
    {"sel_roundtrip", test_sel_roundtrip}, {"sel_version", test_sel_version},
    {"sel_errors", test_sel_errors}, {"sel_lookup", test_sel_lookup},
    {"sel_hash", test_sel_hash},     {"sel_merge", test_sel_merge},
    {"sel_api", test_sel_api},       {"sel_example", test_sel_example},
    {"size_index", test_size_index},
};

int main(int argc, char **argv) {
  if (argc > 2) data_dir = argv[2];
  int ran = 0;
  for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
    if (argc < 2 || !strcmp(argv[1], "all") || !strcmp(argv[1], groups[i].name)) {
      groups[i].fn();
      ran++;
    }
  if (!ran) {
    fprintf(stderr, "test_profile: unknown group '%s'\n", argv[1]);
    return 2;
  }
  return mg_test_summary("test_profile");
}
