#!/usr/bin/env bash
# The main job on this machine: set up, build, and check the local MPI library against
# the performance guidelines (Open MPI by default; MPIGUIDE_MPI=mpich for MPICH).
#  1. `mpiguide check --quick` on 4 ranks (about 10-30 s here): measures every
#     collective's default and mock-ups in one launch, tests each guideline, and
#     prints the grouped violation table and the summary; results go to a directory
#     (raw.csv, verdicts.csv/json, summary.txt, report.html).
#  2. An unmodified MPI application (examples/jacobi.c) run with libmpiguide preloaded
#     and mock-ups forced, and the trace showing which algorithm ran for each call.
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
  openmpi) launch=(mpirun.openmpi --oversubscribe -np "$np")
           export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ;;
  mpich) launch=(mpiexec.mpich -np "$np") ;;
  *) echo "quickstart: MPIGUIDE_MPI must be openmpi or mpich" >&2; exit 2 ;;
esac

echo "== mpiguide check --quick on $np ranks ($mpi) -> $out =="
"${launch[@]}" "$b/mpiguide" check --quick --force -o "$out"

trace=$out/jacobi-trace.csv # beside the check's results, nothing left in /tmp
alg=allreduce=allreduce_as_reduce_bcast,bcast=bcast_as_scatter_allgather,gather=gather_as_gatherv,scatter=scatter_as_scatterv
echo
echo "== an unmodified application with libmpiguide preloaded: jacobi on $np ranks =="
echo "   MPIGUIDE_ALG=$alg"
LD_PRELOAD=$PWD/$b/libmpiguide.so MPIGUIDE_ALG=$alg MPIGUIDE_TRACE=$trace \
  "${launch[@]}" "$b/jacobi" 16 20000
echo "== its trace ($trace): which algorithm ran, per collective and message size =="
column -s, -t < <(grep -v '^#@' "$trace") 2>/dev/null || grep -v '^#@' "$trace"
echo
echo "Results of the check: $out (report.html to open in a browser, summary.txt, verdicts.csv, raw.csv); docs/check.md explains them."
