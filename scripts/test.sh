#!/usr/bin/env bash
# Run every test: installs what is missing (Debian 12, as root), builds mpiguide for
# Open MPI and for MPICH, and runs each build's CTest suite.
# Usage: scripts/test.sh [ctest options, e.g. -R diff]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
scripts/build.sh openmpi mpich
status=0
for f in openmpi mpich; do
  echo "== tests for $f ==" >&2
  log=$(mktemp)
  ctest --test-dir "build/$f" --output-on-failure -j2 "$@" 2>&1 | tee "$log" || status=1
  # In CI a skipped test is a failed one: setup.sh installs everything the tests use.
  if [[ -n ${CI:-} ]] && grep -qE '\(Skipped\)|\*\*\*Not Run' "$log"; then
    echo "test: tests were skipped in CI (a missing dependency?):" >&2
    grep -E '\(Skipped\)|\*\*\*Not Run' "$log" >&2
    status=1
  fi
  rm -f "$log"
done
exit $status
