/*
 * Unit tests of the pure parts of src/lib/env.c, compiled into this program
 * (they are hidden inside libmpiguide): the MPIGUIDE_ALG parser
 * mg_parse_force(), the size parser mg_parse_size() behind
 * MPIGUIDE_SCRATCH_MAX, and the public functions that work before MPI_Init.
 * No MPI_Init: runs without mpiexec.
 *
 * Decisions the tests pin down:
 * - MPIGUIDE_ALG is exact: no spaces around names or '=' and case-sensitive;
 *   the message quotes the offending item so a stray space is visible.
 * - Empty items are ignored ("a=b,", ",a=b", "a=b,,c=d", ",").
 * - A later item for the same collective wins.
 * - On error the forced table is left as it was (all or nothing).
 * - Sizes are digits, then an optional K/M/G/T (powers of 1024), an optional
 *   'i' after the unit and an optional B: nothing else (no sign, no spaces,
 *   no fractions or exponents), and values that do not fit are errors.
 */
#include <limits.h>
#include <stdint.h>

#include "lib/lib.h"
#include "mpiguide.h"
#include "common/test.h"
#include "util/size.h"

static int forced[MG_NCOLL];
static char msg[2048];

/* Parse spec into forced[] (preset to 0); returns the status. */
static int force(const char *spec) {
  memset(forced, 0, sizeof forced);
  TEST_CASE(spec);
  return mg_parse_force(spec, forced, msg, sizeof msg);
}

static int alg(mg_coll c, const char *name) { return mg_alg_find(c, name); }

static void assert_none_forced_but(int except) {
  for (int c = 0; c < MG_NCOLL; c++)
    if (c != except) ASSERT_EQ(forced[c], 0);
}

static void test_force_valid(void) {
  ASSERT_EQ(force(""), MPIGUIDE_OK);
  assert_none_forced_but(-1);
  ASSERT_STR_EQ(msg, "");

  ASSERT_EQ(force("allreduce=allreduce_as_reduce_bcast"), MPIGUIDE_OK);
  ASSERT_EQ(forced[MG_ALLREDUCE], alg(MG_ALLREDUCE, "allreduce_as_reduce_bcast"));
  ASSERT_NE(forced[MG_ALLREDUCE], 0);
  assert_none_forced_but(MG_ALLREDUCE);

  ASSERT_EQ(force("allreduce=allreduce_as_reduce_bcast,bcast=bcast_as_allgatherv,gather=gather_as_gatherv,"
                  "scatter=scatter_as_scatterv"), MPIGUIDE_OK);
  ASSERT_EQ(forced[MG_ALLREDUCE], alg(MG_ALLREDUCE, "allreduce_as_reduce_bcast"));
  ASSERT_EQ(forced[MG_BCAST], alg(MG_BCAST, "bcast_as_allgatherv"));
  ASSERT_EQ(forced[MG_GATHER], alg(MG_GATHER, "gather_as_gatherv"));
  ASSERT_EQ(forced[MG_SCATTER], alg(MG_SCATTER, "scatter_as_scatterv"));
  ASSERT_EQ(forced[MG_ALLGATHER] + forced[MG_ALLTOALL] + forced[MG_REDUCE] + forced[MG_SCAN] +
                forced[MG_REDUCE_SCATTER_BLOCK], 0);

  /* "default" and the registry's own name of row 0 both mean the default. */
  ASSERT_EQ(force("allreduce=default"), MPIGUIDE_OK);
  assert_none_forced_but(-1);
  ASSERT_EQ(force("scan=scan_default"), MPIGUIDE_OK);
  assert_none_forced_but(-1);

  /* Empty items are ignored. */
  const char *empties[] = {",", ",,", "allreduce=allreduce_as_reduce_bcast,",
                           ",allreduce=allreduce_as_reduce_bcast",
                           "allreduce=allreduce_as_reduce_bcast,,bcast=bcast_as_allgatherv,"};
  for (size_t i = 0; i < sizeof empties / sizeof *empties; i++) {
    ASSERT_EQ(force(empties[i]), MPIGUIDE_OK);
    ASSERT_EQ(forced[MG_ALLREDUCE], i < 2 ? 0 : alg(MG_ALLREDUCE, "allreduce_as_reduce_bcast"));
  }
  ASSERT_EQ(forced[MG_BCAST], alg(MG_BCAST, "bcast_as_allgatherv"));

  /* The last item for a collective wins. */
  ASSERT_EQ(force("allreduce=allreduce_as_reduce_bcast,allreduce=default"), MPIGUIDE_OK);
  ASSERT_EQ(forced[MG_ALLREDUCE], 0);
  ASSERT_EQ(force("allreduce=default,allreduce=allreduce_as_reduce_bcast"), MPIGUIDE_OK);
  ASSERT_EQ(forced[MG_ALLREDUCE], alg(MG_ALLREDUCE, "allreduce_as_reduce_bcast"));

  /* Every algorithm of the registry can be forced by its name, and all at once. */
  char all[4096] = "";
  for (int c = 0; c < MG_NCOLL; c++)
    for (int a = 1; a < mg_colls[c].nalgs; a++) {
      char spec[256];
      snprintf(spec, sizeof spec, "%s=%s", mg_colls[c].name, mg_colls[c].algs[a].name);
      ASSERT_EQ(force(spec), MPIGUIDE_OK);
      ASSERT_EQ(forced[c], a);
      assert_none_forced_but(c);
      size_t used = strlen(all);
      if (a == mg_colls[c].nalgs - 1) snprintf(all + used, sizeof all - used, "%s%s", used ? "," : "", spec);
    }
  ASSERT_EQ(force(all), MPIGUIDE_OK);
  for (int c = 0; c < MG_NCOLL; c++) ASSERT_EQ(forced[c], mg_colls[c].nalgs - 1);
}

