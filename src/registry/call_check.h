/*
 * Validating a call before anything but the default may run it: whether its arguments are ones
 * the MPI library must reject (mg_call_check), and whether its datatypes are committed
 * (mg_call_types_committed). A call that fails runs the default, which reports the error where the
 * library would (docs/library.md, "Erroneous calls"). The one-count collectives' check is inline,
 * for libmpiguide's per-call path; the others' is in call_check.c. Included by registry.h, so that
 * its users need no other include.
 */
#ifndef MG_REGISTRY_CALL_CHECK_H
#define MG_REGISTRY_CALL_CHECK_H

#include "registry/datatype.h"
#include "registry/registry.h"

/*
 * MG_WHY_INVALID_ARGS when an argument that is significant on this rank is
 * one the MPI library must reject, else MG_WHY_NONE: MPI_COMM_NULL,
 * MPI_DATATYPE_NULL, MPI_OP_NULL for a reduction, a negative count; a
 * predefined op on a datatype it is not defined on (mg_op_defined: a derived
 * datatype, MPI_PACKED, MPI_REPLACE and MPI_NO_OP outside one-sided
 * communication, ...); MPI_IN_PLACE as the receive buffer where that buffer is
 * significant on every rank (MG_RECV_EVERYWHERE); an MPI_Allreduce whose send
 * and receive buffers are one; NULL with data where a buffer is significant
 * everywhere (mg_null_buffer_refused). Such a call runs the default, which reports the
 * error on the communicator's error handler, and on every rank where the
 * argument is: a mock-up would meet it in some inner call on some ranks only
 * (PMPI_Reduce_local on the ranks that combine: MPI_ERR_OP there, raised on
 * MPI_COMM_WORLD's handler, while the others wait in a receive). And no PMPI
 * query may see an invalid handle first, as the error would be raised on
 * MPI_COMM_WORLD's handler (fatal by default) instead. The op and datatype of
 * a reduction are the same on every rank, so that decision is too; the others
 * are refused by both MPI libraries on the rank that passes them, before they
 * communicate (docs/library.md, "Erroneous calls"). Needs c->rank, c->size and
 * c->inter of an intracommunicator call; calls no MPI, but for the datatype of a
 * NULL buffer (its true extent, a valid handle by then).
 */
static inline mg_why mg_call_check(const mg_call *c);

/* The collectives whose receive buffer is significant on every rank, and never MPI_IN_PLACE (that
 * goes in the send buffer): both MPI libraries refuse MPI_IN_PLACE there on every rank that passes
 * it (Open MPI 4.1.4: MPI_ERR_ARG, MPI_Allreduce MPI_ERR_BUFFER; MPICH 4.0.2: MPI_ERR_BUFFER). */
#define MG_RECV_EVERYWHERE                                                                                   \
  (MG_COLL_BIT(ALLGATHER) | MG_COLL_BIT(ALLGATHERV) | MG_COLL_BIT(ALLREDUCE) | MG_COLL_BIT(ALLTOALL) |     \
   MG_COLL_BIT(ALLTOALLV) | MG_COLL_BIT(ALLTOALLW) | MG_COLL_BIT(EXSCAN) | MG_COLL_BIT(REDUCE_SCATTER) |   \
   MG_COLL_BIT(REDUCE_SCATTER_BLOCK) | MG_COLL_BIT(SCAN))

/* The other collectives' check (call_check.c); for a one-count collective it gives what the
 * inline form gives. */
mg_why mg_call_check_other(const mg_call *c);

/* Whether the arguments of a one-count call (not its communicator) are ones MPI accepts:
 * mg_call_check for these collectives. */
static inline int mg_one_count_args_ok(mg_coll coll, const void *sbuf, int scount, MPI_Datatype stype, int rcount,
                                       MPI_Datatype rtype, MPI_Op op) {
  int send_ok = sbuf == MPI_IN_PLACE || (scount >= 0 && stype != MPI_DATATYPE_NULL);
  int recv_ok = rcount >= 0 && rtype != MPI_DATATYPE_NULL;
  int op_ok = !mg_coll_reduction(coll) || op != MPI_OP_NULL;
  return send_ok && recv_ok && op_ok;
}

/* The one-count collectives whose send side (not in place), and those whose receive side, is
 * significant on every rank (bcast: its one buffer, in both). */
#define MG_SEND_EVERYWHERE (MG_ONE_COUNT_COLLS)
#define MG_RECV_EVERYWHERE_ONE (MG_ONE_COUNT_COLLS & ~MG_COLL_BIT(REDUCE))
/* Whether a buffer NULL (MPI_BOTTOM) with count > 0 elements of dt is one MPI_BOTTOM cannot
 * mean: dt's data starts at its origin (true lower bound 0) and is not empty. MPICH 4.0.2 refuses
 * it (MPI_ERR_BUFFER) on the rank that passes it, before it communicates; Open MPI 4.1.4 does not
 * check and crashes in its own call. A datatype of absolute addresses (true lower bound the
 * address of the data) with MPI_BOTTOM is legal. Asks MPI only when the buffer is NULL. */
int mg_null_buffer_refused(int count, MPI_Datatype dt);

/* What makes a call with valid handles and counts erroneous all the same (mg_call_check): the
 * op on the datatype, MPI_IN_PLACE as a receive buffer, an allreduce's send buffer that is its
 * receive buffer (both libraries refuse; for the other collectives Open MPI 4.1.4 takes it), a
 * NULL buffer of data at its origin. */
static inline int mg_call_semantics_ok(const mg_call *c) {
  mg_coll k = mg_coll_base(c->coll); /* a blocking collective (a non-blocking one: its twin) */
  unsigned bit = 1u << k;
  if ((MG_REDUCTION_COLLS & bit) && !mg_op_defined(c->op, c->rtype)) return 0;
  if ((MG_RECV_EVERYWHERE & bit) && c->rbuf == MPI_IN_PLACE) return 0;
  if (k == MG_ALLREDUCE && c->sbuf == c->rbuf && c->rcount > 0) return 0;
  if (c->sbuf == NULL && (MG_SEND_EVERYWHERE & bit) && mg_null_buffer_refused(c->scount, c->stype)) return 0;
  return c->rbuf != NULL || !(MG_RECV_EVERYWHERE_ONE & bit) || !mg_null_buffer_refused(c->rcount, c->rtype);
}

static inline mg_why mg_call_check(const mg_call *c) {
  if (!mg_coll_one_count(c->coll)) return mg_call_check_other(c);
  return c->comm != MPI_COMM_NULL &&
                 mg_one_count_args_ok(c->coll, c->sbuf, c->scount, c->stype, c->rcount, c->rtype, c->op) &&
                 mg_call_semantics_ok(c)
             ? MG_WHY_NONE
             : MG_WHY_INVALID_ARGS;
}

/*
 * Whether every datatype significant on this rank is committed (predefined ones are). An
 * uncommitted one is refused by both libraries (MPI_ERR_TYPE) on the rank that passes it, before
 * they communicate; a mock-up that packs or moves bytes met it on some ranks only. Asks MPI
 * (one MPI_Pack of nothing) for a derived datatype only; mg_applicable() asks it, so only a call
 * that would run a mock-up pays. A correct call's datatypes are all committed, on every rank.
 */
int mg_call_types_committed(const mg_call *c);

#endif
