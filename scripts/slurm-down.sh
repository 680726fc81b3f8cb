#!/usr/bin/env bash
# slurm-down.sh [DIR] [--purge] — stop the cluster scripts/slurm-up.sh started in DIR.
#
# Cancels its jobs while the controller still answers, then stops slurmd, slurmctld and munged by the pids in
# DIR's pid files (checking each pid's command name first; never by name matching), removes the node's empty
# cgroup directories, and with --purge deletes DIR. Harmless when nothing runs.
set -uo pipefail

dir=${RS_SLURM_DIR:-/tmp/runshepherd-slurm}
purge=0
for arg in "$@"; do
  if [[ $arg == --purge ]]; then purge=1; else dir=$arg; fi
done
[[ $dir == /* ]] || dir="$PWD/$dir"
dir=${dir%/}
conf=$dir/slurm.conf
export PATH=$PATH:/usr/sbin:/sbin

say() { printf '[slurm-down] %s\n' "$*" >&2; }
pid_named() { local pid; pid=$(cat "$2" 2>/dev/null || true); [[ $pid =~ ^[0-9]+$ ]] && [[ $(cat "/proc/$pid/comm" 2>/dev/null) == "$1" ]] && echo "$pid"; }
gone() { [[ ! -d /proc/$1 ]] || [[ $(awk '/^State:/{print $2}' "/proc/$1/status" 2>/dev/null) == Z ]]; }
stop() { # stop NAME PIDFILE: SIGTERM, then SIGKILL after 15 s
  local pid i
  pid=$(pid_named "$1" "$2") || return 0
  kill -TERM "$pid" 2>/dev/null
  for ((i = 0; i < 75; i++)); do gone "$pid" && { say "stopped $1 ($pid)"; return 0; }; sleep 0.2; done
  say "$1 ($pid) ignored SIGTERM; killing it"
  kill -KILL "$pid" 2>/dev/null
}

if [[ -f $conf ]] && pid_named slurmctld "$dir/run/slurmctld.pid" >/dev/null; then
  export SLURM_CONF=$conf
  jobs=$(squeue -h -o %A 2>/dev/null | sort -u | tr '\n' ' ')
  if [[ -n ${jobs// /} ]]; then
    say "cancelling jobs $jobs"
    # shellcheck disable=SC2086
    scancel $jobs 2>/dev/null
    for ((i = 0; i < 100; i++)); do [[ -z $(squeue -h -t R,CG,S 2>/dev/null) ]] && break; sleep 0.2; done
  fi
fi

stop slurmd "$dir/run/slurmd.pid"
stop slurmctld "$dir/run/slurmctld.pid"
stop munged "$dir/munge/pid"

# Job cgroups (cgroup v1 mode): kill what is still inside by pid, then remove the empty directories.
if [[ -f $conf && -f $dir/cgroup.conf ]]; then
  for node in $(sed -n 's/^NodeName=\([^ ]*\).*/\1/p' "$conf"); do
    for top in /sys/fs/cgroup/*/slurm_"$node"; do
      [[ -d $top ]] || continue
      left=$(find "$top" -name cgroup.procs -exec cat {} + 2>/dev/null | sort -u | tr '\n' ' ')
      # shellcheck disable=SC2086
      [[ -n ${left// /} ]] && { say "killing leftover job processes $left"; kill -KILL $left 2>/dev/null; sleep 0.5; }
      find "$top" -depth -type d -exec rmdir {} \; 2>/dev/null
    done
  done
fi

((purge)) && [[ -d $dir ]] && rm -rf "$dir" && say "removed $dir"
say "done"
