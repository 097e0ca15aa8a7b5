/*
 * Result files of a check (docs/check.md): verdicts.csv, verdicts.json and
 * summary.txt, each written under a temporary name and renamed when complete
 * (bench/csv.h), so a crash never leaves a file that looks finished.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/csv.h"
#include "bench/pack.h"
#include "util/text.h"
#include "check/check.h"
#include "mpiguide.h"
#include "util/err.h"


const char *const mg_ck_result_files[] = {"raw.csv",     "verdicts.csv", "verdicts.json",    "monotony.csv",
                                          "summary.txt", "report.html",  "packverdicts.csv", "overlapverdicts.csv", NULL};

static const char *status_name(mg_ck_vstatus s) {
  return s == MG_CKV_OK ? "ok" : s == MG_CKV_SKIPPED ? "skipped" : "error";
}

/* A number for CSV: empty when undefined (pandas/R read NaN), inf as "inf". */
static void csv_num(FILE *f, double x) {
  if (isnan(x)) return;
  if (isinf(x))
    fputs(x > 0 ? "inf" : "-inf", f);
  else
    fprintf(f, "%.9g", x);
}

static void json_num(FILE *f, double x) {
  if (isnan(x))
    fputs("null", f);
  else if (isinf(x))
    fputs(x > 0 ? "1e999" : "-1e999", f);
  else
    fprintf(f, "%.9g", x);
}

static void settings_meta(FILE *f, const mg_ck_data *d, const mg_ck_result *r) {
  const mg_ck_opts *o = &r->opts;
  mg_meta(f, "mpiguide_version", "%s", MPIGUIDE_VERSION);
  mg_meta(f, "test", "%s", mg_ck_test_name(o->test));
  mg_meta(f, "alpha", "%g", o->alpha);
  mg_meta(f, "holm", "%d", o->holm);
  mg_meta(f, "family", "%d", r->family);
  mg_meta(f, "ci_level", "%g", o->level);
  mg_meta(f, "resamples", "%zu", o->resamples);
  mg_meta(f, "seed", "%u", (unsigned)o->seed);
  mg_meta(f, "aa_control", "%d", o->aa);
  if (o->noise > 0) mg_meta(f, "noise_sec", "%g", o->noise);
  mg_meta(f, "margin", "%g", o->margin);
  mg_meta(f, "launches", "%d", d->nlaunches);
  for (int i = 0; i < d->nlaunches; i++) {
    const mg_ck_launch *l = &d->launches[i];
    mg_meta(f, "launch", "%s,%s,%d,%.6g", l->id, l->source, l->nprocs, l->sync_cost);
  }
  mg_meta(f, "mpi_library_name", "%s", d->launches[0].mpi_name);
  mg_meta(f, "mpi_library_version", "%s", d->launches[0].mpi_version);
  mg_meta(f, "nprocs", "%d", d->launches[0].nprocs);
  mg_meta(f, "nnodes", "%d", d->launches[0].nnodes);
  const char *sim = mg_ck_meta_get(&d->launches[0].meta, "simulated"); /* SimGrid SMPI (docs/scale.md) */
  if (sim && !strcmp(sim, "1")) {
    static const char *const keys[] = {"simulated", "platform", "selector", "sim_trust"};
    for (int k = 0; k < 4; k++) {
      const char *v = mg_ck_meta_get(&d->launches[0].meta, keys[k]);
      if (v) mg_meta(f, keys[k], "%s", v);
    }
  }
  if (mg_ck_launch_in_place(&d->launches[0])) mg_meta(f, "in_place", "1"); /* the launches agree */
  if (mg_ck_launch_pattern(&d->launches[0])) mg_meta(f, "pattern", "%s", mg_ck_launch_pattern(&d->launches[0]));
  if (r->nrel) mg_meta(f, "relation_family", "%d", r->rel_family); /* REVERSE rows counted in family */
  if (d->launches[0].datatype && strchr(d->launches[0].datatype, ':')) /* a derived one (bench --datatype) */
    mg_meta(f, "datatype", "%s", d->launches[0].datatype);
  mg_ck_summary s;
  mg_ck_summarize(r, &s);
  mg_meta(f, "comparisons", "%d", s.total.comparisons);
  mg_meta(f, "violations", "%d", s.total.violations);
  mg_meta(f, "consistent", "%d", s.total.consistent);
  mg_meta(f, "inconclusive", "%d", s.total.inconclusive);
  mg_meta(f, "inconclusive_noise", "%d", s.total.noisy);
  mg_meta(f, "noise_dominated", "%d", s.noise_dominated);
  if (isfinite(s.score) && !s.noise_dominated) mg_meta(f, "consistency_score", "%.2f", s.score);
}

