/*
 * An ordinary MPI program that knows nothing of mpiguide: it includes only
 * mpi.h (and common/test_mpi.h, the tests' header-only harness) and is linked
 * only with the MPI library (the "linked" build of the same file puts
 * libmpiguide before it). It calls each of the 17 intercepted
 * collectives on MPI_COMM_WORLD, REPS times at each of the given element
 * counts, and checks every result against values it computes itself.
 *
 *   plain_app [REPS [COUNT...]]      default: 3 repetitions of counts 1 37 2500
 *
 * Every call moves COUNT ints per block (Reduce_scatter and Allgatherv: COUNT ints in all,
 * split over the ranks; Allgatherv's split is uneven), so the message size mpiguide traces is 4*COUNT bytes for each
 * collective but the barrier, traced at 0 bytes, and Gatherv, Scatterv, Alltoallv and
 * Alltoallw, whose size differs between ranks (see MG_COLLECTIVES in registry.h): their
 * ranks hold very different counts (one rank COUNT, odd ranks none, the others a share;
 * a count matrix with zeros and one heavy sender), and Alltoallw mixes two datatypes of
 * one signature. Each collective is called REPS times per count: run_preload.sh relies
 * on both. Rooted collectives use root = repetition mod p.
 *
 * A failing MPI call aborts the job (a collective that failed on some ranks
 * cannot be continued safely); a wrong value is reported (at most a few lines
 * per rank), the remaining calls still run, and the program exits 1 after
 * MPI_Finalize. On success rank 0 prints one "plain_app: OK (...)" line.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "common/test_mpi.h" /* the tests' harness (header only, PMPI_ calls): still no mpiguide */

static int rank, size;
static int *rs_counts;            /* Reduce_scatter's recvcounts, size entries */
static int *agv_counts, *agv_displs; /* Allgatherv's recvcounts and displs, size entries each */
static int *v_sc, *v_sd, *v_rc, *v_rd; /* the v-collectives' counts and displacements, size entries each */
static MPI_Datatype *w_types, int1;    /* Alltoallw's datatypes: MPI_INT or int1 (one int, contiguous) */

/* Gatherv/Scatterv: how many elements rank q contributes or gets: rank p-1 all n, odd ranks none,
 * the others n/(q+1). */
static int vcount(int q, int n) { return q == size - 1 ? n : q % 2 ? 0 : n / (q + 1); }
/* Alltoallv/w: how many elements rank r sends to rank q: none on every third pair, rank 0 all n,
 * the others n/(r+1). */
static int mcount(int r, int q, int n) { return (r + q) % 3 == 0 ? 0 : r == 0 ? n : n / (r + 1); }

/* What rank r contributes at element i in repetition k (one-block collectives). */
static int val(int r, int i, int k) { return (r + 1) * 1000 + i % 997 + 31 * k; }
/* What rank r sends to rank q at element i in repetition k (per-pair collectives). */
static int pair(int r, int q, int i, int k) { return r * 7919 + q * 211 + i % 503 + 17 * k; }

