#!/usr/bin/env bash
# Online tuning (MPIGUIDE_PROFILE=auto, docs/library.md "Online tuning") as an application sees it.
#
#   run_online.sh MODE NP [CALLS]
#
# runs online_app MODE CALLS (see its header) on NP ranks with MPIGUIDE_PROFILE=auto, a learned
# profile (MPIGUIDE_PROFILE_OUT) and a trace, then checks what the mode must show:
#   skew     every cell decided ("online" rows in the trace for each collective and size); the
#            learned profile is valid, has a rule for each, and a second run with it as
#            MPIGUIDE_PROFILE runs exactly the learned algorithm for every call its rules cover
#   churn    the long-lived communicator's cell decided; the cells of the communicators freed
#            after 7 calls never did, and the learned profile has no rule for them
#   threads  both threads' cells decided
#   phases   both sizes learned (two allreduce rules), and the small size's last calls ran its
#            choice
#   few      too few calls (under 16): nothing explored, every call ran the default, no rule
#   disagree MPIGUIDE_PROFILE=auto on rank 0 only: one warning, every call runs the default
#   badout   MPIGUIDE_PROFILE_OUT in a missing directory: one warning, the run goes on learning
#   onenode  (online_app few) on one node the hierarchical and lane rows are never tried (issue 29:
#            there they have no hierarchy to exploit, and a rank that leaves early made
#            allreduce_as_hier look 0.60x of the default when it was 1.32x slower), nor with
#            MPIGUIDE_NODE_SIZE=1 (every rank a node); with MPIGUIDE_NODE_SIZE=2 (simulated nodes
#            of two ranks; NP >= 3) they are
#   model    (online_app few) with a LogGP file (MPIGUIDE_LOGGP, tests/cost/data/loggp.txt): the
#            8-byte allreduce cell, where `mpiguide predict` prices no row below the default, is
#            decided by the model without a trial (every call rule "online model"), every call's
#            result still the library's; the learned profile counts that cell and, as never
#            tried, the rows predict prices above MPIGUIDE_MODEL_FACTOR (2) x the cheapest (issue 34)
#   nbc      (online_app nbc) non-blocking collectives posted in an order a blocking post would hang:
#            the run finishes, every call the default, no rule learned (issue 48)
#   badenv   MPIGUIDE_ONLINE_TRIALS=abc with auto: one warning, the default 8 trials; MPIGUIDE_ONLINE_TRIALS
#            and MPIGUIDE_PROFILE_OUT without auto: one warning each (ignored), nothing learned
# Environment: MG_MPIEXEC, MG_MPIEXEC_FLAGS, MG_APP (online_app), MG_CLI (mpiguide),
# MG_WORKDIR (emptied first).
set -u
mode=$1 np=$2 calls=${3:-200}
work=$MG_WORKDIR
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
read -r -a flags <<<"${MG_MPIEXEC_FLAGS:-}"
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
MODE=$mode

# The algorithm names online_app compares counters of, from the registry.
MG_ALGS=""
for c in allreduce bcast reduce allgather iallreduce ibcast; do
  MG_ALGS+="$c:$("$MG_CLI" list --csv "$c" | awk -F, 'NR > 1 {print $2}' | paste -sd, -);"
done
export MG_ALGS

# launch NAME [VAR=value...]: online_app $mode on np ranks; stdout/stderr in NAME.out/.err
launch() {
  local name=$1
  shift
  timeout -k 10 120 "$MG_MPIEXEC" -n "$np" "${flags[@]}" env MG_ALGS="$MG_ALGS" MPIGUIDE_TRACE="$work/$name.csv" \
    "$@" "$MG_APP" "$mode" "$calls" >"$name.out" 2>"$name.err"
  local rc=$?
  cat "$name.out" "$name.err"
  return $rc
}
# finished_ok NAME: online_app's verdict in NAME.out is OK
finished_ok() { grep -q "online_app: OK" "$1.out" || die "$1: online_app did not finish OK (above)"; }
# rows NAME: the trace's data rows as "collective bytes algorithm calls fallback rule"
# (the rule with _ for blanks: "online_trial"; "-" for an empty field)
rows() {
  awk -F, '!/^#/ && $1 != "collective" {r = $8; gsub(/ /, "_", r)
    print $1, $2, $3, $4, ($6 == "" ? "-" : $6), (r == "" ? "-" : r)}' "$work/$1.csv"
}
decided() { rows "$1" | awk -v c="$2" -v b="$3" '$1 == c && $2 == b && $6 == "online" {n++} END {exit !n}'; }
rules() { grep -Ev '^(#|mpiguide-profile|end-of-profile|[[:space:]]*$)' learned.prof; }

