/*
 * `mpiguide verify --lib-settings FILE -o DIR [--nrep N] -- LAUNCHER...`: does the library's own
 * setting that `tune` wrote (FILE.ompi-rules, FILE.mpich.env; docs/libvar.md) keep its promise?
 *
 * Open MPI reads a rules file at MPI_Init only, and with the file loaded coll/tuned consults it
 * before anything else, so the default cannot be measured in the same launch: this runs, without MPI
 * of its own, two launches of `mpiguide bench --alg default` at the rules' sizes, one after the
 * other (rooted collectives with the root rotating as in check's presets, --roots spread:4),
 * labelled in every output:
 *   launch 1 "default"          the library as it is (Open MPI: coll_tuned_use_dynamic_rules=1, no file)
 *   launch 2 "library setting"  the same with the file (Open MPI: coll_tuned_dynamic_rules_filename;
 *                               MPICH: the file's CVARs in the environment)
 * and compares them per (collective, size): ratio = median(default) / median(setting) with the
 * bootstrap interval; "faster" when the interval lies above 1, "slower" below, else "same". Two
 * launches compare launch-to-launch variation too (docs/statistics.md): say so, and repeat.
 * Output: DIR/default.csv, DIR/setting.csv (raw, bench format), DIR/libverify.csv, a table.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check/check.h"
#include "cli/cli.h"
#include "cli/cmd_opts.h"
#include "cli/cmd_util.h"
#include "stats/stats.h"
#include "tuner/libset.h"
#include "util/err.h"
#include "util/parse.h"
#include "util/text.h"

#define OPTIONS(X)                                                                                         \
  X(LIB, "lib-settings", 0, MG_OPT_ARG) X(OUT, "out", 'o', MG_OPT_ARG) X(NREP, "nrep", 'n', MG_OPT_ARG)       \
  X(QUIET, "quiet", 'q', MG_OPT_FLAG) X(HELP, "help", 'h', MG_OPT_FLAG)
enum { OPTIONS(MG_OPT_ENUM) O_N };
static const mg_opt opts[O_N] = {OPTIONS(MG_OPT_ROW)};

/* The columns of libverify.csv (docs/libvar.md). */
#define MG_LIBVERIFY_COLUMNS "collective,bytes,variant,n_default,n_setting,median_default_sec,median_setting_sec," \
                             "ratio,ratio_lo,ratio_hi,verdict"

#define MAXR 64

typedef struct lvstate {
  mg_libset_rule r[MAXR];
  int nr;
  int ompi;
  char *envs[MAXR]; /* MPICH: NAME=VALUE lines */
  int nenv;
  char abs[4096];
} lvstate;

static int read_settings(const char *path, lvstate *S, char *err, size_t errlen) {
  char e[1200];
  FILE *f = mg_open_text(path, "library setting", e, sizeof e);
  if (!f) return MG_ERR("--lib-settings: %s", e);
  char *line = NULL;
  size_t cap = 0;
  long got, lineno = 0;
  int first = 1, nl, rc = 0;
  while (!rc && (got = mg_read_line(f, &line, &cap, &nl)) >= 0) {
    lineno++;
    if (!nl) { /* a cut file would drop its last rule or setting unseen */
      rc = MG_ERR("%s:%ld: the last line has no line break: the file was cut short (truncated?)", path, lineno);
      break;
    }
    if (first) S->ompi = strstr(line, "Open MPI") != NULL, first = 0;
    if (!strncmp(line, MG_LIBSET_RULE_TAG, strlen(MG_LIBSET_RULE_TAG))) {
      if (S->nr == MAXR || mg_libset_parse_rule(line, &S->r[S->nr]))
        rc = MG_ERR("%s:%ld: not a rule line mpiguide tune writes", path, lineno);
      else
        S->nr++;
    } else if (!S->ompi && line[0] && line[0] != '#' && strchr(line, '=') && S->nenv < MAXR) {
      if (!(S->envs[S->nenv++] = strdup(line))) rc = MG_ERR("out of memory");
    }
  }
  if (!rc && got < -1) rc = MG_ERR("%s:%ld: %s", path, lineno + 1, mg_read_line_strerror(got));
  free(line);
  fclose(f);
  if (rc) {
    for (int i = 0; i < S->nenv; i++) free(S->envs[i]);
    S->nenv = S->nr = 0;
    return -1;
  }
  if (!S->nr) return MG_ERR("%s: no '#@rule' line: not a library setting written by mpiguide tune", path);
  if (!realpath(path, S->abs)) snprintf(S->abs, sizeof S->abs, "%s", path);
  return 0;
}

