/*
 * `mpiguide profile validate`: check profiles the way libmpiguide will read
 * them, print every problem as "file:line: message" on stderr, and on
 * request the canonical form (which also converts PGMPITuneLib .prf
 * profiles); and `mpiguide profile upgrade`, which rewrites a profile of an
 * older version in version 3 (with its end line). With merge.c the only parts
 * of src/tune/ that print; the library never calls them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tune/profile_internal.h"

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
      int v = mg_profile_file_version(p);
      if (!quiet && v > 0 && v < MG_PROFILE_FORMAT_END)
        fprintf(stderr,
                "%s: warning: a version-%d profile has no end line, so a copy of it cut at a line end would "
                "read as a shorter profile without notice; rewrite it in version %d: mpiguide profile upgrade %s\n",
                path, v, MG_PROFILE_FORMAT, path);
    }
    mg_profile_free(p);
    mg_profile_diags_free(&d);
  }
  return bad ? 1 : 0;
}

static void upgrade_usage(FILE *f) {
  fprintf(f, "usage: mpiguide profile upgrade [-o OUT] FILE...\n"
             "\n"
             "Rewrite mpiguide profiles of versions 1 and 2 in version %d: line 1 becomes '%s %d' and the\n"
             "end line '%s rules=<N>' is appended, by which readers tell a whole file from a cut one;\n"
             "every other byte stays as it is (comments too), and the rules decide the same (same hash).\n"
             "A version-%d file is left as it is. Each FILE is replaced through FILE.tmp, renamed onto it\n"
             "when complete; -o OUT (one FILE) writes OUT instead. An invalid FILE is not touched.\n"
             "\n"
             "Exit status: 0 all rewritten, 1 a file invalid or not writable, 2 usage error.\n",
          MG_PROFILE_FORMAT, MG_PROFILE_MAGIC, MG_PROFILE_FORMAT, MG_PROFILE_END, MG_PROFILE_FORMAT);
}

int mg_profile_upgrade_main(int argc, char **argv) {
  const char *outpath = NULL, *cmd = "mpiguide profile upgrade";
  int nfiles = 0, bad = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) return upgrade_usage(stdout), 0;
    if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--out")) {
      if (++i >= argc) return fprintf(stderr, "%s: -o needs a file name\n", cmd), 2;
      outpath = argv[i];
    } else if (argv[i][0] == '-' && argv[i][1]) {
      fprintf(stderr, "%s: unknown option '%s'\n\n", cmd, argv[i]);
      return upgrade_usage(stderr), 2;
    } else
      nfiles++;
  }
  if (nfiles == 0) return fprintf(stderr, "%s: no profile given\n\n", cmd), upgrade_usage(stderr), 2;
  if (outpath && nfiles > 1) return fprintf(stderr, "%s: -o OUT takes one FILE\n", cmd), 2;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-o") || !strcmp(argv[i], "--out")) {
      i++;
      continue;
    }
    const char *path = argv[i], *dest = outpath ? outpath : path;
    mg_profile_diags d;
    mg_profile_diags_init(&d, 0);
    char *buf = NULL, *text = NULL, line[4096];
    size_t len = 0, tlen = 0;
    int st = mg_prof_read_file(path, &buf, &len, &d);
    if (st == MG_PROFILE_OK) st = mg_profile_upgrade_text(buf, len, path, &text, &tlen, &d);
    for (int k = 0; k < d.n; k++) {
      mg_profile_diag_format(&d.v[k], line, sizeof line);
      fprintf(stderr, "%s\n", line);
    }
    if (st != MG_PROFILE_OK) {
      fprintf(stderr, "%s: %s: not rewritten (%s); mpiguide profile validate %s says more\n", cmd, path,
              mg_profile_strerror(st), path);
      bad = 1;
    } else if (tlen == len && !outpath) {
      printf("%s: already version %d, left as it is\n", path, MG_PROFILE_FORMAT);
    } else if (mg_prof_save_text(dest, text, tlen) != MG_PROFILE_OK) {
      fprintf(stderr, "%s: cannot write %s (through %s.tmp, in a directory you can write to)\n", cmd, dest, dest);
      bad = 1;
    } else
      printf("%s: version %d written to %s\n", path, MG_PROFILE_FORMAT, dest);
    free(buf);
    free(text);
    mg_profile_diags_free(&d);
  }
  return bad ? 1 : 0;
}
