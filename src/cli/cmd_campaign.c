/*
 * `mpiguide campaign SPEC [-o TREE] [--dry-run]` (docs/campaign.md): configurations side by side.
 * SPEC names node layouts, MPI libraries (each with the mpiguide built for it and its launcher)
 * and the check's options; every (library, layout) is one configuration, measured by
 *
 *     MPIGUIDE check --launches N CHECK-OPTIONS -o TREE/LIB-NxR [--resume] -- LAUNCHER...
 *
 * one after the other, without MPI of its own (check --launches runs the launches: the launch is
 * the unit of replication). The plan is printed before anything runs. A configuration whose check
 * finished (exit 0) is marked TREE/LIB-NxR.done and skipped by a rerun; one that holds launches
 * but no mark was interrupted (Ctrl-C, a killed job) and is resumed with `check --resume`, which
 * measures only what is missing. `mpiguide report TREE` compares the configurations
 * (cmd_report.c reads TREE/campaign.spec to find them).
 *
 * With --sbatch each configuration that is not done becomes a Slurm job of its own layout
 * (sbatch -N NODES --ntasks-per-node=RPN), whose batch script is this campaign restricted to it
 * (--only LIB-NxR): the job runs the check's launches as srun steps, resumes and marks as above.
 * The job's id is kept in TREE/LIB-NxR.job; a rerun leaves a queued or running job alone
 * (squeue), and submits anew a configuration whose job ended without its mark (killed, failed:
 * the new job resumes it). --wait polls squeue until the jobs have ended and reports the marks.
 */
#define _GNU_SOURCE /* strptime, timegm */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check/check.h"
#include "cli/cli.h"
#include "cli/cmd_check.h"
#include "cli/cmd_opts.h"
#include "util/parse.h"
#include "util/text.h"

#define MG_CP_MAX 16   /* layouts, libraries */
#define MG_CP_ARGS 64  /* words of a launcher, of the check options */

typedef struct {
  char name[32], exe[1024];
  char *launcher[MG_CP_ARGS];
  int nlauncher;
  int sim; /* a `sim` line: exe is the smpi build the launcher starts; check --launches is the campaign's own */
  long line;
} cp_mpi;

typedef struct {
  char out[1024];
  long launches;
  int nodes[MG_CP_MAX], rpn[MG_CP_MAX], nlayouts;
  cp_mpi mpi[MG_CP_MAX];
  int nmpi;
  char *check[MG_CP_ARGS];
  int ncheck;
  char *sbatch[MG_CP_ARGS]; /* options of every job of --sbatch */
  int nsbatch;
  char *text; /* the spec's words point into it */
} cp_spec;

static volatile sig_atomic_t stop_asked;
static void on_signal(int sig) { stop_asked = sig; }

static int word_ok(const char *w) { return strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == strlen(w); }

/* Parse SPEC (docs/campaign.md): one statement a line, '#' to the end of a line a comment, words
 * split on blanks. 0, or 2 after a message naming file:line. */
