/*
 * The PMPI layer: the MPI_* functions libmpiguide defines. With nothing set in
 * the environment each collective is a tail call of its PMPI_ twin; in tuned
 * mode a call the profile leaves to the default is one too, once the fast
 * path (lib.h: mg_tuned_default for the one-count collectives and barrier,
 * mg_tuned_untouched for the others) has seen that no rule applies; otherwise
 * the call is described as an mg_call and goes through mg_dispatch(). These
 * are the only symbols besides the public mpiguide_* API that the library
 * exports.
 */
#include "lib/lib.h"
#include "mpiguide.h"

#define MG_EXPORT __attribute__((visibility("default")))
#define PASS_THROUGH (__builtin_expect(!mg_the_ctx.active, 1))

MG_EXPORT int MPI_Init(int *argc, char ***argv) {
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) mg_lib_init(MPI_THREAD_SINGLE);
  return rc;
}

MG_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int rc = PMPI_Init_thread(argc, argv, required, provided);
  if (rc == MPI_SUCCESS) mg_lib_init(*provided);
  return rc;
}

MG_EXPORT int MPI_Finalize(void) {
  mg_lib_finalize();
  return PMPI_Finalize();
}

MG_EXPORT int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                            int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (PASS_THROUGH ||
      mg_tuned_default(MG_ALLGATHER, comm, sendbuf, sendcount, sendtype, recvcount, recvtype, MPI_OP_NULL))
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  mg_call c = {.coll = MG_ALLGATHER, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
               .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype, .op = MPI_OP_NULL, .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (PASS_THROUGH || mg_tuned_untouched(MG_ALLGATHERV, comm))
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  mg_call c = {.coll = MG_ALLGATHERV, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype, .rbuf = recvbuf,
               .rcounts = recvcounts, .rdispls = displs, .rtype = recvtype, .op = MPI_OP_NULL, .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                            MPI_Comm comm) {
  if (PASS_THROUGH || mg_tuned_default(MG_ALLREDUCE, comm, sendbuf, count, datatype, count, datatype, op))
    return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
  mg_call c = {.coll = MG_ALLREDUCE, .sbuf = sendbuf, .scount = count, .stype = datatype,
               .rbuf = recvbuf, .rcount = count, .rtype = datatype, .op = op, .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Alltoall(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {
  if (PASS_THROUGH ||
      mg_tuned_default(MG_ALLTOALL, comm, sendbuf, sendcount, sendtype, recvcount, recvtype, MPI_OP_NULL))
    return PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
  mg_call c = {.coll = MG_ALLTOALL, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
               .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype, .op = MPI_OP_NULL, .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm) {
  if (PASS_THROUGH || mg_tuned_untouched(MG_ALLTOALLV, comm))
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  mg_call c = {.coll = MG_ALLTOALLV, .sbuf = sendbuf, .scounts = sendcounts, .sdispls = sdispls, .stype = sendtype,
               .rbuf = recvbuf, .rcounts = recvcounts, .rdispls = rdispls, .rtype = recvtype, .op = MPI_OP_NULL,
               .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[],
                            const MPI_Datatype recvtypes[], MPI_Comm comm) {
  if (PASS_THROUGH || mg_tuned_untouched(MG_ALLTOALLW, comm))
    return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
  mg_call c = {.coll = MG_ALLTOALLW, .sbuf = sendbuf, .scounts = sendcounts, .sdispls = sdispls,
               .stypes = sendtypes, .stype = MPI_DATATYPE_NULL, .rbuf = recvbuf, .rcounts = recvcounts,
               .rdispls = rdispls, .rtypes = recvtypes, .rtype = MPI_DATATYPE_NULL, .op = MPI_OP_NULL, .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Barrier(MPI_Comm comm) {
  if (PASS_THROUGH || mg_tuned_default_barrier(comm))
    return PMPI_Barrier(comm);
  mg_call c = {.coll = MG_BARRIER, .stype = MPI_DATATYPE_NULL, .rtype = MPI_DATATYPE_NULL, .op = MPI_OP_NULL,
               .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  if (PASS_THROUGH || mg_tuned_default(MG_BCAST, comm, buffer, count, datatype, count, datatype, MPI_OP_NULL))
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  mg_call c = {.coll = MG_BCAST, .sbuf = buffer, .scount = count, .stype = datatype, .rbuf = buffer,
               .rcount = count, .rtype = datatype, .op = MPI_OP_NULL, .root = root, .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Exscan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                         MPI_Comm comm) {
  if (PASS_THROUGH || mg_tuned_default(MG_EXSCAN, comm, sendbuf, count, datatype, count, datatype, op))
    return PMPI_Exscan(sendbuf, recvbuf, count, datatype, op, comm);
  mg_call c = {.coll = MG_EXSCAN, .sbuf = sendbuf, .scount = count, .stype = datatype, .rbuf = recvbuf,
               .rcount = count, .rtype = datatype, .op = op, .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Gather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (PASS_THROUGH || mg_tuned_untouched(MG_GATHER, comm))
    return PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  mg_call c = {.coll = MG_GATHER, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype, .rbuf = recvbuf,
               .rcount = recvcount, .rtype = recvtype, .op = MPI_OP_NULL, .root = root, .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (PASS_THROUGH || mg_tuned_untouched(MG_GATHERV, comm))
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  mg_call c = {.coll = MG_GATHERV, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype, .rbuf = recvbuf,
               .rcounts = recvcounts, .rdispls = displs, .rtype = recvtype, .op = MPI_OP_NULL, .root = root,
               .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                         int root, MPI_Comm comm) {
  if (PASS_THROUGH || mg_tuned_default(MG_REDUCE, comm, sendbuf, count, datatype, count, datatype, op))
    return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
  mg_call c = {.coll = MG_REDUCE, .sbuf = sendbuf, .scount = count, .stype = datatype, .rbuf = recvbuf,
               .rcount = count, .rtype = datatype, .op = op, .root = root, .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm) {
  if (PASS_THROUGH || mg_tuned_untouched(MG_REDUCE_SCATTER, comm))
    return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
  mg_call c = {.coll = MG_REDUCE_SCATTER, .sbuf = sendbuf, .rbuf = recvbuf, .rcounts = recvcounts,
               .stype = datatype, .rtype = datatype, .op = op, .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount,
                                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  if (PASS_THROUGH ||
      mg_tuned_default(MG_REDUCE_SCATTER_BLOCK, comm, sendbuf, recvcount, datatype, recvcount, datatype, op))
    return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
  mg_call c = {.coll = MG_REDUCE_SCATTER_BLOCK, .sbuf = sendbuf, .scount = recvcount, .stype = datatype,
               .rbuf = recvbuf, .rcount = recvcount, .rtype = datatype, .op = op, .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Scan(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                       MPI_Comm comm) {
  if (PASS_THROUGH || mg_tuned_default(MG_SCAN, comm, sendbuf, count, datatype, count, datatype, op))
    return PMPI_Scan(sendbuf, recvbuf, count, datatype, op, comm);
  mg_call c = {.coll = MG_SCAN, .sbuf = sendbuf, .scount = count, .stype = datatype, .rbuf = recvbuf,
               .rcount = count, .rtype = datatype, .op = op, .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Scatter(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (PASS_THROUGH || mg_tuned_untouched(MG_SCATTER, comm))
    return PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);
  mg_call c = {.coll = MG_SCATTER, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype, .rbuf = recvbuf,
               .rcount = recvcount, .rtype = recvtype, .op = MPI_OP_NULL, .root = root, .comm = comm};
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (PASS_THROUGH || mg_tuned_untouched(MG_SCATTERV, comm))
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  mg_call c = {.coll = MG_SCATTERV, .sbuf = sendbuf, .scounts = sendcounts, .sdispls = displs, .stype = sendtype,
               .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype, .op = MPI_OP_NULL, .root = root,
               .comm = comm};
  return mg_dispatch(&c);
}
