#!/usr/bin/env bash
# Figures of the cluster in a box (scripts/cluster.sh, docs/cluster.md): what a message costs
# within a node and between nodes, and whether the hier, lane and point-to-point rows win where
# nodes are real. Not a test: its figures are reported, never asserted. Needs root; CPU-heavy
# (about 7 minutes with Open MPI, more with MPICH): run it when the machine is otherwise quiet.
#
#   benchmarks/cluster_figures.sh [openmpi|mpich] [RATES="2gbit"] [OUT=results/cluster-<mpi>]
#
# Environment: MG_FIG_BUDGET (check's --budget per launch, 100s), MG_FIG_LAUNCHES (3),
# MG_FIG_SIZES (8,1K,64K,1M), MG_FIG_COLLS (bcast,allreduce,allgather,alltoall).
#
# For each link rate: a cluster of 2 nodes at that rate (its own state directory under OUT), then
#   1. `mpiguide loggp` on 2 ranks of one node (srun -N 1 -n 2) and on 2 nodes (srun -N 2 -n 2):
#      the median round trip PRTT(1,0,s) at 8 B .. 1 MiB and the fitted L, g, G of each pair;
#   2. `mpiguide check --launches 3 --families hier,p2p` of MG_FIG_COLLS on 2 nodes x 2 (srun):
#      the library's default against the hier, lane and point-to-point rows, 3 launches analysed
#      together, and a table of the medians (OUT/table-RATE.md: docs/cluster.md shows it);
# and the cluster taken down. Everything goes to OUT (loggp files, check directories,
# summary.txt). Holds /tmp/mg-mpi.lock (flock), the lock of every MPI job on this shared machine.
#
# MPICH: Debian's MPICH 4.0.2 over UCX/TCP sometimes hangs in MPI_Finalize (docs/cluster.md; here
# also 2 ranks of one node in loggp), and `check --launches` would wait for ever on such a launch. So
# with MPICH every job is given 30 s after its output file appears (loggp's parameters, check's
# raw.csv: both written before MPI_Finalize) and then stopped (OUT/hangs.txt counts them), and the 3
# check launches run one by one and are analysed with `check --from L1 L2 L3`, which is what
# --launches does after its launches.
set -euo pipefail
[[ ${MG_LOCKED:-} == 1 ]] || exec env MG_LOCKED=1 flock /tmp/mg-mpi.lock "$(realpath "$0")" "$@"
cd "$(dirname "$0")/.."
mpi=${1:-openmpi}
read -r -a rates <<<"${2:-2gbit}"
out=$(realpath -m "${3:-results/cluster-$mpi}")
budget=${MG_FIG_BUDGET:-100s}
nl=${MG_FIG_LAUNCHES:-3}
sizes=${MG_FIG_SIZES:-8,1K,64K,1M}
colls=${MG_FIG_COLLS:-bcast,allreduce,allgather,alltoall}
b=$PWD/build/$mpi
[[ -x $b/mpiguide ]] || { echo "cluster_figures: build $b first (scripts/build.sh $mpi)" >&2; exit 2; }
[[ $(id -u) -eq 0 ]] || { echo "cluster_figures: needs root (scripts/cluster.sh)" >&2; exit 2; }
case $mpi in
openmpi) pmi=pmix
  envs=(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp
    OMPI_MCA_btl_tcp_if_include=10.99.0.0/24 OMPI_MCA_oob_tcp_if_include=10.99.0.0/24 OMPI_MCA_mpi_yield_when_idle=1) ;;
mpich) pmi=pmi2; envs=(UCX_TLS=tcp,self UCX_NET_DEVICES=eth0 UCX_FLUSH_WORKER_EPS=n) ;;
*) echo "cluster_figures: the MPI is openmpi or mpich" >&2; exit 2 ;;
esac
rm -rf "$out"
mkdir -p "$out"
export MG_CLUSTER_STATE=$out/state
C=scripts/cluster.sh
trap '[[ -e $MG_CLUSTER_STATE ]] && $C down >/dev/null 2>&1 || true' EXIT
# on_head LIMIT CMD...: CMD on the head node with the MPI's settings, bounded
on_head() {
  local t=$1
  shift
  timeout -k 5 "$t" "$C" exec head env "${envs[@]}" "$@"
}
srun_() { on_head 600 srun --mpi=$pmi "$@"; }
launch2x2=(srun -N 2 -n 4 --ntasks-per-node 2 --mpi=$pmi)
# the check's measurement options: the default against the hier, lane and point-to-point rows;
# bcast at root 0 only, allreduce on doubles with MPI_SUM (one verdict per cell)
# (check refuses either option where no collective takes it)
ckopts=(-c "$colls" --families hier,p2p --sizes "$sizes" --budget "$budget" -q)
[[ ,$colls, == *,bcast,* ]] && ckopts+=(--root 0)
[[ ,$colls, == *reduce* ]] && ckopts+=(--reductions double:sum)

# tree PID: PID and its descendants
tree() {
  local c
  echo "$1"
  for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do tree "$c"; done
}

# bounded FILE LOG CMD...: CMD with its output in LOG; with MPICH, stopped 30 s after FILE appears
# complete (written before MPI_Finalize: loggp's parameter file, check's raw.csv) if it still runs
bounded() {
  local file=$1 log=$2 pid i seen=-1
  shift 2
  "$@" >"$log" 2>&1 &
  pid=$!
  if [[ $mpi == mpich ]]; then
    for ((i = 0; ; i++)); do
      kill -0 $pid 2>/dev/null || break
      # check rewrites raw.csv every few seconds while it measures, marked #@check_incomplete
      ((seen < 0)) && [[ -e $file ]] && ! grep -q '^#@check_incomplete' "$file" && seen=$i
      if ((seen >= 0 && i - seen >= 60)); then
        kill -TERM $(tree $pid) 2>/dev/null || true
        echo "$(basename "$file"): stopped in MPI_Finalize 30 s after it was written (the known MPICH 4.0.2 + UCX hang)" |
          tee -a "$out/hangs.txt" >&2
        break
      fi
      sleep 0.5
    done
  fi
  wait $pid
}

