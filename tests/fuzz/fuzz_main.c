/*
 * The libFuzzer entry point of every fuzz target (docs/fuzzing.md): built once per reader with
 * -DMG_FZ_TARGET=mg_fz_<name>, it writes each input to a file of the reader's name in a directory
 * of its own (/dev/shm) and runs that reader and its invariants on it (fuzz.h). A broken
 * invariant aborts; the sanitizers report the rest.
 */
#include <stddef.h>
#include <stdint.h>

#include "fuzz.h"

#ifndef MG_FZ_TARGET
#error "build with -DMG_FZ_TARGET=mg_fz_<reader>"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static char path[4096];
  mg_fz_read r;
  mg_fz_write(MG_FZ_TARGET.file_name, data, size, path, sizeof path);
  MG_FZ_TARGET.read(path, &r);
  return 0;
}
