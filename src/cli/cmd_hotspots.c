/*
 * `mpiguide hotspots TRACE [--check DIR] [--profile FILE] [-n N] [-p P] [--csv]`
 * (docs/hotspots.md): the smallest set of call sites, each at one operation,
 * process count and size, that covers P % of a run's MPI time, from a timed
 * trace (MPIGUIDE_TRACE_TIME=1); with --check the guideline verdicts of the
 * check data at each hot spot's size, with --profile the algorithm the profile
 * picks there and the saving the check data predict for it.
 *
 * Call sites are resolved to function and file:line here, at analysis time,
 * by addr2line (binutils) on the object file and offset the trace recorded;
 * without it, or without debug information, a site is shown as object+offset
 * (and the trace's dynamic symbol when there is one). No MPI.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "check/hotspots.h"
#include "cli/cli.h"
#include "cli/cmd_opts.h"
#include "cli/cmd_hotspots_model.h"
#include "cli/cmd_hotspots_rest.h"
#include "cli/cmd_hotspots_sites.h"
#include "cli/cmd_predict.h"
#include "model/loggp_file.h"
#include "registry/datatype.h"
#include "tune/profile.h"
#include "util/fmt.h"
#include "util/parse.h"
#include "util/text.h"

#define OPTIONS(X)                                                                                               \
  X(CHECK, "check", 0, MG_OPT_ARG)                                                                               \
  X(PROFILE, "profile", 0, MG_OPT_ARG)                                                                           \
  X(TOP, "top", 'n', MG_OPT_ARG)                                                                                   \
  X(PERCENT, "percent", 'p', MG_OPT_ARG)                                                                               \
  X(LOGGP, "loggp", 0, MG_OPT_ARG)                                                                              \
  X(MEASURED, "measured", 0, MG_OPT_ARG)                                                                         \
  X(CSV, "csv", 0, MG_OPT_FLAG)                                                                                  \
  X(WIDE, "wide", 0, MG_OPT_FLAG)                                                                                \
  X(HELP, "help", 'h', MG_OPT_FLAG)
enum { OPTIONS(MG_OPT_ENUM) O_N };
static const mg_opt opts[O_N] = {OPTIONS(MG_OPT_ROW)};

static void usage(FILE *f) {
  fprintf(f,
          "usage: mpiguide hotspots TRACE [--check DIR] [--profile FILE] [-n N] [-p P] [--csv] [--wide]\n"
          "       mpiguide hotspots TRACE --loggp FILE [--check DIR] [--measured TIMED] [-n N] [-p P] [--csv]\n\n"
          "The communication hot spots of a run: the smallest set of call sites (each at one operation,\n"
          "process count and message size) that covers P %% of the run's time in MPI calls, at most N of them\n"
          "(defaults as Guo et al.: N = 10, P = 80). TRACE is a timed trace: run the application with\n"
          "  LD_PRELOAD=libmpiguide.so MPIGUIDE_TRACE=TRACE MPIGUIDE_TRACE_TIME=1\n"
          "(build it with -g for file:line; sites are resolved with addr2line).\n\n"
          "  -n, --top N        at most N hot spots (default 10)\n"
          "  -p, --percent P    cover P %% of the MPI time, 0 < P <= 100 (default 80)\n"
          "  --check DIR        check results (raw data, analysed again as `check --from DIR`): per hot spot\n"
          "                     the verdicts of the mock-ups at its operation, process count and exact size\n"
          "                     (and a reduction's datatype class and op); 'not measured (size|type|op|other np)'\n"
          "                     otherwise\n"
          "  --profile FILE     a tuning profile: the algorithm it picks for each hot spot and, with --check,\n"
          "                     the predicted saving min(calls x (median default - median chosen), time x\n"
          "                     (1 - median chosen / median default)) over the calls that did not run the\n"
          "                     chosen algorithm already, never more than the spot's time, in seconds and\n"
          "                     as shares of the run's MPI time and wall time\n"
          "  --loggp FILE       predicted hot spots: every spot's calls priced by the cost model (LogGP\n"
          "                     parameters of `mpiguide loggp`; the defaults' medians of --check where it\n"
          "                     measured them, docs/model.md), no measured time used; TRACE may be untimed\n"
          "                     (format 1: a spot is an operation, process count and size, no site)\n"
          "                     The header flags what the model cannot see: spots it has no price for\n"
          "                     ('not priced (waiting)', not ranked), posts priced at their overhead alone,\n"
          "                     prices not monotone in the size, and the LogGP file's own warnings\n"
          "  --measured TIMED   with --loggp: the measured hot spots of the timed trace TIMED beside the\n"
          "                     predicted ones, the size of the set difference (per site when TRACE is\n"
          "                     timed, else per operation, process count and size), and the waiting:\n"
          "                     measured time beyond the model's price, per spot and in total\n"
          "  --csv              one CSV row per hot spot instead of the table\n"
          "  --wide             C++ functions with their parameters and template arguments (the table shows\n"
          "                     them without parameters, and longer than 40 characters with '<>' for every\n"
          "                     template argument list; the CSV has them whole)\n"
          "  -h, --help         this text\n\n"
          "Times are per rank (the sum over ranks / processes); wait is the barrier-free estimate of time\n"
          "spent waiting for the slowest rank (docs/trace.md). Sites that print one label (two calls of an\n"
          "inlined function) are told apart by the function they were inlined into, else by the offset.\n"
          "See docs/hotspots.md.\n");
}

/* ---- verdicts and profile ---------------------------------------------------------------- */

