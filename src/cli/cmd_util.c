/* Helpers shared by the subcommands (see cmd_util.h). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "algs/algs.h"
#include "bench/csv.h"
#include "bench/output.h"
#include "check/hotspots.h"
#include "bench/eta.h"
#include "cli/cmd_util.h"
#include "util/err.h"
#include "util/hash.h"
#include "util/parse.h"
#include "util/process.h"
#include "util/text.h"
#include "util/sort.h"

/* ---------- MPI ---------- */

int mg_cmd_mpi_start(const char *cmd, int *rank, int *size, mg_bench_meta *meta) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized && MPI_Init(NULL, NULL) != MPI_SUCCESS) {
    fprintf(stderr, "mpiguide %s: MPI_Init failed\n", cmd);
    return 1;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  if (mg_core_init() != MPI_SUCCESS) {
    fprintf(stderr, "mpiguide %s: cannot set up (MPI_Comm_dup of MPI_COMM_SELF failed)\n", cmd);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  char why[640]; /* before any collective: under SMPI some layouts die in the first (sim_defects.c) */
  if (!mg_bench_sim_runnable(MPI_COMM_WORLD, why, sizeof why)) {
    if (*rank == 0) fprintf(stderr, "mpiguide %s: %s\n", cmd, why);
    mg_cmd_mpi_end();
    return 1;
  }
  if (mg_bench_meta_collect(MPI_COMM_WORLD, meta) != MPI_SUCCESS) {
    fprintf(stderr, "mpiguide %s: cannot describe the launch (MPI error)\n", cmd);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  if (*rank == 0 && meta->hosts_shared[0])
    fprintf(stderr, "mpiguide %s: note: the host names make %d node(s) (%s), MPI_COMM_TYPE_SHARED other ones "
            "(%s): the layout recorded (#@hosts) follows the names, #@hosts_shared keeps MPI's (the launcher "
            "gave MPI no node map? docs/cluster.md)\n", cmd, meta->nnodes, meta->hosts, meta->hosts_shared);
  return 0;
}

/* Whether this process was started by an MPI launcher (any rank). */
int mg_cmd_under_launcher(void) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "PMI_RANK", NULL};
  for (int i = 0; vars[i]; i++)
    if (getenv(vars[i])) return 1;
  return 0;
}

/* Run argv with stdout to `log`; the exit status as a shell reports it (128 + signal). */
int mg_cmd_run_child(char **argv, const char *log) { return mg_cmd_run_child_until(argv, log, NULL, NULL, 0, NULL); }

int mg_cmd_run_child_until(char **argv, const char *log, int (*done)(void *), void *arg, double grace,
                           int *stopped) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    FILE *f = freopen(log, "w", stdout);
    if (!f) _exit(126);
    execvp(argv[0], argv);
    fprintf(stderr, "mpiguide: cannot start '%s': %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  int status;
  if (!done) {
    while (waitpid(pid, &status, 0) < 0)
      if (errno != EINTR) return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  /* poll: the child's exit, else whether its work is saved, and then the grace it has left */
  double saved_at = -1, t = 0;
  int sent = 0;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) return -1;
    if (!sent) saved_at = !done(arg) ? -1 : saved_at < 0 ? t : saved_at; /* it must hold all the grace */
    if (saved_at >= 0 && t - saved_at >= grace + 10.0 * sent && sent < 2) {
      kill(pid, sent ? SIGKILL : SIGTERM);
      sent++;
    }
    struct timespec ts = {0, 200000000};
    nanosleep(&ts, NULL); /* a signal cuts it short: the loop looks again */
    t += 0.2;
  }
  if (sent && stopped) *stopped = 1;
  return sent ? 0 : WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

void mg_cmd_libvar_env(int argc, char **argv) {
  for (int i = 1; i < argc; i++)
    if (!strncmp(argv[i], "--lib-variants", 14) && (argv[i][14] == '\0' || argv[i][14] == '=')) {
      setenv("OMPI_MCA_coll_tuned_use_dynamic_rules", "1", 0);
      return;
    }
}

