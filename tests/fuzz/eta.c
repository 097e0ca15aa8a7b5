/*
 * Fuzz target `eta`: the time estimate's reader of a finished launch's raw.csv
 * (src/bench/eta_raw.c, mg_eta_raw_cells; `check --launches` seeds launch K from launch K-1).
 * Invariants: a refused file returns no cells and a message naming the file; an accepted one
 * returns at least one cell, each with a terminated name, at least one series and one value, and
 * finite sizes, value counts and seconds >= 0; the elapsed time is finite and >= 0, and the
 * cells add up to at least it (to it when it exceeds their runtimes).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/eta_raw.h"
#include "fuzz.h"

static void read_eta(const char *path, mg_fz_read *r) {
  mg_eta_cell *c = (mg_eta_cell *)&r; /* a pointer that must be replaced */
  int n = -7;
  double elapsed = -7;
  r->err[0] = '\0';
  if (mg_eta_raw_cells(path, &c, &n, &elapsed, r->err, (int)sizeof r->err) != 0) {
    MG_FZ_CHECK(!c && n == 0, "eta: a refused file returned %d cells", n);
    mg_fz_check_error("eta", path, r->err);
    r->ok = 0;
    return;
  }
  MG_FZ_CHECK(c && n > 0, "eta: an accepted file with %d cells", n);
  MG_FZ_CHECK(isfinite(elapsed) && elapsed >= 0, "eta: elapsed time %g", elapsed);
  mg_fz_hash h;
  mg_fz_hash_init(&h);
  mg_fz_hash_double(&h, elapsed);
  double sum = 0;
  for (int i = 0; i < n; i++) {
    MG_FZ_CHECK(mg_fz_terminated(c[i].coll, sizeof c[i].coll), "eta: cell %d: name not terminated", i);
    MG_FZ_CHECK(c[i].nvar >= 1 && c[i].values >= 1 && isfinite(c[i].values), "eta: cell %d: %d series, %g values", i,
                c[i].nvar, c[i].values);
    MG_FZ_CHECK(isfinite(c[i].bytes) && c[i].bytes >= 0, "eta: cell %d (%s): size %g", i, c[i].coll, c[i].bytes);
    MG_FZ_CHECK(isfinite(c[i].seconds) && c[i].seconds >= 0, "eta: cell %d (%s %g): %g seconds", i, c[i].coll,
                c[i].bytes, c[i].seconds);
    sum += c[i].seconds;
    mg_fz_hash_str(&h, c[i].coll);
    mg_fz_hash_double(&h, c[i].bytes);
    mg_fz_hash_long(&h, c[i].nvar);
    mg_fz_hash_double(&h, c[i].values);
    mg_fz_hash_double(&h, c[i].seconds);
  }
  /* a cell's share of the rest makes them add up to elapsed_sec, or to their runtimes when more */
  MG_FZ_CHECK(isfinite(sum) && sum >= elapsed * (1 - 1e-9), "eta: cells sum to %g s, elapsed_sec %g", sum, elapsed);
  free(c);
  r->ok = 1;
  r->digest = h.h;
}

const mg_fz_reader mg_fz_eta = {"eta", "raw.csv", "mg_eta_raw_cells (eta_raw.c)", read_eta};
