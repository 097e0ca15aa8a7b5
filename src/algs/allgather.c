/* STUB: to be replaced by the real implementation. */
#include "algs/algs.h"
int mg_allgather_as_gather_bcast(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_allgather_as_gather_bcast_mem(const mg_call *c) { (void)c; return 0; }
int mg_allgather_as_alltoall(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_allgather_as_alltoall_mem(const mg_call *c) { (void)c; return 0; }
int mg_allgather_as_allreduce(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_allgather_as_allreduce_mem(const mg_call *c) { (void)c; return 0; }
int mg_allgather_as_allgatherv(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_allgather_as_allgatherv_mem(const mg_call *c) { (void)c; return 0; }
