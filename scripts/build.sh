#!/usr/bin/env bash
# Configure and build mpiguide once per MPI library, side by side:
#   build/openmpi  (mpicc.openmpi, mpirun.openmpi)
#   build/mpich    (mpicc.mpich,   mpiexec.mpich)
#   build/smpi     (smpicc, smpirun: SimGrid's simulated MPI; only when asked for, docs/scale.md)
#   build/fuzz     (clang with libFuzzer, ASan and UBSan, Open MPI's headers: the readers' fuzz
#                  targets and the truncation walk of tests/fuzz only; docs/fuzzing.md; only when
#                  asked for, and skipped with a message where clang cannot link a fuzzer)
# Usage: scripts/build.sh [openmpi|mpich|smpi|fuzz ...]   (default: openmpi and mpich)
# Extra CMake options can be passed in MPIGUIDE_CMAKE_ARGS.
set -euo pipefail
cd "$(dirname "$0")/.."

flavors=("$@")
((${#flavors[@]})) || flavors=(openmpi mpich)
for f in "${flavors[@]}"; do
  case $f in
    openmpi) cc=mpicc.openmpi; run=/usr/bin/mpirun.openmpi; other=mpich ;;
    mpich) cc=mpicc.mpich; run=/usr/bin/mpiexec.mpich; other=openmpi ;;
    smpi) cc=smpicc; run=/usr/bin/smpirun; other= ;;
    fuzz) cc=mpicc.openmpi; run=/usr/bin/mpirun.openmpi; other= ;;
    *) echo "build: unknown MPI '$f' (use openmpi, mpich, smpi or fuzz)" >&2; exit 2 ;;
  esac
  if [[ $f == fuzz ]]; then
    # clang compiles, FindMPI takes Open MPI's flags from mpicc.openmpi; -j2 (a sanitized build is
    # heavy, and the machine's cores are shared). Without a clang that links libFuzzer
    # (scripts/setup.sh installs clang and libclang-rt-14-dev) the fuzz build is skipped.
    probe=$(mktemp -d)
    printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' >"$probe/p.c"
    if ! command -v clang >/dev/null ||
      ! clang -fsanitize=fuzzer,address,undefined -o "$probe/p" "$probe/p.c" >/dev/null 2>&1; then
      rm -rf "$probe"
      echo "build: no clang that links -fsanitize=fuzzer (scripts/setup.sh installs clang and" \
        "libclang-rt-14-dev): build/fuzz skipped" >&2
      continue
    fi
    rm -rf "$probe"
    cmake -S . -B build/fuzz -DCMAKE_C_COMPILER=clang -DMPI_C_COMPILER="$cc" -DMPIEXEC_EXECUTABLE="$run" \
          -DMPIGUIDE_FUZZ=ON -DMPIGUIDE_WERROR=ON ${MPIGUIDE_CMAKE_ARGS:-} >build-fuzz.log 2>&1 ||
      { cat build-fuzz.log >&2; exit 1; }
    cmake --build build/fuzz -j2 >>build-fuzz.log 2>&1 || { tail -50 build-fuzz.log >&2; exit 1; }
    rm -f build-fuzz.log
    echo "build: build/fuzz ready" >&2
    continue
  fi
  if [[ $f == smpi ]]; then
    # smpicc links programs as shared objects for smpirun; CMake's compiler checks run them, so
    # they see it as a plain compiler (SMPI_PRETEND_CC), the build itself as smpicc.
    command -v smpicc >/dev/null || { echo "build: no smpicc: scripts/setup.sh installs libsimgrid-dev" >&2; exit 1; }
    SMPI_PRETEND_CC=1 cmake -S . -B build/smpi -DCMAKE_C_COMPILER=smpicc -DMPI_C_COMPILER=smpicc \
          -DMPIEXEC_EXECUTABLE="$run" -DMPIGUIDE_WERROR=ON ${MPIGUIDE_CMAKE_ARGS:-} >build-smpi.log 2>&1 ||
      { cat build-smpi.log >&2; exit 1; }
    cmake --build build/smpi -j"$(nproc)" >>build-smpi.log 2>&1 || { tail -50 build-smpi.log >&2; exit 1; }
    rm -f build-smpi.log
    echo "build: build/smpi ready" >&2
    continue
  fi
  # MPIGUIDE_OTHER_MPI_LIB: the test that preloads the wrong library (intercept.other_mpi)
  cmake -S . -B "build/$f" -DMPI_C_COMPILER="$cc" -DMPIEXEC_EXECUTABLE="$run" \
        -DMPIGUIDE_OTHER_MPI_LIB="$PWD/build/$other/libmpiguide.so" \
        -DMPIGUIDE_WERROR=ON ${MPIGUIDE_CMAKE_ARGS:-} >"build-$f.log" 2>&1 ||
    { cat "build-$f.log" >&2; exit 1; }
  cmake --build "build/$f" -j"$(nproc)" >>"build-$f.log" 2>&1 || { tail -50 "build-$f.log" >&2; exit 1; }
  rm -f "build-$f.log"
  echo "build: build/$f ready" >&2
done
