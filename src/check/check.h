/*
 * mgcheck: the analysis behind `mpiguide check` (docs/check.md). Pure C, no
 * MPI calls: it reads raw measurements (mpiguide's raw CSV, or the original
 * ReproMPI/PGChecker files data_<MPI_Coll>_<variant>.dat), compares the
 * default of every (collective, size) with each of its mock-ups
 * (src/stats: one-sided tests, Holm, bootstrap slowdown), and turns the
 * verdicts into tables (the PGChecker comparers), CSV, JSON and a summary
 * with a consistency score. The same code runs after a measurement and for
 * `check --from`, so both give the same verdicts for the same data.
 *
 * Ownership: mg_ck_data and mg_ck_result own everything they point to; free
 * them with mg_ck_data_free / mg_ck_result_free. Errors are returned as -1
 * with a message "file:line: what is wrong" in a caller-provided buffer;
 * nothing is printed here except by the functions that take a FILE *.
 */
#ifndef MG_CHECK_CHECK_H
#define MG_CHECK_CHECK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "registry/registry.h"
#include "stats/stats.h"

#define MG_CK_NAME 64    /* algorithm names and launch ids, with the terminating NUL */
#define MG_CK_RED 64     /* a reduction's "MPI_DOUBLE:MPI_SUM", with the terminating NUL */
#define MG_CK_ERR 1024   /* size of error buffers */

/* The pseudo mock-up of the A/A control (--aa): the default against itself. */
#define MG_CK_AA_NAME "default_aa"

/* ------------------------------------------------------------------------- */
/* Raw data                                                                   */

/* The `#@key=value` lines at the top of a raw file, in file order. */
typedef struct mg_ck_kv {
  char *key, *val; /* one allocation: val points into key's */
  long line;
} mg_ck_kv;

typedef struct mg_ck_meta {
  mg_ck_kv *v;
  int n, cap;
} mg_ck_meta;

/* The last value of key, or NULL. */
const char *mg_ck_meta_get(const mg_ck_meta *m, const char *key);
void mg_ck_meta_free(mg_ck_meta *m);
/* Only the metadata lines of a raw file (a raw CSV or a ReproMPI file), e.g. of the raw.csv next to
 * a verify.csv. 0, or -1 with a message (cannot open). */
int mg_ck_read_meta(const char *path, mg_ck_meta *m, char *err, size_t errlen);

/* One launch (one mpirun): where it came from and what it says about itself. */
typedef struct mg_ck_launch {
  char id[MG_CK_NAME];   /* the launch column / #@launch; else the file or directory name */
  char *source;          /* file it was read from */
  double sync_cost;      /* the noise threshold, s (< 0 unknown): the larger of #@sync_cost_sec (one
                            synchronisation) and #@sync_skew_sec (the spread of the exits from it) */
  double sync_skew;      /* #@sync_skew_sec, s; < 0 unknown */
  double noise_given;    /* #@noise_sec: the threshold the measuring check was given (--noise), s; 0: none */
  int nprocs;            /* #@nprocs or the nprocs column; 0 unknown */
  int nnodes;            /* #@nnodes; 0 unknown */
  char *mpi_name;        /* #@mpi_library_name ("" unknown) */
  char *mpi_version;     /* #@mpi_library_version */
  char *hostname, *date, *sync, *datatype, *command;
  int repro;             /* read from ReproMPI-format files */
  int has_seed;          /* written by `mpiguide check`: seed is the one its analysis used */
  uint32_t seed;
  mg_ck_meta meta;       /* every #@ line of the file that created the launch (timer, versions, ...) */
} mg_ck_launch;

/* The valid, non-warm-up runtimes of one algorithm of one collective at one
 * message size (for a reduction: with one datatype and op) in one launch, in the order measured. */
typedef struct mg_ck_series {
  mg_coll coll;
  char alg[MG_CK_NAME];  /* "default" or the mock-up's name */
  size_t bytes;
  char red[MG_CK_RED];   /* a reduction's datatype and op, "MPI_DOUBLE:MPI_SUM"; sendrecv measured in
                            pattern cart: its direction, "cart:d1+" (mg_ck_pair_of); "" otherwise or unknown */
  int launch;            /* index into mg_ck_data.launches */
  long n, cap;
  double *rt;            /* seconds */
  long *round;           /* round in the block (raw CSV) or repetition (ReproMPI): the A/A split */
  int *root;             /* the root of each measurement; -1: none or unknown */
  long rows;             /* measurement rows read, invalid ones included (truncation check) */
} mg_ck_series;

/* A variant the measurement did not produce data for, with the reason
 * (#@skipped= / #@failed= lines). */
typedef struct mg_ck_note {
  mg_coll coll;
  char alg[MG_CK_NAME];
  size_t bytes;
  char red[MG_CK_RED];
  int launch;
  char text[192];
} mg_ck_note;

