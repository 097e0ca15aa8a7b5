/*
 * The persistent collectives' binding in the tests that call them (nbctest.c, nbrtest.c):
 * PINIT(Allreduce) is MPI-4.0's MPI_Allreduce_init where MPI_VERSION >= 4 (MPICH 4.0.2), Open MPI
 * 4.1's MPIX_Allreduce_init where its pcollreq extension is compiled (mpi-ext.h); HAVE_PCOLL says
 * whether either is there.
 */
#ifndef MG_TEST_PCOLL_H
#define MG_TEST_PCOLL_H
#include <mpi.h>
#if defined(OPEN_MPI)
#include <mpi-ext.h>
#endif

#if (defined(MPI_VERSION) && MPI_VERSION >= 4)
#define PINIT(Name) MPI_##Name##_init
#define HAVE_PCOLL 1
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define PINIT(Name) MPIX_##Name##_init
#define HAVE_PCOLL 1
#else
#define HAVE_PCOLL 0
#endif

#endif
