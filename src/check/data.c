/*
 * Reading raw measurements (check.h): mpiguide's raw CSV (docs/bench.md,
 * read_csv.c) and the original ReproMPI/PGChecker files
 * data_<MPI_Coll>_<variant>.dat (read_repro.c), into series keyed by
 * (collective, algorithm, size, reduction pair, launch). This file holds the data model, the
 * #@ metadata of a file and the launch it describes, and picks the reader of
 * a source (a file, or a directory of either kind).
 *
 * The readers are strict where a wrong number could follow from leniency: a
 * missing column, a row with the wrong number of fields, a value that is not
 * a number, an unknown collective, a last line without its line break or
 * fewer rows than the file's metadata announces (a truncated file) are
 * errors that name the file and the line. Extra columns are ignored and
 * columns may come in any order (a file re-saved by pandas or R still reads).
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/check.h"
#include "check/reader.h"
#include "registry/datatype.h"
#include "util/sort.h"
#include "util/err.h"
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
  free(s->root);
}

void mg_ck_data_free(mg_ck_data *d) {
  if (d->pack) mg_ck_data_free(d->pack), free(d->pack);
  if (d->ovl) mg_ck_data_free(d->ovl), free(d->ovl);
  for (int i = 0; i < d->nlaunches; i++) launch_free(&d->launches[i]);
  for (int i = 0; i < d->nseries; i++) series_free(&d->series[i]);
  free(d->launches);
  free(d->series);
  free(d->notes);
  memset(d, 0, sizeof *d);
}

mg_ck_snapshot mg_ck_snapshot_take(const mg_ck_data *d) {
  return (mg_ck_snapshot){d->nlaunches, d->nseries, d->nnotes, d->invalid, d->warmup};
}

void mg_ck_rollback(mg_ck_data *d, mg_ck_snapshot s) {
  for (int i = s.nlaunches; i < d->nlaunches; i++) launch_free(&d->launches[i]);
  for (int i = s.nseries; i < d->nseries; i++) series_free(&d->series[i]);
  d->nlaunches = s.nlaunches;
  d->nseries = s.nseries;
  d->nnotes = s.nnotes;
  d->invalid = s.invalid;
  d->warmup = s.warmup;
  d->last = 0;
}

static int same_series(const mg_ck_series *s, mg_coll coll, const char *alg, size_t bytes, const char *red,
                       int launch) {
  return s->coll == coll && s->bytes == bytes && s->launch == launch && !strcmp(s->alg, alg) &&
         (!red || !strcmp(s->red, red));
}

const mg_ck_series *mg_ck_find(const mg_ck_data *d, mg_coll coll, const char *alg, size_t bytes, const char *red,
                               int launch) {
  for (int i = 0; i < d->nseries; i++)
    if (same_series(&d->series[i], coll, alg, bytes, red, launch)) return &d->series[i];
  return NULL;
}

mg_ck_series *mg_ck_series_get(mg_ck_data *d, mg_coll coll, const char *alg, size_t bytes, const char *red,
                               int launch) {
  if (d->last < d->nseries && same_series(&d->series[d->last], coll, alg, bytes, red, launch))
    return &d->series[d->last];
  for (int i = 0; i < d->nseries; i++)
    if (same_series(&d->series[i], coll, alg, bytes, red, launch)) {
      d->last = i;
      return &d->series[i];
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
  snprintf(s->red, sizeof s->red, "%s", red);
  s->launch = launch;
  d->last = d->nseries++;
  return s;
}

int mg_ck_series_push(mg_ck_series *s, double rt, long round, int root) {
  if (s->n == s->cap) {
    long nc = s->cap ? 2 * s->cap : 64;
    double *r = realloc(s->rt, (size_t)nc * sizeof *r);
    if (!r) return -1;
    s->rt = r;
    long *o = realloc(s->round, (size_t)nc * sizeof *o);
    if (!o) return -1;
    s->round = o;
    int *t = realloc(s->root, (size_t)nc * sizeof *t);
    if (!t) return -1;
    s->root = t;
    s->cap = nc;
  }
  s->rt[s->n] = rt;
  s->round[s->n] = round;
  s->root[s->n] = root;
  s->n++;
  return 0;
}

int mg_ck_note_add(mg_ck_data *d, mg_coll coll, const char *alg, size_t bytes, const char *red, int launch,
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
  snprintf(n->red, sizeof n->red, "%s", red);
  n->launch = launch;
  snprintf(n->text, sizeof n->text, "%.*s", (int)sizeof n->text - 1, text);
  return 0;
}

void mg_ck_red_of(mg_coll coll, const char *dt, const char *op, char *red) {
  red[0] = '\0';
  if (mg_colls[coll].reduction && dt && *dt && op && *op) snprintf(red, MG_CK_RED, "%s:%s", dt, op);
}

int mg_ck_block_name(const char *field, const mg_ck_meta *m, char *red) {
  char buf[MG_CK_RED + 32];
  snprintf(buf, sizeof buf, "%s", field);
  char *colon = strchr(buf, ':');
  if (colon) *colon = '\0';
  int c = mg_coll_find(buf);
  if (c < 0) return -1;
  if (colon) snprintf(red, MG_CK_RED, "%s", colon + 1);
  else mg_ck_red_of((mg_coll)c, mg_ck_meta_get(m, "datatype"), mg_ck_meta_get(m, "op"), red);
  return c;
}

int mg_ck_red_sel(const char *red, int *tclass, int *opsel) {
  *tclass = MG_TCLASS_NONE, *opsel = MG_OPSEL_NONE;
  char dt[MG_CK_RED];
  snprintf(dt, sizeof dt, "%s", red ? red : "");
  char *colon = strchr(dt, ':');
  if (!colon) return 0;
  *colon = '\0';
  *tclass = mg_tclass_of_typename(dt);
  *opsel = mg_opsel_find(colon + 1);
  return 1;
}

const char *mg_ck_red_short(const char *red, char *buf, size_t len) {
  size_t u = 0;
  for (const char *p = red; *p && u + 1 < len;) {
    if (!strncmp(p, "MPI_", 4)) p += 4;
    while (*p && *p != ':' && u + 1 < len) buf[u++] = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p), p++;
    if (*p == ':' && u + 1 < len) buf[u++] = *p++;
  }
  buf[u] = '\0';
  return buf;
}

/* ---------- metadata of one file ---------- */

