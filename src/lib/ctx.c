/*
 * libmpiguide's context: reading the environment at MPI_Init, making all
 * ranks agree on it, choosing the algorithm of each call, counting, and the
 * public API.
 *
 * Environment (docs/library.md):
 *   MPIGUIDE_ALG=coll=alg[,coll=alg...]  force algorithms; a bad name stops
 *                                        the run at MPI_Init (a benchmark must
 *                                        never measure the wrong thing)
 *   MPIGUIDE_TRACE=file                  rank 0 writes a trace at MPI_Finalize
 *   MPIGUIDE_SCRATCH_MAX=size            scratch cap per thread (default 64M);
 *                                        a bad value warns and keeps the default
 *   MPIGUIDE_PROFILE=file                tuned mode: run the profile's choices
 *                                        (collectives not forced by MPIGUIDE_ALG);
 *                                        a bad or differing profile warns once
 *                                        and every rank runs the defaults
 *
 * Agreement: at MPI_Init every rank reduces a hash of its configuration, of
 * its profile and its error state with one PMPI_Allreduce, so either all
 * ranks run with the same configuration, or the run stops on all of them
 * with one message; a profile that is not the same on every rank is dropped
 * on every rank.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "algs/algs.h"
#include "lib/lib.h"
#include "util/size.h"
#include "mpiguide.h"

mg_ctx mg_the_ctx = {.scratch_max = MG_DEFAULT_SCRATCH_MAX, .trace_lock = PTHREAD_MUTEX_INITIALIZER};

/* ---------- parsing ---------- */

static void list_valid(char *msg, size_t len, int coll) {
  size_t used = strlen(msg);
  if (coll < 0) {
    used += (size_t)snprintf(msg + used, len - used, "; valid collectives:");
    for (int i = 0; i < MG_NCOLL && used < len; i++)
      used += (size_t)snprintf(msg + used, len - used, " %s", mg_colls[i].name);
  } else {
    used += (size_t)snprintf(msg + used, len - used, "; valid for %s:", mg_colls[coll].name);
    for (int i = 0; i < mg_colls[coll].nalgs && used < len; i++)
      used += (size_t)snprintf(msg + used, len - used, " %s", i ? mg_colls[coll].algs[i].name : "default");
  }
}

int mg_parse_force(const char *spec, int forced[MG_NCOLL], char *msg, size_t msglen) {
  int out[MG_NCOLL] = {0};
  char item[256];
  const char *p = spec;
  msg[0] = '\0';
  while (*p) {
    size_t n = strcspn(p, ",");
    if (n == 0) { /* tolerate empty items ("a=b,,c=d", trailing comma) */
      p++;
      continue;
    }
    if (n >= sizeof item) {
      snprintf(msg, msglen, "item '%.40s...' is too long", p);
      return MPIGUIDE_ERR_SYNTAX;
    }
    memcpy(item, p, n);
    item[n] = '\0';
    p += n + (p[n] == ',');
    char *eq = strchr(item, '=');
    if (!eq || eq == item || !eq[1]) {
      snprintf(msg, msglen, "'%s' is not of the form <collective>=<algorithm>", item);
      list_valid(msg, msglen, -1);
      return MPIGUIDE_ERR_SYNTAX;
    }
    *eq = '\0';
    int coll = mg_coll_find(item);
    if (coll < 0) {
      snprintf(msg, msglen, "unknown collective '%s'", item);
      list_valid(msg, msglen, -1);
      return MPIGUIDE_ERR_COLLECTIVE;
    }
    int alg = mg_alg_find((mg_coll)coll, eq + 1);
    if (alg < 0) {
      snprintf(msg, msglen, "unknown algorithm '%s' for %s", eq + 1, item);
      list_valid(msg, msglen, coll);
      return MPIGUIDE_ERR_ALGORITHM;
    }
    out[coll] = alg;
  }
  memcpy(forced, out, sizeof out);
  return MPIGUIDE_OK;
}

