/*
 * `mpiguide libvars`: the MPI library's own collective algorithms that --lib-variants can measure
 * (docs/libvar.md), per collective with the number or value that selects each: found in the running
 * library through MPI_T (no mpirun needed: one process), or parsed from saved `ompi_info --param coll
 * tuned --level 9 [--parsable]` output with --ompi-info FILE (no MPI at all).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/libvar_mpit.h"
#include "cli/cli.h"
#include "cli/cmd_opts.h"
#include "cli/cmd_util.h"
#include "util/text.h"

#define OPTIONS(X) X(OMPI_INFO, "ompi-info", 0, MG_OPT_ARG) X(HELP, "help", 'h', MG_OPT_FLAG)
enum { OPTIONS(MG_OPT_ENUM) O_N };
static const mg_opt opts[O_N] = {OPTIONS(MG_OPT_ROW)};

static const char usage_text[] =
    "usage: mpiguide libvars [--ompi-info FILE]\n"
    "\n"
    "Lists the MPI library's own algorithms per collective, the names `bench` and `check` take in\n"
    "--lib-variants (rows lib:NAME; docs/libvar.md), with the value that selects each: Open MPI's\n"
    "coll_tuned_<coll>_algorithm numbers, MPICH's MPIR_CVAR_<COLL>_INTRA_ALGORITHM values. Read from\n"
    "the running library through MPI_T (run it as the application would be, one process is enough).\n"
    "\n"
    "      --ompi-info FILE  parse saved `ompi_info --param coll tuned --level 9 [--parsable]` output\n"
    "                        instead (no MPI)\n"
    "  -h, --help            this text\n";

static void print(const mg_lv_lib *lib) {
  printf("# %s, from %s\n", mg_lv_kind_name(lib->kind), lib->source);
  for (int c = 0; c < MG_NCOLL; c++) {
    if (!lib->n[c]) continue;
    printf("%-21s", mg_colls[c].name);
    for (int k = 0; k < lib->n[c]; k++) printf(" %s=%d", lib->algs[c][k].name, lib->algs[c][k].value);
    putchar('\n');
  }
}

int mg_cmd_libvars(int argc, char **argv) {
  mg_opt_vals o;
  char err[1024];
  static mg_lv_lib lib; /* large: not on the stack */
  if (mg_opt_parse(argc, argv, opts, O_N, &o, err, sizeof err) || (o.npos && snprintf(err, sizeof err,
      "unexpected argument '%s'", o.pos[0]))) {
    fprintf(stderr, "mpiguide libvars: %s\n(mpiguide libvars --help lists the options)\n", err);
    mg_opt_vals_free(&o);
    return 2;
  }
  int status = 0;
  if (o.given[O_HELP]) {
    fputs(usage_text, stdout);
  } else if (o.given[O_OMPI_INFO]) {
    /* a file or a pipe (--ompi-info <(ompi_info --param coll tuned --level 9 --parsable)), at most 64 MiB: ftell of a pipe is
     * -1, which once sized the buffer */
    char *text = NULL;
    size_t len;
    FILE *f = mg_open_text(o.val[O_OMPI_INFO], "file of ompi_info output", err, sizeof err);
    if (f) {
      text = mg_read_all(f, (size_t)64 << 20, &len);
      if (!text)
        snprintf(err, sizeof err, "%s: %s", o.val[O_OMPI_INFO],
                 errno == EFBIG ? "more than 64 MiB: not the output of ompi_info" : strerror(errno));
      else if (strlen(text) != len)
        snprintf(err, sizeof err, "%s: a NUL byte: not the output of ompi_info", o.val[O_OMPI_INFO]), free(text),
            text = NULL;
      fclose(f);
    }
    if (!text) {
      fprintf(stderr, "mpiguide libvars: --ompi-info: %s\n", err);
      status = 2;
    } else if (mg_lv_parse_ompi_info(text, &lib, err, sizeof err)) {
      fprintf(stderr, "mpiguide libvars: %s: %s\n", o.val[O_OMPI_INFO], err);
      status = 1;
    } else {
      print(&lib);
    }
    free(text);
  } else {
    int rank, size;
    mg_bench_meta meta;
    if (mg_cmd_mpi_start("libvars", &rank, &size, &meta)) {
      mg_opt_vals_free(&o);
      return 1;
    }
    if (mg_lv_discover(&lib, err, sizeof err)) {
      if (rank == 0) fprintf(stderr, "mpiguide libvars: %s\n", err);
      status = 1;
    } else if (rank == 0) {
      if (lib.kind == MG_LV_NONE) printf("# %s: no collective algorithm variable found through MPI_T\n", meta.mpi_name);
      else print(&lib);
      if (lib.kind == MG_LV_OMPI && lib.dynamic_rules == 0)
        printf("# coll_tuned_use_dynamic_rules is 0 here: bench/check --lib-variants set it at MPI_Init\n");
    }
    mg_cmd_mpi_end();
  }
  mg_opt_vals_free(&o);
  return status;
}
