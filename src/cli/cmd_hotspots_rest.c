/* The whole MPI time of a format-4 trace (cmd_hotspots_rest.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_hotspots_rest.h"
#include "cli/cmd_hotspots_sites.h"
#include "util/fmt.h"

static void fmt_share(double x, double of, char *buf, size_t len) {
  if (isnan(x) || !(of > 0))
    snprintf(buf, len, "-");
  else
    snprintf(buf, len, "%.1f%%", 100 * x / of);
}

/* The coverage line (a timed trace): the whole MPI time the trace saw, and what is in it. A
 * trace of format 4 times every MPI function (docs/trace.md, "Every MPI call"); an older one only
 * the operations mpiguide tunes, which the line says, so that "no rule, no gain" never hides
 * where the time went. */
void mg_hs_print_coverage(const mg_hs_trace *t, FILE *o) {
  if (t->version < 4) {
    fprintf(o, "coverage: this trace (format %d) timed only the operations mpiguide tunes; the time in every other MPI "
               "call (MPI_Wait*, MPI_Test*, communicators, one-sided, I/O, ...) is not in it: record it again with "
               "this version to see all of it\n", t->version);
    return;
  }
  double all = t->all_time;
  char wall[48] = "";
  if (t->wall > 0) snprintf(wall, sizeof wall, " = %.1f %% of the wall time", 100 * all / t->wall);
  fprintf(o, "MPI time: %.6f s per rank%s: operations mpiguide checks and tunes %.1f %%, completions %.1f %%", all,
          wall, all > 0 ? 100 * t->class_time[MG_HS_CLASS_tuned] / all : 0.0,
          all > 0 ? 100 * t->class_time[MG_HS_CLASS_completion] / all : 0.0);
  double rest = all - t->class_time[MG_HS_CLASS_tuned] - t->class_time[MG_HS_CLASS_completion];
  fprintf(o, ", elsewhere %.1f %%", all > 0 ? 100 * (rest > 0 ? rest : 0) / all : 0.0);
  const char *sep = " (";
  for (int c = 0; c < MG_HS_NCLASS; c++) {
    if (c == MG_HS_CLASS_tuned || c == MG_HS_CLASS_completion || !(t->class_time[c] > 0) ||
        100 * t->class_time[c] / all < 0.05)
      continue;
    fprintf(o, "%s%s %.1f %%", sep, mg_hs_class_names[c], 100 * t->class_time[c] / all);
    sep = ", ";
  }
  fprintf(o, "%s\n", sep[0] == ',' ? ")" : "");
  if (all > 0 && t->class_time[MG_HS_CLASS_tuned] < 0.5 * all)
    fprintf(o, "note: most of the MPI time is outside the operations mpiguide checks and tunes: the hot spots below "
               "cover those only; where the rest went follows them\n");
}

/* Where the rest of the MPI time went (a format-4 trace): the other MPI functions' rows, the
 * largest first, as many as cover P % of that time (at most N), a completion's share named by the
 * post it completes: "completes MPI_Irecv posted at main halo.c:76". */
void mg_hs_print_others(const mg_hs_trace *t, double pct, long nmax, int wide, FILE *o) {
  int m = t->nothers;
  double rest = t->all_time - t->mpi_time;
  if (!t->timed || t->version < 4 || m == 0) return;
  /* the sites and post sites as spots, for resolve_sites: 2i the call, 2i + 1 its post */
  mg_hs_spot *sp = calloc((size_t)2 * m, sizeof *sp);
  mg_hs_site *nm = calloc((size_t)2 * m, sizeof *nm);
  mg_hs_label *lb = calloc((size_t)2 * m, sizeof *lb);
  double *time = malloc((size_t)m * sizeof *time);
  int *order = malloc((size_t)m * sizeof *order);
  if (!sp || !nm || !lb || !time || !order) {
    fprintf(stderr, "mpiguide hotspots: out of memory: the rest of the MPI time is not listed\n");
    goto out;
  }
  for (int i = 0; i < m; i++) {
    const mg_hs_other *x = &t->others[i];
    sp[2 * i].obj = x->obj;
    sp[2 * i].offset = x->offset;
    snprintf(sp[2 * i].sym, sizeof sp[2 * i].sym, "%s", x->sym);
    sp[2 * i + 1].obj = x->post_obj;
    sp[2 * i + 1].offset = x->post_offset;
    snprintf(sp[2 * i + 1].sym, sizeof sp[2 * i + 1].sym, "%s", x->post_sym);
    time[i] = x->time;
  }
  mg_hs_trace view = *t;
  view.spots = sp;
  view.n = 2 * m;
  int missing = 0, reached = 0;
  mg_hs_resolve(&view, nm, &missing);
  for (int i = 0; i < 2 * m; i++) mg_hs_label_of(&view, &sp[i], &nm[i], wide, &lb[i]);
  mg_hs_labels_apart(lb, 2 * m);
  int k = mg_hs_select(time, m, rest, pct, (int)nmax, order, &reached);
  double cov = 0;
  for (int j = 0; j < k; j++) cov += time[order[j]];
  fprintf(o, "\nthe rest of the MPI time, %.6f s per rank: %d row%s cover %.1f %% of it (P = %g %%, N = %ld)%s\n",
          rest > 0 ? rest : 0, k, k == 1 ? "" : "s", rest > 0 ? 100 * cov / rest : 0.0, pct, nmax,
          reached ? "" : ": the N cap stopped it before P");
  fprintf(o, "%3s  %-34s %-22s %5s %7s %9s %10s %6s  %s\n", "#", "site", "function", "np", "size", "calls", "time_s",
          "share", "completes (posted at)");
  for (int j = 0; j < k; j++) {
    int i = order[j];
    const mg_hs_other *x = &t->others[i];
    char post[600] = "", sz[32], share[16];
    const char *site = lb[2 * i].text;
    if (x->post_fn[0]) {
      snprintf(post, sizeof post, "%.47s posted at %s", x->post_fn, lb[2 * i + 1].text);
    } else if (x->cls == MG_HS_CLASS_completion) {
      snprintf(post, sizeof post, "(no active request, or posted where the trace did not see)");
    }
    mg_fmt_bytes(x->bytes, MG_BYTES_EXACT, sz, sizeof sz);
    fmt_share(x->time, t->all_time, share, sizeof share);
    char np[16] = "-";
    if (x->nprocs > 0) snprintf(np, sizeof np, "%d", x->nprocs);
    fprintf(o, "%3d  %-34s %-22s %5s %7s %9ld %10.6f %6s  %s\n", j + 1, site, x->fn, np, x->bytes ? sz : "-", x->calls,
            x->time, share, post);
  }
  fprintf(o, "(share: of all the MPI time; a completion's time is split equally among the active requests it was "
             "given, docs/trace.md)\n");
out:
  free(sp);
  free(nm);
  free(lb);
  free(time);
  free(order);
}

