#!/usr/bin/env bash
# Launches the unmodified MPI program plain_app (and its -lmpiguide twin) under
# libmpiguide and checks, from the exit status, the messages and the
# MPIGUIDE_TRACE file, that the library did what the environment asked for.
#
#   run_preload.sh MODE [ARGS...]
#
# Modes (NP is the number of processes):
#   preload NP            plain app alone (must ignore MPIGUIDE_*), then LD_PRELOAD with
#                         MPIGUIDE_ALG=$MG_SPEC + trace, then LD_PRELOAD with trace only
#   linked NP             the -lmpiguide build: pass-through, then MPIGUIDE_ALG=$MG_SPEC + trace
#   all_mockups NP        every mock-up of `mpiguide list --csv`, in rounds (round k forces
#                         the k-th mock-up of every collective that has one)
#   irregular_profile NP  gatherv, scatterv, alltoallv, alltoallw under profiles with '*' rules
#                         for each of their mock-ups (ranks hold very different counts): right
#                         results, the mock-ups ran; a size range for them refuses the profile
#   bad_alg VALUE LIST    MPIGUIDE_ALG=VALUE must stop the run with one message naming
#                         MPIGUIDE_ALG and listing LIST: "collectives" or "algorithms:<coll>"
#   bad_scratch VALUE     MPIGUIDE_SCRATCH_MAX=VALUE: one warning, default cap, run succeeds
#   bad_progress VALUE    MPIGUIDE_PROGRESS=VALUE (neither thread nor off): one warning naming it, no
#                         progress thread (the program keeps the thread level it asked for), run succeeds
#   bad_trace PATH [WHY]  MPIGUIDE_TRACE=PATH unwritable: one warning (giving the reason WHY,
#                         e.g. "No such file or directory"), run succeeds
#   scratch_cap           MPIGUIDE_SCRATCH_MAX=0: mock-ups that need scratch fall back
#                         (fallback scratch_cap, algorithm default), the others still run
#   large NP              MG_LARGE_APP (large_app.c, MPI-4 only): MPI_Allreduce_c, MPI_Reduce_c and
#                         MPI_Bcast_c plain, preloaded, and with rows forced: the library's results,
#                         the rows ran (trace), at the program's call sites
#   mismatch A B [REGEX]  MPMD, rank 0 with MPIGUIDE_ALG=A, rank 1 with B ("-" = unset):
#                         the run stops with one message (matching REGEX, default
#                         "different MPIGUIDE_ALG")
#   mpmd_agree A B        MPMD with two spellings of the same configuration: the run succeeds
#   site                  MG_CHILD_APP under the site shim MG_SHIM alone: libmpiguide in the ranks, not
#                         in a shell a rank starts (LD_PRELOAD given back); MPIGUIDE=off: not in the ranks
#   off                   MPIGUIDE=off with a bad MPIGUIDE_ALG and a trace: pass-through, silent, no
#                         trace; then MPMD with off on rank 0 only, and on rank 1 only (a profile
#                         store set: its pick at MPI_Init is collective): off on both
#   other_mpi LIB         LIB, a libmpiguide built for the other MPI library, preloaded into the
#                         plain app with algorithms forced and a trace: it takes itself out of
#                         LD_PRELOAD before main, so the job runs untuned to completion (exit 0,
#                         no trace) with exactly one warning line (rank 0's) naming both libraries;
#                         then LIB and the site shim libmpiguide-preload.so of this build: the shim
#                         loads this build's libmpiguide, which runs the forced mock-ups (trace);
#                         then the shim alone, told by MPIGUIDE_LIB_<MPI> to load LIB: untuned, one
#                         warning, no loop; then a copy of the shim with no libmpiguide beside it:
#                         untuned, one warning that says where it looked
#   p2p_profile NP        the point-to-point program MG_P2P_APP plain, then under profiles that send
#                         send, rsend and sendrecv to their mock-ups (a measure-only row falls back,
#                         reason measure_only): right messages and statuses, the trace says which ran
#   fortran NP APP        the Fortran program APP (tests/intercept/fortran_ops.f90 with `use mpi`
#                         or `use mpi_f08`): plain; under LD_PRELOAD without settings (nothing
#                         traced, same results); then rounds that force the k-th mock-up of
#                         every operation (k = 1..3, measure-only rows left out) and a profile
#                         of '*' rules, each with a trace: the program's own checks pass, its
#                         per-call checksums equal the plain run's, and the trace shows that the
#                         mock-ups ran (or fell back with a reason, never silently); the
#                         profile's run is timed: every operation's calls traced at APP's sites
#   mixed NP              MG_MIXED_APP (mixed_app.c): allgather, reduce and reduce_scatter_block on
#                         datatypes of basic types of different sizes above 8 KiB (struct{int,
#                         double,char}, MPI_DOUBLE_INT with MPI_MINLOC) beside controls of one
#                         size, plain and with the rows that call MPI_Gather or MPI_Scatter forced:
#                         right results; on MPICH those calls fall back (mixed_sizes) and the
#                         controls run the rows; elsewhere every call runs them
#
# Configuration (environment, set by tests/intercept/CMakeLists.txt):
#   MG_FLAVOR=openmpi|mpich  MG_MPIEXEC  MG_MPIEXEC_FLAGS (words)  MG_LIB (libmpiguide.so)
#   MG_APP (plain_app)  MG_APP_LINKED  MG_CLI (mpiguide command)  MG_WORKDIR (scratch dir)
#   MG_SPEC (forced algorithms for preload/linked)  MG_TIMEOUT (seconds per launch, 120)
#   MG_REPS, MG_COUNTS (plain_app arguments; default 3 and "1 37 2500")
set -u

MODE=${1:?usage: run_preload.sh MODE [ARGS...]}
shift
: "${MG_FLAVOR:?}" "${MG_MPIEXEC:?}" "${MG_LIB:?}" "${MG_APP:?}" "${MG_WORKDIR:?}"
MG_MPIEXEC_FLAGS=${MG_MPIEXEC_FLAGS:-}
# Mock-ups that need little scratch (2*p ints or none).
SMALL_SPEC=allreduce=allreduce_as_reduce_bcast,bcast=bcast_as_allgatherv,gather=gather_as_gatherv
SMALL_SPEC+=,scatter=scatter_as_scatterv
MG_SPEC=${MG_SPEC:-$SMALL_SPEC}
MG_TIMEOUT=${MG_TIMEOUT:-120}
REPS=${MG_REPS:-3}
read -r -a COUNTS <<<"${MG_COUNTS:-1 37 2500}"
COLLS=(allgather allgatherv allreduce alltoall alltoallv alltoallw barrier bcast exscan gather gatherv reduce
  reduce_scatter reduce_scatter_block scan scatter scatterv)
