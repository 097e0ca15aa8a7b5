#!/usr/bin/env bash
# Runs `mpiguide loggp` under mpiexec and checks the outcome (tests/model/CMakeLists.txt).
#
#   run_loggp.sh ok NP SIZES [loggp options...]
#       exit 0, the fit on stdout, the parameter file checked by check_loggp
#   run_loggp.sh fail NP REGEX [loggp options...]
#       a non-zero exit, stderr matching REGEX (grep -E), no parameter file left
#   run_loggp.sh help NP - [loggp options...]
#       exit 0 on every rank, the usage once on stdout, nothing measured or written
#
# Environment: MG_MPIEXEC, MG_MPIEXEC_FLAGS, MG_CLI (mpiguide), MG_CHECK (check_loggp),
# MG_WORKDIR (emptied first).
set -u
mode=$1 np=$2 arg=$3
shift 3
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
MODE=$mode
work=$MG_WORKDIR
rm -rf "$work"
mkdir -p "$work"
read -r -a flags <<<"${MG_MPIEXEC_FLAGS:-}"
launch() { timeout -k 10 240 "$MG_MPIEXEC" -n "$np" "${flags[@]}" "$MG_CLI" loggp "$@"; }

case $mode in
ok)
  launch -o "$work/loggp.txt" --sizes "$arg" "$@" >"$work/stdout" 2>"$work/stderr"
  rc=$?
  cat "$work/stdout" "$work/stderr"
  ((rc == 0)) || die "exit code $rc, expected 0"
  grep -q "^# intra-node pair: ranks 0 and 1" "$work/stdout" || die "no fit printed"
  grep -q "^# no inter-node pair" "$work/stdout" || die "the missing inter-node pair is not said"
  grep -q "^# fit: R^2" "$work/stdout" || die "no fit quality printed"
  "$MG_CHECK" "$work/loggp.txt" "$arg" "$np" || die "check_loggp: the file is not as expected (above)"
  ;;
fail)
  (cd "$work" && launch "$@" >"$work/stdout" 2>"$work/stderr")
  rc=$?
  cat "$work/stdout" "$work/stderr"
  expect_refusal "$rc" "$work/stderr" "$arg"
  expect_no_files "$work"
  ;;
help)
  (cd "$work" && launch "$@" >"$work/stdout" 2>"$work/stderr")
  rc=$?
  cat "$work/stdout" "$work/stderr"
  ((rc == 0)) || die "--help exited with $rc"
  n=$(grep -c "^usage: mpirun -np P mpiguide loggp" "$work/stdout")
  ((n == 1)) || die "usage printed $n times (rank 0 only expected)"
  expect_no_files "$work"
  ;;
esac
