/*
 * Import of PGMPITuneLib profiles (*.prf), as that library's reader expects
 * them (docs/profile.md, "PGMPITuneLib profiles"): one collective and one
 * process count per file, lines in this order, '#' comments anywhere:
 *
 *     MPI_Allgather                 the collective's MPI name
 *     4                             the process count
 *     3                             how many mock-ups follow
 *     1 allgather_as_allreduce      <id> <mock-up name>, that many lines
 *     ...
 *     4                             how many ranges follow
 *     16 16 1                       <first byte> <last byte> <id>, both included
 *     ...
 *
 * PGMPITuneLib's names are mapped to the registry's (its reducescatterblock_*
 * are our reduce_scatter_block_*); a name the registry lacks is an error.
 * Stricter than the original reader, which ignores what it cannot parse:
 * every line is checked and every problem reported. Blank lines are skipped.
 *
 * The format has no end marker: a file cut inside a line is told by that line's
 * missing line break, one cut between lines by its counts (fewer mock-ups or
 * ranges than announced); a cut right after the last range line, which loses
 * only trailing comments, reads as the whole file, and a file missing from a
 * directory cannot be told at all (docs/profile.md).
 */
#include <dirent.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "tune/profile_internal.h"
#include "util/sort.h"

typedef mg_prof_reader prf;
#define ERR(st, ...) MG_PROF_ERR(r, st, __VA_ARGS__)
#define Q(tok, buf) mg_prof_quote((tok), strlen(tok), (buf), sizeof(buf))

/* The mock-up list: PGMPITuneLib id -> registry index (-1 unknown, already reported). */
typedef struct mockup {
  unsigned long long id;
  int alg;
  int line;
} mockup;

/* Our name of a PGMPITuneLib mock-up. Its lane and hierarchical mock-ups repeat the collective,
 * <coll>_as_<coll>_lane and <coll>_as_<coll>_hier: ours are <coll>_as_lane, <coll>_as_hier. */
static void map_name(const char *name, char *buf, size_t size) {
  static const char old[] = "reducescatterblock_";
  if (strncmp(name, old, sizeof old - 1) == 0)
    snprintf(buf, size, "reduce_scatter_block_%s", name + sizeof old - 1);
  else
    snprintf(buf, size, "%s", name);
  const char *as = strstr(buf, "_as_");
  if (!as) return;
  size_t head = (size_t)(as - buf);
  const char *rest = as + 4; /* "<coll>_lane" or "<coll>_hier" */
  if (strlen(rest) == head + 5 && strncmp(rest, buf, head) == 0 &&
      (strcmp(rest + head, "_lane") == 0 || strcmp(rest + head, "_hier") == 0))
    memmove(buf + head + 4, rest + head + 1, 5); /* "lane" or "hier", and the terminator */
}

static int number(prf *r, const char *tok, unsigned long long max, unsigned long long *v, const char *what,
                  int status) {
  char q[64];
  int e = mg_parse_digits(tok, strlen(tok), max, v);
  if (e == 0) return 0;
  if (tok[0] == '-')
    mg_prof_note(r,
         mg_prof_diag(r->d, r->file, r->line, status, "bad %s '%s': must not be negative", what, Q(tok, q)));
  else if (e == -2)
    mg_prof_note(r, mg_prof_diag(r->d, r->file, r->line, status, "bad %s '%s': too large (at most %llu)", what,
                         Q(tok, q), max));
  else
    mg_prof_note(r, mg_prof_diag(r->d, r->file, r->line, status, "bad %s '%s': expected a whole number", what,
                         Q(tok, q)));
  return -1;
}

/* Check the number of fields: `want` tokens, `shape` for the message. */
static int fields(prf *r, int ntok, char **tok, int want, const char *shape) {
  char q[64];
  if (ntok < want) {
    ERR(SYNTAX, "expected '%s', found %d field%s", shape, ntok, ntok == 1 ? "" : "s");
    return -1;
  }
  if (ntok > want) {
    ERR(SYNTAX, "unexpected '%s' after '%s'; start a comment with '#'", Q(tok[want], q), shape);
    return -1;
  }
  return 0;
}

enum { S_COLL, S_NP, S_NALG, S_ALG, S_NRANGE, S_RANGE, S_DONE, S_STOP };
#define MAXTOK 8
#define PRF_MAX_MOCKUPS 4096
#define PRF_MAX_RANGES 10000000

/* Where the parser is and what it has read so far. */
typedef struct prf_state {
  int state, coll, np;
  mockup *mk;                      /* the mock-up list, want_mk entries allocated */
  int nmk;                         /* entries read */
  unsigned long long want_mk;      /* mock-up lines still to come */
  unsigned long long want_ranges;  /* as announced */
  unsigned long long nranges;      /* range lines seen */
  int ranges_line;                 /* the line that announced want_ranges */
} prf_state;