typedef struct mg_ck_data {
  mg_ck_launch *launches;
  int nlaunches;
  mg_ck_series *series;
  int nseries, cap;
  mg_ck_note *notes;
  int nnotes, notecap;
  long invalid;          /* rows with valid = 0 (kept in the file, excluded here) */
  long warmup;           /* warm-up rows (excluded) */
  int last;              /* lookup cache */
  /* TGT 2010 eq. 4 (bench/pack.h): the series of a directory's pack.csv, in a data set of their own
   * (its launches those of the pack files), so that nothing that reads collectives sees them: their
   * coll is an mg_pack_op (pack, unpack), not a collective; red the datatype's spec; alg "default"
   * (one MPI_Pack / MPI_Unpack) or the constituents' variant. NULL: none read. */
  struct mg_ck_data *pack;
  /* The guideline OVL, overlap must not cost (check --overlap, overlap_verdicts.c): a directory's
   * overlap.csv (bench/ovl.h) as a data set of its own; per (collective, size) and test count k
   * (red "tests=K", MG_CK_OVL_KEY) the series "default" is t_overall(k) (MPI_I<coll>, the computation
   * with k MPI_Test calls, MPI_Wait) and MG_CK_OVL_ALG the blocking call + the computation (the same
   * measurements under every k). NULL: none read. */
  struct mg_ck_data *ovl;
} mg_ck_data;

/* Pattern cart's direction as a series and verdict key (red, which sendrecv has no other use for):
 * "cart:" and raw.csv's pair column, "cart:d1+". TGT 2010 eq. 37 is judged per direction: a
 * verdict per (size, direction), named in the summary. */
#define MG_CK_PAIR_PREFIX "cart:"
/* The direction of a series' or verdict's key ("d1+"), or NULL when it has none. */
static inline const char *mg_ck_pair_of(const char *red) {
  return strncmp(red, MG_CK_PAIR_PREFIX, sizeof MG_CK_PAIR_PREFIX - 1) ? NULL : red + sizeof MG_CK_PAIR_PREFIX - 1;
}
/* Whether a key's pair is pattern cartpair's neighbour pair of ranks ("0-2": that pair alone) rather
 * than pattern cart's direction ("d1+": every rank at once). */
static inline int mg_ck_pair_is_ranks(const char *pair) { return pair && pair[0] >= '0' && pair[0] <= '9'; }

void mg_ck_data_init(mg_ck_data *d);
void mg_ck_data_free(mg_ck_data *d);

/*
 * Read one source into d (launches accumulate, so several sources merge):
 *  - a directory: its raw.csv if there is one, else every data_<MPI_Coll>_<variant>.dat;
 *  - a file data_*.dat: one ReproMPI file;
 *  - any other file: a raw CSV (as written by `mpiguide bench` or `check`).
 * 0, or -1 with "path:line: message" in err. On error d keeps what earlier
 * sources added and nothing of this one.
 */
int mg_ck_read(mg_ck_data *d, const char *path, char *err, size_t errlen);
int mg_ck_read_csv(mg_ck_data *d, const char *path, char *err, size_t errlen);
/* A check's pack.csv (format mpiguide-check-pack/1, bench/pack.h) into d->pack (made when NULL);
 * read_dir reads DIR/pack.csv beside DIR/raw.csv. 0, or -1 with "path:line: message"; on error
 * d->pack keeps what it held. */
int mg_ck_read_pack_csv(mg_ck_data *d, const char *path, char *err, size_t errlen);
/* One ReproMPI file. launch_id: the launch it belongs to (NULL: #@launch, else the path). */
int mg_ck_read_repro(mg_ck_data *d, const char *path, const char *launch_id, char *err, size_t errlen);

/* Whether two launches ran different configurations: MPI library and version, process count,
 * nodes and ranks per node (unknown values do not conflict), calls in place or not, the
 * point-to-point pattern (a launch without one does not conflict). 0 when the
 * same, else 1 with both sides named in what. */
int mg_ck_config_diff(const mg_ck_launch *a, const mg_ck_launch *b, char *what, size_t len);
/* After all sources: the launches ran one configuration (mg_ck_config_diff). 0 or -1 with a message. */
int mg_ck_data_check(const mg_ck_data *d, char *err, size_t errlen);
/* Whether a launch measured every call in place (bench/check --in-place: #@in_place=1; a file
 * without the line: not in place). */
int mg_ck_launch_in_place(const mg_ck_launch *l);
/* How a launch measured its point-to-point operations (#@pattern: pingpong, exchange, onetoall;
 * bench.h MG_PATTERNS), or NULL when it measured none. Launches with different patterns are
 * different configurations (mg_ck_config_diff). */
const char *mg_ck_launch_pattern(const mg_ck_launch *l);

/* The series of (coll, alg, bytes, red, launch), or NULL; red NULL: the first with any. */
const mg_ck_series *mg_ck_find(const mg_ck_data *d, mg_coll coll, const char *alg, size_t bytes, const char *red,
                               int launch);

/* A reduction's pair as people write it: "MPI_DOUBLE:MPI_SUM" -> "double:sum" ("" stays ""). */
const char *mg_ck_red_short(const char *red, char *buf, size_t len);
/* The profile selectors (registry/datatype.h) of a pair "MPI_DOUBLE:MPI_SUM": its datatype class and
 * op, MG_TCLASS_NONE / MG_OPSEL_NONE for what has none (an unclassified type, "" for a collective
 * that reduces nothing). Returns 1 when red names a pair, else 0. */
int mg_ck_red_sel(const char *red, int *tclass, int *opsel);

/* ------------------------------------------------------------------------- */
/* Verdicts                                                                   */

