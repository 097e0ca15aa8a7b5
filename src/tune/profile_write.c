/*
 * The writer: the canonical text of a profile, the one every producer of
 * profile text uses (mpiguide tune, profile merge, validate --print, the
 * online mode's MPIGUIDE_PROFILE_OUT). Version line (3), the preamble
 * comments, a blank line, then the rules in canonical order with aligned
 * columns and a blank line between (collective, np, type, op) groups; the
 * type= and op= columns only when some rule has them, blank for the rules
 * without; each rule's comment after "  # "; a blank line and the end line
 * "end-of-profile rules=N", by which a reader tells a whole file from a cut one. Reading the text back gives the same rules, so the
 * same decision for every size, and the same hash; writing it again gives the
 * same text.
 */
#include <stdlib.h>
#include <string.h>

#include "tune/profile_internal.h"

static const char *alg_text(const mg_profile_rule *r) {
  return r->alg == 0 ? "default" : mg_colls[r->coll].algs[r->alg].name;
}

char *mg_profile_format(const mg_profile *p, size_t *len) {
  if (!p || !p->built) return NULL;
  mg_str b = {0};
  char np[48], sz[80], ty[32], op[32];
  int wc = 0, wn = 0, ws = 0, wt = 0, wo = 0, wa = 0;
  for (int i = 0; i < p->nrules; i++) { /* column widths */
    const mg_profile_rule *r = &p->rules[i];
    int n;
    mg_profile_fmt_np(r->np_lo, r->np_hi, np, sizeof np);
    mg_prof_fmt_range(r->lo, r->hi, sz, sizeof sz);
    if ((n = (int)strlen(mg_colls[r->coll].name)) > wc) wc = n;
    if ((n = (int)strlen(np)) > wn) wn = n;
    if ((n = (int)strlen(sz)) > ws) ws = n;
    if (r->tclass && (n = (int)strlen("type=") + (int)strlen(mg_tclass_name(r->tclass))) > wt) wt = n;
    if (r->opsel && (n = (int)strlen("op=") + (int)strlen(mg_opsel_name(r->opsel))) > wo) wo = n;
    if (r->comment && (n = (int)strlen(alg_text(r))) > wa) wa = n;
  }
  mg_str_addf(&b, "%s %d\n", MG_PROFILE_MAGIC, mg_profile_version(p));
  for (int i = 0; i < p->npreamble; i++)
    mg_str_addf(&b, "#%s%s\n", p->preamble[i][0] ? " " : "", p->preamble[i]);
  for (int i = 0; i < p->nrules; i++) {
    const mg_profile_rule *r = &p->rules[i];
    const mg_profile_rule *prev = i ? &p->rules[i - 1] : NULL;
    if (!prev || prev->coll != r->coll || prev->np_lo != r->np_lo || prev->np_hi != r->np_hi ||
        prev->tclass != r->tclass || prev->opsel != r->opsel)
      mg_str_add(&b, "\n", 1);
    mg_profile_fmt_np(r->np_lo, r->np_hi, np, sizeof np);
    mg_prof_fmt_range(r->lo, r->hi, sz, sizeof sz);
    snprintf(ty, sizeof ty, "%s%s", r->tclass ? "type=" : "", r->tclass ? mg_tclass_name(r->tclass) : "");
    snprintf(op, sizeof op, "%s%s", r->opsel ? "op=" : "", r->opsel ? mg_opsel_name(r->opsel) : "");
    mg_str_addf(&b, "%-*s  %-*s  %-*s  ", wc, mg_colls[r->coll].name, wn, np, ws, sz);
    if (wt) mg_str_addf(&b, "%-*s  ", wt, ty);
    if (wo) mg_str_addf(&b, "%-*s  ", wo, op);
    if (r->comment)
      mg_str_addf(&b, "%-*s  # %s\n", wa, alg_text(r), r->comment);
    else
      mg_str_addf(&b, "%s\n", alg_text(r));
  }
  mg_str_addf(&b, "\n%s rules=%d\n", MG_PROFILE_END, p->nrules);
  if (b.failed) {
    free(b.s);
    return NULL;
  }
  if (len) *len = b.len;
  return b.s;
}

