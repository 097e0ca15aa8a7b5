/*
 * The reader of mpiguide's raw CSV (docs/bench.md; reader.h): #@ metadata
 * lines, a header naming the columns of MG_RAW_COLUMNS (bench/csv.h, the
 * writer's list) in any order, extra columns ignored, then one row per
 * measurement. What the metadata announces is checked against what was read:
 * #@check_rows and the #@stop counts catch a truncated file; #@skipped and
 * #@failed lines become notes on their series. Every error names the file
 * and the line, and a file that fails leaves `d` as it was.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/csv.h"
#include "bench/pack.h"
#include "check/check.h"
#include "check/reader.h"
#include "util/err.h"
#include "util/text.h"

/* Resolve #@skipped= / #@failed= / #@measure_only= lines of a file whose launch is `launch`. */
static int file_notes(mg_ck_data *d, const mg_ck_meta *m, int launch, const char *path, char *err, size_t errlen) {
  for (int i = 0; i < m->n; i++) {
    int skipped = !strcmp(m->v[i].key, "skipped"), failed = !strcmp(m->v[i].key, "failed");
    if (!skipped && !failed && strcmp(m->v[i].key, "measure_only")) continue; /* its note begins "measure only" */
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
    char red[MG_CK_RED];
    int c = mg_ck_block_name(f[0], m, red);
    size_t bytes;
    if (c < 0 || mg_ck_parse_size(f[2], &bytes)) continue;
    if (mg_ck_note_add(d, (mg_coll)c, f[1], bytes, red, launch, f[3])) return MG_ERR("out of memory");
  }
  (void)path;
  return 0;
}

/* A pack.csv's #@failed=OP,VARIANT,BYTES,NOTE lines: notes on its series, keyed by its #@datatype. */
static int pack_notes(mg_ck_data *d, const mg_ck_meta *m, int launch, char *err, size_t errlen) {
  const char *dt = mg_ck_meta_get(m, "datatype");
  for (int i = 0; i < m->n && dt; i++) {
    if (strcmp(m->v[i].key, "failed")) continue;
    char buf[512], *f[3];
    snprintf(buf, sizeof buf, "%s", m->v[i].val);
    char *p = buf;
    int k = 0;
    for (; k < 3 && p; k++) {
      f[k] = p;
      if ((p = strchr(p, ','))) *p++ = '\0';
    }
    int op = k == 3 && p ? mg_pack_op_find(f[0]) : -1;
    size_t bytes;
    if (op < 0 || mg_ck_parse_size(f[2], &bytes) || strlen(dt) >= MG_CK_RED) continue; /* not ours */
    if (mg_ck_note_add(d, (mg_coll)op, f[1], bytes, dt, launch, p)) return MG_ERR("out of memory");
  }
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
    char red[MG_CK_RED];
    int c = mg_ck_block_name(f[0], m, red);
    size_t bytes;
    long want;
    if (c < 0 || mg_ck_parse_size(f[2], &bytes) || mg_ck_parse_long(f[4], &want)) continue;
    /* the #@stop line counts a series of the bench: with pattern cart, all its directions */
    long got = 0;
    for (int k = 0; k < d->nseries; k++) {
      const mg_ck_series *s = &d->series[k];
      if (s->coll == (mg_coll)c && s->bytes == bytes && s->launch == launch && !strcmp(s->alg, f[1]) &&
          (!strcmp(s->red, red) || (!*red && mg_ck_pair_of(s->red))))
        got += s->rows;
    }
    if (got < want)
      return MG_ERR("%s:%ld: the file ends early (truncated?): %s %s at %zu bytes has %ld measurement rows, its "
                    "#@stop line (line %ld) says %ld",
                    path, lineno, f[0], f[1], bytes, got, m->v[i].line, want);
  }
  return 0;
}

/* One file being read: what its metadata and header said, what it added so far. */
typedef struct raw_file {
  mg_ck_data *d;
  const char *path;
  mg_ck_meta m;          /* the #@ lines before the header */
  mg_ck_snapshot snap;   /* d before this file */
  int col[MG_RAW_NCOLS]; /* the field of each column */
  int nfields, header;
  int file_launch; /* the launch of the first row, -1 before it */
  long lineno, rows;
  int pack;        /* a check's pack.csv (bench/pack.h): its operations are pack and unpack */
} raw_file;

/* One data row, parsed. */
typedef struct raw_row {
  mg_coll coll;
  const char *alg, *launch;
  size_t bytes;
  char red[MG_CK_RED];
  int root;
  long round, rep, warm, valid;
  double rt;
} raw_row;

