#!/usr/bin/env bash
# One fuzz target run long (docs/fuzzing.md): benchmarks/fuzz.sh TARGET SECONDS [libFuzzer options]
# Runs build/fuzz/tests/fuzz/fuzz_TARGET (scripts/build.sh fuzz builds it) on a copy of its
# checked-in corpus tests/fuzz/corpus/TARGET/ for SECONDS, in fork mode so that it goes on after a
# crash (each one saved), and prints the executions, executions per second, the corpus size at the
# end and the crashes, each with its file. Work files: build/fuzz/fuzz-runs/TARGET/ (corpus/: what
# the run found; crash-*, leak-*, timeout-*, oom-*: the inputs that failed). A crash becomes a
# regression by copying its file into tests/fuzz/corpus/TARGET/ under a name that says what it is.
# Targets: profile prf merge rawcsv repro eta trace loggp parse.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:?usage: benchmarks/fuzz.sh TARGET SECONDS [libFuzzer options]}
secs=${2:?usage: benchmarks/fuzz.sh TARGET SECONDS [libFuzzer options]}
shift 2
exe=build/fuzz/tests/fuzz/fuzz_$target
corpus=tests/fuzz/corpus/$target
[[ -d $corpus ]] || { echo "fuzz: no target '$target' (no $corpus)" >&2; exit 2; }
[[ $secs =~ ^[0-9]+$ && $secs -gt 0 ]] || { echo "fuzz: SECONDS must be a positive whole number, not '$secs'" >&2; exit 2; }
if [[ ! -x $exe ]]; then
  scripts/build.sh fuzz
  [[ -x $exe ]] || { echo "fuzz: no $exe (build/fuzz was skipped: see above)" >&2; exit 1; }
fi
work=build/fuzz/fuzz-runs/$target
rm -rf "$work"
mkdir -p "$work/corpus"
cp "$corpus"/* "$work/corpus/"
log=$work/log.txt
start=$(find "$work/corpus" -type f | wc -l)
echo "fuzz: $target for $secs s from $start corpus files (log: $log)" >&2
UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 "$exe" -fork=1 -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 \
  -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -artifact_prefix="$work/" "$@" \
  "$work/corpus" >"$log" 2>&1 || true
# the last status line of fork mode: "#EXECS: cov: C ft: F corp: N exec/s: R oom/timeout/crash: a/b/c time: Ts ..."
last=$(grep -E '^#[0-9]+: cov:' "$log" | tail -1 || true)
execs=$(sed -nE 's/^#([0-9]+):.*/\1/p' <<<"$last")
rate=$(sed -nE 's/.*exec\/s:? ([0-9]+).*/\1/p' <<<"$last")
size=$(find "$work/corpus" -type f | wc -l)
mapfile -t bad < <(find "$work" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | sort)
printf '%s: %s s: %s execs, %s execs/s, corpus %d files (from %d), %d crashes\n' "$target" "$secs" "${execs:-?}" \
  "${rate:-?}" "$size" "$start" "${#bad[@]}"
# what broke: each crash file run once more, its invariant's message or the sanitizer's first line;
# one line per kind (a #@key's value and numbers blanked), with how many files and one of them
for f in "${bad[@]}"; do
  why=$(UBSAN_OPTIONS=halt_on_error=1 "$exe" "$f" 2>&1 | grep -a -m1 -E 'invariant broken|runtime error|ERROR: (Address|Leak)Sanitizer|ERROR: libFuzzer' |
    sed -E 's/^==[0-9]+==//; s/ on address 0x[0-9a-f]+.*//; s/^mg-fuzz: invariant broken: //' | tr -cd '[:print:]' || true)
  why=${why:-(passes when run alone)}
  kind=$(sed -E "s/(#@[A-Za-z_]+)=.*, not a/\1=..., not a/; s/'[^']*'/'...'/g; s/[0-9]+(\.[0-9]+)?(e[-+]?[0-9]+)?/N/g" <<<"$why")
  printf '%s\t%s\t%s\n' "$kind" "$f" "$why"
done >"$work/crashes.txt"
if ((${#bad[@]})); then
  echo "what broke (each file and its message: $work/crashes.txt):"
  awk -F'\t' '{ if (!($1 in n)) { first[$1] = $2; order[++m] = $1 } n[$1]++ }
               END { for (i = 1; i <= m; i++) printf "  %4d x %s\n         e.g. %s\n", n[order[i]], order[i], first[order[i]] }' \
    "$work/crashes.txt"
fi
