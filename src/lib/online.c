/*
 * Online tuning (MPIGUIDE_PROFILE=auto, docs/library.md "Online tuning"): the
 * library learns the profile while the application runs, from the
 * application's own calls (after STAR-MPI, Faraj, Yuan and Lowenthal, ICS 2006,
 * and Hoefler's run-time selection by measured cost).
 *
 * A cell is (communicator, collective, size class, datatype class, op): the
 * size classes are powers of 4 (class q holds 4^q .. 4^(q+1)-1 bytes, class 0
 * also 0). Its candidates are the rows of the collective that libmpiguide may
 * run (not measure-only; the hierarchical and lane rows only where the
 * communicator has two nodes and a node of two ranks), the default first. Each
 * cell goes through
 *
 *   warm-up        its first MG_ONLINE_WARM calls run the default: a cell called
 *                  fewer times is not worth exploring and stays at the default;
 *   synchronised   NSYNC calls of the default after a PMPI_Barrier: each rank's
 *                  slack in it (how long before its completion the rank leaves);
 *   round robin 1  two rounds of every candidate once, in a shuffled order;
 *   cut            one PMPI_Allreduce (MIN): a candidate 3x slower than the
 *                  default on every rank is dropped (the default never is); the
 *                  synchronised calls' maximum over ranks, the default's completion;
 *   round robin 2  rounds of the s survivors, until each has had T trials;
 *   decision       one PMPI_Allreduce (MIN) of each rank's median paired gain
 *                  over the default plus its slack (the gain in completion, see
 *                  "What a choice is judged by" below) and its share of rounds
 *                  won; the largest gain wins if it is 10 % of the default's
 *                  completion and won 3 of 4 rounds on every rank, else the default;
 *   confirmation   a winner and the default alternate for 2T calls, and the same
 *                  test on those pairs alone (one PMPI_Allreduce) chooses.
 *
 * With a LogGP file (MPIGUIDE_LOGGP; Hoefler's selection by a model of the algorithms' cost), the
 * cell's first exploring call prices each candidate at the call's size and process count as
 * `mpiguide predict` prices it with no measurement (src/cost, docs/model.md): a point-to-point row
 * by its LogGP schedule, a composition by its parts, each part and the default as the library's
 * cheapest schedule for it (an MPI library chooses among such algorithms). A row priced above
 * MPIGUIDE_MODEL_FACTOR (F, default 2) x the cheapest priced candidate is never tried; a row
 * without a price always is. The model is confident when every candidate has a price and no
 * mock-up is priced below the default: it predicts no gain, and the cell keeps the default
 * without trials (trace rule "online model"). F = 2: the model's median error on this machine's
 * checks is within 25 % (docs/model.md), and a row priced at twice the best would need an error
 * of 2x on one side to win; a row the trials would choose must beat the default by 10 %, far
 * inside that margin.
 *
 * Every choice of a call depends only on the cell's call count and on the
 * agreements' results, which are equal on every rank of the communicator:
 * collectives on one communicator are called in the same order everywhere
 * (MPI-4.1 §6.14), so every rank is at the same count of the same cell in the
 * same call. A rank's own timing never decides alone (DESIGN.md rule 1). The
 * state of a communicator's cells is touched only by the thread calling a
 * collective on it (MPI forbids concurrent collectives on one communicator);
 * the decisions and the exploration's cost go to one list under a mutex.
 * Point-to-point operations and the collectives whose size not every rank knows
 * (gatherv, scatterv, alltoallv, alltoallw) are not learned: they run the
 * default.
 *
 * At MPI_Finalize the decisions of all communicators are gathered to rank 0,
 * which writes them as an ordinary profile (MPIGUIDE_PROFILE_OUT).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "algs/layout.h"
#include "cost/cost.h"
#include "lib/lib.h"
#include "lib/online.h"
#include "lib/outfile.h"
#include "registry/algorithms.h"
#include "tune/profile.h"
#include "util/sort.h"

#define NCLASS 32        /* size classes of powers of 4 */
#define CUT_FACTOR 3.0   /* a candidate this much slower than the default on every rank is dropped */
#define MIN_GAIN 0.10    /* a mock-up wins when every rank gains at least this share of the default's time */
#define WIN_SHARE 0.75   /* ... and it was faster than the default in this share of the rounds, on every rank */
#define NSYNC 5          /* exploring calls of the default after a barrier, per cell: the ranks' slack */

