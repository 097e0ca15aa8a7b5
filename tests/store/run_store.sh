#!/usr/bin/env bash
# The site's profile store end to end (docs/profile.md, "The site's profile store"; CTest names
# store.*). Modes:
#   cli          (no MPI launch) mpiguide site publish / status / which / rollback: a profile filed
#                by the library, process count and layout its preamble records; refused when not
#                confirmed by verify, invalid, too large, without a library; releases numbered,
#                each the previous one plus the new files; rollback to the parent and --to; bad
#                names refused; `current` swapped 200 times while a reader resolves it: always a
#                complete release
#   job NP       a job without MPIGUIDE_PROFILE takes the store's profile for its library, np and
#                layout: its rule ran, the trace names the file, its hash (as publish printed it),
#                the release and the match; coverage counted; no message on stderr; MPIGUIDE_TRACE
#                with %j %h %p; jobs starting while `current` flips run one release's profile
#                each; MPIGUIDE_PROFILE overrides the store; MPIGUIDE_PROFILE_STORE=none
#   strict NP    a profile measured on another layout: warned and applied without MPIGUIDE_STRICT,
#                set aside with it (defaults, the rule column and #@profile_set_aside say why)
#   bad NP       a broken store (current outside the store, a missing release, a profile too large,
#                an invalid profile): one warning, the defaults run, the program's results right
set -u
MODE=${1:?usage: run_store.sh MODE [NP]}
shift
: "${MG_FLAVOR:?}" "${MG_MPIEXEC:?}" "${MG_CLI:?}" "${MG_WORKDIR:?}"
MG_MPIEXEC_FLAGS=${MG_MPIEXEC_FLAGS:-}
MG_TIMEOUT=${MG_TIMEOUT:-120}
unset MPIGUIDE_ALG MPIGUIDE_TRACE MPIGUIDE_SCRATCH_MAX MPIGUIDE_PROFILE MPIGUIDE_PROFILE_STORE MPIGUIDE_STRICT LD_PRELOAD
unset SLURM_JOB_ID PBS_JOBID LSB_JOBID JOB_ID FLUX_JOB_ID
MG_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$MG_WORKDIR" && mkdir -p "$MG_WORKDIR" || exit 1
cd "$MG_WORKDIR" || exit 1
MG_SCRIPT=run_store.sh
source "$MG_HERE/../common/launch.sh"

expect_grep() { # NAME REGEX WHAT: in NAME.out or NAME.err
  if cat "$1.out" "$1.err" | grep -qE -- "$2"; then ok "$1: $3"; else fail "$1: no $3 (regex: $2)"; fi
}
expect_no() { # NAME REGEX WHAT
  if cat "$1.out" "$1.err" | grep -qE -- "$2"; then fail "$1: unexpected $3: $(cat "$1.out" "$1.err" | grep -E -- "$2" | head -2)"
  else ok "$1: no $3"; fi
}
meta() { sed -n "s/^#@$2=//p" "$1"; }
# the trace row of COLL at BYTES: "algorithm rule"
row() { awk -F, -v c="$2" -v b="$3" '!/^#/ && $1 == c && $2 == b { print $3 "|" $8 }' "$1"; }
expect_row() { # TRACE COLL BYTES "ALG|RULE"
  local got
  got=$(row "$1" "$2" "$3")
  if [[ $got == "$4" ]]; then ok "$1: $2 $3 bytes: $4"; else fail "$1: $2 $3 bytes: got '$got', want '$4'"; fi
}
expect_app_ok() {
  if ((RC == 0)) && grep -q '^plain_app: OK' "$1.out"; then ok "$1: exit 0, results right"
  else fail "$1: expected success with right results, got exit $RC"; fi
}

# The MPI library's key as libmpiguide sees it: the first clause of MPI_Get_library_version
# (`mpiguide site which` prints the store's path with its directory name).
mkdir -p probe-store
LIBKEY=$("$MG_CLI" site which --np 1 --store "$PWD/probe-store" 2>/dev/null | sed -n 's/^job: \(.*\) (directory \(.*\)), np=1$/\1/p')
DIR=$("$MG_CLI" site which --np 1 --store "$PWD/probe-store" 2>/dev/null | sed -n 's/^job: \(.*\) (directory \(.*\)), np=1$/\2/p')

