/*
 * A profile cut short, or pieced together, must never read as another profile (issue 45 item 4;
 * docs/profile.md, "A whole file"). Groups (CTest tune.cut.<group>, data directory as argv[2]):
 *
 *   walk      every byte prefix of every version-3 fixture in data/ (every k-th of the large
 *             generated one) is refused as cut, with one message saying so, or is the whole file
 *             (same canonical text, hash and rules)
 *   messages  the end line's problems and a last line without a line break, each message whole
 *   old       versions 1 and 2 still read (same hash as their version-3 form); their cut last line
 *             is refused; a cut exactly at a line end is not detectable there (file_version < 3,
 *             which `mpiguide profile validate` warns about)
 *   upgrade   mg_profile_upgrade_text: old_v1.prof becomes example.prof byte for byte, CRLF kept,
 *             a version-3 text unchanged, an invalid one refused; mpiguide profile upgrade in place
 *   prf       PGMPITuneLib .prf: a last line without a line break refused, a cut between lines
 *             caught by the counts, every prefix refused or the whole profile; lines bounded
 *   failed    a failed read leaves *out NULL; a parsed profile written and re-read gives the same
 *             hash and text
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/test.h"
#include "tune/profile.h"

static const char *data_dir = ".";

/* A file of data/ read whole (NUL-terminated too); NULL if it cannot be read. */
static char *slurp(const char *name, size_t *len) {
  char path[1024];
  snprintf(path, sizeof path, "%s/%s", data_dir, name);
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, n = 0;
  char *b = malloc(cap + 1);
  for (size_t got; b && (got = fread(b + n, 1, cap - n, f)) > 0;) {
    n += got;
    if (n == cap) {
      char *nb = realloc(b, 2 * cap + 1);
      if (!nb) free(b);
      b = nb;
      cap *= 2;
    }
  }
  fclose(f);
  if (b) b[n] = '\0';
  *len = n;
  return b;
}

static const char *diag(const mg_profile_diags *d, int i) {
  static char buf[4][4096];
  static int k;
  char *b = buf[k++ % 4];
  if (i >= d->n) return "(no such diagnostic)";
  mg_profile_diag_format(&d->v[i], b, sizeof buf[0]);
  return b;
}

typedef int (*parse_fn)(const char *, size_t, const char *, mg_profile **, mg_profile_diags *);

/*
 * Every prefix buf[0..L) with L < len, L % step == 0 or within `ends` bytes of either end, through
 * parser: refused with one diagnostic that says "cut" and *out left NULL, or the same profile as
 * the whole (canonical text and hash). `may_equal` allows the latter (a .prf whose cut lost only
 * trailing comments). Returns the number of prefixes tried.
 */
static int walk(parse_fn parser, const char *name, const char *buf, size_t len, size_t step, size_t ends,
                int may_equal) {
  mg_profile *whole = NULL, *p;
  mg_profile_diags d = {0};
  ASSERT_EQ(parser(buf, len, name, &whole, &d), MG_PROFILE_OK);
  mg_profile_diags_free(&d);
  if (!whole) return 0;
  char *want = mg_profile_format(whole, NULL);
  uint64_t hash = mg_profile_hash(whole);
  int tried = 0, bad = 0, same = 0;
  size_t first_bad = 0;
  char why[4200] = "";
  for (size_t L = 0; L < len; L++) {
    if (L % step && L > ends && len - L > ends) continue;
    tried++;
    p = (mg_profile *)0x1; /* must be reset by the reader */
    int st = parser(buf, L, name, &p, &d);
    const char *m = d.n ? diag(&d, 0) : "";
    int ok;
    if (st == MG_PROFILE_OK) {
      char *got = p ? mg_profile_format(p, NULL) : NULL;
      ok = may_equal && got && want && strcmp(got, want) == 0 && mg_profile_hash(p) == hash;
      same += ok;
      free(got);
      mg_profile_free(p);
    } else
      ok = p == NULL && d.n == 1 && strstr(m, "cut") != NULL &&
           (st == MG_PROFILE_TRUNCATED || (L == 0 && st == MG_PROFILE_VERSION));
    if (!ok && !bad++) {
      first_bad = L;
      snprintf(why, sizeof why, "status %d, %d diagnostics, first: %s", st, d.n, m);
    }
    mg_profile_diags_free(&d);
  }
  ASSERT_MSG(bad == 0, "%s: %d of %d prefixes neither refused as cut nor the whole profile; the first of %zu bytes "
                       "(of %zu): %s",
             name, bad, tried, first_bad, len, why);
  if (!may_equal) ASSERT_EQ(same, 0);
  free(want);
  mg_profile_free(whole);
  return tried;
}

