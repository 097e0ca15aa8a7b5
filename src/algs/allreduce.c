/* STUB: to be replaced by the real implementation. */
#include "algs/algs.h"
int mg_allreduce_as_reduce_bcast(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_allreduce_as_reduce_bcast_mem(const mg_call *c) { (void)c; return 0; }
int mg_allreduce_as_reducescatterblock_allgather(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_allreduce_as_reducescatterblock_allgather_mem(const mg_call *c) { (void)c; return 0; }
int mg_allreduce_as_reducescatter_allgatherv(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_allreduce_as_reducescatter_allgatherv_mem(const mg_call *c) { (void)c; return 0; }
