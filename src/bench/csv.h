/*
 * Writing benchmark results (pure C, no MPI): the raw tidy CSV with its
 * `#@key=value` metadata header, the ReproMPI-compatible raw format, and
 * output files that appear under their name only when complete.
 *
 * Raw CSV (docs/bench.md): `#@key=value` lines, then the header line
 *   collective,algorithm,bytes,count,datatype,op,root,pair,nprocs,launch,round,rep,warmup,runtime_sec,valid
 * (format mpiguide-bench-raw/3; /2 had no pair column (pattern cart measured the whole exchange),
 * /1 no op and root columns either: they were the #@op and #@root)
 * and one row per measurement. ReproMPI format: the same `#@` lines, then
 *   test nrep msize runtime_sec
 * and whitespace-separated rows (R's read.table and pandas skip the `#` lines).
 * Both column lists are defined once, below (MG_RAW_COLUMNS, MG_REPRO_COLUMNS).
 */
#ifndef MG_BENCH_CSV_H
#define MG_BENCH_CSV_H

#include <stddef.h>
#include <stdio.h>

/*
 * A file written under a temporary name in the same directory
 * ("<path>.partial.XXXXXX") and renamed to `path` by mg_outfile_commit(), so a
 * crashed or failed run never leaves a file that looks complete.
 */
typedef struct mg_outfile {
  char *path, *tmp;
  FILE *f;
} mg_outfile;

/* 0, or -1 with a message (the file cannot be created there). */
int mg_outfile_open(mg_outfile *o, const char *path, char *err, size_t errlen);
/* Flush, close and rename; 0, or -1 with a message (the temporary is removed). */
int mg_outfile_commit(mg_outfile *o, char *err, size_t errlen);
/* Close and remove the temporary; safe on a zeroed or already committed struct. */
void mg_outfile_discard(mg_outfile *o);

/* "#@key=value\n"; line breaks in the value become "; ", so one key is one line. */
void mg_meta(FILE *f, const char *key, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* CSV fields: mg_csv_str() of util/text.h. */
#include "util/text.h"

typedef struct mg_raw_row {
  const char *coll, *alg, *dtype, *op, *launch; /* op: "" for a collective that reduces nothing */
  const char *pair; /* pattern cart's direction (mg_pattern_pair); "" or NULL: none */
  int root;                                      /* -1: empty (a collective without a root) */
  size_t bytes;
  long count;
  int nprocs;
  long round, rep;
  int warmup, valid;
  double runtime; /* seconds */
} mg_raw_row;

/*
 * The raw CSV's columns, in file order: one row per column with its name and
 * how mg_raw_row_write writes it (f: the FILE *, r: the mg_raw_row *). The
 * writer, the header and the reader (src/check/data.c, which finds columns by
 * name, in any order) all come from this list.
 */
#define MG_RAW_COLUMNS(X)                                  \
  X(COLL, "collective", mg_csv_str(f, r->coll))            \
  X(ALG, "algorithm", mg_csv_str(f, r->alg))               \
  X(BYTES, "bytes", fprintf(f, "%zu", r->bytes))           \
  X(COUNT, "count", fprintf(f, "%ld", r->count))           \
  X(DTYPE, "datatype", mg_csv_str(f, r->dtype))            \
  X(OP, "op", mg_csv_str(f, r->op))                        \
  X(ROOT, "root", r->root >= 0 ? fprintf(f, "%d", r->root) : 0) \
  X(PAIR, "pair", mg_csv_str(f, r->pair ? r->pair : ""))   \
  X(NPROCS, "nprocs", fprintf(f, "%d", r->nprocs))         \
  X(LAUNCH, "launch", fputs(r->launch, f))                 \
  X(ROUND, "round", fprintf(f, "%ld", r->round))           \
  X(REP, "rep", fprintf(f, "%ld", r->rep))                 \
  X(WARMUP, "warmup", fprintf(f, "%d", r->warmup))         \
  X(RUNTIME, "runtime_sec", fprintf(f, "%.9f", r->runtime)) \
  X(VALID, "valid", fprintf(f, "%d", r->valid))

typedef enum {
#define MG_X(E, name, write) MG_RAW_##E,
  MG_RAW_COLUMNS(MG_X)
#undef MG_X
      MG_RAW_NCOLS
} mg_raw_col;

extern const char *const mg_raw_col_names[MG_RAW_NCOLS];
/* The header line without its line break: "collective,algorithm,...,valid". */
extern const char *const mg_raw_columns;
void mg_raw_header(FILE *f);
void mg_raw_row_write(FILE *f, const mg_raw_row *r);

/* The ReproMPI format's columns (blank-separated), in file order. Its reader
 * (src/check/data.c) also accepts "count" (elements) instead of "msize". */
#define MG_REPRO_COLUMNS(X) X(TEST, "test") X(NREP, "nrep") X(MSIZE, "msize") X(RUNTIME, "runtime_sec")

typedef enum {
#define MG_X(E, name) MG_REPRO_##E,
  MG_REPRO_COLUMNS(MG_X)
#undef MG_X
      MG_REPRO_NCOLS
} mg_repro_col;

extern const char *const mg_repro_col_names[MG_REPRO_NCOLS];
void mg_repro_header(FILE *f);
void mg_repro_row(FILE *f, const char *test, long nrep, size_t msize, double runtime);

#endif
