/*
 * `mpiguide report DIR... -o report.html`: the HTML report (docs/report.md) of check results,
 * offline (no MPI). Sources of one configuration (MPI library and version, process count,
 * layout: mg_ck_config_diff) are merged into one run (as `check --from` merges launches);
 * different configurations are runs of their own, compared side by side (the section
 * "Configurations compared", one heat-map row each), never pooled. Verdicts are recomputed with the check's analysis
 * (default settings unless --test/--alpha/--no-holm; the seed recorded by the check), so they
 * equal those of `mpiguide check --from DIR` with the same options. A directory holding
 * verify.csv (`mpiguide verify -o DIR`) is a verify result instead: read first (a malformed one
 * stops the command before anything is written), shown as the section "Default vs tuned"; it may
 * be the only source.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check/check.h"
#include "cli/cli.h"
#include "cli/cmd_opts.h"
#include "report/overlap_page.h"
#include "report/report.h"
#include "util/parse.h"
#include "util/text.h"

#define MAXRUNS 32
#define MAXSRC 256
#define MAXVER 16

/* A verify result: a directory holding verify.csv (`mpiguide verify -o DIR`) or a file named
 * verify.csv. Its path in p (len bytes), or 0 for check data. */
static int verify_source(const char *src, char *p, size_t len) {
  struct stat st;
  const char *base = strrchr(src, '/');
  base = base ? base + 1 : src;
  if (!strcmp(base, "verify.csv") && !stat(src, &st) && S_ISREG(st.st_mode))
    return snprintf(p, len, "%s", src), 1;
  if (stat(src, &st) || !S_ISDIR(st.st_mode)) return 0;
  snprintf(p, len, "%s/verify.csv", src);
  return !stat(p, &st);
}

static void usage(FILE *f) {
  fprintf(f, "usage: mpiguide report DIR... [-o FILE] [--test mwu|welch|student] [--alpha A] [--no-holm]\n\n"
             "Writes one self-contained HTML page (inline SVG and CSS, opens offline) from the results of\n"
             "`mpiguide check` (a result directory, a raw CSV or ReproMPI files): run metadata, summary,\n"
             "per collective the runtime of every mock-up relative to the default over message sizes,\n"
             "a heat map of cautious violations and the grouped violation table. Sources of one\n"
             "configuration (MPI library and version, process count, nodes x ranks per node) are merged;\n"
             "different configurations are compared side by side, never pooled.\n"
             "A result directory of `mpiguide verify` (holding verify.csv) adds the section\n"
             "\"Default vs tuned\" (tuned/default ratio per collective and size); it may be given alone.\n"
             "A directory of `verify --launches N` stands for its N launches: their spread is shown.\n\n"
             "  -o, --output FILE  output file (default: report.html)\n"
             "  --overlap      the sources are raw files of `mpiguide bench --overlap`: a page of overlap %%\n"
             "                 per collective against message size, one line per MPI_Test count, the best\n"
             "                 count ringed (one section per file)\n"
             "  --test T       statistical test as in `mpiguide check` (default mwu)\n"
             "  --alpha A      significance level (default 0.05)\n"
             "  --no-holm      no Holm adjustment\n"
             "  -h, --help     this text\n"
             "See docs/report.md.\n");
}

#define OPTIONS(X)                                                                                      \
  X(HELP, "help", 'h', MG_OPT_FLAG) X(OUT, "output", 'o', MG_OPT_ARG) X(TEST, "test", 0, MG_OPT_ARG)          \
  X(ALPHA, "alpha", 0, MG_OPT_ARG) X(NO_HOLM, "no-holm", 0, MG_OPT_FLAG) X(OVERLAP, "overlap", 0, MG_OPT_FLAG)

enum { OPTIONS(MG_OPT_ENUM) O_N };
static const mg_opt opts[O_N] = {OPTIONS(MG_OPT_ROW)};

