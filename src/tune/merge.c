/*
 * `mpiguide profile merge`: combine profiles (typically learned online by several runs,
 * MPIGUIDE_PROFILE_OUT) into one that keeps only the choices they agree on.
 *
 * Rules are compared per group (collective, process-count selector, type= and op= selectors).
 * Within a group the message sizes are cut at every range boundary of every input; on each
 * piece, the inputs whose rules cover it vote: when all of them name the same algorithm the
 * piece keeps it, else it is dropped (a conflict, reported) and calls there run the default.
 * An input without a rule for a piece has no opinion, unless --all asks every input to cover it.
 * Pieces that touch and agree become one rule again (mg_profile_merge_touching). Profiles that
 * record different MPI libraries for one process count ("np=N: MPI library: ...") are never
 * merged (DESIGN.md: only like is merged with like).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/profile.h"
#include "util/sort.h"

typedef struct piece_rule {
  const mg_profile_rule *r;
  int file;
} piece_rule;

static int same_group(const mg_profile_rule *a, const mg_profile_rule *b) {
  return a->coll == b->coll && a->np_lo == b->np_lo && a->np_hi == b->np_hi && a->tclass == b->tclass &&
         a->opsel == b->opsel;
}

/* The group's rule text for messages ("allreduce np=4 16-63 type=float op=sum"). */
static void group_name(const mg_profile_rule *r, size_t lo, size_t hi, char *buf, size_t len) {
  char np[32], slo[32], shi[32];
  mg_profile_fmt_np(r->np_lo, r->np_hi, np, sizeof np);
  mg_profile_fmt_size(lo, slo, sizeof slo);
  mg_profile_fmt_size(hi, shi, sizeof shi);
  int k = snprintf(buf, len, "%s %s %s-%s", mg_colls[r->coll].name, np, slo, shi);
  if (r->tclass > 0 && k > 0 && (size_t)k < len) k += snprintf(buf + k, len - (size_t)k, " type=%s", mg_tclass_name(r->tclass));
  if (r->opsel > 0 && k > 0 && (size_t)k < len) snprintf(buf + k, len - (size_t)k, " op=%s", mg_opsel_name(r->opsel));
}

/* An algorithm as profiles name it ("default" for index 0). */
static const char *alg_name(mg_coll c, int alg) { return alg == 0 ? "default" : mg_colls[c].algs[alg].name; }

/* One group: rs[0..n) of files; adds the agreed pieces to out, reports conflicts. Returns the
 * number of conflicts, -1 out of memory. */
static int merge_group(const piece_rule *rs, int n, int nfiles, int all, char *const *names, mg_profile *out,
                       FILE *report) {
  size_t *cut = malloc((size_t)(2 * n) * sizeof *cut);
  if (!cut) return -1;
  int nc = 0, conflicts = 0;
  for (int i = 0; i < n; i++) {
    cut[nc++] = rs[i].r->lo;
    if (rs[i].r->hi < SIZE_MAX) cut[nc++] = rs[i].r->hi + 1;
  }
  qsort(cut, (size_t)nc, sizeof *cut, mg_cmp_size);
  for (int j = 0; j < nc; j++) {
    if (j && cut[j] == cut[j - 1]) continue;
    size_t lo = cut[j], hi = SIZE_MAX;
    for (int k = j + 1; k < nc; k++)
      if (cut[k] > lo) {
        hi = cut[k] - 1;
        break;
      }
    int alg = -1, voters = 0, agree = 1;
    const piece_rule *first = NULL, *other = NULL;
    for (int i = 0; i < n; i++) {
      if (rs[i].r->lo > lo || rs[i].r->hi < lo) continue;
      voters++;
      if (alg < 0) alg = rs[i].r->alg, first = &rs[i];
      else if (rs[i].r->alg != alg) agree = 0, other = &rs[i];
    }
    if (!voters) continue;
    char g[200];
    group_name(rs[0].r, lo, hi, g, sizeof g);
    if (!agree) {
      fprintf(report, "mpiguide profile merge: %s: %s says %s, %s says %s; dropped\n", g, names[first->file],
              alg_name(rs[0].r->coll, first->r->alg), names[other->file], alg_name(rs[0].r->coll, other->r->alg));
      conflicts++;
      continue;
    }
    if (all && voters < nfiles) {
      fprintf(report, "mpiguide profile merge: %s: only %d of %d profiles have a rule; dropped (--all)\n", g, voters,
              nfiles);
      continue;
    }
    /* one comment for every piece, so that touching pieces merge into a rule that says it once */
    const char *comment = all ? "merged: every input has this rule" : "merged: no input disagrees";
    const mg_profile_rule *r = rs[0].r;
    int st = r->tclass > 0 || r->opsel > 0
                 ? mg_profile_add_sel(out, r->coll, r->np_lo, r->np_hi, lo, hi, r->tclass, r->opsel, alg, comment)
                 : mg_profile_add(out, r->coll, r->np_lo, r->np_hi, lo, hi, alg, comment);
    if (st != MG_PROFILE_OK) {
      free(cut);
      return -1;
    }
  }
  free(cut);
  return conflicts;
}

