/*
 * The trace (MPIGUIDE_TRACE): per (collective, message size, algorithm,
 * fallback reason) the number of calls. Each rank keeps its own table (an
 * open-addressing hash); at MPI_Finalize the tables are gathered on rank 0 of
 * MPI_COMM_WORLD, merged and written as one CSV file (docs/trace.md) that ends
 * in a trailer, #@trace_rows=N (format 3), so that a reader refuses a cut file.
 *
 * The timed trace (MPIGUIDE_TRACE_TIME=1, format 2) keys the rows by call site
 * too (the return address of the application's MPI_* call) and by a
 * reduction's datatype class and op, and sums the nanoseconds spent in the
 * calls. Addresses differ per rank and run (ASLR), so at MPI_Finalize each
 * rank turns its sites into (object file, offset in it, nearest dynamic
 * symbol) with dladdr before the gather; rank 0 merges by object and offset.
 * File and line are left to the reader (`mpiguide hotspots` runs addr2line):
 * nothing on the per-call path, and no dependency beyond MPI and libc.
 */
#define _GNU_SOURCE /* dladdr1, RTLD_DL_LINKMAP */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "algs/layout.h"
#include "lib/lib.h"
#include "lib/mg_functions.h"
#include "lib/outfile.h"
#include "tune/store.h"
#include "util/text.h"
#include "mpiguide.h"

/* The format version written (docs/trace.md): 3 adds the trailer #@trace_rows (1 was the untimed
 * trace, 2 the timed one; both are 3 now, told apart by #@timed=1); 4 adds the timed trace's rows of
 * every other MPI function and its columns class, posted_by, post_object, post_offset, post_symbol. */
#define MG_TRACE_FORMAT 4

typedef struct mg_trace_rec {
  int64_t coll, alg, why, used, nprocs, rule;
  int64_t bytes;
  int64_t calls; /* on one rank; after merging: max over ranks */
  int64_t ranks; /* after merging: ranks that made such calls */
  /* timed trace only (0 in an untimed one) */
  int64_t tclass, opsel;  /* a reduction's datatype class and op selector (MG_TCLASS_NONE / MG_OPSEL_NONE) */
  int64_t site;           /* on a rank: the return address; resolved: its offset in the object */
  int64_t obj, sym;       /* resolved: indexes of the object's path and the symbol in rank 0's names */
  int64_t ns;             /* on one rank: nanoseconds in the calls; after merging: sum over ranks */
  int64_t ns_min, ns_max; /* after merging: least and most of one rank's total */
  /* a completion's row (format 4): the function that posted the requests its time is shared among
   * (MG_FN_*, -1 none or unknown) and the post's site, resolved as `site` is */
  int64_t post_fn, post_site, post_obj, post_sym;
} mg_trace_rec;

/* What a rank sends rank 0 of a timed row: the row with its site resolved, and the names. */
#define MG_TRACE_OBJ 512
#define MG_TRACE_SYM 192
typedef struct mg_trace_wire {
  mg_trace_rec r;
  char obj[MG_TRACE_OBJ]; /* "" unknown */
  char sym[MG_TRACE_SYM]; /* "" unknown */
  char post_obj[MG_TRACE_OBJ], post_sym[MG_TRACE_SYM]; /* the post site's names, "" none */
} mg_trace_wire;

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
  h ^= (uint64_t)(k->site + k->obj * 0x100000001b3ll + k->tclass * 31 + k->opsel * 997) * 0x165667B19E3779F9ull;
  h ^= (uint64_t)(k->post_site + k->post_obj * 0x100000001b3ll + k->post_fn * 8191) * 0x9E3779B97F4A7C15ull;
  return (size_t)(h ^ (h >> 29));
}

static mg_trace_rec *lookup(mg_trace *t, const mg_trace_rec *k) {
  size_t i = hash(k) & (t->cap - 1);
  for (;; i = (i + 1) & (t->cap - 1)) {
    mg_trace_rec *r = &t->slot[i];
    if (!r->used) return r;
    if (r->coll == k->coll && r->bytes == k->bytes && r->alg == k->alg && r->why == k->why &&
        r->nprocs == k->nprocs && r->rule == k->rule && r->site == k->site && r->obj == k->obj &&
        r->tclass == k->tclass && r->opsel == k->opsel && r->post_fn == k->post_fn &&
        r->post_site == k->post_site && r->post_obj == k->post_obj)
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
    r->ns = 0;
    t->n++;
  }
  if (in->ranks) { /* merging another rank's row */
    int first = r->ranks == 0;
    r->calls = in->calls > r->calls ? in->calls : r->calls;
    r->ranks += in->ranks;
    r->ns_min = first || in->ns_min < r->ns_min ? in->ns_min : r->ns_min;
    r->ns_max = first || in->ns_max > r->ns_max ? in->ns_max : r->ns_max;
    r->ns += in->ns;
  } else {
    r->calls += in->calls;
    r->ns += in->ns;
  }
}

