/*
 * Fuzzing test of the profile readers: `fuzz_profile [iterations] [seed]`
 * (default 100000 mutations, fixed seed, so a failure reproduces).
 *
 * Each iteration takes a valid profile (mpiguide format or PGMPITuneLib .prf),
 * applies 1-4 mutations (bit flips, byte replacements, deletions,
 * truncations, duplicated spans, inserted tokens, huge numbers) and parses the
 * result from an exactly sized heap buffer without a terminating NUL, so that
 * AddressSanitizer sees any read past the end. Properties checked:
 *  - rejected: no profile, at least one diagnostic, each with a status, a
 *    message and a line within the input;
 *  - accepted: the canonical text parses back to the same hash and the same
 *    decisions, and writing it again gives the same text.
 * Build with -DMPIGUIDE_SANITIZE=ON to check memory errors and leaks too.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/test.h"
#include "tune/profile.h"

static const char *const seeds[] = {
    "mpiguide-profile 1\n"
    "# Written by mpiguide tune\n"
    "\n"
    "allreduce  np=4  1K-64K    allreduce_as_reduce_bcast                  # slowdown 1.31 [1.22, 1.40]\n"
    "allreduce  np=4  128K-4M   allreduce_as_reducescatterblock_allgather  # slowdown 1.18\n"
    "allreduce  np=8  1K-16K    allreduce_as_reduce_bcast\n"
    "bcast      np=2-16  1M-*   bcast_as_scatter_allgather\n"
    "scan       np=*     0-8K   scan_as_exscan_reducelocal\n"
    "scan       np=1     0-8K   default   # one process\n",

    "mpiguide-profile 1\n"
    "gather np=3 16-16 gather_as_allgather\n"
    "gather np=3 32 gather_as_gatherv\n"
    "reduce_scatter_block np=2-* 0-1G reduce_scatter_block_as_allreduce\n"
    "alltoall np=64 * alltoall_as_alltoallv\n"
    "scatter np=7 1023-1025 scatter_as_bcast\n"
    "reduce np=5 4096-8191 reduce_as_reducescatter_gatherv\n"
    "allgather np=100-200 2G-* allgather_as_allgatherv\n",

    "mpiguide-profile 2\n"
    "allreduce  np=4  1K-64K  type=float  op=sum  allreduce_as_reduce_bcast  # slowdown 1.31\n"
    "allreduce  np=4  1K-64K                      allreduce_as_reducescatterblock_allgather\n"
    "allreduce  np=4  0-512               op=max  default\n"
    "allreduce  np=*  128K-*  type=int            allreduce_as_reducescatter_allgatherv\n"
    "reduce     np=2-8  *     type=byte   op=bor  reduce_as_allreduce\n"
    "scan       np=3  0-8K    type=int    op=land scan_as_exscan_reducelocal\n",

    "MPI_Allgather # collective name\n"
    "4 # processes\n"
    "3\n"
    "1 allgather_as_allreduce\n"
    "2 allgather_as_alltoall\n"
    "3 allgather_as_gather_bcast\n"
    "4 # ranges\n"
    "16 16 1\n"
    "32 32 2\n"
    "64 128 1\n"
    "1024 2048 3\n",

    "MPI_Reduce_scatter_block\n"
    "8\n"
    "2\n"
    "1 reducescatterblock_as_reduce_scatter\n"
    "0 default\n"
    "2\n"
    "8 256 1\n"
    "512 4096 0\n",
};
#define NSEEDS ((int)(sizeof seeds / sizeof seeds[0]))

static const char *const tokens[] = {"mpiguide-profile",
                                     "1",
                                     "2",
                                     "np=",
                                     "np=*",
                                     "np=1-*",
                                     "np=0",
                                     "np=2147483647",
                                     "np=2147483648",
                                     "*",
                                     "-",
                                     "--",
                                     "-*",
                                     "0-*",
                                     "K",
                                     "M",
                                     "G",
                                     "T",
                                     "1.5K",
                                     "#",
                                     "# c",
                                     "\n",
                                     "\r\n",
                                     "\t",
                                     " ",
                                     "18446744073709551615",
                                     "18446744073709551616",
                                     "99999999999999999999999999",
                                     "17179869184G",
                                     "16777216M",
                                     "4294967295",
                                     "-1",
                                     "default",
                                     "allreduce",
                                     "bcast",
                                     "scan",
                                     "MPI_Allreduce",
                                     "allreduce_as_reduce_bcast",
                                     "bcast_as_allgatherv",
                                     "reducescatterblock_as_allreduce",
                                     "reduce_scatter_block",
                                     "\xEF\xBB\xBF",
                                     "\xff",
                                     "\0",
                                     "allreduce np=4 1K-2K default\n",
                                     "bcast np=* * bcast_as_allgatherv\n",
                                     "mpiguide-profile 1\n",
                                     "4096 8192 1\n",
                                     "0 default\n",
                                     "type=float",
                                     "type=int",
                                     "type=byte",
                                     "type=",
                                     "type=double",
                                     "op=sum",
                                     "op=bor",
                                     "op=maxloc",
                                     "op=",
                                     "op=MPI_SUM",
                                     "mpiguide-profile 2\n",
                                     "allreduce np=4 1K-2K type=float op=sum default\n"};
#define NTOKENS ((int)(sizeof tokens / sizeof tokens[0]))

static uint64_t rng;
static uint64_t rnd(void) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return rng;
}

#define CAP 8192

/* Insert n bytes at pos (bounded by CAP). */
static size_t insert(char *b, size_t len, size_t pos, const char *s, size_t n) {
  if (len + n > CAP) n = CAP - len;
  memmove(b + pos + n, b + pos, len - pos);
  memcpy(b + pos, s, n);
  return len + n;
}

