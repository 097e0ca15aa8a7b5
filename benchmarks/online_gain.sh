#!/usr/bin/env bash
# Online tuning (MPIGUIDE_PROFILE=auto) against no tuning and against the offline loop, on the two
# example applications (examples/jacobi.c: an 8-byte MPI_Allreduce and two 8-byte MPI_Sendrecv per
# iteration; examples/cg.c: two 8-byte MPI_Allreduce and a halo MPI_Sendrecv per iteration). Not a
# test: its figures are reported, never asserted.
#
#   [JACOBI_ARGS="64 200000"] [CG_ARGS=512] [CHECK_OPTS=...] benchmarks/online_gain.sh [openmpi|mpich] [NP=4] [RUNS=5] [OUT=...]
#
# (OUT defaults to results/online-gain-<mpi>-np<NP>; the *_ARGS are the applications' arguments;
# CHECK_OPTS go to the offline check, e.g. "--nrep 20" where 4 busy-polling MPICH ranks on 2 cores
# make every call cost milliseconds.)
# For each application:
#   1. one traced run: the collectives and sizes it calls;
#   2. the offline loop: `mpiguide check --full --sizes-from TRACE --launches 3` (every family,
#      exactly those cells; its wall time is reported: the campaign online tuning replaces) and
#      `mpiguide tune` of it: the offline profile;
#   3. RUNS rounds, interleaved: plain (no libmpiguide); online (MPIGUIDE_PROFILE=auto, learning
#      from scratch, MPIGUIDE_PROFILE_OUT=learned-K.prof); offline (the offline profile); relearned
#      (round 1's learned profile as an ordinary one: the next run starts tuned);
#   4. the time the application reports for its iterations (jacobi: rank 0's loop; cg: the solve,
#      max over ranks), medians and ratios to plain; the exploration's cost as the online runs
#      measured it (trial calls, their time beyond the chosen algorithms', its share of the run);
#      the choices made online and offline; `mpiguide profile merge` of the RUNS learned profiles
#      (the choices every run agreed on).
# Model mode (issue 34): with LOGGP=FILE (a `mpiguide loggp` file; LOGGP=fixture: the test fixture
# tests/cost/data/loggp.txt, measured on this machine with Open MPI at 2 ranks), steps 1 and 2 are
# skipped and each round runs online tuning twice, trial-only (MPIGUIDE_PROFILE=auto) and priced
# (the same with MPIGUIDE_LOGGP=FILE, MPIGUIDE_MODEL_FACTOR=${MODEL_FACTOR:-2}); side by side: the
# medians, each run's exploration (trial calls, their excess time, the rows the model never tried)
# and the rows each chose.
# Everything goes to OUT (summary.txt, profiles, every run's output). Holds /tmp/mg-mpi.lock for the
# whole run (MG_LOCKED=1 if the caller holds it).
set -euo pipefail
[[ ${MG_LOCKED:-} == 1 ]] || exec env MG_LOCKED=1 flock /tmp/mg-mpi.lock "$(realpath "$0")" "$@"
cd "$(dirname "$0")/.."
mpi=${1:-openmpi} np=${2:-4} runs=${3:-5}
out=${4:-results/online-gain-$mpi-np$np}
b=build/$mpi
source benchmarks/bench_lib.sh # launch, xs_for, median
[[ -x $b/mpiguide && -x $b/cg && -x $b/jacobi ]] || scripts/build.sh "$mpi" >&2
lib=$("$b/mpiguide" env --lib)
rm -rf "$out" && mkdir -p "$out"
out=$(realpath "$out")
exec > >(tee "$out/summary.txt") 2>&1

