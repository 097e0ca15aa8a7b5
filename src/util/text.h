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
/* The longest line any reader of mpiguide's files takes (1 MiB): a longer one is an error, so
 * that a file without line breaks (/dev/zero, a binary) cannot grow a reader without bound. */
#define MG_LINE_MAX (1L << 20)

/* Read one line into *buf (grown as needed, as getline does, to at most MG_LINE_MAX + 1 bytes).
 * Returns its length without the line break ("\n" or "\r\n"), -1 at end of file, and below -1
 * an error that mg_read_line_strerror() names: MG_LINE_EIO a read error (errno set: EISDIR for
 * a directory), MG_LINE_ELONG a line longer than MG_LINE_MAX, MG_LINE_ENUL a NUL byte (binary
 * data, not text). *nl: the line ended with a line break (a last line without one means a cut
 * file). */
long mg_read_line(FILE *f, char **buf, size_t *cap, int *nl);
#define MG_LINE_EIO (-2)
#define MG_LINE_ELONG (-3)
#define MG_LINE_ENUL (-4)
/* What a return value below -1 of mg_read_line means, e.g. "read error: Is a directory"; call it
 * before anything else can change errno. */
const char *mg_read_line_strerror(long rc);

/* The whole of f (a file, a pipe, a FIFO) into a NUL-terminated buffer of *len bytes, at most max:
 * NULL on a read error, out of memory, or (errno EFBIG) more than max bytes. The caller frees it. */
char *mg_read_all(FILE *f, size_t max, size_t *len);

/* fopen(path, "r") for a reader, refusing a directory with a message that says so
 * ("PATH: is a directory, not a WHAT") and naming errno's reason otherwise. NULL on failure. */
FILE *mg_open_text(const char *path, const char *what, char *err, size_t errlen);

#endif