/* ---- walk -------------------------------------------------------------------------------- */

/* A large profile through the API, formatted: rules for every collective, many sizes. */
static char *big_profile(size_t *len) {
  mg_profile *p = mg_profile_new();
  for (int c = 0; c < MG_NCOLL; c++) {
    if (!mg_colls[c].known) {
      mg_profile_add(p, (mg_coll)c, 2, 2, 0, SIZE_MAX, 0, "unknown size: * only");
      continue;
    }
    for (int np = 2; np <= 4; np++)
      for (int k = 0; k < 20; k++) {
        int a = (k + np) % mg_colls[c].nalgs;
        if (mg_colls[c].algs[a].restrictions & MG_R_MEASURE_ONLY) a = 0; /* a profile refuses them */
        mg_profile_add(p, (mg_coll)c, np, np, (size_t)1 << k, ((size_t)2 << k) - 1, a,
                       k % 3 ? NULL : "slowdown 1.2 [1.1, 1.3]");
      }
  }
  mg_profile_add_preamble(p, "generated by test_truncation.c");
  char *text = mg_profile_build(p, NULL) == MG_PROFILE_OK ? mg_profile_format(p, len) : NULL;
  mg_profile_free(p);
  return text;
}

static void test_walk(void) {
  DIR *dir = opendir(data_dir);
  ASSERT_TRUE(dir != NULL);
  if (!dir) return;
  int files = 0;
  struct dirent *e;
  while ((e = readdir(dir)) != NULL) {
    size_t len, n = strlen(e->d_name);
    if (!(n > 5 && strcmp(e->d_name + n - 5, ".prof") == 0) && !(n > 10 && strcmp(e->d_name + n - 10, ".canonical") == 0))
      continue;
    char *buf = slurp(e->d_name, &len);
    if (buf && strncmp(buf, "mpiguide-profile 3\n", 19) == 0) {
      TEST_CASE(e->d_name);
      files++;
      walk(mg_profile_parse, e->d_name, buf, len, 1, 0, 0);
    }
    free(buf);
  }
  closedir(dir);
  TEST_CASE("the version-3 fixtures of data/");
  ASSERT_MSG(files >= 4, "only %d version-3 fixtures in %s (example, typed, typed_example, prf.canonical)", files,
             data_dir);

  TEST_CASE("a large generated profile, 300 prefixes spread over it and every one within 200 bytes of its ends");
  size_t len = 0;
  char *big = big_profile(&len);
  ASSERT_TRUE(big != NULL && len > 50000);
  if (big) ASSERT_TRUE(walk(mg_profile_parse, "big", big, len, len / 300 + 1, 200, 0) >= 500);
  free(big);
}

/* ---- messages ---------------------------------------------------------------------------- */

#define HINT                                                                                                  \
  "write it again (mpiguide tune, mpiguide profile merge), or copy it whole; a site replaces a published "  \
  "profile by renaming a complete new file onto it (docs/profile.md, \"Replacing a published profile\")"

static void expect(const char *text, const char *name, int status, const char *const *want, int nwant) {
  mg_profile_diags d = {0};
  mg_profile *p = (mg_profile *)0x1;
  int st = mg_profile_parse(text, strlen(text), name, &p, &d);
  ASSERT_TRUE(p == NULL);
  ASSERT_EQ(st, status);
  ASSERT_EQ(d.n, nwant);
  for (int i = 0; i < nwant && i < d.n; i++) ASSERT_STR_EQ(diag(&d, i), want[i]);
  mg_profile_diags_free(&d);
}

