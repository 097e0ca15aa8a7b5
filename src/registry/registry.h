/*
 * The registry: every collective libmpiguide intercepts, every algorithm it can
 * run for it (the library's own "default" and the guideline mock-ups), and the
 * typed call descriptor that wrappers, the benchmark and the tests share.
 *
 * Everything else (the PMPI wrappers, `mpiguide list`, the benchmark's variant
 * list, profile parsing) reads these tables; adding a mock-up means adding one
 * row to its collective's table, src/registry/rows_<collective>.c (the family
 * macros: rows.h), and its function in src/algs/: the build declares the
 * functions the rows name (cmake/gen_algorithms.cmake).
 */
#ifndef MG_REGISTRY_H
#define MG_REGISTRY_H

#include <mpi.h>
#include <stddef.h>

#include "registry/datatype.h"

#include "registry/operations.h"


typedef enum {
#define MG_X(E, n, m, r, red, k, s) MG_##E,
  MG_OPERATIONS(MG_X)
#undef MG_X
      MG_NCOLL
} mg_coll;
/* The first point-to-point operation: mg_coll values below it are the blocking collectives. */
#define MG_NCOLLECTIVES MG_SEND
static inline int mg_coll_is_p2p(mg_coll k) { return MG_SEND <= k && k <= MG_SENDRECV_REPLACE; }
/* A non-blocking collective (MG_NBC_OPS), and the blocking collective whose I-form it is (every
 * other operation: itself). The checks and the message size of a call are its twin's. */
/* The non-blocking neighbourhood collectives (MG_INEIGHBOR_OPS): non-blocking collectives too. */
static inline int mg_coll_is_ineighbor(mg_coll k) { return MG_INEIGHBOR_ALLGATHER <= k && k <= MG_INEIGHBOR_ALLTOALLW; }
static inline int mg_coll_is_nbc(mg_coll k) {
  return (MG_IALLGATHER <= k && k <= MG_ISCATTERV) || mg_coll_is_ineighbor(k);
}
static inline mg_coll mg_coll_base(mg_coll k) {
  if (MG_IALLGATHER <= k && k <= MG_ISCATTERV) return (mg_coll)(k - MG_IALLGATHER + MG_ALLGATHER);
  return mg_coll_is_ineighbor(k) ? (mg_coll)(k - MG_INEIGHBOR_ALLGATHER + MG_NEIGHBOR_ALLGATHER) : k;
}
/* The non-blocking form of blocking collective or neighbourhood collective k. */
static inline mg_coll mg_coll_nbc_of(mg_coll k) {
  return k < MG_NCOLLECTIVES ? (mg_coll)(k - MG_ALLGATHER + MG_IALLGATHER)
                             : (mg_coll)(k - MG_NEIGHBOR_ALLGATHER + MG_INEIGHBOR_ALLGATHER);
}
/* The neighbourhood collectives (MG_NEIGHBOR_OPS), blocking or not (MG_INEIGHBOR_OPS). */
static inline int mg_coll_is_neighbor(mg_coll k) {
  k = mg_coll_base(k);
  return MG_NEIGHBOR_ALLGATHER <= k && k <= MG_NEIGHBOR_ALLTOALLW;
}

/*
 * Why a call ran the default instead of the algorithm that was asked for.
 * X(ENUM, key for machine-readable output, text). MG_WHY_NONE: it ran.
 */
