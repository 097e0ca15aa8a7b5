/*
 * The in-memory profile: rules as given, and once built an index for the
 * per-call lookup.
 *
 * Building sorts the rules canonically (collective, np_lo, np_hi descending,
 * tclass, opsel, lo), so each (collective, np selector) is a run of rules, and
 * within it each (type, op) selector group a run sorted by size, the group
 * without selectors first; checks that a selector group's size ranges are
 * disjoint and that the np selectors of a collective are disjoint or nested;
 * then flattens the nested np selectors into disjoint process-count slices,
 * each pointing at the ranges of the narrowest np selector that contains it:
 * its rules without selectors, and when it has rules with selectors a table
 * (mg_profile_seltab) of the group that decides for each class and op of a
 * call. Each selector group with more than MG_PROFILE_INDEX_MIN ranges gets an
 * index by size class (mg_profile_sizes). A lookup is a binary search for the
 * slice of the process count (done once per communicator by libmpiguide), one
 * table read when the slice has selectors, then the range of the size: a bit
 * scan and an index read narrow it to the few ranges of the size's class.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tune/profile_internal.h"
#include "util/fmt.h"
#include "util/hash.h"

mg_profile *mg_profile_new(void) {
  mg_profile *p = calloc(1, sizeof *p);
  if (p) mg_profile_build(p, NULL); /* empty: indexed and hashed */
  return p;
}

void mg_prof_unbuild(mg_profile *p) {
  free(p->ranges);
  free(p->npmap);
  free(p->seltabs);
  free(p->sizeidx);
  p->ranges = NULL;
  p->npmap = NULL;
  p->seltabs = NULL;
  p->sizeidx = NULL;
  p->nnpmap = 0;
  p->nseltabs = 0;
  memset(p->npmap_first, 0, sizeof p->npmap_first);
  p->built = 0;
  p->hash = 0;
}

void mg_profile_free(mg_profile *p) {
  if (!p) return;
  mg_prof_unbuild(p);
  for (int i = 0; i < p->nrules; i++) free(p->rules[i].comment);
  free(p->rules);
  for (int i = 0; i < p->nfiles; i++) free(p->files[i]);
  free(p->files);
  for (int i = 0; i < p->npreamble; i++) free(p->preamble[i]);
  free(p->preamble);
  free(p);
}

/* The blanks the reader trims around comments. */
static int blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\v' || c == '\f'; }

/* A copy of s with line breaks as spaces and blanks trimmed (both ends if
 * `lead`, else the end only), as the reader would give it back. */
static char *clean_copy(const char *s, int lead) {
  while (lead && blank(*s)) s++;
  size_t n = strlen(s);
  while (n > 0 && blank(s[n - 1])) n--;
  char *c = malloc(n + 1);
  if (!c) return NULL;
  for (size_t i = 0; i < n; i++) c[i] = (s[i] == '\n' || s[i] == '\r') ? ' ' : s[i];
  c[n] = '\0';
  return c;
}

int mg_prof_add_at(mg_profile *p, mg_coll coll, int np_lo, int np_hi, size_t lo, size_t hi, int tclass, int opsel,
                   int alg, const char *comment, int file, int line) {
  if (!p || (int)coll < 0 || coll >= MG_NCOLL || alg < 0 || alg >= mg_colls[coll].nalgs || np_lo < 1 ||
      np_lo > np_hi || lo > hi)
    return MG_PROFILE_INVALID;
  if (tclass < 0 || tclass >= MG_NTCLASS || opsel < 0 || opsel >= MG_NOPSEL ||
      ((tclass || opsel) && !mg_colls[coll].reduction) || !mg_sel_defined(tclass, opsel) ||
      (!mg_colls[coll].known && (lo != 0 || hi != SIZE_MAX))) /* size not known on every rank */
    return MG_PROFILE_INVALID;
  if (p->nrules == p->cap) {
    int cap = p->cap ? 2 * p->cap : 16;
    mg_profile_rule *r = realloc(p->rules, (size_t)cap * sizeof *r);
    if (!r) return MG_PROFILE_NOMEM;
    p->rules = r;
    p->cap = cap;
  }
  char *c = NULL;
  if (comment && *comment && !(c = clean_copy(comment, 1))) return MG_PROFILE_NOMEM;
  if (c && !*c) {
    free(c);
    c = NULL;
  }
  mg_prof_unbuild(p);
  p->rules[p->nrules++] = (mg_profile_rule){.coll = coll,
                                             .np_lo = np_lo,
                                             .np_hi = np_hi,
                                             .lo = lo,
                                             .hi = hi,
                                             .tclass = tclass,
                                             .opsel = opsel,
                                             .alg = alg,
                                             .comment = c,
                                             .file = file,
                                             .line = line};
  return MG_PROFILE_OK;
}