static void test_messages(void) {
  TEST_CASE("version 3 without its end line: cut after the last whole line");
  expect("mpiguide-profile 3\n# p\nbcast np=4 1K default\n", "c", MG_PROFILE_TRUNCATED,
         (const char *const[]){"c:3: no end line after line 3: a version-3 profile ends with 'end-of-profile "
                               "rules=1'; the file looks cut (truncated) after this line; " HINT},
         1);
  TEST_CASE("the end line's count is not the number of rule lines");
  expect("mpiguide-profile 3\nbcast np=4 1K default\nbcast np=4 2K default\nend-of-profile rules=3\n", "c",
         MG_PROFILE_TRUNCATED,
         (const char *const[]){"c:4: the end line says rules=3, but the file has 2 rule lines: it looks cut or "
                               "pieced together (rewritten while it was read); " HINT
                               "; if you edited it by hand, write rules=2"},
         1);
  TEST_CASE("anything after the end line, even a blank line");
  const char *const after[] = {"c:3: text after the end line (line 2): the file looks pieced together (two "
                               "profiles, or rewritten while it was read); " HINT};
  expect("mpiguide-profile 3\nend-of-profile rules=0\n\n", "c", MG_PROFILE_TRUNCATED, after, 1);
  expect("mpiguide-profile 3\nend-of-profile rules=0\n# tail\n", "c", MG_PROFILE_TRUNCATED, after, 1);
  expect("mpiguide-profile 3\nend-of-profile rules=0\nbcast np=4 1K default\nend-of-profile rules=1\n", "c",
         MG_PROFILE_TRUNCATED, after, 1);
  TEST_CASE("a last line without a line break, in every version, also inside a trailing comment and between \\r and \\n");
  const char *const nolb[] = {"c:2: the last line has no line break: the file looks cut (truncated) in this line, "
                              "e.g. copied or written while it was read; " HINT};
  expect("mpiguide-profile 1\nbcast np=4 1K default", "c", MG_PROFILE_TRUNCATED, nolb, 1);
  expect("mpiguide-profile 2\n# a comm", "c", MG_PROFILE_TRUNCATED, nolb, 1);
  expect("mpiguide-profile 3\r\nend-of-profile rules=0\r", "c", MG_PROFILE_TRUNCATED, nolb, 1);
  expect("mpiguide-profile 3\nend-of-profile rules=0", "c", MG_PROFILE_TRUNCATED, nolb, 1);
  expect("mpiguide-profile 1\nbcast np=4 1K defa", "c", MG_PROFILE_TRUNCATED, nolb, 1); /* not "unknown algorithm" */
  TEST_CASE("a bad end line; an end line in versions 1 and 2");
  expect("mpiguide-profile 3\nend-of-profile 0\n", "c", MG_PROFILE_SYNTAX,
         (const char *const[]){"c:2: bad end line: expected 'end-of-profile rules=<N>', N the number of rule lines, "
                               "got 'end-of-profile 0'"},
         1);
  expect("mpiguide-profile 3\nend-of-profile rules=-1\n", "c", MG_PROFILE_SYNTAX,
         (const char *const[]){"c:2: bad end line: expected 'end-of-profile rules=<N>', N the number of rule lines, "
                               "got 'end-of-profile rules=-1'"},
         1);
  expect("mpiguide-profile 2\nbcast np=4 1K default\nend-of-profile rules=1\n", "c", MG_PROFILE_VERSION,
         (const char *const[]){"c:3: 'end-of-profile' is the end line of version 3 profiles: change line 1 to "
                               "'mpiguide-profile 3', or delete this line"},
         1);
  TEST_CASE("an empty file");
  expect("", "c", MG_PROFILE_VERSION,
         (const char *const[]){"c:1: empty profile (an empty file: cut, or not written yet?): the first line must be "
                               "'mpiguide-profile 3' (and as the last line 'end-of-profile rules=<N>', N the number "
                               "of rules)"},
         1);
  TEST_CASE("a whole version-3 file with CRLF line ends, a byte order mark and a comment on the end line");
  mg_profile_diags d = {0};
  mg_profile *p = NULL;
  static const char crlf[] = "\xEF\xBB\xBFmpiguide-profile 3\r\nbcast np=4 1K default\r\nend-of-profile rules=1  # end\r\n";
  ASSERT_EQ(mg_profile_parse(crlf, sizeof crlf - 1, "c", &p, &d), MG_PROFILE_OK);
  ASSERT_EQ(mg_profile_nrules(p), 1);
  ASSERT_EQ(mg_profile_file_version(p), 3);
  mg_profile_free(p);
  mg_profile_diags_free(&d);
}

