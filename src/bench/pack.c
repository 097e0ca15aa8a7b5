/*
 * The measurement of TGT 2010 eq. (4) and its Unpack twin (pack.h): MPI_Pack / MPI_Unpack of the
 * whole message with the derived datatype against the same through its constituents one by one.
 *
 * One size at a time, rank 0 alone: the byte identity is asserted first (mg_pack_verify), then the
 * four variants (pack, pack by pieces, unpack, unpack by pieces) are timed in interleaved rounds,
 * the order of each pair turning with the round's parity, so drift cannot favour either side; after
 * the rounds the two packed buffers of the last round are compared again. The other ranks wait on an
 * MPI_Ibarrier polled every millisecond (a spinning barrier would take the cores rank 0 measures on).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/csv.h"
#include "bench/output.h"
#include "bench/pack.h"

static const struct {
  const char *name, *mpi, *alt;
} ops[MG_NPACK_OPS] = {
#define MG_X(E, n, m, a) [MG_PACK_OP_##E] = {n, m, a},
    MG_PACK_OPS(MG_X)
#undef MG_X
};

const char *mg_pack_op_name(int op) { return op >= 0 && op < MG_NPACK_OPS ? ops[op].name : "?"; }
const char *mg_pack_op_mpi(int op) { return op >= 0 && op < MG_NPACK_OPS ? ops[op].mpi : "?"; }
const char *mg_pack_alt_name(int op) { return op >= 0 && op < MG_NPACK_OPS ? ops[op].alt : "?"; }

int mg_pack_op_find(const char *name) {
  for (int i = 0; i < MG_NPACK_OPS; i++)
    if (!strcmp(name, ops[i].name)) return i;
  return -1;
}

int mg_pack_pieces(const mg_dtype_info *d, mg_pack_piece *out) {
  switch (d->kind) {
  case MG_DK_VECTOR: out[0] = (mg_pack_piece){0, d->blocklen, d->base->type}; return 1;
  case MG_DK_RESIZED: out[0] = (mg_pack_piece){0, 1, d->base->type}; return 1;
  case MG_DK_STRUCT:
    for (int i = 0; i < d->nmemb; i++) out[i] = (mg_pack_piece){d->disp[i], 1, d->memb[i]->type};
    return d->nmemb;
  default: return 0;
  }
}

int mg_pack_by_pieces(const void *inbuf, long count, const mg_dtype_info *d, const mg_pack_piece *pc, int npc,
                      void *outbuf, int outsize, int *pos, MPI_Comm comm) {
  const char *at = inbuf;
  for (long e = 0; e < count; e++, at += d->extent)
    for (int k = 0; k < npc; k++) {
      int rc = PMPI_Pack(at + pc[k].disp, pc[k].count, pc[k].type, outbuf, outsize, pos, comm);
      if (rc != MPI_SUCCESS) return rc;
    }
  return MPI_SUCCESS;
}

int mg_unpack_by_pieces(const void *inbuf, int insize, int *pos, void *outbuf, long count, const mg_dtype_info *d,
                        const mg_pack_piece *pc, int npc, MPI_Comm comm) {
  char *at = outbuf;
  for (long e = 0; e < count; e++, at += d->extent)
    for (int k = 0; k < npc; k++) {
      int rc = PMPI_Unpack(inbuf, insize, pos, at + pc[k].disp, pc[k].count, pc[k].type, comm);
      if (rc != MPI_SUCCESS) return rc;
    }
  return MPI_SUCCESS;
}

long mg_pack_first_diff(const void *a, const void *b, size_t n) {
  const unsigned char *x = a, *y = b;
  for (size_t i = 0; i < n; i++)
    if (x[i] != y[i]) return (long)i;
  return -1;
}

/* The buffers of one size: the user's data (span count x extent), the two packed buffers, the two
 * unpacked user buffers. */
typedef struct bufs {
  size_t span;
  int packsize;
  char *user, *pa, *pb, *ua, *ub;
} bufs;

static void bufs_free(bufs *b) {
  free(b->user), free(b->pa), free(b->pb), free(b->ua), free(b->ub);
  memset(b, 0, sizeof *b);
}

