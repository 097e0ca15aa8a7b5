/*
 * check_raw: validates a raw CSV written by `mpiguide bench` (docs/bench.md)
 * against what was asked for. Exit 0 when every check holds; each failure is
 * printed with what was expected.
 *
 *   check_raw FILE [checks...]
 *     --rows N            exactly N data rows
 *     --series N          exactly N (collective, algorithm, bytes) series
 *     --nrep N            each series: N measurement rows, rep 0..N-1 in order
 *     --warmup W          each series: W warm-up rows first, rep 0..W-1
 *     --meta KEY=VALUE    a metadata line with exactly this value
 *     --meta-has KEY      a metadata line with this key
 *     --roots R,R,...     every row of a rooted collective has root R[round % k] (the rotation);
 *                         other collectives' rows have none
 *     --blocks "A B "     the series' collective names, "allreduce:MPI_INT:MPI_SUM" for a
 *                         reduction, each once in order of appearance, each followed by a blank
 *     --meta-le KEY=X     a metadata line with this key and a number <= X
 *     --stops REASON      every series stopped for this reason (#@stop)
 *     --all-valid         no row has valid = 0
 *     --interleaved       the algorithms of one (collective, size) were measured in the
 *                         same rounds: each round once per algorithm, rounds increasing
 *     --adaptive T B      every series stopped by the RSE rule (median RSE of its valid
 *                         measurements <= T, and > T at the previous decision point, B
 *                         measurements earlier) or reached #@max_nrep
 *     --paper K           series above one element: measurements = max(ceil(t1/l_min), K)
 *                         (+-1 for printing precision), l_min the smallest valid of the
 *                         first K, t1 from #@t1_sec; a one-element series in the file
 *                         is the calibration: t1 = the sum of its valid latencies
 *     --repro DIR         DIR/data_<MPI_Coll>_<alg>.dat for each series' algorithm, with
 *                         its valid measurement rows
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/csv.h"
#include "bench/sample.h"
#include "common/test.h"
#include "util/text.h"

#define MAXS 256
#define MAXM 512

typedef struct {
  char coll[64], alg[64];
  char block[160];  /* the collective as #@stop names it: "allreduce:MPI_BYTE:MPI_BOR" for a reduction */
  long *root;       /* the root column of each row, -1 empty */
  size_t bytes;
  long count, n, cap, nwarm;
  double *lat;
  long *rep, *round;
  int *warm, *valid;
} series;

static series S[MAXS];
static int ns;
static char *mkey[MAXM], *mval[MAXM];
static int nm;
static long rows;

static const char *meta(const char *key) {
  for (int i = 0; i < nm; i++)
    if (!strcmp(mkey[i], key)) return mval[i];
  return NULL;
}

static series *find(const char *block, const char *alg, size_t bytes) {
  for (int i = 0; i < ns; i++)
    if (!strcmp(S[i].block, block) && !strcmp(S[i].alg, alg) && S[i].bytes == bytes) return &S[i];
  return NULL;
}

/* Split a CSV line at commas, keeping empty fields (no quoting in these files). */
/* The fields of a row, as the reader of `check` splits them (a quoted field may hold commas: a
 * struct datatype's spec). */
static int split(char *line, char **fld, int max) { return mg_csv_split(line, fld, max); }

