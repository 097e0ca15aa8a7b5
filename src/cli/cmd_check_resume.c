/*
 * `mpiguide check --resume` (docs/check.md): measure only the cells an interrupted check did not
 * save. Every rank reads the interrupted run's DIR/raw.csv (rank 0 reads, all parse), checks that
 * the same command measured it on as many processes of the same MPI, and keeps only the sizes it
 * does not hold whole.
 */
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/csv.h"
#include "bench/output.h"
#include "cli/cmd_check_state.h"
#include "util/err.h"
#include "util/parse.h"

/* cmd without the tokens that do not change what is measured: --resume, --force, -f, -q, --quiet,
 * --no-progress, and --eta-from FILE and --launch-of K/N (only the progress line reads them; a
 * launch of --launches has one or the other of -q and --launch-of by whether progress is shown). */
static void command_key(const char *cmd, char *out, size_t len) {
  size_t u = 0;
  int skip = 0;
  for (const char *p = cmd; *p && u + 1 < len;) {
    size_t n = strcspn(p, " ");
    int eta = n >= 10 && !strncmp(p, "--eta-from", 10) && (n == 10 || p[10] == '=');
    int of = n >= 11 && !strncmp(p, "--launch-of", 11) && (n == 11 || p[11] == '=');
    int drop = skip || eta || of || (n == 8 && !strncmp(p, "--resume", 8)) || (n == 7 && !strncmp(p, "--force", 7)) ||
               (n == 2 && (!strncmp(p, "-f", 2) || !strncmp(p, "-q", 2))) || (n == 7 && !strncmp(p, "--quiet", 7)) ||
               (n == 13 && !strncmp(p, "--no-progress", 13));
    skip = (eta && n == 10) || (of && n == 11); /* its value is the next token */
    if (!drop) {
      if (u && u + 1 < len) out[u++] = ' ';
      for (size_t i = 0; i < n && u + 1 < len; i++) out[u++] = p[i];
    }
    p += n;
    while (*p == ' ') p++;
  }
  out[u] = '\0';
}

/* The pair k of a row's datatype and op for c (0 but for reductions measured with several), -1 none. */
static int pair_of(const mg_bench_cfg *cfg, mg_coll c, const char *dtype, const char *op) {
  if (mg_bench_nreds(cfg, c) == 1) return 0;
  for (int k = 0; k < cfg->nreds; k++)
    if (!strcmp(cfg->reds[k].dtype->name, dtype) && !strcmp(cfg->reds[k].op->name, op)) return k;
  return -1;
}

/* The size index of (c, bytes) in S's plan, -1 none; a barrier's 0 bytes are its first size. */
static int size_index(const mg_check_state *S, mg_coll c, size_t bytes) {
  if (c == MG_BARRIER) return bytes == 0 && S->nsizes[c] > 0 ? 0 : -1;
  for (int k = 0; k < S->nsizes[c]; k++)
    if (S->sizes[c][k] == bytes) return k;
  return -1;
}

/* A message size field: decimal digits only (a cut or edited file must not resume as another cell). */
static int bytes_field(const char *s, size_t *out) {
  unsigned long long v;
  if (!s || mg_parse_digits(s, strlen(s), SIZE_MAX >> 1, &v)) return -1;
  *out = (size_t)v;
  return 0;
}

/* Whether v is exactly the process count `size` (digits alone: 4294967300 is not 4). */
static int same_nprocs(const char *v, int size) {
  unsigned long long n;
  return !mg_parse_digits(v, strlen(v), INT_MAX, &n) && n == (unsigned long long)size;
}

/* A #@ line of the interrupted run that belongs to a cell: its collective and bytes (the first field
 * "coll[:dtype:op]", bytes the 3rd field, or the 2nd for #@budget_hit). 1 found, 0 not such a line,
 * -1 such a line whose bytes are not a whole number. */
