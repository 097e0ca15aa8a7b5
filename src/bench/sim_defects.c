/*
 * Rows a simulated MPI library is known to break (run.h: mg_bench_skip_sim_defects), as data.
 * Only in the SMPI build (smpicc's mpi.h defines SMPI_H); elsewhere the function does nothing.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "algs/algs.h"
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
 *   when a block is empty; from k elements (bytes) on they run.
 * - ompi and mvapich2, allgather split rows where SMPI runs allgather__rdb: the row's calls receive
 *   one element of the resized piece type per rank (above), and SMPI's recursive doubling does not
 *   charge their bytes: `bench --alg allgather_as_split2`, 4 ranks, ompi, 10.09 us at 64 KiB and at
 *   1 MiB (the links need 7.9 and 126 us for the data); the same with --cfg=smpi/allgather:rdb,
 *   while ring, bruck, neighbour exchange and 2dmesh grow with the size (35-42 us, 189-212 us).
 *   So the split rows "won" 3.38x at 4 ranks (ompi) and 138x at 256 (mvapich2): artefacts (found
 *   by h-sim7, 2026-11-28). ompi: SimGrid 3.32's allgather__ompi (smpi_openmpi_selector.cpp, Open
 *   MPI 4's decision table) picks rdb by the ranks and the bytes a rank sends, which for a piece is
 *   its length: mirrored in ompi_allgather_rdb below, and the row skipped when any of its pieces
 *   gets rdb. mvapich2: skipped from 16 ranks on, where it was measured (16 ranks at 64 and 128 KiB,
 *   256 at 64 KiB); at 4 ranks its split rows are timed by their data (its table there is not
 *   recursive doubling). mpich and impi never showed it (impi's split rows are skipped anyway).
 *   The blocks rows (eq. 2) send the same strided pieces when a block is longer than their piece
 *   size, so the same entries cover them, matched by the family's name prefix; a row whose piece
 *   is the whole block sends bytes, no resized type, and runs. */
#ifdef SMPI_H
typedef enum {
  SIMDEF_ALWAYS,
  SIMDEF_EMPTY_LANE_ELEMENTS, /* the call's count below the ranks per node (regular nodes) */
  SIMDEF_EMPTY_LANE_BYTES,    /* its bytes below the ranks per node */
  SIMDEF_OMPI_RDB_PIECE,      /* SimGrid's ompi allgather picks rdb for one of the row's pieces */
  SIMDEF_FROM_16_RANKS_STRIDED, /* 16 ranks or more, and the row sends a strided piece */
  SIMDEF_STRIDED,               /* the row sends a strided piece (a piece shorter than a block) */
} simdef_when;
#define MG_SMPI_IMPI_GB "SMPI 3.32 selector impi: allgather__GB's bcast__scatter_LR_allgather writes count x " \
                        "extent bytes past this row's strided type (docs/scale.md)"
#define MG_SMPI_RDB "SMPI 3.32 selector %s: its allgather__rdb does not charge the bytes of this row's " \
                    "resized piece type (docs/scale.md)"
#define MG_SMPI_ZERO_COUNT "SMPI 3.32 selector %s: a lane gets 0 elements (fewer than %d ranks per node): count 0 " \
                           "divides by zero in its segmented algorithms at some lane counts (docs/scale.md)"
