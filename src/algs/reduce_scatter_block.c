/* STUB: to be replaced by the real implementation. */
#include "algs/algs.h"
int mg_reduce_scatter_block_as_reduce_scatter(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_reduce_scatter_block_as_reduce_scatter_mem(const mg_call *c) { (void)c; return 0; }
int mg_reduce_scatter_block_as_reducescatter(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_reduce_scatter_block_as_reducescatter_mem(const mg_call *c) { (void)c; return 0; }
int mg_reduce_scatter_block_as_allreduce(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_reduce_scatter_block_as_allreduce_mem(const mg_call *c) { (void)c; return 0; }
