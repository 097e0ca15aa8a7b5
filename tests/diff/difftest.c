/*
 * difftest: the differential correctness test of libmpiguide's algorithms.
 *
 * For each selected collective and each of its algorithms (the default too), in
 * turn, the algorithm is forced with mpiguide_force() and every case runs twice
 * with identical arguments: through PMPI_<Coll>, the MPI library's own
 * implementation (the reference), and through MPI_<Coll>, i.e. libmpiguide's
 * wrapper running the forced algorithm. A case passes on a rank when
 *  - both calls return MPI_SUCCESS (for an erroneous call: errors of one class);
 *  - the receive allocations are byte-identical, including guard bytes on both
 *    sides and the gaps of derived datatypes: both start from the same sentinel
 *    image, so a write into a gap or past the end shows. Where the standard
 *    leaves elements undefined (rank 0 of exscan; the tail of an in-place
 *    reduce_scatter(_block) buffer) their typed bytes are made equal in every
 *    image before comparing, so guards and gaps are still compared; non-root
 *    receive buffers of gather, gatherv and reduce must keep the sentinel;
 *  - the send buffer is unchanged, gaps and guards included;
 *  - libmpiguide's counters moved as they must: the forced algorithm ran for a
 *    non-empty intracommunicator call; otherwise the default ran, with fallback
 *    reason "empty" or "intercomm". Gatherv, scatterv, alltoallv and alltoallw
 *    (message size not known on every rank, mg_coll_info.known = 0) have no
 *    "empty" fallback: the forced algorithm must run for every intracommunicator
 *    call, all counts zero included; a late fallback (count_range, scratch_cap)
 *    cannot happen at the sizes tested, so it fails, and the counters say which;
 *  - user-defined ops were called only with the datatype of the call, and with
 *    no more elements than the call reduces (a user op may rely on both);
 *  - reductions: predefined ops on predefined types, user ops (commutative and not) on
 *    derived ones, every other predefined op on integer types of every width (run_exact_ops),
 *    and MPI_MINLOC / MPI_MAXLOC on MPI_DOUBLE_INT / MPI_2INT (ties in value and index; above
 *    8 KiB too, where MPICH's gather and scatter cannot take MPI_DOUBLE_INT packed);
 *  - reduce_scatter and allgatherv: recvcounts patterns (uniform, non-uniform,
 *    zeros on some ranks, everything on one rank, all zero), a function of the
 *    case only, so every rank passes the same vector (in units of the datatype
 *    family: with mixed views the element counts differ, the signatures agree);
 *  - gatherv and scatterv: the same patterns for the root's counts vector and
 *    each rank's own count, plus a skewed one (rank j holds n(1 + j^2) units);
 *    alltoallv and alltoallw: a count matrix (a2a_count: what rank i sends to j
 *    is what j receives from i, in units of the family) with asymmetric rows:
 *    uniform, a ramp, ranks that send nothing, lower-triangular, one rank to
 *    and from all, all zero;
 *  - allgatherv and the four above: displacement patterns (rank order, reversed,
 *    gaps between blocks that must keep the sentinel, out of order with gaps and
 *    the buffer argument inside the allocation so some displacements are
 *    negative, and a different pattern on each rank: displs is a local layout,
 *    not a value every rank shares), for the root's receive (gatherv) or send
 *    (scatterv) layout and for both sides of alltoallv/w, each side its own;
 *  - alltoallw: a datatype per peer and side (mixed configurations: the view
 *    (rank + peer + side) % views, so neighbouring blocks differ in type), byte
 *    displacements that are multiples of no extent, blocks spanning their true
 *    extents;
 *  - every root, MPI_IN_PLACE where the standard allows it (gatherv: the root's
 *    sendbuf; scatterv: the root's recvbuf; alltoallv/w: sendbuf, the data coming
 *    from recvbuf, with symmetric counts) with the ignored arguments zero/NULL or junk,
 *    and non-roots' root-only arguments real (untouched), NULL, or junk;
 *    intercommunicators with MPI_ROOT and MPI_PROC_NULL (no MPI_IN_PLACE there);
 *  - with the send and receive data back to back in memory (adjacent_call),
 *    which is legal, nothing changes;
 *  - insignificant arguments as NULL, -1 and MPI_DATATYPE_NULL (run_insignificant): the root-only
 *    ones at non-roots, the ones MPI_IN_PLACE makes insignificant (MPICH's coll/scatter2);
 *  - an empty message that the two sides count differently, 1 x an empty datatype against 0 x
 *    MPI_INT (run_zero_bytes, MPICH's coll/alltoallw_zeros).
 * The error cases (--errors, run_errors) include the irregular collectives: a
 * negative count or a null datatype in an array entry, a bad root.
 * Input data is a function of (case, rank, block), so the test also computes the
 * expected result itself (the oracle, intracommunicator cases): a mock-up that
 * differs from the reference but matches the oracle passes, and the reference
 * differing from the oracle is reported as a defect of the MPI library.
 *
 * Every rank generates the same cases in the same order, so case numbers agree.
 * Failures are recorded per rank; after each algorithm the ranks combine them
 * (with PMPI_ calls, so bookkeeping never runs a forced algorithm) and rank 0
 * prints one line and the first failures. Consecutive calls of one algorithm
 * have different data, so reading stale scratch cannot pass by luck.
 *
 * The barrier moves no data: barriertest.c tests it (no rank leaves before all entered).
 *
 * Usage: difftest [options] <coll>[=<alg>] ... | all
 *        difftest --errors [--no-force] [--world-returns] [<coll>[=<alg>] ...]
 *        difftest --write-profile FILE   (no MPI: a profile for the tuned-mode error test)
 *        difftest --list FILE            (no MPI: the collectives, for CTest)
 *   --quick       fewer combinations (for MPICH, which busy-polls and is slow when
 *                 oversubscribed), every feature still covered
 *   --errors      the error pass-through cases instead (run_errors)
 *   --no-force    with --errors: run each case once in the mode the environment set
 *   --world-returns with --errors: MPI_COMM_WORLD and MPI_COMM_SELF return errors too
 *   -v            details from every failing rank, not only three
 *   --trace       every case on stderr before it runs (to locate a hang or crash)
 *   --cases A[-B] run only cases A..B (the numbers in failure details; "A-" to the end)
 *   --watchdog S  seconds a case may take before the rank reports a hang and exits (30)
 * Exit code 0 when every rank saw every case pass, 1 otherwise.
 */
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <mpi.h>

#include "common/test_mpi.h"
#include "mpiguide.h"
#include "registry/registry.h"

/* ------------------------------------------------------------------ utilities */

static int g_rank, g_np, g_quick, g_verbose, g_trace;
static long g_first = 0, g_last = -1; /* --cases A[-B]: run only these case numbers */

static uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static const char *err_text(int rc) {
  static char buf[MPI_MAX_ERROR_STRING + 64];
  char s[MPI_MAX_ERROR_STRING] = "";
  int len = 0, cls = -1;
  MPI_Error_class(rc, &cls);
  MPI_Error_string(rc, s, &len);
  snprintf(buf, sizeof buf, "rc %d class %d (%.120s)", rc, cls, s);
  return buf;
}

/* ------------------------------------------------------------------ datatypes */

/* Kind of the basic elements, which decides how input values are generated:
 * raw bytes for data movement, valid values for reductions. */
enum { BK_RAW, BK_INT, BK_DOUBLE, BK_UCHAR, BK_U32, BK_I8, BK_I16, BK_I64, BK_U64, BK_DINT, BK_2INT };
/* BK_DINT, BK_2INT: the value-index pairs of MPI_DOUBLE_INT and MPI_2INT, packed (value, index) */
static const int bk_bytes[] = {1, sizeof(int), sizeof(double), 1, sizeof(unsigned), 1, 2, 8, 8,
                               sizeof(double) + sizeof(int), 2 * sizeof(int)};

/* X(ENUM, name, basic kind). Built in make_types(). */
#define TEST_TYPES(X)                                                 \
  X(INT, "MPI_INT", BK_INT)                                           \
  X(DOUBLE, "MPI_DOUBLE", BK_DOUBLE)                                  \
  X(CHAR, "MPI_CHAR", BK_RAW)                                         \
  X(UCHAR, "MPI_UNSIGNED_CHAR", BK_UCHAR)                             \
  X(INT_LB, "int@8_resized(lb=4,ext=12)", BK_INT)                     \
  X(INT_NEGLB, "int@-8_resized(lb=-12,ext=16)", BK_INT)               \
  X(INT_SHIFT, "int@4_resized(lb=4,ext=4)", BK_INT)                   \
  X(CONTIG4, "contiguous(4,int)", BK_INT)                             \
  X(VEC4, "vector(2,2,3,int)_resized(ext=28)", BK_INT)                \
  X(IDX4, "indexed({2,1,1},{4,0,7},int)", BK_INT)                     \
  X(VEC3UC, "vector(3,1,2,uchar)(ext=5)", BK_UCHAR)                   \
  X(ST_HOLES, "struct{int@0,double@8,char@16}(ext=24)", BK_RAW)       \
  X(ST_PACKED, "struct{int@0,double@4,char@12}(ext=13)", BK_RAW)      \
  X(ST_NEG, "struct{int@8,double@-16,char@0}(lb=-20,ext=32)", BK_RAW) \
  X(P_STRUCT, "pair{u@0,u@8}(ext=16)", BK_U32)                        \
  X(P_NEGLB, "pair{u@4,u@-8}(lb=-12,ext=24)", BK_U32)                 \
  X(P_VEC, "pair=vector(2,1,2,unsigned)", BK_U32)                     \
  X(P_CONTIG, "pair=contiguous(2,unsigned)", BK_U32)                  \
  X(P_SHIFT, "pair{u@8,u@12}(lb=8,ext=8)", BK_U32)                   \
  X(BYTE, "MPI_BYTE", BK_UCHAR)                                       \
  X(SHORT, "MPI_SHORT", BK_I16)                                       \
  X(I8, "MPI_INT8_T", BK_I8)                                          \
  X(LLONG, "MPI_LONG_LONG", BK_I64)                                   \
  X(U64, "MPI_UINT64_T", BK_U64)                                      \
  X(UNSIGNED, "MPI_UNSIGNED", BK_U32)                                  \
  X(DINT, "MPI_DOUBLE_INT", BK_DINT)                                  \
  X(TWOINT, "MPI_2INT", BK_2INT)                                      \
  X(FINT, "MPI_INTEGER", BK_INT)                                      \
  X(FLOGICAL, "MPI_LOGICAL", BK_INT)

enum {
#define X(E, n, b) T_##E,
  TEST_TYPES(X)
#undef X
      T_N
};

typedef struct ttype {
  const char *name;
  int bk;
  MPI_Datatype dt;
  MPI_Aint lb, extent, tlb, textent;
  int size;
} ttype;

static ttype types[T_N] = {
#define X(E, n, b) [T_##E] = {n, b, MPI_DATATYPE_NULL, 0, 0, 0, 0, 0},
    TEST_TYPES(X)
#undef X
};

static MPI_Datatype mk_struct(int n, const int *bl, const MPI_Aint *disp, const MPI_Datatype *t, MPI_Aint lb,
                              MPI_Aint extent) {
  MPI_Datatype s, r;
  TEST_MPI(MPI_Type_create_struct(n, bl, disp, t, &s));
  TEST_MPI(MPI_Type_create_resized(s, lb, extent, &r));
  MPI_Type_free(&s);
  return r;
}

/* The types made here (committed and freed), not predefined ones. */
static int derived(int i) { return i > T_UCHAR && i < T_BYTE; }

static void make_types(void) {
  MPI_Datatype tmp;
  types[T_INT].dt = MPI_INT;
  types[T_DOUBLE].dt = MPI_DOUBLE;
  types[T_CHAR].dt = MPI_CHAR;
  types[T_UCHAR].dt = MPI_UNSIGNED_CHAR;
  /* non-zero lower bound, data not at the lower bound */
  types[T_INT_LB].dt = mk_struct(1, (int[]){1}, (MPI_Aint[]){8}, (MPI_Datatype[]){MPI_INT}, 4, 12);
  /* negative lower bound */
  types[T_INT_NEGLB].dt = mk_struct(1, (int[]){1}, (MPI_Aint[]){-8}, (MPI_Datatype[]){MPI_INT}, -12, 16);
  /* no gaps, extent = size, but shifted: the data is not at the buffer address */
  types[T_INT_SHIFT].dt = mk_struct(1, (int[]){1}, (MPI_Aint[]){4}, (MPI_Datatype[]){MPI_INT}, 4, 4);
  TEST_MPI(MPI_Type_contiguous(4, MPI_INT, &types[T_CONTIG4].dt));
  /* gaps inside and between elements */
  TEST_MPI(MPI_Type_vector(2, 2, 3, MPI_INT, &tmp));
  TEST_MPI(MPI_Type_create_resized(tmp, 0, 28, &types[T_VEC4].dt));
  MPI_Type_free(&tmp);
  /* typemap not in address order: packing order differs from memory order */
  TEST_MPI(MPI_Type_indexed(3, (int[]){2, 1, 1}, (int[]){4, 0, 7}, MPI_INT, &types[T_IDX4].dt));
  /* odd extent: elements at unaligned addresses */
  TEST_MPI(MPI_Type_vector(3, 1, 2, MPI_UNSIGNED_CHAR, &types[T_VEC3UC].dt));
  MPI_Datatype idc[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
  int ones[3] = {1, 1, 1};
  types[T_ST_HOLES].dt = mk_struct(3, ones, (MPI_Aint[]){0, 8, 16}, idc, 0, 24);
  types[T_ST_PACKED].dt = mk_struct(3, ones, (MPI_Aint[]){0, 4, 12}, idc, 0, 13);
  types[T_ST_NEG].dt = mk_struct(3, ones, (MPI_Aint[]){8, -16, 0}, idc, -20, 32);
  MPI_Datatype uu[2] = {MPI_UNSIGNED, MPI_UNSIGNED};
  types[T_P_STRUCT].dt = mk_struct(2, ones, (MPI_Aint[]){0, 8}, uu, 0, 16);
  types[T_P_NEGLB].dt = mk_struct(2, ones, (MPI_Aint[]){4, -8}, uu, -12, 24);
  TEST_MPI(MPI_Type_vector(2, 1, 2, MPI_UNSIGNED, &types[T_P_VEC].dt));
  TEST_MPI(MPI_Type_contiguous(2, MPI_UNSIGNED, &types[T_P_CONTIG].dt));
  types[T_P_SHIFT].dt = mk_struct(2, ones, (MPI_Aint[]){8, 12}, uu, 8, 8);
  /* predefined integer types, for the ops whose result is exact in any order (the userop rows) */
  types[T_BYTE].dt = MPI_BYTE;
  types[T_SHORT].dt = MPI_SHORT;
  types[T_I8].dt = MPI_INT8_T;
  types[T_LLONG].dt = MPI_LONG_LONG;
  types[T_U64].dt = MPI_UINT64_T;
  types[T_UNSIGNED].dt = MPI_UNSIGNED;
  types[T_DINT].dt = MPI_DOUBLE_INT;
  types[T_TWOINT].dt = MPI_2INT;
  types[T_FINT].dt = MPI_INTEGER;
  types[T_FLOGICAL].dt = MPI_LOGICAL;
  for (int i = 0; i < T_N; i++) {
    ttype *t = &types[i];
    if (derived(i)) TEST_MPI(MPI_Type_commit(&t->dt));
    TEST_MPI(MPI_Type_get_extent(t->dt, &t->lb, &t->extent));
    TEST_MPI(MPI_Type_get_true_extent(t->dt, &t->tlb, &t->textent));
    TEST_MPI(MPI_Type_size(t->dt, &t->size));
  }
  if (types[T_FINT].size != (int)sizeof(int) || types[T_FLOGICAL].size != (int)sizeof(int))
    mg_test_die("difftest: MPI_INTEGER or MPI_LOGICAL is not the size of a C int here: the oracle reads them as int");
}

static void free_types(void) {
  for (int i = 0; i < T_N; i++)
    if (derived(i)) MPI_Type_free(&types[i].dt);
}

static int known_type(MPI_Datatype dt) {
  for (int i = 0; i < T_N; i++)
    if (types[i].dt == dt) return 1;
  return 0;
}

/*
 * Data-movement families: views of one type signature per "unit". Ranks may use
 * different views of a family for the same call (only signatures must match).
 */
typedef struct family {
  const char *name;
  int nv;
  int t[4], mult[4]; /* view v: mult[v] elements of types[t[v]] per unit */
  int unit_bytes;
} family;

enum { F_INT, F_INT4, F_DOUBLE, F_CHAR, F_UCHAR3, F_STRUCT, F_N };
static family fams[F_N] = {
    [F_INT] = {"int", 4, {T_INT, T_INT_LB, T_INT_NEGLB, T_INT_SHIFT}, {1, 1, 1, 1}, 0},
    [F_INT4] = {"int4", 4, {T_INT, T_CONTIG4, T_VEC4, T_IDX4}, {4, 1, 1, 1}, 0},
    [F_DOUBLE] = {"double", 1, {T_DOUBLE}, {1}, 0},
    [F_CHAR] = {"char", 1, {T_CHAR}, {1}, 0},
    [F_UCHAR3] = {"uchar3", 2, {T_UCHAR, T_VEC3UC}, {3, 1}, 0},
    [F_STRUCT] = {"struct", 3, {T_ST_HOLES, T_ST_PACKED, T_ST_NEG}, {1, 1, 1}, 0},
};

static void check_families(void) {
  for (int f = 0; f < F_N; f++) {
    family *fa = &fams[f];
    fa->unit_bytes = types[fa->t[0]].size * fa->mult[0];
    for (int v = 1; v < fa->nv; v++)
      if (types[fa->t[v]].size * fa->mult[v] != fa->unit_bytes)
        mg_test_die("family %s: unequal unit sizes", fa->name);
  }
}

/* View configurations: one view everywhere, or MIX: rank r uses view (r + side) % nv
 * (side 0 send, 1 receive), so e.g. MPI_INT x 4 on even ranks meets contiguous(4,int)
 * x 1 on odd ranks, and send and receive types differ on one rank too. */
#define MIX (-1)
static const struct {
  int fam, view;
} vcs[] = {
    {F_INT, 0},  {F_DOUBLE, 0}, {F_CHAR, 0},   {F_UCHAR3, 0},   {F_UCHAR3, MIX},
    {F_INT4, 1}, {F_INT4, 2},   {F_INT4, 3},   {F_INT4, MIX},   {F_INT, 1},
    {F_INT, 2},  {F_INT, MIX},  {F_STRUCT, 0}, {F_STRUCT, MIX}, {F_INT, 3},
};
#define NVC ((int)(sizeof vcs / sizeof vcs[0]))
enum {
  VC_INT = 0,
  VC_UCHAR3_MIX = 4,
  VC_IDX4 = 7,
  VC_INT4_MIX = 8,
  VC_INT_NEGLB = 10,
  VC_INT_MIX = 11,
  VC_STRUCT = 12,
  VC_STRUCT_MIX = 13
};

static const ttype *vtype(int vc, int rank, int side, int *mult) {
  const family *f = &fams[vcs[vc].fam];
  int v = vcs[vc].view == MIX ? (rank + side) % f->nv : vcs[vc].view;
  *mult = f->mult[v];
  return &types[f->t[v]];
}

/* ------------------------------------------------------------------ ops */

/*
 * Two user-defined ops, computed through MPI_Pack so they work for any datatype
 * made of 32-bit words (the op still checks that the datatype is one the test
 * passed in: a user op may rely on that):
 *  - commutative: x (+) y = x + y + x*y = (1+x)(1+y) - 1 per word, mod 2^32;
 *  - non-commutative, associative: on pairs (a, b) read as maps x -> a*x + b,
 *    f op g = "f then g" = (a_g*a_f, a_g*b_f + b_g), mod 2^32. Reduction order
 *    errors change the result.
 */
enum {
  OP_SUM, OP_MAX, OP_BOR, OP_UCOMM, OP_NONCOMM, /* the main sweep's */
  OP_PROD, OP_MIN, OP_LAND, OP_LOR, OP_LXOR, OP_BAND, OP_BXOR, /* run_exact_ops' too */
  OP_MINLOC, OP_MAXLOC, OP_N /* on the value-index pairs (run_exact_ops) */
};
static const char *op_names[OP_N] = {"MPI_SUM",  "MPI_MAX",  "MPI_BOR",  "user_commutative", "user_noncommutative",
                                     "MPI_PROD", "MPI_MIN",  "MPI_LAND", "MPI_LOR",          "MPI_LXOR",
                                     "MPI_BAND", "MPI_BXOR", "MPI_MINLOC",       "MPI_MAXLOC"};
static MPI_Op ops[OP_N];
static int g_op_foreign; /* a user op saw a datatype no case passed */
/* Elements the call under test reduces (count; p*count for reduce_scatter_block).
 * A user op may assume it never gets more (the MPI library's own algorithms never
 * pass more), so libmpiguide must not either: g_op_maxseen records the largest
 * len a user op was called with during the call under test. */
static long g_op_limit = -1, g_op_maxseen;
static unsigned *g_opbuf;
static size_t g_opcap;

static size_t op_pack(void *in, void *inout, int len, MPI_Datatype dt, int unit_words) {
  int sz = 0;
  if (g_op_limit >= 0 && len > g_op_maxseen) g_op_maxseen = len;
  MPI_Type_size(dt, &sz);
  if (!known_type(dt)) g_op_foreign = 1;
  if (sz % (4 * unit_words) != 0) {
    g_op_foreign = 1;
    return 0;
  }
  size_t nb = (size_t)len * (size_t)sz;
  if (2 * nb > g_opcap) {
    free(g_opbuf);
    g_opcap = 2 * nb;
    g_opbuf = mg_test_malloc(g_opcap);
  }
  int pos = 0;
  MPI_Pack(in, len, dt, g_opbuf, (int)nb, &pos, MPI_COMM_SELF);
  pos = 0;
  MPI_Pack(inout, len, dt, (char *)g_opbuf + nb, (int)nb, &pos, MPI_COMM_SELF);
  return nb / 4;
}

static void op_unpack(void *inout, int len, MPI_Datatype dt, size_t nw) {
  int pos = 0;
  MPI_Unpack(g_opbuf + nw, (int)(nw * 4), &pos, inout, len, dt, MPI_COMM_SELF);
}

static void op_ucomm_fn(void *in, void *inout, int *len, MPI_Datatype *dt) {
  size_t nw = op_pack(in, inout, *len, *dt, 1);
  unsigned *x = g_opbuf, *y = g_opbuf + nw;
  for (size_t i = 0; i < nw; i++) y[i] = x[i] + y[i] + x[i] * y[i];
  if (nw) op_unpack(inout, *len, *dt, nw);
}

static void op_noncomm_fn(void *in, void *inout, int *len, MPI_Datatype *dt) {
  size_t nw = op_pack(in, inout, *len, *dt, 2);
  unsigned *x = g_opbuf, *y = g_opbuf + nw;
  for (size_t i = 0; i + 1 < nw; i += 2) {
    unsigned a = y[i] * x[i], b = y[i] * x[i + 1] + y[i + 1];
    y[i] = a;
    y[i + 1] = b;
  }
  if (nw) op_unpack(inout, *len, *dt, nw);
}

/* Reduction combinations: datatype and op. The standard makes predefined ops apply
 * to predefined types only (both MPIs reject derived types there), so derived
 * types come with the user ops. From RC_EXACT on: every other predefined op on
 * integer types of every width, signed and unsigned, and MPI_BYTE (the ops the
 * userop rows replace; run_exact_ops, a few cases each). */
static const struct {
  int t, op;
} rcs[] = {
    {T_INT, OP_SUM},         {T_INT, OP_MAX},        {T_INT, OP_BOR},          {T_DOUBLE, OP_SUM},
    {T_DOUBLE, OP_MAX},      {T_UCHAR, OP_BOR},      {T_INT, OP_UCOMM},        {T_P_STRUCT, OP_NONCOMM},
    {T_P_NEGLB, OP_NONCOMM}, {T_P_VEC, OP_UCOMM},    {T_P_CONTIG, OP_NONCOMM}, {T_P_VEC, OP_NONCOMM},
    {T_P_NEGLB, OP_UCOMM},   {T_P_STRUCT, OP_UCOMM}, {T_P_SHIFT, OP_NONCOMM},
    /* RC_EXACT */
    {T_LLONG, OP_PROD},      {T_SHORT, OP_MIN},      {T_I8, OP_LAND},          {T_U64, OP_LOR},
    {T_UNSIGNED, OP_LXOR},   {T_BYTE, OP_BAND},      {T_BYTE, OP_BXOR},        {T_I8, OP_SUM},
    {T_U64, OP_MAX},         {T_SHORT, OP_PROD},     {T_LLONG, OP_MIN},        {T_BYTE, OP_BOR},
    {T_UNSIGNED, OP_SUM},    {T_I8, OP_LXOR},        {T_SHORT, OP_BAND},       {T_LLONG, OP_LOR},
    {T_U64, OP_PROD},        {T_I8, OP_MAX},
    /* Fortran's INTEGER and LOGICAL (their classes fint and logical: the padded rows run on them;
     * gfortran's default kinds, 4 bytes as C's int, which make_types checks) */
    {T_FINT, OP_SUM},        {T_FLOGICAL, OP_LOR},
    /* RC_LOC: a minimum or maximum and its owner, as codes find them (no class: the userop and padded
     * rows fall back; MPI_DOUBLE_INT mixes basic sizes: on MPICH the gather rows too) */
    {T_DINT, OP_MINLOC},     {T_TWOINT, OP_MAXLOC},
};
#define NRC ((int)(sizeof rcs / sizeof rcs[0]))
enum {
  RC_INT_SUM = 0,
  RC_DOUBLE_SUM = 3,
  RC_PSTRUCT_NC = 7,
  RC_PNEG_NC = 8,
  RC_PVEC_UC = 9,
  RC_PCONTIG_NC = 10,
  RC_PVEC_NC = 11,
  RC_EXACT = 15, /* the first of the exact-op combinations; the main sweep stops before it */
  RC_LOC = 35,   /* the first of the value-index pairs (run_exact_ops runs them too) */
};

/* ------------------------------------------------------------------ communicators */

typedef struct tcomm {
  const char *name;
  MPI_Comm comm;
  int rank, size;
  int inter, rsize, low; /* intercommunicator: remote size, in the even-ranks group */
  int maxsize;           /* largest size of this communicator over all ranks (halves differ) */
  int regular, consecutive; /* its nodes, as the hier family sees them (node_shape) */
} tcomm;

/* Built the way test suites build them (MPICH's MTestGetIntracomm: duplicates, splits,
 * reversed orders, subsets); C_SUBSET is MPI_COMM_NULL on the last rank, which skips
 * the cases but counts them, so case numbers agree on every rank. */
enum { C_WORLD, C_DUP, C_HALVES, C_REVERSED, C_SUBSET, C_SELF, C_INTER, C_N };
static tcomm comms[C_N];

static void node_shape(tcomm *t);

static void make_comms(void) {
  MPI_Comm c;
  comms[C_WORLD] = (tcomm){.name = "world", .comm = MPI_COMM_WORLD};
  TEST_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &c));
  comms[C_DUP] = (tcomm){.name = "dup", .comm = c};
  TEST_MPI(MPI_Comm_split(MPI_COMM_WORLD, g_rank % 2, g_rank, &c));
  comms[C_HALVES] = (tcomm){.name = "halves(odd/even)", .comm = c};
  TEST_MPI(MPI_Comm_split(MPI_COMM_WORLD, 0, -g_rank, &c));
  comms[C_REVERSED] = (tcomm){.name = "reversed(key=-rank)", .comm = c};
  TEST_MPI(MPI_Comm_split(MPI_COMM_WORLD, g_rank < g_np - 1 ? 0 : MPI_UNDEFINED, g_np - g_rank, &c));
  comms[C_SUBSET] = (tcomm){.name = "subset(all but the last rank, reversed)", .comm = c};
  TEST_MPI(MPI_Comm_split(MPI_COMM_WORLD, g_rank, 0, &c));
  comms[C_SELF] = (tcomm){.name = "self-sized(split by rank)", .comm = c};
  comms[C_INTER] =
      (tcomm){.name = "intercomm(even|odd)", .comm = MPI_COMM_NULL, .inter = 1, .low = g_rank % 2 == 0};