case $mode in
skew | churn | threads | phases | few)
  launch run MPIGUIDE_PROFILE=auto MPIGUIDE_PROFILE_OUT="$work/learned.prof" || die "exit status $?"
  finished_ok run
  [[ -s learned.prof ]] || die "no learned profile"
  "$MG_CLI" profile validate learned.prof || die "the learned profile is not valid"
  grep -q '^# exploration: [0-9]* trial calls' learned.prof || die "no exploration line in the learned profile"
  cat learned.prof
  ;;&
skew)
  for cell in "allreduce 8" "allreduce 4096" "bcast 1024" "reduce 16384" "allgather 256"; do
    decided run $cell || die "the cell ($cell) did not decide: no 'online' rows in the trace"
  done
  (($(rules | wc -l) == 5)) || die "want 5 rules in the learned profile, have $(rules | wc -l)"
  grep -q "^# np=$np: MPI library: " learned.prof || die "the learned profile does not record the MPI library"
  # the layout as tune writes it, ranks per node too (a profile learned on 2 x 2 warns on 3 + 1)
  grep -qx "# np=$np: layout: 1 node(s) x $np ranks per node" learned.prof ||
    die "the learned profile does not record the layout (nodes x ranks per node)"
  # The learned profile as an ordinary one: every call its rules cover runs the rule's algorithm.
  mode=skew launch again MPIGUIDE_PROFILE="$work/learned.prof" || die "the run with the learned profile failed"
  finished_ok again
  awk 'NR == FNR { if ($0 !~ /^#/ && NF > 2) { a = ""; for (i = 1; i <= NF && $i != "#"; i++) a = $i; alg[FNR] = a }
                   next }
       !/^#/ && !/^collective,/ {
         split($0, f, ","); if (f[8] ~ /^line /) { n = substr(f[8], 6) + 0; used[n] = 1
           if (f[6] == "" && f[3] != alg[n]) { print "line " n " names " alg[n] ", the call ran " f[3]; bad = 1 } }
         else { print "a call not governed by the profile: " $0; bad = 1 } }
       END { for (n in alg) if (!(n in used)) { print "rule on line " n " governed no call"; bad = 1 }; exit bad }' \
    learned.prof "$work/again.csv" || die "the run with the learned profile did not follow it"
  echo "run_online: skew: 5 cells decided alike on every rank; the learned profile, read back, governs every call"
  ;;
churn)
  decided run allreduce 32 || die "the long-lived communicator's cell did not decide"
  ! decided run allreduce 128 || die "a communicator freed after 7 calls decided"
  ! decided run bcast 512 || die "a half communicator freed after 7 calls decided"
  (($(rules | wc -l) == 1)) || die "want 1 rule (the long-lived communicator's), have $(rules | wc -l)"
  echo "run_online: churn: freed communicators start afresh and teach nothing; the long-lived one decided"
  ;;
threads)
  grep -q "online_app: SKIP" run.out && { echo "run_online: threads: no MPI_THREAD_MULTIPLE"; exit 77; }
  decided run allreduce 512 || die "thread 0's cell did not decide"
  decided run bcast 2048 || die "thread 1's cell did not decide"
  echo "run_online: threads: two threads explored at once; both cells decided alike on every rank"
  ;;
phases)
  decided run allreduce 16 || die "the small size did not decide"
  decided run allreduce 65536 || die "the large size did not decide"
  (($(rules | grep -c '^allreduce') == 2)) || die "want 2 allreduce rules"
  echo "run_online: phases: both sizes learned"
  ;;