static int parse_spec(const char *path, cp_spec *S) {
  char e[1200];
  FILE *f = mg_open_text(path, "campaign spec", e, sizeof e);
  if (!f) return fprintf(stderr, "mpiguide campaign: %s\n", e), 2;
  /* the whole spec, its lines kept ('\n' between them): the words point into it. Lines as every
   * reader takes them (at most 1 MiB, no NUL byte), the spec at most 1 MiB; a last line without
   * its line break is taken (a spec is written by hand, and the plan printed shows what was read) */
  char *buf = NULL;
  size_t cap = 0, used = 0;
  long len, ln = 0;
  int nl;
  S->text = NULL;
  while ((len = mg_read_line(f, &buf, &cap, &nl)) >= 0) {
    ln++;
    char *t = used + (size_t)len + 2 <= (size_t)MG_LINE_MAX ? realloc(S->text, used + (size_t)len + 2) : NULL;
    if (!t) {
      free(buf), fclose(f);
      return fprintf(stderr, "mpiguide campaign: %s:%ld: the spec is longer than 1 MiB: not a campaign spec\n", path,
                     ln), 2;
    }
    S->text = t;
    memcpy(S->text + used, buf, (size_t)len);
    used += (size_t)len;
    S->text[used++] = '\n';
  }
  free(buf);
  fclose(f);
  if (len < -1)
    return fprintf(stderr, "mpiguide campaign: %s:%ld: %s\n", path, ln + 1, mg_read_line_strerror(len)), 2;
  if (!S->text && !(S->text = malloc(1))) return fprintf(stderr, "mpiguide campaign: out of memory\n"), 2;
  S->text[used] = '\0';
  S->launches = 3;
  long lineno = 0;
  for (char *line = S->text, *next; line && *line; line = next) {
    lineno++;
    next = strchr(line, '\n');
    if (next) *next++ = '\0';
    char *hash = strchr(line, '#');
    if (hash) *hash = '\0';
    char *w[MG_CP_ARGS + 4];
    int n = mg_split_blanks(line, w, MG_CP_ARGS + 4);
    if (n == 0) continue;
    if (n > MG_CP_ARGS + 2)
      return fprintf(stderr, "mpiguide campaign: %s:%ld: more than %d words\n", path, lineno, MG_CP_ARGS), 2;
    if (!strcmp(w[0], "out") && n == 2) {
      snprintf(S->out, sizeof S->out, "%s", w[1]);
    } else if (!strcmp(w[0], "launches") && n == 2) {
      if (mg_parse_long(w[1], 1, 1000, &S->launches, NULL, 0))
        return fprintf(stderr, "mpiguide campaign: %s:%ld: launches '%s': a number from 1 to 1000\n", path, lineno, w[1]), 2;
    } else if (!strcmp(w[0], "layouts") && n >= 2) {
      for (int i = 1; i < n; i++) {
        unsigned long long a = 0, b = 0;
        const char *x = strchr(w[i], 'x');
        if (!x || mg_parse_digits(w[i], (size_t)(x - w[i]), 100000, &a) || mg_parse_digits(x + 1, strlen(x + 1), 100000, &b) ||
            a < 1 || b < 1)
          return fprintf(stderr, "mpiguide campaign: %s:%ld: layout '%s': NODESxRANKS_PER_NODE, e.g. 2x4\n", path,
                         lineno, w[i]), 2;
        if (S->nlayouts == MG_CP_MAX)
          return fprintf(stderr, "mpiguide campaign: %s:%ld: more than %d layouts\n", path, lineno, MG_CP_MAX), 2;
        S->nodes[S->nlayouts] = (int)a, S->rpn[S->nlayouts++] = (int)b;
      }
    } else if ((!strcmp(w[0], "mpi") || !strcmp(w[0], "sim")) && n >= 4) {
      if (S->nmpi == MG_CP_MAX)
        return fprintf(stderr, "mpiguide campaign: %s:%ld: more than %d MPI libraries\n", path, lineno, MG_CP_MAX), 2;
      if (!word_ok(w[1]) || strlen(w[1]) >= sizeof S->mpi[0].name)
        return fprintf(stderr, "mpiguide campaign: %s:%ld: MPI name '%s': letters, digits, '.', '_', '-' (a "
                               "directory name), at most 31\n", path, lineno, w[1]), 2;
      for (int k = 0; k < S->nmpi; k++)
        if (!strcmp(S->mpi[k].name, w[1]))
          return fprintf(stderr, "mpiguide campaign: %s:%ld: MPI '%s' given twice (first on line %ld)\n", path, lineno,
                         w[1], S->mpi[k].line), 2;
      cp_mpi *m = &S->mpi[S->nmpi++];
      snprintf(m->name, sizeof m->name, "%s", w[1]);
      snprintf(m->exe, sizeof m->exe, "%s", w[2]);
      m->line = lineno;
      m->sim = !strcmp(w[0], "sim");
      for (int i = 3; i < n; i++) m->launcher[m->nlauncher++] = w[i];
    } else if (!strcmp(w[0], "check")) {
      for (int i = 1; i < n; i++) {
        if (!strcmp(w[i], "-o") || !strcmp(w[i], "--out") || !strcmp(w[i], "--launches") || !strcmp(w[i], "--from") ||
            !strcmp(w[i], "--resume") || !strcmp(w[i], "--force") || !strcmp(w[i], "--"))
          return fprintf(stderr, "mpiguide campaign: %s:%ld: check option '%s' is the campaign's to set (out, "
                                 "launches; --resume on a rerun)\n", path, lineno, w[i]), 2;
        if (S->ncheck == MG_CP_ARGS)
          return fprintf(stderr, "mpiguide campaign: %s:%ld: more than %d check options\n", path, lineno, MG_CP_ARGS), 2;
        S->check[S->ncheck++] = w[i];
      }
    } else if (!strcmp(w[0], "sbatch")) {
      static const char *const own[] = {"-N", "--nodes", "--ntasks-per-node", "-o", "--output", "--wrap", "--parsable",
                                        "-J", "--job-name", NULL};
      for (int i = 1; i < n; i++) {
        for (int k = 0; own[k]; k++) {
          size_t l = strlen(own[k]);
          if (!strncmp(w[i], own[k], l) && (!w[i][l] || (w[i][l] == '=' && own[k][1] == '-')))
            return fprintf(stderr, "mpiguide campaign: %s:%ld: sbatch option '%s' is the campaign's to set (the "
                                   "layout, the job's name and output)\n", path, lineno, w[i]), 2;
        }
        if (S->nsbatch == MG_CP_ARGS)
          return fprintf(stderr, "mpiguide campaign: %s:%ld: more than %d sbatch options\n", path, lineno, MG_CP_ARGS), 2;
        S->sbatch[S->nsbatch++] = w[i];
      }
    } else {
      return fprintf(stderr, "mpiguide campaign: %s:%ld: '%s': expected out DIR, launches N, layouts NxR..., "
                             "mpi NAME MPIGUIDE LAUNCHER..., sim NAME MPIGUIDE LAUNCHER..., check OPTIONS... or sbatch "
                             "OPTIONS...\n", path, lineno, w[0]), 2;
    }
  }
  if (!S->nlayouts) return fprintf(stderr, "mpiguide campaign: %s: no layouts line (e.g. layouts 1x4 2x2)\n", path), 2;
  if (!S->nmpi)
    return fprintf(stderr, "mpiguide campaign: %s: no mpi line (mpi NAME MPIGUIDE LAUNCHER..., e.g. mpi openmpi "
                           "build/openmpi/mpiguide mpirun -np {np})\n", path), 2;
  return 0;
}

