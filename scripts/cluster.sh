#!/usr/bin/env bash
# A cluster in a box: N "nodes" on this machine, each a set of Linux namespaces (network, UTS,
# mount, IPC) with its own hostname, address, /run, /tmp, /dev/shm, /var/spool, /var/log and
# /etc/hosts, all in one PID namespace of the cluster's (as a node's processes are not the host's), joined through veth links to one bridge that lives in a "head" namespace of its own
# (the host's network is never touched). The node side of each link is shaped with tc netem (delay
# and rate), so a message between nodes costs clearly more than one within a node, where ranks
# share memory. Slurm (slurmctld on head, one slurmd per node) and munge run inside; MPI launches
# between nodes through scripts/cluster-rsh (an rsh agent that enters a node with nsenter).
#
#   scripts/cluster.sh setup                      install the packages (Debian 12)
#   scripts/cluster.sh up [--nodes N] [--latency T] [--rate R] [--cpus C] [--no-slurm]
#   scripts/cluster.sh status                     nodes, daemons, links, Slurm's view
#   scripts/cluster.sh exec NODE CMD [ARG...]     run CMD inside NODE (head, n1 .. nN)
#   scripts/cluster.sh hostfile [--mpich] [SLOTS] an Open MPI (or Hydra) hostfile of the nodes
#   scripts/cluster.sh down                       stop everything, remove every file
#
# Defaults: 2 nodes, latency 100us (one way, per message between nodes), rate 2gbit, 2 CPUs per
# node in Slurm. Addresses 10.99.0.0/24 (head 10.99.0.1 on the bridge, node i 10.99.0.(10+i)):
# they exist only inside these namespaces. State lives in $MG_CLUSTER_STATE (default
# /var/lib/mpiguide-cluster): the holders' PIDs, the Slurm configuration, the munge key, logs.
#
# Each node's namespaces are made by one holder process that waits (bash, reaping orphans); head's
# holder is PID 1 of the cluster's PID namespace: killing it makes the kernel kill every daemon and
# job of every node, and then the network namespaces, their veth links and shaping, and the mounts
# go with them. `down` therefore leaves no namespace, link, process or mount; it removes the state
# directory last. (One PID namespace for all nodes, not one each: a process can enter only its own
# PID namespace or one below it, and the rsh agent must enter node n2 from node n1.) Needs root. docs/cluster.md says how this maps to a cluster.
set -euo pipefail

SELF=$(readlink -f "$0")
STATE=${MG_CLUSTER_STATE:-/var/lib/mpiguide-cluster}
NET=10.99.0
PKGS=(iproute2 util-linux slurmctld slurmd slurm-client munge)

die() { echo "cluster: $*" >&2; exit 1; }
note() { echo "cluster: $*" >&2; }

# ---- where a node's namespaces are -------------------------------------------------------------
# The host's /proc: inside a node (whose /proc shows only the cluster's PID namespace) the holder binds
# it at /run/mg-host-proc, so that a node can enter another one (the rsh agent: mpirun on head
# starts its daemons on n1 .. nN) as ssh would reach it.
PROC=/proc
[[ -d /run/mg-host-proc/1 ]] && PROC=/run/mg-host-proc
# The holder's PID (host view) of node $1, or nothing when the node is not up.
holder_pid() {
  local f=$STATE/nodes/$1/pid p
  [[ -f $f ]] || return 0
  p=$(<"$f")
  # alive and still our holder (not a recycled PID): its UTS namespace is not the host's
  if [[ -d $PROC/$p && $(readlink "$PROC/$p/ns/uts") != "$(readlink "$PROC/1/ns/uts")" ]]; then
    echo "$p"
  fi
}

nodes_list() { [[ -f $STATE/nodes.txt ]] && cat "$STATE/nodes.txt"; }

