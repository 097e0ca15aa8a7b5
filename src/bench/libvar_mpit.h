/*
 * The MPI library's own algorithms as contenders (docs/libvar.md): the algorithm variants a
 * library offers for a collective, found in the running library through MPI_T or in recorded
 * `ompi_info` output, chosen with `--lib-variants`, and switched inside one launch so that the
 * engine measures them interleaved with the default and the mock-ups.
 *
 * - Open MPI (coll/tuned): the control variable coll_tuned_<coll>_algorithm, an MPI_T enum
 *   ("0 ignore" is the library's own decision). coll/tuned copies the forced values into a
 *   communicator's module when the module is enabled (coll_tuned_module.c, 4.1), and only
 *   with coll_tuned_use_dynamic_rules=1 set at MPI_Init (not writable afterwards): a variant is a
 *   duplicate of the benchmark communicator made while the variable held its value.
 * - MPICH (4.x): MPIR_CVAR_<COLL>_INTRA_ALGORITHM, read at every call; its values have no MPI_T
 *   enum, they are listed in the variable's description in enum order ("auto" = 0). A variant
 *   writes the variable before its measurement and restores it after; with device collectives on
 *   (ch4's default) the device may bypass it, so MPIR_CVAR_<COLL>_DEVICE_COLLECTIVE is set to 0
 *   for the variant's measurement and restored as well (docs/libvar.md: measured on MPICH 4.0.2).
 *
 * Discovery and the spec parser call no MPI except mg_lv_discover; mg_lv_open/begin/end are
 * collective over the benchmark communicator (open) or local (begin/end).
 */
#ifndef MG_BENCH_LIBVAR_MPIT_H
#define MG_BENCH_LIBVAR_MPIT_H

#include <mpi.h>
#include <stddef.h>

#include "registry/registry.h"

#define MG_LV_MAX 16    /* variants of one collective */
#define MG_LV_NAME 48   /* a variant's name with its NUL */
#define MG_LV_PREFIX "lib:"
/* Series of a library variant k carry alg = MG_LV_ALG0 + k (never a registry index). */
#define MG_LV_ALG0 64

typedef enum { MG_LV_NONE, MG_LV_OMPI, MG_LV_MPICH } mg_lv_kind;

typedef struct mg_lv_alg {
  char name[MG_LV_NAME]; /* "ring"; the library's own spelling */
  int value;             /* the control variable's value that selects it */
} mg_lv_alg;

/* What a library offers: per collective its variants (the library's own default left out). */
typedef struct mg_lv_lib {
  mg_lv_kind kind;
  char source[32];                   /* "MPI_T", "ompi_info" */
  int n[MG_NCOLL];
  mg_lv_alg algs[MG_NCOLL][MG_LV_MAX];
  int cvar[MG_NCOLL];                /* MPI_T index of the algorithm variable; -1: none */
  int dev_cvar[MG_NCOLL];            /* MPICH: MPIR_CVAR_<COLL>_DEVICE_COLLECTIVE; -1: none */
  int dynamic_rules;                 /* Open MPI: coll_tuned_use_dynamic_rules (-1 unknown) */
  /* Open MPI: what a forced algorithm runs with, coll_tuned_<coll>_algorithm_chain_fanout and
   * _segmentsize (the fan-in/out and segment size a rules file must repeat); -1 unknown */
  int fanout[MG_NCOLL], segsize[MG_NCOLL];
} mg_lv_lib;

const char *mg_lv_kind_name(mg_lv_kind k); /* "none", "openmpi", "mpich" */

/* Parse `ompi_info --param coll tuned --level 9` output, the --parsable form
 * (mca:coll:tuned:param:coll_tuned_<coll>_algorithm:enumerator:value:<v>:<name>) or the human one
 * ("Valid values: 0:"ignore", 1:"basic_linear", ..."), into lib (kind MG_LV_OMPI). 0, or -1 with
 * a message when no algorithm variable is found. Calls no MPI. */