/* Launch `label`: LAUNCHER self bench ... -o DIR/<file>; 0 when it exited with 0. */
static int launch(char **launcher, int nl, const char *self, const lvstate *S, const char *dir, const char *file,
                  int setting, const char *nrep) {
  char colls[512] = "", sizes[2048] = "", out[4200], log[4300];
  size_t uc = 0, us = 0;
  int anyred = 0, anyroot = 0, all8 = 1;
  for (int i = 0; i < S->nr; i++) {
    const char *cn = mg_colls[S->r[i].coll].name;
    if (!strstr(colls, cn)) uc += (size_t)snprintf(colls + uc, sizeof colls - uc, "%s%s", uc ? "," : "", cn);
    anyred |= mg_colls[S->r[i].coll].reduction;
    anyroot |= mg_colls[S->r[i].coll].rooted;
    size_t b[2] = {S->r[i].lo, S->r[i].hi};
    for (int k = 0; k < 2; k++) {
      char t[32];
      snprintf(t, sizeof t, ",%zu,", b[k]);
      char probe[2100];
      snprintf(probe, sizeof probe, ",%s,", sizes);
      if (!strstr(probe, t)) us += (size_t)snprintf(sizes + us, sizeof sizes - us, "%s%zu", us ? "," : "", b[k]);
      all8 &= b[k] % 8 == 0;
    }
  }
  snprintf(out, sizeof out, "%s/%s", dir, file);
  snprintf(log, sizeof log, "%s/%s.log", dir, file);
  char *argv[64];
  int c = 0;
  for (int i = 0; i < nl && c < 40; i++) argv[c++] = launcher[i];
  argv[c++] = (char *)self, argv[c++] = "bench", argv[c++] = "--coll", argv[c++] = colls;
  argv[c++] = "--alg", argv[c++] = "default", argv[c++] = "--sizes", argv[c++] = sizes;
  argv[c++] = "--datatype", argv[c++] = all8 ? "MPI_DOUBLE" : "MPI_BYTE";
  if (anyred) argv[c++] = "--op", argv[c++] = all8 ? "MPI_SUM" : "MPI_BOR";
  if (anyroot) argv[c++] = "--roots", argv[c++] = "spread:4"; /* as check's presets: a rule holds at every root */
  argv[c++] = "--nrep", argv[c++] = (char *)nrep, argv[c++] = "--shuffle", argv[c++] = "-o", argv[c++] = out;
  argv[c++] = "-q";
  argv[c] = NULL;
  if (S->ompi) {
    setenv("OMPI_MCA_coll_tuned_use_dynamic_rules", "1", 1);
    if (setting) setenv("OMPI_MCA_coll_tuned_dynamic_rules_filename", S->abs, 1);
    else unsetenv("OMPI_MCA_coll_tuned_dynamic_rules_filename");
  }
  for (int i = 0; setting && i < S->nenv; i++) putenv(S->envs[i]);
  int rc = mg_cmd_run_child(argv, log);
  for (int i = 0; setting && i < S->nenv; i++) {
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(S->envs[i], "="), S->envs[i]);
    unsetenv(name);
  }
  if (rc != 0) fprintf(stderr, "mpiguide verify: launch '%s' failed (status %d); its output: %s\n", file, rc, log);
  return rc;
}

