/*
 * What a result file says about its launch: an id equal on all ranks, rank
 * 0's host name, the date, the MPI library, and the node layout (nodes from
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), and each node's host name and rank count).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"

/* The nodes as "HOST:RANKS,...": each node's first rank (its leader: the shared-memory split keeps
 * the ranks' order) gives its host name and size; rank 0 gathers them and broadcasts the list.
 * 64 bytes of name per rank, once per launch. */
typedef struct host_row {
  char host[64];
  int ranks; /* the node's size on its leader, 0 elsewhere */
} host_row;

static int hosts_collect(MPI_Comm comm, int rank, int leader_size, mg_bench_meta *m) {
  int rc = MPI_SUCCESS;
  host_row me;
  memset(&me, 0, sizeof me);
  if (gethostname(me.host, sizeof me.host - 1) != 0) strcpy(me.host, "unknown");
  me.ranks = leader_size;
  host_row *all = NULL;
  if (rank == 0 && !(all = malloc(sizeof *all * (size_t)m->nprocs))) return MPI_ERR_NO_MEM;
  rc = PMPI_Gather(&me, (int)sizeof me, MPI_BYTE, all, (int)sizeof me, MPI_BYTE, 0, comm);
  if (rc == MPI_SUCCESS && rank == 0) {
    size_t used = 0, cap = sizeof m->hosts;
    for (int r = 0; r < m->nprocs; r++) {
      if (!all[r].ranks) continue;
      char item[96];
      int n = snprintf(item, sizeof item, "%s%s:%d", used ? "," : "", all[r].host, all[r].ranks);
      if (used + (size_t)n + 4 >= cap) { /* keep room for "..." */
        snprintf(m->hosts + used, cap - used, "%s...", used ? "," : "");
        break;
      }
      memcpy(m->hosts + used, item, (size_t)n + 1);
      used += (size_t)n;
    }
  }
  free(all);
  if (rc == MPI_SUCCESS) rc = PMPI_Bcast(m->hosts, (int)sizeof m->hosts, MPI_CHAR, 0, comm);
  return rc;
}

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

  MPI_Comm node;
  int nrank, nsize;
  if ((rc = PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node)) != MPI_SUCCESS)
    return rc;
  PMPI_Comm_rank(node, &nrank);
  PMPI_Comm_size(node, &nsize);
  PMPI_Comm_free(&node);
  if ((rc = hosts_collect(comm, rank, nrank == 0 ? nsize : 0, m)) != MPI_SUCCESS) return rc;
  int v[3] = {nrank == 0 ? 1 : 0, nrank == 0 ? nsize : 0, nrank == 0 ? -nsize : -m->nprocs};
  int sum = 0, mx[2];
  if ((rc = PMPI_Allreduce(&v[0], &sum, 1, MPI_INT, MPI_SUM, comm)) != MPI_SUCCESS) return rc;
  if ((rc = PMPI_Allreduce(&v[1], mx, 2, MPI_INT, MPI_MAX, comm)) != MPI_SUCCESS) return rc;
  m->nnodes = sum;
  m->rpn_max = mx[0];
  m->rpn_min = -mx[1];
  return MPI_SUCCESS;
}
