/*
 * The measurement engine: measures, in one launch, registered algorithms of
 * registered collectives (src/registry) for a list of message sizes, with a
 * choice of process synchronisation, timer and repetition control, and keeps
 * every single measurement. `mpiguide bench` is a thin front end to it; the
 * checker and the tuner use it the same way.
 *
 * One *block* is one (collective, message size). Its *variants* are the
 * selected algorithms that can run the call (mg_applicable with no scratch
 * cap); the others are kept as skipped series with the reason. Variants of a
 * block are measured in interleaved *rounds* (each pending variant once per
 * round, optionally in a shuffled order), so drift of the machine cannot
 * favour one of them. Rounds are grouped in *batches*; after each batch one
 * reduction over the ranks turns the per-rank times into latencies, which all
 * ranks then hold, so every rank takes the same repetition decisions.
 *
 * One measurement = the latency of one call reduced over the ranks:
 *   local:  max over ranks of (end - start) on each rank's own timer;
 *   global: max(end) - min(start) on the synchronised global clock.
 *
 * Everything here is collective over cfg->comm unless said otherwise, and
 * every rank must pass the same configuration.
 */
#ifndef MG_BENCH_BENCH_H
#define MG_BENCH_BENCH_H

#include <mpi.h>
#include <stddef.h>
#include <stdint.h>

#include "bench/libvar_mpit.h"
#include "bench/rep.h"
#include "bench/seq.h"
#include "registry/registry.h"

/* ---- names: synchronisation methods, time modes, timers, datatypes, ops ---- */

#define MG_SYNC_METHODS(X)                                                                    \
  X(BARRIER, "barrier", "MPI_Barrier before each measurement")                                \
  X(DBARRIER, "dbarrier", "two MPI_Barrier calls before each measurement")                    \
  X(DISSEM, "dissem", "mpiguide's own dissemination barrier (PMPI point-to-point)")           \
  X(WINDOW, "window", "start in fixed windows on the synchronised global clock")              \
  X(ROUNDTIME, "roundtime", "start on the global clock in slots sized from the previous batch")

typedef enum {
#define MG_X(E, n, d) MG_SYNC_##E,
  MG_SYNC_METHODS(MG_X)
#undef MG_X
      MG_NSYNC
} mg_sync_method;

typedef enum { MG_TIME_LOCAL, MG_TIME_GLOBAL } mg_time_mode;
typedef enum { MG_TIMER_MONOTONIC, MG_TIMER_WTIME } mg_timer_kind;

const char *mg_sync_name(mg_sync_method m);
const char *mg_sync_desc(mg_sync_method m);
int mg_sync_find(const char *name); /* -1 when unknown */
static inline int mg_sync_uses_clock(mg_sync_method m) {
  return m == MG_SYNC_WINDOW || m == MG_SYNC_ROUNDTIME;
}

/* Datatype category, for which ops apply (MPI standard, "predefined reduction operations"). */
enum { MG_DT_BYTE = 1, MG_DT_CHAR = 2, MG_DT_INT = 4, MG_DT_FLOAT = 8, MG_DT_FINT = 16, MG_DT_LOGICAL = 32,
       MG_DT_COMPLEX = 64 };

/* The kinds of datatype `--datatype` takes: a predefined one, or a derived one by spec (types.c). */
typedef enum { MG_DK_PREDEFINED, MG_DK_VECTOR, MG_DK_RESIZED, MG_DK_STRUCT } mg_dtype_kind;
#define MG_DT_MAX_MEMBERS 8

typedef struct mg_dtype_info {
  const char *name; /* "MPI_INT"; a derived one its canonical spec, "vector:2:4:MPI_DOUBLE" */
  MPI_Datatype type; /* predefined: the handle; derived: MPI_DATATYPE_NULL (the engine builds it) */
  int size;         /* bytes of data of one element */
  int category;     /* MG_DT_*; derived: its base type's, 0 for a struct of mixed types (no op) */
  int fortran;      /* a Fortran type: its size is the default kind's, checked by mg_dtype_build */
  /* derived only (0 / NULL for the predefined ones) */
  mg_dtype_kind kind;
  int extent;       /* bytes from one element to the next */
  int blocklen, stride;                       /* vector, in base elements */
  const struct mg_dtype_info *base;           /* vector, resized; struct: when all members are one type */
  int nmemb;                                  /* struct: members and their byte displacements */
  const struct mg_dtype_info *memb[MG_DT_MAX_MEMBERS];
  int disp[MG_DT_MAX_MEMBERS];
} mg_dtype_info;

