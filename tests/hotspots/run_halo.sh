#!/usr/bin/env bash
# Every MPI call accounted (docs/trace.md, "Every MPI call"): examples/halo, in C or in Fortran
# (halo.c, halo.f90; Isend/Irecv/Waitall,
# an Iallreduce polled by MPI_Test, persistent requests; imbalanced on purpose) under LD_PRELOAD
# with a timed trace.
#   - the trace's time, summed over every row, is at least 95 % of the MPI time the program
#     measures itself around each of its MPI calls with PMPI_Wtime (a timer no tool intercepts),
#     and not more than it (the trace times inside those calls), in one of three runs (a rank
#     preempted outside the wrapper's timer, on a loaded machine, counts in the program's alone);
#   - every completion's time is attributed to its posts: the Waitall's rows name the two Irecv
#     and the two Isend sites of halo.c, the Test's the Iallreduce, the Wait's the four
#     persistent *_init sites; no completion row lacks its post;
#   - hotspots prints the coverage line and "MPI_Irecv posted at main halo.c:LINE" with the lines
#     of the source (marked halo:NAME there), and the note that most of the time is outside the
#     tuned operations: the program's sites, in C and in Fortran alike.
# Usage: run_halo.sh NP. Environment: MG_CLI, MG_LIB, MG_HALO, MG_HALO_SRC, MG_MPIEXEC,
# MG_MPIEXEC_FLAGS, MG_WORKDIR.
set -uo pipefail
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
np=$1
mkdir -p "$MG_WORKDIR" && cd "$MG_WORKDIR" || exit 1
# run: the program under a timed trace; own: its MPI time (each rank's line, summed); traced: the
# trace's (column 13, time_s, summed over ranks)
run() {
  rm -f t.csv
  # shellcheck disable=SC2086
  env LD_PRELOAD="$MG_LIB" MPIGUIDE_TRACE="$PWD/t.csv" MPIGUIDE_TRACE_TIME=1 \
    "$MG_MPIEXEC" -n "$np" $MG_MPIEXEC_FLAGS "$MG_HALO" 48 4096 6000 >run.out 2>&1
  cat run.out
  own=$(awk -v np="$np" '/^halo: rank [0-9]+ mpi_s / {s += $5; n++} END {if (n == np) printf "%.6f", s}' run.out)
  traced=$(awk -F, '!/^#/ && $1 != "collective" {s += $13} END {printf "%.9f", s}' t.csv 2>/dev/null)
}
within() { awk -v t="$traced" -v o="$own" 'BEGIN {exit !(o > 0 && t >= 0.95 * o && t <= o * 1.001 + 1e-4)}'; }
# A rank preempted between its own timer and the wrapper's counts in the program's time alone: on
# a loaded machine (two tests on two cores) 1 run in 5 lost 15-25 % so (the rest 97-99 %). The bound
# must hold in one of three runs; each run's figures are printed.
for try in 1 2 3; do
  run
  [[ -n $own ]] || break
  within && break
  echo "run_halo: run $try: the trace accounts for $traced s of the program's $own s; again" >&2
done
[[ -n $own ]] && ok "halo ran: its own MPI time ${own} s (sum over $np ranks)" || { fail "halo did not run"; exit 1; }
grep -q "^#@mpiguide_trace=4$" t.csv && grep -q "^#@timed=1$" t.csv && ok "format 4, timed" || fail "format 4 timed"
head -20 t.csv | grep -q ",wait_s,class,posted_by,post_object,post_offset,post_symbol$" && ok "format 4's columns" ||
  fail "format 4's columns"
within &&
  ok "the trace accounts for $traced s of the program's $own s ($(awk -v t="$traced" -v o="$own" 'BEGIN {printf "%.1f", 100 * t / o}') %, run $try)" ||
  fail "the trace accounts for $traced s of the program's $own s: not 95 % to 100 % in 3 runs"
line() { grep -n "$1" "$MG_HALO_SRC" | head -1 | cut -d: -f1; }
src=$(basename "$MG_HALO_SRC")
# every completion row names its post: the class column 17, posted_by 18
awk -F, '!/^#/ && $17 == "completion" && $18 == "" {bad = 1} END {exit bad}' t.csv &&
  ok "every completion row names the request's post" || fail "a completion row without its post"
for want in "MPI_Waitall MPI_Irecv 2" "MPI_Waitall MPI_Isend 2" "MPI_Test MPI_Iallreduce 1" "MPI_Wait MPI_Recv_init 2" \
  "MPI_Wait MPI_Send_init 2" "MPI_Request_free MPI_Send_init 2"; do
  set -- $want
  n=$(awk -F, -v c="$1" -v p="$2" '!/^#/ && $1 == c && $18 == p {n++} END {print n + 0}' t.csv)
  [[ $n == "$3" ]] && ok "$1 attributed to $3 $2 site(s)" || fail "$1: $n rows posted by $2, want $3"
