/*
 * The arithmetic of the monotony family's padded count and the user-op family's table of exact
 * ops (restrict.h): what mg_applicable() needs to decide MG_R_PADDED_INT and MG_R_BITWISE_EXACT,
 * and what src/algs/padded.c and src/algs/userop.c build on.
 */
#include "registry/restrict.h"

size_t mg_padded_count(size_t n, int k) {
  size_t want = n * (size_t)k, t = 1;
  if (want / (size_t)k != n) return SIZE_MAX;
  while (t < want) {
    if (t > SIZE_MAX / 2) return SIZE_MAX;
    t *= 2;
  }
  return t;
}

size_t mg_padded_units(const mg_call *c, int k) {
  int by_block = mg_padded_by_block(c->coll);
  if (c->coll != MG_BCAST && !by_block) return mg_padded_count((size_t)c->rcount, k);
  size_t t = mg_padded_count(c->bytes, k), p = by_block ? (size_t)c->size : 1;
  return t == SIZE_MAX || t > SIZE_MAX / p ? SIZE_MAX : t * p;
}

/* In Open MPI the op handles are addresses of globals, not constants: no static table of them. */
int mg_userop_index(MPI_Op op) {
  int i = 0;
#define MG_X(E, h, k)      \
  if (op == (h)) return i; \
  i++;
  MG_UO_OPS(MG_X)
#undef MG_X
  return -1;
}

/* The kind of dt in MG_UO_TYPES, or 0 when not there. */
static int type_kind(MPI_Datatype dt) {
#define MG_X(a, h, T, A, kind) \
  if (dt == (h)) return kind;
  MG_UO_TYPES(MG_X, 0)
#undef MG_X
  return 0;
}

int mg_userop_exact(MPI_Op op, MPI_Datatype dt) {
  static const int kinds[MG_UO_NOPS] = {
#define MG_X(E, h, k) k,
      MG_UO_OPS(MG_X)
#undef MG_X
  };
  int i = mg_userop_index(op);
  return i >= 0 && (kinds[i] & type_kind(dt)) != 0;
}
