/*
 * The PMPI layer: the MPI_* functions libmpiguide defines. Each exported function
 * first tests its operation's path byte (lib.h, MG_FAST): with nothing set for
 * the operation it is a tail call of its PMPI_ twin; in force mode for another
 * operation a count and the tail call; in tuned mode the inline first level
 * (mg_fast_default, mg_fast_untouched) tail-calls it when no rule applies. The
 * rest of each wrapper is its <collective>_active function, out of line, whose
 * second level (lib.h: mg_tuned_default for the one-count collectives and
 * barrier, mg_tuned_default_p2p for the point-to-point operations,
 * mg_tuned_untouched for the others) settles what the first could not; otherwise
 * the call is described as an mg_call and goes through mg_dispatch(). These
 * are the only symbols besides the public mpiguide_* API that the library
 * exports (fortran.c adds Open MPI's Fortran entry points).
 */
#include "lib/lib.h"
#include "mpiguide.h"


/* MPIGUIDE_PROGRESS=thread (src/algs/sched.c): libmpiguide's progress thread calls MPI beside the
 * application's threads, so MPI_THREAD_MULTIPLE is asked for, and the level given is what the
 * application is told (MPI-3.1 §12.4.3: provided may exceed required). */
MG_EXPORT int MPI_Init(int *argc, char ***argv) {
  if (mg_progress_wanted()) {
    int provided = MPI_THREAD_SINGLE;
    int rc = PMPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
    if (rc == MPI_SUCCESS) mg_lib_init(provided);
    return rc;
  }
  int rc = PMPI_Init(argc, argv);
  if (rc == MPI_SUCCESS) mg_lib_init(MPI_THREAD_SINGLE);
  return rc;
}

MG_EXPORT int MPI_Init_thread(int *argc, char ***argv, int required, int *provided) {
  int rc = PMPI_Init_thread(argc, argv, mg_progress_wanted() ? MPI_THREAD_MULTIPLE : required, provided);
  if (rc == MPI_SUCCESS) mg_lib_init(*provided);
  return rc;
}

MG_EXPORT int MPI_Finalize(void) {
  mg_lib_finalize();
  return PMPI_Finalize();
}

/* The collectives that share a signature and a path, each pair of functions (the exported MPI_
 * function and its out-of-line active part) written once. */
