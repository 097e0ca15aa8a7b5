/*
 * The time left of a measurement, learned as it goes (pure C, no MPI; docs/check.md, "How long
 * --full takes"). The engine reports each finished block and, after every batch, a cheap probe of
 * the machine's speed (mg_eta_probe: the wall time per CPU second of the most starved rank during
 * the batch, batch.c; a barrier's time was tried first and grew with the size of the call measured
 * before it, 500x at 4 MiB on a loaded node; the ratio is over the last ~2 s of batches, batch.c);
 * from them:
 *
 * - slower: the machine's speed now against its speed at the start (2: half as fast). The probe
 *   depends on the cell measured as much as on the machine (on one machine at one load, read against
 *   the first probes of a check, it rose each time the cells grew: issue 31), so each probe is read against its own cell (its class: collective
 *   and size): a class's base is the median of its first MG_ETA_BASE probes divided by the slowness
 *   when the class began, and a later probe of it says slower = probe / base; slower is the median of
 *   the last 9 such readings. A new cell thus carries the slowness on (its first probes read as the
 *   slowness it began at) and a change of cell alone never moves it; a machine that slows while a
 *   cell is measured raises it. The slowness is the median of the last 9 readings averaged in logs
 *   over about a minute (MG_ETA_TAU, weighted by the seconds each covers): a shared machine's load
 *   swings 2-3x within a minute, and the time left is better priced at the last minute's mean than
 *   at the last batches' value. A cell's class seen again (another reduction pair) keeps its base.
 *   The price: a slowdown that falls exactly between two cells is taken for the next cell's nature
 *   (the readings of the long cells, where time goes, catch a gradual one), the bases chain, so
 *   their errors add up over a check like a random walk, and a lasting slowdown shows fully after
 *   a minute or two.
 *   A block's cost is stored divided by the slowness during it, so costs are in seconds at the
 *   starting speed.
 * - the cost of a block not measured yet, per variant, as (seconds per value) x (values per variant):
 *   the number of values a block takes varies ~50x under the sequential stopping rule (seq.h: from
 *   20 per variant to the cap of ~1000, at any size), so the two are learned apart, per key (the
 *   collective) and size.
 *   - seconds per value: interpolated in log-log between the measured sizes of the same key (the
 *     collective; without any, of all keys); beyond them scaled by another key's shape that covers
 *     the size, else by the prior shape 1 + bytes / 8 KiB (a value of 8 KiB costs twice a tiny one).
 *   - values: at a measured size what it took; between two, the larger; beyond the largest
 *     measured size the mean of what every block measured so far took (of any key, each block once),
 *     no more than the cap (mg_eta_set_cap: max_nrep plus warm-ups). Under the stopping rule the
 *     values show no trend in size (a quiet `check --full`, 4 ranks of Open MPI: 25-1600 per variant
 *     at any size, 100-700 at 4-8 MiB), and the cap, assumed before, priced the first minute 2-5x high;
 *     the mean errs either way by what the cells left take more or less (benchmarks/eta_replay.sh:
 *     over 19 recorded launches the figures' mean |ln(estimate / truth)| fell from 0.79 to 0.35).
 *   Times the variants, times slower for the time it will take now.
 * - a previous launch (mg_eta_prior: `check --launches` gives launch K launch K-1's raw.csv,
 *   eta_raw.h): a block of a key and size it measured costs what it cost then, times the ratio of
 *   this launch's blocks done to the same blocks then, each sum with MG_ETA_PRIOR_S seconds added (a
 *   few small blocks do not swing it; a launch that is dearer throughout moves it once ~30 s of its
 *   blocks are done). At the same speed it is exact from the first second, before any block is done;
 *   what is left is the launch-to-launch variation of the values the stopping rule takes, which is
 *   large per cell (2-5x at 4-8 MiB) and ~25 % on a whole launch.
 *
 * At a constant speed the estimate grows when the cells left take more values than the cells so
 * far, or a size's time per value turns out dearer than the shape said (early, while few sizes are
 * known), and when the machine slows, which slower says. One estimator serves a whole check (its
 * groups of collectives run one after another, mg_bench_cfg.eta).
 */
#ifndef MG_BENCH_ETA_H
#define MG_BENCH_ETA_H

#define MG_ETA_KEYS 64  /* keys 0..MG_ETA_KEYS-2; the last slot pools every key */
#define MG_ETA_SIZES 64 /* distinct sizes remembered per key */
#define MG_ETA_PROBES 9 /* readings of the slowness: its median */
#define MG_ETA_TAU 60.0 /* seconds over which the slowness is averaged */
#define MG_ETA_BASE 5    /* probes of a class that make its base */
#define MG_ETA_CLASSES 256
#define MG_ETA_PRIORS 1024 /* cells of a previous launch remembered (mg_eta_prior) */
#define MG_ETA_PRIOR_S 30.0 /* seconds of blocks that move the ratio to a previous launch halfway */
#define MG_ETA_HAS_PRIOR 1 /* this estimator takes a previous launch (benchmarks/eta_replay.c) */

