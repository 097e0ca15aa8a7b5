/*
 * `mpiguide tune --drop-slower VERIFY_DIR` and `--drop-unconfirmed VERIFY_DIR` (docs/tune.md), and
 * `mpiguide verify --write-confirmed FILE`, which is the latter run by verify itself: the profile
 * verify measured, without the rules it measured slower, or keeping only the rules it confirmed
 * faster (a verify.csv read with src/report/verify.c), each dropped rule named with file:line.
 * A VERIFY_DIR of `verify --launches N` (DIR/launch-K/verify.csv) counts every launch: a rule is
 * confirmed when it was confirmed in each of them. The confirmed profile's preamble records which
 * rules verify confirmed, when and on what ("verify: confirmed K of N rules, DATE, LIBRARY, np=P,
 * LAYOUT"), and each kept rule's comment its verify figures; comments and preamble are outside the
 * profile's hash, so the rules kept hash as they did.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/check.h"
#include "cli/cmd_tune.h"
#include "report/report.h"
#include "tune/profile.h"
#include "util/fmt.h"

/* Where a rule stands: "FILE:LINE" (FILE alone for rules without a line, e.g. from .prf files). */
static void rule_where(const char *path, const mg_profile_rule *ru, char *buf, size_t len) {
  if (ru->line > 0) snprintf(buf, len, "%s:%d", path, ru->line);
  else snprintf(buf, len, "%s", path);
}

/* Whether verify's row w costs its rule its place: measured slower, or (--drop-unconfirmed) anything
 * but a confirmed gain ("faster": tuned's interval wholly below the default's, the same decision as
 * check's violation, mg_ck_decide). */
static int drops(const mg_rp_vrow *w, int unconfirmed) {
  return w->in_profile && (unconfirmed ? strcmp(w->verdict, "faster") != 0 : !strcmp(w->verdict, "slower"));
}

/* The rule of p verify's row w measured (in_profile), or -1. */
static int rule_of(const mg_profile *p, const mg_rp_vrow *w) {
  int c = mg_coll_find(w->coll);
  return c < 0 || !w->in_profile ? -1 : mg_cmd_rule_find(p, (mg_coll)c, w->nprocs, w->bytes, w->red);
}

/* drop[k] = 1 for every rule of p with a row of v that drops it (drops()). The number of rules newly
 * marked, or -1 after a message (the profile is not the one verified). */
static int mark_drops(const char *cmd, const mg_rp_verify *v, const mg_profile *p, const char *ppath, int unconfirmed,
                      int *drop) {
  int n = 0;
  for (int i = 0; i < v->n; i++) {
    const mg_rp_vrow *w = &v->rows[i];
    if (!drops(w, unconfirmed)) continue;
    int c = mg_coll_find(w->coll), k = rule_of(p, w);
    const mg_profile_rule *ru = k >= 0 ? mg_profile_rule_at(p, k) : NULL;
    if (!ru || strcmp(mg_colls[c].algs[ru->alg].name, w->tuned)) {
      fprintf(stderr, "mpiguide %s: %s:%d: verify measured %s at %zu bytes on %d processes with %s, but '%s' %s; "
                      "give --profile the profile that was verified\n", cmd,
              v->path, w->line, w->coll, w->bytes, w->nprocs, w->tuned, ppath,
              ru ? "chooses another algorithm there" : "has no rule there");
      return -1;
    }
    n += !drop[k];
    drop[k] = 1;
  }
  return n;
}

/* Each rule dropped, with the verdicts that dropped it, on stderr (--drop-unconfirmed, verify
 * --write-confirmed) or stdout (--drop-slower, as before). */
static void print_dropped(const mg_rp_verify *v, int nv, const mg_profile *p, const char *ppath, int unconfirmed,
                          const int *drop) {
  FILE *f = unconfirmed ? stderr : stdout;
  for (int k = 0; k < mg_profile_nrules(p); k++) {
    if (!drop[k]) continue;
    const mg_profile_rule *ru = mg_profile_rule_at(p, k);
    char where[1100], rule[200];
    int any = 0;
    rule_where(ppath, ru, where, sizeof where);
    mg_cmd_rule_str(ru, rule, sizeof rule);
    fprintf(f, "dropped %s: %s  (tuned/default", where, rule);
    for (int j = 0; j < nv; j++)
      for (int i = 0; i < v[j].n; i++) {
        const mg_rp_vrow *w = &v[j].rows[i];
        if (!drops(w, unconfirmed) || rule_of(p, w) != k) continue;
        any++;
        if (unconfirmed)
          fprintf(f, "%s %.3f %s [%.2f, %.2f] at %zu B%s%s", any > 1 ? "," : "", w->ratio, w->verdict, w->lo, w->hi,
                  w->bytes, nv > 1 ? " in " : "", nv > 1 ? v[j].path : "");
        else
          fprintf(f, " %.3f at %zu B", w->ratio, w->bytes);
      }
    fprintf(f, "%s)\n", any ? "" : " not measured");
  }
}

