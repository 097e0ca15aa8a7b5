/*
 * libmpiguide's set-up and tear-down: reading the environment at MPI_Init
 * (parsers in env.c), making all ranks agree on it, building the context
 * (lib.h) and freeing it at MPI_Finalize. The per-call path is dispatch.c,
 * the public API api.c.
 *
 * Environment (docs/library.md):
 *   MPIGUIDE_ALG=coll=alg[,coll=alg...]  force algorithms; a bad name stops
 *                                        the run at MPI_Init (a benchmark must
 *                                        never measure the wrong thing)
 *   MPIGUIDE_TRACE=file                  rank 0 writes a trace at MPI_Finalize
 *   MPIGUIDE_TRACE_TIME=1                with a trace: time the calls, by call site
 *                                        (docs/trace.md, format 2)
 *   MPIGUIDE_SCRATCH_MAX=size            scratch cap per thread (default 64M);
 *                                        a bad value warns and keeps the default
 *   MPIGUIDE_PROFILE=file                tuned mode: run the profile's choices
 *                                        (collectives not forced by MPIGUIDE_ALG);
 *                                        a bad or differing profile warns once
 *                                        and every rank runs the defaults
 *   MPIGUIDE_PROFILE=auto                online tuning (online.c): learn the choices
 *                                        from the application's calls
 *   MPIGUIDE_ONLINE_TRIALS=T             timed calls per candidate (default 8, 3..32)
 *   MPIGUIDE_PROFILE_OUT=file            with auto: rank 0 writes the learned profile
 *                                        at MPI_Finalize
 *   MPIGUIDE_PROFILE_STORE=dir|none      the site's profile store (store.c), read when
 *                                        rank 0 has no MPIGUIDE_PROFILE
 *   MPIGUIDE_STRICT=1                    a profile applies only at a process count and
 *                                        layout it records; elsewhere the defaults run
 *   MPIGUIDE_TRACE and _PROFILE_OUT take %j %h %p %% (outfile.c, mg_out_expand)
 *   MPIGUIDE=off (0, no, false)          pure pass-through, nothing else read, no message;
 *                                        off on one rank is off on all (the agreement)
 *
 * Agreement: at MPI_Init every rank reduces a hash of its configuration, of
 * its profile and its error state with one PMPI_Allreduce, so either all
 * ranks run with the same configuration, or the run stops on all of them
 * with one message; a profile that is not the same on every rank is dropped
 * on every rank.
 */
#include <ctype.h>
#include <stdarg.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algs/algs.h"
#include "algs/layout.h"
#include "lib/acct.h"
#include "lib/lib.h"
#include "lib/outfile.h"
#include "loggp/loggp_file.h"
#include "tune/store.h"
#include "util/hash.h"
#include "util/process.h"
#include "util/size.h"
#include "mpiguide.h"

mg_ctx mg_the_ctx = {.scratch_max = MG_DEFAULT_SCRATCH_MAX, .trace_lock = PTHREAD_MUTEX_INITIALIZER};

/* Largest sensible cap: beyond it a value is surely a typo. */
#define MG_SCRATCH_ABSURD ((size_t)1 << 40)

/* What one rank read from its environment, before the ranks compare notes. */
typedef struct mg_env {
  const char *trace, *profile_path;
  char trace_buf[4096], out_buf[4096]; /* rank 0: MPIGUIDE_TRACE, _PROFILE_OUT with placeholders expanded */
  mg_store_pick store; /* the site's store's answer (store.c) */
  int from_store;      /* profile_path is the store's */
  int strict;          /* MPIGUIDE_STRICT=1 */
  int have_trace, trace_bad, trace_errno;
  int trace_time;      /* MPIGUIDE_TRACE_TIME=1 */
  int alg_bad;         /* MPIGUIDE_ALG is malformed or names something unknown */
  char errmsg[1400];   /* why, to print on this rank */
  char warn[1024];     /* warnings of rank 0 (a bad MPIGUIDE_SCRATCH_MAX, ...), one per line */
  mg_profile *prof;    /* MPIGUIDE_PROFILE as read here, or NULL */
  int online;          /* MPIGUIDE_PROFILE=auto */
  int trials;          /* MPIGUIDE_ONLINE_TRIALS */
  const char *out;     /* MPIGUIDE_PROFILE_OUT (online), or NULL */
  int out_bad, out_errno;
  mg_profile_diags diags;
  int prof_bad;
  int off;             /* MPIGUIDE=off (util/process.h): nothing else is read */
  int progress;        /* MPIGUIDE_PROGRESS=thread */
} mg_env;

