/*
 * Rows a simulated MPI library is known to break (run.h: mg_bench_skip_sim_defects), as data.
 * Only in the SMPI build (smpicc's mpi.h defines SMPI_H); elsewhere the function does nothing.
 */
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "bench/run.h"

/* Rows a simulated library is known to break, as data: under SimGrid's SMPI with this selector
 * (smpi/coll-selector) the row is skipped with the reason, as any row that cannot run is, so a
 * check survives it and says why (docs/scale.md, "SMPI's own defects"). Real MPI libraries are
 * kept away from their defects by the registry's restrictions, which hold on every MPI; these
 * hold for one simulated configuration only, which the registry does not know.
 * - impi, allgather split rows: the row receives a piece of every block as one element of a byte
 *   type resized to the block (split.c), whose last element's extent reaches past the buffer.
 *   SMPI 3.32's impi logic runs allgather as allgather__GB (gather, then a bcast of p elements),
 *   and its bcast (bcast__mvapich2) as bcast__scatter_LR_allgather, which moves count x extent
 *   raw bytes from the buffer's start, ignoring the type map: 32 KiB past the end of a 4-rank
 *   64 KiB split2 (heap corruption: "free(): invalid pointer", or a crash in SMPI's request
 *   code). Crashes seen with split2 at 64 KiB, 128 KiB and 1 MiB (4 ranks) and 256 KiB (16), with
 *   split4 at 128 and 256 KiB (4 ranks); whether it crashes depends on what lies past the buffer
 *   (a standalone reproducer: docs/scale.md). The other selectors and the split rows of gather, scatter and alltoall ran clean. */
#ifdef SMPI_H
#define MG_SMPI_IMPI_GB "SMPI 3.32 selector impi: allgather__GB's bcast__scatter_LR_allgather writes count x " \
                        "extent bytes past this row's strided type (docs/scale.md)"
static const struct {
  const char *selector, *row, *why;
} smpi_defects[] = {
    {"impi", "allgather_as_split2", MG_SMPI_IMPI_GB},
    {"impi", "allgather_as_split4", MG_SMPI_IMPI_GB},
};
#endif

void mg_bench_skip_sim_defects(mg_bench_block *B) {
#ifdef SMPI_H
  static char selector[32]; /* per simulated rank (SMPI privatises globals), the same on all */
  if (!selector[0]) {
    char platform[256];
    mg_bench_smpi_config(platform, sizeof platform, selector, sizeof selector);
  }
  for (int i = 0; i < B->nseries; i++) {
    if (mg_lv_is(B->series[i].alg) || B->series[i].status == MG_SERIES_SKIPPED) continue;
    const char *name = mg_colls[B->coll].algs[B->series[i].alg].name;
    for (size_t d = 0; d < sizeof smpi_defects / sizeof smpi_defects[0]; d++)
      if (!strcmp(selector, smpi_defects[d].selector) && !strcmp(name, smpi_defects[d].row)) {
        B->series[i].status = MG_SERIES_SKIPPED;
        snprintf(B->series[i].note, sizeof B->series[i].note, "skipped: %s", smpi_defects[d].why);
      }
  }
#else
  (void)B;
#endif
}
