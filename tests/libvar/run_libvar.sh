#!/usr/bin/env bash
# The library's own algorithms as contenders (docs/libvar.md; tests/libvar/CMakeLists.txt):
#   run_libvar.sh bench NP     bench --lib-variants all: labelled rows lib:NAME for every variant of
#                              #@lib_variants, none named like a registry row, the default's rows
#                              kept; Open MPI: the variants found through MPI_T are those ompi_info
#                              lists (when ompi_info is on PATH)
#   run_libvar.sh bad NP       --lib-variants allreduce=bogus and reduce=...: exit 2 on every rank,
#                              the message names the bad name and the valid ones, no file left
#   run_libvar.sh check NP     check --lib-variants: libvariants.csv and libverdicts.csv, no lib: row
#                              among the guideline verdicts, the summary's section, the report's
#                              section (curves of the default, a mock-up and the variants; winners)
#   run_libvar.sh tune KIND    tune on synthetic data (make_synthetic.sh): the library's setting file
#                              with the winning variant, no mock-up rule for its cell
#   run_libvar.sh verify NP    verify --lib-settings on tune's setting from synthetic data: two
#                              labelled launches, a complete libverify.csv row per rule size
#   run_libvar.sh rules NP     Open MPI: a rules file written by tune is read by coll/tuned: the
#                              fingerprint of MPI_Allreduce under it equals the one of the algorithm
#                              forced through coll_tuned_allreduce_algorithm, and differs from the
#                              default's (mg_fingerprint)
# Environment: MG_MPIEXEC, MG_MPIEXEC_FLAGS, MG_CLI, MG_FP (mg_fingerprint), MG_FLAVOR, MG_WORKDIR.
set -u
mode=$1 arg=$2
work=$MG_WORKDIR
rm -rf "$work"
mkdir -p "$work"
read -r -a flags <<<"${MG_MPIEXEC_FLAGS:-}"
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
MODE=$mode
run() { local np=$1; shift; timeout -k 10 120 "$MG_MPIEXEC" -n "$np" "${flags[@]}" "$@"; }
meta() { sed -n "s/^#@$1=//p" "$2" | head -1; }

case $mode in
bench)
  run "$arg" "$MG_CLI" bench --coll allreduce,bcast --alg default --sizes 8,4K --nrep 5 --warmup 1 \
    --lib-variants all -o "$work/raw.csv" -q || die "bench exited with $?"
  lv=$(meta lib_variants "$work/raw.csv")
  [[ -n $lv ]] || die "no #@lib_variants line"
  [[ -n $(meta lib_variant_values "$work/raw.csv") ]] || die "no #@lib_variant_values line"
  want="default"
  for cv in ${lv//;/ }; do
    coll=${cv%%=*}
    IFS=, read -r -a vs <<<"${cv#*=}"
    for v in "${vs[@]}"; do
      want+=$'\n'"lib:$v"
      n=$(grep -c "^$coll,lib:$v,4096," "$work/raw.csv")
      ((n == 6)) || die "$coll lib:$v at 4096 bytes: $n rows, expected 6 (5 + 1 warm-up)"
    done
    n=$(grep -c "^$coll,default,4096," "$work/raw.csv")
    ((n == 6)) || die "$coll default at 4096 bytes: $n rows, expected 6"
  done
  # every row is the default or a labelled variant of #@lib_variants (registry names have no ':')
  got=$(grep -v '^#' "$work/raw.csv" | tail -n +2 | cut -d, -f2 | sort -u)
  [[ $got == "$(sort -u <<<"$want")" ]] || die "algorithms in raw.csv: $(echo $got), expected $(echo $want)"
  if [[ $MG_FLAVOR == openmpi ]] && command -v ompi_info >/dev/null; then
    want=$(ompi_info --param coll tuned --level 9 --parsable |
      sed -n 's/^mca:coll:tuned:param:coll_tuned_allreduce_algorithm:enumerator:value:\([1-9][0-9]*\):\(.*\)$/\2/p' |
      paste -sd, -)
    got=$(sed -n 's/^#@lib_variants=.*allreduce=\([^;]*\).*/\1/p' "$work/raw.csv")
    [[ $got == "$want" ]] || die "MPI_T found allreduce=$got, ompi_info lists $want"
  fi
  ;;
bad)
  run "$arg" "$MG_CLI" bench --coll allreduce --lib-variants 'allreduce=bogus' -o "$work/raw.csv" \
    >"$work/out" 2>&1
  rc=$?
  cat "$work/out"
  ((rc == 2)) || die "exit $rc, expected 2"
  grep -q "allreduce has no variant 'bogus'" "$work/out" || die "the message does not name 'bogus'"
  grep -q "valid: .*recursive_doubling.*, or all" "$work/out" || die "the message does not list the valid names"
  ((n = $(grep -c "no variant 'bogus'" "$work/out"), n == 1)) || die "the message came $n times"
  run "$arg" "$MG_CLI" check -c allreduce --lib-variants 'reduce=all' -o "$work/c" >"$work/out" 2>&1
  rc=$?
  cat "$work/out"
  ((rc == 2)) || die "check: exit $rc, expected 2"
  grep -q "reduce is not among the collectives measured" "$work/out" || die "check: no message"
  [[ ! -e $work/raw.csv && ! -e $work/c ]] || die "files left behind"
  ;;