#define MG_REASONS(X)                                                             \
  X(NONE, "", "")                                                                 \
  X(INTERCOMM, "intercomm", "intercommunicator")                                  \
  X(EMPTY, "empty", "empty message")                                              \
  X(COUNT_RANGE, "count_range",                                                   \
    "not applicable: a count exceeds INT_MAX (p x message size, the whole vector, or p x the largest block)") \
  X(NONCOMMUTATIVE, "noncommutative", "not applicable: non-commutative op")       \
  X(INVALID_ROOT, "invalid_root", "invalid root: the default reports the error")  \
  X(INVALID_ARGS, "invalid_args",                                                 \
    "invalid argument (null datatype, op or communicator, negative count; an op not defined on the datatype, " \
    "MPI_IN_PLACE or NULL where a buffer is needed): the default reports the error")                     \
  X(USEROP_PADDING, "userop_padding",                                             \
    "not applicable: a user-defined op would see padding elements (p does not divide count, or "  \
    "unequal recvcounts)")                                                        \
  X(SCRATCH_CAP, "scratch_cap", "scratch cap (MPIGUIDE_SCRATCH_MAX)")                  \
  X(IN_PLACE, "in_place", "not applicable: MPI_IN_PLACE")                             \
  X(TYPE_LB, "type_lb", "not applicable: a datatype whose lower bound is not 0")                \
  X(PAD_TYPE, "pad_type",                                                                       \
    "not applicable: padding needs a predefined datatype with a class and a predefined op")         \
  X(ONE_PROCESS, "one_process", "not applicable: a one-process communicator")                       \
  X(OP_NOT_EXACT, "op_not_exact",                                                   \
    "not applicable: op and datatype not bitwise exact in any order (op:bitwise-exact: a predefined " \
    "op on a predefined integer type or a bitwise op on MPI_BYTE, not floating point)")      \
  X(MEASURE_ONLY, "measure_only",                                                   \
    "measure only: the row needs the peer to act alike or may deadlock a program that relies on " \
    "MPI's buffering; the benchmark runs both sides, libmpiguide never runs it")                \
  X(IRREGULAR_NODES, "irregular_nodes",                                             \
    "not applicable: nodes of different sizes (a lane row needs the same number of ranks on every node)") \
  X(NODE_ORDER, "node_order",                                                       \
    "not applicable: a non-commutative op, and the nodes are not ranges of consecutive ranks")        \
  X(MIXED_SIZES, "mixed_sizes",                                                     \
    "not applicable on MPICH: a datatype whose basic types differ in size (MPICH 4.0.2 fails to "      \
    "receive packed bytes into it above 8 KiB)")                                                \
  X(TWO_BLOCKS, "two_blocks",                                                       \
    "not applicable: the topology gives a peer two blocks (a graph with two edges between one pair, or a " \
    "periodic Cartesian dimension of size 1 or 2), which one Alltoallv or Alltoallw cannot hold and " \
    "the MPI libraries' own calls match differently (the point-to-point row)") \
  X(NO_PCOLL, "no_persistent",                                                     \
    "not applicable: this MPI library has no persistent collectives (neither MPI-4.0's "           \
    "MPI_<Coll>_init nor Open MPI's MPIX_<Coll>_init; SimGrid 3.32's SMPI)")                       \
  X(NO_WINDOW, "no_window",                                                         \
    "not applicable: the MPI library cannot make a one-sided window here (no one-sided component for " \
    "this transport, e.g. Open MPI 4.1 over TCP between nodes, or window memory refused)") \
  X(UNAGREED, "unagreed",                                                           \
    "not applicable yet: a distributed graph whose ranks have not agreed whether a peer gets two " \
    "blocks (a non-blocking call may not wait for the other ranks; they agree when libmpiguide sees " \
    "the graph made, or at the first call of a blocking neighbourhood row on it)")   \
  X(NO_PROGRESS, "no_progress",                                                     \
    "not run here: a schedule of non-blocking rounds needs libmpiguide's progress thread " \
    "(MPIGUIDE_PROGRESS=thread, with MPI_THREAD_MULTIPLE on every rank) and " \
    "a communicator libmpiguide saw made (MPI_COMM_WORLD, or one of MPI_Comm_dup, _split, _create, " \
    "MPI_Cart_create ...: not MPI_Comm_idup's); the benchmark measures it")

typedef enum {
#define MG_X(E, k, t) MG_WHY_##E,
  MG_REASONS(MG_X)
#undef MG_X
      MG_NWHY
} mg_why;

/*
 * One call of a collective, whatever the collective. The wrappers fill it
 * from their arguments; one-type collectives (bcast, the reductions, scan,
 * reduce_scatter_block) set both sides to the same count and datatype, and
 * bcast sets sbuf = rbuf = buffer; reduce_scatter sets both counts to this rank's
 * recvcounts[rank] once the rank is known (mg_call_set_bytes) and keeps the array in
 * rcounts; allgatherv keeps its sendcount in scount, recvcounts and displs in rcounts and
 * rdispls, and rcount = recvcounts[rank]. The other irregular collectives keep their
 * arrays as given: gatherv sendcount/sendtype in scount/stype, recvcounts/displs in
 * rcounts/rdispls (significant at the root only); scatterv sendcounts/displs in
 * scounts/sdispls (root only), recvcount/recvtype in rcount/rtype; alltoallv all four
 * arrays; alltoallw also sendtypes/recvtypes in stypes/rtypes (stype = rtype =
 * MPI_DATATYPE_NULL). sbuf may be MPI_IN_PLACE where the standard
 * allows it; then the send-side count and type are not to be read.
 *
 * rank, size and bytes are filled by mg_call_prepare(); bytes is the message
 * size of the collective's definition (MG_COLLECTIVES) and is equal on every
 * rank of a correct call of a collective whose size is known (mg_coll_info.known).
 */
typedef struct mg_call {
  mg_coll coll;
  const void *sbuf;
  void *rbuf;
  int scount, rcount;
  const int *rcounts;   /* reduce_scatter, allgatherv: recvcounts, one per rank (not copied); equal on
                           every rank for reduce_scatter; for allgatherv equal in bytes (the signature),
                           in elements only where the ranks' receive types are alike */
  const int *rdispls;   /* allgatherv: displs, in extents of rtype: each rank's own layout (not copied);
                           gatherv (root), alltoallv: displs of the receive side; alltoallw: in bytes */
  const int *scounts, *sdispls;        /* scatterv (root), alltoallv, alltoallw: the send side */
  const MPI_Datatype *stypes, *rtypes; /* alltoallw: one datatype per rank and side */
  MPI_Datatype stype, rtype;
  MPI_Op op;
  int root;             /* point-to-point: the destination (dest) */
  MPI_Comm comm;
  /* point-to-point: the source (recv, irecv, sendrecv), the send and receive tags, the status
   * (recv, sendrecv: may be MPI_STATUS_IGNORE) and the request (isend, irecv); the send side in
   * sbuf/scount/stype, the receive side in rbuf/rcount/rtype (sendrecv_replace: the one buffer
   * in both) */
  int src, stag, rtag;
  MPI_Status *status;
  MPI_Request *req;
  /* neighbour collectives (MG_NEIGHBOR_OPS): the arrays as given, one entry per in-neighbour (the
   * receive side) or out-neighbour (the send side): neighbor_allgatherv recvcounts/displs in
   * rcounts/rdispls; neighbor_alltoallv all four in scounts/sdispls/rcounts/rdispls;
   * neighbor_alltoallw counts in scounts/rcounts, types in stypes/rtypes and its MPI_Aint byte
   * displacements here (sdispls = rdispls = NULL) */
  const MPI_Aint *sadispls, *radispls;
  /* a non-blocking collective (MG_NBC_OPS): the request in req; persistent = 1 for MPI_<Coll>_init
   * (MPIX_ under Open MPI), with its info */
  int persistent;
  MPI_Info info;
  /* derived by mg_call_prepare() */
  int rank, size, inter;
  int topo, indeg, outdeg; /* neighbour collectives: MPI_Topo_test's answer and this rank's degrees
                              (mg_call_neighbors); MPI_UNDEFINED and 0 without a topology */
  size_t bytes;
} mg_call;

