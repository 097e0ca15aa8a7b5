#!/usr/bin/env bash
# Runs `mpiguide check` and checks the outcome (tests/check/CMakeLists.txt).
#
#   run_check.sh ok NP [checks...] -- [check options...]
#       under mpiexec with -o $MG_WORKDIR/out: exit 0, the four result files, no temporary
#       files, and `check --from out` (offline, no mpiexec) gives the same verdicts.csv. Checks:
#         --min-verdicts N     at least N verdicts with status ok
#         --aa MAXRAW MAXHOLM  A/A control: at most MAXRAW default-vs-default violations without
#                              Holm (re-analysed with --no-holm), at most MAXHOLM in the run (Holm)
#         --planted FROM       bcast: a violation at every size >= FROM, none below
#         --stdout REGEX       rank 0's output matches (grep -E)
#         --mockups-exactly L  the verdicts are for exactly these mock-ups (sorted, comma-separated)
#         --monotony-rows N    monotony.csv holds N comparisons
#         --monotony-violation ALG,N,N2  monotony.csv: ALG at N bytes is slower than at N2 (a violation)
#         --violation MOCKUP,N  verdicts.csv: MOCKUP at N bytes is a violation
#         --file F REGEX       out/F has a line matching REGEX (grep -E)
#         --no-line F REGEX    out/F has no line matching REGEX
#   run_check.sh fail NP REGEX -- [options...]       under mpiexec: non-zero exit on every rank,
#       stderr matches REGEX, nothing left in $MG_WORKDIR (a created output directory removed);
#       NP 0: started without mpiexec (a singleton MPI process: option checks, quicker)
#   run_check.sh offline-fail REGEX -- [options...]  the same without mpiexec (--from)
#   run_check.sh interrupt NP      SIGINT to a long check: raw.csv kept (partial), a message, --from works
#   run_check.sh resume NP        SIGINT, then a rerun without --resume (refused), with other options
#       (refused), with --resume: only the missing cells measured, raw.csv whole, one launch
#   run_check.sh launches-resume NP -- [options...]  --launches 2 cut during launch 1 (SIGINT to the
#       process group): its cells kept and said so, a rerun refused before any launch, --resume completes
#   run_check.sh sizes-from-classes NP  check --sizes-from data/trace/fortran-timed.csv: the trace's
#                                   fint, logical and complex reductions measured; hotspots judges them
#   run_check.sh sizes-from NP      check --sizes-from data/trace/jacobi-trace.csv (+ send, sendrecv,
#                                   recv rows) measures exactly
#       the trace's non-empty (collective, size) cells
#   run_check.sh launches NP fail|interrupt|hang|spaced -- [options...]  `check --launches 3 ... -o
#       out -- flaky_launcher.sh mpiexec -n NP`, whose 2nd call fails, or interrupts check (SIGINT)
#       and then runs: exit 1, the other launches kept and analysed together into out/; spaced:
#       every call runs, and the launches span the --min-span 6s given
#   run_check.sh keep NP REGEX -- [options...]       $MG_WORKDIR/out already holds results:
#       the run must fail with REGEX and leave them byte for byte unchanged (NP 0: no mpiexec);
#       keep-raw: the same with out/raw.csv copied from $MG_DATA/$KEEP_RAW (a doctored --resume file)
#
# "@OUT" in the options stands for $MG_WORKDIR/out, "@DATA" for the fixture directory.
# Environment: MG_MPIEXEC, MG_MPIEXEC_FLAGS, MG_CLI (mpiguide), MG_WORKDIR (emptied first),
# MG_DATA (tests/check/data), MG_PRELOAD (a library to preload into the ranks, optional).
set -u
mode=$1
shift
work=$MG_WORKDIR
rm -rf "$work"
mkdir -p "$work"
read -r -a flags <<<"${MG_MPIEXEC_FLAGS:-}"
launch() {
  local np=$1
  shift
  if [[ -n ${MG_PRELOAD:-} ]]; then
    timeout -k 10 280 "$MG_MPIEXEC" -n "$np" "${flags[@]}" env LD_PRELOAD="$MG_PRELOAD" "$MG_CLI" check "$@"
  else
    timeout -k 10 280 "$MG_MPIEXEC" -n "$np" "${flags[@]}" "$MG_CLI" check "$@"
  fi
}
subst() { local a; for a in "$@"; do a=${a//@OUT/$work/out}; printf '%s\n' "${a//@DATA/$MG_DATA}"; done; }
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
MODE=$mode
# column NAME of verdicts.csv rows (header found by name): prints "bytes mockup status value"
column() {
  awk -F, -v want="$2" '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
       {print $c["collective"], $c["bytes"], $c["mockup"], $c["status"], $c[want]}' "$1"
}

case $mode in
interrupt)
  unset OMPI_MCA_odls_base_sigkill_timeout # signalled runs: the ranks need the grace to save
  # Ctrl-C during a long check: the cells measured so far stay in out/raw.csv (saved as they are
  # measured), rank 0 says how many, and `check --from out` analyses them as a partial run.
  np=$1
  # The first save comes with the first cell measured 0.5 s after the start (MPIGUIDE_CHECK_SAVE_EVERY;
  # at the default 5 s the test waited 55 s in CI's slow-machine emulation, the first cells of
  # allgather at 1 KiB, 200 values each, being cheap but many). The 85 cells up to 1 MiB still take
  # minutes: the signal comes while the check runs.
  export MPIGUIDE_CHECK_SAVE_EVERY=0.5
  ( launch "$np" --full --sizes 1K,64K,1M --nrep 200 --warmup 1 -o "$work/out" --no-progress >"$work/stdout" 2>"$work/stderr" ) &
  pid=$!
  for _ in $(seq 240); do [[ -s $work/out/raw.csv ]] && break; sleep 0.5; done
  [[ -s $work/out/raw.csv ]] || { kill -KILL $pid; die "no raw.csv saved within 120 s"; }
  pkill -INT -f -- "^$MG_MPIEXEC .*-o $work/out" # the launcher, as Ctrl-C would: it passes the signal on
  wait $pid
  cat "$work/stderr"
  grep -Eq "interrupted: [0-9]+ of [0-9]+ cells saved in $work/out/raw.csv" "$work/stderr" ||
    die "no 'interrupted: N of M cells saved' message"
  grep -q '^#@check_incomplete=partial:' "$work/out/raw.csv" || die "raw.csv is not marked partial"
  "$MG_CLI" check --from "$work/out" >"$work/from" 2>&1 || { cat "$work/from"; die "check --from the partial run failed"; }
  grep -q "PARTIAL RUN" "$work/from" || die "check --from does not say the run is partial"
  echo "run_check: interrupt: the measurements so far are kept and analysed as a partial run"
  exit 0
  ;;
resume)
  unset OMPI_MCA_odls_base_sigkill_timeout # signalled runs: the ranks need the grace to save
  # Ctrl-C, then --resume (docs/check.md): a rerun without it is refused (raw.csv untouched), one
  # with other options is refused, and --resume measures only the cells missing: the file then
  # holds every cell of the plan once, the cells kept unchanged, and analyses as a whole run.
  np=$1
  # one reduction pair: every cell saved is a whole size, kept by --resume (a size cut between two
  # pairs is measured again); the barrier first, so the first save (the end of its engine run,
  # a fraction of a second in) comes with seconds of bcast and allreduce still to measure: with
  # the barrier last, a quiet machine saved first at 8 of 9 cells and finished before the signal
  # raw.csv saved every 0.2 s, not 5: a quiet machine measures all of this in 4 s, so a first save
  # at 5 s came after the run had ended
  export MPIGUIDE_CHECK_SAVE_EVERY=0.2
  opts=(-c barrier,bcast,allreduce --reductions double:sum --sizes 1K,16K,256K,1M --nrep 2000 --warmup 1
        --budget 10s -o "$work/out" --no-progress)
  ( launch "$np" "${opts[@]}" >"$work/stdout" 2>"$work/stderr" ) &
  pid=$!
  for _ in $(seq 300); do [[ -s $work/out/raw.csv ]] && break; sleep 0.2; done
  [[ -s $work/out/raw.csv ]] || { kill -KILL $pid; die "no raw.csv saved within 60 s"; }
  pkill -INT -f -- "^$MG_MPIEXEC .*-o $work/out"
  wait $pid
  cat "$work/stderr"
  grep -q '^#@check_incomplete=partial:' "$work/out/raw.csv" || die "raw.csv is not marked partial"
  cp "$work/out/raw.csv" "$work/partial.csv"
  launch "$np" "${opts[@]}" >"$work/again" 2>&1 && die "a rerun without --resume was not refused"
  grep -q "holds an interrupted check .*add --resume" "$work/again" || { cat "$work/again"; die "no --resume hint"; }
  cmp -s "$work/out/raw.csv" "$work/partial.csv" || die "the refused rerun changed raw.csv"
  launch "$np" "${opts[@]/10s/9s}" --resume >"$work/other" 2>&1 && die "--resume with other options was accepted"
  grep -q "resume it with the same options" "$work/other" || { cat "$work/other"; die "no 'same options' message"; }
  launch "$np" "${opts[@]}" --resume >"$work/stdout" 2>"$work/stderr" || { cat "$work/stdout" "$work/stderr"; die "--resume failed"; }
  cat "$work/stderr"
  grep -Eq "resuming .*: [1-9][0-9]* of 9 cells are measured" "$work/stderr" || die "no 'resuming: N of 9' line"
  raw=$work/out/raw.csv
  grep -q '^#@check_incomplete' "$raw" && die "the resumed raw.csv is still marked partial"
  grep -q '^#@check_resumed=' "$raw" || die "no #@check_resumed line"
  for f in verdicts.csv summary.txt; do [[ -s $work/out/$f ]] || die "no $f"; done
  grep -q "PARTIAL RUN" "$work/out/summary.txt" && die "the resumed run is analysed as partial"
  # every planned cell (allreduce: 4 sizes, bcast: 4, barrier: 1) is there, one launch
  cells=$(awk -F, '!/^#/ && $1 != "collective" {print $1, $3, $5}' "$raw" | sort -u | wc -l)
  ((cells == 9)) || die "$cells cells in the resumed raw.csv, want 9"
  [[ $(awk -F, '!/^#/ && $1 != "collective" {print $9}' "$raw" | sort -u | wc -l) == 1 ]] || die "more than one launch id"
  # the first cell saved is kept, not measured again: its rows are the partial file's
  first=$(awk -F, '!/^#/ && $1 != "collective" {print $1 "," $2 "," $3 ","; exit}' "$work/partial.csv")
  cmp -s <(grep "^$first" "$work/partial.csv") <(grep "^$first" "$raw") || die "the rows of $first changed"
  "$MG_CLI" check --from "$work/out" -q || die "check --from the resumed run failed"
  echo "run_check: resume: only the missing cells measured, the file whole and one launch"
  exit 0
  ;;
