#!/usr/bin/env bash
# The timed trace end to end and `mpiguide hotspots` on fixtures (tests/hotspots/CMakeLists.txt).
#
#   run_hotspots.sh mpi NP      two_sites under LD_PRELOAD with MPIGUIDE_TRACE_TIME=1: the trace is
#                               format 3 (timed, ends in its trailer); hotspots lists both call
#                               sites with their file:line (addr2line on the -g build) and
#                               positive times; an untimed trace of the same program is refused
#                               with a clear message
#   run_hotspots.sh fixture     hotspots on data/timed.csv with --check data/check and --profile
#                               data/tuned.prof: selection, verdict matching, saving, CSV
#   run_hotspots.sh bad         hotspots on each bad trace of data/bad (a #@timed=1 after the
#                               column line, numbers out of range, a cut file, a format-3 trace
#                               without its trailer or with a wrong count, a newer format) and on
#                               a directory: refused, the message naming file, line and column;
#                               check --sizes-from refuses the cut ones too; the format-3
#                               fixtures read as their format-1 and 2 twins
#   run_hotspots.sh outfile NP  MPIGUIDE_TRACE and MPIGUIDE_PROFILE_OUT through symbolic links
#                               (dangling, relative, chained, to another directory): the link
#                               stays a link, its target holds the file, nothing else is left;
#                               an unwritable directory, a read-only target and a rename refused
#                               at MPI_Finalize (sticky directory) leave nothing behind and the
#                               target as it was (as nobody when root)
#   run_hotspots.sh predicted   hotspots --loggp MG_LOGGP (and a noisy copy of it, versions 1 and 2: the
#                               price inversion and the warnings in the header): data/untimed.csv's calls priced by the
#                               model (calls x predict's price), --measured data/timed.csv and the
#                               set difference, savings bounded by the predicted time
#
# Environment: MG_CLI, MG_LIB, MG_APP, MG_SRC (two_sites.c), MG_DATA, MG_LOGGP, MG_MPIEXEC,
# MG_MPIEXEC_FLAGS, MG_WORKDIR.
set -uo pipefail
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
MODE=$1
mkdir -p "$MG_WORKDIR" && cd "$MG_WORKDIR" || exit 1

