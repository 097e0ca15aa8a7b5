/*
 * Fuzz target `loggp`: the LogGP parameter file of `mpiguide loggp` (docs/loggp.md; its reader
 * src/loggp/loggp_read.c: mg_loggp_read_file, and mg_loggp_read, what the cost models and
 * MPIGUIDE_LOGGP read). Invariants: a refused file gives a message naming the file, and so does
 * mg_loggp_read; an accepted one has a process count, node counts and sizes in range (sizes
 * ascending, at most MG_LOGGP_MAXPTS), every number finite, mg_loggp_read agrees, and the
 * writer's text of it (src/model/loggp_io.c) reads back and writes the same text again.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "loggp/loggp_file.h"
#include "model/loggp_file.h"

static void check_file(const mg_loggp_file *lf, const char *what) {
  MG_FZ_CHECK(lf->p >= 1 && lf->nodes >= 1 && lf->nodes <= lf->p, "%s: %d processes on %d nodes", what, lf->p,
              lf->nodes);
  MG_FZ_CHECK(lf->rpn_min >= 1 && lf->rpn_min <= lf->rpn_max && lf->rpn_max <= lf->p, "%s: ranks per node %d-%d", what,
              lf->rpn_min, lf->rpn_max);
  MG_FZ_CHECK(lf->cores >= 0, "%s: %d cores", what, lf->cores);
  MG_FZ_CHECK(mg_fz_terminated(lf->mpi_library, sizeof lf->mpi_library) &&
                  mg_fz_terminated(lf->mpi_name, sizeof lf->mpi_name),
              "%s: a name is not terminated", what);
  double g[] = {lf->handoff, lf->copy, lf->reduce, lf->tolerance};
  for (size_t i = 0; i < sizeof g / sizeof *g; i++)
    MG_FZ_CHECK(isfinite(g[i]) && g[i] >= 0, "%s: handoff, copy, reduce or tolerance: %g", what, g[i]);
  MG_FZ_CHECK(lf->has[0] || lf->has[1], "%s: no pair class", what);
  for (int c = 0; c < 2; c++) {
    if (!lf->has[c]) continue;
    const mg_loggp_class *k = &lf->cls[c];
    MG_FZ_CHECK(k->npts >= 1 && k->npts <= MG_LOGGP_MAXPTS, "%s: class %d: %d sizes", what, c, k->npts);
    MG_FZ_CHECK(k->n >= 2 && k->a >= 0 && k->b >= 0 && k->a < lf->p && k->b < lf->p && k->a != k->b,
                "%s: class %d: pair %d %d of %d, %d messages", what, c, k->a, k->b, lf->p, k->n);
    MG_FZ_CHECK(k->nwarn >= 0 && k->nwarn <= MG_LOGGP_MAXWARN, "%s: class %d: %d warnings", what, c, k->nwarn);
    for (int j = 0; j < k->npts; j++) {
      for (int col = 0; col < MG_LOGGP_NCOLS; col++)
        MG_FZ_CHECK(isfinite(k->col[col][j]), "%s: class %d, size %d: %s = %g", what, c, j, mg_loggp_col_names[col],
                    k->col[col][j]);
      MG_FZ_CHECK(k->col[MG_LC_SIZE][j] >= 1 && (j == 0 || k->col[MG_LC_SIZE][j] > k->col[MG_LC_SIZE][j - 1]),
                  "%s: class %d: size %g after %g", what, c, k->col[MG_LC_SIZE][j], j ? k->col[MG_LC_SIZE][j - 1] : 0);
    }
    const mg_loggp *m = &k->m;
    MG_FZ_CHECK(isfinite(m->L) && isfinite(m->g) && isfinite(m->G) && m->npts == k->npts,
                "%s: class %d: L %g, g %g, G %g, %d sizes", what, c, m->L, m->g, m->G, m->npts);
    MG_FZ_CHECK(k->gfit_from >= 0 && k->gfit_from < k->npts, "%s: class %d: gfit_from %d of %d sizes", what, c,
                k->gfit_from, k->npts);
  }
}

/* The writer's text of lf (malloc'd, length in *n). */
static char *written(const mg_loggp_file *lf, size_t *n) {
  char *buf = NULL;
  FILE *f = open_memstream(&buf, n);
  MG_FZ_CHECK(f, "loggp: open_memstream");
  mg_loggp_write(f, lf, NULL);
  MG_FZ_CHECK(fclose(f) == 0 && buf, "loggp: the writer failed");
  return buf;
}

static void read_loggp(const char *path, mg_fz_read *r) {
  mg_loggp_file *lf = malloc(sizeof *lf), *again = malloc(sizeof *again);
  MG_FZ_CHECK(lf && again, "loggp: out of memory");
  mg_loggp m;
  char err2[1024] = "";
  r->err[0] = '\0';
  int rc = mg_loggp_read_file(path, lf, r->err, sizeof r->err), rc2 = mg_loggp_read(path, &m, err2, sizeof err2);
  MG_FZ_CHECK(rc == rc2, "loggp: mg_loggp_read_file says %d, mg_loggp_read %d", rc, rc2);
  if (rc) {
    mg_fz_check_error("loggp", path, r->err);
    r->ok = 0;
  } else {
    check_file(lf, "loggp");
    const mg_loggp *want = &lf->cls[lf->has[1] ? 1 : 0].m;
    MG_FZ_CHECK(!memcmp(&m, want, sizeof m), "loggp: mg_loggp_read returns other parameters than the file's");
    size_t n1, n2;
    char *t1 = written(lf, &n1), p2[4096];
    mg_fz_write("rewritten.txt", t1, n1, p2, sizeof p2);
    char e[1024];
    MG_FZ_CHECK(mg_loggp_read_file(p2, again, e, sizeof e) == 0, "loggp: the writer's text does not read: %s\n---\n%s",
                e, t1);
    check_file(again, "loggp: re-read");
    char *t2 = written(again, &n2);
    MG_FZ_CHECK(n1 == n2 && !memcmp(t1, t2, n1), "loggp: written, read and written again differs:\n---\n%s---\n%s", t1,
                t2);
    mg_fz_hash h;
    mg_fz_hash_init(&h);
    mg_fz_hash_bytes(&h, t1, n1);
    r->ok = 1;
    r->digest = h.h;
    free(t1);
    free(t2);
  }
  free(lf);
  free(again);
}

const mg_fz_reader mg_fz_loggp = {"loggp", "loggp.txt", "mg_loggp_read_file, mg_loggp_read (loggp_read.c)",
                                  read_loggp};
