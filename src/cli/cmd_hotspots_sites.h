/*
 * Call sites of `mpiguide hotspots` named (docs/hotspots.md, "Call sites"): a trace's object and
 * offset resolved to function and file:line by addr2line (binutils) when the command runs, the
 * label the table and the --measured comparison show, and labels told apart where two sites would
 * print the same one (two call sites of one inlined function: by the function it was inlined
 * into, else by the offset).
 */
#ifndef MG_CLI_CMD_HOTSPOTS_SITES_H
#define MG_CLI_CMD_HOTSPOTS_SITES_H

#include <stddef.h>

#include "check/hotspots.h"

typedef struct mg_hs_site {
  char func[160];
  char where[256];  /* "file.c:42", or "" unresolved */
  char caller[420]; /* an inlined function's site: the function it was inlined into and the line of
                       the inlined call there, "main halo.c:88" (addr2line -i); "" none */
} mg_hs_site;

/* The names of every spot of t (names[0..t->n)); *missing set when addr2line could not run on
 * some object. A site of an unreadable object keeps the trace's symbol (or none). */
void mg_hs_resolve(const mg_hs_trace *t, mg_hs_site *names, int *missing);

/* What a site is shown as, and what tells it apart from another site of the same text. */
typedef struct mg_hs_label {
  char id[320];     /* the site itself: object path + offset */
  char text[512];   /* "function file.c:42", "symbol (object+0xOFFSET)", "object+0xOFFSET",
                       "(untimed: no site)"; mg_hs_labels_apart extends it */
  char caller[420]; /* mg_hs_site.caller */
  char off[200];    /* "object+0xOFFSET" */
} mg_hs_label;

/* The label of spot s named n; wide: C++ names whole (else short, docs/hotspots.md). */
void mg_hs_label_of(const mg_hs_trace *t, const mg_hs_spot *s, const mg_hs_site *n, int wide, mg_hs_label *l);

/* Labels told apart: where sites of different ids share a text, each text is extended by
 * " (inlined in CALLER)" when the callers tell every two of them apart, else by " (OFFSET)". Labels
 * of one id keep one text. */
void mg_hs_labels_apart(mg_hs_label *L, int n);

#endif