int mg_lv_parse_ompi_info(const char *text, mg_lv_lib *lib, char *err, size_t errlen);
/* The values listed in an MPICH algorithm variable's description (lines "name - what" run
 * together by MPI_T, e.g. "...algorithmauto - Internal ...nb   - Force nonblocking algorithmsmp
 * ..."), in enum order, into out[max]: their number (0: none found). */
int mg_lv_parse_mpich_desc(const char *desc, mg_lv_alg *out, int max);

/* The running library's variants through MPI_T (after MPI_Init; MPI_T stays initialised).
 * Kind MG_LV_NONE when the library offers no algorithm variable. 0, or -1 with a message. */
int mg_lv_discover(mg_lv_lib *lib, char *err, size_t errlen);

/* The library variants of the process, as discovered (NULL before mg_lv_discover set it):
 * labels of series are read from it. */
void mg_lv_set_library(const mg_lv_lib *lib);
const mg_lv_lib *mg_lv_library(void);
/* "lib:ring" for variant k of coll into a process-wide table (the library set above). */
const char *mg_lv_label(mg_coll coll, int k);

/* The variants chosen by a --lib-variants spec, and what the run made of them. */
typedef struct mg_lv_set {
  const mg_lv_lib *lib;
  unsigned mask[MG_NCOLL];           /* bit k: variant k of the collective */
  MPI_Comm comm[MG_NCOLL][MG_LV_MAX]; /* Open MPI: the duplicates (mg_lv_open) */
  int orig[MG_NCOLL], orig_dev[MG_NCOLL]; /* MPICH: values to restore */
} mg_lv_set;

/*
 * A spec into set->mask for the collectives colls[0..ncolls) (the ones measured):
 *   all                        every variant of every measured collective
 *   COLL=NAME,NAME;COLL=all    named variants ("lib:" prefix optional), collectives separated by ';'
 * 0, or -1 with a message naming the bad name and the valid ones.
 */
int mg_lv_select(const mg_lv_lib *lib, const char *spec, const mg_coll *colls, int ncolls, mg_lv_set *set,
                 char *err, size_t errlen);
/* "allreduce=ring,recursive_doubling;reduce=..." of the chosen set, for #@lib_variants. */
void mg_lv_describe(const mg_lv_set *set, char *buf, size_t len);
/* "allreduce:ring=4,recursive_doubling=3;bcast:..." (the control variable's value of each chosen
 * variant), for #@lib_variant_values: what `tune` writes into the library's own settings. */
void mg_lv_describe_values(const mg_lv_set *set, char *buf, size_t len);
/* The value of variant `name` ("lib:" prefix optional) of collective `coll` in such a text, or -1. */
int mg_lv_value_in(const char *text, const char *coll, const char *name);
/* "allreduce:4,0;bcast:4,0" (Open MPI: each chosen collective's forced fan-out and segment size), for
 * #@lib_variant_params; "" when unknown. And its reader: 0, or -1 (then *fanout = *segsize = 0). */
void mg_lv_describe_params(const mg_lv_set *set, char *buf, size_t len);
int mg_lv_params_in(const char *text, const char *coll, int *fanout, int *segsize);
/* Variants chosen for coll. */
static inline int mg_lv_count(const mg_lv_set *set, mg_coll c) {
  return set ? __builtin_popcount(set->mask[c]) : 0;
}

/* Before a run, collective over comm: Open MPI's duplicates. An MPI code. */
int mg_lv_open(mg_lv_set *set, MPI_Comm comm);
void mg_lv_close(mg_lv_set *set);
/* Around one measurement of variant k of c->coll: begin switches it on (Open MPI: c->comm := its
 * duplicate; MPICH: the variables written), end switches it off. MPI codes. */
int mg_lv_begin(mg_lv_set *set, mg_call *c, int k);
int mg_lv_end(mg_lv_set *set, mg_call *c, MPI_Comm comm);

/* Whether a series' algorithm index is a library variant. */
static inline int mg_lv_is(int alg) { return alg >= MG_LV_ALG0; }

#endif