/* ---- old versions ------------------------------------------------------------------------ */

static void test_old(void) {
  static const char *const pairs[][2] = {{"old_v1.prof", "example.prof"}, {"old_v2.prof", "typed_example.prof"}};
  for (int i = 0; i < 2; i++) {
    TEST_CASE(pairs[i][0]);
    size_t la, lb;
    char *a = slurp(pairs[i][0], &la), *b = slurp(pairs[i][1], &lb);
    ASSERT_TRUE(a && b);
    mg_profile *pa = NULL, *pb = NULL;
    mg_profile_diags d = {0};
    ASSERT_EQ(mg_profile_parse(a, la, pairs[i][0], &pa, &d), MG_PROFILE_OK);
    ASSERT_EQ(mg_profile_parse(b, lb, pairs[i][1], &pb, &d), MG_PROFILE_OK);
    ASSERT_EQ(d.n, 0);
    ASSERT_EQ(mg_profile_file_version(pa), i + 1);
    ASSERT_EQ(mg_profile_file_version(pb), 3);
    ASSERT_EQ_U(mg_profile_hash(pa), mg_profile_hash(pb));
    ASSERT_EQ(mg_profile_nrules(pa), mg_profile_nrules(pb));
    /* every prefix that ends inside a line is refused as cut; one that ends at a line end reads as
     * a shorter profile: that is what version 3 fixes */
    int refused = 0, shorter = 0, wrong = 0;
    for (size_t L = 1; a && L < la; L++) {
      mg_profile *p = NULL;
      int st = mg_profile_parse(a, L, "cut", &p, &d);
      if (a[L - 1] != '\n')
        refused += st == MG_PROFILE_TRUNCATED && !p && d.n == 1 && strstr(diag(&d, 0), "looks cut");
      else if (st == MG_PROFILE_OK)
        shorter += mg_profile_nrules(p) <= mg_profile_nrules(pa);
      else
        wrong++;
      wrong += a[L - 1] != '\n' && st != MG_PROFILE_TRUNCATED;
      mg_profile_free(p);
      mg_profile_diags_free(&d);
    }
    int lines = 0;
    for (size_t k = 0; k < la; k++) lines += a[k] == '\n';
    ASSERT_EQ(refused, (int)la - 1 - (lines - 1));
    ASSERT_EQ(shorter, lines - 1);
    ASSERT_EQ(wrong, 0);
    mg_profile_free(pa);
    mg_profile_free(pb);
    free(a);
    free(b);
  }
}

/* ---- upgrade ----------------------------------------------------------------------------- */

