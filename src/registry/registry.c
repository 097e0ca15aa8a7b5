/*
 * The registry tables: one static table of algorithms per collective, row 0
 * the MPI library's own implementation ("default"), then the mock-ups of the
 * guidelines of Hunold & Carpen-Amarie, "Autotuning MPI collectives using
 * performance guidelines", HPC Asia 2018 (GL1-GL22).
 *
 * Names follow PGMPITuneLib: <collective>_as_<parts>, multi-word parts written
 * without underscores (reducescatterblock, reducelocal).
 * Message size n is the collective's message size in bytes (registry.h),
 * p the number of processes.
 */
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "registry/algorithms.h"
#include "registry/datatype.h"
#include "registry/registry.h"

/* cost: the composition's parts at their message sizes (docs/model.md), e.g. "reduce(n) + bcast(n)" */
#define ROW(nm, gl, fml, desc, restr, memtxt, memfn, cost) \
  { #nm, gl, fml, desc, mg_##nm, restr, memtxt, memfn, MG_FAM_COMPOSITION, NULL, 0, NULL, cost, 0, NULL }
#define DEFAULT(coll, mpi) \
  ROW(coll##_default, "", "", "the MPI library's own " mpi, 0, "0", NULL, "self(n)")
#define MEM(nm) mg_##nm##_mem

/*
 * The families (registry.h, MG_FAMILIES): each a row definition here, one function in src/algs/,
 * and one line per table that says which rows the collective gets.
 * Split-robustness (split.c): k = 2 and 4 pieces, the row's parameter. The reductions split
 * elements (no scratch); bcast and the per-rank-block collectives split bytes, with scratch only
 * for a datatype that is not dense (packed), at most the figure given.
 */
#define SPLIT_ROW_FN(coll, Name, k, restr, memtxt, memfn, fn, recv_side)                              \
  {#coll "_as_split" #k, "TGT1", Name "(n) <= " #k " x " Name "(n/" #k ")",                               \
   "the call as " #k " calls on consecutive pieces of the message (block collectives: the same piece "  \
   "of every block, strided)",                                                                          \
   NULL, restr, memtxt, memfn, MG_FAM_SPLIT, fn, k, NULL, #k " * self(n/" #k ")", 0, recv_side}
#define SPLIT_ROW(coll, Name, k, restr, memtxt, memfn) \
  SPLIT_ROW_FN(coll, Name, k, restr, memtxt, memfn, mg_split, NULL)
/* A point-to-point message in k pieces (pt2pt.c): the receiver must post k receives alike, so the
 * rows are measure-only (registry.h, MG_P2P_OPS): the benchmark runs both sides. */
#define SPLIT_MESSAGE(coll, Name)                                                                        \
  SPLIT_ROW_FN(coll, Name, 2, MG_R_MEASURE_ONLY, "0", NULL, mg_p2p_split, mg_p2p_split_recv),             \
      SPLIT_ROW_FN(coll, Name, 4, MG_R_MEASURE_ONLY, "0", NULL, mg_p2p_split, mg_p2p_split_recv)
#define SPLIT_ROWS(coll, Name, restr, memtxt, memfn) \
  SPLIT_ROW(coll, Name, 2, restr, memtxt, memfn), SPLIT_ROW(coll, Name, 4, restr, memtxt, memfn)
#define SPLIT_ELEMENTS(coll, Name) SPLIT_ROWS(coll, Name, 0, "0", NULL)
#define SPLIT_BYTES(coll, Name) SPLIT_ROWS(coll, Name, 0, "n bytes for a non-dense datatype", mg_split_mem)
#define SPLIT_BLOCKS(coll, Name, memtxt) SPLIT_ROWS(coll, Name, MG_R_PN_INT, memtxt, mg_split_mem)
/* Non-blocking (nonblocking.c): every collective, as I<coll> + MPI_Wait. */
#define NB_ROW_M(coll, Name, restr, memtxt, memfn)                                                      \
  {#coll "_as_i" #coll "_wait", "TGT-N1", Name "(n) <= I" #coll "(n) + Wait",                            \
   "MPI_I" #coll " with the same arguments, then MPI_Wait", NULL, restr, memtxt, memfn, MG_FAM_NONBLOCKING, \
   mg_nonblocking, 0, NULL, "self(n)", 0, NULL}
#define NB_ROW_R(coll, Name, restr) NB_ROW_M(coll, Name, restr, "0", NULL)
#define NB_ROW(coll, Name) NB_ROW_R(coll, Name, 0)
/* Monotony (padded.c): the call padded to the next power of two at least k = 2, 4 times its size
 * (the per-rank-block collectives: every block). */
#define PAD_ROW(coll, Name, k, restr, memtxt)                                                            \
  {#coll "_as_padded" #k, "MON", Name "(n) <= " Name "(n') for n <= n' (n' = next power of two >= " #k "n)", \
   "the call padded to the next power of two at least " #k " times its size, the padding zeros", NULL,      \
   (restr) | MG_R_PADDED_INT, memtxt, mg_padded_mem,                                                      \
   MG_FAM_MONOTONY, mg_padded, k, NULL, "self(pow2(" #k " * n))", 0, NULL}
#define PAD_ROWS(coll, Name, restr, memtxt) PAD_ROW(coll, Name, 2, restr, memtxt), PAD_ROW(coll, Name, 4, restr, memtxt)
#define PAD_BLOCKS(coll, Name, memtxt) PAD_ROWS(coll, Name, 0, memtxt)
#define PAD_ELEMENTS(coll, Name) \
  PAD_ROWS(coll, Name, MG_R_PAD_PREDEFINED, "2 n' (send and receive vector, n' of k = 4)")
/* In place (inplace.c): every collective with an in-place form. The reductions' scratch (one
 * datatype and count on every rank) is checked here; the others decide late (mg_late_ok). */
#define INPLACE_ROW(coll, Name, restr, memtxt, memfn)                                                   \
  {#coll "_inplace_as_copy", "TGT12", Name "(IN_PLACE, n) <= " Name "(n)",                                \
   "in place: the regular call from a scratch copy of the data the in-place call reads (scatter(v): "   \
   "into a scratch receive buffer at the root); not in place: the call as given",                        \
   NULL, restr, memtxt, memfn, MG_FAM_INPLACE, mg_inplace, 0, NULL, "copy(n) + self(n)", 0, NULL}
/* Datatypes (packed.c): the call on packed contiguous bytes, TGT 2010 eqs. 3, 4. Not for the
 * reductions: MPI defines the built-in ops on predefined datatypes only, and a user-defined op is
 * called with the call's datatype, so reducing packed data would change what it sees. */
#define PACKED_ROW(coll, Name, restr, memtxt)                                                            \
  {#coll "_as_packed", "TGT3", Name "(n/k, T(k)) <= Pack + " Name "(n) + Unpack",                        \
   "pack non-contiguous data into scratch, the call on the packed bytes, unpack the result (dense "     \
   "datatypes as they are)",                                                                            \
   NULL, restr, memtxt, mg_packed_mem, MG_FAM_DATATYPE, mg_packed, 0, NULL, "self(n)", 0, NULL}
/* User-defined operators (userop.c): the reductions, with the built-in op replaced by mpiguide's
 * own user-defined twin of it, only where the result is bitwise the same in any order. */
#define USEROP_ROW(coll, Name)                                                                           \
  {#coll "_as_userop", "TGT23", Name "(n, op) <= " Name "(n, user op)",                                  \
   "the same call with the built-in op replaced by mpiguide's equivalent user-defined op (commutative); " \
   "predefined integer types only",                                                                      \
   NULL, MG_R_BITWISE_EXACT, "0", NULL, MG_FAM_USEROP, mg_userop, 0, NULL, "self(n)", 0, NULL}

/* Point-to-point algorithms (p2p_*.c), TGT 2010 eq. 35 and §V.D: a collective not slower than a
 * simple algorithm written with point-to-point messages. ALG is the row name's suffix
 * ("binomial", "chain64k"), FN its function (one per algorithm, called with PARAM, e.g. a
 * segment size), COSTFN its LogGP schedule (docs/model.md), CROWD 1 when every rank is busy in nearly
 * every round (rings, recursive doubling and halving, Bruck, pairwise, pipelines, dissemination) and
 * 0 when a root or a chain serialises the ranks (linear, binomial and binary trees, the scan chain). */
#define P2P_ROW(coll, alg, Name, formula, desc, restr, memtxt, memfn, fn, param, costfn, crowd)     \
  {#coll "_as_" alg, "TGT35", Name "(n) <= " formula, desc, NULL, restr, memtxt, memfn, MG_FAM_P2P, \
   fn, param, costfn, NULL, crowd, NULL}

/* One-sided communication (rma.c), TGT 2010 §VII: the collective as fences around the root's
 * puts or gets of a window cached with the communicator; the window counts as scratch. */
#define RMA_ROW(coll, alg, gl, formula, desc, memtxt, cost)                                             \
  {#coll "_as_" #alg, gl, formula, desc, NULL, MG_R_NB_INT, memtxt, mg_##coll##_as_##alg##_mem, MG_FAM_RMA, \
   mg_##coll##_as_##alg, 0, NULL, cost, 0, NULL}

/* Reranking (rerank.c), TGT 2010 eq. 36: the library's own collective on the renumbered processes;
 * measure-only, reductions with commutative ops only. */
#define RERANK_ROW(coll, Name, restr)                                                                    \
  {#coll "_as_reranked", "TGT36", Name "(n) <= " Name "(n) on the processes renumbered",                 \
   "the library's own call on the communicator's processes renumbered by a seeded random permutation "   \
   "(the same root process); measure only: blocks and prefixes land in the renumbered order",            \
   NULL, MG_R_MEASURE_ONLY | (restr), "0", NULL, MG_FAM_RERANK, mg_rerank, 0, NULL, "self(n)", 0, NULL}
/* Hierarchical and lane decompositions (hier.c): TPDS 2010 §VI eq. 38 (<coll>_as_hier, param 0) and
 * Träff and Hunold's lane collectives (<coll>_as_lane, param 1, every node the same size). Every row
 * keeps the node structure with the communicator (2 communicators and 4p ints); the cost prices each
 * step as the collective on the whole communicator, an upper bound (docs/model.md). */
#define HIER_ROW(coll, kind, lane, gl, fml, desc, restr, memtxt, memfn, cost)                          \
  {#coll "_as_" kind, gl, fml, desc, NULL, restr, memtxt, memfn, MG_FAM_HIER, mg_hier, lane, NULL, cost, 0, NULL}
#define HIER(coll, fml, desc, restr, memtxt, memfn, cost) \
  HIER_ROW(coll, "hier", 0, "TGT38", fml, desc, restr, memtxt, memfn, cost)
#define LANE(coll, fml, desc, restr, memtxt, cost) \
  HIER_ROW(coll, "lane", 1, "LANE", fml, desc, (restr) | MG_R_REGULAR_NODES, memtxt, mg_lane_mem, cost)

static const mg_alg allgather_algs[] = {
    DEFAULT(allgather, "MPI_Allgather"),
    ROW(allgather_as_gather_bcast, "GL1", "Allgather(n) <= Gather(n) + Bcast(p*n)",
        "gather all blocks at rank 0, then broadcast the p*n result", MG_R_PN_INT, "0", NULL, "gather(n) + bcast(p*n)"),
    ROW(allgather_as_alltoall, "GL2", "Allgather(n) <= Alltoall(n)",
        "alltoall with p copies of the own block as send buffer", MG_R_PN_INT,
        "p*n bytes (2*p*n for derived receive types)",
        MEM(allgather_as_alltoall), "copy(p*n) + alltoall(n)"),
    ROW(allgather_as_allreduce, "GL3", "Allgather(n) <= Allreduce(p*n)",
        "bitwise-or allreduce over a zeroed p*n buffer holding the own block", MG_R_PN_INT,
        "p*n bytes", MEM(allgather_as_allreduce), "copy(p*n) + allreduce(p*n)"),
    ROW(allgather_as_allgatherv, "GL4", "Allgather(n) <= Allgatherv(n)",
        "allgatherv with equal counts (derived receive types: of packed bytes)", MG_R_PN_INT,
        "2*p ints (+ p*n bytes for derived receive types)", MEM(allgather_as_allgatherv), "allgatherv(p*n)"),
    SPLIT_BLOCKS(allgather, "Allgather", "p*n bytes + n for non-dense datatypes"),
    NB_ROW(allgather, "Allgather"),
    PAD_BLOCKS(allgather, "Allgather", "p n' + n' bytes (every block padded to n' of k = 4)"),
    INPLACE_ROW(allgather, "Allgather", 0, "the own block (span), agreed late by an allreduce", NULL),
    PACKED_ROW(allgather, "Allgather", MG_R_PN_INT, "p*n + n bytes"),
    P2P_ROW(allgather, "ring", "Allgather", "(p-1) x Sendrecv(n)",
            "ring: p-1 rounds, each sends the block received last to rank+1 and receives the next from rank-1 "
            "(packed bytes)", MG_R_PN_INT, "p*n bytes for a non-dense receive type", mg_allgather_as_ring_mem,
            mg_allgather_as_ring, 0, mg_cost_allgather_as_ring, 1),
    P2P_ROW(allgather, "recdbl", "Allgather", "log2(p) x Sendrecv(2^k n) (+ 2 messages for p not a power of two)",
            "recursive doubling: round k exchanges 2^k blocks with rank xor 2^k; the ranks above the largest "
            "power of two hand their block in first and get the result last", MG_R_PN_INT,
            "p*n bytes for a non-dense receive type", mg_allgather_as_recdbl_mem, mg_allgather_as_recdbl, 0,
            mg_cost_allgather_as_recdbl, 1),
    P2P_ROW(allgather, "bruck", "Allgather", "ceil(log2 p) x Sendrecv(<= 2^k n)",
            "Bruck: ceil(log2 p) rounds on a buffer rotated by the rank, round k sends min(2^k, p-2^k) blocks "
            "to rank-2^k; the rotation undone at the end", MG_R_PN_INT, "p*n bytes", mg_allgather_as_bruck_mem,
            mg_allgather_as_bruck, 0, mg_cost_allgather_as_bruck, 1),
    RERANK_ROW(allgather, "Allgather", 0),
    HIER(allgather, "Allgather(n) <= ||Gather(n) + Allgatherv_C(p*n) + ||Bcast(p*n)",
         "node-local gather of the packed blocks to the node's leader, allgatherv of the node blocks among the "
         "leaders, node-local bcast of all p blocks", MG_R_PN_INT, "p*n + n bytes + 2p ints", mg_hier_mem,
         "gather(n) + allgatherv(p*n) + bcast(p*n) + copy(p*n)"),
    LANE(allgather, "Allgather(n) <= ||Allgather_lane(n) + ||Allgather(p*n/k)",
         "allgather of the own block on each lane, then node-local allgather of the lanes' blocks", MG_R_PN_INT,
         "(2p+1) n bytes", "2 * allgather(n) + copy(p*n)"),
};

/* Träff, Gropp and Thakur, TPDS 2010 (see exscan_algs): TGT25 and TGT32 are equation numbers of
 * the paper; TGT-G1 (the irregular GL1) and TGT-G2 (padding to the largest block) are mpiguide's
 * ids for guidelines it states without a number. */
static const mg_alg allgatherv_algs[] = {
    DEFAULT(allgatherv, "MPI_Allgatherv"),
    ROW(allgatherv_as_allreduce, "TGT25", "Allgatherv(n) <= Allreduce(n)",
        "bitwise-or allreduce over the zeroed packed vector holding the own block at its packed offset, "
        "then unpack every block at its displacement",
        MG_R_NB_INT, "n bytes", MEM(allgatherv_as_allreduce), "copy(n) + allreduce(n)"),
    ROW(allgatherv_as_alltoallv, "TGT32", "Allgatherv(n) <= Alltoallv(n)",
        "alltoallv in which every rank sends its block to every rank (in place: a packed copy of it)",
        MG_R_NB_INT, "4*p ints + n bytes (+ the largest block in place)", MEM(allgatherv_as_alltoallv), "alltoallv(n)"),
    ROW(allgatherv_as_gatherv_bcast, "TGT-G1", "Allgatherv(n) <= Gatherv(n) + Bcast(n)",
        "gatherv to rank 0, then broadcast the blocks as one element of an indexed type of them "
        "(gaps between blocks are not written)",
        MG_R_NB_INT, "0", NULL, "gatherv(n) + bcast(n)"),
    ROW(allgatherv_as_allgather_compact, "TGT-G2",
        "Allgatherv(n) <= Allgather(p*max(recvcounts)) + local compaction",
        "allgather the packed blocks padded to the largest one, then unpack each at its displacement",
        MG_R_PMAX_INT, "p*max(recvcounts) x size(recvtype) bytes", MEM(allgatherv_as_allgather_compact), "allgather(n/p) + copy(n)"),
    NB_ROW(allgatherv, "Allgatherv"),
    INPLACE_ROW(allgatherv, "Allgatherv", MG_R_P_GT_1, "the own block (span), agreed late by an allreduce",
                NULL), /* registry.h: MPICH */
    PACKED_ROW(allgatherv, "Allgatherv", MG_R_NB_INT, "2*n bytes + 4*p ints + 2*p datatype handles"),
};

static const mg_alg allreduce_algs[] = {
    DEFAULT(allreduce, "MPI_Allreduce"),
    ROW(allreduce_as_reduce_bcast, "GL5", "Allreduce(n) <= Reduce(n) + Bcast(n)",
        "reduce to rank 0, then broadcast", 0, "0", NULL, "reduce(n) + bcast(n)"),
    ROW(allreduce_as_reducescatterblock_allgather, "GL6",
        "Allreduce(n) <= Reduce_scatter_block(n) + Allgather(n/p)",
        "reduce_scatter_block over the vector padded to a multiple of p, then allgather",
        MG_R_COMMUTE_OR_DENSE | MG_R_PAD_PREDEFINED_OP,
        "0 if p divides count, else n + up to p-1 elements",
        MEM(allreduce_as_reducescatterblock_allgather), "reduce_scatter_block(n/p) + allgather(n/p)"),
    ROW(allreduce_as_reducescatter_allgatherv, "GL7",
        "Allreduce(n) <= Reduce_scatter(n) + Allgatherv(n)",
        "reduce_scatter into contiguous segments of whole 64-byte blocks (the remainder blocks "
        "dealt one each to the first ranks), then allgatherv",
        MG_R_COMMUTE_OR_DENSE, "2*p ints", MEM(allreduce_as_reducescatter_allgatherv), "reduce_scatter(n) + allgatherv(n)"),
    SPLIT_ELEMENTS(allreduce, "Allreduce"),
    NB_ROW(allreduce, "Allreduce"),
    PAD_ELEMENTS(allreduce, "Allreduce"),
    INPLACE_ROW(allreduce, "Allreduce", 0, "n (span) in place", mg_inplace_mem),
    USEROP_ROW(allreduce, "Allreduce"),
    P2P_ROW(allreduce, "recdbl", "Allreduce", "log2 p rounds of Sendrecv(n) + Reduce_local(n)",
            "recursive doubling over the largest power of two <= p, whole vectors, the extra ranks folded in "
            "first and served last; rank order kept",
            0, "n", mg_allreduce_as_recdbl_mem, mg_allreduce_as_recdbl, 0, mg_cost_allreduce_as_recdbl, 1),
    P2P_ROW(allreduce, "ring", "Allreduce", "2 (p-1) Sendrecv(n/p) + (p-1) Reduce_local(n/p)",
            "ring reduce-scatter, then ring allgather, p blocks", MG_R_COMMUTATIVE, "2 n/p",
            mg_allreduce_as_ring_mem, mg_allreduce_as_ring, 0, mg_cost_allreduce_as_ring, 1),
    P2P_ROW(allreduce, "rabenseifner", "Allreduce",
            "recursive-halving Reduce_scatter(n) + recursive-doubling Allgather(n) of Sendrecvs",
            "extra ranks fold into their neighbour, recursive halving (distances 1, 2, 4...: rank order kept), "
            "then recursive doubling allgather; the folded ranks get the result last",
            0, "n", mg_allreduce_as_rabenseifner_mem, mg_allreduce_as_rabenseifner, 0,
            mg_cost_allreduce_as_rabenseifner, 1),
    RERANK_ROW(allreduce, "Allreduce", MG_R_COMMUTATIVE),
    HIER(allreduce, "Allreduce(n) <= ||Reduce(n) + Allreduce_C(n) + ||Bcast(n)",
         "node-local reduce to the node's leader, allreduce among the leaders, node-local bcast", MG_R_NODE_ORDER,
         "0", NULL, "reduce(n) + allreduce(n) + bcast(n)"),
    LANE(allreduce, "Allreduce(n) <= ||Reduce_scatter(n) + ||Allreduce_lane(n/k) + ||Allgatherv(n)",
         "node-local reduce_scatter into k blocks, allreduce of block i on lane i, node-local allgatherv",
         MG_R_NODE_ORDER | MG_R_COMMUTE_OR_DENSE, "2 spans of count elements + 2p ints",
         "reduce_scatter(n) + allreduce(n) + allgatherv(n)"),
};

static const mg_alg alltoall_algs[] = {
    DEFAULT(alltoall, "MPI_Alltoall"),
    ROW(alltoall_as_alltoallv, "GL8", "Alltoall(n) <= Alltoallv(n)", "alltoallv with equal counts",
        MG_R_PN_INT | MG_R_NOT_IN_PLACE, "4*p ints", MEM(alltoall_as_alltoallv), "alltoallv(p*n)"), /* registry.h: MPICH */
    SPLIT_BLOCKS(alltoall, "Alltoall", "2*p*n bytes for non-dense datatypes"),
    NB_ROW(alltoall, "Alltoall"),
    PAD_BLOCKS(alltoall, "Alltoall", "2 p n' bytes (every block padded to n' of k = 4)"),
    INPLACE_ROW(alltoall, "Alltoall", 0, "p*n (span), agreed late by an allreduce", NULL),
    PACKED_ROW(alltoall, "Alltoall", MG_R_PN_INT, "2*p*n bytes"),
    P2P_ROW(alltoall, "linear", "Alltoall", "(p-1) x (Isend(n) + Irecv(n)) + Waitall",
            "every Irecv and Isend posted at once, then Waitall (in place: the blocks to send packed first)",
            MG_R_NB_INT, "2*p requests (+ 2*p*n bytes in place)", mg_alltoall_as_linear_mem, mg_alltoall_as_linear,
            0, mg_cost_alltoall_as_linear, 1),
    P2P_ROW(alltoall, "pairwise", "Alltoall", "(p-1) x Sendrecv(n)",
            "p-1 Sendrecv rounds, round s sends to rank+s and receives from rank-s (in place: a round-robin "
            "schedule of disjoint pairs exchanging packed blocks)", MG_R_NB_INT, "2*n bytes in place",
            mg_alltoall_as_pairwise_mem, mg_alltoall_as_pairwise, 0, mg_cost_alltoall_as_pairwise, 1),
    P2P_ROW(alltoall, "bruck", "Alltoall", "ceil(log2 p) x Sendrecv(<= p/2 n) + 2 local rotations",
            "Bruck: rotate, ceil(log2 p) rounds that send the blocks whose slot has bit k set to rank+2^k, "
            "rotate back (packed bytes)", MG_R_PN_INT, "2*p*n bytes", mg_alltoall_as_bruck_mem,
            mg_alltoall_as_bruck, 0, mg_cost_alltoall_as_bruck, 1),
    RERANK_ROW(alltoall, "Alltoall", 0),
};

/* Träff, Gropp and Thakur (see exscan_algs). The irregular collectives below know no message size
 * on every rank (registry.h): their mock-ups have no size restrictions here and a mem formula of p
 * only; one that needs a size agrees on it first and may still run the default (mg_late_ok). */
static const mg_alg alltoallv_algs[] = {
    DEFAULT(alltoallv, "MPI_Alltoallv"),
    ROW(alltoallv_as_alltoallw, "TGT-A1", "Alltoallv(n) <= Alltoallw(n)",
        "alltoallw with the same type for every peer and displacements in bytes (a byte displacement "
        "beyond an int: an hindexed type of its own for that peer); in place from a copy of the blocks",
        0, "4*p ints + 2*p datatype handles (in place + the largest span of the blocks, agreed late)",
        MEM(alltoallv_as_alltoallw), "alltoallw(n)"),
    ROW(alltoallv_as_allreduce_alltoall, "TGT-A2", "Alltoallv(n) <= Allreduce(max) + Alltoall(p*max)",
        "allreduce the largest block m, then alltoall the packed blocks padded to m bytes; the "
        "default runs when p*m > INT_MAX or the scratch exceeds the cap",
        0, "2*p*m bytes (m: the largest block, agreed late)", NULL, "allreduce(8) + copy(n) + alltoall(n/p)"),
    NB_ROW_M(alltoallv, "Alltoallv", MG_R_NOT_IN_PLACE, /* registry.h, nonblocking.c: Open MPI */
             "p ints (zeros for the counts of a side whose datatype is empty)", mg_nonblocking_mem),
    INPLACE_ROW(alltoallv, "Alltoallv", 0, "the bytes the blocks cover, agreed late by an allreduce",
                NULL),
    PACKED_ROW(alltoallv, "Alltoallv", 0,
               "4*p ints + 2*p handles, then the largest sent + received bytes (agreed late)"),
};

static const mg_alg alltoallw_algs[] = {
    DEFAULT(alltoallw, "MPI_Alltoallw"),
    NB_ROW_R(alltoallw, "Alltoallw", MG_R_NOT_IN_PLACE),
    INPLACE_ROW(alltoallw, "Alltoallw", MG_R_P_GT_1, "the bytes the blocks cover, agreed late by an allreduce",
                NULL), /* registry.h: Open MPI */
    PACKED_ROW(alltoallw, "Alltoallw", 0,
               "4*p ints + 2*p handles, then the largest sent + received bytes (agreed late)"),
};

static const mg_alg barrier_algs[] = {
    DEFAULT(barrier, "MPI_Barrier"),
    ROW(barrier_as_allreduce, "TGT-B1", "Barrier <= Allreduce(1)",
        "allreduce of one int: no rank's result is complete before every rank contributed", 0, "0", NULL, "allreduce(4)"),
    ROW(barrier_as_reduce_bcast, "TGT-B2", "Barrier <= Reduce(1) + Bcast(1)",
        "reduce one int to rank 0, which has then heard from every rank, then broadcast it", 0, "0", NULL, "reduce(4) + bcast(4)"),
    NB_ROW(barrier, "Barrier"),
    P2P_ROW(barrier, "dissemination", "Barrier", "ceil(log2 p) x Sendrecv(0)",
            "dissemination: round k sends an empty message to rank+2^k and receives one from rank-2^k", 0, "0",
            NULL, mg_barrier_as_dissemination, 0, mg_cost_barrier_as_dissemination, 1),
    P2P_ROW(barrier, "binomial", "Barrier", "fan-in + fan-out of empty messages on a binomial tree",
            "empty messages up a binomial tree to rank 0, then down the same tree", 0, "0", NULL,
            mg_barrier_as_binomial, 0, mg_cost_barrier_as_binomial, 0),
    P2P_ROW(barrier, "linear", "Barrier", "(p-1) x Recv(0) + (p-1) x Send(0) at rank 0",
            "rank 0 receives an empty message from every rank, then sends one to every rank", 0, "p requests",
            mg_barrier_as_linear_mem, mg_barrier_as_linear, 0, mg_cost_barrier_as_linear, 0),
    RERANK_ROW(barrier, "Barrier", 0),
    HIER(barrier, "Barrier <= ||Barrier + Barrier_C + ||Barrier",
         "node-local barrier, barrier among the node leaders, node-local barrier", 0, "0", NULL, "3 * barrier(0)"),
};

static const mg_alg bcast_algs[] = {
    DEFAULT(bcast, "MPI_Bcast"),
    ROW(bcast_as_allgatherv, "GL9", "Bcast(n) <= Allgatherv(n)",
        "allgatherv in which only the root contributes", 0, "2*p ints", MEM(bcast_as_allgatherv), "allgatherv(n)"),
    ROW(bcast_as_scatter_allgather, "GL10", "Bcast(n) <= Scatter(n) + Allgather(n/p)",
        "scatter the packed vector padded to a multiple of p bytes, then allgather", MG_R_PN_INT,
        "p*ceil(n/p) bytes", MEM(bcast_as_scatter_allgather), "scatter(n/p) + allgather(n/p)"),
    SPLIT_BYTES(bcast, "Bcast"),
    NB_ROW(bcast, "Bcast"),
    PAD_ROWS(bcast, "Bcast", 0, "n' bytes (the padded message of k = 4)"),
    PACKED_ROW(bcast, "Bcast", MG_R_NB_INT, "n bytes"),
    P2P_ROW(bcast, "linear", "Bcast", "(p-1) Send(n) at the root",
            "the root sends the vector to every rank (p-1 Isends, then waits for them)", 0, "p requests at the root",
            mg_bcast_as_linear_mem, mg_bcast_as_linear, 0, mg_cost_bcast_as_linear, 0),
    P2P_ROW(bcast, "binomial", "Bcast", "ceil(log2 p) rounds of Send(n)",
            "binomial tree rooted at the root: whole vectors, the largest subtree first", 0, "0", NULL,
            mg_bcast_as_binomial, 0, mg_cost_bcast_as_binomial, 0),
    P2P_ROW(bcast, "chain16k", "Bcast", "pipelined chain of Send(16 KiB)",
            "pipelined chain root, root+1, ... in 16 KiB segments of the packed vector", MG_R_NB_INT,
            "n bytes (the packed vector of a non-dense datatype)", mg_bcast_p2p_image_mem, mg_bcast_as_chain,
            MG_P2P_SEG16K, mg_cost_bcast_as_chain, 1),
    P2P_ROW(bcast, "binary16k", "Bcast", "pipelined binary tree of Send(16 KiB)",
            "pipelined binary tree (children 2v+1, 2v+2 of v = rank - root) in 16 KiB segments of the packed vector",
            MG_R_NB_INT, "n bytes (the packed vector of a non-dense datatype)", mg_bcast_p2p_image_mem,
            mg_bcast_as_binary, MG_P2P_SEG16K, mg_cost_bcast_as_binary, 0),
    P2P_ROW(bcast, "scatter_ring", "Bcast", "binomial Scatter(n/p) + ring Allgather(n/p) of Sends",
            "van de Geijn: binomial scatter of p blocks of the packed vector, then a ring allgather", MG_R_NB_INT,
            "n bytes (the packed vector; the root's ring receives)", mg_bcast_p2p_image_mem,
            mg_bcast_as_scatter_ring, 0, mg_cost_bcast_as_scatter_ring, 1),
    RMA_ROW(bcast, rma_put, "TGT-O1", "Bcast(n) <= Win_fence + (p-1) x Put(n) + Win_fence",
            "the root puts the vector (packed bytes) into the window of every other rank between two fences; "
            "they copy it out",
            "the window: n rounded up to a power of two (at least 4 KiB), kept with the communicator",
            "2 * barrier(0) + (p-1) * sendrecv(n) + copy(n)"),
    RERANK_ROW(bcast, "Bcast", 0),
    HIER(bcast, "Bcast(n) <= Bcast_root's node(n) + Bcast_C(n) + ||Bcast(n)",
         "bcast on the root's node, among the node leaders from the root's node, then on the other nodes", 0, "0",
         NULL, "3 * bcast(n)"),
    LANE(bcast, "Bcast(n) <= Scatter_root's node(n/k) + ||Bcast_lane(n/k) + ||Allgather(n/k)",
         "scatter k pieces of the packed vector on the root's node, bcast of piece i on lane i, node-local "
         "allgatherv", MG_R_NB_INT, "n bytes + 2p ints", "scatter(n/p) + bcast(n) + allgather(n/p)"),
};

/* Träff, Gropp and Thakur, "Self-Consistent MPI Performance Guidelines", TPDS 2010: the guideline
 * column holds the equation number of its catalogue ("TGT19"), or, for a guideline it states
 * without one, mpiguide's id "TGT-<collective letter><n>" (B barrier, X exscan, R reduce_scatter,
 * G allgatherv, V gatherv and scatterv, A alltoallv). */
static const mg_alg exscan_algs[] = {
    DEFAULT(exscan, "MPI_Exscan"),
    ROW(exscan_as_scan_sendrecv, "TGT-X1", "Exscan(n) <= Scan(n) + Sendrecv(n)",
        "inclusive scan into scratch, then shift by one rank (rank i sends to i+1, over a private "
        "communicator); rank 0's buffer is left untouched",
        0, "n", MEM(exscan_as_scan_sendrecv), "scan(n) + sendrecv(n)"),
    ROW(exscan_as_allgather_reducelocal, "TGT-X2", "Exscan(n) <= Allgather(n) + Reduce_local(n)",
        "allgather all vectors, rank i folds blocks i-1 down to 0 locally (rank order)", MG_R_PN_INT,
        "p*n", MEM(exscan_as_allgather_reducelocal), "allgather(n) + reduce_local((p-1)*n)"),
    SPLIT_ELEMENTS(exscan, "Exscan"),
    NB_ROW(exscan, "Exscan"),
    PAD_ELEMENTS(exscan, "Exscan"),
    INPLACE_ROW(exscan, "Exscan", 0, "n (span) in place", mg_inplace_mem),
    USEROP_ROW(exscan, "Exscan"),
    RERANK_ROW(exscan, "Exscan", MG_R_COMMUTATIVE),
};

static const mg_alg gather_algs[] = {
    DEFAULT(gather, "MPI_Gather"),
    ROW(gather_as_allgather, "GL11", "Gather(n) <= Allgather(n)",
        "allgather; non-roots receive into scratch", MG_R_PN_INT, "p*n bytes",
        MEM(gather_as_allgather), "allgather(n)"),
    ROW(gather_as_gatherv, "GL12", "Gather(n) <= Gatherv(n)", "gatherv with equal counts",
        MG_R_PN_INT, "2*p ints", MEM(gather_as_gatherv), "gatherv(p*n)"),
    ROW(gather_as_reduce, "GL13", "Gather(n) <= Reduce(p*n)",
        "bitwise-or reduce over a zeroed p*n buffer holding the own block", MG_R_PN_INT,
        "p*n bytes (2*p*n at the root)", MEM(gather_as_reduce), "copy(p*n) + reduce(p*n)"),
    SPLIT_BLOCKS(gather, "Gather", "p*n bytes + n for non-dense datatypes"),
    NB_ROW(gather, "Gather"),
    PAD_BLOCKS(gather, "Gather", "p n' + n' bytes (every block padded to n' of k = 4)"),
    INPLACE_ROW(gather, "Gather", 0, "the root's block (span) at an in-place root", NULL),
    PACKED_ROW(gather, "Gather", MG_R_PN_INT, "p*n + n bytes"),
    P2P_ROW(gather, "linear", "Gather", "(p-1) x Recv(n) (TGT 2010 eq. 35)",
            "the root posts a receive from every rank straight into its block, every rank sends its block", 0,
            "p requests", mg_gather_as_linear_mem, mg_gather_as_linear, 0, mg_cost_gather_as_linear, 0),
    P2P_ROW(gather, "binomial", "Gather", "binomial tree of ceil(log2 p) rounds of Send/Recv(<= p/2 n)",
            "binomial fan-in: each rank sends its subtree's blocks (packed) to its parent", MG_R_PN_INT,
            "p*n bytes", mg_gather_as_binomial_mem, mg_gather_as_binomial, 0, mg_cost_gather_as_binomial, 0),
    RMA_ROW(gather, rma_get, "TGT-O2", "Gather(n) <= Win_fence + (p-1) x Get(n) + Win_fence",
            "every rank packs its block into its window, the root gets each block between two fences "
            "(TGT 2010 with n the whole vector: p x Get(n/p))",
            "the window: n rounded up to a power of two (at least 4 KiB), kept with the communicator; + (p-1)*n "
            "at the root", "2 * barrier(0) + (p-1) * sendrecv(n) + copy(n)"),
    RERANK_ROW(gather, "Gather", 0),
    HIER(gather, "Gather(n) <= ||Gather(n) + Gatherv_C(p*n) + Send(p*n)",
         "node-local gather of the packed blocks to the leaders, gatherv of the node blocks to the root's node "
         "leader, which sends them to the root if it is not the root", MG_R_PN_INT, "p*n + n bytes + 2p ints",
         mg_hier_mem, "gather(n) + gatherv(p*n) + sendrecv(p*n) + copy(p*n)"),
};

static const mg_alg gatherv_algs[] = {
    DEFAULT(gatherv, "MPI_Gatherv"),
    ROW(gatherv_as_reduce, "TGT24", "Gatherv(n) <= Reduce(n)",
        "the root scatters each rank's packed offset and n, then a bitwise-or reduce over the zeroed "
        "packed vector holding the own block; the default runs when n > INT_MAX or the scratch exceeds "
        "the cap",
        0, "2*p long longs at the root, then n bytes (2*n at the root)", MEM(gatherv_as_reduce), "scatter(16) + copy(n) + reduce(n)"),
    ROW(gatherv_as_alltoallv, "TGT30", "Gatherv(n) <= Alltoallv(n)",
        "alltoallv in which every rank sends its block to the root only", 0, "4*p ints",
        MEM(gatherv_as_alltoallv), "alltoallv(n/p)"),
    NB_ROW(gatherv, "Gatherv"),
    INPLACE_ROW(gatherv, "Gatherv", 0, "the root's block (span) at an in-place root", NULL),
    PACKED_ROW(gatherv, "Gatherv", 0, "4*p ints + 2*p handles, then 2*n bytes (n agreed late)"),
};

static const mg_alg reduce_algs[] = {
    DEFAULT(reduce, "MPI_Reduce"),
    ROW(reduce_as_allreduce, "GL14", "Reduce(n) <= Allreduce(n)",
        "allreduce; non-roots receive into scratch", 0, "n", MEM(reduce_as_allreduce), "allreduce(n)"),
    ROW(reduce_as_reducescatterblock_gather, "GL15",
        "Reduce(n) <= Reduce_scatter_block(n) + Gather(n/p)",
        "reduce_scatter_block over the vector padded to a multiple of p, then gather at the root",
        MG_R_COMMUTE_OR_DENSE | MG_R_PAD_PREDEFINED_OP,
        "n/p if p divides count, else n + up to p-1 elements",
        MEM(reduce_as_reducescatterblock_gather), "reduce_scatter_block(n/p) + gather(n/p)"),
    ROW(reduce_as_reducescatter_gatherv, "GL16", "Reduce(n) <= Reduce_scatter(n) + Gatherv(n)",
        "reduce_scatter into contiguous segments of whole 64-byte blocks, then gatherv at the root",
        MG_R_COMMUTE_OR_DENSE,
        "2*p ints + n/p (rounded up to 64 bytes)", MEM(reduce_as_reducescatter_gatherv), "reduce_scatter(n) + gatherv(n)"),
    SPLIT_ROWS(reduce, "Reduce", 0, "half the vector at an in-place root", mg_split_mem),
    NB_ROW_R(reduce, "Reduce", MG_R_LB_ZERO), /* registry.h: Open MPI */
    PAD_ELEMENTS(reduce, "Reduce"),
    INPLACE_ROW(reduce, "Reduce", 0, "n (span) at an in-place root", mg_inplace_mem),
    USEROP_ROW(reduce, "Reduce"),
    P2P_ROW(reduce, "linear", "Reduce", "(p-1) Recv(n) + (p-1) Reduce_local(n) at the root",
            "the root receives x(p-1), x(p-2), ..., x0 in turn and folds each in from the left", 0,
            "2n at the root (its receives, an in-place input)", mg_reduce_as_linear_mem, mg_reduce_as_linear, 0,
            mg_cost_reduce_as_linear, 0),
    P2P_ROW(reduce, "binomial", "Reduce", "ceil(log2 p) rounds of Send(n) + Reduce_local(n)",
            "binomial tree, whole vectors (a non-commutative op: rooted at rank 0, which sends the result to the root)",
            0, "2n", mg_reduce_as_binomial_mem, mg_reduce_as_binomial, 0, mg_cost_reduce_as_binomial, 0),
    P2P_ROW(reduce, "chain16k", "Reduce", "pipelined chain of Send(16 KiB) + Reduce_local(16 KiB)",
            "pipelined chains from rank p-1 down and from rank 0 up to the root, in segments of whole elements "
            "(16 KiB, at least one); rank order kept",
            0, "3 segments", mg_reduce_as_chain16k_mem, mg_reduce_as_chain, MG_P2P_SEG16K, mg_cost_reduce_as_chain, 1),
    P2P_ROW(reduce, "rabenseifner", "Reduce", "recursive-halving Reduce_scatter(n) + binomial Gather(n) of Sends",
            "extra ranks fold into their neighbour, recursive halving over the largest power of two <= p "
            "(distances 1, 2, 4...: rank order kept), then a binomial gather to the root",
            0, "2n", mg_reduce_as_rabenseifner_mem, mg_reduce_as_rabenseifner, 0, mg_cost_reduce_as_rabenseifner, 1),
    RERANK_ROW(reduce, "Reduce", MG_R_COMMUTATIVE),
    HIER(reduce, "Reduce(n) <= ||Reduce(n) + Reduce_C(n) + Send(n)",
         "node-local reduce to the leaders, reduce among the leaders to the root's node, whose leader sends the "
         "result to the root if it is not the root", MG_R_NODE_ORDER, "2 spans of count elements at the leaders",
         mg_hier_mem, "reduce(n) + reduce(n) + sendrecv(n)"),
    LANE(reduce, "Reduce(n) <= ||Reduce_scatter(n) + ||Reduce_lane(n/k) + Gatherv_root's node(n)",
         "node-local reduce_scatter into k blocks, reduce of block i on lane i to the root's node, gatherv to the "
         "root there", MG_R_NODE_ORDER | MG_R_COMMUTE_OR_DENSE, "2 spans of count elements + 2p ints",
         "reduce_scatter(n) + reduce(n) + gatherv(n)"),
};

static const mg_alg reduce_scatter_algs[] = {
    DEFAULT(reduce_scatter, "MPI_Reduce_scatter"),
    ROW(reduce_scatter_as_reduce_scatterv, "TGT19", "Reduce_scatter(n) <= Reduce(n) + Scatterv(n)",
        "reduce the whole vector to rank 0, then scatterv the blocks (displacements: prefix sums of "
        "recvcounts)",
        MG_R_N_INT, "p ints (+ n at rank 0)", MEM(reduce_scatter_as_reduce_scatterv), "reduce(n) + scatterv(n)"),
    ROW(reduce_scatter_as_allreduce, "TGT22", "Reduce_scatter(n) <= Allreduce(n)",
        "allreduce of the whole vector, keep the own block", MG_R_N_INT, "n",
        MEM(reduce_scatter_as_allreduce), "allreduce(n)"),
    ROW(reduce_scatter_as_reducescatterblock, "TGT-R1",
        "Reduce_scatter(n) <= Reduce_scatter_block(p*max(recvcounts))",
        "reduce_scatter_block with every block padded to the largest count (equal counts: as is)",
        MG_R_COMMUTE_OR_DENSE | MG_R_PAD_PREDEFINED_OP,
        "0 if the counts are equal, else p*max(recvcounts) elements",
        MEM(reduce_scatter_as_reducescatterblock), "reduce_scatter_block(n/p)"),
    NB_ROW_R(reduce_scatter, "Reduce_scatter", MG_R_COMMUTE_OR_DENSE),
    INPLACE_ROW(reduce_scatter, "Reduce_scatter", 0, "the whole vector (span) in place", mg_inplace_mem),
    USEROP_ROW(reduce_scatter, "Reduce_scatter"),
};

static const mg_alg reduce_scatter_block_algs[] = {
    DEFAULT(reduce_scatter_block, "MPI_Reduce_scatter_block"),
    ROW(reduce_scatter_block_as_reduce_scatter, "GL17",
        "Reduce_scatter_block(n) <= Reduce(p*n) + Scatter(n)",
        "reduce the whole p*n vector to rank 0, then scatter", MG_R_PN_INT, "p*n at rank 0",
        MEM(reduce_scatter_block_as_reduce_scatter), "reduce(p*n) + scatter(n)"),
    ROW(reduce_scatter_block_as_reducescatter, "GL18",
        "Reduce_scatter_block(n) <= Reduce_scatter(n)", "reduce_scatter with equal counts",
        MG_R_PN_INT | MG_R_COMMUTE_OR_DENSE, "p ints", MEM(reduce_scatter_block_as_reducescatter), "reduce_scatter(p*n)"),
    ROW(reduce_scatter_block_as_allreduce, "GL19", "Reduce_scatter_block(n) <= Allreduce(p*n)",
        "allreduce of the whole vector, keep the own block", MG_R_PN_INT, "p*n",
        MEM(reduce_scatter_block_as_allreduce), "allreduce(p*n)"),
    NB_ROW_R(reduce_scatter_block, "Reduce_scatter_block", MG_R_COMMUTE_OR_DENSE),
    INPLACE_ROW(reduce_scatter_block, "Reduce_scatter_block", 0, "p*n (span) in place", mg_inplace_mem),
    USEROP_ROW(reduce_scatter_block, "Reduce_scatter_block"),
    P2P_ROW(reduce_scatter_block, "rechalving", "Reduce_scatter_block", "log2 p rounds of Sendrecv(p*n/2^k)",
            "recursive halving over the largest power of two <= p, extra ranks folded in first (a non-commutative "
            "op: over the blocks in bit-reversed order, distances 1, 2, 4...)",
            MG_R_PN_INT, "2 p*n", mg_reduce_scatter_block_as_rechalving_mem, mg_reduce_scatter_block_as_rechalving, 0,
            mg_cost_reduce_scatter_block_as_rechalving, 1),
    P2P_ROW(reduce_scatter_block, "ring", "Reduce_scatter_block", "(p-1) Sendrecv(n) + (p-1) Reduce_local(n)",
            "ring: each block's partial travels once round the ring, ending at its rank", MG_R_COMMUTATIVE, "2 n",
            mg_reduce_scatter_block_as_ring_mem, mg_reduce_scatter_block_as_ring, 0,
            mg_cost_reduce_scatter_block_as_ring, 1),
    P2P_ROW(reduce_scatter_block, "pairwise", "Reduce_scatter_block", "(p-1) Sendrecv(n) + (p-1) Reduce_local(n)",
            "pairwise exchange: at step s rank i sends block i+s to rank i+s and adds the block of rank i-s",
            MG_R_COMMUTATIVE, "2 n", mg_reduce_scatter_block_as_pairwise_mem, mg_reduce_scatter_block_as_pairwise, 0,
            mg_cost_reduce_scatter_block_as_pairwise, 1),
    RERANK_ROW(reduce_scatter_block, "Reduce_scatter_block", MG_R_COMMUTATIVE),
};

static const mg_alg scan_algs[] = {
    DEFAULT(scan, "MPI_Scan"),
    ROW(scan_as_exscan_reducelocal, "GL20", "Scan(n) <= Exscan(n) + Reduce_local(n)",
        "exclusive scan, then combine with the own contribution locally", 0, "n",
        MEM(scan_as_exscan_reducelocal), "exscan(n) + reduce_local(n)"),
    SPLIT_ELEMENTS(scan, "Scan"),
    NB_ROW(scan, "Scan"),
    PAD_ELEMENTS(scan, "Scan"),
    INPLACE_ROW(scan, "Scan", 0, "n (span) in place", mg_inplace_mem),
    USEROP_ROW(scan, "Scan"),
    P2P_ROW(scan, "linear", "Scan", "(p-1) Send(n) + Reduce_local(n) along a chain",
            "rank i receives the prefix of 0..i-1 from i-1, combines and sends its prefix to i+1", 0, "n",
            mg_scan_as_linear_mem, mg_scan_as_linear, 0, mg_cost_scan_as_linear, 0),
    P2P_ROW(scan, "recdbl", "Scan", "ceil(log2 p) rounds of Sendrecv(n) + 2 Reduce_local(n)",
            "recursive doubling (Hillis-Steele): group reductions exchanged at distances 1, 2, 4...", 0, "2n",
            mg_scan_as_recdbl_mem, mg_scan_as_recdbl, 0, mg_cost_scan_as_recdbl, 1),
    RERANK_ROW(scan, "Scan", MG_R_COMMUTATIVE),
};

static const mg_alg scatter_algs[] = {
    DEFAULT(scatter, "MPI_Scatter"),
    ROW(scatter_as_bcast, "GL21", "Scatter(n) <= Bcast(p*n)",
        "broadcast all p blocks, keep the own one", MG_R_PN_INT, "p*n bytes at non-roots",
        MEM(scatter_as_bcast), "bcast(p*n)"),
    ROW(scatter_as_scatterv, "GL22", "Scatter(n) <= Scatterv(n)", "scatterv with equal counts",
        MG_R_PN_INT, "2*p ints", MEM(scatter_as_scatterv), "scatterv(p*n)"),
    SPLIT_BLOCKS(scatter, "Scatter", "p*n bytes + n for non-dense datatypes"),
    NB_ROW(scatter, "Scatter"),
    PAD_BLOCKS(scatter, "Scatter", "p n' + n' bytes (every block padded to n' of k = 4)"),
    INPLACE_ROW(scatter, "Scatter", 0, "the root's block (span) at an in-place root", NULL),
    PACKED_ROW(scatter, "Scatter", MG_R_PN_INT, "p*n + n bytes"),
    P2P_ROW(scatter, "linear", "Scatter", "(p-1) x Send(n)",
            "the root posts a send of each block to its rank, every rank receives its block", 0, "p requests",
            mg_scatter_as_linear_mem, mg_scatter_as_linear, 0, mg_cost_scatter_as_linear, 0),
    P2P_ROW(scatter, "binomial", "Scatter", "binomial tree of ceil(log2 p) rounds of Send/Recv(<= p/2 n)",
            "binomial fan-out, farthest child first: each rank passes its children their subtrees' blocks "
            "(packed)", MG_R_PN_INT, "p*n bytes", mg_scatter_as_binomial_mem, mg_scatter_as_binomial, 0,
            mg_cost_scatter_as_binomial, 0),
    RERANK_ROW(scatter, "Scatter", 0),
    HIER(scatter, "Scatter(n) <= Send(p*n) + Scatterv_C(p*n) + ||Scatter(n)",
         "the root packs the blocks in node order (sent to its node's leader if it is not the leader), scatterv "
         "of the node blocks among the leaders, node-local scatter", MG_R_PN_INT, "p*n + n bytes + 2p ints",
         mg_hier_mem, "copy(p*n) + sendrecv(p*n) + scatterv(p*n) + scatter(n)"),
};

static const mg_alg scatterv_algs[] = {
    DEFAULT(scatterv, "MPI_Scatterv"),
    ROW(scatterv_as_alltoallv, "TGT31", "Scatterv(n) <= Alltoallv(n)",
        "alltoallv in which the root sends block i to rank i and every rank receives from the root only",
        0, "4*p ints", MEM(scatterv_as_alltoallv), "alltoallv(n)"),
    ROW(scatterv_as_scatter_bcast, "TGT34", "Scatterv(n) <= Scatter(p) + Bcast(n)",
        "the root scatters each rank's packed offset and n, then broadcasts the packed blocks; each "
        "rank unpacks its own; the default runs when n > INT_MAX or the scratch exceeds the cap",
        0, "2*p long longs at the root, then n bytes", MEM(scatterv_as_scatter_bcast), "scatter(16) + bcast(n)"),
    ROW(scatterv_as_bcast_bcast, "TGT-V1", "Scatterv(n) <= Bcast(p) + Bcast(n)",
        "the root broadcasts its sendcounts and size(sendtype), then the packed blocks; each rank "
        "unpacks its own; the default runs when n > INT_MAX or the scratch exceeds the cap",
        0, "p+1 ints, then n bytes", MEM(scatterv_as_bcast_bcast), "bcast(4*p + 4) + bcast(n)"),
    NB_ROW(scatterv, "Scatterv"),
    INPLACE_ROW(scatterv, "Scatterv", 0, "the root's block (span) at an in-place root", NULL),
    PACKED_ROW(scatterv, "Scatterv", 0, "4*p ints + 2*p handles, then 2*n bytes (n agreed late)"),
};

/*
 * The point-to-point operations (registry.h, MG_P2P_OPS; pt2pt.c), the guidelines of TGT 2010 §IV:
 * eq. (6) Send <= Isend + Wait, (8) Send <= Ssend, (9) Rsend <= Send, (10) Sendrecv <= Isend + Recv +
 * Wait, (11) Sendrecv <= Irecv + Send + Wait, and split-robustness (eq. 1, its Fig. 1) for Send. Eq.
 * (5), Isend + Wait <= Send, and (7), Send ~ Isend + Wait, are verdicts of check on the same
 * measurements (a non-blocking send cannot be replaced by a blocking one).
 */
#define PT2PT_ROW(nm, gl, fml, desc, restr, cost) \
  { #nm, gl, fml, desc, mg_##nm, restr, "0", NULL, MG_FAM_PT2PT, NULL, 0, NULL, cost, 0, NULL }

static const mg_alg send_algs[] = {
    DEFAULT(send, "MPI_Send"),
    PT2PT_ROW(send_as_isend_wait, "TGT6", "Send(n) <= Isend(n) + Wait", "MPI_Isend with the same arguments, "
              "then MPI_Wait", 0, "self(n)"),
    PT2PT_ROW(send_as_ssend, "TGT8", "Send(n) <= Ssend(n)", "MPI_Ssend with the same arguments; measure only: "
              "a program that relies on MPI buffering small messages (unsafe, but common) would deadlock",
              MG_R_MEASURE_ONLY, "self(n)"),
    SPLIT_MESSAGE(send, "Send"),
    {"send_as_rma_put", "TGT-O3", "Send(n) <= Win_fence + Put(n) + Win_fence",
     "fences around a put into the destination's window (kept with the communicator), which the receiver "
     "copies out (TGT 2010 states ~: check also gives the reverse and the equivalence); measure only: the "
     "receiver must take part in the fences (2 processes)",
     NULL, MG_R_MEASURE_ONLY | MG_R_NB_INT, "the window: n rounded up to a power of two (at least 4 KiB)", NULL,
     MG_FAM_RMA, mg_p2p_rma_put, 0, NULL, "2 * barrier(0) + sendrecv(n) + copy(n)", 0, mg_p2p_rma_put_recv},
};
static const mg_alg ssend_algs[] = {DEFAULT(ssend, "MPI_Ssend")};
static const mg_alg rsend_algs[] = {
    DEFAULT(rsend, "MPI_Rsend"),
    PT2PT_ROW(rsend_as_send, "TGT9", "Rsend(n) <= Send(n)", "MPI_Send with the same arguments (a ready send's "
              "receive is posted, so a standard send matches it alike)", 0, "send(n)"),
};
static const mg_alg isend_algs[] = {DEFAULT(isend, "MPI_Isend")};
static const mg_alg recv_algs[] = {DEFAULT(recv, "MPI_Recv")};
static const mg_alg irecv_algs[] = {DEFAULT(irecv, "MPI_Irecv")};
static const mg_alg sendrecv_algs[] = {
    DEFAULT(sendrecv, "MPI_Sendrecv"),
    PT2PT_ROW(sendrecv_as_isend_recv_wait, "TGT10", "Sendrecv(n) <= Isend(n) + Recv(n) + Wait",
              "MPI_Isend of the send side, MPI_Recv of the receive side (its status), MPI_Wait", 0, "self(n)"),
    PT2PT_ROW(sendrecv_as_irecv_send_wait, "TGT11", "Sendrecv(n) <= Irecv(n) + Send(n) + Wait",
              "MPI_Irecv of the receive side, MPI_Send of the send side, MPI_Wait (its status)", 0,
              "self(n)"),
    /* TGT 2010 eq. 37 reads the other way round (the row must not be slower than the default):
     * check's reverse verdict of this row (src/check/analyze.c, mg_ck_relations) */
    {"sendrecv_as_cart_reorder", "TGT37", "Sendrecv{cart}(n) vs Sendrecv{cart, reorder}(n)",
     "the library's own sendrecv with the neighbours on a Cartesian communicator made with reordering "
     "(pattern cart); measure only: another communicator, check judges eq. 37, Sendrecv{cart, reorder} <= "
     "Sendrecv{cart}", mg_sendrecv_default, MG_R_MEASURE_ONLY, "0", NULL, MG_FAM_TOPO, NULL, 0, NULL,
     "self(n)", 0, NULL},
};
static const mg_alg sendrecv_replace_algs[] = {DEFAULT(sendrecv_replace, "MPI_Sendrecv_replace")};

#define NALGS(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MG_X(E, n, m, r, red, k, s) _Static_assert(NALGS(n##_algs) <= MG_MAX_ALGS, "raise MG_MAX_ALGS");
MG_OPERATIONS(MG_X)
#undef MG_X

const mg_coll_info mg_colls[MG_NCOLL] = {
#define MG_X(E, n, m, r, red, k, s) [MG_##E] = {#n, m, s, r, red, k, n##_algs, NALGS(n##_algs)},
    MG_OPERATIONS(MG_X)
#undef MG_X
};

int mg_coll_find(const char *name) {
  int mpi = strncasecmp(name, "MPI_", 4) == 0; /* "MPI_Allreduce", "mpi_allreduce": the MPI name */
  for (int i = 0; i < MG_NCOLL; i++)
    if (mpi ? strcasecmp(name, mg_colls[i].mpi_name) == 0 : strcmp(name, mg_colls[i].name) == 0) return i;
  return -1;
}

const char *mg_coll_names(void) {
  static const char all[] = ""
#define MG_X(E, n, m, r, red, k, s) " " #n
      MG_OPERATIONS(MG_X)
#undef MG_X
      ;
  return all + 1;
}

int mg_alg_find(mg_coll coll, const char *name) {
  const mg_coll_info *ci = &mg_colls[coll];
  if (strcmp(name, "default") == 0) return 0;
  for (int i = 0; i < ci->nalgs; i++)
    if (strcmp(name, ci->algs[i].name) == 0) return i;
  return -1;
}

static const char *const why_text[MG_NWHY] = {
#define MG_X(E, k, t) [MG_WHY_##E] = t,
    MG_REASONS(MG_X)
#undef MG_X
};
static const char *const why_key[MG_NWHY] = {
#define MG_X(E, k, t) [MG_WHY_##E] = k,
    MG_REASONS(MG_X)
#undef MG_X
};

const mg_family_info mg_families[MG_NFAM] = {
#define MG_X(E, n, src) [MG_FAM_##E] = {n, src},
    MG_FAMILIES(MG_X)
#undef MG_X
};

int mg_family_find(const char *name) {
  for (int f = 0; f < MG_NFAM; f++)
    if (strcmp(name, mg_families[f].name) == 0) return f;
  return -1;
}

const mg_restriction mg_restrictions[] = {
#define MG_X(E, bit, name, text) {MG_R_##E, name, text},
    MG_RESTRICTIONS(MG_X)
#undef MG_X
};
const int mg_nrestrictions = (int)(sizeof mg_restrictions / sizeof mg_restrictions[0]);

const char *mg_why_str(mg_why why) { return why < MG_NWHY ? why_text[why] : "?"; }
const char *mg_why_key(mg_why why) { return why < MG_NWHY ? why_key[why] : "?"; }
int mg_why_measurable(mg_why why) { return why == MG_WHY_OP_NOT_EXACT || why == MG_WHY_MEASURE_ONLY; }

const mg_common_type mg_common_types[MG_NCOMMON_TYPES] = {
#define MG_X(dt, ctype) {dt, sizeof(ctype)},
    MG_COMMON_TYPES(MG_X)
#undef MG_X
};

static size_t type_bytes(int count, MPI_Datatype dt) { return mg_type_bytes(count, dt); }

/* The sum of n[0..p) x size(dt); 0 when n is NULL (not significant here). */
static size_t counts_bytes(const int *n, int p, MPI_Datatype dt) {
  size_t total = 0;
  for (int i = 0; n && i < p; i++)
    if (n[i] > 0) total += (size_t)n[i];
  return total ? total * type_bytes(1, dt) : 0;
}

/* Whether n[0..p) is there and has no negative count; types[0..p) (when given) no null. */
static int counts_ok(const int *n, const int *d, const MPI_Datatype *types, int p) {
  if (!n || !d) return 0;
  for (int i = 0; i < p; i++)
    if (n[i] < 0 || (types && types[i] == MPI_DATATYPE_NULL)) return 0;
  return 1;
}

int mg_call_prepare(mg_call *c) {
  int rc = PMPI_Comm_test_inter(c->comm, &c->inter);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Comm_size(c->comm, &c->size);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Comm_rank(c->comm, &c->rank);
  if (rc != MPI_SUCCESS) return rc;
  mg_call_set_bytes(c);
  return MPI_SUCCESS;
}

void mg_call_set_bytes_other(mg_call *c) {
  if (c->inter) { /* the default runs; no size needed beyond a trace value */
    c->bytes = 0;
    return;
  }
  switch (c->coll) {
  case MG_GATHER: /* at the root the receive side is always significant */
    c->bytes = c->rank == c->root ? type_bytes(c->rcount, c->rtype) : type_bytes(c->scount, c->stype);
    break;
  case MG_SCATTER:
    c->bytes = c->rank == c->root ? type_bytes(c->scount, c->stype) : type_bytes(c->rcount, c->rtype);
    break;
  case MG_REDUCE_SCATTER: case MG_ALLGATHERV: { /* the whole vector: every rank holds every count */
    size_t total = 0;
    int neg = !c->rcounts;
    for (int i = 0; !neg && i < c->size; i++) neg = c->rcounts[i] < 0, total += (size_t)c->rcounts[i];
    c->rcount = neg ? -1 : c->rcounts[c->rank];
    if (c->coll == MG_REDUCE_SCATTER) c->scount = c->rcount;
    c->bytes = neg ? 0 : total * type_bytes(1, c->rtype);
    break;
  }
  case MG_GATHERV: /* the root: every block; elsewhere: the own one */
    c->bytes = c->rank == c->root ? counts_bytes(c->rcounts, c->size, c->rtype) : type_bytes(c->scount, c->stype);
    break;
  case MG_SCATTERV:
    c->bytes = c->rank == c->root ? counts_bytes(c->scounts, c->size, c->stype) : type_bytes(c->rcount, c->rtype);
    break;
  case MG_ALLTOALLV: /* what this rank sends (in place: what it receives, the same amount) */
    c->bytes = c->sbuf == MPI_IN_PLACE ? counts_bytes(c->rcounts, c->size, c->rtype)
                                       : counts_bytes(c->scounts, c->size, c->stype);
    break;
  case MG_SEND: case MG_SSEND: case MG_RSEND: case MG_ISEND: case MG_SENDRECV: case MG_SENDRECV_REPLACE:
    c->bytes = type_bytes(c->scount, c->stype); /* the message sent */
    break;
  case MG_ALLTOALLW: {
    int in = c->sbuf == MPI_IN_PLACE;
    const int *n = in ? c->rcounts : c->scounts;
    const MPI_Datatype *t = in ? c->rtypes : c->stypes;
    size_t total = 0;
    for (int i = 0; n && t && i < c->size; i++) total += type_bytes(n[i], t[i]);
    c->bytes = total;
    break;
  }
  default: /* receive side: significant everywhere, also with MPI_IN_PLACE */
    c->bytes = type_bytes(c->rcount, c->rtype);
    break;
  }
}

static int bad_side(int count, MPI_Datatype dt) { return count < 0 || dt == MPI_DATATYPE_NULL; }

mg_why mg_call_check_other(const mg_call *c) {
  int at_root = c->rank == c->root, send_ok = 1, recv_ok = 1;
  if (c->comm == MPI_COMM_NULL) return MG_WHY_INVALID_ARGS;
  switch (c->coll) {
  case MG_GATHER: /* receive side significant at the root only */
    send_ok = (at_root && c->sbuf == MPI_IN_PLACE) || !bad_side(c->scount, c->stype);
    recv_ok = !at_root || !bad_side(c->rcount, c->rtype);
    break;
  case MG_SCATTER: /* send side significant at the root only */
    send_ok = !at_root || !bad_side(c->scount, c->stype);
    recv_ok = (at_root && c->rbuf == MPI_IN_PLACE) || !bad_side(c->rcount, c->rtype);
    break;
  case MG_BARRIER: /* only the communicator */
    break;
  case MG_SEND: case MG_SSEND: case MG_RSEND: case MG_ISEND: case MG_SENDRECV_REPLACE:
    send_ok = !bad_side(c->scount, c->stype);
    break;
  case MG_RECV: case MG_IRECV:
    recv_ok = !bad_side(c->rcount, c->rtype);
    break;
  case MG_SENDRECV:
    send_ok = !bad_side(c->scount, c->stype), recv_ok = !bad_side(c->rcount, c->rtype);
    break;
  case MG_REDUCE_SCATTER: /* every count is significant on every rank */
    recv_ok = c->rcounts != NULL && !bad_side(0, c->rtype);
    for (int i = 0; recv_ok && i < c->size; i++) recv_ok = c->rcounts[i] >= 0;
    break;
  case MG_ALLGATHERV: /* every count and displacement is significant on every rank */
    send_ok = c->sbuf == MPI_IN_PLACE || !bad_side(c->scount, c->stype);
    recv_ok = c->rcounts != NULL && c->rdispls != NULL && !bad_side(0, c->rtype);
    for (int i = 0; recv_ok && i < c->size; i++) recv_ok = c->rcounts[i] >= 0;
    break;
  case MG_GATHERV: /* counts and displacements significant at the root only */
    send_ok = (at_root && c->sbuf == MPI_IN_PLACE) || !bad_side(c->scount, c->stype);
    recv_ok = !at_root || (counts_ok(c->rcounts, c->rdispls, NULL, c->size) && !bad_side(0, c->rtype));
    break;
  case MG_SCATTERV:
    send_ok = !at_root || (counts_ok(c->scounts, c->sdispls, NULL, c->size) && !bad_side(0, c->stype));
    recv_ok = (at_root && c->rbuf == MPI_IN_PLACE) || !bad_side(c->rcount, c->rtype);
    break;
  case MG_ALLTOALLV:
    send_ok = c->sbuf == MPI_IN_PLACE || (counts_ok(c->scounts, c->sdispls, NULL, c->size) && !bad_side(0, c->stype));
    recv_ok = counts_ok(c->rcounts, c->rdispls, NULL, c->size) && !bad_side(0, c->rtype);
    break;
  case MG_ALLTOALLW:
    send_ok = c->sbuf == MPI_IN_PLACE || (c->stypes && counts_ok(c->scounts, c->sdispls, c->stypes, c->size));
    recv_ok = c->rtypes && counts_ok(c->rcounts, c->rdispls, c->rtypes, c->size);
    break;
  default: /* the one-count collectives (registry.h) */
    send_ok = mg_coll_one_count(c->coll) &&
              mg_one_count_args_ok(c->coll, c->sbuf, c->scount, c->stype, c->rcount, c->rtype, c->op);
    break;
  }
  if (!send_ok || !recv_ok) return MG_WHY_INVALID_ARGS;
  if (mg_colls[c->coll].reduction && c->op == MPI_OP_NULL) return MG_WHY_INVALID_ARGS;
  return c->coll < MG_NCOLLECTIVES && !mg_call_semantics_ok(c) ? MG_WHY_INVALID_ARGS : MG_WHY_NONE;
}

/*
 * Whether a derived datatype is committed. MPI has no query for it; MPI_Pack of zero elements
 * checks it in both libraries (Open MPI 4.1.4's MPI_Pack_size does not) and moves nothing. It
 * runs on a private duplicate of MPI_COMM_SELF that returns errors, so the refusal reaches no
 * error handler of the application (15-23 ns here). Predefined datatypes need no call.
 */
static MPI_Comm commit_comm = MPI_COMM_NULL;
static pthread_once_t commit_once = PTHREAD_ONCE_INIT;
/* MPI_Finalize deletes MPI_COMM_SELF's attributes first: the private communicator goes with them. */
static int commit_comm_free(MPI_Comm self, int key, void *val, void *extra) {
  (void)self, (void)val, (void)extra;
  if (commit_comm != MPI_COMM_NULL) PMPI_Comm_free(&commit_comm);
  PMPI_Comm_free_keyval(&key);
  return MPI_SUCCESS;
}
static void commit_comm_make(void) {
  MPI_Comm c;
  int key;
  if (PMPI_Comm_dup(MPI_COMM_SELF, &c) != MPI_SUCCESS) return;
  if (PMPI_Comm_set_errhandler(c, MPI_ERRORS_RETURN) == MPI_SUCCESS) commit_comm = c;
  if (PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, commit_comm_free, &key, NULL) == MPI_SUCCESS)
    PMPI_Comm_set_attr(MPI_COMM_SELF, key, NULL);
}

static int type_committed(MPI_Datatype dt) {
  char in[1], out[1];
  int pos = 0;
  for (int i = 0; i < MG_NCOMMON_TYPES; i++)
    if (mg_common_types[i].dt == dt) return 1;
  if (mg_tclass_of(dt) != MG_TCLASS_NONE) return 1;
  pthread_once(&commit_once, commit_comm_make);
  return commit_comm == MPI_COMM_NULL || PMPI_Pack(in, 0, dt, out, 0, &pos, commit_comm) == MPI_SUCCESS;
}

int mg_call_types_committed(const mg_call *c) {
  int at_root = c->rank == c->root, send = c->sbuf != MPI_IN_PLACE, recv = 1;
  switch (c->coll) {
  case MG_GATHER: case MG_GATHERV: /* the receive side is the root's */
    send = !(at_root && c->sbuf == MPI_IN_PLACE), recv = at_root;
    break;
  case MG_SCATTER: case MG_SCATTERV: /* the send side is the root's */
    send = at_root, recv = !(at_root && c->rbuf == MPI_IN_PLACE);
    break;
  case MG_BARRIER: return 1; /* no datatype */
  case MG_BCAST: case MG_REDUCE_SCATTER: send = 0; break; /* one datatype, in rtype */
  case MG_ALLTOALLW:
    for (int i = 0; i < c->size; i++)
      if ((send && !type_committed(c->stypes[i])) || !type_committed(c->rtypes[i])) return 0;
    return 1;
  default:
    if (mg_coll_is_p2p(c->coll)) return 1; /* the row's calls meet the same datatype on this side */
    break;
  }
  return (!send || type_committed(c->stype)) && (!recv || type_committed(c->rtype));
}

int mg_null_buffer_refused(int count, MPI_Datatype dt) {
  MPI_Aint lb, extent;
  int size = 0;
  if (count <= 0) return 0;
  if (PMPI_Type_get_true_extent(dt, &lb, &extent) != MPI_SUCCESS || PMPI_Type_size(dt, &size) != MPI_SUCCESS)
    return 1; /* let the default report it */
  return lb == 0 && size > 0;
}

int mg_needs_padding(const mg_call *c) {
  if (c->coll != MG_REDUCE_SCATTER) return c->rcount % c->size != 0;
  for (int i = 1; i < c->size; i++)
    if (c->rcounts[i] != c->rcounts[0]) return 1;
  return 0;
}

int mg_op_is_predefined(MPI_Op op) {
  /* Not a static table: in MPICH the handles are constants, in Open MPI addresses of globals. */
  const MPI_Op predefined[] = {MPI_MAX,  MPI_MIN,  MPI_SUM,  MPI_PROD,   MPI_LAND,   MPI_BAND,    MPI_LOR,
                               MPI_BOR,  MPI_LXOR, MPI_BXOR, MPI_MAXLOC, MPI_MINLOC, MPI_REPLACE, MPI_NO_OP};
  for (size_t i = 0; i < sizeof predefined / sizeof predefined[0]; i++)
    if (op == predefined[i]) return 1;
  return 0;
}

/* The largest block in bytes of a call with per-rank counts (max(recvcounts) x size(recvtype)),
 * equal on every rank; the message size of the others. */
static size_t max_block_bytes(const mg_call *c) {
  if (c->coll != MG_ALLGATHERV && c->coll != MG_REDUCE_SCATTER) return c->bytes;
  int m = 0;
  for (int i = 0; i < c->size; i++)
    if (c->rcounts[i] > m) m = c->rcounts[i];
  return type_bytes(m, c->rtype);
}

mg_why mg_applicable(const mg_call *c, int alg, size_t scratch_max) {
  const mg_alg *a = &mg_colls[c->coll].algs[alg];
  if (alg == 0) return MG_WHY_NONE;
  if (c->inter) return MG_WHY_INTERCOMM;
  if (mg_colls[c->coll].rooted && (c->root < 0 || c->root >= c->size)) return MG_WHY_INVALID_ROOT;
  if (!mg_call_types_committed(c)) return MG_WHY_INVALID_ARGS; /* here: only for a mock-up to run */
  int in_place = (a->restrictions & MG_R_NOT_IN_PLACE) && c->sbuf == MPI_IN_PLACE;
  int one = (a->restrictions & MG_R_P_GT_1) && c->size == 1;
  if (!mg_colls[c->coll].known) /* no size restrictions: the mock-up decides late (mg_late_ok) */
    return in_place ? MG_WHY_IN_PLACE : one ? MG_WHY_ONE_PROCESS
           : a->mem && a->mem(c) > scratch_max ? MG_WHY_SCRATCH_CAP : MG_WHY_NONE;
  if (c->bytes == 0 && c->coll != MG_BARRIER) return MG_WHY_EMPTY; /* a barrier moves nothing, always */
  if (in_place) return MG_WHY_IN_PLACE;
  if (one) return MG_WHY_ONE_PROCESS;
  if (a->restrictions & MG_R_LB_ZERO) { /* a reduction: the same datatype on every rank */
    mg_type t;
    if (mg_type_get(c->rtype, &t) != MPI_SUCCESS || t.lb != 0 || t.true_lb < 0) return MG_WHY_TYPE_LB;
  }
  if ((a->restrictions & MG_R_PN_INT) && c->bytes > (size_t)INT_MAX / (size_t)c->size)
    return MG_WHY_COUNT_RANGE;
  if (a->restrictions & (MG_R_COMMUTATIVE | MG_R_COMMUTE_OR_DENSE)) {
    int commute = 0;
    PMPI_Op_commutative(c->op, &commute);
    if (!commute && (a->restrictions & MG_R_COMMUTATIVE)) return MG_WHY_NONCOMMUTATIVE;
    mg_type t;
    if (!commute && (mg_type_get(c->rtype, &t) != MPI_SUCCESS || !mg_type_is_dense(&t)))
      return MG_WHY_NONCOMMUTATIVE;
  }
  if ((a->restrictions & MG_R_N_INT) && c->bytes / type_bytes(1, c->rtype) > (size_t)INT_MAX)
    return MG_WHY_COUNT_RANGE;
  if ((a->restrictions & MG_R_NB_INT) && c->bytes > (size_t)INT_MAX) return MG_WHY_COUNT_RANGE;
  if ((a->restrictions & MG_R_PMAX_INT) && max_block_bytes(c) > (size_t)INT_MAX / (size_t)c->size)
    return MG_WHY_COUNT_RANGE;
  if ((a->restrictions & MG_R_PAD_PREDEFINED_OP) && mg_needs_padding(c) && !mg_op_is_predefined(c->op))
    return MG_WHY_USEROP_PADDING;
  if ((a->restrictions & MG_R_PAD_PREDEFINED) &&
      (mg_tclass_of(c->rtype) == MG_TCLASS_NONE || mg_opsel_of(c->op) == MG_OPSEL_NONE))
    return MG_WHY_PAD_TYPE;
  if ((a->restrictions & MG_R_PADDED_INT) && mg_padded_units(c, a->param) > (size_t)INT_MAX)
    return MG_WHY_COUNT_RANGE;
  if ((a->restrictions & MG_R_BITWISE_EXACT) && !mg_userop_exact(c->op, c->rtype)) return MG_WHY_OP_NOT_EXACT;
  if (a->mem && a->mem(c) > scratch_max) return MG_WHY_SCRATCH_CAP;
  if (a->restrictions & MG_R_MEASURE_ONLY) return MG_WHY_MEASURE_ONLY; /* last: measurable (mg_why_measurable) */
  return MG_WHY_NONE;
}

__thread mg_late_state mg_late = {SIZE_MAX, MG_WHY_NONE};

int mg_late_ok(int fits, size_t scratch) {
  mg_late.why = !fits ? MG_WHY_COUNT_RANGE : scratch > mg_late.cap ? MG_WHY_SCRATCH_CAP : MG_WHY_NONE;
  return mg_late.why == MG_WHY_NONE;
}
