/*
 * The LogGP parameter file (format in docs/loggp.md, version 2): the writer. The table's columns
 * come from MG_LOGGP_COLUMNS; the reader is src/loggp/loggp_read.c.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "model/loggp_file.h"
#include "util/err.h"
#include "util/parse.h"
#include "util/text.h"

/* ---------- writer ---------- */

static void write_class(FILE *f, const mg_loggp_class *c, int inter) {
  fprintf(f, "\n# %s\n", inter ? "two processes on two nodes" : "two processes on one node");
  fprintf(f, "class %s\n", mg_loggp_class_names[inter]);
  fprintf(f, "pair %d %d\n", c->a, c->b);
  fprintf(f, "messages %d\n", c->n);
  fprintf(f, "L %.9g\n", c->m.L);
  fprintf(f, "g %.9g\n", c->m.g);
  fprintf(f, "G %.9g\n", c->m.G);
  fprintf(f, "# R^2 of the model's prtt1, prttn, prttd over all sizes, and of the line g + (s-1)G over the\n"
             "# sizes G is fitted to (from the size of row gfit_from, counted from 0)\n");
  fprintf(f, "r2 %.6f %.6f %.6f %.6f\n", c->r2[0], c->r2[1], c->r2[2], c->r2_gap);
  fprintf(f, "gfit_from %d\n", c->gfit_from);
  fprintf(f, "max_residual %.6f\n", c->maxres);
  if (c->nwarn) fprintf(f, "# the fit's warnings (docs/loggp.md, Reading the fit), as mpiguide loggp printed them\n");
  for (int w = 0; w < c->nwarn; w++) { /* one line each: a line break would end the warning */
    fputs("warning ", f);
    for (const char *s = c->warn[w]; *s; s++) fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
    fputc('\n', f);
  }
  fprintf(f, "# columns (times in seconds):\n");
  for (int k = 0; k < MG_LOGGP_NCOLS; k++) fprintf(f, "#   %-7s %s\n", mg_loggp_col_names[k], mg_loggp_col_descs[k]);
  fputs("table", f);
  for (int k = 0; k < MG_LOGGP_NCOLS; k++) fprintf(f, " %s", mg_loggp_col_names[k]);
  fputc('\n', f);
  for (int i = 0; i < c->npts; i++) {
    fprintf(f, "%.0f", c->col[MG_LC_SIZE][i]);
    for (int k = 1; k < MG_LOGGP_NCOLS; k++) fprintf(f, " %.9g", c->col[k][i]);
    fputc('\n', f);
  }
  fputs("end\n", f);
}

int mg_loggp_write(FILE *f, const mg_loggp_file *lf, const char *command) {
  fprintf(f, "%s %d\n", MG_LOGGP_MAGIC, MG_LOGGP_VERSION);
  fprintf(f, "# LogGP parameters measured by mpiguide loggp (docs/loggp.md); times in seconds, sizes in bytes\n");
  if (command) fprintf(f, "# command: %s\n", command);
  fprintf(f, "mpi_name %s\n", lf->mpi_name);
  fprintf(f, "mpi_library ");
  for (const char *s = lf->mpi_library; *s; s++) fputc(*s == '\n' || *s == '\r' ? ' ' : *s, f);
  fputc('\n', f);
  fprintf(f, "p %d\n", lf->p);
  fprintf(f, "nodes %d\n", lf->nodes);
  fprintf(f, "# ranks per node: smallest, largest\n");
  fprintf(f, "ranks_per_node %d %d\n", lf->rpn_min, lf->rpn_max);
  if (lf->cores > 0) {
    fprintf(f, "# processors of the smallest node: more busy ranks than these take turns (docs/model.md)\n");
    fprintf(f, "cores %d\n", lf->cores);
  }
  if (lf->handoff > 0) {
    fprintf(f, "# a node runs more ranks than processors: a message whose receiver waits is this much later\n");
    fprintf(f, "# (a round of a 1-byte ring of all ranks less a round of two, the others asleep; docs/model.md):\n");
    if (lf->ring_all > 0) fprintf(f, "# rounds of %.3g us (all ranks) and %.3g us (two)\n", 1e6 * lf->ring_all, 1e6 * lf->ring_two);
    fprintf(f, "handoff %.9g\n", lf->handoff);
  }
  fprintf(f, "# local per-byte costs: memcpy; MPI_Reduce_local with MPI_SUM on MPI_DOUBLE\n");
  fprintf(f, "copy %.9g\n", lf->copy);
  fprintf(f, "reduce %.9g\n", lf->reduce);
  fprintf(f, "# residuals above this are reported as warnings\n");
  fprintf(f, "tolerance %.6g\n", lf->tolerance);
  if (!lf->has[0]) fprintf(f, "# no intra-node pair: every node ran one process\n");
  if (!lf->has[1]) fprintf(f, "# no inter-node pair: the job ran on one node\n");
  for (int c = 0; c < 2; c++)
    if (lf->has[c]) write_class(f, &lf->cls[c], c);
  fflush(f);
  return ferror(f) ? -1 : 0;
}

