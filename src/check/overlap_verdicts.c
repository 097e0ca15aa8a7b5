/*
 * Overlap must not cost (issue 48, the guideline OVL): posting a non-blocking collective, computing
 * for a known time c with k MPI_Test calls spread through the computation, and waiting must not take
 * longer than the blocking call followed by the same computation,
 *   t_overall(k) = I<coll>(n) + compute(c) with k tests + Wait  <=  <Coll>(n) + compute(c) = t_blocking.
 * A library that progresses the collective only in MPI_Wait gives t_overall close to t_pure + c;
 * a violation says its non-blocking path (schedule, progress, the tests' cost) is slower than its
 * blocking one, so an application that overlaps loses time. Measured by `check --overlap` as
 * `bench --overlap` does (bench/overlap_run.h), every variant interleaved in rounds, the computation
 * the same iterations on every rank; DIR/overlap.csv (bench/ovl.h) is read here into a data set of
 * its own (mg_ck_data.ovl) whose series the one comparison of check (mg_ck_compare_op) reads: per
 * (collective, size) and k the series "default" = t_overall(k) against MG_CK_OVL_ALG = t_blocking,
 * over the rounds both were measured in, with the launch rules and the noise threshold of the file's
 * launch; the verdicts a family of their own for Holm (analyze.c). One verdict per k, so the family
 * counts every k: choosing the best k after seeing the data would test the best of several and
 * call it one. Measure only: there is no call libmpiguide could repair (the application chooses to
 * overlap), so tune never reads them; the summary's "overlap" section, overlapverdicts.csv and the
 * report's table show them.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/ovl.h"
#include "check/analyze.h"
#include "check/check.h"
#include "check/reader.h"
#include "util/err.h"
#include "util/fmt.h"

/* The test count of a verdict's key "tests=K" (-1: not one). */
static int key_tests(const char *red) {
  size_t n = sizeof MG_CK_OVL_KEY - 1;
  return strncmp(red, MG_CK_OVL_KEY, n) ? -1 : atoi(red + n);
}

/* The rows of cell c into o (launch L): t_overall(k) as "default", t_blocking as MG_CK_OVL_ALG under
 * every k of the cell. */
static int cell_series(mg_ck_data *o, const mg_ovl_cell *c, mg_coll coll, int L, char *err, size_t errlen) {
  int ks[MG_OVL_MAXK], nk = 0;
  for (long i = 0; i < c->n; i++) {
    const mg_ovl_row *r = &c->rows[i];
    if (r->variant != MG_OVL_OVERALL) continue;
    int j = 0;
    while (j < nk && ks[j] != r->tests) j++;
    if (j == nk && nk < MG_OVL_MAXK) ks[nk++] = r->tests;
  }
  for (int j = 0; j < nk; j++) {
    char red[MG_CK_RED];
    snprintf(red, sizeof red, "%s%d", MG_CK_OVL_KEY, ks[j]);
    if (c->failed) {
      if (mg_ck_note_add(o, coll, MG_CK_OVL_ALG, c->bytes, red, L, c->note)) return MG_ERR("out of memory");
      continue;
    }
    mg_ck_series *sd = mg_ck_series_get(o, coll, "default", c->bytes, red, L);
    mg_ck_series *sb = sd ? mg_ck_series_get(o, coll, MG_CK_OVL_ALG, c->bytes, red, L) : NULL;
    if (!sb) return MG_ERR("out of memory");
    sd = mg_ck_series_get(o, coll, "default", c->bytes, red, L); /* the second get may have moved it */
    for (long i = 0; i < c->n; i++) {
      const mg_ovl_row *r = &c->rows[i];
      int mine = (r->variant == MG_OVL_OVERALL && r->tests == ks[j]) || r->variant == MG_OVL_BLOCKING;
      if (!mine) continue;
      mg_ck_series *s = r->variant == MG_OVL_BLOCKING ? sb : sd;
      s->rows++;
      if (r->warmup) {
        o->warmup += j == 0 || r->variant != MG_OVL_BLOCKING;
        continue;
      }
      if (!r->valid) continue;
      if (mg_ck_series_push(s, r->sec, r->round, -1)) return MG_ERR("out of memory");
    }
  }
  return 0;
}

