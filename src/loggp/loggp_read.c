/*
 * The LogGP parameter file's reader (loggp_file.h; format in docs/loggp.md, versions 1 and 2). The table's
 * columns come from MG_LOGGP_COLUMNS, as the writer's (src/model/loggp_io.c). Every problem it
 * finds is reported as "path:line: what".
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loggp/loggp_file.h"
#include "util/err.h"
#include "util/parse.h"
#include "util/text.h"

const char *const mg_loggp_col_names[MG_LOGGP_NCOLS] = {
#define MG_X(E, name, desc) name,
    MG_LOGGP_COLUMNS(MG_X)
#undef MG_X
};
const char *const mg_loggp_col_descs[MG_LOGGP_NCOLS] = {
#define MG_X(E, name, desc) desc,
    MG_LOGGP_COLUMNS(MG_X)
#undef MG_X
};

const char *const mg_loggp_class_names[2] = {"intra", "inter"};

/* ---------- reader ---------- */

enum { K_NAME = 1, K_LIB = 2, K_P = 4, K_NODES = 8, K_RPN = 16, K_COPY = 32, K_REDUCE = 64, K_TOL = 128 };
#define K_GLOBAL_ALL 255
enum { C_PAIR = 1, C_MSG = 2, C_L = 4, C_g = 8, C_G = 16, C_R2 = 32, C_FROM = 64, C_MAXRES = 128, C_TABLE = 256 };

typedef struct reader {
  const char *path;
  long line;
  char *err;
  size_t errlen;
} reader;