launches-resume)
  unset OMPI_MCA_odls_base_sigkill_timeout # signalled runs: the ranks need the grace to save
  # --launches N interrupted during launch 1 (SIGINT to the process group, as Ctrl-C): its cells
  # are kept and said so; a rerun without --resume is refused before any launch starts; --resume
  # completes launch 1 and runs launch 2, analysed together.
  np=$1
  shift 2
  mapfile -t opts < <(subst "$@")
  export MG_FLAKY_COUNT=$work/count MG_FLAKY_AT=0 MG_FLAKY_MODE=none
  export MPIGUIDE_CHECK_SAVE_EVERY=0.2 # a first save well before the launch ends (it is 5 s otherwise)
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  lau=("$here/flaky_launcher.sh" "$MG_MPIEXEC" -n "$np" "${flags[@]}")
  setsid "$MG_CLI" check --launches 2 "${opts[@]}" -o "$work/out" -- "${lau[@]}" >"$work/stdout" 2>"$work/stderr" &
  pid=$!
  for _ in $(seq 300); do [[ -s $work/out/launch-1/raw.csv ]] && break; sleep 0.2; done
  [[ -s $work/out/launch-1/raw.csv ]] || { kill -KILL -- -$pid; die "launch 1 saved no raw.csv within 60 s"; }
  kill -INT -- -$pid
  wait $pid
  rc=$?
  cat "$work/stderr"
  ((rc == 1)) || die "exit code $rc after the interruption, expected 1"
  grep -q "launch 1 of 2 interrupted; the cells it measured are kept in $work/out/launch-1/raw.csv" "$work/stderr" ||
    die "no message that launch 1's cells are kept"
  grep -q "launch-1/raw.csv" "$work/stderr" && ! grep -q "nothing to analyse" "$work/stderr" || die "'nothing to analyse' although cells were saved"
  calls=$(cat "$work/count")
  timeout -k 10 120 "$MG_CLI" check --launches 2 "${opts[@]}" -o "$work/out" -- "${lau[@]}" >"$work/again" 2>&1 &&
    die "a rerun without --resume was not refused"
  grep -q "holds the launches of an earlier check .*add --resume" "$work/again" || { cat "$work/again"; die "no --resume hint"; }
  [[ $(cat "$work/count") == "$calls" ]] || die "the refused rerun started a launch"
  timeout -k 10 200 "$MG_CLI" check --launches 2 "${opts[@]}" -o "$work/out" --resume -- "${lau[@]}" >"$work/stdout" 2>"$work/stderr"
  rc=$?
  cat "$work/stderr"
  ((rc == 0)) || die "--resume: exit code $rc, expected 0"
  grep -q "launch 1 of 2 (resumed)" "$work/stderr" || die "launch 1 was not resumed"
  grep -q '^#@check_resumed=' "$work/out/launch-1/raw.csv" || die "launch-1/raw.csv has no #@check_resumed line"
  grep -qx "#@launches=2" "$work/out/verdicts.csv" || die "verdicts.csv is not the analysis of both launches"
  echo "run_check: launches-resume: the interrupted launch kept, completed, analysed with the next"
  exit 0
  ;;
