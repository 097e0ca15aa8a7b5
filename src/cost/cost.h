/*
 * The cost model of every registry row (docs/model.md): the predicted time of an algorithm
 * for a collective, a process count p and a message size n (bytes, the collective's
 * definition in MG_COLLECTIVES).
 *
 * - A point-to-point row (family p2p) has an exact schedule priced with LogGP parameters
 *   (mg_alg.costfn, loggp/loggp.h); on a node with more ranks than processors the crowded rows
 *   slow down by ranks / processors, binomial trees round by round, and every message on the
 *   critical path is late by the LogGP file's handoff, an exchange round's by two (cost.c, schedule();
 *   p2p_sched.h, mg_p2p_xchg).
 * - Every other row has an expression over its parts (mg_alg.cost), e.g.
 *   "reduce(n) + bcast(n)": a sum of terms, each a number or a product of numbers and
 *   primitives; a collective's name priced at a size is the library's own algorithm for it
 *   ("self" is the row's collective), copy(x) and reduce_local(x) local work on x bytes,
 *   sendrecv(x) one message of x bytes, pow2(x) the next power of two >= x, min(a, b); an irregular
 *   collective takes the number of non-empty blocks as a second argument (below); a collective
 *   may run on fewer processes than p, bcast[ppn](n): a hierarchical row's step on one node's
 *   ranks (ppn) or among the node leaders (nodes), p spread over the LogGP file's nodes (one
 *   without), a collective on one process priced 0.
 * - The library's own algorithm (the default, and a part named in an expression) is priced
 *   from measurements when there are any for its collective and p (a check result's medians):
 *   measured at a measured size, interpolated log-log between measured sizes, extrapolated
 *   beyond them along the model's shape (the cheapest LogGP schedule scaled to the nearest
 *   measurement; without LogGP alpha + beta n through the two nearest measurements above them
 *   where they are bandwidth-bound (MG_PRICE_BW_SHARE), the nearest one's time below them, no
 *   price above a single one or two latency-bound ones); else by a model: the
 *   cheapest point-to-point row of the collective (an MPI library chooses among such
 *   algorithms), calibrated when the default was measured at another process count q (times
 *   measured(q, n) / model(q, n): the library's distance from the model carries over), and for
 *   an irregular collective without such rows its regular counterpart at the per-rank size
 *   (gatherv as gather(n/p), ...: the even split that check measures).
 * - Every price is an interval around the point estimate (mg_price), its half-width by the
 *   source's rule (MG_PRICE_* below); an expression adds, scales and divides the intervals of
 *   its parts and takes the weakest source among them. An irregular part is the even split check
 *   measures unless the row says otherwise: allgatherv(n, 1) (bcast_as_allgatherv: the root's
 *   block alone) is k = 1 non-empty blocks of n/k bytes, priced as the regular counterpart at n/k
 *   per rank (allgather(n)), its interval reaching down to the even split's lower end and with
 *   no upper end where nothing prices the counterpart at n/k.
 * Pure arithmetic over the registry's tables: no MPI call, no file.
 */
#ifndef MG_COST_COST_H
#define MG_COST_COST_H

#include <stddef.h>

#include "loggp/loggp.h"
#include "registry/registry.h"

/* A measured median of the library's default. */
typedef struct mg_cost_point {
  int coll, p;
  double bytes, t;
  double rel; /* the median's relative half-width (its 95 % interval); 0: not known (MG_PRICE_MEAS_DEFAULT) */
} mg_cost_point;

typedef struct mg_model {
  const mg_loggp *lg;   /* LogGP parameters; NULL: none (point-to-point rows have no price) */
  mg_cost_point *meas;  /* measured defaults, sorted by mg_model_add's caller via mg_model_sort */
  int nmeas, cap;
} mg_model;

/* Where a price came from, from the surest to the least sure (a composition takes the last of its
 * parts' sources: an expression with an extrapolated part is extrapolated). */