int mg_profile_add(mg_profile *p, mg_coll coll, int np_lo, int np_hi, size_t lo, size_t hi, int alg,
                   const char *comment) {
  return mg_prof_add_at(p, coll, np_lo, np_hi, lo, hi, MG_TCLASS_ANY, MG_OPSEL_ANY, alg, comment, -1, 0);
}

int mg_profile_add_sel(mg_profile *p, mg_coll coll, int np_lo, int np_hi, size_t lo, size_t hi, int tclass,
                       int opsel, int alg, const char *comment) {
  return mg_prof_add_at(p, coll, np_lo, np_hi, lo, hi, tclass, opsel, alg, comment, -1, 0);
}

int mg_profile_add_preamble(mg_profile *p, const char *line) {
  if (!p || !line) return MG_PROFILE_INVALID;
  char **v = realloc(p->preamble, (size_t)(p->npreamble + 1) * sizeof *v);
  if (!v) return MG_PROFILE_NOMEM;
  p->preamble = v;
  char *c = clean_copy(line, 0); /* keeps leading blanks: indentation inside a comment block */
  if (!c) return MG_PROFILE_NOMEM;
  p->preamble[p->npreamble++] = c;
  return MG_PROFILE_OK;
}

int mg_prof_file_index(mg_profile *p, const char *name) {
  for (int i = 0; i < p->nfiles; i++)
    if (strcmp(p->files[i], name) == 0) return i;
  char **v = realloc(p->files, (size_t)(p->nfiles + 1) * sizeof *v);
  if (!v) return -1;
  p->files = v;
  if (!(v[p->nfiles] = strdup(name))) return -1;
  return p->nfiles++;
}

/* ---- order ------------------------------------------------------------------------------- */

#define CMP(a, b) ((a) < (b) ? -1 : (a) > (b) ? 1 : 0)

/* The same (collective, np selector): the rules among which the narrowest np selector decides. */
static int same_np(const mg_profile_rule *a, const mg_profile_rule *b) {
  return a->coll == b->coll && a->np_lo == b->np_lo && a->np_hi == b->np_hi;
}

/* The same (collective, np, type, op) selector group: the rules whose size ranges must be disjoint. */
static int same_group(const mg_profile_rule *a, const mg_profile_rule *b) {
  return same_np(a, b) && a->tclass == b->tclass && a->opsel == b->opsel;
}

static int rule_cmp(const void *x, const void *y) {
  const mg_profile_rule *a = x, *b = y;
  int c;
  if ((c = CMP(a->coll, b->coll))) return c;
  if ((c = CMP(a->np_lo, b->np_lo))) return c;
  if ((c = CMP(b->np_hi, a->np_hi))) return c; /* wider selector first */
  if ((c = CMP(a->tclass, b->tclass))) return c; /* without type= first */
  if ((c = CMP(a->opsel, b->opsel))) return c;
  if ((c = CMP(a->lo, b->lo))) return c;
  if ((c = CMP(a->hi, b->hi))) return c;
  if ((c = CMP(a->file, b->file))) return c;
  if ((c = CMP(a->line, b->line))) return c;
  return CMP(a->alg, b->alg);
}

