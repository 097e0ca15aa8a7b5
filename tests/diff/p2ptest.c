/*
 * p2ptest: the differential test of libmpiguide's point-to-point rows (registry.h, MG_P2P_OPS;
 * src/algs/pt2pt.c), the companion of difftest.c for the collectives.
 *
 * For one operation (send, ssend, rsend, isend, recv, irecv, sendrecv, sendrecv_replace) and each
 * of its registry rows, every case runs twice with identical arguments and data: once with the
 * operation under test called as PMPI_<Op> (the MPI library's own, the reference) and once as
 * MPI_<Op> with the row forced by mpiguide_force(). The peers' side of a case is always a PMPI_
 * call, so only the tested side changes. A case passes on a rank when its record, everything the
 * rank can observe, is byte for byte the same in both runs:
 *  - the error class of every call (MPI_ERRORS_RETURN on the test's communicator): truncation
 *    (MPI_ERR_TRUNCATE), invalid rank, tag and count;
 *  - the status: MPI_SOURCE, MPI_TAG, MPI_Get_count and MPI_Get_elements with the receive type
 *    (a successful receive only; the status of a failed call is not defined), or nothing when the
 *    receive passes MPI_STATUS_IGNORE; a receive from MPI_PROC_NULL must also give source
 *    MPI_PROC_NULL, tag MPI_ANY_TAG and count 0 (where the library's own call does not, a note
 *    names the defect of the MPI library: MPICH 4.0.2's MPI_Irecv + MPI_Wait gives source 0, tag 0);
 *  - the whole receive allocation: guard bytes on both sides and the gaps of derived datatypes
 *    start from a sentinel image, so a write into a gap or past the message shows;
 *  - after an erroneous or truncated call: the messages left over (every rank probes and drains
 *    what is still queued for it, source, tag and size), so a mock-up that sent what the library
 *    would not, or consumed a message the library would have left (the "bait" each error case
 *    sends), or left a request behind, fails; then one more clean exchange must work.
 * The send buffer must be unchanged (gaps included) in both runs. In the forced run the row must
 * have run (libmpiguide's counters) for every valid call with a non-empty message, the default for
 * the others.
 *
 * Cases: datatypes (predefined, vector with gaps, a vector sent and received as contiguous ints,
 * struct with gaps, resized with a negative lower bound), counts 0, 1, 7 and a message of about
 * 200 KB (a rendezvous protocol in both MPI libraries), MPI_ANY_SOURCE and MPI_ANY_TAG on the
 * receiving side, MPI_STATUS_IGNORE, a receive buffer larger than the message, truncation,
 * MPI_PROC_NULL as destination and source, neighbours at distance 1 and 2 (source != dest), many
 * messages of different tags matched out of order, invalid ranks, tags and counts; sendrecv in a
 * ring (all ranks at once, large messages: MPI_Sendrecv must not deadlock), in a chain ending at
 * MPI_PROC_NULL, with even ranks through the library and odd ranks through PMPI, and with only
 * some ranks truncating.
 *
 * Measure-only rows (MG_R_MEASURE_ONLY: libmpiguide never runs them) of the send operations are run
 * as the benchmark runs them: the row's function on the sender and its recv_side (or a plain
 * receive) on the receiver, on a communicator of rank pairs (0,1), (2,3) in both directions; all
 * measure-only rows are also forced through MPI_<Op>, where the default must run with the fallback
 * reason "measure_only".
 *
 * Errors: MPI_COMM_WORLD keeps its fatal handler, so a row that raises an error on it (MPICH's
 * MPI_Wait does, src/algs/pt2pt.c) aborts the test; --world-returns sets MPI_ERRORS_RETURN on it
 * too, the case where MPICH's sendrecv_as_irecv_send_wait runs its own body for every call.
 *
 * --no-force: each operation once, through MPI_<Op> in the mode the environment set (tuned mode with
 * MPIGUIDE_PROFILE: the wrappers' fast path, lib.h mg_tuned_default_p2p, and the rules that fire),
 * without counters.
 *
 * Usage: p2ptest [--quick] [--no-force] [--world-returns] [--watchdog S] [-v] <op>[=<alg>] ...
 *        p2ptest --list FILE   (no MPI: the point-to-point operations, for CTest)
 * Exit code 0 when every rank saw every case pass, 1 otherwise.
 */
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "common/test_mpi.h"
#include "mpiguide.h"
#include "algs/algs.h" /* mg_core_init: the rows run directly use mgcore's own state */
#include "registry/datatype.h"
#include "registry/registry.h"

static int g_rank, g_np, g_quick, g_verbose;
static int g_noforce; /* --no-force: the environment's mode (a profile) decides, no counters */
static int g_tag_ub;
static MPI_Comm g_comm; /* MPI_COMM_WORLD's duplicate with MPI_ERRORS_RETURN */

/* ------------------------------------------------------------------ utilities */

static uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

static int err_class(int rc) {
  int cls = -1;
  if (rc == MPI_SUCCESS) return MPI_SUCCESS;
  PMPI_Error_class(rc, &cls);
  return cls;
}

/* ------------------------------------------------------------------ datatypes */

#define TEST_TYPES(X)                                          \
  X(BYTE, "MPI_BYTE")                                          \
  X(INT, "MPI_INT")                                            \
  X(DOUBLE, "MPI_DOUBLE")                                      \
  X(VEC, "vector(3,2,3,int)_resized(ext=40)")                  \
  X(C6, "contiguous(6,int)")                                   \
  X(STRUCT, "struct{int@0,double@8,char@16}(ext=24)")          \
  X(NEGLB, "struct{int@-8}_resized(lb=-12,ext=16)")

enum {
#define X(E, n) T_##E,
  TEST_TYPES(X)
#undef X
      T_N
};
static const char *type_names[T_N] = {
#define X(E, n) n,
    TEST_TYPES(X)
#undef X
};
static MPI_Datatype types[T_N];
static mg_type tinfo[T_N];

static MPI_Datatype resized(MPI_Datatype t, MPI_Aint lb, MPI_Aint extent) {
  MPI_Datatype r;
  TEST_MPI(PMPI_Type_create_resized(t, lb, extent, &r));
  PMPI_Type_free(&t);
  return r;
}

static void make_types(void) {
  MPI_Datatype t;
  types[T_BYTE] = MPI_BYTE, types[T_INT] = MPI_INT, types[T_DOUBLE] = MPI_DOUBLE;
  TEST_MPI(PMPI_Type_vector(3, 2, 3, MPI_INT, &t)); /* 6 ints, gaps inside and between elements */
  types[T_VEC] = resized(t, 0, 40);
  TEST_MPI(PMPI_Type_contiguous(6, MPI_INT, &types[T_C6])); /* the same signature, dense */
  TEST_MPI(PMPI_Type_create_struct(3, (int[]){1, 1, 1}, (MPI_Aint[]){0, 8, 16},
                                (MPI_Datatype[]){MPI_INT, MPI_DOUBLE, MPI_CHAR}, &t));
  types[T_STRUCT] = resized(t, 0, 24);
  TEST_MPI(PMPI_Type_create_struct(1, (int[]){1}, (MPI_Aint[]){-8}, (MPI_Datatype[]){MPI_INT}, &t));
  types[T_NEGLB] = resized(t, -12, 16);
  for (int i = 0; i < T_N; i++) {
    if (i >= T_VEC) TEST_MPI(PMPI_Type_commit(&types[i]));
    TEST_MPI(mg_type_get(types[i], &tinfo[i]));
  }
}

