/*
 * Rows a simulated MPI library is known to break (run.h: mg_bench_skip_sim_defects), as data.
 * Only in the SMPI build (smpicc's mpi.h defines SMPI_H); elsewhere the function does nothing.
 */
#include <stdio.h>
#include <string.h>

#include "algs/layout.h"
#include "bench/bench.h"
#include "bench/run.h"

/* Rows a simulated library is known to break, as data: under SimGrid's SMPI with this selector
 * (smpi/coll-selector) the row is skipped with the reason, as any row that cannot run is, so a
 * check survives it and says why (docs/scale.md, "SMPI's own defects"). Real MPI libraries are
 * kept away from their defects by the registry's restrictions, which hold on every MPI; these
 * hold for one simulated configuration only, which the registry does not know.
 * - impi, allgather split rows (always): the row receives a piece of every block as one element
 *   of a byte type resized to the block (split.c), whose last element's extent reaches past the
 *   buffer. SMPI 3.32's impi logic runs allgather as allgather__GB (gather, then a bcast of p
 *   elements), and its bcast (bcast__mvapich2) as bcast__scatter_LR_allgather, which moves count x
 *   extent raw bytes from the buffer's start, ignoring the type map: 32 KiB past the end of a
 *   4-rank 64 KiB split2 (heap corruption: "free(): invalid pointer", or a crash in SMPI's request
 *   code). Crashes seen with split2 at 64 KiB, 128 KiB and 1 MiB (4 ranks) and 256 KiB (16), with
 *   split4 at 128 and 256 KiB (4 ranks); whether it crashes depends on what lies past the buffer
 *   (a standalone reproducer: docs/scale.md). The other selectors and the split rows of gather,
 *   scatter and alltoall ran clean.
 * - ompi and impi, lane rows when a lane's block is empty: a lane row gives each of the k ranks
 *   of a node a block of whole elements (bytes for bcast; hier_nodes.c) and runs the collective on
 *   that block across the nodes, so with fewer elements than k ranks per node some lanes make a
 *   legal call of count 0. SMPI 3.32 passes count 0 to its algorithms (smpi_pmpi_coll.cpp checks
 *   only count < 0), and several divide by a segment count that is then 0: bcast__ompi_pipeline
 *   (count_by_segment starts at the count; num_segments = (count + count_by_segment - 1) /
 *   count_by_segment), which ompi's bcast picks below 32 bytes on 2-3 ranks and allreduce__lr ->
 *   allreduce__redbcast reaches on them; reduce__ompi_binary (smpi_coll_tuned_ompi_reduce_generic)
 *   from 4 ranks; impi's allreduce__ompi_ring_segmented on 2-4 ranks. SIGFPE, the whole simulation
 *   dies. Seen: allreduce_as_lane at 8 B (one double on 2 ranks per node, testbed-2x2, ompi).
 *   Probed with MPI_Bcast/Allreduce/Reduce of count 0 alone (no mpiguide) at 2-8 and 16 ranks:
 *   ompi dies in allreduce (every count but 8 ranks), reduce (from 4) and bcast (2-3); impi in
 *   allreduce (2-4); mpich and mvapich2 never. So the rows are skipped under ompi and impi exactly
 *   when a block is empty; from k elements (bytes) on they run. */
#ifdef SMPI_H
typedef enum {
  SIMDEF_ALWAYS,
  SIMDEF_EMPTY_LANE_ELEMENTS, /* the call's count below the ranks per node (regular nodes) */
  SIMDEF_EMPTY_LANE_BYTES,    /* its bytes below the ranks per node */
} simdef_when;
#define MG_SMPI_IMPI_GB "SMPI 3.32 selector impi: allgather__GB's bcast__scatter_LR_allgather writes count x " \
                        "extent bytes past this row's strided type (docs/scale.md)"
