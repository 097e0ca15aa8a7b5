#!/usr/bin/env bash
# The main job on this machine: set up, build, and check the local MPI library against
# the performance guidelines (Open MPI by default; MPIGUIDE_MPI=mpich for MPICH).
#  1. `mpiguide check --quick` on 4 ranks (a minute or more here: its 80 s budget): measures every
#     collective's default and mock-ups in one launch, tests each guideline, and
#     prints the grouped violation table and the summary; results go to a directory
#     (raw.csv, verdicts.csv/json, summary.txt, report.html).
#  2. The loop for an unmodified MPI application (examples/jacobi.c, libmpiguide preloaded):
#     its trace (which collectives and sizes it calls), a check of exactly those
#     (--sizes-from), a profile from both checks (tune), and jacobi again with the profile,
#     with the trace that shows which algorithm ran and which profile rule chose it.
# Usage: scripts/quickstart.sh [ranks] [results-dir]   (defaults: 4, results/check-<mpi>)
set -euo pipefail
cd "$(dirname "$0")/.."
np=${1:-4}
mpi=${MPIGUIDE_MPI:-openmpi}
out=${2:-results/check-$mpi}

scripts/setup.sh
scripts/build.sh "$mpi"
b=build/$mpi

case $mpi in
  openmpi) launch=(mpirun.openmpi --oversubscribe -np "$np") # -x: pass a variable to every rank
           pass=(-x LD_PRELOAD -x MPIGUIDE_TRACE) pass_prof=(-x LD_PRELOAD -x MPIGUIDE_TRACE -x MPIGUIDE_PROFILE)
           export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ;;
  mpich) launch=(mpiexec.mpich -np "$np") pass=() pass_prof=() ;;
  *) echo "quickstart: MPIGUIDE_MPI must be openmpi or mpich" >&2; exit 2 ;;
esac

echo "== mpiguide check --quick on $np ranks ($mpi) -> $out =="
"${launch[@]}" "$b/mpiguide" check --quick --force -o "$out"

# The loop for an application, on examples/jacobi.c (unmodified, libmpiguide preloaded):
#  what it calls (trace) -> check exactly those calls -> tune -> run it with the profile.
lib=$("$b/mpiguide" env --lib)
trace=$out/jacobi-trace.csv # beside the check's results, nothing left in /tmp
jout=$out-jacobi
echo
echo "== an unmodified application with libmpiguide preloaded: what jacobi calls on $np ranks =="
LD_PRELOAD=$lib MPIGUIDE_TRACE=$trace "${launch[@]}" "${pass[@]}" "$b/jacobi" 16 20000
column -s, -t < <(grep -v '^#@' "$trace") 2>/dev/null || grep -v '^#@' "$trace"
echo
echo "== check exactly the collectives and sizes jacobi called (--sizes-from its trace) -> $jout =="
"${launch[@]}" "$b/mpiguide" check --sizes-from "$trace" --budget 30s --force -o "$jout"
echo
echo "== tune: a profile from both checks (conclusive violations only) =="
"$b/mpiguide" tune "$out" "$jout" -o "$out/jacobi.prof" || true
echo
echo "== jacobi again, with the profile: which algorithm ran, and which rule chose it =="
LD_PRELOAD=$lib MPIGUIDE_PROFILE=$(realpath "$out/jacobi.prof") MPIGUIDE_TRACE=$trace \
  "${launch[@]}" "${pass_prof[@]}" "$b/jacobi" 16 20000
column -s, -t < <(grep -v '^#@' "$trace") 2>/dev/null || grep -v '^#@' "$trace"
# what it gained, said plainly: the calls a profile rule chose (the trace's rule column)
tuned=$(awk -F, '!/^#/ && $1 != "collective" && $8 != "" {print $1 " " $2 " B: " $3}' "$trace")
echo
if [[ -z $tuned ]]; then
  echo "jacobi: no call was chosen by a profile rule: the rules are at other sizes than jacobi's calls,"
  echo "so it ran the library's defaults, nothing gained (its own check: $(grep -s ',violation,' "$jout/verdicts.csv" | grep -vc '^collective,') violations at its sizes)."
else
  echo "jacobi: calls run by a profile rule: $(echo "$tuned" | paste -sd ';' -)"
fi
echo
echo "Results of the check: $out (report.html to open in a browser, summary.txt, verdicts.csv, raw.csv);"
echo "jacobi's: $jout; its profile: $out/jacobi.prof. docs/check.md and docs/tune.md explain them."
