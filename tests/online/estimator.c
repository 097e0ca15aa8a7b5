/*
 * Online tuning's estimator (src/lib/online.h) on planted timings, no MPI launch and no clock:
 * the times each rank would measure are written down in milliseconds, from the model of
 * online.c (a rank's local time = its wait for the last arrival + its time from the last arrival
 * until it leaves), with the waits drawn afresh for every call from one distribution (the
 * application's imbalance, 0 to 2 ms, the same whichever candidate runs). Each rank's summary
 * goes through mg_online_gains, the ranks' summaries are combined by MIN (the agreement), and
 * mg_online_choose decides.
 *
 *   early leaver   E lets rank 0 leave at 2 ms while the others complete at 13 ms; the default D
 *                  completes at 10 ms on every rank. The fastest rank's view (the minimum over
 *                  ranks of the medians, the estimator until issue 29) makes E look 3x faster
 *                  than D; E must not be chosen, and with F (6 ms on every rank) in the race, F
 *                  must be.
 *   rooted default D lets rank 0 leave at 1 ms (a broadcast's root), the others complete at
 *                  10 ms; X completes at 7 ms on ranks 1..3 and 1 ms on rank 0. The least of the
 *                  ranks' paired gains is rank 0's (about 0): without its slack in D (9 ms) no
 *                  choice would be made; with it X is chosen (3 ms: 30 % of D's completion).
 *   noise          a candidate equal to D (the same completion on every rank) is never chosen.
 */
#include <math.h>

#include "common/test.h"
#include "lib/online.h"

#define P 4      /* ranks */
#define T 8      /* rounds (MPIGUIDE_ONLINE_TRIALS) */
#define MAXC 4   /* candidates in a race */

static unsigned seed = 12345u;
static double wait_ms(void) { /* 0 .. 2 ms */
  seed = seed * 1103515245u + 12345u;
  return 2.0 * ((seed >> 16) & 0x7fff) / 32767.0;
}

/* A race of n candidates; c[k][i]: candidate k's time from the last arrival until rank i leaves,
 * ms (candidate 0 the default). Returns the survivor chosen; *old the choice of the minimum over
 * ranks of the medians (10 % below the default's). */
static int race(int n, const double c[][P], int *old) {
  float t[P][MG_MAX_ALGS][MG_ONLINE_TRIALS_MAX];
  unsigned char live[MG_MAX_ALGS];
  double v[P][2 * MG_MAX_ALGS], agreed[2 * MG_MAX_ALGS], mdef = 0, slack[P];
  for (int k = 0; k < n; k++) live[k] = (unsigned char)k;
  for (int i = 0; i < P; i++) mdef = fmax(mdef, c[0][i]); /* a synchronised call: no wait */
  for (int i = 0; i < P; i++) {
    slack[i] = 1e-3 * (mdef - c[0][i]);
    for (int k = 0; k < MG_MAX_ALGS; k++)
      for (int r = 0; r < MG_ONLINE_TRIALS_MAX; r++) t[i][k][r] = NAN;
    for (int k = 0; k < n; k++)
      for (int r = 0; r < T; r++) t[i][k][r] = (float)(1e-3 * (wait_ms() + c[k][i]));
    mg_online_gains((const float(*)[MG_ONLINE_TRIALS_MAX])t[i], live, n, slack[i], v[i]);
  }
  for (int j = 0; j < 2 * n - 1; j++) {
    agreed[j] = v[0][j];
    for (int i = 1; i < P; i++) agreed[j] = fmin(agreed[j], v[i][j]);
  }
  /* the fastest rank's view: min over ranks of each candidate's median (rounds 1 on) */
  double m[MAXC];
  for (int k = 0; k < n; k++) {
    m[k] = INFINITY;
    for (int i = 0; i < P; i++) {
      float s[T - 1];
      for (int r = 1; r < T; r++) s[r - 1] = t[i][k][r];
      for (int a = 1; a < T - 1; a++)
        for (int b = a; b > 0 && s[b - 1] > s[b]; b--) {
          float x = s[b];
          s[b] = s[b - 1], s[b - 1] = x;
        }
      m[k] = fmin(m[k], s[(T - 1) / 2]);
    }
  }
  *old = 0;
  for (int k = 1; k < n; k++)
    if (m[k] <= 0.9 * m[0] && (!*old || m[k] < m[*old])) *old = k;
  int alt;
  return mg_online_choose(agreed, n, fmin(1e-3 * mdef, agreed[2 * (n - 1)]), &alt);
}

int main(void) {
  int old, got;

  TEST_CASE("early leaver");
  const double early[][P] = {{10, 10, 10, 10}, {2, 13, 13, 13}};
  got = race(2, early, &old);
  ASSERT_EQ(old, 1); /* the plant fools the fastest rank's view */
  ASSERT_EQ(got, 0); /* E completes at 13 ms, D at 10: the default stays */

  TEST_CASE("early leaver and a faster row");
  const double both[][P] = {{10, 10, 10, 10}, {2, 13, 13, 13}, {6, 6, 6, 6}};
  got = race(3, both, &old);
  ASSERT_EQ(old, 1);
  ASSERT_EQ(got, 2);

  TEST_CASE("rooted default");
  const double rooted[][P] = {{1, 10, 10, 10}, {1, 7, 7, 7}};
  got = race(2, rooted, &old);
  ASSERT_EQ(got, 1);

  TEST_CASE("equal rows");
  for (int rep = 0; rep < 50; rep++) {
    const double same[][P] = {{10, 10, 10, 10}, {10, 10, 10, 10}, {10.5, 9.5, 10, 10}};
    got = race(3, same, &old);
    ASSERT_EQ(got, 0);
  }
  return mg_test_summary("online_estimator");
}
