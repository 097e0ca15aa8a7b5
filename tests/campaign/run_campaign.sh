#!/usr/bin/env bash
# `mpiguide campaign` and configuration identity (docs/campaign.md, tests/campaign/CMakeLists.txt).
#
#   run_campaign.sh spec       the plan of a spec (--dry-run: nothing run or written); bad specs
#                              refused with file:line and nothing written
#   run_campaign.sh identity   tune refuses launches of two machines, naming both; report shows
#                              them side by side (two configurations)
#   run_campaign.sh report     report over a campaign's tree (data/tree, two library versions, two
#                              launches each): the comparison sections equal golden/compare.html;
#                              a configuration of campaign.spec not measured yet is named; two verify
#                              results of one configuration (data/verify-1, -2) show the spread of
#                              tuned/default per cell
#   run_campaign.sh libs       report over two libraries (data/libs: Open MPI by mpirun, MPICH by srun)
#                              and over a noise-dominated run (data/noisy): the title names both
#                              libraries; "Which library is faster" says which default is faster per
#                              size, or the same, and says nothing but "tells nothing" where noise
#                              dominates (as "What changed" does); latencies in µs or ms, never with an
#                              exponent; the next step's commands launch as the run did (srun -n 4,
#                              mpirun -np 4); the same of two results of one launch each
#   run_campaign.sh mpirun     a campaign of 2 launchers (one says it is another: MPIGUIDE_LAUNCHER) at
#                              1x2 through mpiexec, 2 launches each: the first configuration's 2nd
#                              launch interrupts the campaign (SIGINT to it and to
#                              its check, as Ctrl-C does): exit 1, nothing marked done, the 2nd
#                              configuration not begun; the rerun says what it resumes, keeps launch 1
#                              (same launch id), measures the rest; a third run measures nothing;
#                              a changed spec is refused; report TREE compares the two configurations;
#                              a layout the launcher did not place (2x1 on one machine) is not marked done
#
# Environment: MG_CLI (mpiguide), MG_MPIEXEC, MG_MPIEXEC_FLAGS, MG_WORKDIR (emptied first),
# MG_DATA (tests/check/data), MG_CP_DATA (tests/campaign/data), MG_CP_GOLDEN (tests/campaign/golden).
set -u
mode=$1
MODE=$mode
work=$MG_WORKDIR
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"

case $mode in
spec)
  cat >spec <<SPEC
