/*
 * `mpiguide site`: the site's profile store (tune/store.h, docs/profile.md "The site's profile
 * store"), which libmpiguide reads at MPI_Init when a job sets no MPIGUIDE_PROFILE.
 *
 *   publish PROFILE...  validate each profile, file it by the MPI library, process counts and
 *                       layouts its preamble records, make a new release (the current one plus
 *                       the new files) and switch `current` to it
 *   rollback [--to R]   switch `current` back to the release's parent, or to release R
 *   status              the releases, which one is current, the files it holds
 *   which --np N ...    the profile a job of that library, process count and layout would get
 *
 * A release is built as a temporary directory beside the others and renamed into place; then a
 * new link is renamed over `current` (rename(2) replaces it atomically): a job reading `current`
 * sees the old release or the new one, both complete. Releases are never changed afterwards.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "cli/cli.h"
#include "cli/cmd_opts.h"
#include "tune/profile.h"
#include "tune/store.h"
#include "util/err.h"
#include "util/sort.h"

#ifndef MG_PROFILE_STORE_DEFAULT
#define MG_PROFILE_STORE_DEFAULT ""
#endif

#define OPTIONS(X)                                                                                           \
  X(STORE, "store", 0, MG_OPT_ARG)                                                                           \
  X(UNVERIFIED, "unverified", 0, MG_OPT_FLAG)                                                                \
  X(LEVEL, "level", 0, MG_OPT_ARG)                                                                           \
  X(LIBRARY, "library", 0, MG_OPT_ARG)                                                                       \
  X(TO, "to", 0, MG_OPT_ARG)                                                                                 \
  X(NP, "np", 'n', MG_OPT_ARG)                                                                               \
  X(NODES, "nodes", 0, MG_OPT_ARG)                                                                           \
  X(RPN, "rpn", 0, MG_OPT_ARG)                                                                               \
  X(RELEASE, "release", 0, MG_OPT_ARG)                                                                       \
  X(HELP, "help", 'h', MG_OPT_FLAG)
enum { OPTIONS(MG_OPT_ENUM) O_N };
static const mg_opt opts[O_N] = {OPTIONS(MG_OPT_ROW)};

static const char usage_text[] =
    "usage: mpiguide site publish PROFILE... [--store DIR] [--level exact|np|library] [--library KEY]\n"
    "                             [--unverified]\n"
    "       mpiguide site rollback [--to RELEASE] [--store DIR]\n"
    "       mpiguide site status [--store DIR]\n"
    "       mpiguide site which --np N [--nodes K --rpn R] [--library KEY] [--release RELEASE] [--store DIR]\n"
    "\n"
    "The site's profile store: the profiles libmpiguide applies to every job that sets no\n"
    "MPIGUIDE_PROFILE, chosen by the job's MPI library, process count and layout (docs/profile.md,\n"
    "\"The site's profile store\"). Releases are immutable; `current` names the one in force and is\n"
    "switched atomically: a running job keeps what it read, a starting one gets old or new.\n"
    "\n"
    "  publish     file each PROFILE by the MPI library, process counts and layouts its preamble\n"
    "              records (the np=N: MPI library: and np=N: layout: lines tune writes), as a new\n"
    "              release (the current one plus these files), and make it current. A profile must\n"
    "              be valid and confirmed by verify (a preamble line `verify: confirmed ...`)\n"
    "  rollback    make the current release's parent current again (or RELEASE, --to)\n"
    "  status      the releases (* current), their parents, dates and files\n"
    "  which       the profile a job of that MPI library, process count and layout would get, and\n"
    "              by which step of the search order: exact (np and layout), np, library; or none\n"
    "\n"
    "      --store DIR        the store (default: MPIGUIDE_PROFILE_STORE, else the one built in: %s)\n"
    "      --level L          publish: file as exact (npN-KxR.profile, the default), np (npN.profile:\n"
    "                         any layout at that process count) or library (default.profile: every\n"
    "                         job of that MPI library without a closer match)\n"
    "      --library KEY      the MPI library (\"Open MPI v4.1.4\"): publish, when the profile does not\n"
    "                         record one; which (default: the library this command runs with)\n"
    "      --unverified       publish a profile verify has not confirmed\n"
    "      --to RELEASE       rollback: to this release\n"
    "  -n, --np N             which: the job's process count\n"
    "      --nodes K          which: its nodes\n"
    "      --rpn R            which: its ranks per node (\"2\", or \"1-3\" on uneven nodes)\n"
    "      --release RELEASE  which: in this release instead of the current one\n"
    "  -h, --help             this text\n";

typedef struct site {
  const char *store;
  char err[24576]; /* room for several paths */
} site;

