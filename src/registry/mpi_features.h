/*
 * What this MPI library offers that some rows need, decided from its headers at build time (the
 * same on every rank). MG_HAVE_PCOLL: persistent collectives, MPI-4.0's MPI_<Coll>_init (MPICH
 * 4.0) or Open MPI 4.1's MPIX_<Coll>_init (mpi-ext.h, the pcollreq extension); the persistent
 * family (algs/persistent.c) is not applicable without them (SimGrid 3.32's SMPI has neither:
 * its rows aborted a `bench --alg all` with MPI_ERR_INTERN, issue 50).
 */
#ifndef MG_REGISTRY_MPI_FEATURES_H
#define MG_REGISTRY_MPI_FEATURES_H

#include <mpi.h>

#if defined(MPI_VERSION) && MPI_VERSION >= 4
#define MG_HAVE_PCOLL 4 /* PMPI_<Coll>_init */
#elif defined(OPEN_MPI)
#include <mpi-ext.h>
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define MG_HAVE_PCOLL 1 /* PMPIX_<Coll>_init */
#endif
#endif

#endif
