#!/usr/bin/env bash
# The cluster in a box (scripts/cluster.sh, docs/cluster.md) as CI drives it: one cluster of 2
# nodes brought up by the `up` case (a CTest fixture), used by the others, taken down by `down`.
#
#   run_cluster.sh up           bring-up: every node has its hostname, address and daemons, Slurm
#                               sees the nodes idle; `up` again, `exec` on an unknown node fail
#                               with a message and change nothing
#   run_cluster.sh refuse       (no cluster needed) a missing package and `down` without `up`:
#                               a message naming what is missing, nothing built
#   run_cluster.sh slurm        srun hostname on every node; sbatch --wait and salloc
#   run_cluster.sh mpi LAUNCH   nodes.c on 2 nodes x 2 ranks: MPI_COMM_TYPE_SHARED sees 2 nodes
#                               of 2 (LAUNCH: mpirun = the MPI's own launcher with a hostfile and
#                               the rsh agent; srun = Slurm's direct launch, PMIx or PMI-2)
#   run_cluster.sh check LAUNCH mpiguide check -c allreduce --sizes 8,1K (int:sum; the default against
#                               reduce+bcast, hier and lane: 4 busy-polling MPICH ranks on 2 cores
#                               take up to 0.2 s a call here), one launch: results written by
#                               the launch itself (MPICH's MPI_Finalize hang ended by check's
#                               watchdog, noted), raw.csv's layout: 2 nodes, 2 ranks per node,
#                               hosts n1:2,n2:2
#   run_cluster.sh layout-names bench on 3 + 1 (srun -m arbitrary -w n1,n1,n1,n2): the layout
#                               recorded is the names' (n1:3,n2:1), MPICH's other view of
#                               MPI_COMM_TYPE_SHARED in #@hosts_shared and noted once
#   run_cluster.sh hier [LAYOUT] difftest on the hier and lane rows over srun, real nodes, no
#                               MPIGUIDE_NODE_SIZE; LAYOUT 2x2 (the default) or an uneven A+B (A
#                               ranks on n1, B on n2: 2+1, 3+2), where the hier rows run on nodes of
#                               unequal size and the lane rows fall back on MPI_COMM_WORLD
#   run_cluster.sh layout       nodes.c on 2 x 2 (srun) under libmpiguide with a profile tuned
#                               (offline, from fixtures) on 1 node x 4, on 2 x 2 and on 3 + 1: the
#                               first and the last warn that they were measured on another layout,
#                               the 2 x 2 one does not; the trace records #@nnodes=2,
#                               #@ranks_per_node=2 and #@hosts=n1:2,n2:2
#   run_cluster.sh campaign     mpiguide campaign of 1x2 and 2x1 through srun inside salloc, 2 launches:
#                               killed after the first launch, resumed by the rerun (only the rest
#                               measured), each layout and the launcher in raw.csv, report TREE
#   run_cluster.sh campaign-sbatch  mpiguide campaign --sbatch: a job per configuration (1x2, 2x1),
#                               one cancelled (scancel) in its second launch; the rerun with --wait
#                               submits it anew, which resumes it (launch 1 kept), and waits
#   run_cluster.sh campaign4    a bed of its own (up --nodes 4 --cpus 4, down at the end): mpiguide
#                               campaign of 1x4, 2x2 and 4x1 through srun inside salloc, 2 launches,
#                               killed in 1x4's second launch and resumed; the report compares them
#   run_cluster.sh online       online tuning (MPIGUIDE_PROFILE=auto) on 2 x 2 through srun:
#                               tests/online's online_app calls allreduce (8 B) often enough that its
#                               cell explores; the hier and lane rows are among the rows it tries
#                               (real nodes, no MPIGUIDE_NODE_SIZE), every call ran one algorithm on
#                               every rank and gave the library's result; the learned profile
#                               records 2 node(s) x 2 ranks per node, and a run with it on 3 + 1
#                               warns that it was learned on another layout, one on 2 x 2 does not
#   run_cluster.sh loggp        mpiguide loggp on 2 x 2 through srun: an intra- and an inter-node pair
#   run_cluster.sh rma          the one-sided rows forced on 2 x 2 through srun (rma_app.c): Open MPI
#                               cannot make a window between nodes here, so every call falls back
#                               (no_window) with the library's result; MPICH makes one and runs them
#   run_cluster.sh site         docs/site.md as a centre tries it (site_case.sh): both MPIs' packages
#                               unpacked, a confirmed profile published into a store, `module load
#                               mpiguide-site` alone on head: a job of this MPI runs the store's rule
#                               (trace by %j: release, hash, exact match), one of the other MPI gets its
#                               own libmpiguide, and without its package runs untuned (one warning);
#                               MPIGUIDE=off: no libmpiguide; a rollback reaches the next job
#   run_cluster.sh down         tear-down: no holder, daemon, namespace, veth, bridge, mount or file
#                               left; `down` again fails with a message
#
# Environment: MG_FLAVOR (openmpi or mpich), MG_MPIEXEC, MG_CLI (mpiguide), MG_LIB (libmpiguide), MG_NODES (nodes.c),
# MG_DIFFTEST, MG_ONLINE_APP (tests/online's online_app), MG_RMA_APP (tests/intercept's mg_rma_app), MG_HIER_ROWS (2x2), MG_HIER_ROWS_UNEVEN (A+B), MG_WORKDIR (this case's scratch, in the build tree: the nodes see
# it), MG_CLUSTER_STATE (the cluster's state directory), MG_SRC (the source tree).
# Needs root and a kernel that gives namespaces; without them the case fails and says so.
set -u
unset OMPI_MCA_odls_base_sigkill_timeout # the cluster's launches keep Open MPI's own kill timing (tests/CMakeLists.txt)
mode=$1
launch=${2:-}
C="$MG_SRC/scripts/cluster.sh"
RSH="$MG_SRC/scripts/cluster-rsh"
work=$MG_WORKDIR
rm -rf "$work"
mkdir -p "$work"
cd "$work" || exit 1
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
MODE="$mode${launch:+ $launch}"
[[ $(id -u) -eq 0 ]] || die "needs root (namespaces, veth links, tc); run the cluster label as root"
export MG_CLUSTER_STATE

