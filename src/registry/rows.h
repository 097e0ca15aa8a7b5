/*
 * The row families: one macro per family of guidelines (registry.h, MG_FAMILIES), which fills the
 * fields every row of the family shares (its guideline id, the formula and description built from
 * the collective's name, the family, its cost expression). The tables themselves are
 * src/registry/rows_<collective>.c, one per collective (rows_p2p.c: the point-to-point
 * operations), compiled as part of registry.c.
 *
 * Two rules keep every row one grep away from its code:
 * - every macro takes the row's full name as its first argument, a string literal
 *   ("allreduce_as_split2"; the two-row macros MG_SPLIT_ROWS and MG_PAD_ROWS both names): no
 *   name is pasted together from tokens;
 * - the functions a row runs are written in the row, as designated initializers after the
 *   positional arguments (`.pfn = mg_split, .mem = mg_split_mem`), never inside a macro. The
 *   build reads these fields (.fn, .pfn, .mem, .costfn, .recv_side) from the rows files and
 *   declares each function with the prototype of its field (cmake/gen_algorithms.cmake writes
 *   <build>/generated/registry/algorithms.h): a new row needs no declaration anywhere else.
 * A composition row (the family 0, the HPC Asia 2018 GL1-GL22 and TGT 2010's equations) is a
 * plain designated initializer; the library's own row is MG_DEFAULT_ROW.
 *
 * Names follow PGMPITuneLib: <collective>_as_<parts>, multi-word parts written without
 * underscores (reducescatterblock, reducelocal). n is the collective's message size in bytes
 * (registry.h, MG_COLLECTIVES), p the number of processes. `cost` is the composition's parts at
 * their message sizes (docs/model.md), e.g. "reduce(n) + bcast(n)".
 */
#ifndef MG_REGISTRY_ROWS_H
#define MG_REGISTRY_ROWS_H

#include "registry/algorithms.h"
#include "registry/registry.h"

/* Row 0 of every table: the MPI library's own implementation (`mpi`: its MPI name). */
#define MG_DEFAULT_ROW(nm, mpi, ...)                                                                  \
  {.name = nm, .guideline = "", .formula = "", .description = "the MPI library's own " mpi,          \
   .mem_formula = "0", .cost = "self(n)", __VA_ARGS__}

/*
 * Split-robustness (split.c): k = 2 and 4 pieces, the row's parameter. The reductions split
 * elements (no scratch); bcast and the per-rank-block collectives split bytes, with scratch only
 * for a datatype that is not dense (packed), at most the figure given. A point-to-point message in
 * k pieces (pt2pt.c, .pfn = mg_p2p_split) needs the receiver to post k receives alike
 * (.recv_side = mg_p2p_split_recv): those rows are measure-only (registry.h, MG_P2P_OPS), the
 * benchmark runs both sides. `k` is a number, written as in the name.
 */
