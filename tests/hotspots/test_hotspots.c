/*
 * Unit tests of the hot-spot analysis (src/check/hotspots.c), no MPI launch:
 * the smallest covering set (order, ties, the N cap, P = 100, nothing to
 * cover) and the trace reader on fixture files (format 2 grouped into spots
 * with per-rank times; format 1 read as untimed; a file that is no trace).
 *
 *   test_hotspots DATA_DIR
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check/hotspots.h"
#include "common/test.h"

static void test_select(void) {
  int order[8], reached;
  TEST_CASE("select: smallest set covering P");
  double t1[] = {1, 5, 3, 1};                    /* total 10 */
  ASSERT_EQ(mg_hs_select(t1, 4, 0, 80, 10, order, &reached), 2); /* 5 + 3 = 8 = 80 % */
  ASSERT_EQ(order[0], 1);
  ASSERT_EQ(order[1], 2);
  ASSERT_EQ(reached, 1);
  ASSERT_EQ(mg_hs_select(t1, 4, 0, 81, 10, order, &reached), 3); /* 8 < 8.1: one more */
  ASSERT_EQ(mg_hs_select(t1, 4, 0, 50, 10, order, &reached), 1);
  ASSERT_EQ(mg_hs_select(t1, 4, 0, 100, 10, order, &reached), 4);
  ASSERT_EQ(reached, 1);

  TEST_CASE("select: ties keep the file's order");
  double t2[] = {2, 4, 2, 2};
  ASSERT_EQ(mg_hs_select(t2, 4, 0, 60, 10, order, &reached), 2); /* 4 + 2 = 6 >= 6 */
  ASSERT_EQ(order[0], 1);
  ASSERT_EQ(order[1], 0);
  ASSERT_EQ(order[2], 2);
  ASSERT_EQ(order[3], 3);

  TEST_CASE("select: the N cap");
  double t3[] = {1, 1, 1, 1, 1, 1, 1, 1}; /* 80 % needs 7 of 8 */
  ASSERT_EQ(mg_hs_select(t3, 8, 0, 80, 10, order, &reached), 7);
  ASSERT_EQ(reached, 1);
  ASSERT_EQ(mg_hs_select(t3, 8, 0, 80, 3, order, &reached), 3);
  ASSERT_EQ(reached, 0);

  TEST_CASE("select: a total beyond the spots (time outside them) is not reached");
  double t4[] = {3, 1};
  ASSERT_EQ(mg_hs_select(t4, 2, 10, 80, 10, order, &reached), 2);
  ASSERT_EQ(reached, 0);

  TEST_CASE("select: nothing to cover");
  double t5[] = {0, 0};
  ASSERT_EQ(mg_hs_select(t5, 2, 0, 80, 10, order, &reached), 0);
  ASSERT_EQ(reached, 1);
  ASSERT_EQ(mg_hs_select(t5, 0, 0, 80, 10, order, &reached), 0);
}