/* The enums of this header's X(ENUM, name, description) lists, one generator per prefix. */
#define MG_CK_ENUM(E, n, d) MG_CK_##E,
#define MG_CK_REL_ENUM(E, n, d) MG_CK_REL_##E,
#define MG_CKC_ENUM(E, n, d) MG_CKC_##E,

#define MG_CK_TESTS(X)                                               \
  X(MWU, "mwu", "Wilcoxon rank-sum / Mann-Whitney U, one-sided")     \
  X(WELCH, "welch", "Welch's t-test, one-sided")                     \
  X(STUDENT, "student", "Student's pooled t-test, one-sided (PGChecker)")

typedef enum { MG_CK_TESTS(MG_CK_ENUM) MG_CK_NTESTS } mg_ck_test;

const char *mg_ck_test_name(mg_ck_test t);
const char *mg_ck_test_desc(mg_ck_test t);
int mg_ck_test_find(const char *name); /* -1 when unknown */

/*
 * What a comparison shows (docs/statistics.md), X(ENUM, name, meaning):
 * - violation: the default is significantly slower than the mock-up (the
 *   test, Holm-adjusted), its median is above the mock-up's in every launch
 *   and, for a rooted collective measured at several roots, at every root,
 *   the difference exceeds the synchronisation noise, and the slowdown's
 *   interval lies above 1 (with several launches the interval comes from a
 *   bootstrap over launches, so it covers launch-to-launch variation);
 * - consistent: the default is shown not slower than the mock-up beyond the
 *   margin: the slowdown interval's upper end is at most 1 + margin;
 * - inconclusive: neither, including every difference within the noise.
 */
#define MG_CK_OUTCOMES(X)                                                              \
  X(INCONCLUSIVE, "inconclusive", "neither a violation nor shown consistent")         \
  X(CONSISTENT, "consistent", "the default is not slower beyond the margin")          \
  X(VIOLATION, "violation", "the default is significantly and consistently slower")

typedef enum { MG_CK_OUTCOMES(MG_CK_ENUM) MG_CK_NOUTCOMES } mg_ck_outcome;

const char *mg_ck_outcome_name(mg_ck_outcome o);

typedef struct mg_ck_opts {
  mg_ck_test test;
  double alpha;          /* significance level, 0 < alpha < 1 */
  int holm;              /* adjust each interval's level for the comparisons of its family (A/A rows:
                            their own family), Bonferroni (mg_ck_decide); 0: for the looks only */
  double level;          /* coverage of the slowdown interval */
  size_t resamples;      /* bootstrap replicates */
  uint32_t seed;         /* bootstrap seed; each verdict derives its own from it */
  int aa;                /* add the A/A control: the default split by round parity */
  double noise;          /* > 0: use this as the synchronisation cost instead of the measured one */
  double margin;         /* consistent: slowdown interval's upper end <= 1 + margin */
  double min_span;       /* seconds the launches of a verdict must span to replicate it over time
                            (--min-span, MG_CK_MIN_SPAN): a shorter one is flagged S (short_span) */
} mg_ck_opts;

/* The default --min-span (docs/check.md, "Replication over time"): a minute, the scale on which a
 * plane-wave DFT run's library defaults were measured 25-30 % faster than during the check before
 * it (issue 51); launches that follow each other within seconds replicate nothing of that. */
#define MG_CK_MIN_SPAN 60.0
/* Fewer values than this on a side: no interval, the verdict inconclusive (a bootstrap of 2 or 3
 * values can have a spread of 0 and would make a point of its interval). */
#define MG_CK_MIN_VALUES 5
/* Seconds launch k (1..n) of `check --launches n` waits, `elapsed` seconds after launch 1 started,
 * so that launch k starts no sooner than (k-1)/(n-1) x min_span after it (0: no wait). */
double mg_ck_launch_wait(double elapsed, int k, int n, double min_span);

/* alpha 0.05, mwu, Holm on, 95 % interval, 1000 resamples, seed 1, no A/A, margin 0.05, min_span
 * MG_CK_MIN_SPAN. */
void mg_ck_opts_default(mg_ck_opts *o);

typedef enum { MG_CKV_OK, MG_CKV_SKIPPED, MG_CKV_ERROR } mg_ck_vstatus;

/* Flags of a verdict, as letters in tables. */
#define MG_CK_FLAG_VIOLATION 'V'    /* outcome violation */
#define MG_CK_FLAG_CONSISTENT 'C'   /* outcome consistent */
#define MG_CK_FLAG_INCONCLUSIVE '?' /* outcome inconclusive */
#define MG_CK_FLAG_NOISE '~'        /* |median difference| < one synchronisation */
#define MG_CK_FLAG_LAUNCHES 'L'     /* significant, but the default's median not above in every launch */
#define MG_CK_FLAG_ROOTS 'R'        /* significant, but the default's median not above at every root */
#define MG_CK_FLAG_MEASURE 'M'      /* measured only: the mock-up is no repair for this call (measure_only) */
#define MG_CK_FLAG_SPAN 'S'         /* a violation whose launches span less than --min-span (one launch: 0 s) */