/* 0, an MPI code, or -1 out of memory (or a size beyond an int's packed bytes). */
static int bufs_make(bufs *b, const mg_dtype_info *d, MPI_Datatype t, long count, MPI_Comm comm) {
  memset(b, 0, sizeof *b);
  if (count > INT32_MAX) return -1;
  int rc = PMPI_Pack_size((int)count, t, comm, &b->packsize);
  if (rc != MPI_SUCCESS) return rc;
  b->span = (size_t)count * (size_t)d->extent;
  size_t ps = (size_t)b->packsize + 1;
  b->user = malloc(b->span + 1), b->pa = calloc(ps, 1), b->pb = calloc(ps, 1);
  b->ua = calloc(b->span + 1, 1), b->ub = calloc(b->span + 1, 1);
  if (!b->user || !b->pa || !b->pb || !b->ua || !b->ub) return bufs_free(b), -1;
  for (size_t i = 0; i < b->span; i++) b->user[i] = (char)((i * 131 + 7) & 0xff); /* no two neighbours alike */
  return 0;
}

#define WHY(...) (snprintf(why, len, __VA_ARGS__), 1)

static int verify_in(const mg_dtype_info *d, MPI_Datatype t, long count, MPI_Comm comm, bufs *b, char *why,
                     size_t len) {
  mg_pack_piece pc[MG_DT_MAX_MEMBERS];
  int npc = mg_pack_pieces(d, pc), pa = 0, pb = 0, ua = 0, ub = 0;
  if (npc == 0) return WHY("%s is not a derived datatype: it has no constituents to pack", d->name);
  int rc = PMPI_Pack(b->user, (int)count, t, b->pa, b->packsize, &pa, comm);
  if (rc == MPI_SUCCESS) rc = mg_pack_by_pieces(b->user, count, d, pc, npc, b->pb, b->packsize, &pb, comm);
  if (rc != MPI_SUCCESS) return rc;
  if (pa != pb)
    return WHY("MPI_Pack of %ld elements ends at byte %d, its constituents one by one at %d", count, pa, pb);
  long k = mg_pack_first_diff(b->pa, b->pb, (size_t)pa);
  if (k >= 0) return WHY("the packed bytes differ from MPI_Pack's at byte %ld of %d", k, pa);
  rc = PMPI_Unpack(b->pa, pa, &ua, b->ua, (int)count, t, comm);
  if (rc == MPI_SUCCESS) rc = mg_unpack_by_pieces(b->pa, pa, &ub, b->ub, count, d, pc, npc, comm);
  if (rc != MPI_SUCCESS) return rc;
  if (ua != ub || ua != pa)
    return WHY("MPI_Unpack read %d packed bytes, the constituents %d, of %d", ua, ub, pa);
  if ((k = mg_pack_first_diff(b->ua, b->ub, b->span)) >= 0)
    return WHY("the unpacked buffers differ at byte %ld of %zu (MPI_Unpack against the constituents)", k, b->span);
  pb = 0; /* what was unpacked is the data: packed again, the same bytes */
  if ((rc = PMPI_Pack(b->ua, (int)count, t, b->pb, b->packsize, &pb, comm)) != MPI_SUCCESS) return rc;
  if ((k = mg_pack_first_diff(b->pa, b->pb, (size_t)pa)) >= 0)
    return WHY("unpacked and packed again, the bytes differ at byte %ld of %d", k, pa);
  return 0;
}

int mg_pack_verify(const mg_dtype_info *d, MPI_Datatype t, long count, MPI_Comm comm, char *why, size_t len) {
  bufs b;
  int rc = bufs_make(&b, d, t, count, comm);
  if (rc < 0) return WHY("out of memory for %ld elements of %s", count, d->name);
  if (rc) return rc;
  rc = verify_in(d, t, count, comm, &b, why, len);
  bufs_free(&b);
  return rc;
}

