/*
 * The library's own algorithm variants (libvar_mpit.h, docs/libvar.md): discovery from MPI_T or
 * recorded ompi_info output, the --lib-variants spec, and the switch around one measurement.
 *
 * Facts relied on (read, not copied): Open MPI 4.1 registers coll_tuned_<coll>_algorithm as an
 * enumerated MCA variable, value 0 "ignore" (ompi/mca/coll/tuned/coll_tuned_<coll>_decision.c),
 * copies forced values into a communicator's module at enable time and consults them only with
 * coll_tuned_use_dynamic_rules (coll_tuned_module.c, coll_tuned_component.c); MPICH 4.0 generates
 * MPIR_CVAR_<COLL>_INTRA_ALGORITHM as an int whose values are listed, in enum order, in the
 * description (src/mpi/coll/cvars.txt / mpir_cvars.c), and reads it at each call in
 * MPIR_<Coll>_impl, behind MPIR_CVAR_DEVICE_COLLECTIVES / MPIR_CVAR_<COLL>_DEVICE_COLLECTIVE.
 */
#include "bench/libvar_mpit.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/err.h"

const char *mg_lv_kind_name(mg_lv_kind k) {
  return k == MG_LV_OMPI ? "openmpi" : k == MG_LV_MPICH ? "mpich" : "none";
}

static void lib_clear(mg_lv_lib *lib) {
  memset(lib, 0, sizeof *lib);
  for (int c = 0; c < MG_NCOLL; c++) lib->cvar[c] = lib->dev_cvar[c] = lib->fanout[c] = lib->segsize[c] = -1;
  lib->dynamic_rules = -1;
}

/* Add (name, value) to coll's list unless there or value 0 (the library's own decision). */
static void lib_add(mg_lv_lib *lib, int c, const char *name, size_t len, int value) {
  if (value == 0 || len == 0 || len >= MG_LV_NAME || lib->n[c] >= MG_LV_MAX) return;
  for (int i = 0; i < lib->n[c]; i++)
    if (lib->algs[c][i].value == value) return;
  mg_lv_alg *a = &lib->algs[c][lib->n[c]++];
  memcpy(a->name, name, len);
  a->name[len] = '\0';
  a->value = value;
}

/* The collective of "coll_tuned_<coll>_algorithm" at s (len bytes), or -1. */
static int ompi_var_coll(const char *s, size_t len) {
  static const char pre[] = "coll_tuned_", suf[] = "_algorithm";
  size_t lp = sizeof pre - 1, ls = sizeof suf - 1;
  if (len <= lp + ls || strncmp(s, pre, lp) || strncmp(s + len - ls, suf, ls)) return -1;
  char name[64];
  size_t n = len - lp - ls;
  if (n >= sizeof name) return -1;
  memcpy(name, s + lp, n);
  name[n] = '\0';
  return mg_coll_find(name);
}