static int fail(site *S) {
  fprintf(stderr, "mpiguide site: %s\n", S->err);
  return 1;
}

static const char *default_store(void) {
  const char *s = getenv("MPIGUIDE_PROFILE_STORE");
  if (s && *s && strcmp(s, "none")) return s;
  return MG_PROFILE_STORE_DEFAULT[0] ? MG_PROFILE_STORE_DEFAULT : NULL;
}

/* ---- releases ------------------------------------------------------------------------------ */

/* The number of a release named rNNNN, else -1. */
static long release_number(const char *name) {
  if (name[0] != 'r' || !name[1] || strspn(name + 1, "0123456789") != strlen(name + 1) || strlen(name) > 10)
    return -1;
  return strtol(name + 1, NULL, 10);
}

/* The releases of the store, sorted by name, into *names (n of them); -1 with S->err. */
static int list_releases(site *S, char ***names, int *n) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s/releases", S->store);
  *names = NULL;
  *n = 0;
  DIR *d = opendir(dir);
  if (!d) return errno == ENOENT ? 0 : MG_ERR_TO(S->err, "%s: %s", dir, strerror(errno));
  struct dirent *e;
  int cap = 0;
  while ((e = readdir(d))) {
    if (!mg_store_name_ok(e->d_name)) continue; /* ".", "..", a publish's temporary ".tmp-..." */
    if (*n == cap) {
      cap = cap ? 2 * cap : 16;
      char **p = realloc(*names, (size_t)cap * sizeof *p);
      if (!p) break;
      *names = p;
    }
    if (!((*names)[*n] = strdup(e->d_name))) break;
    ++*n;
  }
  closedir(d);
  if (*n) qsort(*names, (size_t)*n, sizeof **names, mg_cmp_str);
  return 0;
}

static void free_names(char **names, int n) {
  for (int i = 0; i < n; i++) free(names[i]);
  free(names);
}

/* A value of the release's MANIFEST ("parent", "date"), into out ("" none). */
static void manifest_value(const char *store, const char *rel, const char *key, char *out, size_t len) {
  char path[PATH_MAX], line[1024];
  out[0] = '\0';
  snprintf(path, sizeof path, "%s/releases/%s/%s", store, rel, MG_STORE_MANIFEST);
  FILE *f = fopen(path, "r");
  if (!f) return;
  size_t k = strlen(key);
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = '\0';
    if (!strncmp(line, key, k) && line[k] == '=') {
      snprintf(out, len, "%s", line + k + 1);
      break;
    }
  }
  fclose(f);
}

/* Switch `current` to release rel: a new link renamed over the old one. */
static int switch_current(site *S, const char *rel) {
  char tmp[PATH_MAX], cur[PATH_MAX], target[MG_STORE_NAME_MAX + 16];
  snprintf(target, sizeof target, "releases/%s", rel);
  snprintf(tmp, sizeof tmp, "%s/.current.%ld", S->store, (long)getpid());
  snprintf(cur, sizeof cur, "%s/current", S->store);
  unlink(tmp);
  if (symlink(target, tmp) != 0) return MG_ERR_TO(S->err, "%s: cannot make a link: %s", tmp, strerror(errno));
  if (rename(tmp, cur) != 0) {
    int e = errno;
    unlink(tmp);
    return MG_ERR_TO(S->err, "%s: cannot replace: %s", cur, strerror(e));
  }
  int fd = open(S->store, O_RDONLY | O_DIRECTORY);
  if (fd >= 0) fsync(fd), close(fd);
  return 0;
}

/* The release `current` names ("" for an empty store); -1 with S->err for a broken one. */
static int current_release(site *S, char *rel, size_t len) {
  int c = mg_store_current(S->store, rel, len, S->err, sizeof S->err);
  if (c == 1) rel[0] = '\0';
  return c < 0 ? -1 : 0;
}

/* ---- publish ------------------------------------------------------------------------------- */

/* One file of a new release. */
typedef struct entry {
  char lib[MG_STORE_NAME_MAX], slot[96];
  char from[PATH_MAX]; /* the profile published, or "" for a file kept from the parent */
  uint64_t hash;
} entry;

