/*
 * Verdicts (check.h, docs/check.md): for every (collective, size) the
 * default against each mock-up, with the test chosen, Holm's adjustment over
 * the whole run, the bootstrap slowdown, the per-launch agreement rule and
 * the noise warning. The counts and the consistency score: verdict.c.
 *
 * Samples: the valid, non-warm-up runtimes of the launches in which both the
 * default and the mock-up were measured, pooled. The A/A control splits the
 * default's runtimes of each launch by the parity of their round (the
 * variants of a block are measured in interleaved rounds, so even and odd
 * rounds alternate in time and drift cannot favour either half).
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/seq.h"
#include "check/analyze.h"
#include "check/check.h"
#include "stats/stats.h"
#include "util/err.h"
#include "util/hash.h"
#include "util/parse.h"

/* ---------- growing arrays of doubles ---------- */

typedef struct vec {
  double *x;
  size_t n, cap;
} vec;

static int vec_add(vec *v, const double *x, size_t n) {
  if (v->n + n > v->cap) {
    size_t nc = v->cap ? v->cap : 256;
    while (nc < v->n + n) nc *= 2;
    double *nx = realloc(v->x, nc * sizeof *nx);
    if (!nx) return -1;
    v->x = nx;
    v->cap = nc;
  }
  memcpy(v->x + v->n, x, n * sizeof *x);
  v->n += n;
  return 0;
}

static int vec_push(vec *v, double x) { return vec_add(v, &x, 1); }

/* ---------- cells and their algorithms ---------- */

typedef struct cell {
  mg_coll coll;
  size_t bytes;
  const char *red;
} cell;

static int cmp_cell(const void *a, const void *b) {
  const cell *x = a, *y = b;
  if (x->coll != y->coll) return (int)x->coll - (int)y->coll;
  if (x->bytes != y->bytes) return (x->bytes > y->bytes) - (x->bytes < y->bytes);
  return strcmp(x->red, y->red);
}

/* Registry order for known mock-ups, then other names alphabetically. */
static int alg_rank(mg_coll c, const char *alg) {
  int a = mg_alg_find(c, alg);
  return a >= 0 ? a : MG_MAX_ALGS + 1;
}

typedef struct algref {
  mg_coll coll;
  const char *name;
} algref;

static int cmp_alg(const void *a, const void *b) {
  const algref *x = a, *y = b;
  int rx = alg_rank(x->coll, x->name), ry = alg_rank(y->coll, y->name);
  if (rx != ry) return rx - ry;
  return strcmp(x->name, y->name);
}