# two libraries (here the same build twice) on two layouts
out $work/tree
launches 3
layouts 1x4 2x2   # NODESxRPN
mpi lib-a $MG_CLI srun -N {nodes} --ntasks-per-node={rpn} --mpi=pmix
mpi lib-b $MG_CLI mpiexec -n {np} -ppn {rpn}
check -c allreduce --sizes 8,1K
SPEC
  "$MG_CLI" campaign spec --dry-run >out.txt 2>err.txt || die "--dry-run exited $?: $(cat err.txt)"
  cat out.txt
  grep -q "^campaign spec: 4 configuration(s) x 3 launch(es) into $work/tree$" out.txt && ok "the plan's head" || fail "the plan's head"
  grep -q "^  \[3/4\] lib-b-1x4: to run$" out.txt && ok "configuration names" || fail "configuration names"
  grep -qF -- "check --launches 3 -c allreduce --sizes 8,1K -o $work/tree/lib-a-2x2 -- srun -N 2 --ntasks-per-node=2 --mpi=pmix" out.txt &&
    ok "srun placeholders" || fail "srun placeholders"
  grep -qF -- "-o $work/tree/lib-b-1x4 -- mpiexec -n 4 -ppn 4" out.txt && ok "{np}" || fail "{np}"
  [[ ! -e tree ]] && ok "--dry-run writes nothing" || fail "--dry-run wrote $work/tree"
  # a done mark cut before its line break is no mark: a warning, and the configuration is resumed
  mkdir -p tree/lib-a-1x4/launch-1 && printf '%s' "$(grep -o "$MG_CLI check --launches 3 .*lib-a-1x4 -- srun.*" out.txt)" >tree/lib-a-1x4.done
  "$MG_CLI" campaign spec --dry-run >out2.txt 2>err2.txt || fail "--dry-run with a cut mark exited $?: $(cat err2.txt)"
  grep -q "tree/lib-a-1x4.done: empty or cut before its line break (an interrupted write?): ignored" err2.txt &&
    grep -q '^  \[1/4\] lib-a-1x4: interrupted: resumed (--resume)$' out2.txt && ok "a cut .done mark: resumed, with a warning" ||
    fail "a cut .done: $(cat out2.txt err2.txt)"
  # how far an interrupted configuration got, from its launches' files: launch 1 complete (42 s from its
  # #@date to its raw.csv's last change), launch 2 begun
  cp "$MG_DATA/small/raw.csv" tree/lib-a-1x4/launch-1/ && touch -d 2024-01-01T00:00:42Z tree/lib-a-1x4/launch-1/raw.csv &&
    mkdir tree/lib-a-1x4/launch-2 || die "cannot make tree/lib-a-1x4"
  "$MG_CLI" campaign spec --dry-run >out3.txt 2>err3.txt || fail "--dry-run of a begun configuration exited $?: $(cat err3.txt)"
  grep -qx '    so far: 1 of 3 launches done, launch 2 measuring, about 84 s to go' out3.txt &&
    ok "an interrupted configuration: its launches done, the one measuring, the time left" || fail "progress: $(cat out3.txt)"
  rm -rf tree
  # refusals: file:line and what is expected
  bad() { # NAME REGEX LINES...
    local name=$1 re=$2
    shift 2
    printf '%s\n' "$@" >"$name.spec"
    "$MG_CLI" campaign "$name.spec" -o "$work/bad" >/dev/null 2>"$name.err"
    local rc=$?
    ((rc == 2)) && grep -Eq -- "$re" "$name.err" && [[ ! -e bad ]] && ok "refused: $name" ||
      fail "$name: exit $rc, stderr: $(cat "$name.err")"
  }
  bad layout "layout.spec:2: layout '2by2': NODESxRANKS_PER_NODE" "mpi a x mpirun" "layouts 1x2 2by2"
  bad launches "launches.spec:1: launches '0': a number from 1 to 1000" "launches 0"
  bad keyword "keyword.spec:3: 'layout': expected out DIR" "mpi a x mpirun" "" "layout 1x2"
  bad twice "twice.spec:2: MPI 'a' given twice \\(first on line 1\\)" "mpi a x mpirun" "mpi a y mpiexec" "layouts 1x1"
  bad out_option "out_option.spec:2: check option '-o' is the campaign's" "mpi a x mpirun" "check -c bcast -o x" "layouts 1x1"
  bad no_mpi "no_mpi.spec: no mpi line" "layouts 1x1"
  bad no_layout "no_layout.spec: no layouts line" "mpi a x mpirun"
  bad name "name.spec:1: MPI name 'a/b'" "mpi a/b x mpirun" "layouts 1x1"
  bad sbatch_nodes "sbatch_nodes.spec:3: sbatch option '--nodes=2' is the campaign's" "mpi a x mpirun" "layouts 1x1" "sbatch -p box --nodes=2"
  # numbers in digits alone and in range (sscanf took +2x2 and overflowed 99999999999x1)
  bad layout_sign "layout_sign.spec:2: layout '\\+2x2': NODESxRANKS_PER_NODE" "mpi a x mpirun" "layouts +2x2"
  bad layout_big "layout_big.spec:2: layout '99999999999x1'" "mpi a x mpirun" "layouts 99999999999x1"
  bad launches_junk "launches_junk.spec:1: launches '3x'" "launches 3x"
  printf 'mpi a x mpirun\nlayouts 1\0x1\n' >nul.spec
  "$MG_CLI" campaign nul.spec -o "$work/bad" >/dev/null 2>nul.err
  (($? == 2)) && grep -q "nul.spec:2: a NUL byte" nul.err && [[ ! -e bad ]] && ok "refused: a NUL byte" || fail "NUL: $(cat nul.err)"
  "$MG_CLI" campaign /dev/zero -o "$work/bad" >/dev/null 2>zero.err
  (($? == 2)) && grep -q "/dev/zero:1: a line longer than 1 MiB" zero.err && ok "refused: /dev/zero" || fail "/dev/zero: $(cat zero.err)"
  mkdir dir.spec
  "$MG_CLI" campaign dir.spec -o "$work/bad" >/dev/null 2>dir.err
  (($? == 2)) && grep -q "dir.spec: is a directory, not a campaign spec" dir.err && ok "refused: a directory" || fail "dir: $(cat dir.err)"
  "$MG_CLI" campaign spec --only lib-c-1x4 --dry-run >/dev/null 2>err.txt
  (($? == 2)) && grep -q "no such configuration in spec; it has lib-a-1x4 lib-a-2x2 lib-b-1x4 lib-b-2x2" err.txt &&
    ok "--only an unknown configuration: refused, the configurations named" || fail "--only unknown: $(cat err.txt)"
  "$MG_CLI" campaign spec --wait 2>err.txt >/dev/null
  (($? == 2)) && grep -q "give both" err.txt && ok "--wait without --sbatch refused" || fail "--wait alone: $(cat err.txt)"
  "$MG_CLI" campaign spec --only lib-b-2x2 --dry-run >out.txt || fail "--only --dry-run exited $?"
  [[ $(grep -c '^  \[' out.txt) == 1 ]] && grep -q '^  \[4/4\] lib-b-2x2: to run$' out.txt && ok "--only: that configuration alone" ||
    fail "--only: $(cat out.txt)"
  # --sbatch with stand-ins for sbatch and squeue on PATH (the test bed's Slurm: cluster.campaign.sbatch):
  # a job per configuration of its layout, running the campaign with --only; a queued job left
  # alone; one that ended without its mark submitted anew; --wait waits and names what is unfinished
  mkdir fake
  cat >fake/sbatch <<'FAKE'
