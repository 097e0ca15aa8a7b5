/*
 * The state the parts of `mpiguide check` pass between them, and their entry points; private to
 * src/cli/cmd_check*.c. The parts call down this list, never up:
 *
 *   cmd_check.c          the command: --launches, the paths without MPI, or a measurement
 *   cmd_check_launches.c --launches: runs the launches, then the joint analysis (analyse)
 *   cmd_check_resume.c   --resume: the plan of what an interrupted check left to measure
 *   cmd_check_measure.c  the measurement: groups, the engine runs, --model-guided, DIR/raw.csv
 *   cmd_check_analyse.c  the analysis of raw data (rank 0 or --from): verdicts, files, report
 *   cmd_check_options.c  the options: analysis (both modes) and measurement
 *   cmd_check_help.c     presets and --help; cmd_check_save.c: Ctrl-C saves
 */
#ifndef MG_CLI_CMD_CHECK_STATE_H
#define MG_CLI_CMD_CHECK_STATE_H

#include <stddef.h>

#include "bench/bench.h"
#include "check/check.h"
#include "cli/cmd_check.h"
#include "cli/cmd_opts.h"
#include "cli/cmd_predict.h"
#include "cli/cmd_util.h"

/* One engine run: collectives that share a size list (or, --model-guided, one collective and a set
 * of mock-ups). */
typedef struct mg_check_group {
  mg_bench_cfg cfg;
  size_t *sizes;
  mg_bench_result res;
  int done;
} mg_check_group;

/* Everything one `check` command knows: its options, plan, groups and the --resume state. */
typedef struct mg_check_state {
  int rank, size, mpi;
  char err[4096], e[1024];
  const mg_check_preset *pre;
  int ncolls;
  mg_coll colls[MG_NCOLL];
  unsigned algmask[MG_NCOLL];
  size_t *sizes[MG_NCOLL];
  int nsizes[MG_NCOLL];
  mg_bench_cfg base;
  mg_ck_opts ck;
  int comparer, format, merge, quiet, progress, force, seed_given;
  const char *out;
  char out_default[96];
  int created_out;
  char *command;
  mg_check_group *groups;
  int ngroups;
  long blocks_total, blocks_before;
  mg_cmd_progress prog;
  mg_loggp lg; /* --loggp: predictions next to the measurements (DIR/predicted.csv) */
  int have_lg;
  int lg_noisy; /* the LogGP file was measured on a busy machine (cmd_check_guided.h) */
  int model_guided;     /* --model-guided: measure the mock-ups the model does not rule out */
  double model_slack;   /* --model-slack */
  long guided_cells, guided_all; /* mock-up cells measured, of those a full check would measure */
  mg_lv_lib lib;        /* --lib-variants: the library's own algorithms (docs/libvar.md) */
  mg_lv_set lvset;
  const char *eta_from; /* --eta-from: a previous launch's raw.csv, the time estimate's prior */
  int launch_k, launch_n; /* --launch-of K/N (0/0 without): the progress line's launch (mg_cmd_progress) */
  /* --resume: what the interrupted run left in DIR/raw.csv (cmd_check_resume.c) */
  int resume;
  char *old_text;       /* the file */
  char *old_rows;       /* its data rows of the sizes it holds whole, kept after the new ones */
  size_t old_rows_len;
  long old_nrows, cells_before;
  char *old_keep;       /* its per-cell #@ lines (stop, budget_hit, ...) and #@check_sizes */
  int nothing_left;     /* every cell is measured already: only the analysis is left */
} mg_check_state;

/* cmd_check_options.c. Each returns 0, or -1 with S->err. */
/* check's own arguments (argv[0..argc)): options into o; no positional argument. */
int mg_check_parse_argv(int argc, char **argv, mg_opt_vals *o, mg_check_state *S);
/* The options of the analysis (both modes): S->ck, the output format, --loggp. */
int mg_check_parse_analysis(const mg_opt_vals *o, mg_check_state *S);
/* Every rank, with MPI: the options of a measurement: what, how often, where to (S->base, S->out). */
int mg_check_parse_measure(const mg_opt_vals *o, mg_check_state *S, const mg_bench_meta *meta);
/* Rank 0 (or the offline run): make sure DIR can take the results (from: only the derived ones
 * count, raw.csv may be the source). */
int mg_check_prepare_out(mg_check_state *S, const char *dir, int from);

/* cmd_check_measure.c */
/* The blocks the engine measures for c at size index si (bench/engine.c), as a mask over the
 * (datatype, op) pairs. */
unsigned mg_check_block_mask(const mg_bench_cfg *cfg, mg_coll c, const size_t *sizes, int si);
/* One engine run per set of collectives sharing a size list. 0, or -1 with S->err. */
int mg_check_make_groups(mg_check_state *S);
/* Every rank: the measurement (--model-guided: the defaults first, then the mock-ups). */
void mg_check_measure(mg_check_state *S, const mg_bench_meta *meta);
/* Rank 0: DIR/raw.csv from the groups measured so far, marked incomplete unless NULL. 0, or -1
 * with S->err. */
int mg_check_write_raw(mg_check_state *S, const mg_bench_meta *meta, const char *incomplete);

/* TGT 2010 eq. 4 (bench/pack.h): whether this check measures MPI_Pack and MPI_Unpack against the
 * constituents (a derived --datatype and a row of the datatype family chosen), and the measurement
 * (every rank; rank 0 alone measures and writes DIR/pack.csv, after the last DIR/raw.csv). The
 * rounds: --nrep, else the larger of --min-nrep and MG_CHECK_PACK_ROUNDS, at most --max-nrep; a size
 * stops after MG_CHECK_PACK_MIN of them once it took MG_CHECK_PACK_CAP seconds (docs/check.md). 0,
 * or -1 with S->err (rank 0: the file). */
#define MG_CHECK_PACK_ROUNDS 50
#define MG_CHECK_PACK_MIN 20
#define MG_CHECK_PACK_CAP 1.0
int mg_check_wants_pack(const mg_check_state *S);
int mg_check_measure_pack(mg_check_state *S, const mg_bench_meta *meta);
/* --overlap (the guideline OVL, docs/check.md "Overlap"): after the collectives (and pack.csv), the
 * measurement of `bench --overlap` (src/bench/overlap_run.h) of every collective measured that has a
 * non-blocking form, at its sizes, with the test counts `tests` (NULL: MG_CHECK_OVL_TESTS), the
 * blocking variant included; rank 0 writes DIR/overlap.csv. Every rank; 0, or -1 with S->err. */
int mg_check_measure_overlap(mg_check_state *S, const mg_bench_meta *meta, const char *tests);

/* cmd_check_resume.c: --resume. 0, or -1 with S->err. */
int mg_check_resume_plan(mg_check_state *S, int argc, char **argv, mg_bench_meta *meta);
int mg_check_resume_finish(mg_check_state *S);

/* cmd_check_analyse.c */
/* Read sources, analyse, print and (outdir) write the results: the exit code (2 bad input). */
int mg_check_analyse(mg_check_state *S, const char *const *sources, int nsources, const char *outdir);
/* --help, --presets and --from need no MPI: their exit code, or -1 to go on with a measurement
 * (st: what parsing returned). */
int mg_check_without_mpi(mg_check_state *S, mg_opt_vals *o, int st);
/* `check --from DIR... [analysis options]` as a command line (argv[0] "check"): the joint
 * analysis of --launches; the exit code. */
int mg_check_from_args(int argc, char **argv);

#endif
