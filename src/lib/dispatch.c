/*
 * The per-call path of libmpiguide: every intercepted call that is not a pure
 * pass-through, and not one that the wrappers' fast path in tuned mode
 * settles (lib.h, mg_tuned_default), comes here as an mg_call. It decides the
 * algorithm (forced, profile, or default) from inputs equal on every rank
 * (DESIGN.md rule 1: the communicator size, the message size and, where
 * profile rules have type= or op=, the reduction's datatype class and op),
 * runs it, counts it and records it in the trace with the rule that chose it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/acct.h"
#include "lib/lib.h"
#include "registry/algorithms.h"
#include "util/clock.h"

_Thread_local __attribute__((tls_model("initial-exec"))) void *mg_call_site;
_Thread_local __attribute__((tls_model("initial-exec"))) void *mg_fortran_site;


/* The MG_FN_ id of a non-blocking collective's function (persistent: its *_init), for the trace's
 * posts (lib/acct.h): found by name in the generated list once; -1 when the list lacks it. */
static int nbc_fn[2][MG_NCOLL]; /* by the blocking twin (a collective or a neighbourhood collective) */
static pthread_once_t nbc_fn_once = PTHREAD_ONCE_INIT;
static void nbc_fn_fill(void) {
  for (int k = 0; k < MG_NCOLL; k++) {
    char pers[64];
    nbc_fn[0][k] = nbc_fn[1][k] = -1;
    int blocking = k < MG_NCOLLECTIVES || (mg_coll_is_neighbor((mg_coll)k) && !mg_coll_is_nbc((mg_coll)k));
    if (!blocking) continue; /* a point-to-point or non-blocking operation: no non-blocking form */
    const char *mpi = mg_colls[k].mpi_name; /* "MPI_Allreduce" */
#if defined(MPI_VERSION) && MPI_VERSION >= 4
    snprintf(pers, sizeof pers, "%s_init", mpi);
#else
    snprintf(pers, sizeof pers, "MPIX_%s_init", mpi + 4);
#endif
    for (int f = 0; f < MG_NFN; f++) {
      if (!strcmp(mg_fns[f].name, mg_colls[mg_coll_nbc_of((mg_coll)k)].mpi_name)) nbc_fn[0][k] = f;
      if (!strcmp(mg_fns[f].name, pers)) nbc_fn[1][k] = f;
    }
  }
}

/* A non-blocking or persistent collective posted: the scratch its row made (src/algs/nbc.c,
 * mg_nbc_kept) is kept with the request until completion, and with a timed trace its post, so
 * that its completion's time is attributed to this call (lib/acct.h). */
static void nbc_posted(const mg_ctx *x, const mg_call *c, int rc) {
  void *kept = mg_nbc_kept;
  mg_nbc_kept = NULL;
  if (rc != MPI_SUCCESS || !c->req) {
    free(kept); /* never set by a post that failed; for symmetry */
    return;
  }
  if (!kept && !(x->trace && x->trace_time)) return;
  pthread_once(&nbc_fn_once, nbc_fn_fill);
  mg_acct_keep(*c->req, nbc_fn[c->persistent != 0][mg_coll_base(c->coll)], mg_call_site, c->persistent, kept);
}

static inline void count(mg_ctx *x, mg_coll coll, int alg, mg_why why) {
  if (!x->counting) return;
  atomic_fetch_add_explicit(&x->ran[coll][alg], 1, memory_order_relaxed);
  if (why != MG_WHY_NONE) atomic_fetch_add_explicit(&x->fell[coll][why], 1, memory_order_relaxed);
}

/* The default for a call nothing chose an algorithm for, counted. */
static inline int run_default(mg_ctx *x, mg_call *c) {
  count(x, c->coll, 0, MG_WHY_NONE);
  return mg_run(c, 0);
}

/*
 * Run algorithm `want` (0: the default), chosen by `rule`, for a call whose
 * arguments passed mg_call_check and whose bytes are set, or the default with
 * reason `why`; a mock-up's restrictions and scratch are checked first, and a
 * mock-up of a collective whose size not every rank knows may still fall back
 * late. Counts and traces.
 */