/* What check says at one hot spot. */
typedef struct spot_check {
  int measured;        /* a default sample exists at the spot's cell */
  int nv, nc, ni;      /* mock-ups: violation, consistent, inconclusive (status ok) */
  const mg_ck_verdict *best; /* the violation with the largest slowdown */
  double med_def;      /* the default's median there, s */
  const char *why;     /* not measured: why (static text, or whybuf) */
  char whybuf[160];
} spot_check;

/* Whether verdict v is at spot s's cell: operation, exact size, and a reduction's class and op. */
static int at_cell(const mg_ck_verdict *v, const mg_hs_spot *s) {
  if (v->coll != s->coll || v->bytes != s->bytes) return 0;
  if (!s->red[0] || !v->red[0]) return !s->red[0] && !v->red[0];
  int tc, op;
  if (!mg_ck_red_sel(v->red, &tc, &op)) return 0;
  char want[48];
  snprintf(want, sizeof want, "%s:%s", mg_tclass_name(tc), mg_opsel_name(op));
  return !strcmp(want, s->red);
}

static void check_spot(const mg_ck_result *r, int ck_np, const mg_hs_spot *s, spot_check *c) {
  memset(c, 0, sizeof *c);
  if (s->nprocs != ck_np) {
    c->why = "not measured (other np)";
    return;
  }
  char had[128] = ""; /* the size measured, but at other classes or ops than the spot's: which */
  size_t nhad = 0;
  for (int i = 0; i < r->n; i++) {
    const mg_ck_verdict *v = &r->v[i];
    if (!v->aa && v->n_def > 0 && v->coll == s->coll && v->bytes == s->bytes && !at_cell(v, s)) {
      int tc, op;
      char red[MG_CK_RED];
      if (v->red[0] && mg_ck_red_sel(v->red, &tc, &op) && tc > 0 && op > 0)
        snprintf(red, sizeof red, "%s:%s", mg_tclass_name(tc), mg_opsel_name(op));
      else
        mg_ck_red_short(v->red[0] ? v->red : "an unnamed one", red, sizeof red); /* older files: no #@op */
      size_t n = strlen(red);
      const char *p = had;
      while ((p = strstr(p, red)) && !((p == had || p[-1] == ' ') && (p[n] == ',' || !p[n]))) p += n;
      if (!p && nhad + n + 3 < sizeof had)
        nhad += (size_t)snprintf(had + nhad, sizeof had - nhad, "%s%s", nhad ? ", " : "", red);
    }
    if (v->aa || !at_cell(v, s)) continue;
    if (v->n_def > 0 && !c->measured) c->measured = 1, c->med_def = v->med_def;
    if (v->status != MG_CKV_OK) continue;
    if (v->outcome == MG_CK_VIOLATION) {
      c->nv++;
      if (!c->best || v->slowdown > c->best->slowdown) c->best = v;
    } else if (v->outcome == MG_CK_CONSISTENT) {
      c->nc++;
    } else {
      c->ni++;
    }
  }
  /* "(size)" only when the check never measured the size: a reduction measured at the size with
   * another datatype class or op is no verdict for the spot (a sum of floats and one of ints take
   * different paths), and the label says which the spot has and which the check measured, "not
   * measured (fint:max; check has float:sum)": a check with --reductions for the spot's class and
   * op is the fix (--sizes-from takes them from the trace), not another size */
  if (c->measured) return;
  if (!had[0]) {
    c->why = "not measured (size)";
    return;
  }
  snprintf(c->whybuf, sizeof c->whybuf, "not measured (%s; check has %s)", s->red[0] ? s->red : "no reduction", had);
  c->why = c->whybuf;
}

