/*
 * The PMPI layer of the blocking neighbourhood collectives (registry.h, MG_NEIGHBOR_OPS): the same
 * two levels as wrappers.c's. Their message size is not known on every rank (a rank's degrees and
 * counts are its own), so the first level in tuned mode only asks whether the profile has a rule
 * for the operation at the communicator's size (mg_fast_untouched, as gatherv's); the rest goes
 * through mg_dispatch, which reads the topology (mg_call_neighbors) before the argument check. An
 * intercommunicator, which has no topology, reaches the library's own call, which reports the error.
 */
#include "lib/lib.h"

/* MPI_Neighbor_allgather, MPI_Neighbor_alltoall: one count and datatype per side. */
#define NEIGHBOR_BLOCK_WRAPPER(E, Name, name)                                                                   \
  static MG_ACTIVE int name##_active(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,  \
                                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {                    \
    if (mg_tuned_untouched(MG_##E, comm))                                                                      \
      return PMPI_##Name(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);                    \
    mg_call c;                                                                                                 \
    mg_call_init(&c, MG_##E, comm);                                                                            \
    c.sbuf = sendbuf; c.scount = sendcount; c.stype = sendtype; c.rbuf = recvbuf; c.rcount = recvcount;        \
    c.rtype = recvtype; c.op = MPI_OP_NULL;                                                                    \
    return mg_dispatch(&c);                                                                                    \
  }                                                                                                            \
  MG_EXPORT int MPI_##Name(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,           \
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {                              \
    if (MG_FAST(E, mg_fast_untouched(MG_##E, comm)))                                                           \
      return PMPI_##Name(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);                    \
    MG_SITE;                                                                                                   \
    return name##_active(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);                    \
  }

NEIGHBOR_BLOCK_WRAPPER(NEIGHBOR_ALLGATHER, Neighbor_allgather, neighbor_allgather) /* MPI_Neighbor_allgather */
NEIGHBOR_BLOCK_WRAPPER(NEIGHBOR_ALLTOALL, Neighbor_alltoall, neighbor_alltoall)    /* MPI_Neighbor_alltoall */

static MG_ACTIVE int neighbor_allgatherv_active(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                                                void *recvbuf, const int recvcounts[], const int displs[],
                                                MPI_Datatype recvtype, MPI_Comm comm) {
  if (mg_tuned_untouched(MG_NEIGHBOR_ALLGATHERV, comm))
    return PMPI_Neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  mg_call c;
  mg_call_init(&c, MG_NEIGHBOR_ALLGATHERV, comm);
  c.sbuf = sendbuf; c.scount = sendcount; c.stype = sendtype; c.rbuf = recvbuf; c.rcounts = recvcounts;
  c.rdispls = displs; c.rtype = recvtype; c.op = MPI_OP_NULL;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Neighbor_allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                      const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                      MPI_Comm comm) {
  if (MG_FAST(NEIGHBOR_ALLGATHERV, mg_fast_untouched(MG_NEIGHBOR_ALLGATHERV, comm)))
    return PMPI_Neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  MG_SITE;
  return neighbor_allgatherv_active(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

static MG_ACTIVE int neighbor_alltoallv_active(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                               MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                               const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (mg_tuned_untouched(MG_NEIGHBOR_ALLTOALLV, comm))
    return PMPI_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                   comm);
  mg_call c;
  mg_call_init(&c, MG_NEIGHBOR_ALLTOALLV, comm);
  c.sbuf = sendbuf; c.scounts = sendcounts; c.sdispls = sdispls; c.stype = sendtype; c.rbuf = recvbuf;
  c.rcounts = recvcounts; c.rdispls = rdispls; c.rtype = recvtype; c.op = MPI_OP_NULL;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Neighbor_alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                     MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                     const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (MG_FAST(NEIGHBOR_ALLTOALLV, mg_fast_untouched(MG_NEIGHBOR_ALLTOALLV, comm)))
    return PMPI_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                   comm);
  MG_SITE;
  return neighbor_alltoallv_active(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype,
                                   comm);
}

static MG_ACTIVE int neighbor_alltoallw_active(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                               const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
                                               MPI_Comm comm) {
  if (mg_tuned_untouched(MG_NEIGHBOR_ALLTOALLW, comm))
    return PMPI_Neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                                   comm);
  mg_call c;
  mg_call_init(&c, MG_NEIGHBOR_ALLTOALLW, comm);
  c.sbuf = sendbuf; c.scounts = sendcounts; c.sadispls = sdispls; c.stypes = sendtypes;
  c.stype = MPI_DATATYPE_NULL; c.rbuf = recvbuf; c.rcounts = recvcounts; c.radispls = rdispls;
  c.rtypes = recvtypes; c.rtype = MPI_DATATYPE_NULL; c.op = MPI_OP_NULL;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Neighbor_alltoallw(const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                                     const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                     const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  if (MG_FAST(NEIGHBOR_ALLTOALLW, mg_fast_untouched(MG_NEIGHBOR_ALLTOALLW, comm)))
    return PMPI_Neighbor_alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                                   comm);
  MG_SITE;
  return neighbor_alltoallw_active(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes,
                                   comm);
}
