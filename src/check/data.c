/*
 * Reading raw measurements (check.h): mpiguide's raw CSV (docs/bench.md) and
 * the original ReproMPI/PGChecker files data_<MPI_Coll>_<variant>.dat, into
 * series keyed by (collective, algorithm, size, launch).
 *
 * The readers are strict where a wrong number could follow from leniency: a
 * missing column, a row with the wrong number of fields, a value that is not
 * a number, an unknown collective, a last line without its line break or
 * fewer rows than the file's metadata announces (a truncated file) are
 * errors that name the file and the line. Extra columns are ignored and
 * columns may come in any order (a file re-saved by pandas or R still reads).
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "bench/csv.h"
#include "check/check.h"
#include "util/err.h"
#include "util/parse.h"
#include "util/text.h"


/* ---------- data model ---------- */

void mg_ck_data_init(mg_ck_data *d) { memset(d, 0, sizeof *d); }

static void launch_free(mg_ck_launch *l) {
  mg_ck_meta_free(&l->meta);
  free(l->source);
  free(l->mpi_name);
  free(l->mpi_version);
  free(l->hostname);
  free(l->date);
  free(l->sync);
  free(l->datatype);
  free(l->command);
}

static void series_free(mg_ck_series *s) {
  free(s->rt);
  free(s->round);
}

void mg_ck_data_free(mg_ck_data *d) {
  for (int i = 0; i < d->nlaunches; i++) launch_free(&d->launches[i]);
  for (int i = 0; i < d->nseries; i++) series_free(&d->series[i]);
  free(d->launches);
  free(d->series);
  free(d->notes);
  memset(d, 0, sizeof *d);
}

/* Drop everything added after a snapshot (a source that failed to read). */
typedef struct snapshot {
  int nlaunches, nseries, nnotes;
  long invalid, warmup;
} snapshot;

static snapshot take(const mg_ck_data *d) {
  return (snapshot){d->nlaunches, d->nseries, d->nnotes, d->invalid, d->warmup};
}

static void rollback(mg_ck_data *d, snapshot s) {
  for (int i = s.nlaunches; i < d->nlaunches; i++) launch_free(&d->launches[i]);
  for (int i = s.nseries; i < d->nseries; i++) series_free(&d->series[i]);
  d->nlaunches = s.nlaunches;
  d->nseries = s.nseries;
  d->nnotes = s.nnotes;
  d->invalid = s.invalid;
  d->warmup = s.warmup;
  d->last = 0;
}

const mg_ck_series *mg_ck_find(const mg_ck_data *d, mg_coll coll, const char *alg, size_t bytes, int launch) {
  for (int i = 0; i < d->nseries; i++) {
    const mg_ck_series *s = &d->series[i];
    if (s->coll == coll && s->bytes == bytes && s->launch == launch && !strcmp(s->alg, alg)) return s;
  }
  return NULL;
}

static mg_ck_series *get_series(mg_ck_data *d, mg_coll coll, const char *alg, size_t bytes, int launch) {
  if (d->last < d->nseries) {
    mg_ck_series *s = &d->series[d->last];
    if (s->coll == coll && s->bytes == bytes && s->launch == launch && !strcmp(s->alg, alg)) return s;
  }
  for (int i = 0; i < d->nseries; i++) {
    mg_ck_series *s = &d->series[i];
    if (s->coll == coll && s->bytes == bytes && s->launch == launch && !strcmp(s->alg, alg)) {
      d->last = i;
      return s;
    }
  }
  if (d->nseries == d->cap) {
    int nc = d->cap ? 2 * d->cap : 64;
    mg_ck_series *ns = realloc(d->series, (size_t)nc * sizeof *ns);
    if (!ns) return NULL;
    d->series = ns;
    d->cap = nc;
  }
  mg_ck_series *s = &d->series[d->nseries];
  memset(s, 0, sizeof *s);
  s->coll = coll;
  snprintf(s->alg, sizeof s->alg, "%s", alg);
  s->bytes = bytes;
  s->launch = launch;
  d->last = d->nseries++;
  return s;
}

static int series_push(mg_ck_series *s, double rt, long round) {
  if (s->n == s->cap) {
    long nc = s->cap ? 2 * s->cap : 64;
    double *r = realloc(s->rt, (size_t)nc * sizeof *r);
    if (!r) return -1;
    s->rt = r;
    long *o = realloc(s->round, (size_t)nc * sizeof *o);
    if (!o) return -1;
    s->round = o;
    s->cap = nc;
  }
  s->rt[s->n] = rt;
  s->round[s->n] = round;
  s->n++;
  return 0;
}

