/*
 * The PMPI layer of the non-blocking collectives (registry.h, MG_NBC_OPS) and of the persistent
 * collectives: MPI_I<coll> and MPI_<Coll>_init (MPI-4.0: compiled where MPI_VERSION >= 4, MPICH
 * 4.0.2 here) or Open MPI 4.1's MPIX_<Coll>_init (its pcollreq extension: compiled where
 * mpi-ext.h sets OMPI_HAVE_MPI_EXT_PCOLLREQ), as wrappers.c does the blocking ones: the exported
 * function tests its operation's path byte (lib.h, MG_FAST) and tail-calls its PMPI_ twin when
 * nothing is set; in tuned mode the inline first level and the active part's second level settle
 * the calls the profile leaves to the default; the rest is described as an mg_call (with the
 * request, and for a persistent request `persistent` and the info) and goes through mg_dispatch.
 *
 * A persistent collective is the non-blocking operation's: the same registry operation, its rules
 * (a profile's `iallreduce` rules decide MPI_Allreduce_init too), forced by the same name. It
 * decides once, at *_init, from the inputs every rank has alike there (the communicator's size, the
 * message size where `known`, the datatype class and op); the library's persistent request it
 * returns is then started (MPI_Start, MPI_Startall) and completed without libmpiguide deciding
 * anything again (both pass straight to the library; a completion call takes its slow path only
 * while a row's scratch is kept, until MPI_Request_free). Inter-communicators pass through
 * (mg_dispatch: the default).
 */
#include "lib/lib.h"

#if defined(OPEN_MPI)
#include <mpi-ext.h>
#endif

#if defined(MPI_VERSION) && MPI_VERSION >= 4
#define MG_PCOLL 1
#define PCOLL_MPI(Name) MPI_##Name##_init
#define PCOLL_PMPI(Name) PMPI_##Name##_init
#elif defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define MG_PCOLL 1
#define PCOLL_MPI(Name) MPIX_##Name##_init
#define PCOLL_PMPI(Name) PMPIX_##Name##_init
#else
#define MG_PCOLL 0
#endif

#define MG_UNPAREN(...) __VA_ARGS__

