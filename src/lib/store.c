/*
 * libmpiguide's side of the site's profile store (tune/store.h, docs/profile.md): at MPI_Init,
 * when rank 0 has no MPIGUIDE_PROFILE, rank 0 reads the store's `current` link once, finds the
 * profile of this MPI library, process count and layout, and broadcasts the file's path and the
 * release's name; every rank then reads that one file (and the ranks' profile hashes must agree,
 * init.c). A release is immutable and `current` is switched by rename(2): a job that started
 * keeps what it read, a job starting during a switch gets the old release or the new one.
 *
 * Which store: MPIGUIDE_PROFILE_STORE=DIR, else the directory compiled in
 * (MPIGUIDE_PROFILE_STORE_DEFAULT, CMake) when it exists; MPIGUIDE_PROFILE_STORE=none: no store.
 * No profile for this job is silent (a site's users get no warning per job; the trace says
 * why); a broken store (current pointing elsewhere or at a missing release, a file too large)
 * is one warning on rank 0, and the defaults run.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "algs/layout.h"
#include "lib/lib.h"
#include "tune/store.h"

#ifndef MG_PROFILE_STORE_DEFAULT
#define MG_PROFILE_STORE_DEFAULT ""
#endif

const char *mg_store_dir(void) {
  const char *s = getenv("MPIGUIDE_PROFILE_STORE");
  if (s && *s) return strcmp(s, "none") ? s : NULL;
  struct stat st;
  if (MG_PROFILE_STORE_DEFAULT[0] && stat(MG_PROFILE_STORE_DEFAULT, &st) == 0 && S_ISDIR(st.st_mode))
    return MG_PROFILE_STORE_DEFAULT;
  return NULL;
}

/* Rank 0: the store's answer for this job, into p (level, path, release; err for a broken store). */
static void find(mg_store_pick *p, const char *store, const mg_layout *lay) {
  int np = 0, len = 0;
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = "", key[256], dir[MG_STORE_NAME_MAX], rpn[32] = "", rel[PATH_MAX];
  PMPI_Comm_size(MPI_COMM_WORLD, &np);
  snprintf(p->store, sizeof p->store, "%s", store);
  int c = mg_store_current(store, p->release, sizeof p->release, p->err, sizeof p->err);
  if (c != 0) { /* 1: an empty store, no profile; -1: broken, said in err */
    p->release[0] = '\0';
    return;
  }
  PMPI_Get_library_version(lib, &len);
  mg_library_key(lib, key, sizeof key);
  mg_store_dirname(key, dir, sizeof dir);
  if (lay->nnodes > 0) mg_layout_rpn(lay, rpn, sizeof rpn);
  int level = mg_store_find(store, p->release, dir, np, lay->nnodes, rpn, rel, sizeof rel, p->err, sizeof p->err);
  if (level <= 0) return;
  int k = snprintf(p->path, sizeof p->path, "%s/%s", store, rel);
  if (k < 0 || (size_t)k >= sizeof p->path) {
    snprintf(p->err, sizeof p->err, "profile store '%.200s': path too long", store);
    p->path[0] = '\0';
    return;
  }
  p->level = level;
}

int mg_store_pick_profile(int rank, const char *own_profile, mg_store_pick *p) {
  memset(p, 0, sizeof *p);
  const char *store = rank == 0 && !(own_profile && *own_profile) ? mg_store_dir() : NULL;
  int use = store != NULL;
  /* every rank takes part whatever its own environment says: rank 0's answer decides */
  if (PMPI_Bcast(&use, 1, MPI_INT, 0, MPI_COMM_WORLD) != MPI_SUCCESS || !use) return 0;
  mg_layout lay = {0};
  if (mg_layout_collect(MPI_COMM_WORLD, &lay) != MPI_SUCCESS) lay.nnodes = 0;
  if (rank == 0) find(p, store, &lay);
  p->err[sizeof p->err - 1] = '\0';
  if (PMPI_Bcast(p, (int)sizeof *p, MPI_BYTE, 0, MPI_COMM_WORLD) != MPI_SUCCESS) {
    memset(p, 0, sizeof *p);
    return 0;
  }
  p->store[sizeof p->store - 1] = p->release[sizeof p->release - 1] = p->path[sizeof p->path - 1] = '\0';
  if (rank == 0 && p->err[0])
    fprintf(stderr, "mpiguide: warning: %s; the defaults run\n", p->err);
  return p->level > 0;
}