# The MPI's settings inside the cluster: TCP only on the cluster's network between nodes, shared
# memory within. Open MPI: ob1 with the tcp btl on 10.99.0.0/24 and vader; ranks yield when idle
# (4 ranks on this machine's 2 cores). MPICH (ch4:ucx): UCX over TCP on eth0 between nodes (its own
# POSIX shared memory within a node); UCX_FLUSH_WORKER_EPS=n: without it, MPI_Finalize sometimes
# hangs, one rank flushing its TCP endpoints while the others already wait in the PMI barrier.
# mpi_env_of FLAVOR: FLAVOR's settings into env_of, its PMI plugin for srun into pmi_of
mpi_env_of() {
  if [[ $1 == openmpi ]]; then
    env_of=(OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,vader,tcp
      OMPI_MCA_btl_tcp_if_include=10.99.0.0/24 OMPI_MCA_oob_tcp_if_include=10.99.0.0/24
      OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_rmaps_base_oversubscribe=1)
    pmi_of=pmix
  else
    env_of=(UCX_TLS=tcp,self UCX_NET_DEVICES=eth0 UCX_FLUSH_WORKER_EPS=n)
    pmi_of=pmi2
  fi
}
mpi_env_of "$MG_FLAVOR"
mpi_env=("${env_of[@]}") pmi=$pmi_of

# on_head CMD...: CMD on the cluster's head node (the login node), bounded in time
on_head() { timeout -k 5 100 "$C" exec head env "${mpi_env[@]}" "$@"; }

# run_mpi LAUNCH NP CMD...: CMD on 2 nodes x NP/2 ranks, through srun or the MPI's launcher;
# LAUNCH srun-block: NP ranks on 2 nodes in blocks, ceil(NP/2) on n1 and the rest on n2 (-O: Slurm
# gives a node 2 CPUs, 3 ranks on one overcommit it)
run_mpi() {
  local how=$1 np=$2
  shift 2
  # MPICH: every rank's stdout line-buffered, so that watch sees the marker a rank printed before
  # it entered MPI_Finalize (a file is otherwise written only at exit)
  [[ $MG_FLAVOR == mpich ]] && set -- stdbuf -oL "$@"
  case $how in
    srun) on_head srun -N 2 -n "$np" --ntasks-per-node=$((np / 2)) --mpi=$pmi "$@" ;;
    srun-block) on_head srun -N 2 -n "$np" -O -m block --mpi=$pmi "$@" ;;
    srun-3+1) on_head srun -N 2 -n 4 -O -m arbitrary -w n1,n1,n1,n2 --mpi=$pmi "$@" ;; # np: 4
    mpirun)
      if [[ $MG_FLAVOR == openmpi ]]; then
        "$C" hostfile $((np / 2)) >"$work/hosts" || return 1
        on_head "$MG_MPIEXEC" --hostfile "$work/hosts" -np "$np" --map-by slot --mca plm_rsh_agent "$RSH" "$@"
      else
        "$C" hostfile --mpich $((np / 2)) >"$work/hosts" || return 1
        on_head "$MG_MPIEXEC" -f "$work/hosts" -n "$np" -launcher ssh -launcher-exec "$RSH" "$@"
      fi
      ;;
    *) die "unknown launcher '$how' (mpirun or srun)" ;;
  esac
}

