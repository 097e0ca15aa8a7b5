#!/usr/bin/env bash
# What the analysis of saved data costs (`mpiguide check --from`), with two builds side by side:
# the CPU seconds (user + system, /usr/bin/time) of the joint analysis of all the launches given
# and of the first launch's own analysis, and how many verdict classes (verdicts.csv's outcome and
# violation columns) differ between the two builds' analyses of the same data, each such row named
# with both intervals. Issue 31: the slowdown's bootstrap was 65 % of the analysis (docs/check.md).
# Not a test: its figures are reported, never asserted.
#
#   benchmarks/analysis_time.sh BEFORE AFTER DIR...
#       BEFORE, AFTER: mpiguide binaries (e.g. a build of the commit before a change, and
#       build/openmpi/mpiguide); DIR...: the launch directories of one run (each with raw.csv),
#       e.g. /tmp/quiet/full-ompi/full/launch-{1,2,3}. OUT=dir keeps the results (default: a
#       temporary directory, removed at the end).
# Runs under nice -n 19; CPU seconds hardly depend on other load, wall time would.
set -euo pipefail
(($# >= 3)) || { sed -n '9,14p' "$0" >&2; exit 2; }
before=$1 after=$2
shift 2
dirs=("$@")
out=${OUT:-}
if [[ -z $out ]]; then
  out=$(mktemp -d)
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"

# cpu NAME BIN DIR...: user + system seconds of one analysis, results in $out/NAME
cpu() {
  local name=$1 bin=$2
  shift 2
  rm -rf "${out:?}/$name"
  /usr/bin/time -o "$out/$name.time" -f '%U %S' nice -n 19 "$bin" check --from "$@" -o "$out/$name" >/dev/null 2>"$out/$name.err" ||
    { cat "$out/$name.err" >&2; exit 1; }
  awk '{printf "%.2f", $1 + $2}' "$out/$name.time"
}

# differ A B: rows of two verdicts.csv whose verdict class differs (same rows, same order)
differ() {
  python3 - "$1/verdicts.csv" "$2/verdicts.csv" <<'EOF'
import csv, sys
def rows(p):
    return list(csv.DictReader(l for l in open(p) if not l.startswith('#')))
a, b = rows(sys.argv[1]), rows(sys.argv[2])
if len(a) != len(b):
    sys.exit(f"{len(a)} and {len(b)} verdicts: not the same comparisons")
def iv(r):
    try:
        return f"[{float(r['slowdown_lo']):.4f}, {float(r['slowdown_hi']):.4f}]"
    except ValueError:
        return "[no interval]"
n = 0
for x, y in zip(a, b):
    if (x['outcome'], x['violation']) != (y['outcome'], y['violation']):
        n += 1
        name = ' '.join(v for v in (x['collective'], x['bytes'], x['mockup'], x['reduction'], x['relation']) if v)
        print(f"    {name}: {x['outcome']} {iv(x)} -> {y['outcome']} {iv(y)}")
print(f"  {n} of {len(a)} verdict classes differ")
EOF
}

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for part in all one; do
  if [[ $part == all ]]; then set -- "${dirs[@]}"; else set -- "${dirs[0]}"; fi
  echo "check --from $* ($part: $# launch(es))"
  echo "  command: /usr/bin/time -f '%U %S' nice -n 19 MPIGUIDE check --from $* -o OUT"
  tb=$(cpu "before-$part" "$before" "$@")
  ta=$(cpu "after-$part" "$after" "$@")
  echo "  CPU seconds: before $tb ($before), after $ta ($after), ratio $(awk -v b="$tb" -v a="$ta" 'BEGIN{printf "%.2f", b / a}')"
  differ "$out/before-$part" "$out/after-$part"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
