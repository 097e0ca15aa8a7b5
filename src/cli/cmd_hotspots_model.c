/*
 * Predicted hot spots (cmd_hotspots_model.h): the cost model's price of a trace's calls, and the
 * comparison of the predicted hot spots with the measured ones of a timed trace.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_hotspots_model.h"

#define MG_HS_ERR 512

/* The model's time per rank of spot s: the calls of each algorithm that ran there times its price
 * at (nprocs, bytes) (point estimates; calls beyond the MG_HS_ALGS named priced as the default). NaN
 * when some call has no price. *src: the least sure source. */
static double spot_price(const mg_model *m, const mg_hs_spot *s, mg_price_src *src) {
  const mg_coll_info *ci = &mg_colls[s->coll];
  /* A nonblocking call returns once its message is posted: a timed trace times the post, and the
   * transfer completes in MPI_Wait/MPI_Test, which libmpiguide does not trace (HPCC: 198 isends of
   * 2 MB took 1.2 us each, the model's message 160 us). So the call is priced at its side's LogGP
   * overhead at the smallest measured size, the post (a rendezvous posts a control message; an
   * eager copy of a small message is within it), whichever row ran. */
  if ((s->coll == MG_ISEND || s->coll == MG_IRECV) && m->lg && m->lg->npts > 0) {
    *src = MG_PRICE_MODEL;
    return (double)s->calls * (s->coll == MG_ISEND ? m->lg->os[0] : m->lg->orecv[0]);
  }
  double t = 0;
  long left = s->calls;
  size_t at = 0;
  int k = 0;
  *src = MG_PRICE_NONE;
  for (const char *a = s->algs; *a && k < MG_HS_ALGS; a += at + (a[at] == '+'), k++) {
    at = strcspn(a, "+");
    int alg = 0; /* "default", or a row of the operation (an unknown name: the default ran for it) */
    for (int i = 1; i < ci->nalgs; i++)
      if (strlen(ci->algs[i].name) == at && !strncmp(ci->algs[i].name, a, at)) alg = i;
    mg_price pr = mg_model_alg_price(m, s->coll, alg, s->nprocs, (double)s->bytes);
    t += (double)s->alg_calls[k] * pr.t, left -= s->alg_calls[k];
    if (pr.src > *src) *src = pr.src;
  }
  if (left > 0) {
    mg_price pr = mg_model_default_price(m, s->coll, s->nprocs, (double)s->bytes);
    t += (double)left * pr.t;
    if (pr.src > *src) *src = pr.src;
  }
  return t;
}

int mg_hs_predict(mg_hs_trace *t, const mg_model *m, mg_price_src *src) {
  int unpriced = 0;
  *src = MG_PRICE_NONE;
  t->mpi_time = 0;
  for (int i = 0; i < t->n; i++) {
    mg_hs_spot *s = &t->spots[i];
    mg_price_src ps;
    double p = spot_price(m, s, &ps);
    if (!isfinite(p)) p = 0, unpriced++;
    else if (ps > *src) *src = ps;
    /* the calls of each algorithm keep their share of the predicted time (mg_hs_saving) */
    for (int k = 0; k < MG_HS_ALGS; k++) s->alg_time[k] = s->calls > 0 ? p * (double)s->alg_calls[k] / (double)s->calls : 0;
    s->time = p, s->wait = NAN;
    t->mpi_time += p;
  }
  return unpriced;
}

/* The key a hot spot is compared by: its site, operation, size and reduction; cell_only: the
 * operation, process count and size (what an untimed trace knows). */
static void spot_key(const mg_hs_trace *t, const mg_hs_spot *s, int cell_only, char *buf, size_t len) {
  if (cell_only)
    snprintf(buf, len, "%s np=%d %zu", mg_colls[s->coll].name, s->nprocs, s->bytes);
  else
    snprintf(buf, len, "%s+0x%llx %s np=%d %zu %s", s->obj >= 0 ? t->objs[s->obj] : "?", s->offset,
             mg_colls[s->coll].name, s->nprocs, s->bytes, s->red);
}

/* A list of keyed times: the spots of a trace merged by key. */
typedef struct keyed {
  char (*key)[320];
  double *time;
  int n;
} keyed;