int mg_ck_read_overlap_csv(mg_ck_data *d, const char *path, char *err, size_t errlen) {
  mg_ovl_file f;
  if (mg_ovl_read(path, &f, err, errlen)) return -1;
  int made = !d->ovl, rc = -1;
  if (made && !(d->ovl = calloc(1, sizeof *d->ovl))) {
    mg_ovl_file_free(&f);
    return MG_ERR("out of memory");
  }
  mg_ck_data *o = d->ovl;
  mg_ck_snapshot snap = mg_ck_snapshot_take(o);
  mg_ck_meta m = {0};
  for (int i = 0; i < f.nmeta; i++) {
    size_t n = strlen(f.key[i]) + strlen(f.val[i]) + 4;
    char *line = malloc(n);
    if (!line) goto nomem;
    snprintf(line, n, "#@%s=%s", f.key[i], f.val[i]);
    int bad = mg_ck_meta_add(&m, line, i + 1);
    free(line);
    if (bad) goto nomem;
  }
  const char *lid = mg_ck_meta_get(&m, "launch");
  int L = mg_ck_launch_get(o, lid && *lid ? lid : path, path, &m, 0, o->nlaunches, err, errlen);
  if (L < 0) goto out;
  for (int i = 0; i < f.nmeta; i++) { /* #@failed=COLL,BYTES,NOTE: that cell's comparisons are errors */
    if (strcmp(f.key[i], "failed")) continue;
    const char *v = f.val[i], *c1 = strchr(v, ','), *c2 = c1 ? strchr(c1 + 1, ',') : NULL;
    size_t bytes;
    char num[32];
    if (!c2 || (size_t)(c2 - c1 - 1) >= sizeof num) continue;
    memcpy(num, c1 + 1, (size_t)(c2 - c1 - 1)), num[c2 - c1 - 1] = '\0';
    if (mg_ck_parse_size(num, &bytes)) continue;
    for (int j = 0; j < f.ncells; j++)
      if (f.cells[j].bytes == bytes && strlen(f.cells[j].coll) == (size_t)(c1 - v) &&
          !strncmp(f.cells[j].coll, v, (size_t)(c1 - v)))
        f.cells[j].failed = 1, snprintf(f.cells[j].note, sizeof f.cells[j].note, "%s", c2 + 1);
  }
  int any = 0;
  for (int i = 0; i < f.ncells; i++) {
    int coll = mg_coll_find(f.cells[i].coll);
    if (coll < 0 || coll >= MG_NCOLLECTIVES) {
      (void)MG_ERR("%s: unknown collective '%.40s'", path, f.cells[i].coll);
      goto out;
    }
    if (cell_series(o, &f.cells[i], (mg_coll)coll, L, err, errlen)) goto out;
    for (long j = 0; j < f.cells[i].n; j++) any |= f.cells[i].rows[j].variant == MG_OVL_BLOCKING;
  }
  if (f.ncells && !any) { /* a /1 or /2 file: measured before the blocking variant */
    (void)MG_ERR("%s: no measurement of the blocking call + the computation (variant blocking; a file of "
                 "bench --overlap before mpiguide-bench-overlap/3): nothing to judge 'overlap must not cost' by",
                 path);
    goto out;
  }
  rc = 0;
  goto out;
nomem:
  (void)MG_ERR("out of memory");
out:
  mg_ck_meta_free(&m);
  mg_ovl_file_free(&f);
  if (rc) {
    mg_ck_rollback(o, snap);
    if (made) mg_ck_data_free(o), free(o), d->ovl = NULL;
  }
  return rc;
}

/* Overlap verdicts: collective, size, k. */
static int cmp_ovl(const void *a, const void *b) {
  const mg_ck_verdict *x = a, *y = b;
  if (x->coll != y->coll) return (int)x->coll - (int)y->coll;
  if (x->bytes != y->bytes) return (x->bytes > y->bytes) - (x->bytes < y->bytes);
  return key_tests(x->red) - key_tests(y->red);
}

