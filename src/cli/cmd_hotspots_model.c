/*
 * Predicted hot spots (cmd_hotspots_model.h): the cost model's price of a trace's calls, what it
 * cannot see in them, and the comparison of the predicted hot spots with the measured ones of a
 * timed trace.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_hotspots_model.h"
#include "util/fmt.h"

#define MG_HS_ERR 512

static int known_op(const mg_hs_spot *s) { return (int)s->coll >= 0 && s->coll < MG_NCOLL; }

/* The model's price of one call of algorithm alg (registry index, 0 the default) of coll at (p, n).
 * A nonblocking call returns once its message is posted: a timed trace times the post, and the
 * transfer completes in MPI_Wait/MPI_Test (HPCC: 198 isends of 2 MB took 1.2 us each, the model's
 * message 160 us). So the call is priced at its side's LogGP overhead at the smallest measured
 * size, the post (a rendezvous posts a control message; an eager copy of a small message is within
 * it), whichever row ran. */
static mg_price call_price(const mg_model *m, int coll, int alg, int p, double n) {
  if ((coll == MG_ISEND || coll == MG_IRECV) && m->lg && m->lg->npts > 0) {
    mg_price pr = {0};
    pr.t = pr.lo = pr.hi = coll == MG_ISEND ? m->lg->os[0] : m->lg->orecv[0];
    pr.src = MG_PRICE_MODEL;
    return pr;
  }
  return alg ? mg_model_alg_price(m, coll, alg, p, n) : mg_model_default_price(m, coll, p, n);
}

/* The registry index of the algorithm named by the len characters at a in coll's rows: 0 (the
 * default) for "default" and for an unknown name (the default ran for it). */
static int alg_index(int coll, const char *a, size_t len) {
  const mg_coll_info *ci = &mg_colls[coll];
  for (int i = 1; i < ci->nalgs; i++)
    if (strlen(ci->algs[i].name) == len && !strncmp(ci->algs[i].name, a, len)) return i;
  return 0;
}

/* For each algorithm that ran at spot s (the first MG_HS_ALGS named, then the default for the
 * calls beyond them): fn(alg, calls, arg). */
static void each_alg(const mg_hs_spot *s, void (*fn)(int alg, long calls, void *arg), void *arg) {
  long left = s->calls;
  size_t at = 0;
  int k = 0;
  for (const char *a = s->algs; *a && k < MG_HS_ALGS; a += at + (a[at] == '+'), k++) {
    at = strcspn(a, "+");
    fn(alg_index(s->coll, a, at), s->alg_calls[k], arg);
    left -= s->alg_calls[k];
  }
  if (left > 0) fn(0, left, arg);
}

typedef struct spot_sum {
  const mg_model *m;
  const mg_hs_spot *s;
  double t;
  mg_price_src src;
} spot_sum;

static void add_alg(int alg, long calls, void *arg) {
  spot_sum *S = arg;
  mg_price pr = call_price(S->m, S->s->coll, alg, S->s->nprocs, (double)S->s->bytes);
  S->t += (double)calls * pr.t;
  if (pr.src > S->src) S->src = pr.src;
}

/* The model's time per rank of spot s: the calls of each algorithm that ran there times its price
 * at (nprocs, bytes), point estimates. NaN when some call has no price or the operation is not
 * the model's. *src: the least sure source. */
static double spot_price(const mg_model *m, const mg_hs_spot *s, mg_price_src *src) {
  *src = MG_PRICE_NONE;
  if (!known_op(s)) return NAN;
  spot_sum S = {m, s, 0, MG_PRICE_NONE};
  each_alg(s, add_alg, &S);
  *src = S.src;
  return S.t;
}

mg_hs_kind mg_hs_kind_of(const mg_model *m, const mg_hs_spot *s) {
  mg_price_src src;
  if (!isfinite(spot_price(m, s, &src))) return MG_HS_UNPRICED;
  return s->coll == MG_ISEND || s->coll == MG_IRECV ? MG_HS_POST : MG_HS_PRICED;
}

