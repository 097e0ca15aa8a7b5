#!/usr/bin/env bash
# Pass-through cost of libmpiguide: benchmarks/overhead.c (one-element MPI_Allreduce on
# MPI_COMM_SELF, a million calls) without the library, with it preloaded and nothing set
# (pure pass-through), in force mode for another collective (MPIGUIDE_ALG=bcast=...,
# so every MPI_Allreduce takes the dispatch path), and in tuned mode (MPIGUIDE_PROFILE)
# with a 64-range profile that never fires and with one that fires.
# Variants run interleaved, ROUNDS times (default 7); the medians are reported.
# COLL=barrier (or exscan, reduce_scatter, gatherv, scatterv, alltoallv, alltoallw) times that collective instead of MPI_Allreduce; the
# dispatch variant then forces a mock-up of another collective, and the tuned variants are the
# allreduce profiles (for a barrier they never fire: the lookup cost alone).
# Usage: [COLL=barrier] scripts/bench-overhead.sh [openmpi|mpich] [calls]
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${1:-openmpi}
calls=${2:-1000000}
coll=${COLL:-allreduce}
rounds=${ROUNDS:-7}
b=build/$mpi
[[ -x $b/overhead ]] || scripts/build.sh "$mpi"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
lib=$PWD/$b/libmpiguide.so
# One core: the benchmark is one process, and moving between cores adds noise.
run() { env "$@" taskset -c "${CORE:-0}" "$b/overhead" "$calls" "$coll" | awk '{print $1}'; }

# Tuned mode: a profile of 64 allreduce ranges for one process that never covers the
# benchmark's 8 bytes (every call does the lookup and runs the default), and one whose
# rule fires (every call runs allreduce_as_reduce_bcast: the mock-up's own cost counts).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
  echo "mpiguide-profile 1"
  for ((i = 1; i <= 64; i++)); do echo "allreduce np=1 $((16 * i))-$((16 * i + 7)) allreduce_as_reduce_bcast"; done
} >"$tmp/miss.prof"
printf 'mpiguide-profile 1\nallreduce np=1 8 allreduce_as_reduce_bcast\n' >"$tmp/fire.prof"

declare -A res
names=(none passthrough dispatch tuned-miss tuned-fire)
for ((r = 0; r < rounds; r++)); do
  res[none]+="$(run) "
  res[passthrough]+="$(run LD_PRELOAD="$lib") "
  res[dispatch]+="$(run LD_PRELOAD="$lib" MPIGUIDE_ALG=bcast=bcast_as_allgatherv) "
  res[tuned-miss]+="$(run LD_PRELOAD="$lib" MPIGUIDE_PROFILE="$tmp/miss.prof") "
  res[tuned-fire]+="$(run LD_PRELOAD="$lib" MPIGUIDE_PROFILE="$tmp/fire.prof") "
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
minimum() { tr ' ' '\n' | grep . | sort -g | head -1; }
base=$(median <<<"${res[none]}")
bmin=$(minimum <<<"${res[none]}")
printf "%-12s %9s %7s %9s %7s   (%s, %d calls, %d interleaved runs, pinned to one core)\n" variant \
  "median ns" ratio "min ns" "+ns" "$mpi, MPI_$coll" "$calls" "$rounds"
for v in "${names[@]}"; do
  m=$(median <<<"${res[$v]}")
  n=$(minimum <<<"${res[$v]}")
  printf "%-12s %9.2f %7.3f %9.2f %7.2f   runs: %s\n" "$v" "$m" "$(awk -v a="$m" -v b="$base" 'BEGIN{print a/b}')" \
    "$n" "$(awk -v a="$n" -v b="$bmin" 'BEGIN{print a-b}')" "${res[$v]}"
done
echo "(+ns: minimum minus the minimum without the library; the machine is shared, the minimum is the least disturbed run)"
