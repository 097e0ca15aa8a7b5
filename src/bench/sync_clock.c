/*
 * The synchronised global clock (model in sync.h): rank 0 serves
 * ping-pongs to one rank at a time; the rank keeps, of each group of npp
 * ping-pongs, the one with the smallest round trip (its offset estimate
 * mid - t_ref is off by at most half that round trip) and fits its offset
 * model to those estimates.
 */
#include <math.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench/sync.h"
#include "bench/sample.h"

enum { TAG_GO = 7101, TAG_PING = 7102, TAG_PONG = 7103 };

double mg_clock_to_global(const mg_clock *c, double t) { return t - (c->a + c->b * (t - c->epoch)); }

double mg_clock_to_local(const mg_clock *c, double g) { return (g + c->a - c->b * c->epoch) / (1 - c->b); }

static double model_offset(const mg_clock *c, double x) { return c->a + c->b * x; }

static void refit(mg_clock *c) {
  long n = c->nfit < MG_CLOCK_MAX_FITS ? c->nfit : MG_CLOCK_MAX_FITS;
  double xmin = INFINITY, xmax = -INFINITY, mx = 0, my = 0;
  for (long i = 0; i < n; i++) {
    if (c->fx[i] < xmin) xmin = c->fx[i];
    if (c->fx[i] > xmax) xmax = c->fx[i];
    mx += c->fx[i];
    my += c->fy[i];
  }
  if (n >= 2 && xmax - xmin >= MG_CLOCK_DRIFT_SPAN) {
    mx /= (double)n;
    my /= (double)n;
    double sxy = 0, sxx = 0;
    for (long i = 0; i < n; i++) {
      sxy += (c->fx[i] - mx) * (c->fy[i] - my);
      sxx += (c->fx[i] - mx) * (c->fx[i] - mx);
    }
    c->b = sxy / sxx;
    c->a = my - c->b * mx;
  } else { /* too short to see drift: a constant offset, robust to a bad estimate */
    double y[MG_CLOCK_MAX_FITS];
    memcpy(y, c->fy, (size_t)n * sizeof *y);
    mg_sort_doubles(y, n);
    c->a = mg_median_sorted(y, n);
    c->b = 0;
  }
}

/* Client side of one estimate: npp ping-pongs with rank 0, keep the best. */
static int estimate(mg_clock *c, MPI_Comm comm, int npp, double *x, double *y, double *rtt) {
  double best = INFINITY;
  for (int i = 0; i < npp; i++) {
    double tref, t1 = c->now();
    int rc = PMPI_Send(NULL, 0, MPI_BYTE, 0, TAG_PING, comm);
    if (rc == MPI_SUCCESS) rc = PMPI_Recv(&tref, 1, MPI_DOUBLE, 0, TAG_PONG, comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return rc;
    double t2 = c->now();
    if (t2 - t1 < best) {
      best = t2 - t1;
      *x = 0.5 * (t1 + t2) - c->epoch;
      *y = 0.5 * (t1 + t2) - tref;
    }
  }
  *rtt = best;
  return MPI_SUCCESS;
}

int mg_clock_sync(mg_clock *c, MPI_Comm comm, int nfit, int npp) {
  int rc;
  if (c->syncs == 0) {
    PMPI_Comm_rank(comm, &c->rank);
    PMPI_Comm_size(comm, &c->size);
    c->epoch = c->now();
    c->a = c->b = 0;
    c->err = 0;
    c->rtt = INFINITY;
  }
  if (nfit < 1) nfit = 1;
  if (npp < 1) npp = 1;
  int npoints = nfit + 1 + (c->have_model ? 1 : 0); /* [pre-check] fits post-check */
  double err = 0, rtt = INFINITY;
  if (c->rank == 0) {
    for (int r = 1; r < c->size; r++) {
      rc = PMPI_Send(NULL, 0, MPI_BYTE, r, TAG_GO, comm);
      for (int i = 0; rc == MPI_SUCCESS && i < npoints * npp; i++) {
        rc = PMPI_Recv(NULL, 0, MPI_BYTE, r, TAG_PING, comm, MPI_STATUS_IGNORE);
        double t = c->now();
        if (rc == MPI_SUCCESS) rc = PMPI_Send(&t, 1, MPI_DOUBLE, r, TAG_PONG, comm);
      }
      if (rc != MPI_SUCCESS) return rc;
    }
  } else {
    double x, y, d;
    rc = PMPI_Recv(NULL, 0, MPI_BYTE, 0, TAG_GO, comm, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) return rc;
    if (c->have_model) { /* how far the model drifted since the last sync */
      if ((rc = estimate(c, comm, npp, &x, &y, &d)) != MPI_SUCCESS) return rc;
      err = fabs(y - model_offset(c, x));
      rtt = d;
    }
    for (int f = 0; f < nfit; f++) {
      if ((rc = estimate(c, comm, npp, &x, &y, &d)) != MPI_SUCCESS) return rc;
      c->fx[c->nfit % MG_CLOCK_MAX_FITS] = x;
      c->fy[c->nfit % MG_CLOCK_MAX_FITS] = y;
      c->nfit++;
      if (d < rtt) rtt = d;
    }
    refit(c);
    if ((rc = estimate(c, comm, npp, &x, &y, &d)) != MPI_SUCCESS) return rc;
    double post = fabs(y - model_offset(c, x));
    if (post > err) err = post;
    if (d < rtt) rtt = d;
  }
  double v[2] = {err, -rtt};
  rc = PMPI_Allreduce(MPI_IN_PLACE, v, 2, MPI_DOUBLE, MPI_MAX, comm);
  if (rc != MPI_SUCCESS) return rc;
  if (v[0] > c->err) c->err = v[0];
  if (-v[1] < c->rtt) c->rtt = -v[1];
  c->have_model = 1;
  c->syncs++;
  return MPI_SUCCESS;
}

int mg_clock_wait(const mg_clock *c, double g, double tol) {
  double target = mg_clock_to_local(c, g), t = c->now();
  if (t > target) return 1;
  /* Sleep while far from the start, then spin; on an oversubscribed node
   * yield while spinning: the ranks that still have work need the cores more
   * than a waiter does. (Yielding on a node that is merely busy would hand
   * the core to another job for a whole time slice.) */
  while (target - t > 300e-6) {
    double s = target - t - 200e-6;
    struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
    nanosleep(&ts, NULL);
    t = c->now();
  }
  while ((t = c->now()) < target)
    if (c->yield) sched_yield();
  return t - target > tol; /* woken too late: the start was missed all the same */
}
