#!/usr/bin/env bash
# A synthetic check raw.csv (docs/check.md) in which one library variant beats the default and
# every mock-up at one size and not at another: what `mpiguide tune` must turn into the library's
# own setting (tests/libvar/run_libvar.sh tune_*).
#   make_synthetic.sh FILE KIND NP VARIANT VALUE [both]
# KIND: openmpi or mpich; the cell allreduce 65536 bytes (MPI_DOUBLE, MPI_SUM): default ~100 us,
# allreduce_as_reduce_bcast ~90 us, lib:VARIANT ~50 us; at 16 bytes all three ~5 us (with `both`:
# there too the default 10 us, the mock-up 9 us, the variant 5 us).
# Runtimes: a fixed pseudo-random spread (awk srand(7)), 60 measurements each, interleaved rounds.
set -eu
out=$1 kind=$2 np=$3 variant=$4 value=$5 both=${6:-}
{
  echo "#@format=mpiguide-bench-raw/2"
  echo "#@mpi_library_name=$([[ $kind == openmpi ]] && echo 'Open MPI' || echo MPICH)"
  echo "#@mpi_library_version=synthetic"
  echo "#@nprocs=$np"
  echo "#@nnodes=1"
  echo "#@launch=synthetic0001"
  echo "#@sync_cost_sec=0.0000005"
  echo "#@lib_variants=allreduce=$variant"
  echo "#@lib_variants_source=$kind synthetic"
  echo "#@lib_variant_values=allreduce:$variant=$value"
  [[ $kind == openmpi ]] && echo "#@lib_variant_params=allreduce:4,0"
  echo "collective,algorithm,bytes,count,datatype,op,root,nprocs,launch,round,rep,warmup,runtime_sec,valid"
  awk -v np="$np" -v v="lib:$variant" -v both="$both" 'BEGIN {
    srand(7)
    n = split("16 65536", sizes, " ")
    for (s = 1; s <= n; s++) {
      b = sizes[s]
      for (r = 0; r < 60; r++) {
        split("default allreduce_as_reduce_bcast " v, algs, " ")
        for (a = 1; a <= 3; a++) {
          base = b == 16 && both == "" ? 5e-6 : (a == 1 ? 100e-6 : a == 2 ? 90e-6 : 50e-6) / (b == 16 ? 10 : 1)
          t = base * (1 + 0.05 * rand())
          printf "allreduce,%s,%d,%d,MPI_DOUBLE,MPI_SUM,,%d,synthetic0001,%d,%d,0,%.9f,1\n", algs[a], b, b / 8, np, r, r, t
        }
      }
    }
  }'
} >"$out"
