#!/usr/bin/env bash
# Pass-through cost of libmpiguide: benchmarks/overhead.c (one-element MPI_Allreduce on
# MPI_COMM_SELF, a million calls) without the library, with it preloaded and nothing set
# (pure pass-through), in force mode for another collective (MPIGUIDE_ALG=bcast=...,
# so every MPI_Allreduce takes the dispatch path), and in tuned mode (MPIGUIDE_PROFILE)
# with a 64-range profile that never fires, with a 1024-range profile over 8 collectives and
# 8 process counts that never fires either (as a model-filled profile would be), and with one
# that fires.
# Variants run interleaved, ROUNDS times (default 11); the medians are reported. Variant progress
# (the collectives' modes): MPIGUIDE_PROGRESS=thread alone, the cost of MPI_THREAD_MULTIPLE and of
# the completion calls' slow path to a program that runs no schedule (docs/library.md).
# LIB=path/to/libmpiguide.so measures another build of the library (e.g. a baseline) with this
# script's variants.
# COLL=barrier (or exscan, reduce_scatter, gatherv, scatterv, alltoallv, alltoallw) times that collective instead of MPI_Allreduce (COLL=comm_rank: MPI_Comm_rank, a generated wrapper, variant passthrough only;
# COLL=iallreduce, iallgather: posted and waited for; COLL=allgather_start: a persistent Allgather_init
# made once, then Start + Wait per call; their profiles name the non-blocking operation); the
# dispatch variant then forces a mock-up of another collective, and the tuned variants are the
# allreduce profiles (for a barrier they never fire: the lookup cost alone).
# Point-to-point (issue 18): COLL=send_recv_self or isend_irecv_self (one process, messages to
# itself on MPI_COMM_SELF: the least noisy), pingpong or pingpong_isend (2 ranks, one per core,
# through mpirun): 1-byte MPI_Send/MPI_Recv or MPI_Isend/MPI_Irecv/MPI_Wait; the figures are per
# intercepted call (overhead.c). The variants then: passthrough; tuned-coll (a profile of collectives only: the
# point-to-point wrappers' p2p_busy test, then PMPI_); tuned-p2p (a profile rule for each
# operation of the mode that names the default: every call through mg_dispatch, the profile
# lookup, then PMPI_); dispatch (force mode for bcast: every call counted through mg_dispatch);
# tuned-fire (send modes: send_as_isend_wait runs for every MPI_Send, the mock-up's own cost).
# Every variant also runs once with the allocation counter (benchmarks/malloc_count.c) preloaded:
# column "allocs", the allocations inside the timed loop of that run.
# Non-blocking and persistent (issue 48): COLL=iallreduce or iallgather (MPI_I<coll> + MPI_Wait
# per call), allgather (the blocking twin of iallgather), allreduce_init (MPI_Start + MPI_Wait of
# one persistent request): the same variants, with the profiles' rules for that operation
# (allreduce_init: iallreduce's, applied once at init); tuned-fire names the default for
# iallreduce (no one-call row) and iallgather_as_iallgatherv for iallgather (its scratch kept
# with the request until MPI_Wait).
# COLL=ineighbor_alltoall: MPI_Ineighbor_alltoall + MPI_Wait on a one-process line without periods
# (no neighbour: the path alone); variants passthrough, dispatch and tuned-fire (a '*' rule naming
# the default: the tuned path to mg_dispatch, a neighbourhood collective having no size known to
# every rank); COLL=neighbor_alltoall: its blocking twin, the same variants.
# Online tuning: COLL=allreduce_pair (2 ranks, one per core, a one-element MPI_Allreduce on
# MPI_COMM_WORLD): variants online (MPIGUIDE_PROFILE=auto; the cell decides in the warm-up) and
# relearned (the profile one online run learned, in tuned mode): the same algorithm by both paths.
# Instructions (the machine-independent figure; nanoseconds differ by a factor of three between
# machines): unless INSTR=0, each variant of a one-process collective also runs under valgrind's
# callgrind, counting only inside overhead.c's timed loop (--toggle-collect=mg_timed_loop), with
# ICALLS and 2 x ICALLS calls (default 2000); the difference over ICALLS is the instructions per
# call, exact and the same on every run (start-up and first calls cancel). Columns "instr" and
# "+instr" (minus the run without the library). Point-to-point and two-rank modes: times only.
# `scripts/bench-overhead.sh table` runs both MPIs and prints docs/library.md's table (markdown).
# Usage: [COLL=barrier] [ROUNDS=n] [LIB=...] [INSTR=0] scripts/bench-overhead.sh [openmpi|mpich|table] [calls]
set -euo pipefail
cd "$(dirname "$0")/.."
mpi=${1:-openmpi}
if [[ $mpi == table ]]; then
  # One markdown table for both MPIs: instructions added per call, and nanoseconds beside them.
  declare -A row
  for m in openmpi mpich; do
    while read -r v instr dinstr ns dns; do row[$m.$v]="$instr $dinstr $ns $dns"; done < <(MDROWS=1 "$0" "$m" "${2:-1000000}" | grep '^row ' | cut -d' ' -f2-)
    # a generated wrapper (every MPI function but the tuned ones): MPI_Comm_rank passed through
    while read -r v instr dinstr ns dns; do row[$m.$v-gen]="$instr $dinstr $ns $dns"; done < <(COLL=comm_rank MDROWS=1 "$0" "$m" "${2:-1000000}" | grep '^row ' | cut -d' ' -f2-)
  done
  declare -A what=(
    [none]="no libmpiguide: the call itself"
    [passthrough]="nothing set: a test of the operation's path byte and a tail call of \`PMPI_Allreduce\`"
    [none-gen]="\`MPI_Comm_rank\` without libmpiguide: the call itself"
    [passthrough-gen]="\`MPI_Comm_rank\`, a generated wrapper (docs/trace.md, \"Every MPI call\"), nothing set: a test of one byte and a tail call of \`PMPI_Comm_rank\`"
    [dispatch]="force mode for another collective (\`MPIGUIDE_ALG=bcast=...\`): the call counted as the default's, then \`PMPI_Allreduce\`"
    [force-fire]="\`MPIGUIDE_ALG=allreduce=allreduce_as_reduce_bcast\`: described, dispatched, the mock-up runs (its two calls included)"
    [tuned-miss]="a profile of 64 \`allreduce np=1\` ranges, none holding 8 bytes: the inline lookup, then the default"
    [tuned-large]="a profile of 1024 ranges (8 collectives × 8 process counts × 16 ranges) that misses 8 bytes between two ranges of its size class"
    [tuned-fire]="a rule for 8 bytes: \`allreduce_as_reduce_bcast\` runs (its two calls included)")
  sgn() { [[ $1 == [0-9]* ]] && echo "+$1" || echo "$1"; } # a difference, with its sign
  echo "| variant | what runs | Open MPI instructions | MPICH instructions | Open MPI ns | MPICH ns |"
  echo "|---|---|---|---|---|---|"
  for v in none passthrough dispatch tuned-miss tuned-large tuned-fire force-fire none-gen passthrough-gen; do
    read -r oi odi ons odns <<<"${row[openmpi.$v]:-? ? ? ?}"
    read -r mi mdi mns mdns <<<"${row[mpich.$v]:-? ? ? ?}"
    if [[ $v == none || $v == none-gen ]]; then
      echo "| $v | ${what[$v]} | $oi | $mi | $ons | $mns |"
    else
      echo "| $v | ${what[$v]} | $(sgn "$odi") | $(sgn "$mdi") | $(sgn "$odns") | $(sgn "$mdns") |"
    fi
  done
  exit 0