void mg_prof_sort(mg_profile *p) {
  if (p->nrules > 1) qsort(p->rules, (size_t)p->nrules, sizeof *p->rules, rule_cmp);
}

/* Whether `part` is one of the "; "-separated parts of `list` (NULL: no parts). */
static int has_part(const char *list, const char *part) {
  size_t n = strlen(part);
  for (const char *s = list; s && (s = strstr(s, part)) != NULL; s++)
    if ((s == list || (s - list >= 2 && s[-2] == ';' && s[-1] == ' ')) && (s[n] == '\0' || s[n] == ';'))
      return 1;
  return 0;
}

int mg_profile_merge_touching(mg_profile *p) {
  if (!p) return -1;
  mg_prof_unbuild(p);
  mg_prof_sort(p);
  int merges = 0, o = 0;
  for (int i = 0; i < p->nrules; i++) {
    mg_profile_rule *r = &p->rules[i];
    if (o > 0) {
      mg_profile_rule *w = &p->rules[o - 1];
      if (same_group(w, r) && w->alg == r->alg && (w->hi == SIZE_MAX || r->lo <= w->hi + 1)) {
        if (r->hi > w->hi) w->hi = r->hi;
        if (r->comment && !has_part(w->comment, r->comment)) {
          if (!w->comment) {
            w->comment = r->comment;
            r->comment = NULL;
          } else {
            size_t a = strlen(w->comment), b = strlen(r->comment);
            char *c = malloc(a + b + 3);
            if (!c) return -1; /* rules o..i-1 are compacted, i.. untouched: still consistent */
            memcpy(c, w->comment, a);
            memcpy(c + a, "; ", 2);
            memcpy(c + a + 2, r->comment, b + 1);
            free(w->comment);
            w->comment = c;
          }
        }
        free(r->comment);
        r->comment = NULL;
        merges++;
        continue;
      }
    }
    p->rules[o++] = *r;
  }
  p->nrules = o;
  return merges;
}

/* ---- checks ------------------------------------------------------------------------------ */

static const char *file_of(const mg_profile *p, const mg_profile_rule *r) {
  return r->file >= 0 && r->file < p->nfiles ? p->files[r->file] : NULL;
}

/* Where rule r is, seen from rule `from`: "line 5", "other.prf:5", "a rule added by the program". */
static const char *where(const mg_profile *p, const mg_profile_rule *r, const mg_profile_rule *from,
                         char *buf, size_t size) {
  const char *f = file_of(p, r), *ff = file_of(p, from);
  if (r->line <= 0)
    snprintf(buf, size, "a rule added by the program");
  else if (f && (!ff || strcmp(f, ff) != 0))
    snprintf(buf, size, "%s:%d", f, r->line);
  else
    snprintf(buf, size, "line %d", r->line);
  return buf;
}

static const char *alg_name(mg_coll c, int alg) { return alg == 0 ? "default" : mg_colls[c].algs[alg].name; }

void mg_prof_fmt_range(size_t lo, size_t hi, char *buf, size_t size) {
  char a[32], b[32];
  if (lo == 0 && hi == SIZE_MAX) {
    snprintf(buf, size, "*");
    return;
  }
  if (lo == SIZE_MAX) /* "*" is an upper bound only */
    snprintf(a, sizeof a, "%zu", lo);
  else
    mg_profile_fmt_size(lo, a, sizeof a);
  mg_profile_fmt_size(hi, b, sizeof b);
  snprintf(buf, size, "%s-%s", a, b);
}

/* The selectors of a rule as the format writes them, with a leading blank: " type=float op=sum", "". */
void mg_prof_fmt_sel(const mg_profile_rule *r, char *buf, size_t size) {
  snprintf(buf, size, "%s%s%s%s", r->tclass ? " type=" : "", r->tclass ? mg_tclass_name(r->tclass) : "",
           r->opsel ? " op=" : "", r->opsel ? mg_opsel_name(r->opsel) : "");
}

