/*
 * What the parts of `mpiguide check` share with its help and --launches (cmd_check_help.c:
 * presets and help; cmd_check_launches.c: the driver of --launches; cmd_check_save.c: Ctrl-C
 * saves). The command's own parts (options, measurement, --resume, analysis) and their state:
 * cmd_check_state.h.
 */
#ifndef MG_CLI_CMD_CHECK_H
#define MG_CLI_CMD_CHECK_H

#include <stdio.h>

#include "cli/cmd_opts.h"
#include "registry/registry.h"

/* The options of `mpiguide check` (cmd_opts.h), shared by its files. */
/* clang-format off */
#define OPTIONS(X)                                                                                   \
  X(QUICK, "quick", 0, 0) X(FULL, "full", 0, 0) X(COLL, "collectives", 'c', 1)                       \
  X(COLL2, "coll", 0, 1) X(MOCKUPS, "mockups", 'm', 1) X(SIZES, "sizes", 's', 1)                     \
  X(DTYPE, "datatype", 'd', 1) X(OP, "op", 0, 1) X(ROOT, "root", 0, 1) X(SYNC, "sync", 0, 1)         \
  X(BUDGET, "budget", 0, 1) X(RSE, "rse", 0, 1) X(NREP, "nrep", 'n', 1) X(MIN, "min-nrep", 0, 1)     \
  X(MAX, "max-nrep", 0, 1) X(WARMUP, "warmup", 'w', 1) X(NO_SHUFFLE, "no-shuffle", 0, 0)             \
  X(SEED, "seed", 0, 1) X(OUT, "out", 'o', 1) X(FORCE, "force", 'f', 0) X(FROM, "from", 0, 2)        \
  X(ALPHA, "alpha", 0, 1) X(TEST, "test", 0, 1) X(NO_HOLM, "no-holm", 0, 0) X(LEVEL, "level", 0, 1)  \
  X(RESAMPLES, "resamples", 0, 1) X(AA, "aa", 0, 0) X(NOISE, "noise", 0, 1)                          \
  X(COMPARER, "comparer", 0, 1) X(CSV, "csv", 0, 0) X(JSON, "json", 0, 0) X(MERGE, "merge", 0, 0)    \
  X(QUIET, "quiet", 'q', 0) X(NO_PROGRESS, "no-progress", 0, 0) X(HELP, "help", 'h', 0)              \
  X(PRESETS, "presets", 0, 0) X(MARGIN, "margin", 0, 1) X(LAUNCHES, "launches", 0, 1)              \
  X(SIZES_FROM, "sizes-from", 0, 1) X(ROOTS, "roots", 0, 1) X(REDS, "reductions", 0, 1)  \
  X(COUNTS, "counts", 0, 1) X(FAMILIES, "families", 0, 1) X(IN_PLACE, "in-place", 0, 0)          \
  X(LOGGP, "loggp", 0, 1) X(MODEL_GUIDED, "model-guided", 0, 0) X(MODEL_SLACK, "model-slack", 0, 1)  \
  X(P2P, "p2p", 0, 0) X(PATTERN, "pattern", 0, 1) X(LIBVARS, "lib-variants", 0, 1)                \
  X(RESUME, "resume", 0, 0) X(STOP_RULE, "stop-rule", 0, 1) X(ETA_FROM, "eta-from", 0, 1)          \
  X(LAUNCH_OF, "launch-of", 0, 1) X(MIN_SPAN, "min-span", 0, 1) X(OVERLAP, "overlap", 0, 0)         \
  X(OVL_TESTS, "overlap-tests", 0, 1)
/* clang-format on */

enum { OPTIONS(MG_OPT_ENUM) O_N };
extern const mg_opt mg_check_opts[O_N];

/* Options that only the measurement reads (refused by --from, given to every launch of --launches;
 * cmd_check_options.c). */
int mg_check_measure_only(int id);

/* The sizes of the point-to-point operations (--p2p, or -c send ...) without --sizes: every power of
 * two from 1 B to 4 MiB, dense enough to show where a protocol switch makes a message slower than
 * its halves (TGT 2010 Fig. 1). */
#define MG_CHECK_P2P_SIZES "1:4M"
/* --p2p's families without --families: the point-to-point guidelines, split-robustness, one-sided. */
#define MG_CHECK_P2P_FAMILIES "pt2pt,split,rma"
/* --overlap's MPI_Test counts without --overlap-tests (the guideline OVL, docs/check.md "Overlap"). */
#define MG_CHECK_OVL_TESTS "0,1,4,16"

typedef struct mg_check_preset {
  const char *name;
  const char *block_sizes, *vector_sizes;
  double rse;
  long min_nrep, max_nrep;
  double budget; /* seconds for the whole measurement, 0: none */
  int warmup;
  const char *roots;      /* --roots of the rooted collectives */
  const char *reductions; /* --reductions: the (datatype, op) pairs of the reductions */
  const char *families;   /* --families: the guideline families measured (registry.h) */
  int all_ops; /* without --collectives: every collective operation with a mock-up of the families (the
                * non-blocking, persistent and neighbourhood ones too); 0: the 17 blocking ones */
} mg_check_preset;

/* --quick (full = 0, the default) or --full. */
const mg_check_preset *mg_check_preset_of(int full);
/* Whether c's message size is the whole vector (the large size range) or a per-rank block. */
int mg_check_whole_vector(mg_coll c);
void mg_check_print_usage(FILE *f);
void mg_check_print_presets_md(FILE *f);

/* --launches (cmd_check_launches.c): the arguments, split by where they go. */
typedef struct mg_check_launch_args {
  int n;                 /* launches */
  const char *out;       /* DIR */
  int force, resume;     /* --resume: complete launches kept, an interrupted one resumed */
  int progress;          /* neither -q nor --no-progress: each launch shows its progress line */
  char **launcher;       /* after "--" */
  int nlauncher;
  char **measure;        /* options for every launch */
  int nmeasure;
  char **analysis;       /* options for the joint analysis */
  int nanalysis;
  double min_span;       /* --min-span: launch K starts no sooner than (K-1)/(N-1) of it after launch 1 */
} mg_check_launch_args;

/* Run the launches and analyse them together; the exit code of `check`. */
int mg_check_launches(const mg_check_launch_args *a);
/* `check --launches N [options] -o DIR -- LAUNCHER...`: argv[1..dd) are check's own arguments
 * (parsed into o), argv[dd+1..) the launcher; the exit code. */
int mg_check_launches_args(int argc, char **argv, int dd, const mg_opt_vals *o);

/* cmd_check_save.c: the cells measured so far in DIR/raw.csv while a check runs, and the line
 * that says how many on Ctrl-C. write(ctx, note) writes raw.csv marked with note (0 on success).
 * cells_before: the cells an interrupted run measured that --resume keeps (0 otherwise); created:
 * DIR was created by this run (removed again when the signal comes before any cell is saved). */
typedef int (*mg_check_write_fn)(void *ctx, const char *note);
void mg_check_save_start(int rank, const char *out, long cells_before, long cells_total, int created,
                         mg_check_write_fn write, void *ctx);
/* After a block: cells_done cells finished; written if SAVE_EVERY has passed, or now. */
void mg_check_save_block(long cells_done, int now);
/* The temporary file raw.csv is being written to (NULL: none): removed if the signal comes meanwhile. */
void mg_check_save_tmp(const char *tmp);
/* What DIR/raw.csv is: 1 the partial file of an interrupted check (note: its #@check_incomplete),
 * 0 a complete one, -1 none (or unreadable). */
int mg_check_partial(const char *dir, char *note, size_t len);

#endif
