/*
 * Unit test of the wrappers' first-level decision (src/lib/lib.h: ctx.path set by mg_paths_set,
 * mg_fast_default, mg_fast_untouched; the per-slice tables of src/lib/comm_cache.c), compiled into
 * this program through mglib. The first level lets a call go straight to its PMPI_ function; it
 * must never do so where mg_dispatch would run a mock-up (every rank would not take the same
 * algorithm otherwise), and it must settle what it claims to settle:
 *  - paths: what each mode asks of each operation (pass-through, counted default, tuned lookup,
 *    dispatch);
 *  - for many profiles (the benchmark's 64 ranges, random ones with gaps and open ends, one with
 *    selectors, one without rules for the communicator's size) and every size at and around each
 *    range's ends and each power of two: "the default" from the first level implies that
 *    mg_comm_rule (what mg_dispatch looks up) finds no rule or one naming the default, and a size
 *    in the gap before, or inside, the first range that can hold its class is settled;
 *  - a rare datatype, a slice with selectors and another communicator are left to the second
 *    level; a freed communicator's entry no longer matches (its handle may come back).
 * One process, MPI_COMM_SELF and its duplicates.
 */
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

#include "common/test.h"
#include "lib/lib.h"

/* The first level's answer as the reference computes it, from the slice's sorted ranges. */
static int expected_first_level(const mg_profile_sizes *s, size_t bytes) {
  size_t least = bytes > 1 ? (size_t)1 << mg_profile_size_class(bytes) : 0;
  for (int i = 0; i < s->n; i++)
    if (s->r[i].hi >= least) /* the first range that can hold a size of the class */
      return bytes < s->r[i].lo ? 1 : bytes <= s->r[i].hi && s->r[i].alg == 0;
  return 1;
}

static int nsettled, nfire;

/* Checks one size on comm (its entry the thread's last) against the slice of allreduce. */
static void check_size(MPI_Comm comm, size_t bytes) {
  const mg_comm_entry *e = mg_comm_get(comm);
  const mg_comm_coll *t = &e->coll[MG_ALLREDUCE];
  const mg_profile_range *hit = mg_comm_rule(t, bytes, MPI_BYTE, MPI_SUM);
  int fires = hit && hit->alg != 0;
  if (bytes > INT32_MAX) return; /* no int count of bytes */
  int fast = mg_fast_default(MG_ALLREDUCE, comm, (int)bytes, MPI_BYTE);
  ASSERT_MSG(!(fast && fires), "%zu bytes: the first level says default, mg_dispatch runs algorithm %d", bytes,
             hit ? hit->alg : 0);
  if (!t->sel)
    ASSERT_MSG(fast == expected_first_level(&t->sizes, bytes), "%zu bytes: first level %d", bytes, fast);
  else
    ASSERT_MSG(!fast, "%zu bytes: a slice with selectors settled at the first level", bytes);
  if (bytes % 8 == 0) /* the same size in doubles */
    ASSERT_EQ(mg_fast_default(MG_ALLREDUCE, comm, (int)(bytes / 8), MPI_DOUBLE), fast);
  nsettled += fast;
  nfire += fires;
}

