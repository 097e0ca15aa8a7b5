/*
 * Hot spots of a trace (hotspots.h): the reader of the trace file (columns
 * found by name; untimed files give spots without sites or times, for the
 * model to price) and the selection of the smallest covering set.
 *
 * The file is untrusted: every number is parsed whole and range-checked
 * (util/parse.h), the columns are settled by the column line alone (no
 * metadata after it but the trailer), and a cut file is refused: a last line
 * without its line break always, and in format 3 a missing trailer
 * #@trace_rows=N or one whose count the rows do not match.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/hotspots.h"
#include "util/err.h"
#include "util/parse.h"
#include "util/text.h"

#define NF 32

enum {
  C_COLL, C_BYTES, C_ALG, C_CALLS, C_RANKS, C_NPROCS, C_RED, C_OBJ, C_OFF, C_SYM, C_TIME, C_TMIN, C_TMAX, C_WAIT,
  C_CLASS, C_POSTFN, C_POSTOBJ, C_POSTOFF, C_POSTSYM, C_N
};
static const char *const colname[C_N] = {"collective", "bytes",  "algorithm", "calls",  "ranks",      "nprocs",
                                         "reduction",  "object", "offset",    "symbol", "time_s",     "time_min_s",
                                         "time_max_s", "wait_s", "class",     "posted_by", "post_object",
                                         "post_offset", "post_symbol"};
#define MG_HS_CLASS_NAME(c) #c,
const char *const mg_hs_class_names[MG_HS_NCLASS] = {MG_HS_CLASSES(MG_HS_CLASS_NAME)};
#undef MG_HS_CLASS_NAME
/* Format 4's timed columns (a timed trace of format 4 must have them). */
static const int timed4_cols[] = {C_CLASS, C_POSTFN, C_POSTOBJ, C_POSTOFF, C_POSTSYM};
/* The columns a timed row must have (an untimed one has the first six; time_min_s and time_max_s
 * are checked where they are). */
static const int timed_cols[] = {C_RED, C_OBJ, C_OFF, C_SYM, C_TIME, C_WAIT};

/* What a cut file is told: the same words for every way a trace can end early. */
#define LOOKS_CUT "the file looks truncated (cut while it was written or copied)"

void mg_hs_free(mg_hs_trace *t) {
  for (int i = 0; i < t->nobjs; i++) free(t->objs[i]);
  free(t->objs);
  free(t->spots);
  free(t->others);
  memset(t, 0, sizeof *t);
}

static int obj_index(mg_hs_trace *t, const char *path) {
  if (!*path) return -1;
  for (int i = 0; i < t->nobjs; i++)
    if (!strcmp(t->objs[i], path)) return i;
  char **p = realloc(t->objs, (size_t)(t->nobjs + 1) * sizeof *p);
  if (!p) return -2;
  t->objs = p;
  if (!(p[t->nobjs] = strdup(path))) return -2;
  return t->nobjs++;
}

typedef struct reader {
  mg_hs_trace *t;
  const char *path;
  long lineno;
  long header;    /* the line of the column line; 0 before it */
  int col[C_N];   /* each column's field, -1 absent (only a column no row of this trace needs) */
  int need;       /* the fields a row must have: up to the last column found */
  long rows;      /* data rows read */
  long end_line;  /* the line of the trailer #@trace_rows (0: none yet), and its count */
  long end_rows;
} reader;

/* One row's values, each parsed and range-checked. */
typedef struct row {
  int coll;   /* -1: another MPI function (format 4, class not tuned), named fn */
  int cls;    /* MG_HS_CLASS_* */
  unsigned long long bytes, calls, ranks, nprocs, offset, post_offset;
  double time, tmin, tmax, wait;
} row;

#define HERE R->path, R->lineno

/* Field c of a row as a count from lo to hi (decimal digits only). */
static int get_count(const reader *R, char **f, int c, unsigned long long lo, unsigned long long hi,
                     unsigned long long *v, char *err, size_t errlen) {
  const char *s = f[R->col[c]];
  if (mg_parse_digits(s, strlen(s), hi, v) == 0 && *v >= lo) return 0;
  return MG_ERR("%s:%ld: column %s: '%.64s' is not a count from %llu to %llu", HERE, colname[c], s, lo, hi);
}