static int add_note(mg_ck_data *d, mg_coll coll, const char *alg, size_t bytes, int launch,
                    const char *text) {
  if (d->nnotes == d->notecap) {
    int nc = d->notecap ? 2 * d->notecap : 16;
    mg_ck_note *nn = realloc(d->notes, (size_t)nc * sizeof *nn);
    if (!nn) return -1;
    d->notes = nn;
    d->notecap = nc;
  }
  mg_ck_note *n = &d->notes[d->nnotes++];
  n->coll = coll;
  snprintf(n->alg, sizeof n->alg, "%s", alg);
  n->bytes = bytes;
  n->launch = launch;
  snprintf(n->text, sizeof n->text, "%.*s", (int)sizeof n->text - 1, text);
  return 0;
}

/* ---------- metadata of one file ---------- */

void mg_ck_meta_free(mg_ck_meta *m) {
  for (int i = 0; i < m->n; i++) free(m->v[i].key);
  free(m->v);
  memset(m, 0, sizeof *m);
}

/* "#@key=value" (line without the line break). 0, or -1 out of memory. */
static int meta_add(mg_ck_meta *m, const char *line, long lineno) {
  const char *eq = strchr(line + 2, '=');
  if (!eq) return 0; /* a comment that happens to start with #@ */
  if (m->n == m->cap) {
    int nc = m->cap ? 2 * m->cap : 64;
    mg_ck_kv *nv = realloc(m->v, (size_t)nc * sizeof *nv);
    if (!nv) return -1;
    m->v = nv;
    m->cap = nc;
  }
  size_t kl = (size_t)(eq - line - 2);
  char *k = malloc(strlen(line + 2) + 2);
  if (!k) return -1;
  memcpy(k, line + 2, kl);
  k[kl] = '\0';
  strcpy(k + kl + 1, eq + 1);
  m->v[m->n++] = (mg_ck_kv){k, k + kl + 1, lineno};
  return 0;
}

const char *mg_ck_meta_get(const mg_ck_meta *m, const char *key) {
  for (int i = m->n - 1; i >= 0; i--)
    if (!strcmp(m->v[i].key, key)) return m->v[i].val;
  return NULL;
}

/* A deep copy of m (the launch keeps the metadata of the file that created it). 0, or -1. */
static int meta_copy(mg_ck_meta *dst, const mg_ck_meta *m) {
  memset(dst, 0, sizeof *dst);
  if (!m->n) return 0;
  dst->v = calloc((size_t)m->n, sizeof *dst->v);
  if (!dst->v) return -1;
  dst->cap = m->n;
  for (int i = 0; i < m->n; i++) {
    size_t kl = strlen(m->v[i].key) + 1, vl = strlen(m->v[i].val) + 1;
    char *k = malloc(kl + vl);
    if (!k) return mg_ck_meta_free(dst), -1;
    memcpy(k, m->v[i].key, kl);
    memcpy(k + kl, m->v[i].val, vl);
    dst->v[dst->n++] = (mg_ck_kv){k, k + kl, m->v[i].line};
  }
  return 0;
}

static char *dupe(const char *s) { return strdup(s ? s : ""); }

/* Find or create the launch `id`. A launch read before from another file is
 * the same data given twice: an error. */
