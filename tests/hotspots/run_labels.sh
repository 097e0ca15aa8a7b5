#!/usr/bin/env bash
# Sites that print one label told apart (issue 46), in the table and in --measured: a trace of the
# four calls of tests/hotspots/inlined_sites.c (built with -g -O2; no MPI: the program prints its
# return addresses' offsets, as a timed trace records them). Two calls of the inlined halo() print
# "halo inlined_sites.c:LINE" and are told apart by the line of main they were inlined at; two
# calls on one line of main by their offsets. A site alone keeps its plain label, and --measured
# lists the sites as the table does (it printed object+0xOFFSET).
# Environment: MG_CLI, MG_APP (the inlined_sites program), MG_SRC (inlined_sites.c), MG_LOGGP, MG_WORKDIR.
set -uo pipefail
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
: "${MG_CLI:?}" "${MG_APP:?}" "${MG_SRC:?}" "${MG_LOGGP:?}" "${MG_WORKDIR:?}"
rm -rf "$MG_WORKDIR" && mkdir -p "$MG_WORKDIR" && cd "$MG_WORKDIR" || exit 1
mapfile -t off < <("$MG_APP" x)
((${#off[@]} == 4)) && ok "four call sites: ${off[*]}" || fail "the program printed ${#off[@]} offsets"
exe=$(realpath "$MG_APP") obj=$(basename "$MG_APP")
line() { grep -n "$1" "$MG_SRC" | cut -d: -f1; }
site=$(line "/\* SITE \*/") ca=$(line "CALLER-A") cb=$(line "CALLER-B") same=$(line "SAME-LINE")
trace() { # ROWS...: "collective,bytes,offset,time_s"
  printf '#@mpiguide_trace=2\n#@mpiguide_version=0.1.0\n#@mpi_library=TestMPI 1.0 (fixture)\n#@nprocs=2\n'
  printf '#@date=2026-01-01T00:00:00+0000\n#@MPIGUIDE_ALG=\n#@scratch_max=67108864\n#@timed=1\n'
  printf '#@clock=CLOCK_MONOTONIC\n#@wall_s=1.000000\n'
  echo "collective,bytes,algorithm,calls,ranks,fallback,nprocs,rule,reduction,object,offset,symbol,time_s,time_min_s,time_max_s,wait_s"
  local r c b o t
  for r in "$@"; do
    IFS=, read -r c b o t <<<"$r"
    echo "$c,$b,default,100,2,,2,,,$exe,$o,,$t,0.000000000,0.000000000,0.000000000"
  done
}
trace "bcast,1024,${off[0]},0.400000000" "bcast,1024,${off[1]},0.300000000" "bcast,1024,${off[2]},0.200000000" \
  "bcast,1024,${off[3]},0.100000000" >t.csv
"$MG_CLI" hotspots t.csv -p 100 >t.out 2>&1 || fail "hotspots exit $?"
cat t.out
want=("halo inlined_sites.c:$site (inlined in main inlined_sites.c:$ca)" "halo inlined_sites.c:$site (inlined in main inlined_sites.c:$cb)"
  "main inlined_sites.c:$same ($obj+${off[2]})" "main inlined_sites.c:$same ($obj+${off[3]})")
for i in 0 1 2 3; do
  grep -qF -- "  $((i + 1))  ${want[i]} " t.out && ok "site $((i + 1)): ${want[i]}" || fail "site $((i + 1)) is not '${want[i]}'"
done
"$MG_CLI" hotspots t.csv -p 100 --csv >t.csv.out 2>&1
[[ $(awk -F, 'NR > 1 {print $2}' t.csv.out | sort -u | wc -l) == 4 ]] && awk -F, -v w="${want[0]}" '$1 == 1 && $2 == w {f = 1} END {exit !f}' t.csv.out &&
  ok "--csv: four distinct site labels" || { cat t.csv.out; fail "--csv site labels"; }
# a site alone keeps its label
trace "bcast,1024,${off[0]},0.400000000" >one.csv
"$MG_CLI" hotspots one.csv -p 100 >one.out 2>&1
grep -qE "^ +1  halo inlined_sites.c:$site +bcast" one.out && ok "one site: halo inlined_sites.c:$site, nothing added" ||
  { cat one.out; fail "one site"; }
# --measured: the sites as the table names them, told apart over both traces (the measured one has a
# site the predicted one lacks, and the same-line pair)
trace "bcast,1024,${off[0]},0.400000000" "bcast,1024,${off[2]},0.200000000" >pred.csv
trace "bcast,1024,${off[0]},0.400000000" "bcast,65536,${off[1]},0.300000000" "bcast,1024,${off[3]},0.500000000" >meas.csv
"$MG_CLI" hotspots pred.csv --loggp "$MG_LOGGP" --measured meas.csv -p 100 >m.out 2>&1 || fail "--measured exit $?"
cat m.out
sed -n '/^predicted against measured/,$p' m.out >cmp.out
[[ $(grep -cE " bcast np=2 " cmp.out) == 4 ]] && ! grep -qE "  ($obj|$exe)\+0x[0-9a-f]+ bcast" cmp.out &&
  ok "--measured: four rows, none a site as object+0xOFFSET" || fail "--measured lists object+offset"
grep -qF "halo inlined_sites.c:$site (inlined in main inlined_sites.c:$ca) bcast np=2 1024" cmp.out &&
  grep -qF "halo inlined_sites.c:$site (inlined in main inlined_sites.c:$cb) bcast np=2 65536" cmp.out &&
  grep -qF "main inlined_sites.c:$same ($obj+${off[2]}) bcast np=2 1024" cmp.out &&
  grep -qF "main inlined_sites.c:$same ($obj+${off[3]}) bcast np=2 1024" cmp.out &&
  ok "--measured: the four sites as the table names them, apart" || fail "--measured labels"
finish