/* Size ranges of each selector group: disjoint, no duplicates. Returns the first status. */
static int check_ranges(const mg_profile *p, mg_profile_diags *d) {
  int first = MG_PROFILE_OK;
  int widest = -1; /* rule of the group with the largest hi so far */
  for (int i = 0; i < p->nrules; i++) {
    const mg_profile_rule *r = &p->rules[i];
    if (i == 0 || !same_group(&p->rules[i - 1], r)) {
      widest = i;
      continue;
    }
    const mg_profile_rule *w = &p->rules[widest];
    if (r->lo <= w->hi) {
      char at[256], rr[80], wr[80], np[48], sel[64];
      int st;
      where(p, w, r, at, sizeof at);
      mg_prof_fmt_range(r->lo, r->hi, rr, sizeof rr);
      mg_prof_fmt_range(w->lo, w->hi, wr, sizeof wr);
      mg_profile_fmt_np(r->np_lo, r->np_hi, np, sizeof np);
      mg_prof_fmt_sel(r, sel, sizeof sel);
      const char *name = mg_colls[r->coll].name;
      if (r->lo == w->lo && r->hi == w->hi && r->alg == w->alg)
        st = mg_prof_diag(d, file_of(p, r), r->line, MG_PROFILE_DUPLICATE,
                          "duplicate rule: %s %s %s%s is already given at %s; delete one of the two", name, np,
                          rr, sel, at);
      else if (r->lo == w->lo && r->hi == w->hi)
        st = mg_prof_diag(d, file_of(p, r), r->line, MG_PROFILE_DUPLICATE,
                          "conflicting rules for %s %s %s%s: %s here, %s at %s; keep one of the two", name, np,
                          rr, sel, alg_name(r->coll, r->alg), alg_name(w->coll, w->alg), at);
      else if (w->hi < SIZE_MAX) {
        char next[32];
        mg_profile_fmt_size(w->hi + 1, next, sizeof next);
        st = mg_prof_diag(d, file_of(p, r), r->line, MG_PROFILE_OVERLAP,
                          "size range %s overlaps %s (%s) of %s %s%s; ranges include both bounds: make them "
                          "disjoint, e.g. start this one at %s",
                          rr, wr, at, name, np, sel, next);
      } else
        st = mg_prof_diag(d, file_of(p, r), r->line, MG_PROFILE_OVERLAP,
                          "size range %s overlaps %s (%s) of %s %s%s; make them disjoint", rr, wr, at, name, np,
                          sel);
      if (first == MG_PROFILE_OK) first = st;
    }
    if (r->hi > w->hi) widest = i;
  }
  return first;
}

/* A (collective, np selector): rules[first .. first+n), all its selector groups. */
typedef struct group {
  int first, n;
  int un;  /* its first `un` rules have no selectors (they sort first) */
  int sel; /* index of its decision table in seltabs[], -1 when un == n */
} group;

static int collect_groups(const mg_profile *p, group **out, int *ngroups) {
  int g = 0;
  group *v = malloc((size_t)(p->nrules ? p->nrules : 1) * sizeof *v);
  if (!v) return MG_PROFILE_NOMEM;
  for (int i = 0; i < p->nrules; i++) {
    if (i == 0 || !same_np(&p->rules[i - 1], &p->rules[i])) v[g++] = (group){i, 0, 0, -1};
    v[g - 1].n++;
    if (!p->rules[i].tclass && !p->rules[i].opsel) v[g - 1].un++;
  }
  *out = v;
  *ngroups = g;
  return MG_PROFILE_OK;
}

/*
 * np selectors of a collective must be disjoint or nested. Groups are sorted
 * by (np_lo, np_hi descending): with a stack of the enclosing selectors, a
 * group that starts inside the top but ends beyond it overlaps it partly.
 */
