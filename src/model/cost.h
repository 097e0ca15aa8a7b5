/*
 * The cost model of every registry row (docs/model.md): the predicted time of an algorithm
 * for a collective, a process count p and a message size n (bytes, the collective's
 * definition in MG_COLLECTIVES).
 *
 * - A point-to-point row (family p2p) has an exact schedule priced with LogGP parameters
 *   (mg_alg.costfn, model/loggp.h).
 * - Every other row has an expression over its parts (mg_alg.cost), e.g.
 *   "reduce(n) + bcast(n)": a sum of terms, each a number or a product of numbers and
 *   primitives; a collective's name priced at a size is the library's own algorithm for it
 *   ("self" is the row's collective), copy(x) and reduce_local(x) local work on x bytes,
 *   sendrecv(x) one message of x bytes, pow2(x) the next power of two >= x.
 * - The library's own algorithm (the default, and a part named in an expression) is priced
 *   from measurements when there are any for its collective and p (a check result: the
 *   median of the default, interpolated log-log between measured sizes, scaled linearly in n
 *   beyond them), else by a model: the cheapest point-to-point row of the collective (an MPI
 *   library chooses among such algorithms), calibrated when the default was measured at
 *   another process count q (times measured(q, n) / model(q, n): the library's distance from
 *   the model carries over), and for a collective without such rows its regular counterpart
 *   at the per-rank size (gatherv as gather(n/p), ...).
 * Pure arithmetic over the registry's tables: no MPI call, no file.
 */
#ifndef MG_MODEL_COST_H
#define MG_MODEL_COST_H

#include <stddef.h>

#include "model/loggp.h"
#include "registry/registry.h"

/* A measured median of the library's default. */
typedef struct mg_cost_point {
  int coll, p;
  double bytes, t;
} mg_cost_point;

typedef struct mg_model {
  const mg_loggp *lg;   /* LogGP parameters; NULL: none (point-to-point rows have no price) */
  mg_cost_point *meas;  /* measured defaults, sorted by mg_model_add's caller via mg_model_sort */
  int nmeas, cap;
} mg_model;

/* Where a price came from. */
typedef enum {
  MG_PRICE_NONE,
  MG_PRICE_MEASURED,   /* the library's measured median (interpolated) */
  MG_PRICE_CALIBRATED, /* the model at p times measured / model at the nearest measured p */
  MG_PRICE_MODEL       /* the model alone */
} mg_price_src;
const char *mg_price_name(mg_price_src s); /* "measured", "calibrated", "model", "" */

void mg_model_init(mg_model *m, const mg_loggp *lg);
void mg_model_free(mg_model *m);
/* Add a measured default (median seconds); 0, or -1 when out of memory. */
int mg_model_add(mg_model *m, int coll, int p, double bytes, double t);
/* Sort the measured points (call once after the last mg_model_add). */
void mg_model_sort(mg_model *m);

/* The library's own algorithm for coll at (p, n); NaN when nothing prices it. *src (may be NULL)
 * says from what. */
double mg_model_default(const mg_model *m, int coll, int p, double n, mg_price_src *src);
/* Algorithm alg (registry index; 0 the default) of coll at (p, n); NaN when it has no price
 * (a point-to-point row without LogGP, a part nothing prices). */
double mg_model_alg(const mg_model *m, int coll, int alg, int p, double n);

/* Whether expression e parses and names only known primitives: 0, or -1 with what and where. */
int mg_cost_check(const char *e, char *err, size_t len);
/* The expression a row is priced by, for listings: its cost, "LogGP schedule" or "". */
const char *mg_cost_text(const mg_alg *a);

#endif