# watch MARKER OUT ERR CMD...: CMD with stdout in OUT, stderr in ERR; its exit code. For MPICH
# only: once OUT shows MARKER, or file:PATH exists (the work is done and checked), the job gets 15 s to finish; if it
# is still in MPI_Finalize then, it is stopped and counted as done, with a note. Debian's MPICH
# 4.0.2 with UCX 1.13 over TCP hangs there in about a third of 2 x 2 runs (one rank waits for an
# endpoint to flush while its peer already waits in the PMI barrier; 1 rank per node never did);
# docs/cluster.md. Open MPI gets no such allowance.
# tree PID: PID and all its descendants (what this script started: the launcher on head and its
# children), so that a stop reaches srun or mpiexec, which cancel the job
tree() {
  local c
  echo "$1"
  for c in $(cat /proc/"$1"/task/*/children 2>/dev/null); do tree "$c"; done
}

watch() {
  local marker=$1 out=$2 err=$3 pid i seen=-1
  shift 3
  "$@" >"$out" 2>"$err" &
  pid=$!
  [[ $MG_FLAVOR == mpich ]] || { wait $pid; return; }
  for ((i = 0; i < ${WATCH_LIMIT:-120} * 2; i++)); do # at most 120 s (on_head's own limit is 100 s)
    kill -0 $pid 2>/dev/null || { wait $pid; return; }
    if ((seen < 0)); then # MARKER: a line of OUT, or file:PATH (written whole: by a rename)
      # (check rewrites raw.csv every few seconds while it measures, marked #@check_incomplete)
      if [[ $marker == file:* ]]; then
        [[ -e ${marker#file:} ]] && ! grep -q '^#@check_incomplete' "${marker#file:}" && seen=$i
      else grep -q -- "$marker" "$out" && seen=$i; fi
    fi
    if ((seen >= 0 && i - seen >= 30)); then
      kill -TERM $(tree $pid) 2>/dev/null
      wait $pid
      echo "run_cluster: NOTE: MPICH did not leave MPI_Finalize within 15 s after the work was done and checked; stopped (the known MPICH 4.0.2 + UCX TCP finalize hang, docs/cluster.md)" |
        tee -a "$work/note.txt" >&2
      return 0
    fi
    sleep 0.5
  done
  kill -TERM $(tree $pid) 2>/dev/null
  wait $pid
}

# write_gate: ./gate.sh, a launcher prefix for the campaign cases: it passes the first call and holds
# the second one made (once: a job that starts while it holds passes) until the test kills or
# cancels it, writing gate.held (the holding Slurm job's id, whole: by a rename); with gate.open
# present everything passes. The kill lands at one place whatever the machine's speed (a launch
# takes 0.2 s on a fast one, quicker than any polling).
write_gate() {
  cat >gate.sh <<'GATE'
#!/usr/bin/env bash
d=$(dirname "$0")
echo x >>"$d/gate.calls"
if [[ ! -e $d/gate.open && $(wc -l <"$d/gate.calls") -ge 2 ]] && mkdir "$d/gate.once" 2>/dev/null; then
  echo "${SLURM_JOB_ID:-}" >"$d/gate.held.tmp" && mv "$d/gate.held.tmp" "$d/gate.held"
  for ((i = 0; i < 200; i++)); do sleep 0.5; done # bounded: the test stops it long before
  exit 1
fi
exec "$@"
GATE
  chmod +x gate.sh
}

# kill_at_gate PID WHAT: once the gate holds, SIGTERM to PID and all below it (as scancel does); its
# output (out1.txt, err1.txt) shown. Dies when PID ends first or nothing is held within 120 s.
kill_at_gate() {
  local pid=$1 i
  for ((i = 0; i < 240; i++)); do
    [[ -e gate.held ]] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.5
  done
  [[ -e gate.held ]] || { cat out1.txt err1.txt; die "the campaign never reached $2"; }
  local pids
  pids=$(tree "$pid")
  kill -TERM $pids 2>/dev/null
  wait "$pid"
  # salloc (Slurm 22.05) can outlive its revoked allocation after SIGTERM, orphaned and spinning at
  # a third of a core until the bed goes down (CI's slow-machine emulation: 11 minutes of the Open
  # MPI suite): whatever of the tree is left after 10 s is killed
  for ((i = 0; i < 20; i++)); do kill -0 $pids 2>/dev/null || break; sleep 0.5; done
  kill -KILL $pids 2>/dev/null
  cat out1.txt err1.txt
}

case $mode in
up)
  ip -o link | awk -F': ' '{print $2}' | sort >"$MG_CLUSTER_STATE.host-links" 2>/dev/null
  [[ ! -e $MG_CLUSTER_STATE ]] || "$C" down >/dev/null 2>&1 # a cluster left by an interrupted run
  "$C" up --nodes 2 || die "scripts/cluster.sh up failed (above)"
  "$C" status >status.txt 2>&1 || { cat status.txt; die "status: a node or daemon is missing"; }
  cat status.txt
  for n in n1 n2; do
    grep -Eq "^$n: holder [0-9]+, $n, eth0=10\.99\.0\.1[12]/24 , daemons: munged slurmd" status.txt ||
      die "node $n: not up with its hostname, address, munged and slurmd"
  done
  grep -Eq '^head: holder [0-9]+, head, br0=10\.99\.0\.1/24 , daemons: munged slurmctld' status.txt ||
    die "head: no bridge address, munged or slurmctld"
  [[ $(grep -Ec '^n[12] idle 2$' status.txt) -eq 2 ]] || die "Slurm does not see both nodes idle"
  # the nodes are separate: their own hostname and /etc/hosts; their /tmp is not the host's
  [[ $("$C" exec n2 hostname) == n2 ]] || die "exec n2 hostname is not n2"
  touch /tmp/mg-cluster-probe.$$
  "$C" exec n1 test -e /tmp/mg-cluster-probe.$$ && { rm -f /tmp/mg-cluster-probe.$$; die "n1 sees the host's /tmp"; }
  # ... but this tree, wherever it is (a clone under /tmp too), at its own path
  "$C" exec n1 test -x "$C" || die "n1 does not see $C"
  rm -f /tmp/mg-cluster-probe.$$
  # the host's network is untouched: no link appeared on it
  ip -o link | awk -F': ' '{print $2}' | sort | diff "$MG_CLUSTER_STATE.host-links" - ||
    die "the host gained or lost network links (above)"
  # up twice: refused, the running cluster unchanged
  before=$(ls -R "$MG_CLUSTER_STATE" | md5sum)
  "$C" up 2>err.txt && die "a second up succeeded"
  grep -q "already up" err.txt || { cat err.txt; die "a second up did not say the cluster is already up"; }
  [[ $(ls -R "$MG_CLUSTER_STATE" | md5sum) == "$before" ]] || die "a second up changed the state"
  "$C" status >/dev/null 2>&1 || die "a second up broke the running cluster"
  "$C" exec n9 hostname 2>err.txt && die "exec on an unknown node succeeded"
  grep -q "no node 'n9'" err.txt || { cat err.txt; die "exec n9: no clear message"; }
  ;;
refuse)
  # a missing package: slurmd hidden from PATH (every other command still there)
  export MG_CLUSTER_STATE=$work/state
  mkdir shim
  for f in /usr/local/sbin/* /usr/local/bin/* /usr/sbin/* /usr/bin/* /sbin/* /bin/*; do
    [[ -x $f && ! -d $f ]] || continue
    b=${f##*/}
    [[ $b == slurmd || -e shim/$b ]] || ln -s "$f" "shim/$b"
  done
  PATH=$work/shim "$C" up 2>err.txt && die "up without slurmd succeeded"
  cat err.txt
  grep -q "missing package(s): slurmd" err.txt || die "up without slurmd: no message naming the package"
  [[ ! -e $MG_CLUSTER_STATE ]] || die "up without slurmd left $MG_CLUSTER_STATE"
  "$C" down 2>err.txt && die "down without up succeeded"
  grep -q "no cluster is up" err.txt || { cat err.txt; die "down without up: no clear message"; }
  "$C" up --nodes 0 2>err.txt && die "up --nodes 0 succeeded"
  grep -q "must be 1..32" err.txt || { cat err.txt; die "up --nodes 0: no clear message"; }
  [[ ! -e $MG_CLUSTER_STATE ]] || die "a refused up left $MG_CLUSTER_STATE"
  ;;
slurm)
  on_head srun -N 2 hostname >out.txt || die "srun -N 2 hostname failed"
  [[ $(sort out.txt | tr '\n' ' ') == "n1 n2 " ]] || { cat out.txt; die "srun -N 2 hostname did not run once on n1 and n2"; }
  on_head srun -N 2 -n 4 hostname >out.txt || die "srun -N 2 -n 4 hostname failed"
  [[ $(sort out.txt | tr '\n' ' ') == "n1 n1 n2 n2 " ]] || { cat out.txt; die "srun -N 2 -n 4: not 2 tasks per node"; }
  printf '#!/bin/bash\n#SBATCH -N 2 -n 4\nsrun hostname | sort\n' >job.sh
  on_head sbatch --wait -o "$work/job.out" job.sh || die "sbatch --wait failed"
  [[ $(tr '\n' ' ' <job.out) == "n1 n1 n2 n2 " ]] || { cat job.out; die "the batch job's srun did not run 2 tasks on each node"; }
  on_head salloc -N 2 srun hostname >out.txt 2>salloc.err || { cat salloc.err; die "salloc failed"; }
  [[ $(sort out.txt | tr '\n' ' ') == "n1 n2 " ]] || { cat out.txt; die "salloc -N 2 srun hostname: not n1 and n2"; }
  ;;
