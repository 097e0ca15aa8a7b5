/*
 * Text for and from machines: one CSV field (RFC 4180 quoting) and one JSON
 * string (with escapes), used by every writer of CSV and JSON output; and the
 * readers' side: a line split into CSV fields or blank-separated fields, and
 * one line read whole.
 */
#ifndef MG_UTIL_TEXT_H
#define MG_UTIL_TEXT_H

#include <stdio.h>

/* s as one CSV field: quoted when it holds a comma, quote or line break. */
void mg_csv_str(FILE *f, const char *s);
/* s as a JSON string literal, quotes included; NULL is written as "". */
void mg_json_str(FILE *f, const char *s);

/* Split a CSV line in place into at most max fields (RFC 4180 quotes; text
 * after a closing quote is dropped). Returns the number of fields, which may
 * exceed max, or -1 for an unterminated quote. */
int mg_csv_split(char *line, char **f, int max);
/* Split in place on blanks and tabs; returns the number of fields (may exceed max). */
int mg_split_blanks(char *line, char **f, int max);
/* Read one line into *buf (grown as needed, as getline does). Returns its
 * length without the line break ("\n" or "\r\n"), -1 at end of file, -2 on a
 * read error. *nl: the line ended with a line break (a last line without one
 * means a cut file). */
long mg_read_line(FILE *f, char **buf, size_t *cap, int *nl);

#endif