done
"$MG_CLI" hotspots t.csv -p 100 -n 20 >hs.out 2>hs.err || { fail "hotspots exit $?"; cat hs.err; }
cat hs.out
grep -qE "^MPI time: [0-9.]+ s per rank = [0-9.]+ % of the wall time: operations mpiguide checks and tunes [0-9.]+ %, completions [0-9.]+ %" hs.out &&
  ok "the coverage line" || fail "no coverage line"
grep -q "^note: most of the MPI time is outside the operations mpiguide checks and tunes" hs.out &&
  ok "the note: most of the time outside the tuned operations" || fail "no note on where the time is"
w=$(line "halo:waitall")
for post in irecv-left:MPI_Irecv irecv-right:MPI_Irecv isend-left:MPI_Isend isend-right:MPI_Isend; do
  l=$(line "halo:${post%%:*}") fn=${post#*:}
  grep -E "^ +[0-9]+ +[^ ]+ $src:$w +MPI_Waitall .* $fn posted at [^ ]+ $src:$l$" hs.out >/dev/null &&
    ok "MPI_Waitall at $src:$w completes $fn posted at $src:$l" || fail "no row: Waitall $src:$w, $fn $src:$l"
done
l=$(line "halo:iallreduce") t=$(line "halo:test")
# (gfortran 12 -O0 gives the MPI_Test call inside the polling loop the line of its `do` in the line
# table, objdump --line-numbers shows it: the Test's own line is checked in C only)
[[ $src == *.f90 ]] && t='[0-9]+'
grep -E "^ +[0-9]+ +[^ ]+ $src:$t +MPI_Test .* MPI_Iallreduce posted at [^ ]+ $src:$l$" hs.out >/dev/null &&
  ok "MPI_Test at $src:$t completes MPI_Iallreduce posted at $src:$l" || fail "no row: Test $src:$t, Iallreduce $src:$l"
# predicted from the same trace (--loggp): the completions and the other calls are said not priced
# (waiting), with their time, not dropped
if [[ -n ${MG_LOGGP:-} ]]; then
  "$MG_CLI" hotspots t.csv --loggp "$MG_LOGGP" --measured t.csv >pr.out 2>pr.err || { fail "hotspots --loggp: exit $?"; cat pr.err; }
  grep -qE "^not priced \(waiting\) beyond the hot spots: [0-9.]+ s per rank in the measured trace's other MPI calls, [0-9.]+ % of its whole MPI time \(completions [0-9.]+ s" pr.out &&
    ok "--measured: the other MPI time is said not priced (waiting)" || { fail "--measured: no line on the other MPI time"; cat pr.out; }
fi
# check --sizes-from takes what it can check (the posts' sizes, in the cells of their guidelines)
# and says what it leaves out and why (the C program at 2 ranks only: one short check)
if [[ $src == *.c && $np == 2 ]]; then
  # shellcheck disable=SC2086
  "$MG_MPIEXEC" -n 2 $MG_MPIEXEC_FLAGS "$MG_CLI" check --sizes-from t.csv --collectives send,sendrecv,iallreduce --nrep 20 \
    --min-span 0 --force -o ck >ck.out 2>ck.err || { fail "check --sizes-from: exit $?"; cat ck.err; }
  grep -q "MPI_Isend sizes are checked where its guidelines are, in send's cell (TGT 2010 eqs. 5-7" ck.err &&
    ok "check --sizes-from: the posts' sizes go to the cells of their guidelines" || fail "no note on the posts"
  grep -qE "left out: [0-9.]+ % of the trace's MPI time, in MPI functions no guideline checks; completion [0-9.]+ % \(MPI_Waitall" ck.err &&
    ok "check --sizes-from: what it leaves out, the completions first" || fail "no note on what is left out"
  awk -F, '$1 == "send" && $3 == 8 {s = 1} $1 == "sendrecv" && $3 == 8 {r = 1} END {exit !(s && r)}' ck/raw.csv &&
    ok "check measured send and sendrecv at the posts' 8 bytes" || fail "send, sendrecv at 8 bytes not measured"
  # the non-blocking collective the trace called, with its family's row (nbc, added by --sizes-from)
  sz=$(awk -F, '!/^#/ && $1 == "iallreduce" && $2 > 0 {print $2; exit}' t.csv)
  awk -F, -v b="$sz" '$1 == "iallreduce" && $2 == b && $3 == "iallreduce_as_ireduce_ibcast" {f = 1} END {exit !f}' ck/verdicts.csv &&
    ok "check --sizes-from: iallreduce at the trace's $sz bytes, against Ireduce + Ibcast" ||
    { fail "no iallreduce verdict at the trace's size '$sz'"; cut -d, -f1-5 ck/verdicts.csv; }
fi
finish