sizes-from)
  # check --sizes-from TRACE measures exactly the trace's non-empty (collective, size) cells
  # (and a barrier, always at size 0, once it was called)
  np=$1
  trace=$work/trace.csv
  cp "$MG_DATA/trace/jacobi-trace.csv" "$trace" && echo "barrier,0,default,3,$np,,$np," >>"$trace"
  # and its point-to-point operations that have a guideline (issue 33); recv has none: left out
  printf 'send,32,default,10,%s,,%s,\nsendrecv,64,default,10,%s,,%s,\nrecv,32,default,10,%s,,%s,\n' \
    "$np" "$np" "$np" "$np" "$np" "$np" >>"$trace"
  launch "$np" --sizes-from "$trace" --nrep 10 --warmup 1 -o "$work/out" -q >"$work/stdout" 2>"$work/stderr"
  rc=$?
  cat "$work/stdout" "$work/stderr"
  ((rc == 0)) || die "exit code $rc, expected 0"
  want=$(awk -F, '!/^#/ && $1 != "collective" && $1 != "recv" && ($2 > 0 || $1 == "barrier") {print $1, $2}' "$trace" | sort -u)
  got=$(awk -F, '!/^#/ && $1 != "collective" {print $1, $3}' "$work/out/raw.csv" | sort -u)
  [[ $want == "$got" ]] || die "measured cells differ from the trace's: want [$want] got [$got]"
  echo "run_check: sizes-from: measured exactly the trace's cells: $(echo "$got" | tr '\n' ';')"
  exit 0
  ;;