# profile NAME NP NODES RPN [LIB] [VERIFIED]: an allreduce rule for 64 B-1 KiB at np=NP (plain_app's
# 148-byte calls), recorded as measured with LIB on NODES x RPN, with verify's confirmation line
profile() {
  local lib=${5:-$LIBKEY}
  {
    echo "mpiguide-profile 3"
    echo "# np=$2: MPI library: $lib, package: test"
    echo "# np=$2: layout: $3 node(s) x $4 ranks per node"
    [[ ${6:-1} == 1 ]] && echo "# verify: confirmed 1 of 1 rules, 2026-12-03T07:00Z, $lib, np=$2, $3 node(s) x $4 ranks per node"
    echo "allreduce np=$2 64-1K allreduce_as_reduce_bcast"
    echo "end-of-profile rules=1"
  } >"$1"
}

case $MODE in
cli)
  [[ -n $LIBKEY ]] && ok "the library's key: $LIBKEY" || die "no library key from site which"
  S=$PWD/store
  profile a.prof 4 2 2
  profile unverified.prof 4 2 2 "$LIBKEY" 0
  printf 'mpiguide-profile 3\nallreduce np=4 1K nope_alg\nend-of-profile rules=1\n' >invalid.prof
  { echo "mpiguide-profile 3"; echo "# verify: confirmed 1 of 1 rules"; echo "allreduce np=4 64-1K allreduce_as_reduce_bcast"
    echo "end-of-profile rules=1"; } >nolib.prof
  profile big.prof 4 2 2 && truncate -s 5M big.prof
  local_run unverified "$MG_CLI" site publish unverified.prof --store "$S"
  expect_rc unverified 1
  expect_grep unverified "verify has not confirmed its rules.*--unverified" "refusal of an unconfirmed profile"
  [[ ! -e $S/current ]] && ok "unverified: no release made" || fail "unverified: $S/current exists"
  local_run invalid "$MG_CLI" site publish invalid.prof --store "$S" --unverified
  expect_rc invalid 1
  expect_grep invalid "invalid.prof is not a valid profile.*" "refusal of an invalid profile"
  expect_grep invalid "invalid.prof:2:" "its file:line"
  local_run nolib "$MG_CLI" site publish nolib.prof --store "$S"
  expect_rc nolib 1
  expect_grep nolib "records no MPI library.*--library" "refusal without a library"
  local_run big "$MG_CLI" site publish big.prof --store "$S"
  expect_rc big 1
  expect_grep big "larger than 4 MiB" "refusal of a file too large"
  local_run pub1 "$MG_CLI" site publish a.prof --store "$S"
  expect_rc pub1 0
  expect_grep pub1 "^published r0001 \(parent none\)" "release r0001"
  [[ $(readlink "$S/current") == releases/r0001 ]] && ok "current -> releases/r0001" || fail "current -> $(readlink "$S/current")"
  [[ -f $S/releases/r0001/$DIR/np4-2x2.profile ]] && ok "filed as $DIR/np4-2x2.profile" || fail "not filed: $(find "$S" -type f)"
  cmp -s a.prof "$S/releases/r0001/$DIR/np4-2x2.profile" && ok "the file as published" || fail "the stored file differs"
  # the unverified one with --unverified at the np level, then the library level
  local_run pub2 "$MG_CLI" site publish unverified.prof --store "$S" --unverified --level np
  expect_rc pub2 0
  expect_grep pub2 "^published r0002 \(parent r0001\)" "release r0002"
  [[ -f $S/releases/r0002/$DIR/np4-2x2.profile && -f $S/releases/r0002/$DIR/np4.profile ]] &&
    ok "r0002 = r0001's file + np4.profile" || fail "r0002 holds: $(cd "$S/releases/r0002" && find . -type f | sort | paste -sd' ')"
  [[ ! -e $S/releases/r0001/$DIR/np4.profile ]] && ok "r0001 unchanged" || fail "r0001 was changed"
  profile other.prof 8 1 8
  local_run pub3 "$MG_CLI" site publish other.prof --store "$S" --level library
  expect_rc pub3 0
  local_run w_exact "$MG_CLI" site which --store "$S" --np 4 --nodes 2 --rpn 2
  expect_grep w_exact "releases/r0003/$DIR/np4-2x2.profile \(exact\)" "exact match"
  local_run w_np "$MG_CLI" site which --store "$S" --np 4 --nodes 1
  expect_grep w_np "releases/r0003/$DIR/np4.profile \(np\)" "np match (1 x 4)"
  local_run w_lib "$MG_CLI" site which --store "$S" --np 16 --nodes 2
  expect_grep w_lib "releases/r0003/$DIR/default.profile \(library\)" "library match"
  local_run w_other "$MG_CLI" site which --store "$S" --np 4 --nodes 2 --library "Other MPI v1.0"
  expect_grep w_other "^none: release r0003 has no profile for Other MPI v1.0 at np=4" "no match for another library"
  local_run w_rel "$MG_CLI" site which --store "$S" --np 4 --nodes 1 --release r0001
  expect_grep w_rel "^none: release r0001" "r0001 had no np4.profile"
  local_run status "$MG_CLI" site status --store "$S"
  expect_rc status 0
  expect_grep status "^store .*: 3 release\(s\), current r0003" "status line"
  expect_grep status "^\* r0003 .* parent r0002" "current marked, its parent"
  expect_grep status "^  $DIR/default.profile from=.*other.prof" "the files of the current release"
  local_run rb1 "$MG_CLI" site rollback --store "$S"
  expect_grep rb1 "current -> releases/r0002 \(was r0003\)" "rollback to the parent"
  local_run rb2 "$MG_CLI" site rollback --store "$S" --to r0001
  expect_grep rb2 "current -> releases/r0001 \(was r0002\)" "rollback --to"
  local_run rb3 "$MG_CLI" site rollback --store "$S"
  expect_rc rb3 1
  expect_grep rb3 "release r0001 has no parent" "no parent of the first"
  for bad in ../r0002 r9999 /etc .tmp; do
    local_run rbbad "$MG_CLI" site rollback --store "$S" --to "$bad"
    expect_rc rbbad 1
    [[ $(readlink "$S/current") == releases/r0001 ]] && ok "rollback --to $bad refused, current kept" ||
      fail "rollback --to $bad: current -> $(readlink "$S/current")"
  done
  # a broken current (pointing outside): status says so and lists the releases, publish refuses,
  # rollback --to repairs it
  ln -sfn /etc "$S/current.new" && mv -T "$S/current.new" "$S/current"
  local_run st_broken "$MG_CLI" site status --store "$S"
  expect_rc st_broken 1
  expect_grep st_broken "^current is broken: .*current -> '/etc' is not a release of the store" "the broken link named"
  expect_grep st_broken "^store .*: 3 release\(s\), current broken" "the releases still listed"
  local_run pub_broken "$MG_CLI" site publish a.prof --store "$S"
  expect_rc pub_broken 1
  local_run repair "$MG_CLI" site rollback --store "$S" --to r0001
  expect_rc repair 0
  [[ $(readlink "$S/current") == releases/r0001 ]] && ok "rollback --to repaired current" || fail "current -> $(readlink "$S/current")"
  # publish after a rollback: the new release is the current one (r0001) plus the new file
  profile b.prof 2 1 2
  local_run pub4 "$MG_CLI" site publish b.prof --store "$S"
  expect_grep pub4 "^published r0004 \(parent r0001\)" "numbered after the highest, parent the current"
  n=$(cd "$S/releases/r0004" && find . -name '*.profile' | wc -l)
  ((n == 2)) && ok "r0004 holds r0001's file and the new one" || fail "r0004 holds $n profiles"
  # a profile of two process counts is filed under both; a library name with ../ stays one
  # directory inside the release
  { echo "mpiguide-profile 3"; echo "# np=2: MPI library: $LIBKEY"; echo "# np=2: layout: 1 node(s) x 2 ranks per node"
    echo "# np=6: MPI library: $LIBKEY"; echo "# np=6: layout: 3 node(s) x 2 ranks per node"; echo "# verify: confirmed 2 of 2 rules"
    echo "allreduce np=2 64-1K allreduce_as_reduce_bcast"; echo "allreduce np=6 64-1K allreduce_as_reduce_bcast"
    echo "end-of-profile rules=2"; } >multi.prof
  local_run multi "$MG_CLI" site publish multi.prof --store "$PWD/store2"
  expect_rc multi 0
  [[ -f store2/releases/r0001/$DIR/np2-1x2.profile && -f store2/releases/r0001/$DIR/np6-3x2.profile ]] &&
    ok "multi.prof filed at np=2 (1 x 2) and np=6 (3 x 2)" || fail "store2 holds: $(find store2 -type f | paste -sd' ')"
  local_run evil "$MG_CLI" site publish multi.prof --store "$PWD/store2" --library "../../evil" --level library
  expect_rc evil 0
  [[ -f store2/releases/r0002/_.._evil/default.profile && ! -e evil && ! -e store2/evil ]] &&
    ok "--library ../../evil filed as _.._evil inside the release" || fail "evil: $(find . -path '*evil*' | paste -sd' ')"
  # The atomic switch: `current` swapped back and forth 200 times while a reader resolves it 400
  # times; every answer is a complete release (never a missing link or a mix)
  ( for i in $(seq 100); do "$MG_CLI" site rollback --store "$S" --to r0003 >/dev/null; "$MG_CLI" site rollback --store "$S" --to r0004 >/dev/null; done ) &
  swapper=$!
  bad=0 seen=""
  for i in $(seq 400); do
    out=$("$MG_CLI" site which --store "$S" --np 4 --nodes 2 --rpn 2 2>&1)
    case $out in
      *"releases/r0003/$DIR/np4-2x2.profile (exact)"|*"releases/r0004/$DIR/np4-2x2.profile (exact)") r=${out##*releases/}; seen+=" ${r%%/*}" ;;
      *) bad=$((bad + 1)); echo "  reader got: $out" ;;
    esac
  done
  wait "$swapper"
  ((bad == 0)) && ok "400 reads during 200 switches: always a complete release ($(tr ' ' '\n' <<<"$seen" | cut -d/ -f1 | sort -u | paste -sd' ' -))" ||
    fail "$bad of 400 reads during the switches saw no complete release"
  [[ -z $(find "$S" -name '.current.*' -o -name '.tmp-*') ]] && ok "no temporary left" || fail "temporaries left: $(find "$S" -name '.*')"
  ;;
