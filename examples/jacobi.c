/*
 * A small, ordinary MPI application for demonstrations: Jacobi iterations for
 * the 1-D Poisson problem -u'' = 1 on (0,1), u(0) = u(1) = 0, distributed in
 * blocks over the ranks. It knows nothing of mpiguide; run it under
 * LD_PRELOAD=libmpiguide.so with MPIGUIDE_ALG / MPIGUIDE_TRACE to see the
 * library at work. It uses MPI_Bcast (parameters), MPI_Scatter (initial
 * guess), MPI_Allreduce (residual norm, every iteration), MPI_Allgather (block
 * sizes), MPI_Reduce (statistics) and MPI_Gather (the solution), and checks the
 * result against the exact solution u(x) = x(1-x)/2.
 *
 * Usage: mpirun -np P jacobi [points-per-rank [iterations]]
 */
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);

  int params[2] = {64, 20000}; /* points per rank, max iterations */
  if (rank == 0 && argc > 1) params[0] = atoi(argv[1]);
  if (rank == 0 && argc > 2) params[1] = atoi(argv[2]);
  MPI_Bcast(params, 2, MPI_INT, 0, MPI_COMM_WORLD);
  int m = params[0], iters = params[1];
  if (m < 1 || iters < 1) {
    if (rank == 0) fprintf(stderr, "usage: jacobi [points-per-rank >= 1 [iterations >= 1]]\n");
    MPI_Finalize();
    return 2;
  }

  int n = m * size; /* interior points */
  double h = 1.0 / (n + 1);
  double *u = calloc((size_t)m + 2, sizeof *u), *v = calloc((size_t)m + 2, sizeof *v);
  double *all = rank == 0 ? calloc((size_t)n, sizeof *all) : NULL;
  MPI_Scatter(all, m, MPI_DOUBLE, u + 1, m, MPI_DOUBLE, 0, MPI_COMM_WORLD);

  int *sizes = malloc((size_t)size * sizeof *sizes);
  MPI_Allgather(&m, 1, MPI_INT, sizes, 1, MPI_INT, MPI_COMM_WORLD);

  int left = rank > 0 ? rank - 1 : MPI_PROC_NULL, right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
  double res = 0;
  int it;
  double start = MPI_Wtime(); /* the iterations' time on rank 0 (it takes part in every allreduce) */
  for (it = 0; it < iters; it++) {
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 0, &u[m + 1], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[m], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    double local = 0;
    for (int i = 1; i <= m; i++) {
      v[i] = 0.5 * (u[i - 1] + u[i + 1] + h * h);
      local += (v[i] - u[i]) * (v[i] - u[i]);
    }
    double *t = u;
    u = v;
    v = t;
    MPI_Allreduce(&local, &res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    if (sqrt(res) < 1e-13) break;
  }
  double loop = MPI_Wtime() - start;

  double err = 0;
  for (int i = 1; i <= m; i++) {
    double x = (rank * m + i) * h;
    err = fmax(err, fabs(u[i] - x * (1 - x) / 2));
  }
  double maxerr = 0;
  MPI_Reduce(&err, &maxerr, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  MPI_Gather(u + 1, m, MPI_DOUBLE, all, m, MPI_DOUBLE, 0, MPI_COMM_WORLD);

  /* A wrong answer is one that converged to something else; a run that stopped at the
   * iteration limit is only unfinished (exit 2, not "WRONG"). */
  int ok = 1;
  if (rank == 0) {
    double mid = all[n / 2], x = (n / 2 + 1) * h;
    int close = fabs(mid - x * (1 - x) / 2) < 1e-2 && maxerr < 1e-2, converged = it < iters;
    ok = close ? 1 : converged ? 0 : 2;
    printf("jacobi: %d ranks x %d points, %d iterations in %.4f s, residual %.2e, max error %.2e, u(%.3f) = %.6f: "
           "%s\n", size, m, it, loop, sqrt(res), maxerr, x, mid,
           close ? "ok" : converged ? "WRONG" : "not converged yet (more iterations needed; not an error of MPI)");
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  free(u), free(v), free(all), free(sizes);
  MPI_Finalize();
  return ok == 1 ? 0 : ok == 0 ? 1 : 2;
}