typedef struct entries {
  entry *v;
  int n, cap;
} entries;

static entry *entry_put(entries *E, const char *lib, const char *slot) {
  for (int i = 0; i < E->n; i++)
    if (!strcmp(E->v[i].lib, lib) && !strcmp(E->v[i].slot, slot)) return &E->v[i];
  if (E->n == E->cap) {
    int cap = E->cap ? 2 * E->cap : 16;
    entry *p = realloc(E->v, (size_t)cap * sizeof *p);
    if (!p) return NULL;
    E->v = p;
    E->cap = cap;
  }
  entry *e = &E->v[E->n++];
  memset(e, 0, sizeof *e);
  snprintf(e->lib, sizeof e->lib, "%s", lib);
  snprintf(e->slot, sizeof e->slot, "%s", slot);
  return e;
}

/* Copy file from into to (created, not there before), flushed to disk. */
static int copy_file(site *S, const char *from, const char *to) {
  FILE *in = fopen(from, "rb");
  if (!in) return MG_ERR_TO(S->err, "%s: %s", from, strerror(errno));
  int fd = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  FILE *out = fd >= 0 ? fdopen(fd, "wb") : NULL;
  if (!out) {
    int e = errno;
    if (fd >= 0) close(fd);
    fclose(in);
    return MG_ERR_TO(S->err, "%s: %s", to, strerror(e));
  }
  char buf[8192];
  size_t k;
  long total = 0;
  while ((k = fread(buf, 1, sizeof buf, in)) > 0 && (total += (long)k) <= MG_STORE_FILE_MAX) fwrite(buf, 1, k, out);
  int bad = ferror(in) || total > MG_STORE_FILE_MAX || fflush(out) != 0 || ferror(out) || fsync(fileno(out)) != 0;
  fclose(in);
  if (fclose(out) != 0) bad = 1;
  return bad ? MG_ERR_TO(S->err, "%s: cannot copy to %s", from, to) : 0;
}

/* The files of release rel (the parent of a new one) into E, marked as kept. */
static int inherit(site *S, const char *rel, entries *E) {
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s/releases/%s", S->store, rel);
  DIR *d = opendir(dir);
  if (!d) return MG_ERR_TO(S->err, "%s: %s", dir, strerror(errno));
  struct dirent *e;
  while ((e = readdir(d))) {
    char sub[PATH_MAX + 300];
    struct stat st;
    snprintf(sub, sizeof sub, "%s/%s", dir, e->d_name);
    if (!mg_store_name_ok(e->d_name) || lstat(sub, &st) != 0 || !S_ISDIR(st.st_mode)) continue;
    DIR *l = opendir(sub);
    struct dirent *f;
    while (l && (f = readdir(l))) {
      char file[PATH_MAX + 600];
      snprintf(file, sizeof file, "%s/%s", sub, f->d_name);
      if (!mg_store_name_ok(f->d_name) || lstat(file, &st) != 0 || !S_ISREG(st.st_mode)) continue;
      if (!entry_put(E, e->d_name, f->d_name)) return MG_ERR_TO(S->err, "out of memory");
    }
    if (l) closedir(l);
  }
  closedir(d);
  return 0;
}

/* What a profile's preamble records at process count np ("np=N: " lines): its nodes and ranks per
 * node from the layout line (0 and "" when not said). */
static int np_of_line(const char *line, long *np, const char **rest) {
  if (strncmp(line, "np=", 3)) return 0;
  size_t n = strspn(line + 3, "0123456789");
  if (!n || n > 9 || strncmp(line + 3 + n, ": ", 2)) return 0;
  *np = strtol(line + 3, NULL, 10);
  *rest = line + 3 + n + 2;
  return *np >= 1;
}