static void test_upgrade(void) {
  TEST_CASE("old_v1.prof upgraded is example.prof, byte for byte; old_v2.prof is typed_example.prof");
  static const char *const pairs[][2] = {{"old_v1.prof", "example.prof"}, {"old_v2.prof", "typed_example.prof"}};
  for (int i = 0; i < 2; i++) {
    size_t la, lb, lo;
    char *a = slurp(pairs[i][0], &la), *b = slurp(pairs[i][1], &lb), *out = NULL;
    mg_profile_diags d = {0};
    ASSERT_EQ(mg_profile_upgrade_text(a, la, pairs[i][0], &out, &lo, &d), MG_PROFILE_OK);
    ASSERT_TRUE(out && lo == lb && b && memcmp(out, b, lb) == 0);
    free(out);
    ASSERT_EQ(mg_profile_upgrade_text(b, lb, pairs[i][1], &out, &lo, &d), MG_PROFILE_OK); /* already 3 */
    ASSERT_TRUE(out && lo == lb && memcmp(out, b, lb) == 0);
    free(out), free(a), free(b);
    mg_profile_diags_free(&d);
  }
  TEST_CASE("upgrade: CRLF kept, a trailing blank line reused, a version line with a comment");
  mg_profile_diags d = {0};
  char *out = NULL;
  size_t lo;
  static const char crlf[] = "mpiguide-profile 1  # old\r\nbcast np=4 1K default\r\n\r\n";
  ASSERT_EQ(mg_profile_upgrade_text(crlf, sizeof crlf - 1, "x", &out, &lo, &d), MG_PROFILE_OK);
  ASSERT_STR_EQ(out, "mpiguide-profile 3  # old\r\nbcast np=4 1K default\r\n\r\nend-of-profile rules=1\r\n");
  free(out);
  TEST_CASE("upgrade: an invalid or cut input is refused, nothing returned");
  static const char cut[] = "mpiguide-profile 1\nbcast np=4 1K def";
  out = (char *)0x1;
  ASSERT_EQ(mg_profile_upgrade_text(cut, sizeof cut - 1, "x", &out, &lo, &d), MG_PROFILE_TRUNCATED);
  ASSERT_TRUE(out == NULL);
  mg_profile_diags_free(&d);

  TEST_CASE("mpiguide profile upgrade FILE: rewritten in place, comments kept; an invalid FILE untouched");
  char dir[] = "/tmp/mg_test_upgrade_XXXXXX", path[256], bad[256];
  ASSERT_TRUE(mkdtemp(dir) != NULL);
  snprintf(path, sizeof path, "%s/p.prof", dir);
  snprintf(bad, sizeof bad, "%s/bad.prof", dir);
  FILE *f = fopen(path, "w");
  fputs("mpiguide-profile 1\n# kept\nbcast np=4 1K default  # also kept\n", f);
  fclose(f);
  f = fopen(bad, "w");
  fputs("mpiguide-profile 1\nbcast np=4 1K nope\n", f);
  fclose(f);
  char cmd[] = "upgrade", *argv[] = {cmd, path, bad, NULL};
  fflush(stdout);
  ASSERT_EQ(mg_profile_upgrade_main(3, argv), 1);
  size_t len;
  const char *keep = data_dir;
  data_dir = dir;
  char *got = slurp("p.prof", &len), *untouched = slurp("bad.prof", &len);
  data_dir = keep;
  ASSERT_STR_EQ(got, "mpiguide-profile 3\n# kept\nbcast np=4 1K default  # also kept\n\nend-of-profile rules=1\n");
  ASSERT_STR_EQ(untouched, "mpiguide-profile 1\nbcast np=4 1K nope\n");
  free(got), free(untouched);
  unlink(path), unlink(bad);
  rmdir(dir);
}

/* ---- .prf -------------------------------------------------------------------------------- */

