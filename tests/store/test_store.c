/*
 * Unit tests of the site's profile store without MPI: names (tune/store.c: mg_library_key,
 * mg_store_dirname, mg_store_name_ok, mg_store_slot), the `current` link (refused when it points
 * outside the store, at a missing release, at one without MANIFEST, or is no link), the search
 * order (exact, np, library; the first found wins; a file too large or no regular file is an
 * error), and the placeholders of MPIGUIDE_TRACE (lib/outfile.c: mg_out_expand).
 *
 *   mg_test_store DIR     DIR: an empty scratch directory
 */
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/test.h"
#include "lib/outfile.h"
#include "tune/store.h"

static char err[2048];

static void touch(const char *path) {
  FILE *f = fopen(path, "w");
  if (f) fputs("mpiguide-profile 3\nend-of-profile rules=0\n", f), fclose(f);
  ASSERT_MSG(f != NULL, "cannot create %s", path);
}

static void names(void) {
  char k[256], d[MG_STORE_NAME_MAX], s[96];
  TEST_CASE("library key");
  mg_library_key("Open MPI v4.1.4, package: Debian OpenMPI, ident: 4.1.4", k, sizeof k);
  ASSERT_STR_EQ(k, "Open MPI v4.1.4");
  mg_library_key("  MPICH   Version:\t4.0.2\nMPICH Release date: ...", k, sizeof k);
  ASSERT_STR_EQ(k, "MPICH Version: 4.0.2");
  TEST_CASE("directory name");
  mg_store_dirname("Open MPI v4.1.4", d, sizeof d);
  ASSERT_STR_EQ(d, "Open_MPI_v4.1.4");
  mg_store_dirname("MPICH Version: 4.0.2", d, sizeof d);
  ASSERT_STR_EQ(d, "MPICH_Version_4.0.2");
  mg_store_dirname("../../etc/passwd", d, sizeof d); /* no separator, no leading dot survives */
  ASSERT_STR_EQ(d, "_.._etc_passwd");
  ASSERT_TRUE(mg_store_name_ok(d));
  TEST_CASE("safe names");
  ASSERT_TRUE(mg_store_name_ok("r0001"));
  ASSERT_TRUE(!mg_store_name_ok(""));
  ASSERT_TRUE(!mg_store_name_ok(".."));
  ASSERT_TRUE(!mg_store_name_ok(".tmp-r0002-77"));
  ASSERT_TRUE(!mg_store_name_ok("a/b"));
  ASSERT_TRUE(!mg_store_name_ok("r 1"));
  TEST_CASE("slots");
  ASSERT_EQ(mg_store_slot(MG_STORE_EXACT, 4, 2, "2", s, sizeof s), 0);
  ASSERT_STR_EQ(s, "np4-2x2.profile");
  ASSERT_EQ(mg_store_slot(MG_STORE_EXACT, 4, 2, "1-3", s, sizeof s), 0);
  ASSERT_STR_EQ(s, "np4-2x1-3.profile");
  ASSERT_EQ(mg_store_slot(MG_STORE_EXACT, 4, 2, "../x", s, sizeof s), -1);
  ASSERT_EQ(mg_store_slot(MG_STORE_EXACT, 4, 0, "", s, sizeof s), -1); /* layout unknown: no exact slot */
  ASSERT_EQ(mg_store_slot(MG_STORE_NP, 4, 0, "", s, sizeof s), 0);
  ASSERT_STR_EQ(s, "np4.profile");
  ASSERT_EQ(mg_store_slot(MG_STORE_LIBRARY, 4, 0, "", s, sizeof s), 0);
  ASSERT_STR_EQ(s, "default.profile");
}

