/*
 * The Fortran entry points libmpiguide defines, so that a Fortran program's
 * calls take the same path as a C program's (force, profile, trace alike).
 *
 * Which Fortran calls reach the C MPI_ functions (read from the Debian
 * libraries' dynamic symbols and the calls in their code, objdump -d; see
 * docs/library.md, "Fortran programs"):
 *
 * - MPICH 4.0 (libmpichfort): mpif.h and `use mpi` call mpi_<op>_ (with the
 *   aliases mpi_<op>__, mpi_<op>, MPI_<OP> and pmpi_<op>_ at the same address);
 *   that code maps MPIR_F_MPI_IN_PLACE and MPIR_F_MPI_BOTTOM to the C
 *   sentinels, converts the handles and calls the C MPI_<Op> through the PLT.
 *   `use mpi_f08` calls mpi_<op>_f08ts_, which calls MPI_<Op> too. So
 *   wrappers.c already sees every MPICH Fortran operation, and MPI_Init from
 *   mpif.h and `use mpi` (mpi_init_ calls MPI_Init); this file defines the
 *   bindings' names only to note the program's call site (below).
 * - Open MPI 4.1 (libmpi_mpifh): mpi_<op>_, mpi_<op>__, mpi_<op>, MPI_<OP> and
 *   pmpi_<op>_ ... are weak aliases of ompi_<op>_f, which calls PMPI_<Op>, the
 *   library's own C entry: not one Fortran call, not even MPI_INIT, reaches
 *   wrappers.c. `use mpi` (libmpi_usempi_ignore_tkr) declares interfaces only,
 *   so the program calls mpi_<op>_ as mpif.h does; `use mpi_f08` calls
 *   mpi_<op>_f08_ (libmpi_usempif08), which calls ompi_<op>_f through the PLT.
 *
 * - MPICH 4.0's mpi_f08 bindings of MPI_Init, MPI_Init_thread, MPI_Finalize and MPI_Barrier
 *   (of the operations libmpiguide intercepts, those only) call PMPI_Init, PMPI_Init_thread,
 *   PMPI_Finalize and PMPI_Barrier: libmpiguide would never be set up, and every call would
 *   pass through. This file defines those four for MPICH.
 *
 * So for Open MPI this file defines, for MPI_Init, MPI_Init_thread,
 * MPI_Finalize and every operation wrappers.c intercepts, one function under
 * the name ompi_<op>_f (which catches mpi_f08) with the four mpif.h manglings
 * as aliases. Pass-through (libmpiguide inactive, or a point-to-point
 * operation nothing touches) is a test and a tail call of the library's own
 * binding pmpi_<op>_ (a weak reference: libmpi_mpifh is loaded whenever a
 * Fortran binding is called), so the call reaches Open MPI exactly as without
 * libmpiguide. Otherwise the call is converted (handles by PMPI_*_f2c; the
 * addresses of the Fortran sentinels mpi_fortran_in_place_ and
 * mpi_fortran_bottom_, the common blocks of mpif.h that every Fortran module
 * of Open MPI refers to, become MPI_IN_PLACE and MPI_BOTTOM; MPI_F_STATUS_IGNORE
 * becomes MPI_STATUS_IGNORE; statuses and requests are converted back) and
 * goes to the C MPI_<Op> of wrappers.c, whose return code is the ierror.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/acct.h" /* mg_acct_keep_also */
#include "registry/algorithms_other.h" /* mg_nbc_alloc */
#include "lib/lib.h"

#if defined(OPEN_MPI)
#include <mpi-ext.h> /* OMPI_HAVE_MPI_EXT_PCOLLREQ: the persistent collectives' MPIX_ bindings */

_Static_assert(sizeof(MPI_Fint) == sizeof(int), "Fortran count arrays are passed on as int arrays");

/* The Fortran sentinels: only their addresses matter. gfortran names the common blocks with one
 * trailing underscore, the only spelling Debian's Open MPI defines (libmpi.so, and copies in the
 * Fortran libraries and programs that the dynamic linker resolves to one). */
extern char mpi_fortran_in_place_, mpi_fortran_bottom_;

static inline void *f_buf(void *p) {
  return p == &mpi_fortran_in_place_ ? MPI_IN_PLACE : p == &mpi_fortran_bottom_ ? MPI_BOTTOM : p;
}
#define BUF(p) f_buf(p)
#define COMM(f) PMPI_Comm_f2c(*(f))
#define TYPE(f) PMPI_Type_f2c(*(f))
#define OP(f) PMPI_Op_f2c(*(f))
/* The C status for Fortran status st (in a body that declares MPI_Status cst), and back. */
#define STATUS_IN(st) ((st) == MPI_F_STATUS_IGNORE ? MPI_STATUS_IGNORE : &cst)
#define STATUS_OUT(st) \
  if (rc == MPI_SUCCESS && (st) != MPI_F_STATUS_IGNORE) PMPI_Status_c2f(&cst, (st))

/* MPI_Alltoallw's two arrays of Fortran datatypes as C handles: on the stack up to 64 processes,
 * else one allocation (the active path only; the conversion Open MPI's own binding does too). In
 * place the send types are not significant, and the array may be shorter than p: not read. */
