/*
 * The mpiguide command: one function per subcommand, each taking the
 * arguments after the subcommand name and returning the process exit code.
 */
#ifndef MG_CLI_H
#define MG_CLI_H

#include <stdio.h>

int mg_cmd_list(int argc, char **argv);
int mg_cmd_profile(int argc, char **argv);
int mg_cmd_bench(int argc, char **argv);
int mg_cmd_predict(int argc, char **argv);
int mg_cmd_check(int argc, char **argv);
int mg_cmd_report(int argc, char **argv);
int mg_cmd_tune(int argc, char **argv);
int mg_cmd_verify(int argc, char **argv);
int mg_cmd_env(int argc, char **argv);
int mg_cmd_libvars(int argc, char **argv);
int mg_cmd_site(int argc, char **argv); /* cmd_site.c: the site's profile store */
/* `verify --lib-settings FILE -o DIR -- LAUNCHER...` (cmd_verify_lib.c). */
int mg_cmd_verify_lib(int argc, char **argv);
/* `verify --launches N ... -o DIR -- LAUNCHER...` (cmd_verify_launches.c); dd: the index of "--" (argc: none). */
int mg_cmd_verify_launches(int argc, char **argv, int dd);
int mg_cmd_loggp(int argc, char **argv);
int mg_cmd_hotspots(int argc, char **argv);
/* `campaign SPEC`: configurations (libraries x layouts) measured into one tree (cmd_campaign.c). */
int mg_cmd_campaign(int argc, char **argv);
/* "Documentation: <where this mpiguide's docs are>" (cmd_env.c). */
void mg_cmd_docs_hint(FILE *f);

#endif
