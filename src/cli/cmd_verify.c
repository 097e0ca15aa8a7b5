/*
 * `mpiguide verify --profile FILE [SIZE...] [-o DIR]` (under mpirun): does a
 * profile keep its promise on this machine and process count? (docs/tune.md)
 *
 * In one launch, for every collective with rules for this process count, the
 * bench engine measures the default and every mock-up, interleaved, at the
 * profile's range bounds, at half the lower and twice the upper bound of
 * every range (the cells around it), at 16, 1K, 64K and 1M for a rule that
 * covers every size (the only kind gatherv, scatterv and alltoallv have), and
 * at the SIZEs given. Rank 0 writes
 * DIR/raw.csv, leaves MPI and analyses it with the check's analysis (mgcheck):
 *
 *  1. tuned vs default, per (collective, size), with the check's three verdicts
 *     (violation / consistent / inconclusive) as the outcome: tuned is the algorithm
 *     mg_profile_lookup picks (what libmpiguide runs in tuned mode); the
 *     ratio is median(tuned) / median(default) with the bootstrap interval
 *     and the one-sided test (Holm over the run). Where the profile keeps the
 *     default, tuned runs the same code: the ratio is the A/A control (even
 *     against odd rounds of the default), i.e. the noise;
 *  2. the re-check with the tuned algorithm as the baseline: the same data
 *     analysed again with the tuned series in the default's place (and the
 *     library default as one more contender); what is significantly faster
 *     than the tuned choice is listed.
 *
 * Output: a table on stdout (columns as wide as their entries; under it the
 * rules measured slower, with file:line, and the tune --drop-slower command),
 * DIR/verify.csv, DIR/raw.csv. Exit codes: 0 done (also for a profile without
 * any rule: nothing to verify, nothing written), 1 the run or the analysis failed, 2 bad input.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "algs/algs.h"
#include "bench/bench.h"
#include "bench/csv.h"
#include "bench/eta.h"
#include "bench/output.h"
#include "check/check.h"
#include "cli/cli.h"
#include "cli/cmd_opts.h"
#include "cli/cmd_tune.h"
#include "cli/cmd_util.h"
#include "report/report.h"
#include "tune/profile.h"
#include "util/err.h"
#include "util/fmt.h"
#include "util/parse.h"
#include "util/sort.h"

#define OPTIONS(X)                                                                                    \
  X(PROFILE, "profile", 'p', MG_OPT_ARG) X(OUT, "out", 'o', MG_OPT_ARG) X(FORCE, "force", 'f', MG_OPT_FLAG) \
  X(QUIET, "quiet", 'q', MG_OPT_FLAG) X(BUDGET, "budget", 0, MG_OPT_ARG) X(NREP, "nrep", 0, MG_OPT_ARG)     \
  X(ALPHA, "alpha", 0, MG_OPT_ARG) X(SEED, "seed", 0, MG_OPT_ARG) X(HELP, "help", 'h', MG_OPT_FLAG)          \
  X(IN_PLACE, "in-place", 0, MG_OPT_FLAG) X(DTYPE, "datatype", 'd', MG_OPT_ARG)                            \
  X(LAUNCHES, "launches", 0, MG_OPT_ARG) X(NOISE, "noise", 0, MG_OPT_ARG)                                 \
  X(WRITE_CONFIRMED, "write-confirmed", 0, MG_OPT_ARG) X(NO_PROGRESS, "no-progress", 0, MG_OPT_FLAG)         \
  X(LAUNCH_OF, "launch-of", 0, MG_OPT_ARG)

enum { OPTIONS(MG_OPT_ENUM) O_N };
static const mg_opt opts[O_N] = {OPTIONS(MG_OPT_ROW)};

typedef struct vstate {
  int rank, size;
  char err[2048], e[1024];
  const char *profile_path, *out;
  const char *confirmed;       /* --write-confirmed FILE */
  char out_default[96];
  int force, quiet, created_out;
  int progress, launch_k, launch_n; /* the progress line (not -q, --no-progress); --launch-of K/N */
  mg_cmd_progress prog;
  double budget;
  double noise;                /* --noise; 0: the measured synchronisation cost */
  long nrep;
  double alpha;
  long seed;
  size_t *extra;
  int nextra;
  int in_place;                /* --in-place */
  int no_rules;                /* the profile has no rule at all (tune found the defaults best): exit 0 */
  int tuned_family, aa_family; /* the cells verify judges: tuned ones, and those the profile leaves alone */
  const mg_dtype_info *dtype;  /* --datatype, for the collectives without an op; NULL: MPI_BYTE */
  mg_profile *prof;
  size_t *sizes[MG_NCOLL];
  int nsizes[MG_NCOLL];
  mg_bench_cfg cfg[MG_NCOLL];
  mg_bench_result res[MG_NCOLL];
  int measured[MG_NCOLL];
} vstate;

