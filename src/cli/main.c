/*
 * mpiguide: the command-line tool. `mpiguide <command> [options]`; the table
 * below lists the commands; each has its own --help.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "mpiguide.h"

#ifndef MG_BUILT_FOR
#define MG_BUILT_FOR "an unknown MPI"
#endif
#define MG_STR_(x) #x
#define MG_STR(x) MG_STR_(x)
/* The version of the MPI library this build's mpi.h is (known at build time: Open MPI's and MPICH's
 * headers say it; else none), and the MPI standard it implements. */
#if defined(OMPI_MAJOR_VERSION) && defined(OMPI_MINOR_VERSION) && defined(OMPI_RELEASE_VERSION)
#define MG_MPI_HEADER_VERSION " " MG_STR(OMPI_MAJOR_VERSION) "." MG_STR(OMPI_MINOR_VERSION) "." MG_STR(OMPI_RELEASE_VERSION)
#elif defined(MPICH_VERSION)
#define MG_MPI_HEADER_VERSION " " MPICH_VERSION
#else
#define MG_MPI_HEADER_VERSION ""
#endif
/* The site shim (libmpiguide-preload.so, src/site/preload.c) leaves a program that exports this
 * alone: the mpiguide command measures the MPI library's own operations and its mock-ups, never
 * what a site's MPIGUIDE_PROFILE would make of them (exported by the link, CMakeLists.txt). */
__attribute__((visibility("default"), used)) const int mpiguide_site_skip = 1;

static const struct {
  const char *name;
  int (*fn)(int, char **);
  const char *summary;
} commands[] = {
    {"list", mg_cmd_list, "list every collective and algorithm (guideline, formula, extra memory)"},
    {"profile", mg_cmd_profile, "tuning profiles: validate (file:line for every problem)"},
    {"bench", mg_cmd_bench, "measure collectives and their mock-ups (run under mpirun; raw CSV)"},
    {"check", mg_cmd_check, "find guideline violations: measure, test, verdicts (mpirun; --from: offline)"},
    {"report", mg_cmd_report, "one self-contained HTML page (plots, heat map, tables) from check results"},
    {"campaign", mg_cmd_campaign, "check every configuration (MPI libraries x node layouts) of a spec into one tree; resumable"},
    {"tune", mg_cmd_tune, "write a tuning profile from check results (fastest significant mock-up per size)"},
    {"verify", mg_cmd_verify, "measure default vs tuned for a profile's cells and re-check (run under mpirun)"},
    {"libvars", mg_cmd_libvars, "the MPI library's own collective algorithms (--lib-variants names) via MPI_T or ompi_info"},
    {"env", mg_cmd_env, "where the library and the docs are; the LD_PRELOAD line for an application"},
    {"predict", mg_cmd_predict, "predicted time of every algorithm per size from LogGP parameters and check results"},
    {"hotspots", mg_cmd_hotspots, "the call sites covering most of a run's MPI time, from a timed trace (verdicts, savings)"},
    {"site", mg_cmd_site, "the site's profile store: publish, rollback, status, which (every job's profile)"},
    {"loggp", mg_cmd_loggp, "measure LogGP parameters (L, o_s, o_r, g, G) of the job's pairs (mpirun; parameter file)"},
};

static void usage(FILE *f) {
  fprintf(f, "usage: mpiguide <command> [options]\n\ncommands:\n");
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
  fprintf(f, "  %-10s %s\n", "version", "print the mpiguide version");
  fprintf(f, "\n`mpiguide <command> --help` describes a command. ");
  mg_cmd_docs_hint(f);
}

int main(int argc, char **argv) {
  if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  if (!strcmp(argv[1], "version") || !strcmp(argv[1], "--version")) {
    /* "mpiguide VERSION" first: scripts read the second word (awk '{print $2}') */
    printf("mpiguide %s (built for %s%s, MPI %d.%d)\n", MPIGUIDE_VERSION, MG_BUILT_FOR, MG_MPI_HEADER_VERSION,
           MPI_VERSION, MPI_SUBVERSION);
    return 0;
  }
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (!strcmp(argv[1], commands[i].name)) return commands[i].fn(argc - 1, argv + 1);
  fprintf(stderr, "mpiguide: unknown command '%s'\n\n", argv[1]);
  usage(stderr);
  return 2;
}
