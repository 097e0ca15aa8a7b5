/*
 * The LogGP cost functions of the point-to-point rows (registry.h mg_cost_fn, family p2p): every
 * p2p row has one; on a synthetic LogGP table its prediction is finite and not negative for any p
 * and n, does not fall as n grows, and matches the schedules that are simple enough to write down
 * here (the linear and binomial bcast, the chain's pipeline, the ring allreduce). No MPI launch:
 * the functions are pure arithmetic.
 */
#include <math.h>

#include "../common/test.h"
#include "model/loggp.h"
#include "registry/registry.h"

/* L = 1 us, o = 0.3 us, g = 0.5 us + (s-1) G, G = 0.1 ns/byte: the gap below T(s). */
static void model(mg_loggp *m) {
  static const double sizes[] = {1, 1024, 65536, 1 << 20};
  memset(m, 0, sizeof *m);
  m->p = 8, m->L = 1e-6, m->G = 1e-10, m->npts = 4;
  for (int i = 0; i < m->npts; i++) {
    m->size[i] = sizes[i];
    m->os[i] = m->orecv[i] = 3e-7;
    m->gap[i] = 5e-7 + (sizes[i] - 1) * m->G;
  }
  m->copy = 1e-10, m->reduce = 3e-10;
}

static const mg_alg *row(const char *coll, const char *alg) {
  int c = mg_coll_find(coll), a = c < 0 ? -1 : mg_alg_find(c, alg);
  return a < 0 ? NULL : &mg_colls[c].algs[a];
}

static double cost(const mg_loggp *m, const char *coll, const char *alg, int p, double n) {
  const mg_alg *a = row(coll, alg);
  if (!a || !a->costfn) {
    TEST_FAIL("%s: no such p2p row with a cost function", alg);
    return NAN;
  }
  return a->costfn(m, p, n, a->param);
}

int main(void) {
  mg_loggp m;
  model(&m);
  static const int ps[] = {1, 2, 3, 4, 5, 7, 8, 64, 1000};
  static const double ns[] = {1, 8, 1000, 16384, 65536, 100000, 1 << 20, 1 << 24};
  int rows = 0;

  TEST_CASE("every p2p row: a cost, finite, >= 0, not falling with n");
  for (int c = 0; c < MG_NCOLL; c++)
    for (int i = 0; i < mg_colls[c].nalgs; i++) {
      const mg_alg *a = &mg_colls[c].algs[i];
      if (a->family != MG_FAM_P2P) continue;
      rows++;
      if (!a->costfn) {
        TEST_FAIL("%s: a p2p row without a cost function", a->name);
        continue;
      }
      for (size_t pi = 0; pi < sizeof ps / sizeof ps[0]; pi++) {
        double prev = 0;
        for (size_t ni = 0; ni < sizeof ns / sizeof ns[0]; ni++) {
          double t = a->costfn(&m, ps[pi], ns[ni], a->param);
          if (!isfinite(t) || t < 0 || t < prev * (1 - 1e-12))
            TEST_FAIL("%s: p=%d n=%g: %g (at the size before: %g)", a->name, ps[pi], ns[ni], t, prev);
          else
            ASSERT_TRUE(1);
          prev = t;
        }
      }
    }
  ASSERT_TRUE(rows >= 17);

  TEST_CASE("bcast_as_linear: p-1 messages back to back");
  for (int p = 2; p <= 9; p++)
    ASSERT_REL(cost(&m, "bcast", "bcast_as_linear", p, 4096),
               (p - 2) * mg_loggp_gap(&m, 4096) + mg_loggp_msg(&m, 4096), 1e-9);

  TEST_CASE("bcast_as_binomial: ceil(log2 p) messages on the path (the gap below a message)");
  ASSERT_REL(cost(&m, "bcast", "bcast_as_binomial", 8, 4096), 3 * mg_loggp_msg(&m, 4096), 1e-9);
  ASSERT_REL(cost(&m, "bcast", "bcast_as_binomial", 2, 4096), mg_loggp_msg(&m, 4096), 1e-9);
  /* p = 3: the root sends to 2, then to 1, which gets its message a gap later */
  ASSERT_REL(cost(&m, "bcast", "bcast_as_binomial", 3, 4096), mg_loggp_gap(&m, 4096) + mg_loggp_msg(&m, 4096),
             1e-9);

  TEST_CASE("bcast_as_chain16k: p-1 hops of a segment, then one gap per further segment");
  ASSERT_REL(cost(&m, "bcast", "bcast_as_chain16k", 5, 4 * 16384),
             4 * mg_loggp_msg(&m, 16384) + 3 * mg_loggp_gap(&m, 16384), 1e-9);
  ASSERT_REL(cost(&m, "bcast", "bcast_as_chain16k", 5, 1000), 4 * mg_loggp_msg(&m, 1000), 1e-9);

  TEST_CASE("allreduce_as_ring: 2(p-1) exchanges of n/p and (p-1) reductions of n/p");
  ASSERT_REL(cost(&m, "allreduce", "allreduce_as_ring", 4, 1 << 20),
             6 * mg_loggp_msg(&m, (1 << 20) / 4.0) + 3 * m.reduce * (1 << 20) / 4.0, 1e-9);

  TEST_CASE("no communication on one process for the trees and pipelines");
  ASSERT_TRUE(cost(&m, "bcast", "bcast_as_binomial", 1, 1 << 20) == 0);
  ASSERT_TRUE(cost(&m, "reduce", "reduce_as_rabenseifner", 1, 1 << 20) == 0);
  ASSERT_TRUE(cost(&m, "allreduce", "allreduce_as_recdbl", 1, 1 << 20) == 0);

  return mg_test_summary("test_p2p_cost");
}
