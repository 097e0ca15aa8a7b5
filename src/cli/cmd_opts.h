/*
 * Command-line options of the mpiguide subcommands: "--name value",
 * "--name=value", "-x value" and flags, from a table of options.
 *
 * Every subcommand declares its options in one X-macro list,
 *
 *   #define OPTIONS(X) X(OUT, "out", 'o', MG_OPT_ARG) X(QUIET, "quiet", 'q', MG_OPT_FLAG)
 *   enum { OPTIONS(MG_OPT_ENUM) O_N };
 *   static const mg_opt opts[O_N] = {OPTIONS(MG_OPT_ROW)};
 *
 * and parses argv with mg_opt_parse into an mg_opt_vals: the value of each
 * option given (the last one wins), the arguments that are not options, and
 * the values of a list option (e.g. `--from DIR DIR...`).
 */
#ifndef MG_CLI_CMD_OPTS_H
#define MG_CLI_CMD_OPTS_H

#include <stddef.h>

enum { MG_OPT_FLAG, MG_OPT_ARG, MG_OPT_LIST }; /* LIST: a value and every following non-option */

typedef struct mg_opt {
  const char *name; /* long name without "--" */
  char shrt;        /* short letter, 0 if none */
  int arg;          /* MG_OPT_FLAG, MG_OPT_ARG or MG_OPT_LIST */
} mg_opt;

#define MG_OPT_ENUM(E, name, shrt, arg) O_##E,
#define MG_OPT_ROW(E, name, shrt, arg) [O_##E] = {name, shrt, arg},

/* Returned by mg_opt_next for an argument that is not an option. */
#define MG_OPT_POSITIONAL (-2)

/*
 * The option argv[*i] names, among opts[0..nopts): returns its index and
 * sets *val to its value ("" for a flag), advancing *i past a separate
 * value. MG_OPT_POSITIONAL for an argument that does not start with '-'
 * (the caller decides); -1 with a message in err for an unknown option, a
 * flag given a value or a missing value.
 */
int mg_opt_next(int argc, char **argv, int *i, const mg_opt *opts, int nopts, const char **val, char *err,
                size_t errlen);

#define MG_OPT_MAX 64

typedef struct mg_opt_vals {
  const char *val[MG_OPT_MAX]; /* "" for a flag; NULL: not given */
  int given[MG_OPT_MAX];
  const char **pos;  /* arguments that are not options, in order */
  int npos;
  const char **list; /* values of the list option, in order */
  int nlist;
} mg_opt_vals;

/* Every argument of argv[1..argc) into v. 0, or -1 with a message at the
 * first bad option (v holds what came before it). Free v with mg_opt_vals_free. */
int mg_opt_parse(int argc, char **argv, const mg_opt *opts, int nopts, mg_opt_vals *v, char *err, size_t errlen);
void mg_opt_vals_free(mg_opt_vals *v);

#endif
