/*
 * The honesty of the progress line's time estimate, replayed offline (issue 31; docs/check.md,
 * "How long --full takes"): a recorded launch's cells (its raw.csv, src/bench/eta_raw.h) are fed to
 * the estimator (src/bench/eta.h) in the order they were measured, at the times they took, as the
 * engine feeds it (src/bench/engine.c: before a cell, the predicted cost of the cells after it;
 * while it runs, its own predicted cost less the time it has run; after it, its values and time),
 * and the estimate of the launch's length, elapsed + ETA, is printed over the launch's real length
 * at 1, 2, 5 and 10 minutes and at 25, 50 and 75 % of it. No MPI, no clock: the figures are the same
 * on every machine, and two estimators are compared on the same launches (benchmarks/eta_replay.sh
 * builds this against another revision's estimator). The machine's speed is taken as constant (the
 * raw.csv holds no probe): what is replayed is how well the estimator prices the cells left.
 *
 *   eta_replay [--prev PREV/raw.csv] RAW.csv...
 *     --prev: the launch before (check --launches N seeds launch K from launch K-1; ignored by an
 *     estimator without mg_eta_prior). One line per RAW: its name, its length, the ratios, and
 *     after the first minute the largest rise of the estimate between two lines of the progress
 *     line (one every 5 s under mpirun) and the largest estimate over the truth.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/eta.h"
#include "bench/eta_raw.h"

static char names[64][40];
static int nnames;

/* A collective's key: its index among the names seen (the same over the seed and the replay). */
static int key_of(const char *coll) {
  for (int i = 0; i < nnames; i++)
    if (!strcmp(names[i], coll)) return i;
  if (nnames == 64) return 63;
  snprintf(names[nnames], sizeof names[0], "%s", coll);
  return nnames++;
}

static mg_eta e;

/* elapsed + ETA at time t (seconds from the launch's start) inside cell b; NAN when unknown. */
static double estimate(const mg_eta_cell *c, int n, int b, double start, double t) {
  double cur = mg_eta_cost(&e, key_of(c[b].coll), c[b].bytes, c[b].nvar), future = 0;
  for (int j = b + 1; j < n; j++) future += mg_eta_cost(&e, key_of(c[j].coll), c[j].bytes, c[j].nvar);
  if (!isfinite(cur) || !isfinite(future)) return NAN;
  double left = cur - (t - start);
  return t + (left > 0 ? left : 0) + future;
}

static void replay(const char *path, char **prev, int nprev) {
  mg_eta_cell *c, *p = NULL;
  int n, np = 0;
  double el, pel;
  char err[512];
  if (mg_eta_raw_cells(path, &c, &n, &el, err, sizeof err)) {
    fprintf(stderr, "eta_replay: %s\n", err);
    exit(1);
  }
  mg_eta_init(&e);
  mg_eta_set_cap(&e, 1005); /* --max-nrep 1000 plus 5 warm-ups, the defaults of check */
#ifdef MG_ETA_HAS_PRIOR
  for (int k = 0; k < nprev; k++) {
    if (mg_eta_raw_cells(prev[k], &p, &np, &pel, err, sizeof err)) {
      fprintf(stderr, "eta_replay: %s\n", err);
      exit(1);
    }
    for (int i = 0; i < np; i++) mg_eta_prior(&e, key_of(p[i].coll), p[i].bytes, p[i].seconds);
    free(p), p = NULL;
  }
#else
  (void)prev, (void)nprev, (void)pel;
#endif
  double total = 0;
  for (int i = 0; i < n; i++) total += c[i].seconds;
  static const double at[] = {60, 120, 300, 600};
  double frac[] = {0.25, 0.5, 0.75}, r[7];
  for (int i = 0; i < 7; i++) r[i] = NAN;
  double t = 0, line = 5, last = NAN, rise = 0, over = 0;
  for (int b = 0; b < n; b++) {
    double end = t + c[b].seconds;
    for (int i = 0; i < 4; i++)
      if (at[i] >= t && at[i] < end) r[i] = estimate(c, n, b, t, at[i]) / total;
    for (int i = 0; i < 3; i++)
      if (frac[i] * total >= t && frac[i] * total < end) r[4 + i] = estimate(c, n, b, t, frac[i] * total) / total;
    for (; line < end; line += 5) { /* the progress lines */
      double x = estimate(c, n, b, t, line);
      if (line > 60 && isfinite(x) && isfinite(last) && x / last > rise) rise = x / last;
      if (line >= 60 && isfinite(x) && x / total > over) over = x / total;
      last = x;
    }
    mg_eta_block(&e, key_of(c[b].coll), c[b].bytes, c[b].nvar, c[b].values / c[b].nvar, c[b].seconds, 1);
    t = end;
  }
  printf("%-48s %6.0f s", path, total);
  for (int i = 0; i < 7; i++) printf(isfinite(r[i]) ? " %5.2f" : "     -", r[i]);
  if (over > 0) /* a progress line after the first minute */
    printf("  %5.2f %5.2f\n", rise > 1 ? rise : 1, over);
  else
    printf("      -     -\n");
  free(c);
}

int main(int argc, char **argv) {
  char *prev[16];
  int i = 1, nprev = 0;
  while (i + 1 < argc && !strcmp(argv[i], "--prev") && nprev < 16) prev[nprev++] = argv[i + 1], i += 2;
  if (i >= argc) {
    fprintf(stderr, "usage: eta_replay [--prev PREV/raw.csv] RAW.csv...\n");
    return 2;
  }
  printf("%-48s %8s %5s %5s %5s %5s %5s %5s %5s  %5s %5s\n", "launch (elapsed + ETA over its length)", "length",
         "1min", "2min", "5min", "10min", "25%", "50%", "75%", "rise", "max");
  for (; i < argc; i++) replay(argv[i], prev, nprev);
  return 0;
}