/* The verdict text: a violation if any; consistent only when every mock-up is; else inconclusive. */
static void verdict_text(const spot_check *c, char *buf, size_t len) {
  int all = c->nv + c->nc + c->ni;
  if (c->why)
    snprintf(buf, len, "%s", c->why);
  else if (!all)
    snprintf(buf, len, "no mock-up compared");
  else if (c->nv)
    snprintf(buf, len, "violation %d/%d (%s %.2fx)", c->nv, all, c->best->alg, c->best->slowdown);
  else if (!c->ni)
    snprintf(buf, len, "consistent %d/%d", c->nc, all);
  else
    snprintf(buf, len, "inconclusive %d/%d (%d consistent)", c->ni, all, c->nc);
}

/* The profile's choice at spot s and its predicted saving (NAN: no data). */
typedef struct spot_tune {
  int alg;          /* registry index, 0 default */
  double saving;    /* s per rank; NAN unknown */
  const char *note; /* why no saving */
} spot_tune;

static void tune_spot(const mg_profile *p, const mg_ck_result *r, const spot_check *c, const mg_hs_spot *s,
                      spot_tune *u) {
  int tc = MG_TCLASS_NONE, op = MG_OPSEL_NONE;
  if (s->red[0]) {
    char red[48], *colon;
    snprintf(red, sizeof red, "%s", s->red);
    if ((colon = strchr(red, ':'))) {
      *colon = '\0';
      tc = mg_tclass_find(red);
      op = mg_opsel_find(colon + 1);
      tc = tc < 0 ? MG_TCLASS_NONE : tc;
      op = op < 0 ? MG_OPSEL_NONE : op;
    }
  }
  u->alg = mg_profile_lookup_sel(p, s->coll, s->nprocs, s->bytes, tc, op);
  u->saving = 0;
  u->note = NULL;
  if (!u->alg) return; /* the default stays: nothing saved */
  u->saving = NAN;
  if (!r) {
    u->note = "needs --check";
    return;
  }
  if (c->why) { /* the verdict column names the classes and ops; the saving column is narrow */
    u->note = c->why == c->whybuf ? "not measured (type/op)" : c->why;
    return;
  }
  const char *name = mg_colls[s->coll].algs[u->alg].name;
  for (int i = 0; i < r->n; i++) {
    const mg_ck_verdict *v = &r->v[i];
    if (!v->aa && at_cell(v, s) && !strcmp(v->alg, name) && v->n_mock > 0 && v->n_def > 0) {
      u->saving = mg_hs_saving(s, name, v->med_def, v->med_mock); /* never more than the spot's time */
      return;
    }
  }
  u->note = "chosen mock-up not measured";
}

/* ---- the command ------------------------------------------------------------------------- */

static int load_check(const char *dir, mg_ck_data *d, mg_ck_result *r, int *np) {
  char e[MG_CK_ERR];
  mg_ck_data_init(d);
  memset(r, 0, sizeof *r);
  if (mg_ck_read(d, dir, e, sizeof e) || mg_ck_data_check(d, e, sizeof e))
    return fprintf(stderr, "mpiguide hotspots: --check %s: %s\n", dir, e), -1;
  mg_ck_opts o;
  mg_ck_opts_default(&o);
  if (d->launches[0].has_seed) o.seed = d->launches[0].seed;
  if (mg_ck_analyze(d, &o, r, e, sizeof e))
    return fprintf(stderr, "mpiguide hotspots: --check %s: analysis failed: %s\n", dir, e), -1;
  *np = d->launches[0].nprocs;
  return 0;
}

static void fmt_share(double x, double of, char *buf, size_t len) {
  if (isnan(x) || !(of > 0))
    snprintf(buf, len, "-");
  else
    snprintf(buf, len, "%.1f%%", 100 * x / of);
}