# check_mpich DIR: the launches one by one, each bounded; then check --from the finished ones
check_mpich() {
  local dir=$1 k from=()
  mkdir -p "$dir"
  for ((k = 1; k <= nl; k++)); do
    bounded "$dir/launch-$k/raw.csv" "$dir/launch-$k.log" \
      on_head 1800 "${launch2x2[@]}" "$b/mpiguide" check "${ckopts[@]}" -o "$dir/launch-$k" || true
    [[ -s $dir/launch-$k/raw.csv ]] && from+=("$dir/launch-$k")
  done
  ((${#from[@]})) || return 1
  "$b/mpiguide" check --from "${from[@]}" -o "$dir" -q
}

# table VERDICTS: markdown, one line per (collective, size): the default's median and each family's
# rows: hier, lane, and the fastest point-to-point row; a row's slowdown (default / row) and V where
# check found a violation (the row significantly faster in every launch)
table() {
  awk -F, '
    /^#/ {next}
    !hdr++ {for (i = 1; i <= NF; i++) h[$i] = i; next}
    ($h["relation"] == "" || $h["relation"] == "mockup") {
      c = $h["collective"]; s = $h["bytes"] + 0; m = $h["mockup"]; k = c SUBSEP s
      if (!(k in seen)) { seen[k] = 1; key[++n] = k; coll[n] = c; size[n] = s }
      def[k] = $h["median_default_sec"] * 1e6
      cell = sprintf("%.1f (%.2f%s)", $h["median_mockup_sec"] * 1e6, $h["slowdown"], $h["outcome"] == "violation" ? " V" : "")
      if (m ~ /_as_hier$/) hier[k] = cell
      else if (m ~ /_as_lane$/) lane[k] = cell
      else if (!(k in pbest) || $h["median_mockup_sec"] + 0 < pbest[k]) {
        pbest[k] = $h["median_mockup_sec"] + 0; p2p[k] = sub(/^[a-z]+_as_/, "", m) ? m ": " cell : cell
      }
    }
    function hb(b) { return b >= 1048576 ? b / 1048576 " MiB" : b >= 1024 ? b / 1024 " KiB" : b " B" }
    END {
      print "| collective | size | default µs | hier µs (slowdown) | lane µs (slowdown) | fastest point-to-point row µs (slowdown) |"
      print "|---|---|---|---|---|---|"
      for (i = 1; i <= n; i++) {
        k = key[i]
        printf "| %s | %s | %.1f | %s | %s | %s |\n", coll[i], hb(size[i]), def[k],
          (k in hier) ? hier[k] : "-", (k in lane) ? lane[k] : "-", (k in p2p) ? p2p[k] : "-"
      }
    }' "$1"
}

summary=$out/summary.txt
{
  echo "# benchmarks/cluster_figures.sh $*, $(date -u +%FT%TZ); $(nproc) cores shared by every node"
  echo "# round trip PRTT(1,0,s), median, us: one node (2 ranks) and two nodes (1 rank each)"
} >"$summary"
for r in "${rates[@]}"; do
  "$C" up --nodes 2 --rate "$r" >"$out/up-$r.log" 2>&1 || { cat "$out/up-$r.log" >&2; exit 1; }
  echo "# rate $r: $(grep -o 'shaper=[^ ]* latency=[^ ]*' "$MG_CLUSTER_STATE/config")" >>"$summary"
  for lay in "1 intra" "2 inter"; do
    set -- $lay
    bounded "$out/loggp-$r-$2.txt" "$out/loggp-$r-$2.log" srun_ -N "$1" -n 2 "$b/mpiguide" loggp --sizes 8,1K,64K,1M \
      --time-per 100ms --no-progress -q -o "$out/loggp-$r-$2.txt" || echo "loggp $r $2 failed (see $out/loggp-$r-$2.log)" >&2
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
  ck=$out/check-$r
  if [[ $mpi == openmpi ]]; then
    echo "# $b/mpiguide check --launches $nl ${ckopts[*]} -o $ck -- ${launch2x2[*]}" >>"$summary"
    on_head 3600 "$b/mpiguide" check --launches "$nl" "${ckopts[@]}" -o "$ck" -- "${launch2x2[@]}" \
      >"$ck.log" 2>&1 || echo "check $r failed (see $ck.log)" >&2
  else
    echo "# $nl x: ${launch2x2[*]} $b/mpiguide check ${ckopts[*]} -o $ck/launch-K; then check --from them" >>"$summary"
    check_mpich "$ck" >"$ck.log" 2>&1 || echo "check $r failed (see $ck.log)" >&2
  fi
  if [[ -s $ck/verdicts.csv ]]; then
    table "$ck/verdicts.csv" >"$out/table-$r.md"
    { echo "# rate $r: 2 nodes x 2, $nl launches ($ck/summary.txt)"; cat "$out/table-$r.md"; } >>"$summary"
  else
    echo "# rate $r: no verdicts (see $ck.log)" >>"$summary"
  fi
  "$C" down >/dev/null 2>&1
done
[[ -e $out/hangs.txt ]] && sed 's/^/# /' "$out/hangs.txt" >>"$summary"
cat "$summary"
