/*
 * Mock-ups of MPI_Allgather: every rank contributes a block of n bytes
 * (recvcount x size(recvtype)) and receives all p blocks in rank order.
 *
 * GL1 allgather_as_gather_bcast  Allgather(n) <= Gather(n) + Bcast(p*n)
 *   Gather to rank 0 straight into the user's receive buffer, then broadcast
 *   the whole p*n vector from there. No scratch. With binomial trees about
 *   2 ceil(log p) alpha + (p-1)n beta + ceil(log p) p n beta: worth it only
 *   where the library's allgather is badly tuned.
 * GL2 allgather_as_alltoall  Allgather(n) <= Alltoall(n)
 *   Alltoall whose send buffer holds p packed copies of the own block.
 *   Scratch p*n bytes, 2*p*n where the receive type needs the detour below.
 *   Same volume as allgather, (p-1)(alpha + n beta) with a pairwise
 *   alltoall, plus packing the own block once.
 * GL3 allgather_as_allreduce  Allgather(n) <= Allreduce(p*n)
 *   Bitwise-or allreduce over a zeroed p*n byte vector in which each rank
 *   has written its packed block at its own offset, then unpack. Scratch p*n
 *   bytes. Rabenseifner-like allreduce: 2 log p alpha + 2 (p-1)/p p n beta
 *   plus the or of p*n bytes; it doubles the volume of a good allgather.
 * GL4 allgather_as_allgatherv  Allgather(n) <= Allgatherv(n)
 *   Allgatherv with equal counts, in place (see below). Scratch 2p ints;
 *   same cost as allgather (plus a local copy of n bytes) unless the
 *   library's allgatherv is the better-tuned one.
 *
 * All need p*n to fit an int count (MG_R_PN_INT). MPI_IN_PLACE is used on all
 * ranks or none (the standard requires it), so branching on it is safe. The
 * own block, packed, is n bytes whatever type the rank uses; packed bytes go
 * on the wire as MPI_PACKED (matches any type) or MPI_BYTE (the reduction).
 *
 * Point-to-point rows (the p2p family, TGT 2010 §V.D, eq. 35; p2p_sched.h: how their data travels,
 * the tags, the trees): simple algorithms written with PMPI point-to-point calls on the private
 * communicator of mg_p2p_comm. A library whose collective is slower than one of them is
 * inconsistent, and the algorithm is its repair. Costs in LogGP terms: msg(s) one message of s
 * bytes end to end, x(s) a send and a receive at once (a Sendrecv round: p2p_sched.h, mg_p2p_xchg),
 * g(s) the gap between two sends, copy(s) a local copy; the cost functions below price exactly
 * these schedules; n is the per-rank block in bytes.
 *   allgather_as_ring     p-1 rounds: send the block received last to rank+1, receive the next
 *                         from rank-1. Cost (p-1) x(n). Scratch p n (non-dense receive type).
 *   allgather_as_recdbl   recursive doubling: round k exchanges 2^k blocks with rank xor 2^k.
 *                         p not a power of two: the r = p - p' ranks above the largest power of
 *                         two p' first give their block to rank - p', rank i < r then carries
 *                         blocks i and i + p' (two runs per message), and at the end sends the
 *                         whole result to rank i + p'. log2 p' rounds x(2^k n), + msg(n) + msg(p n) for
 *                         r > 0. Scratch p n (non-dense receive type).
 *   allgather_as_bruck    Bruck: ceil(log2 p) rounds, round k sends the first min(2^k, p-2^k)
 *                         blocks of a buffer rotated by the rank to rank - 2^k, receives as many
 *                         from rank + 2^k behind them; then the rotation is undone locally.
 *                         Cost sum_k x(min(2^k, p-2^k) n) + copy(p n). Scratch p n.
 * MPI_IN_PLACE. Allgather: the own block is taken from the receive buffer.
 */
#include <string.h>

#include "algs/algs.h"
#include "algs/p2p_sched.h"

