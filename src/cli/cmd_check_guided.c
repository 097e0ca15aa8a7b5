/*
 * The rule of `check --model-guided` (cmd_check_guided.h, docs/model.md): which mock-up cells are
 * measured once the defaults are known. A cell is left out only
 *   - when it cannot beat the default: an in-place row without --in-place (the engine runs the
 *     default's call for it and skips it), a packed row on predefined datatypes (dense: it passes
 *     the buffer as it is, as MPI_BYTE: the same bytes in one call), a renumbered row on two
 *     processes (renumbering two ranks with the same root is the identity or the swap: the same
 *     messages);
 *   - or when its price lies beyond the slack times the default's median.
 * A hierarchical row (family hier) on one node is measured whatever its price: its cost prices
 * each step at the whole job's size, the step between nodes too, which one node does not take
 * (allreduce_as_hier, "reduce(n) + allreduce(n) + bcast(n)", is a reduce and a bcast there).
 * Seen at 4 ranks of Open MPI: priced 1.6-1.7x the default at 16K and 256K, measured 1.13-1.34x
 * faster than it (violations of --full that the rule had left out).
 * A price the rule cannot trust is measured: none at all, or one made by the LogGP model (a
 * point-to-point schedule, a part of a composition that was not measured, an extrapolation) when
 * the LogGP file says it was measured on a busy machine (a size whose medians' standard error
 * exceeds MG_LOGGP_NOISY, its "noisy at" warning). Seen here under load (2 ranks, Open MPI, noise
 * 59 % at 64K-128K): a 64 KiB message priced 9.7 ms, so recursive doubling and binomial bcast and
 * reduce were "528x the default" at 64 KiB, ring and Rabenseifner "334x" at 256 KiB, and the plain
 * slack left out 5 cells that --full found violated (tests/check/data/guided-ompi2). The R^2 of
 * the fit does not tell: the quiet file tests/cost/data/loggp.txt has R^2 -3.8 of PRTT(1,0,s)
 * (o_s + o_r exceed half the round trip), yet its prices of those cells are 0.3-0.9x the default,
 * as measured (a message is priced by the measured round trip, not by the fit).
 */
#include <math.h>
#include <stdlib.h>

#include "cli/cmd_check_guided.h"
#include "model/loggp_file.h"

int mg_guided_model_noisy(const char *path) {
  mg_loggp_file *lf = calloc(1, sizeof *lf);
  char e[512];
  int noisy = 1;
  if (lf && !mg_loggp_read_file(path, lf, e, sizeof e)) {
    noisy = 0;
    for (int k = 0; k < 2; k++)
      for (int i = 0; lf->has[k] && i < lf->cls[k].npts; i++) noisy |= lf->cls[k].col[MG_LC_NOISE][i] > MG_LOGGP_NOISY;
  }
  free(lf);
  return noisy;
}

mg_guided_why mg_guided_cell(const mg_model *m, const mg_guided_cfg *g, mg_coll coll, int alg, int p, double n) {
  const mg_alg *a = &mg_colls[coll].algs[alg];
  if (a->family == MG_FAM_INPLACE && !g->in_place) return MG_GUIDED_NOT_RUN;
  if ((a->family == MG_FAM_DATATYPE && g->dense) || (a->family == MG_FAM_RERANK && p == 2)) return MG_GUIDED_SAME_CALL;
  if (a->family == MG_FAM_HIER && g->nnodes <= 1) return MG_GUIDED_ONE_NODE;
  mg_price def = mg_model_default_price(m, coll, p, n), t = mg_model_alg_price(m, coll, alg, p, n);
  if (!isfinite(t.t) || !isfinite(def.t)) return MG_GUIDED_NO_PRICE;
  if (g->model_noisy && t.src >= MG_PRICE_MODEL) return MG_GUIDED_MODEL_UNSURE;
  return t.t <= g->slack * def.t ? MG_GUIDED_MAY_BEAT : MG_GUIDED_SLOWER;
}

#define MG_GUIDED_ROW(id, m, key, text) {m, key, text},
static const struct {
  int measured;
  const char *key, *text;
} whys[] = {MG_GUIDED_WHYS(MG_GUIDED_ROW)};
#undef MG_GUIDED_ROW

int mg_guided_measured(mg_guided_why w) { return (unsigned)w < MG_GUIDED_NWHY && whys[w].measured; }
const char *mg_guided_key(mg_guided_why w) { return (unsigned)w < MG_GUIDED_NWHY ? whys[w].key : ""; }
const char *mg_guided_text(mg_guided_why w) { return (unsigned)w < MG_GUIDED_NWHY ? whys[w].text : ""; }
