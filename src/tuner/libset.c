/*
 * The library's own settings from check results (libset.h, docs/libvar.md): the choice per measured
 * size, the ranges, and the two file formats (Open MPI's coll/tuned rules file, MPICH's CVARs).
 */
#include "tuner/libset.h"

#include <ctype.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"
#include "util/parse.h"
#include "util/text.h"
#include "util/sort.h"

/* Open MPI's COLLTYPE order (ompi/mca/coll/base/coll_base_functions.h), X(name in mpiguide, whether
 * coll/tuned's dynamic decision measures a call as count x size(datatype), mpiguide's bytes: checked
 * for allreduce, bcast and reduce in coll_tuned_decision_dynamic.c; the others are not written). */
#define MG_OMPI_COLLTYPES(X)                                                                            \
  X(allgather, 0) X(allgatherv, 0) X(allreduce, 1) X(alltoall, 0) X(alltoallv, 0) X(alltoallw, 0)      \
  X(barrier, 0) X(bcast, 1) X(exscan, 0) X(gather, 0) X(gatherv, 0) X(reduce, 1) X(reduce_scatter, 0)  \
  X(reduce_scatter_block, 0) X(scan, 0) X(scatter, 0) X(scatterv, 0)

int mg_libset_ompi_id(mg_coll coll) {
  static const struct {
    const char *name;
    int sized;
  } t[] = {
#define MG_X(n, s) {#n, s},
      MG_OMPI_COLLTYPES(MG_X)
#undef MG_X
  };
  for (int i = 0; i < (int)(sizeof t / sizeof t[0]); i++)
    if (!strcmp(t[i].name, mg_colls[coll].name)) return t[i].sized ? i : -1;
  return -1;
}

void mg_libset_free(mg_libset *s) {
  free(s->v);
  memset(s, 0, sizeof *s);
}

static int push(mg_libset *s, const mg_libset_rule *ru) {
  if (s->n == s->cap) {
    int nc = s->cap ? 2 * s->cap : 16;
    mg_libset_rule *nv = realloc(s->v, (size_t)nc * sizeof *nv);
    if (!nv) return -1;
    s->v = nv, s->cap = nc;
  }
  s->v[s->n++] = *ru;
  return 0;
}

/* The variant chosen at (coll, bytes): every reduction pair measured there is won by one and the
 * same library variant, at least 1 / (1 - min_gain) faster over its interval; "" otherwise. */
static const mg_ck_verdict *choice_at(const mg_ck_result *r, mg_coll coll, size_t bytes, double min_gain) {
  const mg_ck_verdict *pick = NULL;
  for (int i = 0; i < r->nkinds; i++) {
    const mg_ck_kinds *k = &r->kinds[i];
    if (k->coll != coll || k->bytes != bytes) continue;
    if (k->winner != MG_CK_WIN_LIBVAR || k->lib < 0) return NULL;
    const mg_ck_verdict *v = &r->lib[k->lib];
    if (!(v->lo * (1 - min_gain) >= 1)) return NULL;
    if (pick && strcmp(pick->alg, v->alg)) return NULL; /* the pairs disagree: the file has no datatype selector */
    if (!pick || v->lo < pick->lo) pick = v;
  }
  return pick;
}

int mg_libset_decide(const mg_ck_data *d, const mg_ck_result *r, int nprocs, double min_gain, mg_libset *s,
                     char *err, size_t errlen) {
  if (!r->nkinds || !d->nlaunches) return 0;
  const char *src = mg_ck_meta_get(&d->launches[0].meta, "lib_variants_source");
  const char *vals = mg_ck_meta_get(&d->launches[0].meta, "lib_variant_values");
  const char *params = mg_ck_meta_get(&d->launches[0].meta, "lib_variant_params");
  mg_lv_kind kind = !src ? MG_LV_NONE : !strncmp(src, "openmpi", 7) ? MG_LV_OMPI : !strncmp(src, "mpich", 5) ? MG_LV_MPICH : MG_LV_NONE;
  if (s->n && s->kind != kind)
    return MG_ERR("the library variants of these results come from different MPI libraries (%s, %s): one "
                  "setting file cannot serve both", mg_lv_kind_name(s->kind), mg_lv_kind_name(kind));
  s->kind = kind;
  size_t *sz = malloc((size_t)r->nkinds * sizeof *sz);
  if (!sz) return MG_ERR("out of memory");
  int added = 0;
  for (int c = 0; c < MG_NCOLL; c++) {
    int n = 0;
    for (int i = 0; i < r->nkinds; i++)
      if ((int)r->kinds[i].coll == c && (n == 0 || sz[n - 1] != r->kinds[i].bytes)) sz[n++] = r->kinds[i].bytes;
    qsort(sz, (size_t)n, sizeof *sz, mg_cmp_size);
    for (int i = 0; i < n;) {
      const mg_ck_verdict *v = choice_at(r, (mg_coll)c, sz[i], min_gain);
      if (!v) {
        i++;
        continue;
      }
      mg_libset_rule ru = {.coll = (mg_coll)c, .nprocs = nprocs, .lo = sz[i], .hi = sz[i], .ratio = v->slowdown,
                           .ratio_lo = v->lo};
      snprintf(ru.name, sizeof ru.name, "%s", v->alg + (mg_ck_is_libvar(v->alg) ? 4 : 0));
      ru.value = vals ? mg_lv_value_in(vals, mg_colls[c].name, ru.name) : -1;
      if (params) (void)mg_lv_params_in(params, mg_colls[c].name, &ru.fanout, &ru.segsize);
      int j = i + 1;
      for (const mg_ck_verdict *w; j < n && (w = choice_at(r, (mg_coll)c, sz[j], min_gain)) && !strcmp(w->alg, v->alg); j++) {
        ru.hi = sz[j];
        if (w->slowdown < ru.ratio) ru.ratio = w->slowdown;
        if (w->lo < ru.ratio_lo) ru.ratio_lo = w->lo;
      }
      ru.every_size = i == 0 && j == n;
      if (push(s, &ru)) return free(sz), MG_ERR("out of memory");
      added++;
      i = j;
    }
  }
  free(sz);
  return added;
}