int mg_allgather_as_gather_bcast(const mg_call *c) {
  int rc;
  if (c->sbuf != MPI_IN_PLACE) {
    rc = PMPI_Gather(c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype, 0, c->comm);
  } else if (c->rank == 0) {
    rc = PMPI_Gather(MPI_IN_PLACE, c->rcount, c->rtype, c->rbuf, c->rcount, c->rtype, 0, c->comm);
  } else { /* a non-root cannot gather in place: it sends its block of the receive buffer */
    mg_type rt;
    rc = mg_type_get(c->rtype, &rt);
    if (rc != MPI_SUCCESS) return rc;
    const void *own = mg_type_at(c->rbuf, &rt, (size_t)c->rank * (size_t)c->rcount);
    rc = PMPI_Gather(own, c->rcount, c->rtype, NULL, c->rcount, c->rtype, 0, c->comm);
  }
  if (rc != MPI_SUCCESS) return rc;
  return PMPI_Bcast(c->rbuf, c->size * c->rcount, c->rtype, 0, c->comm);
}

size_t mg_allgather_as_alltoall_mem(const mg_call *c) {
  size_t pn = (size_t)c->size * c->bytes;
  return mg_align(pn) + pn;
}

int mg_allgather_as_alltoall(const mg_call *c) {
  size_t n = c->bytes, pn = (size_t)c->size * n;
  int direct, rc = mg_packed_recv_ok(c->rtype, &direct);
  if (rc != MPI_SUCCESS) return rc;
  char *cur = mg_scratch_data(direct ? pn : mg_align(pn) + pn);
  char *s = mg_carve(&cur, pn);
  rc = mg_pack_own(c, s);
  if (rc != MPI_SUCCESS) return rc;
  for (int i = 1; i < c->size; i++) memcpy(s + (size_t)i * n, s, n);
  if (direct) return PMPI_Alltoall(s, (int)n, MPI_PACKED, c->rbuf, c->rcount, c->rtype, c->comm);
  char *r = mg_carve(&cur, pn);
  rc = PMPI_Alltoall(s, (int)n, MPI_PACKED, r, (int)n, MPI_PACKED, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return mg_unpack(r, (int)pn, c->rbuf, c->size * c->rcount, c->rtype);
}

size_t mg_allgather_as_allreduce_mem(const mg_call *c) { return (size_t)c->size * c->bytes; }

int mg_allgather_as_allreduce(const mg_call *c) {
  size_t n = c->bytes, total = (size_t)c->size * n;
  char *s = mg_scratch_data(total);
  memset(s, 0, total);
  int rc = mg_pack_own(c, s + (size_t)c->rank * n);
  if (rc != MPI_SUCCESS) return rc;
  rc = PMPI_Allreduce(MPI_IN_PLACE, s, (int)total, MPI_BYTE, MPI_BOR, c->comm);
  if (rc != MPI_SUCCESS) return rc;
  return mg_unpack(s, (int)total, c->rbuf, c->size * c->rcount, c->rtype);
}

size_t mg_allgather_as_allgatherv_mem(const mg_call *c) {
  return mg_align(2 * (size_t)c->size * sizeof(int)) + (size_t)c->size * c->bytes;
}

/*
 * Always in place: the own block is first copied into the receive buffer.
 * Open MPI (seen with 4.1.4) picks its allgatherv algorithm from size(sendtype) x
 * sum(recvcounts), which differs between ranks when a rank's send and receive
 * types differ in size (legal: only n must agree) -- ranks then run different
 * algorithms and deadlock. In place it uses the receive type: p*n everywhere.
 * The ignored send arguments are set to the receive side for the same reason.
 *
 * MPICH 4.0.2 cuts allgatherv messages into chunks of 32768 / extent(recvtype)
 * elements; with signature-equal receive types of different extents on
 * different ranks the chunks differ and the call hangs (blocks above 32 KiB).
 * So, as in mg_packed_recv_ok, only predefined types without padding receive
 * directly; a rank with another receive type gathers packed bytes into scratch
 * (chunks of 32768 bytes, like the direct ones) and unpacks them.
 */
int mg_allgather_as_allgatherv(const mg_call *c) {
  int p = c->size, direct, rc = mg_packed_recv_ok(c->rtype, &direct);
  if (rc != MPI_SUCCESS) return rc;
  size_t n = c->bytes, pn = (size_t)p * n;
  size_t ints = 2 * (size_t)p * sizeof(int);
  char *dc, *cur = mg_scratch_split(ints, mg_allgather_as_allgatherv_mem(c) - mg_align(ints), &dc);
  int *counts = mg_carve(&cur, ints), *displs = counts + p;
  int unit = direct ? c->rcount : (int)n; /* block length in receive elements */
  for (int i = 0; i < p; i++) {
    counts[i] = unit;
    displs[i] = i * unit;
  }
  if (!direct) {
    char *s = mg_carve(&dc, pn);
    rc = mg_pack_own(c, s + (size_t)c->rank * n);
    if (rc == MPI_SUCCESS)
      rc = PMPI_Allgatherv(MPI_IN_PLACE, (int)n, MPI_PACKED, s, counts, displs, MPI_PACKED, c->comm);
    if (rc != MPI_SUCCESS) return rc;
    return mg_unpack(s, (int)pn, c->rbuf, p * c->rcount, c->rtype);
  }
  if (c->sbuf != MPI_IN_PLACE) {
    mg_type rt;
    rc = mg_type_get(c->rtype, &rt);
    if (rc != MPI_SUCCESS) return rc;
    rc = mg_copy(c->sbuf, c->scount, c->stype, mg_type_at(c->rbuf, &rt, (size_t)c->rank * (size_t)c->rcount),
                 c->rcount, c->rtype);
    if (rc != MPI_SUCCESS) return rc;
  }
  return PMPI_Allgatherv(MPI_IN_PLACE, c->rcount, c->rtype, c->rbuf, counts, displs, c->rtype, c->comm);
}

size_t mg_allgather_as_ring_mem(const mg_call *c) { return mg_align((size_t)c->size * c->bytes); }
size_t mg_allgather_as_recdbl_mem(const mg_call *c) { return mg_align((size_t)c->size * c->bytes); }
size_t mg_allgather_as_bruck_mem(const mg_call *c) { return mg_align((size_t)c->size * c->bytes); }

/* The byte image of the p blocks: the receive buffer itself when its type is dense, else scratch
 * of p n bytes; the own block placed in its slot. */
static int ag_image(const mg_call *c, const mg_type *rt, char **img) {
  size_t b = c->bytes;
  if (!mg_type_is_dense(rt)) {
    *img = mg_scratch_data((size_t)c->size * b);
    return mg_pack_own(c, *img + (size_t)c->rank * b);
  }
  *img = c->rbuf;
  if (c->sbuf == MPI_IN_PLACE) return MPI_SUCCESS;
  return mg_copy(c->sbuf, c->scount, c->stype, mg_p2p_block(c->rbuf, rt, c->rcount, c->rank), c->rcount, c->rtype);
}

/* Unpack a scratch image into the receive buffer (all blocks but an in-place rank's own). */
static int ag_unpack(const mg_call *c, const mg_type *rt, const char *img) {
  int rc = MPI_SUCCESS;
  if (img == (const char *)c->rbuf) return rc;
  for (int i = 0; i < c->size && rc == MPI_SUCCESS; i++)
    if (i != c->rank || c->sbuf != MPI_IN_PLACE)
      rc = mg_unpack(img + (size_t)i * c->bytes, (int)c->bytes, mg_p2p_block(c->rbuf, rt, c->rcount, i), c->rcount,
                     c->rtype);
  return rc;
}

int mg_allgather_as_ring(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, me = c->rank, bi = (int)c->bytes;
  size_t b = c->bytes;
  MPI_Comm pc;
  mg_type rt;
  char *img;
  int rc = mg_p2p_comm(c->comm, &pc);
  if (rc == MPI_SUCCESS) rc = mg_type_get(c->rtype, &rt);
  if (rc == MPI_SUCCESS) rc = ag_image(c, &rt, &img);
  for (int s = 0; s < p - 1 && rc == MPI_SUCCESS; s++) {
    int so = (me - s + p) % p, ro = (me - s - 1 + 2 * p) % p;
    rc = PMPI_Sendrecv(img + (size_t)so * b, bi, MPI_BYTE, (me + 1) % p, MG_P2P_TAG_ALLGATHER, img + (size_t)ro * b,
                       bi, MPI_BYTE, (me - 1 + p) % p, MG_P2P_TAG_ALLGATHER, pc, MPI_STATUS_IGNORE);
  }
  return rc == MPI_SUCCESS ? ag_unpack(c, &rt, img) : rc;
}

int mg_allgather_as_recdbl(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, me = c->rank, p2 = mg_p2p_pow2_floor(p), rem = p - p2;
  size_t b = c->bytes;
  MPI_Comm pc;
  mg_type rt;
  char *img;
  int rc = mg_p2p_comm(c->comm, &pc);
  if (rc == MPI_SUCCESS) rc = mg_type_get(c->rtype, &rt);
  if (rc == MPI_SUCCESS) rc = ag_image(c, &rt, &img);
  if (rc != MPI_SUCCESS) return rc;
  if (me >= p2) { /* an extra rank: its block to me - p2, later the whole result from there */
    rc = PMPI_Send(img + (size_t)me * b, (int)b, MPI_BYTE, me - p2, MG_P2P_TAG_ALLGATHER, pc);
    if (rc == MPI_SUCCESS)
      rc = PMPI_Recv(img, (int)((size_t)p * b), MPI_BYTE, me - p2, MG_P2P_TAG_ALLGATHER, pc, MPI_STATUS_IGNORE);
    return rc == MPI_SUCCESS ? ag_unpack(c, &rt, img) : rc;
  }
  if (me < rem)
    rc = PMPI_Recv(img + (size_t)(me + p2) * b, (int)b, MPI_BYTE, me + p2, MG_P2P_TAG_ALLGATHER, pc,
                   MPI_STATUS_IGNORE);
  /* before round `mask` rank i holds blocks [g, g + mask) and [g + p2, g + p2 + s) of the group
   * g = i & ~(mask - 1), s = min(mask, max(0, rem - g)): it sends both runs, receives the peer's */
  for (int mask = 1; mask < p2 && rc == MPI_SUCCESS; mask <<= 1) {
    int peer = me ^ mask, g = me & ~(mask - 1), gp = peer & ~(mask - 1), nr = 0;
    int s2 = rem - g < 0      ? 0
             : rem - g > mask ? mask
                              : rem - g,
        r2 = rem - gp < 0      ? 0
             : rem - gp > mask ? mask
                               : rem - gp;
    MPI_Request rq[4];
    struct {
      char *at;
      int blocks, send;
    } msg[4] = {{img + (size_t)gp * b, mask, 0},
                {img + (size_t)(gp + p2) * b, r2, 0},
                {img + (size_t)g * b, mask, 1},
                {img + (size_t)(g + p2) * b, s2, 1}};
    for (int k = 0; k < 4 && rc == MPI_SUCCESS; k++) {
      int cnt = (int)((size_t)msg[k].blocks * b);
      if (!msg[k].blocks) continue;
      rc = msg[k].send ? PMPI_Isend(msg[k].at, cnt, MPI_BYTE, peer, MG_P2P_TAG_ALLGATHER, pc, &rq[nr])
                       : PMPI_Irecv(msg[k].at, cnt, MPI_BYTE, peer, MG_P2P_TAG_ALLGATHER, pc, &rq[nr]);
      if (rc == MPI_SUCCESS) nr++;
    }
    rc = mg_p2p_waitall(nr, rq, rc);
  }
  if (rc == MPI_SUCCESS && me < rem)
    rc = PMPI_Send(img, (int)((size_t)p * b), MPI_BYTE, me + p2, MG_P2P_TAG_ALLGATHER, pc);
  return rc == MPI_SUCCESS ? ag_unpack(c, &rt, img) : rc;
}

int mg_allgather_as_bruck(const mg_call *c, int unused) {
  (void)unused;
  int p = c->size, me = c->rank;
  size_t b = c->bytes;
  MPI_Comm pc;
  mg_type rt;
  int rc = mg_p2p_comm(c->comm, &pc);
  if (rc == MPI_SUCCESS) rc = mg_type_get(c->rtype, &rt);
  if (rc != MPI_SUCCESS) return rc;
  char *x = mg_scratch_data((size_t)p * b); /* slot j: the block of rank (me + j) mod p */
  rc = mg_pack_own(c, x);
  for (int d = 1; d < p && rc == MPI_SUCCESS; d <<= 1) {
    int cnt = (int)((size_t)(d < p - d ? d : p - d) * b);
    rc = PMPI_Sendrecv(x, cnt, MPI_BYTE, (me - d + p) % p, MG_P2P_TAG_ALLGATHER, x + (size_t)d * b, cnt, MPI_BYTE,
                       (me + d) % p, MG_P2P_TAG_ALLGATHER, pc, MPI_STATUS_IGNORE);
  }
  if (rc != MPI_SUCCESS) return rc;
  if (mg_type_is_dense(&rt)) { /* undo the rotation: two runs */
    memcpy((char *)c->rbuf + (size_t)me * b, x, (size_t)(p - me) * b);
    memcpy(c->rbuf, x + (size_t)(p - me) * b, (size_t)me * b);
    return MPI_SUCCESS;
  }
  for (int j = 0; j < p && rc == MPI_SUCCESS; j++)
    if (j || c->sbuf != MPI_IN_PLACE)
      rc = mg_unpack(x + (size_t)j * b, (int)b, mg_p2p_block(c->rbuf, &rt, c->rcount, (me + j) % p), c->rcount,
                     c->rtype);
  return rc;
}

/* p-1 rounds, each a Sendrecv of n bytes that forwards the block received in the round before. */
double mg_cost_allgather_as_ring(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  return mg_p2p_copy(m, n) + (p - 1) * mg_p2p_xchg(m, n);
}

/* p' = the largest power of two <= p, r = p - p'. r > 0: one message of n (extra rank to its
 * partner) before and one of p n (the result back) after. Round k (mask 2^k < p') exchanges the
 * run of 2^k blocks and, where the group carries extra blocks, a second run of min(2^k, r) blocks
 * (the critical path: group 0), which follows one gap later. */
double mg_cost_allgather_as_recdbl(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  int p2 = mg_p2p_pow2_floor(p), rem = p - p2;
  double t = mg_p2p_copy(m, n);
  for (int mask = 1; mask < p2; mask <<= 1) {
    int second = rem < mask ? rem : mask;
    t += mg_p2p_xchg(m, mask * n) + (second ? mg_loggp_gap(m, second * n) : 0);
  }
  if (rem) t += mg_loggp_msg(m, n) + mg_loggp_msg(m, p * n);
  return t;
}

/* ceil(log2 p) Sendrecv rounds of min(2^k, p - 2^k) blocks, then the rotation undone (p n copy). */
double mg_cost_allgather_as_bruck(const mg_loggp *m, int p, double n, int param) {
  (void)param;
  double t = mg_p2p_copy(m, n) + mg_p2p_copy(m, p * n);
  for (int d = 1; d < p; d <<= 1) t += mg_p2p_xchg(m, (d < p - d ? d : p - d) * n);
  return t;
}
