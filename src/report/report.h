/*
 * mgreport: the HTML report of one or more check results (docs/report.md).
 * One self-contained page: inline CSS and SVG, no scripts, no fonts, no
 * external references. Everything is generated from the verdicts by code;
 * every collective goes through the same plot function.
 *
 * Axis mapping of the per-collective plots (the tests' golden values come
 * from it; SVG user units, viewBox 0 0 MG_RP_W MG_RP_H):
 *   plot area x in [MG_RP_X0, MG_RP_X0 + MG_RP_PW], y in [MG_RP_Y0, MG_RP_Y0 + MG_RP_PH];
 *   x(bytes) = X0 + PAD + (log2 bytes - log2 smin) / (log2 smax - log2 smin) * (PW - 2 PAD),
 *     smin/smax: smallest/largest size with a comparison of the collective;
 *   y(r) = Y0 + PH * (log2 ymax - log2 r) / (log2 ymax - log2 ymin),  r = median(mock-up) /
 *     median(default) (1 = the default, < 1: the mock-up is faster: the violation region),
 *     ymin = min(1/2, 2^floor(log2 rmin)), ymax = max(2, 2^ceil(log2 rmax)) over the plotted r
 *     (with the cost model's predictions, check --loggp: their ratios too).
 */
#ifndef MG_REPORT_REPORT_H
#define MG_REPORT_REPORT_H

#include <stddef.h>
#include <stdio.h>

#include "check/check.h"

#define MG_RP_W 600
#define MG_RP_H 320
#define MG_RP_X0 64
#define MG_RP_Y0 16
#define MG_RP_PW 520
#define MG_RP_PH 252
#define MG_RP_PAD 10

/* A prediction of the cost model next to a measured cell (DIR/predicted.csv of `check --loggp`,
 * docs/model.md): the mock-up's predicted time over the default's at the same size, which the
 * plots mark beside the measured ratio. */
typedef struct mg_rp_pred {
  int coll, nprocs;
  char alg[64];
  size_t bytes;
  double ratio;
} mg_rp_pred;

typedef struct mg_rp_preds {
  mg_rp_pred *v;
  int n;
} mg_rp_preds;

/* The predictions of the mock-ups in a predicted.csv (rows without the default's prediction at
 * their cell are left out). A missing file: 0 and none. 0, or -1 with "FILE:LINE: what". */
int mg_rp_preds_read(const char *path, mg_rp_preds *p, char *err, size_t errlen);
void mg_rp_preds_free(mg_rp_preds *p);

/* One analysed run: the launches of one configuration (MPI library and version, process count,
 * layout; mg_ck_config_diff). The page fills label and anchor itself (callers leave them zero). */
typedef struct mg_rp_run {
  const mg_ck_data *d;
  const mg_ck_result *r;
  const mg_rp_preds *pred; /* the cost model's predictions (NULL: none) */
  char label[160]; /* "4 procs", with library and layout where the page's runs differ in them */
  char anchor[24]; /* the ids' suffix: the process count, with the run's number when it repeats */
} mg_rp_run;

/* The axis mapping above. */
double mg_rp_xmap(size_t bytes, size_t smin, size_t smax);
double mg_rp_ymap(double r, double ymin, double ymax);
/* ymin/ymax for the plotted ratios rmin..rmax. */
void mg_rp_yrange(double rmin, double rmax, double *ymin, double *ymax);

/* The latency plots (latency.c; operations with split rows): the same x mapping; y of a median
 * latency t in seconds, log10: y(t) = Y0 + PH * (log10 ymax - log10 t) / (log10 ymax - log10 ymin),
 * ymin = 10^floor(log10 tmin), ymax = 10^ceil(log10 tmax) over the plotted medians (at least one
 * decade); the ticks are powers of ten, labelled in µs, ms or s (mg_fmt_seconds). */
double mg_rp_lat_ymap(double sec, double ymin, double ymax);
void mg_rp_lat_yrange(double tmin, double tmax, double *ymin, double *ymax);

