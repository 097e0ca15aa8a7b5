/*
 * `mpiguide predict`: the predicted time of every algorithm of a collective per (process
 * count, message size), and the predicted fastest (docs/model.md). No MPI: the LogGP
 * parameters come from a file (`mpiguide loggp`), the library's own algorithms are priced by
 * a check result's medians where it has them (--check), else by their model (model/cost.h).
 * With --check the measured medians stand next to the predictions: the relative error per
 * family and how often the predicted fastest is the measured fastest.
 * Exit codes: 0 done, 1 failed, 2 bad input.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/sample.h"
#include "check/check.h"
#include "cli/cli.h"
#include "cli/cmd_check_guided.h"
#include "cli/cmd_opts.h"
#include "cli/cmd_predict.h"
#include "cli/cmd_util.h"
#include "cost/cost.h"
#include "util/err.h"
#include "util/fmt.h"
#include "util/parse.h"
#include "util/sort.h"

static const char usage_text[] =
    "usage: mpiguide predict [--loggp FILE] [--check DIR...] [--np LIST] [--sizes LIST]\n"
    "                        [--collectives LIST] [--families LIST] [--all] [--csv FILE] [-q]\n"
    "\n"
    "Predicts the time of every algorithm of the registry (`mpiguide list`) per collective,\n"
    "process count and message size, and names the predicted fastest (docs/model.md). The\n"
    "point-to-point rows (family p2p) are priced by their LogGP schedules (--loggp, written by\n"
    "`mpiguide loggp`); a composition by its parts, the library's own collectives, priced by the\n"
    "medians of a check result where it measured them (--check), else by their model (the\n"
    "cheapest point-to-point algorithm). With --check, the measured medians are shown next to\n"
    "the predictions, with the median relative error per family and the share of cells whose\n"
    "predicted fastest is the measured fastest.\n"
    "\n"
    "      --loggp FILE        LogGP parameters (`mpiguide loggp -o FILE`)\n"
    "      --check DIR...      check results (`mpiguide check -o DIR`, a raw CSV): measured medians\n"
    "      --np LIST           process counts [those of --check, else the LogGP file's]\n"
    "      --sizes LIST        message sizes [those of --check, else 1K,4K,16K,64K,256K,1M]\n"
    "  -c, --collectives LIST  collectives [all]\n"
    "      --families LIST     families of mock-ups (`mpiguide list`) [all]\n"
    "      --all               every algorithm's prediction, not only the fastest\n"
    "      --csv FILE          every prediction as CSV (mpiguide-predict/3, docs/model.md)\n"
    "  -q, --quiet             no table (the summary and --csv only)\n"
    "      --guided SLACK      with --check: instead of the tables, the mock-up cells of the check\n"
    "                          that `check --model-guided --model-slack SLACK` would measure,\n"
    "                          judged from its defaults, as CSV (mpiguide-guided/1, docs/model.md)\n"
    "  -h, --help              this text\n";

#define OPTIONS(X)                                                                                          \
  X(HELP, "help", 'h', MG_OPT_FLAG) X(LOGGP, "loggp", 0, MG_OPT_ARG) X(CHECK, "check", 0, MG_OPT_LIST)         \
  X(NP, "np", 0, MG_OPT_ARG) X(SIZES, "sizes", 0, MG_OPT_ARG) X(COLLS, "collectives", 'c', MG_OPT_ARG)          \
  X(FAMILIES, "families", 0, MG_OPT_ARG) X(ALL, "all", 0, MG_OPT_FLAG) X(CSV, "csv", 0, MG_OPT_ARG)           \
  X(QUIET, "quiet", 'q', MG_OPT_FLAG) X(GUIDED, "guided", 0, MG_OPT_ARG)

enum { OPTIONS(MG_OPT_ENUM) O_N };
static const mg_opt opts[O_N] = {OPTIONS(MG_OPT_ROW)};

/* One measured median: (collective, algorithm, process count, size). */
typedef struct meas {
  int coll, alg, p;
  size_t bytes;
  double t;  /* the median */
  double *x; /* while reading: the pooled runtimes */
  long n;
} meas;

