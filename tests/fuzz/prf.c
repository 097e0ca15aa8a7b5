/*
 * Fuzz target `prf`: the import of PGMPITuneLib .prf profiles (src/tune/prf.c through
 * mg_profile_import_prf). The invariants of profile.c: a refusal returns nothing and names the
 * file; an imported profile writes as mpiguide text that reads back with the same hash, rules
 * and decisions.
 */
#include "fuzz.h"

static void read_prf(const char *path, mg_fz_read *r) { mg_fz_profile_read(path, 1, r); }

const mg_fz_reader mg_fz_prf = {"prf", "fuzz.prf", "mg_profile_import_prf (prf.c)", read_prf};