sizes-from-classes)
  # a Fortran program's reductions (data/trace/fortran-timed.csv: MPI_INTEGER max, MPI_LOGICAL lor,
  # MPI_DOUBLE_COMPLEX sum, MPI_DOUBLE_PRECISION sum): --sizes-from measures each class:op the trace
  # reduced, with the class's datatype, and hotspots gives each spot a verdict (issue 33: CP2K's
  # integer and logical allreduces were 'not measured (type)': they had no class)
  np=$1
  trace=$MG_DATA/trace/fortran-timed.csv
  launch "$np" --sizes-from "$trace" -c allreduce --nrep 10 --warmup 1 -o "$work/out" -q >"$work/stdout" 2>"$work/stderr"
  rc=$?
  cat "$work/stdout" "$work/stderr"
  ((rc == 0)) || die "exit code $rc, expected 0"
  got=$(awk -F, '!/^#/ && $1 == "allreduce" && $2 == "default" {print $3, $5}' "$work/out/raw.csv" | sort -u | paste -sd';')
  echo "measured (bytes datatype): $got"
  for want in "8 MPI_INTEGER" "4 MPI_LOGICAL" "32 MPI_DOUBLE_COMPLEX" "64 MPI_DOUBLE"; do
    [[ ";$got;" == *";$want;"* ]] || die "no default measured at $want"
  done
  "$MG_CLI" hotspots "$trace" --check "$work/out" -p 100 >"$work/hs.out" 2>&1 || die "hotspots: exit $?"
  cat "$work/hs.out"
  for red in fint:max logical:lor complex:sum float:sum; do
    line=$(grep -E "^ +[0-9]+ .* allreduce $red " "$work/hs.out") || die "no hot spot allreduce $red"
    [[ $line != *"not measured"* ]] || die "allreduce $red: $line"
  done
  echo "run_check: sizes-from-classes: every class:op of the trace measured and judged"
  exit 0
  ;;
