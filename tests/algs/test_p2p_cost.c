/*
 * The point-to-point family's arithmetic, without MPI: the binomial trees of src/algs/p2p_sched.h
 * (every rank is in exactly one child's subtree of its parent, the subtrees tile the ranks) and
 * the LogGP cost functions of the rows (mg_cost_*): closed forms of their schedules on a model
 * with constant overheads and a linear gap (the data-movement rows, the barriers, and the bcast
 * and reduction rows whose schedules are simple enough to write down here), and for every row of
 * the family a cost that is finite, not negative and not decreasing in the message size.
 */
#include <math.h>

#include "algs/p2p_sched.h"
#include "common/test.h"
#include "loggp/loggp.h"
#include "registry/algorithms.h"
#include "registry/registry.h"

static mg_loggp model(double copy) {
  mg_loggp m = {.p = 64, .L = 2e-6, .G = 1e-10, .npts = 2, .copy = copy};
  m.size[0] = 1, m.size[1] = 1 << 20;
  m.os[0] = m.os[1] = 1e-6;
  m.orecv[0] = m.orecv[1] = 1.5e-6;
  m.gap[0] = 3e-6, m.gap[1] = 3e-6 + ((1 << 20) - 1) * m.G;
  return m;
}

/* Times of microseconds: equal to a femtosecond. */
#define ASSERT_TIME(a, b) ASSERT_NEAR(a, b, 1e-15)

/* Every relative rank but the root is a child of its parent, inside exactly one of the parent's
 * children's subtrees; the root's children's subtrees and the root tile [0, p). */
static void trees(void) {
  TEST_CASE("binomial trees");
  for (int p = 1; p <= 70; p++) {
    int bad = 0;
    ASSERT_EQ(mg_p2p_subtree(0, p), p);
    for (int v = 0; v < p; v++) {
      int sub = mg_p2p_subtree(v, p), covered = 1;
      for (int m = 1; m < sub; m <<= 1) { /* the children, as the algorithms enumerate them */
        int s = m < sub - m ? m : sub - m;
        if (mg_p2p_subtree(v + m, p) != s || (v + m) - ((v + m) & -(v + m)) != v) bad++;
        covered += s;
      }
      if (covered != sub || v + sub > p) bad++;
    }
    ASSERT_MSG(!bad, "p=%d: %d inconsistent subtrees", p, bad);
  }
  ASSERT_EQ(mg_p2p_log2_ceil(1), 0);
  ASSERT_EQ(mg_p2p_log2_ceil(5), 3);
  ASSERT_EQ(mg_p2p_log2_ceil(8), 3);
  ASSERT_EQ(mg_p2p_pow2_floor(7), 4);
  ASSERT_EQ(mg_p2p_pow2_ceil(7), 8);
}

static void closed_forms(void) {
  mg_loggp m0 = model(0);
  const mg_loggp *m = &m0;
  double n = 1000;
#define MSG(s) mg_loggp_msg(m, (s))
  TEST_CASE("gather_as_binomial");
  ASSERT_TIME(mg_cost_gather_as_binomial(m, 8, n, 0), MSG(n) + MSG(2 * n) + MSG(4 * n));
  ASSERT_TIME(mg_cost_gather_as_binomial(m, 5, n, 0), MSG(n) + MSG(2 * n)); /* 3 -> 2 -> 0 */
  ASSERT_TIME(mg_cost_gather_as_binomial(m, 1, n, 0), 0);
  TEST_CASE("scatter_as_binomial");
  /* the root sends 1 block to rank 4 first, then 2 to rank 2, which passes one on */
  ASSERT_TIME(mg_cost_scatter_as_binomial(m, 5, n, 0), mg_loggp_gap(m, n) + MSG(2 * n) + MSG(n));
  ASSERT_TIME(mg_cost_scatter_as_binomial(m, 2, n, 0), MSG(n));
  TEST_CASE("allgather");
  ASSERT_TIME(mg_cost_allgather_as_ring(m, 4, n, 0), 3 * MSG(n));
  ASSERT_TIME(mg_cost_allgather_as_recdbl(m, 8, n, 0), MSG(n) + MSG(2 * n) + MSG(4 * n));
  ASSERT_TIME(mg_cost_allgather_as_recdbl(m, 6, n, 0),
              MSG(n) + mg_loggp_gap(m, n) + MSG(2 * n) + mg_loggp_gap(m, 2 * n) + MSG(n) + MSG(6 * n));
  ASSERT_TIME(mg_cost_allgather_as_bruck(m, 5, n, 0), MSG(n) + MSG(2 * n) + MSG(n));
  TEST_CASE("alltoall");
  ASSERT_TIME(mg_cost_alltoall_as_pairwise(m, 5, n, 0), 4 * MSG(n));
  ASSERT_TIME(mg_cost_alltoall_as_bruck(m, 5, n, 0), MSG(2 * n) + MSG(2 * n) + MSG(n)); /* slots {1,3} {2,3} {4} */
  TEST_CASE("barrier");
  ASSERT_TIME(mg_cost_barrier_as_dissemination(m, 5, 0, 0), 3 * MSG(0));
  ASSERT_TIME(mg_cost_barrier_as_dissemination(m, 1, 0, 0), 0);
  ASSERT_TIME(mg_cost_barrier_as_binomial(m, 4, 0, 0), 4 * MSG(0));
  double per = mg_loggp_gap(m, 0) > mg_loggp_or(m, 0) ? mg_loggp_gap(m, 0) : mg_loggp_or(m, 0);
  ASSERT_TIME(mg_cost_barrier_as_linear(m, 4, 0, 0), 2 * MSG(0) + 2 * per + 2 * mg_loggp_gap(m, 0));
#undef MSG
}

