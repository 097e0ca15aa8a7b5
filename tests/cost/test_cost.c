/*
 * The cost model: every registry row has a price (a LogGP schedule or an expression that
 * parses), expressions evaluate as written against measured defaults, measured defaults are
 * interpolated log-log and scaled beyond the measured sizes, unmeasured defaults fall back to
 * their model, and bad expressions say what and where.
 */
#include <math.h>

#include "common/test.h"
#include "algs/p2p_sched.h"
#include "cost/cost.h"

#define NEAR(a, b) (fabs((a) - (b)) <= 1e-12 + 1e-9 * fabs(b))

/* Parameters that make hand computation easy: constant overheads, g = 1 us, G = 1 ns/B. */
static void toy(mg_loggp *m) {
  memset(m, 0, sizeof *m);
  m->p = 4;
  m->L = 2e-6;
  m->G = 1e-9;
  m->npts = 2;
  m->size[0] = 1, m->size[1] = 1024;
  m->os[0] = m->os[1] = 0.5e-6;
  m->orecv[0] = m->orecv[1] = 0.25e-6;
  m->gap[0] = 1e-6, m->gap[1] = 1e-6 + 1023e-9;
  m->copy = 0.1e-9;
  m->reduce = 0.5e-9;
}

static int row(int coll, const char *name) { return mg_alg_find(coll, name); }

/* The cheapest point-to-point row of coll at (p, n) under lg (no crowding: toy has no cores). */
static double p2p(const mg_loggp *lg, int coll, int p, double n) {
  double best = INFINITY;
  for (int a = 1; a < mg_colls[coll].nalgs; a++) {
    const mg_alg *al = &mg_colls[coll].algs[a];
    if (al->costfn) best = fmin(best, al->costfn(lg, p, n, al->param));
  }
  return best;
}

#define REL(pr) mg_price_rel(&(pr))

