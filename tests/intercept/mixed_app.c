/*
 * Collectives on datatypes whose basic types differ in size, above 8 KiB, the case MPICH 4.0.2
 * (ch4:ucx) cannot receive as packed bytes (registry.h, MG_R_UNIFORM_BASIC): MPI_Allgather of a
 * packed struct{int,double,char}, MPI_Reduce and MPI_Reduce_scatter_block of MPI_DOUBLE_INT with
 * MPI_MINLOC (what codes use to find a minimum and its owner); each beside a control of one basic
 * size (MPI_INT, MPI_2INT), the same calls otherwise. Every result is checked here. Knows nothing
 * of mpiguide: run_preload.sh (mode mixed) forces the rows and reads the trace.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { NG = 1000, NR = 4000, NB = 1000 }; /* allgather block, reduce vector, reduce_scatter_block block */

typedef struct {
  double v;
  int i;
} dint;
typedef struct {
  int v, i;
} iint;

static int rank, np, bad;

static void check(int ok, const char *what, int j) {
  if (!ok && bad++ < 5) fprintf(stderr, "mixed_app: rank %d: %s wrong at element %d\n", rank, what, j);
}

/* Element j's value on rank q: small integers, so that ties (owner: the lowest rank) occur. */
static int val(int j, int q) { return (j * 7 + q * 13) % 11; }

static void loc_expect(int j, int *m, int *owner) {
  *m = 1 << 30;
  for (int q = 0; q < np; q++)
    if (val(j, q) < *m) *m = val(j, q), *owner = q;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &np);

  /* allgather: packed struct{int@0,double@4,char@12}, extent 13 (13 KB a block) */
  MPI_Datatype st, tmp;
  int bl[3] = {1, 1, 1};
  MPI_Aint d[3] = {0, 4, 12};
  MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};
  MPI_Type_create_struct(3, bl, d, ty, &tmp);
  MPI_Type_create_resized(tmp, 0, 13, &st);
  MPI_Type_free(&tmp);
  MPI_Type_commit(&st);
  char *sb = malloc(13 * (size_t)NG), *rb = malloc(13 * (size_t)NG * np);
  for (int j = 0; j < NG; j++) {
    int iv = rank * NG + j;
    double dv = 0.5 * iv;
    char cv = (char)(iv % 127);
    memcpy(sb + 13 * j, &iv, 4), memcpy(sb + 13 * j + 4, &dv, 8), sb[13 * j + 12] = cv;
  }
  MPI_Allgather(sb, NG, st, rb, NG, st, MPI_COMM_WORLD);
  for (int k = 0; k < NG * np; k++) {
    int iv;
    double dv;
    memcpy(&iv, rb + 13 * k, 4), memcpy(&dv, rb + 13 * k + 4, 8);
    check(iv == k && dv == 0.5 * k && rb[13 * k + 12] == (char)(k % 127), "allgather struct", k);
  }
  int *ib = malloc(sizeof(int) * NG), *ia = malloc(sizeof(int) * NG * np);
  for (int j = 0; j < NG; j++) ib[j] = rank * NG + j;
  MPI_Allgather(ib, NG, MPI_INT, ia, NG, MPI_INT, MPI_COMM_WORLD);
  for (int k = 0; k < NG * np; k++) check(ia[k] == k, "allgather int", k);

  /* reduce and reduce_scatter_block with MPI_MINLOC: MPI_DOUBLE_INT, and MPI_2INT as control */
  int nall = NR > NB * np ? NR : NB * np;
  dint *ds = malloc(sizeof(dint) * nall), *dr = malloc(sizeof(dint) * nall);
  iint *is = malloc(sizeof(iint) * nall), *ir = malloc(sizeof(iint) * nall);
  for (int j = 0; j < nall; j++) ds[j].v = val(j, rank), ds[j].i = rank, is[j].v = val(j, rank), is[j].i = rank;
  MPI_Reduce(ds, dr, NR, MPI_DOUBLE_INT, MPI_MINLOC, 0, MPI_COMM_WORLD);
  MPI_Reduce(is, ir, NR, MPI_2INT, MPI_MINLOC, 0, MPI_COMM_WORLD);
  for (int j = 0; rank == 0 && j < NR; j++) {
    int m, owner = 0;
    loc_expect(j, &m, &owner);
    check(dr[j].v == m && dr[j].i == owner, "reduce MPI_DOUBLE_INT", j);
    check(ir[j].v == m && ir[j].i == owner, "reduce MPI_2INT", j);
  }
  MPI_Reduce_scatter_block(ds, dr, NB, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
  MPI_Reduce_scatter_block(is, ir, NB, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
  for (int j = 0; j < NB; j++) {
    int m, owner = 0;
    loc_expect(rank * NB + j, &m, &owner);
    check(dr[j].v == m && dr[j].i == owner, "reduce_scatter_block MPI_DOUBLE_INT", j);
    check(ir[j].v == m && ir[j].i == owner, "reduce_scatter_block MPI_2INT", j);
  }

  int all = 0;
  MPI_Allreduce(&bad, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank == 0 && all == 0) printf("mixed_app: OK\n");
  MPI_Type_free(&st);
  free(sb), free(rb), free(ib), free(ia), free(ds), free(dr), free(is), free(ir);
  MPI_Finalize();
  return all != 0;
}
