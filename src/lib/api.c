/*
 * The public C API (include/mpiguide.h): version, status messages, forcing
 * algorithms at run time and this rank's call counters.
 */
#include <string.h>

#include "lib/acct.h"
#include "lib/lib.h"
#include "registry/algorithms_other.h" /* mg_sched_live */
#include "mpiguide.h"

const char *mpiguide_version(void) { return MPIGUIDE_VERSION; }

const char *mpiguide_strerror(int status) {
  switch (status) { /* made from the one list in mpiguide.h */
#define MPIGUIDE_X(name, value, text) \
  case MPIGUIDE_##name: return text;
    MPIGUIDE_STATUSES(MPIGUIDE_X)
#undef MPIGUIDE_X
  default: return "unknown status";
  }
}

int mpiguide_force(const char *spec) {
  char msg[1024];
  if (!mg_the_ctx.initialized) return MPIGUIDE_ERR_NOT_INIT;
  int st = mg_parse_force(spec ? spec : "", mg_the_ctx.forced, msg, sizeof msg);
  if (st == MPIGUIDE_OK) { /* every call is counted from now on: none takes the wrappers' fast path */
    mg_the_ctx.tuned_only = 0;
    mg_the_ctx.active = mg_the_ctx.counting = 1;
    mg_paths_set(&mg_the_ctx); /* point-to-point calls are counted too */
  }
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

long mpiguide_requests_kept(void) { return mg_acct_kept() + mg_sched_live(); }
