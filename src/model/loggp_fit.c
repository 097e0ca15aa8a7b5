/*
 * The LogGP fit of measured PRTTs (the relations in loggp_file.h), its reconstruction of the
 * measurements, residuals, R^2 and the warnings that say where the model does not hold.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "model/loggp_file.h"
#include "util/fmt.h"

static void warn(mg_loggp_class *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void warn(mg_loggp_class *c, const char *fmt, ...) {
  if (c->nwarn >= MG_LOGGP_MAXWARN) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->warn[c->nwarn++], sizeof c->warn[0], fmt, ap);
  va_end(ap);
}

/* "1K" or "1K-64K": the sizes of indices i..j. */
static const char *size_range(const mg_loggp_class *c, int i, int j, char *buf, size_t len) {
  char a[32], b[32];
  mg_fmt_bytes((size_t)c->col[MG_LC_SIZE][i], MG_BYTES_EXACT, a, sizeof a);
  mg_fmt_bytes((size_t)c->col[MG_LC_SIZE][j], MG_BYTES_EXACT, b, sizeof b);
  if (i == j) snprintf(buf, len, "%s", a);
  else snprintf(buf, len, "%s-%s", a, b);
  return buf;
}

/* Set the negative values of column k to 0, with one warning naming the sizes. */
static void clamp_column(mg_loggp_class *c, int k, const char *name, const char *why) {
  int first = -1, last = -1, cnt = 0;
  double worst = 0;
  for (int i = 0; i < c->npts; i++)
    if (c->col[k][i] < 0) {
      if (first < 0) first = i;
      last = i;
      cnt++;
      if (c->col[k][i] < worst) worst = c->col[k][i];
      c->col[k][i] = 0;
    }
  if (cnt) {
    char r[80];
    warn(c, "%s negative at %d size(s) in %s (down to %.3g us; %s): set to 0", name, cnt,
         size_range(c, first, last, r, sizeof r), 1e6 * worst, why);
  }
}

/* 1 - SS_res / SS_tot of f against y[from..to). */
static double rsquared(const double *y, const double *f, int from, int to) {
  double mean = 0, ssr = 0, sst = 0;
  if (to - from < 1) return 1;
  for (int i = from; i < to; i++) mean += y[i];
  mean /= (to - from);
  for (int i = from; i < to; i++) {
    ssr += (y[i] - f[i]) * (y[i] - f[i]);
    sst += (y[i] - mean) * (y[i] - mean);
  }
  return sst > 0 ? 1 - ssr / sst : (ssr == 0 ? 1 : 0);
}

/* One warning per run of sizes whose |residual| in column k exceeds tol. */
static void residual_ranges(mg_loggp_class *c, int k, const char *series, double tol) {
  for (int i = 0; i < c->npts;) {
    if (!(fabs(c->col[k][i]) > tol)) {
      i++;
      continue;
    }
    int j = i, w = i;
    while (j + 1 < c->npts && fabs(c->col[k][j + 1]) > tol) {
      j++;
      if (fabs(c->col[k][j]) > fabs(c->col[k][w])) w = j;
    }
    char r[80], ws[32];
    mg_fmt_bytes((size_t)c->col[MG_LC_SIZE][w], MG_BYTES_EXACT, ws, sizeof ws);
    warn(c, "%s: residuals above %.0f %% at %s (largest %+.0f %% at %s)", series, 100 * tol,
         size_range(c, i, j, r, sizeof r), 100 * c->col[k][w], ws);
    i = j + 1;
  }
}

/* G: least squares of the gap over s - 1 on the largest sizes (c->gfit_from on), its r^2 there,
 * and g: the gap at the smallest size less (s-1)G. A negative G or g is set to 0, with a warning. */
static void fit_gaps(mg_loggp_class *c) {
  int n = c->npts;
  double (*col)[MG_LOGGP_MAXPTS] = c->col;
  mg_loggp *m = &c->m;
  int span = n / 3 > 3 ? n / 3 : 3;
  int from = n > span ? n - span : 0;
  c->gfit_from = from;
  m->G = 0;
  if (n - from >= 2) {
    double mx = 0, my = 0, sxy = 0, sxx = 0;
    for (int i = from; i < n; i++) {
      mx += col[MG_LC_SIZE][i] - 1;
      my += col[MG_LC_GAP][i];
    }
    mx /= (n - from);
    my /= (n - from);
    for (int i = from; i < n; i++) {
      double dx = col[MG_LC_SIZE][i] - 1 - mx;
      sxy += dx * (col[MG_LC_GAP][i] - my);
      sxx += dx * dx;
    }
    m->G = sxx > 0 ? sxy / sxx : 0;
  } else if (n > 0) {
    warn(c, "one size only: G cannot be fitted (set to 0)");
  }
  if (m->G < 0) {
    warn(c, "G negative (%.3g ns/KiB): the gap falls with the size over the largest sizes; set to 0",
         1e9 * 1024 * m->G);
    m->G = 0;
  }
  if (n > 0) {
    double line[MG_LOGGP_MAXPTS];
    double icpt = 0;
    for (int i = from; i < n; i++) icpt += col[MG_LC_GAP][i] - (col[MG_LC_SIZE][i] - 1) * m->G;
    icpt /= (n - from);
    for (int i = 0; i < n; i++) line[i] = icpt + (col[MG_LC_SIZE][i] - 1) * m->G;
    c->r2_gap = rsquared(col[MG_LC_GAP], line, from, n);
    m->g = col[MG_LC_GAP][0] - (col[MG_LC_SIZE][0] - 1) * m->G;
    if (m->g < 0) {
      warn(c, "g negative (%.3g us): the gap at the smallest size is below (s-1)G; set to 0", 1e6 * m->g);
      m->g = 0;
    }
  }
}

