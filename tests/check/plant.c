/*
 * A planted guideline violation, for the ground-truth test of `mpiguide check`
 * (tests/check/CMakeLists.txt): a library preloaded into the mpiguide
 * command (LD_PRELOAD; after libmpiguide when both are used) that makes the
 * MPI library's own broadcast slower from a size on.
 *
 * It defines PMPI_Bcast: for messages of at least BYTES bytes it calls the MPI
 * library's PMPI_Bcast (the next definition, dlsym(RTLD_NEXT)) and then
 * spins on every rank for NS_PER_BYTE nanoseconds per byte of the message
 * (default 2: 131 us at 64 KiB, 524 us at 256 KiB), far more than either
 * bcast mock-up (allgatherv; scatter + allgather, which never call
 * PMPI_Bcast) costs at those sizes on this machine. A known absolute cost, so
 * the planted violation does not depend on how fast the real broadcast
 * happens to be: an earlier plant made each rank's call FACTOR times as long
 * as its own real broadcast, and on MPICH, whose root returns from an eager
 * broadcast at once, that measured 1.1x and the test failed on a busy machine.
 *
 * Environment: MG_PLANT_BYTES (default 65536), MG_PLANT_NS_PER_BYTE (default 2).
 * Test-only: it is never installed. The MPI functions it needs are looked up
 * at run time, so the library has no undefined MPI symbol and can be
 * preloaded into any process of a launch.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int (*bcast_fn)(void *, int, MPI_Datatype, int, MPI_Comm);
typedef int (*type_size_fn)(MPI_Datatype, int *);

static double now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static double env_num(const char *name, double dflt) {
  const char *v = getenv(name);
  char *end;
  double x = v ? strtod(v, &end) : dflt;
  return v && (end == v || *end) ? dflt : x;
}

__attribute__((visibility("default"))) int PMPI_Bcast(void *buf, int count, MPI_Datatype type, int root,
                                                      MPI_Comm comm) {
  static bcast_fn real;
  static type_size_fn type_size;
  static double bytes_from, ns_per_byte;
  if (!real) {
    real = (bcast_fn)dlsym(RTLD_NEXT, "PMPI_Bcast");
    type_size = (type_size_fn)dlsym(RTLD_NEXT, "PMPI_Type_size");
    bytes_from = env_num("MG_PLANT_BYTES", 65536);
    ns_per_byte = env_num("MG_PLANT_NS_PER_BYTE", 2);
    if (!real || !type_size) {
      fprintf(stderr, "plant: PMPI_Bcast or PMPI_Type_size not found after the plant library\n");
      abort();
    }
  }
  int rc = real(buf, count, type, root, comm);
  int ts = 0;
  if (rc == MPI_SUCCESS && type_size(type, &ts) == MPI_SUCCESS && (double)count * ts >= bytes_from) {
    double end = now() + 1e-9 * ns_per_byte * (double)count * ts;
    while (now() < end) {
    }
  }
  return rc;
}