fi
calls=${2:-1000000}
coll=${COLL:-allreduce}
rounds=${ROUNDS:-11}
b=build/$mpi
[[ -x $b/overhead && -e $b/libmgmalloccount.so ]] || scripts/build.sh "$mpi"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
lib=${LIB:-$PWD/$b/libmpiguide.so}
counter=$PWD/$b/libmgmalloccount.so
p2p=0 pair=0
case $coll in
  send_recv_self | isend_irecv_self) p2p=1 ;;
  pingpong | pingpong_isend) p2p=1 pair=1 ;;
  allreduce_pair) pair=1 ;;
esac
# One core: the benchmark is one process, and moving between cores adds noise. The ping-pongs:
# two ranks, one per core, the variables passed to the ranks only (never to mpirun itself).
launch() {
  if ((pair)); then
    local args=() kv
    for kv in "$@"; do
      if [[ $mpi == openmpi ]]; then args+=(-x "$kv"); else args+=(-genv "${kv%%=*}" "${kv#*=}"); fi
    done
    if [[ $mpi == openmpi ]]; then
      /usr/bin/mpirun.openmpi -np 2 --bind-to core --map-by core "${args[@]}" "$b/overhead" "$calls" "$coll"
    else
      /usr/bin/mpiexec.mpich -n 2 -bind-to core "${args[@]}" "$b/overhead" "$calls" "$coll"
    fi
  else
    env "$@" taskset -c "${CORE:-0}" "$b/overhead" "$calls" "$coll"
  fi
}
run() { launch "$@" | awk '{print $1}'; }
# The allocations inside the timed loop, with the counter preloaded before the variant's library.
allocs() {
  local pre="" kv rest=()
  for kv in "$@"; do
    if [[ $kv == LD_PRELOAD=* ]]; then pre=${kv#LD_PRELOAD=}; else rest+=("$kv"); fi
  done
  launch LD_PRELOAD="$counter${pre:+ $pre}" "${rest[@]}" | sed -n 's/.*allocations in the timed loop: \([0-9]*\).*/\1/p'
}

# Tuned mode: a profile of 64 allreduce ranges for one process that never covers the
# benchmark's 8 bytes (every call does the lookup and runs the default), and one whose
# rule fires (every call runs allreduce_as_reduce_bcast: the mock-up's own cost counts).
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pc=allreduce palg=allreduce_as_reduce_bcast # the profiles' operation and the row their rules name
case $coll in
  iallreduce | allreduce_init) pc=iallreduce palg=default ;;
  iallgather) pc=iallgather palg=iallgather_as_iallgatherv ;;
  allgather) pc=allgather palg=allgather_as_gather_bcast ;;
