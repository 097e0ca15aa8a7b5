#!/usr/bin/env bash
# What the site shim libmpiguide-preload.so costs (docs/library.md, "Enabling it for a whole
# site"; issue 49): not a test, its figures are reported, never asserted.
#   1. exec cost of a process that is not an MPI program: /bin/true run EXEC_N times (default 100)
#      from bash, as a login shell runs its commands, with nothing preloaded, with an empty shared
#      library (what the loader charges for any preloaded library), with the shim, and with each
#      MPI's libmpiguide preloaded directly; ROUNDS rounds (default 5), each run timed alone
#      (EPOCHREALTIME around it: the same shell overhead in every variant), the variants
#      interleaved run by run; per variant the minimum over rounds of a round's mean, and the
#      median and minimum of all runs.
#      Then a program linked with each MPI that returns before MPI_Init (mpi_init_time.c --exit),
#      run alone: plain, under the shim (executed again), with its libmpiguide preloaded.
#   2. MPI_Init and a whole launch of a 2-rank hello world (benchmarks/mpi_init_time.c, built here
#      with each MPI's mpicc): plain, with the shim (which executes each rank again with its
#      libmpiguide) and with libmpiguide preloaded directly; MPI_N launches per variant and round
#      (default 10), interleaved; per variant the minimum over all launches of rank 0's reported
#      MPI_Init (the longest of the ranks) and of the launch's wall time (mpirun start to end).
#
#   benchmarks/site-preload.sh [exec]           # both MPIs (build/openmpi and build/mpich);
#                                               # exec: part 1 only
#   (EXEC_N=100 ROUNDS=5 MPI_N=10; the MPI part holds /tmp/mg-mpi.lock per round: the machine is
#   shared)
set -euo pipefail
cd "$(dirname "$0")/.."
exec_n=${EXEC_N:-100} rounds=${ROUNDS:-5} mpi_n=${MPI_N:-10}
for m in openmpi mpich; do
  [[ -e build/$m/libmpiguide.so.0 && -e build/$m/libmpiguide-preload.so ]] ||
    cmake --build "build/$m" -j2 --target mpiguide mpiguide_preload >&2
done
shim=$PWD/build/openmpi/libmpiguide-preload.so # the same code in both builds (no MPI)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset MPIGUIDE MPIGUIDE_LIB_OPENMPI MPIGUIDE_LIB_MPICH

now() { echo "${EPOCHREALTIME/./}"; } # microseconds
min_of() { sort -n | head -1; }

# ---- 1. exec cost ----
printf 'void mg_empty(void) {}\n' >"$tmp/empty.c"
cc -shared -fPIC -O2 -o "$tmp/libempty.so" "$tmp/empty.c"
declare -A pre=([none]="" [empty-so]=$tmp/libempty.so [shim]=$shim [openmpi-lib]=$PWD/build/openmpi/libmpiguide.so.0
  [mpich-lib]=$PWD/build/mpich/libmpiguide.so.0)
names=(none empty-so shim openmpi-lib mpich-lib)
for m in openmpi mpich; do "mpicc.$m" -O2 -o "$tmp/hello-$m" benchmarks/mpi_init_time.c; done
for ((r = 0; r < rounds; r++)); do
  for ((i = 0; i < exec_n; i++)); do # each run of each variant timed alone, the variants interleaved
    for v in "${names[@]}"; do
      t0=$(now)
      LD_PRELOAD=${pre[$v]} /bin/true
      t1=$(now)
      echo "$r $((t1 - t0))" >>"$tmp/exec-$v"
    done
  done
done
echo "exec cost of /bin/true from bash, µs: the minimum over $rounds rounds of a round's mean of $exec_n runs;"
echo "the median and the minimum of all $((rounds * exec_n)) runs"
for v in "${names[@]}"; do
  printf '  %-12s %6d %6d %6d\n' "$v" \
    "$(awk '{s[$1] += $2; n[$1]++} END {m = -1; for (r in s) if (m < 0 || s[r] / n[r] < m) m = s[r] / n[r]; print int(m)}' "$tmp/exec-$v")" \
    "$(cut -d' ' -f2 "$tmp/exec-$v" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')" \
    "$(cut -d' ' -f2 "$tmp/exec-$v" | min_of)"
