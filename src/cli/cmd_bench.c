/*
 * `mpiguide bench`: measure collectives and their mock-ups with the engine of
 * src/bench (docs/bench.md). Run under mpirun; every rank parses the same
 * options.
 *
 * Agreement: after parsing (and, on rank 0, creating the output file under a
 * temporary name) the ranks reduce their status and a hash of their command
 * line once. A bad option, an unwritable path or ranks started with
 * different arguments stop every rank with exit code 2 and one message (from
 * the lowest rank that found the problem), so no rank is left waiting.
 * `--help` prints on rank 0 and every rank exits with 0.
 */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "algs/algs.h"
#include "bench/bench.h"
#include "bench/csv.h"
#include "bench/output.h"
#include "cli/cli.h"
#include "cli/cmd_bench_overlap.h"
#include "cli/cmd_opts.h"
#include "cli/cmd_util.h"
#include "util/err.h"
#include "util/hash.h"
#include "util/parse.h"

/* ---------- options ---------- */

#define OPTIONS(X)                                                                            \
  X(COLL, "coll", 'c', 1) X(ALG, "alg", 'a', 1) X(SIZES, "sizes", 's', 1)                     \
  X(DTYPE, "datatype", 'd', 1) X(OP, "op", 0, 1) X(ROOT, "root", 0, 1) X(ROOTS, "roots", 0, 1)  \
  X(REDS, "reductions", 0, 1) X(COUNTS, "counts", 0, 1) X(IN_PLACE, "in-place", 0, 0)           \
  X(PATTERN, "pattern", 0, 1) X(OVERLAP, "overlap", 0, 0) X(TESTS, "tests", 0, 1)              \
  X(LIBVARS, "lib-variants", 0, 1)                                                            \
  X(SYNC, "sync", 0, 1) X(TIME, "time", 0, 1) X(TIMER, "timer", 0, 1)                         \
  X(WINDOW, "window", 0, 1) X(WINDOW_FACTOR, "window-factor", 0, 1)                           \
  X(WINDOW_TOL, "window-tolerance", 0, 1)                                                     \
  X(CLOCK_FITS, "clock-fits", 0, 1) X(CLOCK_PP, "clock-pingpongs", 0, 1)                      \
  X(NREP, "nrep", 'n', 1) X(TIME_PER, "time-per", 0, 1) X(RSE, "rse", 0, 1)                   \
  X(RSE_OF, "rse-of", 0, 1) X(PAPER, "nrep-paper", 0, 0) X(K, "nrep-k", 0, 1)                 \
  X(MIN, "min-nrep", 0, 1) X(MAX, "max-nrep", 0, 1) X(TIME_TOTAL, "time-total", 0, 1)         \
  X(WARMUP, "warmup", 'w', 1) X(BATCH, "batch", 0, 1) X(SHUFFLE, "shuffle", 0, 0)             \
  X(SEED, "seed", 0, 1) X(SYNC_COST_REPS, "sync-cost-reps", 0, 1) X(OUT, "out", 'o', 1)       \
  X(REPRO, "repro-dir", 0, 1) X(QUIET, "quiet", 'q', 0) X(NO_PROGRESS, "no-progress", 0, 0)   \
  X(HELP, "help", 'h', 0)

enum { OPTIONS(MG_OPT_ENUM) O_N };
static const mg_opt opts[O_N] = {OPTIONS(MG_OPT_ROW)};