case $1 in
mpi)
  np=$2
  rm -f timed.csv untimed.csv
  # shellcheck disable=SC2086
  env LD_PRELOAD="$MG_LIB" MPIGUIDE_TRACE="$PWD/timed.csv" MPIGUIDE_TRACE_TIME=1 \
    "$MG_MPIEXEC" -n "$np" $MG_MPIEXEC_FLAGS "$MG_APP" >run.out 2>&1
  grep -q "two_sites: OK" run.out && ok "timed run" || { fail "timed run"; cat run.out; }
  # format 4: timed (#@timed=1), ending in the trailer with the row count
  grep -q "^#@mpiguide_trace=4$" timed.csv && grep -q "^#@timed=1$" timed.csv &&
    [[ $(tail -n 1 timed.csv) == "#@trace_rows=$(grep -vc '^#' timed.csv | awk '{print $1 - 1}')" ]] &&
    ok "format 3, timed, trailer: $(tail -n 1 timed.csv)" || fail "format 3 timed with its trailer"
  "$MG_CLI" hotspots timed.csv --csv -p 100 >hs.csv 2>hs.err || { fail "hotspots exit $?"; cat hs.err; }
  cat hs.csv
  lineA=$(grep -n "/\* SITE-A" "$MG_SRC" | cut -d: -f1) lineB=$(grep -n "/\* SITE-B" "$MG_SRC" | cut -d: -f1)
  # columns: rank,site,function,file_line,object,offset,collective,nprocs,bytes,reduction,algorithms,calls,time_s,...
  awk -F, -v l="two_sites.c:$lineA" -v np="$np" '$4 == l && $7 == "allreduce" && $3 == "exchange" && $8 == np &&
      $9 == 8 && $10 == "float:sum" && $12 == 200 && $13 > 0 {f = 1} END {exit !f}' hs.csv &&
    ok "site A: exchange two_sites.c:$lineA allreduce, 200 calls, time > 0" || fail "site A not found as expected"
  awk -F, -v l="two_sites.c:$lineB" -v np="$np" '$4 == l && $7 == "bcast" && $3 == "main" && $9 == 1024 &&
      $12 == 200 && $13 > 0 {f = 1} END {exit !f}' hs.csv &&
    ok "site B: main two_sites.c:$lineB bcast, 200 calls, time > 0" || fail "site B not found as expected"
  [[ $(grep -c "two_sites.c" hs.csv) == 2 ]] && ok "exactly two sites" || fail "expected exactly two sites"
  # the untimed trace stays format 1 and hotspots refuses it, saying what to do
  # shellcheck disable=SC2086
  env LD_PRELOAD="$MG_LIB" MPIGUIDE_TRACE="$PWD/untimed.csv" "$MG_MPIEXEC" -n "$np" $MG_MPIEXEC_FLAGS "$MG_APP" \
    >run2.out 2>&1
  grep -q "^#@mpiguide_trace=4$" untimed.csv && head -20 untimed.csv | grep -q "^collective,bytes,algorithm,calls,ranks,fallback,nprocs,rule$" &&
    [[ $(tail -n 1 untimed.csv) == "#@trace_rows=$(grep -vc '^#' untimed.csv | awk '{print $1 - 1}')" ]] &&
    ! grep -q "^#@timed=" untimed.csv && ok "untimed: format 3, format 1's columns, trailer" || fail "untimed format"
  if "$MG_CLI" hotspots untimed.csv >u.out 2>u.err; then fail "untimed trace accepted"; else
    grep -q "MPIGUIDE_TRACE_TIME=1" u.err && ok "untimed refused: $(cat u.err)" || fail "untimed: unclear message"
  fi
  ;;
