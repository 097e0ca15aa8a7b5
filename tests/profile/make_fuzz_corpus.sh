#!/bin/sh
# Seed corpus for fuzz_libfuzzer: the profiles of data/, each prefixed with the byte that picks
# the reader ('0': mpiguide format, '1': PGMPITuneLib .prf). Usage: make_fuzz_corpus.sh DIR
set -e
out=${1:?usage: $0 DIR}
here=$(dirname "$0")
mkdir -p "$out"
for f in "$here"/data/*.prof; do { printf 0; cat "$f"; } > "$out/$(basename "$f")"; done
for f in "$here"/data/*.prf "$here"/data/prf/*.prf; do { printf 1; cat "$f"; } > "$out/$(basename "$f")"; done
