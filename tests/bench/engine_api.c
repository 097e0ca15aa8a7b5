/*
 * The engine used directly (as `mpiguide check` will): a configuration built
 * in code, an algorithm that returns an MPI error (MPI_SUM on MPI_BYTE is not
 * a valid reduction, so the library refuses it) becomes a FAILED series with
 * a note and no rows while the other collective is measured, and the results
 * are identical on every rank (every rank must take the same decisions).
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "algs/algs.h"
#include "bench/bench.h"
#include "common/test_mpi.h"

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mg_core_init();
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  mg_test_mpi_start("engine_api");
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  size_t sizes[] = {8, 64};
  mg_bench_cfg cfg;
  memset(&cfg, 0, sizeof cfg);
  cfg.comm = MPI_COMM_WORLD;
  cfg.ncolls = 2;
  cfg.colls[0] = MG_ALLREDUCE;
  cfg.colls[1] = MG_BCAST;
  cfg.algmask[MG_ALLREDUCE] = 0x3; /* default, allreduce_as_reduce_bcast */
  cfg.algmask[MG_BCAST] = 0x1;
  cfg.sizes = sizes;
  cfg.nsizes = 2;
  cfg.dtype = mg_dtype_find("MPI_BYTE");
  mg_op_info null_op = {"MPI_OP_NULL", MPI_OP_NULL, MG_DT_BYTE}; /* the reductions fail */
  cfg.op = &null_op;
  cfg.sync = MG_SYNC_BARRIER;
  cfg.rep.mode = MG_REP_FIXED;
  cfg.rep.nrep = 6;
  cfg.warmup = 1;
  cfg.batch = 4;
  cfg.sync_cost_reps = 3;
  mg_bench_result res;
  int rc = mg_bench_run(&cfg, &res);
  ASSERT_TRUE(rc == MPI_SUCCESS);
  ASSERT_TRUE(res.nblocks == 4);
  for (int b = 0; b < res.nblocks; b++) {
    const mg_bench_block *B = &res.blocks[b];
    for (int i = 0; i < B->nseries; i++) {
      const mg_bench_series *s = &B->series[i];
      if (B->coll == MG_ALLREDUCE) {
        ASSERT_TRUE(s->status == MG_SERIES_FAILED);
        ASSERT_TRUE(s->n == 0);
        ASSERT_TRUE(strstr(s->note, "failed: the algorithm returned an MPI error") != NULL);
      } else {
        ASSERT_TRUE(s->status == MG_SERIES_OK);
        ASSERT_TRUE(s->n == 7 && s->nwarm == 1 && s->nvalid == 6);
        ASSERT_TRUE(s->stop == MG_STOP_NREP);
        /* every rank holds the same latencies */
        double mx[7], mn[7];
        MPI_Allreduce(s->lat, mx, 7, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        MPI_Allreduce(s->lat, mn, 7, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
        ASSERT_TRUE(memcmp(mx, mn, sizeof mx) == 0);
      }
    }
  }
  ASSERT_TRUE(res.sync_cost > 0 || size == 1);
  /* the spread of the exits from the synchronisation, on a clock fitted for it: measured, finite,
   * and on one node not beyond a millisecond-scale bound */
  ASSERT_TRUE(res.sync_skew >= 0 && res.sync_skew < 1.0);
  /* the communicator's error handler is restored */
  MPI_Errhandler eh;
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &eh);
  ASSERT_TRUE(eh == MPI_ERRORS_ARE_FATAL);
  MPI_Errhandler_free(&eh);
  mg_bench_result_free(&res);
  /* the engine keeps its set-up (the synchronisation's duplicate) with the communicator: a second run
   * on it, and runs on a communicator of its own that is freed in between (its record orphaned, freed
   * at the next miss), measure as the first did; mg_bench_finalize frees what is left */
  MPI_Comm mine;
  MPI_Comm_dup(MPI_COMM_WORLD, &mine);
  for (int k = 0; k < 3; k++) {
    cfg.comm = k == 1 ? mine : MPI_COMM_WORLD;
    ASSERT_TRUE(mg_bench_run(&cfg, &res) == MPI_SUCCESS);
    ASSERT_TRUE(res.nblocks == 4 && res.sync_cost >= 0);
    for (int b = 0; b < res.nblocks; b++)
      if (res.blocks[b].coll == MG_BCAST) ASSERT_TRUE(res.blocks[b].series[0].nvalid == 6);
    mg_bench_result_free(&res);
    if (k == 1) MPI_Comm_free(&mine);
  }
  int verdict = mg_test_mpi_summary(NULL);
  mg_bench_finalize();
  mg_rma_finalize();
  mg_hier_finalize();
  mg_core_finalize();
  MPI_Finalize();
  return verdict;
}