/* One `hotspots` command: its options, inputs and the hot spots chosen. */
typedef struct hs_run {
  mg_opt_vals v;
  long nmax;
  double pct;
  mg_hs_trace t;
  mg_ck_data d; /* --check: the data and their verdicts */
  mg_ck_result r;
  int have_check, ck_np;
  mg_profile *prof; /* --profile */
  mg_hs_site *names; /* per spot of t */
  mg_hs_label *labels; /* per spot of t: what the table shows, told apart (mg_hs_labels_apart) */
  int *order;       /* the hot spots: k sites of t, the hottest first */
  double *time;
  int k, reached; /* reached: P was reached before the N cap */
  double covered; /* their time */
  mg_loggp lg;    /* --loggp: the spots' times are the model's */
  mg_model m;
  int predicted, unpriced; /* unpriced: spots the model has no price for (left at 0, not ranked) */
  mg_price_src src;        /* the least sure source among the priced spots */
  unsigned char *kind;     /* --loggp: per spot of t, its mg_hs_kind */
  mg_hs_inversion inv[8];  /* --loggp: prices not monotone in the size, the worst first */
  int ninv;                /* how many there are (beyond the 8 kept too) */
  mg_loggp_class lgc;      /* --loggp: the class the model uses, its warnings */
  int lg_version;          /* the file's version (1: its warnings recomputed from its table) */
} hs_run;

/* -n and -p. 0, or -1 after a message. */
static int parse_limits(hs_run *H) {
  char err[MG_CK_ERR];
  if (H->v.val[O_TOP] && mg_parse_long(H->v.val[O_TOP], 1, 1000000, &H->nmax, err, sizeof err)) {
    fprintf(stderr, "mpiguide hotspots: -n '%s': %s (a count >= 1)\n", H->v.val[O_TOP], err);
    return -1;
  }
  if (H->v.val[O_PERCENT]) {
    char *end;
    H->pct = strtod(H->v.val[O_PERCENT], &end);
    if (end == H->v.val[O_PERCENT] || *end || !(H->pct > 0 && H->pct <= 100)) {
      fprintf(stderr, "mpiguide hotspots: -p '%s': a percentage, 0 < P <= 100\n", H->v.val[O_PERCENT]);
      return -1;
    }
  }
  return 0;
}

/* The timed trace. 0, or -1 after a message. */
static int load_trace(hs_run *H) {
  char err[MG_CK_ERR];
  if (mg_hs_read(H->v.pos[0], &H->t, err, sizeof err)) {
    fprintf(stderr, "mpiguide hotspots: %s\n", err);
    return -1;
  }
  if (!H->t.timed && !H->v.val[O_LOGGP]) {
    fprintf(stderr,
            "mpiguide hotspots: %s is an untimed trace (no #@timed=1): it has no call sites or times; run the "
            "application again with MPIGUIDE_TRACE_TIME=1 beside MPIGUIDE_TRACE, or predict them with --loggp\n",
            H->v.pos[0]);
    return -1;
  }
  return 0;
}

/* --check's data analysed and --profile's profile. 0, or -1 after a message. */
static int load_check_profile(hs_run *H) {
  if (H->v.val[O_CHECK]) {
    H->have_check = 1; /* freed at the end, whatever load_check left */
    if (load_check(H->v.val[O_CHECK], &H->d, &H->r, &H->ck_np)) return -1;
  }
  if (H->v.val[O_PROFILE]) {
    mg_profile_diags pd = {0};
    if (mg_profile_open(H->v.val[O_PROFILE], &H->prof, &pd) != MG_PROFILE_OK) {
      char m[1200] = "unusable";
      if (pd.n) mg_profile_diag_format(&pd.v[0], m, sizeof m);
      fprintf(stderr, "mpiguide hotspots: --profile %s: %s\n", H->v.val[O_PROFILE], m);
      mg_profile_diags_free(&pd);
      return -1;
    }
    mg_profile_diags_free(&pd);
  }
  return 0;
}

/* --loggp: every spot's time the model's (mg_hs_predict), with --check's medians of the defaults.
 * 0, or -1 after a message. */