mpi)
  watch "^nodes: OK" out.txt err.txt run_mpi "$launch" 4 "$MG_NODES" 2 2
  rc=$?
  cat out.txt err.txt
  ((rc == 0)) || die "exit $rc"
  grep -q "^nodes: 2 nodes x 2 ranks: 0@n1 1@n1 2@n2 3@n2" out.txt || die "not ranks 0,1 on n1 and 2,3 on n2"
  grep -q "^nodes: OK" out.txt || die "nodes.c did not finish OK"
  ;;
check)
  # check writes raw.csv and its analysis before MPI_Finalize, whose hang (MPICH 4.0.2 + UCX) its
  # watchdog ends 20 s later with one line and exit status 0: the launch ends by itself, no watch
  run_mpi "$launch" 4 "$MG_CLI" check -c allreduce --sizes 8,1K --nrep 5 --warmup 1 \
    --reductions int:sum -m allreduce_as_reduce_bcast,allreduce_as_hier,allreduce_as_lane -o "$work/out" >out.txt 2>err.txt
  rc=$?
  tail -n 5 out.txt err.txt
  ((rc == 0)) || die "check exited $rc"
  if grep -q "MPI_Finalize has not returned 20 s after the results were written (verdicts and raw data in $work/out)" err.txt; then
    echo "run_cluster: NOTE: MPI_Finalize hung (the known MPICH 4.0.2 + UCX finalize hang, docs/cluster.md); check's watchdog ended the launch with its results complete" |
      tee -a "$work/note.txt" >&2
  fi
  [[ -s out/raw.csv ]] || die "out/raw.csv missing"
  for f in verdicts.csv summary.txt; do [[ -s out/$f ]] || die "out/$f missing"; done
  grep -q '^allreduce,' out/raw.csv || die "raw.csv has no allreduce rows"
  # the layout as the launch saw it: 2 nodes of 2, by their host names
  for m in '#@nnodes=2' '#@ranks_per_node=2' '#@hosts=n1:2,n2:2'; do
    grep -qx "$m" out/raw.csv || { grep '^#@' out/raw.csv; die "raw.csv lacks $m"; }
  done
  ;;
layout-names)
  # 3 + 1 ranks (srun -m arbitrary -w n1,n1,n1,n2): the layout recorded is the host names', also
  # where the MPI's MPI_COMM_TYPE_SHARED sees another (MPICH under --mpi=pmi2: a node per rank, kept
  # in #@hosts_shared and noted once); bench's raw file, ended by its watchdog if MPI_Finalize hangs
  run_mpi srun-3+1 4 "$MG_CLI" bench -c bcast --sizes 1K --nrep 5 --warmup 1 --no-progress -q -o "$work/raw.csv" >out.txt 2>err.txt
  rc=$?
  tail -n 5 out.txt err.txt
  ((rc == 0)) || die "bench exited $rc"
  for m in '#@nnodes=2' '#@ranks_per_node=1-3' '#@hosts=n1:3,n2:1'; do
    grep -qx "$m" raw.csv || { grep '^#@' raw.csv; die "raw.csv lacks $m"; }
  done
  shared=$(sed -n 's/^#@hosts_shared=//p' raw.csv)
  if [[ -n $shared ]]; then
    [[ $(grep -c "note: the host names make 2 node(s) (n1:3,n2:1), MPI_COMM_TYPE_SHARED other ones ($shared)" err.txt) == 1 ]] ||
      die "#@hosts_shared=$shared without the one note on stderr: $(cat err.txt)"
    echo "run_cluster: layout-names: $MG_FLAVOR's MPI_COMM_TYPE_SHARED said $shared; recorded n1:3,n2:1, noted once"
  else
    grep -q "note: the host names" err.txt && die "a note without #@hosts_shared"
    echo "run_cluster: layout-names: $MG_FLAVOR's MPI_COMM_TYPE_SHARED agrees with the names (n1:3,n2:1)"
  fi
  ;;