static int check_nesting(const mg_profile *p, const group *g, int ng, int *stack, mg_profile_diags *d) {
  int first = MG_PROFILE_OK, top = 0;
  for (int i = 0; i < ng; i++) {
    const mg_profile_rule *r = &p->rules[g[i].first];
    if (i > 0 && p->rules[g[i - 1].first].coll != r->coll) top = 0;
    while (top > 0 && p->rules[g[stack[top - 1]].first].np_hi < r->np_lo) top--;
    if (top > 0) {
      const mg_profile_rule *o = &p->rules[g[stack[top - 1]].first];
      if (r->np_hi > o->np_hi) {
        char at[256], a[48], b[48];
        where(p, o, r, at, sizeof at);
        mg_profile_fmt_np(r->np_lo, r->np_hi, a, sizeof a);
        mg_profile_fmt_np(o->np_lo, o->np_hi, b, sizeof b);
        int st = mg_prof_diag(d, file_of(p, r), r->line, MG_PROFILE_NP,
                              "%s of %s partly overlaps %s (%s); the process counts of a collective's rules "
                              "must be disjoint or nested (the narrowest selector decides)",
                              a, mg_colls[r->coll].name, b, at);
        if (first == MG_PROFILE_OK) first = st;
        continue; /* not pushed: the rest is checked against the outer selectors */
      }
    }
    stack[top++] = i;
  }
  return first;
}

/* Flatten one collective's nested selectors into disjoint slices (see top of file). */
static void flatten(mg_profile *p, const group *g, int ng, int *stack) {
  long long pos = 1;
  int top = 0;
#define EMIT(to_hi, gi)                                                                                      \
  do {                                                                                                       \
    if (pos <= (long long)(to_hi)) {                                                                         \
      p->npmap[p->nnpmap++] = (mg_prof_npmap){(int)pos, (int)(to_hi), g[gi].first, g[gi].un, g[gi].sel, {0}};\
      pos = (long long)(to_hi) + 1;                                                                          \
    }                                                                                                        \
  } while (0)
  for (int i = 0; i < ng; i++) {
    const mg_profile_rule *r = &p->rules[g[i].first];
    while (top > 0 && p->rules[g[stack[top - 1]].first].np_hi < r->np_lo) {
      EMIT(p->rules[g[stack[top - 1]].first].np_hi, stack[top - 1]);
      top--;
    }
    if (top > 0) EMIT(r->np_lo - 1, stack[top - 1]);
    pos = r->np_lo;
    stack[top++] = i;
  }
  while (top > 0) {
    EMIT(p->rules[g[stack[top - 1]].first].np_hi, stack[top - 1]);
    top--;
  }
#undef EMIT
}

/* Whether a selector group of n ranges gets an index by size class (below that, a
 * binary search is as short; the index stores positions as uint16_t). */
static int indexed(int n) { return n > MG_PROFILE_INDEX_MIN && n <= UINT16_MAX; }

/* The size-class index of the sorted, disjoint ranges r[0 .. n): idx[k] is the first range that ends
 * at or above the smallest size of class k (profile.h, mg_profile_sizes). */
static void fill_index(uint16_t *idx, const mg_profile_range *r, int n) {
  int i = 0;
  for (unsigned k = 0; k < MG_PROFILE_NCLASS; k++) {
    unsigned long long least = k ? 1ull << k : 0;
    while (i < n && (unsigned long long)r[i].hi < least) i++;
    idx[k] = (uint16_t)i;
  }
  idx[MG_PROFILE_NCLASS] = (uint16_t)n;
}

/* The index of every selector group that gets one, into p->sizeidx; idx_at[i] (for the first rule i
 * of such a group) says where its index is. Returns the status. */