/* A time in seconds: finite, from 0 to MG_HS_SECONDS_MAX (so no sum of them overflows). */
static int seconds(const char *s, double *v) {
  return mg_parse_double(s, 0, v, NULL, 0) == 0 && *v <= MG_HS_SECONDS_MAX ? 0 : -1;
}

static int get_seconds(const reader *R, char **f, int c, double *v, char *err, size_t errlen) {
  const char *s = f[R->col[c]];
  if (seconds(s, v) == 0) return 0;
  return MG_ERR("%s:%ld: column %s: '%.64s' is not a time in seconds from 0 to %g", HERE, colname[c], s,
                MG_HS_SECONDS_MAX);
}

/* The offset column: 0x and 1 to 16 hexadecimal digits, as the writer prints it. */
static int get_offset(const reader *R, char **f, int c, unsigned long long *v, char *err, size_t errlen) {
  const char *s = f[R->col[c]];
  size_t n = strlen(s);
  int ok = n > 2 && n <= 18 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
  *v = 0;
  for (size_t i = 2; ok && i < n; i++) {
    int h = (unsigned char)s[i];
    int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10 : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
    ok = d >= 0;
    *v = *v * 16 + (unsigned long long)(ok ? d : 0);
  }
  if (ok) return 0;
  return MG_ERR("%s:%ld: column %s: '%.64s' is not an offset (0x and 1 to 16 hexadecimal digits)", HERE, colname[c], s);
}

/* The fields of one data row into w, each checked. 0, or -1 with "file:line: column NAME: ...". */
static int parse_row(const reader *R, char **f, row *w, char *err, size_t errlen) {
  memset(w, 0, sizeof *w);
  const char *cs = f[R->col[C_COLL]];
  w->cls = MG_HS_CLASS_tuned;
  if (R->col[C_CLASS] >= 0) { /* format 4: every MPI function, by class */
    const char *k = f[R->col[C_CLASS]];
    w->cls = -1;
    for (int i = 0; i < MG_HS_NCLASS; i++)
      if (!strcmp(k, mg_hs_class_names[i])) w->cls = i;
    if (w->cls < 0) return MG_ERR("%s:%ld: column class: '%.64s' is not a class of docs/trace.md", HERE, k);
  }
  if (w->cls != MG_HS_CLASS_tuned) {
    w->coll = -1;
    size_t n = strlen(cs), ok = n > 4 && n < sizeof ((mg_hs_other *)0)->fn && !strncmp(cs, "MPI", 3);
    for (size_t i = 0; ok && i < n; i++) ok = isalnum((unsigned char)cs[i]) || cs[i] == '_';
    if (!ok) return MG_ERR("%s:%ld: column collective: '%.64s' is not an MPI function's name", HERE, cs);
  } else if ((w->coll = mg_coll_find(cs)) < 0) {
    return MG_ERR("%s:%ld: unknown collective '%.64s' in column collective (`mpiguide list` names them)", HERE, cs);
  }
  if (get_count(R, f, C_BYTES, 0, MG_HS_BYTES_MAX, &w->bytes, err, errlen) ||
      get_count(R, f, C_CALLS, 0, MG_HS_CALLS_MAX, &w->calls, err, errlen) ||
      get_count(R, f, C_RANKS, 1, MG_HS_NPROCS_MAX, &w->ranks, err, errlen) ||
      get_count(R, f, C_NPROCS, w->coll < 0 ? 0 : 1, MG_HS_NPROCS_MAX, &w->nprocs, err, errlen))
    return -1;
  if (R->t->nprocs > 0 && w->ranks > (unsigned long long)R->t->nprocs)
    return MG_ERR("%s:%ld: column ranks: '%llu' is more than the run's processes (#@nprocs=%d)", HERE, w->ranks,
                  R->t->nprocs);
  if (!R->t->timed) return 0;
  if (R->col[C_POSTOFF] >= 0 && f[R->col[C_POSTFN]][0] &&
      get_offset(R, f, C_POSTOFF, &w->post_offset, err, errlen))
    return -1;
  if (w->coll >= 0 && R->col[C_POSTFN] >= 0 && f[R->col[C_POSTFN]][0])
    return MG_ERR("%s:%ld: column posted_by: a row of class tuned has no post", HERE);
  if (get_offset(R, f, C_OFF, &w->offset, err, errlen) || get_seconds(R, f, C_TIME, &w->time, err, errlen) ||
      get_seconds(R, f, C_WAIT, &w->wait, err, errlen) ||
      (R->col[C_TMIN] >= 0 && get_seconds(R, f, C_TMIN, &w->tmin, err, errlen)) ||
      (R->col[C_TMAX] >= 0 && get_seconds(R, f, C_TMAX, &w->tmax, err, errlen)))
    return -1;
  return 0;
}

