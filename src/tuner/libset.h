/*
 * The library's own settings from check results (docs/libvar.md, "tune"): where a library variant
 * wins a cell (mg_ck_kinds: significantly faster than the default, and no mock-up beats it) by at
 * least the tuner's gain over its whole interval, `tune` writes the library's setting beside the
 * mpiguide profile:
 * - Open MPI: a coll/tuned dynamic rules file (the classic format read through
 *   coll_tuned_dynamic_rules_filename, Open MPI 4.1 coll_tuned_dynamic_file.c): per collective id
 *   (COLLTYPE of coll_base_functions.h), per communicator size (the rule of the largest size <= the
 *   communicator's applies) and per message size (bytes = count x size(datatype), the rule of the
 *   largest size <= the call's), the algorithm number, fan-in/out and segment size (0: its default);
 *   algorithm 0 keeps the library's own decision;
 * - MPICH: MPIR_CVAR_<COLL>_INTRA_ALGORITHM for a collective whose variant won at every measured size
 *   (a CVAR has no size range), with MPIR_CVAR_<COLL>_DEVICE_COLLECTIVE=0 (an env file).
 * The range rule is the tuner's: a measured size, extended to the next measured size only when that
 * one chose the same variant. Reads verdict structs only; no MPI.
 */
#ifndef MG_TUNER_LIBSET_H
#define MG_TUNER_LIBSET_H

#include <stddef.h>
#include <stdio.h>

#include "bench/libvar_mpit.h"
#include "check/check.h"

typedef struct mg_libset_rule {
  mg_coll coll;
  int nprocs;
  size_t lo, hi;            /* bytes, both measured sizes, inclusive */
  char name[MG_LV_NAME];    /* the variant, without "lib:" */
  int value;                /* the library's number for it (#@lib_variant_values); -1 unknown */
  int fanout, segsize;      /* Open MPI: what it was measured with (#@lib_variant_params; 0 0 unknown) */
  double ratio, ratio_lo;   /* the smallest over the range: median(default) / median(variant) and its lower end */
  int every_size;           /* the range covers every size measured for coll at nprocs */
} mg_libset_rule;

typedef struct mg_libset {
  mg_lv_kind kind;          /* of the launches (#@lib_variants_source) */
  mg_libset_rule *v;
  int n, cap;
} mg_libset;

/* The rules for process count nprocs from r (its kinds) and d (the launches' #@ lines): appended to
 * s. Returns the number added, or -1 with a message (out of memory, launches of different libraries). */
int mg_libset_decide(const mg_ck_data *d, const mg_ck_result *r, int nprocs, double min_gain, mg_libset *s,
                     char *err, size_t errlen);
void mg_libset_free(mg_libset *s);

/* Open MPI's rules file of s (collectives coll/tuned sizes like mpiguide; others are left out, each
 * named in a comment and in *skipped). */
void mg_libset_write_ompi(FILE *f, const mg_libset *s, const char *preamble, int *skipped);
/* MPICH's environment settings, NAME=VALUE lines (rules that do not cover every measured size are
 * left out, named in a comment and counted in *skipped). */
void mg_libset_write_mpich(FILE *f, const mg_libset *s, const char *preamble, int *skipped);
/* The comment line each written rule carries (both files), and its reader: 0, or -1 when line is
 * not one. */
#define MG_LIBSET_RULE_TAG "#@rule"
int mg_libset_parse_rule(const char *line, mg_libset_rule *ru);
/* Open MPI's COLLTYPE id of coll (coll_base_functions.h), or -1 when the file cannot express it. */
int mg_libset_ompi_id(mg_coll coll);

#endif
