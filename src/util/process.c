/*
 * A process before MPI_Init (process.h): its MPI library from the link map, its rank from the
 * launcher's environment, the MPIGUIDE off switch, and executing itself again. Called from ELF
 * constructors, in every process a site's LD_PRELOAD reaches: cheap (no file opened unless it
 * executes again) and silent (messages are the callers').
 */
#define _GNU_SOURCE /* dl_iterate_phdr */
#include "util/process.h"

#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

extern char **environ;

static const struct {
  const char *prefix; /* of the file name: libmpi.so.40 matches libmpi.so.40.30.4 too */
  unsigned kind;
} known[] = {
    {"libmpi.so.40", MG_PROC_OPENMPI},
    {"libmpich.so.12", MG_PROC_MPICH},
    {"libmpi.so.12", MG_PROC_MPICH},
    {"libmpiguide.so", MG_PROC_LIBMPIGUIDE},
};

static int add_lib(struct dl_phdr_info *info, size_t size, void *data) {
  const char *name = info->dlpi_name, *slash = name ? strrchr(name, '/') : NULL;
  if (!name || !*name) return 0; /* the executable itself */
  if (slash) name = slash + 1;
  for (size_t i = 0; i < sizeof known / sizeof *known; i++)
    if (strncmp(name, known[i].prefix, strlen(known[i].prefix)) == 0) *(unsigned *)data |= known[i].kind;
  return 0;
}

unsigned mg_proc_libs(void) {
  unsigned libs = 0;
  dl_iterate_phdr(add_lib, &libs);
  return libs;
}

const char *mg_proc_mpi_name(unsigned kind) { return kind == MG_PROC_OPENMPI ? "Open MPI" : "MPICH"; }

int mg_proc_off(const char *value) {
  static const char *const off[] = {"off", "0", "no", "false"};
  for (size_t i = 0; value && i < sizeof off / sizeof *off; i++)
    if (strcasecmp(value, off[i]) == 0) return 1;
  return 0;
}

int mg_proc_rank(void) {
  static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"};
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
    const char *v = getenv(vars[i]);
    char *end;
    if (!v || !*v) continue;
    errno = 0;
    long r = strtol(v, &end, 10);
    if (!*end && !errno && r >= 0 && r <= INT_MAX) return (int)r;
  }
  return -1;
}

int mg_proc_guarded(const char *guard) {
  const char *v = getenv(guard);
  char *end;
  return v && *v && strtol(v, &end, 10) == (long)getpid() && !*end;
}

int mg_proc_exe_is_loader(void) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return 1; /* no /proc: cannot execute it again either */
  exe[n] = '\0';
  const char *base = strrchr(exe, '/') ? strrchr(exe, '/') + 1 : exe;
  /* ld-linux-x86-64.so.2, ld-linux-aarch64.so.1, ld64.so.2, ld-2.31.so */
  return strncmp(base, "ld-", 3) == 0 || strncmp(base, "ld64.so", 7) == 0;
}

/* "NAME=value" into a fresh string, NULL when out of memory. */
static char *setting(const char *name, const char *value) {
  size_t n = strlen(name) + strlen(value) + 2;
  char *s = malloc(n);
  if (s) snprintf(s, n, "%s=%s", name, value);
  return s;
}

static int is_var(const char *entry, const char *name) {
  size_t n = strlen(name);
  return strncmp(entry, name, n) == 0 && entry[n] == '=';
}

int mg_proc_reexec(char **argv, const char *preload, const char *guard) {
  size_t n = 0;
  while (environ && environ[n]) n++;
  char **env = malloc((n + 3) * sizeof *env), pid[24];
  if (!env) return -1;
  size_t k = 0;
  for (size_t i = 0; i < n; i++)
    if (!is_var(environ[i], "LD_PRELOAD") && !is_var(environ[i], guard)) env[k++] = environ[i];
  snprintf(pid, sizeof pid, "%ld", (long)getpid());
  char *pre = preload && *preload ? setting("LD_PRELOAD", preload) : NULL, *g = setting(guard, pid);
  int e = ENOMEM;
  if (g && (pre || !preload || !*preload)) {
    if (pre) env[k++] = pre;
    env[k++] = g;
    env[k] = NULL;
    execve("/proc/self/exe", argv, env);
    e = errno;
  }
  free(pre);
  free(g);
  free(env);
  errno = e;
  return -1;
}