static int get_launch(mg_ck_data *d, const char *id, const char *source, const mg_ck_meta *m, int repro,
                      int first_new, char *err, size_t errlen) {
  for (int i = 0; i < d->nlaunches; i++)
    if (!strcmp(d->launches[i].id, id)) {
      if (i >= first_new) return i; /* created by this source */
      return MG_ERR("%s: launch '%s' was already read from %s (the same data given twice?)", source, id,
                 d->launches[i].source);
    }
  if (strlen(id) >= MG_CK_NAME) return MG_ERR("%s: launch id '%.40s...' is too long", source, id);
  mg_ck_launch *nl = realloc(d->launches, (size_t)(d->nlaunches + 1) * sizeof *nl);
  if (!nl) return MG_ERR("out of memory");
  d->launches = nl;
  mg_ck_launch *l = &d->launches[d->nlaunches];
  memset(l, 0, sizeof *l);
  snprintf(l->id, sizeof l->id, "%s", id);
  l->repro = repro;
  l->sync_cost = -1;
  const char *v;
  if ((v = mg_ck_meta_get(m, "sync_cost_sec"))) {
    char *end;
    double c = strtod(v, &end);
    if (end != v && !*end && isfinite(c) && c >= 0) l->sync_cost = c;
  }
  if ((v = mg_ck_meta_get(m, "nprocs"))) l->nprocs = atoi(v);
  if (mg_ck_meta_get(m, "check_format") && (v = mg_ck_meta_get(m, "seed"))) {
    char *end;
    unsigned long long sd = strtoull(v, &end, 10);
    if (end != v && !*end && sd <= UINT32_MAX) l->has_seed = 1, l->seed = (uint32_t)sd;
  }
  if ((v = mg_ck_meta_get(m, "nnodes"))) l->nnodes = atoi(v);
  l->source = dupe(source);
  l->mpi_name = dupe(mg_ck_meta_get(m, "mpi_library_name"));
  l->mpi_version = dupe(mg_ck_meta_get(m, "mpi_library_version"));
  l->hostname = dupe(mg_ck_meta_get(m, "hostname"));
  l->date = dupe(mg_ck_meta_get(m, "date"));
  l->sync = dupe(mg_ck_meta_get(m, "sync"));
  l->datatype = dupe(mg_ck_meta_get(m, "datatype"));
  l->command = dupe(mg_ck_meta_get(m, "command"));
  if (!l->source || !l->mpi_name || !l->mpi_version || !l->hostname || !l->date || !l->sync || !l->datatype ||
      !l->command || meta_copy(&l->meta, m)) {
    launch_free(l);
    return MG_ERR("out of memory");
  }
  return d->nlaunches++;
}

/* ---------- small parsers ---------- */

/* A positive byte count in plain digits (a column of a file: no suffix, no sign). */
static int parse_size(const char *s, size_t *out) {
  unsigned long long v;
  if (mg_parse_digits(s, strlen(s), SIZE_MAX / 2, &v) || v == 0) return -1;
  *out = (size_t)v;
  return 0;
}

/* Any integer, or a finite number >= 0 (a runtime): 0, or -1 for anything else. */
static int parse_long(const char *s, long *out) { return mg_parse_long(s, LONG_MIN, LONG_MAX, out, NULL, 0); }
static int parse_time(const char *s, double *out) { return mg_parse_double(s, 0, out, NULL, 0); }

static const char *base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* ---------- mpiguide raw CSV ---------- */

/* The columns: MG_RAW_COLUMNS of bench/csv.h, the writer's list. */
#define MAX_FIELDS 64

/* Resolve #@skipped= / #@failed= / #@stop= lines of a file whose launch is `launch`. */
static int file_notes(mg_ck_data *d, const mg_ck_meta *m, int launch, const char *path, char *err, size_t errlen) {
  for (int i = 0; i < m->n; i++) {
    int skipped = !strcmp(m->v[i].key, "skipped"), failed = !strcmp(m->v[i].key, "failed");
    if (!skipped && !failed) continue;
    char buf[512], *f[4];
    snprintf(buf, sizeof buf, "%s", m->v[i].val);
    /* coll,alg,bytes,note (the note may hold commas) */
    char *p = buf;
    int k = 0;
    for (; k < 3; k++) {
      f[k] = p;
      char *c = strchr(p, ',');
      if (!c) break;
      *c = '\0';
      p = c + 1;
    }
    if (k < 3) continue; /* not ours: ignore */
    f[3] = p;
    int c = mg_coll_find(f[0]);
    size_t bytes;
    if (c < 0 || parse_size(f[2], &bytes)) continue;
    if (add_note(d, (mg_coll)c, f[1], bytes, launch, f[3])) return MG_ERR("out of memory");
  }
  (void)path;
  return 0;
}

