/*
 * The validate front end as a program, for the CLI tests here until
 * `mpiguide profile validate` calls mg_profile_validate_main itself.
 */
#include "tune/profile.h"

int main(int argc, char **argv) { return mg_profile_validate_main(argc, argv); }