void mg_trace_add(mg_trace *t, mg_coll coll, int nprocs, size_t bytes, int alg, mg_why why, int rule) {
  mg_trace_rec in = {.coll = coll, .alg = alg, .why = why, .used = 1, .nprocs = nprocs, .rule = rule,
                     .bytes = (int64_t)bytes, .calls = 1, .ranks = 0, .post_fn = -1};
  add(t, &in);
}

void mg_trace_add_timed(mg_trace *t, const void *site, mg_coll coll, int nprocs, size_t bytes, int alg, mg_why why,
                        int rule, int tclass, int opsel, int64_t ns) {
  mg_trace_rec in = {.coll = coll, .alg = alg, .why = why, .used = 1, .nprocs = nprocs, .rule = rule,
                     .bytes = (int64_t)bytes, .calls = 1, .ranks = 0, .tclass = tclass, .opsel = opsel,
                     .site = (int64_t)(uintptr_t)site, .ns = ns, .post_fn = -1};
  add(t, &in);
}

void mg_trace_add_acct(mg_trace *t, int fn, const void *site, int nprocs, long long bytes, int64_t ns, int post_fn,
                       const void *post_site) {
  mg_trace_rec in = {.coll = MG_NCOLL + fn, .used = 1, .nprocs = nprocs, .rule = MG_RULE_NONE,
                     .bytes = (int64_t)bytes, .calls = 1, .ranks = 0, .tclass = MG_TCLASS_NONE,
                     .opsel = MG_OPSEL_NONE, .site = (int64_t)(uintptr_t)site, .ns = ns, .post_fn = post_fn,
                     .post_site = (int64_t)(uintptr_t)post_site};
  add(t, &in);
}

static int cmp(const void *a, const void *b) {
  const mg_trace_rec *x = a, *y = b;
  if (x->coll != y->coll) return x->coll < y->coll ? -1 : 1;
  if (x->nprocs != y->nprocs) return x->nprocs < y->nprocs ? -1 : 1;
  if (x->bytes != y->bytes) return x->bytes < y->bytes ? -1 : 1;
  if (x->alg != y->alg) return x->alg < y->alg ? -1 : 1;
  if (x->rule != y->rule) return x->rule < y->rule ? -1 : 1;
  if (x->why != y->why) return x->why < y->why ? -1 : 1;
  if (x->tclass != y->tclass) return x->tclass < y->tclass ? -1 : 1;
  if (x->opsel != y->opsel) return x->opsel < y->opsel ? -1 : 1;
  if (x->obj != y->obj) return x->obj < y->obj ? -1 : 1;
  if (x->site != y->site) return x->site < y->site ? -1 : 1;
  if (x->post_fn != y->post_fn) return x->post_fn < y->post_fn ? -1 : 1;
  if (x->post_obj != y->post_obj) return x->post_obj < y->post_obj ? -1 : 1;
  return x->post_site < y->post_site ? -1 : x->post_site > y->post_site;
}

/* What chose the algorithm of a row, as the dispatch recorded it:
 * "MPIGUIDE_ALG", the profile rule's line ("line 12"), "profile" for a rule
 * without a line, "online trial" / "online" / "online model" (MPIGUIDE_PROFILE=auto: a call its
 * cell timed while exploring / the cell's choice by trials / by the LogGP model, MPIGUIDE_LOGGP),
 * why a call ran the default although a profile was loaded ("no rule at this np", "no rule for this
 * operation", "no rule for this size", "profile set aside": MPIGUIDE_STRICT=1), or "" (nothing: the
 * default was never in question). */
static void rule_of(const mg_trace_rec *r, char *buf, size_t len) {
  if (r->rule == MG_RULE_FORCED)
    snprintf(buf, len, "MPIGUIDE_ALG");
  else if (r->rule == MG_RULE_TRIAL)
    snprintf(buf, len, "online trial");
  else if (r->rule == MG_RULE_LEARNED)
    snprintf(buf, len, "online");
  else if (r->rule == MG_RULE_MODEL)
    snprintf(buf, len, "online model");
  else if (r->rule == MG_RULE_NO_NP)
    snprintf(buf, len, "no rule at this np");
  else if (r->rule == MG_RULE_NO_OP)
    snprintf(buf, len, "no rule for this operation");
  else if (r->rule == MG_RULE_NO_SIZE)
    snprintf(buf, len, "no rule for this size");
  else if (r->rule == MG_RULE_ASIDE)
    snprintf(buf, len, "profile set aside");
  else if (r->rule > 0)
    snprintf(buf, len, "line %lld", (long long)r->rule);
  else if (r->rule == 0)
    snprintf(buf, len, "profile");
  else
    buf[0] = '\0';
}