static int meta_cell(const char *line, mg_coll *c, size_t *bytes) {
  static const char *const keys[] = {"#@stop=", "#@budget_hit=", "#@skipped=", "#@failed=", "#@measure_only=", NULL};
  for (int i = 0; keys[i]; i++) {
    size_t n = strlen(keys[i]);
    if (strncmp(line, keys[i], n)) continue;
    char buf[512], *f[4] = {0};
    snprintf(buf, sizeof buf, "%s", line + n);
    int nf = 0;
    for (char *p = buf; nf < 4 && p; nf++) {
      f[nf] = p;
      p = strchr(p, ',');
      if (p) *p++ = '\0';
    }
    const char *b = i == 1 ? f[1] : f[2];
    if (!b) return 0;
    f[0][strcspn(f[0], ":")] = '\0';
    int k = mg_coll_find(f[0]);
    if (k < 0) return 0;
    *c = (mg_coll)k;
    return bytes_field(b, bytes) ? -1 : 1;
  }
  return 0;
}

/* Every rank, after parse_measure, with --resume: read DIR/raw.csv (rank 0 reads, all parse), check that
 * it was measured by the same command on as many processes of the same MPI, and keep in S->sizes only
 * the sizes it does not hold whole (every block of the size: each reduction's pair). Its rows and #@
 * lines of the sizes it holds whole are kept; those of a size cut in the middle are measured anew.
 * Its launch id becomes this run's (meta->launch), so the file stays one launch: every cell is still
 * measured within one launch, default and mock-ups interleaved. The budget shrinks in proportion to
 * the blocks left. 0, or -1 with S->err. */
/* What the interrupted run's file says and holds (resume_plan's passes). */
typedef struct old_file {
  const char *path;
  unsigned *have[MG_NCOLL]; /* have[c][si]: the pairs whose block the file holds; after whole_sizes: 1 whole */
  int col[4];               /* the columns collective, bytes, datatype, op */
  const char *rows;         /* its first data row */
  int header, complete, seen_cmd;
  char key_then[8192];      /* its #@command without --resume, --force */
} old_file;

/* A #@ line before the header: the command, launch, process count and library of the interrupted run. */
static int read_meta_line(mg_check_state *S, old_file *F, char *line, long lineno, mg_bench_meta *meta) {
  mg_coll mc;
  size_t mb;
  if (meta_cell(line, &mc, &mb) < 0)
    return MG_ERR_TO(S->err, "--resume: %.1000s:%ld: %.200s: the message size is not a whole number", F->path,
                     lineno, line);
  char *eq = strchr(line, '=');
  const char *v = eq ? eq + 1 : "";
  if (eq) *eq = '\0';
  if (!strcmp(line + 2, "check_incomplete")) F->complete = 0;
  else if (!strcmp(line + 2, "command")) command_key(v, F->key_then, sizeof F->key_then), F->seen_cmd = 1;
  else if (!strcmp(line + 2, "launch") && strlen(v) < sizeof meta->launch)
    snprintf(meta->launch, sizeof meta->launch, "%s", v);
  else if (!strcmp(line + 2, "nprocs") && !same_nprocs(v, S->size))
    return MG_ERR_TO(S->err, "--resume: %.1000s was measured on %s processes, this run has %d: resume it on %s",
                     F->path, v, S->size, v);
  else if (!strcmp(line + 2, "mpi_library_name") && strcmp(v, meta->mpi_name))
    return MG_ERR_TO(S->err, "--resume: %.1000s was measured with %s, this run uses %s: resume it with %s", F->path,
                     v, meta->mpi_name, v);
  return 0;
}

/* Pass 1: the file's metadata, its header and, per cell, the blocks it holds (F->have). 0, or -1
 * with S->err (the first problem). */