static void free_types(void) {
  for (int i = T_VEC; i < T_N; i++) PMPI_Type_free(&types[i]);
}

/* A typed buffer: `count` elements of type `t` with GUARD bytes on either side of their true
 * extent; org is the address passed to MPI. */
#define GUARD 64
typedef struct tbuf {
  char *mem, *org;
  size_t len;
} tbuf;

static void tb_make_tail(tbuf *b, int t, int count, unsigned seed, int sentinel, size_t tail) {
  size_t span = count > 0 ? mg_type_span(&tinfo[t], (size_t)count) : 0;
  b->len = span + 2 * GUARD + tail;
  b->mem = mg_test_malloc(b->len);
  b->org = b->mem + GUARD - (count > 0 ? tinfo[t].true_lb : 0);
  for (size_t i = 0; i < b->len; i++)
    b->mem[i] = sentinel ? (char)(0xA5 ^ (i * 7)) : (char)(mix64(((uint64_t)seed << 32) + i) & 0xff);
}

static void tb_make(tbuf *b, int t, int count, unsigned seed, int sentinel) {
  tb_make_tail(b, t, count, seed, sentinel, 0);
}

/* Room after a receive buffer that a truncated message may be written into: Open MPI 4.1.4 writes
 * a truncated message past the end of the receive buffer when it arrives by single-copy (CMA get)
 * rendezvous; both runs must write the same there, so it is compared like the rest. */
static size_t trunc_tail(int t, int count) { return count > 0 ? mg_type_span(&tinfo[t], (size_t)count) : 0; }

static void tb_free(tbuf *b) { free(b->mem), b->mem = NULL; }

/* ------------------------------------------------------------------ records */

/* What a rank observed in one run of a case: labelled items, compared between the two runs. */
typedef struct item {
  char label[40];
  size_t len;
  unsigned char *data;
} item;
typedef struct record {
  item *v;
  int n, cap;
} record;

static void rec_add(record *r, const char *label, const void *data, size_t len) {
  if (r->n == r->cap) {
    r->cap = r->cap ? 2 * r->cap : 16;
    r->v = realloc(r->v, (size_t)r->cap * sizeof *r->v);
    if (!r->v) mg_test_die("out of memory");
  }
  item *it = &r->v[r->n++];
  snprintf(it->label, sizeof it->label, "%s", label);
  it->len = len;
  it->data = mg_test_malloc(len);
  memcpy(it->data, data, len);
}

static void rec_int(record *r, const char *label, int v) { rec_add(r, label, &v, sizeof v); }

static void rec_free(record *r) {
  for (int i = 0; i < r->n; i++) free(r->v[i].data);
  free(r->v);
  memset(r, 0, sizeof *r);
}

/* The first difference between two records, described into out; 0 when equal. */
static int rec_diff(const record *a, const record *b, char *out, size_t outlen) {
  int n = a->n < b->n ? a->n : b->n;
  for (int i = 0; i < n; i++) {
    const item *x = &a->v[i], *y = &b->v[i];
    if (strcmp(x->label, y->label) || x->len != y->len) {
      snprintf(out, outlen, "item %d: '%s' (%zu bytes) in the library's run, '%s' (%zu bytes) with the row", i,
               x->label, x->len, y->label, y->len);
      return 1;
    }
    if (memcmp(x->data, y->data, x->len)) {
      if (x->len == sizeof(int)) {
        int u, w;
        memcpy(&u, x->data, sizeof u), memcpy(&w, y->data, sizeof w);
        snprintf(out, outlen, "%s: %d in the library's run, %d with the row", x->label, u, w);
      } else {
        size_t k = 0, nd = 0;
        while (x->data[k] == y->data[k]) k++;
        for (size_t j = k; j < x->len; j++) nd += x->data[j] != y->data[j];
        snprintf(out, outlen, "%s: %zu of %zu bytes differ, the first at byte %zu (0x%02x, with the row 0x%02x)",
                 x->label, nd, x->len, k, x->data[k], y->data[k]);
      }
      return 1;
    }
  }
  if (a->n != b->n) {
    snprintf(out, outlen, "%d items in the library's run, %d with the row", a->n, b->n);
    return 1;
  }
  return 0;
}

/* The status of a receive from MPI_PROC_NULL as the standard defines it: source MPI_PROC_NULL, tag
 * MPI_ANY_TAG, count 0. Checked in both runs (a library that differs is reported too). */
static int g_null_status_bad;
static void check_null_status(const MPI_Status *st, int rtype, int ok) {
  int count = -99;
  if (!st || !ok) return;
  PMPI_Get_count(st, types[rtype], &count);
  if (st->MPI_SOURCE != MPI_PROC_NULL || st->MPI_TAG != MPI_ANY_TAG || count != 0) g_null_status_bad = 1;
}

/* A receive's status as the application sees it (only after a successful receive). */
static void rec_status(record *r, const MPI_Status *st, int rtype, int ok) {
  if (!st || !ok) return;
  int count = -99, elems = -99;
  PMPI_Get_count(st, types[rtype], &count);
  PMPI_Get_elements(st, types[rtype], &elems);
  rec_int(r, "status.MPI_SOURCE", st->MPI_SOURCE);
  rec_int(r, "status.MPI_TAG", st->MPI_TAG);
  rec_int(r, "status count", count);
  rec_int(r, "status elements", elems);
}

/* Every message still queued for this rank on the test communicator, drained: source, tag, bytes.
 * The barrier first: what the peers sent before it has been sent; then probe until nothing more
 * arrives for a few milliseconds. */
static void rec_leftovers(record *r) {
  TEST_MPI(PMPI_Barrier(g_comm));
  static char sink[1 << 20];
  int found = 0;
  struct timespec t0, t;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  for (;;) {
    int flag = 0;
    MPI_Status st;
    TEST_MPI(PMPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, g_comm, &flag, &st));
    if (flag) {
      int bytes = 0;
      PMPI_Get_count(&st, MPI_BYTE, &bytes);
      TEST_MPI(PMPI_Recv(sink, (int)sizeof sink, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, g_comm, MPI_STATUS_IGNORE));
      int v[3] = {st.MPI_SOURCE, st.MPI_TAG, bytes};
      rec_add(r, "left over: source,tag,bytes", v, sizeof v);
      found++;
      clock_gettime(CLOCK_MONOTONIC, &t0);
      continue;
    }
    clock_gettime(CLOCK_MONOTONIC, &t);
    if ((t.tv_sec - t0.tv_sec) * 1e3 + (t.tv_nsec - t0.tv_nsec) * 1e-6 > 5) break;
  }
  rec_int(r, "messages left over", found);
  TEST_MPI(PMPI_Barrier(g_comm));
}

/* One clean exchange in a ring after an erroneous call: it must still work. */
static void rec_followup(record *r) {
  int right = (g_rank + 1) % g_np, left = (g_rank + g_np - 1) % g_np, out = 1000 + g_rank, in = -1;
  MPI_Status st;
  int rc = PMPI_Sendrecv(&out, 1, MPI_INT, right, 77, &in, 1, MPI_INT, left, 77, g_comm, &st);
  rec_int(r, "follow-up exchange rc", err_class(rc));
  rec_int(r, "follow-up exchange data", in);
}

