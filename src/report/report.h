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
 *     ymin = min(1/2, 2^floor(log2 rmin)), ymax = max(2, 2^ceil(log2 rmax)) over the plotted r.
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

/* One analysed run (the launches of one process count). */
typedef struct mg_rp_run {
  const mg_ck_data *d;
  const mg_ck_result *r;
} mg_rp_run;

/* The axis mapping above. */
double mg_rp_xmap(size_t bytes, size_t smin, size_t smax);
double mg_rp_ymap(double r, double ymin, double ymax);
/* ymin/ymax for the plotted ratios rmin..rmax. */
void mg_rp_yrange(double rmin, double rmax, double *ymin, double *ymax);

/* Write the page to f. 0, or -1 (out of memory / write error). */
int mg_rp_write(FILE *f, const mg_rp_run *runs, int nruns);

/* Write the page to path under a temporary name (path.partial.XXXXXX), renamed when complete.
 * 0, or -1 with a message. */
int mg_rp_write_file(const char *path, const mg_rp_run *runs, int nruns, char *err, size_t errlen);

/*
 * Default vs tuned (issue 6): shown only when a verify result is present. No verify result
 * format exists yet (the tuning issue defines it), so mg_rp_write emits no such section; the
 * place for it is marked "default vs tuned" in report.c.
 */

#endif
