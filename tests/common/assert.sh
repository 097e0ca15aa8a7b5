# shellcheck shell=bash
# How every script under tests/ reports its checks (source it; bash). One format everywhere:
#
#   ok MSG      a check that held: "ok: MSG"
#   fail MSG    a check that failed: "FAIL: MSG", counted in FAILS; the script goes on, so one run
#               shows every failed check, and finish exits 1
#   die MSG     a failure after which nothing more can be checked: "FAIL: SCRIPT MODE: MSG" on
#               stderr, exit 1 at once
#   finish      the verdict and the exit status: "SCRIPT MODE: N check(s) failed (files in DIR)" and
#               exit 1, or "SCRIPT MODE: all checks passed" and exit 0
#
# SCRIPT is MG_SCRIPT (default: the script's file name without .sh), MODE the case's mode (may be
# empty), DIR MG_WORKDIR. A script that is done at its last command ends with finish; one whose
# checks all die may end without it. tests/common/launch.sh sources this file.

FAILS=0
MG_SCRIPT=${MG_SCRIPT:-$(basename "$0" .sh)}
mg_where() { echo "$MG_SCRIPT${MODE:+ $MODE}"; }
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; FAILS=$((FAILS + 1)); }
die() { echo "FAIL: $(mg_where): $*" >&2; exit 1; }
finish() {
  if ((FAILS)); then echo "$(mg_where): $FAILS check(s) failed${MG_WORKDIR:+ (files in $MG_WORKDIR)}"; exit 1; fi
  echo "$(mg_where): all checks passed"; exit 0
}

# expect_refusal RC STDERR REGEX: a run that had to fail did so cleanly: exit status RC non-zero and
# not a timeout's (124, 137: a rank left waiting), and the file STDERR matches REGEX (grep -E).
expect_refusal() {
  (($1 != 0)) || die "exit code 0, expected a failure"
  (($1 != 124 && $1 != 137)) || die "timed out (a rank was left waiting)"
  grep -Eq -- "$3" "$2" || die "stderr does not match '$3'"
}
# expect_no_files DIR: DIR holds no file but the run's stdout and stderr (a refused run, a --help,
# writes nothing).
expect_no_files() {
  local left
  left=$(find "$1" -type f | grep -v '/stdout$\|/stderr$')
  [[ -z $left ]] || die "files left behind: $(tr '\n' ' ' <<<"$left")"
}