/* The object file of the running program: dladdr names it as it was started (argv[0], maybe
 * relative); the reader needs a path that holds from elsewhere. */
static void self_exe(char *buf, size_t len) {
  ssize_t k = readlink("/proc/self/exe", buf, len - 1);
  buf[k > 0 ? (size_t)k : 0] = '\0';
}

/* Resolve a rank's site (a return address) in place: offset in its object (the address less the
 * object's load bias, i.e. its address in the file's own layout, as addr2line takes it), the
 * object's absolute path and the nearest dynamic symbol. An address no object holds stays as it
 * is with no names. */
static void resolve_site(int64_t *site, char obj[MG_TRACE_OBJ], char sym[MG_TRACE_SYM]) {
  obj[0] = sym[0] = '\0';
  void *addr = (void *)(uintptr_t)*site;
  Dl_info info;
  struct link_map *lm = NULL;
  if (!addr || !dladdr1(addr, &info, (void **)&lm, RTLD_DL_LINKMAP) || !lm) return;
  *site = (int64_t)((uintptr_t)addr - (uintptr_t)lm->l_addr);
  if (!lm->l_name || !lm->l_name[0]) {
    self_exe(obj, MG_TRACE_OBJ);
  } else {
    char real[PATH_MAX];
    snprintf(obj, MG_TRACE_OBJ, "%.*s", MG_TRACE_OBJ - 1, realpath(lm->l_name, real) ? real : lm->l_name);
  }
  if (info.dli_sname) snprintf(sym, MG_TRACE_SYM, "%.*s", MG_TRACE_SYM - 1, info.dli_sname);
}

static void resolve(mg_trace_wire *w) {
  resolve_site(&w->r.site, w->obj, w->sym);
  resolve_site(&w->r.post_site, w->post_obj, w->post_sym);
}

/* Rank 0's names of objects and symbols: index of s, added if new (-1: out of memory). */
typedef struct names {
  char **s;
  int n, cap;
} names;

static int64_t intern(names *nm, const char *s) {
  for (int i = 0; i < nm->n; i++)
    if (!strcmp(nm->s[i], s)) return i;
  if (nm->n == nm->cap) {
    int cap = nm->cap ? 2 * nm->cap : 16;
    char **p = realloc(nm->s, (size_t)cap * sizeof *p);
    if (!p) return -1;
    nm->s = p;
    nm->cap = cap;
  }
  if (!(nm->s[nm->n] = strdup(s))) return -1;
  return nm->n++;
}

static void names_free(names *nm) {
  for (int i = 0; i < nm->n; i++) free(nm->s[i]);
  free(nm->s);
}

/* The profile's coverage (docs/trace.md, "Coverage"): the calls of the operations libmpiguide
 * tunes (the calls column summed) and, timed, their seconds (summed over ranks), by what decided
 * them while a profile was loaded: a rule (its choice ran, or it fell back to the default), no rule
 * (at this process count, for this operation, for this size), the profile set aside, or something
 * else (MPIGUIDE_ALG, invalid arguments). */
static void write_coverage(FILE *f, const mg_trace_rec *rows, size_t m, int timed) {
  enum { RULE, FELL, NO_NP, NO_OP, NO_SIZE, ASIDE, OTHER, NB };
  static const char *const key[NB] = {"rule", "rule_fell_back", "no_rule_np", "no_rule_operation",
                                      "no_rule_size", "set_aside", "other"};
  long long calls[NB] = {0}, all = 0;
  double sec[NB] = {0};
  for (size_t i = 0; i < m; i++) {
    const mg_trace_rec *r = &rows[i];
    if (r->coll >= MG_NCOLL) continue;
    int b = r->rule >= 0 ? (r->why == MG_WHY_NONE ? RULE : FELL)
            : r->rule == MG_RULE_NO_NP ? NO_NP
            : r->rule == MG_RULE_NO_OP ? NO_OP
            : r->rule == MG_RULE_NO_SIZE ? NO_SIZE
            : r->rule == MG_RULE_ASIDE ? ASIDE
                                       : OTHER;
    calls[b] += r->calls;
    all += r->calls;
    sec[b] += (double)r->ns * 1e-9;
  }
  for (int b = 0; b < NB; b++) fprintf(f, "#@coverage_calls_%s=%lld\n", key[b], calls[b]);
  fprintf(f, "#@coverage_calls_share=%.4f\n", all ? (double)(calls[RULE] + calls[FELL]) / (double)all : 0.0);
  for (int b = 0; timed && b < NB; b++) fprintf(f, "#@coverage_time_s_%s=%.9f\n", key[b], sec[b]);
}

