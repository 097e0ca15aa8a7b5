/*
 * The presets of `mpiguide check` and its help text: one table (presets[])
 * from which the measurement takes its settings, --help its preset lines and
 * defaults, and `check --presets` the table that docs/check.md quotes (a test
 * keeps the two equal), so none of them can disagree with the code.
 */
#include <stdio.h>
#include <string.h>

#include "bench/seq.h"
#include "cli/cmd_check.h"
#include "cli/cmd_util.h"

/* Collectives whose message size is a per-rank block get the small range,
 * those whose size is the whole vector the large one (as in PGChecker). */
int mg_check_whole_vector(mg_coll c) {
  c = mg_coll_base(c); /* a non-blocking collective: its blocking twin's sizes */
  return c == MG_BCAST || c == MG_REDUCE || c == MG_ALLREDUCE || c == MG_SCAN || c == MG_EXSCAN ||
         c == MG_REDUCE_SCATTER || c == MG_ALLGATHERV || c == MG_GATHERV || c == MG_SCATTERV || c == MG_ALLTOALLV ||
         c == MG_ALLTOALLW;
}

/* How many collectives preset p checks: those with a mock-up of its families. */
static int nchecked(const mg_check_preset *p) {
  int n = 0;
  for (int c = 0; c < (p->all_ops ? MG_NCOLL : MG_NCOLLECTIVES); c++) {
    int any = 0;
    if (mg_coll_is_p2p((mg_coll)c)) continue;
    for (int a = 1; a < mg_colls[c].nalgs; a++) {
      const char *f = mg_families[mg_colls[c].algs[a].family].name, *at = strstr(p->families, f);
      size_t len = strlen(f); /* a whole item of the comma-separated list */
      any |= at && (at == p->families || at[-1] == ',') && (at[len] == '\0' || at[len] == ',');
    }
    n += any;
  }
  return n;
}

/* quick: <= 2 minutes at 4 ranks on a 2-core node (measured: docs/check.md);
 * full: the thesis' ranges, about 12 sizes per collective. */
/* Both rotate the root over up to 4 ranks and reduce what applications reduce (doubles and ints,
 * summed); full also bytes with bitwise or, the thesis' choice, which covers its 1-byte size. */
static const mg_check_preset presets[] = {
    {"quick", "16,256,4K,16K", "16,1K,64K,1M", 0.01, 100, 1000, 80, 3, "spread:4", "double:sum,int:sum",
     "composition,split,pt2pt", 0},
    {"full", "1,4,16,64,128,256,512,1K,2K,4K,8K,16K", "1,4,16,64,256,1K,4K,16K,64K,256K,1M,4M,8M", 0.01, 50,
     1000, 0, 5, "spread:4", "double:sum,int:sum,byte:bor",
     "composition,split,blocks,nonblocking,monotony,inplace,datatype,userop,p2p,pt2pt,rma,rerank,topo,hier,nbc,"
     "persistent",
     1},
};

/* The presets in words, from the table above: the help text and `check --presets` (which
 * docs/check.md quotes; a test keeps the two equal) cannot disagree with the code. */
static void coll_names_by_kind(int vector, char *buf, size_t len) {
  size_t u = 0;
  buf[0] = '\0';
  for (int c = 0; c < MG_NCOLLECTIVES && u < len; c++)
    if (c != MG_BARRIER && mg_colls[c].nalgs > 1 && mg_check_whole_vector((mg_coll)c) == vector)
      u += (size_t)snprintf(buf + u, len - u, "%s%s", u ? ", " : "", mg_colls[c].name);
}

static int count_items(const char *list) {
  int n = 1;
  for (const char *p = list; *p; p++) n += *p == ',';
  return n;
}

static void spaced(const char *list, char *buf, size_t len) { /* "16,256" -> "16, 256" */
  size_t u = 0;
  for (const char *p = list; *p && u + 2 < len; p++) {
    buf[u++] = *p;
    if (*p == ',') buf[u++] = ' ';
  }
  buf[u] = '\0';
}

/* One value per preset, "quick 80s, full none" style. */
static void per_preset(char *buf, size_t len, int field) {
  size_t u = 0;
  for (size_t i = 0; i < sizeof presets / sizeof presets[0] && u < len; i++) {
    const mg_check_preset *p = &presets[i];
    char v[32];
    switch (field) {
    case 0: snprintf(v, sizeof v, p->budget > 0 ? "%gs" : "none", p->budget); break;
    case 1: snprintf(v, sizeof v, "%ld", p->min_nrep); break;
    case 2: snprintf(v, sizeof v, "%ld", p->max_nrep); break;
    case 3: snprintf(v, sizeof v, "%d", p->warmup); break;
    default: snprintf(v, sizeof v, "%g", p->rse); break;
    }
    u += (size_t)snprintf(buf + u, len - u, "%s%s %s", i ? ", " : "", p->name, v);
  }
}