/* Compare the rows read with the #@stop counts (n = measurements, warm-up excluded). */
static int check_stops(const mg_ck_data *d, const mg_ck_meta *m, int launch, const char *path, long lineno,
                       char *err, size_t errlen) {
  for (int i = 0; i < m->n; i++) {
    if (strcmp(m->v[i].key, "stop")) continue;
    char buf[512], *f[8];
    snprintf(buf, sizeof buf, "%s", m->v[i].val);
    if (mg_csv_split(buf, f, 8) != 5) continue;
    int c = mg_coll_find(f[0]);
    size_t bytes;
    long want;
    if (c < 0 || parse_size(f[2], &bytes) || parse_long(f[4], &want)) continue;
    const mg_ck_series *s = mg_ck_find(d, (mg_coll)c, f[1], bytes, launch);
    long got = s ? s->rows : 0;
    if (got < want)
      return MG_ERR("%s:%ld: the file ends early (truncated?): %s %s at %zu bytes has %ld measurement rows, its "
                 "#@stop line (line %ld) says %ld",
                 path, lineno, f[0], f[1], bytes, got, m->v[i].line, want);
  }
  return 0;
}

int mg_ck_read_csv(mg_ck_data *d, const char *path, char *err, size_t errlen) {
  FILE *f = fopen(path, "r");
  if (!f) return MG_ERR("%s: cannot open: %s", path, strerror(errno));
  snapshot snap = take(d);
  mg_ck_meta m = {0};
  char *line = NULL, *fld[MAX_FIELDS];
  size_t cap = 0;
  long lineno = 0, rows = 0, len;
  int col[MG_RAW_NCOLS], nfields = 0, header = 0, nl = 1, rc = -1, file_launch = -1;
  while ((len = mg_read_line(f, &line, &cap, &nl)) >= 0) {
    lineno++;
    if (!nl) {
      (void)MG_ERR("%s:%ld: the last line has no line break: the file was cut short (truncated?)", path, lineno);
      goto out;
    }
    if (line[0] == '#') {
      if (line[1] == '@' && !header && meta_add(&m, line, lineno)) {
        (void)MG_ERR("out of memory");
        goto out;
      }
      continue;
    }
    if (len == 0) continue;
    if (!header) {
      if (memchr(line, '\0', (size_t)len)) {
        (void)MG_ERR("%s:%ld: binary data, not a CSV file", path, lineno);
        goto out;
      }
      nfields = mg_csv_split(line, fld, MAX_FIELDS);
      if (nfields < 0 || nfields > MAX_FIELDS) {
        (void)MG_ERR("%s:%ld: not a CSV header line", path, lineno);
        goto out;
      }
      for (int c = 0; c < MG_RAW_NCOLS; c++) {
        col[c] = -1;
        for (int k = 0; k < nfields; k++)
          if (!strcmp(fld[k], mg_raw_col_names[c])) col[c] = k;
      }
      int have = 0;
      for (int c = 0; c < MG_RAW_NCOLS; c++) have += col[c] >= 0;
      for (int c = 0; c < MG_RAW_NCOLS; c++)
        if (col[c] < 0) {
          if (have <= 2)
            (void)MG_ERR(
                "%s:%ld: not an mpiguide raw CSV: the header has none of the columns %s (is this the raw "
                "file of `mpiguide bench` or `mpiguide check`?)",
                path, lineno, "collective,algorithm,bytes,...,runtime_sec,valid");
          else
            (void)MG_ERR("%s:%ld: the header lacks the column '%s' (an mpiguide raw CSV has the columns %s)", path,
                         lineno, mg_raw_col_names[c], mg_raw_columns);
          goto out;
        }
      header = 1;
      continue;
    }
    int n = mg_csv_split(line, fld, MAX_FIELDS);
    if (n < 0) {
      (void)MG_ERR("%s:%ld: unterminated quoted field", path, lineno);
      goto out;
    }
    if (n != nfields) {
      (void)MG_ERR("%s:%ld: %d fields, the header has %d", path, lineno, n, nfields);
      goto out;
    }
    int c = mg_coll_find(fld[col[MG_RAW_COLL]]);
    if (c < 0) {
      (void)MG_ERR("%s:%ld: unknown collective '%s' (known: %s)", path, lineno, fld[col[MG_RAW_COLL]], mg_coll_names());
      goto out;
    }
    const char *alg = fld[col[MG_RAW_ALG]];
    if (!*alg || strlen(alg) >= MG_CK_NAME) {
      (void)MG_ERR("%s:%ld: algorithm name '%.60s' is empty or too long", path, lineno, alg);
      goto out;
    }
    if (!strcmp(alg, MG_CK_AA_NAME)) {
      (void)MG_ERR("%s:%ld: algorithm name '%s' is reserved for the A/A control", path, lineno, alg);
      goto out;
    }
    size_t bytes;
    long round, rep, warm, valid;
    double rt;
    /* the first bad column, and what it should hold */
    static const char *const expect[] = {"a positive byte count",
                                         "a non-negative integer",
                                         "a non-negative integer",
                                         "0 or 1",
                                         "0 or 1",
                                         "a runtime in seconds (a finite number >= 0)"};
    static const int which[] = {MG_RAW_BYTES, MG_RAW_ROUND, MG_RAW_REP, MG_RAW_WARMUP, MG_RAW_VALID, MG_RAW_RUNTIME};
    int bad = parse_size(fld[col[MG_RAW_BYTES]], &bytes)                                 ? 0
              : parse_long(fld[col[MG_RAW_ROUND]], &round) || round < 0                  ? 1
              : parse_long(fld[col[MG_RAW_REP]], &rep) || rep < 0                        ? 2
              : parse_long(fld[col[MG_RAW_WARMUP]], &warm) || (warm != 0 && warm != 1)   ? 3
              : parse_long(fld[col[MG_RAW_VALID]], &valid) || (valid != 0 && valid != 1) ? 4
              : parse_time(fld[col[MG_RAW_RUNTIME]], &rt)                                ? 5
                                                                                    : -1;
    if (bad >= 0) {
      (void)MG_ERR("%s:%ld: column %s: '%s' is not %s", path, lineno, mg_raw_col_names[which[bad]], fld[col[which[bad]]],
                expect[bad]);
      goto out;
    }
    const char *lid = fld[col[MG_RAW_LAUNCH]];
    if (!*lid) lid = mg_ck_meta_get(&m, "launch") ? mg_ck_meta_get(&m, "launch") : path;
    int li = get_launch(d, lid, path, &m, 0, snap.nlaunches, err, errlen);
    if (li < 0) goto out;
    long np;
    if (!parse_long(fld[col[MG_RAW_NPROCS]], &np) && np > 0) {
      if (d->launches[li].nprocs == 0)
        d->launches[li].nprocs = (int)np;
      else if (d->launches[li].nprocs != np) {
        (void)MG_ERR("%s:%ld: nprocs %ld, but launch '%s' has %d processes", path, lineno, np, lid,
                  d->launches[li].nprocs);
        goto out;
      }
    }
    if (file_launch < 0) file_launch = li;
    rows++;
    if (warm) {
      d->warmup++;
      continue;
    }
    mg_ck_series *s = get_series(d, (mg_coll)c, alg, bytes, li);
    if (!s) {
      (void)MG_ERR("out of memory");
      goto out;
    }
    s->rows++;
    if (!valid) {
      d->invalid++;
      continue;
    }
    if (series_push(s, rt, round)) {
      (void)MG_ERR("out of memory");
      goto out;
    }
  }
  if (len == -2) {
    (void)MG_ERR("%s: read error after line %ld: %s", path, lineno, strerror(errno));
    goto out;
  }
  if (lineno == 0) {
    (void)MG_ERR("%s: the file is empty (an interrupted run?)", path);
    goto out;
  }
  if (!header) {
    (void)MG_ERR("%s:%ld: no header line and no data: a metadata-only file (an interrupted run?)", path, lineno);
    goto out;
  }
  const char *want = mg_ck_meta_get(&m, "check_rows");
  if (want && atol(want) != rows) {
    (void)MG_ERR("%s:%ld: the file ends early (truncated?): %ld data rows, its #@check_rows says %s", path,
              lineno, rows, want);
    goto out;
  }
  if (rows == 0) {
    (void)MG_ERR("%s:%ld: no data rows after the header", path, lineno);
    goto out;
  }
  const char *ml = mg_ck_meta_get(&m, "launch");
  int meta_launch = file_launch;
  if (ml)
    for (int i = snap.nlaunches; i < d->nlaunches; i++)
      if (!strcmp(d->launches[i].id, ml)) meta_launch = i;
  if (check_stops(d, &m, meta_launch, path, lineno, err, errlen)) goto out;
  if (file_notes(d, &m, meta_launch, path, err, errlen)) goto out;
  rc = 0;
out:
  if (rc) rollback(d, snap);
  free(line);
  mg_ck_meta_free(&m);
  fclose(f);
  return rc;
}