#!/usr/bin/env bash
n=$(($(cat "$FAKE/n" 2>/dev/null || echo 100) + 1))
echo $n >"$FAKE/n"
printf '%s\n' "$@" >"$FAKE/job-$n.args"
echo "${FAKE_STATE-PENDING}" >"$FAKE/job-$n.state"
echo "$n"
FAKE
  printf '#!/usr/bin/env bash\ncat "$FAKE/job-$3.state" 2>/dev/null\n' >fake/squeue # squeue -h -j ID -o %T
  chmod +x fake/sbatch fake/squeue
  printf 'out %s\nlaunches 1\nlayouts 1x2 2x1\nmpi a %s srun -n {np}\nsbatch -p box -t 10\n' "$work/sb" "$MG_CLI" >sb.spec
  export FAKE=$work/fake
  PATH=$work/fake:$PATH "$MG_CLI" campaign sb.spec --sbatch >sb1.out 2>sb1.err || fail "--sbatch exited $?: $(cat sb1.err)"
  grep -q '^  \[2/2\] a-2x1: to run$' sb1.out && [[ $(grep -c 'submitted job' sb1.err) == 2 ]] && ok "--sbatch: two jobs submitted" ||
    fail "--sbatch: $(cat sb1.out sb1.err)"
  [[ $(<sb/a-1x2.job) == 101 && $(<sb/a-2x1.job) == 102 ]] && ok "the job ids kept in TREE/CONFIG.job" || fail "no .job files"
  want=$(printf '%s\n' --parsable -J mg-a-2x1 -N 2 --ntasks-per-node=1 -o "$work/sb/a-2x1.slurm.out" -p box -t 10 --wrap \
    "'$MG_CLI' campaign '$work/sb.spec' -o '$work/sb' --only a-2x1")
  [[ $(<fake/job-102.args) == "$want" ]] && ok "sbatch: the layout, the job's name and output, the spec's options, --only" ||
    fail "sbatch's arguments: $(cat fake/job-102.args)"
  PATH=$work/fake:$PATH "$MG_CLI" campaign sb.spec --sbatch >sb2.out 2>sb2.err || fail "a rerun exited $?"
  grep -q '^  \[1/2\] a-1x2: queued: job 101 (PENDING), left alone$' sb2.out && [[ $(<fake/n) == 102 ]] &&
    ok "a rerun leaves the queued jobs alone" || fail "a rerun: $(cat sb2.out sb2.err)"
  : >fake/job-101.state # 1x2's job ended without its mark; 2x1's still queued
  FAKE_STATE= PATH=$work/fake:$PATH "$MG_CLI" campaign sb.spec --sbatch >sb3.out 2>sb3.err || fail "a rerun exited $?"
  grep -q 'a-1x2: submitted job 103' sb3.err && [[ $(<sb/a-1x2.job) == 103 && $(<fake/n) == 103 ]] &&
    ok "a job that ended unfinished: submitted anew" || fail "resubmission: $(cat sb3.out sb3.err)"
  : >fake/job-102.state
  FAKE_STATE= PATH=$work/fake:$PATH "$MG_CLI" campaign sb.spec --sbatch --wait >sb4.out 2>sb4.err
  (($? == 1)) && grep -q "campaign: 0 of 2 configuration(s) done; the same command submits the rest anew" sb4.err &&
    grep -q "a-2x1: its job ended without finishing it" sb4.err && ok "--wait: the jobs ended unfinished are named, exit 1" ||
    fail "--wait: exit $? $(cat sb4.err)"
  # --wait shows each job's launches, from the files it writes (a squeue that lists the job once)
  mkdir fake2 && cp fake/sbatch fake2/ &&
    printf '#!/usr/bin/env bash\ncat "$FAKE/job-$3.state" 2>/dev/null; : >"$FAKE/job-$3.state"\n' >fake2/squeue &&
    chmod +x fake2/squeue || die "cannot make fake2"
  printf 'out %s\nlaunches 2\nlayouts 1x2\nmpi a %s srun -n {np}\n' "$work/sw" "$MG_CLI" >sw.spec
  mkdir -p sw/a-1x2/launch-1 && cp "$MG_DATA/small/raw.csv" sw/a-1x2/launch-1/ &&
    touch -d 2024-01-01T00:00:42Z sw/a-1x2/launch-1/raw.csv || die "cannot make sw"
  FAKE=$work/fake2 FAKE_STATE=RUNNING PATH=$work/fake2:$PATH "$MG_CLI" campaign sw.spec --sbatch --wait >sw.out 2>sw.err
  grep -qx '  a-1x2: job 101 RUNNING, 1 of 2 launches done, about 42 s to go' sw.err &&
    ok "--wait: the job's launches done and the time left" || fail "--wait progress: $(cat sw.err)"
  # a job id file cut before its line break is no job id (squeue -j 10 would ask about another job)
  echo PENDING >fake/job-103.state
  printf '103' >sb/a-1x2.job
  PATH=$work/fake:$PATH "$MG_CLI" campaign sb.spec --sbatch --dry-run >sb5.out 2>sb5.err
  grep -q "sb/a-1x2.job: empty or cut before its line break (an interrupted write?): ignored" sb5.err &&
    grep -q '^  \[1/2\] a-1x2: to run$' sb5.out && ok "a cut TREE/CONFIG.job: ignored, with a warning" ||
    fail "a cut .job: $(cat sb5.out sb5.err)"
  "$MG_CLI" campaign "$work/missing.spec" 2>err.txt
  (($? == 2)) && grep -q "missing.spec: cannot open" err.txt && ok "a missing spec" || fail "a missing spec: $(cat err.txt)"
  ;;