void mg_check_print_presets_md(FILE *f) {
  char block[256], vector[256], a[256], b[256];
  coll_names_by_kind(0, block, sizeof block);
  coll_names_by_kind(1, vector, sizeof vector);
  const mg_check_preset *q = &presets[0], *u = &presets[1];
  fprintf(f, "| | `--%s` (default) | `--%s` |\n|---|---|---|\n", q->name, u->name);
  fprintf(f, "| families (`--families`) | %s | %s |\n", q->families, u->families);
  fprintf(f, "| collectives | the %d of %d with a mock-up of these | the %d with one |\n", nchecked(q), MG_NCOLLECTIVES,
          nchecked(u));
  spaced(q->block_sizes, a, sizeof a), spaced(u->block_sizes, b, sizeof b);
  fprintf(f, "| sizes, per-rank-block collectives (%s) | %s | %s |\n", block, a, b);
  spaced(q->vector_sizes, a, sizeof a), spaced(u->vector_sizes, b, sizeof b);
  fprintf(f, "| sizes, whole-vector collectives (%s) | %s | %s |\n", vector, a, b);
  fprintf(f, "| barrier | once: it moves no message (size 0) | once |\n");
  mg_seq_cfg seq;
  mg_seq_defaults(&seq); /* its first look (seq.h) */
  fprintf(f, "| repetitions | adaptive: a mock-up until its comparison with the default is decided (at least %ld "
             "values, `--stop-rule`), or the RSE of the median ≤ %g %% (at least %ld), at most %ld | the same "
             "rule, RSE at least %ld, at most %ld |\n",
          mg_seq_point(&seq, 0), 100 * q->rse, q->min_nrep, q->max_nrep, u->min_nrep, u->max_nrep);
  fprintf(f, "| warm-up rounds | %d | %d |\n", q->warmup, u->warmup);
  mg_cmd_coll_names_of(0, a, sizeof a);
  fprintf(f, "| roots of %s (`--roots`) | %s | %s |\n", a, q->roots, u->roots);
  fprintf(f, "| datatype:op of the reductions (`--reductions`) | %s | %s |\n", q->reductions, u->reductions);
  char bq[64] = "none", bu[64] = "none";
  if (q->budget > 0) snprintf(bq, sizeof bq, "%g s for the measurement, shared over the sizes", q->budget);
  if (u->budget > 0) snprintf(bu, sizeof bu, "%g s for the measurement, shared over the sizes", u->budget);
  fprintf(f, "| budget | %s | %s |\n", bq, bu);
}

const mg_check_preset *mg_check_preset_of(int full) { return &presets[full ? 1 : 0]; }

