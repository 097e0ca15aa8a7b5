/*
 * Datatype layout queries (datatype.h), through PMPI only: they run inside
 * libmpiguide's call path.
 */
#include "registry/datatype.h"

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
