/*
 * Writing a benchmark result: the `#@key=value` metadata, the raw tidy CSV
 * rows, ReproMPI-compatible rows of one variant, and the summary table
 * (formats in docs/bench.md). Local calls: rank 0 normally does the writing.
 */
#ifndef MG_BENCH_OUTPUT_H
#define MG_BENCH_OUTPUT_H

#include <stdio.h>

#include "bench/bench.h"

/* The metadata lines. command: the full command line, as it should be quoted. */
void mg_bench_write_meta(FILE *f, const mg_bench_cfg *cfg, const mg_bench_result *res, const mg_bench_meta *m,
                         const char *command);
/* The part of them that describes the launch, the calls, the timing and the repetitions (not the
 * blocks' outcomes), under #@format=format: `bench --overlap` writes it too (res: sync and clock). */
void mg_bench_write_meta_head(FILE *f, const mg_bench_cfg *cfg, const mg_bench_result *res, const mg_bench_meta *m,
                              const char *command, const char *format);
/* Only the lines that describe the launch (library, processes, nodes, host, date, launch id, command)
 * under #@format=format: what makes a file of another measurement of the same launch (check's
 * pack.csv) one of its launch to the readers. */
void mg_bench_write_meta_launch(FILE *f, const mg_bench_meta *m, const char *command, const char *format);
/* The CSV header line and every row, block by block, algorithm by algorithm
 * (registry order), warm-up rows first, each in the order taken. Returns the
 * number of rows. */
long mg_bench_write_raw(FILE *f, const mg_bench_cfg *cfg, const mg_bench_result *res, const mg_bench_meta *m);
/* The data rows mg_bench_write_raw writes: a file that is not check's announces them as #@rows=N
 * before its header (check's raw.csv has #@check_rows, which counts a resumed run's earlier rows
 * too), so that its readers refuse a file cut between two rows. */
long mg_bench_raw_count(const mg_bench_result *res);
/* "test nrep msize runtime_sec" and the valid, non-warm-up rows of one
 * algorithm of one collective over all sizes. test is the MPI name for the
 * default ("MPI_Allreduce") and the registry name for a mock-up. Returns rows. */
long mg_bench_write_repro(FILE *f, const mg_bench_result *res, mg_coll coll, int alg);
/* The summary table: one line per (collective, size, algorithm). */
void mg_bench_print_summary(FILE *f, const mg_bench_cfg *cfg, const mg_bench_result *res);

#endif
