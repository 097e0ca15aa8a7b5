/*
 * What a result file says about its launch: an id equal on all ranks, rank
 * 0's host name, the date, the MPI library, and the node layout (nodes from
 * MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), and each node's host name and rank count: algs/layout.c),
 * the processor model and the launcher, and under SimGrid's SMPI that the run is simulated, its
 * platform and its collective selector: together a configuration's identity (check/data.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "algs/layout.h"
#include "bench/bench.h"
#include "util/text.h"

/* The machine and launcher part of a configuration's identity (docs/check.md), on rank 0:
 * the processor's "model name" from /proc/cpuinfo, and what started this process, told by
 * its parent (mpirun's daemon orted/prted, Hydra's hydra_pmi_proxy, Slurm's slurmstepd);
 * MPIGUIDE_LAUNCHER, when set, names it instead. Linux only: elsewhere both stay "". */
static void machine_and_launcher(char *cpu, size_t cpulen, char *launcher, size_t llen) {
  char *line = NULL; /* whole lines, at most 1 MiB: a fixed buffer would split a long one */
  size_t cap = 0;
  int nl;
  FILE *f = fopen("/proc/cpuinfo", "r");
  while (f && mg_read_line(f, &line, &cap, &nl) >= 0)
    if (!strncmp(line, "model name", 10) && strchr(line, ':')) {
      const char *v = strchr(line, ':') + 1;
      while (*v == ' ' || *v == '\t') v++;
      snprintf(cpu, cpulen, "%s", v);
      break;
    }
  free(line);
  if (f) fclose(f);
  const char *env = getenv("MPIGUIDE_LAUNCHER");
  if (env && *env) {
    snprintf(launcher, llen, "%s", env);
    return;
  }
  char path[64], comm[64] = "";
  snprintf(path, sizeof path, "/proc/%ld/comm", (long)getppid());
  if ((f = fopen(path, "r"))) {
    if (fgets(comm, sizeof comm, f)) comm[strcspn(comm, "\n")] = '\0';
    fclose(f);
  }
  const char *mpi = getenv("SLURM_MPI_TYPE"); /* srun --mpi=TYPE */
  if (!strcmp(comm, "slurmstepd")) snprintf(launcher, llen, "srun%s%s", mpi && *mpi ? " --mpi=" : "", mpi && *mpi ? mpi : "");
  else if (!strcmp(comm, "orted") || !strcmp(comm, "prted") || !strncmp(comm, "mpirun", 6) || !strcmp(comm, "orterun"))
    snprintf(launcher, llen, "mpirun");
  else if (!strcmp(comm, "hydra_pmi_proxy")) snprintf(launcher, llen, "mpiexec (Hydra)");
  else if (comm[0]) snprintf(launcher, llen, "%s", comm); /* a shell: a singleton; else what it is */
}

/* SimGrid's SMPI (docs/scale.md) runs every rank as a thread of one process, smpimain, which
 * smpirun starts as "smpimain PROGRAM --cfg=... --log=... PLATFORM ARGS..." (smpirun, 3.32): the
 * platform file is the first word after the program that is not an option, the selector the last
 * --cfg=smpi/coll-selector, SMPI's own "default" when none is given. SimGrid's C API reads no string
 * option, so the command line it is (Linux /proc; elsewhere both stay "unknown"). */
void mg_bench_smpi_config(char *platform, size_t plen, char *selector, size_t slen) {
  static const char sel[] = "--cfg=smpi/coll-selector:";
  char buf[16384];
  snprintf(platform, plen, "unknown");
  snprintf(selector, slen, "default");
  FILE *f = fopen("/proc/self/cmdline", "rb");
  if (!f) {
    snprintf(selector, slen, "unknown");
    return;
  }
  size_t n = fread(buf, 1, sizeof buf - 1, f);
  fclose(f);
  buf[n] = '\0';
  int word = 0;
  for (size_t i = 0; i < n; i += strlen(buf + i) + 1, word++) {
    const char *w = buf + i;
    if (word < 2) continue; /* smpimain, the program */
    if (!strncmp(w, sel, sizeof sel - 1)) {
      snprintf(selector, slen, "%s", w + sizeof sel - 1);
    } else if (strncmp(w, "--", 2)) {
      const char *base = strrchr(w, '/');
      snprintf(platform, plen, "%s", base ? base + 1 : w);
      break; /* the program's own arguments follow */
    }
  }
}

