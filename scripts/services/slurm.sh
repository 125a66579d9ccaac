#!/usr/bin/env bash
# A single-node Slurm cluster on this machine for errbook's Slurm runner tests, runnable by hand
# (as root: it installs Debian's slurm-wlm and munge when missing and starts daemons):
#
#   bash scripts/services/slurm.sh start
#   export SLURM_CONF=$PWD/target/services/slurm/slurm.conf ERRBOOK_TEST_SLURM=1
#   cargo test --test it slurm
#   bash scripts/services/slurm.sh stop
#
# munged (Debian's key, /run/munge), slurmctld and slurmd on this host, one partition `cpu`
# with every core and two fake GPUs (a gres of two character devices in the state folder, so
# that `--gres=gpu:N` is scheduled and CUDA_VISIBLE_DEVICES set, as on a GPU node). No
# accounting database: job states come from squeue and `scontrol show job`, as on clusters
# where accounting is off. Everything else lives in the state folder (target/services/slurm, or
# $STATE), which slurm.conf names; SLURM_CONF points the commands at it.
#
# Arrays hold at most MAX_ARRAY_SIZE tasks (slurm.conf's MaxArraySize; 4 unless set, far under
# Slurm's default 1001, so that tests/it/slurm.rs sees a plan of more runs split into arrays):
#
#   MAX_ARRAY_SIZE=1001 bash scripts/services/slurm.sh start
set -euo pipefail
cd "$(dirname "$0")/../.."
STATE=${STATE:-$PWD/target/services/slurm}
NODE=$(hostname -s)
MAX_ARRAY_SIZE=${MAX_ARRAY_SIZE:-4}
case "$MAX_ARRAY_SIZE" in
  ''|*[!0-9]*) echo "slurm.sh: MAX_ARRAY_SIZE must be a number, not '$MAX_ARRAY_SIZE'" >&2; exit 2 ;;
esac

start() {
  if [ "$(id -u)" != 0 ]; then
    echo "slurm.sh: run as root (it starts munged, slurmctld and slurmd)" >&2
    exit 1
  fi
  if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends slurm-wlm munge >/dev/null 2>&1 \
      || { apt-get update -qq && apt-get install -y --no-install-recommends slurm-wlm munge >/dev/null; }
  fi
  stop >/dev/null 2>&1 || true
  mkdir -p "$STATE/ctld" "$STATE/d" "$STATE/dev" /run/munge
  chown munge:munge /run/munge
  [ -f /etc/munge/munge.key ] || { mungekey --create --keyfile=/etc/munge/munge.key; chown munge:munge /etc/munge/munge.key; }
  if ! munge -n </dev/null >/dev/null 2>&1; then
    runuser -u munge -- /usr/sbin/munged
  fi
  for i in 0 1; do [ -e "$STATE/dev/gpu$i" ] || mknod "$STATE/dev/gpu$i" c 1 3; done
  local cpus mem
  cpus=$(nproc)
  mem=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 / 2 ))
  cat > "$STATE/gres.conf" <<CONF
NodeName=$NODE Name=gpu File=$STATE/dev/gpu[0-1]
CONF
  cat > "$STATE/slurm.conf" <<CONF
ClusterName=errbook
SlurmctldHost=$NODE
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/d
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/slurmctld.log
SlurmdLogFile=$STATE/slurmd.log
SlurmctldPort=6817
SlurmdPort=6818
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
SchedulerParameters=sched_interval=1
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
ReturnToService=2
MinJobAge=600
MaxArraySize=$MAX_ARRAY_SIZE
GresTypes=gpu
NodeName=$NODE CPUs=$cpus RealMemory=$mem Gres=gpu:2 State=UNKNOWN
PartitionName=cpu Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
CONF
  # slurmd reads gres.conf beside slurm.conf.
  export SLURM_CONF=$STATE/slurm.conf
  slurmctld -f "$STATE/slurm.conf"
  slurmd -f "$STATE/slurm.conf"
  for _ in $(seq 100); do
    if sinfo -h -o %t 2>/dev/null | grep -qx idle; then
      echo "slurm: up, node $NODE idle in partition cpu, arrays of at most $MAX_ARRAY_SIZE tasks"
      echo "export SLURM_CONF=$STATE/slurm.conf ERRBOOK_TEST_SLURM=1"
      return 0
    fi
    scontrol update nodename="$NODE" state=resume >/dev/null 2>&1 || true
    sleep 0.2
  done
  echo "slurm.sh: the node did not become idle; sinfo says:" >&2
  sinfo >&2 || true
  tail -20 "$STATE/slurmctld.log" "$STATE/slurmd.log" >&2 || true
  exit 1
}

stop() {
  # Wait for each daemon to end: one that is still shutting down when the next start begins
  # removes the pid file the new one just wrote, and the new one then outlives every stop.
  for p in slurmd slurmctld; do
    if [ -f "$STATE/$p.pid" ]; then
      local pid
      pid=$(cat "$STATE/$p.pid")
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      rm -f "$STATE/$p.pid"
    fi
  done
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