launches)
  unset OMPI_MCA_odls_base_sigkill_timeout # signalled runs: the ranks need the grace to save
  np=$1 how=$2
  shift 3
  mapfile -t opts < <(subst "$@")
  export MG_FLAKY_COUNT=$work/count MG_FLAKY_AT=2 MG_FLAKY_MODE=$how
  here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
  timeout -k 10 280 "$MG_CLI" check --launches 3 "${opts[@]}" -o "$work/out" -- \
    "$here/flaky_launcher.sh" "$MG_MPIEXEC" -n "$np" "${flags[@]}" >"$work/stdout" 2>"$work/stderr"
  rc=$?
  cat "$work/stdout" "$work/stderr"
  if [[ $how == spaced ]]; then # --min-span 6s: launch 3 starts no sooner than 6 s after launch 1
    ((rc == 0)) || die "exit code $rc, expected 0"
    d1=$(date -d "$(sed -n 's/^#@date=//p' "$work/out/launch-1/raw.csv")" +%s) || die "launch-1: no #@date"
    d3=$(date -d "$(sed -n 's/^#@date=//p' "$work/out/launch-3/raw.csv")" +%s) || die "launch-3: no #@date"
    (((d3 - d1) >= 6)) || die "launch 3 started $((d3 - d1)) s after launch 1, --min-span 6s asks for 6"
    span=$(sed -n 's/^replication over time: the launches compared span \([0-9]*\) s.*/\1/p' "$work/out/summary.txt")
    [[ -n $span ]] && ((span >= 6)) || die "the summary's replication line: '$span' s, not at least 6: $(grep -A1 '^replication' "$work/out/summary.txt")"
    echo "run_check: launches (spaced): launch 3 started $((d3 - d1)) s after launch 1, the summary says $span s"
    exit 0
  fi
  if [[ $how == hang ]]; then # stopped MPIGUIDE_FINALIZE_GRACE + 5 s after its results were saved, and counted
    ((rc == 0)) || die "exit code $rc, expected 0 (the launcher that did not exit was stopped)"
    grep -q "launch 2 of 3: its results were saved $(( ${MPIGUIDE_FINALIZE_GRACE:-20} + 5 )) s ago and the launcher has not exited: stopped" "$work/stderr" ||
      die "no message for the launcher that did not exit"
    grep -qx "#@launches=3" "$work/out/verdicts.csv" || die "verdicts.csv is not the analysis of the 3 launches"
    pgrep -f "sleep 120" >/dev/null && pkill -f "^sleep 120$"
    echo "run_check: launches (hang): the launcher stopped once its launch was saved, the launch counted"
    exit 0
  fi
  ((rc == 1)) || die "exit code $rc, expected 1 (a launch failed or was interrupted)"
  if [[ $how == fail ]]; then
    grep -q "launch 2 of 3 failed (exit status 3" "$work/stderr" || die "no message for the failed launch 2"
    want=(1 3)
  else
    grep -q "interrupted after 2 finished launch(es) of 3" "$work/stderr" || die "no message for the interruption"
    want=(1 2)
    [[ -e $work/out/launch-3 ]] && die "launch 3 ran after the interruption"
  fi
  for k in "${want[@]}"; do [[ -s $work/out/launch-$k/raw.csv ]] || die "launch-$k/raw.csv missing"; done
  # the later launch starts its time estimate from the last finished one's cells (docs/check.md)
  grep -q "^#@command=.* --eta-from $work/out/launch-1/raw.csv" "$work/out/launch-${want[1]}/raw.csv" ||
    die "launch ${want[1]} was not given --eta-from launch-1/raw.csv: $(grep '^#@command=' "$work/out/launch-${want[1]}/raw.csv")"
  grep -q "^#@command=.*--eta-from" "$work/out/launch-1/raw.csv" && die "launch 1 was given --eta-from"
  # without -q each launch shows its progress line, labelled, its ETA counting the launches after it
  for k in "${want[@]}"; do
    grep -q "^#@command=.* --launch-of $k/3" "$work/out/launch-$k/raw.csv" ||
      die "launch $k was not given --launch-of $k/3: $(grep '^#@command=' "$work/out/launch-$k/raw.csv")"
  done
  for f in verdicts.csv verdicts.json summary.txt; do [[ -s $work/out/$f ]] || die "the joint analysis wrote no $f"; done
  grep -qx "#@launches=2" "$work/out/verdicts.csv" || die "verdicts.csv is not the analysis of the 2 kept launches"
  # the result directory itself is a source: its launch-K/raw.csv, for check --from, tune and report
  "$MG_CLI" check --from "$work/out" -o "$work/again" -q || die "check --from the --launches directory failed"
  grep -qx "#@launches=2" "$work/again/verdicts.csv" || die "check --from the --launches directory: not 2 launches"
  cmp -s <(grep -v '^#@' "$work/out/verdicts.csv") <(grep -v '^#@' "$work/again/verdicts.csv") ||
    die "check --from the --launches directory: other verdicts than the joint analysis"
  # --allow-noise: a loaded machine may make this short run noise-dominated; tune reads the directory either way
  "$MG_CLI" tune "$work/out" -o "$work/t.prof" --allow-noise >/dev/null || die "tune of the --launches directory failed"
  echo "run_check: launches ($how): the kept launches analysed together, also from the directory"
  exit 0
  ;;
