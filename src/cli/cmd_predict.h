/*
 * What `mpiguide predict` (cmd_predict.c) lends to check and tune: predictions next to a check's
 * measurements, and the library's measured defaults as the cost model's prices (docs/model.md).
 */
#ifndef MG_CLI_CMD_PREDICT_H
#define MG_CLI_CMD_PREDICT_H

#include <stddef.h>
#include <stdio.h>

#include "check/check.h"
#include "cost/cost.h"
#include "loggp/loggp.h"
#include "model/loggp_file.h"

/* A LogGP fit with an R^2 below this is reported as poor (`mpiguide predict` warns). */
#define MG_PREDICT_R2_POOR 0.9

/* check --loggp (cmd_predict.c): the predicted time of every measured cell of d next to its median
 * into csv_path (mpiguide-predict/2, docs/model.md), the summary of the prediction errors on out
 * (NULL: none). 0, or -1 with a message. */
int mg_cmd_predict_data(const mg_loggp *lg, const mg_ck_data *d, const char *csv_path, FILE *out, char *err,
                        size_t errlen);

/* The medians of the library's default in d (launches pooled; a reduction's first datatype and op)
 * added to m (cmd_predict.c). 0, or -1 with a message. */
int mg_cmd_model_defaults(mg_model *m, const mg_ck_data *d, char *err, size_t errlen);

#endif