static int predict_spots(hs_run *H) {
  char err[MG_CK_ERR];
  mg_loggp_file *lf = malloc(sizeof *lf);
  if (!lf) return fprintf(stderr, "mpiguide hotspots: out of memory\n"), -1;
  if (mg_loggp_read_file(H->v.val[O_LOGGP], lf, err, sizeof err))
    return free(lf), fprintf(stderr, "mpiguide hotspots: --loggp: %s\n", err), -1;
  H->lgc = *mg_loggp_file_class(lf); /* the class mg_loggp_read gives the cost models */
  H->lg = H->lgc.m;
  H->lg_version = lf->version;
  /* a version-1 file wrote its warnings as comments: the fit again from its measured columns
   * gives them (the parameters stay the file's) */
  if (lf->version < 2) {
    mg_loggp_class c = H->lgc;
    mg_loggp_fit(&c, lf->tolerance);
    H->lgc.nwarn = c.nwarn;
    memcpy(H->lgc.warn, c.warn, sizeof c.warn);
  }
  free(lf);
  mg_model_init(&H->m, &H->lg);
  H->predicted = 1;
  if (H->have_check && mg_cmd_model_defaults(&H->m, &H->d, err, sizeof err))
    return fprintf(stderr, "mpiguide hotspots: --check: %s\n", err), -1;
  mg_model_sort(&H->m);
  if (!(H->kind = calloc((size_t)H->t.n + 1, 1))) return fprintf(stderr, "mpiguide hotspots: out of memory\n"), -1;
  H->unpriced = mg_hs_predict(&H->t, &H->m, &H->src, H->kind);
  H->ninv = mg_hs_inversions(&H->t, &H->m, H->inv, (int)(sizeof H->inv / sizeof H->inv[0]));
  return 0;
}

/* The sites named (addr2line) and the hot spots chosen: H->order[0..k). 0, or -1 after a message. */
static int select_spots(hs_run *H) {
  const mg_hs_trace *t = &H->t;
  H->names = calloc((size_t)t->n + 1, sizeof *H->names);
  H->labels = calloc((size_t)t->n + 1, sizeof *H->labels);
  H->order = calloc((size_t)t->n + 1, sizeof *H->order);
  H->time = calloc((size_t)t->n + 1, sizeof *H->time);
  int *idx = calloc((size_t)t->n + 1, sizeof *idx);
  if (!H->names || !H->labels || !H->order || !H->time || !idx) {
    free(idx);
    fprintf(stderr, "mpiguide hotspots: out of memory\n");
    return -1;
  }
  int missing = 0;
  mg_hs_resolve(t, H->names, &missing);
  if (missing)
    fprintf(stderr, "mpiguide hotspots: note: addr2line (binutils) failed on some objects: those sites are shown "
                    "as object+offset\n");
  for (int i = 0; i < t->n; i++) mg_hs_label_of(t, &t->spots[i], &H->names[i], H->v.given[O_WIDE], &H->labels[i]);
  mg_hs_labels_apart(H->labels, t->n); /* two sites of one label: by the caller, else the offset */
  /* the spots the model does not price are not ranked (as cheap): they are listed as waiting */
  int n = 0;
  for (int i = 0; i < t->n; i++)
    if (!H->kind || H->kind[i] != MG_HS_UNPRICED) H->time[n] = t->spots[i].time, idx[n++] = i;
  H->k = mg_hs_select(H->time, n, t->mpi_time, H->pct, (int)H->nmax, H->order, &H->reached);
  for (int i = 0; i < H->k; i++) H->covered += H->time[H->order[i]], H->order[i] = idx[H->order[i]];
  free(idx);
  return 0;
}

