/*
 * The reader of the original ReproMPI/PGChecker files (reader.h):
 * data_<MPI_Coll>_<variant>.dat, one collective and variant per file, blank-
 * separated columns test nrep msize runtime_sec (MG_REPRO_COLUMNS of
 * bench/csv.h, the writer's list), or `count` in elements of the datatype
 * named by the file's metadata instead of msize. A directory of such files is
 * one launch (data.c). Strict as the CSV reader: a bad number, a row with the
 * wrong number of fields or a file cut short is an error naming file and line.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench/csv.h"
#include "check/check.h"
#include "check/reader.h"
#include "util/err.h"
#include "util/text.h"

/* data_<MPI_Coll>_<variant>.dat -> collective, variant. The MPI name holds
 * underscores itself (MPI_Reduce_scatter_block): take the longest match. */
static int repro_name(const char *path, int *coll, char *variant, size_t vlen) {
  const char *b = mg_ck_base_name(path);
  size_t n = strlen(b);
  if (strncmp(b, "data_", 5) || n < 10 || strcmp(b + n - 4, ".dat")) return -1;
  int best = -1;
  size_t bl = 0;
  for (int i = 0; i < MG_NCOLL; i++) {
    size_t l = strlen(mg_colls[i].mpi_name);
    if (5 + l + 1 < n - 4 && !strncasecmp(b + 5, mg_colls[i].mpi_name, l) && b[5 + l] == '_' && l > bl) {
      best = i;
      bl = l;
    }
  }
  if (best < 0) return -2;
  size_t vl = n - 4 - (5 + bl + 1);
  if (vl == 0 || vl >= vlen) return -3;
  memcpy(variant, b + 5 + bl + 1, vl);
  variant[vl] = '\0';
  *coll = best;
  return 0;
}

static int dtype_size(const char *name) {
  static const struct {
    const char *n;
    int s;
  } t[] = {{"MPI_BYTE", 1},   {"MPI_CHAR", 1},    {"MPI_SIGNED_CHAR", 1}, {"MPI_UNSIGNED_CHAR", 1},
           {"MPI_INT8_T", 1}, {"MPI_SHORT", 2},   {"MPI_INT", 4},         {"MPI_UNSIGNED", 4},
           {"MPI_FLOAT", 4},  {"MPI_INT32_T", 4}, {"MPI_LONG", 8},        {"MPI_LONG_LONG", 8},
           {"MPI_DOUBLE", 8}, {"MPI_INT64_T", 8}};
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
    if (!strcasecmp(name, t[i].n)) return t[i].s;
  return 0;
}

/* One file being read: its collective and variant (from the name), what its header said. */
typedef struct repro_file {
  mg_ck_data *d;
  const char *path, *launch_id;
  int first_new;
  int coll;
  char variant[MG_CK_NAME];
  mg_ck_meta m; /* the #@ lines before the header */
  int c_rt, c_size, c_count, c_nrep; /* the field of each column, -1 if absent */
  int nfields, header, li, tsize;    /* tsize: bytes per element of `count` */
  char red[MG_CK_RED];               /* a reduction's pair from #@datatype and #@op; "" unknown */
  int root;                          /* #@root of a rooted collective; -1 unknown */
  long lineno, rows;
} repro_file;

/* The collective and variant of the file name, as check names them. */
static int repro_variant(repro_file *r, char *err, size_t errlen) {
  const char *path = r->path;
  int nr = repro_name(path, &r->coll, r->variant, sizeof r->variant);
  if (nr == -1) return MG_ERR("%s: not a ReproMPI data file (expected data_<MPI_Coll>_<variant>.dat)", path);
  if (nr == -2)
    return MG_ERR("%s: unknown collective in the file name (known: MPI_Allgather, MPI_Allreduce, "
               "MPI_Alltoall, MPI_Bcast, MPI_Gather, MPI_Reduce, MPI_Reduce_scatter_block, MPI_Scan, "
               "MPI_Scatter)",
               path);
  if (nr == -3) return MG_ERR("%s: no variant, or a variant name too long, in the file name", path);
  /* PGChecker names the library's own operation by its MPI name or "default" */
  if (!strcmp(r->variant, mg_colls[r->coll].mpi_name) || !strcasecmp(r->variant, "default"))
    snprintf(r->variant, sizeof r->variant, "default");
  if (!strcmp(r->variant, MG_CK_AA_NAME))
    return MG_ERR("%s: variant name '%s' is reserved for the A/A control", path, r->variant);
  return 0;
}