job)
  NP=${1:?NP}
  : "${MG_LIB:?}" "${MG_APP:?}"
  S=$PWD/store
  RPN=$NP
  profile p.prof "$NP" 1 "$RPN"
  local_run pub "$MG_CLI" site publish p.prof --store "$S"
  expect_rc pub 0
  hash=$(sed -n 's/.*hash \([0-9a-f]\{16\}\).*/\1/p' pub.out)
  cmd_start
  cmd_ctx "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE_STORE=$S" "SLURM_JOB_ID=4711" "MPIGUIDE_TRACE=$PWD/t-%j-%h-%p.csv" \
    -- "$MG_APP" 3 1 37 2500
  run job
  expect_app_ok job
  expect_no job 'mpiguide:' "mpiguide message"
  tr=$(ls t-4711-*-*.csv 2>/dev/null | head -1)
  [[ -n $tr && $tr =~ ^t-4711-[A-Za-z0-9._-]+-[0-9]+\.csv$ ]] && ok "the trace's name expanded: $tr" || die "no trace t-4711-HOST-PID.csv: $(ls)"
  expect_row "$tr" allreduce 148 "allreduce_as_reduce_bcast|line 5"
  expect_row "$tr" allreduce 4 "default|no rule for this size"
  expect_row "$tr" bcast 148 "default|no rule for this operation"
  [[ $(meta "$tr" profile_hash) == "$hash" && -n $hash ]] && ok "#@profile_hash=$hash, as publish printed" ||
    fail "#@profile_hash=$(meta "$tr" profile_hash), publish printed '$hash'"
  [[ $(meta "$tr" profile_release) == r0001 && $(meta "$tr" profile_match) == exact && $(meta "$tr" profile_store) == "$S" ]] &&
    ok "the store, release r0001, match exact" || fail "store meta: $(grep '^#@profile_' "$tr" | paste -sd' ')"
  [[ $(meta "$tr" MPIGUIDE_PROFILE) == "$S/releases/r0001/"*"/np$NP-1x$RPN.profile" ]] && ok "#@MPIGUIDE_PROFILE names the file" ||
    fail "#@MPIGUIDE_PROFILE=$(meta "$tr" MPIGUIDE_PROFILE)"
  # coverage: plain_app makes 3 calls of each of 17 operations at each of 3 sizes (barrier: one
  # size, its 9 calls in one row): the rule covered allreduce's 3 calls at 148 B
  [[ $(meta "$tr" coverage_calls_rule) == 3 ]] && ok "#@coverage_calls_rule=3" || fail "#@coverage_calls_rule=$(meta "$tr" coverage_calls_rule)"
  [[ $(meta "$tr" coverage_calls_no_rule_size) == 6 ]] && ok "#@coverage_calls_no_rule_size=6" ||
    fail "#@coverage_calls_no_rule_size=$(meta "$tr" coverage_calls_no_rule_size)"
  total=$(awk -F, '!/^#/ && $1 != "collective" { s += $4 } END { print s }' "$tr")
  sum=$(grep -E '^#@coverage_calls_(rule|rule_fell_back|no_rule_np|no_rule_operation|no_rule_size|set_aside|other)=' "$tr" | cut -d= -f2 | paste -sd+ - | bc)
  [[ $sum == "$total" ]] && ok "the coverage counts add up to the trace's $total calls" || fail "coverage sums to $sum, the rows to $total"
  # jobs starting while `current` flips between r0001 and r0002 (another rule): each names one
  # release and runs that release's profile (its hash and its rule), never the other's
  { echo "mpiguide-profile 3"; echo "# np=$NP: MPI library: $LIBKEY"; echo "# np=$NP: layout: 1 node(s) x $RPN ranks per node"
    echo "# verify: confirmed 1 of 1 rules"; echo "bcast np=$NP 100-200 bcast_as_allgatherv"; echo "end-of-profile rules=1"; } >q.prof
  local_run pub2 "$MG_CLI" site publish q.prof --store "$S"
  expect_rc pub2 0
  hash2=$(sed -n 's/.*hash \([0-9a-f]\{16\}\).*/\1/p' pub2.out)
  ( while [[ ! -e stop ]]; do "$MG_CLI" site rollback --store "$S" --to r0001 >/dev/null; "$MG_CLI" site rollback --store "$S" --to r0002 >/dev/null; done ) &
  flipper=$!
  for i in 1 2 3 4; do
    cmd_start
    cmd_ctx "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE_STORE=$S" "MPIGUIDE_TRACE=$PWD/flip$i.csv" -- "$MG_APP" 3 37
    run "flip$i"
    expect_app_ok "flip$i"
    got="$(meta "flip$i.csv" profile_release) $(meta "flip$i.csv" profile_hash) $(row "flip$i.csv" allreduce 148) $(row "flip$i.csv" bcast 148)"
    if [[ $got == "r0001 $hash allreduce_as_reduce_bcast|line 5 default|no rule for this operation" ||
          $got == "r0002 $hash2 default|no rule for this operation bcast_as_allgatherv|line 5" ]]; then
      ok "flip$i: release ${got%% *}, its own profile and rule"
    else
      fail "flip$i: a mix: $got"
    fi
  done
  touch stop
  wait "$flipper"
  "$MG_CLI" site rollback --store "$S" --to r0001 >/dev/null
  # the same job with a np the store has no profile for: silence, no profile
  if ((NP > 1)); then
    cmd_start
    cmd_ctx 1 "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE_STORE=$S" "MPIGUIDE_TRACE=$PWD/np1.csv" -- "$MG_APP" 3 37
    run np1
    expect_app_ok np1
    expect_no np1 'mpiguide:' "mpiguide message (no profile for np=1 is silent)"
    [[ -z $(meta np1.csv MPIGUIDE_PROFILE) ]] && ok "np1.csv: no profile" || fail "np1.csv names $(meta np1.csv MPIGUIDE_PROFILE)"
  fi
  # the timed trace: the seconds covered by the rule are those of its rows
  cmd_start
  cmd_ctx "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE_STORE=$S" "MPIGUIDE_TRACE=$PWD/timed.csv" MPIGUIDE_TRACE_TIME=1 -- "$MG_APP" 3 37
  run timed
  expect_app_ok timed
  if awk -F, -v want="$(meta timed.csv coverage_time_s_rule)" '!/^#/ && $8 ~ /^line / { s += $13 }
       END { d = s - want; exit !(s > 0 && d * d < 1e-12) }' timed.csv
  then ok "timed.csv: #@coverage_time_s_rule=$(meta timed.csv coverage_time_s_rule), the rule rows' time"
  else fail "timed.csv: #@coverage_time_s_rule=$(meta timed.csv coverage_time_s_rule) is not the rule rows' time"; fi
  # online tuning's MPIGUIDE_PROFILE_OUT takes the placeholders too
  cmd_start
  cmd_ctx "$NP" "LD_PRELOAD=$MG_LIB" MPIGUIDE_PROFILE=auto "MPIGUIDE_PROFILE_OUT=$PWD/learned-%j.prof" "LSB_JOBID=77" -- "$MG_APP" 3 37
  run learned
  expect_app_ok learned
  [[ -s learned-77.prof ]] && ok "MPIGUIDE_PROFILE_OUT=learned-%j.prof wrote learned-77.prof" || fail "no learned-77.prof: $(ls)"
  # MPIGUIDE_PROFILE overrides the store; MPIGUIDE_PROFILE_STORE=none disables it
  printf 'mpiguide-profile 3\nbcast np=* 100-200 bcast_as_allgatherv\nend-of-profile rules=1\n' >own.prof
  cmd_start
  cmd_ctx "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE_STORE=$S" "MPIGUIDE_PROFILE=$PWD/own.prof" "MPIGUIDE_TRACE=$PWD/own.csv" -- "$MG_APP" 3 37
  run own
  expect_app_ok own
  [[ $(meta own.csv MPIGUIDE_PROFILE) == "$PWD/own.prof" && -z $(meta own.csv profile_store) ]] && ok "MPIGUIDE_PROFILE overrides the store" ||
    fail "own.csv: $(grep '^#@.*PROFILE\|^#@profile' own.csv | paste -sd' ')"
  expect_row own.csv allreduce 148 "default|no rule for this operation"
  cmd_start
  cmd_ctx "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE_STORE=none" "MPIGUIDE_TRACE=$PWD/none.csv" -- "$MG_APP" 3 37
  run none
  expect_app_ok none
  expect_row none.csv allreduce 148 "default|"
  ;;