/* Every row of the family has a cost that is finite, >= 0 and does not decrease with n. */
static void every_row(void) {
  static const double ns[] = {0, 1, 8, 1000, 65536, 1 << 20, 1 << 24};
  static const int ps[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 13, 16, 17, 31, 64, 100, 1000};
  mg_loggp m = model(2.5e-10);
  int rows = 0;
  for (int c = 0; c < MG_NCOLL; c++)
    for (int a = 0; a < mg_colls[c].nalgs; a++) {
      const mg_alg *al = &mg_colls[c].algs[a];
      if (al->family != MG_FAM_P2P) continue;
      TEST_CASE(al->name);
      rows++;
      ASSERT_TRUE(al->costfn != NULL);
      if (!al->costfn) continue;
      for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        double last = 0;
        for (size_t j = 0; j < sizeof ns / sizeof ns[0]; j++) {
          double t = al->costfn(&m, ps[i], ns[j], al->param);
          ASSERT_MSG(isfinite(t) && t >= 0 && t >= last * (1 - 1e-12), "p=%d n=%g: cost %g after %g", ps[i], ns[j], t,
                     last);
          last = t;
        }
      }
    }
  TEST_CASE("family rows");
  ASSERT_TRUE(rows >= 30); /* 13 data-movement and barrier rows, 17 bcast and reduction rows */
}

/* The bcast and reduction rows (bcast.c; reduce.c, allreduce.c, reduce_scatter_block.c, scan.c). */
#define MSG(s) mg_loggp_msg(m, (s))
static void reductions(void) {
  mg_loggp m0 = model(1e-10);
  const mg_loggp *m = &m0;
  m0.reduce = 3e-10;
  TEST_CASE("bcast_as_linear: p-1 messages back to back");
  for (int p = 2; p <= 9; p++)
    ASSERT_TIME(mg_cost_bcast_as_linear(m, p, 4096, 0), (p - 2) * mg_loggp_gap(m, 4096) + MSG(4096));
  TEST_CASE("bcast_as_binomial: ceil(log2 p) messages on the path (the gap below a message)");
  ASSERT_TIME(mg_cost_bcast_as_binomial(m, 8, 4096, 0), 3 * MSG(4096));
  ASSERT_TIME(mg_cost_bcast_as_binomial(m, 2, 4096, 0), MSG(4096));
  /* p = 3: the root sends to 2, then to 1, which gets its message a gap later */
  ASSERT_TIME(mg_cost_bcast_as_binomial(m, 3, 4096, 0), mg_loggp_gap(m, 4096) + MSG(4096));
  TEST_CASE("bcast_as_chain16k: p-1 hops of a segment, then one gap per further segment");
  ASSERT_TIME(mg_cost_bcast_as_chain(m, 5, 4 * 16384, 16384), 4 * MSG(16384) + 3 * mg_loggp_gap(m, 16384));
  ASSERT_TIME(mg_cost_bcast_as_chain(m, 5, 1000, 16384), 4 * MSG(1000));
  TEST_CASE("allreduce_as_ring: 2(p-1) exchanges of n/p and (p-1) reductions of n/p");
  ASSERT_TIME(mg_cost_allreduce_as_ring(m, 4, 1 << 20, 0), 6 * MSG((1 << 20) / 4.0) + 3 * m->reduce * (1 << 20) / 4.0);
  TEST_CASE("no communication on one process for the trees and pipelines");
  ASSERT_TRUE(mg_cost_bcast_as_binomial(m, 1, 1 << 20, 0) == 0);
  ASSERT_TRUE(mg_cost_reduce_as_rabenseifner(m, 1, 1 << 20, 0) == 0);
  ASSERT_TRUE(mg_cost_allreduce_as_recdbl(m, 1, 1 << 20, 0) == 0);
}

int main(void) {
  trees();
  closed_forms();
  reductions();
  every_row();
  return mg_test_summary("test_p2p_cost");
}
