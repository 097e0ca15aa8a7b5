/*
 * Datatype layout queries (datatype.h), through PMPI only: they run inside
 * libmpiguide's call path. And the datatype classes and op selectors of
 * profile rules: handle comparisons, no MPI call.
 */
#include "registry/datatype.h"

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
  const char *name, *desc;
} tclasses[MG_NTCLASS] = {
    [MG_TCLASS_ANY] = {"any", ""},
#define MG_X(E, n, d) [MG_TCLASS_##E] = {n, d},
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