/* --loggp: what the prediction cannot see and where its prices may mislead, each line after pre. */
static void print_flags(const hs_run *H, FILE *o, const char *pre) {
  if (!H->predicted) return;
  const mg_hs_trace *t = &H->t;
  int posts = 0;
  for (int i = 0; i < t->n; i++) posts += H->kind[i] == MG_HS_POST;
  if (H->unpriced)
    fprintf(o, "%snot priced (waiting): %d spot%s of operations the model has no price for (completions, MPI_Wait* and "
               "MPI_Test*, or others): their time is waiting to the model, not ranked as cheap (listed below the table)\n",
            pre, H->unpriced, H->unpriced == 1 ? "" : "s");
  if (posts)
    fprintf(o, "%sposts priced at their overhead alone: %d spot%s (isend, irecv): the transfer completes in MPI_Wait or "
               "MPI_Test, waiting the model does not price\n",
            pre, posts, posts == 1 ? "" : "s");
  int kept = (int)(sizeof H->inv / sizeof H->inv[0]);
  for (int i = 0; i < H->ninv && i < kept; i++) {
    const mg_hs_inversion *v = &H->inv[i];
    char a[32], b[32];
    mg_fmt_bytes(v->small, MG_BYTES_EXACT, a, sizeof a);
    mg_fmt_bytes(v->large, MG_BYTES_EXACT, b, sizeof b);
    fprintf(o, "%sprice not monotone in the size: %s %s np=%d: %s priced %.3gx %s (%.3g s against %.3g s a call): the "
               "order of these sizes may be the LogGP file's noise\n",
            pre, mg_colls[v->coll].name, v->alg ? mg_colls[v->coll].algs[v->alg].name : "default", v->nprocs, a,
            v->t_small / v->t_large, b, v->t_small, v->t_large);
  }
  if (H->ninv > kept) fprintf(o, "%sprice not monotone in the size: %d more operations\n", pre, H->ninv - kept);
  if (H->lgc.nwarn) {
    fprintf(o, "%s--loggp %s: %d warning%s of mpiguide loggp about its fit (class %s; %s):\n", pre, H->v.val[O_LOGGP],
            H->lgc.nwarn, H->lgc.nwarn == 1 ? "" : "s", mg_loggp_class_names[H->lg.inter],
            H->lg_version >= 2 ? "recorded in the file" : "recomputed from its table: a version-1 file does not record them");
    for (int w = 0; w < H->lgc.nwarn; w++) fprintf(o, "%s  loggp: %s\n", pre, H->lgc.warn[w]);
  }
}

/* --loggp: the spots the model does not price, each line after pre. */
static void print_unpriced(const hs_run *H, FILE *o, const char *pre) {
  if (!H->predicted || !H->unpriced) return;
  const mg_hs_trace *t = &H->t;
  fprintf(o, "%s%snot priced (waiting), not ranked:\n", H->v.given[O_CSV] ? "" : "\n", pre);
  for (int i = 0; i < t->n; i++) {
    const mg_hs_spot *s = &t->spots[i];
    if (H->kind[i] != MG_HS_UNPRICED) continue;
    char sz[32];
    mg_fmt_bytes(s->bytes, MG_BYTES_EXACT, sz, sizeof sz);
    fprintf(o, "%s  %-34s %-22s %5d %7s %9ld calls  not priced (waiting)\n", pre, H->labels[i].text,
            (int)s->coll >= 0 && s->coll < MG_NCOLL ? mg_colls[s->coll].name : "?", s->nprocs, sz, s->calls);
  }
}

/* The CSV header line, or the text's summary and column heads. */
static void print_head(const hs_run *H, FILE *o) {
  const mg_hs_trace *t = &H->t;
  if (H->v.given[O_CSV]) {
    fprintf(o, "rank,site,function,file_line,object,offset,collective,nprocs,bytes,reduction,algorithms,calls,time_s,"
               "share,wait_s");
    if (H->have_check) fprintf(o, ",verdict,violations,consistent,inconclusive,best_mockup,best_slowdown,median_default_s");
    if (H->prof) fprintf(o, ",profile_choice,saving_s,saving_share_mpi,saving_share_wall");
    fputc('\n', o);
    return;
  }
  if (H->predicted)
    fprintf(o, "predicted from the trace's calls and the cost model (--loggp %s%s%s; least sure price: %s)%s\n",
            H->v.val[O_LOGGP], H->have_check ? ", the defaults' medians of " : "", H->have_check ? H->v.val[O_CHECK] : "",
            H->src ? mg_price_name(H->src) : "none", "");
  print_flags(H, o, "");
  fprintf(o, "%d hot spot%s cover %.1f %% of %.6f s in %s per rank%s (P = %g %%, N = %ld)%s\n", H->k,
          H->k == 1 ? "" : "s", t->mpi_time > 0 ? 100 * H->covered / t->mpi_time : 0.0, t->mpi_time,
          t->version >= 4 && t->timed ? "the operations mpiguide checks and tunes" : "MPI calls", H->predicted ? ", predicted" : "", H->pct, H->nmax, H->reached ? "" : ": the N cap stopped it before P");
  if (t->wall > 0 && !H->predicted)
    fprintf(o, "run: %d processes, wall time %.6f s (MPI calls %.1f %% of it), %s\n", t->nprocs, t->wall,
            100 * (t->version >= 4 ? t->all_time : t->mpi_time) / t->wall, t->mpi);
  if (t->timed && !H->predicted) mg_hs_print_coverage(t, o);
  if (H->have_check)
    fprintf(o, "check: %s (%d processes; verdicts at the exact size and, for reductions, class:op)\n",
            H->v.val[O_CHECK], H->ck_np);
  if (H->prof) fprintf(o, "profile: %s\n", H->v.val[O_PROFILE]);
  fprintf(o, "\n%3s  %-34s %-22s %5s %7s %9s %10s %6s %10s", "#", "site", "operation", "np", "size", "calls",
          "time_s", "share", "wait_s");
  if (H->have_check) fprintf(o, "  %-40s", "verdict (mock-ups)");
  if (H->prof) fprintf(o, "  %-28s %11s %6s %6s", "profile picks", "saving_s", "%mpi", "%wall");
  fputc('\n', o);
}