# Their message size differs between ranks (registry.h): traced at each rank's own size.
UNKNOWN_SIZE=" alltoallv alltoallw gatherv scatterv "

# Nothing from the caller's environment may steer the library.
unset MPIGUIDE_ALG MPIGUIDE_TRACE MPIGUIDE_SCRATCH_MAX MPIGUIDE_PROFILE LD_PRELOAD
MG_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$MG_WORKDIR" && mkdir -p "$MG_WORKDIR" || exit 1
cd "$MG_WORKDIR" || exit 1

MG_SCRIPT=run_preload.sh
# ok/fail/finish, cmd_start/cmd_ctx/run
# shellcheck source=../common/launch.sh
source "$MG_HERE/../common/launch.sh"
# The whole run in one go: plain app on NP ranks with the given VAR=value settings.
run_app() { # run_app NAME APP NP VAR=value...
  local name=$1 app=$2 np=$3
  shift 3
  cmd_start
  cmd_ctx "$np" "$@" -- "$app" "$REPS" "${COUNTS[@]}"
  run "$name"
}

expect_success() { # NAME [APP]: exit 0 and the app's OK line
  if ((RC == 0)) && grep -q "^${2:-plain_app}: OK" "$1.out"; then ok "$1: exit 0, results correct"
  else fail "$1: expected success, got exit $RC"; fi
}
expect_stopped() { # NAME: non-zero exit, not a timeout, the app did not report success
  if ((RC != 0 && RC != 124 && RC != 137)) && ! grep -q '^plain_app: OK' "$1.out"; then
    ok "$1: stopped (exit $RC)"
  else fail "$1: expected the run to stop with a non-zero status, got exit $RC"; fi
}
# Exactly one line of stdout+stderr matches the extended regex.
expect_once() { # NAME REGEX WHAT
  local n
  n=$(cat "$1.out" "$1.err" | grep -cE -- "$2")
  if ((n == 1)); then ok "$1: $3 (once)"; else fail "$1: expected $3 once, found $n times (regex: $2)"; fi
}
expect_none() { # NAME REGEX WHAT
  if cat "$1.out" "$1.err" | grep -qE -- "$2"; then fail "$1: unexpected $3 (regex: $2)"
  else ok "$1: no $3"; fi
}