esac
{
  echo "mpiguide-profile 1"
  for ((i = 1; i <= 64; i++)); do echo "$pc np=1 $((16 * i))-$((16 * i + 7)) $palg"; done
} >"$tmp/miss.prof"
printf 'mpiguide-profile 1\n%s np=1 8 %s\n' "$pc" "$palg" >"$tmp/fire.prof"
# 1024 ranges: 8 collectives x 8 process counts (1 .. 128) x 16 ranges [2^(i+1)+1, 2^(i+2)-1],
# i = 0 .. 15. The benchmark's 8 bytes fall between 5-7 and 9-15 of allreduce np=1: a miss in a
# size class that has ranges.
{
  echo "mpiguide-profile 1"
  for alg in allreduce_as_reduce_bcast bcast_as_allgatherv reduce_as_allreduce allgather_as_gather_bcast \
    alltoall_as_alltoallv scan_as_exscan_reducelocal exscan_as_scan_sendrecv \
    reduce_scatter_block_as_reduce_scatter; do
    for np in 1 2 4 8 16 32 64 128; do
      for ((i = 0; i < 16; i++)); do echo "${alg%%_as_*} np=$np $((2 ** (i + 1) + 1))-$((2 ** (i + 2) - 1)) $alg"; done
    done
  done
} >"$tmp/large.prof"

# Point-to-point: a rule naming the default for each operation of the mode (the dispatch path on
# every call), and one that runs send_as_isend_wait for every MPI_Send.
case $coll in
  send_recv_self) ops="send recv isend irecv" ;;
  pingpong) ops="send recv" ;;
  *) ops="isend irecv" ;;
esac
{
  echo "mpiguide-profile 1"
  for op in $ops; do echo "$op np=* * default"; done
} >"$tmp/p2p.prof"
printf 'mpiguide-profile 1\nsend np=* * send_as_isend_wait\n' >"$tmp/p2p-fire.prof"

