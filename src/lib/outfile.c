/*
 * The files libmpiguide writes at MPI_Finalize (outfile.h): a name followed
 * through its symbolic links to the file open() would write, a probe at
 * MPI_Init that leaves nothing behind, and the write through TARGET.tmp
 * renamed onto the target (removed on failure).
 *
 * The probe once opened the name itself for appending and unlinked it when it
 * had not existed: for a name that was a dangling symbolic link, that created
 * the link's target and removed the link, and the rename at MPI_Finalize put
 * a regular file where the link had been (issue 45, item 6).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/outfile.h"

/* As Linux's open() (MAXSYMLINKS): a longer chain is a loop. */
#define MG_OUT_MAXLINKS 40

int mg_out_target(const char *path, char *out, size_t len) {
  char cur[PATH_MAX], link[PATH_MAX];
  size_t n = strlen(path);
  if (n + 1 > sizeof cur) return ENAMETOOLONG;
  memcpy(cur, path, n + 1);
  for (int hops = 0;; hops++) {
    struct stat st;
    if (lstat(cur, &st) != 0 || !S_ISLNK(st.st_mode)) break; /* the end: a file, or nothing yet */
    if (hops == MG_OUT_MAXLINKS) return ELOOP;
    ssize_t k = readlink(cur, link, sizeof link);
    if (k < 0) return errno;
    if ((size_t)k >= sizeof link) return ENAMETOOLONG;
    /* absolute, or relative to the directory that holds the link */
    const char *slash = strrchr(cur, '/');
    size_t dir = link[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
    if (dir + (size_t)k + 1 > sizeof cur) return ENAMETOOLONG;
    memcpy(cur + dir, link, (size_t)k);
    cur[dir + (size_t)k] = '\0';
  }
  n = strlen(cur);
  if (n + 1 > len) return ENAMETOOLONG;
  memcpy(out, cur, n + 1);
  return 0;
}

/* TARGET.tmp into tmp[len]: 0, or -1 when it does not fit. */
static int tmp_name(const char *target, char *tmp, size_t len) {
  int k = snprintf(tmp, len, "%s.tmp", target);
  return k < 0 || (size_t)k >= len ? -1 : 0;
}

/* Whether target is no regular file (a device, a FIFO): 1, written in place; 0 a regular file or
 * none yet; -1 with errno (EISDIR: a directory). */
static int in_place(const char *target) {
  struct stat st;
  if (stat(target, &st) != 0) return 0;
  if (S_ISDIR(st.st_mode)) return errno = EISDIR, -1;
  return !S_ISREG(st.st_mode);
}

int mg_out_probe(const char *path) {
  char target[PATH_MAX], tmp[PATH_MAX + 8];
  int e = mg_out_target(path, target, sizeof target);
  if (e) return e;
  int ip = in_place(target);
  if (ip < 0) return errno;
  /* a file there must be writable, as for open(): a read-only one is not replaced (and opening a
   * FIFO would wait for a reader) */
  if ((ip || access(target, F_OK) == 0) && access(target, W_OK) != 0) return errno;
  if (ip) return 0;
  if (tmp_name(target, tmp, sizeof tmp)) return ENAMETOOLONG;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd >= 0) {
    close(fd);
    unlink(tmp);
    return 0;
  }
  if (errno != EEXIST) return errno;
  /* a temporary a killed run left: MPI_Finalize overwrites it; can it? */
  fd = open(tmp, O_WRONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return errno;
  close(fd);
  return 0;
}

FILE *mg_out_open(const char *path, char *target, size_t tlen, char *tmp, size_t tmplen) {
  int e = mg_out_target(path, target, tlen);
  if (e) return errno = e, NULL;
  int ip = in_place(target);
  if (ip < 0) return NULL;
  if (ip) {
    if (tmplen) tmp[0] = '\0';
    return fopen(target, "w");
  }
  if (tmp_name(target, tmp, tmplen)) return errno = ENAMETOOLONG, NULL;
  int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return NULL;
  FILE *f = fdopen(fd, "w");
  if (!f) {
    e = errno;
    close(fd);
    unlink(tmp);
    errno = e;
  }
  return f;
}

int mg_out_commit(FILE *f, const char *tmp, const char *target) {
  errno = 0;
  int e = fflush(f) != 0 || ferror(f) ? (errno ? errno : EIO) : 0;
  if (fclose(f) != 0 && !e) e = errno ? errno : EIO;
  if (!e && tmp[0] && rename(tmp, target) != 0) e = errno;
  if (e && tmp[0]) unlink(tmp);
  return e;
}

const char *mg_out_job_id(void) {
  static const char *const vars[] = {"SLURM_JOB_ID", "PBS_JOBID", "LSB_JOBID", "JOB_ID", "FLUX_JOB_ID"};
  for (size_t i = 0; i < sizeof vars / sizeof *vars; i++) {
    const char *v = getenv(vars[i]);
    if (v && *v) return v;
  }
  return NULL;
}

/* v appended to out[*k..len) as one safe path component; -1 when it does not fit. */
static int put_safe(const char *v, char *out, size_t *k, size_t len) {
  for (size_t i = 0; v[i]; i++) {
    char c = v[i];
    int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
             (c == '.' && i > 0);
    if (*k + 1 >= len) return -1;
    out[(*k)++] = ok ? c : '_';
  }
  return 0;
}

int mg_out_expand(const char *pattern, const char *job, const char *host, long pid, char *out, size_t len, char *err,
                  size_t errlen) {
  size_t k = 0;
  char num[32];
  for (const char *p = pattern; *p; p++) {
    int bad = 0;
    if (*p != '%') {
      bad = k + 1 >= len;
      if (!bad) out[k++] = *p;
    } else if (p[1] == '%') {
      bad = k + 1 >= len;
      if (!bad) out[k++] = '%';
      p++;
    } else if (p[1] == 'j' || p[1] == 'h' || p[1] == 'p') {
      snprintf(num, sizeof num, "%ld", pid);
      const char *v = p[1] == 'j' ? (job && *job ? job : "nojob") : p[1] == 'h' ? (host && *host ? host : "nohost") : num;
      bad = put_safe(v, out, &k, len);
      p++;
    } else {
      if (p[1])
        snprintf(err, errlen, "unknown placeholder '%%%c' (valid: %%j job, %%h host, %%p pid, %%%% a '%%')", p[1]);
      else
        snprintf(err, errlen, "a '%%' at the end (write %%%% for a '%%')");
      return -1;
    }
    if (bad) {
      snprintf(err, errlen, "longer than %zu characters once expanded", len - 1);
      return -1;
    }
  }
  if (len) out[k] = '\0';
  return 0;
}
