/*
 * libmpiguide in tuned mode with rules that name the datatype class and the
 * op (MPIGUIDE_PROFILE=data/typed.prof: allreduce type=float op=sum ->
 * allreduce_as_reduce_bcast, type=int op=bor ->
 * allreduce_as_reducescatter_allgatherv, from 8 bytes on any process count).
 * Each MPI_Allreduce below must run the algorithm of the rule whose selectors
 * match its datatype and op, and the default where none matches: ints with
 * MPI_SUM, doubles with MPI_MAX, doubles with a user-defined op, complex
 * numbers with MPI_SUM, a derived type of doubles, bytes with MPI_BOR. Which algorithm ran is
 * read from the library's counters (mpiguide_calls; MPIGUIDE_TRACE must be set,
 * which turns counting on); every result is compared with PMPI_Allreduce's.
 *
 * Usage: mpiexec -n P typed_app   (prints "typed_app: OK" on rank 0)
 *        mpiexec -n P typed_app untuned   every call must run the default: the profile was
 *                                         refused (a cut copy of typed.prof, tune.lib.cut.*)
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/test_mpi.h"
#include "mpiguide.h"

#define COUNT 16 /* elements: 64 or 128 bytes, inside the rules' 8-* */

static int rank, untuned;

/* A sum of doubles, for MPI_DOUBLE and for the pair of doubles. */
static void user_sum(void *in, void *inout, int *len, MPI_Datatype *dt) {
  int n = *len * (*dt == MPI_DOUBLE ? 1 : 2);
  for (int i = 0; i < n; i++) ((double *)inout)[i] += ((double *)in)[i];
}

/* One call: MPI_Allreduce and the reference PMPI_Allreduce on the same
 * input (`elem` bytes per element; fill 'd' doubles, 'f' floats, 'b' bytes,
 * all small whole numbers, so that any order of reducing gives the same bits);
 * the results must be equal and `alg` must have run exactly once. */
static void check(const char *what, MPI_Datatype dt, int count, int elem, char fill, MPI_Op op, const char *alg) {
  if (untuned) alg = "default";
  union {
    unsigned char b[COUNT * 8];
    double d[COUNT];
    float f[COUNT * 2];
  } in;
  unsigned char got[COUNT * 8], want[COUNT * 8];
  size_t len = (size_t)count * (size_t)elem;
  for (size_t i = 0; i < len; i++) in.b[i] = (unsigned char)(rank * 7 + i);
  for (size_t i = 0; fill == 'd' && i < len / 8; i++) in.d[i] = (double)(rank + (int)i);
  for (size_t i = 0; fill == 'f' && i < len / 4; i++) in.f[i] = (float)(rank + (int)i);
  const char *algs[] = {"default", "allreduce_as_reduce_bcast", "allreduce_as_reducescatterblock_allgather",
                        "allreduce_as_reducescatter_allgatherv"};
  long long before[4], after[4];
  for (int k = 0; k < 4; k++) before[k] = mpiguide_calls("allreduce", algs[k]);
  int rc = MPI_Allreduce(in.b, got, count, dt, op, MPI_COMM_WORLD);
  for (int k = 0; k < 4; k++) after[k] = mpiguide_calls("allreduce", algs[k]);
  PMPI_Allreduce(in.b, want, count, dt, op, MPI_COMM_WORLD);
  TEST_CASE(what);
  ASSERT_MSG(rc == MPI_SUCCESS && memcmp(got, want, len) == 0, "wrong result (rc %d)", rc);
  for (int k = 0; k < 4; k++) {
    long long want_delta = strcmp(algs[k], alg) == 0;
    ASSERT_MSG(after[k] - before[k] == want_delta, "%s ran %lld times, want %lld (expected to run: %s)", algs[k],
               after[k] - before[k], want_delta, alg);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  mg_test_mpi_start("typed_app");
  untuned = argc > 1 && strcmp(argv[1], "untuned") == 0;
  if (!getenv("MPIGUIDE_TRACE") || !getenv("MPIGUIDE_PROFILE")) {
    fprintf(stderr, "typed_app: set MPIGUIDE_PROFILE (data/typed.prof) and MPIGUIDE_TRACE (turns counting on)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Op usum;
  MPI_Op_create(user_sum, 1, &usum);
  MPI_Datatype pair;
  MPI_Type_contiguous(2, MPI_DOUBLE, &pair);
  MPI_Type_commit(&pair);

  check("doubles, MPI_SUM", MPI_DOUBLE, COUNT, 8, 'd', MPI_SUM, "allreduce_as_reduce_bcast");
  check("floats, MPI_SUM (class float)", MPI_FLOAT, COUNT, 4, 'f', MPI_SUM, "allreduce_as_reduce_bcast");
  check("ints, MPI_SUM", MPI_INT, COUNT, 4, 'b', MPI_SUM, "default");
  check("doubles, MPI_MAX", MPI_DOUBLE, COUNT, 8, 'd', MPI_MAX, "default");
  check("doubles, user-defined sum", MPI_DOUBLE, COUNT, 8, 'd', usum, "default");
  check("double complex, MPI_SUM (no class)", MPI_C_DOUBLE_COMPLEX, COUNT / 2, 16, 'd', MPI_SUM, "default");
  check("contiguous pairs of doubles, user-defined sum (no class)", pair, COUNT / 2, 16, 'd', usum, "default");
  check("ints, MPI_BOR", MPI_INT, COUNT, 4, 'b', MPI_BOR, "allreduce_as_reducescatter_allgatherv");
  check("unsigned long longs, MPI_BOR (class int)", MPI_UNSIGNED_LONG_LONG, COUNT, 8, 'b', MPI_BOR,
        "allreduce_as_reducescatter_allgatherv");
  check("bytes, MPI_BOR", MPI_BYTE, COUNT, 1, 'b', MPI_BOR, "default");
  check("one double, MPI_SUM (8 bytes: the lower bound)", MPI_DOUBLE, 1, 8, 'd', MPI_SUM,
        "allreduce_as_reduce_bcast");
  check("one float, MPI_SUM (4 bytes: below the range)", MPI_FLOAT, 1, 4, 'f', MPI_SUM, "default");

  MPI_Type_free(&pair);
  MPI_Op_free(&usum);
  int rc = mg_test_mpi_summary(NULL);
  MPI_Finalize();
  return rc;
}