static size_t mutate(char *b, size_t len) {
  size_t pos = len ? rnd() % len : 0;
  switch (rnd() % 8) {
  case 0: /* bit flip */
    if (len) b[pos] ^= (char)(1u << (rnd() % 8));
    break;
  case 1: { /* byte replacement, often a structural one */
    static const char special[] = "\0\n#-*= KMG09\t\r.";
    if (len) b[pos] = rnd() % 2 ? special[rnd() % (sizeof special - 1)] : (char)rnd();
    break;
  }
  case 2: { /* deletion */
    size_t n = 1 + rnd() % 16;
    if (pos + n > len) n = len - pos;
    memmove(b + pos, b + pos + n, len - pos - n);
    len -= n;
    break;
  }
  case 3: /* truncation */
    len = pos;
    break;
  case 4:
  case 5: { /* a token, with or without blanks */
    int t = (int)(rnd() % NTOKENS);
    size_t n = strcmp(tokens[t], "\0") == 0 ? 1 : strlen(tokens[t]);
    if (rnd() % 2) len = insert(b, len, pos, " ", 1);
    len = insert(b, len, pos, tokens[t], n);
    break;
  }
  case 6: { /* duplicate a span (often a whole line) */
    size_t from = len ? rnd() % len : 0, n = 1 + rnd() % 64;
    char tmp[64];
    if (from + n > len) n = len - from;
    memcpy(tmp, b + from, n);
    len = insert(b, len, pos, tmp, n);
    break;
  }
  case 7: { /* a run of digits replaced by a huge or boundary number */
    static const char *const nums[] = {"0",
                                       "1",
                                       "2147483647",
                                       "2147483648",
                                       "4294967296",
                                       "18446744073709551615",
                                       "18446744073709551616",
                                       "999999999999999999999999"};
    while (pos < len && !(b[pos] >= '0' && b[pos] <= '9')) pos++;
    size_t end = pos;
    while (end < len && b[end] >= '0' && b[end] <= '9') end++;
    memmove(b + pos, b + end, len - end);
    len -= end - pos;
    const char *s = nums[rnd() % 8];
    len = insert(b, len, pos, s, strlen(s));
    break;
  }
  }
  return len;
}

static int count_lines(const char *b, size_t len) {
  int n = 1;
  for (size_t i = 0; i < len; i++) n += b[i] == '\n';
  return n;
}