typedef struct predict {
  mg_loggp lg;
  int have_lg;
  mg_model m;
  meas *ms;
  int nms;
  int nps, ps[64];
  size_t *sizes;
  int nsizes;
  int colls[MG_NCOLL];  /* selected */
  unsigned fam;         /* families selected (bits) */
  int all, quiet;
  mg_guided_cfg guided; /* --guided: the rule of check --model-guided replayed (slack 0: not asked) */
  int only_measured;    /* the cells measured only (the sizes and process counts came from --check) */
  int nskew, skewp[64]; /* the measurements' synchronisation exit spread (#@sync_skew_sec) per process count */
  double skew[64];
  FILE *csv;
  long csv_rows; /* the data rows written to it: its last line, #@predict_rows=N */
  char e[MG_CK_ERR];
} predict;

static double find_meas(const predict *P, int coll, int alg, int p, size_t bytes) {
  for (int i = 0; i < P->nms; i++)
    if (P->ms[i].coll == coll && P->ms[i].alg == alg && P->ms[i].p == p && P->ms[i].bytes == bytes) return P->ms[i].t;
  return NAN;
}

static int add_int(predict *P, int *v, int *n, int max, int x) {
  for (int i = 0; i < *n; i++)
    if (v[i] == x) return 0;
  if (*n == max) return MG_ERR_TO(P->e, "more than %d process counts", max);
  v[(*n)++] = x;
  return 0;
}

static int add_size(predict *P, size_t b) {
  for (int i = 0; i < P->nsizes; i++)
    if (P->sizes[i] == b) return 0;
  size_t *v = realloc(P->sizes, (size_t)(P->nsizes + 1) * sizeof *v);
  if (!v) return MG_ERR_TO(P->e, "out of memory");
  P->sizes = v;
  P->sizes[P->nsizes++] = b;
  return 0;
}


/* The entry of (coll, alg, p, bytes) in P->ms, added when missing; NULL out of memory. */
static meas *entry(predict *P, int coll, int alg, int p, size_t bytes) {
  for (int i = P->nms - 1; i >= 0; i--)
    if (P->ms[i].coll == coll && P->ms[i].alg == alg && P->ms[i].p == p && P->ms[i].bytes == bytes) return &P->ms[i];
  meas *v = realloc(P->ms, (size_t)(P->nms + 1) * sizeof *v);
  if (!v) return NULL;
  P->ms = v;
  v[P->nms] = (meas){coll, alg, p, bytes, NAN, NULL, 0};
  return &v[P->nms++];
}

/* The medians of every series of the check results in dir, the launches of a cell pooled (a
 * reduction: its first datatype and op only); the defaults also go into the model. The sizes and
 * process counts measured are collected when asked. */
/* The largest exit spread of the synchronisation (#@sync_skew_sec) of d's launches, per process count. */
static void take_skew(predict *P, const mg_ck_data *d) {
  for (int l = 0; l < d->nlaunches; l++) {
    const mg_ck_launch *L = &d->launches[l];
    int k = 0;
    while (k < P->nskew && P->skewp[k] != L->nprocs) k++;
    if (k == P->nskew && k < 64) P->skewp[P->nskew] = L->nprocs, P->skew[P->nskew++] = 0;
    if (k < P->nskew && L->sync_skew > P->skew[k]) P->skew[k] = L->sync_skew;
  }
}

static double skew_of(const predict *P, int p) {
  for (int k = 0; k < P->nskew; k++)
    if (P->skewp[k] == p) return P->skew[k];
  return 0;
}

