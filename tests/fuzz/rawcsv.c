/*
 * Fuzz target `rawcsv`: the checker's raw-data reader (src/check/data.c and read_csv.c through
 * mg_ck_read) on a raw.csv, read into data that already holds another launch (a small raw.csv of
 * its own), as `check --from A B` reads several sources. Invariants: a refused file leaves the
 * data exactly as it was (the same dump hash: nothing half-loaded) with a message naming the
 * file; an accepted one has every runtime finite and >= 0, every index and string in range, each
 * launch's numeric metadata (#@nprocs, #@check_rows, #@sync_cost_sec, ...) a clean number in
 * range, and #@nprocs equal to the launch's process count. Also the helpers of repro.c.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check/check.h"
#include "fuzz.h"
#include "util/parse.h"

static const char base_csv[] = "#@format=mpiguide-bench-raw/1\n"
                               "#@mpi_library_name=TestMPI\n"
                               "#@mpi_library_version=TestMPI 1.0 (fuzz base)\n"
                               "#@nprocs=4\n"
                               "#@launch=mg-fuzz-base\n"
                               "#@sync=barrier\n"
                               "#@datatype=MPI_BYTE\n"
                               "#@check_rows=3\n"
                               "collective,algorithm,bytes,count,datatype,nprocs,launch,round,rep,warmup,runtime_sec,valid\n"
                               "bcast,default,8,8,MPI_BYTE,4,mg-fuzz-base,0,0,1,0.000005,1\n"
                               "bcast,default,8,8,MPI_BYTE,4,mg-fuzz-base,1,0,0,0.000002,1\n"
                               "bcast,bcast_as_allgatherv,8,8,MPI_BYTE,4,mg-fuzz-base,0,0,0,0.000003,1\n";

/* Metadata the readers turn into numbers: whole numbers, and finite ones >= 0. */
static const char *const int_keys[] = {"nprocs", "nnodes", "check_rows", "datatype_size", "datatype_extent"};
static const char *const real_keys[] = {"sync_cost_sec", "sync_skew_sec", "noise_sec"};

static void check_launch(const mg_ck_launch *l, int i, const char *what) {
  MG_FZ_CHECK(mg_fz_terminated(l->id, sizeof l->id), "%s: launch %d: its id is not terminated", what, i);
  MG_FZ_CHECK(l->nprocs >= 0 && l->nnodes >= 0, "%s: launch %d: %d processes, %d nodes", what, i, l->nprocs,
              l->nnodes);
  MG_FZ_CHECK(isfinite(l->sync_cost) && isfinite(l->sync_skew) && isfinite(l->noise_given) && l->noise_given >= 0,
              "%s: launch %d: sync cost %g, skew %g, noise %g", what, i, l->sync_cost, l->sync_skew, l->noise_given);
  for (size_t k = 0; k < sizeof int_keys / sizeof *int_keys; k++) {
    const char *v = mg_ck_meta_get(&l->meta, int_keys[k]);
    long x;
    if (!v) continue;
    MG_FZ_CHECK(mg_parse_long(v, 0, INT_MAX, &x, NULL, 0) == 0,
                "%s: launch %d: accepted #@%s=%s, not a whole number from 0 to %d", what, i, int_keys[k], v, INT_MAX);
    if (!strcmp(int_keys[k], "nprocs"))
      MG_FZ_CHECK(x == l->nprocs, "%s: launch %d: #@nprocs=%s read as %d processes", what, i, v, l->nprocs);
  }
  for (size_t k = 0; k < sizeof real_keys / sizeof *real_keys; k++) {
    const char *v = mg_ck_meta_get(&l->meta, real_keys[k]);
    double x;
    if (v)
      MG_FZ_CHECK(mg_parse_double(v, 0, &x, NULL, 0) == 0, "%s: launch %d: accepted #@%s=%s, not a finite number >= 0",
                  what, i, real_keys[k], v);
  }
}

