/*
 * What online tuning's choices are worth as an application sees them (issue 29): each cell is
 * first called CALLS times in a tight loop, as an application calls it, under MPIGUIDE_PROFILE=auto
 * (online tuning learns), then timed the way the benchmarks of mpiguide check time a call: the
 * ranks synchronised before each call (PMPI_Barrier), the maximum over the ranks of the local
 * durations, for the library's own call (PMPI_<Coll>: the default, never intercepted) and the
 * intercepted call (MPI_<Coll>: the cell's learned choice), REPS rounds, the two interleaved (their
 * order alternating from round to round), side by side in one launch.
 *
 *   online_verify CALLS REPS COLL:BYTES...   (COLL: allreduce, bcast, reduce, allgather; MPI_INT,
 *                                            MPI_SUM, root 0; BYTES: the cell's message size)
 *
 * Linked with libmpiguide (its counters say which algorithm the learned cell runs: after learning,
 * mpiguide_force("") turns them on, and one more call of each cell is compared). MG_ALGS gives
 * the algorithm names, "coll:alg,alg,...;coll:..." from `mpiguide list --csv` (as
 * tests/online/run_online.sh does). Rank 0 prints one line per cell:
 *
 *   online_verify: allreduce 1024 B: ran allreduce_as_hier; default 16.1 us, choice 21.3 us (1.32x);
 *                  choice faster in 12 % of 2000 rounds
 *
 * (medians over the rounds of the max over ranks; the last figure: rounds where the choice's max
 * was below the default's). Not a test: its figures are reported, never asserted
 * (benchmarks/online_verify.sh runs it).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mpiguide.h"

#define MAXALG 32
#define MAXCELL 16

static int rank, size;

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

typedef struct {
  char coll[32]; /* allreduce, bcast, reduce, allgather */
  int count; /* MPI_INT elements per block */
  int *in, *out;
  int nalg;
  char *alg[MAXALG];
} cell;