enum { F_TYPES_STACK = 64 };
static int f_alltoallw(void *sb, MPI_Fint *scounts, MPI_Fint *sdispls, MPI_Fint *stypes, void *rb,
                       MPI_Fint *rcounts, MPI_Fint *rdispls, MPI_Fint *rtypes, MPI_Fint *fcomm) {
  MPI_Comm comm = COMM(fcomm);
  int n = 0, inter = 0, rc;
  rc = PMPI_Comm_test_inter(comm, &inter);
  if (rc == MPI_SUCCESS) rc = inter ? PMPI_Comm_remote_size(comm, &n) : PMPI_Comm_size(comm, &n);
  if (rc != MPI_SUCCESS) return rc;
  MPI_Datatype stack[2 * F_TYPES_STACK], *t = stack;
  if (n > F_TYPES_STACK && !(t = malloc(2 * (size_t)n * sizeof *t))) return MPI_ERR_NO_MEM;
  int in = BUF(sb) == MPI_IN_PLACE;
  for (int i = 0; i < n; i++) {
    t[i] = in ? MPI_DATATYPE_NULL : PMPI_Type_f2c(stypes[i]);
    t[n + i] = PMPI_Type_f2c(rtypes[i]);
  }
  rc = MPI_Alltoallw(BUF(sb), scounts, sdispls, t, BUF(rb), rcounts, rdispls, t + n, comm);
  if (t != stack) free(t);
  return rc;
}

/* The non-blocking and persistent alltoallw forms (issue 48): MPI reads the datatype arrays until the
 * operation completes (a persistent one: until MPI_Request_free), so the converted ones come from
 * mg_nbc_alloc and are kept with the request (mg_acct_keep_also), freed by its completion. */
static void f_types(int n, const MPI_Fint *f, int skip, MPI_Datatype *t) {
  for (int i = 0; i < n; i++) t[i] = skip ? MPI_DATATYPE_NULL : PMPI_Type_f2c(f[i]);
}

/* rc: the post's, made before this call with r (not in its arguments: their order is unspecified) */
static int f_kept(int rc, MPI_Request r, MPI_Fint *req, int fn, int persistent, MPI_Datatype *t) {
  if (rc != MPI_SUCCESS) {
    mg_nbc_free(t);
    return rc;
  }
  *req = PMPI_Request_c2f(r);
  mg_acct_keep_also(r, fn, mg_fortran_site, persistent, t);
  return rc;
}

static int f_ialltoallw(void *sb, MPI_Fint *scounts, MPI_Fint *sdispls, MPI_Fint *stypes, void *rb,
                        MPI_Fint *rcounts, MPI_Fint *rdispls, MPI_Fint *rtypes, MPI_Fint *fcomm, MPI_Fint *info,
                        MPI_Fint *req) {
  MPI_Comm comm = COMM(fcomm);
  int n = 0, inter = 0, rc = PMPI_Comm_test_inter(comm, &inter);
  if (rc == MPI_SUCCESS) rc = inter ? PMPI_Comm_remote_size(comm, &n) : PMPI_Comm_size(comm, &n);
  if (rc != MPI_SUCCESS) return rc;
  MPI_Datatype *t = mg_nbc_alloc(2 * (size_t)(n > 0 ? n : 1) * sizeof *t);
  if (!t) return MPI_ERR_NO_MEM;
  f_types(n, stypes, BUF(sb) == MPI_IN_PLACE, t);
  f_types(n, rtypes, 0, t + n);
  MPI_Request r = MPI_REQUEST_NULL;
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
  if (info) {
    rc = MPIX_Alltoallw_init(BUF(sb), scounts, sdispls, t, BUF(rb), rcounts, rdispls, t + n, comm,
                             PMPI_Info_f2c(*info), &r);
    return f_kept(rc, r, req, MG_FN_MPIX_Alltoallw_init, 1, t);
  }
#endif
  rc = MPI_Ialltoallw(BUF(sb), scounts, sdispls, t, BUF(rb), rcounts, rdispls, t + n, comm, &r);
  return f_kept(rc, r, req, MG_FN_MPI_Ialltoallw, 0, t);
}

/* A neighbourhood alltoallw's arrays are the degrees' (the topology says them; without one the call
 * is erroneous and the library says so: no arrays, 0 and 0). */
static void f_degrees(MPI_Comm comm, int *in, int *out) {
  int topo = MPI_UNDEFINED, n = 0, rank = 0, w = 0;
  *in = *out = 0;
  if (PMPI_Topo_test(comm, &topo) != MPI_SUCCESS) return;
  if (topo == MPI_CART && PMPI_Cartdim_get(comm, &n) == MPI_SUCCESS) *in = *out = 2 * n;
  else if (topo == MPI_GRAPH && PMPI_Comm_rank(comm, &rank) == MPI_SUCCESS &&
           PMPI_Graph_neighbors_count(comm, rank, &n) == MPI_SUCCESS)
    *in = *out = n;
  else if (topo == MPI_DIST_GRAPH && PMPI_Dist_graph_neighbors_count(comm, in, out, &w) != MPI_SUCCESS)
    *in = *out = 0;
}