uint64_t mg_fz_ck_check(const mg_ck_data *d, const char *what) {
  mg_fz_hash h;
  mg_fz_hash_init(&h);
  MG_FZ_CHECK(d->nlaunches >= 0 && d->nseries >= 0 && d->nnotes >= 0 && d->invalid >= 0 && d->warmup >= 0,
              "%s: negative counts", what);
  mg_fz_hash_long(&h, d->nlaunches);
  for (int i = 0; i < d->nlaunches; i++) {
    const mg_ck_launch *l = &d->launches[i];
    check_launch(l, i, what);
    mg_fz_hash_str(&h, l->id);
    mg_fz_hash_str(&h, l->source);
    mg_fz_hash_long(&h, l->nprocs);
    mg_fz_hash_long(&h, l->nnodes);
    mg_fz_hash_double(&h, l->sync_cost);
    mg_fz_hash_double(&h, l->sync_skew);
    mg_fz_hash_double(&h, l->noise_given);
    mg_fz_hash_str(&h, l->mpi_name);
    mg_fz_hash_str(&h, l->mpi_version);
    mg_fz_hash_str(&h, l->datatype);
    mg_fz_hash_long(&h, l->repro);
    mg_fz_hash_long(&h, l->meta.n);
    for (int k = 0; k < l->meta.n; k++) {
      mg_fz_hash_str(&h, l->meta.v[k].key);
      mg_fz_hash_str(&h, l->meta.v[k].val);
    }
  }
  mg_fz_hash_long(&h, d->nseries);
  for (int i = 0; i < d->nseries; i++) {
    const mg_ck_series *s = &d->series[i];
    MG_FZ_CHECK(s->coll >= 0 && s->coll < MG_NCOLL, "%s: series %d: collective %d", what, i, (int)s->coll);
    MG_FZ_CHECK(mg_fz_terminated(s->alg, sizeof s->alg) && mg_fz_terminated(s->red, sizeof s->red),
                "%s: series %d: a name is not terminated", what, i);
    MG_FZ_CHECK(s->launch >= 0 && s->launch < d->nlaunches, "%s: series %d: launch %d of %d", what, i, s->launch,
                d->nlaunches);
    MG_FZ_CHECK(s->n >= 0 && s->n <= s->cap && s->n <= s->rows, "%s: series %d: %ld values, %ld rows", what, i, s->n,
                s->rows);
    int np = d->launches[s->launch].nprocs;
    mg_fz_hash_long(&h, s->coll);
    mg_fz_hash_str(&h, s->alg);
    mg_fz_hash_long(&h, (long long)s->bytes);
    mg_fz_hash_str(&h, s->red);
    mg_fz_hash_long(&h, s->launch);
    mg_fz_hash_long(&h, s->n);
    mg_fz_hash_long(&h, s->rows);
    for (long k = 0; k < s->n; k++) {
      MG_FZ_CHECK(isfinite(s->rt[k]) && s->rt[k] >= 0, "%s: series %d (%s %s %zu): runtime %g", what, i,
                  mg_colls[s->coll].name, s->alg, s->bytes, s->rt[k]);
      MG_FZ_CHECK(s->root[k] >= -1 && (np <= 0 || s->root[k] < np), "%s: series %d: root %d of %d processes", what, i,
                  s->root[k], np);
      mg_fz_hash_double(&h, s->rt[k]);
      mg_fz_hash_long(&h, s->round[k]);
      mg_fz_hash_long(&h, s->root[k]);
    }
  }
  mg_fz_hash_long(&h, d->nnotes);
  for (int i = 0; i < d->nnotes; i++) {
    const mg_ck_note *n = &d->notes[i];
    MG_FZ_CHECK(n->coll >= 0 && n->coll < MG_NCOLL && n->launch >= 0 && n->launch < d->nlaunches,
                "%s: note %d: collective %d, launch %d", what, i, (int)n->coll, n->launch);
    MG_FZ_CHECK(mg_fz_terminated(n->text, sizeof n->text) && mg_fz_terminated(n->alg, sizeof n->alg),
                "%s: note %d: a string is not terminated", what, i);
    mg_fz_hash_long(&h, n->coll);
    mg_fz_hash_str(&h, n->alg);
    mg_fz_hash_long(&h, (long long)n->bytes);
    mg_fz_hash_str(&h, n->red);
    mg_fz_hash_long(&h, n->launch);
    mg_fz_hash_str(&h, n->text);
  }
  mg_fz_hash_long(&h, d->invalid);
  mg_fz_hash_long(&h, d->warmup);
  return h.h;
}

void mg_fz_ck_read(const char *path, mg_fz_read *r) {
  static char base[4096];
  if (!base[0]) mg_fz_write("mg-fuzz-base.csv", base_csv, sizeof base_csv - 1, base, sizeof base);
  mg_ck_data d;
  mg_ck_data_init(&d);
  char err[sizeof r->err];
  MG_FZ_CHECK(mg_ck_read(&d, base, err, sizeof err) == 0, "raw: the base file does not read: %s", err);
  uint64_t before = mg_fz_ck_check(&d, "raw: the base file");
  err[0] = '\0';
  if (mg_ck_read(&d, path, err, sizeof err) != 0) {
    r->ok = 0;
    snprintf(r->err, sizeof r->err, "%s", err);
    mg_fz_check_error("raw", path, err);
    MG_FZ_CHECK(mg_fz_ck_check(&d, "raw: after a refused file") == before,
                "raw: a refused file (%s) left part of itself in the data", err);
  } else {
    r->ok = 1;
    r->digest = mg_fz_ck_check(&d, "raw");
    MG_FZ_CHECK(d.nlaunches > 1, "raw: an accepted file added no launch");
  }
  mg_ck_data_free(&d);
}

const mg_fz_reader mg_fz_rawcsv = {"rawcsv", "raw.csv", "mg_ck_read (data.c, read_csv.c)", mg_fz_ck_read};
