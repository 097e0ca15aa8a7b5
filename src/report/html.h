/*
 * What the writers of the HTML report share (internal to src/report): html.c is the page's one
 * writer (below); report.c writes the page, its metadata, summary and tables and the helpers
 * below; plots.c draws the plots, their key and the heat map; tuned.c writes the "Default vs
 * tuned" section.
 */
#ifndef MG_REPORT_HTML_H
#define MG_REPORT_HTML_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "check/check.h"
#include "report/report.h"

/* The most message sizes one plot or heat map shows. */
#define MG_RP_MAXS 256

/* ---- html.c: the page's writer ----
 * Every byte of a page goes through mg_html (or is a string literal given to fputs). mg_html is
 * printf whose format is the code's markup, written as it is, and whose every conversion is
 * written HTML-escaped: & < > " ' become &amp; &lt; &gt; &quot; &#39;. A %s is therefore safe as
 * element text and as a quoted attribute value (either quote), whatever file it came from, and a
 * number (%d, %zu, %.2f, %g: "nan", "inf" included) is printed as printf prints it. So:
 *   mg_html(f, "<g data-alg=\"%s\"><title>%s, %zu B</title>", v->alg, label, bytes);
 * Rules (tests/report/html_sinks.py checks them on the .c files of src/report):
 * - the format is a string literal (or a ?: of literals): never a value, which would be markup;
 * - a %s or %c is never an unquoted attribute value (=%s: a space would start a new attribute),
 *   nor in an on...= handler, a style= or an href=/src= that is not a "#fragment";
 * - markup is never an argument: a conditional piece of markup is a literal format of its own
 *   (if (x) mg_html(f, " stroke-dasharray=\"3 2\"");), since an argument's quotes come out escaped;
 * - no fprintf, fputc, putc, fwrite or fputs of a value onto a page.
 * mg_html_markup writes a piece of markup the code itself holds, as it is (the style sheet); it is
 * the exception, and the check allows it only on a static string constant of the same file or on a
 * line saying where the markup came from ("built markup:"). gcc's format check keeps the arguments
 * honest (-Wformat); the writer stops at a conversion it does not know (%n, %ls). */
void mg_html(FILE *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void mg_html_v(FILE *f, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
void mg_html_markup(FILE *f, const char *markup);

/* ---- report.c ---- */
/* "16 B", "1 KiB", "1.5 KiB", "64 KiB", "1 MiB" */
const char *mg_rp_bytes_str(size_t n, char *buf, size_t len);
/* a latency for tables and titles: µs, ms or s, no exponent (mg_fmt_seconds) */
const char *mg_rp_us_str(double sec, char *buf, size_t len);
/* <td> of an MPI library's version string: whole, or cut at a word boundary with the whole in its title. */
void mg_rp_version_cell(FILE *f, const char *v);
/* The verdict has a ratio that can be plotted. */
int mg_rp_ratio_ok(const mg_ck_verdict *v);
/* " — P processes" after a heading when the page shows several runs. */
void mg_rp_run_title(FILE *f, const mg_rp_run *run, int nruns);
/* qsort comparison of size_t. */
int mg_rp_cmp_size(const void *a, const void *b);
/* Distinct sizes (ascending) of the verdicts of coll in r (coll < 0: all); returns the count. */
int mg_rp_sizes_of(const mg_ck_result *r, int coll, int plotted_only, size_t *out, int cap);
/* The sizes at which a library variant of coll was compared (libvar_section.c), ascending, into out[cap]. */
int mg_rp_lib_sizes(const mg_ck_result *r, int coll, size_t *out, int cap);
/* The section on the library's own algorithms (check --lib-variants): plots and the table of which
 * kind wins; nothing without them (libvar_section.c). */
void mg_rp_libvar_section(FILE *f, const mg_rp_run *run, int nruns);

/* ---- campaign.c ---- */
/* With several configurations: guidelines by configuration, the default's latency across them,
 * and what changed from the first to each other one (docs/campaign.md). */
void mg_rp_campaign_sections(FILE *f, const mg_rp_run *runs, int nruns);

/* ---- plots.c ---- */
/* Marker shape k (mod the number of shapes) at (x, y). */
void mg_rp_marker(FILE *f, int k, double x, double y, const char *col);
/* The frame, log2 size ticks, ratio ticks and the ratio-1 line of one plot. */
void mg_rp_plot_axes(FILE *f, const size_t *sizes, int ns, size_t smin, size_t smax, double ymin, double ymax,
                     const char *ylabel);
/* The relative-runtime plot of one collective of one run. */
void mg_rp_plot(FILE *f, const mg_rp_run *run, int coll, int nruns, int fam);
/* How to read the plots. */
void mg_rp_plot_key(FILE *f);
/* The heat map of violations (collective x size) of every run. */
void mg_rp_heatmap(FILE *f, const mg_rp_run *runs, int nruns);

/* ---- latency.c ---- */
/* Whether r has a plotted split row (family split) of coll: it gets a latency plot. */
int mg_rp_has_split(const mg_ck_result *r, int coll);
/* The latency plot of coll (report.h: the latency mapping), the sizes where a split row is a violation marked. */
void mg_rp_latency_plot(FILE *f, const mg_rp_run *run, int coll, int nruns);
/* How to read the latency plots. */
void mg_rp_latency_key(FILE *f);
/* The point-to-point guidelines of a run as a table (nothing without their verdicts). */
void mg_rp_p2p_table(FILE *f, const mg_rp_run *run, int nruns);
/* The renumbering guideline (TGT 2010 eq. 36, the rerank family): per collective and size, its verdicts. */
void mg_rp_rerank_table(FILE *f, const mg_rp_run *run, int nruns);
/* The packing guideline's table (TGT 2010 eq. 4, mg_ck_result.pack); nothing without its verdicts. */
void mg_rp_pack_table(FILE *f, const mg_rp_run *run, int nruns);
/* The verdicts of "overlap must not cost" (check --overlap), after the packing table. */
void mg_rp_overlap_verdicts(FILE *f, const mg_rp_run *run, int nruns);

/* ---- tuned.c ---- */
/* #@key of the raw.csv next to a verify.csv (the measurement's metadata, read with it), "" when absent. */
void mg_rp_verify_meta(const mg_rp_verify *v, const char *key, char *out, size_t len);
/* The "Default vs tuned" section. */
void mg_rp_verify_section(FILE *f, const mg_rp_verify *ver, int nver);

/* ---- next.c ---- */
/* "What to do next": the commands that follow from each run's verdicts. */
void mg_rp_next(FILE *f, const mg_rp_run *runs, int nruns);

#endif
