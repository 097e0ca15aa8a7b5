/* Option parsing shared by the subcommands (see cmd_opts.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_opts.h"
#include "util/err.h"

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
    if (id < 0) return MG_ERR("unknown option '%.*s'", (int)(len + 2), a);
    if (eq) {
      if (!opts[id].arg) return MG_ERR("option '--%s' takes no value", opts[id].name);
      *val = eq + 1;
    }
  } else if (a[0] == '-' && a[1] && !a[2]) {
    for (int k = 0; k < nopts; k++)
      if (opts[k].shrt == a[1]) id = k;
    if (id < 0) return MG_ERR("unknown option '%s'", a);
  } else {
    return MG_OPT_POSITIONAL;
  }
  if (opts[id].arg && !*val) {
    if (*i + 1 >= argc) return MG_ERR("option '%s' needs a value", a);
    *val = argv[++*i];
  }
  if (!*val) *val = "";
  return id;
}

/* MPIGUIDE_CLI_OPTIONS=1: print the command's option table instead of parsing, one option a line
 * ("--name<TAB>-x<TAB>flag|arg|list", "-" for no short letter), and exit. The man pages and the bash
 * completion take their option lists from it (packaging/gen-docs.sh) and a test compares it with
 * the --help text, so the table stays the one source of a command's options. */
static void print_table_if_asked(const mg_opt *opts, int nopts) {
  const char *e = getenv("MPIGUIDE_CLI_OPTIONS");
  if (!e || strcmp(e, "1")) return;
  static const char *const kinds[] = {"flag", "arg", "list"};
  printf("# mpiguide options\n");
  for (int k = 0; k < nopts; k++)
    printf("--%s\t%s%c\t%s\n", opts[k].name, opts[k].shrt ? "-" : "", opts[k].shrt ? opts[k].shrt : '-',
           kinds[opts[k].arg]);
  exit(fflush(stdout) ? 1 : 0);
}

int mg_opt_parse(int argc, char **argv, const mg_opt *opts, int nopts, mg_opt_vals *v, char *err, size_t errlen) {
  print_table_if_asked(opts, nopts);
  memset(v, 0, sizeof *v);
  v->pos = calloc((size_t)argc + 1, sizeof *v->pos);
  v->list = calloc((size_t)argc + 1, sizeof *v->list);
  if (!v->pos || !v->list) return MG_ERR("out of memory");
  for (int i = 1; i < argc; i++) {
    const char *val;
    int id = mg_opt_next(argc, argv, &i, opts, nopts < MG_OPT_MAX ? nopts : MG_OPT_MAX, &val, err, errlen);
    if (id == MG_OPT_POSITIONAL) {
      v->pos[v->npos++] = argv[i];
      continue;
    }
    if (id < 0) return -1;
    v->val[id] = val;
    v->given[id] = 1;
    if (opts[id].arg == MG_OPT_LIST) {
      v->list[v->nlist++] = val;
      while (i + 1 < argc && argv[i + 1][0] != '-') v->list[v->nlist++] = argv[++i];
    }
  }
  return 0;
}

void mg_opt_vals_free(mg_opt_vals *v) {
  free(v->pos);
  free(v->list);
  v->pos = v->list = NULL;
}
