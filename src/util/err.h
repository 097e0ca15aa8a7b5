/*
 * The one way to report an error with a message: a function that can fail
 * takes a buffer (char *err, size_t errlen), writes "what is wrong" into it
 * and returns -1, in one expression:
 *
 *   if (x < 0) return MG_ERR("%s: count %d is negative", path, x);
 *
 * MG_ERR_TO writes into a named char array instead (a command's state):
 *
 *   return MG_ERR_TO(S->err, "--out: empty path");
 */
#ifndef MG_UTIL_ERR_H
#define MG_UTIL_ERR_H

#include <stdio.h>

#define MG_ERR(...) (snprintf(err, errlen, __VA_ARGS__), -1)
#define MG_ERR_TO(buf, ...) (snprintf((buf), sizeof(buf), __VA_ARGS__), -1)

#endif