/* how: 0 blocking (the arrays on the stack up to F_TYPES_STACK), 1 non-blocking, 2 persistent */
static int f_neighbor_alltoallw(void *sb, MPI_Fint *scounts, MPI_Aint *sdispls, MPI_Fint *stypes, void *rb,
                                MPI_Fint *rcounts, MPI_Aint *rdispls, MPI_Fint *rtypes, MPI_Fint *fcomm,
                                MPI_Fint *info, MPI_Fint *req, int how) {
  MPI_Comm comm = COMM(fcomm);
  int in, out, rc;
  f_degrees(comm, &in, &out);
  size_t n = (size_t)in + (size_t)out;
  MPI_Datatype stack[2 * F_TYPES_STACK], *t = stack;
  if (how) t = mg_nbc_alloc((n ? n : 1) * sizeof *t);
  else if (n > 2 * F_TYPES_STACK) t = malloc(n * sizeof *t);
  if (!t) return MPI_ERR_NO_MEM;
  f_types(out, stypes, 0, t); /* out-neighbours' send types, then in-neighbours' receive types */
  f_types(in, rtypes, 0, t + out);
  MPI_Request r = MPI_REQUEST_NULL;
  if (how == 0) {
    rc = MPI_Neighbor_alltoallw(BUF(sb), scounts, sdispls, t, BUF(rb), rcounts, rdispls, t + out, comm);
    if (t != stack) free(t);
    return rc;
  }
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
  if (how == 2) {
    rc = MPIX_Neighbor_alltoallw_init(BUF(sb), scounts, sdispls, t, BUF(rb), rcounts, rdispls, t + out, comm,
                                      PMPI_Info_f2c(*info), &r);
    return f_kept(rc, r, req, MG_FN_MPIX_Neighbor_alltoallw_init, 1, t);
  }
#endif
  (void)info;
  rc = MPI_Ineighbor_alltoallw(BUF(sb), scounts, sdispls, t, BUF(rb), rcounts, rdispls, t + out, comm, &r);
  return f_kept(rc, r, req, MG_FN_MPI_Ineighbor_alltoallw, 0, t);
}

#endif

/*
 * X(name, NAME, idle, params, args, body): one row per operation. `idle` is the wrapper's
 * pass-through test (as in wrappers.c), params the Fortran binding's parameters (all by
 * reference, ierr last), args the same names, body a statement that sets rc. Barrier apart from
 * the operations with a choice buffer: MPICH's mpi_f08 names the two kinds differently (below).
 */
typedef MPI_Fint F;
/* The non-blocking collectives (issue 48) as the blocking ones, the request converted back; but
 * the alltoallw forms (their datatype arrays converted and kept until completion, below) and
 * MPI_Ibarrier (below). */
#define MG_FORTRAN_OPS(X) MG_FORTRAN_BARRIER(X) MG_FORTRAN_BUFFER_OPS(X) MG_FORTRAN_NBC_OPS(X) MG_FORTRAN_NEIGHBOR_OPS(X)
#define MG_FORTRAN_BARRIER(X)                                                                               \
  X(barrier, BARRIER, PASS_THROUGH, (F * c, F * ierr), (c, ierr), rc = MPI_Barrier(COMM(c)))                 \
  X(ibarrier, IBARRIER, PASS_THROUGH, (F * c, F *req, F * ierr), (c, req, ierr), {                          \
      MPI_Request r;                                                                                        \
      rc = MPI_Ibarrier(COMM(c), &r);                                                                       \
      if (rc == MPI_SUCCESS) *req = PMPI_Request_c2f(r);                                                    \
    })
/* The blocking collectives (the rows of MG_FORTRAN_NB_COLLS, below, and alltoallw, whose datatype
 * arrays are converted) and the point-to-point operations. */
#define MG_FORTRAN_BUFFER_OPS(X)                                                                            \
  MG_FORTRAN_NB_COLLS(F_AS_BLOCKING, X)                                                                     \
  X(alltoallw, ALLTOALLW, PASS_THROUGH,                                                                     \
    (void *sb, F *scs, F *sds, F *sts, void *rb, F *rcs, F *rds, F *rts, F *c, F *ierr),                    \
    (sb, scs, sds, sts, rb, rcs, rds, rts, c, ierr), rc = f_alltoallw(sb, scs, sds, sts, rb, rcs, rds, rts, c)) \
  X(send, SEND, P2P_IDLE(SEND), (void *b, F *n, F *t, F *dest, F *tag, F *c, F *ierr),                      \
    (b, n, t, dest, tag, c, ierr), rc = MPI_Send(BUF(b), *n, TYPE(t), *dest, *tag, COMM(c)))               \
  X(ssend, SSEND, P2P_IDLE(SSEND), (void *b, F *n, F *t, F *dest, F *tag, F *c, F *ierr),                   \
    (b, n, t, dest, tag, c, ierr), rc = MPI_Ssend(BUF(b), *n, TYPE(t), *dest, *tag, COMM(c)))              \
  X(rsend, RSEND, P2P_IDLE(RSEND), (void *b, F *n, F *t, F *dest, F *tag, F *c, F *ierr),                   \
    (b, n, t, dest, tag, c, ierr), rc = MPI_Rsend(BUF(b), *n, TYPE(t), *dest, *tag, COMM(c)))              \
  X(isend, ISEND, P2P_IDLE(ISEND), (void *b, F *n, F *t, F *dest, F *tag, F *c, F *req, F *ierr),           \
    (b, n, t, dest, tag, c, req, ierr), {                                                                   \
      MPI_Request r;                                                                                        \
      rc = MPI_Isend(BUF(b), *n, TYPE(t), *dest, *tag, COMM(c), &r);                                        \
      if (rc == MPI_SUCCESS) *req = PMPI_Request_c2f(r);                                                    \
    })                                                                                                      \
  X(recv, RECV, P2P_IDLE(RECV), (void *b, F *n, F *t, F *src, F *tag, F *c, F *st, F *ierr),                \
    (b, n, t, src, tag, c, st, ierr), {                                                                     \
      MPI_Status cst;                                                                                       \
      rc = MPI_Recv(BUF(b), *n, TYPE(t), *src, *tag, COMM(c), STATUS_IN(st));                               \
      STATUS_OUT(st);                                                                                       \
    })                                                                                                      \
  X(irecv, IRECV, P2P_IDLE(IRECV), (void *b, F *n, F *t, F *src, F *tag, F *c, F *req, F *ierr),            \
    (b, n, t, src, tag, c, req, ierr), {                                                                    \
      MPI_Request r;                                                                                        \
      rc = MPI_Irecv(BUF(b), *n, TYPE(t), *src, *tag, COMM(c), &r);                                         \
      if (rc == MPI_SUCCESS) *req = PMPI_Request_c2f(r);                                                    \
    })                                                                                                      \
  X(sendrecv, SENDRECV, P2P_IDLE(SENDRECV),                                                                 \
    (void *sb, F *sc, F *sty, F *dest, F *stag, void *rb, F *rc_, F *rty, F *src, F *rtag, F *c, F *st, F *ierr), \
    (sb, sc, sty, dest, stag, rb, rc_, rty, src, rtag, c, st, ierr), {                                      \
      MPI_Status cst;                                                                                       \
      rc = MPI_Sendrecv(BUF(sb), *sc, TYPE(sty), *dest, *stag, BUF(rb), *rc_, TYPE(rty), *src, *rtag, COMM(c), \
                        STATUS_IN(st));                                                                     \
      STATUS_OUT(st);                                                                                       \
    })                                                                                                      \
  X(sendrecv_replace, SENDRECV_REPLACE, P2P_IDLE(SENDRECV_REPLACE),                                         \
    (void *b, F *n, F *t, F *dest, F *stag, F *src, F *rtag, F *c, F *st, F *ierr),                         \
    (b, n, t, dest, stag, src, rtag, c, st, ierr), {                                                        \
      MPI_Status cst;                                                                                       \
      rc = MPI_Sendrecv_replace(BUF(b), *n, TYPE(t), *dest, *stag, *src, *rtag, COMM(c), STATUS_IN(st));    \
      STATUS_OUT(st);                                                                                       \
    })

