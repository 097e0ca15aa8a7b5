/*
 * What analyze.c lends the other makers of verdicts in src/check (pack_summary.c: TGT 2010 eq. 4's
 * verdicts from a data set of their own), so that every comparison is made by the one function.
 */
#ifndef MG_CHECK_ANALYZE_H
#define MG_CHECK_ANALYZE_H

#include "check/check.h"

/* A verdict before the comparison: every number unknown. */
void mg_ck_verdict_init(mg_ck_verdict *v, mg_coll coll, size_t bytes, const char *red, const char *alg);
/* One comparison of d's series of v (coll, bytes, red; "default" against v->alg): everything but the
 * decision (mg_ck_decide, once the family is known). opname: the operation's name in the bootstrap's
 * seed (a collective's name; pack data: the pack operation's). 0, or -1 out of memory. */
int mg_ck_compare_op(const mg_ck_data *d, const mg_ck_opts *o, mg_ck_verdict *v, const char *opname, char *err,
                     size_t errlen);
/* Append v to *vs (n, cap). 0, or -1 out of memory. */
int mg_ck_push_verdict(mg_ck_verdict **vs, int *n, int *cap, const mg_ck_verdict *v);
/* r->pack from the pack data p (check.h, mg_ck_result.pack), before Holm. 0, or -1 with a message. */
int mg_ck_pack_verdicts(const mg_ck_data *p, const mg_ck_opts *o, mg_ck_result *r, char *err, size_t errlen);
/* r->ovl from the overlap data p (check.h, mg_ck_result.ovl), before Holm. 0, or -1 with a message. */
int mg_ck_overlap_verdicts(const mg_ck_data *p, const mg_ck_opts *o, mg_ck_result *r, char *err, size_t errlen);
/* relation_rows.c: the REVERSE verdicts of r's mock-up rows that have one, each followed by a place
 * for its EQUIV verdict (before Holm; 0, or -1 with a message), and that EQUIV verdict v of mock-up
 * row m and its REVERSE row rv once Holm has adjusted both (margin: the equivalence margin). */
int mg_ck_reverse_rows(const mg_ck_data *d, const mg_ck_opts *o, mg_ck_result *r, char *err, size_t errlen);
void mg_ck_equiv_row(const mg_ck_verdict *m, const mg_ck_verdict *rv, const mg_ck_relation_rows *rr, double margin,
                     mg_ck_verdict *v);

#endif