/* msg names every collective. */
static void assert_lists_collectives(void) {
  ASSERT_CONTAINS(msg, "valid collectives:");
  for (int c = 0; c < MG_NCOLL; c++) {
    char w[64];
    snprintf(w, sizeof w, " %s", mg_colls[c].name);
    ASSERT_CONTAINS(msg, w);
  }
}

static void test_force_invalid(void) {
  const char *syntax[] = {"allreduce", "allreduce=", "=x", "=", "allreduce=allreduce_as_reduce_bcast,bcast"};
  for (size_t i = 0; i < sizeof syntax / sizeof *syntax; i++) {
    ASSERT_EQ(force(syntax[i]), MPIGUIDE_ERR_SYNTAX);
    ASSERT_CONTAINS(msg, "is not of the form <collective>=<algorithm>");
    assert_lists_collectives();
  }
  force("=x");
  ASSERT_CONTAINS(msg, "'=x'");

  ASSERT_EQ(force("foo=bar"), MPIGUIDE_ERR_COLLECTIVE);
  ASSERT_CONTAINS(msg, "unknown collective 'foo'");
  assert_lists_collectives();
  ASSERT_EQ(force("ALLREDUCE=default"), MPIGUIDE_ERR_COLLECTIVE); /* case-sensitive */
  ASSERT_EQ(force("allreduce_as_reduce_bcast"), MPIGUIDE_ERR_SYNTAX);

  /* Spaces are not trimmed: the quoted item shows them. */
  ASSERT_EQ(force(" allreduce=default"), MPIGUIDE_ERR_COLLECTIVE);
  ASSERT_CONTAINS(msg, "unknown collective ' allreduce'");
  ASSERT_EQ(force("allreduce =default"), MPIGUIDE_ERR_COLLECTIVE);
  ASSERT_CONTAINS(msg, "'allreduce '");
  ASSERT_EQ(force("allreduce= allreduce_as_reduce_bcast"), MPIGUIDE_ERR_ALGORITHM);
  ASSERT_CONTAINS(msg, "unknown algorithm ' allreduce_as_reduce_bcast' for allreduce");
  ASSERT_EQ(force("allreduce=allreduce_as_reduce_bcast, bcast=bcast_as_allgatherv"), MPIGUIDE_ERR_COLLECTIVE);
  ASSERT_CONTAINS(msg, "' bcast'");
  ASSERT_EQ(force("allreduce=allreduce_as_reduce_bcast "), MPIGUIDE_ERR_ALGORITHM);

  /* An unknown algorithm lists that collective's algorithms, for every collective. */
  for (int c = 0; c < MG_NCOLL; c++) {
    char spec[128], w[128];
    snprintf(spec, sizeof spec, "%s=nope", mg_colls[c].name);
    ASSERT_EQ(force(spec), MPIGUIDE_ERR_ALGORITHM);
    snprintf(w, sizeof w, "unknown algorithm 'nope' for %s", mg_colls[c].name);
    ASSERT_CONTAINS(msg, w);
    snprintf(w, sizeof w, "valid for %s: default", mg_colls[c].name);
    ASSERT_CONTAINS(msg, w);
    for (int a = 1; a < mg_colls[c].nalgs; a++) {
      snprintf(w, sizeof w, " %s", mg_colls[c].algs[a].name);
      ASSERT_CONTAINS(msg, w);
    }
  }
  /* Another collective's algorithm is unknown here. */
  ASSERT_EQ(force("bcast=allreduce_as_reduce_bcast"), MPIGUIDE_ERR_ALGORITHM);
  ASSERT_EQ(force("allreduce=allreduce_as_reduce_bcast=x"), MPIGUIDE_ERR_ALGORITHM);

  /* Too long an item is an error, not a truncation or overflow. */
  char longspec[600];
  memset(longspec, 'a', sizeof longspec - 1);
  longspec[sizeof longspec - 1] = '\0';
  memcpy(longspec, "allreduce=", 10);
  ASSERT_EQ(force(longspec), MPIGUIDE_ERR_SYNTAX);
  ASSERT_CONTAINS(msg, "too long");

  /* All or nothing: an error leaves the table as it was. */
  const char *bad[] = {"allreduce=allreduce_as_reduce_bcast,bcast=nope", "bcast=bcast_as_allgatherv,foo=bar",
                       "gather=gather_as_gatherv,scan"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    int keep[MG_NCOLL];
    for (int c = 0; c < MG_NCOLL; c++) forced[c] = keep[c] = c % 2;
    TEST_CASE(bad[i]);
    ASSERT_NE(mg_parse_force(bad[i], forced, msg, sizeof msg), MPIGUIDE_OK);
    for (int c = 0; c < MG_NCOLL; c++) ASSERT_EQ(forced[c], keep[c]);
  }
}