#ifndef MG_DIFFTEST_NO_INTERCOMM /* SimGrid's SMPI 3.32 has no MPI_Intercomm_create (docs/scale.md) */
  if (g_np >= 2) {
#else
  if (0) {
#endif
    TEST_MPI(MPI_Intercomm_create(comms[C_HALVES].comm, 0, MPI_COMM_WORLD, g_rank % 2 ? 0 : 1, 77, &c));
    comms[C_INTER].comm = c;
    TEST_MPI(MPI_Comm_remote_size(c, &comms[C_INTER].rsize));
  }
  for (int i = 0; i < C_N; i++) {
    if (comms[i].comm == MPI_COMM_NULL) continue;
    TEST_MPI(MPI_Comm_rank(comms[i].comm, &comms[i].rank));
    TEST_MPI(MPI_Comm_size(comms[i].comm, &comms[i].size));
  }
  for (int i = 0; i < C_N; i++)
    if (comms[i].comm != MPI_COMM_NULL && !comms[i].inter) node_shape(&comms[i]);
  for (int i = 0; i < C_N; i++) /* loops over roots must have the same length everywhere */
    TEST_MPI(PMPI_Allreduce(&comms[i].size, &comms[i].maxsize, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
}

/* The node structure the hier family sees on an intracommunicator (src/algs/hier_nodes.c), computed
 * here on its own: with MPIGUIDE_NODE_SIZE=k on every rank, nodes of k consecutive ranks of
 * MPI_COMM_WORLD, else the shared-memory nodes. Whether every node has the same number of ranks,
 * and whether each node is a range of consecutive ranks (the lane rows need the first, the rows
 * of a non-commutative reduction the second). */
static void node_shape(tcomm *t) {
  int p = t->size, k = 0, v[2], w[2], color = 0, wr;
  const char *env = getenv("MPIGUIDE_NODE_SIZE");
  if (env && *env) {
    char *end;
    long x = strtol(env, &end, 10);
    k = *end || x < 1 ? 0 : (int)x;
  }
  v[0] = k, v[1] = -k;
  TEST_MPI(PMPI_Allreduce(v, w, 2, MPI_INT, MPI_MIN, t->comm));
  if (w[0] != -w[1]) k = 0;
  if (k) {
    TEST_MPI(PMPI_Comm_rank(MPI_COMM_WORLD, &wr));
    color = wr / k;
  } else {
    MPI_Comm sc;
    TEST_MPI(PMPI_Comm_split_type(t->comm, MPI_COMM_TYPE_SHARED, t->rank, MPI_INFO_NULL, &sc));
    TEST_MPI(PMPI_Allreduce(&t->rank, &color, 1, MPI_INT, MPI_MIN, sc));
    TEST_MPI(PMPI_Comm_free(&sc));
  }
  int *all = mg_test_malloc((size_t)p * sizeof *all);
  TEST_MPI(PMPI_Allgather(&color, 1, MPI_INT, all, 1, MPI_INT, t->comm));
  t->regular = t->consecutive = 1;
  for (int i = 0; i < p; i++) {
    int size = 0, size0 = 0;
    for (int j = 0; j < p; j++) size += all[j] == all[i], size0 += all[j] == all[0];
    if (size != size0) t->regular = 0;
    for (int j = 0; i > 0 && all[i] != all[i - 1] && j < i - 1; j++) /* a node, once left, never returns */
      if (all[j] == all[i]) t->consecutive = 0;
  }
  free(all);
}

static void free_comms(void) {
  for (int i = C_DUP; i < C_N; i++)
    if (comms[i].comm != MPI_COMM_NULL) MPI_Comm_free(&comms[i].comm);
}

/* ------------------------------------------------------------------ buffers */

/* Guard bytes on both sides of every receive allocation. */
#define GUARD 64

typedef struct tbuf {
  char *mem; /* the allocation, guards included */
  size_t len;
  char *org; /* the address passed to MPI: element i at org + i*extent */
  const ttype *t;
  size_t n;
} tbuf;

static size_t span(const ttype *t, size_t n) {
  return n ? (size_t)((MPI_Aint)(n - 1) * t->extent + t->textent) : 0;
}

static void tb_make(tbuf *b, const ttype *t, size_t n) {
  b->len = span(t, n) + 2 * GUARD;
  b->mem = mg_test_malloc(b->len);
  b->org = b->mem + GUARD - t->tlb;
  b->t = t;
  b->n = n;
}

static void tb_free(tbuf *b) {
  free(b->mem);
  b->mem = NULL;
}

static void fill_sentinel(char *m, size_t len) {
  for (size_t i = 0; i < len; i++) m[i] = (char)((i * 131 + 0x5B) ^ (i >> 7));
}

static void fill_sendgaps(char *m, size_t len) {
  for (size_t i = 0; i < len; i++) m[i] = (char)(i * 7 + 0x3C);
}

/* Input data: a packed stream of `bytes` bytes, as values of kind bk, a function
 * of (seed, owner, block). Doubles are integer-valued and small, so every
 * summation order gives the exact same result (bit-exact comparison). */
static char *gen_stream(size_t bytes, int bk, unsigned seed, int owner, int blk) {
  char *out = mg_test_malloc(bytes);
  uint64_t key = mix64(((uint64_t)seed << 32) ^ ((uint64_t)(unsigned)owner << 16) ^ (uint64_t)(unsigned)blk);
  size_t w = (size_t)bk_bytes[bk], nb = bytes / w;
  for (size_t i = 0; i < nb; i++) {
    uint64_t h = mix64(key + i);
    switch (bk) {
    case BK_INT: {
      int v = (int)(h % 2001) - 1000;
      memcpy(out + i * w, &v, w);
      break;
    }
    case BK_DOUBLE: {
      double v = (double)((int)(h % 2001) - 1000);
      memcpy(out + i * w, &v, w);
      break;
    }
    case BK_U32: { /* odd multipliers keep affine compositions informative */
      unsigned v = (unsigned)h | (unsigned)(i % 2 == 0);
      memcpy(out + i * w, &v, w);
      break;
    }
    case BK_I8: case BK_I16: /* small: no sum of p <= 8 overflows (Open MPI saturates narrow signed sums) */
    case BK_I64: case BK_U64: { /* any bits; a quarter of the values zero (logical ops) */
      int64_t v = (h >> 62) == 0 ? 0 : bk == BK_I8 || bk == BK_I16 ? (int64_t)(h % 31) - 15 : (int64_t)h;
      memcpy(out + i * w, &v, w); /* the low bytes (little-endian, as the test's hosts) */
      break;
    }
    case BK_DINT: { /* few values and indices: ties in both, where MINLOC/MAXLOC take the least index */
      double v = (double)(h % 7);
      int ix = (int)((h >> 32) % 5);
      memcpy(out + i * w, &v, sizeof v);
      memcpy(out + i * w + sizeof v, &ix, sizeof ix);
      break;
    }
    case BK_2INT: {
      int v[2] = {(int)(h % 7), (int)((h >> 32) % 5)};
      memcpy(out + i * w, v, sizeof v);
      break;
    }
    default: out[i] = (char)h; break;
    }
  }
  return out;
}

/* Write `count` elements of type t from a packed stream at address `origin` (only the typed
 * bytes are written, gaps keep their pattern). */
static void put_at(char *origin, const ttype *t, size_t count, const char *stream) {
  int pos = 0;
  if (!count) return;
  TEST_MPI(MPI_Unpack(stream, (int)(count * (size_t)t->size), &pos, origin, (int)count, t->dt, MPI_COMM_SELF));
}

/* Write `count` elements from a packed stream into b starting at element `at`. */
static void put(tbuf *b, size_t at, size_t count, const char *stream) {
  put_at(b->org + (MPI_Aint)at * b->t->extent, b->t, count, stream);
}

/* ------------------------------------------------------------------ one call */

typedef struct tcase {
  int coll;
  const tcomm *cm;
  int vc;        /* view config (data movement) or reduction combination */
  int n;         /* units per block (data movement), elements (reductions; per block for rsb) */
  int root;      /* intracommunicator root */
  int ip;        /* MPI_IN_PLACE (at the root for rooted collectives) */
  int nonroot;   /* root-only arguments at non-roots: 0 real buffers, 1 NULL/0, 2 NULL/other type,
                    3 NULL/-1/MPI_DATATYPE_NULL (run_insignificant) */
  int junk;      /* arguments ignored because of MPI_IN_PLACE: 0 zero/NULL type, 1 other values,
                    2 -1/MPI_DATATYPE_NULL (run_insignificant) */
  int iroot;     /* intercommunicator: the root is in group 0 (even ranks) or 1 */
  unsigned seed; /* input data: different in every case, equal for every algorithm */
  int adj;       /* send and receive data back to back for the call under test: 0 no, 1 receive
                    first, 2 send first (adjacent_call) */
  int rsc;       /* reduce_scatter, allgatherv, gatherv, scatterv: the counts pattern (RS_*,
                    rs_count()); alltoallv/w: the count matrix pattern (AP_*, a2a_count()) */
  int dsp;       /* allgatherv and the irregular collectives: the displacement pattern (DP_*) */
  int zb;        /* an empty message whose sides count it differently (setup_zero, ZB_*); 0: no */
} tcase;

typedef struct targs {
  MPI_Comm comm;
  const void *sbuf;
  int sinplace, scount;
  MPI_Datatype stype;
  int has_r, rinplace, rcount;
  MPI_Datatype rtype;
  MPI_Op op;
  int root;
  int *rcounts; /* reduce_scatter, allgatherv: recvcounts, one per rank of the (local; allgatherv on
                   an intercommunicator: remote) group */
  int *rdispls; /* allgatherv, gatherv, alltoallv: displs, in elements of rtype from the address passed
                   as recvbuf (alltoallw: in bytes) */
  MPI_Aint rbase; /* allgatherv, irregular collectives: recvbuf is this many bytes past the receive
                     buffer's org */
  int *scounts, *sdispls; /* scatterv, alltoallv/w: the send side's counts and displs */
  MPI_Aint sbase;         /* sendbuf is this many bytes past the send buffer's org */
  MPI_Datatype *stypes, *rtypes; /* alltoallw: one type per peer and side */
  tbuf S;    /* send buffer (mem NULL if none) */
  char *S0;  /* its pristine copy */
  tbuf R[2]; /* receive buffers: [0] through libmpiguide, [1] reference */
  tbuf I;    /* initial image of the receive buffer (sentinel + in-place input) */
  tbuf E;    /* expected image computed by the test itself (the oracle), if has_E */
  int has_E;
  const char *noref; /* why the reference call is skipped (a known MPI library bug), or NULL */
  size_t cmp_len;
  size_t undef_at, undef_n; /* receive elements the standard leaves undefined (normalise_undef) */
  int untouched; /* receive buffer must keep the sentinel (non-root gather/reduce) */
  int empty;     /* message size 0 on every rank */
  int want_err;  /* erroneous call: both must fail with one error class */
  int alias;     /* erroneous call: the send buffer is the receive buffer */
  char desc[320];
} targs;

static void targs_free(targs *a) {
  tb_free(&a->S);
  free(a->S0);
  for (int k = 0; k < 2; k++) tb_free(&a->R[k]);
  tb_free(&a->I);
  tb_free(&a->E);
  free(a->rcounts);
  free(a->rdispls);
  free(a->scounts);
  free(a->sdispls);
  free(a->stypes);
  free(a->rtypes);
  memset(a, 0, sizeof *a);
}

/* Allocate the send buffer (gap pattern) and receive buffers (sentinel). */
static void mk_send(targs *a, const ttype *t, size_t n) {
  tb_make(&a->S, t, n);
  fill_sendgaps(a->S.mem, a->S.len);
  a->sbuf = a->S.org;
}

static void mk_recv(targs *a, const ttype *t, size_t n) {
  tb_make(&a->I, t, n);
  fill_sentinel(a->I.mem, a->I.len);
  for (int k = 0; k < 2; k++) tb_make(&a->R[k], t, n);
  a->has_r = 1;
  a->cmp_len = a->I.len;
}

static void finish_send(targs *a) {
  if (!a->S.mem) return;
  a->S0 = mg_test_malloc(a->S.len);
  memcpy(a->S0, a->S.mem, a->S.len);
}

#define CALL(ref, f, ...) ((ref) ? P##f(__VA_ARGS__) : f(__VA_ARGS__))

static int do_call(int ref, int coll, const targs *a, tbuf *R) {
  const void *sb = a->sinplace ? MPI_IN_PLACE : a->sbuf;
  void *rb = a->rinplace ? MPI_IN_PLACE : a->has_r ? (void *)R->org : NULL;
  if (a->alias) sb = rb;
  MPI_Comm c = a->comm;
  /* the irregular collectives: the buffer arguments may lie inside their allocations */
  const void *sbv = sb && sb != MPI_IN_PLACE ? (const char *)sb + a->sbase : sb;
  void *rbv = rb && rb != MPI_IN_PLACE ? (char *)rb + a->rbase : rb;
  switch (coll) {
  case MG_ALLGATHER: return CALL(ref, MPI_Allgather, sb, a->scount, a->stype, rb, a->rcount, a->rtype, c);
  case MG_ALLGATHERV:
    return CALL(ref, MPI_Allgatherv, sb, a->scount, a->stype, rb ? (char *)rb + a->rbase : rb, a->rcounts,
                a->rdispls, a->rtype, c);
  case MG_ALLREDUCE: return CALL(ref, MPI_Allreduce, sb, rb, a->rcount, a->rtype, a->op, c);
  case MG_ALLTOALL: return CALL(ref, MPI_Alltoall, sb, a->scount, a->stype, rb, a->rcount, a->rtype, c);
  case MG_ALLTOALLV:
    return CALL(ref, MPI_Alltoallv, sbv, a->scounts, a->sdispls, a->stype, rbv, a->rcounts, a->rdispls, a->rtype,
                c);
  case MG_ALLTOALLW:
    return CALL(ref, MPI_Alltoallw, sbv, a->scounts, a->sdispls, a->stypes, rbv, a->rcounts, a->rdispls,
                a->rtypes, c);
  case MG_BCAST: return CALL(ref, MPI_Bcast, rb, a->rcount, a->rtype, a->root, c);
  case MG_EXSCAN: return CALL(ref, MPI_Exscan, sb, rb, a->rcount, a->rtype, a->op, c);
  case MG_GATHER: return CALL(ref, MPI_Gather, sb, a->scount, a->stype, rb, a->rcount, a->rtype, a->root, c);
  case MG_GATHERV:
    return CALL(ref, MPI_Gatherv, sb, a->scount, a->stype, rbv, a->rcounts, a->rdispls, a->rtype, a->root, c);
  case MG_REDUCE: return CALL(ref, MPI_Reduce, sb, rb, a->rcount, a->rtype, a->op, a->root, c);
  case MG_REDUCE_SCATTER: return CALL(ref, MPI_Reduce_scatter, sb, rb, a->rcounts, a->rtype, a->op, c);
  case MG_REDUCE_SCATTER_BLOCK:
    return CALL(ref, MPI_Reduce_scatter_block, sb, rb, a->rcount, a->rtype, a->op, c);
  case MG_SCAN: return CALL(ref, MPI_Scan, sb, rb, a->rcount, a->rtype, a->op, c);
  case MG_SCATTER:
    return CALL(ref, MPI_Scatter, sb, a->scount, a->stype, rb, a->rcount, a->rtype, a->root, c);
  case MG_SCATTERV:
    return CALL(ref, MPI_Scatterv, sbv, a->scounts, a->sdispls, a->stype, rb, a->rcount, a->rtype, a->root, c);
  default: return MPI_ERR_OTHER;
  }
}

/* ------------------------------------------------------------------ case setup */

static const char *nonroot_name[4] = {"real buffers", "NULL/0", "NULL/other type", "NULL/-1/MPI_DATATYPE_NULL"};

/* Ignored send-side (or receive-side) arguments with MPI_IN_PLACE: 0 and a type, other values, or
 * -1 and MPI_DATATYPE_NULL, which a library must reject where they are significant. */
static void junk_args(int junk, int *count, MPI_Datatype *dt) {
  *count = junk == 2 ? -1 : junk ? 3 : 0;
  *dt = junk == 2 ? MPI_DATATYPE_NULL : junk ? MPI_DOUBLE : MPI_INT;
}

/* How a case passes MPI_IN_PLACE, for its description. */
static const char *ip_name(const tcase *tc) {
  return !tc->ip ? "" : tc->junk == 2 ? " MPI_IN_PLACE(ignored args -1/MPI_DATATYPE_NULL)" : " MPI_IN_PLACE";
}

/* Data-movement collective on an intracommunicator. */
static void setup_dm(const tcase *tc, targs *a) {
  const tcomm *cm = tc->cm;
  int p = cm->size, r = cm->rank, n = tc->n, ms, mr, isroot = r == tc->root;
  const ttype *ts = vtype(tc->vc, r, 0, &ms), *tr = vtype(tc->vc, r, 1, &mr);
  size_t ub = (size_t)fams[vcs[tc->vc].fam].unit_bytes * (size_t)n;
  unsigned seed = tc->seed;
  char *st;
  a->root = tc->root;
  switch (tc->coll) {
  case MG_ALLGATHER:
    mk_recv(a, tr, (size_t)p * n * mr);
    a->rcount = n * mr;
    a->rtype = tr->dt;
    st = gen_stream(ub, BK_RAW, seed, r, 0);
    if (tc->ip) {
      a->sinplace = 1;
      junk_args(tc->junk, &a->scount, &a->stype);
      put(&a->I, (size_t)r * n * mr, (size_t)n * mr, st);
    } else {
      mk_send(a, ts, (size_t)n * ms);
      put(&a->S, 0, (size_t)n * ms, st);
      a->scount = n * ms;
      a->stype = ts->dt;
    }
    free(st);
    break;
  case MG_ALLTOALL:
    mk_recv(a, tr, (size_t)p * n * mr);
    a->rcount = n * mr;
    a->rtype = tr->dt;
    if (tc->ip) {
      a->sinplace = 1;
      junk_args(tc->junk, &a->scount, &a->stype);
    } else {
      mk_send(a, ts, (size_t)p * n * ms);
      a->scount = n * ms;
      a->stype = ts->dt;
    }
    for (int j = 0; j < p; j++) {
      st = gen_stream(ub, BK_RAW, seed, r, j);
      if (tc->ip)
        put(&a->I, (size_t)j * n * mr, (size_t)n * mr, st);
      else
        put(&a->S, (size_t)j * n * ms, (size_t)n * ms, st);
      free(st);
    }
    break;
  case MG_BCAST:
    mk_recv(a, ts, (size_t)n * ms);
    a->rcount = n * ms;
    a->rtype = ts->dt;
    tr = ts;
    mr = ms;
    if (isroot) {
      st = gen_stream(ub, BK_RAW, seed, r, 0);
      put(&a->I, 0, (size_t)n * ms, st);
      free(st);
    }
    break;
  case MG_GATHER:
    if (isroot && tc->ip) {
      a->sinplace = 1;
      junk_args(tc->junk, &a->scount, &a->stype);
    } else {
      mk_send(a, ts, (size_t)n * ms);
      a->scount = n * ms;
      a->stype = ts->dt;
    }
    st = gen_stream(ub, BK_RAW, seed, r, 0);
    if (a->S.mem) put(&a->S, 0, (size_t)n * ms, st);
    if (isroot || tc->nonroot == 0) {
      mk_recv(a, tr, (size_t)p * n * mr);
      a->rcount = n * mr;
      a->rtype = tr->dt;
      a->untouched = !isroot;
      if (isroot && tc->ip) put(&a->I, (size_t)r * n * mr, (size_t)n * mr, st);
    } else if (tc->nonroot == 1) {
      a->rcount = 0;
      a->rtype = tr->dt;
    } else if (tc->nonroot == 2) {
      a->rcount = 5;
      a->rtype = MPI_BYTE;
    } else {
      a->rcount = -1;
      a->rtype = MPI_DATATYPE_NULL;
    }
    free(st);
    break;
  case MG_SCATTER:
    if (isroot || tc->nonroot == 0) {
      mk_send(a, ts, (size_t)p * n * ms);
      a->scount = n * ms;
      a->stype = ts->dt;
      for (int j = 0; j < p; j++) {
        st = gen_stream(ub, BK_RAW, seed, isroot ? r : 1000 + r, j); /* at non-roots: never read */
        put(&a->S, (size_t)j * n * ms, (size_t)n * ms, st);
        free(st);
      }
    } else if (tc->nonroot == 1) {
      a->scount = 0;
      a->stype = ts->dt;
    } else if (tc->nonroot == 2) {
      a->scount = 7;
      a->stype = MPI_BYTE;
    } else {
      a->scount = -1;
      a->stype = MPI_DATATYPE_NULL;
    }
    if (isroot && tc->ip) {
      a->rinplace = 1;
      junk_args(tc->junk, &a->rcount, &a->rtype);
    } else {
      mk_recv(a, tr, (size_t)n * mr);
      a->rcount = n * mr;
      a->rtype = tr->dt;
    }
    break;
  }
  char rootbuf[64] = "";
  int nr = tc->coll != MG_BCAST && tc->nonroot;
  if (mg_colls[tc->coll].rooted)
    snprintf(rootbuf, sizeof rootbuf, " root=%d%s%s", tc->root, nr ? " nonroot-args=" : "",
             nr ? nonroot_name[tc->nonroot] : "");
  snprintf(a->desc, sizeof a->desc, "comm=%s family=%s%s n=%d%s%s [this rank: send %s x%d, recv %s x%d]",
           cm->name, fams[vcs[tc->vc].fam].name, vcs[tc->vc].view == MIX ? "/mixed" : "", n, rootbuf,
           ip_name(tc), ts->name, n * ms, tr->name, n * mr);
  a->empty = n == 0;
}

/*
 * reduce_scatter's recvcounts: a function of (pattern, n, p, rank j) only, so every rank
 * passes the same vector. RS_UNIFORM at n = 0 is the all-zero (empty) call, as is
 * RS_ZERO_EVEN on a one-rank communicator. RS_SKEW (block j grows as j^2, rank 6 holds 37 times
 * rank 0's) only for gatherv and scatterv (RS_NV patterns), whose blocks are each rank's own.
 */
enum { RS_UNIFORM, RS_RAMP, RS_ZERO_ODD, RS_ZERO_EVEN, RS_ONE, RS_N, RS_SKEW = RS_N, RS_NV };
static const char *rs_names[RS_NV] = {"uniform", "non-uniform", "zeros-on-odd-ranks", "zeros-on-even-ranks",
                                      "all-on-one-rank", "skewed(n(1+j^2))"};

static int rs_count(int pat, int n, int p, int j) {
  switch (pat) {
  case RS_RAMP: return n + (j * 5) % 7;
  case RS_ZERO_ODD: return j % 2 ? 0 : n + j;
  case RS_ZERO_EVEN: return j % 2 ? 2 * n + 1 : 0;
  case RS_ONE: return j == p / 2 ? n * p + 1 : 0;
  case RS_SKEW: return n * (1 + j * j);
  default: return n;
  }
}

/*
 * alltoallv/w: the units rank i sends to rank j (= the units j receives from i), a function of
 * (pattern, n, p, i, j) only, so every rank's sendcounts agree with the others' recvcounts. Rows
 * are asymmetric (c(i,j) != c(j,i)) except for MPI_IN_PLACE, where the standard requires what i
 * sends to j to equal what it receives from j: `sym` evaluates the pattern at (max, min). Every
 * pattern but AP_UNIFORM gives ranks very different amounts; AP_UNIFORM at n = 0 is the all-zero
 * call.
 *  - AP_RAMP: n + (5i + 3j) mod 7;
 *  - AP_ZERO_ODD: odd ranks send nothing (and receive), even ranks send n + j to rank j;
 *  - AP_LOWER: rank i sends (i - j + 1) n units to every j <= i, nothing above: rank p-1 sends
 *    the most, rank 0 only to itself (with sym: every pair, growing with the distance);
 *  - AP_ONE: rank p/2 sends 2n + j to every j, receives n + 1 from every rank; nothing else.
 */
enum { AP_UNIFORM, AP_RAMP, AP_ZERO_ODD, AP_LOWER, AP_ONE, AP_N };
static const char *ap_names[AP_N] = {"uniform", "asymmetric-ramp", "odd-ranks-send-nothing",
                                     "lower-triangular", "one-rank-to-all-and-all-to-one"};

static int a2a_count(int pat, int n, int p, int i, int j, int sym) {
  if (sym && i < j) {
    int t = i;
    i = j;
    j = t;
  }
  switch (pat) {
  case AP_RAMP: return n + (5 * i + 3 * j) % 7;
  case AP_ZERO_ODD: return i % 2 ? 0 : n + j;
  case AP_LOWER: return j <= i ? n * (i - j + 1) : 0;
  case AP_ONE: return i == p / 2 ? 2 * n + j : j == p / 2 ? n + 1 : 0;
  default: return n;
  }
}

static int is_a2av(int coll) { return coll == MG_ALLTOALLV || coll == MG_ALLTOALLW; }
static int is_v(int coll) { return coll == MG_GATHERV || coll == MG_SCATTERV || is_a2av(coll); }
/* The number of counts patterns of a collective's sweep (run_vpatterns). */
static int npat(int coll) { return is_a2av(coll) ? AP_N : is_v(coll) ? RS_NV : RS_N; }

/*
 * allgatherv's receive layout: where each rank's block lies in the receive allocation, in units
 * of the datatype family (with mixed views a unit is `mult` elements of this rank's receive type),
 * a function of (recvcounts pattern, displacement pattern, n, p, this rank) only. Every block lies
 * inside the allocation; the gaps between blocks (and one unit after the last) keep the sentinel.
 *  - DP_CONTIG: rank order, back to back (the allgather layout);
 *  - DP_REVERSED: blocks in reverse rank order, back to back;
 *  - DP_GAPS: rank order, a gap of 1 or 2 units before every block;
 *  - DP_SHUFFLED: odd ranks first (descending), then even ranks (ascending), gaps of 0-2 units,
 *    and recvbuf at the block placed in the middle: the blocks before it have negative displs;
 *  - DP_PER_RANK: rank r uses pattern (r + 1) % DP_PER_RANK: displs is significant only for the
 *    rank's own buffer, so the ranks' layouts need not agree (only the signatures must).
 */
enum { DP_CONTIG, DP_REVERSED, DP_GAPS, DP_SHUFFLED, DP_PER_RANK, DP_N };
static const char *dp_names[DP_N] = {"rank-order", "reversed", "rank-order-with-gaps",
                                     "odd-ranks-first-with-gaps(negative)", "different-on-each-rank"};

typedef struct agv_layout {
  int pat;          /* the pattern this rank uses (DP_PER_RANK resolved) */
  int *cu;          /* block units per rank */
  long *at;         /* rank j's block starts at unit at[j] of the allocation */
  long alloc, base; /* allocation units; recvbuf at unit base, so displs[j] = at[j] - base */
  long total;       /* the sum of cu: 0 is an empty call */
} agv_layout;

/* Place p blocks of sz[j] slots in the order and with the gaps (in `gap` slots) of pattern `pat`
 * (resolved): block j at slot at[j]; the buffer argument at slot *base; *alloc slots in all. */
static void lay_place(int pat, const long *sz, long gap, int p, long *at, long *base, long *alloc) {
  int nodd = p / 2;
  long pos = 0;
  *base = 0;
  for (int k = 0; k < p; k++) { /* k-th block in memory is rank j's */
    int j = pat == DP_REVERSED ? p - 1 - k
            : pat != DP_SHUFFLED ? k
            : k < nodd ? 2 * (nodd - k) - 1
                       : 2 * (k - nodd);
    pos += gap * (pat == DP_GAPS ? 1 + j % 2 : pat == DP_SHUFFLED ? j % 3 : 0);
    at[j] = pos;
    if (pat == DP_SHUFFLED && k == p / 2) *base = pos;
    pos += sz[j];
  }
  *alloc = pos + (pat == DP_GAPS || pat == DP_SHUFFLED ? gap : 0);
}

static int dp_resolve(int dsp, int rank) { return dsp == DP_PER_RANK ? (rank + 1) % DP_PER_RANK : dsp; }

static void agv_make(agv_layout *L, int rsc, int dsp, int n, int p, int rank) {
  L->pat = dp_resolve(dsp, rank);
  L->cu = mg_test_malloc((size_t)p * sizeof *L->cu);
  L->at = mg_test_malloc((size_t)p * sizeof *L->at);
  long *sz = mg_test_malloc((size_t)p * sizeof *sz);
  L->total = 0;
  for (int j = 0; j < p; j++) L->total += sz[j] = L->cu[j] = rs_count(rsc, n, p, j);
  lay_place(L->pat, sz, 1, p, L->at, &L->base, &L->alloc);
  free(sz);
}

static void agv_free(agv_layout *L) {
  free(L->cu);
  free(L->at);
}

/* Fill recvcounts, displs and the recvbuf offset from a layout, at `mult` elements of t per unit. */
static void agv_args(targs *a, const agv_layout *L, int p, int mult, const ttype *t) {
  a->rcounts = mg_test_malloc((size_t)p * sizeof *a->rcounts);
  a->rdispls = mg_test_malloc((size_t)p * sizeof *a->rdispls);
  for (int j = 0; j < p; j++) {
    a->rcounts[j] = L->cu[j] * mult;
    a->rdispls[j] = (int)((L->at[j] - L->base) * mult);
  }
  a->rbase = (MPI_Aint)L->base * mult * t->extent;
}

/* Allgatherv on an intracommunicator: rank j's block is rs_count(j) units, gen_stream(j, 0),
 * sent in its send view and received where this rank's layout puts it. */
static void setup_agv(const tcase *tc, targs *a) {
  const tcomm *cm = tc->cm;
  int p = cm->size, r = cm->rank, ms, mr;
  const ttype *ts = vtype(tc->vc, r, 0, &ms), *tr = vtype(tc->vc, r, 1, &mr);
  size_t ub = (size_t)fams[vcs[tc->vc].fam].unit_bytes;
  agv_layout L;
  agv_make(&L, tc->rsc, tc->dsp, tc->n, p, r);
  size_t mine = (size_t)L.cu[r];
  mk_recv(a, tr, (size_t)L.alloc * (size_t)mr);
  a->rtype = tr->dt;
  agv_args(a, &L, p, mr, tr);
  a->rcount = a->rcounts[r];
  char *st = gen_stream(mine * ub, BK_RAW, tc->seed, r, 0);
  if (tc->ip) { /* this rank's block is already in recvbuf, at displs[rank] */
    a->sinplace = 1;
    junk_args(tc->junk, &a->scount, &a->stype);
    put(&a->I, (size_t)L.at[r] * mr, mine * mr, st);
  } else {
    mk_send(a, ts, mine * ms);
    put(&a->S, 0, mine * ms, st);
    a->scount = (int)mine * ms;
    a->stype = ts->dt;
  }
  free(st);
  char here[48] = "";
  if (tc->dsp == DP_PER_RANK) snprintf(here, sizeof here, "(here %s)", dp_names[L.pat]);
  snprintf(a->desc, sizeof a->desc,
           "comm=%s family=%s%s recvcounts=%s(n=%d; this rank %zu of %ld units) displs=%s%s%s [this rank: "
           "send %s x%d, recv %s, own block at displ %d]",
           cm->name, fams[vcs[tc->vc].fam].name, vcs[tc->vc].view == MIX ? "/mixed" : "", rs_names[tc->rsc],
           tc->n, mine, L.total, dp_names[tc->dsp], here, ip_name(tc), ts->name,
           (int)mine * ms, tr->name, a->rdispls[r]);
  a->empty = L.total == 0;
  agv_free(&L);
}

static void expect_begin(targs *a);

/*
 * One side of an irregular call (gatherv's receive side at the root, scatterv's send side there,
 * either side of alltoallv/w) on this rank: where the block of each of np peers lies in the
 * allocation, placed by displacement pattern `dsp` resolved for `lrank` (DP_PER_RANK: another
 * layout on every rank, and on the two sides of one rank). Blocks keep the sentinel (receive) or
 * the gap pattern (send) between them.
 *  - v (one datatype, displacements in its extents): slots are units of the family (`mult`
 *    elements of this rank's view), gaps of 1-2 units;
 *  - w (alltoallw: a datatype per peer and side, the view (rank + peer + side) % nv for mixed
 *    configurations; displacements in bytes): slots are bytes, each block spans the true extent
 *    of its elements, gaps of 8-16 bytes, so displacements are not multiples of any extent.
 */
typedef struct vblocks {
  int np, pat;
  int *cnt, *dsp;   /* the call's counts (elements of the block's type) and displs (w: bytes) */
  MPI_Datatype *dt; /* w: the call's datatype array; else NULL */
  const ttype **t;  /* each block's type */
  MPI_Aint *off;    /* block j's element 0 is at org + off[j] */
  MPI_Aint base;    /* the buffer argument is org + base */
  const ttype *bt;  /* the allocation's type (w: MPI_CHAR) */
  size_t alloc;     /* the allocation, in elements of bt */
} vblocks;

static void vb_make(vblocks *B, int w, int vc, int rank, int side, const int *cu, int np, int dsp, int lrank) {
  const family *f = &fams[vcs[vc].fam];
  size_t n = (size_t)(np > 0 ? np : 1);
  long *sz = mg_test_calloc(n, sizeof *sz), *at = mg_test_calloc(n, sizeof *at), base, alloc;
  int *mult = mg_test_calloc(n, sizeof *mult);
  B->np = np;
  B->pat = dp_resolve(dsp, lrank);
  B->cnt = mg_test_calloc(n, sizeof *B->cnt);
  B->dsp = mg_test_calloc(n, sizeof *B->dsp);
  B->dt = w ? mg_test_calloc(n, sizeof *B->dt) : NULL;
  B->t = mg_test_calloc(n, sizeof *B->t);
  B->off = mg_test_calloc(n, sizeof *B->off);
  for (int j = 0; j < np; j++) {
    int v = vcs[vc].view != MIX ? vcs[vc].view : (rank + side + (w ? j : 0)) % f->nv;
    B->t[j] = &types[f->t[v]];
    mult[j] = f->mult[v];
    B->cnt[j] = cu[j] * mult[j];
    sz[j] = w ? (long)span(B->t[j], (size_t)B->cnt[j]) : cu[j];
  }
  lay_place(B->pat, sz, w ? 8 : 1, np, at, &base, &alloc);
  if (w) {
    B->bt = &types[T_CHAR];
    B->alloc = (size_t)alloc;
    B->base = base;
    for (int j = 0; j < np; j++) {
      B->off[j] = at[j] - B->t[j]->tlb; /* the block's typed data starts at slot at[j] */
      B->dsp[j] = (int)(B->off[j] - base);
      B->dt[j] = B->t[j]->dt;
    }
  } else {
    const ttype *t = B->t[0];
    int m = mult[0];
    B->bt = t;
    B->alloc = (size_t)alloc * (size_t)m;
    B->base = (MPI_Aint)base * m * t->extent;
    for (int j = 0; j < np; j++) {
      B->off[j] = (MPI_Aint)at[j] * m * t->extent;
      B->dsp[j] = (int)((at[j] - base) * m);
    }
  }
  free(sz);
  free(at);
  free(mult);
}

static void vb_free(vblocks *B) {
  free(B->cnt);
  free(B->dsp);
  free(B->dt);
  free(B->t);
  free(B->off);
  memset(B, 0, sizeof *B);
}

static int *ints_dup(const int *v, int n) {
  int *d = mg_test_malloc((size_t)(n > 0 ? n : 1) * sizeof *d);
  memcpy(d, v, (size_t)(n > 0 ? n : 0) * sizeof *d);
  return d;
}

static int *ints_fill(int n, int v) {
  int *d = mg_test_malloc((size_t)(n > 0 ? n : 1) * sizeof *d);
  for (int i = 0; i < n; i++) d[i] = v;
  return d;
}

static MPI_Datatype *types_fill(int n, MPI_Datatype t) {
  MPI_Datatype *d = mg_test_malloc((size_t)(n > 0 ? n : 1) * sizeof *d);
  for (int i = 0; i < n; i++) d[i] = t;
  return d;
}

/* The receive (recv = 1) or send buffer and arguments of a call from B. */
static void vb_side(targs *a, const vblocks *B, int recv) {
  (recv ? mk_recv : mk_send)(a, B->bt, B->alloc);
  int *cnt = ints_dup(B->cnt, B->np), *dsp = ints_dup(B->dsp, B->np);
  MPI_Datatype *dt = NULL;
  if (B->dt) {
    dt = mg_test_malloc((size_t)(B->np > 0 ? B->np : 1) * sizeof *dt);
    memcpy(dt, B->dt, (size_t)B->np * sizeof *dt);
  }
  if (recv) {
    a->rcounts = cnt, a->rdispls = dsp, a->rbase = B->base, a->rtypes = dt;
    if (!dt) a->rtype = B->t[0]->dt;
  } else {
    a->scounts = cnt, a->sdispls = dsp, a->sbase = B->base, a->stypes = dt;
    if (!dt) a->stype = B->t[0]->dt;
  }
}
static void vb_recv(targs *a, const vblocks *B) { vb_side(a, B, 1); }
static void vb_send(targs *a, const vblocks *B) { vb_side(a, B, 0); }

/* Block j of B, in b, gets the stream gen_stream(its bytes, seed, owner, blk). */
static void vb_put(tbuf *b, const vblocks *B, int j, unsigned seed, int owner, int blk) {
  size_t bytes = (size_t)B->cnt[j] * (size_t)B->t[j]->size;
  char *st = gen_stream(bytes, BK_RAW, seed, owner, blk);
  put_at(b->org + B->off[j], B->t[j], (size_t)B->cnt[j], st);
  free(st);
}

/* gatherv and scatterv: rank j's block, rs_count() units. */
static int *v_units(const tcase *tc, int p, long *total) {
  int *cu = mg_test_calloc((size_t)p, sizeof *cu);
  *total = 0;
  for (int j = 0; j < p; j++) *total += cu[j] = rs_count(tc->rsc, tc->n, p, j);
  return cu;
}

/*
 * Gatherv on an intracommunicator: rank j sends its block, rs_count(j) units of gen_stream(j, 0),
 * in its send view; the root receives it where its layout puts it. With MPI_IN_PLACE the root's
 * block is already in recvbuf at displs[root]. Non-roots pass real receive arguments (which must
 * stay untouched), NULL ones, or junk (tc->nonroot).
 */
static void setup_gv(const tcase *tc, targs *a) {
  const tcomm *cm = tc->cm;
  int p = cm->size, r = cm->rank, ms, mr, isroot = r == tc->root;
  const ttype *ts = vtype(tc->vc, r, 0, &ms), *tr = vtype(tc->vc, r, 1, &mr);
  size_t ub = (size_t)fams[vcs[tc->vc].fam].unit_bytes;
  long total;
  int *cu = v_units(tc, p, &total);
  size_t mine = (size_t)cu[r];
  char *st = gen_stream(mine * ub, BK_RAW, tc->seed, r, 0);
  vblocks B = {0};
  a->root = tc->root;
  if (isroot && tc->ip) {
    a->sinplace = 1;
    junk_args(tc->junk, &a->scount, &a->stype);
  } else {
    mk_send(a, ts, mine * ms);
    put(&a->S, 0, mine * ms, st);
    a->scount = (int)mine * ms;
    a->stype = ts->dt;
  }
  if (isroot || tc->nonroot == 0) {
    vb_make(&B, 0, tc->vc, r, 1, cu, p, tc->dsp, r);
    vb_recv(a, &B);
    a->untouched = !isroot;
    if (isroot && tc->ip) put_at(a->I.org + B.off[r], tr, mine * mr, st);
    expect_begin(a);
    for (int j = 0; isroot && j < p; j++) vb_put(&a->E, &B, j, tc->seed, j, 0);
  } else if (tc->nonroot == 1) {
    a->rtype = tr->dt;
  } else if (tc->nonroot == 2) {
    a->rtype = MPI_BYTE;
    a->rcounts = ints_fill(p, 5);
    a->rdispls = ints_fill(p, 1);
  } else { /* counts -1, displs NULL */
    a->rtype = MPI_DATATYPE_NULL;
    a->rcounts = ints_fill(p, -1);
  }
  free(st);
  char lay[48] = "";
  if (B.np) snprintf(lay, sizeof lay, "(here %s, own at %d)", dp_names[B.pat], B.dsp[r]);
  snprintf(a->desc, sizeof a->desc,
           "comm=%s family=%s%s recvcounts=%s(n=%d; this rank %zu of %ld units) displs=%s%s root=%d%s%s%s "
           "[this rank: send %s x%d, recv %s]",
           cm->name, fams[vcs[tc->vc].fam].name, vcs[tc->vc].view == MIX ? "/mixed" : "", rs_names[tc->rsc],
           tc->n, mine, total, dp_names[tc->dsp], lay, tc->root, tc->nonroot ? " nonroot-args=" : "",
           tc->nonroot ? nonroot_name[tc->nonroot] : "", ip_name(tc),
           isroot && tc->ip ? "-" : ts->name, isroot && tc->ip ? 0 : (int)mine * ms, tr->name);
  a->empty = total == 0;
  vb_free(&B);
  free(cu);
}

/* Scatterv on an intracommunicator: the root sends rank j rs_count(j) units of gen_stream(root, j)
 * from where its layout puts them; with MPI_IN_PLACE the root's own block stays in sendbuf. */
static void setup_sv(const tcase *tc, targs *a) {
  const tcomm *cm = tc->cm;
  int p = cm->size, r = cm->rank, ms, mr, isroot = r == tc->root;
  const ttype *ts = vtype(tc->vc, r, 0, &ms), *tr = vtype(tc->vc, r, 1, &mr);
  size_t ub = (size_t)fams[vcs[tc->vc].fam].unit_bytes;
  long total;
  int *cu = v_units(tc, p, &total);
  size_t mine = (size_t)cu[r];
  vblocks B = {0};
  a->root = tc->root;
  if (isroot || tc->nonroot == 0) {
    vb_make(&B, 0, tc->vc, r, 0, cu, p, tc->dsp, r);
    vb_send(a, &B);
    for (int j = 0; j < p; j++) /* at non-roots: never read */
      vb_put(&a->S, &B, j, tc->seed, isroot ? r : 1000 + r, j);
  } else if (tc->nonroot == 1) {
    a->stype = ts->dt;
  } else if (tc->nonroot == 2) {
    a->stype = MPI_BYTE;
    a->scounts = ints_fill(p, 7);
    a->sdispls = ints_fill(p, 2);
  } else { /* counts -1, displs NULL */
    a->stype = MPI_DATATYPE_NULL;
    a->scounts = ints_fill(p, -1);
  }
  if (isroot && tc->ip) {
    a->rinplace = 1;
    junk_args(tc->junk, &a->rcount, &a->rtype);
  } else {
    mk_recv(a, tr, mine * mr);
    a->rcount = (int)mine * mr;
    a->rtype = tr->dt;
    expect_begin(a);
    char *st = gen_stream(mine * ub, BK_RAW, tc->seed, tc->root, r);
    put(&a->E, 0, mine * mr, st);
    free(st);
  }
  char lay[48] = "";
  if (B.np) snprintf(lay, sizeof lay, "(here %s)", dp_names[B.pat]);
  snprintf(a->desc, sizeof a->desc,
           "comm=%s family=%s%s sendcounts=%s(n=%d; this rank %zu of %ld units) displs=%s%s root=%d%s%s%s "
           "[this rank: send %s, recv %s x%d]",
           cm->name, fams[vcs[tc->vc].fam].name, vcs[tc->vc].view == MIX ? "/mixed" : "", rs_names[tc->rsc],
           tc->n, mine, total, dp_names[tc->dsp], lay, tc->root, tc->nonroot ? " nonroot-args=" : "",
           tc->nonroot ? nonroot_name[tc->nonroot] : "", ip_name(tc), ts->name,
           isroot && tc->ip ? "-" : tr->name, isroot && tc->ip ? 0 : (int)mine * mr);
  a->empty = total == 0;
  vb_free(&B);
  free(cu);
}

/* The send side's displacement pattern of alltoallv/w, another than the receive side's: */
static int a2a_send_dsp(int dsp) { return dsp == DP_PER_RANK ? DP_PER_RANK : (dsp + 2) % DP_PER_RANK; }

/*
 * Alltoallv and alltoallw on an intracommunicator: rank i sends rank j a2a_count(i, j) units of
 * gen_stream(i, j); send and receive layouts differ (a2a_send_dsp). With MPI_IN_PLACE the counts
 * are symmetric, block j of recvbuf holds what goes to j and is replaced by what comes from j.
 */
static void setup_a2av(const tcase *tc, targs *a) {
  const tcomm *cm = tc->cm;
  int p = cm->size, r = cm->rank, w = tc->coll == MG_ALLTOALLW, sym = tc->ip;
  int *cs = mg_test_calloc((size_t)p, sizeof *cs), *cr = mg_test_calloc((size_t)p, sizeof *cr);
  long ts = 0, tr = 0, all = 0;
  for (int j = 0; j < p; j++) {
    ts += cs[j] = a2a_count(tc->rsc, tc->n, p, r, j, sym);
    tr += cr[j] = a2a_count(tc->rsc, tc->n, p, j, r, sym);
    for (int i = 0; i < p; i++) all += a2a_count(tc->rsc, tc->n, p, i, j, sym);
  }
  vblocks R = {0}, S = {0};
  vb_make(&R, w, tc->vc, r, 1, cr, p, tc->dsp, r);
  vb_recv(a, &R);
  if (tc->ip) {
    a->sinplace = 1;
    junk_args(tc->junk, &a->scount, &a->stype);
    if (tc->junk == 1) { /* ignored: values that would be wrong if read */
      a->scounts = ints_fill(p, 3);
      a->sdispls = ints_fill(p, 1);
      if (w) a->stypes = types_fill(p, MPI_DOUBLE);
    } else if (tc->junk == 2) { /* values MPI rejects where significant; displs NULL */
      a->scounts = ints_fill(p, -1);
      if (w) a->stypes = types_fill(p, MPI_DATATYPE_NULL);
    }
    for (int j = 0; j < p; j++) vb_put(&a->I, &R, j, tc->seed, r, j); /* what goes to j */
  } else {
    vb_make(&S, w, tc->vc, r, 0, cs, p, a2a_send_dsp(tc->dsp), r + 2);
    vb_send(a, &S);
    for (int j = 0; j < p; j++) vb_put(&a->S, &S, j, tc->seed, r, j);
  }
  expect_begin(a);
  for (int j = 0; j < p; j++) vb_put(&a->E, &R, j, tc->seed, j, r);
  char tyb[96];
  if (w)
    snprintf(tyb, sizeof tyb, "types per peer: recv from 0 %s", R.t[0]->name);
  else
    snprintf(tyb, sizeof tyb, "send %s, recv %s", S.np ? S.t[0]->name : "-", R.t[0]->name);
  snprintf(a->desc, sizeof a->desc,
           "comm=%s family=%s%s counts=%s(n=%d; this rank sends %ld, receives %ld of %ld units) displs=%s(here "
           "recv %s, send %s)%s [this rank: %s]",
           cm->name, fams[vcs[tc->vc].fam].name, vcs[tc->vc].view == MIX ? "/mixed" : "", ap_names[tc->rsc],
           tc->n, ts, tr, all, dp_names[tc->dsp], dp_names[R.pat], S.np ? dp_names[S.pat] : "-",
           tc->ip ? (tc->junk == 2   ? " MPI_IN_PLACE(send args -1/NULL/MPI_DATATYPE_NULL)"
                     : tc->junk ? " MPI_IN_PLACE(junk send args)"
                                : " MPI_IN_PLACE(NULL send args)")
                  : "",
           tyb);
  a->empty = all == 0;
  vb_free(&R);
  vb_free(&S);
  free(cs);
  free(cr);
}

/*
 * An empty message that the two sides count differently, as MPICH's coll/alltoallw_zeros does
 * (legal: both type signatures are empty). ZB_SEND_TYPE: the send side passes count 1 of an
 * empty datatype (contiguous(0, int)), the receive side count 0 of MPI_INT (every count of a v or
 * w call alike); ZB_RECV_TYPE: the other way round; ZB_MIXED (alltoallv/w, MPI_IN_PLACE with the
 * send arguments -1/NULL/MPI_DATATYPE_NULL): even ranks receive count 1 of the empty type, odd
 * ranks count 0 of MPI_INT. Bcast: the root has the send side. Nothing may be written anywhere,
 * and the call must not hang: a row that posts a receive for a non-zero count where the sender,
 * counting 0, sends nothing waits forever (Open MPI 4.1.4's MPI_Ialltoallv, docs/library.md).
 */
enum { ZB_NONE, ZB_SEND_TYPE, ZB_RECV_TYPE, ZB_MIXED };
static const char *zb_names[] = {"", "send 1 x empty type, receive 0 x MPI_INT",
                                 "send 0 x MPI_INT, receive 1 x empty type",
                                 "MPI_IN_PLACE, receive 1 x empty type (even ranks) or 0 x MPI_INT (odd)"};
static MPI_Datatype g_empty = MPI_DATATYPE_NULL; /* contiguous(0, MPI_INT), made in main */

static void setup_zero(const tcase *tc, targs *a) {
  const tcomm *cm = tc->cm;
  int p = cm->size, r = cm->rank, isroot = r == tc->root;
  int rempty = tc->zb == ZB_RECV_TYPE || (tc->zb == ZB_MIXED && r % 2 == 0);
  int sc = rempty ? 0 : 1, rc = rempty ? 1 : 0;
  MPI_Datatype st = rempty ? MPI_INT : g_empty, rt = rempty ? g_empty : MPI_INT;
  const ttype *ti = &types[T_INT];
  a->root = tc->root;
  mk_recv(a, ti, (size_t)p); /* the sentinel must stay */
  expect_begin(a);
  a->rcount = rc, a->rtype = rt;
  a->rcounts = ints_fill(p, rc), a->rdispls = ints_fill(p, 0);
  if (tc->coll == MG_ALLTOALLW) a->rtypes = types_fill(p, rt);
  if (tc->coll == MG_BCAST) { /* one count and type: the root's is the send side */
    a->rcount = isroot ? sc : rc;
    a->rtype = isroot ? st : rt;
  }
  if (tc->zb == ZB_MIXED) {
    a->sinplace = 1;
    junk_args(2, &a->scount, &a->stype);
    a->scounts = ints_fill(p, -1);
    if (tc->coll == MG_ALLTOALLW) a->stypes = types_fill(p, MPI_DATATYPE_NULL);
  } else {
    mk_send(a, ti, (size_t)p); /* never read */
    a->scount = sc, a->stype = st;
    a->scounts = ints_fill(p, sc), a->sdispls = ints_fill(p, 0);
    if (tc->coll == MG_ALLTOALLW) a->stypes = types_fill(p, st);
  }
  char rootbuf[16] = "";
  if (mg_colls[tc->coll].rooted) snprintf(rootbuf, sizeof rootbuf, " root=%d", tc->root);
  snprintf(a->desc, sizeof a->desc, "comm=%s empty message: %s%s", cm->name, zb_names[tc->zb], rootbuf);
  a->empty = 1;
}

#ifdef MPICH_VERSION
/* Whether every rank of the case's communicator has the same recvcount (reference_skip). */
static int rs_uniform(const tcase *tc) {
  int p = tc->cm->size;
  for (int j = 1; j < p; j++)
    if (rs_count(tc->rsc, tc->n, p, j) != rs_count(tc->rsc, tc->n, p, 0)) return 0;
  return 1;
}
#endif

/* A reduction's shape on an intracommunicator: the elements of every rank's input vector, of
 * this rank's result, and where in the reduced vector that result starts. */
static void red_layout(const tcase *tc, size_t *vec, size_t *mine, size_t *first) {
  int p = tc->cm->size, r = tc->cm->rank, n = tc->n;
  *vec = *mine = (size_t)n;
  *first = 0;
  if (tc->coll == MG_REDUCE_SCATTER_BLOCK) {
    *vec = (size_t)p * n;
    *first = (size_t)r * n;
  } else if (tc->coll == MG_REDUCE_SCATTER) {
    *vec = 0;
    for (int j = 0; j < p; j++) {
      size_t c = (size_t)rs_count(tc->rsc, n, p, j);
      if (j < r) *first += c;
      if (j == r) *mine = c;
      *vec += c;
    }
  }
}

/* Reduction on an intracommunicator. */
static void setup_red(const tcase *tc, targs *a) {
  const tcomm *cm = tc->cm;
  int p = cm->size, r = cm->rank, n = tc->n, isroot = r == tc->root;
  const ttype *t = &types[rcs[tc->vc].t];
  size_t vec, mine, first;
  red_layout(tc, &vec, &mine, &first);
  char *st = gen_stream(vec * (size_t)t->size, t->bk, tc->seed, r, 0);
  a->op = ops[rcs[tc->vc].op];
  a->root = tc->root;
  a->rcount = (int)mine; /* reduce_scatter: as the library's descriptor has it (recvcounts[rank]) */
  a->rtype = t->dt;
  a->scount = (int)mine;
  a->stype = t->dt;
  if (tc->coll == MG_REDUCE_SCATTER) {
    a->rcounts = mg_test_malloc((size_t)p * sizeof *a->rcounts);
    for (int j = 0; j < p; j++) a->rcounts[j] = rs_count(tc->rsc, n, p, j);
  }
  int inplace_here = tc->ip && (tc->coll != MG_REDUCE || isroot);
  if (inplace_here) {
    a->sinplace = 1;
  } else {
    mk_send(a, t, vec);
    put(&a->S, 0, vec, st);
  }
  switch (tc->coll) {
  case MG_REDUCE:
    if (isroot || tc->nonroot == 0) {
      mk_recv(a, t, (size_t)n);
      a->untouched = !isroot;
    }
    break;
  case MG_REDUCE_SCATTER:
  case MG_REDUCE_SCATTER_BLOCK:
    mk_recv(a, t, inplace_here ? vec : mine);
    /* with MPI_IN_PLACE the result is this rank's block at the start; the rest is undefined */
    if (inplace_here) {
      a->undef_at = mine;
      a->undef_n = vec - mine;
    }
    break;
  case MG_EXSCAN:
    mk_recv(a, t, (size_t)n);
    if (r == 0) a->undef_n = (size_t)n; /* rank 0's recvbuf is undefined, with MPI_IN_PLACE too */
    break;
  default: mk_recv(a, t, (size_t)n); break;
  }
  if (inplace_here) put(&a->I, 0, vec, st);
  free(st);
  int rooted = tc->coll == MG_REDUCE;
  char rootbuf[48] = "", nbuf[96];
  if (rooted)
    snprintf(rootbuf, sizeof rootbuf, " root=%d%s", tc->root, tc->nonroot ? " nonroot-recvbuf=NULL" : "");
  if (tc->coll == MG_REDUCE_SCATTER)
    snprintf(nbuf, sizeof nbuf, "recvcounts=%s(n=%d; this rank %zu of %zu)", rs_names[tc->rsc], n, mine, vec);
  else
    snprintf(nbuf, sizeof nbuf, "n=%d", n);
  snprintf(a->desc, sizeof a->desc, "comm=%s type=%s op=%s %s%s%s", cm->name, t->name,
           op_names[rcs[tc->vc].op], nbuf, rootbuf, tc->ip ? " MPI_IN_PLACE" : "");
  a->empty = vec == 0;
}

/* Any collective on the intercommunicator, MPI_INT (MPI_SUM for reductions). The
 * default must run; the result is still compared. */
static void setup_inter(const tcase *tc, targs *a) {
  const tcomm *cm = tc->cm;
  int n = tc->n, lsize = cm->size, rsize = cm->rsize, r = cm->rank;
  int id = (cm->low ? 0 : 1000) + r; /* owner id of streams: unique over both groups */
  const ttype *t = &types[T_INT];
  unsigned seed = tc->seed;
  int in_rootgrp = cm->low == (tc->iroot == 0);
  int bsize = cm->low ? rsize : lsize; /* size of the odd group */
  int rootlocal = tc->iroot == 0 ? 0 : bsize - 1;
  int isroot = in_rootgrp && r == rootlocal;
  char *st;
  a->root = in_rootgrp ? (isroot ? MPI_ROOT : MPI_PROC_NULL) : rootlocal;
  a->op = MPI_SUM;
  a->rtype = a->stype = MPI_INT;
  switch (tc->coll) {
  case MG_ALLGATHER:
  case MG_ALLTOALL: {
    int all = tc->coll == MG_ALLTOALL;
    mk_send(a, t, (size_t)n * (all ? rsize : 1));
    for (int j = 0; j < (all ? rsize : 1); j++) {
      st = gen_stream((size_t)n * 4, BK_RAW, seed, id, j);
      put(&a->S, (size_t)j * n, (size_t)n, st);
      free(st);
    }
    mk_recv(a, t, (size_t)n * rsize);
    a->scount = a->rcount = n;
    break;
  }
  case MG_ALLGATHERV: { /* block j of the receive buffer comes from remote rank j */
    agv_layout L;
    agv_make(&L, tc->rsc, tc->dsp, n, rsize, r);
    int mine = rs_count(tc->rsc, n, lsize, r); /* what the remote ranks' recvcounts say of this rank */
    mk_send(a, t, (size_t)mine);
    st = gen_stream((size_t)mine * 4, BK_RAW, seed, id, 0);
    put(&a->S, 0, (size_t)mine, st);
    free(st);
    a->scount = mine;
    mk_recv(a, t, (size_t)L.alloc);
    agv_args(a, &L, rsize, 1, t);
    agv_free(&L);
    break;
  }
  case MG_ALLREDUCE:
  case MG_EXSCAN:
  case MG_SCAN:
  case MG_REDUCE_SCATTER:
  case MG_REDUCE_SCATTER_BLOCK: {
    /* reduce_scatter(_block): both groups reduce vectors of n*|A|*|B| elements, n*|remote|
     * to each rank (recvcounts has one entry per rank of the local group) */
    int scatter = tc->coll == MG_REDUCE_SCATTER_BLOCK || tc->coll == MG_REDUCE_SCATTER;
    int rc = scatter ? n * rsize : n;
    size_t vec = scatter ? (size_t)rc * lsize : (size_t)n;
    if (tc->coll == MG_REDUCE_SCATTER) {
      a->rcounts = mg_test_malloc((size_t)lsize * sizeof *a->rcounts);
      for (int j = 0; j < lsize; j++) a->rcounts[j] = rc;
    }
    mk_send(a, t, vec);
    st = gen_stream(vec * 4, BK_INT, seed, id, 0);
    put(&a->S, 0, vec, st);
    free(st);
    mk_recv(a, t, (size_t)rc);
    a->scount = a->rcount = rc;
    /* MPI_Scan and MPI_Exscan are not defined on intercommunicators */
    a->want_err = tc->coll == MG_SCAN || tc->coll == MG_EXSCAN;
    break;
  }
  case MG_BCAST:
    mk_recv(a, t, (size_t)n);
    a->rcount = n;
    if (isroot) {
      st = gen_stream((size_t)n * 4, BK_RAW, seed, id, 0);
      put(&a->I, 0, (size_t)n, st);
      free(st);
    }
    break;
  case MG_GATHER:
  case MG_REDUCE:
    if (in_rootgrp) { /* the send side is not significant here, but MPICH rejects a NULL sendbuf */
      mk_send(a, t, (size_t)n);
      a->scount = n;
    }
    if (isroot) {
      mk_recv(a, t, (size_t)n * (tc->coll == MG_GATHER ? rsize : 1));
      a->rcount = n;
    } else if (!in_rootgrp) {
      mk_send(a, t, (size_t)n);
      st = gen_stream((size_t)n * 4, tc->coll == MG_GATHER ? BK_RAW : BK_INT, seed, id, 0);
      put(&a->S, 0, (size_t)n, st);
      free(st);
      a->scount = a->rcount = n;
    }
    break;
  case MG_SCATTER:
    if (isroot) {
      mk_send(a, t, (size_t)n * rsize);
      for (int j = 0; j < rsize; j++) {
        st = gen_stream((size_t)n * 4, BK_RAW, seed, id, j);
        put(&a->S, (size_t)j * n, (size_t)n, st);
        free(st);
      }
      a->scount = n;
    } else if (!in_rootgrp) {
      mk_recv(a, t, (size_t)n);
      a->rcount = n;
    }
    break;
  case MG_GATHERV:
  case MG_SCATTERV: { /* the root's block j is remote rank j's, rs_count(j) over the remote group */
    int gv = tc->coll == MG_GATHERV;
    if (gv && in_rootgrp) { /* as for gather: not significant, but MPICH rejects a NULL sendbuf */
      mk_send(a, t, (size_t)n);
      a->scount = n;
    }
    if (isroot) {
      int *cu = mg_test_calloc((size_t)rsize, sizeof *cu);
      for (int j = 0; j < rsize; j++) cu[j] = rs_count(tc->rsc, n, rsize, j);
      vblocks B;
      vb_make(&B, 0, VC_INT, r, gv, cu, rsize, tc->dsp, r);
      if (gv) {
        vb_recv(a, &B);
      } else {
        vb_send(a, &B);
        for (int j = 0; j < rsize; j++) vb_put(&a->S, &B, j, seed, id, j);
      }
      vb_free(&B);
      free(cu);
    } else if (!in_rootgrp) {
      int mine = rs_count(tc->rsc, n, lsize, r); /* what the remote root's counts say of this rank */
      if (gv) {
        mk_send(a, t, (size_t)mine);
        st = gen_stream((size_t)mine * 4, BK_RAW, seed, id, 0);
        put(&a->S, 0, (size_t)mine, st);
        free(st);
        a->scount = mine;
      } else {
        mk_recv(a, t, (size_t)mine);
        a->rcount = mine;
      }
    }
    break;
  }
  case MG_ALLTOALLV:
  case MG_ALLTOALLW: { /* the count matrix over both groups: even ranks first, then odd ones */
    int w = tc->coll == MG_ALLTOALLW, even = cm->low ? lsize : rsize, np = lsize + rsize;
    int me = cm->low ? r : even + r;
    int *cs = mg_test_calloc((size_t)rsize, sizeof *cs), *cr = mg_test_calloc((size_t)rsize, sizeof *cr);
    for (int j = 0; j < rsize; j++) {
      int other = cm->low ? even + j : j;
      cs[j] = a2a_count(tc->rsc, n, np, me, other, 0);
      cr[j] = a2a_count(tc->rsc, n, np, other, me, 0);
    }
    vblocks R, S;
    vb_make(&R, w, VC_INT, r, 1, cr, rsize, tc->dsp, r);
    vb_recv(a, &R);
    vb_make(&S, w, VC_INT, r, 0, cs, rsize, a2a_send_dsp(tc->dsp), r + 2);
    vb_send(a, &S);
    for (int j = 0; j < rsize; j++) vb_put(&a->S, &S, j, seed, id, j);
    vb_free(&R);
    vb_free(&S);
    free(cs);
    free(cr);
    break;
  }
  }
  snprintf(a->desc, sizeof a->desc, "comm=%s MPI_INT n=%d%s (this rank: group %s, root arg %d)", cm->name, n,
           mg_colls[tc->coll].rooted ? (tc->iroot ? " root in odd group" : " root in even group") : "",
           cm->low ? "even" : "odd", a->root);
  if (tc->coll == MG_ALLGATHERV || is_v(tc->coll))
    snprintf(a->desc + strlen(a->desc), sizeof a->desc - strlen(a->desc), " counts=%s displs=%s",
             is_a2av(tc->coll) ? ap_names[tc->rsc] : rs_names[tc->rsc], dp_names[tc->dsp]);
  a->empty = n == 0;
}

/* ------------------------------------------------------------------ the oracle */

/*
 * Every rank can regenerate every rank's input (gen_stream is a function of
 * seed, owner and block), so the test computes the exact expected receive image
 * itself: the initial image with the delivered data unpacked into it. This tells
 * a wrong mock-up from a wrong MPI library: a mock-up passes when it matches the
 * reference or the oracle, and a reference that differs from the oracle is
 * reported as an MPI library defect (not an mpiguide failure).
 */
static void expect_begin(targs *a) {
  tb_make(&a->E, a->I.t, a->I.n);
  memcpy(a->E.mem, a->I.mem, a->I.len);
  a->has_E = 1;
}

static void expect_dm(const tcase *tc, targs *a) {
  if (!a->has_r) return;
  int p = tc->cm->size, r = tc->cm->rank, rc = a->rcount;
  size_t ub = (size_t)fams[vcs[tc->vc].fam].unit_bytes * (size_t)tc->n;
  expect_begin(a);
  if (tc->coll == MG_GATHER && r != tc->root) return; /* untouched */
  int one = tc->coll == MG_BCAST || tc->coll == MG_SCATTER;
  for (int j = 0; j < (one ? 1 : p); j++) {
    /* block j of this rank's receive buffer comes from rank `owner`, its block `blk` */
    int owner = one ? tc->root : j;
    int blk = tc->coll == MG_ALLTOALL || tc->coll == MG_SCATTER ? r : 0;
    char *st = gen_stream(ub, BK_RAW, tc->seed, owner, blk);
    put(&a->E, (size_t)j * (size_t)rc, (size_t)rc, st);
    free(st);
  }
}

static void expect_agv(const tcase *tc, targs *a) {
  int p = tc->cm->size, r = tc->cm->rank, mr;
  size_t ub = (size_t)fams[vcs[tc->vc].fam].unit_bytes;
  agv_layout L;
  vtype(tc->vc, r, 1, &mr);
  agv_make(&L, tc->rsc, tc->dsp, tc->n, p, r);
  expect_begin(a);
  for (int j = 0; j < p; j++) {
    char *st = gen_stream((size_t)L.cu[j] * ub, BK_RAW, tc->seed, j, 0);
    put(&a->E, (size_t)L.at[j] * mr, (size_t)L.cu[j] * mr, st);
    free(st);
  }
  agv_free(&L);
}

/* An integer element of kind bk at p, widened (sign-extended for the signed kinds). */
static int int_kind(int bk, int *sgn) {
  *sgn = bk == BK_INT || bk == BK_I8 || bk == BK_I16 || bk == BK_I64;
  return *sgn || bk == BK_UCHAR || bk == BK_U32 || bk == BK_U64;
}

static uint64_t int_load(const char *p, int w, int sgn) {
  union {
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint8_t u8;
    uint16_t u16;
    uint32_t u32;
    uint64_t u64;
  } v;
  memcpy(&v, p, (size_t)w);
  switch (w) {
  case 1: return sgn ? (uint64_t)(int64_t)v.i8 : v.u8;
  case 2: return sgn ? (uint64_t)(int64_t)v.i16 : v.u16;
  case 4: return sgn ? (uint64_t)(int64_t)v.i32 : v.u32;
  default: return v.u64;
  }
}

/* The predefined ops on integers of any width, in 64-bit unsigned arithmetic truncated to the
 * width (SUM and PROD wrap as the libraries' loops do); MIN/MAX compare as the type does. */
static void oracle_int(int op, int bk, const char *in, char *inout, size_t bytes) {
  int sgn, w = bk_bytes[bk];
  int_kind(bk, &sgn);
  for (size_t i = 0; i + (size_t)w <= bytes; i += (size_t)w) {
    uint64_t x = int_load(in + i, w, sgn), y = int_load(inout + i, w, sgn), r;
    int lt = sgn ? (int64_t)x < (int64_t)y : x < y;
    switch (op) {
    case OP_SUM: r = x + y; break;
    case OP_PROD: r = x * y; break;
    case OP_MIN: r = lt ? x : y; break;
    case OP_MAX: r = lt ? y : x; break;
    case OP_LAND: r = x && y; break;
    case OP_LOR: r = x || y; break;
    case OP_LXOR: r = !x != !y; break;
    case OP_BAND: r = x & y; break;
    case OP_BOR: r = x | y; break;
    default: r = x ^ y; break;
    }
    memcpy(inout + i, &r, (size_t)w); /* the low bytes (little-endian, as the test's hosts) */
  }
}

/* MPI_MINLOC / MPI_MAXLOC on packed (value, index) pairs: the least (greatest) value, and of equal
 * values the least index (the standard's definition). */
static void oracle_loc(int op, int bk, const char *in, char *inout, size_t bytes) {
  size_t w = (size_t)bk_bytes[bk], vw = bk == BK_DINT ? sizeof(double) : sizeof(int);
  for (size_t i = 0; i + w <= bytes; i += w) {
    double x, y;
    int xi, yi, xv, yv;
    if (bk == BK_DINT) memcpy(&x, in + i, vw), memcpy(&y, inout + i, vw);
    else memcpy(&xv, in + i, vw), memcpy(&yv, inout + i, vw), x = xv, y = yv;
    memcpy(&xi, in + i + vw, sizeof xi);
    memcpy(&yi, inout + i + vw, sizeof yi);
    int take_x = x == y ? xi < yi : op == OP_MINLOC ? x < y : x > y;
    if (take_x) memcpy(inout + i, in + i, w);
  }
}

/* inout = in op inout on packed values (in: the lower ranks' partial result). */
static void oracle_op(int op, int bk, const char *in, char *inout, size_t bytes) {
  int sgn;
  if (op == OP_MINLOC || op == OP_MAXLOC) {
    oracle_loc(op, bk, in, inout, bytes);
    return;
  }
  if (op >= OP_PROD || (bk >= BK_I8 && int_kind(bk, &sgn)) || (bk == BK_U32 && op != OP_UCOMM && op != OP_NONCOMM)) {
    oracle_int(op, bk, in, inout, bytes);
    return;
  }
  if (op == OP_UCOMM || op == OP_NONCOMM) {
    size_t nw = bytes / 4;
    unsigned *x = mg_test_malloc(bytes), *y = mg_test_malloc(bytes);
    memcpy(x, in, bytes);
    memcpy(y, inout, bytes);
    if (op == OP_UCOMM)
      for (size_t i = 0; i < nw; i++) y[i] = x[i] + y[i] + x[i] * y[i];
    else
      for (size_t i = 0; i + 1 < nw; i += 2) {
        unsigned ma = y[i] * x[i], mb = y[i] * x[i + 1] + y[i + 1];
        y[i] = ma;
        y[i + 1] = mb;
      }
    memcpy(inout, y, bytes);
    free(x);
    free(y);
    return;
  }
  size_t w = (size_t)bk_bytes[bk];
  for (size_t i = 0; i + w <= bytes; i += w) {
    if (bk == BK_INT) {
      int x, y;
      memcpy(&x, in + i, w);
      memcpy(&y, inout + i, w);
      y = op == OP_SUM ? (int)((unsigned)x + (unsigned)y) : op == OP_MAX ? (x > y ? x : y) : (x | y);
      memcpy(inout + i, &y, w);
    } else if (bk == BK_DOUBLE) {
      double x, y;
      memcpy(&x, in + i, w);
      memcpy(&y, inout + i, w);
      y = op == OP_SUM ? x + y : (x > y ? x : y);
      memcpy(inout + i, &y, w);
    } else {
      unsigned char x = (unsigned char)in[i], y = (unsigned char)inout[i];
      y = (unsigned char)(op == OP_SUM ? x + y : op == OP_MAX ? (x > y ? x : y) : (x | y));
      inout[i] = (char)y;
    }
  }
}

static void expect_red(const tcase *tc, targs *a) {
  if (!a->has_r) return;
  int p = tc->cm->size, r = tc->cm->rank;
  expect_begin(a);
  if (tc->coll == MG_REDUCE && r != tc->root) return; /* untouched */
  if (tc->coll == MG_EXSCAN && r == 0) return;        /* undefined: normalise_undef */
  const ttype *t = &types[rcs[tc->vc].t];
  size_t vec, mine, first;
  red_layout(tc, &vec, &mine, &first);
  size_t bytes = vec * (size_t)t->size;
  char *acc = gen_stream(bytes, t->bk, tc->seed, 0, 0);
  int last = tc->coll == MG_SCAN ? r : tc->coll == MG_EXSCAN ? r - 1 : p - 1;
  for (int j = 1; j <= last; j++) {
    char *v = gen_stream(bytes, t->bk, tc->seed, j, 0);
    oracle_op(rcs[tc->vc].op, t->bk, acc, v, bytes);
    free(acc);
    acc = v;
  }
  put(&a->E, 0, mine, acc + first * (size_t)t->size);
  free(acc);
}

/*
 * Elements the standard leaves undefined (a->undef_n of them from element a->undef_at) may
 * hold anything after the call: their typed bytes are copied from the expected image into
 * both receive images, so the comparisons skip exactly them while guards and gaps count.
 */
static void normalise_undef(targs *a) {
  if (!a->undef_n || !a->has_E) return;
  const ttype *t = a->E.t;
  int bytes = (int)(a->undef_n * (size_t)t->size), pos = 0;
  char *st = mg_test_malloc((size_t)bytes);
  TEST_MPI(MPI_Pack(a->E.org + (MPI_Aint)a->undef_at * t->extent, (int)a->undef_n, t->dt, st, bytes, &pos,
                 MPI_COMM_SELF));
  for (int k = 0; k < 2; k++) put(&a->R[k], a->undef_at, a->undef_n, st);
  free(st);
}

/*
 * Known defects of the MPI library's own collective (the reference): the
 * reference call is skipped and the oracle alone judges a mock-up; the forced
 * default, which is that same library call, skips such cases. Mock-ups that
 * call the defective function themselves still fail there (they are wrong on
 * that library). Built for MPICH (MPICH_VERSION from mpi.h), 4.0.2 (Debian):
 * - MPI_Reduce with MPI_IN_PLACE at a root other than 0 segfaults from about
 *   2 KiB (np 2 and 3);
 * - MPI_Reduce_scatter_block with a non-commutative op on a datatype with gaps
 *   gives wrong results when p is a power of two (and corrupts the heap when the
 *   lower bound is negative); so does MPI_Reduce_scatter when, in addition, every
 *   recvcount is the same (then it takes the same algorithm);
 * - a message of plain bytes (MPI_PACKED, MPI_BYTE, or data the library packs
 *   itself, as MPI_Scatter from a derived type or MPI_Alltoall, MPI_Alltoallv and
 *   MPI_Alltoallw with MPI_IN_PLACE do) received with a struct{int,double,char}
 *   datatype fails with "message truncated" above 8 KiB (ch4:ucx rendezvous),
 *   although MPI_PACKED matches any type; struct to struct is fine (MPI_Gatherv,
 *   MPI_Scatterv, and MPI_Alltoallv/w not in place, are right; after the in-place
 *   ones fail here, difftest's process segfaults).
 * - MPI_Allgatherv hangs when ranks receive with types of different layouts (contiguous(4,int)
 *   on one rank, vector(2,2,3,int) on another: legal, the signatures match) and the library
 *   takes its ring algorithm (p not a power of two, 80 KiB or more in all; np 3 from ~82 KiB).
 * Built for Open MPI (OMPI_MAJOR_VERSION), 4.1.4 (Debian):
 * - MPI_Allgatherv hangs when a rank's send type and receive type differ in size (legal: only
 *   the signatures must match, e.g. MPI_INT x 4 sent, contiguous(4,int) x 1 received): the
 *   tuned module's fixed decision sizes the message as size(sendtype) x sum(recvcounts), so
 *   the ranks pick different algorithms (np 3 to 5 hang at a few hundred bytes; every algorithm
 *   forced through coll_tuned_allgatherv_algorithm 1-4 is correct).
 * - MPI_Alltoallw on a one-process communicator (its coll/self component) multiplies the byte
 *   displacements by the extents of the datatypes, as if they were alltoallv's: it reads and
 *   writes at the wrong addresses (outside the buffers: heap corruption) whenever a displacement
 *   is not 0 and an extent not 1 (MPI_IN_PLACE is right: nothing to move).
 */
static const char *reference_skip(const tcase *tc) {
#ifdef MPICH_VERSION
  if (tc->cm->inter) return NULL;
  const ttype *t = &types[rcs[tc->vc].t];
  int p = tc->cm->size;
  if (tc->coll == MG_REDUCE && tc->ip && tc->root != 0 && (size_t)tc->n * (size_t)t->size > 1024)
    return "MPICH MPI_Reduce(MPI_IN_PLACE) at root != 0 crashes from ~2 KiB";
  if (tc->coll == MG_REDUCE_SCATTER_BLOCK && rcs[tc->vc].op == OP_NONCOMM && t->extent != t->size && p > 1 &&
      (p & (p - 1)) == 0)
    return "MPICH MPI_Reduce_scatter_block: non-commutative op, datatype with gaps, p a power of 2";
  if (tc->coll == MG_REDUCE_SCATTER && rcs[tc->vc].op == OP_NONCOMM && t->extent != t->size && p > 1 &&
      (p & (p - 1)) == 0 && rs_uniform(tc))
    return "MPICH MPI_Reduce_scatter: non-commutative op, datatype with gaps, p a power of 2, equal recvcounts";
  size_t units = (size_t)tc->n, total = 0; /* irregular collectives: the largest block, all blocks */
  if (tc->coll == MG_ALLGATHERV || tc->coll == MG_GATHERV || tc->coll == MG_SCATTERV)
    for (int j = units = 0; j < p; j++) {
      size_t c = (size_t)rs_count(tc->rsc, tc->n, p, j);
      units = c > units ? c : units;
      total += c;
    }
  if (is_a2av(tc->coll))
    for (int i = units = 0; i < p; i++)
      for (int j = 0; j < p; j++) {
        size_t c = (size_t)a2a_count(tc->rsc, tc->n, p, i, j, tc->ip);
        units = c > units ? c : units;
        total += c;
      }
  if (tc->coll == MG_ALLGATHERV && vcs[tc->vc].view == MIX && (p & (p - 1)) != 0 &&
      total * (size_t)fams[vcs[tc->vc].fam].unit_bytes >= 81920)
    return "MPICH MPI_Allgatherv: ring (p not a power of 2, from 80 KiB), receive types of different layouts "
           "on different ranks: hangs";
  int packs = !is_v(tc->coll) || (is_a2av(tc->coll) && tc->ip); /* irregular ones: only in place */
  if (!mg_colls[tc->coll].reduction && packs && vcs[tc->vc].fam == F_STRUCT &&
      units * (size_t)fams[F_STRUCT].unit_bytes > 8192)
    return "MPICH: bytes received as struct{int,double,char} above 8 KiB: message truncated";
#elif defined(OMPI_MAJOR_VERSION)
  if (tc->coll == MG_ALLTOALLW && !tc->cm->inter && tc->cm->size == 1 && !tc->ip)
    return "Open MPI MPI_Alltoallw on one process (coll/self): byte displacements scaled by the extents";
  if (tc->coll == MG_ALLGATHERV && !tc->cm->inter && !tc->ip && vcs[tc->vc].view == MIX && tc->cm->size > 1) {
    const family *f = &fams[vcs[tc->vc].fam];
    for (int v = 1; v < f->nv; v++)
      if (f->mult[v] != f->mult[0])
        return "Open MPI MPI_Allgatherv: send and receive types of different sizes: ranks decide differently";
  }
#else
  (void)tc;
#endif
  return NULL;
}

/* ------------------------------------------------------------------ accounting */

#define NDET 4
#define DETLEN 480

enum { K_ERR, K_MIS, K_CNT, K_OTH, K_N };
static const char *kind_names[K_N] = {"errors", "mismatches", "counters", "other"};

typedef struct astat {
  int alg;
  char spec[160];
  const char *name;    /* "default" or the registry name */
  long ncases, nnoref; /* cases run; of them without the reference call */
  long nskip;          /* cases skipped (the default, where the library is known to be wrong) */
  long ninplace;       /* in-place family: calls in place on this rank that the algorithm ran */
  long nip_restricted; /* ... and those its restrictions sent to the default (p>1 at np 1) */
  long nrestricted;    /* cases run that the row's restrictions send to the default (restricted_here) */
  long kinds[K_N];
  unsigned char *bits; /* failed case numbers */
  size_t bitcap;
  int ndet;
  long detcase[NDET];
  char det[NDET][DETLEN];
} astat;

static astat g_st[MG_MAX_ALGS];
static int g_differential; /* the differential cases (not --errors) */
static int g_nst;
static long g_ncase; /* case number within the current collective */

static void fail(astat *s, long cn, int kind, const char *desc, const char *fmt, ...) {
  size_t byte = (size_t)cn / 8;
  if (byte >= s->bitcap) {
    size_t cap = s->bitcap ? s->bitcap : 64;
    while (cap <= byte) cap *= 2;
    s->bits = realloc(s->bits, cap);
    if (!s->bits) mg_test_die("out of memory");
    memset(s->bits + s->bitcap, 0, cap - s->bitcap);
    s->bitcap = cap;
  }
  unsigned char bit = (unsigned char)(1u << (cn % 8));
  s->kinds[kind]++;
  if (!(s->bits[byte] & bit) && s->ndet < NDET) {
    char msg[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    s->detcase[s->ndet] = cn;
    snprintf(s->det[s->ndet], DETLEN, "%s: %s", desc, msg);
    s->ndet++;
  }
  s->bits[byte] |= bit;
}

typedef struct cnt {
  long long alg, def, empty, inter, all, restricted, late_range, late_cap;
} cnt;

/*
 * The fallback reason the registry row must give for this call, or NULL when the
 * row allows it, judged from the test's own arguments (the op's commutativity, the
 * datatype's layout, whether the op is one of the test's user ops), not by asking
 * the library:
 *  - MG_R_COMMUTATIVE: a commutative op only;
 *  - MG_R_COMMUTE_OR_DENSE: a non-commutative op only on a contiguous datatype;
 *  - MG_R_PAD_PREDEFINED_OP: a user-defined op only when p divides the count;
 *  - MG_R_NOT_IN_PLACE: not with MPI_IN_PLACE on the send side;
 *  - MG_R_LB_ZERO: a datatype with lower bound 0 and true lower bound >= 0;
 *  - MG_R_P_GT_1: not on a one-process communicator.
 *  - MG_R_BITWISE_EXACT: a predefined op on one of the test's predefined integer types (MPI_BYTE:
 *    the bitwise ops only; no MPI_SUM on MPI_SHORT or MPI_INT8_T, no MPI_MIN/MAX on the unsigned
 *    types); not MPI_DOUBLE, not the user ops, not derived types.
 */
static int exact_here(const targs *a) {
  static const int int_types[] = {T_INT, T_UCHAR, T_SHORT, T_I8, T_LLONG, T_U64, T_UNSIGNED};
  int bitwise = a->op == MPI_BAND || a->op == MPI_BOR || a->op == MPI_BXOR;
  if (a->op == ops[OP_UCOMM] || a->op == ops[OP_NONCOMM]) return 0;
  if (a->rtype == MPI_BYTE) return bitwise;
  if (a->op == MPI_SUM && (a->rtype == MPI_SHORT || a->rtype == MPI_INT8_T)) return 0; /* signed, < int */
  if ((a->op == MPI_MIN || a->op == MPI_MAX) &&
      (a->rtype == MPI_UNSIGNED_CHAR || a->rtype == MPI_UINT64_T || a->rtype == MPI_UNSIGNED))
    return 0; /* unsigned */
  for (size_t i = 0; i < sizeof int_types / sizeof int_types[0]; i++)
    if (a->rtype == types[int_types[i]].dt) return 1;
  return 0;
}

#ifdef MPICH_VERSION
/* The test's datatypes whose basic types differ in size (MG_R_UNIFORM_BASIC): the structs of
 * int, double and char, and MPI_DOUBLE_INT. */
static int mixed_sizes(MPI_Datatype dt) {
  static const int mixed[] = {T_ST_HOLES, T_ST_PACKED, T_ST_NEG, T_DINT};
  for (size_t i = 0; i < sizeof mixed / sizeof mixed[0]; i++)
    if (dt == types[mixed[i]].dt) return 1;
  return 0;
}
#endif

/* The hier family's late restrictions (registry.h: MG_R_REGULAR_NODES, MG_R_NODE_ORDER), from the
 * node structure of the case's communicator. */
static const char *nodes_here(unsigned r, const targs *a, const tcomm *cm) {
  int commute = 1;
  if ((r & MG_R_REGULAR_NODES) && !cm->regular) return "irregular_nodes";
  if ((r & MG_R_NODE_ORDER) && a->op != MPI_OP_NULL) MPI_Op_commutative(a->op, &commute);
  return commute || cm->consecutive ? NULL : "node_order";
}

static const char *restricted_here(int coll, int alg, const targs *a, const tcomm *cm) {
  unsigned r = mg_colls[coll].algs[alg].restrictions;
  int p = cm->size;
  if ((r & MG_R_NOT_IN_PLACE) && a->sinplace) return "in_place";
  if ((r & MG_R_P_GT_1) && p == 1) return "one_process";
  if (r & MG_R_LB_ZERO) {
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_get_extent(a->rtype, &lb, &ext);
    MPI_Type_get_true_extent(a->rtype, &tlb, &text);
    if (lb != 0 || tlb < 0) return "type_lb";
  }
#ifdef MPICH_VERSION
  if ((r & MG_R_UNIFORM_BASIC) && mixed_sizes(a->rtype)) return "mixed_sizes";
#endif
  if (a->op == MPI_OP_NULL || !mg_colls[coll].reduction) return nodes_here(r, a, cm);
  /* the suite's predefined ops come with predefined types only (rcs[]), its user ops with the rest */
  if ((r & MG_R_PAD_PREDEFINED) && (a->op == ops[OP_UCOMM] || a->op == ops[OP_NONCOMM] ||
                                    a->rtype == MPI_DOUBLE_INT || a->rtype == MPI_2INT)) /* pairs: no class */
    return "pad_type";
  if (r & (MG_R_COMMUTATIVE | MG_R_COMMUTE_OR_DENSE)) {
    int commute = 1, size;
    MPI_Aint lb, ext, tlb, text;
    MPI_Op_commutative(a->op, &commute);
    MPI_Type_size(a->rtype, &size);
    MPI_Type_get_extent(a->rtype, &lb, &ext);
    MPI_Type_get_true_extent(a->rtype, &tlb, &text);
    int dense = lb == 0 && tlb == 0 && ext == size && text == size;
    if (!commute && ((r & MG_R_COMMUTATIVE) || !dense)) return "noncommutative";
  }
  int user_op = a->op == ops[OP_UCOMM] || a->op == ops[OP_NONCOMM];
  /* padding: a count p does not divide, or for reduce_scatter blocks of different counts */
  int pad = a->rcount % p != 0;
  if (coll == MG_REDUCE_SCATTER) {
    pad = 0;
    for (int j = 1; j < p; j++) pad |= a->rcounts[j] != a->rcounts[0];
  }
  if ((r & MG_R_PAD_PREDEFINED_OP) && user_op && pad) return "userop_padding";
  if ((r & MG_R_BITWISE_EXACT) && !exact_here(a)) return "op_not_exact";
  return nodes_here(r, a, cm);
}

static void cnt_read(int coll, const astat *s, const char *reason, cnt *c) {
  const char *cn = mg_colls[coll].name;
  c->alg = mpiguide_calls(cn, s->name);
  c->def = mpiguide_calls(cn, "default");
  c->empty = mpiguide_fallbacks(cn, "empty");
  c->inter = mpiguide_fallbacks(cn, "intercomm");
  c->restricted = reason ? mpiguide_fallbacks(cn, reason) : 0;
  c->all = mpiguide_fallbacks(cn, NULL);
  c->late_range = mpiguide_fallbacks(cn, "count_range");
  c->late_cap = mpiguide_fallbacks(cn, "scratch_cap");
}

/* Where the first difference between two images of a receive buffer is, in terms a
 * bug report can use. */
static void describe_diff(const targs *a, const tbuf *g, const char *want, const char *what, char *out,
                          size_t len) {
  size_t o = 0, ndiff = 0;
  for (size_t i = 0; i < a->cmp_len; i++)
    if (g->mem[i] != want[i]) {
      if (!ndiff) o = i;
      ndiff++;
    }
  MPI_Aint off = (MPI_Aint)o - GUARD + g->t->tlb; /* from the buffer address */
  char where[96];
  if (o < GUARD)
    snprintf(where, sizeof where, "in the guard before the buffer");
  else if (o >= g->len - GUARD)
    snprintf(where, sizeof where, "in the guard after the buffer");
  else {
    MPI_Aint e = (off - g->t->lb) / g->t->extent;
    snprintf(where, sizeof where, "element %ld of %zu, byte %ld of its extent", (long)e, g->n,
             (long)(off - g->t->lb - e * g->t->extent));
  }
  char gs[40] = "", ws[40] = "";
  for (size_t i = o; i < o + 8 && i < a->cmp_len; i++) {
    snprintf(gs + strlen(gs), sizeof gs - strlen(gs), "%02x", (unsigned char)g->mem[i]);
    snprintf(ws + strlen(ws), sizeof ws - strlen(ws), "%02x", (unsigned char)want[i]);
  }
  snprintf(out, len, "recvbuf differs from %s in %zu byte(s); first at offset %ld (%s): got %s want %s%s",
           what, ndiff, (long)off, where, gs, ws,
           want[o] == a->I.mem[o] ? " [that byte should have kept its initial value: a write into a gap, "
                                    "outside, or where nothing is delivered]"
                                  : "");
}

/* ------------------------------------------------------------------ running cases */

static const char *alg_label(int coll, int alg) { return alg ? mg_colls[coll].algs[alg].name : "default"; }

static void force(const astat *s) {
  int st = mpiguide_force(s->spec);
  if (st != MPIGUIDE_OK) mg_test_die("mpiguide_force(\"%s\"): %s", s->spec, mpiguide_strerror(st));
}

/*
 * The call under test with its send and receive data back to back in one
 * allocation (tcase.adj: 1 receive data first, 2 send data first), with no byte
 * between their true extents: legal, as the buffers do not overlap. A mock-up
 * that forms the address one past the end of a buffer (an empty piece of it)
 * now passes an address of the other buffer to MPI, which MPICH rejects as
 * aliasing; one that writes past a buffer's end writes into the other. The
 * images are copied back into R and a->S (whose outer guards stay in place), so
 * the usual comparisons see every such write.
 */
static int adjacent_call(int adj, int coll, const targs *a, tbuf *R) {
  tbuf *S = (tbuf *)&a->S;
  size_t rs = R->len - 2 * GUARD, ss = S->len - 2 * GUARD;
  char *blk = mg_test_malloc(rs + ss + 2 * GUARD);
  size_t r_at = adj == 1 ? GUARD : GUARD + ss, s_at = adj == 1 ? GUARD + rs : GUARD;
  /* the outer guards: of the buffer that comes first, before; of the other, after */
  memcpy(blk, (adj == 1 ? R : S)->mem, GUARD);
  memcpy(blk + GUARD + rs + ss, (adj == 1 ? S : R)->mem + (adj == 1 ? ss : rs) + GUARD, GUARD);
  memcpy(blk + r_at, R->mem + GUARD, rs);
  memcpy(blk + s_at, S->mem + GUARD, ss);
  targs b = *a;
  tbuf Rb = *R;
  Rb.org = blk + r_at - R->t->tlb;
  b.sbuf = blk + s_at - S->t->tlb;
  int rc = do_call(0, coll, &b, &Rb);
  /* back: each buffer's data and the outer guard on its side; the inner guards
   * keep their initial image, where the other buffer's bytes stood */
  memcpy(R->mem + GUARD, blk + r_at, rs);
  memcpy(S->mem + GUARD, blk + s_at, ss);
  if (adj == 1) {
    memcpy(R->mem, blk, GUARD);
    memcpy(S->mem + GUARD + ss, blk + GUARD + rs + ss, GUARD);
  } else {
    memcpy(S->mem, blk, GUARD);
    memcpy(R->mem + GUARD + rs, blk + GUARD + rs + ss, GUARD);
  }
  free(blk);
  return rc;
}

static astat *g_cur; /* the algorithm under test */
static astat g_lib;  /* the MPI library's own result against the oracle */

static void run_case(const tcase *tc0) {
  tcase tcl = *tc0, *tc = &tcl;
  long cn = g_ncase++;
  if (cn < g_first || (g_last >= 0 && cn > g_last)) return;
  if (tc->cm->comm == MPI_COMM_NULL) return; /* not a member of this communicator */
  astat *s = g_cur;
  targs a;
  memset(&a, 0, sizeof a);
  a.comm = tc->cm->comm;
  tc->seed = (unsigned)mix64(((uint64_t)tc->coll << 32) | (uint64_t)cn);
  int red = mg_colls[tc->coll].reduction;
  if (tc->zb)
    setup_zero(tc, &a); /* computes its oracle as it sets up */
  else if (tc->cm->inter)
    setup_inter(tc, &a);
  else if (red)
    setup_red(tc, &a);
  else if (tc->coll == MG_ALLGATHERV)
    setup_agv(tc, &a);
  else if (tc->coll == MG_GATHERV)
    setup_gv(tc, &a); /* these four compute their oracle as they set up */
  else if (tc->coll == MG_SCATTERV)
    setup_sv(tc, &a);
  else if (is_a2av(tc->coll))
    setup_a2av(tc, &a);
  else
    setup_dm(tc, &a);
  finish_send(&a);
  if (tc->adj)
    snprintf(a.desc + strlen(a.desc), sizeof a.desc - strlen(a.desc), " adjacent(%s first)",
             tc->adj == 1 ? "recvbuf" : "sendbuf");
  if (!tc->cm->inter && !tc->zb) {
    if (red)
      expect_red(tc, &a);
    else if (tc->coll == MG_ALLGATHERV)
      expect_agv(tc, &a);
    else if (!is_v(tc->coll))
      expect_dm(tc, &a);
    a.noref = reference_skip(tc);
  }
  const char *mpi = mg_colls[tc->coll].mpi_name;
  if (g_trace) { /* to find the case a hang or crash happens in */
    fprintf(stderr, "[rank %d] %s case %ld %s\n", g_rank, s->name, cn, a.desc);
    fflush(stderr);
  }
  /* The default is the defective library call: when it is forced, or when the
   * forced mock-up's registry row makes this call fall back to it. A row of the
   * non-blocking family runs the library's own non-blocking form of the call,
   * which shares the defective path (seen on MPICH 4.0.2: struct receives above
   * 8 KiB in MPI_Iscatter, the ring of MPI_Iallgatherv with mixed layouts). A row of the
   * in-place family runs the library's call itself, in place as given or from a copy as the
   * regular form (which shares such defects: struct receives above 8 KiB). A row of the userop
   * family makes the call itself with the arguments as given and only its op replaced (MPICH's
   * in-place MPI_Reduce at a root other than 0 crashes with that op too). */
  const char *restricted = tc->cm->inter ? NULL : restricted_here(tc->coll, s->alg, &a, tc->cm);
  int fam = mg_colls[tc->coll].algs[s->alg].family;
  int library_path = s->alg == 0 || fam == MG_FAM_NONBLOCKING || fam == MG_FAM_INPLACE || fam == MG_FAM_USEROP;
  if (a.noref && (library_path || restricted)) {
    s->nskip++;
    targs_free(&a);
    return;
  }
  s->ncases++;
  if (a.noref) s->nnoref++;
  if (restricted) s->nrestricted++;
  mg_test_watch("%s case %ld: %s", s->spec, cn, a.desc);

  /* the reference: the MPI library's own implementation */
  int rc_ref = MPI_SUCCESS, ref_sbuf_changed = 0;
  if (!a.noref) {
    if (a.has_r) memcpy(a.R[1].mem, a.I.mem, a.I.len);
    rc_ref = do_call(1, tc->coll, &a, &a.R[1]);
    ref_sbuf_changed = a.S.mem && memcmp(a.S.mem, a.S0, a.S.len) != 0;
    if (ref_sbuf_changed) memcpy(a.S.mem, a.S0, a.S.len);
  }

  /* the algorithm under test, through libmpiguide */
  cnt c0, c1;
  g_op_foreign = 0;
  g_op_maxseen = 0;
  g_op_limit = tc->coll == MG_REDUCE_SCATTER_BLOCK ? (long)tc->n * tc->cm->size : tc->n;
  if (tc->coll == MG_REDUCE_SCATTER) /* the whole vector, the sum of recvcounts */
    for (int j = g_op_limit = 0; j < tc->cm->size; j++) g_op_limit += a.rcounts[j];
  if (a.has_r) memcpy(a.R[0].mem, a.I.mem, a.I.len);
  cnt_read(tc->coll, s, restricted, &c0);
  /* not with an empty receive or send block (reduce_scatter, allgatherv: a zero count): the buffers
   * would start at one address, which MPICH rejects as aliasing although nothing overlaps */
  int adj = tc->adj && a.S.mem && a.S.n && a.has_r && !a.sinplace && !a.rinplace && a.R[0].n ? tc->adj : 0;
  int rc = adj ? adjacent_call(adj, tc->coll, &a, &a.R[0]) : do_call(0, tc->coll, &a, &a.R[0]);
  cnt_read(tc->coll, s, restricted, &c1);
  long op_limit = g_op_limit;
  g_op_limit = -1;
  normalise_undef(&a);

  char d[360];
  if (a.want_err) {
    int c_ref = -1, c_got = -1;
    if (rc_ref != MPI_SUCCESS) MPI_Error_class(rc_ref, &c_ref);
    if (rc != MPI_SUCCESS) MPI_Error_class(rc, &c_got);
    if (rc == MPI_SUCCESS || rc_ref == MPI_SUCCESS || c_ref != c_got)
      fail(s, cn, K_ERR, a.desc, "erroneous call: %s returned %s, PMPI_ returned class %d", mpi,
           rc == MPI_SUCCESS ? "MPI_SUCCESS" : err_text(rc), c_ref);
  } else if (rc_ref != MPI_SUCCESS) {
    fail(s, cn, K_OTH, a.desc, "reference P%s failed: %s (test bug or MPI limitation)", mpi,
         err_text(rc_ref));
  } else if (rc != MPI_SUCCESS) {
    fail(s, cn, K_ERR, a.desc, "%s returned %s", mpi, err_text(rc));
  } else if (a.has_r) {
    int ok_ref = !a.noref && memcmp(a.R[0].mem, a.R[1].mem, a.cmp_len) == 0;
    int ok_exp = a.has_E && memcmp(a.R[0].mem, a.E.mem, a.cmp_len) == 0;
    int ref_exp = a.noref || !a.has_E || memcmp(a.R[1].mem, a.E.mem, a.cmp_len) == 0;
    if (!ref_exp && s == &g_st[0]) { /* noted once per case, with the first algorithm */
      describe_diff(&a, &a.R[1], a.E.mem, "the oracle", d, sizeof d);
      fail(&g_lib, cn, K_MIS, a.desc, "the MPI library's own P%s is wrong: %s", mpi, d);
    }
    if (!ok_ref && !ok_exp) {
      if (a.noref)
        describe_diff(&a, &a.R[0], a.E.mem, "the oracle (reference skipped)", d, sizeof d);
      else
        describe_diff(&a, &a.R[0], a.R[1].mem,
                      ref_exp ? "the reference" : "the reference (which is wrong too)", d, sizeof d);
      fail(s, cn, K_MIS, a.desc, "%s", d);
    }
  }
  if (a.S.mem && memcmp(a.S.mem, a.S0, a.S.len) != 0)
    fail(s, cn, K_MIS, a.desc, "send buffer modified%s", ref_sbuf_changed ? " (by the reference too)" : "");
  alarm(0);
  if (g_op_foreign)
    fail(s, cn, K_OTH, a.desc, "user op called with a datatype other than the one passed by the user");
  if (g_op_maxseen > op_limit)
    fail(s, cn, K_OTH, a.desc,
         "user op called with len %ld, more than the %ld elements the call reduces (a user op may rely "
         "on len <= count)", g_op_maxseen, op_limit);

  /* counters: what ran on this rank */
  long long d_alg = c1.alg - c0.alg, d_def = c1.def - c0.def, d_empty = c1.empty - c0.empty,
            d_inter = c1.inter - c0.inter, d_all = c1.all - c0.all, d_restr = c1.restricted - c0.restricted;
  const char *why = NULL;
  if (s->alg == 0) {
    if (d_def != 1 || d_all != 0) why = "default forced: want calls(default)+1, no fallback";
  } else if (tc->cm->inter) {
    if (d_def != 1 || d_alg != 0 || d_inter != 1 || d_all != 1)
      why = "intercommunicator: want the default to run with fallback reason \"intercomm\"";
  } else if (a.empty && mg_colls[tc->coll].known) { /* unknown size: no rank can tell the call is empty */
    if (d_def != 1 || d_alg != 0 || d_empty != 1 || d_all != 1)
      why = "empty call: want the default to run with fallback reason \"empty\"";
  } else if (restricted) {
    if (d_def != 1 || d_alg != 0 || d_restr != 1 || d_all != 1) {
      snprintf(d, sizeof d, "a call the registry row restricts: want the default with fallback reason \"%s\"",
               restricted);
      why = d;
    }
  } else if (d_alg != 1 || d_def != 0 || d_all != 0) {
    /* a mock-up of a collective whose size not every rank knows may fall back late (mg_late_ok), for
     * counts beyond an int or scratch beyond the cap: neither at the sizes tested here */
    why = mg_colls[tc->coll].known ? "want the forced algorithm to run"
                                   : "want the forced algorithm to run (no late fallback at these sizes)";
  }
  if (!why && d_alg == 1 && fam == MG_FAM_INPLACE && (a.sinplace || a.rinplace)) s->ninplace++;
  if (!why && restricted && fam == MG_FAM_INPLACE && (a.sinplace || a.rinplace)) s->nip_restricted++;
  if (why)
    fail(s, cn, K_CNT, a.desc,
         "counters: %s; got alg %+lld default %+lld empty %+lld intercomm %+lld count_range %+lld scratch_cap "
         "%+lld all %+lld",
         why, d_alg, d_def, d_empty, d_inter, c1.late_range - c0.late_range, c1.late_cap - c0.late_cap, d_all);
  targs_free(&a);
}

/* ------------------------------------------------------------------ case generation */

static const int counts_full[] = {0, 1, 2, 3, 5, 7, 13, 29};
#define NCF ((int)(sizeof counts_full / sizeof counts_full[0]))
static const int counts_quick[] = {1, 5, 13, 7, 2, 3};
#define NCQ ((int)(sizeof counts_quick / sizeof counts_quick[0]))

static int ip_allowed(int coll) { return coll != MG_BCAST; }

/* Units (data movement) or elements (reductions) for one message above 64 KiB. */
static int big_n(int coll, int vc) {
  int b = mg_colls[coll].reduction ? types[rcs[vc].t].size : fams[vcs[vc].fam].unit_bytes;
  return 65536 / b + 37;
}

static void run1(int coll, const tcomm *cm, int vc, int n, int root, int ip, int nonroot, int junk) {
  int size = cm->size > 0 ? cm->size : 1; /* 0 where this rank is not a member */
  int root_ok = ((root % size) + size) % size;
  tcase tc = {coll, cm, vc, n, root_ok, ip && ip_allowed(coll), nonroot % 3, junk % 2, 0, 0, 0, 0, 0, 0};
  /* the sweeps pass root = nonroot = a running number; skewed blocks (RS_SKEW) only in the
   * pattern sweep (run_vpatterns), lower-triangular ones not at the big counts */
  int np_ = is_a2av(coll) ? AP_N : RS_N;
  if (coll == MG_REDUCE_SCATTER || coll == MG_ALLGATHERV || is_v(coll))
    tc.rsc = ((root + nonroot) % np_ + np_) % np_;
  if (is_a2av(coll) && tc.rsc == AP_LOWER && n > 64) tc.rsc = AP_RAMP;
  if (coll == MG_ALLGATHERV || is_v(coll)) tc.dsp = ((root + junk) % DP_N + DP_N) % DP_N;
  run_case(&tc);
}

/* Send and receive buffers back to back (adjacent_call), both orders, at counts that
 * leave some ranks an empty piece in the segmented and padded mock-ups. */
static void run_adjacent(int coll, const tcomm *cm, int vc) {
  static const int ns[] = {1, 2, 5};
  for (int adj = 1; adj <= 2; adj++)
    for (int i = 0; i < 3; i++) {
      int size = cm->size > 0 ? cm->size : 1;
      tcase tc = {coll, cm, vc, ns[i], (adj + i) % size, 0, 0, 0, 0, 0, adj, (adj + i) % RS_N,
                  (adj + 2 * i) % DP_N, 0};
      run_case(&tc);
    }
}

/* Reductions at a count that the segmented mock-ups cut into equal pieces for p = 2
 * and 4 (64 elements of 8 bytes: 8 blocks of 64 bytes): MPICH 4.0.2 takes another
 * reduce_scatter algorithm for equal pieces, wrong for non-commutative ops on
 * datatypes with gaps (GL7, GL16 must be restricted). */
static void run_regular(int coll, const tcomm *cm) {
  static const int rcs_nc[] = {RC_PSTRUCT_NC, RC_PNEG_NC, RC_PVEC_NC, RC_PCONTIG_NC, RC_INT_SUM};
  for (int i = 0; i < 5; i++) run1(coll, cm, rcs_nc[i], 64, i, i % 2, 0, 0);
}

/* reduce_scatter: every recvcounts pattern with and without MPI_IN_PLACE, on predefined and on
 * non-commutative derived types, and the all-zero call (an empty call) both ways; quick: off
 * MPI_COMM_WORLD every pattern once, in place or not. */
static void run_recvcounts(int coll, const tcomm *cm) {
  static const int rvs[] = {RC_INT_SUM, RC_PNEG_NC, RC_DOUBLE_SUM, RC_PSTRUCT_NC};
  int i = 0;
  for (int pat = 0; pat < RS_N; pat++)
    for (int ip = 0; ip <= 1; ip++, i++) {
      if (g_quick && cm != &comms[C_WORLD] && (pat + ip) % 2) continue;
      tcase tc = {coll, cm, rvs[i % 4], 4 + pat, 0, ip, 0, 0, 0, 0, 0, pat, 0, 0};
      run_case(&tc);
    }
  for (int ip = 0; ip <= 1; ip++) {
    tcase tc = {coll, cm, rvs[1 - ip], 0, 0, ip, 0, 0, 0, 0, 0, RS_UNIFORM, 0, 0};
    run_case(&tc);
  }
}

/* allgatherv: every recvcounts pattern with every displacement pattern, with and without
 * MPI_IN_PLACE, over predefined, derived (gaps, negative lower bound, typemap out of address order)
 * and mixed send/receive types, and the all-zero (empty) call both ways with and without gaps;
 * quick: off MPI_COMM_WORLD half of the combinations, each pattern still both ways. */
static void run_displs(int coll, const tcomm *cm) {
  static const int vs[] = {VC_INT,     VC_INT4_MIX, VC_STRUCT_MIX, VC_UCHAR3_MIX,
                          VC_INT_MIX, VC_IDX4,     VC_STRUCT,     VC_INT_NEGLB};
  static const int zero_dp[] = {DP_CONTIG, DP_SHUFFLED};
  int i = 0;
  for (int pat = 0; pat < RS_N; pat++)
    for (int dp = 0; dp < DP_N; dp++)
      for (int ip = 0; ip <= 1; ip++, i++) {
        if (g_quick && cm != &comms[C_WORLD] && (pat + dp + ip) % 2) continue;
        tcase tc = {coll, cm, vs[(i / 2) % 8], 1 + (i / 2) % 4, 0, ip, 0, (i / 4) % 2, 0, 0, 0, pat, dp, 0};
        run_case(&tc);
      }
  for (int ip = 0; ip <= 1; ip++)
    for (int d = 0; d < 2; d++) {
      int vc = ip ? VC_INT4_MIX : VC_STRUCT_MIX;
      tcase tc = {coll, cm, vc, 0, 0, ip, 0, ip, 0, 0, 0, RS_UNIFORM, zero_dp[d], 0};
      run_case(&tc);
    }
}

/* The irregular collectives: every counts pattern with every displacement pattern, with and without
 * MPI_IN_PLACE, over predefined, derived and mixed views, at every root in turn, and the all-zero
 * call with and without MPI_IN_PLACE (which the mock-ups run too: no rank knows it is empty);
 * quick: on MPI_COMM_WORLD every pair of patterns once (in place or not), elsewhere a quarter. */
static void run_vpatterns(int coll, const tcomm *cm) {
  static const int vs[] = {VC_INT,     VC_INT4_MIX, VC_STRUCT_MIX, VC_UCHAR3_MIX,
                          VC_INT_MIX, VC_IDX4,     VC_STRUCT,     VC_INT_NEGLB};
  static const int zero_dp[] = {DP_CONTIG, DP_SHUFFLED};
  int i = 0, p = cm->maxsize > 0 ? cm->maxsize : 1, size = cm->size > 0 ? cm->size : 1;
  for (int pat = 0; pat < npat(coll); pat++)
    for (int dp = 0; dp < DP_N; dp++)
      for (int ip = 0; ip <= 1; ip++, i++) {
        if (g_quick && (pat + dp + ip) % (cm == &comms[C_WORLD] ? 2 : 4)) continue;
        int root = (pat + 2 * dp + ip) % p % size;
        tcase tc = {coll, cm, vs[(i / 2) % 8], 1 + (i / 2) % 4, root, ip, i % 3, (i / 4) % 2, 0, 0, 0, pat, dp, 0};
        run_case(&tc);
      }
  for (int ip = 0; ip <= 1; ip++)
    for (int d = 0; d < 2; d++) {
      int vc = ip ? VC_INT4_MIX : VC_STRUCT_MIX;
      tcase tc = {coll, cm, vc, 0, (p - 1) % size, ip, d + 1, ip, 0, 0, 0, 0, zero_dp[d], 0};
      run_case(&tc);
    }
}

/* Reductions with the exact-op combinations (every predefined op on integer types; MPI_BYTE with
 * the bitwise ops): one case each, counts, roots and MPI_IN_PLACE varying; quick: half of them
 * off MPI_COMM_WORLD. */
static void run_exact_ops(int coll, const tcomm *cm) {
  static const int ns[] = {7, 13, 1, 29, 64, 3};
  for (int v = RC_EXACT, i = 0; v < NRC; v++, i++) {
    if (g_quick && cm != &comms[C_WORLD] && i % 2) continue;
    run1(coll, cm, v, ns[i % 6], i, i % 2, i, i / 2);
  }
  /* the pairs above 8 KiB, where MPICH's gather and scatter cannot take MPI_DOUBLE_INT packed */
  if (cm == &comms[C_WORLD])
    for (int v = RC_LOC; v < NRC; v++) run1(coll, cm, v, big_n(coll, v), v % 2, v % 2, 0, 0);
}

/* The communicators of the cheap sweeps below: the world, halves (odd sizes), one process. */
static int few_comms(const tcomm *cm) {
  return cm == &comms[C_WORLD] || cm == &comms[C_HALVES] || cm == &comms[C_SELF];
}

/*
 * Arguments the standard calls not significant, as programs pass them (MPICH's coll/scatter2,
 * coll/alltoallw_zeros): at non-roots the root-only ones NULL, count -1 and MPI_DATATYPE_NULL
 * (gatherv, scatterv: counts -1, displs NULL); with MPI_IN_PLACE the ignored side -1 and
 * MPI_DATATYPE_NULL (alltoallv/w: counts -1, displs NULL, types MPI_DATATYPE_NULL). The first and
 * the last rank as root, in place and not, and the all-zero call of the irregular collectives. A
 * row (or anything before it: the descriptor, the check, the message size, the scratch, the trace)
 * that reads one of them aborts on an invalid datatype or falls back with "invalid_args", which
 * the counters show. Reductions and bcast have no such argument but a non-root's recvbuf (reduce:
 * NULL in the sweeps).
 */
static void run_insignificant(int coll, const tcomm *cm) {
  int rooted = mg_colls[coll].rooted, p = cm->maxsize > 0 ? cm->maxsize : 1, size = cm->size > 0 ? cm->size : 1;
  if (mg_colls[coll].reduction || coll == MG_BCAST) return;
  for (int i = 0; i < 4; i++) {
    int root = (i / 2) * (p - 1) % size, ip = i % 2;
    if ((!rooted && (!ip || i > 1)) || (rooted && i > 1 && p == 1)) continue;
    tcase tc = {coll, cm, VC_INT4_MIX, 2 + i, root, ip, 3, 2, 0, 0, 0, i % 2 ? RS_RAMP : RS_ZERO_ODD, DP_GAPS, 0};
    if (is_a2av(coll)) tc.rsc = AP_RAMP;
    run_case(&tc);
  }
  for (int ip = 0; is_v(coll) && ip <= 1; ip++) {
    tcase tc = {coll, cm, VC_STRUCT_MIX, 0, (p - 1) % size, ip, 3, 2, 0, 0, 0, RS_UNIFORM, DP_CONTIG, 0};
    run_case(&tc);
  }
}

/* Whether the MPI library's own call is defective for an empty message its two ends count
 * differently (docs/library.md, found with a program without libmpiguide): not tested there, as
 * the default, and every row that falls back to it or is built on it, fails too. With the
 * receive side counting 1 of an empty datatype (ZB_RECV_TYPE) receivers wait for a message never
 * sent: a hang. With the send side counting it (ZB_SEND_TYPE) a message is sent that no rank
 * receives, and a later call of the collective on the communicator receives it instead of its
 * own data: wrong data, then a hang. */
static int zero_bytes_defect(int coll, int zb) {
#ifdef MPICH_VERSION /* 4.0.2: both ways; the non-blocking forms hang ZB_RECV_TYPE too */
  (void)zb;
  return coll == MG_GATHER || coll == MG_GATHERV || coll == MG_SCATTER || coll == MG_SCATTERV;
#elif defined(OMPI_MAJOR_VERSION) /* 4.1.4: both ways; allgatherv hangs ZB_RECV_TYPE from 3 ranks */
  return coll == MG_BCAST || coll == MG_GATHERV || coll == MG_SCATTERV ||
         (coll == MG_ALLGATHERV && zb == ZB_RECV_TYPE);
#else
  (void)coll, (void)zb;
  return 0;
#endif
}

/* Empty messages the sides count differently (setup_zero): every data-movement collective, each
 * way round; alltoallv/w in place with the ranks counting differently too. */
static void run_zero_bytes(int coll, const tcomm *cm) {
  int p = cm->maxsize > 0 ? cm->maxsize : 1, size = cm->size > 0 ? cm->size : 1;
  if (mg_colls[coll].reduction) return;
  for (int zb = ZB_SEND_TYPE; zb <= (is_a2av(coll) ? ZB_MIXED : ZB_RECV_TYPE); zb++) {
    if (zero_bytes_defect(coll, zb)) continue;
    tcase tc = {coll, cm, 0, 0, (zb + p - 2) % p % size, 0, 0, 0, 0, 0, 0, 0, 0, zb};
    run_case(&tc);
  }
}

static void gen_intra(int coll, const tcomm *cm) {
  int red = mg_colls[coll].reduction, rooted = mg_colls[coll].rooted;
  /* p: the same on every rank, so every rank generates the same number of cases */
  int nconf = red ? RC_EXACT : NVC, ipmax = ip_allowed(coll) ? 1 : 0, p = cm->maxsize, k = 0;
  int big_vc[3] = {red ? RC_INT_SUM : VC_INT, red ? RC_PSTRUCT_NC : VC_INT4_MIX,
                   red ? RC_PNEG_NC : VC_STRUCT_MIX};
  int sweep_vc = red ? RC_PNEG_NC : VC_INT4_MIX;
  if (!g_quick) {
    for (int v = 0; v < nconf; v++)
      for (int c = 0; c < NCF; c++)
        for (int ip = 0; ip <= ipmax; ip++, k++) run1(coll, cm, v, counts_full[c], k, ip, k, k / 3);
    for (int b = 0; b < 3; b++)
      for (int ip = 0; ip <= ipmax; ip++) run1(coll, cm, big_vc[b], big_n(coll, big_vc[b]), p - 1, ip, b, ip);
    if (rooted) /* a big message at a root in the middle: the pipelined point-to-point rows (16 KiB
                 * segments, the last one partial) run chains from both ends that meet there; a
                 * non-commutative op, with and without MPI_IN_PLACE */
      for (int ip = 0; ip <= ipmax; ip++) run1(coll, cm, big_vc[2], big_n(coll, big_vc[2]), p / 2, ip, ip, ip);
    if (rooted) /* every root, with and without MPI_IN_PLACE, every kind of non-root arguments */
      for (int root = 0; root < p; root++)
        for (int ip = 0; ip <= ipmax; ip++)
          for (int nr = 0; nr < 3; nr++) run1(coll, cm, sweep_vc, 3, root, ip, nr, nr);
    if (red) run_regular(coll, cm);
    if (red) run_exact_ops(coll, cm);
    run_adjacent(coll, cm, red ? RC_INT_SUM : VC_INT);
    run_adjacent(coll, cm, red ? RC_PNEG_NC : VC_STRUCT_MIX);
    if (coll == MG_REDUCE_SCATTER) run_recvcounts(coll, cm);
    if (coll == MG_ALLGATHERV) run_displs(coll, cm);
    if (is_v(coll)) run_vpatterns(coll, cm);
    if (few_comms(cm)) run_insignificant(coll, cm);
    if (few_comms(cm)) run_zero_bytes(coll, cm);
    return;
  }
  /* quick: every configuration twice on MPI_COMM_WORLD (with and without MPI_IN_PLACE, two
   * counts), count 0, the big messages, every root; a few mixed-type cases and every root on the
   * other communicators */
  if (cm == &comms[C_WORLD]) {
    for (int v = 0; v < nconf; v++)
      for (int ip = 0; ip <= 1; ip++, k++)
        run1(coll, cm, v, counts_quick[(v + 3 * ip) % NCQ], k, ip, k, k / 2);
    run1(coll, cm, 0, 0, 0, 0, 0, 0);
    run1(coll, cm, big_vc[1], 0, p - 1, 1, 1, 1);
    for (int b = 0; b < 3; b++) run1(coll, cm, big_vc[b], big_n(coll, big_vc[b]), p - 1 - b, b % 2, b, b);
    /* blocks above the eager limit of types mixing basic types of different sizes, in place too:
     * MPICH 4.0.2 hangs receiving MPI_PACKED into such a type (MPI_Sendrecv_replace does) */
    if (!red) run1(coll, cm, big_vc[2], big_n(coll, big_vc[2]), 0, 1, 0, 1);
    if (red) run_regular(coll, cm);
    run_adjacent(coll, cm, red ? RC_INT_SUM : VC_INT);
    run_adjacent(coll, cm, red ? RC_PNEG_NC : VC_STRUCT_MIX);
  } else {
    int few_dm[6] = {VC_INT, VC_INT4_MIX, VC_STRUCT_MIX, VC_UCHAR3_MIX, VC_INT_MIX, 1};
    int few_red[6] = {RC_INT_SUM, RC_PSTRUCT_NC, RC_PNEG_NC, RC_DOUBLE_SUM, RC_PVEC_UC, 2};
    for (int i = 0; i < 6; i++)
      run1(coll, cm, red ? few_red[i] : few_dm[i], counts_quick[(i + 3) % NCQ], i + 1, i, i, i);
  }
  if (red) run_exact_ops(coll, cm);
  if (red) /* count 1 with a non-commutative op on derived element types, on every communicator */
    for (int i = 0; i < 2; i++) run1(coll, cm, i ? RC_PSTRUCT_NC : RC_PCONTIG_NC, 1, p - 1 - i, i, 0, 0);
  if (rooted)
    for (int root = 0; root < p; root++)
      for (int ip = 0; ip <= ipmax; ip++) run1(coll, cm, sweep_vc, 3, root, ip, root + ip, root);
  if (coll == MG_REDUCE_SCATTER) run_recvcounts(coll, cm);
  if (coll == MG_ALLGATHERV) run_displs(coll, cm);
  if (is_v(coll)) run_vpatterns(coll, cm);
  if (few_comms(cm)) run_insignificant(coll, cm);
  if (few_comms(cm)) run_zero_bytes(coll, cm);
}

static void gen_inter(int coll, const tcomm *cm) {
  if (cm->comm == MPI_COMM_NULL) return;
  int rooted = mg_colls[coll].rooted;
  tcase tc = {coll, cm, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
#ifdef OMPI_MAJOR_VERSION
  /* Open MPI 4.1.4's own MPI_Exscan on an intercommunicator calls a NULL function (segfault)
   * instead of returning an error; the forced mock-ups fall back to it, so no case here */
  if (coll == MG_EXSCAN) return;
#endif
  run_case(&tc);
  if (coll == MG_SCAN || coll == MG_EXSCAN) return; /* erroneous: once is enough */
  if (rooted) {
    tc.iroot = 1;
    run_case(&tc);
    tc.iroot = 0;
  }
  if (coll == MG_ALLGATHERV || is_v(coll)) { /* over the remote group: uneven counts, then zeros, out of order */
    tc.rsc = RS_RAMP;
    tc.dsp = DP_SHUFFLED;
    run_case(&tc);
    tc.rsc = is_a2av(coll) ? AP_LOWER : RS_ZERO_EVEN;
    tc.dsp = DP_PER_RANK;
    tc.iroot = rooted;
    run_case(&tc);
    tc.iroot = 0;
    if (is_a2av(coll)) { /* one rank of the even group sends to and receives from every odd rank */
      tc.rsc = AP_ONE;
      tc.dsp = DP_REVERSED;
      run_case(&tc);
    }
    tc.rsc = RS_UNIFORM;
    tc.dsp = DP_GAPS;
  }
  tc.n = 0;
  run_case(&tc);
}

/* ------------------------------------------------------------------ reporting */

/* Combine the ranks' records of one algorithm; rank 0 prints one line and the
 * first failed cases. Returns whether any case failed on any rank. */
static int report(int coll, astat *s, const char *label, double secs) {
  size_t nbytes = ((size_t)g_ncase + 7) / 8 + 1;
  unsigned char *bits = calloc(nbytes, 1);
  if (!bits) mg_test_die("out of memory");
  if (s->bits) memcpy(bits, s->bits, nbytes < s->bitcap ? nbytes : s->bitcap);
  TEST_MPI(PMPI_Allreduce(MPI_IN_PLACE, bits, (int)nbytes, MPI_UNSIGNED_CHAR, MPI_BOR, MPI_COMM_WORLD));
  long kinds[K_N];
  TEST_MPI(PMPI_Allreduce(s->kinds, kinds, K_N, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
  long nfailed = 0, nip[2], ip[2] = {s->ninplace, s->nip_restricted};
  for (size_t i = 0; i < nbytes; i++) nfailed += __builtin_popcount(bits[i]);
  free(bits);
  /* a differential run: an in-place row must have run in place somewhere, not only passed calls
   * through (unless its restrictions keep every in-place call of this run away: p>1 at np 1) */
  TEST_MPI(PMPI_Allreduce(ip, nip, 2, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
  long ninplace = nip[0];
  int inplace_row = g_differential && s->alg && mg_colls[coll].algs[s->alg].family == MG_FAM_INPLACE &&
                    s->ncases > 0;
  int never = inplace_row && ninplace == 0 && nip[1] == 0;
  /* details of the first failures of every rank */
  struct det {
    long cn;
    int rank;
    char txt[DETLEN];
  } mine[NDET], *all = NULL;
  memset(mine, 0, sizeof mine);
  for (int i = 0; i < NDET; i++) {
    mine[i].cn = i < s->ndet ? s->detcase[i] : -1;
    mine[i].rank = g_rank;
    if (i < s->ndet) memcpy(mine[i].txt, s->det[i], DETLEN);
  }
  if (g_rank == 0) all = mg_test_malloc(sizeof mine * (size_t)g_np);
  TEST_MPI(PMPI_Gather(mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, 0, MPI_COMM_WORLD));
  if (g_rank == 0) {
    printf("diff %-21s %-42s np=%d cases=%ld", mg_colls[coll].name, label, g_np, s->ncases);
    if (s->nnoref) printf(" (%ld oracle-only)", s->nnoref);
    if (s->nskip) printf(" skipped=%ld", s->nskip);
    if (inplace_row) printf(" in-place=%ld", ninplace);
    if (s->nrestricted) printf(" (%ld fell back)", s->nrestricted);
    printf(" failed=%ld", nfailed);
    if (never) printf(" (never ran in place)");
    if (nfailed) {
      printf(" (rank-level:");
      for (int i = 0; i < K_N; i++)
        if (kinds[i]) printf(" %s %ld", kind_names[i], kinds[i]);
      printf(")");
    }
    printf(" %s %.3fs\n", nfailed || never ? "FAIL" : "ok", secs);
    /* the first failed cases, up to 3, each with up to 3 ranks' own descriptions */
    long last = -1;
    for (int shown = 0; shown < 3; shown++) {
      long next = -1;
      for (int i = 0; i < NDET * g_np; i++)
        if (all[i].cn > last && (next < 0 || all[i].cn < next)) next = all[i].cn;
      if (next < 0) break;
      int nranks = 0;
      for (int i = 0; i < NDET * g_np; i++) {
        if (all[i].cn != next) continue;
        if (nranks < 3 || g_verbose) printf("    case %ld rank %d: %s\n", next, all[i].rank, all[i].txt);
        nranks++;
      }
      if (nranks > 3 && !g_verbose)
        printf("    case %ld: and %d more rank(s) (-v shows all)\n", next, nranks - 3);
      last = next;
    }
    fflush(stdout);
    free(all);
  }
  return nfailed != 0 || never;
}

static void stat_init(astat *s, int coll, int alg) {
  free(s->bits);
  memset(s, 0, sizeof *s);
  s->alg = alg;
  s->name = alg_label(coll, alg);
  snprintf(s->spec, sizeof s->spec, "%s=%s", mg_colls[coll].name, s->name);
}

static void stats_init(int coll, unsigned mask) {
  g_nst = 0;
  for (int k = 0; k < mg_colls[coll].nalgs; k++) /* measure-only rows never run in the library: */
    if ((mask & (1u << k)) && !(mg_colls[coll].algs[k].restrictions & MG_R_MEASURE_ONLY)) /* reranktest */
      stat_init(&g_st[g_nst++], coll, k);
  stat_init(&g_lib, coll, 0);
}

static void stats_free(void) {
  for (int k = 0; k < g_nst; k++) free(g_st[k].bits);
  free(g_lib.bits);
  memset(g_st, 0, sizeof g_st);
  memset(&g_lib, 0, sizeof g_lib);
  g_nst = 0;
}

/* Every algorithm in turn, every case for it: consecutive calls of one algorithm
 * have different data, so a mock-up that reads stale scratch cannot pass by luck. */
static int run_coll(int coll, unsigned mask) {
  int bad = 0;
  stats_init(coll, mask);
  for (int k = 0; k < g_nst; k++) {
    g_cur = &g_st[k];
    g_ncase = 0;
    force(g_cur);
    double t0 = MPI_Wtime();
    for (int c = C_WORLD; c <= C_SELF; c++) gen_intra(coll, &comms[c]);
    gen_inter(coll, &comms[C_INTER]);
    TEST_MPI(mpiguide_force("") == MPIGUIDE_OK ? MPI_SUCCESS : MPI_ERR_OTHER);
    bad |= report(coll, g_cur, g_cur->name, MPI_Wtime() - t0);
  }
  /* the MPI library's own defects: printed, not counted against mpiguide */
  long lib = g_lib.kinds[K_MIS], lib_all = 0;
  TEST_MPI(PMPI_Allreduce(&lib, &lib_all, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD));
  if (lib_all) {
    char label[80];
    snprintf(label, sizeof label, "[P%s vs oracle]", mg_colls[coll].mpi_name);
    g_lib.ncases = g_st[0].ncases;
    report(coll, &g_lib, label, 0);
    if (g_rank == 0)
      printf("    (a defect of the MPI library, not of mpiguide: not counted in the verdict)\n");
  }
  stats_free();
  return bad;
}

/* ------------------------------------------------------------------ error pass-through */

/*
 * Erroneous calls on a duplicate of MPI_COMM_WORLD with MPI_ERRORS_RETURN, while
 * MPI_COMM_WORLD and MPI_COMM_SELF keep MPI_ERRORS_ARE_FATAL, as in an application
 * that handles errors on its own communicators: the call must return an error
 * whose class equals that of the MPI library's own PMPI_ call, and nothing of
 * libmpiguide may query an invalid handle first (MPI would raise that error on
 * MPI_COMM_WORLD's handler and abort the job). The invalid argument is one that is
 * significant on every rank, so an argument check fails everywhere and nothing
 * hangs. comm=MPI_COMM_NULL is raised on MPI_COMM_WORLD (or SELF) by the library
 * itself, so that one case runs with MPI_ERRORS_RETURN there.
 * Valid handles can make an erroneous call too: a predefined op on a datatype it is not
 * defined on (a derived one, a floating-point type for a bitwise op, a non-pair type for
 * MPI_MAXLOC; MPI_REPLACE and MPI_NO_OP, for one-sided accumulates only), MPI_IN_PLACE as
 * the receive buffer, an allreduce's send buffer that is its receive buffer. Both MPI
 * libraries refuse these on every rank before they communicate; a mock-up met the op's
 * error in PMPI_Reduce_local on the ranks that combine while the others waited in a
 * receive (issue 29), so every row runs them. check_op_table compares mg_op_defined with
 * what the library's own PMPI_Reduce_local refuses, for every predefined (datatype, op).
 * --no-force runs every case once with what the environment configured
 * (MPIGUIDE_TRACE alone, MPIGUIDE_PROFILE): the trace and tuned modes.
 * --world-returns: MPI_COMM_WORLD and MPI_COMM_SELF return errors too, so that an error
 * raised on their handler inside a mock-up (PMPI_Reduce_local's) comes back to the mock-up
 * instead of aborting the job, and a rank left waiting shows as a hang (the watchdog).
 */
enum {
  E_OPNULL, E_ROOT, E_STYPE, E_SCOUNT, E_RTYPE, E_RCOUNT, E_COUNT, E_DTYPE, E_COMM,
  E_OP_DERIVED, E_OP_TYPE, E_OP_LOC, E_OP_REPLACE, E_OP_NOOP, E_RBUF_INPLACE, E_ALIAS, E_NULLBUF, E_UNCOMMITTED, E_N
};
static const char *ecase_names[E_N] = {"op=MPI_OP_NULL",
                                       "root=size",
                                       "sendtype=MPI_DATATYPE_NULL (alltoallw: sendtypes[p-1])",
                                       "sendcount=-1 (alltoallv/w: sendcounts[p-1]=-1)",
                                       "recvtype=MPI_DATATYPE_NULL (alltoallw: recvtypes[p-1])",
                                       "recvcount=-1 (allgatherv, alltoallv/w: recvcounts[p-1]=-1)",
                                       "count=-1 (send and receive; reduce_scatter, allgatherv: "
                                       "recvcounts[p-1]=-1; gatherv: sendcount and recvcounts[p-1], "
                                       "scatterv: sendcounts[p-1] and recvcount, alltoallv/w: both arrays)",
                                       "datatype=MPI_DATATYPE_NULL (send and receive; alltoallw: every "
                                       "entry)",
                                       "comm=MPI_COMM_NULL",
                                       "op=MPI_SUM on vector(2,1,2,unsigned), count 2",
                                       "op=MPI_BAND on MPI_DOUBLE",
                                       "op=MPI_MAXLOC on MPI_INT",
                                       "op=MPI_REPLACE on MPI_INT",
                                       "op=MPI_NO_OP on MPI_INT",
                                       "recvbuf=MPI_IN_PLACE",
                                       "sendbuf=recvbuf",
                                       "sendbuf=NULL, count 5 of MPI_INT (bcast: buffer)",
                                       "datatype=contiguous(1,int) not committed (reductions: a user op)"};
static int g_noforce;       /* --no-force */
static int g_world_returns; /* --world-returns */

static int ecase_applies(int coll, int e) {
  int red = mg_colls[coll].reduction, rooted = mg_colls[coll].rooted;
  int two_sided = !red && coll != MG_BCAST; /* separate send and receive arguments */
  switch (e) {
  case E_OPNULL: case E_OP_DERIVED: case E_OP_TYPE: case E_OP_LOC: case E_OP_REPLACE: case E_OP_NOOP: return red;
  case E_ROOT: return rooted;
  /* significant on every rank: the receive buffer everywhere but at bcast, reduce, gather(v) and
   * scatter(v) (registry.h, MG_RECV_EVERYWHERE) */
  /* only with --world-returns: Open MPI 4.1.4's MPI_Allreduce raises both on MPI_COMM_WORLD's handler */
  case E_RBUF_INPLACE:
    if (!g_world_returns) return 0;
#ifdef OMPI_MAJOR_VERSION
    /* Open MPI 4.1.4's own MPI_Exscan takes it on rank 0 and crashes on the others */
    if (coll == MG_EXSCAN) return 0;
#endif
    return (MG_RECV_EVERYWHERE >> coll) & 1u;
  case E_ALIAS: return g_world_returns && coll == MG_ALLREDUCE; /* Open MPI 4.1.4 refuses it there only */
  case E_UNCOMMITTED:
#ifdef OMPI_MAJOR_VERSION
    /* Open MPI 4.1.4's own MPI_Scatter takes it, its MPI_Scatterv hangs */
    if (coll == MG_SCATTER || coll == MG_SCATTERV) return 0;
#endif
    return 1;
  case E_NULLBUF: /* MPICH 4.0.2 refuses it (Open MPI 4.1.4 crashes in its own call) */
#ifdef MPICH_VERSION
    return (MG_SEND_EVERYWHERE >> coll) & 1u;
#else
    return 0;
#endif
  /* one side invalid: only where that side is significant on every rank */
  case E_STYPE:
  case E_SCOUNT: return two_sided && coll != MG_SCATTER && coll != MG_SCATTERV;
  case E_RTYPE: return two_sided && coll != MG_GATHER && coll != MG_GATHERV;
  case E_RCOUNT:
#ifdef OMPI_MAJOR_VERSION
    /* Open MPI 4.1.4's own MPI_Allgatherv does not check recvcounts: a negative entry segfaults
     * in its ring algorithm (count=-1 is still tested: there the negative sendcount is caught) */
    if (coll == MG_ALLGATHERV) return 0;
#endif
    return two_sided && coll != MG_GATHER && coll != MG_GATHERV;
#ifdef OMPI_MAJOR_VERSION
  /* Open MPI 4.1.4's own MPI_Allgather segfaults on MPI_COMM_NULL */
  case E_COMM: return coll != MG_ALLGATHER;
#endif
#ifdef MPICH_VERSION
  /* MPICH 4.0.2's own reductions do not check the count: -1 crashes them */
  case E_COUNT: return !red;
#endif
  default: return 1;
  }
}

static void run_ecase(astat *s, int coll, int e, MPI_Comm comm, long cn) {
  int p, n = e == E_OP_DERIVED ? 2 : 5;
  MPI_Comm_size(comm, &p);
  targs a;
  memset(&a, 0, sizeof a);
  a.comm = e == E_COMM ? MPI_COMM_NULL : comm;
  const ttype *t = &types[e == E_OP_DERIVED ? T_P_VEC : e == E_OP_TYPE ? T_DOUBLE : T_INT];
  mk_send(&a, t, (size_t)p * n);
  memset(a.S.mem, 0, a.S.len);
  finish_send(&a);
  mk_recv(&a, t, (size_t)p * n);
  a.scount = a.rcount = n;
  a.stype = a.rtype = t->dt;
  a.op = e == E_OP_TYPE ? MPI_BAND : e == E_OP_LOC ? MPI_MAXLOC : e == E_OP_REPLACE ? MPI_REPLACE
         : e == E_OP_NOOP ? MPI_NO_OP : MPI_SUM;
  a.root = 0;
  /* reduce_scatter, allgatherv, the irregular collectives: n to and from every rank, in rank order
   * (alltoallw: displacements in bytes) */
  int dunit = coll == MG_ALLTOALLW ? (int)sizeof(int) : 1;
  a.rcounts = mg_test_malloc((size_t)p * sizeof *a.rcounts);
  a.rdispls = mg_test_malloc((size_t)p * sizeof *a.rdispls);
  a.scounts = mg_test_malloc((size_t)p * sizeof *a.scounts);
  a.sdispls = mg_test_malloc((size_t)p * sizeof *a.sdispls);
  a.stypes = types_fill(p, t->dt);
  a.rtypes = types_fill(p, t->dt);
  for (int j = 0; j < p; j++) {
    a.rcounts[j] = a.scounts[j] = n;
    a.rdispls[j] = a.sdispls[j] = j * n * dunit;
  }
  /* arrays: one bad entry, the last rank's, on every rank. Gatherv's recvcounts and scatterv's
   * sendcounts count at the root only: their count=-1 cases make the other side's count invalid
   * everywhere too, so no rank goes on alone (ecase_applies leaves out the root-only sides) */
  switch (e) {
  case E_OPNULL: a.op = MPI_OP_NULL; break;
  case E_ROOT: a.root = p; break;
  case E_STYPE:
    a.stype = MPI_DATATYPE_NULL;
    a.stypes[p - 1] = MPI_DATATYPE_NULL;
    break;
  case E_SCOUNT:
    a.scount = -1;
    a.scounts[p - 1] = -1;
    break;
  case E_RTYPE:
    a.rtype = MPI_DATATYPE_NULL;
    a.rtypes[p - 1] = MPI_DATATYPE_NULL;
    break;
  case E_RCOUNT:
    a.rcount = -1;
    a.rcounts[p - 1] = -1;
    break;
  case E_COUNT:
    a.scount = a.rcount = -1;
    a.rcounts[p - 1] = a.scounts[p - 1] = -1;
    break;
  case E_DTYPE:
    a.stype = a.rtype = MPI_DATATYPE_NULL;
    for (int j = 0; j < p; j++) a.stypes[j] = a.rtypes[j] = MPI_DATATYPE_NULL;
    break;
  case E_RBUF_INPLACE: a.rinplace = 1; break;
  case E_ALIAS: a.alias = 1; break;
  case E_UNCOMMITTED:
    TEST_MPI(MPI_Type_contiguous(1, MPI_INT, &a.stype));
    a.rtype = a.stype;
    a.op = ops[OP_UCOMM];
    for (int j = 0; j < p; j++) a.stypes[j] = a.rtypes[j] = a.stype;
    break;
  case E_NULLBUF:
    a.sbuf = NULL;
    if (coll == MG_BCAST) a.has_r = 0; /* do_call passes the receive buffer: NULL */
    break;
  default: break;
  }
  snprintf(a.desc, sizeof a.desc, "erroneous call %s", ecase_names[e]);
  if (g_trace) {
    fprintf(stderr, "[rank %d] %s case %ld %s\n", g_rank, s->name, cn, a.desc);
    fflush(stderr);
  }
  s->ncases++;
  mg_test_watch("%s case %ld: %s", s->spec, cn, a.desc);
  if (e == E_COMM) { /* raised on MPI_COMM_WORLD (MPI-3) or MPI_COMM_SELF (MPI-4) */
    TEST_MPI(PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
    TEST_MPI(PMPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  }
  memcpy(a.R[1].mem, a.I.mem, a.I.len);
  int rc_ref = do_call(1, coll, &a, &a.R[1]);
  memcpy(a.R[0].mem, a.I.mem, a.I.len);
  int rc = do_call(0, coll, &a, &a.R[0]);
  if (e == E_COMM && !g_world_returns) {
    TEST_MPI(PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    TEST_MPI(PMPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
  }
  alarm(0);
  if (e == E_UNCOMMITTED) MPI_Type_free(&a.stype);
  int c_ref = -1, c_got = -1;
  if (rc_ref != MPI_SUCCESS) MPI_Error_class(rc_ref, &c_ref);
  if (rc != MPI_SUCCESS) MPI_Error_class(rc, &c_got);
  if (rc_ref == MPI_SUCCESS) {
    fail(s, cn, K_OTH, a.desc, "the reference PMPI_ call succeeded: not an erroneous call here");
  } else if (rc == MPI_SUCCESS) {
    fail(s, cn, K_ERR, a.desc, "%s returned MPI_SUCCESS, PMPI_ returned %s", mg_colls[coll].mpi_name,
         err_text(rc_ref));
  } else if (c_got != c_ref) {
    char ref[200];
    snprintf(ref, sizeof ref, "%s", err_text(rc_ref));
    fail(s, cn, K_ERR, a.desc, "%s returned %s, PMPI_ returned %s", mg_colls[coll].mpi_name, err_text(rc),
         ref);
  }
  targs_free(&a);
}

/*
 * mg_op_defined (the registry's table of the (op, datatype) pairs MPI defines) against the MPI
 * library: every pair it sends to a mock-up must be one the library's own PMPI_Reduce_local
 * accepts (count 0: both libraries check the pair before anything else, as their collectives
 * do), else a mock-up would meet the library's MPI_ERR_OP on the ranks that combine. Pairs the
 * library accepts and the table does not run the default: counted, not a failure. Every
 * predefined datatype of the C binding, the Fortran ones included.
 */
static int check_op_table(void) {
  static const struct {
    MPI_Datatype dt;
    const char *name;
  } dts[] = {
#define D(t) {t, #t}
      D(MPI_CHAR), D(MPI_SHORT), D(MPI_INT), D(MPI_LONG), D(MPI_LONG_LONG_INT), D(MPI_LONG_LONG),
      D(MPI_SIGNED_CHAR), D(MPI_UNSIGNED_CHAR), D(MPI_UNSIGNED_SHORT), D(MPI_UNSIGNED), D(MPI_UNSIGNED_LONG),
      D(MPI_UNSIGNED_LONG_LONG), D(MPI_FLOAT), D(MPI_DOUBLE), D(MPI_LONG_DOUBLE), D(MPI_WCHAR), D(MPI_C_BOOL),
      D(MPI_INT8_T), D(MPI_INT16_T), D(MPI_INT32_T), D(MPI_INT64_T), D(MPI_UINT8_T), D(MPI_UINT16_T),
      D(MPI_UINT32_T), D(MPI_UINT64_T), D(MPI_AINT), D(MPI_COUNT), D(MPI_OFFSET), D(MPI_C_COMPLEX),
      D(MPI_C_FLOAT_COMPLEX), D(MPI_C_DOUBLE_COMPLEX), D(MPI_C_LONG_DOUBLE_COMPLEX), D(MPI_BYTE), D(MPI_PACKED),
      D(MPI_CXX_BOOL), D(MPI_CXX_FLOAT_COMPLEX), D(MPI_CXX_DOUBLE_COMPLEX), D(MPI_CXX_LONG_DOUBLE_COMPLEX),
      D(MPI_FLOAT_INT), D(MPI_DOUBLE_INT), D(MPI_LONG_INT), D(MPI_2INT), D(MPI_SHORT_INT), D(MPI_LONG_DOUBLE_INT),
      D(MPI_INTEGER), D(MPI_REAL), D(MPI_DOUBLE_PRECISION), D(MPI_COMPLEX), D(MPI_LOGICAL), D(MPI_CHARACTER),
      D(MPI_DOUBLE_COMPLEX), D(MPI_INTEGER1), D(MPI_INTEGER2), D(MPI_INTEGER4), D(MPI_INTEGER8),
      D(MPI_REAL4), D(MPI_REAL8), D(MPI_REAL16), D(MPI_COMPLEX8),
      D(MPI_COMPLEX16), D(MPI_COMPLEX32), D(MPI_2REAL), D(MPI_2DOUBLE_PRECISION), D(MPI_2INTEGER),
#undef D
  };
  static const struct {
    MPI_Op op;
    const char *name;
  } pops[] = {{MPI_SUM, "MPI_SUM"},   {MPI_PROD, "MPI_PROD"},     {MPI_MIN, "MPI_MIN"},         {MPI_MAX, "MPI_MAX"},
              {MPI_LAND, "MPI_LAND"}, {MPI_LOR, "MPI_LOR"},       {MPI_LXOR, "MPI_LXOR"},       {MPI_BAND, "MPI_BAND"},
              {MPI_BOR, "MPI_BOR"},   {MPI_BXOR, "MPI_BXOR"},     {MPI_MAXLOC, "MPI_MAXLOC"},   {MPI_MINLOC, "MPI_MINLOC"},
              {MPI_REPLACE, "MPI_REPLACE"}, {MPI_NO_OP, "MPI_NO_OP"}};
  long long in[8] = {0}, inout[8] = {0};
  int bad = 0, ours = 0, lib_only = 0;
  /* PMPI_Reduce_local raises its errors on MPI_COMM_WORLD (Open MPI 4.1.4) or MPI_COMM_SELF */
  TEST_MPI(PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  TEST_MPI(PMPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN));
  for (size_t i = 0; i < sizeof dts / sizeof dts[0]; i++) {
    if (dts[i].dt == MPI_DATATYPE_NULL) continue; /* not in this build */
    for (size_t j = 0; j < sizeof pops / sizeof pops[0]; j++) {
      int lib = PMPI_Reduce_local(in, inout, 0, dts[i].dt, pops[j].op) == MPI_SUCCESS;
      int mine = mg_op_defined(pops[j].op, dts[i].dt);
      ours += mine, lib_only += lib && !mine;
      if (mine && !lib) {
        bad = 1;
        if (g_rank == 0)
          printf("  FAIL op table: %s on %s goes to a mock-up, but the library refuses it\n", pops[j].name,
                 dts[i].name);
      }
    }
  }
  if (!g_world_returns) {
    TEST_MPI(PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL));
    TEST_MPI(PMPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL));
  }
  if (g_rank == 0)
    printf("%s op table: %d predefined (op, datatype) pairs may run a mock-up%s; %d more the library "
           "accepts run the default\n",
           bad ? "FAIL" : "ok  ", ours, bad ? ", some the library refuses" : ", all accepted by the library",
           lib_only);
  return bad;
}

static int run_errors(int coll, unsigned mask) {
  MPI_Comm comm;
  int bad = 0;
  TEST_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  TEST_MPI(MPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN));
  stats_init(coll, g_noforce ? 1u : mask);
  for (int k = 0; k < g_nst; k++) {
    astat *s = &g_st[k];
    g_ncase = 0;
    if (g_noforce)
      s->name = "(as configured by the environment)";
    else
      force(s);
    double t0 = MPI_Wtime();
    for (int e = 0; e < E_N; e++)
      if (ecase_applies(coll, e)) run_ecase(s, coll, e, comm, g_ncase++);
    if (!g_noforce) TEST_MPI(mpiguide_force("") == MPIGUIDE_OK ? MPI_SUCCESS : MPI_ERR_OTHER);
    bad |= report(coll, s, s->name, MPI_Wtime() - t0);
  }
  stats_free();
  MPI_Comm_free(&comm);
  return bad;
}

/* ------------------------------------------------------------------ main */

static void usage(void) {
  if (g_rank) return;
  fprintf(stderr, "usage: difftest [--quick] [-v] [--trace] [--cases A[-[B]]] [--watchdog SECONDS]\n"
                  "                <collective>[=<algorithm>] ... | all\n"
                  "       difftest --errors [--no-force] [--world-returns] [<collective>[=<algorithm>] ...]\n"
                  "       difftest --write-profile FILE | --list FILE\ncollectives:");
  for (int i = 0; i < MG_NCOLL; i++) fprintf(stderr, " %s", mg_colls[i].name);
  fprintf(stderr, "\n");
}

/* A profile that sends every call of every collective, at any process count and size,
 * to the collective's last registry row: the tuned-mode error test runs with it. A collective
 * whose message size not every rank knows (gatherv, scatterv, alltoallv/w) has rules for every
 * size only, written '*' (the reader refuses any narrower range); the others' as 0-*. */
static int write_profile(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return perror(path), 2;
  fprintf(f, "mpiguide-profile 1\n# written by difftest --write-profile: every call to a mock-up\n");
  for (int c = 0; c < MG_NCOLLECTIVES; c++) {
    int a = mg_colls[c].nalgs - 1; /* the last row a profile may name (not a measure-only one) */
    while (a > 0 && (mg_colls[c].algs[a].restrictions & MG_R_MEASURE_ONLY)) a--;
    if (a > 0) /* a collective with the default alone has nothing to tune */
      fprintf(f, "%s np=* %s %s\n", mg_colls[c].name, mg_colls[c].known ? "0-*" : "*", mg_colls[c].algs[a].name);
  }
  return fclose(f) == 0 ? 0 : 2;
}

/* The registry's collectives, one line each: "name reduction(0|1)". CTest reads this
 * list (tests/diff/difftests.cmake) to make one test per collective and process count. */
static int write_list(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return perror(path), 2;
  for (int c = 0; c < MG_NCOLLECTIVES; c++)
    if (c != MG_BARRIER) fprintf(f, "%s %d\n", mg_colls[c].name, mg_colls[c].reduction);
  return fclose(f) == 0 ? 0 : 2;
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--write-profile")) return write_profile(argv[2]);
  if (argc == 3 && !strcmp(argv[1], "--list")) return write_list(argv[2]);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  mg_test_mpi_start("difftest");
  MPI_Comm_size(MPI_COMM_WORLD, &g_np);

  unsigned sel[MG_NCOLL] = {0};
  int errors = 0, any = 0;
  g_differential = 1;
  for (int i = 1; i < argc; i++) {
    const char *arg = argv[i];
    if (!strcmp(arg, "--quick"))
      g_quick = 1;
    else if (!strcmp(arg, "--full"))
      g_quick = 0;
    else if (!strcmp(arg, "--errors"))
      errors = 1, g_differential = 0;
    else if (!strcmp(arg, "--no-force"))
      g_noforce = 1;
    else if (!strcmp(arg, "--world-returns"))
      g_world_returns = 1;
    else if (!strcmp(arg, "-v"))
      g_verbose = 1;
    else if (!strcmp(arg, "--trace"))
      g_trace = 1;
    else if (!strcmp(arg, "--watchdog") && i + 1 < argc)
      mg_test_watch_seconds = atoi(argv[++i]);
    else if (!strcmp(arg, "--cases") && i + 1 < argc) {
      char *end;
      g_first = g_last = strtol(argv[++i], &end, 10);
      if (*end == '-') g_last = end[1] ? strtol(end + 1, NULL, 10) : -1;
    } else if (!strcmp(arg, "all")) {
      for (int c = 0; c < MG_NCOLLECTIVES; c++) sel[c] = c == MG_BARRIER ? 0 : ~0u;
      any = 1;
    } else {
      char name[128];
      snprintf(name, sizeof name, "%s", arg);
      char *eq = strchr(name, '=');
      if (eq) *eq++ = '\0';
      int c = mg_coll_find(name);
      int alg = c >= 0 && eq ? mg_alg_find((mg_coll)c, eq) : 0;
      if (c == MG_BARRIER) { /* no data to compare: barriertest.c tests its one promise */
        if (!g_rank) fprintf(stderr, "difftest: barrier moves no data; tests/diff/barriertest.c tests it\n");
        MPI_Finalize();
        return 2;
      }
      if (c < 0 || alg < 0) {
        if (!g_rank) fprintf(stderr, "difftest: unknown %s '%s'\n", c < 0 ? "collective" : "algorithm", arg);
        usage();
        MPI_Finalize();
        return 2;
      }
      sel[c] |= eq ? 1u << alg : ~0u;
      any = 1;
    }
  }
  if ((!any && !errors) || (g_noforce && !errors)) {
    usage();
    MPI_Finalize();
    return 2;
  }
  /* Differential cases: errors come back as return codes (derived communicators
   * inherit this). The error cases keep the fatal default on MPI_COMM_WORLD and
   * MPI_COMM_SELF (run_errors). */
  if (!errors || g_world_returns) {
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  }
  if (!any)
    for (int c = 0; c < MG_NCOLLECTIVES; c++) sel[c] = c == MG_BARRIER ? 0 : ~0u;
  if (g_rank == 0) {
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    char *nl = strchr(lib, '\n');
    if (nl) *nl = '\0';
    printf("difftest: %s; np=%d; %s%s\n", lib, g_np,
           errors ? "error pass-through cases" : "differential cases", g_quick ? " (quick)" : "");
    if (getenv("MPIGUIDE_SCRATCH_MAX"))
      printf(
          "difftest: note: MPIGUIDE_SCRATCH_MAX is set; scratch-cap fallbacks count as counter failures\n");
    fflush(stdout);
  }
  make_types();
  TEST_MPI(MPI_Type_contiguous(0, MPI_INT, &g_empty));
  TEST_MPI(MPI_Type_commit(&g_empty));
  check_families();
  TEST_MPI(MPI_Op_create(op_ucomm_fn, 1, &ops[OP_UCOMM]));
  TEST_MPI(MPI_Op_create(op_noncomm_fn, 0, &ops[OP_NONCOMM]));
  ops[OP_SUM] = MPI_SUM;
  ops[OP_MAX] = MPI_MAX;
  ops[OP_BOR] = MPI_BOR;
  ops[OP_PROD] = MPI_PROD;
  ops[OP_MIN] = MPI_MIN;
  ops[OP_LAND] = MPI_LAND;
  ops[OP_LOR] = MPI_LOR;
  ops[OP_LXOR] = MPI_LXOR;
  ops[OP_BAND] = MPI_BAND;
  ops[OP_BXOR] = MPI_BXOR;
  if (rcs[RC_LOC].op != OP_MINLOC || rcs[RC_LOC - 1].op == OP_MINLOC) mg_test_die("difftest: RC_LOC is not the first pair");
  ops[OP_MINLOC] = MPI_MINLOC;
  ops[OP_MAXLOC] = MPI_MAXLOC;
  make_comms();

  int bad = errors ? check_op_table() : 0;
  for (int c = 0; c < MG_NCOLL; c++) {
    if (!sel[c]) continue;
    bad |= errors ? run_errors(c, sel[c]) : run_coll(c, sel[c]);
  }

  int bad_all = 0;
  TEST_MPI(PMPI_Allreduce(&bad, &bad_all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  if (g_rank == 0) printf("difftest: %s\n", bad_all ? "FAILED" : "all passed");
  free_comms();
  MPI_Op_free(&ops[OP_UCOMM]);
  MPI_Op_free(&ops[OP_NONCOMM]);
  free_types();
  MPI_Type_free(&g_empty);
  free(g_opbuf);
  MPI_Finalize();
  return bad_all ? 1 : 0;
}