int mg_cmd_lib_variants(const char *spec, const mg_coll *colls, int ncolls, mg_bench_cfg *cfg, mg_lv_lib *lib,
                   mg_lv_set *set, char *err, size_t errlen) {
  if (!*spec) return MG_ERR("--lib-variants: empty (use all, or COLL=NAME,...;COLL=...)");
  if (mg_lv_discover(lib, err, errlen)) return -1;
  mg_lv_set_library(lib);
  if (mg_lv_select(lib, spec, colls, ncolls, set, err, errlen)) return -1;
  cfg->libvars = set;
  return 0;
}

int mg_cmd_launched_rank(void) {
  int r = mg_proc_rank(); /* util/process.h: the launcher's variables, range-checked */
  return r < 0 ? 0 : r;
}

uint32_t mg_cmd_argv_hash(int argc, char **argv) {
  uint32_t h = MG_FNV1A_INIT;
  for (int i = 1; i < argc; i++) h = mg_fnv1a(h, argv[i], strlen(argv[i]) + 1);
  return h;
}

int mg_cmd_agree(const char *cmd, int rank, int failed, const char *err, uint32_t hash, const char *differ) {
  /* max of (INT32_MAX - rank) finds the lowest failing rank; max(h) == -max(-h) iff all h are equal */
  int mine[3] = {failed ? INT32_MAX - rank : 0, (int)(hash >> 1), -(int)(hash >> 1)}, all[3];
  MPI_Allreduce(mine, all, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (!all[0] && all[1] == -all[2]) return 0;
  int who = all[0] ? INT32_MAX - all[0] : -1;
  if (who == rank) fprintf(stderr, "mpiguide %s: %s\n(mpiguide %s --help lists the options)\n", cmd, err, cmd);
  else if (who < 0 && rank == 0) fprintf(stderr, "mpiguide %s: %s\n", cmd, differ);
  return 2;
}

char *mg_cmd_join(int argc, char **argv) {
  size_t len = 16;
  for (int i = 0; i < argc; i++) len += 4 * strlen(argv[i]) + 3; /* each ' becomes '\'' */
  char *s = malloc(len), *p = s;
  if (!s) return NULL;
  p += sprintf(p, "mpiguide");
  for (int i = 0; i < argc; i++) {
    int q = argv[i][0] == '\0' || strpbrk(argv[i], " \t'\"$\\;&|<>*?") != NULL;
    *p++ = ' ';
    if (q) *p++ = '\'';
    for (const char *c = argv[i]; *c; c++) {
      if (q && *c == '\'')
        p += sprintf(p, "'\\''");
      else
        *p++ = *c;
    }
    if (q) *p++ = '\'';
  }
  *p = '\0';
  return s;
}

/* ---------- result directory ---------- */

/* mkdir -p: create dir and any missing parents. 0, or -1 with errno. */
static int mkdir_parents(const char *dir) {
  char path[4096];
  if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  for (char *p = path + 1; *p; p++) {
    if (*p != '/') continue;
    *p = '\0';
    if (mkdir(path, 0777) != 0 && errno != EEXIST) return -1;
    *p = '/';
  }
  return mkdir(path, 0777) != 0 && errno != EEXIST ? -1 : 0;
}

int mg_cmd_out_dir(const char *dir, const char *const *results, int force, int *created, char *err,
                   size_t errlen) {
  struct stat st;
  *created = 0;
  if (!*dir) return MG_ERR("--out: empty path");
  if (stat(dir, &st) == 0) {
    if (!S_ISDIR(st.st_mode)) return MG_ERR("--out: '%s' exists and is not a directory", dir);
    for (int i = 0; results[i] && !force; i++) {
      char p[4096];
      snprintf(p, sizeof p, "%s/%s", dir, results[i]);
      if (access(p, F_OK) == 0)
        return MG_ERR("--out: '%s' already holds results (%s); choose another directory or add --force to "
                      "replace them",
                      dir, results[i]);
    }
    if (access(dir, W_OK | X_OK) != 0) return MG_ERR("--out: cannot write into '%s': %s", dir, strerror(errno));
    return 0;
  }
  if (errno != ENOENT) return MG_ERR("--out: '%s': %s", dir, strerror(errno));
  if (mkdir_parents(dir) != 0) return MG_ERR("--out: cannot create the directory '%s': %s", dir, strerror(errno));
  *created = 1;
  return 0;
}

/* ---------- measurement settings and results ---------- */

/* An op defined for a datatype (MPI standard, predefined reduction operations); else a message. */
static int op_fits(const mg_dtype_info *dt, const mg_op_info *op, char *err, size_t errlen) {
  if (dt->kind == MG_DK_PREDEFINED && (op->categories & dt->category)) return 0;
  if (dt->kind != MG_DK_PREDEFINED)
    return MG_ERR("the reductions take a predefined datatype, not %s: MPI defines %s and the other built-in ops "
                  "on predefined datatypes only (Open MPI and MPICH return MPI_ERR_OP for a derived one); give the "
                  "reductions --reductions TYPE:OP or measure them in a run of their own",
                  dt->name, op->name);
  if (dt->category == MG_DT_CHAR)
    return MG_ERR("MPI_CHAR has no reduction op in MPI; use MPI_BYTE, MPI_SIGNED_CHAR or MPI_INT8_T");
  return MG_ERR("%s is not defined for %s (MPI standard, predefined reduction operations)", op->name, dt->name);
}

/* --reductions TYPE:OP[,TYPE:OP...] into cfg->reds. */
static int parse_reds(const char *list, mg_bench_cfg *cfg, char *err, size_t errlen) {
  char buf[512];
  if (snprintf(buf, sizeof buf, "%s", list) >= (int)sizeof buf) return MG_ERR("--reductions: list too long");
  cfg->nreds = 0;
  for (char *save = NULL, *it = strtok_r(buf, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
    char *colon = strrchr(it, ':'); /* the op after the last colon (a derived spec has colons: refused below) */
    if (!colon) return MG_ERR("--reductions: '%s' is not TYPE:OP (e.g. double:sum)", it);
    *colon = '\0';
    char e[256];
    const mg_dtype_info *dt = mg_dtype_find(it);
    const mg_op_info *op = mg_op_find(colon + 1);
    if (!dt && (strchr(it, ':') || !strcmp(it, "struct")))
      return MG_ERR("--reductions: '%s': the reductions take predefined datatypes only (MPI defines the built-in "
                    "ops on them only)", it);
    if (!dt) return MG_ERR("--reductions: unknown datatype '%s'; valid: %s", it, mg_dtype_list());
    if (!op) return MG_ERR("--reductions: unknown op '%s'; valid: %s", colon + 1, mg_op_list());
    if (op_fits(dt, op, e, sizeof e)) return MG_ERR("--reductions: %s", e);
    for (int i = 0; i < cfg->nreds; i++)
      if (cfg->reds[i].dtype == dt && cfg->reds[i].op == op)
        return MG_ERR("--reductions: %s:%s is listed twice", dt->name, op->name);
    if (cfg->nreds == MG_BENCH_MAX_REDS) return MG_ERR("--reductions: more than %d pairs", MG_BENCH_MAX_REDS);
    cfg->reds[cfg->nreds++] = (mg_bench_red){dt, op};
  }
  return cfg->nreds ? 0 : MG_ERR("--reductions: empty list");
}

/* --roots all | spread:K | R,R,... into cfg->roots. */
static int parse_roots(const char *spec, int nprocs, mg_bench_cfg *cfg, char *err, size_t errlen) {
  char e[256];
  long k;
  cfg->nroots = 0;
  if (!strcmp(spec, "all") || !strncmp(spec, "spread:", 7)) {
    if (!strcmp(spec, "all")) k = nprocs;
    else if (mg_parse_long(spec + 7, 1, MG_BENCH_MAX_ROOTS, &k, e, sizeof e))
      return MG_ERR("--roots %s: %s", spec, e);
    if (k > nprocs) k = nprocs;
    if (k > MG_BENCH_MAX_ROOTS)
      return MG_ERR("--roots all: %d processes are more than %d roots; use spread:K", nprocs, MG_BENCH_MAX_ROOTS);
    for (long i = 0; i < k; i++) cfg->roots[cfg->nroots++] = (int)(i * nprocs / k);
    return 0;
  }
  char buf[512];
  if (snprintf(buf, sizeof buf, "%s", spec) >= (int)sizeof buf) return MG_ERR("--roots: list too long");
  for (char *save = NULL, *it = strtok_r(buf, ",", &save); it; it = strtok_r(NULL, ",", &save)) {
    if (mg_parse_long(it, 0, nprocs - 1, &k, e, sizeof e))
      return MG_ERR("--roots: %s (the run has %d processes; or write all, spread:K)", e, nprocs);
    if (cfg->nroots == MG_BENCH_MAX_ROOTS) return MG_ERR("--roots: more than %d roots", MG_BENCH_MAX_ROOTS);
    cfg->roots[cfg->nroots++] = (int)k;
  }
  return cfg->nroots ? 0 : MG_ERR("--roots: empty list");
}

/* --counts uniform | zeros:K | skew:FACTOR:SEED into k. */
static int parse_counts(const char *spec, int nprocs, mg_bench_counts *k, char *err, size_t errlen) {
  char e[256];
  memset(k, 0, sizeof *k);
  if (!strcmp(spec, "uniform")) return 0;
  if (!strncmp(spec, "zeros:", 6)) {
    long z;
    if (mg_parse_long(spec + 6, 1, nprocs > 1 ? nprocs - 1 : 1, &z, e, sizeof e))
      return MG_ERR("--counts %s: %s (ranks that contribute nothing, fewer than the %d processes)", spec, e, nprocs);
    k->kind = MG_COUNTS_ZEROS, k->zeros = (int)z;
    return 0;
  }
  if (!strncmp(spec, "skew:", 5)) {
    char buf[128];
    snprintf(buf, sizeof buf, "%s", spec + 5);
    char *colon = strchr(buf, ':');
    long seed;
    if (colon) *colon = '\0';
    if (!colon || mg_parse_double(buf, 1, &k->factor, e, sizeof e) ||
        mg_parse_long(colon + 1, 0, LONG_MAX, &seed, e, sizeof e))
      return MG_ERR("--counts %s: write skew:FACTOR:SEED, FACTOR >= 1 (largest / smallest share), SEED >= 0", spec);
    k->kind = MG_COUNTS_SKEW, k->seed = (uint64_t)seed;
    return 0;
  }
  return MG_ERR("--counts '%s': valid: uniform, zeros:K, skew:FACTOR:SEED", spec);
}

const char *mg_cmd_coll_names_of(int reduction, char *buf, size_t len) {
  size_t u = 0;
  buf[0] = '\0';
  for (int c = 0; c < MG_NCOLL && u < len; c++)
    if (reduction ? mg_colls[c].reduction : mg_colls[c].rooted)
      u += (size_t)snprintf(buf + u, len - u, "%s%s", u ? ", " : "", mg_colls[c].name);
  return buf;
}

int mg_cmd_data_opts(const mg_cmd_data_args *a, int nprocs, int anyred, int anyroot, mg_bench_cfg *cfg, char *err,
                     size_t errlen) {
  char names[256];
  if (a->counts && !a->anycounts) return MG_ERR("--counts applies only to collectives with per-rank counts (allgatherv, alltoallv, alltoallw, gatherv, reduce_scatter, scatterv)");
  if (a->counts && parse_counts(a->counts, nprocs, &cfg->counts, err, errlen)) return -1;
  if (!a->counts) memset(&cfg->counts, 0, sizeof cfg->counts);
  const char *dt = a->dtype ? a->dtype : "MPI_BYTE", *op = a->op;
  char derr[320];
  if (!(cfg->dtype = mg_dtype_parse(dt, derr, sizeof derr))) return MG_ERR("--datatype: %s", derr);
  if ((op || a->reds) && !anyred)
    return MG_ERR("%s applies only to reductions (%s)", op ? "--op" : "--reductions",
                  mg_cmd_coll_names_of(1, names, sizeof names));
  if (op && a->reds) return MG_ERR("--op and --reductions: give the op of each datatype in --reductions");
  if (!op) op = cfg->dtype->category == MG_DT_FLOAT ? "MPI_SUM" : "MPI_BOR";
  if (!(cfg->op = mg_op_find(op))) return MG_ERR("unknown op '%s'; valid: %s", op, mg_op_list());
  cfg->nreds = 0;
  if (a->reds) {
    if (parse_reds(a->reds, cfg, err, errlen)) return -1;
  } else if (anyred && op_fits(cfg->dtype, cfg->op, err, errlen)) {
    return -1;
  }
  if ((a->root || a->roots) && !anyroot)
    return MG_ERR("%s applies only to rooted collectives (%s)", a->root ? "--root" : "--roots",
                  mg_cmd_coll_names_of(0, names, sizeof names));
  if (a->root && a->roots) return MG_ERR("--root and --roots: give one root or a rotation, not both");
  cfg->nroots = 0;
  if (a->roots) return parse_roots(a->roots, nprocs, cfg, err, errlen);
  if (a->root) {
    long r;
    char e[256];
    if (mg_parse_long(a->root, 0, nprocs - 1, &r, e, sizeof e))
      return MG_ERR("--root: %s (the run has %d processes)", e, nprocs);
    cfg->root = (int)r;
  }
  return 0;
}

/* Whether size holds whole elements of dt, at most INT_MAX of them; else a message. */
static int size_fits(size_t size, const mg_dtype_info *dt, char *err, size_t errlen) {
  size_t ts = (size_t)dt->size;
  if (size % ts) return MG_ERR("size %zu is not a multiple of the %zu bytes of %s", size, ts, dt->name);
  if (size / ts > INT32_MAX) return MG_ERR("size %zu is more than INT_MAX elements of %s", size, dt->name);
  return 0;
}

int mg_cmd_check_sizes(const size_t *sizes, int n, const mg_bench_cfg *cfg, int reduction, char *err,
                       size_t errlen) {
  for (int i = 0; i < n; i++) {
    if (!reduction || cfg->nreds == 0) {
      if (size_fits(sizes[i], cfg->dtype, err, errlen)) return -1;
      continue;
    }
    int fits = 0;
    for (int k = 0; k < cfg->nreds; k++) {
      char e[256];
      if (sizes[i] % (size_t)cfg->reds[k].dtype->size == 0 && size_fits(sizes[i], cfg->reds[k].dtype, err, errlen))
        return -1;
      fits |= !size_fits(sizes[i], cfg->reds[k].dtype, e, sizeof e);
    }
    if (!fits) return MG_ERR("size %zu is not a multiple of any --reductions datatype's size", sizes[i]);
  }
  return 0;
}

int mg_cmd_merge(const mg_bench_cfg *base, const mg_bench_cfg *const *cfgs, const mg_bench_result *const *res,
                 int n, mg_cmd_merged *m, char *err, size_t errlen) {
  memset(m, 0, sizeof *m);
  m->cfg = *base;
  m->cfg.ncolls = 0;
  int nsizes = 0, nblocks = 0, ns = 0;
  for (int g = 0; g < n; g++) nblocks += res[g]->nblocks, nsizes += cfgs[g]->nsizes;
  m->sizes = malloc((size_t)(nsizes + 1) * sizeof *m->sizes);
  m->res.blocks = malloc((size_t)(nblocks + 1) * sizeof *m->res.blocks);
  if (!m->sizes || !m->res.blocks) return mg_cmd_merged_free(m), MG_ERR("out of memory");
  mg_bench_result *R = &m->res;
  R->sync_cost_min = INFINITY;
  for (int g = 0; g < n; g++) {
    const mg_bench_cfg *C = cfgs[g];
    const mg_bench_result *G = res[g];
    for (int i = 0; i < C->ncolls; i++) { /* a collective of several runs (check --model-guided): once */
      int seen = 0;
      for (int j = 0; j < m->cfg.ncolls; j++) seen |= m->cfg.colls[j] == C->colls[i];
      if (!seen) m->cfg.colls[m->cfg.ncolls++] = C->colls[i], m->cfg.algmask[C->colls[i]] = 0;
      m->cfg.algmask[C->colls[i]] |= C->algmask[C->colls[i]];
    }
    for (int k = 0; k < C->nsizes; k++) {
      int dup = 0;
      for (int j = 0; j < ns; j++) dup |= m->sizes[j] == C->sizes[k];
      if (!dup) m->sizes[ns++] = C->sizes[k];
    }
    memcpy(R->blocks + R->nblocks, G->blocks, (size_t)G->nblocks * sizeof *R->blocks);
    R->nblocks += G->nblocks;
    /* the noise threshold: the largest of the runs' synchronisation costs */
    if (G->sync_cost > R->sync_cost) R->sync_cost = G->sync_cost;
    if (G->sync_skew > R->sync_skew) R->sync_skew = G->sync_skew;
    if (G->sync_cost_min < R->sync_cost_min) R->sync_cost_min = G->sync_cost_min;
    R->elapsed += G->elapsed;
    R->invalid += G->invalid;
    if (G->clock_used) {
      R->clock_used = 1;
      R->clock_err = G->clock_err > R->clock_err ? G->clock_err : R->clock_err;
      R->clock_rtt = G->clock_rtt;
      R->clock_syncs += G->clock_syncs;
    }
  }
  if (!isfinite(R->sync_cost_min)) R->sync_cost_min = 0;
  qsort(m->sizes, (size_t)ns, sizeof *m->sizes, mg_cmp_size);
  m->cfg.sizes = m->sizes;
  m->cfg.nsizes = ns;
  for (int b = 0; b < R->nblocks; b++)
    for (int i = 0; i < R->blocks[b].nseries; i++) m->rows += R->blocks[b].series[i].n;
  return 0;
}

void mg_cmd_merged_free(mg_cmd_merged *m) {
  free(m->sizes);
  free(m->res.blocks); /* the blocks themselves belong to the runs */
  memset(m, 0, sizeof *m);
}

int mg_cmd_write_raw(const char *dir, const mg_cmd_merged *m, const mg_bench_meta *meta, const char *command,
                     void (*extra)(FILE *f, void *arg), void *arg, char *err, size_t errlen) {
  char path[4096];
  snprintf(path, sizeof path, "%s/raw.csv", dir);
  mg_outfile f;
  if (mg_outfile_open(&f, path, err, errlen)) return -1;
  mg_bench_write_meta(f.f, &m->cfg, &m->res, meta, command ? command : "");
  if (extra) extra(f.f, arg);
  mg_meta(f.f, "rows", "%ld", mg_bench_raw_count(&m->res));
  mg_bench_write_raw(f.f, &m->cfg, &m->res, meta);
  return mg_outfile_commit(&f, err, errlen);
}

void mg_cmd_warn_failed(const char *cmd, const mg_bench_result *res) {
  for (int b = 0; b < res->nblocks; b++)
    for (int i = 0; i < res->blocks[b].nseries; i++) {
      const mg_bench_block *B = &res->blocks[b];
      if (B->series[i].status == MG_SERIES_FAILED)
        fprintf(stderr, "mpiguide %s: warning: %s %s at %zu bytes %s\n", cmd, mg_colls[B->coll].name,
                mg_bench_alg_name(B->coll, B->series[i].alg), B->bytes, B->series[i].note);
    }
}

/* ---------- names ---------- */

int mg_cmd_each(const char *list, const char *opt, int (*fn)(const char *item, void *arg), void *arg,
                char *err, size_t errlen) {
  char buf[2048];
  if (strlen(list) >= sizeof buf) return MG_ERR("%s: list too long", opt);
  strcpy(buf, list);
  if (!buf[0]) return MG_ERR("%s: empty list", opt);
  for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save))
    if (fn(t, arg)) return -1;
  return 0;
}

