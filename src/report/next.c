/*
 * The report's last section, "What to do next" (docs/report.md): the commands
 * that follow from the verdicts of each run, with its own directories and
 * process count filled in. When noise dominates a run, re-measuring comes
 * first; violations get the tune, verify and run commands; inconclusive sizes
 * get the check that would decide them (replicated, the sizes named); a
 * single launch gets the advice to replicate. The commands launch as the run was launched
 * (#@launcher of its raw.csv): `srun -n N` for a Slurm step, `mpiexec -n N` for MPICH's Hydra,
 * else `mpirun -np N`.
 */
#include <stdio.h>
#include <string.h>

#include "report/html.h"

/* The directory a launch was read from (its raw.csv's directory, or the source itself). */
static void source_dir(const mg_ck_launch *L, char *out, size_t len) {
  const char *s = L->source ? L->source : ".";
  const char *sl = strrchr(s, '/');
  size_t n = strlen(s);
  if (n >= 8 && !strcmp(s + n - 8, "/raw.csv")) n -= 8;
  else if (!strcmp(s, "raw.csv")) s = ".", n = 1;
  else if (sl && strstr(sl, ".dat")) n = (size_t)(sl - s);
  snprintf(out, len, "%.*s", (int)n, s);
}

static void code(FILE *f, const char *s) {
  fputs("<pre><code>", f);
  mg_html(f, "%s", s);
  fputs("</code></pre>\n", f);
}

/* The launch command of N ranks as the run's launch recorded it (#@launcher, bench/meta.c: "srun",
 * "srun --mpi=pmix", "mpiexec (Hydra)", "mpirun", ...), into out; mpirun when unknown. */
static void launch_cmd(const mg_ck_launch *L, int np, char *out, size_t len) {
  const char *ln = mg_ck_meta_get(&L->meta, "launcher");
  if (!ln) ln = "";
  const char *mpi = strstr(ln, "--mpi="); /* srun's plugin, a word of its own: kept, bounded */
  size_t m = mpi ? strcspn(mpi, " \t") : 0;
  if (!strncmp(ln, "srun", 4) && (!ln[4] || ln[4] == ' '))
    snprintf(out, len, "srun%s%.*s -n %d", m ? " " : "", (int)(m < 64 ? m : 64), mpi ? mpi : "", np);
  else if (!strncmp(ln, "mpiexec", 7)) snprintf(out, len, "mpiexec -n %d", np);
  else snprintf(out, len, "mpirun -np %d", np);
}

/* The inconclusive sizes of coll in r, as a --sizes list; 0 when none. */
static int inconclusive_sizes(const mg_ck_result *r, int coll, char *out, size_t len) {
  int n = 0;
  size_t u = 0, last = 0;
  out[0] = '\0';
  for (int i = 0; i < r->n; i++) {
    const mg_ck_verdict *v = &r->v[i];
    if ((int)v->coll != coll || v->aa || v->status != MG_CKV_OK || v->outcome != MG_CK_INCONCLUSIVE) continue;
    if (n && v->bytes == last) continue;
    if (u + 24 < len) u += (size_t)snprintf(out + u, len - u, "%s%zu", n ? "," : "", v->bytes);
    last = v->bytes;
    n++;
  }
  return n;
}

static void run_next(FILE *f, const mg_rp_run *run) {
  mg_ck_summary s;
  mg_ck_summarize(run->r, &s);
  int np = run->d->launches[0].nprocs;
  char dirs[1024] = "", dir[512], cmd[2048], ln[128];
  launch_cmd(&run->d->launches[0], np, ln, sizeof ln);
  for (int l = 0; l < run->d->nlaunches && strlen(dirs) + 520 < sizeof dirs; l++) {
    source_dir(&run->d->launches[l], dir, sizeof dir);
    if (!strstr(dirs, dir)) snprintf(dirs + strlen(dirs), sizeof dirs - strlen(dirs), "%s%s", *dirs ? " " : "", dir);
  }
  fputs("<ol class=\"next\">\n", f);
  if (s.noise_dominated) {
    snprintf(cmd, sizeof cmd, "mpiguide check --launches 3 -o recheck -- %s", ln);
    fputs("<li><b>Measure again first:</b> noise dominates this run, so its verdicts tell nothing. Use an idle "
          "node with at most one rank per core, replicated:", f);
    code(f, cmd);
    fputs("</li>\n", f);
  }
  if (s.total.violations && !s.noise_dominated) {
    fputs("<li><b>Repair the violations</b> with a tuning profile (conclusive violations only; docs/tune.md):", f);
    snprintf(cmd, sizeof cmd, "mpiguide tune %s -o tuned.prof", dirs);
    code(f, cmd);
    fputs("then <b>prove the gain</b> on this machine:", f);
    snprintf(cmd, sizeof cmd, "%s mpiguide verify --profile tuned.prof -o verify", ln);
    code(f, cmd);
    fputs("and run the application with it (the full library path: <code>mpiguide env</code>):", f);
    snprintf(cmd, sizeof cmd, "LD_PRELOAD=$(mpiguide env --lib) MPIGUIDE_PROFILE=tuned.prof %s ./app", ln);
    code(f, cmd);
    fputs("</li>\n", f);
  }
  if (s.total.inconclusive && !s.noise_dominated) {
    fputs("<li><b>Decide the inconclusive sizes</b> by measuring them again, replicated over launches (more "
          "repetitions, on a quieter node):\n", f);
    for (int c = 0; c < MG_NCOLL; c++) {
      char sizes[512];
      if (!inconclusive_sizes(run->r, c, sizes, sizeof sizes)) continue;
      snprintf(cmd, sizeof cmd, "mpiguide check --launches 3 -c %s --sizes %s -o recheck-%s -- %s",
               mg_colls[c].name, sizes, mg_colls[c].name, ln);
      code(f, cmd);
    }
    fputs("</li>\n", f);
  }
  if (run->d->nlaunches == 1 && !s.noise_dominated)
    fputs("<li>These verdicts come from <b>one launch</b>: launch-to-launch variation is not covered. Replicate "
          "before acting on a small effect: <code>mpiguide check --launches N</code> (docs/check.md).</li>\n", f);
  if (!s.total.violations && !s.total.inconclusive && !s.noise_dominated)
    fputs("<li>Nothing to repair: every comparison is consistent. Check again after a change of the MPI "
          "library, its version or the node layout.</li>\n", f);
  fputs("</ol>\n", f);
}

void mg_rp_next(FILE *f, const mg_rp_run *runs, int nruns) {
  fputs("<h2 id=\"next\">What to do next</h2>\n", f);
  for (int ri = 0; ri < nruns; ri++) {
    if (nruns > 1) {
      fputs("<h3>", f);
      mg_rp_run_title(f, &runs[ri], nruns);
      fputs("</h3>\n", f);
    }
    run_next(f, &runs[ri]);
  }
}