/* Bytes from one element of d to the next (its size for a predefined type). */
static inline size_t mg_dtype_extent(const mg_dtype_info *d) { return (size_t)(d->extent ? d->extent : d->size); }

typedef struct mg_op_info {
  const char *name; /* "MPI_SUM" */
  MPI_Op op;
  int categories;   /* MG_DT_* it is defined for */
} mg_op_info;

/* Lookups by name, case-insensitive, with or without the "MPI_" prefix; NULL when unknown.
 * mg_dtype_list/mg_op_list: all names, space-separated (for messages). */
const mg_dtype_info *mg_dtype_find(const char *name);
const mg_op_info *mg_op_find(const char *name);
const char *mg_dtype_list(void);
/*
 * A datatype by `--datatype` spec: a predefined name (mg_dtype_find), or a derived one:
 *   vector:BLOCKLEN:STRIDE:BASE  BLOCKLEN BASE elements every STRIDE BASE extents (one element:
 *                                the vector resized to STRIDE extents, so elements follow on)
 *   resized:EXTENT:BASE          one BASE element every EXTENT bytes (a gap after each)
 *   struct:T1,T2,...             a C struct of those predefined types, natural alignment
 * BASE and T1.. are predefined names. The same spec gives the same pointer (a process-wide
 * table, never freed). NULL with a message in err when the spec is wrong. Calls no MPI.
 */
const mg_dtype_info *mg_dtype_parse(const char *spec, char *err, size_t errlen);
/* The grammar of mg_dtype_parse, one line, for messages and --help. */
#define MG_DTYPE_SPECS "vector:BLOCKLEN:STRIDE:BASE, resized:EXTENT:BASE, struct:T1,T2,..."
/* Build (and commit) the MPI datatype of d: for a predefined type its handle, which
 * mg_dtype_free leaves alone. An MPI error code. */
int mg_dtype_build(const mg_dtype_info *d, MPI_Datatype *out);
void mg_dtype_free(const mg_dtype_info *d, MPI_Datatype *t);
const char *mg_op_list(void);

/* ---- timers ---- */

typedef double (*mg_now_fn)(void);
mg_now_fn mg_timer_fn(mg_timer_kind k);
const char *mg_timer_name(mg_timer_kind k);   /* "clock_gettime(CLOCK_MONOTONIC)", "MPI_Wtime" */
double mg_timer_resolution(mg_timer_kind k);  /* declared: clock_getres / MPI_Wtick, seconds */
double mg_timer_granularity(mg_timer_kind k); /* measured: smallest non-zero step seen, seconds */

/* ---- configuration and results ---- */

typedef struct mg_bench_block mg_bench_block;

#define MG_BENCH_MAX_ROOTS 64
#define MG_BENCH_MAX_REDS 8

/* How a collective with per-rank counts (reduce_scatter's recvcounts) splits its vector of C
 * elements over p ranks, the same on every rank:
 * - UNIFORM: C/p each, the first C mod p ranks one more;
 * - ZEROS: the last `zeros` ranks get nothing, the others share C uniformly;
 * - SKEW: rank r's share is proportional to factor^u_r, u_r uniform in [0,1) from `seed`, so the
 *   largest share is at most `factor` times the smallest (largest remainders make the sum C). */
typedef enum { MG_COUNTS_UNIFORM, MG_COUNTS_ZEROS, MG_COUNTS_SKEW } mg_counts_kind;
typedef struct mg_bench_counts {
  mg_counts_kind kind;
  int zeros;
  double factor;
  uint64_t seed;
} mg_bench_counts;

/* Whether coll takes per-rank counts (split by mg_bench_counts). */
static inline int mg_bench_has_counts(mg_coll coll) {
  coll = mg_coll_base(coll); /* a non-blocking collective: its blocking twin's counts */
  return coll == MG_REDUCE_SCATTER || coll == MG_ALLGATHERV || coll == MG_GATHERV || coll == MG_SCATTERV ||
         coll == MG_ALLTOALLV || coll == MG_ALLTOALLW;
}

/* Split c elements over p ranks into out[p] (sum c). 0, or -1 when out of memory. */
int mg_bench_split(const mg_bench_counts *k, long c, int p, int *out);
/* "uniform", "zeros:K", "skew:F:SEED" into buf. */
void mg_bench_counts_name(const mg_bench_counts *k, char *buf, size_t len);