static int take_data(predict *P, const mg_ck_data *d, int want_np, int want_sizes) {
  const char *red[MG_NCOLL] = {0};
  int rc = 0;
  take_skew(P, d);
  for (int i = 0; i < d->nseries && !rc; i++) {
    const mg_ck_series *s = &d->series[i];
    int p = d->launches[s->launch].nprocs, alg = mg_alg_find(s->coll, s->alg);
    if (alg < 0 || p <= 0 || s->n <= 0) continue;
    if (alg > 0 && mg_colls[s->coll].algs[alg].family == MG_FAM_INPLACE) P->guided.in_place = 1;
    if (d->launches[s->launch].nnodes > P->guided.nnodes) P->guided.nnodes = d->launches[s->launch].nnodes;
    if (strchr(d->launches[s->launch].datatype ? d->launches[s->launch].datatype : "", ':')) P->guided.dense = 0;
    if (!red[s->coll]) red[s->coll] = s->red;
    if (strcmp(red[s->coll], s->red)) continue;
    meas *e = entry(P, s->coll, alg, p, s->bytes);
    double *x = e ? realloc(e->x, (size_t)(e->n + s->n) * sizeof *x) : NULL;
    if (!x) rc = MG_ERR_TO(P->e, "out of memory");
    else memcpy(x + e->n, s->rt, (size_t)s->n * sizeof *x), e->x = x, e->n += s->n;
    if (!rc && ((want_np && add_int(P, P->ps, &P->nps, 64, p)) || (want_sizes && add_size(P, s->bytes)))) rc = -1;
  }
  for (int i = 0; i < P->nms && !rc; i++) {
    meas *e = &P->ms[i];
    if (!e->x) continue;
    mg_sort_doubles(e->x, e->n);
    e->t = mg_median_sorted(e->x, e->n);
    /* the median's own spread: its 95 % interval, relative (a series too short for one: the stated default) */
    double rel = 1.96 * mg_rse_median_sorted(e->x, e->n);
    free(e->x), e->x = NULL, e->n = 0;
    if (e->alg == 0 && mg_model_add_rel(&P->m, e->coll, e->p, (double)e->bytes, e->t, isfinite(rel) ? rel : 0))
      rc = MG_ERR_TO(P->e, "out of memory");
  }
  return rc;
}

static int read_check(predict *P, const char *dir, int want_np, int want_sizes) {
  mg_ck_data d;
  mg_ck_data_init(&d);
  int rc = mg_ck_read(&d, dir, P->e, sizeof P->e) ? -1 : take_data(P, &d, want_np, want_sizes);
  mg_ck_data_free(&d);
  return rc;
}

static int add_coll(const char *name, void *arg) {
  predict *P = arg;
  int c = mg_coll_find(name);
  if (c < 0) return MG_ERR_TO(P->e, "--collectives: unknown collective '%s'; valid: %s", name, mg_coll_names());
  P->colls[c] = 1;
  return 0;
}

static int add_family(const char *name, void *arg) {
  predict *P = arg;
  int f = mg_family_find(name);
  if (f < 0) return MG_ERR_TO(P->e, "--families: unknown family '%s' (`mpiguide list` names them)", name);
  P->fam |= 1u << f;
  return 0;
}

static int add_np(const char *item, void *arg) {
  predict *P = arg;
  long v;
  if (mg_parse_long(item, 1, 1 << 24, &v, P->e, sizeof P->e)) return MG_ERR_TO(P->e, "--np: '%s' is not a process count", item);
  return add_int(P, P->ps, &P->nps, 64, (int)v);
}

/* A warning on stderr and on out (NULL: stderr only) for every fit of the LogGP file whose R^2 is below
 * MG_PREDICT_R2_POOR: its parameters, and every prediction made from them, may be far off. */
static void warn_poor_fit(const char *path, FILE *out) {
  static const char *const what[4] = {"PRTT(1,0,s)", "PRTT(n,0,s)", "PRTT(n,d,s)", "g + (s-1)G"};
  mg_loggp_file *lf = calloc(1, sizeof *lf);
  char e[512];
  if (!lf || mg_loggp_read_file(path, lf, e, sizeof e)) { /* read before: it cannot fail here but for memory */
    free(lf);
    return;
  }
  for (int k = 0; k < 2; k++) {
    if (!lf->has[k]) continue;
    const mg_loggp_class *c = &lf->cls[k];
    double r2[4] = {c->r2[0], c->r2[1], c->r2[2], c->r2_gap};
    char l[512];
    size_t u = 0;
    for (int i = 0; i < 4 && u < sizeof l; i++)
      if (r2[i] < MG_PREDICT_R2_POOR)
        u += (size_t)snprintf(l + u, sizeof l - u, "%sR^2 %.2f of %s", u ? ", " : "", r2[i], what[i]);
    if (!u) continue;
    for (FILE *f = stderr; f; f = f == stderr ? out : NULL)
      fprintf(f, "%swarning: the LogGP fit of %s (%s pair) is poor: %s (below %.2f): the model does not "
                 "describe these round trips, and predictions from it may be far off (docs/loggp.md)\n",
              f == stderr ? "mpiguide predict: " : "", path, k ? "inter-node" : "intra-node", l, MG_PREDICT_R2_POOR);
  }
  free(lf);
}