# Run a command inside node $1's namespaces, in the caller's working directory and environment.
node_exec() {
  local n=$1 p
  shift
  p=$(holder_pid "$n")
  [[ -n $p ]] || die "no node '$n' (nodes: head $(nodes_list | tr '\n' ' ')); is the cluster up?"
  # the caller's directory when the node sees it (its /tmp is its own), else /
  local ns=$PROC/$p/ns
  nsenter --net="$ns/net" --uts="$ns/uts" --ipc="$ns/ipc" --mount="$ns/mnt" --pid="$ns/pid" -- bash -c 'cd "$1" 2>/dev/null || cd /; shift; exec "$@"' _ "$PWD" "$@"
}

# Only node $1's network namespace (the host's PIDs stay visible: `ip link ... netns PID`).
net_exec() {
  local p
  p=$(holder_pid "$1")
  [[ -n $p ]] || die "no node '$1'"
  shift
  nsenter --net="$PROC/$p/ns/net" -- "$@"
}

# ---- the holder of a node's namespaces ---------------------------------------------------------------
# Runs inside fresh namespaces: the node's hostname and private mounts, then waits (reaping the
# daemons' orphans) until TERM. Mounts made here are private to the node (propagation private).
holder_main() {
  local name=$1 dir=$STATE/nodes/$1
  hostname "$name"
  ip link set lo up
  mount -t tmpfs -o mode=0755,size=64m mg-run /run
  mkdir /run/mg-host-proc
  mount --bind /proc /run/mg-host-proc
  mount -t proc proc /proc # the cluster's PID namespace
  # a node-local /tmp; this tree and the state directory stay visible at their paths when they
  # live under /tmp (a clone there, as CI's may be): bound aside first, back after the tmpfs
  local root k i=0 keep=()
  root=$(dirname "$(dirname "$SELF")")
  for k in "$root" "$(readlink -f "$STATE")"; do [[ $k == /tmp/* ]] && keep+=("$k"); done
  for k in "${keep[@]}"; do
    mkdir -p "/run/mg-keep/$i"
    mount --bind "$k" "/run/mg-keep/$i"
    i=$((i + 1))
  done
  mount -t tmpfs -o mode=1777,size=512m mg-tmp /tmp
  i=0
  for k in "${keep[@]}"; do
    mkdir -p "$k"
    mount --bind "/run/mg-keep/$i" "$k"
    i=$((i + 1))
  done
  mount -t tmpfs -o mode=1777,size=512m mg-shm /dev/shm
  # node-local /var/spool and /var/log (tmpfs, so nothing is created on the host's disk), with
  # the daemons' directories bound from the state directory, where `status` and a failed test can
  # read them; the cluster's /etc/hosts and Slurm configuration at their usual paths
  mount -t tmpfs -o mode=0755,size=16m mg-spool /var/spool
  mount -t tmpfs -o mode=0755,size=16m mg-log /var/log
  mkdir -p /run/munge /run/slurm /var/spool/slurmd /var/spool/slurmctld /var/log/slurm /var/log/munge
  mount --bind "$dir/spool" /var/spool/slurmd
  mount --bind "$dir/ctld" /var/spool/slurmctld
  mount --bind "$dir/log" /var/log/slurm
  mount --bind "$dir/log" /var/log/munge
  mount --bind "$STATE/hosts" /etc/hosts
  if [[ -d /etc/slurm ]]; then mount --bind "$STATE/etc-slurm" /etc/slurm; fi
  echo $$ >"$dir/ready"
  trap 'exit 0' TERM INT
  while :; do
    sleep 3600 &
    wait $! || true
  done
}

start_holder() {
  local name=$1 dir=$STATE/nodes/$1 up i
  mkdir -p "$dir/spool" "$dir/ctld" "$dir/log"
  if [[ $name == head ]]; then # the cluster's PID namespace: head's holder is its PID 1
    setsid unshare --net --uts --ipc --mount --pid --fork --propagation private \
      bash "$SELF" _holder "$name" </dev/null >"$dir/holder.log" 2>&1 &
  else # a node: its own network, UTS, IPC and mount namespaces, in the cluster's PID namespace
    local hp
    hp=$(holder_pid head)
    setsid nsenter --pid="/proc/$hp/ns/pid" -- unshare --net --uts --ipc --mount --propagation private \
      bash "$SELF" _holder "$name" </dev/null >"$dir/holder.log" 2>&1 &
  fi
  up=$!
  for ((i = 0; i < 100; i++)); do # up to 10 s
    [[ -f $dir/ready ]] && break
    kill -0 "$up" 2>/dev/null || die "node $name: the kernel refused its namespaces: $(tr '\n' ' ' <"$dir/holder.log")"
    sleep 0.1
  done
  [[ -f $dir/ready ]] || die "node $name: not ready after 10 s: $(tr '\n' ' ' <"$dir/holder.log")"
  # the holder's host PID: the child of unshare or nsenter (for head, PID 1 inside)
  local child
  child=$(cat "/proc/$up/task/$up/children" 2>/dev/null | awk '{print $1}')
  [[ -n $child ]] || die "node $name: cannot find its holder process"
  echo "$child" >"$dir/pid"
  echo "$up" >"$dir/unshare.pid"
}

# The interconnect: every message leaving a node is delayed and rate-limited once (on the node's
# egress; the bridge side is left unshaped, so a node-to-node message pays once). netem does both;
# a kernel without sch_netem (CONFIG_NET_SCH_NETEM unset, as on some VM kernels) gets tbf, which
# limits the rate only: then the latency between nodes is the TCP stack's over the veth link
# (tens of microseconds here, still well above shared memory's), and an explicit --latency fails.
SHAPER=
pick_shaper() {
  local latency=$1 explicit=$2
  if unshare --net tc qdisc add dev lo root netem delay 1us 2>/dev/null; then
    SHAPER=netem
  elif [[ $explicit == 1 && $latency != 0 ]]; then
    die "this kernel has no netem qdisc (CONFIG_NET_SCH_NETEM): --latency $latency cannot be applied; '--latency 0' shapes the rate only (tbf); nothing was built"
  elif unshare --net tc qdisc add dev lo root tbf rate 1gbit burst 1mb latency 50ms 2>/dev/null; then
    SHAPER=tbf
  else
    die "tc can shape nothing here (neither netem nor tbf); nothing was built"
  fi
}

shape_link() {
  local n=$1 latency=$2 rate=$3
  if [[ $SHAPER == netem ]]; then
    net_exec "$n" tc qdisc add dev eth0 root netem delay "$latency" rate "$rate" limit 100000 ||
      die "tc netem refused delay '$latency' rate '$rate'"
  else
    net_exec "$n" tc qdisc add dev eth0 root tbf rate "$rate" burst 1mb latency 50ms ||
      die "tc tbf refused rate '$rate'"
  fi
}

# ---- up ------------------------------------------------------------------------------------------
check_packages() {
  local missing=() c
  for c in ip:iproute2 tc:iproute2 unshare:util-linux nsenter:util-linux setsid:util-linux; do
    command -v "${c%%:*}" >/dev/null || missing+=("${c#*:}")
  done
  if ((!no_slurm)); then
    for c in slurmctld:slurmctld slurmd:slurmd srun:slurm-client sinfo:slurm-client munged:munge; do
      command -v "${c%%:*}" >/dev/null || missing+=("${c#*:}")
    done
  fi
  ((${#missing[@]} == 0)) || die "missing package(s): $(printf '%s\n' "${missing[@]}" | sort -u | tr '\n' ' ')- run 'scripts/cluster.sh setup' (or scripts/setup.sh) as root; nothing was built"
}

write_slurm_conf() {
  local n i nodes=$1 cpus=$2
  mkdir -p "$STATE/etc-slurm"
  # Debian's plugstack.conf and its directory, so the Slurm tools find what they expect
  [[ -f /etc/slurm/plugstack.conf ]] && cp /etc/slurm/plugstack.conf "$STATE/etc-slurm/"
  mkdir -p "$STATE/etc-slurm/plugstack.conf.d"
  {
    echo "# written by scripts/cluster.sh up: the cluster in a box (docs/cluster.md)"
    echo "ClusterName=mgbox"
    echo "SlurmctldHost=head($NET.1)"
    echo "SlurmUser=root"
    echo "AuthType=auth/munge"
    echo "CredType=cred/munge"
    echo "StateSaveLocation=/var/spool/slurmctld"
    echo "SlurmdSpoolDir=/var/spool/slurmd"
    echo "SlurmctldPidFile=/run/slurm/slurmctld.pid"
    echo "SlurmdPidFile=/run/slurm/slurmd.pid"
    echo "SlurmctldLogFile=/var/log/slurm/slurmctld.log"
    echo "SlurmdLogFile=/var/log/slurm/slurmd.log"
    # no cgroups: the nodes share one kernel's cgroup tree; processes are tracked by parentage
    echo "ProctrackType=proctrack/linuxproc"
    echo "TaskPlugin=task/none"
    echo "JobAcctGatherType=jobacct_gather/none"
    echo "AccountingStorageType=accounting_storage/none"
    echo "SchedulerType=sched/backfill"
    echo "SelectType=select/cons_tres"
    echo "SelectTypeParameters=CR_Core"
    echo "MpiDefault=none"
    echo "ReturnToService=2"
    # the configured CPUs count, not the machine's (every node is the same 2-core machine)
    echo "SlurmdParameters=config_overrides"
    echo "SlurmdTimeout=60"
    echo "InactiveLimit=0"
    echo "KillWait=5"
    echo "MinJobAge=10"
    echo "MessageTimeout=30"
    for ((i = 1; i <= nodes; i++)); do
      echo "NodeName=n$i NodeAddr=$NET.$((10 + i)) NodeHostname=n$i CPUs=$cpus RealMemory=1000 State=UNKNOWN"
    done
    echo "PartitionName=box Nodes=ALL Default=YES MaxTime=INFINITE State=UP"
  } >"$STATE/etc-slurm/slurm.conf"
}

start_daemons() {
  local n=$1 role=$2
  node_exec "$n" munged --force --key-file="$STATE/munge.key" --socket=/run/munge/munge.socket.2 \
    --pid-file=/run/munge/munged.pid --log-file=/var/log/munge/munged.log --seed-file=/run/munge/munged.seed ||
    die "node $n: munged did not start (see $STATE/nodes/$n/log/munged.log)"
  if [[ $role == ctld ]]; then
    node_exec "$n" slurmctld -i || die "head: slurmctld did not start (see $STATE/nodes/head/log/slurmctld.log)"
  else
    node_exec "$n" slurmd || die "node $n: slurmd did not start (see $STATE/nodes/$n/log/slurmd.log)"
  fi
}

cmd_up() {
  local nodes=2 latency=100us rate=2gbit cpus=2 no_slurm=0 explicit_latency=0
  while (($#)); do
    case $1 in
      --nodes) nodes=${2:?--nodes needs a count}; shift 2 ;;
      --latency) latency=${2:?--latency needs a time (e.g. 100us)}; explicit_latency=1; shift 2 ;;
      --rate) rate=${2:?--rate needs a rate (e.g. 2gbit)}; shift 2 ;;
      --cpus) cpus=${2:?--cpus needs a count}; shift 2 ;;
      --no-slurm) no_slurm=1; shift ;;
      *) die "up: unknown option '$1' (see the head of $SELF)" ;;
    esac
  done
  [[ $nodes =~ ^[0-9]+$ ]] && ((nodes >= 1 && nodes <= 32)) || die "up: --nodes must be 1..32, not '$nodes'"
  [[ $cpus =~ ^[0-9]+$ ]] && ((cpus >= 1)) || die "up: --cpus must be a positive count, not '$cpus'"
  [[ $(id -u) -eq 0 ]] || die "up needs root (namespaces, veth, tc)"
  check_packages
  if [[ -e $STATE ]]; then
    if [[ -n $(holder_pid head) ]]; then
      die "the cluster is already up ($STATE); 'scripts/cluster.sh down' first"
    fi
    die "$STATE is left from a cluster that died; 'scripts/cluster.sh down' cleans it"
  fi
  # the kernel must give us namespaces; say so plainly when it does not
  local err
  err=$(unshare --net --uts --ipc --mount --pid --fork --mount-proc true 2>&1) ||
    die "the kernel refuses namespaces (unshare --net --uts --ipc --mount --pid: $err); no cluster"
  pick_shaper "$latency" "$explicit_latency"
  [[ $SHAPER == netem ]] || latency="0 (no netem in this kernel)"

  mkdir -p "$STATE/nodes"
  # from here on, anything that fails takes down what was built
  trap 'note "up failed; taking down what was built"; teardown >/dev/null 2>&1 || true' EXIT
  {
    echo "127.0.0.1 localhost"
    echo "$NET.1 head"
    for ((i = 1; i <= nodes; i++)); do echo "$NET.$((10 + i)) n$i"; done
  } >"$STATE/hosts"
  : >"$STATE/nodes.txt"
  for ((i = 1; i <= nodes; i++)); do echo "n$i" >>"$STATE/nodes.txt"; done
  printf 'nodes=%s shaper=%s latency=%s rate=%s cpus=%s slurm=%s\n' "$nodes" "$SHAPER" "${latency// /_}" "$rate" "$cpus" $((!no_slurm)) >"$STATE/config"
  write_slurm_conf "$nodes" "$cpus"
  head -c 1024 /dev/urandom >"$STATE/munge.key"
  chmod 0600 "$STATE/munge.key"

  start_holder head
  net_exec head ip link add br0 type bridge
  net_exec head ip addr add "$NET.1/24" dev br0
  net_exec head ip link set br0 up
  for ((i = 1; i <= nodes; i++)); do
    start_holder "n$i"
    local p
    p=$(holder_pid "n$i")
    net_exec head ip link add "v-n$i" type veth peer name eth0 netns "$p"
    net_exec head ip link set "v-n$i" master br0 up
    net_exec "n$i" ip addr add "$NET.$((10 + i))/24" dev eth0
    net_exec "n$i" ip link set eth0 up
    shape_link "n$i" "$latency" "$rate"
  done
  if ((!no_slurm)); then
    start_daemons head ctld
    for ((i = 1; i <= nodes; i++)); do start_daemons "n$i" slurmd; done
    # slurmd registers with slurmctld: wait until every node is idle (up to 30 s)
    local k idle=0
    for ((k = 0; k < 60; k++)); do
      idle=$(node_exec head sinfo -h -o '%T %D' 2>/dev/null | awk '$1=="idle"{s+=$2} END{print s+0}')
      ((idle == nodes)) && break
      sleep 0.5
    done
    ((idle == nodes)) || die "Slurm: $idle of $nodes nodes idle after 30 s: $(node_exec head sinfo -h 2>&1 | tr '\n' ';')"
  fi
  trap - EXIT
  note "up: head + $nodes node(s), latency $latency, rate $rate$( ((no_slurm)) && echo ', no Slurm')"
}

# ---- down ----------------------------------------------------------------------------------------
# Kill every holder (head's is PID 1 of the cluster: the kernel kills all of the nodes' processes,
# then frees their namespaces, links and mounts), wait until they are gone, then remove the state.
teardown() {
  local d p pids=() un
  [[ -d $STATE/nodes ]] || { rm -rf "$STATE"; return 0; }
  for d in "$STATE"/nodes/*/; do
    d=${d%/}
    p=$(holder_pid "$(basename "$d")")
    [[ -n $p ]] && { kill -TERM "$p" 2>/dev/null || true; pids+=("$p"); }
    if [[ -f $d/unshare.pid ]]; then
      un=$(<"$d/unshare.pid")
      [[ -d /proc/$un && $(cat "/proc/$un/comm" 2>/dev/null) == unshare ]] && pids+=("$un")
    fi
  done
  local i alive
  for ((i = 0; i < 100; i++)); do # up to 10 s, then KILL
    alive=0
    for p in "${pids[@]}"; do [[ -d /proc/$p ]] && alive=1; done
    ((alive)) || break
    ((i == 50)) && for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
    sleep 0.1
  done
  ((alive == 0)) || { echo "cluster: processes ${pids[*]} would not die" >&2; return 1; }
  rm -rf "$STATE"
}

cmd_down() {
  [[ -e $STATE ]] || die "down: no cluster is up (no $STATE); nothing to do"
  teardown || die "down: could not stop everything; see above"
  note "down: every node stopped, $STATE removed"
}

# ---- status, exec, hostfile, setup -------------------------------------------------------------
cmd_status() {
  [[ -e $STATE ]] || { note "no cluster is up"; return 3; }
  cat "$STATE/config"
  local n p bad=0
  for n in head $(nodes_list); do
    p=$(holder_pid "$n")
    if [[ -z $p ]]; then
      echo "$n: DOWN (holder gone)"
      bad=1
      continue
    fi
    local addr daemons
    addr=$(node_exec "$n" ip -4 -o addr show | awk '$2!="lo"{print $2"="$4}' | tr '\n' ' ')
    daemons=$(node_exec "$n" bash -c 'me=$(readlink /proc/self/ns/uts)
      for d in /proc/[0-9]*; do [[ $(readlink $d/ns/uts 2>/dev/null) == "$me" ]] && cat $d/comm; done 2>/dev/null' | grep -E '^(munged|slurmctld|slurmd)$' | sort | tr '\n' ' ' || true)
    echo "$n: holder $p, $(node_exec "$n" hostname), $addr, daemons: ${daemons:-none}"
  done
  if grep -q 'slurm=1' "$STATE/config" && [[ -n $(holder_pid head) ]]; then
    node_exec head sinfo -N -o '%N %T %c' || bad=1
  fi
  return $bad
}

# Open MPI's hostfile ("n1 slots=2"), or with --mpich Hydra's ("n1:2").
cmd_hostfile() {
  local fmt=ompi slots n
  [[ ${1:-} == --mpich ]] && { fmt=mpich; shift; }
  slots=${1:-2}
  [[ -e $STATE ]] || die "hostfile: no cluster is up"
  for n in $(nodes_list); do
    if [[ $fmt == mpich ]]; then echo "$n:$slots"; else echo "$n slots=$slots"; fi
  done
}

cmd_setup() {
  local missing=() p
  for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  ((${#missing[@]})) || { note "setup: all packages present"; return 0; }
  [[ $(id -u) -eq 0 ]] || die "setup: missing ${missing[*]}; run as root"
  note "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

case ${1:-} in
  _holder) holder_main "$2" ;;
  up) shift; cmd_up "$@" ;;
  down) cmd_down ;;
  status) cmd_status ;;
  exec)
    [[ $# -ge 3 ]] || die "usage: scripts/cluster.sh exec NODE CMD [ARG...]"
    n=$2
    shift 2
    node_exec "$n" "$@"
    ;;
  hostfile) shift; cmd_hostfile "$@" ;;
  setup) cmd_setup ;;
  *) die "usage: scripts/cluster.sh setup|up [--nodes N] [--latency T] [--rate R] [--cpus C] [--no-slurm]|down|status|exec NODE CMD...|hostfile [--mpich] [SLOTS]" ;;
esac
