/*
 * Measuring LogGP parameters (docs/loggp.md): parametrised round trips between one pair of
 * processes per pair class (on one node, on two nodes), and the local per-byte costs of memcpy
 * and MPI_Reduce_local. The fit and the file are loggp_file.h's.
 */
#ifndef MG_MODEL_LOGGP_MEASURE_H
#define MG_MODEL_LOGGP_MEASURE_H

#include <mpi.h>
#include <stddef.h>

#include "model/loggp_file.h"

typedef struct mg_loggp_cfg {
  const size_t *sizes; /* ascending, at most MG_LOGGP_MAXPTS */
  int nsizes;
  int n;               /* messages of PRTT(n,0,s) and PRTT(n,d,s), >= 2 */
  int warmup;          /* round trips before each series, not kept; they also size the series */
  int min_nrep, max_nrep;
  double time_per;     /* seconds per series (size, kind): the repetitions are
                          time_per / the warm-up's median, within [min_nrep, max_nrep] */
  double tolerance;    /* residuals above it are reported (mg_loggp_fit) */
  /* The node of each rank of comm (any ids, p entries), for tests that need several nodes on one
   * machine; NULL: the nodes of MPI_Comm_split_type(MPI_COMM_TYPE_SHARED). */
  const int *node_of;
  /* Called by the process that measures (rank 0 for the pairs it is in) after each series:
   * fraction done, elapsed seconds, what. May be NULL. */
  void (*progress)(double fraction, double elapsed, const char *what, void *arg);
  void *arg;
} mg_loggp_cfg;

/*
 * Collective over comm. The pairs: within a node, rank 0 and the next rank on its node (or the
 * first two ranks of the first node that has two); across nodes, rank 0 and the first rank on
 * another node. Each pair measures PRTT(1,0,s), PRTT(n,0,s), PRTT(n,d,s) and o_r for every
 * size, with d = max(PRTT(1,0,s), 2 gap(s)); the other ranks wait. Rank 0 then measures copy
 * and reduce and fits each class. On rank 0, lf holds p, nodes, ranks per node, copy, reduce,
 * tolerance and the classes (the caller fills the MPI library's name and version). Returns
 * MPI_SUCCESS or the MPI error of a failing call.
 */
int mg_loggp_measure(MPI_Comm comm, const mg_loggp_cfg *cfg, mg_loggp_file *lf);

#endif
