/*
 * Fuzz target `repro`: ReproMPI/PGChecker data files (src/check/read_repro.c through mg_ck_read,
 * which goes by the file name data_<MPI_Coll>_<variant>.dat). The invariants of rawcsv.c: a
 * refused file leaves the data as it was, with a message naming the file; accepted data has
 * finite runtimes >= 0 and clean numeric metadata.
 */
#include "fuzz.h"

const mg_fz_reader mg_fz_repro = {"repro", "data_MPI_Bcast_bcast_as_allgatherv.dat",
                                  "mg_ck_read (data.c, read_repro.c)", mg_fz_ck_read};
