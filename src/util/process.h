/*
 * What a process can tell about itself before MPI_Init, with libc alone (no MPI): which MPI
 * library its link map holds, its rank from the launcher's environment, whether MPIGUIDE
 * switches mpiguide off; and executing itself again with another LD_PRELOAD. The site shim
 * libmpiguide-preload.so (src/site/preload.c) and libmpiguide's load-time check of the MPI
 * library (src/lib/loadcheck.c) share them (docs/library.md, "Enabling it for a whole site").
 */
#ifndef MG_UTIL_PROCESS_H
#define MG_UTIL_PROCESS_H

/* The shared objects mg_proc_libs() looks for, by file name. */
enum {
  MG_PROC_OPENMPI = 1,    /* libmpi.so.40 (Open MPI 3, 4, 5) */
  MG_PROC_MPICH = 2,      /* libmpich.so.12 (Debian's MPICH), libmpi.so.12 (MPICH built from source) */
  MG_PROC_LIBMPIGUIDE = 4 /* libmpiguide.so* (not libmpiguide-preload.so) */
};

/* Which of them the process has loaded: one walk of the link map (dl_iterate_phdr), no file
 * opened. */
unsigned mg_proc_libs(void);

/* The MPI library of MG_PROC_OPENMPI or MG_PROC_MPICH: "Open MPI", "MPICH". */
const char *mg_proc_mpi_name(unsigned kind);

/* Whether the value of MPIGUIDE switches mpiguide off: "off", "0", "no", "false", in any case;
 * NULL, empty and anything else leave it on. */
int mg_proc_off(const char *value);

/* The process's rank in MPI_COMM_WORLD as its launcher put it into the environment
 * (OMPI_COMM_WORLD_RANK, PMIX_RANK, PMI_RANK, SLURM_PROCID, the first one set), -1 if none is. */
int mg_proc_rank(void);

/* The guards (mg_proc_guarded): the site shim executed this process again with a libmpiguide
 * (src/site/preload.c); libmpiguide executed it again without itself (src/lib/loadcheck.c). */
#define MG_PROC_GUARD_PRELOAD "MPIGUIDE_PRELOAD_EXEC"
#define MG_PROC_GUARD_UNLOAD "MPIGUIDE_UNLOAD_EXEC"

/* Whether GUARD (an environment variable) holds this process's id: mg_proc_reexec(.., GUARD)
 * already ran in this process (an exec keeps the process id; children have their own). */
int mg_proc_guarded(const char *guard);

/* Whether the running executable (/proc/self/exe) is the dynamic loader, run explicitly
 * (`ld.so PROGRAM`): executing /proc/self/exe again would not run the program. */
int mg_proc_exe_is_loader(void);

/* Executes /proc/self/exe again with argv and the environment, LD_PRELOAD set to preload (unset
 * when empty) and GUARD set to this process's id. Returns only on failure: -1, errno set. */
int mg_proc_reexec(char **argv, const char *preload, const char *guard);

#endif
