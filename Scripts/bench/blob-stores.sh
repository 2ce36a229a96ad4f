#!/usr/bin/env bash
# Where several nodes could keep file bytes (issue 26 stage C), measured on one machine: a
# directory every node mounts (what the server does: write, fsync, rename; read back) against
# PostgreSQL large objects (psql's \lo_import and \lo_export over the unix socket, one
# transaction each, synchronous_commit on). The stores alone, not through messageai-server:
# the server's own work per chunk (TLS, frames, hashing) is the same for both and is left out.
# Rounds alternate the two stores. Prints MB/s and CPU ms per MB (the writer and, for
# PostgreSQL, its backend processes). Opt-in; figures go into BENCHMARKS.md, "Files across nodes".
#
#   Scripts/bench/blob-stores.sh [MIB] [ROUNDS]
set -euo pipefail
mib="${1:-64}"; rounds="${2:-3}"
here="$(cd "$(dirname "$0")/../.." && pwd)"
work="$(mktemp -d /tmp/blob-stores.XXXXXX)"
chmod 755 "$work"  # the postgres user must reach the cluster directory inside it
pgdir="$work/pg"
trap '"$here/Scripts/postgres.sh" stop --dir "$pgdir" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
url="$("$here/Scripts/postgres.sh" start --dir "$pgdir" | tail -1)"
head -c "$((mib << 20))" /dev/urandom > "$work/input"
mkdir -p "$work/blobs"

ticks() { getconf CLK_TCK; }
# CPU ticks (user+system) of the cluster: the postmaster with its reaped children (a psql
# session's backend ends with it and is counted there) and its live children (WAL writer...).
pg_cpu() {
  local master total pid
  master="$(head -1 "$pgdir/data/postmaster.pid")"
  total=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$master/stat")
  for pid in $(pgrep -P "$master"); do
    [ -r "/proc/$pid/stat" ] && total=$((total + $(awk '{print $14 + $15}' "/proc/$pid/stat")))
  done
  echo "$total"
}
now() { date +%s.%N; }
self_cpu() { awk '{print $14 + $15 + $16 + $17}' /proc/$$/stat; }  # this shell and its waited-for children

report() {  # name, bytes, seconds, cpu ticks
  awk -v n="$1" -v b="$2" -v s="$3" -v t="$4" -v hz="$(ticks)" \
    'BEGIN { mb = b / 1048576; printf "%-22s %8.1f MB/s %8.2f CPU ms/MB\n", n, mb / s, t / hz * 1000 / mb }'
}

bytes=$((mib << 20))
for round in $(seq 1 "$rounds"); do
  for store in directory largeobject; do
    if [ "$store" = directory ]; then
      c0=$(self_cpu); t0=$(now)
      dd if="$work/input" of="$work/blobs/tmp" bs=256K conv=fsync status=none
      mv "$work/blobs/tmp" "$work/blobs/blob"; sync -f "$work/blobs"
      t1=$(now); c1=$(self_cpu)
      report "directory upload" "$bytes" "$(echo "$t1 - $t0" | bc)" "$((c1 - c0))"
      c0=$(self_cpu); t0=$(now)
      dd if="$work/blobs/blob" of=/dev/null bs=256K status=none
      t1=$(now); c1=$(self_cpu)
      report "directory download" "$bytes" "$(echo "$t1 - $t0" | bc)" "$((c1 - c0))"
      rm -f "$work/blobs/blob"
    else
      c0=$(self_cpu); p0=$(pg_cpu); t0=$(now)
      oid=$(psql -X -A -t "$url" -c "\\lo_import $work/input" | awk '/lo_import/ {print $2}')
      t1=$(now); c1=$(self_cpu); p1=$(pg_cpu)
      report "large object upload" "$bytes" "$(echo "$t1 - $t0" | bc)" "$((c1 - c0 + p1 - p0))"
      c0=$(self_cpu); p0=$(pg_cpu); t0=$(now)
      psql -X -q -A -t "$url" -c "\\lo_export $oid $work/output" >/dev/null
      t1=$(now); c1=$(self_cpu); p1=$(pg_cpu)
      report "large object download" "$bytes" "$(echo "$t1 - $t0" | bc)" "$((c1 - c0 + p1 - p0))"
      cmp -s "$work/input" "$work/output" || { echo "large object came back different" >&2; exit 1; }
      psql -X -q "$url" -c "SELECT lo_unlink($oid)" >/dev/null
      rm -f "$work/output"
    fi
  done
done
