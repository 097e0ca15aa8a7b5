/*
 * Fuzz target `parse`: the parsers of sizes, lists and the environment, each on every line of
 * the input (an environment value has no line break and no NUL): mg_size_parse (src/util/size.c,
 * profiles and MPIGUIDE_SCRATCH_MAX through mg_parse_size), mg_parse_bytes, mg_parse_sizes,
 * mg_parse_seconds, mg_parse_long, mg_parse_double, mg_parse_digits (src/util/parse.c: the
 * command line and the raw-data readers) and mg_parse_force (src/lib/env.c: MPIGUIDE_ALG).
 * Invariants: a refusal says why (a message, where the parser takes one) and writes nothing to the
 * output; an accepted value is in range (finite, >= the minimum, <= the maximum), a size prints
 * and parses back to itself, a list is ascending without duplicates and at most MG_MAX_SIZES
 * long, a forced algorithm exists.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "lib/lib.h"
#include "mpiguide.h"
#include "util/parse.h"
#include "util/size.h"

static void one(const char *s, mg_fz_hash *h) {
  char err[512], back[64];
  size_t z = 12345, z2;
  mg_size_status st = mg_size_parse(s, &z);
  MG_FZ_CHECK(st >= MG_SIZE_OK && st <= MG_SIZE_AMBIGUOUS, "parse: mg_size_parse('%s') returns %d", s, (int)st);
  if (st == MG_SIZE_OK) {
    snprintf(back, sizeof back, "%zu", z);
    MG_FZ_CHECK(mg_size_parse(back, &z2) == MG_SIZE_OK && z2 == z, "parse: size '%s' = %zu does not read back", s, z);
  } else
    MG_FZ_CHECK(z == 12345, "parse: mg_size_parse refused '%s' but wrote %zu", s, z);
  size_t zz = 0;
  MG_FZ_CHECK((mg_parse_size(s, &zz) == 0) == (st == MG_SIZE_OK) && (st || zz == z),
              "parse: mg_parse_size and mg_size_parse differ on '%s'", s);
  mg_fz_hash_long(h, st ? -1 : (long long)z);

  err[0] = '\0';
  size_t b = 777;
  if (mg_parse_bytes(s, &b, err, sizeof err) == 0) {
    snprintf(back, sizeof back, "%zu", b);
    MG_FZ_CHECK(mg_parse_bytes(back, &z2, NULL, 0) == 0 && z2 == b, "parse: bytes '%s' = %zu does not read back", s, b);
  } else
    MG_FZ_CHECK(err[0] && b == 777, "parse: mg_parse_bytes refused '%s' %s", s, err[0] ? "but wrote" : "silently");

  size_t *list = (size_t *)&b;
  int n = -3;
  err[0] = '\0';
  if (mg_parse_sizes(s, &list, &n, err, sizeof err) == 0) {
    MG_FZ_CHECK(n >= 1 && n <= MG_MAX_SIZES && list, "parse: list '%s': %d sizes", s, n);
    for (int i = 1; i < n; i++)
      MG_FZ_CHECK(list[i] > list[i - 1], "parse: list '%s': %zu after %zu", s, list[i], list[i - 1]);
    mg_fz_hash_long(h, n);
    free(list);
  } else
    MG_FZ_CHECK(err[0], "parse: mg_parse_sizes refused '%s' silently", s);

  double d = -99;
  err[0] = '\0';
  if (mg_parse_seconds(s, &d, err, sizeof err) == 0)
    MG_FZ_CHECK(isfinite(d) && d >= 0, "parse: duration '%s' = %g", s, d);
  else
    MG_FZ_CHECK(err[0] && d == -99, "parse: mg_parse_seconds refused '%s' %s", s, err[0] ? "but wrote" : "silently");
  d = -99;
  err[0] = '\0';
  if (mg_parse_double(s, -1e6, &d, err, sizeof err) == 0)
    MG_FZ_CHECK(isfinite(d) && d >= -1e6, "parse: number '%s' = %g", s, d);
  else
    MG_FZ_CHECK(err[0] && d == -99, "parse: mg_parse_double refused '%s' %s", s, err[0] ? "but wrote" : "silently");
  long l = -99;
  err[0] = '\0';
  if (mg_parse_long(s, -1000, 1000000, &l, err, sizeof err) == 0)
    MG_FZ_CHECK(l >= -1000 && l <= 1000000, "parse: integer '%s' = %ld", s, l);
  else
    MG_FZ_CHECK(err[0] && l == -99, "parse: mg_parse_long refused '%s' %s", s, err[0] ? "but wrote" : "silently");
  unsigned long long u = 99;
  int rc = mg_parse_digits(s, strlen(s), 1000000, &u);
  MG_FZ_CHECK(rc == 0 || rc == -1 || rc == -2, "parse: mg_parse_digits returns %d", rc);
  if (rc == 0) MG_FZ_CHECK(u <= 1000000 && strspn(s, "0123456789") == strlen(s), "parse: digits '%s' = %llu", s, u);

  int forced[MG_NCOLL];
  for (int i = 0; i < MG_NCOLL; i++) forced[i] = -5;
  char msg[900] = "";
  rc = mg_parse_force(s, forced, msg, sizeof msg);
  if (rc == MPIGUIDE_OK) {
    for (int i = 0; i < MG_NCOLL; i++)
      MG_FZ_CHECK(forced[i] >= 0 && forced[i] < mg_colls[i].nalgs, "parse: MPIGUIDE_ALG='%s': %s forced to %d", s,
                  mg_colls[i].name, forced[i]);
    mg_fz_hash_bytes(h, forced, sizeof forced);
  } else {
    MG_FZ_CHECK(msg[0], "parse: MPIGUIDE_ALG='%s' refused (%d) silently", s, rc);
    for (int i = 0; i < MG_NCOLL; i++)
      MG_FZ_CHECK(forced[i] == -5, "parse: MPIGUIDE_ALG='%s' refused but %s was set", s, mg_colls[i].name);
  }
}

static void read_parse(const char *path, mg_fz_read *r) {
  size_t n = 0;
  char *buf = mg_fz_slurp(path, &n);
  MG_FZ_CHECK(buf, "parse: cannot read back %s", path);
  mg_fz_hash h;
  mg_fz_hash_init(&h);
  for (char *line = buf, *end; line < buf + n; line = end + 1) {
    end = memchr(line, '\n', (size_t)(buf + n - line));
    if (!end) end = buf + n;
    *end = '\0'; /* a NUL inside the line ends the value, as it would an environment variable */
    one(line, &h);
  }
  free(buf);
  r->ok = 1;
  r->digest = h.h;
}

const mg_fz_reader mg_fz_parse = {"parse", "values.txt",
                                  "mg_size_parse (size.c), mg_parse_* (parse.c), mg_parse_force (env.c)", read_parse};
