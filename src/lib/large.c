/*
 * MPI-4's large-count bindings, MPI_<Op>_c: the same operations with MPI_Count counts (and
 * MPI_Aint displacements). MPICH 4.0 defines them, and its mpi_f08 binding calls them for a
 * count of kind MPI_COUNT_KIND (mpi_<op>_f08ts_large_, fortran.c); Open MPI 4.1 (MPI 3.1) has
 * none, and this file is empty there (MPI_VERSION, decided when libmpiguide is compiled against
 * the MPI's header).
 *
 * Without them such a call escaped libmpiguide (no trace, force or profile). Each one here, for
 * the operations with one count per side that wrappers.c routes:
 * - with nothing set for the operation (its path byte MG_PATH_PMPI, the same test as the
 *   wrapper's), a tail call of the library's PMPI_<Op>_c, arguments untouched;
 * - with counts that fit an int, the call of wrappers.c's MPI_<Op> with the same arguments, the
 *   program's call noted as the site (as fortran.c does for a binding): traced, forced and tuned
 *   as the int call, with its result (the library's MPI_<Op> and MPI_<Op>_c compute the same;
 *   its default path is then the int binding's, as a program that called MPI_<Op> gets);
 * - with a count past INT_MAX (or below INT_MIN), PMPI_<Op>_c untouched: the mock-ups and the
 *   call descriptor count in int (docs/library.md, "Large counts").
 * The same for their non-blocking and persistent forms (MPI_Iallreduce_c, MPI_Allreduce_init_c, ...,
 * MPI_Ineighbor_alltoall_c, MPI_Neighbor_alltoall_init_c), through the non-blocking operation.
 * The vector collectives' _c forms (MPI_Allgatherv_c ...: arrays of MPI_Count and MPI_Aint) pass
 * through: they would need their arrays converted on every call; so do the neighbourhood ones
 * (MPI_Neighbor_allgatherv_c, _alltoallv_c, _alltoallw_c). MPI_Neighbor_allgather_c and
 * MPI_Neighbor_alltoall_c take the int path where both of this rank's counts fit (no MPI_IN_PLACE
 * there): a neighbour's matching block has the same signature, so its counts fit too unless the
 * ranks describe it with datatypes of different sizes; but the Alltoallv row spans the whole
 * communicator, and a rank of another connected component whose counts pass INT_MAX would take
 * PMPI_<Op>_c while this one's Alltoallv waits for it: not handled (docs/library.md, "Large counts").
 *
 * One row per operation (MG_LARGE_OPS): its registry name, the MPI name (and in lower case), the _c parameters, the
 * arguments, and the test that its significant counts fit.
 */

#include "lib/lib.h"

#if defined(MPI_VERSION) && MPI_VERSION >= 4

typedef const void *CB; /* a send buffer */
typedef MPI_Datatype T;
typedef MPI_Count N;

#define FITS(n) ((n) == (MPI_Count)(int)(n))

/*
 * Which path a call takes must be the same on every rank of a collective: a forced or tuned row
 * runs only where every rank took the int path, and one rank in PMPI_<Op>_c against the others in
 * a mock-up's calls hangs or mixes algorithms. So a count the MPI ignores on this rank never
 * decides: the send count with MPI_IN_PLACE; off the root, a gather's receive count and a
 * scatter's send count; on an intercommunicator's MPI_PROC_NULL ranks every count, at its MPI_ROOT
 * the other side's (a program may leave them unset: any value, past INT_MAX too). The significant
 * counts of a correct call fit on every rank alike unless the ranks describe the same data with
 * datatypes of different sizes and one side's count alone passes INT_MAX: not handled.
 */
enum { ROLE_NONE = -1, ROLE_MEMBER, ROLE_ROOT, ROLE_INTER_ROOT };
static int root_role(int root, MPI_Comm c) {
  if (root == MPI_ROOT) return ROLE_INTER_ROOT;
  if (root == MPI_PROC_NULL) return ROLE_NONE;
  int inter = 0, me = -1;
  if (PMPI_Comm_test_inter(c, &inter) != MPI_SUCCESS || inter) return ROLE_MEMBER; /* the other group's root */
  return PMPI_Comm_rank(c, &me) == MPI_SUCCESS && me == root ? ROLE_ROOT : ROLE_MEMBER;
}
static int gather_fits(CB sb, N sn, N rn, int root, MPI_Comm c) {
  switch (root_role(root, c)) {
  case ROLE_NONE: return 1;
  case ROLE_MEMBER: return FITS(sn);
  case ROLE_INTER_ROOT: return FITS(rn);
  default: return (sb == MPI_IN_PLACE || FITS(sn)) && FITS(rn);
  }
}
static int scatter_fits(N sn, void *rb, N rn, int root, MPI_Comm c) {
  switch (root_role(root, c)) {
  case ROLE_NONE: return 1;
  case ROLE_MEMBER: return FITS(rn);
  case ROLE_INTER_ROOT: return FITS(sn);
  default: return FITS(sn) && (rb == MPI_IN_PLACE || FITS(rn));
  }
}
#define ALL_FITS(sb, sn, rn) (((sb) == MPI_IN_PLACE || FITS(sn)) && FITS(rn))