/*
 * The collectives whose Fortran bindings libmpiguide defines, one row each (issue 48):
 * Y(X, low, UP, Cap, fparams, fargs, cargs): the operation in lower and upper case and as MPI
 * spells it (MPI_<Cap>, MPI_I<low>, MPI(X)_<Cap>_init), the binding's parameters (all by reference)
 * before the ierror (and the request), the same names, and the C call's arguments. From it the
 * blocking bindings (MG_FORTRAN_BUFFER_OPS, MG_FORTRAN_NEIGHBOR_OPS), the non-blocking ones
 * (MG_FORTRAN_NBC_OPS) and the persistent ones (MG_FORTRAN_PERS_OPS: Open MPI's pcollreq
 * mpix_<op>_init, MPI-4.0's mpi_<op>_init). The alltoallw forms are not here (their datatype
 * arrays: the blocking one is converted by f_alltoallw, the others pass through); MPI_Barrier and
 * MPI_Ibarrier are written out above.
 */
#define MG_FUNPAREN(...) __VA_ARGS__
#define MG_FORTRAN_NB_COLLS(Y, X) \
  Y(X, allgather, ALLGATHER, Allgather, (void *sb, F *sc, F *st, void *rb, F *rc_, F *rt, F *c), (sb, sc, st, rb, rc_, rt, c), (BUF(sb), *sc, TYPE(st), BUF(rb), *rc_, TYPE(rt), COMM(c))) \
  Y(X, allgatherv, ALLGATHERV, Allgatherv, (void *sb, F *sc, F *st, void *rb, F *rcs, F *ds, F *rt, F *c), (sb, sc, st, rb, rcs, ds, rt, c), (BUF(sb), *sc, TYPE(st), BUF(rb), rcs, ds, TYPE(rt), COMM(c))) \
  Y(X, allreduce, ALLREDUCE, Allreduce, (void *sb, void *rb, F *n, F *t, F *op, F *c), (sb, rb, n, t, op, c), (BUF(sb), BUF(rb), *n, TYPE(t), OP(op), COMM(c))) \
  Y(X, alltoall, ALLTOALL, Alltoall, (void *sb, F *sc, F *st, void *rb, F *rc_, F *rt, F *c), (sb, sc, st, rb, rc_, rt, c), (BUF(sb), *sc, TYPE(st), BUF(rb), *rc_, TYPE(rt), COMM(c))) \
  Y(X, alltoallv, ALLTOALLV, Alltoallv, (void *sb, F *scs, F *sds, F *st, void *rb, F *rcs, F *rds, F *rt, F *c), (sb, scs, sds, st, rb, rcs, rds, rt, c), (BUF(sb), scs, sds, TYPE(st), BUF(rb), rcs, rds, TYPE(rt), COMM(c))) \
  Y(X, bcast, BCAST, Bcast, (void *b, F *n, F *t, F *root, F *c), (b, n, t, root, c), (BUF(b), *n, TYPE(t), *root, COMM(c))) \
  Y(X, exscan, EXSCAN, Exscan, (void *sb, void *rb, F *n, F *t, F *op, F *c), (sb, rb, n, t, op, c), (BUF(sb), BUF(rb), *n, TYPE(t), OP(op), COMM(c))) \
  Y(X, gather, GATHER, Gather, (void *sb, F *sc, F *st, void *rb, F *rc_, F *rt, F *root, F *c), (sb, sc, st, rb, rc_, rt, root, c), (BUF(sb), *sc, TYPE(st), BUF(rb), *rc_, TYPE(rt), *root, COMM(c))) \
  Y(X, gatherv, GATHERV, Gatherv, (void *sb, F *sc, F *st, void *rb, F *rcs, F *ds, F *rt, F *root, F *c), (sb, sc, st, rb, rcs, ds, rt, root, c), (BUF(sb), *sc, TYPE(st), BUF(rb), rcs, ds, TYPE(rt), *root, COMM(c))) \
  Y(X, reduce, REDUCE, Reduce, (void *sb, void *rb, F *n, F *t, F *op, F *root, F *c), (sb, rb, n, t, op, root, c), (BUF(sb), BUF(rb), *n, TYPE(t), OP(op), *root, COMM(c))) \
  Y(X, reduce_scatter, REDUCE_SCATTER, Reduce_scatter, (void *sb, void *rb, F *rcs, F *t, F *op, F *c), (sb, rb, rcs, t, op, c), (BUF(sb), BUF(rb), rcs, TYPE(t), OP(op), COMM(c))) \
  Y(X, reduce_scatter_block, REDUCE_SCATTER_BLOCK, Reduce_scatter_block, (void *sb, void *rb, F *n, F *t, F *op, F *c), (sb, rb, n, t, op, c), (BUF(sb), BUF(rb), *n, TYPE(t), OP(op), COMM(c))) \
  Y(X, scan, SCAN, Scan, (void *sb, void *rb, F *n, F *t, F *op, F *c), (sb, rb, n, t, op, c), (BUF(sb), BUF(rb), *n, TYPE(t), OP(op), COMM(c))) \
  Y(X, scatter, SCATTER, Scatter, (void *sb, F *sc, F *st, void *rb, F *rc_, F *rt, F *root, F *c), (sb, sc, st, rb, rc_, rt, root, c), (BUF(sb), *sc, TYPE(st), BUF(rb), *rc_, TYPE(rt), *root, COMM(c))) \
  Y(X, scatterv, SCATTERV, Scatterv, (void *sb, F *scs, F *ds, F *st, void *rb, F *rc_, F *rt, F *root, F *c), (sb, scs, ds, st, rb, rc_, rt, root, c), (BUF(sb), scs, ds, TYPE(st), BUF(rb), *rc_, TYPE(rt), *root, COMM(c)))
