/* STUB: to be replaced by the real implementation. */
#include "algs/algs.h"
int mg_reduce_as_allreduce(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_reduce_as_allreduce_mem(const mg_call *c) { (void)c; return 0; }
int mg_reduce_as_reducescatterblock_gather(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_reduce_as_reducescatterblock_gather_mem(const mg_call *c) { (void)c; return 0; }
int mg_reduce_as_reducescatter_gatherv(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_reduce_as_reducescatter_gatherv_mem(const mg_call *c) { (void)c; return 0; }