static int run_chosen(mg_ctx *x, mg_call *c, int want, int rule, mg_why why, int *ran) {
  if (want && why == MG_WHY_NONE) why = mg_applicable(c, want, x->scratch_max);
  int alg = why == MG_WHY_NONE ? want : 0;
  int rc;
  /* timed: from here, with the recording of the thread's previous call (lib/acct.h, mg_acct_carry) */
  int64_t t0 = x->trace_time ? mg_clock_ns() - mg_acct_carry : 0;
  mg_acct_carry = 0;
  /* the mock-up may still fall back once it knows the size, or (in-place family) its scratch, or
   * (hier family) the node structure, or (one-sided family) whether the library makes a window */
  int fam = mg_colls[c->coll].algs[alg].family;
  if (alg && (!mg_colls[c->coll].known || fam == MG_FAM_INPLACE || fam == MG_FAM_HIER || fam == MG_FAM_RMA)) {
    mg_late.cap = x->scratch_max;
    mg_late.why = MG_WHY_NONE;
    rc = mg_run(c, alg);
    if (mg_late.why != MG_WHY_NONE) why = mg_late.why, alg = 0;
  } else {
    rc = mg_run(c, alg);
  }
  int64_t ns = x->trace_time ? mg_clock_ns() - t0 : 0;
  if (mg_coll_is_nbc(c->coll)) nbc_posted(x, c, rc);
  if (ran) *ran = alg;
  count(x, c->coll, alg, why);
  if (x->trace && x->trace_time) {
    int red = c->op != MPI_OP_NULL; /* a reduction: its datatype class and op, for check and profile matching */
    int tclass = red ? mg_tclass_of(c->rtype) : MG_TCLASS_NONE, opsel = red ? mg_opsel_of(c->op) : MG_OPSEL_NONE;
    pthread_mutex_lock(&x->trace_lock);
    mg_trace_add_timed(x->trace, mg_call_site, c->coll, c->size, c->bytes, alg, why, rule, tclass, opsel, ns);
    pthread_mutex_unlock(&x->trace_lock);
    /* a request posted: its completion's time is attributed to this call (lib/acct.h) */
    if ((c->coll == MG_ISEND || c->coll == MG_IRECV) && rc == MPI_SUCCESS && c->req)
      mg_acct_post(*c->req, c->coll == MG_ISEND ? MG_FN_MPI_Isend : MG_FN_MPI_Irecv, mg_call_site, 0);
    mg_acct_carry = mg_clock_ns() - (t0 + ns); /* this recording's cost: the next call's */
  } else if (x->trace) {
    pthread_mutex_lock(&x->trace_lock);
    mg_trace_add(x->trace, c->coll, c->size, c->bytes, alg, why, rule);
    pthread_mutex_unlock(&x->trace_lock);
  }
  return rc;
}

/* Why no profile rule chose a call's algorithm, for the trace (lib.h, MG_RULE_NO_*): MG_RULE_NONE
 * without a profile. */
static inline int no_rule(const mg_ctx *x, const mg_comm_coll *t, mg_coll coll) {
  if (x->profile_aside) return MG_RULE_ASIDE;
  if (!x->profile) return MG_RULE_NONE;
  if (!mg_slice_empty(t)) return MG_RULE_NO_SIZE;
  return (x->profile_ruled >> coll) & 1u ? MG_RULE_NO_NP : MG_RULE_NO_OP; /* uint64_t: every operation */
}

/* Online tuning: the algorithm its cell picks (a timed trial while it explores, then the choice). */
static int run_online(mg_ctx *x, mg_online_comm *o, mg_call *c) {
  mg_online_slot s;
  int alg = mg_online_pick(o, c, &s), ran;
  if (alg < 0) return run_default(x, c);
  if (!s.trial) return run_chosen(x, c, alg, s.model ? MG_RULE_MODEL : MG_RULE_LEARNED, MG_WHY_NONE, NULL);
  if (s.trial == 2) { /* warming up: the default, counted toward exploring */
    mg_online_record(c, &s, 0, 0, x->online_trials);
    return run_default(x, c);
  }
  int64_t t0 = mg_clock_ns();
  int rc = run_chosen(x, c, alg, MG_RULE_TRIAL, MG_WHY_NONE, &ran);
  mg_online_record(c, &s, ran, 1e-9 * (double)(mg_clock_ns() - t0), x->online_trials);
  return rc;
}

int mg_dispatch(mg_call *c) {
  mg_ctx *x = &mg_the_ctx;
  int want = x->forced[c->coll];
  if (!want && !x->trace && !x->profile && !x->online) return run_default(x, c); /* nothing to decide or record */
  /* MPI_COMM_NULL must reach no PMPI query: MPI would raise the error on
   * MPI_COMM_WORLD's handler before the default could return it. */
  const mg_comm_entry *e = c->comm == MPI_COMM_NULL ? NULL : mg_comm_get(c->comm);
  if (!e) { /* not a communicator MPI accepts: let the default report the error */
    count(x, c->coll, 0, want ? MG_WHY_INVALID_ARGS : MG_WHY_NONE);
    return mg_run(c, 0);
  }
  const mg_comm_coll *t = &e->coll[c->coll];
  if (!want && mg_slice_empty(t) && !x->trace && !x->online) return run_default(x, c); /* nothing tuned here */
  c->size = e->size;
  c->rank = e->rank;
  c->inter = e->inter;
  /* a neighbourhood collective's topology and degrees (local queries); a failed query is refused */
  if (mg_coll_is_neighbor(c->coll) && !c->inter && mg_call_neighbors(c) != MPI_SUCCESS) c->topo = MPI_UNDEFINED;
  int rule = want ? MG_RULE_FORCED : MG_RULE_NONE;
  /* Invalid arguments run the default before any query sees them (registry.h). */
  mg_why bad = c->inter ? MG_WHY_NONE : mg_call_check(c);
  if (bad != MG_WHY_NONE) {
    c->bytes = 0;
    return run_chosen(x, c, 0, rule, want ? bad : MG_WHY_NONE, NULL);
  }
  mg_call_set_bytes(c);
  if (!want && e->online && mg_online_learns(c)) return run_online(x, e->online, c);
  if (!want) {
    const mg_profile_range *hit = mg_comm_rule(t, c->bytes, c->rtype, c->op);
    if (hit) want = hit->alg, rule = hit->line;
    else rule = no_rule(x, t, c->coll);
  }
  return run_chosen(x, c, want, rule, MG_WHY_NONE, NULL);
}
