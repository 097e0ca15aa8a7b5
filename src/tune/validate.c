/*
 * `mpiguide profile validate`: check profiles the way libmpiguide will read
 * them, print every problem as "file:line: message" on stderr, and on
 * request the canonical form (which also converts PGMPITuneLib .prf
 * profiles). The only part of src/tune/ that prints; the library never calls it.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "tune/profile.h"

static void usage(FILE *f, const char *cmd) {
  fprintf(f,
          "usage: %s [--quiet] [--print] FILE|DIR...\n"
          "\n"
          "Check tuning profiles: the mpiguide format (docs/profile.md), PGMPITuneLib *.prf files,\n"
          "or directories of *.prf files (read together, as PGMPITuneLib does).\n"
          "Prints every problem as 'file:line: message' on stderr.\n"
          "\n"
          "  --quiet  print nothing for valid profiles\n"
          "  --print  write the canonical form of the (single) input to stdout if valid;\n"
          "           converts a PGMPITuneLib profile to the mpiguide format\n"
          "  --help   this text\n"
          "\n"
          "Exit status: 0 all valid, 1 some invalid, 2 usage error.\n",
          cmd);
}

int mg_profile_validate_main(int argc, char **argv) {
  const char *cmd = argc > 0 && argv[0] ? argv[0] : "validate";
  int quiet = 0, print = 0, nfiles = 0, i, dashdash = 0;
  for (i = 1; i < argc; i++) {
    if (dashdash || argv[i][0] != '-' || strcmp(argv[i], "-") == 0) {
      nfiles++;
      continue;
    }
    if (!strcmp(argv[i], "--")) {
      dashdash = 1;
    } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout, cmd);
      return 0;
    } else if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
      quiet = 1;
    } else if (!strcmp(argv[i], "--print")) {
      print = 1;
    } else {
      fprintf(stderr, "%s: unknown option '%s'\n\n", cmd, argv[i]);
      usage(stderr, cmd);
      return 2;
    }
  }
  if (nfiles == 0) {
    fprintf(stderr, "%s: no profile given\n\n", cmd);
    usage(stderr, cmd);
    return 2;
  }
  if (print && nfiles > 1) {
    fprintf(stderr, "%s: --print takes one profile (a directory of *.prf files counts as one)\n", cmd);
    return 2;
  }

  int bad = 0;
  dashdash = 0;
  for (i = 1; i < argc; i++) {
    if (!dashdash && argv[i][0] == '-' && strcmp(argv[i], "-") != 0) {
      if (!strcmp(argv[i], "--")) dashdash = 1;
      continue;
    }
    const char *path = argv[i];
    mg_profile_diags d;
    mg_profile *p = NULL;
    char line[4096];
    mg_profile_diags_init(&d, 0);
    int st = mg_profile_open(path, &p, &d);
    for (int k = 0; k < d.n; k++) {
      mg_profile_diag_format(&d.v[k], line, sizeof line);
      fprintf(stderr, "%s\n", line);
    }
    if (d.dropped) fprintf(stderr, "%s: ... and %d more problems\n", path, d.dropped);
    if (st != MG_PROFILE_OK) {
      if (d.n == 0) fprintf(stderr, "%s: %s\n", path, mg_profile_strerror(st));
      fprintf(stderr, "%s: invalid (%d problem%s); libmpiguide would ignore it and run the defaults\n", path,
              d.n + d.dropped, d.n + d.dropped == 1 ? "" : "s");
      bad = 1;
    } else {
      int ncoll = 0;
      for (int k = 0; k < mg_profile_nrules(p); k++)
        if (k == 0 || mg_profile_rule_at(p, k)->coll != mg_profile_rule_at(p, k - 1)->coll) ncoll++;
      if (print) {
        if (mg_profile_write(p, stdout) != MG_PROFILE_OK) {
          fprintf(stderr, "%s: cannot write to standard output\n", cmd);
          bad = 1;
        }
      } else if (!quiet)
        printf("%s: valid: %d rule%s for %d collective%s, hash %016" PRIx64 "\n", path, mg_profile_nrules(p),
               mg_profile_nrules(p) == 1 ? "" : "s", ncoll, ncoll == 1 ? "" : "s", mg_profile_hash(p));
    }
    mg_profile_free(p);
    mg_profile_diags_free(&d);
  }
  return bad ? 1 : 0;
}
