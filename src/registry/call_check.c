/*
 * Validating a call (call_check.h): the check of the collectives whose counts are arrays or whose
 * sides are significant at the root only, and of the point-to-point operations; whether a call's
 * datatypes are committed; whether a NULL buffer is one MPI refuses.
 */
#include <pthread.h>

#include "registry/call_check.h"

/* Whether n[0..p) is there and has no negative count; types[0..p) (when given) no null. */
static int counts_ok(const int *n, const int *d, const MPI_Datatype *types, int p) {
  if (!n || !d) return 0;
  for (int i = 0; i < p; i++)
    if (n[i] < 0 || (types && types[i] == MPI_DATATYPE_NULL)) return 0;
  return 1;
}

static int bad_side(int count, MPI_Datatype dt) { return count < 0 || dt == MPI_DATATYPE_NULL; }

mg_why mg_call_check_other(const mg_call *c) {
  int at_root = c->rank == c->root, send_ok = 1, recv_ok = 1;
  if (c->comm == MPI_COMM_NULL) return MG_WHY_INVALID_ARGS;
  switch (mg_coll_base(c->coll)) { /* a non-blocking collective: its blocking twin's arguments */
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
  /* the neighbour collectives: no MPI_IN_PLACE, the arrays one entry per neighbour; without a
   * topology the call is erroneous on every rank (the default reports it) */
  case MG_NEIGHBOR_ALLGATHER: case MG_NEIGHBOR_ALLTOALL:
    send_ok = c->topo != MPI_UNDEFINED && c->sbuf != MPI_IN_PLACE && !bad_side(c->scount, c->stype);
    recv_ok = c->rbuf != MPI_IN_PLACE && !bad_side(c->rcount, c->rtype);
    break;
  case MG_NEIGHBOR_ALLGATHERV:
    send_ok = c->topo != MPI_UNDEFINED && c->sbuf != MPI_IN_PLACE && !bad_side(c->scount, c->stype);
    recv_ok = c->rbuf != MPI_IN_PLACE && (c->indeg == 0 || counts_ok(c->rcounts, c->rdispls, NULL, c->indeg)) &&
              !bad_side(0, c->rtype);
    break;
  case MG_NEIGHBOR_ALLTOALLV:
    send_ok = c->topo != MPI_UNDEFINED && c->sbuf != MPI_IN_PLACE && !bad_side(0, c->stype) &&
              (c->outdeg == 0 || counts_ok(c->scounts, c->sdispls, NULL, c->outdeg));
    recv_ok = c->rbuf != MPI_IN_PLACE && !bad_side(0, c->rtype) &&
              (c->indeg == 0 || counts_ok(c->rcounts, c->rdispls, NULL, c->indeg));
    break;
  case MG_NEIGHBOR_ALLTOALLW:
    send_ok = c->topo != MPI_UNDEFINED && c->sbuf != MPI_IN_PLACE &&
              (c->outdeg == 0 || (c->stypes && c->sadispls && counts_ok(c->scounts, c->scounts, c->stypes, c->outdeg)));
    recv_ok = c->rbuf != MPI_IN_PLACE &&
              (c->indeg == 0 || (c->rtypes && c->radispls && counts_ok(c->rcounts, c->rcounts, c->rtypes, c->indeg)));
    break;
  default: /* the one-count collectives (registry.h) */
    send_ok = mg_coll_one_count(c->coll) &&
              mg_one_count_args_ok(c->coll, c->sbuf, c->scount, c->stype, c->rcount, c->rtype, c->op);
    break;
  }
  if (!send_ok || !recv_ok) return MG_WHY_INVALID_ARGS;
  if (mg_colls[c->coll].reduction && c->op == MPI_OP_NULL) return MG_WHY_INVALID_ARGS;
  return mg_coll_base(c->coll) < MG_NCOLLECTIVES && !mg_call_semantics_ok(c) ? MG_WHY_INVALID_ARGS : MG_WHY_NONE;
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
  switch (mg_coll_base(c->coll)) {
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
  case MG_NEIGHBOR_ALLTOALLW: /* one datatype per neighbour and side */
    for (int i = 0; i < c->outdeg; i++)
      if (!type_committed(c->stypes[i])) return 0;
    for (int i = 0; i < c->indeg; i++)
      if (!type_committed(c->rtypes[i])) return 0;
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
