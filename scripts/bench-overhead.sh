#!/usr/bin/env bash
# Pass-through cost of libmpiguide: benchmarks/overhead.c (one-element MPI_Allreduce on
# MPI_COMM_SELF, a million calls) without the library, with it preloaded and nothing set
# (pure pass-through), and in force mode for another collective (MPIGUIDE_ALG=bcast=...),
# so every MPI_Allreduce takes the dispatch path (describe, select, run default, count).
# Variants run interleaved, ROUNDS times (default 7); the medians are reported.
# Usage: scripts/bench-overhead.sh [openmpi|mpich] [calls]
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${1:-openmpi}
calls=${2:-1000000}
rounds=${ROUNDS:-7}
b=build/$mpi
[[ -x $b/overhead ]] || scripts/build.sh "$mpi"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
lib=$PWD/$b/libmpiguide.so
run() { env "$@" "$b/overhead" "$calls" | awk '{print $1}'; }

declare -A res
names=(none passthrough dispatch)
for ((r = 0; r < rounds; r++)); do
  res[none]+="$(run) "
  res[passthrough]+="$(run LD_PRELOAD="$lib") "
  res[dispatch]+="$(run LD_PRELOAD="$lib" MPIGUIDE_ALG=bcast=bcast_as_allgatherv) "
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
base=$(median <<<"${res[none]}")
printf "%-12s %12s %10s   (%s, %d calls, median of %d interleaved runs)\n" variant "ns/call" ratio "$mpi" "$calls" "$rounds"
for v in "${names[@]}"; do
  m=$(median <<<"${res[$v]}")
  printf "%-12s %12.2f %10.3f   runs: %s\n" "$v" "$m" "$(awk -v a="$m" -v b="$base" 'BEGIN{print a/b}')" "${res[$v]}"
done
