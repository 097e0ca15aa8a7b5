/*
 * SMPI 3.32 dies on a legal collective of count 0 under its ompi and impi selectors (docs/scale.md,
 * "SMPI's own defects"; src/bench/sim_defects.c). Standalone, without mpiguide; not built by CMake:
 *
 *   smpicc -O1 -o /tmp/zero_count sim/smpi_zero_count.c
 *   smpirun -np 2 -platform sim/platforms/fattree-16.xml -hostfile sim/platforms/fattree-16.hosts \
 *           --cfg=smpi/coll-selector:ompi /tmp/zero_count allreduce
 *
 * The argument names the collective (bcast, allreduce or reduce), called once with count 0 on
 * MPI_COMM_WORLD. Probed at 2-8 and 16 ranks: with ompi, allreduce dies at every count but 8
 * (2-3 ranks: allreduce__lr -> allreduce__redbcast -> bcast__ompi_pipeline; from 4:
 * reduce__ompi_binary), reduce from 4 ranks, bcast at 2-3; with impi, allreduce at 2-4
 * (allreduce__ompi_ring_segmented); each "Floating point exception" (an integer division by a
 * segment count of 0), exit 136. mpich and mvapich2 return.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  double in = 1, out = 0;
  const char *coll = argc > 1 ? argv[1] : "allreduce";
  if (!strcmp(coll, "bcast"))
    MPI_Bcast(&in, 0, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  else if (!strcmp(coll, "reduce"))
    MPI_Reduce(&in, &out, 0, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
  else
    MPI_Allreduce(&in, &out, 0, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  if (r == 0) printf("%s of count 0: returned\n", coll);
  MPI_Finalize();
  return 0;
}
