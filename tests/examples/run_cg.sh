#!/usr/bin/env bash
# The conjugate-gradient example (examples/cg.c, examples/cg.f90) plain and under libmpiguide with
# allreduce and sendrecv forced to mock-ups: the same answer (status OK, iteration count, residual
# as printed) in every run.
#
#   run_cg.sh MODE NP N      MODE: c, fortran or loop; NP ranks; an N x N grid
#
# c:       plain run, then LD_PRELOAD + MPIGUIDE_ALG + MPIGUIDE_TRACE: the same answer, and the
#          trace shows that every allreduce (8 bytes, 2 per iteration + 1) and every sendrecv
#          (one row of N doubles, 2 per iteration) ran the forced mock-up.
# fortran: plain run, then the same forced run: the same answer, the same answer as the C
#          program's plain run (the same arithmetic in the same order), and the trace's checks of
#          the C program (Fortran calls reach libmpiguide on both libraries: src/lib/fortran.c).
# loop:    the README's loop on the C program, small: trace, `check --sizes-from TRACE --launches 2`
#          (every launch measured exactly the trace's collectives), `tune`, cg with the profile:
#          the same answer as the plain run.
#
# Configuration (environment, set by tests/examples/CMakeLists.txt):
#   MG_FLAVOR MG_MPIEXEC MG_MPIEXEC_FLAGS MG_LIB MG_WORKDIR MG_TIMEOUT (tests/common/launch.sh)
#   MG_CG_C (examples/cg.c built), MG_CG_F (examples/cg.f90 built, absent without gfortran),
#   MG_CLI (the mpiguide command; loop)
set -u

MODE=${1:?usage: run_cg.sh c|fortran NP N}
NP=${2:?NP}
N=${3:?N}
: "${MG_FLAVOR:?}" "${MG_MPIEXEC:?}" "${MG_LIB:?}" "${MG_WORKDIR:?}" "${MG_CG_C:?}" "${MG_CG_F:?}"
MG_MPIEXEC_FLAGS=${MG_MPIEXEC_FLAGS:-}
MG_TIMEOUT=${MG_TIMEOUT:-120}
SPEC=allreduce=allreduce_as_reduce_bcast,sendrecv=sendrecv_as_irecv_send_wait
MAXIT=5000

unset MPIGUIDE_ALG MPIGUIDE_TRACE MPIGUIDE_SCRATCH_MAX MPIGUIDE_PROFILE LD_PRELOAD
MG_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$MG_WORKDIR" && mkdir -p "$MG_WORKDIR" || exit 1
cd "$MG_WORKDIR" || exit 1
MG_SCRIPT=run_cg.sh
# shellcheck source=../common/launch.sh
source "$MG_HERE/../common/launch.sh"

run_cg() { # NAME APP VAR=value...: a launch of APP on NP ranks
  local name=$1 app=$2
  shift 2
  cmd_start
  cmd_ctx "$NP" "$@" -- "$app" "$N" "$MAXIT"
  run "$name"
}
# answer NAME: "OK <N>x<N> grid, <NP> ranks, <it> iterations, residual <r>" from the cg line
answer() { sed -n 's/^cg: \(.* residual [^,]*\),.*/\1/p' "$1.out"; }
expect_ok() { # NAME
  if ((RC == 0)) && [[ $(answer "$1") == "OK ${N}x${N} grid, $NP ranks, "* ]]; then ok "$1: $(answer "$1")"
  else fail "$1: expected exit 0 and 'cg: OK ${N}x${N} grid, $NP ranks, ...', got exit $RC"; fi
}
expect_same() { # NAME REF
  if [[ -n $(answer "$1") && $(answer "$1") == "$(answer "$2")" ]]; then ok "$1: the same answer as $2"
  else fail "$1: answer '$(answer "$1")' differs from $2's '$(answer "$2")'"; fi
}
# rows TRACE COLL: "bytes algorithm calls ranks fallback rule" for COLL at NP ranks
rows() { awk -F, -v c="$2" -v np="$NP" '!/^#@/ && $1 == c && $7 == np { print $2, $3, $4, $5, ($6 == "" ? "-" : $6), $8 }' "$1"; }
expect_forced() { # TRACE COLL BYTES ALG CALLS: one row, every call of COLL ran ALG on every rank
  local got want="$3 $4 $5 $NP - MPIGUIDE_ALG"
  got=$(rows "$1" "$2" | tr '\n' ';')
  if [[ $got == "$want;" ]]; then ok "$1: every $2 ($3 bytes, $5 calls) ran $4"
  else fail "$1: $2: expected the one row '$want', got '$got'"; fi
}

