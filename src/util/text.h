/*
 * Writing text fields for machines: one CSV field (RFC 4180 quoting) and one
 * JSON string (with escapes). Used by every writer of CSV and JSON output.
 */
#ifndef MG_UTIL_TEXT_H
#define MG_UTIL_TEXT_H

#include <stdio.h>

/* s as one CSV field: quoted when it holds a comma, quote or line break. */
void mg_csv_str(FILE *f, const char *s);
/* s as a JSON string literal, quotes included; NULL is written as "". */
void mg_json_str(FILE *f, const char *s);

#endif
