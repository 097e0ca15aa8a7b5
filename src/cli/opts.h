/*
 * Command-line options of the mpiguide subcommands: "--name value",
 * "--name=value", "-x value" and flags, from a table of options.
 */
#ifndef MG_CLI_OPTS_H
#define MG_CLI_OPTS_H

#include <stddef.h>

typedef struct mg_opt {
  const char *name; /* long name without "--" */
  char shrt;        /* short letter, 0 if none */
  int arg;          /* takes a value */
} mg_opt;

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

#endif
