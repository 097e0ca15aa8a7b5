/*
 * What an MPI job sees of the cluster in a box (scripts/cluster.sh): `nodes NODES PER_NODE`
 * checks that MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) finds NODES nodes of PER_NODE ranks,
 * that the ranks of one node share a hostname and the nodes' hostnames differ (each node is its
 * own UTS namespace), and that a message crosses both kinds of link (a ping-pong from rank 0 to
 * a rank of its node and to one of another node). It prints the two round trips, which are
 * figures, not assertions (benchmarks/ and docs/cluster.md compare them). Prints "nodes: OK (...)"
 * (common/test_mpi.h).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/test_mpi.h"

#define HOST 64

/* Mean round trip of 8-byte messages between rank 0 and peer, in microseconds (on
 * rank 0; -1 elsewhere). Both ranks call it; the others return at once. */
static double pingpong(int rank, int peer, int reps) {
  char buf[8] = {0};
  double t = 0;
  if (rank != 0 && rank != peer) return -1;
  int other = rank == 0 ? peer : 0;
  for (int i = -10; i < reps; i++) {
    if (i == 0) t = MPI_Wtime();
    if (rank == 0) {
      MPI_Send(buf, 8, MPI_CHAR, other, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, 8, MPI_CHAR, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
      MPI_Recv(buf, 8, MPI_CHAR, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, 8, MPI_CHAR, other, 0, MPI_COMM_WORLD);
    }
  }
  return rank == 0 ? (MPI_Wtime() - t) / reps * 1e6 : -1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mg_test_mpi_start("nodes");
  if (argc != 3) mg_test_die("usage: nodes NODES PER_NODE");
  int want_nodes = atoi(argv[1]), want_per = atoi(argv[2]);

  char host[HOST] = {0};
  gethostname(host, HOST - 1);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int nrank, nsize;
  MPI_Comm_rank(node, &nrank);
  MPI_Comm_size(node, &nsize);
  int leader = nrank == 0, nodes = 0;
  MPI_Allreduce(&leader, &nodes, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

  /* every rank's hostname and node leader (world rank of its node's rank 0) on every rank */
  char *hosts = calloc((size_t)size, HOST);
  int *leaders = calloc((size_t)size, sizeof(int));
  int my_leader = rank;
  MPI_Bcast(&my_leader, 1, MPI_INT, 0, node);
  MPI_Allgather(host, HOST, MPI_CHAR, hosts, HOST, MPI_CHAR, MPI_COMM_WORLD);
  MPI_Allgather(&my_leader, 1, MPI_INT, leaders, 1, MPI_INT, MPI_COMM_WORLD);

  int same = -1, other = -1;
  TEST_CASE(host);
  ASSERT_MSG(nodes == want_nodes, "%d nodes, want %d", nodes, want_nodes);
  ASSERT_MSG(nsize == want_per, "node of %d ranks, want %d", nsize, want_per);
  int bad_r = -1, bad_q = -1; /* the first pair whose node and hostname disagree */
  for (int r = 0; r < size && bad_r < 0; r++)
    for (int q = 0; q < size && bad_r < 0; q++)
      if ((leaders[r] == leaders[q]) != (strcmp(hosts + (size_t)r * HOST, hosts + (size_t)q * HOST) == 0))
        bad_r = r, bad_q = q;
  ASSERT_MSG(bad_r < 0, "ranks %d (%s) and %d (%s): %s node but %s hostname", bad_r, hosts + (size_t)bad_r * HOST,
             bad_q, hosts + (size_t)bad_q * HOST, leaders[bad_r] == leaders[bad_q] ? "same" : "different",
             leaders[bad_r] == leaders[bad_q] ? "different" : "same");
  for (int r = 1; r < size; r++) {
    if (leaders[r] == leaders[0] && same < 0) same = r;
    if (leaders[r] != leaders[0] && other < 0) other = r;
  }
  if (!mg_test_mpi_failures()) { /* the round trips only where the node structure is the expected one */
    double t_same = same > 0 ? pingpong(rank, same, 200) : -1;
    double t_other = other > 0 ? pingpong(rank, other, 200) : -1;
    if (rank == 0) {
      printf("nodes: %d nodes x %d ranks:", nodes, nsize);
      for (int r = 0; r < size; r++) printf(" %d@%s", r, hosts + (size_t)r * HOST);
      printf("\nnodes: 8-byte round trip within a node %.1f us, between nodes %.1f us\n", t_same, t_other);
    }
  }
  /* "nodes: OK (...)" flushed before MPI_Finalize (tests/cluster/run_cluster.sh watches for it) */
  int verdict = mg_test_mpi_summary(NULL);
  free(hosts);
  free(leaders);
  MPI_Comm_free(&node);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return verdict;
}