/* Small message buffers are truncated, terminated and never overrun. */
static void test_force_small_msg(void) {
  const char *specs[] = {"allreduce", "foo=bar", "reduce_scatter_block=nope"};
  size_t lens[] = {1, 2, 16, 40, 100};
  for (size_t i = 0; i < sizeof specs / sizeof *specs; i++)
    for (size_t j = 0; j < sizeof lens / sizeof *lens; j++) {
      char buf[128];
      memset(buf, 'X', sizeof buf);
      TEST_CASE(specs[i]);
      ASSERT_NE(mg_parse_force(specs[i], forced, buf, lens[j]), MPIGUIDE_OK);
      ASSERT_EQ(strnlen(buf, lens[j]) < lens[j], 1);
      for (size_t k = lens[j]; k < sizeof buf; k++)
        if (buf[k] != 'X') {
          ASSERT_EQ(k, 0); /* wrote past msglen */
          break;
        }
    }
}

static void size_ok(const char *s, unsigned long long want) {
  size_t v = 12345;
  TEST_CASE(s);
  ASSERT_EQ(mg_parse_size(s, &v), 0);
  ASSERT_EQ_U(v, want);
}

static void size_bad(const char *s) {
  size_t v = 12345;
  TEST_CASE(s ? s : "(null)");
  ASSERT_NE(mg_parse_size(s, &v), 0);
  ASSERT_EQ_U(v, 12345); /* untouched on error */
}

