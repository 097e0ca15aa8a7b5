/*
 * The arithmetic and tables behind two restrictions whose algorithms live in src/algs/, kept
 * here so that mg_applicable() decides them without calling up into the algorithms:
 * - MG_R_PADDED_INT, the monotony family (src/algs/padded.c): the padded count must fit an int;
 * - MG_R_BITWISE_EXACT, the user-defined op family (src/algs/userop.c): the op and datatype
 *   whose user-defined twin gives the same bits in any order. The table of ops and datatypes
 *   below is the one the twins are generated from, so the rule and the twins cannot part.
 * Pure: no MPI call but comparisons of handles.
 */
#ifndef MG_REGISTRY_RESTRICT_H
#define MG_REGISTRY_RESTRICT_H

#include <stddef.h>
#include <stdint.h>

#include "registry/registry.h"

/* The padded count: the smallest power of two >= k n (n >= 1); SIZE_MAX when it overflows. */
size_t mg_padded_count(size_t n, int k);
/* Whether the monotony family pads every rank's block (gather, scatter, allgather, alltoall)
 * rather than the whole message (bcast: bytes; the reductions: elements). */
static inline int mg_padded_by_block(mg_coll c) {
  return c == MG_ALLGATHER || c == MG_GATHER || c == MG_SCATTER || c == MG_ALLTOALL;
}
/* The padded message one call moves, in its units: bytes (bcast), p padded blocks of bytes (the
 * per-rank-block collectives), elements (the reductions); SIZE_MAX when it overflows. */
size_t mg_padded_units(const mg_call *c, int k);

/* The kinds of datatype, for which ops are exact on them (registry.h, MG_R_BITWISE_EXACT):
 * - WIDE: signed, at least int's width;
 * - NARROW: signed, narrower than int: no SUM, which Open MPI 4.1's vectorised kernels (op/avx)
 *   saturate there (open-mpi/ompi#8045; seen with 4.1.4 here), and a saturating sum depends on
 *   the order, so not even the library's own paths agree on an overflowing call;
 * - UNSIGNED: no MIN or MAX, which compare as signed in MPICH 4.0.2 on every unsigned type
 *   (pmodels/mpich#6083) and in Open MPI 4.1 on MPI_UNSIGNED_LONG (open-mpi/ompi#10525; 4.1.4 here):
 *   the library's result is not the unsigned minimum, and the row must give the library's result;
 * - BYTES: MPI_BYTE, the bitwise ops only (the standard's "Byte" group). */
enum { MG_UO_WIDE = 1, MG_UO_NARROW = 2, MG_UO_UNSIGNED = 4, MG_UO_BYTES = 8 };
#define MG_UO_INTS (MG_UO_WIDE | MG_UO_NARROW | MG_UO_UNSIGNED)

/* The ops: X(ENUM, built-in handle, the kinds it is exact on). */
#define MG_UO_OPS(X)                                                                                          \
  X(SUM, MPI_SUM, MG_UO_WIDE | MG_UO_UNSIGNED) X(PROD, MPI_PROD, MG_UO_INTS)                                \
  X(MIN, MPI_MIN, MG_UO_WIDE | MG_UO_NARROW) X(MAX, MPI_MAX, MG_UO_WIDE | MG_UO_NARROW)                      \
  X(LAND, MPI_LAND, MG_UO_INTS) X(LOR, MPI_LOR, MG_UO_INTS) X(LXOR, MPI_LXOR, MG_UO_INTS)                   \
  X(BAND, MPI_BAND, MG_UO_INTS | MG_UO_BYTES) X(BOR, MPI_BOR, MG_UO_INTS | MG_UO_BYTES)                      \
  X(BXOR, MPI_BXOR, MG_UO_INTS | MG_UO_BYTES)

/* The datatypes: X(arg, handle, C type, arithmetic type, kind). The C integer types of the
 * standard's reduction groups, as registry/datatype.h's class "int", and MPI_BYTE; the arithmetic
 * type is the unsigned type of at least int's width the twins compute SUM and PROD in. Synonyms
 * (MPI_LONG_LONG_INT) may share a handle with a listed type: the first match wins. */
#define MG_UO_TYPES(X, a)                                                                               \
  X(a, MPI_INT, int, unsigned, MG_UO_WIDE)                                                              \
  X(a, MPI_UNSIGNED, unsigned, unsigned, MG_UO_UNSIGNED)                                                \
  X(a, MPI_LONG, long, unsigned long, MG_UO_WIDE)                                                       \
  X(a, MPI_UNSIGNED_LONG, unsigned long, unsigned long, MG_UO_UNSIGNED)                                 \
  X(a, MPI_LONG_LONG, long long, unsigned long long, MG_UO_WIDE)                                        \
  X(a, MPI_LONG_LONG_INT, long long, unsigned long long, MG_UO_WIDE)                                    \
  X(a, MPI_UNSIGNED_LONG_LONG, unsigned long long, unsigned long long, MG_UO_UNSIGNED)                  \
  X(a, MPI_SHORT, short, unsigned, MG_UO_NARROW)                                                        \
  X(a, MPI_UNSIGNED_SHORT, unsigned short, unsigned, MG_UO_UNSIGNED)                                    \
  X(a, MPI_SIGNED_CHAR, signed char, unsigned, MG_UO_NARROW)                                            \
  X(a, MPI_UNSIGNED_CHAR, unsigned char, unsigned, MG_UO_UNSIGNED)                                      \
  X(a, MPI_INT8_T, int8_t, unsigned, MG_UO_NARROW)                                                      \
  X(a, MPI_INT16_T, int16_t, unsigned, MG_UO_NARROW)                                                    \
  X(a, MPI_INT32_T, int32_t, uint32_t, MG_UO_WIDE)                                                      \
  X(a, MPI_INT64_T, int64_t, uint64_t, MG_UO_WIDE)                                                      \
  X(a, MPI_UINT8_T, uint8_t, unsigned, MG_UO_UNSIGNED)                                                  \
  X(a, MPI_UINT16_T, uint16_t, unsigned, MG_UO_UNSIGNED)                                                \
  X(a, MPI_UINT32_T, uint32_t, uint32_t, MG_UO_UNSIGNED)                                                \
  X(a, MPI_UINT64_T, uint64_t, uint64_t, MG_UO_UNSIGNED)                                                \
  X(a, MPI_BYTE, unsigned char, unsigned, MG_UO_BYTES)

enum {
#define MG_X(E, h, k) MG_UO_##E,
  MG_UO_OPS(MG_X)
#undef MG_X
      MG_UO_NOPS
};

/* The index of a built-in op in MG_UO_OPS, or -1 (compares handles). */
int mg_userop_index(MPI_Op op);
/* Whether the user-op family has an exact user-defined twin of op on datatype dt
 * (MG_R_BITWISE_EXACT); compares handles only, calls no MPI. */
int mg_userop_exact(MPI_Op op, MPI_Datatype dt);

#endif
