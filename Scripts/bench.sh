#!/usr/bin/env bash
# Runs every benchmark workload (issue 7's W1-W5, issue 15's W6 flood and W7 slow pre-login
# connections, issue 11's W8 files) with one command and prints the figures.
#
#   Scripts/bench.sh                     # release build, W0-W8 once, table + RESULT lines
#   Scripts/bench.sh --workloads w8      # files only: 100 MiB up/down beside raw TCP, W1 during an upload
#   Scripts/bench.sh --smoke             # tiny counts, a few seconds: keeps the tool working (CI)
#   PEERS=1 Scripts/bench.sh             # also nats-server, ngircd, inspircd, redis (chatbench),
#                                        # in the same run, side by side with ratios
#   Scripts/bench.sh --workloads w1,w2   # any messageai-bench flags pass through
#   Scripts/bench.sh --database postgres --workloads w1,w2,w4,w5
#                                        # each round on SQLite, then on PostgreSQL (a cluster in
#                                        # OUT/pg, fsync and synchronous_commit on, pinned like the
#                                        # server), then the pgbench floor of a message's
#                                        # transaction on the server's schema; stores.py compares
#   Scripts/bench.sh --database postgres --workloads w1,w2,x1,x2
#                                        # also two nodes on one database (issue 26): X1 is W1 across
#                                        # nodes, X2 W2 spread over them (skipped on the SQLite round)
#
#   EXPERIMENT=Scripts/bench/server-fixes-experiment.diff Scripts/bench.sh
#                                        # also a server built from a patched copy (the diff is
#                                        # applied to a scratch copy, never to the tree)
# Env: RUNS (our runs, default 1), PEERS (0), PEER_RUNS (3), PEERS_DIR (the read-only
# chatbench folder; copied to a scratch dir before building), PIN_SERVER (core 0) and
# PIN_GEN (core 1) ("" = no pinning), TLIMIT (120 s per phase), BUILD (release; debug for
# --smoke), OUT (results folder, default .build/bench-results/UTC-TIMESTAMP).
# Reading the output: BENCHMARKS.md. All traffic stays on 127.0.0.1.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD

SMOKE=0
DATABASE=sqlite
args=()
while [ $# -gt 0 ]; do
  case "$1" in
    --smoke) SMOKE=1; args+=("$1") ;;
    --database) DATABASE="$2"; shift ;;
    --database=*) DATABASE="${1#--database=}" ;;
    *) args+=("$1") ;;
  esac
  shift
done
set -- ${args[@]+"${args[@]}"}
case "$DATABASE" in sqlite|postgres) ;; *) echo "bench.sh: --database sqlite|postgres, not '$DATABASE'" >&2; exit 2 ;; esac
RUNS=${RUNS:-1}
PEERS=${PEERS:-0}
PEER_RUNS=${PEER_RUNS:-3}
PIN_SERVER=${PIN_SERVER-0}
PIN_GEN=${PIN_GEN-1}
TLIMIT=${TLIMIT:-120}
if [ "$SMOKE" = 1 ]; then BUILD=${BUILD:-debug}; else BUILD=${BUILD:-release}; fi
OUT=${OUT:-$ROOT/.build/bench-results/$(date -u +%Y%m%dT%H%M%SZ)}
mkdir -p "$OUT"

./Scripts/install-deps.sh
# One product per call: swift build takes only the last --product given.
swift build -c "$BUILD" --product messageai-server
swift build -c "$BUILD" --product messageai-bench
BIN=$(swift build -c "$BUILD" --show-bin-path)

ulimit -n "$(ulimit -Hn)" 2>/dev/null || true   # W3 holds 10,000 sockets on each side
if [ -n "$PIN_GEN" ] && [ "$(nproc)" -gt 1 ] && command -v taskset >/dev/null; then
  GEN=(taskset -c "$PIN_GEN")
else
  GEN=()
  PIN_SERVER=""
fi

host_line() {
  echo "# $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -r) cores=$(nproc) cpu=\"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)\" build=$BUILD git=$(git rev-parse --short HEAD 2>/dev/null || echo none)"
}