static void test_prf(void) {
  TEST_CASE(".prf: every prefix of p_allgather.prf refused as cut, or the whole profile");
  size_t len;
  char *buf = slurp("p_allgather.prf", &len);
  ASSERT_TRUE(buf != NULL);
  if (buf) walk(mg_profile_parse_prf, "p_allgather.prf", buf, len, 1, 0, 1);
  TEST_CASE(".prf: a last line without a line break, and a cut between lines");
  mg_profile_diags d = {0};
  mg_profile *p = (mg_profile *)0x1;
  static const char nolb[] = "MPI_Bcast\n4\n1\n1 default\n1\n0 10 1";
  ASSERT_EQ(mg_profile_parse_prf(nolb, sizeof nolb - 1, "x.prf", &p, &d), MG_PROFILE_TRUNCATED);
  ASSERT_TRUE(p == NULL);
  ASSERT_EQ(d.n, 1);
  ASSERT_STR_EQ(diag(&d, 0), "x.prf:6: the last line has no line break: the file looks cut (truncated) in this "
                             "line, e.g. copied or written while it was read; copy it whole, or if it is whole, end "
                             "its last line with a line break");
  mg_profile_diags_free(&d);
  static const char early[] = "MPI_Bcast\n4\n1\n1 default\n2\n0 10 1\n";
  ASSERT_EQ(mg_profile_parse_prf(early, sizeof early - 1, "x.prf", &p, &d), MG_PROFILE_TRUNCATED);
  ASSERT_STR_EQ(diag(&d, 0), "x.prf:6: unexpected end of file: line 5 announces 2 ranges, found 1: the file looks "
                             "cut (truncated)");
  mg_profile_diags_free(&d);
  TEST_CASE("a line longer than 1 MiB, in both readers, without reading on");
  size_t n = (3u << 19) + 40;
  char *huge = malloc(n);
  ASSERT_TRUE(huge != NULL);
  if (huge) {
    memcpy(huge, "mpiguide-profile 1\n", 19);
    memset(huge + 19, 'a', n - 20);
    huge[n - 1] = '\n';
    ASSERT_EQ(mg_profile_parse(huge, n, "h", &p, &d), MG_PROFILE_SYNTAX);
    ASSERT_EQ(d.n, 1);
    ASSERT_STR_EQ(diag(&d, 0), "h:2: the line is longer than 1048576 bytes: this is not a profile");
    mg_profile_diags_free(&d);
    ASSERT_EQ(mg_profile_parse_prf(huge + 19, n - 19, "h.prf", &p, &d), MG_PROFILE_SYNTAX);
    ASSERT_STR_EQ(diag(&d, 0), "h.prf:1: the line is longer than 1048576 bytes: this is not a profile");
    mg_profile_diags_free(&d);
  }
  free(huge);
  free(buf);
}

/* ---- failed reads and round trips -------------------------------------------------------- */

static void test_failed(void) {
  TEST_CASE("a failed read leaves *out NULL (load, open, parse), a missing file too");
  mg_profile_diags d = {0};
  mg_profile *p = (mg_profile *)0x1;
  ASSERT_NE(mg_profile_load("/nonexistent/x.prof", &p, &d), MG_PROFILE_OK);
  ASSERT_TRUE(p == NULL);
  p = (mg_profile *)0x1;
  ASSERT_NE(mg_profile_open("/nonexistent/x.prf", &p, &d), MG_PROFILE_OK);
  ASSERT_TRUE(p == NULL);
  mg_profile_diags_free(&d);
  TEST_CASE("every version-3 fixture written and re-read: the same text and hash");
  static const char *const names[] = {"example.prof", "typed_example.prof", "typed.prof", "old_v1.prof",
                                      "old_v2.prof"};
  for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
    size_t len, l2;
    char *buf = slurp(names[i], &len);
    mg_profile *q = NULL;
    p = NULL;
    ASSERT_EQ(mg_profile_parse(buf, len, names[i], &p, &d), MG_PROFILE_OK);
    char *text = p ? mg_profile_format(p, &l2) : NULL;
    ASSERT_TRUE(text != NULL);
    ASSERT_EQ(text ? mg_profile_parse(text, l2, "again", &q, &d) : -1, MG_PROFILE_OK);
    ASSERT_EQ_U(mg_profile_hash(q), mg_profile_hash(p));
    char *again = q ? mg_profile_format(q, NULL) : NULL;
    ASSERT_TRUE(again && text && strcmp(again, text) == 0);
    free(again), free(text), free(buf);
    mg_profile_free(p), mg_profile_free(q);
    mg_profile_diags_free(&d);
  }
}

static const struct {
  const char *name;
  void (*fn)(void);
} groups[] = {{"walk", test_walk}, {"messages", test_messages}, {"old", test_old},
              {"upgrade", test_upgrade}, {"prf", test_prf}, {"failed", test_failed}};

int main(int argc, char **argv) {
  if (argc > 2) data_dir = argv[2];
  int ran = 0;
  for (size_t i = 0; i < sizeof groups / sizeof groups[0]; i++)
    if (argc < 2 || !strcmp(argv[1], "all") || !strcmp(argv[1], groups[i].name)) {
      groups[i].fn();
      ran++;
    }
  if (!ran) {
    fprintf(stderr, "test_truncation: unknown group '%s'\n", argc > 1 ? argv[1] : "");
    return 2;
  }
  return mg_test_summary("test_truncation");
}
