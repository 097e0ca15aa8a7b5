/*
 * `mpiguide tune --drop-slower VERIFY_DIR` and `--drop-unconfirmed VERIFY_DIR` (docs/tune.md): the
 * profile verify measured, without the rules it measured slower, or keeping only the rules it
 * confirmed faster (a verify.csv read with src/report/verify.c), each dropped rule named with
 * file:line; --drop-unconfirmed records in the profile when and on what the kept rules were verified.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "cli/cmd_tune.h"
#include "report/report.h"
#include "tune/profile.h"

/* ---------- --drop-slower: the verified profile without the rules measured slower ---------- */

/* Where a rule stands: "FILE:LINE" (FILE alone for rules without a line, e.g. from .prf files). */
static void rule_where(const char *path, const mg_profile_rule *ru, char *buf, size_t len) {
  if (ru->line > 0) snprintf(buf, len, "%s:%d", path, ru->line);
  else snprintf(buf, len, "%s", path);
}

/* drop[k] = 1 for every rule of p with a row of v that verify measured slower. The number of rules to
 * drop, or -1 after a message (the profile is not the one verified). */
/* Whether verify's row w costs its rule its place: measured slower, or (--drop-unconfirmed) anything
 * but a confirmed gain ("faster": tuned's interval wholly below the default's, the same decision as
 * check's violation, mg_ck_decide). */
static int drops(const mg_rp_vrow *w, int unconfirmed) {
  return w->in_profile && (unconfirmed ? strcmp(w->verdict, "faster") != 0 : !strcmp(w->verdict, "slower"));
}

static int mark_slower(const mg_rp_verify *v, const mg_profile *p, const char *ppath, int unconfirmed, int *drop) {
  int n = 0;
  for (int i = 0; i < v->n; i++) {
    const mg_rp_vrow *w = &v->rows[i];
    int c = mg_coll_find(w->coll);
    if (!drops(w, unconfirmed)) continue;
    int k = c < 0 ? -1 : mg_cmd_rule_find(p, (mg_coll)c, w->nprocs, w->bytes, w->red);
    const mg_profile_rule *ru = k >= 0 ? mg_profile_rule_at(p, k) : NULL;
    if (!ru || strcmp(mg_colls[c].algs[ru->alg].name, w->tuned)) {
      fprintf(stderr, "mpiguide tune: %s:%d: verify measured %s at %zu bytes on %d processes with %s, but '%s' %s; "
                      "give --profile the profile that was verified\n",
              v->path, w->line, w->coll, w->bytes, w->nprocs, w->tuned, ppath,
              ru ? "chooses another algorithm there" : "has no rule there");
      return -1;
    }
    n += !drop[k];
    drop[k] = 1;
  }
  return n;
}

/* Each rule dropped, with the sizes it was slower at. */
static void print_dropped(const mg_rp_verify *v, const mg_profile *p, const char *ppath, int unconfirmed,
                          const int *drop) {
  for (int k = 0; k < mg_profile_nrules(p); k++) {
    if (!drop[k]) continue;
    const mg_profile_rule *ru = mg_profile_rule_at(p, k);
    char where[1100], rule[200];
    rule_where(ppath, ru, where, sizeof where);
    mg_cmd_rule_str(ru, rule, sizeof rule);
    printf("dropped %s: %s  (tuned/default", where, rule);
    for (int i = 0; i < v->n; i++) {
      const mg_rp_vrow *w = &v->rows[i];
      int c = mg_coll_find(w->coll);
      if (drops(w, unconfirmed) && c == (int)ru->coll && mg_cmd_rule_find(p, (mg_coll)c, w->nprocs, w->bytes, w->red) == k)
        printf(" %.3f%s%s at %zu B", w->ratio, unconfirmed ? " " : "", unconfirmed ? w->verdict : "", w->bytes);
    }
    printf(")\n");
  }
}

