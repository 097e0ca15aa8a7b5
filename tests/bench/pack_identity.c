/*
 * TGT 2010 eq. 4's assertion and measurement (bench/pack.h): MPI_Pack of a derived datatype and its
 * constituents packed one by one give the same bytes, and MPI_Unpack and the constituents the same
 * user buffer, for every kind of --datatype spec and counts 0, 1 and many; the assertion fails on a
 * doctored layout (a struct whose members are named in the wrong places) and on a predefined type,
 * and mg_first_diff finds a planted byte. mg_pack_run on every rank: rank 0 holds four series of
 * equal length per size, the others nothing; a size whose identity fails is a failed block.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "bench/pack.h"
#include "common/test_mpi.h"

static const char *const specs[] = {"vector:2:3:double", "vector:1:1:int", "vector:3:8:char", "resized:16:int",
                                    "struct:char,double,int", "struct:int,int", "struct:short,char,long_long"};

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mg_test_mpi_start("pack_identity");
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char err[256], why[160];
  TEST_CASE("pack: one MPI_Pack / MPI_Unpack and the constituents one by one, byte for byte");
  for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
    const mg_dtype_info *d = mg_dtype_parse(specs[i], err, sizeof err);
    ASSERT_MSG(d != NULL, "%s: %s", specs[i], err);
    if (!d) continue;
    MPI_Datatype t;
    TEST_MPI(mg_dtype_build(d, &t));
    static const long counts[] = {0, 1, 7, 1000};
    for (int k = 0; k < 4; k++) {
      why[0] = '\0';
      int rc = mg_pack_verify(d, t, counts[k], MPI_COMM_SELF, why, sizeof why);
      ASSERT_MSG(rc == 0, "%s x %ld: %d %s", d->name, counts[k], rc, why);
    }
    mg_dtype_free(d, &t);
  }

  TEST_CASE("pack: the assertion fails on constituents in the wrong places and on a predefined type");
  const mg_dtype_info *s = mg_dtype_parse("struct:char,double,int", err, sizeof err);
  mg_dtype_info bad = *s;
  bad.disp[1] = 12, bad.disp[2] = 8; /* the double and the int swapped: the same bytes, another order */
  MPI_Datatype t;
  TEST_MPI(mg_dtype_build(s, &t));
  ASSERT_EQ(mg_pack_verify(&bad, t, 5, MPI_COMM_SELF, why, sizeof why), 1);
  ASSERT_CONTAINS(why, "the packed bytes differ from MPI_Pack's at byte 1 of");
  mg_dtype_free(s, &t);
  const mg_dtype_info *pre = mg_dtype_parse("double", err, sizeof err);
  ASSERT_EQ(mg_pack_verify(pre, MPI_DOUBLE, 4, MPI_COMM_SELF, why, sizeof why), 1);
  ASSERT_CONTAINS(why, "not a derived datatype");
  char a[64] = {0}, b[64] = {0};
  ASSERT_EQ(mg_pack_first_diff(a, b, sizeof a), -1);
  b[37] = 1;
  ASSERT_EQ(mg_pack_first_diff(a, b, sizeof a), 37);

  TEST_CASE("pack: mg_pack_run measures on rank 0 alone, four series of one length per size");
  const mg_dtype_info *v = mg_dtype_parse("vector:2:3:double", err, sizeof err);
  static const size_t sizes[] = {16, 4096};
  mg_pack_cfg cfg = {.comm = MPI_COMM_WORLD, .dtype = v, .sizes = sizes, .nsizes = 2, .rounds = 12, .min_rounds = 12,
                     .warmup = 2, .time_cap = 10, .timer = MG_TIMER_MONOTONIC};
  mg_pack_result res;
  TEST_MPI(mg_pack_run(&cfg, &res));
  ASSERT_EQ(res.nblocks, rank == 0 ? 2 : 0);
  for (int i = 0; i < res.nblocks; i++) {
    ASSERT_TRUE(!res.blocks[i].failed);
    ASSERT_EQ(res.blocks[i].n, 14);
    ASSERT_EQ(res.blocks[i].count, (long)(sizes[i] / 16));
    for (int k = 0; k < MG_PACK_NSERIES; k++)
      for (long j = 0; j < res.blocks[i].n; j++) ASSERT_TRUE(res.blocks[i].lat[k][j] >= 0);
  }
  if (rank == 0) { /* the file: #@rows and the rows agree, one row per measurement */
    char buf[1 << 16];
    FILE *f = fmemopen(buf, sizeof buf - 1, "w");
    mg_bench_meta m = {.launch = "L", .nprocs = 1};
    long rows = mg_pack_write(f, &cfg, &res, &m, "test");
    fclose(f);
    ASSERT_EQ(rows, 2 * 4 * 14);
    ASSERT_CONTAINS(buf, "#@format=" MG_PACK_FORMAT "\n");
    ASSERT_CONTAINS(buf, "\n#@rows=112\n");
    ASSERT_CONTAINS(buf, "\npack,pack_as_subtypes,4096,256,vector:2:3:MPI_DOUBLE,,,,1,L,13,11,0,");
    ASSERT_CONTAINS(buf, "\nunpack,default,16,1,vector:2:3:MPI_DOUBLE,,,,1,L,0,0,1,");
  }
  mg_pack_result_free(&res);
  int rc = mg_test_mpi_summary("pack identity and measurement");
  MPI_Finalize();
  return rc;
}