typedef struct mg_ck_verdict {
  mg_coll coll;
  size_t bytes;
  char red[MG_CK_RED];   /* a reduction's datatype and op ("MPI_DOUBLE:MPI_SUM"); pattern cart's
                            direction ("cart:d1+", mg_ck_pair_of); "" otherwise */
  char alg[MG_CK_NAME];  /* the mock-up; MG_CK_AA_NAME for the A/A control; monotony: the algorithm
                            examined ("default" or a mock-up) */
  size_t bytes_next;     /* monotony only (mg_ck_result.mono): the larger size A(bytes) is compared
                            with, the fastest measured above bytes; 0 in the other verdicts */
  const char *guideline; /* "GL5"; "A/A" for the control; "MON" for monotony; "" unknown */
  int aa;
  mg_ck_vstatus status;
  char note[192];        /* why skipped / error; "measure only: ..." (measure_only); else empty */
  long n_def, n_mock;
  double med_def, med_mock, mean_def, mean_mock; /* seconds */
  double slowdown, lo, hi;                       /* median(def) / median(mock) and the decision's interval
                                                    (mg_ck_decide): each end at alpha / mult, on the scale
                                                    of the bootstrap (over launches when launches >= 2) */
  mg_stats_logspread spread; /* the bootstrap's law of log(slowdown) the interval reads: each end's scale
                            from the replicates' quantiles, their extremes (stats.h); NaN: no bootstrap */
  double mult;           /* the multiplicity the interval's level is adjusted for: comparisons x looks */
  double stat, crit;     /* U or t, and its critical value at the unadjusted alpha: the test reported
                            beside the decision (--test), not the decision */
  const char *method;    /* "exact", "exact-ties", "normal", "welch", "student" */
  double p;              /* the test's one-sided p (--test), unadjusted: reported, not the decision */
  double p_adj;          /* the decision's p: min(1, mult x Phi(-log(slowdown) / spread.down)), at least
                            mult x spread.reach when a replicate is <= 1; <= alpha
                            exactly when lo > 1 */
  int significant;       /* lo > 1 (p_adj <= alpha): the interval wholly above 1 */
  int launches;          /* launches in which both were measured */
  int launches_slower;   /* ... of which the default's median was above the mock-up's */
  int roots;             /* roots measured on both sides (rooted collectives; 0: no root in the data) */
  int roots_slower;      /* ... at which the default's median (over launches) was above the mock-up's */
  double root_worst;     /* the smallest per-root slowdown, median(def) / median(mock) at one root
                            (NaN with fewer than two roots): the gain at the least favourable root */
  double sync_cost;      /* seconds, the noise threshold used (< 0 unknown) */
  int noise;             /* |med_def - med_mock| < sync_cost */
  double span;           /* seconds between the starts (#@date) of the first and the last launch compared;
                            0 with one launch, NaN when a launch has no date */
  int short_span;        /* span < opts.min_span, or unknown: the verdict rests on one moment */
  int leaning;           /* significant, launches_slower == launches and roots_slower == roots: a
                            violation but for the noise or the interval (tune --include-inconclusive
                            takes these) */
  mg_ck_outcome outcome; /* what the comparison shows (MG_CK_OUTCOMES) */
  int measure_only;      /* the mock-up was measured outside a restriction that guards only its result's
                            bits (#@measure_only, mg_why_measurable): a verdict, never a tuning rule */
  int violation;         /* outcome == MG_CK_VIOLATION */
  int rel;               /* mg_ck_relation: what the comparison states (relation rows: mg_ck_result.rel) */
  int exact;             /* decided exactly (MG_CK_EXACT_METHOD, mg_ck_decide): every launch simulated
                            without computation (#@simulated=1; #@sim_options, where given, with
                            smpi/simulate-computation:no) and both sides' values identical at each
                            root, with at least 2 per root: the ratio of the times against the margin,
                            no test, no interval, no noise threshold (docs/statistics.md) */
  int exact_differ;      /* simulated without computation, but not exact: MG_CK_EXACT_DIFFER (a side's
                            repetitions at a root differed) or MG_CK_EXACT_FEW (a root measured once);
                            today's statistics, said so in the summary; 0 otherwise */
} mg_ck_verdict;

/* How far apart a side's repetitions at one root may be and still be one time for an exact verdict:
 * raw.csv's resolution (runtimes with 9 decimals, 1 ns; bench/csv.c) and its rounding. SMPI's times of
 * one cell differ by that step (81.021 and 81.022 us: bcast 64 KiB at 16 ranks), a simulated
 * computation's by microseconds. */
#define MG_CK_EXACT_TOL 1.5e-9
/* Why a comparison on a deterministic platform is not exact (mg_ck_verdict.exact_differ). */
#define MG_CK_EXACT_DIFFER 1
#define MG_CK_EXACT_FEW 2
/* A verdict's method (verdicts.csv's `method` column) when it is decided exactly (mg_ck_verdict.exact). */
#define MG_CK_EXACT_METHOD "exact (simulated)"

