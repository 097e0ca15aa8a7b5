/*
 * Helpers every subcommand of the mpiguide command shares (curl's tool_helpers
 * idea): starting and ending MPI, the agreement of the ranks on their
 * arguments, the result directory, the progress line, merging engine runs
 * into one raw.csv, the quoted command line, collective lists. Messages go
 * into caller buffers (MG_ERR) or, where a function says so, to stderr as
 * "mpiguide <cmd>: ...".
 */
#ifndef MG_CLI_CMD_UTIL_H
#define MG_CLI_CMD_UTIL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/bench.h"

/* --min-span T (check, check --launches, tune): a duration from 0 (none) to a day; 0, or -1 with a
 * message in e. */
int mg_cmd_min_span(const char *v, double *out, char *e, size_t elen);

/* ---------- MPI ---------- */

/* MPI_Init (unless initialised), rank and size of MPI_COMM_WORLD, mg_core_init and the launch's
 * metadata. 0, or 1 when MPI_Init failed (message printed); aborts the run when a later step fails. */
int mg_cmd_mpi_start(const char *cmd, int *rank, int *size, mg_bench_meta *meta);
/* Whether this process was started by an MPI launcher (any rank). */
int mg_cmd_under_launcher(void);
/* Run argv (a launcher and its command) with stdout to `log`, waiting for it: the exit status as a
 * shell reports it (128 + signal), -1 when it cannot start. Commands that launch MPI runs themselves
 * (check --launches, verify --lib-settings) use it without MPI of their own. */
int mg_cmd_run_child(char **argv, const char *log);
/* The same, for a launch whose results are saved before its processes end: once done(arg) holds,
 * the child has `grace` seconds left to exit; then it is stopped (SIGTERM, which a launcher passes
 * on to its processes; SIGKILL 10 s later), *stopped is set and 0 returned. A launcher that never
 * returns after its work is saved (MPICH 4.0.2 + UCX over TCP can hang in MPI_Finalize,
 * docs/cluster.md) then costs `grace` seconds, not the job. */
int mg_cmd_run_child_until(char **argv, const char *log, int (*done)(void *), void *arg, double grace,
                           int *stopped);
/* Before mg_cmd_mpi_start of a command that takes --lib-variants: when argv has it, set
 * OMPI_MCA_coll_tuned_use_dynamic_rules=1 unless the environment sets it (Open MPI's coll/tuned
 * reads forced algorithms only with it, fixed at MPI_Init; the default's decision is the same
 * with it, no rules file being given: docs/libvar.md). Harmless for other libraries. */
void mg_cmd_libvar_env(int argc, char **argv);
/* --lib-variants SPEC for the collectives colls[0..ncolls): the running library's variants into *lib
 * (discovered once, set as the process's library for labels), the chosen ones into *set and
 * cfg->libvars = set. 0, or -1 with a message naming the bad name and the valid ones. */
int mg_cmd_lib_variants(const char *spec, const mg_coll *colls, int ncolls, mg_bench_cfg *cfg, mg_lv_lib *lib,
                   mg_lv_set *set, char *err, size_t errlen);
/* Seconds MPI_Finalize has to return once a command's work is done (MPICH 4.0.2 + UCX over TCP
 * can hang in it, docs/cluster.md): mg_cmd_mpi_end_status's watchdog, and what check --launches
 * gives a launcher to exit after its launch's results (its own watchdog first). */
#define MG_CMD_FINALIZE_GRACE 20.0
/* MG_CMD_FINALIZE_GRACE, or MPIGUIDE_FINALIZE_GRACE=SECONDS (0.1 to 86400; another value: ignored). */
double mg_cmd_finalize_grace(void);
/* mg_core_finalize and MPI_Finalize on every rank, watched: when MPI_Finalize has not returned
 * mg_cmd_finalize_grace() seconds later, rank 0 says so in one line ("mpiguide CMD: MPI_Finalize
 * has not returned ... after the results were written (SAVED) ..."; without SAVED, NULL: nothing
 * written, no promise) and every rank ends with exit status `status` (_exit; stdout and stderr are
 * flushed before MPI_Finalize). Call it after the results are written and with the status the
 * command returns. */