hier)
  layout=${launch:-2x2}
  case $layout in
    2x2) np=4 how=srun rows_text=$MG_HIER_ROWS ;;
    [1-9]+[1-9])
      a=${layout%+*} b=${layout#*+}
      ((a > b)) || die "an uneven layout A+B needs A > B (srun -m block puts the larger block first)"
      np=$((a + b)) how=srun-block rows_text=$MG_HIER_ROWS_UNEVEN
      ;;
    *) die "unknown layout '$layout' (2x2 or A+B)" ;;
  esac
  read -r -a rows <<<"$rows_text"
  args=(--quick) # every feature, fewer combinations: 4 ranks share 2 cores here
  env | grep -q '^MPIGUIDE_NODE_SIZE=' && die "MPIGUIDE_NODE_SIZE is set: this case is about real nodes"
  if [[ $how == srun-block ]]; then # the layout is what the case says: A ranks on n1, B on n2
    on_head srun -N 2 -n "$np" -O -m block hostname >hosts.txt || die "srun hostname for the layout failed"
    [[ $(sort hosts.txt | uniq -c | awk '{printf "%s:%s ", $2, $1}') == "n1:$a n2:$b " ]] ||
      { cat hosts.txt; die "srun -N 2 -n $np -m block did not place $a ranks on n1 and $b on n2"; }
  fi
  watch "^difftest: all passed" out.txt err.txt run_mpi $how $np "$MG_DIFFTEST" "${args[@]}" "${rows[@]}"
  rc=$?
  cat out.txt err.txt
  ((rc == 0)) || die "difftest exited $rc"
  grep -q "difftest: all passed" out.txt || die "difftest did not pass"
  [[ $(grep -c "failed=0 ok" out.txt) -eq ${#rows[@]} ]] || die "not every row ran and passed"
  if [[ $how == srun-block ]]; then
    # nodes of unequal size: the hier rows run on them (no fallback); the lane rows need every node
    # the same size and fall back on MPI_COMM_WORLD (MG_R_REGULAR_NODES), but not everywhere
    # (difftest's halves and subsets can have equal nodes)
    grep -E '^diff .*_as_hier ' out.txt | grep 'fell back' && die "a hier row fell back on uneven nodes (above)"
    for r in "${rows[@]}"; do
      [[ $r == *_as_lane ]] || continue
      grep -E "^diff .* ${r#*=} .*\(([0-9]+) fell back\)" out.txt >/dev/null ||
        die "${r#*=} did not fall back on the uneven nodes of MPI_COMM_WORLD"
    done
  fi
  ;;
layout)
  # profiles as `mpiguide tune` writes them from check runs on three layouts of 4 processes: the
  # check fixture of 1 node, the report fixture of the box's 2 x 2, and that one made 3 + 1
  fx=$MG_SRC/tests/report/data/hosts
  mkdir r31
  sed 's/^#@ranks_per_node=2$/#@ranks_per_node=1-3/; s/^#@hosts=.*/#@hosts=n1:3,n2:1/' "$fx/raw.csv" >r31/raw.csv
  for p in "p14 $MG_SRC/tests/check/data/small 1 node(s)$" "p22 $fx 2 node(s) x 2 ranks per node" \
    "p31 r31 2 node(s) x 1-3 ranks per node"; do
    read -r name src want <<<"$p"
    "$MG_CLI" tune "$src" -o "$name.prof" >tune-$name.log 2>&1 || { cat tune-$name.log; die "tune $src failed"; }
    grep -q "^# np=4: layout: $want" "$name.prof" || { cat "$name.prof"; die "$name.prof does not record the layout '$want'"; }
  done
  for name in p14 p22 p31; do
    watch "file:$work/$name.csv" $name.out $name.err run_mpi srun 4 env LD_PRELOAD="$MG_LIB" \
      MPIGUIDE_PROFILE="$work/$name.prof" MPIGUIDE_TRACE="$work/$name.csv" "$MG_NODES" 2 2
    rc=$?
    cat $name.out $name.err
    ((rc == 0)) || die "nodes.c under libmpiguide with $name.prof exited $rc"
    grep -q "^nodes: OK" $name.out || die "nodes.c with $name.prof did not finish OK"
  done
  grep -q "MPIGUIDE_PROFILE='$work/p14.prof' was measured on 1 node(s) at 4 processes, this run has 2 node(s) x 2 ranks per node (the profile's: 1 x 4)" p14.err ||
    die "a profile of 1 node x 4 used on 2 x 2: no layout warning"
  grep -q "MPIGUIDE_PROFILE='$work/p31.prof' was measured on 2 node(s) at 4 processes, this run has 2 node(s) x 2 ranks per node (the profile's: 2 x 1-3)" p31.err ||
    die "a profile of 3 + 1 ranks used on 2 x 2: no layout warning"
  grep "may not hold for this layout" p22.err && die "a profile of 2 x 2 used on 2 x 2 warned of another layout"
  [[ $(grep -c "may not hold for this layout" p14.err p31.err | awk -F: '{s += $2} END {print s}') -eq 2 ]] ||
    die "not one layout warning per run (rank 0 alone warns)"
  for m in '#@nnodes=2' '#@ranks_per_node=2' '#@hosts=n1:2,n2:2'; do
    grep -qx "$m" p22.csv || { grep '^#@' p22.csv; die "the trace lacks $m"; }
  done
  ;;
campaign)
  # mpiguide campaign (docs/campaign.md) as steps of one salloc allocation: layouts 1x2 and 2x1 of
  # this flavour through srun, 2 launches each; the job is killed (SIGTERM to salloc, the campaign,
  # check and srun, as scancel does) once the first launch is saved, and the rerun resumes
  # (the launcher is srun behind the gate: it holds 1x2's launch 2; the rerun finds it open)
  write_gate
  cat >spec <<SPEC
out $work/tree
launches 2
layouts 1x2 2x1
mpi $MG_FLAVOR $MG_CLI $work/gate.sh srun -N {nodes} -n {np} --ntasks-per-node={rpn} --mpi=$pmi
check -c allreduce --sizes 8,1K --nrep 5 --warmup 1 --reductions int:sum -m allreduce_as_reduce_bcast -q --min-span 0
SPEC
  c1=$work/tree/$MG_FLAVOR-1x2 c2=$work/tree/$MG_FLAVOR-2x1
  timeout -k 5 200 "$C" exec head env "${mpi_env[@]}" salloc -N 2 --ntasks-per-node=2 "$MG_CLI" campaign "$work/spec" >out1.txt 2>err1.txt &
  kill_at_gate $! "1x2's second launch"
  [[ -s $c1/launch-1/raw.csv && ! -e $c1/launch-2/raw.csv && ! -e $c1.done && ! -e $c2.done ]] ||
    die "killed: expected $c1/launch-1 saved, launch 2 not, and nothing marked done: $(ls -R tree)"
  grep -q '^#@check_incomplete' "$c1/launch-1/raw.csv" && die "launch 1 saved incomplete"
  touch gate.open
  ok "killed after the first launch: it is kept, nothing marked done"
  id1=$(grep '^#@launch=' "$c1/launch-1/raw.csv")
  watch "file:$c2.done" out2.txt err2.txt timeout -k 5 200 "$C" exec head env "${mpi_env[@]}" salloc -N 2 --ntasks-per-node=2 "$MG_CLI" campaign "$work/spec"
  rc=$?
  cat out2.txt err2.txt
  ((rc == 0)) || die "the rerun exited $rc"
  grep -q "\] $MG_FLAVOR-1x2: interrupted: resumed (--resume)" out2.txt && ok "the rerun says it resumes 1x2" ||
    fail "the rerun's plan does not resume 1x2"
  [[ $(grep '^#@launch=' "$c1/launch-1/raw.csv") == "$id1" ]] && ok "launch 1 kept, not measured again" || fail "launch 1 measured again"
  for c in "$c1" "$c2"; do
    [[ -e $c.done && -s $c/launch-2/raw.csv ]] && ok "${c##*/}: done" || fail "${c##*/}: not done"
    grep -q '^#@launcher=srun' "$c/launch-1/raw.csv" && ok "${c##*/}: launcher srun recorded" || fail "${c##*/}: no srun launcher"
  done
  for m in '#@nnodes=1' '#@ranks_per_node=2' '#@hosts=n1:2'; do grep -qx "$m" "$c1/launch-2/raw.csv" || fail "1x2 lacks $m"; done
  for m in '#@nnodes=2' '#@ranks_per_node=1' '#@hosts=n1:1,n2:1'; do grep -qx "$m" "$c2/launch-2/raw.csv" || fail "2x1 lacks $m"; done
  "$MG_CLI" report tree -o r.html 2>rerr.txt || fail "report tree exited $?: $(cat rerr.txt)"
  [[ $(grep -c '<tr data-config=' r.html) == 2 ]] && grep -q 'id="what-changed"' r.html &&
    ok "report TREE: the two layouts side by side, what changed" || fail "report TREE"
  ;;
campaign-sbatch)
  # mpiguide campaign --sbatch (docs/campaign.md): a Slurm job per configuration (1x2 and 2x1 of this
  # flavour, 2 launches each), each job this campaign with --only in an allocation of its layout,
  # the launches srun steps. The job that reaches the second launch overall is held by a gate in
  # front of srun (as in the campaign case) and cancelled with scancel; the rerun with --wait leaves
  # a queued job alone, submits the cancelled configuration anew (the job resumes it) and waits
  write_gate
  cat >spec <<SPEC