static void current_link(const char *dir) {
  char store[PATH_MAX], p[PATH_MAX + 64], rel[MG_STORE_NAME_MAX];
  snprintf(store, sizeof store, "%s/links", dir);
  mkdir(store, 0755);
  TEST_CASE("empty store");
  ASSERT_EQ(mg_store_current(store, rel, sizeof rel, err, sizeof err), 1);
  snprintf(p, sizeof p, "%s/releases", store);
  mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/releases/r0001", store);
  mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/current", store);
  TEST_CASE("release without MANIFEST");
  ASSERT_EQ(symlink("releases/r0001", p), 0);
  ASSERT_EQ(mg_store_current(store, rel, sizeof rel, err, sizeof err), -1);
  ASSERT_CONTAINS(err, "has no MANIFEST");
  TEST_CASE("a release");
  snprintf(p, sizeof p, "%s/releases/r0001/MANIFEST", store);
  touch(p);
  ASSERT_EQ(mg_store_current(store, rel, sizeof rel, err, sizeof err), 0);
  ASSERT_STR_EQ(rel, "r0001");
  static const char *const bad[] = {"/etc", "releases/../../x", "releases/r0009", "../outside/releases/r0001",
                                    "releases/", "releases/r0001/"};
  static const char *const says[] = {"not a release of the store", "not a release of the store", "missing",
                                     "not a release of the store", "not a release of the store",
                                     "not a release of the store"};
  for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
    TEST_CASE(bad[i]);
    snprintf(p, sizeof p, "%s/current", store);
    unlink(p);
    ASSERT_EQ(symlink(bad[i], p), 0);
    ASSERT_EQ(mg_store_current(store, rel, sizeof rel, err, sizeof err), -1);
    ASSERT_CONTAINS(err, says[i]);
  }
  TEST_CASE("a release that is a link");
  snprintf(p, sizeof p, "%s/releases/r0002", store);
  ASSERT_EQ(symlink("/tmp", p), 0);
  snprintf(p, sizeof p, "%s/current", store);
  unlink(p);
  ASSERT_EQ(symlink("releases/r0002", p), 0);
  ASSERT_EQ(mg_store_current(store, rel, sizeof rel, err, sizeof err), -1);
  ASSERT_CONTAINS(err, "no directory");
  TEST_CASE("current a file");
  unlink(p);
  touch(p);
  ASSERT_EQ(mg_store_current(store, rel, sizeof rel, err, sizeof err), -1);
  ASSERT_CONTAINS(err, "not a symbolic link");
}

static void search(const char *dir) {
  char store[PATH_MAX], p[PATH_MAX + 128], out[PATH_MAX];
  snprintf(store, sizeof store, "%s/search", dir);
  mkdir(store, 0755);
  snprintf(p, sizeof p, "%s/releases", store);
  mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/releases/r0001", store);
  mkdir(p, 0755);
  snprintf(p, sizeof p, "%s/releases/r0001/Lib_v1", store);
  mkdir(p, 0755);
  TEST_CASE("nothing");
  ASSERT_EQ(mg_store_find(store, "r0001", "Lib_v1", 4, 2, "2", out, sizeof out, err, sizeof err), MG_STORE_NONE);
  TEST_CASE("library");
  snprintf(p, sizeof p, "%s/releases/r0001/Lib_v1/default.profile", store);
  touch(p);
  ASSERT_EQ(mg_store_find(store, "r0001", "Lib_v1", 4, 2, "2", out, sizeof out, err, sizeof err), MG_STORE_LIBRARY);
  ASSERT_STR_EQ(out, "releases/r0001/Lib_v1/default.profile");
  ASSERT_EQ(mg_store_find(store, "r0001", "Other_v2", 4, 2, "2", out, sizeof out, err, sizeof err), MG_STORE_NONE);
  TEST_CASE("np before library");
  snprintf(p, sizeof p, "%s/releases/r0001/Lib_v1/np4.profile", store);
  touch(p);
  ASSERT_EQ(mg_store_find(store, "r0001", "Lib_v1", 4, 2, "2", out, sizeof out, err, sizeof err), MG_STORE_NP);
  ASSERT_STR_EQ(out, "releases/r0001/Lib_v1/np4.profile");
  ASSERT_EQ(mg_store_find(store, "r0001", "Lib_v1", 8, 2, "4", out, sizeof out, err, sizeof err), MG_STORE_LIBRARY);
  TEST_CASE("exact before np");
  snprintf(p, sizeof p, "%s/releases/r0001/Lib_v1/np4-2x2.profile", store);
  touch(p);
  ASSERT_EQ(mg_store_find(store, "r0001", "Lib_v1", 4, 2, "2", out, sizeof out, err, sizeof err), MG_STORE_EXACT);
  ASSERT_STR_EQ(out, "releases/r0001/Lib_v1/np4-2x2.profile");
  ASSERT_EQ(mg_store_find(store, "r0001", "Lib_v1", 4, 1, "4", out, sizeof out, err, sizeof err), MG_STORE_NP);
  ASSERT_EQ(mg_store_find(store, "r0001", "Lib_v1", 4, 0, "", out, sizeof out, err, sizeof err), MG_STORE_NP);
  TEST_CASE("unsafe names find nothing");
  ASSERT_EQ(mg_store_find(store, "../r0001", "Lib_v1", 4, 2, "2", out, sizeof out, err, sizeof err), MG_STORE_NONE);
  ASSERT_EQ(mg_store_find(store, "r0001", "..", 4, 2, "2", out, sizeof out, err, sizeof err), MG_STORE_NONE);
  TEST_CASE("a file too large");
  snprintf(p, sizeof p, "%s/releases/r0001/Lib_v1/np4-2x2.profile", store);
  ASSERT_EQ(truncate(p, MG_STORE_FILE_MAX + 1), 0);
  ASSERT_EQ(mg_store_find(store, "r0001", "Lib_v1", 4, 2, "2", out, sizeof out, err, sizeof err), -1);
  ASSERT_CONTAINS(err, "larger than 4 MiB");
  TEST_CASE("a link in a release");
  unlink(p);
  ASSERT_EQ(symlink("/etc/passwd", p), 0);
  ASSERT_EQ(mg_store_find(store, "r0001", "Lib_v1", 4, 2, "2", out, sizeof out, err, sizeof err), -1);
  ASSERT_CONTAINS(err, "no regular file");
}

