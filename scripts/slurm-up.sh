#!/usr/bin/env bash
# slurm-up.sh [DIR] — a one-node Slurm cluster on this Debian machine for RunShepherd's Slurm backend tests.
#
# Installs the Debian packages (slurmctld slurmd slurm-client munge) when a binary is missing, writes a config
# sized from `slurmd -C` into DIR (default /tmp/runshepherd-slurm), starts a private munged, slurmctld and slurmd
# (no systemd needed) and waits until the node accepts jobs. Prints `export SLURM_CONF=…` on stdout; the same
# line is in DIR/env.sh. Re-running while the cluster is up does nothing. Needs root: slurmd runs jobs as their
# owner. Stop with scripts/slurm-down.sh DIR.
#
# Knobs: RS_SLURM_PORT_BASE (default 6817: slurmctld, +1 slurmd), RS_SLURM_NODE (localnode),
#        RS_SLURM_PARTITION (debug), RS_SLURM_NO_INSTALL=1 (fail instead of apt-get), RS_SLURM_WAIT (60 s).
set -euo pipefail

dir=${1:-${RS_SLURM_DIR:-/tmp/runshepherd-slurm}}
[[ $dir == /* ]] || dir="$PWD/$dir"
dir=${dir%/}
port=${RS_SLURM_PORT_BASE:-6817}
node=${RS_SLURM_NODE:-localnode}
partition=${RS_SLURM_PARTITION:-debug}
wait_s=${RS_SLURM_WAIT:-60}
conf=$dir/slurm.conf
sock=$dir/munge/socket

say() { printf '[slurm-up] %s\n' "$*" >&2; }
fail() { say "FAILED: $*"; for f in "$dir"/log/*.log "$dir"/munge/munged.log; do [[ -f $f ]] && { say "--- $f"; tail -n 20 "$f" >&2; }; done; exit 1; }

# running NAME FILE: FILE holds the pid of a live process called NAME (pids get reused, names rarely both)
running() { local pid; pid=$(cat "$2" 2>/dev/null || true); [[ $pid =~ ^[0-9]+$ ]] && [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$1" ]]; }
poll_until() { local deadline=$((SECONDS + wait_s)); until "$@" >/dev/null 2>&1; do ((SECONDS < deadline)) || return 1; sleep 0.2; done; }

[[ $(id -u) == 0 ]] || { say "run me as root (slurmd must be able to start jobs as any user)"; exit 1; }
export PATH=$PATH:/usr/sbin:/sbin

if [[ -f $conf ]] && running munged "$dir/munge/pid" && running slurmctld "$dir/run/slurmctld.pid" \
   && running slurmd "$dir/run/slurmd.pid" && SLURM_CONF=$conf scontrol ping 2>/dev/null | grep -q UP; then
  say "already up in $dir"
  echo "export SLURM_CONF=$conf"
  exit 0
fi

# -- packages -----------------------------------------------------------------------------------------------
missing=0
for b in munged munge unmunge slurmctld slurmd sbatch squeue scontrol scancel sinfo; do command -v "$b" >/dev/null || missing=1; done
if ((missing)); then
  [[ ${RS_SLURM_NO_INSTALL:-0} == 1 ]] && { say "Slurm binaries missing and RS_SLURM_NO_INSTALL=1"; exit 1; }
  say "installing slurmctld slurmd slurm-client munge"
  # Package scripts must not start system-wide daemons (they would take /run/munge and the default ports).
  own_policy=0
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; own_policy=1; fi
  rc=0
  { DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends slurmctld slurmd slurm-client munge; } >"/tmp/slurm-up-apt.$$.log" 2>&1 || rc=$?
  ((own_policy)) && rm -f /usr/sbin/policy-rc.d
  ((rc == 0)) || { tail -n 20 "/tmp/slurm-up-apt.$$.log" >&2; say "apt-get failed ($rc)"; exit 1; }
  rm -f "/tmp/slurm-up-apt.$$.log"
fi

# -- leftovers of an earlier, half-dead start in the same DIR -----------------------------------------------
if running munged "$dir/munge/pid" || running slurmctld "$dir/run/slurmctld.pid" || running slurmd "$dir/run/slurmd.pid"; then
  say "a partial cluster runs in $dir; stopping it first"
  "$(dirname "${BASH_SOURCE[0]}")/slurm-down.sh" "$dir" >&2
fi
for p in "$port" $((port + 1)); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then say "port $p is taken; set RS_SLURM_PORT_BASE"; exit 1; fi
done

mkdir -p "$dir"/{state,spool,log,run,munge}
chmod 0755 "$dir" "$dir/munge"        # munged insists that its socket directory is world-executable
[[ -s $dir/munge/key ]] || head -c 1024 /dev/urandom >"$dir/munge/key"
chmod 0400 "$dir/munge/key"

# -- hardware and process tracking ----------------------------------------------------------------------------
hw=$(slurmd -C | head -n 1)
field() { sed -n "s/.*[[:space:]]$1=\([^[:space:]]*\).*/\1/p" <<<" $hw"; }
cpus=$(field CPUs); mem=$(field RealMemory)
[[ -n $cpus && -n $mem ]] || { say "cannot read the hardware from 'slurmd -C': $hw"; exit 1; }

# With writable cgroup v1 memory+freezer hierarchies, Slurm enforces --mem and reports OUT_OF_MEMORY;
# otherwise it can only poll usage (OverMemoryKill), and an overrun ends as FAILED.
cgroup_v1() {
  local c probe
  for c in memory freezer; do
    [[ $(stat -fc %T "/sys/fs/cgroup/$c" 2>/dev/null) == cgroupfs ]] || return 1
    probe=/sys/fs/cgroup/$c/rs-slurm-probe-$$
    mkdir "$probe" 2>/dev/null && rmdir "$probe" || return 1
  done
}
if cgroup_v1; then
  tracking="ProctrackType=proctrack/cgroup
TaskPlugin=task/cgroup"
  printf '%s\n' CgroupPlugin=cgroup/v1 CgroupMountpoint=/sys/fs/cgroup ConstrainRAMSpace=yes \
    ConstrainSwapSpace=no ConstrainCores=no ConstrainDevices=no >"$dir/cgroup.conf"
else
  tracking="ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherParams=OverMemoryKill"
  rm -f "$dir/cgroup.conf"
fi

cat >"$conf" <<CONF
# written by scripts/slurm-up.sh
ClusterName=runshepherd
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$sock
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool/%n
SlurmctldPidFile=$dir/run/slurmctld.pid
SlurmdPidFile=$dir/run/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
$tracking
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SchedulerParameters=batch_sched_delay=0
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
# a job that names no memory gets 512M per CPU, not the whole node
DefMemPerCPU=512
EnforcePartLimits=NO
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/filetxt
JobCompLoc=$dir/log/jobcomp.txt
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=1
MinJobAge=3600
KillWait=5
InactiveLimit=0
SlurmctldTimeout=30
SlurmdTimeout=60
NodeName=$node NodeAddr=127.0.0.1 NodeHostname=$(hostname) $(sed 's/^NodeName=[^ ]* //' <<<"$hw") State=UNKNOWN
PartitionName=$partition Nodes=$node Default=YES MaxTime=INFINITE State=UP
CONF
echo "export SLURM_CONF=$conf" >"$dir/env.sh"
export SLURM_CONF=$conf

# -- daemons (each one daemonizes itself) ---------------------------------------------------------------------
munged --socket="$sock" --key-file="$dir/munge/key" --pid-file="$dir/munge/pid" \
  --log-file="$dir/munge/munged.log" --seed-file="$dir/munge/seed" || fail "munged did not start"
poll_until sh -c "munge -S '$sock' -n | unmunge -S '$sock'" || fail "munged does not answer"
slurmctld -f "$conf" || fail "slurmctld did not start"
poll_until sh -c "scontrol ping | grep -q UP" || fail "slurmctld does not answer"
slurmd -f "$conf" -N "$node" || fail "slurmd did not start"
node_ready() { [[ $(sinfo -h -n "$node" -o %T 2>/dev/null) =~ ^(idle|mixed|allocated|completing)$ ]]; }
poll_until node_ready || fail "node $node never became ready"

say "up: node $node ($cpus CPUs, ${mem}M), partition $partition, config $conf"
echo "export SLURM_CONF=$conf"