int mg_hs_predict(mg_hs_trace *t, const mg_model *m, mg_price_src *src, unsigned char *kind) {
  int unpriced = 0;
  *src = MG_PRICE_NONE;
  t->mpi_time = 0;
  for (int i = 0; i < t->n; i++) {
    mg_hs_spot *s = &t->spots[i];
    mg_price_src ps;
    double p = spot_price(m, s, &ps);
    if (kind) kind[i] = (unsigned char)mg_hs_kind_of(m, s);
    if (!isfinite(p)) p = 0, unpriced++;
    else if (ps > *src) *src = ps;
    /* the calls of each algorithm keep their share of the predicted time (mg_hs_saving) */
    for (int k = 0; k < MG_HS_ALGS; k++) s->alg_time[k] = s->calls > 0 ? p * (double)s->alg_calls[k] / (double)s->calls : 0;
    s->time = p, s->wait = NAN;
    t->mpi_time += p;
  }
  return unpriced;
}

/* ---- prices not monotone in the size ----------------------------------------------------- */

typedef struct cell {
  int coll, alg, nprocs;
  size_t bytes;
} cell;

typedef struct cells {
  cell *v;
  int n;
  const mg_hs_spot *s;
} cells;

static void add_cell(int alg, long calls, void *arg) {
  cells *C = arg;
  (void)calls;
  cell c = {C->s->coll, alg, C->s->nprocs, C->s->bytes};
  for (int i = 0; i < C->n; i++)
    if (!memcmp(&C->v[i], &c, sizeof c)) return;
  C->v[C->n++] = c;
}

static int by_cell(const void *a, const void *b) {
  const cell *x = a, *y = b;
  if (x->coll != y->coll) return x->coll < y->coll ? -1 : 1;
  if (x->alg != y->alg) return x->alg < y->alg ? -1 : 1;
  if (x->nprocs != y->nprocs) return x->nprocs < y->nprocs ? -1 : 1;
  return x->bytes < y->bytes ? -1 : x->bytes > y->bytes;
}

static int by_ratio(const void *a, const void *b) {
  const mg_hs_inversion *x = a, *y = b;
  double rx = x->t_small / x->t_large, ry = y->t_small / y->t_large;
  return rx > ry ? -1 : rx < ry;
}

int mg_hs_inversions(const mg_hs_trace *t, const mg_model *m, mg_hs_inversion *v, int max) {
  cells C = {calloc((size_t)t->n * (MG_HS_ALGS + 1) + 1, sizeof(cell)), 0, NULL};
  double *price = calloc((size_t)t->n * (MG_HS_ALGS + 1) + 1, sizeof *price);
  mg_hs_inversion *all = calloc((size_t)t->n + 1, sizeof *all);
  int found = 0;
  if (!C.v || !price || !all) goto done;
  for (int i = 0; i < t->n; i++)
    if (known_op(&t->spots[i])) C.s = &t->spots[i], each_alg(&t->spots[i], add_cell, &C);
  qsort(C.v, (size_t)C.n, sizeof *C.v, by_cell);
  for (int i = 0; i < C.n; i++) price[i] = call_price(m, C.v[i].coll, C.v[i].alg, C.v[i].nprocs, (double)C.v[i].bytes).t;
  for (int a = 0; a < C.n;) { /* the group of one operation, algorithm and process count: [a, b) */
    int b = a;
    while (b < C.n && C.v[b].coll == C.v[a].coll && C.v[b].alg == C.v[a].alg && C.v[b].nprocs == C.v[a].nprocs) b++;
    int wi = -1, wj = -1;
    for (int i = a; i < b; i++)
      for (int j = i + 1; j < b; j++) /* sizes ascend: j larger, and priced below i beyond rounding */
        if (isfinite(price[i]) && isfinite(price[j]) && price[j] >= 0 && price[i] > price[j] * (1 + 1e-9) &&
            (wi < 0 || price[i] * price[wj] > price[wi] * price[j]))
          wi = i, wj = j;
    if (wi >= 0 && price[wj] > 0)
      all[found++] = (mg_hs_inversion){C.v[wi].coll, C.v[wi].alg, C.v[wi].nprocs, C.v[wi].bytes, C.v[wj].bytes,
                                       price[wi], price[wj]};
    a = b;
  }
  qsort(all, (size_t)found, sizeof *all, by_ratio);
  for (int i = 0; i < found && i < max; i++) v[i] = all[i];
done:
  free(C.v);
  free(price);
  free(all);
  return found;
}