int main(void) {
  mg_loggp lg;
  mg_model m;
  char err[256];
  toy(&lg);

  TEST_CASE("every row priced");
  for (int c = 0; c < MG_NCOLL; c++)
    for (int a = 0; a < mg_colls[c].nalgs; a++) {
      const mg_alg *al = &mg_colls[c].algs[a];
      ASSERT_MSG(al->costfn || al->cost, "%s: no cost model", al->name);
      if (al->cost) ASSERT_MSG(mg_cost_check(al->cost, err, sizeof err) == 0, "%s: %s", al->name, err);
    }

  TEST_CASE("loggp queries");
  ASSERT_TRUE(NEAR(mg_loggp_msg(&lg, 1), 0.5e-6 + 2e-6 + 0.25e-6));
  ASSERT_TRUE(NEAR(mg_loggp_msg(&lg, 1024), 0.5e-6 + 2e-6 + 1023e-9 + 0.25e-6));
  ASSERT_TRUE(NEAR(mg_loggp_gap(&lg, 2048), 1e-6 + 2047e-9)); /* extrapolated with G */
  ASSERT_TRUE(NEAR(mg_loggp_os(&lg, 4096), 0.5e-6));
  mg_loggp rt = lg; /* with the round trips measured: half of them, beyond the largest plus (s - s_max) G */
  rt.rtt[0] = 10e-6, rt.rtt[1] = 14e-6;
  ASSERT_TRUE(NEAR(mg_loggp_msg(&rt, 1), 5e-6));
  ASSERT_TRUE(NEAR(mg_loggp_msg(&rt, 2048), 7e-6 + 1024e-9));
  ASSERT_TRUE(NEAR(mg_loggp_msg_sum(&rt, 1024), 0.5e-6 + 2e-6 + 1023e-9 + 0.25e-6));

  TEST_CASE("crowding");
  mg_loggp cr = lg;
  cr.cores = 2, cr.nodes = 1;
  ASSERT_TRUE(NEAR(mg_loggp_crowding(&cr, 2), 1.0));
  ASSERT_TRUE(NEAR(mg_loggp_crowding(&cr, 4), 2.0));
  ASSERT_TRUE(NEAR(mg_loggp_crowding(&cr, 7), 3.5));
  cr.nodes = 2; /* 7 ranks over 2 nodes: 4 on the fuller one */
  ASSERT_TRUE(NEAR(mg_loggp_crowding(&cr, 7), 2.0));
  cr.cores = 0;
  ASSERT_TRUE(NEAR(mg_loggp_crowding(&cr, 64), 1.0));
  cr.cores = 2, cr.nodes = 1;
  mg_model_init(&m, &cr);
  int ring = row(MG_ALLREDUCE, "allreduce_as_ring"), bin = row(MG_BCAST, "bcast_as_binomial");
  const mg_alg *ra = &mg_colls[MG_ALLREDUCE].algs[ring], *ba = &mg_colls[MG_BCAST].algs[bin];
  ASSERT_TRUE(ra->crowd && !ba->crowd);
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_ALLREDUCE, ring, 4, 65536), 2 * ra->costfn(&cr, 4, 65536, ra->param)));
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_BCAST, bin, 4, 65536), ba->costfn(&cr, 4, 65536, ba->param)));
  /* a binomial tree crowds round by round: at 4 ranks on 2 cores its first round runs one message
   * (2 ranks busy), its second two (4 ranks: twice as slow); the fan-in of reduce the other way */
  int rbin = row(MG_REDUCE, "reduce_as_binomial"), sbin = row(MG_SCATTER, "scatter_as_binomial");
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_BCAST, bin, 4, 65536), 3 * mg_loggp_msg(&cr, 65536)));
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_REDUCE, rbin, 4, 65536), 3 * (mg_loggp_msg(&cr, 65536) + cr.reduce * 65536)));
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_REDUCE, rbin, 2, 65536), mg_loggp_msg(&cr, 65536) + cr.reduce * 65536));
  /* the scatter's fan-out: the root sends 2 blocks to rank 2 (alone), then 1 block each to 1 and 3 at once */
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_SCATTER, sbin, 4, 1024),
                   cr.copy * 1024 + fmax(mg_loggp_msg(&cr, 2048) + 2 * mg_loggp_msg(&cr, 1024), mg_loggp_gap(&cr, 2048) + 2 * mg_loggp_msg(&cr, 1024))));
  ASSERT_EQ(mg_p2p_round_msgs(4, 1), 2);
  ASSERT_EQ(mg_p2p_round_msgs(4, 2), 1);
  ASSERT_EQ(mg_p2p_round_msgs(5, 4), 1);
  ASSERT_EQ(mg_p2p_round_msgs(8, 1), 4);
  mg_model_free(&m);

  TEST_CASE("handoff");
  /* 4 ranks on 2 cores: every message of every schedule is late by the handoff (a waiting rank
   * gave up its processor), which the crowding does not scale; on a node with enough processors
   * (2 ranks) nothing changes. At 4 ranks a 1 KiB bcast_as_binomial was measured 12 times its
   * price without it (16 us against 1.3 us, 2026-11-27), a handoff of 4.9 us measured. */
  cr.handoff = 4e-6;
  mg_model_init(&m, &cr);
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_BCAST, bin, 4, 1024), ba->costfn(&cr, 4, 1024, ba->param) + 2 * 4e-6));
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_BCAST, bin, 2, 1024), ba->costfn(&cr, 2, 1024, ba->param)));
  /* the ring: 2 (p - 1) = 6 exchanges on its critical path, crowded by 2, each two handoffs (both
   * ranks of a Sendrecv round wait for the other's message) */
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_ALLREDUCE, ring, 4, 65536), 2 * ra->costfn(&cr, 4, 65536, ra->param) + 12 * 4e-6));
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_ALLREDUCE, ring, 2, 65536), ra->costfn(&cr, 2, 65536, ra->param)));
  /* scan_as_recdbl at 4 ranks on 2 cores: 2 rounds, each a Sendrecv and the upper rank's two
   * reductions, crowded by 2; the handoffs are 2 per round, 4 in all (1 per round before: priced
   * 4.3 us at 1 KiB against 14.2 us measured, Open MPI, 2026-11-28, on a quiet machine), and
   * allgather_as_ring's 3 rounds and the dissemination barrier's 2 alike; a one-way message (the
   * binomial bcast above) keeps one */
  int srd = row(MG_SCAN, "scan_as_recdbl"), agr = row(MG_ALLGATHER, "allgather_as_ring");
  int bdis = row(MG_BARRIER, "barrier_as_dissemination");
  const mg_alg *sa = &mg_colls[MG_SCAN].algs[srd];
  double x1 = mg_loggp_msg(&cr, 1024);
  ASSERT_TRUE(sa->crowd);
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_SCAN, srd, 4, 1024),
                   2 * (2 * (x1 + 2 * cr.reduce * 1024) + 2 * cr.copy * 1024) + 4 * 4e-6));
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_SCAN, srd, 2, 1024), x1 + 2 * cr.reduce * 1024 + 2 * cr.copy * 1024));
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_ALLGATHER, agr, 4, 1024), 2 * (cr.copy * 1024 + 3 * x1) + 6 * 4e-6));
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_BARRIER, bdis, 4, 0), 2 * 2 * mg_loggp_msg(&cr, 0) + 4 * 4e-6));
  cr.wake = 1e-6; /* what mg_loggp_msg adds */
  ASSERT_TRUE(NEAR(mg_loggp_msg(&cr, 1), 0.5e-6 + 2e-6 + 0.25e-6 + 1e-6));
  cr.wake = 0, cr.handoff = 0;
  mg_model_free(&m);

  TEST_CASE("measured defaults");
  mg_model_init(&m, &lg);
  ASSERT_EQ(mg_model_add(&m, MG_BCAST, 4, 4096, 40e-6), 0); /* added out of order on purpose */
  ASSERT_EQ(mg_model_add(&m, MG_BCAST, 4, 1024, 10e-6), 0);
  ASSERT_EQ(mg_model_add(&m, MG_REDUCE, 4, 1024, 20e-6), 0);
  ASSERT_EQ(mg_model_add(&m, MG_REDUCE, 4, 4096, 20e-6), 0);
  ASSERT_EQ(mg_model_add(&m, MG_GATHER, 4, 256, 7e-6), 0);
  mg_model_sort(&m);
  mg_price_src src;
  ASSERT_TRUE(NEAR(mg_model_default(&m, MG_BCAST, 4, 1024, &src), 10e-6));
  ASSERT_EQ(src, MG_PRICE_MEASURED);
  ASSERT_TRUE(NEAR(mg_model_default(&m, MG_BCAST, 4, 2048, NULL), 20e-6)); /* log-log: the geometric mean */
  /* beyond them: along the model's shape (the cheapest schedule) through the nearest measurement */
  ASSERT_TRUE(NEAR(mg_model_default(&m, MG_BCAST, 4, 16, &src), 10e-6 * p2p(&lg, MG_BCAST, 4, 16) / p2p(&lg, MG_BCAST, 4, 1024)));
  ASSERT_EQ(src, MG_PRICE_EXTRAPOLATED);
  ASSERT_TRUE(NEAR(mg_model_default(&m, MG_BCAST, 4, 8192, &src), 40e-6 * p2p(&lg, MG_BCAST, 4, 8192) / p2p(&lg, MG_BCAST, 4, 4096)));
  ASSERT_EQ(src, MG_PRICE_EXTRAPOLATED);
  ASSERT_TRUE(isnan(mg_model_default(&m, MG_BCAST, 2, 1024, NULL)) ||
              mg_model_default(&m, MG_BCAST, 2, 1024, &src) > 0); /* another p: not these points */
  ASSERT_TRUE(NEAR(mg_model_default(&m, MG_GATHERV, 4, 1024, &src), 7e-6)); /* gatherv as gather(n/p) */

  TEST_CASE("compositions and families");
  int a = row(MG_ALLREDUCE, "allreduce_as_reduce_bcast");
  ASSERT_TRUE(a > 0);
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_ALLREDUCE, a, 4, 1024), 30e-6));
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_ALLREDUCE, a, 4, 2048), 40e-6));
  a = row(MG_BCAST, "bcast_as_split2");
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_BCAST, a, 4, 8192), 2 * 40e-6));
  a = row(MG_BCAST, "bcast_as_padded2"); /* 1000 -> pow2(2000) = 2048 */
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_BCAST, a, 4, 1000), 20e-6));
  a = row(MG_EXSCAN, "exscan_as_scan_sendrecv"); /* scan has no measurement: its model */
  double scan = mg_model_default(&m, MG_SCAN, 4, 1024, &src);
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_EXSCAN, a, 4, 1024), scan + mg_loggp_msg(&lg, 1024)) ||
              (isnan(scan) && isnan(mg_model_alg(&m, MG_EXSCAN, a, 4, 1024))));
  mg_model_free(&m);
  /* the one-sided rows: two fences as barriers and the root's p - 1 gets (puts), each half a message
   * on one node (one copy between the ranks' memories; a message through shared memory makes two),
   * a whole one between nodes; the copy out of (into) the window. Priced as whole messages, the
   * 16 KiB gather_as_rma_get at 2 ranks of Open MPI was 4.5 us, measured 2.9 us, the fastest row of
   * its cell, and 1.53 times faster than the default chosen over it (2026-11-28, quiet) */
  mg_loggp two = lg;
  mg_model_init(&m, &lg);
  ASSERT_EQ(mg_model_add(&m, MG_BARRIER, 4, 0, 5e-6), 0);
  mg_model_sort(&m);
  a = row(MG_GATHER, "gather_as_rma_get");
  int put = row(MG_BCAST, "bcast_as_rma_put");
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_GATHER, a, 4, 16384), 2 * 5e-6 + 1.5 * mg_loggp_msg(&lg, 16384) + lg.copy * 16384));
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_BCAST, put, 4, 16384), 2 * 5e-6 + 1.5 * mg_loggp_msg(&lg, 16384) + lg.copy * 16384));
  mg_model_free(&m);
  two.nodes = 2;
  mg_model_init(&m, &two);
  ASSERT_EQ(mg_model_add(&m, MG_BARRIER, 4, 0, 5e-6), 0);
  mg_model_sort(&m);
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_GATHER, a, 4, 16384), 2 * 5e-6 + 3 * mg_loggp_msg(&lg, 16384) + lg.copy * 16384));
  mg_model_free(&m);

  TEST_CASE("sources and intervals");
  mg_model_init(&m, &lg);
  ASSERT_EQ(mg_model_add_rel(&m, MG_BCAST, 4, 1024, 10e-6, 0.01), 0); /* a spread below the floor */
  ASSERT_EQ(mg_model_add_rel(&m, MG_BCAST, 4, 4096, 40e-6, 0.2), 0);
  ASSERT_EQ(mg_model_add(&m, MG_REDUCE, 4, 1024, 20e-6), 0); /* no spread: the stated default */
  mg_model_sort(&m);
  mg_price pr = mg_model_default_price(&m, MG_BCAST, 4, 1024);
  ASSERT_EQ(pr.src, MG_PRICE_MEASURED);
  ASSERT_TRUE(NEAR(pr.t, 10e-6) && NEAR(REL(pr), MG_PRICE_MEAS_FLOOR) && NEAR(pr.lo, 9.5e-6) && NEAR(pr.hi, 10.5e-6));
  pr = mg_model_default_price(&m, MG_REDUCE, 4, 1024);
  ASSERT_TRUE(pr.src == MG_PRICE_MEASURED && NEAR(REL(pr), MG_PRICE_MEAS_DEFAULT));
  pr = mg_model_default_price(&m, MG_BCAST, 4, 2048); /* one factor of 2 from either: the wider + 10 % */
  ASSERT_EQ(pr.src, MG_PRICE_INTERPOLATED);
  ASSERT_TRUE(NEAR(pr.t, 20e-6) && NEAR(REL(pr), 0.2 + MG_PRICE_WIDEN));
  pr = mg_model_default_price(&m, MG_BCAST, 4, 1024 * 1.5); /* nearer to 1024: less than at 2048 */
  ASSERT_TRUE(pr.src == MG_PRICE_INTERPOLATED && NEAR(REL(pr), 0.2 + MG_PRICE_WIDEN * log2(1.5)));
  pr = mg_model_default_price(&m, MG_BCAST, 4, 65536); /* 4 factors of 2 beyond 4096 */
  ASSERT_EQ(pr.src, MG_PRICE_EXTRAPOLATED);
  ASSERT_TRUE(NEAR(REL(pr), 0.2 + 4 * MG_PRICE_WIDEN));
  ASSERT_TRUE(NEAR(pr.t, 40e-6 * p2p(&lg, MG_BCAST, 4, 65536) / p2p(&lg, MG_BCAST, 4, 4096)));
  pr = mg_model_default_price(&m, MG_BCAST, 8, 1024); /* measured at 4: calibrated, + 10 % for 4 -> 8 */
  ASSERT_EQ(pr.src, MG_PRICE_CALIBRATED);
  ASSERT_TRUE(NEAR(pr.t, p2p(&lg, MG_BCAST, 8, 1024) * 10e-6 / p2p(&lg, MG_BCAST, 4, 1024)));
  ASSERT_TRUE(NEAR(REL(pr), MG_PRICE_MEAS_FLOOR + MG_PRICE_WIDEN));
  ASSERT_EQ(mg_model_default_price(&m, MG_BCAST, 8, 65536).src, MG_PRICE_EXTRAPOLATED); /* at 4 extrapolated */
  pr = mg_model_default_price(&m, MG_ALLREDUCE, 4, 1024); /* never measured */
  ASSERT_TRUE(pr.src == MG_PRICE_MODEL && NEAR(REL(pr), MG_PRICE_MODEL_ERR));
  pr = mg_model_alg_price(&m, MG_BCAST, row(MG_BCAST, "bcast_as_binomial"), 4, 1024); /* a schedule: the model */
  ASSERT_TRUE(pr.src == MG_PRICE_MODEL && NEAR(REL(pr), MG_PRICE_MODEL_ERR));
  /* a composition: the intervals of its parts add, the weaker source wins */
  a = row(MG_ALLREDUCE, "allreduce_as_reduce_bcast");
  pr = mg_model_alg_price(&m, MG_ALLREDUCE, a, 4, 1024);
  ASSERT_TRUE(pr.src == MG_PRICE_MEASURED && NEAR(pr.t, 30e-6) && NEAR(pr.lo, 18e-6 + 9.5e-6) && NEAR(pr.hi, 22e-6 + 10.5e-6));
  ASSERT_EQ(mg_model_alg_price(&m, MG_ALLREDUCE, a, 4, 2048).src, MG_PRICE_EXTRAPOLATED); /* reduce beyond 1024 */
  a = row(MG_BCAST, "bcast_as_split2"); /* 2 * self(n/2): the interval doubles with the point */
  pr = mg_model_alg_price(&m, MG_BCAST, a, 4, 8192);
  ASSERT_TRUE(pr.src == MG_PRICE_MEASURED && NEAR(pr.t, 80e-6) && NEAR(pr.lo, 64e-6) && NEAR(pr.hi, 96e-6));
  ASSERT_STR_EQ(mg_price_name(MG_PRICE_INTERPOLATED), "interpolated");
  ASSERT_STR_EQ(mg_price_name(MG_PRICE_EXTRAPOLATED), "extrapolated");
  mg_model_free(&m);

  TEST_CASE("a latency-bound point is not stretched linearly");
  /* tests/check/data/small: allreduce measured at 8 B only, 6 us; stretched linearly to 4 MiB that
   * was 3.1 s, labelled measured */
  mg_model_init(&m, &lg);
  ASSERT_EQ(mg_model_add(&m, MG_ALLREDUCE, 4, 8, 6e-6), 0);
  mg_model_sort(&m);
  double big = mg_model_default(&m, MG_ALLREDUCE, 4, 4 << 20, &src);
  ASSERT_MSG(big < 0.1, "allreduce 4 MiB priced %g s from 6 us at 8 B", big);
  ASSERT_EQ(src, MG_PRICE_EXTRAPOLATED);
  ASSERT_TRUE(NEAR(big, 6e-6 * p2p(&lg, MG_ALLREDUCE, 4, 4 << 20) / p2p(&lg, MG_ALLREDUCE, 4, 8)));
  pr = mg_model_default_price(&m, MG_ALLREDUCE, 4, 4 << 20); /* 19 factors of 2 away: no lower bound left */
  ASSERT_TRUE(NEAR(REL(pr), MG_PRICE_MEAS_DEFAULT + 19 * MG_PRICE_WIDEN) && pr.lo == 0);
  mg_model_free(&m);
  mg_model_init(&m, NULL); /* without LogGP: alpha + beta n through two measurements, nothing from one */
  ASSERT_EQ(mg_model_add(&m, MG_ALLREDUCE, 4, 8, 6e-6), 0);
  ASSERT_EQ(mg_model_add(&m, MG_BCAST, 4, 1024, 10e-6), 0);
  ASSERT_EQ(mg_model_add(&m, MG_BCAST, 4, 4096, 16e-6), 0);
  ASSERT_EQ(mg_model_add(&m, MG_REDUCE, 4, 8, 5e-6), 0);
  ASSERT_EQ(mg_model_add(&m, MG_REDUCE, 4, 64, 5e-6), 0);
  mg_model_sort(&m);
  ASSERT_TRUE(isnan(mg_model_default(&m, MG_ALLREDUCE, 4, 4 << 20, NULL)));
  ASSERT_TRUE(NEAR(mg_model_default(&m, MG_ALLREDUCE, 4, 1, &src), 6e-6) && src == MG_PRICE_EXTRAPOLATED);
  ASSERT_TRUE(NEAR(mg_model_default(&m, MG_BCAST, 4, 8192, &src), 16e-6 + 4096 * 6e-6 / 3072)); /* 8 us + 2 ns/B */
  ASSERT_EQ(src, MG_PRICE_EXTRAPOLATED);
  ASSERT_TRUE(isnan(mg_model_default(&m, MG_REDUCE, 4, 4096, NULL))); /* flat: no slope known */
  /* two latency-bound points: their slope (0.1 us over 56 B) is noise, not a bandwidth */
  ASSERT_EQ(mg_model_add(&m, MG_SCAN, 4, 8, 6e-6), 0);
  ASSERT_EQ(mg_model_add(&m, MG_SCAN, 4, 64, 6.1e-6), 0);
  mg_model_sort(&m);
  double scan4m = mg_model_default(&m, MG_SCAN, 4, 4 << 20, NULL);
  ASSERT_MSG(isnan(scan4m), "scan 4 MiB priced %g s from two latency-bound points", scan4m);
  mg_model_free(&m);

  TEST_CASE("an irregular part: the split is the row's");
  /* bcast_as_allgatherv (GL9, cost allgatherv(n, 1)) is an allgatherv in which the root holds
   * every byte: one block of n, priced as allgather(n) per rank, its interval down to the even
   * split's. Priced at the even split (allgather(n/p)) its point estimate was 5.2 us against
   * binomial's 6.8 us at 64 KiB, 4 processes: predict named GL9 the fastest there */
  mg_model_init(&m, &lg);
  a = row(MG_BCAST, "bcast_as_allgatherv");
  pr = mg_model_alg_price(&m, MG_BCAST, a, 4, 65536);
  mg_price even = mg_model_default_price(&m, MG_ALLGATHER, 4, 16384), one = mg_model_default_price(&m, MG_ALLGATHER, 4, 65536);
  ASSERT_MSG(NEAR(pr.t, one.t), "bcast_as_allgatherv priced %g, one block of 64K %g (even split %g)", pr.t, one.t, even.t);
  ASSERT_TRUE(NEAR(pr.lo, even.lo) && NEAR(pr.hi, one.hi));
  mg_price bn = mg_model_alg_price(&m, MG_BCAST, row(MG_BCAST, "bcast_as_binomial"), 4, 65536);
  ASSERT_MSG(pr.t > bn.t && pr.hi > bn.hi, "bcast_as_allgatherv %g [.., %g] below binomial %g [.., %g]", pr.t, pr.hi, bn.t, bn.hi);
  /* an even split stays the even split (allreduce_as_reducescatter_allgatherv, GL7): its interval
   * is its parts' (it reached up to allgather(n) when no row said its split) */
  a = row(MG_ALLREDUCE, "allreduce_as_reducescatter_allgatherv");
  pr = mg_model_alg_price(&m, MG_ALLREDUCE, a, 4, 65536);
  double parts_hi = mg_model_default_price(&m, MG_REDUCE_SCATTER, 4, 65536).hi + mg_model_default_price(&m, MG_ALLGATHERV, 4, 65536).hi;
  ASSERT_MSG(NEAR(pr.hi, parts_hi), "GL7 upper end %g, its parts' %g", pr.hi, parts_hi);
  ASSERT_EQ(mg_cost_check("allgatherv(n, 0)", err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "non-empty blocks") != NULL);
  ASSERT_EQ(mg_cost_check("bcast(n, 1)", err, sizeof err), -1);
  ASSERT_EQ(mg_cost_check("gatherv(p*n, p/2) + bcast(n)", err, sizeof err), 0);
  /* an irregular row's own irregular parts share its split (the even one check measures) */
  a = row(MG_ALLGATHERV, "allgatherv_as_gatherv_bcast");
  pr = mg_model_alg_price(&m, MG_ALLGATHERV, a, 4, 4096);
  ASSERT_TRUE(NEAR(pr.hi, mg_model_default_price(&m, MG_GATHERV, 4, 4096).hi + mg_model_default_price(&m, MG_BCAST, 4, 4096).hi));
  ASSERT_TRUE(NEAR(mg_model_default(&m, MG_GATHERV, 4, 4096, NULL), mg_model_default(&m, MG_GATHER, 4, 1024, NULL)));
  mg_model_free(&m);

  TEST_CASE("hierarchical rows: a step on a node's ranks or among the leaders");
  /* On one node the leaders' step runs on one process (no message) and there are no other nodes:
   * bcast_as_hier is the bcast on the node, the library's own at p. Priced 3 * bcast(n) (three
   * bcasts of all p) it was a median 36-61 % off at 4 ranks on one node (2026-11-27). */
  mg_loggp hl = lg;
  hl.nodes = 1;
  mg_model_init(&m, &hl);
  ASSERT_EQ(mg_model_add(&m, MG_BCAST, 4, 1024, 10e-6), 0);
  ASSERT_EQ(mg_model_add(&m, MG_BARRIER, 4, 0, 3e-6), 0);
  ASSERT_EQ(mg_model_add(&m, MG_REDUCE, 4, 1024, 8e-6), 0);
  mg_model_sort(&m);
  a = row(MG_BCAST, "bcast_as_hier");
  pr = mg_model_alg_price(&m, MG_BCAST, a, 4, 1024);
  ASSERT_MSG(NEAR(pr.t, 10e-6) && pr.src == MG_PRICE_MEASURED, "bcast_as_hier on one node priced %g (bcast 10 us)", pr.t);
  ASSERT_TRUE(NEAR(pr.lo, 9e-6) && NEAR(pr.hi, 11e-6));
  a = row(MG_BARRIER, "barrier_as_hier"); /* two node barriers, none among one leader */
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_BARRIER, a, 4, 0), 6e-6));
  a = row(MG_REDUCE, "reduce_as_hier"); /* root 0 is its node's leader: no message to it */
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_REDUCE, a, 4, 1024), 8e-6));
  a = row(MG_BCAST, "bcast_as_lane"); /* scatter and allgather of n/4 on the node, one rank per lane */
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_BCAST, a, 4, 1024),
                   mg_model_default(&m, MG_SCATTER, 4, 256, NULL) + mg_model_default(&m, MG_ALLGATHER, 4, 256, NULL)));
  mg_model_free(&m);
  hl.nodes = 2; /* 8 ranks on 2 nodes: bcasts of 4 ranks on the root's node and the other, of 2 leaders */
  mg_model_init(&m, &hl);
  a = row(MG_BCAST, "bcast_as_hier");
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_BCAST, a, 8, 1024),
                   2 * mg_model_default(&m, MG_BCAST, 4, 1024, NULL) + mg_model_default(&m, MG_BCAST, 2, 1024, NULL)));
  a = row(MG_BARRIER, "barrier_as_hier");
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_BARRIER, a, 8, 0),
                   2 * mg_model_default(&m, MG_BARRIER, 4, 0, NULL) + mg_model_default(&m, MG_BARRIER, 2, 0, NULL)));
  mg_model_free(&m);
  ASSERT_EQ(mg_cost_check("bcast[ppn](n) + bcast[nodes](n) * min(nodes - 1, 1)", err, sizeof err), 0);
  ASSERT_EQ(mg_cost_check("copy[2](n)", err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "only after a collective") != NULL);
  ASSERT_EQ(mg_cost_check("bcast[ppn(n)", err, sizeof err), -1);
  ASSERT_EQ(mg_cost_check("min(n)", err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "two arguments") != NULL);

  TEST_CASE("no LogGP: only measured parts price");
  mg_model_init(&m, NULL);
  ASSERT_EQ(mg_model_add(&m, MG_BCAST, 4, 1024, 10e-6), 0);
  mg_model_sort(&m);
  a = row(MG_SCATTER, "scatter_as_bcast");
  ASSERT_TRUE(NEAR(mg_model_alg(&m, MG_SCATTER, a, 4, 256), 10e-6)); /* bcast(p*n) = bcast(1024) */
  a = row(MG_ALLGATHER, "allgather_as_alltoall");                    /* copy needs LogGP */
  ASSERT_TRUE(isnan(mg_model_alg(&m, MG_ALLGATHER, a, 4, 256)));
  ASSERT_EQ(mg_model_add(&m, MG_ALLGATHER, 4, 1024, 12e-6), 0);
  mg_model_sort(&m);
  a = row(MG_BCAST, "bcast_as_allgatherv"); /* the even split measured, one block of 4K priced by nothing */
  pr = mg_model_alg_price(&m, MG_BCAST, a, 4, 4096);
  ASSERT_TRUE(NEAR(pr.t, 12e-6) && pr.src == MG_PRICE_MEASURED && isinf(pr.hi));
  mg_model_free(&m);

  TEST_CASE("bad expressions");
  ASSERT_EQ(mg_cost_check("reduce(n) + bcast(n", err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "')' expected") != NULL);
  ASSERT_EQ(mg_cost_check("reduce(n) + frob(n)", err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "unknown name") && strstr(err, "offset 12"));
  ASSERT_EQ(mg_cost_check("2 * self(n/2) x", err, sizeof err), -1);
  ASSERT_TRUE(strstr(err, "unexpected text") != NULL);
  ASSERT_EQ(mg_cost_check("(p-1) * copy(n) + reduce_local(pow2(3*n))", err, sizeof err), 0);
  return mg_test_summary("test_cost");
}