/*
 * An empty call of collective `coll` on `comm`: every other field zero, as
 * `mg_call c = {.coll = coll, .comm = comm}` would make it. Written field by
 * field on purpose: an initializer that leaves fields out makes the compiler
 * clear the whole struct first, and GCC does that for these 176 bytes with
 * `rep stos` on x86-64, which alone costs about 5 ns, half of what libmpiguide
 * may add to a call (benchmarks/overhead.c). Stores of fields set again later
 * are dropped by the compiler.
 */
static inline void mg_call_init(mg_call *c, mg_coll coll, MPI_Comm comm) {
  c->coll = coll;
  c->sbuf = NULL, c->rbuf = NULL;
  c->scount = 0, c->rcount = 0;
  c->rcounts = NULL, c->rdispls = NULL, c->scounts = NULL, c->sdispls = NULL;
  c->stypes = NULL, c->rtypes = NULL;
  c->stype = 0, c->rtype = 0; /* 0, not MPI_DATATYPE_NULL: what an initializer gives */
  c->op = 0;
  c->root = 0;
  c->comm = comm;
  c->src = 0, c->stag = 0, c->rtag = 0;
  c->status = NULL, c->req = NULL;
  c->sadispls = NULL, c->radispls = NULL;
  c->persistent = 0, c->info = 0;
  c->rank = 0, c->size = 0, c->inter = 0;
  c->topo = 0, c->indeg = 0, c->outdeg = 0;
  c->bytes = 0;
}

typedef int (*mg_alg_fn)(const mg_call *c);
/* The algorithm of a family row (mg_alg.pfn): one function for every collective of the family,
 * the row's parameter (e.g. the number of pieces) as its second argument. */
typedef int (*mg_alg_pfn)(const mg_call *c, int param);
/* Scratch bytes the algorithm needs for this call: the maximum over all ranks,
 * so that every rank compares the same number against the cap. */
typedef size_t (*mg_mem_fn)(const mg_call *c);

