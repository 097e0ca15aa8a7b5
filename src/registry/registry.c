/*
 * The registry: the table of collectives (mg_colls), each pointing to its table of algorithms,
 * row 0 the MPI library's own implementation ("default"), then the mock-ups of the guidelines of
 * Hunold & Carpen-Amarie, "Autotuning MPI collectives using performance guidelines", HPC Asia 2018
 * (GL1-GL22), of Träff, Gropp and Thakur, TPDS 2010, and of the families (registry.h,
 * MG_FAMILIES); the lookups by name; the decisions every rank makes alike before a mock-up runs
 * (mg_applicable) and after it agreed on what it needs (mg_late_ok). Validating a call's
 * arguments: call_check.c.
 *
 * The rows are in src/registry/rows_<collective>.c (rows_p2p.c: the point-to-point operations),
 * one table per collective, included below so that each table stays a static array whose size
 * mg_colls takes; a missing file is a compile error (its table is undeclared).
 */
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>

#include "registry/datatype.h"
#include "registry/mpi_features.h"
#include "registry/registry.h"
#include "registry/restrict.h"
#include "registry/rows.h"

#include "registry/rows_allgather.c"
#include "registry/rows_allgatherv.c"
#include "registry/rows_allreduce.c"
#include "registry/rows_alltoall.c"
#include "registry/rows_alltoallv.c"
#include "registry/rows_alltoallw.c"
#include "registry/rows_barrier.c"
#include "registry/rows_bcast.c"
#include "registry/rows_exscan.c"
#include "registry/rows_gather.c"
#include "registry/rows_gatherv.c"
#include "registry/rows_reduce.c"
#include "registry/rows_reduce_scatter.c"
#include "registry/rows_reduce_scatter_block.c"
#include "registry/rows_scan.c"
#include "registry/rows_scatter.c"
#include "registry/rows_scatterv.c"
#include "registry/rows_p2p.c"
#include "registry/rows_nbc.c"
#include "registry/rows_neighbor.c"

#define NALGS(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define MG_X(E, n, m, r, red, k, s) _Static_assert(NALGS(n##_algs) <= MG_MAX_ALGS, "raise MG_MAX_ALGS");
MG_OPERATIONS(MG_X)
#undef MG_X

/* Each non-blocking collective (MG_NBC_OPS) is its blocking twin's I-form: the same rooted,
 * reduction and known flags (the checks, the rules and the message size are the twin's), and the
 * same place in its list (mg_coll_base, mg_coll_nbc_of count on it). Checked at compile time. */