/*
 * The one reduction at MPI_Init, with MPI_MAX over all fields; a neg_ field
 * holds a negated value, so that its maximum is minus the minimum. A value is
 * equal on every rank iff max == -max(neg). first_* fields hold -rank of a
 * rank with a problem (-INT32_MAX if none), so the maximum names the first.
 */
typedef struct mg_agreement {
  int cfg, neg_cfg;               /* hash of MPIGUIDE_ALG, _SCRATCH_MAX and whether a trace is on */
  int neg_first_alg_bad;          /* a rank whose MPIGUIDE_ALG is bad */
  int trace_bad;                  /* rank 0 cannot write the trace file */
  int out0;                       /* rank 0's MPIGUIDE_PROFILE_OUT: 0 unset, 1 writable, 2 not writable
                                     (it writes the learned profile; the other ranks take part) */
  int prof_hi, neg_prof_hi;       /* profile content hash, high and low halves */
  int prof_lo, neg_prof_lo;
  int neg_first_prof_bad;         /* a rank whose profile is unusable */
  int off;                        /* a rank with MPIGUIDE=off: pass-through on every rank */
  int no_multiple;                /* a rank that asked for the progress thread and has no MPI_THREAD_MULTIPLE */
} mg_agreement;
#define MG_AGREEMENT_INTS ((int)(sizeof(mg_agreement) / sizeof(int)))
_Static_assert(sizeof(mg_agreement) % sizeof(int) == 0, "mg_agreement is reduced as MPI_INT");

static int first_rank(int neg_max) { return neg_max == -INT32_MAX ? -1 : -neg_max; }

/* Add a warning for rank 0 to print at MPI_Init (each on a line of its own). */
__attribute__((format(printf, 2, 3))) static void add_warn(mg_env *v, const char *fmt, ...) {
  size_t n = strlen(v->warn);
  if (n) n += (size_t)snprintf(v->warn + n, sizeof v->warn - n, "\nmpiguide: warning: ");
  if (n >= sizeof v->warn) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v->warn + n, sizeof v->warn - n, fmt, ap);
  va_end(ap);
}

/* Rank 0: a file name of MPIGUIDE_TRACE or _PROFILE_OUT with its placeholders expanded (%j job, %h
 * host, %p pid, %%; outfile.h) into buf; a bad placeholder is one warning and the name is kept as
 * written. */
static const char *expand_name(mg_env *v, const char *var, const char *name, char *buf, size_t len) {
  char host[256], e[300];
  mg_layout_host(host, sizeof host);
  if (mg_out_expand(name, mg_out_job_id(), host, (long)getpid(), buf, len, e, sizeof e) == 0) return buf;
  add_warn(v, "%s='%.200s': %s; the name is used as written", var, name, e);
  return name;
}

/* MPIGUIDE_PROFILE=auto and its companions (online.c). */
static void read_online_env(int rank, mg_env *v) {
  v->online = 1;
  v->trials = MG_ONLINE_TRIALS_DEFAULT;
  const char *t = getenv("MPIGUIDE_ONLINE_TRIALS");
  if (t && *t) {
    char *end;
    long k = strtol(t, &end, 10);
    if (*end || k < 3 || k > MG_ONLINE_TRIALS_MAX)
      add_warn(v, "MPIGUIDE_ONLINE_TRIALS='%.100s' is not a number from 3 to %d; using %d", t, MG_ONLINE_TRIALS_MAX,
               MG_ONLINE_TRIALS_DEFAULT);
    else
      v->trials = (int)k;
  }
  v->out = getenv("MPIGUIDE_PROFILE_OUT");
  if (v->out && !*v->out) v->out = NULL;
  if (v->out && rank == 0) v->out = expand_name(v, "MPIGUIDE_PROFILE_OUT", v->out, v->out_buf, sizeof v->out_buf);
  if (v->out && rank == 0 && (v->out_errno = mg_out_probe(v->out)) != 0) v->out_bad = 1;
}