/* Hot spot i (site s, named n) as a CSV row. */
static void print_spot_csv(const hs_run *H, FILE *o, int i, const mg_hs_spot *s, const mg_hs_site *n,
                           const char *site, const spot_check *c, const spot_tune *u) {
  const mg_hs_trace *t = &H->t;
  fprintf(o, "%d,", i + 1);
  mg_csv_str(o, site);
  fputc(',', o);
  mg_csv_str(o, n->func);
  fputc(',', o);
  mg_csv_str(o, n->where);
  fputc(',', o);
  mg_csv_str(o, s->obj >= 0 ? t->objs[s->obj] : "");
  fprintf(o, ",0x%llx,%s,%d,%zu,%s,", s->offset, mg_colls[s->coll].name, s->nprocs, s->bytes, s->red);
  mg_csv_str(o, s->algs);
  fprintf(o, ",%ld,%.9f,%.6f,%.9f", s->calls, s->time, t->mpi_time > 0 ? s->time / t->mpi_time : 0, s->wait);
  if (H->have_check) {
    const char *outc = c->why ? "not_measured"
                       : c->nv ? "violation"
                       : !(c->nv + c->nc + c->ni) ? "none"
                       : c->ni ? "inconclusive"
                               : "consistent";
    fprintf(o, ",%s,%d,%d,%d,%s,", outc, c->nv, c->nc, c->ni, c->best ? c->best->alg : "");
    if (c->best) fprintf(o, "%.4f", c->best->slowdown);
    fputc(',', o);
    if (c->measured) fprintf(o, "%.9g", c->med_def);
  }
  if (H->prof) {
    fprintf(o, ",%s,", u->alg ? mg_colls[s->coll].algs[u->alg].name : "default");
    if (!isnan(u->saving))
      fprintf(o, "%.9f,%.6f,%.6f", u->saving, t->mpi_time > 0 ? u->saving / t->mpi_time : 0,
              t->wall > 0 ? u->saving / t->wall : 0);
    else
      fprintf(o, ",,");
  }
  fputc('\n', o);
}

/* Every hot spot, a row each, with its verdict (--check) and the profile's pick and saving
 * (--profile); the text ends with the profile's total saving. */