/* The collectives with one count per side, which have non-blocking and persistent forms too
 * (MG_LARGE_NB below); then the point-to-point operations. */
#define MG_LARGE_OPS(X) MG_LARGE_COLL_OPS(X) MG_LARGE_P2P_OPS(X)
#define MG_LARGE_COLL_OPS(X)                                                                                \
  X(ALLREDUCE, Allreduce, allreduce, (CB sb, void *rb, N n, T t, MPI_Op op, MPI_Comm c), (sb, rb, n, t, op, c), FITS(n)) \
  X(EXSCAN, Exscan, exscan, (CB sb, void *rb, N n, T t, MPI_Op op, MPI_Comm c), (sb, rb, n, t, op, c), FITS(n))       \
  X(SCAN, Scan, scan, (CB sb, void *rb, N n, T t, MPI_Op op, MPI_Comm c), (sb, rb, n, t, op, c), FITS(n))           \
  X(REDUCE_SCATTER_BLOCK, Reduce_scatter_block, reduce_scatter_block, (CB sb, void *rb, N n, T t, MPI_Op op, MPI_Comm c),          \
    (sb, rb, n, t, op, c), FITS(n))                                                                         \
  X(REDUCE, Reduce, reduce, (CB sb, void *rb, N n, T t, MPI_Op op, int root, MPI_Comm c), (sb, rb, n, t, op, root, c), \
    root == MPI_PROC_NULL || FITS(n))                                                                                                \
  X(BCAST, Bcast, bcast, (void *b, N n, T t, int root, MPI_Comm c), (b, n, t, root, c), root == MPI_PROC_NULL || FITS(n)) \
  X(ALLGATHER, Allgather, allgather, (CB sb, N sn, T st, void *rb, N rn, T rt, MPI_Comm c), (sb, sn, st, rb, rn, rt, c), \
    ALL_FITS(sb, sn, rn))                                                                                   \
  X(ALLTOALL, Alltoall, alltoall, (CB sb, N sn, T st, void *rb, N rn, T rt, MPI_Comm c), (sb, sn, st, rb, rn, rt, c),   \
    ALL_FITS(sb, sn, rn))                                                                                   \
  X(GATHER, Gather, gather, (CB sb, N sn, T st, void *rb, N rn, T rt, int root, MPI_Comm c),                        \
    (sb, sn, st, rb, rn, rt, root, c), gather_fits(sb, sn, rn, root, c))                                    \
  X(SCATTER, Scatter, scatter, (CB sb, N sn, T st, void *rb, N rn, T rt, int root, MPI_Comm c),                      \
    (sb, sn, st, rb, rn, rt, root, c), scatter_fits(sn, rb, rn, root, c))                                   \
  X(NEIGHBOR_ALLGATHER, Neighbor_allgather, neighbor_allgather, (CB sb, N sn, T st, void *rb, N rn, T rt, MPI_Comm c),           \
    (sb, sn, st, rb, rn, rt, c), FITS(sn) && FITS(rn))                                                      \
  X(NEIGHBOR_ALLTOALL, Neighbor_alltoall, neighbor_alltoall, (CB sb, N sn, T st, void *rb, N rn, T rt, MPI_Comm c),             \
    (sb, sn, st, rb, rn, rt, c), FITS(sn) && FITS(rn))
