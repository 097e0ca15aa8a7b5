/*
 * The node layout of a communicator (layout.c): how many nodes, how many ranks on each, and the
 * nodes' host names, as MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) sees them. check's result files
 * (#@nnodes, #@ranks_per_node, #@hosts: src/bench/meta.c), libmpiguide's trace (src/lib/trace.c)
 * and its profile-layout warning (src/lib/init.c) describe a launch with it, so all three say the
 * same thing the same way.
 */
#ifndef MG_LAYOUT_H
#define MG_LAYOUT_H

#include <stddef.h>

#include <mpi.h>

typedef struct mg_layout {
  int nnodes, rpn_min, rpn_max; /* nodes, and the fewest and most ranks on one */
  char hosts[1024];             /* the nodes as HOST:RANKS,... in the order of their lowest rank; "..."
                                   ends a list that did not fit */
  char shared[1024];            /* "" when the host names and MPI_COMM_TYPE_SHARED agree; else what
                                   the split said, as hosts (the layout above follows the names) */
} mg_layout;

/* Collective over comm, PMPI only: the layout, the same on every rank (rank 0 computes it and
 * broadcasts it). A node is a host name; when MPI_COMM_TYPE_SHARED groups the ranks otherwise (MPICH
 * under `srun -m arbitrary --mpi=pmi2` made every rank a node of its own), the names win and
 * l->shared keeps the split's view. A PMPI error code passes through (the layout is then zero).
 * 64 bytes of host name per rank travel to rank 0 and the layout back: a launch's cost, not a call's. */
int mg_layout_collect(MPI_Comm comm, mg_layout *l);

/* This rank's host name: gethostname, or under SMPI the simulated host the rank runs on (the
 * platform's name for it, from MPI_Get_processor_name), so that a simulated run's layout and
 * hosts are the platform's and not the real machine's. For the tests only,
 * MPIGUIDE_TEST_HOSTS=H0,H1,... names rank r of MPI_COMM_WORLD H_r (the last name for the ranks
 * beyond the list). Not collective. */
void mg_layout_host(char *out, size_t len);

/* Ranks per node as check's #@ranks_per_node writes it: "2", or "1-3" on uneven nodes. */
void mg_layout_rpn(const mg_layout *l, char *out, size_t len);

#endif