/* MPI_Wait of a receive that may be truncated, by the test itself (or the application's own wait of
 * an MPI_Irecv): MPICH 4.0.2 raises the error of MPI_Wait on MPI_COMM_WORLD's handler, not on the
 * request's communicator's, so MPI_COMM_WORLD returns errors during the wait. The calls under test
 * run with MPI_COMM_WORLD's handler fatal: a row that lets an error reach it aborts the test. */
static int wait_recv(MPI_Request *rq, MPI_Status *st) {
  MPI_Errhandler h;
  TEST_MPI(PMPI_Comm_get_errhandler(MPI_COMM_WORLD, &h));
  TEST_MPI(PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  int rc = PMPI_Wait(rq, st);
  TEST_MPI(PMPI_Comm_set_errhandler(MPI_COMM_WORLD, h));
  PMPI_Errhandler_free(&h);
  return rc;
}

/* ------------------------------------------------------------------ the operation under test */

static mg_coll g_op;   /* the operation under test */
static int g_alg;      /* its row */
static int g_measure;  /* the row is measure-only: run directly (run_direct) */

static int is_send_op(mg_coll k) { return k == MG_SEND || k == MG_SSEND || k == MG_RSEND || k == MG_ISEND; }
static int is_recv_op(mg_coll k) { return k == MG_RECV || k == MG_IRECV; }

/* A send of the operation under test (lib: through libmpiguide) or a plain PMPI_Send. */
static int do_send(int lib, const void *b, int n, MPI_Datatype t, int dest, int tag) {
  MPI_Request rq = MPI_REQUEST_NULL;
  int rc;
  switch (is_send_op(g_op) ? g_op : MG_SEND) {
  case MG_SSEND: return lib ? MPI_Ssend(b, n, t, dest, tag, g_comm) : PMPI_Ssend(b, n, t, dest, tag, g_comm);
  case MG_RSEND: return lib ? MPI_Rsend(b, n, t, dest, tag, g_comm) : PMPI_Rsend(b, n, t, dest, tag, g_comm);
  case MG_ISEND:
    rc = lib ? MPI_Isend(b, n, t, dest, tag, g_comm, &rq) : PMPI_Isend(b, n, t, dest, tag, g_comm, &rq);
    return rc != MPI_SUCCESS ? rc : PMPI_Wait(&rq, MPI_STATUS_IGNORE);
  default: return lib ? MPI_Send(b, n, t, dest, tag, g_comm) : PMPI_Send(b, n, t, dest, tag, g_comm);
  }
}

/* A receive of the operation under test or a plain PMPI_Recv; *rc2: the MPI_Wait of an irecv. */
static int do_recv(int lib, void *b, int n, MPI_Datatype t, int src, int tag, MPI_Status *st) {
  MPI_Request rq = MPI_REQUEST_NULL;
  if (g_op == MG_IRECV) {
    int rc = lib ? MPI_Irecv(b, n, t, src, tag, g_comm, &rq) : PMPI_Irecv(b, n, t, src, tag, g_comm, &rq);
    return rc != MPI_SUCCESS ? rc : wait_recv(&rq, st);
  }
  return lib ? MPI_Recv(b, n, t, src, tag, g_comm, st) : PMPI_Recv(b, n, t, src, tag, g_comm, st);
}

static int do_sendrecv(int lib, const void *sb, int sn, MPI_Datatype stt, int dest, int stag, void *rb, int rn,
                       MPI_Datatype rtt, int src, int rtag, MPI_Status *st) {
  if (g_op == MG_SENDRECV_REPLACE) /* one buffer, one count and type: the send side's */
    return lib ? MPI_Sendrecv_replace(rb, rn, rtt, dest, stag, src, rtag, g_comm, st)
               : PMPI_Sendrecv_replace(rb, rn, rtt, dest, stag, src, rtag, g_comm, st);
  return lib ? MPI_Sendrecv(sb, sn, stt, dest, stag, rb, rn, rtt, src, rtag, g_comm, st)
             : PMPI_Sendrecv(sb, sn, stt, dest, stag, rb, rn, rtt, src, rtag, g_comm, st);
}

/* ------------------------------------------------------------------ cases */

enum { K_MSG, K_MULTI, K_ERR, K_SR };
enum { RV_EXACT, RV_ANY_SOURCE, RV_ANY_TAG, RV_ANY_IGNORE, RV_BIGGER, RV_TRUNC, RV_N };
static const char *rv_names[RV_N] = {"exact source and tag", "MPI_ANY_SOURCE", "MPI_ANY_TAG",
                                     "ANY_SOURCE+ANY_TAG+STATUS_IGNORE", "receive buffer larger",
                                     "truncation"};
enum { BAD_DEST, BAD_DEST_NEG, BAD_SRC, BAD_STAG, BAD_STAG_UB, BAD_RTAG, BAD_COUNT, BAD_N };
static const char *bad_names[BAD_N] = {"dest = size", "dest = -5", "source = size", "send tag -1",
                                       "send tag MPI_TAG_UB + 1", "receive tag -7", "count -1"};
/* sendrecv layouts */
enum { SR_RING, SR_CHAIN, SR_MIXED, SR_PAIRS, SR_BOTH_NULL, SR_N };
static const char *sr_names[SR_N] = {"ring", "chain ending at MPI_PROC_NULL", "ring, odd ranks through PMPI",
                                     "pairs one way (source or dest MPI_PROC_NULL)",
                                     "source and dest MPI_PROC_NULL"};

typedef struct tcase {
  int kind;
  int st, rt;  /* send and receive types */
  int n;       /* send count */
  int rv;      /* receive variant */
  int shift;   /* distance to the destination (the source at the same distance the other way) */
  int null;    /* K_MSG: both ends MPI_PROC_NULL */
  int bad;     /* K_ERR */
  int sr;      /* K_SR layout */
} tcase;

static void describe(const tcase *tc, char *out, size_t len) {
  switch (tc->kind) {
  case K_MULTI: snprintf(out, len, "many tags out of order, %s, n=%d", type_names[tc->st], tc->n); break;
  case K_ERR: snprintf(out, len, "invalid: %s", bad_names[tc->bad]); break;
  case K_SR:
    snprintf(out, len, "%s, %s -> %s, n=%d, %s, shift %d", sr_names[tc->sr], type_names[tc->st],
             type_names[tc->rt], tc->n, rv_names[tc->rv], tc->shift);
    break;
  default:
    snprintf(out, len, "%s -> %s, n=%d, %s, shift %d%s", type_names[tc->st], type_names[tc->rt], tc->n,
             rv_names[tc->rv], tc->shift, tc->null ? ", MPI_PROC_NULL both ends" : "");
  }
}

/* The receive count of a variant (the message has n elements). */
static int recv_count(int rv, int n) {
  return rv == RV_BIGGER ? n + 3 : rv == RV_TRUNC ? (n > 2 ? n / 2 : n - 1) : n;
}

/* Counted calls of the operation under test in the current run: calls through the library, and
 * those whose row must run (valid, non-empty). */
static long g_ncalls, g_nrow;
static int g_send_changed; /* a send buffer changed */

static void counted(int lib, int nonempty) {
  if (!lib) return;
  g_ncalls++;
  g_nrow += nonempty;
}

static void check_unchanged(const tbuf *b, const char *copy) {
  if (memcmp(b->mem, copy, b->len)) g_send_changed = 1;
}

/* One message from every rank to the rank `shift` to its right (MPI_PROC_NULL: none), the tested
 * side through the operation under test. Send operations: the receive is posted first (a ready
 * send needs it), then a barrier; receive operations: the send is an Isend. */
static void case_msg(const tcase *tc, int lib, record *r) {
  int right = (g_rank + tc->shift) % g_np, left = (g_rank + g_np - tc->shift) % g_np;
  int any_src = tc->rv == RV_ANY_SOURCE || tc->rv == RV_ANY_IGNORE;
  int any_tag = tc->rv == RV_ANY_TAG || tc->rv == RV_ANY_IGNORE;
  int dest = tc->null ? MPI_PROC_NULL : right;
  int src = tc->null ? MPI_PROC_NULL : any_src ? MPI_ANY_SOURCE : left;
  int tag = 5 + tc->shift, rn = recv_count(tc->rv, tc->n);
  MPI_Status st, *stp = tc->rv == RV_ANY_IGNORE ? MPI_STATUS_IGNORE : &st;
  tbuf S, R;
  tb_make(&S, tc->st, tc->n, (unsigned)(g_rank * 131 + tc->n), 0);
  tb_make_tail(&R, tc->rt, rn, 0, 1, tc->rv == RV_TRUNC ? trunc_tail(tc->st, tc->n) : 0);
  char *copy = mg_test_malloc(S.len);
  memcpy(copy, S.mem, S.len);
  int rc_s, rc_r;
  if (is_send_op(g_op)) {
    MPI_Request rq;
    rc_r = PMPI_Irecv(R.org, rn, types[tc->rt], src, any_tag ? MPI_ANY_TAG : tag, g_comm, &rq);
    TEST_MPI(PMPI_Barrier(g_comm));
    rc_s = do_send(lib, S.org, tc->n, types[tc->st], dest, tag);
    counted(lib, tc->n > 0);
    int rc_w = wait_recv(&rq, stp);
    if (rc_r == MPI_SUCCESS) rc_r = rc_w;
  } else {
    MPI_Request rq;
    rc_s = PMPI_Isend(S.org, tc->n, types[tc->st], dest, tag, g_comm, &rq);
    rc_r = do_recv(lib, R.org, rn, types[tc->rt], src, any_tag ? MPI_ANY_TAG : tag, stp);
    counted(lib, rn > 0);
    int rc_w = PMPI_Wait(&rq, MPI_STATUS_IGNORE);
    if (rc_s == MPI_SUCCESS) rc_s = rc_w;
  }
  rec_int(r, "send rc class", err_class(rc_s));
  rec_int(r, "receive rc class", err_class(rc_r));
  rec_status(r, stp == MPI_STATUS_IGNORE ? NULL : stp, tc->rt, rc_r == MPI_SUCCESS);
  if (tc->null) check_null_status(stp == MPI_STATUS_IGNORE ? NULL : stp, tc->rt, rc_r == MPI_SUCCESS);
  rec_add(r, "receive buffer", R.mem, R.len);
  check_unchanged(&S, copy);
  if (tc->rv == RV_TRUNC) rec_leftovers(r), rec_followup(r);
  free(copy), tb_free(&S), tb_free(&R);
}

/* M messages of tags 100 + j (and counts n + j) from every rank to its right neighbour, received
 * in the reverse order of tags, the last one by MPI_ANY_TAG. Send operations: the receives are
 * posted first (in that order); receive operations: the messages are Isends, received as they
 * are unexpected; sendrecv: a sendrecv sends each message to the right (the right's receives are
 * posted) and receives from the left's Isends in reverse order. */
#define MULTI 6
static void case_multi(const tcase *tc, int lib, record *r) {
  int right = (g_rank + 1) % g_np, left = (g_rank + g_np - 1) % g_np;
  tbuf S[MULTI], R[MULTI], X[MULTI];
  MPI_Request sq[MULTI], rq[MULTI];
  MPI_Status st[MULTI];
  int rc[MULTI], rcx[MULTI];
  char *copy[MULTI];
  for (int j = 0; j < MULTI; j++) {
    tb_make(&S[j], tc->st, tc->n + j, (unsigned)(g_rank * 977 + j), 0);
    tb_make(&R[j], tc->st, tc->n + j, 0, 1);
    copy[j] = mg_test_malloc(S[j].len);
    memcpy(copy[j], S[j].mem, S[j].len);
  }
  /* receive j gets tag 100 + (MULTI - 2 - j) for j < MULTI - 1, the last MPI_ANY_TAG (the message
   * of tag 100 + MULTI - 1, the only one left): so message m goes to receive MULTI - 2 - m */
#define RTAG(j) ((j) == MULTI - 1 ? MPI_ANY_TAG : 100 + MULTI - 2 - (j))
#define RIDX(j) ((j) == MULTI - 1 ? MULTI - 1 : MULTI - 2 - (j)) /* the message receive j gets */
  if (g_op == MG_SENDRECV || g_op == MG_SENDRECV_REPLACE) {
    /* the last sendrecv receives by MPI_ANY_TAG: the left's message of tag 200 is the only one
     * queued that no posted receive takes */
#define RTAG2(j, m) ((j) == MULTI - 1 ? MPI_ANY_TAG : 200 + (m))
    /* the left's messages as Isends of tags 200 + m; this rank's sendrecvs send tag 100 + m to the
     * right, whose receives are posted, and receive tag 200 + (reverse) from the left */
    for (int j = 0; j < MULTI; j++) {
      tb_make(&X[j], tc->st, tc->n + j, (unsigned)(g_rank * 31 + j), 0);
      TEST_MPI(PMPI_Isend(X[j].org, tc->n + j, types[tc->st], right, 200 + j, g_comm, &sq[j]));
      /* no MPI_ANY_TAG here: it would take one of the left's Isends */
      int tag = j == MULTI - 1 ? 100 + MULTI - 1 : RTAG(j);
      TEST_MPI(PMPI_Irecv(R[RIDX(j)].org, tc->n + RIDX(j), types[tc->st], left, tag, g_comm, &rq[j]));
    }
    TEST_MPI(PMPI_Barrier(g_comm));
    for (int j = 0; j < MULTI; j++) {
      int m = MULTI - 1 - j; /* send and receive in reverse order of tags */
      tbuf Y; /* sendrecv_replace: message m goes out of it (its gaps stay) and the left's comes in */
      tb_make(&Y, tc->st, tc->n + m, (unsigned)(g_rank * 977 + m), g_op != MG_SENDRECV_REPLACE);
      rc[j] = g_op == MG_SENDRECV_REPLACE
                  ? do_sendrecv(lib, NULL, 0, MPI_DATATYPE_NULL, right, 100 + m, Y.org, tc->n + m, types[tc->st],
                                left, RTAG2(j, m), &st[j])
                  : do_sendrecv(lib, S[m].org, tc->n + m, types[tc->st], right, 100 + m, Y.org, tc->n + m,
                                types[tc->st], left, RTAG2(j, m), &st[j]);
      counted(lib, tc->n + m > 0);
      rec_int(r, "sendrecv rc class", err_class(rc[j]));
      rec_status(r, &st[j], tc->st, rc[j] == MPI_SUCCESS);
      rec_add(r, "sendrecv receive buffer", Y.mem, Y.len);
      tb_free(&Y);
    }
    /* the right's receives were posted in the order RTAG(j) for message RIDX(j); the sendrecvs sent
     * tags 100 + m in reverse order: receive j still gets the message of tag RTAG(j) */
    for (int j = 0; j < MULTI; j++) {
      rcx[j] = wait_recv(&rq[j], &st[j]);
      rec_int(r, "receive rc class", err_class(rcx[j]));
      rec_status(r, &st[j], tc->st, rcx[j] == MPI_SUCCESS);
      rec_add(r, "receive buffer", R[RIDX(j)].mem, R[RIDX(j)].len);
      TEST_MPI(PMPI_Wait(&sq[j], MPI_STATUS_IGNORE));
      tb_free(&X[j]);
    }
  } else if (is_send_op(g_op)) {
    for (int j = 0; j < MULTI; j++)
      TEST_MPI(PMPI_Irecv(R[RIDX(j)].org, tc->n + RIDX(j), types[tc->st], left, RTAG(j), g_comm, &rq[j]));
    TEST_MPI(PMPI_Barrier(g_comm));
    for (int m = 0; m < MULTI; m++) {
      rc[m] = do_send(lib, S[m].org, tc->n + m, types[tc->st], right, 100 + m);
      counted(lib, tc->n + m > 0);
      rec_int(r, "send rc class", err_class(rc[m]));
    }
    for (int j = 0; j < MULTI; j++) {
      rcx[j] = wait_recv(&rq[j], &st[j]);
      rec_int(r, "receive rc class", err_class(rcx[j]));
      rec_status(r, &st[j], tc->st, rcx[j] == MPI_SUCCESS);
      rec_add(r, "receive buffer", R[RIDX(j)].mem, R[RIDX(j)].len);
    }
  } else {
    for (int m = 0; m < MULTI; m++)
      TEST_MPI(PMPI_Isend(S[m].org, tc->n + m, types[tc->st], right, 100 + m, g_comm, &sq[m]));
    TEST_MPI(PMPI_Barrier(g_comm)); /* the messages are there, unexpected */
    for (int j = 0; j < MULTI; j++) {
      rcx[j] = do_recv(lib, R[RIDX(j)].org, tc->n + RIDX(j), types[tc->st], left, RTAG(j), &st[j]);
      counted(lib, tc->n + RIDX(j) > 0);
      rec_int(r, "receive rc class", err_class(rcx[j]));
      rec_status(r, &st[j], tc->st, rcx[j] == MPI_SUCCESS);
      rec_add(r, "receive buffer", R[RIDX(j)].mem, R[RIDX(j)].len);
    }
    for (int m = 0; m < MULTI; m++) TEST_MPI(PMPI_Wait(&sq[m], MPI_STATUS_IGNORE));
  }
  for (int j = 0; j < MULTI; j++) {
    check_unchanged(&S[j], copy[j]);
    free(copy[j]), tb_free(&S[j]), tb_free(&R[j]);
  }
#undef RTAG
#undef RTAG2
#undef RIDX
}

/* An erroneous call of the operation under test on every rank, with a "bait" from the left
 * neighbour queued first (a valid message the call's receive side could match: the library
 * consumes it or not, the row must do the same); then what is left over, and a clean exchange. */
static void case_err(const tcase *tc, int lib, record *r) {
  int right = (g_rank + 1) % g_np, left = (g_rank + g_np - 1) % g_np;
  int dest = tc->bad == BAD_DEST ? g_np : tc->bad == BAD_DEST_NEG ? -5 : right;
  int src = tc->bad == BAD_SRC ? g_np : left;
  int stag = tc->bad == BAD_STAG ? -1 : tc->bad == BAD_STAG_UB ? g_tag_ub + 1 : 9;
  int rtag = tc->bad == BAD_RTAG ? -7 : 9;
  int n = tc->bad == BAD_COUNT ? -1 : 1;
  int out[2] = {g_rank, 4242}, in[2] = {-1, -1}, bait = 3000 + g_rank;
  MPI_Request bq;
  MPI_Status st;
  TEST_MPI(PMPI_Isend(&bait, 1, MPI_INT, right, 9, g_comm, &bq));
  TEST_MPI(PMPI_Barrier(g_comm));
  int rc;
  if (is_send_op(g_op))
    rc = do_send(lib, out, n, MPI_INT, dest, stag);
  else if (is_recv_op(g_op))
    rc = do_recv(lib, in, n, MPI_INT, src, rtag, &st);
  else
    rc = do_sendrecv(lib, out, n, MPI_INT, dest, stag, in, n, MPI_INT, src, rtag, &st);
  counted(lib, 0);
  TEST_MPI(PMPI_Wait(&bq, MPI_STATUS_IGNORE));
  rec_int(r, "erroneous call rc class", err_class(rc));
  if (rc == MPI_SUCCESS) rec_add(r, "erroneous call received", in, sizeof in);
  rec_leftovers(r);
  rec_followup(r);
}

/* Sendrecv (or sendrecv_replace) on every rank at once. */
static void case_sr(const tcase *tc, int lib, record *r) {
  int right = (g_rank + tc->shift) % g_np, left = (g_rank + g_np - tc->shift) % g_np;
  int dest = right, src = left;
  if (tc->sr == SR_CHAIN) {
    dest = g_rank + tc->shift < g_np ? right : MPI_PROC_NULL;
    src = g_rank - tc->shift >= 0 ? left : MPI_PROC_NULL;
  } else if (tc->sr == SR_PAIRS) { /* 2i sends to 2i + 1 only; an odd rank out does nothing */
    int partner = g_rank ^ 1, even = g_rank % 2 == 0;
    dest = even && partner < g_np ? partner : MPI_PROC_NULL;
    src = !even ? partner : MPI_PROC_NULL;
  } else if (tc->sr == SR_BOTH_NULL) {
    dest = src = MPI_PROC_NULL;
  }
  int any_src = tc->rv == RV_ANY_SOURCE || tc->rv == RV_ANY_IGNORE;
  int any_tag = tc->rv == RV_ANY_TAG || tc->rv == RV_ANY_IGNORE;
  /* rank r sends tag 40 + r % 2 */
  int stag = 40 + g_rank % 2, rtag = any_tag ? MPI_ANY_TAG : 40 + (src >= 0 ? src % 2 : 0);
  if (any_src && src != MPI_PROC_NULL) src = MPI_ANY_SOURCE;
  /* truncation: rank r sends and receives n + r elements, so only the rank whose left neighbour
   * has a higher rank (rank 0 in the ring) receives more than it can take */
  int trunc = tc->rv == RV_TRUNC;
  int sn = trunc ? tc->n + g_rank : tc->n;
  int rn = trunc ? sn : recv_count(tc->rv, tc->n);
  int via = lib && !(tc->sr == SR_MIXED && g_rank % 2);
  MPI_Status st, *stp = tc->rv == RV_ANY_IGNORE ? MPI_STATUS_IGNORE : &st;
  tbuf S, R;
  int rc;
  if (g_op == MG_SENDRECV_REPLACE) { /* one buffer: the count of both sides is sn */
    tb_make_tail(&R, tc->st, sn, (unsigned)(g_rank * 7 + tc->n), 0, trunc ? trunc_tail(tc->st, tc->n + g_np) : 0);
    rc = do_sendrecv(via, NULL, 0, MPI_DATATYPE_NULL, dest, stag, R.org, sn, types[tc->st], src, rtag, stp);
    counted(via, sn > 0);
    rec_int(r, "sendrecv_replace rc class", err_class(rc));
    rec_status(r, stp == MPI_STATUS_IGNORE ? NULL : stp, tc->st, rc == MPI_SUCCESS);
    if (src == MPI_PROC_NULL) check_null_status(stp == MPI_STATUS_IGNORE ? NULL : stp, tc->st, rc == MPI_SUCCESS);
    rec_add(r, "buffer", R.mem, R.len);
  } else {
    tb_make(&S, tc->st, sn, (unsigned)(g_rank * 7 + tc->n), 0);
    tb_make_tail(&R, tc->rt, rn, 0, 1, trunc ? trunc_tail(tc->st, tc->n + g_np) : 0);
    char *copy = mg_test_malloc(S.len);
    memcpy(copy, S.mem, S.len);
    rc = do_sendrecv(via, S.org, sn, types[tc->st], dest, stag, R.org, rn, types[tc->rt], src, rtag, stp);
    counted(via, sn > 0);
    rec_int(r, "sendrecv rc class", err_class(rc));
    rec_status(r, stp == MPI_STATUS_IGNORE ? NULL : stp, tc->rt, rc == MPI_SUCCESS);
    if (src == MPI_PROC_NULL) check_null_status(stp == MPI_STATUS_IGNORE ? NULL : stp, tc->rt, rc == MPI_SUCCESS);
    rec_add(r, "receive buffer", R.mem, R.len);
    check_unchanged(&S, copy);
    free(copy), tb_free(&S);
  }
  tb_free(&R);
  if (trunc || rc != MPI_SUCCESS) rec_leftovers(r), rec_followup(r);
}

static void run_one(const tcase *tc, int lib, record *r) {
  switch (tc->kind) {
  case K_MULTI: case_multi(tc, lib, r); break;
  case K_ERR: case_err(tc, lib, r); break;
  case K_SR: case_sr(tc, lib, r); break;
  default: case_msg(tc, lib, r); break;
  }
}

/* ------------------------------------------------------------------ running */

static long g_ncase, g_nfail, g_nshown, g_lib_defects;

static void fail(long cn, const char *desc, const char *fmt, ...) {
  g_nfail++;
  if (!g_verbose && g_nshown >= 3) return;
  g_nshown++;
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "  FAIL rank %d %s=%s case %ld (%s): %s\n", g_rank, mg_colls[g_op].name,
          g_noforce ? "(as the environment chose)" : mg_colls[g_op].algs[g_alg].name, cn, desc, msg);
}