/* The library's own call: the persistent form, or the non-blocking one. */
#if MG_PCOLL
#define OWN_CALL(Name, low, args) \
  (persistent ? PCOLL_PMPI(Name)(MG_UNPAREN args, info, request) : PMPI_I##low(MG_UNPAREN args, request))
#define PERSISTENT_ENTRY(E, Name, low, params, args, fast)                                                  \
  MG_EXPORT int PCOLL_MPI(Name)(MG_UNPAREN params, MPI_Info info, MPI_Request *request) {                    \
    if (MG_FAST(I##E, fast)) return PCOLL_PMPI(Name)(MG_UNPAREN args, info, request);                         \
    MG_SITE;                                                                                                  \
    return i##low##_active(MG_UNPAREN args, info, 1, request);                                                  \
  }
#else
#define OWN_CALL(Name, low, args) ((void)persistent, (void)info, PMPI_I##low(MG_UNPAREN args, request))
#define PERSISTENT_ENTRY(E, Name, low, params, args, fast)
#endif

/*
 * One operation: its active part (second level `settled`, then the descriptor filled by `fill`),
 * the exported MPI_I<Name> and the persistent entry, all with the parameters `params` (without
 * the info and the request) passed on as `args`; `fast` the first level.
 */
#define NBC_WRAPPERS(E, Name, low, params, args, fast, settled, fill)                                       \
  static MG_ACTIVE int i##low##_active(MG_UNPAREN params, MPI_Info info, int persistent, MPI_Request *request) { \
    if (settled) return OWN_CALL(Name, low, args);                                                                 \
    mg_call c;                                                                                                \
    mg_call_init(&c, MG_I##E, comm);                                                                          \
    fill;                                                                                                     \
    c.req = request, c.persistent = persistent, c.info = info;                                                \
    return mg_dispatch(&c);                                                                                   \
  }                                                                                                           \
  MG_EXPORT int MPI_I##low(MG_UNPAREN params, MPI_Request *request) {                                        \
    if (MG_FAST(I##E, fast)) return PMPI_I##low(MG_UNPAREN args, request);                                   \
    MG_SITE;                                                                                                  \
    return i##low##_active(MG_UNPAREN args, MPI_INFO_NULL, 0, request);                                         \
  }                                                                                                           \
  PERSISTENT_ENTRY(E, Name, low, params, args, fast)

/* The shapes (wrappers.c's): a reduction, a block per rank, a rooted block per rank. */
#define REDUCTION(E, Name, low)                                                                             \
  NBC_WRAPPERS(E, Name, low,                                                                                \
               (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),  \
               (sendbuf, recvbuf, count, datatype, op, comm), mg_fast_default(MG_I##E, comm, count, datatype),     \
               mg_tuned_default(MG_I##E, comm, sendbuf, count, datatype, count, datatype, op),                     \
               (c.sbuf = sendbuf, c.scount = count, c.stype = datatype, c.rbuf = recvbuf, c.rcount = count,        \
                c.rtype = datatype, c.op = op))
#define BLOCK_SHAPE(E, Name, low, fast, settled)                                                            \
  NBC_WRAPPERS(E, Name, low,                                                                                \
               (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,         \
                MPI_Datatype recvtype, MPI_Comm comm),                                                        \
               (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm), fast, settled,               \
               (c.sbuf = sendbuf, c.scount = sendcount, c.stype = sendtype, c.rbuf = recvbuf,                   \
                c.rcount = recvcount, c.rtype = recvtype, c.op = MPI_OP_NULL))
#define BLOCK(E, Name, low)                                                                                 \
  BLOCK_SHAPE(E, Name, low, mg_fast_default(MG_I##E, comm, recvcount, recvtype),                            \
              mg_tuned_default(MG_I##E, comm, sendbuf, sendcount, sendtype, recvcount, recvtype, MPI_OP_NULL))
/* The v shapes (allgatherv's, alltoallv's), whose size not every rank knows: the first level asks
 * only whether anything touches the operation. */
#define ALLGATHERV_SHAPE(E, Name, low)                                                                      \
  NBC_WRAPPERS(E, Name, low,                                                                                \
               (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[], \
                const int displs[], MPI_Datatype recvtype, MPI_Comm comm),                                    \
               (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm),                     \
               mg_fast_untouched(MG_I##E, comm), mg_tuned_untouched(MG_I##E, comm),                            \
               (c.sbuf = sendbuf, c.scount = sendcount, c.stype = sendtype, c.rbuf = recvbuf, c.rcounts = recvcounts, \
                c.rdispls = displs, c.rtype = recvtype, c.op = MPI_OP_NULL))
#define ALLTOALLV_SHAPE(E, Name, low)                                                                       \
  NBC_WRAPPERS(E, Name, low,                                                                                \
               (const void *sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,         \
                void *recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm), \
               (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm),          \
               mg_fast_untouched(MG_I##E, comm), mg_tuned_untouched(MG_I##E, comm),                            \
               (c.sbuf = sendbuf, c.scounts = sendcounts, c.sdispls = sdispls, c.stype = sendtype,              \
                c.rbuf = recvbuf, c.rcounts = recvcounts, c.rdispls = rdispls, c.rtype = recvtype, c.op = MPI_OP_NULL))
#define ROOTED_BLOCK(E, Name, low)                                                                          \
  NBC_WRAPPERS(E, Name, low,                                                                                \
               (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,         \
                MPI_Datatype recvtype, int root, MPI_Comm comm),                                              \
               (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm),                        \
               mg_fast_untouched(MG_I##E, comm), mg_tuned_untouched(MG_I##E, comm),                            \
               (c.sbuf = sendbuf, c.scount = sendcount, c.stype = sendtype, c.rbuf = recvbuf,                   \
                c.rcount = recvcount, c.rtype = recvtype, c.op = MPI_OP_NULL, c.root = root))

BLOCK(ALLGATHER, Allgather, allgather) /* MPI_Iallgather, MPI(X)_Allgather_init */
ALLGATHERV_SHAPE(ALLGATHERV, Allgatherv, allgatherv) /* MPI_Iallgatherv, MPI(X)_Allgatherv_init */
REDUCTION(ALLREDUCE, Allreduce, allreduce) /* MPI_Iallreduce, MPI(X)_Allreduce_init */
BLOCK(ALLTOALL, Alltoall, alltoall)        /* MPI_Ialltoall, MPI(X)_Alltoall_init */
ALLTOALLV_SHAPE(ALLTOALLV, Alltoallv, alltoallv) /* MPI_Ialltoallv, MPI(X)_Alltoallv_init */
NBC_WRAPPERS(ALLTOALLW, Alltoallw, alltoallw,
             (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
              void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm),
             (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm),
             mg_fast_untouched(MG_IALLTOALLW, comm), mg_tuned_untouched(MG_IALLTOALLW, comm),
             (c.sbuf = sendbuf, c.scounts = sendcounts, c.sdispls = sdispls, c.stypes = sendtypes,
              c.stype = MPI_DATATYPE_NULL, c.rbuf = recvbuf, c.rcounts = recvcounts, c.rdispls = rdispls,
              c.rtypes = recvtypes, c.rtype = MPI_DATATYPE_NULL, c.op = MPI_OP_NULL))

/* MPI_Ibarrier has no parameter but the communicator: written out (the macro's lists need one). */
static MG_ACTIVE int ibarrier_active(MPI_Comm comm, MPI_Info info, int persistent, MPI_Request *request) {
  if (mg_tuned_default_barrier_of(MG_IBARRIER, comm)) return OWN_CALL(Barrier, barrier, (comm));
  mg_call c;
  mg_call_init(&c, MG_IBARRIER, comm);
  c.stype = MPI_DATATYPE_NULL, c.rtype = MPI_DATATYPE_NULL, c.op = MPI_OP_NULL;
  c.req = request, c.persistent = persistent, c.info = info;
  return mg_dispatch(&c);
}
MG_EXPORT int MPI_Ibarrier(MPI_Comm comm, MPI_Request *request) {
  if (MG_FAST(IBARRIER, mg_fast_lookup_bytes(MG_IBARRIER, comm, 0) == MG_FAST_DEFAULT))
    return PMPI_Ibarrier(comm, request);
  MG_SITE;
  return ibarrier_active(comm, MPI_INFO_NULL, 0, request);
}
PERSISTENT_ENTRY(BARRIER, Barrier, barrier, (MPI_Comm comm), (comm),
                 mg_fast_lookup_bytes(MG_IBARRIER, comm, 0) == MG_FAST_DEFAULT)

NBC_WRAPPERS(BCAST, Bcast, bcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm),
             (buffer, count, datatype, root, comm), mg_fast_default(MG_IBCAST, comm, count, datatype),
             mg_tuned_default(MG_IBCAST, comm, buffer, count, datatype, count, datatype, MPI_OP_NULL),
             (c.sbuf = buffer, c.scount = count, c.stype = datatype, c.rbuf = buffer, c.rcount = count,
              c.rtype = datatype, c.op = MPI_OP_NULL, c.root = root))
REDUCTION(EXSCAN, Exscan, exscan)     /* MPI_Iexscan, MPI(X)_Exscan_init */
ROOTED_BLOCK(GATHER, Gather, gather) /* MPI_Igather, MPI(X)_Gather_init */
NBC_WRAPPERS(GATHERV, Gatherv, gatherv,
             (const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf, const int recvcounts[],
              const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm),
             (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm),
             mg_fast_untouched(MG_IGATHERV, comm), mg_tuned_untouched(MG_IGATHERV, comm),
             (c.sbuf = sendbuf, c.scount = sendcount, c.stype = sendtype, c.rbuf = recvbuf, c.rcounts = recvcounts,
              c.rdispls = displs, c.rtype = recvtype, c.op = MPI_OP_NULL, c.root = root))
NBC_WRAPPERS(REDUCE, Reduce, reduce,
             (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root, MPI_Comm comm),
             (sendbuf, recvbuf, count, datatype, op, root, comm), mg_fast_default(MG_IREDUCE, comm, count, datatype),
             mg_tuned_default(MG_IREDUCE, comm, sendbuf, count, datatype, count, datatype, op),
             (c.sbuf = sendbuf, c.scount = count, c.stype = datatype, c.rbuf = recvbuf, c.rcount = count,
              c.rtype = datatype, c.op = op, c.root = root))
NBC_WRAPPERS(REDUCE_SCATTER, Reduce_scatter, reduce_scatter,
             (const void *sendbuf, void *recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm),
             (sendbuf, recvbuf, recvcounts, datatype, op, comm), mg_fast_untouched(MG_IREDUCE_SCATTER, comm),
             mg_tuned_untouched(MG_IREDUCE_SCATTER, comm),
             (c.sbuf = sendbuf, c.rbuf = recvbuf, c.rcounts = recvcounts, c.stype = datatype, c.rtype = datatype,
              c.op = op))
NBC_WRAPPERS(REDUCE_SCATTER_BLOCK, Reduce_scatter_block, reduce_scatter_block,
             (const void *sendbuf, void *recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm),
             (sendbuf, recvbuf, recvcount, datatype, op, comm),
             mg_fast_default(MG_IREDUCE_SCATTER_BLOCK, comm, recvcount, datatype),
             mg_tuned_default(MG_IREDUCE_SCATTER_BLOCK, comm, sendbuf, recvcount, datatype, recvcount, datatype, op),
             (c.sbuf = sendbuf, c.scount = recvcount, c.stype = datatype, c.rbuf = recvbuf, c.rcount = recvcount,
              c.rtype = datatype, c.op = op))
REDUCTION(SCAN, Scan, scan)             /* MPI_Iscan, MPI(X)_Scan_init */
ROOTED_BLOCK(SCATTER, Scatter, scatter) /* MPI_Iscatter, MPI(X)_Scatter_init */
NBC_WRAPPERS(SCATTERV, Scatterv, scatterv,
             (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf,
              int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm),
             (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm),
             mg_fast_untouched(MG_ISCATTERV, comm), mg_tuned_untouched(MG_ISCATTERV, comm),
             (c.sbuf = sendbuf, c.scounts = sendcounts, c.sdispls = displs, c.stype = sendtype, c.rbuf = recvbuf,
              c.rcount = recvcount, c.rtype = recvtype, c.op = MPI_OP_NULL, c.root = root))

/* The non-blocking neighbourhood collectives (MG_INEIGHBOR_OPS): MPI_Ineighbor_<op> and
 * MPI(X)_Neighbor_<op>_init. Their size is not known on every rank (wrappers_neighbor.c), so the
 * first level asks only whether anything touches the operation here; mg_dispatch reads the
 * topology. */
#define NEIGHBOR_BLOCK(E, Name, low) BLOCK_SHAPE(E, Name, low, mg_fast_untouched(MG_I##E, comm), mg_tuned_untouched(MG_I##E, comm))
NEIGHBOR_BLOCK(NEIGHBOR_ALLGATHER, Neighbor_allgather, neighbor_allgather)
NEIGHBOR_BLOCK(NEIGHBOR_ALLTOALL, Neighbor_alltoall, neighbor_alltoall)
ALLGATHERV_SHAPE(NEIGHBOR_ALLGATHERV, Neighbor_allgatherv, neighbor_allgatherv)
ALLTOALLV_SHAPE(NEIGHBOR_ALLTOALLV, Neighbor_alltoallv, neighbor_alltoallv)
NBC_WRAPPERS(NEIGHBOR_ALLTOALLW, Neighbor_alltoallw, neighbor_alltoallw,
             (const void *sendbuf, const int sendcounts[], const MPI_Aint sdispls[], const MPI_Datatype sendtypes[],
              void *recvbuf, const int recvcounts[], const MPI_Aint rdispls[], const MPI_Datatype recvtypes[],
              MPI_Comm comm),
             (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm),
             mg_fast_untouched(MG_INEIGHBOR_ALLTOALLW, comm), mg_tuned_untouched(MG_INEIGHBOR_ALLTOALLW, comm),
             (c.sbuf = sendbuf, c.scounts = sendcounts, c.sadispls = sdispls, c.stypes = sendtypes,
              c.stype = MPI_DATATYPE_NULL, c.rbuf = recvbuf, c.rcounts = recvcounts, c.radispls = rdispls,
              c.rtypes = recvtypes, c.rtype = MPI_DATATYPE_NULL, c.op = MPI_OP_NULL))
