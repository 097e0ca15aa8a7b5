/*
 * The point-to-point guidelines of TGT 2010 §IV as one table (check.h, mg_ck_p2p_cols): eq. (1)
 * split-robustness of Send, (5) Isend + Wait <= Send, (6) Send <= Isend + Wait, (7) Send ~ Isend
 * + Wait, (8) Send <= Ssend, (9) Rsend <= Send, (10) and (11) Sendrecv against its two
 * compositions, and §VII's Send(n) ~ Win_fence + Put(n) + Win_fence in both directions and as an
 * equivalence. Each column names the verdict row it shows (operation, mock-up, relation) and
 * what a user does about a violation; the summary's "point-to-point guidelines" section and the
 * report's table read it, so both say the same.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check/check.h"
#include "util/fmt.h"

const mg_ck_p2p_col mg_ck_p2p_cols[] = {
    {"1", "1 (2)", MG_SEND, "send_as_split2", MG_CK_REL_MOCKUP},
    {"1", "1 (4)", MG_SEND, "send_as_split4", MG_CK_REL_MOCKUP},
    {"5", "5", MG_SEND, "send_as_isend_wait", MG_CK_REL_REVERSE},
    {"6", "6", MG_SEND, "send_as_isend_wait", MG_CK_REL_MOCKUP},
    {"7", "7", MG_SEND, "send_as_isend_wait", MG_CK_REL_EQUIV},
    {"8", "8", MG_SEND, "send_as_ssend", MG_CK_REL_MOCKUP},
    {"9", "9", MG_RSEND, "rsend_as_send", MG_CK_REL_MOCKUP},
    {"10", "10", MG_SENDRECV, "sendrecv_as_isend_recv_wait", MG_CK_REL_MOCKUP},
    {"11", "11", MG_SENDRECV, "sendrecv_as_irecv_send_wait", MG_CK_REL_MOCKUP},
    {"VII", "VII <", MG_SEND, "send_as_rma_put", MG_CK_REL_MOCKUP}, /* §VII, one-sided: both ways and ~ */
    {"VII", "VII >", MG_SEND, "send_as_rma_put", MG_CK_REL_REVERSE},
    {"VII", "VII ~", MG_SEND, "send_as_rma_put", MG_CK_REL_EQUIV},
    {"37", "37", MG_SENDRECV, "sendrecv_as_cart_reorder", MG_CK_REL_REVERSE}, /* a topology reordered */
};
const int mg_ck_np2p_cols = (int)(sizeof mg_ck_p2p_cols / sizeof mg_ck_p2p_cols[0]);

const char *mg_ck_p2p_formula(const mg_ck_p2p_col *c) {
  const mg_ck_relation_rows *rr = mg_ck_relation_of(c->coll, c->alg);
  if (c->rel == MG_CK_REL_REVERSE && rr) return rr->rev_formula;
  if (c->rel == MG_CK_REL_EQUIV && rr) return rr->eq_formula;
  int a = mg_alg_find(c->coll, c->alg);
  return a > 0 ? mg_colls[c->coll].algs[a].formula : c->alg;
}

mg_ck_p2p_action mg_ck_p2p_act(const mg_ck_p2p_col *c) {
  if (c->rel == MG_CK_REL_EQUIV) return MG_CK_P2P_SEE;
  if (c->rel == MG_CK_REL_REVERSE) return MG_CK_P2P_REPORT;
  int a = mg_alg_find(c->coll, c->alg);
  return a > 0 && (mg_colls[c->coll].algs[a].restrictions & MG_R_MEASURE_ONLY) ? MG_CK_P2P_REPORT : MG_CK_P2P_TUNE;
}

/* How bad a verdict is, for the one a table cell shows: a violation, then inconclusive, then
 * consistent; among alike the larger ratio. */
static double badness(const mg_ck_verdict *v) {
  if (v->status != MG_CKV_OK) return -1;
  int o = v->outcome == MG_CK_VIOLATION ? 2 : v->outcome == MG_CK_INCONCLUSIVE ? 1 : 0;
  return o * 1e6 + (isfinite(v->slowdown) ? v->slowdown : 0);
}

const mg_ck_verdict *mg_ck_p2p_find(const mg_ck_result *r, const mg_ck_p2p_col *c, size_t bytes) {
  const mg_ck_verdict *vs = c->rel == MG_CK_REL_MOCKUP ? r->v : r->rel, *best = NULL;
  int n = c->rel == MG_CK_REL_MOCKUP ? r->n : r->nrel;
  for (int i = 0; i < n; i++) { /* pattern cart: one verdict per direction, the worst stands for the size */
    const mg_ck_verdict *v = &vs[i];
    if (v->coll == c->coll && v->bytes == bytes && v->rel == c->rel && !v->aa && !strcmp(v->alg, c->alg) &&
        (!best || badness(v) > badness(best)))
      best = v;
  }
  return best;
}

