/* STUB: to be replaced by the real implementation. */
#include "algs/algs.h"
int mg_gather_as_allgather(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_gather_as_allgather_mem(const mg_call *c) { (void)c; return 0; }
int mg_gather_as_gatherv(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_gather_as_gatherv_mem(const mg_call *c) { (void)c; return 0; }
int mg_gather_as_reduce(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_gather_as_reduce_mem(const mg_call *c) { (void)c; return 0; }