/* Every size at and around the ends of each range of the slice, and around each power of two. */
static void check_profile(const char *name, const char *text, int expect_table) {
  mg_profile *p = NULL;
  TEST_CASE(name);
  ASSERT_EQ(mg_profile_parse(text, strlen(text), name, &p, NULL), MG_PROFILE_OK);
  if (!p) return;
  mg_the_ctx.profile = p;
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_SELF, &comm); /* a new entry, with this profile's slices */
  const mg_comm_entry *e = mg_comm_get(comm);
  ASSERT_TRUE(e != NULL);
  if (e) {
    const mg_comm_coll *t = &e->coll[MG_ALLREDUCE];
    ASSERT_EQ(t->first != NULL, expect_table);
    nsettled = nfire = 0;
    for (int k = 0; k < 40; k++)
      for (int d = -1; d <= 1; d++) check_size(comm, ((size_t)1 << k) + (size_t)d);
    for (int i = 0; i < t->sizes.n; i++)
      for (int d = -1; d <= 1; d++) {
        check_size(comm, t->sizes.r[i].lo + (size_t)d);
        check_size(comm, t->sizes.r[i].hi + (size_t)d);
      }
    check_size(comm, 0);
    if (expect_table) ASSERT_MSG(nsettled > 0, "no size settled at the first level");
    /* what the first level leaves to the second: a rare datatype, and (one entry per thread)
     * a call on another communicator */
    ASSERT_EQ(mg_fast_default(MG_ALLREDUCE, comm, 1, MPI_SHORT), 0);
    ASSERT_TRUE(mg_comm_get(MPI_COMM_SELF) != NULL);
    ASSERT_EQ(mg_fast_default(MG_ALLREDUCE, comm, 0, MPI_BYTE), 0);
    ASSERT_EQ(mg_fast_untouched(MG_GATHERV, comm), 0);
    mg_comm_get(comm);
    ASSERT_EQ(mg_fast_untouched(MG_GATHERV, comm), 1); /* no gatherv rule */
    ASSERT_EQ(mg_fast_untouched(MG_ALLREDUCE, comm), t->sizes.n == 0 && !t->sel);
  }
  MPI_Comm old = comm;
  MPI_Comm_free(&comm); /* drops the entry: the thread's remembered one must not match any more */
  ASSERT_EQ(mg_fast_default(MG_ALLREDUCE, old, 0, MPI_BYTE), 0);
  ASSERT_EQ(mg_fast_untouched(MG_GATHERV, old), 0);
  mg_the_ctx.profile = NULL;
  mg_profile_free(p);
}

/* A profile of n random sorted disjoint ranges for np=1 (with gaps, some one byte wide, some
 * naming the default, the last one open-ended now and then), and rules for other sizes. */
static char *random_profile(unsigned *seed, int n) {
  size_t cap = 256 + (size_t)n * 96, len = 0;
  char *s = malloc(cap);
  len += (size_t)snprintf(s + len, cap - len, "mpiguide-profile 1\nallreduce np=2-* 1-100 allreduce_as_reduce_bcast\n");
  unsigned long long lo = (unsigned long long)(rand_r(seed) % 4);
  for (int i = 0; i < n; i++) {
    unsigned long long w = (unsigned long long)(rand_r(seed) % 3 ? rand_r(seed) % 64 : rand_r(seed) % 100000);
    int open = i == n - 1 && rand_r(seed) % 3 == 0;
    const char *alg = rand_r(seed) % 4 ? "allreduce_as_reduce_bcast" : "default";
    if (open)
      len += (size_t)snprintf(s + len, cap - len, "allreduce np=1 %llu-* %s\n", lo, alg);
    else if (!w)
      len += (size_t)snprintf(s + len, cap - len, "allreduce np=1 %llu %s\n", lo, alg);
    else
      len += (size_t)snprintf(s + len, cap - len, "allreduce np=1 %llu-%llu %s\n", lo, lo + w, alg);
    lo += w + 1 + (unsigned long long)(rand_r(seed) % 2 ? rand_r(seed) % 200 : 0);
  }
  return s;
}

