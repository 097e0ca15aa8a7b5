/*
 * Unit test of mg_type_mixed_sizes (src/registry/datatype.c), the test behind the restriction
 * "mpich:one-basic-size" (MG_R_UNIFORM_BASIC): whether a type signature holds basic types of more
 * than one size, and that a derived type's answer is kept on the type:
 *  - the answers for predefined, pair and derived types (nested, duplicated, of one size or two);
 *  - a second call on a derived type allocates nothing (the allocation counter of
 *    benchmarks/malloc_count.c is linked in; the walk allocates at every level);
 *  - a freed type's handle, reused by a new type of another signature, gets the new type's answer
 *    (a cache keyed by handle value would keep the old one);
 *  - MPI_Type_dup's copy answers as its original.
 * One process.
 */
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

#include "common/test.h"
#include "registry/datatype.h"

size_t mg_malloc_calls(void); /* benchmarks/malloc_count.c */

static MPI_Datatype make_struct(MPI_Datatype a, MPI_Datatype b) {
  int len[2] = {1, 1};
  MPI_Aint disp[2] = {0, 16};
  MPI_Datatype types[2] = {a, b}, t;
  MPI_Type_create_struct(2, len, disp, types, &t);
  MPI_Type_commit(&t);
  return t;
}

/* The answer for dt, and a second call that must allocate nothing when dt is derived. */
static void expect(const char *what, MPI_Datatype dt, int want, int derived) {
  int got = mg_type_mixed_sizes(dt);
  ASSERT_MSG(got == want, "%s: mixed sizes %d, want %d", what, got, want);
  size_t before = mg_malloc_calls();
  got = mg_type_mixed_sizes(dt);
  size_t made = mg_malloc_calls() - before;
  ASSERT_MSG(got == want, "%s: second call says %d, want %d", what, got, want);
  if (derived) ASSERT_MSG(made == 0, "%s: the second call allocated %zu time(s): the answer is not kept", what, made);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  expect("MPI_INT", MPI_INT, 0, 0);
  expect("MPI_DOUBLE_INT", MPI_DOUBLE_INT, 1, 0);
  expect("MPI_2INT", MPI_2INT, 0, 0);
  MPI_Datatype id = make_struct(MPI_INT, MPI_DOUBLE), ii = make_struct(MPI_INT, MPI_FLOAT), vec, dup, nest;
  expect("struct{int,double}", id, 1, 1);
  expect("struct{int,float}", ii, 0, 1);
  MPI_Type_vector(3, 1, 2, ii, &vec);
  MPI_Type_commit(&vec);
  expect("vector of struct{int,float}", vec, 0, 1);
  nest = make_struct(vec, MPI_DOUBLE_INT);
  expect("struct{vector, MPI_DOUBLE_INT}", nest, 1, 1);
  MPI_Type_dup(id, &dup);
  expect("dup of struct{int,double}", dup, 1, 1);

  /* a freed handle comes back for the next type: its answer is the new type's */
  int reused = 0;
  for (int round = 0; round < 8; round++) {
    MPI_Datatype old = id, now;
    MPI_Type_free(&id);
    now = make_struct(MPI_SHORT, MPI_SHORT); /* one size */
    reused += now == old;
    expect("struct{short,short} made after a struct{int,double} was freed", now, 0, 1);
    MPI_Type_free(&now);
    id = make_struct(MPI_INT, MPI_DOUBLE);
    expect("struct{int,double} made again", id, 1, 1);
  }
  printf("unit.mixed_sizes: a freed handle came back for the next type in %d of 8 rounds\n", reused);
  MPI_Type_free(&id);
  MPI_Type_free(&ii);
  MPI_Type_free(&vec);
  MPI_Type_free(&nest);
  MPI_Type_free(&dup);
  MPI_Finalize();
  return mg_test_summary("test_mixed_sizes");
}