void mg_ck_meta_free(mg_ck_meta *m) {
  for (int i = 0; i < m->n; i++) free(m->v[i].key);
  free(m->v);
  memset(m, 0, sizeof *m);
}

int mg_ck_meta_add(mg_ck_meta *m, const char *line, long lineno) {
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

/* The value of the last #@key of m and its line (0 when absent). */
static const char *meta_at(const mg_ck_meta *m, const char *key, long *line) {
  for (int i = m->n - 1; i >= 0; i--)
    if (!strcmp(m->v[i].key, key)) return *line = m->v[i].line, m->v[i].val;
  return *line = 0, NULL;
}

int mg_ck_meta_num(const mg_ck_meta *m, const char *key, const char *source, double min, double max, int nan_ok,
                   double *out, char *err, size_t errlen) {
  long line;
  const char *v = meta_at(m, key, &line);
  char e[160];
  if (!v || (nan_ok && !strcmp(v, "nan"))) return 0;
  if (mg_parse_double_in(v, min, max, out, e, sizeof e))
    return MG_ERR("%s:%ld: #@%s=%.60s: %s", source, line, key, v, e);
  return 1;
}

int mg_ck_meta_int(const mg_ck_meta *m, const char *key, const char *source, long min, long max, long *out,
                   char *err, size_t errlen) {
  long line;
  const char *v = meta_at(m, key, &line);
  char e[160];
  if (v && mg_parse_long(v, min, max, out, e, sizeof e))
    return MG_ERR("%s:%ld: #@%s=%.60s: %s", source, line, key, v, e);
  return v != NULL;
}

/* The numbers of a launch's #@ lines, each range-checked: a bad one is an error naming its line
 * (#@nprocs=4294967300 was read by atoi as 4, and the rows' 4294967300 then "contradicted" it). */
typedef struct launch_nums {
  double sync_cost, sync_skew, noise;
  long nprocs, nnodes;
  unsigned long long seed;
  int has_seed;
} launch_nums;

static int launch_numbers(const mg_ck_meta *m, const char *source, launch_nums *x, char *err, size_t errlen) {
  *x = (launch_nums){-1, -1, 0, 0, 0, 0, 0};
  if (mg_ck_meta_num(m, "sync_cost_sec", source, 0, 1e6, 1, &x->sync_cost, err, errlen) < 0 ||
      mg_ck_meta_num(m, "sync_skew_sec", source, 0, 1e6, 1, &x->sync_skew, err, errlen) < 0 ||
      mg_ck_meta_num(m, "noise_sec", source, 0, 1e6, 0, &x->noise, err, errlen) < 0 ||
      mg_ck_meta_int(m, "nprocs", source, 1, INT_MAX, &x->nprocs, err, errlen) < 0 ||
      mg_ck_meta_int(m, "nnodes", source, 1, INT_MAX, &x->nnodes, err, errlen) < 0)
    return -1;
  const char *v;
  long line;
  /* files before #@noise_sec had the value only in the stopping rule's line: a number when --noise
   * was given, else a sentence ("measured (...)"), which is no noise given */
  if (!mg_ck_meta_get(m, "noise_sec") && (v = mg_ck_meta_get(m, "stop_rule_noise_sec"))) {
    double c;
    if (!mg_parse_double_in(v, 0, 1e6, &c, NULL, 0)) x->noise = c;
  }
  if (mg_ck_meta_get(m, "check_format") && (v = meta_at(m, "seed", &line))) {
    if (mg_parse_digits(v, strlen(v), UINT32_MAX, &x->seed))
      return MG_ERR("%s:%ld: #@seed=%.60s: not a seed (digits, at most %u)", source, line, v, (unsigned)UINT32_MAX);
    x->has_seed = 1;
  }
  return 0;
}

/* A launch read before from another file is the same data given twice: an error. */
int mg_ck_launch_get(mg_ck_data *d, const char *id, const char *source, const mg_ck_meta *m, int repro,
                     int first_new, char *err, size_t errlen) {
  for (int i = 0; i < d->nlaunches; i++)
    if (!strcmp(d->launches[i].id, id)) {
      if (i >= first_new) return i; /* created by this source */
      return MG_ERR("%s: launch '%s' was already read from %s (the same data given twice?)", source, id,
                 d->launches[i].source);
    }
  if (strlen(id) >= MG_CK_NAME) return MG_ERR("%s: launch id '%.40s...' is too long", source, id);
  launch_nums x;
  if (launch_numbers(m, source, &x, err, errlen)) return -1;
  mg_ck_launch *nl = realloc(d->launches, (size_t)(d->nlaunches + 1) * sizeof *nl);
  if (!nl) return MG_ERR("out of memory");
  d->launches = nl;
  mg_ck_launch *l = &d->launches[d->nlaunches];
  memset(l, 0, sizeof *l);
  snprintf(l->id, sizeof l->id, "%s", id);
  l->repro = repro;
  l->sync_cost = x.sync_cost, l->sync_skew = x.sync_skew;
  if (l->sync_skew > l->sync_cost) l->sync_cost = l->sync_skew; /* the imprecision is the larger */
  if (x.noise > 0) l->noise_given = x.noise; /* written by check --noise (bench/output.c) */
  l->nprocs = (int)x.nprocs, l->nnodes = (int)x.nnodes;
  if (x.has_seed) l->has_seed = 1, l->seed = (uint32_t)x.seed;
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

int mg_ck_parse_size(const char *s, size_t *out) {
  unsigned long long v;
  if (mg_parse_digits(s, strlen(s), SIZE_MAX / 2, &v)) return -1;
  *out = (size_t)v;
  return 0;
}

const char *mg_ck_base_name(const char *path) {
  const char *s = strrchr(path, '/');
  return s ? s + 1 : path;
}

/* ---------- sources ---------- */

int mg_ck_read_lines(const char *path, mg_ck_line_fn fn, void *ctx, long *nlines, char *err, size_t errlen) {
  FILE *f = mg_open_text(path, "results file", err, errlen);
  if (!f) return -1;
  char *line = NULL;
  size_t cap = 0;
  long len = 0, lineno = 0;
  int nl = 1, rc = 0;
  while (!rc && (len = mg_read_line(f, &line, &cap, &nl)) >= 0) {
    lineno++;
    if (!nl)
      rc = MG_ERR("%s:%ld: the last line has no line break: the file was cut short (truncated?)", path, lineno);
    else
      rc = fn(ctx, line, len, lineno, err, errlen);
  }
  if (!rc && len < -1) rc = MG_ERR("%s:%ld: %s", path, lineno + 1, mg_read_line_strerror(len));
  free(line);
  fclose(f);
  *nlines = lineno;
  return rc;
}

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
    if (line[1] == '@' && mg_ck_meta_add(m, line, lineno)) {
      mg_ck_meta_free(m);
      rc = MG_ERR("out of memory");
      break;
    }
  }
  free(line);
  fclose(f);
  return rc;
}