typedef struct mg_ocell {
  struct mg_ocell *next; /* the cells of one (collective, size class) with other selectors */
  int tclass, opsel;  /* the call's datatype class and op (MG_TCLASS_NONE / MG_OPSEL_NONE: none) */
  int decided, alg;   /* the registry index chosen, once decided */
  int bymodel;        /* decided by the LogGP model, without trials */
  int ready;          /* the candidates are final (set at the first exploring call) */
  long long calls;    /* calls of this cell so far (while exploring) */
  int ncand, nlive;
  unsigned char cand[MG_MAX_ALGS];  /* registry indices, the default first */
  unsigned char live[MG_MAX_ALGS];  /* after the cut: the positions (in cand) still in the race */
  unsigned char order[MG_MAX_ALGS]; /* the current round's order (indices into cand, then into live) */
  unsigned char ntr[MG_MAX_ALGS];   /* trials recorded per position */
  float t[MG_MAX_ALGS][MG_ONLINE_TRIALS_MAX]; /* local time of position p in round r, s; NAN: none */
  float sync[NSYNC];  /* local times of the synchronised calls of the default, s */
  int confirm;        /* the position (in cand) being confirmed, 0: none */
  long long cbase;    /* the exploring call that begins the confirmation */
  float cf[2][MG_ONLINE_TRIALS_MAX]; /* the confirmation's pairs: the default's times, the candidate's */
  double mdef, slack; /* after the cut: the default's completion (agreed) and this rank's slack in it, s */
} ocell;

struct mg_online_comm {
  int off;    /* some rank could not allocate a cell: every call runs the default */
  int nnodes; /* the communicator's nodes as the hierarchical rows see them; 0: not asked yet */
  ocell *cell[MG_NCOLLECTIVES][NCLASS];
};

/* What the run learned, for MPIGUIDE_PROFILE_OUT: one record per decided cell, kept by the
 * communicator's rank 0 only (each communicator counts once). */
typedef struct orec {
  int np, coll, klass, tclass, opsel, alg, alt, trials, model;
  double t_default, t_alg, t_alt; /* agreed times, s: the default's (min over ranks of the medians); the
                                   * choice's and alt's (the fastest mock-up's): t_default less their gain */
} orec;

static struct {
  pthread_mutex_t lock;
  orec *rec;
  int nrec, caprec;
  long long trial_calls, cells_decided;
  long long pruned, by_model; /* candidates the LogGP model ruled out; cells it decided without trials */
  double trial_s;  /* time in trial calls on this rank */
  double excess_s; /* of which: more than the chosen algorithm (or the default, unfinished cells) would take */
} G = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* The size class of a message size: 0 for 0..3, q for 4^q .. 4^(q+1)-1. */
static int size_class(size_t bytes) { return (int)(mg_profile_size_class(bytes) / 2); }

static void class_range(int q, size_t *lo, size_t *hi) {
  *lo = q == 0 ? 0 : (size_t)1 << (2 * q);
  *hi = q >= NCLASS - 1 ? SIZE_MAX : ((size_t)1 << (2 * q + 2)) - 1;
}

mg_online_comm *mg_online_comm_new(void) { return calloc(1, sizeof(mg_online_comm)); }

/* The median of a[0..m) (m >= 1), sorting it in place. */
static double median_of(double *a, int m) { return mg_median_inplace(a, (size_t)m); }

/* Exploration cost of a cell leaving the race: its trials' time beyond what `ref` (a position)
 * would have taken for the same calls, at its mean time per trial (its median would leave out
 * the outliers that every call, the choice's too, has on a busy machine). */
static void account(ocell *z, int ref) {
  double all = 0, mine = 0;
  int n = 0;
  for (int p = 0; p < z->ncand; p++)
    for (int r = 0; r < MG_ONLINE_TRIALS_MAX; r++)
      if (!isnan(z->t[p][r])) all += z->t[p][r], n++, mine += p == ref ? z->t[p][r] : 0;
  for (int r = 0; r < MG_ONLINE_TRIALS_MAX; r++) /* the confirmation's calls, if any */
    for (int i = 0; i < 2; i++)
      if (!isnan(z->cf[i][r])) all += z->cf[i][r], n++;
  double m = z->ntr[ref] ? mine / z->ntr[ref] : 0;
  pthread_mutex_lock(&G.lock);
  G.excess_s += all > n * m ? all - n * m : 0;
  pthread_mutex_unlock(&G.lock);
}

void mg_online_comm_free(mg_online_comm *o) {
  if (!o) return;
  for (int k = 0; k < MG_NCOLLECTIVES; k++)
    for (int q = 0; q < NCLASS; q++)
      for (ocell *z = o->cell[k][q], *next; z; z = next) {
        next = z->next;
        if (!z->decided) account(z, 0); /* unfinished: measured against the default */
        free(z);
      }
  free(o);
}

/* The cell of call c (prepared: bytes set, arguments valid), created on its first call; NULL
 * when the communicator's online tuning is off. A cell that one rank cannot allocate would make
 * that rank run other algorithms than the others: the first call of every cell agrees on it (one
 * PMPI_Allreduce on the communicator), and when some rank failed, every rank turns online tuning
 * off for the communicator (its calls run the default). */