/* The options into P. 0, 1 for --help (printed), or 2 after a message. */
static int parse(int argc, char **argv, predict *P) {
  mg_opt_vals o;
  int rc = mg_opt_parse(argc, argv, opts, O_N, &o, P->e, sizeof P->e);
  if (o.given[O_HELP]) {
    fputs(usage_text, stdout);
    return mg_opt_vals_free(&o), 1;
  }
  if (!rc && o.npos) rc = MG_ERR_TO(P->e, "unexpected argument '%s'", o.pos[0]);
  const char *v;
  if (!rc && (v = o.val[O_LOGGP])) {
    if (mg_loggp_read(v, &P->lg, P->e, sizeof P->e)) rc = -1;
    else {
      P->have_lg = 1, P->guided.model_noisy = mg_guided_model_noisy(v);
      warn_poor_fit(v, o.given[O_QUIET] || o.given[O_GUIDED] ? NULL : stdout);
    }
  }
  mg_model_init(&P->m, P->have_lg ? &P->lg : NULL);
  if (!rc && !P->have_lg && !o.given[O_CHECK]) rc = MG_ERR_TO(P->e, "nothing to predict from: give --loggp FILE, --check DIR or both");
  if (!rc && (v = o.val[O_NP])) rc = mg_cmd_each(v, "--np", add_np, P, P->e, sizeof P->e);
  if (!rc && (v = o.val[O_SIZES])) {
    size_t *sz;
    int n;
    if (mg_parse_sizes(v, &sz, &n, P->e, sizeof P->e)) rc = -1;
    for (int i = 0; !rc && i < n; i++) rc = add_size(P, sz[i]);
    if (!rc || n) free(sz);
  }
  for (int i = 0; !rc && i < o.nlist; i++) rc = read_check(P, o.list[i], !o.given[O_NP], !o.given[O_SIZES]);
  P->only_measured = o.nlist > 0 && !o.given[O_NP] && !o.given[O_SIZES];
  mg_model_sort(&P->m);
  if (!rc && (v = o.val[O_COLLS])) rc = mg_cmd_each(v, "--collectives", add_coll, P, P->e, sizeof P->e);
  else for (int c = 0; c < MG_NCOLLECTIVES; c++) P->colls[c] = 1;
  if (!rc && (v = o.val[O_FAMILIES]) && strcmp(v, "all")) rc = mg_cmd_each(v, "--families", add_family, P, P->e, sizeof P->e);
  else P->fam = ~0u;
  if (!rc && !P->nps) {
    if (P->have_lg && P->lg.p > 1) P->ps[P->nps++] = P->lg.p;
    else rc = MG_ERR_TO(P->e, "--np: no process count given, and none in the LogGP file or the check results");
  }
  if (!rc && !P->nsizes)
    for (size_t b = 1024; b <= (1u << 20) && !rc; b *= 4) rc = add_size(P, b);
  if (!rc && (v = o.val[O_CSV]) && !(P->csv = fopen(v, "w"))) rc = MG_ERR_TO(P->e, "--csv: cannot write '%s'", v);
  P->all = o.given[O_ALL];
  if (!rc && (v = o.val[O_GUIDED]) &&
      (mg_parse_double(v, 0, &P->guided.slack, P->e, sizeof P->e) || !(P->guided.slack >= 1) || !o.nlist))
    rc = MG_ERR_TO(P->e, "--guided: '%s' is not a slack >= 1, or no --check DIR to replay the rule on", v);
  if (P->guided.slack > 0) P->quiet = 1, P->only_measured = 1;
  P->quiet |= o.given[O_QUIET];
  mg_opt_vals_free(&o);
  if (rc) {
    fprintf(stderr, "mpiguide predict: %s\n(mpiguide predict --help shows the options)\n", P->e);
    return 2;
  }
  qsort(P->ps, (size_t)P->nps, sizeof *P->ps, mg_cmp_int);
  qsort(P->sizes, (size_t)P->nsizes, sizeof *P->sizes, mg_cmp_size);
  return 0;
}