static void test_size(void) {
  size_ok("0", 0);
  size_ok("1", 1);
  size_ok("4096", 4096);
  size_ok("512K", 512ull << 10);
  size_ok("512k", 512ull << 10);
  size_ok("64M", 64ull << 20);
  size_ok("64m", 64ull << 20);
  size_ok("3G", 3ull << 30);
  size_ok("1T", 1ull << 40);
  size_ok("1KiB", 1024);
  size_ok("2MiB", 2ull << 20);
  size_ok("2Gi", 2ull << 30);
  size_ok("5KiB", 5ull << 10);
  size_ok("5kib", 5ull << 10);
  size_ok("100B", 100);
  size_ok("0K", 0);
  size_ok("007", 7);
  size_ok("16777215T", 16777215ull << 40);         /* largest T that fits in 64 bits */
  size_ok("18446744073709551615", UINT64_MAX);     /* largest plain number */

  size_bad(NULL);
  size_bad("");
  size_bad("-5");
  size_bad("-0");
  size_bad("abc");
  size_bad("K");
  size_bad("1e9");
  size_bad("1.5M");
  size_bad("1,5M");
  size_bad("0x10");
  size_bad("12Q");
  size_bad("1KX");
  size_bad("1 K");
  size_bad("1K ");
  size_bad("1KK");
  size_bad("1iB ");
  size_bad("99999999T");                 /* overflows 64 bits */
  size_bad("16777216T");                 /* 2^64 */
  size_bad("17179869184G");              /* 2^64 */
  size_bad("18446744073709551616");      /* 2^64 */
  size_bad("99999999999999999999999K");  /* strtoull range error */
  /* No sign, no leading space: strtoull would accept these. */
  size_bad(" 5");
  size_bad("+5");
  size_bad(" -5");
  /* 'i' belongs to a unit (KiB), not to a plain number. */
  size_bad("5i");
  size_bad("5iB");
  /* one rule everywhere: KB, MB, ... are refused as ambiguous, not read as KiB */
  size_t v = 0;
  ASSERT_EQ(mg_size_parse("5KB", &v), MG_SIZE_AMBIGUOUS);
  ASSERT_EQ(mg_size_parse("64MB", &v), MG_SIZE_AMBIGUOUS);
  ASSERT_EQ(mg_size_parse("1tb", &v), MG_SIZE_AMBIGUOUS);
  size_bad("5KB");
}

static void test_api_before_init(void) {
  TEST_CASE("public API before MPI_Init");
  ASSERT_STR_EQ(mpiguide_version(), MPIGUIDE_VERSION);
  ASSERT_EQ(mpiguide_force("allreduce=allreduce_as_reduce_bcast"), MPIGUIDE_ERR_NOT_INIT);
  ASSERT_EQ(mpiguide_calls("allreduce", "default"), 0);
  ASSERT_EQ(mpiguide_calls("allreduce", "allreduce_as_reduce_bcast"), 0);
  ASSERT_EQ(mpiguide_calls("allreduce", "nope"), -1);
  ASSERT_EQ(mpiguide_calls("nope", "default"), -1);
  ASSERT_EQ(mpiguide_calls(NULL, "default"), -1);
  ASSERT_EQ(mpiguide_calls("allreduce", NULL), -1);
  ASSERT_EQ(mpiguide_fallbacks("gather", NULL), 0);
  ASSERT_EQ(mpiguide_fallbacks("gather", "scratch_cap"), 0);
  ASSERT_EQ(mpiguide_fallbacks("gather", "nope"), -1);
  ASSERT_EQ(mpiguide_fallbacks("gather", ""), -1); /* "" is the key of "no fallback" */
  ASSERT_EQ(mpiguide_fallbacks("nope", NULL), -1);
  ASSERT_EQ(mpiguide_fallbacks(NULL, NULL), -1);
  const int st[] = {MPIGUIDE_OK, MPIGUIDE_ERR_SYNTAX, MPIGUIDE_ERR_COLLECTIVE, MPIGUIDE_ERR_ALGORITHM,
                    MPIGUIDE_ERR_NOT_INIT};
  for (size_t i = 0; i < sizeof st / sizeof *st; i++) {
    ASSERT_NE(strlen(mpiguide_strerror(st[i])), 0);
    ASSERT_NE(strcmp(mpiguide_strerror(st[i]), mpiguide_strerror(-1)), 0);
    for (size_t j = 0; j < i; j++) ASSERT_NE(strcmp(mpiguide_strerror(st[i]), mpiguide_strerror(st[j])), 0);
  }
}

int main(void) {
  test_force_valid();
  test_force_invalid();
  test_force_small_msg();
  test_size();
  test_api_before_init();
  return mg_test_summary("test_parse");
}