static ocell *cell_of(mg_online_comm *o, const mg_call *c) {
  if (o->off) return NULL;
  int q = size_class(c->bytes);
  int red = mg_colls[c->coll].reduction;
  int tclass = red ? mg_tclass_of(c->rtype) : MG_TCLASS_NONE, opsel = red ? mg_opsel_of(c->op) : MG_OPSEL_NONE;
  ocell **pp = &o->cell[c->coll][q];
  for (ocell *z = *pp; z; z = z->next)
    if (z->tclass == tclass && z->opsel == opsel) return z;
  ocell *z = calloc(1, sizeof *z);
  double failed = z == NULL;
  if (PMPI_Allreduce(MPI_IN_PLACE, &failed, 1, MPI_DOUBLE, MPI_MAX, c->comm) != MPI_SUCCESS || failed) {
    free(z);
    o->off = 1;
    return NULL;
  }
  z->tclass = tclass, z->opsel = opsel;
  for (int r = 0; r < MG_ONLINE_TRIALS_MAX; r++) {
    for (int p = 0; p < MG_MAX_ALGS; p++) z->t[p][r] = NAN;
    z->cf[0][r] = z->cf[1][r] = NAN;
  }
  const mg_coll_info *ci = &mg_colls[c->coll];
  for (int a = 0; a < ci->nalgs; a++)
    if (a == 0 || !(ci->algs[a].restrictions & MG_R_MEASURE_ONLY)) z->cand[z->ncand++] = (unsigned char)a;
  if (z->ncand == 1) z->decided = 1; /* nothing to choose from: the default */
  z->next = *pp;
  *pp = z;
  return z;
}

static void settle(ocell *z, const mg_call *c, int trials, int ok, int pos, double gain, int alt, double alt_gain);

/* The LogGP model's cut of the n candidates (see the head of this file): every candidate priced
 * as `mpiguide predict` prices it (src/cost: a point-to-point row by its schedule, a composition by
 * its parts, the default as the library's cheapest schedule), with no measurement, from the call's
 * size and process count and rank 0's file, all equal on every rank, so every rank keeps the same
 * ones. */
static void model_prune(ocell *z, const mg_call *c, const mg_loggp *lg, double factor) {
  mg_model m;
  mg_model_init(&m, lg);
  double price[MG_MAX_ALGS], best = INFINITY;
  int unpriced = 0, cheaper = 0, n = 1, alt = 0;
  for (int p = 0; p < z->ncand; p++) {
    price[p] = mg_model_alg_price(&m, c->coll, z->cand[p], c->size, (double)c->bytes).t;
    if (!isfinite(price[p])) unpriced++;
    else if (price[p] < best) best = price[p];
  }
  if (!isfinite(best)) return; /* nothing priced: the trials alone */
  for (int p = 1; p < z->ncand; p++) {
    if (isfinite(price[p]) && price[p] > factor * best) continue;
    cheaper += !(price[p] >= price[0]); /* a mock-up the model prices below the default (or no price) */
    if (!alt || price[p] < price[alt]) alt = n;
    price[n] = price[p];
    z->cand[n++] = z->cand[p];
  }
  pthread_mutex_lock(&G.lock);
  G.pruned += z->ncand - n;
  pthread_mutex_unlock(&G.lock);
  z->ncand = n;
  if (!unpriced && !cheaper) { /* confident: no mock-up priced below the default: it stays */
    z->bymodel = 1;
    settle(z, c, 0, 1, 0, 0, alt ? z->cand[alt] : 0, 0);
  }
}

/*
 * At the cell's first exploring call (every rank in the same call): the hierarchical and lane rows
 * leave the candidates where the communicator has no hierarchy to exploit, one node (or every
 * rank a node of its own): there they only compose the same collectives on a copy of the
 * communicator, and what they seem to gain in a rank's view is a rank that leaves early (the node
 * leader that sends the last broadcast), not a faster operation. The node count is the one the
 * rows themselves would see (MPIGUIDE_NODE_SIZE's simulated nodes, or MPI_COMM_TYPE_SHARED; hier.c
 * makes it collectively and caches it, and it is equal on every rank), asked once per communicator
 * and only for a cell that explores such rows. An MPI error there (the library's, on one of its
 * own communicators) turns online tuning off for the communicator, as a failed agreement does.
 */
static void prepare(mg_online_comm *o, ocell *z, const mg_call *c) {
  const mg_coll_info *ci = &mg_colls[c->coll];
  int any = 0;
  for (int p = 0; p < z->ncand; p++) any |= ci->algs[z->cand[p]].family == MG_FAM_HIER;
  if (any && !o->nnodes && mg_hier_nodes(c, &o->nnodes) != MPI_SUCCESS) {
    o->off = 1;
    return;
  }
  int hier = o->nnodes > 1 && o->nnodes < c->size, n = 0;
  for (int p = 0; p < z->ncand; p++)
    if (hier || ci->algs[z->cand[p]].family != MG_FAM_HIER) z->cand[n++] = z->cand[p];
  z->ncand = n;
  z->ready = 1;
  if (n > 1 && mg_the_ctx.online_model) model_prune(z, c, &mg_the_ctx.online_lg, mg_the_ctx.model_factor);
  if (z->ncand == 1) z->decided = 1;
}

