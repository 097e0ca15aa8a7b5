/*
 * Name tables of the engine: synchronisation methods, the predefined
 * datatypes and reduction ops `mpiguide bench` accepts, and which op is
 * defined for which datatype (MPI standard, "Predefined Reduction Operations":
 * MAX/MIN/SUM/PROD on C integer and floating point, logical ops on C integer,
 * bitwise ops on C integer and MPI_BYTE; MPI_CHAR takes no op).
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "bench/bench.h"

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
    {"MPI_BYTE", MPI_BYTE, 1, MG_DT_BYTE},
    {"MPI_CHAR", MPI_CHAR, (int)sizeof(char), MG_DT_CHAR},
    {"MPI_SIGNED_CHAR", MPI_SIGNED_CHAR, (int)sizeof(signed char), I},
    {"MPI_UNSIGNED_CHAR", MPI_UNSIGNED_CHAR, (int)sizeof(unsigned char), I},
    {"MPI_SHORT", MPI_SHORT, (int)sizeof(short), I},
    {"MPI_INT", MPI_INT, (int)sizeof(int), I},
    {"MPI_UNSIGNED", MPI_UNSIGNED, (int)sizeof(unsigned), I},
    {"MPI_LONG", MPI_LONG, (int)sizeof(long), I},
    {"MPI_LONG_LONG", MPI_LONG_LONG, (int)sizeof(long long), I},
    {"MPI_INT8_T", MPI_INT8_T, 1, I},
    {"MPI_INT16_T", MPI_INT16_T, 2, I},
    {"MPI_INT32_T", MPI_INT32_T, 4, I},
    {"MPI_INT64_T", MPI_INT64_T, 8, I},
    {"MPI_UINT8_T", MPI_UINT8_T, 1, I},
    {"MPI_UINT16_T", MPI_UINT16_T, 2, I},
    {"MPI_UINT32_T", MPI_UINT32_T, 4, I},
    {"MPI_UINT64_T", MPI_UINT64_T, 8, I},
    {"MPI_FLOAT", MPI_FLOAT, (int)sizeof(float), MG_DT_FLOAT},
    {"MPI_DOUBLE", MPI_DOUBLE, (int)sizeof(double), MG_DT_FLOAT},
};

static const mg_op_info ops[] = {
    {"MPI_MAX", MPI_MAX, I | MG_DT_FLOAT},   {"MPI_MIN", MPI_MIN, I | MG_DT_FLOAT},
    {"MPI_SUM", MPI_SUM, I | MG_DT_FLOAT},   {"MPI_PROD", MPI_PROD, I | MG_DT_FLOAT},
    {"MPI_LAND", MPI_LAND, I},               {"MPI_LOR", MPI_LOR, I},
    {"MPI_LXOR", MPI_LXOR, I},               {"MPI_BAND", MPI_BAND, I | MG_DT_BYTE},
    {"MPI_BOR", MPI_BOR, I | MG_DT_BYTE},    {"MPI_BXOR", MPI_BXOR, I | MG_DT_BYTE},
};
#undef I

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