static const char usage_text[] =
    "usage: mpirun -np P mpiguide check [--quick | --full] [options] [-o DIR]\n"
    "       mpiguide check --from DIR [DIR...] [analysis options] [-o OUTDIR]\n"
    "       mpiguide check --launches N [options] -o DIR -- LAUNCHER...   (without mpirun in front)\n"
    "\n"
    "Measures the default and every applicable mock-up of each (collective, size) in one launch,\n"
    "interleaved, then tests whether the default is significantly slower than a mock-up (a\n"
    "violation of a performance guideline). Writes DIR/raw.csv first, then DIR/verdicts.csv,\n"
    "DIR/verdicts.json and DIR/summary.txt. Details: docs/check.md.\n"
    "\n"
    "What to measure (default: --quick):\n"
    "@PRESETS@"
    "      --presets           the presets as a table (docs/check.md shows the same)\n"
    "  -c, --collectives LIST  e.g. bcast,allreduce (or MPI_Bcast,...) [preset: all]; also the\n"
    "                          point-to-point operations send, rsend, sendrecv (see --p2p); --coll: the same\n"
    "      --p2p               the point-to-point guidelines (TGT 2010 eqs. 1, 5-11; §VII: a send as\n"
    "                          fences around a put): send, rsend and sendrecv instead of the\n"
    "                          collectives, families pt2pt,split,rma, 1 B to 4 MiB in powers of two\n"
    "                          (without --families, --sizes), measured by --pattern; 2 processes\n"
    "      --pattern P         point-to-point: pingpong (ranks 0 and 1), exchange (all pairs at\n"
    "                          once), onetoall (rank 0 to each), cart (sendrecv with the 4 neighbours\n"
    "                          on a 2-D Cartesian communicator; the topo family, TGT eq. 37, per\n"
    "                          direction), cartpair (each neighbour pair alone: eq. 37 per pair) [pingpong]\n"
    "  -m, --mockups LIST      only these mock-ups: registry names or guideline ids (GL5) [all];\n"
    "                          without -c: only the collectives of these mock-ups\n"
    "      --families LIST     guideline families (`mpiguide list` groups the rows by them), or all\n"
    "                          [preset]\n"
    "  -s, --sizes LIST        bytes for every chosen collective: 8,1K,64K, FROM:TO[:xF|:+S] [preset]\n"    "      --sizes-from TRACE  the collectives and sizes an application called, and its point-to-point\n"
    "                          operations that have a guideline (send, rsend, sendrecv; measured by\n"
    "                          --pattern): its MPIGUIDE_TRACE file (docs/trace.md), among those of -c;\n"
    "                          and its reductions' class:op pairs besides the preset's (fint:max\n"
    "                          with MPI_INTEGER, logical:lor with MPI_LOGICAL, ...)\n"
    "  -d, --datatype TYPE     [MPI_BYTE]    --op OP  [MPI_BOR; MPI_SUM for floating types]\n"
    "                          derived: vector:BLOCKLEN:STRIDE:BASE, resized:EXTENT:BASE,\n"
    "                          struct:T1,T2,... (not for the reductions: give them --reductions)\n"
    "      --root R            rooted collectives: always root R instead of the preset's rotation\n"
    "      --roots LIST        rotate the root every round: all, spread:K, or ranks 0,2 [preset]\n"
    "      --reductions LIST   reduce with each TYPE:OP pair, e.g. double:sum,int:sum [preset;\n"
    "                          --datatype/--op instead: that one pair; Fortran's MPI_INTEGER ...]\n"
    "      --counts SPEC       per-rank counts of the v-collectives and reduce_scatter: uniform,\n"
    "                          zeros:K, skew:F:S [uniform]\n"
    "      --sync METHOD       barrier, dbarrier, dissem, window, roundtime [barrier]\n"
    "      --lib-variants SPEC also the MPI library's own algorithms (Open MPI coll/tuned, MPICH\n"
    "                          MPIR_CVAR_<COLL>_INTRA_ALGORITHM) as contenders, rows lib:NAME: all, or\n"
    "                          COLL=NAME,...;COLL=all; compared in DIR/libvariants.csv, never verdicts\n"
    "                          (docs/libvar.md; `mpiguide libvars` lists them)\n"
    "      --in-place          every call with MPI_IN_PLACE (rooted: the root of each round; bcast,\n"
    "                          barrier: as usual), the inplace family added to the preset's; a\n"
    "                          profile tuned from it applies to every call of the size\n"    "      --overlap           also \"overlap must not cost\" (OVL): per collective with a non-blocking\n"
    "                          form and size, MPI_I<coll> + a computation of known length with k\n"
    "                          MPI_Test calls + MPI_Wait against the blocking call + the computation,\n"
    "                          after the collectives (DIR/overlap.csv, DIR/overlapverdicts.csv)\n"
    "      --overlap-tests LIST  --overlap's test counts k [" MG_CHECK_OVL_TESTS "]\n"
    "\n"
    "Repetitions (adaptive by default: until the relative standard error of the median <= --rse):\n"
    "      --budget T          time for the whole measurement, shared over the sizes [@BUDGET@];\n"
    "                          times accept s, ms, us\n"
    "      --rse X             [@RSE@]    --min-nrep N [@MIN@]\n"
    "      --max-nrep N        [@MAX@]   -n, --nrep N  exactly N instead\n"
    "      --stop-rule R       decided: a mock-up stops as soon as its comparison with the default\n"
    "                          is decided (violation or consistent at --margin, error <= 1 %\n"
    "                          over all looks; docs/statistics.md), the default when all its\n"
    "                          mock-ups stopped; rse: each by the rule above only [decided]\n"
    "  -w, --warmup W          warm-up rounds per size [@WARMUP@]\n"
    "      --no-shuffle        measure the variants of a round in registry order (default: shuffled)\n"
    "      --seed S            shuffle and bootstrap seed [1]\n"
    "\n"
    "Output:\n"
    "  -o, --out DIR           result directory [mpiguide-check-<launch>]; created if missing; one\n"
    "                          that already holds results is refused unless --force\n"
    "  -f, --force             replace the results in DIR\n"
    "      --resume            complete an interrupted check in DIR (Ctrl-C keeps what was\n"
    "                          measured): the same command with --resume measures only the cells\n"
    "                          missing; with --launches: finished launches kept, the interrupted one\n"
    "                          completed, the rest run\n"
    "      --launches N        run `LAUNCHER... mpiguide check [options] -o DIR/launch-K` N times, then\n"
    "                          analyse the launches together into DIR: verdicts that cover\n"
    "                          launch-to-launch variation (e.g. --launches 3 -o C -- mpirun -np 4)\n"
    "      --eta-from FILE     start the progress line's time estimate from an earlier launch of the\n"
    "                          same check (its raw.csv); --launches gives each launch the last\n"
    "                          finished one's\n"
    "      --launch-of K/N     this is launch K of N: the progress line says so and its ETA counts\n"
    "                          the launches after it; --launches gives it (without -q)\n"
    "      --from DIR...       analyse saved raw data (raw.csv, data_<MPI_Coll>_<variant>.dat, or a\n"
    "                          raw CSV file) of one or several launches; writes only with -o\n"
    "\n"
    "Analysis:\n"
    "      --test T            mwu (Wilcoxon rank-sum), welch, student [mwu]\n"
    "      --alpha A           significance level [0.05]      --no-holm  no Holm adjustment\n"
    "      --level L           ignored (kept for scripts): the interval's level is the decision's,\n"
    "                          alpha / (comparisons x looks) at each end (docs/statistics.md)\n"
    "      --resamples N       bootstrap resamples [1000]\n"
    "      --aa                add the A/A control: the default against itself (even vs odd rounds)\n"
    "      --noise T           noise threshold instead of the measured synchronisation cost\n"
    "      --margin M          'consistent' when the slowdown interval ends at or below 1 + M [0.05]\n"
    "      --min-span T        a violation whose launches span less than T is flagged S, and\n"
    "                          --launches N spaces its launches over T [60s; 0: no spacing]\n"
    "      --loggp FILE        LogGP parameters (`mpiguide loggp`): every measured cell's predicted\n"
    "                          time into DIR/predicted.csv, the prediction errors in the summary\n"
    "                          (docs/model.md)\n"
    "      --model-guided      with --loggp: measure the defaults first, then only the mock-ups whose\n"
    "                          predicted time is at most --model-slack x the default's median there\n"
    "      --model-slack F     how far the model may err, F >= 1 [1.5]\n"
    "\n"
    "Display (stdout of rank 0):\n"
    "      --comparer NAME     raw, abs-runtime, rel-runtime, violation, detailed-violation,\n"
    "                          grouped-violation [grouped-violation]\n"
    "      --csv | --json      the comparer's table as CSV or JSON (nothing else on stdout)\n"
    "      --merge             all collectives in one table\n"
    "  -q, --quiet             no tables, no progress      --no-progress  no progress line\n"
    "  -h, --help              this text\n"
    "\n"
    "Exit codes: 0 done (with or without violations), 1 run or analysis failed, 2 bad input.\n";