int mg_lv_parse_ompi_info(const char *text, mg_lv_lib *lib, char *err, size_t errlen) {
  lib_clear(lib);
  lib->kind = MG_LV_OMPI;
  snprintf(lib->source, sizeof lib->source, "ompi_info");
  int found = 0, human = -1; /* human: the collective whose "Valid values" line comes next */
  for (const char *l = text; l && *l;) {
    const char *e = strchr(l, '\n');
    size_t ll = e ? (size_t)(e - l) : strlen(l);
    static const char pp[] = "mca:coll:tuned:param:";
    if (!strncmp(l, pp, sizeof pp - 1)) { /* parsable */
      const char *v = l + sizeof pp - 1, *colon = memchr(v, ':', ll - (size_t)(v - l));
      static const char en[] = ":enumerator:value:";
      int c = colon ? ompi_var_coll(v, (size_t)(colon - v)) : -1;
      if (c >= 0 && !strncmp(colon, en, sizeof en - 1)) {
        char *end;
        long val = strtol(colon + sizeof en - 1, &end, 10);
        if (*end == ':') {
          const char *nm = end + 1;
          lib_add(lib, c, nm, ll - (size_t)(nm - l), (int)val);
          found = 1;
        }
      }
    } else { /* human: parameter "coll_tuned_<coll>_algorithm" (...), then Valid values: 0:"ignore", ... */
      const char *q = memchr(l, '"', ll);
      const char *vv = NULL;
      for (const char *p = l; p + 13 <= l + ll; p++)
        if (!strncmp(p, "Valid values:", 13)) {
          vv = p + 13;
          break;
        }
      if (vv && human >= 0) {
        for (const char *p = vv; p < l + ll;) {
          char *end;
          while (p < l + ll && !isdigit((unsigned char)*p)) p++;
          if (p >= l + ll) break;
          long val = strtol(p, &end, 10);
          if (end[0] != ':' || end[1] != '"') {
            p = end;
            continue;
          }
          const char *nm = end + 2, *close = memchr(nm, '"', (size_t)(l + ll - nm));
          if (!close) break;
          lib_add(lib, human, nm, (size_t)(close - nm), (int)val);
          found = 1;
          p = close + 1;
        }
        human = -1;
      } else if (q && strstr(l, "parameter \"") && ll > 0) {
        const char *close = memchr(q + 1, '"', ll - (size_t)(q + 1 - l));
        human = close ? ompi_var_coll(q + 1, (size_t)(close - q - 1)) : -1; /* -1: another variable */
      }
    }
    l = e ? e + 1 : NULL;
  }
  if (!found)
    return MG_ERR("no coll_tuned_<collective>_algorithm variable with its values in the ompi_info output "
                  "(run: ompi_info --param coll tuned --level 9 --parsable)");
  return 0;
}

static int ident(char ch) { return islower((unsigned char)ch) || isdigit((unsigned char)ch) || ch == '_'; }

/*
 * MPI_T joins the description's lines without a separator, so a value's name is glued to the end
 * of the previous line ("...nonblocking algorithmsmp      - Force smp algorithm"). The source pads
 * every name but the first ("auto") to one column: name length + spaces before '-' = W, the same
 * for all. The value after "auto"'s line is never glued (that line ends with ')'), so W is the
 * smallest (identifier run + spaces) over the values after the first, and each name is the last
 * W - spaces characters of its run. Where that fails, words that end a line ("algorithm") are
 * taken off the front of the run.
 */
int mg_lv_parse_mpich_desc(const char *desc, mg_lv_alg *out, int max) {
  static const char *const glue[] = {"algorithms", "algorithm", "receives"};
  enum { MAXSEP = 64 };
  const char *run[MAXSEP];
  size_t rlen[MAXSEP], sp[MAXSEP];
  int n = 0;
  for (const char *p = strstr(desc, " - "); p && n < MAXSEP; p = strstr(p + 3, " - ")) {
    const char *e = p + 1; /* the '-' */
    while (e > desc && e[-1] == ' ') e--;
    const char *b = e;
    while (b > desc && ident(b[-1])) b--;
    if (b == e) continue;
    run[n] = b, rlen[n] = (size_t)(e - b), sp[n] = (size_t)(p + 1 - e);
    n++;
  }
  size_t w = (size_t)-1;
  for (int i = 1; i < n; i++)
    if (rlen[i] + sp[i] < w) w = rlen[i] + sp[i];
  int m = 0;
  for (int i = 0; i < n && m < max; i++) {
    const char *b = run[i];
    size_t len = rlen[i];
    if (i > 0 && w > sp[i] && w - sp[i] <= len) {
      b += len - (w - sp[i]);
      len = w - sp[i];
    } else {
      for (size_t g = 0; g < sizeof glue / sizeof glue[0]; g++) {
        size_t lg = strlen(glue[g]);
        if (len > lg && !strncmp(b, glue[g], lg)) {
          b += lg, len -= lg;
          break;
        }
      }
    }
    if (len >= MG_LV_NAME) continue;
    memcpy(out[m].name, b, len);
    out[m].name[len] = '\0';
    out[m].value = m;
    m++;
  }
  return m;
}

/* ---- MPI_T ---- */