static int cmp_rule(const void *a, const void *b) {
  const mg_libset_rule *x = a, *y = b;
  int ix = mg_libset_ompi_id(x->coll), iy = mg_libset_ompi_id(y->coll);
  if (ix != iy) return ix - iy;
  if (x->nprocs != y->nprocs) return x->nprocs - y->nprocs;
  return (x->lo > y->lo) - (x->lo < y->lo);
}

/* A rule as a comment both files carry, "#@rule coll=allreduce np=4 lo=65536 hi=65536 variant=ring
 * value=4 ratio=1.29 ratio_lo=1.27" (`verify --lib-settings` measures these cells; '#' lines are
 * skipped by coll/tuned's reader, ompi_coll_base_file_getnext_long, and by the shell). */
static void comment_rule(FILE *f, const mg_libset_rule *ru) {
  fprintf(f, MG_LIBSET_RULE_TAG " coll=%s np=%d lo=%zu hi=%zu variant=%s value=%d ratio=%.3f ratio_lo=%.3f\n",
          mg_colls[ru->coll].name, ru->nprocs, ru->lo, ru->hi, ru->name, ru->value, ru->ratio, ru->ratio_lo);
}

/* The fields of a rule line in their order, each key=value; every value checked (sscanf's %d and %zu
 * took 99999999999 and -1 as numbers out of their range). */
int mg_libset_parse_rule(const char *line, mg_libset_rule *ru) {
  static const char *const keys[8] = {"coll=", "np=", "lo=", "hi=", "variant=", "value=", "ratio=", "ratio_lo="};
  memset(ru, 0, sizeof *ru);
  size_t tl = strlen(MG_LIBSET_RULE_TAG);
  char buf[512], *f[9];
  if (strncmp(line, MG_LIBSET_RULE_TAG, tl) || line[tl] != ' ' ||
      snprintf(buf, sizeof buf, "%s", line + tl) >= (int)sizeof buf || mg_split_blanks(buf, f, 9) != 8)
    return -1;
  const char *v[8];
  for (int i = 0; i < 8; i++) {
    size_t kl = strlen(keys[i]);
    if (strncmp(f[i], keys[i], kl)) return -1;
    v[i] = f[i] + kl;
  }
  long np, value;
  unsigned long long lo, hi;
  int c = mg_coll_find(v[0]);
  if (c < 0 || mg_parse_long(v[1], 1, INT_MAX, &np, NULL, 0) ||
      mg_parse_digits(v[2], strlen(v[2]), SIZE_MAX >> 1, &lo) || mg_parse_digits(v[3], strlen(v[3]), SIZE_MAX >> 1, &hi) ||
      lo > hi || !*v[4] || strlen(v[4]) >= sizeof ru->name || mg_parse_long(v[5], 0, INT_MAX, &value, NULL, 0) ||
      mg_parse_double(v[6], 0, &ru->ratio, NULL, 0) || mg_parse_double(v[7], 0, &ru->ratio_lo, NULL, 0)) {
    memset(ru, 0, sizeof *ru);
    return -1;
  }
  ru->coll = (mg_coll)c, ru->nprocs = (int)np, ru->lo = (size_t)lo, ru->hi = (size_t)hi, ru->value = (int)value;
  snprintf(ru->name, sizeof ru->name, "%s", v[4]);
  return 0;
}

