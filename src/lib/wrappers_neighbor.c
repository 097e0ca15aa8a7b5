/*
 * The PMPI layer of the blocking neighbourhood collectives (registry.h, MG_NEIGHBOR_OPS): the same
 * two levels as wrappers.c's. Their message size is not known on every rank (a rank's degrees and
 * counts are its own), so the first level in tuned mode only asks whether the profile has a rule
 * for the operation at the communicator's size (mg_fast_untouched, as gatherv's); the rest goes
 * through mg_dispatch, which reads the topology (mg_call_neighbors) before the argument check. An
 * intercommunicator, which has no topology, reaches the library's own call, which reports the error.
 */
#include "lib/lib.h"

/* One operation's two levels: the first asks only whether anything touches the operation here,
 * the second fills the call descriptor (FIELDS: assignments to c) and dispatches. PARAMS and ARGS
 * are the C binding's parameter list and the same names as arguments, in parentheses. */
#define NEIGHBOR_WRAPPER(E, Name, name, PARAMS, ARGS, FIELDS)                                                 \
  static MG_ACTIVE int name##_active PARAMS {                                                                 \
    if (mg_tuned_untouched(MG_##E, comm)) return PMPI_##Name ARGS;                                           \
    mg_call c;                                                                                               \
    mg_call_init(&c, MG_##E, comm);                                                                          \
    FIELDS;                                                                                                  \
    c.op = MPI_OP_NULL;                                                                                      \
    return mg_dispatch(&c);                                                                                  \
  }                                                                                                          \
  MG_EXPORT int MPI_##Name PARAMS {                                                                          \
    if (MG_FAST(E, mg_fast_untouched(MG_##E, comm))) return PMPI_##Name ARGS;                                \
    MG_SITE;                                                                                                 \
    return name##_active ARGS;                                                                               \
  }

/* MPI_Neighbor_allgather, MPI_Neighbor_alltoall: one count and datatype per side. */
#define BLOCK_PARAMS                                                                                         \
  (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, \
   MPI_Comm comm)
#define BLOCK_ARGS (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm)
#define BLOCK_FIELDS                                                                                         \
  c.sbuf = sendbuf, c.scount = sendcount, c.stype = sendtype, c.rbuf = recvbuf, c.rcount = recvcount,           \
  c.rtype = recvtype
NEIGHBOR_WRAPPER(NEIGHBOR_ALLGATHER, Neighbor_allgather, neighbor_allgather, BLOCK_PARAMS, BLOCK_ARGS, BLOCK_FIELDS)
NEIGHBOR_WRAPPER(NEIGHBOR_ALLTOALL, Neighbor_alltoall, neighbor_alltoall, BLOCK_PARAMS, BLOCK_ARGS, BLOCK_FIELDS)

NEIGHBOR_WRAPPER(NEIGHBOR_ALLGATHERV, Neighbor_allgatherv, neighbor_allgatherv,
                 (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                  const int displs[], MPI_Datatype recvtype, MPI_Comm comm),
                 (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),
                 c.sbuf = sendbuf; c.scount = sendcount; c.stype = sendtype; c.rbuf = recvbuf;
                 c.rcounts = recvcounts; c.rdispls = displs; c.rtype = recvtype)

NEIGHBOR_WRAPPER(NEIGHBOR_ALLTOALLV, Neighbor_alltoallv, neighbor_alltoallv,
                 (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                  void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm),
                 (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm),
                 c.sbuf = sendbuf; c.scounts = sendcounts; c.sdispls = sdispls; c.stype = sendtype;
                 c.rbuf = recvbuf; c.rcounts = recvcounts; c.rdispls = rdispls; c.rtype = recvtype)

/* neighbor_alltoallw: MPI_Aint byte displacements and a datatype per neighbour (registry.h) */
NEIGHBOR_WRAPPER(NEIGHBOR_ALLTOALLW, Neighbor_alltoallw, neighbor_alltoallw,
                 (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                  const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
                  const MPI_Datatype recvtypes[], MPI_Comm comm),
                 (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm),
                 c.sbuf = sendbuf; c.scounts = sendcounts; c.sadispls = sdispls; c.stypes = sendtypes;
                 c.stype = MPI_DATATYPE_NULL; c.rbuf = recvbuf; c.rcounts = recvcounts; c.radispls = rdispls;
                 c.rtypes = recvtypes; c.rtype = MPI_DATATYPE_NULL)
