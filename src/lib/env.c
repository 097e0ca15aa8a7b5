/*
 * libmpiguide's environment: the parsers of MPIGUIDE_ALG ("coll=alg[,...]")
 * and of sizes (MPIGUIDE_SCRATCH_MAX). Pure functions that report problems as
 * a status and a message; init.c decides what a problem means for the run.
 */
#include <stdio.h>
#include <string.h>

#include "lib/lib.h"
#include "mpiguide.h"
#include "util/size.h"

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