static const char usage_text[] =
    "usage: mpirun -np P mpiguide bench --coll COLL[,COLL...] [options]\n"
    "\n"
    "Measures, in one launch, the default and the mock-ups of collectives for a list of\n"
    "message sizes, and keeps every measurement (raw CSV). Details: docs/bench.md.\n"
    "\n"
    "What to measure:\n"
    "  -c, --coll LIST        collectives: allreduce, bcast, ... or MPI_Allreduce, ..., or all\n"
    "  -a, --alg LIST         algorithms: default, registry names (mpiguide list), or all [all]\n"
    "      --lib-variants SPEC  also the MPI library's own algorithms (Open MPI coll/tuned,\n"
    "                         MPICH MPIR_CVAR_<COLL>_INTRA_ALGORITHM), interleaved with the\n"
    "                         default, as rows lib:NAME: all, or COLL=NAME,...;COLL=all\n"
    "                         (docs/libvar.md; `mpiguide libvars` lists them)\n"
    "  -s, --sizes LIST       message sizes in bytes: 8,1K,64K; ranges FROM:TO (x2 steps),\n"
    "                         FROM:TO:xF (factor F), FROM:TO:+S (step S) [8,1K,64K]\n"
    "                         bcast, the reductions, scans, reduce_scatter and the v-collectives:\n"
    "                         the whole vector (alltoallv/w: what each rank sends); gather-type\n"
    "                         collectives and reduce_scatter_block: the per-rank block\n"
    "  -d, --datatype TYPE    MPI_BYTE, MPI_INT, MPI_DOUBLE, ... [MPI_BYTE], or derived:\n"
    "                         vector:BLOCKLEN:STRIDE:BASE, resized:EXTENT:BASE, struct:T1,T2,...\n"
    "                         (sizes stay bytes of data; not for the reductions)\n"
    "      --op OP            reductions: MPI_SUM, MPI_MAX, MPI_BOR, ... [MPI_BOR; MPI_SUM for\n"
    "                         floating types]\n"
    "      --root R           rooted collectives [0]\n"
    "      --roots LIST       rotate the root every round: all, spread:K (K ranks evenly\n"
    "                         spaced), or ranks 0,2,5; the root of each row is in the data\n"
    "      --reductions LIST  measure the reductions once per TYPE:OP pair, e.g.\n"
    "                         double:sum,int:sum (a size the type does not divide is left out)\n"
    "      --counts SPEC      per-rank counts (v-collectives, reduce_scatter): uniform, zeros:K (last K\n"
    "                         ranks get none), skew:FACTOR:SEED (seeded, largest/smallest <= FACTOR)\n"
    "                         [uniform]\n"
    "      --in-place         every call with MPI_IN_PLACE (gather(v), reduce: the root's send\n"
    "                         buffer; scatter(v): the root's receive buffer; the root of each\n"
    "                         round); bcast and barrier have none and run as usual; recorded as\n"
    "                         #@in_place=1. Without it the in-place rows (<coll>_inplace_as_copy,\n"
    "                         the default for a regular call) are skipped\n"
    "      --pattern P        how point-to-point operations (send, ssend, rsend, isend, sendrecv,\n"
    "                         sendrecv_replace) are measured: pingpong (a round trip of ranks 0\n"
    "                         and 1), exchange (all pairs 2i, 2i+1 at once), onetoall (rank 0 to\n"
    "                         each other rank in turn), cart (sendrecv with the 4 neighbours on\n"
    "                         a 2-D Cartesian communicator), cartpair (one neighbour pair of it\n"
    "                         alone, the pair turning with the round) [pingpong]; recorded as #@pattern\n"
    "      --overlap          instead: overlap of each collective's non-blocking form with a\n"
    "                         computation (OSU/IMB-NBC method: t_pure, t_cpu, t_overall, overlap %%)\n"
    "                         for every MPI_Test count of --tests; format mpiguide-bench-overlap/2\n"
    "      --tests LIST       MPI_Test calls spread through the computation [" MG_OVL_DEFAULT_TESTS "]\n"
    "\n"
    "Synchronisation and timing:\n"
    "      --sync METHOD      barrier, dbarrier, dissem, window, roundtime [barrier]\n"
    "      --time MODE        local (max over ranks of each rank's duration) or global\n"
    "                         (max end - min start on the global clock) [local; global for\n"
    "                         window and roundtime]\n"
    "      --timer TIMER      monotonic (clock_gettime CLOCK_MONOTONIC) or wtime [monotonic]\n"
    "      --window T         window/roundtime slot length, e.g. 50us [auto: factor x the\n"
    "                         slowest median warm-up latency; roundtime adapts it per batch]\n"
    "      --window-factor F  [4]\n"
    "      --window-tolerance T  a rank starting later than T after its slot start makes the\n"
    "                         measurement invalid [the clock sync accuracy, at least 1us]\n"
    "      --clock-fits N     offset estimates in the first clock sync [16]\n"
    "      --clock-pingpongs M  ping-pongs per estimate [10]\n"
    "\n"
    "Repetitions (one mode):\n"
    "  -n, --nrep N           exactly N measurements per (collective, size, algorithm)\n"
    "      --time-per T       a time budget: T of wall-clock time per (collective, size,\n"
    "                         algorithm), synchronisation included\n"
    "      --rse X            adaptive: until the relative standard error <= X [default mode,\n"
    "                         X = 0.02; roundtime: --time-per 0.5s]\n"
    "      --nrep-paper       HPC Asia 2018 4.2: the --rse rule at one element gives t1; larger\n"
    "                         sizes: nrep = max(ceil(t1 / min latency of K pilots), K)\n"
    "      --rse-of STAT      median or mean [median]\n"
    "      --nrep-k K         the paper's K [10]\n"
    "      --min-nrep N       [10]     --max-nrep N  [1000; 100000 with --time-per]\n"
    "      --time-total T     budget for the whole run, shared out over the remaining sizes\n"
    "  -w, --warmup W         warm-up rounds per size, kept as warm-up rows [3]\n"
    "      --batch B          rounds between decision points (one reduction) [8]\n"
    "      --shuffle          shuffle the algorithm order in each round; --seed S [from the launch id]\n"
    "      --sync-cost-reps N barriers timed for the synchronisation cost [20]\n"
    "\n"
    "Output:\n"
    "  -o, --out FILE         raw CSV [mpiguide-bench-<launch>.csv]\n"
    "      --repro-dir DIR    also ReproMPI-style files DIR/data_<MPI_Coll>_<algorithm>.dat\n"
    "  -q, --quiet            no summary table, no progress\n"
    "      --no-progress      no progress line on stderr\n"
    "  -h, --help             this text\n"
    "\n"
    "Times accept s, ms, us, ns (default s). Exit codes: 0 done, 1 run failed, 2 bad input.\n";

