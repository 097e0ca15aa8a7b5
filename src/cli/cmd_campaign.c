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
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "util/text.h"

#define MG_CP_MAX 16   /* layouts, libraries */
#define MG_CP_ARGS 64  /* words of a launcher, of the check options */

typedef struct {
  char name[32], exe[1024];
  char *launcher[MG_CP_ARGS];
  int nlauncher;
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
  char *text; /* the spec's words point into it */
} cp_spec;

static volatile sig_atomic_t stop_asked;
static void on_signal(int sig) { stop_asked = sig; }

static int word_ok(const char *w) { return strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") == strlen(w); }

/* Parse SPEC (docs/campaign.md): one statement a line, '#' to the end of a line a comment, words
 * split on blanks. 0, or 2 after a message naming file:line. */
static int parse_spec(const char *path, cp_spec *S) {
  FILE *f = fopen(path, "r");
  if (!f) return fprintf(stderr, "mpiguide campaign: %s: cannot open: %s\n", path, strerror(errno)), 2;
  fseek(f, 0, SEEK_END);
  long size = ftell(f);
  rewind(f);
  S->text = malloc((size_t)size + 2);
  if (!S->text || fread(S->text, 1, (size_t)size, f) != (size_t)size) {
    fclose(f);
    return fprintf(stderr, "mpiguide campaign: %s: cannot read\n", path), 2;
  }
  fclose(f);
  S->text[size] = '\0';
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
      char *end;
      S->launches = strtol(w[1], &end, 10);
      if (*end || S->launches < 1 || S->launches > 1000)
        return fprintf(stderr, "mpiguide campaign: %s:%ld: launches '%s': a number from 1 to 1000\n", path, lineno, w[1]), 2;
    } else if (!strcmp(w[0], "layouts") && n >= 2) {
      for (int i = 1; i < n; i++) {
        int a, b;
        char c;
        if (sscanf(w[i], "%dx%d%c", &a, &b, &c) != 2 || a < 1 || b < 1 || a > 100000 || b > 100000)
          return fprintf(stderr, "mpiguide campaign: %s:%ld: layout '%s': NODESxRANKS_PER_NODE, e.g. 2x4\n", path,
                         lineno, w[i]), 2;
        if (S->nlayouts == MG_CP_MAX)
          return fprintf(stderr, "mpiguide campaign: %s:%ld: more than %d layouts\n", path, lineno, MG_CP_MAX), 2;
        S->nodes[S->nlayouts] = a, S->rpn[S->nlayouts++] = b;
      }
    } else if (!strcmp(w[0], "mpi") && n >= 4) {
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
    } else {
      return fprintf(stderr, "mpiguide campaign: %s:%ld: '%s': expected out DIR, launches N, layouts NxR..., "
                             "mpi NAME MPIGUIDE LAUNCHER... or check OPTIONS...\n", path, lineno, w[0]), 2;
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
  av[n++] = (char *)S->mpi[m].exe, av[n++] = "check", av[n++] = "--launches", av[n++] = nl;
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

/* Where a configuration stands: 2 done (its mark, made by the same command), 3 done by another
 * command (the spec changed), 1 interrupted (launches, no mark), 0 not begun. */
static int config_state(const char *dir, const char *line) {
  char p[1200], old[4096] = "";
  struct stat st;
  snprintf(p, sizeof p, "%s.done", dir);
  FILE *f = fopen(p, "r");
  if (f) {
    if (!fgets(old, sizeof old, f)) old[0] = '\0';
    fclose(f);
    old[strcspn(old, "\n")] = '\0';
    return strcmp(old, line) ? 3 : 2;
  }
  snprintf(p, sizeof p, "%s/launch-1", dir);
  return stat(p, &st) == 0 ? 1 : 0;
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
    int nn = -1;
    char r[64] = "";
    while (mg_read_line(f, &line, &cap, &nl) >= 0 && line[0] == '#') {
      if (!strncmp(line, "#@nnodes=", 9)) nn = atoi(line + 9);
      if (!strncmp(line, "#@ranks_per_node=", 17)) snprintf(r, sizeof r, "%s", line + 17);
    }
    free(line);
    fclose(f);
    char want[32];
    snprintf(want, sizeof want, "%d", rpn);
    if (nn > 0 && r[0] && (nn != nodes || strcmp(r, want))) {
      fprintf(stderr, "campaign: %s: the launch ran on %d node(s) x %s ranks, not the planned %d x %d: the launcher "
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
  fputs("usage: mpiguide campaign SPEC [-o TREE] [--dry-run]\n"
        "  Measure every configuration (MPI library x node layout) of SPEC with\n"
        "  `check --launches N` into one result tree; a rerun resumes what is missing.\n"
        "  SPEC, one statement a line ('#' comments):\n"
        "    out TREE                          the result tree (or -o TREE)\n"
        "    launches N                        launches per configuration (3)\n"
        "    layouts 1x4 2x2 4x1               NODESxRANKS_PER_NODE\n"
        "    mpi NAME MPIGUIDE LAUNCHER...      the mpiguide built for that library and its launcher;\n"
        "                                      {nodes} {rpn} {np} stand for the layout\n"
        "    check OPTIONS...                  options of every check (-c, --sizes, --quick, ...)\n"
        "  --dry-run   print the plan and stop\n"
        "  Compare: mpiguide report TREE -o report.html (docs/campaign.md)\n",
        f);
}

int mg_cmd_campaign(int argc, char **argv) {
  const char *spec = NULL, *out = NULL;
  int dry = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) return usage(stdout), 0;
    if (!strcmp(argv[i], "--dry-run")) dry = 1;
    else if ((!strcmp(argv[i], "-o") || !strcmp(argv[i], "--out")) && i + 1 < argc) out = argv[++i];
    else if (argv[i][0] == '-' || spec) return fprintf(stderr, "mpiguide campaign: unexpected '%s'\n", argv[i]), usage(stderr), 2;
    else spec = argv[i];
  }
  if (!spec) return fprintf(stderr, "mpiguide campaign: give a SPEC file\n"), usage(stderr), 2;
  cp_spec S;
  memset(&S, 0, sizeof S);
  int rc = parse_spec(spec, &S);
  if (rc) return free(S.text), rc;
  if (out) snprintf(S.out, sizeof S.out, "%s", out);
  if (!S.out[0]) return free(S.text), fprintf(stderr, "mpiguide campaign: %s: no out line and no -o TREE\n", spec), 2;

  /* the plan, before anything runs */
  int ncfg = S.nmpi * S.nlayouts, todo = 0, changed = 0;
  char dirs[MG_CP_MAX * MG_CP_MAX][1100], line[4096];
  int state[MG_CP_MAX * MG_CP_MAX];
  printf("campaign %s: %d configuration(s) x %ld launch(es) into %s\n", spec, ncfg, S.launches, S.out);
  for (int m = 0, k = 0; m < S.nmpi; m++)
    for (int l = 0; l < S.nlayouts; l++, k++) {
      char *av[2 * MG_CP_ARGS + 16];
      int first;
      snprintf(dirs[k], sizeof dirs[k], "%s/%s-%dx%d", S.out, S.mpi[m].name, S.nodes[l], S.rpn[l]);
      int n = check_argv(&S, m, l, dirs[k], 0, av, &first, line, sizeof line);
      for (int i = first; i < n; i++) free(av[i]);
      state[k] = config_state(dirs[k], line);
      todo += state[k] < 2;
      changed += state[k] == 3;
      printf("  [%d/%d] %s-%dx%d: %s\n    %s%s\n", k + 1, ncfg, S.mpi[m].name, S.nodes[l], S.rpn[l],
             state[k] == 2   ? "done (skipped)"
             : state[k] == 3 ? "done by another command (the spec changed since): refused"
             : state[k] == 1 ? "interrupted: resumed (--resume)"
                             : "to run",
             line, state[k] == 1 ? " (with --resume)" : "");
    }
  if (changed)
    return free(S.text), fprintf(stderr, "mpiguide campaign: %d configuration(s) in %s were measured by another "
                                         "command (their .done mark holds it): give the changed spec a new tree (-o)\n",
                                 changed, S.out), 2;
  fflush(stdout);
  if (dry || !todo) {
    if (!todo) printf("campaign: every configuration is done; compare them: mpiguide report %s -o report.html\n", S.out);
    return free(S.text), 0;
  }

  char p[1200];
  snprintf(p, sizeof p, "%s", S.out); /* mkdir -p */
  for (char *q = p + 1;; q++)
    if (*q == '/' || !*q) {
      char c = *q;
      *q = '\0';
      if (mkdir(p, 0777) != 0 && errno != EEXIST)
        return free(S.text), fprintf(stderr, "mpiguide campaign: cannot create %s: %s\n", p, strerror(errno)), 1;
      if (!(*q = c)) break;
    }
  snprintf(p, sizeof p, "%s/campaign.spec", S.out); /* what `report TREE` reads: the configurations */
  FILE *cf = fopen(p, "w");
  if (!cf) return free(S.text), fprintf(stderr, "mpiguide campaign: %s: %s\n", p, strerror(errno)), 1;
  for (int m = 0; m < S.nmpi; m++)
    for (int l = 0; l < S.nlayouts; l++) fprintf(cf, "config %s-%dx%d\n", S.mpi[m].name, S.nodes[l], S.rpn[l]);
  fclose(cf);

  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_signal; /* no SA_RESTART: waitpid returns EINTR */
  sigaction(SIGINT, &sa, NULL);
  sigaction(SIGTERM, &sa, NULL);
  int failed = 0, ran = 0;
  for (int m = 0, k = 0; m < S.nmpi && !stop_asked; m++)
    for (int l = 0; l < S.nlayouts && !stop_asked; l++, k++) {
      if (state[k] == 2) continue;
      char *av[2 * MG_CP_ARGS + 16];
      int first, n = check_argv(&S, m, l, dirs[k], state[k] == 1, av, &first, line, sizeof line);
      ran++;
      fprintf(stderr, "campaign: [%d/%d] %s (%d of %d to run)%s\n", k + 1, ncfg, dirs[k] + strlen(S.out) + 1, ran, todo,
              state[k] == 1 ? ": resuming" : "");
      char log[1200];
      snprintf(log, sizeof log, "%s.log", dirs[k]);
      int st2 = run(av, log);
      for (int i = first; i < n; i++) free(av[i]);
      if (st2 == 0 && !layout_ran(dirs[k], S.nodes[l], S.rpn[l])) st2 = -2;
      if (st2 == 0) {
        snprintf(p, sizeof p, "%s.done", dirs[k]);
        FILE *d = fopen(p, "w");
        if (d) fprintf(d, "%s\n", line), fclose(d); /* the command that finished (exit 0) */
      } else {
        failed++;
        if (st2 != -2)
          fprintf(stderr, "campaign: %s: check exited with %d (its summary: %s)%s\n", dirs[k] + strlen(S.out) + 1, st2,
                  log, stop_asked ? "" : "; going on with the next configuration");
      }
    }
  free(S.text);
  if (stop_asked) {
    fprintf(stderr, "campaign: interrupted; the same command measures only what is missing\n");
    return 1;
  }
  if (failed) {
    fprintf(stderr, "campaign: %d configuration(s) did not finish; the same command resumes them\n", failed);
    return 1;
  }
  fprintf(stderr, "campaign: done; compare the configurations: mpiguide report %s -o report.html\n", S.out);
  return 0;
}