static const struct {
  const char *selector, *row;
  simdef_when when;
  const char *why; /* a format: the selector, the ranks per node */
} smpi_defects[] = {
    {"impi", "allgather_as_split", SIMDEF_ALWAYS, MG_SMPI_IMPI_GB},
    {"impi", "allgather_as_blocks", SIMDEF_STRIDED, MG_SMPI_IMPI_GB},
    {"ompi", "allreduce_as_lane", SIMDEF_EMPTY_LANE_ELEMENTS, MG_SMPI_ZERO_COUNT},
    {"ompi", "reduce_as_lane", SIMDEF_EMPTY_LANE_ELEMENTS, MG_SMPI_ZERO_COUNT},
    {"ompi", "bcast_as_lane", SIMDEF_EMPTY_LANE_BYTES, MG_SMPI_ZERO_COUNT},
    {"impi", "allreduce_as_lane", SIMDEF_EMPTY_LANE_ELEMENTS, MG_SMPI_ZERO_COUNT},
    {"ompi", "allgather_as_split", SIMDEF_OMPI_RDB_PIECE, MG_SMPI_RDB},
    {"ompi", "allgather_as_blocks", SIMDEF_OMPI_RDB_PIECE, MG_SMPI_RDB},
    {"mvapich2", "allgather_as_split", SIMDEF_FROM_16_RANKS_STRIDED, MG_SMPI_RDB},
    {"mvapich2", "allgather_as_blocks", SIMDEF_FROM_16_RANKS_STRIDED, MG_SMPI_RDB},
};
#define N_SMPI_DEFECTS (sizeof smpi_defects / sizeof smpi_defects[0])

/* Whether SimGrid 3.32's allgather__ompi runs allgather__rdb for p ranks sending d bytes each (its
 * decision table, smpi_openmpi_selector.cpp: algorithm 3 of linear, bruck, rdb, ring, neighbour
 * exchange, two procs). */
static int ompi_allgather_rdb(int p, size_t d) {
  if (p == 2) return 0;
  if (p < 32) return 1;
  if (p < 64) return d < 1024;
  if (p < 256) return d < 512;
  if (p < 512) return d < 32 || (d >= 128 && d < 1024);
  if (p < 1024) return d < 64 || (d >= 256 && d < 2048);
  if (p < 2048) return d < 4 || (d >= 8 && d < 16) || (d >= 32 && d < 256) || (d >= 512 && d < 4096);
  if (p < 4096) return (d >= 32 && d < 128) || (d >= 512 && d < 4096);
  return d < 2 || (d >= 8 && d < 16) || (d >= 512 && d < 4096);
}

/* The piece lengths of allgather's split or blocks row `name` for blocks of b bytes (split.c: k
 * near-equal pieces, mg_split_piece, or pieces of param KiB and a shorter last one; empty pieces
 * are not sent) into len[], at most 4; returns their count. A piece as long as the block is sent
 * as bytes, not as the strided type. */
static int piece_lengths(size_t b, const char *name, size_t *len) {
  int a = mg_alg_find(MG_ALLGATHER, name), n = 0;
  if (a <= 0) return 0;
  const mg_alg *al = &mg_colls[MG_ALLGATHER].algs[a];
  if (al->family == MG_FAM_SPLIT) {
    for (int j = 0; j < al->param && j < 4; j++) {
      size_t off;
      mg_split_piece(b, al->param, j, &off, &len[n]);
      if (len[n]) n++;
    }
  } else if (al->family == MG_FAM_BLOCKS) {
    size_t k = (size_t)al->param << 10;
    if (b >= k) len[n++] = k;
    if (b % k) len[n++] = b % k;
  }
  return n;
}

/* Whether the row sends a piece shorter than the block: one element of the strided type. */
static int strided_piece(size_t b, const char *name) {
  size_t len[4];
  int n = piece_lengths(b, name, len);
  for (int j = 0; j < n; j++)
    if (len[j] != b) return 1;
  return 0;
}

/* Whether a split or blocks row sends a strided piece that ompi's allgather runs as rdb. */
static int ompi_pieces_rdb(int p, size_t b, const char *name) {
  size_t len[4];
  int n = piece_lengths(b, name, len);
  for (int j = 0; j < n; j++)
    if (len[j] != b && ompi_allgather_rdb(p, len[j])) return 1;
  return 0;
}

/* Does defect d apply to B's series i? rpn: ranks per node of c's communicator (0: uneven nodes,
 * where the lane rows fall back and make no call of their own). */