/* A #@ value of the raw.csv beside a verify.csv, one line, at most len - 1 characters ("?" when absent). */
static void meta_word(const mg_rp_verify *v, const char *key, char *buf, size_t len) {
  const char *s = mg_ck_meta_get(&v->raw_meta, key);
  snprintf(buf, len, "%s", s && *s ? s : "?");
  for (char *c = buf; *c; c++)
    if (*c == '\n' || *c == '\r') *c = ' ';
}

/* The preamble line of a confirmed profile: "verify: confirmed K of N rules, DATE, LIBRARY, np=P,
 * LAYOUT (DIR...)" from the verify results' raw.csv (the last launch's date, the first's library). */
static void confirmed_line(const mg_rp_verify *v, int nv, int kept, int nrules, char *line, size_t len) {
  char date[64], lib[160], nn[32], rpn[64], layout[128] = "";
  meta_word(&v[nv - 1], "date", date, sizeof date);
  meta_word(&v[0], "mpi_library_version", lib, sizeof lib);
  if (!strcmp(lib, "?")) meta_word(&v[0], "mpi_library_name", lib, sizeof lib);
  lib[strcspn(lib, ",;")] = '\0'; /* "Open MPI v4.1.4, package: ...", "MPICH Version:\t4.0.2; ...": the version */
  for (char *r = lib, *w = lib;; r++) { /* white space as one blank */
    if (*r == '\t') *r = ' ';
    if (*r == ' ' && (w == lib || w[-1] == ' ')) continue;
    if (!(*w++ = *r)) break;
  }
  meta_word(&v[0], "nnodes", nn, sizeof nn);
  meta_word(&v[0], "ranks_per_node", rpn, sizeof rpn);
  if (strcmp(nn, "?"))
    snprintf(layout, sizeof layout, ", %s node(s)%s%s%s", nn, strcmp(rpn, "?") ? " x " : "", strcmp(rpn, "?") ? rpn : "",
             strcmp(rpn, "?") ? " ranks per node" : "");
  size_t u = (size_t)snprintf(line, len, "verify: confirmed %d of %d rule%s, %s, %s, np=%d%s (", kept, nrules,
                              nrules == 1 ? "" : "s", date, lib, v[0].nprocs, layout);
  for (int j = 0; j < nv && u < len; j++) u += (size_t)snprintf(line + u, len - u, "%s%s", j ? " " : "", v[j].path);
  if (u < len)
    snprintf(line + u, len - u, "): faster in verify at every size measured%s; the others dropped",
             nv > 1 ? ", in each launch" : "");
}

/* Rule k's comment with its verify figures appended: "...; verify: 0.280x [0.25, 0.31] at 64K". */
static void confirmed_comment(const mg_rp_verify *v, int nv, const mg_profile *p, int k, char *buf, size_t len) {
  const mg_profile_rule *ru = mg_profile_rule_at(p, k);
  size_t u = (size_t)snprintf(buf, len, "%s%sverify:", ru->comment ? ru->comment : "", ru->comment ? "; " : "");
  int any = 0;
  for (int j = 0; j < nv; j++)
    for (int i = 0; i < v[j].n && u < len; i++) {
      const mg_rp_vrow *w = &v[j].rows[i];
      if (rule_of(p, w) != k) continue;
      char sz[32];
      mg_fmt_bytes(w->bytes, MG_BYTES_EXACT, sz, sizeof sz);
      u += (size_t)snprintf(buf + u, len - u, "%s %.3fx [%.2f, %.2f] at %s", any++ ? "," : "", w->ratio, w->lo, w->hi, sz);
    }
}

/* The rules of p but the dropped ones, with p's preamble and one line more. NULL: out of memory. */
static mg_profile *kept_rules(const mg_profile *p, const int *drop, int ndrop, const char *dir, const mg_rp_verify *v,
                              int nv, int unconfirmed) {
  mg_profile *q = mg_profile_new();
  char line[4096];
  int bad = !q;
  for (int k = 0; !bad && k < mg_profile_npreamble(p); k++) bad = mg_profile_add_preamble(q, mg_profile_preamble_at(p, k)) != 0;
  if (unconfirmed) /* which rules verify confirmed, when and on what (its raw.csv's metadata) */
    confirmed_line(v, nv, mg_profile_nrules(p) - ndrop, mg_profile_nrules(p), line, sizeof line);
  else
    snprintf(line, sizeof line, "mpiguide tune --drop-slower %s: %d rule%s dropped that verify measured slower", dir,
             ndrop, ndrop == 1 ? "" : "s");
  bad = bad || mg_profile_add_preamble(q, line) != 0;
  for (int k = 0; !bad && k < mg_profile_nrules(p); k++) {
    const mg_profile_rule *ru = mg_profile_rule_at(p, k);
    if (drop[k]) continue;
    if (unconfirmed) confirmed_comment(v, nv, p, k, line, sizeof line);
    bad = mg_profile_add_sel(q, ru->coll, ru->np_lo, ru->np_hi, ru->lo, ru->hi, ru->tclass, ru->opsel, ru->alg,
                             unconfirmed ? line : ru->comment) != 0;
  }
  if (!bad) bad = mg_profile_build(q, NULL) != MG_PROFILE_OK;
  if (bad) mg_profile_free(q);
  return bad ? NULL : q;
}