#define MG_FORTRAN_NB_NEIGHBORS(Y, X) \
  Y(X, neighbor_allgather, NEIGHBOR_ALLGATHER, Neighbor_allgather, (void *sb, F *sc, F *st, void *rb, F *rc_, F *rt, F *c), (sb, sc, st, rb, rc_, rt, c), (BUF(sb), *sc, TYPE(st), BUF(rb), *rc_, TYPE(rt), COMM(c))) \
  Y(X, neighbor_allgatherv, NEIGHBOR_ALLGATHERV, Neighbor_allgatherv, (void *sb, F *sc, F *st, void *rb, F *rcs, F *ds, F *rt, F *c), (sb, sc, st, rb, rcs, ds, rt, c), (BUF(sb), *sc, TYPE(st), BUF(rb), rcs, ds, TYPE(rt), COMM(c))) \
  Y(X, neighbor_alltoall, NEIGHBOR_ALLTOALL, Neighbor_alltoall, (void *sb, F *sc, F *st, void *rb, F *rc_, F *rt, F *c), (sb, sc, st, rb, rc_, rt, c), (BUF(sb), *sc, TYPE(st), BUF(rb), *rc_, TYPE(rt), COMM(c))) \
  Y(X, neighbor_alltoallv, NEIGHBOR_ALLTOALLV, Neighbor_alltoallv, (void *sb, F *scs, F *sds, F *st, void *rb, F *rcs, F *rds, F *rt, F *c), (sb, scs, sds, st, rb, rcs, rds, rt, c), (BUF(sb), scs, sds, TYPE(st), BUF(rb), rcs, rds, TYPE(rt), COMM(c)))
#define MG_FORTRAN_NB_LIST(Y, X) MG_FORTRAN_NB_COLLS(Y, X) MG_FORTRAN_NB_NEIGHBORS(Y, X)
/* A row's blocking binding, MPI_<OP> (MG_FORTRAN_BUFFER_OPS, MG_FORTRAN_NEIGHBOR_OPS). */
#define F_AS_BLOCKING(X, low, UP, Cap, fp, fa, ca)                                                          \
  X(low, UP, PASS_THROUGH, (MG_FUNPAREN fp, F * ierr), (MG_FUNPAREN fa, ierr), rc = MPI_##Cap(MG_FUNPAREN ca))
/* A row's non-blocking binding, MPI_I<OP>: the request converted back. */
#define F_AS_NBC(X, low, UP, Cap, fp, fa, ca)                                                               \
  X(i##low, I##UP, PASS_THROUGH, (MG_FUNPAREN fp, F * req, F * ierr), (MG_FUNPAREN fa, req, ierr), {       \
      MPI_Request r;                                                                                        \
      rc = MPI_I##low(MG_FUNPAREN ca, &r);                                                                  \
      if (rc == MPI_SUCCESS) *req = PMPI_Request_c2f(r);                                                    \
    })
