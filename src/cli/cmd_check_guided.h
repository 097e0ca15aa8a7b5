/*
 * The rule of `check --model-guided` (docs/model.md): whether a mock-up cell (collective, process
 * count, size, mock-up) is measured after the defaults, and why, from the defaults measured and
 * the LogGP model. Pure arithmetic over the registry and the cost model (no MPI, no file): the
 * measurement (cmd_check_measure.c) and `mpiguide predict --guided` (the rule replayed on a saved
 * check, so that a test and benchmarks/guided_gain.sh can hold it against the verdicts of a full
 * check) call the same function.
 */
#ifndef MG_CLI_CMD_CHECK_GUIDED_H
#define MG_CLI_CMD_CHECK_GUIDED_H

#include "cost/cost.h"
#include "registry/registry.h"

/* Why a cell is measured or left out: X(ID, measured, key for CSV, text). */
#define MG_GUIDED_WHYS(X)                                                                                     \
  X(NO_PRICE, 1, "no_price", "no price (a part nothing prices): measured")                                  \
  X(MAY_BEAT, 1, "may_beat", "its price is within the slack of the default's")                               \
  X(ONE_NODE, 1, "one_node", "a hierarchical row on one node: its price is a several nodes' one: measured")  \
  X(MODEL_UNSURE, 1, "model_unsure", "priced by a LogGP file measured on a busy machine: measured")          \
  X(NOT_RUN, 0, "not_run", "an in-place row: without --in-place the engine skips it (the default's call)")   \
  X(SAME_CALL, 0, "same_call", "the default's own call on a dense datatype: it cannot beat the default")      \
  X(SLOWER, 0, "slower", "priced above the slack times the default's median")
#define MG_GUIDED_ENUM(id, m, key, text) MG_GUIDED_##id,
typedef enum { MG_GUIDED_WHYS(MG_GUIDED_ENUM) MG_GUIDED_NWHY } mg_guided_why;
#undef MG_GUIDED_ENUM

/* What the rule is given besides the model: the slack (--model-slack) and how the check calls. */
typedef struct mg_guided_cfg {
  double slack;
  int in_place; /* --in-place: the in-place rows run */
  int dense;    /* every datatype of the check is predefined (dense): a packed row is the default's call */
  int model_noisy; /* the LogGP file was measured on a busy machine (mg_guided_model_noisy) */
  int nnodes;      /* nodes of the job (0: unknown, taken as one) */
} mg_guided_cfg;

/* 1 when a size of the LogGP file at path has a noise (the largest relative standard error of its
 * medians) above MG_LOGGP_NOISY, as its "noisy at" warnings say, or the file cannot be read again;
 * 0 otherwise. */
int mg_guided_model_noisy(const char *path);

/* The decision for mock-up alg (> 0) of coll at (p, n) bytes; m holds the defaults measured. */
mg_guided_why mg_guided_cell(const mg_model *m, const mg_guided_cfg *g, mg_coll coll, int alg, int p, double n);
/* 1 when a cell with that reason is measured. */
int mg_guided_measured(mg_guided_why w);
/* The key ("may_beat") and the sentence of a reason. */
const char *mg_guided_key(mg_guided_why w);
const char *mg_guided_text(mg_guided_why w);

#endif