static int load(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) {
    TEST_FAIL("cannot open %s", path);
    return -1;
  }
  char line[20000];
  int header = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = '\0';
    if (!strncmp(line, "#@", 2)) {
      if (header) TEST_FAIL("metadata line after the header: %s", line);
      char *eq = strchr(line, '=');
      if (!eq || nm == MAXM) {
        TEST_FAIL("bad metadata line: %s", line);
        continue;
      }
      *eq = '\0';
      mkey[nm] = strdup(line + 2);
      mval[nm++] = strdup(eq + 1);
      continue;
    }
    if (!header) {
      if (strcmp(line, mg_raw_columns)) TEST_FAIL("header is '%s', expected '%s'", line, mg_raw_columns);
      header = 1;
      continue;
    }
    char *fld[MG_RAW_NCOLS + 1];
    int k = split(line, fld, MG_RAW_NCOLS + 1);
    if (k != MG_RAW_NCOLS) {
      TEST_FAIL("row %ld has %d fields", rows + 1, k);
      continue;
    }
    rows++;
    size_t bytes = strtoull(fld[MG_RAW_BYTES], NULL, 10);
    char block[160];
    if (*fld[MG_RAW_OP]) snprintf(block, sizeof block, "%s:%s:%s", fld[MG_RAW_COLL], fld[MG_RAW_DTYPE], fld[MG_RAW_OP]);
    else snprintf(block, sizeof block, "%s", fld[MG_RAW_COLL]);
    series *s = find(block, fld[MG_RAW_ALG], bytes);
    if (!s) {
      if (ns == MAXS) return -1;
      s = &S[ns++];
      snprintf(s->coll, sizeof s->coll, "%s", fld[MG_RAW_COLL]);
      snprintf(s->block, sizeof s->block, "%s", block);
      snprintf(s->alg, sizeof s->alg, "%s", fld[MG_RAW_ALG]);
      s->bytes = bytes;
      s->count = atol(fld[MG_RAW_COUNT]);
    }
    if (s->n == s->cap) {
      s->cap = s->cap ? 2 * s->cap : 64;
      s->lat = realloc(s->lat, (size_t)s->cap * sizeof *s->lat);
      s->rep = realloc(s->rep, (size_t)s->cap * sizeof *s->rep);
      s->round = realloc(s->round, (size_t)s->cap * sizeof *s->round);
      s->warm = realloc(s->warm, (size_t)s->cap * sizeof *s->warm);
      s->valid = realloc(s->valid, (size_t)s->cap * sizeof *s->valid);
      s->root = realloc(s->root, (size_t)s->cap * sizeof *s->root);
    }
    s->rep[s->n] = atol(fld[MG_RAW_REP]);
    s->round[s->n] = atol(fld[MG_RAW_ROUND]);
    s->warm[s->n] = atoi(fld[MG_RAW_WARMUP]);
    s->lat[s->n] = strtod(fld[MG_RAW_RUNTIME], NULL);
    s->valid[s->n] = atoi(fld[MG_RAW_VALID]);
    s->root[s->n] = *fld[MG_RAW_ROOT] ? atol(fld[MG_RAW_ROOT]) : -1;
    if (s->warm[s->n]) s->nwarm++;
    if (!(s->lat[s->n] >= 0))
      TEST_FAIL("%s %s %zu: negative runtime %s", s->coll, s->alg, s->bytes, fld[MG_RAW_RUNTIME]);
    if (strcmp(fld[MG_RAW_LAUNCH], meta("launch") ? meta("launch") : ""))
      TEST_FAIL("row launch %s differs from #@launch", fld[MG_RAW_LAUNCH]);
    if (meta("nprocs") && strcmp(fld[MG_RAW_NPROCS], meta("nprocs")))
      TEST_FAIL("row nprocs %s differs from #@nprocs", fld[MG_RAW_NPROCS]);
    s->n++;
  }
  fclose(f);
  if (!header) TEST_FAIL("%s: no header line", path);
  return 0;
}

/* Valid measurement (non-warm-up) latencies among the first `first` measurements. */
static long valid_prefix(const series *s, long first, double *out) {
  long m = 0, seen = 0;
  for (long i = 0; i < s->n && seen < first; i++) {
    if (s->warm[i]) continue;
    seen++;
    if (s->valid[i]) out[m++] = s->lat[i];
  }
  return m;
}

static const char *stop_of(const series *s, long *n) {
  static char buf[64];
  for (int i = 0; i < nm; i++) {
    if (strcmp(mkey[i], "stop")) continue;
    char c[160], a[64], r[32];
    size_t b;
    long cnt;
    if (sscanf(mval[i], "%159[^,],%63[^,],%zu,%31[^,],%ld", c, a, &b, r, &cnt) == 5 && !strcmp(c, s->block) &&
        !strcmp(a, s->alg) && b == s->bytes) {
      snprintf(buf, sizeof buf, "%s", r);
      *n = cnt;
      return buf;
    }
  }
  return NULL;
}