/* Options and the SIZEs into S. 0, or -1 with S->err. */
static int parse(int argc, char **argv, vstate *S) {
  S->budget = 60;
  S->alpha = 0.05;
  S->seed = 1;
  S->extra = calloc((size_t)argc + 1, sizeof *S->extra);
  if (!S->extra) return MG_ERR_TO(S->err, "out of memory");
  mg_opt_vals o;
  int rc = mg_opt_parse(argc, argv, opts, O_N, &o, S->err, sizeof S->err);
  S->profile_path = o.val[O_PROFILE];
  S->in_place = o.given[O_IN_PLACE];
  if (o.given[O_DTYPE] && !(S->dtype = mg_dtype_parse(o.val[O_DTYPE], S->e, sizeof S->e)))
    return MG_ERR_TO(S->err, "--datatype: %s", S->e);
  S->out = o.val[O_OUT];
  S->confirmed = o.val[O_WRITE_CONFIRMED];
  S->force = o.given[O_FORCE];
  S->quiet = o.given[O_QUIET];
  S->progress = !S->quiet && !o.given[O_NO_PROGRESS];
  if (rc) goto out;
  rc = -1;
  if (o.given[O_BUDGET] && mg_parse_seconds(o.val[O_BUDGET], &S->budget, S->e, sizeof S->e)) {
    (void)MG_ERR_TO(S->err, "--budget: %s", S->e);
    goto out;
  }
  if (o.given[O_NOISE] && mg_parse_seconds(o.val[O_NOISE], &S->noise, S->e, sizeof S->e)) {
    (void)MG_ERR_TO(S->err, "--noise: %s", S->e);
    goto out;
  }
  if (o.given[O_NOISE] && !(S->noise > 0)) {
    (void)MG_ERR_TO(S->err, "--noise: must be positive (e.g. 1us)");
    goto out;
  }
  if (o.given[O_LAUNCH_OF] && mg_cmd_launch_of(o.val[O_LAUNCH_OF], &S->launch_k, &S->launch_n)) {
    (void)MG_ERR_TO(S->err, "--launch-of: '%s' is not K/N with 1 <= K <= N (e.g. 2/3)", o.val[O_LAUNCH_OF]);
    goto out;
  }
  if (o.given[O_NREP] && mg_parse_long(o.val[O_NREP], 4, 100000000, &S->nrep, S->e, sizeof S->e)) {
    (void)MG_ERR_TO(S->err, "--nrep: %s", S->e);
    goto out;
  }
  if (o.given[O_ALPHA] && (mg_parse_double(o.val[O_ALPHA], 0, &S->alpha, S->e, sizeof S->e) ||
                           !(S->alpha > 0 && S->alpha < 1))) {
    (void)MG_ERR_TO(S->err, "--alpha: '%s' is not between 0 and 1", o.val[O_ALPHA]);
    goto out;
  }
  if (o.given[O_SEED] && mg_parse_long(o.val[O_SEED], 0, UINT32_MAX, &S->seed, S->e, sizeof S->e)) {
    (void)MG_ERR_TO(S->err, "--seed: %s", S->e);
    goto out;
  }
  for (int i = 0; i < o.npos; i++) { /* sizes to measure as well */
    size_t *l = NULL;
    int n = 0;
    if (mg_parse_sizes(o.pos[i], &l, &n, S->e, sizeof S->e)) {
      (void)MG_ERR_TO(S->err, "size '%s': %s", o.pos[i], S->e);
      goto out;
    }
    for (int k = 0; k < n; k++) S->extra[S->nextra++] = l[k];
    free(l);
  }
  if (!S->profile_path) {
    (void)MG_ERR_TO(S->err, "--profile FILE is required");
    goto out;
  }
  rc = 0;
out:
  mg_opt_vals_free(&o);
  return rc;
}

/* The sizes measured for one collective: the bounds of every rule for this process count (of any
 * datatype and op), x0.5 / x2 around, the extra sizes. */
static int plan_sizes(vstate *S, mg_coll c) {
  int nr = mg_profile_nrules(S->prof), n = 0;
  for (int i = 0; i < nr; i++) {
    const mg_profile_rule *ru = mg_profile_rule_at(S->prof, i);
    n += ru->coll == c && ru->np_lo <= S->size && S->size <= ru->np_hi;
  }
  if (n <= 0) return 0;
  size_t *v = malloc(((size_t)n * 4 + (size_t)S->nextra + 1) * sizeof *v);
  static const size_t every[] = {16, 1024, 65536, 1 << 20}; /* a rule for every size: check --quick's */
  if (!v) return MG_ERR_TO(S->err, "out of memory");
  int k = 0;
  const size_t cap = (size_t)INT_MAX / 2; /* counts of MPI_BYTE must stay ints, also p x n for some */
  for (int i = 0; i < nr; i++) {
    const mg_profile_rule *r = mg_profile_rule_at(S->prof, i);
    if (r->coll != c || r->np_lo > S->size || S->size > r->np_hi) continue;
    if (r->lo == 0 && r->hi == SIZE_MAX) { /* no bound to measure at (e.g. gatherv's only rule) */
      for (int j = 0; j < 4; j++) v[k++] = every[j];
      continue;
    }
    v[k++] = r->lo;
    if (r->lo / 2 >= 1) v[k++] = r->lo / 2;
    if (r->hi != r->lo && r->hi <= cap) v[k++] = r->hi;
    if (r->hi <= cap / 2) v[k++] = r->hi * 2;
  }
  for (int i = 0; i < S->nextra; i++) v[k++] = S->extra[i];
  qsort(v, (size_t)k, sizeof *v, mg_cmp_size);
  int m = 0, unit = S->dtype && !mg_colls[c].reduction ? S->dtype->size : 1; /* whole elements of --datatype */
  for (int i = 0; i < k; i++)
    if (v[i] >= 1 && v[i] <= cap && v[i] % (size_t)unit == 0 && (m == 0 || v[m - 1] != v[i])) v[m++] = v[i];
  S->sizes[c] = v;
  S->nsizes[c] = m;
  return 0;
}

