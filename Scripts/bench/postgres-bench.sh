# Sourced by Scripts/bench.sh for `--database postgres`: the cluster the servers store in, and
# the pgbench floor of issue 25 (a message's transaction, with nothing of our server around it).
#
# The cluster is Scripts/postgres.sh's persistent kind in OUT/pg: fsync on and
# synchronous_commit on (an ack survives a crash of the database), unix socket only. Its
# postmaster is pinned to the server's core (PIN_SERVER), and so are the backends it forks, so
# the server and PostgreSQL share one core in both runs, as the issue asks ("pinned alike").

start_postgres() {
  ./Scripts/postgres.sh start --dir "$OUT/pg" >/dev/null
  trap 'Scripts/postgres.sh stop --dir "$OUT/pg" >/dev/null 2>&1 || true' EXIT
  local pid; pid=$(head -n 1 "$OUT/pg/data/postmaster.pid")
  if [ -n "$PIN_SERVER" ] && command -v taskset >/dev/null; then
    taskset -a -cp "$PIN_SERVER" "$pid" >/dev/null
  fi
  echo "# postgres: $("$(pg_bin)/postgres" --version) pid=$pid pinned=${PIN_SERVER:-none} fsync=on synchronous_commit=on" | tee -a "$OUT/ours.txt"
}

pg_bin() { ls -d /usr/lib/postgresql/*/bin | sort -t/ -k4 -n | tail -n 1; }
pg_port() { cat "$OUT/pg/port" 2>/dev/null || echo 5432; }   # postgres.sh saves it only for --port

# pg_floor: a fresh database migrated by the server itself (started once, stopped at
# "listening on"), 8 senders in 8 conversations (pg-floor-setup.sql), then pgbench with
# pg-floor-message.sql: 1 client (W1's floor: one message at a time) and 8 (throughput).
# Prints RESULT lines that stores.py reads.
pg_floor() {
  local bin url secs=${PG_FLOOR_SECS:-20}
  bin=$(pg_bin)
  "$bin/createdb" -h "$OUT/pg" -p "$(pg_port)" -U postgres floor
  url="postgres://postgres@/floor?host=$OUT/pg&port=$(pg_port)&sslmode=disable"
  local data; data=$(mktemp -d "$OUT/floor-server.XXXXXX")
  "$BIN/messageai-server" --host 127.0.0.1 --port 0 --plaintext --data-dir "$data" --database "$url" 2>"$data/log" &
  local server=$!
  local deadline=$((SECONDS + 60))
  until grep -q "listening on" "$data/log" 2>/dev/null; do
    if ! kill -0 "$server" 2>/dev/null || [ "$SECONDS" -ge "$deadline" ]; then
      echo "pg floor: the server did not migrate the database; see $data/log" >&2; kill "$server" 2>/dev/null; return 1
    fi
    sleep 0.2   # polling a log file for a condition, under the deadline above
  done
  kill "$server"; wait "$server" 2>/dev/null || true
  "$bin/psql" -q -h "$OUT/pg" -p "$(pg_port)" -U postgres -d floor -v ON_ERROR_STOP=1 \
    -f Scripts/bench/pg-floor-setup.sql >/dev/null
  local c out tps lat
  for c in 1 8; do
    out=$("${GEN[@]}" "$bin/pgbench" -h "$OUT/pg" -p "$(pg_port)" -U postgres -n -M prepared \
          -f Scripts/bench/pg-floor-message.sql -c "$c" -j 1 -T "$secs" floor 2>&1) || { echo "$out" >&2; return 1; }
    tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -n 1)
    lat=$(echo "$out" | sed -n 's/^latency average = \([0-9.]*\) ms.*/\1/p')
    echo "RESULT workload=FLOOR store=postgres clients=$c tps=$tps latency_avg_ms=$lat secs=$secs"
  done
}