static void check_rc(int rc, const char *what, int count) {
  if (rc == MPI_SUCCESS) return;
  char s[MPI_MAX_ERROR_STRING];
  int len = 0;
  MPI_Error_string(rc, s, &len);
  fprintf(stderr, "plain_app: rank %d: %s(count %d) returned error %d (%s); aborting\n", rank, what, count,
          rc, s);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

static void check_val(const char *what, int count, int k, int i, int got, int want) {
  ASSERT_MSG(got == want, "WRONG RESULT %s(count %d) repetition %d element %d: got %d, want %d", what, count, k, i,
             got, want);
}

static void run_count(int n, int k, int *a, int *b) {
  const int p = size, root = k % p;
  int rc;

  /* Allgather: block q of the result is rank q's block. */
  for (int i = 0; i < n; i++) a[i] = val(rank, i, k);
  for (int i = 0; i < p * n; i++) b[i] = -1;
  rc = MPI_Allgather(a, n, MPI_INT, b, n, MPI_INT, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Allgather", n);
  for (int q = 0; q < p; q++)
    for (int i = 0; i < n; i++) check_val("MPI_Allgather", n, k, q * n + i, b[q * n + i], val(q, i, k));

  /* Allgatherv of n elements in all, split unevenly (rank 0 the larger half, the others the rest),
   * stored in reverse rank order with one element between blocks, which must stay untouched. */
  for (int q = 0, rest = n / 2; q < p; q++)
    agv_counts[q] = p == 1 ? n : q == 0 ? n - rest : rest / (p - 1) + (q - 1 < rest % (p - 1));
  for (int q = p - 1, d = 0; q >= 0; d += agv_counts[q] + 1, q--) agv_displs[q] = d;
  int span = n + p - 1; /* <= p*n */
  for (int i = 0; i < agv_counts[rank]; i++) a[i] = val(rank, i, k);
  for (int i = 0; i < span; i++) b[i] = -1;
  rc = MPI_Allgatherv(a, agv_counts[rank], MPI_INT, b, agv_counts, agv_displs, MPI_INT, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Allgatherv", n);
  for (int q = p - 1, i = 0; q >= 0; q--) {
    for (int j = 0; j < agv_counts[q]; j++, i++) check_val("MPI_Allgatherv", n, k, i, b[i], val(q, j, k));
    if (q > 0) check_val("MPI_Allgatherv", n, k, i, b[i], -1), i++;
  }

  /* Allreduce (sum). */
  for (int i = 0; i < n; i++) a[i] = val(rank, i, k), b[i] = -1;
  rc = MPI_Allreduce(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Allreduce", n);
  for (int i = 0; i < n; i++) {
    int want = 0;
    for (int q = 0; q < p; q++) want += val(q, i, k);
    check_val("MPI_Allreduce", n, k, i, b[i], want);
  }

  /* Alltoall: block q of the result is what rank q sent to this rank. */
  for (int q = 0; q < p; q++)
    for (int i = 0; i < n; i++) a[q * n + i] = pair(rank, q, i, k), b[q * n + i] = -1;
  rc = MPI_Alltoall(a, n, MPI_INT, b, n, MPI_INT, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Alltoall", n);
  for (int q = 0; q < p; q++)
    for (int i = 0; i < n; i++) check_val("MPI_Alltoall", n, k, q * n + i, b[q * n + i], pair(q, rank, i, k));

  /* Bcast from root. */
  for (int i = 0; i < n; i++) a[i] = rank == root ? val(root, i, k) : -1;
  rc = MPI_Bcast(a, n, MPI_INT, root, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Bcast", n);
  for (int i = 0; i < n; i++) check_val("MPI_Bcast", n, k, i, a[i], val(root, i, k));

  /* Exscan (sum): exclusive prefix over ranks 0..rank-1; rank 0's result is undefined. */
  for (int i = 0; i < n; i++) a[i] = val(rank, i, k), b[i] = -1;
  rc = MPI_Exscan(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Exscan", n);
  for (int i = 0; rank > 0 && i < n; i++) {
    int want = 0;
    for (int q = 0; q < rank; q++) want += val(q, i, k);
    check_val("MPI_Exscan", n, k, i, b[i], want);
  }

  /* Gather at root; non-roots' receive buffer must stay untouched. */
  for (int i = 0; i < n; i++) a[i] = val(rank, i, k);
  for (int i = 0; i < p * n; i++) b[i] = -1;
  rc = MPI_Gather(a, n, MPI_INT, b, n, MPI_INT, root, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Gather", n);
  for (int q = 0; q < p; q++)
    for (int i = 0; i < n; i++)
      check_val("MPI_Gather", n, k, q * n + i, b[q * n + i], rank == root ? val(q, i, k) : -1);

  /* Reduce (sum) at root. */
  for (int i = 0; i < n; i++) a[i] = val(rank, i, k), b[i] = -1;
  rc = MPI_Reduce(a, b, n, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Reduce", n);
  for (int i = 0; i < n; i++) {
    int want = 0;
    for (int q = 0; q < p; q++) want += val(q, i, k);
    check_val("MPI_Reduce", n, k, i, b[i], rank == root ? want : -1);
  }

  /* Reduce_scatter (sum) of a vector of n elements: this rank gets its rs_counts[rank] elements. */
  int off = 0;
  for (int q = 0; q < p; q++) rs_counts[q] = n / p + (q < n % p), off += q < rank ? rs_counts[q] : 0;
  for (int i = 0; i < n; i++) a[i] = val(rank, i, k), b[i] = -1;
  rc = MPI_Reduce_scatter(a, b, rs_counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Reduce_scatter", n);
  for (int i = 0; i < rs_counts[rank] + 1 && i < n; i++) {
    int want = 0;
    for (int q = 0; q < p; q++) want += val(q, off + i, k);
    check_val("MPI_Reduce_scatter", n, k, i, b[i], i < rs_counts[rank] ? want : -1);
  }

  /* Reduce_scatter_block (sum): this rank gets the sum of the blocks addressed to it. */
  for (int q = 0; q < p; q++)
    for (int i = 0; i < n; i++) a[q * n + i] = pair(rank, q, i, k);
  for (int i = 0; i < n; i++) b[i] = -1;
  rc = MPI_Reduce_scatter_block(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Reduce_scatter_block", n);
  for (int i = 0; i < n; i++) {
    int want = 0;
    for (int q = 0; q < p; q++) want += pair(q, rank, i, k);
    check_val("MPI_Reduce_scatter_block", n, k, i, b[i], want);
  }

  /* Barrier: it moves nothing (its semantics are tested by tests/diff/barriertest.c); traced at size 0. */
  rc = MPI_Barrier(MPI_COMM_WORLD);
  check_rc(rc, "MPI_Barrier", n);

  /* Scan (sum): inclusive prefix over ranks 0..rank. */
  for (int i = 0; i < n; i++) a[i] = val(rank, i, k), b[i] = -1;
  rc = MPI_Scan(a, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Scan", n);
  for (int i = 0; i < n; i++) {
    int want = 0;
    for (int q = 0; q <= rank; q++) want += val(q, i, k);
    check_val("MPI_Scan", n, k, i, b[i], want);
  }

  /* Gatherv at root: block q (vcount(q) elements) at displacement d, in reverse rank order with
   * one element between blocks, which must stay untouched, as must non-roots' receive buffers. */
  int vspan = 0;
  for (int q = p - 1; q >= 0; q--) v_rc[q] = vcount(q, n), v_rd[q] = vspan, vspan += v_rc[q] + 1;
  for (int i = 0; i < v_rc[rank]; i++) a[i] = val(rank, i, k);
  for (int i = 0; i < vspan; i++) b[i] = -1;
  rc = MPI_Gatherv(a, v_rc[rank], MPI_INT, b, v_rc, v_rd, MPI_INT, root, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Gatherv", n);
  for (int q = p - 1, i = 0; q >= 0; q--, i++) {
    for (int j = 0; j < v_rc[q]; j++, i++) check_val("MPI_Gatherv", n, k, i, b[i], rank == root ? val(q, j, k) : -1);
    check_val("MPI_Gatherv", n, k, i, b[i], -1);
  }

  /* Scatterv from root, the same layout on the send side: rank q gets its vcount(q) elements. */
  for (int i = 0; i < vspan; i++) a[i] = -1;
  if (rank == root)
    for (int q = 0; q < p; q++)
      for (int j = 0; j < v_rc[q]; j++) a[v_rd[q] + j] = pair(root, q, j, k);
  for (int i = 0; i <= n; i++) b[i] = -1;
  rc = MPI_Scatterv(a, v_rc, v_rd, MPI_INT, b, v_rc[rank], MPI_INT, root, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Scatterv", n);
  for (int i = 0; i <= v_rc[rank]; i++)
    check_val("MPI_Scatterv", n, k, i, b[i], i < v_rc[rank] ? pair(root, rank, i, k) : -1);

  /* Alltoallv: mcount(rank, q) elements to q, contiguous in rank order; mcount(q, rank) from q. */
  int ns = 0, nr = 0;
  for (int q = 0; q < p; q++) {
    v_sc[q] = mcount(rank, q, n), v_sd[q] = ns, ns += v_sc[q];
    v_rc[q] = mcount(q, rank, n), v_rd[q] = nr, nr += v_rc[q];
  }
  for (int q = 0; q < p; q++)
    for (int j = 0; j < v_sc[q]; j++) a[v_sd[q] + j] = pair(rank, q, j, k);
  for (int i = 0; i <= nr; i++) b[i] = -1;
  rc = MPI_Alltoallv(a, v_sc, v_sd, MPI_INT, b, v_rc, v_rd, MPI_INT, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Alltoallv", n);
  for (int q = 0; q < p; q++)
    for (int j = 0; j < v_rc[q]; j++) check_val("MPI_Alltoallv", n, k, v_rd[q] + j, b[v_rd[q] + j], pair(q, rank, j, k));
  check_val("MPI_Alltoallv", n, k, nr, b[nr], -1);

  /* Alltoallw: the same counts, byte displacements, MPI_INT to and from even ranks, int1 else. */
  for (int q = 0; q < p; q++) v_sd[q] *= (int)sizeof(int), v_rd[q] *= (int)sizeof(int);
  for (int q = 0; q < p; q++)
    for (int j = 0; j < v_sc[q]; j++) a[v_sd[q] / 4 + j] = pair(rank, q, j, k + 1);
  for (int i = 0; i <= nr; i++) b[i] = -1;
  rc = MPI_Alltoallw(a, v_sc, v_sd, w_types, b, v_rc, v_rd, w_types + p, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Alltoallw", n);
  for (int q = 0; q < p; q++)
    for (int j = 0; j < v_rc[q]; j++)
      check_val("MPI_Alltoallw", n, k, v_rd[q] / 4 + j, b[v_rd[q] / 4 + j], pair(q, rank, j, k + 1));
  check_val("MPI_Alltoallw", n, k, nr, b[nr], -1);

  /* Scatter from root: block q goes to rank q. */
  for (int q = 0; q < p; q++)
    for (int i = 0; i < n; i++) a[q * n + i] = rank == root ? pair(root, q, i, k) : -1;
  for (int i = 0; i < n; i++) b[i] = -1;
  rc = MPI_Scatter(a, n, MPI_INT, b, n, MPI_INT, root, MPI_COMM_WORLD);
  check_rc(rc, "MPI_Scatter", n);
  for (int i = 0; i < n; i++) check_val("MPI_Scatter", n, k, i, b[i], pair(root, rank, i, k));
}

int main(int argc, char **argv) {
  int reps = 3, counts[16] = {1, 37, 2500}, ncounts = 3;
  if (argc > 1) reps = atoi(argv[1]);
  if (argc > 2) {
    ncounts = 0;
    for (int i = 2; i < argc && ncounts < 16; i++) counts[ncounts++] = atoi(argv[i]);
  }
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mg_test_mpi_start("plain_app");
  mg_test_max_shown = 5; /* every element is a check */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);

  int maxn = 1;
  for (int c = 0; c < ncounts; c++) maxn = counts[c] > maxn ? counts[c] : maxn;
  int *a = malloc(((size_t)size * (size_t)maxn + (size_t)size + 1) * sizeof *a); /* + gaps and a guard */
  int *b = malloc(((size_t)size * (size_t)maxn + (size_t)size + 1) * sizeof *b);
  rs_counts = malloc((size_t)size * sizeof *rs_counts);
  agv_counts = malloc((size_t)size * sizeof *agv_counts);
  agv_displs = malloc((size_t)size * sizeof *agv_displs);
  v_sc = malloc(4 * (size_t)size * sizeof *v_sc);
  w_types = malloc(2 * (size_t)size * sizeof *w_types);
  MPI_Type_contiguous(1, MPI_INT, &int1);
  MPI_Type_commit(&int1);
  if (!a || !b || !rs_counts || !agv_counts || !agv_displs || !v_sc || !w_types) {
    fprintf(stderr, "plain_app: out of memory\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  v_sd = v_sc + size, v_rc = v_sc + 2 * size, v_rd = v_sc + 3 * size;
  for (int q = 0; q < size; q++) w_types[q] = q % 2 ? int1 : MPI_INT, w_types[size + q] = q % 2 ? MPI_INT : int1;
  for (int c = 0; c < ncounts; c++)
    for (int k = 0; k < reps; k++) run_count(counts[c], k, a, b);
  MPI_Type_free(&int1);
  free(v_sc);
  free(w_types);
  free(a);
  free(b);
  free(rs_counts);
  free(agv_counts);
  free(agv_displs);

  /* The verdict goes through PMPI_Allreduce, which mpiguide does not intercept, so it does not
   * depend on a collective under test. */
  char what[128];
  snprintf(what, sizeof what, "%d processes, %d repetitions x %d counts x 17 collectives", size, reps, ncounts);
  int rc = mg_test_mpi_summary(what);
  MPI_Finalize();
  return rc;
}