declare -A res
declare -A env_of
env_of[none]=""
env_of[passthrough]=""
env_of[dispatch]="MPIGUIDE_ALG=bcast=bcast_as_allgatherv"
# MPIGUIDE_PROGRESS=thread and nothing else: MPI_THREAD_MULTIPLE (the library's locks), every
# completion call on its slow path, the thread not started (no schedule runs)
env_of[progress]="MPIGUIDE_PROGRESS=thread"
env_of[tuned-miss]="MPIGUIDE_PROFILE=$tmp/miss.prof"
env_of[tuned-large]="MPIGUIDE_PROFILE=$tmp/large.prof"
env_of[tuned-fire]="MPIGUIDE_PROFILE=$tmp/fire.prof"
env_of[force-fire]="MPIGUIDE_ALG=allreduce=allreduce_as_reduce_bcast"
env_of[tuned-coll]="MPIGUIDE_PROFILE=$tmp/miss.prof"
env_of[tuned-p2p]="MPIGUIDE_PROFILE=$tmp/p2p.prof"
if [[ $coll == allreduce_pair ]]; then
  # Online tuning: a cell that has decided (its exploration ends in the warm-up) against the same
  # choice read from the profile it wrote (tuned mode): what a call costs after learning.
  launch LD_PRELOAD="$lib" MPIGUIDE_PROFILE=auto MPIGUIDE_PROFILE_OUT="$tmp/learned.prof" >/dev/null
  echo "the learned choice: $(grep -v '^#' "$tmp/learned.prof" | grep allreduce)"
  env_of[online]="MPIGUIDE_PROFILE=auto"
  env_of[relearned]="MPIGUIDE_PROFILE=$tmp/learned.prof"
  variants=(passthrough online relearned)
elif ((p2p)); then
  variants=(passthrough tuned-coll tuned-p2p dispatch)
  [[ $ops == send* ]] && variants+=(tuned-fire) && env_of[tuned-fire]="MPIGUIDE_PROFILE=$tmp/p2p-fire.prof"
elif [[ $coll == ineighbor_alltoall || $coll == neighbor_alltoall ]]; then
  printf 'mpiguide-profile 1\n%s np=1 * default\n' "$coll" >"$tmp/fire.prof"
  variants=(passthrough dispatch tuned-fire)
elif [[ $coll == comm_rank ]]; then
  variants=(passthrough) # a generated wrapper: no profile or force mode applies to it
elif [[ $coll == iallreduce || $coll == iallgather || $coll == allgather_start ]]; then
  # The non-blocking and persistent forms (issue 48): the profiles name the non-blocking operation
  # (a persistent Allgather_init decides by iallgather's rules, once, before the timed loop); its
  # one-call row for the fire variants (iallreduce has none: its compositions are measure-only).
  op=${coll%_start}
  [[ $op == allgather ]] && op=iallgather
  row=default
  [[ $op == iallgather ]] && row=iallgather_as_iallgatherv
  {
    echo "mpiguide-profile 1"
    for ((i = 1; i <= 64; i++)); do echo "$op np=1 $((16 * i))-$((16 * i + 7)) $row"; done
  } >"$tmp/miss.prof"
  printf 'mpiguide-profile 1\n%s np=1 8 %s\n' "$op" "$row" >"$tmp/fire.prof"
  env_of[force-fire]="MPIGUIDE_ALG=$op=$row"
  variants=(passthrough progress dispatch tuned-miss)
  [[ $row != default ]] && variants+=(tuned-fire force-fire)
else
  variants=(passthrough progress dispatch tuned-miss tuned-large tuned-fire)
  [[ $coll == allreduce ]] && variants+=(force-fire)
fi
# BASE=path/to/other/libmpiguide.so: the same variants with that library too, in the same rounds
# (rows "<variant>@base"), for a before/after comparison without drift between two sessions.
libs=("$lib")
[[ -n ${BASE:-} ]] && libs+=("$BASE")
names=(none)
for v in "${variants[@]}"; do
  names+=("$v")
  [[ -n ${BASE:-} ]] && names+=("$v@base")
done
for ((r = 0; r < rounds; r++)); do
  res[none]+="$(run) "
  for l in "${libs[@]}"; do
    t=$([[ $l == "$lib" ]] || echo @base)
    for v in "${variants[@]}"; do
      # shellcheck disable=SC2086 # env_of holds one VAR=value or nothing
      res[$v$t]+="$(run LD_PRELOAD="$l" ${env_of[$v]}) "
    done
  done