fixture)
  d=$MG_DATA
  "$MG_CLI" hotspots "$d/timed.csv" --check "$d/check" --profile "$d/tuned.prof" >t.out 2>t.err ||
    { fail "hotspots exit $?"; cat t.err; }
  cat t.out
  grep -q "^2 hot spots cover 82.9 % of 0.018100 s" t.out && ok "P = 80: two spots" || fail "P = 80 selection"
  grep -E "^ +1 +solve \(app\+0x1000\) +bcast " t.out | grep -q "violation 1/2 (bcast_as_allgatherv 4.46x)" &&
    ok "spot 1: unresolved site shown with symbol and object+offset; violation" || fail "spot 1"
  # the spot takes 10 ms per rank (55.2 % of the MPI time); 400 of its 1000 calls ran the mock-up
  # already. 1000 x (14.5 - 3.25) us = 11.25 ms (62.2 %) would save more than it spent: the other 600
  # calls took 6 ms, and the check's ratio 3.25 / 14.5 of them remains (docs/hotspots.md)
  grep -E "^ +1 " t.out | grep -q "bcast_as_allgatherv  *0.004655 *25.7% *9.3%" &&
    ok "spot 1: saving 6 ms x (1 - 3.25 / 14.5) = 0.004655 s, 25.7 % of MPI, 9.3 % of wall" || fail "spot 1 saving"
  grep -E "^ +2 +app\+0x3000 +bcast " t.out | grep -q "consistent 1/1 .*default (no rule)" &&
    ok "spot 2: consistent, profile keeps the default" || fail "spot 2"
  "$MG_CLI" hotspots "$d/timed.csv" --check "$d/check" --profile "$d/tuned.prof" --csv -p 100 >c.csv 2>c.err ||
    fail "csv exit"
  cat c.csv
  [[ $(tail -n +2 c.csv | wc -l) == 4 ]] && ok "P = 100: four spots" || fail "P = 100"
  # no saving exceeds its spot's time (columns: time_s 13, saving_s 24)
  awk -F, 'NR > 1 && !/^#/ && $24 != "" {n++; if ($24 > $13 + 1e-12) bad = 1} END {exit bad || !n}' c.csv &&
    ok "every saving at most its spot's time" || fail "a saving larger than its spot's time"
  grep -q "^3,.*,allreduce,4,8,float:sum,.*,not_measured," c.csv &&
    ok "allreduce float:sum: not measured (the check has no class:op for it)" || fail "allreduce matching"
  grep -q "^4,.*,bcast,4,4096,.*,not_measured," c.csv && ok "bcast 4096: not measured (exact size)" ||
    fail "bcast 4096 matching"
  # why a spot is not measured: the size (spot 4), or the size at another datatype class or op, and
  # then which the spot has and which the check measured (the check's allreduce 8 B is of MPI_BYTE
  # with no op recorded, spot 3 float:sum; or in its class another op, the check made
  # MPI_FLOAT:MPI_MAX, or another class and op, MPI_INT:MPI_BOR); MPI_FLOAT:MPI_SUM is a verdict for it
  "$MG_CLI" hotspots "$d/timed.csv" --check "$d/check" -p 100 >why.out 2>&1
  grep -E "^ +3 .* allreduce float:sum .*not measured \(float:sum; check has an unnamed one\)" why.out &&
    grep -E "^ +4 .*not measured \(size\)" why.out &&
    ok "not measured: the spot's class:op and the check's at a size measured with another, (size) at one not measured" ||
    { cat why.out; fail "not-measured reasons"; }
  for op in MAX SUM BOR; do
    mkdir -p ck-$op
    ty=MPI_FLOAT; [[ $op == BOR ]] && ty=MPI_INT
    sed "s/^#@sync=barrier\$/&\n#@op=MPI_$op/; s/^\(allreduce,[^,]*,8,\)8,MPI_BYTE,/\12,$ty,/" "$d/check/raw.csv" >ck-$op/raw.csv
    "$MG_CLI" hotspots "$d/timed.csv" --check ck-$op -p 100 >why-$op.out 2>&1
  done
  grep -E "^ +3 .*not measured \(float:sum; check has float:max\)" why-MAX.out && ! grep -E "^ +3 .*not measured" why-SUM.out &&
    ok "not measured (float:sum; check has float:max); float:sum measured" || { cat why-MAX.out why-SUM.out; fail "(op)"; }
  grep -E "^ +3 .*not measured \(float:sum; check has int:bor\)" why-BOR.out &&
    ok "not measured (float:sum; check has int:bor)" || { cat why-BOR.out; fail "(type and op)"; }
  "$MG_CLI" hotspots "$d/timed.csv" -n 1 >n.out 2>&1
  grep -q "^1 hot spot cover .*: the N cap stopped it before P" n.out && ok "-n 1 caps" || fail "-n 1"
  "$MG_CLI" hotspots "$d/timed.csv" --profile "$d/tuned.prof" >p.out 2>&1
  grep -E "^ +1 " p.out | grep -q "needs --check" && ok "profile without check: no saving, says why" ||
    fail "profile without check"
  if "$MG_CLI" hotspots "$d/untimed.csv" >u.out 2>u.err; then fail "untimed accepted"; else
    grep -q "untimed trace" u.err && ok "untimed refused" || fail "untimed message"
  fi
  if "$MG_CLI" hotspots "$d/timed.csv" -p 0 >/dev/null 2>&1; then fail "-p 0 accepted"; else ok "-p 0 refused"; fi
  ;;
bad)
  d=$MG_DATA
  # FILE|LINE|what the message must say after "FILE:LINE: "
  while IFS='|' read -r f line want; do
    [[ -z $f ]] && continue
    if "$MG_CLI" hotspots "$d/bad/$f" >b.out 2>b.err; then fail "$f: accepted: $(head -3 b.out)"; continue; fi
    if grep -qF -- "$d/bad/$f:$line: $want" b.err; then ok "$f: $(cat b.err)"
    else fail "$f: want '$f:$line: $want', got: $(cat b.err)"; fi
  done <<'TABLE'