/* A profile to publish: checked, and filed into E under the slots its preamble records. */
static int file_profile(site *S, const char *path, int level, const char *libopt, int unverified, entries *E) {
  struct stat st;
  if (stat(path, &st) != 0) return MG_ERR_TO(S->err, "%s: %s", path, strerror(errno));
  if (!S_ISREG(st.st_mode)) return MG_ERR_TO(S->err, "%s: not a profile file", path);
  if (st.st_size > MG_STORE_FILE_MAX)
    return MG_ERR_TO(S->err, "%s: larger than %ld MiB: not a profile a store takes", path, MG_STORE_FILE_MAX >> 20);
  mg_profile *p = NULL;
  mg_profile_diags d = {0};
  if (mg_profile_load(path, &p, &d) != MG_PROFILE_OK) {
    size_t k = (size_t)snprintf(S->err, sizeof S->err, "%s is not a valid profile, not published:", path);
    for (int i = 0; i < d.n && k < sizeof S->err; i++) {
      char line[600];
      mg_profile_diag_format(&d.v[i], line, sizeof line);
      k += (size_t)snprintf(S->err + k, sizeof S->err - k, "\n  %s", line);
    }
    mg_profile_diags_free(&d);
    return -1;
  }
  mg_profile_diags_free(&d);
  char key[256] = "", lib[MG_STORE_NAME_MAX];
  int verified = 0, rc = 0;
  long nps[64];
  int nnp = 0;
  for (int i = 0; i < mg_profile_npreamble(p); i++) {
    const char *line = mg_profile_preamble_at(p, i), *rest;
    long np;
    if (!strncmp(line, "verify: confirmed ", 18)) verified = 1;
    if (!np_of_line(line, &np, &rest)) continue;
    if (!strncmp(rest, "MPI library: ", 13)) {
      char k2[256];
      mg_library_key(rest + 13, k2, sizeof k2);
      if (key[0] && strcmp(key, k2) && !libopt) {
        rc = MG_ERR_TO(S->err, "%s records two MPI libraries ('%s', '%s'): a store files a profile under one; "
                               "split it, or give --library", path, key, k2);
        goto out;
      }
      snprintf(key, sizeof key, "%s", k2);
    }
    int seen = 0;
    for (int k = 0; k < nnp; k++) seen |= nps[k] == np;
    if (!seen && nnp < 64) nps[nnp++] = np;
  }
  if (libopt) mg_library_key(libopt, key, sizeof key);
  mg_store_dirname(key, lib, sizeof lib);
  if (!lib[0] || !mg_store_name_ok(lib)) {
    rc = MG_ERR_TO(S->err, "%s records no MPI library (an 'np=N: MPI library: ...' line, as tune writes): give "
                           "--library", path);
    goto out;
  }
  if (!verified && !unverified) {
    rc = MG_ERR_TO(S->err, "%s: verify has not confirmed its rules (no preamble line 'verify: confirmed ...'; "
                           "mpiguide verify writes one): not published; --unverified publishes it anyway", path);
    goto out;
  }
  if (level != MG_STORE_LIBRARY && !nnp) {
    rc = MG_ERR_TO(S->err, "%s records no process count (no 'np=N: ...' line): --level library files it for "
                           "every process count", path);
    goto out;
  }
  for (int k = 0; k < (level == MG_STORE_LIBRARY ? 1 : nnp); k++) {
    char slot[96], rpn[32] = "";
    long nodes = 0;
    if (level == MG_STORE_EXACT) { /* the layout line of this process count: "K node(s) x R ranks per node" */
      for (int i = 0; i < mg_profile_npreamble(p); i++) {
        const char *rest;
        long np;
        if (!np_of_line(mg_profile_preamble_at(p, i), &np, &rest) || np != nps[k] || strncmp(rest, "layout: ", 8))
          continue;
        char *end;
        nodes = strtol(rest + 8, &end, 10);
        size_t n = strncmp(end, " node(s) x ", 11) ? 0 : strspn(end + 11, "0123456789-");
        if (n && n < sizeof rpn && !strncmp(end + 11 + n, " ranks per node", 15))
          snprintf(rpn, sizeof rpn, "%.*s", (int)n, end + 11);
        else if (!strncmp(end, " node(s)", 8) && nodes == 1)
          snprintf(rpn, sizeof rpn, "%ld", nps[k]);
      }
      if (nodes < 1 || nodes > nps[k] || !rpn[0]) {
        rc = MG_ERR_TO(S->err, "%s records no layout at np=%ld (an 'np=%ld: layout: K node(s) x R ranks per node' "
                               "line): --level np files it for every layout", path, nps[k], nps[k]);
        goto out;
      }
    }
    if (mg_store_slot(level, (int)nps[level == MG_STORE_LIBRARY ? 0 : k], (int)nodes, rpn, slot, sizeof slot)) {
      rc = MG_ERR_TO(S->err, "%s: cannot name its file in the store", path);
      goto out;
    }
    entry *e = entry_put(E, lib, slot);
    if (!e) {
      rc = MG_ERR_TO(S->err, "out of memory");
      goto out;
    }
    char real[PATH_MAX];
    snprintf(e->from, sizeof e->from, "%s", realpath(path, real) ? real : path);
    e->hash = mg_profile_hash(p);
  }
out:
  mg_profile_free(p);
  return rc;
}