static int cvar_index(const char *name) {
  int idx;
#if MPI_VERSION >= 4
  if (MPI_T_cvar_get_index(name, &idx) == MPI_SUCCESS) return idx;
  return -1;
#else
  int n;
  if (MPI_T_cvar_get_num(&n) != MPI_SUCCESS) return -1;
  for (idx = 0; idx < n; idx++) {
    char nm[256];
    int nl = (int)sizeof nm, dl = 0, verb, bind, scope;
    MPI_Datatype dt;
    MPI_T_enum en;
    if (MPI_T_cvar_get_info(idx, nm, &nl, &verb, &dt, &en, NULL, &dl, &bind, &scope) == MPI_SUCCESS &&
        !strcmp(nm, name))
      return idx;
  }
  return -1;
#endif
}

static int cvar_rw(int idx, int *val, int write) {
  MPI_T_cvar_handle h;
  int cnt, rc = MPI_T_cvar_handle_alloc(idx, NULL, &h, &cnt);
  if (rc != MPI_SUCCESS) return rc;
  long long buf[8] = {0}; /* room for any integer type the variable has */
  if (write) memcpy(buf, val, sizeof *val);
  rc = write ? MPI_T_cvar_write(h, buf) : MPI_T_cvar_read(h, buf);
  if (!write) memcpy(val, buf, sizeof *val);
  MPI_T_cvar_handle_free(&h);
  return rc;
}

static void discover_ompi(mg_lv_lib *lib) {
  for (int c = 0; c < MG_NCOLL; c++) {
    if (mg_coll_is_p2p((mg_coll)c)) continue;
    char name[96];
    snprintf(name, sizeof name, "coll_tuned_%s_algorithm", mg_colls[c].name);
    int idx = cvar_index(name);
    if (idx < 0) continue;
    char nm[256], desc[16];
    int nl = (int)sizeof nm, dl = (int)sizeof desc, verb, bind, scope, num;
    MPI_Datatype dt;
    MPI_T_enum en;
    if (MPI_T_cvar_get_info(idx, nm, &nl, &verb, &dt, &en, desc, &dl, &bind, &scope) != MPI_SUCCESS ||
        en == MPI_T_ENUM_NULL || MPI_T_enum_get_info(en, &num, nm, &nl) != MPI_SUCCESS)
      continue;
    lib->cvar[c] = idx;
    static const char *const param[2] = {"chain_fanout", "segmentsize"};
    for (int p = 0; p < 2; p++) {
      snprintf(name, sizeof name, "coll_tuned_%s_algorithm_%s", mg_colls[c].name, param[p]);
      int pi = cvar_index(name), v = -1;
      if (pi >= 0 && cvar_rw(pi, &v, 0) != MPI_SUCCESS) v = -1;
      *(p ? &lib->segsize[c] : &lib->fanout[c]) = v;
    }
    for (int j = 0; j < num; j++) {
      int v, sl = (int)sizeof nm;
      if (MPI_T_enum_get_item(en, j, &v, nm, &sl) == MPI_SUCCESS) lib_add(lib, c, nm, strlen(nm), v);
    }
  }
  int d = cvar_index("coll_tuned_use_dynamic_rules");
  if (d >= 0) {
    int v = 0;
    if (cvar_rw(d, &v, 0) == MPI_SUCCESS) lib->dynamic_rules = v != 0;
  }
}

static void discover_mpich(mg_lv_lib *lib) {
  for (int c = 0; c < MG_NCOLL; c++) {
    if (mg_coll_is_p2p((mg_coll)c)) continue;
    char name[96], up[64];
    size_t i;
    for (i = 0; mg_colls[c].name[i] && i + 1 < sizeof up; i++) up[i] = (char)toupper((unsigned char)mg_colls[c].name[i]);
    up[i] = '\0';
    snprintf(name, sizeof name, "MPIR_CVAR_%s_INTRA_ALGORITHM", up);
    int idx = cvar_index(name);
    if (idx < 0) continue;
    char nm[256], desc[4096];
    int nl = (int)sizeof nm, dl = (int)sizeof desc, verb, bind, scope;
    MPI_Datatype dt;
    MPI_T_enum en;
    if (MPI_T_cvar_get_info(idx, nm, &nl, &verb, &dt, &en, desc, &dl, &bind, &scope) != MPI_SUCCESS) continue;
    mg_lv_alg a[MG_LV_MAX + 1];
    int n = mg_lv_parse_mpich_desc(desc, a, MG_LV_MAX + 1);
    if (n < 2 || strcmp(a[0].name, "auto")) continue; /* not the list we know how to read */
    lib->cvar[c] = idx;
    for (int j = 1; j < n; j++) lib_add(lib, c, a[j].name, strlen(a[j].name), a[j].value);
    snprintf(name, sizeof name, "MPIR_CVAR_%s_DEVICE_COLLECTIVE", up);
    lib->dev_cvar[c] = cvar_index(name);
  }
}