typedef struct mg_eta {
  int nsz[MG_ETA_KEYS];
  double bytes[MG_ETA_KEYS][MG_ETA_SIZES];
  double sum[MG_ETA_KEYS][MG_ETA_SIZES]; /* seconds per value at the starting speed, summed over blocks */
  double val[MG_ETA_KEYS][MG_ETA_SIZES]; /* values per variant, summed over blocks */
  int cnt[MG_ETA_KEYS][MG_ETA_SIZES];
  double cap;                            /* values per variant of a size not seen (0: unknown) */
  double last[MG_ETA_PROBES]; /* the last readings of the slowness */
  long nreadings;
  double lslow;                /* log of the slowness: the readings' medians averaged over MG_ETA_TAU */
  struct mg_eta_class {        /* a cell's probes (mg_eta_probe) */
    unsigned long long id;
    int n;                     /* probes seen (counted up to MG_ETA_BASE) */
    double first[MG_ETA_BASE];
    double s0, base;           /* the slowness when it began (the last readings' median, not the
                                  minute's average); its base (0 until n == MG_ETA_BASE) */
  } cls[MG_ETA_CLASSES];
  int ncls;
  struct mg_eta_prior { /* a previous launch's cells (mg_eta_prior) */
    int key, cnt;
    double bytes, seconds; /* seconds summed over its cnt blocks, at that launch's speed */
  } prior[MG_ETA_PRIORS];
  int nprior;
  double pr_now, pr_then; /* the cells with a prior done so far: their seconds now (at the starting
                             speed) and then */
} mg_eta;

void mg_eta_init(mg_eta *e);
/* A probe of the machine's speed (larger: slower; <= 0 ignored) while the cell `cls` was measured
 * (any id the caller gives one cell, e.g. collective and size: mg_eta_class), over `seconds`. */
void mg_eta_probe(mg_eta *e, double probe, unsigned long long cls, double seconds);
/* The class of a cell: its key (collective) and message size. */
unsigned long long mg_eta_class(int key, double bytes);
/* The machine's slowness now against the start (1 until probes say otherwise). */
double mg_eta_slower(const mg_eta *e);
/* The most values a variant of a block can take (warm-ups included; <= 0: no cap known). */
void mg_eta_set_cap(mg_eta *e, double values);
/* A finished block: key, size, variants measured, the values each took on average (warm-ups
 * included), its wall time and the slowness during it. */
void mg_eta_block(mg_eta *e, int key, double bytes, int nvar, double values, double seconds, double slower);
/* A block of a previous launch of the same check (`check --launches`: launch K-1's cells,
 * eta_raw.h): key, size and its wall time. A block of that key and size costs what it cost then,
 * scaled by mg_eta_prior_ratio. */
void mg_eta_prior(mg_eta *e, int key, double bytes, double seconds);
/* How much dearer this launch's blocks are than the same blocks of the previous launch at the
 * starting speed (1 until one is done). */
double mg_eta_prior_ratio(const mg_eta *e);
/* The predicted cost of a block at the starting speed, seconds; NAN before any block finished. */
double mg_eta_cost(const mg_eta *e, int key, double bytes, int nvar);

/* The predicted cost of a block under a time budget (start-speed seconds): what it would take
 * (mg_eta_cost), cut to `share` (the wall seconds the engine gives it, engine.c block_budget; <= 0:
 * no budget) at the slowness `slower`, but never below one batch: `floor_values` values per variant
 * (the engine's batch and warm-ups) at the learned seconds per value. A block out of budget still
 * measures one batch per variant, so a run over its budget costs the floor per block left, which the
 * uncut estimate priced 30x high (8 % read at 9 s of a verify that ended at 12 s). NAN as
 * mg_eta_cost. */
double mg_eta_cost_budget(const mg_eta *e, int key, double bytes, int nvar, double share, double slower,
                          double floor_values);

/* The time left of a run of several launches, as a progress line tells it (cmd_util.c): `elapsed`
 * seconds into this launch's measurement, a fraction `frac` of it done (the engine's, learned as
 * above), its time budget `budget` (0: none), launch `launch` of `launches` (0/0: a single run),
 * `startup` the seconds a launch spends before its measurement starts (start-up, MPI_Init: what
 * elapsed does not count; 0 if unknown).
 * - This launch: elapsed x (1 - frac) / frac, cut to what is left of the budget while some is left
 *   (the engine then shortens the blocks: a 3 s budget read 22 % at 2 s and ended at 3 s). Once the
 *   budget is spent the launch runs over it (every block still takes a batch per variant: launches
 *   ran 2-5x their budget, issue 49) and the estimate is no longer cut: before, it read "this launch
 *   0s" with two thirds to go. *over (may be NULL) = 1 then, or when the estimate ends past 1.1 x
 *   the budget.
 * - Each launch after it: this launch's whole projected time (elapsed + its time left) plus its
 *   start-up; before, the time this one had run so far.
 * Into *this_left (may be NULL) this launch's time left; returns the whole. NAN (both) while
 * frac <= 0.02 (nothing learned yet). */
double mg_eta_launches_left(double elapsed, double frac, double budget, int launch, int launches, double startup,
                            double *this_left, int *over);

#endif
