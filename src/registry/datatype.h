/*
 * The layout of an MPI datatype, as the call descriptor's arguments need it:
 * extent and true extent, size, whether the elements are the bytes. Used by
 * the registry's restrictions (a non-commutative op on a datatype with gaps)
 * and by the mock-ups (typed scratch, element addresses).
 */
#ifndef MG_REGISTRY_DATATYPE_H
#define MG_REGISTRY_DATATYPE_H

#include <mpi.h>
#include <stddef.h>

typedef struct mg_type {
  MPI_Aint lb, extent;           /* MPI_Type_get_extent */
  MPI_Aint true_lb, true_extent; /* MPI_Type_get_true_extent */
  int size;                      /* MPI_Type_size */
} mg_type;

int mg_type_get(MPI_Datatype dt, mg_type *t);
/* Dense: the elements are the bytes (no gaps, lower bound 0). */
int mg_type_is_dense(const mg_type *t);
/* Bytes spanned by `count` consecutive elements: (count-1)*extent + true_extent
 * (0 for count 0). This is what a scratch buffer for them must hold. */
size_t mg_type_span(const mg_type *t, size_t count);
/* Address to pass to MPI for a scratch region of mg_type_span() bytes. */
static inline void *mg_type_base(void *region, const mg_type *t) { return (char *)region - t->true_lb; }
/* Address of element i of a typed buffer. */
static inline void *mg_type_at(const void *buf, const mg_type *t, size_t i) {
  return (char *)buf + (MPI_Aint)i * t->extent;
}

/* Whether the type signature of dt holds basic types of more than one size (struct{int,double},
 * MPI_DOUBLE_INT, MPI_SHORT_INT): a property of the signature, so equal on every rank of a
 * correct call. Predefined types with a class answer from the handle (no MPI call); derived
 * ones are walked with MPI_Type_get_envelope/contents once, the answer then kept on the type (an
 * attribute). 0 when it cannot tell (an error). */
int mg_type_mixed_sizes(MPI_Datatype dt);

/*
 * Datatype classes and op selectors: what a tuning profile's rule may name
 * (docs/profile.md, `type=` and `op=`), after the MPI standard's groups of
 * predefined datatypes for reductions ("Predefined Reduction Operations").
 * A rule measured by summing doubles says nothing about OR-ing bytes; the
 * class and the op of a reduction are equal on every rank of a correct call,
 * so a decision that uses them stays the same on every rank (DESIGN.md rule 1).
 *
 * Two sides, one numbering:
 *  - a rule's selector: MG_TCLASS_ANY / MG_OPSEL_ANY (0) = no selector, the
 *    rule is for every datatype / op; 1.. = that class / op;
 *  - a call's class: mg_tclass_of() / mg_opsel_of() give 1.. for a datatype
 *    or op that has a class, and MG_TCLASS_NONE / MG_OPSEL_NONE (-1) for the
 *    rest (MPI_CHAR, MPI_WCHAR, derived, pair and multi-language types; user-defined
 *    ops, MPI_OP_NULL, MPI_REPLACE, MPI_NO_OP). A call without a class is governed
 *    only by rules without that selector. NONE is never a valid selector.
 *
 * The classes are the standard's groups, except that its C and Fortran floating point are one
 * group there and one class here, while its C integer and Fortran integer groups are two: fint
 * (MPI_INTEGER...) is not int. Logical and complex hold both languages' members, as the standard's
 * groups do: CP2K's MPI_INTEGER and MPI_LOGICAL reductions (a third of its MPI time on the 2-node
 * bed) are typed calls that check measures and a rule with type=fint / type=logical governs.
 * Fortran handles are compared as a Fortran call reaches the C wrappers (src/lib/fortran.c); a
 * type an MPI build leaves MPI_DATATYPE_NULL never matches.
 */

/* The classes. X(ENUM, name in profiles, the datatype a measurement of the class uses, the op one
 * of the class without an op uses, its members as the MPI standard names them). The datatype and
 * op are what `mpiguide check` and `verify` reduce to stand for the class (bench/types.c). */
