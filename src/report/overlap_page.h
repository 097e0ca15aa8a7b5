/*
 * The overlap page (docs/report.md, "Overlap"): `mpiguide report --overlap FILE...` on the raw
 * files of `mpiguide bench --overlap` (src/bench/ovl.h). One self-contained HTML page like the
 * check report: per file (a launch: its MPI library, process count) and collective, a plot of
 * overlap % against message size — one line per MPI_Test count k, the best k ringed and named
 * at each size — and a table of t_pure, t_cpu, overlap at k = 0 and at the best k.
 *
 * Axis mapping (the tests' golden values come from it; viewBox 0 0 MG_RP_W MG_RP_H): x as the
 * check report's plots (report.h, mg_rp_xmap: log2 of the size between the smallest and the
 * largest size of the collective); y(o) = Y0 + PH (100 - o) / 100 for an overlap o in [0, 100].
 */
#ifndef MG_REPORT_OVERLAP_PAGE_H
#define MG_REPORT_OVERLAP_PAGE_H

#include <stddef.h>
#include <stdio.h>

#include "bench/ovl.h"

double mg_rp_ovl_ymap(double pct);
/* Write the page of n files. 0, or -1 (write error). */
int mg_rp_overlap_write(FILE *f, const mg_ovl_file *files, int n);
/* ... to path, under a temporary name renamed when complete. 0, or -1 with a message. */
int mg_rp_overlap_write_file(const char *path, const mg_ovl_file *files, int n, char *err, size_t errlen);

#endif
