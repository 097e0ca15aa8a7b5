/*
 * Name tables of the engine: synchronisation methods, the predefined
 * datatypes and reduction ops `mpiguide bench` accepts, and which op is
 * defined for which datatype (MPI standard, "Predefined Reduction Operations":
 * MAX/MIN/SUM/PROD on the integers and floating point, SUM/PROD on complex,
 * logical ops on C integer and logical, bitwise ops on the integers and
 * MPI_BYTE; MPI_CHAR takes no op).
 *
 * The Fortran types are there so that a check can measure what a Fortran program reduces (check
 * --sizes-from takes a trace's fint, logical and complex reductions: CP2K's MPI_INTEGER sums). Both
 * MPIs reduce them from C when they were built with Fortran; their sizes are gfortran's default
 * kinds, and mg_dtype_build refuses a library whose size differs (MPI_ERR_TYPE) rather than
 * measure other counts than it says. A build without Fortran leaves the handles MPI_DATATYPE_NULL:
 * the same refusal.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "bench/bench.h"
#include "util/err.h"

static const struct {
  const char *name, *desc;
} sync_names[MG_NSYNC] = {
#define MG_X(E, n, d) [MG_SYNC_##E] = {n, d},
    MG_SYNC_METHODS(MG_X)
#undef MG_X
};

const char *mg_sync_name(mg_sync_method m) { return m < MG_NSYNC ? sync_names[m].name : "?"; }
const char *mg_sync_desc(mg_sync_method m) { return m < MG_NSYNC ? sync_names[m].desc : "?"; }

int mg_sync_find(const char *name) {
  for (int i = 0; i < MG_NSYNC; i++)
    if (!strcasecmp(name, sync_names[i].name)) return i;
  return -1;
}

#define I MG_DT_INT
static const mg_dtype_info dtypes[] = {
    {.name = "MPI_BYTE", .type = MPI_BYTE, .size = 1, .category = MG_DT_BYTE},
    {.name = "MPI_CHAR", .type = MPI_CHAR, .size = (int)sizeof(char), .category = MG_DT_CHAR},
    {.name = "MPI_SIGNED_CHAR", .type = MPI_SIGNED_CHAR, .size = (int)sizeof(signed char), .category = I},
    {.name = "MPI_UNSIGNED_CHAR", .type = MPI_UNSIGNED_CHAR, .size = (int)sizeof(unsigned char), .category = I},
    {.name = "MPI_SHORT", .type = MPI_SHORT, .size = (int)sizeof(short), .category = I},
    {.name = "MPI_INT", .type = MPI_INT, .size = (int)sizeof(int), .category = I},
    {.name = "MPI_UNSIGNED", .type = MPI_UNSIGNED, .size = (int)sizeof(unsigned), .category = I},
    {.name = "MPI_LONG", .type = MPI_LONG, .size = (int)sizeof(long), .category = I},
    {.name = "MPI_LONG_LONG", .type = MPI_LONG_LONG, .size = (int)sizeof(long long), .category = I},
    {.name = "MPI_INT8_T", .type = MPI_INT8_T, .size = 1, .category = I},
    {.name = "MPI_INT16_T", .type = MPI_INT16_T, .size = 2, .category = I},
    {.name = "MPI_INT32_T", .type = MPI_INT32_T, .size = 4, .category = I},
    {.name = "MPI_INT64_T", .type = MPI_INT64_T, .size = 8, .category = I},
    {.name = "MPI_UINT8_T", .type = MPI_UINT8_T, .size = 1, .category = I},
    {.name = "MPI_UINT16_T", .type = MPI_UINT16_T, .size = 2, .category = I},
    {.name = "MPI_UINT32_T", .type = MPI_UINT32_T, .size = 4, .category = I},
    {.name = "MPI_UINT64_T", .type = MPI_UINT64_T, .size = 8, .category = I},
    {.name = "MPI_FLOAT", .type = MPI_FLOAT, .size = (int)sizeof(float), .category = MG_DT_FLOAT},
    {.name = "MPI_DOUBLE", .type = MPI_DOUBLE, .size = (int)sizeof(double), .category = MG_DT_FLOAT},
    {.name = "MPI_C_DOUBLE_COMPLEX", .type = MPI_C_DOUBLE_COMPLEX, .size = 2 * (int)sizeof(double),
     .category = MG_DT_COMPLEX},
    /* Fortran (sizes checked by mg_dtype_build) */
    {.name = "MPI_INTEGER", .type = MPI_INTEGER, .size = 4, .category = MG_DT_FINT, .fortran = 1},
    {.name = "MPI_INTEGER8", .type = MPI_INTEGER8, .size = 8, .category = MG_DT_FINT, .fortran = 1},
    {.name = "MPI_LOGICAL", .type = MPI_LOGICAL, .size = 4, .category = MG_DT_LOGICAL, .fortran = 1},
    {.name = "MPI_REAL", .type = MPI_REAL, .size = 4, .category = MG_DT_FLOAT, .fortran = 1},
    {.name = "MPI_DOUBLE_PRECISION", .type = MPI_DOUBLE_PRECISION, .size = 8, .category = MG_DT_FLOAT, .fortran = 1},
    {.name = "MPI_COMPLEX", .type = MPI_COMPLEX, .size = 8, .category = MG_DT_COMPLEX, .fortran = 1},
    {.name = "MPI_DOUBLE_COMPLEX", .type = MPI_DOUBLE_COMPLEX, .size = 16, .category = MG_DT_COMPLEX, .fortran = 1},
};