/* ---------- files every rank must see alike ---------- */

int mg_cmd_read_shared(const char *path, char **buf, size_t *len, char *err, size_t errlen) {
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long n = -1;
  char *b = NULL;
  char why[256] = "";
  if (rank == 0) {
    FILE *f = fopen(path, "rb");
    if (!f) {
      snprintf(why, sizeof why, "%s", strerror(errno));
    } else {
      if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 && n < (1L << 30)) {
        b = malloc((size_t)n + 1);
        if (!b || fread(b, 1, (size_t)n, f) != (size_t)n) {
          snprintf(why, sizeof why, "%s", b ? "read error" : "out of memory");
          n = -1;
        }
      } else {
        snprintf(why, sizeof why, "cannot size it (or over 1 GiB)");
        n = -1;
      }
      fclose(f);
    }
  }
  MPI_Bcast(&n, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  if (n < 0) {
    free(b);
    MPI_Bcast(why, (int)sizeof why, MPI_CHAR, 0, MPI_COMM_WORLD);
    return MG_ERR("%s: %s", path, why);
  }
  if (rank != 0 && !(b = malloc((size_t)n + 1))) MPI_Abort(MPI_COMM_WORLD, 1);
  MPI_Bcast(b, (int)n, MPI_CHAR, 0, MPI_COMM_WORLD);
  b[n] = '\0';
  *buf = b;
  *len = (size_t)n;
  return 0;
}