/* Where the profile came from (its hash, the store's release and match level) and, when strict
 * mode set it aside, why. */
static void write_profile_meta(FILE *f, const mg_ctx *x) {
  fprintf(f, "#@MPIGUIDE_PROFILE=%s\n#@profile_hash=%016llx\n", x->profile_path, (unsigned long long)x->profile_hash);
  if (x->profile_store)
    fprintf(f, "#@profile_store=%s\n#@profile_release=%s\n#@profile_match=%s\n", x->profile_store,
            x->profile_release ? x->profile_release : "", mg_store_level_name(x->profile_level));
  if (x->profile_aside) fprintf(f, "#@profile_set_aside=%s\n", x->profile_aside);
}

static void write_rows(FILE *f, const mg_trace_rec *rows, size_t m, int timed, const names *nm) {
  if (!timed)
    fprintf(f, "collective,bytes,algorithm,calls,ranks,fallback,nprocs,rule\n");
  else
    fprintf(f, "collective,bytes,algorithm,calls,ranks,fallback,nprocs,rule,reduction,object,offset,symbol,"
               "time_s,time_min_s,time_max_s,wait_s,class,posted_by,post_object,post_offset,post_symbol\n");
  for (size_t i = 0; i < m; i++) {
    const mg_trace_rec *r = &rows[i];
    int tuned = r->coll < MG_NCOLL;
    const mg_coll_info *ci = tuned ? &mg_colls[r->coll] : NULL;
    char rule[64];
    rule_of(r, rule, sizeof rule);
    fprintf(f, "%s,%lld,%s,%lld,%lld,%s,%lld,%s", tuned ? ci->name : mg_fns[r->coll - MG_NCOLL].name,
            (long long)r->bytes, tuned && r->alg ? ci->algs[r->alg].name : "default", (long long)r->calls,
            (long long)r->ranks, tuned ? mg_why_key((mg_why)r->why) : "", (long long)r->nprocs, rule);
    if (timed) {
      if (r->tclass != MG_TCLASS_NONE || r->opsel != MG_OPSEL_NONE)
        fprintf(f, ",%s:%s,", mg_tclass_name((int)r->tclass), mg_opsel_name((int)r->opsel));
      else
        fputs(",,", f);
      mg_csv_str(f, r->obj >= 0 && r->obj < nm->n ? nm->s[r->obj] : "");
      fprintf(f, ",0x%llx,", (unsigned long long)r->site);
      mg_csv_str(f, r->sym >= 0 && r->sym < nm->n ? nm->s[r->sym] : "");
      /* wait: the barrier-free estimate of docs/trace.md, sum over ranks of (own time - least time) */
      double wait = (double)(r->ns - r->ranks * r->ns_min) * 1e-9;
      fprintf(f, ",%.9f,%.9f,%.9f,%.9f,%s,", r->ns * 1e-9, r->ns_min * 1e-9, r->ns_max * 1e-9, wait > 0 ? wait : 0,
              mg_class_names[tuned ? MG_CLASS_TUNED : mg_fns[r->coll - MG_NCOLL].cls]);
      if (r->post_fn >= 0 && r->post_fn < MG_NFN) {
        fprintf(f, "%s,", mg_fns[r->post_fn].name);
        mg_csv_str(f, r->post_obj >= 0 && r->post_obj < nm->n ? nm->s[r->post_obj] : "");
        fprintf(f, ",0x%llx,", (unsigned long long)r->post_site);
        mg_csv_str(f, r->post_sym >= 0 && r->post_sym < nm->n ? nm->s[r->post_sym] : "");
        fputc('\n', f);
      } else {
        fputs(",,,\n", f);
      }
    } else {
      fputc('\n', f);
    }
  }
}