/* Round r's order of n candidates: a shuffle that every rank makes alike (a linear congruential
 * generator seeded by the round), so that no candidate always follows the same one: a candidate
 * that lets a rank leave early makes that rank wait in the next call, and that must not always
 * be the same candidate's call. */
static void shuffle(unsigned char *order, int n, long long r) {
  unsigned x = 2654435761u * (unsigned)(r + 1);
  for (int i = 0; i < n; i++) order[i] = (unsigned char)i;
  for (int i = n - 1; i > 0; i--) {
    x = x * 1103515245u + 12345u;
    int j = (int)((x >> 16) % (unsigned)(i + 1));
    unsigned char s = order[i];
    order[i] = order[j], order[j] = s;
  }
}

/* Exploring call k (0: the first after the warm-up): a synchronised call of the default (k <
 * NSYNC: *round -1), else its round and place j in the round. */
static void round_of(const ocell *z, long long k, int *round, int *j) {
  long long p1 = 2LL * z->ncand;
  *j = 0, *round = -1;
  if (k < NSYNC) return;
  k -= NSYNC;
  if (k < p1)
    *round = (int)(k / z->ncand), *j = (int)(k % z->ncand);
  else
    *round = 2 + (int)((k - p1) / z->nlive), *j = (int)((k - p1) % z->nlive);
}

int mg_online_learns(const mg_call *c) {
  return !c->inter && c->size > 1 && c->coll < MG_NCOLLECTIVES && mg_colls[c->coll].known;
}

int mg_online_pick(mg_online_comm *o, const mg_call *c, mg_online_slot *s) {
  ocell *z = cell_of(o, c);
  s->cell = z;
  s->model = 0;
  if (!z) return -1;
  if (z->decided) return s->trial = 0, s->model = z->bymodel, z->alg;
  if (z->calls < MG_ONLINE_WARM) return s->trial = 2, 0; /* not yet known to be a frequent cell */
  if (!z->ready) {
    prepare(o, z, c);
    if (o->off) return s->cell = NULL, -1;
    if (z->decided) return s->trial = 0, s->model = z->bymodel, z->alg;
  }
  int round, j;
  s->trial = 1;
  if (z->confirm) { /* pair r: the default and the candidate, the default first in even pairs */
    long long kk = z->calls - MG_ONLINE_WARM - z->cbase;
    s->pos = ((kk & 1) ^ ((kk >> 1) & 1)) ? z->confirm : 0;
    return z->cand[s->pos];
  }
  round_of(z, z->calls - MG_ONLINE_WARM, &round, &j);
  if (round < 0) { /* the default after a barrier: the ranks' slack in it (below) */
    PMPI_Barrier(c->comm);
    return s->pos = 0, z->cand[0];
  }
  int n = round < 2 ? z->ncand : z->nlive;
  if (j == 0) shuffle(z->order, n, round);
  s->pos = round < 2 ? z->order[j] : z->live[z->order[j]];
  return z->cand[s->pos];
}

/*
 * What a choice is judged by: the operation's completion across the ranks (DESIGN.md, "Advice"),
 * from the ranks' local times of interleaved calls, with a barrier before NSYNC calls per cell.
 *
 * Rank i's local time of a call is d_i = w_i + c_i: w_i its wait for the last rank to arrive (the
 * application's imbalance, and the previous call's exit skew), c_i the time from the last
 * arrival until rank i leaves. The operation's completion is M = max_i c_i. The minimum over
 * ranks of d_i (this file's estimator until issue 29) is at most c_L of the last rank to arrive,
 * and below M wherever some rank leaves before the last one: the root of a broadcast that sends
 * and returns, a node leader; it chose allreduce_as_hier at 0.60x of the default, 1.32x slower as
 * every rank sees it. The maximum over ranks carries the imbalance of the whole call.
 *
 * The candidates of a round run in one call each, interleaved (in a shuffled order), so on one
 * rank w_i has the same distribution whichever candidate runs; the difference of a rank's local
 * times of the default D and of candidate X in the same round is, but for noise, g_i = c_i(D) -
 * c_i(X). Exactly, M(D) - M(X) = min_i (M(D) - c_i(X)) = min_i (s_i + g_i), where s_i = M(D) -
 * c_i(D) is rank i's slack in the default: how long before the default's completion it leaves.
 * The slack is what a synchronised call shows (w_i ~ 0, so d_i ~ c_i): the first NSYNC exploring
 * calls run the default after a PMPI_Barrier, and the cut's agreement carries their maximum over
 * ranks (as the MIN of their negatives), so every rank knows M(D), the default's completion as
 * mpiguide check measures it, and its own slack (the least over those calls of each: noise only
 * adds to a time, and an overstated slack would overstate the gains). Each rank then takes the median over the rounds
 * of s_i + (its time of D - its time of X), and the ranks agree on the least (MIN): the gain in
 * completion. A rank that leaves X early gains much; the rank that completes X last gains what
 * the application gains. With noise, the least of the ranks' estimates errs low: a choice errs
 * toward the default.
 */