int mg_lv_discover(mg_lv_lib *lib, char *err, size_t errlen) {
  lib_clear(lib);
  int prov, rc = MPI_T_init_thread(MPI_THREAD_SINGLE, &prov);
  if (rc != MPI_SUCCESS) return MG_ERR("MPI_T_init_thread failed (error %d): the library's variants cannot be read", rc);
  snprintf(lib->source, sizeof lib->source, "MPI_T");
  if (cvar_index("coll_tuned_priority") >= 0) {
    lib->kind = MG_LV_OMPI;
    discover_ompi(lib);
  } else if (cvar_index("MPIR_CVAR_DEVICE_COLLECTIVES") >= 0 || cvar_index("MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM") >= 0) {
    lib->kind = MG_LV_MPICH;
    discover_mpich(lib);
  }
  return 0;
}

/* ---- the process's library and labels ---- */

static struct {
  const mg_lv_lib *lib;
  char label[MG_NCOLL][MG_LV_MAX][MG_LV_NAME + sizeof MG_LV_PREFIX];
} lv_proc;

void mg_lv_set_library(const mg_lv_lib *lib) {
  lv_proc.lib = lib;
  for (int c = 0; lib && c < MG_NCOLL; c++)
    for (int k = 0; k < lib->n[c]; k++)
      snprintf(lv_proc.label[c][k], sizeof lv_proc.label[c][k], MG_LV_PREFIX "%s", lib->algs[c][k].name);
}

const mg_lv_lib *mg_lv_library(void) { return lv_proc.lib; }

const char *mg_lv_label(mg_coll coll, int k) {
  if (!lv_proc.lib || k < 0 || k >= lv_proc.lib->n[coll]) return MG_LV_PREFIX "?";
  return lv_proc.label[coll][k];
}

/* ---- the spec ---- */

static void valid_names(const mg_lv_lib *lib, int c, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (int k = 0; k < lib->n[c] && used < len; k++)
    used += (size_t)snprintf(buf + used, len - used, "%s%s", k ? ", " : "", lib->algs[c][k].name);
}

static int find_variant(const mg_lv_lib *lib, int c, const char *name, size_t len) {
  size_t lp = sizeof MG_LV_PREFIX - 1;
  if (len > lp && !strncmp(name, MG_LV_PREFIX, lp)) name += lp, len -= lp;
  for (int k = 0; k < lib->n[c]; k++)
    if (strlen(lib->algs[c][k].name) == len && !strncmp(lib->algs[c][k].name, name, len)) return k;
  return -1;
}

static const char *lib_what(const mg_lv_lib *lib) {
  return lib->kind == MG_LV_OMPI ? "Open MPI's coll/tuned" : lib->kind == MG_LV_MPICH ? "MPICH" : "this MPI library";
}