/* One more class:op pair of a trace's reduction column into the list reds, unless it is there or
 * names no class or op ("none:sum": a type or op no class holds). */
static void trace_red(const char *red, char *reds, size_t len) {
  const char *colon = strchr(red, ':');
  char cls[32];
  if (!colon || (size_t)(colon - red) >= sizeof cls) return;
  snprintf(cls, sizeof cls, "%.*s", (int)(colon - red), red);
  if (mg_tclass_find(cls) < 0 || mg_opsel_find(colon + 1) < 0) return;
  size_t n = strlen(red), u = strlen(reds);
  for (const char *p = reds; (p = strstr(p, red)); p += n)
    if ((p == reds || p[-1] == ',') && (p[n] == ',' || !p[n])) return;
  if (u + n + 2 <= len) snprintf(reds + u, len - u, "%s%s", u ? "," : "", red);
}

int mg_cmd_trace_sizes(const char *text, size_t len, const char *path, size_t *sizes[MG_NCOLL], int nsizes[MG_NCOLL],
                       int *nprocs, char *reds, size_t redslen, char *err, size_t errlen) {
  /* the one reader of traces (check/hotspots.c: numbers checked, a cut file refused); its spots
   * in file order of first appearance, so reds are in the order first seen */
  mg_hs_trace t;
  *nprocs = 0;
  if (reds && redslen) reds[0] = '\0';
  if (mg_hs_read_mem(text, len, path, &t, err, errlen)) return -1;
  *nprocs = t.nprocs;
  for (int i = 0; i < t.n; i++) {
    const mg_hs_spot *s = &t.spots[i];
    mg_coll c = s->coll;
    if (s->bytes == 0 && c != MG_BARRIER) continue; /* empty calls: nothing to measure (a barrier is always 0) */
    if (reds && s->red[0] && mg_colls[c].reduction) trace_red(s->red, reds, redslen); /* a timed trace's reduction */
    /* the non-blocking posts have no cell of their own: their guidelines are in others' (TGT 2010
     * eqs. 5-7, Isend(n) + Wait against Send(n), in send's; eqs. 10 and 11, Isend and Irecv against
     * Sendrecv(n), in sendrecv's), which check measures at the posts' sizes (docs/check.md) */
    mg_coll cells[3] = {c, c, c};
    int ncells = 1;
    if (c == MG_ISEND) cells[ncells++] = MG_SEND, cells[ncells++] = MG_SENDRECV;
    if (c == MG_IRECV) cells[ncells++] = MG_SENDRECV;
    for (int j = 0; j < ncells; j++) {
      mg_coll d = cells[j];
      int k;
      for (k = 0; k < nsizes[d] && sizes[d][k] != s->bytes; k++) {
      }
      if (k < nsizes[d]) continue;
      size_t *ns = realloc(sizes[d], (size_t)(nsizes[d] + 1) * sizeof *ns);
      if (!ns) return mg_hs_free(&t), MG_ERR("out of memory");
      sizes[d] = ns;
      sizes[d][nsizes[d]++] = s->bytes;
    }
  }
  mg_hs_free(&t);
  for (int c = 0; c < MG_NCOLL; c++) qsort(sizes[c], (size_t)nsizes[c], sizeof *sizes[c], mg_cmp_size);
  return 0;
}

