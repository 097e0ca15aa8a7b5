#!/usr/bin/env bash
# A launcher for the --launches test (run_check.sh launches): counts its calls in
# $MG_FLAKY_COUNT and, on call $MG_FLAKY_AT, fails (MG_FLAKY_MODE=fail) or sends SIGINT to
# the `mpiguide check --launches` that started it and then runs normally
# (MG_FLAKY_MODE=interrupt), or runs normally and then does not exit (MG_FLAKY_MODE=hang, as
# MPICH's mpiexec whose processes hang in MPI_Finalize: 120 s at most); every other call runs "$@"
# (the real launcher and its arguments).
set -u
n=$(($(cat "$MG_FLAKY_COUNT" 2>/dev/null || echo 0) + 1))
echo "$n" >"$MG_FLAKY_COUNT"
if ((n == MG_FLAKY_AT)); then
  case $MG_FLAKY_MODE in
  fail) echo "flaky_launcher: failing call $n on purpose" >&2; exit 3 ;;
  interrupt) kill -INT "$PPID" ;;
  hang) "$@"; exec sleep 120 ;;
  esac
fi
exec "$@"
