/*
 * Unit tests of the LogGP fit and parameter file (src/model/loggp_fit.c, loggp_io.c), no MPI:
 * the fit recovers known parameters from synthetic PRTTs made with the relations of
 * loggp_file.h (exactly without noise, closely with it) and reports where the model does not
 * hold; the writer and the reader round-trip a file; bad files give "path:line: what".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/test.h"
#include "model/loggp_file.h"

/* Known parameters: o_s and o_r grow with the size (a copy), the gap is g + (s-1)G. */
static const double L0 = 1.0e-6, g0 = 0.5e-6, G0 = 0.1e-9;
static double os_of(double s) { return 0.3e-6 + 0.01e-9 * s; }
static double or_of(double s) { return 0.2e-6 + 0.02e-9 * s; }

/* deterministic noise in [-1, 1] */
static unsigned long long rng = 12345;
static double unoise(void) {
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double)(rng >> 11) / 4503599627370496.0 - 1.0;
}

/* The measured columns of a class from the parameters; rel: relative noise on each PRTT. */
static void synth(mg_loggp_class *c, int npts, double rel) {
  memset(c, 0, sizeof *c);
  c->n = 10;
  c->npts = npts;
  c->a = 0;
  c->b = 1;
  for (int i = 0; i < npts; i++) {
    double s = (double)(1UL << i), k = c->n - 1;
    double gap = g0 + (s - 1) * G0;
    double p1 = 2 * (os_of(s) + L0 + (s - 1) * G0 + or_of(s));
    double d = p1 > 2 * gap ? p1 : 2 * gap;
    c->col[MG_LC_SIZE][i] = s;
    c->col[MG_LC_PRTT1][i] = p1 * (1 + rel * unoise());
    c->col[MG_LC_PRTTN][i] = (p1 + k * gap) * (1 + rel * unoise());
    c->col[MG_LC_DELAY][i] = d;
    c->col[MG_LC_PRTTD][i] = (p1 + k * (os_of(s) + d)) * (1 + rel * unoise());
    c->col[MG_LC_OR][i] = or_of(s) * (1 + rel * unoise());
  }
}

static int has_warning(const mg_loggp_class *c, const char *needle) {
  for (int w = 0; w < c->nwarn; w++)
    if (strstr(c->warn[w], needle)) return 1;
  return 0;
}

static void test_fit_exact(void) {
  TEST_CASE("fit, no noise");
  mg_loggp_class c;
  synth(&c, 23, 0); /* 1 B .. 4 MiB */
  mg_loggp_fit(&c, 0.25);
  ASSERT_REL(c.m.L, L0, 1e-9);
  ASSERT_REL(c.m.g, g0, 1e-9);
  ASSERT_REL(c.m.G, G0, 1e-9);
  ASSERT_EQ(c.m.npts, 23);
  for (int i = 0; i < 23; i++) {
    double s = c.col[MG_LC_SIZE][i];
    ASSERT_REL(c.m.os[i], os_of(s), 1e-6);
    ASSERT_REL(c.m.orecv[i], or_of(s), 1e-9);
    ASSERT_REL(c.m.gap[i], g0 + (s - 1) * G0, 1e-9);
    ASSERT_NEAR(c.col[MG_LC_RES1][i], 0, 1e-9);
    ASSERT_NEAR(c.col[MG_LC_RESN][i], 0, 1e-9);
    ASSERT_NEAR(c.col[MG_LC_RESD][i], 0, 1e-9);
  }
  /* the queries of the cost models give back the one-message time */
  ASSERT_REL(mg_loggp_msg_sum(&c.m, 4096), os_of(4096) + L0 + 4095 * G0 + or_of(4096), 1e-9);
  ASSERT_REL(mg_loggp_msg_sum(&c.m, 3000), os_of(3000) + L0 + 2999 * G0 + or_of(3000), 0.05); /* interpolated */
  for (int t = 0; t < 3; t++) ASSERT_NEAR(c.r2[t], 1, 1e-9);
  ASSERT_NEAR(c.r2_gap, 1, 1e-9);
  ASSERT_NEAR(c.maxres, 0, 1e-9);
  ASSERT_EQ(c.nwarn, 0);
  ASSERT_EQ(c.gfit_from, 23 - 7); /* the largest third */
}