int mg_ck_p2p_sizes(const mg_ck_result *r, size_t *out, int cap) {
  int n = 0;
  for (int k = 0; k < mg_ck_np2p_cols; k++)
    for (int i = 0; i < r->n; i++) {
      const mg_ck_verdict *v = &r->v[i];
      if (v->coll != mg_ck_p2p_cols[k].coll || strcmp(v->alg, mg_ck_p2p_cols[k].alg)) continue;
      int j = 0;
      while (j < n && out[j] != v->bytes) j++;
      if (j == n && n < cap) out[n++] = v->bytes;
    }
  for (int i = 1; i < n; i++) /* insertion sort: a few dozen sizes */
    for (int j = i; j > 0 && out[j - 1] > out[j]; j--) {
      size_t t = out[j];
      out[j] = out[j - 1], out[j - 1] = t;
    }
  return n;
}

int mg_ck_any_p2p(const mg_ck_result *r) {
  for (int i = 0; i < r->n; i++)
    if (mg_coll_is_p2p(r->v[i].coll)) return 1;
  return 0;
}

/* One cell of the text table: the outcome's letter, the ratio, the flags that qualify it. */
static void cell(FILE *f, const mg_ck_verdict *v) {
  char buf[24];
  if (!v) snprintf(buf, sizeof buf, "-");
  else if (v->status != MG_CKV_OK) snprintf(buf, sizeof buf, "%s", v->status == MG_CKV_SKIPPED ? "skip" : "err");
  else {
    char c = v->outcome == MG_CK_VIOLATION ? 'V' : v->outcome == MG_CK_CONSISTENT ? 'C' : '?';
    int u = snprintf(buf, sizeof buf, "%c %.2f", c, v->slowdown);
    if (v->significant && v->launches_slower != v->launches && u < 20) buf[u++] = 'L';
    if (v->noise && u < 20) buf[u++] = '~';
    buf[u] = '\0';
  }
  fprintf(f, " %8s", buf);
}