/* A launcher word with {nodes}, {rpn} and {np} replaced: a new string. */
static char *expand(const char *w, int nodes, int rpn) {
  char buf[1024];
  size_t u = 0;
  for (const char *p = w; *p && u + 1 < sizeof buf;) {
    int v = !strncmp(p, "{nodes}", 7) ? nodes : !strncmp(p, "{rpn}", 5) ? rpn : !strncmp(p, "{np}", 4) ? nodes * rpn : -1;
    if (v >= 0) {
      u += (size_t)snprintf(buf + u, sizeof buf - u, "%d", v);
      p = strchr(p, '}') + 1;
    } else {
      buf[u++] = *p++;
    }
  }
  buf[u < sizeof buf ? u : sizeof buf - 1] = '\0';
  return strdup(buf);
}

/* The check of configuration (m, l) into dir as argv (launcher words newly allocated from *first on),
 * and as one line without --resume in line: what its done mark records. The word count. */
static int check_argv(const cp_spec *S, int m, int l, char *dir, int resume, char **av, int *first, char *line,
                      size_t len) {
  static char nl[24];
  int n = 0;
  snprintf(nl, sizeof nl, "%ld", S->launches);
  if (S->mpi[m].sim) { /* the smpi build runs only under smpirun: this executable runs check --launches */
    static char self[4096], env[1100];
    ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
    self[sl > 0 ? sl : 0] = '\0';
    snprintf(env, sizeof env, "MPIGUIDE_LAUNCH_EXE=%s", S->mpi[m].exe);
    av[n++] = "env", av[n++] = env, av[n++] = sl > 0 ? self : "mpiguide";
  } else {
    av[n++] = (char *)S->mpi[m].exe;
  }
  av[n++] = "check", av[n++] = "--launches", av[n++] = nl;
  for (int i = 0; i < S->ncheck; i++) av[n++] = S->check[i];
  av[n++] = "-o", av[n++] = dir;
  if (resume) av[n++] = "--resume";
  av[n++] = "--";
  *first = n;
  for (int i = 0; i < S->mpi[m].nlauncher; i++) av[n++] = expand(S->mpi[m].launcher[i], S->nodes[l], S->rpn[l]);
  av[n] = NULL;
  size_t u = 0;
  line[0] = '\0';
  for (int i = 0; i < n && u < len; i++)
    if (strcmp(av[i], "--resume")) u += (size_t)snprintf(line + u, len - u, "%s%s", i ? " " : "", av[i] ? av[i] : "?");
  return n;
}

/* The one line of a state file (dir.done, dir.job) into buf: 1, 0 when there is none, -1 when it
 * cannot be trusted (cut before its line break, longer than buf, unreadable), after a warning:
 * the file is then as good as absent (a cut mark: check --resume finds nothing missing). */
static int read_state(const char *path, char *buf, size_t len) {
  FILE *f = fopen(path, "r");
  buf[0] = '\0';
  if (!f) return 0;
  char *line = NULL;
  size_t cap = 0;
  int nl = 0;
  long got = mg_read_line(f, &line, &cap, &nl);
  fclose(f);
  const char *why = got < -1 ? mg_read_line_strerror(got)
                    : got < 0 || !nl ? "empty or cut before its line break (an interrupted write?)"
                    : (size_t)got >= len ? "longer than a state line of mpiguide campaign"
                                         : NULL;
  if (!why) memcpy(buf, line, (size_t)got + 1);
  free(line);
  if (why) fprintf(stderr, "campaign: warning: %s: %s: ignored\n", path, why);
  return why ? -1 : 1;
}

/* Where a configuration stands: 2 done (its mark, made by the same command), 3 done by another
 * command (the spec changed), 1 interrupted (launches, no mark), 0 not begun. */
static int config_state(const char *dir, const char *line) {
  char p[1200], old[4096] = "";
  struct stat st;
  snprintf(p, sizeof p, "%s.done", dir);
  int got = read_state(p, old, sizeof old);
  if (got > 0) return strcmp(old, line) ? 3 : 2;
  snprintf(p, sizeof p, "%s/launch-1", dir);
  return stat(p, &st) == 0 ? 1 : 0;
}

