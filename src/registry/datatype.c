/*
 * Datatype layout queries (datatype.h), through PMPI only: they run inside
 * libmpiguide's call path. And the datatype classes and op selectors of
 * profile rules: handle comparisons, no MPI call.
 */
#include "registry/datatype.h"

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <strings.h>

int mg_type_get(MPI_Datatype dt, mg_type *t) {
  int rc = PMPI_Type_get_extent(dt, &t->lb, &t->extent);
  if (rc == MPI_SUCCESS) rc = PMPI_Type_get_true_extent(dt, &t->true_lb, &t->true_extent);
  if (rc == MPI_SUCCESS) rc = PMPI_Type_size(dt, &t->size);
  return rc;
}

size_t mg_type_span(const mg_type *t, size_t count) {
  if (count == 0) return 0;
  return (size_t)((MPI_Aint)(count - 1) * t->extent + t->true_extent);
}

int mg_type_is_dense(const mg_type *t) {
  return t->lb == 0 && t->true_lb == 0 && t->extent == t->size && t->true_extent == t->size;
}

/* ---- datatype classes and op selectors (datatype.h) ---------------------------------------- */

static const struct {
  const char *name, *repr, *repr_op, *desc;
} tclasses[MG_NTCLASS] = {
    [MG_TCLASS_ANY] = {"any", NULL, NULL, ""},
#define MG_X(E, n, r, o, d) [MG_TCLASS_##E] = {n, r, o, d},
    MG_TCLASSES(MG_X)
#undef MG_X
};

/* Handles of predefined datatypes are constants (MPICH) or addresses of
 * globals (Open MPI): both are valid static initialisers. Most used first. */
static const struct {
  MPI_Datatype dt;
  int tclass;
  const char *name;
} tclass_types[] = {
#define MG_X(h, c) {h, MG_TCLASS_##c, #h},
    MG_TCLASS_TYPES(MG_X)
#undef MG_X
};
#define NTYPES ((int)(sizeof tclass_types / sizeof tclass_types[0]))

static const struct {
  const char *name;
  MPI_Op op;
  unsigned classes; /* MG_TCLASS_BIT_* */
} opsels[MG_NOPSEL] = {
    [MG_OPSEL_ANY] = {"any", MPI_OP_NULL, 0},
#define MG_X(E, n, h, c) [MG_OPSEL_##E] = {n, h, c},
    MG_OPSELS(MG_X)
#undef MG_X
};

const char *mg_tclass_name(int c) { return c >= 0 && c < MG_NTCLASS ? tclasses[c].name : "none"; }
const char *mg_tclass_desc(int c) { return c > 0 && c < MG_NTCLASS ? tclasses[c].desc : ""; }
const char *mg_tclass_repr(int c) { return c > 0 && c < MG_NTCLASS ? tclasses[c].repr : NULL; }
const char *mg_tclass_repr_op(int c) { return c > 0 && c < MG_NTCLASS ? tclasses[c].repr_op : NULL; }
const char *mg_opsel_name(int o) { return o >= 0 && o < MG_NOPSEL ? opsels[o].name : "none"; }

int mg_tclass_find(const char *name) {
  for (int c = 1; name && c < MG_NTCLASS; c++)
    if (strcasecmp(name, tclasses[c].name) == 0) return c;
  return -1;
}

/* "MPI_SUM" matches "sum", "SUM", "MPI_SUM", "mpi_sum". */
static int mpi_name_eq(const char *given, const char *bare) {
  if (strncasecmp(given, "MPI_", 4) == 0) given += 4;
  return strcasecmp(given, bare) == 0;
}

int mg_opsel_find(const char *name) {
  for (int o = 1; name && o < MG_NOPSEL; o++)
    if (mpi_name_eq(name, opsels[o].name)) return o;
  return -1;
}

int mg_tclass_of_typename(const char *name) {
  for (int i = 0; name && i < NTYPES; i++)
    if (mpi_name_eq(name, tclass_types[i].name + 4)) return tclass_types[i].tclass;
  return -1;
}

int mg_tclass_of(MPI_Datatype dt) {
  if (dt == MPI_DATATYPE_NULL) return MG_TCLASS_NONE; /* also an unsupported type's handle in the table */
  for (int i = 0; i < NTYPES; i++)
    if (dt == tclass_types[i].dt) return tclass_types[i].tclass;
  return MG_TCLASS_NONE;
}