/* Rank 0: DIR/raw.csv from every collective's run (the scheme of check's raw.csv). */
static void verify_meta(FILE *f, void *arg) { mg_meta(f, "verify_profile", "%s", ((const vstate *)arg)->profile_path); }

static int write_raw(vstate *S, const mg_bench_meta *meta) {
  const mg_bench_cfg *cfgs[MG_NCOLL];
  const mg_bench_result *res[MG_NCOLL];
  int n = 0;
  for (int c = 0; c < MG_NCOLL; c++)
    if (S->measured[c]) cfgs[n] = &S->cfg[c], res[n++] = &S->res[c];
  mg_cmd_merged m;
  if (mg_cmd_merge(cfgs[0], cfgs, res, n, &m, S->err, sizeof S->err)) return -1;
  char cmd[4200];
  snprintf(cmd, sizeof cmd, "mpiguide verify --profile %s", S->profile_path);
  int rc = mg_cmd_write_raw(S->out, &m, meta, cmd, verify_meta, S, S->err, sizeof S->err);
  mg_cmd_merged_free(&m);
  return rc;
}

/* ---------- analysis (rank 0, after MPI) ---------- */

/* What libmpiguide runs for a call of c at bytes with the reduction pair red ("MPI_DOUBLE:MPI_SUM",
 * "" for the other collectives): the profile's choice for the datatype class and op. */
static int tuned_of(const vstate *S, mg_coll c, size_t bytes, const char *red) {
  int t, o;
  mg_ck_red_sel(red, &t, &o);
  return mg_profile_lookup_sel(S->prof, c, S->size, bytes, t, o);
}

static const mg_ck_verdict *find_v(const mg_ck_result *r, mg_coll c, size_t bytes, const char *red, const char *alg) {
  for (int i = 0; i < r->n; i++)
    if (r->v[i].coll == c && r->v[i].bytes == bytes && !strcmp(r->v[i].red, red) && !strcmp(r->v[i].alg, alg))
      return &r->v[i];
  return NULL;
}

static void us(double s, char *b, size_t n) {
  if (!isfinite(s))
    snprintf(b, n, "-");
  else
    snprintf(b, n, s * 1e6 >= 100 ? "%.1f" : "%.2f", s * 1e6);
}

/* r1: tuned vs default (with the A/A control); r2: the re-check with the tuned algorithm as the
 * baseline. 0, or 1 after a message. */
static int analyse_both(const vstate *S, mg_ck_data *d, mg_ck_result *r1, mg_ck_result *r2) {
  char err[MG_CK_ERR];
  if (mg_ck_read(d, S->out, err, sizeof err)) {
    fprintf(stderr, "mpiguide verify: %s\n", err);
    return 1;
  }
  mg_ck_opts o;
  mg_ck_opts_default(&o);
  o.alpha = S->alpha;
  o.seed = (uint32_t)S->seed;
  o.aa = 1;
  o.noise = S->noise;
  if (mg_ck_analyze(d, &o, r1, err, sizeof err)) {
    fprintf(stderr, "mpiguide verify: analysis failed: %s\n", err);
    return 1;
  }
  /* the re-check: in every tuned cell the tuned series takes the default's name and place */
  for (int i = 0; i < d->nseries; i++) {
    mg_ck_series *s = &d->series[i];
    int t = tuned_of(S, s->coll, s->bytes, s->red);
    if (!t) continue;
    if (!strcmp(s->alg, "default"))
      snprintf(s->alg, sizeof s->alg, "%s", mg_colls[s->coll].algs[t].name);
    else if (!strcmp(s->alg, mg_colls[s->coll].algs[t].name))
      snprintf(s->alg, sizeof s->alg, "default");
  }
  d->last = 0;
  o.aa = 0;
  if (mg_ck_analyze(d, &o, r2, err, sizeof err)) {
    fprintf(stderr, "mpiguide verify: re-check failed: %s\n", err);
    return 1;
  }
  return 0;
}

/* One cell of the output: tuned against the default at one (collective, size), and what is still
 * faster than tuned there. */
