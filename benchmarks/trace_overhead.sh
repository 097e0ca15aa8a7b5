#!/usr/bin/env bash
# The cost of the trace on an application (issue 16): examples/jacobi at NP ranks (default 4),
# run plain (no library), under MPIGUIDE_TRACE (untimed, format 1) and under MPIGUIDE_TRACE +
# MPIGUIDE_TRACE_TIME=1 (timed, format 2), the three interleaved in each of ROUNDS rounds
# (default 9) so drift of the machine favours none. Each run's time is the launch's wall time
# (mpirun start to end, as a user sees it; `date +%s.%N`); the report gives the median per variant
# and the median over rounds of each round's ratio to plain. Goal: timed / plain <= 1.05.
# Not a test: its figures are reported, never asserted.
#
#   benchmarks/trace_overhead.sh [openmpi|mpich] [points-per-rank] [iterations]
#   (NP=4 ROUNDS=9; each round holds /tmp/mg-mpi.lock, taken before any clock starts: the
#   machine is shared)
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${1:-openmpi} m=${2:-64} iters=${3:-100000}
np=${NP:-4} rounds=${ROUNDS:-9}
b=$PWD/build/$mpi
[[ -x $b/jacobi ]] || scripts/build.sh "$mpi" >&2
case $mpi in
openmpi)
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  launch() { mpirun.openmpi --oversubscribe --bind-to none -np "$np" \
               $(for e in "$@"; do printf -- '-x %s ' "$e"; done) "$b/jacobi" "$m" "$iters"; } ;;
mpich)
  launch() { mpiexec.mpich -np "$np" $(for e in "$@"; do printf -- '-env %s %s ' "${e%%=*}" "${e#*=}"; done) \
               "$b/jacobi" "$m" "$iters"; } ;;
*) echo "trace_overhead: openmpi or mpich" >&2; exit 2 ;;
esac
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
lib=$b/libmpiguide.so
variants=(plain trace timed)
envs_plain=()
envs_trace=("LD_PRELOAD=$lib" "MPIGUIDE_TRACE=$tmp/trace.csv")
envs_timed=("LD_PRELOAD=$lib" "MPIGUIDE_TRACE=$tmp/timed.csv" "MPIGUIDE_TRACE_TIME=1")

# One launch: its wall time in seconds. The caller holds the lock (a whole round, below).
one() {
  local -n e=envs_$1
  local t0 t1
  t0=$(date +%s.%N)
  launch "${e[@]}" >"$tmp/out" 2>&1 || true # jacobi exits 2 when it stops before converging
  t1=$(date +%s.%N)
  grep -q "^jacobi:" "$tmp/out" || { cat "$tmp/out" >&2; exit 1; }
  echo "$t1 - $t0" | bc -l
}
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

echo "trace overhead: $mpi, jacobi $np ranks x $m points, $iters iterations, $rounds rounds (interleaved)"
exec 8>>/tmp/mg-mpi.lock
for ((r = 1; r <= rounds; r++)); do
  flock 8
  for v in "${variants[@]}"; do echo "$(one "$v")" >>"$tmp/$v.t"; done
  flock -u 8
  paste "$tmp/plain.t" "$tmp/trace.t" "$tmp/timed.t" | tail -1 |
    awk -v r="$r" '{printf "round %d: plain %.3f s  trace %.3f s  timed %.3f s\n", r, $1, $2, $3}'
done
paste "$tmp/plain.t" "$tmp/trace.t" | awk '{print $2 / $1}' | median >"$tmp/r.trace"
paste "$tmp/plain.t" "$tmp/timed.t" | awk '{print $2 / $1}' | median >"$tmp/r.timed"
paste "$tmp/trace.t" "$tmp/timed.t" | awk '{print $2 / $1}' | median >"$tmp/r.tt"
for v in "${variants[@]}"; do printf '%-6s median %.3f s\n' "$v" "$(median <"$tmp/$v.t")"; done
printf 'median ratio  trace/plain %.4f   timed/plain %.4f   timed/trace %.4f   (goal: timed/plain <= 1.05)\n' \
  "$(cat "$tmp/r.trace")" "$(cat "$tmp/r.timed")" "$(cat "$tmp/r.tt")"