out $work/tree
launches 2
layouts 1x2 2x1
mpi $MG_FLAVOR $MG_CLI $work/gate.sh srun -n {np} --mpi=$pmi
check -c allreduce --sizes 8,1K --nrep 5 --warmup 1 --reductions int:sum -m allreduce_as_reduce_bcast -q --min-span 0
sbatch -t 10
SPEC
  on_head "$MG_CLI" campaign "$work/spec" --sbatch >out1.txt 2>err1.txt
  rc=$?
  cat out1.txt err1.txt
  ((rc == 0)) || die "campaign --sbatch exited $rc"
  [[ $(grep -c "submitted job [0-9]" err1.txt) == 2 ]] && ok "two jobs submitted" || fail "not two jobs submitted"
  for ((i = 0; i < 240; i++)); do # until the gate holds a job's second launch
    [[ -e gate.held ]] && break
    sleep 0.5
  done
  [[ -e gate.held ]] || { on_head squeue; cat tree/*.slurm.out; die "no job reached the second launch"; }
  held=$(<gate.held)
  c=$(grep -lx "$held\(;.*\)\?" tree/*.job) || die "no configuration's .job names the held job $held"
  c=$work/${c%.job}
  on_head scancel "$held" || die "scancel $held failed"
  for ((i = 0; i < 60; i++)); do # until squeue no longer lists it (KillWait=5 s)
    [[ -z $(on_head squeue -h -j "$held" -o %T 2>/dev/null) ]] && break
    sleep 0.5
  done
  cat "$c.slurm.out"
  [[ -s $c/launch-1/raw.csv && ! -e $c/launch-2/raw.csv && ! -e $c.done ]] ||
    die "cancelled: expected ${c##*/}/launch-1 saved, launch 2 not, not marked done: $(ls -R tree)"
  grep -q '^#@check_incomplete' "$c/launch-1/raw.csv" && die "launch 1 saved incomplete"
  ok "job $held (${c##*/}) cancelled in its second launch: the first kept, not marked done"
  id1=$(grep '^#@launch=' "$c/launch-1/raw.csv")
  touch gate.open
  timeout -k 5 200 "$C" exec head env "${mpi_env[@]}" "$MG_CLI" campaign "$work/spec" --sbatch --wait >out2.txt 2>err2.txt
  rc=$?
  cat out2.txt err2.txt
  ((rc == 0)) || { cat tree/*.slurm.out; die "the rerun with --wait exited $rc"; }
  grep -q "\] ${c##*/}: interrupted: resumed (--resume)" out2.txt && ok "the rerun resubmits ${c##*/} to resume it" ||
    fail "the rerun's plan does not resume ${c##*/}"
  grep -q "${c##*/}: submitted job [0-9]* (it resumes)" err2.txt && ok "a new job for ${c##*/}" || fail "no new job for ${c##*/}"
  [[ $(grep -c "submitted job" err2.txt) == 1 ]] && ok "one job submitted by the rerun (the other was queued or done)" ||
    fail "the rerun submitted $(grep -c "submitted job" err2.txt) jobs"
  [[ $(grep '^#@launch=' "$c/launch-1/raw.csv") == "$id1" ]] && ok "launch 1 kept, not measured again" || fail "launch 1 measured again"
  c1=$work/tree/$MG_FLAVOR-1x2 c2=$work/tree/$MG_FLAVOR-2x1
  for d in "$c1" "$c2"; do
    [[ -e $d.done && -s $d/launch-2/raw.csv ]] && ok "${d##*/}: done" || fail "${d##*/}: not done"
    grep -q '^#@launcher=srun' "$d/launch-1/raw.csv" && ok "${d##*/}: launcher srun recorded" || fail "${d##*/}: no srun launcher"
  done
  # each job's allocation had its layout: srun -n {np} alone placed it
  for m in '#@nnodes=1' '#@ranks_per_node=2'; do grep -qx "$m" "$c1/launch-2/raw.csv" || fail "1x2 lacks $m"; done
  for m in '#@nnodes=2' '#@ranks_per_node=1' '#@hosts=n1:1,n2:1'; do grep -qx "$m" "$c2/launch-2/raw.csv" || fail "2x1 lacks $m"; done
  on_head "$MG_CLI" campaign "$work/spec" --sbatch >out3.txt 2>err3.txt || fail "a third run exited $?"
  grep -q "every configuration is done" out3.txt && ok "a third run submits nothing" || fail "a third run: $(cat out3.txt err3.txt)"
  ;;
campaign4)
  # The issue's campaign (docs/campaign.md): 1x4, 2x2 and 4x1 of this flavour through srun steps
  # inside one salloc on a bed of its own, 4 nodes of 4 Slurm CPUs (up --cpus 4: a 1 x 4 step fits a
  # node; this machine's cores are oversubscribed all the same), 2 launches each at 2 small sizes.
  # Killed (SIGTERM to salloc and all below it) while a gate in front of srun holds the second launch
  # overall (1x4's launch 2); the rerun resumes it and measures the rest; the report compares the three.
  [[ ! -e $MG_CLUSTER_STATE ]] || "$C" down >/dev/null 2>&1 # a bed left by an interrupted run
  t0=$SECONDS
  "$C" up --nodes 4 --cpus 4 || die "scripts/cluster.sh up --nodes 4 --cpus 4 failed (above)"
  echo "run_cluster: up of 4 nodes: $((SECONDS - t0)) s"
  trap '"$C" down >/dev/null 2>&1' EXIT # the bed goes whatever happens below
  [[ $(on_head sinfo -h -N -o '%N %T %c' | sort | tr '\n' ' ') == "n1 idle 4 n2 idle 4 n3 idle 4 n4 idle 4 " ]] ||
    die "Slurm does not see 4 idle nodes of 4 CPUs: $(on_head sinfo -N)"
  write_gate
  cat >spec <<SPEC