typedef struct vcell {
  mg_coll coll;
  size_t bytes;
  const char *red;                   /* the reduction pair measured ("" for other collectives) */
  int alg;                           /* the profile's choice; 0: not in the profile (A/A control) */
  double md, mt, ratio, lo, hi, p;   /* seconds; NaN without a comparison */
  const char *verdict;               /* faster, not-sig, slower, same, noise?, skipped, no-data */
  const char *outcome;               /* the check's verdict on the comparison; "" without one */
  const char *why;                   /* what withheld a decision the interval shows: " (noise)", ...; "" */
  char still[1024];
} vcell;

/* The cell of (c, b) from r1 (tuned vs default) and r2 (the re-check with tuned as the baseline). */
static void fill_cell(const vstate *S, const mg_ck_result *r1, const mg_ck_result *r2, mg_coll c, size_t b,
                      const char *red, vcell *x) {
  memset(x, 0, sizeof *x);
  x->coll = c, x->bytes = b, x->red = red;
  x->alg = tuned_of(S, c, b, red);
  x->md = x->mt = x->ratio = x->lo = x->hi = x->p = NAN;
  x->verdict = "no-data", x->outcome = "", x->why = "";
  const mg_ck_verdict *v0 = find_v(r1, c, b, red, x->alg ? mg_colls[c].algs[x->alg].name : MG_CK_AA_NAME);
  /* verify's claims are its tuned cells (and their A/A controls), not every mock-up it measured for
   * the re-check: the decision (the one rule, mg_ck_decide) is made again at that family's size */
  mg_ck_verdict vv;
  const mg_ck_verdict *v = v0;
  if (v0 && v0->status == MG_CKV_OK) {
    vv = *v0;
    int fam = x->alg ? S->tuned_family : S->aa_family;
    mg_ck_decide(&vv, S->alpha, (double)(fam > 0 ? fam : 1) * (r1->looks > 0 ? r1->looks : 1), r1->opts.margin);
    v = &vv;
  }
  if (v && v->status == MG_CKV_OK) {
    x->md = v->med_def, x->mt = v->med_mock, x->ratio = x->mt / x->md;
    x->lo = v->hi > 0 ? 1 / v->hi : NAN;
    x->hi = v->lo > 0 ? 1 / v->lo : NAN;
    x->p = v->p_adj;
    x->outcome = mg_ck_outcome_name(v->outcome);
    /* one decision per line (mg_ck_decide): the verdict is read off the interval printed beside it */
    if (!x->alg) x->verdict = v->significant || x->lo > 1 ? "noise?" : "same";
    else if (v->violation) x->verdict = "faster";
    else if (x->lo > 1 && !v->noise) x->verdict = "slower"; /* tuned's interval wholly above the default's */
    else x->verdict = "not-sig";
    x->why = v->noise && (x->lo > 1 || x->hi < 1)                         ? " (noise)"
             : v->significant && v->launches_slower != v->launches ? " (launches)"
             : v->significant && v->roots_slower != v->roots       ? " (roots)"
                                                                    : "";
  } else if (v)
    x->verdict = "skipped";
  size_t u = 0;
  for (int i = 0; i < r2->n; i++) {
    const mg_ck_verdict *w = &r2->v[i];
    if (w->coll != c || w->bytes != b || strcmp(w->red, red) || w->status != MG_CKV_OK || !w->violation) continue;
    int lib_default = x->alg && !strcmp(w->alg, mg_colls[c].algs[x->alg].name);
    if (u < sizeof x->still)
      u += (size_t)snprintf(x->still + u, sizeof x->still - u, "%s%s %.2fx", u ? ";" : "",
                            lib_default ? "default" : w->alg, w->slowdown);
  }
}

static const char *tuned_name(const vcell *x) {
  return x->alg ? mg_colls[x->coll].algs[x->alg].name : "default (not in profile)";
}

/* DIR/verify.csv (columns MG_VERIFY_COLUMNS). 0, or 1 after a message. */
static int write_csv(const vstate *S, const vcell *cells, int n) {
  char err[MG_CK_ERR], path[4096];
  snprintf(path, sizeof path, "%s/verify.csv", S->out);
  mg_outfile f;
  if (mg_outfile_open(&f, path, err, sizeof err)) return fprintf(stderr, "mpiguide verify: %s\n", err), 1;
  fprintf(f.f, "#@format=mpiguide-verify/2\n#@profile=%s\n#@nprocs=%d\n#@alpha=%g\n", S->profile_path, S->size,
          S->alpha);
  for (int c = 0; c < MG_VC_N; c++) fprintf(f.f, "%s%s", c ? "," : "", mg_rp_vcol_names[c]);
  fputc('\n', f.f);
  for (int i = 0; i < n; i++) {
    const vcell *x = &cells[i];
    fprintf(f.f, "%s,%d,%zu,%d,%s,%.9g,%.9g,%.6g,%.6g,%.6g,%.6g,%s,%s,%s,%s\n", mg_colls[x->coll].name, S->size,
            x->bytes, x->alg != 0, x->alg ? mg_colls[x->coll].algs[x->alg].name : "default", x->md, x->mt, x->ratio,
            x->lo, x->hi, x->p, x->verdict, x->outcome, x->still, x->red);
  }
  fprintf(f.f, "#@verify_rows=%d\n", n); /* the last line: a copy cut at a line break is refused (report/verify.c) */
  if (mg_outfile_commit(&f, err, sizeof err)) return fprintf(stderr, "mpiguide verify: %s\n", err), 1;
  return 0;
}