static int build_indexes(mg_profile *p, int *idx_at) {
  int nidx = 0;
  for (int i = 0, j; i < p->nrules; i = j) {
    for (j = i + 1; j < p->nrules && same_group(&p->rules[i], &p->rules[j]); j++) continue;
    if (indexed(j - i)) idx_at[i] = nidx++;
  }
  if (!nidx) return MG_PROFILE_OK;
  p->sizeidx = malloc((size_t)nidx * (MG_PROFILE_NCLASS + 1) * sizeof *p->sizeidx);
  if (!p->sizeidx) return MG_PROFILE_NOMEM;
  for (int i = 0, j; i < p->nrules; i = j) {
    for (j = i + 1; j < p->nrules && same_group(&p->rules[i], &p->rules[j]); j++) continue;
    if (indexed(j - i)) fill_index(p->sizeidx + (size_t)idx_at[i] * (MG_PROFILE_NCLASS + 1), p->ranges + i, j - i);
  }
  return MG_PROFILE_OK;
}

/* The per-call form of the selector group ranges[first .. first+n). */
static mg_profile_sizes sizes_of(const mg_profile *p, int first, int n, const int *idx_at) {
  mg_profile_sizes s = {n ? p->ranges + first : NULL, n, NULL};
  if (indexed(n)) s.idx = p->sizeidx + (size_t)idx_at[first] * (MG_PROFILE_NCLASS + 1);
  return s;
}

/*
 * The decision table of np selector g (which has rules with selectors): for
 * a call of class t and op o (0: none), the most specific selector group that
 * matches and has rules: (t, o), (t, any), (any, o), (any, any).
 */
static void fill_seltab(const mg_profile *p, const group *g, const int *idx_at, mg_profile_seltab *s) {
  int first[MG_NTCLASS][MG_NOPSEL], n[MG_NTCLASS][MG_NOPSEL];
  memset(n, 0, sizeof n);
  memset(s, 0, sizeof *s);
  for (int i = g->first; i < g->first + g->n; i++) {
    const mg_profile_rule *r = &p->rules[i];
    if (!n[r->tclass][r->opsel]++) first[r->tclass][r->opsel] = i;
    s->by_type |= r->tclass != MG_TCLASS_ANY;
    s->by_op |= r->opsel != MG_OPSEL_ANY;
  }
  for (int t = 0; t < MG_NTCLASS; t++)
    for (int o = 0; o < MG_NOPSEL; o++) {
      const int cand[4][2] = {{t, o}, {t, 0}, {0, o}, {0, 0}}; /* most specific first */
      for (int k = 0; k < 4; k++) {
        int ct = cand[k][0], co = cand[k][1];
        if ((k == 0 && (!t || !o)) || (k == 1 && !t) || (k == 2 && !o) || !n[ct][co]) continue;
        s->cell[t][o] = sizes_of(p, first[ct][co], n[ct][co], idx_at);
        break;
      }
    }
}

int mg_prof_has_sel(const mg_profile *p) {
  for (int i = 0; i < p->nrules; i++)
    if (p->rules[i].tclass || p->rules[i].opsel) return 1;
  return 0;
}

/* ---- hash -------------------------------------------------------------------------------- */

/*
 * Lines "collective np_lo np_hi lo hi algorithm\n" in decimal, touching ranges
 * with equal algorithms merged, after "mpiguide-profile 1\n". A profile with
 * selectors: after "mpiguide-profile 2\n", lines "collective np_lo np_hi type
 * op lo hi algorithm\n" with the selectors by name, "any" for none.
 */
static uint64_t hash_rules(const mg_profile *p) {
  char line[320];
  uint64_t h = MG_FNV1A64_INIT;
  int sel = mg_prof_has_sel(p);
  snprintf(line, sizeof line, "%s %d\n", MG_PROFILE_MAGIC, sel ? 2 : 1);
  h = mg_fnv1a64(h, line, strlen(line));
  for (int i = 0; i < p->nrules;) {
    const mg_profile_rule *r = &p->rules[i];
    size_t hi = r->hi;
    int j = i + 1;
    while (j < p->nrules && same_group(r, &p->rules[j]) && p->rules[j].alg == r->alg && hi < SIZE_MAX &&
           p->rules[j].lo == hi + 1)
      hi = p->rules[j++].hi;
    if (sel)
      snprintf(line, sizeof line, "%s %d %d %s %s %zu %zu %s\n", mg_colls[r->coll].name, r->np_lo, r->np_hi,
               mg_tclass_name(r->tclass), mg_opsel_name(r->opsel), r->lo, hi, alg_name(r->coll, r->alg));
    else
      snprintf(line, sizeof line, "%s %d %d %zu %zu %s\n", mg_colls[r->coll].name, r->np_lo, r->np_hi, r->lo,
               hi, alg_name(r->coll, r->alg));
    h = mg_fnv1a64(h, line, strlen(line));
    i = j;
  }
  return h;
}