static void force(int alg) {
  char spec[160];
  snprintf(spec, sizeof spec, "%s=%s", mg_colls[g_op].name, alg ? mg_colls[g_op].algs[alg].name : "default");
  int st = mpiguide_force(spec);
  if (st != MPIGUIDE_OK) mg_test_die("mpiguide_force(\"%s\"): %s", spec, mpiguide_strerror(st));
}

static long long calls_of(int alg) {
  return mpiguide_calls(mg_colls[g_op].name, alg ? mg_colls[g_op].algs[alg].name : "default");
}

static void run_case(const tcase *tc) {
  long cn = g_ncase++;
  char desc[200];
  describe(tc, desc, sizeof desc);
  mg_test_watch("%s=%s case %ld: %s", mg_colls[g_op].name, mg_colls[g_op].algs[g_alg].name, cn, desc);
#ifdef MPICH_VERSION
  static long g_lib_skipped;
  /* MPICH 4.0.2's own MPI_Sendrecv_replace sends the buffer packed and fails ("Message truncated")
   * to receive more than 8 KiB of it into a datatype of basic types of different sizes (here 640
   * struct{int,double,char} fail, 630 pass), the defect behind the mpich:one-basic-size
   * restriction; the chain then hangs in the library. Not a case for a row: skipped, said once. */
  if (g_op == MG_SENDRECV_REPLACE && tc->st == T_STRUCT && (size_t)tc->n * (size_t)tinfo[T_STRUCT].size > 8192) {
    if (!g_lib_skipped++ && g_rank == 0)
      fprintf(stderr, "  NOTE: MPI library defect (skipped, not a failure): %s case %ld (%s): MPICH's own "
              "MPI_Sendrecv_replace fails above 8 KiB of a datatype of mixed basic sizes\n", mg_colls[g_op].name, cn, desc);
    return;
  }
#endif
  record ref = {0}, got = {0};
  g_send_changed = 0;
  g_ncalls = g_nrow = 0;
  g_null_status_bad = 0;
  run_one(tc, 0, &ref);
  if (g_send_changed) fail(cn, desc, "the library's own call changed the send buffer");
  int lib_null_bad = g_null_status_bad; /* a defect of the MPI library: reported, not the row's */
  if (lib_null_bad && !g_lib_defects++)
    fprintf(stderr, "  NOTE rank %d: MPI library defect (not a failure): %s case %ld (%s): a receive from "
            "MPI_PROC_NULL gives a status other than (MPI_PROC_NULL, MPI_ANY_TAG, count 0)\n",
            g_rank, mg_colls[g_op].name, cn, desc);
  g_null_status_bad = 0;
  g_send_changed = 0;
  long long ran0 = calls_of(g_alg), def0 = calls_of(0), fell0 = mpiguide_fallbacks(mg_colls[g_op].name, NULL);
  run_one(tc, 1, &got);
  long long ran = calls_of(g_alg) - ran0, def = calls_of(0) - def0;
  long long fell = mpiguide_fallbacks(mg_colls[g_op].name, NULL) - fell0;
  char why[400];
  if (rec_diff(&ref, &got, why, sizeof why)) fail(cn, desc, "%s", why);
  if (g_send_changed) fail(cn, desc, "the send buffer changed");
  if (g_null_status_bad && !lib_null_bad)
    fail(cn, desc, "a receive from MPI_PROC_NULL: status not (MPI_PROC_NULL, MPI_ANY_TAG, count 0)");
  if (tc->kind != K_ERR && !g_noforce) { /* which algorithm ran */
    long long want_row = g_measure ? 0 : g_alg ? g_nrow : g_ncalls;
    long long want_def = g_alg ? g_ncalls - want_row : g_ncalls;
    if (g_alg && ran != want_row) fail(cn, desc, "the row ran %lld times, expected %lld", ran, want_row);
    if (def != want_def) fail(cn, desc, "the default ran %lld times, expected %lld", def, want_def);
    if (g_measure && fell < g_nrow)
      fail(cn, desc, "%lld fallbacks for %ld non-empty calls of a measure-only row", fell, g_nrow);
  }
  /* No rank starts the next case before every rank finished this one: a rank that ran ahead
   * sent the next case's message (another sender, another pattern) to a rank still waiting in a
   * wildcard receive of this one, which took it (MPI orders messages of one sender only):
   * a ring with MPI_ANY_SOURCE at distance 2 received the chain's message of the next case. */
  TEST_MPI(PMPI_Barrier(g_comm));
  alarm(0);
  rec_free(&ref), rec_free(&got);
}

