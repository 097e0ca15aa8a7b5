/*
 * The truncation walk (docs/fuzzing.md): `fuzz_truncate READER FIXTURE [K]` reads the whole
 * fixture with the reader (it must be accepted), then every K-th prefix of it and every prefix
 * that ends at a line break (a file cut between two lines looks whole to a reader that does not
 * know where it ends) - each written to a file of the fixture's own name. Each prefix must be
 * refused with a message naming the file, or read as exactly the same thing as the whole file
 * (the digest of a canonical dump, fuzz.h). K defaults to a 64th of the file (at least 1). The
 * reader's invariants are checked on every read too. Exit 0 when every prefix passes, 1 with
 * the failing prefixes named (the first few), 2 for usage errors. `fuzz_truncate --list`: the
 * readers. With --old (a format, or a format version, that has no end marker: ReproMPI files, traces
 * of formats 1 and 2, profiles of versions 1 and 2, raw files without a row count) a prefix that
 * ends at a line break cannot be told from a whole file: those are counted, not failed, and every
 * prefix cut inside a line must still be refused or read the same.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"

static const mg_fz_reader *const readers[] = {&mg_fz_profile, &mg_fz_prf, &mg_fz_rawcsv, &mg_fz_repro,
                                              &mg_fz_eta,     &mg_fz_trace, &mg_fz_loggp};
#define NREADERS (sizeof readers / sizeof *readers)
#define SHOW 5 /* failing prefixes printed */

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "--list")) {
    for (size_t i = 0; i < NREADERS; i++) printf("%-8s %s\n", readers[i]->name, readers[i]->covers);
    return 0;
  }
  int old = argc > 3 && !strcmp(argv[argc - 1], "--old");
  if (old) argc--;
  if (argc < 3 || argc > 4) {
    fprintf(stderr, "usage: fuzz_truncate READER FIXTURE [K] [--old] | --list\n");
    return 2;
  }
  const mg_fz_reader *rd = NULL;
  for (size_t i = 0; i < NREADERS; i++)
    if (!strcmp(argv[1], readers[i]->name)) rd = readers[i];
  if (!rd) {
    fprintf(stderr, "fuzz_truncate: unknown reader '%s' (fuzz_truncate --list)\n", argv[1]);
    return 2;
  }
  size_t len;
  char *text = mg_fz_slurp(argv[2], &len);
  if (!text) {
    fprintf(stderr, "fuzz_truncate: cannot read %s\n", argv[2]);
    return 2;
  }
  long k = argc == 4 ? atol(argv[3]) : (long)(len / 64);
  if (k < 1) k = 1;
  const char *base = strrchr(argv[2], '/');
  base = base ? base + 1 : argv[2];
  char path[4096];
  mg_fz_read whole, r;
  mg_fz_write(base, text, len, path, sizeof path);
  rd->read(path, &whole);
  if (!whole.ok) {
    fprintf(stderr, "fuzz_truncate: %s: the whole fixture is refused: %s\n", argv[2], whole.err);
    free(text);
    return 1;
  }
  long tried = 0, bad = 0, refused = 0, blind = 0;
  for (size_t n = 0; n < len; n++) {
    int at_line = n > 0 && text[n - 1] == '\n';
    if (n % (size_t)k && !at_line) continue;
    tried++;
    mg_fz_write(base, text, n, path, sizeof path);
    rd->read(path, &r);
    if (!r.ok) {
      refused++;
      continue;
    }
    if (r.digest == whole.digest) continue;
    if (old && at_line) { /* the format cannot tell this cut (docs/fuzzing.md) */
      blind++;
      continue;
    }
    if (bad++ < SHOW) {
      long line = 1;
      for (size_t i = 0; i < n; i++) line += text[i] == '\n';
      fprintf(stderr, "fuzz_truncate: %s: the first %zu of %zu bytes (%s line %ld) read as something else, "
                      "without an error\n",
              argv[2], n, len, at_line ? "ending at the end of" : "cut inside", at_line ? line - 1 : line);
    }
  }
  free(text);
  printf("fuzz_truncate: %s %s: %ld prefixes (every %ld-th byte and every line end): %ld refused, %ld the same read, "
         "%ld read as something else%s",
         rd->name, base, tried, k, refused, tried - refused - bad - blind, bad, old ? "" : "\n");
  if (old) printf(", %ld cut at a line end that a file of this format cannot tell (--old)\n", blind);
  return bad ? 1 : 0;
}
