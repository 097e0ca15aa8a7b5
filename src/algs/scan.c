/* STUB: to be replaced by the real implementation. */
#include "algs/algs.h"
int mg_scan_as_exscan_reducelocal(const mg_call *c) { (void)c; return MPI_ERR_OTHER; }
size_t mg_scan_as_exscan_reducelocal_mem(const mg_call *c) { (void)c; return 0; }
