#!/usr/bin/env bash
# Configure and build mpiguide once per MPI library, side by side:
#   build/openmpi  (mpicc.openmpi, mpirun.openmpi)
#   build/mpich    (mpicc.mpich,   mpiexec.mpich)
# Usage: scripts/build.sh [openmpi|mpich ...]   (default: both)
# Extra CMake options can be passed in MPIGUIDE_CMAKE_ARGS.
set -euo pipefail
cd "$(dirname "$0")/.."

flavors=("$@")
((${#flavors[@]})) || flavors=(openmpi mpich)
for f in "${flavors[@]}"; do
  case $f in
    openmpi) cc=mpicc.openmpi; run=/usr/bin/mpirun.openmpi; other=mpich ;;
    mpich) cc=mpicc.mpich; run=/usr/bin/mpiexec.mpich; other=openmpi ;;
    *) echo "build: unknown MPI '$f' (use openmpi or mpich)" >&2; exit 2 ;;
  esac
  # MPIGUIDE_OTHER_MPI_LIB: the test that preloads the wrong library (intercept.other_mpi)
  cmake -S . -B "build/$f" -DMPI_C_COMPILER="$cc" -DMPIEXEC_EXECUTABLE="$run" \
        -DMPIGUIDE_OTHER_MPI_LIB="$PWD/build/$other/libmpiguide.so" \
        -DMPIGUIDE_WERROR=ON ${MPIGUIDE_CMAKE_ARGS:-} >"build-$f.log" 2>&1 ||
    { cat "build-$f.log" >&2; exit 1; }
  cmake --build "build/$f" -j"$(nproc)" >>"build-$f.log" 2>&1 || { tail -50 "build-$f.log" >&2; exit 1; }
  rm -f "build-$f.log"
  echo "build: build/$f ready" >&2
done
