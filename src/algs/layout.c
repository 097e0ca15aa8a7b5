/*
 * The node layout of a communicator (layout.h). A node is a shared-memory domain
 * (MPI_COMM_TYPE_SHARED); each node's first rank (its leader: the split keeps the ranks' order)
 * gives its host name and size, rank 0 gathers them and broadcasts the list, and two allreduces
 * give the node count and the extreme node sizes.
 */
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <unistd.h>

#include "algs/layout.h"

typedef struct host_row {
  char host[64];
  int ranks; /* the node's size on its leader, 0 elsewhere */
} host_row;

/* Rank 0: the leaders' rows as "HOST:RANKS,..." in rank order, cut with "..." when full. */
static void hosts_text(const host_row *all, int n, char *out, size_t cap) {
  size_t used = 0;
  out[0] = '\0';
  for (int r = 0; r < n; r++) {
    if (!all[r].ranks) continue;
    char item[96];
    int k = snprintf(item, sizeof item, "%s%s:%d", used ? "," : "", all[r].host, all[r].ranks);
    if (used + (size_t)k + 4 >= cap) { /* keep room for "..." */
      snprintf(out + used, cap - used, "%s...", used ? "," : "");
      return;
    }
    memcpy(out + used, item, (size_t)k + 1);
    used += (size_t)k;
  }
}

void mg_layout_host(char *out, size_t len) {
#ifdef SMPI_H
  /* SMPI (smpicc's mpi.h includes smpi/smpi.h): every simulated rank is a process of one real
   * machine, and gethostname (not simulated) names that machine; the rank's host on the simulated
   * platform is what MPI_Get_processor_name gives (SMPI: the name of the host its actor runs on),
   * and the one its MPI_COMM_TYPE_SHARED split groups by. */
  char name[MPI_MAX_PROCESSOR_NAME + 1];
  int n = 0;
  if (PMPI_Get_processor_name(name, &n) == MPI_SUCCESS && n > 0) {
    name[n < MPI_MAX_PROCESSOR_NAME ? n : MPI_MAX_PROCESSOR_NAME] = '\0';
    snprintf(out, len, "%s", name);
    return;
  }
#endif
  if (len == 0) return;
  if (gethostname(out, len - 1) != 0) snprintf(out, len, "unknown");
  out[len - 1] = '\0';
}

int mg_layout_collect(MPI_Comm comm, mg_layout *l) {
  int rc, rank, size, nrank, nsize;
  MPI_Comm node;
  memset(l, 0, sizeof *l);
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  if ((rc = PMPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node)) != MPI_SUCCESS) return rc;
  PMPI_Comm_rank(node, &nrank);
  PMPI_Comm_size(node, &nsize);
  PMPI_Comm_free(&node);

  host_row me, *all = NULL;
  memset(&me, 0, sizeof me);
  mg_layout_host(me.host, sizeof me.host);
  me.ranks = nrank == 0 ? nsize : 0;
  if (rank == 0 && !(all = malloc(sizeof *all * (size_t)size))) { /* the others are in the gather */
    fprintf(stderr, "mpiguide: out of memory for the node layout; aborting the job\n");
    PMPI_Abort(comm, 1);
    return MPI_ERR_NO_MEM;
  }
  rc = PMPI_Gather(&me, (int)sizeof me, MPI_BYTE, all, (int)sizeof me, MPI_BYTE, 0, comm);
  if (rc == MPI_SUCCESS && rank == 0) hosts_text(all, size, l->hosts, sizeof l->hosts);
  free(all);
  if (rc == MPI_SUCCESS) rc = PMPI_Bcast(l->hosts, (int)sizeof l->hosts, MPI_CHAR, 0, comm);

  /* nodes: the leaders; sizes: max of the leaders' sizes, and of their negatives for the min */
  int v[3] = {nrank == 0, nrank == 0 ? nsize : 0, nrank == 0 ? -nsize : -size}, sum = 0, mx[2] = {0, 0};
  if (rc == MPI_SUCCESS) rc = PMPI_Allreduce(&v[0], &sum, 1, MPI_INT, MPI_SUM, comm);
  if (rc == MPI_SUCCESS) rc = PMPI_Allreduce(&v[1], mx, 2, MPI_INT, MPI_MAX, comm);
  if (rc != MPI_SUCCESS) {
    memset(l, 0, sizeof *l);
    return rc;
  }
  l->nnodes = sum;
  l->rpn_max = mx[0];
  l->rpn_min = -mx[1];
  return MPI_SUCCESS;
}

void mg_layout_rpn(const mg_layout *l, char *out, size_t len) {
  if (l->rpn_min == l->rpn_max) snprintf(out, len, "%d", l->rpn_min);
  else snprintf(out, len, "%d-%d", l->rpn_min, l->rpn_max);
}