strict)
  NP=${1:?NP}
  : "${MG_LIB:?}" "${MG_APP:?}"
  # measured on NP nodes x 1 rank: this run has 1 node x NP
  profile far.prof "$NP" "$NP" 1
  cmd_start
  cmd_ctx "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE=$PWD/far.prof" "MPIGUIDE_TRACE=$PWD/loose.csv" -- "$MG_APP" 3 37
  run loose
  expect_app_ok loose
  expect_grep loose "warning: MPIGUIDE_PROFILE='$PWD/far.prof' was measured on $NP node\\(s\\) at $NP processes, this run has 1 node\\(s\\) x $NP" "other-layout warning"
  expect_row loose.csv allreduce 148 "allreduce_as_reduce_bcast|line 5"
  cmd_start
  cmd_ctx "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_STRICT=1" "MPIGUIDE_PROFILE=$PWD/far.prof" "MPIGUIDE_TRACE=$PWD/strict.csv" -- "$MG_APP" 3 37
  run strict
  expect_app_ok strict
  expect_grep strict "MPIGUIDE_PROFILE='$PWD/far.prof' is set aside, the defaults run: MPIGUIDE_STRICT=1: the profile was measured on $NP node" "set-aside note"
  expect_row strict.csv allreduce 148 "default|profile set aside"
  [[ $(meta strict.csv profile_set_aside) == "MPIGUIDE_STRICT=1: the profile was measured on $NP node"* ]] && ok "#@profile_set_aside says why" ||
    fail "#@profile_set_aside=$(meta strict.csv profile_set_aside)"
  [[ $(meta strict.csv coverage_calls_rule) == 0 && $(meta strict.csv coverage_calls_set_aside) -gt 0 ]] && ok "coverage: every call set aside" ||
    fail "coverage: $(grep '^#@coverage' strict.csv | paste -sd' ')"
  # strict at another process count: a profile of np=NP+1
  profile np.prof $((NP + 1)) 1 $((NP + 1))
  cmd_start
  cmd_ctx "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_STRICT=1" "MPIGUIDE_PROFILE=$PWD/np.prof" "MPIGUIDE_TRACE=$PWD/strict_np.csv" -- "$MG_APP" 3 37
  run strict_np
  expect_app_ok strict_np
  expect_row strict_np.csv allreduce 148 "default|profile set aside"
  [[ $(meta strict_np.csv profile_set_aside) == *"records no layout at $NP processes"* ]] && ok "strict_np: why" ||
    fail "strict_np: #@profile_set_aside=$(meta strict_np.csv profile_set_aside)"
  # strict where it was measured: in force
  profile here.prof "$NP" 1 "$NP"
  cmd_start
  cmd_ctx "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_STRICT=1" "MPIGUIDE_PROFILE=$PWD/here.prof" "MPIGUIDE_TRACE=$PWD/here.csv" -- "$MG_APP" 3 37
  run here
  expect_app_ok here
  expect_no here 'mpiguide:' "mpiguide message"
  expect_row here.csv allreduce 148 "allreduce_as_reduce_bcast|line 5"
  ;;