static void print_spots(hs_run *H, FILE *o) {
  const mg_hs_trace *t = &H->t;
  double total_saving = 0;
  int saving_known = 1;
  for (int i = 0; i < H->k; i++) {
    const mg_hs_spot *s = &t->spots[H->order[i]];
    const mg_hs_site *n = &H->names[H->order[i]];
    char site[sizeof H->labels[0].text], op[80], sz[32], share[16], verdict[160] = "", pick[80] = "", sv[32] = "", sm[16] = "",
                                                                                  sw[16] = "";
    snprintf(site, sizeof site, "%s", H->labels[H->order[i]].text);
    snprintf(op, sizeof op, "%s%s%s", mg_colls[s->coll].name, s->red[0] ? " " : "", s->red);
    mg_fmt_bytes(s->bytes, MG_BYTES_EXACT, sz, sizeof sz);
    fmt_share(s->time, t->mpi_time, share, sizeof share);
    spot_check c = {0};
    spot_tune u = {0};
    if (H->have_check) {
      check_spot(&H->r, H->ck_np, s, &c);
      verdict_text(&c, verdict, sizeof verdict);
    }
    if (H->prof) {
      tune_spot(H->prof, H->have_check ? &H->r : NULL, &c, s, &u);
      snprintf(pick, sizeof pick, "%s", u.alg ? mg_colls[s->coll].algs[u.alg].name : "default (no rule)");
      if (isnan(u.saving)) {
        snprintf(sv, sizeof sv, "%s", u.note ? u.note : "-");
        saving_known = 0;
      } else {
        snprintf(sv, sizeof sv, "%.6f", u.saving);
        total_saving += u.saving;
      }
      fmt_share(u.saving, t->mpi_time, sm, sizeof sm);
      fmt_share(u.saving, t->wall, sw, sizeof sw);
    }
    if (H->v.given[O_CSV]) {
      print_spot_csv(H, o, i, s, n, site, &c, &u);
    } else {
      char wait[24] = "-"; /* predicted (--loggp): no wait */
      if (!isnan(s->wait)) snprintf(wait, sizeof wait, "%.6f", s->wait);
      fprintf(o, "%3d  %-34s %-22s %5d %7s %9ld %10.6f %6s %10s", i + 1, site, op, s->nprocs, sz, s->calls, s->time,
              share, wait);
      if (H->have_check) fprintf(o, "  %-40s", verdict);
      if (H->prof) fprintf(o, "  %-28s %11s %6s %6s", pick, sv, sm, sw);
      fputc('\n', o);
    }
  }
  if (H->prof && !H->v.given[O_CSV]) {
    char sm[16], sw[16];
    fmt_share(total_saving, t->mpi_time, sm, sizeof sm);
    fmt_share(total_saving, t->wall, sw, sizeof sw);
    fprintf(o, "\npredicted saving of the profile at these hot spots: %.6f s per rank = %s of the MPI time, %s of the "
               "wall time%s\n",
            total_saving, sm, sw, saving_known ? "" : " (some hot spots have no prediction: see the table)");
  }
}

int mg_cmd_hotspots(int argc, char **argv) {
  hs_run H0;
  hs_run *H = &H0;
  memset(H, 0, sizeof *H);
  char err[MG_CK_ERR];
  if (mg_opt_parse(argc, argv, opts, O_N, &H->v, err, sizeof err)) {
    fprintf(stderr, "mpiguide hotspots: %s\n", err);
    mg_opt_vals_free(&H->v);
    return 2;
  }
  if (H->v.given[O_HELP]) {
    usage(stdout);
    mg_opt_vals_free(&H->v);
    return 0;
  }
  H->nmax = MG_HS_DEFAULT_N;
  H->pct = MG_HS_DEFAULT_P;
  int rc = 2; /* bad input */
  if (H->v.npos != 1) usage(stderr);
  else if (!parse_limits(H)) {
    rc = 1;
    if (H->v.val[O_MEASURED] && !H->v.val[O_LOGGP]) {
      fprintf(stderr, "mpiguide hotspots: --measured compares with the predicted hot spots: give --loggp FILE\n");
      rc = 2;
    } else if (!load_trace(H) && !load_check_profile(H) && (!H->v.val[O_LOGGP] || !predict_spots(H)) &&
               !select_spots(H)) {
      const char *pre = H->v.given[O_CSV] ? "# " : "";
      print_head(H, stdout);
      print_spots(H, stdout);
      if (!H->predicted && !H->v.given[O_CSV])
        mg_hs_print_others(&H->t, H->pct, H->nmax, H->v.given[O_WIDE], stdout);
      if (H->v.given[O_CSV]) print_flags(H, stdout, pre); /* the text has them in its head */
      print_unpriced(H, stdout, pre);
      rc = H->v.val[O_MEASURED] && mg_hs_compare(&H->t, H->names, H->kind, &H->m, H->v.val[O_MEASURED], H->pct,
                                                 (int)H->nmax, H->v.given[O_WIDE], pre, stdout)
               ? 1
               : 0;
    }
  }
  if (H->have_check) {
    mg_ck_result_free(&H->r);
    mg_ck_data_free(&H->d);
  }
  mg_profile_free(H->prof);
  if (H->predicted) mg_model_free(&H->m);
  free(H->names);
  free(H->labels);
  free(H->kind);
  free(H->order);
  free(H->time);
  mg_hs_free(&H->t);
  mg_opt_vals_free(&H->v);
  return rc;
}