static int read_dir(mg_ck_data *d, const char *dir, char *err, size_t errlen) {
  size_t dl = strlen(dir);
  char *p = malloc(dl + 16);
  if (!p) return MG_ERR("out of memory");
  snprintf(p, dl + 16, "%s/raw.csv", dir);
  struct stat st;
  if (stat(p, &st) == 0) {
    mg_ck_snapshot snap = mg_ck_snapshot_take(d);
    int rc = mg_ck_read_csv(d, p, err, errlen);
    snprintf(p, dl + 16, "%s/pack.csv", dir); /* TGT 2010 eq. 4, measured in the same launch */
    if (!rc && stat(p, &st) == 0 && (rc = mg_ck_read_pack_csv(d, p, err, errlen))) mg_ck_rollback(d, snap);
    snprintf(p, dl + 16, "%s/overlap.csv", dir); /* check --overlap, measured in the same launch */
    if (!rc && stat(p, &st) == 0 && (rc = mg_ck_read_overlap_csv(d, p, err, errlen))) mg_ck_rollback(d, snap);
    free(p);
    return rc;
  }
  free(p);
  DIR *dh = opendir(dir);
  if (!dh) return MG_ERR("%s: cannot read the directory: %s", dir, strerror(errno));
  char **names = NULL;
  int n = 0, rc = 0;
  struct dirent *e;
  int launches = 0; /* the result directory of check --launches: its launch-K/raw.csv */
  while ((e = readdir(dh))) {
    size_t l = strlen(e->d_name);
    if (!strncmp(e->d_name, "launch-", 7)) {
      char *q = malloc(dl + l + 16);
      if (!q) {
        rc = MG_ERR("out of memory");
        break;
      }
      snprintf(q, dl + l + 16, "%s/%s/raw.csv", dir, e->d_name);
      int has = stat(q, &st) == 0;
      free(q);
      if (!has) continue;
      if (!launches) { /* launches take the place of ReproMPI files */
        for (int i = 0; i < n; i++) free(names[i]);
        n = 0;
      }
      launches = 1;
    } else if (launches || strncmp(e->d_name, "data_", 5) || l < 10 || strcmp(e->d_name + l - 4, ".dat")) {
      continue;
    }
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
    rc = MG_ERR("%s: no raw data: neither raw.csv, nor launch-K/raw.csv (check --launches), nor ReproMPI files "
                "data_<MPI_Coll>_<variant>.dat", dir);
  if (!rc && launches) { /* every launch of a check --launches directory, in name order */
    qsort(names, (size_t)n, sizeof *names, mg_cmp_str);
    mg_ck_snapshot snap = mg_ck_snapshot_take(d);
    for (int i = 0; i < n && !rc; i++) rc = read_dir(d, names[i], err, errlen);
    if (rc) mg_ck_rollback(d, snap);
  } else if (!rc) {
    qsort(names, (size_t)n, sizeof *names, mg_cmp_str); /* deterministic order */
    mg_ck_snapshot snap = mg_ck_snapshot_take(d);
    /* one directory of ReproMPI files is one launch: the #@launch of its files, else the directory */
    char lid[MG_CK_NAME];
    snprintf(lid, sizeof lid, "%s", dir);
    if (strlen(dir) >= MG_CK_NAME) snprintf(lid, sizeof lid, "...%s", dir + strlen(dir) - (MG_CK_NAME - 4));
    for (int i = 0; i < n && !rc; i++) rc = mg_ck_read_repro_into(d, names[i], lid, snap.nlaunches, err, errlen);
    if (rc) mg_ck_rollback(d, snap);
  }
  for (int i = 0; i < n; i++) free(names[i]);
  free(names);
  return rc;
}

int mg_ck_read(mg_ck_data *d, const char *path, char *err, size_t errlen) {
  struct stat st;
  if (stat(path, &st) != 0) return MG_ERR("%s: %s", path, strerror(errno));
  if (S_ISDIR(st.st_mode)) return read_dir(d, path, err, errlen);
  const char *b = mg_ck_base_name(path);
  size_t l = strlen(b);
  if (!strncmp(b, "data_", 5) && l > 4 && !strcmp(b + l - 4, ".dat"))
    return mg_ck_read_repro(d, path, NULL, err, errlen);
  return mg_ck_read_csv(d, path, err, errlen);
}

/* Two launches may be pooled only when they ran the same configuration (docs/check.md, "identity"):
 * MPI library and version (its version string carries the build), process count, nodes and ranks
 * per node, the machine (host names, processor model), the launcher, and for a simulated run
 * (SimGrid SMPI) its platform and collective selector. Unknown values do not conflict: older
 * files lack the newer keys. */
static int same_text(const char *x, const char *y) { return !x || !y || !*x || !*y || !strcmp(x, y); }
static int same_num(long x, long y) { return x <= 0 || y <= 0 || x == y; }

int mg_ck_launch_in_place(const mg_ck_launch *l) {
  const char *v = mg_ck_meta_get(&l->meta, "in_place");
  return v && !strcmp(v, "1");
}

const char *mg_ck_launch_pattern(const mg_ck_launch *l) {
  const char *v = mg_ck_meta_get(&l->meta, "pattern");
  return v && *v ? v : NULL;
}

/* The #@ keys of the identity compared as text, beside the library, layout and hosts. */
static const struct {
  const char *key, *what;
} identity_keys[] = {
    {"cpu_model", "the processor"},        {"launcher", "the launcher"},
    {"simulated", "simulated (SimGrid SMPI)"}, {"platform", "the simulated platform"},
    {"selector", "the simulated collective selector"},
};

/* The machine of a launch: its nodes' host names ("n1,n2" of #@hosts=n1:2,n2:2), else rank 0's. */
static void host_names(const mg_ck_launch *l, char *out, size_t len) {
  const char *h = mg_ck_meta_get(&l->meta, "hosts");
  if (!h || !*h) {
    snprintf(out, len, "%s", l->hostname ? l->hostname : "");
    return;
  }
  size_t u = 0;
  for (const char *p = h; *p && u + 1 < len;) {
    size_t n = strcspn(p, ":,");
    if (u && u + 1 < len) out[u++] = ',';
    for (size_t i = 0; i < n && u + 1 < len; i++) out[u++] = p[i];
    p += n;
    p += strcspn(p, ","); /* skip :RANKS */
    if (*p == ',') p++;
  }
  out[u] = '\0';
}

int mg_ck_config_diff(const mg_ck_launch *a, const mg_ck_launch *b, char *what, size_t len) {
  const char *rpn_a = mg_ck_meta_get(&a->meta, "ranks_per_node"), *rpn_b = mg_ck_meta_get(&b->meta, "ranks_per_node");
  if (!same_num(a->nprocs, b->nprocs))
    return snprintf(what, len, "launch '%s' (%s) ran on %d processes, launch '%s' (%s) on %d", a->id, a->source, a->nprocs, b->id,
                    b->source, b->nprocs), 1;
  if (!same_text(a->mpi_name, b->mpi_name) || !same_text(a->mpi_version, b->mpi_version))
    return snprintf(what, len, "launch '%s' (%s) ran %s '%.60s', launch '%s' (%s) %s '%.60s'", a->id, a->source, a->mpi_name,
                    a->mpi_version, b->id, b->source, b->mpi_name, b->mpi_version), 1;
  if (!same_num(a->nnodes, b->nnodes) || !same_text(rpn_a, rpn_b))
    return snprintf(what, len, "launch '%s' (%s) ran on %d node(s) x %s ranks, launch '%s' (%s) on %d node(s) x %s", a->id,
                    a->source, a->nnodes, rpn_a ? rpn_a : "?", b->id, b->source, b->nnodes, rpn_b ? rpn_b : "?"), 1;
  char ha[512], hb[512];
  host_names(a, ha, sizeof ha);
  host_names(b, hb, sizeof hb);
  if (!same_text(ha, hb))
    return snprintf(what, len, "launch '%s' (%s) ran on the machine %s, launch '%s' (%s) on %s", a->id, a->source, ha,
                    b->id, b->source, hb), 1;
  for (int k = 0; k < (int)(sizeof identity_keys / sizeof *identity_keys); k++) {
    const char *key = identity_keys[k].key, *va = mg_ck_meta_get(&a->meta, key), *vb = mg_ck_meta_get(&b->meta, key);
    if (!strcmp(key, "simulated")) va = va ? va : "0", vb = vb ? vb : "0"; /* a real run writes no #@simulated */
    if (!same_text(va, vb))
      return snprintf(what, len, "launch '%s' (%s) ran with %s '%.80s', launch '%s' (%s) with '%.80s'", a->id, a->source,
                      identity_keys[k].what, va ? va : "?", b->id, b->source, vb ? vb : "?"), 1;
  }
  if (mg_ck_launch_in_place(a) != mg_ck_launch_in_place(b))
    return snprintf(what, len, "launch '%s' (%s) made its calls %s, launch '%s' (%s) %s", a->id, a->source,
                    mg_ck_launch_in_place(a) ? "in place (--in-place)" : "not in place", b->id, b->source,
                    mg_ck_launch_in_place(b) ? "in place (--in-place)" : "not in place"), 1;
  const char *pa = mg_ck_launch_pattern(a), *pb = mg_ck_launch_pattern(b);
  if (pa && pb && strcmp(pa, pb)) /* a launch without point-to-point data has no pattern: no conflict */
    return snprintf(what, len, "launch '%s' (%s) measured point-to-point by --pattern %s, launch '%s' (%s) by %s",
                    a->id, a->source, pa, b->id, b->source, pb), 1;
  return 0;
}

int mg_ck_data_check(const mg_ck_data *d, char *err, size_t errlen) {
  if (d->nlaunches == 0 || d->nseries == 0) return MG_ERR("no measurements");
  char what[1024];
  for (int i = 1; i < d->nlaunches; i++)
    if (mg_ck_config_diff(&d->launches[0], &d->launches[i], what, sizeof what))
      return MG_ERR("%s: merge only launches of one configuration; compare configurations side by side "
                    "with `mpiguide report DIR1 DIR2`", what);
  return 0;
}
