/*
 * `mpiguide list`: the registry as a table for people, or CSV for machines.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "registry/registry.h"

static void csv_field(const char *s, int last) {
  int quote = strpbrk(s, ",\"\n") != NULL;
  if (quote) {
    putchar('"');
    for (; *s; s++) {
      if (*s == '"') putchar('"');
      putchar(*s);
    }
    putchar('"');
  } else {
    fputs(s, stdout);
  }
  putchar(last ? '\n' : ',');
}

int mg_cmd_list(int argc, char **argv) {
  int csv = 0;
  const char *only = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--csv")) csv = 1;
    else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: mpiguide list [--csv] [COLLECTIVE]\n\n"
             "Lists every intercepted collective and its algorithms: the default (the MPI\n"
             "library's own) and the guideline mock-ups, with guideline id, formula,\n"
             "description, restrictions and extra memory (n = message size in bytes as\n"
             "defined per collective, p = processes).\n"
             "  --csv        one row per algorithm, comma-separated, with a header line\n"
             "  COLLECTIVE   only this collective (e.g. allreduce)\n");
      return 0;
    } else if (argv[i][0] != '-' && !only) only = argv[i];
    else {
      fprintf(stderr, "mpiguide list: unknown option '%s' (see mpiguide list --help)\n", argv[i]);
      return 2;
    }
  }
  if (only && mg_coll_find(only) < 0) {
    fprintf(stderr, "mpiguide list: unknown collective '%s'; valid:", only);
    for (int c = 0; c < MG_NCOLL; c++) fprintf(stderr, " %s", mg_colls[c].name);
    fputc('\n', stderr);
    return 2;
  }
  if (csv) printf("collective,algorithm,guideline,formula,description,restrictions,extra_memory\n");
  for (int c = 0; c < MG_NCOLL; c++) {
    const mg_coll_info *ci = &mg_colls[c];
    if (only && strcmp(only, ci->name)) continue;
    if (!csv) printf("%s (%s) -- message size: %s\n", ci->name, ci->mpi_name, ci->size_def);
    for (int a = 0; a < ci->nalgs; a++) {
      const mg_alg *al = &ci->algs[a];
      const char *name = a ? al->name : "default";
      char restr[128] = "";
      if (al->restrictions & MG_R_PN_INT) strcat(restr, "p*n<=INT_MAX ");
      if (al->restrictions & MG_R_COMMUTATIVE) strcat(restr, "commutative-op ");
      if (*restr) restr[strlen(restr) - 1] = '\0';
      if (csv) {
        csv_field(ci->name, 0), csv_field(name, 0), csv_field(al->guideline, 0);
        csv_field(al->formula, 0), csv_field(al->description, 0), csv_field(restr, 0);
        csv_field(al->mem_formula, 1);
      } else if (a == 0) {
        printf("  %-44s %s\n", name, al->description);
      } else {
        printf("  %-44s %-5s %s\n", name, al->guideline, al->formula);
        printf("  %-44s       %s; extra memory: %s%s%s\n", "", al->description, al->mem_formula,
               *restr ? "; needs " : "", restr);
      }
    }
    if (!csv) putchar('\n');
  }
  return 0;
}