void mg_online_gains(const float (*t)[MG_ONLINE_TRIALS_MAX], const unsigned char *live, int s, double slack,
                     double *v) {
  double a[MG_ONLINE_TRIALS_MAX];
  for (int i = 1; i < s; i++) {
    int p = live[i], won = 0, n = 0;
    for (int r = 1; r < MG_ONLINE_TRIALS_MAX; r++)
      if (!isnan(t[0][r]) && !isnan(t[p][r])) {
        a[n] = slack + (double)t[0][r] - (double)t[p][r];
        won += a[n++] > 0;
      }
    v[i - 1] = n ? median_of(a, n) : -INFINITY;
    v[s - 2 + i] = n ? (double)won / n : 0;
  }
  int n = 0;
  for (int r = 1; r < MG_ONLINE_TRIALS_MAX; r++)
    if (!isnan(t[0][r])) a[n++] = t[0][r];
  v[2 * (s - 1)] = n ? median_of(a, n) : INFINITY;
}

int mg_online_choose(const double *v, int s, double mdef, int *alt) {
  int best = 0;
  *alt = 0;
  for (int i = 1; i < s; i++) {
    double gain = v[i - 1], share = v[s - 2 + i];
    if (isfinite(gain) && (!*alt || gain > v[*alt - 1])) *alt = i;
    if (share >= WIN_SHARE && gain >= MIN_GAIN * mdef && (!best || gain > v[best - 1])) best = i;
  }
  return best;
}

/* The cell's end: it runs registry row `alg` from now on; rank 0 records what was agreed (gain:
 * the choice's agreed gain; alt, alt_gain: the mock-up of the largest gain, 0 for none). */
static void settle(ocell *z, const mg_call *c, int trials, int ok, int pos, double gain, int alt, double alt_gain) {
  z->alg = z->cand[pos];
  z->decided = 1;
  account(z, pos);
  pthread_mutex_lock(&G.lock);
  G.cells_decided++;
  G.by_model += z->bymodel;
  if (c->rank == 0 && ok) { /* one record per communicator */
    if (G.nrec == G.caprec) {
      int cap = G.caprec ? 2 * G.caprec : 32;
      orec *r = realloc(G.rec, (size_t)cap * sizeof *r);
      if (r) G.rec = r, G.caprec = cap;
    }
    if (G.nrec < G.caprec)
      G.rec[G.nrec++] = (orec){.np = c->size, .coll = c->coll, .klass = size_class(c->bytes), .tclass = z->tclass,
                               .opsel = z->opsel, .alg = z->alg, .alt = alt, .trials = trials, .t_default = z->mdef,
                               .t_alg = z->mdef - gain, .t_alt = alt ? z->mdef - alt_gain : 0, .model = z->bymodel};
  }
  pthread_mutex_unlock(&G.lock);
}

/* After the rounds: the survivor of the largest agreed gain, if any passes, goes on to the
 * confirmation; else the default stays. */
static void decide(ocell *z, const mg_call *c, int trials) {
  double v[2 * MG_MAX_ALGS];
  int s = z->nlive, alt = 0, best = 0, ok = 1;
  if (s > 1) {
    mg_online_gains((const float(*)[MG_ONLINE_TRIALS_MAX])z->t, z->live, s, z->slack, v);
    ok = PMPI_Allreduce(MPI_IN_PLACE, v, 2 * s - 1, MPI_DOUBLE, MPI_MIN, c->comm) == MPI_SUCCESS;
    if (ok) z->mdef = fmin(z->mdef, v[2 * (s - 1)]); /* see mg_online_gains (online.h) */
    if (ok) best = mg_online_choose(v, s, z->mdef, &alt);
  }
  if (best) { /* every rank agreed on it: the same confirmation everywhere */
    z->confirm = z->live[best];
    z->cbase = z->calls - MG_ONLINE_WARM; /* the next call is its first (this one is counted) */
    return;
  }
  settle(z, c, trials, ok, 0, 0, alt ? z->cand[z->live[alt]] : 0, alt ? v[alt - 1] : 0);
}

/* After the confirmation's 2T calls (the default and the candidate alternating, the order
 * swapped every pair): the same test on these pairs alone, one agreement (MIN). Chosen among
 * many candidates, the best of the rounds is the one whose noise flattered it most (with 15
 * candidates and a few trials each, some candidate passes a test at 6 of 7 rounds by chance);
 * fresh pairs of it alone have no such selection in them. */