void mg_ck_print_p2p(FILE *f, const mg_ck_result *r) {
  size_t sizes[256];
  int ns = mg_ck_p2p_sizes(r, sizes, 256);
  if (!ns) return;
  int used[32] = {0}; /* the columns with a verdict */
  for (int k = 0; k < mg_ck_np2p_cols && k < 32; k++)
    for (int s = 0; s < ns && !used[k]; s++) used[k] = mg_ck_p2p_find(r, &mg_ck_p2p_cols[k], sizes[s]) != NULL;
  fprintf(f, "\npoint-to-point guidelines (TGT 2010 sec. IV; cell: verdict and ratio = left side / right side, medians;\n"
             "V violation, C consistent (eq. 7: holds), ? inconclusive (never clean), ~ within the noise,\n"
             "L not in every launch; - not measured):\n");
  for (int k = 0; k < mg_ck_np2p_cols; k++) {
    if (!used[k]) continue;
    const mg_ck_p2p_col *c = &mg_ck_p2p_cols[k];
    int nv = 0, nc = 0, ni = 0;
    for (int s = 0; s < ns; s++) {
      const mg_ck_verdict *v = mg_ck_p2p_find(r, c, sizes[s]);
      if (!v || v->status != MG_CKV_OK) continue;
      nv += v->outcome == MG_CK_VIOLATION, nc += v->outcome == MG_CK_CONSISTENT, ni += v->outcome == MG_CK_INCONCLUSIVE;
    }
    fprintf(f, "  eq. %-6s %-42s %2d violated, %2d %-10s %2d inconclusive\n", c->head, mg_ck_p2p_formula(c), nv, nc,
            c->rel == MG_CK_REL_EQUIV ? "hold," : "consistent,", ni);
  }
  fprintf(f, "\n%6s", "bytes");
  for (int k = 0; k < mg_ck_np2p_cols; k++)
    if (used[k]) fprintf(f, " %8s", mg_ck_p2p_cols[k].head);
  fputc('\n', f);
  for (int s = 0; s < ns; s++) {
    char b[32];
    fprintf(f, "%6s", mg_fmt_bytes(sizes[s], MG_BYTES_EXACT, b, sizeof b));
    for (int k = 0; k < mg_ck_np2p_cols; k++)
      if (used[k]) cell(f, mg_ck_p2p_find(r, &mg_ck_p2p_cols[k], sizes[s]));
    fputc('\n', f);
  }
  /* what to do: per violated column, its sizes and the action */
  int any = 0;
  for (int k = 0; k < mg_ck_np2p_cols; k++) {
    if (!used[k]) continue;
    const mg_ck_p2p_col *c = &mg_ck_p2p_cols[k];
    char list[512] = "";
    size_t u = 0;
    int nv = 0;
    const mg_ck_verdict *vs = c->rel == MG_CK_REL_MOCKUP ? r->v : r->rel;
    int nvs = c->rel == MG_CK_REL_MOCKUP ? r->n : r->nrel;
    for (int s = 0; s < ns; s++)
      for (int i = 0; i < nvs; i++) { /* every violated verdict: per direction with pattern cart, named */
        const mg_ck_verdict *v = &vs[i];
        if (v->coll != c->coll || v->bytes != sizes[s] || v->rel != c->rel || v->aa || strcmp(v->alg, c->alg) ||
            v->status != MG_CKV_OK || !v->violation)
          continue;
        char b[32];
        const char *pair = mg_ck_pair_of(v->red);
        mg_fmt_bytes(sizes[s], MG_BYTES_EXACT, b, sizeof b);
        if (u < sizeof list - 60)
          u += (size_t)snprintf(list + u, sizeof list - u, "%s%s (%.2fx%s%s)", nv ? ", " : "", b, v->slowdown,
                                !pair ? "" : mg_ck_pair_is_ranks(pair) ? ", pair " : ", direction ", pair ? pair : "");
        nv++;
      }
    if (!nv) continue;
    if (!any++) fprintf(f, "what to do:\n");
    fprintf(f, "  eq. %s violated at %s\n    ", c->head, list);
    switch (mg_ck_p2p_act(c)) {
    case MG_CK_P2P_TUNE:
      fprintf(f, "repair: `mpiguide tune DIR` writes %s for these sizes (docs/tune.md)\n", c->alg);
      break;
    case MG_CK_P2P_REPORT:
      if (c->rel == MG_CK_REL_REVERSE) /* the row's right side is the slower one */
        fprintf(f, "report it to the MPI library's developers: %s is violated (a verdict only, no repair)\n",
                mg_ck_p2p_formula(c));
      else
        fprintf(f, "report it to the MPI library's developers: a defect, no repair (measure only: tune never uses it)\n");
      break;
    case MG_CK_P2P_SEE:
      fprintf(f, "the two sides differ: the one-way verdicts of the same mock-up (eqs. 5 and 6; VII < and >) say "
                 "which is slower and what to do\n");
      break;
    }
  }
  if (!any) fprintf(f, "no point-to-point guideline violated%s\n",
                    "; a '?' cell is not shown clean: measure it again (check --launches 3)");
  int head = 0; /* eq. 37 as the paper states it: at least one neighbour pair not slower */
  for (int s = 0; s < ns; s++) {
    int np = 0, nv = 0;
    const char *w = NULL;
    int o = mg_ck_eq37_pairs(r, sizes[s], &np, &nv, &w);
    if (o < 0) continue;
    char b[32];
    if (!head++)
      fprintf(f, "eq. 37 per neighbour pair (pattern cartpair: each pair alone; it holds when at least one pair is\n"
                 "shown not slower on the reordered communicator, it is violated when every pair is slower):\n");
    fprintf(f, "  %6s: %d pairs, %d slower reordered: %s", mg_fmt_bytes(sizes[s], MG_BYTES_EXACT, b, sizeof b), np, nv,
            o == MG_CK_CONSISTENT ? "holds" : o == MG_CK_VIOLATION ? "VIOLATED" : "inconclusive");
    if (o == MG_CK_CONSISTENT) fprintf(f, " (pair %s not slower)", w);
    fputc('\n', f);
  }
}

int mg_ck_eq37_pairs(const mg_ck_result *r, size_t bytes, int *npairs, int *nviolated, const char **witness) {
  int np = 0, nv = 0, nc = 0;
  *witness = NULL;
  for (int i = 0; i < r->nrel; i++) {
    const mg_ck_verdict *v = &r->rel[i];
    const char *pair = mg_ck_pair_of(v->red);
    if (v->coll != MG_SENDRECV || v->bytes != bytes || v->rel != MG_CK_REL_REVERSE || !mg_ck_pair_is_ranks(pair) ||
        strcmp(v->alg, "sendrecv_as_cart_reorder"))
      continue;
    np++;
    if (v->status != MG_CKV_OK) continue;
    nv += v->outcome == MG_CK_VIOLATION;
    if (v->outcome == MG_CK_CONSISTENT && !nc++) *witness = pair;
  }
  *npairs = np, *nviolated = nv;
  if (!np) return -1;
  return nc ? MG_CK_CONSISTENT : nv == np ? MG_CK_VIOLATION : MG_CK_INCONCLUSIVE;
}