/* ---- predicted against measured ---------------------------------------------------------- */

/* A list of keyed times: the spots of a trace merged by key (the site's identity, operation,
 * size and reduction; cell_only: the operation, process count and size), with their label, kind
 * and whether the model priced them. */
typedef struct keyed {
  char (*key)[400];
  char (*desc)[160]; /* "allreduce np=4 8 float:sum": what the key holds beside the site */
  mg_hs_label *label;
  double *time;
  unsigned char *kind;
  int n;
} keyed;

static void spot_key(const mg_hs_trace *t, const mg_hs_spot *s, int cell_only, char *buf, size_t len) {
  const char *op = known_op(s) ? mg_colls[s->coll].name : "?";
  if (cell_only)
    snprintf(buf, len, "%s np=%d %zu", op, s->nprocs, s->bytes);
  else
    snprintf(buf, len, "%.300s+0x%llx %s np=%d %zu %s", s->obj >= 0 ? t->objs[s->obj] : "?", s->offset, op, s->nprocs,
             s->bytes, s->red);
}

/* kind: the spots' kinds (NULL: computed under m). names: the sites of t. */
static int keyed_of(const mg_hs_trace *t, const mg_hs_site *names, const unsigned char *kind, const mg_model *m,
                    int cell_only, int wide, keyed *K) {
  memset(K, 0, sizeof *K);
  K->key = calloc((size_t)t->n + 1, sizeof *K->key);
  K->desc = calloc((size_t)t->n + 1, sizeof *K->desc);
  K->label = calloc((size_t)t->n + 1, sizeof *K->label);
  K->time = calloc((size_t)t->n + 1, sizeof *K->time);
  K->kind = calloc((size_t)t->n + 1, sizeof *K->kind);
  if (!K->key || !K->desc || !K->label || !K->time || !K->kind) return -1;
  for (int i = 0; i < t->n; i++) {
    char k[400];
    spot_key(t, &t->spots[i], cell_only, k, sizeof k);
    int j = 0;
    while (j < K->n && strcmp(K->key[j], k)) j++;
    if (j == K->n) {
      const mg_hs_spot *s = &t->spots[i];
      snprintf(K->key[K->n++], sizeof *K->key, "%s", k);
      snprintf(K->desc[j], sizeof *K->desc, "%s np=%d %zu%s%s", known_op(s) ? mg_colls[s->coll].name : "?", s->nprocs,
               s->bytes, s->red[0] ? " " : "", s->red);
      if (!cell_only) mg_hs_label_of(t, &t->spots[i], &names[i], wide, &K->label[j]);
    }
    K->time[j] += t->spots[i].time;
    unsigned char kd = kind ? kind[i] : (unsigned char)mg_hs_kind_of(m, &t->spots[i]);
    if (kd > K->kind[j]) K->kind[j] = kd;
  }
  return 0;
}

static void keyed_free(keyed *K) {
  free(K->key);
  free(K->desc);
  free(K->label);
  free(K->time);
  free(K->kind);
}

static int find(const keyed *K, const char *key) {
  for (int i = 0; i < K->n; i++)
    if (!strcmp(K->key[i], key)) return i;
  return -1;
}

/* The rank (1-based) of key among the first k of order over K; 0: not among them. */
static int rank_of(const keyed *K, const int *order, int k, const char *key) {
  for (int i = 0; i < k; i++)
    if (!strcmp(K->key[order[i]], key)) return i + 1;
  return 0;
}

