/*
 * SMPI 3.32's bcast breaks on two kinds of layout, and with it every communicator creation, which
 * broadcasts the new communicator's id with the selected bcast (docs/scale.md, "SMPI's own
 * defects"; src/bench/sim_defects.c, mg_bench_sim_runnable). Standalone, without mpiguide; not
 * built by CMake:
 *
 *   smpicc -O1 -o /tmp/bcast_layout sim/smpi_bcast_layout.c
 *   for i in $(seq 0 15); do echo node-$i; echo node-$i; echo node-$i; done >/tmp/hosts3
 *   smpirun -np 6 -platform sim/platforms/fattree-16.xml -hostfile /tmp/hosts3 \
 *           --cfg=smpi/coll-selector:mpich /tmp/bcast_layout bcast 1024
 *   smpirun -np 5 -platform sim/platforms/fattree-16.xml -hostfile sim/platforms/fattree-16.hosts \
 *           --cfg=smpi/coll-selector:impi /tmp/bcast_layout dup
 *
 * "dup": MPI_Comm_dup(MPI_COMM_WORLD) alone. "bcast N": MPI_Bcast of N chars from rank 0, then the
 * dup. Seen (SimGrid 3.32, Debian 12; fattree-16, one host per node):
 * - impi, one rank per host: "dup" aborts at 5-8 ranks ("Actor pid=1 is gone??" in Request::send
 *   from bcast__SMP_linear), returns at 4; "bcast 1" aborts at 5 and 8, returns at 4 and 9; at 2
 *   ranks "bcast 30000" and "bcast 65536" (in bcast__SMP_linear's window of 21845-95962 bytes)
 *   abort in the dup (MPI_ERR_TRUNCATE), "bcast 100000" returns; mpiguide's check of bcast at
 *   64 KiB there deadlocks ("Deadlock detected"), as does its bcast_as_hier of 64 KiB on the test
 *   bed's 2 x 2 (among the 2 node leaders).
 * - mpich, "bcast 1024": aborts at 2 x 3, 4 x 3, 2 x 5 and 2 x 6 ranks (hosts x ranks per host;
 *   MPI_ERR_TRUNCATE, or MPI_ERR_TYPE for 1 and 4 chars, after "Mismatched datatypes: sending
 *   MPI_CHAR and receiving MPI_INT", in the dup); returns at 4 x 2 and 12 x 1. "dup" alone returns.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  int bcast = argc > 1 && !strcmp(argv[1], "bcast"), n = argc > 2 ? atoi(argv[2]) : 1;
  static char buf[1 << 22];
  if (bcast) MPI_Bcast(buf, n, MPI_CHAR, 0, MPI_COMM_WORLD);
  MPI_Comm dup;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  if (r == 0) printf("%s%s: returned\n", bcast ? "bcast, then " : "", "MPI_Comm_dup");
  MPI_Comm_free(&dup);
  MPI_Finalize();
  return 0;
}