out $work/tree
launches 2
layouts 1x4 2x2 4x1
mpi $MG_FLAVOR $MG_CLI $work/gate.sh srun -N {nodes} -n {np} --ntasks-per-node={rpn} --mpi=$pmi
check -c allreduce --sizes 8,1K --nrep 5 --warmup 1 --reductions int:sum -m allreduce_as_reduce_bcast -q --min-span 0
SPEC
  salloc4=(timeout -k 5 300 "$C" exec head env "${mpi_env[@]}" salloc -N 4 --ntasks-per-node=4 "$MG_CLI" campaign "$work/spec")
  t0=$SECONDS
  "${salloc4[@]}" >out1.txt 2>err1.txt &
  kill_at_gate $! "1x4's second launch"
  c14=$work/tree/$MG_FLAVOR-1x4 c22=$work/tree/$MG_FLAVOR-2x2 c41=$work/tree/$MG_FLAVOR-4x1
  [[ -s $c14/launch-1/raw.csv && ! -e $c14/launch-2/raw.csv && ! -e $c14.done && ! -e $c22/launch-1 ]] ||
    die "killed: expected 1x4/launch-1 saved, nothing else: $(ls -R tree)"
  ok "killed in 1x4's second launch: its first kept, nothing marked done"
  id1=$(grep '^#@launch=' "$c14/launch-1/raw.csv")
  touch gate.open
  # (MPICH: 4 busy-polling ranks on 2 cores take ~20 s a launch of 1 x 4, and the rerun has 5)
  WATCH_LIMIT=400 watch "file:$c41.done" out2.txt err2.txt "${salloc4[@]}"
  rc=$?
  cat out2.txt err2.txt
  echo "run_cluster: the campaign's two runs: $((SECONDS - t0)) s"
  ((rc == 0)) || die "the rerun exited $rc"
  grep -q "\] $MG_FLAVOR-1x4: interrupted: resumed (--resume)" out2.txt && ok "the rerun resumes 1x4" || fail "the rerun does not resume 1x4"
  [[ $(grep '^#@launch=' "$c14/launch-1/raw.csv") == "$id1" ]] && ok "1x4's launch 1 kept" || fail "1x4's launch 1 measured again"
  for c in "$c14:1:4:n1:4" "$c22:2:2:n1:2,n2:2" "$c41:4:1:n1:1,n2:1,n3:1,n4:1"; do
    IFS=: read -r d nn rpn hosts <<<"$c"
    [[ -e $d.done ]] && ok "${d##*/}: done" || fail "${d##*/}: not done"
    for k in 1 2; do
      for m in "#@nnodes=$nn" "#@ranks_per_node=$rpn" "#@hosts=$hosts"; do
        grep -qx "$m" "$d/launch-$k/raw.csv" || fail "${d##*/} launch $k lacks $m"
      done
      grep -q "^#@launcher=srun --mpi=$pmi\$" "$d/launch-$k/raw.csv" || fail "${d##*/} launch $k lacks #@launcher=srun --mpi=$pmi"
    done
  done
  # the comparison: one row per layout, nothing pooled; the guideline table a column per layout;
  # what changed from the first layout (1 x 4) to each other
  "$MG_CLI" report tree -o r.html 2>rerr.txt || fail "report tree exited $?: $(cat rerr.txt)"
  [[ $(grep -c '<tr data-config=' r.html) == 3 ]] && ok "report: three configurations side by side" ||
    fail "report: $(grep -c '<tr data-config=' r.html) configuration rows, want 3"
  g=$(sed -n '/id="guidelines-by-config"/,/<\/table>/p' r.html)
  grep -q '<td>allreduce_as_reduce_bcast</td>' <<<"$g" && [[ $(grep -m1 '<tr><th>guideline' <<<"$g" | grep -o '<th>' | wc -l) == 6 ]] &&
    ok "report: allreduce_as_reduce_bcast's row, a column per layout" || fail "report: the guidelines table: $g"
  w=$(sed -n '/id="what-changed"/,$p' r.html)
  # (a configuration's label: "4 procs · 1 × 4 · n1", rank 0's host last)
  [[ $(grep -c '<h3>[^<]* 1 × 4 [^<]* → [^<]*</h3>' <<<"$w") == 2 ]] && grep -q '<h3>[^<]* → [^<]* 2 × 2 ' <<<"$w" &&
    grep -q '<h3>[^<]* → [^<]* 4 × 1 ' <<<"$w" &&
    ok "report: what changed from 1 x 4 to 2 x 2 and to 4 x 1" || fail "report: what changed: $(grep '<h3>' <<<"$w")"
  "$C" down || die "down of the 4-node bed failed"
  trap - EXIT
  ;;