/* The verdicts in file order: each mock-up row, then the relation rows read off it (check.h). */
typedef struct vcursor {
  const mg_ck_result *r;
  int i, k; /* next row of r->v; relation rows of r->v[i - 1] still to give from r->rel[k] */
} vcursor;

static const mg_ck_verdict *vnext(vcursor *c) {
  const mg_ck_result *r = c->r;
  if (c->i > 0 && c->k < r->nrel) {
    const mg_ck_verdict *m = &r->v[c->i - 1], *x = &r->rel[c->k];
    if (mg_ck_same_cell(m, x) && !strcmp(m->alg, x->alg) && !m->aa) return c->k++, x;
  }
  return c->i < r->n ? &r->v[c->i++] : NULL;
}

/* The collective column of a verdict: its collective's name; packverdicts.csv: the pack operation's. */
typedef const char *(*opname_fn)(const mg_ck_verdict *v);
static const char *coll_name(const mg_ck_verdict *v) { return mg_colls[v->coll].name; }
static const char *pack_name(const mg_ck_verdict *v) { return mg_pack_op_name((int)v->coll); }

static void verdicts_csv(FILE *f, const mg_ck_data *d, const mg_ck_result *r, opname_fn opname) {
  mg_meta(f, "format", "mpiguide-check-verdicts/3");
  settings_meta(f, d, r);
  if (opname == pack_name) {
    mg_meta(f, "pack_family", "%d", r->family);
    mg_meta(f, "guideline", "%s: %s; %s", MG_PACK_GUIDELINE, MG_PACK_FORMULA, MG_UNPACK_FORMULA);
  }
  if (r->v == r->ovl && r->ovl) { /* overlapverdicts.csv */
    mg_meta(f, "overlap_family", "%d", r->family);
    mg_meta(f, "guideline", "%s: %s", MG_CK_OVL_GUIDELINE, MG_CK_OVL_FORMULA);
  }
  fputs(
      "collective,bytes,mockup,guideline,status,n_default,n_mockup,median_default_sec,median_mockup_sec,"
      "mean_default_sec,mean_mockup_sec,slowdown,slowdown_lo,slowdown_hi,test,method,statistic,critical_"
      "value,"
      "p_value,p_adjusted,significant,launches,launches_slower,sync_cost_sec,noise_warning,violation,outcome,note,"
      "reduction,roots,roots_slower,root_slowdown_min,relation\n",
      f);
  vcursor cur = {r, 0, 0};
  for (const mg_ck_verdict *v; (v = vnext(&cur));) {
    int ok = v->status == MG_CKV_OK;
    fprintf(f, "%s,%zu,", opname(v), v->bytes);
    mg_csv_str(f, v->alg);
    fprintf(f, ",%s,%s,%ld,%ld,", v->guideline, status_name(v->status), v->n_def, v->n_mock);
    double nums[] = {v->med_def, v->med_mock, v->mean_def, v->mean_mock, v->slowdown, v->lo, v->hi};
    for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++) {
      csv_num(f, nums[k]);
      fputc(',', f);
    }
    fprintf(f, "%s,%s,", mg_ck_test_name(r->opts.test), v->method);
    double more[] = {v->stat, v->crit, v->p, v->p_adj};
    for (size_t k = 0; k < sizeof more / sizeof more[0]; k++) {
      csv_num(f, more[k]);
      fputc(',', f);
    }
    if (ok)
      fprintf(f, "%d,%d,%d,", v->significant, v->launches, v->launches_slower);
    else
      fprintf(f, ",%d,%d,", v->launches, v->launches_slower);
    csv_num(f, v->sync_cost >= 0 ? v->sync_cost : NAN);
    if (ok)
      fprintf(f, ",%d,%d,%s,", v->noise, v->violation, mg_ck_outcome_name(v->outcome));
    else
      fprintf(f, ",,,,");
    mg_csv_str(f, v->note);
    fputc(',', f);
    mg_csv_str(f, v->red);
    fprintf(f, ",%d,%d,", v->roots, v->roots_slower);
    csv_num(f, v->root_worst);
    fprintf(f, ",%s\n", mg_ck_relation_name(v->rel));
  }
}