static void read_coll(prf *r, prf_state *s, int ntok, char **tok) {
  char q[64];
  s->state = S_NP;
  if (strcmp(tok[0], MG_PROFILE_MAGIC) == 0) {
    ERR(SYNTAX, "this is an mpiguide profile, not a PGMPITuneLib one: give it a name not ending in .prf");
    s->state = S_STOP;
    return;
  }
  if (fields(r, ntok, tok, 1, "<MPI collective name>")) return;
  for (int c = 0; c < MG_NCOLL && s->coll < 0; c++)
    if (strcasecmp(tok[0], mg_colls[c].mpi_name) == 0) s->coll = c;
  if (s->coll < 0) {
    mg_str v2 = {0};
    for (int c = 0; c < MG_NCOLL; c++) mg_str_addf(&v2, "%s%s", c ? " " : "", mg_colls[c].mpi_name);
    ERR(COLL, "unknown collective '%s'; mpiguide tunes: %s", Q(tok[0], q), v2.s ? v2.s : "");
    free(v2.s);
  }
}

static void read_np(prf *r, prf_state *s, int ntok, char **tok) {
  unsigned long long v;
  s->state = S_NALG;
  if (fields(r, ntok, tok, 1, "<process count>")) return;
  if (number(r, tok[0], 2147483647ULL, &v, "process count", MG_PROFILE_NP) == 0) {
    if (v == 0)
      ERR(NP, "bad process count '0': must be at least 1");
    else
      s->np = (int)v;
  }
}

/* A count line ('<what>', at most max): 0, or -1 when it is unreadable or
 * zero (message `none`), after which the rest of the file cannot be read. */
static int read_count(prf *r, int ntok, char **tok, const char *shape, const char *what, unsigned long long max,
                      const char *none, unsigned long long *n) {
  if (fields(r, ntok, tok, 1, shape) || number(r, tok[0], max, n, what, MG_PROFILE_SYNTAX)) {
    ERR(SYNTAX, "cannot read the rest of the file without the %s", what);
    return -1;
  }
  if (*n == 0) {
    ERR(SYNTAX, "%s", none);
    return -1;
  }
  return 0;
}

static void read_nalg(prf *r, prf_state *s, int ntok, char **tok) {
  s->state = S_STOP;
  if (read_count(r, ntok, tok, "<number of mock-ups>", "number of mock-ups", PRF_MAX_MOCKUPS,
                 "no mock-ups: a .prf profile lists at least one '<id> <mock-up name>'", &s->want_mk))
    return;
  if (!(s->mk = malloc((size_t)s->want_mk * sizeof *s->mk))) {
    ERR(NOMEM, "out of memory");
    return;
  }
  s->state = S_ALG;
}

/* The registry index of PGMPITuneLib mock-up `name` of collective coll; -1
 * (reported, with the valid names) when the registry has no such algorithm. */
static int mockup_alg(prf *r, int coll, const char *name) {
  char ours[256], q[64];
  map_name(name, ours, sizeof ours);
  int alg = mg_alg_find((mg_coll)coll, ours);
  if (alg > 0 && (mg_colls[coll].algs[alg].restrictions & MG_R_MEASURE_ONLY)) alg = -1; /* never run */
  if (alg >= 0) return alg;
  mg_str v2 = {0};
  mg_str_addf(&v2, "default");
  for (int i = 1; i < mg_colls[coll].nalgs; i++)
    if (!(mg_colls[coll].algs[i].restrictions & MG_R_MEASURE_ONLY)) mg_str_addf(&v2, " %s", mg_colls[coll].algs[i].name);
  ERR(ALG, "unknown mock-up '%s' for %s: mpiguide has no such algorithm; valid: %s", Q(name, q),
      mg_colls[coll].mpi_name, v2.s ? v2.s : "");
  free(v2.s);
  return -1;
}

static void read_alg(prf *r, prf_state *s, int ntok, char **tok) {
  unsigned long long v;
  if (!fields(r, ntok, tok, 2, "<id> <mock-up name>") &&
      number(r, tok[0], ~0ULL, &v, "mock-up id", MG_PROFILE_SYNTAX) == 0) {
    int alg = -2, dup = 0; /* -2: unknown collective, reported already */
    for (int i = 0; i < s->nmk; i++)
      if (s->mk[i].id == v) {
        ERR(SYNTAX, "mock-up id %llu is listed twice (also at line %d); give each mock-up its own id", v,
            s->mk[i].line);
        dup = 1;
      }
    if (!dup && s->coll >= 0) alg = mockup_alg(r, s->coll, tok[1]);
    if (!dup) s->mk[s->nmk++] = (mockup){v, alg, r->line};
  }
  if (--s->want_mk == 0) s->state = S_NRANGE;
}