/* The table on stdout, every column as wide as its longest entry. */
static void print_table(const vcell *cells, int n) {
  int wc = (int)strlen("collective"), wt = (int)strlen("tuned (profile)"), wci = (int)strlen("95% CI"), wr = 6;
  char ci[64], r[32];
  for (int i = 0; i < n; i++) { /* a ratio of thousands (a median caught by a descheduled rank) widens it */
    int l = (int)strlen(mg_colls[cells[i].coll].name), t = (int)strlen(tuned_name(&cells[i]));
    wc = l > wc ? l : wc, wt = t > wt ? t : wt;
    int k = snprintf(ci, sizeof ci, "[%.2f,%.2f]", cells[i].lo, cells[i].hi);
    wci = k > wci ? k : wci;
    k = snprintf(r, sizeof r, "%.3f", cells[i].ratio);
    wr = k > wr ? k : wr;
  }
  printf("%-*s %15s  %-*s %11s %11s %*s %-*s %-18s %s\n", wc, "collective", "bytes", wt, "tuned (profile)",
         "default[us]", "tuned[us]", wr, "ratio", wci, "interval", "verdict", "still faster than tuned");
  for (int i = 0; i < n; i++) {
    const vcell *x = &cells[i];
    char sz[32 + MG_CK_RED], a[32], b[32], sr[MG_CK_RED];
    mg_fmt_bytes(x->bytes, MG_BYTES_EXACT, sz, 32);
    if (*x->red) snprintf(sz + strlen(sz), sizeof sz - strlen(sz), " %s", mg_ck_red_short(x->red, sr, sizeof sr));
    us(x->md, a, sizeof a);
    us(x->mt, b, sizeof b);
    if (isfinite(x->lo) && isfinite(x->hi)) snprintf(ci, sizeof ci, "[%.2f,%.2f]", x->lo, x->hi);
    else snprintf(ci, sizeof ci, "-");
    snprintf(r, sizeof r, "%.3f", x->ratio);
    char vd[48];
    snprintf(vd, sizeof vd, "%s%s", x->verdict, x->why);
    printf("%-*s %15s  %-*s %11s %11s %*s %-*s %-18s %s\n", wc, mg_colls[x->coll].name, sz, wt, tuned_name(x),
           a, b, wr, r, wci, ci, vd, x->still[0] ? x->still : "-");
  }
}

/* Under the table: the rules of the profile verify measured slower, with their line, and the command
 * that writes the profile without them (tune --drop-slower, cmd_tune.c). */
static void print_slower_rules(const vstate *S, const vcell *cells, int n) {
  int nr = mg_profile_nrules(S->prof), any = 0;
  for (int k = 0; k < nr; k++) {
    const mg_profile_rule *ru = mg_profile_rule_at(S->prof, k);
    char rule[200];
    int hits = 0;
    for (int i = 0; i < n; i++) {
      const vcell *x = &cells[i];
      if (!x->alg || strcmp(x->verdict, "slower") || mg_cmd_rule_find(S->prof, x->coll, S->size, x->bytes, x->red) != k)
        continue;
      if (!any++) printf("tuned is slower than the default under these rules; drop them:\n");
      if (!hits++) {
        mg_cmd_rule_str(ru, rule, sizeof rule);
        if (ru->line > 0) printf("  %s:%d: %s  (tuned/default", S->profile_path, ru->line, rule);
        else printf("  %s: %s  (tuned/default", S->profile_path, rule);
      }
      char sz[32];
      mg_fmt_bytes(x->bytes, MG_BYTES_EXACT, sz, sizeof sz);
      printf("%s %.3f at %s", hits > 1 ? "," : "", x->ratio, sz);
    }
    if (hits) printf(")\n");
  }
  if (any)
    printf("  the profile without them: mpiguide tune --drop-slower %s --profile %s -o KEPT.prof\n", S->out,
           S->profile_path);
}