check)
  run "$arg" "$MG_CLI" check -c allreduce --sizes 16,64K --nrep 20 --lib-variants all -o "$work/c" -q ||
    die "check exited with $?"
  for f in libvariants.csv libverdicts.csv verdicts.csv summary.txt; do [[ -s $work/c/$f ]] || die "no $f"; done
  grep -q ',lib:' "$work/c/verdicts.csv" && die "a library variant among the guideline verdicts"
  grep -q '^allreduce,[0-9]*,\(\|"\)lib:' "$work/c/libverdicts.csv" || die "no lib: row in libverdicts.csv"
  n=$(grep -c '^allreduce,' "$work/c/libvariants.csv")
  ((n == 4)) || die "libvariants.csv: $n cells, expected 4 (2 sizes x 2 pairs)"
  grep -Eq ',(mock-up|library variant|default|inconclusive)$' "$work/c/libvariants.csv" || die "no winner column"
  grep -q '^library variants' "$work/c/summary.txt" || die "no section in summary.txt"
  # the report: the section, a latency plot with the default, a mock-up and library variants, the table
  h=$work/c/report.html
  grep -q 'id="libvar-' "$h" || die "no library-variant section in report.html"
  sec=$(sed -n '/id="libvar-/,/<\/table>/p' "$h")
  grep -q 'class="lat" data-alg="default"' <<<"$sec" || die "report: no default curve in the section"
  grep -q 'class="lat" data-alg="allreduce_as_' <<<"$sec" || die "report: no mock-up curve in the section"
  grep -q 'class="lat" data-alg="lib:' <<<"$sec" || die "report: no library-variant curve in the section"
  n=$(grep -c 'data-winner=' <<<"$sec")
  ((n == 4)) || die "report: $n rows in the winners' table, expected 4"
  ;;
tune)
  kind=$arg
  if [[ $kind == openmpi ]]; then v=basic_linear val=1 ext=ompi-rules; else v=recursive_doubling val=3 ext=mpich.env; fi
  bash "$(dirname "$0")/make_synthetic.sh" "$work/raw.csv" "$kind" 4 "$v" "$val" || die "make_synthetic failed"
  mkdir -p "$work/c" && mv "$work/raw.csv" "$work/c/"
  "$MG_CLI" tune "$work/c" -o "$work/p.prof" >"$work/out" 2>&1 || { cat "$work/out"; die "tune exited with $?"; }
  cat "$work/out" "$work/p.prof.$ext"
  grep -q "library variants won 1 range" "$work/out" || die "tune does not report the library variant"
  grep -q "use: .*$work/p.prof.$ext" "$work/out" || die "no command line that uses the file"
  grep -q '^allreduce .*65536\|^allreduce .*64K' "$work/p.prof" && die "a mock-up rule where the library variant wins"
  if [[ $kind == openmpi ]]; then
    # 1 collective; id 2 (ALLREDUCE); 2 communicator sizes: 4 (0: default, 65536: 1, 65537: default), 5 (default)
    got=$(grep -v '^#' "$work/p.prof.$ext" | sed 's/ *#.*//' | paste -sd' ' -)
    [[ $got == "1 2 2 4 3 0 0 0 0 65536 1 4 0 65537 0 0 0 5 1 0 0 0 0" ]] || die "rules file: '$got'"
  else
    grep -qx 'MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=recursive_doubling' "$work/p.prof.$ext" && die \
      "a CVAR written for a variant that won only one of the sizes"
    grep -q "^# not written: allreduce np=4 65536..65536 bytes lib:recursive_doubling" "$work/p.prof.$ext" ||
      die "the MPICH file does not say why the setting is not written"
  fi
  ;;