static void test_read(const char *dir) {
  char path[1024], err[1024];
  mg_hs_trace t;
  TEST_CASE("read: timed trace (format 2)");
  snprintf(path, sizeof path, "%s/timed.csv", dir);
  ASSERT_EQ(mg_hs_read(path, &t, err, sizeof err), 0);
  ASSERT_EQ(t.version, 2);
  ASSERT_EQ(t.timed, 1);
  ASSERT_EQ(t.nprocs, 4);
  ASSERT_NEAR(t.wall, 0.05, 1e-12);
  ASSERT_STR_EQ(t.mpi, "TestMPI 1.0 (fixture)");
  /* five rows, four spots: bcast 1024 at 0x1000 ran two algorithms */
  ASSERT_EQ(t.n, 4);
  ASSERT_EQ(t.nobjs, 1);
  ASSERT_STR_EQ(t.objs[0], "/nonexistent/app");
  ASSERT_NEAR(t.mpi_time, (0.012 + 0.024 + 0.016 + 0.0004 + 0.02) / 4, 1e-12);
  const mg_hs_spot *b = &t.spots[1];
  ASSERT_EQ(b->coll, MG_BCAST);
  ASSERT_EQ_U(b->bytes, 1024u);
  ASSERT_EQ_U(b->offset, 0x1000u);
  ASSERT_EQ(b->calls, 1000);
  ASSERT_NEAR(b->time, 0.01, 1e-12);
  ASSERT_NEAR(b->wait, 0.002, 1e-12);
  ASSERT_STR_EQ(b->algs, "default+bcast_as_allgatherv");
  ASSERT_STR_EQ(b->sym, "solve");
  ASSERT_EQ(b->alg_calls[0], 600); /* per algorithm, in the order of algs */
  ASSERT_NEAR(b->alg_time[0], 0.006, 1e-12);
  ASSERT_EQ(b->alg_calls[1], 400);
  ASSERT_NEAR(b->alg_time[1], 0.004, 1e-12);

  TEST_CASE("saving: never more than the time the spot spent");
  /* the check's medians: default 14.5 us, the mock-up 3.25 us; 1000 x 11.25 us = 11.25 ms would
   * exceed the spot's 10 ms (the saving this command once credited). 400 of the calls ran the
   * mock-up already; the other 600 took 6 ms, 10 us each, less than the check's default. */
  double sv = mg_hs_saving(b, "bcast_as_allgatherv", 14.5e-6, 3.25e-6);
  ASSERT_NEAR(sv, 0.006 * (1 - 3.25 / 14.5), 1e-12);
  ASSERT_TRUE(sv <= b->time);
  ASSERT_TRUE(sv <= b->alg_time[0]);
  /* another mock-up: every call could switch; the share of the spot's 10 ms binds */
  ASSERT_NEAR(mg_hs_saving(b, "bcast_as_binomial", 14.5e-6, 3.25e-6), 0.01 * (1 - 3.25 / 14.5), 1e-12);
  /* the application's calls slower than the check's (waiting, say): the check's difference binds */
  ASSERT_NEAR(mg_hs_saving(b, "bcast_as_binomial", 5e-6, 4e-6), 1000 * 1e-6, 1e-12);
  ASSERT_TRUE(mg_hs_saving(b, "bcast_as_binomial", 5e-6, 6e-6) < 0); /* slower: a loss */
  ASSERT_TRUE(isnan(mg_hs_saving(b, "bcast_as_binomial", 0, 1e-6)));
  ASSERT_STR_EQ(t.spots[0].red, "float:sum");
  ASSERT_STR_EQ(t.spots[1].red, "");
  ASSERT_EQ_U(t.spots[2].bytes, 4096u); /* same site, other size: its own spot */
  ASSERT_EQ_U(t.spots[2].offset, 0x1000u);
  mg_hs_free(&t);

  TEST_CASE("read: untimed trace (format 1): its calls per cell, no site, no time");
  snprintf(path, sizeof path, "%s/untimed.csv", dir);
  ASSERT_EQ(mg_hs_read(path, &t, err, sizeof err), 0);
  ASSERT_EQ(t.version, 1);
  ASSERT_EQ(t.timed, 0);
  ASSERT_EQ(t.n, 2);
  ASSERT_EQ(t.spots[0].coll, MG_ALLREDUCE);
  ASSERT_EQ(t.spots[0].calls, 5000);
  ASSERT_EQ(t.spots[0].obj, -1);
  ASSERT_STR_EQ(t.spots[0].algs, "default");
  ASSERT_EQ_U(t.spots[1].bytes, 1024u);
  ASSERT_TRUE(t.spots[1].time == 0 && t.mpi_time == 0);
  mg_hs_free(&t);

  TEST_CASE("read: not a trace");
  snprintf(path, sizeof path, "%s/tuned.prof", dir);
  ASSERT_EQ(mg_hs_read(path, &t, err, sizeof err), -1);
  ASSERT_CONTAINS(err, "not an mpiguide trace");
  snprintf(path, sizeof path, "%s/no-such-file.csv", dir);
  ASSERT_EQ(mg_hs_read(path, &t, err, sizeof err), -1);
  ASSERT_CONTAINS(err, "cannot open");
}

int main(int argc, char **argv) {
  if (argc != 2) return fprintf(stderr, "usage: test_hotspots DATA_DIR\n"), 2;
  test_select();
  test_read(argv[1]);
  return mg_test_summary("test_hotspots");
}