int mg_lv_select(const mg_lv_lib *lib, const char *spec, const mg_coll *colls, int ncolls, mg_lv_set *set,
                 char *err, size_t errlen) {
  memset(set, 0, sizeof *set);
  set->lib = lib;
  for (int c = 0; c < MG_NCOLL; c++)
    for (int k = 0; k < MG_LV_MAX; k++) set->comm[c][k] = MPI_COMM_NULL;
  char names[1024];
  if (lib->kind == MG_LV_NONE)
    return MG_ERR("--lib-variants: this MPI library exposes no collective algorithm variable through MPI_T "
                  "(known: Open MPI's coll_tuned_<coll>_algorithm, MPICH's MPIR_CVAR_<COLL>_INTRA_ALGORITHM)");
  if (!strcmp(spec, "all")) {
    for (int i = 0; i < ncolls; i++) set->mask[colls[i]] = (1u << lib->n[colls[i]]) - 1;
  } else {
    for (const char *p = spec; *p;) {
      const char *semi = strchr(p, ';'), *end = semi ? semi : p + strlen(p), *eq = memchr(p, '=', (size_t)(end - p));
      if (!eq) return MG_ERR("--lib-variants '%s': '%.*s' is not COLLECTIVE=NAME,... (or 'all')", spec, (int)(end - p), p);
      char cn[64];
      snprintf(cn, sizeof cn, "%.*s", (int)(eq - p), p);
      int c = mg_coll_find(cn), in = 0;
      if (c < 0) return MG_ERR("--lib-variants '%s': unknown collective '%s'", spec, cn);
      for (int i = 0; i < ncolls; i++) in |= (int)colls[i] == c;
      if (!in) return MG_ERR("--lib-variants '%s': %s is not among the collectives measured", spec, cn);
      if (lib->n[c] == 0)
        return MG_ERR("--lib-variants '%s': %s offers no variant of %s", spec, lib_what(lib), cn);
      for (const char *v = eq + 1; v < end;) {
        const char *comma = memchr(v, ',', (size_t)(end - v)), *ve = comma ? comma : end;
        if ((size_t)(ve - v) == 3 && !strncmp(v, "all", 3)) {
          set->mask[c] = (1u << lib->n[c]) - 1;
        } else {
          int k = find_variant(lib, c, v, (size_t)(ve - v));
          if (k < 0) {
            valid_names(lib, c, names, sizeof names);
            return MG_ERR("--lib-variants: %s has no variant '%.*s' in %s (%s); valid: %s, or all", cn,
                          (int)(ve - v), v, lib_what(lib), lib->source, names);
          }
          set->mask[c] |= 1u << k;
        }
        v = comma ? comma + 1 : end;
      }
      p = semi ? semi + 1 : end;
    }
  }
  int any = 0;
  for (int c = 0; c < MG_NCOLL; c++) any |= set->mask[c] != 0;
  if (!any) return MG_ERR("--lib-variants '%s': %s offers no variant of the collectives measured", spec, lib_what(lib));
  if (lib->kind == MG_LV_OMPI && lib->dynamic_rules == 0)
    return MG_ERR("--lib-variants: Open MPI's coll/tuned ignores forced algorithms unless "
                  "coll_tuned_use_dynamic_rules=1 at MPI_Init (mpiguide sets OMPI_MCA_coll_tuned_use_dynamic_rules=1 "
                  "unless the environment says otherwise: remove the setting that turns it off)");
  return 0;
}

/* The chosen variants per collective: "coll=a,b;..." or, with values, "coll:a=1,b=2;...". */
static void describe(const mg_lv_set *set, char *buf, size_t len, int values) {
  size_t used = 0;
  buf[0] = '\0';
  for (int c = 0; c < MG_NCOLL && used < len; c++) {
    if (!set->mask[c]) continue;
    used += (size_t)snprintf(buf + used, len - used, "%s%s%c", used ? ";" : "", mg_colls[c].name, values ? ':' : '=');
    int first = 1;
    for (int k = 0; k < set->lib->n[c] && used < len; k++)
      if (set->mask[c] & (1u << k)) {
        used += (size_t)snprintf(buf + used, len - used, "%s%s", first ? "" : ",", set->lib->algs[c][k].name);
        if (values && used < len) used += (size_t)snprintf(buf + used, len - used, "=%d", set->lib->algs[c][k].value);
        first = 0;
      }
  }
}

void mg_lv_describe(const mg_lv_set *set, char *buf, size_t len) { describe(set, buf, len, 0); }
void mg_lv_describe_values(const mg_lv_set *set, char *buf, size_t len) { describe(set, buf, len, 1); }

void mg_lv_describe_params(const mg_lv_set *set, char *buf, size_t len) {
  size_t used = 0;
  buf[0] = '\0';
  for (int c = 0; c < MG_NCOLL && used < len; c++)
    if (set->mask[c] && set->lib->fanout[c] >= 0 && set->lib->segsize[c] >= 0)
      used += (size_t)snprintf(buf + used, len - used, "%s%s:%d,%d", used ? ";" : "", mg_colls[c].name,
                               set->lib->fanout[c], set->lib->segsize[c]);
}

