/*
 * `mpiguide env`: where this mpiguide's library and documentation are, and
 * the exact line that preloads the library into an application. A preload
 * that the loader cannot find is ignored with one warning and the application
 * runs untuned with exit status 0, so the path must be right: it is found
 * from the running executable (/proc/self/exe) — next to it in a build tree,
 * in ../<libdir> in an installation — never guessed.
 *
 * The library must also be built for the MPI library the application uses
 * (its handles mean nothing to another one). Given the application (or
 * --mpi), env looks for the libmpiguide of that MPI beside this one: a build
 * tree per MPI side by side (build/openmpi, build/mpich), or one prefix per
 * MPI side by side (the packages' /usr/lib/<multiarch>/mpiguide/<mpi>, or
 * cmake --install prefixes /opt/mpiguide/<mpi>); it checks with ldd which
 * MPI a library found there is linked with, and refuses a mismatch, naming
 * both libraries.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd_opts.h"
#include "mpiguide.h"

#ifndef MG_BUILT_FOR
#define MG_BUILT_FOR "?"
#endif
#ifndef MG_FLAVOR
#define MG_FLAVOR "?"
#endif

/* The MPI libraries an application can use, by the shared objects ldd lists for it (Open MPI 4
 * and 5: libmpi.so.40; MPICH, and the MPICH ABI of Intel MPI and MVAPICH: libmpich.so.12 or
 * libmpi.so.12). The flavour is the build directory's and the package's name. */
static const struct {
  const char *flavour, *name, *sonames[2];
} mpis[] = {
    {"openmpi", "Open MPI", {"libmpi.so.40", NULL}},
    {"mpich", "MPICH", {"libmpich.so.12", "libmpi.so.12"}},
};
enum { NMPIS = sizeof mpis / sizeof mpis[0] };

static int mpi_find(const char *flavour) {
  for (int m = 0; m < NMPIS; m++)
    if (!strcmp(flavour, mpis[m].flavour)) return m;
  return -1;
}

static void shell_word(const char *s, char *out, size_t len);

/* Which of mpis[] the program or library at path is linked with, directly or through another
 * library (ldd resolves them all): its index, with the shared object's name in so; -1 if none
 * (a static or non-ELF program, or ldd missing). */
static int mpi_of(const char *path, char *so, size_t solen) {
  char q[2 * PATH_MAX], cmd[2 * PATH_MAX + 32], line[2 * PATH_MAX];
  shell_word(path, q, sizeof q);
  snprintf(cmd, sizeof cmd, "ldd -- %s 2>/dev/null", q);
  FILE *p = popen(cmd, "r");
  if (!p) return -1;
  int found = -1;
  while (fgets(line, sizeof line, p))
    for (int m = 0; m < NMPIS && found < 0; m++)
      for (int k = 0; k < 2 && mpis[m].sonames[k] && found < 0; k++) {
        const char *at = strstr(line, mpis[m].sonames[k]);
        if (at && (at == line || at[-1] == '\t' || at[-1] == ' ' || at[-1] == '/')) {
          found = m;
          snprintf(so, solen, "%s", mpis[m].sonames[k]);
        }
      }
  pclose(p);
  return found;
}

/* dir of the executable; 0, or -1 */
static int exe_dir(char *dir, size_t len) {
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) return -1;
  exe[n] = '\0';
  char *slash = strrchr(exe, '/');
  if (!slash) return -1;
  *slash = '\0';
  if ((size_t)(slash - exe) >= len) return -1;
  memcpy(dir, exe, (size_t)(slash - exe) + 1);
  return 0;
}

/* The library and the docs that belong to this executable ("" when not found). */
static void locate(char *lib, size_t liblen, char *docs, size_t docslen) {
  char dir[PATH_MAX], p[PATH_MAX + 128];
  lib[0] = docs[0] = '\0';
  if (exe_dir(dir, sizeof dir - 128)) return;
  snprintf(p, sizeof p, "%s/%s", dir, MG_LIB_NAME); /* build tree */
  if (access(p, R_OK) == 0) {
    snprintf(lib, liblen, "%.*s", (int)(liblen - 1), p);
    snprintf(docs, docslen, "%s", MG_SOURCE_DOCS);
    return;
  }
  char libdir[PATH_MAX];
  snprintf(p, sizeof p, "%s/../%s", dir, MG_INSTALL_LIBDIR); /* installed */
  if (realpath(p, libdir) && snprintf(p, sizeof p, "%s/%s", libdir, MG_LIB_NAME) > 0 && access(p, R_OK) == 0) {
    snprintf(lib, liblen, "%.*s", (int)(liblen - 1), p);
    snprintf(p, sizeof p, "%s/../%s", dir, MG_INSTALL_DOCDIR);
    if (!realpath(p, docs)) docs[0] = '\0';
  }
}

/* The libmpiguide built for mpis[m] beside this one, into lib ("" if none): a sibling build tree
 * <dir>/../<mpi>/, or a sibling prefix <dir>/../../<mpi>/<libdir>/. A candidate counts only when ldd
 * says it is linked with that MPI. Where it looked goes into tried. */
