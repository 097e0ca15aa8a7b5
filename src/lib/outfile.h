/*
 * The files libmpiguide writes at MPI_Finalize (the trace, MPIGUIDE_TRACE; the
 * learned profile, MPIGUIDE_PROFILE_OUT): written whole or not at all, through
 * a temporary beside the file renamed onto it, and the name followed as open()
 * follows it. A name that is a symbolic link (or a chain of them) names the
 * file at its end, which need not exist yet: the temporary goes beside that
 * target and is renamed onto it, so the link stays a link. A target that is no
 * regular file (/dev/null, a FIFO) is written in place. Nothing is left behind
 * on failure: no probe file, no temporary.
 *
 * libc only (libmpiguide's core depends on MPI and libc alone).
 */
#ifndef MG_LIB_OUTFILE_H
#define MG_LIB_OUTFILE_H

#include <stddef.h>
#include <stdio.h>

/* The file path names for writing, as open() resolves it: path itself, or the end of its chain
 * of symbolic links (a relative link read from its link's directory), existing or not. Into
 * out[len]. 0, or an errno (ELOOP: more than 40 links; ENAMETOOLONG). */
int mg_out_target(const char *path, char *out, size_t len);

/* Whether path can be written at MPI_Finalize by mg_out_open and mg_out_commit: its target is
 * not a directory, is writable if it exists, and a temporary can be made beside it (made and removed again; a file that
 * already holds the temporary's name is only opened). 0, or an errno. Leaves no file behind. */
int mg_out_probe(const char *path);

/* Open for writing what path names: the temporary TARGET.tmp (tmp[tmplen] receives its name) or,
 * for a target that is no regular file, the target itself (tmp ""). target[tlen] receives the
 * target. NULL with errno set. */
FILE *mg_out_open(const char *path, char *target, size_t tlen, char *tmp, size_t tmplen);

/* Close f (from mg_out_open) and rename tmp onto target; on any failure (a write error seen by
 * ferror or fclose, the rename) the temporary is removed. 0, or an errno. */
int mg_out_commit(FILE *f, const char *tmp, const char *target);

/* A file name with placeholders (MPIGUIDE_TRACE, MPIGUIDE_PROFILE_OUT), expanded on rank 0 at
 * MPI_Init: %j the job's id (job, NULL: "nojob"), %h the host name (host), %p the process id
 * (pid), %% a '%'. Values are made safe for one path component: every character but letters,
 * digits, '.', '_' and '-' becomes '_' (a leading '.' too). Into out[len]: 0, or -1 with a
 * message in err (an unknown placeholder, a '%' at the end, a result that does not fit). */
int mg_out_expand(const char *pattern, const char *job, const char *host, long pid, char *out, size_t len, char *err,
                  size_t errlen);
/* The job's id from the environment of the batch system that started it: SLURM_JOB_ID, PBS_JOBID
 * (PBS, Torque), LSB_JOBID (LSF), JOB_ID (Grid Engine), FLUX_JOB_ID; NULL outside a job. */
const char *mg_out_job_id(void);

#endif
