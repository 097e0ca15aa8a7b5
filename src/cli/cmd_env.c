/*
 * `mpiguide env`: where this mpiguide's library and documentation are, and
 * the exact line that preloads the library into an application. A preload
 * that the loader cannot find is ignored with one warning and the application
 * runs untuned with exit status 0, so the path must be right: it is found
 * from the running executable (/proc/self/exe) — next to it in a build tree,
 * in ../<libdir> in an installation — never guessed.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "mpiguide.h"

#ifndef MG_BUILT_FOR
#define MG_BUILT_FOR "?"
#endif

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

int mg_cmd_env(int argc, char **argv) {
  int only_lib = 0;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--lib")) {
      only_lib = 1;
    } else if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: mpiguide env [--lib]\n\nWhere this mpiguide's libmpiguide and documentation are, and how to "
             "preload the library\ninto an application. --lib prints the library's path alone (for "
             "LD_PRELOAD=$(mpiguide env --lib)).\n");
      return 0;
    } else {
      fprintf(stderr, "mpiguide env: unknown option '%s' (see mpiguide env --help)\n", argv[i]);
      return 2;
    }
  }
  char lib[PATH_MAX], docs[PATH_MAX];
  locate(lib, sizeof lib, docs, sizeof docs);
  if (!*lib) {
    fprintf(stderr, "mpiguide env: %s is neither next to this executable nor in ../%s: a moved or partial "
                    "installation?\n", MG_LIB_NAME, MG_INSTALL_LIBDIR);
    return 1;
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
  printf("mpiguide %s, built for %s\nlibrary:        %s\ndocumentation:  %s\n\n", MPIGUIDE_VERSION, MG_BUILT_FOR,
         lib, docs);
  char q[2 * PATH_MAX], vars[4 * PATH_MAX];
  int ompi = !strcmp(MG_BUILT_FOR, "Open MPI");
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
  printf("Preload it into an unmodified application (the same %s it was built for):\n", MG_BUILT_FOR);
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
