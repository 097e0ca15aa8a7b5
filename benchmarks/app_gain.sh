#!/usr/bin/env bash
# mpiguide's whole loop on an unmodified application from the Debian archive (HPCC or CP2K,
# docs/applications.md), through LD_PRELOAD. Not a test: its figures are reported, never asserted
# (the applications' own checks are: a run that fails them stops the benchmark).
#
#   benchmarks/app_gain.sh APP [MPI=openmpi] [LAYOUT=1x4] [RUNS=5] [OUT=results/app-gain-APP-MPI-LAYOUT]
#
#   APP     hpcc (examples/apps/hpcc/hpccinf.txt) or cp2k (examples/apps/cp2k/water4-md.inp)
#   MPI     openmpi; Debian 12 builds hpcc and cp2k against Open MPI only (mpich: says so, exit 0)
#   LAYOUT  NODESxRANKS: 1x4 = 4 ranks on this machine (mpirun); 2x2 = the multi-node test bed
#           (scripts/cluster.sh, docs/cluster.md): a cluster of NODES nodes brought up for the
#           benchmark (its state in OUT/state) and taken down at its end, every launch through
#           Slurm from its head node (`srun -N NODES -n NP --ntasks-per-node RANKS --mpi=pmix`,
#           Open MPI's settings of docs/cluster.md: TCP between nodes, shared memory within), the
#           application's variables given to the ranks (`srun ... env VAR=value app`), not to
#           srun; `check` and `verify` run on the head node and launch through the same srun.
#           Needs root; holds /tmp/mg-cluster.lock (MG_CLUSTER_LOCKED=1: the caller holds it).
#
#   1. plain: the application without libmpiguide, and its own check (scripts/apps.sh verify);
#   2. the timed trace (LD_PRELOAD, MPIGUIDE_TRACE, MPIGUIDE_TRACE_TIME=1), the same check, and
#      `mpiguide hotspots` (N = 10, P = 80 %);
#   3. forced: every mock-up of the hot spots' operations (collectives and point-to-point) forced
#      (but the measure-only rows, which `check` alone runs),
#      on the tiny input at the same rank count (examples/apps/*/..tiny..): round k forces the k-th
#      mock-up of every hot operation at once (MPIGUIDE_ALG); each round must pass the
#      application's check against the plain tiny run, and its trace says how many calls ran the
#      forced mock-up (the rest fell back, with the reason); a failing round is re-run one
#      operation at a time to name the row;
#   4. `mpiguide check --sizes-from TRACE --pattern exchange --launches 3 --budget B` (the trace's
#      collectives, and its point-to-point operations with a guideline, at their sizes); `tune`;
#      `hotspots --check --profile`: verdicts at the hot spots and the predicted saving; `verify
#      --profile` when the profile has rules;
#   5. RUNS interleaved runs each of plain, preloaded (nothing set) and tuned (MPIGUIDE_PROFILE):
#      wall time (launch to exit) and the application's own timer (HPL Gflop/s; CP2K's mean CPU time
#      per MD step after the first), medians with min-max; every run passes the check; the
#      1-minute load before each run (OUT/load.txt; the table's first column: its median [min-max]).
# Everything goes to OUT; OUT/table.md is the summary table (docs/applications.md shows it).
# The whole benchmark holds /tmp/mg-mpi.lock (flock), as the other benchmarks (MG_LOCKED=1: the
# caller holds it). Environment: CHECK_BUDGET (per launch, default 40s), FORCE=0 skips step 3,
# MG_BUILD (the build directory, default build/MPI).
set -euo pipefail
# the test bed's lock before the MPI lock, as every user of the test bed takes them
if [[ ${3:-1x4} != 1x* && ${MG_CLUSTER_LOCKED:-} != 1 ]]; then
  exec env MG_CLUSTER_LOCKED=1 flock /tmp/mg-cluster.lock "$(realpath "$0")" "$@"
fi
[[ ${MG_LOCKED:-} == 1 ]] || exec env MG_LOCKED=1 flock /tmp/mg-mpi.lock "$(realpath "$0")" "$@"
cd "$(dirname "$0")/.."
app=${1:?usage: app_gain.sh hpcc|cp2k [MPI] [LAYOUT] [RUNS] [OUT]}
mpi=${2:-openmpi} layout=${3:-1x4} runs=${4:-5}
out=${5:-results/app-gain-$app-$mpi-$layout}
budget=${CHECK_BUDGET:-40s}
case $app in
hpcc) input=examples/apps/hpcc/hpccinf.txt tiny=examples/apps/hpcc/hpccinf-tiny.txt timer="HPL Gflop/s" ;;
cp2k) input=examples/apps/cp2k/water4-md.inp tiny=examples/apps/cp2k/water1-tiny.inp timer="CP2K s per MD step" ;;
*) echo "app_gain: APP is hpcc or cp2k" >&2; exit 2 ;;
esac
if [[ $mpi != openmpi ]]; then
  echo "app_gain: Debian 12 builds $app against Open MPI only (ldd: libmpi.so.40); nothing to run on $mpi"
  exit 0
