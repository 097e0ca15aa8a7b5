/*
 * The layout of an MPI datatype, as the call descriptor's arguments need it:
 * extent and true extent, size, whether the elements are the bytes. Used by
 * the registry's restrictions (a non-commutative op on a datatype with gaps)
 * and by the mock-ups (typed scratch, element addresses).
 */
#ifndef MG_REGISTRY_DATATYPE_H
#define MG_REGISTRY_DATATYPE_H

#include <mpi.h>
#include <stddef.h>

typedef struct mg_type {
  MPI_Aint lb, extent;           /* MPI_Type_get_extent */
  MPI_Aint true_lb, true_extent; /* MPI_Type_get_true_extent */
  int size;                      /* MPI_Type_size */
} mg_type;

int mg_type_get(MPI_Datatype dt, mg_type *t);
/* Dense: the elements are the bytes (no gaps, lower bound 0). */
int mg_type_is_dense(const mg_type *t);
/* Bytes spanned by `count` consecutive elements: (count-1)*extent + true_extent
 * (0 for count 0). This is what a scratch buffer for them must hold. */
size_t mg_type_span(const mg_type *t, size_t count);
/* Address to pass to MPI for a scratch region of mg_type_span() bytes. */
static inline void *mg_type_base(void *region, const mg_type *t) { return (char *)region - t->true_lb; }
/* Address of element i of a typed buffer. */
static inline void *mg_type_at(const void *buf, const mg_type *t, size_t i) {
  return (char *)buf + (MPI_Aint)i * t->extent;
}

#endif
