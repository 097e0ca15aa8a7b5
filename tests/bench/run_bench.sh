#!/usr/bin/env bash
# Runs `mpiguide bench` under mpiexec and checks the outcome (tests/bench/CMakeLists.txt).
#
#   run_bench.sh ok NP [check_raw checks...] -- [bench options...]
#       exit 0 expected; the raw CSV ($MG_WORKDIR/raw.csv, passed as --out) is checked with
#       check_raw; "@REPRO" in the checks or options stands for $MG_WORKDIR/repro
#   run_bench.sh fail NP REGEX -- [bench options...]
#       a non-zero exit expected on every rank, stderr matching REGEX (grep -E), and no
#       output file, complete or partial, left in $MG_WORKDIR
#   run_bench.sh mpmd NP REGEX -- [options of rank 0] -- [extra options of the other ranks]
#       ranks started with different arguments: as fail
#   run_bench.sh help NP -- [bench options...]
#       exit 0, the usage on stdout, no file written
#
# Environment: MG_MPIEXEC, MG_MPIEXEC_FLAGS, MG_CLI (mpiguide), MG_CHECK (check_raw),
# MG_WORKDIR (emptied first).
set -u
mode=$1 np=$2
shift 2
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
MODE=$mode
work=$MG_WORKDIR
rm -rf "$work"
mkdir -p "$work/repro"
read -r -a flags <<<"${MG_MPIEXEC_FLAGS:-}"
launch() { timeout -k 10 240 "$MG_MPIEXEC" -n "$np" "${flags[@]}" "$MG_CLI" bench "$@"; }
subst() { local a; for a in "$@"; do printf '%s\n' "${a//@REPRO/$work/repro}"; done; }

case $mode in
ok)
  checks=()
  while (($#)) && [[ $1 != -- ]]; do checks+=("$1"); shift; done
  shift
  mapfile -t opts < <(subst "$@")
  mapfile -t checks < <(subst "${checks[@]}")
  launch "${opts[@]}" -o "$work/raw.csv" >"$work/stdout" 2>"$work/stderr"
  rc=$?
  cat "$work/stdout" "$work/stderr"
  ((rc == 0)) || die "exit code $rc, expected 0"
  "$MG_CHECK" "$work/raw.csv" "${checks[@]}" || die "check_raw: the raw file is not as expected (above)"
  ;;
fail | help)
  if [[ $mode == fail ]]; then regex=$1; shift; fi
  shift
  (cd "$work" && launch "$@" >"$work/stdout" 2>"$work/stderr")
  rc=$?
  cat "$work/stdout" "$work/stderr"
  if [[ $mode == help ]]; then
    ((rc == 0)) || die "--help exited with $rc"
    grep -q "^usage: mpirun -np P mpiguide bench" "$work/stdout" || die "no usage text"
    n=$(grep -c "^usage:" "$work/stdout")
    ((n == 1)) || die "usage printed $n times (rank 0 only expected)"
  else
    expect_refusal "$rc" "$work/stderr" "$regex"
  fi
  expect_no_files "$work"
  ;;
mpmd)
  regex=$1
  shift 2
  a=()
  while (($#)) && [[ $1 != -- ]]; do a+=("$1"); shift; done
  shift
  (cd "$work" && timeout -k 10 240 "$MG_MPIEXEC" "${flags[@]}" -n 1 "$MG_CLI" bench "${a[@]}" : \
     -n $((np - 1)) "$MG_CLI" bench "${a[@]}" "$@" >"$work/stdout" 2>"$work/stderr")
  rc=$?
  cat "$work/stdout" "$work/stderr"
  expect_refusal "$rc" "$work/stderr" "$regex"
  expect_no_files "$work"
  ;;
*)
  echo "run_bench: unknown mode $mode" >&2
  exit 2
  ;;
esac
finish
