/* Option parsing shared by the subcommands (see opts.h). */
#include <stdio.h>
#include <string.h>

#include "cli/opts.h"

int mg_opt_next(int argc, char **argv, int *i, const mg_opt *opts, int nopts, const char **val, char *err,
                size_t errlen) {
  const char *a = argv[*i];
  int id = -1;
  *val = NULL;
  if (a[0] == '-' && a[1] == '-' && a[2]) {
    const char *eq = strchr(a + 2, '=');
    size_t len = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
    for (int k = 0; k < nopts; k++)
      if (strlen(opts[k].name) == len && !strncmp(opts[k].name, a + 2, len)) id = k;
    if (id < 0) return snprintf(err, errlen, "unknown option '%.*s'", (int)(len + 2), a), -1;
    if (eq) {
      if (!opts[id].arg) return snprintf(err, errlen, "option '--%s' takes no value", opts[id].name), -1;
      *val = eq + 1;
    }
  } else if (a[0] == '-' && a[1] && !a[2]) {
    for (int k = 0; k < nopts; k++)
      if (opts[k].shrt == a[1]) id = k;
    if (id < 0) return snprintf(err, errlen, "unknown option '%s'", a), -1;
  } else {
    return MG_OPT_POSITIONAL;
  }
  if (opts[id].arg && !*val) {
    if (*i + 1 >= argc) return snprintf(err, errlen, "option '%s' needs a value", a), -1;
    *val = argv[++*i];
  }
  if (!*val) *val = "";
  return id;
}