#define MG_FORTRAN_NBC_OPS(X) MG_FORTRAN_NB_LIST(F_AS_NBC, X) MG_FORTRAN_W_OPS(X)
/* The alltoallw forms' datatype arrays converted (fortran.c's f_ialltoallw, f_neighbor_alltoallw;
 * MPICH: the rows only note the call site, its binding converts nothing: a Fortran handle is the C
 * one). The neighbourhood form's displacements are INTEGER(KIND=MPI_ADDRESS_KIND): MPI_Aint. */
#define MG_FORTRAN_W_PARAMS(D) void *sb, F *scs, D *sds, F *sts, void *rb, F *rcs, D *rds, F *rts, F *c
#define MG_FORTRAN_W_OPS(X)                                                                                 \
  X(ialltoallw, IALLTOALLW, PASS_THROUGH, (MG_FORTRAN_W_PARAMS(F), F * req, F * ierr),                      \
    (sb, scs, sds, sts, rb, rcs, rds, rts, c, req, ierr),                                                   \
    rc = f_ialltoallw(sb, scs, sds, sts, rb, rcs, rds, rts, c, NULL, req))                                   \
  X(neighbor_alltoallw, NEIGHBOR_ALLTOALLW, PASS_THROUGH, (MG_FORTRAN_W_PARAMS(MPI_Aint), F * ierr),         \
    (sb, scs, sds, sts, rb, rcs, rds, rts, c, ierr),                                                        \
    rc = f_neighbor_alltoallw(sb, scs, sds, sts, rb, rcs, rds, rts, c, NULL, NULL, 0))                       \
  X(ineighbor_alltoallw, INEIGHBOR_ALLTOALLW, PASS_THROUGH, (MG_FORTRAN_W_PARAMS(MPI_Aint), F * req, F * ierr), \
    (sb, scs, sds, sts, rb, rcs, rds, rts, c, req, ierr),                                                   \
    rc = f_neighbor_alltoallw(sb, scs, sds, sts, rb, rcs, rds, rts, c, NULL, req, 1))
/* Its persistent binding, <OP>_INIT (the info converted, the request back). */
#if defined(MPI_VERSION) && MPI_VERSION >= 4
#define F_PCOLL(Cap) MPI_##Cap##_init
#else
#define F_PCOLL(Cap) MPIX_##Cap##_init
#endif
#define F_AS_INIT(X, low, UP, Cap, fp, fa, ca)                                                              \
  X(low##_init, UP##_INIT, PASS_THROUGH, (MG_FUNPAREN fp, F * info, F * req, F * ierr),                       \
    (MG_FUNPAREN fa, info, req, ierr), {                                                                    \
      MPI_Request r;                                                                                        \
      rc = F_PCOLL(Cap)(MG_FUNPAREN ca, PMPI_Info_f2c(*info), &r);                                          \
      if (rc == MPI_SUCCESS) *req = PMPI_Request_c2f(r);                                                    \
    })
#define MG_FORTRAN_PERS_OPS(X) MG_FORTRAN_NB_LIST(F_AS_INIT, X) MG_FORTRAN_W_PERS_OPS(X)
#define MG_FORTRAN_W_PERS_OPS(X)                                                                            \
  X(alltoallw_init, ALLTOALLW_INIT, PASS_THROUGH, (MG_FORTRAN_W_PARAMS(F), F * info, F * req, F * ierr),    \
    (sb, scs, sds, sts, rb, rcs, rds, rts, c, info, req, ierr),                                             \
    rc = f_ialltoallw(sb, scs, sds, sts, rb, rcs, rds, rts, c, info, req))                                   \
  X(neighbor_alltoallw_init, NEIGHBOR_ALLTOALLW_INIT, PASS_THROUGH,                                          \
    (MG_FORTRAN_W_PARAMS(MPI_Aint), F * info, F * req, F * ierr), (sb, scs, sds, sts, rb, rcs, rds, rts, c, info, req, ierr), \
    rc = f_neighbor_alltoallw(sb, scs, sds, sts, rb, rcs, rds, rts, c, info, req, 2))

/* The neighbourhood collectives and their non-blocking forms (issue 48): the arrays are the
 * degrees' (MPI_Neighbor_alltoallw and MPI_Ineighbor_alltoallw: their datatype arrays, of a length
 * only the topology tells, pass through to the library's binding). */
#define MG_FORTRAN_NEIGHBOR_OPS(X) MG_FORTRAN_NB_NEIGHBORS(F_AS_BLOCKING, X)

/*
 * The mpi_f08 bindings, on both MPIs: they call the C function (MPICH) or Open MPI's ompi_<op>_f
 * from inside the library's binding, so without more every f08 call of an operation was one site
 * in that binding (libmpichfort, libmpi_usempif08). libmpiguide defines the binding's name too,
 * notes the program's call in mg_fortran_site and calls the library's own binding, found behind
 * libmpiguide (dlsym RTLD_NEXT, once per operation: there is no second name for that code to call
 * by reference), with the arguments untouched. Every argument of these bindings is an address
 * (buffers or their descriptors, scalars by reference, the one-integer derived types MPI_Comm,
 * MPI_Datatype ..., NULL for an absent OPTIONAL ierror), in the count and order of the mpif.h
 * binding's, so MG_FORTRAN_OPS's parameters carry them (objdump -d: Open MPI's mpi_<op>_f08_
 * passes its first six on in their registers to ompi_<op>_f).
 */
