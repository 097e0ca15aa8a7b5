#!/usr/bin/env bash
# `mpiguide check` on a simulated platform, with SimGrid's SMPI (docs/scale.md).
#
# Usage: scripts/sim.sh --platform FILE --np N [--selector S] [--build DIR] [--timeout SECONDS]
#                       [--compute] [--cfg NAME:VALUE ...] -o DIR [--force] [-- CHECK-OPTIONS...]
#   --platform  a SimGrid platform of one <cluster> (sim/platforms/*.xml); its hosts, in order,
#               are the hostfile: rank i runs on host i (--rpn K: on host i/K; more ranks than slots share hosts)
#   --np        simulated ranks
#   --rpn K     K consecutive ranks per host (block placement, as mpirun's by-slot and srun's block
#               distribution put them: ranks 0..K-1 on the first host); default 1
#   --selector  SMPI's collective selection logic: default (SMPI's own), ompi, mpich, mvapich2,
#               impi, automatic (--cfg=smpi/coll-selector); default: ompi
#   --build     the smpi build (scripts/build.sh smpi); default: build/smpi of this tree
#   --timeout   wall-clock bound of the simulation (default 3600 s): timeout(1) stops it
#   --compute   inject the host's measured computation time between MPI calls (SMPI's default);
#               without it (smpi/simulate-computation:no) only communication takes simulated time:
#               deterministic, and fair to mock-ups, since SMPI's own collectives compute for free
#   --cfg       any further SimGrid option (repeatable), e.g. --cfg smpi/allreduce:rab
#   --noise T   the noise threshold (check --noise, recorded in raw.csv as #@noise_sec, so that
#               check --from, tune and report use it too); default 1ns without --compute: the
#               repetitions of a simulated cell are identical, and check's measured threshold (one
#               barrier: 60 us at 1024 ranks on fattree-1024) would call real differences noise;
#               "measured" keeps check's own
#   -o DIR, --force, and everything after -- go to `mpiguide check` (e.g. -c allreduce --quick)
#
# DIR is a normal check result directory (raw.csv, verdicts.*, summary.txt, report.html) plus
# simulation.txt. mpiguide itself records the simulation in raw.csv (#@simulated=1, #@platform,
# #@selector; its library is "SMPI"), so the summary and the report say it and a check never pools
# it with a real run; this script adds #@sim_options, #@sim_wall_seconds, #@sim_noise and, where
# sim/trust.txt has the platform, #@sim_trust: how the simulation matched measured runs. Needs libsimgrid-dev (scripts/setup.sh installs it).
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "sim.sh: $*" >&2; exit 2; }
platform= np= rpn=1 selector=ompi build="$here/build/smpi" tmo=3600 out= force= compute=0 noise=
cfgs=()
while (($#)); do
  case $1 in
    --platform) platform=${2:?}; shift 2 ;;
    --np) np=${2:?}; shift 2 ;;
    --rpn) rpn=${2:?}; shift 2 ;;
    --selector) selector=${2:?}; shift 2 ;;
    --build) build=${2:?}; shift 2 ;;
    --timeout) tmo=${2:?}; shift 2 ;;
    --compute) compute=1; shift ;;
    --noise) noise=${2:?}; shift 2 ;;
    --cfg) cfgs+=("--cfg=${2:?}"); shift 2 ;;
    -o|--out) out=${2:?}; shift 2 ;;
    --force) force=--force; shift ;;
    --) shift; break ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) die "unknown option '$1' (--help)" ;;
  esac
done
[[ -n $platform && -n $np && -n $out ]] || die "--platform, --np and -o are required (--help)"
[[ -f $platform ]] || die "no platform file '$platform'"
if [[ -z $noise ]] && ((!compute)); then noise=1ns; fi
[[ $np =~ ^[1-9][0-9]*$ ]] || die "--np: '$np' is not a positive number"
[[ $rpn =~ ^[1-9][0-9]*$ ]] || die "--rpn: '$rpn' is not a positive number"
[[ $tmo =~ ^[1-9][0-9]*$ ]] || die "--timeout: '$tmo' is not a whole number of seconds"
case $selector in default|ompi|mpich|mvapich2|impi|automatic) ;; *) die "--selector: '$selector' unknown" ;; esac
command -v smpirun >/dev/null || die "smpirun not found: install libsimgrid-dev (scripts/setup.sh)"
# the folded buffers and scratch map SMPI's shared block once per MiB (docs/scale.md, "data scratch
# folded"): some 70 maps a rank at 1024 ranks of 16 KiB blocks, over the kernel's default 65530
maps=$(cat /proc/sys/vm/max_map_count 2>/dev/null || echo 0)
if ((np >= 512 && maps < 128 * np)); then
  echo "sim.sh: warning: vm.max_map_count is $maps; $np ranks of folded buffers may need $((256 * np)) (sysctl -w vm.max_map_count=$((256 * np)), as root), else SMPI stops with 'Could not map folded virtual memory'" >&2