/* Relative errors per family, and the agreement of predicted and measured fastest. */
typedef struct tally {
  double *err[MG_NFAM];
  int nerr[MG_NFAM];
  int agree[2], cells[2]; /* [0]: among the p2p rows, [1]: among every row */
} tally;

static int add_err(tally *T, int fam, double e) {
  double *v = realloc(T->err[fam], (size_t)(T->nerr[fam] + 1) * sizeof *v);
  if (!v) return -1;
  T->err[fam] = v;
  v[T->nerr[fam]++] = e;
  return 0;
}

static const char *us(double t, char *buf, size_t len) {
  if (isnan(t)) snprintf(buf, len, "-");
  else snprintf(buf, len, "%.1f us", t * 1e6);
  return buf;
}

/* How sure a price is: "source +-u% [lo, hi] us" (docs/model.md, "How sure a price is"). */
static const char *sure(const mg_price *pr, char *buf, size_t len) {
  snprintf(buf, len, "%s +-%.0f%% [%.3g, %.3g]", mg_price_name(pr->src), 100 * mg_price_rel(pr), pr->lo * 1e6,
           pr->hi * 1e6);
  return buf;
}

/* One cell: every selected algorithm's prediction, the table line(s), the CSV rows, the tally. */
static int cell(predict *P, int coll, int p, size_t bytes, tally *T) {
  const mg_coll_info *ci = &mg_colls[coll];
  double pred[MG_MAX_ALGS], meas_t[MG_MAX_ALGS];
  mg_price price[MG_MAX_ALGS];
  char b4[64];
  int best = -1, mbest[2] = {-1, -1}, pbest[2] = {-1, -1}, nboth[2] = {0, 0};
  char b1[48], b2[32], b3[32 + MG_CK_NAME], sz[32]; /* b3: "(measured: NAME)", any algorithm's name whole */
  mg_price_src src = MG_PRICE_NONE;
  mg_fmt_bytes(bytes, MG_BYTES_EXACT, sz, sizeof sz);
  if (P->only_measured && isnan(find_meas(P, coll, 0, p, bytes))) return 0;
  for (int a = 0; a < ci->nalgs; a++) {
    const mg_alg *al = &ci->algs[a];
    pred[a] = meas_t[a] = NAN;
    if (a && !(P->fam & (1u << al->family))) continue;
    price[a] = mg_model_alg_price(&P->m, coll, a, p, (double)bytes);
    pred[a] = price[a].t;
    if (!a) src = price[a].src;
    meas_t[a] = find_meas(P, coll, a, p, bytes);
    /* the fastest: the lowest upper end of the interval, the time the model can promise (a price
     * whose interval reaches high, an extrapolation or a composition whose split the model does not
     * know, is not named over a sure one); a default priced by the model alone is the cheapest p2p
     * row: name that row instead */
    int tie = best >= 0 && fabs(price[a].hi - price[best].hi) <= 1e-9 * price[best].hi; /* a schedule before an expression */
    if (!isnan(pred[a]) && (a || src != MG_PRICE_MODEL) &&
        (best < 0 || (!tie && price[a].hi < price[best].hi) || (tie && al->costfn && !ci->algs[best].costfn)))
      best = a;
    for (int k = 0; k < 2; k++)
      if (!isnan(pred[a]) && !isnan(meas_t[a]) && (k == 1 || (a && al->family == MG_FAM_P2P))) {
        nboth[k]++;
        if (pbest[k] < 0 || pred[a] + (al->costfn ? skew_of(P, p) : 0) <
                                pred[pbest[k]] + (ci->algs[pbest[k]].costfn ? skew_of(P, p) : 0))
          pbest[k] = a;
        if (mbest[k] < 0 || meas_t[a] < meas_t[mbest[k]]) mbest[k] = a;
      }
    /* a measured time includes the spread of the ranks' exits from the synchronisation before it; a
     * schedule's prediction does not: the comparison adds it (the other rows' parts are measured) */
    double skew = al->costfn ? skew_of(P, p) : 0, cmp = pred[a] + skew;
    if (a && !isnan(pred[a]) && !isnan(meas_t[a]) && meas_t[a] > 0 &&
        add_err(T, al->family, fabs(cmp - meas_t[a]) / meas_t[a]))
      return MG_ERR_TO(P->e, "out of memory");
    if (P->guided.slack > 0 && a && !isnan(meas_t[a])) {
      mg_guided_why w = mg_guided_cell(&P->m, &P->guided, (mg_coll)coll, a, p, (double)bytes);
      printf("%s,%d,%zu,%s,%s,%.9g,%.9g,%.9g,%.9g,%d,%s\n", ci->name, p, bytes, al->name, mg_families[al->family].name,
             price[a].t, price[a].lo, price[0].t, price[0].hi, mg_guided_measured(w), mg_guided_key(w));
    }
    if (P->csv && !isnan(pred[a]) && ++P->csv_rows)
      fprintf(P->csv, "%s,%d,%zu,%s,%s,%.9g,%s,%.9g,%.4f,%.9g,%.9g,%.9g\n", ci->name, p, bytes, a ? al->name : "default",
              a ? mg_families[al->family].name : "", pred[a], mg_price_name(price[a].src), meas_t[a],
              (cmp - meas_t[a]) / meas_t[a], skew, price[a].lo, price[a].hi); /* NaN (printed nan) where not measured */
    if (!P->quiet && P->all && !isnan(pred[a]))
      printf("  %-6s %-44s %12s %12s  %s\n", sz, a ? al->name : "default", us(pred[a], b1, sizeof b1),
             us(meas_t[a], b2, sizeof b2), sure(&price[a], b4, sizeof b4));
  }
  for (int k = 0; k < 2; k++)
    if (nboth[k] >= 2) T->cells[k]++, T->agree[k] += pbest[k] == mbest[k];
  if (!P->quiet && !P->all && best < 0)
    printf("  %-6s %-20s no price: no LogGP parameters for its schedules, no measurement of its parts\n", sz, "-");
  if (!isnan(pred[0])) snprintf(b1 + strlen(us(pred[0], b1, sizeof b1)), sizeof b1 - strlen(b1), " %s", mg_price_name(src));
  if (!P->quiet && !P->all && best >= 0)
    printf("  %-6s %-20s %-44s %12s %-28s %s\n", sz, b1, best ? ci->algs[best].name : "default",
           us(pred[best], b2, sizeof b2), sure(&price[best], b4, sizeof b4),
           mbest[1] >= 0 ? (snprintf(b3, sizeof b3, "(measured: %s)", mbest[1] ? ci->algs[mbest[1]].name : "default"), b3)
                         : "");
  return 0;
}