void mg_libset_write_ompi(FILE *f, const mg_libset *s, const char *preamble, int *skipped) {
  mg_libset_rule *v = malloc((size_t)(s->n ? s->n : 1) * sizeof *v);
  int n = 0, ncoll = 0;
  *skipped = 0;
  if (!v) return;
  fprintf(f, "# Open MPI coll/tuned dynamic rules (docs/libvar.md), %s\n"
             "# use: mpirun --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_dynamic_rules_filename FILE ...\n"
             "# layout: collectives; per collective: its id, communicator sizes; per size: the size, message\n"
             "# sizes; per message size: bytes algorithm fan-in/out segment-size, those a forced algorithm ran\n"
             "# with when measured (coll_tuned_<coll>_algorithm_chain_fanout, _segmentsize); algorithm 0: the\n"
             "# library's own decision\n",
          preamble);
  for (int i = 0; i < s->n; i++) {
    if (mg_libset_ompi_id(s->v[i].coll) < 0 || s->v[i].value < 0) {
      fprintf(f, "# not written: %s lib:%s (%s)\n", mg_colls[s->v[i].coll].name, s->v[i].name,
              s->v[i].value < 0 ? "its number is not in the data" : "coll/tuned sizes its calls differently");
      ++*skipped;
      continue;
    }
    comment_rule(f, &s->v[i]);
    v[n++] = s->v[i];
  }
  qsort(v, (size_t)n, sizeof *v, cmp_rule);
  for (int i = 0; i < n; i++) ncoll += i == 0 || v[i].coll != v[i - 1].coll;
  fprintf(f, "%d\n", ncoll);
  for (int i = 0; i < n;) {
    int e = i; /* rules of this collective: v[i..e) */
    while (e < n && v[e].coll == v[i].coll) e++;
    int nsz = 0; /* communicator sizes: each np, and np + 1 back to the library's decision unless taken */
    for (int k = i; k < e; k++)
      if (k == i || v[k].nprocs != v[k - 1].nprocs) nsz += 1 + !(k + 1 < e && v[k + 1].nprocs == v[k].nprocs + 1);
    fprintf(f, "%d # %s\n%d\n", mg_libset_ompi_id(v[i].coll), mg_colls[v[i].coll].name, nsz);
    for (int k = i; k < e;) {
      int m = k;
      while (m < e && v[m].nprocs == v[k].nprocs) m++;
      int nmsg = v[k].lo > 0; /* message rules: from 0, each range and the size after it */
      for (int q = k; q < m; q++) nmsg += 1 + !(q + 1 < m && v[q + 1].lo == v[q].hi + 1);
      fprintf(f, "%d # communicator size\n%d\n", v[k].nprocs, nmsg);
      if (v[k].lo > 0) fprintf(f, "0 0 0 0\n");
      for (int q = k; q < m; q++) {
        fprintf(f, "%zu %d %d %d # lib:%s\n", v[q].lo, v[q].value, v[q].fanout, v[q].segsize, v[q].name);
        if (!(q + 1 < m && v[q + 1].lo == v[q].hi + 1)) fprintf(f, "%zu 0 0 0\n", v[q].hi + 1);
      }
      if (!(m < e && v[m].nprocs == v[k].nprocs + 1))
        fprintf(f, "%d # communicator size\n1\n0 0 0 0\n", v[k].nprocs + 1);
      k = m;
    }
    i = e;
  }
  free(v);
}

void mg_libset_write_mpich(FILE *f, const mg_libset *s, const char *preamble, int *skipped) {
  *skipped = 0;
  fprintf(f, "# MPICH control variables (docs/libvar.md), %s\n"
             "# use: env $(grep -v '^#' FILE) mpiexec ...   (or export each line)\n",
          preamble);
  for (int i = 0; i < s->n; i++) {
    const mg_libset_rule *ru = &s->v[i];
    int dup = 0; /* one setting per collective: the first process count's */
    for (int k = 0; k < i; k++) dup |= s->v[k].coll == ru->coll;
    if (!ru->every_size || dup) {
      fprintf(f, "# not written: %s np=%d %zu..%zu bytes lib:%s (a CVAR applies to every size and process count; "
                 "it won only here)\n", mg_colls[ru->coll].name, ru->nprocs, ru->lo, ru->hi, ru->name);
      ++*skipped;
      continue;
    }
    char up[64];
    size_t k;
    for (k = 0; mg_colls[ru->coll].name[k] && k + 1 < sizeof up; k++)
      up[k] = (char)toupper((unsigned char)mg_colls[ru->coll].name[k]);
    up[k] = '\0';
    comment_rule(f, ru);
    fprintf(f, "MPIR_CVAR_%s_INTRA_ALGORITHM=%s\nMPIR_CVAR_%s_DEVICE_COLLECTIVE=0\n", up, ru->name, up);
  }
}