/* ---- build ------------------------------------------------------------------------------- */

int mg_profile_build(mg_profile *p, mg_profile_diags *d) {
  if (!p) return MG_PROFILE_INVALID;
  mg_prof_unbuild(p);
  mg_prof_sort(p);
  int first = check_ranges(p, d);
  group *g = NULL;
  int *idx_at = NULL; /* where each indexed selector group's index is (build_indexes) */
  int ng = 0, st = collect_groups(p, &g, &ng);
  if (st != MG_PROFILE_OK) return mg_prof_diag(d, NULL, 0, st, "out of memory building the profile index");
  int *stack = malloc((size_t)(ng ? ng : 1) * sizeof *stack);
  if (!stack) {
    free(g);
    return mg_prof_diag(d, NULL, 0, MG_PROFILE_NOMEM, "out of memory building the profile index");
  }
  st = check_nesting(p, g, ng, stack, d);
  if (first == MG_PROFILE_OK) first = st;
  if (first != MG_PROFILE_OK) goto out;

  int ntab = 0;
  for (int i = 0; i < ng; i++)
    if (g[i].un < g[i].n) g[i].sel = ntab++;
  p->ranges = malloc((size_t)(p->nrules ? p->nrules : 1) * sizeof *p->ranges);
  p->npmap = malloc((size_t)(2 * ng + 1) * sizeof *p->npmap); /* each selector adds <= 2 slices */
  p->seltabs = ntab ? malloc((size_t)ntab * sizeof *p->seltabs) : NULL;
  idx_at = malloc((size_t)(p->nrules ? p->nrules : 1) * sizeof *idx_at);
  if (!p->ranges || !p->npmap || (ntab && !p->seltabs) || !idx_at) {
    first = mg_prof_diag(d, NULL, 0, MG_PROFILE_NOMEM, "out of memory building the profile index");
    mg_prof_unbuild(p);
    goto out;
  }
  for (int i = 0; i < p->nrules; i++)
    p->ranges[i] = (mg_profile_range){p->rules[i].lo, p->rules[i].hi, p->rules[i].alg, p->rules[i].line};
  if (build_indexes(p, idx_at) != MG_PROFILE_OK) {
    first = mg_prof_diag(d, NULL, 0, MG_PROFILE_NOMEM, "out of memory building the profile index");
    mg_prof_unbuild(p);
    goto out;
  }
  for (int i = 0; i < ng; i++)
    if (g[i].sel >= 0) fill_seltab(p, &g[i], idx_at, &p->seltabs[g[i].sel]);
  p->nseltabs = ntab;
  for (int c = 0, gi = 0; c < MG_NCOLL; c++) {
    int g0 = gi;
    while (gi < ng && p->rules[g[gi].first].coll == (mg_coll)c) gi++;
    p->npmap_first[c] = p->nnpmap;
    flatten(p, g + g0, gi - g0, stack);
  }
  p->npmap_first[MG_NCOLL] = p->nnpmap;
  for (int i = 0; i < p->nnpmap; i++) p->npmap[i].sizes = sizes_of(p, p->npmap[i].first, p->npmap[i].n, idx_at);
  p->hash = hash_rules(p);
  p->built = 1;
out:
  free(idx_at);
  free(stack);
  free(g);
  return first;
}

/* ---- queries ----------------------------------------------------------------------------- */

int mg_profile_nrules(const mg_profile *p) { return p ? p->nrules : 0; }

