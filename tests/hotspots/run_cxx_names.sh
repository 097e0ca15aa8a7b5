#!/usr/bin/env bash
# `mpiguide hotspots` names C++ sites briefly (issue 33): a recorded timed trace whose two sites
# are in tests/hotspots/cxx_sites.cpp, built here with g++ -g (no MPI: the sites are addresses in
# it, as a trace records them). The table shows "solver::Integrator<>::step" (no parameters,
# template arguments as "<>" past 40 characters) and "(anonymous namespace)::helper"; --wide and
# the CSV's function column show addr2line's whole names. And a stripped object's site without
# file:line is not named after the nearest exported symbol (CP2K's sites were all "cblas_dgemv").
# Environment: MG_CLI (the mpiguide command), MG_WORKDIR, MG_SRC (cxx_sites.cpp).
set -u
: "${MG_CLI:?}" "${MG_WORKDIR:?}" "${MG_SRC:?}"
fails=0
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; fails=$((fails + 1)); }
rm -rf "$MG_WORKDIR" && mkdir -p "$MG_WORKDIR" && cd "$MG_WORKDIR" || exit 1
g++ -g -O0 -o sites "$MG_SRC" || { echo "FAIL: g++ could not build $MG_SRC (scripts/setup.sh installs build-essential)"; exit 1; }
exe=$(realpath sites)
# a site's offset: an address inside the function (the trace records return addresses; hotspots
# resolves offset - 1)
addr() { printf '0x%x' $((0x$(nm -C sites | grep -F "$1" | awk '{ print $1 }') + 8)); }
step=$(addr "::step(") helper=$(addr "::helper(")
{
  printf '#@mpiguide_trace=2\n#@mpiguide_version=0.1.0\n#@mpi_library=TestMPI 1.0 (fixture)\n#@nprocs=2\n'
  printf '#@date=2026-01-01T00:00:00+0000\n#@MPIGUIDE_ALG=\n#@scratch_max=67108864\n#@timed=1\n'
  printf '#@clock=CLOCK_MONOTONIC\n#@wall_s=1.000000\n'
  echo "collective,bytes,algorithm,calls,ranks,fallback,nprocs,rule,reduction,object,offset,symbol,time_s,time_min_s,time_max_s,wait_s"
  echo "allreduce,8,default,100,2,,2,,float:sum,$exe,$step,,0.200000000,0.100000000,0.100000000,0.000000000"
  echo "bcast,1024,default,50,2,,2,,,$exe,$helper,,0.100000000,0.050000000,0.050000000,0.000000000"
} >t.csv
"$MG_CLI" hotspots t.csv -p 100 >table.out 2>&1 || fail "hotspots exit $?"
cat table.out
line_step=$(grep -n 's += v' "$MG_SRC" | cut -d: -f1) line_helper=$(grep -n 'return x \* 2' "$MG_SRC" | cut -d: -f1)
grep -E "^ +1  solver::Integrator<>::step cxx_sites.cpp:$line_step +allreduce" table.out >/dev/null &&
  ok "site 1: solver::Integrator<>::step cxx_sites.cpp:$line_step" || fail "site 1 not shown short"
grep -E "^ +2  \(anonymous namespace\)::helper cxx_sites.cpp:$line_helper +bcast" table.out >/dev/null &&
  ok "site 2: (anonymous namespace)::helper" || fail "site 2 not shown short"
"$MG_CLI" hotspots t.csv -p 100 --wide >wide.out 2>&1 || fail "hotspots --wide exit $?"
grep -qF "solver::Integrator<double, std::allocator<double> >::step(std::vector<double, std::allocator<double> > const&, int) const cxx_sites.cpp:$line_step" wide.out &&
  ok "--wide: the whole signature" || fail "--wide: no whole signature"
"$MG_CLI" hotspots t.csv -p 100 --csv >c.csv 2>&1 || fail "hotspots --csv exit $?"
grep -qF '"solver::Integrator<double, std::allocator<double> >::step(std::vector<double, std::allocator<double> > const&, int) const"' c.csv &&
  ok "CSV: the whole signature" || fail "CSV: no whole signature: $(sed -n 2p c.csv)"
# A stripped object that exports a symbol (as Debian's binaries, CP2K's cblas_*): addr2line names
# the nearest dynamic symbol below any address (here main, for an address in step); without
# file:line the table must show the trace's symbol (dladdr's, which holds the address; empty here)
g++ -O0 -Wl,--export-dynamic-symbol=main -o exported "$MG_SRC" && strip -o stripped exported ||
  fail "g++ --export-dynamic-symbol / strip"
sstep=$(printf '0x%x' $((0x$(nm -C exported | grep -F "::step(" | awk '{ print $1 }') + 8)))
[[ $(addr2line -f -e stripped "$sstep" | head -1) == main ]] && ok "addr2line names main for step's address in the stripped object" ||
  echo "note: addr2line does not misname the stripped site here: $(addr2line -f -e stripped "$sstep" | head -1)"
head -11 t.csv >s.csv
echo "allreduce,8,default,100,2,,2,,float:sum,$(realpath stripped),$sstep,,0.200000000,0.100000000,0.100000000,0.000000000" >>s.csv
"$MG_CLI" hotspots s.csv -p 100 >s.out 2>&1 || fail "hotspots (stripped) exit $?"
cat s.out
grep -E "^ +1  stripped\+$sstep +allreduce" s.out >/dev/null && ok "stripped: shown as stripped+$sstep, not as main" ||
  fail "stripped: not shown as object+offset"
((fails == 0)) && echo "run_cxx_names: all passed" || { echo "run_cxx_names: $fails failed"; exit 1; }
