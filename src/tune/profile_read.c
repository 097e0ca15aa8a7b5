/*
 * The reader of the mpiguide profile format (docs/profile.md), versions 1 to 3:
 *
 *     mpiguide-profile 3
 *     # preamble comments
 *     <collective> np=<N|A-B|A-*|*> <LO-HI|N|LO-*|*> [type=<class>] [op=<op>] <algorithm>  [# comment]
 *     end-of-profile rules=<N>
 *
 * (the selectors type= and op= from version 2 on, and for reductions only; the end line, the
 * last line, in version 3 only, where it is required). A file that looks cut is refused: a last
 * line without a line break (any version), and in version 3 a missing end line, a count that is
 * not the number of rule lines, or anything after the end line. A cut exactly at a line end of
 * a version-1 or -2 file cannot be told (mpiguide profile validate warns about such files).
 * Every line is checked and every problem reported (up to the diagnostics
 * limit) with its line and what to do; the rules that parse are then checked
 * together (overlaps, duplicates, nesting) by mg_profile_build(). A profile
 * with any problem is rejected whole.
 */
#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tune/profile_internal.h"
#include "util/size.h"

typedef mg_prof_reader reader;
#define ERR(st, ...) MG_PROF_ERR(r, st, __VA_ARGS__)

#define Q(tok, buf) mg_prof_quote((tok), strlen(tok), (buf), sizeof(buf))

static const char rule_shape1[] = "<collective> np=<N> <LO>-<HI> <algorithm>";
static const char rule_shape2[] = "<collective> np=<N> <LO>-<HI> [type=<class>] [op=<op>] <algorithm>";
/* The shape of a rule in the file's version (version 1: no selectors to mention). */
static const char *rule_shape(const reader *r) { return r->version == 1 ? rule_shape1 : rule_shape2; }

/* ---- fields ------------------------------------------------------------------------------ */

static int coll_field(reader *r, const char *tok) {
  int c = mg_coll_find(tok);
  if (c >= 0 && strcmp(tok, mg_colls[c].name) == 0) return c;
  char q[64];
  if (c >= 0) { /* a profile names collectives one way only: the registry name */
    ERR(COLL, "unknown collective '%s': write its registry name '%s'", Q(tok, q), mg_colls[c].name);
    return -1;
  }
  mg_str v = {0};
  for (int i = 0; i < MG_NCOLL; i++) mg_str_addf(&v, "%s%s", i ? " " : "", mg_colls[i].name);
  ERR(COLL, "unknown collective '%s'; valid: %s", Q(tok, q), v.s ? v.s : "");
  free(v.s);
  return -1;
}

static int alg_field(reader *r, int coll, const char *tok) {
  int a = mg_alg_find((mg_coll)coll, tok);
  char q[64];
  if (a > 0 && (mg_colls[coll].algs[a].restrictions & MG_R_MEASURE_ONLY)) {
    ERR(ALG, "algorithm '%s' is measure-only (the benchmark runs it with its peer acting alike; libmpiguide "
             "never runs it, see `mpiguide list %s`): choose another or default", Q(tok, q), mg_colls[coll].name);
    return -1;
  }
  if (a >= 0) return a;
  for (int c = 0; c < MG_NCOLL; c++)
    if (c != coll && strcmp(tok, "default") != 0 && mg_alg_find((mg_coll)c, tok) >= 0) {
      ERR(ALG, "algorithm '%s' is for %s, not %s; see `mpiguide list %s`", Q(tok, q), mg_colls[c].name,
          mg_colls[coll].name, mg_colls[coll].name);
      return -1;
    }
  mg_str v = {0};
  mg_str_addf(&v, "default");
  for (int i = 1; i < mg_colls[coll].nalgs; i++)
    if (!(mg_colls[coll].algs[i].restrictions & MG_R_MEASURE_ONLY)) mg_str_addf(&v, " %s", mg_colls[coll].algs[i].name);
  ERR(ALG, "unknown algorithm '%s' for %s; valid: %s", Q(tok, q), mg_colls[coll].name, v.s ? v.s : "");
  free(v.s);
  return -1;
}

