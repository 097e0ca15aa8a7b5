/*
 * Fuzz target `merge`: `mpiguide profile merge` (src/tune/merge.c, mg_profile_merge_agreeing) on
 * profiles read from the input: the part before a line "--merge--" and the part after it (without
 * such a line, the input and a fixed profile). Invariants, besides those of profile.c for each
 * input and each result: a profile merged with itself is itself (same hash, no conflict, with and
 * without --all); merging is symmetric (p+q and q+p: same outcome, hash and conflicts); and a call
 * the merged profile sends to a mock-up goes to that mock-up in one of the inputs (a merge keeps
 * only choices an input made).
 */
#define _GNU_SOURCE /* memmem */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "tune/profile.h"

static const char fixed[] = "mpiguide-profile 1\n"
                            "allreduce np=4 0-4K allreduce_as_reduce_bcast\n"
                            "allreduce np=2-8 8K-* allreduce_as_reducescatterblock_allgather\n"
                            "bcast np=* 64K-1M bcast_as_scatter_allgather\n";

static mg_profile *parse(const char *buf, size_t n, const char *name) {
  mg_profile *p = NULL;
  mg_profile_diags d;
  mg_profile_diags_init(&d, 4);
  if (mg_profile_parse(buf, n, name, &p, &d) != MG_PROFILE_OK) p = NULL;
  mg_profile_diags_free(&d);
  if (p) mg_fz_profile_check(p, "merge: an input");
  return p;
}

static int merge(mg_profile *a, mg_profile *b, int all, mg_profile **out, int *conflicts, FILE *null) {
  mg_profile *ps[2] = {a, b};
  char n0[] = "a.prof", n1[] = "b.prof";
  char *names[2] = {n0, n1};
  int rc = mg_profile_merge_agreeing(ps, b ? 2 : 1, names, all, out, conflicts, null);
  MG_FZ_CHECK(rc == 0 || rc == 1, "merge: returned %d", rc);
  MG_FZ_CHECK(rc ? !*out : *out != NULL, "merge: returned %d with%s a profile", rc, *out ? "" : "out");
  MG_FZ_CHECK(*conflicts >= 0, "merge: %d conflicts", *conflicts);
  if (*out) mg_fz_profile_check(*out, "merge: the merged profile");
  return rc;
}

static const int np_probe[] = {1, 2, 3, 4, 8, 64, INT_MAX};
static const size_t b_probe[] = {0, 1, 8, 1024, 4096, 8192, 65536, 1u << 20, SIZE_MAX};

static void read_merge(const char *path, mg_fz_read *r) {
  size_t n = 0;
  char *buf = mg_fz_slurp(path, &n);
  MG_FZ_CHECK(buf, "merge: cannot read back %s", path);
  const char *sep = "\n--merge--\n", *cut = memmem(buf, n, sep, strlen(sep));
  mg_profile *p, *q;
  if (cut) {
    p = parse(buf, (size_t)(cut - buf) + 1, "a.prof");
    q = parse(cut + strlen(sep), n - (size_t)(cut - buf) - strlen(sep), "b.prof");
  } else {
    p = parse(buf, n, "a.prof");
    q = parse(fixed, sizeof fixed - 1, "fixed.prof");
    MG_FZ_CHECK(q, "merge: the fixed profile does not read");
  }
  free(buf);
  r->ok = 0;
  snprintf(r->err, sizeof r->err, "%s: an input is not a valid profile", path);
  FILE *null = fopen("/dev/null", "w");
  MG_FZ_CHECK(null, "merge: cannot open /dev/null");
  if (p) {
    mg_profile *m = NULL;
    int c = 0;
    for (int all = 0; all < 2; all++) {
      MG_FZ_CHECK(merge(p, p, all, &m, &c, null) == 0, "merge: a profile merged with itself (all=%d) fails", all);
      MG_FZ_CHECK(c == 0 && mg_profile_hash(m) == mg_profile_hash(p),
                  "merge: a profile merged with itself (all=%d): %d conflicts, hash %016llx, not %016llx", all, c,
                  (unsigned long long)mg_profile_hash(m), (unsigned long long)mg_profile_hash(p));
      mg_profile_free(m);
    }
  }
  if (p && q) {
    for (int all = 0; all < 2; all++) {
      mg_profile *m1 = NULL, *m2 = NULL;
      int c1 = 0, c2 = 0;
      int rc1 = merge(p, q, all, &m1, &c1, null), rc2 = merge(q, p, all, &m2, &c2, null);
      MG_FZ_CHECK(rc1 == rc2, "merge: p+q returns %d, q+p %d (all=%d)", rc1, rc2, all);
      if (!rc1) {
        MG_FZ_CHECK(mg_profile_hash(m1) == mg_profile_hash(m2) && c1 == c2,
                    "merge: p+q and q+p differ (all=%d): hashes %016llx %016llx, conflicts %d %d", all,
                    (unsigned long long)mg_profile_hash(m1), (unsigned long long)mg_profile_hash(m2), c1, c2);
        for (int co = 0; co < MG_NCOLL; co++)
          for (size_t i = 0; i < sizeof np_probe / sizeof *np_probe; i++)
            for (size_t j = 0; j < sizeof b_probe / sizeof *b_probe; j++) {
              int a = mg_profile_lookup(m1, (mg_coll)co, np_probe[i], b_probe[j]);
              MG_FZ_CHECK(!a || a == mg_profile_lookup(p, (mg_coll)co, np_probe[i], b_probe[j]) ||
                              a == mg_profile_lookup(q, (mg_coll)co, np_probe[i], b_probe[j]),
                          "merge: %s np=%d bytes=%zu: the merge runs %s, which neither input chose",
                          mg_colls[co].name, np_probe[i], b_probe[j], mg_colls[co].algs[a].name);
            }
        if (!all) r->ok = 1, r->digest = mg_profile_hash(m1);
      }
      mg_profile_free(m1);
      mg_profile_free(m2);
    }
  }
  fclose(null);
  mg_profile_free(p);
  mg_profile_free(q);
}

const mg_fz_reader mg_fz_merge = {"merge", "fuzz.prof", "mg_profile_merge_agreeing (merge.c), mg_profile_parse",
                                  read_merge};