/* A column of the row, "" where the trace has not got it (col[] < 0). */
#define FIELD(c) (R->col[c] >= 0 ? f[R->col[c]] : "")

/* A row of another MPI function (format 4) into t->others, summed per (site, function, nprocs,
 * bytes, post). */
static int add_other(reader *R, char **f, const row *w, int obj, double per_rank, char *err, size_t errlen) {
  mg_hs_trace *t = R->t;
  const char *fn = f[R->col[C_COLL]], *pfn = FIELD(C_POSTFN);
  if (strlen(pfn) >= sizeof t->others->post_fn || (*pfn && strncmp(pfn, "MPI", 3)))
    return MG_ERR("%s:%ld: column posted_by: '%.64s' is not an MPI function's name", HERE, pfn);
  int pobj = *pfn ? obj_index(t, FIELD(C_POSTOBJ)) : -1;
  if (pobj == -2) return MG_ERR("out of memory");
  mg_hs_other *o = NULL;
  for (int i = 0; i < t->nothers && !o; i++) {
    mg_hs_other *q = &t->others[i];
    if (q->obj == obj && q->offset == w->offset && !strcmp(q->fn, fn) && q->nprocs == (int)w->nprocs &&
        q->bytes == (size_t)w->bytes && !strcmp(q->post_fn, pfn) && q->post_obj == pobj &&
        q->post_offset == w->post_offset)
      o = q;
  }
  if (!o) {
    mg_hs_other *p = realloc(t->others, (size_t)(t->nothers + 1) * sizeof *p);
    if (!p) return MG_ERR("out of memory");
    t->others = p;
    o = &p[t->nothers++];
    memset(o, 0, sizeof *o);
    snprintf(o->fn, sizeof o->fn, "%s", fn);
    o->cls = w->cls;
    o->obj = obj;
    o->offset = w->offset;
    snprintf(o->sym, sizeof o->sym, "%s", FIELD(C_SYM));
    o->nprocs = (int)w->nprocs;
    o->bytes = (size_t)w->bytes;
    snprintf(o->post_fn, sizeof o->post_fn, "%s", pfn);
    o->post_obj = pobj;
    o->post_offset = w->post_offset;
    snprintf(o->post_sym, sizeof o->post_sym, "%s", *pfn ? FIELD(C_POSTSYM) : "");
  }
  if (o->calls > LONG_MAX - (long)w->calls)
    return MG_ERR("%s:%ld: column calls: the rows of one site sum to more than %ld calls", HERE, LONG_MAX);
  o->calls += (long)w->calls;
  o->time += w->time * per_rank;
  o->wait += w->wait * per_rank;
  return 0;
}

/* One checked row into t (summed into its spot): a timed trace's, or an untimed one's (no site, no
 * reduction, no time: the columns it lacks, col[] < 0, read as empty). 0, -1 with a message. */