/* The rules of p but the dropped ones, with p's preamble and one line more. NULL: out of memory. */
static mg_profile *kept_rules(const mg_profile *p, const int *drop, int ndrop, const char *dir, const mg_rp_verify *v,
                              int unconfirmed) {
  mg_profile *q = mg_profile_new();
  char line[1200];
  int bad = !q;
  for (int k = 0; !bad && k < mg_profile_npreamble(p); k++) bad = mg_profile_add_preamble(q, mg_profile_preamble_at(p, k)) != 0;
  if (unconfirmed) { /* which rules verify confirmed, when and on what (its raw.csv's metadata) */
    char mp[1100], e[MG_CK_ERR];
    mg_ck_meta m = {0};
    snprintf(mp, sizeof mp, "%s/raw.csv", dir);
    int have = mg_ck_read_meta(mp, &m, e, sizeof e) == 0;
    const char *date = have ? mg_ck_meta_get(&m, "date") : NULL, *host = have ? mg_ck_meta_get(&m, "hostname") : NULL;
    const char *lib = have ? mg_ck_meta_get(&m, "mpi_library_name") : NULL;
    snprintf(line, sizeof line, "mpiguide tune --drop-unconfirmed %s: %d rule%s kept that verify confirmed (tuned "
             "faster, decided) on %s, %s, %s, %d processes; %d dropped", dir, mg_profile_nrules(p) - ndrop,
             mg_profile_nrules(p) - ndrop == 1 ? "" : "s", date ? date : "?", host ? host : "?", lib ? lib : "?",
             v->n ? v->rows[0].nprocs : 0, ndrop);
    for (char *c = line; *c; c++)
      if (*c == '\n' || *c == '\r') *c = ' ';
    mg_ck_meta_free(&m);
  } else
    snprintf(line, sizeof line, "mpiguide tune --drop-slower %s: %d rule%s dropped that verify measured slower", dir,
             ndrop, ndrop == 1 ? "" : "s");
  bad = bad || mg_profile_add_preamble(q, line) != 0;
  for (int k = 0; !bad && k < mg_profile_nrules(p); k++) {
    const mg_profile_rule *ru = mg_profile_rule_at(p, k);
    if (!drop[k])
      bad = mg_profile_add_sel(q, ru->coll, ru->np_lo, ru->np_hi, ru->lo, ru->hi, ru->tclass, ru->opsel, ru->alg,
                               ru->comment) != 0;
  }
  if (!bad) bad = mg_profile_build(q, NULL) != MG_PROFILE_OK;
  if (bad) mg_profile_free(q);
  return bad ? NULL : q;
}

/* Read the verify result and the profile, write the profile without the slower rules. Exit code. */
int mg_cmd_tune_drop(const char *dir, const char *profile, const char *out, int unconfirmed, int quiet) {
  char vp[1100], e[MG_CK_ERR];
  mg_rp_verify v;
  mg_profile *p = NULL, *q = NULL;
  mg_profile_diags diags = {0};
  int status = 2, *drop = NULL;
  snprintf(vp, sizeof vp, "%s/verify.csv", dir);
  if (mg_rp_verify_read(vp, &v, e, sizeof e)) {
    fprintf(stderr, "mpiguide tune: --drop-%s: %s (give a result directory of `mpiguide verify -o DIR`)\n",
            unconfirmed ? "unconfirmed" : "slower", e);
    return 2;
  }
  const char *ppath = profile ? profile : v.profile;
  if (!*ppath) fprintf(stderr, "mpiguide tune: %s names no profile: give --profile FILE\n", vp);
  else if (mg_profile_open(ppath, &p, &diags) != MG_PROFILE_OK) {
    for (int k = 0; k < diags.n; k++) {
      mg_profile_diag_format(&diags.v[k], e, sizeof e);
      fprintf(stderr, "mpiguide tune: %s\n", e);
    }
    if (!diags.n) fprintf(stderr, "mpiguide tune: cannot read the profile '%s'\n", ppath);
    fprintf(stderr, "(give --profile FILE, the profile that %s verified)\n", vp);
  } else if (!(drop = calloc((size_t)mg_profile_nrules(p) + 1, sizeof *drop)))
    fprintf(stderr, "mpiguide tune: out of memory\n"), status = 1;
  else {
    int ndrop = mark_slower(&v, p, ppath, unconfirmed, drop);
    if (ndrop >= 0 && unconfirmed) /* a rule verify did not measure at all is not confirmed either */
      for (int k = 0; k < mg_profile_nrules(p); k++) {
        int seen = 0;
        const mg_profile_rule *ru = mg_profile_rule_at(p, k);
        for (int i = 0; i < v.n && !seen; i++) {
          int c = mg_coll_find(v.rows[i].coll);
          seen = v.rows[i].in_profile && c == (int)ru->coll &&
                 mg_cmd_rule_find(p, (mg_coll)c, v.rows[i].nprocs, v.rows[i].bytes, v.rows[i].red) == k;
        }
        if (!seen && !drop[k]) drop[k] = 1, ndrop++;
      }
    if (ndrop >= 0 && !(q = kept_rules(p, drop, ndrop, dir, &v, unconfirmed)))
      fprintf(stderr, "mpiguide tune: out of memory\n"), status = 1;
    else if (ndrop >= 0 && !(status = mg_cmd_tune_write_profile(q, out)) && !quiet) {
      print_dropped(&v, p, ppath, unconfirmed, drop);
      printf("%d of %d rule%s dropped (%s); profile: %s\n", ndrop, mg_profile_nrules(p),
             mg_profile_nrules(p) == 1 ? "" : "s",
             unconfirmed ? "verify did not confirm them faster than the default" : "verify measured them slower than the default",
             out);
    }
  }
  mg_profile_diags_free(&diags);
  mg_profile_free(p);
  mg_profile_free(q);
  free(drop);
  mg_rp_verify_free(&v);
  return status;
}