void mg_check_print_usage(FILE *f) {
  char pre[1280] = "", v[128];
  size_t u = 0;
  for (size_t i = 0; i < sizeof presets / sizeof presets[0] && u < sizeof pre; i++) {
    const mg_check_preset *p = &presets[i];
    char flag[24], budget[48] = "";
    snprintf(flag, sizeof flag, "--%s", p->name);
    if (p->budget > 0) snprintf(budget, sizeof budget, ", budget %gs", p->budget);
    u += (size_t)snprintf(pre + u, sizeof pre - u,
                          "      %-19s families %s: the %d collectives with a mock-up of them;\n"
                          "                          %d per-rank-block sizes %s;\n"
                          "                          %d whole-vector sizes %s%s;\n"
                          "                          roots %s; reductions %s\n",
                          flag, p->families, nchecked(p), count_items(p->block_sizes), p->block_sizes,
                          count_items(p->vector_sizes), p->vector_sizes, budget, p->roots, p->reductions);
  }
  for (const char *t = usage_text; *t;) { /* usage_text with its @NAME@ fields filled in */
    const char *at = strchr(t, '@'), *end = at ? strchr(at + 1, '@') : NULL;
    if (!end) {
      fputs(t, f);
      break;
    }
    fwrite(t, 1, (size_t)(at - t), f);
    size_t n = (size_t)(end - at - 1);
    if (!strncmp(at + 1, "PRESETS", n)) {
      fputs(pre, f);
    } else {
      int field = !strncmp(at + 1, "BUDGET", n)   ? 0
                  : !strncmp(at + 1, "MIN", n)    ? 1
                  : !strncmp(at + 1, "MAX", n)    ? 2
                  : !strncmp(at + 1, "WARMUP", n) ? 3
                                                  : 4;
      per_preset(v, sizeof v, field);
      fputs(v, f);
    }
    t = end + 1;
  }
}

