#!/usr/bin/env bash
# A check's --noise travels with its files (#@noise_sec in raw.csv): data/noise_given is the
# `noisy` fixture (synchronisation cost 1 ms, differences of microseconds) as a check with
# --noise 100ns writes it. Its later analyses must judge at 100 ns, as the check did: check --from
# finds bcast 1024 B's allgatherv a violation and tune writes its rule; an analysis given its own
# --noise uses that one. (Before, they judged at the measured 1 ms: inconclusive, no rule.)
# Usage: noise_given.sh MPIGUIDE DATA_DIR
set -u
mg=$1 data=$2
source "$(dirname "$0")/../common/assert.sh"
work=$(mktemp -d) && trap 'rm -rf "$work"' EXIT
outcome() { awk -F, -v m="$2" '!/^#/ && $1 == "bcast" && $2 == 1024 && $3 == m {print $27}' "$1/verdicts.csv"; }
"$mg" check --from "$data" -o "$work/a" -q || die "check --from exit $?"
[[ $(outcome "$work/a" bcast_as_allgatherv) == violation ]] && grep -q "noise threshold: 0.10 us" "$work/a/summary.txt" &&
  ok "check --from judges at the check's 100 ns: violation" ||
  fail "check --from: '$(outcome "$work/a" bcast_as_allgatherv)', $(grep 'noise threshold' "$work/a/summary.txt")"
"$mg" check --from "$data" --noise 1ms -o "$work/b" -q || die "check --from --noise exit $?"
[[ $(outcome "$work/b" bcast_as_allgatherv) == inconclusive ]] && ok "its own --noise 1ms wins: inconclusive" ||
  fail "check --from --noise 1ms: '$(outcome "$work/b" bcast_as_allgatherv)'"
"$mg" tune "$data" -o "$work/t.prof" >/dev/null || die "tune exit $?"
grep -qE "^bcast .*bcast_as_allgatherv" "$work/t.prof" && ok "tune writes the rule" ||
  fail "tune: no bcast_as_allgatherv rule in $(grep -v '^#' "$work/t.prof" | tr '\n' ' ')"
finish
