/*
 * The MPI tool information interface (MPI_T) for builds with SimGrid's smpicc (build/smpi,
 * docs/scale.md). SMPI 3.32 implements no MPI_T function: its mpi.h declares none of them and
 * defines only the MPI_T_ERR_* codes (/usr/include/smpi/smpi.h). Its collective algorithms are
 * chosen by its configuration instead (--cfg=smpi/coll-selector:..., --cfg=smpi/allreduce:...),
 * not by control variables, so the library variants of src/bench/libvar.c have nothing to read.
 *
 * This header is force-included (-include) into every C file of the smpi build only
 * (CMakeLists.txt, MPIGUIDE_SMPI); it declares the few MPI_T names src/ uses and makes every
 * call fail with MPI_T_ERR_CANNOT_INIT, so `mpiguide check --lib-variants` and `mpiguide
 * libvars` say that the variants cannot be read, as under an MPI built without MPI_T.
 */
#ifndef MG_SIM_SMPI_MPIT_H
#define MG_SIM_SMPI_MPIT_H

#include <mpi.h>


typedef struct mg_smpi_mpit_enum *MPI_T_enum;
typedef struct mg_smpi_mpit_cvar *MPI_T_cvar_handle;
#define MPI_T_ENUM_NULL ((MPI_T_enum)0)

static inline int MPI_T_init_thread(int required, int *provided) {
  (void)required;
  *provided = MPI_THREAD_SINGLE;
  return MPI_T_ERR_CANNOT_INIT;
}
static inline int MPI_T_cvar_get_num(int *num) {
  *num = 0;
  return MPI_T_ERR_NOT_INITIALIZED;
}
static inline int MPI_T_cvar_get_index(const char *name, int *idx) {
  (void)name;
  *idx = -1;
  return MPI_T_ERR_NOT_INITIALIZED;
}
static inline int MPI_T_cvar_get_info(int idx, char *name, int *nl, int *verb, MPI_Datatype *dt, MPI_T_enum *en,
                                      char *desc, int *dl, int *bind, int *scope) {
  (void)idx, (void)name, (void)nl, (void)verb, (void)dt, (void)desc, (void)dl, (void)bind, (void)scope;
  *en = MPI_T_ENUM_NULL;
  return MPI_T_ERR_NOT_INITIALIZED;
}
static inline int MPI_T_cvar_handle_alloc(int idx, void *obj, MPI_T_cvar_handle *h, int *count) {
  (void)idx, (void)obj, (void)count;
  *h = 0;
  return MPI_T_ERR_NOT_INITIALIZED;
}
static inline int MPI_T_cvar_read(MPI_T_cvar_handle h, void *buf) {
  (void)h, (void)buf;
  return MPI_T_ERR_NOT_INITIALIZED;
}
static inline int MPI_T_cvar_write(MPI_T_cvar_handle h, const void *buf) {
  (void)h, (void)buf;
  return MPI_T_ERR_NOT_INITIALIZED;
}
static inline int MPI_T_cvar_handle_free(MPI_T_cvar_handle *h) {
  *h = 0;
  return MPI_T_ERR_NOT_INITIALIZED;
}
static inline int MPI_T_enum_get_info(MPI_T_enum en, int *num, char *name, int *nl) {
  (void)en, (void)name, (void)nl;
  *num = 0;
  return MPI_T_ERR_NOT_INITIALIZED;
}
static inline int MPI_T_enum_get_item(MPI_T_enum en, int i, int *value, char *name, int *nl) {
  (void)en, (void)i, (void)value, (void)name, (void)nl;
  return MPI_T_ERR_NOT_INITIALIZED;
}

#endif