void mg_trace_write(mg_trace *t, const char *path, int timed, double wall_start) {
  int rank, size;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  /* The run's node layout, as check's raw.csv records it (#@nnodes, #@ranks_per_node, #@hosts):
   * a trace used on another layout says so (check --sizes-from, docs/trace.md) */
  mg_layout lay;
  int have_layout = mg_layout_collect(MPI_COMM_WORLD, &lay) == MPI_SUCCESS && lay.nnodes > 0;
  /* The run's wall time: MPI_Init to MPI_Finalize, the longest rank. */
  double wall = PMPI_Wtime() - wall_start, wall_max = 0;
  if (timed) PMPI_Reduce(&wall, &wall_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);

  /* This rank's rows, compacted, each counted as one rank; timed: with their sites resolved. */
  size_t elem = timed ? sizeof(mg_trace_wire) : sizeof(mg_trace_rec);
  int n = 0;
  char *mine = t ? malloc((t->n + 1) * elem) : NULL;
  if (mine)
    for (size_t i = 0; i < t->cap; i++)
      if (t->slot[i].used) {
        mg_trace_rec *r = (mg_trace_rec *)(mine + (size_t)n * elem);
        *r = t->slot[i];
        r->ranks = 1;
        r->ns_min = r->ns_max = r->ns;
        if (timed) resolve((mg_trace_wire *)r);
        n++;
      }
  int bytes = n * (int)elem;
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
  names nm = {0};
  for (long i = 0; merged && all && i < total / (long)elem; i++) {
    mg_trace_rec *r = (mg_trace_rec *)(all + (size_t)i * elem);
    if (timed) {
      mg_trace_wire *w = (mg_trace_wire *)r;
      w->obj[MG_TRACE_OBJ - 1] = w->sym[MG_TRACE_SYM - 1] = '\0';
      w->post_obj[MG_TRACE_OBJ - 1] = w->post_sym[MG_TRACE_SYM - 1] = '\0';
      r->obj = intern(&nm, w->obj);
      r->sym = intern(&nm, w->sym);
      r->post_obj = r->post_fn >= 0 ? intern(&nm, w->post_obj) : -1;
      r->post_sym = r->post_fn >= 0 ? intern(&nm, w->post_sym) : -1;
    }
    add(merged, r);
  }
  free(all);
  free(counts);
  free(displs);
  if (!merged) {
    names_free(&nm);
    return;
  }

  mg_trace_rec *rows = malloc((merged->n + 1) * sizeof *rows);
  size_t m = 0;
  for (size_t i = 0; rows && i < merged->cap; i++)
    if (merged->slot[i].used) rows[m++] = merged->slot[i];
  if (rows) qsort(rows, m, sizeof *rows, cmp);

  /* through TARGET.tmp renamed onto the file path names (outfile.h: a symbolic link followed, as
   * open() would, and left a link; the temporary removed on failure) */
  char target[PATH_MAX], tmp[PATH_MAX + 8];
  FILE *f = rows ? mg_out_open(path, target, sizeof target, tmp, sizeof tmp) : NULL;
  if (!f) {
    fprintf(stderr, "mpiguide: warning: cannot write MPIGUIDE_TRACE file '%s' (%s); no trace\n", path,
            rows ? strerror(errno) : "out of memory");
  } else {
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len = 0;
    PMPI_Get_library_version(lib, &len);
    lib[strcspn(lib, "\r\n")] = '\0';
    time_t now = time(NULL);
    char date[64];
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
    fprintf(f, "#@mpiguide_trace=%d\n#@mpiguide_version=%s\n#@mpi_library=%s\n#@nprocs=%d\n#@date=%s\n",
            MG_TRACE_FORMAT, MPIGUIDE_VERSION, lib, size, date);
    if (have_layout) {
      char rpn[32];
      mg_layout_rpn(&lay, rpn, sizeof rpn);
      fprintf(f, "#@nnodes=%d\n#@ranks_per_node=%s\n#@hosts=%s\n", lay.nnodes, rpn, lay.hosts);
    }
    const char *alg = getenv("MPIGUIDE_ALG");
    fprintf(f, "#@MPIGUIDE_ALG=%s\n#@scratch_max=%zu\n", alg ? alg : "", mg_the_ctx.scratch_max);
    if (mg_the_ctx.profile_path) write_profile_meta(f, &mg_the_ctx);
    if (timed) fprintf(f, "#@timed=1\n#@clock=CLOCK_MONOTONIC\n#@wall_s=%.6f\n", wall_max);
    if (mg_the_ctx.profile_path) write_coverage(f, rows, m, timed);
    write_rows(f, rows, m, timed, &nm);
    /* the trailer (format 3): the row count, last, so that a reader tells a whole file from a cut one */
    fprintf(f, "#@trace_rows=%zu\n", m);
    int e = mg_out_commit(f, tmp, target);
    if (e)
      fprintf(stderr, "mpiguide: warning: cannot write MPIGUIDE_TRACE file '%s' (%s); no trace\n", path, strerror(e));
  }
  free(rows);
  names_free(&nm);
  mg_trace_free(merged);
}