int mg_opsel_of(MPI_Op op) {
  if (op == MPI_OP_NULL) return MG_OPSEL_NONE;
  for (int o = 1; o < MG_NOPSEL; o++)
    if (op == opsels[o].op) return o;
  return MG_OPSEL_NONE;
}

int mg_sel_defined(int tclass, int opsel) {
  if (tclass < 0 || tclass >= MG_NTCLASS || opsel < 0 || opsel >= MG_NOPSEL) return 0;
  if (tclass == MG_TCLASS_ANY || opsel == MG_OPSEL_ANY) return 1;
  return (opsels[opsel].classes >> tclass) & 1;
}

/* ---- the (op, datatype) pairs MPI defines (datatype.h, mg_op_defined) ---------------------- */

/*
 * The MPI standard's groups of predefined datatypes for the predefined reduction ops (MPI-4.0
 * §6.9.2, "Predefined Reduction Operations"), and which groups each op is defined on. A pair
 * outside them is an erroneous call that both MPI libraries refuse before they communicate
 * (docs/library.md, "Errors pass through"). Fortran types whose support is optional and varies
 * between builds (MPI_INTEGER16, MPI_REAL2, MPI_REAL16, MPI_COMPLEX32) are left out: a call with
 * them runs the default, which is right whatever the library supports.
 */
enum {
  G_CINT = 1u << 0,    /* C integer */
  G_FINT = 1u << 1,    /* Fortran integer */
  G_FLOAT = 1u << 2,   /* floating point */
  G_LOGICAL = 1u << 3, /* logical */
  G_COMPLEX = 1u << 4, /* complex */
  G_BYTE = 1u << 5,    /* byte */
  G_MULTI = 1u << 6,   /* multi-language types: MPI_AINT, MPI_OFFSET, MPI_COUNT */
  G_PAIR = 1u << 7,    /* the pair types of MPI_MAXLOC and MPI_MINLOC */
};

/* Most used first; handles that a build leaves MPI_DATATYPE_NULL never match (a null datatype
 * is refused before this is asked). MPI_CHAR is in no group of the standard, but both Open MPI
 * 4.1.4 and MPICH 4.0.2 reduce it as a C integer (only MPI_WCHAR, MPI_PACKED and the pair types
 * are refused by the arithmetic and bitwise ops), so calls on it keep their mock-ups. */
static const struct {
  MPI_Datatype dt;
  unsigned group;
} red_types[] = {
    {MPI_DOUBLE, G_FLOAT},           {MPI_INT, G_CINT},
    {MPI_FLOAT, G_FLOAT},            {MPI_LONG, G_CINT},
    {MPI_UNSIGNED, G_CINT},          {MPI_LONG_LONG, G_CINT},
    {MPI_UNSIGNED_LONG, G_CINT},     {MPI_BYTE, G_BYTE},
    {MPI_CHAR, G_CINT},              {MPI_UNSIGNED_CHAR, G_CINT},
    {MPI_SHORT, G_CINT},             {MPI_UNSIGNED_SHORT, G_CINT},
    {MPI_SIGNED_CHAR, G_CINT},       {MPI_UNSIGNED_LONG_LONG, G_CINT},
    {MPI_LONG_LONG_INT, G_CINT},     {MPI_LONG_DOUBLE, G_FLOAT},
    {MPI_INT8_T, G_CINT},            {MPI_INT16_T, G_CINT},
    {MPI_INT32_T, G_CINT},           {MPI_INT64_T, G_CINT},
    {MPI_UINT8_T, G_CINT},           {MPI_UINT16_T, G_CINT},
    {MPI_UINT32_T, G_CINT},          {MPI_UINT64_T, G_CINT},
    {MPI_AINT, G_MULTI},             {MPI_OFFSET, G_MULTI},
    {MPI_COUNT, G_MULTI},            {MPI_C_BOOL, G_LOGICAL},
    {MPI_CXX_BOOL, G_LOGICAL},       {MPI_C_FLOAT_COMPLEX, G_COMPLEX},
    {MPI_C_COMPLEX, G_COMPLEX},      {MPI_C_DOUBLE_COMPLEX, G_COMPLEX},
    {MPI_C_LONG_DOUBLE_COMPLEX, G_COMPLEX},
    {MPI_CXX_FLOAT_COMPLEX, G_COMPLEX}, {MPI_CXX_DOUBLE_COMPLEX, G_COMPLEX},
    {MPI_CXX_LONG_DOUBLE_COMPLEX, G_COMPLEX},
    {MPI_2INT, G_PAIR},              {MPI_DOUBLE_INT, G_PAIR},
    {MPI_FLOAT_INT, G_PAIR},         {MPI_LONG_INT, G_PAIR},
    {MPI_SHORT_INT, G_PAIR},         {MPI_LONG_DOUBLE_INT, G_PAIR},
    /* Fortran, as a Fortran call reaches the C wrappers (src/lib/fortran.c) */
    {MPI_INTEGER, G_FINT},           {MPI_REAL, G_FLOAT},
    {MPI_DOUBLE_PRECISION, G_FLOAT}, {MPI_LOGICAL, G_LOGICAL},
    {MPI_COMPLEX, G_COMPLEX},        {MPI_DOUBLE_COMPLEX, G_COMPLEX},
    {MPI_INTEGER1, G_FINT},          {MPI_INTEGER2, G_FINT},
    {MPI_INTEGER4, G_FINT},          {MPI_INTEGER8, G_FINT},
    {MPI_REAL4, G_FLOAT},            {MPI_REAL8, G_FLOAT},
    {MPI_COMPLEX8, G_COMPLEX},       {MPI_COMPLEX16, G_COMPLEX},
    {MPI_2INTEGER, G_PAIR},          {MPI_2REAL, G_PAIR},
    {MPI_2DOUBLE_PRECISION, G_PAIR},
};