#if defined(OPEN_MPI) || defined(MPICH_VERSION)
static void *f08_next(void *volatile *cache, const char *sym) {
  void *f = __atomic_load_n(cache, __ATOMIC_RELAXED);
  if (f) return f;
  f = dlsym(RTLD_NEXT, sym);
  if (!f) {
    /* Only a program linked with the library's mpi_f08 binding calls these, so it is there. */
    fprintf(stderr, "mpiguide: %s: no such function behind libmpiguide (%s)\n", sym, dlerror());
    abort();
  }
  __atomic_store_n(cache, f, __ATOMIC_RELAXED);
  return f;
}
#define F08_FORWARD(sym, params, args)                                                               \
  MG_EXPORT void sym params;                                                                         \
  void sym params {                                                                                  \
    static void *volatile next;                                                                      \
    void(*f) params = (void(*) params)f08_next(&next, #sym);                                         \
    mg_fortran_site = __builtin_return_address(0); /* the program's call: MG_SITE */                 \
    f args;                                                                                          \
    mg_fortran_site = NULL;                                                                          \
  }
#endif

#if defined(OPEN_MPI)
/* The mpif.h manglings of ompi_<name>_f: gfortran's (mpi_<name>_) and the three other
 * compilers' that Open MPI's libmpi_mpifh defines. */
#define F_ALIASES(name, NAME, params)                                                   \
  MG_EXPORT void mpi_##name##_ params __attribute__((alias("ompi_" #name "_f")));       \
  MG_EXPORT void mpi_##name##__ params __attribute__((alias("ompi_" #name "_f")));      \
  MG_EXPORT void mpi_##name params __attribute__((alias("ompi_" #name "_f")));          \
  MG_EXPORT void MPI_##NAME params __attribute__((alias("ompi_" #name "_f")));

#define F_WRAPPER(name, NAME, idle, params, args, body)                                 \
  extern void pmpi_##name##_ params __attribute__((weak));                              \
  static MG_ACTIVE void name##_f_active params {                                        \
    int rc;                                                                             \
    body;                                                                               \
    if (ierr) *ierr = (MPI_Fint)rc;                                                     \
  }                                                                                     \
  MG_EXPORT void ompi_##name##_f params;                                                \
  void ompi_##name##_f params {                                                         \
    if (idle) {                                                                         \
      pmpi_##name##_ args;                                                              \
      return;                                                                           \
    }                                                                                   \
    /* the program's call (MG_SITE), or the one mpi_<op>_f08_ below noted */            \
    void *outer = mg_fortran_site;                                                      \
    mg_fortran_site = outer ? outer : __builtin_return_address(0);                      \
    name##_f_active args;                                                               \
    mg_fortran_site = outer;                                                            \
  }                                                                                     \
  F_ALIASES(name, NAME, params)
MG_FORTRAN_OPS(F_WRAPPER)

/* Open MPI's mpi_f08: mpi_<op>_f08_ (libmpi_usempif08) calls ompi_<op>_f, that is the wrapper
 * above, whose return address then lies in libmpi_usempif08. */
#define F08_OMPI(name, NAME, idle, params, args, body) F08_FORWARD(mpi_##name##_f08_, params, args)
MG_FORTRAN_OPS(F08_OMPI)

/* Open MPI's persistent collectives' bindings (its pcollreq extension: mpix_<op>_init_ and the
 * other manglings, weak aliases of ompix_<op>_init_f, which calls PMPIX_<Op>_init): the same
 * wrapper under those names, calling wrappers_nbc.c's MPIX_<Op>_init (issue 48). */
#if defined(OMPI_HAVE_MPI_EXT_PCOLLREQ) && OMPI_HAVE_MPI_EXT_PCOLLREQ
#define F_PWRAPPER(name, NAME, idle, params, args, body)                                \
  extern void pmpix_##name##_ params __attribute__((weak));                             \
  static MG_ACTIVE void name##_fx_active params {                                       \
    int rc;                                                                             \
    body;                                                                               \
    if (ierr) *ierr = (MPI_Fint)rc;                                                     \
  }                                                                                     \
  MG_EXPORT void ompix_##name##_f params;                                               \
  void ompix_##name##_f params {                                                        \
    if (idle) {                                                                         \
      pmpix_##name##_ args;                                                             \
      return;                                                                           \
    }                                                                                   \
    void *outer = mg_fortran_site;                                                      \
    mg_fortran_site = outer ? outer : __builtin_return_address(0);                      \
    name##_fx_active args;                                                              \
    mg_fortran_site = outer;                                                            \
  }                                                                                     \
  MG_EXPORT void mpix_##name##_ params __attribute__((alias("ompix_" #name "_f")));     \
  MG_EXPORT void mpix_##name##__ params __attribute__((alias("ompix_" #name "_f")));    \
  MG_EXPORT void mpix_##name params __attribute__((alias("ompix_" #name "_f")));        \
  MG_EXPORT void MPIX_##NAME params __attribute__((alias("ompix_" #name "_f")));
MG_FORTRAN_PERS_OPS(F_PWRAPPER)
#endif

F_ALIASES(init, INIT, (MPI_Fint * ierr))
F_ALIASES(init_thread, INIT_THREAD, (MPI_Fint * required, MPI_Fint * provided, MPI_Fint * ierr))
F_ALIASES(finalize, FINALIZE, (MPI_Fint * ierr))

