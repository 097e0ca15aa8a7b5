/*
 * Fuzz target `profile`: the mpiguide profile format (src/tune/profile_read.c through
 * mg_profile_load) and `mpiguide profile validate` (mg_profile_validate_main) on the same file.
 * Invariants: a refused file returns no profile and at least one diagnostic naming the file; an
 * accepted one has every rule in range, its canonical text (mg_profile_format) reads back with
 * the same hash, the same rules and the same decision for every probed call, and formats to the
 * same text again; validate says valid exactly when the reader accepts. Also the helpers the
 * other profile targets (prf.c, merge.c) use.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "tune/profile.h"

/* Process counts and sizes every lookup probe tries, besides each rule's own bounds. */
static const int probe_np[] = {1, 2, 3, 4, 5, 7, 8, 16, 64, 1000, INT_MAX};
static const size_t probe_bytes[] = {0, 1, 2, 3, 4, 7, 8, 9, 1023, 1024, 1025, 65536, 1u << 20, (size_t)1 << 31,
                                     (size_t)1 << 40, SIZE_MAX - 1, SIZE_MAX};
#define NPROBE_NP (int)(sizeof probe_np / sizeof *probe_np)
#define NPROBE_BYTES (int)(sizeof probe_bytes / sizeof *probe_bytes)

static void same_decision(const mg_profile *p, const mg_profile *q, mg_coll c, int np, size_t b, int t, int o,
                          const char *what) {
  int a = mg_profile_lookup_sel(p, c, np, b, t, o), x = mg_profile_lookup_sel(q, c, np, b, t, o);
  MG_FZ_CHECK(a == x, "%s: %s np=%d bytes=%zu type=%d op=%d: %d, re-read from the canonical text %d", what,
              mg_colls[c].name, np, b, t, o, a, x);
  MG_FZ_CHECK(a >= 0 && a < mg_colls[c].nalgs, "%s: %s np=%d bytes=%zu: algorithm %d out of range", what,
              mg_colls[c].name, np, b, a);
  if (t == MG_TCLASS_NONE && o == MG_OPSEL_NONE)
    MG_FZ_CHECK(mg_profile_lookup(p, c, np, b) == a, "%s: mg_profile_lookup and _sel differ", what);
}

uint64_t mg_fz_profile_check(const mg_profile *p, const char *what) {
  int n = mg_profile_nrules(p);
  MG_FZ_CHECK(n >= 0, "%s: %d rules", what, n);
  for (int i = 0; i < n; i++) {
    const mg_profile_rule *r = mg_profile_rule_at(p, i);
    MG_FZ_CHECK(r && r->coll >= 0 && r->coll < MG_NCOLL, "%s: rule %d: collective out of range", what, i);
    MG_FZ_CHECK(r->np_lo >= 1 && r->np_lo <= r->np_hi, "%s: rule %d: np=%d-%d", what, i, r->np_lo, r->np_hi);
    MG_FZ_CHECK(r->lo <= r->hi, "%s: rule %d: sizes %zu-%zu", what, i, r->lo, r->hi);
    MG_FZ_CHECK(r->alg >= 0 && r->alg < mg_colls[r->coll].nalgs, "%s: rule %d: algorithm %d", what, i, r->alg);
    MG_FZ_CHECK(r->tclass >= 0 && r->tclass < MG_NTCLASS && r->opsel >= 0 && r->opsel < MG_NOPSEL,
                "%s: rule %d: selector out of range", what, i);
  }
  size_t len = 0, len2 = 0;
  char *text = mg_profile_format(p, &len);
  MG_FZ_CHECK(text && strlen(text) == len, "%s: a built profile has no canonical text", what);
  mg_profile *q = NULL;
  mg_profile_diags d;
  mg_profile_diags_init(&d, 4);
  int st = mg_profile_parse(text, len, "canonical", &q, &d);
  char msg[600] = "";
  if (d.n) mg_profile_diag_format(&d.v[0], msg, sizeof msg);
  MG_FZ_CHECK(st == MG_PROFILE_OK && q, "%s: its canonical text does not read back: %s\n---\n%s---", what, msg, text);
  mg_profile_diags_free(&d);
  MG_FZ_CHECK(mg_profile_hash(q) == mg_profile_hash(p), "%s: hash %016llx, re-read %016llx", what,
              (unsigned long long)mg_profile_hash(p), (unsigned long long)mg_profile_hash(q));
  MG_FZ_CHECK(mg_profile_nrules(q) == n, "%s: %d rules, re-read %d", what, n, mg_profile_nrules(q));
  char *text2 = mg_profile_format(q, &len2);
  MG_FZ_CHECK(text2 && len2 == len && !memcmp(text, text2, len),
              "%s: the canonical text is not a fixpoint:\n---\n%s---\n%s---", what, text, text2 ? text2 : "");
  /* lookups: the fixed probes, without selectors and with a spread of them */
  for (int c = 0; c < MG_NCOLL; c++)
    for (int i = 0; i < NPROBE_NP; i++)
      for (int j = 0; j < NPROBE_BYTES; j++) {
        int t = (c + i + j) % (MG_NTCLASS + 1) - 1, o = (c * 3 + i + 2 * j) % (MG_NOPSEL + 1) - 1;
        same_decision(p, q, (mg_coll)c, probe_np[i], probe_bytes[j], MG_TCLASS_NONE, MG_OPSEL_NONE, what);
        same_decision(p, q, (mg_coll)c, probe_np[i], probe_bytes[j], t, o, what);
      }
  /* and each rule's own corners (the first 256 rules) */
  for (int i = 0; i < n && i < 256; i++) {
    const mg_profile_rule *r = mg_profile_rule_at(p, i);
    size_t b[4] = {r->lo, r->hi, r->lo ? r->lo - 1 : 0, r->hi < SIZE_MAX ? r->hi + 1 : r->hi};
    int np[3] = {r->np_lo, r->np_hi, r->np_lo > 1 ? r->np_lo - 1 : 1};
    for (int k = 0; k < 4; k++)
      for (int m = 0; m < 3; m++) {
        same_decision(p, q, r->coll, np[m], b[k], r->tclass ? r->tclass : MG_TCLASS_NONE,
                      r->opsel ? r->opsel : MG_OPSEL_NONE, what);
        same_decision(p, q, r->coll, np[m], b[k], MG_TCLASS_NONE, MG_OPSEL_NONE, what);
      }
  }
  mg_fz_hash h;
  mg_fz_hash_init(&h);
  mg_fz_hash_bytes(&h, text, len);
  free(text);
  free(text2);
  mg_profile_free(q);
  return h.h;
}