static void summary(const tally *T, FILE *out) {
  int any = 0;
  for (int f = 0; f < MG_NFAM; f++) any |= T->nerr[f] > 0;
  if (!any) return;
  fprintf(out, "\nprediction error |predicted - measured| / measured, median over the measured cells:\n");
  for (int f = 0; f < MG_NFAM; f++)
    if (T->nerr[f]) {
      mg_sort_doubles(T->err[f], (size_t)T->nerr[f]);
      fprintf(out, "  %-12s %6.1f %%  (%d cells)\n", mg_families[f].name, 100 * mg_median_sorted(T->err[f], T->nerr[f]),
             T->nerr[f]);
    }
  const char *what[2] = {"among the p2p rows", "among every row priced"};
  for (int k = 0; k < 2; k++)
    if (T->cells[k])
      fprintf(out, "predicted fastest = measured fastest %s: %d of %d cells (%.0f %%)\n", what[k], T->agree[k], T->cells[k],
             100.0 * T->agree[k] / T->cells[k]);
}

/* mpiguide-predict/3: /2 and a last line #@predict_rows=N (a file cut between two rows is refused);
 * /2 added the interval (lo_sec, hi_sec) at the end, so a reader of /1 reads it */
static const char csv_header[] = "# mpiguide-predict/3\ncollective,nprocs,bytes,algorithm,family,predicted_sec,price,"
                                 "measured_sec,rel_error,sync_skew_sec,lo_sec,hi_sec\n";