/* A measure-only row of a send operation as the benchmark runs it: the row's function on the
 * sender, its receive side on the receiver, on a communicator of the two (g_pair: ranks (0,1),
 * (2,3), ...; a one-sided row's fences are collective over it), in both directions; against
 * PMPI_Send and PMPI_Recv. A one-sided row (family rma) moves no message, so its receive side
 * gives no status: only its data is compared. */
static MPI_Comm g_pair;

static void direct_one(const tcase *tc, int lib, record *r, int dir) {
  int prank, psize;
  TEST_MPI(PMPI_Comm_rank(g_pair, &prank));
  TEST_MPI(PMPI_Comm_size(g_pair, &psize));
  int partner = prank ^ 1, sender = prank == dir;
  if (psize < 2) { /* an odd rank out: nothing to do */
    rec_int(r, "idle", 1);
    return;
  }
  const mg_alg *a = &mg_colls[g_op].algs[g_alg];
  int message = a->family != MG_FAM_RMA;
  int any_src = tc->rv == RV_ANY_SOURCE || tc->rv == RV_ANY_IGNORE;
  int any_tag = tc->rv == RV_ANY_TAG || tc->rv == RV_ANY_IGNORE;
  MPI_Status st, *stp = tc->rv == RV_ANY_IGNORE ? MPI_STATUS_IGNORE : &st;
  int tag = 11 + dir, rc;
  if (sender) {
    tbuf S;
    tb_make(&S, tc->st, tc->n, (unsigned)(g_rank * 3 + tc->n + dir), 0);
    if (lib) {
      mg_call c;
      mg_call_init(&c, g_op, g_pair);
      c.sbuf = S.org, c.scount = tc->n, c.stype = types[tc->st], c.rtype = MPI_DATATYPE_NULL;
      c.op = MPI_OP_NULL, c.root = partner, c.stag = tag;
      TEST_MPI(mg_call_prepare(&c));
      rc = mg_run(&c, g_alg);
    } else {
      rc = PMPI_Send(S.org, tc->n, types[tc->st], partner, tag, g_pair);
    }
    rec_int(r, "send rc class", err_class(rc));
    tb_free(&S);
  } else {
    tbuf R;
    tb_make(&R, tc->rt, tc->n, 0, 1);
    int src = any_src ? MPI_ANY_SOURCE : partner, rtag = any_tag ? MPI_ANY_TAG : tag;
    if (lib && a->recv_side) {
      mg_call c;
      mg_call_init(&c, MG_RECV, g_pair);
      c.rbuf = R.org, c.rcount = tc->n, c.rtype = types[tc->rt], c.stype = MPI_DATATYPE_NULL;
      c.op = MPI_OP_NULL, c.src = src, c.rtag = rtag, c.status = stp;
      TEST_MPI(mg_call_prepare(&c));
      rc = a->recv_side(&c, a->param);
    } else {
      rc = PMPI_Recv(R.org, tc->n, types[tc->rt], src, rtag, g_pair, stp);
    }
    rec_int(r, "receive rc class", err_class(rc));
    if (message) rec_status(r, stp == MPI_STATUS_IGNORE ? NULL : stp, tc->rt, rc == MPI_SUCCESS);
    rec_add(r, "receive buffer", R.mem, R.len);
    tb_free(&R);
  }
}