/* Columns that mpiguide-bench-raw/1 did not have (their values were the file's #@ lines), and pair,
 * which /2 did not have (pattern cart measured the whole exchange: one series per row and size). */
static int optional_column(int c) { return c == MG_RAW_OP || c == MG_RAW_ROOT || c == MG_RAW_PAIR; }

/* The header line: find every column of MG_RAW_COLUMNS. */
static int read_header(raw_file *r, char *line, long len, char *err, size_t errlen) {
  char *fld[MG_CK_MAX_FIELDS];
  if (memchr(line, '\0', (size_t)len)) return MG_ERR("%s:%ld: binary data, not a CSV file", r->path, r->lineno);
  r->nfields = mg_csv_split(line, fld, MG_CK_MAX_FIELDS);
  if (r->nfields < 0 || r->nfields > MG_CK_MAX_FIELDS)
    return MG_ERR("%s:%ld: not a CSV header line", r->path, r->lineno);
  for (int c = 0; c < MG_RAW_NCOLS; c++) {
    r->col[c] = -1;
    for (int k = 0; k < r->nfields; k++)
      if (!strcmp(fld[k], mg_raw_col_names[c])) r->col[c] = k;
  }
  const char *fmt = mg_ck_meta_get(&r->m, "format"); /* a pack.csv is read beside its raw.csv only */
  if ((fmt && !strcmp(fmt, MG_PACK_FORMAT)) != r->pack)
    return MG_ERR(r->pack ? "%s:%ld: not a pack.csv of mpiguide check (its #@format is not " MG_PACK_FORMAT ")"
                          : "%s:%ld: a pack.csv of mpiguide check (TGT 2010 eq. 4), not raw measurements of "
                            "collectives: give the directory that holds it and its raw.csv",
                  r->path, r->lineno);
  int have = 0;
  for (int c = 0; c < MG_RAW_NCOLS; c++) have += r->col[c] >= 0;
  for (int c = 0; c < MG_RAW_NCOLS; c++)
    if (r->col[c] < 0 && !optional_column(c)) {
      if (have <= 2)
        return MG_ERR("%s:%ld: not an mpiguide raw CSV: the header has none of the columns %s (is this the raw "
                      "file of `mpiguide bench` or `mpiguide check`?)",
                      r->path, r->lineno, "collective,algorithm,bytes,...,runtime_sec,valid");
      return MG_ERR("%s:%ld: the header lacks the column '%s' (an mpiguide raw CSV has the columns %s)", r->path,
                    r->lineno, mg_raw_col_names[c], mg_raw_columns);
    }
  r->header = 1;
  return 0;
}

/* raw.csv's pair column: pattern cart's direction (d0-, d0+, d1-, d1+) or cartpair's ranks I-J (digits,
 * I < J). */
static int pair_key(const char *p) {
  if (p[0] == 'd') return (p[1] == '0' || p[1] == '1') && (p[2] == '-' || p[2] == '+') && !p[3];
  size_t a = strspn(p, "0123456789");
  if (a == 0 || a > 9 || p[a] != '-') return 0;
  size_t b = strspn(p + a + 1, "0123456789");
  return b > 0 && b <= 9 && !p[a + 1 + b] && atol(p) < atol(p + a + 1);
}