case $MODE in
c)
  run_cg plain "$MG_CG_C"
  expect_ok plain
  run_cg forced "$MG_CG_C" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_ALG=$SPEC" "MPIGUIDE_TRACE=$PWD/forced.csv"
  expect_ok forced
  expect_same forced plain
  it=$(answer forced | sed -n 's/.* \([0-9]*\) iterations.*/\1/p')
  if [[ -f forced.csv && -n $it ]]; then
    expect_forced forced.csv allreduce 8 allreduce_as_reduce_bcast $((2 * it + 1))
    expect_forced forced.csv sendrecv $((8 * N)) sendrecv_as_irecv_send_wait $((2 * it))
  else
    fail "forced: no trace forced.csv or no iteration count"
  fi
  ;;
fortran)
  if [[ ! -x $MG_CG_F ]]; then
    fail "no Fortran example $MG_CG_F: install gfortran (scripts/setup.sh) and build again"
    finish
  fi
  run_cg plain_c "$MG_CG_C"
  expect_ok plain_c
  run_cg plain "$MG_CG_F"
  expect_ok plain
  expect_same plain plain_c
  run_cg forced "$MG_CG_F" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_ALG=$SPEC" "MPIGUIDE_TRACE=$PWD/forced.csv"
  expect_ok forced
  expect_same forced plain
  it=$(answer forced | sed -n 's/.* \([0-9]*\) iterations.*/\1/p')
  if [[ -f forced.csv && -n $it ]]; then
    expect_forced forced.csv allreduce 8 allreduce_as_reduce_bcast $((2 * it + 1))
    expect_forced forced.csv sendrecv $((8 * N)) sendrecv_as_irecv_send_wait $((2 * it))
  else
    fail "forced: no trace forced.csv or no iteration count"
  fi
  ;;
loop)
  : "${MG_CLI:?}"
  run_cg plain "$MG_CG_C"
  expect_ok plain
  run_cg trace "$MG_CG_C" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_TRACE=$PWD/trace.csv"
  expect_ok trace
  read -r -a flags <<<"$MG_MPIEXEC_FLAGS"
  timeout -k 10 $((4 * MG_TIMEOUT)) "$MG_CLI" check --sizes-from "$PWD/trace.csv" --launches 2 --min-span 0 --nrep 20 --warmup 1 \
    -q -o check -- "$MG_MPIEXEC" "${flags[@]}" -n "$NP" >check.out 2>check.err
  RC=$?
  sed 's/^/  | /' check.out check.err | head -20
  if ((RC == 0)); then ok "check --sizes-from --launches 2: exit 0"; else fail "check --sizes-from --launches 2: exit $RC"; fi
  # The operations of the trace: its collectives and the halo's sendrecv (--sizes-from takes the
  # point-to-point operations that have a guideline too).
  want=$(awk -F, '!/^#@/ && NR > 1 && $1 != "collective" { print $1 }' trace.csv | sort -u | paste -sd,)
  for k in 1 2; do
    got=$(sed -n 's/^#@collectives=//p' "check/launch-$k/raw.csv" 2>/dev/null | tr , '\n' | sort -u | paste -sd,)
    if [[ -n $want && $got == "$want" ]]; then ok "launch $k measured the trace's collectives ($got)"
    else fail "launch $k measured '$got', not the trace's collectives '$want'"; fi
  done
  # --allow-noise: a loaded node may make this short check noise-dominated (tuned.noise tests the refusal)
  if "$MG_CLI" tune check -o cg.prof -q --allow-noise >tune.out 2>&1; then ok "tune: cg.prof written"
  else fail "tune failed: $(cat tune.out)"; fi
  run_cg tuned "$MG_CG_C" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE=$PWD/cg.prof"
  expect_ok tuned
  expect_same tuned plain
  ;;
*)
  fail "unknown mode $MODE (c, fortran or loop)"
  ;;
esac
finish
