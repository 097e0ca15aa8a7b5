/*
 * A second, realistic MPI application for demonstrations: the conjugate-gradient method for the
 * 2-D Poisson problem, 5-point stencil (4 u(i,j) - u(i-1,j) - u(i+1,j) - u(i,j-1) - u(i,j+1) = b),
 * on an n x n interior grid with zero Dirichlet boundary, distributed over the ranks in blocks of
 * whole rows. It knows nothing of mpiguide; examples/cg.f90 is the same program in Fortran and
 * prints the same line (tests/examples compares them).
 *
 * Communication, as in a real CG code:
 *   MPI_Bcast      the parameters (once);
 *   MPI_Sendrecv   the halo exchange: one row (n doubles) with each neighbour, 2 calls per iteration;
 *   MPI_Allreduce  the dot products p.Ap and r.r (one double each), 2 calls per iteration;
 *   MPI_Reduce     the statistics (solve time, error; max over ranks) at the end;
 *   MPI_Gather     each rank's time in MPI during the solve, to rank 0.
 *
 * The right-hand side is b = A u* for the known grid function u*(x,y) = 16 x(1-x) y(1-y), so the
 * answer is checked against u* itself (no discretisation error): "cg: OK" when the relative
 * residual fell below the tolerance and max |u - u*| < 1e-6.
 *
 * Usage: mpirun -np P cg [n [max-iterations]]    (defaults 768, 5000; tolerance 1e-10)
 * Exit: 0 OK, 1 WRONG (converged to something else), 2 usage or not converged within the cap.
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define TOL 1e-10

/* u* at global grid point (i, j), 0..n+1 each; zero on the boundary. */
static double ustar(int i, int j, int n) {
  if (i <= 0 || i > n || j <= 0 || j > n) return 0;
  double h = 1.0 / (n + 1), x = i * h, y = j * h;
  return 16 * x * (1 - x) * y * (1 - y);
}

/* Local dot product over the interior of the rows 1..rows, columns 1..n (row stride n + 2). */
static double dot_local(const double *a, const double *b, int n, int rows) {
  double s = 0;
  for (int j = 1; j <= rows; j++)
    for (int i = 1; i <= n; i++) s += a[j * (n + 2) + i] * b[j * (n + 2) + i];
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int params[2] = {768, 5000}; /* grid points per side, iteration cap */
  if (rank == 0 && argc > 1) params[0] = atoi(argv[1]);
  if (rank == 0 && argc > 2) params[1] = atoi(argv[2]);
  MPI_Bcast(params, 2, MPI_INT, 0, MPI_COMM_WORLD);
  int n = params[0], maxit = params[1];
  if (n < size || maxit < 1) {
    if (rank == 0) fprintf(stderr, "usage: cg [n >= ranks [max-iterations >= 1]]\n");
    MPI_Finalize();
    return 2;
  }

  /* Rows first0+1 .. first0+rows are this rank's; local rows 0 and rows+1 are halo rows. */
  int rows = n / size + (rank < n % size), first0 = rank * (n / size) + (rank < n % size ? rank : n % size);
  int up = rank > 0 ? rank - 1 : MPI_PROC_NULL, down = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  size_t w = (size_t)n + 2, len = w * ((size_t)rows + 2);
  double *x = calloc(len, sizeof *x), *r = calloc(len, sizeof *r), *p = calloc(len, sizeof *p),
         *q = calloc(len, sizeof *q), *b = calloc(len, sizeof *b);
  if (!x || !r || !p || !q || !b) {
    fprintf(stderr, "cg: out of memory on rank %d\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  for (int j = 1; j <= rows; j++)
    for (int i = 1; i <= n; i++) {
      int gj = first0 + j;
      b[j * w + i] = 4 * ustar(i, gj, n) - ustar(i - 1, gj, n) - ustar(i + 1, gj, n) - ustar(i, gj - 1, n) -
                     ustar(i, gj + 1, n);
      r[j * w + i] = b[j * w + i];
      p[j * w + i] = b[j * w + i];
    }

  double tmpi = 0, t0; /* time in MPI calls during the solve, this rank */
  double loc = dot_local(b, b, n, rows), bb, rr;
  MPI_Allreduce(&loc, &bb, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  rr = bb;

  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  int it;
  for (it = 0; it < maxit && sqrt(rr / bb) >= TOL; it++) {
    t0 = MPI_Wtime();
    MPI_Sendrecv(&p[1 * w + 1], n, MPI_DOUBLE, up, 0, &p[(rows + 1) * w + 1], n, MPI_DOUBLE, down, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&p[rows * w + 1], n, MPI_DOUBLE, down, 1, &p[0 * w + 1], n, MPI_DOUBLE, up, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    tmpi += MPI_Wtime() - t0;
    for (int j = 1; j <= rows; j++)
      for (int i = 1; i <= n; i++)
        q[j * w + i] = 4 * p[j * w + i] - p[j * w + i - 1] - p[j * w + i + 1] - p[(j - 1) * w + i] -
                       p[(j + 1) * w + i];
    double pq;
    loc = dot_local(p, q, n, rows);
    t0 = MPI_Wtime();
    MPI_Allreduce(&loc, &pq, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    tmpi += MPI_Wtime() - t0;
    double alpha = rr / pq;
    for (int j = 1; j <= rows; j++)
      for (int i = 1; i <= n; i++) {
        x[j * w + i] += alpha * p[j * w + i];
        r[j * w + i] -= alpha * q[j * w + i];
      }
    double rrnew;
    loc = dot_local(r, r, n, rows);
    t0 = MPI_Wtime();
    MPI_Allreduce(&loc, &rrnew, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    tmpi += MPI_Wtime() - t0;
    double beta = rrnew / rr;
    rr = rrnew;
    for (int j = 1; j <= rows; j++)
      for (int i = 1; i <= n; i++) p[j * w + i] = r[j * w + i] + beta * p[j * w + i];
  }
  double stats[2] = {MPI_Wtime() - start, 0}, gstats[2] = {0, 0}; /* solve time, max |x - u*| */

  for (int j = 1; j <= rows; j++)
    for (int i = 1; i <= n; i++) stats[1] = fmax(stats[1], fabs(x[j * w + i] - ustar(i, first0 + j, n)));
  MPI_Reduce(stats, gstats, 2, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  double *mpitimes = rank == 0 ? malloc((size_t)size * sizeof *mpitimes) : NULL;
  MPI_Gather(&tmpi, 1, MPI_DOUBLE, mpitimes, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);

  /* A wrong answer is one that converged to something else; a run that stopped at the
   * iteration cap is only unfinished (exit 2, not "WRONG"). */
  int ok = 1;
  if (rank == 0) {
    double res = sqrt(rr / bb), mpimax = 0;
    for (int k = 0; k < size; k++) mpimax = fmax(mpimax, mpitimes[k]);
    int converged = res < TOL, close = gstats[1] < 1e-6;
    ok = converged && close ? 1 : converged ? 0 : 2;
    printf("cg: %s %dx%d grid, %d ranks, %d iterations, residual %.3e, error %.1e, solve %.3f s (MPI %.3f s)\n",
           ok == 1 ? "OK" : ok == 0 ? "WRONG" : "NOT CONVERGED", n, n, size, it, res, gstats[1], gstats[0],
           mpimax);
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  free(x), free(r), free(p), free(q), free(b), free(mpitimes);
  MPI_Finalize();
  return ok == 1 ? 0 : ok == 0 ? 1 : 2;
}