void mg_loggp_fit(mg_loggp_class *c, double tol) {
  int n = c->npts;
  double k = c->n > 1 ? c->n - 1 : 1;
  double (*col)[MG_LOGGP_MAXPTS] = c->col;
  mg_loggp *m = &c->m;
  c->nwarn = 0;
  for (int i = 0; i < n; i++) {
    col[MG_LC_GAP][i] = (col[MG_LC_PRTTN][i] - col[MG_LC_PRTT1][i]) / k;
    col[MG_LC_OS][i] = (col[MG_LC_PRTTD][i] - col[MG_LC_PRTT1][i]) / k - col[MG_LC_DELAY][i];
  }
  /* noisy sizes: one warning per run */
  for (int i = 0; i < n;) {
    int j = i - 1, w = i;
    while (j + 1 < n && col[MG_LC_NOISE][j + 1] > MG_LOGGP_NOISY) {
      j++;
      if (col[MG_LC_NOISE][j] > col[MG_LC_NOISE][w]) w = j;
    }
    if (j < i) {
      i++;
      continue;
    }
    char r[80];
    warn(c, "noisy at %s: the standard error of a series' median reaches %.0f %% (a busy machine or a "
            "descheduled process?); measure again, or with a larger --time-per",
         size_range(c, i, j, r, sizeof r), 100 * col[MG_LC_NOISE][w]);
    i = j + 1;
  }
  clamp_column(c, MG_LC_GAP, "the gap", "PRTT(n,0,s) below PRTT(1,0,s): noise");
  clamp_column(c, MG_LC_OS, "o_s", "PRTT(n,d,s) - PRTT(1,0,s) below (n-1)d: noise");
  clamp_column(c, MG_LC_OR, "o_r", "a clock step?");

  fit_gaps(c);

  m->npts = n;
  for (int i = 0; i < n; i++) {
    m->size[i] = col[MG_LC_SIZE][i];
    m->os[i] = col[MG_LC_OS][i];
    m->orecv[i] = col[MG_LC_OR][i];
    m->gap[i] = col[MG_LC_GAP][i];
    m->rtt[i] = col[MG_LC_PRTT1][i];
  }
  m->L = n > 0 ? col[MG_LC_PRTT1][0] / 2 - m->os[0] - m->orecv[0] : 0;
  if (m->L < 0) {
    warn(c, "L negative (%.3g us): the overheads at the smallest size exceed half its round trip; set to 0",
         1e6 * m->L);
    m->L = 0;
  }

  /* the overheads overlap the transfer where their sum exceeds half the round trip: one warning
   * per run of such sizes */
  for (int i = 0; i < n;) {
    int j = i - 1;
    while (j + 1 < n && m->os[j + 1] + m->orecv[j + 1] > col[MG_LC_PRTT1][j + 1] / 2) j++;
    if (j < i) {
      i++;
      continue;
    }
    char r[80];
    warn(c, "o_s + o_r exceed half the round trip at %s: the send and the receive each wait for the transfer "
            "(a rendezvous or single-copy protocol), so o_s + L + (s-1)G + o_r counts it more than once",
         size_range(c, i, j, r, sizeof r));
    i = j + 1;
  }

  static const int meas[3] = {MG_LC_PRTT1, MG_LC_PRTTN, MG_LC_PRTTD};
  static const int model[3] = {MG_LC_MODEL1, MG_LC_MODELN, MG_LC_MODELD};
  static const int res[3] = {MG_LC_RES1, MG_LC_RESN, MG_LC_RESD};
  static const char *const names[3] = {"PRTT(1,0,s)", "PRTT(n,0,s)", "PRTT(n,d,s)"};
  for (int i = 0; i < n; i++) {
    double s = col[MG_LC_SIZE][i], m1 = 2 * mg_loggp_msg_sum(m, s);
    col[MG_LC_MODEL1][i] = m1;
    col[MG_LC_MODELN][i] = m1 + k * (m->g + (s - 1) * m->G);
    col[MG_LC_MODELD][i] = m1 + k * (m->os[i] + col[MG_LC_DELAY][i]);
  }
  c->maxres = 0;
  for (int t = 0; t < 3; t++) {
    for (int i = 0; i < n; i++) {
      double y = col[meas[t]][i];
      col[res[t]][i] = y > 0 ? (col[model[t]][i] - y) / y : 0;
      if (fabs(col[res[t]][i]) > c->maxres) c->maxres = fabs(col[res[t]][i]);
    }
    c->r2[t] = rsquared(col[meas[t]], col[model[t]], 0, n);
    residual_ranges(c, res[t], names[t], tol);
  }
}