#define MG_SMPI_ZERO_COUNT "SMPI 3.32 selector %s: a lane gets 0 elements (fewer than %d ranks per node): count 0 " \
                           "divides by zero in its segmented algorithms at some lane counts (docs/scale.md)"
static const struct {
  const char *selector, *row;
  simdef_when when;
  const char *why; /* a format: the selector, the ranks per node */
} smpi_defects[] = {
    {"impi", "allgather_as_split2", SIMDEF_ALWAYS, MG_SMPI_IMPI_GB},
    {"impi", "allgather_as_split4", SIMDEF_ALWAYS, MG_SMPI_IMPI_GB},
    {"ompi", "allreduce_as_lane", SIMDEF_EMPTY_LANE_ELEMENTS, MG_SMPI_ZERO_COUNT},
    {"ompi", "reduce_as_lane", SIMDEF_EMPTY_LANE_ELEMENTS, MG_SMPI_ZERO_COUNT},
    {"ompi", "bcast_as_lane", SIMDEF_EMPTY_LANE_BYTES, MG_SMPI_ZERO_COUNT},
    {"impi", "allreduce_as_lane", SIMDEF_EMPTY_LANE_ELEMENTS, MG_SMPI_ZERO_COUNT},
};
#define N_SMPI_DEFECTS (sizeof smpi_defects / sizeof smpi_defects[0])

/* Does defect d apply to B's series i? rpn: ranks per node of c's communicator (0: uneven nodes,
 * where the lane rows fall back and make no call of their own). */
static int applies(size_t d, const char *selector, const char *name, const mg_call *c, int rpn) {
  if (strcmp(selector, smpi_defects[d].selector) || strcmp(name, smpi_defects[d].row)) return 0;
  switch (smpi_defects[d].when) {
  case SIMDEF_EMPTY_LANE_ELEMENTS: return c->rcount < rpn;
  case SIMDEF_EMPTY_LANE_BYTES: return c->bytes < (size_t)rpn;
  default: return 1;
  }
}
#endif

int mg_bench_skip_sim_defects(mg_bench_block *B, const mg_call *c) {
#ifdef SMPI_H
  static char selector[32]; /* per simulated rank (SMPI privatises globals), the same on all */
  if (!selector[0]) {
    char platform[256];
    mg_bench_smpi_config(platform, sizeof platform, selector, sizeof selector);
  }
  /* The layout only when a conditional row of this selector is in B (B and the selector are the
   * same on every rank, so every rank takes the collective or none). */
  int need = 0, rpn = 0, rc = MPI_SUCCESS;
  for (int i = 0; i < B->nseries && !need; i++) {
    if (mg_lv_is(B->series[i].alg)) continue;
    for (size_t d = 0; d < N_SMPI_DEFECTS; d++)
      need |= smpi_defects[d].when != SIMDEF_ALWAYS && !strcmp(selector, smpi_defects[d].selector) &&
              !strcmp(mg_colls[B->coll].algs[B->series[i].alg].name, smpi_defects[d].row);
  }
  if (need) {
    mg_layout l;
    if ((rc = mg_layout_collect(c->comm, &l)) != MPI_SUCCESS) return rc;
    rpn = l.rpn_min == l.rpn_max ? l.rpn_max : 0;
  }
  for (int i = 0; i < B->nseries; i++) {
    if (mg_lv_is(B->series[i].alg) || B->series[i].status == MG_SERIES_SKIPPED) continue;
    const char *name = mg_colls[B->coll].algs[B->series[i].alg].name;
    for (size_t d = 0; d < N_SMPI_DEFECTS; d++)
      if (applies(d, selector, name, c, rpn)) {
        B->series[i].status = MG_SERIES_SKIPPED;
        char why[160];
        snprintf(why, sizeof why, smpi_defects[d].why, selector, rpn);
        snprintf(B->series[i].note, sizeof B->series[i].note, "skipped: %s", why);
      }
  }
  return rc;
#else
  (void)B, (void)c;
  return MPI_SUCCESS;
#endif
}