/*
 * Restrictions, as data: X(ENUM, bit, name in listings, what it means). Each is
 * decided from inputs equal on every rank; a call outside one runs the
 * default, with the fallback reason of mg_applicable().
 * - PN_INT: the algorithm moves p blocks in one call with an int count.
 * - COMMUTE_OR_DENSE: MPICH 4.0.2's MPI_Reduce_scatter(_block) (and their
 *   non-blocking forms) return wrong results or corrupt the heap for
 *   non-commutative ops on datatypes with gaps; the mock-ups built on them
 *   keep away from that case on every MPI (the
 *   datatype of a reduction is the same on every rank, so the decision is too).
 * - N_INT: the algorithm reduces the whole vector in one call with an int
 *   count (reduce_scatter: the sum of recvcounts, which may exceed INT_MAX).
 * - PAD_PREDEFINED_OP: when the blocks are unequal (p does not divide count;
 *   for reduce_scatter, recvcounts not all equal) the algorithm pads them
 *   with copies of real elements and reduces more elements than the call
 *   has. A user-defined op may assume it is never called with more elements
 *   than the call reduces (len <= count): the MPI library's own algorithms
 *   never do, and user ops in the wild rely on it. mg_needs_padding() says
 *   whether a call needs it.
 * - NB_INT: the algorithm moves the whole vector as packed bytes (or as one
 *   element of a derived type) with an int count: n bytes must fit an int.
 * - NOT_IN_PLACE: the algorithm cannot take MPI_IN_PLACE, which all ranks or
 *   none give for alltoall(v/w). Open MPI 4.1.4's in-place MPI_Ialltoallv and
 *   MPI_Ialltoallw leave messages behind when a rank moves nothing, and the
 *   next call on the communicator hangs (difftest); the non-blocking rows of
 *   those two keep away from it. MPICH 4.0.2's in-place MPI_Alltoallv crashes
 *   with struct blocks above 8 KiB: GL8 (alltoall as alltoallv) keeps away.
 * - LB_ZERO: a reduction whose datatype (the same on every rank) has lower
 *   bound 0 and true lower bound >= 0: Open MPI 4.1.4's MPI_Ireduce (libnbc)
 *   frees a wrong pointer and aborts for a datatype with a negative lower
 *   bound (difftest).
 * - PAD_PREDEFINED, PADDED_INT: the monotony family's padded rows (padded.c):
 *   a reduction padded with extra elements needs an op that works element by
 *   element on a run of equal elements; the padded count must fit an int.
 * - PMAX_INT: the algorithm pads every rank's block to the largest one and
 *   moves p of them with an int count of bytes (allgatherv: p x
 *   max(recvcounts) x size(recvtype)).
 * - P_GT_1: not on a one-process communicator. Open MPI 4.1.4's MPI_Alltoallw
 *   there (coll/self) scales the byte displacements by the extents and
 *   corrupts the heap; MPICH 4.0.2's MPI_Allgatherv there puts the block at
 *   the wrong displacement when displs leave gaps (difftest, not in place
 *   only). The in-place rows of the two, which turn an in-place call into a
 *   regular one, keep away from it.
 * - UNIFORM_BASIC: MPICH 4.0.2 (ch4:ucx) fails with "message truncated" (or hangs) when a rank
 *   receives packed bytes into a datatype whose signature mixes basic types of different sizes and
 *   the message is above 8 KiB (UCX's rendezvous). Its MPI_Gather forwards the blocks of a
 *   subtree as packed bytes (binomial tree: from 4 ranks, a subtree of 2 blocks of 4 KiB is
 *   enough) and its MPI_Scatter sends them so; received as struct{int,double,char},
 *   struct{double,int}, struct{short,int}, MPI_DOUBLE_INT, MPI_SHORT_INT it fails,
 *   struct{int,char}, MPI_FLOAT_INT, MPI_LONG_DOUBLE_INT and one-size structs pass (seen here;
 *   the rule takes every mix, which is safe). The library's own MPI_Gather fails alike, but a
 *   mock-up that calls it for another collective (allgather as gather + bcast) would turn a call
 *   that works into one that fails. The signature is the same on every rank, so is the decision
 *   (mg_type_mixed_sizes); on other libraries the rows run.
 * - BITWISE_EXACT: the algorithm replaces the call's op by mpiguide's own
 *   user-defined twin of it (userop.c), which the library may apply in
 *   another order or grouping than its built-in op: only where every order
 *   gives the same bits, i.e. SUM, PROD, MIN, MAX, LAND, LOR, LXOR, BAND, BOR,
 *   BXOR on a predefined C integer type (the bitwise three on MPI_BYTE too;
 *   where a library's built-in op is defective, not: no SUM on signed types
 *   narrower than int, which Open MPI 4.1 saturates; no MIN/MAX on unsigned
 *   types, which MPICH 4.0.2 compares as signed; userop.c).
 *   Floating point is out: its sums and products round differently in
 *   another order, and MIN/MAX may pick another of -0.0/+0.0 or NaNs.
 *   Decided from the op and the datatype, the same on every rank of a
 *   reduction (mg_userop_exact(), registry/restrict.c).
 */
#define MG_RESTRICTIONS(X)                                                                          \
  X(PN_INT, 0, "p*n<=INT_MAX", "p times the message size must fit an int count")                    \
  X(COMMUTATIVE, 1, "commutative-op", "the op must be commutative")                                 \
  X(COMMUTE_OR_DENSE, 2, "non-commutative-op:contiguous-type",                                      \
    "with a non-commutative op only on a datatype without gaps (MPICH 4.0.2's reduce_scatter is "   \
    "wrong otherwise)")                                                                             \
  X(PAD_PREDEFINED_OP, 3, "user-op:equal-blocks",                                                   \
    "with a user-defined op only when the blocks need no padding: p divides count (reduce_scatter: "\
    "all recvcounts equal); padding would call the op on more elements than the call has")        \
  X(N_INT, 4, "n<=INT_MAX", "the whole vector must fit an int count")                             \
  X(NB_INT, 5, "n-bytes<=INT_MAX", "the whole vector, in bytes, must fit an int count")             \
  X(PMAX_INT, 6, "p*max-block<=INT_MAX",                                                            \
    "p times the largest block, in bytes, must fit an int count")                                   \
  X(NOT_IN_PLACE, 7, "not-in-place",                                                                \
    "not with MPI_IN_PLACE (all ranks or none: alltoall, alltoallv, alltoallw)")                    \
  X(LB_ZERO, 8, "type-lb=0",                                                                        \
    "a reduction's datatype with lower bound 0 (Open MPI 4.1.4's MPI_Ireduce crashes otherwise)")      \
  X(PAD_PREDEFINED, 12, "predefined-type:predefined-op",                                              \
    "a reduction padded with extra elements: only a predefined datatype with a class (C integer, "    \
    "floating point, MPI_BYTE) and a predefined op, which work element by element")                   \
  X(PADDED_INT, 13, "padded-n<=INT_MAX", "the padded message (elements, bcast: bytes) must fit an int count") \
  X(P_GT_1, 10, "p>1",                                                                              \
    "not on a one-process communicator (Open MPI 4.1.4's MPI_Alltoallw and MPICH 4.0.2's "        \
    "MPI_Allgatherv are wrong there, not in place)")                                                \
  X(MEASURE_ONLY, 14, "measure-only",                                                              \
    "never run by libmpiguide: the peer must act alike (a split message: as many receives), or the " \
    "row may deadlock a program that relies on MPI buffering; the benchmark's patterns run both "  \
    "sides, check gives a verdict, tune never chooses it")                                          \
  X(BITWISE_EXACT, 9, "op:bitwise-exact",                                                           \
    "a predefined op on a predefined integer datatype (MPI_BYTE: the bitwise ops; no SUM on signed "  \
    "types narrower than int, no MIN/MAX on unsigned ones), whose result is the same bits in any "    \
    "order of combination; not floating point, not user-defined ops, not derived datatypes")      \
  X(NODE_ORDER, 15, "non-commutative-op:consecutive-nodes",                                         \
    "with a non-commutative op only when every node is a range of consecutive ranks (decided from "  \
    "the node structure, alike on every rank, when the row first runs on the communicator)")        \
  X(UNIFORM_BASIC, 11, "mpich:one-basic-size",                                                       \
    "on MPICH, not with a datatype whose signature holds basic types of different sizes (struct{int,"  \
    "double}, MPI_DOUBLE_INT): the row's MPI_Gather or MPI_Scatter forwards packed bytes that MPICH "  \
    "4.0.2 (ch4:ucx) fails to receive into such a type above 8 KiB (message truncated, or a hang)")   \
  X(REGULAR_NODES, 16, "equal-node-sizes",                                                           \
    "every node has the same number of ranks of the communicator (decided from the node structure, " \
    "alike on every rank)")                                                                          \
  X(PROGRESS, 17, "progress-thread",                                                                 \
    "a schedule of non-blocking rounds: libmpiguide runs it only with its progress thread "          \
    "(MPIGUIDE_PROGRESS=thread, MPI_THREAD_MULTIPLE on every rank; a persistent request: its run at " \
    "each MPI_Start); the benchmark runs the rounds one after the other in the call")