void mg_cmd_trace_left_out(const char *text, size_t len, const char *path, char *note, size_t notelen) {
  mg_hs_trace t;
  char err[512];
  note[0] = '\0';
  if (!notelen || mg_hs_read_mem(text, len, path, &t, err, sizeof err)) return;
  size_t u = 0;
#define PUT(...) (u += u < notelen ? (size_t)snprintf(note + u, notelen - u, __VA_ARGS__) : 0)
  int posts = 0;
  for (int i = 0; i < t.n; i++) posts |= (t.spots[i].coll == MG_ISEND) | (t.spots[i].coll == MG_IRECV) << 1;
  if (posts & 1)
    PUT("the trace's MPI_Isend sizes are checked where its guidelines are, in send's cell (TGT 2010 eqs. 5-7, Isend + "
        "Wait against Send) and sendrecv's (eq. 10)%s", posts & 2 ? ", its MPI_Irecv sizes in sendrecv's (eq. 11)" : "");
  else if (posts & 2)
    PUT("the trace's MPI_Irecv sizes are checked where its guideline is, in sendrecv's cell (TGT 2010 eq. 11)");
  if (u && (t.timed && (t.version < 4 || t.nothers > 0))) PUT(". ");
  if (t.timed && t.version < 4) {
    PUT("the trace (format %d) timed only the operations mpiguide tunes: the time in the program's other MPI calls "
        "(completions, communicators, one-sided, I/O, ...) is not in it to say what is left out", t.version);
  } else if (t.timed && t.nothers > 0 && t.all_time > 0) {
    double rest = t.all_time - t.mpi_time;
    PUT("left out: %.1f %% of the trace's MPI time, in MPI functions no guideline checks", 100 * rest / t.all_time);
    for (int c = 0; c < MG_HS_NCLASS; c++) {
      if (c == MG_HS_CLASS_tuned || !(t.class_time[c] > 0)) continue;
      /* the class's two largest functions by time, summed over their rows */
      char top[2][48] = {"", ""};
      double tt[2] = {0, 0};
      for (int i = 0; i < t.nothers; i++) {
        const mg_hs_other *x = &t.others[i];
        if (x->cls != c || !strcmp(x->fn, top[0]) || !strcmp(x->fn, top[1])) continue;
        double sum = 0;
        for (int j = 0; j < t.nothers; j++)
          if (!strcmp(t.others[j].fn, x->fn)) sum += t.others[j].time;
        if (sum > tt[0]) {
          tt[1] = tt[0], tt[0] = sum;
          memcpy(top[1], top[0], sizeof top[0]);
          snprintf(top[0], sizeof top[0], "%s", x->fn);
        } else if (sum > tt[1]) {
          tt[1] = sum;
          snprintf(top[1], sizeof top[1], "%s", x->fn);
        }
      }
      PUT("; %s %.1f %% (%s%s%s)%s", mg_hs_class_names[c], 100 * t.class_time[c] / t.all_time, top[0],
          top[1][0] ? ", " : "", top[1],
          c == MG_HS_CLASS_completion ? ": waiting for the requests they complete, whose posts' sizes (MPI_Isend, "
                                        "MPI_Irecv) are taken; `mpiguide hotspots` attributes it"
          : c == MG_HS_CLASS_collective ? ": untuned (the neighbourhood collectives' non-blocking and persistent forms, the large-count forms)"
                                        : "");
    }
  }
#undef PUT
  mg_hs_free(&t);
}

int mg_cmd_pattern(const char *name, mg_pattern *out, char *err, size_t errlen) {
  *out = MG_PATTERN_PINGPONG;
  if (!name) return 0;
  int k = mg_pattern_find(name);
  if (k >= 0) return *out = (mg_pattern)k, 0;
  char v[128];
  size_t u = 0;
  for (int i = 0; i < MG_NPATTERNS && u < sizeof v; i++)
    u += (size_t)snprintf(v + u, sizeof v - u, "%s%s", i ? ", " : "", mg_pattern_name((mg_pattern)i));
  return MG_ERR("--pattern: unknown pattern '%s'; valid: %s", name, v);
}

int mg_cmd_min_span(const char *v, double *out, char *e, size_t elen) {
  double t;
  if (mg_parse_seconds0(v, &t, e, elen)) return -1;
  if (t > 86400) return snprintf(e, elen, "'%s' is more than a day", v), -1;
  *out = t;
  return 0;
}
