/*
 * The node layout of a communicator (layout.h). Every rank sends rank 0 its host name and, on the
 * first rank of its shared-memory domain (MPI_COMM_TYPE_SHARED; the split keeps the ranks' order),
 * the domain's size. Rank 0 groups the ranks by name and compares that with the domains: when they
 * agree the layout is theirs; when not (a launcher that gives MPI no node map: MPICH under `srun -m
 * arbitrary --mpi=pmi2` saw 4 nodes in n1,n1,n1,n2) the names', the domains' kept beside. Rank 0
 * broadcasts the result, so every rank holds the same.
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

/* Rank 0: the leaders' rows (ranks > 0) as "HOST:RANKS,..." in rank order, cut with "..." when full. */
static void hosts_text(const host_row *all, int n, char *out, size_t cap) {
  size_t used = 0;
  out[0] = '\0';
  for (int r = 0; r < n; r++) {
    if (all[r].ranks <= 0) continue;
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

/* Rank 0: the layout of the rows, a node per rank with ranks > 0, into l (nnodes, rpn, hosts). */
static void layout_of(const host_row *all, int n, mg_layout *l) {
  l->nnodes = 0, l->rpn_min = n, l->rpn_max = 0;
  for (int r = 0; r < n; r++) {
    if (all[r].ranks <= 0) continue;
    l->nnodes++;
    l->rpn_min = all[r].ranks < l->rpn_min ? all[r].ranks : l->rpn_min;
    l->rpn_max = all[r].ranks > l->rpn_max ? all[r].ranks : l->rpn_max;
  }
  hosts_text(all, n, l->hosts, sizeof l->hosts);
}

/* Host name, then rank (the rows' order in their array): a qsort order of row pointers. */
static int by_host_then_rank(const void *a, const void *b) {
  const host_row *x = *(const host_row *const *)a, *y = *(const host_row *const *)b;
  int c = strcmp(x->host, y->host);
  return c ? c : (x > y) - (x < y);
}

/* Rank 0: the rows regrouped by host name into byname (a row per rank; the first rank of a name
 * holds its count, the others -1), through order[0..n) sorted by name: n log n compares. */
static void group_by_name(const host_row *all, int n, host_row *byname, const host_row **order) {
  for (int r = 0; r < n; r++) order[r] = &all[r], byname[r] = all[r], byname[r].ranks = -1;
  qsort(order, (size_t)n, sizeof *order, by_host_then_rank);
  for (int i = 0, first = 0; i < n; i++) {
    if (i == 0 || strcmp(order[i]->host, order[i - 1]->host)) first = (int)(order[i] - all), byname[first].ranks = 0;
    byname[first].ranks++;
  }
}

void mg_layout_host(char *out, size_t len) {
  const char *test = getenv("MPIGUIDE_TEST_HOSTS"); /* the tests' planted names (layout.h) */
  if (test && *test && len > 1) {
    int rank = 0, init = 0;
    PMPI_Initialized(&init);
    if (init) PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    const char *p = test;
    for (int r = 0; r < rank; r++) {
      const char *c = strchr(p, ',');
      if (!c) break;
      p = c + 1;
    }
    size_t k = strcspn(p, ",");
    if (k >= len) k = len - 1;
    memcpy(out, p, k);
    out[k] = '\0';
    return;
  }
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
  const host_row **order = NULL; /* rank 0: the rows, then the rows by name, and their order by name */
  if (rank == 0 && (!(all = malloc(sizeof *all * 2 * (size_t)size)) || !(order = malloc(sizeof *order * (size_t)size)))) {
    /* the others are in the gather */
    fprintf(stderr, "mpiguide: out of memory for the node layout; aborting the job\n");
    PMPI_Abort(comm, 1);
    return MPI_ERR_NO_MEM;
  }
  rc = PMPI_Gather(&me, (int)sizeof me, MPI_BYTE, all, (int)sizeof me, MPI_BYTE, 0, comm);
  if (rc == MPI_SUCCESS && rank == 0) {
    mg_layout names;
    memset(&names, 0, sizeof names);
    layout_of(all, size, l);
    group_by_name(all, size, all + size, order);
    layout_of(all + size, size, &names);
    if (names.nnodes != l->nnodes || strcmp(names.hosts, l->hosts)) { /* the names win */
      memcpy(names.shared, l->hosts, sizeof names.shared);
      *l = names;
    }
  }
  free(all);
  free(order);
  if (rc == MPI_SUCCESS) rc = PMPI_Bcast(l, (int)sizeof *l, MPI_BYTE, 0, comm);
  if (rc != MPI_SUCCESS) memset(l, 0, sizeof *l);
  return rc;
}

void mg_layout_rpn(const mg_layout *l, char *out, size_t len) {
  if (l->rpn_min == l->rpn_max) snprintf(out, len, "%d", l->rpn_min);
  else snprintf(out, len, "%d-%d", l->rpn_min, l->rpn_max);
}
