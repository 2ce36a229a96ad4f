#!/usr/bin/env bash
# A local PostgreSQL for a MessageAI server, without touching the system's own clusters.
#
#   Scripts/postgres.sh start [--dir DIR] [--temp] [--port N]   start (initdb on first use); prints the URL
#   Scripts/postgres.sh url   [--dir DIR]                        the URL for --database / MESSAGEAI_DATABASE_URL
#   Scripts/postgres.sh status [--dir DIR]
#   Scripts/postgres.sh stop  [--dir DIR]                        stop by PID (a --temp cluster is also removed)
#
# DIR defaults to $MESSAGEAI_PG_DIR, else /var/tmp/messageai-postgres (kept across reboots:
# a persistent database). --temp makes a throw-away cluster in a new temporary directory
# (fsync off: fast, and lost with the directory). The cluster listens only on a unix socket in
# DIR, which is mode 0700: only its owner (and root) can connect; no TCP port is opened unless
# --port is given (then on 127.0.0.1 only). A database `messageai` is created on first start.
#
#   ./Scripts/postgres.sh start
#   messageai-server --database "$(./Scripts/postgres.sh url)"
#
# As root, initdb and postgres refuse to run, so both run as the `postgres` user (created by
# Debian's package), which then owns DIR. PostgreSQL is installed from Debian's packages when
# missing, with no service started (the package's own `main` cluster is never used).
set -euo pipefail

command="${1:-}"; shift || true
dir="${MESSAGEAI_PG_DIR:-/var/tmp/messageai-postgres}"
temp=false
port=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) dir="$2"; shift 2 ;;
    --temp) temp=true; shift ;;
    --port) port="$2"; shift 2 ;;
    *) echo "postgres.sh: unknown option '$1'" >&2; exit 2 ;;
  esac
done

die() { echo "postgres.sh: $*" >&2; exit 1; }

# Debian puts the binaries in /usr/lib/postgresql/VERSION/bin, not on PATH; the newest wins.
find_bin() {
  local newest=""
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/postgres" ] && [ -x "$d/initdb" ] || continue
    if [ -z "$newest" ] || [ "$(basename "$(dirname "$d")")" -gt "$(basename "$(dirname "$newest")")" ]; then newest="$d"; fi
  done
  echo "$newest"
}

install_postgres() {
  local sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "postgres.sh: installing postgresql from Debian's packages" >&2
  $sudo apt-get update -qq
  # policy-rc.d answering 101 is Debian's way to say "start no service now" (as in install-deps.sh).
  local guard=""
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    guard=/usr/sbin/policy-rc.d
    printf '#!/bin/sh\nexit 101\n' | $sudo tee "$guard" >/dev/null
    $sudo chmod 755 "$guard"
  fi
  local status=0
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends postgresql >/dev/null || status=$?
  [ -z "$guard" ] || $sudo rm -f "$guard"
  [ "$status" -eq 0 ] || die "apt-get install postgresql failed ($status)"
}

# Runs a PostgreSQL program as the cluster's owner: `postgres` when we are root, else ourselves.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pid_of() {
  [ -f "$dir/data/postmaster.pid" ] || return 1
  local pid; pid="$(head -n 1 "$dir/data/postmaster.pid")"
  [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null && echo "$pid"
}

saved_port() { cat "$dir/port" 2>/dev/null || echo 5432; }

url() { echo "postgres://postgres@/messageai?host=$dir&port=$(saved_port)&sslmode=disable"; }

start() {
  local bin; bin="$(find_bin)"
  if [ -z "$bin" ]; then install_postgres; bin="$(find_bin)"; fi
  [ -n "$bin" ] || die "no PostgreSQL binaries under /usr/lib/postgresql/*/bin"
  if $temp; then
    dir="$(mktemp -d /tmp/messageai-pg.XXXXXX)"
    touch "$dir/.throwaway"
  fi
  if pid="$(pid_of)"; then echo "postgres.sh: already running (pid $pid)" >&2; url; return; fi
  mkdir -p "$dir"
  chmod 700 "$dir"
  [ "$(id -u)" -ne 0 ] || chown postgres:postgres "$dir"
  # The postgres user must traverse every parent of DIR.
  as_owner test -x "$dir" || die "the postgres user cannot reach $dir (a parent is not traversable); use --dir"
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-instructions >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; die "initdb failed"; }
  fi
  [ -z "$port" ] || echo "$port" > "$dir/port"
  local listen="" p; p="$(saved_port)"
  [ -z "$port" ] || listen="127.0.0.1"
  local fsync=on; [ -f "$dir/.throwaway" ] && fsync=off
  # wal_recycle=off: removed WAL segments are unlinked, not renamed with their old bytes (the
  # purge of deleted messages relies on it); synchronous_commit=on: an ack survives a crash.
  as_owner setsid "$bin/postgres" -D "$dir/data" -k "$dir" -p "$p" -c "listen_addresses=$listen" \
    -c fsync=$fsync -c synchronous_commit=on -c wal_recycle=off >>"$dir/server.log" 2>&1 < /dev/null &
  local deadline=$((SECONDS + 60))
  until [ -f "$dir/data/postmaster.pid" ] && [ "$(tail -n 1 "$dir/data/postmaster.pid" | tr -d ' ')" = ready ]; do
    if [ $SECONDS -ge $deadline ] || ! kill -0 $! 2>/dev/null; then tail -n 20 "$dir/server.log" >&2; die "postgres did not start"; fi
    sleep 0.1
  done
  if [ "$(as_owner "$bin/psql" -h "$dir" -p "$p" -U postgres -XAtqc "SELECT 1 FROM pg_database WHERE datname = 'messageai'")" != 1 ]; then
    as_owner "$bin/createdb" -h "$dir" -p "$p" -U postgres messageai
  fi
  echo "postgres.sh: running in $dir (pid $(pid_of)); stop with: $0 stop --dir $dir" >&2
  url
}

stop() {
  local pid
  if pid="$(pid_of)"; then
    kill -INT "$pid"  # fast shutdown: clients disconnected, then a checkpoint
    local deadline=$((SECONDS + 30))
    while kill -0 "$pid" 2>/dev/null; do
      if [ $SECONDS -ge $deadline ]; then kill -KILL "$pid"; break; fi
      sleep 0.1
    done
    echo "postgres.sh: stopped (pid $pid)" >&2
  else
    echo "postgres.sh: not running in $dir" >&2
  fi
  if [ -f "$dir/.throwaway" ]; then rm -rf "$dir"; echo "postgres.sh: removed $dir" >&2; fi
}

case "$command" in
  start) start ;;
  stop) stop ;;
  url) [ -f "$dir/data/PG_VERSION" ] || die "no cluster in $dir (run: $0 start)"; url ;;
  status) if pid="$(pid_of)"; then echo "running (pid $pid): $(url)"; else echo "not running ($dir)"; exit 3; fi ;;
  *) sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2 ;;
esac