#elif defined(MPICH_VERSION)
/*
 * MPICH: its mpif.h binding mpi_<op>_ (libmpichfort; `use mpi` calls it too) converts and calls
 * the C MPI_<Op> of wrappers.c, so every call arrives, but from inside the binding: MG_SITE would
 * be the binding's call (one site per operation for the whole program, as Open MPI's Fortran calls
 * were before fortran.c set the site). So the four mpif.h manglings are defined here too, each only
 * noting the program's call site and calling the library's own binding pmpi_<op>_ (the same code
 * as its mpi_<op>_: libmpichfort defines both at one address), which converts and calls MPI_<Op>.
 * No argument is touched here: the parameters only carry the registers and stack through. The
 * reference is weak, as for Open MPI: a C program never loads libmpichfort, nor calls these.
 */
#define F_SITE(name, NAME, idle, params, args, body)                                                  \
  extern void pmpi_##name##_ params __attribute__((weak));                                            \
  MG_EXPORT void mpi_##name##_ params;                                                                \
  void mpi_##name##_ params {                                                                         \
    mg_fortran_site = __builtin_return_address(0); /* the program's call: MG_SITE */                  \
    pmpi_##name##_ args;                                                                              \
    mg_fortran_site = NULL;                                                                           \
  }                                                                                                   \
  MG_EXPORT void mpi_##name##__ params __attribute__((alias("mpi_" #name "_")));                      \
  MG_EXPORT void mpi_##name params __attribute__((alias("mpi_" #name "_")));                          \
  MG_EXPORT void MPI_##NAME params __attribute__((alias("mpi_" #name "_")));
MG_FORTRAN_OPS(F_SITE)
MG_FORTRAN_PERS_OPS(F_SITE) /* MPI-4.0's persistent bindings: mpi_<op>_init_ calls MPI_<Op>_init too */

/* MPICH's mpi_f08 calls mpi_<op>_f08ts_ for an operation with a choice buffer ("ts": TS 29113's
 * assumed-type, assumed-rank dummies; nm -u of an mpi_f08 program), which turns gfortran's array
 * descriptors into C descriptors and calls the C MPI_<Op> through the PLT. Its pmpir_<op>_f08ts_
 * is a copy that calls PMPI_<Op>, past wrappers.c: hence the library's own mpi_<op>_f08ts_ by
 * dlsym. The MPI_Count twins mpi_<op>_f08ts_large_ (a count of kind MPI_COUNT_KIND) call
 * MPI_<Op>_c, which large.c defines: forwarded alike, so that the site is the program's (their
 * parameters are addresses too, as many, in the same order). Barrier has no buffer:
 * mpi_barrier_f08_, below. */
#define F08_MPICH(name, NAME, idle, params, args, body)                                                  F08_FORWARD(mpi_##name##_f08ts_, params, args) F08_FORWARD(mpi_##name##_f08ts_large_, params, args)
MG_FORTRAN_BUFFER_OPS(F08_MPICH)
#endif

/*
 * MPI_Init, MPI_Init_thread and MPI_Finalize from Fortran, where the library's binding does not
 * call the C MPI_ function: always through wrappers.c, which sets libmpiguide up and tears it
 * down. The libraries' own bindings pass no arguments to MPI_Init either. Open MPI: under the
 * names of its other Fortran entry points. MPICH 4.0: its mpi_f08 bindings of these three call PMPI_Init, PMPI_Init_thread and PMPI_Finalize, so an mpi_f08 program would run
 * with libmpiguide never set up; ierror is OPTIONAL there (NULL when absent).
 */
#if defined(OPEN_MPI)
#define F_INIT_NAME "ompi_init_f"
#define F_INIT_THREAD_NAME "ompi_init_thread_f"
#define F_FINALIZE_NAME "ompi_finalize_f"
#elif defined(MPICH_VERSION)
/* MPICH 4.0's mpi_f08 MPI_Barrier (no choice buffer: mpi_barrier_f08_, not ..._f08ts_) calls
 * PMPI_Barrier as well. MPICH's handles are Fortran integers already. */
MG_EXPORT void mpi_barrier_f08_(MPI_Fint *comm, MPI_Fint *ierr);
void mpi_barrier_f08_(MPI_Fint *comm, MPI_Fint *ierr) {
  mg_fortran_site = __builtin_return_address(0); /* the program's call: MG_SITE */
  int rc = MPI_Barrier(PMPI_Comm_f2c(*comm));
  mg_fortran_site = NULL;
  if (ierr) *ierr = (MPI_Fint)rc;
}
#define F_INIT_NAME "mpi_init_f08_"
#define F_INIT_THREAD_NAME "mpi_init_thread_f08_"
#define F_FINALIZE_NAME "mpi_finalize_f08_"
#endif

#ifdef F_INIT_NAME
MG_EXPORT void mg_f_init(MPI_Fint *ierr) __asm__(F_INIT_NAME);
void mg_f_init(MPI_Fint *ierr) {
  int rc = MPI_Init(NULL, NULL);
  if (ierr) *ierr = (MPI_Fint)rc;
}

MG_EXPORT void mg_f_init_thread(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr) __asm__(F_INIT_THREAD_NAME);
void mg_f_init_thread(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierr) {
  int prov = MPI_THREAD_SINGLE;
  int rc = MPI_Init_thread(NULL, NULL, *required, &prov);
  if (rc == MPI_SUCCESS) *provided = (MPI_Fint)prov;
  if (ierr) *ierr = (MPI_Fint)rc;
}

MG_EXPORT void mg_f_finalize(MPI_Fint *ierr) __asm__(F_FINALIZE_NAME);
void mg_f_finalize(MPI_Fint *ierr) {
  int rc = MPI_Finalize();
  if (ierr) *ierr = (MPI_Fint)rc;
}
#endif
