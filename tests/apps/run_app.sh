#!/usr/bin/env bash
# Applications from the Debian archive, unmodified, under libmpiguide (docs/applications.md):
# the tiny inputs of examples/apps run plain, preloaded with nothing set, with mock-ups of their
# hot operations forced, and under a profile; each run passes the application's own check
# (scripts/apps.sh verify) with the plain run's result, and the traces show that the forced and
# profiled algorithms ran.
#
#   run_app.sh MODE NP      MODE: hpcc, cp2k or fsite
#
# hpcc:  HPCC 1.5.0 (N = 200): HPL, PTRANS, RandomAccess, STREAM and FFT pass their checks in
#        every run, and the numbers that do not depend on timing (HPL's residual and norms,
#        PTRANS's residual, the RandomAccess errors, the FFT error) are the plain run's exactly:
#        the forced rows move or combine integers, take maxima or are order-free at 2 ranks.
# cp2k:  CP2K 2023.1 (one water molecule, one MD step; plain, forced, tuned: the preloaded run with
#        nothing set is hpcc's and benchmarks/app_gain.sh's): the total energies equal the plain run's
#        within CP2K_TOL (1e-8 Ha; docs/applications.md); the trace's call sites lie in the cp2k
#        executable or the libraries it calls MPI through, none in libmpiguide (its Fortran calls:
#        src/lib/fortran.c sets mg_fortran_site).
# fsite: examples/cg.f90 (cg_f) with a timed trace: every call site in cg_f, none in libmpiguide
#        (before the fix, every Fortran call was traced at fortran.c's call of the C wrapper on
#        Open MPI, and on MPICH in libmpichfort, whose bindings call the C functions), and
#        its MPI_DOUBLE_PRECISION allreduce of class float:sum (before: none:sum).
# Exit 77 (skipped) when the application is not installed and cannot be (scripts/apps.sh install
# needs root); scripts/setup.sh installs it with everything else.
#
# Configuration (environment, set by tests/apps/CMakeLists.txt):
#   MG_FLAVOR MG_MPIEXEC MG_MPIEXEC_FLAGS MG_LIB MG_WORKDIR MG_TIMEOUT (tests/common/launch.sh),
#   MG_SRC (the source tree), MG_CG_F (examples/cg.f90 built)
set -u

MODE=${1:?usage: run_app.sh hpcc|cp2k|fsite NP}
NP=${2:?NP}
: "${MG_FLAVOR:?}" "${MG_MPIEXEC:?}" "${MG_LIB:?}" "${MG_WORKDIR:?}" "${MG_SRC:?}"
MG_MPIEXEC_FLAGS=${MG_MPIEXEC_FLAGS:-}
MG_TIMEOUT=${MG_TIMEOUT:-120}
unset MPIGUIDE_ALG MPIGUIDE_TRACE MPIGUIDE_TRACE_TIME MPIGUIDE_SCRATCH_MAX MPIGUIDE_PROFILE LD_PRELOAD
export OMP_NUM_THREADS=1
MG_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$MG_WORKDIR" && mkdir -p "$MG_WORKDIR" || exit 1
cd "$MG_WORKDIR" || exit 1
MG_SCRIPT=run_app.sh
# shellcheck source=../common/launch.sh
source "$MG_HERE/../common/launch.sh"
APPS=$MG_SRC/scripts/apps.sh

need() { # PACKAGE: installed, or installed now, or skip
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed" && return 0
  "$APPS" install >install.out 2>&1 && return 0
  echo "SKIPPED: $1 is not installed and could not be ($(tail -1 install.out)); run scripts/setup.sh as root"
  exit 77
}