declare -A args=([jacobi]="${JACOBI_ARGS:-64 200000}" [cg]="${CG_ARGS:-512}")
# The time an application's output reports for its iterations.
app_time() {
  case $1 in
  jacobi) sed -n 's/^jacobi: .* iterations in \([0-9.]*\) s.*/\1/p' "$2" ;;
  cg) sed -n 's/^cg: OK .* solve \([0-9.]*\) s.*/\1/p' "$2" ;;
  esac
}
# run APP NAME [VAR=value...]: one launch with these variables on every rank (nothing else of
# mpiguide's); output in OUT/APP/NAME.out; prints the application's time.
run() {
  local app=$1 name=$2
  shift 2
  local xs
  mapfile -t xs < <(xs_for "$@")
  local o=$out/$app/$name.out rc=0
  # shellcheck disable=SC2086 # the application's arguments are words
  env -u LD_PRELOAD -u MPIGUIDE_TRACE -u MPIGUIDE_PROFILE -u MPIGUIDE_ALG -u MPIGUIDE_PROFILE_OUT "$@" \
    "${launch[@]}" "${xs[@]}" "$b/$app" ${args[$app]} >"$o" 2>"$out/$app/$name.err" || rc=$?
  # jacobi exits 2 when it stops at the iteration limit (not an error of MPI); 1 is a wrong answer
  if { ((rc != 0)) && ! [[ $app == jacobi && $rc == 2 ]]; } || [[ -z $(app_time "$app" "$o") ]]; then
    echo "online_gain: $app run $name failed (exit $rc):" >&2
    cat "$o" "$out/$app/$name.err" >&2
    exit 1
  fi
  app_time "$app" "$o"
}
rules() { grep -v '^#' "$1" | grep -Ev '^(mpiguide-profile|end-of-profile)' | grep . || echo "  (no rules)"; }

echo "== online_gain: $mpi, $np ranks, $runs rounds, $(date -u +%FT%TZ), $(uname -n), load: $(cut -d' ' -f1-3 /proc/loadavg) =="
if [[ -n ${LOGGP:-} ]]; then
  [[ $LOGGP == fixture ]] && LOGGP=tests/cost/data/loggp.txt
  lg=$(realpath "$LOGGP") factor=${MODEL_FACTOR:-2}
  echo "model mode: MPIGUIDE_LOGGP=$lg, MPIGUIDE_MODEL_FACTOR=$factor"
  for app in jacobi cg; do
    d=$out/$app
    mkdir -p "$d"
    echo
    echo "=== $app ${args[$app]} ==="
    for v in plain trials model; do : >"$d/$v.sec"; done
    for k in $(seq "$runs"); do
      run "$app" "plain-$k" >>"$d/plain.sec"
      run "$app" "trials-$k" LD_PRELOAD="$lib" MPIGUIDE_PROFILE=auto MPIGUIDE_PROFILE_OUT="$d/trials-$k.prof" >>"$d/trials.sec"
      run "$app" "model-$k" LD_PRELOAD="$lib" MPIGUIDE_PROFILE=auto MPIGUIDE_PROFILE_OUT="$d/model-$k.prof" \
        MPIGUIDE_LOGGP="$lg" MPIGUIDE_MODEL_FACTOR="$factor" >>"$d/model.sec"
      echo "round $k: plain $(tail -1 "$d/plain.sec") s, trial-only $(tail -1 "$d/trials.sec") s, priced $(tail -1 "$d/model.sec") s"
    done
    mp=$(median <"$d/plain.sec") mt=$(median <"$d/trials.sec") mm=$(median <"$d/model.sec")
    awk -v p="$mp" -v t="$mt" -v m="$mm" 'BEGIN { printf "| variant | median s | / plain |\n|---|---|---|\n"
      printf "| plain | %.4f | 1 |\n| online, trial-only | %.4f | %.3f |\n| online, priced by LogGP | %.4f | %.3f |\n",
        p, t, t / p, m, m / p }'
    echo "| round | trial-only: trial calls | priced: trial calls | priced: rows never tried | priced: cells without trials |"
    echo "|---|---|---|---|---|"
    for k in $(seq "$runs"); do
      tc=$(sed -n 's/^# exploration: \([0-9]*\) trial calls.*/\1/p' "$d/trials-$k.prof")
      mc=$(sed -n 's/^# exploration: \([0-9]*\) trial calls.*/\1/p' "$d/model-$k.prof")
      pr=$(sed -n 's/^# model: MPIGUIDE_LOGGP: \([0-9]*\) candidates never tried.*, \([0-9]*\) cells decided without trials/\1 \2/p' "$d/model-$k.prof")
      echo "| $k | $tc | $mc | ${pr% *} | ${pr#* } |"
    done
    for k in $(seq "$runs"); do
      echo "round $k chose: trial-only: $(rules "$d/trials-$k.prof" | sed 's/ *#.*//; s/  */ /g' | paste -sd';' -)"
      echo "               priced:     $(rules "$d/model-$k.prof" | sed 's/ *#.*//; s/  */ /g' | paste -sd';' -)"
    done
  done
  echo
  echo "files: $out"
  exit 0