/*
 * How a point-to-point operation is measured (pattern.c; TGT 2010 §IV): X(ENUM, name, what one
 * measurement is). Messages of n bytes on the benchmark's communicator; a rank outside the pattern
 * only takes part in the synchronisation. The receiver of a row with a receive side
 * (mg_alg.recv_side: a split message) runs it; every other receive is MPI_Recv. A ready send's
 * receiver posts its receive and tells the sender with a zero-byte message before the send, for
 * every variant alike (part of the time). Sendrecv and sendrecv_replace exchange: pingpong is the
 * exchange of ranks 0 and 1.
 */
#define MG_PATTERNS(X)                                                                                  \
  X(PINGPONG, "pingpong", "a round trip between ranks 0 and 1: 0 sends with the variant, 1 receives, "  \
    "then 1 sends back with the variant and 0 receives")                                                \
  X(EXCHANGE, "exchange", "every pair (2i, 2i+1) exchanges at once: each rank posts MPI_Irecv, sends "   \
    "with the variant and waits (sendrecv: one call each); a rank without a pair is idle")              \
  X(ONETOALL, "onetoall", "rank 0 sends with the variant to ranks 1..p-1 in turn, each receives")          \
  X(CART, "cart", "sendrecv only: every rank exchanges with its neighbour in one direction of a periodic 2-D " \
    "Cartesian communicator of all ranks (MPI_Dims_create), the direction turning with the round (d0-, d0+, "  \
    "d1-, d1+); made without reordering (the topo family's row: with)")                                  \
  X(CARTPAIR, "cartpair", "sendrecv only: one neighbour pair of the periodic 2-D Cartesian communicator " \
    "exchanges alone, the other ranks idle, the pair turning with the round (i-j: ranks i and j); made "    \
    "without reordering (the topo family's row: with); TGT 2010 eq. 37 per neighbour pair")
typedef enum {
#define MG_X(E, n, d) MG_PATTERN_##E,
  MG_PATTERNS(MG_X)
#undef MG_X
      MG_NPATTERNS
} mg_pattern;
const char *mg_pattern_name(mg_pattern pt);
const char *mg_pattern_text(mg_pattern pt);
int mg_pattern_find(const char *name); /* -1: unknown */
/* Why row `alg` of point-to-point operation `op` cannot be measured in pattern pt on p processes,
 * or NULL when it can (the same on every rank). */
const char *mg_pattern_refuses(mg_coll op, int alg, mg_pattern pt, int p);
/* One measurement's calls on this rank: c is the operation's call prepared on the benchmark's
 * communicator (sbuf, rbuf, counts, datatypes; rank and size set), alg the row, round the block's
 * round (pattern cart: which direction, mg_pattern_pair). An MPI code. */
int mg_pattern_run(const mg_call *c, int alg, mg_pattern pt, long round);
/*
 * The neighbour pairs a measurement of pattern cart is made on, by round: round r exchanges along
 * direction r % 4 (dimension d = k / 2, towards the rank at displacement -1 for even k, +1 for odd),
 * every rank with its neighbour there at once. TGT 2010 eq. 37 is then judged per direction, not
 * on the whole exchange: a reordering that helps one dimension and hurts the other shows
 * (raw.csv's `pair` column, check's series key). "" for every other operation and pattern.
 */
#define MG_CART_DIRECTIONS 4
/*
 * Pattern cartpair, TGT 2010 eq. 37 as the paper states it, per neighbour pair: the grid is the
 * balanced factorisation of p into dims[0] >= dims[1] (what MPI_Dims_create gives for 2 dimensions),
 * periodic, ranks row-major; its neighbour pairs are every (i, j) one step apart along a dimension of
 * extent >= 2, once each (extent 2: one pair, not two), dimension 0 first, in rank order. Round r
 * exchanges pair r % npairs alone. Pure: the writer of raw.csv names the pairs without MPI.
 */
void mg_cart_dims(int p, int dims[2]);
/* The pairs into pairs[0..cap) (i < j); their number (at most 2p). */
int mg_cart_pairs(int p, int (*pairs)[2], int cap);
/* The series key of round `round` on p processes: pattern cart its direction ("d1+"), cartpair its
 * pair ("0-2", into buf of at least 24 bytes), "" for every other operation and pattern. */
