/*
 * Overlap of a non-blocking collective with computation (pure C, no MPI): the rows of
 * `mpiguide bench --overlap` (overlap_run.h measures them), their file format, and the arithmetic
 * that turns them into overlap percentages and the best number of MPI_Test calls. The report
 * reads the file with the same column list and summarises it with the same functions.
 *
 * The method of the OSU micro-benchmarks' non-blocking collective tests and of IMB-NBC, per
 * (collective, message size), every time the max over ranks of each rank's local duration:
 *   t_pure     MPI_I<coll>; MPI_Wait                    (no computation)
 *   t_cpu      the computation alone: a busy loop calibrated to last about t_pure
 *   t_overall  MPI_I<coll>; the computation with k MPI_Test calls spread evenly through it; MPI_Wait
 *   t_blocking MPI_<Coll> (blocking, the library's own); the same computation: the right side of the
 *              guideline "overlap must not cost" (OVL), t_overall(k) <= t_blocking, which check
 *              --overlap judges (src/check/overlap_verdicts.c)
 *   overlap(k) = 100 (1 - (t_overall(k) - t_cpu) / t_pure), clipped to [0, 100]
 * from the medians of each variant. 100 %: the communication hid entirely behind the
 * computation; 0 %: none of it did (the collective progressed only in MPI_Wait).
 *
 * The best test count: the smallest k whose overlap is within the noise of the largest one.
 * Noise: each overlap's 95 % interval, from the distribution-free confidence interval of the
 * median of t_overall(k) (order statistics n/2 -+ 0.98 sqrt(n), as sample.h), mapped through the
 * formula; k is within the noise of the maximum when its interval reaches the maximum's, or when
 * it is less than MG_OVL_MARGIN percentage points below it. Fewer tests cost less and disturb the
 * computation less, so the smallest one that gets the progress is the one to use.
 */
#ifndef MG_BENCH_OVL_H
#define MG_BENCH_OVL_H

#include <stddef.h>
#include <stdio.h>

/* The most test counts one run sweeps. */
#define MG_OVL_MAXK 32
/* Percentage points of overlap counted as noise whatever the intervals say. */
#define MG_OVL_MARGIN 2.0
/* The default sweep of MPI_Test calls during the computation. */
#define MG_OVL_DEFAULT_TESTS "0,1,2,4,8,16,64"
/* The raw file's format tag (#@format). */
#define MG_OVL_FORMAT "mpiguide-bench-overlap/3"
/* /3 is /2 with the variant blocking (issue 48: the guideline OVL, check --overlap); /2 is /1 with a
 * last line #@overlap_rows=N, the rows the file holds, so that a file cut at a line break is refused;
 * /2 and /1 files still read (in /1 only a line cut in its middle is seen). */
#define MG_OVL_FORMAT_V2 "mpiguide-bench-overlap/2"
#define MG_OVL_FORMAT_V1 "mpiguide-bench-overlap/1"
#define MG_OVL_ROWS_KEY "overlap_rows"

/* The variants of one (collective, size): X(ENUM, name in the file, what one measurement is). */
#define MG_OVL_VARIANTS(X)                                                                            \
  X(PURE, "pure", "MPI_I<coll> then MPI_Wait, no computation")                                        \
  X(CPU, "cpu", "the calibrated computation alone")                                                   \
  X(OVERALL, "overall", "MPI_I<coll>, the computation with `tests` MPI_Test calls spread evenly, MPI_Wait")   \
  X(BLOCKING, "blocking", "the blocking MPI_<Coll> (the library's own), then the same computation")

typedef enum {
#define MG_X(E, n, d) MG_OVL_##E,
  MG_OVL_VARIANTS(MG_X)
#undef MG_X
      MG_OVL_NVARIANTS
} mg_ovl_variant;

const char *mg_ovl_variant_name(int v); /* "pure", "cpu", "overall"; "?" */
int mg_ovl_variant_find(const char *name); /* -1: unknown */

/* One measurement: seconds, the max over ranks of each rank's local duration. */
typedef struct mg_ovl_row {
  int variant;   /* mg_ovl_variant */
  int tests;     /* overall: the MPI_Test calls k; -1 for pure and cpu */
  long round, rep; /* round within the cell (rounds interleave the variants); index within the variant */
  int warmup, valid;
  double sec;
} mg_ovl_row;

/* One (collective, size) with its rows in the order taken. */
typedef struct mg_ovl_cell {
  char coll[48];
  char dtype[64], op[32]; /* op "" for a collective that reduces nothing */
  int root;               /* -1: none */
  size_t bytes;
  long count;
  int nprocs;
  long iters;             /* busy-loop iterations of the computation, the same on every rank */
  int failed;             /* a call returned an MPI error: note says what; rows may be partial */
  char note[192];
  mg_ovl_row *rows;
  long n, cap;
} mg_ovl_cell;