static int keyed_of(const mg_hs_trace *t, int cell_only, keyed *K) {
  memset(K, 0, sizeof *K);
  K->key = calloc((size_t)t->n + 1, sizeof *K->key);
  K->time = calloc((size_t)t->n + 1, sizeof *K->time);
  if (!K->key || !K->time) return -1;
  for (int i = 0; i < t->n; i++) {
    char k[320];
    spot_key(t, &t->spots[i], cell_only, k, sizeof k);
    int j = 0;
    while (j < K->n && strcmp(K->key[j], k)) j++;
    if (j == K->n) snprintf(K->key[K->n++], sizeof *K->key, "%s", k);
    K->time[j] += t->spots[i].time;
  }
  return 0;
}

static void keyed_free(keyed *K) {
  free(K->key);
  free(K->time);
}

/* The rank (1-based) of key among the first k of order over K; 0: not among them. */
static int rank_of(const keyed *K, const int *order, int k, const char *key) {
  for (int i = 0; i < k; i++)
    if (!strcmp(K->key[order[i]], key)) return i + 1;
  return 0;
}

static double time_of(const keyed *K, const char *key) {
  for (int i = 0; i < K->n; i++)
    if (!strcmp(K->key[i], key)) return K->time[i];
  return 0;
}

int mg_hs_compare(const mg_hs_trace *pred, const char *measured, double pct, int nmax, const char *pre, FILE *o) {
  char err[MG_HS_ERR];
  mg_hs_trace mt;
  if (mg_hs_read(measured, &mt, err, sizeof err))
    return fprintf(stderr, "mpiguide hotspots: --measured: %s\n", err), -1;
  if (!mt.timed) {
    fprintf(stderr, "mpiguide hotspots: --measured %s: an untimed trace (MPIGUIDE_TRACE_TIME=1 makes a timed one)\n",
            measured);
    return mg_hs_free(&mt), -1;
  }
  int cell_only = !pred->timed, rc = -1, reached, km, kp;
  keyed P = {0}, M = {0};
  int *om = NULL, *op = NULL;
  if (keyed_of(pred, cell_only, &P) || keyed_of(&mt, cell_only, &M) || !(om = calloc((size_t)M.n + 1, sizeof *om)) ||
      !(op = calloc((size_t)P.n + 1, sizeof *op))) {
    fprintf(stderr, "mpiguide hotspots: out of memory\n");
    goto done;
  }
  kp = mg_hs_select(P.time, P.n, pred->mpi_time, pct, nmax, op, &reached);
  km = mg_hs_select(M.time, M.n, mt.mpi_time, pct, nmax, om, &reached);
  int only_p = 0, only_m = 0;
  for (int i = 0; i < kp; i++) only_p += !rank_of(&M, om, km, P.key[op[i]]);
  for (int i = 0; i < km; i++) only_m += !rank_of(&P, op, kp, M.key[om[i]]);
  double cov = 0;
  for (int i = 0; i < km; i++) cov += M.time[om[i]];
  fprintf(o, "%s\n%spredicted against measured (%s: %d hot spot%s cover %.1f %% of %.6f s in MPI calls per rank), per %s:\n",
          pre, pre, measured, km, km == 1 ? "" : "s", mt.mpi_time > 0 ? 100 * cov / mt.mpi_time : 0.0, mt.mpi_time,
          cell_only ? "operation, process count and size" : "call site, operation, size and reduction");
  fprintf(o, "%s  %-9s %-8s %12s %12s  %s\n", pre, "predicted", "measured", "predicted_s", "measured_s", "spot");
  for (int i = 0; i < kp; i++) {
    const char *key = P.key[op[i]];
    char r[16] = "-";
    int mr = rank_of(&M, om, km, key);
    if (mr) snprintf(r, sizeof r, "%d", mr);
    fprintf(o, "%s  %9d %8s %12.6f %12.6f  %s\n", pre, i + 1, r, P.time[op[i]], time_of(&M, key), key);
  }
  for (int i = 0; i < km; i++)
    if (!rank_of(&P, op, kp, M.key[om[i]]))
      fprintf(o, "%s  %9s %8d %12.6f %12.6f  %s\n", pre, "-", i + 1, time_of(&P, M.key[om[i]]), M.time[om[i]], M.key[om[i]]);
  fprintf(o, "%sset difference: %d predicted hot spot%s not measured as one, %d measured not predicted (of %d predicted, %d measured)\n",
          pre, only_p, only_p == 1 ? "" : "s", only_m, kp, km);
  rc = 0;
done:
  free(om);
  free(op);
  keyed_free(&P);
  keyed_free(&M);
  mg_hs_free(&mt);
  return rc;
}

