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
 * - the cost of a block not measured yet, per variant: interpolated in log-log between the
 *   measured sizes of the same key (the collective; without any, of all keys), and beyond the
 *   largest measured size scaled by the prior shape 1 + bytes / 16 KiB (the fixed weights the
 *   progress line used before, which a 1 MiB block measured 65 small ones; here they only bridge
 *   sizes not yet seen). Times the variants, times slower for the time it will take now.
 *
 * So an estimate grows only when a size turns out dearer than its neighbours predicted (early, while
 * few sizes are known) or when the machine slows, which slower says.
 */
#ifndef MG_BENCH_ETA_H
#define MG_BENCH_ETA_H

#define MG_ETA_KEYS 48  /* keys 0..MG_ETA_KEYS-2; the last slot pools every key */
#define MG_ETA_SIZES 64 /* distinct sizes remembered per key */
#define MG_ETA_PROBES 9

typedef struct mg_eta {
  int nsz[MG_ETA_KEYS];
  double bytes[MG_ETA_KEYS][MG_ETA_SIZES], sum[MG_ETA_KEYS][MG_ETA_SIZES]; /* per variant, start-speed s */
  int cnt[MG_ETA_KEYS][MG_ETA_SIZES];
  double first[MG_ETA_PROBES], last[MG_ETA_PROBES];
  long nprobes;
} mg_eta;

void mg_eta_init(mg_eta *e);
/* A probe of the machine's speed (larger: slower; <= 0 ignored). */
void mg_eta_probe(mg_eta *e, double probe);
/* The machine's slowness now against the start (1 until probes say otherwise). */
double mg_eta_slower(const mg_eta *e);
/* A finished block: key, size, variants measured, its wall time and the slowness during it. */
void mg_eta_block(mg_eta *e, int key, double bytes, int nvar, double seconds, double slower);
/* The predicted cost of a block at the starting speed, seconds; NAN before any block finished. */
double mg_eta_cost(const mg_eta *e, int key, double bytes, int nvar);

#endif