static void test_fit_noise(void) {
  TEST_CASE("fit, 0.5 % noise");
  mg_loggp_class c;
  synth(&c, 23, 0.005);
  mg_loggp_fit(&c, 0.25);
  ASSERT_REL(c.m.G, G0, 0.05);
  ASSERT_REL(c.m.g, g0, 0.2);
  ASSERT_REL(c.m.L, L0, 0.2);
  for (int i = 0; i < 23; i++) ASSERT_REL(c.m.os[i], os_of(c.col[MG_LC_SIZE][i]), 0.3);
  ASSERT_MSG(c.maxres < 0.1, "largest residual %g with 0.5 %% noise", c.maxres);
  ASSERT_EQ(c.nwarn, 0);
  for (int t = 0; t < 3; t++) ASSERT_MSG(c.r2[t] > 0.99, "R^2 %g of series %d", c.r2[t], t);
}

static void test_fit_bad(void) {
  TEST_CASE("fit, a protocol change");
  mg_loggp_class c;
  synth(&c, 23, 0);
  /* 1K..8K: the back-to-back messages wait 5 us each (a flow-control stall) */
  for (int i = 10; i <= 13; i++) c.col[MG_LC_PRTTN][i] += 9 * 5e-6;
  mg_loggp_fit(&c, 0.25);
  ASSERT_TRUE(has_warning(&c, "PRTT(n,0,s): residuals above 25 % at 1K-8K"));
  ASSERT_MSG(c.maxres > 0.25, "largest residual %g", c.maxres);
  ASSERT_REL(c.m.G, G0, 1e-9); /* the largest sizes are unaffected */

  TEST_CASE("fit, negative parameters are reported and set to 0");
  synth(&c, 8, 0);
  for (int i = 2; i <= 3; i++) c.col[MG_LC_PRTTD][i] = c.col[MG_LC_PRTT1][i] + 9 * c.col[MG_LC_DELAY][i] - 1e-6;
  c.col[MG_LC_PRTT1][0] = 1e-7; /* below the overheads: L < 0 */
  mg_loggp_fit(&c, 0.25);
  ASSERT_TRUE(has_warning(&c, "o_s negative at 2 size(s) in 4-8"));
  ASSERT_TRUE(has_warning(&c, "L negative"));
  ASSERT_TRUE(c.m.os[2] == 0 && c.m.os[3] == 0 && c.m.L == 0);

  TEST_CASE("fit, noisy sizes");
  synth(&c, 8, 0);
  c.col[MG_LC_NOISE][6] = 0.3;
  c.col[MG_LC_NOISE][7] = 0.5;
  mg_loggp_fit(&c, 0.25);
  ASSERT_TRUE(has_warning(&c, "noisy at 64-128: the standard error of a series' median reaches 50 %"));

  TEST_CASE("fit, overheads that overlap the transfer");
  synth(&c, 8, 0);
  for (int i = 5; i < 8; i++) c.col[MG_LC_OR][i] = c.col[MG_LC_PRTT1][i];
  mg_loggp_fit(&c, 0.25);
  ASSERT_TRUE(has_warning(&c, "o_s + o_r exceed half the round trip at 32-128"));
}

/* ---------- the file ---------- */

static void make_file(mg_loggp_file *lf) {
  memset(lf, 0, sizeof *lf);
  snprintf(lf->mpi_name, sizeof lf->mpi_name, "MPICH");
  snprintf(lf->mpi_library, sizeof lf->mpi_library, "MPICH Version: 4.0\nMPICH Release date: x");
  lf->p = 4;
  lf->nodes = 2;
  lf->rpn_min = lf->rpn_max = 2;
  lf->copy = 7e-11;
  lf->reduce = 9e-11;
  lf->tolerance = 0.25;
  lf->has[0] = lf->has[1] = 1;
  synth(&lf->cls[0], 12, 0.01);
  synth(&lf->cls[1], 20, 0.02);
  lf->cls[1].a = 0;
  lf->cls[1].b = 2;
  mg_loggp_fit(&lf->cls[0], 0.25);
  mg_loggp_fit(&lf->cls[1], 0.01); /* warnings to write */
}

static char tmpdir[] = "/tmp/mg_test_loggp.XXXXXX";

static const char *write_text(const char *name, const char *text) {
  static char path[256];
  snprintf(path, sizeof path, "%s/%s", tmpdir, name);
  FILE *f = fopen(path, "w");
  fputs(text, f);
  fclose(f);
  return path;
}