bad)
  NP=${1:?NP}
  : "${MG_LIB:?}" "${MG_APP:?}"
  S=$PWD/store
  profile p.prof "$NP" 1 "$NP"
  local_run pub "$MG_CLI" site publish p.prof --store "$S"
  expect_rc pub 0
  f=$(find "$S/releases/r0001" -name '*.profile')
  badjob() { # NAME REGEX: one warning matching REGEX, the defaults, right results
    cmd_start
    cmd_ctx "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_PROFILE_STORE=$S" "MPIGUIDE_TRACE=$PWD/$1.csv" -- "$MG_APP" 3 37
    run "$1"
    expect_app_ok "$1"
    n=$(grep -c 'mpiguide: warning' "$1.err")
    ((n == 1)) && ok "$1: one warning" || fail "$1: $n warnings"
    expect_grep "$1" "$2" "the reason"
    expect_row "$1.csv" allreduce 148 "default|"
  }
  ln -sfn /etc "$S/current.new" && mv -T "$S/current.new" "$S/current"
  badjob outside "current -> '/etc' is not a release of the store.*; the defaults run"
  ln -sfn ../../elsewhere "$S/current.new" && mv -T "$S/current.new" "$S/current"
  badjob dotdot "current -> '../../elsewhere' is not a release of the store"
  ln -sfn releases/r0042 "$S/current.new" && mv -T "$S/current.new" "$S/current"
  badjob missing "release r0042 is missing; the defaults run"
  ln -sfn releases/r0001 "$S/current.new" && mv -T "$S/current.new" "$S/current"
  cp "$f" saved.prof
  truncate -s 5M "$f"
  badjob large "is larger than 4 MiB: not a profile; the defaults run"
  printf 'mpiguide-profile 3\nallreduce np=* 1K nope\nend-of-profile rules=1\n' >"$f"
  badjob invalid "is not usable on rank"
  # a bad placeholder: one warning, the trace written under the name as given
  cp saved.prof "$f"
  cmd_start
  cmd_ctx "$NP" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_TRACE=$PWD/q-%q.csv" -- "$MG_APP" 3 37
  run placeholder
  expect_app_ok placeholder
  expect_grep placeholder "warning: MPIGUIDE_TRACE='$PWD/q-%q.csv': unknown placeholder '%q'.*the name is used as written" "bad placeholder warning"
  [[ -f q-%q.csv ]] && ok "the trace written as q-%q.csv" || fail "no q-%q.csv: $(ls)"
  ;;
*) die "unknown mode '$MODE'" ;;
esac
finish