#define MG_SPLIT_ROW(nm, Name, k, restr, memtxt, ...)                                                 \
  {.name = nm, .guideline = "TGT1", .formula = Name "(n) <= " #k " x " Name "(n/" #k ")",             \
   .description = "the call as " #k " calls on consecutive pieces of the message (block collectives: " \
                  "the same piece of every block, strided)",                                          \
   .restrictions = (restr), .mem_formula = memtxt, .family = MG_FAM_SPLIT, .param = k,                \
   .cost = #k " * self(n/" #k ")", __VA_ARGS__}

/* Both rows, k = 2 and 4, in one line: both names written out, the rest alike. */
#define MG_SPLIT_ROWS(nm2, nm4, Name, restr, memtxt, ...)                                             \
  MG_SPLIT_ROW(nm2, Name, 2, restr, memtxt, __VA_ARGS__), MG_SPLIT_ROW(nm4, Name, 4, restr, memtxt, __VA_ARGS__)

/*
 * Blocking by hand (split.c, mg_blocks): pieces of a fixed size of `kib` KiB, the row's parameter,
 * as many as the message needs (TGT 2010 eq. 2: the piece count grows with n, where eq. 1's split
 * rows have a fixed count). The same pieces as the split rows otherwise: bytes for bcast and the
 * block collectives (of every block, strided), whole elements for the reductions (kib KiB /
 * size(datatype), at least one). A point-to-point message (pt2pt.c, .pfn = mg_p2p_blocks) needs
 * the receiver to post the same pieces (.recv_side = mg_p2p_blocks_recv): measure-only.
 */
#define MG_BLOCKS_ROW(nm, Name, kib, restr, memtxt, ...)                                              \
  {.name = nm, .guideline = "TGT2", .formula = Name "(n) <= ceil(n/" #kib "K) x " Name "(" #kib "K)", \
   .description = "the call as pieces of " #kib " KiB, as many as the message needs, the last shorter " \
                  "(block collectives: the same piece of every block, strided; reductions: whole elements)", \
   .restrictions = (restr), .mem_formula = memtxt, .family = MG_FAM_BLOCKS, .param = kib,             \
   .cost = "ceil(n / (" #kib " * 1024)) * self(min(n, " #kib " * 1024))", __VA_ARGS__}

/* The four rows, 1, 4, 16 and 64 KiB, in one line: every name written out, the rest alike. */
#define MG_BLOCKS_ROWS(nm1, nm4, nm16, nm64, Name, restr, memtxt, ...)                              \
  MG_BLOCKS_ROW(nm1, Name, 1, restr, memtxt, __VA_ARGS__), MG_BLOCKS_ROW(nm4, Name, 4, restr, memtxt, __VA_ARGS__), \
      MG_BLOCKS_ROW(nm16, Name, 16, restr, memtxt, __VA_ARGS__),                                      \
      MG_BLOCKS_ROW(nm64, Name, 64, restr, memtxt, __VA_ARGS__)

/* Non-blocking (nonblocking.c): every collective, as I<coll> + MPI_Wait (`coll`: the collective's
 * name in lower case, as in MPI_I<coll>). */
#define MG_NB_ROW(nm, Name, coll, restr, memtxt, ...)                                                 \
  {.name = nm, .guideline = "TGT-N1", .formula = Name "(n) <= I" coll "(n) + Wait",                   \
   .description = "MPI_I" coll " with the same arguments, then MPI_Wait", .restrictions = (restr),    \
   .mem_formula = memtxt, .family = MG_FAM_NONBLOCKING, .cost = "self(n)", __VA_ARGS__}

/* Monotony (padded.c): the call padded to the next power of two at least k = 2, 4 times its size
 * (the per-rank-block collectives: every block); the padded count must fit an int. */
#define MG_PAD_ROW(nm, Name, k, restr, memtxt, ...)                                                   \
  {.name = nm, .guideline = "MON",                                                                    \
   .formula = Name "(n) <= " Name "(n') for n <= n' (n' = next power of two >= " #k "n)",            \
   .description = "the call padded to the next power of two at least " #k " times its size, the "    \
                  "padding zeros",                                                                    \
   .restrictions = (restr) | MG_R_PADDED_INT, .mem_formula = memtxt, .family = MG_FAM_MONOTONY,       \
   .param = k, .cost = "self(pow2(" #k " * n))", __VA_ARGS__}

/* Both rows, k = 2 and 4, in one line: both names written out, the rest alike. */
#define MG_PAD_ROWS(nm2, nm4, Name, restr, memtxt, ...)                                               \
  MG_PAD_ROW(nm2, Name, 2, restr, memtxt, __VA_ARGS__), MG_PAD_ROW(nm4, Name, 4, restr, memtxt, __VA_ARGS__)

/* In place (inplace.c): every collective with an in-place form. The reductions' scratch (one
 * datatype and count on every rank) is checked before the call; the others decide late
 * (mg_late_ok). */
#define MG_INPLACE_ROW(nm, Name, restr, memtxt, ...)                                                  \
  {.name = nm, .guideline = "TGT12", .formula = Name "(IN_PLACE, n) <= " Name "(n)",                  \
   .description = "in place: the regular call from a scratch copy of the data the in-place call "     \
                  "reads (scatter(v): into a scratch receive buffer at the root); not in place: the "  \
                  "call as given",                                                                    \
   .restrictions = (restr), .mem_formula = memtxt, .family = MG_FAM_INPLACE,                          \
   .cost = "copy(n) + self(n)", __VA_ARGS__}

/* Datatypes (packed.c): the call on packed contiguous bytes, TGT 2010 eq. 3. Not for the
 * reductions: MPI defines the built-in ops on predefined datatypes only, and a user-defined op is
 * called with the call's datatype, so reducing packed data would change what it sees. */
#define MG_PACKED_ROW(nm, Name, restr, memtxt, ...)                                                   \
  {.name = nm, .guideline = "TGT3", .formula = Name "(n/k, T(k)) <= Pack + " Name "(n) + Unpack",     \
   .description = "pack non-contiguous data into scratch, the call on the packed bytes, unpack the "  \
                  "result (dense datatypes as they are)",                                             \
   .restrictions = (restr), .mem_formula = memtxt, .family = MG_FAM_DATATYPE, .cost = "self(n)",      \
   __VA_ARGS__}

/* User-defined operators (userop.c): the reductions, with the built-in op replaced by mpiguide's
 * own user-defined twin of it, only where the result is bitwise the same in any order. */
#define MG_USEROP_ROW(nm, Name, ...)                                                                  \
  {.name = nm, .guideline = "TGT23", .formula = Name "(n, op) <= " Name "(n, user op)",               \
   .description = "the same call with the built-in op replaced by mpiguide's equivalent user-defined " \
                  "op (commutative); predefined integer types only",                                  \
   .restrictions = MG_R_BITWISE_EXACT, .mem_formula = "0", .family = MG_FAM_USEROP,                   \
   .cost = "self(n)", __VA_ARGS__}

/*
 * Point-to-point algorithms (p2p_*.c), TGT 2010 eq. 35 and §V.D: a collective not slower than a
 * simple algorithm written with point-to-point messages. The row names its algorithm (.pfn, one
 * per algorithm, called with .param, e.g. a segment size), its scratch (.mem) and its LogGP
 * schedule (.costfn, docs/model.md); .crowd = 1 when every rank is busy in nearly every round
 * (rings, recursive doubling and halving, Bruck, pairwise, pipelines, dissemination), left out
 * (0) when a root or a chain serialises the ranks (linear, binomial and binary trees, the scan
 * chain).
 */
#define MG_P2P_ROW(nm, Name, fml, desc, restr, memtxt, ...)                                           \
  {.name = nm, .guideline = "TGT35", .formula = Name "(n) <= " fml, .description = desc,             \
   .restrictions = (restr), .mem_formula = memtxt, .family = MG_FAM_P2P, __VA_ARGS__}

/* One-sided communication (rma_window.c and the rows in their collective's file), TGT 2010 §VII: the collective as fences around the root's
 * puts or gets of a window cached with the communicator; the window counts as scratch. */
#define MG_RMA_ROW(nm, gl, fml, desc, memtxt, cst, ...)                                               \
  {.name = nm, .guideline = gl, .formula = fml, .description = desc, .restrictions = MG_R_NB_INT,    \
   .mem_formula = memtxt, .family = MG_FAM_RMA, .cost = cst, __VA_ARGS__}

/* Reranking (rerank.c), TGT 2010 eq. 36: the library's own collective on the renumbered
 * processes; measure-only, reductions with commutative ops only. */
#define MG_RERANK_ROW(nm, Name, restr, ...)                                                           \
  {.name = nm, .guideline = "TGT36", .formula = Name "(n) <= " Name "(n) on the processes renumbered", \
   .description = "the library's own call on the communicator's processes renumbered by a seeded "    \
                  "random permutation (the same root process); measure only: blocks and prefixes "     \
                  "land in the renumbered order",                                                     \
   .restrictions = MG_R_MEASURE_ONLY | (restr), .mem_formula = "0", .family = MG_FAM_RERANK,          \
   .cost = "self(n)", __VA_ARGS__}

/*
 * Hierarchical and lane decompositions (src/algs/<coll>_hier.c, the node structure in
 * hier_nodes.c): TPDS 2010 §VI eq. 38 (<coll>_as_hier, param 0) and Träff and Hunold's lane
 * collectives (<coll>_as_lane, param 1, every node the same size). Every row keeps the node
 * structure with the communicator (2 communicators and 4p ints); the cost prices each step as the
 * collective on the whole communicator, an upper bound (docs/model.md).
 */
#define MG_HIER_ROW(nm, fml, desc, restr, memtxt, cst, ...)                                           \
  {.name = nm, .guideline = "TGT38", .formula = fml, .description = desc, .restrictions = (restr),    \
   .mem_formula = memtxt, .family = MG_FAM_HIER, .param = 0, .cost = cst, __VA_ARGS__}
#define MG_LANE_ROW(nm, fml, desc, restr, memtxt, cst, ...)                                           \
  {.name = nm, .guideline = "LANE", .formula = fml, .description = desc,                             \
   .restrictions = (restr) | MG_R_REGULAR_NODES, .mem_formula = memtxt, .family = MG_FAM_HIER,         \
   .param = 1, .cost = cst, __VA_ARGS__}

/*
 * Persistence (persistent.c, issue 48): every blocking collective against its persistent form,
 * MPI_<Coll>_init (MPI-4.0; Open MPI 4.1: MPIX_<Coll>_init of mpi-ext.h) made once per
 * communicator, call and buffers outside the timed part (the engine's mg_persistent_prepare), then
 * MPI_Start + MPI_Wait timed. The row states blocking <= persistent; check reads the reverse
 * (PERS-R: persistence must not cost) and the equivalence off the same measurements
 * (check/verdict.c). Measure-only: why libmpiguide cannot run it, in the description.
 */
#define MG_PERSIST_ROW(nm, Name, restr, ...)                                                          \
  {.name = nm, .guideline = "PERS", .formula = Name "(n) <= " Name "_init once, then Start + Wait",   \
   .description = "the persistent form: " Name "_init once per communicator, call and buffers (not "  \
                  "timed), then MPI_Start + MPI_Wait; measure only: a request cached per call would "  \
                  "have to be re-made when a rank's buffers change, which the other ranks cannot see "  \
                  "without an agreement per call (persistent.c)",                                       \
   .restrictions = MG_R_MEASURE_ONLY | (restr), .mem_formula = "0", .family = MG_FAM_PERSISTENT,      \
   .cost = "self(n)", __VA_ARGS__}

/*
 * The point-to-point operations (registry.h, MG_P2P_OPS; pt2pt.c), the guidelines of TGT 2010
 * §IV: another mode of sending with the same arguments (.fn), no scratch.
 */
#define MG_PT2PT_ROW(nm, gl, fml, desc, restr, cst, ...)                                              \
  {.name = nm, .guideline = gl, .formula = fml, .description = desc, .restrictions = (restr),        \
   .mem_formula = "0", .family = MG_FAM_PT2PT, .cost = cst, __VA_ARGS__}

/*
 * The neighbourhood collectives (registry.h, MG_NEIGHBOR_OPS; src/algs/neighbor.c), compositions
 * stated by TGT 2010's meta-rules (labelled TGT-M4, TGT-M3): the point-to-point exchange a
 * neighbourhood collective stands for (meta-rule IV), and the general all-to-all over the whole
 * communicator with zero counts for the non-neighbours (meta-rule III). Both blocking and
 * self-contained: libmpiguide may run them in an application. What they keep lives with the
 * communicator (no scratch: a cap decision could differ between ranks of different degrees).
 */
#define MG_NBR_P2P_ROW(nm, Name, ...)                                                                 \
  {.name = nm, .guideline = "TGT-M4", .formula = Name "(n) <= indegree x Irecv + outdegree x Isend(n) + Waitall", \
   .description = "the point-to-point exchange it stands for: MPI_Irecv from each in-neighbour, MPI_Isend to "    \
                  "each out-neighbour (the call's datatypes and offsets), MPI_Waitall, on a private "             \
                  "communicator; the default where the topology gives a peer two blocks (a multigraph, a periodic " \
                  "dimension of size 1 or 2: the MPI libraries match the two differently), decided alike on every rank", \
   .restrictions = 0, .mem_formula = "kept with the communicator: the neighbour lists, a request per edge",     \
   .cost = "self(n)", __VA_ARGS__}
#define MG_NBR_A2A_ROW(nm, Name, Gen, restr, cst, ...)                                                \
  {.name = nm, .guideline = "TGT-M3", .formula = Name "(n) <= " Gen "(n)",                          \
   .description = "MPI_" Gen " over the whole communicator, zero counts for the non-neighbours; the default "    \
                  "where the topology gives a peer two blocks (a multigraph, a periodic dimension of size 1 "   \
                  "or 2), decided alike on every rank",                                                         \
   .restrictions = (restr), .mem_formula = "kept with the communicator: 4*p ints (+ 2*p handles: alltoallw)",  \
   .cost = cst, __VA_ARGS__}

/*
 * The non-blocking neighbourhood collectives (registry.h, MG_INEIGHBOR_OPS; src/algs/neighbor.c),
 * family nbc: the blocking rows' meta-rules with the I prefix, and "a specialised I-collective not
 * slower than a general one". The one-call rows give the caller the library's request and keep
 * their arrays with it until it completes (src/lib/acct.c); the point-to-point exchange is
 * measure-only (its requests are several; libmpiguide has no progress engine to make them one).
 */
#define MG_INBR_A2A_ROW(nm, Name, Gen, restr, cst, ...)                                               \
  {.name = nm, .guideline = "TGT-M3", .formula = Name "(n) <= " Gen "(n)",                          \
   .description = "one MPI_" Gen " over the whole communicator, zero counts for the non-neighbours, whose "   \
                  "request the caller gets; the library's own where the topology gives a peer two blocks, "  \
                  "and on a distributed graph until a blocking row agreed on it (unagreed)",                \
   .restrictions = (restr), .mem_formula = "4*p ints (+ 2*p handles: alltoallw), kept until completion",     \
   .family = MG_FAM_NBC, .cost = cst, __VA_ARGS__}
#define MG_INBR_V_ROW(nm, Name, Gen, gl, desc, ...)                                                   \
  {.name = nm, .guideline = gl, .formula = Name "(n) <= " Gen "(n)",                                \
   .description = "one MPI_" Gen " with equal counts, whose request the caller gets" desc,           \
   .restrictions = 0, .mem_formula = "2 ints per neighbour, kept until completion", .family = MG_FAM_NBC, \
   .cost = "self(n)", __VA_ARGS__}
#define MG_INBR_P2P_ROW(nm, Name, ...)                                                                \
  {.name = nm, .guideline = "TGT-M4",                                                               \
   .formula = Name "(n) <= indegree x Irecv + outdegree x Isend(n) + Waitall",                      \
   .description = "the point-to-point exchange it stands for, as the blocking row: a schedule of one "      \
                  "round whose requests libmpiguide's progress thread completes as one (MPIGUIDE_PROGRESS=thread)", \
   .restrictions = MG_R_PROGRESS, .mem_formula = "a request per edge with the call; the neighbour lists kept "  \
   "with the communicator", .family = MG_FAM_NBC, .cost = "self(n)", __VA_ARGS__}

#endif