/*
 * What a verdict compares, X(ENUM, name in verdicts.csv's `relation` column, meaning). Every row of
 * mg_ck_result.v is MOCKUP; the other two are guidelines read off the same measurements as one
 * mock-up's row (mg_ck_relations), kept in mg_ck_result.rel so that nothing that picks repairs
 * (tables, the score, tune) ever sees them:
 * - MOCKUP: default(n) <= mock-up(n): the default significantly slower is a violation;
 * - REVERSE: mock-up(n) <= default(n), e.g. TGT 2010 eq. 5, Isend + Wait <= Send: the same test,
 *   interval, launch and root rules and noise threshold with the sides swapped (slowdown =
 *   median(mock-up) / median(default)), in the run's Holm family; a verdict only, never a repair
 *   (a non-blocking send cannot be replaced by a blocking one);
 * - EQUIV: default(n) ~ mock-up(n), e.g. eq. 7, Send ~ Isend + Wait: the two one-sided tests
 *   (mg_stats_equivalence) on [1 / hi(REVERSE), hi(MOCKUP)]: consistent (holds) when both
 *   directions are consistent, a violation when either is one, else inconclusive. Not a test of
 *   its own: it adds nothing to the Holm family.
 */
#define MG_CK_RELATIONS(X)                                                      \
  X(MOCKUP, "mockup", "the default not slower than the mock-up")               \
  X(REVERSE, "reverse", "the mock-up not slower than the default")             \
  X(EQUIV, "equivalence", "the default and the mock-up equal within the margin")

typedef enum { MG_CK_RELATIONS(MG_CK_REL_ENUM) MG_CK_NRELATIONS } mg_ck_relation;

const char *mg_ck_relation_name(int rel);

/* A mock-up row from whose measurements check also reads a reverse and an equivalence guideline:
 * its operation and name, and the two guidelines' ids and formulas. */
typedef struct mg_ck_relation_rows {
  mg_coll coll;
  const char *alg;
  const char *rev_guideline, *rev_formula, *rev_note;
  const char *eq_guideline, *eq_formula;
} mg_ck_relation_rows;

extern const mg_ck_relation_rows mg_ck_relations[];
extern const int mg_ck_nrelations;
/* The relation rows of (coll, alg), or NULL. */
const mg_ck_relation_rows *mg_ck_relation_of(mg_coll coll, const char *alg);

/*
 * Monotony (PGMPI, Hunold et al., Euro-Par 2016; TGT 2010 meta-rule II): a
 * message must not take longer than a larger one, A(n) <= A(n') for n <= n'.
 * For every algorithm measured (the default and each mock-up), reduction pair
 * and size n but the largest, one comparison of A(n) against A(n*), n* the
 * size above n with the smallest median (pooled over launches): the
 * "default" side of the verdict is A(n), the "mock-up" side A(n*), with the
 * same test, interval, launch and root rules and outcomes as the guideline
 * verdicts, Holm-adjusted as a family of their own. A violation is a
 * non-monotone cell: padding the message to n* would be faster (the
 * <coll>_as_padded rows are that repair). docs/check.md, "Monotony".
 */
#define MG_CK_MONO_GUIDELINE "MON"

typedef struct mg_ck_result {
  mg_ck_opts opts;
  mg_ck_verdict *v;      /* collective (registry order), size ascending, mock-up (registry order) */
  int n;
  int family;            /* comparisons in the Holm family (OK, not A/A) */
  int aa_family;
  mg_ck_verdict *mono;   /* monotony: collective, pair, algorithm (registry order), size ascending */
  int nmono;
  int mono_family;       /* monotony comparisons in their Holm family (OK) */
  int looks;             /* the looks a comparison's data may have stopped at: the stopping rule's
                            (#@stop_rule=decided) plus the end, else 1; part of each family's mult */
  mg_ck_verdict *rel;    /* relation rows (MG_CK_RELATIONS): per cell of a mg_ck_relations row, its
                            REVERSE then its EQUIV verdict, in the order of v; the REVERSE rows are
                            in the Holm family of v (counted in family), the EQUIV rows are not */
  int nrel;
  int rel_family;        /* ... of family: the REVERSE comparisons */
  /* The library's own algorithm variants (rows "lib:NAME", docs/libvar.md): the default against each,
   * with the same test, interval, launch and root rules and outcomes as a mock-up, Holm-adjusted as
   * a family of their own; never in v, the score, the tables or tune's guideline rules. */
  mg_ck_verdict *lib;    /* collective, size, pair, variant name */
  int nlib;
  int lib_family;
  struct mg_ck_kinds *kinds; /* per cell with a library variant: which kind wins (mg_ck_kinds_build) */
  int nkinds;
  /* TGT 2010 eq. 4 (d->pack): per operation (coll holds the mg_pack_op), datatype (red) and size, one
   * MPI_Pack / MPI_Unpack against the constituents one by one, with the same test, interval and
   * noise rules and outcomes, Holm-adjusted as a family of their own; measure only (there is no call
   * to repair): never in v, the score, the tables or tune (pack_summary.c). */
  mg_ck_verdict *pack;
  int npack;
  int pack_family;
  /* The guideline OVL (d->ovl): per collective, size and k, t_overall(k) against the blocking call +
   * the computation, with the same test, interval, launch and noise rules and outcomes, Holm-adjusted
   * as a family of their own; measure only (no repair libmpiguide can make): never in v, the score,
   * the tables or tune (overlap_verdicts.c). */
  mg_ck_verdict *ovl;
  int novl;
  int ovl_family;
} mg_ck_result;

