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
  ctest --test-dir "build/$f" --output-on-failure -j2 "$@" || status=1
done
exit $status