/* Append a row; 0, or -1 when out of memory. */
int mg_ovl_push(mg_ovl_cell *c, const mg_ovl_row *r);
void mg_ovl_cell_free(mg_ovl_cell *c);

/* overlap % from the three times (seconds): 100 (1 - (t_overall - t_cpu) / t_pure) clipped to
 * [0, 100]; NaN when t_pure <= 0 or a time is not finite. */
double mg_ovl_pct(double t_pure, double t_cpu, double t_overall);

/* The index of the best test count among nk, given in ascending order of k with each overlap ov[i]
 * and its interval [lo[i], hi[i]] (NaN entries are skipped): the smallest k within the noise of the
 * largest overlap (above). -1 when no entry is finite. */
int mg_ovl_best(const double *ov, const double *lo, const double *hi, int nk);

/* The summary of one cell: medians of the valid measurements (warm-up excluded). */
typedef struct mg_ovl_sum {
  double t_pure, t_cpu; /* s; NaN: none */
  long n_pure, n_cpu;
  double t_blocking;    /* the blocking call + the computation, s; NaN: not measured (a /1 or /2 file) */
  long n_blocking;
  int nk;               /* test counts measured, ascending */
  int k[MG_OVL_MAXK];
  long n[MG_OVL_MAXK];
  double t_overall[MG_OVL_MAXK], ov[MG_OVL_MAXK], lo[MG_OVL_MAXK], hi[MG_OVL_MAXK];
  int best;             /* index into k[], -1: none */
  int kmax;             /* index of the largest overlap, -1: none */
} mg_ovl_sum;

/* Summarise c's rows. 0, or -1 when out of memory. */
int mg_ovl_summarise(const mg_ovl_cell *c, mg_ovl_sum *s);

/*
 * The raw file (docs/bench.md, "Overlap"): the #@ lines of a bench run with
 * #@format=mpiguide-bench-overlap/2, then this header, one row per measurement and the line
 * #@overlap_rows=N (not in /1). The writer
 * and the reader both come from this list (r: the mg_ovl_row *, c: the mg_ovl_cell *, launch).
 */
#define MG_OVL_COLUMNS(X)                                                          \
  X(COLL, "collective", mg_csv_str(f, c->coll))                                    \
  X(VARIANT, "variant", fputs(mg_ovl_variant_name(r->variant), f))                 \
  X(TESTS, "tests", r->tests >= 0 ? fprintf(f, "%d", r->tests) : 0)                \
  X(BYTES, "bytes", fprintf(f, "%zu", c->bytes))                                   \
  X(COUNT, "count", fprintf(f, "%ld", c->count))                                   \
  X(DTYPE, "datatype", mg_csv_str(f, c->dtype))                                    \
  X(OP, "op", mg_csv_str(f, c->op))                                                \
  X(ROOT, "root", c->root >= 0 ? fprintf(f, "%d", c->root) : 0)                    \
  X(NPROCS, "nprocs", fprintf(f, "%d", c->nprocs))                                 \
  X(LAUNCH, "launch", fputs(launch, f))                                            \
  X(ITERS, "iters", fprintf(f, "%ld", r->variant == MG_OVL_PURE ? 0L : c->iters))  \
  X(ROUND, "round", fprintf(f, "%ld", r->round))                                   \
  X(REP, "rep", fprintf(f, "%ld", r->rep))                                         \
  X(WARMUP, "warmup", fprintf(f, "%d", r->warmup))                                 \
  X(RUNTIME, "runtime_sec", fprintf(f, "%.9f", r->sec))                            \
  X(VALID, "valid", fprintf(f, "%d", r->valid))

typedef enum {
#define MG_X(E, name, write) MG_OVC_##E,
  MG_OVL_COLUMNS(MG_X)
#undef MG_X
      MG_OVC_N
} mg_ovl_col;

/* The header line and the rows of the cells (in order). Returns the number of rows. */
long mg_ovl_write_rows(FILE *f, const mg_ovl_cell *cells, int ncells, const char *launch);

/* A file read back: its #@ lines (key, value) and its cells in file order. */
typedef struct mg_ovl_file {
  char path[1024];
  int nmeta;
  char (*key)[64];
  char **val;
  mg_ovl_cell *cells;
  int ncells;
} mg_ovl_file;

/* Read an overlap file. 0, or -1 with "FILE:LINE: what is wrong" (f then holds nothing). */
int mg_ovl_read(const char *path, mg_ovl_file *f, char *err, size_t errlen);
/* The value of #@key (the first), or NULL. */
const char *mg_ovl_meta(const mg_ovl_file *f, const char *key);
void mg_ovl_file_free(mg_ovl_file *f);

#endif
