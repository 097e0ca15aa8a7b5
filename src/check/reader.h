/*
 * What the readers of raw measurements share (internal to src/check): data.c
 * owns the data model, the #@ metadata and the launches and picks the reader
 * of a source; read_csv.c reads mpiguide's raw CSV, read_repro.c the
 * ReproMPI/PGChecker files. A reader adds series, notes and launches through
 * these functions and, when its source turns out bad, rolls `d` back to the
 * snapshot it took first, so a failed source leaves nothing behind.
 */
#ifndef MG_CHECK_READER_H
#define MG_CHECK_READER_H

#include <limits.h>

#include "check/check.h"
#include "util/parse.h"

/* The most fields a header line may have. */
#define MG_CK_MAX_FIELDS 64

/* What `d` held before a source was read. */
typedef struct mg_ck_snapshot {
  int nlaunches, nseries, nnotes;
  long invalid, warmup;
} mg_ck_snapshot;

mg_ck_snapshot mg_ck_snapshot_take(const mg_ck_data *d);
/* Drop everything added after the snapshot (a source that failed to read). */
void mg_ck_rollback(mg_ck_data *d, mg_ck_snapshot s);

/* The series (coll, alg, bytes, red, launch), created empty if new; NULL when out of memory. */
mg_ck_series *mg_ck_series_get(mg_ck_data *d, mg_coll coll, const char *alg, size_t bytes, const char *red,
                               int launch);
/* Append one measurement (root -1: none or unknown). 0, or -1 out of memory. */
int mg_ck_series_push(mg_ck_series *s, double rt, long round, int root);
/* A note (skipped, failed) on a series. 0, or -1 out of memory. */
int mg_ck_note_add(mg_ck_data *d, mg_coll coll, const char *alg, size_t bytes, const char *red, int launch,
                   const char *text);

/* The reduction pair of a collective read with datatype dt and op (NULL or "": unknown) into
 * red[MG_CK_RED]: "dt:op" for a reduction whose both are known, else "". */
void mg_ck_red_of(mg_coll coll, const char *dt, const char *op, char *red);
/* The first field of a #@stop/skipped/failed/window line: "allreduce" or, since
 * mpiguide-bench-raw/2, "allreduce:MPI_DOUBLE:MPI_SUM". The collective (-1 unknown) and into
 * red[MG_CK_RED] the pair (the file's #@datatype and #@op for a reduction written without one). */
int mg_ck_block_name(const char *field, const mg_ck_meta *m, char *red);

/* "#@key=value" (line without the line break) into m. 0, or -1 out of memory. */
int mg_ck_meta_add(mg_ck_meta *m, const char *line, long lineno);

/* The last #@key of m as a number in [min, max] into *out (finite, nothing after it): 1 read, 0
 * absent (or "nan" when nan_ok: unknown, as bench --overlap writes #@sync_skew_sec), -1 with
 * "source:line: #@key=value: why" (e.g. "'4294967300' is out of range"). */
int mg_ck_meta_num(const mg_ck_meta *m, const char *key, const char *source, double min, double max, int nan_ok,
                   double *out, char *err, size_t errlen);
/* The same for an integer (digits with an optional sign) in [min, max]. */
int mg_ck_meta_int(const mg_ck_meta *m, const char *key, const char *source, long min, long max, long *out,
                   char *err, size_t errlen);

/* Find or create the launch `id` with the metadata m of the file `source`: its index, or -1 with a
 * message. A launch that exists from before first_new was read from another source: an error. */
int mg_ck_launch_get(mg_ck_data *d, const char *id, const char *source, const mg_ck_meta *m, int repro,
                     int first_new, char *err, size_t errlen);

/* Read one ReproMPI file into the launch launch_id (NULL: its #@launch, else its path); launches from
 * index first_new on were created by the same source. No rollback: the caller's. 0, or -1. */
int mg_ck_read_repro_into(mg_ck_data *d, const char *path, const char *launch_id, int first_new, char *err,
                          size_t errlen);

/* Called with each line of a file (without its line break), numbered from 1. 0, or -1 with a message. */
typedef int (*mg_ck_line_fn)(void *ctx, char *line, long len, long lineno, char *err, size_t errlen);
/* Read path line by line into fn: a last line without its line break (a file cut short) and a read
 * error are errors. *nlines: the lines read. 0, or -1 with a message (fn's or its own). */
int mg_ck_read_lines(const char *path, mg_ck_line_fn fn, void *ctx, long *nlines, char *err, size_t errlen);

/* The file name of a path. */
const char *mg_ck_base_name(const char *path);

/* A byte count in plain digits (a column of a file: no suffix, no sign); 0 only a barrier's. 0, or -1. */
int mg_ck_parse_size(const char *s, size_t *out);
/* Any integer: 0, or -1 for anything else. */
static inline int mg_ck_parse_long(const char *s, long *out) {
  return mg_parse_long(s, LONG_MIN, LONG_MAX, out, NULL, 0);
}
/* A finite number >= 0 (a runtime): 0, or -1 for anything else. */
static inline int mg_ck_parse_time(const char *s, double *out) { return mg_parse_double(s, 0, out, NULL, 0); }

#endif
