/*
 * The trace (MPIGUIDE_TRACE): per (collective, message size, algorithm,
 * fallback reason) the number of calls. Each rank keeps its own table (an
 * open-addressing hash); at MPI_Finalize the tables are gathered on rank 0 of
 * MPI_COMM_WORLD, merged and written as one CSV file (docs/trace.md).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/lib.h"
#include "mpiguide.h"

typedef struct mg_trace_rec {
  int64_t coll, alg, why, used, nprocs, rule;
  int64_t bytes;
  int64_t calls; /* on one rank; after merging: max over ranks */
  int64_t ranks; /* after merging: ranks that made such calls */
} mg_trace_rec;

struct mg_trace {
  mg_trace_rec *slot;
  size_t cap, n;
};

mg_trace *mg_trace_new(void) {
  mg_trace *t = calloc(1, sizeof *t);
  if (!t) return NULL;
  t->cap = 256;
  t->slot = calloc(t->cap, sizeof *t->slot);
  if (!t->slot) {
    free(t);
    return NULL;
  }
  return t;
}

void mg_trace_free(mg_trace *t) {
  if (!t) return;
  free(t->slot);
  free(t);
}

static size_t hash(const mg_trace_rec *k) {
  uint64_t h = (uint64_t)k->bytes * 0x9E3779B97F4A7C15ull;
  h ^= (uint64_t)(k->coll * 131 + k->alg * 7 + k->why + k->nprocs * 8191 + k->rule * 65537) *
       0xC2B2AE3D27D4EB4Full;
  return (size_t)(h ^ (h >> 29));
}

static mg_trace_rec *lookup(mg_trace *t, const mg_trace_rec *k) {
  size_t i = hash(k) & (t->cap - 1);
  for (;; i = (i + 1) & (t->cap - 1)) {
    mg_trace_rec *r = &t->slot[i];
    if (!r->used) return r;
    if (r->coll == k->coll && r->bytes == k->bytes && r->alg == k->alg && r->why == k->why &&
        r->nprocs == k->nprocs && r->rule == k->rule)
      return r;
  }
}

static int grow(mg_trace *t) {
  mg_trace old = *t;
  mg_trace_rec *s = calloc(old.cap * 2, sizeof *s);
  if (!s) return -1;
  t->slot = s;
  t->cap = old.cap * 2;
  for (size_t i = 0; i < old.cap; i++)
    if (old.slot[i].used) *lookup(t, &old.slot[i]) = old.slot[i];
  free(old.slot);
  return 0;
}

static void add(mg_trace *t, const mg_trace_rec *in) {
  if (!t) return;
  if (2 * (t->n + 1) > t->cap && grow(t) != 0) return; /* out of memory: the trace loses a row, the job goes on */
  mg_trace_rec *r = lookup(t, in);
  if (!r->used) {
    *r = *in;
    r->calls = 0;
    r->ranks = 0;
    t->n++;
  }
  if (in->ranks) { /* merging another rank's row */
    r->calls = in->calls > r->calls ? in->calls : r->calls;
    r->ranks += in->ranks;
  } else {
    r->calls += in->calls;
  }
}

void mg_trace_add(mg_trace *t, mg_coll coll, int nprocs, size_t bytes, int alg, mg_why why, int rule) {
  mg_trace_rec in = {.coll = coll, .alg = alg, .why = why, .used = 1, .nprocs = nprocs, .rule = rule,
                     .bytes = (int64_t)bytes, .calls = 1, .ranks = 0};
  add(t, &in);
}

static int cmp(const void *a, const void *b) {
  const mg_trace_rec *x = a, *y = b;
  if (x->coll != y->coll) return x->coll < y->coll ? -1 : 1;
  if (x->nprocs != y->nprocs) return x->nprocs < y->nprocs ? -1 : 1;
  if (x->bytes != y->bytes) return x->bytes < y->bytes ? -1 : 1;
  if (x->alg != y->alg) return x->alg < y->alg ? -1 : 1;
  if (x->rule != y->rule) return x->rule < y->rule ? -1 : 1;
  return x->why < y->why ? -1 : x->why > y->why;
}

