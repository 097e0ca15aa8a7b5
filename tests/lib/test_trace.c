/*
 * Unit test of the trace table (src/lib/trace.c, compiled into this program):
 * each rank records many (collective, bytes, algorithm, reason) rows - enough
 * to make the hash table grow several times - some shared by all ranks with
 * rank-dependent call counts, some private to one rank; mg_trace_write()
 * merges them on rank 0 and writes the CSV, which rank 0 reads back and
 * checks: metadata, header, sort order, one row per key, calls = maximum over
 * ranks, ranks = number of ranks that recorded the row, names and reasons.
 *
 *   test_trace FILE     (any number of processes; FILE is overwritten)
 */
#include <mpi.h>
#include <stdlib.h>
#include <unistd.h>

#include "lib/lib.h"
#include "mpiguide.h"
#include "common/test_mpi.h"

#define NSHARED 700

/* Row i shared by all ranks: collective, bytes, algorithm, reason, calls on rank r. */
static mg_coll s_coll(int i) { return (mg_coll)(i % MG_NCOLL); }
static long long s_bytes(int i) { return 4LL * (i / MG_NCOLL) + (i % 3 == 0 ? (1LL << 33) : 0); }
static int s_alg(int i) { return i % 2 ? mg_colls[s_coll(i)].nalgs - 1 : 0; }
static mg_why s_why(int i) { return !s_alg(i) && i % 4 == 0 ? MG_WHY_SCRATCH_CAP : MG_WHY_NONE; }
static int s_calls(int i, int r) { return 1 + (i * 7 + r * 3) % 11; }
/* What chose row i, as the dispatch records it, and how the trace spells it. */
static int s_rule(int i) { return i % 5 == 0 ? MG_RULE_FORCED : i % 5 == 1 ? 10 + i : i % 5 == 2 ? 0 : MG_RULE_NONE; }
static void s_rule_text(int i, char *buf, size_t len) {
  int r = s_rule(i);
  if (r == MG_RULE_FORCED) snprintf(buf, len, "MPIGUIDE_ALG");
  else if (r > 0) snprintf(buf, len, "line %d", r);
  else snprintf(buf, len, "%s", r == 0 ? "profile" : "");
}