enum {
#define MG_X(E, bit, name, text) MG_R_##E = 1u << bit,
  MG_RESTRICTIONS(MG_X)
#undef MG_X
};

typedef struct mg_restriction {
  unsigned bit;
  const char *name, *text;
} mg_restriction;
extern const mg_restriction mg_restrictions[];
extern const int mg_nrestrictions;

/* Upper bound on algorithms per collective (checked in registry.c). */
#define MG_MAX_ALGS 24

/*
 * Families of guidelines, X(ENUM, name, source). A family's rows share one
 * macro (src/registry/rows.h), one row per collective it applies to:
 * - COMPOSITION: a collective not slower than a composition of others (TGT
 *   2010 meta-rules III and IV): the HPC Asia 2018 mock-ups GL1-GL22 and the
 *   TGT2010 equations of the irregular collectives;
 * - SPLIT: split-robustness, TGT 2010 meta-rule I, eq. (1): A(kn) <= k A(n);
 *   the call as k calls on consecutive pieces (of every block, for the
 *   per-rank-block collectives): a segmented message;
 * - BLOCKS: blocking by hand, TGT 2010 meta-rule I, eq. (2): A(kn) <= n A(k); the call as pieces
 *   of a fixed size (1, 4, 16, 64 KiB), as many as the message needs (split.c, mg_blocks);
 * - NONBLOCKING: a blocking collective not slower than its non-blocking form
 *   and a wait, by analogy with TGT 2010 eqs. (5)-(7) for point-to-point;
 * - MONOTONY: a message not slower than a larger one (check's monotony
 *   analysis finds the cells); the rows run the call padded to a larger size;
 * - INPLACE: TGT 2010 eq. (12), A(MPI_IN_PLACE, n) <= A(n): an in-place call
 *   not slower than a copy of its data and the regular call (src/algs/inplace.c);
 *   a call that is not in place runs as given;
 * - DATATYPE: a call on a derived datatype not slower than packing it, the
 *   call on contiguous bytes and unpacking (TGT 2010 eq. 3);
 * - USEROP: a reduction with a built-in op not slower than the same reduction
 *   with an equivalent user-defined op, TGT 2010 eq. (23):
 *   Reduce(n, MPI_SUM) <= Reduce(n, user_sum).
 * - P2P: a collective not slower than a simple algorithm built from
 *   point-to-point messages (TGT 2010 eq. 35 and §V.D): linear, trees,
 *   pipelines, rings, recursive doubling, Bruck, ...; the rows run them with
 *   PMPI point-to-point calls on a private communicator (src/algs/p2p_*.c).
 * - RMA: a collective not slower than the same data moved by one-sided communication in a
 *   fence epoch of a window (TGT 2010 §VII): the root's puts (bcast) or gets (gather); the
 *   window is cached with the communicator and counts as scratch (src/algs/rma_window.c).
 * - HIER: a collective not slower than its composition along the nodes (TPDS 2010 §VI eq. 38):
 *   node-local step, leaders' step, node-local step (<coll>_as_hier); and the lane decompositions
 *   (<coll>_as_lane: the ranks of equal node-local index form lanes that work in parallel). The
 *   node structure and its sub-communicators are cached with the communicator; rows decide late
 *   from it (MG_R_NODE_ORDER, MG_R_REGULAR_NODES), alike on every rank (src/algs/hier_nodes.c; the rows in <coll>_hier.c).
 * - PERSISTENT: a blocking collective and its persistent form, the request made once per
 *   communicator, call and buffers (MPI-4.0 MPI_<Coll>_init, Open MPI 4.1's MPIX_<Coll>_init),
 *   then MPI_Start + MPI_Wait (src/algs/persistent.c); check reads both directions (the reverse:
 *   "persistence must not cost"). Measure-only: persistent.c says why libmpiguide cannot run it.
 */