/* DIR/verify.csv and the table. 0, or 1 after a message. */
static int write_verify(vstate *S, const mg_ck_result *r1, const mg_ck_result *r2) {
  int n = 0, tuned_cells = 0, improved = 0, worse = 0, outcomes[MG_CK_NOUTCOMES] = {0};
  vcell *cells = calloc((size_t)r1->n + 1, sizeof *cells);
  if (!cells) return fprintf(stderr, "mpiguide verify: out of memory\n"), 1;
  S->tuned_family = S->aa_family = 0;
  for (int i = 0; i < r1->n; i++) { /* the family of verify's claims: one per measured cell */
    const mg_ck_verdict *v = &r1->v[i];
    if (i > 0 && mg_ck_same_cell(v, &r1->v[i - 1])) continue;
    if (tuned_of(S, v->coll, v->bytes, v->red)) S->tuned_family++;
    else S->aa_family++;
  }
  for (int i = 0; i < r1->n; i++) { /* every measured (collective, size, reduction pair) */
    const mg_ck_verdict *v = &r1->v[i];
    if (i > 0 && mg_ck_same_cell(v, &r1->v[i - 1])) continue;
    vcell *x = &cells[n++];
    fill_cell(S, r1, r2, v->coll, v->bytes, v->red, x);
    if (!x->alg) continue;
    tuned_cells++;
    improved += !strcmp(x->verdict, "faster");
    worse += isfinite(x->ratio) && x->ratio > 1;
    for (int o = 0; o < MG_CK_NOUTCOMES; o++) outcomes[o] += !strcmp(x->outcome, mg_ck_outcome_name((mg_ck_outcome)o));
  }
  int st = write_csv(S, cells, n);
  if (!st && !S->quiet) {
    print_table(cells, n);
    printf("ratio = median(tuned) / median(default); where the profile keeps the default, the A/A control "
           "(even vs odd rounds of the default)\n");
    printf("verdict, one per line, read off the interval beside it (each end at alpha %g / the tuned cells, the rule "
           "check decides by):\n  faster = the interval below 1, beyond the noise, in every launch and at every root (check's "
           "violation);\n  slower = the interval above 1; not-sig = neither, with what withheld a decision the "
           "interval shows:\n  (noise) the medians within one synchronisation, (launches), (roots); same / noise? "
           "the A/A control\n", S->alpha);
    printf("%d cells, %d in the profile: %d significantly faster tuned, %d with a higher tuned median; outcomes "
           "there: %d violation, %d consistent, %d inconclusive\n", n, tuned_cells, improved, worse,
           outcomes[MG_CK_VIOLATION], outcomes[MG_CK_CONSISTENT], outcomes[MG_CK_INCONCLUSIVE]);
    print_slower_rules(S, cells, n);
    if (tuned_cells > improved && !S->confirmed)
      printf("%d of %d cells in the profile not confirmed faster; the profile with only the rules verify confirmed:\n"
             "  mpiguide tune --drop-unconfirmed %s --profile %s -o CONFIRMED.prof   (or verify --write-confirmed "
             "FILE)\n", tuned_cells - improved, tuned_cells, S->out, S->profile_path);
    printf("results: %s/ (verify.csv, raw.csv)\n", S->out);
  }
  free(cells);
  return st;
}

static int analyse(vstate *S) {
  mg_ck_data d;
  mg_ck_result r1, r2;
  mg_ck_data_init(&d);
  memset(&r1, 0, sizeof r1);
  memset(&r2, 0, sizeof r2);
  int st = analyse_both(S, &d, &r1, &r2);
  if (!st) st = write_verify(S, &r1, &r2);
  mg_ck_result_free(&r1);
  mg_ck_result_free(&r2);
  mg_ck_data_free(&d);
  return st;
}

/* Every rank: the profile, the sizes to measure, and (rank 0) the result directory. 0, or -1 with S->err. */
static int setup(vstate *S, const mg_bench_meta *meta) {
  mg_profile_diags diags = {0};
  if (mg_profile_open(S->profile_path, &S->prof, &diags) != MG_PROFILE_OK) {
    size_t u = (size_t)snprintf(S->err, sizeof S->err, "the profile is not valid:");
    for (int i = 0; i < diags.n && u < sizeof S->err; i++) {
      char l[600];
      mg_profile_diag_format(&diags.v[i], l, sizeof l);
      u += (size_t)snprintf(S->err + u, sizeof S->err - u, "\n  %s", l);
    }
    mg_profile_diags_free(&diags);
    return -1;
  }
  mg_profile_diags_free(&diags);
  int any = 0;
  for (int c = 0; c < MG_NCOLL; c++) {
    if (plan_sizes(S, (mg_coll)c)) return -1;
    any |= S->nsizes[c] > 0;
  }
  if (!any && mg_profile_nrules(S->prof) == 0) return S->no_rules = 1, 0; /* nothing to verify: not an error */
  if (!any)
    return MG_ERR_TO(S->err, "the profile '%s' has no rule for %d processes: nothing to verify (its rules are for "
                             "other process counts: start verify with one of those)", S->profile_path, S->size);
  snprintf(S->out_default, sizeof S->out_default, "mpiguide-verify-%s", meta->launch);
  if (!S->out) S->out = S->out_default;
  static const char *const results[] = {"verify.csv", NULL};
  if (S->rank == 0 && mg_cmd_out_dir(S->out, results, S->force, &S->created_out, S->err, sizeof S->err)) return -1;
  return 0;
}

/* How the calls of c are measured, as applications make them: a rooted collective at a rotating root
 * (up to 4 ranks evenly spaced, as check's presets), a reduction once per datatype class and op its
 * rules name (a class's mg_tclass_repr stands for it: MPI_DOUBLE, MPI_INT, MPI_INTEGER...), and with
 * bytes and MPI_BOR for its rules without selectors. */
