/*
 * Raw result files: atomic output files, metadata lines, CSV and ReproMPI
 * rows (formats in csv.h and docs/bench.md).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/csv.h"
#include "util/text.h"
#include "util/err.h"


int mg_outfile_open(mg_outfile *o, const char *path, char *err, size_t errlen) {
  memset(o, 0, sizeof *o);
  size_t n = strlen(path);
  if (n == 0) return MG_ERR("empty output path");
  if (path[n - 1] == '/') return MG_ERR("output path '%s' is a directory", path);
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return MG_ERR("output path '%s' is a directory", path);
  o->path = strdup(path);
  o->tmp = malloc(n + 32);
  if (!o->path || !o->tmp) {
    mg_outfile_discard(o);
    return MG_ERR("out of memory");
  }
  snprintf(o->tmp, n + 32, "%s.partial.XXXXXX", path);
  int fd = mkstemp(o->tmp);
  if (fd < 0) {
    int e = errno;
    free(o->tmp);
    o->tmp = NULL;
    mg_outfile_discard(o);
    return MG_ERR("cannot write '%s': %s", path, strerror(e));
  }
  mode_t um = umask(0);
  umask(um);
  (void)fchmod(fd, 0666 & ~um); /* mkstemp creates 0600; give the usual mode */
  o->f = fdopen(fd, "w");
  if (!o->f) {
    int e = errno;
    close(fd);
    mg_outfile_discard(o);
    return MG_ERR("cannot write '%s': %s", path, strerror(e));
  }
  return 0;
}

int mg_outfile_commit(mg_outfile *o, char *err, size_t errlen) {
  int bad = fflush(o->f) != 0 || ferror(o->f);
  int e = errno;
  if (fclose(o->f) != 0 && !bad) {
    bad = 1;
    e = errno;
  }
  o->f = NULL;
  if (!bad && rename(o->tmp, o->path) != 0) {
    bad = 1;
    e = errno;
  }
  if (bad) {
    snprintf(err, errlen, "writing '%s' failed: %s", o->path, strerror(e));
    mg_outfile_discard(o);
    return -1;
  }
  free(o->tmp);
  o->tmp = NULL;
  free(o->path);
  o->path = NULL;
  return 0;
}

void mg_outfile_discard(mg_outfile *o) {
  if (o->f) fclose(o->f);
  if (o->tmp) unlink(o->tmp);
  free(o->tmp);
  free(o->path);
  memset(o, 0, sizeof *o);
}

void mg_meta(FILE *f, const char *key, const char *fmt, ...) {
  char buf[16384];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  fprintf(f, "#@%s=", key);
  for (const char *p = buf; *p; p++) {
    if (*p == '\r') continue;
    if (*p == '\n') {
      if (p[1]) fputs("; ", f);
    } else {
      fputc(*p, f);
    }
  }
  fputc('\n', f);
}

const char *const mg_raw_col_names[MG_RAW_NCOLS] = {
#define MG_X(E, name, write) [MG_RAW_##E] = name,
    MG_RAW_COLUMNS(MG_X)
#undef MG_X
};

static const char raw_header[] =
#define MG_X(E, name, write) "," name
    MG_RAW_COLUMNS(MG_X)
#undef MG_X
    ;
const char *const mg_raw_columns = raw_header + 1; /* without the first comma */

void mg_raw_header(FILE *f) { fprintf(f, "%s\n", mg_raw_columns); }

void mg_raw_row_write(FILE *f, const mg_raw_row *r) {
#define MG_X(E, name, write)            \
  if (MG_RAW_##E != 0) fputc(',', f); \
  write;
  MG_RAW_COLUMNS(MG_X)
#undef MG_X
  fputc('\n', f);
}

const char *const mg_repro_col_names[MG_REPRO_NCOLS] = {
#define MG_X(E, name) [MG_REPRO_##E] = name,
    MG_REPRO_COLUMNS(MG_X)
#undef MG_X
};

void mg_repro_header(FILE *f) {
  for (int c = 0; c < MG_REPRO_NCOLS; c++) fprintf(f, "%s%s", c ? " " : "", mg_repro_col_names[c]);
  fputc('\n', f);
}

/* In the order of MG_REPRO_COLUMNS. */
void mg_repro_row(FILE *f, const char *test, long nrep, size_t msize, double runtime) {
  fprintf(f, "%s %ld %zu %.9f\n", test, nrep, msize, runtime);
}