int mg_parse_size(const char *s, size_t *out) { return mg_size_parse(s, out) == MG_SIZE_OK ? 0 : -1; }

/* ---------- MPI_Init / MPI_Finalize ---------- */

static uint32_t fnv1a(uint32_t h, const void *p, size_t n) {
  const unsigned char *b = p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 16777619u;
  return h;
}

/* Largest sensible cap: beyond it a value is surely a typo. */
#define MG_SCRATCH_ABSURD ((size_t)1 << 40)

void mg_lib_init(int thread_level) {
  mg_ctx *x = &mg_the_ctx;
  char errmsg[1400] = "", warn[512] = "";
  int rank = 0, err = 0;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  x->thread_level = thread_level;

  const char *alg = getenv("MPIGUIDE_ALG");
  if (alg && *alg) {
    char m[900];
    if (mg_parse_force(alg, x->forced, m, sizeof m) != MPIGUIDE_OK) {
      snprintf(errmsg, sizeof errmsg, "MPIGUIDE_ALG='%.200s': %s", alg, m);
      err = 1;
    }
  }
  const char *smax = getenv("MPIGUIDE_SCRATCH_MAX");
  if (smax && *smax) {
    size_t v;
    if (mg_parse_size(smax, &v) != 0 || v > MG_SCRATCH_ABSURD)
      snprintf(warn, sizeof warn,
               "MPIGUIDE_SCRATCH_MAX='%.100s' is not a size from 0 to 1T (e.g. 64M, 512K, 0); "
               "using the default 64M", smax);
    else
      x->scratch_max = v;
  }
  const char *tr = getenv("MPIGUIDE_TRACE");
  int trace_bad = 0, trace_errno = 0;
  if (tr && *tr && rank == 0) { /* rank 0 writes the trace: check it can, now */
    int existed = access(tr, F_OK) == 0;
    FILE *f = fopen(tr, "a");
    if (!f) {
      trace_bad = 1;
      trace_errno = errno;
    }
    else {
      fclose(f);
      if (!existed) unlink(tr);
    }
  }

  /* One reduction: configuration hash (min and max), first failing rank, trace. */
  uint32_t h = fnv1a(2166136261u, x->forced, sizeof x->forced);
  h = fnv1a(h, &x->scratch_max, sizeof x->scratch_max);
  int have_trace = tr && *tr;
  h = fnv1a(h, &have_trace, sizeof have_trace);
  /* The profile: every rank reads it; its content hash must agree (paths may differ). */
  const char *pf = getenv("MPIGUIDE_PROFILE");
  mg_profile *prof = NULL;
  mg_profile_diags diags = {0};
  int prof_bad = 0;
  if (pf && *pf) prof_bad = mg_profile_open(pf, &prof, &diags) != MG_PROFILE_OK;
  uint64_t ph = prof ? mg_profile_hash(prof) : 0;
  int mine[9] = {(int)(h >> 1), -(int)(h >> 1), err ? -rank : -INT32_MAX, trace_bad,
                 (int)(ph >> 33), -(int)(ph >> 33), (int)(ph & 0x7fffffff), -(int)(ph & 0x7fffffff),
                 prof_bad ? -rank : -INT32_MAX};
  int all[9];
  if (PMPI_Allreduce(mine, all, 9, MPI_INT, MPI_MAX, MPI_COMM_WORLD) != MPI_SUCCESS) {
    mg_profile_free(prof);
    mg_profile_diags_free(&diags);
    fprintf(stderr, "mpiguide: agreement at MPI_Init failed; running as plain pass-through\n");
    return;
  }
  int first_err = all[2] == -INT32_MAX ? -1 : -all[2];
  if (first_err >= 0 || all[0] != -all[1]) {
    if (first_err == rank)
      fprintf(stderr, "mpiguide: %s\nmpiguide: stopping the run (rank %d); fix MPIGUIDE_ALG or unset it\n",
              errmsg, rank);
    else if (first_err < 0 && rank == 0)
      fprintf(stderr, "mpiguide: the ranks were started with different MPIGUIDE_ALG, "
                      "MPIGUIDE_SCRATCH_MAX or MPIGUIDE_TRACE settings; stopping the run\n");
    PMPI_Finalize();
    exit(EXIT_FAILURE);
  }
  if (rank == 0 && warn[0]) fprintf(stderr, "mpiguide: warning: %s\n", warn);
  if (have_trace && all[3]) {
    if (rank == 0)
      fprintf(stderr, "mpiguide: warning: MPIGUIDE_TRACE='%s' cannot be written (%s); no trace\n", tr,
              strerror(trace_errno));
    have_trace = 0;
  }
  int first_bad_prof = all[8] == -INT32_MAX ? -1 : -all[8];
  if (first_bad_prof >= 0 || all[4] != -all[5] || all[6] != -all[7]) {
    if (first_bad_prof == rank) {
      fprintf(stderr, "mpiguide: warning: MPIGUIDE_PROFILE='%s' is not usable on rank %d; "
                      "tuning is off on all ranks, the defaults run:\n", pf, rank);
      for (int i = 0; i < diags.n; i++) {
        char line[600];
        mg_profile_diag_format(&diags.v[i], line, sizeof line);
        fprintf(stderr, "mpiguide:   %s\n", line);
      }
      if (diags.dropped) fprintf(stderr, "mpiguide:   (%d more problems)\n", diags.dropped);
    } else if (first_bad_prof < 0 && rank == 0) {
      fprintf(stderr, "mpiguide: warning: the ranks have different MPIGUIDE_PROFILE contents (or some have "
                      "none); tuning is off on all ranks, the defaults run\n");
    }
    mg_profile_free(prof);
    prof = NULL;
  }
  mg_profile_diags_free(&diags);
  if (mg_core_init() != MPI_SUCCESS || mg_comm_cache_init() != MPI_SUCCESS) {
    fprintf(stderr, "mpiguide: cannot set up (MPI_Comm_dup or MPI_Comm_create_keyval failed); pass-through\n");
    mg_profile_free(prof);
    return;
  }
  if (prof) {
    x->profile = prof;
    x->profile_path = strdup(pf);
  }
  if (have_trace) { /* a table that could not be allocated contributes no rows */
    x->trace_path = strdup(tr);
    x->trace = mg_trace_new();
  }
  int any_forced = 0;
  for (int i = 0; i < MG_NCOLL; i++) any_forced |= x->forced[i] != 0;
  x->active = any_forced || have_trace || x->profile;
  x->counting = any_forced || have_trace; /* tuned production runs skip the counters */
  x->initialized = 1;
}

