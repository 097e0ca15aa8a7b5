#!/usr/bin/env bash
# How long `mpiguide check` takes, and what the sequential stopping rule (docs/statistics.md,
# "Stopping when the verdict is decided"; --stop-rule, issue 31) saves without weakening a verdict.
# Not a test: its figures are reported, never asserted. Each figure is printed with its command.
#
#   benchmarks/check_time.sh compare [NP=4] [openmpi|mpich] [LAUNCHES=3] [OUT=results/check-time] [CHECK OPTIONS...]
#       (a) the old rule (--stop-rule rse) and the new (--stop-rule decided) side by side on a subset
#           (default: --full -c allreduce,bcast,alltoall), launches interleaved (rse 1, decided 1,
#           decided 2, rse 2, ...: drift of the machine cannot favour a rule), each launch timed;
#           then each rule's launches analysed together (`check --from`) and the verdict classes
#           compared cell by cell: the wall time per rule, the ratio, the cells whose outcome
#           differs (each named with both outcomes and slowdowns).
#       With BASELINE=1 a third arm, the old rule once more (rse2), measures the noise floor: how
#       many cells differ between two sets of launches under the same rule on this machine.
#       With PREV=path/to/another/mpiguide a further arm, prev: that binary's `--stop-rule decided`
#       (e.g. a build of the commit before a change of the rule), interleaved with the others, its
#       time and its verdicts against this binary's decided. ARMS="decided prev decided2" chooses
#       the arms (of rse, decided, rse2, decided2, prev); decided2, the new rule once more, is the
#       noise floor of decided against prev.
#   benchmarks/check_time.sh full [NP=4] [openmpi|mpich] [LAUNCHES=3] [OUT=results/check-time]
#       (b) the wall time of `mpiguide check --full --launches 3` with the rule on (the default),
#           e.g. at 4 ranks of Open MPI on a quiet machine (MPICH busy-polls: fewer ranks).
#           PROGRESS=1: without -q, the launches' progress lines in OUT/full.log, and each launch's
#           own estimate summarised against the time it took (as below).
#   PROGRESS=1 (compare): the launches run without -q and each log keeps the progress lines (one every
#       5 s under mpirun); after each launch its estimate is summarised against the time it took:
#       elapsed + ETA at 1, 2 and 5 minutes over the launch's own time, the largest slowness printed
#       ("machine N.Nx slower than at start"), and how often elapsed + ETA rose by more than 10 %
#       from one line to the next after the first minute (issue 31: honest from the first minute).
# The load average before and after each part is printed: on a loaded machine the figures are
# several times larger and the ratio noisier.
set -euo pipefail
cd "$(dirname "$0")/.."
part=${1:-compare} np=${2:-4} mpi=${3:-openmpi} nl=${4:-3} out=${5:-results/check-time}
shift $(($# < 5 ? $# : 5))
extra=("$@")
((${#extra[@]})) || extra=(--full -c allreduce,bcast,alltoall)
b=build/$mpi
case $mpi in
openmpi) launcher=(mpirun.openmpi --oversubscribe -np "$np")
         export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ;;
mpich) launcher=(mpiexec.mpich -np "$np") ;;
*) echo "check_time: openmpi or mpich" >&2; exit 2 ;;
esac
[[ -x $b/mpiguide ]] || scripts/build.sh "$mpi" >&2
exe=${MPIGUIDE:-$PWD/$b/mpiguide} # MPIGUIDE=path: another binary (e.g. a copy, while the build changes)
load() { cut -d' ' -f1-3 /proc/loadavg; }
now() { date +%s.%N; }
mkdir -p "$out"

# PROGRESS=1: a launch's estimate against its own time (the header says what is printed).
eta_summary() {
  python3 - "$1" "$2" <<'PY'
import re, sys
log, total = sys.argv[1], float(sys.argv[2])
pts, slow = [], 1.0
for l in open(log, errors="replace"):
    m = re.search(r"elapsed (\d+)s\s+ETA (\d+)s", l)
    if m: pts.append((float(m.group(1)), float(m.group(1)) + float(m.group(2))))
    m = re.search(r"machine ([0-9.]+)x slower", l)
    if m: slow = max(slow, float(m.group(1)))
at = lambda t: next((e for el, e in pts if el >= t), None)
fmt = lambda t: f"{at(t) / total:.2f}x ({at(t):.0f} s)" if at(t) else "-"
late = [e for el, e in pts if el >= 60]
rises = sum(1 for a, b in zip(late, late[1:]) if b > 1.1 * a)
print(f"check_time:   estimate (elapsed + ETA) / actual {total:.0f} s: at 1 min {fmt(60)}, 2 min {fmt(120)}, "
      f"5 min {fmt(300)}; largest slowness printed {slow:.1f}x; rises > 10 % after 1 min: {rises}")
PY
}

if [[ $part == full ]]; then
  q=-q
  [[ ${PROGRESS:-0} == 1 ]] && q=
  cmd=("$exe" check --full --launches "$nl" $q -o "$out/full" --force -- "${launcher[@]}")
  echo "check_time: load before: $(load)"
  t0=$(now)
  "${cmd[@]}" >/dev/null 2>"$out/full.log" || { cat "$out/full.log" >&2; exit 1; }
  t=$(echo "$(now) - $t0" | bc)
  printf 'check_time: (b) %.0f s (%s) for: %s\n' "$t" "$(date -u +%Y-%m-%d)" "${cmd[*]}"
  echo "check_time: load after: $(load)"
  if [[ ${PROGRESS:-0} == 1 ]]; then # each launch's progress lines against the time it took
    for k in $(seq "$nl"); do
      lt=$(sed -n "s/^mpiguide check: launch $k of $nl done in \([0-9.]*\) s.*/\1/p" "$out/full.log")
      [[ -n $lt ]] || continue
      grep "^mpiguide check: launch $k/$nl " "$out/full.log" | sed 's/ (this launch \([0-9]*\)s)/ [\1]/' \
        | sed -E 's/ETA ([0-9]+)s \[([0-9]+)\]/ETA \2s/' >"$out/full.launch-$k.log"
      echo "check_time: launch $k of $nl, $lt s (the launch's own ETA, without the launches after it):"
      eta_summary "$out/full.launch-$k.log" "$lt"
    done
  fi
  exit 0
fi
[[ $part == compare ]] || { echo "check_time: compare or full" >&2; exit 2; }

arms=(rse decided)
[[ ${BASELINE:-0} == 1 ]] && arms+=(rse2)
[[ -n ${PREV:-} ]] && arms+=(prev)
[[ -n ${ARMS:-} ]] && read -ra arms <<<"$ARMS"
for arm in "${arms[@]}"; do [[ $arm == prev && -z ${PREV:-} ]] && { echo "check_time: prev needs PREV=binary" >&2; exit 2; }; done
for arm in "${arms[@]}"; do rm -rf "${out:?}/$arm" && mkdir -p "$out/$arm"; done
echo "check_time: load before: $(load)"
declare -A total=([rse]=0 [decided]=0 [rse2]=0 [decided2]=0 [prev]=0)
for k in $(seq "$nl"); do
  order=("${arms[@]}")
  if ((k % 2 == 0)); then order=(); for ((i = ${#arms[@]} - 1; i >= 0; i--)); do order+=("${arms[i]}"); done; fi
  for rule in "${order[@]}"; do
    q=-q
    [[ ${PROGRESS:-0} == 1 ]] && q=
    if [[ $rule == prev ]]; then
      cmd=("${launcher[@]}" "$PREV" check "${extra[@]}" --stop-rule decided $q -o "$out/$rule/launch-$k")
    else
      cmd=("${launcher[@]}" "$exe" check "${extra[@]}" --stop-rule "${rule%2}" $q -o "$out/$rule/launch-$k")
    fi
    t0=$(now)
    "${cmd[@]}" >"$out/$rule/launch-$k.log" 2>&1 || { echo "check_time: failed: ${cmd[*]}" >&2; cat "$out/$rule/launch-$k.log" >&2; exit 1; }
    t=$(echo "$(now) - $t0" | bc)
    total[$rule]=$(echo "${total[$rule]} + $t" | bc)
    printf 'check_time: launch %d, %-7s %6.0f s  (load %s): %s\n' "$k" "$rule" "$t" "$(load)" "${cmd[*]}"
    [[ ${PROGRESS:-0} == 1 ]] && eta_summary "$out/$rule/launch-$k.log" "$t"
  done
done
for rule in "${arms[@]}"; do
  dirs=()
  for k in $(seq "$nl"); do dirs+=("$out/$rule/launch-$k"); done
  "$exe" check --from "${dirs[@]}" -o "$out/$rule" --force -q >/dev/null
done
echo "check_time: load after: $(load)"
python3 - "$out" "${total[rse]}" "${total[decided]}" "$nl" "$np" "$mpi" "${extra[*]}" "${BASELINE:-0}" \
  "${total[prev]}" "${PREV:-}" "${arms[*]}" <<'PY'
import csv, sys
out, trse, tdec, nl, np, mpi, opts, base, tprev, prev, arms = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), *sys.argv[4:]
arms = arms.split()
base = "1" if "rse2" in arms else "0" 
def verdicts(d):
    rows = [l for l in open(f"{d}/verdicts.csv") if not l.startswith("#")]
    return {(r["collective"] + (":" + r["reduction"] if r.get("reduction") else ""), int(r["bytes"]), r["mockup"],
             r.get("relation", "mockup")): r for r in csv.DictReader(rows)}
b = verdicts(f"{out}/decided")
a = verdicts(f"{out}/rse") if "rse" in arms else b
def stops(d):
    n = {}
    for k in range(1, int(nl) + 1):
        for l in open(f"{d}/launch-{k}/raw.csv"):
            if l.startswith("#@stop="):
                r = l.split("=", 1)[1].strip().split(",")[3]
                n[r] = n.get(r, 0) + 1
    return n
cells = sorted(set(a) & set(b))
def num(x):
    try: return f"{float(x):.3f}"
    except ValueError: return x or "-"
diff = [c for c in cells if a[c]["outcome"] != b[c]["outcome"]]
count = lambda v, o: sum(1 for c in cells if v[c]["outcome"] == o)
print(f"check_time: (a) {opts}, {nl} launches per rule interleaved, {np} ranks, {mpi}:")
if "rse" in arms: print(f"  --stop-rule rse      {trse:7.0f} s  (stops: {stops(out + '/rse')})")
print(f"  --stop-rule decided  {tdec:7.0f} s  (stops: {stops(out + '/decided')})")
if "rse" in arms: print(f"  ratio rse / decided  {trse / tdec:7.2f}")
if "decided2" in arms:
    d2 = verdicts(f"{out}/decided2")
    same = sorted(set(b) & set(d2))
    print(f"  noise floor: decided against decided again (other launches): "
          f"{sum(1 for c in same if b[c]['outcome'] != d2[c]['outcome'])} of {len(same)} cells differ")
if "rse" in arms: print(f"  verdicts: {len(cells)} cells in both; violation/consistent/inconclusive: rse "
      f"{count(a, 'violation')}/{count(a, 'consistent')}/{count(a, 'inconclusive')}, decided "
      f"{count(b, 'violation')}/{count(b, 'consistent')}/{count(b, 'inconclusive')}")
weaker = sum(1 for c in diff if a[c]["outcome"] != "inconclusive" and b[c]["outcome"] == "inconclusive")
if "rse" in arms: print(f"  cells whose verdict class differs: {len(diff)} ({weaker} conclusive with rse, inconclusive with decided; "
      f"{len(diff) - weaker} the other way or between violation and consistent)")
if base == "1":
    c2 = verdicts(f"{out}/rse2")
    same = sorted(set(a) & set(c2))
    d2 = [c for c in same if a[c]["outcome"] != c2[c]["outcome"]]
    print(f"  noise floor: rse against rse again (other launches, same rule): {len(d2)} of {len(same)} cells differ")
if prev and "prev" in arms:
    p = verdicts(f"{out}/prev")
    same = sorted(set(p) & set(b))
    dp = [c for c in same if p[c]["outcome"] != b[c]["outcome"]]
    wp = sum(1 for c in dp if p[c]["outcome"] != "inconclusive" and b[c]["outcome"] == "inconclusive")
    print(f"  prev ({prev}) --stop-rule decided {float(tprev):7.0f} s  (stops: {stops(out + '/prev')})")
    print(f"  ratio prev / decided  {float(tprev) / tdec:7.2f}")
    print(f"  prev against decided: {len(dp)} of {len(same)} cells differ in class ({wp} conclusive with prev, "
          f"inconclusive with this binary; violation/consistent/inconclusive: prev "
          + "/".join(str(sum(1 for c in same if p[c]['outcome'] == o)) for o in ('violation', 'consistent', 'inconclusive'))
          + ", decided " + "/".join(str(sum(1 for c in same if b[c]['outcome'] == o)) for o in ('violation', 'consistent', 'inconclusive'))
          + ")")
    for c in dp:
        print(f"    {c[0]} {c[1]} {c[2]}: prev {p[c]['outcome']} ({num(p[c]['slowdown'])}), decided {b[c]['outcome']} "
              f"({num(b[c]['slowdown'])} [{num(b[c]['slowdown_lo'])}, {num(b[c]['slowdown_hi'])}])")
for c in diff:
    print(f"    {c[0]} {c[1]} {c[2]}{'' if c[3] == 'mockup' else ' (' + c[3] + ')'}: rse {a[c]['outcome']} "
          f"({num(a[c]['slowdown'])} [{num(a[c]['slowdown_lo'])}, {num(a[c]['slowdown_hi'])}]), decided {b[c]['outcome']} "
          f"({num(b[c]['slowdown'])} [{num(b[c]['slowdown_lo'])}, {num(b[c]['slowdown_hi'])}])")
PY
