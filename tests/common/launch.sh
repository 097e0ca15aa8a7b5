# Shared by the test scripts that launch MPI programs (source it; bash).
#
# Needs: MG_FLAVOR (openmpi|mpich), MG_MPIEXEC, MG_MPIEXEC_FLAGS, MG_TIMEOUT, MG_SCRIPT (name
# used in the verdict line), MODE, MG_WORKDIR.
#
#   ok / fail / die / finish   tests/common/assert.sh (sourced here): record a check, the verdict
#   cmd_start; cmd_ctx NP VAR=value... -- PROGRAM ARGS... [; cmd_ctx ...]; run NAME
#                              build and run a launch; output in NAME.out / NAME.err,
#                              status in RC; a timeout is recorded as a hang
#   local_run NAME CMD...      the same for a command without mpiexec
#   expect_rc NAME RC          a check that the last run's status was RC
# Environment goes through the launcher's per-context options (-x for Open MPI, -env for
# MPICH), so LD_PRELOAD reaches the MPI processes only (not mpirun) and MPMD contexts can
# differ.

# shellcheck source=assert.sh
source "$(dirname "${BASH_SOURCE[0]}")/assert.sh"

CMD=()
NCTX=0
cmd_start() {
  local flags
  read -r -a flags <<<"$MG_MPIEXEC_FLAGS"
  CMD=("$MG_MPIEXEC" "${flags[@]}")
  NCTX=0
}
cmd_ctx() {
  local np=$1
  shift
  ((NCTX++)) && CMD+=(":")
  CMD+=(-n "$np")
  while [[ $# -gt 0 && $1 != -- ]]; do
    if [[ $MG_FLAVOR == openmpi ]]; then CMD+=(-x "$1"); else CMD+=(-env "${1%%=*}" "${1#*=}"); fi
    shift
  done
  shift
  CMD+=("$@")
}
RC=0
run() {
  local name=$1
  echo "+ ${CMD[*]}"
  timeout -k 10 "$MG_TIMEOUT" "${CMD[@]}" >"$name.out" 2>"$name.err"
  RC=$?
  sed 's/^/  | /' "$name.out" "$name.err" | head -40
  if ((RC == 124 || RC == 137)); then fail "$name: no result after ${MG_TIMEOUT} s (hang?)"; fi
}
local_run() { # NAME CMD...: as run, without mpiexec
  local name=$1
  shift
  echo "+ $*"
  timeout -k 10 "$MG_TIMEOUT" "$@" >"$name.out" 2>"$name.err"
  RC=$?
  sed 's/^/  | /' "$name.out" "$name.err" | head -40
}
expect_rc() { if ((RC == $2)); then ok "$1: exit $2"; else fail "$1: exit $RC, want $2"; fi; }
# applicable_rows CLI: "collective<TAB>algorithm" for each row libmpiguide may run (mpiguide list
# --csv, read as CSV: not the default, not measure-only, which profiles and MPIGUIDE_ALG refuse).
applicable_rows() {
  "$1" list --csv | python3 -c 'import csv, sys
for r in csv.reader(sys.stdin):
    if r[0] != "collective" and r[1] != "default" and "measure-only" not in r[5]: print(r[0], r[1], sep="\t")'
}
