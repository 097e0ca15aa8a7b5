/*
 * What the mock-ups share: the small toolkit they are written with (typed
 * copies, packing, scratch), on top of the registry's call descriptor, its
 * datatype layout queries (registry/datatype.h) and the declarations of the
 * algorithm functions the registry's rows name (registry/algorithms.h).
 *
 * Conventions every algorithm follows (DESIGN.md rules 1-5):
 * - only PMPI_* calls; never an MPI_* call (that would re-enter libmpiguide);
 * - the return code of the first failing PMPI call is returned unchanged;
 * - arguments significant only at the root are read only at the root;
 * - scratch comes from mg_scratch() and never exceeds the algorithm's mem
 *   function for the same call; data of per-rank datatypes travels packed
 *   (MPI_PACKED / MPI_BYTE), so scratch sizes depend only on the message size;
 * - the receive buffer is written only where the collective writes it (never
 *   in the gaps of a derived datatype).
 * The wrapper has already dealt with intercommunicators, empty messages and
 * the registry's restrictions; an algorithm sees an intracommunicator call
 * with bytes > 0.
 */
#ifndef MG_ALGS_H
#define MG_ALGS_H

#include "registry/algorithms.h"
#include "registry/datatype.h"
#include "registry/registry.h"

/* Local copy of scount elements of stype at src to dcount elements of dtype
 * at dst (equal type signatures). memmove for dense types, else PMPI_Pack into
 * a per-thread bounce buffer and PMPI_Unpack from it. */
int mg_copy(const void *src, int scount, MPI_Datatype stype, void *dst, int dcount, MPI_Datatype dtype);
/* Pack count elements into `out` (exactly count*size bytes on homogeneous
 * systems, which mpiguide assumes) / unpack them. */
int mg_pack(const void *in, int count, MPI_Datatype dt, void *out, int outbytes);
int mg_unpack(const void *in, int inbytes, void *out, int count, MPI_Datatype dt);
/* Whether packed bytes may be received directly into dt (see toolkit.c for
 * the MPICH limitation behind it); local decision, same messages either way. */
int mg_packed_recv_ok(MPI_Datatype dt, int *ok);
/* Pack the calling rank's own block (c->bytes bytes) of a gather-type call:
 * from the send buffer, or with MPI_IN_PLACE from its block of the receive
 * buffer. */
int mg_pack_own(const mg_call *c, void *out);

/*
 * The agreement step of a gatherv or scatterv mock-up that needs the message size
 * (mg_coll_info.known = 0): the root, which alone holds the counts, scatters to
 * every rank the byte offset of its block in the packed vector (the sum of
 * counts[0..rank) x size(dt)) and the vector's total n. counts and dt are read at
 * the root only. Scratch: 2p long longs (from mg_scratch). Collective over c->comm.
 */
int mg_root_offsets(const mg_call *c, const int *counts, MPI_Datatype dt, size_t *off, size_t *n);

/*
 * A private communicator with the group and rank order of comm, for the
 * point-to-point messages of a mock-up: on comm itself they could match a
 * receive the application has posted with MPI_ANY_SOURCE or MPI_ANY_TAG.
 * Made with PMPI_Comm_split on first use (collective over comm: every rank
 * runs the same algorithm for the same call, so every rank asks for it at the
 * same call) and cached on comm as an attribute (no copy callback, so it is
 * never inherited by a duplicate); later calls cost one PMPI_Comm_get_attr.
 * The split copies none of comm's attributes (a dup would run the
 * application's copy callbacks). When comm is freed the private one is
 * freed at the next use of this function or at mg_core_finalize, never
 * inside the attribute's delete callback.
 */
int mg_p2p_comm(MPI_Comm comm, MPI_Comm *out);

/*
 * The private communicator of comm (mg_p2p_comm) with its processes renumbered by a seeded random
 * permutation, the same on every rank and never the identity for p >= 2 (TGT 2010 eq. 36, the
 * rerank family): *newrank[r] is the rank there of rank r of comm. Made with PMPI_Comm_split at
 * the first use (collective over comm), kept and freed with the private communicator.
 */
#define MG_RERANK_SEED 36
int mg_perm_comm(MPI_Comm comm, MPI_Comm *out, const int **newrank);

/* ---- scratch ---- */

/* Alignment of every region carved from scratch. */
#define MG_ALIGN 64
static inline size_t mg_align(size_t n) { return (n + MG_ALIGN - 1) & ~(size_t)(MG_ALIGN - 1); }

/*
 * A scratch region of at least `bytes` bytes from the calling thread's pool.
 * The pool keeps its largest buffer, so steady-state calls do not allocate.
 * The region is valid until the next mg_scratch() on the same thread.
 * Allocation failure aborts the job with a message (a rank-local failure
 * cannot be turned into a fallback the other ranks would agree on).
 */
void *mg_scratch(size_t bytes);
/* Carve `bytes` (aligned) from *cursor. */
static inline void *mg_carve(char **cursor, size_t bytes) {
  void *p = *cursor;
  *cursor += mg_align(bytes);
  return p;
}
void mg_scratch_free(void); /* release the calling thread's pool */
/*
 * Scratch that holds data values only (never counts, displacements, requests or datatypes: what a
 * rank reads back to steer messages). Without the fold these are mg_scratch's: mg_scratch_data(b)
 * is mg_scratch(b), and mg_scratch_split(m, d, &dc) is one region of mg_align(m) + d bytes, m for
 * the metadata at its start (returned) and d of data after it (*dc). With the fold on
 * (mg_scratch_fold(1), the SMPI build's benchmark engine) the data come from SMPI's shared pages
 * (toolkit.c), valid until the next data request; the metadata stay private. Either way the
 * total is the algorithm's mem.
 */
void *mg_scratch_data(size_t bytes);
char *mg_scratch_split(size_t meta, size_t data, char **cur_data);
void mg_scratch_fold(int on); /* a no-op outside the SMPI build */

/* The split family's piece j of k of b bytes (split.c): [*off, *off + *len), both bounds rounded
 * down to a multiple of 8 bytes, the last ending at b; an empty piece is not sent. */
void mg_split_piece(size_t b, int k, int j, size_t *off, size_t *len);

/* Set up / tear down the private communicators the toolkit needs. Called by
 * libmpiguide at MPI_Init and by the mpiguide command. What lives on the
 * private communicators goes first: the caller runs mg_rma_finalize (the
 * one-sided rows' windows) and mg_hier_finalize (node and lane
 * communicators) before mg_core_finalize, so the toolkit calls nothing
 * above it. */
int mg_core_init(void);
void mg_core_finalize(void);
/* Before MPI_Finalize: free what the neighbourhood rows keep with communicators (neighbor.c). */
void mg_neighbor_finalize(void);

#endif