fi
[[ $layout =~ ^([0-9]+)x([0-9]+)$ ]] || { echo "app_gain: LAYOUT is NODESxRANKS, e.g. 1x4" >&2; exit 2; }
nodes=${BASH_REMATCH[1]} rpn=${BASH_REMATCH[2]} np=$((BASH_REMATCH[1] * BASH_REMATCH[2]))
((nodes >= 1 && rpn >= 1)) || { echo "app_gain: LAYOUT needs a node and a rank" >&2; exit 2; }
((nodes == 1)) || [[ $(id -u) -eq 0 ]] || { echo "app_gain: $layout needs the test bed, which needs root" >&2; exit 2; }
# The nodes have their own /tmp, /run, /dev/shm, /var/spool and /var/log (docs/cluster.md): the
# traces the ranks write under OUT would stay inside a node, and the loop stop at hotspots minutes in.
if ((nodes > 1)); then
  case $(realpath -m "$out")/ in
  /tmp/* | /run/* | /dev/shm/* | /var/spool/* | /var/log/*)
    echo "app_gain: OUT $out is node-local on the test bed (its nodes have their own /tmp, /run, /dev/shm," \
      "/var/spool, /var/log): choose a directory the nodes share, e.g. the default results/" >&2
    exit 2 ;;
  esac
fi
b=${MG_BUILD:-build/$mpi}
source benchmarks/bench_lib.sh # launch, xs_for, median
scripts/apps.sh install
[[ -x $b/mpiguide ]] || scripts/build.sh "$mpi" >&2
mg=$(realpath "$b/mpiguide")
lib=$("$mg" env --lib)
rm -rf "$out" && mkdir -p "$out"
out=$(realpath "$out")
# pre: the launcher's prefix for mpiguide's own commands (check, verify), which launch through
# run (1 x N: run is launch, pre empty). On the test bed both run on the head node.
pre=() run=("${launch[@]}")
if ((nodes > 1)); then
  export MG_CLUSTER_STATE=$out/state
  cl=$PWD/scripts/cluster.sh # absolute: apps.sh runs the launcher in the run's directory
  trap '[[ -e $MG_CLUSTER_STATE ]] && "$cl" down >/dev/null 2>&1 || true' EXIT
  "$cl" up --nodes "$nodes" --cpus $((rpn > 2 ? rpn : 2)) >"$out/cluster-up.txt" 2>&1 ||
    { cat "$out/cluster-up.txt"; echo "app_gain: the test bed did not come up"; exit 1; }
  pre=("$cl" exec head env OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_pml=ob1
    OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=10.99.0.0/24 OMPI_MCA_oob_tcp_if_include=10.99.0.0/24
    OMPI_MCA_mpi_yield_when_idle=1)
  run=(srun -N "$nodes" -n "$np" --ntasks-per-node "$rpn" --mpi=pmix)
  launch=("${pre[@]}" "${run[@]}")
fi
exec > >(tee "$out/summary.txt") 2>&1
export OMP_NUM_THREADS=1 # cp2k is cp2k.psmp: one OpenMP thread per rank

# app_run NAME INPUT [VAR=value...]: one launch of the application in OUT/NAME with these
# variables on every rank (and nothing else of mpiguide's); prints the wall seconds. Status 1 when
# the launch fails or times out.
app_run() {
  local name=$1 in=$2 t0 t1 xs vars
  shift 2
  # 1 x N: the variables in mpirun's environment and -x flags; on the test bed after srun (env),
  # so that neither srun nor the head node's shell preloads libmpiguide
  if ((nodes > 1)); then vars=() xs=(env "$@"); else vars=("$@") && mapfile -t xs < <(xs_for OMP_NUM_THREADS "$@"); fi
  t0=$(date +%s.%N)
  env -u LD_PRELOAD -u MPIGUIDE_TRACE -u MPIGUIDE_TRACE_TIME -u MPIGUIDE_PROFILE -u MPIGUIDE_ALG "${vars[@]}" \
    scripts/apps.sh run "$app" "$in" "$out/$name" timeout -k 10 600 "${launch[@]}" "${xs[@]}" || {
    echo "app_gain: run $name failed (status $?): $out/$name" >&2
    tail -5 "$out/$name/out.txt" "$out/$name/err.txt" >&2
    return 1
  }
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }'
}
# verify NAME [REF]: the application's own check; exits the benchmark when it fails.
verify() { scripts/apps.sh verify "$app" "$out/$1" ${2:+"$out/$2"} || { echo "app_gain: $1 failed its check"; exit 1; }; }

echo "== app_gain: $app, $mpi, $layout ($np ranks), $(date -u +%FT%TZ), $(uname -n), load: $(cut -d' ' -f1-3 /proc/loadavg) =="
echo "input: $input; tiny input (forced rows): $tiny"
echo
echo "== 1. plain =="
w=$(app_run plain "$input") || exit 1
echo "plain: $w s (load $(cut -d' ' -f1 /proc/loadavg))" && verify plain

echo
echo "== 2. the timed trace and its hot spots =="
w=$(app_run trace "$input" LD_PRELOAD="$lib" MPIGUIDE_TRACE="$out/trace.csv" MPIGUIDE_TRACE_TIME=1) || exit 1
echo "traced: $w s (load $(cut -d' ' -f1 /proc/loadavg))" && verify trace plain
"$mg" hotspots "$out/trace.csv" | tee "$out/hotspots.txt"
"$mg" hotspots "$out/trace.csv" --csv >"$out/hotspots.csv"
hot=$(awk -F, 'NR > 1 { print $7 }' "$out/hotspots.csv" | awk '!s[$0]++' | paste -sd' ')
echo "operations at the hot spots: $hot"

echo
echo "== 3. every mock-up of those operations forced, on the tiny input at $np ranks =="
if [[ ${FORCE:-1} == 0 ]]; then
  echo "(skipped: FORCE=0)"
else
  app_run tplain "$tiny" >/dev/null || exit 1
  verify tplain
  declare -A rows
  for op in $hot; do rows[$op]=$("$mg" list --csv | grep -v '[, ]measure-only[ ,]' | awk -F, -v c="$op" '$1 == c && $2 != "default" { print $2 }' | paste -sd' ')
    echo "$op: $(wc -w <<<"${rows[$op]}") mock-ups"; done
  : >"$out/forced.txt"
  # force_round NAME SPEC: one launch with MPIGUIDE_ALG=SPEC; status 0 when it passed the check.
  force_round() {
    local name=$1 spec=$2
    app_run "$name" "$tiny" LD_PRELOAD="$lib" MPIGUIDE_ALG="$spec" MPIGUIDE_TRACE="$out/$name.csv" >/dev/null &&
      scripts/apps.sh verify "$app" "$out/$name" "$out/tplain" >"$out/$name.verdict" && [[ -f $out/$name.csv ]]
  }
  k=1
  while :; do
    spec=""
    for op in $hot; do
      alg=$(cut -d' ' -f$k <<<"${rows[$op]} " | tr -d ' ')
      [[ -n $alg ]] && spec+="${spec:+,}$op=$alg"
    done
    [[ -n $spec ]] || break
    if force_round "force-$k" "$spec"; then
      echo "round $k: OK $spec ($(cat "$out/force-$k.verdict"))"
      for s in ${spec//,/ }; do
        op=${s%%=*} alg=${s#*=}
        # calls of OP that ran ALG; calls of OP that fell back (reasons); over every size
        awk -F, -v c="$op" -v a="$alg" -v r="$k" '!/^#@/ && $1 == c { if ($3 == a) ran += $4; else { fell += $4; why[$6 == "" ? "not forced" : $6] = 1 } }
          END { w = ""; for (x in why) w = w (w == "" ? "" : " ") x
                printf "  %-14s %-40s ran %d call(s), default %d%s\n", c, a, ran, fell, (fell ? " (" w ")" : "") }' "$out/force-$k.csv" |
          tee -a "$out/forced.txt"
      done
    else
      echo "round $k: FAILED $spec: $(cat "$out/force-$k.verdict" 2>/dev/null); one at a time:"
      for s in ${spec//,/ }; do
        if force_round "force-$k-${s%%=*}" "$s"; then echo "  $s: OK"; else
          echo "  $s: FAILED $(cat "$out/force-$k-${s%%=*}.verdict" 2>/dev/null)" | tee -a "$out/forced.txt"; fi
      done
    fi
    k=$((k + 1))
  done
fi

echo
echo "== 4. check at the trace's sizes, tune, the hot spots with verdicts and profile =="
# --sizes-from measures the trace's collectives and its point-to-point operations that have a
# guideline; --pattern exchange: pairs of ranks sending at once (halo exchanges, b_eff's rings).
# One pattern per source: tune refuses launches measured by different patterns.
"${pre[@]}" "$mg" check --sizes-from "$out/trace.csv" --pattern exchange --launches 3 --budget "$budget" -o "$out/check" \
  -- "${run[@]}" >"$out/check.txt" 2>&1 || echo "app_gain: check --sizes-from failed (see $out/check.txt)"
sed -nE '/^(collective|operation) +comparisons/,/^total/p;/^ +eq\. [0-9]+ /p' "$out/check.txt"
mkdir -p "$out/check-all"
k=0
for d in "$out"/check/launch-?; do k=$((k + 1)) && ln -s "$d" "$out/check-all/launch-$k"; done
prof=$out/$app.prof
if "$mg" tune "$out/check-all" -o "$prof" >"$out/tune.txt" 2>&1; then
  cat "$out/tune.txt"
else
  cat "$out/tune.txt"
  echo "app_gain: tune wrote no profile"
  printf 'mpiguide-profile 1\n' >"$prof"
fi
nrules=$(grep -v '^#' "$prof" | grep -Ev '^(mpiguide-profile|end-of-profile)' | grep -c . || true)
echo "rules: $nrules"
grep -v '^#' "$prof" | grep -Ev '^(mpiguide-profile|end-of-profile)' | grep . || true
"$mg" hotspots "$out/trace.csv" --check "$out/check-all" --profile "$prof" | tee "$out/hotspots-check.txt" || echo "app_gain: hotspots failed"
if ((nrules > 0)); then
  "${launch[@]}" "$mg" verify --profile "$prof" -o "$out/verify" >"$out/verify.txt" 2>&1 || echo "app_gain: verify failed"
  cat "$out/verify.txt"
fi

echo
echo "== 5. $runs runs each, interleaved: plain, preloaded (nothing set), tuned =="
for v in plain preload tuned; do : >"$out/$v.wall" && : >"$out/$v.timer"; done
: >"$out/load.txt" # the 1-minute load average before each timed run: the other jobs' share
for k in $(seq "$runs"); do
  for v in plain preload tuned; do
    cut -d' ' -f1 /proc/loadavg >>"$out/load.txt"
    case $v in
    plain) w=$(app_run "$v-$k" "$input") || exit 1 ;;
    preload) w=$(app_run "$v-$k" "$input" LD_PRELOAD="$lib") || exit 1 ;;
    tuned) w=$(app_run "$v-$k" "$input" LD_PRELOAD="$lib" MPIGUIDE_PROFILE="$prof" MPIGUIDE_TRACE="$out/tuned-trace.csv") || exit 1 ;;
    esac
    verify "$v-$k" plain >/dev/null
    echo "$w" >>"$out/$v.wall"
    scripts/apps.sh metric "$app" "$out/$v-$k" >>"$out/$v.timer"
  done
  echo "run $k: wall plain $(tail -1 "$out/plain.wall") s, preloaded $(tail -1 "$out/preload.wall") s, tuned $(tail -1 "$out/tuned.wall") s;" \
    "$timer $(tail -1 "$out/plain.timer") / $(tail -1 "$out/preload.timer") / $(tail -1 "$out/tuned.timer");" \
    "load $(tail -3 "$out/load.txt" | paste -sd/)"
done
echo "what the tuned run ran (its last trace; rule: the profile's line):"
grep -v '^#@' "$out/tuned-trace.csv" | awk -F, 'NR == 1 || $8 != ""' | column -s, -t
stat() { printf '%s [%s-%s]' "$(median <"$1")" "$(sort -g "$1" | head -1)" "$(sort -g "$1" | tail -1)"; }
saving=$(sed -n 's/^predicted saving of the profile at these hot spots: \([0-9.e+-]*\) s per rank = .*, \([0-9.]*%\) of the wall time/\1 s (\2 of the wall time)/p' "$out/hotspots-check.txt")
{
  echo "| $app, $mpi, $layout | wall plain | wall preloaded | wall tuned | tuned / plain | $timer plain | preloaded | tuned | rules | predicted saving |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  echo "| $(date -u +%F), load $(stat "$out/load.txt") | $(stat "$out/plain.wall") | $(stat "$out/preload.wall") | $(stat "$out/tuned.wall") |" \
    "$(awk -v p="$(median <"$out/plain.wall")" -v t="$(median <"$out/tuned.wall")" 'BEGIN { printf "%.3f", t / p }') |" \
    "$(stat "$out/plain.timer") | $(stat "$out/preload.timer") | $(stat "$out/tuned.timer") | $nrules | ${saving:-n/a} |"
} | tee "$out/table.md"
echo "(medians of $runs interleaved runs, [min-max]; wall: launch to exit, s)"
echo "files: $out"
