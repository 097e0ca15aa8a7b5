/*
 * The LogGP parameter file of `mpiguide loggp` (format in docs/loggp.md, version 2; version 1 read too): what it holds
 * and its reader. Here, below the registry, so that libmpiguide's online tuning (MPIGUIDE_LOGGP,
 * src/lib/online.c) reads the file that the cost models (src/model) read; libc and util only. The
 * writer and the fit that fills the file are src/model/loggp_file.h.
 */
#ifndef MG_LOGGP_FILE_H
#define MG_LOGGP_FILE_H

#include <stddef.h>

#include "loggp/loggp.h"

#define MG_LOGGP_MAGIC "mpiguide-loggp"
/* The version written. Version 2 records the fit's warnings ('warning' lines of a class); the
 * reader takes versions MG_LOGGP_VERSION_MIN (1, whose warnings were comments) to MG_LOGGP_VERSION. */
#define MG_LOGGP_VERSION 2
#define MG_LOGGP_VERSION_MIN 1

/* The columns of a class's table, in file order: name, description (the file's comment lines
 * and docs/loggp.md say the same). Times in seconds, residuals relative. */
#define MG_LOGGP_COLUMNS(X)                                                                       \
  X(SIZE, "size", "message size s, bytes")                                                        \
  X(PRTT1, "prtt1", "PRTT(1,0,s): one message and the reply (median)")                           \
  X(PRTTN, "prttn", "PRTT(n,0,s): n messages back to back, then the reply (median)")             \
  X(DELAY, "d", "the delay after each message of PRTT(n,d,s)")                                    \
  X(PRTTD, "prttd", "PRTT(n,d,s): n messages d apart, then the reply (median)")                  \
  X(OR, "o_r", "receive overhead: a receive of an arrived message, timed at the receiver (median)") \
  X(NOISE, "noise", "the largest relative standard error of the median of the four series at this size") \
  X(OS, "o_s", "send overhead: (prttd - prtt1)/(n-1) - d")                                        \
  X(GAP, "gap", "g + (s-1)G at this size: (prttn - prtt1)/(n-1)")                                 \
  X(MODEL1, "model1", "PRTT(1,0,s) of the model: 2 (o_s + L + gap(s) - gap(s0) + o_r)")          \
  X(MODELN, "modeln", "PRTT(n,0,s) of the model: model1 + (n-1)(g + (s-1)G)")                    \
  X(MODELD, "modeld", "PRTT(n,d,s) of the model: model1 + (n-1)(o_s + d)")                       \
  X(RES1, "res1", "relative residual (model1 - prtt1) / prtt1")                                   \
  X(RESN, "resn", "relative residual (modeln - prttn) / prttn")                                   \
  X(RESD, "resd", "relative residual (modeld - prttd) / prttd")

#define MG_LC_ENUM(E, name, desc) MG_LC_##E,
typedef enum { MG_LOGGP_COLUMNS(MG_LC_ENUM) MG_LOGGP_NCOLS } mg_loggp_col;

extern const char *const mg_loggp_col_names[MG_LOGGP_NCOLS];
extern const char *const mg_loggp_col_descs[MG_LOGGP_NCOLS];

#define MG_LOGGP_MAXWARN 16
/* A size whose noise column exceeds this is reported as noisy. */
#define MG_LOGGP_NOISY 0.05

/* One pair class (two processes on one node, or on two nodes): what was measured and its fit. */
typedef struct mg_loggp_class {
  int a, b;             /* the ranks of the pair measured (a sends the n messages) */
  int n;                /* messages of PRTT(n,0,s) and PRTT(n,d,s) */
  int npts;             /* sizes, ascending */
  double col[MG_LOGGP_NCOLS][MG_LOGGP_MAXPTS];
  mg_loggp m;           /* the parameters (m.size, m.os, m.orecv, m.gap: the columns) */
  /* fit quality */
  double r2[3];         /* R^2 of model1, modeln, modeld against prtt1, prttn, prttd over all sizes */
  double r2_gap;        /* R^2 of the line g + (s-1)G over the sizes G is fitted to */
  int gfit_from;        /* index of the first size of that fit */
  double maxres;        /* largest |residual| of the three PRTT series */
  int nwarn;            /* the fit's warnings (mg_loggp_fit); read from a version-2 file's 'warning' lines, */
  char warn[MG_LOGGP_MAXWARN][256]; /* none from a version-1 file (mg_loggp_file.version says which) */
} mg_loggp_class;

typedef struct mg_loggp_file {
  int version;           /* the file's format version (read); 1: its warnings were not recorded */
  char mpi_library[8192]; /* MPI_Get_library_version, on one line (MPICH allows 8192 bytes) */
  char mpi_name[32];     /* "Open MPI", "MPICH", ... */
  int p, nodes, rpn_min, rpn_max;
  int cores;             /* processors of the smallest node (sysconf); 0 unknown (files without the line) */
  double handoff;        /* the handoff (loggp.h): measured where a node runs more ranks than processors;
                            0: not measured (files without the line) */
  double ring_all, ring_two; /* the rounds it was measured from (a comment in the file; not read) */
  double copy, reduce;   /* local per-byte costs: memcpy, MPI_Reduce_local(MPI_SUM, MPI_DOUBLE) */
  double tolerance;      /* the residual above which a size is reported (warnings) */
  int has[2];            /* has[0]: an intra-node class, has[1]: an inter-node one */
  mg_loggp_class cls[2]; /* [0] intra-node, [1] inter-node */
} mg_loggp_file;

/* The names of the pair classes in the file: [0] "intra", [1] "inter". */
extern const char *const mg_loggp_class_names[2];

/* The whole file into lf, checked (numbers, sizes ascending, every key there). 0, or -1 with
 * "path:line: what is wrong" in err. */
int mg_loggp_read_file(const char *path, mg_loggp_file *lf, char *err, size_t errlen);

/* The class the cost models use: the inter-node one when the file has it, else the intra-node one. */
const mg_loggp_class *mg_loggp_file_class(const mg_loggp_file *lf);

/* The parameters the cost models use from a file: the inter-node class when the job had several
 * nodes, else the intra-node one, with copy and reduce. 0, or -1 with "path:line: ..." in err. */
int mg_loggp_read(const char *path, mg_loggp *m, char *err, size_t errlen);

#endif