static int applies(size_t d, const char *selector, const char *name, const mg_call *c, int rpn) {
  /* a table row names a row of libmpiguide or, ending in "_as_split"/"_as_blocks", its family */
  size_t rl = strlen(smpi_defects[d].row);
  if (strcmp(selector, smpi_defects[d].selector) || strncmp(name, smpi_defects[d].row, rl)) return 0;
  switch (smpi_defects[d].when) {
  case SIMDEF_EMPTY_LANE_ELEMENTS: return c->rcount < rpn;
  case SIMDEF_EMPTY_LANE_BYTES: return c->bytes < (size_t)rpn;
  case SIMDEF_OMPI_RDB_PIECE: return ompi_pieces_rdb(c->size, c->bytes, name);
  case SIMDEF_FROM_16_RANKS_STRIDED: return c->size >= 16 && strided_piece(c->bytes, name);
  case SIMDEF_STRIDED: return strided_piece(c->bytes, name);
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
      need |= (smpi_defects[d].when == SIMDEF_EMPTY_LANE_ELEMENTS || smpi_defects[d].when == SIMDEF_EMPTY_LANE_BYTES) &&
              !strcmp(selector, smpi_defects[d].selector) &&
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

/* Layouts SMPI 3.32 cannot run at all under a selector, as data: its own MPI_Bcast breaks there,
 * and every communicator creation (MPI_Comm_dup, _split, _split_type, _create) broadcasts the new
 * communicator's id (an int, smpi_comm.cpp, Comm::Comm) with the selected bcast, so no program
 * that makes a communicator survives (sim/smpi_bcast_layout.c shows both without mpiguide).
 * - impi, one rank per host, 5-8 ranks: SMPI's Intel MPI table for one process per node picks
 *   bcast__SMP_linear there for 0-2, 4-24, 256-681, 1264-2233 bytes and from 3998434 on
 *   (smpi_intel_mpi_selector.cpp, intel_bcast_table; 2 ranks: 21845-95962 bytes; 3-4 and 9 or
 *   more ranks: never). With one rank per node (num_core 1) its inter- and intra-node successor are
 *   the same rank: each rank sends every segment twice to the next and the last sends it back to
 *   the root, which receives nothing (bcast-SMP-linear.cpp, the count <= segment branch): "Actor
 *   ... is gone" or MPI_ERR_TRUNCATE, SIGABRT. The int id falls in 4-24 bytes: MPI_Comm_dup dies.
 * - mpich, k ranks on each of 2 or more hosts, k not a power of two: SMPI's mpich bcast runs
 *   bcast__SMP_binomial on every communicator of uniform nodes (smpi_mpich_selector.cpp), whose
 *   tree inside a node sends to base + intra_rank + mask while that is below the communicator's
 *   size, not the node's (bcast-SMP-binomial.cpp): with k = 3, rank 2 of each node sends a stray
 *   message to the next node's first rank (k = 5, 6, 7: more of them). SMPI matches a receive on
 *   a communicator whose id is still MPI_UNDEFINED (one being created) with a message of any
 *   communicator (smpi_request.cpp, match_common), so the next communicator creation receives the
 *   stray: MPI_ERR_TRUNCATE or MPI_ERR_TYPE ("Mismatched datatypes"), SIGABRT. Power-of-two k
 *   never sends one.
 * Both unchanged in SimGrid's sources of 2026. */
#ifdef SMPI_H
typedef enum {
  SIMRUN_ONE_PER_HOST_5_8, /* every rank on a host of its own, 5-8 ranks */
  SIMRUN_UNIFORM_NOT_POW2, /* the same k ranks on every host, 2 or more hosts, k not a power of 2 */
} simrun_when;
static const struct {
  const char *selector;
  simrun_when when;
  const char *why; /* a format: the selector, the ranks, the hosts, the ranks per host */
} smpi_unrunnable[] = {
    {"impi", SIMRUN_ONE_PER_HOST_5_8,
     "SMPI 3.32 selector %s cannot run %d ranks on %d hosts, one per host: its bcast there "
     "(bcast__SMP_linear, for 0-2, 4-24, 256-681, 1264-2233 bytes and from 3998434) sends every "
     "message twice to the next rank and from the last rank back to the root, and each communicator "
     "creation broadcasts the new id (4 bytes) with it, so MPI_Comm_dup aborts; run 4 or 9 or more "
     "ranks, several per host, or another selector (docs/scale.md)"},
    {"mpich", SIMRUN_UNIFORM_NOT_POW2,
     "SMPI 3.32 selector %s cannot run %d ranks on %d hosts, %d per host: its bcast across hosts "
     "(bcast__SMP_binomial) sends stray messages from each host's last ranks to the next host when "
     "the ranks per host are not a power of two, and the next communicator creation receives one "
     "(MPI_ERR_TRUNCATE); run a power of two per host, or another selector (docs/scale.md)"},
};
#define N_SMPI_UNRUNNABLE (sizeof smpi_unrunnable / sizeof smpi_unrunnable[0])

/* Rank 0's view of comm's layout from every rank's simulated host (MPI_Get_processor_name), by
 * point-to-point messages: the hosts, and the ranks per host when all have the same, else 0. */
#define MG_SIMRUN_TAG 7177
static int simrun_layout(MPI_Comm comm, int rank, int size, int *nhosts, int *rpn) {
  char me[MPI_MAX_PROCESSOR_NAME + 1];
  mg_layout_host(me, sizeof me);
  if (rank) return PMPI_Send(me, (int)sizeof me, MPI_CHAR, 0, MG_SIMRUN_TAG, comm);
  char(*host)[MPI_MAX_PROCESSOR_NAME + 1] = malloc(sizeof *host * (size_t)size);
  int *count = calloc((size_t)size, sizeof *count), rc = MPI_SUCCESS, n = 0;
  if (!host || !count) {
    free(host), free(count);
    return MPI_ERR_NO_MEM; /* the others' sends are small: SMPI completes them detached */
  }
  for (int r = 0; r < size; r++) {
    char name[sizeof me];
    if (r == 0) memcpy(name, me, sizeof me);
    else if ((rc = PMPI_Recv(name, (int)sizeof name, MPI_CHAR, r, MG_SIMRUN_TAG, comm, MPI_STATUS_IGNORE)))
      break;
    int h = 0;
    while (h < n && strcmp(host[h], name)) h++;
    if (h == n) memcpy(host[n++], name, sizeof name);
    count[h]++;
  }
  *nhosts = n;
  *rpn = count[0];
  for (int h = 1; h < n; h++)
    if (count[h] != *rpn) *rpn = 0;
  free(host), free(count);
  return rc;
}
#endif

int mg_bench_sim_runnable(MPI_Comm comm, char *why, size_t len) {
#ifdef SMPI_H
  char platform[256], selector[32];
  mg_bench_smpi_config(platform, sizeof platform, selector, sizeof selector);
  int rank, size, nhosts = 0, rpn = 0, verdict = -1; /* -1: runnable, else the defect's index */
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  int watched = 0; /* only a selector with such a defect pays for the layout (same on every rank) */
  for (size_t d = 0; d < N_SMPI_UNRUNNABLE; d++) watched |= !strcmp(selector, smpi_unrunnable[d].selector);
  if (!watched) return 1;
  int lrc = simrun_layout(comm, rank, size, &nhosts, &rpn); /* failed: runnable, the run says more */
  if (rank == 0) {
    for (size_t d = 0; d < N_SMPI_UNRUNNABLE && verdict < 0 && lrc == MPI_SUCCESS; d++) {
      if (strcmp(selector, smpi_unrunnable[d].selector)) continue;
      int hit = smpi_unrunnable[d].when == SIMRUN_ONE_PER_HOST_5_8
                    ? rpn == 1 && size >= 5 && size <= 8
                    : nhosts >= 2 && rpn > 1 && (rpn & (rpn - 1)) != 0;
      if (hit) verdict = (int)d;
    }
    for (int r = 1; r < size; r++) PMPI_Send(&verdict, 1, MPI_INT, r, MG_SIMRUN_TAG, comm);
  } else
    PMPI_Recv(&verdict, 1, MPI_INT, 0, MG_SIMRUN_TAG, comm, MPI_STATUS_IGNORE);
  if (verdict < 0) return 1;
  snprintf(why, len, smpi_unrunnable[verdict].why, selector, size, nhosts, rpn);
  return 0;
#else
  (void)comm, (void)why, (void)len;
  return 1;
#endif
}
