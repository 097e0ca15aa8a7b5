/*
 * TGT 2010 eq. (4), and the "similar guideline" for MPI_Unpack: packing a derived datatype must not
 * be slower than packing its subtypes one by one,
 *
 *   Pack(n/k, T(k)) <= Pack(n0/k0, T0(k0)) + ... + Pack(n_{t-1}/k_{t-1}, T_{t-1}(k_{t-1})),
 *
 * here with the whole message as the derived type and its subtypes the constituents of each element
 * (a vector's block, a resized type's base element, a struct's members), packed in type-map order
 * with the running position into the same buffer: the same bytes as the one call (asserted). Both
 * sides are local calls: rank 0 measures them alone inside check's launch, the other ranks wait
 * without spinning. It says where the library's datatype engine loses; there is no call to repair,
 * so nothing here ever becomes a tuning rule (docs/check.md, "Packing").
 */
#ifndef MG_BENCH_PACK_H
#define MG_BENCH_PACK_H

#include <mpi.h>
#include <stdio.h>

#include "bench/bench.h"

/* X(ENUM, name in pack.csv's collective column, the MPI call, the constituent variant's name) */
#define MG_PACK_OPS(X)                                      \
  X(PACK, "pack", "MPI_Pack", "pack_as_subtypes")          \
  X(UNPACK, "unpack", "MPI_Unpack", "unpack_as_subtypes")

typedef enum {
#define MG_X(E, n, m, a) MG_PACK_OP_##E,
  MG_PACK_OPS(MG_X)
#undef MG_X
      MG_NPACK_OPS
} mg_pack_op;

/* The guideline's label and relations (docs/guidelines.md; ../shared/TPDS2010.md). */
#define MG_PACK_GUIDELINE "TGT4"
#define MG_PACK_FORMULA "Pack(n/k, T(k)) <= Pack(n0/k0, T0(k0)) + ... + Pack(n_{t-1}/k_{t-1}, T_{t-1}(k_{t-1}))"
#define MG_UNPACK_FORMULA "Unpack(n/k, T(k)) <= Unpack(n0/k0, T0(k0)) + ... + Unpack(n_{t-1}/k_{t-1}, T_{t-1}(k_{t-1}))"
/* The format line of pack.csv (raw.csv's columns, its collective pack or unpack). */
#define MG_PACK_FORMAT "mpiguide-check-pack/1"

const char *mg_pack_op_name(int op);   /* "pack", "?" out of range */
const char *mg_pack_op_mpi(int op);    /* "MPI_Pack" */
const char *mg_pack_alt_name(int op);  /* "pack_as_subtypes" */
int mg_pack_op_find(const char *name); /* -1: neither */

/* One constituent of an element: `count` elements of a predefined type at byte `disp` from it. */
typedef struct mg_pack_piece {
  int disp, count;
  MPI_Datatype type;
} mg_pack_piece;

/* The constituents of one element of d in type-map order: a vector's block, a resized type's base, a
 * struct's members. Their number (at most MG_DT_MAX_MEMBERS); 0 for a predefined type (none). */
int mg_pack_pieces(const mg_dtype_info *d, mg_pack_piece *out);

/* Pack `count` elements of d at inbuf (extent d's) as their pieces one by one, each MPI_Pack with the
 * running *pos into outbuf of outsize bytes; unpack likewise. An MPI code. */
int mg_pack_by_pieces(const void *inbuf, long count, const mg_dtype_info *d, const mg_pack_piece *pc, int npc,
                      void *outbuf, int outsize, int *pos, MPI_Comm comm);
int mg_unpack_by_pieces(const void *inbuf, int insize, int *pos, void *outbuf, long count, const mg_dtype_info *d,
                        const mg_pack_piece *pc, int npc, MPI_Comm comm);

/* The first byte at which a and b (n bytes each) differ, -1 when they are the same. */
long mg_pack_first_diff(const void *a, const void *b, size_t n);

/*
 * The assertion behind every measurement: `count` elements of d (its committed type t), filled with
 * a pattern, packed by one MPI_Pack and by the pieces must give the same bytes at the same final
 * position, and unpacking those bytes by one MPI_Unpack and by the pieces the same user buffer (its
 * gaps untouched in both). 0 identical; 1 different, with where in why; an MPI code (> 1) when a
 * call failed. Local.
 */
int mg_pack_verify(const mg_dtype_info *d, MPI_Datatype t, long count, MPI_Comm comm, char *why, size_t len);

typedef struct mg_pack_cfg {
  MPI_Comm comm;           /* rank 0 measures; every rank calls mg_pack_run */
  const mg_dtype_info *dtype; /* derived */
  const size_t *sizes;     /* bytes of data, ascending, multiples of the datatype's size */
  int nsizes;
  long rounds;             /* measurements per variant and size (after the warm-up) */
  long min_rounds;         /* ... of which at least these before the time cap may stop a size */
  int warmup;
  double time_cap;         /* seconds of one size's rounds after min_rounds */
  mg_timer_kind timer;
} mg_pack_cfg;

/* The four series of a size, in the order MG_PACK_OPS x {default, alt}: index op * 2 + alt. */
#define MG_PACK_NSERIES (2 * MG_NPACK_OPS)
typedef struct mg_pack_block {
  size_t bytes;
  long count;
  int failed;              /* the assertion failed or a call did: no measurement, note says why */
  char note[192];
  long n;                  /* rounds taken (warm-up included): every series has n values */
  double *lat[MG_PACK_NSERIES]; /* seconds, round by round */
} mg_pack_block;

typedef struct mg_pack_result {
  int nblocks;
  mg_pack_block *blocks;
  double granularity;      /* the timer's measured step, s: the noise threshold of a local timing */
  double elapsed;          /* s */
} mg_pack_result;

/* Collective over cfg->comm. Rank 0 holds the result (the others an empty one). An MPI code of the
 * run itself (a failing Pack is a failed block, not an error). */
int mg_pack_run(const mg_pack_cfg *cfg, mg_pack_result *res);
void mg_pack_result_free(mg_pack_result *res);

/* Rank 0: pack.csv, raw.csv's format (bench/csv.h) under #@format=MG_PACK_FORMAT, after the launch's
 * metadata; the rows count (also written as #@rows before the header). */
long mg_pack_write(FILE *f, const mg_pack_cfg *cfg, const mg_pack_result *res, const mg_bench_meta *m,
                   const char *command);

#endif