fi
exe="$build/mpiguide"
[[ -f $exe ]] || die "no $exe: build it with scripts/build.sh smpi"

# The hostfile: the cluster's hosts in order (prefix, radical a-b, suffix; one <cluster>).
read -r prefix suffix lo hi < <(python3 - "$platform" <<'EOF'
import re, sys
t = open(sys.argv[1]).read()
c = re.findall(r'<cluster\b[^>]*>', t)
if len(c) != 1: sys.exit("sim.sh: the platform must hold exactly one <cluster>")
a = dict(re.findall(r'(\w+)="([^"]*)"', c[0]))
lo, hi = a["radical"].split("-")
print(a.get("prefix", ""), a.get("suffix", "") or "-", lo, hi)
EOF
)
[[ $suffix == - ]] && suffix=
mkdir -p "$out"
hostfile="$out/hostfile"
for ((i = lo; i <= hi; i++)); do for ((k = 0; k < rpn; k++)); do echo "$prefix$i$suffix"; done; done >"$hostfile"
nhosts=$((hi - lo + 1))

opts=(--cfg=smpi/coll-selector:"$selector")
((compute)) || opts+=(--cfg=smpi/simulate-computation:no)
opts+=("${cfgs[@]}")
pname=$(basename "$platform" .xml)
# TERM, then KILL 30 s later: check saves whole cells as it goes and, on TERM, says how many
# (cmd_check_save.c); the KILL is for a simulation that outlives the TERM (before mpiguide's fix
# of its handler under SMPI, a 256-rank alltoall ran on, orphaned, past its bound until killed by hand).
run() { timeout --kill-after=30 "$tmo" nice -n 10 smpirun -np "$1" -platform "$platform" -hostfile "$hostfile" "${opts[@]}" \
          --log=root.thres:warning --log=xbt_cfg.thres:warning --log=smpi_config.thres:error "$exe" "${@:2}"; }

