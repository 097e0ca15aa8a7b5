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
 * Environment: MG_PLANT_BYTES (default 65536), MG_PLANT_NS_PER_BYTE (default 2);
 * MG_PLANT_BYTES_TO: only messages below this many bytes (default: no bound), so that a size range
 * is slower than the sizes above it: a planted non-monotone cell (check.planted.monotony);
 * MG_PLANT_FUNC=allreduce plants in PMPI_Allreduce instead (benchmarks/verdict_quality.sh);
 * MG_PLANT_FUNC=neighbor_alltoall in PMPI_Neighbor_alltoall (its block per neighbour counts: the
 * neighbourhood rows never call it, tuned.neighbor.np2); MG_PLANT_FUNC=ineighbor_alltoall in the
 * post of PMPI_Ineighbor_alltoall (the non-blocking rows never call it either, tuned.ineighbor.np2);
 * MG_PLANT_FUNC=iallreduce in the post of PMPI_Iallreduce (the schedule row posts Ireduce and Ibcast,
 * tuned.sched.np2);
 * MG_PLANT_FACTOR=F (> 0) makes each rank's call F times as long as its real call instead of
 * adding a cost per byte (fine for allreduce, where every rank waits for all the others).
 * Test-only: it is never installed. The MPI functions it needs are looked up
 * at run time, so the library has no undefined MPI symbol and can be
 * preloaded into any process of a launch.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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

/* What the plant slows down (MG_PLANT_FUNC, default "bcast"), from which size, and how. */
static struct {
  int ready, bcast, allreduce, nbr_a2a, inbr_a2a, iallreduce;
  type_size_fn type_size;
  double bytes_from, bytes_to, ns_per_byte, factor;
} cfg;

static void setup(void) {
  if (cfg.ready) return;
  const char *fn = getenv("MG_PLANT_FUNC");
  cfg.bcast = !fn || !strcmp(fn, "bcast");
  cfg.allreduce = fn && !strcmp(fn, "allreduce");
  cfg.nbr_a2a = fn && !strcmp(fn, "neighbor_alltoall");
  cfg.inbr_a2a = fn && !strcmp(fn, "ineighbor_alltoall");
  cfg.iallreduce = fn && !strcmp(fn, "iallreduce");
  cfg.type_size = (type_size_fn)dlsym(RTLD_NEXT, "PMPI_Type_size");
  cfg.bytes_from = env_num("MG_PLANT_BYTES", 65536);
  cfg.bytes_to = env_num("MG_PLANT_BYTES_TO", 1e300);
  cfg.ns_per_byte = env_num("MG_PLANT_NS_PER_BYTE", 2);
  cfg.factor = env_num("MG_PLANT_FACTOR", 0);
  if (!cfg.type_size) {
    fprintf(stderr, "plant: PMPI_Type_size not found after the plant library\n");
    abort();
  }
  cfg.ready = 1;
}

/* After the real call of `count` elements of `type`, which began at t0: the planted cost. */
static void slow_down(int on, int count, MPI_Datatype type, double t0) {
  int ts = 0;
  if (!on || cfg.type_size(type, &ts) != MPI_SUCCESS) return;
  double bytes = (double)count * ts;
  if (bytes < cfg.bytes_from || bytes >= cfg.bytes_to) return;
  double end = cfg.factor > 0 ? t0 + cfg.factor * (now() - t0) : now() + 1e-9 * cfg.ns_per_byte * (double)count * ts;
  while (now() < end) {
  }
}

/* One interposer: PMPI_<Name> found behind the plant library once, called, then its planted cost
 * when `flag` (cfg's) is set, for `count` elements of `type`. */
#define PLANT(Name, flag, count, type, params, args)                                                  \
  __attribute__((visibility("default"))) int PMPI_##Name params {                                    \
    static int(*real) params;                                                                        \
    setup();                                                                                         \
    if (!real && !(real = (int(*) params)dlsym(RTLD_NEXT, "PMPI_" #Name))) {                        \
      fprintf(stderr, "plant: PMPI_" #Name " not found after the plant library\n");                \
      abort();                                                                                       \
    }                                                                                                \
    double t0 = now();                                                                               \
    int rc = real args;                                                                              \
    if (rc == MPI_SUCCESS) slow_down(cfg.flag, count, type, t0);                                     \
    return rc;                                                                                       \
  }

PLANT(Bcast, bcast, count, type, (void *buf, int count, MPI_Datatype type, int root, MPI_Comm comm),
      (buf, count, type, root, comm))
PLANT(Allreduce, allreduce, count, type,
      (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm),
      (sbuf, rbuf, count, type, op, comm))
PLANT(Neighbor_alltoall, nbr_a2a, scount, stype,
      (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm),
      (sbuf, scount, stype, rbuf, rcount, rtype, comm))
PLANT(Ineighbor_alltoall, inbr_a2a, scount, stype,
      (const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype, MPI_Comm comm,
       MPI_Request *req),
      (sbuf, scount, stype, rbuf, rcount, rtype, comm, req))
PLANT(Iallreduce, iallreduce, count, type,
      (const void *sbuf, void *rbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request *req),
      (sbuf, rbuf, count, type, op, comm, req))