/* Every selected cell, then the summary on out (NULL: none). 0, or 1 after a message. */
static int run(predict *P, FILE *out) {
  tally T;
  int rc = 0;
  memset(&T, 0, sizeof T);
  if (P->csv) fputs(csv_header, P->csv);
  if (P->guided.slack > 0) fputs("# mpiguide-guided/1\ncollective,nprocs,bytes,algorithm,family,price_sec,price_lo_sec,default_sec,default_hi_sec,measured,why\n", stdout);
  for (int c = 0; rc == 0 && c < MG_NCOLL; c++) {
    if (!P->colls[c]) continue;
    for (int i = 0; rc == 0 && i < P->nps; i++) {
      int any = !P->only_measured;
      for (int k = 0; !any && k < P->nms; k++) any = P->ms[k].coll == c && P->ms[k].p == P->ps[i];
      if (!any) continue;
      if (!P->quiet)
        printf("%s, %d processes%s\n  %-6s %-20s %-44s %12s\n", mg_colls[c].name, P->ps[i],
               P->all ? "" : ": the predicted fastest", "size", P->all ? "" : "default",
               P->all ? "algorithm    predicted    measured  source +-u [interval, us]" : "fastest",
               P->all ? "" : "predicted  source +-u [interval, us]");
      for (int j = 0; rc == 0 && j < (c == MG_BARRIER ? 1 : P->nsizes); j++) /* a barrier: no size */
        if (cell(P, c, P->ps[i], c == MG_BARRIER ? 0 : P->sizes[j], &T)) rc = 1;
    }
  }
  if (rc == 0 && out) summary(&T, out);
  if (P->csv && rc == 0) fprintf(P->csv, "#@predict_rows=%ld\n", P->csv_rows);
  if (P->csv && fclose(P->csv) && rc == 0) rc = MG_ERR_TO(P->e, "--csv: write failed"), rc = 1;
  P->csv = NULL;
  for (int f = 0; f < MG_NFAM; f++) free(T.err[f]);
  return rc;
}

static void cleanup(predict *P) {
  for (int i = 0; i < P->nms; i++) free(P->ms[i].x);
  free(P->ms);
  free(P->sizes);
  mg_model_free(&P->m);
  if (P->csv) fclose(P->csv);
}

int mg_cmd_predict(int argc, char **argv) {
  predict P;
  memset(&P, 0, sizeof P);
  P.guided.dense = 1;
  int rc = parse(argc, argv, &P);
  if (rc == 1) rc = 0; /* --help */
  else if (rc == 0 && run(&P, P.guided.slack > 0 ? NULL : stdout)) fprintf(stderr, "mpiguide predict: %s\n", P.e), rc = 1;
  cleanup(&P);
  return rc;
}

int mg_cmd_predict_data(const mg_loggp *lg, const mg_ck_data *d, const char *csv_path, FILE *out, char *err,
                        size_t errlen) {
  predict P;
  memset(&P, 0, sizeof P);
  P.lg = *lg, P.have_lg = 1, P.quiet = 1, P.fam = ~0u;
  mg_model_init(&P.m, &P.lg);
  for (int c = 0; c < MG_NCOLLECTIVES; c++) P.colls[c] = 1;
  int rc = take_data(&P, d, 1, 1);
  P.only_measured = 1;
  mg_model_sort(&P.m);
  if (!rc && !(P.csv = fopen(csv_path, "w"))) rc = MG_ERR_TO(P.e, "cannot write '%s'", csv_path);
  if (!rc) {
    qsort(P.ps, (size_t)P.nps, sizeof *P.ps, mg_cmp_int);
    qsort(P.sizes, (size_t)P.nsizes, sizeof *P.sizes, mg_cmp_size);
    rc = run(&P, out);
  }
  if (rc) snprintf(err, errlen, "%s", P.e);
  cleanup(&P);
  return rc ? -1 : 0;
}

int mg_cmd_model_defaults(mg_model *m, const mg_ck_data *d, char *err, size_t errlen) {
  predict P;
  memset(&P, 0, sizeof P);
  mg_model_init(&P.m, NULL);
  int rc = take_data(&P, d, 0, 0);
  for (int i = 0; !rc && i < P.m.nmeas; i++) {
    const mg_cost_point *q = &P.m.meas[i];
    if (mg_model_add_rel(m, q->coll, q->p, q->bytes, q->t, q->rel)) rc = MG_ERR_TO(P.e, "out of memory");
  }
  if (rc) snprintf(err, errlen, "%s", P.e);
  cleanup(&P);
  return rc ? -1 : 0;
}