void mg_lib_finalize(void) {
  mg_ctx *x = &mg_the_ctx;
  if (!x->initialized) return;
  if (x->trace_path) { /* collective: every rank takes part, table or not */
    mg_trace_write(x->trace, x->trace_path);
    mg_trace_free(x->trace);
    x->trace = NULL;
  }
  free(x->trace_path);
  x->trace_path = NULL;
  x->active = 0;
  x->initialized = 0;
  mg_comm_cache_finalize();
  mg_profile_free(x->profile);
  x->profile = NULL;
  free(x->profile_path);
  x->profile_path = NULL;
  mg_core_finalize();
}

/* ---------- the per-call path ---------- */

static inline void count(mg_ctx *x, mg_coll coll, int alg, mg_why why) {
  if (!x->counting) return;
  atomic_fetch_add_explicit(&x->ran[coll][alg], 1, memory_order_relaxed);
  if (why != MG_WHY_NONE) atomic_fetch_add_explicit(&x->fell[coll][why], 1, memory_order_relaxed);
}

int mg_dispatch(mg_call *c) {
  mg_ctx *x = &mg_the_ctx;
  int want = x->forced[c->coll];
  if (!want && !x->trace && !x->profile) { /* nothing to decide or record beyond the count */
    count(x, c->coll, 0, MG_WHY_NONE);
    return mg_run(c, 0);
  }
  /* MPI_COMM_NULL must reach no PMPI query: MPI would raise the error on
   * MPI_COMM_WORLD's handler before the default could return it. */
  const mg_comm_entry *e = c->comm == MPI_COMM_NULL ? NULL : mg_comm_get(c->comm);
  if (!e) { /* not a communicator MPI accepts: let the default report the error */
    count(x, c->coll, 0, want ? MG_WHY_INVALID_ARGS : MG_WHY_NONE);
    return mg_run(c, 0);
  }
  int nranges = e->nranges[c->coll];
  if (!want && nranges == 0 && !x->trace) { /* tuned mode, nothing tuned here */
    count(x, c->coll, 0, MG_WHY_NONE);
    return mg_run(c, 0);
  }
  c->size = e->size;
  c->rank = e->rank;
  c->inter = e->inter;
  /* Invalid arguments run the default before any query sees them (registry.h). */
  mg_why bad = c->inter ? MG_WHY_NONE : mg_call_check(c);
  mg_why why = MG_WHY_NONE;
  if (bad != MG_WHY_NONE) {
    c->bytes = 0;
    why = want ? bad : MG_WHY_NONE;
    want = 0;
  } else {
    mg_call_set_bytes(c);
    if (!want && nranges) want = mg_profile_slice_lookup(e->ranges[c->coll], nranges, c->bytes);
    if (want) why = mg_applicable(c, want, x->scratch_max);
  }
  int alg = why == MG_WHY_NONE ? want : 0;
  int rc = mg_run(c, alg);
  count(x, c->coll, alg, why);
  if (x->trace) {
    pthread_mutex_lock(&x->trace_lock);
    mg_trace_add(x->trace, c->coll, c->size, c->bytes, alg, why);
    pthread_mutex_unlock(&x->trace_lock);
  }
  return rc;
}

