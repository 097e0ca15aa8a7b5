#!/usr/bin/env bash
# sim.campaign.np4 (issue 50.4): a tiny sim/campaigns/scale.spec — two simulated configurations
# (selectors ompi and mpich on fattree-16, 4 ranks, allreduce at two sizes), each launch through
# sim/bound.py — run, interrupted, resumed: a configuration done is not run again, the one
# interrupted is resumed, and each finished launch appends its cost line to runs.tsv.
# Usage: campaign_sim.sh DRIVER SMPI_MPIGUIDE SOURCE_DIR OUTDIR   (DRIVER: an ordinary mpiguide build)
set -euo pipefail
drv=$1 smpi=$2 src=$3 out=$4
[[ -x $drv ]] || { echo "campaign_sim.sh: no ordinary mpiguide $drv (MPIGUIDE_SIM_DRIVER): skipped"; exit 77; }
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$out" && mkdir -p "$out"
tree=$out/tree spec=$out/tiny.spec
{
  echo "out $tree"
  echo "launches 1"
  echo "layouts 4x1"
  for s in ompi mpich; do
    echo "sim $s-ft16 $smpi $src/sim/bound.py --timeout 120 --pss-max 4096 --log $tree/runs.tsv --name $s-ft16-{np}" \
         "-- smpirun -np {np} -platform $src/sim/platforms/fattree-16.xml -hostfile $src/sim/platforms/fattree-16.hosts" \
         "--cfg=smpi/coll-selector:$s --cfg=smpi/simulate-computation:no --log=root.thres:warning"
  done
  echo "check -c allreduce --sizes 8,1K --noise 1ns"
} >"$spec"
runs() { grep -c "^$1	" "$tree/runs.tsv" || true; }

# 1. the first configuration alone
"$drv" campaign "$spec" --only ompi-ft16-4x1 >"$out/run1.log" 2>&1 || { cat "$out/run1.log"; fail "run 1"; }
[[ -f $tree/ompi-ft16-4x1.done ]] || fail "ompi-ft16-4x1 not marked done"
grep -q "MPIGUIDE_LAUNCH_EXE=$smpi" "$tree/ompi-ft16-4x1.done" || fail "the mark does not name the smpi build"
[[ $(runs ompi-ft16-4) == 1 ]] || fail "runs.tsv: not one line of ompi-ft16-4"
grep -qx '#@selector=ompi' "$tree/ompi-ft16-4x1/launch-1/raw.csv" || fail "raw.csv: not selector ompi"
grep -q '^allreduce,' "$tree/ompi-ft16-4x1/verdicts.csv" || fail "no allreduce verdicts for ompi"
stamp=$(stat -c %Y.%s "$tree/ompi-ft16-4x1/launch-1/raw.csv")

# 2. the whole spec, interrupted (SIGINT to its process group) once the second launch has begun
setsid "$drv" campaign "$spec" >"$out/run2.log" 2>&1 &
pid=$!
for ((i = 0; i < 600; i++)); do [[ -d $tree/mpich-ft16-4x1/launch-1 ]] && break; sleep 0.05; done
kill -INT -- -"$pid" 2>/dev/null || true
rc=0; wait "$pid" || rc=$?
grep -q 'ompi-ft16-4x1.*done (skipped)' "$out/run2.log" || { cat "$out/run2.log"; fail "run 2: ompi not skipped"; }
interrupted=0
if [[ ! -f $tree/mpich-ft16-4x1.done ]]; then
  interrupted=1
  ((rc != 0)) || fail "run 2 interrupted but exit 0"
fi

# 3. rerun: the done one skipped, the interrupted one resumed to its end
"$drv" campaign "$spec" >"$out/run3.log" 2>&1 || { cat "$out/run3.log"; fail "run 3"; }
grep -q 'ompi-ft16-4x1.*done (skipped)' "$out/run3.log" || fail "run 3: ompi not skipped"
((interrupted)) && { grep -q 'mpich-ft16-4x1.*resumed' "$out/run3.log" || { cat "$out/run3.log"; fail "run 3: mpich not resumed"; }; }
[[ -f $tree/mpich-ft16-4x1.done ]] || fail "mpich-ft16-4x1 not marked done"
grep -qx '#@selector=mpich' "$tree/mpich-ft16-4x1/launch-1/raw.csv" || fail "raw.csv: not selector mpich"
grep -q '^allreduce,' "$tree/mpich-ft16-4x1/verdicts.csv" || fail "no allreduce verdicts for mpich"

# 4. a third run measures nothing
"$drv" campaign "$spec" >"$out/run4.log" 2>&1 || { cat "$out/run4.log"; fail "run 4"; }
[[ $(stat -c %Y.%s "$tree/ompi-ft16-4x1/launch-1/raw.csv") == "$stamp" ]] || fail "ompi's launch was measured again"
[[ $(runs ompi-ft16-4) == 1 ]] || fail "runs.tsv: ompi-ft16-4 run again"
n=$(runs mpich-ft16-4)
[[ $n -ge 1 && $n -le 2 ]] || fail "runs.tsv: $n lines of mpich-ft16-4 (1, or 2 with the interrupted one)"
awk -F'\t' 'NR > 1 && ($5 !~ /^[0-9.]+$/ || $6 !~ /^[0-9]+$/) { exit 1 }' "$tree/runs.tsv" || fail "runs.tsv: CPU-s or Pss not numbers"
echo "ok: ompi done once and skipped after; mpich interrupted=$interrupted and resumed; runs.tsv:"
cat "$tree/runs.tsv"
