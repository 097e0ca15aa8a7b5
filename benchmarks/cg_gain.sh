#!/usr/bin/env bash
# The end-to-end gain of a tuned profile on a realistic application: the loop of the README
# (trace -> check -> tune -> the application with the profile) on examples/cg.c, the
# conjugate-gradient solver (its calls: MPI_Allreduce of 8 bytes and MPI_Sendrecv of one grid row,
# twice each per iteration). Not a test: its figures are reported, never asserted.
#
#   benchmarks/cg_gain.sh [openmpi|mpich] [NP=4] [N=768] [RUNS=7] [OUT=results/cg-gain-<mpi>-np<NP>]
#
#   1. cg once under libmpiguide with a timed trace (MPIGUIDE_TRACE, MPIGUIDE_TRACE_TIME=1): which
#      operations and sizes it calls, from which call sites, and how long they take;
#   2. `mpiguide check --sizes-from TRACE --launches 3`: exactly those collectives and sizes;
#      `--sizes-from` takes collectives only, so the halo's MPI_Sendrecv at its size is checked
#      by `mpiguide check -c sendrecv --sizes BYTES --pattern exchange --launches 3` (pairs of
#      ranks exchanging at once, as neighbours in the halo exchange do);
#   3. both checks as one source (check-all: links to their launches), `mpiguide tune` of it: the profile
#      and its rules; `mpiguide hotspots TRACE --check DIR --profile FILE`: the call sites that
#      cover 80 % of cg's MPI time, their verdicts, and the saving the profile predicts;
#   4. cg RUNS times each, interleaved (plain; libmpiguide preloaded without a profile; with the
#      profile), and the median solve time (the program's own: MPI_Wtime around the CG
#      iterations, max over ranks) of each, the ratios, and which rules the tuned run applied.
# Everything goes to OUT (the traces, the checks, the profile, every run's output, summary.txt).
# The whole benchmark holds /tmp/mg-mpi.lock (flock), the lock of every MPI job on this shared
# machine, so that no other locked job runs between its launches (set MG_LOCKED=1 if the caller
# holds it already).
set -euo pipefail
[[ ${MG_LOCKED:-} == 1 ]] || exec env MG_LOCKED=1 flock /tmp/mg-mpi.lock "$(realpath "$0")" "$@"
cd "$(dirname "$0")/.."
mpi=${1:-openmpi} np=${2:-4} n=${3:-768} runs=${4:-7}
out=${5:-results/cg-gain-$mpi-np$np}
b=build/$mpi
source benchmarks/bench_lib.sh # launch, xs_for, median
[[ -x $b/mpiguide && -x $b/cg ]] || scripts/build.sh "$mpi" >&2
lib=$("$b/mpiguide" env --lib)
rm -rf "$out" && mkdir -p "$out"
out=$(realpath "$out")
exec > >(tee "$out/summary.txt") 2>&1

# cg_run NAME [VAR=value...]: one launch of cg with these variables on every rank (and nothing
# else of mpiguide's); its output in OUT/NAME.out; prints the solve time.
cg_run() {
  local name=$1
  shift
  local xs
  mapfile -t xs < <(xs_for "$@")
  env -u LD_PRELOAD -u MPIGUIDE_TRACE -u MPIGUIDE_PROFILE -u MPIGUIDE_ALG "$@" \
    "${launch[@]}" "${xs[@]}" "$b/cg" "$n" >"$out/$name.out" 2>"$out/$name.err" ||
    { echo "cg_gain: run $name failed:" >&2; cat "$out/$name.out" "$out/$name.err" >&2; exit 1; }
  grep -q '^cg: OK' "$out/$name.out" || { echo "cg_gain: run $name: no 'cg: OK'" >&2; exit 1; }
  sed -n 's/.* solve \([0-9.]*\) s.*/\1/p' "$out/$name.out"
}