static void test_roundtrip(void) {
  TEST_CASE("write, read");
  static mg_loggp_file a, b;
  make_file(&a);
  a.cores = 2, a.handoff = 4.5e-6; /* an oversubscribed node: both lines written and read back */
  char path[256], err[512] = "";
  snprintf(path, sizeof path, "%s/ok.txt", tmpdir);
  FILE *f = fopen(path, "w");
  ASSERT_EQ(mg_loggp_write(f, &a, "mpiguide loggp -o ok.txt"), 0);
  fclose(f);
  int rc = mg_loggp_read_file(path, &b, err, sizeof err);
  ASSERT_MSG(rc == 0, "read back: %s", err);
  ASSERT_STR_EQ(b.mpi_name, "MPICH");
  ASSERT_STR_EQ(b.mpi_library, "MPICH Version: 4.0 MPICH Release date: x"); /* one line */
  ASSERT_EQ(b.p, 4);
  ASSERT_EQ(b.nodes, 2);
  ASSERT_EQ(b.rpn_min, 2);
  ASSERT_REL(b.copy, a.copy, 1e-8);
  ASSERT_REL(b.reduce, a.reduce, 1e-8);
  ASSERT_TRUE(b.has[0] && b.has[1]);
  for (int k = 0; k < 2; k++) {
    const mg_loggp_class *x = &a.cls[k], *y = &b.cls[k];
    ASSERT_EQ(y->npts, x->npts);
    ASSERT_EQ(y->n, x->n);
    ASSERT_EQ(y->b, x->b);
    ASSERT_EQ(y->gfit_from, x->gfit_from);
    ASSERT_REL(y->m.L, x->m.L, 1e-8);
    ASSERT_REL(y->m.g, x->m.g, 1e-8);
    ASSERT_REL(y->m.G, x->m.G, 1e-8);
    ASSERT_NEAR(y->maxres, x->maxres, 1e-6);
    ASSERT_EQ(y->m.inter, k);
    ASSERT_EQ(y->m.p, 4);
    for (int i = 0; i < x->npts; i++)
      for (int col = 0; col < MG_LOGGP_NCOLS; col++)
        ASSERT_NEAR(y->col[col][i], x->col[col][i], 1e-8 * fabs(x->col[col][i]) + 1e-15);
    /* version 2 records the fit's warnings: read back as written */
    ASSERT_EQ(y->nwarn, x->nwarn);
    for (int w = 0; w < x->nwarn; w++) ASSERT_STR_EQ(y->warn[w], x->warn[w]);
  }
  ASSERT_EQ(b.version, MG_LOGGP_VERSION);
  ASSERT_TRUE(a.cls[1].nwarn > 0); /* the inter-node class was fitted at 1 %: warnings to write */
  ASSERT_TRUE(mg_loggp_file_class(&b) == &b.cls[1]);
  mg_loggp m;
  ASSERT_EQ(mg_loggp_read(path, &m, err, sizeof err), 0);
  ASSERT_EQ(m.inter, 1); /* several nodes: the inter-node class */
  ASSERT_EQ(m.cores, 2);
  ASSERT_REL(m.handoff, 4.5e-6, 1e-8);
  ASSERT_TRUE(m.wake == 0); /* the cost model sets it, never a file */
  ASSERT_EQ(m.npts, 20);
  ASSERT_REL(m.G, a.cls[1].m.G, 1e-8);
  ASSERT_REL(m.copy, a.copy, 1e-8);
  ASSERT_REL(mg_loggp_msg(&m, 5000), mg_loggp_msg(&a.cls[1].m, 5000), 1e-7);
  /* the cost models' message: half the measured round trip, read back from the prtt1 column */
  ASSERT_REL(2 * mg_loggp_msg(&m, m.size[3]), a.cls[1].col[MG_LC_PRTT1][3], 1e-7);
}

/* The text of a good file with `from` replaced by `to` (first occurrence; NULL: unchanged). */
static char *variant(const char *good, const char *from, const char *to) {
  const char *at = from ? strstr(good, from) : NULL;
  size_t n = strlen(good) + (to ? strlen(to) : 0) + 1;
  char *s = malloc(n);
  if (!at) {
    snprintf(s, n, "%s", good);
    return s;
  }
  snprintf(s, n, "%.*s%s%s", (int)(at - good), good, to, at + strlen(from));
  return s;
}