/* The values of a data row (fields split): collective, algorithm and the numbers. */
static int parse_row(const raw_file *r, char **fld, raw_row *w, char *err, size_t errlen) {
  const int *col = r->col;
  int c = r->pack ? mg_pack_op_find(fld[col[MG_RAW_COLL]]) : mg_coll_find(fld[col[MG_RAW_COLL]]);
  if (c < 0 && r->pack)
    return MG_ERR("%s:%ld: unknown operation '%.40s' (a pack.csv measures pack and unpack)", r->path, r->lineno,
                  fld[col[MG_RAW_COLL]]);
  if (c < 0)
    return MG_ERR("%s:%ld: unknown collective '%s' (known: %s)", r->path, r->lineno, fld[col[MG_RAW_COLL]],
                  mg_coll_names());
  w->coll = (mg_coll)c;
  w->alg = fld[col[MG_RAW_ALG]];
  if (!*w->alg || strlen(w->alg) >= MG_CK_NAME)
    return MG_ERR("%s:%ld: algorithm name '%.60s' is empty or too long", r->path, r->lineno, w->alg);
  if (!strcmp(w->alg, MG_CK_AA_NAME))
    return MG_ERR("%s:%ld: algorithm name '%s' is reserved for the A/A control", r->path, r->lineno, w->alg);
  /* the first bad column, and what it should hold */
  static const char *const expect[] = {"a positive byte count (0 for a barrier)",
                                       "a non-negative integer",
                                       "a non-negative integer",
                                       "0 or 1",
                                       "0 or 1",
                                       "a runtime in seconds (a finite number >= 0)"};
  static const int which[] = {MG_RAW_BYTES, MG_RAW_ROUND, MG_RAW_REP, MG_RAW_WARMUP, MG_RAW_VALID, MG_RAW_RUNTIME};
  int bad = mg_ck_parse_size(fld[col[MG_RAW_BYTES]], &w->bytes) || (w->bytes == 0 && c != MG_BARRIER) ? 0
            : mg_ck_parse_long(fld[col[MG_RAW_ROUND]], &w->round) || w->round < 0                  ? 1
            : mg_ck_parse_long(fld[col[MG_RAW_REP]], &w->rep) || w->rep < 0                        ? 2
            : mg_ck_parse_long(fld[col[MG_RAW_WARMUP]], &w->warm) || (w->warm != 0 && w->warm != 1) ? 3
            : mg_ck_parse_long(fld[col[MG_RAW_VALID]], &w->valid) || (w->valid != 0 && w->valid != 1) ? 4
            : mg_ck_parse_time(fld[col[MG_RAW_RUNTIME]], &w->rt)                                   ? 5
                                                                                                   : -1;
  if (bad >= 0)
    return MG_ERR("%s:%ld: column %s: '%s' is not %s", r->path, r->lineno, mg_raw_col_names[which[bad]],
                  fld[col[which[bad]]], expect[bad]);
  w->launch = fld[col[MG_RAW_LAUNCH]];
  if (r->pack) { /* TGT 2010 eq. 4: keyed by the datatype; no root, no pair */
    const char *dt = fld[col[MG_RAW_DTYPE]];
    if (!*dt || strlen(dt) >= MG_CK_RED)
      return MG_ERR("%s:%ld: datatype '%.40s' is empty or too long", r->path, r->lineno, dt);
    snprintf(w->red, MG_CK_RED, "%s", dt);
    w->root = -1;
    return 0;
  }
  /* the reduction's pair and the root: columns since mpiguide-bench-raw/2, else the #@ lines */
  const char *op = col[MG_RAW_OP] >= 0 ? fld[col[MG_RAW_OP]] : mg_ck_meta_get(&r->m, "op");
  mg_ck_red_of(w->coll, fld[col[MG_RAW_DTYPE]], op, w->red);
  const char *root = col[MG_RAW_ROOT] >= 0 ? fld[col[MG_RAW_ROOT]] : mg_ck_meta_get(&r->m, "root");
  long rt = -1;
  if (mg_colls[w->coll].rooted && root && *root && (mg_ck_parse_long(root, &rt) || rt < 0 || rt > INT32_MAX))
    return MG_ERR("%s:%ld: root '%s' is not a rank", r->path, r->lineno, root);
  w->root = mg_colls[w->coll].rooted ? (int)rt : -1;
  /* pattern cart's direction (mpiguide-bench-raw/3): a series of its own, keyed in place of a pair
   * (sendrecv reduces nothing), so TGT 2010 eq. 37 is judged per direction (mg_ck_pair_key) */
  const char *pair = col[MG_RAW_PAIR] >= 0 ? fld[col[MG_RAW_PAIR]] : "";
  if (*pair) {
    if (mg_colls[w->coll].reduction || strlen(pair) + strlen(MG_CK_PAIR_PREFIX) >= MG_CK_RED || !pair_key(pair))
      return MG_ERR("%s:%ld: pair '%.40s': a neighbour direction of sendrecv (d0-, d0+, d1-, d1+; pattern cart) or "
                    "a neighbour pair of ranks I-J (pattern cartpair) was expected",
                    r->path, r->lineno, pair);
    snprintf(w->red, MG_CK_RED, "%s%s", MG_CK_PAIR_PREFIX, pair);
  }
  return 0;
}