/* The hot spots of K: the priced keys selected (mg_hs_select), as indexes of K in order[0..k). */
static int select_priced(const keyed *K, double total, double pct, int nmax, int *order) {
  int *idx = calloc((size_t)K->n + 1, sizeof *idx), n = 0, reached;
  double *tm = calloc((size_t)K->n + 1, sizeof *tm);
  if (!idx || !tm) return free(idx), free(tm), -1;
  for (int i = 0; i < K->n; i++)
    if (K->kind[i] != MG_HS_UNPRICED) tm[n] = K->time[i], idx[n++] = i;
  int k = mg_hs_select(tm, n, total, pct, nmax, order, &reached);
  for (int i = 0; i < k; i++) order[i] = idx[order[i]];
  free(idx);
  free(tm);
  return k;
}

/* The spot column: its label (per site) and operation, np, size, reduction; or the cell. */
static void spot_text(const keyed *K, int i, int cell_only, char *buf, size_t len) {
  if (cell_only) snprintf(buf, len, "%s", K->key[i]);
  else snprintf(buf, len, "%s %s", K->label[i].text, K->desc[i]);
}

int mg_hs_compare(const mg_hs_trace *pred, const mg_hs_site *names, const unsigned char *kind, const mg_model *m,
                  const char *measured, double pct, int nmax, int wide, const char *pre, FILE *o) {
  char err[MG_HS_ERR];
  mg_hs_trace mt;
  if (mg_hs_read(measured, &mt, err, sizeof err))
    return fprintf(stderr, "mpiguide hotspots: --measured: %s\n", err), -1;
  if (!mt.timed) {
    fprintf(stderr, "mpiguide hotspots: --measured %s: an untimed trace (MPIGUIDE_TRACE_TIME=1 makes a timed one)\n",
            measured);
    return mg_hs_free(&mt), -1;
  }
  int cell_only = !pred->timed, rc = -1, km, kp, missing = 0;
  keyed P = {0}, M = {0};
  int *om = NULL, *op = NULL;
  mg_hs_site *mnames = calloc((size_t)mt.n + 1, sizeof *mnames);
  mg_hs_label *all = NULL;
  if (mnames && !cell_only) mg_hs_resolve(&mt, mnames, &missing);
  if (!mnames || keyed_of(pred, names, kind, m, cell_only, wide, &P) || keyed_of(&mt, mnames, NULL, m, cell_only, wide, &M) ||
      !(om = calloc((size_t)M.n + 1, sizeof *om)) || !(op = calloc((size_t)P.n + 1, sizeof *op)) ||
      !(all = calloc((size_t)(P.n + M.n) + 1, sizeof *all))) {
    fprintf(stderr, "mpiguide hotspots: out of memory\n");
    goto done;
  }
  if (!cell_only) { /* the labels told apart over both traces, so that one site reads the same in each */
    memcpy(all, P.label, (size_t)P.n * sizeof *all);
    memcpy(all + P.n, M.label, (size_t)M.n * sizeof *all);
    mg_hs_labels_apart(all, P.n + M.n);
    memcpy(P.label, all, (size_t)P.n * sizeof *all);
    memcpy(M.label, all + P.n, (size_t)M.n * sizeof *all);
  }
  for (int j = 0; j < M.n; j++) { /* a measured spot's kind is the predicted one's where both have it */
    int i = find(&P, M.key[j]);
    if (i >= 0) M.kind[j] = P.kind[i];
  }
  int reached;
  kp = select_priced(&P, pred->mpi_time, pct, nmax, op);
  km = mg_hs_select(M.time, M.n, mt.mpi_time, pct, nmax, om, &reached);
  if (kp < 0) goto done;
  int only_p = 0, only_m = 0;
  for (int i = 0; i < kp; i++) only_p += !rank_of(&M, om, km, P.key[op[i]]);
  for (int i = 0; i < km; i++) only_m += !rank_of(&P, op, kp, M.key[om[i]]);
  double cov = 0;
  for (int i = 0; i < km; i++) cov += M.time[om[i]];
  fprintf(o, "%s\n%spredicted against measured (%s: %d hot spot%s cover %.1f %% of %.6f s in MPI calls per rank), per %s:\n",
          pre, pre, measured, km, km == 1 ? "" : "s", mt.mpi_time > 0 ? 100 * cov / mt.mpi_time : 0.0, mt.mpi_time,
          cell_only ? "operation, process count and size" : "call site, operation, size and reduction");
  fprintf(o, "%s  %-9s %-8s %12s %12s %12s  %s\n", pre, "predicted", "measured", "predicted_s", "measured_s", "waiting_s",
          "spot");
  /* the rows: the predicted hot spots, then the measured ones not among them */
  for (int r = 0; r < kp + km; r++) {
    const char *key = r < kp ? P.key[op[r]] : M.key[om[r - kp]];
    if (r >= kp && rank_of(&P, op, kp, key)) continue;
    int pi = find(&P, key), mi = find(&M, key), mr = rank_of(&M, om, km, key);
    int kd = pi >= 0 ? P.kind[pi] : M.kind[mi];
    char prank[16] = "-", mrank[16] = "-", ps[24], ms[24] = "-", ws[24] = "-", spot[700];
    if (r < kp) snprintf(prank, sizeof prank, "%d", r + 1);
    if (mr) snprintf(mrank, sizeof mrank, "%d", mr);
    if (kd == MG_HS_UNPRICED) snprintf(ps, sizeof ps, "not priced");
    else snprintf(ps, sizeof ps, "%.6f", pi >= 0 ? P.time[pi] : 0.0);
    if (mi >= 0) {
      snprintf(ms, sizeof ms, "%.6f", M.time[mi]);
      /* waiting: the measured time beyond the price; all of it where the model has no price; none
       * known for a spot the predicted trace never called */
      if (kd == MG_HS_UNPRICED) snprintf(ws, sizeof ws, "%.6f", M.time[mi]);
      else if (pi >= 0) snprintf(ws, sizeof ws, "%.6f", fmax(0, M.time[mi] - P.time[pi]));
    }
    spot_text(pi >= 0 ? &P : &M, pi >= 0 ? pi : mi, cell_only, spot, sizeof spot);
    fprintf(o, "%s  %9s %8s %12s %12s %12s  %s%s\n", pre, prank, mrank, ps, ms, ws, spot,
            kd == MG_HS_UNPRICED ? "  not priced (waiting)"
            : kd == MG_HS_POST   ? "  post: its transfer is waited for in a completion, not priced"
                                 : "");
  }
  fprintf(o, "%sset difference: %d predicted hot spot%s not measured as one, %d measured not predicted (of %d predicted, %d measured)\n",
          pre, only_p, only_p == 1 ? "" : "s", only_m, kp, km);
  /* the waiting over every measured spot: nothing beyond the model's price is dropped */
  double wait = 0, unp = 0;
  int nunp = 0;
  for (int j = 0; j < M.n; j++) {
    int i = find(&P, M.key[j]);
    if (M.kind[j] == MG_HS_UNPRICED) wait += M.time[j], unp += M.time[j], nunp++;
    else if (i >= 0) wait += fmax(0, M.time[j] - P.time[i]);
  }
  fprintf(o, "%swaiting (measured beyond the model's price, every measured spot): %.6f s per rank = %.1f %% of the measured MPI time",
          pre, wait, mt.mpi_time > 0 ? 100 * wait / mt.mpi_time : 0.0);
  if (nunp)
    fprintf(o, "; %.6f s of it in %d spot%s the model does not price (not priced (waiting))", unp, nunp, nunp == 1 ? "" : "s");
  fputc('\n', o);
  /* a format-4 measured trace: the MPI time outside the tuned operations, which the model does not
   * price at all (completions, the other functions): waiting to the model, said, not dropped */
  if (mt.version >= 4 && mt.all_time > mt.mpi_time) {
    double rest = mt.all_time - mt.mpi_time;
    fprintf(o, "%snot priced (waiting) beyond the hot spots: %.6f s per rank in the measured trace's other MPI calls, %.1f %% "
               "of its whole MPI time (completions %.6f s: the waiting of the posts above; `mpiguide hotspots %s` "
               "lists them)\n",
            pre, rest, 100 * rest / mt.all_time, mt.class_time[MG_HS_CLASS_completion], measured);
  }
  rc = 0;
done:
  free(om);
  free(op);
  free(all);
  free(mnames);
  keyed_free(&P);
  keyed_free(&M);
  mg_hs_free(&mt);
  return rc;
}
