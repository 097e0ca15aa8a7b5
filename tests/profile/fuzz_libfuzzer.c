/*
 * libFuzzer target for the profile readers (optional; clang only):
 *
 *   cmake -S . -B build/fuzz -DCMAKE_C_COMPILER=clang -DMPI_C_COMPILER=mpicc.openmpi \
 *         -DMPIEXEC_EXECUTABLE=/usr/bin/mpirun.openmpi -DMPIGUIDE_FUZZ=ON
 *   cmake --build build/fuzz --target fuzz_libfuzzer
 *   tests/profile/make_fuzz_corpus.sh /tmp/corpus
 *   build/fuzz/tests/profile/fuzz_libfuzzer -max_total_time=60 /tmp/corpus
 *
 * The first byte picks the reader (even, e.g. '0': mpiguide format; odd, e.g.
 * '1': .prf), the rest is the input. An accepted profile must survive a
 * write/read round trip with the same hash and decisions; anything else is
 * reported by the sanitizers.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "tune/profile.h"

    int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size == 0) return 0;
  mg_profile_diags d;
  mg_profile *p = NULL;
  mg_profile_diags_init(&d, 20);
  const char *buf = (const char *)data + 1;
  if (data[0] & 1)
    mg_profile_parse_prf(buf, size - 1, "fuzz.prf", &p, &d);
  else
    mg_profile_parse(buf, size - 1, "fuzz", &p, &d);
  char line[1024];
  for (int i = 0; i < d.n; i++) mg_profile_diag_format(&d.v[i], line, sizeof line);
  if (p) {
    size_t len;
    char *text = mg_profile_format(p, &len);
    mg_profile *q = NULL;
    if (!text || mg_profile_parse(text, len, "canonical", &q, NULL) != 0 ||
        mg_profile_hash(q) != mg_profile_hash(p))
      abort();
    for (size_t b = 0; b < 64; b++) {
      mg_coll c = (mg_coll)(b % MG_NCOLL);
      int t = (int)(b % (MG_NTCLASS + 1)) - 1, o = (int)(b % (MG_NOPSEL + 1)) - 1; /* from NONE */
      if (mg_profile_lookup(p, c, (int)(b % 9), (size_t)1 << (b % 40)) !=
              mg_profile_lookup(q, c, (int)(b % 9), (size_t)1 << (b % 40)) ||
          mg_profile_lookup_sel(p, c, (int)(b % 9), (size_t)1 << (b % 40), t, o) !=
              mg_profile_lookup_sel(q, c, (int)(b % 9), (size_t)1 << (b % 40), t, o))
        abort();
    }
    mg_profile_free(q);
    free(text);
  }
  mg_profile_free(p);
  mg_profile_diags_free(&d);
  return 0;
}