static int make_dir(site *S, const char *dir) {
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) return MG_ERR_TO(S->err, "%s: cannot create: %s", dir, strerror(errno));
  return 0;
}

/* Remove the temporary release tmp (its library directories and their files). */
static void remove_tree(const char *tmp) {
  DIR *d = opendir(tmp);
  struct dirent *e;
  while (d && (e = readdir(d))) {
    if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
    char sub[PATH_MAX + 300];
    snprintf(sub, sizeof sub, "%s/%s", tmp, e->d_name);
    DIR *l = opendir(sub);
    struct dirent *f;
    while (l && (f = readdir(l))) {
      char file[PATH_MAX + 600];
      snprintf(file, sizeof file, "%s/%s", sub, f->d_name);
      if (strcmp(f->d_name, ".") && strcmp(f->d_name, "..")) unlink(file);
    }
    if (l) closedir(l);
    if (rmdir(sub) != 0) unlink(sub);
  }
  if (d) closedir(d);
  rmdir(tmp);
}

static int publish(site *S, const mg_opt_vals *o) {
  int level = MG_STORE_EXACT;
  if (o->given[O_LEVEL]) {
    level = !strcmp(o->val[O_LEVEL], "exact") ? MG_STORE_EXACT
            : !strcmp(o->val[O_LEVEL], "np")  ? MG_STORE_NP
            : !strcmp(o->val[O_LEVEL], "library") ? MG_STORE_LIBRARY
                                                  : 0;
    if (!level) return MG_ERR_TO(S->err, "--level '%s': use exact, np or library", o->val[O_LEVEL]);
  }
  if (o->npos < 2) return MG_ERR_TO(S->err, "publish: no profile given (mpiguide site publish PROFILE...)");
  char parent[MG_STORE_NAME_MAX] = "", dir[PATH_MAX];
  if (make_dir(S, S->store)) return -1;
  snprintf(dir, sizeof dir, "%s/releases", S->store);
  if (make_dir(S, dir) || current_release(S, parent, sizeof parent)) return -1;
  entries E = {0};
  int rc = parent[0] ? inherit(S, parent, &E) : 0;
  int kept = E.n;
  for (int i = 1; rc == 0 && i < o->npos; i++)
    rc = file_profile(S, o->pos[i], level, o->val[O_LIBRARY], o->given[O_UNVERIFIED], &E);
  /* the new release's name: one above every rNNNN there is */
  char **names;
  int n;
  long next = 1;
  if (rc == 0 && list_releases(S, &names, &n) == 0) {
    for (int i = 0; i < n; i++)
      if (release_number(names[i]) >= next) next = release_number(names[i]) + 1;
    free_names(names, n);
  } else if (rc == 0) {
    rc = -1;
  }
  char rel[32], tmp[PATH_MAX], fin[PATH_MAX];
  snprintf(rel, sizeof rel, "r%04ld", next);
  snprintf(tmp, sizeof tmp, "%s/releases/.tmp-%s-%ld", S->store, rel, (long)getpid());
  snprintf(fin, sizeof fin, "%s/releases/%s", S->store, rel);
  if (rc == 0 && mkdir(tmp, 0755) != 0) rc = MG_ERR_TO(S->err, "%s: cannot create: %s", tmp, strerror(errno));
  FILE *m = NULL;
  if (rc == 0) {
    char mpath[PATH_MAX + 32], date[64];
    snprintf(mpath, sizeof mpath, "%s/%s", tmp, MG_STORE_MANIFEST);
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
    m = fopen(mpath, "w");
    if (!m) rc = MG_ERR_TO(S->err, "%s: %s", mpath, strerror(errno));
    else fprintf(m, "%s\nrelease=%s\nparent=%s\ndate=%s\n", MG_STORE_MAGIC, rel, parent, date);
  }
  for (int i = 0; rc == 0 && i < E.n; i++) {
    entry *e = &E.v[i];
    char ldir[PATH_MAX + 200], to[PATH_MAX + 400], from[PATH_MAX + 400];
    snprintf(ldir, sizeof ldir, "%s/%s", tmp, e->lib);
    snprintf(to, sizeof to, "%s/%s", ldir, e->slot);
    if (make_dir(S, ldir)) rc = -1;
    else if (e->from[0]) rc = copy_file(S, e->from, to);
    else { /* kept from the parent: a hard link (releases are immutable), else a copy */
      snprintf(from, sizeof from, "%s/releases/%s/%s/%s", S->store, parent, e->lib, e->slot);
      if (link(from, to) != 0) rc = copy_file(S, from, to);
    }
    if (rc == 0)
      fprintf(m, "file=%s/%s %s%s\n", e->lib, e->slot, e->from[0] ? "from=" : "kept from ",
              e->from[0] ? e->from : parent);
  }
  if (m && (fflush(m) != 0 || fsync(fileno(m)) != 0 || fclose(m) != 0) && rc == 0)
    rc = MG_ERR_TO(S->err, "%s/%s: cannot write", tmp, MG_STORE_MANIFEST);
  else if (m && rc != 0)
    fclose(m);
  if (rc == 0 && rename(tmp, fin) != 0)
    rc = MG_ERR_TO(S->err, "%s: cannot make the release (%s): another publish at the same time?", fin, strerror(errno));
  if (rc != 0) {
    remove_tree(tmp);
    free(E.v);
    return -1;
  }
  rc = switch_current(S, rel);
  if (rc == 0) {
    printf("published %s (parent %s) in %s:\n", rel, parent[0] ? parent : "none", S->store);
    for (int i = 0; i < E.n; i++)
      if (E.v[i].from[0])
        printf("  %s/%s  %s  hash %016llx%s\n", E.v[i].lib, E.v[i].slot, E.v[i].from, (unsigned long long)E.v[i].hash,
               i < kept ? " (replaces the parent's)" : "");
    printf("current -> releases/%s\n", rel);
  }
  free(E.v);
  return rc;
}