/* ---------- ReproMPI files ---------- */

/* data_<MPI_Coll>_<variant>.dat -> collective, variant. The MPI name holds
 * underscores itself (MPI_Reduce_scatter_block): take the longest match. */
static int repro_name(const char *path, int *coll, char *variant, size_t vlen) {
  const char *b = base_name(path);
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

static int read_repro(mg_ck_data *d, const char *path, const char *launch_id, int first_new, char *err,
                      size_t errlen) {
  int coll;
  char variant[MG_CK_NAME];
  int nr = repro_name(path, &coll, variant, sizeof variant);
  if (nr == -1) return MG_ERR("%s: not a ReproMPI data file (expected data_<MPI_Coll>_<variant>.dat)", path);
  if (nr == -2)
    return MG_ERR("%s: unknown collective in the file name (known: MPI_Allgather, MPI_Allreduce, "
               "MPI_Alltoall, MPI_Bcast, MPI_Gather, MPI_Reduce, MPI_Reduce_scatter_block, MPI_Scan, "
               "MPI_Scatter)",
               path);
  if (nr == -3) return MG_ERR("%s: no variant, or a variant name too long, in the file name", path);
  /* PGChecker names the library's own operation by its MPI name or "default" */
  if (!strcmp(variant, mg_colls[coll].mpi_name) || !strcasecmp(variant, "default"))
    snprintf(variant, sizeof variant, "default");
  if (!strcmp(variant, MG_CK_AA_NAME))
    return MG_ERR("%s: variant name '%s' is reserved for the A/A control", path, variant);
  FILE *f = fopen(path, "r");
  if (!f) return MG_ERR("%s: cannot open: %s", path, strerror(errno));
  mg_ck_meta m = {0};
  char *line = NULL, *fld[MAX_FIELDS];
  size_t cap = 0;
  long lineno = 0, rows = 0, len;
  int c_rt = -1, c_size = -1, c_count = -1, c_nrep = -1, nfields = 0, header = 0, nl = 1, rc = -1, li = -1;
  int tsize = 1;
  while ((len = mg_read_line(f, &line, &cap, &nl)) >= 0) {
    lineno++;
    if (!nl) {
      (void)MG_ERR("%s:%ld: the last line has no line break: the file was cut short (truncated?)", path, lineno);
      goto out;
    }
    if (line[0] == '#') {
      if (line[1] == '@' && !header && meta_add(&m, line, lineno)) {
        (void)MG_ERR("out of memory");
        goto out;
      }
      continue;
    }
    if (strspn(line, " \t") == (size_t)len) continue;
    if (!header) {
      nfields = mg_split_blanks(line, fld, MAX_FIELDS);
      if (nfields > MAX_FIELDS) nfields = MAX_FIELDS;
      for (int k = 0; k < nfields; k++) {
        if (!strcmp(fld[k], mg_repro_col_names[MG_REPRO_RUNTIME]))
          c_rt = k;
        else if (!strcmp(fld[k], mg_repro_col_names[MG_REPRO_MSIZE]))
          c_size = k;
        else if (!strcmp(fld[k], "count")) /* original ReproMPI files: elements, not bytes */
          c_count = k;
        else if (!strcmp(fld[k], mg_repro_col_names[MG_REPRO_NREP]))
          c_nrep = k;
      }
      if (c_rt < 0 || (c_size < 0 && c_count < 0)) {
        (void)MG_ERR("%s:%ld: the header lacks the column '%s' (a ReproMPI file has the columns test nrep msize "
                  "runtime_sec)",
                  path, lineno, c_rt < 0 ? "runtime_sec" : "msize");
        goto out;
      }
      if (c_size < 0) { /* sizes as element counts: need the datatype */
        const char *dt = mg_ck_meta_get(&m, "datatype_size");
        tsize = dt ? atoi(dt) : mg_ck_meta_get(&m, "datatype") ? dtype_size(mg_ck_meta_get(&m, "datatype")) : 1;
        if (tsize <= 0) {
          (void)MG_ERR("%s:%ld: sizes are element counts ('count') of datatype '%s', whose size is unknown",
                    path, lineno, mg_ck_meta_get(&m, "datatype"));
          goto out;
        }
      }
      const char *lid = launch_id ? launch_id : mg_ck_meta_get(&m, "launch") ? mg_ck_meta_get(&m, "launch") : path;
      if ((li = get_launch(d, lid, path, &m, 1, first_new, err, errlen)) < 0) goto out;
      mg_ck_launch *L = &d->launches[li];
      if (L->sync_cost < 0 && mg_ck_meta_get(&m, "sync_cost_sec")) { /* a later file of the set has it */
        char *end;
        double v = strtod(mg_ck_meta_get(&m, "sync_cost_sec"), &end);
        if (!*end && isfinite(v) && v >= 0) L->sync_cost = v;
      }
      if (L->nprocs == 0 && mg_ck_meta_get(&m, "nprocs")) L->nprocs = atoi(mg_ck_meta_get(&m, "nprocs"));
      header = 1;
      continue;
    }
    int n = mg_split_blanks(line, fld, MAX_FIELDS);
    if (n != nfields) {
      (void)MG_ERR("%s:%ld: %d fields, the header has %d", path, lineno, n, nfields);
      goto out;
    }
    size_t bytes;
    long rep = rows;
    double rt;
    const char *sz = fld[c_size >= 0 ? c_size : c_count];
    if (parse_size(sz, &bytes)) {
      (void)MG_ERR("%s:%ld: column %s: '%s' is not a positive size", path, lineno,
                c_size >= 0 ? "msize" : "count", sz);
      goto out;
    }
    bytes *= (size_t)tsize;
    if (c_nrep >= 0 && (parse_long(fld[c_nrep], &rep) || rep < 0)) {
      (void)MG_ERR("%s:%ld: column nrep: '%s' is not a non-negative integer", path, lineno, fld[c_nrep]);
      goto out;
    }
    if (parse_time(fld[c_rt], &rt)) {
      (void)MG_ERR("%s:%ld: column runtime_sec: '%s' is not a runtime in seconds (a finite number >= 0)", path,
                lineno, fld[c_rt]);
      goto out;
    }
    mg_ck_series *s = get_series(d, (mg_coll)coll, variant, bytes, li);
    if (!s || series_push(s, rt, rep)) {
      (void)MG_ERR("out of memory");
      goto out;
    }
    s->rows++;
    rows++;
  }
  if (len == -2) {
    (void)MG_ERR("%s: read error after line %ld: %s", path, lineno, strerror(errno));
    goto out;
  }
  if (!header || rows == 0) {
    (void)MG_ERR("%s:%ld: no %s: an empty or interrupted file", path, lineno,
              header ? "data rows" : "header line");
    goto out;
  }
  rc = 0;
out:
  free(line);
  mg_ck_meta_free(&m);
  fclose(f);
  return rc;
}

int mg_ck_read_repro(mg_ck_data *d, const char *path, const char *launch_id, char *err, size_t errlen) {
  snapshot snap = take(d);
  int rc = read_repro(d, path, launch_id, snap.nlaunches, err, errlen);
  if (rc) rollback(d, snap);
  return rc;
}

/* ---------- sources ---------- */

int mg_ck_read_meta(const char *path, mg_ck_meta *m, char *err, size_t errlen) {
  memset(m, 0, sizeof *m);
  FILE *f = fopen(path, "r");
  if (!f) return MG_ERR("%s: cannot open: %s", path, strerror(errno));
  char *line = NULL;
  size_t cap = 0;
  long lineno = 0;
  int nl, rc = 0;
  while (mg_read_line(f, &line, &cap, &nl) >= 0 && line[0] == '#') {
    lineno++;
    if (line[1] == '@' && meta_add(m, line, lineno)) {
      mg_ck_meta_free(m);
      rc = MG_ERR("out of memory");
      break;
    }
  }
  free(line);
  fclose(f);
  return rc;
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static int read_dir(mg_ck_data *d, const char *dir, char *err, size_t errlen) {
  size_t dl = strlen(dir);
  char *p = malloc(dl + 16);
  if (!p) return MG_ERR("out of memory");
  snprintf(p, dl + 16, "%s/raw.csv", dir);
  struct stat st;
  if (stat(p, &st) == 0) {
    int rc = mg_ck_read_csv(d, p, err, errlen);
    free(p);
    return rc;
  }
  free(p);
  DIR *dh = opendir(dir);
  if (!dh) return MG_ERR("%s: cannot read the directory: %s", dir, strerror(errno));
  char **names = NULL;
  int n = 0, rc = 0;
  struct dirent *e;
  while ((e = readdir(dh))) {
    size_t l = strlen(e->d_name);
    if (strncmp(e->d_name, "data_", 5) || l < 10 || strcmp(e->d_name + l - 4, ".dat")) continue;
    char **nn = realloc(names, (size_t)(n + 1) * sizeof *nn);
    if (!nn || !(nn[n] = malloc(dl + l + 2))) {
      names = nn ? nn : names;
      rc = MG_ERR("out of memory");
      break;
    }
    names = nn;
    snprintf(names[n++], dl + l + 2, "%s/%s", dir, e->d_name);
  }
  closedir(dh);
  if (!rc && n == 0)
    rc = MG_ERR("%s: no raw data: neither raw.csv nor ReproMPI files data_<MPI_Coll>_<variant>.dat", dir);
  if (!rc) {
    qsort(names, (size_t)n, sizeof *names, cmp_str); /* deterministic order */
    snapshot snap = take(d);
    /* one directory of ReproMPI files is one launch: the #@launch of its files, else the directory */
    char lid[MG_CK_NAME];
    snprintf(lid, sizeof lid, "%s", dir);
    if (strlen(dir) >= MG_CK_NAME) snprintf(lid, sizeof lid, "...%s", dir + strlen(dir) - (MG_CK_NAME - 4));
    for (int i = 0; i < n && !rc; i++) rc = read_repro(d, names[i], lid, snap.nlaunches, err, errlen);
    if (rc) rollback(d, snap);
  }
  for (int i = 0; i < n; i++) free(names[i]);
  free(names);
  return rc;
}

int mg_ck_read(mg_ck_data *d, const char *path, char *err, size_t errlen) {
  struct stat st;
  if (stat(path, &st) != 0) return MG_ERR("%s: %s", path, strerror(errno));
  if (S_ISDIR(st.st_mode)) return read_dir(d, path, err, errlen);
  const char *b = base_name(path);
  size_t l = strlen(b);
  if (!strncmp(b, "data_", 5) && l > 4 && !strcmp(b + l - 4, ".dat"))
    return mg_ck_read_repro(d, path, NULL, err, errlen);
  return mg_ck_read_csv(d, path, err, errlen);
}

/* Two launches may be pooled only when they ran the same configuration: MPI library and
 * version, process count, nodes and ranks per node (unknown values do not conflict). */
static int same_text(const char *x, const char *y) { return !x || !y || !*x || !*y || !strcmp(x, y); }
static int same_num(long x, long y) { return x <= 0 || y <= 0 || x == y; }

int mg_ck_data_check(const mg_ck_data *d, char *err, size_t errlen) {
  if (d->nlaunches == 0 || d->nseries == 0) return MG_ERR("no measurements");
  static const char *const fix = "merge only launches of one configuration; compare configurations side by "
                                 "side with `mpiguide report DIR1 DIR2`";
  const mg_ck_launch *a = &d->launches[0];
  const char *rpn_a = mg_ck_meta_get(&a->meta, "ranks_per_node");
  for (int i = 1; i < d->nlaunches; i++) {
    const mg_ck_launch *b = &d->launches[i];
    const char *rpn_b = mg_ck_meta_get(&b->meta, "ranks_per_node");
    if (!same_num(a->nprocs, b->nprocs))
      return MG_ERR("launch '%s' (%s) ran on %d processes, launch '%s' (%s) on %d: %s", a->id, a->source, a->nprocs,
                    b->id, b->source, b->nprocs, fix);
    if (!same_text(a->mpi_name, b->mpi_name) || !same_text(a->mpi_version, b->mpi_version))
      return MG_ERR("launch '%s' (%s) ran %s '%.60s', launch '%s' (%s) %s '%.60s': %s", a->id, a->source,
                    a->mpi_name, a->mpi_version, b->id, b->source, b->mpi_name, b->mpi_version, fix);
    if (!same_num(a->nnodes, b->nnodes) || !same_text(rpn_a, rpn_b))
      return MG_ERR("launch '%s' (%s) ran on %d node(s) x %s ranks, launch '%s' (%s) on %d node(s) x %s: %s", a->id,
                    a->source, a->nnodes, rpn_a ? rpn_a : "?", b->id, b->source, b->nnodes, rpn_b ? rpn_b : "?",
                    fix);
  }
  return 0;
}
