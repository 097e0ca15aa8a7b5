#!/usr/bin/env bash
# Online tuning's choices as an application sees them (issue 29): benchmarks/online_verify.c in
# RUNS launches, each learning from scratch (MPIGUIDE_PROFILE=auto) on CALLS back-to-back calls of
# every cell, then timing each cell REPS times the way mpiguide check does (a barrier before each
# call, the maximum over ranks of the local durations): the library's own call (PMPI_, the
# default) against the intercepted one (the learned choice), interleaved, side by side. Not a
# test: its figures are reported, never asserted.
#
#   benchmarks/online_verify.sh [openmpi|mpich] [NP=4] [RUNS=5] [CALLS=600] [REPS=1000] [CELL...]
#
# CELL is COLL:BYTES (allreduce, bcast, reduce, allgather; MPI_INT, MPI_SUM, root 0); default
# allreduce:1024 (the issue's case: 1 KiB, MPI_INT, SUM) bcast:65536 reduce:16384 allgather:256.
# Per launch: what the learned profile says of each cell (its comment: the agreed times) and what
# the synchronised timing measured (medians of the max over ranks; the share of rounds the choice
# was faster). Then per cell the choices over the launches and the median of the launches'
# ratios. Even where the choice is the default, the two columns differ by the interposition and
# the order of the calls: that ratio is the noise floor of the comparison. Output in OUT
# (default results/online-verify-<mpi>-np<NP>): summary.txt, each launch's profile and output.
# Holds /tmp/mg-mpi.lock for the whole run (MG_LOCKED=1 if the caller holds it).
set -euo pipefail
[[ ${MG_LOCKED:-} == 1 ]] || exec env MG_LOCKED=1 flock /tmp/mg-mpi.lock "$(realpath "$0")" "$@"
cd "$(dirname "$0")/.."
mpi=${1:-openmpi} np=${2:-4} runs=${3:-5} calls=${4:-600} reps=${5:-1000}
shift $(($# < 5 ? $# : 5))
cells=("$@")
((${#cells[@]})) || cells=(allreduce:1024 bcast:65536 reduce:16384 allgather:256)
out=${OUT:-results/online-verify-$mpi-np$np}
b=build/$mpi
source benchmarks/bench_lib.sh # launch, xs_for, median
[[ -x $b/mpiguide && -x $b/online_verify ]] || scripts/build.sh "$mpi" >&2
rm -rf "$out" && mkdir -p "$out"
out=$(realpath "$out")
exec > >(tee "$out/summary.txt") 2>&1

algs=""
for c in allreduce bcast reduce allgather; do
  algs+="$c:$("$b/mpiguide" list --csv "$c" | awk -F, 'NR > 1 {print $2}' | paste -sd, -);"
done
echo "== online_verify: $mpi, $np ranks, $runs launches, $calls calls to learn, $reps timed rounds, $(date -u +%FT%TZ)," \
  "$(uname -n), load: $(cut -d' ' -f1-3 /proc/loadavg) =="
vars=(MG_ALGS="$algs" MPIGUIDE_PROFILE=auto)
for k in $(seq "$runs"); do
  mapfile -t xs < <(xs_for "${vars[@]}" MPIGUIDE_PROFILE_OUT=x)
  env -u LD_PRELOAD -u MPIGUIDE_TRACE -u MPIGUIDE_ALG "${vars[@]}" MPIGUIDE_PROFILE_OUT="$out/learned-$k.prof" \
    timeout 600 "${launch[@]}" "${xs[@]}" "$b/online_verify" "$calls" "$reps" "${cells[@]}" \
    >"$out/run-$k.out" 2>"$out/run-$k.err" || { cat "$out/run-$k.out" "$out/run-$k.err"; exit 1; }
  echo "-- launch $k"
  grep -v '^#' "$out/learned-$k.prof" | grep '#' | sed 's/  */ /g; s/^/  learned: /; s/ # learned: / -> /'
  sed 's/^online_verify: /  timed: /' "$out/run-$k.out"
done
echo
echo "-- per cell over $runs launches: choices, and the median of the launches' ratios (choice / default)"
for cell in "${cells[@]}"; do
  c=${cell%%:*} n=${cell#*:}
  pat="^online_verify: $c $n B:"
  choices=$(cat "$out"/run-*.out | grep "$pat" | sed 's/.* ran \([^;]*\);.*/\1/' | sort | uniq -c |
    awk '{s = s (NR > 1 ? ", " : "") $2 " x" $1} END {print s}')
  ratio=$(cat "$out"/run-*.out | grep "$pat" | sed 's/.*(\([0-9.]*\)x).*/\1/' | median)
  worst=$(cat "$out"/run-*.out | grep "$pat" | sed 's/.*(\([0-9.]*\)x).*/\1/' | sort -g | tail -1)
  echo "  $c $n B: $choices; ratio median ${ratio}x, worst ${worst}x"
done
echo "files: $out"