/* ---- rollback, status, which --------------------------------------------------------------- */

static int rollback(site *S, const mg_opt_vals *o) {
  char cur[MG_STORE_NAME_MAX], want[MG_STORE_NAME_MAX];
  if (current_release(S, cur, sizeof cur)) { /* a broken `current` is repaired by --to */
    if (!o->given[O_TO]) return -1;
    fprintf(stderr, "mpiguide site: %s; --to %s replaces it\n", S->err, o->val[O_TO]);
    snprintf(cur, sizeof cur, "a broken link");
  }
  if (o->given[O_TO]) snprintf(want, sizeof want, "%s", o->val[O_TO]);
  else if (!cur[0]) return MG_ERR_TO(S->err, "%s has no current release: nothing to roll back", S->store);
  else manifest_value(S->store, cur, "parent", want, sizeof want);
  if (!want[0]) return MG_ERR_TO(S->err, "release %s has no parent: give --to RELEASE", cur);
  /* checked before the switch: `current` never names what is no release */
  if (mg_store_release_ok(S->store, want, S->err, sizeof S->err) || switch_current(S, want)) return -1;
  printf("current -> releases/%s (was %s)\n", want, cur[0] ? cur : "none");
  return 0;
}

static int status(site *S) {
  char cur[MG_STORE_NAME_MAX], **names;
  int n;
  int broken = current_release(S, cur, sizeof cur) != 0;
  if (broken) { /* the releases are still worth listing: `rollback --to` repairs it */
    printf("current is broken: %s (mpiguide site rollback --to RELEASE repairs it)\n", S->err);
    cur[0] = '\0';
  }
  if (list_releases(S, &names, &n)) return -1;
  printf("store %s: %d release(s), current %s\n", S->store, n, broken ? "broken" : cur[0] ? cur : "none");
  for (int i = 0; i < n; i++) {
    char parent[MG_STORE_NAME_MAX], date[64];
    manifest_value(S->store, names[i], "parent", parent, sizeof parent);
    manifest_value(S->store, names[i], "date", date, sizeof date);
    printf("%c %-8s %-26s parent %s\n", strcmp(names[i], cur) ? ' ' : '*', names[i], date[0] ? date : "(no MANIFEST)",
           parent[0] ? parent : "none");
  }
  free_names(names, n);
  if (!cur[0]) return broken;
  char path[PATH_MAX], line[1024];
  snprintf(path, sizeof path, "%s/releases/%s/%s", S->store, cur, MG_STORE_MANIFEST);
  FILE *f = fopen(path, "r");
  printf("files of %s:\n", cur);
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "file=", 5)) printf("  %s", line + 5);
  if (f) fclose(f);
  return 0;
}