int mg_bench_meta_collect(MPI_Comm comm, mg_bench_meta *m) {
  int rc, rank;
  memset(m, 0, sizeof *m);
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &m->nprocs);

  /* launch id, host, date: rank 0's, broadcast */
  struct {
    char launch[32], host[256], date[40];
  } id;
  memset(&id, 0, sizeof id);
  if (rank == 0) {
    struct timespec ts;
    /* (clock_gettime): the real clock even under SMPI, whose smpicc redefines clock_gettime as a
     * function-like macro (smpi/smpi_helpers.h) to give simulated time, which starts at 0 in every
     * run: the date would be 1970 and launches of two runs would share an id. */
    (clock_gettime)(CLOCK_REALTIME, &ts);
    snprintf(id.launch, sizeof id.launch, "%010llx%06lx", (unsigned long long)ts.tv_sec,
             ((unsigned long)getpid() ^ (unsigned long)(ts.tv_nsec >> 10)) & 0xffffffUL);
    mg_layout_host(id.host, sizeof id.host); /* under SMPI: rank 0's simulated host */
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    strftime(id.date, sizeof id.date, "%Y-%m-%dT%H:%M:%SZ", &tm);
  }
  if ((rc = PMPI_Bcast(&id, (int)sizeof id, MPI_BYTE, 0, comm)) != MPI_SUCCESS) return rc;
  memcpy(m->launch, id.launch, sizeof m->launch);
  memcpy(m->hostname, id.host, sizeof m->hostname);
  memcpy(m->date, id.date, sizeof m->date);

  int len = 0, major = 0, minor = 0;
  char lib[MPI_MAX_LIBRARY_VERSION_STRING];
  PMPI_Get_library_version(lib, &len);
  lib[len < MPI_MAX_LIBRARY_VERSION_STRING ? len : MPI_MAX_LIBRARY_VERSION_STRING - 1] = '\0';
  while (len > 0 && (lib[len - 1] == '\n' || lib[len - 1] == ' ' || lib[len - 1] == '\0')) lib[--len] = '\0';
  snprintf(m->mpi_library, sizeof m->mpi_library, "%s", lib);
  snprintf(m->mpi_name, sizeof m->mpi_name, "%s",
           strstr(lib, "SMPI Version") ? "SMPI"
           : strstr(lib, "Open MPI") ? "Open MPI"
           : strstr(lib, "MVAPICH") ? "MVAPICH"
           : strstr(lib, "Intel") ? "Intel MPI"
           : strstr(lib, "MPICH") ? "MPICH"
                                   : "unknown");
  if ((m->simulated = !strcmp(m->mpi_name, "SMPI"))) { /* the same on every rank: one process */
    if (rank == 0) mg_bench_smpi_config(m->sim_platform, sizeof m->sim_platform, m->sim_selector, sizeof m->sim_selector);
    if ((rc = PMPI_Bcast(m->sim_platform, (int)sizeof m->sim_platform, MPI_CHAR, 0, comm)) != MPI_SUCCESS ||
        (rc = PMPI_Bcast(m->sim_selector, (int)sizeof m->sim_selector, MPI_CHAR, 0, comm)) != MPI_SUCCESS)
      return rc;
  }
  PMPI_Get_version(&major, &minor);
  snprintf(m->mpi_standard, sizeof m->mpi_standard, "%d.%d", major, minor);

  mg_layout l; /* the node layout, as libmpiguide's trace records it too (algs/layout.c) */
  if ((rc = mg_layout_collect(comm, &l)) != MPI_SUCCESS) return rc;
  m->nnodes = l.nnodes;
  m->rpn_min = l.rpn_min;
  m->rpn_max = l.rpn_max;
  _Static_assert(sizeof m->hosts == sizeof l.hosts, "mg_bench_meta.hosts and mg_layout.hosts differ");
  memcpy(m->hosts, l.hosts, sizeof m->hosts);
  memcpy(m->hosts_shared, l.shared, sizeof m->hosts_shared);

  struct {
    char cpu[sizeof m->cpu_model], launcher[sizeof m->launcher];
  } ml;
  memset(&ml, 0, sizeof ml);
  if (rank == 0) machine_and_launcher(ml.cpu, sizeof ml.cpu, ml.launcher, sizeof ml.launcher);
  if ((rc = PMPI_Bcast(&ml, (int)sizeof ml, MPI_BYTE, 0, comm)) != MPI_SUCCESS) return rc;
  memcpy(m->cpu_model, ml.cpu, sizeof m->cpu_model);
  memcpy(m->launcher, ml.launcher, sizeof m->launcher);
  return MPI_SUCCESS;
}
