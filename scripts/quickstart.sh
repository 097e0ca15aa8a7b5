#!/usr/bin/env bash
# The main job on this machine: set up, build, then show what mpiguide does with the
# local MPI (Open MPI by default; MPIGUIDE_MPI=mpich for MPICH).
#  1. `mpiguide list`: the collectives and the guideline mock-ups it can run;
#  2. an unmodified MPI application (examples/jacobi.c) run with libmpiguide preloaded
#     and mock-ups forced, and the trace showing which algorithm ran for each call.
# Usage: scripts/quickstart.sh [ranks]   (default 4)
set -euo pipefail
cd "$(dirname "$0")/.."
np=${1:-4}
mpi=${MPIGUIDE_MPI:-openmpi}

scripts/setup.sh
scripts/build.sh "$mpi"
b=build/$mpi

case $mpi in
  openmpi) launch=(mpirun.openmpi --oversubscribe -np "$np")
           export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ;;
  mpich) launch=(mpiexec.mpich -np "$np") ;;
esac

echo "== mpiguide list =="
"$b/mpiguide" list

trace=$(mktemp --suffix=.csv)
alg=allreduce=allreduce_as_reduce_bcast,bcast=bcast_as_scatter_allgather,gather=gather_as_gatherv,scatter=scatter_as_scatterv
echo
echo "== jacobi on $np ranks ($mpi), LD_PRELOAD=$b/libmpiguide.so =="
echo "   MPIGUIDE_ALG=$alg"
LD_PRELOAD=$PWD/$b/libmpiguide.so MPIGUIDE_ALG=$alg MPIGUIDE_TRACE=$trace \
  "${launch[@]}" "$b/jacobi" 16 2000
echo
echo "== trace ($trace): which algorithm ran, per collective and message size =="
column -s, -t < <(grep -v '^#@' "$trace") 2>/dev/null || grep -v '^#@' "$trace"
