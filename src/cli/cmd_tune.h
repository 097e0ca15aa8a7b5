/*
 * What `mpiguide tune` (cmd_tune.c, cmd_tune_rules.c, cmd_tune_drop.c) shares with `mpiguide verify` (cmd_verify.c): naming a
 * profile's rule the way the profile writes it, and finding the rule that covers a cell, so that
 * verify's advice ("drop the rule at FILE:LINE") and `tune --drop-slower` name the same rule.
 */
#ifndef MG_CLI_CMD_TUNE_H
#define MG_CLI_CMD_TUNE_H

#include <stddef.h>

#include "tune/profile.h"

/* A rule's size range as the profile writes it: "64K" or "64-128". */
void mg_cmd_rule_range_str(const mg_profile_rule *ru, char *buf, size_t len);
/* A rule's selectors as the profile writes them: "", " type=float op=sum". */
void mg_cmd_rule_sel_str(const mg_profile_rule *ru, char *buf, size_t len);
/* The rule as a profile line: "bcast np=4 64-128 bcast_as_allgatherv". */
void mg_cmd_rule_str(const mg_profile_rule *ru, char *buf, size_t len);

/* The index (for mg_profile_rule_at) of the rule of p covering (coll, nprocs, bytes), or -1.
 * Where process-count ranges nest, the narrowest one (the one lookups use). */
int mg_cmd_rule_find(const mg_profile *p, mg_coll coll, int nprocs, size_t bytes, const char *red);

/* The profile written to path (cmd_tune.c): 0, or 1 after a message. */
int mg_cmd_tune_write_profile(const mg_profile *p, const char *path);
/* tune --drop-slower / --drop-unconfirmed, verify --write-confirmed (cmd_tune_drop.c): the profile
 * verified in dir (dir/verify.csv, or the launches of verify --launches: dir/launch-K/verify.csv;
 * profile: another path than its verify.csv's #@profile, or NULL) without the rules verify measured
 * slower, or (unconfirmed) keeping only those it found faster at every size measured (in every
 * launch), with the preamble line "verify: confirmed K of N rules, ...", into out. cmd names the
 * command in messages ("tune", "verify"). Exit code. */
int mg_cmd_tune_drop(const char *cmd, const char *dir, const char *profile, const char *out, int unconfirmed,
                     int quiet);

/* The help of mpiguide verify (cmd_verify_help.c). */
extern const char mg_verify_usage_text[];

#endif