echo "== cg_gain: $mpi, $np ranks, ${n}x$n grid, $(date -u +%FT%TZ), $(uname -n), load: $(cut -d' ' -f1-3 /proc/loadavg) =="
echo
echo "== 1. the trace: what cg calls =="
cg_run trace LD_PRELOAD="$lib" MPIGUIDE_TRACE="$out/trace.csv" MPIGUIDE_TRACE_TIME=1 >/dev/null
cat "$out/trace.out"
grep -v '^#@' "$out/trace.csv" | column -s, -t
halo=$(awk -F, '!/^#@/ && $1 == "sendrecv" { print $2; exit }' "$out/trace.csv")

echo
echo "== 2. check exactly those calls: --sizes-from the trace, 3 launches; the halo's sendrecv ($halo B) =="
"$b/mpiguide" check --sizes-from "$out/trace.csv" --launches 3 -o "$out/check" -- "${launch[@]}" |
  sed -n '/^collective /,/^total/p;/^worst violations/,/^$/p'
"$b/mpiguide" check -c sendrecv --sizes "$halo" --pattern exchange --launches 3 -o "$out/check-sendrecv" \
  -- "${launch[@]}" | sed -n '/^ *eq\. 1[01] /p;/^ *bytes  *10/,/^$/p'

echo
echo "== 3. tune: the profile from both checks (analysed together into check-all) =="
# One source of both: a directory of launch-K links stands for all its launches (docs/check.md).
mkdir -p "$out/check-all"
k=0
for d in "$out"/check/launch-? "$out"/check-sendrecv/launch-?; do k=$((k + 1)) && ln -s "$d" "$out/check-all/launch-$k"; done
prof=$out/cg.prof
if "$b/mpiguide" tune "$out/check-all" -o "$prof"; then
  echo "rules:"
  grep -v '^#' "$prof" | grep -Ev '^(mpiguide-profile|end-of-profile)' | grep . || echo "  (none: no conclusive violation at cg's sizes)"
else
  echo "cg_gain: tune wrote no profile"
  printf 'mpiguide-profile 1\n' >"$prof"
fi

echo
echo "== the hot spots and the saving the profile predicts: mpiguide hotspots TRACE --check DIR --profile FILE =="
"$b/mpiguide" hotspots "$out/trace.csv" --check "$out/check-all" --profile "$prof" || echo "cg_gain: hotspots failed"

echo
echo "== 4. cg $runs times each, interleaved: plain, preloaded (no profile), tuned =="
: >"$out/plain.sec" && : >"$out/preload.sec" && : >"$out/tuned.sec"
for k in $(seq "$runs"); do
  cg_run "plain-$k" >>"$out/plain.sec"
  cg_run "preload-$k" LD_PRELOAD="$lib" >>"$out/preload.sec"
  cg_run "tuned-$k" LD_PRELOAD="$lib" MPIGUIDE_PROFILE="$prof" MPIGUIDE_TRACE="$out/tuned-trace.csv" >>"$out/tuned.sec"
  echo "run $k: plain $(tail -1 "$out/plain.sec") s, preloaded $(tail -1 "$out/preload.sec") s, tuned $(tail -1 "$out/tuned.sec") s"
done
mp=$(median <"$out/plain.sec") ml=$(median <"$out/preload.sec") mt=$(median <"$out/tuned.sec")
echo "what the tuned run ran (its last trace):"
grep -v '^#@' "$out/tuned-trace.csv" | column -s, -t
echo
echo "median solve time over $runs runs: plain $mp s, preloaded $ml s, tuned $mt s"
awk -v p="$mp" -v l="$ml" -v t="$mt" 'BEGIN { printf "tuned / plain = %.3f, tuned / preloaded = %.3f, preloaded / plain = %.3f\n", t / p, t / l, l / p }'
echo "min / max: plain $(sort -g "$out/plain.sec" | sed -n '1p;$p' | paste -sd/), preloaded $(sort -g "$out/preload.sec" | sed -n '1p;$p' | paste -sd/), tuned $(sort -g "$out/tuned.sec" | sed -n '1p;$p' | paste -sd/)"
echo "files: $out"
