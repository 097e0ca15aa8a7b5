/*
 * `mpiguide check`: find guideline violations of the MPI library
 * (docs/check.md). Two modes:
 *
 *  - measure (under mpirun or srun): the bench engine measures the default and
 *    every applicable mock-up of each chosen (collective, size), interleaved,
 *    in one launch; rank 0 writes DIR/raw.csv first and analyses the file it
 *    wrote exactly as `--from DIR` would, while the other ranks wait without
 *    spinning; then every rank leaves MPI, MPI_Finalize watched (a hang ends
 *    the run after the results are complete, mg_cmd_mpi_end_status);
 *  - offline (`--from DIR...`): re-analyses saved raw data, without MPI
 *    (MPI_Init is never called, so no mpirun is needed).
 *
 * Options are parsed identically on every rank; a bad option, an unusable
 * output directory or ranks started with different arguments stop every rank
 * with exit code 2 and one message (the scheme of `mpiguide bench`). Exit
 * codes: 0 done (violations or not), 1 the run or the analysis failed (the
 * raw data written so far stay), 2 bad input; nothing is overwritten on 2.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cmd_check_state.h"

const mg_opt mg_check_opts[O_N] = {OPTIONS(MG_OPT_ROW)};

int mg_cmd_check(int argc, char **argv) {
  mg_check_state S0, *S = &S0;
  char busy[4200] = ""; /* DIR/.analysing, once made */
  memset(S, 0, sizeof *S);
  mg_opt_vals o;
  int dd = -1; /* "--": the launcher of --launches follows */
  for (int i = 1; i < argc && dd < 0; i++)
    if (!strcmp(argv[i], "--")) dd = i;
  int st = mg_check_parse_argv(dd < 0 ? argc : dd, argv, &o, S);
  if (st == 0 && (dd >= 0 || o.given[O_LAUNCHES]) && !o.given[O_HELP]) {
    if (!o.given[O_LAUNCHES]) {
      fprintf(stderr, "mpiguide check: '--' introduces the launcher of --launches N\n");
      st = 2;
    } else {
      st = mg_check_launches_args(argc, argv, dd, &o);
    }
    mg_opt_vals_free(&o);
    return st;
  }
  if (st == 0) st = mg_check_parse_analysis(&o, S);
  int status = mg_check_without_mpi(S, &o, st);
  if (status >= 0) {
    mg_opt_vals_free(&o);
    return status;
  }
  mg_bench_meta meta;
  mg_cmd_libvar_env(argc, argv);
  if (mg_cmd_mpi_start("check", &S->rank, &S->size, &meta)) {
    mg_opt_vals_free(&o);
    return 1;
  }
  S->mpi = 1;
  if (st == 0) st = mg_check_parse_measure(&o, S, &meta);
  if (st == 0 && S->resume) st = mg_check_resume_plan(S, argc, argv, &meta);
  if (st == 0 && !S->nothing_left) st = mg_check_make_groups(S);
  status = mg_cmd_agree("check", S->rank, st, S->err, mg_cmd_argv_hash(argc, argv),
                        "the ranks were started with different arguments; start every rank with the same options");
  if (status) {
    if (S->rank == 0 && S->created_out) rmdir(S->out);
    goto done;
  }
  S->command = mg_cmd_join(argc, argv);
  /* DIR/.analysing from here until the analysis is written: check --launches (the parent) tells a
   * launch whose results are complete, and whose launcher may then hang in MPI_Finalize, from one
   * still writing them (cmd_check_launches.c) */
  if (S->rank == 0) {
    snprintf(busy, sizeof busy, "%s/.analysing", S->out);
    FILE *bf = fopen(busy, "w");
    if (bf) fclose(bf);
  }
  if (S->nothing_left) { /* --resume: every cell is measured already */
    if (S->rank == 0 && mg_check_resume_finish(S)) fprintf(stderr, "mpiguide check: %s\n", S->err), status = 1;
  } else {
    mg_check_measure(S, &meta);
    if (S->rank == 0) {
      for (int g = 0; g < S->ngroups; g++) mg_cmd_warn_failed("check", &S->groups[g].res);
      if (mg_check_write_raw(S, &meta, NULL)) {
        fprintf(stderr, "mpiguide check: %s\n", S->err);
        status = 1;
      }
    }
  }
  MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (status == 0 && mg_check_wants_pack(S)) { /* TGT 2010 eq. 4: local calls, after the collectives */
    if (mg_check_measure_pack(S, &meta)) fprintf(stderr, "mpiguide check: %s\n", S->err), status = 1;
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }
  if (status == 0 && o.given[O_OVERLAP]) { /* overlap must not cost (OVL): after the collectives */
    if (mg_check_measure_overlap(S, &meta, o.val[O_OVL_TESTS]))
      fprintf(stderr, "mpiguide check: %s\n", S->err), status = 1;
    MPI_Bcast(&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  }

done:
  for (int g = 0; g < S->ngroups; g++) mg_bench_result_free(&S->groups[g].res), free(S->groups[g].sizes);
  free(S->groups);
  for (int c = 0; c < MG_NCOLL; c++) free(S->sizes[c]);
  /* The analysis needs no MPI but runs before MPI_Finalize, which can hang (MPICH 4.0.2 + UCX,
   * docs/cluster.md): the verdicts are written whatever MPI_Finalize does. The other ranks wait for
   * rank 0 asleep, leaving it the cores. */
  int analysed = 0;
  if (status == 0 && S->rank == 0) {
    const char *src[1] = {S->out};
    status = mg_check_analyse(S, src, 1, S->out);
    analysed = 1;
    if (status == 2) status = 1; /* our own file did not read back: a failure, not bad input */
    if (status)
      fprintf(stderr,
              "mpiguide check: the raw data are kept in %s/raw.csv; analyse them again with "
              "`mpiguide check --from %s -o %s`\n",
              S->out, S->out, S->out);
  }
  if (busy[0]) remove(busy);
  mg_cmd_quiet_barrier();
  char saved[4300];
  snprintf(saved, sizeof saved, "%s in %s", status == 0 ? "verdicts and raw data" : "raw data", S->out);
  mg_cmd_mpi_end_status("check", status, analysed ? saved : NULL);
  free(S->command);
  free(S->old_text);
  free(S->old_keep);
  free(S->old_rows);
  mg_opt_vals_free(&o);
  return status;
}