/* The verify results of dir: dir/verify.csv, or those of a `verify --launches` directory
 * (dir/launch-K/verify.csv, K = 1, 2, ... while they exist). Their number, or -1 after a message. */
static int read_results(const char *cmd, const char *dir, int unconfirmed, mg_rp_verify **out) {
  char vp[1200], e[MG_CK_ERR];
  struct stat st;
  int n = 0, launches = 0;
  snprintf(vp, sizeof vp, "%s/verify.csv", dir);
  if (stat(vp, &st) != 0) {
    snprintf(vp, sizeof vp, "%s/launch-1/verify.csv", dir);
    launches = stat(vp, &st) == 0;
    if (!launches) snprintf(vp, sizeof vp, "%s/verify.csv", dir); /* its error message */
  }
  mg_rp_verify *v = calloc(1, sizeof *v);
  for (int k = 1; v; k++) {
    if (launches) snprintf(vp, sizeof vp, "%s/launch-%d/verify.csv", dir, k);
    if (launches && k > 1 && stat(vp, &st) != 0) break;
    mg_rp_verify *w = n ? realloc(v, (size_t)(n + 1) * sizeof *v) : v;
    if (!w) break;
    v = w;
    memset(&v[n], 0, sizeof v[n]);
    if (mg_rp_verify_read(vp, &v[n], e, sizeof e)) {
      fprintf(stderr, "mpiguide %s: %s%s (give a result directory of `mpiguide verify -o DIR`)\n", cmd,
              strcmp(cmd, "tune") ? "" : unconfirmed ? "--drop-unconfirmed: " : "--drop-slower: ", e);
      for (int j = 0; j < n; j++) mg_rp_verify_free(&v[j]);
      free(v);
      return -1;
    }
    n++;
    if (!launches) break;
  }
  if (!v) return fprintf(stderr, "mpiguide %s: out of memory\n", cmd), -1;
  *out = v;
  return n;
}

int mg_cmd_tune_drop(const char *cmd, const char *dir, const char *profile, const char *out, int unconfirmed, int quiet) {
  char e[MG_CK_ERR];
  mg_rp_verify *v = NULL;
  mg_profile *p = NULL, *q = NULL;
  mg_profile_diags diags = {0};
  int status = 2, *drop = NULL, nv = read_results(cmd, dir, unconfirmed, &v);
  if (nv < 0) return 2;
  const char *ppath = profile ? profile : v[0].profile;
  if (!*ppath) fprintf(stderr, "mpiguide %s: %s names no profile: give --profile FILE\n", cmd, v[0].path);
  else if (mg_profile_open(ppath, &p, &diags) != MG_PROFILE_OK) {
    for (int k = 0; k < diags.n; k++) {
      mg_profile_diag_format(&diags.v[k], e, sizeof e);
      fprintf(stderr, "mpiguide %s: %s\n", cmd, e);
    }
    if (!diags.n) fprintf(stderr, "mpiguide %s: cannot read the profile '%s'\n", cmd, ppath);
    fprintf(stderr, "(give --profile FILE, the profile that %s verified)\n", v[0].path);
  } else if (!(drop = calloc((size_t)mg_profile_nrules(p) + 1, sizeof *drop)))
    fprintf(stderr, "mpiguide %s: out of memory\n", cmd), status = 1;
  else {
    int ndrop = 0;
    for (int j = 0; j < nv && ndrop >= 0; j++) {
      int m = mark_drops(cmd, &v[j], p, ppath, unconfirmed, drop);
      ndrop = m < 0 ? -1 : ndrop + m;
    }
    /* a rule verify did not measure (in any one launch) is not confirmed either */
    for (int j = 0; j < nv && ndrop >= 0 && unconfirmed; j++)
      for (int k = 0; k < mg_profile_nrules(p); k++) {
        int seen = 0;
        for (int i = 0; i < v[j].n && !seen; i++) seen = rule_of(p, &v[j].rows[i]) == k;
        if (!seen && !drop[k]) drop[k] = 1, ndrop++;
      }
    if (ndrop >= 0 && !(q = kept_rules(p, drop, ndrop, dir, v, nv, unconfirmed)))
      fprintf(stderr, "mpiguide %s: out of memory\n", cmd), status = 1;
    else if (ndrop >= 0 && !(status = mg_cmd_tune_write_profile(q, out)) && (!quiet || unconfirmed)) {
      print_dropped(v, nv, p, ppath, unconfirmed, drop); /* what a confirmed profile lost: said even with -q */
      if (!quiet) printf("%d of %d rule%s dropped (%s); profile: %s\n", ndrop, mg_profile_nrules(p),
             mg_profile_nrules(p) == 1 ? "" : "s",
             unconfirmed ? "verify did not confirm them faster than the default" : "verify measured them slower than the default",
             out);
    }
  }
  mg_profile_diags_free(&diags);
  mg_profile_free(p);
  mg_profile_free(q);
  free(drop);
  for (int j = 0; j < nv; j++) mg_rp_verify_free(&v[j]);
  free(v);
  return status;
}