static void placeholders(void) {
  char out[64];
  TEST_CASE("expand");
  ASSERT_EQ(mg_out_expand("t-%j-%h-%p.csv", "4711", "node01", 123, out, sizeof out, err, sizeof err), 0);
  ASSERT_STR_EQ(out, "t-4711-node01-123.csv");
  ASSERT_EQ(mg_out_expand("/d/%%j-%j", NULL, "h", 1, out, sizeof out, err, sizeof err), 0);
  ASSERT_STR_EQ(out, "/d/%j-nojob");
  TEST_CASE("values safe for a file name");
  ASSERT_EQ(mg_out_expand("t-%j-%h", "12.pbs/../x y", ".hidden", 1, out, sizeof out, err, sizeof err), 0);
  ASSERT_STR_EQ(out, "t-12.pbs_.._x_y-_hidden");
  TEST_CASE("no placeholder: unchanged");
  ASSERT_EQ(mg_out_expand("/tmp/trace.csv", "1", "h", 1, out, sizeof out, err, sizeof err), 0);
  ASSERT_STR_EQ(out, "/tmp/trace.csv");
  TEST_CASE("bad placeholders");
  ASSERT_EQ(mg_out_expand("t-%q.csv", "1", "h", 1, out, sizeof out, err, sizeof err), -1);
  ASSERT_CONTAINS(err, "unknown placeholder '%q'");
  ASSERT_EQ(mg_out_expand("t-%", "1", "h", 1, out, sizeof out, err, sizeof err), -1);
  ASSERT_CONTAINS(err, "at the end");
  ASSERT_EQ(mg_out_expand("%h%h%h%h%h%h%h%h", "1", "0123456789", 1, out, sizeof out, err, sizeof err), -1);
  ASSERT_CONTAINS(err, "longer than 63");
  TEST_CASE("job id from the batch system");
  unsetenv("SLURM_JOB_ID");
  unsetenv("PBS_JOBID");
  unsetenv("LSB_JOBID");
  unsetenv("JOB_ID");
  unsetenv("FLUX_JOB_ID");
  ASSERT_TRUE(mg_out_job_id() == NULL);
  setenv("PBS_JOBID", "77.server", 1);
  ASSERT_STR_EQ(mg_out_job_id(), "77.server");
  setenv("SLURM_JOB_ID", "99", 1); /* Slurm first */
  ASSERT_STR_EQ(mg_out_job_id(), "99");
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: mg_test_store SCRATCH_DIR\n");
    return 2;
  }
  names();
  current_link(argv[1]);
  search(argv[1]);
  placeholders();
  return mg_test_summary("test_store");
}