void mg_ck_write_verdicts_csv(FILE *f, const mg_ck_data *d, const mg_ck_result *r) { verdicts_csv(f, d, r, coll_name); }

void mg_ck_write_packverdicts_csv(FILE *f, const mg_ck_data *d, const mg_ck_result *r) {
  mg_ck_result t = *r; /* the pack verdicts in the place of the mock-ups' (their own family) */
  t.v = r->pack, t.n = r->npack, t.family = r->pack_family;
  t.rel = NULL, t.nrel = 0;
  verdicts_csv(f, d, &t, pack_name);
}

void mg_ck_write_overlapverdicts_csv(FILE *f, const mg_ck_data *d, const mg_ck_result *r) {
  mg_ck_result t = *r; /* the overlap verdicts in the place of the mock-ups' (their own family) */
  t.v = r->ovl, t.n = r->novl, t.family = r->ovl_family;
  t.rel = NULL, t.nrel = 0;
  verdicts_csv(f, d, &t, coll_name);
}

void mg_ck_write_verdicts_json(FILE *f, const mg_ck_data *d, const mg_ck_result *r) {
  const mg_ck_opts *o = &r->opts;
  mg_ck_summary s;
  mg_ck_summarize(r, &s);
  fprintf(f, "{\n\"format\": \"mpiguide-check-verdicts/3\",\n\"mpiguide_version\": \"%s\",\n",
          MPIGUIDE_VERSION);
  if (mg_ck_launch_in_place(&d->launches[0])) fputs("\"in_place\": true,\n", f); /* absent: not in place */
  if (mg_ck_launch_pattern(&d->launches[0])) { /* absent: no point-to-point measured */
    fputs("\"pattern\": ", f);
    mg_json_str(f, mg_ck_launch_pattern(&d->launches[0]));
    fputs(",\n", f);
  }
  fprintf(f,
          "\"settings\": {\"test\": \"%s\", \"alpha\": %g, \"holm\": %s, \"family\": %d, \"ci_level\": %g, "
          "\"resamples\": %zu, \"seed\": %u, \"aa_control\": %s, \"margin\": %g, ",
          mg_ck_test_name(o->test), o->alpha, o->holm ? "true" : "false", r->family, o->level, o->resamples,
          (unsigned)o->seed, o->aa ? "true" : "false", o->margin);
  if (r->nrel) fprintf(f, "\"relation_family\": %d, ", r->rel_family);
  fputs("\"noise_sec\": ", f);
  json_num(f, o->noise > 0 ? o->noise : NAN);
  fprintf(f, "},\n\"launches\": [");
  for (int i = 0; i < d->nlaunches; i++) {
    const mg_ck_launch *l = &d->launches[i];
    fprintf(f, "%s\n  {\"id\": ", i ? "," : "");
    mg_json_str(f, l->id);
    fprintf(f, ", \"source\": ");
    mg_json_str(f, l->source);
    fprintf(f, ", \"format\": \"%s\", \"nprocs\": %d, \"nnodes\": %d, \"sync_cost_sec\": ",
            l->repro ? "repro" : "csv", l->nprocs, l->nnodes);
    json_num(f, l->sync_cost >= 0 ? l->sync_cost : NAN);
    fprintf(f, ", \"mpi_library_name\": ");
    mg_json_str(f, l->mpi_name);
    fprintf(f, ", \"mpi_library_version\": ");
    mg_json_str(f, l->mpi_version);
    fprintf(f, ", \"hostname\": ");
    mg_json_str(f, l->hostname);
    fprintf(f, ", \"date\": ");
    mg_json_str(f, l->date);
    fprintf(f, "}");
  }
  fprintf(f,
          "\n],\n\"summary\": {\"comparisons\": %d, \"violations\": %d, \"consistent\": %d, "
          "\"inconclusive\": %d, \"inconclusive_noise\": %d, \"sizes\": %d, \"sizes_violated\": %d, "
          "\"sizes_judged\": %d, \"skipped\": %d, \"errors\": %d, \"noise_dominated\": %s, "
          "\"consistency_score\": ",
          s.total.comparisons, s.total.violations, s.total.consistent, s.total.inconclusive, s.total.noisy,
          s.total.cells, s.total.cells_violated, s.total.cells_judged, s.skipped, s.errors,
          s.noise_dominated ? "true" : "false");
  json_num(f, s.noise_dominated ? NAN : s.score);
  fprintf(f, ", \"aa_comparisons\": %d, \"aa_flagged\": %d,\n  \"collectives\": {", s.aa, s.aa_flagged);
  int first = 1;
  for (int c = 0; c < MG_NCOLL; c++) {
    const mg_ck_coll_summary *p = &s.per[c];
    if (!p->comparisons) continue;
    fprintf(f,
            "%s\n    \"%s\": {\"comparisons\": %d, \"violations\": %d, \"consistent\": %d, "
            "\"inconclusive\": %d, \"sizes\": %d, \"sizes_violated\": %d, \"sizes_judged\": %d, \"score\": ",
            first ? "" : ",", mg_colls[c].name, p->comparisons, p->violations, p->consistent, p->inconclusive,
            p->cells, p->cells_violated, p->cells_judged);
    json_num(f, p->cells_judged && !s.noise_dominated ? 100 * p->score_sum / p->cells_judged : NAN);
    fputc('}', f);
    first = 0;
  }
  fprintf(f, "}},\n\"verdicts\": [");
  vcursor cur = {r, 0, 0};
  int i = 0;
  for (const mg_ck_verdict *v; (v = vnext(&cur)); i++) {
    int ok = v->status == MG_CKV_OK;
    fprintf(f, "%s\n  {\"collective\": \"%s\", \"bytes\": %zu, \"mockup\": ", i ? "," : "",
            mg_colls[v->coll].name, v->bytes);
    mg_json_str(f, v->alg);
    fprintf(f, ", \"guideline\": ");
    mg_json_str(f, v->guideline);
    fprintf(f, ", \"status\": \"%s\", \"n_default\": %ld, \"n_mockup\": %ld", status_name(v->status),
            v->n_def, v->n_mock);
    const char *keys[] = {"median_default_sec", "median_mockup_sec", "mean_default_sec", "mean_mockup_sec",
                          "slowdown",           "slowdown_lo",       "slowdown_hi",      "statistic",
                          "critical_value",     "p_value",           "p_adjusted"};
    double vals[] = {v->med_def, v->med_mock, v->mean_def, v->mean_mock, v->slowdown, v->lo,
                     v->hi,      v->stat,     v->crit,     v->p,         v->p_adj};
    for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
      fprintf(f, ", \"%s\": ", keys[k]);
      json_num(f, vals[k]);
    }
    fprintf(f, ", \"test\": \"%s\", \"method\": ", mg_ck_test_name(r->opts.test));
    mg_json_str(f, v->method);
    if (ok)
      fprintf(f, ", \"significant\": %s", v->significant ? "true" : "false");
    else
      fprintf(f, ", \"significant\": null");
    fprintf(f, ", \"reduction\": ");
    mg_json_str(f, v->red);
    fprintf(f, ", \"roots\": %d, \"roots_slower\": %d, \"root_slowdown_min\": ", v->roots, v->roots_slower);
    json_num(f, v->root_worst);
    fprintf(f, ", \"launches\": %d, \"launches_slower\": %d, \"sync_cost_sec\": ", v->launches,
            v->launches_slower);
    json_num(f, v->sync_cost >= 0 ? v->sync_cost : NAN);
    if (ok)
      fprintf(f, ", \"noise_warning\": %s, \"violation\": %s, \"outcome\": \"%s\"", v->noise ? "true" : "false",
              v->violation ? "true" : "false", mg_ck_outcome_name(v->outcome));
    else
      fprintf(f, ", \"noise_warning\": null, \"violation\": null, \"outcome\": null");
    fprintf(f, ", \"note\": ");
    mg_json_str(f, v->note);
    fprintf(f, ", \"relation\": \"%s\"}", mg_ck_relation_name(v->rel));
  }
  fprintf(f, "\n]\n}\n");
}

