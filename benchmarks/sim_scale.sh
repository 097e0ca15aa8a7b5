#!/usr/bin/env bash
# `check` at scale in simulation (issue 37, docs/scale.md): scripts/sim.sh for every platform
# family, rank count and SMPI selector, one after the other (SMPI is single-threaded: one run, one
# core), then benchmarks/sim_table.py over the results. A directory that has its summary.txt is
# done and skipped, so an interrupted campaign resumes.
#
# Usage: benchmarks/sim_scale.sh -o BASE [--np "64 256 1024"] [--topos "fattree dragonfly"]
#                                [--selectors "ompi mpich mvapich2 impi"] [--timeout SECONDS]
#                                [--build DIR] [-- CHECK-OPTIONS...]
#   the platform is sim/platforms/TOPO-NP.xml, or the smallest TOPO-H.xml with more hosts (ranks on
#   its first hosts); results in BASE/TOPO-NP-SELECTOR/, the wall clock, CPU seconds, peak resident MB,
#   cells measured and CPU seconds per cell of each run in BASE/campaign.log, the table
#   in BASE/table.md. --build: the smpi build sim.sh runs (default build/smpi; a copy of its
#   mpiguide in a directory of its own lets a campaign of hours run while build/smpi is rebuilt,
#   which would otherwise change the program under it). CHECK-OPTIONS default: -c allreduce,bcast,allgather,reduce --sizes 16,64K --nrep 10
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
base= nps="64 256 1024" topos="fattree dragonfly" sels="ompi mpich mvapich2 impi" tmo=3600 build=$here/build/smpi
while (($#)); do
  case $1 in
    -o) base=${2:?}; shift 2 ;;
    --np) nps=${2:?}; shift 2 ;;
    --topos) topos=${2:?}; shift 2 ;;
    --selectors) sels=${2:?}; shift 2 ;;
    --timeout) tmo=${2:?}; shift 2 ;;
    --build) build=${2:?}; shift 2 ;;
    --) shift; break ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) echo "sim_scale.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done
[[ -n $base ]] || { echo "sim_scale.sh: -o BASE is required" >&2; exit 2; }
(($#)) || set -- -c allreduce,bcast,allgather,reduce --sizes 16,64K --nrep 10
mkdir -p "$base"
for np in $nps; do
  for topo in $topos; do
    plat=  # TOPO-NP.xml, else the smallest TOPO-H.xml with H > NP hosts (4 ranks: fattree-16.xml, the first 4 hosts)
    for h in $(ls "$here"/sim/platforms/"$topo"-*.xml 2>/dev/null | sed 's/.*-\([0-9]*\)\.xml$/\1/' | sort -n); do
      ((h >= np)) && { plat="$here/sim/platforms/$topo-$h.xml"; break; }
    done
    [[ -n $plat ]] || { echo "sim_scale.sh: no $topo platform of $np hosts or more, skipped" >&2; continue; }
    for sel in $sels; do
      d="$base/$topo-$np-$sel"
      [[ -f $d/summary.txt ]] && continue
      t0=$(date +%s)
      # the CPU seconds of the run and its children (the simulation is one process): on a shared
      # machine the cost of a run, where its wall clock says how busy the machine was; and the
      # simulation's peak resident memory (gather and scatter of 64 KiB at 256 ranks: 13 GB)
      /usr/bin/time -f '%U %S %M' -o "$base/.cpu" "$here/scripts/sim.sh" --platform "$plat" --np "$np" --selector "$sel" \
        --timeout "$tmo" --build "$build" -o "$d" --force -- "$@" >"$base/$topo-$np-$sel.log" 2>&1
      rc=$?
      read -r cpu rss < <(awk 'NF == 3 && $1 ~ /^[0-9.]+$/ { printf "%.1f %.0f\n", $1 + $2, $3 / 1024 }' "$base/.cpu" 2>/dev/null)
      rm -f "$base/.cpu"
      # a run stopped at its bound: its CPU is the one sim.sh sampled (/usr/bin/time gets none of it)
      read -r scpu srss < <(cat "$d/.sim_cpu" 2>/dev/null || true)
      if [[ $scpu =~ ^[0-9.]+$ && $srss =~ ^[0-9]+$ ]] && awk -v a="$scpu" -v b="${cpu:-0}" 'BEGIN { exit !(a > b) }'; then
        cpu=$scpu rss=$srss
      fi
      rm -f "$d/.sim_cpu"
      # the cells measured (collective, size, reduction: the default's valid rows in raw.csv) and the
      # CPU seconds per cell, the figure the run's fixed set-up (issue 50) is judged by
      cells=$(awk -F, '!/^#/ && $2 == "default" && $NF == 1 { c[$1 "," $3 "," $6] = 1 } END { print length(c) }' \
        "$d/raw.csv" 2>/dev/null)
      per=$(awk -v c="${cells:-0}" -v t="${cpu:-}" 'BEGIN { if (c > 0 && t != "") printf "%.2f", t / c; else print "?" }')
      echo "$(date -u +%FT%TZ) $topo-$np-$sel exit $rc wall $(($(date +%s) - t0)) s cpu ${cpu:-?} s rss ${rss:-?} MB cells ${cells:-?} cpu/cell ${per} s" | tee -a "$base/campaign.log"
    done
  done
done
dirs=("$base"/*/summary.txt)
[[ -e ${dirs[0]} ]] && python3 "$here/benchmarks/sim_table.py" "${dirs[@]%/summary.txt}" >"$base/table.md"