# check saves the finished cells every MPIGUIDE_CHECK_SAVE_EVERY seconds of its clock, which is
# the simulated one here (5 s by default: a simulated run rarely lasts that long), so that a run
# stopped by --timeout keeps what it measured.
export MPIGUIDE_CHECK_SAVE_EVERY=${MPIGUIDE_CHECK_SAVE_EVERY:-0.05}
# The noise threshold goes to the measuring check, which records it in raw.csv (#@noise_sec), so
# that every later analysis of the directory (check --from, tune, report) judges with it, not with
# the measured barrier: tune and report read raw.csv only, and given the threshold only to the
# analysis below they called the simulation's small differences noise (no tune rule for a 1.2x
# win of 3 us at 4 ranks). With --nrep the threshold does not change what is measured; with the
# adaptive repetitions it is the stopping rule's. A --noise among the check options wins.
noiseopt=()
[[ -n $noise && $noise != measured ]] && noiseopt=(--noise "$noise")
for a in "$@"; do [[ $a == --noise || $a == --noise=* ]] && noiseopt=(); done
# The simulation's CPU time and peak memory, sampled from /proc every 2 s into $out/.sim_cpu
# ("CPU-seconds MB"): a run that
# timeout stops at its bound loses it otherwise (timeout kills its own process group, and no parent
# then collects the killed processes' times: benchmarks/sim_scale.sh recorded 0.5-0.9 CPU-s for
# runs that had computed for their whole 300-900 s).
# The run's smpimain is the one descended from this script (another campaign may run the same
# program at the same time): its parents, followed up from /proc, reach $$.
sim_pid() {
  local p q
  for p in $(pgrep -f "smpimain $exe " || true); do
    q=$p
    while [[ -n $q && $q != 1 && $q != "$$" ]]; do q=$(awk '{ sub(/^.*\) /, ""); print $2 }' "/proc/$q/stat" 2>/dev/null); done
    [[ $q == "$$" ]] && { echo "$p"; return 0; }
  done
  return 0
}
cpu_sampler() { # (under set -e: every command here must succeed, or the sampler ends)
  local pid="" ticks i
  ticks=$(getconf CLK_TCK)
  for ((i = 0; i < 100 && ${#pid} == 0; i++)); do
    pid=$(sim_pid)
    [[ -n $pid ]] || sleep 0.2
  done
  [[ -n $pid ]] || return 0
  while [[ -r /proc/$pid/stat ]]; do
    # CPU seconds and the peak resident MB (VmHWM) so far
    if awk -v t="$ticks" 'FNR == NR { sub(/^.*\) /, ""); cpu = ($12 + $13) / t; next }
                          $1 == "VmHWM:" { mb = $2 / 1024 } END { printf "%.1f %.0f\n", cpu, mb }' \
         "/proc/$pid/stat" "/proc/$pid/status" >"$out/.sim_cpu.tmp" 2>/dev/null; then
      mv -f "$out/.sim_cpu.tmp" "$out/.sim_cpu"
    fi
    sleep 2
  done
}
mkdir -p "$out"
rm -f "$out/.sim_cpu"
cpu_sampler &
sampler=$!
t0=$(date +%s.%N)
set +e
run "$np" check -o "$out" $force -q "${noiseopt[@]}" "$@"
rc=$?
kill "$sampler" 2>/dev/null
wait "$sampler" 2>/dev/null
set -e
wall=$(python3 -c "import time; print(f'{time.time() - $t0:.1f}')")
# 124, or 137 when the KILL was needed (timeout kills its own process group, itself included)
late=$(python3 -c "print(int($rc in (124, 137) and $wall >= $tmo - 1))")
if [[ ! -f $out/raw.csv ]]; then
  ((late)) && die "the simulation exceeded --timeout $tmo s (wall clock) before it saved a cell"
  die "the check wrote no $out/raw.csv (exit $rc)"
fi
((late)) && echo "sim.sh: the simulation exceeded --timeout $tmo s (wall clock): analysing the cells it saved" >&2

# mpiguide records the simulation itself (#@simulated=1, #@platform, #@selector: src/bench/meta.c);
# add what only this script knows, then analyse again so every file carries it. sim/trust.txt
# holds, per platform, how the simulation matched measured runs (docs/scale.md, "Trust").
trust=$(awk -F'\t' -v p="$pname" '$1 == p { print $2; f = 1; exit } $1 == "*" { d = $2 } END { if (!f) print d }' \
          "$here/sim/trust.txt" 2>/dev/null || true)
sim_meta=$(printf '#@sim_simgrid=%s\n#@sim_hosts=%s\n#@sim_options=%s\n#@sim_wall_seconds=%s\n#@sim_noise=%s' \
  "$(smpirun -version 2>&1 | head -1)" "$nhosts" "${opts[*]}" "$wall" "${noise:-measured}")
[[ -n $trust ]] && sim_meta+=$(printf '\n#@sim_trust=%s' "$trust")
grep -qx '#@simulated=1' "$out/raw.csv" || die "$out/raw.csv does not say #@simulated=1: is $exe an smpi build of this mpiguide?"
python3 - "$out/raw.csv" "$sim_meta" <<'EOF'
import os, sys
path, meta = sys.argv[1:3]
out = []
for l in open(path).read().split("\n"):
    if l.startswith("#@sim_"): continue
    out.append(l)
    if l.startswith("#@format="): out.extend(meta.split("\n"))
open(path + ".tmp", "w").write("\n".join(out))
os.replace(path + ".tmp", path)
EOF
printf '%s\n' "${sim_meta//#@/}" >"$out/simulation.txt"
run 1 check --from "$out" -o "$out" --force "${noiseopt[@]}" >"$out/summary.log" 2>&1 || { cat "$out/summary.log" >&2; exit 1; }
cat "$out/summary.txt"
echo "sim.sh: $np simulated ranks on $pname, selector $selector: $wall s wall clock; results in $out/" >&2