/* What chose the algorithm of a row, as the dispatch recorded it:
 * "MPIGUIDE_ALG", the profile rule's line ("line 12"), "profile" for a rule
 * without a line, or "" (nothing: the default was never in question). */
static void rule_of(const mg_trace_rec *r, char *buf, size_t len) {
  if (r->rule == MG_RULE_FORCED)
    snprintf(buf, len, "MPIGUIDE_ALG");
  else if (r->rule > 0)
    snprintf(buf, len, "line %lld", (long long)r->rule);
  else if (r->rule == 0)
    snprintf(buf, len, "profile");
  else
    buf[0] = '\0';
}

void mg_trace_write(mg_trace *t, const char *path) {
  int rank, size;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);

  /* This rank's rows, compacted, each counted as one rank. */
  int n = 0;
  mg_trace_rec *mine = t ? malloc((t->n + 1) * sizeof *mine) : NULL;
  if (mine)
    for (size_t i = 0; i < t->cap; i++)
      if (t->slot[i].used) {
        mine[n] = t->slot[i];
        mine[n++].ranks = 1;
      }
  int bytes = n * (int)sizeof *mine;
  int *counts = rank == 0 ? calloc((size_t)size, sizeof *counts) : NULL;
  int *displs = rank == 0 ? calloc((size_t)size, sizeof *displs) : NULL;
  PMPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  char *all = NULL;
  long total = 0;
  if (rank == 0) {
    for (int i = 0; i < size; i++) {
      displs[i] = (int)total;
      total += counts[i];
    }
    all = malloc((size_t)total + 1);
  }
  PMPI_Gatherv(mine, bytes, MPI_BYTE, all, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
  free(mine);
  if (rank != 0) return;

  mg_trace *merged = mg_trace_new();
  mg_trace_rec *recs = (mg_trace_rec *)all;
  for (long i = 0; merged && i < total / (long)sizeof *recs; i++) add(merged, &recs[i]);
  free(all);
  free(counts);
  free(displs);
  if (!merged) return;

  mg_trace_rec *rows = malloc((merged->n + 1) * sizeof *rows);
  size_t m = 0;
  for (size_t i = 0; rows && i < merged->cap; i++)
    if (merged->slot[i].used) rows[m++] = merged->slot[i];
  if (rows) qsort(rows, m, sizeof *rows, cmp);

  char tmp[4200];
  snprintf(tmp, sizeof tmp, "%s.tmp", path);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    fprintf(stderr, "mpiguide: warning: cannot write MPIGUIDE_TRACE file '%s'\n", tmp);
  } else {
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    PMPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\r\n")] = '\0';
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
    fprintf(f, "#@mpiguide_trace=1\n#@mpiguide_version=%s\n#@mpi_library=%s\n#@nprocs=%d\n#@date=%s\n",
            MPIGUIDE_VERSION, lib, size, date);
    const char *alg = getenv("MPIGUIDE_ALG");
    fprintf(f, "#@MPIGUIDE_ALG=%s\n#@scratch_max=%zu\n", alg ? alg : "", mg_the_ctx.scratch_max);
    if (mg_the_ctx.profile_path) fprintf(f, "#@MPIGUIDE_PROFILE=%s\n", mg_the_ctx.profile_path);
    fprintf(f, "collective,bytes,algorithm,calls,ranks,fallback,nprocs,rule\n");
    for (size_t i = 0; i < m; i++) {
      const mg_coll_info *ci = &mg_colls[rows[i].coll];
      char rule[64];
      rule_of(&rows[i], rule, sizeof rule);
      fprintf(f, "%s,%lld,%s,%lld,%lld,%s,%lld,%s\n", ci->name, (long long)rows[i].bytes,
              rows[i].alg ? ci->algs[rows[i].alg].name : "default", (long long)rows[i].calls,
              (long long)rows[i].ranks, mg_why_key((mg_why)rows[i].why), (long long)rows[i].nprocs, rule);
    }
    if (fclose(f) != 0 || rename(tmp, path) != 0)
      fprintf(stderr, "mpiguide: warning: cannot write MPIGUIDE_TRACE file '%s'\n", path);
  }
  free(rows);
  mg_trace_free(merged);
}