const char *mg_pattern_pair(mg_pattern pt, mg_coll op, long round, int p, char *buf, size_t len);
/* Free what the patterns made for the run's communicator (the Cartesian ones): collective. */
void mg_pattern_free(void);
/* The communicator the neighbourhood collectives are measured on (docs/bench.md): a 2-D Cartesian
 * grid of MPI_Dims_create over comm's p ranks, without reordering, periodic in each dimension of
 * extent 3 or more and open in the others (a periodic extent of 1 or 2 makes one rank both
 * neighbours: two blocks for a peer, where the rows run the default), so 4 neighbours per rank,
 * MPI_PROC_NULL at open borders. Made at the first call for comm, kept until mg_pattern_free. */
#define MG_BENCH_NBR_DEGREE 4
int mg_bench_topo_comm(MPI_Comm comm, int p, MPI_Comm *out);

/* A reduction's datatype and op. */
typedef struct mg_bench_red {
  const mg_dtype_info *dtype;
  const mg_op_info *op;
} mg_bench_red;

struct mg_bench_result; /* below */
struct mg_eta;          /* eta.h */

/* Series of one block: the registry's algorithms and the library's own variants (libvar_mpit.h). */
#define MG_BENCH_MAX_SERIES (MG_MAX_ALGS + MG_LV_MAX)

typedef struct mg_bench_cfg {
  MPI_Comm comm;                /* the collectives run on it (normally MPI_COMM_WORLD) */
  int ncolls;
  mg_coll colls[MG_NCOLL];      /* in the order measured */
  unsigned algmask[MG_NCOLL];   /* bit a set: algorithm a of that collective is selected */
  const size_t *sizes;          /* message sizes in bytes (registry definition), ascending */
  int nsizes;
  const mg_dtype_info *dtype;   /* of every call; reductions: unless nreds > 0 */
  const mg_op_info *op;         /* reductions only, unless nreds > 0 */
  int root;                     /* rooted collectives, unless nroots > 0 */
  /* Rotating root: round r of a block of a rooted collective calls it with root roots[r % nroots]
   * (every variant of a round with the same root); 0: always `root`. */
  int nroots;
  int roots[MG_BENCH_MAX_ROOTS];
  /* Reductions measured with several (datatype, op) pairs: one block per size and pair, in this
   * order (a size that is not a multiple of the pair's datatype is left out); 0: dtype and op.
   * Not with MG_REP_PAPER (its one-element calibration is per collective). */
  int nreds;
  mg_bench_red reds[MG_BENCH_MAX_REDS];
  mg_bench_counts counts;       /* how a vector is split into per-rank counts (mg_bench_has_counts) */
  /* Every call in its in-place form (MPI_IN_PLACE: the send buffer; scatter(v): the root's receive
   * buffer; gather(v), reduce, scatter(v): at the root of each round only); bcast and barrier, which
   * have none, as usual. Without it the rows of the in-place family (the default itself for a
   * regular call) are skipped. */
  int in_place;
  mg_pattern pattern;           /* how point-to-point operations are measured (MG_PATTERNS) */
  /* The library's own algorithm variants measured beside the selected algorithms, as series with
   * alg = MG_LV_ALG0 + k (libvar_mpit.h); NULL: none. The run makes and frees what they need. */
  mg_lv_set *libvars;

  mg_sync_method sync;
  mg_time_mode time;
  mg_timer_kind timer;
  double window;                /* window/roundtime slot length, seconds; 0: from the warm-up */
  double window_factor;         /* auto slot = factor x largest median warm-up latency */
  double window_tol;            /* a start later than this after its slot start is missed, s;
                                   0: the clock's accuracy, at least 1 us */
  int clock_fits, clock_pingpongs; /* clock synchronisation effort (first sync; resyncs use a quarter) */

  mg_rep_cfg rep;
  /* The sequential stopping rule (seq.h; check's default, never bench's): with MG_REP_RSE a mock-up
   * also stops (MG_STOP_DECIDED) as soon as its comparison with the default (the series of alg 0 of
   * its block, measured in the same rounds) is decided, and the default once every other series of
   * its block stopped. Library variants are compared with the default but not judged: they keep
   * their own rule. seq.looks is set by the engine (mg_seq_looks of max_nrep and seq.min_n); seq.noise
   * 0: the run's own noise threshold, the larger of sync_cost and sync_skew. */
  int stop_decided;
  mg_seq_cfg seq;
  int warmup;                   /* warm-up rounds per block (excluded from statistics) */
  int batch;                    /* rounds between two reductions (decision points) */
  double time_total;            /* seconds for the whole run, 0: no limit */
  int shuffle;
  uint64_t seed;
  int sync_cost_reps;           /* barriers timed for the synchronisation cost */

  /* Called on every rank after a batch (for progress output): fraction done in [0,1],
   * elapsed seconds (equal on all ranks) and what is being measured. May be NULL. */
  void (*progress)(double fraction, double elapsed, const char *what, void *arg);
  void *arg;
  /* Called on every rank after each completed block, with the result so far (its last block is
   * complete): for saving measurements as they are taken. May be NULL. */
  void (*block_done)(const struct mg_bench_result *res, void *arg);
  /* The time left (eta.h) over several runs, as check's groups of collectives run one after another:
   * the estimator they share (NULL: the run's own, initialised by it), the start-speed seconds of the
   * runs after this one predicted from it (may be NULL; mg_bench_eta_cost of their cfgs, given
   * `share`: the wall seconds of the budget each block of this run gets now, 0 without a budget, the
   * same share for theirs, as time_total divided over the blocks left) with its argument, and the
   * wall seconds of the runs before. With a shared estimator the progress fraction is the whole's (0
   * until a block is done), not this run's. */
  struct mg_eta *eta;
  double (*eta_after)(const struct mg_eta *eta, double share, void *arg);
  void *eta_arg;
  double eta_elapsed_before;
} mg_bench_cfg;