/* Write the page to f. 0, or -1 (out of memory / write error). */
int mg_rp_write(FILE *f, const mg_rp_run *runs, int nruns);

/* Write the page to path under a temporary name (path.partial.XXXXXX), renamed when complete.
 * 0, or -1 with a message. */
int mg_rp_write_file(const char *path, const mg_rp_run *runs, int nruns, char *err, size_t errlen);

/*
 * Default vs tuned (issue 6, the HPC Asia 2018 paper's Figure 4): shown when a verify result is
 * given (verify.csv of `mpiguide verify -o DIR`, docs/tune.md). Per collective a plot of
 * median(tuned) / median(default) with its 95 % interval over message size, with the axis mapping
 * above (smin/smax: smallest/largest size with a finite ratio of the collective; rmin/rmax over the
 * plotted ratios and their interval bounds), and a table of the rows. Emitted by mg_rp_write_ex
 * between the relative-runtime plots and the grouped violations (docs/report.md).
 */
typedef struct mg_rp_vrow {
  char coll[48];
  int nprocs;
  size_t bytes;
  int in_profile;
  char tuned[96];
  double med_def, med_tuned, ratio, lo, hi, p; /* seconds; NaN where verify had no value */
  char verdict[16];
  char outcome[16]; /* "" when the file has no outcome column or the cell no comparison */
  char still[512];
  char red[64];     /* the reduction pair measured ("MPI_DOUBLE:MPI_SUM"); "" otherwise or older files */
  int line; /* in the file */
} mg_rp_vrow;

/* verify.csv's columns, in file order: `mpiguide verify` writes them, mg_rp_verify_read finds them
 * by name. outcome (the check's verdict on the default against tuned: violation, consistent,
 * inconclusive; empty without a comparison) may be missing: files of verify before issue 11; so may
 * reduction (the datatype and op a reduction was verified with): files before profile format 2. */
#define MG_VERIFY_COLUMNS(X)                                                                        \
  X(COLL, "collective") X(NP, "nprocs") X(BYTES, "bytes") X(INPROF, "in_profile") X(TUNED, "tuned") \
  X(MD, "median_default_sec") X(MT, "median_tuned_sec") X(RATIO, "ratio") X(LO, "ratio_lo")         \
  X(HI, "ratio_hi") X(P, "p_holm") X(VERDICT, "verdict") X(OUTCOME, "outcome") X(STILL, "still_faster")         \
  X(RED, "reduction")

typedef enum {
#define MG_X(E, name) MG_VC_##E,
  MG_VERIFY_COLUMNS(MG_X)
#undef MG_X
      MG_VC_N
} mg_rp_vcol;

extern const char *const mg_rp_vcol_names[MG_VC_N];

typedef struct mg_rp_verify {
  char path[1024];
  char profile[512]; /* #@profile */
  int nprocs;        /* #@nprocs (else the first row's) */
  double alpha;      /* #@alpha, NaN when absent */
  int has_format;
  mg_rp_vrow *rows;
  int n;
  mg_ck_meta raw_meta; /* the #@ lines of the raw.csv next to verify.csv (none when it is missing) */
} mg_rp_verify;

/* Read a verify.csv. 0, or -1 with "FILE:LINE: what is wrong" in err (v then holds nothing). */
int mg_rp_verify_read(const char *path, mg_rp_verify *v, char *err, size_t errlen);
void mg_rp_verify_free(mg_rp_verify *v);

/* mg_rp_write / mg_rp_write_file with verify results (nver of them; nruns may then be 0: a page of
 * verify results alone, whose check sections say that there is no check data). */
int mg_rp_write_ex(FILE *f, const mg_rp_run *runs, int nruns, const mg_rp_verify *ver, int nver);
int mg_rp_write_file_ex(const char *path, const mg_rp_run *runs, int nruns, const mg_rp_verify *ver, int nver,
                        char *err, size_t errlen);

#endif
