# shellcheck shell=bash
# run_cluster.sh site: docs/site.md as a centre would try it, on the cluster in a box (sourced by
# run_cluster.sh, whose on_head, watch, mpi_env_of, ok, fail and die it uses).
#
#   - the Debian packages of this build (mpiguide-<mpi>, mpiguide-common) and of the other MPI's
#     build (mpiguide-<other>, when its build directory is there), made by cpack and unpacked
#     with dpkg -x into one root: only their files are used from here on;
#   - a confirmed profile (its `verify: confirmed` line) for this MPI at 4 processes on 2 x 2,
#     published with the unpacked `mpiguide site publish` into a store; the unpacked
#     mpiguide-site modulefile edited to name that store, as a site edits it;
#   - on the head node, a login shell with `module load mpiguide-site` and nothing else:
#       job     this MPI's nodes.c through srun on 2 x 2 runs the store's rule (its 4-byte
#               allreduce as reduce + bcast, with the library's result: nodes.c checks the node
#               count it sums); its trace, named by %j, names the release, the hash publish
#               printed, an exact match and the rule's line;
#       other   the other MPI's nodes.c: gets its own libmpiguide (a trace), no profile for it
#               in the store: silent; with that package removed: exit 0, one warning, untuned;
#       off     MPIGUIDE=off: no libmpiguide in the ranks (no trace), no message;
#       rollback  a second release published, then rolled back: the next job runs release 1's.
# Environment beyond run_cluster.sh's: MG_BUILD (this build), MG_OTHER_BUILD (the other MPI's).
: "${MG_BUILD:?}" "${MG_OTHER_BUILD:?}"
other=mpich
[[ $MG_FLAVOR == mpich ]] && other=openmpi
version=$("$MG_CLI" --version | awk '{print $2}')
root=$work/root
mkdir -p "$root" debs
pack() { # BUILD PACKAGE
  cpack --config "$1/CPackDeb-mpiguide-$2.cmake" -B "$work/cpack-$2" >"cpack-$2.log" 2>&1 &&
    mv "$work/cpack-$2"/*.deb debs/ && dpkg -x debs/mpiguide-"$2"_*.deb "$root"
}
pack "$MG_BUILD" "$MG_FLAVOR" || die "cpack mpiguide-$MG_FLAVOR: $(tail -3 "cpack-$MG_FLAVOR.log")"
pack "$MG_BUILD" common || die "cpack mpiguide-common: $(tail -3 cpack-common.log)"
have_other=0
if [[ -x $MG_OTHER_BUILD/mpiguide && -x $MG_OTHER_BUILD/tests/cluster/mg_cluster_nodes ]]; then
  pack "$MG_OTHER_BUILD" "$other" || die "cpack mpiguide-$other: $(tail -3 "cpack-$other.log")"
  have_other=1
else
  echo "run_cluster: site: no build of $other in $MG_OTHER_BUILD: the other MPI's job is not tried" >&2
fi
ok "packages unpacked: $(cd debs && echo *.deb)"
mg() { MPIGUIDE_MPI=$MG_FLAVOR "$root/usr/bin/mpiguide" "$@"; } # the installed command

# ---- the store, and the site's module naming it ----
store=$work/store
mkdir -p probe
libkey=$(mg site which --np 1 --store "$work/probe" 2>/dev/null | sed -n 's/^job: \(.*\) (directory .*), np=1$/\1/p')
[[ -n $libkey ]] || die "site which names no library"
profile() { # FILE ALG: allreduce at 4 processes, 1-16 B (nodes.c's 4-byte sum) by ALG, confirmed
  { echo "mpiguide-profile 3"
    echo "# np=4: MPI library: $libkey"
    echo "# np=4: layout: 2 node(s) x 2 ranks per node"
    echo "# verify: confirmed 1 of 1 rules, 2026-12-03T07:00:00Z, $libkey, np=4, 2 node(s) x 2 ranks per node"
    echo "allreduce np=4 1-16 $2"
    echo "end-of-profile rules=1"; } >"$1"
}
profile site1.prof allreduce_as_reduce_bcast
mg site publish --store "$store" site1.prof >publish1.txt 2>&1 || { cat publish1.txt; die "site publish failed"; }
hash1=$(sed -n 's/.* hash \([0-9a-f]\{16\}\).*/\1/p' publish1.txt | head -n 1)
grep -q "current -> releases/r0001" publish1.txt && [[ -n $hash1 ]] && ok "published r0001 (hash $hash1)" ||
  { cat publish1.txt; die "publish did not make r0001 with a hash"; }
modfile=$(echo "$root"/usr/share/modulefiles/mpiguide-site/"$version".lua)
[[ -f $modfile ]] || die "no mpiguide-site modulefile in mpiguide-common ($modfile)"
grep -q '"/etc/mpiguide/profiles"' "$modfile" || die "the mpiguide-site module names no /etc/mpiguide/profiles store"
sed -i "s#\"/etc/mpiguide/profiles\"#\"$store\"#" "$modfile" # what a site with its store elsewhere does

# site_job NAME FLAVOR [VAR=VALUE...] -- CMD...: CMD through srun on 2 x 2 (FLAVOR's PMI and
# settings) from a login shell on head with `module load mpiguide-site` alone; stdout in NAME.out,
# stderr in NAME.err; its exit status. MPICH's finalize hang is bounded as everywhere here (watch).
site_job() {
  local name=$1 fl=$2 vars=()
  shift 2
  while [[ $1 != -- ]]; do vars+=("$1"); shift; done
  shift
  mpi_env_of "$fl"
  local cmd
  printf -v cmd '%q ' srun -N 2 -n 4 --ntasks-per-node=2 --mpi="$pmi_of" "$@"
  MG_FLAVOR=$fl watch "^nodes: OK" "$name.out" "$name.err" timeout -k 5 100 "$C" exec head env "${env_of[@]}" "${vars[@]}" \
    bash -c "source /usr/share/lmod/lmod/init/bash && export MODULEPATH=$root/usr/share/modulefiles &&
             module load mpiguide-site && exec $cmd"
}
trace_of() { ls "$work"/trace-"$1"-*.csv 2>/dev/null | head -n 1; } # the trace a job named by %j
key() { sed -n "s/^#@$2=//p" "$1" | head -n 1; }

# ---- a user's job of this MPI ----
site_job job "$MG_FLAVOR" "MPIGUIDE_TRACE=$work/trace-job-%j.csv" -- "$MG_NODES" 2 2
rc=$?
cat job.out job.err
((rc == 0)) && grep -q "^nodes: OK" job.out || die "the user's job: exit $rc, or nodes.c not OK"
t=$(trace_of job)
[[ -n $t && $t != *%j* && $t =~ trace-job-[0-9]+\.csv$ ]] && ok "the job's trace, named by its Slurm job id: ${t##*/}" ||
  die "no trace named by the job id (trace-job-<id>.csv) in $work"
[[ $(key "$t" profile_release) == r0001 && $(key "$t" profile_hash) == *"$hash1"* && $(key "$t" profile_match) == exact ]] &&
  ok "the trace names release r0001, the published hash and an exact match" ||
  fail "trace header: release '$(key "$t" profile_release)' hash '$(key "$t" profile_hash)' (want $hash1) match '$(key "$t" profile_match)'"
rows=$(awk -F, '!/^#/ && $1 == "allreduce" && $3 == "allreduce_as_reduce_bcast" && $8 ~ /^line [0-9]+$/' "$t" | wc -l)
((rows >= 1)) && ok "the 4-byte allreduce ran the store's rule (nodes.c's node count right)" ||
  fail "no allreduce row run by allreduce_as_reduce_bcast from a rule line: $(grep '^allreduce' "$t" | head -3)"
if grep -q 'mpiguide' job.err; then fail "the user's job printed: $(grep mpiguide job.err | head -3)"
else ok "the user's job: no message"; fi

# ---- a job of the other MPI ----
if ((have_other)); then
  onodes=$MG_OTHER_BUILD/tests/cluster/mg_cluster_nodes
  site_job other "$other" "MPIGUIDE_TRACE=$work/trace-other-%j.csv" -- "$onodes" 2 2
  rc=$?
  cat other.out other.err
  ((rc == 0)) && grep -q "^nodes: OK" other.out || fail "the other MPI's job: exit $rc, or nodes.c not OK"
  t=$(trace_of other)
  if [[ -n $t ]] && [[ -z $(key "$t" profile_release) ]] && ! grep -q mpiguide other.err; then
    ok "the $other job ran under its own libmpiguide (a trace), no profile for it in the store, no message"
  else fail "the $other job: trace '${t:-none}', release '$(key "${t:-/dev/null}" profile_release)', messages: $(grep mpiguide other.err | head -2)"; fi
  rm -rf "$root"/usr/lib/*/mpiguide/"$other" # its package removed
  site_job other2 "$other" "MPIGUIDE_TRACE=$work/trace-other2-%j.csv" -- "$onodes" 2 2
  rc=$?
  cat other2.out other2.err
  n=$(grep -c "^mpiguide: warning: no libmpiguide for" other2.err)
  if ((rc == 0)) && grep -q "^nodes: OK" other2.out && ((n == 1)) && [[ -z $(trace_of other2) ]]; then
    ok "without its package the $other job runs untuned: exit 0, one warning, no trace"
  else fail "without its package the $other job: exit $rc, $n warning line(s) (want 1), trace '$(trace_of other2)'"; fi
fi

# ---- the off switch ----
site_job off "$MG_FLAVOR" MPIGUIDE=off "MPIGUIDE_TRACE=$work/trace-off-%j.csv" -- "$MG_NODES" 2 2
rc=$?
cat off.out off.err
if ((rc == 0)) && grep -q "^nodes: OK" off.out && [[ -z $(trace_of off) ]] && ! grep -q mpiguide off.err; then
  ok "MPIGUIDE=off: no libmpiguide in the ranks (no trace), no message"
else fail "MPIGUIDE=off: exit $rc, trace '$(trace_of off)', messages: $(grep mpiguide off.err | head -2)"; fi

# ---- a second release, then the rollback ----
profile site2.prof allreduce_as_reducescatterblock_allgather
mg site publish --store "$store" site2.prof >publish2.txt 2>&1 || { cat publish2.txt; die "the second publish failed"; }
mg site rollback --store "$store" >rollback.txt 2>&1 || { cat rollback.txt; die "rollback failed"; }
grep -q "current -> releases/r0001 (was r0002)" rollback.txt && ok "rolled back: $(cat rollback.txt)" ||
  fail "rollback said: $(cat rollback.txt)"
site_job after "$MG_FLAVOR" "MPIGUIDE_TRACE=$work/trace-after-%j.csv" -- "$MG_NODES" 2 2
rc=$?
t=$(trace_of after)
((rc == 0)) && [[ -n $t && $(key "$t" profile_release) == r0001 ]] && ok "the job after the rollback ran release r0001" ||
  fail "after the rollback: exit $rc, release '$(key "${t:-/dev/null}" profile_release)'"