ok)
  np=$1
  shift
  checks=()
  while (($#)) && [[ $1 != -- ]]; do checks+=("$1"); shift; done
  shift
  mapfile -t opts < <(subst "$@")
  launch "$np" "${opts[@]}" -o "$work/out" --no-progress >"$work/stdout" 2>"$work/stderr"
  rc=$?
  cat "$work/stdout" "$work/stderr"
  ((rc == 0)) || die "exit code $rc, expected 0"
  for f in raw.csv verdicts.csv verdicts.json summary.txt; do
    [[ -s $work/out/$f ]] || die "missing or empty: $f"
  done
  if find "$work/out" -name '*.partial.*' | grep -q .; then die "temporary files left"; fi
  # the offline analysis of the saved raw data, with the run's analysis options, gives the same verdicts
  ana=()
  for ((i = 0; i < ${#opts[@]}; i++)); do
    case ${opts[i]} in
    --aa | --no-holm) ana+=("${opts[i]}") ;;
    --alpha | --test | --level | --resamples | --noise | --seed) ana+=("${opts[i]}" "${opts[i + 1]}") ;;
    esac
  done
  (cd "$work" && "$MG_CLI" check --from out -o again -q "${ana[@]}") || die "check --from out failed"
  (cd "$work" && sed 's|^#@launch=\([^,]*\),[^,]*,|#@launch=\1,SRC,|' out/verdicts.csv >a.csv &&
    sed 's|^#@launch=\([^,]*\),[^,]*,|#@launch=\1,SRC,|' again/verdicts.csv >b.csv && cmp -s a.csv b.csv) ||
    die "check --from gives other verdicts than the run (diff $work/out/verdicts.csv $work/again/verdicts.csv)"
  if command -v python3 >/dev/null; then
    python3 -c "import json,sys; json.load(open(sys.argv[1]))" "$work/out/verdicts.json" || die "verdicts.json is not JSON"
  fi
  set -- "${checks[@]}"
  while (($#)); do
    case $1 in
    --min-verdicts)
      n=$(column "$work/out/verdicts.csv" violation | awk '$4 == "ok"' | wc -l)
      ((n >= $2)) || die "$n verdicts with status ok, expected at least $2"
      shift 2 ;;
    --aa)
      holm=$(column "$work/out/verdicts.csv" violation | awk '$3 == "default_aa" && $5 == 1' | wc -l)
      total=$(column "$work/out/verdicts.csv" violation | awk '$3 == "default_aa" && $4 == "ok"' | wc -l)
      "$MG_CLI" check --from "$work/out" --aa --no-holm -o "$work/noholm" -q || die "re-analysis failed"
      raw=$(column "$work/noholm/verdicts.csv" violation | awk '$3 == "default_aa" && $5 == 1' | wc -l)
      echo "run_check: A/A control: $raw of $total flagged without Holm (at most $2 allowed), $holm with Holm (at most $3)"
      ((total > 0)) || die "no A/A comparison (run with --aa)"
      ((raw <= $2)) || die "A/A: $raw of $total default-vs-default comparisons flagged without Holm, more than $2"
      ((holm <= $3)) || die "A/A: $holm flagged with Holm, more than $3"
      shift 3 ;;
    --planted)
      from=$2
      column "$work/out/verdicts.csv" violation | awk -v from="$from" '
        $1 != "bcast" || $4 != "ok" {next}
        {seen[$2] = 1; if ($5 == 1) v[$2]++}
        END {bad = 0
             for (s in seen) {
               if (s + 0 >= from && !v[s]) {print "run_check: planted: no violation at " s " bytes"; bad = 1}
               if (s + 0 < from && v[s]) {print "run_check: planted: " v[s] " violation(s) at " s " bytes, below the plant"; bad = 1}
               if (s + 0 >= from) print "run_check: planted: " v[s] " violation(s) at " s " bytes (affected)"
               else print "run_check: planted: none at " s " bytes (below the plant)"
             }
             exit bad}' || die "planted violation not found exactly where it was planted"
      shift 2 ;;
    --stdout)
      grep -Eq -- "$2" "$work/stdout" || die "stdout does not match '$2'"
      shift 2 ;;
    --monotony-rows)
      got=$(grep -vc '^#@' "$work/out/monotony.csv")
      [[ $got == $(($2 + 1)) ]] || die "monotony.csv has $((got - 1)) rows, expected $2"
      shift 2 ;;
    --monotony-violation) # ALG,BYTES,BYTES_FASTER: that monotony comparison is a violation
      IFS=, read -r alg n nf <<<"$2"
      grep -q "^[a-z_]*,[^,]*,$alg,[^,]*,$n,$nf,ok,.*,violation,[^,]*\$" "$work/out/monotony.csv" ||
        die "monotony.csv: no violation for $alg at $n bytes against $nf: $(grep ",$alg," "$work/out/monotony.csv")"
      shift 2 ;;
    --violation) # MOCKUP,BYTES: that guideline verdict is a violation
      IFS=, read -r alg n <<<"$2"
      column "$work/out/verdicts.csv" violation | awk -v a="$alg" -v n="$n" '$3 == a && $2 == n && $5 == 1 {f = 1}
        END {exit !f}' || die "verdicts.csv: $alg at $n bytes is no violation"
      shift 2 ;;
    --mockups-exactly)
      got=$(column "$work/out/verdicts.csv" violation | awk '{print $3}' | sort -u | paste -sd, -)
      [[ $got == "$2" ]] || die "verdicts for the mock-ups '$got', expected exactly '$2'"
      shift 2 ;;
    --file)
      grep -Eq -- "$3" "$work/out/$2" || die "out/$2 has no line matching '$3'"
      shift 3 ;;
    --no-line)
      ! grep -Eq -- "$3" "$work/out/$2" || die "out/$2 has a line matching '$3'"
      shift 3 ;;
    *) die "unknown check $1" ;;
    esac
  done
  ;;
