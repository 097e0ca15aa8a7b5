#!/usr/bin/env bash
# The rule of `check --model-guided` on a fixed full check (test check.guided.rule.*; no MPI, no
# clock): `mpiguide predict --guided SLACK` replays the rule on the defaults of FIXTURE (a
# `check --full` result cut by make_guided_fixture.py, with its verdicts.csv) and LOGGP.
#
#   guided_rule.sh MPIGUIDE FIXTURE LOGGP SLACK MAX_MEASURED [EXPECT...]
#
# Fails when a violation of the full check (verdicts.csv) is left out, when the rule measures more
# than MAX_MEASURED of the fixture's mock-up cells, or when an EXPECT "collective,bytes,mockup,why"
# is not a line of the replay.
set -u
exe=$1 fix=$2 loggp=$3 slack=$4 max=$5
shift 5
out=$("$exe" predict --loggp "$loggp" --check "$fix" --guided "$slack") || { echo "FAIL: predict --guided failed"; exit 1; }
fail=0
# collective,bytes,mockup of the violations of the full check
viol=$(awk -F, '/^#/ {next} !h {for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next}
                $c["outcome"] == "violation" {print $c["collective"] "," $c["bytes"] "," $c["mockup"]}' "$fix/verdicts.csv" | sort -u)
[[ -n $viol ]] || { echo "FAIL: the fixture has no violation to keep"; fail=1; }
for v in $viol; do
  IFS=, read -r coll bytes mock <<<"$v"
  line=$(awk -F, -v c="$coll" -v b="$bytes" -v m="$mock" '$1 == c && $3 == b && $4 == m' <<<"$out")
  if [[ -z $line ]]; then echo "FAIL: violation $v: not in the replay"; fail=1
  elif [[ $(cut -d, -f10 <<<"$line") != 1 ]]; then echo "FAIL: violation $v left out: $line"; fail=1
  fi
done
all=$(grep -vc '^#\|^collective,' <<<"$out")
measured=$(awk -F, '!/^#/ && $10 == 1' <<<"$out" | wc -l)
echo "the rule measures $measured of $all mock-up cells (at most $max wanted); $(wc -w <<<"$viol") violations of the full check"
((measured <= max)) || { echo "FAIL: $measured cells measured, more than $max"; fail=1; }
for e in "$@"; do
  IFS=, read -r coll bytes mock why <<<"$e"
  awk -F, -v c="$coll" -v b="$bytes" -v m="$mock" -v w="$why" '$1 == c && $3 == b && $4 == m && $11 == w {f = 1} END {exit !f}' <<<"$out" ||
    { echo "FAIL: expected $e; the replay says: $(awk -F, -v c="$coll" -v b="$bytes" -v m="$mock" '$1 == c && $3 == b && $4 == m' <<<"$out")"; fail=1; }
done
((fail == 0)) && echo PASS
exit $fail