#define ARITH (I | MG_DT_FINT | MG_DT_FLOAT)
#define LOGIC (I | MG_DT_LOGICAL)
#define BITS (I | MG_DT_FINT | MG_DT_BYTE)
static const mg_op_info ops[] = {
    {"MPI_MAX", MPI_MAX, ARITH},   {"MPI_MIN", MPI_MIN, ARITH},
    {"MPI_SUM", MPI_SUM, ARITH | MG_DT_COMPLEX},   {"MPI_PROD", MPI_PROD, ARITH | MG_DT_COMPLEX},
    {"MPI_LAND", MPI_LAND, LOGIC},               {"MPI_LOR", MPI_LOR, LOGIC},
    {"MPI_LXOR", MPI_LXOR, LOGIC},               {"MPI_BAND", MPI_BAND, BITS},
    {"MPI_BOR", MPI_BOR, BITS},    {"MPI_BXOR", MPI_BXOR, BITS},
};
#undef I
#undef ARITH
#undef LOGIC
#undef BITS

#define N(a) (sizeof(a) / sizeof((a)[0]))

static int same_name(const char *canon, const char *given) {
  if (!strcasecmp(canon, given)) return 1;
  return !strncasecmp(given, "MPI_", 4) ? 0 : !strcasecmp(canon + 4, given);
}

const mg_dtype_info *mg_dtype_find(const char *name) {
  for (size_t i = 0; i < N(dtypes); i++)
    if (same_name(dtypes[i].name, name)) return &dtypes[i];
  return NULL;
}

const mg_op_info *mg_op_find(const char *name) {
  for (size_t i = 0; i < N(ops); i++)
    if (same_name(ops[i].name, name)) return &ops[i];
  return NULL;
}

const char *mg_dtype_list(void) {
  static char buf[512];
  if (!buf[0])
    for (size_t i = 0, used = 0; i < N(dtypes); i++)
      used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? " " : "", dtypes[i].name);
  return buf;
}

const char *mg_op_list(void) {
  static char buf[256];
  if (!buf[0])
    for (size_t i = 0, used = 0; i < N(ops); i++)
      used += (size_t)snprintf(buf + used, sizeof buf - used, "%s%s", i ? " " : "", ops[i].name);
  return buf;
}

/* ---- derived datatypes by spec (mg_dtype_parse) ---- */

/* The derived types of this process, by canonical spec: a spec parsed twice is one entry, so
 * pointers compare equal (--reductions finds duplicates that way). */
#define MG_DT_POOL 32
static struct {
  mg_dtype_info info;
  char name[160];
} pool[MG_DT_POOL];
static int npool;

#define MG_DT_LIMIT (1 << 20) /* BLOCKLEN, STRIDE, EXTENT: at most this, so extents fit an int */

/* A whole number in [lo, MG_DT_LIMIT] in s; else a message naming `what`. */
static int spec_int(const char *spec, const char *s, const char *what, long lo, long *v, char *err, size_t errlen) {
  char *end;
  long x = strtol(s, &end, 10);
  if (!*s || *end || x < lo || x > MG_DT_LIMIT)
    return MG_ERR("datatype '%s': %s '%s' is not a whole number from %ld to %d", spec, what, s, lo, MG_DT_LIMIT);
  *v = x;
  return 0;
}

