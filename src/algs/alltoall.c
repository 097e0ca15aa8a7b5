/* STUB: to be replaced by the real implementation. */
#include "algs/algs.h"
int mg_alltoall_as_alltoallv(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_alltoall_as_alltoallv_mem(const mg_call *c) { (void)c; return 0; }