# app_run NAME APP INPUT VAR=value...: the application on NP ranks in ./NAME
app_run() {
  local name=$1 app=$2 input=$3
  shift 3
  cmd_start
  case $app in
  hpcc) cmd_ctx "$NP" OMP_NUM_THREADS=1 "$@" -- hpcc ;;
  cp2k) cmd_ctx "$NP" OMP_NUM_THREADS=1 "$@" -- cp2k -i "$input" ;;
  esac
  echo "+ (in $name) ${CMD[*]}"
  rm -rf "$name" && mkdir "$name"
  [[ $app == hpcc ]] && cp "$input" "$name/hpccinf.txt"
  (cd "$name" && timeout -k 10 "$MG_TIMEOUT" "${CMD[@]}" >out.txt 2>err.txt)
  RC=$?
  if ((RC == 124 || RC == 137)); then fail "$name: no result after ${MG_TIMEOUT} s (hang?)"
  elif ((RC)); then fail "$name: exit $RC"; sed 's/^/  | /' "$name/err.txt" | tail -20; fi
}
expect_check() { # APP NAME [REF]: the application's own check
  local v
  if v=$("$APPS" verify "$1" "$2" ${3:+"$3"}); then ok "$2: $v"; else fail "$2: $v"; fi
}
# hpcc_fp NAME: HPCC's results that do not depend on timing
hpcc_fp() { grep -E '^(HPL_RnormI|HPL_Anorm1|HPL_AnormI|HPL_Xnorm1|HPL_XnormI|HPL_BnormI|PTRANS_residual|MPIRandomAccess_Errors|MPIRandomAccess_LCG_Errors|MPIFFT_maxErr)=' "$1/hpccoutf.txt"; }
expect_same_hpcc() { # NAME REF
  if [[ -n $(hpcc_fp "$1") && $(hpcc_fp "$1") == "$(hpcc_fp "$2")" ]]; then ok "$1: HPL norms, PTRANS, RandomAccess, FFT error as in $2"
  else fail "$1: differs from $2: $(diff <(hpcc_fp "$2") <(hpcc_fp "$1") | grep '^[<>]' | paste -sd' ')"; fi
}
# expect_ran TRACE OP ALG RULE: some calls of OP ran ALG, chosen by RULE (MPIGUIDE_ALG, line N)
expect_ran() {
  local n
  n=$(awk -F, -v c="$2" -v a="$3" -v r="$4" '!/^#@/ && $1 == c && $3 == a && $6 == "" && $8 == r { s += $4 } END { print s + 0 }' "$1" 2>/dev/null)
  if ((n > 0)); then ok "$1: $2 ran $3 in $n call(s) ($4)"
  else fail "$1: no call of $2 ran $3 by $4: $(awk -F, -v c="$2" '$1 == c' "$1" 2>/dev/null | paste -sd' ')"; fi
}
# expect_sites TRACE OBJECT: no row's call site in libmpiguide (format 2: column 10, the object),
# and some in OBJECT (the others are in the libraries the program calls MPI through, e.g. ScaLAPACK)
expect_sites() {
  local lib bad n
  lib=$(readlink -f "$MG_LIB")
  bad=$(awk -F, -v o="$lib" '!/^#@/ && $1 != "collective" && $10 == o { print $1 " at " $10 "+" $11 }' "$1" 2>/dev/null | sort -u | head -5 | paste -sd';')
  n=$(awk -F, -v o="$2" '!/^#@/ && $10 == o' "$1" 2>/dev/null | wc -l)
  if ((n > 0)) && [[ -z $bad ]]; then ok "$1: $n rows' call sites are in $2, none in libmpiguide"
  else fail "$1: ${bad:+call sites in libmpiguide: $bad; }$n rows in $2"; fi
}