static int compare(const lvstate *S, const char *dir, int quiet) {
  char p1[4200], p2[4200], err[2048];
  snprintf(p1, sizeof p1, "%s/default.csv", dir);
  snprintf(p2, sizeof p2, "%s/setting.csv", dir);
  mg_ck_data a, b;
  mg_ck_data_init(&a), mg_ck_data_init(&b);
  if (mg_ck_read_csv(&a, p1, err, sizeof err) || mg_ck_read_csv(&b, p2, err, sizeof err)) {
    fprintf(stderr, "mpiguide verify: %s\n", err);
    return mg_ck_data_free(&a), mg_ck_data_free(&b), 1;
  }
  char path[4300];
  snprintf(path, sizeof path, "%s/libverify.csv", dir);
  FILE *f = fopen(path, "w");
  if (!f) return fprintf(stderr, "mpiguide verify: cannot write %s\n", path), mg_ck_data_free(&a), mg_ck_data_free(&b), 1;
  fprintf(f, "#@format=mpiguide-libverify/1\n#@lib_settings=%s\n#@launch_default=%s\n#@launch_setting=%s\n%s\n",
          S->abs, a.launches[0].meta.n ? mg_ck_meta_get(&a.launches[0].meta, "launch") : "",
          b.launches[0].meta.n ? mg_ck_meta_get(&b.launches[0].meta, "launch") : "", MG_LIBVERIFY_COLUMNS);
  if (!quiet)
    printf("library setting %s\nlaunch 1 = default (no setting), launch 2 = library setting; ratio = median(default) / "
           "median(setting), 95%% bootstrap interval\n%-12s %9s %-24s %12s %12s %24s  %s\n",
           S->abs, "collective", "bytes", "variant", "default[us]", "setting[us]", "ratio [interval]", "verdict");
  for (int i = 0; i < S->nr; i++)
    for (int k = 0; k < 2; k++) {
      size_t bytes = k ? S->r[i].hi : S->r[i].lo;
      if (k && S->r[i].hi == S->r[i].lo) continue;
      const mg_ck_series *x = mg_ck_find(&a, S->r[i].coll, "default", bytes, NULL, 0);
      const mg_ck_series *y = mg_ck_find(&b, S->r[i].coll, "default", bytes, NULL, 0);
      if (!x || !y || !x->n || !y->n) continue;
      mg_stats_slowdown_result sr;
      if (mg_stats_slowdown(x->rt, (size_t)x->n, y->rt, (size_t)y->n, 0.95, 1000, 1, &sr) != MG_STATS_OK) continue;
      double mx = NAN, my = NAN;
      mg_stats_median(x->rt, (size_t)x->n, &mx);
      mg_stats_median(y->rt, (size_t)y->n, &my);
      const char *verdict = sr.lo > 1 ? "faster" : sr.hi < 1 ? "slower" : "same";
      fprintf(f, "%s,%zu,lib:%s,%ld,%ld,%.9g,%.9g,%.6g,%.6g,%.6g,%s\n", mg_colls[S->r[i].coll].name, bytes, S->r[i].name,
              x->n, y->n, mx, my, sr.ratio, sr.lo, sr.hi, verdict);
      if (!quiet) {
        char ci[64], v[64];
        snprintf(ci, sizeof ci, "%.2fx [%.2f, %.2f]", sr.ratio, sr.lo, sr.hi);
        snprintf(v, sizeof v, "lib:%s", S->r[i].name);
        printf("%-12s %9zu %-24s %12.2f %12.2f %24s  %s\n", mg_colls[S->r[i].coll].name, bytes, v, 1e6 * mx, 1e6 * my,
               ci, verdict);
      }
    }
  fclose(f);
  if (!quiet)
    printf("(two launches: the ratio includes launch-to-launch variation; repeat before trusting a small one)\n"
           "results: %s\n", path);
  mg_ck_data_free(&a), mg_ck_data_free(&b);
  return 0;
}

int mg_cmd_verify_lib(int argc, char **argv) {
  int dd = -1;
  for (int i = 1; i < argc && dd < 0; i++)
    if (!strcmp(argv[i], "--")) dd = i;
  mg_opt_vals o;
  char err[2048];
  static lvstate S;
  int status = 2;
  if (mg_opt_parse(dd < 0 ? argc : dd, argv, opts, O_N, &o, err, sizeof err)) {
    fprintf(stderr, "mpiguide verify: %s\n", err);
    return 2;
  }
  long nrep = 100;
  if (!o.given[O_OUT]) snprintf(err, sizeof err, "--lib-settings needs -o DIR (the two launches' files go there)");
  else if (dd < 0 || dd + 1 >= argc) snprintf(err, sizeof err, "--lib-settings needs the launcher after '--', e.g. -- mpirun -np 4");
  else if (mg_cmd_under_launcher()) snprintf(err, sizeof err, "--lib-settings starts the launcher itself: run it without mpirun in front");
  else if (o.given[O_NREP] && mg_parse_long(o.val[O_NREP], 1, 100000000, &nrep, err, sizeof err)) ;
  else if (read_settings(o.val[O_LIB], &S, err, sizeof err)) ;
  else if (mkdir(o.val[O_OUT], 0777) && errno != EEXIST) snprintf(err, sizeof err, "cannot create %s: %s", o.val[O_OUT], strerror(errno));
  else status = 0;
  if (status) {
    fprintf(stderr, "mpiguide verify: %s\n", err);
    mg_opt_vals_free(&o);
    return 2;
  }
  char self[4096], nr[32];
  ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
  self[n > 0 ? n : 0] = '\0';
  snprintf(nr, sizeof nr, "%ld", nrep);
  if (!o.given[O_QUIET]) fprintf(stderr, "mpiguide verify: launch 1 of 2: default ...\n");
  status = launch(argv + dd + 1, argc - dd - 1, self, &S, o.val[O_OUT], "default.csv", 0, nr) ? 1 : 0;
  if (!status && !o.given[O_QUIET]) fprintf(stderr, "mpiguide verify: launch 2 of 2: library setting ...\n");
  if (!status) status = launch(argv + dd + 1, argc - dd - 1, self, &S, o.val[O_OUT], "setting.csv", 1, nr) ? 1 : 0;
  if (!status) status = compare(&S, o.val[O_OUT], o.given[O_QUIET]);
  for (int i = 0; i < S.nenv; i++) free(S.envs[i]);
  mg_opt_vals_free(&o);
  return status;
}