/* The "np=N: MPI library: X" lines of every input must agree for each N. 0, or 1 after a message. */
static int same_libraries(mg_profile *const *ps, int n, char *const *names, mg_profile *out, FILE *report) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < mg_profile_npreamble(ps[i]); k++) {
      const char *line = mg_profile_preamble_at(ps[i], k);
      int np;
      char c;
      if (sscanf(line, "np=%d: MPI librar%c", &np, &c) != 2 || !strstr(line, "MPI library: ")) continue;
      int seen = 0;
      for (int j = 0; j < i && !seen; j++)
        for (int m = 0; m < mg_profile_npreamble(ps[j]); m++) {
          const char *other = mg_profile_preamble_at(ps[j], m);
          int np2;
          if (sscanf(other, "np=%d: MPI librar%c", &np2, &c) != 2 || np2 != np || !strstr(other, "MPI library: "))
            continue;
          if (strcmp(other, line) != 0) {
            fprintf(report, "mpiguide profile merge: %s and %s were measured with different MPI libraries at %d "
                    "processes ('%s' and '%s'); merge only profiles of one library\n", names[j], names[i], np,
                    strstr(other, "MPI library: ") + 13, strstr(line, "MPI library: ") + 13);
            return 1;
          }
          seen = 1;
          break;
        }
      if (!seen) mg_profile_add_preamble(out, line);
    }
  return 0;
}

static int cmp_piece(const void *a, const void *b) {
  const piece_rule *x = a, *y = b;
  const mg_profile_rule *r = x->r, *s = y->r;
  int d[] = {(int)r->coll - (int)s->coll, r->np_lo - s->np_lo, s->np_hi - r->np_hi, r->tclass - s->tclass,
             r->opsel - s->opsel};
  for (size_t i = 0; i < sizeof d / sizeof *d; i++)
    if (d[i]) return d[i];
  return x->file - y->file;
}

int mg_profile_merge_agreeing(mg_profile *const *ps, int n, char *const *names, int all, mg_profile **out,
                              int *conflicts, FILE *report) {
  *out = NULL;
  *conflicts = 0;
  int total = 0;
  for (int i = 0; i < n; i++) total += mg_profile_nrules(ps[i]);
  mg_profile *p = mg_profile_new();
  piece_rule *rs = malloc((size_t)(total + 1) * sizeof *rs);
  if (!p || !rs) {
    mg_profile_free(p), free(rs);
    fprintf(report, "mpiguide profile merge: out of memory\n");
    return 1;
  }
  char line[512];
  int k = snprintf(line, sizeof line, "merged by mpiguide profile merge%s from", all ? " --all" : "");
  for (int i = 0; i < n && k > 0 && (size_t)k < sizeof line; i++)
    k += snprintf(line + k, sizeof line - (size_t)k, " %s", names[i]);
  mg_profile_add_preamble(p, line);
  if (same_libraries(ps, n, names, p, report)) {
    mg_profile_free(p), free(rs);
    return 1;
  }
  int nr = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < mg_profile_nrules(ps[i]); j++) rs[nr++] = (piece_rule){mg_profile_rule_at(ps[i], j), i};
  qsort(rs, (size_t)nr, sizeof *rs, cmp_piece);
  for (int i = 0, j; i < nr; i = j) {
    for (j = i + 1; j < nr && same_group(rs[i].r, rs[j].r);) j++;
    int c = merge_group(rs + i, j - i, n, all, names, p, report);
    if (c < 0) {
      mg_profile_free(p), free(rs);
      fprintf(report, "mpiguide profile merge: out of memory\n");
      return 1;
    }
    *conflicts += c;
  }
  free(rs);
  mg_profile_diags d;
  mg_profile_diags_init(&d, 8);
  int st = mg_profile_merge_touching(p) < 0 ? MG_PROFILE_NOMEM : mg_profile_build(p, &d);
  if (st != MG_PROFILE_OK) { /* np selectors that nest differently in different inputs */
    for (int i = 0; i < d.n; i++) {
      char msg[600];
      mg_profile_diag_format(&d.v[i], msg, sizeof msg);
      fprintf(report, "mpiguide profile merge: the merged rules do not form a valid profile: %s\n", msg);
    }
    mg_profile_diags_free(&d);
    mg_profile_free(p);
    return 1;
  }
  mg_profile_diags_free(&d);
  *out = p;
  return 0;
}