/* MPI_Allreduce, MPI_Exscan, MPI_Scan: one count and datatype on both sides, an op. */
#define REDUCTION_WRAPPER(E, Name, name)                                                                        \
  static MG_ACTIVE int name##_active(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype,      \
                                     MPI_Op op, MPI_Comm comm) {                                               \
    if (mg_tuned_default(MG_##E, comm, sendbuf, count, datatype, count, datatype, op))                        \
      return PMPI_##Name(sendbuf, recvbuf, count, datatype, op, comm);                                         \
    mg_call c;                                                                                                 \
    mg_call_init(&c, MG_##E, comm);                                                                            \
    c.sbuf = sendbuf; c.scount = count; c.stype = datatype; c.rbuf = recvbuf; c.rcount = count;                \
    c.rtype = datatype; c.op = op;                                                                             \
    return mg_dispatch(&c);                                                                                    \
  }                                                                                                            \
  MG_EXPORT int MPI_##Name(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,     \
                           MPI_Comm comm) {                                                                    \
    if (MG_FAST(E, mg_fast_default(MG_##E, comm, count, datatype)))                                           \
      return PMPI_##Name(sendbuf, recvbuf, count, datatype, op, comm);                                         \
    MG_SITE;                                                                                                   \
    return name##_active(sendbuf, recvbuf, count, datatype, op, comm);                                         \
  }
/* MPI_Allgather, MPI_Alltoall: a block per rank, no root; sized by the receive side. */
#define BLOCK_WRAPPER(E, Name, name)                                                                            \
  static MG_ACTIVE int name##_active(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,  \
                                     int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {                    \
    if (mg_tuned_default(MG_##E, comm, sendbuf, sendcount, sendtype, recvcount, recvtype, MPI_OP_NULL))       \
      return PMPI_##Name(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);                    \
    mg_call c;                                                                                                 \
    mg_call_init(&c, MG_##E, comm);                                                                            \
    c.sbuf = sendbuf; c.scount = sendcount; c.stype = sendtype; c.rbuf = recvbuf; c.rcount = recvcount;        \
    c.rtype = recvtype; c.op = MPI_OP_NULL;                                                                    \
    return mg_dispatch(&c);                                                                                    \
  }                                                                                                            \
  MG_EXPORT int MPI_##Name(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,           \
                           int recvcount, MPI_Datatype recvtype, MPI_Comm comm) {                              \
    if (MG_FAST(E, mg_fast_default(MG_##E, comm, recvcount, recvtype)))                                       \
      return PMPI_##Name(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);                    \
    MG_SITE;                                                                                                   \
    return name##_active(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);                    \
  }
/* MPI_Gather, MPI_Scatter: a block per rank and a root; the size is not known on every rank, so
 * the first level only asks whether the profile touches the operation. */
#define ROOTED_BLOCK_WRAPPER(E, Name, name)                                                                     \
  static MG_ACTIVE int name##_active(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,  \
                                     int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {          \
    if (mg_tuned_untouched(MG_##E, comm))                                                                      \
      return PMPI_##Name(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);              \
    mg_call c;                                                                                                 \
    mg_call_init(&c, MG_##E, comm);                                                                            \
    c.sbuf = sendbuf; c.scount = sendcount; c.stype = sendtype; c.rbuf = recvbuf; c.rcount = recvcount;        \
    c.rtype = recvtype; c.op = MPI_OP_NULL; c.root = root;                                                     \
    return mg_dispatch(&c);                                                                                    \
  }                                                                                                            \
  MG_EXPORT int MPI_##Name(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,           \
                           int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {                    \
    if (MG_FAST(E, mg_fast_untouched(MG_##E, comm)))                                                           \
      return PMPI_##Name(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);              \
    MG_SITE;                                                                                                   \
    return name##_active(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm);              \
  }

BLOCK_WRAPPER(ALLGATHER, Allgather, allgather) /* MPI_Allgather */

static MG_ACTIVE int allgatherv_active(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                       const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                                       MPI_Comm comm) {
  if (mg_tuned_untouched(MG_ALLGATHERV, comm))
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  mg_call c;
  mg_call_init(&c, MG_ALLGATHERV, comm);
  c.sbuf = sendbuf; c.scount = sendcount; c.stype = sendtype; c.rbuf = recvbuf; c.rcounts = recvcounts;
  c.rdispls = displs; c.rtype = recvtype; c.op = MPI_OP_NULL;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (MG_FAST(ALLGATHERV, mg_fast_untouched(MG_ALLGATHERV, comm)))
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
  MG_SITE;
  return allgatherv_active(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

REDUCTION_WRAPPER(ALLREDUCE, Allreduce, allreduce) /* MPI_Allreduce */

BLOCK_WRAPPER(ALLTOALL, Alltoall, alltoall) /* MPI_Alltoall */

static MG_ACTIVE int alltoallv_active(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                      MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
                                      const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm) {
  if (mg_tuned_untouched(MG_ALLTOALLV, comm))
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  mg_call c;
  mg_call_init(&c, MG_ALLTOALLV, comm);
  c.sbuf = sendbuf; c.scounts = sendcounts; c.sdispls = sdispls; c.stype = sendtype; c.rbuf = recvbuf;
  c.rcounts = recvcounts; c.rdispls = rdispls; c.rtype = recvtype; c.op = MPI_OP_NULL;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Alltoallv(const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm) {
  if (MG_FAST(ALLTOALLV, mg_fast_untouched(MG_ALLTOALLV, comm)))
    return PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
  MG_SITE;
  return alltoallv_active(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm);
}

static MG_ACTIVE int alltoallw_active(const void *sendbuf, const int sendcounts[], const int sdispls[],
                                      const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                                      const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  if (mg_tuned_untouched(MG_ALLTOALLW, comm))
    return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
  mg_call c;
  mg_call_init(&c, MG_ALLTOALLW, comm);
  c.sbuf = sendbuf; c.scounts = sendcounts; c.sdispls = sdispls; c.stypes = sendtypes; c.stype = MPI_DATATYPE_NULL;
  c.rbuf = recvbuf; c.rcounts = recvcounts; c.rdispls = rdispls; c.rtypes = recvtypes; c.rtype = MPI_DATATYPE_NULL;
  c.op = MPI_OP_NULL;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Alltoallw(const void *sendbuf, const int sendcounts[], const int sdispls[],
                            const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[],
                            const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm) {
  if (MG_FAST(ALLTOALLW, mg_fast_untouched(MG_ALLTOALLW, comm)))
    return PMPI_Alltoallw(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
  MG_SITE;
  return alltoallw_active(sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm);
}

static MG_ACTIVE int barrier_active(MPI_Comm comm) {
  if (mg_tuned_default_barrier(comm)) return PMPI_Barrier(comm);
  mg_call c;
  mg_call_init(&c, MG_BARRIER, comm);
  c.stype = MPI_DATATYPE_NULL; c.rtype = MPI_DATATYPE_NULL; c.op = MPI_OP_NULL;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Barrier(MPI_Comm comm) {
  if (MG_FAST(BARRIER, mg_fast_lookup_bytes(MG_BARRIER, comm, 0) == MG_FAST_DEFAULT)) return PMPI_Barrier(comm);
  MG_SITE;
  return barrier_active(comm);
}

static MG_ACTIVE int bcast_active(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  if (mg_tuned_default(MG_BCAST, comm, buffer, count, datatype, count, datatype, MPI_OP_NULL))
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  mg_call c;
  mg_call_init(&c, MG_BCAST, comm);
  c.sbuf = buffer; c.scount = count; c.stype = datatype; c.rbuf = buffer; c.rcount = count; c.rtype = datatype;
  c.op = MPI_OP_NULL; c.root = root;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Bcast(void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm) {
  if (MG_FAST(BCAST, mg_fast_default(MG_BCAST, comm, count, datatype)))
    return PMPI_Bcast(buffer, count, datatype, root, comm);
  MG_SITE;
  return bcast_active(buffer, count, datatype, root, comm);
}

REDUCTION_WRAPPER(EXSCAN, Exscan, exscan) /* MPI_Exscan */

ROOTED_BLOCK_WRAPPER(GATHER, Gather, gather) /* MPI_Gather */

static MG_ACTIVE int gatherv_active(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                                    const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                                    MPI_Comm comm) {
  if (mg_tuned_untouched(MG_GATHERV, comm))
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  mg_call c;
  mg_call_init(&c, MG_GATHERV, comm);
  c.sbuf = sendbuf; c.scount = sendcount; c.stype = sendtype; c.rbuf = recvbuf; c.rcounts = recvcounts;
  c.rdispls = displs; c.rtype = recvtype; c.op = MPI_OP_NULL; c.root = root;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Gatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                          const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                          MPI_Comm comm) {
  if (MG_FAST(GATHERV, mg_fast_untouched(MG_GATHERV, comm)))
    return PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
  MG_SITE;
  return gatherv_active(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm);
}

static MG_ACTIVE int reduce_active(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                                   int root, MPI_Comm comm) {
  if (mg_tuned_default(MG_REDUCE, comm, sendbuf, count, datatype, count, datatype, op))
    return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
  mg_call c;
  mg_call_init(&c, MG_REDUCE, comm);
  c.sbuf = sendbuf; c.scount = count; c.stype = datatype; c.rbuf = recvbuf; c.rcount = count; c.rtype = datatype;
  c.op = op; c.root = root;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Reduce(const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                         MPI_Comm comm) {
  if (MG_FAST(REDUCE, mg_fast_default(MG_REDUCE, comm, count, datatype)))
    return PMPI_Reduce(sendbuf, recvbuf, count, datatype, op, root, comm);
  MG_SITE;
  return reduce_active(sendbuf, recvbuf, count, datatype, op, root, comm);
}

static MG_ACTIVE int reduce_scatter_active(const void *sendbuf, void *recvbuf, const int recvcounts[],
                                           MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  if (mg_tuned_untouched(MG_REDUCE_SCATTER, comm))
    return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
  mg_call c;
  mg_call_init(&c, MG_REDUCE_SCATTER, comm);
  c.sbuf = sendbuf; c.rbuf = recvbuf; c.rcounts = recvcounts; c.stype = datatype; c.rtype = datatype; c.op = op;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Reduce_scatter(const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype,
                                 MPI_Op op, MPI_Comm comm) {
  if (MG_FAST(REDUCE_SCATTER, mg_fast_untouched(MG_REDUCE_SCATTER, comm)))
    return PMPI_Reduce_scatter(sendbuf, recvbuf, recvcounts, datatype, op, comm);
  MG_SITE;
  return reduce_scatter_active(sendbuf, recvbuf, recvcounts, datatype, op, comm);
}

static MG_ACTIVE int reduce_scatter_block_active(const void *sendbuf, void *recvbuf, int recvcount,
                                                 MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  if (mg_tuned_default(MG_REDUCE_SCATTER_BLOCK, comm, sendbuf, recvcount, datatype, recvcount, datatype, op))
    return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
  mg_call c;
  mg_call_init(&c, MG_REDUCE_SCATTER_BLOCK, comm);
  c.sbuf = sendbuf; c.scount = recvcount; c.stype = datatype; c.rbuf = recvbuf; c.rcount = recvcount;
  c.rtype = datatype; c.op = op;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Reduce_scatter_block(const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype,
                                       MPI_Op op, MPI_Comm comm) {
  if (MG_FAST(REDUCE_SCATTER_BLOCK, mg_fast_default(MG_REDUCE_SCATTER_BLOCK, comm, recvcount, datatype)))
    return PMPI_Reduce_scatter_block(sendbuf, recvbuf, recvcount, datatype, op, comm);
  MG_SITE;
  return reduce_scatter_block_active(sendbuf, recvbuf, recvcount, datatype, op, comm);
}

REDUCTION_WRAPPER(SCAN, Scan, scan) /* MPI_Scan */

ROOTED_BLOCK_WRAPPER(SCATTER, Scatter, scatter) /* MPI_Scatter */

static MG_ACTIVE int scatterv_active(const void *sendbuf, const int sendcounts[], const int displs[],
                                     MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype,
                                     int root, MPI_Comm comm) {
  if (mg_tuned_untouched(MG_SCATTERV, comm))
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  mg_call c;
  mg_call_init(&c, MG_SCATTERV, comm);
  c.sbuf = sendbuf; c.scounts = sendcounts; c.sdispls = displs; c.stype = sendtype; c.rbuf = recvbuf;
  c.rcount = recvcount; c.rtype = recvtype; c.op = MPI_OP_NULL; c.root = root;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Scatterv(const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm) {
  if (MG_FAST(SCATTERV, mg_fast_untouched(MG_SCATTERV, comm)))
    return PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
  MG_SITE;
  return scatterv_active(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm);
}

/*
 * The point-to-point operations (registry.h, MG_P2P_OPS). They are frequent, so beyond the
 * pass-through test an operation that nothing in this run touches (its mg_ctx.path: no force,
 * trace, counting or profile rule for it) calls PMPI_ at once, in any mode; in tuned mode one
 * that the profile leaves to the default (lib.h: mg_fast_default inline, mg_tuned_default_p2p in
 * the active part) does too, after the lookup. The receive side goes in rbuf/rcount/rtype, the
 * send side in sbuf/scount/stype; dest in root.
 */
/* MPI_Send, MPI_Ssend, MPI_Rsend: one signature. */
#define SEND_WRAPPER(E, Name, name)                                                                            \
  static MG_ACTIVE int name##_active(const void *buf, int count, MPI_Datatype datatype, int dest, int tag,     \
                                     MPI_Comm comm) {                                                          \
    if (mg_tuned_default_p2p(MG_##E, comm, count, datatype, MPI_DATATYPE_NULL))                              \
      return PMPI_##Name(buf, count, datatype, dest, tag, comm);                                               \
    mg_call c;                                                                                                 \
    mg_call_init(&c, MG_##E, comm);                                                                            \
    c.sbuf = buf; c.scount = count; c.stype = datatype; c.rtype = MPI_DATATYPE_NULL; c.op = MPI_OP_NULL;        \
    c.root = dest; c.stag = tag;                                                                               \
    return mg_dispatch(&c);                                                                                    \
  }                                                                                                            \
  MG_EXPORT int MPI_##Name(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm) { \
    if (MG_FAST(E, mg_fast_default(MG_##E, comm, count, datatype)))                                           \
      return PMPI_##Name(buf, count, datatype, dest, tag, comm);                                               \
    MG_SITE;                                                                                                   \
    return name##_active(buf, count, datatype, dest, tag, comm);                                                \
  }
SEND_WRAPPER(SEND, Send, send)
SEND_WRAPPER(SSEND, Ssend, ssend)
SEND_WRAPPER(RSEND, Rsend, rsend)

static MG_ACTIVE int isend_active(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                                  MPI_Request *request) {
  if (mg_tuned_default_p2p(MG_ISEND, comm, count, datatype, MPI_DATATYPE_NULL))
    return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
  mg_call c;
  mg_call_init(&c, MG_ISEND, comm);
  c.sbuf = buf; c.scount = count; c.stype = datatype; c.rtype = MPI_DATATYPE_NULL; c.op = MPI_OP_NULL;
  c.root = dest; c.stag = tag; c.req = request;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Isend(const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                        MPI_Request *request) {
  if (MG_FAST(ISEND, mg_fast_default(MG_ISEND, comm, count, datatype)))
    return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
  MG_SITE;
  return isend_active(buf, count, datatype, dest, tag, comm, request);
}

/* MPI_Recv, MPI_Irecv: one signature but the last argument, a status or a request (field of mg_call). */
#define RECV_WRAPPER(E, Name, name, Last, last, field)                                                        \
  static MG_ACTIVE int name##_active(void *buf, int count, MPI_Datatype datatype, int source, int tag,          \
                                     MPI_Comm comm, Last last) {                                               \
    if (mg_tuned_default_p2p(MG_##E, comm, count, datatype, datatype))                                        \
      return PMPI_##Name(buf, count, datatype, source, tag, comm, last);                                       \
    mg_call c;                                                                                                 \
    mg_call_init(&c, MG_##E, comm);                                                                            \
    c.rbuf = buf; c.rcount = count; c.rtype = datatype; c.stype = MPI_DATATYPE_NULL; c.op = MPI_OP_NULL;        \
    c.src = source; c.rtag = tag; c.field = last;                                                              \
    return mg_dispatch(&c);                                                                                    \
  }                                                                                                            \
  MG_EXPORT int MPI_##Name(void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,      \
                           Last last) {                                                                        \
    if (MG_FAST(E, mg_fast_default(MG_##E, comm, count, datatype)))                                           \
      return PMPI_##Name(buf, count, datatype, source, tag, comm, last);                                       \
    MG_SITE;                                                                                                   \
    return name##_active(buf, count, datatype, source, tag, comm, last);                                       \
  }
RECV_WRAPPER(RECV, Recv, recv, MPI_Status *, status, status)         /* MPI_Recv */
RECV_WRAPPER(IRECV, Irecv, irecv, MPI_Request *, request, req)       /* MPI_Irecv */

static MG_ACTIVE int sendrecv_active(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                                     void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                                     MPI_Comm comm, MPI_Status *status) {
  if (mg_tuned_default_p2p(MG_SENDRECV, comm, sendcount, sendtype, recvtype))
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                         comm, status);
  mg_call c;
  mg_call_init(&c, MG_SENDRECV, comm);
  c.sbuf = sendbuf; c.scount = sendcount; c.stype = sendtype; c.root = dest; c.stag = sendtag;
  c.rbuf = recvbuf; c.rcount = recvcount; c.rtype = recvtype; c.src = source; c.rtag = recvtag;
  c.status = status; c.op = MPI_OP_NULL;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                           void *recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                           MPI_Status *status) {
  if (MG_FAST(SENDRECV, mg_fast_default(MG_SENDRECV, comm, sendcount, sendtype)))
    return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                         comm, status);
  MG_SITE;
  return sendrecv_active(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source, recvtag,
                         comm, status);
}

static MG_ACTIVE int sendrecv_replace_active(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag,
                                             int source, int recvtag, MPI_Comm comm, MPI_Status *status) {
  if (mg_tuned_default_p2p(MG_SENDRECV_REPLACE, comm, count, datatype, datatype))
    return PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
  mg_call c;
  mg_call_init(&c, MG_SENDRECV_REPLACE, comm);
  c.sbuf = buf; c.scount = count; c.stype = datatype; c.root = dest; c.stag = sendtag;
  c.rbuf = buf; c.rcount = count; c.rtype = datatype; c.src = source; c.rtag = recvtag;
  c.status = status; c.op = MPI_OP_NULL;
  return mg_dispatch(&c);
}

MG_EXPORT int MPI_Sendrecv_replace(void *buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                                   int recvtag, MPI_Comm comm, MPI_Status *status) {
  if (MG_FAST(SENDRECV_REPLACE, mg_fast_default(MG_SENDRECV_REPLACE, comm, count, datatype)))
    return PMPI_Sendrecv_replace(buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
  MG_SITE;
  return sendrecv_replace_active(buf, count, datatype, dest, sendtag, source, recvtag, comm, status);
}