#define RERR(...) rerr(R, __VA_ARGS__)
static int rerr(reader *R, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int rerr(reader *R, const char *fmt, ...) {
  int u = snprintf(R->err, R->errlen, "%s:%ld: ", R->path, R->line);
  if (u < 0 || (size_t)u >= R->errlen) return -1;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(R->err + u, R->errlen - (size_t)u, fmt, ap);
  va_end(ap);
  return -1;
}

static int num(reader *R, const char *what, const char *s, double min, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (!*s || *end || errno == ERANGE || !isfinite(v)) return RERR("%s: '%s' is not a number", what, s);
  if (v < min) return RERR("%s: %s is below %g", what, s, min);
  *out = v;
  return 0;
}

static int integer(reader *R, const char *what, const char *s, long min, long max, int *out) {
  long v;
  char e[200];
  if (mg_parse_long(s, min, max, &v, e, sizeof e)) return RERR("%s: %s", what, e);
  *out = (int)v;
  return 0;
}

/* The key's value fields: exactly n of them. */
static int nfields(reader *R, const char *key, int got, int want) {
  if (got - 1 == want) return 0;
  return RERR("'%s' takes %d value%s, found %d", key, want, want == 1 ? "" : "s", got - 1);
}

typedef struct key_bit {
  unsigned bit;
  const char *key;
} key_bit;
static const key_bit gneed[] = {{K_NAME, "mpi_name"}, {K_LIB, "mpi_library"}, {K_P, "p"}, {K_NODES, "nodes"},
                                {K_RPN, "ranks_per_node"}, {K_COPY, "copy"}, {K_REDUCE, "reduce"},
                                {K_TOL, "tolerance"}};
static const key_bit cneed[] = {{C_PAIR, "pair"}, {C_MSG, "messages"}, {C_L, "L"}, {C_g, "g"}, {C_G, "G"},
                                {C_R2, "r2"}, {C_FROM, "gfit_from"}, {C_MAXRES, "max_residual"},
                                {C_TABLE, "table"}};

/* Class k, which starts at line `at`, has every key: 0, or -1 naming the first one missing. */
static int class_complete(reader *R, int k, unsigned keys, long at) {
  for (size_t i = 0; i < sizeof cneed / sizeof cneed[0]; i++)
    if (!(keys & cneed[i].bit)) {
      long now = R->line;
      R->line = at;
      RERR("class %s has no '%s'", mg_loggp_class_names[k], cneed[i].key);
      R->line = now;
      return -1;
    }
  return 0;
}

static int read_row(reader *R, mg_loggp_class *c, char **f, int nf) {
  if (nf != MG_LOGGP_NCOLS) return RERR("a row of the table has %d fields, the columns are %d", nf, MG_LOGGP_NCOLS);
  if (c->npts >= MG_LOGGP_MAXPTS) return RERR("more than %d sizes in the table", MG_LOGGP_MAXPTS);
  int i = c->npts;
  for (int k = 0; k < MG_LOGGP_NCOLS; k++) {
    int residual = k == MG_LC_RES1 || k == MG_LC_RESN || k == MG_LC_RESD;
    char what[64];
    snprintf(what, sizeof what, "column %s", mg_loggp_col_names[k]);
    if (num(R, what, f[k], residual ? -INFINITY : 0, &c->col[k][i])) return -1;
  }
  double s = c->col[MG_LC_SIZE][i];
  if (s < 1 || s != floor(s)) return RERR("size %s is not a whole number of bytes >= 1", f[0]);
  if (i > 0 && s <= c->col[MG_LC_SIZE][i - 1])
    return RERR("size %s does not follow %.0f: sizes must ascend", f[0], c->col[MG_LC_SIZE][i - 1]);
  c->npts++;
  return 0;
}

/* The parameters of class c into c->m, from its keys and table. */
static void fill_params(const mg_loggp_file *lf, mg_loggp_class *c, int inter) {
  mg_loggp *m = &c->m;
  m->p = lf->p;
  m->inter = inter;
  m->npts = c->npts;
  for (int i = 0; i < c->npts; i++) {
    m->size[i] = c->col[MG_LC_SIZE][i];
    m->os[i] = c->col[MG_LC_OS][i];
    m->orecv[i] = c->col[MG_LC_OR][i];
    m->gap[i] = c->col[MG_LC_GAP][i];
    m->rtt[i] = c->col[MG_LC_PRTT1][i];
  }
  m->nodes = lf->nodes;
  m->cores = lf->cores;
  m->handoff = lf->handoff;
  m->copy = lf->copy;
  m->reduce = lf->reduce;
}

/* The first line: the magic word and the version, into *version. 0, or -1 with the message. */
static int magic_line(reader *R, const char *buf, int *version) {
  char line[64], *w[3];
  long v;
  snprintf(line, sizeof line, "%s", buf);
  /* two words, the version in digits alone ("mpiguide-loggp 1junk" was read by sscanf as version 1) */
  if (strlen(buf) >= sizeof line || mg_split_blanks(line, w, 3) != 2 || strcmp(w[0], MG_LOGGP_MAGIC) ||
      mg_parse_long(w[1], 0, 1000000, &v, NULL, 0))
    return RERR("not an mpiguide LogGP file: the first line must be '%s %d'", MG_LOGGP_MAGIC, MG_LOGGP_VERSION);
  if (v < MG_LOGGP_VERSION_MIN || v > MG_LOGGP_VERSION)
    return RERR("format version %ld; this mpiguide reads versions %d to %d (measure again with mpiguide loggp)", v,
                MG_LOGGP_VERSION_MIN, MG_LOGGP_VERSION);
  *version = (int)v;
  return 0;
}

/* A key of the launch (f[0], nf fields; raw: the line from the key on): 1 when read, 0 when key is
 * none of them, -1 with the message. */
static int launch_key(reader *R, mg_loggp_file *lf, char **f, int nf, const char *raw, unsigned *gkeys) {
  const char *key = f[0];
  if (!strcmp(key, "mpi_name") || !strcmp(key, "mpi_library")) {
    int lib = key[4] == 'l';
    if (nf < 2) return RERR("'%s' has no value", key);
    const char *v = raw + strlen(key);
    v += strspn(v, " \t");
    if (lib) snprintf(lf->mpi_library, sizeof lf->mpi_library, "%s", v);
    else snprintf(lf->mpi_name, sizeof lf->mpi_name, "%s", v);
    *gkeys |= lib ? K_LIB : K_NAME;
  } else if (!strcmp(key, "p")) {
    if (nfields(R, key, nf, 1) || integer(R, "p", f[1], 1, 100000000, &lf->p)) return -1;
    *gkeys |= K_P;
  } else if (!strcmp(key, "nodes")) {
    if (nfields(R, key, nf, 1) || integer(R, "nodes", f[1], 1, 100000000, &lf->nodes)) return -1;
    *gkeys |= K_NODES;
  } else if (!strcmp(key, "cores")) { /* optional: files before it have none */
    if (nfields(R, key, nf, 1) || integer(R, "cores", f[1], 1, 100000000, &lf->cores)) return -1;
  } else if (!strcmp(key, "handoff")) { /* optional: measured on an oversubscribed node only */
    if (nfields(R, key, nf, 1) || num(R, key, f[1], 0, &lf->handoff)) return -1;
  } else if (!strcmp(key, "ranks_per_node")) {
    if (nfields(R, key, nf, 2) || integer(R, key, f[1], 1, 100000000, &lf->rpn_min) ||
        integer(R, key, f[2], lf->rpn_min, 100000000, &lf->rpn_max))
      return -1;
    *gkeys |= K_RPN;
  } else if (!strcmp(key, "copy") || !strcmp(key, "reduce") || !strcmp(key, "tolerance")) {
    double *v = key[0] == 'c' ? &lf->copy : key[0] == 'r' ? &lf->reduce : &lf->tolerance;
    if (nfields(R, key, nf, 1) || num(R, key, f[1], 0, v)) return -1;
    *gkeys |= key[0] == 'c' ? K_COPY : key[0] == 'r' ? K_REDUCE : K_TOL;
  } else {
    return 0;
  }
  return 1;
}

/* A warning of the fit (version 2): 'warning TEXT', raw the line from the key on. At most
 * MG_LOGGP_MAXWARN per class, each of 1 to 255 characters (what the fit writes). 0, or -1. */
static int warning_line(reader *R, int version, mg_loggp_class *c, const char *raw, int nf) {
  if (version < 2) return RERR("unknown key 'warning' (a version-%d file records no warnings)", version);
  if (nf < 2) return RERR("'warning' has no text");
  if (c->nwarn >= MG_LOGGP_MAXWARN) return RERR("more than %d warnings in one class", MG_LOGGP_MAXWARN);
  const char *v = raw + strlen("warning");
  v += strspn(v, " \t");
  size_t n = strlen(v);
  while (n > 0 && (v[n - 1] == ' ' || v[n - 1] == '\t')) n--;
  if (n >= sizeof c->warn[0]) return RERR("a warning of %zu characters (at most %zu)", n, sizeof c->warn[0] - 1);
  snprintf(c->warn[c->nwarn++], sizeof c->warn[0], "%.*s", (int)n, v);
  return 0;
}

/* A key of class cur (c) other than 'class': its bit in *ck; 'table' sets *in_table. 0, or -1 with
 * the message (an unknown key too). raw: the line from the key on. */
static int class_key(reader *R, int version, mg_loggp_class *c, int cur, char **f, int nf, const char *raw,
                     unsigned *ck, int *in_table) {
  const char *key = f[0];
  if (!strcmp(key, "warning")) {
    if (warning_line(R, version, c, raw, nf)) return -1;
  } else if (!strcmp(key, "pair")) {
    if (nfields(R, key, nf, 2) || integer(R, "pair", f[1], 0, 100000000, &c->a) ||
        integer(R, "pair", f[2], 0, 100000000, &c->b))
      return -1;
    *ck |= C_PAIR;
  } else if (!strcmp(key, "messages")) {
    if (nfields(R, key, nf, 1) || integer(R, "messages", f[1], 2, 1000000, &c->n)) return -1;
    *ck |= C_MSG;
  } else if (!strcmp(key, "L") || !strcmp(key, "g") || !strcmp(key, "G")) {
    double *v = key[0] == 'L' ? &c->m.L : key[0] == 'g' ? &c->m.g : &c->m.G;
    if (nfields(R, key, nf, 1) || num(R, key, f[1], 0, v)) return -1;
    *ck |= key[0] == 'L' ? C_L : key[0] == 'g' ? C_g : C_G;
  } else if (!strcmp(key, "r2")) {
    if (nfields(R, key, nf, 4) || num(R, "r2", f[1], -INFINITY, &c->r2[0]) ||
        num(R, "r2", f[2], -INFINITY, &c->r2[1]) || num(R, "r2", f[3], -INFINITY, &c->r2[2]) ||
        num(R, "r2", f[4], -INFINITY, &c->r2_gap))
      return -1;
    *ck |= C_R2;
  } else if (!strcmp(key, "gfit_from")) {
    if (nfields(R, key, nf, 1) || integer(R, key, f[1], 0, MG_LOGGP_MAXPTS - 1, &c->gfit_from)) return -1;
    *ck |= C_FROM;
  } else if (!strcmp(key, "max_residual")) {
    if (nfields(R, key, nf, 1) || num(R, key, f[1], 0, &c->maxres)) return -1;
    *ck |= C_MAXRES;
  } else if (!strcmp(key, "table")) {
    if (*ck & C_TABLE) return RERR("a second table for class %s", mg_loggp_class_names[cur]);
    if (nf != MG_LOGGP_NCOLS + 1)
      return RERR("the table has %d columns, version %d has %d", nf - 1, version, MG_LOGGP_NCOLS);
    for (int k = 0; k < MG_LOGGP_NCOLS; k++)
      if (strcmp(f[k + 1], mg_loggp_col_names[k]))
        return RERR("column %d of the table is '%s', expected '%s'", k + 1, f[k + 1], mg_loggp_col_names[k]);
    *in_table = 1;
  } else {
    return RERR("unknown key '%s'", key);
  }
  return 0;
}

/* After the last line: every key given, every class complete, its pair within p; then each class's
 * parameters. 0, or -1 with the message. */
static int file_complete(reader *R, mg_loggp_file *lf, unsigned gkeys, const unsigned ckeys[2],
                         const long class_line[2]) {
  for (size_t i = 0; i < sizeof gneed / sizeof gneed[0]; i++)
    if (!(gkeys & gneed[i].bit)) return RERR("no '%s' line", gneed[i].key);
  if (!lf->has[0] && !lf->has[1]) return RERR("no class (neither 'class intra' nor 'class inter')");
  for (int k = 0; k < 2; k++) {
    if (!lf->has[k]) continue;
    if (class_complete(R, k, ckeys[k], class_line[k])) return -1;
    mg_loggp_class *c = &lf->cls[k];
    if (c->a >= lf->p || c->b >= lf->p || c->a == c->b) {
      R->line = class_line[k];
      return RERR("class %s: pair %d %d is not two ranks below p %d", mg_loggp_class_names[k], c->a, c->b, lf->p);
    }
    if (c->gfit_from >= c->npts) { /* G's fit starts at a size of the table */
      R->line = class_line[k];
      return RERR("class %s: gfit_from %d, but its table has %d sizes (rows 0 to %d)", mg_loggp_class_names[k],
                  c->gfit_from, c->npts, c->npts - 1);
    }
    fill_params(lf, c, k);
  }
  return 0;
}

static int parse(FILE *fp, reader *R, mg_loggp_file *lf) {
  char *buf = NULL;
  size_t cap = 0;
  int nl, rc = -1, cur = -1, in_table = 0;
  unsigned gkeys = 0, ckeys[2] = {0, 0};
  long len, class_line[2] = {0, 0};
  memset(lf, 0, sizeof *lf);
  while ((len = mg_read_line(fp, &buf, &cap, &nl)) >= 0) {
    R->line++;
    if (!nl) { /* the writer ends every line: "tolerance 0.0" of "tolerance 0.05" would read */
      RERR("the last line has no line break: the file was cut short (truncated?)");
      goto out;
    }
    if (R->line == 1) {
      if (magic_line(R, buf, &lf->version)) goto out;
      continue;
    }
    const char *t = buf + strspn(buf, " \t");
    if (!*t || *t == '#') continue;
    char raw[sizeof lf->mpi_library];
    snprintf(raw, sizeof raw, "%s", t);
    char *f[MG_LOGGP_NCOLS + 2];
    int nf = mg_split_blanks(buf, f, MG_LOGGP_NCOLS + 2);
    const char *key = f[0];
    mg_loggp_class *c = cur >= 0 ? &lf->cls[cur] : NULL;
    if (in_table) {
      if (!strcmp(key, "end")) {
        if (nfields(R, key, nf, 0)) goto out;
        if (c->npts == 0) {
          RERR("the table of class %s has no rows", mg_loggp_class_names[cur]);
          goto out;
        }
        in_table = 0;
        ckeys[cur] |= C_TABLE;
      } else if (read_row(R, c, f, nf)) {
        goto out;
      }
      continue;
    }
    int got = launch_key(R, lf, f, nf, raw, &gkeys);
    if (got < 0) goto out;
    if (got) continue;
    if (!strcmp(key, "class")) {
      if (nfields(R, key, nf, 1)) goto out;
      int k = !strcmp(f[1], "intra") ? 0 : !strcmp(f[1], "inter") ? 1 : -1;
      if (k < 0) {
        RERR("class '%s': valid: intra (one node), inter (two nodes)", f[1]);
        goto out;
      }
      if (lf->has[k]) {
        RERR("class %s given twice (first at line %ld)", f[1], class_line[k]);
        goto out;
      }
      if (cur >= 0 && class_complete(R, cur, ckeys[cur], class_line[cur])) goto out;
      lf->has[k] = 1;
      class_line[k] = R->line;
      cur = k;
    } else if (!c) {
      int known = 0;
      for (size_t i = 0; i < sizeof cneed / sizeof cneed[0]; i++) known |= !strcmp(key, cneed[i].key);
      if (known) RERR("'%s' before any 'class' line", key);
      else RERR("unknown key '%s'", key);
      goto out;
    } else if (class_key(R, lf->version, c, cur, f, nf, raw, &ckeys[cur], &in_table)) {
      goto out;
    }
  }
  if (len < -1) {
    R->line++;
    RERR("%s", mg_read_line_strerror(len));
    goto out;
  }
  if (R->line == 0) {
    R->line = 1;
    RERR("empty file: not an mpiguide LogGP file");
    goto out;
  }
  if (in_table) {
    RERR("the table of class %s does not end (no 'end' line): is the file cut?", mg_loggp_class_names[cur]);
    goto out;
  }
  if (file_complete(R, lf, gkeys, ckeys, class_line)) goto out;
  rc = 0;
out:
  free(buf);
  if (rc) memset(lf, 0, sizeof *lf); /* nothing half-read */
  return rc;
}

int mg_loggp_read_file(const char *path, mg_loggp_file *lf, char *err, size_t errlen) {
  memset(lf, 0, sizeof *lf);
  FILE *fp = fopen(path, "r");
  if (!fp) return MG_ERR("%s: cannot read: %s", path, strerror(errno));
  reader R = {path, 0, err, errlen};
  int rc = parse(fp, &R, lf);
  fclose(fp);
  return rc;
}

const mg_loggp_class *mg_loggp_file_class(const mg_loggp_file *lf) { return &lf->cls[lf->has[1] ? 1 : 0]; }

int mg_loggp_read(const char *path, mg_loggp *m, char *err, size_t errlen) {
  mg_loggp_file *lf = malloc(sizeof *lf);
  if (!lf) return MG_ERR("%s: out of memory", path);
  int rc = mg_loggp_read_file(path, lf, err, errlen);
  if (rc == 0) *m = mg_loggp_file_class(lf)->m;
  free(lf);
  return rc;
}