/* MPI_REPLACE and MPI_NO_OP are defined for one-sided accumulates only: no group here. */
static const struct {
  MPI_Op op;
  unsigned groups;
} red_ops[] = {
    {MPI_SUM, G_CINT | G_FINT | G_FLOAT | G_COMPLEX | G_MULTI},
    {MPI_MAX, G_CINT | G_FINT | G_FLOAT | G_MULTI},
    {MPI_MIN, G_CINT | G_FINT | G_FLOAT | G_MULTI},
    {MPI_PROD, G_CINT | G_FINT | G_FLOAT | G_COMPLEX | G_MULTI},
    {MPI_LAND, G_CINT | G_LOGICAL},
    {MPI_LOR, G_CINT | G_LOGICAL},
    {MPI_LXOR, G_CINT | G_LOGICAL},
    {MPI_BAND, G_CINT | G_FINT | G_BYTE | G_MULTI},
    {MPI_BOR, G_CINT | G_FINT | G_BYTE | G_MULTI},
    {MPI_BXOR, G_CINT | G_FINT | G_BYTE | G_MULTI},
    {MPI_MAXLOC, G_PAIR},
    {MPI_MINLOC, G_PAIR},
    {MPI_REPLACE, 0},
    {MPI_NO_OP, 0},
};

int mg_op_defined(MPI_Op op, MPI_Datatype dt) {
  size_t i = 0, nops = sizeof red_ops / sizeof red_ops[0];
  while (i < nops && op != red_ops[i].op) i++;
  if (i == nops) return 1; /* a user-defined op: any datatype */
  unsigned groups = red_ops[i].groups;
  for (size_t j = 0; groups && j < sizeof red_types / sizeof red_types[0]; j++)
    if (dt == red_types[j].dt) return (red_types[j].group & groups) != 0;
  return 0; /* derived (also a duplicate or a contiguous of one element), or in no group */
}

/* The two member sizes of a predefined pair type (MPI_DOUBLE_INT, ...): 1 when dt is one. The
 * handles are not constants in every MPI (Open MPI: addresses of globals), hence no static table. */
static int pair_sizes(MPI_Datatype dt, int *a, int *b) {
  const struct {
    MPI_Datatype t;
    int a, b;
  } pairs[] = {{MPI_FLOAT_INT, (int)sizeof(float), (int)sizeof(int)},
               {MPI_DOUBLE_INT, (int)sizeof(double), (int)sizeof(int)},
               {MPI_LONG_INT, (int)sizeof(long), (int)sizeof(int)},
               {MPI_SHORT_INT, (int)sizeof(short), (int)sizeof(int)},
               {MPI_LONG_DOUBLE_INT, (int)sizeof(long double), (int)sizeof(int)}};
  for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
    if (dt == pairs[i].t) {
      *a = pairs[i].a;
      *b = pairs[i].b;
      return 1;
    }
  return 0;
}

