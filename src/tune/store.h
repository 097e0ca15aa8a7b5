/*
 * The site's profile store (docs/profile.md, "The site's profile store"): a
 * directory of immutable releases and a symbolic link `current` naming one,
 *
 *   STORE/current -> releases/r0003
 *   STORE/releases/r0003/MANIFEST                    what the release holds, and its parent
 *   STORE/releases/r0003/<library>/np4-2x2.profile   exact: this process count and layout
 *   STORE/releases/r0003/<library>/np4.profile       this process count, any layout
 *   STORE/releases/r0003/<library>/default.profile   this MPI library, any process count
 *
 * <library> is the MPI library's key (mg_library_key: "Open MPI v4.1.4") made safe for a file
 * name (mg_store_dirname: "Open_MPI_v4.1.4"). A job takes the first of the three that exists
 * (mg_store_find); none is no profile, the defaults. `mpiguide site publish` makes a release as a
 * temporary directory renamed into releases/ and then renames a new link over `current`, so a
 * reader of `current` sees the old release or the new one, each complete, never a mix.
 *
 * Pure libc, no MPI: libmpiguide's rank 0 (src/lib/store.c) and `mpiguide site` share it. Every
 * name read from the store is checked (mg_store_name_ok) before it is used in a path: a link or
 * name with "/" or "..", or a link that points elsewhere, is refused.
 */
#ifndef MG_TUNE_STORE_H
#define MG_TUNE_STORE_H

#include <stddef.h>

#define MG_STORE_NAME_MAX 128            /* a release's or a library directory's name, with its NUL */
#define MG_STORE_FILE_MAX ((long)4 << 20) /* a stored profile: larger is no profile a site publishes */
#define MG_STORE_MANIFEST "MANIFEST"     /* in every release: its first line is MG_STORE_MAGIC */
#define MG_STORE_MAGIC "mpiguide-store-release 1"

/* The levels of the search order, most specific first; 0 is no match. */
enum { MG_STORE_NONE = 0, MG_STORE_EXACT = 1, MG_STORE_NP = 2, MG_STORE_LIBRARY = 3 };
/* "exact", "np", "library" ("none" for 0). */
const char *mg_store_level_name(int level);

/* The first clause of an MPI library's version text, blanks folded: "Open MPI v4.1.4", "MPICH
 * Version: 4.0.2" (what a profile's "MPI library:" line and MPI_Get_library_version share). */
void mg_library_key(const char *s, char *out, size_t len);
/* A library key as a directory name: every character but letters, digits, '.' and '-' becomes
 * '_' (runs of them one), leading dots dropped: "Open MPI v4.1.4" -> "Open_MPI_v4.1.4". "" for
 * an empty key. */
void mg_store_dirname(const char *key, char *out, size_t len);
/* 1 when name is safe as one path component of the store: 1 to MG_STORE_NAME_MAX - 1 letters,
 * digits, '.', '_', '-', not starting with '.'. */
int mg_store_name_ok(const char *name);

/* The file of `level` for np processes on nnodes nodes of rpn ranks each ("2", or "1-3" for
 * uneven nodes; exact level only): "np4-2x2.profile", "np4.profile", "default.profile". 0, or -1
 * when it does not fit or rpn is not digits and '-'. */
int mg_store_slot(int level, int np, int nnodes, const char *rpn, char *out, size_t len);

/* Whether STORE/releases/NAME is a release: a safe name, a directory (no link) holding a
 * MANIFEST. 0, or -1 with a message in err. */
int mg_store_release_ok(const char *store, const char *name, char *err, size_t errlen);

/* The release STORE/current names, into rel[len]: the link must read "releases/NAME" with NAME
 * safe, and NAME must be a directory (no link) holding a MANIFEST. 0; 1 when STORE has no current
 * (an empty store); -1 with a message (what, where) in err. */
int mg_store_current(const char *store, char *rel, size_t len, char *err, size_t errlen);

/* The profile a job of library directory libdir (mg_store_dirname), np processes on nnodes x rpn
 * would take from release rel: its path relative to the store ("releases/r0003/Open_MPI_v4.1.4/
 * np4-2x2.profile") in out[len]; returns the level (MG_STORE_EXACT ...), MG_STORE_NONE, or -1
 * with err when the file found is no regular file or larger than MG_STORE_FILE_MAX. nnodes 0:
 * layout unknown (the exact level is skipped). */
int mg_store_find(const char *store, const char *rel, const char *libdir, int np, int nnodes, const char *rpn,
                  char *out, size_t len, char *err, size_t errlen);

#endif