identity)
  "$MG_CLI" tune "$MG_DATA/launches/a" "$MG_DATA/other_host" -o "$work/p.prf" 2>err.txt
  rc=$?
  ((rc != 0)) && grep -q "ran on the machine fixture, launch 'launch-b' .* on elsewhere" err.txt && [[ ! -e p.prf ]] &&
    ok "tune refuses two machines" || fail "tune: exit $rc: $(cat err.txt)"
  "$MG_CLI" report "$MG_DATA/launches/a" "$MG_DATA/other_host" -o r.html 2>err.txt || die "report exited $?: $(cat err.txt)"
  [[ $(grep -c '<tr data-config=' r.html) == 2 ]] && ok "report: two configurations side by side" || fail "report pooled the machines"
  ;;
report)
  # the comparison sections of a campaign's report, against the golden file (fixtures: make_fixtures.py)
  "$MG_CLI" report "$MG_CP_DATA/tree" -o r.html 2>err.txt || die "report exited $?: $(cat err.txt)"
  sed -n '/<h2 id="guidelines-by-config">/,/<h2>Summary/p' r.html | sed '$d' >compare.html
  diff -u "$MG_CP_GOLDEN/compare.html" compare.html >diff.txt && ok "the comparison equals golden/compare.html" ||
    { cat diff.txt; fail "the comparison differs from golden/compare.html"; }
  for m in '<td>new violation</td>' '<td>violation gone</td>' '<td>default slower, at least ×2.94</td>' \
    '<td>processor</td><td>Fixture CPU 1</td><td>Fixture CPU 1</td>'; do
    grep -qF -- "$m" r.html && ok "has $m" || fail "lacks $m"
  done
  # a verify run twice (two launches): the spread of tuned/default per cell, both in one table
  "$MG_CLI" report "$MG_CP_DATA/verify-1" "$MG_CP_DATA/verify-2" -o v.html 2>err.txt || die "report of two verify results exited $?"
  grep -q '<table class="compare" data-spread="2">' v.html &&
    grep -qF '<td>allgather_as_alltoall</td><td class=n>0.628</td><td class=n>0.691</td><td class=n>0.628 – 0.691</td><td class=n>2 of 2</td>' v.html &&
    ok "verify over two launches: the spread" || fail "verify over two launches: no spread table"
  "$MG_CLI" report "$MG_CP_DATA/verify-1" -o v1.html 2>err.txt || die "report of one verify result exited $?"
  grep -q 'data-spread=' v1.html && fail "one verify result has a spread table" || ok "one verify result: no spread"
  # a configuration not measured yet is named, the others compared
  cp -r "$MG_CP_DATA/tree" tree && echo "config testmpi3-2x2" >>tree/campaign.spec
  "$MG_CLI" report tree -o r2.html 2>err2.txt || fail "report with a configuration missing exited $?"
  grep -q "configuration testmpi3-2x2 not measured yet" err2.txt && ok "a missing configuration named" ||
    fail "no word of the missing configuration: $(cat err2.txt)"
  # TREE/campaign.spec cut, or not one the campaign wrote: refused with file:line (issue 45)
  refused() { # NAME REGEX: report of tree/ refused with exit 2, REGEX on stderr
    "$MG_CLI" report tree -o "$1.html" 2>"$1.err"
    local rc=$?
    ((rc == 2)) && grep -Eq -- "$2" "$1.err" && [[ ! -e $1.html ]] && ok "report TREE refused: $1" ||
      fail "$1: exit $rc, stderr: $(cat "$1.err")"
  }
  printf 'config testmpi1-1x4\nconfig testmpi2-1x4\nconfigs 3\n' >tree/campaign.spec
  refused configs "tree/campaign.spec:3: the file ends early \\(truncated\\?\\): 2 configurations, its 'configs' line says 3"
  printf 'config testmpi1-1x4\nconfig testmpi2' >tree/campaign.spec
  refused cut "tree/campaign.spec:2: the last line has no line break"
  printf 'config testmpi1-1x4\nconfig ../testmpi2-1x4\n' >tree/campaign.spec
  refused dotdot "tree/campaign.spec:2: not 'config NAME'"
  printf 'config testmpi1-1x4\nconfig testmpi2-1x4\nconfigs 2\n' >tree/campaign.spec
  "$MG_CLI" report tree -o r3.html 2>err3.txt && ok "a campaign.spec with its configs line reads" ||
    fail "configs 2: exit $?: $(cat err3.txt)"
  ;;