/* The Slurm job of configuration dir (--sbatch: its id in dir.job): 1 with the id, else 0. job_queued:
 * 1 while squeue still lists it, with its state (PENDING, RUNNING, ...) in st; else 0. */
static int job_id(const char *dir, char *id, size_t idlen) {
  char p[1200];
  snprintf(p, sizeof p, "%s.job", dir);
  if (read_state(p, id, idlen) <= 0) return 0;
  id[strspn(id, "0123456789_")] = '\0'; /* sbatch --parsable: ID or ID;CLUSTER */
  return id[0] != '\0';
}

static int job_queued(const char *dir, char *id, size_t idlen, char *st, size_t stlen) {
  char cmd[256];
  if (!job_id(dir, id, idlen)) return 0;
  snprintf(cmd, sizeof cmd, "squeue -h -j %s -o %%T 2>/dev/null", id);
  FILE *q = popen(cmd, "r");
  if (!q) return 0;
  st[0] = '\0';
  if (!fgets(st, (int)stlen, q)) st[0] = '\0';
  pclose(q);
  st[strcspn(st, "\n")] = '\0';
  return st[0] != '\0';
}

/* How far configuration dir has got, from the files its job writes (--wait): "2 of 3 launches done"
 * (a launch is done when its raw.csv is complete, mg_check_partial), ", launch 3 measuring" when its
 * directory exists, and the time left at the mean of the done launches' times (raw.csv: its #@date,
 * the launch's start, to the file's last change), into buf. */
static void config_progress(const char *dir, long launches, char *buf, size_t len) {
  int done = 0, measuring = 0;
  double spent = 0;
  for (long k = 1; k <= launches; k++) {
    char p[1200], note[256], e[256];
    struct stat st;
    snprintf(p, sizeof p, "%s/launch-%ld", dir, k);
    if (stat(p, &st) != 0) break;
    if (mg_check_partial(p, note, sizeof note) != 0) { /* partial or nothing yet: the one being measured */
      measuring = (int)k;
      break;
    }
    done++;
    snprintf(p, sizeof p, "%s/launch-%ld/raw.csv", dir, k);
    mg_ck_meta m = {0};
    struct tm tm = {0};
    const char *date = mg_ck_read_meta(p, &m, e, sizeof e) == 0 ? mg_ck_meta_get(&m, "date") : NULL;
    const char *end = date ? strptime(date, "%Y-%m-%dT%H:%M:%SZ", &tm) : NULL;
    if (end && !*end && stat(p, &st) == 0 && st.st_mtime >= timegm(&tm)) spent += (double)(st.st_mtime - timegm(&tm));
    mg_ck_meta_free(&m);
  }
  size_t u = (size_t)snprintf(buf, len, "%d of %ld launch%s done", done, launches, launches == 1 ? "" : "es");
  if (measuring && u < len) u += (size_t)snprintf(buf + u, len - u, ", launch %d measuring", measuring);
  if (done && done < launches && spent > 0 && u < len)
    snprintf(buf + u, len - u, ", about %.0f s to go", spent / done * (double)(launches - done));
}

/* A word for sh -c: in single quotes, each ' as '\''. */
static size_t sh_quote(char *b, size_t len, const char *w) {
  size_t u = 0;
  if (u < len) b[u++] = '\'';
  for (const char *c = w; *c && u + 5 < len; c++)
    if (*c == '\'') memcpy(b + u, "'\\''", 4), u += 4;
    else b[u++] = *c;
  if (u + 1 < len) b[u++] = '\'';
  b[u < len ? u : len - 1] = '\0';
  return u;
}

/* Whether the launches in dir ran the planned layout, as their raw.csv says (#@nnodes,
 * #@ranks_per_node): a launcher line without {np} inside an allocation, for one, takes the
 * allocation's task count (srun reads SLURM_NTASKS). 1 yes (or not told), 0 after a message. */
static int layout_ran(const char *dir, int nodes, int rpn) {
  for (int k = 1; k <= 1000; k++) {
    char p[1200], *line = NULL; /* whole lines: MPICH's #@mpi_library_version exceeds any fixed buffer */
    size_t cap = 0;
    int nl;
    snprintf(p, sizeof p, "%s/launch-%d/raw.csv", dir, k);
    FILE *f = fopen(p, "r");
    if (!f) return 1;
    long nn = -1;
    char r[64] = "";
    while (mg_read_line(f, &line, &cap, &nl) >= 0 && line[0] == '#') {
      if (!strncmp(line, "#@nnodes=", 9) && mg_parse_long(line + 9, 1, INT_MAX, &nn, NULL, 0)) {
        fprintf(stderr, "campaign: %s: #@nnodes=%.40s is not a node count: not marked done\n", p, line + 9);
        free(line), fclose(f);
        return 0;
      }
      if (!strncmp(line, "#@ranks_per_node=", 17)) snprintf(r, sizeof r, "%s", line + 17);
    }
    free(line);
    fclose(f);
    char want[32];
    snprintf(want, sizeof want, "%d", rpn);
    if (nn > 0 && r[0] && (nn != nodes || strcmp(r, want))) {
      fprintf(stderr, "campaign: %s: the launch ran on %ld node(s) x %s ranks, not the planned %d x %d: the launcher "
                      "line must place it ({nodes}, {rpn}, {np}; inside salloc srun takes the allocation's task count "
                      "unless given -n {np}); not marked done: fix the spec, remove %s and rerun\n", p, nn, r, nodes, rpn, dir);
      return 0;
    }
  }
  return 1;
}