late-timed.csv|4|#@timed after the column line (line 3)
huge-calls.csv|12|column calls: '3e24' is not a count from 0 to
inf-bytes.csv|12|column bytes: 'inf' is not a count from 0 to
nan-nprocs.csv|12|column nprocs: 'nan' is not a count from 1 to
nan-time.csv|12|column time_s: 'nan' is not a time in seconds
neg-wait.csv|12|column wait_s: '-0.5' is not a time in seconds
bad-offset.csv|12|column offset: '0xZZ' is not an offset
many-ranks.csv|12|column ranks: '9' is more than the run's processes (#@nprocs=4)
meta-nprocs.csv|4|#@nprocs: 'nan' is not a process count
meta-wall.csv|10|#@wall_s: 'inf' is not a time in seconds
future.csv|1|#@mpiguide_trace: format 5 is newer than this mpiguide reads
v2-cut.csv|16|the last line has no line break: the file looks truncated
v3-no-trailer.csv|16|no trailer #@trace_rows=N after the rows (a format-3 trace ends with it): the file looks truncated
v3-wrong-count.csv|15|3 rows, but the trailer #@trace_rows (line 15) says 5: the file looks truncated
v3-after-trailer.csv|18|a line after the trailer #@trace_rows (line 17)
TABLE
  # a directory is no trace file
  if "$MG_CLI" hotspots "$d" >dir.out 2>dir.err; then fail "a directory accepted"
  else grep -qF "$d: is a directory, not a trace file" dir.err && ok "directory: $(cat dir.err)" || fail "directory: $(cat dir.err)"; fi
  # check --sizes-from reads traces with the same reader (here as a singleton, refused before it measures)
  for f in v3-no-trailer.csv v2-cut.csv inf-bytes.csv; do
    if timeout -k 5 60 "$MG_CLI" check --sizes-from "$d/bad/$f" -o "$PWD/ck-$f" >c.out 2>c.err; then fail "check --sizes-from $f accepted"
    else grep -qE -- "--sizes-from: $d/bad/$f:[0-9]+: .*(truncated|column bytes)" c.err && ok "check --sizes-from $f refused" ||
      fail "check --sizes-from $f: $(cat c.err)"; fi
  done
  # format 3 (with the trailer) reads as formats 1 and 2 do
  for p in timed untimed; do
    "$MG_CLI" hotspots "$d/$p.csv" --loggp "$MG_LOGGP" --csv -p 100 >"$p-2.csv" 2>&1
    "$MG_CLI" hotspots "$d/$p-v3.csv" --loggp "$MG_LOGGP" --csv -p 100 >"$p-3.csv" 2>&1
    cmp -s "$p-2.csv" "$p-3.csv" && [[ $(wc -l <"$p-3.csv") -gt 1 ]] && ok "$p-v3.csv reads as $p.csv" ||
      { fail "$p-v3.csv differs from $p.csv"; diff "$p-2.csv" "$p-3.csv" | head; }
  done
  "$MG_CLI" hotspots "$d/timed.csv" -p 100 >t2.out 2>&1
  "$MG_CLI" hotspots "$d/timed-v3.csv" -p 100 >t3.out 2>&1
  # the same but the coverage line, which names the format (neither timed what it did not tune)
  cmp -s <(grep -v "^coverage: " t2.out) <(grep -v "^coverage: " t3.out) && grep -q "^4 hot spots cover" t3.out &&
    ok "timed-v3.csv: the same table as timed.csv" || fail "timed-v3.csv: another table"
  grep -q "^coverage: this trace (format 3) timed only the operations mpiguide tunes" t3.out &&
    ok "a format-3 trace: the coverage line says what it did not time" || fail "format 3: no coverage line"
  ;;
