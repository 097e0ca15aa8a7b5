#!/usr/bin/env bash
# Figures of the cluster in a box (scripts/cluster.sh, docs/cluster.md): what a message costs
# within a node and between nodes, and whether the hier and lane rows win where nodes are real.
# Not a test: its figures are reported, never asserted. Needs root.
#
#   benchmarks/cluster_figures.sh [openmpi|mpich] [RATES="2gbit 200mbit"] [OUT=results/cluster-<mpi>]
#
# For each link rate: a cluster of 2 nodes at that rate (its own state directory under OUT), then
#   1. `mpiguide loggp` on 2 ranks of one node (srun -N 1 -n 2) and on 2 nodes (srun -N 2 -n 2):
#      the median round trip PRTT(1,0,s) at 8 B .. 1 MiB and the fitted L, g, G of each pair;
#   2. `mpiguide check --families hier` of allreduce, bcast, reduce and allgather on 2 nodes x 2
#      (srun): the verdicts of the hier and lane rows against the library's defaults;
# and the cluster taken down. Everything goes to OUT (loggp files, check directories,
# summary.txt). Holds /tmp/mg-mpi.lock (flock), the lock of every MPI job on this shared machine.
set -euo pipefail
[[ ${MG_LOCKED:-} == 1 ]] || exec env MG_LOCKED=1 flock /tmp/mg-mpi.lock "$(realpath "$0")" "$@"
cd "$(dirname "$0")/.."
mpi=${1:-openmpi}
read -r -a rates <<<"${2:-2gbit 200mbit}"
out=$(realpath -m "${3:-results/cluster-$mpi}")
b=$PWD/build/$mpi
[[ -x $b/mpiguide ]] || { echo "cluster_figures: build $b first (scripts/build.sh $mpi)" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || { echo "cluster_figures: needs root (scripts/cluster.sh)" >&2; exit 2; }
case $mpi in
openmpi) pmi=pmix
  envs=(OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp OMPI_MCA_btl_tcp_if_include=10.99.0.0/24 OMPI_MCA_mpi_yield_when_idle=1) ;;
mpich) pmi=pmi2; envs=(UCX_TLS=tcp,self UCX_NET_DEVICES=eth0 UCX_FLUSH_WORKER_EPS=n) ;;
*) echo "cluster_figures: the MPI is openmpi or mpich" >&2; exit 2 ;;
esac
rm -rf "$out"
mkdir -p "$out"
export MG_CLUSTER_STATE=$out/state
C=scripts/cluster.sh
trap '[[ -e $MG_CLUSTER_STATE ]] && $C down >/dev/null 2>&1 || true' EXIT
# srun_ ARGS...: srun on the head node, bounded (MPICH may hang in MPI_Finalize: docs/cluster.md)
srun_() { timeout -k 5 600 "$C" exec head env "${envs[@]}" srun --mpi=$pmi "$@"; }

summary=$out/summary.txt
{
  echo "# cluster_figures.sh $mpi, $(date -u +%FT%TZ); $(nproc) cores shared by every node"
  echo "# round trip PRTT(1,0,s), median, us: one node (2 ranks) and two nodes (1 rank each)"
} >"$summary"
for r in "${rates[@]}"; do
  "$C" up --nodes 2 --rate "$r" >"$out/up-$r.log" 2>&1 || { cat "$out/up-$r.log" >&2; exit 1; }
  echo "# rate $r: $(grep -o 'shaper=[^ ]* latency=[^ ]*' "$MG_CLUSTER_STATE/config")" >>"$summary"
  for lay in "1 intra" "2 inter"; do
    set -- $lay
    srun_ -N "$1" -n 2 "$b/mpiguide" loggp --sizes 8,1K,64K,1M --time-per 100ms --no-progress -q \
      -o "$out/loggp-$r-$2.txt" >"$out/loggp-$r-$2.log" 2>&1 || echo "loggp $r $2 failed (see $out/loggp-$r-$2.log)" >&2
  done
  for s in 8 1024 65536 1048576; do
    printf '%-8s %-10s' "$r" "$s"
    for k in intra inter; do
      awk -v s="$s" '/^table/ {t = 1; next} /^end/ {t = 0} t && $1 == s {printf " %s %10.1f", "'$k'", $2 * 1e6}' \
        "$out/loggp-$r-$k.txt" 2>/dev/null || printf ' %s %10s' "$k" "-"
    done
    echo
  done >>"$summary"
  for k in intra inter; do
    printf '%-8s %s fit: %s\n' "$r" "$k" "$(grep -E '^(L|g|G) ' "$out/loggp-$r-$k.txt" 2>/dev/null | tr '\n' ' ')" >>"$summary"
  done
  srun_ -N 2 -n 4 --ntasks-per-node 2 "$b/mpiguide" check -c allreduce,bcast,reduce,allgather --families hier \
    --sizes 8,1K,64K,1M --budget 120s -o "$out/check-hier-$r" >"$out/check-hier-$r.log" 2>&1 ||
    echo "check $r failed (see $out/check-hier-$r.log)" >&2
  echo "# rate $r: hier/lane verdicts on 2 nodes x 2 (check-hier-$r/summary.txt)" >>"$summary"
  awk -F, '/^#/ {next} !n++ {for (i = 1; i <= NF; i++) h[$i] = i; next}
    {printf "  %-10s %-22s %8s %-13s slowdown %s\n", $h["collective"], $h["mockup"], $h["bytes"], $h["outcome"], $h["slowdown"]}' \
    "$out/check-hier-$r/verdicts.csv" >>"$summary" 2>/dev/null || echo "  (no verdicts)" >>"$summary"
  "$C" down >/dev/null 2>&1
done
cat "$summary"
