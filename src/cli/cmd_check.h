/*
 * What the parts of `mpiguide check` share (cmd_check.c: options, measurement,
 * analysis; cmd_check_help.c: presets and help; cmd_check_launches.c: the
 * driver of --launches).
 */
#ifndef MG_CLI_CMD_CHECK_H
#define MG_CLI_CMD_CHECK_H

#include <stdio.h>

#include "registry/registry.h"

typedef struct mg_check_preset {
  const char *name;
  const char *block_sizes, *vector_sizes;
  double rse;
  long min_nrep, max_nrep;
  double budget; /* seconds for the whole measurement, 0: none */
  int warmup;
} mg_check_preset;

/* --quick (full = 0, the default) or --full. */
const mg_check_preset *mg_check_preset_of(int full);
/* Whether c's message size is the whole vector (the large size range) or a per-rank block. */
int mg_check_whole_vector(mg_coll c);
void mg_check_print_usage(FILE *f);
void mg_check_print_presets_md(FILE *f);

/* --launches (cmd_check_launches.c): the arguments, split by where they go. */
typedef struct mg_check_launch_args {
  int n;                 /* launches */
  const char *out;       /* DIR */
  int force;
  char **launcher;       /* after "--" */
  int nlauncher;
  char **measure;        /* options for every launch */
  int nmeasure;
  char **analysis;       /* options for the joint analysis */
  int nanalysis;
} mg_check_launch_args;

/* Run the launches and analyse them together; the exit code of `check`. */
int mg_check_launches(const mg_check_launch_args *a);

#endif