/* One size bound s[0..n) of token tok. */
static int size_bound(reader *r, const char *tok, const char *s, size_t n, size_t *v) {
  char q[64], u[64];
  size_t k = 0;
  Q(tok, q);
  if (n == 0) {
    ERR(SIZE, "bad message size '%s': a bound is missing; write LO-HI (both included), e.g. 1K-64K", q);
    return -1;
  }
  if (s[0] == '-') {
    ERR(SIZE, "bad message size '%s': sizes cannot be negative", q);
    return -1;
  }
  while (k < n && s[k] >= '0' && s[k] <= '9') k++;
  if (k == 0) {
    ERR(SIZE, "bad message size '%s': expected a number of bytes such as 4096, 64K, 1M or 2G", q);
    return -1;
  }
  if (k < n && (s[k] == '.' || s[k] == ',')) {
    ERR(SIZE, "bad message size '%s': sizes are whole numbers of bytes; write e.g. 1536 instead of 1.5K", q);
    return -1;
  }
  char one[64];
  if (n >= sizeof one) {
    ERR(SIZE, "bad message size '%s': too long", q);
    return -1;
  }
  memcpy(one, s, n);
  one[n] = '\0';
  switch (mg_size_parse(one, v)) { /* the one size rule of util/size.h */
  case MG_SIZE_OK: return 0;
  case MG_SIZE_AMBIGUOUS:
    ERR(SIZE, "bad message size '%s': '%s' is ambiguous (1000 or 1024?); write K, M, G (powers of 1024) or KiB, "
              "MiB, GiB", q, mg_prof_quote(s + k, n - k, u, sizeof u));
    return -1;
  case MG_SIZE_TOO_LARGE:
    ERR(SIZE, "message size '%s' is too large: the maximum is %zu bytes; write LO-* for no upper bound", q,
        (size_t)SIZE_MAX);
    return -1;
  default:
    ERR(SIZE, "bad message size '%s': unknown suffix '%s'; use %s", q, mg_prof_quote(s + k, n - k, u, sizeof u),
        MG_SIZE_RULE);
    return -1;
  }
}

static int size_field(reader *r, const char *tok, size_t *lo, size_t *hi) {
  char q[64];
  if (strcmp(tok, "*") == 0) {
    *lo = 0;
    *hi = SIZE_MAX;
    return 0;
  }
  if (tok[0] == '-') {
    ERR(SIZE, "bad message size '%s': sizes cannot be negative", Q(tok, q));
    return -1;
  }
  const char *dash = strchr(tok, '-');
  if (!dash) {
    if (size_bound(r, tok, tok, strlen(tok), lo)) return -1;
    *hi = *lo;
    return 0;
  }
  int bad = size_bound(r, tok, tok, (size_t)(dash - tok), lo);
  if (strcmp(dash + 1, "*") == 0)
    *hi = SIZE_MAX;
  else
    bad |= size_bound(r, tok, dash + 1, strlen(dash + 1), hi);
  if (bad) return -1;
  if (*lo > *hi) {
    ERR(SIZE, "empty size range '%s': the lower bound is above the upper bound (write LO-HI, both included)",
        Q(tok, q));
    return -1;
  }
  return 0;
}

static int np_bound(reader *r, const char *tok, const char *s, size_t n, int *v) {
  unsigned long long x;
  char q[64];
  if (mg_parse_digits(s, n, INT_MAX, &x) != 0 || x < 1) {
    ERR(NP, "bad process count '%s': process counts are whole numbers from 1 to %d", Q(tok, q), INT_MAX);
    return -1;
  }
  *v = (int)x;
  return 0;
}

static int np_field(reader *r, const char *tok, int *lo, int *hi) {
  char q[64];
  if (strncmp(tok, "np=", 3) != 0) {
    ERR(NP, "expected the process count as np=<N>, np=<A>-<B> or np=* in field 2, got '%s'", Q(tok, q));
    return -1;
  }
  const char *s = tok + 3, *dash = strchr(s, '-');
  if (strcmp(s, "*") == 0) {
    *lo = 1;
    *hi = INT_MAX;
    return 0;
  }
  if (!dash) {
    if (np_bound(r, tok, s, strlen(s), lo)) return -1;
    *hi = *lo;
    return 0;
  }
  if (np_bound(r, tok, s, (size_t)(dash - s), lo)) return -1;
  if (strcmp(dash + 1, "*") == 0)
    *hi = INT_MAX;
  else if (np_bound(r, tok, dash + 1, strlen(dash + 1), hi))
    return -1;
  if (*lo > *hi) {
    ERR(NP, "empty process-count range '%s': the lower bound is above the upper bound", Q(tok, q));
    return -1;
  }
  return 0;
}