int mg_profile_write(const mg_profile *p, FILE *f) {
  if (!p || !p->built || !f) return MG_PROFILE_INVALID;
  size_t len;
  char *s = mg_profile_format(p, &len);
  if (!s) return MG_PROFILE_NOMEM;
  size_t put = fwrite(s, 1, len, f);
  free(s);
  return put == len && fflush(f) == 0 ? MG_PROFILE_OK : MG_PROFILE_IO;
}

int mg_prof_save_text(const char *path, const char *text, size_t len) {
  if (!path || !text) return MG_PROFILE_INVALID;
  size_t n = strlen(path);
  char *tmp = malloc(n + 5);
  if (!tmp) return MG_PROFILE_NOMEM;
  memcpy(tmp, path, n);
  memcpy(tmp + n, ".tmp", 5);
  FILE *f = fopen(tmp, "w");
  if (!f) {
    free(tmp);
    return MG_PROFILE_IO;
  }
  int st = fwrite(text, 1, len, f) == len && fflush(f) == 0 ? MG_PROFILE_OK : MG_PROFILE_IO;
  if (fclose(f) != 0 && st == MG_PROFILE_OK) st = MG_PROFILE_IO;
  if (st == MG_PROFILE_OK && rename(tmp, path) != 0) st = MG_PROFILE_IO;
  if (st != MG_PROFILE_OK) remove(tmp);
  free(tmp);
  return st;
}

int mg_profile_save(const mg_profile *p, const char *path) {
  if (!p || !p->built || !path) return MG_PROFILE_INVALID;
  size_t len;
  char *s = mg_profile_format(p, &len);
  if (!s) return MG_PROFILE_NOMEM;
  int st = mg_prof_save_text(path, s, len);
  free(s);
  return st;
}

int mg_profile_upgrade_text(const char *buf, size_t len, const char *name, char **out, size_t *outlen,
                            mg_profile_diags *d) {
  mg_profile *p = NULL;
  *out = NULL;
  *outlen = 0;
  int st = mg_profile_parse(buf, len, name, &p, d);
  if (st != MG_PROFILE_OK) return st;
  int version = p->file_version, nrules = p->nrules;
  uint64_t hash = mg_profile_hash(p);
  mg_profile_free(p);
  /* valid, so line 1 is [BOM] blanks "mpiguide-profile" blanks ("1" | "2" | "3") ... and the last
   * line ends with a line break */
  size_t v = len >= 3 && memcmp(buf, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0, m = strlen(MG_PROFILE_MAGIC);
  while (v < len && (buf[v] == ' ' || buf[v] == '\t')) v++;
  if (len - v <= m || memcmp(buf + v, MG_PROFILE_MAGIC, m) != 0) return MG_PROFILE_INVALID;
  for (v += m; v < len && (buf[v] == ' ' || buf[v] == '\t'); v++) continue;
  if (v >= len) return MG_PROFILE_INVALID;
  mg_str b = {0};
  mg_str_add(&b, buf, len);
  if (version < MG_PROFILE_FORMAT_END && !b.failed) {
    b.s[v] = (char)('0' + MG_PROFILE_FORMAT);
    int crlf = len >= 2 && buf[len - 2] == '\r';
    const char *eol = crlf ? "\r\n" : "\n";
    size_t k = strlen(eol);
    int blank = len >= 2 * k && memcmp(buf + len - 2 * k, crlf ? "\r\n\r\n" : "\n\n", 2 * k) == 0;
    mg_str_addf(&b, "%s%s rules=%d%s", blank ? "" : eol, MG_PROFILE_END, nrules, eol); /* after a blank line */
  }
  if (b.failed) {
    free(b.s);
    return mg_prof_diag(d, name, 0, MG_PROFILE_NOMEM, "out of memory");
  }
  /* the upgraded text must decide the same as the original */
  st = mg_profile_parse(b.s, b.len, name, &p, d);
  if (st == MG_PROFILE_OK && mg_profile_hash(p) != hash) st = MG_PROFILE_INVALID;
  mg_profile_free(p);
  if (st != MG_PROFILE_OK) {
    free(b.s);
    return st;
  }
  *out = b.s;
  *outlen = b.len;
  return MG_PROFILE_OK;
}