static double t1_of(const series *s) {
  for (int i = 0; i < nm; i++) {
    if (strcmp(mkey[i], "t1_sec")) continue;
    char c[64], a[64];
    double t;
    if (sscanf(mval[i], "%63[^,],%63[^,],%lf", c, a, &t) == 3 && !strcmp(c, s->coll) && !strcmp(a, s->alg))
      return t;
  }
  return 0;
}

static void check_repro(const char *dir) {
  for (int i = 0; i < ns; i++) {
    const series *s = &S[i];
    char mpi[64];
    snprintf(mpi, sizeof mpi, "MPI_%c%s", s->coll[0] - 'a' + 'A', s->coll + 1);
    char path[1024];
    snprintf(path, sizeof path, "%s/data_%s_%s.dat", dir, mpi, s->alg);
    FILE *f = fopen(path, "r");
    if (!f) {
      TEST_FAIL("missing %s", path);
      continue;
    }
    char line[20000], test[128];
    int header = 0;
    long n = 0, want = 0;
    for (long j = 0; j < s->n; j++) want += !s->warm[j] && s->valid[j];
    const char *exp_test = strcmp(s->alg, "default") ? s->alg : mpi;
    while (fgets(line, sizeof line, f)) {
      if (line[0] == '#') continue;
      if (!header) {
        if (strcmp(line, "test nrep msize runtime_sec\n")) TEST_FAIL("%s: header '%s'", path, line);
        header = 1;
        continue;
      }
      long rep;
      size_t msize;
      double rt;
      if (sscanf(line, "%127s %ld %zu %lf", test, &rep, &msize, &rt) != 4) {
        TEST_FAIL("%s: bad row '%s'", path, line);
        continue;
      }
      if (strcmp(test, exp_test)) TEST_FAIL("%s: test '%s', expected '%s'", path, test, exp_test);
      n += msize == s->bytes;
    }
    fclose(f);
    if (n != want) TEST_FAIL("%s: %ld rows for %zu bytes, expected %ld", path, n, s->bytes, want);
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: check_raw FILE [checks]\n");
    return 2;
  }
  TEST_CASE(argv[1]);
  if (load(argv[1])) return 1;
  static double buf[1 << 20];
  for (int i = 2; i < argc; i++) {
    const char *o = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : "";
    if (!strcmp(o, "--rows")) {
      if (rows != atol(v)) TEST_FAIL("%ld rows, expected %s", rows, v);
      i++;
    } else if (!strcmp(o, "--series")) {
      if (ns != atoi(v)) TEST_FAIL("%d series, expected %s", ns, v);
      i++;
    } else if (!strcmp(o, "--nrep") || !strcmp(o, "--warmup")) {
      int warm = !strcmp(o, "--warmup");
      long want = atol(v);
      for (int k = 0; k < ns; k++) {
        series *s = &S[k];
        long m = 0;
        for (long j = 0; j < s->n; j++) {
          if (s->warm[j] != warm) continue;
          if (s->rep[j] != m)
            TEST_FAIL("%s %s %zu: %s row %ld has rep %ld", s->coll, s->alg, s->bytes, o + 2, m, s->rep[j]);
          m++;
        }
        if (m != want)
          TEST_FAIL("%s %s %zu: %ld %s rows, expected %ld", s->coll, s->alg, s->bytes, m, o + 2, want);
        for (long j = 1; j < s->n; j++)
          if (s->warm[j] && !s->warm[j - 1])
            TEST_FAIL("%s %s %zu: a warm-up row after a measurement", s->coll, s->alg, s->bytes);
      }
      i++;
    } else if (!strcmp(o, "--meta")) {
      const char *eq = strchr(v, '=');
      char key[128];
      snprintf(key, sizeof key, "%.*s", eq ? (int)(eq - v) : 0, v);
      int found = 0;
      for (int k = 0; k < nm; k++) found |= !strcmp(mkey[k], key) && eq && !strcmp(mval[k], eq + 1);
      if (!found) TEST_FAIL("no metadata line #@%s (have %s)", v, meta(key) ? meta(key) : "none");
      i++;
    } else if (!strcmp(o, "--meta-le")) {
      const char *eq = strchr(v, '=');
      char key[128];
      snprintf(key, sizeof key, "%.*s", eq ? (int)(eq - v) : 0, v);
      if (!eq || !meta(key) || !(atof(meta(key)) <= atof(eq + 1)))
        TEST_FAIL("#@%s is %s, expected <= %s", key, meta(key) ? meta(key) : "missing", eq ? eq + 1 : "?");
      i++;
    } else if (!strcmp(o, "--stops")) {
      for (int k = 0; k < ns; k++) {
        long cnt;
        const char *why = stop_of(&S[k], &cnt);
        if (!why || strcmp(why, v))
          TEST_FAIL("%s %s %zu: stopped by '%s', expected '%s'", S[k].coll, S[k].alg, S[k].bytes, why ? why : "?",
               v);
      }
      i++;
    } else if (!strcmp(o, "--roots")) { /* rooted series: row root = LIST[round % k]; others: empty */
      long want[64];
      int k = 0;
      char list[512];
      snprintf(list, sizeof list, "%s", v);
      for (char *sv = NULL, *t = strtok_r(list, ",", &sv); t && k < 64; t = strtok_r(NULL, ",", &sv)) want[k++] = atol(t);
      int rooted = 0;
      for (int q = 0; q < ns; q++) {
        series *s = &S[q];
        int is_rooted = !strcmp(s->coll, "bcast") || !strcmp(s->coll, "gather") || !strcmp(s->coll, "reduce") ||
                        !strcmp(s->coll, "scatter");
        rooted += is_rooted;
        for (long j = 0; j < s->n; j++) {
          long expect = is_rooted ? want[s->round[j] % k] : -1;
          if (s->root[j] != expect) {
            TEST_FAIL("%s %s %zu: round %ld has root %ld, expected %ld", s->coll, s->alg, s->bytes, s->round[j],
                      s->root[j], expect);
            break;
          }
        }
      }
      if (!rooted) TEST_FAIL("--roots: no rooted series in the file");
      i++;
    } else if (!strcmp(o, "--blocks")) { /* the series' "collective[:datatype:op]" names, sorted, joined by ' ' */
      char got[4096] = "";
      for (int q = 0; q < ns; q++) {
        int seen = 0;
        for (int p = 0; p < q && !seen; p++) seen = !strcmp(S[p].block, S[q].block);
        if (!seen) snprintf(got + strlen(got), sizeof got - strlen(got), "%s ", S[q].block);
      }
      if (strcmp(got, v)) TEST_FAIL("blocks '%s', expected '%s'", got, v);
      i++;
    } else if (!strcmp(o, "--meta-has")) {
      if (!meta(v)) TEST_FAIL("no metadata key #@%s", v);
      i++;
    } else if (!strcmp(o, "--interleaved")) {
      for (int k = 0; k < ns; k++) {
        series *s = &S[k];
        for (long j = 1; j < s->n; j++)
          if (s->round[j] <= s->round[j - 1])
            TEST_FAIL("%s %s %zu: rounds not increasing", s->coll, s->alg, s->bytes);
        for (int q = 0; q < k; q++) {
          series *t = &S[q];
          if (strcmp(t->block, s->block) || t->bytes != s->bytes) continue;
          if (t->n != s->n || memcmp(t->round, s->round, (size_t)s->n * sizeof *s->round))
            TEST_FAIL("%s %zu: %s and %s were not measured in the same rounds", s->coll, s->bytes, t->alg, s->alg);
        }
      }
    } else if (!strcmp(o, "--all-valid")) {
      for (int k = 0; k < ns; k++)
        for (long j = 0; j < S[k].n; j++)
          if (!S[k].valid[j]) {
            TEST_FAIL("%s %s %zu: an invalid row", S[k].coll, S[k].alg, S[k].bytes);
            break;
          }
    } else if (!strcmp(o, "--adaptive") && i + 2 < argc) {
      double target = atof(v);
      long batch = atol(argv[i + 2]);
      long maxn = meta("max_nrep") ? atol(meta("max_nrep")) : 0,
           minn = meta("min_nrep") ? atol(meta("min_nrep")) : 0;
      int rse_stops = 0;
      for (int k = 0; k < ns; k++) {
        series *s = &S[k];
        long n = s->n - s->nwarm, cnt = -1;
        const char *why = stop_of(s, &cnt);
        if (!why || cnt != n) {
          TEST_FAIL("%s %s %zu: no #@stop line for %ld measurements", s->coll, s->alg, s->bytes, n);
          continue;
        }
        if (!strcmp(why, "max")) {
          if (n != maxn)
            TEST_FAIL("%s %s %zu: stopped at max after %ld, max_nrep %ld", s->coll, s->alg, s->bytes, n, maxn);
          continue;
        }
        if (strcmp(why, "rse")) {
          TEST_FAIL("%s %s %zu: stopped by '%s'", s->coll, s->alg, s->bytes, why);
          continue;
        }
        rse_stops++;
        long m = valid_prefix(s, n, buf);
        double r = mg_rse(buf, m, MG_STAT_MEDIAN);
        if (!(r <= target))
          TEST_FAIL("%s %s %zu: RSE %.4g > target %g at the end", s->coll, s->alg, s->bytes, r, target);
        if (n - batch >= 1) {
          m = valid_prefix(s, n - batch, buf);
          r = m >= 3 ? mg_rse(buf, m, MG_STAT_MEDIAN) : INFINITY;
          if (r <= target && m >= minn)
            TEST_FAIL("%s %s %zu: RSE %.4g <= target already after %ld: stopped late", s->coll, s->alg, s->bytes,
                 r, n - batch);
        }
      }
      if (!rse_stops) TEST_FAIL("no series stopped by the RSE rule");
      i += 2;
    } else if (!strcmp(o, "--paper")) {
      long K = atol(v), maxn = meta("max_nrep") ? atol(meta("max_nrep")) : 0;
      long dsize = meta("datatype_size") ? atol(meta("datatype_size")) : 1;
      for (int k = 0; k < ns; k++) {
        series *s = &S[k];
        long n = s->n - s->nwarm;
        double t1 = t1_of(s);
        if (!(t1 > 0)) {
          TEST_FAIL("%s %s: no #@t1_sec", s->coll, s->alg);
          continue;
        }
        if (s->bytes == (size_t)dsize) { /* the calibration itself */
          long m = valid_prefix(s, n, buf);
          double sum = 0;
          for (long j = 0; j < m; j++) sum += buf[j];
          if (fabs(sum - t1) > 1e-9 * (double)m + 1e-8 * t1)
            TEST_FAIL("%s %s: t1 %.9g is not the sum %.9g of the one-element latencies", s->coll, s->alg, t1, sum);
          continue;
        }
        long m = valid_prefix(s, K, buf);
        if (m == 0) {
          TEST_FAIL("%s %s %zu: no valid pilot measurement", s->coll, s->alg, s->bytes);
          continue;
        }
        double lmin = buf[0];
        for (long j = 1; j < m; j++)
          if (buf[j] < lmin) lmin = buf[j];
        double q = ceil(t1 / lmin);
        long want = q > (double)maxn ? maxn : (long)q;
        if (want < K) want = K;
        if (want > maxn) want = maxn;
        if (labs(n - want) > 1)
          TEST_FAIL("%s %s %zu: %ld measurements, the formula gives max(ceil(%.9g / %.9g), %ld) = %ld", s->coll,
               s->alg, s->bytes, n, t1, lmin, K, want);
      }
      i++;
    } else if (!strcmp(o, "--repro")) {
      check_repro(v);
      i++;
    } else {
      fprintf(stderr, "check_raw: unknown check '%s'\n", o);
      return 2;
    }
  }
  if (mg_test_failures) {
    fprintf(stderr, "check_raw: %s: %d check(s) failed\n", argv[1], mg_test_failures);
    return 1;
  }
  printf("check_raw: %s: %ld rows, %d series: all checks passed\n", argv[1], rows, ns);
  return 0;
}