outfile)
  np=$2
  # root writes anywhere: the failure cases run as nobody then (setpriv)
  as_nobody=()
  (($(id -u) == 0)) && as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups env HOME=/tmp)
  run() { # NAME NOBODY(0|1) ENV...: the two-site program, its output in NAME.out
    local name=$1 who=$2
    shift 2
    local pre=()
    ((who)) && pre=("${as_nobody[@]}")
    # shellcheck disable=SC2086
    timeout -k 10 100 "${pre[@]}" env LD_PRELOAD="$MG_LIB" "$@" "$MG_MPIEXEC" -n "$np" $MG_MPIEXEC_FLAGS "$MG_APP" \
      >"$name.out" 2>&1
    grep -q "two_sites: OK" "$name.out" || { fail "$name: the run failed"; cat "$name.out"; }
  }
  whole() { [[ -f $1 && ! -L $1 && $(tail -n 1 "$1") == "#@trace_rows="* ]] && "$MG_CLI" hotspots "$1" --loggp "$MG_LOGGP" -p 100 >/dev/null 2>&1; }
  listing() { (cd "$1" && find . -mindepth 1 | sort | paste -sd' '); }
  rm -rf ln lp ro rof st && mkdir -p ln/a ln/b ln/c
  # a dangling relative link: the trace is its target, the link stays
  ln -s target.csv ln/a/tlink
  run dangling 0 MPIGUIDE_TRACE="$PWD/ln/a/tlink" MPIGUIDE_TRACE_TIME=1
  [[ -L ln/a/tlink && $(readlink ln/a/tlink) == target.csv ]] && ok "dangling link: still a link to target.csv" ||
    fail "dangling link: $(ls -l ln/a)"
  whole ln/a/target.csv && ok "dangling link: target.csv holds the whole trace" || fail "dangling link: target.csv"
  [[ $(listing ln/a) == "./target.csv ./tlink" ]] && ok "dangling link: nothing else in the directory" ||
    fail "dangling link: the directory holds: $(listing ln/a)"
  # again, the target existing now: replaced through the link
  echo old >ln/a/target.csv
  run existing 0 MPIGUIDE_TRACE="$PWD/ln/a/tlink"
  [[ -L ln/a/tlink ]] && whole ln/a/target.csv && [[ $(listing ln/a) == "./target.csv ./tlink" ]] &&
    ok "existing target: rewritten through the link, nothing else" || fail "existing target: $(listing ln/a)"
  # a chain of links, relative then absolute, into another directory
  ln -s l2 ln/b/l1
  ln -s "$PWD/ln/c/t.csv" ln/b/l2
  run chain 0 MPIGUIDE_TRACE="$PWD/ln/b/l1" MPIGUIDE_TRACE_TIME=1
  [[ -L ln/b/l1 && -L ln/b/l2 && $(listing ln/b) == "./l1 ./l2" && $(listing ln/c) == "./t.csv" ]] && whole ln/c/t.csv &&
    ok "chain of links: both stay links, the trace at its end" || fail "chain: b: $(listing ln/b); c: $(listing ln/c)"
  # the online mode's learned profile through a dangling link
  mkdir lp && ln -s learned.prof lp/plink
  run profile 0 MPIGUIDE_PROFILE=auto MPIGUIDE_PROFILE_OUT="$PWD/lp/plink"
  [[ -L lp/plink && -f lp/learned.prof && ! -L lp/learned.prof && $(listing lp) == "./learned.prof ./plink" ]] &&
    head -1 lp/learned.prof | grep -q "^mpiguide-profile" && ok "MPIGUIDE_PROFILE_OUT through a link: the link stays" ||
    fail "MPIGUIDE_PROFILE_OUT through a link: $(listing lp); $(head -2 lp/learned.prof 2>&1)"
  # an unwritable directory: one warning, nothing made (no probe file, no temporary, no target)
  mkdir ro && ln -s target.csv ro/tlink && chmod 555 ro
  who=0
  (($(id -u) == 0)) && who=1
  run unwritable "$who" MPIGUIDE_TRACE="$PWD/ro/tlink" MPIGUIDE_TRACE_TIME=1
  grep -qF "MPIGUIDE_TRACE='$PWD/ro/tlink' cannot be written (Permission denied); no trace" unwritable.out &&
    ok "unwritable directory: one warning" || fail "unwritable directory: $(grep mpiguide unwritable.out)"
  [[ -L ro/tlink && $(listing ro) == "./tlink" ]] && ok "unwritable directory: nothing left" ||
    fail "unwritable directory: $(listing ro)"
  run unwritable-prof "$who" MPIGUIDE_PROFILE=auto MPIGUIDE_PROFILE_OUT="$PWD/ro/tlink"
  grep -qF "MPIGUIDE_PROFILE_OUT='$PWD/ro/tlink' cannot be written (Permission denied)" unwritable-prof.out &&
    [[ $(listing ro) == "./tlink" ]] && ok "unwritable directory, MPIGUIDE_PROFILE_OUT: one warning, nothing left" ||
    fail "unwritable directory, profile: $(listing ro); $(grep mpiguide unwritable-prof.out)"
  # a read-only file there: not replaced (one warning), as open() would not write it
  mkdir rof && echo keep >rof/target.csv && chmod 444 rof/target.csv && ln -s target.csv rof/tlink
  (($(id -u) == 0)) && chown -R 65534:65534 rof
  run readonly "$who" MPIGUIDE_TRACE="$PWD/rof/tlink"
  grep -qF "MPIGUIDE_TRACE='$PWD/rof/tlink' cannot be written (Permission denied); no trace" readonly.out &&
    [[ $(cat rof/target.csv) == keep && -L rof/tlink && $(listing rof) == "./target.csv ./tlink" ]] &&
    ok "read-only target: one warning, kept as it was" || fail "read-only target: $(listing rof); $(grep mpiguide readonly.out)"
  if (($(id -u) == 0)); then
    # MPI_Finalize's rename refused: a sticky directory and a target another user owns (writable,
    # so the probe passes): one warning, the temporary removed, the target as it was
    mkdir st && chmod 1777 st && echo keep >st/target.csv && chmod 666 st/target.csv && ln -s target.csv st/tlink
    run sticky 1 MPIGUIDE_TRACE="$PWD/st/tlink" MPIGUIDE_TRACE_TIME=1
    grep -qF "cannot write MPIGUIDE_TRACE file '$PWD/st/tlink' (Operation not permitted)" sticky.out &&
      ok "rename refused: one warning at MPI_Finalize" || fail "rename refused: $(grep mpiguide sticky.out)"
    [[ $(listing st) == "./target.csv ./tlink" && $(cat st/target.csv) == keep && -L st/tlink ]] &&
      ok "rename refused: no temporary left, the target unchanged" || fail "rename refused: $(listing st)"
  else
    ok "rename refused at MPI_Finalize: skipped (needs root, to own a file the test user cannot replace)"
  fi
  ;;
