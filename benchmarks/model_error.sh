#!/usr/bin/env bash
# The cost-model benchmark (issue 14, docs/model.md): how well LogGP predicts the point-to-point
# algorithms on this machine, and how much `check --model-guided` saves against a full check.
# Not a test: its figures are reported, never asserted.
#
#   benchmarks/model_error.sh [openmpi|mpich] [NPS="2 4"] [OUT=results/model-error]
#
# Per process count p of NPS:
#   1. `mpiguide loggp` at p (the parameters of a pair while the other ranks wait, as in the job);
#   2. `mpiguide check --families p2p --loggp` over 1 KiB - 1 MiB (sizes x4): every point-to-point
#      row and the default of the ten collectives that have them, measured interleaved; the
#      summary gives the median relative prediction error per family and the share of cells
#      whose predicted fastest point-to-point row is the measured fastest (goal: error <= 25 %);
#   3. `check --full` and `check --full --model-guided` over the same sizes (allreduce, bcast,
#      reduce, allgather): wall time of each, and the violations of the full check that the
#      guided one did not measure.
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${1:-openmpi} nps=${2:-"2 4"} out=${3:-results/model-error}
b=build/$mpi
case $mpi in
openmpi) run() { mpirun.openmpi --oversubscribe --bind-to none -np "$@"; }
         export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 ;;
mpich) run() { mpiexec.mpich -np "$@"; } ;;
*) echo "model_error: openmpi or mpich" >&2; exit 2 ;;
esac
[[ -x $b/mpiguide ]] || scripts/build.sh "$mpi" >&2
rm -rf "$out" && mkdir -p "$out"
sizes=1K,4K,16K,64K,256K,1M

for p in $nps; do
  echo "== $mpi, $p processes" | tee -a "$out/summary.txt"
  run "$p" "$b/mpiguide" loggp -o "$out/loggp-$p.txt" >"$out/loggp-$p.log" 2>&1
  grep -iE "warning|bad|noisy" "$out/loggp-$p.log" | sed 's/^/  loggp: /' | tee -a "$out/summary.txt" || true
  run "$p" "$b/mpiguide" check --families p2p --sizes "$sizes" --loggp "$out/loggp-$p.txt" --budget 60s \
    --no-progress -o "$out/p2p-$p" >"$out/p2p-$p.log" 2>&1
  sed -n '/^prediction error/,$p' "$out/p2p-$p.log" | tee -a "$out/summary.txt"
  c=(-c allreduce,bcast,reduce,allgather --sizes "$sizes" --budget 60s --no-progress --loggp "$out/loggp-$p.txt")
  t0=$SECONDS
  run "$p" "$b/mpiguide" check --full "${c[@]}" -o "$out/full-$p" >"$out/full-$p.log" 2>&1
  full=$((SECONDS - t0)) t0=$SECONDS
  run "$p" "$b/mpiguide" check --full --model-guided "${c[@]}" -o "$out/guided-$p" >"$out/guided-$p.log" 2>&1
  guided=$((SECONDS - t0))
  # violations of the full check (collective, size, mock-up) that the guided check did not measure
  cells() { # collective,bytes,mockup of the verdicts whose outcome matches $2
    awk -F, -v want="$2" '/^#/ {next} !h {for (i = 1; i <= NF; i++) if ($i == "outcome") o = i; h = 1; next}
                          $o ~ want {print $1 "," $2 "," $3}' "$1/verdicts.csv" | sort -u
  }
  viol() { cells "$1" '^violation$'; }
  measured() { cells "$1" '.'; }
  nfull=$(viol "$out/full-$p" | wc -l)
  missed=$(comm -23 <(viol "$out/full-$p") <(measured "$out/guided-$p") | wc -l)
  {
    grep -h "check_model_guided" "$out/guided-$p/raw.csv" | sed 's/^#@/  /'
    echo "  check --full: ${full}s, --model-guided: ${guided}s; violations of --full: $nfull, not measured by --model-guided: $missed"
  } | tee -a "$out/summary.txt"
done
