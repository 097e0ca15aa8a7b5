/*
 * `mpiguide bench --overlap` (cmd_bench_overlap.c): what cmd_bench.c calls.
 */
#ifndef MG_CLI_CMD_BENCH_OVERLAP_H
#define MG_CLI_CMD_BENCH_OVERLAP_H

#include <stdio.h>

#include "bench/overlap_run.h"

/* The options of bench that --overlap looks at (NULL / 0: not given). */
typedef struct mg_cmd_overlap_opts {
  const char *colls, *tests;
  int alg, reductions, repro;
} mg_cmd_overlap_opts;

/* After bench's validation of the common options: refuse what does not apply, keep the
 * collectives with a non-blocking form (`--coll all`: those; a named one without: an error), set
 * algmask to their nonblocking rows (the metadata names them) and parse --tests into oc.
 * 0, or -1 with a message. */
int mg_cmd_overlap_setup(mg_bench_cfg *cfg, const mg_cmd_overlap_opts *o, mg_ovl_cfg *oc, char *err, size_t errlen);
/* The #@ lines (format mpiguide-bench-overlap/2), the CSV rows (their number), the summary table. */
void mg_cmd_overlap_meta(FILE *f, const mg_bench_cfg *cfg, const mg_ovl_cfg *oc, const mg_ovl_result *res,
                         const mg_bench_meta *m, const char *command);
long mg_cmd_overlap_rows(FILE *f, const mg_ovl_result *res, const mg_bench_meta *m);
void mg_cmd_overlap_summary(FILE *f, const mg_ovl_result *res);

#endif
