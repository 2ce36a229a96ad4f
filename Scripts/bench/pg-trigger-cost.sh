#!/usr/bin/env bash
# What the event log's triggers (PostgreSQL migration v7, issue 26) cost one message's
# transaction: the pgbench floor of issue 25 (pg-floor-message.sql, on the server's own
# schema) with the triggers enabled and disabled, alternated, 1 client and 8, and
# PostgreSQL's CPU per transaction from /proc. Figures are printed, never asserted.
#
#   Scripts/bench/pg-trigger-cost.sh BIN_DIR [ROUNDS] [SECS]
#
# BIN_DIR holds a built messageai-server (it migrates the database once). A throw-away
# cluster is made in a temporary directory (fsync on, synchronous_commit on, as bench.sh's)
# and stopped at the end. PIN (default 0) pins PostgreSQL, PIN_GEN (1) pgbench.
set -euo pipefail
cd "$(dirname "$0")/../.."
BIN=$1; ROUNDS=${2:-2}; SECS=${3:-10}
PIN=${PIN-0}; PIN_GEN=${PIN_GEN-1}
OUT=$(mktemp -d /tmp/messageai-trigger-cost.XXXXXX)
chmod 755 "$OUT"
./Scripts/postgres.sh start --dir "$OUT/pg" >/dev/null
trap './Scripts/postgres.sh stop --dir "$OUT/pg" >/dev/null 2>&1 || true; rm -rf "$OUT"' EXIT
pid=$(head -n 1 "$OUT/pg/data/postmaster.pid")
[ -n "$PIN" ] && taskset -a -cp "$PIN" "$pid" >/dev/null
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -t/ -k4 -n | tail -n 1)
port=$(cat "$OUT/pg/port" 2>/dev/null || echo 5432)
psql() { "$bin/psql" -q -h "$OUT/pg" -p "$port" -U postgres -d floor -v ON_ERROR_STOP=1 "$@"; }
"$bin/createdb" -h "$OUT/pg" -p "$port" -U postgres floor
# The postgres.sh cluster's fsync setting is left as it is; the commit waits for the flush.
"$bin/psql" -q -h "$OUT/pg" -p "$port" -U postgres -d floor -c "ALTER SYSTEM SET synchronous_commit = on" -c "SELECT pg_reload_conf()" >/dev/null
data=$OUT/server; mkdir -p "$data"
"$BIN/messageai-server" --host 127.0.0.1 --port 0 --plaintext --data-dir "$data" \
  --database "postgres://postgres@/floor?host=$OUT/pg&port=$port&sslmode=disable" 2>"$data/log" &
server=$!
deadline=$((SECONDS + 60))
until grep -q "listening on" "$data/log" 2>/dev/null; do
  kill -0 "$server" 2>/dev/null && [ "$SECONDS" -lt "$deadline" ] || { cat "$data/log" >&2; exit 1; }
  sleep 0.2   # polling a log file for a condition, under the deadline above
done
kill "$server"; wait "$server" 2>/dev/null || true
psql -f Scripts/bench/pg-floor-setup.sql >/dev/null

pg_cpu() {  # CPU seconds of the postmaster, its live children, and the children it reaped
  # (cutime/cstime: pgbench's backends exit before the second sample)
  local total=0 p
  for p in "$pid" $(pgrep -P "$pid"); do
    total=$(awk -v t="$total" -v root="$([ "$p" = "$pid" ] && echo 1 || echo 0)" '{ split($0, a, ") "); split(a[2], f, " ");
      print t + (f[12] + f[13] + (root ? f[14] + f[15] : 0)) / 100 }' "/proc/$p/stat" 2>/dev/null || echo "$total")
  done
  echo "$total"
}
gen=(); [ -n "$PIN_GEN" ] && gen=(taskset -c "$PIN_GEN")
for r in $(seq 1 "$ROUNDS"); do
  for mode in on off; do
    if [ "$mode" = on ]; then verb=ENABLE; else verb=DISABLE; fi
    psql -c "ALTER TABLE messages $verb TRIGGER messages_to_events" -c "ALTER TABLE events $verb TRIGGER events_notify"
    for c in 1 8; do
      before=$(pg_cpu)
      out=$("${gen[@]}" "$bin/pgbench" -h "$OUT/pg" -p "$port" -U postgres -n -M prepared \
            -f Scripts/bench/pg-floor-message.sql -c "$c" -j 1 -T "$SECS" floor 2>&1)
      after=$(pg_cpu)
      tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -n 1)
      lat=$(echo "$out" | sed -n 's/^latency average = \([0-9.]*\) ms.*/\1/p')
      tx=$(echo "$out" | sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p')
      cpu=$(awk -v a="$before" -v b="$after" -v n="$tx" 'BEGIN { printf "%.0f", (b - a) * 1e6 / (n > 0 ? n : 1) }')
      echo "RESULT workload=TRIGGERS triggers=$mode round=$r clients=$c tps=$tps latency_avg_ms=$lat pg_cpu_us_per_tx=$cpu"
    done
  done
done