static void locate_sibling(int m, char *lib, size_t liblen, char *tried, size_t triedlen) {
  char dir[PATH_MAX], p[PATH_MAX + 256], real[PATH_MAX], so[64];
  lib[0] = tried[0] = '\0';
  if (exe_dir(dir, sizeof dir - 256)) return;
  size_t u = 0;
  for (int k = 0; k < 2; k++) { /* the folder made canonical, the file name kept (libmpiguide.so.0) */
    if (k == 0) snprintf(p, sizeof p, "%s/../%s", dir, mpis[m].flavour);
    else snprintf(p, sizeof p, "%s/../../%s/%s", dir, mpis[m].flavour, MG_INSTALL_LIBDIR);
    int there = realpath(p, real) != NULL;
    snprintf(p + strlen(p), sizeof p - strlen(p), "/%s", MG_LIB_NAME);
    if (there) snprintf(real + strlen(real), sizeof real - strlen(real), "/%s", MG_LIB_NAME);
    if (u < triedlen) u += (size_t)snprintf(tried + u, triedlen - u, "%s%s", u ? ", " : "", there ? real : p);
    if (!*lib && there && access(real, R_OK) == 0 && mpi_of(real, so, sizeof so) == m) snprintf(lib, liblen, "%s", real);
  }
}

void mg_cmd_docs_hint(FILE *f) {
  char lib[PATH_MAX], docs[PATH_MAX];
  locate(lib, sizeof lib, docs, sizeof docs);
  fprintf(f, "Documentation: %s\n", *docs ? docs : "docs/ of the mpiguide sources");
}

/* s as one shell word: as it is when every character is plain, else in single quotes (each ' as '\''). */
static void shell_word(const char *s, char *out, size_t len) {
  int plain = *s != '\0';
  for (const char *c = s; *c && plain; c++)
    plain = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || strchr("_/.,:=+@%-", *c);
  size_t u = 0;
  if (plain) {
    snprintf(out, len, "%s", s);
    return;
  }
  if (u + 1 < len) out[u++] = '\'';
  for (const char *c = s; *c && u + 5 < len; c++) {
    if (*c == '\'') memcpy(out + u, "'\\''", 4), u += 4;
    else out[u++] = *c;
  }
  if (u + 1 < len) out[u++] = '\'';
  out[u] = '\0';
}

#define OPTIONS(X) X(LIB, "lib", 0, MG_OPT_FLAG) X(MPI, "mpi", 0, MG_OPT_ARG) X(HELP, "help", 'h', MG_OPT_FLAG)
enum { OPTIONS(MG_OPT_ENUM) O_N };
static const mg_opt opts[O_N] = {OPTIONS(MG_OPT_ROW)};

static const char usage_text[] =
    "usage: mpiguide env [--lib] [--mpi MPI | APP]\n"
    "\n"
    "Where this mpiguide's libmpiguide and documentation are, and how to preload the library into\n"
    "an application. The library must be built for the MPI library the application uses: given the\n"
    "application (or --mpi), env prints the libmpiguide built for its MPI, this one or one beside it\n"
    "(a build tree per MPI, build/openmpi and build/mpich; an installation per MPI, as the packages'\n"
    "/usr/lib/<multiarch>/mpiguide/<mpi>), and refuses, naming both, when there is none.\n"
    "\n"
    "      --lib           print the library's path alone (LD_PRELOAD=$(mpiguide env --lib APP))\n"
    "      --mpi MPI       the application's MPI library: openmpi or mpich\n"
    "      APP             the application's program: its MPI is read with ldd\n"
    "  -h, --help          this text\n"
    "\n"
    "Exit codes: 0 found, 1 no library for that MPI (or none at all), 2 bad input.\n";