/* ---- selectors --------------------------------------------------------------------------- */

static int is_sel(const char *tok) { return strncmp(tok, "type=", 5) == 0 || strncmp(tok, "op=", 3) == 0; }

/* Space-separated names of the classes / ops / reductions, for messages. */
static void names_of(mg_str *v, int what) {
  if (what == 0)
    for (int c = 1; c < MG_NTCLASS; c++) mg_str_addf(v, "%s%s", c > 1 ? " " : "", mg_tclass_name(c));
  else if (what == 1)
    for (int o = 1; o < MG_NOPSEL; o++) mg_str_addf(v, "%s%s", o > 1 ? " " : "", mg_opsel_name(o));
  else
    for (int c = 0, k = 0; c < MG_NCOLL; c++)
      if (mg_colls[c].reduction) mg_str_addf(v, "%s%s", k++ ? " " : "", mg_colls[c].name);
}

static int tclass_value(reader *r, const char *tok) {
  const char *v = tok + 5;
  int c = mg_tclass_find(v);
  if (c > 0 && strcmp(v, mg_tclass_name(c)) == 0) return c;
  char q[64];
  if (c > 0) {
    ERR(TCLASS, "unknown datatype class '%s': write 'type=%s'", Q(v, q), mg_tclass_name(c));
    return -1;
  }
  int t = mg_tclass_of_typename(v);
  if (t > 0) {
    ERR(TCLASS, "unknown datatype class '%s': a rule names the class of the datatype, not the datatype; %s is in "
                "class %s: write 'type=%s'", Q(v, q), v, mg_tclass_name(t), mg_tclass_name(t));
    return -1;
  }
  mg_str names = {0};
  names_of(&names, 0);
  ERR(TCLASS, "unknown datatype class '%s'; valid: %s (the MPI standard's groups of predefined datatypes, "
              "docs/profile.md; other datatypes have no class: omit type=)",
      Q(v, q), names.s ? names.s : "");
  free(names.s);
  return -1;
}

static int opsel_value(reader *r, const char *tok) {
  const char *v = tok + 3;
  int o = mg_opsel_find(v);
  if (o > 0 && strcmp(v, mg_opsel_name(o)) == 0) return o;
  char q[64];
  if (o > 0) {
    ERR(OPSEL, "unknown op '%s': write 'op=%s'", Q(v, q), mg_opsel_name(o));
    return -1;
  }
  mg_str names = {0};
  names_of(&names, 1);
  ERR(OPSEL, "unknown op '%s'; valid: %s (MPI's predefined reduction ops; user-defined ops cannot be named: "
             "omit op=)", Q(v, q), names.s ? names.s : "");
  free(names.s);
  return -1;
}

/*
 * The selectors tok[0..n) (each "type=..." or "op=..."), of a rule of
 * collective coll (-1: unknown, reported). Stores them in *tclass, *opsel;
 * returns -1 after reporting a problem.
 */
