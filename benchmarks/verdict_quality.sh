#!/usr/bin/env bash
# The verdict-quality benchmark (issue 19, docs/statistics.md): how stable and how honest the
# three verdicts of `mpiguide check` are on this machine. Not a test: its figures are reported,
# never asserted.
#
#   benchmarks/verdict_quality.sh [REPS=5] [NP=4] [openmpi|mpich] [OUT=results/verdict-quality]
#
# Workload: allreduce, bcast, allgather and reduce at 8 B, 1 KiB and 64 KiB, every mock-up, with
# the A/A control (--aa), replicated: each repetition is `check --launches 3` (a 15 s budget per
# launch). Then the same REPS times with a planted 1.5x slowdown of PMPI_Allreduce from 64 KiB
# (tests/check/plant.c, MG_PLANT_FUNC=allreduce MG_PLANT_FACTOR=1.5) and allreduce at 256 KiB too.
# It prints:
#   - stability: the share of (collective, size, mock-up) verdicts that never flip between
#     violation and consistent over the repetitions (goal >= 95 %), the mean share inconclusive,
#     the wall time of one repetition (goal <= 60 s);
#   - the plant: in how many repetitions allreduce at 64 KiB and 256 KiB has a violation, and how
#     often the verdicts below 64 KiB equal the unplanted ones (the same cell's most common one);
#   - the A/A control: the share of repetitions in which it is a violation (at most alpha) and
#     consistent (most).
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-5} np=${2:-4} mpi=${3:-openmpi} out=${4:-results/verdict-quality}
b=build/$mpi
case $mpi in
openmpi) launcher=(mpirun.openmpi --oversubscribe -np "$np")
         export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
         plant_env=(-x LD_PRELOAD -x MG_PLANT_FUNC -x MG_PLANT_FACTOR -x MG_PLANT_BYTES) ;;
mpich) launcher=(mpiexec.mpich -np "$np") plant_env=() ;;
*) echo "verdict_quality: openmpi or mpich" >&2; exit 2 ;;
esac
[[ -x $b/mpiguide && -e $b/tests/check/libmg_plant.so ]] || scripts/build.sh "$mpi" >&2
rm -rf "$out" && mkdir -p "$out"
opts=(-c allreduce,bcast,allgather,reduce --sizes 8,1K,64K --aa --budget 15s)

for k in $(seq "$reps"); do
  start=$(date +%s.%N)
  "$b/mpiguide" check --launches 3 "${opts[@]}" -q -o "$out/plain-$k" -- "${launcher[@]}" >/dev/null
  echo "$(date +%s.%N) - $start" | bc >"$out/plain-$k.seconds"
  echo "verdict_quality: repetition $k of $reps: $(cat "$out/plain-$k.seconds") s" >&2
done
for k in $(seq "$reps"); do
  LD_PRELOAD=$PWD/$b/tests/check/libmg_plant.so MG_PLANT_FUNC=allreduce MG_PLANT_FACTOR=1.5 MG_PLANT_BYTES=65536 \
    "$b/mpiguide" check --launches 3 -c allreduce,bcast,allgather,reduce --sizes 8,1K,64K,256K --aa --budget 15s \
    -q -o "$out/planted-$k" -- "${launcher[@]}" "${plant_env[@]}" >/dev/null
  echo "verdict_quality: planted repetition $k of $reps done" >&2
done

python3 - "$out" "$reps" <<'EOF'
import csv, glob, os, sys
from collections import Counter, defaultdict
out, reps = sys.argv[1], int(sys.argv[2])
def verdicts(d):
    rows = [l for l in open(os.path.join(d, "verdicts.csv")) if not l.startswith("#")]
    # a reduction measured with several (datatype, op) pairs has a verdict per pair
    return {(r["collective"] + (":" + r["reduction"] if r.get("reduction") else ""), int(r["bytes"]), r["mockup"]):
            r["outcome"] for r in csv.DictReader(rows)}
plain = [verdicts(f"{out}/plain-{k}") for k in range(1, reps + 1)]
planted = [verdicts(f"{out}/planted-{k}") for k in range(1, reps + 1)]
cells = sorted({c for v in plain for c in v if c[2] != "default_aa"})
never = sum(1 for c in cells if not {"violation", "consistent"} <= {v.get(c) for v in plain})
incon = sum(v.get(c) == "inconclusive" for v in plain for c in cells) / (len(cells) * reps)
secs = [float(open(f"{out}/plain-{k}.seconds").read()) for k in range(1, reps + 1)]
print(f"stability: {never} of {len(cells)} verdicts never flip between violation and consistent "
      f"({100 * never / len(cells):.1f} %) over {reps} repetitions of check --launches 3")
print(f"inconclusive: {100 * incon:.1f} % of the verdicts on average")
print(f"wall time of one repetition: median {sorted(secs)[len(secs) // 2]:.1f} s (min {min(secs):.1f}, max {max(secs):.1f})")
for size in (65536, 262144):
    hit = sum(any(o == "violation" for (c, b, m), o in v.items() if c.startswith("allreduce") and b == size and m != "default_aa")
              for v in planted)
    print(f"plant: allreduce {size // 1024} KiB has a violation in {hit} of {reps} repetitions")
mode = {c: Counter(v.get(c) for v in plain).most_common(1)[0][0] for c in cells}
below = [(c, v.get(c)) for v in planted for c in cells if c[1] < 65536]
same = sum(o == mode[c] for c, o in below)
print(f"plant: below 64 KiB {same} of {len(below)} verdicts equal the unplanted run's most common one "
      f"({100 * same / len(below):.1f} %)")
aa = [o for v in plain for (c, b, m), o in v.items() if m == "default_aa"]
cnt = Counter(aa)
print(f"A/A control: {len(aa)} comparisons: violation {100 * cnt['violation'] / len(aa):.1f} %, "
      f"consistent {100 * cnt['consistent'] / len(aa):.1f} %, inconclusive {100 * cnt['inconclusive'] / len(aa):.1f} %")
EOF