int mg_cmd_env(int argc, char **argv) {
  mg_opt_vals o;
  char err[256];
  if (mg_opt_parse(argc, argv, opts, O_N, &o, err, sizeof err) ||
      (o.npos > 1 && snprintf(err, sizeof err, "more than one application ('%s')", o.pos[1])) ||
      (o.npos && o.given[O_MPI] && snprintf(err, sizeof err, "give --mpi or an application, not both"))) {
    fprintf(stderr, "mpiguide env: %s (see mpiguide env --help)\n", err);
    mg_opt_vals_free(&o);
    return 2;
  }
  if (o.given[O_HELP]) {
    fputs(usage_text, stdout);
    mg_opt_vals_free(&o);
    return 0;
  }
  int only_lib = o.given[O_LIB], want = -1;
  char app_so[64] = "", app[PATH_MAX] = "";
  if (o.given[O_MPI] && (want = mpi_find(o.val[O_MPI])) < 0) {
    fprintf(stderr, "mpiguide env: --mpi: '%s' is not openmpi or mpich\n", o.val[O_MPI]);
    mg_opt_vals_free(&o);
    return 2;
  }
  if (o.npos) {
    snprintf(app, sizeof app, "%s", o.pos[0]);
    if (access(app, R_OK)) {
      fprintf(stderr, "mpiguide env: cannot read the application '%s'\n", app);
      mg_opt_vals_free(&o);
      return 2;
    }
    if ((want = mpi_of(app, app_so, sizeof app_so)) < 0) {
      fprintf(stderr, "mpiguide env: cannot tell which MPI library '%s' uses (ldd lists none of libmpi.so.40, "
                      "libmpich.so.12, libmpi.so.12): give --mpi openmpi or --mpi mpich\n", app);
      mg_opt_vals_free(&o);
      return 2;
    }
  }
  mg_opt_vals_free(&o);
  char lib[PATH_MAX], docs[PATH_MAX];
  locate(lib, sizeof lib, docs, sizeof docs);
  if (!*lib) {
    fprintf(stderr, "mpiguide env: %s is neither next to this executable nor in ../%s: a moved or partial "
                    "installation?\n", MG_LIB_NAME, MG_INSTALL_LIBDIR);
    return 1;
  }
  const char *built_for = MG_BUILT_FOR;
  int own = mpi_find(MG_FLAVOR);
  if (want >= 0 && want != own) { /* the application's MPI is not this build's: the one beside it */
    char other[PATH_MAX], tried[3 * PATH_MAX];
    locate_sibling(want, other, sizeof other, tried, sizeof tried);
    if (!*other) {
      fprintf(stderr,
              "mpiguide env: %s%s uses %s%s%s%s, but %s is built for %s%s%s%s; no libmpiguide built for %s "
              "beside it (looked for %s): install mpiguide-%s, or build it (scripts/build.sh %s)\n",
              *app ? "the application " : "--mpi: the application", app, mpis[want].name, *app_so ? " (" : "",
              app_so, *app_so ? ")" : "", lib, built_for, own >= 0 ? " (" : "", own >= 0 ? mpis[own].sonames[0] : "",
              own >= 0 ? ")" : "", mpis[want].name, tried, mpis[want].flavour, mpis[want].flavour);
      return 1;
    }
    snprintf(lib, sizeof lib, "%s", other);
    built_for = mpis[want].name;
  }
  /* The loader splits LD_PRELOAD at every space and colon, quoted or not, and ignores what it cannot
   * open with one warning: the application then runs untuned with exit status 0. A path with a space
   * is preloaded by its file name instead, found through LD_LIBRARY_PATH (split at colons only). */
  char *slash = strrchr(lib, '/');
  int spaced = strpbrk(lib, " \t\n") != NULL, coloned = strchr(lib, ':') != NULL;
  if (only_lib) {
    if (spaced || coloned)
      fprintf(stderr, "mpiguide env: warning: the library's path holds a %s, at which the loader splits LD_PRELOAD "
                      "even when quoted: LD_PRELOAD=$(mpiguide env --lib) would be ignored; `mpiguide env` prints a "
                      "line that works\n", coloned ? "colon" : "space");
    return printf("%s\n", lib) < 0;
  }
  printf("mpiguide %s, built for %s\nlibrary:        %s\ndocumentation:  %s\n\n", MPIGUIDE_VERSION,
         built_for, lib, docs);
  char q[2 * PATH_MAX], vars[4 * PATH_MAX];
  int ompi = !strcmp(built_for, "Open MPI");
  if (coloned) { /* neither variable can hold it */
    printf("The library's path holds a colon, at which the loader splits both LD_PRELOAD and LD_LIBRARY_PATH:\n"
           "install mpiguide (or link the library) under a path without one to preload it.\n");
    return 1;
  }
  if (spaced) {
    *slash = '\0';
    shell_word(lib, q, sizeof q);
    snprintf(vars, sizeof vars, "LD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} LD_PRELOAD=%s", q, slash + 1);
    *slash = '/';
  } else {
    shell_word(lib, q, sizeof q);
    snprintf(vars, sizeof vars, "LD_PRELOAD=%s", q);
  }
  printf("Preload it into an unmodified application (the same %s it was built for):\n", built_for);
  printf("  %s MPIGUIDE_PROFILE=tuned.prof \\\n    %s -np 4 ./app\n", vars,
         ompi ? (spaced ? "mpirun -x LD_LIBRARY_PATH -x LD_PRELOAD -x MPIGUIDE_PROFILE" : "mpirun -x LD_PRELOAD -x MPIGUIDE_PROFILE")
              : "mpiexec");
  if (spaced)
    printf("(the library's path holds a space, at which the loader splits LD_PRELOAD even when quoted: the line "
           "preloads it by its name, found through LD_LIBRARY_PATH)\n");
  printf("Every rank must see the variables (Open MPI: -x NAME; MPICH's mpiexec passes the environment).\n"
         "Or link it: -lmpiguide before the MPI library. Variables: %s/library.md\n", *docs ? docs : "docs");
  return 0;
}