#define MG_PRICE_SOURCES(X)                                                              \
  X(NONE, "")                     /* no price */                                          \
  X(MEASURED, "measured")         /* the library's measured median at this size */        \
  X(INTERPOLATED, "interpolated") /* log-log between two measured sizes */                \
  X(CALIBRATED, "calibrated")     /* the model at p times measured / model at nearest q */ \
  X(MODEL, "model")               /* the model alone */                                   \
  X(EXTRAPOLATED, "extrapolated") /* beyond the measured sizes, along the model's shape */
#define MG_PRICE_ENUM(id, name) MG_PRICE_##id,
typedef enum { MG_PRICE_SOURCES(MG_PRICE_ENUM) } mg_price_src;
#undef MG_PRICE_ENUM
const char *mg_price_name(mg_price_src s); /* "measured", "interpolated", ..., "" for none */

/* The half-width rules (docs/model.md, "How sure a price is"), relative to the point estimate:
 * - measured: the median's own 95 % interval (mg_model_add_rel), at least MG_PRICE_MEAS_FLOOR
 *   (one launch's interval does not hold the launch-to-launch variation), MG_PRICE_MEAS_DEFAULT
 *   when the caller did not give it;
 * - interpolated: the wider of the two measurements' plus MG_PRICE_WIDEN per factor of 2 to the
 *   nearer of them (at most half the gap);
 * - extrapolated: the nearest measurement's plus MG_PRICE_WIDEN per factor of 2 from it;
 * - calibrated: that of the price at the measured process count q plus MG_PRICE_WIDEN per factor
 *   of 2 between q and p;
 * - model: MG_PRICE_MODEL_ERR, the median error of the point-to-point rows measured here. */
#define MG_PRICE_MEAS_FLOOR 0.05
#define MG_PRICE_MEAS_DEFAULT 0.10
#define MG_PRICE_WIDEN 0.10
#define MG_PRICE_MODEL_ERR 0.25
/* Without LogGP, a default is extrapolated above its largest measured size along alpha + beta n
 * through the two largest only where beta n is at least this share of the largest one's time
 * (bandwidth-bound there); else nothing says how it grows and it has no price there. */
#define MG_PRICE_BW_SHARE 0.25

/* A price: the point estimate t and the interval [lo, hi] it may lie in (seconds; lo >= 0). t is
 * NaN when nothing prices it (src MG_PRICE_NONE). */
typedef struct mg_price {
  double t, lo, hi;
  mg_price_src src;
} mg_price;
/* The relative half-width of pr: max(hi - t, t - lo) / t; NaN without a price. */
double mg_price_rel(const mg_price *pr);

void mg_model_init(mg_model *m, const mg_loggp *lg);
void mg_model_free(mg_model *m);
/* Add a measured default (median seconds); 0, or -1 when out of memory. */
int mg_model_add(mg_model *m, int coll, int p, double bytes, double t);
/* The same with the median's relative half-width rel (0: not known). */
int mg_model_add_rel(mg_model *m, int coll, int p, double bytes, double t, double rel);
/* Sort the measured points (call once after the last mg_model_add). */
void mg_model_sort(mg_model *m);

/* The library's own algorithm for coll at (p, n), with its interval and source. */
mg_price mg_model_default_price(const mg_model *m, int coll, int p, double n);
/* Algorithm alg (registry index; 0 the default) of coll at (p, n); t NaN when it has no price
 * (a point-to-point row without LogGP, a part nothing prices). */
mg_price mg_model_alg_price(const mg_model *m, int coll, int alg, int p, double n);
/* The point estimates of the two above; *src (may be NULL) says from what. */
double mg_model_default(const mg_model *m, int coll, int p, double n, mg_price_src *src);
double mg_model_alg(const mg_model *m, int coll, int alg, int p, double n);

/* Whether expression e parses and names only known primitives: 0, or -1 with what and where. */
int mg_cost_check(const char *e, char *err, size_t len);
/* The expression a row is priced by, for listings: its cost, "LogGP schedule" or "". */
const char *mg_cost_text(const mg_alg *a);

#endif