#define MG_LARGE_P2P_OPS(X)                                                                                 \
  X(SEND, Send, send, (CB b, N n, T t, int dest, int tag, MPI_Comm c), (b, n, t, dest, tag, c), FITS(n))           \
  X(SSEND, Ssend, ssend, (CB b, N n, T t, int dest, int tag, MPI_Comm c), (b, n, t, dest, tag, c), FITS(n))         \
  X(RSEND, Rsend, rsend, (CB b, N n, T t, int dest, int tag, MPI_Comm c), (b, n, t, dest, tag, c), FITS(n))         \
  X(ISEND, Isend, isend, (CB b, N n, T t, int dest, int tag, MPI_Comm c, MPI_Request *r), (b, n, t, dest, tag, c, r), \
    FITS(n))                                                                                                \
  X(RECV, Recv, recv, (void *b, N n, T t, int src, int tag, MPI_Comm c, MPI_Status *s), (b, n, t, src, tag, c, s),  \
    FITS(n))                                                                                                \
  X(IRECV, Irecv, irecv, (void *b, N n, T t, int src, int tag, MPI_Comm c, MPI_Request *r),                        \
    (b, n, t, src, tag, c, r), FITS(n))                                                                     \
  X(SENDRECV, Sendrecv, sendrecv,                                                                                     \
    (CB sb, N sn, T st, int dest, int stag, void *rb, N rn, T rt, int src, int rtag, MPI_Comm c, MPI_Status *s), \
    (sb, sn, st, dest, stag, rb, rn, rt, src, rtag, c, s), FITS(sn) && FITS(rn))                            \
  X(SENDRECV_REPLACE, Sendrecv_replace, sendrecv_replace,                                                                     \
    (void *b, N n, T t, int dest, int stag, int src, int rtag, MPI_Comm c, MPI_Status *s),                  \
    (b, n, t, dest, stag, src, rtag, c, s), FITS(n))

/* The counts convert to int implicitly in the call of MPI_<Op> (its prototype), after the test.
 * The site is the program's call, or the one an mpi_f08 binding noted (fortran.c), as MG_SITE. */
#define LARGE_WRAPPER(E, Name, low, params, args, fits)                                                          \
  MG_EXPORT int MPI_##Name##_c params {                                                                     \
    if (__builtin_expect(mg_the_ctx.path[MG_##E] == MG_PATH_PMPI, 1) || !(fits)) return PMPI_##Name##_c args; \
    void *outer = mg_fortran_site;                                                                          \
    mg_fortran_site = outer ? outer : __builtin_return_address(0);                                          \
    int rc = MPI_##Name args;                                                                               \
    mg_fortran_site = outer;                                                                                \
    return rc;                                                                                              \
  }
MG_LARGE_OPS(LARGE_WRAPPER)

/*
 * The non-blocking forms MPI_I<Op>_c (MPI_Ineighbor_allgather_c ...) and the persistent
 * MPI_<Op>_init_c of the same collectives (issue 48), generated from the same rows: the request
 * (and the info) after the blocking parameters, the same test of the counts, the path byte of the
 * non-blocking operation (registry.h, MG_NBC_OPS and MG_INEIGHBOR_OPS: a persistent collective is
 * its non-blocking operation's), and where they fit the call of wrappers_nbc.c's MPI_I<Op> or
 * MPI_<Op>_init.
 */
#define MG_UNPAREN(...) __VA_ARGS__
#define LARGE_NB_WRAPPERS(E, Name, low, params, args, fits)                                                     \
  MG_EXPORT int MPI_I##low##_c(MG_UNPAREN params, MPI_Request *rq) {                                        \
    if (__builtin_expect(mg_the_ctx.path[MG_I##E] == MG_PATH_PMPI, 1) || !(fits))                            \
      return PMPI_I##low##_c(MG_UNPAREN args, rq);                                                          \
    void *outer = mg_fortran_site;                                                                          \
    mg_fortran_site = outer ? outer : __builtin_return_address(0);                                          \
    int rc = MPI_I##low(MG_UNPAREN args, rq);                                                               \
    mg_fortran_site = outer;                                                                                \
    return rc;                                                                                              \
  }                                                                                                         \
  MG_EXPORT int MPI_##Name##_init_c(MG_UNPAREN params, MPI_Info info, MPI_Request *rq) {                    \
    if (__builtin_expect(mg_the_ctx.path[MG_I##E] == MG_PATH_PMPI, 1) || !(fits))                            \
      return PMPI_##Name##_init_c(MG_UNPAREN args, info, rq);                                                \
    void *outer = mg_fortran_site;                                                                          \
    mg_fortran_site = outer ? outer : __builtin_return_address(0);                                          \
    int rc = MPI_##Name##_init(MG_UNPAREN args, info, rq);                                                   \
    mg_fortran_site = outer;                                                                                \
    return rc;                                                                                              \
  }
MG_LARGE_COLL_OPS(LARGE_NB_WRAPPERS)

#endif