/* monotony.csv: one row per monotony comparison (check.h), A(bytes) against A(bytes_faster). */
void mg_ck_write_monotony_csv(FILE *f, const mg_ck_data *d, const mg_ck_result *r) {
  mg_meta(f, "format", "mpiguide-check-monotony/1");
  settings_meta(f, d, r);
  mg_meta(f, "monotony_family", "%d", r->mono_family);
  fputs("collective,reduction,algorithm,guideline,bytes,bytes_faster,status,n_small,n_faster,median_small_sec,"
        "median_faster_sec,slowdown,slowdown_lo,slowdown_hi,p_value,p_adjusted,significant,launches,"
        "launches_slower,roots,roots_slower,sync_cost_sec,noise_warning,outcome,note\n",
        f);
  for (int i = 0; i < r->nmono; i++) {
    const mg_ck_verdict *v = &r->mono[i];
    int ok = v->status == MG_CKV_OK, a = mg_alg_find(v->coll, v->alg);
    fprintf(f, "%s,", mg_colls[v->coll].name);
    mg_csv_str(f, v->red);
    fputc(',', f);
    mg_csv_str(f, v->alg);
    fprintf(f, ",%s,%zu,%zu,%s,%ld,%ld,", a > 0 ? mg_colls[v->coll].algs[a].guideline : "", v->bytes,
            v->bytes_next, status_name(v->status), v->n_def, v->n_mock);
    double nums[] = {v->med_def, v->med_mock, v->slowdown, v->lo, v->hi, v->p, v->p_adj};
    for (size_t k = 0; k < sizeof nums / sizeof nums[0]; k++) {
      csv_num(f, nums[k]);
      fputc(',', f);
    }
    if (ok)
      fprintf(f, "%d,", v->significant);
    else
      fputc(',', f);
    fprintf(f, "%d,%d,%d,%d,", v->launches, v->launches_slower, v->roots, v->roots_slower);
    csv_num(f, v->sync_cost >= 0 ? v->sync_cost : NAN);
    if (ok)
      fprintf(f, ",%d,%s,", v->noise, mg_ck_outcome_name(v->outcome));
    else
      fprintf(f, ",,,");
    mg_csv_str(f, v->note);
    fputc('\n', f);
  }
}