int mg_lv_params_in(const char *text, const char *coll, int *fanout, int *segsize) {
  size_t lc = strlen(coll);
  *fanout = *segsize = 0;
  for (const char *p = text; p && *p; p = strchr(p, ';'), p = p ? p + 1 : NULL)
    if (!strncmp(p, coll, lc) && p[lc] == ':' && sscanf(p + lc + 1, "%d,%d", fanout, segsize) == 2) return 0;
  *fanout = *segsize = 0;
  return -1;
}

int mg_lv_value_in(const char *text, const char *coll, const char *name) {
  size_t lp = sizeof MG_LV_PREFIX - 1, lc = strlen(coll), ln;
  if (!strncmp(name, MG_LV_PREFIX, lp)) name += lp;
  ln = strlen(name);
  for (const char *p = text; p && *p; p = strchr(p, ';'), p = p ? p + 1 : NULL) {
    if (strncmp(p, coll, lc) || p[lc] != ':') continue;
    const char *end = strchr(p, ';');
    for (const char *q = p + lc + 1; q && (!end || q < end);) {
      if (!strncmp(q, name, ln) && q[ln] == '=') return atoi(q + ln + 1);
      q = strchr(q, ',');
      if (q) q++;
    }
  }
  return -1;
}

/* ---- switching ---- */

int mg_lv_open(mg_lv_set *set, MPI_Comm comm) {
  const mg_lv_lib *lib = set->lib;
  int rc = MPI_SUCCESS;
  for (int c = 0; c < MG_NCOLL; c++) {
    set->orig[c] = set->orig_dev[c] = 0;
    if (!set->mask[c]) continue;
    if (lib->kind == MG_LV_MPICH) {
      if ((rc = cvar_rw(lib->cvar[c], &set->orig[c], 0)) != MPI_SUCCESS) return rc;
      if (lib->dev_cvar[c] >= 0 && (rc = cvar_rw(lib->dev_cvar[c], &set->orig_dev[c], 0)) != MPI_SUCCESS) return rc;
      continue;
    }
    /* Open MPI: the value is copied into the module of a communicator made while it is set */
    int zero = 0;
    for (int k = 0; k < lib->n[c] && rc == MPI_SUCCESS; k++) {
      if (!(set->mask[c] & (1u << k))) continue;
      int v = lib->algs[c][k].value;
      if ((rc = cvar_rw(lib->cvar[c], &v, 1)) != MPI_SUCCESS) break;
      rc = PMPI_Comm_dup(comm, &set->comm[c][k]);
    }
    int rc2 = cvar_rw(lib->cvar[c], &zero, 1);
    if (rc == MPI_SUCCESS) rc = rc2;
    if (rc != MPI_SUCCESS) return rc;
  }
  return MPI_SUCCESS;
}

void mg_lv_close(mg_lv_set *set) {
  for (int c = 0; c < MG_NCOLL; c++)
    for (int k = 0; k < MG_LV_MAX; k++)
      if (set->comm[c][k] != MPI_COMM_NULL) PMPI_Comm_free(&set->comm[c][k]);
}

int mg_lv_begin(mg_lv_set *set, mg_call *c, int k) {
  const mg_lv_lib *lib = set->lib;
  if (lib->kind == MG_LV_OMPI) {
    c->comm = set->comm[c->coll][k];
    return MPI_SUCCESS;
  }
  int v = lib->algs[c->coll][k].value, off = 0, rc = cvar_rw(lib->cvar[c->coll], &v, 1);
  if (rc == MPI_SUCCESS && lib->dev_cvar[c->coll] >= 0) rc = cvar_rw(lib->dev_cvar[c->coll], &off, 1);
  return rc;
}

int mg_lv_end(mg_lv_set *set, mg_call *c, MPI_Comm comm) {
  const mg_lv_lib *lib = set->lib;
  c->comm = comm;
  if (lib->kind == MG_LV_OMPI) return MPI_SUCCESS;
  int rc = cvar_rw(lib->cvar[c->coll], &set->orig[c->coll], 1);
  if (rc == MPI_SUCCESS && lib->dev_cvar[c->coll] >= 0) rc = cvar_rw(lib->dev_cvar[c->coll], &set->orig_dev[c->coll], 1);
  return rc;
}
