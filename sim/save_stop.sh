#!/usr/bin/env bash
# sim.save.np16 (issue 50.4): a simulated check stopped by sim/bound.py keeps the cells it finished.
# check saves raw.csv on the host's clock (src/cli/cmd_check_save.c, save_clock): under SMPI,
# MPI_Wtime is simulated time, and 16 ranks never reach 1 simulated second in the 4 s the bound
# gives, so a build saving on it keeps nothing here (and SMPI's SIGTERM reaches one simulated
# rank's handler, not rank 0's, so nothing is saved at the stop either). Asserts: the bound
# stopped the run (timeout), raw.csv holds at least one finished cell and is marked partial, and
# `check --from` analyses it. The check (32 cells) takes 13.6 CPU-s here unbounded: 0.4 a cell, so
# a machine 3x faster still meets the bound, and a third of a core still saves a few.
# Usage: sim/save_stop.sh MPIGUIDE PLATFORM HOSTFILE DIR DRIVER (DRIVER: an ordinary mpiguide, for --from)
set -u
exe=${1:?} plat=${2:?} hosts=${3:?} dir=${4:?} driver=${5:?}
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$dir" "$dir.tsv"
python3 "$here/bound.py" --timeout 4 --pss-max 4096 --log "$dir.tsv" --name save -- \
  env MPIGUIDE_CHECK_SAVE_EVERY=1 smpirun -np 16 -platform "$plat" -hostfile "$hosts" \
  --cfg=smpi/simulate-computation:no --log=root.thres:critical \
  "$exe" check -c allreduce,bcast,allgather,alltoall,reduce,gather,scatter,reduce_scatter --sizes 8,1K,64K,256K \
  --nrep 20 --noise 1ns -q -o "$dir"
rc=$?
fail=0
stopped=$(awk -F'\t' 'NR == 2 { print $3 }' "$dir.tsv" 2>/dev/null)
[[ $rc == 124 && $stopped == timeout ]] || { echo "FAIL: the run was not stopped by the 4 s bound (exit $rc, stopped '$stopped')"; fail=1; }
cells=$(awk -F, '!/^#/ && $2 == "default" && $NF == 1 { c[$1 "," $3 "," $6] = 1 } END { print length(c) }' "$dir/raw.csv" 2>/dev/null)
echo "cells saved: ${cells:-none}"
((${cells:-0} >= 1)) || { echo "FAIL: no cell in $dir/raw.csv after the stop"; fail=1; }
grep -q '^#@check_incomplete' "$dir/raw.csv" 2>/dev/null || { echo "FAIL: raw.csv is not marked #@check_incomplete"; fail=1; }
"$driver" check --from "$dir" -o "$dir.from" --force -q >/dev/null 2>&1 ||
  { echo "FAIL: check --from could not analyse the saved cells"; fail=1; }
exit $fail
