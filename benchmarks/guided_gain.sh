#!/usr/bin/env bash
# What `check --model-guided` saves against `check --full` (issue 31), and what it misses: per
# configuration, the two checks side by side (one launch each, the same collectives, sizes and
# repetition settings), their wall times and ratio, the mock-up cells measured, and the violations
# of --full that the guided run did not measure (the rule's promise: 0). Not a test: its figures
# are reported, never asserted.
#
#   benchmarks/guided_gain.sh [CONFIGS="openmpi:2 openmpi:4 mpich:2 mpich:3"] [OUT=results/guided-gain]
#
# Environment: COLLS_openmpi, COLLS_mpich (collectives; MPICH busy-polls when oversubscribed, so
# its run is a subset), SIZES_openmpi, SIZES_mpich, EXTRA (options for both checks, e.g.
# "--max-nrep 100" on a loaded machine), SLACK (--model-slack, default the check's), LOGGP (a LogGP
# file to use instead of measuring one, e.g. tests/cost/data/loggp.txt, measured here when quiet).
# Per configuration MPI:P, into OUT/MPI-P/:
#   1. `mpiguide loggp` at P (kept when OUT/MPI-P/loggp.txt exists);
#   2. `check --full` and `check --full --model-guided --loggp` (wall time of each, in that order);
#   3. the cells: the guided run's #@check_model_guided line; the violations of --full, and those
#      the guided run did not measure; and the rule replayed on the full run's own defaults
#      (`mpiguide predict --guided`), which must keep every violation of --full too.
# Every command is printed before its figure. Holds /tmp/mg-mpi.lock (MG_LOCKED=1: the caller does).
set -euo pipefail
[[ ${MG_LOCKED:-} == 1 ]] || exec env MG_LOCKED=1 flock /tmp/mg-mpi.lock "$(realpath "$0")" "$@"
cd "$(dirname "$0")/.."
configs=${1:-"openmpi:2 openmpi:4 mpich:2 mpich:3"} out=${2:-results/guided-gain}
: "${COLLS_openmpi:=allreduce,bcast,reduce,allgather}" "${SIZES_openmpi:=1K,4K,16K,64K,256K,1M}"
: "${COLLS_mpich:=allreduce,bcast}" "${SIZES_mpich:=1K,16K,256K}"
mkdir -p "$out"
summary=$out/summary.txt
say() { echo "$*" | tee -a "$summary"; }

# collective,bytes,mockup,reduction of the rows of verdicts.csv $1 whose column $2 matches $3
cells() {
  awk -F, -v col="$2" -v want="$3" '/^#/ {next}
    !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
    $c[col] ~ want {print $c["collective"] "," $c["bytes"] "," $c["mockup"] "," $c["reduction"]}' "$1" | sort -u
}

for cf in $configs; do
  mpi=${cf%:*} np=${cf#*:}
  b=build/$mpi
  [[ -x $b/mpiguide ]] || scripts/build.sh "$mpi" >&2
  source benchmarks/bench_lib.sh # launch=(...) for $mpi and $np
  d=$out/$mpi-$np
  mkdir -p "$d"
  colls=COLLS_$mpi sizes=SIZES_$mpi
  say "== $mpi, $np processes ($(date -u '+%F %H:%M UTC'), load $(cut -d' ' -f1-3 /proc/loadavg))${LOGGP:+, LogGP file $LOGGP}"
  if [[ -n ${LOGGP:-} ]]; then
    cp "$LOGGP" "$d/loggp.txt"
  elif [[ ! -s $d/loggp.txt ]]; then
    "${launch[@]}" "$b/mpiguide" loggp -o "$d/loggp.txt" >"$d/loggp.log" 2>&1
  fi
  c=(-c "${!colls}" --sizes "${!sizes}" --no-progress --loggp "$d/loggp.txt" ${EXTRA:-})
  g=(--model-guided ${SLACK:+--model-slack "$SLACK"})
  rm -rf "$d/full" "$d/guided"
  say "  full:   ${launch[*]} $b/mpiguide check --full ${c[*]} -o $d/full"
  t0=$(date +%s.%N)
  "${launch[@]}" "$b/mpiguide" check --full "${c[@]}" -o "$d/full" >"$d/full.log" 2>&1
  t1=$(date +%s.%N)
  say "  guided: ${launch[*]} $b/mpiguide check --full ${g[*]} ${c[*]} -o $d/guided"
  "${launch[@]}" "$b/mpiguide" check --full "${g[@]}" "${c[@]}" -o "$d/guided" >"$d/guided.log" 2>&1
  t2=$(date +%s.%N)
  full=$(echo "$t1 - $t0" | bc) guided=$(echo "$t2 - $t1" | bc)
  viol=$(cells "$d/full/verdicts.csv" outcome '^violation$' | tee "$d/violations.txt" | wc -l)
  missed=$(comm -23 "$d/violations.txt" <(cells "$d/guided/verdicts.csv" status '^(ok|error)$') | tee "$d/missed.txt" | wc -l)
  "$b/mpiguide" predict --loggp "$d/loggp.txt" --check "$d/full" --guided "${SLACK:-1.5}" >"$d/replay.csv"
  # the replay's cells are (collective, bytes, mockup) of the first reduction: match without it
  rmissed=$(comm -23 <(cut -d, -f1-3 "$d/violations.txt" | sort -u) \
                     <(awk -F, '!/^#/ && $10 == 1 {print $1 "," $3 "," $4}' "$d/replay.csv" | sort -u) | wc -l)
  say "  $(grep -h '^#@check_model_guided=' "$d/guided/raw.csv" | sed 's/^#@check_model_guided=/guided measured /')"
  say "  wall time: --full $(printf %.1f "$full") s, --model-guided $(printf %.1f "$guided") s, ratio $(echo "scale=2; $full / $guided" | bc)"
  rows() { awk '/^#/ {next} !h {h = 1; next} {n++} END {print n}' "$1/raw.csv"; }
  say "  measurements (rows of raw.csv): --full $(rows "$d/full"), --model-guided $(rows "$d/guided")"
  # the time the guided run would take at the full run's own speed: its series' summed runtimes,
  # the defaults twice where a mock-up is kept (phase 2 measures them again), against all of them
  say "  $(awk -F, 'FNR == 1 {f++} /^#/ {next}
    f == 1 && !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
    f == 1 {t[$c["collective"] "," $c["bytes"] "," $c["algorithm"]] += $c["runtime_sec"]; all += $c["runtime_sec"]; next}
    f == 2 && $1 != "collective" && $10 == 1 {k[$1 "," $3 "," $4] = 1; cell[$1 "," $3] = 1}
    END {for (x in t) {split(x, a, ","); if (a[3] == "default") g += t[x] * (1 + ((a[1] "," a[2]) in cell)); else if (x in k) g += t[x]}
         printf "at the full run'"'"'s speed (its series'"'"' summed runtimes): --full %.1f s, the rule'"'"'s cells %.1f s, ratio %.2f", all, g, all / g}' \
    "$d/full/raw.csv" "$d/replay.csv")"
  say "  violations of --full: $viol; not measured by --model-guided: $missed; left out by the rule on the full run's defaults: $rmissed"
  say "  the rule on the full run's defaults, mock-up cells by reason: $(awk -F, '!/^#/ && NR > 2 {n[$11]++} END {for (k in n) printf "%s %d  ", k, n[k]}' "$d/replay.csv")"
done