case $MODE in
hpcc)
  need hpcc
  IN=$MG_SRC/examples/apps/hpcc/hpccinf-tiny.txt
  # At 2 ranks HPCC calls (trace): alltoall 8208 B (FFT), allreduce int:max/sum, float:max/min,
  # barrier, bcast, reduce, sendrecv (b_eff's rings), send/recv (HPL's own collectives).
  SPEC=alltoall=alltoall_as_pairwise,allreduce=allreduce_as_recdbl,barrier=barrier_as_dissemination,bcast=bcast_as_binomial,sendrecv=sendrecv_as_irecv_send_wait
  app_run plain hpcc "$IN"
  expect_check hpcc plain
  app_run preload hpcc "$IN" "LD_PRELOAD=$MG_LIB"
  expect_check hpcc preload
  expect_same_hpcc preload plain
  app_run forced hpcc "$IN" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_ALG=$SPEC" "MPIGUIDE_TRACE=$PWD/forced.csv"
  expect_check hpcc forced
  expect_same_hpcc forced plain
  for s in ${SPEC//,/ }; do expect_ran forced.csv "${s%%=*}" "${s#*=}" MPIGUIDE_ALG; done
  printf 'mpiguide-profile 1\nalltoall np=%s * alltoall_as_bruck\nbcast np=%s * bcast_as_scatter_allgather\n' "$NP" "$NP" >t.prof
  app_run tuned hpcc "$IN" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE=$PWD/t.prof" "MPIGUIDE_TRACE=$PWD/tuned.csv"
  expect_check hpcc tuned
  expect_same_hpcc tuned plain
  expect_ran tuned.csv alltoall alltoall_as_bruck "line 2"
  expect_ran tuned.csv bcast bcast_as_scatter_allgather "line 3"
  ;;
cp2k)
  need cp2k
  need cp2k-data
  IN=$MG_SRC/examples/apps/cp2k/water1-tiny.inp
  EXE=$(readlink -f "$(command -v cp2k)")
  # CP2K's hot operations (trace of examples/apps/cp2k at 4 ranks): alltoallv (its FFTs),
  # allreduce of doubles, alltoall, allgather, sendrecv. allreduce_as_ring combines in another
  # order than Open MPI's default: the energies stay within the tolerance.
  SPEC=alltoallv=alltoallv_as_alltoallw,allreduce=allreduce_as_ring,alltoall=alltoall_as_pairwise,allgather=allgather_as_ring,sendrecv=sendrecv_as_isend_recv_wait
  app_run plain cp2k "$IN"
  expect_check cp2k plain
  app_run forced cp2k "$IN" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_ALG=$SPEC" "MPIGUIDE_TRACE=$PWD/forced.csv" MPIGUIDE_TRACE_TIME=1
  expect_check cp2k forced plain
  for s in ${SPEC//,/ }; do expect_ran forced.csv "${s%%=*}" "${s#*=}" MPIGUIDE_ALG; done
  expect_sites forced.csv "$EXE"
  printf 'mpiguide-profile 1\nalltoallv np=%s * alltoallv_as_alltoallw\nallgather np=%s * allgather_as_allgatherv\n' "$NP" "$NP" >t.prof
  app_run tuned cp2k "$IN" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE=$PWD/t.prof" "MPIGUIDE_TRACE=$PWD/tuned.csv"
  expect_check cp2k tuned plain
  expect_ran tuned.csv alltoallv alltoallv_as_alltoallw "line 2"
  expect_ran tuned.csv allgather allgather_as_allgatherv "line 3"
  ;;
fsite)
  : "${MG_CG_F:?}"
  [[ -x $MG_CG_F ]] || { fail "no Fortran example $MG_CG_F: install gfortran (scripts/setup.sh)"; finish; }
  cmd_start
  cmd_ctx "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_TRACE=$PWD/t.csv" MPIGUIDE_TRACE_TIME=1 -- "$MG_CG_F" 64 5000
  run fsite
  if ((RC == 0)) && grep -q '^cg: OK' fsite.out; then ok "cg_f: $(grep '^cg: OK' fsite.out)"; else fail "cg_f: exit $RC"; fi
  # libmpiguide's Fortran entry is what cg_f calls (Open MPI: in place of the library's binding;
  # MPICH: in front of it), and it notes cg_f's call as the site: every site is in cg_f
  obj=$(readlink -f "$MG_CG_F")
  expect_sites t.csv "$obj"
  other=$(awk -F, -v o="$obj" '!/^#@/ && $1 != "collective" && $10 != o { print $1 " at " $10 }' t.csv | sort -u | head -3 | paste -sd';')
  if [[ -z $other ]]; then ok "t.csv: every call site in cg_f"; else fail "t.csv: call sites outside cg_f: $other"; fi
  # its MPI_DOUBLE_PRECISION sums are of class float (as MPI_DOUBLE's): typed profile rules and
  # hotspots --check match them (column 9, reduction)
  r=$(awk -F, '!/^#@/ && $1 == "allreduce" { print $9 }' t.csv | sort -u | paste -sd' ')
  if [[ $r == "float:sum" ]]; then ok "t.csv: allreduce of MPI_DOUBLE_PRECISION is float:sum"
  else fail "t.csv: allreduce reduction '$r', not float:sum"; fi
  ;;
*)
  fail "unknown mode $MODE (hpcc, cp2k or fsite)"
  ;;
esac
finish