/* The options into *out, *o and src (nsrc of them). -1 to go on, else the exit code. */
static int parse(int argc, char **argv, const char **out, mg_ck_opts *o, const char **src, int *nsrc, int *overlap) {
  char e[256];
  mg_opt_vals v;
  int rc = mg_opt_parse(argc, argv, opts, O_N, &v, e, sizeof e);
  const char *a;
  if (v.given[O_HELP]) rc = (usage(stdout), 0);
  else if (rc) rc = (fprintf(stderr, "mpiguide report: %s (see mpiguide report --help)\n", e), 2);
  else if (v.npos > MAXSRC) rc = (fprintf(stderr, "mpiguide report: more than %d sources\n", MAXSRC), 2);
  else if ((a = v.val[O_TEST]) && mg_ck_test_find(a) < 0)
    rc = (fprintf(stderr, "mpiguide report: --test: '%s' is not mwu, welch or student\n", a), 2);
  else if ((a = v.val[O_ALPHA]) && (mg_parse_double(a, 0, &o->alpha, e, sizeof e) || !(o->alpha > 0 && o->alpha < 1)))
    rc = (fprintf(stderr, "mpiguide report: --alpha: %s is not between 0 and 1\n", a), 2);
  else if (!v.npos) rc = (usage(stderr), 2);
  else rc = -1;
  if (rc < 0) {
    if (v.val[O_OUT]) *out = v.val[O_OUT];
    if (v.val[O_TEST]) o->test = (mg_ck_test)mg_ck_test_find(v.val[O_TEST]);
    if (v.given[O_NO_HOLM]) o->holm = 0;
    *overlap = v.given[O_OVERLAP];
    for (int i = 0; i < v.npos; i++) src[(*nsrc)++] = v.pos[i];
  }
  mg_opt_vals_free(&v);
  return rc;
}

/* A campaign's tree (`mpiguide campaign`, docs/campaign.md: TREE/campaign.spec lists its
 * configurations) stands for the configurations measured so far, each a `check --launches`
 * directory; one not measured yet is named on stderr. A directory of `verify --launches` stands for
 * its launches' verify results (DIR/launch-K). The sources in src, expanded in place. 0, or
 * 2 after a message. */