static void usage(FILE *f) {
  fprintf(f, "usage: mpiguide profile merge [--all] [-o OUT] PROFILE...\n"
             "\n"
             "Combine profiles (e.g. learned online by several runs, MPIGUIDE_PROFILE_OUT) into one that\n"
             "keeps only the choices they agree on. For each collective, process-count selector, type= and\n"
             "op= selector, the message sizes are cut at every range boundary of every input; a piece keeps\n"
             "its algorithm when every input with a rule there names the same one, and is dropped (reported\n"
             "on stderr; calls there run the default) when they differ. Profiles measured with different\n"
             "MPI libraries at one process count are refused.\n"
             "\n"
             "  --all       keep a piece only when every input has a rule for it\n"
             "  -o OUT      write the merged profile to OUT (through OUT.tmp); default stdout\n"
             "\n"
             "Exit status: 0 merged (conflicts are reported, not errors), 1 an input is unreadable or\n"
             "invalid, or of another MPI library, 2 usage error.\n");
}

int mg_profile_merge_main(int argc, char **argv) {
  int all = 0, n = 0;
  const char *outpath = NULL;
  char **names = calloc((size_t)argc + 1, sizeof *names);
  if (!names) return fprintf(stderr, "mpiguide profile merge: out of memory\n"), 1;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return free(names), usage(stdout), 0;
    if (!strcmp(argv[i], "--all")) all = 1;
    else if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--out")) {
      if (++i >= argc) return free(names), fprintf(stderr, "mpiguide profile merge: -o needs a file name\n"), 2;
      outpath = argv[i];
    } else if (argv[i][0] == '-' && argv[i][1]) {
      free(names);
      fprintf(stderr, "mpiguide profile merge: unknown option '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    } else
      names[n++] = argv[i];
  }
  if (n < 1) return free(names), usage(stderr), 2;
  mg_profile **ps = calloc((size_t)n, sizeof *ps);
  int rc = ps ? 0 : 1;
  for (int i = 0; i < n && !rc; i++) {
    mg_profile_diags d;
    mg_profile_diags_init(&d, 8);
    if (mg_profile_open(names[i], &ps[i], &d) != MG_PROFILE_OK) {
      for (int k = 0; k < d.n; k++) {
        char msg[600];
        mg_profile_diag_format(&d.v[k], msg, sizeof msg);
        fprintf(stderr, "%s\n", msg);
      }
      fprintf(stderr, "mpiguide profile merge: %s is not a valid profile (mpiguide profile validate says more)\n",
              names[i]);
      rc = 1;
    }
    mg_profile_diags_free(&d);
  }
  mg_profile *m = NULL;
  int conflicts = 0;
  if (!rc) rc = mg_profile_merge_agreeing(ps, n, names, all, &m, &conflicts, stderr);
  if (!rc) {
    if (outpath ? mg_profile_save(m, outpath) != MG_PROFILE_OK : mg_profile_write(m, stdout) != MG_PROFILE_OK) {
      fprintf(stderr, "mpiguide profile merge: cannot write %s\n", outpath ? outpath : "to stdout");
      rc = 1;
    } else {
      fprintf(stderr, "mpiguide profile merge: %d rule%s from %d profile%s, %d conflict%s dropped%s%s\n",
              mg_profile_nrules(m), mg_profile_nrules(m) == 1 ? "" : "s", n, n == 1 ? "" : "s", conflicts,
              conflicts == 1 ? "" : "s", outpath ? "; written to " : "", outpath ? outpath : "");
    }
  }
  mg_profile_free(m);
  for (int i = 0; ps && i < n; i++) mg_profile_free(ps[i]);
  free(ps), free(names);
  return rc;
}
