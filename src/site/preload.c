/*
 * libmpiguide-preload.so: what a site puts in LD_PRELOAD for every process (docs/library.md,
 * "Enabling it for a whole site"). It links libc only, no MPI. Its constructor
 *   - does nothing when MPIGUIDE is off, when libmpiguide is loaded already, when the process has
 *     no MPI library (a shell, ls, srun, mpirun: a walk of the link map, nothing opened), when
 *     it executed this process once already (MG_PROC_GUARD_PRELOAD holds the process id), or in the
 *     mpiguide command (it exports mpiguide_site_skip: its measurements must stay the library's);
 *   - otherwise finds the libmpiguide built for the MPI library the program has loaded
 *     (Open MPI's libmpi.so.40, MPICH's libmpich.so.12), see find_lib(), and executes the program
 *     again (/proc/self/exe, the same argv) with it first in LD_PRELOAD, this library kept there
 *     (in that image libmpiguide sets LD_PRELOAD back to what it was, for the program's
 *     children: src/lib/loadcheck.c);
 *   - when there is none, or the program cannot be executed again, it runs untuned, and says so
 *     on one line of rank 0 (the launcher's rank variables; a process without one counts as 0).
 * Not reached: a program that loads its MPI library later (dlopen: Python's mpi4py), a setuid
 * program (the loader ignores LD_PRELOAD there), a program started as `ld.so PROGRAM`.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/process.h"

#define MG_SHIM_NAME "libmpiguide-preload.so"

#ifndef MG_LIBDIR
#define MG_LIBDIR "lib" /* CMAKE_INSTALL_LIBDIR of a per-MPI root */
#endif
#ifndef MG_FLAVOR
#define MG_FLAVOR "" /* the MPI of the build this copy comes from (CMake) */
#endif

static const struct {
  unsigned kind;
  const char *dir; /* the per-MPI root's folder beside this library, and a build tree's folder */
  const char *var; /* the variable that names its libmpiguide */
} mpis[] = {
    {MG_PROC_OPENMPI, "openmpi", "MPIGUIDE_LIB_OPENMPI"},
    {MG_PROC_MPICH, "mpich", "MPIGUIDE_LIB_MPICH"},
};

/* One line on stderr, from rank 0 (or a process no launcher numbered) only. */
__attribute__((format(printf, 1, 2))) static void say(const char *fmt, ...) {
  if (mg_proc_rank() > 0) return;
  va_list ap;
  va_start(ap, fmt);
  fputs("mpiguide: warning: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

static int readable(const char *path) { return access(path, R_OK) == 0; }

/*
 * The libmpiguide of MPI i into out, and 0; -1 with why not in why. In order:
 *   $MPIGUIDE_LIB_<MPI> (used as it is: a path that cannot be read is an error, not skipped);
 *   <here>/<mpi>/lib/libmpiguide.so.0   the Debian packages: here = /usr/lib/<multiarch>/mpiguide
 *   <here>/libmpiguide.so.0             `cmake --install`, of the MPI this copy was built for
 *   <here>/../<mpi>/libmpiguide.so.0    a source tree's build/<mpi> (scripts/build.sh)
 * where here is this library's folder.
 */
static int find_lib(size_t i, char *out, size_t len, char *why, size_t wlen) {
  const char *v = getenv(mpis[i].var);
  if (v && *v) {
    snprintf(out, len, "%s", v);
    if (readable(out)) return 0;
    snprintf(why, wlen, "%s='%.600s': %s", mpis[i].var, v, strerror(errno));
    return -1;
  }
  Dl_info self;
  char here[PATH_MAX];
  if (!dladdr((void *)find_lib, &self) || !self.dli_fname || !realpath(self.dli_fname, here)) {
    snprintf(why, wlen, "%s is not set, and where " MG_SHIM_NAME " is is not known", mpis[i].var);
    return -1;
  }
  *strrchr(here, '/') = '\0';
  const char *const forms[] = {"%s/%s/" MG_LIBDIR "/libmpiguide.so.0", "%s/libmpiguide.so.0",
                               "%s/../%s/libmpiguide.so.0"};
  size_t k = (size_t)snprintf(why, wlen, "%s is not set, and there is none at", mpis[i].var);
  for (size_t f = 0; f < sizeof forms / sizeof *forms; f++) {
    if (f == 1 && strcmp(MG_FLAVOR, mpis[i].dir) != 0) continue;
    if (f == 1)
      snprintf(out, len, forms[f], here);
    else
      snprintf(out, len, forms[f], here, mpis[i].dir);
    if (readable(out)) return 0;
    if (k < wlen) k += (size_t)snprintf(why + k, wlen - k, "%s %s", f ? "," : "", out);
  }
  return -1;
}

__attribute__((constructor)) static void mg_preload(int argc, char **argv, char **envp) {
  if (mg_proc_off(getenv("MPIGUIDE"))) return;
  unsigned libs = mg_proc_libs();
  if ((libs & MG_PROC_LIBMPIGUIDE) || !(libs & (MG_PROC_OPENMPI | MG_PROC_MPICH)) ||
      mg_proc_guarded(MG_PROC_GUARD_PRELOAD))
    return;
  /* the mpiguide command measures the library's own operations (src/cli/main.c) */
  if (dlsym(RTLD_DEFAULT, "mpiguide_site_skip")) return;
  if ((libs & MG_PROC_OPENMPI) && (libs & MG_PROC_MPICH)) {
    say("the program has loaded both Open MPI and MPICH; it runs untuned (" MG_SHIM_NAME ")");
    return;
  }
  size_t i = (libs & MG_PROC_OPENMPI) ? 0 : 1;
  const char *name = mg_proc_mpi_name(mpis[i].kind);
  char lib[PATH_MAX + 64], why[1200];
  if (find_lib(i, lib, sizeof lib, why, sizeof why) != 0) {
    say("no libmpiguide for %s: this job runs untuned (%s; install mpiguide-%s, or set %s)", name, why, mpis[i].dir,
        mpis[i].var);
    return;
  }
  if (mg_proc_exe_is_loader()) {
    say("the program was started through the dynamic loader; it runs untuned (put %s in LD_PRELOAD)", lib);
    return;
  }
  const char *old = getenv("LD_PRELOAD");
  size_t n = strlen(lib) + (old ? strlen(old) : 0) + 2;
  char *preload = malloc(n);
  if (preload) {
    snprintf(preload, n, "%s%s%s", lib, old && *old ? " " : "", old ? old : "");
    mg_proc_reexec(argv, preload, MG_PROC_GUARD_PRELOAD);
  }
  int e = preload ? errno : ENOMEM;
  free(preload);
  say("cannot execute the program again with %s in LD_PRELOAD (%s); it runs untuned", lib, strerror(e));
}