static int selectors(reader *r, int coll, char **tok, int n, int *tclass, int *opsel) {
  char q[64];
  int bad = 0, seen_type = 0, seen_op = 0;
  if (r->version == 1) {
    ERR(SELECTOR, "'%s': type= and op= need profile version 2; change line 1 to '%s 2'", Q(tok[0], q),
        MG_PROFILE_MAGIC);
    bad = 1;
  }
  if (coll >= 0 && !mg_colls[coll].reduction) {
    mg_str v = {0};
    names_of(&v, 2);
    ERR(SELECTOR, "'%s': %s has no %s; type= and op= are for the reductions only (%s): delete it", Q(tok[0], q),
        mg_colls[coll].name, strncmp(tok[0], "op=", 3) == 0 ? "op" : "reduction datatype", v.s ? v.s : "");
    free(v.s);
    bad = 1;
  }
  for (int i = 0; i < n; i++) {
    int type = strncmp(tok[i], "type=", 5) == 0;
    if ((type && seen_type) || (!type && seen_op)) {
      ERR(SELECTOR, "'%s': %s is given twice; give each selector once", Q(tok[i], q), type ? "type=" : "op=");
      bad = 1;
      continue;
    }
    if (type && seen_op) {
      ERR(SELECTOR, "'%s' after op=: write type= before op= (%s)", Q(tok[i], q), rule_shape2);
      bad = 1;
    }
    if (type) {
      seen_type = 1;
      bad |= (*tclass = tclass_value(r, tok[i])) < 0;
    } else {
      seen_op = 1;
      bad |= (*opsel = opsel_value(r, tok[i])) < 0;
    }
  }
  if (!bad && !mg_sel_defined(*tclass, *opsel)) {
    if (*opsel == MG_OPSEL_MAXLOC || *opsel == MG_OPSEL_MINLOC)
      ERR(SELECTOR, "op=%s takes pair types (MPI_DOUBLE_INT, ...), which have no class: the rule could never "
                    "apply; delete type=", mg_opsel_name(*opsel));
    else
      ERR(SELECTOR, "MPI does not define op=%s on type=%s (%s): the rule could never apply", mg_opsel_name(*opsel),
          mg_tclass_name(*tclass), mg_tclass_desc(*tclass));
    bad = 1;
  }
  return bad ? -1 : 0;
}

/* ---- lines ------------------------------------------------------------------------------- */

#define MAXTOK 8

/* What to write on line 1, for messages. */
#define VERSION_HINT "'mpiguide-profile 3' (and as the last line 'end-of-profile rules=<N>', N the number of rules)"

/* What to do about a file that looks cut, for messages. */
#define CUT_HINT                                                                                                 \
  "write it again (mpiguide tune, mpiguide profile merge), or copy it whole; a site replaces a published "   \
  "profile by renaming a complete new file onto it (docs/profile.md, \"Replacing a published profile\")"

static void version_line(reader *r, char **tok, int ntok) {
  char q[64];
  if (ntok < 2) {
    ERR(VERSION, "the version line lacks the version: write " VERSION_HINT);
    return;
  }
  for (int v = MG_PROFILE_FORMAT_MIN; v <= MG_PROFILE_FORMAT; v++) {
    char want[16];
    snprintf(want, sizeof want, "%d", v);
    if (strcmp(tok[1], want) == 0) r->version = v;
  }
  if (!r->version) {
    mg_str v = {0}; /* "1 and 2", "1, 2 and 3" */
    for (int k = MG_PROFILE_FORMAT_MIN; k <= MG_PROFILE_FORMAT; k++)
      mg_str_addf(&v, "%s%d", k == MG_PROFILE_FORMAT_MIN ? "" : k == MG_PROFILE_FORMAT ? " and " : ", ", k);
    ERR(VERSION,
        "unsupported profile version '%s': this mpiguide reads versions %s; rewrite the profile with "
        "`mpiguide tune`",
        Q(tok[1], q), v.s ? v.s : "");
    free(v.s);
  }
  if (ntok > 2) ERR(SYNTAX, "unexpected '%s' after the version; start a comment with '#'", Q(tok[2], q));
}

/* The end line "end-of-profile rules=<N>": stores N in *rules; -1 after reporting a problem. */
static int end_line(reader *r, char **tok, int ntok, unsigned long long *rules) {
  char q[64];
  if (r->version && r->version < MG_PROFILE_FORMAT_END) {
    ERR(VERSION, "'%s' is the end line of version %d profiles: change line 1 to '%s %d', or delete this line",
        MG_PROFILE_END, MG_PROFILE_FORMAT_END, MG_PROFILE_MAGIC, MG_PROFILE_FORMAT_END);
    return -1;
  }
  if (ntok != 2 || strncmp(tok[1], "rules=", 6) != 0 ||
      mg_parse_digits(tok[1] + 6, strlen(tok[1] + 6), INT_MAX, rules) != 0) {
    ERR(SYNTAX, "bad end line: expected '%s rules=<N>', N the number of rule lines, got '%s%s%s'", MG_PROFILE_END,
        MG_PROFILE_END, ntok > 1 ? " " : "", ntok > 1 ? Q(tok[1], q) : "");
    return -1;
  }
  return 0;
}