libs)
  "$MG_CLI" report "$MG_CP_DATA/libs" -o l.html 2>err.txt || die "report of data/libs exited $?: $(cat err.txt)"
  "$MG_CLI" report "$MG_CP_DATA/noisy" -o n.html 2>err.txt || die "report of data/noisy exited $?: $(cat err.txt)"
  sed -n '/<h2 id="which-faster">/,/<h2 id="what-changed">/p' l.html >lf.html
  sed -n '/<h2 id="which-faster">/,/<h2 id="what-changed">/p' n.html >nf.html
  sed -n '/<h2 id="what-changed">/,/<h2>Summary/p' n.html >nc.html
  has() { # FILE TEXT WHAT
    grep -qF -- "$2" "$1" && ok "$3" || fail "$3: $1 lacks $2"
  }
  has l.html '<title>mpiguide report: Open MPI 4.1.4 vs MPICH 4.0.2</title>' "the title names both libraries"
  has l.html '<h1>mpiguide report: Open MPI 4.1.4 vs MPICH 4.0.2 — ' "the heading names both libraries"
  has lf.html '<h2 id="which-faster">Which library is faster</h2>' "the section of which library is faster"
  row() { grep -F "<tr data-verdict=\"$1\"><td>allreduce</td><td class=n>$2</td>" "$3"; }
  [[ $(row faster '8 B' lf.html) == *'<td>Open MPI 4.1.4 · 4 procs · mpirun</td><td class=n>×2.00 ['*'faster: the interval lies above 1'* ]] &&
    ok "8 B: Open MPI faster by 2" || fail "8 B: $(row faster '8 B' lf.html)"
  [[ $(row same '1 KiB' lf.html) == *'<td>the same</td>'* ]] && ok "1 KiB: the same" || fail "1 KiB: $(grep -F '1 KiB' lf.html)"
  [[ $(row faster '1 MiB' lf.html) == *'<td class=n>29.67 ms ['*'<td>MPICH 4.0.2 · 4 procs · srun --mpi=pmix</td><td class=n>×2.00 ['* ]] &&
    ok "1 MiB: MPICH faster by 2, latencies in ms" || fail "1 MiB: $(grep -F '1 MiB' lf.html)"
  [[ $(grep -c '<tr data-verdict="noise"><td>allreduce</td>' nf.html) == 3 ]] && ! grep -q '×' nf.html &&
    has nf.html 'tells nothing: noise dominates the run of MPICH 4.0.2 · 4 procs (Summary), so no ratio is given' \
      "a noise-dominated run: no ratio, tells nothing" || fail "a noise-dominated run compared: $(cat nf.html)"
  grep -q '<tr data-noise="1"><td colspan=6>tells nothing: noise dominates the run of MPICH 4.0.2' nc.html && ! grep -q '×' nc.html &&
    ok "What changed: nothing stated of a noise-dominated run" || fail "What changed of a noise-dominated run: $(cat nc.html)"
  # no latency in exponent notation anywhere on either page (a number, then e+NN or e-NN, then a unit)
  ! grep -Eq '[0-9]e[+-][0-9]+ ?(µs|ms|s)\b' l.html n.html && ok "no latency with an exponent" ||
    fail "a latency with an exponent: $(grep -Eo '[^>]{0,20}[0-9]e[+-][0-9]+ ?(µs|ms|s)' l.html n.html | head -3)"
  # the next step launches as the run was launched
  has l.html '<pre><code>srun --mpi=pmix -n 4 mpiguide verify --profile tuned.prof -o verify</code></pre>' "srun run: srun -n 4"
  has l.html 'MPIGUIDE_PROFILE=tuned.prof srun --mpi=pmix -n 4 ./app</code>' "srun run: the application by srun"
  grep -q -- '-- mpirun -np\|mpirun -np 4 mpiguide verify' l.html && fail "an srun run told to use mpirun" || ok "srun run: no mpirun"
  has n.html '<pre><code>mpiguide check --launches 3 -o recheck -- mpirun -np 4</code></pre>' "mpirun run: mpirun -np 4"
  # several results rather than a tree: one launch each, the same section, saying what one launch leaves out
  "$MG_CLI" report "$MG_CP_DATA/libs/openmpi-1x4/launch-1" "$MG_CP_DATA/libs/mpich-1x4/launch-1" -o two.html 2>err.txt ||
    die "report of two results exited $?: $(cat err.txt)"
  has two.html '<h1>mpiguide report: Open MPI 4.1.4 vs MPICH 4.0.2 — ' "two results: the heading names both libraries"
  [[ $(row faster '8 B' two.html) == *'one launch on a side: launch-to-launch variation is not covered'* ]] &&
    ok "two results of one launch each: faster, with the one-launch caveat" || fail "two results: $(row faster '8 B' two.html)"
  ;;
