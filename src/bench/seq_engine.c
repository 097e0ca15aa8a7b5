/*
 * The sequential stopping rule in the measurement loop (seq.h says the rule, docs/statistics.md its
 * error): before each batch the engine (engine.c, measure_block) asks how many rounds end the batch
 * on the next point of an open comparison's schedule (12, 20, 30, 45, ... values), and after it which
 * series of the block are done because their comparison with the default is decided; a comparison is
 * looked at only at those points.
 */
#include <stdio.h>
#include <stdlib.h>

#include "bench/run.h"

/* One side of a comparison at a look: the valid values of a series sorted, and per root of a rotating
 * root (the roots told apart by value, as the analysis does) sorted. */
typedef struct seq_side {
  double *buf; /* 2 n: the pooled values, then the values by root */
  const double *rx[MG_BENCH_MAX_ROOTS];
  long rn[MG_BENCH_MAX_ROOTS];
  mg_seq_sample s;
} seq_side;

int mg_bench_rotation_roots(const mg_bench_cfg *cfg, const mg_bench_block *B, int *first) {
  if (!mg_colls[B->coll].rooted || cfg->nroots < 2) return 0;
  int k = 0;
  for (int i = 0; i < cfg->nroots; i++) {
    int seen = 0;
    for (int j = 0; j < k && !seen; j++) seen = cfg->roots[first[j]] == cfg->roots[i];
    if (!seen) first[k++] = i;
  }
  return k > 1 ? k : 0;
}

/* The sample of series se into side, its first `keep` valid values in measurement order (all when
 * keep < 0; its buffer from malloc; free it). -1: out of memory. */
static int seq_sample(const run *R, const mg_bench_block *B, const mg_bench_series *se, const int *first, int nr,
                      long keep, seq_side *side) {
  side->buf = malloc(2 * (size_t)(se->n + 1) * sizeof *side->buf);
  if (!side->buf) return -1;
  double *x = side->buf, *by = side->buf + se->n + 1;
  long n = 0, at = 0, end = 0; /* rows [0, end) hold the values kept */
  for (; end < se->n && (keep < 0 || n < keep); end++)
    if (se->valid[end] && !se->warmup[end]) x[n++] = se->lat[end];
  mg_sort_doubles(x, (size_t)n);
  for (int r = 0; r < nr; r++) { /* the rows of root r: its round's root is r's value */
    int root = R->cfg->roots[first[r]];
    side->rx[r] = by + at;
    side->rn[r] = 0;
    for (long i = 0; i < end; i++)
      if (se->valid[i] && !se->warmup[i] && mg_bench_root(R->cfg, B->coll, se->round[i]) == root)
        by[at + side->rn[r]++] = se->lat[i];
    mg_sort_doubles(by + at, (size_t)side->rn[r]);
    at += side->rn[r];
  }
  side->s = (mg_seq_sample){x, n, nr, side->rx, side->rn};
  return 0;
}

/* MPIGUIDE_SEQ_LOOKS=1: rank 0 prints every look on stderr (what it saw, mg_seq_explain, and the
 * decision), to see why a comparison stays open (docs/statistics.md). */
static void seq_trace(const run *R, const mg_seq_cfg *c, const mg_bench_block *B, const mg_bench_series *se, long look,
                      const mg_seq_sample *d, const mg_seq_sample *m, mg_seq_decision dec) {
  static int on = -1;
  if (on < 0) {
    const char *v = getenv("MPIGUIDE_SEQ_LOOKS");
    on = v && *v && *v != '0';
  }
  if (!on || R->rank != 0) return;
  char line[1024];
  mg_seq_explain(c, d, m, line, sizeof line);
  fprintf(stderr, "mpiguide seq: %s %zu B %s look %ld: %s -> %s\n", mg_colls[B->coll].name, B->bytes,
          mg_lv_is(se->alg) ? "variant" : mg_colls[B->coll].algs[se->alg].name, look, line, mg_seq_decision_name(dec));
}

/* The rule as the engine applies it to B: check's settings, the looks of max_nrep, the run's noise
 * threshold unless one is given, point-to-point rows both ways. */
static mg_seq_cfg seq_cfg(const run *R, const mg_bench_block *B) {
  const mg_bench_cfg *cfg = R->cfg;
  mg_seq_cfg c = cfg->seq;
  c.looks = mg_seq_looks(&c, cfg->rep.max_nrep);
  if (!(c.noise > 0)) c.noise = R->res->sync_skew > R->res->sync_cost ? R->res->sync_skew : R->res->sync_cost;
  c.both_ways = mg_coll_is_p2p(B->coll); /* eqs. 5-7 read the row both ways */
  return c;
}

/* The index in act[] of B's default, or -1. */
static int seq_default(const mg_bench_block *B, const int *act, int nact) {
  int d = -1;
  for (int i = 0; i < nact; i++)
    if (B->series[act[i]].alg == 0) d = i;
  return d;
}

/* The values that time the looks of series i's comparison: its smaller side's (a series' valid
 * values are its nvalid, the warm-ups counted apart); with the default stopped, the mock-up's alone
 * (seq.h, mg_seq_frozen). */