static void confirm(ocell *z, const mg_call *c, int trials) {
  const unsigned char two[2] = {0, 1};
  double v[3];
  mg_online_gains((const float(*)[MG_ONLINE_TRIALS_MAX])z->cf, two, 2, z->slack, v);
  int ok = PMPI_Allreduce(MPI_IN_PLACE, v, 3, MPI_DOUBLE, MPI_MIN, c->comm) == MPI_SUCCESS, alt;
  int pass = ok && mg_online_choose(v, 2, z->mdef, &alt) == 1;
  settle(z, c, trials, ok, pass ? z->confirm : 0, pass ? v[0] : 0, z->cand[z->confirm], v[0]);
}

/* After the synchronised calls and rounds 0 and 1, one agreement (MIN) of: each candidate's best
 * time over the default's best, rank by rank (a candidate slower than CUT_FACTOR x the default on
 * every rank completes that much later, and is dropped; the default never is), and the
 * synchronised calls' times, negated (their maximum over ranks: the default's completion). */
static void cut(ocell *z, const mg_call *c, int trials) {
  double v[MG_MAX_ALGS + NSYNC], b[MG_MAX_ALGS];
  for (int p = 0; p < z->ncand; p++) {
    b[p] = INFINITY;
    for (int r = 0; r < 2; r++)
      if (!isnan(z->t[p][r])) b[p] = fmin(b[p], z->t[p][r]);
    v[p] = b[p] / b[0]; /* INFINITY: it never ran (a fallback every time) */
  }
  for (int r = 0; r < NSYNC; r++) v[z->ncand + r] = -(double)z->sync[r];
  if (PMPI_Allreduce(MPI_IN_PLACE, v, z->ncand + NSYNC, MPI_DOUBLE, MPI_MIN, c->comm) != MPI_SUCCESS) {
    z->nlive = 1, z->live[0] = 0; /* the same answer everywhere: keep the default */
  } else {
    z->nlive = 0;
    for (int p = 0; p < z->ncand; p++)
      if (p == 0 || v[p] <= CUT_FACTOR) z->live[z->nlive++] = (unsigned char)p;
    double m[NSYNC], sl[NSYNC];
    for (int r = 0; r < NSYNC; r++) m[r] = -v[z->ncand + r], sl[r] = m[r] - z->sync[r];
    z->slack = sl[0], z->mdef = m[0]; /* the least of each: a delay (a rank descheduled, a late exit from
                                       * the barrier) only ever adds, and a slack too large would
                                       * inflate this rank's gains; too small only errs toward the default */
    for (int r = 1; r < NSYNC; r++) z->slack = fmin(z->slack, sl[r]), z->mdef = fmin(z->mdef, m[r]);
  }
  if (z->nlive == 1 || trials <= 2) decide(z, c, trials);
}

void mg_online_record(const mg_call *c, const mg_online_slot *s, int ran, double sec, int trials) {
  ocell *z = s->cell;
  if (!s->trial || !z || z->decided) return;
  if (s->trial == 2) { /* a call of the default before exploring */
    z->calls++;
    return;
  }
  long long k = z->calls - MG_ONLINE_WARM;
  int round, j;
  if (z->confirm) {
    long long kk = k - z->cbase;
    if (ran == z->cand[s->pos] && kk / 2 < trials) z->cf[s->pos != 0][kk / 2] = (float)sec;
    pthread_mutex_lock(&G.lock);
    G.trial_calls++;
    G.trial_s += sec;
    pthread_mutex_unlock(&G.lock);
    z->calls++;
    if (kk + 1 == 2LL * trials) confirm(z, c, trials);
    return;
  }
  round_of(z, k, &round, &j);
  if (round < 0)
    z->sync[k] = (float)sec;
  else if (ran == z->cand[s->pos] && round < trials)
    z->t[s->pos][round] = (float)sec, z->ntr[s->pos]++;
  pthread_mutex_lock(&G.lock);
  G.trial_calls++;
  G.trial_s += sec;
  pthread_mutex_unlock(&G.lock);
  k = ++z->calls - MG_ONLINE_WARM - NSYNC;
  long long p1 = 2LL * z->ncand;
  if (k == p1)
    cut(z, c, trials);
  else if (k > p1 && k == p1 + (long long)(trials - 2) * z->nlive)
    decide(z, c, trials);
}

/* ---- MPIGUIDE_PROFILE_OUT --------------------------------------------------------------------- */

static int rec_cmp(const void *a, const void *b) {
  const orec *x = a, *y = b;
  int d[] = {x->np - y->np, x->coll - y->coll, x->tclass - y->tclass, x->opsel - y->opsel, x->klass - y->klass};
  for (size_t i = 0; i < sizeof d / sizeof *d; i++)
    if (d[i]) return d[i];
  return 0;
}