/* The header line: the columns, the element size when sizes are counts, the launch. */
static int repro_header(repro_file *r, char *line, char *err, size_t errlen) {
  char *fld[MG_CK_MAX_FIELDS];
  const mg_ck_meta *m = &r->m;
  r->nfields = mg_split_blanks(line, fld, MG_CK_MAX_FIELDS);
  if (r->nfields > MG_CK_MAX_FIELDS) r->nfields = MG_CK_MAX_FIELDS;
  for (int k = 0; k < r->nfields; k++) {
    if (!strcmp(fld[k], mg_repro_col_names[MG_REPRO_RUNTIME]))
      r->c_rt = k;
    else if (!strcmp(fld[k], mg_repro_col_names[MG_REPRO_MSIZE]))
      r->c_size = k;
    else if (!strcmp(fld[k], "count")) /* original ReproMPI files: elements, not bytes */
      r->c_count = k;
    else if (!strcmp(fld[k], mg_repro_col_names[MG_REPRO_NREP]))
      r->c_nrep = k;
  }
  if (r->c_rt < 0 || (r->c_size < 0 && r->c_count < 0))
    return MG_ERR("%s:%ld: the header lacks the column '%s' (a ReproMPI file has the columns test nrep msize "
               "runtime_sec)",
               r->path, r->lineno, r->c_rt < 0 ? "runtime_sec" : "msize");
  if (r->c_size < 0) { /* sizes as element counts: need the datatype */
    long ts = 0;
    int has = mg_ck_meta_int(m, "datatype_size", r->path, 1, 1L << 30, &ts, err, errlen);
    if (has < 0) return -1;
    r->tsize = has ? (int)ts : mg_ck_meta_get(m, "datatype") ? dtype_size(mg_ck_meta_get(m, "datatype")) : 1;
    if (r->tsize <= 0)
      return MG_ERR("%s:%ld: sizes are element counts ('count') of datatype '%s', whose size is unknown", r->path,
                 r->lineno, mg_ck_meta_get(m, "datatype"));
  }
  const char *lid = r->launch_id              ? r->launch_id
                    : mg_ck_meta_get(m, "launch") ? mg_ck_meta_get(m, "launch")
                                                  : r->path;
  if ((r->li = mg_ck_launch_get(r->d, lid, r->path, m, 1, r->first_new, err, errlen)) < 0) return -1;
  mg_ck_launch *L = &r->d->launches[r->li];
  double sc; /* the launch took the first file's #@ lines: a later file of the set may have these */
  long np;
  int has_sc = mg_ck_meta_num(m, "sync_cost_sec", r->path, 0, 1e6, 1, &sc, err, errlen);
  int has_np = mg_ck_meta_int(m, "nprocs", r->path, 1, INT32_MAX, &np, err, errlen);
  if (has_sc < 0 || has_np < 0) return -1;
  if (L->sync_cost < 0 && has_sc) L->sync_cost = sc;
  if (L->nprocs == 0 && has_np) L->nprocs = (int)np;
  mg_ck_red_of((mg_coll)r->coll, mg_ck_meta_get(m, "datatype"), mg_ck_meta_get(m, "op"), r->red);
  long root = -1;
  if (mg_colls[r->coll].rooted && mg_ck_meta_int(m, "root", r->path, 0, INT32_MAX, &root, err, errlen) < 0) return -1;
  r->root = (int)root;
  r->header = 1;
  return 0;
}

