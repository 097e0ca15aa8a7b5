/*
 * A plain MPI program for the site shim (run_preload.sh site): rank 0 prints whether libmpiguide
 * is mapped into it ("self=1"), the LD_PRELOAD its children inherit, and whether libmpiguide is
 * mapped into a shell it starts ("child=0": the shim gave it back its LD_PRELOAD). Knows nothing
 * of mpiguide; its arguments are ignored.
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Whether a line of /proc/self/maps names libmpiguide.so (not libmpiguide-preload.so). */
static int mapped(void) {
  FILE *f = fopen("/proc/self/maps", "r");
  char line[4096];
  int found = 0;
  while (f && fgets(line, sizeof line, f)) found |= strstr(line, "libmpiguide.so") != NULL;
  if (f) fclose(f);
  return found;
}

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    const char *pre = getenv("LD_PRELOAD");
    printf("self=%d\nchild_preload=%s\n", mapped(), pre ? pre : "");
    fflush(stdout);
    if (system("echo child=$(grep -c 'libmpiguide[.]so' /proc/$$/maps)") != 0) printf("child=failed\n");
  }
  MPI_Finalize();
  return 0;
}