static void run_direct(const tcase *tc) {
  long cn = g_ncase++;
  char desc[300], d0[200];
  describe(tc, d0, sizeof d0);
  snprintf(desc, sizeof desc, "run as the benchmark does (row + its receive side): %s", d0);
  mg_test_watch("%s=%s case %ld: %s", mg_colls[g_op].name, mg_colls[g_op].algs[g_alg].name, cn, desc);
  record ref = {0}, got = {0};
  for (int dir = 0; dir < 2; dir++) {
    direct_one(tc, 0, &ref, dir);
    TEST_MPI(PMPI_Barrier(g_comm));
    direct_one(tc, 1, &got, dir);
    TEST_MPI(PMPI_Barrier(g_comm));
  }
  char why[400];
  if (rec_diff(&ref, &got, why, sizeof why)) fail(cn, desc, "%s", why);
  alarm(0);
  rec_free(&ref), rec_free(&got);
}

/* Counts: 0, 1, 7 and about `big` bytes. */
static int big_count(int t, int big) { return big / tinfo[t].size; }

static void run_cases(void) {
  static const int pairs[][2] = {{T_BYTE, T_BYTE}, {T_INT, T_INT},       {T_DOUBLE, T_DOUBLE}, {T_VEC, T_VEC},
                                 {T_VEC, T_C6},    {T_STRUCT, T_STRUCT}, {T_NEGLB, T_NEGLB}};
  static const int quick_pairs[][2] = {{T_BYTE, T_BYTE}, {T_VEC, T_C6}, {T_NEGLB, T_NEGLB}};
  const int (*P)[2] = g_quick ? quick_pairs : pairs;
  int np = g_quick ? 3 : 7, big = g_quick ? 100000 : 200000;
  int sr = g_op == MG_SENDRECV || g_op == MG_SENDRECV_REPLACE;
  for (int p = 0; p < np; p++) {
    int st = P[p][0], rt = sr && g_op == MG_SENDRECV_REPLACE ? st : P[p][1];
    int counts[4] = {0, 1, 7, big_count(st, big)};
    for (int k = 0; k < 4; k++)
      for (int rv = 0; rv < RV_N; rv++) {
        if (g_quick && k == 2) continue;
        if (rv == RV_TRUNC && counts[k] == 0 && !sr) continue; /* nothing to truncate */
        if (g_quick && (rv == RV_ANY_SOURCE || rv == RV_ANY_TAG) && p != 1) continue;
        tcase tc = {sr ? K_SR : K_MSG, st, rt, counts[k], rv, 1, 0, 0, SR_RING};
        /* both ends of a split message: one count; measure-only rows of sendrecv run in the
         * benchmark's own patterns (a Cartesian communicator): forced only */
        if (g_measure && is_send_op(g_op) && rv != RV_BIGGER && rv != RV_TRUNC) run_direct(&tc);
        run_case(&tc);
      }
  }
  if (g_measure) return; /* forced through MPI_: the default runs; the cases above showed it */
  /* neighbours at distance 2 (source != dest at 4 ranks and more; at 3 the other direction) */
  if (g_np > 2)
    for (int rv = 0; rv < RV_N; rv += g_quick ? 3 : 1) {
      tcase tc = {sr ? K_SR : K_MSG, T_INT, T_INT, 7, rv, 2, 0, 0, SR_RING};
      run_case(&tc);
      tc.n = big_count(T_INT, big);
      run_case(&tc);
    }
  /* MPI_PROC_NULL */
  for (int p = 0; p < np; p++) {
    int st = P[p][0], rt = g_op == MG_SENDRECV_REPLACE ? st : P[p][1];
    int counts[2] = {0, 7};
    for (int k = 0; k < 2; k++) {
      if (!sr) {
        tcase tc = {K_MSG, st, rt, counts[k], RV_EXACT, 1, 1, 0, 0};
        run_case(&tc);
        tc.rv = RV_ANY_TAG;
        run_case(&tc);
      } else {
        for (int l = SR_CHAIN; l < SR_N; l++) {
          tcase tc = {K_SR, st, rt, counts[k], RV_EXACT, 1, 0, 0, l};
          run_case(&tc);
          if (l == SR_CHAIN) tc.n = big_count(st, big), run_case(&tc);
        }
      }
    }
  }
  /* sendrecv: mixed (odd ranks PMPI), each variant, a large ring */
  if (sr)
    for (int rv = 0; rv < RV_N; rv++) {
      tcase tc = {K_SR, T_VEC, g_op == MG_SENDRECV_REPLACE ? T_VEC : T_C6, big_count(T_VEC, big), rv, 1, 0, 0,
                  SR_MIXED};
      run_case(&tc);
      tc.n = 3;
      run_case(&tc);
    }
  /* many tags out of order */
  for (int p = 0; p < np; p++) {
    tcase tc = {K_MULTI, P[p][0], P[p][0], 1, RV_EXACT, 1, 0, 0, 0};
    run_case(&tc);
    if (p == 1) tc.n = big_count(P[p][0], big / 4), run_case(&tc);
  }
  /* invalid arguments */
  for (int b = 0; b < BAD_N; b++) {
    if (b == BAD_STAG_UB && g_tag_ub == INT_MAX) continue;
    if (is_send_op(g_op) && (b == BAD_SRC || b == BAD_RTAG)) continue;
    if (is_recv_op(g_op) && (b == BAD_DEST || b == BAD_DEST_NEG || b == BAD_STAG || b == BAD_STAG_UB)) continue;
    tcase tc = {K_ERR, T_INT, T_INT, 1, 0, 1, 0, b, 0};
    run_case(&tc);
  }
}