/* The four timed calls of one round, in the order of its parity. */
static int timed_round(const mg_dtype_info *d, MPI_Datatype t, long count, MPI_Comm comm, bufs *b,
                       const mg_pack_piece *pc, int npc, mg_now_fn now, long r, double out[MG_PACK_NSERIES]) {
  for (int op = 0; op < MG_NPACK_OPS; op++)
    for (int j = 0; j < 2; j++) {
      int alt = (int)((r + j) & 1), pos = 0, rc;
      double t0 = now();
      if (op == MG_PACK_OP_PACK)
        rc = alt ? mg_pack_by_pieces(b->user, count, d, pc, npc, b->pb, b->packsize, &pos, comm)
                 : PMPI_Pack(b->user, (int)count, t, b->pa, b->packsize, &pos, comm);
      else
        rc = alt ? mg_unpack_by_pieces(b->pa, b->packsize, &pos, b->ub, count, d, pc, npc, comm)
                 : PMPI_Unpack(b->pa, b->packsize, &pos, b->ua, (int)count, t, comm);
      double t1 = now();
      if (rc != MPI_SUCCESS) return rc;
      out[op * 2 + alt] = t1 - t0;
    }
  return MPI_SUCCESS;
}

static void block_fail(mg_pack_block *B, int rc, const char *why) {
  B->failed = 1;
  if (rc > 1) {
    char es[MPI_MAX_ERROR_STRING];
    int l = 0;
    PMPI_Error_string(rc, es, &l);
    snprintf(B->note, sizeof B->note, "failed: %.150s", es);
  } else {
    snprintf(B->note, sizeof B->note, "not byte-identical: %s", why);
  }
}

/* Rank 0: one size. */
static void measure_size(const mg_pack_cfg *cfg, MPI_Datatype t, mg_pack_block *B) {
  const mg_dtype_info *d = cfg->dtype;
  char why[160] = "";
  bufs b;
  int rc = bufs_make(&b, d, t, B->count, cfg->comm);
  if (rc) {
    if (rc < 0) snprintf(why, sizeof why, "out of memory for %ld elements", B->count);
    block_fail(B, rc < 0 ? 1 : rc, why);
    return;
  }
  if ((rc = verify_in(d, t, B->count, cfg->comm, &b, why, sizeof why))) {
    block_fail(B, rc, why);
    bufs_free(&b);
    return;
  }
  mg_pack_piece pc[MG_DT_MAX_MEMBERS];
  int npc = mg_pack_pieces(d, pc);
  long want = cfg->warmup + cfg->rounds;
  for (int s = 0; s < MG_PACK_NSERIES; s++)
    if (!(B->lat[s] = malloc((size_t)want * sizeof *B->lat[s]))) {
      block_fail(B, 1, "out of memory for the measurements");
      bufs_free(&b);
      return;
    }
  mg_now_fn now = mg_timer_fn(cfg->timer);
  double start = now();
  for (long r = 0; r < want; r++) {
    double v[MG_PACK_NSERIES];
    if ((rc = timed_round(d, t, B->count, cfg->comm, &b, pc, npc, now, r, v)) != MPI_SUCCESS) {
      block_fail(B, rc, "");
      break;
    }
    for (int s = 0; s < MG_PACK_NSERIES; s++) B->lat[s][r] = v[s];
    B->n = r + 1;
    if (r + 1 >= cfg->warmup + cfg->min_rounds && now() - start > cfg->time_cap) break;
  }
  long k;
  if (!B->failed && (k = mg_pack_first_diff(b.pa, b.pb, (size_t)b.packsize)) >= 0) {
    snprintf(why, sizeof why, "after the timed rounds the packed bytes differ at byte %ld", k);
    block_fail(B, 1, why);
  }
  bufs_free(&b);
}

/* The other ranks: wait for rank 0 without spinning. */
static int idle_wait(MPI_Comm comm, int me) {
  MPI_Request q;
  int rc = PMPI_Ibarrier(comm, &q), done = 0;
  if (rc != MPI_SUCCESS || me == 0) return rc != MPI_SUCCESS ? rc : PMPI_Wait(&q, MPI_STATUS_IGNORE);
  while (rc == MPI_SUCCESS && !done) {
    struct timespec ms = {0, 1000000};
    rc = PMPI_Test(&q, &done, MPI_STATUS_IGNORE);
    if (!done) nanosleep(&ms, NULL);
  }
  return rc;
}