typedef mg_opt_vals opts_t;

typedef struct state {
  int rank, size;
  char err[4096], e[600]; /* message; e: a parser's message it quotes */
  mg_bench_cfg cfg;
  size_t *sizes;
  int quiet, progress;
  const char *out_path;
  char out_default[96];
  const char *repro_dir;
  int seed_given;
  char *command;
  mg_outfile out;
  mg_cmd_progress prog;
  int overlap; /* --overlap (cmd_bench_overlap.c) */
  mg_ovl_cfg ovl;
  mg_lv_lib lib; /* --lib-variants */
  mg_lv_set lvset;
} state;

static int parse_argv(int argc, char **argv, opts_t *o, state *S) {
  if (mg_opt_parse(argc, argv, opts, O_N, o, S->err, sizeof S->err)) return -1;
  if (o->npos) return MG_ERR_TO(S->err, "unexpected argument '%s' (options start with - or --)", o->pos[0]);
  return 0;
}

static void list_algs(const mg_bench_cfg *cfg, char *buf, size_t len) {
  size_t u = (size_t)snprintf(buf, len, " default");
  for (int i = 0; i < cfg->ncolls; i++)
    for (int a = 1; a < mg_colls[cfg->colls[i]].nalgs && u < len; a++)
      u += (size_t)snprintf(buf + u, len - u, " %s", mg_colls[cfg->colls[i]].algs[a].name);
}

static int add_coll(const char *name, void *arg) {
  state *S = arg;
  if (!strcmp(name, "all")) {
    for (int c = 0; c < MG_NCOLLECTIVES; c++)
      if (add_coll(mg_colls[c].name, S)) return -1;
    return 0;
  }
  int c = mg_coll_find(name);
  if (c < 0) return MG_ERR_TO(S->err, "unknown collective '%s'; valid: all %s", name, mg_coll_names());
  for (int i = 0; i < S->cfg.ncolls; i++)
    if (S->cfg.colls[i] == (mg_coll)c) return 0;
  S->cfg.colls[S->cfg.ncolls++] = (mg_coll)c;
  return 0;
}

static int add_alg(const char *name, void *arg) {
  state *S = arg;
  mg_bench_cfg *cfg = &S->cfg;
  int found = 0;
  for (int i = 0; i < cfg->ncolls; i++) {
    mg_coll c = cfg->colls[i];
    if (!strcmp(name, "all")) {
      cfg->algmask[c] = (1u << mg_colls[c].nalgs) - 1;
      found = 1;
      continue;
    }
    int a = mg_alg_find(c, name);
    if (a >= 0) {
      cfg->algmask[c] |= 1u << a;
      found = 1;
    }
  }
  if (!found) {
    char l[2048];
    list_algs(cfg, l, sizeof l);
    return MG_ERR_TO(S->err, "unknown algorithm '%s' for the collectives given; valid: all%s", name, l);
  }
  return 0;
}

