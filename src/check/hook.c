/*
 * The point after the analysis of a check where further output is produced
 * from the verdicts (check.h): the HTML report (src/report, docs/report.md)
 * DIR/report.html. It receives the data, the verdicts and the directory that
 * already holds raw.csv, verdicts.csv/json and summary.txt; the report is
 * written under a temporary name and renamed, and a failure here does not
 * remove the files before it.
 */
#include <stdio.h>

#include "check/check.h"
#include "report/report.h"

int mg_ck_after_analysis(const char *dir, const mg_ck_data *d, const mg_ck_result *r, char *err,
                         size_t errlen) {
  if (!dir || !d || !r || d->nlaunches < 1) return 0;
  char path[4096];
  if ((size_t)snprintf(path, sizeof path, "%s/report.html", dir) >= sizeof path)
    return snprintf(err, errlen, "%s: directory name too long for the report", dir), -1;
  mg_rp_run run = {d, r};
  return mg_rp_write_file(path, &run, 1, err, errlen);
}