/* Of the OK comparisons of r->v (the A/A control left out): how many were decided exactly, how many
 * were on a deterministic platform but decided by the statistics (not exact), and of those how many
 * because a root was measured once (few). */
void mg_ck_exact_counts(const mg_ck_result *r, int *total, int *exact, int *differ, int *few);
/* The summary's, the report's and tune's line on exact verdicts (docs/statistics.md), ending in a
 * newline; nothing when no comparison was on a deterministic platform. */
void mg_ck_print_exact(FILE *f, const mg_ck_result *r, const char *indent);

/* Whether an algorithm name is a library variant's ("lib:ring"). */
static inline int mg_ck_is_libvar(const char *alg) { return !strncmp(alg, "lib:", 4); }

/*
 * Which kind of contender wins a cell (docs/libvar.md), X(ENUM, name):
 * - MOCKUP / LIBVAR: that kind's best contender is a violation of the default (significantly and
 *   consistently faster, beyond the noise and the interval) and, when the other kind's best is one
 *   too, its slowdown interval lies wholly above the other's;
 * - DEFAULT: every comparison at the cell, mock-ups and library variants, is consistent;
 * - INCONCLUSIVE: anything else (both kinds win with overlapping intervals included).
 */
#define MG_CK_KINDS(X)                 \
  X(MOCKUP, "mock-up")                 \
  X(LIBVAR, "library variant")         \
  X(DEFAULT, "default")                \
  X(INCONCLUSIVE, "inconclusive")

typedef enum {
#define MG_X(E, n) MG_CK_WIN_##E,
  MG_CK_KINDS(MG_X)
#undef MG_X
      MG_CK_NKINDS
} mg_ck_kind;
const char *mg_ck_kind_name(mg_ck_kind k);
/* r->kinds from r->v and r->lib (after Holm). 0, or -1 out of memory. */
int mg_ck_kinds_build(mg_ck_result *r);

typedef struct mg_ck_kinds {
  mg_coll coll;
  size_t bytes;
  char red[MG_CK_RED];
  double med_def;        /* seconds */
  int mock, lib;         /* index into r->v / r->lib of the best (largest slowdown) OK contender of
                            each kind (mock-ups: repairs only, not measure-only); -1: none */
  mg_ck_kind winner;
} mg_ck_kinds;

/* Compute every verdict. 0, or -1 with a message (out of memory, no data). */
int mg_ck_analyze(const mg_ck_data *d, const mg_ck_opts *o, mg_ck_result *r, char *err, size_t errlen);
void mg_ck_result_free(mg_ck_result *r);

/* Whether two verdicts belong to one cell: collective, size and reduction pair. */
static inline int mg_ck_same_cell(const mg_ck_verdict *a, const mg_ck_verdict *b) {
  return a->coll == b->coll && a->bytes == b->bytes && !strcmp(a->red, b->red);
}
/* The index just past the cell of r->v[i] (verdicts are sorted by cell). */
int mg_ck_next_cell(const mg_ck_result *r, int i);

/* Whether a verdict failed because no valid measurement exists (a size that must not vanish). */
static inline int mg_ck_unmeasured(const mg_ck_verdict *v) {
  return v->status == MG_CKV_ERROR && !strncmp(v->note, "no valid measurements", 21);
}

/* A verdict's flags as a short string ("V", "VS", "V~", "~", "L", "VM", "" ...). buf >= 8. */
const char *mg_ck_flags(const mg_ck_verdict *v, char *buf);

/* The decision of one comparison, the one rule of check, verify, report and tune (docs/statistics.md,
 * "One decision per line"): from v's slowdown, spread, launches, roots and noise, with the family's
 * multiplicity mult (comparisons x looks), sets lo, hi (each end at one-sided alpha / mult), p_adj,
 * significant (lo > 1), leaning, outcome and violation. Fewer than MG_CK_MIN_VALUES values on a side,
 * or no bootstrap: no interval, inconclusive. */
void mg_ck_decide(mg_ck_verdict *v, double alpha, double mult, double margin);
/* The one-sided tail of each end of a verdict's interval, alpha / mult, as a coverage in percent of
 * the two-sided interval (for the tables' headers and legends: "99.99"). */
double mg_ck_level_pct(double alpha, double mult);
/* The multiplicity of r's main family (its comparisons, 1 without the adjustment, x r->looks). */
double mg_ck_result_mult(const struct mg_ck_result *r);

/* The replication over time of r's comparisons (docs/check.md, "Replication over time"): the
 * smallest and largest span of the OK comparisons (NaN: none, or a launch without a date), how many
 * violations rest on a short span (short_span), and the violations. */
typedef struct mg_ck_span_info {
  double min, max;
  int unknown;           /* comparisons whose launches have no date */
  int short_violations, violations;
} mg_ck_span_info;
void mg_ck_span_summary(const struct mg_ck_result *r, mg_ck_span_info *s);

/* One row of the grouped-violation comparer: a (collective, size) with at
 * least one comparison and the fastest mock-up with a violation there. */
typedef struct mg_ck_group {
  mg_coll coll;
  size_t bytes;
  const char *red;           /* the reduction pair (points into r) */
  long n_def;                /* the largest default sample of the comparisons */
  double med_def;            /* seconds: the best's default median, else the last compared */
  const mg_ck_verdict *best; /* the fastest violating mock-up (smallest median); NULL: none */
  int violations, comparisons;
} mg_ck_group;