#define MG_FAMILIES(X)                                                                           \
  X(COMPOSITION, "composition", "compositions of other collectives (TGT 2010 meta-rules III, IV; " \
    "HPC Asia 2018 GL1-GL22; TGT 2010 eqs. 19-34 for the irregular collectives)")                 \
  X(SPLIT, "split", "split-robustness (TGT 2010 meta-rule I, eq. 1): A(kn) <= k A(n)")            \
  X(BLOCKS, "blocks", "blocking by hand (TGT 2010 meta-rule I, eq. 2): A(kn) <= n A(k), pieces of a " \
    "fixed size k, as many as the data needs")                                                      \
  X(NONBLOCKING, "nonblocking", "blocking not slower than non-blocking + wait (by analogy with "  \
    "TGT 2010 eqs. 5-7)")                                                                        \
  X(MONOTONY, "monotony", "monotony (PGMPI, Euro-Par 2016; TGT 2010 meta-rule II): A(n) <= A(n') " \
    "for n <= n'; the rows pad the message to a larger size")                                       \
  X(INPLACE, "inplace", "in place not slower than a copy and the regular call (TGT 2010 eq. 12): " \
    "A(MPI_IN_PLACE, n) <= A(n)")                                                                   \
  X(DATATYPE, "datatype", "derived datatypes not slower than pack + contiguous call + unpack (TGT 2010 " \
    "eq. 3): A(n/k, T(k)) <= Pack + A(n) + Unpack")                                               \
  X(USEROP, "userop", "built-in op not slower than the same op user-defined (TGT 2010 eq. 23): "   \
    "Reduce(n, MPI_SUM) <= Reduce(n, user_sum)")                                                    \
  X(P2P, "p2p", "collectives not slower than simple algorithms built from point-to-point messages " \
    "(TGT 2010 eq. 35: Gather(n) <= p x Recv(n/p); trees, pipelines, rings)")                      \
  X(PT2PT, "pt2pt", "point-to-point operations not slower than other modes of sending (TGT 2010 "     \
    "eqs. 6, 8-11: Send <= Isend + Wait, Send <= Ssend, Rsend <= Send, Sendrecv <= Isend/Irecv + "    \
    "Send/Recv + Wait)")                                                                        \
  X(RMA, "rma", "one-sided communication (TGT 2010 §VII): Bcast(n) <= Win_fence + (p-1) x Put(n) + " \
    "Win_fence; Gather(n) <= Win_fence + p x Get(n/p) + Win_fence")                             \
  X(RERANK, "rerank", "renumbering the processes must not make a collective faster (TGT 2010 eq. 36): " \
    "A{comm} <= A{pi(comm)}, pi a seeded random permutation; measure-only")                        \
  X(TOPO, "topo", "a virtual topology made with reordering must not make neighbour communication " \
    "slower (TGT 2010 eq. 37): Sendrecv{cart, reorder} <= Sendrecv{cart}; measure-only")                                     \
  X(HIER, "hier", "hierarchical and lane decompositions (TPDS 2010 §VI eq. 38: Allreduce{c} <= "       \
    "||Reduce{c_i} + Allreduce{C} + ||Bcast{c_i}; Träff and Hunold's lane collectives, Cluster 2020)") \
  X(NBC, "nbc", "the non-blocking collectives' completion time under the catalogue's relations, the I " \
    "prefix on every part (issue 48): Iallgather(n) <= Iallgatherv(n) (one call), Iallreduce(n) <= "     \
    "Ireduce(n) + Ibcast(n) (measure-only)") \
  X(PERSISTENT, "persistent", "a blocking collective against its persistent form (MPI-4.0 <coll>_init once, then " \
    "MPI_Start + MPI_Wait; issue 48): both ways, Allreduce(n) <= Start + Wait and persistence must not cost, "    \
    "Start + Wait <= Allreduce(n); measure-only")

typedef enum {
#define MG_X(E, n, s) MG_FAM_##E,
  MG_FAMILIES(MG_X)
#undef MG_X
      MG_NFAM
} mg_family;

typedef struct mg_family_info {
  const char *name, *source;
} mg_family_info;
extern const mg_family_info mg_families[MG_NFAM];
/* A family by name; -1 when unknown. */
int mg_family_find(const char *name);

/* The predicted time (s) of an algorithm from LogGP parameters (src/loggp/loggp.h), for p
 * processes, message size n in bytes (the collective's definition, MG_COLLECTIVES) and the
 * row's parameter: the point-to-point rows' exact schedules (docs/model.md). */
struct mg_loggp;
typedef double (*mg_cost_fn)(const struct mg_loggp *m, int p, double n, int param);