static int which(site *S, const mg_opt_vals *o) {
  char rel[MG_STORE_NAME_MAX], key[256], lib[MG_STORE_NAME_MAX], out[PATH_MAX];
  if (!o->given[O_NP]) return MG_ERR_TO(S->err, "which: give the job's process count, --np N");
  long np = strtol(o->val[O_NP], NULL, 10), nodes = o->given[O_NODES] ? strtol(o->val[O_NODES], NULL, 10) : 0;
  if (np < 1 || np > 1000000000 || nodes < 0 || nodes > np || (o->given[O_NODES] && nodes < 1))
    return MG_ERR_TO(S->err, "which: --np and --nodes are process and node counts (1 <= nodes <= np)");
  const char *rpn = o->given[O_RPN] ? o->val[O_RPN] : "";
  if (nodes && !rpn[0] && np % nodes == 0) rpn = NULL;
  char rpnbuf[32];
  if (!rpn) snprintf(rpnbuf, sizeof rpnbuf, "%ld", np / nodes), rpn = rpnbuf;
  if (o->given[O_RELEASE]) {
    snprintf(rel, sizeof rel, "%s", o->val[O_RELEASE]);
    if (!mg_store_name_ok(rel)) return MG_ERR_TO(S->err, "'%s' is not a release name", rel);
  } else if (current_release(S, rel, sizeof rel)) {
    return -1;
  }
  if (o->given[O_LIBRARY]) {
    mg_library_key(o->val[O_LIBRARY], key, sizeof key);
  } else {
    char v[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    MPI_Get_library_version(v, &len); /* allowed before MPI_Init */
    mg_library_key(v, key, sizeof key);
  }
  mg_store_dirname(key, lib, sizeof lib);
  printf("job: %s (directory %s), np=%ld", key, lib, np);
  if (nodes) printf(" on %ld node(s) x %s ranks per node", nodes, rpn);
  printf("\n");
  if (!rel[0]) {
    printf("none: %s has no current release; the defaults run\n", S->store);
    return 0;
  }
  int level = mg_store_find(S->store, rel, lib, (int)np, (int)nodes, rpn, out, sizeof out, S->err, sizeof S->err);
  if (level < 0) return -1;
  if (level == MG_STORE_NONE)
    printf("none: release %s has no profile for %s at np=%ld%s%s%s; the defaults run\n", rel, key, np,
           nodes ? " on " : "", nodes ? o->val[O_NODES] : "", nodes ? " node(s)" : "");
  else
    printf("%s/%s (%s)\n", S->store, out, mg_store_level_name(level));
  return 0;
}

int mg_cmd_site(int argc, char **argv) {
  mg_opt_vals o;
  site S = {0};
  if (mg_opt_parse(argc, argv, opts, O_N, &o, S.err, sizeof S.err)) {
    fprintf(stderr, "mpiguide site: %s\n(mpiguide site --help lists the options)\n", S.err);
    mg_opt_vals_free(&o);
    return 2;
  }
  if (o.given[O_HELP] || !o.npos) {
    FILE *f = o.given[O_HELP] ? stdout : stderr;
    fprintf(f, usage_text, MG_PROFILE_STORE_DEFAULT[0] ? MG_PROFILE_STORE_DEFAULT : "none");
    mg_opt_vals_free(&o);
    return o.given[O_HELP] ? 0 : 2;
  }
  S.store = o.given[O_STORE] ? o.val[O_STORE] : default_store();
  const char *act = o.pos[0];
  int rc;
  if (!S.store || !*S.store) {
    rc = MG_ERR_TO(S.err, "no store: give --store DIR or set MPIGUIDE_PROFILE_STORE");
  } else if (!strcmp(act, "publish")) {
    rc = publish(&S, &o);
  } else if (o.npos > 1) {
    rc = MG_ERR_TO(S.err, "%s: unexpected argument '%s'", act, o.pos[1]);
  } else if (!strcmp(act, "rollback")) {
    rc = rollback(&S, &o);
  } else if (!strcmp(act, "status")) {
    rc = status(&S);
  } else if (!strcmp(act, "which")) {
    rc = which(&S, &o);
  } else {
    mg_opt_vals_free(&o);
    fprintf(stderr, "mpiguide site: unknown action '%s' (valid: publish, rollback, status, which)\n", act);
    return 2;
  }
  mg_opt_vals_free(&o);
  return rc ? fail(&S) : 0;
}