fi
for app in jacobi cg; do
  d=$out/$app
  mkdir -p "$d"
  echo
  echo "=== $app ${args[$app]} ==="
  echo "-- 1. the trace"
  run "$app" trace LD_PRELOAD="$lib" MPIGUIDE_TRACE="$d/trace.csv" >/dev/null
  grep -v '^#@' "$d/trace.csv" | column -s, -t
  echo "-- 2. the offline loop: check --full --sizes-from the trace --launches 3, then tune"
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086 # CHECK_OPTS are words
  "$b/mpiguide" check --full --sizes-from "$d/trace.csv" --launches 3 ${CHECK_OPTS:-} -q -o "$d/check" -- "${launch[@]}" \
    >"$d/check.log" 2>&1 ||
    { cat "$d/check.log"; echo "online_gain: the check failed" >&2; exit 1; }
  t1=$(date +%s.%N)
  "$b/mpiguide" tune "$d/check" -o "$d/offline.prof" >"$d/tune.log" 2>&1 || printf 'mpiguide-profile 1\n' >"$d/offline.prof"
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "offline campaign: %.1f s of checking (3 launches)\n", b - a }'
  echo "offline rules:" && rules "$d/offline.prof"
  echo "-- 3. $runs rounds, interleaved: plain, online (learning from scratch), offline profile, relearned"
  for v in plain online offline relearned; do : >"$d/$v.sec"; done
  for k in $(seq "$runs"); do
    run "$app" "plain-$k" >>"$d/plain.sec"
    run "$app" "online-$k" LD_PRELOAD="$lib" MPIGUIDE_PROFILE=auto MPIGUIDE_PROFILE_OUT="$d/learned-$k.prof" >>"$d/online.sec"
    run "$app" "offline-$k" LD_PRELOAD="$lib" MPIGUIDE_PROFILE="$d/offline.prof" >>"$d/offline.sec"
    run "$app" "relearned-$k" LD_PRELOAD="$lib" MPIGUIDE_PROFILE="$d/learned-1.prof" >>"$d/relearned.sec"
    echo "round $k: plain $(tail -1 "$d/plain.sec") s, online $(tail -1 "$d/online.sec") s, offline" \
      "$(tail -1 "$d/offline.sec") s, relearned $(tail -1 "$d/relearned.sec") s"
  done
  echo "-- 4. $app: medians over $runs rounds"
  mp=$(median <"$d/plain.sec") mo=$(median <"$d/online.sec") mf=$(median <"$d/offline.sec") mr=$(median <"$d/relearned.sec")
  awk -v p="$mp" -v o="$mo" -v f="$mf" -v r="$mr" 'BEGIN {
    printf "| variant | median s | / plain |\n|---|---|---|\n"
    printf "| plain | %.4f | 1 |\n| online (auto, from scratch) | %.4f | %.3f |\n", p, o, o / p
    printf "| offline profile | %.4f | %.3f |\n| relearned (round 1 learned profile) | %.4f | %.3f |\n", f, f / p, r, r / p }'
  echo "exploration, as each online run measured it:"
  for k in $(seq "$runs"); do sed -n "s/^# exploration: /  round $k: /p" "$d/learned-$k.prof"; done
  echo "learned in round 1:" && rules "$d/learned-1.prof"
  "$b/mpiguide" profile merge "$d"/learned-*.prof -o "$d/merged.prof" 2>"$d/merge.log" || true
  echo "merged over the $runs learned profiles ($(tail -1 "$d/merge.log")):" && rules "$d/merged.prof"
done
echo
echo "files: $out"
