#!/usr/bin/env bash
# pg-up.sh [DIR] — a private PostgreSQL on this Debian machine for RunShepherd's PostgreSQL session tests.
#
# Installs the Debian package (postgresql) when initdb is missing, creates a cluster in DIR (default
# /tmp/runshepherd-pg) owned by the postgres user, starts it on 127.0.0.1 only (no system service, no systemd)
# and creates the database `runshepherd`. Prints `export RS_TEST_PG_URL=postgresql://…` on stdout; the same
# line is in DIR/env.sh. Re-running while it is up does nothing. Needs root (initdb runs as the postgres user).
# Stop with scripts/pg-down.sh DIR.
#
# Knobs: RS_PG_PORT (default 5433), RS_PG_NO_INSTALL=1 (fail instead of apt-get), RS_PG_WAIT (30 s).
set -euo pipefail

dir=${1:-${RS_PG_DIR:-/tmp/runshepherd-pg}}
[[ $dir == /* ]] || dir="$PWD/$dir"
dir=${dir%/}
port=${RS_PG_PORT:-5433}
wait_s=${RS_PG_WAIT:-30}
url="postgresql://postgres@127.0.0.1:$port/runshepherd"

say() { printf '[pg-up] %s\n' "$*" >&2; }
fail() { say "FAILED: $*"; [[ -f $dir/log/postgres.log ]] && { say "--- $dir/log/postgres.log"; tail -n 20 "$dir/log/postgres.log" >&2; }; exit 1; }

[[ $(id -u) == 0 ]] || { say "run me as root (the cluster is created as the postgres user)"; exit 1; }

bindir() { local d; for d in /usr/lib/postgresql/*/bin; do [[ -x $d/initdb ]] && { echo "$d"; return 0; }; done; return 1; }

if ! bin=$(bindir); then
  [[ ${RS_PG_NO_INSTALL:-0} == 1 ]] && { say "PostgreSQL missing and RS_PG_NO_INSTALL=1"; exit 1; }
  say "installing postgresql"
  # Package scripts must not start the system-wide cluster (it would take port 5432 and run as a service).
  own_policy=0
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; own_policy=1; fi
  rc=0
  { DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq \
      --no-install-recommends postgresql; } >"/tmp/pg-up-apt.$$.log" 2>&1 || rc=$?
  ((own_policy)) && rm -f /usr/sbin/policy-rc.d
  ((rc == 0)) || { tail -n 20 "/tmp/pg-up-apt.$$.log" >&2; say "apt-get failed ($rc)"; exit 1; }
  rm -f "/tmp/pg-up-apt.$$.log"
  bin=$(bindir) || fail "initdb not found after installing postgresql"
fi
id postgres >/dev/null 2>&1 || fail "no postgres user (the Debian package creates it)"
as_pg() { runuser -u postgres -- "$@"; }

if [[ -f $dir/data/PG_VERSION ]] && as_pg "$bin/pg_ctl" -D "$dir/data" status >/dev/null 2>&1; then
  say "already up in $dir"
  echo "export RS_TEST_PG_URL=$url"
  exit 0
fi
if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then say "port $port is taken; set RS_PG_PORT"; exit 1; fi

mkdir -p "$dir"/{log,sock}
chown postgres:postgres "$dir" "$dir/log" "$dir/sock"
chmod 0755 "$dir"
if [[ ! -f $dir/data/PG_VERSION ]]; then
  rm -rf "$dir/data"
  as_pg "$bin/initdb" -D "$dir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 \
    >"$dir/log/initdb.log" 2>&1 || { cat "$dir/log/initdb.log" >&2; fail "initdb"; }
fi
# Only this machine's loopback, trust auth (a throwaway test cluster); enough connections for parallel tests.
as_pg "$bin/pg_ctl" -D "$dir/data" -l "$dir/log/postgres.log" -w -t "$wait_s" \
  -o "-p $port -c listen_addresses=127.0.0.1 -k $dir/sock -c max_connections=200" start >/dev/null \
  || fail "pg_ctl start"
deadline=$((SECONDS + wait_s))
until "$bin/pg_isready" -h 127.0.0.1 -p "$port" -q; do ((SECONDS < deadline)) || fail "not ready after ${wait_s}s"; sleep 0.2; done
if ! "$bin/psql" -h 127.0.0.1 -p "$port" -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='runshepherd'" | grep -q 1; then
  "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres runshepherd || fail "createdb runshepherd"
fi
echo "export RS_TEST_PG_URL=$url" >"$dir/env.sh"
say "up: $url (data in $dir/data)"
echo "export RS_TEST_PG_URL=$url"