/* Monotony verdicts: collective, pair, algorithm (registry order), size. */
static int cmp_mono(const void *a, const void *b) {
  const mg_ck_verdict *x = a, *y = b;
  if (x->coll != y->coll) return (int)x->coll - (int)y->coll;
  int c = strcmp(x->red, y->red);
  if (c) return c;
  int rx = alg_rank(x->coll, x->alg), ry = alg_rank(y->coll, y->alg);
  if (rx != ry) return rx - ry;
  if ((c = strcmp(x->alg, y->alg))) return c;
  return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

static double median_of(const double *x, size_t n) {
  double m = NAN;
  if (n) mg_stats_median(x, n, &m);
  return m;
}

static const char *guideline_of(mg_coll c, const char *alg) {
  if (!strcmp(alg, MG_CK_AA_NAME)) return "A/A";
  int a = mg_alg_find(c, alg);
  return a > 0 ? mg_colls[c].algs[a].guideline : "";
}

/* The distinct roots of a series (1 without roots): a rotation's length. */
static long distinct_roots(const mg_ck_series *s) {
  long k = 0;
  for (long i = 0; i < s->n; i++) {
    long j = 0;
    while (j < i && s->root[j] != s->root[i]) j++;
    k += j == i;
    if (j == i && k > 64) break; /* more roots than a rotation has: stop counting */
  }
  return k ? k : 1;
}

/* The runtimes of a series of one launch measured in rounds first..last; with aa: only even (part 0)
 * or odd (part 1) rounds, or with a rotating root of k roots, even or odd turns of the rotation (each
 * half holds every root). */
static int series_values(const mg_ck_series *s, int part, long first, long last, vec *out, vec *roots) {
  long k = part < 0 ? 1 : distinct_roots(s);
  for (long i = 0; i < s->n; i++)
    if (s->round[i] >= first && s->round[i] <= last && (part < 0 || ((s->round[i] / k) & 1) == part) &&
        (vec_push(out, s->rt[i]) || vec_push(roots, s->root[i])))
      return -1;
  return 0;
}

/* The rounds in which both series of one block were measured: [*first, *last]. The variants of a
 * block are measured in interleaved rounds, but each series stops on its own (decided, its RSE
 * rule, --max-nrep): a default that went on for 970 rounds after a mock-up stopped at 170 holds
 * values of another period of the machine, and on a machine whose load changed the comparison of
 * the whole series judged the load, not the algorithms (seen: bcast 1 KiB at 4 ranks, the default's
 * median 18.7 us over its 970 rounds, 9.19 us over the mock-up's 170, the mock-up's 9.17 us: a
 * 2.04x "violation" of the default's own call). So a comparison reads both sides over the rounds
 * they share. Not for sizes of two blocks (monotony: no shared rounds) nor ReproMPI files (a
 * repetition index, the variants measured one after another). */
static void shared_rounds(const mg_ck_series *a, const mg_ck_series *b, long *first, long *last) {
  long fa = LONG_MAX, la = LONG_MIN, fb = LONG_MAX, lb = LONG_MIN;
  for (long i = 0; i < a->n; i++) fa = a->round[i] < fa ? a->round[i] : fa, la = a->round[i] > la ? a->round[i] : la;
  for (long i = 0; i < b->n; i++) fb = b->round[i] < fb ? b->round[i] : fb, lb = b->round[i] > lb ? b->round[i] : lb;
  *first = fa > fb ? fa : fb;
  *last = la < lb ? la : lb;
}

/* Per root, the medians of a and b (ra, rb: the root of each value): how many roots have both,
 * at how many a's median is above b's, and the smallest ratio of the medians. */
typedef struct tagged {
  double root, rt;
} tagged;

static int cmp_tagged(const void *p, const void *q) {
  const tagged *x = p, *y = q;
  if (x->root != y->root) return x->root < y->root ? -1 : 1;
  return (x->rt > y->rt) - (x->rt < y->rt);
}

static tagged *tag(const vec *v, const vec *r) {
  tagged *t = malloc((v->n + 1) * sizeof *t);
  if (!t) return NULL;
  for (size_t i = 0; i < v->n; i++) t[i] = (tagged){r->x[i], v->x[i]};
  qsort(t, v->n, sizeof *t, cmp_tagged);
  return t;
}

/* The median of the sorted run t[i..j) (runtimes of one root). */
static double run_median(const tagged *t, size_t i, size_t j) {
  size_t n = j - i;
  return n % 2 ? t[i + n / 2].rt : (t[i + n / 2 - 1].rt + t[i + n / 2].rt) / 2;
}

static int per_root(const vec *a, const vec *ra, const vec *b, const vec *rb, mg_ck_verdict *v) {
  v->root_worst = NAN;
  tagged *x = tag(a, ra), *y = tag(b, rb);
  if (!x || !y) return free(x), free(y), -1;
  size_t i = 0, j = 0;
  double worst = INFINITY;
  while (i < a->n && j < b->n) {
    if (x[i].root != y[j].root) {
      if (x[i].root < y[j].root) i++;
      else j++;
      continue;
    }
    double root = x[i].root;
    size_t i2 = i, j2 = j;
    while (i2 < a->n && x[i2].root == root) i2++;
    while (j2 < b->n && y[j2].root == root) j2++;
    if (root >= 0) {
      double ma = run_median(x, i, i2), mb = run_median(y, j, j2);
      v->roots++;
      v->roots_slower += ma > mb;
      if (mb > 0 && ma / mb < worst) worst = ma / mb;
    }
    i = i2, j = j2;
  }
  if (v->roots >= 2 && isfinite(worst)) v->root_worst = worst;
  free(x), free(y);
  return 0;
}

/* Whether a launch ran on a deterministic platform (docs/statistics.md, "Exact verdicts"): simulated
 * by SMPI (#@simulated=1, bench/meta.c) without simulated computation, which injects the host's
 * measured compute times: #@sim_options (scripts/sim.sh), where the launch has it, must set
 * smpi/simulate-computation:no last. A launch run by smpirun without sim.sh has no #@sim_options;
 * its repetitions themselves decide (identical_per_root). */
static int launch_deterministic(const mg_ck_launch *l) {
  const char *sim = mg_ck_meta_get(&l->meta, "simulated");
  if (!sim || strcmp(sim, "1")) return 0;
  const char *o = mg_ck_meta_get(&l->meta, "sim_options"), *last = NULL;
  static const char key[] = "smpi/simulate-computation:";
  for (const char *q = o; q && (q = strstr(q, key)); q += sizeof key - 1) last = q + sizeof key - 1;
  return !o || (last && !strncmp(last, "no", 2) && (last[2] == '\0' || last[2] == ' '));
}

/* Whether each root's values of one side (v, their roots r) are one time, measured at least twice
 * (determinism checked, not assumed): within MG_CK_EXACT_TOL, raw.csv's resolution. 1 one time at
 * every root; 0 some root's values differ; 2 none differs, but a root was measured once; -1 out of
 * memory. */
static int identical_per_root(const vec *v, const vec *r) {
  tagged *x = tag(v, r);
  if (!x) return -1;
  int same = 1;
  for (size_t i = 0, j; same && i < v->n; i = j) {
    for (j = i; j < v->n && x[j].root == x[i].root; j++) continue;
    if (x[j - 1].rt - x[i].rt > MG_CK_EXACT_TOL) same = 0; /* sorted by runtime within a root */
    else if (j - i < 2) same = 2;
  }
  free(x);
  return v->n ? same : 2;
}

/* Launch boundaries in the pooled samples: off[k] .. off[k+1] is launch k's part. */
typedef struct offs {
  size_t *a, *b;
  size_t n;
} offs;

static int offs_push(offs *o, size_t na, size_t nb, size_t cap) {
  if (!o->a) {
    o->a = malloc((cap + 1) * sizeof *o->a);
    o->b = malloc((cap + 1) * sizeof *o->b);
    if (!o->a || !o->b) return -1;
    o->a[0] = o->b[0] = 0;
  }
  o->n++;
  o->a[o->n] = na;
  o->b[o->n] = nb;
  return 0;
}

/* The slowdown and its interval: over launches when there are several (the launch is the unit
 * of replication), else the ordinary bootstrap of the one launch. */
static mg_stats_status slowdown(const vec *a, const vec *b, const offs *L, const mg_ck_opts *o, uint32_t seed,
                                mg_stats_slowdown_result *sr) {
  if (L->n >= 2)
    return mg_stats_slowdown_launches(a->x, L->a, b->x, L->b, L->n, o->level, o->resamples, seed, sr);
  return mg_stats_slowdown(a->x, a->n, b->x, b->n, o->level, o->resamples, seed, sr);
}

/* When a launch started, seconds since the epoch, from its #@date ("2026-11-27T13:46:06Z", rank 0's
 * clock at MPI_Init, bench/meta.c); NaN when it has none or it does not read as that form. */
static double launch_start(const mg_ck_launch *l) {
  const char *s = l->date;
  if (!s || strlen(s) != 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' ||
      s[19] != 'Z')
    return NAN;
  static const int at[6] = {0, 5, 8, 11, 14, 17}, len[6] = {4, 2, 2, 2, 2, 2};
  static const long lo[6] = {1970, 1, 1, 0, 0, 0}, hi[6] = {9999, 12, 31, 23, 59, 60};
  long f[6];
  for (int k = 0; k < 6; k++) {
    unsigned long long x;
    if (mg_parse_digits(s + at[k], (size_t)len[k], (unsigned long long)hi[k], &x) || (long)x < lo[k]) return NAN;
    f[k] = (long)x;
  }
  /* days from the civil date (H. Hinnant's days_from_civil): no timegm, no time zone */
  long y = f[0] - (f[1] <= 2), era = y / 400, yoe = y - era * 400;
  long doy = (153 * (f[1] + (f[1] > 2 ? -3 : 9)) + 2) / 5 + f[2] - 1, doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  double days = (double)(era * 146097 + doe - 719468);
  return days * 86400 + (double)(f[3] * 3600 + f[4] * 60 + f[5]);
}

/* The bootstrap seed of comparison v: it depends on the comparison, not on its position in the run. */
static uint32_t comparison_seed(const mg_ck_opts *o, const char *opname, const mg_ck_verdict *v, int rev) {
  uint32_t seed = mg_fnv1a(MG_FNV1A_INIT, &o->seed, sizeof o->seed);
  seed = mg_fnv1a(seed, opname, strlen(opname));
  seed = mg_fnv1a(seed, v->alg, strlen(v->alg));
  seed = mg_fnv1a(seed, v->red, strlen(v->red));
  uint64_t by = v->bytes;
  seed = mg_fnv1a(seed, &by, sizeof by);
  if (v->bytes_next) { /* the guideline verdicts keep the seeds they had */
    by = v->bytes_next;
    seed = mg_fnv1a(seed, &by, sizeof by);
  }
  if (rev) seed = mg_fnv1a(seed, "reverse", 7); /* its own replicates, not the mock-up row's inverted */
  return seed;
}

/* On a deterministic platform (launch_deterministic): the ratio of the two sides' times when each is
 * one time (identical_per_root), into v (mg_ck_decide then decides it without a test): 1 done, 0
 * today's statistics (v->exact_differ says why), -1 out of memory. */
static int exact(const vec *a, const vec *ra, const vec *b, const vec *rb, mg_ck_verdict *v) {
  int sa = identical_per_root(a, ra), sb = sa < 0 ? 1 : identical_per_root(b, rb);
  if (sa < 0 || sb < 0) return -1;
  double ma = median_of(a->x, a->n), mb = median_of(b->x, b->n);
  if (sa == 1 && sb == 1 && ma > 0 && mb > 0) {
    v->exact = 1;
    v->method = MG_CK_EXACT_METHOD;
    v->slowdown = ma / mb; /* the side tested for being slower over the other, as the bootstrap's */
    v->noise = 0;
    v->status = MG_CKV_OK;
    return 1;
  }
  /* repetitions that differ (or a time of 0), or a root measured once */
  v->exact_differ = !sa || !sb || !(ma > 0 && mb > 0) ? MG_CK_EXACT_DIFFER : MG_CK_EXACT_FEW;
  return 0;
}

int mg_ck_compare_op(const mg_ck_data *d, const mg_ck_opts *o, mg_ck_verdict *v, const char *opname, char *err,
                     size_t errlen) {
  vec a = {0}, b = {0}, la = {0}, lb = {0}, ra = {0}, rb = {0}, lra = {0}, lrb = {0};
  offs L = {0};
  int rc = 0;
  double sync = -1, t_first = INFINITY, t_last = -INFINITY;
  int t_unknown = 0, det = 1;
  /* monotony: A(bytes) on the default's side, A(bytes_next) on the mock-up's; a reverse relation
   * (check.h): the mock-up on the side tested for being slower, its fields swapped back below */
  int rev = v->rel == MG_CK_REL_REVERSE;
  const char *alg_a = v->bytes_next || rev ? v->alg : "default", *alg_b = rev ? "default" : v->alg;
  size_t bytes_b = v->bytes_next ? v->bytes_next : v->bytes;
  for (int l = 0; l < d->nlaunches; l++) {
    const mg_ck_series *sd = mg_ck_find(d, v->coll, alg_a, v->bytes, v->red, l);
    const mg_ck_series *sm = v->aa ? sd : mg_ck_find(d, v->coll, alg_b, bytes_b, v->red, l);
    if (!sd || !sm || sd->n == 0 || sm->n == 0) continue;
    la.n = lb.n = lra.n = lrb.n = 0;
    long first = LONG_MIN, last = LONG_MAX;
    if (!v->aa && !v->bytes_next && !d->launches[l].repro) shared_rounds(sd, sm, &first, &last);
    if (series_values(sd, v->aa ? 0 : -1, first, last, &la, &lra) ||
        series_values(sm, v->aa ? 1 : -1, first, last, &lb, &lrb))
      goto nomem;
    if (la.n == 0 || lb.n == 0) continue;
    if (vec_add(&a, la.x, la.n) || vec_add(&b, lb.x, lb.n) || vec_add(&ra, lra.x, lra.n) ||
        vec_add(&rb, lrb.x, lrb.n))
      goto nomem;
    if (offs_push(&L, a.n, b.n, (size_t)d->nlaunches)) goto nomem;
    v->launches++;
    det &= launch_deterministic(&d->launches[l]);
    if (median_of(la.x, la.n) > median_of(lb.x, lb.n)) v->launches_slower++;
    if (d->launches[l].sync_cost > sync) sync = d->launches[l].sync_cost;
    double t = launch_start(&d->launches[l]);
    if (isnan(t)) t_unknown = 1;
    else t_first = t < t_first ? t : t_first, t_last = t > t_last ? t : t_last;
  }
  v->span = v->launches <= 1 ? 0 : t_unknown ? NAN : t_last - t_first;
  v->short_span = !(v->span >= o->min_span) || v->launches <= 1;
  v->sync_cost = o->noise > 0 ? o->noise : sync;
  v->n_def = (long)a.n;
  v->n_mock = (long)b.n;
  if (rev) { /* the columns named for the default hold the default's numbers */
    long t = v->n_def;
    v->n_def = v->n_mock, v->n_mock = t;
  }
  if (a.n == 0 || b.n == 0) {
    v->status = MG_CKV_ERROR;
    snprintf(v->note, sizeof v->note, "%s",
             a.n == 0 && b.n == 0 ? "no valid measurements"
             : (a.n == 0) != rev  ? "no valid measurements of the default"
                                  : "no valid measurements of the mock-up");
    goto out;
  }
  if (per_root(&a, &ra, &b, &rb, v)) goto nomem;
  mg_stats_median(rev ? b.x : a.x, rev ? b.n : a.n, &v->med_def);
  mg_stats_median(rev ? a.x : b.x, rev ? a.n : b.n, &v->med_mock);
  mg_stats_mean(rev ? b.x : a.x, rev ? b.n : a.n, &v->mean_def);
  mg_stats_mean(rev ? a.x : b.x, rev ? a.n : b.n, &v->mean_mock);
  int ex = det ? exact(&a, &ra, &b, &rb, v) : 0; /* a deterministic platform */
  if (ex < 0) goto nomem;
  if (ex > 0) goto out;
  mg_stats_status st;
  if (o->test == MG_CK_MWU) {
    mg_stats_mwu_result m;
    st = mg_stats_mwu(a.x, a.n, b.x, b.n, MG_STATS_MWU_AUTO, o->alpha, &m);
    if (st == MG_STATS_OK) {
      v->stat = m.u;
      v->crit = m.u_crit;
      v->p = m.p;
      v->method = mg_stats_mwu_method_name(m.method);
    }
  } else {
    mg_stats_ttest_result t;
    st = o->test == MG_CK_WELCH ? mg_stats_welch(a.x, a.n, b.x, b.n, o->alpha, &t)
                                : mg_stats_student(a.x, a.n, b.x, b.n, o->alpha, &t);
    if (st == MG_STATS_OK) {
      v->stat = t.t;
      v->crit = t.t_crit;
      v->p = t.p;
      v->method = mg_ck_test_name(o->test);
    }
  }
  if (st == MG_STATS_NOMEM) goto nomem;
  if (st == MG_STATS_OK && v->p < 0) v->p = 0;
  if (st != MG_STATS_OK) {
    v->status = MG_CKV_ERROR;
    snprintf(v->note, sizeof v->note, "%s test: %s (%ld and %ld measurements)", mg_ck_test_name(o->test),
             mg_stats_strerror(st), v->n_def, v->n_mock);
    goto out;
  }
  mg_stats_slowdown_result sr;
  st = slowdown(&a, &b, &L, o, comparison_seed(o, opname, v, rev), &sr);
  if (st == MG_STATS_NOMEM) goto nomem;
  if (st == MG_STATS_OK) {
    v->slowdown = sr.ratio;
    v->spread = sr.spread; /* the interval: mg_ck_decide, at the family's level */
  } else if (rev) {
    v->slowdown = v->med_def > 0 ? v->med_mock / v->med_def : NAN;
    v->lo = v->hi = NAN;
  } else { /* zero runtimes (a timer too coarse): no interval */
    v->slowdown = v->med_mock > 0 ? v->med_def / v->med_mock : NAN;
    v->lo = v->hi = NAN;
  }
  v->noise = v->sync_cost > 0 && fabs(v->med_def - v->med_mock) < v->sync_cost;
  v->status = MG_CKV_OK;
  goto out;
nomem:
  rc = MG_ERR("out of memory");
out:
  free(a.x), free(b.x), free(la.x), free(lb.x), free(ra.x), free(rb.x), free(lra.x), free(lrb.x);
  free(L.a), free(L.b);
  return rc;
}

int mg_ck_push_verdict(mg_ck_verdict **vs, int *n, int *cap, const mg_ck_verdict *v) {
  if (*n == *cap) {
    int nc = *cap ? 2 * *cap : 64;
    mg_ck_verdict *nv = realloc(*vs, (size_t)nc * sizeof *nv);
    if (!nv) return -1;
    *vs = nv;
    *cap = nc;
  }
  (*vs)[(*n)++] = *v;
  return 0;
}

void mg_ck_verdict_init(mg_ck_verdict *v, mg_coll coll, size_t bytes, const char *red, const char *alg) {
  memset(v, 0, sizeof *v);
  v->coll = coll;
  v->bytes = bytes;
  snprintf(v->red, sizeof v->red, "%s", red);
  snprintf(v->alg, sizeof v->alg, "%s", alg);
  v->sync_cost = -1;
  v->root_worst = NAN;
  v->slowdown = v->lo = v->hi = v->stat = v->crit = v->p = v->p_adj = v->span = NAN;
  v->spread = (mg_stats_logspread){NAN, NAN, NAN, NAN, NAN};
  v->mult = 1;
  v->med_def = v->med_mock = v->mean_def = v->mean_mock = NAN;
  v->method = "";
}

/* The median of every valid runtime of (coll, alg, bytes, red), pooled over launches; NaN: none. */
static double pooled_median(const mg_ck_data *d, mg_coll coll, const char *alg, size_t bytes, const char *red,
                            int *nomem) {
  vec x = {0}, roots = {0};
  for (int l = 0; l < d->nlaunches && !*nomem; l++) {
    const mg_ck_series *s = mg_ck_find(d, coll, alg, bytes, red, l);
    if (s && series_values(s, -1, LONG_MIN, LONG_MAX, &x, &roots)) *nomem = 1;
  }
  double m = median_of(x.x, x.n);
  free(x.x), free(roots.x);
  return m;
}

typedef struct sized {
  size_t bytes;
  double med;
} sized;

static int cmp_sized(const void *a, const void *b) {
  const sized *x = a, *y = b;
  return (x->bytes > y->bytes) - (x->bytes < y->bytes);
}

/* The monotony verdicts (check.h): for each (collective, pair, algorithm) and each measured size
 * but the largest, A(n) against the fastest larger size. */
static int monotony(const mg_ck_data *d, const mg_ck_opts *o, mg_ck_result *r, char *err, size_t errlen) {
  int cap = 0, nomem = 0, rc = 0;
  sized *sz = malloc((size_t)(d->nseries + 1) * sizeof *sz);
  char *done = calloc((size_t)d->nseries + 1, 1);
  if (!sz || !done) goto nomem;
  for (int i = 0; i < d->nseries; i++) { /* series are visited in data order, sorted below */
    if (done[i] || mg_ck_is_libvar(d->series[i].alg)) continue; /* the library's variants: no guideline */
    const mg_ck_series *s = &d->series[i];
    int ns = 0;
    for (int j = i; j < d->nseries; j++) {
      const mg_ck_series *t = &d->series[j];
      if (t->coll != s->coll || strcmp(t->alg, s->alg) || strcmp(t->red, s->red)) continue;
      done[j] = 1;
      int k = 0;
      while (k < ns && sz[k].bytes != t->bytes) k++;
      if (k == ns && t->n > 0) sz[ns++] = (sized){t->bytes, NAN};
    }
    qsort(sz, (size_t)ns, sizeof *sz, cmp_sized);
    for (int k = 0; k < ns; k++)
      if (isnan(sz[k].med = pooled_median(d, s->coll, s->alg, sz[k].bytes, s->red, &nomem)) && nomem) goto nomem;
    for (int k = 0; k + 1 < ns; k++) {
      int best = k + 1;
      for (int m = k + 2; m < ns; m++)
        if (sz[m].med < sz[best].med) best = m;
      mg_ck_verdict v;
      mg_ck_verdict_init(&v, s->coll, sz[k].bytes, s->red, s->alg);
      v.bytes_next = sz[best].bytes;
      v.guideline = MG_CK_MONO_GUIDELINE;
      if (mg_ck_compare_op(d, o, &v, mg_colls[v.coll].name, err, errlen)) return free(sz), free(done), -1;
      if (mg_ck_push_verdict(&r->mono, &r->nmono, &cap, &v)) goto nomem;
    }
  }
  qsort(r->mono, (size_t)r->nmono, sizeof *r->mono, cmp_mono);
  goto out;
nomem:
  rc = MG_ERR("out of memory");
out:
  free(sz), free(done);
  return rc;
}

/* The decision over the OK verdicts of vs[0..n) with aa == fam and, in one family with them, those of
 * more[0..nmore) that are REVERSE relations (check.h): each interval at alpha / (k looks), k the
 * family's size (1 without the adjustment), by mg_ck_decide; returns k. */
static int adjust(mg_ck_verdict *vs, int n, int fam, mg_ck_verdict *more, int nmore, int holm, double alpha,
                  double margin, int looks) {
  int k = 0;
  for (int i = 0; i < n + nmore; i++) {
    const mg_ck_verdict *v = i < n ? &vs[i] : &more[i - n];
    k += v->status == MG_CKV_OK && v->aa == fam && (i < n || v->rel == MG_CK_REL_REVERSE);
  }
  double mult = (double)(holm && k > 0 ? k : 1) * (looks > 0 ? looks : 1);
  for (int i = 0; i < n + nmore; i++) {
    mg_ck_verdict *v = i < n ? &vs[i] : &more[i - n];
    if (v->status == MG_CKV_OK && v->aa == fam && (i < n || v->rel == MG_CK_REL_REVERSE))
      mg_ck_decide(v, alpha, mult, margin);
  }
  return k;
}

/* The looks a comparison of these data can have stopped at (check.h, mg_ck_result.looks): the
 * stopping rule's schedule below the launch's #@max_nrep, plus its end, when a launch measured with
 * `--stop-rule decided`; else 1 (a fixed count, the RSE rule or a time budget: rules that read one
 * series' spread or the clock, never the difference between the two). */
static int looks_of(const mg_ck_data *d) {
  long most = 1;
  for (int l = 0; l < d->nlaunches; l++) {
    const char *rule = mg_ck_meta_get(&d->launches[l].meta, "stop_rule");
    if (!rule || strcmp(rule, "decided")) continue;
    const char *mx = mg_ck_meta_get(&d->launches[l].meta, "max_nrep");
    long max_nrep = 1000;
    char e[64];
    if (mx && mg_parse_long(mx, 1, 1000000000L, &max_nrep, e, sizeof e)) max_nrep = 1000;
    mg_seq_cfg c;
    mg_seq_defaults(&c);
    long j = mg_seq_looks(&c, max_nrep) + 1;
    if (j > most) most = j;
  }
  return (int)most;
}

/* The noise threshold a check was given (--noise), recorded by every launch it measured: what a
 * later analysis of its files uses unless given its own. 0 when some launch has none. */
static double noise_given(const mg_ck_data *d) {
  double g = 0;
  for (int l = 0; l < d->nlaunches; l++) {
    if (!(d->launches[l].noise_given > 0)) return 0;
    if (d->launches[l].noise_given > g) g = d->launches[l].noise_given;
  }
  return g;
}

int mg_ck_analyze(const mg_ck_data *d, const mg_ck_opts *given, mg_ck_result *r, char *err, size_t errlen) {
  memset(r, 0, sizeof *r);
  r->opts = *given;
  if (!(r->opts.noise > 0)) r->opts.noise = noise_given(d);
  const mg_ck_opts *o = &r->opts;
  if (!(o->alpha > 0 && o->alpha < 1)) return MG_ERR("alpha %g is not between 0 and 1", o->alpha);
  if (!(o->margin >= 0)) return MG_ERR("margin %g is negative", o->margin);
  cell *cells = malloc((size_t)(d->nseries + d->nnotes + 1) * sizeof *cells);
  algref *algs = malloc((size_t)(d->nseries + d->nnotes + 1) * sizeof *algs);
  int ncells = 0, cap = 0, libcap = 0, rc = -1;
  if (!cells || !algs) {
    (void)MG_ERR("out of memory");
    goto out;
  }
  for (int i = 0; i < d->nseries + d->nnotes; i++) {
    cell c = i < d->nseries ? (cell){d->series[i].coll, d->series[i].bytes, d->series[i].red}
                            : (cell){d->notes[i - d->nseries].coll, d->notes[i - d->nseries].bytes,
                                     d->notes[i - d->nseries].red};
    int k;
    for (k = 0; k < ncells; k++)
      if (!cmp_cell(&cells[k], &c)) break;
    if (k == ncells) cells[ncells++] = c;
  }
  qsort(cells, (size_t)ncells, sizeof *cells, cmp_cell);

  for (int ci = 0; ci < ncells; ci++) {
    mg_coll coll = cells[ci].coll;
    size_t bytes = cells[ci].bytes;
    const char *red = cells[ci].red;
    int na = 0, have_default = 0;
    for (int i = 0; i < d->nseries + d->nnotes; i++) {
      const char *name = i < d->nseries ? d->series[i].alg : d->notes[i - d->nseries].alg;
      mg_coll c = i < d->nseries ? d->series[i].coll : d->notes[i - d->nseries].coll;
      size_t by = i < d->nseries ? d->series[i].bytes : d->notes[i - d->nseries].bytes;
      const char *rd = i < d->nseries ? d->series[i].red : d->notes[i - d->nseries].red;
      if (c != coll || by != bytes || strcmp(rd, red)) continue;
      if (!strcmp(name, "default")) {
        have_default |= i < d->nseries;
        continue;
      }
      int k;
      for (k = 0; k < na; k++)
        if (!strcmp(algs[k].name, name)) break;
      if (k == na) algs[na++] = (algref){coll, name};
    }
    qsort(algs, (size_t)na, sizeof *algs, cmp_alg);
    for (int k = 0; k <= na; k++) {
      if (k == na && (!o->aa || !have_default)) continue; /* the A/A control closes the cell */
      mg_ck_verdict v;
      mg_ck_verdict_init(&v, coll, bytes, red, k == na ? MG_CK_AA_NAME : algs[k].name);
      v.aa = k == na;
      v.guideline = guideline_of(coll, v.alg);
      int measured = v.aa;
      for (int i = 0; i < d->nseries && !measured; i++) {
        const mg_ck_series *s = &d->series[i];
        measured = s->coll == coll && s->bytes == bytes && !strcmp(s->red, red) && !strcmp(s->alg, v.alg);
      }
      if (!measured) { /* only notes: skipped or failed in every launch */
        v.status = MG_CKV_SKIPPED;
        for (int i = 0; i < d->nnotes; i++) {
          const mg_ck_note *n = &d->notes[i];
          if (n->coll == coll && n->bytes == bytes && !strcmp(n->red, red) && !strcmp(n->alg, v.alg)) {
            snprintf(v.note, sizeof v.note, "%s", n->text);
            break;
          }
        }
      } else if (mg_ck_compare_op(d, o, &v, mg_colls[v.coll].name, err, errlen)) {
        goto out;
      } else { /* a timing of a row outside a bits-only restriction: say so, tune skips it */
        for (int i = 0; i < d->nnotes && !v.measure_only; i++) {
          const mg_ck_note *n = &d->notes[i];
          if (n->coll == coll && n->bytes == bytes && !strcmp(n->red, red) && !strcmp(n->alg, v.alg) &&
              !strncmp(n->text, "measure only", 12))
            v.measure_only = 1, snprintf(v.note, sizeof v.note, "%s", n->text);
        }
      }
      if (mg_ck_is_libvar(v.alg) ? mg_ck_push_verdict(&r->lib, &r->nlib, &libcap, &v) : mg_ck_push_verdict(&r->v, &r->n, &cap, &v)) {
        (void)MG_ERR("out of memory");
        goto out;
      }
    }
  }
  if (monotony(d, o, r, err, errlen) || mg_ck_reverse_rows(d, o, r, err, errlen)) goto out;
  if (d->pack && mg_ck_pack_verdicts(d->pack, o, r, err, errlen)) goto out;
  if (d->ovl && mg_ck_overlap_verdicts(d->ovl, o, r, err, errlen)) goto out;
  r->looks = looks_of(d);
  r->family = adjust(r->v, r->n, 0, r->rel, r->nrel, o->holm, o->alpha, o->margin, r->looks);
  r->aa_family = adjust(r->v, r->n, 1, NULL, 0, o->holm, o->alpha, o->margin, r->looks);
  r->mono_family = adjust(r->mono, r->nmono, 0, NULL, 0, o->holm, o->alpha, o->margin, r->looks);
  r->lib_family = adjust(r->lib, r->nlib, 0, NULL, 0, o->holm, o->alpha, o->margin, r->looks);
  r->pack_family = adjust(r->pack, r->npack, 0, NULL, 0, o->holm, o->alpha, o->margin, 1); /* fixed rounds */
  r->ovl_family = adjust(r->ovl, r->novl, 0, NULL, 0, o->holm, o->alpha, o->margin, 1); /* the engine's rule */
  for (int i = 0, k = 0; i < r->n && k < r->nrel; i++) {
    const mg_ck_relation_rows *rr = r->v[i].aa ? NULL : mg_ck_relation_of(r->v[i].coll, r->v[i].alg);
    if (!rr) continue;
    r->rel_family += r->rel[k].status == MG_CKV_OK;
    mg_ck_equiv_row(&r->v[i], &r->rel[k], rr, o->margin, &r->rel[k + 1]);
    k += 2;
  }
  if (r->n == 0 && r->nlib == 0) {
    (void)MG_ERR("nothing to compare: the data hold no mock-up measured together with its default");
    goto out;
  }
  if (mg_ck_kinds_build(r)) {
    (void)MG_ERR("out of memory");
    goto out;
  }
  rc = 0;
out:
  free(cells);
  free(algs);
  if (rc) mg_ck_result_free(r);
  return rc;
}