/* A predefined base type by name into *out; else a message. */
static int spec_base(const char *spec, const char *s, const mg_dtype_info **out, char *err, size_t errlen) {
  if (!(*out = mg_dtype_find(s)))
    return MG_ERR("datatype '%s': '%s' is not a predefined datatype; valid: %s", spec, s, mg_dtype_list());
  return 0;
}

/* vector:BLOCKLEN:STRIDE:BASE (args: after the first colon) into d and its canonical name. */
static int spec_vector(const char *spec, char *args, mg_dtype_info *d, char *name, size_t namelen, char *err,
                       size_t errlen) {
  char *f[3] = {args, NULL, NULL};
  long bl, st;
  for (int i = 1; i < 3 && f[i - 1]; i++)
    if ((f[i] = strchr(f[i - 1], ':'))) *f[i]++ = '\0';
  if (!f[2] || strchr(f[2], ':'))
    return MG_ERR("datatype '%s': write vector:BLOCKLEN:STRIDE:BASE (e.g. vector:2:4:double)", spec);
  if (spec_int(spec, f[0], "BLOCKLEN", 1, &bl, err, errlen) || spec_int(spec, f[1], "STRIDE", 1, &st, err, errlen) ||
      spec_base(spec, f[2], &d->base, err, errlen))
    return -1;
  if (st < bl) return MG_ERR("datatype '%s': STRIDE %ld is less than BLOCKLEN %ld (the blocks would overlap)", spec, st, bl);
  if (st * d->base->size > MG_DT_LIMIT)
    return MG_ERR("datatype '%s': an extent of %ld bytes is more than %d", spec, st * d->base->size, MG_DT_LIMIT);
  d->kind = MG_DK_VECTOR, d->blocklen = (int)bl, d->stride = (int)st;
  d->size = (int)bl * d->base->size, d->extent = (int)st * d->base->size, d->category = d->base->category;
  snprintf(name, namelen, "vector:%ld:%ld:%s", bl, st, d->base->name);
  return 0;
}

/* resized:EXTENT:BASE into d and its canonical name. */
static int spec_resized(const char *spec, char *args, mg_dtype_info *d, char *name, size_t namelen, char *err,
                        size_t errlen) {
  char *b = strchr(args, ':');
  long ext;
  if (!b || strchr(b + 1, ':')) return MG_ERR("datatype '%s': write resized:EXTENT:BASE (e.g. resized:16:int)", spec);
  *b++ = '\0';
  if (spec_int(spec, args, "EXTENT", 1, &ext, err, errlen) || spec_base(spec, b, &d->base, err, errlen)) return -1;
  if (ext < d->base->size || ext % d->base->size)
    return MG_ERR("datatype '%s': EXTENT %ld must be a multiple of the %d bytes of %s (at least one)", spec, ext,
                  d->base->size, d->base->name);
  d->kind = MG_DK_RESIZED, d->size = d->base->size, d->extent = (int)ext, d->category = d->base->category;
  snprintf(name, namelen, "resized:%ld:%s", ext, d->base->name);
  return 0;
}