static void rule_line(reader *r, char **tok, int ntok, const char *comment) {
  char q[64];
  if (strcmp(tok[0], MG_PROFILE_MAGIC) == 0) {
    ERR(VERSION, "a version line may only be the first line; profiles cannot be concatenated");
    return;
  }
  int coll = coll_field(r, tok[0]);
  if (ntok > MAXTOK) ntok = MAXTOK; /* the rest is reported as unexpected after the algorithm */
  int nsel = 0;                     /* selectors tok[3 .. 3+nsel) */
  while (3 + nsel < ntok && is_sel(tok[3 + nsel])) nsel++;
  if (ntok < 4 || 3 + nsel == ntok) {
    if (ntok >= 4)
      ERR(SYNTAX, "incomplete rule: the algorithm is missing after '%s'; a rule is '%s'", Q(tok[ntok - 1], q),
          rule_shape2);
    else
      ERR(SYNTAX, "incomplete rule: expected '%s', found %d field%s", rule_shape(r), ntok, ntok == 1 ? "" : "s");
    return;
  }
  int np_lo = 0, np_hi = 0, alg = -1, tclass = MG_TCLASS_ANY, opsel = MG_OPSEL_ANY;
  size_t lo = 0, hi = 0;
  int bad = coll < 0;
  bad |= np_field(r, tok[1], &np_lo, &np_hi) != 0;
  if (is_sel(tok[2])) { /* the fields after it are shifted: nothing more to say about them */
    ERR(SYNTAX, "'%s' in place of the sizes: selectors come after the sizes ('%s')", Q(tok[2], q), rule_shape2);
    return;
  }
  if (size_field(r, tok[2], &lo, &hi) != 0) {
    bad = 1;
  } else if (coll >= 0 && !mg_colls[coll].known && (lo != 0 || hi != SIZE_MAX)) {
    ERR(SIZE, "'%s': %s's message size is not known on every rank (%s), so a rule cannot choose by it: "
              "write '*' (docs/library.md, \"Deciding without disagreeing\")",
        Q(tok[2], q), mg_colls[coll].name, strchr(mg_colls[coll].size_def, ':') + 2);
    bad = 1;
  }
  if (nsel) bad |= selectors(r, coll, tok + 3, nsel, &tclass, &opsel) != 0;
  int ia = 3 + nsel; /* the algorithm */
  if (coll >= 0) bad |= (alg = alg_field(r, coll, tok[ia])) < 0;
  if (ntok > ia + 1) {
    if (is_sel(tok[ia + 1]))
      ERR(SYNTAX, "'%s' after the algorithm: selectors come before it ('%s')", Q(tok[ia + 1], q), rule_shape2);
    else
      ERR(SYNTAX, "unexpected '%s' after the algorithm: a rule is '%s'; start a comment with '#'",
          Q(tok[ia + 1], q), rule_shape(r));
    bad = 1;
  }
  if (bad) return;
  int st = mg_prof_add_at(r->p, (mg_coll)coll, np_lo, np_hi, lo, hi, tclass, opsel, alg, comment, r->fidx,
                          r->line);
  if (st != MG_PROFILE_OK) ERR(NOMEM, "out of memory");
}