#define MG_TCLASSES(X)                                                                                      \
  X(INT, "int", "MPI_INT", "MPI_SUM",                                                                       \
    "C integers: MPI_SIGNED_CHAR MPI_UNSIGNED_CHAR MPI_SHORT MPI_UNSIGNED_SHORT MPI_INT MPI_UNSIGNED "      \
    "MPI_LONG MPI_UNSIGNED_LONG MPI_LONG_LONG MPI_UNSIGNED_LONG_LONG MPI_INT8_T..MPI_UINT64_T")            \
  X(FLOAT, "float", "MPI_DOUBLE", "MPI_SUM",                                                                \
    "floating point: MPI_FLOAT MPI_DOUBLE MPI_LONG_DOUBLE MPI_REAL MPI_DOUBLE_PRECISION")                  \
  X(BYTE, "byte", "MPI_BYTE", "MPI_BOR", "MPI_BYTE")                                                        \
  X(FINT, "fint", "MPI_INTEGER", "MPI_SUM",                                                                 \
    "Fortran integers: MPI_INTEGER MPI_INTEGER1 MPI_INTEGER2 MPI_INTEGER4 MPI_INTEGER8")                   \
  X(LOGICAL, "logical", "MPI_LOGICAL", "MPI_LOR", "logical: MPI_LOGICAL MPI_C_BOOL MPI_CXX_BOOL")           \
  X(COMPLEX, "complex", "MPI_DOUBLE_COMPLEX", "MPI_SUM",                                                    \
    "complex: MPI_COMPLEX MPI_DOUBLE_COMPLEX MPI_COMPLEX8 MPI_COMPLEX16 MPI_C_*COMPLEX MPI_CXX_*COMPLEX")

enum {
  MG_TCLASS_NONE = -1, /* a call's datatype without a class */
  MG_TCLASS_ANY = 0,   /* a rule without type= */
#define MG_X(E, n, r, o, d) MG_TCLASS_##E,
  MG_TCLASSES(MG_X)
#undef MG_X
      MG_NTCLASS
};

/* The predefined datatypes that have a class: X(handle, class). Synonyms
 * (MPI_LONG_LONG_INT) may share a handle with a listed type. */
#define MG_TCLASS_TYPES(X)                                                                                  \
  X(MPI_DOUBLE, FLOAT) X(MPI_FLOAT, FLOAT) X(MPI_INT, INT) X(MPI_LONG, INT) X(MPI_BYTE, BYTE)               \
  X(MPI_LONG_DOUBLE, FLOAT) X(MPI_UNSIGNED, INT) X(MPI_UNSIGNED_LONG, INT) X(MPI_LONG_LONG, INT)           \
  X(MPI_LONG_LONG_INT, INT) X(MPI_UNSIGNED_LONG_LONG, INT) X(MPI_SHORT, INT) X(MPI_UNSIGNED_SHORT, INT)    \
  X(MPI_SIGNED_CHAR, INT) X(MPI_UNSIGNED_CHAR, INT) X(MPI_INT8_T, INT) X(MPI_INT16_T, INT)                 \
  X(MPI_INT32_T, INT) X(MPI_INT64_T, INT) X(MPI_UINT8_T, INT) X(MPI_UINT16_T, INT) X(MPI_UINT32_T, INT)    \
  X(MPI_UINT64_T, INT) X(MPI_DOUBLE_PRECISION, FLOAT) X(MPI_REAL, FLOAT) X(MPI_INTEGER, FINT)               \
  X(MPI_LOGICAL, LOGICAL) X(MPI_INTEGER8, FINT) X(MPI_INTEGER4, FINT) X(MPI_DOUBLE_COMPLEX, COMPLEX)        \
  X(MPI_COMPLEX, COMPLEX) X(MPI_REAL8, FLOAT) X(MPI_REAL4, FLOAT) X(MPI_INTEGER2, FINT)                     \
  X(MPI_INTEGER1, FINT) X(MPI_COMPLEX16, COMPLEX) X(MPI_COMPLEX8, COMPLEX) X(MPI_C_BOOL, LOGICAL)           \
  X(MPI_CXX_BOOL, LOGICAL) X(MPI_C_DOUBLE_COMPLEX, COMPLEX) X(MPI_C_FLOAT_COMPLEX, COMPLEX)                 \
  X(MPI_C_COMPLEX, COMPLEX) X(MPI_C_LONG_DOUBLE_COMPLEX, COMPLEX) X(MPI_CXX_FLOAT_COMPLEX, COMPLEX)         \
  X(MPI_CXX_DOUBLE_COMPLEX, COMPLEX) X(MPI_CXX_LONG_DOUBLE_COMPLEX, COMPLEX)

/* One bit per class, for the op table below. */
enum {
#define MG_X(E, n, r, o, d) MG_TCLASS_BIT_##E = 1 << MG_TCLASS_##E,
  MG_TCLASSES(MG_X)
#undef MG_X
};
/* The standard's groups per op: arithmetic on the integers and floating point (sum and product on
 * complex too), the logical ops on C integers and logical, the bitwise ops on the integers and byte. */
#define MG_TC_INTS (MG_TCLASS_BIT_INT | MG_TCLASS_BIT_FINT)
#define MG_TC_MINMAX (MG_TC_INTS | MG_TCLASS_BIT_FLOAT)
#define MG_TC_ARITH (MG_TC_MINMAX | MG_TCLASS_BIT_COMPLEX)
#define MG_TC_LOGIC (MG_TCLASS_BIT_INT | MG_TCLASS_BIT_LOGICAL)
#define MG_TC_BITS (MG_TC_INTS | MG_TCLASS_BIT_BYTE)