const mg_profile_rule *mg_profile_rule_at(const mg_profile *p, int i) {
  return p && i >= 0 && i < p->nrules ? &p->rules[i] : NULL;
}

int mg_profile_npreamble(const mg_profile *p) { return p ? p->npreamble : 0; }

const char *mg_profile_preamble_at(const mg_profile *p, int i) {
  return p && i >= 0 && i < p->npreamble ? p->preamble[i] : NULL;
}

uint64_t mg_profile_hash(const mg_profile *p) { return p && p->built ? p->hash : 0; }

/* The process-count slice of (coll, nprocs), NULL when no np selector contains nprocs. */
static const mg_prof_npmap *npmap_of(const mg_profile *p, mg_coll coll, int nprocs) {
  if (!p || !p->built || (int)coll < 0 || coll >= MG_NCOLL || nprocs < 1) return NULL;
  int lo = p->npmap_first[coll], hi = p->npmap_first[coll + 1] - 1;
  while (lo <= hi) { /* last slice with np_lo <= nprocs */
    int mid = lo + (hi - lo) / 2;
    if (p->npmap[mid].np_lo <= nprocs)
      lo = mid + 1;
    else
      hi = mid - 1;
  }
  if (hi < p->npmap_first[coll] || nprocs > p->npmap[hi].np_hi) return NULL;
  return &p->npmap[hi];
}

int mg_profile_slice(const mg_profile *p, mg_coll coll, int nprocs, const mg_profile_range **ranges) {
  const mg_prof_npmap *m = npmap_of(p, coll, nprocs);
  *ranges = m && m->n ? p->ranges + m->first : NULL;
  return m ? m->n : 0;
}

const mg_profile_sizes *mg_profile_slice_sizes(const mg_profile *p, mg_coll coll, int nprocs) {
  static const mg_profile_sizes none = {NULL, 0, NULL};
  const mg_prof_npmap *m = npmap_of(p, coll, nprocs);
  return m ? &m->sizes : &none;
}

const mg_profile_seltab *mg_profile_slice_sel(const mg_profile *p, mg_coll coll, int nprocs) {
  const mg_prof_npmap *m = npmap_of(p, coll, nprocs);
  return m && m->sel >= 0 ? &p->seltabs[m->sel] : NULL;
}

int mg_profile_lookup_sel(const mg_profile *p, mg_coll coll, int nprocs, size_t bytes, int tclass, int opsel) {
  const mg_prof_npmap *m = npmap_of(p, coll, nprocs);
  if (!m) return 0;
  const mg_profile_sizes *s = m->sel >= 0 ? mg_profile_seltab_pick(&p->seltabs[m->sel], tclass, opsel) : &m->sizes;
  const mg_profile_range *hit = mg_profile_sizes_find(s, bytes);
  return hit ? hit->alg : 0;
}

int mg_profile_lookup(const mg_profile *p, mg_coll coll, int nprocs, size_t bytes) {
  return mg_profile_lookup_sel(p, coll, nprocs, bytes, MG_TCLASS_NONE, MG_OPSEL_NONE);
}

int mg_profile_version(const mg_profile *p) {
  (void)p;
  return MG_PROFILE_FORMAT;
}

int mg_profile_file_version(const mg_profile *p) { return p ? p->file_version : 0; }

/* ---- spellings --------------------------------------------------------------------------- */

void mg_profile_fmt_size(size_t v, char *buf, size_t size) {
  if (v == SIZE_MAX)
    snprintf(buf, size, "*"); /* no upper bound */
  else
    mg_fmt_bytes(v, MG_BYTES_EXACT, buf, size);
}

void mg_profile_fmt_np(int lo, int hi, char *buf, size_t size) {
  if (lo == 1 && hi == INT_MAX)
    snprintf(buf, size, "np=*");
  else if (lo == hi)
    snprintf(buf, size, "np=%d", lo);
  else if (hi == INT_MAX)
    snprintf(buf, size, "np=%d-*", lo);
  else
    snprintf(buf, size, "np=%d-%d", lo, hi);
}
