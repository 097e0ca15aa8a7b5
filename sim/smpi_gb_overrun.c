/*
 * SMPI 3.32's allgather__GB + bcast__scatter_LR_allgather write past a receive buffer (docs/scale.md,
 * "SMPI's own defects"; src/bench/sim_defects.c). Standalone, without mpiguide; not built by CMake:
 *
 *   smpicc -O1 -o /tmp/gb_overrun sim/smpi_gb_overrun.c
 *   smpirun -np 4 -platform sim/platforms/fattree-16.xml -hostfile sim/platforms/fattree-16.hosts \
 *           --cfg=smpi/coll-selector:impi /tmp/gb_overrun
 *
 * Each rank contributes the second 32 KiB half of a 64 KiB block, received as one element of 32 KiB
 * of MPI_BYTE resized to extent 64 KiB at offset 32 KiB of a 4 x 64 KiB buffer (what
 * allgather_as_split2's second piece does): the data ends exactly at the buffer's end, which is
 * all MPI requires of the buffer. A guard after it, filled with a value of each rank's own, must
 * stay as it is. With the impi selector (or --cfg=smpi/allgather:GB
 * --cfg=smpi/bcast:scatter_LR_allgather) ranks 1-3 report 32768 guard bytes overwritten: the bcast
 * moves count x extent raw bytes from the buffer's start. With the ompi, mpich or mvapich2
 * selectors, or --cfg=smpi/bcast:binomial_tree, none.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  const int block = 65536, half = block / 2, guard = block;
  MPI_Datatype bytes, piece;
  MPI_Type_contiguous(half, MPI_BYTE, &bytes);
  MPI_Type_create_resized(bytes, 0, block, &piece);
  MPI_Type_commit(&piece);
  char *own = malloc(block), *buf = malloc((size_t)p * block + guard);
  memset(own, r, block);
  memset(buf, r, (size_t)p * block);
  memset(buf + (size_t)p * block, 0x50 + r, guard);
  MPI_Allgather(own + half, half, MPI_BYTE, buf + half, 1, piece, MPI_COMM_WORLD);
  int bad = 0;
  for (int i = 0; i < guard; i++) bad += buf[(size_t)p * block + i] != 0x50 + r;
  printf("rank %d: %d guard bytes past the buffer's end overwritten\n", r, bad);
  MPI_Type_free(&piece);
  MPI_Type_free(&bytes);
  free(own);
  free(buf);
  MPI_Finalize();
  return bad != 0;
}
