#!/usr/bin/env bash
# Predicted against measured hot spots (issue 34 part 3, docs/hotspots.md; Guo et al., Table II): the
# example applications run twice under libmpiguide, with an untimed trace (MPIGUIDE_TRACE: calls and
# sizes only) and with a timed one (MPIGUIDE_TRACE_TIME=1); `mpiguide hotspots UNTIMED --loggp`
# predicts the top N = 10 / P = 80 % from the calls and the cost model alone, `--measured TIMED`
# sets the measured ones beside them and counts the set difference (per operation, process count
# and size), and the timed trace priced by the model gives the same per call site. Not a test.
#
#   benchmarks/hotspots_model.sh [openmpi|mpich] [NP=4] [OUT=results/hotspots-model]
#
# APPS="jacobi cg hpcc cp2k" chooses the applications (default: jacobi cg). hpcc and cp2k are the
# Debian archive's (scripts/apps.sh; their inputs examples/apps/hpcc/hpccinf.txt and
# examples/apps/cp2k/water4-md.inp, a run of tens of seconds each at 4 ranks), built against Open
# MPI only: with mpich they are skipped, said so.
#
# Environment (optional): LOGGP=FILE (LogGP parameters; default: `mpiguide loggp` at NP, minutes on
# a loaded machine), CHECK=DIR (a check result whose defaults' medians price the calls it measured),
# JACOBI_ARGS (64 20000), CG_ARGS (512).
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${1:-openmpi} np=${2:-4} out=${3:-results/hotspots-model}
b=$PWD/build/$mpi
case $mpi in
openmpi) export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
         run() { local env=$1; shift; timeout 600 mpirun.openmpi --oversubscribe --bind-to none $env -np "$@"; }
         envs() { for e in "$@"; do printf -- '-x %s ' "$e"; done; } ;;
mpich) run() { local env=$1; shift; timeout 600 mpiexec.mpich $env -np "$@"; }
       envs() { for e in "$@"; do printf -- '-env %s %s ' "${e%%=*}" "${e#*=}"; done; } ;;
*) echo "hotspots_model: openmpi or mpich" >&2; exit 2 ;;
esac
[[ -x $b/mpiguide && -x $b/jacobi && -x $b/cg ]] || scripts/build.sh "$mpi" >&2
rm -rf "$out" && mkdir -p "$out"
out=$(cd "$out" && pwd)
lg=${LOGGP:-$out/loggp.txt}
[[ -n ${LOGGP:-} ]] || run "" "$np" "$b/mpiguide" loggp -o "$lg" >"$out/loggp.log" 2>&1
{
  echo "# benchmarks/hotspots_model.sh $mpi $np  LOGGP=$lg${CHECK:+ CHECK=$CHECK}"
  echo "# $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
} | tee "$out/summary.txt"
declare -A args=([jacobi]="${JACOBI_ARGS:-64 20000}" [cg]="${CG_ARGS:-512}"
  [hpcc]=examples/apps/hpcc/hpccinf.txt [cp2k]=examples/apps/cp2k/water4-md.inp)
# APP KIND ENV...: one traced run of APP (KIND untimed or timed) under libmpiguide
traced_run() {
  local app=$1 kind=$2
  shift 2
  case $app in
  jacobi | cg) # jacobi exits 2 at its iteration cap: the trace is written all the same
    # shellcheck disable=SC2046,SC2086
    run "$(envs LD_PRELOAD="$b/libmpiguide.so" "$@")" "$np" "$b/$app" ${args[$app]} >"$out/$app-$kind.log" 2>&1 || true ;;
  hpcc | cp2k) # scripts/apps.sh runs it in its own directory; the application's own check after
    # shellcheck disable=SC2046
    scripts/apps.sh run "$app" "${args[$app]}" "$out/$app-$kind" timeout 900 mpirun.openmpi --oversubscribe \
      --bind-to none $(envs LD_PRELOAD="$b/libmpiguide.so" OMP_NUM_THREADS=1 "$@") -np "$np" >"$out/$app-$kind.log" 2>&1 || true
    scripts/apps.sh verify "$app" "$out/$app-$kind" 2>&1 | tee -a "$out/summary.txt" ;;
  esac
}
for app in ${APPS:-jacobi cg}; do
  if [[ $app == hpcc || $app == cp2k ]]; then
    [[ $mpi == openmpi ]] || { echo "== $app: skipped (Debian builds it against Open MPI only)" | tee -a "$out/summary.txt"; continue; }
    scripts/apps.sh install >&2 || exit 1
  fi
  echo "== $app ${args[$app]}, $mpi, $np processes" | tee -a "$out/summary.txt"
  traced_run "$app" untimed MPIGUIDE_TRACE="$out/$app-untimed.csv"
  traced_run "$app" timed MPIGUIDE_TRACE="$out/$app-timed.csv" MPIGUIDE_TRACE_TIME=1
  ck=(${CHECK:+--check "$CHECK"})
  "$b/mpiguide" hotspots "$out/$app-timed.csv" | sed 's/^/  /' | tee -a "$out/summary.txt"
  "$b/mpiguide" hotspots "$out/$app-untimed.csv" --loggp "$lg" "${ck[@]}" --measured "$out/$app-timed.csv" 2>&1 |
    sed 's/^/  /' | tee -a "$out/summary.txt"
  "$b/mpiguide" hotspots "$out/$app-timed.csv" --loggp "$lg" "${ck[@]}" --measured "$out/$app-timed.csv" 2>&1 |
    sed -n '/^predicted against/,$p' | sed 's/^/  per site: /' | tee -a "$out/summary.txt"
done