static void check_paths(void) {
  mg_ctx *x = &mg_the_ctx;
  TEST_CASE("paths");
  mg_paths_set(x);
  for (int k = 0; k < MG_NCOLL; k++) ASSERT_EQ(x->path[k], MG_PATH_PMPI); /* not active */
  x->active = x->counting = 1;
  x->forced[MG_BCAST] = 1; /* force mode for bcast */
  mg_paths_set(x);
  ASSERT_EQ(x->path[MG_BCAST], MG_PATH_DISPATCH);
  ASSERT_EQ(x->path[MG_ALLREDUCE], MG_PATH_COUNT);
  ASSERT_EQ(x->path[MG_SEND], MG_PATH_COUNT);
  x->forced[MG_BCAST] = 0;
  x->counting = 0; /* tuned mode: rules for allreduce and send only */
  const char *text =
      "mpiguide-profile 1\nallreduce np=4 8 allreduce_as_reduce_bcast\nsend np=* 1K-* send_as_isend_wait\n";
  ASSERT_EQ(mg_profile_parse(text, strlen(text), "paths", &x->profile, NULL), MG_PROFILE_OK);
  mg_paths_set(x);
  ASSERT_EQ(x->path[MG_ALLREDUCE], MG_PATH_TUNED);
  ASSERT_EQ(x->path[MG_SEND], MG_PATH_TUNED);
  ASSERT_EQ(x->path[MG_BCAST], MG_PATH_PMPI);
  ASSERT_EQ(x->path[MG_RECV], MG_PATH_PMPI);
  x->counting = 1; /* a profile and counting (mpiguide_force): everything ruled is dispatched */
  mg_paths_set(x);
  ASSERT_EQ(x->path[MG_ALLREDUCE], MG_PATH_DISPATCH);
  ASSERT_EQ(x->path[MG_BCAST], MG_PATH_COUNT);
  x->counting = 0;
  mg_profile_free(x->profile);
  x->profile = NULL;
  x->online = 1; /* online tuning: collectives dispatched, point-to-point passed through */
  mg_paths_set(x);
  ASSERT_EQ(x->path[MG_ALLREDUCE], MG_PATH_DISPATCH);
  ASSERT_EQ(x->path[MG_GATHERV], MG_PATH_DISPATCH);
  ASSERT_EQ(x->path[MG_SEND], MG_PATH_PMPI);
  x->online = 0;
  x->trace_path = "trace"; /* a trace: every call recorded */
  mg_paths_set(x);
  for (int k = 0; k < MG_NCOLL; k++) ASSERT_EQ(x->path[k], MG_PATH_DISPATCH);
  x->trace_path = NULL;
  x->active = 0;
  mg_paths_set(x);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  check_paths();
  /* tuned mode, set up as mg_lib_init would with a profile */
  ASSERT_EQ(mg_comm_cache_init(), MPI_SUCCESS);
  mg_the_ctx.active = mg_the_ctx.tuned_only = 1;
  mg_the_ctx.scratch_max = MG_DEFAULT_SCRATCH_MAX;

  char text[8192];
  size_t len = (size_t)snprintf(text, sizeof text, "mpiguide-profile 1\n");
  for (int i = 1; i <= 64; i++) /* scripts/bench-overhead.sh's tuned-miss profile */
    len += (size_t)snprintf(text + len, sizeof text - len, "allreduce np=1 %d-%d allreduce_as_reduce_bcast\n", 16 * i,
                            16 * i + 7);
  check_profile("64 ranges", text, 1);
  check_profile("one rule", "mpiguide-profile 1\nallreduce np=1 8 allreduce_as_reduce_bcast\n", 1);
  check_profile("four rules (no index)",
                "mpiguide-profile 1\nallreduce np=* 0-1 allreduce_as_reduce_bcast\nallreduce np=* 3-9 default\n"
                "allreduce np=* 12-4K allreduce_as_reduce_bcast\nallreduce np=* 1G-* allreduce_as_reduce_bcast\n",
                1);
  check_profile("no rule at this size", "mpiguide-profile 1\nallreduce np=2-* * allreduce_as_reduce_bcast\n", 1);
  check_profile("selectors",
                "mpiguide-profile 2\nallreduce np=1 1K-64K type=float op=sum allreduce_as_reduce_bcast\n"
                "allreduce np=1 8-16 allreduce_as_reduce_bcast\n",
                0);
  unsigned seed = 31;
  for (int r = 0; r < 60; r++) {
    char name[32];
    char *t = random_profile(&seed, 1 + r % 40);
    snprintf(name, sizeof name, "random %d", r);
    check_profile(name, t, 1);
    free(t);
  }
  mg_comm_cache_finalize();
  MPI_Finalize();
  return mg_test_summary("test_fast_path");
}