static int read_holdings(mg_check_state *S, old_file *F, mg_bench_meta *meta) {
  static const char *const colname[4] = {"collective", "bytes", "datatype", "op"};
  const mg_bench_cfg *cfg = &S->base;
  int rc = 0;
  long lineno = 0;
  for (const char *p = S->old_text; *p && !rc; lineno++) {
    const char *nl = strchr(p, '\n');
    if (!nl) {
      rc = MG_ERR_TO(S->err, "--resume: %.1000s:%ld: the last line has no line break: not a file a check wrote",
                     F->path, lineno + 1);
      break;
    }
    size_t n = (size_t)(nl - p);
    char line[8192], *f[64];
    snprintf(line, sizeof line, "%.*s", (int)(n < sizeof line ? n : sizeof line - 1), p);
    if (!F->header && !strncmp(line, "#@", 2)) {
      rc = read_meta_line(S, F, line, lineno + 1, meta);
    } else if (!F->header && line[0] != '#') {
      if (strcmp(line, mg_raw_columns))
        rc = MG_ERR_TO(S->err, "--resume: %.1000s:%ld: not the columns this mpiguide writes (%s)", F->path,
                       lineno + 1, mg_raw_columns);
      int nf = mg_csv_split(line, f, 64);
      for (int k = 0; k < nf; k++)
        for (int q = 0; q < 4; q++)
          if (!strcmp(f[k], colname[q])) F->col[q] = k;
      F->header = 1;
      F->rows = nl + 1;
    } else if (F->header && n) {
      const int *col = F->col;
      int nf = mg_csv_split(line, f, 64), c = nf > col[0] && nf > col[1] && nf > col[2] && nf > col[3] && col[3] >= 0
                                                   ? mg_coll_find(f[col[0]]) : -1;
      size_t b = 0;
      int bad = c >= 0 && bytes_field(f[col[1]], &b);
      int si = c >= 0 && !bad && F->have[c] ? size_index(S, (mg_coll)c, b) : -1;
      int k = si >= 0 ? pair_of(cfg, (mg_coll)c, f[col[2]], f[col[3]]) : -1;
      if (bad)
        rc = MG_ERR_TO(S->err, "--resume: %.1000s:%ld: bytes '%.40s' is not a whole number", F->path, lineno + 1,
                       f[col[1]]);
      else if (k < 0)
        rc = MG_ERR_TO(S->err, "--resume: %.1000s:%ld: a cell these options do not measure: resume with the options "
                               "of the interrupted check", F->path, lineno + 1);
      else
        F->have[c][si] |= 1u << k;
    }
    p = nl + 1;
  }
  return rc;
}

/* F->have[c][si] becomes 1 where the file holds every block of the size; *total and *left count
 * the blocks of the plan and those still to measure, S->cells_before those kept. */
static void whole_sizes(mg_check_state *S, old_file *F, long *total, long *left) {
  for (int i = 0; i < S->ncolls; i++) {
    mg_coll c = S->colls[i];
    for (int si = 0; si < S->nsizes[c]; si++) {
      unsigned want = mg_check_block_mask(&S->base, c, S->sizes[c], si);
      int whole = (F->have[c][si] & want) == want;
      F->have[c][si] = whole;
      *total += __builtin_popcount(want);
      if (whole) S->cells_before += __builtin_popcount(want);
      else *left += __builtin_popcount(want);
    }
    if (c == MG_BARRIER) /* its one block stands for every size */
      for (int si = 1; si < S->nsizes[c]; si++) F->have[c][si] = F->have[c][0];
  }
}

/* Pass 2: the #@ lines and rows of the whole sizes only, into S->old_keep and S->old_rows; the
 * plan keeps only the sizes not held whole. 0, or -1 with S->err. */
static int keep_whole(mg_check_state *S, old_file *F, size_t len) {
  size_t cap = len + 1, used = 0, rused = 0;
  char *keep = malloc(cap), *krows = malloc(cap);
  if (!keep || !krows) return free(keep), free(krows), MG_ERR_TO(S->err, "out of memory");
  unsigned **have = F->have;
  const int *col = F->col;
  for (const char *p = S->old_text; *p;) {
    const char *nl = strchr(p, '\n');
    size_t n = (size_t)(nl - p) + 1;
    char line[8192], *f[64];
    snprintf(line, sizeof line, "%.*s", (int)(n - 1 < sizeof line ? n - 1 : sizeof line - 1), p);
    mg_coll c;
    size_t b;
    int si;
    if (p < F->rows) {
      if (!strncmp(line, "#@check_sizes=", 14) ||
          (meta_cell(line, &c, &b) > 0 && have[c] && (si = size_index(S, c, b)) >= 0 && have[c][si]))
        memcpy(keep + used, p, n), used += n;
    } else if (n > 1 && mg_csv_split(line, f, 64) > col[1]) {
      int k = mg_coll_find(f[col[0]]);
      if (k >= 0 && have[k] && !bytes_field(f[col[1]], &b) && (si = size_index(S, (mg_coll)k, b)) >= 0 &&
          have[k][si])
        memcpy(krows + rused, p, n), rused += n, S->old_nrows++;
    }
    p = nl + 1;
  }
  keep[used] = krows[rused] = '\0';
  S->old_keep = keep, S->old_rows = krows, S->old_rows_len = rused;
  for (int i = 0; i < S->ncolls; i++) { /* only the sizes not held whole */
    mg_coll c = S->colls[i];
    int k = 0;
    for (int si = 0; si < S->nsizes[c]; si++)
      if (!have[c][si]) S->sizes[c][k++] = S->sizes[c][si];
    S->nsizes[c] = k;
  }
  return 0;
}