/* A time of the profile's comments. A mock-up's time is the default's less the least gain of a
 * rank, and on a noisy run that gain can exceed the default's own time: no time then, the noise. */
static void fmt_us(double s, char *buf, size_t len) {
  if (s > 0) snprintf(buf, len, "%.3g us", s * 1e6);
  else snprintf(buf, len, "(within the noise)");
}

/* The rules of the records r[0..n) of one cell key (communicators of one size): one rule when all
 * agree, else a preamble line that says they did not. */
static void add_cell(mg_profile *p, const orec *r, int n) {
  char line[600], td[32], ta[32], tx[32];
  int agree = 1;
  for (int i = 1; i < n; i++) agree &= r[i].alg == r[0].alg;
  size_t lo, hi;
  class_range(r[0].klass, &lo, &hi);
  char slo[32], shi[32];
  mg_profile_fmt_size(lo, slo, sizeof slo);
  mg_profile_fmt_size(hi, shi, sizeof shi);
  const mg_coll_info *ci = &mg_colls[r[0].coll];
  if (!agree) {
    snprintf(line, sizeof line, "np=%d: %s %s-%s: %d communicators chose differently (e.g. %s, %s); no rule",
             r[0].np, ci->name, slo, shi, n, ci->algs[r[0].alg].name, ci->algs[r[n - 1].alg].name);
    mg_profile_add_preamble(p, line);
    return;
  }
  fmt_us(r[0].t_default, td, sizeof td);
  fmt_us(r[0].t_alg, ta, sizeof ta);
  fmt_us(r[0].t_alt, tx, sizeof tx);
  if (r[0].model)
    snprintf(line, sizeof line, "learned: default, by the LogGP model without trials (MPIGUIDE_LOGGP: no row priced "
             "below the default; the cheapest, %s, at best as fast)", r[0].alt ? ci->algs[r[0].alt].name : "none");
  else if (r[0].alg != 0)
    snprintf(line, sizeof line, "learned: %s %s, default %s (%.2fx), %d trials; its time: the default's less the "
             "least gain of a rank%s",
             ci->algs[r[0].alg].name, ta, td, r[0].t_default > 0 ? r[0].t_alg / r[0].t_default : 0, r[0].trials,
             n > 1 ? ", every communicator of this size agreed" : "");
  else if (r[0].alt)
    snprintf(line, sizeof line, "learned: default %s; best mock-up %s %s (%.2fx: a choice needs every rank to gain "
             "10%% of the default's time, and to be faster in 3 of 4 rounds), %d trials", td, ci->algs[r[0].alt].name, tx,
             r[0].t_default > 0 ? r[0].t_alt / r[0].t_default : 0, r[0].trials);
  else
    snprintf(line, sizeof line, "learned: default %s; every mock-up was dropped (3x slower on every rank, or not applicable)", td);
  int sel = ci->reduction;
  if (sel && (r[0].tclass <= 0 || r[0].opsel <= 0)) { /* a class or op the format has no selector for */
    snprintf(line, sizeof line, "np=%d: %s %s-%s: learned %s for a datatype or op without a selector; no rule",
             r[0].np, ci->name, slo, shi, ci->algs[r[0].alg].name);
    mg_profile_add_preamble(p, line);
    return;
  }
  if (sel)
    mg_profile_add_sel(p, (mg_coll)r[0].coll, r[0].np, r[0].np, lo, hi, r[0].tclass, r[0].opsel, r[0].alg, line);
  else
    mg_profile_add(p, (mg_coll)r[0].coll, r[0].np, r[0].np, lo, hi, r[0].alg, line);
}