/* The grouped rows of r in verdict order into *rows (the caller frees it;
 * best points into r). Returns the number of rows, or -1 (out of memory). */
int mg_ck_grouped(const mg_ck_result *r, mg_ck_group **rows);

/* ------------------------------------------------------------------------- */
/* Summary and consistency score                                              */

typedef struct mg_ck_coll_summary {
  int comparisons;       /* OK verdicts (not A/A) */
  int violations;        /* outcome violation */
  int consistent;        /* outcome consistent */
  int inconclusive;      /* outcome inconclusive */
  int noisy;             /* ... of them: the difference within one synchronisation */
  int cells;             /* sizes with at least one comparison */
  int cells_violated;    /* ... with a violation */
  int cells_judged;      /* ... with a violation, or with every comparison conclusive */
  int cells_unmeasured;  /* sizes where nothing was measured validly (counted in cells) */
  double score_sum;      /* over judged cells: 1 / worst violation's slowdown, 1 without one */
} mg_ck_coll_summary;

typedef struct mg_ck_summary {
  mg_ck_coll_summary per[MG_NCOLL], total;
  int skipped, errors;   /* verdicts not computed */
  int aa, aa_flagged;    /* A/A control: comparisons, violations */
  double score;          /* consistency score 0..100 over judged cells (NaN: none judged) */
  double clean_share;    /* share of judged cells without a violation, 0..1 */
  int noise_dominated;   /* most comparisons lie within the synchronisation noise */
} mg_ck_summary;

/*
 * Consistency score = 100 x mean over the judged cells (collective, size) of
 * 1 / s_cell, where s_cell is the largest slowdown among the cell's
 * violations (1 when there is none). A cell is judged when it has a
 * violation or when every one of its comparisons is conclusive; the others
 * are inconclusive and counted apart, never as clean. 100: no violation; a
 * 2x violation in every cell gives 50. docs/check.md.
 */
void mg_ck_summarize(const mg_ck_result *r, mg_ck_summary *s);

/* ------------------------------------------------------------------------- */
/* Point-to-point guidelines (p2p_summary.c)                                 */

/* What a user does about a violation of a point-to-point guideline. */
typedef enum {
  MG_CK_P2P_TUNE,   /* a repair: `mpiguide tune` writes the mock-up for the violated sizes */
  MG_CK_P2P_REPORT, /* a defect to report: measure only (eqs. 1, 8) or a verdict only (eq. 5) */
  MG_CK_P2P_SEE     /* an equivalence (eq. 7): its two directions say what to do */
} mg_ck_p2p_action;

/* One column of the point-to-point table: TGT 2010's equation and the verdict row that shows it. */
typedef struct mg_ck_p2p_col {
  const char *eq;   /* "1", "5", ... "11" */
  const char *head; /* column head: "1 (2)" (split in 2), "5", ... */
  mg_coll coll;
  const char *alg;  /* the mock-up row measured */
  int rel;          /* mg_ck_relation */
} mg_ck_p2p_col;

extern const mg_ck_p2p_col mg_ck_p2p_cols[];
extern const int mg_ck_np2p_cols;
/* The guideline as a formula ("Rsend(n) <= Send(n)"). */
const char *mg_ck_p2p_formula(const mg_ck_p2p_col *c);
mg_ck_p2p_action mg_ck_p2p_act(const mg_ck_p2p_col *c);
/* Column c's verdict at bytes (in r->v or r->rel), or NULL; where the size has several (pattern cart:
 * one per direction) the worst: a violation before inconclusive before consistent, then the larger
 * ratio. */
const mg_ck_verdict *mg_ck_p2p_find(const mg_ck_result *r, const mg_ck_p2p_col *c, size_t bytes);
/* The sizes (ascending, at most cap) with a verdict of some column; their number. */
int mg_ck_p2p_sizes(const mg_ck_result *r, size_t *out, int cap);
/* Whether r holds a point-to-point operation's verdicts (tables then say "operation"). */
int mg_ck_any_p2p(const mg_ck_result *r);
/* TGT 2010 eq. 37 as the paper states it at one size, over the per-pair verdicts of pattern cartpair
 * (sendrecv_as_cart_reorder's REVERSE rows keyed "cart:i-j"): MG_CK_CONSISTENT (holds) when at least
 * one pair is shown not slower reordered (witness: the first such pair), MG_CK_VIOLATION when every
 * pair's verdict is a violation, else MG_CK_INCONCLUSIVE; -1 when the size has no pair verdicts. */
int mg_ck_eq37_pairs(const mg_ck_result *r, size_t bytes, int *npairs, int *nviolated, const char **witness);
/* The summary's "point-to-point guidelines" section (nothing without their verdicts). */
void mg_ck_print_p2p(FILE *f, const mg_ck_result *r);

/* ------------------------------------------------------------------------- */
/* Comparers and output                                                       */