int mg_check_resume_plan(mg_check_state *S, int argc, char **argv, mg_bench_meta *meta) {
  char path[4200], key_now[8192];
  size_t len;
  snprintf(path, sizeof path, "%s/raw.csv", S->out);
  if (mg_cmd_read_shared(path, &S->old_text, &len, S->e, sizeof S->e))
    return MG_ERR_TO(S->err, "--resume: %s: nothing to resume (without --resume the check starts anew)", S->e);
  char *cmd_now = mg_cmd_join(argc, argv);
  if (!cmd_now) return MG_ERR_TO(S->err, "out of memory");
  command_key(cmd_now, key_now, sizeof key_now);
  free(cmd_now);
  old_file F0;
  old_file *F = &F0;
  memset(F, 0, sizeof *F);
  F->path = path, F->complete = 1;
  for (int q = 0; q < 4; q++) F->col[q] = -1;
  int rc = 0;
  for (int i = 0; i < S->ncolls && !rc; i++)
    if (!(F->have[S->colls[i]] = calloc((size_t)S->nsizes[S->colls[i]] + 1, sizeof(unsigned))))
      rc = MG_ERR_TO(S->err, "out of memory");
  if (!rc) rc = read_holdings(S, F, meta);
  if (!rc && !F->seen_cmd) rc = MG_ERR_TO(S->err, "--resume: %.1000s has no #@command line: not a check's raw.csv", path);
  if (!rc && strcmp(key_now, F->key_then))
    rc = MG_ERR_TO(S->err, "--resume: %.1000s was measured by `%.2000s`; resume it with the same options (only "
                           "--resume added)", path, F->key_then);
  if (!rc && !F->header) rc = MG_ERR_TO(S->err, "--resume: %.1000s has no header line: nothing to resume", path);
  long total = 0, left = 0;
  if (!rc) whole_sizes(S, F, &total, &left);
  if (!rc) rc = keep_whole(S, F, len);
  for (int c = 0; c < MG_NCOLL; c++) free(F->have[c]);
  if (rc) return -1;
  int k = 0;
  for (int i = 0; i < S->ncolls; i++)
    if (S->nsizes[S->colls[i]]) S->colls[k++] = S->colls[i];
  S->ncolls = k;
  if (S->base.time_total > 0 && total > 0) S->base.time_total *= (double)left / (double)total;
  S->nothing_left = left == 0 || F->complete; /* complete: it finished measuring before it stopped */
  if (S->rank == 0 && !S->quiet)
    fprintf(stderr, "mpiguide check: resuming %s: %ld of %ld cells are measured, %ld left\n", S->out,
            S->cells_before, total, F->complete ? 0 : left);
  return 0;
}

/* Rank 0, --resume with nothing left to measure: raw.csv without its #@check_incomplete line (the
 * run was stopped after its last cell was saved). 0, or -1 with S->err. */
int mg_check_resume_finish(mg_check_state *S) {
  char path[4096];
  snprintf(path, sizeof path, "%s/raw.csv", S->out);
  if (!strstr(S->old_text, "\n#@check_incomplete=")) return 0;
  mg_outfile f;
  if (mg_outfile_open(&f, path, S->err, sizeof S->err)) return -1;
  for (const char *p = S->old_text; *p;) {
    size_t n = strcspn(p, "\n");
    if (strncmp(p, "#@check_incomplete=", 19)) fwrite(p, 1, n + (p[n] == '\n'), f.f);
    p += n + (p[n] == '\n');
  }
  return mg_outfile_commit(&f, S->err, sizeof S->err);
}