/* One call of the cell: intercepted (MPI_) or the library's own (PMPI_). */
static void call(const cell *c, int intercepted) {
  int n = c->count;
  if (!strcmp(c->coll, "allreduce"))
    (intercepted ? MPI_Allreduce : PMPI_Allreduce)(c->in, c->out, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  else if (!strcmp(c->coll, "bcast"))
    (intercepted ? MPI_Bcast : PMPI_Bcast)(c->out, n, MPI_INT, 0, MPI_COMM_WORLD);
  else if (!strcmp(c->coll, "reduce"))
    (intercepted ? MPI_Reduce : PMPI_Reduce)(c->in, c->out, n, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  else
    (intercepted ? MPI_Allgather : PMPI_Allgather)(c->in, n, MPI_INT, c->out, n, MPI_INT, MPI_COMM_WORLD);
}

/* The algorithm names of coll from MG_ALGS. */
static void names(cell *c) {
  const char *env = getenv("MG_ALGS");
  char key[40];
  snprintf(key, sizeof key, "%.30s:", c->coll);
  const char *at = env ? strstr(env, key) : NULL;
  while (at && at != env && at[-1] != ';') at = strstr(at + 1, key); /* "reduce:" is in "allreduce:" */
  if (!at) {
    fprintf(stderr, "online_verify: no algorithms of %s in MG_ALGS\n", c->coll);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char *s = strndup(at + strlen(key), strcspn(at + strlen(key), ";")), *save = NULL;
  for (char *a = strtok_r(s, ",", &save); a && c->nalg < MAXALG; a = strtok_r(NULL, ",", &save))
    c->alg[c->nalg++] = strdup(a);
  free(s);
}

/* Which algorithm the cell's intercepted call runs now, as rank 0 counted it (a rooted mock-up
 * may change the root's call only: the other ranks then run the default), into buf. */
static const char *choice(const cell *c, char *buf, size_t len) {
  long long before[MAXALG];
  for (int i = 0; i < c->nalg; i++) before[i] = mpiguide_calls(c->coll, c->alg[i]);
  call(c, 1);
  int mine = -1, lo, hi;
  for (int i = 0; i < c->nalg; i++)
    if (mpiguide_calls(c->coll, c->alg[i]) != before[i]) mine = mine < 0 ? i : -2;
  PMPI_Allreduce(&mine, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  PMPI_Allreduce(&mine, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  snprintf(buf, len, "%s%s", mine >= 0 ? c->alg[mine] : "?", lo == hi ? "" : " (at rank 0; not on every rank)");
  return buf;
}

static int by_value(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static double median(const double *v, int n) {
  double *s = malloc((size_t)n * sizeof *s);
  memcpy(s, v, (size_t)n * sizeof *s);
  qsort(s, (size_t)n, sizeof *s, by_value);
  double m = n % 2 ? s[n / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
  free(s);
  return m;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc < 4) {
    if (rank == 0) fprintf(stderr, "usage: online_verify CALLS REPS COLL:BYTES...\n");
    MPI_Finalize();
    return 2;
  }
  long calls = atol(argv[1]);
  int reps = atoi(argv[2]), ncell = 0;
  static cell cells[MAXCELL];
  for (int a = 3; a < argc && ncell < MAXCELL; a++) {
    cell *c = &cells[ncell++];
    const char *colon = strchr(argv[a], ':');
    snprintf(c->coll, sizeof c->coll, "%.*s", colon ? (int)(colon - argv[a]) : 0, argv[a]);
    c->count = colon ? atoi(colon + 1) / (int)sizeof(int) : 0;
    if (c->count < 1 || (strcmp(c->coll, "allreduce") && strcmp(c->coll, "bcast") && strcmp(c->coll, "reduce") &&
                         strcmp(c->coll, "allgather"))) {
      if (rank == 0) fprintf(stderr, "online_verify: '%s' is not COLL:BYTES\n", argv[a]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
    c->in = malloc((size_t)c->count * sizeof(int));
    c->out = malloc((size_t)c->count * (size_t)size * sizeof(int));
    for (int i = 0; i < c->count; i++) c->in[i] = c->out[i] = rank + i;
    names(c);
  }
  /* 1. the application: each cell called often, back to back, no synchronisation */
  for (long k = 0; k < calls; k++)
    for (int i = 0; i < ncell; i++) call(&cells[i], 1);
  mpiguide_force(""); /* forces nothing; the counters run from now on */
  /* 2. the learned choice against the default, as a benchmark times it */
  double *t = malloc(2 * (size_t)reps * sizeof *t), *tmax = malloc(2 * (size_t)reps * sizeof *tmax);
  for (int i = 0; i < ncell; i++) {
    cell *c = &cells[i];
    char buf[200];
    const char *ran = choice(c, buf, sizeof buf);
    for (int w = 0; w < 10; w++) call(c, w % 2); /* warm both */
    for (int r = 0; r < reps; r++)
      for (int j = 0; j < 2; j++) {
        int v = (j + r) % 2; /* 0: the default (PMPI_), 1: the choice (MPI_); first in turn */
        PMPI_Barrier(MPI_COMM_WORLD);
        double t0 = now();
        call(c, v);
        t[2 * r + v] = now() - t0;
      }
    PMPI_Reduce(t, tmax, 2 * reps, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) {
      double *d = malloc((size_t)reps * sizeof *d), *x = malloc((size_t)reps * sizeof *x);
      int faster = 0;
      for (int r = 0; r < reps; r++) d[r] = tmax[2 * r], x[r] = tmax[2 * r + 1], faster += x[r] < d[r];
      double md = median(d, reps), mx = median(x, reps);
      printf("online_verify: %s %d B: ran %s; default %.3g us, choice %.3g us (%.2fx); choice faster in %.0f %% of %d "
             "rounds\n", c->coll, c->count * (int)sizeof(int), ran, md * 1e6, mx * 1e6, mx / md,
             100.0 * faster / reps, reps);
      free(d), free(x);
    }
  }
  free(t), free(tmax);
  MPI_Finalize();
  return 0;
}