typedef struct mg_alg {
  const char *name;        /* e.g. "allreduce_as_reduce_bcast"; "default" first */
  const char *guideline;   /* "GL5"; "" for the default */
  const char *tgt;         /* the equation of Traff, Gropp and Thakur, TPDS 2010, that a row labelled by another
                              catalogue states too ("TGT18" for GL5); NULL: none (tests/cli/tpds_equations.txt) */
  const char *formula;     /* the guideline, e.g. "Allreduce(n) <= Reduce(n) + Bcast(n)" */
  const char *description; /* one line */
  mg_alg_fn fn;
  unsigned restrictions;   /* MG_R_* */
  const char *mem_formula; /* extra memory, human readable: "p*n bytes" */
  mg_mem_fn mem;           /* NULL: needs no scratch */
  int family;              /* mg_family (0, composition, when not given) */
  mg_alg_pfn pfn;          /* a family row's algorithm, called with param instead of fn */
  int param;
  /* The cost model (docs/model.md): a point-to-point algorithm's schedule priced by LogGP
   * (costfn), or an expression over the parts of a composition (cost), e.g.
   * "reduce(n) + bcast(n)", whose parts are priced by the library's measured defaults or by
   * a model of them; NULL, NULL: the family's generic expression (src/model/cost.c). */
  mg_cost_fn costfn;
  const char *cost;
  int crowd; /* a schedule (costfn) in which every rank is busy in nearly every round: it slows down
                on a node with more ranks than processors (mg_loggp_crowding) */
  /* A point-to-point row whose receiver must act alike (MG_R_MEASURE_ONLY; e.g. a split message):
   * the receive side the benchmark's patterns run on the peer, called with the receiving call
   * (coll MG_RECV) and param; NULL: a plain receive (the peer is unaffected). */
  mg_alg_pfn recv_side;
} mg_alg;

typedef struct mg_coll_info {
  const char *name;     /* "allreduce" */
  const char *mpi_name; /* "MPI_Allreduce" */
  const char *size_def; /* meaning of the message size */
  int rooted;           /* has a root argument */
  int reduction;        /* has an op argument */
  int known;            /* the message size is equal on every rank (MG_COLLECTIVES); point-to-point:
                           known to both ends (MG_P2P_OPS) */
  const mg_alg *algs;   /* algs[0] is the default */
  int nalgs;
} mg_coll_info;

extern const mg_coll_info mg_colls[MG_NCOLL];

/* Lookups; -1 when unknown. A collective by its registry name, exact ("allreduce"), or by its
 * MPI name in any case ("MPI_Allreduce", "mpi_allreduce"); a caller that requires the registry
 * name (profiles) compares with mg_colls[c].name. Algorithm names are exact. */
int mg_coll_find(const char *name);
/* Every collective's name, in registry order, separated by spaces ("allgather allreduce ..."). */
const char *mg_coll_names(void);
int mg_alg_find(mg_coll coll, const char *name);
const char *mg_why_str(mg_why why);
const char *mg_why_key(mg_why why); /* short machine name, e.g. "scratch_cap" */
/* Whether a fallback reason guards only the bits of the result, not the run: outside it the row
 * runs correctly but its result may differ from the library's in the last bits (MG_WHY_OP_NOT_EXACT:
 * mpiguide's user-defined twin of a floating-point op, combined in another order). The library
 * never runs such a call with the row; the benchmark may measure it (a valid timing, TGT 2010 eq.
 * 23 holds for every op), and tune never chooses it there ("measure only"). */
int mg_why_measurable(mg_why why);

/* Fill rank, size, inter and bytes (a neighbour collective: also topo, indeg, outdeg,
 * mg_call_neighbors). Returns an MPI error code. */
int mg_call_prepare(mg_call *c);
/* A neighbour collective's topology and degrees (c->topo, c->indeg, c->outdeg) from c->comm, a valid
 * intracommunicator: MPI_CART (2 x ndims, MPI_PROC_NULL neighbours included, as the standard counts
 * them), MPI_GRAPH (MPI_Graph_neighbors_count, both sides), MPI_DIST_GRAPH; without a topology
 * MPI_UNDEFINED and 0, which mg_call_check refuses (the default reports the error). Local queries. */
int mg_call_neighbors(mg_call *c);
/* Fill bytes only, for a call whose rank, size and inter are already set. */
static inline void mg_call_set_bytes(mg_call *c);

/*
 * The one-count collectives: one count and one datatype per side, significant
 * on every rank (allgather, alltoall, and the one-type ones: allreduce, bcast,
 * exscan, reduce, reduce_scatter_block, scan). Their check looks at two
 * (count, datatype) pairs and the op, and their message size is recvcount x
 * size(recvtype) on every rank; both are inline below, so that libmpiguide's
 * per-call path, where the collective is a constant, does them without a
 * call or a switch (the check: call_check.h). The other collectives go
 * through registry.c (the size) and call_check.c (the check).
 */
#define MG_COLL_BIT(E) (1u << MG_##E)
#define MG_ONE_COUNT_COLLS                                                                                   \
  (MG_COLL_BIT(ALLGATHER) | MG_COLL_BIT(ALLREDUCE) | MG_COLL_BIT(ALLTOALL) | MG_COLL_BIT(BCAST) |            \
   MG_COLL_BIT(EXSCAN) | MG_COLL_BIT(REDUCE) | MG_COLL_BIT(REDUCE_SCATTER_BLOCK) | MG_COLL_BIT(SCAN))