nbc)
  # issue 48: the non-blocking collectives are not learned (a trial's barrier in a post would hang
  # the order online_app nbc posts in); the run finishes, every call the default, no rule
  launch run MPIGUIDE_PROFILE=auto MPIGUIDE_PROFILE_OUT="$work/learned.prof" || die "exit status $?"
  finished_ok run
  n=$(rows run | awk '$1 == "iallreduce" || $1 == "ibcast" {n += $4} END {print n + 0}')
  ((n == 2 * calls)) || die "want $((2 * calls)) iallreduce and ibcast calls in the trace (a row counts a call of every rank once), have $n"
  rows run | awk '($1 == "iallreduce" || $1 == "ibcast") && ($3 != "default" || $6 != "-") {exit 1}' ||
    die "a non-blocking call was not the plain default under online tuning"
  ! rules | grep -qE '^i(allreduce|bcast) ' || die "a rule for a non-blocking collective was learned"
  echo "run_online: nbc: $calls rounds posted in an order a blocking post would hang; the default, no rule"
  ;;
few)
  rows run | awk '$3 != "default" || $6 != "-" {exit 1}' || die "a call of a cell called $calls times was not the plain default"
  (($(rules | wc -l) == 0)) || die "rules learned from $calls calls"
  echo "run_online: few: $calls calls decide nothing; no rule"
  ;;
disagree)
  timeout -k 10 120 "$MG_MPIEXEC" -n 1 "${flags[@]}" env MG_ALGS="$MG_ALGS" MPIGUIDE_PROFILE=auto \
    MPIGUIDE_TRACE="$work/run.csv" "$MG_APP" few "$calls" : -n $((np - 1)) "${flags[@]}" env MG_ALGS="$MG_ALGS" \
    MPIGUIDE_TRACE="$work/run.csv" "$MG_APP" few "$calls" >run.out 2>run.err || { cat run.out run.err; die "exit status $?"; }
  cat run.out run.err
  finished_ok run
  (($(grep -c 'different MPIGUIDE_PROFILE contents' run.err) == 1)) || die "want one warning about the profiles"
  rows run | awk '$6 != "-" || $3 != "default" {exit 1}' || die "a call ran something else than the default"
  echo "run_online: disagree: one warning, the defaults ran"
  ;;
badout)
  mode=few launch run MPIGUIDE_PROFILE=auto MPIGUIDE_PROFILE_OUT=/nonexistent-dir/learned.prof || die "exit status $?"
  finished_ok run
  (($(grep -c "MPIGUIDE_PROFILE_OUT='/nonexistent-dir/learned.prof' cannot be written (No such file" run.err) == 1)) ||
    die "want one warning naming the file and the reason"
  rows run | awk '$6 == "online_trial" {n++} END {exit !n}' || die "no trials: online tuning stopped"
  echo "run_online: badout: one warning, online tuning goes on"
  ;;
