/* STUB: to be replaced by the real implementation. */
#include "algs/algs.h"
int mg_scatter_as_bcast(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_scatter_as_bcast_mem(const mg_call *c) { (void)c; return 0; }
int mg_scatter_as_scatterv(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_scatter_as_scatterv_mem(const mg_call *c) { (void)c; return 0; }