void mg_cmd_mpi_end_status(const char *cmd, int status, const char *saved);
/* mg_cmd_mpi_end_status(NULL, 1, NULL): a hang ends the run with exit status 1. */
void mg_cmd_mpi_end(void);
/* MPI_Barrier on MPI_COMM_WORLD whose waiting ranks sleep between tests (2 ms) instead of spinning
 * in the library (MPICH polls while it waits): the ranks wait for rank 0's work without MPI (check's
 * analysis) and leave it the processors. An MPI error code. */
int mg_cmd_quiet_barrier(void);

/* The rank of this process in an mpirun that the command does not need MPI for (offline modes
 * and --help print on rank 0 only, without MPI_Init), from the launcher's environment; 0 when
 * not started by mpirun. */
int mg_cmd_launched_rank(void);

/*
 * The ranks agree before anything runs (one MPI_Allreduce on MPI_COMM_WORLD): every rank found
 * its arguments good (failed == 0) and holds the same hash (of its command line or its input
 * files). 0 when they agree; else 2, after the lowest failing rank printed err (and the hint to
 * --help), or rank 0 printed `differ` when only the hashes differ.
 */
int mg_cmd_agree(const char *cmd, int rank, int failed, const char *err, uint32_t hash, const char *differ);
/* The hash of argv[1..argc) for mg_cmd_agree. */
uint32_t mg_cmd_argv_hash(int argc, char **argv);

/* The command line as a shell would need it quoted, "mpiguide ARGS..." (malloc'ed; NULL out of memory). */
char *mg_cmd_join(int argc, char **argv);

/* ---------- result directory ---------- */

/*
 * Make sure dir can take a command's results: create it with missing parents, or accept an
 * existing directory that holds none of the NULL-terminated `results` (any of them: refused
 * unless force). *created: whether it was created here (to remove it again when the command
 * fails on bad input). 0, or -1 with an "--out: ..." message.
 */
int mg_cmd_out_dir(const char *dir, const char *const *results, int force, int *created, char *err,
                   size_t errlen);

/* ---------- progress ---------- */

/* The progress line on stderr ("\r" on a terminal, one line per 5 s otherwise) of one or
 * several engine runs: run k covers the fraction [frac_before, frac_before + frac_share) of the
 * whole and starts elapsed_before seconds into it. Pass mg_cmd_progress_cb as the engine's
 * progress callback with the struct as its argument. */
typedef struct mg_cmd_progress {
  const char *cmd; /* "bench", "check" */
  int on, tty, printed;
  double last_print, budget;
  double elapsed_before, frac_before, frac_share;
  int launch, launches; /* check --launch-of K/N (0/0: not one of several launches): the line says
                           "launch K/N" and its ETA counts the N - K launches after this one, each as
                           long as this one will have been plus its start-up (mg_eta_launches_left) */
  double startup;       /* seconds this process ran before mg_cmd_progress_init: a launch's start-up */
  double last_el;       /* the elapsed seconds of the last report */
} mg_cmd_progress;

void mg_cmd_progress_init(mg_cmd_progress *p, const char *cmd, int on, double budget);
void mg_cmd_progress_cb(double frac, double elapsed, const char *what, void *arg);
/* --launch-of K/N (check, verify: this is launch K of N, for the progress line): 0 with *k, *n, or -1
 * when v is not K/N with 1 <= K <= N. */
int mg_cmd_launch_of(const char *v, int *k, int *n);
/* Ends a "\r" line; a measurement that ran well over its budget says so (by how much, and why). */
void mg_cmd_progress_end(mg_cmd_progress *p);

/* ---------- measurement settings and results ---------- */

/* The arguments of the calls as given (NULL: not given): --datatype, --op, --root, --roots,
 * --reductions. */
typedef struct mg_cmd_data_args {
  const char *dtype, *op, *root, *roots, *reds;
  const char *counts; /* --counts uniform | zeros:K | skew:FACTOR:SEED */
  int anycounts;      /* a collective with per-rank counts (reduce_scatter) is measured */
} mg_cmd_data_args;

/* The arguments into cfg: datatype (default MPI_BYTE), op (MPI_BOR, or MPI_SUM for floating types),
 * root (0) or a rotation of roots (`all`, `spread:K`: K ranks evenly spaced from 0, or a list of
 * ranks), reductions' (datatype, op) pairs ("double:sum,int:sum"), the split of vectors into
 * per-rank counts (uniform, zeros:K, skew:FACTOR:SEED). anyred/anyroot: whether a
 * reduction / rooted collective is measured. 0, or -1 with a message. */