rules)
  np=$arg
  bash "$(dirname "$0")/make_synthetic.sh" "$work/raw.csv" openmpi "$np" basic_linear 1 || die "make_synthetic failed"
  mkdir -p "$work/c" && mv "$work/raw.csv" "$work/c/"
  "$MG_CLI" tune "$work/c" -o "$work/p.prof" -q || die "tune exited with $?"
  # fp COUNT VAR=VALUE...: the fingerprint of an MPI_Allreduce of COUNT doubles in that environment
  fp() { local n=$1; shift; run "$np" env OMPI_MCA_coll_tuned_use_dynamic_rules=1 "$@" "$MG_FP" "$n" | sed -n 's/^fingerprint //p'; }
  rules=OMPI_MCA_coll_tuned_dynamic_rules_filename="$work/p.prof.ompi-rules"
  def=$(fp 8192 OMPI_MCA_coll_tuned_allreduce_algorithm=0)
  forced=$(fp 8192 OMPI_MCA_coll_tuned_allreduce_algorithm=1)
  ruled=$(fp 8192 "$rules")
  other=$(fp 16384 "$rules")
  defo=$(fp 16384 OMPI_MCA_coll_tuned_allreduce_algorithm=0)
  echo "default $def, forced basic_linear $forced, rules file $ruled; 128 KiB: rules $other, default $defo"
  [[ -n $def && -n $forced && -n $ruled ]] || die "a run failed"
  [[ $def != "$forced" ]] || die "the fingerprint cannot tell basic_linear from the default at $np ranks"
  [[ $ruled == "$forced" ]] || die "under the rules file MPI_Allreduce did not run basic_linear"
  [[ $other == "$defo" ]] || die "outside the rule's range (128 KiB) the rules file changed the algorithm"
  ;;
verify)
  # tune's setting from synthetic data, measured by verify --lib-settings in two labelled launches
  np=$arg
  if [[ $MG_FLAVOR == openmpi ]]; then k=openmpi v=basic_linear val=1 ext=ompi-rules; else k=mpich v=recursive_doubling val=3 ext=mpich.env; fi
  bash "$(dirname "$0")/make_synthetic.sh" "$work/raw.csv" "$k" "$np" "$v" "$val" both || die "make_synthetic failed"
  mkdir -p "$work/c" && mv "$work/raw.csv" "$work/c/"
  "$MG_CLI" tune "$work/c" -o "$work/p.prof" -q || die "tune exited with $?"
  cat "$work/p.prof.$ext"
  [[ $k == openmpi ]] || grep -qx "MPIR_CVAR_ALLREDUCE_INTRA_ALGORITHM=$v" "$work/p.prof.$ext" || die "no CVAR written"
  timeout -k 10 120 "$MG_CLI" verify --lib-settings "$work/p.prof.$ext" -o "$work/v" --nrep 20 -- \
    "$MG_MPIEXEC" -n "$np" "${flags[@]}" >"$work/out" 2>&1
  rc=$?
  cat "$work/out"
  ((rc == 0)) || die "verify exited with $rc"
  f=$work/v/libverify.csv
  for s in 16 65536; do
    grep -Eq "^allreduce,$s,lib:$v,20,20,[^,]+,[^,]+,[^,]+,[^,]+,[^,]+,(faster|same|slower)$" "$f" ||
      die "libverify.csv: no complete row for allreduce $s"
  done
  a=$(meta launch_default "$f") b=$(meta launch_setting "$f")
  [[ -n $a && -n $b && $a != "$b" ]] || die "the two launches are not told apart ($a, $b)"
  grep -q 'launch 1 = default (no setting), launch 2 = library setting' "$work/out" || die "no labels in the table"
  # the same setting cut before its last line break: refused with its line, nothing launched (issue 45)
  printf '%s' "$(cat "$work/p.prof.$ext")" >"$work/cut.$ext"
  "$MG_CLI" verify --lib-settings "$work/cut.$ext" -o "$work/v2" -- false >/dev/null 2>"$work/cut.err"
  rc=$?
  ((rc != 0)) && grep -q "cut.$ext:[0-9]*: the last line has no line break" "$work/cut.err" && [[ ! -e $work/v2/libverify.csv ]] ||
    die "a cut setting: exit $rc, $(cat "$work/cut.err")"
  ;;
*) die "unknown mode $mode" ;;
esac
finish