int mg_pack_run(const mg_pack_cfg *cfg, mg_pack_result *res) {
  memset(res, 0, sizeof *res);
  int me = 0, rc = PMPI_Comm_rank(cfg->comm, &me);
  if (rc != MPI_SUCCESS) return rc;
  if (me == 0) {
    MPI_Datatype t = MPI_DATATYPE_NULL;
    double t0 = mg_timer_fn(cfg->timer)();
    res->granularity = mg_timer_granularity(cfg->timer);
    res->blocks = calloc((size_t)cfg->nsizes + 1, sizeof *res->blocks);
    int brc = res->blocks ? mg_dtype_build(cfg->dtype, &t) : MPI_ERR_NO_MEM;
    for (int i = 0; res->blocks && i < cfg->nsizes; i++) {
      mg_pack_block *B = &res->blocks[res->nblocks++];
      B->bytes = cfg->sizes[i];
      B->count = (long)(cfg->sizes[i] / (size_t)cfg->dtype->size);
      if (brc != MPI_SUCCESS) block_fail(B, brc, "");
      else measure_size(cfg, t, B);
    }
    if (brc == MPI_SUCCESS) mg_dtype_free(cfg->dtype, &t);
    res->elapsed = mg_timer_fn(cfg->timer)() - t0;
  }
  return idle_wait(cfg->comm, me);
}

void mg_pack_result_free(mg_pack_result *res) {
  for (int i = 0; i < res->nblocks; i++)
    for (int s = 0; s < MG_PACK_NSERIES; s++) free(res->blocks[i].lat[s]);
  free(res->blocks);
  memset(res, 0, sizeof *res);
}

long mg_pack_write(FILE *f, const mg_pack_cfg *cfg, const mg_pack_result *res, const mg_bench_meta *m,
                   const char *command) {
  long rows = 0;
  for (int i = 0; i < res->nblocks; i++) rows += MG_PACK_NSERIES * res->blocks[i].n;
  mg_bench_write_meta_launch(f, m, command, MG_PACK_FORMAT);
  mg_meta(f, "guideline", "%s: %s; %s", MG_PACK_GUIDELINE, MG_PACK_FORMULA, MG_UNPACK_FORMULA);
  mg_meta(f, "datatype", "%s", cfg->dtype->name);
  mg_meta(f, "datatype_size", "%d", cfg->dtype->size);
  mg_meta(f, "datatype_extent", "%zu", mg_dtype_extent(cfg->dtype));
  mg_meta(f, "measured_by", "rank 0 alone (MPI_Pack and MPI_Unpack are local), the other ranks idle");
  mg_meta(f, "timer", "%s", mg_timer_name(cfg->timer));
  mg_meta(f, "sync", "none");
  /* the noise threshold of a verdict (check.h, mg_ck_launch.sync_cost): no synchronisation here, the
   * timer's step is what a difference must exceed */
  mg_meta(f, "sync_cost_sec", "%.9f", res->granularity);
  mg_meta(f, "warmup", "%d", cfg->warmup);
  mg_meta(f, "rounds", "%ld", cfg->rounds);
  mg_meta(f, "elapsed_sec", "%.3f", res->elapsed);
  for (int i = 0; i < res->nblocks; i++)
    if (res->blocks[i].failed)
      for (int op = 0; op < MG_NPACK_OPS; op++)
        mg_meta(f, "failed", "%s,%s,%zu,%s", mg_pack_op_name(op), mg_pack_alt_name(op), res->blocks[i].bytes,
                res->blocks[i].note);
  mg_meta(f, "rows", "%ld", rows);
  mg_raw_header(f);
  for (int i = 0; i < res->nblocks; i++) {
    const mg_pack_block *B = &res->blocks[i];
    for (int s = 0; s < MG_PACK_NSERIES; s++) {
      int op = s / 2;
      mg_raw_row r = {.coll = mg_pack_op_name(op), .alg = s % 2 ? mg_pack_alt_name(op) : "default",
                      .dtype = cfg->dtype->name, .op = "", .launch = m->launch, .root = -1, .bytes = B->bytes,
                      .count = B->count, .nprocs = m->nprocs, .valid = 1};
      for (long j = 0; j < B->n; j++) {
        r.round = j;
        r.warmup = j < cfg->warmup;
        r.rep = r.warmup ? j : j - cfg->warmup;
        r.runtime = B->lat[s][j];
        mg_raw_row_write(f, &r);
      }
    }
  }
  return rows;
}