int mg_cmd_data_opts(const mg_cmd_data_args *a, int nprocs, int anyred, int anyroot, mg_bench_cfg *cfg, char *err,
                     size_t errlen);
/* The registry's rooted collectives (reduction = 0) or reductions (1), "bcast, gather, ...", into
 * buf; returns buf. */
const char *mg_cmd_coll_names_of(int reduction, char *buf, size_t len);
/* Every size holds whole elements of the datatype of the calls and at most INT_MAX of them;
 * reduction: the sizes of a reduction measured with --reductions, where a size needs only fit one
 * pair (the engine leaves the others out). 0, or -1 with a message. */
int mg_cmd_check_sizes(const size_t *sizes, int n, const mg_bench_cfg *cfg, int reduction, char *err,
                       size_t errlen);

/* Several engine runs (cfgs[k] and res[k]) as one configuration and result, for one raw file:
 * base's settings, every run's collectives and algorithms, the union of the sizes (ascending),
 * all blocks (borrowed: res[k] keep them), the largest synchronisation cost and clock error. */
typedef struct mg_cmd_merged {
  mg_bench_cfg cfg;
  mg_bench_result res;
  size_t *sizes;
  long rows; /* measurement rows */
} mg_cmd_merged;

int mg_cmd_merge(const mg_bench_cfg *base, const mg_bench_cfg *const *cfgs, const mg_bench_result *const *res,
                 int n, mg_cmd_merged *m, char *err, size_t errlen);
void mg_cmd_merged_free(mg_cmd_merged *m);

/* DIR/raw.csv of merged results (rank 0): the metadata, then extra(f, arg) for the command's own
 * #@ lines (may be NULL), then the rows; written under a temporary name. 0, or -1 with a message. */
int mg_cmd_write_raw(const char *dir, const mg_cmd_merged *m, const mg_bench_meta *meta, const char *command,
                     void (*extra)(FILE *f, void *arg), void *arg, char *err, size_t errlen);

/* Rank 0: a warning per algorithm that failed during the measurement. */
void mg_cmd_warn_failed(const char *cmd, const mg_bench_result *res);

/* ---------- names ---------- */

/* Call fn on every item of a comma-separated list (a copy is split). 0, or -1 with a message
 * (opt names the option in it) or fn's -1. */
int mg_cmd_each(const char *list, const char *opt, int (*fn)(const char *item, void *arg), void *arg,
                char *err, size_t errlen);

/* ---------- files every rank must see alike ---------- */

/* Rank 0 reads the whole file and broadcasts it (collective over MPI_COMM_WORLD), so every rank
 * decides from the same bytes. *buf (NUL-terminated) is the caller's to free. 0, or -1 with a
 * message on every rank. */
int mg_cmd_read_shared(const char *path, char **buf, size_t *len, char *err, size_t errlen);

/* The message sizes of each collective in an MPIGUIDE_TRACE file (docs/trace.md) whose text is
 * the len bytes at `text`, read by the trace reader (check/hotspots.h: numbers checked, a cut
 * file refused): distinct, ascending, empty calls left out; sizes[c] realloc'd, nsizes[c]
 * counted; *nprocs from #@nprocs (0 unknown); reds (redslen bytes, NULL: not wanted) the distinct
 * reductions of a timed trace with a class and an op, "fint:sum,float:max" in the order first
 * seen ("" when none). 0, or -1 with "path:line: message". */
int mg_cmd_trace_sizes(const char *text, size_t len, const char *path, size_t *sizes[MG_NCOLL], int nsizes[MG_NCOLL],
                       int *nprocs, char *reds, size_t redslen, char *err, size_t errlen);
/* (MPI_Isend's sizes are also send's and sendrecv's, MPI_Irecv's sendrecv's: the cells their
 * guidelines are measured in.)
 * What check takes from the non-blocking posts and cannot take from the same trace, and why, as one
 * paragraph into note ("" when the
 * trace has nothing else): a format-4 timed trace's other MPI functions by class with their share of
 * its MPI time and the largest names (completions: their waiting is the posts', whose sizes are
 * taken; the other classes: no guideline checks them), an older timed trace's blind spot. */
void mg_cmd_trace_left_out(const char *text, size_t len, const char *path, char *note, size_t notelen);

/* --pattern NAME (NULL: the default, pingpong) into *out. 0, or -1 with the message in err. */
int mg_cmd_pattern(const char *name, mg_pattern *out, char *err, size_t errlen);

#endif