/*
 * MPIGUIDE_LOGGP and MPIGUIDE_MODEL_FACTOR (online tuning, online.c): rank 0 reads its file and
 * factor and broadcasts them (collective over MPI_COMM_WORLD; every rank is online here, the
 * agreement saw to that), so that every rank prices and prunes a cell's candidates alike, whatever
 * the other ranks' environments say. A file rank 0 cannot read is one warning: trials only.
 */
#define MG_MODEL_FACTOR_DEFAULT 2.0
static void online_model(mg_ctx *x, int rank) {
  struct {
    int ok;
    double factor;
    mg_loggp m;
  } b = {0, MG_MODEL_FACTOR_DEFAULT, {0}};
  if (rank == 0) {
    const char *path = getenv("MPIGUIDE_LOGGP"), *f = getenv("MPIGUIDE_MODEL_FACTOR");
    char e[600];
    if (f && *f) {
      char *end;
      double v = strtod(f, &end);
      if (*end || !(v >= 1 && v <= 1e6))
        fprintf(stderr, "mpiguide: warning: MPIGUIDE_MODEL_FACTOR='%.100s' is not a number from 1 to 1e6; using %g\n",
                f, MG_MODEL_FACTOR_DEFAULT);
      else
        b.factor = v;
    }
    if (path && *path) {
      b.ok = mg_loggp_read(path, &b.m, e, sizeof e) == 0;
      if (!b.ok)
        fprintf(stderr, "mpiguide: warning: MPIGUIDE_LOGGP: %s; online tuning tries every candidate\n", e);
    }
  }
  /* as bytes: the ranks of one job share one ABI (homogeneous doubles) */
  if (PMPI_Bcast(&b, (int)sizeof b, MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS || !b.ok) return;
  x->online_lg = b.m;
  x->online_model = 1;
  x->model_factor = b.factor;
}

int mg_progress_wanted(void) {
  const char *p = getenv("MPIGUIDE_PROGRESS");
  return p && !strcmp(p, "thread") && !mg_proc_off(getenv("MPIGUIDE"));
}

static void read_env(mg_ctx *x, int rank, mg_env *v) {
  const char *progress = getenv("MPIGUIDE_PROGRESS");
  v->progress = mg_progress_wanted();
  if (progress && *progress && !v->progress && strcmp(progress, "off") != 0)
    add_warn(v, "MPIGUIDE_PROGRESS='%.100s' is neither 'thread' nor 'off'; no progress thread", progress);
  const char *alg = getenv("MPIGUIDE_ALG");
  if (alg && *alg) {
    char m[900];
    if (mg_parse_force(alg, x->forced, m, sizeof m) != MPIGUIDE_OK) {
      snprintf(v->errmsg, sizeof v->errmsg, "MPIGUIDE_ALG='%.200s': %s", alg, m);
      v->alg_bad = 1;
    }
  }
  const char *smax = getenv("MPIGUIDE_SCRATCH_MAX");
  if (smax && *smax) {
    size_t val;
    if (mg_parse_size(smax, &val) != 0 || val > MG_SCRATCH_ABSURD)
      add_warn(v, "MPIGUIDE_SCRATCH_MAX='%.100s' is not a size from 0 to 1T (e.g. 64M, 512K, 0); using the default 64M",
               smax);
    else
      x->scratch_max = val;
  }
  v->trace = getenv("MPIGUIDE_TRACE");
  v->have_trace = v->trace && *v->trace;
  if (v->have_trace && rank == 0) v->trace = expand_name(v, "MPIGUIDE_TRACE", v->trace, v->trace_buf, sizeof v->trace_buf);
  const char *tt = getenv("MPIGUIDE_TRACE_TIME");
  v->trace_time = v->have_trace && tt && *tt && strcmp(tt, "0") != 0;
  /* rank 0 writes it: can it? (outfile.h: a symbolic link is followed, nothing is left behind) */
  if (v->have_trace && rank == 0 && (v->trace_errno = mg_out_probe(v->trace)) != 0)
    v->trace_bad = 1;
  /* The profile: every rank reads it; its content hash must agree (paths may differ). */
  v->profile_path = getenv("MPIGUIDE_PROFILE");
  const char *strict = getenv("MPIGUIDE_STRICT");
  v->strict = strict && *strict && strcmp(strict, "0") != 0;
  /* the site's store when rank 0 has no MPIGUIDE_PROFILE (collective, store.c); a rank's own
   * MPIGUIDE_PROFILE overrides it (and then differs: the profile agreement sets both aside) */
  if (mg_store_pick_profile(rank, v->profile_path, &v->store) && !(v->profile_path && *v->profile_path)) {
    v->profile_path = v->store.path;
    v->from_store = 1;
  }
  if (v->profile_path && strcmp(v->profile_path, "auto") == 0)
    read_online_env(rank, v);
  else if (v->profile_path && *v->profile_path)
    v->prof_bad = mg_profile_open(v->profile_path, &v->prof, &v->diags) != MG_PROFILE_OK;
  static const char *const online_only[] = {"MPIGUIDE_PROFILE_OUT", "MPIGUIDE_ONLINE_TRIALS", "MPIGUIDE_LOGGP",
                                            "MPIGUIDE_MODEL_FACTOR"};
  for (size_t i = 0; !v->online && i < sizeof online_only / sizeof *online_only; i++) {
    const char *val = getenv(online_only[i]);
    if (val && *val)
      add_warn(v, "%s='%.100s' is ignored: it belongs to online tuning (MPIGUIDE_PROFILE=auto)", online_only[i], val);
  }
}

static int agree(const mg_ctx *x, int rank, const mg_env *v, mg_agreement *all) {
  uint32_t h = mg_fnv1a(MG_FNV1A_INIT, x->forced, sizeof x->forced);
  h = mg_fnv1a(h, &x->scratch_max, sizeof x->scratch_max);
  h = mg_fnv1a(h, &v->have_trace, sizeof v->have_trace);
  h = mg_fnv1a(h, &v->trace_time, sizeof v->trace_time);
  h = mg_fnv1a(h, &v->progress, sizeof v->progress);
  uint64_t ph = v->prof ? mg_profile_hash(v->prof) : 0;
  if (v->prof && v->strict) /* strict or not is agreed like the profile: ranks that differ run the defaults */
    ph = mg_fnv1a64(ph, "strict", 6) | 1u;
  if (v->online) /* online tuning and its trials agree like a profile: differing ranks run the defaults */
    ph = mg_fnv1a(mg_fnv1a(MG_FNV1A_INIT, "auto", 4), &v->trials, sizeof v->trials) | 1u;
  mg_agreement mine = {
      .cfg = (int)(h >> 1),
      .neg_cfg = -(int)(h >> 1),
      .neg_first_alg_bad = v->alg_bad ? -rank : -INT32_MAX,
      .trace_bad = v->trace_bad,
      .out0 = rank == 0 && v->online && v->out ? 1 + v->out_bad : 0,
      .prof_hi = (int)(ph >> 33),
      .neg_prof_hi = -(int)(ph >> 33),
      .prof_lo = (int)(ph & 0x7fffffff),
      .neg_prof_lo = -(int)(ph & 0x7fffffff),
      .neg_first_prof_bad = v->prof_bad ? -rank : -INT32_MAX,
      .off = v->off,
      .no_multiple = v->progress && x->thread_level < MPI_THREAD_MULTIPLE,
  };
  return PMPI_Allreduce(&mine, all, MG_AGREEMENT_INTS, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
}

/* A bad or differing MPIGUIDE_ALG/_SCRATCH_MAX/_TRACE stops the run on every rank. */
static void stop_if_disagree(int rank, const mg_env *v, const mg_agreement *all) {
  int first_err = first_rank(all->neg_first_alg_bad);
  if (first_err < 0 && all->cfg == -all->neg_cfg) return;
  if (first_err == rank)
    fprintf(stderr, "mpiguide: %s\nmpiguide: stopping the run (rank %d); fix MPIGUIDE_ALG or unset it\n",
            v->errmsg, rank);
  else if (first_err < 0 && rank == 0)
    fprintf(stderr, "mpiguide: the ranks were started with different MPIGUIDE_ALG, "
                    "MPIGUIDE_SCRATCH_MAX, MPIGUIDE_TRACE or MPIGUIDE_PROGRESS settings; stopping the run\n");
  PMPI_Finalize();
  exit(EXIT_FAILURE);
}

/* A profile that is bad on some rank or differs between ranks: one warning, no tuning. */
static int profile_agreed(int rank, const mg_env *v, const mg_agreement *all) {
  int first_bad = first_rank(all->neg_first_prof_bad);
  if (first_bad < 0 && all->prof_hi == -all->neg_prof_hi && all->prof_lo == -all->neg_prof_lo) return 1;
  if (first_bad == rank) {
    fprintf(stderr, "mpiguide: warning: MPIGUIDE_PROFILE='%s' is not usable on rank %d; "
                    "tuning is off on all ranks, the defaults run:\n", v->profile_path, rank);
    for (int i = 0; i < v->diags.n; i++) {
      char line[600];
      mg_profile_diag_format(&v->diags.v[i], line, sizeof line);
      fprintf(stderr, "mpiguide:   %s\n", line);
    }
    if (v->diags.dropped) fprintf(stderr, "mpiguide:   (%d more problems)\n", v->diags.dropped);
  } else if (first_bad < 0 && rank == 0) {
    fprintf(stderr, "mpiguide: warning: the ranks have different MPIGUIDE_PROFILE contents (or some have "
                    "none); tuning is off on all ranks, the defaults run\n");
  }
  return 0;
}

/*
 * libmpiguide preloaded into a program of another MPI library (built for Open
 * MPI, run under MPICH, or the reverse) would pass its handles to the other
 * library: an "Invalid communicator" abort or a segfault at the first call.
 * MPI_Get_library_version needs no handle, so it is asked first; on a
 * mismatch every process stops with one line that says what to use instead.
 */
static void stop_if_other_mpi(void) {
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "";
  int len = 0;
  if (!MG_BUILT_FOR || PMPI_Get_library_version(lib, &len) != MPI_SUCCESS) return;
  if (strncmp(lib, MG_BUILT_FOR, strlen(MG_BUILT_FOR)) == 0) return;
  lib[strcspn(lib, "\r\n,;")] = '\0';
  for (char *t = lib; *t; t++)
    if (*t == '\t') *t = ' ';
  const char *other = strcmp(MG_BUILT_FOR, "MPICH") == 0 ? "Open MPI" : "MPICH";
  fprintf(stderr,
          "mpiguide: this libmpiguide (%s) was built for %s, but the program runs %.80s; stopping. Link or "
          "preload the libmpiguide built for %s (`mpiguide env --lib PROGRAM` names it; in LD_PRELOAD, "
          "libmpiguide-preload.so picks the right one), or run the program with %s.\n",
          mg_lib_file(), MG_BUILT_FOR, lib, other, MG_BUILT_FOR);
  fflush(stderr);
  _exit(EXIT_FAILURE);
}

/*
 * A profile records where it was measured (mpiguide tune writes "np=N: MPI library: ..." into
 * its preamble). Choices measured on another MPI library need not hold for this one: rank 0
 * warns once and the profile stays in force (it is the user's to keep or drop).
 */
/* The layout a profile was measured on at this process count ("np=N: layout: K node(s) x R ranks
 * per node", R as check's #@ranks_per_node: "2" or "1-3", as tune and online tuning write it; older
 * profiles give K alone): K, and R in rpn ("" when not given); 0 if the profile does not say. */
/* A run of 1 to 9 decimal digits at s into *v (at most 999999999), *end after it; 0 when there is none. */
static int digits(const char *s, long *v, const char **end) {
  size_t n = strspn(s, "0123456789");
  if (n == 0 || n > 9) return 0;
  *v = strtol(s, NULL, 10);
  *end = s + n;
  return 1;
}

static int profile_layout(const mg_profile *prof, int nprocs, char *rpn, size_t len) {
  rpn[0] = '\0';
  for (int i = 0; i < mg_profile_npreamble(prof); i++) {
    const char *line = mg_profile_preamble_at(prof, i);
    /* digits read by hand, in range: the preamble is free text (sscanf's %d overflowed on
     * "np=99999999999") */
    const char *p = line;
    long np = 0, nodes = 0;
    if (strncmp(p, "np=", 3) || !digits(p += 3, &np, &p) || np != nprocs || strncmp(p, ": layout: ", 10) ||
        !digits(p += 10, &nodes, &p) || strncmp(p, " node(s)", 8))
      continue;
    p += 8;
    if (!strncmp(p, " x ", 3)) {
      size_t n = strspn(p + 3, "0123456789-");
      if (n && n < 32 && !strncmp(p + 3 + n, " ranks per node", 15)) snprintf(rpn, len, "%.*s", (int)n, p + 3);
    }
    return (int)nodes;
  }
  return 0;
}

/* Collective (every rank has the same profile): whether the profile was measured on this run's
 * layout at this process count: 1 yes; 0 on another layout, other nodes or, on as many nodes, other
 * ranks per node (1 x 4 and 2 x 2, or 2 x 2 and 3 + 1), with what it records and what this run
 * has in why; -1 it records no layout for this process count (or this run's is unknown). Where the
 * nodes' boundaries are decides what the hier rows and the library's own node-aware algorithms
 * gain. */
static int layout_matches(const mg_profile *prof, char *why, size_t len) {
  int size = 0;
  char want_rpn[32], have_rpn[32];
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  int want = profile_layout(prof, size, want_rpn, sizeof want_rpn);
  if (!want) { /* the same on every rank (one profile): no collective then */
    snprintf(why, len, "records no layout at %d processes", size);
    return -1;
  }
  mg_layout have;
  if (mg_layout_collect(MPI_COMM_WORLD, &have) != MPI_SUCCESS || have.nnodes <= 0) return -1;
  if (!want_rpn[0] && want == 1) snprintf(want_rpn, sizeof want_rpn, "%d", size); /* one node holds them all */
  mg_layout_rpn(&have, have_rpn, sizeof have_rpn);
  if (want == have.nnodes && (!want_rpn[0] || strcmp(want_rpn, have_rpn) == 0)) return 1;
  snprintf(why, len, "was measured on %d node(s) at %d processes, this run has %d node(s) x %s ranks per node (the "
           "profile's: %d x %s)", want, size, have.nnodes, have_rpn, want, want_rpn[0] ? want_rpn : "?");
  return 0;
}

/* Rank 0 warns once when the profile was measured on another layout than this run's; the profile
 * stays in force. Collective. */
static void warn_if_other_layout(const mg_profile *prof, const char *path, int rank) {
  char why[300];
  if (layout_matches(prof, why, sizeof why) == 0 && rank == 0)
    fprintf(stderr, "mpiguide: warning: MPIGUIDE_PROFILE='%s' %s: its choices may not hold for this layout\n", path,
            why);
}

/* MPIGUIDE_STRICT=1 (collective): the reason the profile does not apply to this run, into why, or
 * 0 when it applies: it must record this run's layout at this process count. */
static int set_aside(const mg_profile *prof, char *why, size_t len) {
  char w[300] = "";
  int m = layout_matches(prof, w, sizeof w);
  if (m == 1) return 0;
  snprintf(why, len, "MPIGUIDE_STRICT=1: the profile %s", w[0] ? w : "cannot be compared with this run's layout (unknown)");
  return 1;
}

static void warn_if_measured_elsewhere(const mg_profile *prof, const char *path);

/* The profile every rank agreed on, at MPI_Init (collective): in force, or set aside by strict
 * mode; where it came from, for the trace. A profile from the site's store warns of nothing (the
 * site's users would get a warning per job; the trace records it). */
static void take_profile(mg_ctx *x, mg_env *v, int rank) {
  x->profile_path = strdup(v->profile_path);
  x->profile_hash = mg_profile_hash(v->prof);
  if (v->from_store) {
    x->profile_store = strdup(v->store.store);
    x->profile_release = strdup(v->store.release);
    x->profile_level = v->store.level;
  }
  char why[400];
  if (v->strict && set_aside(v->prof, why, sizeof why)) {
    if (rank == 0 && !v->from_store)
      fprintf(stderr, "mpiguide: MPIGUIDE_PROFILE='%s' is set aside, the defaults run: %s\n", v->profile_path, why);
    x->profile_aside = strdup(why);
    mg_profile_free(v->prof);
    v->prof = NULL;
    return;
  }
  x->profile = v->prof;
  if (v->from_store) return;
  if (rank == 0) warn_if_measured_elsewhere(v->prof, v->profile_path);
  warn_if_other_layout(v->prof, v->profile_path, rank);
}

static void warn_if_measured_elsewhere(const mg_profile *prof, const char *path) {
  char running[MPI_MAX_LIBRARY_VERSION_STRING], want[256], have[256];
  int len = 0;
  if (PMPI_Get_library_version(running, &len) != MPI_SUCCESS) return;
  mg_library_key(running, have, sizeof have);
  for (int i = 0; i < mg_profile_npreamble(prof); i++) {
    const char *line = mg_profile_preamble_at(prof, i), *lib = strstr(line, "MPI library: ");
    if (!lib) continue;
    mg_library_key(lib + strlen("MPI library: "), want, sizeof want);
    if (*want && strcmp(want, have) != 0) {
      fprintf(stderr, "mpiguide: warning: MPIGUIDE_PROFILE='%s' was measured with %s, this run uses %s: its "
                      "choices may not hold here (check and tune again with this library)\n", path, want, have);
      return;
    }
  }
}

void mg_lib_init(int thread_level) {
  mg_ctx *x = &mg_the_ctx;
  mg_env v = {0};
  mg_agreement all;
  int rank = 0;
  stop_if_other_mpi();
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  x->thread_level = thread_level;
  v.off = mg_proc_off(getenv("MPIGUIDE"));
  if (!v.off)
    read_env(x, rank, &v);
  else /* read_env's store pick is collective (store.c): an off rank takes part; off on rank 0 means no store */
    mg_store_pick_profile(rank, "off", &v.store);
  int agreed = agree(x, rank, &v, &all) == MPI_SUCCESS;
  if (!agreed || all.off) { /* off on one rank: pass-through on all, silently */
    mg_profile_free(v.prof);
    mg_profile_diags_free(&v.diags);
    memset(x->forced, 0, sizeof x->forced);
    if (!agreed) fprintf(stderr, "mpiguide: agreement at MPI_Init failed; running as plain pass-through\n");
    return;
  }
  stop_if_disagree(rank, &v, &all);
  if (rank == 0 && v.warn[0]) fprintf(stderr, "mpiguide: warning: %s\n", v.warn);
  mg_progress_on = v.progress && !all.no_multiple; /* equal on every rank (src/algs/sched.c) */
  mg_acct_progress(mg_progress_on);
  if (mg_progress_on) mg_sched_shadow_make(MPI_COMM_WORLD); /* every rank: collective (src/algs/sched.c) */
  if (v.progress && all.no_multiple && rank == 0)
    fprintf(stderr, "mpiguide: warning: MPIGUIDE_PROGRESS=thread, but the MPI library did not provide "
                    "MPI_THREAD_MULTIPLE on every rank; no progress thread: the schedule rows run the default "
                    "(no_progress)\n");
  if (v.have_trace && all.trace_bad) {
    if (rank == 0)
      fprintf(stderr, "mpiguide: warning: MPIGUIDE_TRACE='%s' cannot be written (%s); no trace\n", v.trace,
              strerror(v.trace_errno));
    v.have_trace = 0;
  }
  if (!profile_agreed(rank, &v, &all)) {
    mg_profile_free(v.prof);
    v.prof = NULL;
    v.online = 0;
  }
  if (v.online && all.out0 == 2 && rank == 0) /* rank 0's answer: all ranks learn, none writes */
    fprintf(stderr, "mpiguide: warning: MPIGUIDE_PROFILE_OUT='%s' cannot be written (%s); the learned profile "
                    "is not saved\n", v.out, strerror(v.out_errno));
  mg_profile_diags_free(&v.diags);
  if (mg_core_init() != MPI_SUCCESS || mg_comm_cache_init() != MPI_SUCCESS) {
    fprintf(stderr, "mpiguide: cannot set up (MPI_Comm_dup or MPI_Comm_create_keyval failed); pass-through\n");
    mg_profile_free(v.prof);
    return;
  }
  if (v.prof) take_profile(x, &v, rank);
  if (v.online) {
    x->online = 1;
    x->online_trials = v.trials;
    x->profile_out = all.out0 == 1 ? strdup(rank == 0 ? v.out : "-") : NULL; /* every rank or none takes part */
    x->wall_start = PMPI_Wtime();
    online_model(x, rank);
  }
  if (v.have_trace) { /* a table that could not be allocated contributes no rows */
    x->trace_path = strdup(v.trace);
    x->trace = mg_trace_new();
    x->trace_time = v.trace_time;
    x->wall_start = PMPI_Wtime();
    mg_acct_init(x->trace && x->trace_time); /* every other MPI function timed too (lib/acct.h) */
  }
  int any_forced = 0;
  for (int i = 0; i < MG_NCOLL; i++) any_forced |= x->forced[i] != 0;
  x->active = any_forced || v.have_trace || x->profile || x->online;
  x->counting = any_forced || v.have_trace; /* tuned production runs skip the counters */
  x->tuned_only = x->profile && !x->counting; /* the wrappers' fast path (lib.h) */
  mg_paths_set(x);
  x->initialized = 1;
}

void mg_paths_set(mg_ctx *x) {
  uint64_t ruled = 0; /* the operations the profile has a rule for, at any process count */
  _Static_assert(MG_NCOLL <= 64, "profile_ruled: one bit per operation");
  for (int i = 0; x->profile && i < mg_profile_nrules(x->profile); i++)
    ruled |= (uint64_t)1 << mg_profile_rule_at(x->profile, i)->coll;
  x->profile_ruled = ruled;
  for (int k = 0; k < MG_NCOLL; k++) {
    unsigned char p;
    if (!x->active)
      p = MG_PATH_PMPI;
    else if (x->forced[k] || x->trace_path || x->trace || (x->online && !mg_coll_is_p2p((mg_coll)k)))
      p = MG_PATH_DISPATCH; /* online tuning learns collectives only: its point-to-point calls run the default */
    else if ((ruled >> k) & 1)
      p = x->counting ? MG_PATH_DISPATCH : MG_PATH_TUNED;
    else /* no rule: mg_dispatch would run the default, counted or not */
      p = x->counting ? MG_PATH_COUNT : MG_PATH_PMPI;
    x->path[k] = p;
  }
  mg_acct_watch_comms(x->active); /* equal on every rank, as the modes are */
}

void mg_lib_finalize(void) {
  mg_ctx *x = &mg_the_ctx;
  if (!x->initialized) return;
  mg_sched_finalize(); /* the progress thread stopped, the shadows freed (src/algs/sched.c) */
  mg_progress_on = 0;
  mg_acct_progress(0);
  mg_acct_finalize(); /* from here the generated wrappers pass through */
  if (x->trace_path) { /* collective: every rank takes part, table or not */
    mg_trace_write(x->trace, x->trace_path, x->trace_time, x->wall_start);
    mg_trace_free(x->trace);
    x->trace = NULL;
  }
  free(x->trace_path);
  x->trace_path = NULL;
  x->trace_time = 0;
  x->active = 0;
  x->tuned_only = 0;
  mg_paths_set(x); /* every wrapper passes through from here on */
  x->initialized = 0;
  mg_comm_cache_finalize(); /* first: the communicators' unfinished cells count in what online tuning cost */
  if (x->online) mg_online_finalize(x->profile_out, x->wall_start);
  x->online = 0;
  free(x->profile_out);
  x->profile_out = NULL;
  mg_profile_free(x->profile);
  x->profile = NULL;
  free(x->profile_path);
  x->profile_path = NULL;
  free(x->profile_store);
  free(x->profile_release);
  free(x->profile_aside);
  x->profile_store = x->profile_release = x->profile_aside = NULL;
  x->profile_hash = 0;
  x->profile_level = 0;
  mg_rma_finalize();  /* its windows live on the private communicators mg_core_finalize frees */
  mg_neighbor_finalize();
  mg_hier_finalize(); /* node and lane communicators, split from the private ones */
  mg_core_finalize();
}