int mg_ck_overlap_verdicts(const mg_ck_data *p, const mg_ck_opts *o, mg_ck_result *r, char *err, size_t errlen) {
  int cap = 0;
  for (int i = 0; i < p->nseries + p->nnotes; i++) {
    int is_s = i < p->nseries;
    const mg_ck_series *s = is_s ? &p->series[i] : NULL;
    const mg_ck_note *n = is_s ? NULL : &p->notes[i - p->nseries];
    mg_coll coll = is_s ? s->coll : n->coll;
    const char *alg = is_s ? s->alg : n->alg, *red = is_s ? s->red : n->red;
    size_t bytes = is_s ? s->bytes : n->bytes;
    if (strcmp(alg, MG_CK_OVL_ALG)) continue; /* one verdict per blocking series (the default's side follows) */
    int seen = 0;
    for (int k = 0; k < r->novl && !seen; k++)
      seen = r->ovl[k].coll == coll && r->ovl[k].bytes == bytes && !strcmp(r->ovl[k].red, red);
    if (seen) continue;
    mg_ck_verdict v;
    mg_ck_verdict_init(&v, coll, bytes, red, MG_CK_OVL_ALG);
    v.guideline = MG_CK_OVL_GUIDELINE;
    v.measure_only = 1; /* no call to repair: a verdict, never a rule */
    if (!is_s) {
      v.status = MG_CKV_ERROR;
      snprintf(v.note, sizeof v.note, "%s", n->text);
    } else if (mg_ck_compare_op(p, o, &v, mg_colls[coll].name, err, errlen)) {
      return -1;
    } else if (v.status == MG_CKV_OK) {
      snprintf(v.note, sizeof v.note, "measure only: overlap must not cost (no call to repair)");
    }
    if (mg_ck_push_verdict(&r->ovl, &r->novl, &cap, &v)) return MG_ERR("out of memory");
  }
  qsort(r->ovl, (size_t)r->novl, sizeof *r->ovl, cmp_ovl);
  return 0;
}

int mg_ck_any_overlap(const mg_ck_result *r) { return r->novl > 0; }

void mg_ck_print_overlap(FILE *f, const mg_ck_result *r) {
  if (!mg_ck_any_overlap(r)) return;
  fprintf(f, "\noverlap must not cost (%s: %s;\n  t_overall(k) against the blocking call + the same computation, per "
             "size and test count k, adjusted for %d comparisons;\n  measure only: a violation is the non-blocking "
             "path's cost to report, not a repair):\n",
          MG_CK_OVL_GUIDELINE, MG_CK_OVL_FORMULA, r->ovl_family);
  for (int i = 0; i < r->novl;) {
    const mg_ck_verdict *v0 = &r->ovl[i];
    int j = i, nv = 0, nc = 0, ni = 0, nn = 0, ne = 0;
    char list[512] = "", err[256] = "";
    size_t u = 0;
    for (; j < r->novl && r->ovl[j].coll == v0->coll; j++) {
      const mg_ck_verdict *v = &r->ovl[j];
      char b[32];
      mg_fmt_bytes(v->bytes, MG_BYTES_EXACT, b, sizeof b);
      if (v->status != MG_CKV_OK) {
        if (!ne++) snprintf(err, sizeof err, "%s: %.190s", b, v->note);
        continue;
      }
      nv += v->outcome == MG_CK_VIOLATION, nc += v->outcome == MG_CK_CONSISTENT;
      ni += v->outcome == MG_CK_INCONCLUSIVE, nn += v->outcome == MG_CK_INCONCLUSIVE && v->noise;
      if (v->outcome == MG_CK_VIOLATION && u < sizeof list - 48)
        u += (size_t)snprintf(list + u, sizeof list - u, "%s%s k=%d (%.2fx)", u ? ", " : "", b, key_tests(v->red),
                              v->slowdown);
    }
    fprintf(f, "  %-22s %2d violated, %2d consistent, %2d inconclusive (%d within the noise)%s%s\n",
            mg_colls[v0->coll].mpi_name, nv, nc, ni, nn, nv ? "; overlapped slower at " : "", list);
    if (ne) fprintf(f, "    %d comparison(s) not made, e.g. %s\n", ne, err);
    i = j;
  }
  fprintf(f, "  (per size and k: overlapverdicts.csv; a comparison not shown consistent is inconclusive, not clean)\n");
}
