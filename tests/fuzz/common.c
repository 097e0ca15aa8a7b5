/*
 * What every fuzz target and the truncation walk share (fuzz.h): the failure of an invariant,
 * the directory input files are written to, the dump hash and the check of an error message.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"
#include "util/hash.h"

void mg_fz_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "mg-fuzz: invariant broken: ");
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  abort();
}

static char fz_dir[256];

static void fz_cleanup(void) {
  DIR *d = opendir(fz_dir);
  if (d) {
    struct dirent *e;
    char p[512];
    while ((e = readdir(d)))
      if (e->d_name[0] != '.' && snprintf(p, sizeof p, "%s/%s", fz_dir, e->d_name) < (int)sizeof p) unlink(p);
    closedir(d);
  }
  rmdir(fz_dir);
}

const char *mg_fz_dir(void) {
  if (fz_dir[0]) return fz_dir;
  const char *bases[] = {"/dev/shm", getenv("TMPDIR"), "/tmp"};
  for (size_t i = 0; i < sizeof bases / sizeof *bases; i++) {
    if (!bases[i] || !*bases[i]) continue;
    snprintf(fz_dir, sizeof fz_dir, "%s/mg-fuzz.%ld.XXXXXX", bases[i], (long)getpid());
    if (mkdtemp(fz_dir)) {
      atexit(fz_cleanup);
      return fz_dir;
    }
  }
  fprintf(stderr, "mg-fuzz: cannot make a directory for input files in /dev/shm, $TMPDIR or /tmp: %s\n",
          strerror(errno));
  exit(2);
}

void mg_fz_write(const char *name, const void *data, size_t n, char *path, size_t size) {
  snprintf(path, size, "%s/%s", mg_fz_dir(), name);
  FILE *f = fopen(path, "wb");
  if (!f || fwrite(data, 1, n, f) != n || fclose(f) != 0) {
    fprintf(stderr, "mg-fuzz: cannot write %s: %s\n", path, strerror(errno));
    exit(2);
  }
}

char *mg_fz_slurp(const char *path, size_t *n) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  size_t cap = 4096, len = 0;
  char *b = malloc(cap + 1);
  size_t got;
  while (b && (got = fread(b + len, 1, cap - len, f)) > 0) {
    len += got;
    if (len == cap) {
      char *nb = realloc(b, 2 * cap + 1);
      if (!nb) free(b);
      b = nb, cap *= 2;
    }
  }
  fclose(f);
  if (b) b[len] = '\0', *n = len;
  return b;
}

void mg_fz_hash_init(mg_fz_hash *h) { h->h = MG_FNV1A64_INIT; }
void mg_fz_hash_bytes(mg_fz_hash *h, const void *p, size_t n) { h->h = mg_fnv1a64(h->h, p, n); }
void mg_fz_hash_str(mg_fz_hash *h, const char *s) {
  if (!s) s = "(null)";
  mg_fz_hash_bytes(h, s, strlen(s) + 1);
}
void mg_fz_hash_long(mg_fz_hash *h, long long v) { mg_fz_hash_bytes(h, &v, sizeof v); }
void mg_fz_hash_double(mg_fz_hash *h, double v) {
  if (v != v) v = __builtin_nan("");
  mg_fz_hash_bytes(h, &v, sizeof v);
}

int mg_fz_terminated(const char *s, size_t n) { return memchr(s, '\0', n) != NULL; }

void mg_fz_check_error(const char *what, const char *path, const char *err) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  MG_FZ_CHECK(err[0], "%s: the reader refused %s without a message", what, path);
  MG_FZ_CHECK(strstr(err, base), "%s: the reader's message does not name the file %s: '%s'", what, base, err);
}