typedef enum { MG_SERIES_OK, MG_SERIES_SKIPPED, MG_SERIES_FAILED } mg_series_status;

/* All measurements of one algorithm in one block, in the order taken:
 * first the warm-up measurements, then the others. */
typedef struct mg_bench_series {
  int alg;                      /* registry index; 0 = default; MG_LV_ALG0 + k: library variant k */
  mg_series_status status;
  char note[192];               /* why skipped or failed; "measure only: ..." when measure_only */
  int measure_only;             /* measured outside a restriction that guards only the result's bits
                                   (mg_why_measurable): a timing, not a repair */
  long n, cap;                  /* rows */
  double *lat;                  /* seconds */
  long *round, *rep;            /* round within the block; index among warm-ups or measurements */
  unsigned char *warmup, *valid;
  long nwarm, nvalid, ninvalid; /* measurements (not warm-up): valid and invalid */
  mg_stop stop;                 /* why measuring stopped */
  double rse;                   /* RSE of the chosen centre at the end (RSE/PAPER calibration) */
  double t1;                    /* PAPER: the one-element budget used for this series (0: none) */
} mg_bench_series;

struct mg_bench_block {
  mg_coll coll;
  size_t bytes;
  long count;
  const mg_dtype_info *dtype;   /* the datatype of its calls */
  const mg_op_info *op;         /* reductions: the op; NULL otherwise */
  int nseries;
  mg_bench_series series[MG_BENCH_MAX_SERIES];
  long rounds;                  /* rounds run, warm-up included */
  double window;                /* slot length used (window/roundtime; roundtime: the last), s */
  double elapsed;               /* wall time of the block, s */
  int budget_hit;               /* stopped by the total time budget */
};

typedef struct mg_bench_result {
  int nblocks;
  mg_bench_block *blocks;       /* collective-major, sizes ascending */
  double sync_cost, sync_cost_min; /* one barrier of the method (median, minimum), s */
  double sync_skew;             /* spread of the ranks' exits from it on a global clock (median), s */
  int clock_used;
  double clock_err;             /* sync accuracy: max |observed - model| offset over ranks and checks, s */
  double clock_rtt;             /* smallest ping-pong round trip seen, s */
  int clock_syncs;
  double elapsed;               /* wall time of mg_bench_run on this rank, s */
  long invalid;                 /* measurements that missed their window, all blocks */
  double t1[MG_NCOLL][MG_MAX_ALGS]; /* PAPER: one-element budgets, s (0: none) */
} mg_bench_result;

/*
 * Run the benchmark. Returns MPI_SUCCESS, or the MPI error code of a failing
 * engine call (not of an algorithm: a failing algorithm becomes a FAILED
 * series with a note and the run goes on). On return `res` owns its memory:
 * free it with mg_bench_result_free(). Sets MPI_ERRORS_RETURN on cfg->comm for
 * the duration of the run (an algorithm's error is then reported, not fatal).
 */
int mg_bench_run(const mg_bench_cfg *cfg, mg_bench_result *res);
/* Before MPI_Finalize: free the set-up mg_bench_run keeps with each communicator it ran on (its
 * synchronisation's duplicate, engine.c). */