static int add_row(reader *R, char **f, const row *w, char *err, size_t errlen) {
  mg_hs_trace *t = R->t;
  /* times per rank: the sum over ranks / the run's processes (an untimed trace has no times) */
  double per_rank = t->timed ? 1.0 / t->nprocs : 0;
  int obj = obj_index(t, FIELD(C_OBJ));
  if (obj == -2) return MG_ERR("out of memory");
  t->class_time[w->cls] += w->time * per_rank;
  t->all_time += w->time * per_rank;
  if (w->coll < 0) return add_other(R, f, w, obj, per_rank, err, errlen);
  const char *red = FIELD(C_RED), *alg = f[R->col[C_ALG]];
  mg_hs_spot *s = NULL;
  for (int i = 0; i < t->n && !s; i++) {
    mg_hs_spot *q = &t->spots[i];
    if (q->obj == obj && q->offset == w->offset && q->coll == (mg_coll)w->coll && q->nprocs == (int)w->nprocs &&
        q->bytes == (size_t)w->bytes && !strcmp(q->red, red))
      s = q;
  }
  if (!s) {
    mg_hs_spot *p = realloc(t->spots, (size_t)(t->n + 1) * sizeof *p);
    if (!p) return MG_ERR("out of memory");
    t->spots = p;
    s = &p[t->n++];
    memset(s, 0, sizeof *s);
    s->obj = obj;
    s->offset = w->offset;
    snprintf(s->sym, sizeof s->sym, "%s", FIELD(C_SYM));
    s->coll = (mg_coll)w->coll;
    s->nprocs = (int)w->nprocs;
    s->bytes = (size_t)w->bytes;
    snprintf(s->red, sizeof s->red, "%s", red);
  }
  long calls = (long)w->calls; /* at most MG_HS_CALLS_MAX: fits */
  if (s->calls > LONG_MAX - calls)
    return MG_ERR("%s:%ld: column calls: the rows of one hot spot sum to more than %ld calls", HERE, LONG_MAX);
  /* the algorithms seen at the spot, each named once, and the calls and time of each (k: its place) */
  size_t len = strlen(alg), at = 0;
  int seen = 0, k = 0;
  for (const char *a = s->algs; *a && !seen; a += at + (a[at] == '+'), k += !seen) {
    at = strcspn(a, "+");
    seen = at == len && !strncmp(a, alg, len);
  }
  if (!seen && strlen(s->algs) + len + 2 < sizeof s->algs) {
    if (*s->algs) strcat(s->algs, "+");
    strcat(s->algs, alg);
    seen = 1;
  }
  if (seen && k < MG_HS_ALGS) s->alg_calls[k] += calls, s->alg_time[k] += w->time * per_rank;
  s->calls += calls;
  s->time += w->time * per_rank;
  s->wait += w->wait * per_rank;
  t->mpi_time += w->time * per_rank;
  return 0;
}

/* A #@key=value line. Before the column line: the keys the reader uses, each checked. After it:
 * only the trailer #@trace_rows=N (the columns, and what they mean, are settled by then: a
 * #@timed=1 after the column line once switched on columns the header had not got). */
static int on_meta(reader *R, char *line, char *err, size_t errlen) {
  mg_hs_trace *t = R->t;
  char *eq = strchr(line, '=');
  if (!eq) return 0; /* a comment */
  *eq = '\0';
  const char *k = line + 2, *v = eq + 1;
  unsigned long long u;
  int digits = mg_parse_digits(v, strlen(v), LONG_MAX, &u);
  if (!strcmp(k, "trace_rows")) {
    if (!R->header)
      return MG_ERR("%s:%ld: #@trace_rows before the column line: it is the trailer that ends a trace", HERE);
    if (R->end_line) return MG_ERR("%s:%ld: a second #@trace_rows (the first on line %ld)", HERE, R->end_line);
    if (digits) return MG_ERR("%s:%ld: #@trace_rows: '%.64s' is not a row count", HERE, v);
    R->end_line = R->lineno;
    R->end_rows = (long)u;
    return 0;
  }
  if (R->header)
    return MG_ERR("%s:%ld: #@%.64s after the column line (line %ld): a trace's metadata comes before its columns, "
                  "only the trailer #@trace_rows after its rows (docs/trace.md)", HERE, k, R->header);
  if (!strcmp(k, "mpiguide_trace")) {
    if (digits == 0 && u > MG_HS_FORMAT)
      return MG_ERR("%s:%ld: #@mpiguide_trace: format %.64s is newer than this mpiguide reads (1 to %d): read it with "
                    "the mpiguide that wrote it", HERE, v, MG_HS_FORMAT);
    if (digits || u < 1) return MG_ERR("%s:%ld: #@mpiguide_trace: '%.64s' is not a format version (1 to %d)", HERE, v,
                                       MG_HS_FORMAT);
    t->version = (int)u;
  } else if (!strcmp(k, "timed")) {
    if (strcmp(v, "0") && strcmp(v, "1")) return MG_ERR("%s:%ld: #@timed: '%.64s' is not 0 or 1", HERE, v);
    t->timed = v[0] == '1';
  } else if (!strcmp(k, "nprocs")) {
    if (digits || u < 1 || u > MG_HS_NPROCS_MAX)
      return MG_ERR("%s:%ld: #@nprocs: '%.64s' is not a process count from 1 to %d", HERE, v, MG_HS_NPROCS_MAX);
    t->nprocs = (int)u;
  } else if (!strcmp(k, "wall_s")) {
    if (seconds(v, &t->wall))
      return MG_ERR("%s:%ld: #@wall_s: '%.64s' is not a time in seconds from 0 to %g", HERE, v, MG_HS_SECONDS_MAX);
  } else if (!strcmp(k, "mpi_library")) {
    snprintf(t->mpi, sizeof t->mpi, "%s", v);
  }
  return 0;
}