enum { /* mg_colls[].reduction as a constant */
  MG_REDUCTION_COLLS = 0
#define MG_X(E, n, m, r, red, k, s) | ((red) << MG_##E)
  MG_COLLECTIVES(MG_X)
#undef MG_X
};
/* k or its blocking twin (mg_coll_base) is a one-count collective. */
static inline int mg_coll_one_count(mg_coll k) {
  k = mg_coll_base(k);
  return k < 32 && ((MG_ONE_COUNT_COLLS >> k) & 1u);
}
/* k or its blocking twin is a reduction (mg_colls[].reduction as a constant). */
static inline int mg_coll_reduction(mg_coll k) {
  k = mg_coll_base(k);
  return k < 32 && ((MG_REDUCTION_COLLS >> k) & 1u);
}

/* The common predefined datatypes and their sizes (the C types the standard
 * says they correspond to), so that the per-call path of libmpiguide needs no
 * PMPI_Type_size for them; predefined handles are never freed or reused. */
typedef struct mg_common_type {
  MPI_Datatype dt;
  int size;
} mg_common_type;
#define MG_NCOMMON_TYPES 9
/* The same list as an X-macro X(handle, C type), most frequent first: libmpiguide's inline
 * first-level lookup (src/lib/lib.h) compares a handle with each in turn, the sizes constants. */
#define MG_COMMON_TYPES(X)                                                                                   \
  X(MPI_DOUBLE, double) X(MPI_INT, int) X(MPI_BYTE, char) X(MPI_CHAR, char) X(MPI_FLOAT, float)              \
  X(MPI_LONG, long) X(MPI_UNSIGNED, unsigned) X(MPI_LONG_LONG, long long) X(MPI_UNSIGNED_CHAR, unsigned char)
extern __attribute__((visibility("hidden"))) const mg_common_type mg_common_types[MG_NCOMMON_TYPES];

/* count x size(dt) in bytes; 0 for count <= 0. */
static inline size_t mg_type_bytes(int count, MPI_Datatype dt) {
  int sz = 0;
  if (count <= 0) return 0;
  for (int i = 0; i < MG_NCOMMON_TYPES; i++)
    if (mg_common_types[i].dt == dt) return (size_t)count * (size_t)mg_common_types[i].size;
  PMPI_Type_size(dt, &sz);
  return (size_t)count * (size_t)sz;
}

/* The other collectives' size (registry.c); for a one-count collective it gives what the inline
 * form gives. */
void mg_call_set_bytes_other(mg_call *c);

static inline void mg_call_set_bytes(mg_call *c) {
  if (mg_coll_one_count(c->coll) && !c->inter) /* receive side: significant everywhere, also in place */
    c->bytes = mg_type_bytes(c->rcount, c->rtype);
  else
    mg_call_set_bytes_other(c);
}

/* Whether a reduction's p blocks are unequal, so that an algorithm built on
 * Reduce_scatter_block must pad them (MG_R_PAD_PREDEFINED_OP): count not a
 * multiple of p, or for reduce_scatter recvcounts not all equal. Equal on
 * every rank; calls no MPI. */
int mg_needs_padding(const mg_call *c);

/* Whether op is one of MPI's predefined operations (calls no MPI). */
int mg_op_is_predefined(MPI_Op op);

/*
 * Whether algorithm `alg` of c->coll can run this call with at most
 * `scratch_max` bytes of scratch. Returns MG_WHY_NONE when it can. Depends only
 * on inputs equal on every rank (rule 1), but for an uncommitted datatype
 * (mg_call_types_committed: MG_WHY_INVALID_ARGS on the rank that passes it, which the
 * library refuses there too). c must be prepared.
 */
mg_why mg_applicable(const mg_call *c, int alg, size_t scratch_max);

/*
 * The late decision of a mock-up of a collective whose message size not every
 * rank knows (known = 0). mg_applicable() cannot judge its size restrictions or
 * scratch, so such a mock-up first makes what it needs known on every rank (the
 * root broadcasts the counts, or an allreduce of the largest block: part of its
 * cost) and then asks mg_late_ok() with those rank-invariant inputs. When the
 * answer is no it is no on every rank, and the mock-up runs the default in its
 * place. Whoever runs an algorithm (libmpiguide's dispatch, the benchmark) sets
 * mg_late.cap (the scratch cap) and clears mg_late.why before the call and reads
 * why after it: MG_WHY_NONE when the mock-up ran. The in-place family decides late
 * for collectives of known size too (its scratch depends on datatypes that may
 * differ between ranks: src/algs/inplace.c), and at gather(v)'s and scatter(v)'s
 * root alone, where the other ranks' call is the same whatever the root decides.
 */
typedef struct mg_late_state {
  size_t cap; /* scratch bytes allowed; SIZE_MAX: no cap */
  mg_why why; /* why the last call fell back late, or MG_WHY_NONE */
} mg_late_state;
extern __thread mg_late_state mg_late;
/* 1 when the mock-up may go on: `fits` (its int counts fit) and `scratch` (the
 * scratch bytes it needs, the maximum over the ranks) are equal on every rank.
 * Else 0, with the reason in mg_late.why. */
int mg_late_ok(int fits, size_t scratch);

/* Run algorithm `alg` (0 = default) for a prepared call. */
static inline int mg_run(const mg_call *c, int alg) {
  const mg_alg *a = &mg_colls[c->coll].algs[alg];
  return a->pfn ? a->pfn(c, a->param) : a->fn(c);
}

/* Validating a call (mg_call_check and its parts), which the wrappers and mg_applicable use. */
#include "registry/call_check.h"

#endif