void mg_bench_finalize(void);

/* The predicted cost of every block of a run at the starting speed, seconds, from the costs learned
 * so far (eta.h; NAN before any block is done); share > 0: each block given that many wall seconds of
 * a budget, so priced at most that and at least one batch (mg_eta_cost_budget). */
double mg_bench_eta_cost(const mg_bench_cfg *cfg, const struct mg_eta *eta, double share);

/* The expected work of a run, in the engine's own units: only shares mean something (the progress
 * of several runs of one command is weighted by it). */
double mg_bench_work(const mg_bench_cfg *cfg);
void mg_bench_result_free(mg_bench_result *res);

/* The root of round `round` of a block of coll; -1 for a collective without one. */
static inline int mg_bench_root(const mg_bench_cfg *cfg, mg_coll coll, long round) {
  if (!mg_colls[coll].rooted) return -1;
  return cfg->nroots > 0 ? cfg->roots[round % cfg->nroots] : cfg->root;
}

/* The (datatype, op) pairs a collective is measured with: 1 for all but reductions with nreds > 0. */
static inline int mg_bench_nreds(const mg_bench_cfg *cfg, mg_coll coll) {
  return mg_colls[coll].reduction && cfg->nreds > 0 ? cfg->nreds : 1;
}

/* Name of an algorithm as written in results: "default", the registry name, or a library
 * variant's label ("lib:ring"). */
static inline const char *mg_bench_alg_name(mg_coll coll, int alg) {
  return alg == 0 ? "default" : mg_lv_is(alg) ? mg_lv_label(coll, alg - MG_LV_ALG0) : mg_colls[coll].algs[alg].name;
}

/* ---- synchronisation primitives (sync.c), usable on their own ---- */

/* Dissemination barrier on PMPI point-to-point: ceil(log2 p) rounds of zero-byte
 * messages; no rank leaves before every rank has entered. Use a communicator
 * of its own (e.g. a duplicate) so its messages match nothing else. */
int mg_dissem_barrier(MPI_Comm comm);

/* ---- launch description (meta.c) ---- */

typedef struct mg_bench_meta {
  char launch[32];              /* equal on all ranks: rank 0's time and pid, hex */
  char hostname[256];           /* rank 0's */
  char date[40];                /* ISO 8601 UTC, at the start */
  char mpi_library[MPI_MAX_LIBRARY_VERSION_STRING]; /* MPI_Get_library_version, line breaks kept */
  char mpi_name[32];            /* "Open MPI", "MPICH", ... or "unknown" */
  char mpi_standard[16];        /* MPI_Get_version: "3.1" */
  int nprocs, nnodes, rpn_min, rpn_max; /* nodes: host names (algs/layout.h) */
  char hosts[1024]; /* the nodes as HOST:RANKS,... in the order of their lowest rank; "..." ends a
                       list that did not fit */
  char hosts_shared[1024]; /* "" or, when the host names contradict MPI_COMM_TYPE_SHARED (the layout
                              above then follows the names: algs/layout.h), the split's nodes */
  char cpu_model[128];          /* rank 0's processor ("model name" of /proc/cpuinfo), "" unknown */
  char launcher[64];            /* what started rank 0 (meta.c: mpirun, mpiexec, srun, ...), "" unknown */
  int simulated;       /* 1 under SimGrid's SMPI (meta.c): simulated time, never pooled with a real run */
  char sim_platform[256], sim_selector[32]; /* its platform file (base name) and smpi/coll-selector */
} mg_bench_meta;

int mg_bench_meta_collect(MPI_Comm comm, mg_bench_meta *m);

/* Under SMPI: the platform file (base name) and the selector (smpi/coll-selector, "default" when
 * not given) of this simulation, from smpimain's command line; "unknown" where it cannot be read.
 * Not collective: every simulated rank is a thread of the one process, so all see the same. */
void mg_bench_smpi_config(char *platform, size_t plen, char *selector, size_t slen);

/* Under SMPI: 1 when the simulation can run this job on comm's layout, else 0 with the reason in
 * why (sim_defects.c: layouts where SMPI's own MPI_Bcast or communicator creation dies under the
 * selector, whatever the program does). Collective over comm by point-to-point messages only (no
 * collective, no new communicator: those are what die), so call it before anything else; the same
 * answer on every rank. 1 in a build for a real MPI. */
int mg_bench_sim_runnable(MPI_Comm comm, char *why, size_t len);

#endif