static void read_nrange(prf *r, prf_state *s, int ntok, char **tok) {
  s->state = S_STOP;
  if (read_count(r, ntok, tok, "<number of ranges>", "number of ranges", PRF_MAX_RANGES,
                 "no ranges: a .prf profile has at least one '<first byte> <last byte> <id>'", &s->want_ranges))
    return;
  s->ranges_line = r->line;
  s->state = S_RANGE;
}

static void read_range(prf *r, prf_state *s, int ntok, char **tok) {
  unsigned long long lo, hi, id;
  s->nranges++;
  if (s->nranges == s->want_ranges) s->state = S_DONE;
  if (fields(r, ntok, tok, 3, "<first byte> <last byte> <mock-up id>")) return;
  int bad = number(r, tok[0], SIZE_MAX, &lo, "message size", MG_PROFILE_SIZE);
  bad |= number(r, tok[1], SIZE_MAX, &hi, "message size", MG_PROFILE_SIZE);
  bad |= number(r, tok[2], ~0ULL, &id, "mock-up id", MG_PROFILE_SYNTAX);
  if (bad) return;
  if (lo > hi) {
    ERR(SIZE, "empty size range %llu-%llu: the first byte is above the last one", lo, hi);
    return;
  }
  int k = -1;
  for (int i = 0; i < s->nmk && k < 0; i++)
    if (s->mk[i].id == id) k = i;
  if (k < 0) {
    ERR(ALG, "mock-up id %llu is not in the list of mock-ups; add '%llu <mock-up name>' there", id, id);
    return;
  }
  if (s->mk[k].alg < 0 || s->coll < 0 || s->np < 1) return; /* reported already */
  if (!mg_colls[s->coll].known && (lo != 0 || hi < SIZE_MAX)) {
    ERR(SIZE, "%s's message size is not known on every rank (%s), so a range cannot choose by it: only "
              "0 %zu covers every size", mg_colls[s->coll].mpi_name, strchr(mg_colls[s->coll].size_def, ':') + 2, (size_t)SIZE_MAX);
    return;
  }
  if (mg_prof_add_at(r->p, (mg_coll)s->coll, s->np, s->np, (size_t)lo, (size_t)hi, 0, 0, s->mk[k].alg, NULL, r->fidx,
                     r->line))
    ERR(NOMEM, "out of memory");
}

/* A line after the last announced range: one message for the whole tail. */
static void read_tail(prf *r, prf_state *s, char **tok) {
  char q[64];
  ERR(SYNTAX,
      "unexpected '%s' after the last range: line %d announces %llu range%s; raise that count or "
      "delete this line",
      Q(tok[0], q), s->ranges_line, s->want_ranges, s->want_ranges == 1 ? "" : "s");
  s->state = S_STOP;
}

/* The file ended before the last announced range: say what was still expected. */
static void report_eof(prf *r, const prf_state *s) {
  static const char *const what[] = {[S_COLL] = "the MPI collective name (e.g. MPI_Allreduce)",
                                     [S_NP] = "the process count",
                                     [S_NALG] = "the number of mock-ups",
                                     [S_ALG] = "more '<id> <mock-up name>' lines",
                                     [S_NRANGE] = "the number of ranges",
                                     [S_RANGE] = "more '<first byte> <last byte> <id>' lines"};
  if (r->line == 0) r->line = 1;
  if (s->state == S_RANGE)
    ERR(TRUNCATED, "unexpected end of file: line %d announces %llu ranges, found %llu: the file looks cut (truncated)",
        s->ranges_line, s->want_ranges, s->nranges);
  else
    ERR(TRUNCATED, "unexpected end of file: expected %s: the file looks cut (truncated)", what[s->state]);
}

static int parse_into(mg_profile *p, const char *buf, size_t len, const char *name, mg_profile_diags *d) {
  prf rd = {0}, *r = &rd;
  mg_prof_linebuf lb = {0};
  prf_state s = {.state = S_COLL, .coll = -1};
  r->p = p;
  r->d = d;
  r->file = name ? name : "<buffer>";
  r->first = MG_PROFILE_OK;
  if ((r->fidx = mg_prof_file_index(p, r->file)) < 0)
    return mg_prof_diag(d, r->file, 0, MG_PROFILE_NOMEM, "out of memory");
  if (!buf) len = 0;
  size_t whole = mg_prof_whole_len(buf, len); /* a last line without a line break is not read */
  for (size_t pos = 0; pos < whole && s.state != S_STOP;) {
    char *tok[MAXTOK], *comment;
    int ntok = mg_prof_take_line(r, buf, len, &pos, &lb, tok, MAXTOK, &comment, NULL, NULL);
    if (ntok == MG_PROF_STOP) break;
    if (ntok == MG_PROF_SKIP) continue;
    if (ntok == 0) continue; /* blank or comment */
    switch (s.state) {
    case S_COLL: read_coll(r, &s, ntok, tok); break;
    case S_NP: read_np(r, &s, ntok, tok); break;
    case S_NALG: read_nalg(r, &s, ntok, tok); break;
    case S_ALG: read_alg(r, &s, ntok, tok); break;
    case S_NRANGE: read_nrange(r, &s, ntok, tok); break;
    case S_RANGE: read_range(r, &s, ntok, tok); break;
    case S_DONE: read_tail(r, &s, tok); break;
    }
  }
  if (whole < len && s.state != S_STOP) {
    r->line++;
    mg_prof_report_cut(r, "copy it whole, or if it is whole, end its last line with a line break");
  } else if (s.state != S_DONE && s.state != S_STOP)
    report_eof(r, &s);
  free(s.mk);
  free(lb.s);
  return r->first;
}

