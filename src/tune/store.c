/*
 * The site's profile store: names, the `current` link and the search order
 * (store.h). Reads only; `mpiguide site` (src/cli/cmd_site.c) writes.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tune/store.h"
#include "util/err.h"

const char *mg_store_level_name(int level) {
  static const char *const names[] = {"none", "exact", "np", "library"};
  return level >= 0 && level <= MG_STORE_LIBRARY ? names[level] : "none";
}

void mg_library_key(const char *s, char *out, size_t len) {
  size_t k = 0;
  int blank = 0;
  for (; *s && *s != ',' && *s != ';' && *s != '\n' && *s != '\r' && k + 1 < len; s++) {
    if (*s == ' ' || *s == '\t') {
      blank = k > 0;
      continue;
    }
    if (blank && k + 2 < len) out[k++] = ' ';
    blank = 0;
    out[k++] = *s;
  }
  out[k] = '\0';
}

static int safe_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-';
}

void mg_store_dirname(const char *key, char *out, size_t len) {
  size_t k = 0;
  for (; *key && k + 1 < len; key++) {
    char c = safe_char(*key) ? *key : '_';
    if ((c == '_' && k && out[k - 1] == '_') || (c == '.' && k == 0)) continue;
    out[k++] = c;
  }
  while (k && out[k - 1] == '_') k--;
  out[k] = '\0';
}

int mg_store_name_ok(const char *name) {
  size_t n = strlen(name);
  if (n == 0 || n >= MG_STORE_NAME_MAX || name[0] == '.') return 0;
  for (size_t i = 0; i < n; i++)
    if (!safe_char(name[i]) && name[i] != '_') return 0;
  return 1;
}

int mg_store_slot(int level, int np, int nnodes, const char *rpn, char *out, size_t len) {
  int k;
  if (level == MG_STORE_EXACT) {
    if (!rpn || !*rpn || strspn(rpn, "0123456789-") != strlen(rpn) || nnodes < 1) return -1;
    k = snprintf(out, len, "np%d-%dx%s.profile", np, nnodes, rpn);
  } else if (level == MG_STORE_NP) {
    k = snprintf(out, len, "np%d.profile", np);
  } else if (level == MG_STORE_LIBRARY) {
    k = snprintf(out, len, "default.profile");
  } else {
    return -1;
  }
  return k < 0 || (size_t)k >= len ? -1 : 0;
}

int mg_store_release_ok(const char *store, const char *name, char *err, size_t errlen) {
  char dir[PATH_MAX + 200];
  struct stat st;
  if (!mg_store_name_ok(name)) return MG_ERR("profile store '%s': '%.200s' is not a release name", store, name);
  snprintf(dir, sizeof dir, "%s/releases/%s", store, name);
  int missing = lstat(dir, &st) != 0;
  if (missing || !S_ISDIR(st.st_mode))
    return MG_ERR("profile store '%s': release %s is %s", store, name, missing ? "missing" : "no directory");
  snprintf(dir, sizeof dir, "%s/releases/%s/%s", store, name, MG_STORE_MANIFEST);
  if (lstat(dir, &st) != 0 || !S_ISREG(st.st_mode))
    return MG_ERR("profile store '%s': release %s has no %s: not a release `mpiguide site publish` made", store, name,
                  MG_STORE_MANIFEST);
  return 0;
}

int mg_store_current(const char *store, char *rel, size_t len, char *err, size_t errlen) {
  char link[PATH_MAX], target[PATH_MAX + 16];
  snprintf(link, sizeof link, "%s/current", store);
  ssize_t k = readlink(link, target, sizeof target - 1);
  if (k < 0) {
    struct stat st;
    if (errno == ENOENT && lstat(link, &st) != 0) {
      if (stat(store, &st) != 0) return MG_ERR("profile store '%s': %s", store, strerror(errno));
      if (!S_ISDIR(st.st_mode)) return MG_ERR("profile store '%s' is not a directory", store);
      return 1;
    }
    return MG_ERR("profile store '%s': %s/current is not a symbolic link to a release (%s)", store, store,
                  errno == EINVAL ? "a file" : strerror(errno));
  }
  target[k] = '\0';
  const char *name = target + strlen("releases/");
  if (strncmp(target, "releases/", strlen("releases/")) || !mg_store_name_ok(name))
    return MG_ERR("profile store '%s': current -> '%.200s' is not a release of the store (releases/NAME, NAME "
                  "of letters, digits, '.', '_', '-')", store, target);
  if (mg_store_release_ok(store, name, err, errlen)) return -1;
  if (strlen(name) + 1 > len) return MG_ERR("profile store '%s': release name too long", store);
  memcpy(rel, name, strlen(name) + 1);
  return 0;
}

int mg_store_find(const char *store, const char *rel, const char *libdir, int np, int nnodes, const char *rpn,
                  char *out, size_t len, char *err, size_t errlen) {
  if (!mg_store_name_ok(rel) || !mg_store_name_ok(libdir)) return MG_STORE_NONE;
  for (int level = MG_STORE_EXACT; level <= MG_STORE_LIBRARY; level++) {
    char slot[96], path[PATH_MAX + 400];
    if (mg_store_slot(level, np, nnodes, rpn, slot, sizeof slot)) continue; /* layout unknown: no exact */
    int k = snprintf(out, len, "releases/%s/%s/%s", rel, libdir, slot);
    if (k < 0 || (size_t)k >= len) return MG_ERR("profile store '%s': path too long", store);
    snprintf(path, sizeof path, "%s/%s", store, out);
    struct stat st;
    if (lstat(path, &st) != 0) continue;
    if (!S_ISREG(st.st_mode)) return MG_ERR("profile store '%s': %s is no regular file", store, out);
    if (st.st_size > MG_STORE_FILE_MAX)
      return MG_ERR("profile store '%s': %s is larger than %ld MiB: not a profile", store, out,
                    MG_STORE_FILE_MAX >> 20);
    return level;
  }
  return MG_STORE_NONE;
}
