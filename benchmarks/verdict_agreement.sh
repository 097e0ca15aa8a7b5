#!/usr/bin/env bash
# The verdict-agreement benchmark (issue 51, docs/statistics.md "One decision per line"): is a
# violation that `check` reports one that `verify` confirms a moment later? Not a test: its figures
# are reported, never asserted.
#
#   benchmarks/verdict_agreement.sh [REPS=3] [NP=2] [openmpi|mpich] [OUT=results/verdict-agreement]
#                                   [LAUNCHES=3] [MIN_SPAN=20s] [BUDGET=10s]
#
# Workload, each repetition: `check --launches LAUNCHES --min-span MIN_SPAN` of bcast at 1 KiB, 64 KiB
# and 256 KiB with two mock-ups, under the planted slowdown the tests use (tests/check/plant.c,
# MG_PLANT_NS_PER_BYTE=20: PMPI_Bcast 20 ns per byte slower from 64 KiB, 1.3 ms and 5.2 ms per call):
#   - bcast_as_allgatherv does not call PMPI_Bcast: at 64 and 256 KiB a true, planted violation;
#   - bcast_as_packed makes the default's own call (MPI_BYTE is contiguous): its true ratio is 1 at
#     every size, within any margin: a rule for it is a false rule;
# then `tune` (rules marked SHORT SPAN when their launches span less than MIN_SPAN) and `verify` of
# that profile under the same plant. It prints, over the repetitions:
#   - the share of tune's rules (check's violations that pass the gain) that verify confirms
#     ("faster" at the rule's sizes; goal >= 90 %), and the same for the check's violations overall;
#   - the share of planted violations found (bcast_as_allgatherv at 64 and 256 KiB; goal: all);
#   - the false-rule rate: rules naming bcast_as_packed (goal: none);
#   - the replication span the check reported, and the wall time of a repetition.
# Bounded: REPS x (LAUNCHES x BUDGET + MIN_SPAN + verify's BUDGET), about a minute a repetition at
# the defaults.
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-3} np=${2:-2} mpi=${3:-openmpi} out=${4:-results/verdict-agreement}
launches=${5:-3} min_span=${6:-20s} budget=${7:-10s}
b=build/$mpi
plant=$PWD/$b/tests/check/libmg_plant.so
case $mpi in
openmpi) launcher=(mpirun.openmpi --oversubscribe -np "$np" -x LD_PRELOAD -x MG_PLANT_NS_PER_BYTE)
         export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ;;
mpich) launcher=(mpiexec.mpich -np "$np") ;;
*) echo "verdict_agreement: openmpi or mpich" >&2; exit 2 ;;
esac
[[ -x $b/mpiguide && -e $plant ]] || scripts/build.sh "$mpi" >&2
rm -rf "$out" && mkdir -p "$out"
export MG_PLANT_NS_PER_BYTE=20
for k in $(seq "$reps"); do
  start=$(date +%s)
  LD_PRELOAD=$plant "$b/mpiguide" check --launches "$launches" --min-span "$min_span" -c bcast \
    -m bcast_as_allgatherv,bcast_as_packed --sizes 1K,64K,256K --noise 1us --budget "$budget" -q \
    -o "$out/check-$k" -- "${launcher[@]}" >/dev/null 2>"$out/check-$k.err" || true
  dirs=("$out/check-$k"/launch-*/)
  "$b/mpiguide" tune "${dirs[@]%/}" --min-span "$min_span" -o "$out/p-$k.prof" >"$out/tune-$k.out" 2>&1 || true
  if grep -q '^bcast ' "$out/p-$k.prof" 2>/dev/null; then
    LD_PRELOAD=$plant "${launcher[@]}" "$b/mpiguide" verify --profile "$out/p-$k.prof" -o "$out/verify-$k" \
      --budget "$budget" --noise 1us >"$out/verify-$k.out" 2>&1 || true
  fi
  echo $(($(date +%s) - start)) >"$out/rep-$k.seconds"
  echo "verdict_agreement: repetition $k of $reps: $(cat "$out/rep-$k.seconds") s" >&2
done

python3 - "$out" "$reps" <<'EOF'
import csv, os, re, sys
out, reps = sys.argv[1], int(sys.argv[2])
def rows(path):
    if not os.path.exists(path): return []
    return list(csv.DictReader(l for l in open(path) if not l.startswith("#")))
rules = confirmed = viol = viol_conf = planted = planted_found = false_rules = 0
spans, secs = [], []
for k in range(1, reps + 1):
    v = [r for r in rows(f"{out}/check-{k}/verdicts.csv") if r["mockup"] != "default_aa"]
    ver = {(int(r["bytes"]), r["tuned"]): r["verdict"] for r in rows(f"{out}/verify-{k}/verify.csv")
           if r["in_profile"] == "1"}
    for r in v:
        if r["outcome"] != "violation": continue
        viol += 1
        viol_conf += ver.get((int(r["bytes"]), r["mockup"])) == "faster"
    for b in (65536, 262144):
        planted += 1
        planted_found += any(r["outcome"] == "violation" and int(r["bytes"]) == b and r["mockup"] == "bcast_as_allgatherv"
                             for r in v)
    prof = f"{out}/p-{k}.prof"
    for line in (open(prof) if os.path.exists(prof) else []):
        m = re.match(r"^bcast\s+np=\S+\s+(\S+)\s+(\S+)", line)
        if not m: continue
        rules += 1
        false_rules += m.group(2) == "bcast_as_packed"
        cells = [verd for (b, alg), verd in ver.items() if alg == m.group(2)]
        confirmed += bool(cells) and all(c == "faster" for c in cells)
    s = open(f"{out}/check-{k}/summary.txt").read() if os.path.exists(f"{out}/check-{k}/summary.txt") else ""
    m = re.search(r"replication over time: ([^\n;]*)", s)
    spans.append(m.group(1) if m else "?")
    secs.append(int(open(f"{out}/rep-{k}.seconds").read()))
pct = lambda a, b: f"{100 * a / b:.0f} %" if b else "-"
print(f"verify confirmed {confirmed} of {rules} rules ({pct(confirmed, rules)}; goal >= 90 %)")
print(f"verify confirmed {viol_conf} of {viol} check violations at tuned cells ({pct(viol_conf, viol)}; a violation "
      f"below the 10 % gain gets no rule and is never verified)")
print(f"planted violations found: {planted_found} of {planted} ({pct(planted_found, planted)}; goal: all)")
print(f"false rules (bcast_as_packed, true ratio 1): {false_rules} of {rules} rules (goal: none)")
print(f"replication: {'; '.join(spans)}")
print(f"wall time of a repetition: {', '.join(map(str, secs))} s")
EOF