run_peers() {
  local src=${PEERS_DIR:-}
  if [ -z "$src" ]; then
    for d in "$ROOT/../shared/bench-peers" "$ROOT/../../shared/bench-peers" /work/shared/bench-peers; do
      [ -f "$d/run.sh" ] && { src=$d; break; }
    done
  fi
  [ -n "$src" ] && [ -f "$src/run.sh" ] || { echo "bench-peers not found; set PEERS_DIR" >&2; return 1; }
  local missing=()
  for p in ngircd inspircd redis-server nats-server gcc make; do command -v "$p" >/dev/null || missing+=("$p"); done
  if [ ${#missing[@]} -gt 0 ]; then
    local sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq ngircd inspircd redis-server nats-server gcc make >/dev/null
  fi
  rm -rf "$OUT/peers-src"; cp -r "$src" "$OUT/peers-src"   # the shared folder is read-only
  rm -rf "$OUT/peers-src/results"
  (cd "$OUT/peers-src" && RUNS=$PEER_RUNS W2_LIGHT=0 TLIMIT=$TLIMIT PIN_SERVER="$PIN_SERVER" PIN_GEN="$PIN_GEN" \
     OUT="$OUT/peers" ./run.sh) >"$OUT/peers.log" 2>&1 || echo "peers run failed; see $OUT/peers.log" >&2
}

run_experiment() {  # DIFF [bench flags] -> RESULT lines of a server built from a patched scratch copy
  local diff=$1 exp="$ROOT/.build-experiment"
  shift
  rm -rf "$exp/src"; mkdir -p "$exp/src"
  cp -rp Package.swift Sources Tests "$exp/src/"   # -p keeps mtimes: only patched files rebuild
  # The ceiling keeps git from finding this repository above the copy: inside a repository,
  # `git apply` in a subdirectory silently skips every path outside it.
  (cd "$exp/src" && GIT_CEILING_DIRECTORIES="$exp" git apply "$ROOT/$diff")
  swift build -c "$BUILD" --package-path "$exp/src" --scratch-path "$exp/build" --product messageai-server
  host_line > "$OUT/experiment.txt"
  echo "# experiment: $diff" >> "$OUT/experiment.txt"
  for r in $(seq 1 "$RUNS"); do
    echo "== messageai-bench run $r of $RUNS, server with $diff" >&2
    timeout $((TLIMIT * 20 + 120)) "${GEN[@]}" "$BIN/messageai-bench" --server-cpu "$PIN_SERVER" -T "$TLIMIT" \
      --server-path "$(swift build -c "$BUILD" --package-path "$exp/src" --scratch-path "$exp/build" --show-bin-path)/messageai-server" \
      "$@" 2>>"$OUT/experiment.log" | tee -a "$OUT/experiment.txt" || true
  done
}

# shellcheck source=Scripts/bench/postgres-bench.sh
. Scripts/bench/postgres-bench.sh
host_line | tee "$OUT/ours.txt"
if [ "$PEERS" = 1 ]; then
  echo "== peers (chatbench, $PEER_RUNS runs each): $OUT/peers.log" >&2
  run_peers
fi
status=0
PG_ARGS=()
if [ "$DATABASE" = postgres ]; then
  start_postgres   # Scripts/bench/postgres-bench.sh: OUT/pg, stopped by the EXIT trap
  PG_ARGS=(--postgres "$OUT/pg")
fi
for r in $(seq 1 "$RUNS"); do
  echo "== messageai-bench run $r of $RUNS" >&2
  timeout $((TLIMIT * 20 + 120)) "${GEN[@]}" "$BIN/messageai-bench" --server-cpu "$PIN_SERVER" -T "$TLIMIT" "$@" \
    2> >(tee -a "$OUT/ours.log" >&2) | tee -a "$OUT/ours.txt" || status=$?
  if [ "$DATABASE" = postgres ]; then  # alternated: SQLite, PostgreSQL, SQLite, ...
    echo "== messageai-bench run $r of $RUNS on PostgreSQL" >&2
    timeout $((TLIMIT * 20 + 120)) "${GEN[@]}" "$BIN/messageai-bench" --server-cpu "$PIN_SERVER" -T "$TLIMIT" "${PG_ARGS[@]}" "$@" \
      2> >(tee -a "$OUT/ours.log" >&2) | tee -a "$OUT/ours.txt" || status=$?
  fi
done
if [ "$DATABASE" = postgres ]; then
  pg_floor | tee -a "$OUT/ours.txt"
fi

if [ -n "${EXPERIMENT:-}" ]; then
  run_experiment "$EXPERIMENT" "$@"
fi

if [ "$SMOKE" = 0 ] && command -v python3 >/dev/null; then
  peers_file=""; [ -f "$OUT/peers/results.txt" ] && peers_file="$OUT/peers/results.txt"
  python3 Scripts/bench/compare.py "$OUT/ours.txt" $peers_file | tee "$OUT/summary.md"
  [ "$DATABASE" = sqlite ] || python3 Scripts/bench/stores.py "$OUT/ours.txt" | tee -a "$OUT/summary.md"
  if [ -f "$OUT/experiment.txt" ]; then
    echo; echo "## With $EXPERIMENT applied"
    python3 Scripts/bench/compare.py "$OUT/experiment.txt" $peers_file | tee "$OUT/summary-experiment.md"
  fi
fi
echo "results in $OUT" >&2
exit "$status"
