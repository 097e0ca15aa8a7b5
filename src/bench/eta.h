/*
 * The time left of a measurement, learned as it goes (pure C, no MPI; docs/check.md, "How long
 * --full takes"). The engine reports each finished block and, after every batch, a cheap probe of
 * the machine's speed (mg_eta_probe: the wall time per CPU second of the most starved rank during
 * the batch, batch.c; a barrier's time was tried first and grew with the size of the call measured
 * before it, 500x at 4 MiB on a loaded node); from them:
 *
 * - slower: the machine's speed now against its speed at the start, the median of the last 9
 *   probes over the median of the first 9 (2: half as fast). A block's cost is stored divided by
 *   the slowness during it, so costs are in seconds at the starting speed.
 * - the cost of a block not measured yet, per variant, as (seconds per value) x (values per variant):
 *   the number of values a block takes varies ~50x under the sequential stopping rule (seq.h: small
 *   cells stop after 20-45 values, big ones of 1-8 MiB often run to the cap of ~1000), so the two are
 *   learned apart, per key (the collective) and size.
 *   - seconds per value: interpolated in log-log between the measured sizes of the same key (the
 *     collective; without any, of all keys); beyond them scaled by another key's shape that covers
 *     the size, else by the prior shape 1 + bytes / 8 KiB (a value of 8 KiB costs twice a tiny one).
 *   - values: at a measured size what it took; between two, the larger; beyond the largest measured
 *     size the values another key took there, else the cap (mg_eta_set_cap: max_nrep plus warm-ups;
 *     0: the largest measured size's values), never fewer than the largest measured size took.
 *   Times the variants, times slower for the time it will take now.
 *
 * The values are predicted conservatively (a size not yet seen runs to the cap), so at a constant
 * speed an estimate falls as cells stop early, and grows only when a size's time per value turns out
 * dearer than the shape said (early, while few sizes are known) or when the machine slows, which
 * slower says. One estimator serves a whole check (its groups of collectives run one after another,
 * mg_bench_cfg.eta).
 */
#ifndef MG_BENCH_ETA_H
#define MG_BENCH_ETA_H

#define MG_ETA_KEYS 48  /* keys 0..MG_ETA_KEYS-2; the last slot pools every key */
#define MG_ETA_SIZES 64 /* distinct sizes remembered per key */
#define MG_ETA_PROBES 9

typedef struct mg_eta {
  int nsz[MG_ETA_KEYS];
  double bytes[MG_ETA_KEYS][MG_ETA_SIZES];
  double sum[MG_ETA_KEYS][MG_ETA_SIZES]; /* seconds per value at the starting speed, summed over blocks */
  double val[MG_ETA_KEYS][MG_ETA_SIZES]; /* values per variant, summed over blocks */
  int cnt[MG_ETA_KEYS][MG_ETA_SIZES];
  double cap;                            /* values per variant of a size not seen (0: unknown) */
  double first[MG_ETA_PROBES], last[MG_ETA_PROBES];
  long nprobes;
} mg_eta;

void mg_eta_init(mg_eta *e);
/* A probe of the machine's speed (larger: slower; <= 0 ignored). */
void mg_eta_probe(mg_eta *e, double probe);
/* The machine's slowness now against the start (1 until probes say otherwise). */
double mg_eta_slower(const mg_eta *e);
/* The most values a variant of a block can take (warm-ups included; <= 0: no cap known). */
void mg_eta_set_cap(mg_eta *e, double values);
/* A finished block: key, size, variants measured, the values each took on average (warm-ups
 * included), its wall time and the slowness during it. */
void mg_eta_block(mg_eta *e, int key, double bytes, int nvar, double values, double seconds, double slower);
/* The predicted cost of a block at the starting speed, seconds; NAN before any block finished. */
double mg_eta_cost(const mg_eta *e, int key, double bytes, int nvar);

#endif
