#!/usr/bin/env bash
# A private single-node Slurm on this machine, for tests and for trying `rlvr sweep --slurm`:
# munged, slurmctld and slurmd on localhost, with their own key, config, ports, state and logs in
# a fresh temporary folder. Nothing system-wide is written or started besides them.
#
#   scripts/slurm-local.sh install     apt-get install slurm-wlm and munge if missing (root)
#   scripts/slurm-local.sh run CMD…    start the daemons, run CMD with SLURM_CONF set, stop them
#                                      (exactly the ones it started) whatever happens; exits with CMD's status
#
# Run as root (slurmd runs the jobs as the submitting user; root keeps it to one account).
# Exit 77 (the "skipped" status) with a reason on stderr when it cannot run here.
set -euo pipefail

need_root() { [ "$(id -u)" = 0 ] || { echo "slurm-local: needs root (it starts slurmd)" >&2; exit 77; }; }
have_slurm() { command -v slurmctld >/dev/null && command -v slurmd >/dev/null && command -v munged >/dev/null && command -v sbatch >/dev/null; }

install() {
  need_root
  have_slurm && return 0
  command -v apt-get >/dev/null || { echo "slurm-local: slurm-wlm/munge are not installed and there is no apt-get" >&2; exit 77; }
  # The package scripts would start the system's own daemons; a policy that refuses keeps them off.
  local policy=/usr/sbin/policy-rc.d created=0
  if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' > "$policy"; chmod +x "$policy"; created=1; fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends slurm-wlm munge >&2 || {
    [ "$created" = 1 ] && rm -f "$policy"
    echo "slurm-local: apt-get install slurm-wlm munge failed" >&2; exit 77; }
  [ "$created" = 1 ] && rm -f "$policy"
  have_slurm || { echo "slurm-local: slurm-wlm installed but its daemons are not on PATH" >&2; exit 77; }
}

# A TCP port nobody listens on, from a range the system's own Slurm (6817/6818) does not use.
free_port() {
  local p
  for p in $(seq "$1" $(($1 + 200))); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then echo "$p"; return; fi
  done
  echo "slurm-local: no free port from $1" >&2; exit 1
}

run() {
  need_root
  have_slurm || { echo "slurm-local: slurm-wlm and munge are not installed (scripts/slurm-local.sh install)" >&2; exit 77; }
  local host cpus mem ctld_port d_port
  # Globals: the EXIT trap runs after run() has returned.
  dir=$(mktemp -d "${TMPDIR:-/tmp}/rlvr-slurm.XXXXXX")
  chmod 700 "$dir"
  host=$(hostname -s)
  cpus=$(nproc)
  mem=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
  ctld_port=$(free_port 16817)
  d_port=$(free_port $((ctld_port + 1)))
  mkdir -p "$dir/munge" "$dir/ctld" "$dir/d" "$dir/log"
  chmod 700 "$dir/munge"
  pids=()
  stop() {
    local rc=$? p
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do
      for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
      kill -KILL "$p" 2>/dev/null || true
    done
    if [ "$rc" != 0 ] && [ -n "${SLURM_LOCAL_SHOW_LOGS:-}" ]; then tail -n 20 "$dir"/log/* >&2 || true; fi
    rm -rf "$dir"
    exit "$rc"
  }
  trap stop EXIT
  trap 'exit 130' INT TERM

  # Our own key: munged and Slurm use this socket, not the system's.
  dd if=/dev/urandom of="$dir/munge/munge.key" bs=1 count=1024 status=none
  chmod 400 "$dir/munge/munge.key"
  local sock="$dir/munge/munge.sock"
  munged --foreground --force --socket="$sock" --key-file="$dir/munge/munge.key" \
    --pid-file="$dir/munge/munged.pid" --seed-file="$dir/munge/seed" --log-file="$dir/log/munged.log" 2>>"$dir/log/munged.log" &
  pids+=($!)

  cat > "$dir/slurm.conf" <<CONF
ClusterName=rlvrlocal
SlurmctldHost=$host(127.0.0.1)
SlurmUser=root
SlurmdUser=root
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$dir/ctld
SlurmdSpoolDir=$dir/d
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=300
KillWait=10
SlurmdTimeout=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
  export SLURM_CONF="$dir/slurm.conf"
  for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
  [ -S "$sock" ] || { echo "slurm-local: munged did not start:" >&2; cat "$dir/log/munged.log" >&2; exit 1; }
  slurmctld -D -i -f "$SLURM_CONF" >>"$dir/log/slurmctld.out" 2>&1 &
  pids+=($!)
  slurmd -D -f "$SLURM_CONF" >>"$dir/log/slurmd.out" 2>&1 &
  pids+=($!)
  # Ready when the node takes jobs.
  local state=""
  for _ in $(seq 150); do
    state=$(sinfo -h -n "$host" -o %t 2>/dev/null || true)
    case "$state" in idle*|mix*|alloc*) break ;; esac
    sleep 0.2
  done
  case "$state" in idle*|mix*|alloc*) ;; *)
    echo "slurm-local: the node did not come up (state '${state}')" >&2; tail -n 20 "$dir"/log/* >&2; exit 1 ;;
  esac
  echo "slurm-local: slurmctld and slurmd up on $host (ports $ctld_port/$d_port), SLURM_CONF=$SLURM_CONF" >&2
  export SLURM_LOCAL_LOGS="$dir/log"
  local rc=0
  "$@" || rc=$?
  return "$rc"
}

case "${1:-}" in
  install) install ;;
  run) shift; [ $# -gt 0 ] || { echo "usage: scripts/slurm-local.sh run CMD…" >&2; exit 2; }; run "$@" ;;
  *) echo "usage: scripts/slurm-local.sh install | run CMD…" >&2; exit 2 ;;
esac