/* struct:T1,T2,... into d and its canonical name. */
static int spec_struct(const char *spec, char *args, mg_dtype_info *d, char *name, size_t namelen, char *err,
                       size_t errlen) {
  int at = 0, align = 1, used = snprintf(name, namelen, "struct:");
  for (char *save = NULL, *it = strtok_r(args, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
    const mg_dtype_info *m;
    if (spec_base(spec, it, &m, err, errlen)) return -1;
    if (d->nmemb == MG_DT_MAX_MEMBERS) return MG_ERR("datatype '%s': more than %d members", spec, MG_DT_MAX_MEMBERS);
    at = (at + m->size - 1) / m->size * m->size; /* natural alignment: the size of a predefined C type */
    if (m->size > align) align = m->size;
    d->memb[d->nmemb] = m, d->disp[d->nmemb++] = at;
    at += m->size, d->size += m->size;
    used += snprintf(name + used, namelen - (size_t)used, "%s%s", d->nmemb > 1 ? "," : "", m->name);
  }
  if (d->nmemb == 0 || spec[strlen(spec) - 1] == ',' || strstr(spec, ",,") || strstr(spec, ":,"))
    return MG_ERR("datatype '%s': write struct:T1,T2,... with predefined types (e.g. struct:char,double,int)", spec);
  d->kind = MG_DK_STRUCT, d->extent = (at + align - 1) / align * align;
  d->base = d->memb[0];
  for (int i = 1; i < d->nmemb; i++)
    if (d->memb[i] != d->memb[0]) d->base = NULL;
  d->category = d->base ? d->base->category : 0;
  return 0;
}

/* A derived type's spec into d and its canonical name (name: 160 bytes). */
static int spec_derived(const char *spec, mg_dtype_info *d, char *name, size_t namelen, char *err, size_t errlen) {
  char buf[160];
  if (snprintf(buf, sizeof buf, "%s", spec) >= (int)sizeof buf) return MG_ERR("datatype '%.40s...': too long", spec);
  char *colon = strchr(buf, ':');
  if (colon) *colon = '\0';
  char *args = colon ? colon + 1 : NULL;
  if (!strcmp(buf, "vector") && args) return spec_vector(spec, args, d, name, namelen, err, errlen);
  if (!strcmp(buf, "resized") && args) return spec_resized(spec, args, d, name, namelen, err, errlen);
  if (!strcmp(buf, "struct") && args) return spec_struct(spec, args, d, name, namelen, err, errlen);
  return MG_ERR("unknown datatype '%s'; valid: %s, or a derived one: %s", spec, mg_dtype_list(), MG_DTYPE_SPECS);
}

const mg_dtype_info *mg_dtype_parse(const char *spec, char *err, size_t errlen) {
  const mg_dtype_info *pre = mg_dtype_find(spec);
  if (pre) return pre;
  mg_dtype_info d;
  memset(&d, 0, sizeof d);
  d.type = MPI_DATATYPE_NULL;
  char name[160];
  if (spec_derived(spec, &d, name, sizeof name, err, errlen)) return NULL;
  for (int i = 0; i < npool; i++)
    if (!strcmp(pool[i].name, name)) return &pool[i].info;
  if (npool == MG_DT_POOL) {
    (void)MG_ERR("datatype '%s': more than %d derived datatypes in one run", spec, MG_DT_POOL);
    return NULL;
  }
  snprintf(pool[npool].name, sizeof pool[npool].name, "%s", name);
  pool[npool].info = d;
  pool[npool].info.name = pool[npool].name;
  return &pool[npool++].info;
}

int mg_dtype_build(const mg_dtype_info *d, MPI_Datatype *out) {
  MPI_Datatype inner = MPI_DATATYPE_NULL;
  int rc;
  switch (d->kind) {
  case MG_DK_PREDEFINED: {
    int sz = 0; /* a Fortran type of another kind than the table's (or none in this build): refused */
    if (d->fortran && (d->type == MPI_DATATYPE_NULL || PMPI_Type_size(d->type, &sz) != MPI_SUCCESS || sz != d->size))
      return MPI_ERR_TYPE;
    *out = d->type;
    return MPI_SUCCESS;
  }
  case MG_DK_VECTOR: rc = PMPI_Type_contiguous(d->blocklen, d->base->type, &inner); break;
  case MG_DK_RESIZED: rc = PMPI_Type_dup(d->base->type, &inner); break;
  default: {
    MPI_Aint disp[MG_DT_MAX_MEMBERS];
    int len[MG_DT_MAX_MEMBERS];
    MPI_Datatype types[MG_DT_MAX_MEMBERS];
    for (int i = 0; i < d->nmemb; i++) disp[i] = d->disp[i], len[i] = 1, types[i] = d->memb[i]->type;
    rc = PMPI_Type_create_struct(d->nmemb, len, disp, types, &inner);
    break;
  }
  }
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Type_create_resized(inner, 0, (MPI_Aint)d->extent, out);
  PMPI_Type_free(&inner);
  if (rc == MPI_SUCCESS && (rc = PMPI_Type_commit(out)) != MPI_SUCCESS) PMPI_Type_free(out);
  return rc;
}

void mg_dtype_free(const mg_dtype_info *d, MPI_Datatype *t) {
  if (d->kind != MG_DK_PREDEFINED && *t != MPI_DATATYPE_NULL) PMPI_Type_free(t);
  *t = MPI_DATATYPE_NULL;
}
