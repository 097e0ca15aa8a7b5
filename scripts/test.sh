#!/usr/bin/env bash
# Run the tests: installs what is missing (Debian 12, as root), builds mpiguide for Open MPI, for
# MPICH and for SimGrid's SMPI (its measurement side only, docs/scale.md), and runs each build's
# CTest suite (SMPI's: the sim tests, simulated platforms of 4-16 ranks, seconds), and the fuzz
# build's (build/fuzz, clang: each reader's fuzz target on its corpus and the truncation walk under
# ASan and UBSan, seconds; docs/fuzzing.md).
# Usage: [MG_TESTS=default|wide|all] scripts/test.sh [ctest options, e.g. -R diff]
#   default  the default suite, what CI runs: every case at the fewest process counts that have it
#   wide     the wide sweeps only (CTest label wide: 5 and 7 ranks, the differential tests' full
#            mode, interposition at a second process count); run by hand before a stop
#   all      both
# tests/README.md says which folder tests what.
set -euo pipefail
cd "$(dirname "$0")/.."
case ${MG_TESTS:-default} in
  default) select=(-LE wide) ;;
  wide) select=(-L wide) ;;
  all) select=() ;;
  *) echo "test: MG_TESTS must be default, wide or all, not '${MG_TESTS}'" >&2; exit 2 ;;
esac
scripts/setup.sh
scripts/build.sh openmpi mpich smpi fuzz
status=0
start=$SECONDS
flavors=(openmpi mpich smpi)
if [[ -f build/fuzz/CTestTestfile.cmake ]]; then
  flavors+=(fuzz)
elif [[ -n ${CI:-} ]]; then
  echo "test: no build/fuzz in CI (setup.sh installs clang and libclang-rt-14-dev): the fuzz tests did not run" >&2
  status=1
else
  echo "test: no build/fuzz (no clang with libFuzzer): the fuzz tests are skipped" >&2
fi
for f in "${flavors[@]}"; do
  echo "== tests for $f (${MG_TESTS:-default}) ==" >&2
  log=$(mktemp)
  t0=$SECONDS
  ctest --test-dir "build/$f" --output-on-failure -j2 "${select[@]}" "$@" 2>&1 | tee "$log" || status=1
  echo "== $f: $((SECONDS - t0)) s ==" >&2
  # In CI a skipped test is a failed one: setup.sh installs everything the tests use.
  if [[ -n ${CI:-} ]] && grep -qE '\(Skipped\)|\*\*\*Not Run' "$log"; then
    echo "test: tests were skipped in CI (a missing dependency?):" >&2
    grep -E '\(Skipped\)|\*\*\*Not Run' "$log" >&2
    status=1
  fi
  rm -f "$log"
done
echo "== all tests: $((SECONDS - start)) s ==" >&2
exit $status