/* The column line: each column found by name; the ones this trace's rows need must be there. */
static int on_header(reader *R, char **f, int nf, char *err, size_t errlen) {
  mg_hs_trace *t = R->t;
  R->header = R->lineno;
  if (t->version < 1) return MG_ERR("%s:%ld: no #@mpiguide_trace line before the columns: not an mpiguide trace", HERE);
  R->need = 0;
  for (int c = 0; c < C_N; c++) {
    R->col[c] = -1;
    for (int i = 0; i < nf; i++)
      if (!strcmp(f[i], colname[c])) R->col[c] = i;
    if (R->col[c] >= R->need) R->need = R->col[c] + 1;
  }
  for (int c = 0; c <= C_NPROCS; c++)
    if (R->col[c] < 0) return MG_ERR("%s:%ld: no column '%s': not an mpiguide trace", HERE, colname[c]);
  if (t->timed)
    for (size_t c = 0; c < sizeof timed_cols / sizeof *timed_cols; c++)
      if (R->col[timed_cols[c]] < 0)
        return MG_ERR("%s:%ld: timed trace (#@timed=1) without column '%s'", HERE, colname[timed_cols[c]]);
  if (t->timed && t->version >= 4)
    for (size_t c = 0; c < sizeof timed4_cols / sizeof *timed4_cols; c++)
      if (R->col[timed4_cols[c]] < 0)
        return MG_ERR("%s:%ld: timed trace of format 4 without column '%s'", HERE, colname[timed4_cols[c]]);
  if (!t->timed || t->version < 4) /* the columns are format 4's: in another file they mean nothing */
    for (int c = C_CLASS; c < C_N; c++) R->col[c] = -1;
  return 0;
}

static int on_line(reader *R, char *line, long len, char *err, size_t errlen) {
  if (len == 0) return 0;
  if (line[0] == '#') return strncmp(line, "#@", 2) ? 0 : on_meta(R, line, err, errlen);
  if (R->end_line)
    return MG_ERR("%s:%ld: a line after the trailer #@trace_rows (line %ld), which ends a trace", HERE, R->end_line);
  char *f[NF];
  int nf = mg_csv_split(line, f, NF);
  if (nf < 0 || nf > NF) return MG_ERR("%s:%ld: not a CSV row of a trace (an open quote, or over %d fields)", HERE, NF);
  if (!R->header) return on_header(R, f, nf, err, errlen);
  if (nf < R->need)
    return MG_ERR("%s:%ld: %d fields, the column line (line %ld) has %d", HERE, nf, R->header, R->need);
  if (R->t->timed && R->t->nprocs < 1) return MG_ERR("%s:%ld: no #@nprocs before the rows of a timed trace", HERE);
  row w;
  if (parse_row(R, f, &w, err, errlen) || add_row(R, f, &w, err, errlen)) return -1;
  R->rows++;
  return 0;
}

/* After the last line: a whole trace. Format 3 ends in its trailer, whose count must hold. */
static int on_end(reader *R, char *err, size_t errlen) {
  mg_hs_trace *t = R->t;
  if (R->lineno == 0) return MG_ERR("%s: the file is empty: not a trace, or %s", R->path, LOOKS_CUT);
  if (!R->header) {
    if (t->version >= 3) return MG_ERR("%s:%ld: the file ends before its column line: %s", HERE, LOOKS_CUT);
    return MG_ERR("%s: no header line: not an mpiguide trace", R->path);
  }
  if (!R->end_line && t->version >= 3)
    return MG_ERR("%s:%ld: no trailer #@trace_rows=N after the rows (a format-%d trace ends with it): %s", HERE,
                  t->version, LOOKS_CUT);
  if (R->end_line && R->end_rows != R->rows)
    return MG_ERR("%s:%ld: %ld rows, but the trailer #@trace_rows (line %ld) says %ld: %s, or it was edited", HERE,
                  R->rows, R->end_line, R->end_rows, LOOKS_CUT);
  return 0;
}