#define MG_X(E, n, m, r, red, k, s) enum { MG_FLAGS_##E = (r) * 4 + (red) * 2 + ((k) != 0) };
MG_OPERATIONS(MG_X)
#undef MG_X
#define MG_X(E, n, m, r, red, k, s)                                                                  \
  _Static_assert((int)MG_FLAGS_I##E == (int)MG_FLAGS_##E, "MPI_I" #E ": rooted/reduction/known differ from " m); \
  _Static_assert(MG_I##E - MG_IALLGATHER == MG_##E - MG_ALLGATHER, "MPI_I" #E ": not at " m "'s place");
MG_COLLECTIVES(MG_X)
#undef MG_X
_Static_assert(MG_ISCATTERV - MG_IALLGATHER + 1 == MG_NCOLLECTIVES, "one non-blocking form per blocking collective");
#define MG_X(E, n, m, r, red, k, s)                                                                  \
  _Static_assert((int)MG_FLAGS_I##E == (int)MG_FLAGS_##E, "MPI_I" #E ": rooted/reduction/known differ from " m); \
  _Static_assert(MG_I##E - MG_INEIGHBOR_ALLGATHER == MG_##E - MG_NEIGHBOR_ALLGATHER, "MPI_I" #E ": not at " m "'s place");
MG_NEIGHBOR_OPS(MG_X)
#undef MG_X
_Static_assert(MG_INEIGHBOR_ALLTOALLW - MG_INEIGHBOR_ALLGATHER == MG_NEIGHBOR_ALLTOALLW - MG_NEIGHBOR_ALLGATHER,
               "one non-blocking form per neighbourhood collective");
_Static_assert(MG_NCOLL <= 64, "the profile's operation mask (lib.h, profile_ruled) is a uint64_t");

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
int mg_why_measurable(mg_why why) {
  return why == MG_WHY_OP_NOT_EXACT || why == MG_WHY_MEASURE_ONLY || why == MG_WHY_NO_PROGRESS;
}

/* A schedule row (MG_R_PROGRESS) where libmpiguide's progress thread cannot run it. */
static int no_progress(const mg_alg *a, const mg_call *c) {
  return (a->restrictions & MG_R_PROGRESS) &&
         (!mg_progress_on || !c->req || !mg_sched_has_shadow(c->comm));
}

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

int mg_call_prepare(mg_call *c) {
  int rc = PMPI_Comm_test_inter(c->comm, &c->inter);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Comm_size(c->comm, &c->size);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Comm_rank(c->comm, &c->rank);
  if (rc != MPI_SUCCESS) return rc;
  if (mg_coll_is_neighbor(c->coll) && !c->inter && (rc = mg_call_neighbors(c)) != MPI_SUCCESS) return rc;
  mg_call_set_bytes(c);
  return MPI_SUCCESS;
}

int mg_call_neighbors(mg_call *c) {
  int rc = PMPI_Topo_test(c->comm, &c->topo), n = 0, w = 0;
  c->indeg = c->outdeg = 0;
  if (rc != MPI_SUCCESS) return rc;
  if (c->topo == MPI_CART) {
    rc = PMPI_Cartdim_get(c->comm, &n);
    c->indeg = c->outdeg = 2 * n;
  } else if (c->topo == MPI_GRAPH) {
    rc = PMPI_Graph_neighbors_count(c->comm, c->rank, &n);
    c->indeg = c->outdeg = n;
  } else if (c->topo == MPI_DIST_GRAPH) {
    rc = PMPI_Dist_graph_neighbors_count(c->comm, &c->indeg, &c->outdeg, &w);
  } else {
    c->topo = MPI_UNDEFINED;
  }
  return rc;
}

void mg_call_set_bytes_other(mg_call *c) {
  if (c->inter) { /* the default runs; no size needed beyond a trace value */
    c->bytes = 0;
    return;
  }
  switch (mg_coll_base(c->coll)) { /* a non-blocking collective: its blocking twin's size */
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
    if (mg_coll_base(c->coll) == MG_REDUCE_SCATTER) c->scount = c->rcount;
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
  case MG_NEIGHBOR_ALLGATHER: case MG_NEIGHBOR_ALLGATHERV: case MG_NEIGHBOR_ALLTOALL:
    c->bytes = type_bytes(c->scount, c->stype); /* the block each out-neighbour gets */
    break;
  case MG_NEIGHBOR_ALLTOALLV:
    c->bytes = counts_bytes(c->scounts, c->outdeg, c->stype);
    break;
  case MG_NEIGHBOR_ALLTOALLW: {
    size_t total = 0;
    for (int i = 0; c->scounts && c->stypes && i < c->outdeg; i++) total += type_bytes(c->scounts[i], c->stypes[i]);
    c->bytes = total;
    break;
  }
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

int mg_needs_padding(const mg_call *c) {
  if (mg_coll_base(c->coll) != MG_REDUCE_SCATTER) return c->rcount % c->size != 0;
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
  mg_coll k = mg_coll_base(c->coll);
  if (k != MG_ALLGATHERV && k != MG_REDUCE_SCATTER) return c->bytes;
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
#ifndef MG_HAVE_PCOLL
  if (a->family == MG_FAM_PERSISTENT) return MG_WHY_NO_PCOLL;
#endif
  int in_place = (a->restrictions & MG_R_NOT_IN_PLACE) && c->sbuf == MPI_IN_PLACE;
  int one = (a->restrictions & MG_R_P_GT_1) && c->size == 1;
  if (!mg_colls[c->coll].known) /* no size restrictions: the mock-up decides late (mg_late_ok) */
    return in_place ? MG_WHY_IN_PLACE : one ? MG_WHY_ONE_PROCESS
           : a->mem && a->mem(c) > scratch_max ? MG_WHY_SCRATCH_CAP
           : a->restrictions & MG_R_MEASURE_ONLY ? MG_WHY_MEASURE_ONLY /* last, as below */
           : no_progress(a, c)                   ? MG_WHY_NO_PROGRESS
                                                 : MG_WHY_NONE;
  if (c->bytes == 0 && mg_coll_base(c->coll) != MG_BARRIER) return MG_WHY_EMPTY; /* a barrier moves nothing, always */
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
#ifdef MPICH_VERSION
  if ((a->restrictions & MG_R_UNIFORM_BASIC) && mg_type_mixed_sizes(c->rtype)) return MG_WHY_MIXED_SIZES;
#endif
  if (a->restrictions & MG_R_MEASURE_ONLY) return MG_WHY_MEASURE_ONLY; /* last: measurable (mg_why_measurable) */
  if (no_progress(a, c)) return MG_WHY_NO_PROGRESS; /* measurable too */
  return MG_WHY_NONE;
}

__thread mg_late_state mg_late = {SIZE_MAX, MG_WHY_NONE};

int mg_late_ok(int fits, size_t scratch) {
  mg_late.why = !fits ? MG_WHY_COUNT_RANGE : scratch > mg_late.cap ? MG_WHY_SCRATCH_CAP : MG_WHY_NONE;
  return mg_late.why == MG_WHY_NONE;
}