typedef void (*writer_fn)(FILE *, const mg_ck_data *, const mg_ck_result *);

static void write_summary(FILE *f, const mg_ck_data *d, const mg_ck_result *r) {
  mg_ck_print_summary(f, d, r);
  fputc('\n', f);
  mg_ck_print_comparer(f, MG_CKC_GROUPED, MG_CK_TEXT, 0, d, r);
}

int mg_ck_write_results(const char *dir, const mg_ck_data *d, const mg_ck_result *r, char *err,
                        size_t errlen) {
  static const struct {
    const char *name;
    writer_fn fn;
    int lib; /* only with library variants (docs/libvar.md); 2: only with pack verdicts (TGT 2010 eq. 4);
                3: only with overlap verdicts (check --overlap) */
  } files[] = {{"verdicts.csv", mg_ck_write_verdicts_csv, 0},
               {"packverdicts.csv", mg_ck_write_packverdicts_csv, 2},
               {"overlapverdicts.csv", mg_ck_write_overlapverdicts_csv, 3},
               {"verdicts.json", mg_ck_write_verdicts_json, 0},
               {"monotony.csv", mg_ck_write_monotony_csv, 0},
               {"summary.txt", write_summary, 0},
               {"libvariants.csv", mg_ck_write_libvariants_csv, 1},
               {"libverdicts.csv", mg_ck_write_libverdicts_csv, 1}};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    if ((files[i].lib == 1 && !r->nlib) || (files[i].lib == 2 && !r->npack) || (files[i].lib == 3 && !r->novl))
      continue;
    size_t n = strlen(dir) + strlen(files[i].name) + 2;
    char *path = malloc(n);
    if (!path) return MG_ERR("out of memory");
    snprintf(path, n, "%s/%s", dir, files[i].name);
    mg_outfile o;
    int rc = mg_outfile_open(&o, path, err, errlen);
    free(path);
    if (rc) return -1;
    files[i].fn(o.f, d, r);
    if (mg_outfile_commit(&o, err, errlen)) return -1;
  }
  return 0;
}