static void measured_as(const vstate *S, mg_coll c, mg_bench_cfg *cfg) {
  if (mg_colls[c].rooted) {
    int k = S->size < 4 ? S->size : 4;
    for (int i = 0; i < k; i++) cfg->roots[cfg->nroots++] = i * S->size / k;
  }
  if (!mg_colls[c].reduction) return;
  for (int i = 0; i < mg_profile_nrules(S->prof); i++) {
    const mg_profile_rule *ru = mg_profile_rule_at(S->prof, i);
    if (ru->coll != c || ru->np_lo > S->size || S->size > ru->np_hi) continue;
    mg_bench_red red = {cfg->dtype, cfg->op};
    if (ru->tclass > 0 && mg_tclass_repr(ru->tclass)) red.dtype = mg_dtype_find(mg_tclass_repr(ru->tclass));
    if (ru->opsel > 0) red.op = mg_op_find(mg_opsel_name(ru->opsel));
    if (ru->tclass > 0 && ru->opsel <= 0) /* a class without an op: the op applications use on it */
      red.op = mg_op_find(mg_tclass_repr_op(ru->tclass));
    if (ru->tclass <= 0 && ru->opsel > 0 && !(red.op->categories & red.dtype->category))
      red.dtype = mg_dtype_find("MPI_INT"); /* an op without a class, on a type it is defined for */
    if (!red.dtype || !red.op || !(red.op->categories & red.dtype->category)) continue;
    int seen = 0;
    for (int k = 0; k < cfg->nreds && !seen; k++) seen = cfg->reds[k].dtype == red.dtype && cfg->reds[k].op == red.op;
    if (!seen && cfg->nreds < MG_BENCH_MAX_REDS) cfg->reds[cfg->nreds++] = red;
  }
}

/* The time left (eta.h): one estimator over the collectives measured one after another, as check's
 * groups, so the costs learned in one price the next; verify_eta_after: the collectives after the one
 * being measured (verify_next: its index). */
static mg_eta verify_eta;
static int verify_next;

static double verify_eta_after(const mg_eta *e, double share, void *arg) {
  vstate *S = arg;
  double sum = 0;
  for (int c = verify_next; c < MG_NCOLL; c++)
    if (S->nsizes[c]) sum += mg_bench_eta_cost(&S->cfg[c], e, share);
  return sum;
}

/* The blocks (sizes x reduction pairs) collective c measures: its share of the budget. */
static double verify_blocks(const vstate *S, mg_coll c) {
  int nr = mg_colls[c].reduction && S->cfg[c].nreds > 0 ? S->cfg[c].nreds : 1;
  return S->nsizes[c] > 0 ? (double)S->nsizes[c] * nr : 0;
}

/* How collective c is measured: the default and every mock-up at its sizes, interleaved and shuffled,
 * its share of the budget. */
static void plan_cfg(vstate *S, mg_coll c, int ncoll) {
  mg_bench_cfg *cfg = &S->cfg[c];
  memset(cfg, 0, sizeof *cfg);
  cfg->comm = MPI_COMM_WORLD;
  cfg->ncolls = 1;
  cfg->colls[0] = c;
  cfg->algmask[c] = (1u << mg_colls[c].nalgs) - 1;
  cfg->sizes = S->sizes[c];
  cfg->nsizes = S->nsizes[c];
  cfg->dtype = S->dtype && !mg_colls[c].reduction ? S->dtype : mg_dtype_find("MPI_BYTE");
  cfg->op = mg_op_find("MPI_BOR");
  cfg->in_place = S->in_place;
  measured_as(S, c, cfg);
  cfg->sync = MG_SYNC_BARRIER;
  cfg->time = MG_TIME_LOCAL;
  cfg->timer = MG_TIMER_MONOTONIC;
  cfg->window_factor = 4;
  cfg->clock_fits = 16;
  cfg->clock_pingpongs = 10;
  cfg->rep.mode = S->nrep ? MG_REP_FIXED : MG_REP_RSE;
  cfg->rep.stat = MG_STAT_MEDIAN;
  cfg->rep.nrep = S->nrep;
  cfg->rep.rse = 0.01;
  cfg->rep.min_nrep = 30;
  cfg->rep.max_nrep = 300;
  cfg->rep.k = 10;
  cfg->warmup = 3;
  cfg->batch = 10;
  cfg->time_total = S->budget / ncoll;
  cfg->shuffle = 1;
  cfg->seed = (uint64_t)S->seed;
  cfg->sync_cost_reps = 50;
  cfg->seq.noise = S->noise; /* recorded as #@noise_sec for a later analysis (report) */
}

/* Every rank: one engine run per collective of the profile, default and every mock-up, interleaved;
 * rank 0 shows the progress line (cmd_util.c, as check's: the whole verify's fraction and time left,
 * with --launch-of the launches after this one). */