/* Run argv with stdout to log; the exit status as a shell reports it (128 + signal), -1 not started. */
static int run(char **argv, const char *log) {
  pid_t pid = fork();
  if (pid < 0) return -1;
  if (pid == 0) {
    if (!freopen(log, "w", stdout)) _exit(126);
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    execvp(argv[0], argv);
    fprintf(stderr, "mpiguide campaign: cannot start '%s': %s\n", argv[0], strerror(errno));
    _exit(127);
  }
  int status;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
    if (stop_asked == SIGTERM) kill(pid, SIGTERM); /* a killed job: pass it on (Ctrl-C reaches the child itself) */
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

static void usage(FILE *f) {
  fputs("usage: mpiguide campaign SPEC [-o|--out TREE] [--dry-run] [--sbatch [--wait]] [--only LIB-NxR]\n"
        "  Measure every configuration (MPI library x node layout) of SPEC with\n"
        "  `check --launches N` into one result tree; a rerun resumes what is missing.\n"
        "  SPEC, one statement a line ('#' comments):\n"
        "    out TREE                          the result tree (or -o TREE)\n"
        "    launches N                        launches per configuration (3)\n"
        "    layouts 1x4 2x2 4x1               NODESxRANKS_PER_NODE\n"
        "    mpi NAME MPIGUIDE LAUNCHER...      the mpiguide built for that library and its launcher;\n"
        "                                      {nodes} {rpn} {np} stand for the layout\n"
        "    sim NAME MPIGUIDE LAUNCHER...      a simulated configuration: MPIGUIDE the smpi build, LAUNCHER\n"
        "                                      smpirun (platform, selector); check --launches is this mpiguide\n"
        "    check OPTIONS...                  options of every check (-c, --sizes, --quick, ...)\n"
        "    sbatch OPTIONS...                 options of every job of --sbatch (-p, -t, ...)\n"
        "  --dry-run   print the plan and stop\n"
        "  --sbatch    a Slurm job per configuration (sbatch -N NODES --ntasks-per-node=RPN running\n"
        "              this campaign with --only); a rerun leaves queued jobs alone and submits\n"
        "              what ended unfinished anew (it resumes)\n"
        "  --wait      with --sbatch: wait until the jobs have ended, then say what is done\n"
        "  --only LIB-NxR  this configuration alone (what a job of --sbatch runs)\n"
        "  -h, --help  this text\n"
        "  Compare: mpiguide report TREE -o report.html (docs/campaign.md)\n",
        f);
}

/* --sbatch: configuration k (name, layout) as a job of its own layout, running this campaign with --only
 * name; sbatch's answer (the job id) into dir.job. 0, or sbatch's exit status. */
static int submit(const cp_spec *S, int l, const char *name, const char *dir, const char *self, const char *spec_abs,
                  const char *tree_abs) {
  char nodes[24], rpn[48], jname[64], jout[4200], wrap[16384], job[1200];
  char *av[MG_CP_ARGS + 16];
  int n = 0;
  size_t u = 0;
  snprintf(nodes, sizeof nodes, "%d", S->nodes[l]);
  snprintf(rpn, sizeof rpn, "--ntasks-per-node=%d", S->rpn[l]);
  snprintf(jname, sizeof jname, "mg-%s", name);
  snprintf(jout, sizeof jout, "%s/%s.slurm.out", tree_abs, name);
  u += sh_quote(wrap + u, sizeof wrap - u, self);
  u += (size_t)snprintf(wrap + u, sizeof wrap - u, " campaign ");
  u += sh_quote(wrap + u, sizeof wrap - u, spec_abs);
  u += (size_t)snprintf(wrap + u, sizeof wrap - u, " -o ");
  u += sh_quote(wrap + u, sizeof wrap - u, tree_abs);
  snprintf(wrap + u, sizeof wrap - u, " --only %s", name);
  av[n++] = "sbatch", av[n++] = "--parsable", av[n++] = "-J", av[n++] = jname, av[n++] = "-N", av[n++] = nodes;
  av[n++] = rpn, av[n++] = "-o", av[n++] = jout;
  for (int i = 0; i < S->nsbatch; i++) av[n++] = S->sbatch[i];
  av[n++] = "--wrap", av[n++] = wrap, av[n] = NULL;
  snprintf(job, sizeof job, "%s.job", dir);
  return run(av, job);
}

/* The configurations of a spec and where each stands. */
typedef struct {
  int ncfg, todo, changed, queued, nsel;
  char dirs[MG_CP_MAX * MG_CP_MAX][1100], names[MG_CP_MAX * MG_CP_MAX][64];
  int state[MG_CP_MAX * MG_CP_MAX]; /* config_state, or 4: its job is queued (--sbatch) */
  int sel[MG_CP_MAX * MG_CP_MAX];   /* --only */
} cp_plan;

/* The done mark's line of configuration (m, l) into line. */
static void mark_line(const cp_spec *S, int m, int l, const char *dir, char *line, size_t len) {
  char *av[2 * MG_CP_ARGS + 16];
  int first, n = check_argv(S, m, l, (char *)dir, 0, av, &first, line, len);
  for (int i = first; i < n; i++) free(av[i]);
}

/* The plan, printed before anything runs. 0, or 2 after a message (--only unknown, a changed spec). */
static int make_plan(const cp_spec *S, const char *spec, const char *only, int sbatch, cp_plan *P) {
  char line[4096], jid[64], jst[64];
  P->ncfg = S->nmpi * S->nlayouts;
  for (int m = 0, k = 0; m < S->nmpi; m++)
    for (int l = 0; l < S->nlayouts; l++, k++) {
      snprintf(P->names[k], sizeof P->names[k], "%s-%dx%d", S->mpi[m].name, S->nodes[l], S->rpn[l]);
      snprintf(P->dirs[k], sizeof P->dirs[k], "%s/%s", S->out, P->names[k]);
      P->nsel += P->sel[k] = !only || !strcmp(only, P->names[k]);
    }
  if (!P->nsel) {
    fprintf(stderr, "mpiguide campaign: --only %s: no such configuration in %s; it has", only, spec);
    for (int k = 0; k < P->ncfg; k++) fprintf(stderr, " %s", P->names[k]);
    return fputc('\n', stderr), 2;
  }
  printf("campaign %s: %d configuration(s) x %ld launch(es) into %s%s\n", spec, P->nsel, S->launches, S->out,
         sbatch ? ", a Slurm job each (--sbatch)" : "");
  for (int m = 0, k = 0; m < S->nmpi; m++)
    for (int l = 0; l < S->nlayouts; l++, k++) {
      if (!P->sel[k]) continue;
      mark_line(S, m, l, P->dirs[k], line, sizeof line);
      int st = P->state[k] = config_state(P->dirs[k], line);
      if (st < 2 && !only && job_queued(P->dirs[k], jid, sizeof jid, jst, sizeof jst)) st = P->state[k] = 4;
      P->todo += st < 2, P->changed += st == 3, P->queued += st == 4;
      char prog[160] = "", p1[1200];
      struct stat ps;
      snprintf(p1, sizeof p1, "%s/launch-1", P->dirs[k]);
      if ((st == 1 || st == 4) && stat(p1, &ps) == 0) config_progress(P->dirs[k], S->launches, prog, sizeof prog);
      printf("  [%d/%d] %s: ", k + 1, P->ncfg, P->names[k]);
      if (st == 4) printf("queued: job %s (%s), left alone", jid, jst);
      else
        printf("%s", st == 2   ? "done (skipped)"
                     : st == 3 ? "done by another command (the spec changed since): refused"
                     : st == 1 ? "interrupted: resumed (--resume)"
                               : "to run");
      printf("\n    %s%s\n", line, st == 1 ? " (with --resume)" : "");
      if (*prog) printf("    so far: %s\n", prog); /* from its launches' files (config_progress) */
    }
  if (P->changed)
    return fprintf(stderr, "mpiguide campaign: %d configuration(s) in %s were measured by another command (their "
                           ".done mark holds it): give the changed spec a new tree (-o)\n", P->changed, S->out), 2;
  return fflush(stdout), 0;
}

/* TREE and TREE/campaign.spec, what `report TREE` reads: the configurations. 0, or 1 after a message. */
static int make_tree(const cp_spec *S, const cp_plan *P) {
  char p[1200];
  snprintf(p, sizeof p, "%s", S->out); /* mkdir -p */
  for (char *q = p + 1;; q++)
    if (*q == '/' || !*q) {
      char c = *q;
      *q = '\0';
      if (mkdir(p, 0777) != 0 && errno != EEXIST)
        return fprintf(stderr, "mpiguide campaign: cannot create %s: %s\n", p, strerror(errno)), 1;
      if (!(*q = c)) break;
    }
  snprintf(p, sizeof p, "%s/campaign.spec", S->out);
  FILE *cf = fopen(p, "w");
  if (!cf) return fprintf(stderr, "mpiguide campaign: %s: %s\n", p, strerror(errno)), 1;
  for (int k = 0; k < P->ncfg; k++) fprintf(cf, "config %s\n", P->names[k]);
  fprintf(cf, "configs %d\n", P->ncfg); /* the last line: report TREE refuses a file cut before it */
  if (fclose(cf) != 0) return fprintf(stderr, "mpiguide campaign: %s: %s\n", p, strerror(errno)), 1;
  return 0;
}

/* --sbatch: a job per configuration to run; with --wait, until squeue lists none of them. The exit code. */
static int run_jobs(const cp_spec *S, const char *spec, cp_plan *P, int wait) {
  char self[4096], spec_abs[4096], tree_abs[4096], jid[64], jst[64], p[1200], line[4096];
  ssize_t sl = readlink("/proc/self/exe", self, sizeof self - 1);
  if (sl <= 0 || !realpath(spec, spec_abs) || !realpath(S->out, tree_abs))
    return fprintf(stderr, "mpiguide campaign: cannot resolve this executable, %s or %s\n", spec, S->out), 1;
  self[sl] = '\0';
  int failed = 0, ran = 0;
  for (int m = 0, k = 0; m < S->nmpi && !stop_asked; m++)
    for (int l = 0; l < S->nlayouts && !stop_asked; l++, k++) {
      if (P->state[k] >= 2) continue;
      int st = submit(S, l, P->names[k], P->dirs[k], self, spec_abs, tree_abs);
      if (st == 0 && job_id(P->dirs[k], jid, sizeof jid)) {
        fprintf(stderr, "campaign: [%d/%d] %s: submitted job %s%s\n", k + 1, P->ncfg, P->names[k], jid,
                P->state[k] == 1 ? " (it resumes)" : "");
        ran++, P->state[k] = 4;
      } else {
        failed++;
        snprintf(p, sizeof p, "%s.job", P->dirs[k]);
        unlink(p);
        fprintf(stderr, "campaign: [%d/%d] %s: sbatch failed (exit %d, its message above)\n", k + 1, P->ncfg,
                P->names[k], st);
      }
    }
  if (!wait) {
    fprintf(stderr, "campaign: %d job(s) submitted%s; the same command shows which are queued and submits anew what "
                    "ended unfinished (--wait waits for them)\n", ran, failed ? ", some submissions failed" : "");
    return failed || stop_asked ? 1 : 0;
  }
  char was[4096] = "";
  while (!stop_asked) {
    char now[4096] = "";
    size_t u = 0;
    int left = 0;
    for (int k = 0; k < P->ncfg; k++)
      if (P->state[k] == 4 && job_queued(P->dirs[k], jid, sizeof jid, jst, sizeof jst)) {
        char prog[160]; /* its launches, from the files the job writes */
        left++;
        config_progress(P->dirs[k], S->launches, prog, sizeof prog);
        if (u < sizeof now)
          u += (size_t)snprintf(now + u, sizeof now - u, "\n  %s: job %s %s, %s", P->names[k], jid, jst, prog);
      }
    if (!left) break;
    if (strcmp(now, was)) fprintf(stderr, "campaign: waiting for %d job(s):%s\n", left, now);
    snprintf(was, sizeof was, "%s", now);
    sleep(3); /* a signal ends it early */
  }
  if (stop_asked)
    return fprintf(stderr, "campaign: stopped waiting; the jobs go on (scancel stops them); the same command waits "
                           "again\n"), 1;
  int done = 0;
  for (int m = 0, k = 0; m < S->nmpi; m++)
    for (int l = 0; l < S->nlayouts; l++, k++) {
      mark_line(S, m, l, P->dirs[k], line, sizeof line);
      if (config_state(P->dirs[k], line) == 2) done++;
      else fprintf(stderr, "campaign: %s: its job ended without finishing it (%s.slurm.out)\n", P->names[k], P->dirs[k]);
    }
  if (done < P->ncfg)
    return fprintf(stderr, "campaign: %d of %d configuration(s) done; the same command submits the rest anew\n", done,
                   P->ncfg), 1;
  fprintf(stderr, "campaign: done; compare the configurations: mpiguide report %s -o report.html\n", S->out);
  return 0;
}

/* The configurations to run, here, one after the other. The exit code. */
static int run_here(const cp_spec *S, cp_plan *P) {
  char line[4096], p[1200];
  int failed = 0, ran = 0;
  for (int m = 0, k = 0; m < S->nmpi && !stop_asked; m++)
    for (int l = 0; l < S->nlayouts && !stop_asked; l++, k++) {
      if (!P->sel[k] || P->state[k] >= 2) continue;
      char *av[2 * MG_CP_ARGS + 16];
      int first, n = check_argv(S, m, l, P->dirs[k], P->state[k] == 1, av, &first, line, sizeof line);
      ran++;
      fprintf(stderr, "campaign: [%d/%d] %s (%d of %d to run)%s\n", k + 1, P->ncfg, P->names[k], ran, P->todo,
              P->state[k] == 1 ? ": resuming" : "");
      char log[1200];
      snprintf(log, sizeof log, "%s.log", P->dirs[k]);
      int st = run(av, log);
      for (int i = first; i < n; i++) free(av[i]);
      if (st == 0 && !layout_ran(P->dirs[k], S->nodes[l], S->rpn[l])) st = -2;
      if (st == 0) {
        snprintf(p, sizeof p, "%s.done", P->dirs[k]);
        FILE *d = fopen(p, "w");
        if (d) fprintf(d, "%s\n", line), fclose(d); /* the command that finished (exit 0) */
      } else {
        failed++;
        if (st != -2)
          fprintf(stderr, "campaign: %s: check exited with %d (its summary: %s)%s\n", P->names[k], st, log,
                  stop_asked ? "" : "; going on with the next configuration");
      }
    }
  if (stop_asked) return fprintf(stderr, "campaign: interrupted; the same command measures only what is missing\n"), 1;
  if (failed)
    return fprintf(stderr, "campaign: %d configuration(s) did not finish; the same command resumes them\n", failed), 1;
  fprintf(stderr, "campaign: done; compare the configurations: mpiguide report %s -o report.html\n", S->out);
  return 0;
}

/* The options (cmd_opts.h): the parser's, the man page's and the completion's one list. */
/* (prefixed CP_: cmd_check.h, included for the progress of its launches, has check's O_ names) */
#define CP_OPTIONS(X)                                                                               \
  X(CP_HELP, "help", 'h', MG_OPT_FLAG) X(CP_OUT, "out", 'o', MG_OPT_ARG)                            \
  X(CP_DRY, "dry-run", 0, MG_OPT_FLAG) X(CP_SBATCH, "sbatch", 0, MG_OPT_FLAG)                        \
  X(CP_WAIT, "wait", 0, MG_OPT_FLAG) X(CP_ONLY, "only", 0, MG_OPT_ARG)
enum { CP_OPTIONS(MG_OPT_ENUM) O_CP_N };
static const mg_opt cp_opts[O_CP_N] = {CP_OPTIONS(MG_OPT_ROW)};

int mg_cmd_campaign(int argc, char **argv) {
  char e[256];
  mg_opt_vals v;
  if (mg_opt_parse(argc, argv, cp_opts, O_CP_N, &v, e, sizeof e) && !v.given[O_CP_HELP])
    return fprintf(stderr, "mpiguide campaign: %s\n", e), usage(stderr), mg_opt_vals_free(&v), 2;
  if (v.given[O_CP_HELP]) return usage(stdout), mg_opt_vals_free(&v), 0;
  if (v.npos > 1) return fprintf(stderr, "mpiguide campaign: unexpected '%s'\n", v.pos[1]), usage(stderr), mg_opt_vals_free(&v), 2;
  const char *spec = v.npos ? v.pos[0] : NULL, *out = v.val[O_CP_OUT], *only = v.val[O_CP_ONLY];
  int dry = v.given[O_CP_DRY], sbatch = v.given[O_CP_SBATCH], wait = v.given[O_CP_WAIT];
  mg_opt_vals_free(&v); /* the values point into argv */
  if (!spec) return fprintf(stderr, "mpiguide campaign: give a SPEC file\n"), usage(stderr), 2;
  if (wait && !sbatch) return fprintf(stderr, "mpiguide campaign: --wait waits for the jobs of --sbatch: give both\n"), 2;
  if (sbatch && only)
    return fprintf(stderr, "mpiguide campaign: --only runs one configuration here (what a job of --sbatch does): not "
                           "with --sbatch\n"), 2;
  cp_spec S;
  memset(&S, 0, sizeof S);
  int rc = parse_spec(spec, &S);
  if (rc) return free(S.text), rc;
  if (out) snprintf(S.out, sizeof S.out, "%s", out);
  if (!S.out[0]) return free(S.text), fprintf(stderr, "mpiguide campaign: %s: no out line and no -o TREE\n", spec), 2;
  static cp_plan P;
  memset(&P, 0, sizeof P);
  if ((rc = make_plan(&S, spec, only, sbatch, &P))) return free(S.text), rc;
  if (dry || (!P.todo && !(P.queued && wait))) {
    if (!P.todo && !P.queued)
      printf("campaign: every configuration is done; compare them: mpiguide report %s -o report.html\n", S.out);
    else if (!P.todo)
      printf("campaign: %d job(s) queued, nothing to submit; the same command with --wait waits for them\n", P.queued);
    return free(S.text), 0;
  }
  if ((rc = make_tree(&S, &P))) return free(S.text), rc;
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal; /* no SA_RESTART: waitpid returns EINTR */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  rc = sbatch ? run_jobs(&S, spec, &P, wait) : run_here(&S, &P);
  free(S.text);
  return rc;
}
