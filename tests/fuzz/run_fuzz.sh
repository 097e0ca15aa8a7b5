#!/bin/sh
# CTest's fuzz.<reader> (tests/fuzz/CMakeLists.txt): run a libFuzzer target on its checked-in corpus
# (every file once: a crash or a broken invariant there is a regression), then RUNS mutations from
# seed 1 (deterministic: the same inputs every time, no clock). New inputs and crash files go to
# WORK, emptied first, never into the source tree. Usage: run_fuzz.sh TARGET CORPUS WORK RUNS
set -eu
exe=$1 corpus=$2 work=$3 runs=$4
[ -d "$corpus" ] || { echo "run_fuzz: no corpus $corpus" >&2; exit 1; }
rm -rf "$work"
mkdir -p "$work/new"
# -runs counts the corpus too: each of its files runs once before any mutation
n=$(find "$corpus" -type f | wc -l)
exec "$exe" -seed=1 -runs=$((n + runs)) -timeout=20 -rss_limit_mb=2048 -artifact_prefix="$work/" \
  -print_final_stats=1 "$work/new" "$corpus"