/* The trace in f, named path in messages, into t (zeroed first; freed again on failure). */
static int read_stream(FILE *f, const char *path, mg_hs_trace *t, char *err, size_t errlen) {
  reader R = {.t = t, .path = path};
  char *buf = NULL;
  size_t cap = 0;
  long len;
  int nl, rc = 0;
  while (!rc && (len = mg_read_line(f, &buf, &cap, &nl)) >= 0) {
    R.lineno++;
    /* a last line without its line break is a cut one: refused before it is read as a shorter
     * number, a shorter name, or a trailer with a shorter count */
    if (!nl) rc = MG_ERR("%s:%ld: the last line has no line break: %s", path, R.lineno, LOOKS_CUT);
    else rc = on_line(&R, buf, len, err, errlen);
  }
  if (!rc && len < -1) rc = MG_ERR("%s:%ld: %s", path, R.lineno + 1, mg_read_line_strerror(len));
  free(buf);
  if (!rc) rc = on_end(&R, err, errlen);
  if (rc) mg_hs_free(t);
  return rc;
}

int mg_hs_read(const char *path, mg_hs_trace *t, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  t->wall = -1;
  FILE *f = mg_open_text(path, "trace file", err, errlen);
  if (!f) return -1;
  int rc = read_stream(f, path, t, err, errlen);
  fclose(f);
  return rc;
}

int mg_hs_read_mem(const char *text, size_t len, const char *path, mg_hs_trace *t, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  t->wall = -1;
  if (len == 0) return MG_ERR("%s: the file is empty: not a trace, or %s", path, LOOKS_CUT);
  FILE *f = fmemopen((void *)text, len, "r");
  if (!f) return MG_ERR("%s: cannot read it in memory: %s", path, strerror(errno));
  int rc = read_stream(f, path, t, err, errlen);
  fclose(f);
  return rc;
}

/* Decreasing time; ties by index (stable). */
static const double *sort_time;
static int by_time(const void *a, const void *b) {
  int i = *(const int *)a, j = *(const int *)b;
  if (sort_time[i] != sort_time[j]) return sort_time[i] > sort_time[j] ? -1 : 1;
  return (i > j) - (i < j);
}

int mg_hs_select(const double *time, int n, double total, double p, int nmax, int *order, int *reached) {
  for (int i = 0; i < n; i++) order[i] = i;
  sort_time = time;
  qsort(order, (size_t)n, sizeof *order, by_time);
  if (total <= 0)
    for (int i = 0; i < n; i++) total += time[i];
  double want = total * p / 100.0, sum = 0;
  int k = 0;
  *reached = want <= 0;
  while (!*reached && k < n && k < nmax) {
    sum += time[order[k++]];
    /* a relative slack for the rounding of the trace's 9 decimals */
    *reached = sum >= want * (1 - 1e-12);
  }
  return k;
}

double mg_hs_saving(const mg_hs_spot *s, const char *chosen, double med_def, double med_chosen) {
  if (!(med_def > 0) || !isfinite(med_def) || !isfinite(med_chosen)) return NAN;
  long calls = s->calls;
  double time = s->time;
  size_t len = strlen(chosen), at = 0;
  int k = 0;
  for (const char *a = s->algs; *a && k < MG_HS_ALGS; a += at + (a[at] == '+'), k++) {
    at = strcspn(a, "+");
    if (at == len && !strncmp(a, chosen, len)) { /* these calls run it already: nothing to save there */
      calls -= s->alg_calls[k], time -= s->alg_time[k];
      break;
    }
  }
  if (calls <= 0 || time <= 0) return 0;
  double per_call = (double)calls * (med_def - med_chosen), share = time * (1 - med_chosen / med_def);
  return per_call < share ? per_call : share;
}
