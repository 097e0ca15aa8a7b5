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
  ((rc == 0)) || { echo "run_loggp: exit code $rc, expected 0" >&2; exit 1; }
  grep -q "^# intra-node pair: ranks 0 and 1" "$work/stdout" || { echo "run_loggp: no fit printed" >&2; exit 1; }
  grep -q "^# no inter-node pair" "$work/stdout" || { echo "run_loggp: the missing inter-node pair is not said" >&2; exit 1; }
  grep -q "^# fit: R^2" "$work/stdout" || { echo "run_loggp: no fit quality printed" >&2; exit 1; }
  "$MG_CHECK" "$work/loggp.txt" "$arg" "$np" || exit 1
  ;;
fail)
  (cd "$work" && launch "$@" >"$work/stdout" 2>"$work/stderr")
  rc=$?
  cat "$work/stdout" "$work/stderr"
  ((rc != 0)) || { echo "run_loggp: exit code 0, expected a failure" >&2; exit 1; }
  ((rc != 124 && rc != 137)) || { echo "run_loggp: timed out (a rank was left waiting)" >&2; exit 1; }
  grep -Eq -- "$arg" "$work/stderr" || { echo "run_loggp: stderr does not match '$arg'" >&2; exit 1; }
  if find "$work" -type f | grep -v '/stdout$\|/stderr$' | grep -q .; then
    echo "run_loggp: files left behind" >&2; exit 1
  fi
  ;;
help)
  (cd "$work" && launch "$@" >"$work/stdout" 2>"$work/stderr")
  rc=$?
  cat "$work/stdout" "$work/stderr"
  ((rc == 0)) || { echo "run_loggp: --help exited with $rc" >&2; exit 1; }
  n=$(grep -c "^usage: mpirun -np P mpiguide loggp" "$work/stdout")
  ((n == 1)) || { echo "run_loggp: usage printed $n times (rank 0 only expected)" >&2; exit 1; }
  if find "$work" -type f | grep -v '/stdout$\|/stderr$' | grep -q .; then
    echo "run_loggp: files left behind" >&2; exit 1
  fi
  ;;
esac