done
declare -A nalloc
nalloc[none]=$(allocs)
for l in "${libs[@]}"; do
  t=$([[ $l == "$lib" ]] || echo @base)
  for v in "${variants[@]}"; do
    # shellcheck disable=SC2086
    nalloc[$v$t]=$(allocs LD_PRELOAD="$l" ${env_of[$v]})
  done
done
# Instructions per call: callgrind counts inside mg_timed_loop only, with icalls and 2 x icalls
# calls; the difference over icalls leaves the loop's first calls and everything else out.
icalls=${ICALLS:-2000}
instr_on=${INSTR:-1}
((p2p || pair)) && instr_on=0
if ((instr_on)) && ! command -v valgrind >/dev/null; then
  echo "bench-overhead: valgrind not found: no instruction counts (INSTR=0 to silence)" >&2
  instr_on=0
fi
icount() { # icount n VAR=value...: the instructions collected in mg_timed_loop for n calls
  local n=$1 out
  shift
  out=$(mktemp "$tmp/cg.XXXXXX")
  env "$@" valgrind --tool=callgrind --collect-atstart=no --toggle-collect=mg_timed_loop \
    --callgrind-out-file="$out" "$b/overhead" "$n" "$coll" >/dev/null 2>&1
  sed -n 's/^summary: *\([0-9]*\).*/\1/p; s/^totals: *\([0-9]*\).*/\1/p' "$out" | head -1
}
declare -A ninstr
if ((instr_on)); then
  for v in "${names[@]}"; do
    l=$lib
    [[ $v == *@base ]] && l=$BASE
    e=()
    [[ ${v%@base} != none ]] && e=(LD_PRELOAD="$l")
    # shellcheck disable=SC2206 # env_of holds one VAR=value or nothing
    e+=(${env_of[${v%@base}]})
    i1=$(icount "$icalls" "${e[@]}")
    i2=$(icount $((2 * icalls)) "${e[@]}")
    ninstr[$v]=$(awk -v a="$i1" -v b="$i2" -v n="$icalls" 'BEGIN{printf "%.1f", (b-a)/n}')
  done
fi
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
minimum() { tr ' ' '\n' | grep . | sort -g | head -1; }
base=$(median <<<"${res[none]}")
bmin=$(minimum <<<"${res[none]}")
what="MPI_$coll"
((p2p)) && what="$coll, ns per intercepted call"
printf "%-17s %8s %7s %9s %7s %7s %9s %7s %6s   (%s, %d calls, %d interleaved runs, %s)\n" variant \
  instr +instr "median ns" "+med" ratio "min ns" "+min" allocs "$mpi, $what" "$calls" "$rounds" \
  "$( ((pair)) && echo "2 ranks, one per core" || echo "pinned to one core")"
for v in "${names[@]}"; do
  m=$(median <<<"${res[$v]}")
  n=$(minimum <<<"${res[$v]}")
  di=$(awk -v a="${ninstr[$v]:-}" -v b="${ninstr[none]:-}" 'BEGIN{if (a == "" || b == "") print "-"; else printf "%.1f", a-b}')
  dm=$(awk -v a="$m" -v b="$base" 'BEGIN{printf "%.1f", a-b}')
  printf "%-17s %8s %7s %9.2f %7.2f %7.3f %9.2f %7.2f %6s   runs: %s\n" "$v" "${ninstr[$v]:--}" "$di" "$m" "$dm" \
    "$(awk -v a="$m" -v b="$base" 'BEGIN{print a/b}')" "$n" "$(awk -v a="$n" -v b="$bmin" 'BEGIN{print a-b}')" \
    "${nalloc[$v]:-?}" "${res[$v]}"
  [[ -n ${MDROWS:-} ]] && printf "row %s %s %s %.1f %s\n" "$v" "${ninstr[$v]:--}" "$di" "$m" "$dm"
done
echo "(instr, +instr: instructions per call counted by callgrind in the timed loop, ${icalls} and $((2 * icalls)) calls, and minus those without the library; the same on every run and every machine with these binaries)"
echo "(+med, +min: the median and the minimum minus those without the library; the machine is shared, the minimum is the least disturbed run; allocs: malloc-family calls in the timed loop of one more run with benchmarks/malloc_count.c preloaded)"