/* One more basic type of size sz: 1 when it differs from the first one seen. */
static int another_size(int sz, int *first) {
  if (sz <= 0) return 0;
  if (*first == 0) *first = sz;
  return sz != *first;
}

/* 1 as soon as a second basic size turns up in dt's signature (depth: the nesting, bounded). */
static int walk_sizes(MPI_Datatype dt, int *first, int depth) {
  int ni, na, nd, comb, sz, a, b;
  if (depth > 64 || PMPI_Type_get_envelope(dt, &ni, &na, &nd, &comb) != MPI_SUCCESS) return 0;
  if (comb == MPI_COMBINER_NAMED) {
    if (pair_sizes(dt, &a, &b)) return another_size(a, first) || another_size(b, first);
    return PMPI_Type_size(dt, &sz) == MPI_SUCCESS && another_size(sz, first);
  }
  int *ints = malloc(sizeof(int) * (size_t)(ni > 0 ? ni : 1));
  MPI_Aint *aints = malloc(sizeof(MPI_Aint) * (size_t)(na > 0 ? na : 1));
  MPI_Datatype *types = malloc(sizeof(MPI_Datatype) * (size_t)(nd > 0 ? nd : 1));
  int mixed = 0;
  if (ints && aints && types && PMPI_Type_get_contents(dt, ni, na, nd, ints, aints, types) == MPI_SUCCESS)
    for (int i = 0; i < nd; i++) {
      if (!mixed) mixed = walk_sizes(types[i], first, depth + 1);
      /* the handles of derived members are new ones (MPI_Type_get_contents), the caller's to free */
      if (PMPI_Type_get_envelope(types[i], &ni, &na, &a, &comb) == MPI_SUCCESS && comb != MPI_COMBINER_NAMED)
        PMPI_Type_free(&types[i]);
    }
  free(ints);
  free(aints);
  free(types);
  return mixed;
}

/*
 * A derived datatype's answer is kept on the type itself, as an attribute of a private keyval
 * (value: answer + 1): walked once per type, not per call (the walk allocates and asks
 * MPI_Type_get_contents level by level). An attribute, not a table keyed by handle: a freed type's
 * handle comes back for the next new type (MPICH reuses handle indices), and the attribute goes
 * with MPI_Type_free; MPI_Type_dup's copy, of the same signature, inherits it (MPI_TYPE_DUP_FN).
 * The keyval is freed with MPI_COMM_SELF's attributes at MPI_Finalize, as call_check.c's
 * communicator is.
 */
static int mixed_key = MPI_KEYVAL_INVALID;
static pthread_once_t mixed_once = PTHREAD_ONCE_INIT;
static int mixed_key_free(MPI_Comm self, int key, void *val, void *extra) {
  (void)self, (void)val, (void)extra;
  if (mixed_key != MPI_KEYVAL_INVALID) PMPI_Type_free_keyval(&mixed_key);
  PMPI_Comm_free_keyval(&key);
  return MPI_SUCCESS;
}
static void mixed_key_make(void) {
  int key;
  if (PMPI_Type_create_keyval(MPI_TYPE_DUP_FN, MPI_TYPE_NULL_DELETE_FN, &mixed_key, NULL) != MPI_SUCCESS)
    mixed_key = MPI_KEYVAL_INVALID;
  else if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, mixed_key_free, &key, NULL) == MPI_SUCCESS)
    PMPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
}

int mg_type_mixed_sizes(MPI_Datatype dt) {
  if (mg_tclass_of(dt) != MG_TCLASS_NONE) return 0; /* a predefined type with a class: one size */
  int first = 0, ni, na, nd, comb, found = 0;
  if (PMPI_Type_get_envelope(dt, &ni, &na, &nd, &comb) != MPI_SUCCESS) return 0;
  if (comb == MPI_COMBINER_NAMED) return walk_sizes(dt, &first, 0); /* no allocation: no cache */
  pthread_once(&mixed_once, mixed_key_make);
  void *val;
  if (mixed_key != MPI_KEYVAL_INVALID && PMPI_Type_get_attr(dt, mixed_key, &val, &found) == MPI_SUCCESS && found)
    return (int)(intptr_t)val - 1;
  int mixed = walk_sizes(dt, &first, 0);
  if (mixed_key != MPI_KEYVAL_INVALID) PMPI_Type_set_attr(dt, mixed_key, (void *)(intptr_t)(mixed + 1));
  return mixed;
}