/*
 * The op selectors: X(ENUM, name in profiles, handle, the classes MPI defines
 * the op on). MAXLOC and MINLOC take pair types, which have no class.
 */
#define MG_OPSELS(X)                                                                                        \
  X(SUM, "sum", MPI_SUM, MG_TC_ARITH)                                                                       \
  X(PROD, "prod", MPI_PROD, MG_TC_ARITH)                                                                    \
  X(MIN, "min", MPI_MIN, MG_TC_MINMAX)                                                                      \
  X(MAX, "max", MPI_MAX, MG_TC_MINMAX)                                                                      \
  X(LAND, "land", MPI_LAND, MG_TC_LOGIC)                                                                    \
  X(LOR, "lor", MPI_LOR, MG_TC_LOGIC)                                                                       \
  X(LXOR, "lxor", MPI_LXOR, MG_TC_LOGIC)                                                                    \
  X(BAND, "band", MPI_BAND, MG_TC_BITS)                                                                     \
  X(BOR, "bor", MPI_BOR, MG_TC_BITS)                                                                        \
  X(BXOR, "bxor", MPI_BXOR, MG_TC_BITS)                                                                     \
  X(MAXLOC, "maxloc", MPI_MAXLOC, 0)                                                                        \
  X(MINLOC, "minloc", MPI_MINLOC, 0)

enum {
  MG_OPSEL_NONE = -1, /* a call's op without a selector (user-defined, MPI_OP_NULL, ...) */
  MG_OPSEL_ANY = 0,   /* a rule without op= */
#define MG_X(E, n, h, c) MG_OPSEL_##E,
  MG_OPSELS(MG_X)
#undef MG_X
      MG_NOPSEL
};

/* Names: "int", "float", "byte"; "any" for MG_TCLASS_ANY, "none" for
 * MG_TCLASS_NONE and anything out of range. Likewise for ops ("sum", ...). */
const char *mg_tclass_name(int tclass);
const char *mg_tclass_desc(int tclass); /* the members, for messages and listings ("" if none) */
/* The predefined datatype ("MPI_DOUBLE") and op ("MPI_SUM") that a measurement of class tclass
 * reduces (the op for a rule or a call that names none); NULL out of range. */
const char *mg_tclass_repr(int tclass);
const char *mg_tclass_repr_op(int tclass);
const char *mg_opsel_name(int opsel);
/* A class by name ("float", any case) or op by name ("sum", "SUM", "MPI_SUM",
 * "mpi_sum"): 1.., or -1 when unknown ("any" and "none" are not names). */
int mg_tclass_find(const char *name);
int mg_opsel_find(const char *name);
/* The class of a predefined datatype by its MPI name ("MPI_DOUBLE", "double",
 * any case): 1.., or -1 when it has none (for messages that suggest a class). */
int mg_tclass_of_typename(const char *name);
/* A call's class and op selector; MG_TCLASS_NONE / MG_OPSEL_NONE when none.
 * Compare handles only (no MPI call, any handle accepted). */
int mg_tclass_of(MPI_Datatype dt);
int mg_opsel_of(MPI_Op op);
/* Whether MPI defines op `opsel` on the datatypes of class `tclass` (the
 * last column of MG_OPSELS); a rule with both selectors otherwise matches no
 * correct call. 1 when either is ANY, 0 out of range. */
int mg_sel_defined(int tclass, int opsel);

/*
 * Whether a reduction with op `op` on datatype `dt` is one MPI defines: 1 for a
 * user-defined op (any datatype; MPI_OP_NULL too, refused elsewhere), and for a
 * predefined op only on the predefined datatypes of the groups the standard
 * defines it on (MPI_CHAR counted as a C integer, as both libraries do). 0 for a
 * predefined op on a derived datatype (any: a duplicate or a contiguous of one
 * MPI_INT too), on MPI_PACKED, MPI_WCHAR, a pair type outside MAXLOC/MINLOC, a
 * type outside the op's groups, and for MPI_REPLACE and MPI_NO_OP, which are for
 * one-sided accumulates only. Open MPI 4.1.4 and MPICH 4.0.2 return MPI_ERR_OP
 * on every rank for each such pair they refuse, before they communicate (count 0
 * too); MPICH accepts the logical ops on floating point (and then fails an
 * assertion), Open MPI the arithmetic ops on MPI_BYTE: the default runs them.
 * Compares handles only (no MPI call).
 */
int mg_op_defined(MPI_Op op, MPI_Datatype dt);

#endif