mpirun)
  # the launcher of the first configuration's 2nd launch interrupts the campaign as Ctrl-C would: SIGINT
  # to check --launches (its parent) and to the campaign (check's parent)
  cat >launcher.sh <<'SH'
#!/usr/bin/env bash
n=$(($(cat "$MG_COUNT" 2>/dev/null || echo 0) + 1))
echo "$n" >"$MG_COUNT"
if [[ -n ${MG_STOP_AT:-} ]] && ((n == MG_STOP_AT)); then
  kill -INT "$(ps -o ppid= -p "$PPID" | tr -d ' ')" "$PPID"
fi
exec "$@"
SH
  chmod +x launcher.sh
  export MG_COUNT=$work/count
  read -r -a flags <<<"${MG_MPIEXEC_FLAGS:-}"
  {
    echo "out $work/tree"
    echo "launches 2"
    echo "layouts 1x2"
    echo "mpi here $MG_CLI $work/launcher.sh timeout 100 $MG_MPIEXEC ${flags[*]} -n {np}"
    echo "mpi there $MG_CLI $work/launcher.sh env MPIGUIDE_LAUNCHER=there timeout 100 $MG_MPIEXEC ${flags[*]} -n {np}"
    echo "check -c bcast --sizes 8,64 --nrep 5 --warmup 1 -q --min-span 0" # the launches need not wait
  } >spec
  MG_STOP_AT=2 timeout 300 "$MG_CLI" campaign spec >out1.txt 2>err1.txt
  rc=$?
  cat out1.txt err1.txt
  ((rc == 1)) && ok "interrupted: exit 1" || fail "interrupted: exit $rc"
  grep -q "campaign: interrupted; the same command measures only what is missing" err1.txt && ok "interrupted: the message" ||
    fail "interrupted: no message"
  [[ -s tree/here-1x2/launch-1/raw.csv && ! -e tree/here-1x2.done && ! -e tree/there-1x2 ]] &&
    ok "interrupted: launch 1 kept, nothing marked done, the 2nd not begun" || fail "interrupted: $(ls -R tree)"
  id1=$(grep '^#@launch=' tree/here-1x2/launch-1/raw.csv)
  timeout 300 "$MG_CLI" campaign spec >out2.txt 2>err2.txt
  rc=$?
  cat out2.txt err2.txt
  ((rc == 0)) && ok "resumed: exit 0" || fail "resumed: exit $rc"
  grep -q "^  \[1/2\] here-1x2: interrupted: resumed (--resume)$" out2.txt && grep -q "^  \[2/2\] there-1x2: to run$" out2.txt &&
    ok "resumed: the plan says what it resumes and runs" || fail "resumed: the plan"
  grep -q "launch 1 of 2 finished before" err2.txt && [[ $(grep '^#@launch=' tree/here-1x2/launch-1/raw.csv) == "$id1" ]] &&
    ok "resumed: the finished launch kept, not measured again" || fail "resumed: launch 1 measured again"
  for c in here-1x2 there-1x2; do
    [[ -e tree/$c.done && -s tree/$c/verdicts.csv && -s tree/$c/launch-2/raw.csv ]] && ok "$c: done" || fail "$c: not done"
  done
  grep -qx '#@nnodes=1' tree/there-1x2/launch-1/raw.csv && grep -qx '#@ranks_per_node=2' tree/there-1x2/launch-1/raw.csv &&
    grep -qx '#@launcher=there' tree/there-1x2/launch-1/raw.csv && grep -q '^#@launcher=.' tree/here-1x2/launch-1/raw.csv && ok "the layout and launcher recorded" || fail "layout/launcher missing"
  before=$(cat count)
  timeout 60 "$MG_CLI" campaign spec >out3.txt 2>err3.txt || fail "a third run exited $?"
  [[ $(cat count) == "$before" ]] && grep -q "every configuration is done" out3.txt && ok "a third run measures nothing" ||
    fail "a third run launched again"
  sed -i 's/--nrep 5/--nrep 6/' spec
  timeout 60 "$MG_CLI" campaign spec >out4.txt 2>err4.txt
  rc=$?
  ((rc == 2)) && grep -q "measured by another command" err4.txt && [[ $(cat count) == "$before" ]] &&
    ok "a changed spec refused" || fail "a changed spec: exit $rc $(cat err4.txt)"
  "$MG_CLI" report tree -o r.html 2>err5.txt || die "report tree exited $?: $(cat err5.txt)"
  [[ $(grep -c '<tr data-config=' r.html) == 2 ]] && ok "report TREE: the two configurations" || fail "report TREE"
  # a launcher that does not place the planned layout (2 nodes x 1 on this one machine): not done
  sed -e 's/^layouts .*/layouts 2x1/' -e 's/^launches .*/launches 1/' -e "s|^out .*|out $work/tree2|" -e '/^mpi there/d' spec >spec2
  timeout 120 "$MG_CLI" campaign spec2 >out6.txt 2>err6.txt
  rc=$?
  ((rc == 1)) && grep -q "ran on 1 node(s) x 2 ranks, not the planned 2 x 1" err6.txt && [[ ! -e tree2/here-2x1.done ]] &&
    ok "a layout the launcher did not place: refused" || fail "a misplaced layout: exit $rc $(cat err6.txt)"
  ;;
*) die "unknown mode '$mode'" ;;
esac
finish
