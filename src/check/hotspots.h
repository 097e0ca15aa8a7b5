/*
 * Communication hot spots (docs/hotspots.md): the timed trace of a run
 * (MPIGUIDE_TRACE_TIME=1, docs/trace.md) read back, its rows grouped
 * into hot spots - one call site (object file and offset) calling one
 * operation on one process count with one message size (and, for a
 * reduction, one datatype class and op) - and the smallest set of them that
 * covers a share of the run's MPI time (Guo et al.: N = 10, P = 80 %).
 *
 * Pure C, no MPI calls, no output: the command (src/cli/cmd_hotspots.c)
 * resolves file:line, joins verdicts and profiles and prints. Errors are -1
 * with "file:line: what" in a caller's buffer.
 */
#ifndef MG_CHECK_HOTSPOTS_H
#define MG_CHECK_HOTSPOTS_H

#include <stddef.h>

#include "registry/registry.h"

#define MG_HS_DEFAULT_N 10
#define MG_HS_DEFAULT_P 80.0
#define MG_HS_ALGS 8

/* What the reader takes (docs/trace.md): formats 1 to MG_HS_FORMAT, and each number in a range
 * beyond which it is surely not a trace's: process counts (#@nprocs, the nprocs and ranks
 * columns) 1 to MG_HS_NPROCS_MAX, a row's calls up to MG_HS_CALLS_MAX, bytes up to
 * MG_HS_BYTES_MAX, times (the time columns, #@wall_s) finite from 0 to MG_HS_SECONDS_MAX. */
#define MG_HS_FORMAT 4
#define MG_HS_NPROCS_MAX (1 << 24)
#define MG_HS_CALLS_MAX 1000000000000000ull /* 1e15 */
#define MG_HS_BYTES_MAX (1ull << 53)
#define MG_HS_SECONDS_MAX 1e12

/* One hot spot: the trace's rows of one (site, operation, nprocs, size, reduction) summed over
 * algorithms and fallback reasons. Times are per rank: the sum over ranks / the run's processes. */
typedef struct mg_hs_spot {
  int obj;                 /* index into mg_hs_trace.objs; -1: no object known */
  unsigned long long offset; /* the return address's offset in the object (docs/trace.md) */
  char sym[128];           /* the trace's dynamic symbol, "" none */
  mg_coll coll;
  int nprocs;
  size_t bytes;
  char red[48];            /* "float:sum" for a reduction (class:op), "" otherwise */
  char algs[96];           /* the algorithms that ran, "default" or "a+b" */
  long calls;              /* per rank (the trace's calls: maximum over ranks), summed over rows */
  double time;             /* seconds per rank in the calls */
  long alg_calls[MG_HS_ALGS];  /* calls and time of the k-th algorithm named in algs (the first */
  double alg_time[MG_HS_ALGS]; /* MG_HS_ALGS of them; calls and time include them all) */
  double wait;             /* seconds per rank waiting for the slowest (barrier-free estimate) */
} mg_hs_spot;

/* The classes of format 4's `class` column, in the order of src/lib/mpi_functions.txt's header
 * (docs/trace.md): "tuned" first, the operations mpiguide checks and tunes (the spots above). */
#define MG_HS_CLASSES(X)                                                                                      \
  X(tuned) X(init) X(completion) X(collective) X(p2p) X(probe) X(comm) X(rma) X(io) X(datatype) X(tool) X(other)
#define MG_HS_CLASS_ENUM(c) MG_HS_CLASS_##c,
enum { MG_HS_CLASSES(MG_HS_CLASS_ENUM) MG_HS_NCLASS };
#undef MG_HS_CLASS_ENUM
extern const char *const mg_hs_class_names[MG_HS_NCLASS];

/* One row of a format-4 trace for an MPI function mpiguide does not tune (class not "tuned"),
 * summed per (site, function, nprocs, bytes, post): its time, and for a completion's share of the
 * requests it was given, the function and site that posted them. */