void mg_fz_profile_read(const char *path, int prf, mg_fz_read *r) {
  mg_profile *p = NULL;
  mg_profile_diags d;
  mg_profile_diags_init(&d, 20);
  int st = prf ? mg_profile_import_prf(path, &p, &d) : mg_profile_load(path, &p, &d);
  const char *what = prf ? "prf" : "profile";
  if (st != MG_PROFILE_OK) {
    MG_FZ_CHECK(!p, "%s: the reader refused the file (status %d) but returned a profile", what, st);
    MG_FZ_CHECK(st > 0 && st < MG_PROFILE_NSTATUS, "%s: status %d out of range", what, st);
    MG_FZ_CHECK(d.n + d.dropped > 0, "%s: the reader refused the file without a diagnostic", what);
    r->ok = 0;
    r->err[0] = '\0';
    if (d.n) {
      for (int i = 0; i < d.n; i++) {
        const mg_profile_diag *g = &d.v[i];
        MG_FZ_CHECK(g->line >= 0 && g->msg && g->msg[0], "%s: diagnostic %d: line %d, empty message", what, i, g->line);
        MG_FZ_CHECK(g->status > 0 && g->status < MG_PROFILE_NSTATUS, "%s: diagnostic %d: status %d", what, i,
                    g->status);
      }
      mg_profile_diag_format(&d.v[0], r->err, sizeof r->err);
      mg_fz_check_error(what, path, r->err);
    }
  } else {
    MG_FZ_CHECK(p, "%s: the reader accepted the file but returned no profile", what);
    r->ok = 1;
    r->digest = mg_fz_profile_check(p, what);
  }
  mg_profile_free(p);
  mg_profile_diags_free(&d);
}

/* `mpiguide profile validate --quiet PATH` with its output thrown away: its exit status. */
static int validate(const char *path) {
  fflush(stdout), fflush(stderr);
  int o = dup(1), e = dup(2), null = open("/dev/null", O_WRONLY);
  if (o < 0 || e < 0 || null < 0) mg_fz_fail("profile: cannot redirect the output of validate");
  dup2(null, 1), dup2(null, 2);
  char a0[] = "validate", a1[] = "--quiet", *a2 = strdup(path);
  char *argv[] = {a0, a1, a2, NULL};
  int rc = mg_profile_validate_main(3, argv);
  fflush(stdout), fflush(stderr);
  dup2(o, 1), dup2(e, 2);
  close(o), close(e), close(null);
  free(a2);
  return rc;
}

static void read_profile(const char *path, mg_fz_read *r) {
  mg_fz_profile_read(path, 0, r);
  int rc = validate(path);
  MG_FZ_CHECK(rc == (r->ok ? 0 : 1), "profile: the reader %s the file, but validate exits %d",
              r->ok ? "accepts" : "refuses", rc);
}

const mg_fz_reader mg_fz_profile = {"profile", "fuzz.prof",
                                    "mg_profile_load (profile_read.c), mg_profile_validate_main (validate.c)",
                                    read_profile};