int main(int argc, char **argv) {
  long iters = argc > 1 ? strtol(argv[1], NULL, 10) : 100000;
  rng = argc > 2 ? strtoull(argv[2], NULL, 0) : 0x2545F4914F6CDD1DULL;
  if (!rng) rng = 1;
  static char work[CAP];
  long accepted = 0, rejected = 0, ndiag = 0;
  clock_t t0 = clock();
  mg_test_max_shown = 10;
  for (long iter = 0; iter < iters; iter++) {
    char where[48];
    snprintf(where, sizeof where, "iteration %ld", iter);
    TEST_CASE(where);
    int s = (int)(rnd() % NSEEDS), prf = s >= 3; /* seeds 3 and 4 are .prf */
    size_t len = strlen(seeds[s]);
    memcpy(work, seeds[s], len);
    for (int m = rnd() % 2 ? 1 : 1 + (int)(rnd() % 4); m > 0; m--) len = mutate(work, len);
    char *buf = malloc(len ? len : 1); /* exact size, no NUL: over-reads are caught by ASan */
    memcpy(buf, work, len);

    mg_profile_diags d;
    mg_profile_diags_init(&d, 1 + (int)(rnd() % 20));
    mg_profile *p = NULL;
    int st =
        prf ? mg_profile_parse_prf(buf, len, "fuzz.prf", &p, &d) : mg_profile_parse(buf, len, "fuzz", &p, &d);
    int nlines = count_lines(buf, len);
    char line[4096];
    for (int i = 0; i < d.n; i++) {
      mg_profile_diag_format(&d.v[i], line, sizeof line);
      ASSERT_MSG(d.v[i].status != MG_PROFILE_OK && d.v[i].msg[0] && d.v[i].line >= 0 && d.v[i].line <= nlines,
                 "bad diagnostic: %s", line);
    }
    ndiag += d.n;
    if (st != MG_PROFILE_OK) {
      rejected++;
      ASSERT_MSG(!p, "rejected (%s) but a profile was returned", mg_profile_strerror(st));
      ASSERT_MSG(d.n + d.dropped > 0, "rejected (%s) without a diagnostic", mg_profile_strerror(st));
    } else {
      accepted++;
      if (!p) {
        TEST_FAIL("accepted without a profile");
      } else {
        ASSERT_MSG(d.n == 0, "accepted with %d diagnostics", d.n);
        size_t tlen;
        char *text = mg_profile_format(p, &tlen);
        mg_profile *q = NULL;
        mg_profile_diags d2 = {0};
        if (!text || mg_profile_parse(text, tlen, "canonical", &q, &d2) != MG_PROFILE_OK) {
          TEST_FAIL("the canonical text does not parse back");
          if (text) fprintf(stderr, "%s\n", text);
          for (int i = 0; i < d2.n && mg_test_failures <= 10; i++) {
            mg_profile_diag_format(&d2.v[i], line, sizeof line);
            fprintf(stderr, "  %s\n", line);
          }
        } else {
          char *again = mg_profile_format(q, NULL);
          ASSERT_MSG(again && strcmp(again, text) == 0, "writing is not idempotent");
          ASSERT_MSG(mg_profile_hash(q) == mg_profile_hash(p), "hash changed in a round trip");
          for (int k = 0; k < 64; k++) {
            mg_coll c = (mg_coll)(rnd() % MG_NCOLL);
            int np = k % 4 == 0 ? INT_MAX : (int)(rnd() % 20);
            size_t bytes = k % 5 == 0 ? SIZE_MAX - rnd() % 3 : (size_t)(rnd() % (1u << (rnd() % 32)));
            int t = (int)(rnd() % (MG_NTCLASS + 1)) - 1, o = (int)(rnd() % (MG_NOPSEL + 1)) - 1; /* NONE.. */
            if (mg_profile_lookup(p, c, np, bytes) != mg_profile_lookup(q, c, np, bytes) ||
                mg_profile_lookup_sel(p, c, np, bytes, t, o) != mg_profile_lookup_sel(q, c, np, bytes, t, o))
              TEST_FAIL("decision changed in a round trip");
          }
          free(again);
        }
        free(text);
        mg_profile_free(q);
        mg_profile_diags_free(&d2);
      }
    }
    mg_profile_free(p);
    mg_profile_diags_free(&d);
    free(buf);
  }
  double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
  printf("fuzz_profile: %ld mutations in %.2f s: %ld accepted, %ld rejected (%ld diagnostics), %d failures\n",
         iters, secs, accepted, rejected, ndiag, mg_test_failures);
  return mg_test_summary("fuzz_profile");
}
