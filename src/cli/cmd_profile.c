/*
 * `mpiguide profile <action>`: tools for tuning profiles (docs/profile.md).
 * Actions: validate (every problem as file:line, see src/tune/validate.c), merge (src/tune/merge.c),
 * upgrade (an older version rewritten in version 3 with its end line, src/tune/validate.c).
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "tune/profile.h"

int mg_cmd_profile(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
    FILE *f = argc < 2 ? stderr : stdout;
    fprintf(f, "usage: mpiguide profile validate [--quiet] [--print] FILE|DIR...\n"
               "       mpiguide profile merge [--all] [-o OUT] PROFILE...\n"
               "       mpiguide profile upgrade [-o OUT] FILE...\n\n"
               "  validate   check profiles (mpiguide format, or PGMPITuneLib .prf files and\n"
               "             directories of them); every problem is printed as file:line: message.\n"
               "             Exit 0 if all are valid, 1 if not. --print writes the canonical form.\n"
               "  merge      combine profiles (e.g. learned online by several runs) into one that keeps\n"
               "             only the choices they agree on; conflicts are reported and dropped\n"
               "             (mpiguide profile merge --help).\n"
               "  upgrade    rewrite profiles of versions 1 and 2 in version 3, whose end line lets\n"
               "             readers refuse a cut copy; comments are kept (mpiguide profile upgrade --help).\n"
               "See docs/profile.md for the format.\n");
    return argc < 2 ? 2 : 0;
  }
  if (!strcmp(argv[1], "validate")) return mg_profile_validate_main(argc - 1, argv + 1);
  if (!strcmp(argv[1], "merge")) return mg_profile_merge_main(argc - 1, argv + 1);
  if (!strcmp(argv[1], "upgrade")) return mg_profile_upgrade_main(argc - 1, argv + 1);
  fprintf(stderr, "mpiguide profile: unknown action '%s' (valid: validate, merge, upgrade)\n", argv[1]);
  return 2;
}