static void measure(vstate *S) {
  int ncoll = 0;
  for (int c = 0; c < MG_NCOLL; c++) ncoll += S->nsizes[c] > 0;
  for (int c = 0; c < MG_NCOLL; c++)
    if (S->nsizes[c]) plan_cfg(S, (mg_coll)c, ncoll);
  mg_eta_init(&verify_eta);
  mg_cmd_progress_init(&S->prog, "verify", S->rank == 0 && S->progress, S->budget);
  S->prog.launch = S->launch_k, S->prog.launches = S->launch_n;
  for (int c = 0; c < MG_NCOLL; c++) {
    if (!S->nsizes[c]) continue;
    mg_bench_cfg *cfg = &S->cfg[c];
    cfg->eta = &verify_eta;
    cfg->eta_after = verify_eta_after;
    cfg->eta_arg = S;
    cfg->eta_elapsed_before = S->prog.elapsed_before;
    cfg->progress = mg_cmd_progress_cb;
    cfg->arg = &S->prog;
    verify_next = c + 1;
    if (S->budget > 0) { /* the rest of the budget, shared by the blocks left (as check's groups) */
      double left = 0, t = S->budget - S->prog.elapsed_before;
      for (int k = c; k < MG_NCOLL; k++) left += verify_blocks(S, (mg_coll)k);
      cfg->time_total = (t > 1e-3 ? t : 1e-3) * verify_blocks(S, (mg_coll)c) / (left > 0 ? left : 1);
    }
    if (mg_bench_run(cfg, &S->res[c]) != MPI_SUCCESS) {
      fprintf(stderr, "mpiguide verify: the measurement of %s failed on rank %d\n", mg_colls[c].name, S->rank);
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
    S->measured[c] = 1;
    double el = S->res[c].elapsed;
    MPI_Allreduce(MPI_IN_PLACE, &el, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    S->prog.elapsed_before += el;
  }
  mg_cmd_progress_end(&S->prog);
}

int mg_cmd_verify(int argc, char **argv) {
  int dd = argc, help = 0, launches = 0;
  for (int i = 1; i < argc && dd == argc; i++) {
    if (!strcmp(argv[i], "--")) dd = i;
    else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) help = 1;
    else if (!strcmp(argv[i], "--launches") || !strncmp(argv[i], "--launches=", 11)) launches = 1;
  }
  if (launches && !help) return mg_cmd_verify_launches(argc, argv, dd);
  for (int i = 1; i < argc && strcmp(argv[i], "--"); i++) /* the library's own setting: two launches */
    if (!strncmp(argv[i], "--lib-settings", 14) && strcmp(argv[i], "--help") && strcmp(argv[i], "-h"))
      return mg_cmd_verify_lib(argc, argv);
  vstate S0, *S = &S0;
  memset(S, 0, sizeof *S);
  int st = parse(argc, argv, S);
  for (int i = 1; i < argc; i++) /* --help anywhere wins, before any MPI */
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
      if (mg_cmd_launched_rank() == 0) fputs(mg_verify_usage_text, stdout);
      free(S->extra);
      return 0;
    }
  mg_bench_meta meta;
  if (mg_cmd_mpi_start("verify", &S->rank, &S->size, &meta)) {
    free(S->extra);
    return 1;
  }
  if (st == 0) st = setup(S, &meta);
  /* the lowest failing rank reports; the profile's contents must agree */
  uint64_t ph = S->prof ? mg_profile_hash(S->prof) : 0;
  int status = mg_cmd_agree("verify", S->rank, st, S->err, (uint32_t)(ph >> 32),
                            "the ranks read different profiles; give every rank the same file");
  if (status) goto done;
  if (S->no_rules) { /* tune's most common outcome: no violation at the sizes measured */
    if (S->rank == 0 && !S->quiet)
      printf("mpiguide verify: the profile '%s' has no rule: nothing to verify. With it every call runs the "
             "library's default, which `mpiguide tune` found the best choice at the sizes checked.\n",
             S->profile_path);
    goto done;
  }
  measure(S);
  if (S->rank == 0 && write_raw(S, &meta)) {
    fprintf(stderr, "mpiguide verify: %s\n", S->err);
    status = 1;
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
done:
  for (int c = 0; c < MG_NCOLL; c++) mg_bench_result_free(&S->res[c]);
  /* rank 0 analyses before MPI_Finalize, which can hang (docs/check.md): the others wait asleep */
  int analysed = status == 0 && S->rank == 0 && !S->no_rules;
  if (analysed) status = analyse(S);
  if (status == 0 && analysed && S->confirmed) /* the one step: only what verify confirmed */
    status = mg_cmd_tune_drop("verify", S->out, S->profile_path, S->confirmed, 1, S->quiet);
  if (status == 2 && S->rank == 0 && S->created_out) rmdir(S->out);
  mg_cmd_quiet_barrier();
  char saved[4200];
  snprintf(saved, sizeof saved, "%s in %s", status == 0 ? "results" : "raw data", S->out ? S->out : "");
  mg_cmd_mpi_end_status("verify", status, analysed ? saved : NULL);
  for (int c = 0; c < MG_NCOLL; c++) free(S->sizes[c]);
  mg_profile_free(S->prof);
  free(S->extra);
  return status;
}
