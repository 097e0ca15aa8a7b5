/*
 * Fuzz target `trace`: the reader of libmpiguide's traces (docs/trace.md formats 1 and 2;
 * src/check/hotspots.c, mg_hs_read, what `mpiguide hotspots` reads). Invariants: a refused file
 * leaves the trace empty (no spots, no objects) with a message naming the file; an accepted one
 * has a version, every spot's collective, object index, process count and strings in range, calls
 * and times >= 0 and finite, its algorithms' calls and times within the spot's, and the run's MPI
 * time the sum of its spots' times.
 */
#include <math.h>
#include <string.h>

#include "check/hotspots.h"
#include "fuzz.h"

static void read_trace(const char *path, mg_fz_read *r) {
  mg_hs_trace t;
  memset(&t, 0x5a, sizeof t); /* garbage the reader must replace */
  r->err[0] = '\0';
  if (mg_hs_read(path, &t, r->err, sizeof r->err) != 0) {
    MG_FZ_CHECK(!t.spots && !t.n && !t.objs && !t.nobjs, "trace: a refused file left %d spots, %d objects", t.n,
                t.nobjs);
    mg_fz_check_error("trace", path, r->err);
    r->ok = 0;
    return;
  }
  MG_FZ_CHECK(t.version >= 1 && (t.timed == 0 || t.timed == 1), "trace: version %d, timed %d", t.version, t.timed);
  MG_FZ_CHECK(t.nprocs >= 0 && t.n >= 0 && t.nobjs >= 0, "trace: %d processes, %d spots, %d objects", t.nprocs, t.n,
              t.nobjs);
  MG_FZ_CHECK(isfinite(t.wall) && (t.wall >= 0 || t.wall == -1), "trace: wall time %g", t.wall);
  MG_FZ_CHECK(mg_fz_terminated(t.mpi, sizeof t.mpi), "trace: library name not terminated");
  mg_fz_hash h;
  mg_fz_hash_init(&h);
  mg_fz_hash_long(&h, t.version);
  mg_fz_hash_long(&h, t.timed);
  mg_fz_hash_long(&h, t.nprocs);
  mg_fz_hash_double(&h, t.wall);
  mg_fz_hash_str(&h, t.mpi);
  for (int i = 0; i < t.nobjs; i++) {
    MG_FZ_CHECK(t.objs[i], "trace: object %d is NULL", i);
    mg_fz_hash_str(&h, t.objs[i]);
  }
  double sum = 0;
  for (int i = 0; i < t.n; i++) {
    const mg_hs_spot *s = &t.spots[i];
    MG_FZ_CHECK(s->coll >= 0 && s->coll < MG_NCOLL, "trace: spot %d: collective %d", i, (int)s->coll);
    MG_FZ_CHECK(s->obj >= -1 && s->obj < t.nobjs, "trace: spot %d: object %d of %d", i, s->obj, t.nobjs);
    MG_FZ_CHECK(s->nprocs >= 1, "trace: spot %d: %d processes", i, s->nprocs);
    MG_FZ_CHECK(mg_fz_terminated(s->sym, sizeof s->sym) && mg_fz_terminated(s->red, sizeof s->red) &&
                    mg_fz_terminated(s->algs, sizeof s->algs),
                "trace: spot %d: a string is not terminated", i);
    MG_FZ_CHECK(s->calls >= 0, "trace: spot %d: %ld calls", i, s->calls);
    MG_FZ_CHECK(isfinite(s->time) && s->time >= 0 && isfinite(s->wait) && s->wait >= 0,
                "trace: spot %d (%s %zu): time %g s, wait %g s", i, mg_colls[s->coll].name, s->bytes, s->time, s->wait);
    long calls = 0;
    double time = 0;
    for (int k = 0; k < MG_HS_ALGS; k++) {
      MG_FZ_CHECK(s->alg_calls[k] >= 0 && isfinite(s->alg_time[k]) && s->alg_time[k] >= 0,
                  "trace: spot %d: algorithm %d: %ld calls, %g s", i, k, s->alg_calls[k], s->alg_time[k]);
      calls += s->alg_calls[k], time += s->alg_time[k];
    }
    MG_FZ_CHECK(calls <= s->calls && time <= s->time * (1 + 1e-9) + 1e-300,
                "trace: spot %d: its algorithms ran %ld calls, %g s, the spot %ld calls, %g s", i, calls, time,
                s->calls, s->time);
    sum += s->time;
    mg_fz_hash_long(&h, s->obj);
    mg_fz_hash_long(&h, (long long)s->offset);
    mg_fz_hash_str(&h, s->sym);
    mg_fz_hash_long(&h, s->coll);
    mg_fz_hash_long(&h, s->nprocs);
    mg_fz_hash_long(&h, (long long)s->bytes);
    mg_fz_hash_str(&h, s->red);
    mg_fz_hash_str(&h, s->algs);
    mg_fz_hash_long(&h, s->calls);
    mg_fz_hash_double(&h, s->time);
    mg_fz_hash_double(&h, s->wait);
  }
  MG_FZ_CHECK(isfinite(t.mpi_time) && fabs(t.mpi_time - sum) <= 1e-9 * sum + 1e-300,
              "trace: MPI time %g s, its spots' %g s", t.mpi_time, sum);
  mg_hs_free(&t);
  r->ok = 1;
  r->digest = h.h;
}

const mg_fz_reader mg_fz_trace = {"trace", "trace.csv", "mg_hs_read (hotspots.c)", read_trace};