/* Every row of g_op (or the one asked for). Returns 1 if a case failed on any rank. */
static int run_op(unsigned sel) {
  int bad = 0;
  if (g_noforce) sel = 1; /* once, through MPI_<Op> as the environment set it up */
  for (int a = 0; a < mg_colls[g_op].nalgs; a++) {
    if (!(sel >> a & 1u)) continue;
    g_alg = a;
    g_measure = (mg_colls[g_op].algs[a].restrictions & MG_R_MEASURE_ONLY) != 0;
    g_ncase = g_nfail = g_nshown = 0;
    if (!g_noforce) force(a);
    TEST_MPI(PMPI_Barrier(g_comm));
    run_cases();
    long fails = 0, cases = g_ncase;
    TEST_MPI(PMPI_Allreduce(&g_nfail, &fails, 1, MPI_LONG, MPI_SUM, g_comm));
    if (!g_noforce) force(0);
    if (g_rank == 0) {
      printf("p2ptest: %-16s %-28s %4ld cases%s: %s\n", mg_colls[g_op].name,
             g_noforce ? "(as the environment chose)" : mg_colls[g_op].algs[a].name, cases,
             g_measure ? " (measure-only: as the benchmark runs it, and forced: the default)" : "",
             fails ? "FAILED" : "passed");
      if (fails) printf("p2ptest:   %ld failures over all ranks (details on stderr)\n", fails);
      fflush(stdout);
    }
    bad |= fails != 0;
  }
  return bad;
}