/* The line number of the first line of text that starts with `key`. */
static int line_of(const char *text, const char *key) {
  int line = 1;
  for (const char *p = text; *p; p++) {
    if ((p == text || p[-1] == '\n') && !strncmp(p, key, strlen(key))) return line;
    if (*p == '\n') line++;
  }
  return -1;
}

static void bad(const char *good, const char *name, const char *from, const char *to, int line,
                const char *message) {
  char *text = variant(good, from, to);
  const char *path = write_text(name, text);
  char err[512] = "", want[512];
  mg_loggp_file *lf = malloc(sizeof *lf);
  TEST_CASE(name);
  ASSERT_EQ(mg_loggp_read_file(path, lf, err, sizeof err), -1);
  snprintf(want, sizeof want, "%s:%d: %s", path, line, message);
  ASSERT_CONTAINS(err, want);
  free(lf);
  free(text);
}

static void test_bad_files(void) {
  static mg_loggp_file a;
  make_file(&a);
  a.has[1] = 0;
  char path[256];
  snprintf(path, sizeof path, "%s/good.txt", tmpdir);
  FILE *f = fopen(path, "w");
  mg_loggp_write(f, &a, NULL);
  fclose(f);
  f = fopen(path, "r");
  static char good[65536];
  size_t n = fread(good, 1, sizeof good - 1, f);
  good[n] = '\0';
  fclose(f);
  int table = line_of(good, "table");
  int cls = line_of(good, "class");

  {
    char *empty = strdup("");
    bad(empty, "empty", NULL, NULL, 1, "empty file: not an mpiguide LogGP file");
    free(empty);
  }
  bad(good, "magic", "mpiguide-loggp 2", "mpiguide-profile 1", 1, "not an mpiguide LogGP file");
  bad(good, "version", "mpiguide-loggp 2", "mpiguide-loggp 3", 1, "format version 3; this mpiguide reads versions 1 to 2");
  bad(good, "version0", "mpiguide-loggp 2", "mpiguide-loggp 0", 1, "format version 0; this mpiguide reads versions 1 to 2");
  /* the version in digits alone (sscanf took "1junk" as 1 and "1 2" as 1) */
  bad(good, "version_junk", "mpiguide-loggp 2", "mpiguide-loggp 1junk", 1, "not an mpiguide LogGP file");
  bad(good, "version_words", "mpiguide-loggp 2", "mpiguide-loggp 1 2", 1, "not an mpiguide LogGP file");
  bad(good, "version_big", "mpiguide-loggp 2", "mpiguide-loggp 99999999999", 1, "not an mpiguide LogGP file");
  /* the warnings of version 2: bounded in number and length, text required, none in version 1 */
  {
    int gfit = line_of(good, "gfit_from");
    char many[4096] = "", longw[600];
    size_t u = 0;
    for (int w = 0; w <= MG_LOGGP_MAXWARN; w++) u += (size_t)snprintf(many + u, sizeof many - u, "\nwarning noisy %d", w);
    snprintf(many + u, sizeof many - u, "\ngfit_from");
    /* 17 warnings where gfit_from was: the 17th on its line + 16 */
    bad(good, "warn_many", "\ngfit_from", many, gfit + MG_LOGGP_MAXWARN, "more than 16 warnings in one class");
    snprintf(longw, sizeof longw, "\nwarning %0300d\ngfit_from", 7);
    bad(good, "warn_long", "\ngfit_from", longw, gfit, "a warning of 300 characters (at most 255)");
    bad(good, "warn_empty", "\ngfit_from", "\nwarning  \ngfit_from", gfit, "'warning' has no text");
    char *v1 = variant(good, "mpiguide-loggp 2", "mpiguide-loggp 1");
    bad(v1, "warn_v1", "\ngfit_from", "\nwarning noisy\ngfit_from", gfit, "unknown key 'warning' (a version-1 file records no warnings)");
    /* a version-1 file (its warnings were comments) still reads, its warnings unknown */
    char *v1c = variant(v1, "\ngfit_from", "\n# warning: noisy at 1K\ngfit_from");
    const char *p1 = write_text("v1.txt", v1c);
    mg_loggp_file *lf = malloc(sizeof *lf);
    char err[512] = "";
    TEST_CASE("version 1 read");
    ASSERT_MSG(mg_loggp_read_file(p1, lf, err, sizeof err) == 0, "%s", err);
    ASSERT_EQ(lf->version, 1);
    ASSERT_EQ(lf->cls[0].nwarn, 0);
    /* two warnings of version 2 read, the blanks around them not */
    char *v2 = variant(good, "\ngfit_from", "\nwarning   noisy at 16K-32K: standard error 196 %  \nwarning b\ngfit_from");
    const char *p2 = write_text("v2.txt", v2);
    TEST_CASE("version 2 warnings read");
    ASSERT_MSG(mg_loggp_read_file(p2, lf, err, sizeof err) == 0, "%s", err);
    ASSERT_EQ(lf->version, 2);
    ASSERT_EQ(lf->cls[0].nwarn, 2);
    ASSERT_STR_EQ(lf->cls[0].warn[0], "noisy at 16K-32K: standard error 196 %");
    ASSERT_STR_EQ(lf->cls[0].warn[1], "b");
    free(lf);
    free(v1);
    free(v1c);
    free(v2);
  }
  bad(good, "number", "\n4 ", "\n4x ", table + 3, "column size: '4x' is not a number");
  /* row 3 (size 4) given size 1: not ascending */
  bad(good, "ascending", "\n4 ", "\n1 ", table + 3, "size 1 does not follow 2: sizes must ascend");
  bad(good, "fields", "\n8 ", "\n8 1 ", table + 4, "a row of the table has 16 fields, the columns are 15");
  bad(good, "unknown_key", "nodes 2", "knots 2", line_of(good, "nodes"), "unknown key 'knots'");
  bad(good, "negative", "copy ", "copy -", line_of(good, "copy"), "copy: -");
  bad(good, "column_name", "table size prtt1", "table size prtt2", table, "column 2 of the table is 'prtt2'");
  bad(good, "missing_key", "\nL ", "\n# L ", cls, "class intra has no 'L'");
  bad(good, "pair", "pair 0 1", "pair 0 9", cls, "class intra: pair 0 9 is not two ranks below p 4");
  /* a cut file: everything from the table's last row on is gone */
  char *cut = variant(good, NULL, NULL);
  *(strstr(cut, "\n2048 ") + 1) = '\0'; /* at a line break: the missing 'end' tells */
  int last = line_of(good, "1024 ");
  bad(cut, "cut", NULL, NULL, last, "the table of class intra does not end (no 'end' line): is the file cut?");
  free(cut);
  /* every k-th prefix of the good file: refused, naming the file, or (the whole file) read */
  {
    size_t gl = strlen(good);
    mg_loggp_file *lf = malloc(sizeof *lf);
    TEST_CASE("walk");
    for (size_t k = 0; k < gl; k += gl / 300 + 1) {
      char *pre = strndup(good, k);
      const char *wp = write_text("walk", pre);
      char err[512] = "";
      int rc = mg_loggp_read_file(wp, lf, err, sizeof err);
      ASSERT_MSG(rc == -1 && strstr(err, wp), "prefix %zu of %zu: rc %d, %s", k, gl, rc, err);
      free(pre);
    }
    free(lf);
  }
  /* cut inside the last line (its "end"): no line break */
  cut = variant(good, NULL, NULL);
  size_t cl = strlen(cut);
  ASSERT_TRUE(cl > 2 && cut[cl - 1] == '\n');
  cut[cl - 2] = '\0';
  bad(cut, "cut_line", NULL, NULL, line_of(good, "end"), "the last line has no line break");
  free(cut);
  {
    char err[512] = "";
    mg_loggp m;
    TEST_CASE("missing file");
    ASSERT_EQ(mg_loggp_read("/nonexistent/loggp.txt", &m, err, sizeof err), -1);
    ASSERT_CONTAINS(err, "/nonexistent/loggp.txt: cannot read");
  }
}

int main(void) {
  if (!mkdtemp(tmpdir)) {
    perror("mkdtemp");
    return 1;
  }
  test_fit_exact();
  test_fit_noise();
  test_fit_bad();
  test_roundtrip();
  test_bad_files();
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", tmpdir);
  if (mg_test_failures == 0 && system(cmd) != 0) fprintf(stderr, "could not remove %s\n", tmpdir);
  return mg_test_summary("test_loggp");
}
