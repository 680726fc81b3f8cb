#!/usr/bin/env bash
# pg-down.sh [DIR] [--purge] — stop the PostgreSQL scripts/pg-up.sh started in DIR (pg_ctl stop -m fast).
# With --purge, delete DIR. Harmless when nothing runs.
set -uo pipefail

dir=${RS_PG_DIR:-/tmp/runshepherd-pg}
purge=0
for arg in "$@"; do
  if [[ $arg == --purge ]]; then purge=1; else dir=$arg; fi
done
[[ $dir == /* ]] || dir="$PWD/$dir"
dir=${dir%/}
say() { printf '[pg-down] %s\n' "$*" >&2; }

bin=""
for d in /usr/lib/postgresql/*/bin; do [[ -x $d/pg_ctl ]] && bin=$d; done
if [[ -n $bin && -f $dir/data/PG_VERSION ]] && runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
  runuser -u postgres -- "$bin/pg_ctl" -D "$dir/data" -m fast -w -t 30 stop >/dev/null && say "stopped"
fi
((purge)) && [[ -d $dir ]] && rm -rf "$dir" && say "removed $dir"
say "done"
