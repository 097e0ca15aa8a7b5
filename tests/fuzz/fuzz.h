/*
 * The readers of untrusted text as the fuzz targets and the truncation walk drive them
 * (docs/fuzzing.md). Each target file (profile.c, trace.c, ...) defines one mg_fz_reader: a
 * function that reads a file by path with the project's own reader, checks what came back
 * against invariants beyond "no crash", and returns a digest of the read (a hash of a
 * canonical dump) or the reader's error. A broken invariant aborts with a message naming it,
 * which libFuzzer and CTest report as a crash.
 *
 *   fuzz_main.c   LLVMFuzzerTestOneInput: the input written to a file, one reader run on it
 *   truncate.c    every k-th prefix of a fixture (and every prefix ending at a line break) read:
 *                 a clear error, or the same digest as the whole file
 */
#ifndef MG_TESTS_FUZZ_H
#define MG_TESTS_FUZZ_H

#include <stddef.h>
#include <stdint.h>

/* What one read gave. */
typedef struct mg_fz_read {
  int ok;          /* 1: the reader accepted the file; 0: it refused it */
  uint64_t digest; /* ok: hash of the canonical dump of what was read */
  char err[2048];  /* !ok: the reader's message (must say what and where: not empty) */
} mg_fz_read;

typedef struct mg_fz_reader {
  const char *name;      /* the target's name: fuzz.<name>, corpus/<name>/ */
  const char *file_name; /* what the harness calls its input file (some readers go by the name) */
  const char *covers;    /* the reader functions it drives, for --list and the docs */
  void (*read)(const char *path, mg_fz_read *r);
} mg_fz_reader;

/* Every reader (truncate.c's table). */
extern const mg_fz_reader mg_fz_profile, mg_fz_prf, mg_fz_merge, mg_fz_rawcsv, mg_fz_repro, mg_fz_eta,
    mg_fz_trace, mg_fz_loggp, mg_fz_parse;

/* A broken invariant: the message on stderr, then abort() (a crash for libFuzzer). */
__attribute__((noreturn, format(printf, 1, 2))) void mg_fz_fail(const char *fmt, ...);
#define MG_FZ_CHECK(cond, ...)                                                                            \
  do {                                                                                                    \
    if (!(cond)) mg_fz_fail(__VA_ARGS__);                                                                \
  } while (0)

/* A directory of this process's own for input files (/dev/shm, else TMPDIR or /tmp), made once and
 * removed at exit. */
const char *mg_fz_dir(void);
/* Write data[0..n) to <mg_fz_dir()>/<name>; the path in path[size]. Aborts when it cannot. */
void mg_fz_write(const char *name, const void *data, size_t n, char *path, size_t size);
/* The whole file (malloc'd, NUL-terminated; length in *n), or NULL. */
char *mg_fz_slurp(const char *path, size_t *n);

/* FNV-1a 64 over a dump, field by field. */
typedef struct mg_fz_hash {
  uint64_t h;
} mg_fz_hash;
void mg_fz_hash_init(mg_fz_hash *h);
void mg_fz_hash_bytes(mg_fz_hash *h, const void *p, size_t n);
void mg_fz_hash_str(mg_fz_hash *h, const char *s); /* with its terminating NUL: "a","b" != "ab" */
void mg_fz_hash_long(mg_fz_hash *h, long long v);
void mg_fz_hash_double(mg_fz_hash *h, double v); /* its bits: -0 and 0 differ, every NaN the same */

/* Whether s (a buffer of size n) is NUL-terminated within it. */
int mg_fz_terminated(const char *s, size_t n);
/* A refusal's message is clear: not empty, and it names the file (its base name). */
void mg_fz_check_error(const char *what, const char *path, const char *err);

/* Shared by the targets of one family. */
struct mg_profile;
/* A built profile's invariants (canonical text reads back with the same hash, rules and lookups;
 * the text is a fixpoint; every rule and decision in range): the digest of its canonical text. */
uint64_t mg_fz_profile_check(const struct mg_profile *p, const char *what);
/* The reader of profiles of one format into r, with the invariants of a refusal (nothing returned,
 * a diagnostic naming the file) and of an accepted profile (mg_fz_profile_check). */
void mg_fz_profile_read(const char *path, int prf, mg_fz_read *r);
struct mg_ck_data;
/* The invariants of raw data read by the checker and the digest of all of it. */
uint64_t mg_fz_ck_check(const struct mg_ck_data *d, const char *what);
/* Read path into checker data that already holds a small raw.csv: refused, the data must be as
 * before; accepted, mg_fz_ck_check. */
void mg_fz_ck_read(const char *path, mg_fz_read *r);

#endif
