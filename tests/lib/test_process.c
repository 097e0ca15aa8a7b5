/*
 * Unit tests of src/util/process.c, what the site shim and libmpiguide's load-time check know of
 * a process before MPI_Init. No MPI: this program links util alone, so its link map holds no MPI
 * library.
 *
 * Decisions the tests pin down:
 * - MPIGUIDE is off for "off", "0", "no", "false" in any case, and for nothing else ("", "on",
 *   "offf", " off" leave it on);
 * - the rank comes from the first of OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK, SLURM_PROCID that
 *   is set and non-empty; one that is not a non-negative number is skipped; none gives -1;
 * - executing again keeps the arguments and every other variable, sets LD_PRELOAD (or unsets it
 *   for an empty one) and the guard to the process id, which the new image sees as guarded.
 */
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/test.h"
#include "util/process.h"

#define GUARD "MG_TEST_PROCESS_GUARD"

/* The image after mg_proc_reexec: says what it sees, as the exit status (0: as expected). */
static int child(const char *want_preload) {
  const char *pre = getenv("LD_PRELOAD"), *keep = getenv("MG_TEST_KEEP");
  int ok = mg_proc_guarded(GUARD) && keep && strcmp(keep, "kept") == 0;
  ok = ok && (*want_preload ? pre && strcmp(pre, want_preload) == 0 : pre == NULL);
  return ok ? 0 : 3;
}

/* Forks, runs mg_proc_reexec(argv of "--child WANT", preload) in the child: its exit status. */
static int reexec(const char *self, const char *preload, const char *want) {
  pid_t pid = fork();
  if (pid == 0) {
    char *argv[] = {(char *)self, "--child", (char *)want, NULL};
    setenv("MG_TEST_KEEP", "kept", 1);
    setenv("LD_PRELOAD", "libdl.so.2", 1); /* replaced, never kept beside */
    setenv(GUARD, "1", 1);                  /* another process's id: replaced */
    mg_proc_reexec(argv, preload, GUARD);
    _exit(4); /* exec failed */
  }
  int st = 0;
  waitpid(pid, &st, 0);
  return WIFEXITED(st) ? WEXITSTATUS(st) : 5;
}

int main(int argc, char **argv) {
  if (argc == 3 && strcmp(argv[1], "--child") == 0) return child(argv[2]);

  TEST_CASE("off");
  static const char *const off[] = {"off", "OFF", "Off", "0", "no", "NO", "false", "False"};
  static const char *const on[] = {"", "on", "1", "yes", "offf", " off", "of", "true", "00"};
  for (size_t i = 0; i < sizeof off / sizeof *off; i++) ASSERT_MSG(mg_proc_off(off[i]), "'%s' is off", off[i]);
  for (size_t i = 0; i < sizeof on / sizeof *on; i++) ASSERT_MSG(!mg_proc_off(on[i]), "'%s' is on", on[i]);
  ASSERT_TRUE(!mg_proc_off(NULL));

  TEST_CASE("rank");
  static const char *const vars[] = {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"};
  for (size_t i = 0; i < 4; i++) unsetenv(vars[i]);
  ASSERT_EQ(mg_proc_rank(), -1);
  setenv("SLURM_PROCID", "7", 1);
  ASSERT_EQ(mg_proc_rank(), 7);
  setenv("PMI_RANK", "3", 1);
  ASSERT_EQ(mg_proc_rank(), 3);
  setenv("OMPI_COMM_WORLD_RANK", "0", 1);
  ASSERT_EQ(mg_proc_rank(), 0);
  setenv("OMPI_COMM_WORLD_RANK", "", 1); /* empty: the next one */
  ASSERT_EQ(mg_proc_rank(), 3);
  setenv("PMIX_RANK", "x1", 1); /* not a number: skipped */
  setenv("PMI_RANK", "-2", 1);
  ASSERT_EQ(mg_proc_rank(), 7);
  setenv("SLURM_PROCID", "99999999999999999999", 1);
  ASSERT_EQ(mg_proc_rank(), -1);
  for (size_t i = 0; i < 4; i++) unsetenv(vars[i]);

  TEST_CASE("libs");
  ASSERT_EQ_U(mg_proc_libs(), 0u); /* util and libc: no MPI library, no libmpiguide */
  ASSERT_TRUE(!mg_proc_exe_is_loader());
  ASSERT_STR_EQ(mg_proc_mpi_name(MG_PROC_OPENMPI), "Open MPI");
  ASSERT_STR_EQ(mg_proc_mpi_name(MG_PROC_MPICH), "MPICH");

  TEST_CASE("guard");
  unsetenv(GUARD);
  ASSERT_TRUE(!mg_proc_guarded(GUARD));
  char pid[24];
  snprintf(pid, sizeof pid, "%ld", (long)getpid());
  setenv(GUARD, pid, 1);
  ASSERT_TRUE(mg_proc_guarded(GUARD));
  strcat(pid, "x");
  setenv(GUARD, pid, 1);
  ASSERT_TRUE(!mg_proc_guarded(GUARD));
  unsetenv(GUARD);

  TEST_CASE("reexec");
  ASSERT_EQ(reexec(argv[0], "libc.so.6 libm.so.6", "libc.so.6 libm.so.6"), 0); /* names the loader finds */
  ASSERT_EQ(reexec(argv[0], "", ""), 0); /* empty: LD_PRELOAD unset */
  return mg_test_summary("test_process");
}