done
# a program linked with MPI that returns before MPI_Init, run alone (no launcher): what loading
# it costs plain, under the shim (which executes it again with its libmpiguide), and with its
# libmpiguide preloaded directly
for m in openmpi mpich; do
  declare -A lp=([plain]="" [shim]=$shim [lib]=$PWD/build/$m/libmpiguide.so.0)
  for ((r = 0; r < rounds; r++)); do
    for ((i = 0; i < exec_n; i++)); do
      for v in plain shim lib; do
        t0=$(now)
        LD_PRELOAD=${lp[$v]} "$tmp/hello-$m" --exit
        t1=$(now)
        echo "$((t1 - t0))" >>"$tmp/load-$m-$v"
      done
    done
  done
  echo "$m: a program of it that returns before MPI_Init, µs: median and minimum of $((rounds * exec_n)) runs"
  for v in plain shim lib; do
    printf '  %-6s %6d %6d\n' "$v" "$(sort -n "$tmp/load-$m-$v" | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}')" \
      "$(min_of <"$tmp/load-$m-$v")"
  done
done

# the shim's decision alone, in a process without MPI: the link map walked, MPIGUIDE read
cat >"$tmp/check.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include "util/process.h"
int main(void) {
  struct timespec a, b;
  unsigned x = 0;
  clock_gettime(CLOCK_MONOTONIC, &a);
  for (int i = 0; i < 100000; i++) x += mg_proc_libs() + (unsigned)mg_proc_off(getenv("MPIGUIDE"));
  clock_gettime(CLOCK_MONOTONIC, &b);
  printf("  the shim's check in /bin/true's place: %.0f ns (%u)\n", ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / 1e5, x);
}
C
cc -O2 -Isrc -o "$tmp/check" "$tmp/check.c" src/util/process.c
"$tmp/check"
[[ ${1:-} == exec ]] && exit 0

# ---- 2. MPI_Init and the launch ----
exec 8>>/tmp/mg-mpi.lock
for m in openmpi mpich; do
  case $m in
  openmpi) launch() { mpirun.openmpi --oversubscribe --bind-to none -np 2 ${1:+-x LD_PRELOAD="$1"} "$tmp/hello-$m"; } ;;
  mpich) launch() { mpiexec.mpich -np 2 ${1:+-env LD_PRELOAD "$1"} "$tmp/hello-$m"; } ;;
  esac
  declare -A mp=([plain]="" [shim]=$shim [lib]=$PWD/build/$m/libmpiguide.so.0)
  # the shim must really load this MPI's libmpiguide: its trace is the proof
  MPIGUIDE_TRACE=$tmp/check-$m.csv launch "$shim" >/dev/null
  grep -q "^#@mpi_library" "$tmp/check-$m.csv" || { echo "site-preload: the shim did not load $m's libmpiguide" >&2; exit 1; }
  for ((r = 0; r < rounds; r++)); do
    flock 8
    for ((i = 0; i < mpi_n; i++)); do
      for v in plain shim lib; do
        t0=$(now)
        init=$(launch "${mp[$v]}")
        t1=$(now)
        echo "$init" >>"$tmp/init-$m-$v"
        echo "$((t1 - t0))" >>"$tmp/run-$m-$v"
      done
    done
    flock -u 8
  done
  echo "$m, 2 ranks (min over $((rounds * mpi_n)) launches, µs): MPI_Init, whole launch"
  for v in plain shim lib; do
    printf '  %-6s %8d %8d\n' "$v" "$(min_of <"$tmp/init-$m-$v")" "$(min_of <"$tmp/run-$m-$v")"
  done
done