fail | offline-fail)
  if [[ $mode == fail ]]; then np=$1; shift; fi
  regex=$1
  shift 2
  mapfile -t opts < <(subst "$@")
  if [[ $mode == fail ]] && ((np > 0)); then
    (cd "$work" && launch "$np" "${opts[@]}" >"$work/stdout" 2>"$work/stderr")
  else
    (cd "$work" && timeout -k 10 120 "$MG_CLI" check "${opts[@]}" >"$work/stdout" 2>"$work/stderr")
  fi
  rc=$?
  cat "$work/stdout" "$work/stderr"
  ((rc != 0)) || die "exit code 0, expected a failure"
  ((rc != 124 && rc != 137)) || die "timed out (a rank was left waiting)"
  grep -Eq -- "$regex" "$work/stderr" || die "stderr does not match '$regex'"
  left=$(find "$work" -mindepth 1 ! -name stdout ! -name stderr)
  [[ -z $left ]] || die "left behind: $left"
  ;;
keep | keep-raw)
  np=$1 regex=$2
  shift 3
  mkdir -p "$work/out"
  for f in raw.csv verdicts.csv verdicts.json summary.txt; do echo "sentinel $f" >"$work/out/$f"; done
  [[ $mode == keep-raw ]] && cp "$MG_DATA/$KEEP_RAW" "$work/out/raw.csv" # the file a --resume reads
  (cd "$work/out" && md5sum raw.csv verdicts.csv verdicts.json summary.txt) >"$work/sums"
  mapfile -t opts < <(subst "$@")
  if ((np > 0)); then
    (cd "$work" && launch "$np" "${opts[@]}" >"$work/stdout" 2>"$work/stderr")
  else
    (cd "$work" && timeout -k 10 120 "$MG_CLI" check "${opts[@]}" >"$work/stdout" 2>"$work/stderr")
  fi
  rc=$?
  cat "$work/stdout" "$work/stderr"
  ((rc != 0)) || die "exit code 0, expected a failure"
  grep -Eq -- "$regex" "$work/stderr" || die "stderr does not match '$regex'"
  (cd "$work/out" && md5sum -c --quiet "$work/sums") || die "existing results were changed"
  [[ $(ls "$work/out" | wc -l) == 4 ]] || die "files added to $work/out: $(ls "$work/out")"
  ;;
*)
  die "unknown mode $mode"
  ;;
esac
finish