onenode)
  # trials: the allreduce rows tried in the run's trace (explored: its 8-byte cell needs 16 + 2c calls)
  trials() { rows "$1" | awk '$6 == "online_trial" {print $3}' | sort -u; }
  for v in real:- single:MPIGUIDE_NODE_SIZE=1 two:MPIGUIDE_NODE_SIZE=2; do
    name=${v%%:*} var=${v#*:}
    [[ $name == two ]] && ((np < 3)) && continue # two ranks: one node or a node per rank
    env=(MPIGUIDE_PROFILE=auto)
    [[ $var == - ]] || env+=("$var")
    mode=few launch "$name" "${env[@]}" >/dev/null || die "$name: exit status $?"
    finished_ok "$name"
    tried=$(trials "$name" | paste -sd' ' -)
    echo "run_online: onenode: $name: rows tried: $tried"
    [[ $tried == *allreduce_as_recdbl* ]] || die "$name: the allreduce cell did not explore"
    if [[ $name == two ]]; then
      [[ " $tried " == *" allreduce_as_hier "* ]] || die "$name: simulated nodes of 2 ranks, yet allreduce_as_hier was not tried"
    elif [[ " $tried " == *" allreduce_as_hier "* || " $tried " == *" allreduce_as_lane "* ]]; then
      die "$name: a hierarchical or lane row was tried where the communicator has no hierarchy"
    fi
  done
  echo "run_online: onenode: no hierarchical or lane trial without a hierarchy"
  ;;
model)
  trials() { rows "$1" | awk '$6 == "online_trial" {print $3}' | sort -u; }
  lg=$(cd "$(dirname "$0")/../cost/data" && pwd)/loggp.txt
  mode=few launch plain MPIGUIDE_PROFILE=auto >/dev/null || die "plain: exit status $?"
  finished_ok plain
  mode=few launch priced MPIGUIDE_PROFILE=auto MPIGUIDE_LOGGP="$lg" MPIGUIDE_PROFILE_OUT="$work/learned.prof" \
    >/dev/null || die "priced: exit status $?"
  finished_ok priced
  plain=$(trials plain | paste -sd' ' -) priced=$(trials priced | paste -sd' ' -)
  echo "run_online: model: rows tried without the model: $plain"
  echo "run_online: model: rows tried with it:           ${priced:-none}"
  [[ $plain == *allreduce_as_recdbl* ]] || die "the allreduce cell did not explore"
  # every row priced as mpiguide predict prices it (the compositions by their parts): at 8 B and
  # np 4 none below the default (the library's cheapest schedule, allreduce_as_recdbl's): the
  # model is confident, and the cell keeps the default without a single trial
  "$MG_CLI" predict --loggp "$lg" --np "$np" --sizes 8 -c allreduce --all --csv pred.csv -q >/dev/null ||
    die "mpiguide predict failed"
  below=$(awk -F, '!/^#/ && $1 == "allreduce" {if ($4 == "default") d = $6; else a[$4] = $6}
    END {for (r in a) if (a[r] < d) print r}' pred.csv | paste -sd' ' -)
  [[ -z $below ]] || die "predict prices $below below the default: the fixture no longer makes the model confident"
  [[ -z $priced ]] || die "the model prices no row below the default, yet the cell tried: $priced"
  rows priced | awk '$1 == "allreduce" && $6 == "online_model" {n += $4} $1 == "allreduce" && $6 != "online_model" {bad++}
    END {exit !(n > 0 && !bad)}' || die "not every traced 8-byte allreduce call ran by the rule 'online model'"
  grep -q '^# model: MPIGUIDE_LOGGP: .* 1 cells decided without trials' learned.prof ||
    die "the learned profile does not count the cell the model decided"
  # the rows priced above 2x the cheapest priced one (the hierarchical ones leave first: one node)
  over=$(awk -F, '!/^#/ && $1 == "allreduce" && $5 != "hier" && $5 != "rerank" {a[$4] = $6; if (!n++ || $6 < m) m = $6}
    END {for (r in a) if (a[r] > 2 * m) print r}' pred.csv | paste -sd' ' -)
  echo "run_online: model: rows priced above 2x the cheapest: $over"
  [[ -n $over ]] || die "predict prices no row above 2x the cheapest: the fixture tests nothing"
  grep -q "^# model: MPIGUIDE_LOGGP: $(wc -w <<<"$over") candidates never tried" learned.prof ||
    die "the learned profile does not count the $(wc -w <<<"$over") rows priced above 2x the cheapest as never tried"
  echo "run_online: model: the LogGP file rules out the rows it prices above 2x the cheapest and decides the cell"
  ;;
badenv)
  mode=few launch run MPIGUIDE_PROFILE=auto MPIGUIDE_ONLINE_TRIALS=abc || die "exit status $?"
  finished_ok run
  (($(grep -c "MPIGUIDE_ONLINE_TRIALS='abc' is not a number from 3 to 32; using 8" run.err) == 1)) ||
    die "want one warning about MPIGUIDE_ONLINE_TRIALS"
  rows run | awk '$6 == "online_trial" {n++} END {exit !n}' || die "no trials: online tuning stopped"
  mode=few launch off MPIGUIDE_ONLINE_TRIALS=5 MPIGUIDE_PROFILE_OUT="$work/x.prof" || die "exit status $?"
  finished_ok off
  for v in "MPIGUIDE_ONLINE_TRIALS='5'" "MPIGUIDE_PROFILE_OUT='$work/x.prof'"; do
    (($(grep -c "mpiguide: warning: $v is ignored: it belongs to online tuning" off.err) == 1)) ||
      die "want one warning: $v is ignored"
  done
  [[ ! -e $work/x.prof ]] || die "a profile was written without online tuning"
  rows off | awk '$3 != "default" || $6 != "-" {exit 1}' || die "something else than the default ran"
  echo "run_online: badenv: a bad trial count and settings without auto are one warning each"
  ;;
*) die "unknown mode" ;;
esac
finish