int mg_profile_parse(const char *buf, size_t len, const char *name, mg_profile **out, mg_profile_diags *d) {
  reader rd = {0}, *r = &rd;
  mg_prof_linebuf lb = {0};
  *out = NULL;
  r->d = d;
  r->file = name ? name : "<buffer>";
  r->first = MG_PROFILE_OK;
  if (!(r->p = mg_profile_new()) || (r->fidx = mg_prof_file_index(r->p, r->file)) < 0) {
    mg_profile_free(r->p);
    return mg_prof_diag(d, r->file, 0, MG_PROFILE_NOMEM, "out of memory");
  }
  if (!buf) len = 0;
  size_t pos = 0, whole = mg_prof_whole_len(buf, len); /* a last line without a line break is not read */
  if (len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0) pos = 3; /* UTF-8 byte order mark */
  int seen_rule = 0, nrule_lines = 0, end_at = 0, end_bad = 0, after_end = 0;
  unsigned long long end_rules = 0;
  while (pos < whole) {
    char *tok[MAXTOK], *comment;
    const char *line;
    size_t n;
    int ntok = mg_prof_take_line(r, buf, len, &pos, &lb, tok, MAXTOK, &comment, &line, &n);
    if (ntok == MG_PROF_STOP) break;
    if (end_at) { /* the end line is the last line: whatever follows comes from elsewhere */
      after_end = 1;
      ERR(TRUNCATED, "text after the end line (line %d): the file looks pieced together (two profiles, or "
                     "rewritten while it was read); %s", end_at, CUT_HINT);
      break;
    }
    if (ntok == MG_PROF_SKIP) continue;
    if (r->line == 1) {
      if (ntok > 0 && strcmp(tok[0], MG_PROFILE_MAGIC) == 0) {
        version_line(r, tok, ntok);
        continue;
      }
      ERR(VERSION, "missing version line: the first line must be " VERSION_HINT);
    }
    if (ntok > 0 && strcmp(tok[0], MG_PROFILE_END) == 0) {
      if (end_line(r, tok, ntok, &end_rules) == 0)
        end_at = r->line;
      else
        end_bad = 1; /* reported: no second message about the end line */
      continue;
    }
    if (ntok == 0) {
      if (comment && !seen_rule && r->line > 1) { /* preamble: keep the text after "# " as it is */
        const char *hash = memchr(line, '#', n);
        const char *t = hash + 1;
        if (t < line + n && *t == ' ') t++;
        if (mg_prof_linebuf_set(&lb, t, n - (size_t)(t - line)) || mg_profile_add_preamble(r->p, lb.s))
          ERR(NOMEM, "out of memory");
      }
      continue;
    }
    seen_rule = 1;
    nrule_lines++;
    rule_line(r, tok, ntok, comment);
  }
  if (whole < len) { /* the last line, without its line break */
    r->line++;
    mg_prof_report_cut(r, CUT_HINT);
  } else if (r->line == 0) {
    r->line = 1;
    ERR(VERSION, "empty profile (an empty file: cut, or not written yet?): the first line must be " VERSION_HINT);
  } else if (r->version >= MG_PROFILE_FORMAT_END && !end_at && !end_bad && !after_end) {
    ERR(TRUNCATED, "no end line after line %d: a version-%d profile ends with '%s rules=%d'; the file looks cut "
                   "(truncated) after this line; %s", r->line, r->version, MG_PROFILE_END, nrule_lines, CUT_HINT);
  } else if (end_at && end_rules != (unsigned long long)nrule_lines) {
    r->line = end_at;
    ERR(TRUNCATED, "the end line says rules=%llu, but the file has %d rule line%s: it looks cut or pieced "
                   "together (rewritten while it was read); %s; if you edited it by hand, write rules=%d",
        end_rules, nrule_lines, nrule_lines == 1 ? "" : "s", CUT_HINT, nrule_lines);
  }
  r->p->file_version = r->version;
  free(lb.s);
  mg_prof_note(r, mg_profile_build(r->p, d)); /* overlaps and duplicates among the rules that parsed */
  if (r->first != MG_PROFILE_OK) {
    mg_profile_free(r->p);
    return r->first;
  }
  *out = r->p;
  return MG_PROFILE_OK;
}

int mg_profile_load(const char *path, mg_profile **out, mg_profile_diags *d) {
  char *buf;
  size_t len;
  *out = NULL;
  int st = mg_prof_read_file(path, &buf, &len, d);
  if (st != MG_PROFILE_OK) return st;
  st = mg_profile_parse(buf, len, path, out, d);
  free(buf);
  return st;
}

static int ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

int mg_profile_open(const char *path, mg_profile **out, mg_profile_diags *d) {
  struct stat st;
  if ((stat(path, &st) == 0 && S_ISDIR(st.st_mode)) || ends_with(path, ".prf"))
    return mg_profile_import_prf(path, out, d);
  return mg_profile_load(path, out, d);
}