/* Build and hand out, or reject. */
static int finish(mg_profile *p, int first, mg_profile **out, mg_profile_diags *d) {
  int st = mg_profile_build(p, d);
  if (first == MG_PROFILE_OK) first = st;
  if (first != MG_PROFILE_OK) {
    mg_profile_free(p);
    return first;
  }
  *out = p;
  return MG_PROFILE_OK;
}

static int preamble(mg_profile *p, const char *name) {
  mg_str s = {0};
  mg_str_addf(&s, "imported from PGMPITuneLib profile %s", name);
  int st = s.failed ? MG_PROFILE_NOMEM : mg_profile_add_preamble(p, s.s);
  free(s.s);
  return st;
}

int mg_profile_parse_prf(const char *buf, size_t len, const char *name, mg_profile **out,
                         mg_profile_diags *d) {
  *out = NULL;
  mg_profile *p = mg_profile_new();
  if (!p || preamble(p, name ? name : "<buffer>") != MG_PROFILE_OK) {
    mg_profile_free(p);
    return mg_prof_diag(d, name, 0, MG_PROFILE_NOMEM, "out of memory");
  }
  return finish(p, parse_into(p, buf, len, name, d), out, d);
}

static int import_file(mg_profile *p, const char *path, mg_profile_diags *d) {
  char *buf;
  size_t len;
  int st = mg_prof_read_file(path, &buf, &len, d);
  if (st != MG_PROFILE_OK) return st;
  st = preamble(p, path);
  if (st != MG_PROFILE_OK)
    st = mg_prof_diag(d, path, 0, st, "out of memory");
  else
    st = parse_into(p, buf, len, path, d);
  free(buf);
  return st;
}


int mg_profile_import_prf(const char *path, mg_profile **out, mg_profile_diags *d) {
  struct stat st;
  *out = NULL;
  mg_profile *p = mg_profile_new();
  if (!p) return mg_prof_diag(d, path, 0, MG_PROFILE_NOMEM, "out of memory");
  if (stat(path, &st) != 0 || !S_ISDIR(st.st_mode)) return finish(p, import_file(p, path, d), out, d);

  DIR *dir = opendir(path);
  if (!dir) {
    mg_profile_free(p);
    return mg_prof_diag(d, path, 0, MG_PROFILE_IO, "cannot open the directory");
  }
  char **names = NULL;
  int n = 0, cap = 0, first = MG_PROFILE_OK;
  struct dirent *e;
  while ((e = readdir(dir)) != NULL) {
    size_t l = strlen(e->d_name);
    if (l < 5 || strcmp(e->d_name + l - 4, ".prf") != 0) continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 16;
      char **v = realloc(names, (size_t)cap * sizeof *v);
      if (!v) break;
      names = v;
    }
    if (n < cap && (names[n] = strdup(e->d_name))) n++;
  }
  closedir(dir);
  if (n > 1) qsort(names, (size_t)n, sizeof *names, mg_cmp_str);
  if (n == 0)
    first = mg_prof_diag(d, path, 0, MG_PROFILE_IO,
                         "no *.prf files in this directory; give a PGMPITuneLib profile directory or an "
                         "mpiguide profile file");
  for (int i = 0; i < n; i++) {
    size_t lp = strlen(path), ln = strlen(names[i]);
    char *full = malloc(lp + ln + 2);
    int s;
    if (!full)
      s = mg_prof_diag(d, path, 0, MG_PROFILE_NOMEM, "out of memory");
    else {
      memcpy(full, path, lp);
      if (lp == 0 || path[lp - 1] != '/') full[lp++] = '/';
      memcpy(full + lp, names[i], ln + 1);
      s = import_file(p, full, d);
      free(full);
    }
    if (first == MG_PROFILE_OK) first = s;
    free(names[i]);
  }
  free(names);
  return finish(p, first, out, d);
}
