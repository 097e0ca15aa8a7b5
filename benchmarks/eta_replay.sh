#!/usr/bin/env bash
# The honesty of the progress line's time estimate on recorded launches, this tree's estimator
# against another revision's (issue 31; docs/check.md, "How long --full takes"). Not a test: no MPI,
# no clock; its figures are the same on every machine.
#
#   benchmarks/eta_replay.sh [REV=3d5b502] DIR...
#       DIR: a check's output with --launches (DIR/launch-K/raw.csv). Builds benchmarks/eta_replay.c
#       twice, against src/bench/eta.c here and as of REV (git), and replays every launch of every
#       DIR with both: launch 1 from nothing, launch K also seeded from launch K-1 (what
#       `check --launches` does now; REV's estimator ignores the seed). Each line: elapsed + ETA over
#       the launch's length at 1, 2, 5, 10 minutes and 25/50/75 % of it, the largest rise between
#       two progress lines (5 s apart) after the first minute, the largest estimate from then on.
#       Last, per estimator, the mean |ln ratio| over every figure and how many are off by more
#       than 1.3x either way.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=3d5b502
if (($#)) && git rev-parse -q --verify "$1^{commit}" >/dev/null; then rev=$1; shift; fi
(($#)) || { echo "usage: benchmarks/eta_replay.sh [REV] DIR..." >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/old/bench"
git show "$rev:src/bench/eta.c" >"$tmp/old/bench/eta.c"
git show "$rev:src/bench/eta.h" >"$tmp/old/bench/eta.h"
cc=(cc -O2 -std=c11 -D_GNU_SOURCE)
"${cc[@]}" -Isrc -o "$tmp/new" benchmarks/eta_replay.c src/bench/eta.c src/bench/eta_raw.c src/util/sort.c src/util/text.c -lm
"${cc[@]}" -I"$tmp/old" -Isrc -o "$tmp/old/replay" benchmarks/eta_replay.c "$tmp/old/bench/eta.c" src/bench/eta_raw.c \
  src/util/sort.c src/util/text.c -lm
score='NR > 1 { for (i = 4; i <= 10; i++) if ($i != "-") { n++; d = log($i); s += d < 0 ? -d : d; if (d < log(1 / 1.3)) u++; if (d > log(1.3)) o++ } }
       END { printf "  %s: mean |ln ratio| %.3f over %d figures; under 1/1.3x: %d, over 1.3x: %d\n", w, s / n, n, u, o }'
for est in old new; do
  bin=$tmp/$est; [[ $est == old ]] && bin=$tmp/old/replay
  echo "== estimator: $([[ $est == old ]] && echo "$rev" || echo "this tree") =="
  printf '%-48s %8s %5s %5s %5s %5s %5s %5s %5s  %5s %5s\n' "launch (elapsed + ETA over its length)" length 1min 2min \
    5min 10min 25% 50% 75% rise max
  for d in "$@"; do
    for raw in "$d"/launch-*/raw.csv; do
      k=${raw%/raw.csv}; k=${k##*launch-}
      prev=()
      ((k > 1)) && [[ -f $d/launch-$((k - 1))/raw.csv ]] && prev=(--prev "$d/launch-$((k - 1))/raw.csv")
      "$bin" "${prev[@]}" "$raw" | tail -n +2
    done
  done | tee "$tmp/$est.txt"
done
echo "== summary (every line above) =="
for est in old new; do awk -v w="$est" "$score" <(echo; cat "$tmp/$est.txt"); done