/* A data row: size, repetition and runtime into the file's series. */
static int repro_row(repro_file *r, char *line, char *err, size_t errlen) {
  char *fld[MG_CK_MAX_FIELDS];
  int n = mg_split_blanks(line, fld, MG_CK_MAX_FIELDS);
  if (n != r->nfields) return MG_ERR("%s:%ld: %d fields, the header has %d", r->path, r->lineno, n, r->nfields);
  size_t bytes;
  long rep = r->rows;
  double rt;
  const char *sz = fld[r->c_size >= 0 ? r->c_size : r->c_count];
  if (mg_ck_parse_size(sz, &bytes) || (bytes == 0 && r->coll != MG_BARRIER))
    return MG_ERR("%s:%ld: column %s: '%s' is not a positive size", r->path, r->lineno,
               r->c_size >= 0 ? "msize" : "count", sz);
  if (bytes > SIZE_MAX / 2 / (size_t)r->tsize)
    return MG_ERR("%s:%ld: column count: %s elements of %d bytes is too large a message", r->path, r->lineno, sz,
                  r->tsize);
  bytes *= (size_t)r->tsize;
  if (r->c_nrep >= 0 && (mg_ck_parse_long(fld[r->c_nrep], &rep) || rep < 0))
    return MG_ERR("%s:%ld: column nrep: '%s' is not a non-negative integer", r->path, r->lineno, fld[r->c_nrep]);
  if (mg_ck_parse_time(fld[r->c_rt], &rt))
    return MG_ERR("%s:%ld: column runtime_sec: '%s' is not a runtime in seconds (a finite number >= 0)", r->path,
               r->lineno, fld[r->c_rt]);
  mg_ck_series *s = mg_ck_series_get(r->d, (mg_coll)r->coll, r->variant, bytes, r->red, r->li);
  if (!s || mg_ck_series_push(s, rt, rep, r->root)) return MG_ERR("out of memory");
  s->rows++;
  r->rows++;
  return 0;
}

/* One line: #@ metadata before the header, the header, a blank line or a data row. */
static int repro_line(void *ctx, char *line, long len, long lineno, char *err, size_t errlen) {
  repro_file *r = ctx;
  r->lineno = lineno;
  if (line[0] == '#') {
    if (line[1] == '@' && !r->header && mg_ck_meta_add(&r->m, line, r->lineno)) return MG_ERR("out of memory");
    return 0;
  }
  if (strspn(line, " \t") == (size_t)len) return 0;
  return r->header ? repro_row(r, line, err, errlen) : repro_header(r, line, err, errlen);
}

int mg_ck_read_repro_into(mg_ck_data *d, const char *path, const char *launch_id, int first_new, char *err,
                          size_t errlen) {
  repro_file r = {.d = d, .path = path, .launch_id = launch_id, .first_new = first_new, .c_rt = -1,
                  .c_size = -1, .c_count = -1, .c_nrep = -1, .li = -1, .tsize = 1};
  if (repro_variant(&r, err, errlen)) return -1;
  int rc = mg_ck_read_lines(path, repro_line, &r, &r.lineno, err, errlen);
  if (!rc && (!r.header || r.rows == 0))
    rc = MG_ERR("%s:%ld: no %s: an empty or interrupted file", path, r.lineno,
                r.header ? "data rows" : "header line");
  mg_ck_meta_free(&r.m);
  return rc;
}

int mg_ck_read_repro(mg_ck_data *d, const char *path, const char *launch_id, char *err, size_t errlen) {
  mg_ck_snapshot snap = mg_ck_snapshot_take(d);
  int rc = mg_ck_read_repro_into(d, path, launch_id, snap.nlaunches, err, errlen);
  if (rc) mg_ck_rollback(d, snap);
  return rc;
}