int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  mg_test_mpi_start("test_trace");
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char *path = argc > 1 ? argv[1] : "test_trace.csv";

  mg_trace *t = mg_trace_new();
  TEST_CASE("mg_trace_new");
  ASSERT_NE(t == NULL, 1);
  /* Interleave the rows so that growth happens while counts accumulate. */
  for (int round = 0; round < 11; round++)
    for (int i = 0; i < NSHARED; i++)
      if (round < s_calls(i, rank)) mg_trace_add(t, s_coll(i), size, (size_t)s_bytes(i), s_alg(i), s_why(i), s_rule(i));
  /* One private row per rank: scan at 1000+rank bytes, 2 calls. */
  mg_trace_add(t, MG_SCAN, size, 1000 + (size_t)rank, 0, MG_WHY_EMPTY, MG_RULE_NONE);
  mg_trace_add(t, MG_SCAN, size, 1000 + (size_t)rank, 0, MG_WHY_EMPTY, MG_RULE_NONE);
  mg_trace_write(t, path, 0, 0);
  mg_trace_free(t);

  if (rank == 0) {
    FILE *f = fopen(path, "r");
    TEST_CASE(path);
    ASSERT_NE(f == NULL, 1);
    char line[1024], expect[256];
    int meta = 0, header = 0, rows = 0, sorted = 1, seen[NSHARED] = {0}, priv[64] = {0};
    long long prev_c = -1, prev_b = -1;
    long trailer = -1;
    while (f && fgets(line, sizeof line, f)) {
      line[strcspn(line, "\n")] = '\0';
      TEST_CASE(line);
      if (!header && strncmp(line, "#@", 2) == 0) {
        meta += strcmp(line, "#@mpiguide_trace=4") == 0; /* format 4 (3: the trailer) */
        snprintf(expect, sizeof expect, "#@nprocs=%d", size);
        meta += strcmp(line, expect) == 0;
        /* the layout, as check's raw.csv has it: every rank of these tests on this one host */
        char host[64] = "";
        gethostname(host, sizeof host - 1);
        snprintf(expect, sizeof expect, "#@nnodes=1");
        meta += strcmp(line, expect) == 0;
        snprintf(expect, sizeof expect, "#@ranks_per_node=%d", size);
        meta += strcmp(line, expect) == 0;
        snprintf(expect, sizeof expect, "#@hosts=%s:%d", host, size);
        meta += strcmp(line, expect) == 0;
        continue;
      }
      if (!header) {
        ASSERT_STR_EQ(line, "collective,bytes,algorithm,calls,ranks,fallback,nprocs,rule");
        header = 1;
        continue;
      }
      if (!strncmp(line, "#@trace_rows=", 13)) { /* the trailer: last, with the row count */
        trailer = atol(line + 13);
        continue;
      }
      ASSERT_EQ(trailer, -1); /* nothing after the trailer */
      rows++;
      char coll[64] = "", alg[128] = "", why[64] = "", rule[64] = "";
      long long bytes = 0, calls = 0, ranks = 0, nprocs = 0;
      /* 8 fields; fallback and rule may be empty */
      char *fld[8] = {0}, *cur = line;
      int n = 0;
      while (n < 8 && cur) fld[n++] = strsep(&cur, ",");
      ASSERT_EQ(n, 8);
      if (n < 8) continue;
      snprintf(coll, sizeof coll, "%s", fld[0]);
      bytes = atoll(fld[1]);
      snprintf(alg, sizeof alg, "%s", fld[2]);
      calls = atoll(fld[3]);
      ranks = atoll(fld[4]);
      snprintf(why, sizeof why, "%s", fld[5]);
      nprocs = atoll(fld[6]);
      snprintf(rule, sizeof rule, "%s", fld[7]);
      ASSERT_EQ(nprocs, size);
      int c = mg_coll_find(coll);
      ASSERT_NE(c, -1);
      if (c < prev_c || (c == prev_c && bytes < prev_b)) sorted = 0;
      prev_c = c, prev_b = bytes;
      if (c == MG_SCAN && bytes >= 1000 && bytes < 1000 + size) { /* a private row */
        ASSERT_STR_EQ(alg, "default");
        ASSERT_STR_EQ(why, "empty");
        ASSERT_STR_EQ(rule, ""); /* nothing chose it */
        ASSERT_EQ(calls, 2);
        ASSERT_EQ(ranks, 1);
        priv[bytes - 1000]++;
        continue;
      }
      int found = 0;
      for (int i = 0; i < NSHARED && !found; i++) {
        const char *an = s_alg(i) ? mg_colls[s_coll(i)].algs[s_alg(i)].name : "default";
        if ((int)s_coll(i) != c || s_bytes(i) != bytes || strcmp(an, alg) != 0 ||
            strcmp(mg_why_key(s_why(i)), why) != 0)
          continue;
        char want_rule[64];
        s_rule_text(i, want_rule, sizeof want_rule);
        if (strcmp(want_rule, rule) != 0) continue;
        found = 1;
        seen[i]++;
        int want = 0;
        for (int r = 0; r < size; r++) want = s_calls(i, r) > want ? s_calls(i, r) : want;
        ASSERT_EQ(calls, want);
        ASSERT_EQ(ranks, size);
      }
      ASSERT_EQ(found, 1);
    }
    if (f) fclose(f);
    TEST_CASE(path);
    ASSERT_EQ(meta, 5);
    ASSERT_EQ(header, 1);
    ASSERT_EQ(rows, NSHARED + size);
    ASSERT_EQ(trailer, (long)rows);
    ASSERT_EQ(sorted, 1);
    for (int i = 0; i < NSHARED; i++) ASSERT_EQ(seen[i], 1);
    for (int r = 0; r < size && r < 64; r++) ASSERT_EQ(priv[r], 1);
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *g = fopen(tmp, "r");
    ASSERT_EQ(g == NULL, 1); /* the temporary file was renamed */
    if (g) fclose(g);
  }
  int rc = mg_test_mpi_summary(NULL);
  MPI_Finalize();
  return rc;
}