/* The repetition mode from the options; default: adaptive RSE. */
static int set_rep(const opts_t *o, state *S) {
  mg_rep_cfg *r = &S->cfg.rep;
  /* one mode; --rse is also the target of --nrep-paper's one-element step */
  static const int modes[] = {O_NREP, O_TIME_PER, O_PAPER, O_RSE};
  int nmodes = 0, last = -1;
  for (int i = 0; i < 4; i++)
    if (o->given[modes[i]] && !(modes[i] == O_RSE && o->given[O_PAPER])) {
      if (nmodes) return MG_ERR_TO(S->err, "--%s and --%s are contradictory: choose one repetition mode", opts[last].name,
                              opts[modes[i]].name);
      nmodes++;
      last = modes[i];
    }
  r->mode = o->given[O_NREP]       ? MG_REP_FIXED
            : o->given[O_TIME_PER] ? MG_REP_TIME
            : o->given[O_PAPER]    ? MG_REP_PAPER
                                   : MG_REP_RSE;
  if (!nmodes && S->cfg.sync == MG_SYNC_ROUNDTIME) { /* round-time: time-budgeted by default */
    r->mode = MG_REP_TIME;
    r->time_per = 0.5;
  }
  r->rse = 0.02;
  r->stat = MG_STAT_MEDIAN;
  r->k = 10;
  r->min_nrep = 10;
  r->max_nrep = r->mode == MG_REP_TIME ? 100000 : 1000;
  if (o->given[O_NREP] && mg_parse_long(o->val[O_NREP], 1, 100000000, &r->nrep, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--nrep: %s", S->e);
  if (o->given[O_TIME_PER] && mg_parse_seconds(o->val[O_TIME_PER], &r->time_per, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--time-per: %s", S->e);
  if (o->given[O_RSE]) {
    if (mg_parse_double(o->val[O_RSE], 0, &r->rse, S->e, sizeof S->e)) return MG_ERR_TO(S->err, "--rse: %s", S->e);
    if (!(r->rse > 0 && r->rse < 1))
      return MG_ERR_TO(S->err, "--rse: %s is not between 0 and 1 (e.g. 0.02 for 2 %%)", o->val[O_RSE]);
  }
  if (o->given[O_RSE_OF]) {
    if (r->mode != MG_REP_RSE && r->mode != MG_REP_PAPER)
      return MG_ERR_TO(S->err, "--rse-of applies only to --rse and --nrep-paper");
    if (!strcmp(o->val[O_RSE_OF], "median")) r->stat = MG_STAT_MEDIAN;
    else if (!strcmp(o->val[O_RSE_OF], "mean")) r->stat = MG_STAT_MEAN;
    else return MG_ERR_TO(S->err, "--rse-of: '%s' is not median or mean", o->val[O_RSE_OF]);
  }
  if (o->given[O_K]) {
    if (r->mode != MG_REP_PAPER) return MG_ERR_TO(S->err, "--nrep-k applies only to --nrep-paper");
    if (mg_parse_long(o->val[O_K], 1, 100000000, &r->k, S->e, sizeof S->e)) return MG_ERR_TO(S->err, "--nrep-k: %s", S->e);
  }
  if ((o->given[O_MIN] || o->given[O_MAX]) && r->mode == MG_REP_FIXED)
    return MG_ERR_TO(S->err, "--nrep fixes the count; --min-nrep/--max-nrep apply to --rse, --time-per and --nrep-paper");
  if (o->given[O_MIN] && mg_parse_long(o->val[O_MIN], 1, 100000000, &r->min_nrep, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--min-nrep: %s", S->e);
  if (o->given[O_MAX] && mg_parse_long(o->val[O_MAX], 1, 100000000, &r->max_nrep, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--max-nrep: %s", S->e);
  if (!o->given[O_MIN] && r->min_nrep > r->max_nrep) r->min_nrep = r->max_nrep;
  if (r->min_nrep > r->max_nrep)
    return MG_ERR_TO(S->err, "--min-nrep %ld is larger than --max-nrep %ld", r->min_nrep, r->max_nrep);
  if (r->mode == MG_REP_PAPER && r->k > r->max_nrep)
    return MG_ERR_TO(S->err, "--nrep-k %ld is larger than --max-nrep %ld", r->k, r->max_nrep);
  return 0;
}

/* --sync, --time, --timer, the window and the global clock. */
static int set_timing(const opts_t *o, state *S) {
  mg_bench_cfg *cfg = &S->cfg;
  int m = o->given[O_SYNC] ? mg_sync_find(o->val[O_SYNC]) : MG_SYNC_BARRIER;
  if (m < 0)
    return MG_ERR_TO(S->err, "unknown sync method '%s'; valid: barrier dbarrier dissem window roundtime", o->val[O_SYNC]);
  cfg->sync = (mg_sync_method)m;
  int clocked = mg_sync_uses_clock(cfg->sync);
  cfg->time = clocked ? MG_TIME_GLOBAL : MG_TIME_LOCAL;
  if (o->given[O_TIME]) {
    if (!strcmp(o->val[O_TIME], "local")) cfg->time = MG_TIME_LOCAL;
    else if (!strcmp(o->val[O_TIME], "global")) cfg->time = MG_TIME_GLOBAL;
    else return MG_ERR_TO(S->err, "--time: '%s' is not local or global", o->val[O_TIME]);
  }
  cfg->timer = MG_TIMER_MONOTONIC;
  if (o->given[O_TIMER]) {
    if (!strcmp(o->val[O_TIMER], "monotonic")) cfg->timer = MG_TIMER_MONOTONIC;
    else if (!strcmp(o->val[O_TIMER], "wtime")) cfg->timer = MG_TIMER_WTIME;
    else return MG_ERR_TO(S->err, "--timer: '%s' is not monotonic or wtime", o->val[O_TIMER]);
  }
  cfg->window_factor = 4;
  if ((o->given[O_WINDOW] || o->given[O_WINDOW_FACTOR] || o->given[O_WINDOW_TOL]) && !clocked)
    return MG_ERR_TO(S->err, "--window, --window-factor and --window-tolerance apply only to --sync window or roundtime");
  if (o->given[O_WINDOW_TOL] && mg_parse_seconds(o->val[O_WINDOW_TOL], &cfg->window_tol, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--window-tolerance: %s", S->e);
  if (o->given[O_WINDOW] && mg_parse_seconds(o->val[O_WINDOW], &cfg->window, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--window: %s", S->e);
  if (o->given[O_WINDOW_FACTOR] && mg_parse_double(o->val[O_WINDOW_FACTOR], 1, &cfg->window_factor, S->e,
                                                   sizeof S->e))
    return MG_ERR_TO(S->err, "--window-factor: %s", S->e);
  int use_clock = clocked || cfg->time == MG_TIME_GLOBAL;
  if ((o->given[O_CLOCK_FITS] || o->given[O_CLOCK_PP]) && !use_clock)
    return MG_ERR_TO(S->err, "--clock-fits/--clock-pingpongs apply only with a global clock (--sync window or roundtime, "
                "or --time global)");
  long v;
  cfg->clock_fits = 16;
  cfg->clock_pingpongs = 10;
  if (o->given[O_CLOCK_FITS]) {
    if (mg_parse_long(o->val[O_CLOCK_FITS], 1, 256, &v, S->e, sizeof S->e))
      return MG_ERR_TO(S->err, "--clock-fits: %s", S->e);
    cfg->clock_fits = (int)v;
  }
  if (o->given[O_CLOCK_PP]) {
    if (mg_parse_long(o->val[O_CLOCK_PP], 1, 10000, &v, S->e, sizeof S->e))
      return MG_ERR_TO(S->err, "--clock-pingpongs: %s", S->e);
    cfg->clock_pingpongs = (int)v;
  }
  return 0;
}

static int validate(const opts_t *o, state *S, const mg_bench_meta *meta) {
  mg_bench_cfg *cfg = &S->cfg;
  if (!o->given[O_COLL])
    return MG_ERR_TO(S->err, "no collective given: use --coll, e.g. --coll allreduce (valid: %s)", mg_coll_names());
  if (mg_cmd_each(o->val[O_COLL], "--coll", add_coll, S, S->err, sizeof S->err)) return -1;
  if (mg_cmd_each(o->given[O_ALG] ? o->val[O_ALG] : "all", "--alg", add_alg, S, S->err, sizeof S->err)) return -1;
  int anyred = 0, anyroot = 0;
  for (int i = 0; i < cfg->ncolls; i++) {
    mg_coll c = cfg->colls[i];
    if (!cfg->algmask[c])
      return MG_ERR_TO(S->err, "no algorithm selected for %s: add 'default' or one of its mock-ups to --alg",
                  mg_colls[c].name);
    anyred |= mg_colls[c].reduction;
    anyroot |= mg_colls[c].rooted;
  }

  mg_cmd_data_args da = {o->val[O_DTYPE], o->val[O_OP], o->val[O_ROOT], o->val[O_ROOTS], o->val[O_REDS],
                        o->val[O_COUNTS], 0};
  for (int i = 0; i < cfg->ncolls; i++) da.anycounts |= mg_bench_has_counts(cfg->colls[i]);
  if (mg_cmd_data_opts(&da, S->size, anyred, anyroot, cfg, S->err, sizeof S->err)) return -1;

  if (mg_parse_sizes(o->given[O_SIZES] ? o->val[O_SIZES] : "8,1K,64K", &S->sizes, &cfg->nsizes, S->e,
                     sizeof S->e))
    return MG_ERR_TO(S->err, "--sizes: %s", S->e);
  cfg->sizes = S->sizes;
  int anyother = 0;
  for (int i = 0; i < cfg->ncolls; i++) anyother |= !mg_colls[cfg->colls[i]].reduction;
  if ((anyother && mg_cmd_check_sizes(S->sizes, cfg->nsizes, cfg, 0, S->err, sizeof S->err)) ||
      (anyred && mg_cmd_check_sizes(S->sizes, cfg->nsizes, cfg, 1, S->err, sizeof S->err)))
    return -1;

  if (set_timing(o, S) || set_rep(o, S)) return -1;
  long v;
  int clocked = mg_sync_uses_clock(cfg->sync);
  cfg->warmup = 3;
  if (o->given[O_WARMUP]) {
    if (mg_parse_long(o->val[O_WARMUP], 0, 1000000, &v, S->e, sizeof S->e)) return MG_ERR_TO(S->err, "--warmup: %s", S->e);
    cfg->warmup = (int)v;
  }
  if (clocked && cfg->warmup == 0 && cfg->window == 0)
    return MG_ERR_TO(S->err, "--warmup 0 with --sync %s needs --window: the automatic window is sized from the warm-up",
                mg_sync_name(cfg->sync));
  cfg->batch = 8;
  if (o->given[O_BATCH]) {
    if (mg_parse_long(o->val[O_BATCH], 1, 100000, &v, S->e, sizeof S->e)) return MG_ERR_TO(S->err, "--batch: %s", S->e);
    cfg->batch = (int)v;
  }
  if (o->given[O_TIME_TOTAL] && mg_parse_seconds(o->val[O_TIME_TOTAL], &cfg->time_total, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--time-total: %s", S->e);
  cfg->shuffle = o->given[O_SHUFFLE];
  cfg->in_place = o->given[O_IN_PLACE];
  if (mg_cmd_pattern(o->given[O_PATTERN] ? o->val[O_PATTERN] : NULL, &cfg->pattern, S->err, sizeof S->err)) return -1;
  if (o->given[O_SEED]) {
    if (!cfg->shuffle) return MG_ERR_TO(S->err, "--seed applies only with --shuffle");
    char *end;
    unsigned long long s = strtoull(o->val[O_SEED], &end, 10);
    if (!*o->val[O_SEED] || *end || o->val[O_SEED][0] == '-')
      return MG_ERR_TO(S->err, "--seed: '%s' is not a non-negative integer", o->val[O_SEED]);
    cfg->seed = s;
    S->seed_given = 1;
  } else {
    cfg->seed = mg_fnv1a(MG_FNV1A_INIT, meta->launch, strlen(meta->launch));
  }
  cfg->sync_cost_reps = 20;
  if (o->given[O_SYNC_COST_REPS]) {
    if (mg_parse_long(o->val[O_SYNC_COST_REPS], 1, 100000, &v, S->e, sizeof S->e))
      return MG_ERR_TO(S->err, "--sync-cost-reps: %s", S->e);
    cfg->sync_cost_reps = (int)v;
  }

  S->quiet = o->given[O_QUIET];
  S->progress = !S->quiet && !o->given[O_NO_PROGRESS];
  snprintf(S->out_default, sizeof S->out_default, "mpiguide-bench-%s.csv", meta->launch);
  S->out_path = o->given[O_OUT] ? o->val[O_OUT] : S->out_default;
  if (!*S->out_path) return MG_ERR_TO(S->err, "--out: empty path");
  if (o->given[O_REPRO]) {
    S->repro_dir = o->val[O_REPRO];
    if (!*S->repro_dir) return MG_ERR_TO(S->err, "--repro-dir: empty path");
    if (cfg->nreds > 1) /* the format has no datatype column: the pairs' rows would mix */
      return MG_ERR_TO(S->err, "--repro-dir with several --reductions pairs: the ReproMPI format cannot tell "
                               "them apart; measure one pair per run");
  }
  if (cfg->nreds > 0 && cfg->rep.mode == MG_REP_PAPER)
    return MG_ERR_TO(S->err, "--nrep-paper with --reductions: the one-element calibration is per collective, not "
                             "per pair; use --rse or --nrep");
  S->overlap = o->given[O_OVERLAP];
  if (o->given[O_LIBVARS] && S->overlap) return MG_ERR_TO(S->err, "--lib-variants does not apply with --overlap");
  if (o->given[O_LIBVARS] && mg_cmd_lib_variants(o->val[O_LIBVARS], cfg->colls, cfg->ncolls, cfg, &S->lib, &S->lvset, S->err, sizeof S->err))
    return -1;
  if (o->given[O_TESTS] && !S->overlap) return MG_ERR_TO(S->err, "--tests applies only with --overlap");
  if (S->overlap) {
    mg_cmd_overlap_opts oo = {o->val[O_COLL], o->val[O_TESTS], o->given[O_ALG], o->given[O_REDS], o->given[O_REPRO]};
    if (mg_cmd_overlap_setup(cfg, &oo, &S->ovl, S->err, sizeof S->err)) return -1;
  }
  /* files: rank 0 writes them, so rank 0 checks them now */
  if (S->rank == 0) {
    if (S->repro_dir) {
      struct stat st;
      if (stat(S->repro_dir, &st) != 0 || !S_ISDIR(st.st_mode))
        return MG_ERR_TO(S->err, "--repro-dir '%s' is not a directory", S->repro_dir);
      if (access(S->repro_dir, W_OK) != 0) return MG_ERR_TO(S->err, "--repro-dir '%s' is not writable", S->repro_dir);
    }
    char e[600];
    if (mg_outfile_open(&S->out, S->out_path, e, sizeof e)) return MG_ERR_TO(S->err, "--out: %s", e);
  }
  return 0;
}

/* ---------- the command ---------- */

/* Rank 0: write the raw CSV, the ReproMPI files; 0 or -1 with S->err. */
static int write_results(state *S, const mg_bench_result *res, const mg_bench_meta *meta, long *rows) {
  const mg_bench_cfg *cfg = &S->cfg;
  mg_bench_write_meta(S->out.f, cfg, res, meta, S->command ? S->command : "");
  mg_meta(S->out.f, "rows", "%ld", mg_bench_raw_count(res));
  *rows = mg_bench_write_raw(S->out.f, cfg, res, meta);
  char e[700];
  if (mg_outfile_commit(&S->out, e, sizeof e)) return MG_ERR_TO(S->err, "%s", e);
  if (!S->repro_dir) return 0;
  for (int i = 0; i < cfg->ncolls; i++) {
    mg_coll c = cfg->colls[i];
    for (int a = 0; a < mg_colls[c].nalgs; a++) {
      if (!(cfg->algmask[c] & (1u << a))) continue;
      char path[4096];
      snprintf(path, sizeof path, "%s/data_%s_%s.dat", S->repro_dir, mg_colls[c].mpi_name,
               mg_bench_alg_name(c, a));
      mg_outfile f;
      if (mg_outfile_open(&f, path, e, sizeof e)) return MG_ERR_TO(S->err, "%s", e);
      mg_bench_write_meta(f.f, cfg, res, meta, S->command ? S->command : "");
      mg_meta(f.f, "test_collective", "%s", mg_colls[c].mpi_name);
      mg_meta(f.f, "test_algorithm", "%s", mg_bench_alg_name(c, a));
      mg_bench_write_repro(f.f, res, c, a);
      if (mg_outfile_commit(&f, e, sizeof e)) return MG_ERR_TO(S->err, "%s", e);
    }
  }
  return 0;
}

/* --overlap: the run, its file and its summary (cmd_bench_overlap.c). The exit status. */
static int run_overlap(state *S, const mg_bench_meta *meta) {
  mg_ovl_result res;
  int status = 0, rc = mg_overlap_run(&S->cfg, &S->ovl, &res);
  mg_cmd_progress_end(&S->prog);
  if (rc != MPI_SUCCESS) {
    char es[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, es, &len);
    fprintf(stderr, "mpiguide bench: the overlap measurement failed on rank %d: %s\n", S->rank, es);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (S->rank == 0) {
    char e[700];
    mg_cmd_overlap_meta(S->out.f, &S->cfg, &S->ovl, &res, meta, S->command ? S->command : "");
    long rows = mg_cmd_overlap_rows(S->out.f, &res, meta);
    if (mg_outfile_commit(&S->out, e, sizeof e)) {
      fprintf(stderr, "mpiguide bench: %s\n", e);
      status = 1;
    } else if (!S->quiet) {
      printf("# mpiguide bench --overlap: %s, %d processes on %d node(s), sync %s, launch %s\n", meta->mpi_name,
             meta->nprocs, meta->nnodes, mg_sync_name(S->cfg.sync), meta->launch);
      printf("# medians of the max over ranks; overlap %% = 100 (1 - (t_overall - t_cpu) / t_pure) in [0, 100]; "
             "best_k: the fewest MPI_Test calls within the noise of the largest overlap\n");
      mg_cmd_overlap_summary(stdout, &res);
      printf("# busy loop: %.3g iterations/s (slowest rank) .. %.3g (fastest); sync step %.2f us\n", res.rate,
             res.rate_max, 1e6 * res.sync_cost);
      printf("# raw data: %s (%ld rows), %.1f s\n", S->out_path, rows, res.elapsed);
    }
  }
  mg_ovl_result_free(&res);
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return status;
}

int mg_cmd_bench(int argc, char **argv) {
  state S0, *S = &S0;
  memset(S, 0, sizeof *S);
  mg_bench_meta meta;
  mg_cmd_libvar_env(argc, argv);
  if (mg_cmd_mpi_start("bench", &S->rank, &S->size, &meta)) return 1;
  opts_t o;
  S->cfg.comm = MPI_COMM_WORLD;
  int st = parse_argv(argc, argv, &o, S);
  int help = st == 0 && o.given[O_HELP];
  if (st == 0 && !help) st = validate(&o, S, &meta);
  /* 0 ok, 1 run failed, 2 bad input; --help takes part in the hash (every rank prints it or none) */
  int status = mg_cmd_agree("bench", S->rank, st, S->err, mg_cmd_argv_hash(argc, argv) ^ (uint32_t)help,
                            "the ranks were started with different arguments; start every rank with the same "
                            "options");
  if (status) goto done;
  if (help) {
    if (S->rank == 0) fputs(usage_text, stdout);
    goto done;
  }

  S->command = mg_cmd_join(argc, argv);
  mg_cmd_progress_init(&S->prog, "bench", S->rank == 0 && S->progress, S->cfg.time_total);
  S->cfg.progress = mg_cmd_progress_cb;
  S->cfg.arg = &S->prog;
  if (S->overlap) {
    status = run_overlap(S, &meta);
    goto done;
  }
  mg_bench_result res;
  int rc = mg_bench_run(&S->cfg, &res);
  mg_cmd_progress_end(&S->prog);
  if (rc != MPI_SUCCESS) {
    char es[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, es, &len);
    fprintf(stderr, "mpiguide bench: the measurement failed on rank %d: %s\n", S->rank, es);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (S->rank == 0) {
    long rows = 0;
    mg_cmd_warn_failed("bench", &res);
    if (write_results(S, &res, &meta, &rows)) {
      fprintf(stderr, "mpiguide bench: %s\n", S->err);
      status = 1;
    } else if (!S->quiet) {
      printf("# mpiguide bench: %s, %d processes on %d node(s), sync %s, time %s, timer %s, launch %s\n",
             meta.mpi_name, meta.nprocs, meta.nnodes, mg_sync_name(S->cfg.sync),
             S->cfg.time == MG_TIME_GLOBAL ? "global" : "local", mg_timer_name(S->cfg.timer), meta.launch);
      printf("# nrep: valid measurements, inval: missed their start window; rse: relative standard error "
             "of the %s\n", mg_stat_name(S->cfg.rep.stat));
      mg_bench_print_summary(stdout, &S->cfg, &res);
      printf("# synchronisation cost (one %s): median %.2f us, min %.2f us\n",
             S->cfg.sync == MG_SYNC_DISSEM ? "dissemination barrier" : "MPI_Barrier", 1e6 * res.sync_cost,
             1e6 * res.sync_cost_min);
      if (res.clock_used)
        printf("# global clock: accuracy %.2f us (max model error over ranks), min round trip %.2f us, "
               "%d syncs\n", 1e6 * res.clock_err, 1e6 * res.clock_rtt, res.clock_syncs);
      if (res.invalid)
        printf("# %ld measurements missed their start window (invalid, kept in the raw file)\n", res.invalid);
      printf("# raw data: %s (%ld rows), %.1f s\n", S->out_path, rows, res.elapsed);
    }
  }
  mg_bench_result_free(&res);
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);

done:
  if (S->rank == 0) mg_outfile_discard(&S->out);
  int wrote = status == 0 && S->command; /* past the agreement: the results are written */
  free(S->sizes);
  free(S->command);
  mg_opt_vals_free(&o);
  char saved[4200];
  snprintf(saved, sizeof saved, "raw data in %s", S->out_path ? S->out_path : "");
  mg_cmd_mpi_end_status("bench", status, wrote ? saved : NULL);
  return status;
}
