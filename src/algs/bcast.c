/* STUB: to be replaced by the real implementation. */
#include "algs/algs.h"
int mg_bcast_as_allgatherv(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_bcast_as_allgatherv_mem(const mg_call *c) { (void)c; return 0; }
int mg_bcast_as_scatter_allgather(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_bcast_as_scatter_allgather_mem(const mg_call *c) { (void)c; return 0; }