# ---- the trace ----
# rows FILE: "collective bytes algorithm calls ranks fallback" per data row ("-": no fallback).
# A timed trace (MPIGUIDE_TRACE_TIME=1) has more columns after these, and a row per call site.
rows() {
  awk -F, '/^#@/ { next }
    !hdr { hdr = 1; if ($0 != "collective,bytes,algorithm,calls,ranks,fallback,nprocs,rule" &&
                        index($0, "collective,bytes,algorithm,calls,ranks,fallback,nprocs,rule,reduction,object,") != 1)
             print "BAD-HEADER " $0
           next }
    { print $1, $2, $3, $4, $5, ($6 == "" ? "-" : $6) }' "$1"
}
# The trace says: every call of COLL at every count ran ALG on all NP ranks, REPS calls each,
# with fallback reason WHY ("-" for none), and nothing else happened for COLL.
expect_coll() { # TRACE NP COLL ALG WHY
  local tr=$1 np=$2 coll=$3 alg=$4 why=$5 c missing=0 n
  if [[ $coll == barrier ]]; then # no message: one row at 0 bytes with every call
    if rows "$tr" | grep -qxF "barrier 0 $alg $((REPS * ${#COUNTS[@]})) $np $why"; then
      ok "$tr: barrier ran $alg${why/#-/} on $np ranks, $((REPS * ${#COUNTS[@]})) calls"
    else
      fail "$tr: no row 'barrier,0,$alg,$((REPS * ${#COUNTS[@]})),$np,${why#-}'; rows for barrier:" \
        "$(rows "$tr" | grep "^barrier " | tr '\n' ';')"
    fi
    return
  fi
  # Sizes differ per rank: every row ALG; calls is the maximum over the ranks of a row, so the
  # rows' calls x ranks bound the rank-calls made from above.
  if [[ $UNKNOWN_SIZE == *" $coll "* ]]; then
    local want=$((REPS * ${#COUNTS[@]} * np)) got other
    got=$(rows "$tr" | awk -v c="$coll" -v a="$alg" -v w="$why" '$1 == c && $3 == a && $6 == w { n += $4 * $5 } END { print n + 0 }')
    other=$(rows "$tr" | awk -v c="$coll" -v a="$alg" -v w="$why" '$1 == c && ($3 != a || $6 != w)' | tr '\n' ';')
    if [[ -n $other ]]; then fail "$tr: $coll rows with another algorithm or fallback than $alg${why/#-/}: $other"
    elif ((got < want)); then fail "$tr: $coll ran $alg in at most $got rank-calls, want $want: $(rows "$tr" | grep "^$coll " | tr '\n' ';')"
    else ok "$tr: $coll ran $alg${why/#-/} in every call"; fi
    return
  fi
  for c in "${COUNTS[@]}"; do
    if ! rows "$tr" | grep -qxF "$coll $((4 * c)) $alg $REPS $np $why"; then
      missing=1
      fail "$tr: no row '$coll,$((4 * c)),$alg,$REPS,$np,${why#-}'; rows for $coll:" \
        "$(rows "$tr" | grep "^$coll " | tr '\n' ';')"
    fi
  done
  n=$(rows "$tr" | grep -c "^$coll ")
  if ((n != ${#COUNTS[@]})); then
    fail "$tr: $n rows for $coll, want ${#COUNTS[@]}: $(rows "$tr" | grep "^$coll " | tr '\n' ';')"
  elif ((!missing)); then
    ok "$tr: $coll ran $alg${why/#-/} on $np ranks, $REPS calls per size"
  fi
}
expect_trace_meta() { # TRACE KEY VALUE
  if grep -qxF "#@$2=$3" "$1"; then ok "$1: #@$2=$3"; else fail "$1: no line '#@$2=$3'"; fi
}
# The algorithm SPEC forces for COLL, or "default".
spec_alg() { # SPEC COLL
  local item a=default
  IFS=, read -r -a _items <<<"$1"
  for item in "${_items[@]}"; do [[ ${item%%=*} == "$2" ]] && a=${item#*=}; done
  echo "$a"
}
# Checks a trace written under SPEC at NP ranks: forced collectives ran their mock-up,
# the others ran default.
expect_spec() { # TRACE NP SPEC
  local tr=$1 np=$2 spec=$3 coll
  if [[ ! -s $tr ]]; then fail "no trace file $tr"; return; fi
  if rows "$tr" | grep -q '^BAD-HEADER'; then fail "$tr: bad CSV header: $(rows "$tr" | grep BAD-HEADER)"; fi
  expect_trace_meta "$tr" mpiguide_trace 4
  expect_trace_meta "$tr" nprocs "$np"
  expect_trace_meta "$tr" MPIGUIDE_ALG "$spec"
  for coll in "${COLLS[@]}"; do expect_coll "$tr" "$np" "$coll" "$(spec_alg "$spec" "$coll")" -; done
  [[ -e $tr.tmp ]] && fail "$tr.tmp left behind"
}

needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

case $MODE in
p2p_profile)
  NP=${1:?NP}
  : "${MG_P2P_APP:?}"
  run_app plain "$MG_P2P_APP" "$NP"
  expect_success plain p2p_app
  for round in 1 2; do
    if ((round == 1)); then set -- send=send_as_isend_wait rsend=rsend_as_send sendrecv=sendrecv_as_irecv_send_wait
    else set -- send=default rsend=default sendrecv=sendrecv_as_isend_recv_wait; fi
    prof="mpiguide-profile 1"
    for item in "$@"; do prof+=$'\n'"${item%%=*} np=* 0-* ${item#*=}"; done
    printf '%s\n' "$prof" >"p2p$round.prof"
    run_app "p2p$round" "$MG_P2P_APP" "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE=$PWD/p2p$round.prof" \
      "MPIGUIDE_TRACE=$PWD/p2p$round.csv"
    expect_success "p2p$round" p2p_app
    for item in "$@"; do expect_coll "p2p$round.csv" "$NP" "${item%%=*}" "${item#*=}" -; done
    for coll in ssend isend sendrecv_replace; do expect_coll "p2p$round.csv" "$NP" "$coll" default -; done
    for coll in recv irecv; do REPS=$((2 * REPS)) expect_coll "p2p$round.csv" "$NP" "$coll" default -; done # 2 per rep
  done
  # A measure-only row (the receiver would have to split alike): forced, every call falls back;
  # in a profile, the profile is refused (whole, with the line) and every call runs the default.
  run_app split "$MG_P2P_APP" "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_ALG=send=send_as_split2" \
    "MPIGUIDE_TRACE=$PWD/split.csv"
  expect_success split p2p_app
  expect_coll split.csv "$NP" send default measure_only
  printf 'mpiguide-profile 1\nsend np=* 0-* send_as_split2\n' >split.prof
  run_app split_prof "$MG_P2P_APP" "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE=$PWD/split.prof" \
    "MPIGUIDE_TRACE=$PWD/split_prof.csv"
  expect_success split_prof p2p_app
  expect_once split_prof "split.prof:2: .*measure-only" "the profile's line named as measure-only"
  expect_coll split_prof.csv "$NP" send default -
  ;;
other_mpi)
  LIB=${1:?LIB}
  if [[ ! -e $LIB ]]; then
    fail "$LIB does not exist: build the other MPI library's libmpiguide too (scripts/build.sh builds both)"
    finish
  fi
  rm -f other.csv
  run_app other "$MG_APP" 2 "LD_PRELOAD=$LIB" "MPIGUIDE_TRACE=$PWD/other.csv" "MPIGUIDE_ALG=$MG_SPEC"
  expect_success other
  # libmpiguide took itself out of LD_PRELOAD before main (src/lib/loadcheck.c): untuned, no trace
  if [[ ! -e other.csv ]]; then ok "other: the job ran untuned (no trace)"
  else fail "other: a trace was written: the wrong libmpiguide stayed in the processes"; fi
  expect_once other '^mpiguide: warning: LD_PRELOAD has .*libmpiguide.*, the libmpiguide built for (MPICH|Open MPI), but the program runs (Open MPI|MPICH): it is taken out of LD_PRELOAD and this job runs untuned\. Preload the one built for' \
    "the mismatch said from rank 0"
  expect_none other 'mpiguide: (this|cannot)|Segmentation|Invalid communicator|signal 11|source tree' "other message or crash"
  # with the site shim beside it in LD_PRELOAD, the shim then loads this build's libmpiguide
  shim=$(dirname "$MG_LIB")/libmpiguide-preload.so
  run_app other_shim "$MG_APP" 2 "LD_PRELOAD=$LIB $shim" "MPIGUIDE_TRACE=$PWD/other_shim.csv" "MPIGUIDE_ALG=$MG_SPEC"
  expect_success other_shim
  expect_once other_shim '^mpiguide: warning: LD_PRELOAD has .*: it is taken out of LD_PRELOAD; libmpiguide-preload.so, also in LD_PRELOAD, loads the right one' \
    "the mismatch said from rank 0"
  if grep -q "^#@mpi_library=$( [[ $MG_FLAVOR == openmpi ]] && echo "Open MPI" || echo MPICH)" other_shim.csv 2>/dev/null &&
    [[ -n $(rows other_shim.csv | awk '$3 != "default"') ]]; then ok "other_shim: the shim loaded this MPI's libmpiguide, which ran the forced mock-ups (trace)"
  else fail "other_shim: no trace of this MPI's libmpiguide running the forced mock-ups"; fi
  # the shim where no libmpiguide is: untuned, one warning (rank 0's) that says where it looked
  mkdir -p lonely && cp "$shim" lonely/ && rm -f lonely.csv
  run_app lonely "$MG_APP" 2 "LD_PRELOAD=$PWD/lonely/libmpiguide-preload.so" "MPIGUIDE_TRACE=$PWD/lonely.csv"
  expect_success lonely
  expect_once lonely "^mpiguide: warning: no libmpiguide for (Open MPI|MPICH): this job runs untuned \(MPIGUIDE_LIB_${MG_FLAVOR^^} is not set, and there is none at $PWD/lonely/$MG_FLAVOR/lib/libmpiguide.so.0" \
    "the missing library said from rank 0"
  if [[ ! -e lonely.csv ]]; then ok "lonely: the job ran untuned (no trace)"; else fail "lonely: a trace was written"; fi
  # the shim itself told to load LIB for this MPI (MPIGUIDE_LIB_<MPI>): untuned, one warning, no loop
  rm -f other_var.csv
  run_app other_var "$MG_APP" 2 "LD_PRELOAD=$shim" "MPIGUIDE_LIB_${MG_FLAVOR^^}=$LIB" \
    "MPIGUIDE_TRACE=$PWD/other_var.csv" "MPIGUIDE_ALG=$MG_SPEC"
  expect_success other_var
  expect_once other_var '^mpiguide: warning: LD_PRELOAD has .*: it is taken out of LD_PRELOAD and this job runs untuned' \
    "the mismatch said from rank 0"
  expect_none other_var 'mpiguide: (this|cannot)|loads the right one' "other message"
  if [[ ! -e other_var.csv ]]; then ok "other_var: the job ran untuned (no trace)"
  else fail "other_var: a trace was written"; fi
  ;;
fortran_nbc)
  # issue 48: fortran_nbc.f90's MPI_NEIGHBOR_ALLGATHER, MPI_INEIGHBOR_ALLGATHER, MPI_IALLREDUCE,
  # the persistent allreduce (MPIX_ALLREDUCE_INIT on Open MPI) and the alltoallw forms
  # (MPI_IALLTOALLW, MPI_(I)NEIGHBOR_ALLTOALLW) reach libmpiguide from Fortran: the
  # results right with a row forced, the forced row in the trace at every count, every call at the
  # program's own sites (Open MPI's bindings call PMPI_ themselves: fortran.c catches them)
  NP=${1:?NP} APP=${2:?APP}
  cmd_start
  cmd_ctx "$NP" -- "$APP"
  run nbc_plain
  expect_success nbc_plain fortran_nbc
  cmd_start
  cmd_ctx "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_TRACE=$PWD/fnbc.csv" MPIGUIDE_TRACE_TIME=1 \
    "MPIGUIDE_ALG=ineighbor_allgather=ineighbor_allgather_as_ineighborallgatherv,ineighbor_alltoallw=ineighbor_alltoallw_as_ialltoallw" -- "$APP"
  run nbc_forced
  expect_success nbc_forced fortran_nbc
  # the alltoallw forms through fortran.c's conversions (their datatype arrays kept until completion)
  for op in neighbor_alltoallw ineighbor_alltoallw; do
    k=$(rows fnbc.csv | awk -v o=$op '$1 == o {n += $4} END {print n + 0}')
    if ((k == 3)); then ok "fnbc.csv: 3 $op calls"; else fail "fnbc.csv: $k $op calls, want 3"; fi
  done
  k=$(rows fnbc.csv | awk '$1 == "ialltoallw" {n += $4} END {print n + 0}')
  if ((k == 6)); then ok "fnbc.csv: 6 ialltoallw calls (MPI_IALLTOALLW and the persistent init, 3 counts)"
  else fail "fnbc.csv: $k ialltoallw calls, want 6"; fi
  n=$(rows fnbc.csv | awk '$1 == "ineighbor_alltoallw" && $3 == "ineighbor_alltoallw_as_ialltoallw" && $6 == "-"' | wc -l)
  if ((n == 3)); then ok "fnbc.csv: MPI_INEIGHBOR_ALLTOALLW ran the forced row at the 3 counts"
  else fail "fnbc.csv: the forced alltoallw row at $n of 3 counts: $(rows fnbc.csv | grep alltoallw | tr '\n' ';')"; fi
  n=$(rows fnbc.csv | awk '$1 == "ineighbor_allgather" && $3 == "ineighbor_allgather_as_ineighborallgatherv" && $6 == "-"' | wc -l)
  if ((n == 3)); then ok "fnbc.csv: MPI_INEIGHBOR_ALLGATHER ran the forced row at the 3 counts"
  else fail "fnbc.csv: the forced row at $n of 3 counts: $(rows fnbc.csv | grep neighbor | tr '\n' ';')"; fi
  calls=$(rows fnbc.csv | awk '$1 == "iallreduce" {n += $4} END {print n + 0}')
  if ((calls == 6)); then ok "fnbc.csv: 6 iallreduce calls (MPI_IALLREDUCE and the persistent init, 3 counts)"
  else fail "fnbc.csv: $calls iallreduce calls, want 6: $(rows fnbc.csv | grep iallreduce | tr '\n' ';')"; fi
  nb=$(rows fnbc.csv | awk '$1 == "neighbor_allgather" {n += $4} END {print n + 0}')
  if ((nb == 3)); then ok "fnbc.csv: 3 MPI_NEIGHBOR_ALLGATHER calls"; else fail "fnbc.csv: $nb neighbor_allgather calls, want 3"; fi
  other=$(awk -F, -v o="$(readlink -f "$APP")" '!/^#@/ && $1 != "collective" && $1 !~ /^MPI_/ && $10 != o { print $1 " at " $10 }' fnbc.csv | sort -u)
  if [[ -z $other ]]; then ok "fnbc.csv: every tuned call traced at fortran_nbc's sites"
  else fail "fnbc.csv: sites outside fortran_nbc: $(head -3 <<<"$other" | paste -sd';')"; fi
  ;;
fortran)
  NP=${1:?NP} APP=${2:?APP}
  : "${MG_CLI:?}"
  # The program's lines "r<rank> <op> <count> <repetition> <checksum>", sorted: what a run received.
  # (each rank writes them to NAME.r<rank>: MG_FORTRAN_OUT, fortran_ops.f90)
  sums() { cat "$1".r[0-9]* 2>/dev/null | grep '^r[0-9]' | sort; }
  fortran_run() { # NAME VAR=value...
    local name=$1
    shift
    rm -f "$name".r[0-9]*
    cmd_start
    cmd_ctx "$NP" "MG_FORTRAN_OUT=$PWD/$name" "$@" -- "$APP" "$REPS" "${COUNTS[@]}"
    run "$name"
    expect_success "$name" fortran_ops
    if [[ -n $(sums "$name") ]] && cmp -s <(sums plain) <(sums "$name"); then
      ok "$name: every received buffer equals the plain run's ($(sums "$name" | wc -l) calls)"
    else fail "$name: results differ from the plain run: $(diff <(sums plain) <(sums "$name") | head -4 | tr '\n' ';')"; fi
  }
  # Every row of OP in TRACE ran ALG, or fell back to the default with a reason; at least one ran
  # ALG unless every call fell back. ALG=default: every row default without a reason.
  expect_ran() { # TRACE OP ALG
    local tr=$1 op=$2 alg=$3 all ran silent
    all=$(rows "$tr" | awk -v c="$op" '$1 == c' | wc -l)
    ran=$(rows "$tr" | awk -v c="$op" -v a="$alg" '$1 == c && $3 == a && $6 == "-"' | wc -l)
    silent=$(rows "$tr" | awk -v c="$op" -v a="$alg" '$1 == c && $3 != a && $6 == "-"' | tr '\n' ';')
    if ((all == 0)); then fail "$tr: no row for $op"
    elif [[ -n $silent ]]; then fail "$tr: $op rows that ran neither $alg nor fell back with a reason: $silent"
    elif ((ran > 0)); then ok "$tr: $op ran $alg ($ran of $all rows)"
    else ok "$tr: $op fell back from $alg in every call: $(rows "$tr" | awk -v c="$op" '$1 == c { print $6 }' | sort -u | tr '\n' ' ')"; fi
  }
  ops=("${COLLS[@]}" send ssend rsend isend recv irecv sendrecv sendrecv_replace)
  rm -f plain.r[0-9]*
  cmd_start
  cmd_ctx "$NP" "MG_FORTRAN_OUT=$PWD/plain" "MPIGUIDE_ALG=allreduce=nope" "MPIGUIDE_TRACE=$PWD/alone.csv" -- "$APP" "$REPS" "${COUNTS[@]}"
  run plain
  expect_success plain fortran_ops
  [[ -e alone.csv ]] && fail "plain: a trace was written without libmpiguide"
  fortran_run passthrough "LD_PRELOAD=$MG_LIB"
  expect_none passthrough 'mpiguide:' "mpiguide message"
  # algs[op] = its mock-ups that can replace the default, in registry order.
  declare -A algs
  while IFS=, read -r op alg _ _ _ restr _; do
    [[ $op == collective || $alg == default || $restr == *measure-only* ]] && continue
    algs[$op]+="$alg "
  done < <("$MG_CLI" list --csv)
  # (This test found MPICH 4.0.2's MPI_Pack refusing MPI_BOTTOM: the packing bcast rows failed on the
  # root alone and the others hung; mg_pack/mg_unpack now shift the datatype instead, toolkit.c.)
  skip=" "
  for round in 1 2 3; do
    spec=""
    for op in "${ops[@]}"; do
      read -r -a list <<<"${algs[$op]:-}"
      ((${#list[@]} >= round)) || continue
      if [[ $skip == *" ${list[round - 1]} "* ]]; then echo "round $round: ${list[round - 1]} left out (known bug)"
      else spec+="${spec:+,}$op=${list[round - 1]}"; fi
    done
    echo "round $round: $spec"
    fortran_run "round$round" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_ALG=$spec" "MPIGUIDE_TRACE=$PWD/round$round.csv"
    expect_trace_meta "round$round.csv" nprocs "$NP"
    for op in "${ops[@]}"; do expect_ran "round$round.csv" "$op" "$(spec_alg "$spec" "$op")"; done
    n=$(rows "round$round.csv" | awk '$3 != "default" && $6 == "-"' | cut -d' ' -f1 | sort -u | wc -l)
    if ((n >= 10)); then ok "round$round: the mock-ups of $n operations ran"
    else fail "round$round: the mock-ups of only $n operations ran"; fi
  done
  # Tuned mode: '*' rules for a few operations (the wrappers' fast path settles the others). The
  # allreduce and scan rules are typed: the program's MPI_INTEGER sums are of class fint (the MPI
  # standard's Fortran integer group), so a type=fint rule governs them (issue 33: before, they had
  # no class, and no typed rule ever applied to a Fortran integer reduction)
  printf '%s\n' "mpiguide-profile 2" "allreduce np=* 0-* type=fint op=sum allreduce_as_reduce_bcast" \
    "bcast np=* 0-* bcast_as_allgatherv" "scan np=* 0-* type=fint ${algs[scan]%% *}" \
    "sendrecv np=* 0-* sendrecv_as_irecv_send_wait" "send np=* 0-* send_as_isend_wait" >tuned.prof
  fortran_run tuned "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE=$PWD/tuned.prof" "MPIGUIDE_TRACE=$PWD/tuned.csv" MPIGUIDE_TRACE_TIME=1
  expect_none tuned 'mpiguide:' "mpiguide message"
  for op in allreduce bcast scan sendrecv send; do
    expect_ran tuned.csv "$op" "$(sed -n "s/^$op np=\* 0-\* .* //p; s/^$op np=\* 0-\* //p" tuned.prof | tail -1)"
  done
  expect_ran tuned.csv alltoall default
  # every allreduce call traced, REPS per count: with mpi_f08 on an MPI-4 library (MPICH) the even
  # repetitions call the large-count binding (fortran_ops.f90, MG_LARGE), which reaches
  # libmpiguide only through its MPI_Allreduce_c (src/lib/large.c)
  for c in "${COUNTS[@]}"; do
    n=$(awk -F, -v b=$((4 * c)) '!/^#@/ && $1 == "allreduce" && $2 == b { s += $4 } END { print s + 0 }' tuned.csv)
    if ((n == REPS)); then ok "tuned.csv: allreduce of $c integers: all $REPS calls traced"
    else fail "tuned.csv: allreduce of $c integers: $n of $REPS calls traced"; fi
  done
  # the timed trace's reduction column (9): the class of MPI_INTEGER
  r=$(awk -F, '!/^#@/ && ($1 == "allreduce" || $1 == "scan") { print $9 }' tuned.csv | sort -u | paste -sd' ')
  if [[ $r == "fint:sum" ]]; then ok "tuned.csv: allreduce and scan of MPI_INTEGER are fint:sum"
  else fail "tuned.csv: allreduce and scan reductions '$r', not fint:sum"; fi
  # The timed trace's call sites (column object) are the program's own calls, of all operations:
  # not the library's Fortran binding that calls the C function (MPICH's mpi_<op>_ and mpi_f08's
  # mpi_<op>_f08ts_, Open MPI's mpi_<op>_f08_: the sites of every such call were one, in
  # libmpichfort or libmpi_usempif08, before src/lib/fortran.c defined those names too).
  obj=$(readlink -f "$APP")
  # (column 17, class: the operations libmpiguide tunes; the trace has every other call too, format 4)
  n=$(awk -F, -v o="$obj" '!/^#@/ && $1 != "collective" && $10 == o && $17 == "tuned" { print $1 }' tuned.csv | sort -u | wc -l)
  other=$(awk -F, -v o="$obj" '!/^#@/ && $1 != "collective" && $10 != o { print $1 " at " $10 }' tuned.csv | sort -u)
  if [[ -z $other ]] && ((n == ${#ops[@]})); then ok "tuned.csv: the calls of all $n operations traced at the program's sites"
  else fail "tuned.csv: $n of ${#ops[@]} operations at the program's sites; elsewhere: $(head -4 <<<"$other" | paste -sd';')"; fi
  ;;
preload)
  NP=${1:?NP}
  if needed "$MG_APP" | grep -q mpiguide; then
    fail "$MG_APP is linked with libmpiguide: $(needed "$MG_APP" | tr '\n' ' ')"
  else ok "$(basename "$MG_APP") does not depend on libmpiguide"; fi
  # Without the library the variables must do nothing (proves the app is really plain).
  run_app alone "$MG_APP" "$NP" "MPIGUIDE_ALG=$MG_SPEC" "MPIGUIDE_TRACE=$PWD/alone.csv"
  expect_success alone
  if [[ -e alone.csv ]]; then fail "alone: a trace was written without libmpiguide"
  else ok "alone: no trace"; fi
  run_app forced "$MG_APP" "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_ALG=$MG_SPEC" "MPIGUIDE_TRACE=$PWD/forced.csv"
  expect_success forced
  expect_none forced 'mpiguide:' "mpiguide message"
  expect_spec forced.csv "$NP" "$MG_SPEC"
  run_app traced "$MG_APP" "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_TRACE=$PWD/traced.csv"
  expect_success traced
  expect_spec traced.csv "$NP" ""
  ;;
linked)
  NP=${1:?NP}
  : "${MG_APP_LINKED:?}"
  # libmpiguide must come before the MPI library, or the MPI library's symbols win.
  guide=$(needed "$MG_APP_LINKED" | grep -n 'libmpiguide' | head -1 | cut -d: -f1)
  mpi=$(needed "$MG_APP_LINKED" | grep -nE '^libmpi(ch)?[._]' | head -1 | cut -d: -f1)
  if [[ -n $guide && -n $mpi ]] && ((guide < mpi)); then ok "libmpiguide is NEEDED before the MPI library"
  else fail "libmpiguide must be NEEDED before the MPI library: $(needed "$MG_APP_LINKED" | tr '\n' ' ')"; fi
  run_app passthrough "$MG_APP_LINKED" "$NP"
  expect_success passthrough
  expect_none passthrough 'mpiguide:' "mpiguide message"
  run_app forced "$MG_APP_LINKED" "$NP" "MPIGUIDE_ALG=$MG_SPEC" "MPIGUIDE_TRACE=$PWD/forced.csv"
  expect_success forced
  expect_spec forced.csv "$NP" "$MG_SPEC"
  ;;
all_mockups)
  NP=${1:?NP}
  : "${MG_CLI:?}"
  # algs[coll] = its mock-ups in registry order, from `mpiguide list --csv`, but the measure-only
  # ones (restriction measure-only: libmpiguide never runs them; p2ptest and reranktest cover them).
  declare -A algs
  while IFS=, read -r coll alg _; do
    [[ $coll == collective || $alg == default ]] && continue
    algs[$coll]+="$alg "
  done < <("$MG_CLI" list --csv | grep -v '[, ]measure-only[ ,]')
  ((${#algs[@]} >= ${#COLLS[@]} - 1)) || # alltoallw has none
    fail "mpiguide list --csv: mock-ups for ${#algs[@]} collectives, want at least $((${#COLLS[@]} - 1))"
  for round in 1 2 3 4 5 6 7; do
    spec=""
    for coll in "${COLLS[@]}"; do
      read -r -a list <<<"${algs[$coll]:-}"
      ((${#list[@]} >= round)) && spec+="${spec:+,}$coll=${list[round - 1]}"
    done
    [[ -z $spec ]] && break
    echo "round $round: $spec"
    run_app "round$round" "$MG_APP" "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_ALG=$spec" \
      "MPIGUIDE_TRACE=$PWD/round$round.csv"
    expect_success "round$round"
    expect_spec "round$round.csv" "$NP" "$spec"
  done
  ;;
irregular_profile)
  NP=${1:?NP}
  : "${MG_CLI:?}"
  # The collectives whose size not every rank knows, under profiles: round k sends each to its
  # k-th mock-up by a '*' rule, next to size-ranged rules of another collective; plain_app's ranks
  # hold very different counts. Then a size range for gatherv: the profile is refused, defaults run.
  declare -A algs
  while IFS=$'\t' read -r coll alg; do
    [[ $UNKNOWN_SIZE == *" $coll "* ]] && algs[$coll]+="$alg "
  done < <(applicable_rows "$MG_CLI")
  for round in 1 2 3 4; do
    prof="mpiguide-profile 1"$'\n'"allreduce np=* 0-100 allreduce_as_reduce_bcast"$'\n'"allreduce np=* 101-* default"
    expect_algs=()
    for coll in ${UNKNOWN_SIZE}; do
      read -r -a list <<<"${algs[$coll]:-}"
      a=default
      ((${#list[@]} >= round)) && a=${list[round - 1]}
      prof+=$'\n'"$coll np=* * $a"
      expect_algs+=("$coll=$a")
    done
    ((round > 1)) && [[ $prof != *_as_* ]] && break
    printf '%s\n' "$prof" >"prof$round.prof"
    echo "round $round: ${expect_algs[*]}"
    run_app "prof$round" "$MG_APP" "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE=$PWD/prof$round.prof" \
      "MPIGUIDE_TRACE=$PWD/prof$round.csv"
    expect_success "prof$round"
    expect_none "prof$round" 'mpiguide:' "mpiguide message"
    for item in "${expect_algs[@]}"; do expect_coll "prof$round.csv" "$NP" "${item%%=*}" "${item#*=}" -; done
  done
  printf 'mpiguide-profile 1\ngatherv np=* 1K-64K gatherv_as_alltoallv\n' >ranged.prof
  run_app ranged "$MG_APP" "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE=$PWD/ranged.prof" \
    "MPIGUIDE_TRACE=$PWD/ranged.csv"
  expect_success ranged
  if grep -q "ranged.prof:2: '1K-64K': gatherv's message size is not known on every rank" ranged.err; then
    ok "ranged: the size range for gatherv is refused with its line"
  else fail "ranged: no message refusing gatherv's size range: $(head -c 400 ranged.err)"; fi
  expect_coll ranged.csv "$NP" gatherv default -
  ;;
bad_alg)
  VALUE=${1?VALUE} LIST=${2:?LIST}
  run_app bad "$MG_APP" 2 "LD_PRELOAD=$MG_LIB" "MPIGUIDE_ALG=$VALUE"
  expect_stopped bad
  quoted=$(printf '%s' "$VALUE" | sed 's/[][\.*^$+?(){}|]/\\&/g')
  expect_once bad "mpiguide: MPIGUIDE_ALG='$quoted'" "error naming MPIGUIDE_ALG and quoting the value"
  # The message lists every valid name, so the user can fix the setting from it.
  if [[ $LIST == collectives ]]; then names=("${COLLS[@]}"); re="valid collectives:"
  else
    coll=${LIST#algorithms:}
    names=(default)
    while IFS=, read -r c a _; do
      [[ $c == "$coll" && $a != default ]] && names+=("$a")
    done < <("${MG_CLI:?}" list --csv)
    re="valid for $coll:"
  fi
  for nm in "${names[@]}"; do re+=".* $nm"; done
  expect_once bad "$re" "list of valid names (${names[*]})"
  expect_once bad 'stopping the run' "'stopping the run'"
  ;;
bad_scratch)
  VALUE=${1?VALUE}
  run_app warned "$MG_APP" 2 "LD_PRELOAD=$MG_LIB" "MPIGUIDE_SCRATCH_MAX=$VALUE" "MPIGUIDE_ALG=$MG_SPEC" \
    "MPIGUIDE_TRACE=$PWD/warned.csv"
  expect_success warned
  expect_once warned "mpiguide: warning: MPIGUIDE_SCRATCH_MAX=" "warning naming MPIGUIDE_SCRATCH_MAX"
  expect_trace_meta warned.csv scratch_max $((64 << 20))
  expect_spec warned.csv 2 "$MG_SPEC"
  ;;
bad_progress)
  VALUE=${1?VALUE}
  run_app warned "$MG_APP" 2 "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROGRESS=$VALUE" "MPIGUIDE_ALG=$MG_SPEC" \
    "MPIGUIDE_TRACE=$PWD/warned.csv"
  expect_success warned
  expect_once warned "mpiguide: warning: MPIGUIDE_PROGRESS='$VALUE' is neither 'thread' nor 'off'" \
    "warning naming MPIGUIDE_PROGRESS"
  expect_spec warned.csv 2 "$MG_SPEC"
  ;;
bad_trace)
  TRACE=${1:?PATH} REASON=${2:-}
  run_app untraced "$MG_APP" 2 "LD_PRELOAD=$MG_LIB" "MPIGUIDE_ALG=$MG_SPEC" "MPIGUIDE_TRACE=$TRACE"
  expect_success untraced
  expect_once untraced "mpiguide: warning: MPIGUIDE_TRACE='$TRACE'" "warning naming MPIGUIDE_TRACE"
  [[ -n $REASON ]] && expect_once untraced "MPIGUIDE_TRACE='$TRACE'.*$REASON" "the reason '$REASON'"
  expect_none untraced 'Segmentation|signal|core dumped|Aborted' "crash"
  ;;
scratch_cap)
  # Cap 0: every mock-up with a scratch formula falls back; allreduce_as_reduce_bcast needs none.
  spec=$SMALL_SPEC
  run_app capped "$MG_APP" 2 "LD_PRELOAD=$MG_LIB" "MPIGUIDE_SCRATCH_MAX=0" "MPIGUIDE_ALG=$spec" \
    "MPIGUIDE_TRACE=$PWD/capped.csv"
  expect_success capped
  expect_none capped 'mpiguide:' "mpiguide message"
  expect_trace_meta capped.csv scratch_max 0
  expect_coll capped.csv 2 allreduce allreduce_as_reduce_bcast -
  for coll in bcast gather scatter; do expect_coll capped.csv 2 "$coll" default scratch_cap; done
  for coll in allgather alltoall reduce reduce_scatter_block scan; do
    expect_coll capped.csv 2 "$coll" default -
  done
  # A cap well above 2*p ints lets the same mock-ups run.
  run_app roomy "$MG_APP" 2 "LD_PRELOAD=$MG_LIB" "MPIGUIDE_SCRATCH_MAX=4K" "MPIGUIDE_ALG=$spec" \
    "MPIGUIDE_TRACE=$PWD/roomy.csv"
  expect_success roomy
  expect_trace_meta roomy.csv scratch_max 4096
  expect_spec roomy.csv 2 "$spec"
  ;;
mixed)
  np=${1:?NP}
  : "${MG_MIXED_APP:?}"
  cmd_start
  cmd_ctx "$np" -- "$MG_MIXED_APP"
  run mixed_plain
  expect_success mixed_plain mixed_app
  spec=allgather=allgather_as_gather_bcast,reduce=reduce_as_reducescatterblock_gather
  spec+=,reduce_scatter_block=reduce_scatter_block_as_reduce_scatter
  cmd_start
  cmd_ctx "$np" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_ALG=$spec" "MPIGUIDE_TRACE=$PWD/mixed.csv" -- "$MG_MIXED_APP"
  run mixed_forced
  expect_success mixed_forced mixed_app
  # the trace's rows: collective bytes algorithm calls ranks fallback; bytes as the trace counts
  # them (mixed_app.c: allgather 1000 elements a block, reduce 4000, reduce_scatter_block 1000)
  [[ $MG_FLAVOR == mpich ]] && mixed="default 1 $np mixed_sizes" || mixed=""
  for want in "allgather 4000 allgather_as_gather_bcast 1 $np -" \
    "allgather 13000 ${mixed:-allgather_as_gather_bcast 1 $np -}" \
    "reduce 32000 reduce_as_reducescatterblock_gather 1 $np -" \
    "reduce 48000 ${mixed:-reduce_as_reducescatterblock_gather 1 $np -}" \
    "reduce_scatter_block 8000 reduce_scatter_block_as_reduce_scatter 1 $np -" \
    "reduce_scatter_block 12000 ${mixed:-reduce_scatter_block_as_reduce_scatter 1 $np -}"; do
    if rows mixed.csv | grep -qxF "$want"; then ok "mixed.csv: $want"
    else fail "mixed.csv: no row '$want'; rows: $(rows mixed.csv | tr '\n' ';')"; fi
  done
  ;;
large)
  # MPI-4's large-count bindings (large_app.c: MPI_Allreduce_c, MPI_Reduce_c, MPI_Bcast_c with
  # counts 1, 37 and 2500, each result compared with the library's PMPI_ call): with rows forced,
  # the results are the library's and the trace shows every call ran its row at the int path's
  # size, at the program's call site; preloaded with nothing set, the same results and no trace
  np=${1:?NP}
  : "${MG_LARGE_APP:?}"
  cmd_start
  cmd_ctx "$np" -- "$MG_LARGE_APP" "${COUNTS[@]}"
  run large_plain
  if grep -q "^large_app: SKIPPED" large_plain.out; then fail "large_app was built against an MPI without them: $(cat large_plain.out)"; finish; fi
  expect_success large_plain large_app
  cmd_start
  cmd_ctx "$np" "LD_PRELOAD=$MG_LIB" -- "$MG_LARGE_APP" "${COUNTS[@]}"
  run large_passthrough
  expect_success large_passthrough large_app
  # gather, scatter and allgather forced to rows in which every rank takes part (an allgather, a
  # bcast, a gather + bcast): a rank that took another path because of a count the MPI ignores on
  # it (large_app sets those past INT_MAX) hangs the call or mixes the results
  spec=allreduce=allreduce_as_reduce_bcast,reduce=reduce_as_allreduce,bcast=bcast_as_allgatherv
  spec+=,gather=gather_as_allgather,scatter=scatter_as_bcast,allgather=allgather_as_gather_bcast
  spec+=,iallgather=iallgather_as_iallgatherv
  cmd_start
  cmd_ctx "$np" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_ALG=$spec" "MPIGUIDE_TRACE=$PWD/large.csv" MPIGUIDE_TRACE_TIME=1 \
    -- "$MG_LARGE_APP" "${COUNTS[@]}"
  run large_forced
  expect_success large_forced large_app
  for c in "${COUNTS[@]}"; do
    b=$((4 * c))
    for want in "allreduce $b allreduce_as_reduce_bcast 1 $np -" "reduce $b reduce_as_allreduce 1 $np -" \
      "bcast $b bcast_as_allgatherv 1 $np -"; do
      if rows large.csv | grep -qxF "$want"; then ok "large.csv: $want"
      else fail "large.csv: no row '$want'; rows: $(rows large.csv | tr '\n' ';')"; fi
    done
  done
  # the non-blocking and persistent forms: MPI_Iallgather_c forced, MPI_Iallreduce_c (sum) and
  # MPI_Allreduce_init_c (max) the default of iallreduce, a row each per count, at the int size
  for c in "${COUNTS[@]}"; do
    want="iallreduce $((4 * c)) default 1 $np -"
    if (($(rows large.csv | grep -cxF "$want") == 2)); then ok "large.csv: $want, twice (sum, max)"
    else fail "large.csv: not two rows '$want'; rows: $(rows large.csv | tr '\n' ';')"; fi
  done
  for want in gather_as_allgather scatter_as_bcast allgather_as_gather_bcast iallgather_as_iallgatherv; do
    n=$(rows large.csv | awk -v a="$want" '$3 == a' | wc -l)
    if ((n == ${#COUNTS[@]})); then ok "large.csv: $want ran at all ${#COUNTS[@]} counts"
    else fail "large.csv: $want at $n of ${#COUNTS[@]} counts; rows: $(rows large.csv | tr '\n' ';')"; fi
  done
  # the sites (column 10, the object): large_app's own calls, none in libmpiguide
  other=$(awk -F, -v o="$(readlink -f "$MG_LARGE_APP")" '!/^#@/ && $1 != "collective" && $10 != o { print $1 " at " $10 }' large.csv | sort -u)
  if [[ -z $other ]]; then ok "large.csv: every call traced at large_app's sites"
  else fail "large.csv: sites outside large_app: $(head -3 <<<"$other" | paste -sd';')"; fi
  ;;
site)
  : "${MG_SHIM:?}" "${MG_CHILD_APP:?}"
  run_app site "$MG_CHILD_APP" 2 "LD_PRELOAD=$MG_SHIM"
  if ((RC == 0)) && grep -qx "self=1" site.out; then ok "site: the shim loaded libmpiguide into the ranks"
  else fail "site: status $RC, $(tr '\n' ' ' <site.out) $(tail -2 site.err)"; fi
  if grep -qx "child_preload=$MG_SHIM" site.out && grep -qx "child=0" site.out; then
    ok "site: a rank's child inherits LD_PRELOAD=the shim alone, and has no libmpiguide"
  else fail "site: the rank's child: $(grep child site.out | tr '\n' ' ')"; fi
  expect_none site '^mpiguide:' "mpiguide message"
  run_app site_off "$MG_CHILD_APP" 2 "LD_PRELOAD=$MG_SHIM" MPIGUIDE=off
  if ((RC == 0)) && grep -qx "self=0" site_off.out; then ok "site_off: MPIGUIDE=off: no libmpiguide in the ranks"
  else fail "site_off: status $RC, $(tr '\n' ' ' <site_off.out)"; fi
  ;;
off)
  # MPIGUIDE=off: pure pass-through, nothing else read (a bad MPIGUIDE_ALG too), no trace, silent
  rm -f off_all.csv off_r0.csv off_r1.csv
  run_app off_all "$MG_APP" 2 "LD_PRELOAD=$MG_LIB" MPIGUIDE=Off MPIGUIDE_ALG=nope "MPIGUIDE_TRACE=$PWD/off_all.csv"
  expect_success off_all
  expect_none off_all 'mpiguide' "mpiguide message"
  if [[ ! -e off_all.csv ]]; then ok "off_all: no trace"; else fail "off_all: a trace was written"; fi
  # off on one rank only (MPMD): off on both, agreed at MPI_Init (no deadlock, no trace); with a
  # profile store, whose pick at MPI_Init is collective (rank 0 broadcasts): the off rank takes part
  mkdir -p off_store
  for r in 0 1; do
    on=("LD_PRELOAD=$MG_LIB" "MPIGUIDE_ALG=$MG_SPEC" "MPIGUIDE_TRACE=$PWD/off_r$r.csv" "MPIGUIDE_PROFILE_STORE=$PWD/off_store")
    cmd_start
    if ((r == 0)); then cmd_ctx 1 "${on[@]}" MPIGUIDE=no -- "$MG_APP" "$REPS" "${COUNTS[@]}"
      cmd_ctx 1 "${on[@]}" -- "$MG_APP" "$REPS" "${COUNTS[@]}"
    else cmd_ctx 1 "${on[@]}" -- "$MG_APP" "$REPS" "${COUNTS[@]}"
      cmd_ctx 1 "${on[@]}" MPIGUIDE=FALSE -- "$MG_APP" "$REPS" "${COUNTS[@]}"; fi
    run "off_r$r"
    expect_success "off_r$r"
    expect_none "off_r$r" 'mpiguide' "mpiguide message"
    if [[ ! -e off_r$r.csv ]]; then ok "off_r$r: off on rank $r alone: pass-through on both, no trace"
    else fail "off_r$r: off on rank $r alone, yet a trace was written"; fi
  done
  ;;
mismatch | mpmd_agree)
  A=${1:?A} B=${2:?B}
  envA=("LD_PRELOAD=$MG_LIB") envB=("LD_PRELOAD=$MG_LIB")
  [[ $A != - ]] && envA+=("MPIGUIDE_ALG=$A")
  [[ $B != - ]] && envB+=("MPIGUIDE_ALG=$B")
  cmd_start
  cmd_ctx 1 "${envA[@]}" -- "$MG_APP" "$REPS" "${COUNTS[@]}"
  cmd_ctx 1 "${envB[@]}" -- "$MG_APP" "$REPS" "${COUNTS[@]}"
  run mpmd
  if [[ $MODE == mismatch ]]; then
    expect_stopped mpmd
    expect_once mpmd "${3:-different MPIGUIDE_ALG}" "message '${3:-different MPIGUIDE_ALG}'"
    expect_once mpmd 'stopping the run' "'stopping the run'"
  else
    expect_success mpmd
    expect_none mpmd 'mpiguide:' "mpiguide message"
  fi
  ;;
*)
  echo "run_preload.sh: unknown mode '$MODE'" >&2
  exit 2
  ;;
esac
finish
