/*
 * libmpiguide's check of the program's MPI library when it is loaded, before main (an ELF
 * constructor): libmpiguide built for Open MPI in a program of MPICH, or the reverse, would pass
 * its handles to the other library (an "Invalid communicator" abort or a segfault at the first
 * call). The other MPI's library in the link map (util/process.h) tells it before any MPI call.
 *
 * Preloaded (an entry of LD_PRELOAD is this file), it takes itself out of LD_PRELOAD and executes
 * the program again (MG_PROC_GUARD_UNLOAD: once per process), so the job runs untuned; rank 0 says so
 * on one line naming the libmpiguide to use, none when MPIGUIDE is off. A libmpiguide-preload.so
 * in LD_PRELOAD then loads the right one. Linked (or when it cannot execute the program again),
 * it stays, and MPI_Init stops the run with a message (init.c, stop_if_other_mpi).
 * Of the right MPI and brought in by the shim, it sets LD_PRELOAD back to what it was before the
 * shim added it, for the program's children.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/lib.h"
#include "util/process.h"

const char *mg_lib_file(void) {
  Dl_info self;
  return dladdr((void *)mg_lib_file, &self) && self.dli_fname && *self.dli_fname ? self.dli_fname : "libmpiguide";
}

#ifndef MG_BUILT_FOR_OTHER /* an MPI this check knows (lib.h) */
/* Whether the LD_PRELOAD entry e (n bytes) is this library: the same file, or, for a bare name
 * the loader looked up, the same name. */
static int is_me(const char *e, size_t n, const char *me_real, const char *me_base) {
  char entry[PATH_MAX], real[PATH_MAX];
  if (n == 0 || n >= sizeof entry) return 0;
  memcpy(entry, e, n);
  entry[n] = '\0';
  if (!strchr(entry, '/')) return strcmp(entry, me_base) == 0;
  return realpath(entry, real) && strcmp(real, me_real) == 0;
}

/* LD_PRELOAD without this library into out (entries joined by blanks): 1 if it was there. */
static int preload_without_me(char *out, size_t len) {
  const char *pre = getenv("LD_PRELOAD"), *file = mg_lib_file(), *base = strrchr(file, '/');
  char me[PATH_MAX];
  if (!pre || !realpath(file, me)) return 0;
  base = base ? base + 1 : file;
  int found = 0;
  size_t k = 0;
  out[0] = '\0';
  for (const char *p = pre; *p;) {
    size_t n = strcspn(p, " :\t");
    if (is_me(p, n, me, base))
      found = 1;
    else if (n && k + n + 2 < len)
      k += (size_t)snprintf(out + k, len - k, "%s%.*s", k ? " " : "", (int)n, p);
    p += n;
    p += strspn(p, " :\t");
  }
  return found;
}

__attribute__((constructor)) static void mg_load_check(int argc, char **argv, char **envp) {
  unsigned other = MG_BUILT_FOR_KIND == MG_PROC_OPENMPI ? MG_PROC_MPICH : MG_PROC_OPENMPI;
  char rest[4096];
  if (!(mg_proc_libs() & other)) {
    /* brought in by the site shim: LD_PRELOAD back to what it was (the shim alone, ...), so that
     * the program's children, a shell or `ls` a rank starts, load no libmpiguide and no MPI */
    if (mg_proc_guarded(MG_PROC_GUARD_PRELOAD) && preload_without_me(rest, sizeof rest)) {
      if (*rest)
        setenv("LD_PRELOAD", rest, 1);
      else
        unsetenv("LD_PRELOAD");
    }
    return;
  }
  if (!preload_without_me(rest, sizeof rest) || mg_proc_guarded(MG_PROC_GUARD_UNLOAD) || mg_proc_exe_is_loader())
    return;
  int quiet = mg_proc_off(getenv("MPIGUIDE")) || mg_proc_rank() > 0;
  /* the shim, unless it brought this library in itself (MPIGUIDE_LIB_<MPI> naming the wrong one) */
  int shim = strstr(rest, "libmpiguide-preload.so") && !mg_proc_guarded(MG_PROC_GUARD_PRELOAD);
  const char *then = shim ? "; libmpiguide-preload.so, also in LD_PRELOAD, loads the right one if it is installed"
                          : " and this job runs untuned";
  if (!quiet)
    fprintf(stderr,
            "mpiguide: warning: LD_PRELOAD has %s, the libmpiguide built for %s, but the program runs %s: it is "
            "taken out of LD_PRELOAD%s. Preload the one built for %s (`mpiguide env --lib PROGRAM` names it).\n",
            mg_lib_file(), MG_BUILT_FOR, mg_proc_mpi_name(other), then, mg_proc_mpi_name(other));
  mg_proc_reexec(argv, rest, MG_PROC_GUARD_UNLOAD);
  if (!quiet) fprintf(stderr, "mpiguide: cannot execute the program again without it; MPI_Init stops it\n");
}
#endif