typedef struct mg_hs_other {
  char fn[48];             /* MPI_Waitall */
  int cls;                 /* MG_HS_CLASS_* */
  int obj;                 /* as mg_hs_spot's */
  unsigned long long offset;
  char sym[128];
  int nprocs;              /* 0: no communicator */
  size_t bytes;
  long calls;              /* per rank, maximum over ranks; for a completion's share: the requests */
  double time, wait;       /* seconds per rank */
  char post_fn[48];        /* the posting function, "" none or unknown */
  int post_obj;            /* -1 none */
  unsigned long long post_offset;
  char post_sym[128];
} mg_hs_other;

typedef struct mg_hs_trace {
  int version;             /* #@mpiguide_trace: 1 to MG_HS_FORMAT */
  int timed;               /* #@timed=1 */
  int nprocs;              /* #@nprocs; 0: not given (an untimed trace may lack it) */
  double wall;             /* #@wall_s, seconds; < 0 unknown */
  char mpi[256];           /* #@mpi_library */
  char **objs;             /* object paths */
  int nobjs;
  mg_hs_spot *spots;       /* in file order of first appearance */
  int n;
  double mpi_time;         /* the run's time per rank in the operations mpiguide tunes (all spots) */
  mg_hs_other *others;     /* format 4: every other MPI function's rows, in file order */
  int nothers;
  double class_time[MG_HS_NCLASS]; /* seconds per rank by class ([MG_HS_CLASS_tuned] = mpi_time) */
  double all_time;         /* the sum of class_time: all the MPI time the trace saw */
} mg_hs_trace;

/* Read a trace file (format 1 to 4). 0, or -1 with "file:line: what" (t then holds nothing:
 * what was read is freed). An untimed trace (timed = 0) gives one spot per (operation, nprocs,
 * size) without a site (obj -1, offset 0), reduction, time or wait: its calls alone, for the cost
 * model to price (`hotspots --loggp`); the caller decides whether it can use it. Refused: a
 * number out of its range, metadata after the column line (but the trailer), and a file that
 * looks cut (a last line without a line break; in format 3 no trailer #@trace_rows=N or a count
 * the rows do not match). */
int mg_hs_read(const char *path, mg_hs_trace *t, char *err, size_t errlen);
/* The same from the len bytes at text (a file read whole, e.g. on rank 0 and broadcast); path
 * names it in messages. */
int mg_hs_read_mem(const char *text, size_t len, const char *path, mg_hs_trace *t, char *err, size_t errlen);
void mg_hs_free(mg_hs_trace *t);

/*
 * The smallest set of hot spots covering p % of total: order[] receives the indexes of time[0..n)
 * by decreasing time (ties: lower index first, so the order is the file's), and the return value
 * k is the smallest count whose times sum to at least p % of total, capped at nmax. *reached: 1
 * when those k cover p %, 0 when the cap (or the spots running out) stopped it first. total: the
 * whole to cover (<= 0: the sum of time[]).
 */
int mg_hs_select(const double *time, int n, double total, double p, int nmax, int *order, int *reached);

/*
 * The predicted saving, seconds per rank, of running algorithm `chosen` at spot s, from the
 * medians of one call of the default (med_def) and of chosen (med_chosen) measured by a check
 * (docs/hotspots.md): over the spot's calls that did not run chosen already (calls c, time T),
 *     min(c x (med_def - med_chosen), T x (1 - med_chosen / med_def)):
 * the check's difference per call, bounded by the same share of the time the spot spent. The
 * check measured isolated calls after a barrier; the application's calls may be cheaper, and a
 * saving larger than the time spent is no saving at all. Never more than T (negative: a loss).
 * NaN when med_def is not > 0 or a median is not finite.
 */
double mg_hs_saving(const mg_hs_spot *s, const char *chosen, double med_def, double med_chosen);

#endif