#define MG_CK_COMPARERS(X)                                                                       \
  X(RAW, "raw", "every valid measurement (runtime of each repetition)")                         \
  X(ABS, "abs-runtime", "median and mean runtime of every algorithm")                          \
  X(REL, "rel-runtime", "median runtime of every algorithm relative to the default's")         \
  X(VIOLATION, "violation", "one line per (collective, size, mock-up): slowdown and verdict")  \
  X(DETAILED, "detailed-violation", "every number of every verdict (means, statistic, p)")     \
  X(GROUPED, "grouped-violation", "per (collective, size) the fastest violating mock-up")

typedef enum { MG_CK_COMPARERS(MG_CKC_ENUM) MG_CK_NCOMPARERS } mg_ck_comparer;

const char *mg_ck_comparer_name(mg_ck_comparer c);
const char *mg_ck_comparer_desc(mg_ck_comparer c);
int mg_ck_comparer_find(const char *name); /* -1 when unknown; accepts _ for - */

typedef enum { MG_CK_TEXT, MG_CK_CSV, MG_CK_JSON } mg_ck_format;

/* Print a comparer's table. TEXT: one table per collective (merge: one table
 * with a collective column), at most 100 columns wide except for long
 * foreign names. CSV/JSON: one table, machine units (seconds). 0 or -1 (out
 * of memory). */
int mg_ck_print_comparer(FILE *f, mg_ck_comparer c, mg_ck_format fmt, int merge, const mg_ck_data *d,
                         const mg_ck_result *r);

/* The summary (text): settings, counts per collective, worst slowdowns,
 * consistency score, A/A control. */
void mg_ck_print_summary(FILE *f, const mg_ck_data *d, const mg_ck_result *r);
/* The summary's section on the library's variants (nothing without them; libvar_summary.c), and its files:
 * libvariants.csv (per cell: default, best mock-up, best library variant, the kind that wins) and
 * libverdicts.csv (verdicts.csv's format, one row per library variant and cell). */
void mg_ck_print_libvariants(FILE *f, const mg_ck_result *r);
void mg_ck_write_libvariants_csv(FILE *f, const mg_ck_data *d, const mg_ck_result *r);
void mg_ck_write_libverdicts_csv(FILE *f, const mg_ck_data *d, const mg_ck_result *r);

/* verdicts.csv and verdicts.json contents (formats in docs/check.md). */
void mg_ck_write_verdicts_csv(FILE *f, const mg_ck_data *d, const mg_ck_result *r);
void mg_ck_write_verdicts_json(FILE *f, const mg_ck_data *d, const mg_ck_result *r);
/* monotony.csv (format mpiguide-check-monotony/1, docs/check.md). */
void mg_ck_write_monotony_csv(FILE *f, const mg_ck_data *d, const mg_ck_result *r);

/*
 * Write DIR/verdicts.csv, DIR/verdicts.json, DIR/monotony.csv and DIR/summary.txt (summary and
 * grouped table), each under a temporary name renamed when complete. 0 or -1
 * with a message; on error the files already renamed stay.
 */
int mg_ck_write_results(const char *dir, const mg_ck_data *d, const mg_ck_result *r, char *err, size_t errlen);

/* Names of the files a check directory holds; NULL-terminated. */
extern const char *const mg_ck_result_files[];

/* The display label of a mock-up: "GL5 reduce_bcast" (long) or "GL5" (short). */
const char *mg_ck_label(mg_coll coll, const char *alg, int shortform, char *buf, size_t len);

/* The packing guideline (pack_summary.c, TGT 2010 eq. 4 and its Unpack twin): whether a result has
 * its verdicts, the summary's section and packverdicts.csv (verdicts.csv's columns, the collective
 * column naming pack or unpack). */
int mg_ck_any_pack(const mg_ck_result *r);
void mg_ck_print_pack(FILE *f, const mg_ck_result *r);
void mg_ck_write_packverdicts_csv(FILE *f, const mg_ck_data *d, const mg_ck_result *r);

/* Overlap must not cost (overlap_verdicts.c, check --overlap): the guideline's label and formula,
 * the key of a verdict's test count, the mock-up side's name; a directory's overlap.csv into d->ovl
 * (0, or -1 with "path:line: message"); whether a result has the verdicts, the summary's section,
 * overlapverdicts.csv (verdicts.csv's columns, the reduction column holding tests=K). */
#define MG_CK_OVL_GUIDELINE "OVL"
#define MG_CK_OVL_FORMULA "I<coll>(n) + compute(c) with k MPI_Test + Wait <= <Coll>(n) + compute(c)"
#define MG_CK_OVL_KEY "tests="
#define MG_CK_OVL_ALG "blocking_compute"
int mg_ck_read_overlap_csv(mg_ck_data *d, const char *path, char *err, size_t errlen);
int mg_ck_any_overlap(const mg_ck_result *r);
void mg_ck_print_overlap(FILE *f, const mg_ck_result *r);
void mg_ck_write_overlapverdicts_csv(FILE *f, const mg_ck_data *d, const mg_ck_result *r);

/* The renumbering guideline (rerank_summary.c, TGT 2010 eq. 36): whether a verdict is a rerank row's, whether
 * a result has any, and the summary's section. */
int mg_ck_is_rerank(const mg_ck_verdict *v);
int mg_ck_any_rerank(const mg_ck_result *r);
void mg_ck_print_rerank(FILE *f, const mg_ck_result *r);

#endif