/* ---------- public API ---------- */

const char *mpiguide_version(void) { return MPIGUIDE_VERSION; }

const char *mpiguide_strerror(int status) {
  switch (status) {
  case MPIGUIDE_OK: return "success";
  case MPIGUIDE_ERR_SYNTAX: return "not of the form <collective>=<algorithm>[,...]";
  case MPIGUIDE_ERR_COLLECTIVE: return "unknown collective";
  case MPIGUIDE_ERR_ALGORITHM: return "unknown algorithm for that collective";
  case MPIGUIDE_ERR_NOT_INIT: return "MPI is not initialized";
  default: return "unknown status";
  }
}

int mpiguide_force(const char *spec) {
  char msg[1024];
  if (!mg_the_ctx.initialized) return MPIGUIDE_ERR_NOT_INIT;
  int st = mg_parse_force(spec ? spec : "", mg_the_ctx.forced, msg, sizeof msg);
  if (st == MPIGUIDE_OK) mg_the_ctx.active = mg_the_ctx.counting = 1;
  return st;
}

long long mpiguide_calls(const char *coll, const char *alg) {
  int c = coll ? mg_coll_find(coll) : -1;
  int a = c >= 0 && alg ? mg_alg_find((mg_coll)c, alg) : -1;
  if (a < 0) return -1;
  return atomic_load(&mg_the_ctx.ran[c][a]);
}

long long mpiguide_fallbacks(const char *coll, const char *reason) {
  int c = coll ? mg_coll_find(coll) : -1;
  if (c < 0) return -1;
  long long sum = 0;
  int found = reason == NULL;
  for (int w = 1; w < MG_NWHY; w++) {
    if (reason && strcmp(reason, mg_why_key((mg_why)w)) != 0) continue;
    found = 1;
    sum += atomic_load(&mg_the_ctx.fell[c][w]);
  }
  return found ? sum : -1;
}