predicted)
  # hot spots from an untimed trace and the model alone (--loggp MG_LOGGP), beside the measured ones
  d=$MG_DATA
  "$MG_CLI" hotspots "$d/untimed.csv" --loggp "$MG_LOGGP" --measured "$d/timed.csv" >u.out 2>u.err ||
    { fail "predicted hotspots exit $?"; cat u.err; }
  cat u.out
  grep -q "^predicted from the trace's calls and the cost model" u.out && grep -q "^2 hot spots cover .* predicted" u.out &&
    ok "untimed trace: two predicted spots" || fail "untimed trace: predicted spots"
  # the spot's time is its calls x predict's price of the default at (4, 8 B)
  "$MG_CLI" predict --loggp "$MG_LOGGP" -c allreduce --np 4 --sizes 8 -q --csv pr.csv >/dev/null 2>&1
  price=$(awk -F, '$1 == "allreduce" && $3 == 8 && $4 == "default" {print $6}' pr.csv)
  awk -v p="$price" '$2 == "(untimed:" && $5 == "allreduce" && $8 == 5000 {f = ($9 - 5000 * p) ^ 2 < (1e-6 + 1e-4 * $9) ^ 2}
      END {exit !f}' u.out && ok "allreduce 8 B: 5000 calls x $price s" || fail "allreduce 8 B: not calls x price ($price)"
  grep -q "^set difference: 1 predicted hot spot not measured as one, 1 measured not predicted (of 2 predicted, 2 measured)" u.out &&
    ok "set difference per cell: 1 and 1" || fail "set difference"
  # a measured spot the untimed trace never called: no waiting known (the model was not asked)
  grep -qE "^ +- +2 +0\.000000 +0\.005000 +-  bcast np=4 65536" u.out && ok "a measured spot the untimed trace never called" ||
    fail "measured-only spot"
  # waiting: the measured time beyond the price, per row and over every measured spot (bcast 1 KiB:
  # measured 0.010000 less its price)
  bp=$(awk '$1 == 2 && $NF == 1024 {print $3}' u.out)
  awk -v p="$bp" '$1 == 2 && $NF == 1024 {f = ($5 - (0.01 - p)) ^ 2 < 1e-12} END {exit !f}' u.out &&
    grep -qE "^waiting \(measured beyond the model's price, every measured spot\): [0-9.]+ s per rank = [0-9.]+ % of the measured MPI time$" u.out &&
    ok "waiting: bcast 1 KiB 0.010000 - $bp, and the total" || fail "waiting column or total"
  # a nonblocking call is priced at its post, LogGP's o_s at the smallest size (the trace times the
  # post; the transfer completes in MPI_Wait, untraced): 1000 isends of 1 MiB are no hot spot
  os1=$(awk '$1 == "table" {t = 1; for (i = 2; i <= NF; i++) if ($i == "o_s") c = i - 1; next} t && $1 == 1 {print $c; exit}' "$MG_LOGGP")
  # (data/untimed-isend.csv: untimed.csv and those isends)
  "$MG_CLI" hotspots "$d/untimed-isend.csv" --loggp "$MG_LOGGP" --csv -p 100 >nb.csv 2>&1
  "$MG_CLI" hotspots "$d/untimed-isend.csv" --loggp "$MG_LOGGP" >nb.out 2>&1
  awk -F, -v o="$os1" '$7 == "isend" && $12 == 1000 {f = ($13 - 1000 * o) ^ 2 < (1e-9 + 1e-4 * $13) ^ 2} END {exit !f}' nb.csv &&
    grep -q "^2 hot spots cover .* predicted" nb.out && ! grep -qE "^ +[0-9]+ .* isend " nb.out && ok "isend 1 MiB: 1000 posts x o_s $os1 s, not a hot spot" ||
    fail "isend 1 MiB: not priced as 1000 x o_s ($os1): $(grep isend nb.csv)"
  # a timed trace priced by the model (its times unused) with --check's medians and a profile: per
  # site; no saving larger than the spot's predicted time (columns: time_s 13, saving_s 24)
  "$MG_CLI" hotspots "$d/timed.csv" --loggp "$MG_LOGGP" --check "$d/check" --profile "$d/tuned.prof" --csv -p 100 \
    >c.csv 2>c.err || { fail "predicted csv exit $?"; cat c.err; }
  cat c.csv
  awk -F, 'NR > 1 && !/^#/ && $24 != "" {n++; if ($24 > $13 + 1e-12) bad = 1} END {exit bad || !n}' c.csv &&
    ok "every saving at most its spot's predicted time" || fail "a saving larger than its spot's predicted time"
  "$MG_CLI" hotspots "$d/timed.csv" --loggp "$MG_LOGGP" --measured "$d/timed.csv" >s.out 2>&1
  grep -q "per call site, operation, size and reduction" s.out && grep -q "^set difference: .*(of [0-9]* predicted" s.out &&
    ok "timed against timed: per site" || fail "per-site comparison"
  "$MG_CLI" hotspots "$d/untimed.csv" --loggp "$MG_LOGGP" --measured "$d/timed.csv" --csv >u.csv 2>&1
  [[ $(grep -vc "^#" u.csv) == 3 ]] && grep -q "^# set difference: 1 predicted" u.csv &&
    ok "--csv: the rows, then the comparison as comments" || fail "--csv with --measured"
  grep -q "^posts priced at their overhead alone: 1 spot (isend, irecv)" nb.out && ok "the post flagged in the header" ||
    fail "no post flag: $(head -3 nb.out)"
  # issue 46: a LogGP file with one noisy size (its 16 KiB round trip 200 times the fixture's, noise
  # 196 %) prices a 16 KiB send above a 258 KiB one: the header names both sizes; version 2 records
  # loggp's warning, which the header shows; the same file in version 1 has it recomputed
  awk '$1 == "table" {t = 1} t && $1 == 16384 {$2 *= 200; $7 = 1.96} {print}' "$MG_LOGGP" >noisy1.txt
  awk 'NR == 1 {print "mpiguide-loggp 2"; next} {print} /^max_residual/ {print "warning noisy at 16K: the standard error of a series'"'"' median reaches 196 % (recorded)"}' noisy1.txt >noisy2.txt
  printf '#@mpiguide_trace=1\n#@nprocs=2\ncollective,bytes,algorithm,calls,ranks,fallback,nprocs,rule\nsend,16384,default,100,2,,2,\nsend,264192,default,100,2,,2,\n' >sends.csv
  "$MG_CLI" hotspots sends.csv --loggp noisy2.txt >n2.out 2>&1 || fail "noisy v2: exit $?"
  "$MG_CLI" hotspots sends.csv --loggp noisy1.txt >n1.out 2>&1 || fail "noisy v1: exit $?"
  "$MG_CLI" hotspots sends.csv --loggp "$MG_LOGGP" >n0.out 2>&1 || fail "sends: exit $?"
  cat n2.out
  grep -qE "^price not monotone in the size: send default np=2: 16K priced [0-9.]+x 258K " n2.out &&
    ! grep -q "not monotone" n0.out && ok "a 16 KiB send priced above a 258 KiB one: flagged (not with the fixture)" ||
    fail "no inversion flag"
  grep -q "^--loggp noisy2.txt: 1 warning of mpiguide loggp about its fit (class intra; recorded in the file):" n2.out &&
    grep -q "^  loggp: noisy at 16K: the standard error of a series' median reaches 196 % (recorded)$" n2.out &&
    ok "version 2: the recorded noise warning in the header" || fail "version 2: no recorded warning"
  grep -q "recomputed from its table: a version-1 file does not record them" n1.out &&
    grep -q "^  loggp: noisy at 16K: the standard error of a series' median reaches 196 % (a busy" n1.out &&
    ok "version 1: the noise warning recomputed" || fail "version 1: no recomputed noise warning"
  # the warnings recomputed from a version-1 file are those loggp wrote as its comments
  for f in "$MG_LOGGP" "$MG_DATA/../../check/data/guided-ompi2/loggp.txt" "$MG_DATA/../../cost/data/loggp-slow.txt"; do
    "$MG_CLI" hotspots "$d/untimed.csv" --loggp "$f" 2>&1 | sed -n 's/^  loggp: //p' >re.txt
    grep '^# warning: ' "$f" | sed 's/^# warning: //' >orig.txt
    [[ -s orig.txt ]] && cmp -s orig.txt re.txt && ok "$(basename "$(dirname "$f")")/$(basename "$f"): $(wc -l <re.txt) warnings recomputed as written" ||
      { fail "$f: recomputed warnings differ"; diff orig.txt re.txt | head; }
  done
  if "$MG_CLI" hotspots "$d/untimed.csv" --measured "$d/timed.csv" >/dev/null 2>m.err; then fail "--measured without --loggp accepted"
  else grep -q "give --loggp" m.err && ok "--measured needs --loggp" || fail "--measured message"; fi
  ;;
*) echo "usage: run_hotspots.sh mpi NP | fixture | bad | outfile NP | predicted" >&2; exit 2 ;;
esac
finish