static int expand_campaigns(const char **src, int *nsrc) {
  static char paths[MAXSRC][1100];
  const char *in[MAXSRC];
  int n = *nsrc, k = 0, used = 0;
  memcpy(in, src, sizeof *in * (size_t)n);
  for (int i = 0; i < n; i++) {
    char p[1100];
    snprintf(p, sizeof p, "%s/campaign.spec", in[i]);
    FILE *f = fopen(p, "r");
    if (!f) {
      /* `verify --launches N -o DIR`: DIR/launch-K/verify.csv, N verify results of one profile */
      struct stat st;
      int nl = 0;
      for (int l = 1; l <= 1000; l++) {
        snprintf(p, sizeof p, "%s/launch-%d/verify.csv", in[i], l);
        if (stat(p, &st) != 0) {
          snprintf(p, sizeof p, "%s/launch-%d", in[i], l);
          if (stat(p, &st) == 0) continue; /* a launch that failed: the others count */
          break;
        }
        if (k == MAXSRC || used == MAXSRC) return fprintf(stderr, "mpiguide report: more than %d sources\n", MAXSRC), 2;
        snprintf(paths[used], sizeof paths[used], "%s/launch-%d", in[i], l);
        src[k++] = paths[used++];
        nl++;
      }
      snprintf(p, sizeof p, "%s/verify.csv", in[i]);
      if (nl && stat(p, &st) != 0) continue;
      k -= nl, used -= nl;
      if (k == MAXSRC) return fprintf(stderr, "mpiguide report: more than %d sources\n", MAXSRC), 2;
      src[k++] = in[i];
      continue;
    }
    char sp[1100]; /* p is reused below */
    snprintf(sp, sizeof sp, "%s", p);
    int found = 0, nl, ln = 0, nconf = 0, bad = 0;
    long got, want = -1;
    char *line = NULL;
    size_t lcap = 0;
    while (!bad && (got = mg_read_line(f, &line, &lcap, &nl)) >= 0) {
      char *w[4];
      struct stat st;
      ln++;
      if (!nl) {
        bad = fprintf(stderr, "mpiguide report: %s:%d: the last line has no line break: the file was cut short "
                              "(truncated?); rerun the campaign to write it again\n", sp, ln);
        break;
      }
      int nw = mg_split_blanks(line, w, 4);
      if (nw == 2 && !strcmp(w[0], "configs")) { /* the last line (older trees lack it) */
        if (mg_parse_long(w[1], 0, MAXSRC * 1000L, &want, NULL, 0))
          bad = fprintf(stderr, "mpiguide report: %s:%d: configs '%.40s' is not a count\n", sp, ln, w[1]);
        break;
      }
      if (nw == 0 || w[0][0] == '#') continue;
      if (nw != 2 || strcmp(w[0], "config") || !strcmp(w[1], ".") || !strcmp(w[1], "..") ||
          strspn(w[1], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") != strlen(w[1]) ||
          strlen(w[1]) >= 200) {
        bad = fprintf(stderr, "mpiguide report: %s:%d: not 'config NAME' (NAME of letters, digits, '.', '_', '-'): "
                              "not a tree of mpiguide campaign?\n", sp, ln);
        break;
      }
      const char *name = w[1];
      nconf++;
      if (k == MAXSRC || used == MAXSRC) {
        free(line);
        fclose(f);
        return fprintf(stderr, "mpiguide report: more than %d sources\n", MAXSRC), 2;
      }
      snprintf(paths[used], sizeof paths[used], "%s/%s", in[i], name);
      snprintf(p, sizeof p, "%s/launch-1/raw.csv", paths[used]);
      if (stat(p, &st) != 0) {
        fprintf(stderr, "mpiguide report: %s: configuration %s not measured yet (the campaign's rerun measures it)\n",
                in[i], name);
        continue;
      }
      src[k++] = paths[used++];
      found++;
    }
    if (!bad && got < -1) bad = fprintf(stderr, "mpiguide report: %s:%d: %s\n", sp, ln + 1, mg_read_line_strerror(got));
    if (!bad && want >= 0 && want != nconf)
      bad = fprintf(stderr, "mpiguide report: %s:%d: the file ends early (truncated?): %d configurations, its "
                            "'configs' line says %ld\n", sp, ln, nconf, want);
    free(line);
    fclose(f);
    if (bad) return 2;
    if (!found) return fprintf(stderr, "mpiguide report: %s: no configuration of the campaign measured yet\n", in[i]), 2;
  }
  *nsrc = k;
  return 0;
}

/* --overlap: the page of the files of `bench --overlap` (report/overlap_page.h). All read first: a
 * malformed one stops the command before anything is written. */
static int report_overlap(const char *out, const char **src, int nsrc) {
  mg_ovl_file *f = calloc((size_t)nsrc, sizeof *f);
  char err[1200];
  int n = 0, status = 0;
  if (!f) return fprintf(stderr, "mpiguide report: out of memory\n"), 1;
  for (; n < nsrc && !status; n++)
    if (mg_ovl_read(src[n], &f[n], err, sizeof err)) status = 2;
  if (status) n--;
  if (!status && mg_rp_overlap_write_file(out, f, n, err, sizeof err)) status = 1;
  if (status) fprintf(stderr, "mpiguide report: %s\n", err);
  else printf("report: %s\n", out);
  for (int i = 0; i < n; i++) mg_ovl_file_free(&f[i]);
  free(f);
  return status;
}

int mg_cmd_report(int argc, char **argv) {
  const char *out = "report.html";
  const char *src[MAXSRC];
  int nsrc = 0, overlap = 0;
  mg_ck_opts o;
  mg_ck_opts_default(&o);
  int rc = parse(argc, argv, &out, &o, src, &nsrc, &overlap);
  if (rc >= 0) return rc;
  if (overlap) return report_overlap(out, src, nsrc);
  if ((rc = expand_campaigns(src, &nsrc))) return rc;
  /* verify results first: a malformed one stops the command before anything is written */
  static mg_rp_verify ver[MAXVER];
  int nver = 0, isver[MAXSRC] = {0};
  char err[MG_CK_ERR];
  for (int i = 0; i < nsrc; i++) {
    char vp[1100];
    if (!verify_source(src[i], vp, sizeof vp)) continue;
    isver[i] = 1;
    if (nver == MAXVER || mg_rp_verify_read(vp, &ver[nver], err, sizeof err)) {
      if (nver == MAXVER) snprintf(err, sizeof err, "more than %d verify results", MAXVER);
      fprintf(stderr, "mpiguide report: %s\n", err);
      for (int k = 0; k < nver; k++) mg_rp_verify_free(&ver[k]);
      return 2;
    }
    nver++;
  }
  /* every source of check data read alone: its configuration (the first launch) groups it */
  static mg_ck_data alone[MAXSRC];
  int nalone = 0, status = 0;
  for (int i = 0; i < nsrc && !status; i++) {
    mg_ck_data_init(&alone[i]);
    nalone = i + 1;
    if (!isver[i] && mg_ck_read(&alone[i], src[i], err, sizeof err)) {
      fprintf(stderr, "mpiguide report: %s\n", err);
      status = 2;
    }
  }
  mg_ck_data data[MAXRUNS];
  mg_ck_result res[MAXRUNS];
  mg_rp_run runs[MAXRUNS];
  mg_rp_preds preds[MAXRUNS];
  int nruns = 0, done[MAXSRC] = {0};
  char what[1024];
  for (int i = 0; i < nsrc && !status; i++) {
    if (done[i] || isver[i]) continue;
    if (nruns == MAXRUNS) {
      fprintf(stderr, "mpiguide report: more than %d configurations\n", MAXRUNS);
      status = 2;
      break;
    }
    mg_ck_data *d = &data[nruns];
    mg_ck_result *r = &res[nruns];
    mg_ck_data_init(d);
    memset(r, 0, sizeof *r);
    runs[nruns] = (mg_rp_run){.d = d, .r = r, .pred = &preds[nruns]};
    memset(&preds[nruns], 0, sizeof preds[nruns]);
    nruns++;
    struct stat st; /* a check directory's predictions (check --loggp): DIR/predicted.csv */
    char pp[4200];
    snprintf(pp, sizeof pp, "%s/predicted.csv", src[i]);
    if (stat(src[i], &st) == 0 && S_ISDIR(st.st_mode) && mg_rp_preds_read(pp, &preds[nruns - 1], err, sizeof err))
      status = 2;
    /* one run per configuration (library and version, process count, layout): never pooled */
    for (int j = i; j < nsrc && !status; j++) {
      if (done[j] || isver[j]) continue;
      if (j != i && (!alone[i].nlaunches || !alone[j].nlaunches ||
                     mg_ck_config_diff(&alone[i].launches[0], &alone[j].launches[0], what, sizeof what)))
        continue;
      done[j] = 1;
      if (mg_ck_read(d, src[j], err, sizeof err)) status = 2;
    }
    if (!status && mg_ck_data_check(d, err, sizeof err)) status = 2;
    if (!status) {
      mg_ck_opts oo = o;
      if (d->launches[0].has_seed) oo.seed = d->launches[0].seed;
      if (mg_ck_analyze(d, &oo, r, err, sizeof err)) {
        /* e.g. no mock-up measured: the page still shows the metadata and says so per plot */
        fprintf(stderr, "mpiguide report: warning: %s; the report has no verdicts for these data\n", err);
        mg_ck_result_free(r);
        memset(r, 0, sizeof *r);
        r->opts = oo;
      }
    }
    if (status) fprintf(stderr, "mpiguide report: %s\n", err);
  }
  if (!status && mg_rp_write_file_ex(out, runs, nruns, ver, nver, err, sizeof err)) {
    fprintf(stderr, "mpiguide report: %s\n", err);
    status = 1;
  }
  if (!status) printf("report: %s\n", out);
  for (int i = 0; i < nruns; i++) {
    mg_ck_result_free(&res[i]);
    mg_ck_data_free(&data[i]);
    mg_rp_preds_free(&preds[i]);
  }
  for (int i = 0; i < nalone; i++) mg_ck_data_free(&alone[i]);
  for (int k = 0; k < nver; k++) mg_rp_verify_free(&ver[k]);
  return status;
}