static int write_list(const char *path) {
  FILE *f = fopen(path, "w");
  if (!f) return perror(path), 2;
  for (int c = MG_NCOLLECTIVES; c < MG_NCOLL; c++) if (mg_coll_is_p2p((mg_coll)c)) fprintf(f, "%s %d\n", mg_colls[c].name, mg_colls[c].nalgs);
  return fclose(f) == 0 ? 0 : 2;
}

static void usage(void) {
  if (g_rank == 0)
    fprintf(stderr, "usage: p2ptest [--quick] [--no-force] [--world-returns] [--watchdog S] [-v] <op>[=<alg>] ... | --list FILE\n");
}

int main(int argc, char **argv) {
  if (argc == 3 && !strcmp(argv[1], "--list")) return write_list(argv[2]);
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &g_rank);
  mg_test_mpi_start("p2ptest");
  MPI_Comm_size(MPI_COMM_WORLD, &g_np);
  unsigned sel[MG_NCOLL] = {0};
  int any = 0, world_returns = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--quick")) {
      g_quick = 1;
    } else if (!strcmp(argv[i], "--no-force")) {
      g_noforce = 1;
    } else if (!strcmp(argv[i], "--world-returns")) {
      world_returns = 1;
    } else if (!strcmp(argv[i], "-v")) {
      g_verbose = 1;
    } else if (!strcmp(argv[i], "--watchdog") && i + 1 < argc) {
      mg_test_watch_seconds = atoi(argv[++i]);
    } else {
      char name[128];
      snprintf(name, sizeof name, "%s", argv[i]);
      char *eq = strchr(name, '=');
      if (eq) *eq = '\0';
      int c = mg_coll_find(name);
      int alg = c >= 0 && eq ? mg_alg_find((mg_coll)c, eq + 1) : 0;
      if (c < 0 || !mg_coll_is_p2p((mg_coll)c) || alg < 0) {
        if (g_rank == 0) fprintf(stderr, "p2ptest: '%s' is not a point-to-point operation or row\n", argv[i]);
        usage();
        MPI_Finalize();
        return 2;
      }
      sel[c] |= eq ? 1u << alg : ~0u;
      any = 1;
    }
  }
  if (!any) {
    usage();
    MPI_Finalize();
    return 2;
  }
  if (g_np < 2) {
    if (g_rank == 0) fprintf(stderr, "p2ptest: needs at least 2 processes\n");
    MPI_Finalize();
    return 2;
  }
  if (world_returns) TEST_MPI(PMPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  TEST_MPI(PMPI_Comm_dup(MPI_COMM_WORLD, &g_comm));
  TEST_MPI(PMPI_Comm_set_errhandler(g_comm, MPI_ERRORS_RETURN));
  TEST_MPI(PMPI_Comm_split(g_comm, g_rank / 2, g_rank, &g_pair));
  TEST_MPI(mg_core_init());
  int *ub = NULL, flag = 0;
  TEST_MPI(PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &ub, &flag));
  g_tag_ub = flag ? *ub : 32767;
  if (g_rank == 0) {
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(lib, &len);
    char *nl = strchr(lib, '\n');
    if (nl) *nl = '\0';
    printf("p2ptest: %s; np=%d; MPI_TAG_UB %d%s%s\n", lib, g_np, g_tag_ub, g_quick ? " (quick)" : "",
           world_returns ? "; MPI_COMM_WORLD returns errors too" : "");
    fflush(stdout);
  }
  make_types();
  int bad = 0;
  for (int c = MG_NCOLLECTIVES; c < MG_NCOLL; c++)
    if (sel[c]) g_op = (mg_coll)c, bad |= run_op(sel[c]);
  int bad_all = 0;
  TEST_MPI(PMPI_Allreduce(&bad, &bad_all, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  if (g_rank == 0) printf("p2ptest: %s\n", bad_all ? "FAILED" : "all passed");
  free_types();
  mg_rma_finalize();
  mg_hier_finalize();
  mg_core_finalize();
  PMPI_Comm_free(&g_pair);
  PMPI_Comm_free(&g_comm);
  MPI_Finalize();
  return bad_all ? 1 : 0;
}