online)
  algs=""
  for c in allreduce bcast reduce allgather; do
    algs+="$c:$("$MG_CLI" list --csv "$c" | awk -F, 'NR > 1 {print $2}' | paste -sd, -);"
  done
  # 80 calls: the 8-byte cell's warm-up and a round of every candidate (16 + 2c calls) and more
  watch "^online_app: OK" learn.out learn.err run_mpi srun 4 env MG_ALGS="$algs" MPIGUIDE_PROFILE=auto \
    MPIGUIDE_PROFILE_OUT="$work/learned.prof" MPIGUIDE_TRACE="$work/learn.csv" "$MG_ONLINE_APP" few 80
  rc=$?
  cat learn.out learn.err
  ((rc == 0)) || die "online_app under MPIGUIDE_PROFILE=auto exited $rc"
  grep -q "^online_app: OK" learn.out || die "online_app did not finish OK: a call ran different rows or a wrong result"
  tried=$(awk -F, '!/^#/ && $1 == "allreduce" && $8 == "online trial" {print $3}' learn.csv | sort -u | paste -sd' ' -)
  echo "run_cluster: online: allreduce rows tried: $tried"
  for r in allreduce_as_hier allreduce_as_lane; do
    [[ " $tried " == *" $r "* ]] || die "2 nodes x 2: $r was not tried online"
  done
  [[ -s learned.prof ]] || die "no learned profile"
  cat learned.prof
  grep -qx "# np=4: layout: 2 node(s) x 2 ranks per node" learned.prof || die "the learned profile does not record 2 x 2"
  # the learned profile on another layout of 4 processes (3 + 1) and on its own (a trace: it turns on
  # the counters online_app compares)
  for l in 3+1 2x2; do
    how=srun-3+1
    [[ $l == 2x2 ]] && how=srun
    watch "^online_app: OK" use-$l.out use-$l.err run_mpi $how 4 env MG_ALGS="$algs" MPIGUIDE_PROFILE="$work/learned.prof" \
      MPIGUIDE_TRACE="$work/use-$l.csv" "$MG_ONLINE_APP" few 10
    rc=$?
    cat use-$l.out use-$l.err
    ((rc == 0)) || die "online_app with the learned profile on $l exited $rc"
  done
  # the 3 + 1 run's own layout: 2 nodes x 1-3 by the host names, on both MPIs (MPICH under srun -m
  # arbitrary with PMI2 puts every rank on a node of its own by MPI_COMM_TYPE_SHARED, 4 x 1: the
  # names win, src/algs/layout.c, docs/cluster.md "Layout by host names")
  l31="2 node(s) x 1-3 ranks per node"
  grep -qF "MPIGUIDE_PROFILE='$work/learned.prof' was measured on 2 node(s) at 4 processes, this run has $l31 (the profile's: 2 x 2)" use-3+1.err ||
    die "a profile learned on 2 x 2 used on 3 + 1: no layout warning"
  (($(grep -c "may not hold for this layout" use-3+1.err) == 1)) || die "not one layout warning (rank 0 alone warns)"
  grep "may not hold for this layout" use-2x2.err && die "a profile learned on 2 x 2 used on 2 x 2 warned of another layout"
  ;;
loggp)
  watch "^# parameters: " out.txt err.txt run_mpi srun 4 "$MG_CLI" loggp --sizes 8,1K --time-per 20ms --min-nrep 5 \
    --max-nrep 50 --no-progress -o "$work/loggp.txt"
  rc=$?
  cat out.txt err.txt
  ((rc == 0)) || die "loggp exited $rc"
  grep -q '^nodes 2$' loggp.txt || die "loggp.txt does not say 2 nodes"
  grep -q '^class intra$' loggp.txt || die "no intra-node pair"
  grep -q '^class inter$' loggp.txt || die "no inter-node pair"
  awk '/^class inter$/ {c=1} c && /^pair / {print $2, $3; exit}' loggp.txt | grep -Eq '^[01] [23]$' ||
    die "the inter-node pair is not one rank of n1 and one of n2"
  ;;
rma)
  # the one-sided rows forced on 2 x 2 (tests/intercept/rma_app.c). Open MPI 4.1 makes no window
  # between nodes here (Debian excludes osc/pt2pt and osc/ucx, osc/rdma wants RDMA that the tcp btl
  # lacks): every call the library's result, a no_window fallback; MPICH's ch4 makes one over UCX:
  # the rows run
  want=window
  [[ $MG_FLAVOR == openmpi ]] && want=none
  watch "^rma_app $want: ok" out.txt err.txt run_mpi srun 4 "$MG_RMA_APP" $want
  rc=$?
  cat out.txt err.txt
  ((rc == 0)) || die "rma_app $want exited $rc"
  grep -q "^rma_app $want: ok" out.txt || die "rma_app $want did not finish ok"
  ;;
site)
  # docs/site.md on the cluster: the packages, a store, module load mpiguide-site alone (site_case.sh)
  # shellcheck source=site_case.sh
  source "$(dirname "$0")/site_case.sh"
  ;;
down)
  [[ -d $MG_CLUSTER_STATE ]] || die "no cluster to take down (did up fail?)"
  holders=$(cat "$MG_CLUSTER_STATE"/nodes/*/pid 2>/dev/null)
  nss=""
  for p in $holders; do nss+=" $(readlink /proc/$p/ns/net 2>/dev/null) $(readlink /proc/$p/ns/uts 2>/dev/null)"; done
  host_ns="$(readlink /proc/1/ns/net) $(readlink /proc/1/ns/uts)"
  for x in $host_ns; do [[ " $nss " == *" $x "* ]] && die "a holder shares the host's namespaces ($x)"; done
  holders+=" $(cat "$MG_CLUSTER_STATE"/nodes/*/unshare.pid 2>/dev/null)"
  "$C" down || die "scripts/cluster.sh down failed"
  [[ ! -e $MG_CLUSTER_STATE ]] || die "$MG_CLUSTER_STATE is left"
  for p in $holders; do [[ ! -d /proc/$p ]] || die "holder process $p is left"; done
  # no process anywhere in one of the cluster's namespaces (daemons, job steps, MPI ranks)
  for d in /proc/[0-9]*; do
    for k in net uts; do
      x=$(readlink "$d/ns/$k" 2>/dev/null) || continue
      [[ -n $x && " $nss " == *" $x "* ]] && die "process ${d#/proc/} ($(cat "$d/comm" 2>/dev/null)) is left in a cluster namespace"
    done
  done
  grep -q "$MG_CLUSTER_STATE" /proc/mounts && die "a mount of the cluster is left on the host"
  ip -o link | awk -F': ' '{print $2}' | sort | diff "$MG_CLUSTER_STATE.host-links" - ||
    die "the host's network links changed (above): a veth or bridge is left"
  rm -f "$MG_CLUSTER_STATE.host-links"
  "$C" down 2>err.txt && die "a second down succeeded"
  grep -q "no cluster is up" err.txt || { cat err.txt; die "a second down: no clear message"; }
  ;;
*) die "unknown mode" ;;
esac
finish