/* A data row: its launch (and process count), then its series. */
static int read_row(raw_file *r, char *line, char *err, size_t errlen) {
  char *fld[MG_CK_MAX_FIELDS];
  int n = mg_csv_split(line, fld, MG_CK_MAX_FIELDS);
  if (n < 0) return MG_ERR("%s:%ld: unterminated quoted field", r->path, r->lineno);
  if (n != r->nfields) return MG_ERR("%s:%ld: %d fields, the header has %d", r->path, r->lineno, n, r->nfields);
  raw_row w;
  if (parse_row(r, fld, &w, err, errlen)) return -1;
  mg_ck_data *d = r->d;
  const char *lid = w.launch;
  if (!*lid) lid = mg_ck_meta_get(&r->m, "launch") ? mg_ck_meta_get(&r->m, "launch") : r->path;
  int li = mg_ck_launch_get(d, lid, r->path, &r->m, 0, r->snap.nlaunches, err, errlen);
  if (li < 0) return -1;
  long np;
  if (!mg_ck_parse_long(fld[r->col[MG_RAW_NPROCS]], &np) && np > 0) {
    if (d->launches[li].nprocs == 0)
      d->launches[li].nprocs = (int)np;
    else if (d->launches[li].nprocs != np)
      return MG_ERR("%s:%ld: nprocs %ld, but launch '%s' has %d processes", r->path, r->lineno, np, lid,
                    d->launches[li].nprocs);
  }
  if (r->file_launch < 0) r->file_launch = li;
  r->rows++;
  if (w.warm) {
    d->warmup++;
    return 0;
  }
  mg_ck_series *s = mg_ck_series_get(d, w.coll, w.alg, w.bytes, w.red, li);
  if (!s) return MG_ERR("out of memory");
  s->rows++;
  if (!w.valid) {
    d->invalid++;
    return 0;
  }
  if (mg_ck_series_push(s, w.rt, w.round, w.root)) return MG_ERR("out of memory");
  return 0;
}

/* After the last line: a complete file with rows, whose #@ counts and notes hold. */
static int read_end(raw_file *r, char *err, size_t errlen) {
  if (r->lineno == 0) return MG_ERR("%s: the file is empty (an interrupted run?)", r->path);
  if (!r->header)
    return MG_ERR("%s:%ld: no header line and no data: a metadata-only file (an interrupted run?)", r->path,
                  r->lineno);
  long want;
  const char *key = "check_rows"; /* check's count; bench's and verify's files say #@rows */
  int has = mg_ck_meta_int(&r->m, key, r->path, 0, LONG_MAX, &want, err, errlen);
  if (!has) has = mg_ck_meta_int(&r->m, key = "rows", r->path, 0, LONG_MAX, &want, err, errlen);
  if (has < 0) return -1; /* #@check_rows=62junk was read by atol as 62 */
  if (has && want != r->rows)
    return MG_ERR("%s:%ld: the file ends early (truncated?): %ld data rows, its #@%s says %ld", r->path,
                  r->lineno, r->rows, key, want);
  if (r->rows == 0) return MG_ERR("%s:%ld: no data rows after the header", r->path, r->lineno);
  const char *ml = mg_ck_meta_get(&r->m, "launch");
  int meta_launch = r->file_launch;
  if (ml)
    for (int i = r->snap.nlaunches; i < r->d->nlaunches; i++)
      if (!strcmp(r->d->launches[i].id, ml)) meta_launch = i;
  if (r->pack) return pack_notes(r->d, &r->m, meta_launch, err, errlen);
  if (check_stops(r->d, &r->m, meta_launch, r->path, r->lineno, err, errlen)) return -1;
  return file_notes(r->d, &r->m, meta_launch, r->path, err, errlen);
}

/* One line: #@ metadata before the header, the header, or a data row. */
static int read_line(void *ctx, char *line, long len, long lineno, char *err, size_t errlen) {
  raw_file *r = ctx;
  r->lineno = lineno;
  if (line[0] == '#') {
    if (line[1] == '@' && !r->header && mg_ck_meta_add(&r->m, line, r->lineno)) return MG_ERR("out of memory");
    return 0;
  }
  if (len == 0) return 0;
  return r->header ? read_row(r, line, err, errlen) : read_header(r, line, len, err, errlen);
}

static int read_file(mg_ck_data *d, const char *path, int pack, char *err, size_t errlen) {
  raw_file r = {.d = d, .path = path, .snap = mg_ck_snapshot_take(d), .file_launch = -1, .pack = pack};
  int rc = mg_ck_read_lines(path, read_line, &r, &r.lineno, err, errlen);
  if (!rc) rc = read_end(&r, err, errlen);
  if (rc) mg_ck_rollback(d, r.snap);
  mg_ck_meta_free(&r.m);
  return rc;
}

int mg_ck_read_csv(mg_ck_data *d, const char *path, char *err, size_t errlen) {
  return read_file(d, path, 0, err, errlen);
}

int mg_ck_read_pack_csv(mg_ck_data *d, const char *path, char *err, size_t errlen) {
  if (!d->pack && !(d->pack = calloc(1, sizeof *d->pack))) return MG_ERR("out of memory");
  return read_file(d->pack, path, 1, err, errlen);
}
