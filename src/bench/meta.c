/*
 * What a result file says about its launch: an id equal on all ranks, rank
 * 0's host name, the date, the MPI library, and the node layout (nodes from
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), and each node's host name and rank count: algs/layout.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "algs/layout.h"
#include "bench/bench.h"

int mg_bench_meta_collect(MPI_Comm comm, mg_bench_meta *m) {
  int rc, rank;
  memset(m, 0, sizeof *m);
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &m->nprocs);

  /* launch id, host, date: rank 0's, broadcast */
  struct {
    char launch[32], host[256], date[40];
  } id;
  memset(&id, 0, sizeof id);
  if (rank == 0) {
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    snprintf(id.launch, sizeof id.launch, "%010llx%06lx", (unsigned long long)ts.tv_sec,
             ((unsigned long)getpid() ^ (unsigned long)(ts.tv_nsec >> 10)) & 0xffffffUL);
    if (gethostname(id.host, sizeof id.host - 1) != 0) strcpy(id.host, "unknown");
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    strftime(id.date, sizeof id.date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  }
  if ((rc = PMPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, comm)) != MPI_SUCCESS) return rc;
  memcpy(m->launch, id.launch, sizeof m->launch);
  memcpy(m->hostname, id.host, sizeof m->hostname);
  memcpy(m->date, id.date, sizeof m->date);

  int len = 0, major = 0, minor = 0;
  char lib[MPI_MAX_LIBRARY_VERSION_STRING];
  PMPI_Get_library_version(lib, &len);
  lib[len < MPI_MAX_LIBRARY_VERSION_STRING ? len : MPI_MAX_LIBRARY_VERSION_STRING - 1] = '\0';
  while (len > 0 && (lib[len - 1] == '\n' || lib[len - 1] == ' ' || lib[len - 1] == '\0')) lib[--len] = '\0';
  snprintf(m->mpi_library, sizeof m->mpi_library, "%s", lib);
  snprintf(m->mpi_name, sizeof m->mpi_name, "%s",
           strstr(lib, "Open MPI") ? "Open MPI"
           : strstr(lib, "MVAPICH") ? "MVAPICH"
           : strstr(lib, "Intel") ? "Intel MPI"
           : strstr(lib, "MPICH") ? "MPICH"
                                   : "unknown");
  PMPI_Get_version(&major, &minor);
  snprintf(m->mpi_standard, sizeof m->mpi_standard, "%d.%d", major, minor);

  mg_layout l; /* the node layout, as libmpiguide's trace records it too (algs/layout.c) */
  if ((rc = mg_layout_collect(comm, &l)) != MPI_SUCCESS) return rc;
  m->nnodes = l.nnodes;
  m->rpn_min = l.rpn_min;
  m->rpn_max = l.rpn_max;
  _Static_assert(sizeof m->hosts == sizeof l.hosts, "mg_bench_meta.hosts and mg_layout.hosts differ");
  memcpy(m->hosts, l.hosts, sizeof m->hosts);
  return MPI_SUCCESS;
}
