/*
 * The pairs of a job on several nodes, on one machine: mg_loggp_measure with a given node
 * layout (cfg.node_of) measures the intra-node and the inter-node pair it should, the client's
 * columns reach rank 0 when rank 0 is not in the pair, and the file written says so.
 *   measure_nodes LAYOUT INTRA INTER NODES FILE
 * LAYOUT: the node of each rank, "0,1,1"; INTRA, INTER: the expected pair "a:b" or "-" (none).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_mpi.h"
#include "model/loggp_measure.h"

static void expect_pair(const mg_loggp_file *lf, int k, const char *want) {
  if (!strcmp(want, "-")) {
    ASSERT_MSG(!lf->has[k], "class %d measured, none expected", k);
    return;
  }
  int a, b;
  if (sscanf(want, "%d:%d", &a, &b) != 2) {
    TEST_FAIL("bad pair argument '%s'", want);
    return;
  }
  ASSERT_TRUE(lf->has[k]);
  const mg_loggp_class *c = &lf->cls[k];
  ASSERT_EQ(c->a, a);
  ASSERT_EQ(c->b, b);
  ASSERT_EQ(c->npts, 2);
  for (int i = 0; i < c->npts; i++)
    ASSERT_MSG(c->col[MG_LC_PRTT1][i] > 0 && c->col[MG_LC_PRTTN][i] > 0 && c->col[MG_LC_PRTTD][i] > 0,
               "class %d size %d: a round trip <= 0 (the client's columns did not arrive?)", k, i);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  mg_test_mpi_start("measure_nodes");
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  if (argc != 6) {
    if (rank == 0) fprintf(stderr, "usage: measure_nodes LAYOUT INTRA INTER NODES FILE\n");
    MPI_Finalize();
    return 2;
  }
  int *node = calloc((size_t)p, sizeof *node), n = 0;
  for (char *s = argv[1]; *s && n < p; n++) {
    node[n] = (int)strtol(s, &s, 10);
    if (*s == ',') s++;
  }
  static const size_t sizes[] = {1, 1024};
  mg_loggp_cfg cfg = {.sizes = sizes, .nsizes = 2, .n = 4, .warmup = 1, .min_nrep = 2, .max_nrep = 5,
                      .time_per = 1e-3, .tolerance = 0.25, .node_of = node};
  static mg_loggp_file lf;
  TEST_CASE(argv[1]);
  ASSERT_EQ(n, p);
  ASSERT_EQ(mg_loggp_measure(MPI_COMM_WORLD, &cfg, &lf), MPI_SUCCESS);
  if (rank == 0) {
    ASSERT_EQ(lf.p, p);
    ASSERT_EQ(lf.nodes, atoi(argv[4]));
    expect_pair(&lf, 0, argv[2]);
    expect_pair(&lf, 1, argv[3]);
    snprintf(lf.mpi_name, sizeof lf.mpi_name, "test");
    snprintf(lf.mpi_library, sizeof lf.mpi_library, "test");
    FILE *f = fopen(argv[5], "w");
    ASSERT_EQ(mg_loggp_write(f, &lf, NULL), 0);
    fclose(f);
    mg_loggp m;
    char err[600] = "";
    ASSERT_MSG(mg_loggp_read(argv[5], &m, err, sizeof err) == 0, "%s", err);
    ASSERT_EQ(m.inter, lf.has[1]); /* the inter-node class when there is one */
    ASSERT_EQ(m.npts, 2);
  }
  free(node);
  int rc = mg_test_mpi_summary(NULL);
  MPI_Finalize();
  return rc;
}