/* Rank 0: the profile of all records, written to path. */
static void write_profile(const char *path, orec *r, int n, const double st[6], int nprocs, const mg_layout *L,
                          double wall) {
  mg_profile *p = mg_profile_new();
  if (!p) return;
  char line[700], lib[MPI_MAX_LIBRARY_VERSION_STRING] = "?", date[64] = "?";
  int len = 0;
  PMPI_Get_library_version(lib, &len);
  lib[strcspn(lib, "\r\n")] = '\0';
  time_t now = time(NULL);
  struct tm tm;
  if (gmtime_r(&now, &tm)) strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  snprintf(line, sizeof line, "learned online by libmpiguide (MPIGUIDE_PROFILE=auto) at %s, %d processes", date,
           nprocs);
  mg_profile_add_preamble(p, line);
  snprintf(line, sizeof line, "exploration: %.0f trial calls, %.0f cells decided; %.4g s in trials, %.4g s more than "
           "the chosen algorithms would take (%.2f %% of the run's %.4g s wall time; max over ranks)",
           st[0], st[1], st[2], st[3], wall > 0 ? 100.0 * st[3] / wall : 0.0, wall);
  mg_profile_add_preamble(p, line);
  snprintf(line, sizeof line, "model: %s: %.0f candidates never tried (priced above %g x the cheapest), %.0f cells "
           "decided without trials", mg_the_ctx.online_model ? "MPIGUIDE_LOGGP" : "none (trials only)", st[4],
           mg_the_ctx.model_factor, st[5]);
  mg_profile_add_preamble(p, line);
  if (L->nnodes > 0) { /* as tune writes it: libmpiguide warns when the profile is used on another layout (init.c),
                         other nodes or other ranks per node (2 x 2 and 3 + 1) */
    char rpn[32];
    mg_layout_rpn(L, rpn, sizeof rpn);
    snprintf(line, sizeof line, "np=%d: layout: %d node(s) x %s ranks per node", nprocs, L->nnodes, rpn);
    mg_profile_add_preamble(p, line);
  }
  qsort(r, (size_t)n, sizeof *r, rec_cmp);
  int last_np = 0;
  for (int i = 0, j; i < n; i = j) {
    for (j = i + 1; j < n && rec_cmp(&r[i], &r[j]) == 0;) j++;
    if (r[i].np != last_np) {
      last_np = r[i].np;
      snprintf(line, sizeof line, "np=%d: MPI library: %s", last_np, lib);
      mg_profile_add_preamble(p, line);
    }
    add_cell(p, r + i, j - i);
  }
  mg_profile_diags d;
  mg_profile_diags_init(&d, 4);
  /* through TARGET.tmp beside the file path names, as the trace (outfile.h: a symbolic link is
   * followed, as the probe at MPI_Init did, and stays a link; nothing is left on failure) */
  char target[PATH_MAX], tmp[PATH_MAX + 8];
  FILE *f = NULL;
  int rc = mg_profile_build(p, &d);
  if (rc == MG_PROFILE_OK && !(f = mg_out_open(path, target, sizeof target, tmp, sizeof tmp))) rc = MG_PROFILE_IO;
  if (f && mg_profile_write(p, f) != MG_PROFILE_OK) rc = MG_PROFILE_IO;
  if (f && mg_out_commit(f, tmp, target) != 0) rc = MG_PROFILE_IO;
  if (rc != MG_PROFILE_OK)
    fprintf(stderr, "mpiguide: warning: cannot write the learned profile to MPIGUIDE_PROFILE_OUT='%s'\n", path);
  mg_profile_diags_free(&d);
  mg_profile_free(p);
}

void mg_online_finalize(const char *path, double wall_start) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
  PMPI_Comm_size(MPI_COMM_WORLD, &size);
  pthread_mutex_lock(&G.lock);
  double st[6] = {(double)G.trial_calls, (double)G.cells_decided, G.trial_s, G.excess_s, (double)G.pruned,
                  (double)G.by_model}, all[6];
  int n = G.nrec;
  pthread_mutex_unlock(&G.lock);
  double wall = PMPI_Wtime() - wall_start, wall_max = 0;
  if (path) { /* collective over MPI_COMM_WORLD: every rank takes part */
    PMPI_Reduce(st, all, 6, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    PMPI_Reduce(&wall, &wall_max, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    mg_layout L; /* collective; no layout line when it cannot be told */
    if (mg_layout_collect(MPI_COMM_WORLD, &L) != MPI_SUCCESS) L.nnodes = 0;
    int bytes = n * (int)sizeof(orec), total = 0, ok = 1;
    int *counts = rank == 0 ? calloc((size_t)size, sizeof *counts) : NULL;
    int *displs = rank == 0 ? calloc((size_t)size, sizeof *displs) : NULL;
    orec *allrec = NULL;
    if (rank == 0) ok = counts && displs;
    PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (ok) { /* ok is rank 0's answer everywhere; rank 0 says again whether it holds the records */
      PMPI_Gather(&bytes, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
      if (rank == 0) {
        for (int i = 0; i < size; i++) displs[i] = total, total += counts[i];
        ok = (allrec = malloc((size_t)total + 1)) != NULL;
      }
      PMPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    }
    if (ok) PMPI_Gatherv(G.rec, bytes, MPI_BYTE, allrec, counts, displs, MPI_BYTE, 0, MPI_COMM_WORLD);
    if (rank == 0 && ok) write_profile(path, allrec, total / (int)sizeof(orec), all, size, &L, wall_max);
    else if (rank == 0) fprintf(stderr, "mpiguide: warning: out of memory; no learned profile written\n");
    free(counts), free(displs), free(allrec);
  }
  pthread_mutex_lock(&G.lock);
  free(G.rec);
  G.rec = NULL;
  G.nrec = G.caprec = 0;
  G.trial_calls = G.cells_decided = G.pruned = G.by_model = 0;
  G.trial_s = G.excess_s = 0;
  pthread_mutex_unlock(&G.lock);
}