static long seq_smaller(const mg_bench_block *B, const int *act, int d, int i, int dstop) {
  long dn = B->series[act[d]].nvalid, mn = B->series[act[i]].nvalid;
  return dstop || mn < dn ? mn : dn;
}

long mg_bench_seq_rounds(const run *R, const mg_bench_block *B, const int *act, int nact, const mg_rep_state *st,
                         long batch) {
  int d = seq_default(B, act, nact);
  if (d < 0 || nact < 2) return batch;
  mg_seq_cfg c = seq_cfg(R, B);
  int dstop = st[d].stop != MG_STOP_NONE;
  long need = 0; /* values to the nearest point of an open comparison */
  for (int i = 0; i < nact; i++) {
    if (i == d || st[i].stop != MG_STOP_NONE || mg_lv_is(B->series[act[i]].alg)) continue;
    long left = mg_seq_next(&c, seq_smaller(B, act, d, i, dstop), st[i].seq_look);
    if (left > 0 && (need == 0 || left < need)) need = left;
  }
  return mg_seq_batch(need, batch);
}

/* After a batch: the mock-ups whose comparison with the default is decided stop, and the default
 * once every other series of the block stopped (it has nothing left to be compared with); its RSE
 * rule does not stop it while a comparison is open. A default that stopped first (its cap) leaves its open comparisons their looks: due then by the
 * mock-up's values alone, reading the default as at the comparison's last look (seq.h,
 * mg_seq_frozen). The values are the reduced latencies every rank holds, so every rank stops the
 * same series. */
int mg_bench_seq_stop(run *R, const mg_bench_block *B, const int *act, int nact, mg_rep_state *st) {
  const mg_bench_cfg *cfg = R->cfg;
  int d = seq_default(B, act, nact);
  if (d < 0 || nact < 2) return MPI_SUCCESS;
  mg_seq_cfg c = seq_cfg(R, B);
  int first[MG_BENCH_MAX_ROOTS], nr = mg_bench_rotation_roots(cfg, B, first);
  const mg_bench_series *ds = &B->series[act[d]];
  /* the default stopped in an earlier batch (none of its values is new): read frozen; in the batch
   * where it stops its count is still the batch's, not the stopping rule's */
  int dstop = st[d].stop != MG_STOP_NONE && st[d].seq_dn == ds->nvalid;
  st[d].seq_dn = ds->nvalid; /* the default's own seq_dn: its values at the last batch */
  seq_side def = {0}; /* sorted only when some comparison has a look */
  int open = 0;
  for (int i = 0; i < nact; i++) {
    const mg_bench_series *se = &B->series[act[i]];
    if (i == d || st[i].stop != MG_STOP_NONE) continue;
    if (mg_lv_is(se->alg)) { /* a library variant: no guideline verdict, its own rule */
      open = 1;
      continue;
    }
    /* a look only when the smaller side first reaches the next point of the schedule (seq.h); with
     * the default stopped, when the mock-up does (the default as at the last look); the counts
     * alone say whether one is due, so a batch without a look sorts nothing */
    long look = mg_seq_look_at(&c, seq_smaller(B, act, d, i, dstop)), keep = -1;
    if (dstop) keep = st[i].seq_look >= 0 ? st[i].seq_dn : mg_seq_frozen(&c, ds->nvalid);
    if (look <= st[i].seq_look) {
      open = 1;
      continue;
    }
    seq_side m, fz = {0};
    if (!def.buf && seq_sample(R, B, ds, first, nr, -1, &def)) return PMPI_Abort(R->comm, 1);
    if (seq_sample(R, B, se, first, nr, -1, &m)) return free(def.buf), PMPI_Abort(R->comm, 1);
    if (keep >= 0 && keep < def.s.n && seq_sample(R, B, ds, first, nr, keep, &fz))
      return free(m.buf), free(def.buf), PMPI_Abort(R->comm, 1);
    mg_seq_decision dec = mg_seq_decide(&c, fz.buf ? &fz.s : &def.s, &m.s);
    seq_trace(R, &c, B, se, look, fz.buf ? &fz.s : &def.s, &m.s, dec);
    st[i].seq_look = look;
    st[i].seq_dn = keep >= 0 && keep < def.s.n ? keep : def.s.n; /* what the next frozen look reads */
    if (dec != MG_SEQ_OPEN) st[i].stop = MG_STOP_DECIDED;
    else open = 1;
    free(fz.buf), free(m.buf);
  }
  free(def.buf);
  if (!open && st[d].stop == MG_STOP_NONE) st[d].stop = MG_STOP_DECIDED;
  /* A default that met its RSE rule while a comparison is open measures on: the verdict reads both
   * sides over the rounds they share (docs/statistics.md, "Both sides over the same rounds"), so a
   * mock-up measured after the default stopped would be measured for nothing. Its cap still stops it. */
  if (open && st[d].stop == MG_STOP_RSE) st[d].stop = MG_STOP_NONE;
  return MPI_SUCCESS;
}

