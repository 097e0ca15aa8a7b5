#!/usr/bin/env bash
# Pass-through cost of libmpiguide: benchmarks/overhead.c (one-element MPI_Allreduce on
# MPI_COMM_SELF, a million calls) without the library, with it preloaded and nothing set
# (pure pass-through), in force mode for another collective (MPIGUIDE_ALG=bcast=...,
# so every MPI_Allreduce takes the dispatch path), and in tuned mode (MPIGUIDE_PROFILE)
# with a 64-range profile that never fires, with a 1024-range profile over 8 collectives and
# 8 process counts that never fires either (as a model-filled profile would be), and with one
# that fires.
# Variants run interleaved, ROUNDS times (default 11); the medians are reported.
# LIB=path/to/libmpiguide.so measures another build of the library (e.g. a baseline) with this
# script's variants.
# COLL=barrier (or exscan, reduce_scatter, gatherv, scatterv, alltoallv, alltoallw) times that collective instead of MPI_Allreduce; the
# dispatch variant then forces a mock-up of another collective, and the tuned variants are the
# allreduce profiles (for a barrier they never fire: the lookup cost alone).
# Usage: [COLL=barrier] [ROUNDS=n] [LIB=...] scripts/bench-overhead.sh [openmpi|mpich] [calls]
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${1:-openmpi}
calls=${2:-1000000}
coll=${COLL:-allreduce}
rounds=${ROUNDS:-11}
b=build/$mpi
[[ -x $b/overhead ]] || scripts/build.sh "$mpi"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
lib=${LIB:-$PWD/$b/libmpiguide.so}
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
# 1024 ranges: 8 collectives x 8 process counts (1 .. 128) x 16 ranges [2^(i+1)+1, 2^(i+2)-1],
# i = 0 .. 15. The benchmark's 8 bytes fall between 5-7 and 9-15 of allreduce np=1: a miss in a
# size class that has ranges.
{
  echo "mpiguide-profile 1"
  for alg in allreduce_as_reduce_bcast bcast_as_allgatherv reduce_as_allreduce allgather_as_gather_bcast \
    alltoall_as_alltoallv scan_as_exscan_reducelocal exscan_as_scan_sendrecv \
    reduce_scatter_block_as_reduce_scatter; do
    for np in 1 2 4 8 16 32 64 128; do
      for ((i = 0; i < 16; i++)); do echo "${alg%%_as_*} np=$np $((2 ** (i + 1) + 1))-$((2 ** (i + 2) - 1)) $alg"; done
    done
  done
} >"$tmp/large.prof"

declare -A res
variants=(passthrough dispatch tuned-miss tuned-large tuned-fire)
# BASE=path/to/other/libmpiguide.so: the same variants with that library too, in the same rounds
# (rows "<variant>@base"), for a before/after comparison without drift between two sessions.
libs=("$lib")
[[ -n ${BASE:-} ]] && libs+=("$BASE")
names=(none)
for v in "${variants[@]}"; do
  names+=("$v")
  [[ -n ${BASE:-} ]] && names+=("$v@base")
done
for ((r = 0; r < rounds; r++)); do
  res[none]+="$(run) "
  for l in "${libs[@]}"; do
    t=$([[ $l == "$lib" ]] || echo @base)
    res[passthrough$t]+="$(run LD_PRELOAD="$l") "
    res[dispatch$t]+="$(run LD_PRELOAD="$l" MPIGUIDE_ALG=bcast=bcast_as_allgatherv) "
    res[tuned-miss$t]+="$(run LD_PRELOAD="$l" MPIGUIDE_PROFILE="$tmp/miss.prof") "
    res[tuned-large$t]+="$(run LD_PRELOAD="$l" MPIGUIDE_PROFILE="$tmp/large.prof") "
    res[tuned-fire$t]+="$(run LD_PRELOAD="$l" MPIGUIDE_PROFILE="$tmp/fire.prof") "
  done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
minimum() { tr ' ' '\n' | grep . | sort -g | head -1; }
base=$(median <<<"${res[none]}")
bmin=$(minimum <<<"${res[none]}")
printf "%-17s %9s %7s %7s %9s %7s   (%s, %d calls, %d interleaved runs, pinned to one core)\n" variant \
  "median ns" "+med" ratio "min ns" "+min" "$mpi, MPI_$coll" "$calls" "$rounds"
for v in "${names[@]}"; do
  m=$(median <<<"${res[$v]}")
  n=$(minimum <<<"${res[$v]}")
  printf "%-17s %9.2f %7.2f %7.3f %9.2f %7.2f   runs: %s\n" "$v" "$m" "$(awk -v a="$m" -v b="$base" 'BEGIN{print a-b}')" \
    "$(awk -v a="$m" -v b="$base" 'BEGIN{print a/b}')" "$n" "$(awk -v a="$n" -v b="$bmin" 'BEGIN{print a-b}')" "${res[$v]}"
done
echo "(+med, +min: the median and the minimum minus those without the library; the machine is shared, the minimum is the least disturbed run)"
