#!/usr/bin/env bash
# A private single-node Slurm cluster on this machine, to try the batch scripts without a real
# cluster (tuning/slurm/check.sh uses it). Needs root.
#
#   tuning/slurm/local-cluster.sh start DIR   # install slurm-wlm + munge if missing, start
#                                             # munged, slurmctld, slurmd with state in DIR
#   export SLURM_CONF=DIR/slurm.conf          # then sbatch/squeue/sinfo talk to it
#   tuning/slurm/local-cluster.sh stop DIR    # stop exactly the daemons that start started
#
# This host is controller and compute node (SelectType=select/cons_tres, CPUs from nproc,
# memory from /proc/meminfo). Everything lives in DIR: a fresh munge key and socket, the
# configuration, state, spool and logs, on ports SLURM_CHECK_PORT (16817) and the next one. No
# system configuration or service is touched, so this also works where no init system runs
# services (containers): the daemons run in the foreground (-D / --foreground) under setsid,
# and their PIDs are kept in DIR/pids for `stop`.
set -euo pipefail

say() { echo "[cluster] $*"; }
die() {
  echo "[cluster] $*" >&2
  exit 1
}

install_packages() {
  if ! command -v slurmctld > /dev/null || ! command -v slurmd > /dev/null \
    || ! command -v sbatch > /dev/null || ! command -v munged > /dev/null; then
    say "installing slurm-wlm and munge from Debian's packages"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq slurm-wlm munge > /dev/null
  fi
}

# spawn NAME LOG COMMAND...: starts COMMAND in its own session, records "PID NAME".
spawn() {
  local name=$1 log=$2
  shift 2
  setsid "$@" > "$log" 2>&1 < /dev/null &
  echo "$! $name" >> "$dir/pids"
}

start() {
  [ "$(id -u)" = 0 ] || die "run as root (it installs packages and starts daemons)"
  [ ! -e "$dir/pids" ] || die "$dir/pids exists: a cluster may be running there (stop it first)"
  install_packages
  mkdir -p "$dir"/{munge,ctld,spool,log}
  dir=$(cd "$dir" && pwd)
  chmod 755 "$dir"
  chmod 711 "$dir/munge"
  say "$(slurmctld -V), munge $(munged -V 2>&1 | awk '{print $2}' | head -1); init (PID 1)" \
    "is '$(ps -p 1 -o comm= || echo unknown)': daemons are started directly, not as services"

  local socket=$dir/munge/munge.socket
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1024 count=1 status=none
  chmod 400 "$dir/munge/munge.key"
  spawn munged "$dir/log/munged.out" munged --foreground --force --socket="$socket" \
    --key-file="$dir/munge/munge.key" --pid-file="$dir/munge/munged.pid" \
    --log-file="$dir/log/munged.log" --seed-file="$dir/munge/munged.seed"
  for _ in $(seq 50); do [ -S "$socket" ] && break; sleep 0.2; done
  munge -n --socket="$socket" | unmunge --socket="$socket" > /dev/null || die "munge does not work"

  local host cpus mem_mb port
  host=$(hostname -s)
  cpus=$(nproc)
  mem_mb=$(awk '/^MemTotal:/ {print int($2 / 1024 * 0.9)}' /proc/meminfo)
  port=${SLURM_CHECK_PORT:-16817}
  cat > "$dir/slurm.conf" << EOF
ClusterName=chariotlocal
SlurmctldHost=$host
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
MpiDefault=none
ReturnToService=2
MinJobAge=3600
MaxArraySize=10001
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=$host CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF
  export SLURM_CONF=$dir/slurm.conf
  spawn slurmctld "$dir/log/slurmctld.out" slurmctld -D -f "$SLURM_CONF"
  spawn slurmd "$dir/log/slurmd.out" slurmd -D -f "$SLURM_CONF"
  for _ in $(seq 100); do
    [ "$(sinfo -h -o %t 2> /dev/null)" = idle ] && break
    sleep 0.3
  done
  if [ "$(sinfo -h -o %t 2> /dev/null)" != idle ]; then
    tail -n 20 "$dir/log/slurmctld.log" "$dir/log/slurmd.log" >&2 || true
    stop
    die "the node did not come up idle"
  fi
  say "up: $host, $cpus CPUs, $mem_mb MB, select/cons_tres, port $port;" \
    "$(sinfo -h -o 'partition %P %a, %D node %t, CPUs (A/I/O/T) %C')"
  say "export SLURM_CONF=$SLURM_CONF"
}

stop() {
  [ -e "$dir/pids" ] || return 0
  local pid name stopped=()
  # Stop in reverse order of start (slurmd, slurmctld, munged), each only if the PID still
  # runs the program that start started.
  while read -r pid name; do
    if [ "$(ps -p "$pid" -o comm= 2> /dev/null)" = "$name" ]; then
      kill "$pid"
      for _ in $(seq 50); do
        kill -0 "$pid" 2> /dev/null || break
        sleep 0.2
      done
      kill -9 "$pid" 2> /dev/null || true
      stopped+=("$name($pid)")
    fi
  done < <(tac "$dir/pids")
  rm -f "$dir/pids"
  say "stopped ${stopped[*]:-nothing (none was running)}"
}

[ $# -eq 2 ] || die "usage: $0 start|stop DIR"
dir=$2
case "$1" in
  start) start ;;
  stop) stop ;;
  *) die "usage: $0 start|stop DIR" ;;
esac
